"""analyst views (issue 29): scans.grade (the grade the caller sent), one row per scan
(v_answers) and the design's questions over it, every view tenant-aware, documented and typed

Every rate is DOUBLE PRECISION and names its denominator in its column comment:
- `*_rate` columns: over answered scans (a scan whose solution has a final answer);
- `answered_rate`: answered over scans (every scan that finished, answered or not);
- `verified_precision` and `found_wrong_rate`: over answers verified at response;
- `judged_accuracy`: over answers whose later outcome is known (`judged`).

Revision ID: 0012_analyst_views
Revises: 0011_student_tokens
Create Date: 2026-11-26 13:00
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision: str = "0012_analyst_views"
down_revision: str | None = "0011_student_tokens"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DIMENSIONS = ("tenant", "provider", "model", "subject", "grade", "difficulty", "topic")
# Created in this order (later ones read v_answers), dropped in reverse.
NEW_VIEWS = (
    "v_answers",
    "v_quality",
    "v_found_wrong_daily",
    "v_calibration_bins",
    "v_cost_per_verified",
)
REPLACED_VIEWS = (
    "v_provider_accuracy_by_subject",
    "v_provider_accuracy_by_difficulty",
    "v_daily_quality",
    "v_improvement_suggestions",
)


class Dialect:
    """The few spellings that differ between Postgres (the analyst database) and SQLite."""

    def __init__(self, postgres: bool) -> None:
        self.postgres = postgres

    def day(self, column: str) -> str:
        if self.postgres:
            return f"CAST(({column} AT TIME ZONE 'UTC') AS DATE)"
        return f"date({column})"

    def json_text(self, column: str, path: str) -> str:
        """`path` like `0` (array index) or `overall` (object key), one level."""
        if self.postgres:
            key = path if path.isdigit() else f"'{path}'"
            return f"({column} ->> {key})"
        return f"json_extract({column}, '$" + (f"[{path}]" if path.isdigit() else f".{path}") + "')"

    def first_history(self, key: str) -> str:
        if self.postgres:
            return f"(s.status_history -> 0 ->> '{key}')"
        return f"json_extract(s.status_history, '$[0].{key}')"

    def history(self, select: str, where: str) -> str:
        """A scalar subquery over the solution's status_history entries (`h`)."""
        if self.postgres:
            source = "jsonb_array_elements(COALESCE(s.status_history, '[]'::jsonb)) h"
        else:
            source = "json_each(COALESCE(s.status_history, '[]')) h"
        return f"(SELECT {select} FROM {source} WHERE {where})"

    def entry(self, key: str) -> str:
        return f"(h ->> '{key}')" if self.postgres else f"json_extract(h.value, '$.{key}')"

    def entry_true(self, key: str) -> str:
        if self.postgres:
            return f"(h ->> '{key}') = 'true'"
        return f"json_extract(h.value, '$.{key}') = 1"

    def entry_time(self, key: str) -> str:
        if self.postgres:
            return f"CAST(h ->> '{key}' AS TIMESTAMPTZ)"
        return f"json_extract(h.value, '$.{key}')"

    def floor_int(self, expression: str) -> str:
        # Postgres rounds a float cast to integer; SQLite truncates (floor for x >= 0).
        if self.postgres:
            return f"CAST(FLOOR({expression}) AS INTEGER)"
        return f"CAST({expression} AS INTEGER)"


def _rate(numerator: str, denominator: str) -> str:
    return f"CAST({numerator} AS DOUBLE PRECISION) / NULLIF({denominator}, 0)"


