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
    # The direct peer: behind a proxy, configure it (uvicorn --proxy-headers) to set this.
    return request.client.host if request.client else "unknown"


async def _refuse_if_throttled(services: Resources, address: str) -> None:
    limit = services.settings.auth.failed_auth_per_minute
    if limit <= 0:
        return
    retry_after = await services.rate_limiter.exceeded(f"authfail:{address}", limit)
    if retry_after is not None:
        raise _too_many_failures(limit, retry_after)


async def _count_failure(services: Resources, address: str) -> None:
    limit = services.settings.auth.failed_auth_per_minute
    if limit > 0:
        await services.rate_limiter.hit(f"authfail:{address}", limit)


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
    # Guessing keys costs a database lookup each: an address that keeps failing is refused
    # before the lookup.
    address = _client_address(request)
    await _refuse_if_throttled(services, address)
    principal = await services.authenticator.principal(credentials.credentials)
    if principal is None:
        await _count_failure(services, address)
        raise ApiError(
            401, "invalid_api_key", "the API key is unknown or revoked", headers=_CHALLENGE
        )
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
