"""RapidOCR on images drawn here with Pillow (English and math notation)."""

from __future__ import annotations

import pytest

from app.ocr.rapid import RapidOcrReader
from tests.fixtures.images import blank_png, draw_text


@pytest.fixture(scope="module")
def reader() -> RapidOcrReader:
    return RapidOcrReader()


@pytest.mark.parametrize("text", ["3/4 + 5/6 = ?", "Solve 2x + 3 = 11", "What is 17*23?"])
async def test_reads_drawn_problems(reader: RapidOcrReader, text: str) -> None:
    result = await reader.read(draw_text(text))
    assert result.text.replace(" ", "") == text.replace(" ", "")
    assert result.confidence > 0.5


async def test_reads_lines_in_order(reader: RapidOcrReader) -> None:
    result = await reader.read(draw_text("Solve for x:\n2x + 3 = 11", fmt="JPEG"))
    assert result.text.splitlines() == ["Solve for x:", "2x + 3 = 11"]


async def test_blank_image_has_no_text(reader: RapidOcrReader) -> None:
    result = await reader.read(blank_png())
    assert result.text == "" and result.confidence == 0.0
