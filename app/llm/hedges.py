"""Is an answer a guess? "maybe 12", "12 or 13", "12-13", "大约12", "12吧".

A hedge is never an answer a student may be shown as checked: a verifier that echoes "12 or
13" agrees with both halves at once. Two kinds:

- unsure words ("maybe", "likely", "I think", "可能", "应该是", "左右", a closing "?"), unless the
  problem itself is about chance ("possible", "certain", "可能") or asks for an estimate;
- two different values offered as alternatives or a range ("12 or 13", "12 (or 13)", "12-13",
  "between 12 and 13", "12 ± 1", "12到13", "不是12就是13"), unless the problem may have several
  answers (an equation in an unknown, "solve", "roots", a square or an absolute value, "the
  distance from 0", "哪些", "绝对值"). The same value written twice ("3/4 or 0.75", "1/2 or 50%")
  is one value.
"""

from __future__ import annotations

import re
from fractions import Fraction

_UNSURE = re.compile(
    r"\b(maybe|perhaps|probably|possibly|likely|i think|i guess|i believe|i would say|guess"
    r"|not sure|not certain|unsure|or so)\b"
    r"|(?<!不)可能|应该|估计|大约|大概|也许|或许|我猜|好像|不确定|左右|吧\s*[.。]?\s*$|[?？]\s*$",
    re.IGNORECASE,
)
_CHANCE = re.compile(
    r"\b(possible|possibly|impossible|certain|maybe|likely|unlikely|chance|probabilit\w*"
    r"|estimat\w*|about|approximate\w*|roughly|round\w*)\b"
    r"|可能|一定|不可能|估|大约|大概|近似|约",
    re.IGNORECASE,
)
# LaTeX and markdown around the words of an answer: "12 \text{ or } 13", "$12$", "**12**".
_MARKUP = re.compile(r"\\text\w*\s*\{|\\mathrm\s*\{|[{}$*]|\\[,;!]")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-+]?\d+(?:\.\d+)?(?:\s*/\s*\d+)?%?")
_CONNECTIVE = re.compile(
    r"\bor\b|\bto\b|\bbetween\b|\beither\b|\\pm|±|\\lor|\||或|还是|到|至|[~～]|要么|就是"
    r"|\bлибо\b|\bou\b|\bo\b|(?<=\d)\s*[-–—]\s*(?=\d)(?![^=]*=)",  # not "12 - 5 = 7"
    re.IGNORECASE,
)
# Problems that may have several answers, or whose "5 to 3" is a ratio.
_SEVERAL = re.compile(
    r"\b(solve|roots?|solutions?\s+(?:of|to)|zeros?|values|square|squared|absolute|opposite"
    r"|distance|away\s+from|ratio|range|interval|between|consecutive|which\s+two)\b"
    r"|(?<![A-Za-z])(?![cdkm]?m\s*(?:\^\s*2|²))[a-z]\s*(?:\^\s*2|²)|√|\|"  # x², not m²
    r"|\b[a-z]\b[^=?.!。？]*=|=[^?.!。？]*\b[a-z]\b"  # an equation in an unknown
    r"|哪些|绝对值|平方|相反数|距离|比|解方程|所有解|范围|之间|连续",
    re.IGNORECASE,
)


def _value(number: str) -> Fraction | None:
    text = number.replace(" ", "")
    scale = Fraction(1, 100) if text.endswith("%") else Fraction(1)
    try:
        return Fraction(text.rstrip("%")) * scale
    except (ValueError, ZeroDivisionError):
        return None


def hedges(answer: str, problem: str) -> bool:
    """True when the answer is a guess or offers different values to a problem that asks for
    one."""
    text = _MARKUP.sub(" ", answer)
    if _UNSURE.search(text) and not _CHANCE.search(problem):
        return True
    values = {_value(n) for n in _NUMBER.findall(text)}
    return len(values) > 1 and _CONNECTIVE.search(text) is not None and not _SEVERAL.search(problem)
