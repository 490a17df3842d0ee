"""Issue 24's photos that bench ocr left unread in every font, now read from their ink:
`8\\div\\frac{1}{2}` (the line beside the fraction is the 8 and the dots of ÷, which made
the 8 "far taller than its line"), `\\frac{3}{4}\\div\\frac{1}{2}` in cm (the dots of ÷ as
big as a numerator), `3\\cdot 4+1` (one look writes `·`, the other `.`), cm's `2^5` and
`2^{10}` (one look writes `2⁵`, the other `25`), DejaVu's lone x (`x` or `X`). Each photo
is the bench's own (its seed's size, tilt, blur and JPEG) and is read exactly and verified
right; where the looks disagree the ink decides, and what the ink does not bear out is not
read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy.typing import NDArray

from app.ocr.images import decode_for_ocr
from app.ocr.ink import Ink, find_ink
from app.ocr.math_reading import Recognize, StructuredReader, Unread
from app.ocr.rapid import RapidOcrReader
from app.ocr.structure import Fraction, Piece, top_level
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from solveverify_bench.math_photos import PhotoStyle, render_math


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


# (latex, style, the exact reading, the right answer): photos of bench ocr --seed 0/7
CASES = [
    (
        r"8\div\frac{1}{2}",
        PhotoStyle(fontset="stix", size=36, rotation=0.5),
        "8÷((1)/(2))",
        "16",
    ),
    (r"8\div\frac{1}{2}", PhotoStyle(size=36, jpeg_quality=70), "8÷((1)/(2))", "16"),
    (
        r"8\div\frac{1}{2}",
        PhotoStyle(fontset="cm", size=28, blur=0.8, jpeg_quality=90),
        "8÷((1)/(2))",
        "16",
    ),
    (
        r"\frac{3}{4}\div\frac{1}{2}",
        PhotoStyle(fontset="cm", size=44),
        "((3)/(4))÷((1)/(2))",
        "3/2",
    ),
    (
        r"3\cdot 4+1",
        PhotoStyle(fontset="cm", size=36, rotation=-0.3, blur=0.8, jpeg_quality=90),
        "3*4+1",
        "13",
    ),
    (r"3\cdot 4+1", PhotoStyle(fontset="stix", size=44, blur=0.5), "3*4+1", "13"),
    (r"2^5-10", PhotoStyle(fontset="cm", size=36, rotation=0.7), "2^(5)-10", "22"),
    (r"2^{10}", PhotoStyle(fontset="cm", size=28, jpeg_quality=70), "2^(10)", "1024"),
    (
        r"\frac{x}{2}^{2}=4",
        PhotoStyle(size=28, blur=0.8, jpeg_quality=90),
        "((x)/(2))^(2)=4",
        "x = -4 or x = 4",
    ),
]


def _plain(text: str) -> str:
    return text.replace(" ", "")


@pytest.mark.parametrize(("latex", "style", "reading", "answer"), CASES)
async def test_read_exactly_and_verified_right(
    reader: RapidOcrReader, make_context, latex: str, style: PhotoStyle, reading: str, answer: str
) -> None:
    context = replace(make_context(), ocr=reader)
    state = await run_pipeline(build_graph(), context, SolveState(image=render_math(latex, style)))
    assert state.ocr_unread is None
    assert _plain(state.problem_text) == _plain(reading)
    assert state.verification_status == "verified"
    assert state.solution is not None
    assert _plain(state.solution.final_answer) == _plain(answer)


def _ink_of(latex: str, style: PhotoStyle) -> Ink:
    ink = find_ink(np.asarray(decode_for_ocr(render_math(latex, style), max_side=1600)))
    assert ink is not None
    return ink


def test_the_dots_of_a_divide_sign_are_no_fraction() -> None:
    nodes = top_level(_ink_of(r"\frac{3}{4}\div\frac{1}{2}", PhotoStyle(fontset="cm", size=44)))
    assert sum(isinstance(n, Fraction) for n in nodes) == 2
    assert sum(isinstance(n, Piece) for n in nodes) == 3  # ÷: its bar and two dots


def _scripted(*looks: str) -> Recognize:
    """A recognizer that reads the page's one run as `looks` (first look, second look)."""
    answers = iter(looks)

    def recognize(crop: NDArray[np.uint8]) -> tuple[str, float]:
        return next(answers), 0.99

    return recognize


def test_a_digit_one_look_writes_raised_must_be_raised_in_the_ink() -> None:
    """`25-10` on the line: one look writing `2⁵` does not make the 5 a power."""
    ink = _ink_of(r"25-10", PhotoStyle(fontset="cm", size=36))
    with pytest.raises(Unread, match="raised"):
        StructuredReader(ink, _scripted("2⁵-10", "25-10")).read(top_level(ink))


def test_a_raised_digit_read_plain_by_one_look_is_placed_by_the_ink() -> None:
    ink = _ink_of(r"2^5-10", PhotoStyle(fontset="cm", size=36))
    text = StructuredReader(ink, _scripted("2⁵-10", "25-10")).read(top_level(ink))
    assert _plain(text) == "2^(5)-10"


def test_looks_that_differ_in_more_than_a_script_or_a_dot_still_disagree() -> None:
    ink = _ink_of(r"3\cdot 4+1", PhotoStyle(fontset="cm", size=36))
    with pytest.raises(Unread, match="disagree"):
        StructuredReader(ink, _scripted("3·4+1", "3.4+7")).read(top_level(ink))


def test_a_dot_neither_on_the_line_nor_halfway_up_is_not_read(reader: RapidOcrReader) -> None:
    """The looks may write the dot either way; its place in the ink decides, and a dot
    raised to the digits' tops is neither a decimal point nor a product."""
    ink = _ink_of(r"3^{\cdot}4+1", PhotoStyle(fontset="cm", size=36))
    with pytest.raises(Unread):
        StructuredReader(ink, _scripted("3·4+1", "3.4+1")).read(top_level(ink))
    result = reader.read_sync(render_math(r"3^{\cdot}4+1", PhotoStyle(fontset="cm", size=36)))
    assert result.unread is not None


def test_a_lone_x_read_in_both_cases_is_not_read() -> None:
    """`x` and `X` on one page may be one letter read two ways, or two letters."""
    ink = _ink_of(r"2x+3=11", PhotoStyle(size=36))
    assert _plain(StructuredReader(ink, _scripted("2X+3=11", "2x+3=11")).read(top_level(ink))) == (
        "2x+3=11"
    )
    with pytest.raises(Unread, match="both cases"):
        StructuredReader(ink, _scripted("2X+x=11", "2x+x=11")).read(top_level(ink))
