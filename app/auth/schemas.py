"""The public HTTP contract for per-student tokens (POST /v1/tokens)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.scans.schemas import USER_ID_MAX_CHARS, USER_ID_PATTERN
from app.schemas.common import UtcDateTime


class TokenCreate(BaseModel):
    """What the app's backend asks for: a token acting for one of its users."""

    # Strict: `"ttl_s": "60"` or `true` (a 1-second token) is a mistake, not a number.
    model_config = ConfigDict(extra="forbid", strict=True)

    user_id: str = Field(
        min_length=1,
        max_length=USER_ID_MAX_CHARS,
        pattern=USER_ID_PATTERN,
        description="The end user the token acts for (the app backend's opaque id, as in "
        "`user_id` of scans): the token reaches that user's scans and checks only.",
        examples=["user_8c1f2a"],
    )
    ttl_s: int | None = Field(
        default=None,
        ge=1,
        description="Lifetime in seconds, fixed at issue (no renewal: mint a new token). "
        "Default `SOLVEVERIFY_AUTH_TOKEN_TTL_S` (900); at most `SOLVEVERIFY_AUTH_TOKEN_MAX_TTL_S` "
        "(3600), beyond it a 422.",
        examples=[900],
    )


class TokenOut(BaseModel):
    """201: the token, for the app's browser or phone. Shown once: the service keeps no copy
    (it checks the signature)."""

    token: str = Field(
        description="Send as `Authorization: Bearer <token>`, or (the event stream only) as "
        "`?access_token=<token>`.",
        examples=[
            "svt_WzEsInNjaG9vbC1hIiwidXNlcl84YzFmMmEiLCIzZjhhMmM0ZTliMWQiLDE3OTUyOTUzNDld"
            ".x0sirP4Jfdh-ieF-Xs-pPrJchV1HXdpTTDfBqrf9d-U"
        ],
    )
    expires_at: UtcDateTime = Field(
        description="When the token stops working (UTC).", examples=["2026-11-25T09:15:00Z"]
    )
    user_id: str = Field(description="The user it acts for.", examples=["user_8c1f2a"])
