"""Families from the second adversarial round: prose that changes the question.

A word that is not an allowlisted task word must make the reader abstain (A, B, C, E), and a
second variable next to the asked one ("a:b", "x and y") must never be dropped (D).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from tests.symbolic.generated import Case


def _vocabulary(text: str) -> list[str]:
    return text.split()


_EN_WORDS = _vocabulary(
    """successor predecessor half double triple quadruple negation inverse reciprocal
thrice twice square cube factorial opposite absolute floor ceiling digits reverse percent third
quarter tenth hundredth thousands millions dozens scores liters milliliters miles yards inches
centimeters grams kilograms binary hexadecimal modulo remainder parity logarithm exponent power
root increment decrement next previous complement mirror image multiple divisor tripled doubled
halved squared cubed negated inverted rounded truncated ones tens"""
)

_EN_TEMPLATES = [
    "Solve {eq} and give the {w} of {x}",
    "If {eq}, what is the {w} of {x}?",
    "Solve {eq}, then give {x} {w}",
    "Solve {eq}; answer in {w}",
    "Solve {eq} and express {x} in {w}",
    "{eq}. Find the {w} of {x}.",
]
_ZH_WORDS = _vocabulary(
    """相反数 一半 三分之一 四分之一 百分之五十 三次方 三次方根 开方 阶乘 倒数 绝对值 平方
立方 加一 减一 乘以二 翻一番 万 亿 八折 三成 末位数字 对数 分子 分母 有理数 自然数 无理数 复数
虚数 整数部分 小数部分 近似值 厘米 千克 十倍 两倍 后继 前驱 相邻数 个位 十位 余数"""
)
_ZH_TEMPLATES = [
    "已知 {eq}，求 {x} 的{w}",
    "已知 {eq}，求 {x} 的{w}的值",
    "解方程 {eq}，再求{w}",
    "已知 {eq}，{x} 的{w}是多少？",
]


@st.composite
def operation_words(draw: st.DrawFn) -> Case:
    """A solvable equation, then an operation word: abstain (the plain root is not the answer)."""
    x = draw(st.sampled_from("xyzan"))
    root, a = draw(st.integers(-9, 9)), draw(st.integers(2, 9))
    b = draw(st.integers(-20, 20))
    eq = f"{a}{x} + {b} = {a * root + b}".replace("+ -", "- ")
    chinese = draw(st.booleans())
    words, templates = (_ZH_WORDS, _ZH_TEMPLATES) if chinese else (_EN_WORDS, _EN_TEMPLATES)
    problem = draw(st.sampled_from(templates)).format(eq=eq, x=x, w=draw(st.sampled_from(words)))
    return Case(problem, None, x, (), abstain=True, wrong=(str(root), f"{x} = {root}"))


_PAIRS = [":", ",", ";", " and ", " to ", " out of ", ".", "_", "'", " to the ", " over "]
_ZH_PAIRS = [" 比 ", " 减 ", " 乘 ", " 加 ", ":", "、", "，", " 及 ", " 以及 ", " 与 ", " 的 "]


@st.composite
def multi_variable(draw: st.DrawFn) -> Case:
    """Two variables asked together: the whole assignment, or an abstention."""
    x0, y0 = draw(st.integers(1, 9)), draw(st.integers(-9, 9))
    s, d = x0 + y0, x0 - y0
    if draw(st.booleans()):
        pair = draw(st.sampled_from(_ZH_PAIRS))
        problem = draw(
            st.sampled_from(
                [f"已知 x+y={s}，x-y={d}，求 x{pair}y", f"已知 x+y={s}，x-y={d}，求 x{pair}y 的值"]
            )
        )
    elif draw(st.integers(0, 4)) == 0:
        problem = f"Solve for x and y: x + y = {s}, x - y = {d}"
        answers = (f"x = {x0}, y = {y0}", f"y = {y0}, x = {x0}")
        return Case(problem, frozenset({Fraction(x0), Fraction(y0)}), "x,y", answers)
    else:
        pair = draw(st.sampled_from(_PAIRS))
        problem = draw(
            st.sampled_from(
                [
                    f"If x + y = {s} and x - y = {d}, what is x{pair}y?",
                    f"x + y = {s}, x - y = {d}. Find x{pair}y.",
                    f"x + y = {s}, x - y = {d}, x{pair}y = ?",
                ]
            )
        )
    wrong = (str(x0), str(y0), f"x = {x0}", f"{x0}/{y0}" if y0 else "0")
    return Case(problem, None, "x", (), abstain=True, wrong=wrong)


PROSE_FAMILIES = {"operation_words": operation_words(), "multi_variable": multi_variable()}
