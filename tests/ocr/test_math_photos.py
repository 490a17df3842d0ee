"""Photos of typeset math (matplotlib mathtext, drawn here) through the real RapidOCR and the
layout step: stacked notation is read, and what cannot be read is never solved."""

from __future__ import annotations

import numpy as np
import pytest

from app.ocr.images import decode_for_ocr
from app.ocr.ink import Ink, find_ink
from app.ocr.page import TextBox, read_page
from app.ocr.rapid import RapidOcrReader
from app.ocr.structure import Fraction, Radical, top_level
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from app.solutions.caution import caution_code
from solveverify_bench.math_photos import PhotoStyle, render_math
from tests.fixtures.images import draw_text


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


def _ink(latex: str, style: PhotoStyle | None = None) -> Ink:
    image = render_math(latex, style or PhotoStyle())
    ink = find_ink(np.asarray(decode_for_ocr(image, max_side=1600)))
    assert ink is not None
    return ink


def test_bars_with_symbols_above_and_below_are_fractions_nested_too() -> None:
    (fraction,) = [n for n in top_level(_ink(r"\frac{1}{1+\frac{1}{2}}")) if n]
    assert isinstance(fraction, Fraction)
    assert any(isinstance(n, Fraction) for n in fraction.denominator)


@pytest.mark.parametrize("latex", [r"3\div 4", r"x-2=5", r"|x-3|=5"])
def test_minus_equals_and_divide_are_not_fractions(latex: str) -> None:
    assert not any(isinstance(n, Fraction | Radical) for n in top_level(_ink(latex)))


def test_a_radical_holds_what_its_bar_covers() -> None:
    nodes = top_level(_ink(r"\sqrt{x+5}=3", PhotoStyle(fontset="stix")))
    (radical,) = [n for n in nodes if isinstance(n, Radical)]
    assert len(radical.body) == 3  # x, +, 5; "=3" stays outside


@pytest.mark.parametrize(
    ("latex", "style", "text"),
    [
        (r"1\frac{1}{2}+2", PhotoStyle(fontset="cm", size=36), "1 1/2+2"),
        (r"\sqrt{x+5}=3", PhotoStyle(fontset="stix", size=36, jpeg_quality=80), "sqrt(x+5)=3"),
        (r"x^2-5x+6=0", PhotoStyle(fontset="cm", size=36, rotation=1.0), "x^(2)-5x+6=0"),
        # A tilted photo whose first power broke in two (bench ocr once verified 32+4^2 = 48).
        (
            r"3^2+4^2",
            PhotoStyle(fontset="stix", size=36, rotation=2.0, jpeg_quality=90),
            "3^(2)+4^(2)",
        ),
    ],
)
def test_stacked_and_raised_notation_is_read(
    reader: RapidOcrReader, latex: str, style: PhotoStyle, text: str
) -> None:
    result = reader.read_sync(render_math(latex, style))
    assert result.unread is None
    assert result.text.replace(" ", "") == text.replace(" ", "") or result.text == text


async def test_a_fraction_equation_is_read_and_verified_right(
    reader: RapidOcrReader, make_context
) -> None:
    from dataclasses import replace

    context = replace(make_context(), ocr=reader)
    image = render_math(r"\frac{x}{4}=3", PhotoStyle(fontset="cm", size=36, blur=0.5))
    state = await run_pipeline(build_graph(), context, SolveState(image=image))
    assert state.problem_text.replace(" ", "") == "(x)/(4)=3"
    assert state.ocr_latex is not None and state.ocr_latex.replace(" ", "") == r"\frac{x}{4}=3"
    assert state.verification_status == "verified"
    assert state.solution is not None and state.solution.final_answer.replace(" ", "") == "x=12"


async def test_what_the_layout_cannot_read_is_not_solved(
    reader: RapidOcrReader, make_context
) -> None:
    """A sum's limits are stacked: what the line reader makes of it must not be proved."""
    from dataclasses import replace

    context = replace(make_context(), ocr=reader)
    image = render_math(r"\sum_{i=1}^{3} i", PhotoStyle(size=36))
    state = await run_pipeline(build_graph(), context, SolveState(image=image))
    assert state.ocr_unread
    assert state.solution is None and state.verification_status == "unverified"
    assert caution_code(state) == "incomplete_reading"


@pytest.mark.parametrize("fontset", ["cm", "stix"])
def test_a_subscript_read_as_a_digit_is_incomplete(reader: RapidOcrReader, fontset: str) -> None:
    result = reader.read_sync(render_math(r"x_1+x_2=5", PhotoStyle(fontset=fontset, size=36)))
    assert result.unread and "subscript" in result.unread


def test_a_faint_hairline_lost_to_the_threshold_is_never_read_as_another_digit(
    reader: RapidOcrReader,
) -> None:
    """cm's '4' at 28 pt, blurred: its diagonal is lighter than any threshold, and the rest
    alone looks like '1' (bench ocr once verified 3/4 - 1/1 = -1/4)."""
    style = PhotoStyle(fontset="cm", size=28, blur=0.8, jpeg_quality=90, prefix="Compute: ")
    result = reader.read_sync(render_math(r"\frac{3}{4}-\frac{1}{4}", style))
    assert result.unread or result.text.replace(" ", "") == "Compute:(3)/(4)-(1)/(4)"


def test_ink_outside_every_box_makes_the_reading_incomplete() -> None:
    image = np.asarray(decode_for_ocr(draw_text("2x + 3 = 11"), max_side=1600))
    left_half = np.array([[0, 0], [image.shape[1] / 2, 0], [image.shape[1] / 2, 200], [0, 200]])
    box = TextBox(left_half.astype(np.float32), "2x +")

    def never(crop: np.ndarray) -> tuple[str, float]:
        raise AssertionError("plain text needs no layout step")

    page = read_page(image, "2x +", [box], never)
    assert page.unread and "outside" in page.unread


def test_a_box_with_fewer_symbols_than_ink_is_incomplete() -> None:
    image = np.asarray(decode_for_ocr(draw_text("2x + 3 = 11"), max_side=1600))
    height, width = image.shape[:2]
    whole = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    page = read_page(image, "x=11", [TextBox(whole, "x=11")], lambda crop: ("", 0.0))
    assert page.unread and "fewer symbols" in page.unread
