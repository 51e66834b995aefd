"""The live private hands' tokens, kept so that a start after a kill takes the hands back up.

A private hand message is edited through the webhook token of the click that last showed it
(valid for Discord's 15 minutes). A graceful stop marks every live hand as no longer following
the game while the tokens work; a killed process could not, and its hands went on claiming to
follow. Each live hand's token is kept in the store (``hand_tokens``): the next start edits every
hand whose token still works to the newest table, and it follows the game again.

A click lends a new token every time, so the changes are written in batches, one transaction
every `FLUSH_SECONDS` (5) at most (a write per click would double the bot's writes). A kill loses
at most those last seconds: a hand opened then is not taken up (its person is told in the
channel, as before); a newer click on a hand kept before changes nothing, since the older token
edits the same message.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from bot.store import Database, delete_hand_tokens_before, list_hand_tokens, save_hand_tokens
from bot.writes import WriteGate

log = logging.getLogger(__name__)
FLUSH_SECONDS = 5.0
"""Changes wait this long at most before they are written (one transaction for all of them, each
person's newest token only: a player clicks several times in it)."""
TOKEN_SECONDS = 15 * 60
"""Discord's interaction tokens work this long after the click that lent them."""


@dataclass(frozen=True, slots=True)
class KeptHand:
    """What edits one person's live private hand at a table."""

    table_id: int
    user_id: int
    guild_id: int
    application_id: int
    token: str
    message_id: int | None
    followup: bool
    lent_at: float
    """When the click lent the token (Unix time)."""

    def row(self) -> dict[str, object]:
        return dict(table_id=self.table_id, user_id=self.user_id, guild_id=self.guild_id,
                    application_id=self.application_id, token=self.token, message_id=self.message_id,
                    followup=self.followup, lent_at=datetime.fromtimestamp(self.lent_at, UTC))


class HandTokens:
    """The kept tokens: what changed since the last write, and the batch writer."""

    def __init__(self, db: Database, writes: WriteGate, clock=time.time, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.db = db
        self.writes = writes
        self.clock = clock
        self.flush_seconds = flush_seconds
        self._kept: dict[tuple[int, int], KeptHand] = {}
        self._dropped: set[tuple[int, int]] = set()
        self._closed: set[int] = set()
        self._writer: asyncio.Task | None = None
        """Waits `flush_seconds`, then writes."""
        self._writing: asyncio.Task | None = None
        """The write under way (its own task: see `flush`)."""
        self._stopping = False

    @property
    def pending(self) -> int:
        return len(self._kept) + len(self._dropped) + len(self._closed)

    def keep(self, hand: KeptHand) -> None:
        """`hand` is the person's live hand at its table now (it replaces the one kept before)."""
        key = (hand.table_id, hand.user_id)
        self._dropped.discard(key)
        self._kept[key] = hand
        self._soon()

    def drop(self, table_id: int, user_id: int) -> None:
        """The person has no live hand at this table now (retired, refused, or they left)."""
        key = (table_id, user_id)
        self._kept.pop(key, None)
        self._dropped.add(key)
        self._soon()

    def table_closed(self, table_id: int) -> None:
        """The table is over: none of its hands follows any more."""
        self._kept = {key: hand for key, hand in self._kept.items() if key[0] != table_id}
        self._dropped = {key for key in self._dropped if key[0] != table_id}
        self._closed.add(table_id)
        self._soon()

    def _soon(self) -> None:
        if self._stopping:
            return
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_later(), name="tonk-hand-tokens")

    async def _write_later(self) -> None:
        await asyncio.sleep(self.flush_seconds)
        await self.flush()

    async def flush(self) -> None:
        """Write what changed, now (one transaction, after the write under way). The database
        failing is logged, and the changes wait for the next write.

        The write runs in a task of its own, shielded: cancelling the caller (the bot stopping
        while the batch writer writes) does not cut it short. A transaction cut while it awaits
        aiosqlite's thread leaves that thread's connection inside BEGIN IMMEDIATE, holding SQLite's
        write lock, and outside the pool: every write after it waited out the busy timeout and
        failed with "database is locked"."""
        while self._writing is not None:
            await asyncio.shield(self._writing)
        if not self.pending:
            return
        kept, dropped, closed = self._kept, self._dropped, self._closed
        self._kept, self._dropped, self._closed = {}, set(), set()
        self._writing = asyncio.create_task(self._write(kept, dropped, closed), name="tonk-hand-tokens-write")
        await asyncio.shield(self._writing)

    async def _write(self, kept: dict[tuple[int, int], KeptHand], dropped: set[tuple[int, int]],
                     closed: set[int]) -> None:
        try:
            async with self.writes.exclusive(), self.db.sessions() as session:
                await save_hand_tokens(session, kept=[hand.row() for hand in kept.values()],
                                       dropped=dropped, tables_closed=closed)
        except (SQLAlchemyError, OSError) as exc:
            log.warning("could not keep the live hands' tokens (%s): trying again", type(exc).__name__)
            for key, hand in kept.items():  # what changed meanwhile is newer
                if key not in self._kept and key not in self._dropped:
                    self._kept[key] = hand
            self._dropped |= {key for key in dropped if key not in self._kept}
            self._closed |= closed
            self._soon()
        finally:
            self._writing = None

    async def close(self) -> None:
        """The bot stops: write what is left (after the write under way, which is not cut)."""
        self._stopping = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
        await self.flush()

    async def take_up(self, table_ids: list[int]) -> list[KeptHand]:
        """After a start: the kept hands of these tables whose tokens still work, oldest first.
        Tokens Discord has expired are deleted."""
        now = self.clock()
        async with self.writes.exclusive(), self.db.sessions() as session:
            await delete_hand_tokens_before(session, before=datetime.fromtimestamp(now - TOKEN_SECONDS, UTC))
        async with self.db.sessions() as session:
            rows = await list_hand_tokens(session, table_ids=table_ids)
        return [KeptHand(row.table_id, row.user_id, row.guild_id, row.application_id, row.token, row.message_id,
                         row.followup, row.lent_at.timestamp()) for row in rows]
