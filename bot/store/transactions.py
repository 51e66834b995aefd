"""Transaction boundaries, and how SQLite is asked to start them.

SQLite allows one writer at a time. A transaction that starts with a read
(SQLite's default ``BEGIN DEFERRED``) and later writes can fail at once with
"database is locked" if another connection wrote in between, and the busy
timeout does not help. So every transaction that will write starts with
``BEGIN IMMEDIATE``: it takes the write lock first, waits for it under the busy
timeout, and then reads current data. Read-only transactions stay deferred, so
readers never wait for writers (WAL mode).

The engine's ``begin`` listener (see ``sqlite.py``) reads the mode from the
connection's execution option ``BEGIN_MODE_OPTION``; ``write_transaction`` sets it.
PostgreSQL ignores the option: its row locks let writers run side by side, and
``portable.write_retrying`` reruns a transaction it picks as a deadlock victim.

Every repository function runs in its own short transaction, committed when the
function returns, unless the session is already inside one: then the function
joins it and the caller commits. To group several writes atomically, open the
transaction with ``write_transaction`` yourself::

    async with sessions() as session, write_transaction(session):
        await save_table(session, table_id=..., expected_version=..., status="between_hands")
        await record_finished_hand(session, ...)

The store raises its refusals (``StaleTableError``, ``ChannelBusyError``...)
after its own transaction has committed, not by rolling back: SQLAlchemy
expires every object a session holds on rollback, and an expired attribute
cannot be loaded lazily under asyncio. Inside a caller's transaction, an error
rolls the caller's transaction back; reload what you need afterwards.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlmodel.ext.asyncio.session import AsyncSession

BEGIN_MODE_OPTION = "tonk_sqlite_begin"
"""Execution option naming the SQLite BEGIN mode: "DEFERRED" (default) or "IMMEDIATE"."""

IMMEDIATE = {BEGIN_MODE_OPTION: "IMMEDIATE"}


@asynccontextmanager
async def write_transaction(session: AsyncSession) -> AsyncIterator[AsyncSession]:
    """Run the block in a transaction that holds SQLite's write lock from its start.

    Commits when the block ends and rolls back if it raises. If the session is
    already in a transaction, the block joins it (commit stays the caller's job).
    """
    if session.in_transaction():
        yield session
        return
    async with session.begin():
        await session.connection(execution_options=IMMEDIATE)
        yield session


@asynccontextmanager
async def read_transaction(session: AsyncSession) -> AsyncIterator[AsyncSession]:
    """Run the block in a short read transaction, or join the caller's transaction.

    Ending the transaction after a read keeps a long-lived session from holding
    an old snapshot (and from blocking WAL checkpoints).
    """
    if session.in_transaction():
        yield session
        return
    async with session.begin():
        yield session
