"""The problem bank: load GSM8K-style JSONL, find similar problems, spot the same problem."""

from __future__ import annotations

import asyncio
import logging
import re
from difflib import SequenceMatcher
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.repositories.problem_bank import ProblemBankRepository, query_terms
from app.pipeline.state import Example
from app.retrieval.gsm8k import parse_gsm8k

log = logging.getLogger(__name__)

CANDIDATES = 20  # full-text candidates re-ranked by similarity
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _read_if_present(path: Path) -> list[dict[str, str]] | None:
    return parse_gsm8k(path) if path.is_file() else None


def similarity(a: str, b: str) -> float:
    """Word-level similarity in [0, 1]: Jaccard of terms blended with sequence overlap."""
    ta, tb = set(query_terms(a)), set(query_terms(b))
    if not ta or not tb:
        return 0.0
    jaccard = len(ta & tb) / len(ta | tb)
    sequence = SequenceMatcher(None, a.lower().split(), b.lower().split()).ratio()
    return (jaccard + sequence) / 2


def same_numbers(a: str, b: str) -> bool:
    """GSM8K has many near-copies with different numbers: those have different answers."""
    return sorted(_NUMBER.findall(a.replace(",", ""))) == sorted(
        _NUMBER.findall(b.replace(",", ""))
    )


class ProblemBankRetriever:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], same_problem_similarity: float = 0.9
    ) -> None:
        self.sessionmaker = sessionmaker
        self.same_problem_similarity = same_problem_similarity

    async def similar(self, text: str, k: int) -> list[Example]:
        async with self.sessionmaker() as session:
            rows = await ProblemBankRepository(session).search(text, CANDIDATES)
        scored = sorted(((similarity(text, r.question), r) for r in rows), key=lambda p: -p[0])
        return [
            Example(
                question=row.question,
                solution=row.solution,
                final_answer=row.final_answer,
                similarity=round(score, 4),
                same_problem=score >= self.same_problem_similarity
                and same_numbers(text, row.question),
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
