"""scans, solutions (deep_evaluation JSONB), verifications, problem bank with full-text search

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-21 09:30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.jsonb import JSONVariant

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamps() -> list[sa.Column]:
    return [
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    ]


def upgrade() -> None:
    op.create_table(
        "scans",
        *_timestamps(),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("problem_text", sa.Text(), nullable=False),
        sa.Column("image_sha256", sa.String(64)),
        sa.Column("image_bytes", sa.Integer()),
        sa.Column("ocr_confidence", sa.Float()),
        sa.Column("subject", sa.String(32), nullable=False, index=True),
        sa.Column("grade_band", sa.String(16), nullable=False),
        sa.Column("difficulty", sa.String(16), nullable=False, index=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("topics", JSONVariant, nullable=False),
    )
    op.create_table(
        "solutions",
        *_timestamps(),
        sa.Column(
            "scan_id",
            sa.Uuid(),
            sa.ForeignKey("scans.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("provider", sa.String(64), index=True),
        sa.Column("model", sa.String(128)),
        sa.Column("final_answer", sa.Text()),
        sa.Column("steps", JSONVariant, nullable=False),
        sa.Column("verification_status", sa.String(16), nullable=False, index=True),
        sa.Column("verification_confidence", sa.Float(), nullable=False),
        sa.Column("caution_reason", sa.Text()),
        sa.Column("independent_answer", sa.Text()),
        sa.Column("ground_truth", sa.Text()),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("providers_tried", JSONVariant, nullable=False),
        sa.Column("knowledge_points", JSONVariant, nullable=False),
        sa.Column("hint", sa.Text()),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("deep_evaluation", JSONVariant, nullable=True),
    )
    op.create_table(
        "verifications",
        *_timestamps(),
        sa.Column(
            "solution_id",
            sa.Uuid(),
            sa.ForeignKey("solutions.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("tier", sa.String(16), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("answer_provider", sa.String(64)),
        sa.Column("answer", sa.Text()),
        sa.Column("method", sa.String(16), nullable=False, index=True),
        sa.Column("verifier_id", sa.String(128), nullable=False),
        sa.Column("verdict", sa.String(8), nullable=False),
        sa.Column("score", sa.Float()),
        sa.Column("rationale", sa.Text()),
        sa.Column("independent_answer", sa.Text()),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
    )
    op.create_table(
        "problem_bank",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("external_id", sa.String(64), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("final_answer", sa.String(256), nullable=False),
        sa.UniqueConstraint("source", "external_id", name="uq_problem_bank_source"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "ALTER TABLE problem_bank ADD COLUMN search tsvector "
            "GENERATED ALWAYS AS (to_tsvector('english', question)) STORED"
        )
        op.execute("CREATE INDEX ix_problem_bank_search ON problem_bank USING gin (search)")
    else:
        # External-content FTS5 index kept in step with the table by triggers.
        op.execute(
            "CREATE VIRTUAL TABLE problem_bank_fts USING fts5("
            "question, content='problem_bank', content_rowid='id', tokenize='porter unicode61')"
        )
        op.execute(
            "CREATE TRIGGER problem_bank_ai AFTER INSERT ON problem_bank BEGIN "
            "INSERT INTO problem_bank_fts(rowid, question) VALUES (new.id, new.question); END"
        )
        op.execute(
            "CREATE TRIGGER problem_bank_ad AFTER DELETE ON problem_bank BEGIN "
            "INSERT INTO problem_bank_fts(problem_bank_fts, rowid, question) "
            "VALUES ('delete', old.id, old.question); END"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        op.execute("DROP TRIGGER IF EXISTS problem_bank_ad")
        op.execute("DROP TRIGGER IF EXISTS problem_bank_ai")
        op.execute("DROP TABLE IF EXISTS problem_bank_fts")
    op.drop_table("problem_bank")
    op.drop_table("verifications")
    op.drop_table("solutions")
    op.drop_table("scans")