def _answers(d: Dialect) -> str:
    found_wrong = (
        f"{d.entry('from')} = 'verified' "
        f"AND ({d.entry('to')} = 'caution' OR {d.entry_true('answer_changed')})"
    )
    rejected = f"({d.entry('to')} = 'caution' OR {d.entry_true('answer_changed')})"
    at_response = f"COALESCE({d.first_history('from')}, s.verification_status)"
    inner = f"""
SELECT sc.tenant AS tenant,
       sc.id AS scan_id,
       s.id AS solution_id,
       sc.created_at AS created_at,
       {d.day("sc.created_at")} AS day,
       s.provider AS provider,
       s.model AS model,
       sc.subject AS subject,
       COALESCE(sc.grade, sc.grade_band) AS grade,
       sc.grade_band AS grade_band,
       sc.difficulty AS difficulty,
       COALESCE({d.json_text("sc.topics", "0")}, 'none') AS topic,
       CASE WHEN s.final_answer IS NOT NULL THEN 1 ELSE 0 END AS answered,
       {at_response} AS badge_at_response,
       s.verification_status AS badge_now,
       CASE WHEN EXISTS {d.history("1", found_wrong)} THEN 1 ELSE 0 END AS found_wrong,
       {d.history(f"MIN({d.entry_time('at')})", found_wrong)} AS found_wrong_at,
       CASE WHEN EXISTS {d.history("1", rejected)} THEN 1 ELSE 0 END AS rejected_later,
       CASE WHEN EXISTS {d.history("1", d.entry_true("answer_changed"))}
            THEN 1 ELSE 0 END AS answer_replaced,
       CASE WHEN EXISTS {d.history("1", f"{d.entry('to')} = 'verified'")}
            THEN 1 ELSE 0 END AS verified_later,
       COALESCE(v.proven, 0) AS proven,
       CAST(COALESCE(v.later_approvals, 0) AS BIGINT) AS later_approvals,
       CAST(COALESCE(v.later_rejections, 0) AS BIGINT) AS later_rejections,
       CAST(s.verification_confidence AS DOUBLE PRECISION) AS confidence,
       COALESCE(s.model_calls, 0) AS model_calls,
       CAST(COALESCE(v.followup_model_calls, 0) AS BIGINT) AS followup_model_calls,
       CAST(COALESCE(v.tokens, 0) AS BIGINT) AS tokens,
       CAST({d.json_text("s.deep_evaluation", "overall")} AS DOUBLE PRECISION) AS deep_overall
FROM scans sc
LEFT JOIN solutions s ON s.scan_id = sc.id
LEFT JOIN (
    SELECT v.solution_id AS solution_id,
           CAST(SUM(v.tokens) AS BIGINT) AS tokens,
           SUM(CASE WHEN v.tier <> 'quick' AND v.method = 'llm' THEN 1 ELSE 0 END)
               AS followup_model_calls,
           MAX(CASE WHEN v.tier = 'quick' AND v.method IN ('programmatic', 'ground_truth')
                     AND v.verdict = 'approve' AND v.answer = s2.final_answer
                    THEN 1 ELSE 0 END) AS proven,
           SUM(CASE WHEN v.tier <> 'quick' AND v.verdict = 'approve'
                     AND v.answer = s2.final_answer THEN 1 ELSE 0 END) AS later_approvals,
           SUM(CASE WHEN v.tier <> 'quick' AND v.verdict = 'reject'
                     AND v.answer = s2.final_answer THEN 1 ELSE 0 END) AS later_rejections
    FROM verifications v JOIN solutions s2 ON s2.id = v.solution_id
    GROUP BY v.solution_id
) v ON v.solution_id = s.id
WHERE sc.state NOT IN ('queued', 'running')"""
    return f"""
SELECT a.tenant, a.scan_id, a.solution_id, a.created_at, a.day, a.provider, a.model,
       a.subject, a.grade, a.grade_band, a.difficulty, a.topic, a.answered,
       a.badge_at_response, a.badge_now,
       CASE WHEN a.answered = 1 AND a.badge_at_response = 'verified' THEN 1 ELSE 0 END
           AS verified,
       CASE WHEN a.answered = 1 AND a.badge_now = 'verified' THEN 1 ELSE 0 END AS verified_now,
       CASE WHEN a.answered = 1 AND a.badge_now = 'caution' THEN 1 ELSE 0 END AS caution_now,
       CASE WHEN a.answered = 1 AND a.badge_at_response = 'verified' AND a.found_wrong = 1
            THEN 1 ELSE 0 END AS later_found_wrong,
       a.found_wrong_at, a.answer_replaced,
       CASE WHEN a.answered = 0 THEN NULL
            WHEN a.rejected_later = 1 THEN 0
            WHEN a.proven = 1 OR a.verified_later = 1
                 OR (a.later_approvals > 0 AND a.later_rejections = 0) THEN 1
       END AS outcome_correct,
       a.confidence, a.model_calls, a.followup_model_calls,
       a.model_calls + a.followup_model_calls AS total_model_calls,
       a.tokens, a.deep_overall
FROM ({inner}) a"""


