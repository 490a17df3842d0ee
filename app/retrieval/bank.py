"""The problem bank: load GSM8K-style JSONL, find similar problems, spot the same problem."""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import unicodedata
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.repositories.problem_bank import ProblemBankRepository, query_terms
from app.pipeline.state import Example
from app.retrieval.gsm8k import parse_gsm8k

log = logging.getLogger(__name__)

CANDIDATES = 20  # full-text candidates re-ranked by similarity
# The rarest words of a problem find it as well as all of them, at a fraction of the cost: an
# OR over 30 common words matches most of the bank and ranks every match (7.6 ms a query on
# SQLite, the largest cost of a scan in `bench perf`); 8 rare ones match few rows.
SEARCH_TERMS = 8
COMMON = 0.02  # a word in more than 2% of the bank is only searched for when nothing rarer is
MIN_SEARCH_TERMS = 3
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _read_if_present(path: Path) -> list[dict[str, str]] | None:
    return parse_gsm8k(path) if path.is_file() else None


def similarity(
    a: str,
    b: str,
    *,
    estimate_below: float = 0.0,
    terms_a: frozenset[str] | None = None,
    terms_b: frozenset[str] | None = None,
) -> float:
    """Word-level similarity in [0, 1]: Jaccard of terms blended with sequence overlap.

    Below a Jaccard of `estimate_below` the (costly) sequence overlap is not computed and the
    Jaccard stands in for it: such pairs rank below the close ones anyway, and the estimate
    only orders few-shot examples. `terms_a`/`terms_b`: the texts' terms, when known."""
    ta = terms_a if terms_a is not None else frozenset(query_terms(a))
    tb = terms_b if terms_b is not None else frozenset(query_terms(b))
    if not ta or not tb:
        return 0.0
    jaccard = len(ta & tb) / len(ta | tb)
    if jaccard < estimate_below:
        return jaccard
    sequence = SequenceMatcher(None, a.lower().split(), b.lower().split()).ratio()
    return (jaccard + sequence) / 2


def same_text(a: str, b: str) -> bool:
    """The same problem, word for word (case, spacing and punctuation aside). Anything looser
    lets a changed word through: "twice as many" and "half as many" share every number and
    almost every word, yet have different answers. Ground truth is only claimed on this."""
    return _canonical(a) == _canonical(b)


@functools.lru_cache(maxsize=4096)  # a search compares its text with each of k bank questions
def _canonical(text: str) -> str:
    """The text with case, spacing and the punctuation between words dropped, and every
    character that can be part of a number or a sign kept: digits, '.', ',' and ':' inside a
    number (".50" is not "50", "1,2" is not "12"; only a thousands separator between groups of
    three digits is dropped: "1,200" is "1200"), a trailing "..." (0.333... is not 0.333),
    minus signs of every kind (mapped to '-', never dropped), '%', '$', '!', brackets, math
    symbols, combining marks, and superscripts, subscripts, vulgar fractions and circled
    numbers as themselves ("4⁸" is neither "48" nor "4 8")."""
    if text.isascii():  # most problems: one table lookup a character (NFC changes no ASCII)
        text = text.translate(_ASCII_FOLD).casefold()
    else:
        text = "".join(_fold(ch) for ch in unicodedata.normalize("NFC", text)).casefold()
    tokens = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        if _THOUSANDS.fullmatch(token):
            token = token.replace(",", "")
        tokens.append(token)
    return " ".join(tokens)


# Dashes and minus signs, all read as '-'.
_MINUS = frozenset("\u2212\u2010\u2011\u2012\u2013\u2014\u2015\u02d7\u2796\ufe58\ufe63\uff0d")
# Compatibility forms that are the same character in another width or font (full-width digits,
# mathematical bold digits), as opposed to a superscript, a subscript, a fraction or a circled
# number, which NFKC would turn into plain digits.
_SAME_NUMBER_FORMS = frozenset({"", "<wide>", "<narrow>", "<font>"})
_NOT_NUMBER_FORMS = frozenset({"<super>", "<sub>", "<fraction>", "<circle>"})
# Punctuation between words (dropped): every other punctuation or symbol is kept.
_KEPT_PUNCTUATION = frozenset("%*/\\#&@!\u00b7\u2032\u2033\u2034\u2030\u2031_")
_NUMBER_TOKEN = r"\.?\d+(?:[.,:]\d+)*(?:\.{2,})?"
# A '.', ',' or ':' outside a number is punctuation between words; an ellipsis is kept ("17 ÷ 5
# = ?……?" asks for a quotient and a remainder).
_TOKEN = re.compile(rf"{_NUMBER_TOKEN}|[^\W\d_]+|\.{{2,}}|[^\s.,:]")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _fold(ch: str) -> str:
    """One character in its canonical form: '-' for a minus sign, the plain form of a wide or
    bold digit or letter, itself for a superscript, subscript, fraction or circled number,
    nothing for the punctuation between words, a space for whitespace."""
    if ch in _MINUS:
        return "-"
    folded = unicodedata.normalize("NFKC", ch)
    if folded != ch:
        tag = unicodedata.decomposition(ch).split(" ")[0]
        tag = tag if tag.startswith("<") else ""
        digits = any(c.isdigit() for c in folded)
        if tag in _NOT_NUMBER_FORMS or (digits and tag not in _SAME_NUMBER_FORMS):
            return ch
        return "".join(_fold(c) if c != ch else c for c in folded)
    if ch.isspace():
        return " "
    category = unicodedata.category(ch)
    if category in ("Po", "Pi", "Pf") and ch not in _KEPT_PUNCTUATION and ch not in ".,:":
        return " "
    return ch


