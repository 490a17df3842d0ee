"""Final-answer equivalence: the MATH answer normalizer, backed by math-verify.

`normalize_math_answer` is the Hendrycks MATH normalizer (strip \\boxed, units, spaces,
\\left/\\right, normalize fractions). Strings equal after it are the same answer; otherwise an
`Equivalence` (math-verify in the symbolic sandbox, in the service) has the last word.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

Equivalence = Callable[[str, str], Awaitable[bool | None]]

_UNITS = re.compile(r"\\(?:text|mbox|mathrm)\{\s*[a-zA-Z ]*\}")


def _last_boxed(text: str) -> str:
    start = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
    if start < 0:
        return text
    brace = text.find("{", start)
    if brace < 0:
        return text[start + len("\\boxed") :].strip()
    depth = 0
    for i in range(brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[brace + 1 : i]
    return text[brace + 1 :]


def _fix_fracs(text: str) -> str:
    """\\frac12 → \\frac{1}{2}, \\frac1{2} → \\frac{1}{2}."""

    def braced(match: re.Match[str]) -> str:
        numerator, denominator = (g.strip("{}") for g in match.groups())
        return "\\frac{" + numerator + "}{" + denominator + "}"

    return re.sub(r"\\frac\s*(\d|\{[^{}]*\})\s*(\d|\{[^{}]*\})", braced, text)


def normalize_math_answer(answer: str | None) -> str | None:
    if answer is None:
        return None
    text = _last_boxed(str(answer))
    text = text.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    text = text.replace("tfrac", "frac").replace("dfrac", "frac")
    text = text.replace("\\left", "").replace("\\right", "")
    text = text.replace("^{\\circ}", "").replace("^\\circ", "")
    text = text.replace("\\$", "").replace("$", "").replace("\\%", "").replace("%", "")
    text = _UNITS.sub("", text)
    text = text.replace(" .", " 0.").replace("{.", "{0.")
    if text.startswith("."):
        text = "0" + text
    if len(text.split("=")) == 2 and len(text.split("=")[0].strip()) <= 2:
        text = text.split("=")[1]  # "x = 5" → "5"
    text = _fix_fracs(text)
    text = text.replace(" ", "")
    if re.fullmatch(r"-?\d+/\d+", text):  # "1/2" → "\frac{1}{2}"
        numerator, denominator = text.split("/")
        text = f"\\frac{{{numerator}}}{{{denominator}}}"
    if text == "0.5":
        text = "\\frac{1}{2}"
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # 1,000 → 1000
    return text.rstrip(".")


_FINAL_PATTERNS = [
    re.compile(r"####\s*(.+?)\s*$", re.M),
    re.compile(r"final answer\s*(?:is|:)?\s*(.+?)\s*$", re.I | re.M),
    re.compile(r"the answer is\s*(.+?)\.?\s*$", re.I | re.M),
    re.compile(r"答案[是为:：]\s*(.+?)\s*$", re.M),
]


def extract_final_answer(solution: str) -> str | None:
    """The final answer in a worked solution: \\boxed{}, "Final answer: …", "####", or the
    last number."""
    if "\\boxed" in solution or "\\fbox" in solution:
        return _last_boxed(solution).strip() or None
    for pattern in _FINAL_PATTERNS:
        found = pattern.findall(solution)
        if found:
            return found[-1].strip().rstrip(".") or None
    numbers = re.findall(r"-?\d+(?:[.,/]\d+)*", solution)
    return numbers[-1] if numbers else None


async def cluster_answers(
    answers: Sequence[str | None], equivalent: Equivalence | None = None
) -> list[list[int]]:
    """Group candidate indices by answer equivalence (greedy, first member represents).

    A missing answer is never equal to anything, so each one stays alone.
    """
    clusters: list[list[int]] = []
    normalized = [normalize_math_answer(a) for a in answers]
    for index, answer in enumerate(normalized):
        if answer is None or answer == "":
            clusters.append([index])
            continue
        for group in clusters:
            representative = normalized[group[0]]
            if representative is None or representative == "":
                continue
            if representative == answer or (
                equivalent is not None
                and await equivalent(answers[group[0]] or "", answers[index] or "")
            ):
                group.append(index)
                break
        else:
            clusters.append([index])
    return clusters
