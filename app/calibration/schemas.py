"""The precision promise the service applies now (app/verification/precision.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.schemas.common import UtcDateTime


class CalibrationOut(BaseModel):
    """The fitted calibrator and its precision threshold, as the running service uses them."""

    fitted: bool = Field(description="Whether a fitted calibrator is loaded.", examples=[True])
    threshold: float | None = Field(
        description=(
            "Calibrated P(correct) at or above which model evidence verifies; null when no "
            "threshold kept the target on the evidence so far (only proofs verify then)."
        ),
        examples=[0.975],
    )
    target_precision: float = Field(
        description="The precision `verified` keeps at least.", examples=[0.95]
    )
    confidence: float = Field(
        description="Confidence of that statement, 1 − delta.", examples=[0.95]
    )
    evidence: int = Field(
        description="Held-out labelled outcomes the threshold was chosen on.", examples=[608]
    )
    precision_lower_bound: float | None = Field(
        description="One-sided Clopper–Pearson lower bound of the precision at the threshold.",
        examples=[0.958],
    )
    n_samples: int = Field(description="Outcomes the calibrator was fitted on.", examples=[612])
    ece: float | None = Field(description="Expected calibration error.", examples=[0.014])
    brier: float | None = Field(description="Brier score.", examples=[0.083])
    fitted_at: UtcDateTime | None = Field(
        description="When it was fitted (UTC).", examples=["2026-11-21T03:00:00Z"]
    )
    sources: dict[str, int] = Field(
        description="Labelled outcomes by source: proof, consensus, spot.",
        examples=[{"proof": 410, "consensus": 780, "spot": 30}],
    )