ANSWERS_COMMENT = (
    "One row per finished scan (state done or failed; queued and running scans are left out) "
    "with its returned answer, its badge at response and now, what later evidence found, and "
    "its cost. Flags are 0/1 integers so every rollup is a SUM; the other views are rollups of "
    "this one. Denominators: scans are every row, answered are rows with answered = 1."
)
ANSWERS_COLUMNS: dict[str, str] = {
    "tenant": "The API key's tenant of the scan; NULL for scans made without a key.",
    "scan_id": "The scan (scans.id).",
    "solution_id": "Its solution (solutions.id); NULL when the scan failed before one.",
    "created_at": "When the scan was made (UTC).",
    "day": "The UTC day the scan was made.",
    "provider": "Provider of the returned answer (solutions.provider); NULL when none.",
    "model": "Model of the returned answer (solutions.model).",
    "subject": "The scan's subject (scans.subject).",
    "grade": "The grade the caller sent, normalised ('7' for 'grade 7' or '初一'), else the "
    "grade band ANALYZE found (primary, middle, high).",
    "grade_band": "The grade band (scans.grade_band).",
    "difficulty": "The difficulty label (easy, medium, hard; scans.difficulty).",
    "topic": "The scan's first topic (the most advanced one the rules found, e.g. calculus "
    "before linear_equation), 'none' when none was found.",
    "answered": "1 when the solution has a final answer, else 0.",
    "badge_at_response": "The badge the response carried: the first status_history entry's "
    "'from', or the current badge when the badge never changed.",
    "badge_now": "The badge now (solutions.verification_status).",
    "verified": "1 when answered and verified at response (the promise was made), else 0.",
    "verified_now": "1 when answered and verified now, else 0.",
    "caution_now": "1 when answered and caution now, else 0.",
    "later_found_wrong": "1 when verified at response and a later status_history entry moved "
    "it from verified to caution or replaced its answer, else 0.",
    "found_wrong_at": "When it was first found wrong (the entry's 'at'); NULL when never.",
    "answer_replaced": "1 when a later change replaced the returned answer (MARS), else 0.",
    "outcome_correct": "The later outcome of the returned answer: 0 when later evidence moved "
    "it to caution or replaced it; 1 when a proof at response, a later move to verified, or "
    "later verdicts on it that approved and none rejected; NULL when unknown or unanswered.",
    "confidence": "The stored P(correct) of the answer (solutions.verification_confidence; "
    "for an answer MARS replaced, MARS's).",
    "model_calls": "Model requests the scan made before answering (solutions.model_calls).",
    "followup_model_calls": "Model verdicts recorded after the response (consensus, spot, "
    "MARS tiers, method llm): one model request each.",
    "total_model_calls": "model_calls + followup_model_calls.",
    "tokens": "Tokens of every stored verdict on the solution, every tier.",
    "deep_overall": "The deep evaluation's overall score, NULL until evaluated.",
}

# The shared columns of v_quality and v_found_wrong_daily.
QUALITY_COLUMNS: dict[str, str] = {
    "scans": "Finished scans in the group (answered or not).",
    "answered": "Of those, scans with a returned answer.",
    "answered_rate": "answered / scans.",
    "verified": "Answers verified at response (the promise was made).",
    "verified_rate": "verified / answered.",
    "verified_now": "Answers verified now.",
    "caution_now": "Answers with caution now.",
    "caution_rate": "caution_now / answered.",
    "later_found_wrong": "Answers verified at response and later found wrong (moved to "
    "caution or replaced).",
    "found_wrong_rate": "later_found_wrong / verified.",
    "verified_precision": "(verified - later_found_wrong) / verified: the share of the "
    "promise kept so far.",
    "judged": "Answers whose later outcome is known (outcome_correct not NULL).",
    "judged_right": "Of those, the ones known right.",
    "judged_accuracy": "judged_right / judged (accuracy where it can be measured).",
}


