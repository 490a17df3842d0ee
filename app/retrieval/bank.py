"""The problem bank: load GSM8K-style JSONL, find similar problems, spot the same problem."""

from __future__ import annotations

import asyncio
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
_WORD_OR_NUMBER = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+|[+\-*/^=<>%$]")


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


def _canonical(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().replace(",", "")
    return " ".join(_WORD_OR_NUMBER.findall(text))


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
