"""evidence-driven badge (issue 15): solutions.model_calls, verifications.answer_model, and
analytics views per provider × model that count every attempt and every verdict

Revision ID: 0007_evidence_badge
Revises: 0006_api_product
Create Date: 2026-11-21 14:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_evidence_badge"
down_revision: str | None = "0006_api_product"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BREAKDOWNS = ("subject", "difficulty")
VIEW_COMMENT = (
    "Quality of each provider × model per tenant and {by}, from every stored verdict "
    "(verifications rows of every tier), so every solving attempt counts, retried and "
    "unreturned ones included, not only each scan's final answer. Rates are double precision; "
    "NULL when nothing decisive was said."
)
COLUMNS: dict[str, str] = {
    "tenant": "The API key's tenant of the scan; NULL for scans made without a key.",
    "provider": "Provider whose answer was judged (verifications.answer_provider).",
    "model": "Model whose answer was judged (verifications.answer_model; for rows from before "
    "0007, the solution's model when the same provider answered).",
    "attempts": "Solving attempts of this provider × model judged at response time (quick "
    "tier), each (solution, attempt) once.",
    "returned": "Of those, answers returned to the student (the solution's final answer).",
    "verified_rate": "Share of its returned answers whose badge is verified now.",
    "caution_rate": "Share of its returned answers whose badge is caution now.",
    "verdicts": "Verdicts on its answers, every tier (quick, consensus, spot, mars).",
    "approvals": "Verdicts that approved its answer.",
    "rejections": "Verdicts that rejected its answer.",
    "abstentions": "Verdicts that abstained.",
    "approve_rate": "approvals / (approvals + rejections), every tier.",
    "quick_approvals": "Response-time (quick tier) approvals of its attempts.",
    "quick_rejections": "Response-time (quick tier) rejections of its attempts.",
    "quick_approve_rate": "quick_approvals / (quick_approvals + quick_rejections).",
    "consensus_checked": "Decisive tier-2 consensus verdicts on its answers.",
    "consensus_agreement_rate": "Share of decisive tier-2 consensus verdicts that agreed.",
    "spot_verdicts": "Decisive tier-3 spot-check (aspect panel) verdicts on its answers.",
    "spot_approve_rate": "Share of decisive spot-check verdicts that approved.",
}


def _view(by: str) -> str:
    return f"v_model_quality_by_{by}"


def _rate(numerator: str, denominator: str) -> str:
    return f"CAST({numerator} AS DOUBLE PRECISION) / NULLIF({denominator}, 0)"


def _count(condition: str) -> str:
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def _quality(by: str) -> str:
    returned = "v.answer_provider = s.provider AND v.answer = s.final_answer"
    attempt_key = "CAST(v.solution_id AS TEXT) || ':' || CAST(v.attempt AS TEXT)"
    approve, reject = "v.verdict = 'approve'", "v.verdict = 'reject'"
    decisive = "v.verdict IN ('approve', 'reject')"
    tier = "v.tier = '{}'"
    returned_ids = f"COUNT(DISTINCT CASE WHEN {returned} THEN s.id END)"

    def returned_with(status: str) -> str:
        return (
            f"COUNT(DISTINCT CASE WHEN {returned} "
            f"AND s.verification_status = '{status}' THEN s.id END)"
        )

    return f"""
SELECT sc.tenant AS tenant,
       v.answer_provider AS provider,
       COALESCE(v.answer_model,
                CASE WHEN v.answer_provider = s.provider THEN s.model END) AS model,
       sc.{by} AS {by},
       COUNT(DISTINCT CASE WHEN {tier.format("quick")} THEN {attempt_key} END) AS attempts,
       {returned_ids} AS returned,
       {_rate(returned_with("verified"), returned_ids)} AS verified_rate,
       {_rate(returned_with("caution"), returned_ids)} AS caution_rate,
       COUNT(*) AS verdicts,
       {_count(approve)} AS approvals,
       {_count(reject)} AS rejections,
       {_count("v.verdict = 'abstain'")} AS abstentions,
       {_rate(_count(approve), _count(decisive))} AS approve_rate,
       {_count(f"{tier.format('quick')} AND {approve}")} AS quick_approvals,
       {_count(f"{tier.format('quick')} AND {reject}")} AS quick_rejections,
       {
        _rate(
            _count(f"{tier.format('quick')} AND {approve}"),
            _count(f"{tier.format('quick')} AND {decisive}"),
        )
    } AS quick_approve_rate,
       {_count(f"{tier.format('consensus')} AND {decisive}")} AS consensus_checked,
       {
        _rate(
            _count(f"{tier.format('consensus')} AND {approve}"),
            _count(f"{tier.format('consensus')} AND {decisive}"),
        )
    } AS consensus_agreement_rate,
       {_count(f"{tier.format('spot')} AND {decisive}")} AS spot_verdicts,
       {
        _rate(
            _count(f"{tier.format('spot')} AND {approve}"),
            _count(f"{tier.format('spot')} AND {decisive}"),
        )
    } AS spot_approve_rate
FROM verifications v
JOIN solutions s ON s.id = v.solution_id
JOIN scans sc ON sc.id = s.scan_id
WHERE v.answer_provider IS NOT NULL
GROUP BY sc.tenant, v.answer_provider,
         COALESCE(v.answer_model, CASE WHEN v.answer_provider = s.provider THEN s.model END),
         sc.{by}"""


def _comment(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def upgrade() -> None:
    with op.batch_alter_table("solutions") as batch:
        # Model requests the scan made before answering: its cost (app/pipeline/state.py).
        batch.add_column(sa.Column("model_calls", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("verifications") as batch:
        # The judged answer's model, so the views can tell a provider's models apart.
        batch.add_column(sa.Column("answer_model", sa.String(128)))
    postgres = op.get_bind().dialect.name == "postgresql"
    for by in BREAKDOWNS:
        view = _view(by)
        op.execute(f"CREATE VIEW {view} AS {_quality(by)}")
        if not postgres:
            continue  # SQLite has no comments; the same view
        op.execute(f"COMMENT ON VIEW {view} IS {_comment(VIEW_COMMENT.format(by=by))}")
        columns = {**COLUMNS, by: f"The scan's {by} (scans.{by})."}
        for column, text in columns.items():
            op.execute(f"COMMENT ON COLUMN {view}.{column} IS {_comment(text)}")


def downgrade() -> None:
    for by in BREAKDOWNS:
        op.execute(f"DROP VIEW IF EXISTS {_view(by)}")
    with op.batch_alter_table("verifications") as batch:
        batch.drop_column("answer_model")
    with op.batch_alter_table("solutions") as batch:
        batch.drop_column("model_calls")
