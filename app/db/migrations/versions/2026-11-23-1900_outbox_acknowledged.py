"""outbox rows acknowledged by completion: completed_at, deliveries

A job is done when its task finished, not when Redis accepted it: a row delivered but not
completed is delivered again after its lease (a Redis that lost it, a worker that died, a job
whose retries a database outage used up), under a new queue job id each time.

Revision ID: 0008_outbox_acknowledged
Revises: 0007_evidence_badge
Create Date: 2026-11-23 19:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_outbox_acknowledged"
down_revision: str | None = "0007_evidence_badge"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("completed_at", sa.DateTime(timezone=True)))
        batch.add_column(sa.Column("deliveries", sa.Integer(), nullable=False, server_default="0"))
        batch.create_index("ix_outbox_completed_at", ["completed_at"])
    # Rows delivered before this revision were acknowledged at enqueue: count them as done.
    op.execute(
        "UPDATE outbox SET completed_at = delivered_at, deliveries = 1 "
        "WHERE delivered_at IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_completed_at")
        batch.drop_column("deliveries")
        batch.drop_column("completed_at")
