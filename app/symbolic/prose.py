"""The words around the math: which question they ask, and whether they change the problem.

Words that phrase a task ("solve", "what is", "求…的值") are read. Every other word — one that
carries mathematics the reader does not model ("successor", "halve", "相反数"), or unrelated
prose — makes it abstain: the leftover is checked against an allowlist, never a blocklist,
because a dropped word that changes the question would verify the answer to another problem.
"""

from __future__ import annotations

import re

from app.symbolic.normalize import ParseError
from app.symbolic.target import Target
from app.symbolic.vocabulary import (
    CHINESE_TASK_WORDS,
    COUNT_WORDS,
    INSTRUCTION_WORDS,
    TASK_WORDS,
)

_CLAIM = re.compile(
    r"(?:\b(?:the\s+|my\s+|our\s+|final\s+|correct\s+|student'?s?\s+)*(?:answer|result)s?"
    r"\s*(?:is|are|was|:|=|should\s+be)"
    r"|\bI\s+(?:got|get|think|found|believe)\b|\b(?:we|they|he|she)\s+(?:got|get|found)\b"
    r"|答案\s*(?:是|为|：|:|=)|我的答案|结果\s*(?:是|为)|学生的?答案)"
    r".*?(?:(?<=[^\d])\.(?=\s|$)|。|\n|$)",
    re.IGNORECASE | re.DOTALL,
)


# "结果是一个多少位的小数", "the result is how many digits long?": a question, not a claim.
_PLAIN_ASK = re.compile(
    r"(?:结果|答案)\s*(?:是|为)\s*(?:多少|几)\s*[?？。.]?\s*"
    r"|(?:the\s+)?(?:answer|result)\s+is\s+what\s*\??\s*",
    re.IGNORECASE,
)
_ASKS = re.compile(r"多少|几|什么|哪|怎样|[?？]|\b(?:how|what|which|who|whether)\b", re.IGNORECASE)


def strip_claims(text: str) -> str:
    """'Solve 2x + 3 = 11. The answer is x = 5.' → 'Solve 2x + 3 = 11. '"""

    def claim(match: re.Match[str]) -> str:
        if _PLAIN_ASK.fullmatch(match.group(0)):
            return " "  # "结果是多少？": asks for the value itself
        if _ASKS.search(match.group(0)):
            raise ParseError("the question is asked where a claim would be")
        return " "

    return _CLAIM.sub(claim, text)


