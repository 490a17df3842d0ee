from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.models._columns import utcnow


class ProviderFitness(Base):
    """DELLM fitness per provider × model × subject, moved by validated outcomes."""

    __tablename__ = "provider_fitness"
    __table_args__ = (UniqueConstraint("provider", "model", "subject"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(128))
    subject: Mapped[str] = mapped_column(String(32))
    fitness: Mapped[float] = mapped_column(Float, default=0.5)
    n_validated: Mapped[int] = mapped_column(default=0)
    n_correct: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
