"""Numbers in words, read back as digits (app/symbolic/number_words.py)."""

from __future__ import annotations

import pytest

from app.symbolic.number_words import as_digits, chinese_numeral, english_words


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("twelve or thirteen", "12 or 13"),
        ("Twenty-one or twenty two", "21 or 22"),
        ("one hundred and five apples", "105 apples"),
        ("zero", "0"),
        ("十二或十三", "12或13"),
        ("两千或三千", "2000或3000"),
        ("一百零五", "105"),
        ("一共有十二个", "一共有12个"),
        ("还剩一半", "还剩一半"),
        # runs that are no number stay as they are
        ("one two", "one two"),
        ("十十", "十十"),
        ("no numbers here", "no numbers here"),
    ],
)
def test_as_digits(text: str, digits: str) -> None:
    assert as_digits(text) == digits


@pytest.mark.parametrize("n", [0, 7, 13, 40, 99, 105, 999])  # 1: a lone 一 stays a word
def test_words_read_back(n: int) -> None:
    assert as_digits(english_words(n)) == str(n)
    assert as_digits(chinese_numeral(n)) == str(n)
