"""analytics views: accuracy by provider × model × subject / difficulty, daily trend,
improvement suggestions

Revision ID: 0004_analytics_views
Revises: 0003_provider_fitness
Create Date: 2026-11-21 11:30
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004_analytics_views"
down_revision: str | None = "0003_provider_fitness"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    "v_provider_accuracy_by_subject",
    "v_provider_accuracy_by_difficulty",
    "v_daily_quality",
    "v_improvement_suggestions",
)


def _json_text(column: str, key: str, postgres: bool) -> str:
    return f"({column} ->> '{key}')" if postgres else f"json_extract({column}, '$.{key}')"


def _accuracy(by: str, overall: str) -> str:
    return f"""
SELECT s.provider, s.model, sc.{by},
       COUNT(*) AS n,
       AVG(CASE WHEN s.verification_status = 'verified' THEN 1.0 ELSE 0.0 END) AS verified_rate,
       AVG(CASE WHEN s.verification_status = 'caution' THEN 1.0 ELSE 0.0 END) AS caution_rate,
       AVG(c.agreed) AS consensus_agreement_rate,
       COUNT(c.agreed) AS consensus_checked,
       AVG({overall}) AS mean_deep_overall
FROM solutions s
JOIN scans sc ON sc.id = s.scan_id
LEFT JOIN (
    SELECT solution_id,
           MAX(CASE WHEN verdict = 'approve' THEN 1.0 WHEN verdict = 'reject' THEN 0.0 END)
               AS agreed
    FROM verifications WHERE tier = 'consensus' GROUP BY solution_id
) c ON c.solution_id = s.id
WHERE s.provider IS NOT NULL
GROUP BY s.provider, s.model, sc.{by}"""


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    overall = _json_text("s.deep_evaluation", "overall", postgres)
    overall = f"CAST({overall} AS FLOAT)"
    day = "CAST(date_trunc('day', s.created_at) AS DATE)" if postgres else "date(s.created_at)"
    suggestion = _json_text("deep_evaluation", "improvement_suggestions", postgres)
    op.execute(f"CREATE VIEW v_provider_accuracy_by_subject AS {_accuracy('subject', overall)}")
    op.execute(
        f"CREATE VIEW v_provider_accuracy_by_difficulty AS {_accuracy('difficulty', overall)}"
    )
    op.execute(f"""CREATE VIEW v_daily_quality AS
SELECT {day} AS day, COUNT(*) AS n,
       AVG(CASE WHEN s.verification_status = 'verified' THEN 1.0 ELSE 0.0 END) AS verified_rate,
       AVG(CASE WHEN s.verification_status = 'caution' THEN 1.0 ELSE 0.0 END) AS caution_rate,
       AVG({overall}) AS mean_deep_overall
FROM solutions s GROUP BY {day}""")
    op.execute(f"""CREATE VIEW v_improvement_suggestions AS
SELECT {suggestion} AS suggestion, COUNT(*) AS n
FROM solutions
WHERE deep_evaluation IS NOT NULL AND {suggestion} IS NOT NULL AND {suggestion} <> ''
GROUP BY {suggestion}""")


def downgrade() -> None:
    for view in VIEWS:
        op.execute(f"DROP VIEW IF EXISTS {view}")
