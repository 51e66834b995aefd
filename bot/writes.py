"""Who may write to the database now: many one-statement saves at once, or one transaction alone.

A table's save after a play is one UPDATE (bot/store/tables.py `save_table_version`): on SQLite one
call on aiosqlite's thread, atomic by itself, holding SQLite's write lock for a fraction of a
millisecond inside that call. Such saves are *shared*: any number may be in flight, and the
database orders them. Queueing them one at a time behind an asyncio lock, as the bot did, held the
lock across the event loop's latency as well (the loop must come round to resume the saver): at 200
busy tables that was 3-5 ms a save with the database idle, and clicks queued for 100-350 ms behind
each other's saves.

A transaction of several statements (a finished hand and its ledger rows, a new table, forgetting
a server) holds the database's lock across awaits. It is *exclusive*: it waits until the shared
saves in flight have landed, and no shared save starts while it waits or runs, so none of them
meets SQLite's busy handler (which sleeps in steps of up to 100 ms) and, on PostgreSQL, two hands'
ledger rows never deadlock each other. Waiting is first come, first served.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


SHARED_LIMIT = 4
"""Shared saves in flight at once, at most. Each needs a pooled connection of its own (on SQLite
a thread, with its own page cache): at 200 busy tables saves rarely overlap by more than this,
and the connections kept warm stay few (memory per table)."""


class WriteGate:
    def __init__(self, shared_limit: int = SHARED_LIMIT) -> None:
        self._slots = asyncio.Semaphore(shared_limit)
        self._door = asyncio.Lock()
        """Held by an exclusive writer while it waits for the shared ones to land and while it writes;
        a shared writer passes through it, so it queues behind any exclusive writer before it."""
        self._shared = 0
        self._landed = asyncio.Event()
        self._landed.set()

    @property
    def shared_in_flight(self) -> int:
        return self._shared

    @contextlib.asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        """A one-statement save: alongside other shared saves (`SHARED_LIMIT` at once), never during an
        exclusive write."""
        async with self._door:
            self._shared += 1  # counted from here: an exclusive writer after it waits for it to land
            self._landed.clear()
        try:
            async with self._slots:
                yield
        finally:
            self._shared -= 1
            if self._shared == 0:
                self._landed.set()

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """A transaction of several statements: alone."""
        async with self._door:
            await self._landed.wait()
            yield
