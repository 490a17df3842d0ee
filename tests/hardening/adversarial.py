"""Hostile strings up to the text limit: long runs of every operator and separator, nested
brackets, digit runs, mixed scripts, and the shapes that made the old patterns backtrack."""

from __future__ import annotations

from collections.abc import Iterator

LIMIT = 4000
OPERATORS = [*"=+-*/^×÷<>≤≥%!.,;:，；：。、()[]{}", "**", "\\frac", "\\sqrt", "</problem>"]
SEPARATORS = [" ", "\t", "\n", "\r\n", "\u3000", "\u200b", "\u00a0"]


def _fill(pattern: str, limit: int = LIMIT) -> str:
    return (pattern * (limit // max(1, len(pattern)) + 1))[:limit]


def adversarial_texts(limit: int = LIMIT) -> Iterator[tuple[str, str]]:
    """(name, text) pairs, each at most `limit` characters."""
    half = limit // 2
    yield "system regex", "=" * 1000 + "," * (limit - 1000)
    yield "system regex zh", "=" * 1000 + "，" * (limit - 1000)
    for op in OPERATORS:
        yield f"run {op!r}", _fill(op, limit)
        yield f"alternating {op!r}", _fill(f"{op}x", limit)
        yield f"spaced {op!r}", _fill(f"{op} ", limit)
    for sep in SEPARATORS:
        yield f"letter then run {sep!r}", "x" + _fill(sep, limit - 2) + "y"
        yield f"words {sep!r}", _fill(f"abc{sep}", limit)
    yield "digits", _fill("9", limit)
    yield "digits then x", _fill("9", limit - 1) + "x"
    yield "letters", _fill("a", limit)
    yield "letters then space", _fill("a", limit - 1) + " "
    yield "six words repeated", _fill("alpha beta gamma delta omega theta 1 ", limit)
    yield "cjk", _fill("方程组解", limit)
    yield "cjk eleven", _fill("一二三四五六七八九十百 ", limit)
    yield "nested round", "(" * half + ")" * (limit - half)
    yield "nested braces", "{" * half + "}" * (limit - half)
    yield "nested frac", _fill("\\frac{", half) + "}" * (limit - half)
    yield "fence open", "```json" + " " * (limit - 7)
    yield "fences", _fill("```", limit)
    yield "verdict shape", "FINAL VERIFICATION ANSWER:" + " *" * ((limit - 40) // 2) + " maybe"
    yield "verdict whitespace", "FINAL VERIFICATION ANSWER:" + " " * (limit - 40) + "x"
    yield "salvage", '"final_answer": "' + "\\" * (limit - 20)
    yield "salvage repeat", _fill('"final_answer": "\\"', limit)
    yield "trailing commas", _fill(", ", limit)
    yield "quadratic ws", "x" + " " * (limit - 3) + "^3"
    yield "fraction ws", "1" + " " * (limit - 3) + "/x"
    yield "tags", _fill("<problem ", limit)
    yield "tag look-alikes", _fill("＜/ｐｒｏｂｌｅｍ ", limit)
    yield "zero-width tag", _fill("<\u200b/\u200bproblem", limit)
    yield "mixed scripts", _fill("x²+√2=π，解方程 αβγ ١٢٣ 𝟙𝟚𝟛 ", limit)
    yield "combining marks", _fill("a\u0301\u0302\u0303", limit)
    yield "surrogate-free emoji", _fill("🧮=", limit)
