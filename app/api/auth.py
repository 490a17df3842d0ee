"""Authentication, tenants and rate limits as dependencies.

`Caller` is the principal of the request: a key's tenant and role, or, on a server running
without `SOLVEVERIFY_AUTH_REQUIRED`, the anonymous tenant. `get_analyst` (the analytics
routers' dependency) additionally needs the analyst role whenever auth is required.
"""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.auth.keys import ANONYMOUS, Principal
from app.resources import Resources

bearer = HTTPBearer(
    auto_error=False,
    description="An API key from `solveverify keys create --tenant NAME`.",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


def _client_address(request: Request) -> str:
    # The direct peer, or what a proxy listed in SOLVEVERIFY_API_FORWARDED_ALLOW_IPS says the
    # client is (uvicorn rewrites request.client from X-Forwarded-For only for those).
    return request.client.host if request.client else "unknown"


async def authenticate_or_refuse(request: Request, services: Resources, key: str) -> Principal:
    """The key's principal; else 401, or 429 once this address failed too often this minute.

    The key is checked first, whatever the address did: a valid key is never locked out by
    failures counted against its address (a shared NAT, or someone spraying bad keys from it).
    Guessing stays cheap for us: malformed keys cost no lookup, and the authenticator
    remembers both valid and unknown keys (app/services/auth.py)."""
    principal = await services.authenticator.principal(key)
    if principal is not None:
        return principal
    retry_after = await count_failed_auth(request, services)
    if retry_after is not None:
        raise _too_many_failures(services.settings.auth.failed_auth_per_minute, retry_after)
    raise ApiError(401, "invalid_api_key", "the API key is unknown or revoked", headers=_CHALLENGE)


async def count_failed_auth(request: Request, services: Resources) -> float | None:
    """Count a failed authentication (a bad key, a bad dashboard login or link) against the
    client's address; seconds to wait when it is over `failed_auth_per_minute`, else None."""
    limit = services.settings.auth.failed_auth_per_minute
    if limit <= 0:
        return None
    return await services.rate_limiter.hit(f"authfail:{_client_address(request)}", limit)


def _too_many_failures(limit: int, retry_after: float) -> ApiError:
    return ApiError(
        429,
        "too_many_failed_authentications",
        f"more than {limit} failed authentications a minute from this address",
        headers={"Retry-After": str(int(retry_after))},
    )


async def get_caller(
    request: Request, services: ServicesDep, credentials: Credentials
) -> Principal:
    auth = services.settings.auth
    if credentials is None:
        if auth.required:
            raise ApiError(
                401,
                "unauthorized",
                "this server needs an API key: send 'Authorization: Bearer <key>'",
                headers=_CHALLENGE,
            )
        return ANONYMOUS
    principal = await authenticate_or_refuse(request, services, credentials.credentials)
    if auth.rate_limit_per_minute > 0 and principal.key_id is not None:
        # Never fails open: without Redis the limiter counts in memory (app/auth/ratelimit.py).
        limit = auth.rate_limit_per_minute
        count, reset_in = await services.rate_limiter.count(principal.key_id)
        # RateLimit-* headers on every response of this request (app/api/rate_headers.py).
        request.state.rate_limit = (limit, max(0, limit - count), math.ceil(reset_in))
        retry_after = None if count <= limit else max(1.0, math.ceil(reset_in))
        if retry_after is not None:
            raise ApiError(
                429,
                "rate_limited",
                f"more than {auth.rate_limit_per_minute} requests a minute with this key",
                headers={"Retry-After": str(int(retry_after))},
            )
    return principal


Caller = Annotated[Principal, Depends(get_caller)]


async def get_analyst(caller: Caller, services: ServicesDep) -> Principal:
    if caller.is_analyst or (caller is ANONYMOUS and not services.settings.auth.required):
        return caller
    raise ApiError(403, "forbidden", "analytics need an API key with the analyst role")


Analyst = Annotated[Principal, Depends(get_analyst)]


def analytics_tenant(analyst: Principal, requested: str | None) -> str | None:
    """The tenant an analyst's analytics cover (None: every tenant). A platform key, or the
    open server's anonymous caller, sees every tenant or the one it asks for; an analyst key
    sees its own tenant only, and asking for another is a 403."""
    if analyst.sees_every_tenant or analyst is ANONYMOUS:
        return requested
    if requested is not None and requested != analyst.tenant:
        raise ApiError(403, "forbidden", "an analyst key sees its own tenant's analytics only")
    return analyst.tenant