# Sentences that only say how to write the answer down ("Give only the result as your final
# answer.", "Only reply with the final value."): blanked; one that says more ("Give your
# answer as a fraction") is not matched and its words make the reader abstain.
_END_OF_SENTENCE = r"\s*(?:[.!。]|$)"
_INSTRUCTIONS = [
    (  # "Rationalize the denominator: 5/√3" asks for its simplest form, c√n/d (5√3/3)
        re.compile(r"^\s*rationali[sz]e\s+the\s+denominators?\s*(?::|of\b)\s*", re.IGNORECASE),
        "Simplify ",
    ),
    (  # "Enter all the solutions, separated by commas.": how to type a list of them in
        re.compile(
            r"enter\s+(?:all\s+)?(?:the\s+)?(?:solutions|roots)\s*,?\s*separated\s+by\s+commas"
            + _END_OF_SENTENCE,
            re.IGNORECASE,
        ),
        " ",
    ),
    (  # "Find all the solutions to …" asks for the solutions, as "Find the solutions" does;
        # "all" elsewhere ("= 0 for all x") may make an identity of an equation
        re.compile(r"\b(find|determine)\s+all\s+(?:the\s+)?(?=solutions\b|roots\b)", re.IGNORECASE),
        r"\1 the ",
    ),
    (
        re.compile(
            r"(?:please\s+)?give\s+only\s+the\s+(?:result|answer|value|gcd|lcm|"
            r"simplified\s+fraction)\s+as\s+your\s+final\s+answer" + _END_OF_SENTENCE,
            re.IGNORECASE,
        ),
        " ",
    ),
    (
        re.compile(
            r"(?:please\s+)?(?:give|state|write)\s+(?:only\s+)?(?:the|your)\s+(?:final\s+)?"
            r"(?:answer|result)(?=\s*(?:[.!。]|$))",
            re.IGNORECASE,
        ),
        " ",
    ),
    (
        re.compile(
            r"(?:please\s+)?only\s+reply\s+with\s+the\s+final\s+(?:value|answer)"
            + _END_OF_SENTENCE,
            re.IGNORECASE,
        ),
        " ",
    ),
    (
        re.compile(
            r"state\s+the\s+final\s+answer\s+to\s+the\s+following\s+arithmetic\s+problem\s*:",
            re.IGNORECASE,
        ),
        "Compute ",
    ),
    (  # "Q1) 2x + 3 = 11", "Homework problem 3: …": the exercise's label, at the start only
        re.compile(
            r"^\s*(?:(?:math|maths|homework|hw)\s+)*(?:q|question|problem|exercise|ex\.?)"
            r"\s*\d{1,3}\s*[):：.]\s*(?!\d)",
            re.IGNORECASE,
        ),
        "",
    ),
    # "please!!", "Help!": an exclamation after a word ends a sentence ("x!", "5!" are
    # factorials, and "24!" stays one to judge)
    (re.compile(r"(?<=[A-Za-z]{2})!+"), "."),
    (  # "Homework: 7x - 4 = 24", "作业：3/4 + 5/6": a label with its colon, at the start only
        re.compile(
            r"^\s*(?:(?:math|maths)\s+)?(?:homework|hw|practice|quiz|question|problem|exercise"
            r"|task)\s*[:：]\s*|^\s*(?:数学)?(?:作业|练习|题目|习题)\s*[:：]\s*",
            re.IGNORECASE,
        ),
        "",
    ),
    (  # "Help me with 12 * 13", "Can you help me solve …", "帮我算一下 …": a request for help
        # keeps its verb ("solve", "expand"), which is read as any task is
        re.compile(
            r"^\s*(?:hi|hello)?[\s,!]*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
            r"help\s+me(?:\s+with|\s+to(?=\s+[a-z]))?(?:\s+this|\s+(?:the\s+)?following)?"
            r"(?:\s+(?:problem|question|one))?\s*[:：]?\s*(?:please\s*)?"
            r"|^\s*请?(?:帮我|帮忙)(?=\s*(?:解|计算|求|化简))"
            r"|^\s*(?:please\s+)?help(?:\s+me)?\s*[.:：]+\s*",  # "Please help!! 4(n - 2) = 20"
            re.IGNORECASE,
        ),
        "",
    ),
    # "x 是多少？", "x 等于多少": asks for the unknown, as 求 x does
    (re.compile(r"(?<![A-Za-z])([A-Za-z])\s*(?:的值)?\s*(?:是|等于|为)\s*多少\s*[?？]?"), r"求 \1"),
    (re.compile(r"^\s*请?(?:帮我|帮忙)\s*算(?:一下)?\s*[:：]?"), "计算 "),  # 帮我算一下 12 × 13
    (  # "Solve the following multiplication: 484 * 229": only where it is one
        re.compile(
            r"solve\s+the\s+following\s+multiplication\s*:(?=\s*\d+\s*[*×]\s*\d+\s*(?:[.?]|$))",
            re.IGNORECASE,
        ),
        "Compute ",
    ),
    (  # "Simplify the fraction 6/8 to its lowest terms": the simplest form, as "Simplify 6/8"
        re.compile(
            r"^(\s*simplify)\s+the\s+fraction\s+([^\s]+?)\s+(?:to|in)\s+(?:its\s+)?"
            r"(?:lowest|simplest)\s+terms" + _END_OF_SENTENCE,
            re.IGNORECASE,
        ),
        r"\1 \2 ",
    ),
]


# How to work, not what to find: "show your work", "explain each step", "写出过程". Blanked as
# whole phrases, with the brackets around them ("(show work)"), never word by word: "show that
# x = 5 is a solution" asks another question, and its words make the reader abstain.
_HOW_TO_WORK = (
    r"(?:(?:and|then)\s+)?(?:please\s+)?(?:"
    r"show\s+(?:all\s+)?(?:of\s+)?(?:your\s+|the\s+)?(?:work(?:ing)?|steps|reasoning)"
    r"|explain\s+(?:each|every|all|your|the)\s+(?:steps?|reasoning|work(?:ing)?)"
    r"|(?:work\s+it\s+out\s+|solve\s+it\s+)?step\s+by\s+step"
    r"|check\s+(?:your|the)\s+(?:answers?|solutions?|work|results?)|check\s+it"
    r"|check(?=\s*(?:[.!。]|$))|(?:并|再|然后)?(?:检验|验算)(?:一下)?(?:你的)?(?:答案|结果)?"
    r"(?=\s*(?:[.!。！]|$))"
    r"|请?(?:写出|写下|给出|写)(?:解题|计算|详细|完整|必要)?的?(?:过程|步骤)"
    r"|要?写过程)"
)
_HOW_TO_WORK_PHRASES = [
    re.compile(rf"\(\s*{_HOW_TO_WORK}\s*[.。]?\s*\)", re.IGNORECASE),
    re.compile(rf"(?<![\w(]){_HOW_TO_WORK}(?![\w)])", re.IGNORECASE),
]


