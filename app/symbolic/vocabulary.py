"""Word lists of the prose reader: which words change the mathematics, which only phrase a task."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry mathematics this reader does not model: one left over means abstain.
# Operations (doubled, in binary, absolute value), qualifiers (smaller, one, first),
# connectives (or) and negations (is false, fails) all change the question asked.
MATH_WORDS = _words(
    """
    above absolute acos angle another any approximate approximately arccos arcsin arctan area
    aren asin at atan average base below between bigger biggest billion billions binary but can
    cannot cbrt ceil ceiling circle cm complex consecutive convert converted cosh cot csc cube
    cubed day days decimal degree degrees derivative difference different digit digits distinct
    divided divisible doesn domain don double doubled dozen either even exceed exceeds except
    excluding expand f fact factor factorise factorize factorized fail failed fails false feet
    fewer first floor frac fraction function g gcd grams greater greatest h half halved
    hexadecimal higher hour hours how hundred hundreds hundredths imaginary impossible inches
    incorrect instead int integer integers integral interest interval invalid inverse inverted
    irrational isn kg km lakh larger largest last lcm least less lesser limit lower many max
    maximum mean median meters metres million millions min minimum minus minute minutes mm mod
    modulo more most multiple multiples multiplied natural nearest negated negative neither
    never no nonnegative nonpositive nonzero nor not notation number numbers numeral numerals
    octal odd one ones only opposite or other otherwise over percent percentage perimeter plus
    positive possible prime probability product proportion quadrupled quotient radian radians
    range ratio rational reciprocal rectangle remainder roman round rounded scientific sec
    second seconds sequence series sgn side sides sign simplest sinh smaller smallest some sqr
    square squared sum tanh tens tenths term terms than thousand thousands times total triangle
    triple tripled trunc twice unique unless untrue value values volume week weeks whole without
    wrong zero
    """
)

# Words that only phrase a task: arithmetic surrounded by nothing else is plainly the question.
INSTRUCTION_WORDS = _words(
    """
    a an and answer calculate compute determine equal equals equation evaluate expression find
    for given if is of out please result simplify solve the then to value what whats work
    """
)