def _quality_select(extra: tuple[str, ...] = ()) -> str:
    groups = ", ".join((*DIMENSIONS, *extra))
    return f"""
SELECT {groups},
       COUNT(*) AS scans,
       CAST(SUM(answered) AS BIGINT) AS answered,
       {_rate("SUM(answered)", "COUNT(*)")} AS answered_rate,
       CAST(SUM(verified) AS BIGINT) AS verified,
       {_rate("SUM(verified)", "SUM(answered)")} AS verified_rate,
       CAST(SUM(verified_now) AS BIGINT) AS verified_now,
       CAST(SUM(caution_now) AS BIGINT) AS caution_now,
       {_rate("SUM(caution_now)", "SUM(answered)")} AS caution_rate,
       CAST(SUM(later_found_wrong) AS BIGINT) AS later_found_wrong,
       {_rate("SUM(later_found_wrong)", "SUM(verified)")} AS found_wrong_rate,
       {_rate("SUM(verified) - SUM(later_found_wrong)", "SUM(verified)")} AS verified_precision,
       COUNT(outcome_correct) AS judged,
       CAST(COALESCE(SUM(outcome_correct), 0) AS BIGINT) AS judged_right,
       {_rate("SUM(outcome_correct)", "COUNT(outcome_correct)")} AS judged_accuracy
FROM v_answers
GROUP BY {groups}"""


def _calibration(d: Dialect) -> str:
    bin_ = f"CASE WHEN confidence >= 1 THEN 9 ELSE {d.floor_int('confidence * 10')} END"
    return f"""
SELECT tenant, bin,
       CAST(bin AS DOUBLE PRECISION) / 10 AS bin_lower,
       CAST(bin + 1 AS DOUBLE PRECISION) / 10 AS bin_upper,
       COUNT(*) AS judged,
       CAST(SUM(outcome_correct) AS BIGINT) AS judged_right,
       CAST(AVG(confidence) AS DOUBLE PRECISION) AS mean_confidence,
       {_rate("SUM(outcome_correct)", "COUNT(*)")} AS observed_accuracy,
       CAST(SUM(verified) AS BIGINT) AS verified,
       CAST(SUM(later_found_wrong) AS BIGINT) AS later_found_wrong
FROM (SELECT a.*, {bin_} AS bin FROM v_answers a
      WHERE answered = 1 AND outcome_correct IS NOT NULL AND answer_replaced = 0
        AND confidence IS NOT NULL) b
GROUP BY tenant, bin"""


CALIBRATION_COMMENT = (
    "Reliability bins: per tenant and tenth of stated confidence, how often answers were "
    "later known right. Only answered scans with a known later outcome (v_answers."
    "outcome_correct) count, and answers MARS replaced are left out (their stored confidence "
    "is MARS's, not the one the student was shown). Denominator of observed_accuracy: judged."
)
CALIBRATION_COLUMNS: dict[str, str] = {
    "tenant": "The API key's tenant; NULL for scans made without a key.",
    "bin": "0..9: floor(confidence × 10); a confidence of 1 falls in bin 9.",
    "bin_lower": "The bin's lower edge (bin / 10).",
    "bin_upper": "The bin's upper edge ((bin + 1) / 10).",
    "judged": "Answers in the bin with a known later outcome.",
    "judged_right": "Of those, the ones known right.",
    "mean_confidence": "Mean stated confidence of the bin's answers.",
    "observed_accuracy": "judged_right / judged: compare with mean_confidence.",
    "verified": "Of the bin's answers, those verified at response.",
    "later_found_wrong": "Of those, the ones later found wrong.",
}

COST_COMMENT = (
    "Cost per verified answer per tenant × provider × model × subject × difficulty: model "
    "requests and tokens spent on every finished scan of the group (answered or not), divided "
    "by the answers verified at response. NULL where nothing was verified."
)
COST_COLUMNS: dict[str, str] = {
    "tenant": "The API key's tenant; NULL for scans made without a key.",
    "provider": "Provider of the returned answer; NULL for scans with no answer.",
    "model": "Model of the returned answer.",
    "subject": "The scan's subject.",
    "difficulty": "The scan's difficulty label.",
    "scans": "Finished scans in the group.",
    "answered": "Of those, answered.",
    "verified": "Answers verified at response.",
    "model_calls": "Model requests before answering, summed (v_answers.model_calls).",
    "total_model_calls": "Model requests before and after answering, summed.",
    "tokens": "Tokens of every stored verdict, summed.",
    "model_calls_per_verified": "total_model_calls / verified.",
    "tokens_per_verified": "tokens / verified.",
}


