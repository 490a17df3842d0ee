"""provider_fitness: DELLM fitness per provider × model × subject

Revision ID: 0003_provider_fitness
Revises: 0002_confidence_calibrated
Create Date: 2026-11-21 11:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_provider_fitness"
down_revision: str | None = "0002_confidence_calibrated"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "provider_fitness",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("provider", sa.String(64), nullable=False),
        sa.Column("model", sa.String(128), nullable=False),
        sa.Column("subject", sa.String(32), nullable=False),
        sa.Column("fitness", sa.Float(), nullable=False, server_default="0.5"),
        sa.Column("n_validated", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("n_correct", sa.Integer(), nullable=False, server_default="0"),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.UniqueConstraint("provider", "model", "subject", name="uq_provider_fitness_provider"),
    )


def downgrade() -> None:
    op.drop_table("provider_fitness")