# "Give only the GCD as your final answer." drops only where the GCD is what is asked.
_NAMED = {
    "gcd": re.compile(r"\bgcd\b|greatest\s+common|highest\s+common", re.IGNORECASE),
    "lcm": re.compile(r"\blcm\b|(?:least|lowest)\s+common", re.IGNORECASE),
    "simplified fraction": re.compile(r"^\s*simplify\b", re.IGNORECASE),
}
_GIVE_ONLY_THE = re.compile(r"give\s+only\s+the\s+(gcd|lcm|simplified\s+fraction)\b", re.IGNORECASE)


def strip_instructions(text: str) -> str:
    """'What is 484 * 229? Give only the result as your final answer.' → 'What is 484 * 229? '"""
    for named in _GIVE_ONLY_THE.finditer(text):
        asked = _NAMED[re.sub(r"\s+", " ", named.group(1).lower())]
        if not asked.search(text[: named.start()]):
            raise ParseError(f"the answer asked ({named.group(1)}) is not what is asked")
    for pattern, replacement in _INSTRUCTIONS:
        text = pattern.sub(replacement, text)
    for pattern in _HOW_TO_WORK_PHRASES:
        text = pattern.sub(" ", text)
    return text


_ASK_VALUE = re.compile(
    r"(?:(?:what\s+is|what's|whats|find|determine|compute|calculate|evaluate|give)\s+"
    r"(?:the\s+)?(?:exact\s+)?(?:numerical\s+)?(?:value\s+of\s+)?"
    r"|(?:the\s+)?value\s+of\s+|\bthen\s+|求\s*|则\s*|那么\s*|计算\s*)$",
    re.IGNORECASE,
)
_EXTREMES = (
    "greatest|largest|biggest|maximum|greater|larger|bigger|higher"
    "|least|smallest|minimum|smaller|lesser|lower"
)
_ASK_EXTREME = re.compile(
    r"(?:(?:what\s+is|what's|whats|find|determine|give)\s+)?(?:the\s+)?"
    rf"({_EXTREMES})\s+(?:possible\s+)?"
    r"(?:value\s+of\s+)?$",
    re.IGNORECASE,
)
_ASK_AFTER = re.compile(r"^\s*(?:的值|的最大值|的最小值)", re.IGNORECASE)
_MAX_WORDS = {"greatest", "largest", "biggest", "maximum", "greater", "larger", "bigger", "higher"}


def _extreme(word: str) -> str:
    return "max" if word.lower() in _MAX_WORDS else "min"


_QUESTION_END = re.compile(r"[?.!。？！\n]")
# Only words that lead to a condition may follow the asked expression in its sentence.
_CONNECTIVES = frozenset(
    {"when", "where", "given", "that", "such", "if", "please", "satisfies", "satisfy"}
)


# Phrases whose words are harmless only together ("in" alone could be "in minutes").
_TASK_PHRASES = re.compile(
    r"\bin\s+the\s+(?:following\s+|given\s+)?(?:equation|equations|system)\b", re.IGNORECASE
)


def question_tail_is_plain(tail: str) -> bool:
    """'what is 3 + 4, doubled?', '12 + 3 in binary': words after the asked expression, in
    the same sentence, may change it; only connectives leading to a condition are read."""
    end = _QUESTION_END.search(tail)
    asked = _TASK_PHRASES.sub(" ", tail[: end.start() if end else None])
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", asked)}
    return words <= _CONNECTIVES


def target_before(gap: str) -> tuple[str, int] | None:
    """The question phrase that ends right before an expression: (kind, its length)."""
    m = _ASK_EXTREME.search(gap)
    if m:
        return _extreme(m.group(1)), len(m.group(0))
    m = _ASK_VALUE.search(gap)
    if m:
        return "value", len(m.group(0))
    return None


