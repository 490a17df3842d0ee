"""The first reading: a whitelist Pratt parser from plain notation to unevaluated sympy.

No eval: tokens are numbers, single-letter variables, a fixed set of functions (sqrt, root_n,
log_b, ln, lg, sin, cos, tan, exp, abs), |...|, n! (x! of a letter alone, not (x+1)!), %, °
and + - * / ^ ( ). Anything else is a ParseError (the reader abstains). A function written
without parentheses takes one atom, and only when nothing binds to it afterwards: "ln x = 0"
is read, "sin 2x" is ambiguous and refused. Bare "log" (base 10 or e?) is refused too.
Powers and factorials are bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from app.symbolic.evaluation import MAX_EXPONENT, UndefinedValue, evaluate
from app.symbolic.normalize import FUNCTION_NAMES, ParseError, normalize

__all__ = ["ParseError", "evaluate", "normalize", "parse_expression", "tokenize"]

MAX_TOKENS = 200
FUNCTIONS = tuple(FUNCTION_NAMES.split("|"))


# A question's number of more digits is no school problem's, and sympy's solvers take seconds
# on polynomials with such coefficients (1,900 digits: 20 s). An answer may state more
# (2^400 written out): it is only compared.
MAX_QUESTION_DIGITS = 100


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # num | var | const | func | op | post | bar | lparen | rparen
    text: str
    base: str | None = None  # log_(b) / root_(n)


_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)"
    rf"|(?P<func>(?:{FUNCTION_NAMES})(?=[^a-zA-Z]|[a-zA-Z](?![a-zA-Z])|$))"
    r"|(?P<const>pi)(?![a-zA-Z])"
    r"|(?P<var>[a-zA-Z])(?![a-zA-Z])"
    r"|(?P<op>\*\*|[-+*/^])|(?P<post>!(?!=)|%|°)|(?P<bar>\|)|(?P<lparen>\()|(?P<rparen>\)))"
)
_BASE_RE = re.compile(r"_\s*(?:\(([^()]*)\)|(\d+(?:\.\d+)?|[a-zA-Z]))")


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
        value, pos = m.group(kind), m.end()
        base = None
        if kind == "func" and value in ("log", "root"):
            b = _BASE_RE.match(text, pos)
            if b:
                base, pos = (b.group(1) or b.group(2)).strip(), b.end()
            elif value == "log":
                raise ParseError("log without a base is ambiguous (10 or e?)")
            else:
                raise ParseError("root needs an index")
        tokens.append(Token(kind, "^" if value == "**" else value, base))
        if len(tokens) > MAX_TOKENS:
            raise ParseError("expression too long")
    return tokens


_BINARY_PRECEDENCE = {"+": 10, "-": 10, "*": 20, "/": 20, "^": 40}
_IMPLICIT_MUL = 20
_STARTS_OPERAND = ("num", "var", "const", "func", "lparen")


class _Parser:
    def __init__(self, tokens: list[Token], conventional: bool = False) -> None:
        self.tokens = tokens
        self.conventional = conventional  # √16+9 and 2^3^2 by the convention (answers)
        self.pos = 0
        self.bars = 0  # depth inside |...|: there a bar closes
        self.percents: set[int] = set()  # ids of "n%" terms: 200 - 10% is ambiguous
        self.angles = 0  # depth inside sin/cos/tan's argument: the only place a ° is read

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
        tok = self.peek()
        if tok is not None:
            raise ParseError(f"unexpected {tok.text!r}")
        return expr

    def expression(self, min_prec: int) -> sp.Expr:
        left = self.prefix()
        last_op: str | None = None
        while (tok := self.peek()) is not None:
            if tok.kind == "op":
                op, prec = tok.text, _BINARY_PRECEDENCE[tok.text]
            elif tok.kind in _STARTS_OPERAND or (tok.kind == "bar" and self.bars == 0):
                op, prec = "*", _IMPLICIT_MUL  # 2x, 3(x+1), 2|x|, 2sqrt(3)
            else:
                break
            if prec < min_prec or (prec == min_prec and op != "^"):
                break
            if tok.kind == "op":
                self.take()
            else:
                self.check_implicit(self.tokens[self.pos - 1], tok)
            start, at = self.peek(), self.pos
            # ^ is right-associative: parse its right side at the same precedence.
            right = self.expression(prec if op == "^" else prec + 1)
            if op == "^" and _root_meant(self.tokens[at : self.pos], self.peek()):
                raise ParseError("9^1/2: (9^1)/2, or the root 9^(1/2)?")
            after = self.peek()
            if (
                op == "^"
                and not self.conventional
                and after is not None
                and after.kind in _STARTS_OPERAND
                and _exponent_reaches(left, self.tokens[at], after)
            ):
                raise ParseError("2^2x: (2^2)x or 2^(2x)?")
            chain = op == "^" and _power_outside_brackets(self.tokens[at : self.pos])
            if chain and not self.conventional:
                # the convention says 2^(3^2) = 512; a typed 2^3^2 is (2^3)^2 = 64 to many
                raise ParseError("2^3^2: 2^(3^2) or (2^3)^2?")
            if op == "/":
                self.check_division(last_op, start)
            if op == "/" and id(right) in self.percents:
                raise ParseError("1/2%: half a percent, or 1 divided by 2%?")
            if op in "+-" and (id(left) in self.percents) != (id(right) in self.percents):
                raise ParseError("200 - 10%: ten percent of what?")
            left, last_op = _combine(op, left, right), op
        return left

    def check_implicit(self, before: Token, after: Token) -> None:
        """Refuse "2 3", "-7 2", "x2", "7 % 3": a space is no product, % may be modulo."""
        if after.kind == "num" and before.kind in ("num", "var"):
            raise ParseError("two numbers side by side: a product, a list or one number?")
        if before.kind == "post" and before.text == "%":
            raise ParseError("'%' followed by a value: percent or modulo?")

    def check_division(self, last_op: str | None, start: Token | None) -> None:
        """Refuse "8 / 2(2+2)", "1/2x", "3/4 / 1/2": school and calculator conventions differ."""
        nxt = self.peek()
        if nxt is not None and (
            nxt.kind in _STARTS_OPERAND or (nxt.kind == "bar" and self.bars == 0)
        ):
            raise ParseError("a product right after a division is ambiguous")
        if last_op == "/" and (start is None or start.kind != "lparen"):
            raise ParseError("a/b/c: which division comes first?")

    def prefix(self) -> sp.Expr:
        tok = self.take()
        if tok.kind == "op" and tok.text in "+-":
            operand = self.expression(_BINARY_PRECEDENCE["*"] + 1)
            return operand if tok.text == "+" else sp.Mul(-1, operand, evaluate=False)
        if tok.kind == "func":
            return self.function(tok)
        return self.postfix(self.atom(tok))

    def atom(self, tok: Token) -> sp.Expr:
        if tok.kind == "num":
            if len(tok.text) > MAX_QUESTION_DIGITS and not self.conventional:
                raise ParseError("a number too long for a school problem")
            return sp.Rational(tok.text) if "." in tok.text else sp.Integer(tok.text)
        if tok.kind == "var":
            nxt = self.peek()
            if tok.text in "fghFGH" and nxt is not None and nxt.kind == "lparen":
                raise ParseError("function notation f(x) is not supported")
            return sp.Symbol(tok.text)
        if tok.kind == "const":
            return sp.pi
        if tok.kind == "lparen":
            saved, self.bars = self.bars, 0
            inner = self.expression(0)
            self.bars = saved
            if self.take().kind != "rparen":
                raise ParseError("missing )")
            return inner
        if tok.kind == "bar":
            self.bars += 1
            inner = self.expression(0)
            self.bars -= 1
            if self.take().kind != "bar":
                raise ParseError("missing |")
            return sp.Abs(inner, evaluate=False)
        raise ParseError(f"unexpected {tok.text!r}")

    def postfix(self, expr: sp.Expr) -> sp.Expr:
        while (tok := self.peek()) is not None and tok.kind == "post":
            self.take()
            if tok.text == "!":
                following = self.peek()
                if following is not None and following.text == "!":
                    raise ParseError("'5!!': a double factorial, or an exclamation?")
                if expr.free_symbols and not isinstance(expr, sp.Symbol):
                    raise ParseError("factorial of an expression in an unknown is not supported")
                expr = sp.factorial(expr, evaluate=False)
            elif tok.text == "%":
                expr = sp.Mul(expr, sp.Rational(1, 100), evaluate=False)
                self.percents.add(id(expr))
            else:
                if expr.free_symbols:
                    raise ParseError("an unknown measured in degrees is not supported")
                if not self.angles:
                    # 30° + 60° is 90°, not π/2: outside a trig function the answer's unit
                    # would be lost (and 180° ÷ 30° is a plain 6).
                    raise ParseError("an angle outside sin, cos or tan is not supported")
                expr = sp.Mul(expr, sp.pi, sp.Rational(1, 180), evaluate=False)
        return expr

    def function(self, tok: Token) -> sp.Expr:
        trig = tok.text in ("sin", "cos", "tan")
        self.angles += trig
        try:
            return self._function(tok)
        finally:
            self.angles -= trig

    def _binding_after(self, name: str) -> str:
        """Operators after a bare argument that make its reach a guess."""
        radical = name in ("sqrt", "root")  # √, ∛: a bar drawn over its argument
        return "*/^+-" if radical and not self.conventional else "*/^"

    def _function(self, tok: Token) -> sp.Expr:
        nxt = self.peek()
        if nxt is not None and nxt.kind == "lparen":
            arg = self.postfix(self.atom(self.take()))
        else:
            if nxt is None or nxt.kind not in ("num", "var", "const", "bar"):
                raise ParseError(f"{tok.text} needs an argument")
            arg = self.postfix(self.atom(self.take()))
            after = self.peek()
            # "sin 2x", "sqrt 2 x", "ln x^2": which part is the argument? Refuse to guess. A
            # typed radical's bar may reach over a sum too: √16+9 is 13, or √(16+9) = 5.
            if after is not None and (
                after.kind in _STARTS_OPERAND
                or (after.kind == "op" and after.text in self._binding_after(tok.text))
                or (after.kind == "bar" and self.bars == 0)
            ):
                raise ParseError(f"the argument of {tok.text} is ambiguous")
        return build_function(tok.text, arg, _parse_base(tok.base))


def _exponent_reaches(base: sp.Expr, first: Token, after: Token) -> bool:
    """Was the operand written against a power's exponent meant inside it? x^2y is x²·y, but a
    number's power (2^2x = 16: x = 4, or 2^(2x) = 16, x = 2?), a letter's power before the
    same letter (x^2x) and a negative exponent (a^-2b) are as often an exponent typed
    without brackets."""
    if not base.free_symbols or (first.kind == "op" and first.text == "-"):
        return True
    return isinstance(base, sp.Symbol) and after.kind == "var" and after.text == base.name


def _root_meant(exponent: list[Token], after: Token | None) -> bool:
    """A power to 1 (or -1) right before a division: 9^1/2 is written for 9^(1/2) as often as
    for (9^1)/2, in questions and answers alike (nobody writes ^1 otherwise)."""
    digits = [t.text for t in exponent if not (t.kind == "op" and t.text == "-")]
    return digits == ["1"] and after is not None and after.kind == "op" and after.text == "/"


def _power_outside_brackets(tokens: list[Token]) -> bool:
    """Is there a ^ among `tokens` that no bracket encloses (a chain of powers)?"""
    depth = 0
    for token in tokens:
        depth += (token.kind == "lparen") - (token.kind == "rparen")
        if depth == 0 and token.kind == "op" and token.text == "^":
            return True
    return False


def _parse_base(base: str | None) -> sp.Expr | None:
    if base is None:
        return None
    value = evaluate(_Parser(tokenize(base)).parse())
    if value.free_symbols or not value.is_positive or value == 1:
        raise ParseError("a log base or root index must be a positive number other than 1")
    return value


def build_function(name: str, arg: sp.Expr, base: sp.Expr | None = None) -> sp.Expr:
    """The sympy expression of a named function; shared by both readings."""
    if name == "sqrt":
        return sp.Pow(arg, sp.Rational(1, 2), evaluate=False)
    if name == "root":
        assert base is not None
        if not base.is_Integer or base > MAX_EXPONENT:
            raise ParseError("a root index must be a whole number")
        if int(base) % 2 == 1:
            if arg.free_symbols:
                raise ParseError("odd roots of an unknown are not supported")
            return sp.real_root(evaluate(arg), int(base))
        return sp.Pow(arg, sp.Rational(1, int(base)), evaluate=False)
    if name in ("log", "lg"):
        b = base if name == "log" else sp.Integer(10)
        assert b is not None
        return sp.Mul(
            sp.log(arg, evaluate=False),
            sp.Pow(sp.log(b, evaluate=False), -1, evaluate=False),
            evaluate=False,
        )
    functions = {
        **{"ln": sp.log, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "exp": sp.exp},
        **{"arcsin": sp.asin, "arccos": sp.acos, "arctan": sp.atan},
    }
    if name in functions:
        return functions[name](arg, evaluate=False)
    if name == "abs":
        return sp.Abs(arg, evaluate=False)
    raise ParseError(f"unknown function {name}")


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
    return sp.Pow(left, right, evaluate=False)


def parse_expression(text: str, undefined: bool = False, answer: bool = False) -> sp.Expr:
    """Parse one expression (no relation), unevaluated; its size is checked by evaluating.
    `undefined`: an expression that divides by zero (12 ÷ 0) is returned too. `answer`: a
    value an answer states, read by the convention where a question's notation is refused
    as two readings (√2 + 2 is √2 + 2, 2^3^2 is 2^(3^2)): the writer states a value, the
    question's reader must not guess what was asked."""
    tokens = tokenize(text)
    if not tokens:
        raise ParseError("empty expression")
    expr = _Parser(tokens, conventional=answer).parse()
    try:
        evaluate(expr)  # raises ParseError on powers or factorials that are too large
    except UndefinedValue:
        if not undefined or _unreadable_part(expr):
            raise
    return expr


