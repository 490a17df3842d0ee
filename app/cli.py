"""`solveverify`: serve | worker | solve | check | db | bank | keys | providers | calibrate |
dashboard-link, and the commands of installed plugins (`bench`, from solveverify-bench).

Each command imports what it runs inside its function, on purpose: `solveverify --help`, a
mistyped option and `db upgrade` answer at once, without loading the model SDKs, LangGraph,
sympy, OCR or the database layer that only `serve`, `solve` or `check` need. None of these
imports dodges an import circle (tests/test_layering.py)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from app.auth.cli import keys_app
from app.settings import Settings, get_settings

if TYPE_CHECKING:
    from collections.abc import Iterable

    from app.checks.schemas import CheckResponse
    from app.llm.base import ModelClient
    from app.scans.schemas import SolutionResponse

app = typer.Typer(
    help="SolveVerify: solve K12 problems and verify the answers.", no_args_is_help=True
)
db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)
bank_app = typer.Typer(
    help="The problem bank used for retrieval and ground truth.", no_args_is_help=True
)
app.add_typer(db_app, name="db")
app.add_typer(bank_app, name="bank")
app.add_typer(keys_app, name="keys")

# Command groups other distributions add: each entry point of this group names a Typer app,
# added under the entry point's name. The product never imports them (the import contracts),
# so a plain `pip install .` and the server image run without them.
PLUGIN_GROUP = "solveverify.commands"
# The plugins this repository ships (name -> distribution), for a hint when one is missing.
KNOWN_PLUGINS = {"bench": "solveverify-bench (`pip install -e ./bench` in the repository)"}


def add_plugins(cli: typer.Typer, plugins: Iterable[EntryPoint]) -> None:
    """Add each plugin's commands; a known plugin that is not installed gets a command that
    says how to install it instead of typer's "No such command"."""
    added: set[str] = set()
    for plugin in plugins:
        cli.add_typer(plugin.load(), name=plugin.name)
        added.add(plugin.name)
    for name, distribution in KNOWN_PLUGINS.items():
        if name not in added:
            _add_install_hint(cli, name, distribution)


def _add_install_hint(cli: typer.Typer, name: str, distribution: str) -> None:
    hint = f"`solveverify {name}` is not installed: it comes with {distribution}."

    @cli.command(
        name,
        help=f"Not installed: comes with {distribution}.",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        add_help_option=False,
    )
    def install_hint() -> NoReturn:
        typer.echo(hint, err=True)
        raise typer.Exit(1)


add_plugins(app, entry_points(group=PLUGIN_GROUP))


def _logging(level: str) -> None:
    from app.logs import configure_logging

    configure_logging(level)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1, help="Server processes (default: the CPU count on Postgres, 1 on SQLite)."
        ),
    ] = None,
) -> None:
    """Run the HTTP API (migrates the embedded SQLite database on start)."""
    # Exec, not call: the server is a fresh process that never loads the other commands.
    args = ["--host", host, "--port", str(port)]
    if workers is not None:
        args += ["--workers", str(workers)]
    os.execv(sys.executable, [sys.executable, "-m", "app.server", *args])


@app.command()
def worker() -> None:
    """Run the arq worker for background jobs (needs SOLVEVERIFY_REDIS_URL). On an external
    database it starts only at the migration head; on SIGTERM it finishes its jobs (up to
    SOLVEVERIFY_WORKER_SHUTDOWN_GRACE_S) before it exits."""
    from app.logs import configure_logging
    from app.process import exit_unless_at_head
    from app.worker.runner import run_worker_resilient
    from app.worker.settings import worker_settings

    settings = get_settings()
    configure_logging(settings.log_level, settings.log_format)
    exit_unless_at_head(settings)
    if settings.metrics.enabled and settings.metrics.worker_port is not None:
        from app.metrics import serve_metrics

        token = settings.metrics.token
        serve_metrics(
            settings.metrics.worker_host,
            settings.metrics.worker_port,
            token.get_secret_value() if token is not None else None,
        )
    run_worker_resilient(
        worker_settings(), settings.worker.redis_retry_max_s, settings.worker.shutdown_grace_s
    )


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
    from app.errors import DomainError

    if not text and not image:
        raise typer.BadParameter("give --text or --image")
    settings = get_settings()
    _logging("WARNING")
    try:
        image_bytes = _read_image(image, settings) if image else None
        response = asyncio.run(_solve(settings, text, image_bytes, subject, grade))
    except DomainError as exc:  # a refusal the API answers (no problem read, a bad image)
        _fail(exc.code, exc.message)
    typer.echo(response.model_dump_json(indent=2))


