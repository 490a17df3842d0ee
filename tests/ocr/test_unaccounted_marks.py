"""A photo tester's drawings (PIL, DejaVu Sans) that reached the solver misread, several of
them then verified as proofs of the wrong problem: a numerator longer than its hand-drawn bar
("12" over a bar under the "1", read as `((1)/(3))^(2)`), a number the frame cuts ("3586"
cropped through the 8, read as 358; a sliver of a 5 read as "!"), a fraction drawn without a
bar or with one too faint to see (read as the lines "3", "+ 1 =", "4"), and a photo turned
15° (read as "-4=16" over "5x"), a term crossed out with one stroke (read whole, the stroke
unseen), "12" over a bar under its 2 (read as the mixed number 1 2/3), and a problem's number
("3. 2x + 3 = 11" read as 3.2x + 3 = 11). Each is a reading that does not account for every
mark: the reader abstains. Photos drawn the right way are still read (the last cases)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

from app.ocr.rapid import RapidOcrReader

Draw = Callable[[ImageDraw.ImageDraw, ImageFont.FreeTypeFont], None]


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


def _font(size: int = 48) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)


def _photo(draw: Draw, *, size: int = 48, crop: int | None = None, turn: float = 0) -> bytes:
    image = Image.new("L", (900, 300), 255)
    draw(ImageDraw.Draw(image), _font(size))
    if crop is not None:
        image = image.crop((0, 0, crop, 300))
    if turn:
        image = image.rotate(turn, expand=True, fillcolor=255)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _short_bar(numerator: str, denominator: str, rest: str = "= ?") -> Draw:
    """The bar under the first half of the numerator only (a hand's short bar)."""

    def draw(d: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont) -> None:
        width = d.textlength(numerator, font=font)
        d.text((100, 80), numerator, font=font, fill=0)
        d.line([(96, 145), (104 + width / 2, 145)], fill=0, width=4)
        under = d.textlength(denominator, font=font)
        d.text((100 + (width / 2 - under) / 2, 152), denominator, font=font, fill=0)
        d.text((140 + width, 120), rest, font=font, fill=0)

    return draw


def _stacked(bar_grey: int | None) -> Draw:
    """3 over 4, then "+ 1 =": no bar (None), or one of this grey."""

    def draw(d: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont) -> None:
        d.text((108, 92), "3", font=font, fill=0)
        d.text((108, 154), "4", font=font, fill=0)
        if bar_grey is not None:
            d.line([(100, 150), (150, 150)], fill=bar_grey, width=4)
        d.text((170, 120), "+ 1 =", font=font, fill=0)

    return draw


def _line(text: str) -> Draw:
    return lambda d, font: d.text((60, 120), text, font=font, fill=0)


def _struck(start: tuple[int, int], end: tuple[int, int]) -> Draw:
    """ "2x + 5 + 3 = 11" with a stroke through "+ 5" (a student crossing a term out)."""

    def draw(d: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont) -> None:
        d.text((60, 120), "2x + 5 + 3 = 11", font=font, fill=0)
        d.line([start, end], fill=0, width=3)

    return draw


def _bar_under_the_right(numerator: str, denominator: str) -> Draw:
    """The bar under the last digit only, the denominator under the first: "12" over "3"."""

    def draw(d: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont) -> None:
        width = d.textlength(numerator, font=font)
        d.text((100, 80), numerator, font=font, fill=0)
        d.line([(100 + width / 2, 145), (104 + width, 145)], fill=0, width=4)
        d.text((100, 152), denominator, font=font, fill=0)
        d.text((140 + width, 120), "+ 1 =", font=font, fill=0)

    return draw


ABSTAINS = [
    ("12 over a short bar over 3", _photo(_short_bar("12", "3"))),
    ("24 over a short bar over 6", _photo(_short_bar("24", "6"))),
    ("15 over a short bar over 5, plus 1", _photo(_short_bar("15", "5", "+ 1 = ?"))),
    ("x2 over a short bar over 4", _photo(_short_bar("x2", "4", "= 3"))),
    ("3586 cut through the 8", _photo(_line("x + 12 = 3586"), crop=368)),
    ("a sliver of the 5 of 35", _photo(_line("x + 12 = 35"), crop=330)),
    ("3 over 4 with no bar", _photo(_stacked(None))),
    ("3 over 4 with a bar too faint to see", _photo(_stacked(235))),
    ("a line turned 15 degrees", _photo(_line("5x - 4 = 16"), turn=15)),
    ("+ 5 struck through level", _photo(_struck((145, 150), (225, 150)))),
    ("+ 5 struck through slanted", _photo(_struck((150, 125), (230, 175)))),
    ("12 over a bar under its 2 (not 1 2/3)", _photo(_bar_under_the_right("12", "3"))),
    ("a problem's number: 3. 2x + 3 = 11", _photo(_line("3. 2x + 3 = 11"))),
    ("a problem's number: 2. 4 + 6 =", _photo(_line("2. 4 + 6 ="))),
]


@pytest.mark.parametrize(("what", "photo"), ABSTAINS, ids=[a[0] for a in ABSTAINS])
def test_a_mark_the_reading_does_not_account_for_is_not_read(
    reader: RapidOcrReader, what: str, photo: bytes
) -> None:
    result = reader.read_sync(photo)
    assert result.unread, f"{what}: read as {result.text!r}"


READ = [
    ("x + 12 = 35, all of it", _photo(_line("x + 12 = 35")), "x + 12 = 35"),
    ("a decimal: 3.2x + 3 = 11", _photo(_line("3.2x + 3 = 11")), "3.2x + 3 = 11"),
    ("a line turned 8 degrees", _photo(_line("2x + 3 = 11"), turn=8), "2x + 3 = 11"),
]


@pytest.mark.parametrize(("what", "photo", "text"), READ, ids=[r[0] for r in READ])
def test_whole_photos_are_still_read(
    reader: RapidOcrReader, what: str, photo: bytes, text: str
) -> None:
    result = reader.read_sync(photo)
    assert result.unread is None, f"{what}: {result.unread}"
    assert result.text == text
