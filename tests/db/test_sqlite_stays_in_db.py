"""Only the db layer (app/db) knows that the embedded database is SQLite: the rest of the
package asks it a question (app/db/capabilities.py, app/db/process_lock.py,
app/db/transaction.py retry_when_locked) instead of testing the URL or an error message.

Code spells SQLite in lower case (URL schemes, drivers, modules, `is_sqlite`), and SQLite's
lock error reads "database is locked": those are what is looked for, in identifiers and in
string literals. Prose that names SQLite for people (docstrings, comments, help texts) decides
nothing and is not looked at."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
OUTSIDE_DB = [p for p in sorted(APP.rglob("*.py")) if p.relative_to(APP).parts[0] != "db"]

# Outside app/db, only where it cannot be otherwise; each says why.
ALLOWED = {
    # The embedded default URL is configuration, and `is_sqlite` only reads the URL's scheme
    # (the db layer decides what follows from it); settings sit below the db layer in the
    # import layers, so they cannot ask it.
    "app/settings.py",
}
IN_CODE = ("sqlite", "database is locked")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def sqlite_mentions(source: str) -> list[str]:
    """'line: what' for each identifier or non-docstring string literal that knows SQLite."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        words = [n.lower() for n in _names(node) if "sqlite" in n.lower()]
        literal = node.value if isinstance(node, ast.Constant) else None
        if isinstance(literal, str) and id(node) not in docstrings:
            words += [repr(literal[:60])] if any(w in literal for w in IN_CODE) else []
        found += [(getattr(node, "lineno", 0), w) for w in words]
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_no_module_outside_the_db_layer_knows_sqlite() -> None:
    assert len(OUTSIDE_DB) > 100  # the walk found the package
    bad = {
        str(path.relative_to(ROOT)): mentions
        for path in OUTSIDE_DB
        if str(path.relative_to(ROOT)) not in ALLOWED
        and (mentions := sqlite_mentions(path.read_text(encoding="utf-8")))
    }
    assert bad == {}


def test_the_allow_list_is_still_needed() -> None:
    for allowed in ALLOWED:
        assert sqlite_mentions((ROOT / allowed).read_text(encoding="utf-8")), allowed


def test_the_check_sees_code_and_not_prose() -> None:
    code = '''
"""The embedded SQLite database migrates itself."""
import sqlite3
from aiosqlite import connect

def workers(settings):
    """One process on SQLite."""
    # SQLite has one writer
    if settings.database.is_sqlite or settings.url.startswith("sqlite"):
        return 1
    if "database is locked" in message:
        return 2
    return help_text("1 on SQLite")
'''
    assert sqlite_mentions(code) == [
        "3: sqlite3",
        "4: aiosqlite",
        "9: 'sqlite'",
        "9: is_sqlite",
        "11: 'database is locked'",
    ]
