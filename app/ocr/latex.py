"""The layout step's linear notation back as LaTeX, for showing the student what was read
("we read: ½ + ⅓"): (a)/(b) → \\frac{a}{b}, 1 1/2 → 1\\frac{1}{2}, sqrt(x) → \\sqrt{x},
root_(3)(x) → \\sqrt[3]{x},
^(2) → ^{2}. Anything else is kept as written."""

from __future__ import annotations

import re

_MIXED = re.compile(r"(\d) (\d+)/(\d+)(?![\d(])")
_WORDS = {"×": r"\times ", "÷": r"\div ", "*": r"\times "}


def _closing(text: str, start: int) -> int:
    """Index of the bracket closing the one at `start`; -1 when unbalanced."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index
    return -1


def to_latex(text: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(text):
        if text.startswith("root_(", index):
            end = _closing(text, index + 5)
            if end > 0 and text.startswith("(", end + 1):
                stop = _closing(text, end + 1)
                if stop > 0:
                    degree = to_latex(text[index + 6 : end])
                    out.append(rf"\sqrt[{degree}]{{{to_latex(text[end + 2 : stop])}}}")
                    index = stop + 1
                    continue
        if text.startswith("sqrt(", index):
            end = _closing(text, index + 4)
            if end > 0:
                out.append(rf"\sqrt{{{to_latex(text[index + 5 : end])}}}")
                index = end + 1
                continue
        char = text[index]
        if char == "^" and text.startswith("^(", index):
            end = _closing(text, index + 1)
            if end > 0:
                out.append(f"^{{{to_latex(text[index + 2 : end])}}}")
                index = end + 1
                continue
        if char == "(":
            end = _closing(text, index)
            if end > 0 and text.startswith("/(", end + 1):
                stop = _closing(text, end + 2)
                if stop > 0:
                    numerator = to_latex(text[index + 1 : end])
                    denominator = to_latex(text[end + 3 : stop])
                    out.append(rf"\frac{{{numerator}}}{{{denominator}}}")
                    index = stop + 1
                    continue
        out.append(_WORDS.get(char, char))
        index += 1
    return _MIXED.sub(r"\1\\frac{\2}{\3}", "".join(out))
