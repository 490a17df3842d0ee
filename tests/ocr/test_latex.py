"""The layout step's linear notation shown back as LaTeX."""

from __future__ import annotations

import pytest

from app.ocr.latex import to_latex


@pytest.mark.parametrize(
    ("linear", "latex"),
    [
        ("(x)/(4)=3", r"\frac{x}{4}=3"),
        ("1 1/2+2", r"1\frac{1}{2}+2"),
        ("sqrt(x+5)=3", r"\sqrt{x+5}=3"),
        ("x^(2)-5x+6=0", r"x^{2}-5x+6=0"),
        ("(1)/(1+(1)/(2))", r"\frac{1}{1+\frac{1}{2}}"),
        ("2((x)/(3))=4", r"2(\frac{x}{3})=4"),
        ("解方程：(x)/(4)=3", r"解方程：\frac{x}{4}=3"),
        ("(3)/(5)×10", r"\frac{3}{5}\times 10"),
        ("(x+1", "(x+1"),  # unbalanced: kept as written
    ],
)
def test_linear_reading_as_latex(linear: str, latex: str) -> None:
    assert to_latex(linear) == latex
