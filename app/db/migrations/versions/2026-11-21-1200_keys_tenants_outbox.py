"""api_keys, scans.tenant and the outbox

Revision ID: 0005_keys_tenants_outbox
Revises: 0004_analytics_views
Create Date: 2026-11-21 12:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005_keys_tenants_outbox"
down_revision: str | None = "0004_analytics_views"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("tenant", sa.String(64), nullable=False, index=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(128)),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
    )
    with op.batch_alter_table("scans") as batch:
        batch.add_column(sa.Column("tenant", sa.String(64)))
        batch.create_index("ix_scans_tenant", ["tenant"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("task", sa.String(64), nullable=False),
        sa.Column("args", sa.JSON().with_variant(postgresql.JSONB(), "postgresql")),
        sa.Column("job_id", sa.String(160), nullable=False, unique=True),
        sa.Column("available_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text()),
        sa.Column("delivered_at", sa.DateTime(timezone=True), index=True),
    )


def downgrade() -> None:
    op.drop_table("outbox")
    with op.batch_alter_table("scans") as batch:
        batch.drop_index("ix_scans_tenant")
        batch.drop_column("tenant")
    op.drop_table("api_keys")
