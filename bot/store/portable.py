"""What differs between SQLite and PostgreSQL and is not SQL text: upserts and retries.

Both databases spell an upsert ``INSERT ... ON CONFLICT (...) DO NOTHING | DO
UPDATE SET col = excluded.col``, and SQLAlchemy's two dialect ``insert``
constructs share one API; ``insert_on_conflict`` picks the one of the session's
database, so the repository modules build each upsert once, without naming a
database. Generated ids come back with ``RETURNING`` on both (no ``lastrowid``).

PostgreSQL may abort a transaction that cannot be serialised or that took part
in a deadlock; the database asks for it to be run again. ``is_retryable`` tells
those errors apart (SQLSTATE 40001 and 40P01); ``write_retrying`` reruns a whole
write transaction a bounded number of times. The store avoids deadlocks in the
first place by taking row locks in one global order: a table's ``live_tables``
row first (the only one a hand's transaction updates), then its ``ledger`` rows
sorted by (server, season, account), whatever the seat order at that table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.exc import DBAPIError
from sqlmodel.ext.asyncio.session import AsyncSession

from .transactions import write_transaction

T = TypeVar("T")

_INSERTS: dict[str, Callable[[Any], Any]] = {"sqlite": sqlite_dialect.insert, "postgresql": postgresql.insert}
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected
WRITE_ATTEMPTS = 5


def dialect_name(session: AsyncSession) -> str:
    bind = session.bind
    assert bind is not None, "the store's sessions are bound to an engine"
    return bind.dialect.name


def insert_for(dialect: str, table: Any) -> Any:
    """``INSERT`` with ``on_conflict_do_nothing`` / ``on_conflict_do_update`` for ``dialect``."""
    try:
        return _INSERTS[dialect](table)
    except KeyError:
        raise NotImplementedError(f"the store runs on SQLite and PostgreSQL, not {dialect}") from None


def insert_on_conflict(session: AsyncSession, table: Any) -> Any:
    """``insert_for`` the session's database."""
    return insert_for(dialect_name(session), table)


def is_retryable(error: BaseException) -> bool:
    """A serialization failure or deadlock victim: the database asks for the transaction again."""
    if not isinstance(error, DBAPIError):
        return False
    original = error.orig
    code = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    return code in RETRYABLE_SQLSTATES


async def write_retrying(
    session: AsyncSession,
    work: Callable[[AsyncSession], Awaitable[T]],
    *,
    attempts: int = WRITE_ATTEMPTS,
) -> T:
    """``await work(session)`` in a write transaction, run again on a retryable error.

    At most ``attempts`` runs, with a short growing pause; the last error is
    raised. If the session is already in a transaction, ``work`` joins it once
    and retrying is the job of whoever opened it. ``work`` must only write
    through the session (it may run more than once).
    """
    if session.in_transaction():
        return await work(session)

    async def transaction() -> T:
        async with write_transaction(session):
            return await work(session)

    return await retrying(transaction, attempts=attempts)


async def retrying(attempt: Callable[[], Awaitable[T]], *, attempts: int = WRITE_ATTEMPTS) -> T:
    """``await attempt()`` (a whole transaction), again on a retryable error, at most ``attempts`` times."""
    for number in range(1, attempts + 1):
        try:
            return await attempt()
        except DBAPIError as error:
            if number == attempts or not is_retryable(error):
                raise
            await asyncio.sleep(0.01 * 2**number)
    raise AssertionError("unreachable")
