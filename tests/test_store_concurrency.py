"""Many hands finishing at once: no deadlock, every hand once, a zero-sum ledger (both backends)."""

import asyncio
import random
from collections import Counter
from datetime import UTC, datetime

import pytest
from conftest_store import GUILD, db, fake_hand, new_table  # noqa: F401 (db is a fixture)
from sqlalchemy import text

from bot.store import (
    LedgerEntry,
    PlayerRef,
    balance_total,
    is_retryable,
    record_finished_hand,
    save_table,
    write_retrying,
    write_transaction,
)

PLAYERS = [PlayerRef.human(500 + n, f"Regular {n}") for n in range(6)] + [PlayerRef.computer("Goblin")]
HANDS = 50
TOGETHER = 10  # hands that reach their ledger writes at the same moment


async def deadlocks(db):  # noqa: F811
    if db.dialect != "postgresql":
        return 0
    async with db.engine.connect() as connection:
        return (await connection.exec_driver_sql(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")).scalar()


async def test_fifty_hands_finishing_at_once_with_overlapping_players(db):  # noqa: F811
    rng = random.Random(11)
    tables = [await new_table(db, channel_id=1000 + n) for n in range(HANDS)]
    # The same players sit in different orders at different tables.
    seatings = [rng.sample(PLAYERS, rng.randint(2, 6)) for _ in range(HANDS)]
    hands = [fake_hand(rng, len(seating)) for seating in seatings]
    # SQLite has one writer at a time: there the hands queue for the write lock instead.
    together = asyncio.Barrier(TOGETHER if db.dialect == "postgresql" else 1)
    deadlocks_before = await deadlocks(db)

    async def finish(n: int) -> bool:
        # What the bot does when a hand ends: save the table, record the hand, one transaction.
        async with db.sessions() as session, write_transaction(session):
            await save_table(session, table_id=tables[n].id, expected_version=1, status="between_hands")
            await together.wait()  # every hand of the group holds its table row now
            record, result = hands[n]
            return await record_finished_hand(
                session, guild_id=GUILD, table_id=tables[n].id, hand_id=f"{tables[n].id}:1", record=record,
                result=result, players=seatings[n], stake=1, scoring_mode="stakes",
            )

    assert await asyncio.wait_for(asyncio.gather(*(finish(n) for n in range(HANDS))), 120) == [True] * HANDS
    assert await deadlocks(db) == deadlocks_before

    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        again = [
            await record_finished_hand(
                session, guild_id=GUILD, table_id=tables[n].id, hand_id=f"{tables[n].id}:1", record=hands[n][0],
                result=hands[n][1], players=seatings[n], stake=1, scoring_mode="stakes",
            )
            for n in range(HANDS)
        ]
    assert again == [False] * HANDS  # every hand once
    async with db.engine.connect() as connection:
        assert (await connection.exec_driver_sql("SELECT COUNT(*) FROM hands")).scalar() == HANDS
    async with db.sessions() as session:
        counted = {row.account: row.hands for row in (await session.exec(LedgerEntry.__table__.select())).all()}
    assert counted == dict(Counter(player.account for seating in seatings for player in seating))


async def test_a_deadlock_victim_is_run_again(postgres_server):
    from bot.store import open_database

    async with await open_database(postgres_server.new_database()) as database:
        async with database.engine.begin() as connection:
            for account in ("user:1", "user:2"):
                await connection.execute(
                    LedgerEntry.__table__.insert().values(guild_id=1, season=1, account=account, display_name=account,
                                                          updated_at=datetime.now(UTC)))
        locked = {"user:1": asyncio.Event(), "user:2": asyncio.Event()}
        runs = Counter()

        def bump(account):
            return text("UPDATE ledger SET hands = hands + 1 WHERE account = :account").bindparams(account=account)

        def crossing(first, second):
            async def work(session):
                runs[first] += 1
                await session.exec(bump(first))
                locked[first].set()
                await locked[second].wait()  # the other holds `second` and wants `first`
                await session.exec(bump(second))
            return work

        async def run(first, second):
            async with database.sessions() as session:
                await write_retrying(session, crossing(first, second))

        await asyncio.wait_for(asyncio.gather(run("user:1", "user:2"), run("user:2", "user:1")), 60)
        assert sorted(runs.values()) == [1, 2]  # one of the two was the victim and ran again
        async with database.engine.connect() as connection:
            hands = dict((await connection.exec_driver_sql("SELECT account, hands FROM ledger")).all())
        assert hands == {"user:1": 2, "user:2": 2}  # each transaction counted once


def test_only_serialization_failures_and_deadlocks_are_retried():
    from sqlalchemy.exc import DBAPIError, IntegrityError

    class Orig(Exception):
        def __init__(self, sqlstate):
            self.sqlstate = sqlstate

    assert is_retryable(DBAPIError("x", {}, Orig("40P01")))
    assert is_retryable(DBAPIError("x", {}, Orig("40001")))
    assert not is_retryable(IntegrityError("x", {}, Orig("23505")))
    assert not is_retryable(ValueError("40P01"))
