"""Find the math in a problem statement: equations to solve or an expression to evaluate.

Only problems that are *mostly math* are accepted ("Solve 2x + 3 = 11", "3/4 + 5/6 = ?",
"计算 15% of 80"): a word problem that merely contains "3/4 of the class" is left to a model,
because evaluating its fragment would give a confident wrong answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy as sp

from app.symbolic.parsing import ParseError, normalize, parse_expression

MAX_EQUATIONS = 3
MAX_VARIABLES = 3

# Words that phrase a math task without changing it; anything else makes it a word problem.
_INSTRUCTION_WORDS = {
    "solve",
    "for",
    "calculate",
    "compute",
    "evaluate",
    "simplify",
    "find",
    "what",
    "whats",
    "is",
    "the",
    "value",
    "values",
    "of",
    "if",
    "then",
    "and",
    "answer",
    "equation",
    "equations",
    "system",
    "result",
    "given",
    "work",
    "out",
    "determine",
    "please",
    "a",
    "an",
    "to",
    "equals",
    "equal",
    "how",
    "much",
    "many",
    "following",
    "expression",
    "roots",
    "root",
    "solution",
    "solutions",
    "real",
    "number",
    "sum",
    "where",
    "in",
    "all",
}
_CHINESE_INSTRUCTIONS = re.compile(
    r"解方程组|解方程|方程组|方程|计算|求解|求|化简|的值|的解|等于|多少|是|已知|请|下列|结果|得数|和|与"
)
_PERCENT_OF = re.compile(r"(\d+(?:\.\d+)?)\s*%\s*of\s*(\d+(?:\.\d+)?)", re.IGNORECASE)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_TIMES_X = re.compile(r"(?<=\d)\s+[xX]\s+(?=\d)")
_MATH_RUN = re.compile(r"[0-9a-zA-Z+\-*/^().=?\s]+")
_WORD = re.compile(r"[a-zA-Z]{2,}")
_ASK_WORDS = r"(?:what\s+is|what's|calculate|compute|evaluate|simplify|work\s+out|计算|求)"
_ASKS_FOR_EXPRESSION = re.compile(
    r"\d\s*[a-zA-Z](?![a-zA-Z])|(?<![a-zA-Z])[a-zA-Z]\s*[-+*/^]\s*[\w(]"
)
_SEPARATORS = re.compile(r"[,;:\n]|\band\b|\bif\b|\bthen\b|\bwhere\b", re.IGNORECASE)


@dataclass(slots=True)
class MathProblem:
    kind: str  # "equations" | "arithmetic"
    equations: list[sp.Eq] = field(default_factory=list)
    variables: list[sp.Symbol] = field(default_factory=list)
    expression: sp.Expr | None = None
    uses_decimals: bool = False
    source: str = ""


def _rewrite_percentages(text: str) -> str:
    text = _PERCENT_OF.sub(r"(\1/100)*(\2)", text)
    return _PERCENT.sub(r"(\1/100)", text)


def _outside(text: str, spans: list[str]) -> str:
    for span in spans:
        text = text.replace(span, " ")
    return text


def _only_instructions(rest: str) -> bool:
    rest = _CHINESE_INSTRUCTIONS.sub(" ", rest)
    if re.search(r"[\u3400-\u9fff]", rest):
        return False
    words = {w.lower().replace("'", "") for w in re.findall(r"[A-Za-z']+", rest)}
    return words <= _INSTRUCTION_WORDS


def _accepts_equations(text: str, spans: list[str]) -> bool:
    """Equations stand out even inside prose (or an injected instruction), so accept them,
    unless the text asks for some other expression ("if 2x+3=11, what is 3x?")."""
    return not _ASKS_FOR_EXPRESSION.search(_outside(text, spans))


def _accepts_arithmetic(text: str, span: str) -> bool:
    """Arithmetic only when it is plainly the question: nothing but instructions around it,
    or an explicit ask ("what is 17*23?", "17*23 = ?") with no other numbers in the text.
    "3/4 of the class are girls" is a word problem, not 0.75."""
    rest = _outside(text, [span])
    if _only_instructions(rest):
        return True
    asked = "=" in span or re.search(rf"{_ASK_WORDS}\s*$", text[: text.find(span)], re.I)
    return bool(asked) and not re.search(r"\d", rest)


def _candidate_segments(text: str) -> list[str]:
    segments: list[str] = []
    for run in _MATH_RUN.findall(text):
        for piece in _SEPARATORS.split(run):
            # Multi-letter words end a formula: "Solve 2x+3=11 for x" → "2x+3=11".
            for chunk in _WORD.split(piece):
                chunk = chunk.strip(" .?") if "=" not in chunk else chunk.strip(" .")
                if re.search(r"\d", chunk) and re.search(r"[-+*/^=]", chunk):
                    segments.append(chunk.strip())
    return segments


def extract_problem(text: str) -> MathProblem | None:
    """The math problem in `text`, or None when it is not one this solver should touch."""
    normalized = _rewrite_percentages(normalize(text))
    normalized = _TIMES_X.sub(" * ", normalized)
    segments = _candidate_segments(normalized)
    if not segments:
        return None
    uses_decimals = bool(re.search(r"\d\.\d", normalized))

    equations: list[sp.Eq] = []
    expressions: list[sp.Expr] = []
    for segment in segments:
        try:
            parsed = _parse_segment(segment)
        except ParseError:
            return None  # part of the math is unreadable: better no answer than a wrong one
        if isinstance(parsed, sp.Eq):
            equations.append(parsed)
        else:
            expressions.append(parsed)

    if equations:
        if not _accepts_equations(normalized, segments):
            return None
        variables = _variables_in_order(equations, normalized)
        if not variables or len(equations) > MAX_EQUATIONS or len(variables) > MAX_VARIABLES:
            return None
        return MathProblem(
            "equations",
            equations=equations,
            variables=variables,
            uses_decimals=uses_decimals,
            source=normalized,
        )
    if (
        len(expressions) == 1
        and not expressions[0].free_symbols
        and _accepts_arithmetic(normalized, segments[0])
    ):
        return MathProblem(
            "arithmetic", expression=expressions[0], uses_decimals=uses_decimals, source=normalized
        )
    return None


def _parse_segment(segment: str) -> sp.Eq | sp.Expr:
    sides = segment.split("=")
    if len(sides) > 2:
        raise ParseError("chained equalities")
    if len(sides) == 1 or sides[1].strip() in ("", "?"):
        return parse_expression(sides[0])
    lhs, rhs = parse_expression(sides[0]), parse_expression(sides[1])
    if not (lhs.free_symbols | rhs.free_symbols):
        raise ParseError("an equality between numbers is a claim, not a problem")
    return sp.Eq(lhs, rhs, evaluate=False)


def _variables_in_order(equations: list[sp.Eq], text: str) -> list[sp.Symbol]:
    symbols = set().union(*(eq.free_symbols for eq in equations))

    def first_use(symbol: sp.Symbol) -> int:
        m = re.search(rf"(?<![a-zA-Z]){symbol.name}(?![a-zA-Z])", text)
        return m.start() if m else len(text)

    return sorted(symbols, key=lambda s: (first_use(s), s.name))  # type: ignore[arg-type]
