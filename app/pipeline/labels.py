"""Labels from a model for ANALYZE and ENRICH, read so that only valid ones count.

A label reaches the student unchecked, so the reply is read field by field: a subject, grade
band or difficulty counts only when it is one of the API's values; knowledge points and the
hint only when they are short plain text in the scan's language; a hint that states the
final answer is no hint. Anything else is dropped, and the caller falls back to the
rule-based labels. A timeout, a provider error or an unreadable reply is no labels: never a
failed scan, nothing recorded as wrong.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, get_args

from app.analysis.classifier import Language
from app.llm.base import ModelClient
from app.llm.errors import ProviderError
from app.llm.outputs import Difficulty, GradeBand
from app.llm.structured import extract_json
from app.llm.types import Message
from app.pipeline.context import PipelineContext
from app.schemas.common import Subject
from app.symbolic.number_words import LIANG, chinese_numeral, english_words

log = logging.getLogger(__name__)

MAX_KNOWLEDGE_POINTS = 3
MAX_LABEL_CHARS = 40
MAX_HINT_CHARS = 300
LABEL_MAX_TOKENS = 256

SUBJECTS = frozenset(s.value for s in Subject)
GRADE_BANDS: frozenset[str] = frozenset(get_args(GradeBand))
DIFFICULTIES: frozenset[str] = frozenset(get_args(Difficulty))

_CJK = re.compile(r"[\u3400-\u9fff]")
# Labels are plain words: no tags, code, JSON, links or line breaks.
_NOT_A_LABEL = re.compile(r"[<>{}\[\]`|\\]|https?:|\n", re.I)
_TAG = re.compile(r"<\s*+/?\s*+[A-Za-z]")
# Where a multi-part answer ("x = 2, y = 3", "2 和 3") splits into its values.
_ANSWER_PARTS = re.compile(r"[,;，；]|\band\b|和")
_LEADING_NUMBER = re.compile(r"[-−]?\d++(?:[./]\d++)?")
# A number written with digits, thousands commas and decimals ("1,250", "42.0"), as a token.
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*+(?:\.\d++)?(?![\w]|\.\d)")


@dataclass(frozen=True, slots=True)
class ModelAnalysis:
    """ANALYZE's valid labels; None / empty where the model gave none that validates."""

    subject: str | None = None
    grade_band: str | None = None
    difficulty: str | None = None
    knowledge_points: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ModelEnrichment:
    knowledge_points: list[str] = field(default_factory=list)
    hint: str | None = None


def labelling_client(ctx: PipelineContext) -> ModelClient | None:
    """The fast-tier client of the provider that labels, or None when no model is
    configured (or none is admitted): then no call is made at all."""
    verify = ctx.verify
    name = ctx.registry.labeller(verify.verifier_auroc, verify.min_verifier_auroc)
    return None if name is None else ctx.registry.get(name, "fast")


async def ask_for_labels(
    client: ModelClient, messages: Sequence[Message], schema: dict[str, Any], timeout: float
) -> dict[str, Any] | None:
    """The reply's JSON object, or None when there is none to read."""
    try:
        async with asyncio.timeout(timeout):  # the whole call, retries included: the student waits
            response = await client.generate(
                messages, json_schema=schema, timeout=timeout, max_tokens=LABEL_MAX_TOKENS
            )
    except (TimeoutError, ProviderError) as exc:
        log.info("no labels from %s: %s", client.provider, exc or "timeout")
        return None
    except Exception:  # an SDK bug must not fail a scan over its labels
        log.warning("labelling on %s failed", client.provider, exc_info=True)
        return None
    return response.data or extract_json(response.text)


def in_language(text: str, language: Language) -> bool:
    """Chinese scans get Chinese text; English ones text without Chinese characters."""
    has_cjk = _CJK.search(text) is not None
    return has_cjk if language == "zh" else not has_cjk and any(c.isalpha() for c in text)


def _choice(value: Any, allowed: frozenset[str]) -> str | None:
    if not isinstance(value, str):
        return None
    choice = value.strip().lower()
    return choice if choice in allowed else None


