"""Idempotency-Key with Stripe's semantics: the same key and body within the TTL replays the
first response; another body is a 409; a concurrent duplicate waits (bounded) for the first.

The claim is an INSERT on the unique (tenant, key) in its own short transaction, so whoever
inserts first runs the request and everyone else reads its stored response.

A claim is a lease, not a lock: a request that failed after claiming releases it, and if even
that fails (the database went away between the claim and the release, or the request's own
commit failed after its handler returned) the unfinished claim lapses `idempotency_claim_s`
after it was taken, longer than any request runs (sync requests answer 202 at their deadline),
and the next request with the key runs. Never a key stuck in 409 for its whole TTL."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, Protocol, get_args

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.errors import is_try_later
from app.db.models._columns import as_utc, utcnow
from app.db.transaction import transaction
from app.errors import DomainError
from app.idempotency.repository import IdempotencyRepository
from app.settings import Settings

# A key is 1-255 printable ASCII characters: no control byte, nothing that is not text.
IDEMPOTENCY_KEY_PATTERN = r"^[\x20-\x7e]+$"
log = logging.getLogger(__name__)
POLL_S = 0.1


class IdempotencyStore(Protocol):
    """What the keys use: the sessionmaker (each claim is its own short transaction, not the
    request's) and the settings (the API section's TTL, claim and wait times)."""

    @property
    def sessionmaker(self) -> async_sessionmaker[AsyncSession]: ...

    @property
    def settings(self) -> Settings: ...


@dataclass(frozen=True, slots=True)
class StoredResponse:
    status: int
    body: Any
    headers: dict[str, str]


ConflictCode = Literal["idempotency_key_reused", "idempotency_key_in_use"]


class IdempotencyConflict(DomainError):
    """The key was sent with another request, or its first request is still running."""

    status = 409
    codes = get_args(ConflictCode)

    def __init__(self, code: ConflictCode, message: str, retry_after_s: int | None = None) -> None:
        headers = {"Retry-After": str(retry_after_s)} if retry_after_s is not None else None
        super().__init__(message, code=code, headers=headers)


def fingerprint(*parts: bytes | str | None) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else (part or b"")
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()


def user_scoped(user_id: str | None, key: str) -> str:
    """The key as stored: a student token's keys are its user's alone (hashed with the user's
    id, so another user's same key is another key); a key's requests use the key as sent."""
    if user_id is None:
        return key
    return "user:" + fingerprint(user_id, key)


def tenant_scope(tenant: str | None) -> str:
    return tenant or ""  # the open mode's one tenant: '' keeps the unique constraint working


async def begin(
    services: IdempotencyStore, tenant: str | None, key: str, route: str, request_hash: str
) -> StoredResponse | None:
    """None: this request holds the key and must run. Otherwise the first response."""
    api = services.settings.api
    scope = tenant_scope(tenant)
    give_up = time.monotonic() + api.idempotency_wait_s
    while True:
        async with transaction(services.sessionmaker) as session:
            repo = IdempotencyRepository(session)
            now = utcnow()
            await repo.delete_older_than(
                scope,
                key,
                now - timedelta(seconds=api.idempotency_ttl_s),
                unfinished_before=now - timedelta(seconds=api.idempotency_claim_s),
            )
            claimed = await repo.claim(scope, key, route, request_hash)
            row = None if claimed else await repo.get(scope, key)
        if claimed:
            return None
        if row is None:
            continue  # released by a failed first request: try to claim it again
        if row.request_hash != request_hash or row.route != route:
            raise IdempotencyConflict(
                "idempotency_key_reused",
                "this Idempotency-Key was used with a different request; use a new key",
            )
        if row.completed_at is not None and row.status_code is not None:
            return StoredResponse(row.status_code, row.response_body, row.response_headers or {})
        if time.monotonic() > give_up:
            # When to ask again: the first request's answer, or its claim lapsing (its
            # process died), whichever comes first; never sooner than a second from now.
            lapses = as_utc(row.created_at) + timedelta(seconds=api.idempotency_claim_s)
            left = (lapses - utcnow()).total_seconds()
            raise IdempotencyConflict(
                "idempotency_key_in_use",
                "a request with this Idempotency-Key is still being processed; retry shortly",
                retry_after_s=max(1, min(math.ceil(left), math.ceil(api.sync_deadline_s))),
            )
        await asyncio.sleep(POLL_S)


async def release(services: IdempotencyStore, tenant: str | None, key: str) -> None:
    """The first request failed: free the key so a retry runs again. If the database fails
    this too, the claim lapses on its own (see the module docstring); the request's own error
    is what the caller must see, not this one's."""
    try:
        async with transaction(services.sessionmaker) as session:
            await IdempotencyRepository(session).release(tenant_scope(tenant), key)
    except Exception as exc:
        # The database away (the usual cause) is one line; anything else keeps its stack.
        log.warning(
            "idempotency key not released (it lapses after its claim time): %s",
            type(exc).__name__,
            exc_info=not is_try_later(exc),
        )
