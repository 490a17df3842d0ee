"""checks of worked steps and their evidence (issue 30): checks, check_verdicts

A check sent with steps is stored, tenant-scoped, with every verdict behind it (the answer
check's, each step's symbolic finding, the model's step critique); DELETE /v1/checks/{id}
erases both. Nothing of a check was stored before this revision.

Revision ID: 0010_checks
Revises: 0009_scan_readings
Create Date: 2026-11-24 12:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.jsonb import JSONVariant

revision: str = "0010_checks"
down_revision: str | None = "0009_scan_readings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "checks",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("tenant", sa.String(64), index=True),
        sa.Column("problem_text", sa.Text(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("steps", JSONVariant, nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("method", sa.String(16)),
        sa.Column("confidence", sa.Float()),
        sa.Column("first_error_step", sa.Integer()),
        sa.Column("first_flagged_step", sa.Integer()),
        sa.Column("step_checks", JSONVariant, nullable=False),
    )
    op.create_table(
        "check_verdicts",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column(
            "check_id",
            sa.Uuid(),
            sa.ForeignKey("checks.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("judged", sa.String(8), nullable=False),
        sa.Column("step", sa.Integer()),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("verifier_id", sa.String(128), nullable=False),
        sa.Column("verdict", sa.String(8), nullable=False),
        sa.Column("score", sa.Float()),
        sa.Column("rationale", sa.Text()),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("check_verdicts")
    op.drop_table("checks")
