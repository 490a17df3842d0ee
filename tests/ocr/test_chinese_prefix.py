"""Chinese words before a formula (解方程：, 计算：, 化简：): told apart from the formula's ink,
so its fractions, mixed numbers and radicals are read as without them, and the words go back
in front of the reading. Drawing them needs a font with Chinese glyphs, which none of the
project's dependencies ships: those tests skip where the machine has none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.ocr.rapid import RapidOcrReader
from app.ocr.words import leading_words, rest_of_line_text
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from solveverify_bench.math_photos import PhotoStyle, cjk_font, render_math

needs_chinese_font = pytest.mark.skipif(
    cjk_font() is None,
    reason="no font with Chinese glyphs to draw 解方程： on this machine "
    "(Debian: apt-get install fonts-noto-cjk)",
)


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


def test_the_words_before_a_formula() -> None:
    assert leading_words("解方程： (x)/(4)=3") == "解方程"
    assert leading_words("计算:1+2") == "计算"
    assert rest_of_line_text("解方程： x4 =3", "解方程") == "x4 =3"
    assert leading_words("x=3") is None
    # The recognizer reads a minus as 一 and '=' as 二: never taken for words.
    assert leading_words("一x=3") is None and leading_words("二") is None


@needs_chinese_font
@pytest.mark.parametrize(
    ("latex", "style", "text"),
    [
        (
            r"\frac{x}{4}=3",
            PhotoStyle(fontset="cm", size=36, prefix="解方程："),
            "解方程：(x)/(4)=3",
        ),
        (
            r"1\frac{1}{2}+2",
            PhotoStyle(fontset="stix", size=36, blur=0.5, prefix="计算："),
            "计算：1 1/2+2",
        ),
        (
            r"\frac{1}{1+\frac{1}{2}}",
            PhotoStyle(fontset="dejavusans", size=44, jpeg_quality=90, prefix="化简："),
            "化简：(1)/(1+(1)/(2))",
        ),
        (
            r"\sqrt{x+5}=3",
            PhotoStyle(fontset="stix", size=36, rotation=1.0, prefix="解方程："),
            "解方程：sqrt(x+5)=3",
        ),
    ],
)
def test_stacked_notation_after_chinese_words_is_read(
    reader: RapidOcrReader, latex: str, style: PhotoStyle, text: str
) -> None:
    result = reader.read_sync(render_math(latex, style))
    assert result.unread is None
    assert result.text.replace(" ", "") == text.replace(" ", "") or result.text == text
    assert result.latex is not None and result.latex.startswith(style.prefix)


@needs_chinese_font
async def test_a_fraction_after_chinese_words_is_verified_right(
    reader: RapidOcrReader, make_context
) -> None:
    context = replace(make_context(), ocr=reader)
    image = render_math(r"\frac{2x}{5}=4", PhotoStyle(fontset="cm", size=36, prefix="解方程："))
    state = await run_pipeline(build_graph(), context, SolveState(image=image))
    assert state.problem_text.replace(" ", "") == "解方程：(2x)/(5)=4"
    assert state.verification_status == "verified"
    assert state.solution is not None
    assert state.solution.final_answer.replace(" ", "") == "x=10"


def test_fractions_among_the_words_are_never_dropped(reader: RapidOcrReader) -> None:
    """An outside tester's photo (Noto Sans CJK, 32 pt): ¾和5/7哪个大？ The recognizer reads the
    words and drops both stacked fractions; the piece left of the first gap, read as 和, held
    ¾ and 5/7. A fraction bar among the words is no split: the reading is incomplete."""
    from pathlib import Path

    photo = Path(__file__).with_name("photos") / "fractions_among_chinese_words.png"
    result = reader.read_sync(photo.read_bytes())
    assert result.unread is not None, result.text
