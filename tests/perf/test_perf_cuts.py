"""What issue 31's profile cut, checked by what it does rather than by time: the problem-bank
search on Postgres runs outside a transaction (no BEGIN, no ROLLBACK round trips), and the
ASCII fast path of the same-problem check reads every text exactly as the general path."""

from __future__ import annotations

import string

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.resources import Resources
from app.retrieval.bank import ProblemBankRetriever, _canonical, same_text

NATALIA = (
    "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips "
    "in May. How many clips did Natalia sell altogether in April and May?"
)


@pytest.mark.parametrize(
    "text",
    [
        NATALIA,
        string.printable,
        "It costs $1,200.50; that's 25% off!? (x - 3) * 4 = 0.333... \"quoted\" 'a' b_c",
        "Tab\tand\nnew line; 3:45 p.m., 1,2 and .50 -- #1 @home ~`^{}[]|<>=+",
    ],
)
def test_the_ascii_fast_path_reads_as_the_general_one(text: str) -> None:
    # A no-break space (not ASCII) sends the same text down the general path; it reads as a
    # space, which the tokens drop.
    assert text.isascii()
    assert _canonical(text) == _canonical(text + "\u00a0")


def test_same_text_still_tells_a_changed_number() -> None:
    assert same_text(NATALIA, NATALIA.upper().replace(",", " , "))
    assert not same_text(NATALIA, NATALIA.replace("48", "4.8"))


async def test_bank_search_on_postgres_opens_no_transaction(services: Resources) -> None:
    url = services.settings.database.url
    if services.settings.database.is_sqlite:
        pytest.skip("the Postgres round trips")
    engine = create_async_engine(url)
    queries: list[str] = []

    searches: list[str] = []

    @event.listens_for(engine.sync_engine, "connect")
    def log_queries(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        # asyncpg logs the statements it sends as text (BEGIN is one), not prepared ones.
        dbapi_connection._connection.add_query_logger(lambda r: queries.append(r.query))

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def log_search(_conn, _cursor, statement, *_: object) -> None:  # type: ignore[no-untyped-def]
        searches.append(statement)

    try:
        retriever = ProblemBankRetriever(async_sessionmaker(engine, expire_on_commit=False))
        for _ in range(2):  # the second on a pooled connection whose isolation was reset
            examples = await retriever.similar(NATALIA, 3)
            assert examples[0].question == NATALIA and examples[0].same_problem
    finally:
        await engine.dispose()
    assert len([q for q in searches if "problem_bank" in q]) == 2
    assert not [q for q in queries if q.strip().upper().startswith("BEGIN")]