def _cost() -> str:
    groups = "tenant, provider, model, subject, difficulty"
    return f"""
SELECT {groups},
       COUNT(*) AS scans,
       CAST(SUM(answered) AS BIGINT) AS answered,
       CAST(SUM(verified) AS BIGINT) AS verified,
       CAST(SUM(model_calls) AS BIGINT) AS model_calls,
       CAST(SUM(total_model_calls) AS BIGINT) AS total_model_calls,
       CAST(SUM(tokens) AS BIGINT) AS tokens,
       {_rate("SUM(total_model_calls)", "SUM(verified)")} AS model_calls_per_verified,
       {_rate("SUM(tokens)", "SUM(verified)")} AS tokens_per_verified
FROM v_answers
GROUP BY {groups}"""


DAILY_COLUMNS: dict[str, str] = {
    "tenant": "The API key's tenant; NULL for scans made without a key.",
    "day": "UTC day the scans were made.",
    "scans": "Finished scans that day (answered or not).",
    "answered": "Of those, answered.",
    "n": "The same as answered: the denominator of the day's rates.",
    "answered_rate": "answered / scans.",
    "verified": "Answers verified at response.",
    "verified_rate": "verified / answered.",
    "caution_rate": "Answers with caution now / answered.",
    "later_found_wrong": "Answers verified at response and later found wrong.",
    "found_wrong_rate": "later_found_wrong / verified.",
    "mean_deep_overall": "Mean deep-evaluation overall score of the day's evaluated answers.",
}


def _daily() -> str:
    return f"""
SELECT tenant, day,
       COUNT(*) AS scans,
       CAST(SUM(answered) AS BIGINT) AS answered,
       CAST(SUM(answered) AS BIGINT) AS n,
       {_rate("SUM(answered)", "COUNT(*)")} AS answered_rate,
       CAST(SUM(verified) AS BIGINT) AS verified,
       {_rate("SUM(verified)", "SUM(answered)")} AS verified_rate,
       {_rate("SUM(caution_now)", "SUM(answered)")} AS caution_rate,
       CAST(SUM(later_found_wrong) AS BIGINT) AS later_found_wrong,
       {_rate("SUM(later_found_wrong)", "SUM(verified)")} AS found_wrong_rate,
       CAST(AVG(deep_overall) AS DOUBLE PRECISION) AS mean_deep_overall
FROM v_answers
GROUP BY tenant, day"""


def _suggestions(d: Dialect) -> str:
    suggestion = d.json_text("s.deep_evaluation", "improvement_suggestions")
    return f"""
SELECT sc.tenant AS tenant, {suggestion} AS suggestion, COUNT(*) AS n
FROM solutions s JOIN scans sc ON sc.id = s.scan_id
WHERE s.deep_evaluation IS NOT NULL AND {suggestion} IS NOT NULL AND {suggestion} <> ''
GROUP BY sc.tenant, {suggestion}"""


def _provider_accuracy(by: str) -> str:
    return f"""
SELECT a.tenant, a.provider, a.model, a.{by},
       CAST(SUM(a.answered) AS BIGINT) AS n,
       {_rate("SUM(a.verified)", "SUM(a.answered)")} AS verified_rate,
       {_rate("SUM(a.caution_now)", "SUM(a.answered)")} AS caution_rate,
       {_rate("SUM(c.agreed)", "COUNT(c.agreed)")} AS consensus_agreement_rate,
       COUNT(c.agreed) AS consensus_checked,
       CAST(AVG(a.deep_overall) AS DOUBLE PRECISION) AS mean_deep_overall
FROM v_answers a
LEFT JOIN (
    SELECT solution_id,
           MAX(CASE WHEN verdict = 'approve' THEN 1 WHEN verdict = 'reject' THEN 0 END) AS agreed
    FROM verifications WHERE tier = 'consensus' GROUP BY solution_id
) c ON c.solution_id = a.solution_id
WHERE a.provider IS NOT NULL AND a.answered = 1
GROUP BY a.tenant, a.provider, a.model, a.{by}"""


def _provider_accuracy_columns(by: str) -> dict[str, str]:
    return {
        "tenant": "The API key's tenant; NULL for scans made without a key.",
        "provider": "Provider of the returned answer.",
        "model": "Model of the returned answer.",
        by: f"The scan's {by}.",
        "n": "Answered scans (the denominator of every rate here).",
        "verified_rate": "Answers verified at response / n.",
        "caution_rate": "Answers with caution now / n.",
        "consensus_agreement_rate": "Share of decisive tier-2 consensus verdicts that agreed "
        "(over consensus_checked).",
        "consensus_checked": "Answers with a decisive tier-2 consensus verdict.",
        "mean_deep_overall": "Mean deep-evaluation overall score of the evaluated answers.",
    }


