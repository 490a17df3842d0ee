"""Word lists of the prose reader: an ALLOWLIST of words that only phrase a task.

Every word left over around the mathematics must be listed here, or the reader abstains: a
word that changes the question ("successor", "halve", "相反数", "有理数") is never silently
dropped, because nobody can list every such word, while the words that phrase a task are few.
"""

from __future__ import annotations

import re


def word_set(text: str) -> frozenset[str]:
    """A word list written as whitespace-separated words (ruff keeps the text as written)."""
    return frozenset(text.split())


# English words that phrase a task and cannot change the mathematics. "and" is not here: it is
# allowed only between two equations, conditions or mentions (prose.leftover_is_harmless).
TASK_WORDS = word_set(
    """
    a an answer are assume be calculate carefully compute determine equal equals equation equations
    evaluate exact expression find for given if is let of please result s satisfies satisfy
    simplify solution solutions solve such suppose system that the then to value what whats
    when where which with
    """
)

# "How many solutions does x^2 = 4 have?": read only next to a counting question.
COUNT_WORDS = word_set("do does have has there")

# Words that only phrase arithmetic ("what is 17*23?", "calculate 3/4 + 5/6").
INSTRUCTION_WORDS = word_set(
    """
    a an answer calculate carefully compute determine evaluate find is of please result simplify the
    value what whats s work out
    """
)

# Chinese task phrases, longest first: a CJK character outside them means abstain.
_CHINESE_TASK_PHRASES = [
    "解不等式组",
    "解不等式",
    "不等式",
    "解集",
    "解方程组",
    "解方程",
    "方程组",
    "方程",
    "计算",
    "求解",
    "化简",
    "的值",
    "的解",
    "的根",
    "等于",
    "多少",
    "已知",
    "下列",
    "结果",
    "得数",
    "如果",
    "那么",
    "满足",
    "其中",
    "实数",
    "求",
    "是",
    "为",
    "请",
    "把",
    "将",
    "若",
    "设",
    "且",
    "则",
    "当",
    "时",
    "根",
    "解",
    "值",
    "的",
]
CHINESE_TASK_WORDS = re.compile("|".join(_CHINESE_TASK_PHRASES))

# What an answer says when the value does not exist (12 ÷ 0): a pattern to place in others.
NO_VALUE_WORDS = (
    r"undefined|not\s+defined|(?:has\s+)?no\s+value|does\s*n[o']t\s+exist|dne"
    r"|无意义|没有意义|不存在"
)
