from __future__ import annotations

from sqlalchemy import String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base


class ProblemBankEntry(Base):
    """A solved problem (GSM8K train by default). Full-text search is per dialect: an FTS5
    table on SQLite, a generated tsvector with a GIN index on Postgres (see the migration)."""

    __tablename__ = "problem_bank"
    __table_args__ = (UniqueConstraint("source", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    source: Mapped[str] = mapped_column(String(32))
    external_id: Mapped[str] = mapped_column(String(64))
    question: Mapped[str] = mapped_column(Text)
    solution: Mapped[str] = mapped_column(Text)
    final_answer: Mapped[str] = mapped_column(String(256))
