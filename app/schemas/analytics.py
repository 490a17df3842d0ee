"""Typed analytics responses (the views of migration 0004)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field


class AccuracyRow(BaseModel):
    """Quality of one provider × model on one subject (or difficulty)."""

    provider: str | None = Field(description="Solver provider.", examples=["symbolic"])
    model: str | None = Field(description="Solver model.", examples=["sympy"])
    subject: str | None = Field(
        default=None, description="Subject (by=subject).", examples=["math"]
    )
    difficulty: str | None = Field(
        default=None, description="Difficulty (by=difficulty).", examples=["easy"]
    )
    n: int = Field(description="Number of solutions (the sample count).", examples=[120])
    verified_rate: float | None = Field(description="Share verified.", examples=[0.82])
    caution_rate: float | None = Field(description="Share with caution.", examples=[0.05])
    consensus_agreement_rate: float | None = Field(
        description="Share the consensus check agreed with.", examples=[0.9]
    )
    consensus_checked: int = Field(description="How many had a consensus check.", examples=[40])
    mean_deep_overall: float | None = Field(
        description="Mean deep-evaluation overall score.", examples=[0.78]
    )


class TrendRow(BaseModel):
    """Quality on one UTC day."""

    day: dt.date = Field(description="UTC day.", examples=["2026-11-21"])
    n: int = Field(description="Number of solutions that day.", examples=[57])
    verified_rate: float | None = Field(description="Share verified.", examples=[0.8])
    caution_rate: float | None = Field(description="Share with caution.", examples=[0.04])
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
