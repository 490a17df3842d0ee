"""`solveverify keys create|revoke|list`: API keys, stored hashed; a new key is printed once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from app.auth.keys import ROLES, new_key
from app.settings import get_settings

if TYPE_CHECKING:
    from app.auth.key_repository import ApiKeyRepository
    from app.db.models import ApiKey

T = TypeVar("T")

keys_app = typer.Typer(help="API keys (one tenant per key).", no_args_is_help=True)


async def _in_session(work: Callable[[ApiKeyRepository], Awaitable[T]]) -> T:
    from app.auth.key_repository import ApiKeyRepository
    from app.db.capabilities import capabilities
    from app.db.migrate import upgrade_async
    from app.db.session import open_sessionmaker

    database = get_settings().database
    if capabilities(database).embedded:  # the embedded database may not exist yet
        await upgrade_async(database.url)
    async with open_sessionmaker(database) as sessionmaker, sessionmaker() as session:
        result = await work(ApiKeyRepository(session))
        await session.commit()
        return result


@keys_app.command("create")
def create(
    tenant: Annotated[str, typer.Option(help="The tenant this key acts for.")],
    role: Annotated[str, typer.Option(help=f"One of: {', '.join(ROLES)}.")] = "student",
    label: Annotated[str | None, typer.Option(help="A note, e.g. who holds the key.")] = None,
) -> None:
    """Create a key and print it. It is shown once: only its hash is stored."""
    if role not in ROLES:
        raise typer.BadParameter(f"role must be one of {', '.join(ROLES)}")
    if not tenant.strip() or len(tenant) > 64:
        raise typer.BadParameter("tenant must be 1 to 64 characters")
    key = new_key()

    async def work(repo: ApiKeyRepository) -> None:
        repo.add(key, tenant=tenant.strip(), role=role, label=label)

    asyncio.run(_in_session(work))
    typer.echo(key.key)
    typer.echo(f"key id {key.id}, tenant {tenant}, role {role}: store it now", err=True)


@keys_app.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="The key id (see `keys list`).")]) -> None:
    """Revoke a key; servers stop accepting it within SOLVEVERIFY_AUTH_KEY_CACHE_S."""

    async def work(repo: ApiKeyRepository) -> bool:
        return await repo.revoke(key_id)

    if not asyncio.run(_in_session(work)):
        typer.echo(f"no active key {key_id}", err=True)
        raise typer.Exit(1)
    typer.echo(f"revoked {key_id}")


@keys_app.command("list")
def list_keys() -> None:
    """Key ids, tenants, roles and state (never the keys)."""

    async def work(repo: ApiKeyRepository) -> list[ApiKey]:
        return await repo.list()

    for row in asyncio.run(_in_session(work)):
        state = f"revoked {row.revoked_at:%Y-%m-%d}" if row.revoked_at else "active"
        typer.echo(f"{row.id}  {row.tenant}  {row.role}  {state}  {row.label or ''}".rstrip())
