"""Problem bank queries: bulk load and full-text candidates, per dialect."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ProblemBankEntry

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "if",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "she",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "they",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "which",
        "who",
        "will",
        "with",
    ]
)
MAX_QUERY_TERMS = 32


@dataclass(frozen=True, slots=True)
class BankRow:
    id: int
    question: str
    solution: str
    final_answer: str


def query_terms(text_: str) -> list[str]:
    terms = [w for w in _WORD.findall(text_.lower()) if w not in _STOPWORDS]
    return list(dict.fromkeys(terms))[:MAX_QUERY_TERMS]


class ProblemBankRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    @property
    def _dialect(self) -> str:
        return self.session.get_bind().dialect.name

    async def count(self) -> int:
        return await self.session.scalar(select(func.count()).select_from(ProblemBankEntry)) or 0

    async def insert_many(self, rows: Sequence[dict[str, str]]) -> None:
        """Insert, skipping problems already present (loading twice is harmless)."""
        insert = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        for start in range(0, len(rows), 1000):
            statement = insert(ProblemBankEntry).values(rows[start : start + 1000])
            await self.session.execute(statement.on_conflict_do_nothing())

    async def questions(self) -> list[str]:
        return list(await self.session.scalars(select(ProblemBankEntry.question)))

    async def search(self, terms: Sequence[str], limit: int) -> list[BankRow]:
        """Rows matching any of `terms`, best first (bm25 / ts_rank_cd)."""
        if not terms:
            return []
        if self._dialect == "postgresql":
            sql = text(
                "SELECT id, question, solution, final_answer FROM problem_bank, "
                "to_tsquery('english', :q) AS q WHERE search @@ q "
                "ORDER BY ts_rank_cd(search, q) DESC LIMIT :limit"
            )
            params = {"q": " | ".join(terms), "limit": limit}
        else:
            sql = text(
                "SELECT b.id, b.question, b.solution, b.final_answer FROM problem_bank_fts f "
                "JOIN problem_bank b ON b.id = f.rowid WHERE problem_bank_fts MATCH :q "
                "ORDER BY bm25(problem_bank_fts) LIMIT :limit"
            )
            params = {"q": " OR ".join(f'"{t}"' for t in terms), "limit": limit}
        result = await self.session.execute(sql, params)
        return [BankRow(*row) for row in result.all()]
