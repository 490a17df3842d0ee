"""Get structured data out of model text, however it was wrapped.

Models put JSON in code fences, surround it with prose, leave trailing commas or write it with
full-width Chinese punctuation. `extract_json` tolerates all of that; when nothing parses it
returns None and the caller records an abstention, never a guess.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from app.llm.types import safe_text

# Model replies are untrusted too (they may echo the problem): every pattern runs in linear
# time, with possessive whitespace runs so a long run is never re-split between quantifiers.
_FENCE = re.compile(r"```(?:json|JSON)?\s*+(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*+([}\]])")
_FULL_WIDTH = str.maketrans(
    {"｛": "{", "｝": "}", "：": ":", "，": ",", "“": '"', "”": '"', "［": "[", "］": "]"}
)
_VERDICT_LINE = re.compile(
    r"FINAL\s++VERIFICATION\s++ANSWER\s*+[:：]\s*+\**+\s*+(True|False)", re.I
)


def _candidates(text: str) -> list[str]:
    found = [text.strip(), *(m.strip() for m in _FENCE.findall(text))]
    # Every balanced {...} span, outermost first, so prose around the object is ignored.
    # Braces inside JSON strings do not count ("final_answer": "}" is not the end).
    depth, start, in_string, escaped = 0, None, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"' and depth:
            in_string = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                found.append(text[start : i + 1])
    return found


def _loads(candidate: str) -> dict[str, Any] | None:
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            value = json.loads(attempt, strict=False)  # raw newlines inside strings are common
            if not isinstance(value, dict):
                return None
            # "\u0000" or a lone "\ud800" escape decodes to text that cannot be stored or sent
            return _safe(value) if "\\u" in attempt or "\x00" in attempt else value
        except (json.JSONDecodeError, RecursionError):  # deep nesting ("[[[[…") is not JSON we want
            continue
    return None


def _safe(value: Any) -> Any:
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        return [_safe(v) for v in value]
    if isinstance(value, dict):
        return {safe_text(k): _safe(v) for k, v in value.items()}
    return value


def extract_json(text: str) -> dict[str, Any] | None:
    """The first JSON object in `text` that parses, or None."""
    if not text:
        return None
    for source in (text, text.translate(_FULL_WIDTH)):
        for candidate in _candidates(source):
            value = _loads(candidate)
            if value is not None:
                return value
    return None


def salvage_string_field(text: str, key: str) -> str | None:
    """The value of `"key": "..."` in JSON that was cut off (max_tokens) or is otherwise broken."""
    match = re.search(rf'"{re.escape(key)}"\s*+:\s*+"((?:[^"\\]|\\.)*+)"', text or "")
    if match is None:
        return None
    try:
        return safe_text(json.loads(f'"{match.group(1)}"', strict=False)).strip() or None
    except json.JSONDecodeError:
        return None


def extract_verdict_line(text: str) -> bool | None:
    """MAV's "FINAL VERIFICATION ANSWER: True/False" (the last one wins), or None."""
    matches = _VERDICT_LINE.findall(text or "")
    return matches[-1].lower() == "true" if matches else None


def coerce_bool(value: Any) -> bool | None:
    """JSON booleans, and the strings models write instead of them ("true", "是", "正确")."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = value.strip().lower()
        if v in {"true", "yes", "correct", "是", "正确", "对"}:
            return True
        if v in {"false", "no", "incorrect", "wrong", "否", "错误", "错", "不正确"}:
            return False
    return None


def coerce_probability(value: Any) -> float | None:
    """0.85, "0.85", "85%", 85 → 0.85. None for anything that is not a probability a model
    could mean: NaN, ±Infinity, a negative, 1.5 (a percent of 1.5, or 150 %?), over 100 %.
    A value that is not read counts as unstated, never clamped into certainty."""
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    percent = text.endswith("%")
    try:
        number = float(text.rstrip("%").strip())
    except ValueError:
        return None
    if not math.isfinite(number) or number < 0:
        return None
    if percent or number > 1:  # 85 is 85 %; 1.5 could be either
        if number > 100 or (not percent and not number.is_integer()):
            return None
        number /= 100
    return number
