"""Authentication, tenants and rate limits as dependencies.

`Caller` is the principal of the request: a key's tenant and role, the one user a per-student
token acts for (app/auth/student_tokens.py), or, on a server running without
`SOLVEVERIFY_AUTH_REQUIRED`, the anonymous tenant. Credentials come in the Authorization
header; only the event stream (`StreamCaller`) also takes a per-student token from the
`access_token` query parameter, because a browser's EventSource cannot send headers. An API
key is never taken from a URL (access logs, proxies and browser history keep URLs): one in
any query parameter is refused. `get_analyst` (the analytics routers' dependency) needs the
analyst role whenever auth is required; `KeyHolder` (minting tokens) needs a key, not a token.
"""

from __future__ import annotations

import logging
import math
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer

from app.api.deps import ServicesDep
from app.api.errors import ApiError, sent_more_than_once
from app.auth import student_tokens
from app.auth.keys import ANONYMOUS, Principal
from app.auth.service import TokenRefusal
from app.errors import Forbidden
from app.resources import Resources

log = logging.getLogger(__name__)

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="A tenant's API key (`solveverify keys create --tenant NAME`), for the "
    "tenant's servers; or a per-student token (`POST /v1/tokens`, `svt_...`), for browsers "
    "and phones: it acts for one user only and expires.",
)
access_token_query = APIKeyQuery(
    name="access_token",
    auto_error=False,
    scheme_name="accessTokenQuery",
    description="A per-student token in the query string, for `EventSource` (browsers cannot "
    "send headers with it); only the event stream takes it. Never an API key: a key in a URL "
    "is refused (401 `api_key_in_url`). Access logs show `access_token=[redacted]`.",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
QueryToken = Annotated[str | None, Depends(access_token_query)]
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
    remembers both valid and unknown keys (app/auth/service.py)."""
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


async def authenticate_token_or_refuse(
    request: Request, services: Resources, token: str
) -> Principal:
    """The user a per-student token acts for; else 401 (`token_expired` for one of ours that
    has expired, `invalid_token` otherwise), or 429 once this address failed too often. An
    expired token is not counted as a failure: it was ours, nothing was guessed."""
    found = await services.authenticator.token_principal(token)
    if isinstance(found, Principal):
        return found
    if found is TokenRefusal.expired:
        raise ApiError(
            401,
            "token_expired",
            "the token has expired: the app's backend mints a new one (POST /v1/tokens)",
            headers=_CHALLENGE,
        )
    retry_after = await count_failed_auth(request, services)
    if retry_after is not None:
        raise _too_many_failures(services.settings.auth.failed_auth_per_minute, retry_after)
    raise ApiError(
        401,
        "invalid_token",
        "the token is invalid, or the API key that minted it was revoked",
        headers=_CHALLENGE,
    )


async def _caller(request: Request, services: Resources, credential: str | None) -> Principal:
    if len(request.headers.getlist("authorization")) > 1:
        raise sent_more_than_once(["Authorization"])  # which one acts? Not the first silently
    auth = services.settings.auth
    if credential is None:
        if auth.required:
            raise ApiError(
                401,
                "unauthorized",
                "this server needs an API key: send 'Authorization: Bearer <key>'",
                headers=_CHALLENGE,
            )
        return ANONYMOUS
    if student_tokens.looks_like_token(credential):
        principal = await authenticate_token_or_refuse(request, services, credential)
    else:
        principal = await authenticate_or_refuse(request, services, credential)
    if auth.rate_limit_per_minute > 0 and principal.key_id is not None:
        # A token's requests count on their own: one student cannot use up the school's
        # limit, nor another student's.
        bucket = principal.key_id
        if principal.user_id is not None:
            bucket = f"{principal.key_id}/user/{principal.user_id}"
        # Never fails open: without Redis the limiter counts in memory (app/auth/ratelimit.py).
        limit = auth.rate_limit_per_minute
        count, reset_in = await services.rate_limiter.count(bucket)
        # RateLimit-* headers on every response of this request (app/api/rate_headers.py).
        request.state.rate_limit = (limit, max(0, limit - count), math.ceil(reset_in))
        retry_after = None if count <= limit else max(1.0, math.ceil(reset_in))
        if retry_after is not None:
            holder = "token" if principal.is_student_token else "key"
            raise ApiError(
                429,
                "rate_limited",
                f"more than {auth.rate_limit_per_minute} requests a minute with this {holder}",
                headers={"Retry-After": str(int(retry_after))},
            )
    return principal


async def get_caller(
    request: Request, services: ServicesDep, credentials: Credentials
) -> Principal:
    return await _caller(request, services, credentials.credentials if credentials else None)


Caller = Annotated[Principal, Depends(get_caller)]


async def get_stream_caller(
    request: Request, services: ServicesDep, credentials: Credentials, access_token: QueryToken
) -> Principal:
    """The event stream's caller: the Authorization header, else a per-student token in
    `access_token` (never a key: refused before anything else, as in any query parameter)."""
    if credentials is not None:
        return await _caller(request, services, credentials.credentials)
    if access_token is not None and not student_tokens.looks_like_token(access_token):
        # Nothing but a token is taken from a URL (a key there was refused by
        # app/api/url_guard.py); not a token is a failed attempt.
        return await authenticate_token_or_refuse(request, services, access_token)
    return await _caller(request, services, access_token)


StreamCaller = Annotated[Principal, Depends(get_stream_caller)]


async def get_key_holder(caller: Caller) -> Principal:
    """A tenant's API key (minting tokens): a token cannot mint more, nobody mints without
    a key (not even on an open server, whose anonymous caller has no tenant to bind)."""
    if caller.is_student_token:
        raise Forbidden(
            "a student token cannot mint tokens: the app's backend mints them with the "
            "tenant's API key",
        )
    if caller.key_id is None or caller.tenant is None:
        raise ApiError(
            401,
            "unauthorized",
            "minting a token needs the tenant's API key: send 'Authorization: Bearer <key>'",
            headers=_CHALLENGE,
        )
    return caller


KeyHolder = Annotated[Principal, Depends(get_key_holder)]


def acting_user(caller: Principal, requested: str | None) -> str | None:
    """The end user a request acts for: a token's own user (naming another one is a 403),
    else whichever the key's request names (None: every user of the tenant)."""
    if caller.user_id is None:
        return requested
    if requested is not None and requested != caller.user_id:
        raise Forbidden(
            "a student token acts for its own user only: leave user_id out or send the token's own",
        )
    return caller.user_id


async def open_to_anonymous(services: Resources) -> bool:
    """Whether callers without a key see every tenant's analytics and the dashboard: an open
    server is one anonymous tenant's until keys are made; then it holds keyed tenants' data,
    which its anonymous callers must not read."""
    auth = services.settings.auth
    return not auth.required and not await services.authenticator.keys_exist()


async def get_analyst(caller: Caller, services: ServicesDep) -> Principal:
    if caller.is_student_token:
        raise Forbidden("a student token cannot read analytics")
    if caller.is_analyst:
        return caller
    if caller is ANONYMOUS and not services.settings.auth.required:
        if await open_to_anonymous(services):
            return caller
        raise Forbidden(
            "this server has API keys: analytics need a key with the analyst role"
            " (and SOLVEVERIFY_AUTH_REQUIRED=true keeps every caller keyed)"
        )
    raise Forbidden("analytics need an API key with the analyst role")


Analyst = Annotated[Principal, Depends(get_analyst)]


def analytics_tenant(analyst: Principal, requested: str | None) -> str | None:
    """The tenant an analyst's analytics cover (None: every tenant). A platform key, or the
    open server's anonymous caller, sees every tenant or the one it asks for; an analyst key
    sees its own tenant only, and asking for another is a 403."""
    if analyst.sees_every_tenant or analyst is ANONYMOUS:
        return requested
    if requested is not None and requested != analyst.tenant:
        raise Forbidden("an analyst key sees its own tenant's analytics only")
    return analyst.tenant
