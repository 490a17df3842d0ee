"""Dependencies as Annotated aliases. The request's session is the request's transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.resources import Resources, unit_of_work


async def get_services(request: Request) -> Resources:
    # async: FastAPI runs a plain `def` dependency on a worker thread (a hop per request)
    services: Resources = request.app.state.services
    return services


ServicesDep = Annotated[Resources, Depends(get_services)]


async def get_session(services: ServicesDep) -> AsyncIterator[AsyncSession]:
    """The request owns the transaction: committed when the handler returns, rolled back when
    it raises. `scope="function"` ends it before the response is sent, so a 201 is never
    sent for rows that failed to commit."""
    async with unit_of_work(services) as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]
