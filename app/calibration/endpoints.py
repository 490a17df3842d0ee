"""GET /v1/analytics/calibration: the precision promise the service applies now."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Depends

from app.api.deps import ServicesDep
from app.api.openapi_docs import errors
from app.auth.caller import get_analyst
from app.calibration.schemas import CalibrationOut
from app.resources import Resources

router = APIRouter(
    tags=["analytics"], dependencies=[Depends(get_analyst)], responses=errors(401, 403, 429)
)


def calibration_of(services: Resources) -> CalibrationOut:
    """The loaded calibrator (refitted files are picked up by the server's upkeep)."""
    verify, model = services.settings.verify, services.pipeline.calibrator
    if model is None:
        return CalibrationOut(
            fitted=False,
            threshold=None,
            target_precision=verify.target_precision,
            confidence=1 - verify.precision_delta,
            evidence=0,
            precision_lower_bound=None,
            n_samples=0,
            ece=None,
            brier=None,
            fitted_at=None,
            sources={},
        )
    return CalibrationOut(
        fitted=True,
        threshold=model.threshold,
        # An older file without a promise: the settings' target, unproven (no threshold).
        target_precision=model.target_precision or verify.target_precision,
        confidence=1 - model.delta,
        evidence=model.evidence,
        precision_lower_bound=model.precision_lower_bound,
        n_samples=model.n_samples,
        ece=model.ece,
        brier=model.brier,
        fitted_at=dt.datetime.fromisoformat(model.fitted_at) if model.fitted_at else None,
        sources=model.sources,
    )


@router.get("/v1/analytics/calibration", operation_id="getCalibration")
async def calibration(services: ServicesDep) -> CalibrationOut:
    """The fitted threshold, target precision and confidence, the evidence it rests on, and
    how well calibrated the probabilities are (ECE, Brier)."""
    return calibration_of(services)