def target_after(rest: str) -> tuple[str, int] | None:
    m = _ASK_AFTER.match(rest)
    if not m:
        return None
    word = m.group(0).strip()
    return {"的值": "value", "的最大值": "max", "的最小值": "min"}[word], len(m.group(0))


_AGGREGATES = [
    (
        re.compile(
            r"\b(sum|product)\s+of\s+(?:all\s+)?(?:the\s+)?(?:possible\s+)?(?:real\s+)?"
            r"(?:solutions|roots|values\s+of\s+[a-z])\b",
            re.IGNORECASE,
        ),
        None,
    ),
    (
        re.compile(
            r"\bhow\s+many\s+(?:real\s+)?(?:solutions|roots)\b"
            r"|\bnumber\s+of\s+(?:real\s+)?(?:solutions|roots)\b",
            re.IGNORECASE,
        ),
        "count",
    ),
    (
        re.compile(rf"\b(?:the\s+)?({_EXTREMES})\s+(?:real\s+)?(?:solution|root)\b", re.IGNORECASE),
        "extreme",
    ),
    (re.compile(r"所有(?:实数)?(?:解|根)的和|两(?:个)?根之和"), "sum"),
    (re.compile(r"所有(?:实数)?(?:解|根)的积|两(?:个)?根之积"), "product"),
    (re.compile(r"(?:实数)?(?:解|根)的个数|有几个(?:实数)?(?:解|根)"), "count"),
]


def find_aggregate(text: str) -> tuple[Target | None, str]:
    """'the sum of all solutions' → Target('sum'); the phrase is blanked out of the text."""
    found: Target | None = None
    for pattern, kind in _AGGREGATES:
        for m in pattern.finditer(text):
            if found is not None:
                raise ParseError("two questions")
            asked = _extreme(m.group(1)) if kind == "extreme" else kind or m.group(1).lower()
            # max/min: the variable is bound once it is known
            found = Target(asked, real=bool(re.search(r"\breal\b", m.group(0), re.IGNORECASE)))
            text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end() :]
    return found, text


_ALLOWED_PUNCTUATION = set(' \t\n,.;:?!"。，；：？！“”…')
_AND = re.compile(r"\band\b", re.IGNORECASE)


def leftover_is_harmless(
    leftover: str, text: str, joinable: list[tuple[int, int]], counting: bool = False
) -> bool:
    """Only allowlisted task words and punctuation are left. "and" must join two of the
    `joinable` spans (equations, conditions, mentions): "a and b" asked is another question."""
    for m in _AND.finditer(leftover):
        joins_left = any(
            re.fullmatch(r"[\s,]*", text[e : m.start()]) for _, e in joinable if e <= m.start()
        )
        joins_right = any(
            re.fullmatch(r"\s*", text[m.end() : s]) for s, _ in joinable if s >= m.end()
        )
        if not (joins_left and joins_right):
            return False
    rest = CHINESE_TASK_WORDS.sub(" ", _AND.sub(" ", _TASK_PHRASES.sub(" ", leftover)))
    rest = re.sub(r"(?<=[A-Za-z])'(?=s\b)", " ", rest)  # what's, let's
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", rest)}
    if not words <= (TASK_WORDS | COUNT_WORDS if counting else TASK_WORDS):
        return False
    rest = re.sub(r"[A-Za-z]+", " ", rest)
    return all(ch in _ALLOWED_PUNCTUATION for ch in rest)


_ASK_WORDS = re.compile(
    r"(?:what\s+is|what's|calculate|compute|evaluate|simplify|work\s+out|计算|求|化简)\s*$",
    re.IGNORECASE,
)


def accepts_arithmetic(leftover: str, span: str, text: str) -> bool:
    """Arithmetic only when it is plainly the question: nothing but instructions around it,
    or an explicit ask ("what is 17*23?", "17*23 = ?"). "3/4 of the class" is a word problem."""
    rest = CHINESE_TASK_WORDS.sub(" ", leftover)
    if re.search(r"[\u3400-\u9fff]", rest) is None:
        words = {w.lower() for w in re.findall(r"[A-Za-z']+", rest)}
        if words <= INSTRUCTION_WORDS:
            return True
    if not span:
        return True  # read from an explicit question ("what is ...")
    before = text[: text.find(span)] if span in text else ""
    return span.rstrip().endswith("=") or bool(_ASK_WORDS.search(before))