# `_fold` of every ASCII character that it changes, for str.translate.
_ASCII_FOLD = {i: _fold(chr(i)) for i in range(128) if _fold(chr(i)) != chr(i)}


class ProblemBankRetriever:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], same_problem_similarity: float = 0.9
    ) -> None:
        self.sessionmaker = sessionmaker
        self.same_problem_similarity = same_problem_similarity
        self._document_frequency: Counter[str] = Counter()
        self._bank_size = 0
        self._terms: dict[str, frozenset[str]] = {}  # each bank question's terms

    async def warm_up(self) -> None:
        """Count in how many bank problems each word occurs (once; about 50 ms for GSM8K)."""
        async with self.sessionmaker() as session:
            questions = await ProblemBankRepository(session).questions()
        counts: Counter[str] = Counter()
        terms = {question: frozenset(query_terms(question)) for question in questions}
        for found in terms.values():
            counts.update(found)
        self._document_frequency = counts
        self._bank_size = len(questions)
        self._terms = terms

    def search_terms(self, text: str) -> list[str]:
        """The problem's rarest words that occur in the bank at all."""
        frequency = self._document_frequency
        terms = query_terms(text)
        if not frequency:  # not warmed up (an empty bank): search with every word
            return terms
        known = sorted((t for t in terms if frequency[t] > 0), key=lambda t: frequency[t])
        common = COMMON * self._bank_size
        rare = [t for t in known[:SEARCH_TERMS] if frequency[t] <= common]
        return rare if len(rare) >= MIN_SEARCH_TERMS else known[:MIN_SEARCH_TERMS]

    async def similar(self, text: str, k: int) -> list[Example]:
        async with self.sessionmaker() as session:
            if session.bind is not None and session.bind.dialect.name == "postgresql":
                # One read: no transaction around it (BEGIN and ROLLBACK were two of the
                # three round trips a search cost). SQLite's switch would cost a thread hop.
                await session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
            rows = await ProblemBankRepository(session).search(self.search_terms(text), CANDIDATES)
        # Only a Jaccard this high can blend with the sequence to a close match.
        floor = 2 * self.same_problem_similarity - 1
        terms = frozenset(query_terms(text))
        scored = sorted(
            (
                (
                    similarity(
                        text,
                        r.question,
                        estimate_below=floor,
                        terms_a=terms,
                        terms_b=self._terms.get(r.question),
                    ),
                    r,
                )
                for r in rows
            ),
            key=lambda p: -p[0],
        )
        return [
            Example(
                question=row.question,
                solution=row.solution,
                final_answer=row.final_answer,
                similarity=round(score, 4),
                same_problem=same_text(text, row.question),
            )
            for score, row in scored[:k]
        ]


async def load_if_empty(sessionmaker: async_sessionmaker[AsyncSession], path: Path) -> int:
    """Fill an empty bank from `path`; returns how many problems were loaded."""
    async with sessionmaker() as session:
        repo = ProblemBankRepository(session)
        if await repo.count() > 0:
            return 0
        rows = await asyncio.to_thread(_read_if_present, path)
        if rows is None:
            log.warning("problem bank file %s not found: retrieval will find nothing", path)
            return 0
        await repo.insert_many(rows)
        await session.commit()
    log.info("loaded %d problems into the problem bank from %s", len(rows), path)
    return len(rows)


async def add_bank(sessionmaker: async_sessionmaker[AsyncSession], path: Path, source: str) -> int:
    """Add an operator's own bank (textbook exercises with worked answers, GSM8K-style JSONL:
    question, answer ending in '#### <final>') beside what is loaded. A problem already in the
    bank word for word (`same_text`) is skipped, so one wording never has two answers. Returns
    how many were added; a running server counts the new words at its next start."""
    rows = await asyncio.to_thread(parse_gsm8k, path, source)
    async with sessionmaker() as session:
        repo = ProblemBankRepository(session)
        known = {_canonical(question) for question in await repo.questions()}
        fresh = []
        for row in rows:
            canonical = _canonical(row["question"])
            if canonical not in known:
                known.add(canonical)
                fresh.append(row)
        await repo.insert_many(fresh)
        await session.commit()
    log.info("added %d of %d problems to the problem bank from %s", len(fresh), len(rows), path)
    return len(fresh)
