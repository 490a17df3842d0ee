from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.db.models._columns import CreatedAt


class ApiKey(Base):
    """An API key: only its SHA-256 is stored; the key itself is shown once, at creation.

    `id` is the public part of the key (`sv_<id>_<secret>`), so a presented key is found by
    primary key and compared in constant time; one tenant per key.
    """

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[CreatedAt]
    tenant: Mapped[str] = mapped_column(String(64), index=True)
    role: Mapped[str] = mapped_column(String(16))  # student | analyst | platform
    key_hash: Mapped[str] = mapped_column(String(64))
    label: Mapped[str | None] = mapped_column(String(128))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
