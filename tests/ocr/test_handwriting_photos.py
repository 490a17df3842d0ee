"""Photos in handwriting-like fonts (Debian's fonts-humor-sans, fonts-breip, fonts-klee,
drawn through mathtext's custom font set): read exactly where the layout step can, and a power
written low, as a hand does, is read neither as a power nor as a digit on the line (Breip's
`3^2+4^2` came out as `32+4^(2)`, which the solver would have proved as 48). The fonts are
no dependency of the project: each test skips, saying so, where its font is not installed."""

from __future__ import annotations

import pytest

from app.ocr.rapid import RapidOcrReader
from solveverify_bench.math_photos import PhotoStyle, handwriting_fonts, render_math


def _needs(font: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        font not in handwriting_fonts(),
        reason=f"the handwriting-like font {font!r} is not installed on this machine "
        "(Debian: apt-get install fonts-humor-sans fonts-dkg-handwriting fonts-breip fonts-klee)",
    )


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


@_needs("breip")
def test_a_power_written_low_is_not_read(reader: RapidOcrReader) -> None:
    result = reader.read_sync(render_math(r"3^2+4^2", PhotoStyle(fontset="breip", size=36)))
    assert result.unread == "a symbol sits neither on the line nor raised"


@_needs("dkg")
def test_a_power_whose_last_digit_hangs_low_is_not_read(reader: RapidOcrReader) -> None:
    """DkgHandwriting's `16^{0.5}`, tilted: its 5 reaches down to the 6's middle; it was read
    `16^(0).5` and verified wrong."""
    style = PhotoStyle(fontset="dkg", size=44, rotation=1.8, jpeg_quality=90)
    result = reader.read_sync(render_math(r"16^{0.5}", style))
    assert result.unread == "a symbol sits neither on the line nor raised"


@pytest.mark.parametrize(
    ("latex", "font", "text"),
    [
        pytest.param(r"\frac{12}{4}+5", "humor", "(12)/(4)+5", marks=_needs("humor")),
        pytest.param(r"\frac{3}{4}-\frac{1}{4}", "klee", "(3)/(4)-(1)/(4)", marks=_needs("klee")),
    ],
)
def test_handwriting_like_fractions_are_read(
    reader: RapidOcrReader, latex: str, font: str, text: str
) -> None:
    result = reader.read_sync(render_math(latex, PhotoStyle(fontset=font, size=36)))
    assert result.unread is None
    assert result.text.replace(" ", "") == text