async def _solve(
    settings: Settings,
    text: str | None,
    image: bytes | None,
    subject: str | None,
    grade: str | None,
) -> SolutionResponse:
    from app.resources import open_resources, unit_of_work
    from app.scans.service import solution_response, submit_scan

    async with open_resources(settings) as resources:
        async with unit_of_work(resources) as session:
            scan, solution = await submit_scan(
                resources, session, text=text, image=image, subject=subject, grade=grade
            )
        # With Redis the jobs go to the workers now; without it they wait in the outbox for
        # the next `serve` (in-process jobs would die with this process).
        if resources.settings.redis.url:
            await resources.outbox.drain()
        return solution_response(scan, solution)


providers_app = typer.Typer(help="Configured model providers.", invoke_without_command=True)
app.add_typer(providers_app, name="providers")


@providers_app.callback()
def providers(ctx: typer.Context) -> None:
    """List configured providers, their model per tier, and budget use."""
    if ctx.invoked_subcommand is None:
        asyncio.run(_providers(check=False))


@providers_app.command("check")
def providers_check() -> None:
    """Make one tiny call to each provider's models and report the latency."""
    asyncio.run(_providers(check=True))


async def _providers(check: bool) -> None:
    from contextlib import AsyncExitStack

    from app.llm.resilience import Resilient
    from app.providers import open_providers

    settings = get_settings()
    _logging("WARNING")
    async with AsyncExitStack() as stack:
        _, budget, registry = await open_providers(settings, stack)
        for name in registry.order:
            provider = registry.providers[name]
            typer.echo(f"{name}  [{', '.join(sorted(provider.capabilities))}]")
            seen: set[int] = set()
            for tier, client in provider.tiers.items():
                line = f"  {tier:<9} {client.model}"
                if isinstance(client, Resilient) and not client.limits.unlimited:
                    state = await budget.state(client.budget_key, client.limits)
                    line += (
                        f"   budget: {state.used_minute}/{client.limits.rpm or '∞'} per min, "
                        f"{state.used_day}/{client.limits.rpd or '∞'} per day"
                    )
                if check and id(client) not in seen:
                    seen.add(id(client))
                    line += "   " + await _ping(client)
                typer.echo(line)


async def _ping(client: ModelClient) -> str:
    import time

    from app.llm.errors import CannotAnswer, ProviderError
    from app.llm.outputs import SolveOutput, schema_of
    from app.llm.types import Message

    started = time.perf_counter()
    try:
        await client.generate(
            [Message("user", "<problem>\n1+1\n</problem>\nReply with the JSON answer.")],
            json_schema=schema_of(SolveOutput),
            max_tokens=64,
            timeout=30,
        )
    except CannotAnswer:
        return f"ok (local, {1000 * (time.perf_counter() - started):.0f} ms)"
    except ProviderError as exc:
        return f"FAILED: {exc}"
    return f"ok ({1000 * (time.perf_counter() - started):.0f} ms)"


