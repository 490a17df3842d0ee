"""GET /v1/analytics/calibration and the dashboard's precision-promise panel."""

from __future__ import annotations

from dataclasses import replace

import httpx

from app.resources import Resources
from app.verification.calibration import Calibrator


async def test_calibration_before_and_after_a_fit(
    client: httpx.AsyncClient, services: Resources
) -> None:
    before = services.pipeline
    services.pipeline = replace(before, calibrator=None)
    try:
        empty = (await client.get("/v1/analytics/calibration")).json()
        assert empty["fitted"] is False and empty["threshold"] is None
        assert empty["target_precision"] == 0.97 and empty["confidence"] == 0.95
        assert "No fitted calibrator yet" in (await client.get("/dashboard")).text

        fitted = Calibrator(
            features=["quick_confidence"],
            weights=[4.0],
            bias=-1.0,
            n_samples=612,
            threshold=0.975,
            target_precision=0.95,
            delta=0.05,
            evidence=608,
            precision_lower_bound=0.958,
            ece=0.014,
            brier=0.083,
            fitted_at="2026-11-21T03:00:00+00:00",
            sources={"proof": 10, "consensus": 590, "spot": 12},
        )
        services.pipeline = replace(before, calibrator=fitted)
        body = (await client.get("/v1/analytics/calibration")).json()
        assert body["fitted"] is True
        assert (body["threshold"], body["evidence"], body["precision_lower_bound"]) == (
            0.975,
            608,
            0.958,
        )
        assert (body["ece"], body["brier"], body["n_samples"]) == (0.014, 0.083, 612)
        assert body["fitted_at"].startswith("2026-11-21T03:00:00")
        assert body["sources"] == {"proof": 10, "consensus": 590, "spot": 12}
        html = (await client.get("/dashboard")).text
        assert 'class="calibration"' in html and "0.975" in html and "608" in html
    finally:
        services.pipeline = before


def test_the_operation_is_typed_and_named(services: Resources) -> None:
    from app.main import create_app

    schema = create_app(services.settings).openapi()
    operation = schema["paths"]["/v1/analytics/calibration"]["get"]
    assert operation["operationId"] == "getCalibration"
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/CalibrationOut")
    assert {"401", "403", "429"} <= set(operation["responses"])
