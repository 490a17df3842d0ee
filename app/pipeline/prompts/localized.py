"""Student-facing text in the scan's language: the symbolic solver's step descriptions and the
messages behind each caution code. Pure data and lookups (no vendor or model is ever named)."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "zh"]

# The symbolic solver's step descriptions (app/symbolic/solver.py) in Chinese; `{0}` is the
# variable part kept as is (a number, a variable, LaTeX).
_STEP_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^Write the equations?$"), "写出方程"),
    (re.compile(r"^Write the expression$"), "写出算式"),
    (re.compile(r"^Use the common denominator (.+)$"), "通分，公分母为 {0}"),
    (re.compile(r"^Evaluate$"), "计算"),
    (re.compile(r"^As a mixed number$"), "化为带分数"),
    (re.compile(r"^Conditions: (.+)$"), "条件：{0}"),
    (
        re.compile(r"^Both sides are equal for every x: infinitely many solutions$"),
        "等式对任意 x 都成立：有无穷多个解",
    ),
    (re.compile(r"^There is (.+)$"), "{0}"),
    (re.compile(r"^Answer$"), "答案"),
    (re.compile(r"^Solve$"), "求解"),
    (re.compile(r"^Solve the system by elimination$"), "用消元法解方程组"),
    (re.compile(r"^Solve over the real numbers$"), "在实数范围内求解"),
    (re.compile(r"^Move every term to one side$"), "移项，把所有项移到等号一边"),
    (re.compile(r"^Isolate (.+)$"), "把 {0} 单独留在一边"),
    (re.compile(r"^Divide both sides by (.+)$"), "两边同时除以 {0}"),
    (re.compile(r"^Write it in standard form$"), "化成一般式"),
    (re.compile(r"^Factor$"), "因式分解"),
    (re.compile(r"^Set each factor to zero$"), "令每个因式等于零"),
    (re.compile(r"^Compute the discriminant$"), "计算判别式"),
    (re.compile(r"^Apply the quadratic formula$"), "使用求根公式"),
]
_CJK = re.compile(r"[\u3400-\u9fff]")


def localize_step(description: str, language: Language) -> str:
    """The description in `language`; English text a model wrote for a Chinese scan that no
    pattern knows is kept (better than nothing), Chinese text is kept as is."""
    if language == "en" or _CJK.search(description):
        return description
    for pattern, template in _STEP_PATTERNS:
        match = pattern.match(description.strip())
        if match:
            return template.format(*match.groups())
    return description


CAUTION_MESSAGES: dict[str, dict[Language, str]] = {
    "no_answer": {
        "en": "We could not solve this problem automatically. Try rephrasing it or ask a teacher.",
        "zh": "暂时无法自动解答这道题。请换一种说法重新提交，或向老师请教。",
    },
    "not_verified": {
        "en": "We found an answer but could not check it. Please double-check it yourself.",
        "zh": "已给出答案，但暂时无法核对。请自己再检查一遍。",
    },
    "failed_verification": {
        "en": "Our check did not agree with this answer. Treat it with care and check each step.",
        "zh": "核对结果与该答案不一致，请谨慎参考，并逐步检查。",
    },
    "incomplete_reading": {
        "en": "We could not read all of the photo (a fraction, root or power may be missing), "
        "so we did not solve it. Check what we read and send the problem as text.",
        "zh": "照片中的题目没能完整识别（可能漏掉了分数、根号或乘方），所以没有解答。"
        "请核对识别结果，并以文字形式重新提交题目。",
    },
    "readings_disagree": {
        "en": "We read the photo two ways that do not match, so we did not solve it. "
        "Check both readings and send the problem as text.",
        "zh": "对照片的两次识别结果不一致，所以没有解答。"
        "请核对两次识别结果，并以文字形式重新提交题目。",
    },
    "low_confidence": {
        "en": "This answer passed our check, but with low confidence. Please double-check it.",
        "zh": "该答案通过了核对，但把握不大，请再检查一遍。",
    },
}

RETAKE_PHOTO: dict[Language, str] = {
    "en": "The photo is hard to read. Retake it in good light, flat and in focus, "
    "with only this problem in the frame.",
    "zh": "照片不够清晰，无法准确识别。"
    "请在光线充足处把题目放平、对准焦距，只拍这一道题后重新上传。",
}


def caution_message(code: str, language: Language) -> str:
    return CAUTION_MESSAGES[code][language]
