"""Turn problem text into sympy objects without ever calling eval.

A small Pratt parser builds sympy expressions from a whitelist of tokens (numbers, single-letter
variables, + - * / ^ ( ) and sqrt), so hostile text cannot execute code, and powers are bounded
so it cannot ask sympy for a number with a billion digits. Expressions are built unevaluated, so
steps can show what the student wrote (3/4 + 5/6) before the result (19/12).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import sympy as sp
from sympy.printing.latex import LatexPrinter

MAX_TOKENS = 200
MAX_EXPONENT = 1000
MAX_RESULT_DIGITS = 1000


class ParseError(ValueError):
    """The text is not an expression this parser accepts."""


_SUPERSCRIPTS = str.maketrans({"²": "^2", "³": "^3"})
_SYMBOL_MAP = {
    "×": "*",
    "·": "*",
    "∙": "*",
    "÷": "/",
    "−": "-",
    "–": "-",
    "—": "-",
    "＝": "=",
    "√": "sqrt",
}
_LATEX_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_LATEX_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_LATEX_WORDS = {
    r"\cdot": "*",
    r"\times": "*",
    r"\div": "/",
    r"\left": "",
    r"\right": "",
    r"\,": "",
    r"\!": "",
}
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+)(?![\d,])")


def normalize(text: str) -> str:
    """Unify the many ways students and OCR write math into plain ASCII operators."""
    text = text.translate(_SUPERSCRIPTS)
    text = unicodedata.normalize("NFKC", text)
    for src, dst in _SYMBOL_MAP.items():
        text = text.replace(src, dst)
    text = re.sub(r"\\boxed\s*\{([^{}]*)\}", r"\1", text)
    for _ in range(3):  # nested fractions, innermost first
        text = _LATEX_FRAC.sub(r"((\1)/(\2))", text)
    text = _LATEX_SQRT.sub(r"sqrt(\1)", text)
    for src, dst in _LATEX_WORDS.items():
        text = text.replace(src, dst)
    text = text.replace("$", " ").replace("{", "(").replace("}", ")")
    text = _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)
    return text


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # num | var | op | lparen | rparen | func | eq | unknown
    text: str


_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<func>sqrt)|(?P<var>[a-zA-Z])(?![a-zA-Z])"
    r"|(?P<op>\*\*|[-+*/^])|(?P<lparen>\()|(?P<rparen>\))|(?P<eq>=)|(?P<unknown>\?))"
)


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError(f"unexpected character {text[pos]!r}")
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        tokens.append(Token(kind, "^" if value == "**" else value))
        pos = m.end()
        if len(tokens) > MAX_TOKENS:
            raise ParseError("expression too long")
    return tokens


_BINARY_PRECEDENCE = {"+": 10, "-": 10, "*": 20, "/": 20, "^": 40}
_IMPLICIT_MUL = 20


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise ParseError("unexpected end of expression")
        self.pos += 1
        return tok

    def parse(self) -> sp.Expr:
        expr = self.expression(0)
        if self.peek() is not None:
            raise ParseError(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return expr

    def expression(self, min_prec: int) -> sp.Expr:
        left = self.prefix()
        while (tok := self.peek()) is not None:
            if tok.kind == "op":
                op, prec = tok.text, _BINARY_PRECEDENCE[tok.text]
            elif tok.kind in ("var", "lparen", "func"):
                op, prec = "*", _IMPLICIT_MUL  # 2x, 3(x+1), (a)(b)
            else:
                break
            if prec < min_prec or (prec == min_prec and op != "^"):
                break
            if tok.kind == "op":
                self.take()
            # ^ is right-associative: parse its right side at the same precedence.
            right = self.expression(prec if op == "^" else prec + 1)
            left = _combine(op, left, right)
        return left

    def prefix(self) -> sp.Expr:
        tok = self.take()
        if tok.kind == "num":
            return sp.Rational(tok.text) if "." in tok.text else sp.Integer(tok.text)
        if tok.kind == "var":
            return sp.Symbol(tok.text)
        if tok.kind == "op" and tok.text in "+-":
            operand = self.expression(_BINARY_PRECEDENCE["*"] + 1)
            return operand if tok.text == "+" else sp.Mul(-1, operand, evaluate=False)
        if tok.kind == "lparen":
            inner = self.expression(0)
            if self.take().kind != "rparen":
                raise ParseError("missing )")
            return inner
        if tok.kind == "func":
            if self.take().kind != "lparen":
                raise ParseError("sqrt needs (")
            inner = self.expression(0)
            if self.take().kind != "rparen":
                raise ParseError("missing )")
            return sp.sqrt(inner, evaluate=False)
        raise ParseError(f"unexpected {tok.text!r}")


def _combine(op: str, left: sp.Expr, right: sp.Expr) -> sp.Expr:
    if op == "+":
        return sp.Add(left, right, evaluate=False)
    if op == "-":
        return sp.Add(left, sp.Mul(-1, right, evaluate=False), evaluate=False)
    if op == "*":
        return sp.Mul(left, right, evaluate=False)
    if op == "/":
        if left.is_Integer and right.is_Integer and right != 0:
            return sp.Rational(left, right)  # a literal fraction: prints as \frac{3}{4}
        return sp.Mul(left, sp.Pow(right, -1, evaluate=False), evaluate=False)
    _check_power(left, right)
    return sp.Pow(left, right, evaluate=False)


def _check_power(base: sp.Expr, exponent: sp.Expr) -> None:
    """Refuse powers whose value would be astronomically large (2^10^10 must not hang sympy)."""
    exp_value = exponent.doit() if exponent.free_symbols == set() else None
    if exp_value is None:
        raise ParseError("symbolic exponents are not supported")
    if not exp_value.is_number or abs(exp_value) > MAX_EXPONENT:
        raise ParseError("exponent too large")
    if base.free_symbols == set():
        magnitude = abs(base.doit())
        if magnitude > 1 and sp.log(magnitude, 10) * abs(exp_value) > MAX_RESULT_DIGITS:
            raise ParseError("power too large")


def parse_expression(text: str) -> sp.Expr:
    """Parse one expression (no '='), unevaluated."""
    tokens = tokenize(text)
    if not tokens:
        raise ParseError("empty expression")
    if any(t.kind in ("eq", "unknown") for t in tokens):
        raise ParseError("not a single expression")
    return _Parser(tokens).parse()


_MIXED_NUMBER = re.compile(r"(?<![\d./])(\d+)\s+(\d+)\s*/\s*(\d+)(?![\d.])")


def expand_mixed_numbers(text: str) -> str:
    """1 7/12 → (1+7/12): written this way a space means addition, not multiplication."""
    return _MIXED_NUMBER.sub(r"(\1+\2/\3)", text)


class _DecimalLatexPrinter(LatexPrinter):
    """Prints terminating rationals as decimals, for problems written with decimals."""

    def _print_Rational(self, expr: sp.Rational) -> str:
        if terminating_decimal(expr):
            return decimal_string(expr)
        return super()._print_Rational(expr)


def terminating_decimal(value: sp.Rational) -> bool:
    q = int(value.q)
    for prime in (2, 5):
        while q % prime == 0:
            q //= prime
    return q == 1


def decimal_string(value: sp.Rational) -> str:
    if terminating_decimal(value):
        return format(sp.Float(value, 40), "f").rstrip("0").rstrip(".")
    return str(sp.Float(value, 10)).rstrip("0")


def to_latex(expr: sp.Expr, decimals: bool = False) -> str:
    """LaTeX in the order the student wrote it, decimals kept as decimals."""
    if decimals:
        return _DecimalLatexPrinter({"order": "none"}).doprint(expr)
    return sp.latex(expr, order="none")


def evaluate(expr: sp.Expr) -> sp.Expr:
    """Evaluate an unevaluated tree exactly: numbers are parsed as rationals, never floats."""
    return expr.doit()
