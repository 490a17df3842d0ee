"""The API as a product: scan state and end users, queued inputs, durable events,
idempotency keys, caution codes and solutions.status_history

Revision ID: 0006_api_product
Revises: 0005_keys_tenants_outbox
Create Date: 2026-11-21 13:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.jsonb import JSONVariant

revision: str = "0006_api_product"
down_revision: str | None = "0005_keys_tenants_outbox"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        # Opaque end-user id chosen by the app's backend; history is listed per user.
        batch.add_column(sa.Column("user_id", sa.String(128)))
        # queued | running | done | failed; rows written before this revision were done.
        batch.add_column(sa.Column("state", sa.String(16), nullable=False, server_default="done"))
        batch.add_column(sa.Column("failure_code", sa.String(32)))
        batch.add_column(sa.Column("updated_at", sa.DateTime(timezone=True)))
        batch.create_index("ix_scans_user_id", ["user_id"])
        batch.create_index("ix_scans_tenant_created_id", ["tenant", "created_at", "id"])

    # What the worker needs to run a queued scan; deleted once processed.
    op.create_table(
        "scan_inputs",
        sa.Column(
            "scan_id",
            sa.Uuid(),
            sa.ForeignKey("scans.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text()),
        sa.Column("image", sa.LargeBinary()),
        sa.Column("content_type", sa.String(64)),
        sa.Column("options", JSONVariant),
    )

    # Durable progress events, read by the SSE endpoint from any process.
    op.create_table(
        "scan_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "scan_id",
            sa.Uuid(),
            sa.ForeignKey("scans.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", JSONVariant),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("scan_id", "seq", name="uq_scan_events_scan_seq"),
    )

    # Stripe-style idempotency: insert-first on (tenant, key); '' is the open-mode tenant.
    op.create_table(
        "idempotency_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tenant", sa.String(64), nullable=False),
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("route", sa.String(64), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("completed_at", sa.DateTime(timezone=True)),
        sa.Column("status_code", sa.Integer()),
        sa.Column("response_body", JSONVariant),
        sa.Column("response_headers", JSONVariant),
        sa.UniqueConstraint("tenant", "key", name="uq_idempotency_keys_tenant_key"),
    )

    with op.batch_alter_table("solutions") as batch:
        # Stable, vendor-free reason code; the message is rendered in the scan's language.
        batch.add_column(sa.Column("caution_code", sa.String(32)))
        # Badge changes after the response: [{"at","from","to","reason","evidence_ids"}].
        # Written by the worker (issue 15); read by the SSE stream as status_changed events.
        batch.add_column(
            sa.Column("status_history", JSONVariant, nullable=False, server_default="[]")
        )


def downgrade() -> None:
    with op.batch_alter_table("solutions") as batch:
        batch.drop_column("status_history")
        batch.drop_column("caution_code")
    op.drop_table("idempotency_keys")
    op.drop_table("scan_events")
    op.drop_table("scan_inputs")
    with op.batch_alter_table("scans") as batch:
        batch.drop_index("ix_scans_tenant_created_id")
        batch.drop_index("ix_scans_user_id")
        batch.drop_column("updated_at")
        batch.drop_column("failure_code")
        batch.drop_column("state")
        batch.drop_column("user_id")