@app.command()
def calibrate(
    min_samples: Annotated[int, typer.Option(help="Fewest validated outcomes to fit on.")] = 50,
) -> None:
    """Refit the calibrator (written to SOLVEVERIFY_VERIFY_CALIBRATION_PATH or
    ./calibration.json) from answers that consensus checks validated."""
    from contextlib import AsyncExitStack

    from app.calibration.tasks import recalibrate
    from app.worker.context import JOB_CONTEXT_KEY, open_job_context
    from app.worker.queue import InProcessQueue
    from app.worker.tasks import TASKS

    settings = get_settings()

    async def run() -> str:
        async with AsyncExitStack() as stack:
            queue = InProcessQueue(TASKS)
            stack.push_async_callback(queue.close)
            jobs = await open_job_context(settings, stack, queue)
            queue.bind(jobs)
            return await recalibrate({JOB_CONTEXT_KEY: jobs}, min_samples)

    typer.echo(asyncio.run(run()))


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument()] = "head") -> None:
    """Apply migrations to SOLVEVERIFY_DATABASE_URL."""
    from app.db.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database.url, revision)
    typer.echo(f"database at revision {revision}")


SOURCE_NAME_MAX = 32  # problem_bank.source


@bank_app.command("load")
def bank_load(
    path: Annotated[
        Path | None,
        typer.Option(help="GSM8K-style JSONL loaded into an empty bank (default: GSM8K train)."),
    ] = None,
    add: Annotated[
        Path | None,
        typer.Option(
            "--add",
            help="An operator's own bank beside it: GSM8K-style JSONL, one {question, answer} "
            "a line, the answer ending in '#### <final answer>'. A wording already in the bank "
            "is skipped. A running server counts the new words at its next start.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(help="The name the added problems are stored under (with --add)."),
    ] = None,
) -> None:
    """Load the problem bank if it is empty (the server also does this on start); with --add,
    add an operator's own problems beside it."""
    from app.db.capabilities import capabilities
    from app.db.migrate import upgrade_async
    from app.db.session import open_sessionmaker
    from app.retrieval.bank import add_bank, load_if_empty

    if (add is None) != (source is None):
        raise typer.BadParameter("--add and --source go together")
    if source is not None and not 0 < len(source.strip()) <= SOURCE_NAME_MAX:
        raise typer.BadParameter(f"--source: a name of 1 to {SOURCE_NAME_MAX} characters")
    settings = get_settings()

    async def run() -> tuple[int, int]:
        if capabilities(settings.database).embedded:  # it migrates itself, as `serve`
            await upgrade_async(settings.database.url)
        async with open_sessionmaker(settings.database) as sessionmaker:
            loaded = await load_if_empty(sessionmaker, path or settings.retrieval.problem_bank_path)
            added = 0
            if add is not None and source is not None:
                added = await add_bank(sessionmaker, add, source.strip())
            return loaded, added

    try:
        loaded, added = asyncio.run(run())
    except (ValueError, KeyError, TypeError) as exc:  # not JSON, no question, no "####"
        _fail("bad_bank_file", f"{add}: {exc}")
    typer.echo(f"loaded {loaded} problems")
    if add is not None:
        typer.echo(f"added {added} problems from {add} as {source}")


@app.command()
def check(
    answer: Annotated[str, typer.Option(help="The answer to check.")],
    problem: Annotated[str | None, typer.Option(help="The problem as text.")] = None,
    image: Annotated[
        Path | None,
        typer.Option(help="A PNG/JPEG photo of the problem.", exists=True, dir_okay=False),
    ] = None,
    step: Annotated[
        list[str] | None,
        typer.Option(help="One of the student's worked steps, in order (repeat the option)."),
    ] = None,
    work_image: Annotated[
        Path | None,
        typer.Option(
            help="A PNG/JPEG photo of the student's worked steps, one per line (instead of "
            "--step; the problem then comes as --problem).",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Check an answer to a problem; print {verdict: correct|incorrect|unknown, …} as JSON.
    With --step, also the first wrong step and a verdict per step."""
    from pydantic import ValidationError

    from app.api.errors import invalid_request
    from app.checks.schemas import CheckCreate
    from app.errors import DomainError

    if not problem and not image:
        _fail("invalid_request", "give --problem or --image")
    if work_image is not None and (step or not problem):
        _fail("invalid_request", "--work-image goes with --problem and without --step")
    settings = get_settings()
    _logging("WARNING")
    try:
        # The same limits as POST /v1/checks (an image stands in for the problem text).
        body = CheckCreate(problem=problem or "(image)", answer=answer, steps=step or None)
        image_bytes = _read_image(image, settings) if image else None
        work = _read_image(work_image, settings) if work_image else None
        response = asyncio.run(
            _check(settings, body.answer, problem, image_bytes, body.steps, work)
        )
    except ValidationError as exc:
        error = invalid_request(exc.errors(include_input=False))
        _fail(error.code, error.message)
    except DomainError as exc:  # what POST /v1/checks refuses: no problem read, a bad image
        _fail(exc.code, exc.message)
    typer.echo(json.dumps(response.public(), indent=2, ensure_ascii=False))


@app.command("dashboard-link")
def dashboard_link(
    minutes: Annotated[
        int | None,
        typer.Option(min=1, max=24 * 60, help="How long the link works (default: the TTL)."),
    ] = None,
    base_url: Annotated[str, typer.Option(help="Where the server is reached.")] = (
        "http://127.0.0.1:8000"
    ),
) -> None:
    """Print a link that opens /dashboard in a browser, signed and expiring (no key needed)."""
    from urllib.parse import quote

    from app.auth import dashboard_tokens

    settings = get_settings()
    api = settings.api
    secret = (
        api.dashboard_secret.get_secret_value()
        if api.dashboard_secret is not None
        else _stored_dashboard_secret(settings)
    )
    if secret is None:
        _fail(
            "no_dashboard_secret",
            "set SOLVEVERIFY_API_DASHBOARD_SECRET (the servers' value), or run this where "
            "SOLVEVERIFY_DATABASE_URL names the servers' database (they keep one there)",
        )
    ttl_s = minutes * 60 if minutes is not None else api.dashboard_link_ttl_s
    token = dashboard_tokens.sign(secret, ttl_s)
    # In the fragment: browsers never send it, so the token is in no server or proxy log.
    typer.echo(f"{base_url.rstrip('/')}/dashboard#token={quote(token)}")


def _stored_dashboard_secret(settings: Settings) -> str | None:
    """The servers' secret kept in their database (the first one to need it made it), or None
    when there is no such database here: no SQLite file, or a database not at the head."""
    from app.auth.stored_secrets import DASHBOARD_SECRET_NAME, StoredSecret
    from app.db.capabilities import embedded_file_missing
    from app.db.session import open_sessionmaker

    database = settings.database
    if embedded_file_missing(database.url):
        return None  # not where a server keeps its database: creating one would help nobody

    async def read() -> str:
        async with open_sessionmaker(database) as sessionmaker:
            return await StoredSecret(sessionmaker, DASHBOARD_SECRET_NAME).get()

    try:
        return asyncio.run(read())
    except Exception:  # unreachable, or no signing_secrets table (not migrated)
        return None


def _read_image(path: Path, settings: Settings) -> bytes:
    """The file's bytes, refused as an upload of it would be (not an image, too many
    pixels, too large)."""
    from app.api.errors import ApiError
    from app.api.uploads import inspect_image

    limits = settings.input
    data = path.read_bytes()
    if len(data) > limits.max_upload_bytes:
        raise ApiError(
            413,
            "payload_too_large",
            f"image is larger than the {limits.max_upload_bytes // (1024 * 1024)} MB limit",
        )
    inspect_image(
        data,
        max_pixels=limits.max_image_pixels,
        max_aspect_ratio=limits.max_image_aspect_ratio,
        max_segments=limits.max_image_segments,
    )
    return data


def _fail(code: str, message: str) -> NoReturn:
    typer.echo(json.dumps({"error": {"code": code, "message": message}}), err=True)
    raise typer.Exit(2)


async def _check(
    settings: Settings,
    answer: str,
    problem: str | None,
    image: bytes | None,
    steps: list[str] | None = None,
    work_image: bytes | None = None,
) -> CheckResponse:
    from app.checks.service import check_answer, read_work
    from app.resources import open_resources

    async with open_resources(settings) as services:
        if work_image is not None:
            steps = await read_work(services, work_image)
        return await check_answer(
            services, answer=answer, problem=problem, image=image, steps=steps
        )


if __name__ == "__main__":
    app()
