"""defang's ASCII fast path (issue 17: it runs on every prompt) gives what the general path
gives: ASCII text has no format characters and NFKC leaves it alone, so its normalized view
is itself."""

from __future__ import annotations

import pytest

from app.llm import delimit
from app.llm.delimit import _normalized_view, defang


def general_path(tag: str, text: str) -> str:
    view, origin = _normalized_view(text)
    starts = {origin[m.start()] for m in delimit._tag_pattern(tag).finditer(view)}
    return "".join(delimit.DEFANGED_BRACKET if i in starts else c for i, c in enumerate(text))


@pytest.mark.parametrize(
    "text",
    [
        "Solve 2x + 3 = 11",
        "a < b and </problem> then <problem x=1> and </ PROBLEM>",
        "x<2 or x>5; <<problem>>",
        "",
        "\t\x00\x7f</problem\x00>",
        "72 clips ＜/problem＞",  # not ASCII: the general path
    ],
)
def test_ascii_fast_path_matches_the_general_path(text: str) -> None:
    assert defang("problem", text) == general_path("problem", text)


def test_every_ascii_character_is_its_own_normal_form() -> None:
    every = "".join(chr(c) for c in range(128))
    assert _normalized_view(every) == (every, list(range(128)))
