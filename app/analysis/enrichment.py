"""ENRICH: knowledge points and a short hint per topic, in the student's language.

Rule-based labels abstain unless they are sure: no label is better than a wrong one (a
physics question is not "Linear equations" because it contains "m/s"; a geometry question
gets no "work brackets first"). Math topics label math problems only.
"""

from __future__ import annotations

from app.analysis.classifier import Language

_KNOWLEDGE_POINTS: dict[str, dict[Language, str]] = {
    "linear_equation": {"en": "Linear equations", "zh": "一元一次方程"},
    "quadratic_equation": {"en": "Quadratic equations", "zh": "一元二次方程"},
    "system_of_equations": {"en": "Systems of linear equations", "zh": "二元一次方程组"},
    "fractions": {"en": "Fraction arithmetic", "zh": "分数运算"},
    "percentage": {"en": "Percentages", "zh": "百分数"},
    "decimals": {"en": "Decimal arithmetic", "zh": "小数运算"},
    "word_problem": {"en": "Word problems", "zh": "应用题"},
    "trigonometry": {"en": "Trigonometry", "zh": "三角函数"},
    "calculus": {"en": "Calculus", "zh": "微积分"},
    "logarithms": {"en": "Logarithms", "zh": "对数"},
    "arithmetic": {"en": "Arithmetic", "zh": "四则运算"},
}
_HINTS: dict[str, dict[Language, str]] = {
    "linear_equation": {
        "en": "Get the unknown alone: undo additions first, then multiplications.",
        "zh": "把未知数单独留在一边：先移项，再把系数化为 1。",
    },
    "quadratic_equation": {
        "en": "Move everything to one side, then try factoring before the quadratic formula.",
        "zh": "先化成一般式，能因式分解就分解，不能再用求根公式。",
    },
    "system_of_equations": {
        "en": "Add or subtract the equations so that one unknown disappears.",
        "zh": "用加减消元或代入消元，先消去一个未知数。",
    },
    "fractions": {
        "en": "Rewrite the fractions with a common denominator before adding.",
        "zh": "先通分，化成同分母再相加减。",
    },
    "percentage": {
        "en": "A percentage is a fraction of 100: 15% of 80 is 0.15 × 80.",
        "zh": "百分数就是分母为 100 的分数：80 的 15% 是 0.15 × 80。",
    },
    "word_problem": {
        "en": "Write down what is known and what is asked, then one step per quantity.",
        "zh": "先找出已知条件和所求问题，再一步一步列式计算。",
    },
    "arithmetic": {
        "en": "Work brackets first, then × and ÷, then + and −.",
        "zh": "先算括号，再算乘除，最后算加减。",
    },
}


# Topics too generic to stand on their own: "arithmetic" is a guess, "word_problem" is a form.
_GENERIC = frozenset({"arithmetic", "word_problem"})


def _sure_topics(topics: list[str], subject: str) -> list[str]:
    if subject != "math":
        return []
    return [t for t in topics if t in _KNOWLEDGE_POINTS and t not in _GENERIC]


def knowledge_points(topics: list[str], language: Language, subject: str = "math") -> list[str]:
    return [_KNOWLEDGE_POINTS[t][language] for t in _sure_topics(topics, subject)]


def hint(topics: list[str], language: Language, subject: str = "math") -> str | None:
    topic = next((t for t in _sure_topics(topics, subject) if t in _HINTS), None)
    return _HINTS[topic][language] if topic else None
