from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.models._columns import CreatedAt


class SigningSecret(Base):
    """A server secret generated once and shared by every process through the database, for
    signatures no configured secret covers (per-student tokens without
    SOLVEVERIFY_AUTH_TOKEN_SECRET). The first process to need one inserts it; the rest read it."""

    __tablename__ = "signing_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[CreatedAt]
    secret: Mapped[str] = mapped_column(String(128))  # hex of 32 random bytes
