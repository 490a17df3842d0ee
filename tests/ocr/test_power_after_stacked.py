"""A power written right after a square root or a fraction (an independent tester's finding):
`\\sqrt{2}^{2}` was read as `sqrt(2)2` and verified as 2*sqrt(2), `\\frac{1}{2}^{2}` as
`((1)/(2))2` and verified as 1. The power is placed against the radical or the fraction
before it (the line's other characters say nothing about where it sits), and a number right
after a radical or a fraction with no sign between them is never read as a product. Each
photo is read exactly and verified right, or not verified at all."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from app.ocr.rapid import RapidOcrReader
from app.pipeline.graph import build_graph, run_pipeline
from app.pipeline.state import SolveState
from solveverify_bench.math_photos import PhotoStyle, render_math


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


_SANS = PhotoStyle(size=32)
_SANS_JPEG = PhotoStyle(size=32, jpeg_quality=90)
_STIX = PhotoStyle(fontset="stix", size=32)
_CM_SMALL_JPEG = PhotoStyle(fontset="cm", size=24, jpeg_quality=40)
_CM_LARGE = PhotoStyle(fontset="cm", size=40)
_STIX_SMALL_JPEG = PhotoStyle(fontset="stix", size=24, jpeg_quality=40)
_STIX_LARGE = PhotoStyle(fontset="stix", size=40)
_SERIF_SMALL_JPEG = PhotoStyle(fontset="dejavuserif", size=24, jpeg_quality=40)
_SERIF_LARGE = PhotoStyle(fontset="dejavuserif", size=40)

# (latex, style, the right answer, the exact reading when it is read)
CASES = [
    (r"\sqrt{2}^{2}=?", _SANS, "2", "sqrt(2)^(2)=?"),
    (r"\sqrt{9}^{3}=?", _SANS, "27", "sqrt(9)^(3)=?"),
    (r"\sqrt{x}^{2}=9", _SANS, "x=9", "sqrt(x)^(2)=9"),
    (r"\sqrt{5}^{2}=?", _SANS_JPEG, "5", "sqrt(5)^(2)=?"),
    (r"\sqrt{2}^{2}=?", _STIX, "2", "sqrt(2)^(2)=?"),
    (r"\frac{1}{2}^{2}=?", _SANS, "1/4", "((1)/(2))^(2)=?"),
    (r"\frac{3}{4}^{2}=?", _SANS, "9/16", "((3)/(4))^(2)=?"),
    (r"\frac{x}{2}^{2}=4", _SANS, "x = -4 or x = 4", "((x)/(2))^(2)=4"),
    (r"\sqrt{7}^{2}=?", _CM_SMALL_JPEG, "7", "sqrt(7)^(2)=?"),
    (r"\sqrt{7}^{2}=?", _CM_LARGE, "7", "sqrt(7)^(2)=?"),
    (r"\sqrt{7}^{2}=?", _STIX_SMALL_JPEG, "7", "sqrt(7)^(2)=?"),
    (r"\sqrt{7}^{2}=?", _STIX_LARGE, "7", "sqrt(7)^(2)=?"),
    (r"\sqrt{7}^{2}=?", _SERIF_SMALL_JPEG, "7", "sqrt(7)^(2)=?"),
    (r"\sqrt{7}^{2}=?", _SERIF_LARGE, "7", "sqrt(7)^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _CM_SMALL_JPEG, "4/25", "((2)/(5))^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _CM_LARGE, "4/25", "((2)/(5))^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _STIX_SMALL_JPEG, "4/25", "((2)/(5))^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _STIX_LARGE, "4/25", "((2)/(5))^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _SERIF_SMALL_JPEG, "4/25", "((2)/(5))^(2)=?"),
    (r"\frac{2}{5}^{2}=?", _SERIF_LARGE, "4/25", "((2)/(5))^(2)=?"),
    # A sign in the power, several digits, a power of a root over a fraction.
    (r"\frac{1}{2}^{-1}=?", _SANS, "2", "((1)/(2))^(-1)=?"),
    (r"\frac{1}{2}^{-2}=?", PhotoStyle(fontset="cm", size=36), "4", "((1)/(2))^(-2)=?"),
    (r"\sqrt{2}^{10}=?", _SERIF_LARGE, "32", "sqrt(2)^(10)=?"),
    (r"\sqrt{\frac{1}{4}}^{2}=?", _SANS, "1/4", "sqrt((1)/(4))^(2)=?"),
    (r"\sqrt{2}^{2}", _SANS, "2", "sqrt(2)^(2)"),
    (r"\frac{1}{2}^{2}", _SANS, "1/4", "((1)/(2))^(2)"),
    (r"\sqrt{3}^{4}", PhotoStyle(fontset="stix", size=44), "9", "sqrt(3)^(4)"),
    (r"\sqrt{4}^{\frac{1}{2}}=?", PhotoStyle(size=36), "sqrt(2)", "sqrt(4)^((1)/(2))=?"),
    (
        r"\sqrt{9}^{2}+1=?",
        PhotoStyle(fontset="stix", size=36, rotation=1.5, blur=0.5),
        "10",
        "sqrt(9)^(2)+1=?",
    ),
    # A negative power after a letter: its minus is raised with its digits (once `x-¹`).
    (r"x^{-1}=2", PhotoStyle(size=36), "x=1/2", "x^(-1)=2"),
    (r"x^{-1}=2", PhotoStyle(fontset="stix", size=36), "x=1/2", "x^(-1)=2"),
    # On the line after a radical or a fraction: read as before.
    (r"\sqrt{2}+\sqrt{2}=?", _SANS, "2*sqrt(2)", "sqrt(2)+sqrt(2)=?"),
    (r"\frac{1}{2}x=3", _STIX_LARGE, "x=6", "((1)/(2))x=3"),
    (r"\sqrt{16}\times 2", _CM_LARGE, "8", "sqrt(16)×2"),
]

# Read exactly and verified right today (on this machine's RapidOCR models).
READ_NOW = {
    (latex, style)
    for latex, style, _, _ in CASES
    if (latex, style)
    not in {
        # cm's radical is not read here at 24 pt (JPEG 40) or 40 pt, STIX's at 24 pt
        (r"\sqrt{7}^{2}=?", _CM_SMALL_JPEG),
        (r"\sqrt{7}^{2}=?", _CM_LARGE),
        (r"\sqrt{7}^{2}=?", _STIX_SMALL_JPEG),
        # the two looks at a radical over a fraction disagree
        (r"\sqrt{\frac{1}{4}}^{2}=?", _SANS),
    }
}

# A number written on the line right after a radical or a fraction, with no sign: no typeset
# problem says that, so it is never read as a product (it is a power whose raised place
# was lost, or a misreading).
JUXTAPOSED = [
    (r"\sqrt{x}2=8", PhotoStyle(size=36)),
    (r"\sqrt{x}2=8", PhotoStyle(fontset="stix", size=36)),
    (r"\frac{1}{2}3=?", PhotoStyle(size=36)),
    (r"\frac{1}{2}3=?", PhotoStyle(fontset="cm", size=36)),
]


def _plain(text: str) -> str:
    return text.replace(" ", "").replace("X", "x")


@pytest.mark.parametrize(("latex", "style", "answer", "reading"), CASES)
def test_read_exactly_or_not_at_all(
    reader: RapidOcrReader, latex: str, style: PhotoStyle, answer: str, reading: str
) -> None:
    result = reader.read_sync(render_math(latex, style))
    assert result.unread or _plain(result.text) == _plain(reading)
    if (latex, style) in READ_NOW:
        assert not result.unread


@pytest.mark.parametrize(("latex", "style", "answer", "reading"), CASES)
async def test_never_verified_wrong(
    reader: RapidOcrReader, make_context, latex: str, style: PhotoStyle, answer: str, reading: str
) -> None:
    context = replace(make_context(), ocr=reader)
    state = await run_pipeline(build_graph(), context, SolveState(image=render_math(latex, style)))
    if state.verification_status != "verified":
        assert (latex, style) not in READ_NOW
        return
    assert state.solution is not None
    assert _plain(state.problem_text) == _plain(reading)
    assert _plain(state.solution.final_answer) == _plain(answer)


@pytest.mark.parametrize(("latex", "style"), JUXTAPOSED)
def test_a_number_right_after_a_radical_or_a_fraction_is_never_a_product(
    reader: RapidOcrReader, latex: str, style: PhotoStyle
) -> None:
    result = reader.read_sync(render_math(latex, style))
    assert result.unread
    assert "sqrt(x)2" not in _plain(result.text)
    assert "((1)/(2))3" not in _plain(result.text)


async def test_the_photo_checks_and_scans_with_the_power(client: httpx.AsyncClient) -> None:
    """The tester's request: `\\sqrt{2}^{2}` with the answer 2 was `incorrect`."""
    image = render_math(r"\sqrt{2}^{2}=?", _SANS)
    files = {"image": ("p.png", image, "image/png")}
    right = await client.post("/v1/checks", files=files, data={"answer": "2"})
    assert right.status_code == 200, right.text
    assert right.json()["verdict"] == "correct"
    wrong = await client.post("/v1/checks", files=files, data={"answer": "2*sqrt(2)"})
    assert wrong.status_code == 200, wrong.text
    assert wrong.json()["verdict"] != "correct"
    scan = await client.post("/v1/scans", files=files)
    assert scan.status_code == 201, scan.text
    body = scan.json()
    assert body["ocr_latex"].replace(" ", "") == r"\sqrt{2}^{2}=?"
    assert body["verification_status"] == "verified"
    assert body["final_answer"] == "2"
