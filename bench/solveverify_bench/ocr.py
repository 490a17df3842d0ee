"""`bench ocr`: photos of typeset K12 math with known answers, through the service's graph.

Each problem is drawn with matplotlib's mathtext in several math fonts, at several sizes,
slightly rotated, blurred, saved as JPEG, some with a prefix ("Solve: ", or 解方程： where this
machine has a Chinese font), then run exactly as a photo scan is. Reported per structure
(fraction, nested fraction, mixed number, radical, power, plain; and the tester's
fractional and multi-digit powers, nth roots, ÷ a fraction, \\cdot, %, |x|, a power right
after a radical or a fraction): how many
were read exactly, verified, verified right, and verified wrong (the promise: zero), and
the coverage.

A reading is exact when it says what the LaTeX source says: both are put through the
symbolic reader's normalization, and brackets and spaces are ignored.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.pipeline.graph import run_pipeline
from app.pipeline.state import SolveState
from app.symbolic.normalize import ParseError, latex_to_plain, normalize
from app.symbolic.parsing import expand_mixed_numbers
from solveverify_bench.math_photos import (
    FONTSETS,
    HANDWRITING,
    PhotoStyle,
    cjk_font,
    handwriting_fonts,
    render_math,
)

if TYPE_CHECKING:
    from app.resources import Resources


@dataclass(frozen=True, slots=True)
class MathProblem:
    latex: str
    answer: str
    structure: str


PROBLEMS: tuple[MathProblem, ...] = (
    MathProblem(r"\frac{x}{4}=3", "12", "fraction"),
    MathProblem(r"\frac{2x}{5}=4", "10", "fraction"),
    MathProblem(r"\frac{3}{5}\times 10", "6", "fraction"),
    MathProblem(r"\frac{12}{4}+5", "8", "fraction"),
    MathProblem(r"\frac{1}{2}+\frac{1}{3}", "5/6", "fraction"),
    MathProblem(r"\frac{x+1}{3}=2", "5", "fraction"),
    MathProblem(r"\frac{3}{4}-\frac{1}{4}", "1/2", "fraction"),
    MathProblem(r"\frac{\frac{1}{2}}{3}", "1/6", "nested_fraction"),
    MathProblem(r"\frac{1}{1+\frac{1}{2}}", "2/3", "nested_fraction"),
    MathProblem(r"1\frac{1}{2}+2", "7/2", "mixed_number"),
    MathProblem(r"4\frac{2}{3}-1\frac{1}{3}", "10/3", "mixed_number"),
    MathProblem(r"2\frac{1}{2}+1\frac{1}{4}", "15/4", "mixed_number"),
    MathProblem(r"3\frac{1}{4}\times 2", "13/2", "mixed_number"),
    MathProblem(r"\sqrt{x+5}=3", "4", "radical"),
    MathProblem(r"\sqrt{49}-\sqrt{4}", "5", "radical"),
    MathProblem(r"\sqrt{16}+\sqrt{9}", "7", "radical"),
    MathProblem(r"\sqrt{2x+1}=5", "12", "radical"),
    MathProblem(r"\sqrt{x}=6", "36", "radical"),
    MathProblem(r"x^2-5x+6=0", "x = 2 or x = 3", "power"),
    MathProblem(r"x^3=8", "2", "power"),
    MathProblem(r"2^5-10", "22", "power"),
    MathProblem(r"3^2+4^2", "25", "power"),
    MathProblem(r"|x-3|=5", "x = -2 or x = 8", "plain"),
    MathProblem(r"2x+3=11", "4", "plain"),
    MathProblem(r"7\times 8-6", "50", "plain"),
    # An independent tester's structures, each once verified wrong.
    MathProblem(r"4^{\frac{1}{2}}", "2", "fractional_power"),
    MathProblem(r"8^{\frac{1}{3}}", "2", "fractional_power"),
    MathProblem(r"2^{10}", "1024", "multi_digit_power"),
    MathProblem(r"16^{0.5}", "4", "multi_digit_power"),
    MathProblem(r"\sqrt[3]{27}", "3", "nth_root"),
    MathProblem(r"\sqrt[4]{16}", "2", "nth_root"),
    MathProblem(r"8\div\frac{1}{2}", "16", "divide_fraction"),
    MathProblem(r"\frac{3}{4}\div\frac{1}{2}", "3/2", "divide_fraction"),
    MathProblem(r"3\cdot 4+1", "13", "cdot"),
    MathProblem(r"50\%\times 8", "4", "percent"),
    MathProblem(r"|{-5}|+3", "8", "absolute_value"),
    # A power right after a radical or a fraction (the tester's second finding: read as a
    # product, sqrt(2)2, and verified wrong).
    MathProblem(r"\sqrt{2}^{2}", "2", "power_after_radical"),
    MathProblem(r"\sqrt{9}^{3}", "27", "power_after_radical"),
    MathProblem(r"\sqrt{x}^{2}=9", "9", "power_after_radical"),
    MathProblem(r"\frac{1}{2}^{2}", "1/4", "power_after_fraction"),
    MathProblem(r"\frac{2}{5}^{2}+1", "29/25", "power_after_fraction"),
    MathProblem(r"\frac{x}{2}^{2}=4", "x = -4 or x = 4", "power_after_fraction"),
)

_PREFIXES_EN = ("", "", "Solve: ", "Compute: ")
_PREFIXES_ZH = ("", "解方程：", "计算：", "化简：")
PREFIX_MODES = ("mixed", "none", "zh", "en")


def _prefix_for(problem: MathProblem, drawn: str, mode: str, index: int) -> str:
    """`mixed`: the prefix drawn (Chinese where this machine has a Chinese font), a solve
    word only before an equation; `none`: no prefix; `zh`/`en`: always one, in that language
    (解方程： before an equation, 计算： or 化简： before an expression)."""
    equation = "=" in problem.latex
    if mode == "none":
        return ""
    if mode == "zh":
        return "解方程：" if equation else ("计算：", "化简：")[index % 2]
    if mode == "en":
        return "Solve: " if equation else "Compute: "
    if drawn and not equation and drawn.startswith(("Solve", "解")):
        return "计算：" if cjk_font() else "Compute: "
    return drawn


def styles(
    seed: int, fontsets: tuple[str, ...] = FONTSETS, prefix: str = "mixed"
) -> list[tuple[int, PhotoStyle]]:
    """One photo of every problem in every font, the rest of its look drawn at random (the
    same draws whatever the prefix mode, so runs with and without a prefix pair up)."""
    if prefix not in PREFIX_MODES:
        raise ValueError(f"prefix must be one of {', '.join(PREFIX_MODES)}")
    if prefix == "zh" and cjk_font() is None:
        raise LookupError("no font with Chinese glyphs on this machine (fonts-noto-cjk)")
    rng = random.Random(seed)
    prefixes = _PREFIXES_ZH if cjk_font() else _PREFIXES_EN
    out: list[tuple[int, PhotoStyle]] = []
    for index, problem in enumerate(PROBLEMS):
        for fontset in fontsets:
            drawn = rng.choice(prefixes)
            style = PhotoStyle(
                fontset=fontset,
                size=rng.choice((28, 36, 44)),
                rotation=round(rng.uniform(-2.0, 2.0), 1) if rng.random() < 0.5 else 0.0,
                blur=rng.choice((0.0, 0.0, 0.5, 0.8)),
                jpeg_quality=rng.choice((None, 90, 70)),
                prefix=_prefix_for(problem, drawn, prefix, index),
            )
            out.append((index, style))
    return out


def reading_key(text: str) -> str | None:
    """What a reading says, brackets and spaces aside; None when it cannot be normalized."""
    try:
        plain = expand_mixed_numbers(normalize(text))
    except ParseError:
        return None
    plain = plain.replace("**", "^")
    return re.sub(r"[\s(){}]|\bsqrt\b", lambda m: "√" if m.group(0) == "sqrt" else "", plain)


def expected_reading(problem: MathProblem, prefix: str) -> str:
    """The source as plain text; a digit before \\frac is a mixed number (1 1/2)."""
    mixed = re.sub(r"(\d)\\frac\{(\d+)\}\{(\d+)\}", r"\1 \2/\3", problem.latex)
    return prefix + latex_to_plain(mixed)


async def read_one(services: Resources, problem: MathProblem, style: PhotoStyle) -> dict[str, Any]:
    image = render_math(problem.latex, style)
    started = time.perf_counter()
    state = await run_pipeline(services.graph, services.pipeline, SolveState(image=image))
    latency = time.perf_counter() - started
    answer = state.solution.final_answer if state.solution else None
    correct = None
    if answer:
        correct = await services.sandbox.equivalent(problem.answer, answer, state.problem_text)
    expected = reading_key(expected_reading(problem, style.prefix))
    read = reading_key(state.problem_text) if state.problem_text else None
    return {
        "latex": problem.latex,
        "structure": problem.structure,
        "style": asdict(style),
        "read": state.problem_text,
        "read_exactly": read is not None and read == expected,
        "unread": state.ocr_unread,
        "error": state.error,
        "gold": problem.answer,
        "answer": answer,
        "status": state.verification_status,
        "correct": correct,
        "latency_s": round(latency, 2),
    }


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        groups[record["structure"]].append(record)
        groups["all"].append(record)

    def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
        verified = [r for r in rows if r["status"] == "verified"]
        right = sum(r["correct"] is True for r in verified)
        exact_verified = sum(r["read_exactly"] and r["correct"] is True for r in verified)
        return {
            "n": len(rows),
            "read_exactly": round(sum(r["read_exactly"] for r in rows) / len(rows), 3),
            "verified": len(verified),
            "verified_right": right,
            "verified_wrong": len(verified) - right,
            "coverage": round(len(verified) / len(rows), 3),
            "read_exactly_and_verified_right": round(exact_verified / len(rows), 3),
            "incomplete_reading": sum(r["unread"] is not None for r in rows),
        }

    by_font: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_prefix: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_font[record["style"]["fontset"]].append(record)
        by_prefix[_prefix_kind(record["style"]["prefix"])].append(record)
    reasons = Counter(r["unread"] for r in records if r["unread"])
    return {
        "by_structure": {name: figures(rows) for name, rows in sorted(groups.items())},
        "by_font": {name: figures(rows) for name, rows in sorted(by_font.items())},
        "by_prefix": {name: figures(rows) for name, rows in sorted(by_prefix.items())},
        "incomplete_reasons": dict(reasons.most_common()),
        "verified_wrong": [
            {k: r[k] for k in ("latex", "read", "gold", "answer", "style")}
            for r in records
            if r["status"] == "verified" and r["correct"] is not True
        ],
        "mean_latency_s": round(sum(r["latency_s"] for r in records) / len(records), 2)
        if records
        else None,
    }


def _prefix_kind(prefix: str) -> str:
    if not prefix:
        return "none"
    return "zh" if re.search(r"[\u3400-\u9fff]", prefix) else "en"


def font_choices(fonts: str) -> tuple[str, ...]:
    """`--fonts`: comma-separated font sets; `mathtext` (the default) is dejavusans, cm and
    stix, `handwriting` the handwriting-like fonts installed here, `all` both."""
    out: list[str] = []
    for name in (part.strip() for part in fonts.split(",") if part.strip()):
        if name in ("mathtext", "all"):
            out += FONTSETS
        if name in ("handwriting", "all"):
            installed = handwriting_fonts()
            if not installed:
                raise LookupError("no handwriting-like font is installed (fonts-humor-sans)")
            out += installed
        if name not in ("mathtext", "handwriting", "all"):
            if name not in FONTSETS and name not in HANDWRITING:
                raise ValueError(f"unknown font set {name!r}")
            if name in HANDWRITING and name not in handwriting_fonts():
                raise LookupError(f"the {name} font is not installed on this machine")
            out.append(name)
    return tuple(dict.fromkeys(out))


async def run_ocr_bench(
    services: Resources,
    out_dir: Path,
    *,
    seed: int = 0,
    limit: int | None = None,
    fonts: tuple[str, ...] = FONTSETS,
    prefix: str = "mixed",
) -> dict[str, Any]:
    out_dir.mkdir(parents=True, exist_ok=True)
    photos = styles(seed, fonts, prefix)
    if limit is not None:
        photos = random.Random(seed).sample(photos, min(limit, len(photos)))
    records: list[dict[str, Any]] = []
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as results:
        for index, style in photos:
            record = await read_one(services, PROBLEMS[index], style)
            records.append(record)
            results.write(json.dumps(record, ensure_ascii=False) + "\n")
            results.flush()
    summary = summarize(records)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    return summary
