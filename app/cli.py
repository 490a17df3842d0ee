"""`solveverify`: serve | worker | solve | db upgrade | bank load."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from app.settings import get_settings

app = typer.Typer(
    help="SolveVerify: solve K12 problems and verify the answers.", no_args_is_help=True
)
db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)
bank_app = typer.Typer(
    help="The problem bank used for retrieval and ground truth.", no_args_is_help=True
)
app.add_typer(db_app, name="db")
app.add_typer(bank_app, name="bank")


def _logging(level: str) -> None:
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(help="uvicorn worker processes.")] = 1,
) -> None:
    """Run the HTTP API (migrates the embedded SQLite database on start)."""
    import uvicorn

    settings = get_settings()
    _logging(settings.log_level)
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=settings.log_level.lower(),
    )


@app.command()
def worker() -> None:
    """Run the arq worker for background jobs (needs SOLVEVERIFY_REDIS_URL)."""
    from arq.worker import run_worker

    from app.worker.settings import worker_settings

    _logging(get_settings().log_level)
    run_worker(worker_settings())  # type: ignore[arg-type]


@app.command()
def solve(
    text: Annotated[str | None, typer.Option(help="The problem as text.")] = None,
    image: Annotated[
        Path | None,
        typer.Option(help="A PNG/JPEG photo of the problem.", exists=True, dir_okay=False),
    ] = None,
    subject: Annotated[str | None, typer.Option(help="Subject hint, e.g. math.")] = None,
    grade: Annotated[str | None, typer.Option(help="Grade hint, e.g. 7.")] = None,
) -> None:
    """Solve and verify one problem; print the SolutionResponse as JSON."""
    if not text and not image:
        raise typer.BadParameter("give --text or --image")
    settings = get_settings()
    _logging("WARNING")
    try:
        response = asyncio.run(_solve(settings, text, image, subject, grade))
    except ValueError as exc:
        typer.echo(
            json.dumps({"error": {"code": "unreadable_input", "message": str(exc)}}), err=True
        )
        raise typer.Exit(2) from exc
    typer.echo(response.model_dump_json(indent=2))


async def _solve(settings, text, image, subject, grade):  # type: ignore[no-untyped-def]
    from app.runtime import open_services
    from app.services.scans import UnreadableInput, solution_response, submit_scan

    async with open_services(settings) as services, services.sessionmaker() as session:
        try:
            scan, solution = await submit_scan(
                services,
                session,
                text=text,
                image=image.read_bytes() if image else None,
                subject=subject,
                grade=grade,
            )
        except UnreadableInput as exc:
            raise ValueError(exc.message) from exc
        await session.commit()
        await services.queue.enqueue(
            "deep_evaluate", str(solution.id), job_id=f"deep_evaluate:{solution.id}"
        )
        return solution_response(scan, solution)


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument()] = "head") -> None:
    """Apply migrations to SOLVEVERIFY_DATABASE_URL."""
    from app.db.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database.url, revision)
    typer.echo(f"database at revision {revision}")


@bank_app.command("load")
def bank_load(path: Annotated[Path | None, typer.Option(help="GSM8K-style JSONL.")] = None) -> None:
    """Load the problem bank if it is empty (the server also does this on start)."""
    from app.db.session import create_engine, create_sessionmaker
    from app.retrieval.bank import load_if_empty

    settings = get_settings()

    async def run() -> int:
        engine = create_engine(settings.database)
        try:
            return await load_if_empty(
                create_sessionmaker(engine), path or settings.retrieval.problem_bank_path
            )
        finally:
            await engine.dispose()

    typer.echo(f"loaded {asyncio.run(run())} problems")


if __name__ == "__main__":
    app()