def read_knowledge_points(value: Any, language: Language) -> list[str]:
    if not isinstance(value, list):
        return []
    labels: list[str] = []
    for item in value:
        if not isinstance(item, str) or _NOT_A_LABEL.search(item):
            continue
        label = " ".join(item.split())
        fits = 0 < len(label) <= MAX_LABEL_CHARS and in_language(label, language)
        if fits and label not in labels:
            labels.append(label)
    return labels[:MAX_KNOWLEDGE_POINTS]


def read_analysis(data: Mapping[str, Any] | None, language: Language) -> ModelAnalysis:
    if not data:
        return ModelAnalysis()
    return ModelAnalysis(
        subject=_choice(data.get("subject"), SUBJECTS),
        grade_band=_choice(data.get("grade_band"), GRADE_BANDS),
        difficulty=_choice(data.get("difficulty"), DIFFICULTIES),
        knowledge_points=read_knowledge_points(data.get("knowledge_points"), language),
    )


def _answer_values(answer: str) -> set[str]:
    """The values a hint must not state: each part's right-hand side and its number."""
    values: set[str] = set()
    for part in _ANSWER_PARTS.split(answer):
        value = part.rsplit("=", 1)[-1].strip().strip("$").strip()
        if value:
            values.add(value)
            number = _LEADING_NUMBER.match(value)
            if number:
                values.add(number.group())
    return values


def _mentions(text: str, value: str) -> bool:
    """`value` as a whole token of `text` ("4" is not in "14" nor in "4.5")."""
    pattern = rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)"
    return re.search(pattern, text) is not None


def _numbers(text: str) -> set[Decimal]:
    """The values of the numbers written in `text` ("42.0" and "42" are one value)."""
    found = set()
    for token in _NUMBER.findall(text):
        try:
            found.add(Decimal(token.replace(",", "")).normalize())
        except InvalidOperation:
            continue
    return found


def _spoken(text: str) -> str:
    """Lower case, hyphens and "and" dropped, single spaces: "Forty-two" → "forty two"."""
    words = re.sub(r"[^a-z]+", " ", text.lower()).split()
    return " " + " ".join(w for w in words if w != "and") + " "


def _spelled(values: set[Decimal], text: str) -> set[Decimal]:
    """The integer `values` that `text` writes in English words or Chinese numerals."""
    spoken = _spoken(text)
    found = set()
    for value in values:
        if value != value.to_integral_value() or not 0 <= value < 10_000:
            continue
        n = int(value)
        zh = chinese_numeral(n)
        if f" {english_words(n)} " in spoken or zh in text or LIANG.sub("两", zh) in text:
            found.add(value)
    return found


def gives_away(hint: str, answer: str | None, problem: str) -> bool:
    """The hint states a value of the final answer that the problem itself does not, as the
    answer writes it or as the same number written another way ("42.0", "1,250",
    "forty-two", 四十二)."""
    if not answer:
        return False
    values = _answer_values(answer)
    if any(_mentions(hint, value) and not _mentions(problem, value) for value in values):
        return True
    numbers = _numbers(" ".join(values))
    stated = (numbers & _numbers(hint)) | _spelled(numbers, hint)
    return bool(stated - _numbers(problem) - _spelled(numbers, problem))


def read_hint(value: Any, language: Language, *, answer: str | None, problem: str) -> str | None:
    if not isinstance(value, str):
        return None
    hint = " ".join(value.split())
    if not hint or len(hint) > MAX_HINT_CHARS or _TAG.search(hint):
        return None
    if not in_language(hint, language) or gives_away(hint, answer, problem):
        return None
    return hint


def read_enrichment(
    data: Mapping[str, Any] | None, language: Language, *, answer: str | None, problem: str
) -> ModelEnrichment:
    if not data:
        return ModelEnrichment()
    return ModelEnrichment(
        knowledge_points=read_knowledge_points(data.get("knowledge_points"), language),
        hint=read_hint(data.get("hint"), language, answer=answer, problem=problem),
    )
