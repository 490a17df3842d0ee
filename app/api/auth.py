"""Authentication, tenants and rate limits as dependencies.

`Caller` is the principal of the request: a key's tenant and role, or, on a server running
without `SOLVEVERIFY_AUTH_REQUIRED`, the anonymous tenant. `get_analyst` (the analytics
routers' dependency) additionally needs the analyst role whenever auth is required.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import ServicesDep
from app.api.errors import ApiError
from app.auth.keys import ANONYMOUS, Principal

log = logging.getLogger(__name__)

bearer = HTTPBearer(
    auto_error=False,
    description="An API key from `solveverify keys create --tenant NAME`.",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


async def get_caller(services: ServicesDep, credentials: Credentials) -> Principal:
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
    principal = await services.authenticator.principal(credentials.credentials)
    if principal is None:
        raise ApiError(
            401, "invalid_api_key", "the API key is unknown or revoked", headers=_CHALLENGE
        )
    if auth.rate_limit_per_minute > 0 and principal.key_id is not None:
        try:
            retry_after = await services.rate_limiter.hit(
                principal.key_id, auth.rate_limit_per_minute
            )
        except Exception:  # a limiter outage must not take the API down with it
            log.warning("rate limiter unavailable; request allowed", exc_info=True)
            retry_after = None
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
