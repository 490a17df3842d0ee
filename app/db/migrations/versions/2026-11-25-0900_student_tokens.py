"""per-student tokens (issue 28): signing_secrets, checks.user_id

Tokens minted by POST /v1/tokens are signed with SOLVEVERIFY_AUTH_TOKEN_SECRET or, when it is
unset, with a secret generated once and kept in signing_secrets, so every server process
accepts what any of them signed. A stored check remembers the user a token made it for, so
only that user's token may erase it (NULL: made with the tenant's key, as every check before).

Revision ID: 0011_student_tokens
Revises: 0010_checks
Create Date: 2026-11-25 09:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_student_tokens"
down_revision: str | None = "0010_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signing_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("secret", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("checks") as batch:
        batch.add_column(sa.Column("user_id", sa.String(128), nullable=True))
        batch.create_index("ix_checks_user_id", ["user_id"])


def downgrade() -> None:
    with op.batch_alter_table("checks") as batch:
        batch.drop_index("ix_checks_user_id")
        batch.drop_column("user_id")
    op.drop_table("signing_secrets")
