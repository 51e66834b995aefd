"""The live hands' tokens (schema v7): batches of changes written in one transaction, read back by
table at start, old ones deleted, and forgotten with their server (both backends)."""

import asyncio
import logging
import time

from sqlalchemy import event

from conftest_store import GUILD, db  # noqa: F401

from bot.hand_tokens import TOKEN_SECONDS, HandTokens, KeptHand
from bot.store import forget_guild
from bot.writes import WriteGate


def kept(table_id: int, user_id: int, token: str, *, lent_at: float | None = None, guild_id: int = GUILD,
         message_id: int | None = 9000) -> KeptHand:
    return KeptHand(table_id, user_id, guild_id, 42, token, message_id, False,
                    time.time() if lent_at is None else lent_at)


async def test_the_newest_token_of_each_hand_is_kept_and_read_back_by_table(db):  # noqa: F811
    book = HandTokens(db, WriteGate())
    book.keep(kept(1, 10, "first"))
    book.keep(kept(1, 10, "second"))  # a click on the same hand lends a newer token
    book.keep(kept(1, 11, "other", message_id=None))
    book.keep(kept(2, 10, "elsewhere"))
    await book.flush()
    assert book.pending == 0
    rows = await book.take_up([1])
    assert {(r.user_id, r.token, r.message_id) for r in rows} == {(10, "second", 9000), (11, "other", None)}
    assert abs(rows[0].lent_at - time.time()) < 60  # UTC both ways, on both databases
    book.keep(kept(1, 10, "third"))
    await book.flush()
    assert {r.token for r in await book.take_up([1, 2])} == {"third", "other", "elsewhere"}


async def test_dropped_hands_and_closed_tables_are_deleted_and_a_drop_then_keep_keeps(db):  # noqa: F811
    book = HandTokens(db, WriteGate())
    for user in (10, 11, 12):
        book.keep(kept(1, user, f"t{user}"))
    book.keep(kept(2, 10, "two"))
    await book.flush()
    book.drop(1, 10)
    book.drop(1, 11)
    book.keep(kept(1, 11, "again"))  # retired, then opened again before the write
    book.table_closed(2)
    await book.flush()
    assert {(r.table_id, r.user_id, r.token) for r in await book.take_up([1, 2])} == {(1, 11, "again"), (1, 12, "t12")}


async def test_tokens_discord_has_expired_are_deleted_at_start(db):  # noqa: F811
    book = HandTokens(db, WriteGate())
    book.keep(kept(1, 10, "old", lent_at=time.time() - TOKEN_SECONDS - 1))
    book.keep(kept(1, 11, "young", lent_at=time.time() - 60))
    await book.flush()
    assert [r.token for r in await book.take_up([1])] == ["young"]
    assert [r.token for r in await book.take_up([1])] == ["young"]  # the old one is gone for good


async def test_changes_are_written_in_one_batch_by_the_writer_the_first_one_starts(db):  # noqa: F811
    book = HandTokens(db, WriteGate(), flush_seconds=0.05)
    book.keep(kept(1, 10, "a"))
    book.keep(kept(1, 11, "b"))
    assert book.pending == 2
    await asyncio.wait_for(book._writer, 10)  # the batch writer, started by the first change
    assert book.pending == 0 and len(await book.take_up([1])) == 2


async def test_a_forgotten_server_takes_its_tokens_with_it(db):  # noqa: F811
    book = HandTokens(db, WriteGate())
    book.keep(kept(1, 10, "mine"))
    book.keep(kept(2, 10, "theirs", guild_id=GUILD + 1))
    await book.flush()
    async with db.sessions() as session:
        await forget_guild(session, guild_id=GUILD)
    assert [r.token for r in await book.take_up([1, 2])] == ["theirs"]


async def test_a_write_is_not_cut_when_the_bot_stops_during_it(db, caplog):  # noqa: F811
    # The bot stopping cancels the batch writer; if that cut its transaction on aiosqlite's thread,
    # the connection kept SQLite's write lock outside the pool, and the stop's own write (and every
    # write after it) failed with "database is locked" after the busy timeout.
    book = HandTokens(db, WriteGate(), flush_seconds=0.01)
    book.keep(kept(1, 10, "during"))
    writer = book._writer

    def cancel_the_writer(connection):  # inside the batch's transaction, as it begins
        writer.cancel()

    event.listen(db.engine.sync_engine, "begin", cancel_the_writer, once=True)
    with caplog.at_level(logging.WARNING, "bot.hand_tokens"):
        await asyncio.gather(writer, return_exceptions=True)
        assert writer.cancelled()
        book.keep(kept(1, 11, "at the stop"))
        await book.close()
    assert [r.message for r in caplog.records] == []
    assert book.pending == 0
    assert {r.token for r in await book.take_up([1])} == {"during", "at the stop"}
