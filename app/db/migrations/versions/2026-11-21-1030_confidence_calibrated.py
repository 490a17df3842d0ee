"""solutions.confidence_calibrated: whether verification_confidence is a calibrated P(correct)

Revision ID: 0002_confidence_calibrated
Revises: 0001_initial
Create Date: 2026-11-21 10:30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_confidence_calibrated"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("solutions") as batch:
        batch.add_column(
            sa.Column(
                "confidence_calibrated", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("solutions") as batch:
        batch.drop_column("confidence_calibrated")
