"""ANALYZE: subject, grade band, difficulty and language from the problem text.

A transparent rule-based classifier: cheap, deterministic, and good enough to route and to
group analytics. The caller's subject/grade hints, when given, win.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Language = Literal["zh", "en"]
GradeBand = Literal["primary", "middle", "high"]
Difficulty = Literal["easy", "medium", "hard"]

_CJK = re.compile(r"[\u3400-\u9fff]")
_SUBJECT_KEYWORDS: dict[str, tuple[str, ...]] = {
    "physics": (
        "velocity",
        "acceleration",
        "force",
        "newton",
        "joule",
        "voltage",
        "current",
        "resistance",
        "momentum",
        "速度",
        "加速度",
        "牛顿",
        "电压",
        "电流",
        "电阻",
        "功率",
        "摩擦",
        "重力",
    ),
    "chemistry": (
        "mole",
        "molar",
        "reaction",
        "atom",
        "molecule",
        "acid",
        "base",
        "ion",
        "化学",
        "摩尔",
        "反应",
        "原子",
        "分子",
        "溶液",
        "化合价",
    ),
    "biology": (
        "cell",
        "photosynthesis",
        "gene",
        "dna",
        "organism",
        "enzyme",
        "细胞",
        "光合",
        "基因",
        "遗传",
        "生物",
    ),
    "math": (
        "solve",
        "equation",
        "calculate",
        "fraction",
        "percent",
        "area",
        "perimeter",
        "sum",
        "product",
        "how many",
        "how much",
        "方程",
        "计算",
        "分数",
        "面积",
        "周长",
        "多少",
        "几",
        "求",
    ),
}
# Every pattern here sees untrusted text on the event loop, so each must run in linear time:
# no nested or adjacent overlapping quantifiers; possessive ones where a run could backtrack.
_TOPIC_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("trigonometry", re.compile(r"\b(?:sin|cos|tan)\b|三角函数")),
    ("calculus", re.compile(r"derivative|integral|limit|导数|积分|极限", re.I)),
    ("logarithms", re.compile(r"\blog\b|\bln\b|对数")),
    ("quadratic_equation", re.compile(r"[a-z]\s*+(?:\^|\*\*)\s*+2|[a-z]²|一元二次")),
    ("system_of_equations", re.compile(r"方程组|system", re.I)),  # or _looks_like_system
    ("linear_equation", re.compile(r"[a-z]\s*+[-+*/=]|[-+=]\s*+\d*+[a-z]\b|方程")),
    ("percentage", re.compile(r"%|percent|百分")),
    ("fractions", re.compile(r"\d\s*+/\s*+\d|\\frac|分数")),
    ("decimals", re.compile(r"\d\.\d")),
    (
        "word_problem",
        # Seven words in a row; a chain may only start at a word's first letter, so no run of
        # letters is rescanned from each of its positions.
        re.compile(r"(?<![A-Za-z])[A-Za-z]{3,}+(?:\s++[A-Za-z]{3,}+){6}|[\u4e00-\u9fff]{12}"),
    ),
]
# What makes a problem hard beyond its size (weight, pattern): each found adds its weight once.
# Literal alternations only (linear time on untrusted text).
_REASONING: list[tuple[int, re.Pattern[str]]] = [
    (5, re.compile(r"\bprove\b|\bshow that\b|证明|求证", re.I)),
    (
        3,
        re.compile(
            r"how many (?:ways|different|distinct|possible|ordered|integers|positive)|"
            r"in how many|number of (?:ways|ordered|different|distinct|possible)|arrange|"
            r"permutation|combination|\\binom|probability|排列|组合|概率|多少种",
            re.I,
        ),
    ),
    (
        3,
        re.compile(
            r"modulo|\\pmod|\bmod\b|congruen|remainder|divisible|divisor|multiple of|"
            r"prime|整除|余数|质数|素数|约数",
            re.I,
        ),
    ),
    (
        2,
        re.compile(
            r"complex number|roots? of unity|polynomial|\\lfloor|\\lceil|inequalit|sequence|"
            r"\bseries\b|\\sum|\\prod|vector|matrix|determinant|\\sqrt|不等式|数列",
            re.I,
        ),
    ),
    (
        2,
        re.compile(
            r"triangle|circle|tangent|radius|radii|\bcube\b|sphere|cylinder|\bcone\b|"
            r"parallelogram|trapezoid|polygon|perpendicular|inscribed|\\overline|\\angle|"
            r"三角形|圆|切线|平行四边形|梯形",
            re.I,
        ),
    ),
    (
        1,
        re.compile(r"all possible|smallest|largest|greatest|least|minimum|maximum|最大|最小", re.I),
    ),
]
_EQUATION_SEPARATORS = ",;，；"
_HIGH_TOPICS = {"trigonometry", "calculus", "logarithms"}
_MIDDLE_TOPICS = {"quadratic_equation", "system_of_equations", "linear_equation"}


@dataclass(frozen=True, slots=True)
class Analysis:
    subject: str
    grade_band: GradeBand
    difficulty: Difficulty
    language: Language
    topics: list[str] = field(default_factory=list)


def detect_language(text: str) -> Language:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "en"
    return "zh" if sum(bool(_CJK.match(c)) for c in letters) / len(letters) > 0.2 else "en"


def _looks_like_system(text: str) -> bool:
    """An "=", then a separator, then another "=" (e.g. "x + y = 5, x - y = 1"): found with
    three scans, where the regex `=.*[,;].*=` backtracked quadratically."""
    first = text.find("=")
    if first < 0:
        return False
    separator = min(
        (i for i in (text.find(s, first + 1) for s in _EQUATION_SEPARATORS) if i >= 0),
        default=-1,
    )
    return separator >= 0 and text.find("=", separator + 1) >= 0


def detect_topics(text: str) -> list[str]:
    topics = [
        name
        for name, pattern in _TOPIC_PATTERNS
        if pattern.search(text) or (name == "system_of_equations" and _looks_like_system(text))
    ]
    # An equation needs an "=" (or the word): "2 m/s" or "a - b" in prose is not one.
    if "linear_equation" in topics and "=" not in text and "方程" not in text:
        topics.remove("linear_equation")
    if "system_of_equations" in topics and "linear_equation" in topics:
        topics.remove("linear_equation")
    if "quadratic_equation" in topics and "linear_equation" in topics:
        topics.remove("linear_equation")
    return topics


def _subject(text: str) -> str:
    lowered = text.lower()
    scores = {s: sum(k in lowered for k in kws) for s, kws in _SUBJECT_KEYWORDS.items()}
    best = max(scores, key=lambda s: scores[s])
    if scores[best]:
        return best
    return "math" if re.search(r"\d", text) else "general"


def _difficulty(text: str, topics: list[str]) -> Difficulty:
    """Points for size (numbers, operations, length, the longest number), for the topic, and
    for each kind of reasoning a problem asks for beyond computing (counting, number theory,
    proofs, geometry, extremes); 0-2 easy, 3-4 medium, 5 and up hard. Measured against MATH
    problems and reasoning-gym's difficulty settings in docs/analytics.md."""
    numbers = re.findall(r"\d+(?:\.\d+)?", text)
    operations = len(re.findall(r"[-+*/^=×÷]", text))
    points = len(numbers) // 3 + operations // 3 + len(text) // 300
    longest = max((len(n) - ("." in n) for n in numbers), default=0)
    points += (longest >= 4) + (longest >= 7)
    points += 3 * bool(set(topics) & _HIGH_TOPICS) + bool(set(topics) & _MIDDLE_TOPICS)
    points += sum(weight for weight, pattern in _REASONING if pattern.search(text))
    return "easy" if points <= 2 else "medium" if points <= 4 else "hard"


