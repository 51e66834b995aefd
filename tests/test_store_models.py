"""Every model survives a write and a read in a fresh session, types and all."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from conftest_store import DECK, db  # noqa: F401 (db is a fixture)

from bot.store import GuildSettings, Hand, HandSeat, LedgerEntry, LiveTable, SeasonArchive
from bot.store.transactions import write_transaction

BIG_ID = 2**62 + 12345  # Discord ids are 64-bit
WHEN = datetime(2025, 6, 7, 8, 9, 10, 123456, tzinfo=UTC)


def examples():
    yield GuildSettings(
        guild_id=BIG_ID,
        rules={"preset": "washington", "hand_size": 7},
        stake=3,
        scoring_mode="pushups",
        turn_timer_seconds=30,
        table_channel_ids=[BIG_ID + 1, 5],
        season=4,
        season_started_at=WHEN,
        updated_at=WHEN,
    )
    yield LiveTable(
        id=9,
        guild_id=BIG_ID,
        channel_id=BIG_ID + 1,
        host_user_id=BIG_ID + 2,
        status="between_hands",
        seats=[
            {"kind": "human", "user_id": BIG_ID + 2, "name": "Elmo ♠", "level": None},
            {"kind": "computer", "user_id": None, "name": "Goblin", "level": "hard"},
        ],
        message_id=BIG_ID + 3,
        rules={"preset": "standard", "waiting": True},
        stake=2,
        scoring_mode="stakes",
        hand_number=17,
        dealer=1,
        engine_state='{"hands": [["As", "10h"]]}',
        bookkeeping={"timeouts": {"1": 2}, "hand_messages": {str(BIG_ID + 2): BIG_ID + 4}},
        version=31,
        created_at=WHEN,
        updated_at=WHEN + timedelta(minutes=5),
    )
    yield Hand(
        id=4,
        hand_id="9:17",
        guild_id=BIG_ID,
        table_id=9,
        finished_at=WHEN,
        outcome="caught",
        dropper=1,
        stake=2,
        scoring_mode="stakes",
        record={"format": "tonk-hand/1", "players": ["Elmo ♠", "Goblin"], "deck": DECK, "actions": []},
        result={"outcome": "caught", "winners": [0], "counts": [3, 3], "payments": [4, -4], "pushups": [0, 6], "dropper": 1},
        season=4,
    )
    yield HandSeat(hand_pk=4, seat=1, account="cpu:Goblin", display_name="Goblin", count=3, payment=-4, pushups=6, won=False)
    yield LedgerEntry(
        guild_id=BIG_ID, season=4, account=f"user:{BIG_ID + 2}", display_name="Elmo ♠", balance=-7, pushups=120,
        hands=40, wins=11, tonk_outs=2, catches=3, caught_drops=5, updated_at=WHEN,
    )
    yield SeasonArchive(guild_id=BIG_ID, season=3, started_at=None, ended_at=WHEN)


async def test_every_model_round_trips(db):  # noqa: F811
    originals = list(examples())
    async with db.sessions() as session, write_transaction(session):
        for model in originals:  # in foreign-key order
            session.add(model.model_copy())
            await session.flush()
    for original in originals:
        async with db.sessions() as session:
            key = original.__table__.primary_key.columns
            loaded = await session.get(type(original), tuple(getattr(original, column.name) for column in key))
            assert loaded is not None, type(original).__name__
            assert loaded.model_dump() == original.model_dump()


async def test_times_come_back_as_aware_utc_whatever_zone_went_in(db):  # noqa: F811
    tokyo = timezone(timedelta(hours=9))
    async with db.sessions() as session, write_transaction(session):
        session.add(SeasonArchive(guild_id=1, season=1, started_at=WHEN.astimezone(tokyo), ended_at=WHEN))
    async with db.sessions() as session:
        loaded = await session.get(SeasonArchive, (1, 1))
    assert loaded.started_at == WHEN and loaded.started_at.tzinfo == UTC


async def test_a_naive_time_is_refused(db):  # noqa: F811
    with pytest.raises(Exception, match="naive datetime"):
        async with db.sessions() as session, write_transaction(session):
            session.add(SeasonArchive(guild_id=1, season=1, ended_at=datetime(2025, 1, 1)))


async def test_none_in_a_json_column_is_sql_null(db):  # noqa: F811
    async with db.sessions() as session, write_transaction(session):
        session.add(GuildSettings(guild_id=1, table_channel_ids=None, updated_at=WHEN))
    async with db.engine.connect() as connection:
        raw = (await connection.exec_driver_sql("SELECT table_channel_ids IS NULL FROM guild_settings")).scalar()
    assert raw == 1
