"""A worked step's text as tokens: LaTeX, Unicode and plain notation in one stream.

Only the notation is translated (\\frac{a}{b} → ((a)/(b)), × → *, \\text{kg} → a word);
nothing is guessed. What cannot be translated becomes an `other` token, which poisons any
calculation it touches (the step checker abstains on it). Pure functions (sandboxed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A LaTeX command whose braced argument is prose (a unit, a label), kept as one word.
_TEXT_COMMANDS = ("text", "textbf", "textit", "mathrm", "mbox", "operatorname", "textrm")
_DROPPED_COMMANDS = ("left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "displaystyle")
_KEPT_ARGUMENT = ("boxed", "mathbf", "mathit", "bm")
_SYMBOLS = {
    "times": " * ",
    "cdot": " * ",
    "ast": " * ",
    "div": " / ",
    "approx": " ≈ ",
    "%": "%",
    "$": " ",
    "(": " ; ",  # each \\(…\\) and \\[…\\] block is its own statement
    ")": " ; ",
    "[": " ; ",
    "]": " ; ",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    " ": " ",
    "quad": " ; ",
    "qquad": " ; ",
    "implies": " ⇒ ",
    "Rightarrow": " ⇒ ",
    "Longrightarrow": " ⇒ ",
    "therefore": " ⇒ ",
    "to": " ⇒ ",
    "rightarrow": " ⇒ ",
    "newline": " ; ",
    "\\": " ; ",
}
_UNICODE = {
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "÷": "/",
    "−": "-",
    "–": "-",
    "（": "(",
    "）": ")",
    "＝": "=",
    "＋": "+",
    "＊": "*",
    "／": "/",
    "：": ":",
    "，": ",",
    "。": ".",
    "；": ";",
    "²": "^2",
    "³": "^3",
    "√": " sqrt ",
    "⟹": " ⇒ ",
    "→": " ⇒ ",
    "∴": " ⇒ ",
    "≃": "≈",
    "﹪": "%",
    "％": "%",
}
_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_LATEX_THOUSANDS = re.compile(r"(?<=\d)\{,\}(?=\d{3})")
# 18 - 6 = 12（个）, 5 × 3 = 15 (apples): a unit in parentheses after a number
_UNIT_IN_PARENTHESES = re.compile(r"(?<=\d)\s*\(([^()\d=+\-*/^⟂⟦⟧]{1,12})\)")
# = 43.96% (approximately), ≈ 3.14 (rounded to the nearest hundredth): a remark on rounding
# in parentheses is prose, not a bracket the calculation opens (nor a unit). Its free words
# hold no relation or operator: "(rounded, since 45 + 37 = 83)" is a claim.
_REMARK_WORDS = r"[^()（）=≈<>+×*÷]"
_ROUNDING_REMARK = re.compile(
    rf"\s*[(（]\s*(?:approx(?:imately|\.)?|rounded\b{_REMARK_WORDS}{{0,40}}"
    rf"|to the nearest\b{_REMARK_WORDS}{{0,30}}|to\s+\d\s*(?:d\.?\s?p\.?|decimal places?)"
    rf"|约|大约|近似|四舍五入|保留{_REMARK_WORDS}{{1,8}}|精确到{_REMARK_WORDS}{{1,8}})\s*[)）]",
    re.IGNORECASE,
)
# 25 km/h, 9.8 m/s after a number: one unit, not a division by the variable h. Not with a
# power (g/cm^3): the units module reads no powers, and a unit it cannot read is a count.
_COMPOUND_UNIT = re.compile(
    r"(?<=\d)(\s*)((?:km|m|cm|mm|mi|ft|yd|g|kg|mg|t|L|l|mL|ml)/"
    r"(?:h|hr|s|sec|min|d|L|l|mL|ml|kg|g|m|cm|km|gal))(?![A-Za-z0-9/^(])"
)
# 180 minutes (before dinner) + 80 minutes (homework): a label in parentheses after a unit
_LABEL_IN_PARENTHESES = re.compile(
    r"(?<=[A-Za-z⟧])\s*\(\s*([A-Za-z\u3400-\u9fff][A-Za-z\u3400-\u9fff' ]{2,30})\s*\)"
)
# A list bullet or a step's number: "- ", "2. ", "2) ", "(2) ", "（2）" (a step that opens
# with a bracketed number is numbered, not multiplied).
# A step's number or bullet: "1. ", "- ", "(1)", "①", "第二步：", "Step 2:".
_BULLET = re.compile(
    r"(?:^|\n)[ \t]*(?:(?:[-*•]|\d+[.)])[ \t]+|[(（]\d{1,2}[)）][ \t]*|[①-⑳][ \t]*"
    r"|第[一二三四五六七八九十\d]+步[ \t]*[:：]?[ \t]*|(?i:step)[ \t]*\d+[ \t]*[:.)][ \t]*)"
)
_MIXED_NUMBER = re.compile(r"(\d)\s*(?=\\[dt]?frac)")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)?", re.DOTALL)


class Untranslatable(ValueError):
    """Notation the step reader does not translate (the part becomes an `other` token)."""


def _braced(text: str, start: int) -> tuple[str, int]:
    """The content of the {...} group at `start` (after spaces), and the index after it."""
    i = start
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text) or text[i] != "{":
        # \frac12: single-character arguments
        if i < len(text) and text[i].isalnum():
            return text[i], i + 1
        raise Untranslatable("expected a braced argument")
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    raise Untranslatable("unbalanced braces")


def latex_to_plain(text: str, depth: int = 0) -> str:
    """LaTeX commands to plain notation; unknown commands become ⟂ (an `other` token)."""
    if depth > 20:
        raise Untranslatable("nesting too deep")
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "^" and i + 1 < len(text) and text[i + 1] == "{":
            try:
                inner, after = _braced(text, i + 1)
                out.append(f"^({latex_to_plain(inner, depth + 1)})")
                i = after
            except Untranslatable:
                out.append(" ⟂ ")
                i += 1
            continue
        if ch == "_":
            out.append(" ⟂ ")  # subscripts name things (x_1, a_n): not arithmetic
            i += 1
            continue
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        m = _COMMAND.match(text, i)
        assert m is not None  # the name is optional: a lone backslash matches too
        name, i = m.group(1) or "", m.end()
        try:
            if name in ("frac", "dfrac", "tfrac"):
                numerator, i = _braced(text, i)
                denominator, i = _braced(text, i)
                num = latex_to_plain(numerator, depth + 1)
                den = latex_to_plain(denominator, depth + 1)
                out.append(f"(({num})/({den}))")
            elif name == "sqrt":
                if i < len(text) and text[i] == "[":
                    raise Untranslatable("n-th roots are not read")
                inner, i = _braced(text, i)
                out.append(f" sqrt(({latex_to_plain(inner, depth + 1)}))")
            elif name in _TEXT_COMMANDS:
                inner, i = _braced(text, i)
                words = inner.strip()
                out.append(f" ⟦{words}⟧ " if words and not re.search(r"[\d=+*^]", words) else " ⟂ ")
            elif name in _KEPT_ARGUMENT:
                inner, i = _braced(text, i)
                out.append(f" ({latex_to_plain(inner, depth + 1)}) ")
            elif name in _DROPPED_COMMANDS:
                out.append(" ")
            elif name in _SYMBOLS:
                out.append(_SYMBOLS[name])
            elif name in ("{", "}"):
                out.append(" ⟂ ")
            else:
                out.append(" ⟂ ")
        except Untranslatable:
            out.append(" ⟂ ")
    return "".join(out)


def to_plain(text: str) -> str:
    """A step's text in plain notation: LaTeX translated, Unicode operators mapped, thousands
    separators (1,200 and 1{,}200) dropped, grouping braces read as parentheses, list bullets
    dropped, mixed numbers (3\\frac{4}{5}) marked untranslatable."""
    text = _LATEX_THOUSANDS.sub("", text)
    text = _BULLET.sub("\n", text)
    text = _MIXED_NUMBER.sub(lambda m: f"{m.group(1)} ⟂ ", text)
    plain = latex_to_plain(text)
    plain = "".join(_UNICODE.get(c, c) for c in plain)
    plain = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), plain)
    # A rounding remark says how the number beside it was made, not a term (the context is
    # read from the step as written): "0.333 (to 3 d.p.)" is 0.333.
    plain = _ROUNDING_REMARK.sub(" ", plain)
    plain = _COMPOUND_UNIT.sub(lambda m: f" ⟦{m.group(2)}⟧ ", plain)
    plain = _UNIT_IN_PARENTHESES.sub(lambda m: f" ⟦{m.group(1).strip()}⟧ ", plain)
    plain = _LABEL_IN_PARENTHESES.sub(lambda m: f" ⟦{m.group(1).strip()}⟧ ", plain)
    return plain.replace("{", "(").replace("}", ")").replace("$", " ")


@dataclass(frozen=True, slots=True)
class Token:
    # num | op | lp | rp | eq | approx | pct | var | word | sqrt | punct | arrow | other
    kind: str
    text: str
    start: int
    end: int


_TOKEN = re.compile(
    r"(?P<num>\d+\.\d+|\d+|\.\d+)"
    r"|(?P<sqrt>sqrt)(?![A-Za-z])"
    r"|(?P<word>[A-Za-z]+(?:'[a-z]+)?)"
    r"|(?P<cjk>[\u3400-\u9fff]+)"
    r"|(?P<text>⟦[^⟧]*⟧)"
    r"|(?P<op>\*\*|[-+*/^])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<eq>=)|(?P<approx>≈)|(?P<pct>%)"
    r"|(?P<arrow>⇒)"
    r"|(?P<punct>[,;:.!?\n])"
    r"|(?P<space>[ \t\r]+)"
)


# Names of functions a step may apply; dropped as prose, "cos(0) = 0" was read "(0) = 0".
# Only names that are nothing else ("min" is also minutes): others count against a "(".
_FUNCTIONS = frozenset(
    {"sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "asin", "acos"}
    | {"atan", "sinh", "cosh", "tanh", "ln", "log", "lg", "exp", "abs", "cbrt"}
)


def _is_function(word: str, plain: str, end: int) -> bool:
    """A function's name: a known one, or any word written against an opening parenthesis
    ("reciprocal(2)"); one letter against "(" is a variable times it (x(x + 1))."""
    return word.lower() in _FUNCTIONS or (len(word) > 1 and plain[end : end + 1] == "(")


def tokenize(plain: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(plain):
        m = _TOKEN.match(plain, pos)
        if m is None:
            tokens.append(Token("other", plain[pos], pos, pos + 1))
            pos += 1
            continue
        kind = m.lastgroup
        assert kind is not None
        value = m.group(kind)
        if kind == "word" and _is_function(value, plain, m.end()):
            kind = "other"  # cos(0), ln 1, abs(-5): a function nothing here evaluates
        elif kind == "word" and len(value) == 1:
            kind = "var"
        elif kind == "cjk":
            kind = "word"
        elif kind == "text":
            kind, value = "word", value[1:-1]
        if kind == "op" and value == "**":
            value = "^"
        if kind != "space":
            tokens.append(Token(kind, value, m.start(), m.end()))
        pos = m.end()
    return tokens


_ENVIRONMENT = re.compile(r"\\(?:begin|end)\{[A-Za-z]+\*?\}(?:\{[^}]*\})*")
_ROW_BREAK = re.compile(r"\\\\(?:\s*\[[^\]]*\])?|\\newline\b")
_LAYOUT = re.compile(r"\\(?:hline|nonumber|notag|qquad|quad)\b|\\color\{[^}]*\}")


def latex_rows(latex: str) -> list[str]:
    r"""An aligned block's rows, one a line, layout gone (environments, `&`, `\[4pt]`,
    `\hline`, `\color{…}`): a row that goes on from the one before (`&= 19`) is joined to it,
    so `12 + 8 &= 20 \ &= 19` reads `12 + 8 = 20 = 19`. Anything else is one row."""
    body = _LAYOUT.sub(" ", _ENVIRONMENT.sub(" ", latex))
    rows: list[str] = []
    for row in _ROW_BREAK.split(body):
        row = row.replace("&", " ").strip()
        if not row:
            continue
        if rows and (row[0] in "=<>≤≥" or row.startswith(("\\le", "\\ge", "\\approx"))):
            rows[-1] = f"{rows[-1]} {row}"
        else:
            rows.append(row)
    return rows
