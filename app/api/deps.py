"""Dependencies as Annotated aliases. The request's session is the request's transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.resources import Resources


def get_services(request: Request) -> Resources:
    return request.app.state.services


ServicesDep = Annotated[Resources, Depends(get_services)]


async def get_session(services: ServicesDep) -> AsyncIterator[AsyncSession]:
    # Uncommitted work is rolled back when the session closes (errors, early returns).
    async with services.sessionmaker() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