def _dimension_comments() -> dict[str, str]:
    return {k: ANSWERS_COLUMNS[k] for k in DIMENSIONS}


def _comment(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _document(view: str, comment: str, columns: dict[str, str]) -> None:
    op.execute(f"COMMENT ON VIEW {view} IS {_comment(comment)}")
    for column, text in columns.items():
        op.execute(f"COMMENT ON COLUMN {view}.{column} IS {_comment(text)}")


def views(d: Dialect) -> list[tuple[str, str, str, dict[str, str]]]:
    """(name, SELECT, comment, column comments), in creation order."""
    found_wrong_daily = {**_dimension_comments(), "day": ANSWERS_COLUMNS["day"], **QUALITY_COLUMNS}
    return [
        ("v_answers", _answers(d), ANSWERS_COMMENT, ANSWERS_COLUMNS),
        (
            "v_quality",
            _quality_select(),
            "Accuracy and verified precision per tenant × provider × model × subject × grade × "
            "difficulty × topic. Counts are scans; rates over answered scans except "
            "verified_precision and found_wrong_rate (over answers verified at response) and "
            "judged_accuracy (over judged answers). Sum the counts to roll up, never the rates.",
            {**_dimension_comments(), **QUALITY_COLUMNS},
        ),
        (
            "v_found_wrong_daily",
            _quality_select(("day",)),
            "Verified, later found wrong: v_quality per UTC day the scans were made (the "
            "answers of that day and what later evidence found about them).",
            found_wrong_daily,
        ),
        ("v_calibration_bins", _calibration(d), CALIBRATION_COMMENT, CALIBRATION_COLUMNS),
        ("v_cost_per_verified", _cost(), COST_COMMENT, COST_COLUMNS),
        (
            "v_daily_quality",
            _daily(),
            "The daily trend per tenant: every rate over the day's answered scans (n), "
            "found_wrong_rate over its verified answers.",
            DAILY_COLUMNS,
        ),
        (
            "v_improvement_suggestions",
            _suggestions(d),
            "Improvement suggestions of deep evaluations per tenant, with how often each was made.",
            {
                "tenant": "The API key's tenant; NULL for scans made without a key.",
                "suggestion": "The deep evaluation's improvement_suggestions text.",
                "n": "Evaluated answers that made it.",
            },
        ),
        *(
            (
                f"v_provider_accuracy_by_{by}",
                _provider_accuracy(by),
                f"Returned answers per tenant × provider × model × {by} (superseded by "
                "v_quality, kept for saved queries); rates over answered scans.",
                _provider_accuracy_columns(by),
            )
            for by in ("subject", "difficulty")
        ),
    ]


def upgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        # The grade the caller sent, normalised (app/analysis/classifier.py grade_label).
        batch.add_column(sa.Column("grade", sa.String(32)))
    d = Dialect(op.get_bind().dialect.name == "postgresql")
    for view in REPLACED_VIEWS:
        op.execute(f"DROP VIEW IF EXISTS {view}")
    for name, select, comment, columns in views(d):
        op.execute(f"CREATE VIEW {name} AS {select}")
        if d.postgres:  # SQLite has no comments: the same views, documented in docs/analytics.md
            _document(name, comment, columns)


def _previous() -> object:
    """The 0004 migration's module: its upgrade recreates the views this one replaced."""
    path = Path(__file__).with_name("2026-11-21-1130_analytics_views.py")
    spec = importlib.util.spec_from_file_location("_analytics_views_0004", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    for view in (*REPLACED_VIEWS, *reversed(NEW_VIEWS)):
        op.execute(f"DROP VIEW IF EXISTS {view}")
    _previous().upgrade()  # type: ignore[attr-defined]
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:  # the batch copy is renamed to scans while views name it: SQLite's old rule
        op.execute("PRAGMA legacy_alter_table=ON")
    with op.batch_alter_table("scans") as batch:
        batch.drop_column("grade")
    if sqlite:
        op.execute("PRAGMA legacy_alter_table=OFF")
