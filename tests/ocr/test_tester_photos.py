"""An independent tester's photos (matplotlib mathtext) that were once verified wrong: a power
read as a mixed number, a root's index dropped or misplaced, a multi-digit or decimal power
split, a fraction divided left to right, a multiplication dot read as a decimal point, '%' read
as a radical, '|' read as '1', a broken '6' read as a radical. Each is drawn here again and
either read exactly and verified right, or not verified at all."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.ocr.rapid import RapidOcrReader
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from solveverify_bench.math_photos import PhotoStyle, render_math


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


# (latex, style, the right answer, the exact reading when it is read)
CASES = [
    (r"4^{\frac{1}{2}}", PhotoStyle(fontset="cm", size=28), "2", "4^((1)/(2))"),
    (r"8^{\frac{1}{3}}", PhotoStyle(size=36), "2", "8^((1)/(3))"),
    (r"9^{\frac{1}{2}}", PhotoStyle(fontset="stix", size=36), "3", "9^((1)/(2))"),
    (r"x^{\frac{1}{2}}=3", PhotoStyle(size=36), "x=9", "x^((1)/(2))=3"),
    (r"\sqrt[3]{27}", PhotoStyle(fontset="cm", size=28), "3", "root_(3)(27)"),
    (r"\sqrt[3]{64}", PhotoStyle(size=32), "4", "root_(3)(64)"),
    (r"\sqrt[4]{16}", PhotoStyle(fontset="cm", size=28), "2", "root_(4)(16)"),
    (r"\sqrt[3]{x}=2", PhotoStyle(size=32), "x=8", "root_(3)(x)=2"),
    (r"\sqrt[3]{x}=2", PhotoStyle(fontset="stix", size=40), "x=8", "root_(3)(x)=2"),
    (r"2^{10}", PhotoStyle(fontset="cm", size=44, rotation=-2.0, blur=0.5), "1024", "2^(10)"),
    (r"2^{12}", PhotoStyle(fontset="cm", size=28), "4096", "2^(12)"),
    (r"3^{10}", PhotoStyle(fontset="cm", size=28), "59049", "3^(10)"),
    (r"2^{11}", PhotoStyle(fontset="cm", size=30), "2048", "2^(11)"),
    (r"10^{10}", PhotoStyle(size=32), "10000000000", "10^(10)"),
    (r"16^{0.5}", PhotoStyle(fontset="stix", size=40), "4", "16^(0.5)"),
    (r"8\div\frac{1}{2}", PhotoStyle(size=30, prefix="Compute: "), "16", "Compute:8÷((1)/(2))"),
    (
        r"\frac{3}{4}\div\frac{1}{2}",
        PhotoStyle(fontset="stix", size=40),
        "3/2",
        "((3)/(4))÷((1)/(2))",
    ),
    (r"6\div\frac{2}{3}", PhotoStyle(size=30, prefix="Compute: "), "9", "Compute:6÷((2)/(3))"),
    (
        r"3\cdot 4+1",
        PhotoStyle(fontset="stixsans", size=36, rotation=2.0, jpeg_quality=70),
        "13",
        "3*4+1",
    ),
    (r"4\cdot 5", PhotoStyle(size=32), "20", "4*5"),
    (r"2\cdot 5", PhotoStyle(fontset="stix", size=40), "10", "2*5"),
    (r"20\%+0.3", PhotoStyle(fontset="cm", size=30), "1/2", "20%+0.3"),
    (r"50\%\times 8", PhotoStyle(fontset="cm", size=22, jpeg_quality=50), "4", "50%×8"),
    (r"|{-7}|", PhotoStyle(fontset="stix", size=30), "7", "|-7|"),
    (r"|{-5}|+3", PhotoStyle(fontset="cm", size=36), "8", "|-5|+3"),
    (
        r"\frac{5}{6}-\frac{1}{3}",
        PhotoStyle(fontset="cm", size=22, jpeg_quality=50),
        "1/2",
        "(5)/(6)-(1)/(3)",
    ),
]


# Read and verified right today (the rest abstain: the solver has no cube root of x; the
# recognizer runs the digits of cm's 2^{10} together; 20% + 0.3 is not proved).
READ_NOW = {
    latex: style
    for latex, style, _, _ in CASES
    if latex not in {r"\sqrt[3]{x}=2", r"2^{10}", r"20\%+0.3"}
}


def _plain(text: str) -> str:
    return text.replace(" ", "").replace("X", "x")


@pytest.mark.parametrize(("latex", "style", "answer", "reading"), CASES)
def test_read_exactly_or_not_at_all(
    reader: RapidOcrReader, latex: str, style: PhotoStyle, answer: str, reading: str
) -> None:
    result = reader.read_sync(render_math(latex, style))
    assert result.unread or _plain(result.text) == _plain(reading)


@pytest.mark.parametrize(("latex", "style", "answer", "reading"), CASES)
async def test_never_verified_wrong(
    reader: RapidOcrReader, make_context, latex: str, style: PhotoStyle, answer: str, reading: str
) -> None:
    context = replace(make_context(), ocr=reader)
    state = await run_pipeline(build_graph(), context, SolveState(image=render_math(latex, style)))
    if state.verification_status != "verified":
        assert latex not in READ_NOW or style != READ_NOW[latex]
        return
    assert state.solution is not None
    assert _plain(state.problem_text) == _plain(reading)
    assert _plain(state.solution.final_answer) == answer
