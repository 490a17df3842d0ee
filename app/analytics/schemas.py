"""Typed analytics responses (the views of migrations 0004 and 0007)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field


class AccuracyRow(BaseModel):
    """Quality of one provider × model for one tenant on one subject (or difficulty), from every
    stored verdict: every solving attempt counts, not only each scan's final answer."""

    tenant: str | None = Field(
        description="The API key's tenant; null for scans made without a key.",
        examples=["acme"],
    )
    provider: str = Field(description="Provider whose answers were judged.", examples=["gemini"])
    model: str | None = Field(
        description="Model whose answers were judged.", examples=["gemini-2.5-flash"]
    )
    subject: str | None = Field(
        default=None, description="Subject (by=subject).", examples=["math"]
    )
    difficulty: str | None = Field(
        default=None, description="Difficulty (by=difficulty).", examples=["easy"]
    )
    attempts: int = Field(
        description="Solving attempts judged at response time, retries included.", examples=[140]
    )
    returned: int = Field(description="Of those, answers returned to the student.", examples=[120])
    verified_rate: float | None = Field(
        description="Share of its returned answers verified now.", examples=[0.82]
    )
    caution_rate: float | None = Field(
        description="Share of its returned answers with caution now.", examples=[0.05]
    )
    verdicts: int = Field(description="Verdicts on its answers, every tier.", examples=[420])
    approvals: int = Field(description="Verdicts that approved.", examples=[350])
    rejections: int = Field(description="Verdicts that rejected.", examples=[50])
    abstentions: int = Field(description="Verdicts that abstained.", examples=[20])
    approve_rate: float | None = Field(
        description="approvals / (approvals + rejections), every tier.", examples=[0.875]
    )
    quick_approvals: int = Field(description="Response-time approvals.", examples=[110])
    quick_rejections: int = Field(description="Response-time rejections.", examples=[25])
    quick_approve_rate: float | None = Field(
        description="Share of decisive response-time verdicts that approved (routing ranks "
        "model providers by it).",
        examples=[0.81],
    )
    consensus_checked: int = Field(
        description="Decisive tier-2 consensus verdicts on its answers.", examples=[100]
    )
    consensus_agreement_rate: float | None = Field(
        description="Share of decisive tier-2 consensus verdicts that agreed.", examples=[0.9]
    )
    spot_verdicts: int = Field(
        description="Decisive tier-3 spot-check verdicts on its answers.", examples=[60]
    )
    spot_approve_rate: float | None = Field(
        description="Share of decisive spot-check verdicts that approved.", examples=[0.85]
    )


class TrendRow(BaseModel):
    """Quality on one UTC day; every rate over the day's answered scans (`n`)."""

    day: dt.date = Field(description="UTC day.", examples=["2026-11-21"])
    scans: int = Field(description="Finished scans that day, answered or not.", examples=[60])
    n: int = Field(description="Answered scans that day (the rates' denominator).", examples=[57])
    verified: int = Field(description="Answers verified at response.", examples=[46])
    verified_rate: float | None = Field(description="verified / n.", examples=[0.8])
    caution_rate: float | None = Field(description="Answers with caution now / n.", examples=[0.04])
    later_found_wrong: int = Field(
        description="Answers verified at response and later found wrong.", examples=[1]
    )
    mean_deep_overall: float | None = Field(
        description="Mean deep-evaluation overall score.", examples=[0.75]
    )


class SuggestionRow(BaseModel):
    """An improvement suggestion and how often deep evaluations made it."""

    suggestion: str = Field(
        description="An improvement suggestion from deep evaluations.",
        examples=["Show the check by substitution."],
    )
    n: int = Field(description="How often it was made.", examples=[12])


class RoutingOut(BaseModel):
    """Which provider SOLVE asks first, per subject."""

    preferred: dict[str, str] = Field(
        description="Per subject, the provider preferred by measured accuracy.",
        examples=[{"math": "gemini"}],
    )
    static_order: list[str] = Field(
        description="The configured provider order.", examples=[["symbolic", "gemini"]]
    )
    min_samples: int = Field(
        description="Samples a provider needs before routing prefers it.", examples=[500]
    )
