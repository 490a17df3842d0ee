"""A seeded analyst database written through the real write path.

Each scan goes in as the request path stores it (`app/scans/service.py store_result` with a
pipeline result), later evidence as the workers write it (verdict rows through
`ScanRepository.add_verifications`, badge changes through `StatusRepository.change_status`,
deep evaluations through `ScanRepository.set_deep_evaluation`). Only the creation time is moved
afterwards, to spread the scans over days. `Seeded` keeps what was meant, so a test can
compute every expected figure from it without SQL.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.analysis.classifier import grade_label
from app.db.documents import DeepEvaluation
from app.db.models import Scan, Solution, VerificationRecord
from app.llm.outputs import SolveOutput, SolveStep
from app.pipeline.state import AttemptRecord, SolveState
from app.scans.provider_counts import ProviderResultCounts
from app.scans.repository import ScanRepository
from app.scans.service import ScanRequest, store_result
from app.settings import VerifySettings
from app.solutions.status_repository import StatusRepository
from app.verification.verdict import Verdict

PROVIDERS = (
    ("gemini", "gemini-2.5-flash", 0.92),
    ("claude", "claude-sonnet-4", 0.8),
    ("openai", "gpt-4o-mini", 0.62),
)
TENANTS = ("acme", "globex")
GRADES = ("7", "grade 8", "初三", "10", None)
SUGGESTIONS = ("Show the check by substitution.", "Name the rule used.", "State the units.")
MATH_TOPICS: tuple[list[str], ...] = (
    ["linear_equation"],
    ["quadratic_equation"],
    ["system_of_equations"],
    ["fractions", "word_problem"],
    [],
)
TODAY = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


@dataclass
class Seeded:
    tenant: str
    provider: str | None
    model: str | None
    subject: str
    grade: str
    difficulty: str
    topic: str
    day: str
    answered: bool
    badge_at_response: str
    confidence: float
    right: bool
    found_wrong: bool = False
    replaced: bool = False
    verified_later: bool = False
    later_approved: bool = False
    model_calls: int = 0
    followup_llm: int = 0
    tokens: int = 0
    suggestion: str | None = None

    @property
    def verified(self) -> bool:
        return self.answered and self.badge_at_response == "verified"

    @property
    def outcome(self) -> bool | None:
        """The later outcome as docs/analytics.md defines it."""
        if not self.answered:
            return None
        if self.found_wrong or self.replaced:
            return False
        if self.verified_later or self.later_approved:
            return True
        return None


def _verdict(kind: str, verifier: str, score: float | None, tokens: int) -> Verdict:
    return Verdict(kind, "llm", verifier, score, tokens=tokens)  # type: ignore[arg-type]


async def seed(session: AsyncSession, n: int = 240, rng_seed: int = 29) -> list[Seeded]:
    rng = random.Random(rng_seed)
    services = SimpleNamespace(
        settings=SimpleNamespace(verify=VerifySettings(calibration_path=None)),
        provider_counts=ProviderResultCounts(100),
    )
    seeded: list[Seeded] = []
    for i in range(n):
        tenant = TENANTS[0] if i % 3 else TENANTS[1]
        provider, model, p_right = PROVIDERS[rng.randrange(3)]
        subject = "math" if rng.random() < 0.75 else "physics"
        sent_grade = GRADES[rng.randrange(len(GRADES))]
        difficulty = ("easy", "medium", "hard")[rng.randrange(3)]
        topics = list(MATH_TOPICS[rng.randrange(len(MATH_TOPICS))]) if subject == "math" else []
        band = "middle" if sent_grade != "10" else "high"
        answered = rng.random() > 0.08
        right = rng.random() < p_right
        confidence = round(rng.uniform(0.55, 1.0) if right else rng.uniform(0.2, 0.95), 3)
        badge = (
            "unverified"
            if not answered
            else "verified"
            if confidence >= 0.85
            else "caution"
            if confidence < 0.5
            else "unverified"
        )
        calls = rng.randint(1, 4)
        quick_tokens = rng.randint(100, 900) if answered else 0
        answer = str(i) if right else f"{i}.5"
        attempts = (
            [
                AttemptRecord(
                    number=1,
                    provider=provider,
                    model=model,
                    final_answer=answer,
                    verify_passed=badge == "verified",
                    verify_confidence=confidence,
                    verdicts=[
                        _verdict(
                            "approve" if badge == "verified" else "reject",
                            f"{provider}:quick_verify",
                            confidence,
                            quick_tokens,
                        )
                    ],
                    latency_ms=120.0,
                )
            ]
            if answered
            else []
        )
        result = SolveState(
            problem_text=f"problem {i}",
            subject=subject,
            grade_band=band if sent_grade else "middle",
            difficulty=difficulty,
            topics=topics,
            solution=SolveOutput(steps=[SolveStep(description="work")], final_answer=answer)
            if answered
            else None,
            provider=provider if answered else None,
            model=model if answered else None,
            attempt_count=1 if answered else 0,
            verify_passed=(badge == "verified") if answered else None,
            verify_confidence=confidence,
            attempts=attempts,
            model_calls=calls,
            verification_status=badge,  # type: ignore[arg-type]
        )
        request = ScanRequest(text=f"problem {i}", subject=subject, grade=sent_grade, tenant=tenant)
        scan, solution = await store_result(services, session, result, request)
        day = TODAY - timedelta(days=i % 5)
        await session.execute(update(Scan).where(Scan.id == scan.id).values(created_at=day))
        await session.execute(
            update(Solution).where(Solution.id == solution.id).values(created_at=day)
        )
        row = Seeded(
            tenant=tenant,
            provider=provider if answered else None,
            model=model if answered else None,
            subject=subject,
            grade=grade_label(sent_grade) or (band if sent_grade else "middle"),
            difficulty=difficulty,
            topic=topics[0] if topics else "none",
            day=day.date().isoformat(),
            answered=answered,
            badge_at_response=badge,
            confidence=confidence,
            right=right,
            model_calls=calls,
            tokens=quick_tokens,
        )
        if answered:
            await _later_evidence(session, rng, solution.id, row, answer)
            if rng.random() < 0.3:
                row.suggestion = SUGGESTIONS[rng.randrange(len(SUGGESTIONS))]
                evaluation = DeepEvaluation(
                    correctness=1.0,
                    completeness=0.8,
                    clarity=0.8,
                    pedagogy=0.7,
                    format=0.9,
                    overall=0.84,
                    improvement_suggestions=row.suggestion,
                )
                await ScanRepository(session).set_deep_evaluation(solution.id, evaluation)
        seeded.append(row)
    await session.commit()
    return seeded


async def _later_evidence(
    session: AsyncSession, rng: random.Random, solution_id: uuid.UUID, row: Seeded, answer: str
) -> None:
    """What the follow-up jobs would find: a credible spot-check rejection of a wrong verified
    answer, tier-2 agreement with a right one, a proof that promotes an unverified right
    answer, a MARS replacement of a wrong answer under caution."""
    repo, status = ScanRepository(session), StatusRepository(session)
    stored = await repo.get_solution(solution_id)
    assert stored is not None

    def record(tier: str, kind: str, verifier: str, tokens: int) -> VerificationRecord:
        row.tokens += tokens
        row.followup_llm += 1
        return VerificationRecord.from_verdict(
            stored,
            _verdict(kind, verifier, None, tokens),
            tier=tier,
            attempt=1,
            answer_provider=row.provider,
            answer_model=row.model,
            answer=stored.final_answer,
        )

    badge, draw = row.badge_at_response, rng.random()
    if badge == "verified" and not row.right and draw < 0.7:
        rows = [record("spot", "reject", f"aspect:{k}", 40) for k in range(3)]
        repo.add_verifications(rows)
        await session.flush()
        await status.change_status(
            solution_id, "caution", reason="spot check: credible rejection", evidence_ids=[]
        )
        row.found_wrong = True
    elif badge == "verified" and row.right and draw < 0.5:
        repo.add_verifications([record("consensus", "approve", "consensus:exact_match", 0)])
        row.later_approved = True
    elif badge == "unverified" and row.right and draw < 0.4:
        repo.add_verifications([record("consensus", "approve", "consensus:exact_match", 0)])
        await session.flush()
        await status.change_status(
            solution_id, "verified", reason="tier 2: independent agreement", evidence_ids=[]
        )
        row.later_approved = row.verified_later = True
    elif badge == "caution" and not row.right and draw < 0.4:
        before = stored.final_answer
        stored.final_answer = answer.replace(".5", "")
        await status.change_status(
            solution_id,
            "unverified",
            reason="MARS second chance: its agents agreed on a new answer; no proof yet",
            evidence_ids=[],
            answer_before=before,
        )
        row.replaced = True
    await session.flush()
