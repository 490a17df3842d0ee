"""Box layout and the math lookalike fixes (boxes as RapidOCR returned them for real images)."""

from __future__ import annotations

from app.ocr.layout import Box, reading_order


def test_lone_er_between_math_is_equals_and_duplicates_are_merged() -> None:
    boxes = [
        Box("Solve 2", 15, 285, 12, 127),
        Box("2x", 236, 365, 22, 115),
        Box("11", 593, 708, 22, 112),
        Box("+", 351, 444, 36, 108),
        Box("3", 441, 514, 33, 102),
        Box("二", 512, 588, 42, 98),
    ]
    assert reading_order(boxes) == ["Solve 2x + 3 = 11"]


def test_stray_cjk_punctuation_is_dropped_from_formulas() -> None:
    boxes = [
        Box("x^2", 13, 227, 11, 120),
        Box("-5x + 6", 221, 540, 10, 124),
        Box("0", 586, 668, 23, 109),
        Box("=", 492, 608, 33, 106),
        Box("、", 171, 277, 19, 125),
    ]
    assert reading_order(boxes) == ["x^2 -5x + 6 = 0"]


def test_chinese_text_is_left_alone() -> None:
    boxes = [
        Box("一元二次方程", 0, 300, 0, 40),
        Box("二", 310, 340, 0, 40),
        Box("x+1=2", 0, 200, 60, 100),
    ]
    assert reading_order(boxes) == ["一元二次方程 二", "x+1=2"]
