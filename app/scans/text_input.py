"""What problem text may contain: printable characters (newlines and tabs allowed), something
visible, and no more than the configured length.

NUL and other control characters are refused rather than stripped (Postgres cannot store NUL,
and a silently altered problem would be solved wrongly); so are lone surrogates, which no
UTF-8 database accepts. Text made only of whitespace, zero-width or other invisible characters
is blank.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from app.settings import InputSettings

DEFAULT_MAX_TEXT_CHARS: int = InputSettings.model_fields["max_text_chars"].default
_ALLOWED_CONTROLS = frozenset("\n\r\t")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs"})  # control characters, lone surrogates
# Format (zero-width space, joiners, BOM), combining marks on their own, separators.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp", "Cc"})
# Letters and symbols that print as a blank: Hangul fillers, the blank Braille pattern.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def max_text_chars(context: Mapping[str, Any] | None) -> int:
    """The limit a caller put in the validation context, else the process settings'."""
    if context and "max_text_chars" in context:
        return int(context["max_text_chars"])
    from app.settings import get_settings  # at call time: tests and servers differ

    return get_settings().input.max_text_chars


def _first_refused(value: str) -> str | None:
    return next(
        (
            c
            for c in value
            if c not in _ALLOWED_CONTROLS and unicodedata.category(c) in _REFUSED_CATEGORIES
        ),
        None,
    )


def _is_visible(char: str) -> bool:
    return (
        not char.isspace()
        and char not in _BLANKS
        and unicodedata.category(char) not in _INVISIBLE_CATEGORIES
    )


def check_problem_text(value: str, limit: int) -> str:
    if len(value) > limit:
        raise ValueError(f"text is longer than {limit} characters")
    refused = _first_refused(value)
    if refused is not None:
        raise ValueError(
            f"text contains the control character U+{ord(refused):04X}; "
            "only newlines and tabs are allowed"
        )
    if not any(_is_visible(c) for c in value):
        raise ValueError("text must contain the problem, not only blank or invisible characters")
    return value.strip()


def check_hint(value: str | None) -> str | None:
    """subject / grade: printable; blank means not given."""
    if value is None:
        return None
    refused = _first_refused(value)
    if refused is not None:
        raise ValueError(f"contains the control character U+{ord(refused):04X}")
    return value.strip() or None