def _unreadable_part(expr: sp.Expr) -> bool:
    """Does a part of `expr` fail for another reason than a division by zero? (Evaluation
    stops at the first one, before it reaches the rest: 1/0 + 9^9^9.)"""
    for part in expr.args:
        try:
            evaluate(part)
        except UndefinedValue:
            if _unreadable_part(part):
                return True
        except ParseError:
            return True
    return False


_MIXED_NUMBER = re.compile(
    r"(?<![\d./^])(?<!\d\s)(\d+)[^\S\n]+(\d+)\s*/\s*(\d+)(?![\d.]|\s*[a-zA-Z(^\d%])"
)


def _mixed(match: re.Match[str]) -> str:
    whole, numerator, denominator = match.groups()
    if not 0 < int(numerator) < int(denominator):
        # "1 000 000/1", "2 0/3": not a mixed number; the parser refuses "1 000", "2 0"
        return match.group(0)
    return f"({whole}+{numerator}/{denominator})"


def expand_mixed_numbers(text: str) -> str:
    """1 7/12 → (1+7/12): written this way a space means addition, not multiplication.
    Not before a letter, a power or a percent ("1 1/2 x", "1 1/2^2", "3 1/2 %"): abstain."""
    return _MIXED_NUMBER.sub(_mixed, text)