def analyze(text: str, subject: str | None = None, grade: str | None = None) -> Analysis:
    topics = detect_topics(text)
    band: GradeBand = (
        "high"
        if set(topics) & _HIGH_TOPICS
        else "middle"
        if set(topics) & _MIDDLE_TOPICS
        else "primary"
    )
    return Analysis(
        subject=subject or _subject(text),
        grade_band=band_from_hint(grade) or band,
        difficulty=_difficulty(text, topics),
        language=detect_language(text),
        topics=topics,
    )


def band_from_hint(grade: str | None) -> GradeBand | None:
    """Accept "7", "grade 7", "初一", "primary"... as a hint."""
    if not grade:
        return None
    lowered = grade.lower()
    for band in ("primary", "middle", "high"):
        if band in lowered:
            return band
    if any(
        k in grade for k in ("小学", "一年级", "二年级", "三年级", "四年级", "五年级", "六年级")
    ):
        return "primary"
    if any(k in grade for k in ("初", "七年级", "八年级", "九年级")):
        return "middle"
    if "高" in grade:
        return "high"
    digits = re.search(r"\d+", grade)
    if digits:
        n = int(digits.group())
        return "primary" if n <= 6 else "middle" if n <= 9 else "high"
    return None


_CN_MIDDLE = {"初一": 7, "初二": 8, "初三": 9, "七年级": 7, "八年级": 8, "九年级": 9}
_CN_HIGH = {"高一": 10, "高二": 11, "高三": 12}
_CN_PRIMARY = {f"{c}年级": i for i, c in enumerate("一二三四五六", 1)}


def grade_label(grade: str | None) -> str | None:
    """The caller's grade as analytics group it: "1".."12" when a school year can be read
    ("7", "grade 7", "Grade 10", "初一", "高二", "三年级"), else the text itself, trimmed
    to 32 characters; None when nothing was sent."""
    if grade is None or not grade.strip():
        return None
    text = grade.strip()
    for names in (_CN_MIDDLE, _CN_HIGH, _CN_PRIMARY):
        for name, year in names.items():
            if name in text:
                return str(year)
    digits = re.fullmatch(r"(?:grade|year|g)?\s*(\d{1,2})(?:st|nd|rd|th)?(?:\s*grade)?", text, re.I)
    if digits and 1 <= int(digits.group(1)) <= 12:
        return str(int(digits.group(1)))
    return text[:32]
