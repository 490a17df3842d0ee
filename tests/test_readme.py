"""README is the front door: it begins with the two commands .ci/run executes, stays short,
and every link in it leads to a file of this repository (the manual lives in docs/, built by
`mkdocs build --strict` in .ci/run)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_begins_with_the_two_commands() -> None:
    """The first fenced block is bash and holds exactly the install-and-solve and the test
    commands (the same parse as .ci/run's)."""
    lines = README.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("```"))
    assert lines[first] == "```bash"
    end = lines.index("```", first + 1)
    commands = lines[first + 1 : end]
    assert len(commands) == 2
    assert "pip install -q --no-deps -r requirements/base.lock" in commands[0]
    assert commands[0].endswith('solveverify solve --text "Solve 2x + 3 = 11"')
    assert "requirements/dev.lock" in commands[1] and commands[1].endswith("pytest -q")
    assert all(not line.startswith("## ") for line in lines[:first])


def test_readme_is_short() -> None:
    assert len(README.splitlines()) < 200


def test_readme_links_lead_to_files() -> None:
    targets = re.findall(r"\]\(([^)\s]+)\)", README)
    local = [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "README links to the manual"
    missing = [t for t in local if not (ROOT / t).is_file()]
    assert missing == []
    assert "docs/index.md" in local
