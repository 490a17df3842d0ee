"""Write k12_plain.jsonl: plain K12 items in English and Chinese, answers computed here with
Python's fractions, decimal and math modules (never with the service's sympy reader), so that
`bench solve` measures the service against an independent computation.

    python tests/data/k12_plain/generate.py  # rewrites k12_plain.jsonl beside this file

Each line: {"id": "<category>-<n>", "category", "lang", "problem", "answer"}.
"""

from __future__ import annotations

import json
import math
import random
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

rng = random.Random(27)
items: list[tuple[str, str, str, str]] = []  # category, lang, problem, answer


def add(category: str, lang: str, problem: str, answer: object) -> None:
    items.append((category, lang, problem, str(answer)))


def frac(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def dec(value: Fraction) -> str:
    """A terminating fraction as a decimal string."""
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def rounded(value: float | Fraction, places: int) -> str:
    number = (
        Decimal(str(value))
        if isinstance(value, float)
        else (Decimal(value.numerator) / Decimal(value.denominator))
    )
    return str(number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


# arithmetic: integers, fractions, decimals, order of operations
for _ in range(8):
    a, b, c = rng.randint(10, 99), rng.randint(2, 30), rng.randint(2, 9)
    add("arithmetic", "en", f"What is {a} + {b} * {c}?", a + b * c)
    add("arithmetic", "zh", f"计算 {a} - {b} × {c}", a - b * c)
for _ in range(6):
    p, q, r, s = rng.randint(1, 5), rng.randint(6, 9), rng.randint(1, 5), rng.randint(6, 12)
    add("arithmetic", "en", f"Calculate {p}/{q} + {r}/{s}", frac(Fraction(p, q) + Fraction(r, s)))
    add("arithmetic", "zh", f"计算 {p}/{q} ÷ {r}/{s}", frac(Fraction(p, q) / Fraction(r, s)))
for _ in range(4):
    a, b = rng.randint(11, 99) / 10, rng.randint(11, 99) / 100
    exact = Fraction(str(a)) * Fraction(str(b))
    add("arithmetic", "en", f"Compute {a} × {b}", dec(exact))
    add("arithmetic", "zh", f"计算 {a} + {b}", dec(Fraction(str(a)) + Fraction(str(b))))

# mixed numbers in every spelling
for _ in range(4):
    w1, n1, d1 = rng.randint(1, 5), 1, rng.randint(2, 6)
    w2, n2, d2 = rng.randint(1, 5), 1, rng.randint(2, 6)
    total = w1 + Fraction(n1, d1) + w2 + Fraction(n2, d2)
    add("mixed", "zh", f"计算 {w1}\\frac{{{n1}}}{{{d1}}} + {w2}\\frac{{{n2}}}{{{d2}}}", frac(total))
    add("mixed", "en", f"What is {w1} {n1}/{d1} + {w2} {n2}/{d2}?", frac(total))
    add("mixed", "zh", f"计算 {w1}又{n1}/{d1} × {w2}", frac((w1 + Fraction(n1, d1)) * w2))
add("mixed", "en", "What is 2½ + 1¼?", "15/4")
add("mixed", "en", "Compute 3\\frac{1}{3} \\times 3", "10")

# linear equations
for _ in range(8):
    a, x, b = rng.randint(2, 9), rng.randint(-9, 12), rng.randint(-20, 20)
    add("linear", "en", f"Solve {a}x + {b} = {a * x + b}".replace("+ -", "- "), f"x = {x}")
    add("linear", "zh", f"解方程 {a}x - {b} = {a * x - b}".replace("- -", "+ "), f"x = {x}")
for _ in range(3):
    a, b, c, d = rng.randint(2, 6), rng.randint(1, 9), rng.randint(2, 6), rng.randint(1, 9)
    if a == c:
        c += 1
    x = Fraction(c * d + a * b, a - c)  # a(x - b) = c(x + d)
    add("linear", "en", f"Solve {a}(x - {b}) = {c}(x + {d})", f"x = {frac(x)}")

# quadratics
for _ in range(6):
    r1, r2 = rng.randint(-9, 9), rng.randint(-9, 9)
    b, c = -(r1 + r2), r1 * r2
    poly = f"x^2 {'+' if b >= 0 else '-'} {abs(b)}x {'+' if c >= 0 else '-'} {abs(c)} = 0"
    roots = sorted({r1, r2})
    answer = " or ".join(f"x = {r}" for r in roots)
    add("quadratic", "en", f"Solve {poly}", answer)
    add("quadratic", "zh", f"解方程 {poly}", answer)
add("quadratic", "en", "Solve x^2 - 4x + 1 = 0", "x = 2 - sqrt(3) or x = 2 + sqrt(3)")
add("quadratic", "en", "Solve x^2 + 1 = 0", "no real solution")

# systems
for _ in range(6):
    x, y = rng.randint(-6, 9), rng.randint(-6, 9)
    a, b = rng.randint(1, 4), rng.randint(1, 4)
    add(
        "system",
        "en",
        f"Solve the system: x + y = {x + y}, {a}x - {b}y = {a * x - b * y}",
        f"x = {x}, y = {y}",
    )
    add("system", "zh", f"解方程组 x + y = {x + y}, x - y = {x - y}", f"x = {x}, y = {y}")

# radicals and powers
for n in (196, 144, 81, 225, 169):
    add("radical", "en", f"What is the square root of {n}?", math.isqrt(n))
for n in (27, 64, 125):
    add("radical", "en", f"Find the cube root of {n}.", round(n ** (1 / 3)))
    add("radical", "zh", f"{n}的立方根是多少", round(n ** (1 / 3)))
add("radical", "en", "Simplify sqrt(50)", "5*sqrt(2)")
add("radical", "en", "What is sqrt(12) * sqrt(3)?", "6")
add("radical", "zh", "计算 √49 + √16", "11")
add("radical", "en", "What is 2^10?", 1024)
add("radical", "en", "What is 15 squared?", 225)

# logarithms
for base, power in ((2, 5), (3, 4), (10, 3), (5, 2)):
    add("log", "en", f"What is log_{base}({base**power})?", power)
    add("log", "en", f"Solve {base}^x = {base**power}", f"x = {power}")
add("log", "en", "What is ln(e^2)?", "2")
add("log", "zh", "计算 lg 100", "2")

# percents
for part, whole in ((12, 50), (9, 36), (45, 60), (3, 8)):
    add(
        "percent",
        "en",
        f"What percent of {whole} is {part}?",
        f"{dec(Fraction(part * 100, whole))}%",
    )
    add("percent", "zh", f"{part}是{whole}的百分之几？", f"{dec(Fraction(part * 100, whole))}%")
for base, pct in ((50, 10), (80, 25), (120, 15), (40, 5)):
    up, down = Fraction(base * (100 + pct), 100), Fraction(base * (100 - pct), 100)
    add("percent", "en", f"What is {base} increased by {pct}%?", dec(up))
    add("percent", "en", f"What is {base} decreased by {pct}%?", dec(down))
for pct, base in ((15, 80), (30, 90), (12.5, 64)):
    add("percent", "en", f"What is {pct}% of {base}?", dec(Fraction(str(pct)) * base / 100))
add(
    "percent",
    "en",
    "A price of 100 is decreased by 20% and then increased by 20%. What is the new price?",
    "96",
)

# fraction / decimal / percent conversions
for p, q in ((1, 8), (3, 4), (2, 5), (7, 20)):
    add("conversion", "en", f"Write {p}/{q} as a decimal.", dec(Fraction(p, q)))
    add("conversion", "zh", f"把 {p}/{q} 化成小数", dec(Fraction(p, q)))
    add("conversion", "en", f"Express {p}/{q} as a percent.", f"{dec(Fraction(100 * p, q))}%")
for d in ("0.45", "0.125", "0.6"):
    add("conversion", "en", f"Write {d} as a fraction in lowest terms.", frac(Fraction(d)))
add("conversion", "en", "Write 1/3 as a decimal.", "0.333...")

# rounding instructions
for p, q in ((19, 3), (22, 7), (10, 3), (5, 6)):
    add("rounding", "en", f"What is {p}/{q} to the nearest tenth?", rounded(Fraction(p, q), 1))
    add("rounding", "zh", f"计算 {p}/{q}，结果保留两位小数", rounded(Fraction(p, q), 2))
    add("rounding", "zh", f"计算 {p} ÷ {q}（精确到百分位）", rounded(Fraction(p, q), 2))
add("rounding", "en", "What is sqrt(2) to 3 decimal places?", rounded(math.sqrt(2), 3))
add("rounding", "en", "Round 3.14159 to the nearest hundredth.", "3.14")

# unit conversions
for value, src, dst, factor in (
    (72, "km/h", "m/s", Fraction(1000, 3600)),
    (2.5, "km", "m", 1000),
    (3, "hours", "minutes", 60),
    (4500, "g", "kg", Fraction(1, 1000)),
    (150, "cm", "m", Fraction(1, 100)),
    (2, "L", "mL", 1000),
    (90, "minutes", "hours", Fraction(1, 60)),
    (5, "feet", "inches", 12),
):
    add("units", "en", f"Convert {value} {src} to {dst}.", dec(Fraction(str(value)) * factor))
add("units", "zh", "72千米/时等于多少米/秒？", "20")
add("units", "zh", "3.5米等于多少厘米？", "350")

# expressions: simplify / expand / factor
add("expression", "en", "Expand (x + 2)(x + 3)", "x^2 + 5x + 6")
add("expression", "en", "Expand (2x - 1)^2", "4x^2 - 4x + 1")
add("expression", "en", "Factor x^2 - 9", "(x - 3)(x + 3)")
add("expression", "en", "Factor x^2 + 5x + 6", "(x + 2)(x + 3)")
add("expression", "en", "Simplify 3x + 2x - x", "4x")
add("expression", "en", "Simplify 2(x + 3) - 4", "2x + 2")
add("expression", "zh", "化简 3a + 5a - 2a", "6a")
add("expression", "zh", "因式分解 x^2 - 4x + 4", "(x - 2)^2")
add("expression", "zh", "展开 (x - 1)(x + 1)", "x^2 - 1")

# inequalities
for a, b, c in ((2, 1, 5), (3, -2, 7), (5, 4, -6)):
    bound = frac(Fraction(c - b, a))
    add("inequality", "en", f"Solve {a}x + {b} > {c}".replace("+ -", "- "), f"x > {bound}")
    add("inequality", "zh", f"解不等式 {a}x + {b} ≤ {c}".replace("+ -", "- "), f"x <= {bound}")
add("inequality", "en", "Solve -2x + 3 < 7", "x > -2")

# roots chosen by a condition
add("condition", "en", "Find the positive solution of x^2 = 9", "x = 3")
add("condition", "en", "What is the negative root of x^2 - x - 6 = 0?", "x = -2")
add("condition", "zh", "求方程 x^2 - 2x - 15 = 0 的正数解", "x = 5")
add("condition", "zh", "求方程 x^2 - 3x = 0 的非零解", "x = 3")
add("condition", "en", "Find the integer solutions of 2x^2 - 3x - 2 = 0", "x = 2")
add("condition", "en", "x^2 = 16 and x < 0. Find x.", "x = -4")
add("condition", "en", "Solve 2x + 3 = 11, then give 2x + 5.", "13")

# formula substitution
add("formula", "en", "v = u + at with u = 3, a = 2, t = 4. Find v.", "11")
add("formula", "en", "If A = l*w, l = 7 and w = 5, what is A?", "35")
add("formula", "en", "Given y = 3x - 2, find y when x = 4.", "10")
add("formula", "zh", "已知 y = 2x + 1，当 x = 3 时，求 y 的值", "7")
add("formula", "en", "P = 2(l + w). Find P when l = 6 and w = 4.", "20")

# operation words in English and Chinese
add("words", "en", "What is 3/4 of 60?", "45")
add("words", "en", "What is the sum of 3/4 and 5/6?", "19/12")
add("words", "en", "Find the product of 12 and 15.", "180")
add("words", "en", "What is the difference between 100 and 37?", "63")
add("words", "en", "What is 144 divided by 12?", "12")
add("words", "en", "What is 7 times 8?", "56")
add("words", "en", "What is 48 ÷ 4 ÷ 2?", "6")
add("words", "zh", "计算 48与12的差", "36")
add("words", "zh", "计算 3.6除以0.4", "9")
add("words", "zh", "计算 60的3/4", "45")
add("words", "zh", "15与4的积是多少？", "60")
add("words", "zh", "9的算术平方根是多少", "3")
add("words", "zh", "计算 1又1/2 + 1", "5/2")


# Questions whose words change what is asked (after the first 222 items, so their ids stay).
def places(value: Decimal) -> int:
    text = format(value.normalize(), "f")
    return len(text.partition(".")[2])


for _ in range(4):
    factors = [
        Decimal(f"{rng.randint(1, 30)}.{rng.randint(1, 9)}") for _ in range(rng.randint(2, 4))
    ]
    product = math.prod(factors, start=Decimal(1))
    if places(product) != sum(places(f) for f in factors):
        continue  # the school rule and the value disagree: no single answer
    written = "×".join(str(f) for f in factors)
    add("asked", "zh", f"计算{written}的结果是一个多少位的小数", places(product))
    add("asked", "en", f"How many decimal places does {written} have?", places(product))
for base, exponent in ((2, 10), (3, 20), (7, 12), (2, 100)):
    value = base**exponent
    add("asked", "en", f"How many digits does {base}^{exponent} have?", len(str(value)))
    add("asked", "zh", f"{base}^{exponent}是几位数", len(str(value)))
    add(
        "asked",
        "en",
        f"What is the sum of the digits of {base}^{exponent}?",
        sum(map(int, str(value))),
    )
    add("asked", "zh", f"{base}^{exponent}的各位数字之和是多少", sum(map(int, str(value))))
for _ in range(4):
    a = Fraction(rng.randint(1, 9), rng.randint(2, 12))
    b = Fraction(rng.randint(1, 9), rng.randint(2, 12))
    if a == b:
        continue
    fa, fb = frac(a), frac(b)
    add("asked", "en", f"Which is larger, {fa} or {fb}?", fa if a > b else fb)
    add("asked", "zh", f"{fa}和{fb}哪个小？", fa if a < b else fb)
    add("asked", "zh", f"比较大小：{fa}和{fb}", f"{fa} {'>' if a > b else '<'} {fb}")

# notations: e in a logarithm, x! = n, repeating decimals
for k in (3, 5):
    add("notation", "en", f"What is ln(e^{k})?", round(math.log(math.exp(k))))
for n in (4, 5, 6):
    add("notation", "en", f"Solve x! = {math.factorial(n)}", f"x = {n}")
for whole, fixed, block in (("0", "", "3"), ("0", "1", "6"), ("0", "", "27"), ("1", "", "5")):
    period = 10 ** len(block) - 1
    value = Fraction(int(whole + fixed), 10 ** len(fixed)) + Fraction(
        int(block), period * 10 ** len(fixed)
    )
    add("notation", "en", f"Write {whole}.{fixed}\\overline{{{block}}} as a fraction.", frac(value))
    add(
        "notation",
        "en",
        f"Write {whole}.{fixed}{block * (3 if len(block) == 1 else 2)}... as a fraction.",
        frac(value),
    )
    if not fixed:
        add("notation", "zh", f"把{whole}.({block})化成分数", frac(value))

# percent chains: each change of the value reached so far
for base, down, up in ((100, 20, 20), (80, 25, 10), (200, 10, 10)):
    value = Fraction(base) * (100 - down) / 100 * (100 + up) / 100
    add(
        "chain",
        "en",
        f"What is {base} decreased by {down}% and then increased by {up}%?",
        frac(value),
    )
    add(
        "chain", "zh", f"一件商品原价{base}元，先降价{down}%再提价{up}%，现价是多少元？", dec(value)
    )
    percent = Fraction(100 - down) * (100 + up) / 100
    add(
        "chain",
        "zh",
        f"一件商品先降价{down}%再提价{up}%，现价是原价的百分之几？",
        f"{dec(percent)}%",
    )

# Added in the fourth round (after everything above, with their own random source, so that no
# earlier item changes): GCD/LCM, percent more/less, rounding to tens and hundreds.
extra = random.Random(2704)
for _ in range(3):
    g = extra.randint(2, 12)
    a, b = g * extra.randint(2, 9), g * extra.randint(10, 19)
    add("divisor", "en", f"What is the greatest common divisor of {a} and {b}?", math.gcd(a, b))
    add("divisor", "zh", f"求{a}和{b}的最大公因数", math.gcd(a, b))
    add("divisor", "en", f"Find the least common multiple of {a} and {b}.", math.lcm(a, b))
    add("divisor", "zh", f"{a}和{b}的最小公倍数是多少？", math.lcm(a, b))
for _ in range(3):
    base, pct = extra.choice([40, 60, 80, 120, 200]), extra.choice([5, 10, 15, 20, 25])
    add("more", "en", f"What is {pct}% more than {base}?", dec(Fraction(base * (100 + pct), 100)))
    add("more", "zh", f"比{base}多{pct}%的数是多少？", dec(Fraction(base * (100 + pct), 100)))
    add("more", "en", f"What is {pct}% less than {base}?", dec(Fraction(base * (100 - pct), 100)))
    more, less = base * (100 + pct) // 100, base * (100 - pct) // 100
    add("more", "zh", f"{more}比{base}多百分之几？", f"{dec(Fraction(100 * (more - base), base))}%")
    add("more", "zh", f"{less}比{base}少百分之几？", f"{dec(Fraction(100 * (base - less), base))}%")
for _ in range(3):
    n = extra.randint(1000, 99999)
    tens = int(Decimal(n).quantize(Decimal("1E1"), rounding=ROUND_HALF_UP))
    hundreds = int(Decimal(n).quantize(Decimal("1E2"), rounding=ROUND_HALF_UP))
    thousands = int(Decimal(n).quantize(Decimal("1E3"), rounding=ROUND_HALF_UP))
    add("rounding", "en", f"Round {n} to the nearest ten.", tens)
    add("rounding", "en", f"Round {n} to the nearest hundred.", hundreds)
    add("rounding", "zh", f"把 {n} 精确到千位", thousands)

out = Path(__file__).with_name("k12_plain.jsonl")
counters: dict[str, int] = {}
with out.open("w", encoding="utf-8") as handle:
    for category, lang, problem, answer in items:
        counters[category] = counters.get(category, 0) + 1
        record = {
            "id": f"{category}-{counters[category]:03d}",
            "category": category,
            "lang": lang,
            "problem": problem,
            "answer": answer,
        }
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
print(len(items), "items", counters)
