"""The database: URL, SQLite settings on every connection, schema versions and migration."""

import asyncio
import json
import sqlite3

import pytest
from conftest_store import DECK, db, sqlite_url  # noqa: F401 (db is a fixture)

from bot.store import (
    DEFAULT_DATABASE_URL,
    LATEST_VERSION,
    player_stats,
    player_stats_from_hands,
    GuildSettings,
    Hand,
    HandSeat,
    LedgerEntry,
    LiveTable,
    PlayerRef,
    SchemaTooNewError,
    SeasonArchive,
    create_engine,
    database_url_from_env,
    get_guild_settings,
    get_open_table_in_channel,
    hand_record,
    list_seasons,
    migrate,
    open_database,
    player_standing,
    recent_hands,
    record_finished_hand,
    save_table,
    schema_version,
    standings,
    start_new_season,
)
from bot.store.migrations import SCHEMA_VERSION_DDL, V1_DDL

STORE_MODELS = [GuildSettings, LiveTable, Hand, HandSeat, LedgerEntry, SeasonArchive]


def test_database_url_comes_from_the_environment_or_defaults_to_the_data_folder():
    assert database_url_from_env({}) == DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///data/tonk.db"
    assert database_url_from_env({"DATABASE_URL": ""}) == DEFAULT_DATABASE_URL
    assert database_url_from_env({"DATABASE_URL": "sqlite+aiosqlite:///x.db"}) == "sqlite+aiosqlite:///x.db"


async def test_the_folder_of_a_sqlite_file_is_created(tmp_path):
    path = tmp_path / "deep" / "er" / "tonk.db"
    async with await open_database(f"sqlite+aiosqlite:///{path}") as database:
        assert await schema_version(database.engine) == LATEST_VERSION
    assert path.exists()


async def test_every_pooled_connection_gets_wal_busy_timeout_and_foreign_keys(tmp_path):
    engine = create_engine(sqlite_url(tmp_path), busy_timeout_ms=1234)
    try:
        held = [await engine.connect() for _ in range(3)]  # three distinct DBAPI connections
        for connection in held:
            pragma = {
                name: (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "busy_timeout", "foreign_keys", "synchronous")
            }
            assert pragma == {"journal_mode": "wal", "busy_timeout": 1234, "foreign_keys": 1, "synchronous": 1}
        assert len({id(await c.get_raw_connection()) for c in held}) == 3
        for connection in held:
            await connection.close()
    finally:
        await engine.dispose()


async def test_a_new_database_gets_every_migration_once(tmp_path):
    url = sqlite_url(tmp_path)
    async with await open_database(url):
        pass
    async with await open_database(url) as database:  # second start: nothing to do
        assert await migrate(database.engine) == LATEST_VERSION
        async with database.engine.connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT version, description FROM schema_version ORDER BY version")).all()
    assert [version for version, _ in rows] == list(range(1, LATEST_VERSION + 1))


async def test_models_map_exactly_the_schema_the_migrations_build(db):
    async with db.engine.connect() as connection:
        for model in STORE_MODELS:
            table = model.__table__
            info = (await connection.exec_driver_sql(f"PRAGMA table_info({table.name})")).all()
            in_db = {name: (bool(notnull) or pk > 0, pk > 0) for _, name, _, notnull, _, pk in info}
            in_model = {column.name: (not column.nullable, column.primary_key) for column in table.columns}
            assert in_db == in_model, table.name
        indexes = dict(
            (await connection.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")).all()
        )
    for model in STORE_MODELS:
        for index in model.__table__.indexes:
            assert index.name in indexes, index.name
    assert "WHERE status != 'closed'" in indexes["ux_live_tables_open_channel"]


async def test_a_database_from_newer_code_is_refused(tmp_path):
    url = sqlite_url(tmp_path)
    async with await open_database(url) as database:
        async with database.engine.begin() as connection:
            await connection.exec_driver_sql(
                "INSERT INTO schema_version VALUES (99, 'from the future', '2030-01-01 00:00:00.000000')"
            )
    with pytest.raises(SchemaTooNewError, match="version 99"):
        await open_database(url)


async def test_two_processes_starting_together_migrate_once(tmp_path):
    engines = [create_engine(sqlite_url(tmp_path)) for _ in range(4)]
    try:
        assert await asyncio.gather(*(migrate(engine) for engine in engines)) == [LATEST_VERSION] * 4
        async with engines[0].connect() as connection:
            assert (await connection.exec_driver_sql("SELECT COUNT(*) FROM schema_version")).scalar() == LATEST_VERSION
    finally:
        for engine in engines:
            await engine.dispose()


def build_v1_database(path):
    """A database exactly as version 1 of the bot left it, with rows in every table."""
    v1_time = "2025-01-02 03:04:05.000000"
    connection = sqlite3.connect(path)
    connection.execute(SCHEMA_VERSION_DDL)
    for statement in V1_DDL:
        connection.execute(statement)
    connection.execute("INSERT INTO schema_version VALUES (1, 'first schema', ?)", (v1_time,))
    connection.execute(
        "INSERT INTO guild_settings (guild_id, rules, stake, scoring_mode, turn_timer_seconds, table_channel_ids, updated_at)"
        " VALUES (?, ?, 5, 'pushups', 45, ?, ?)",
        (7, json.dumps({"preset": "seattle", "jokers": 2}), json.dumps([70, 71]), v1_time),
    )
    seats = [{"kind": "human", "user_id": 700, "name": "Croaker", "level": None},
             {"kind": "computer", "user_id": None, "name": "Goblin", "level": "hard"}]
    connection.execute(
        "INSERT INTO live_tables (guild_id, channel_id, host_user_id, status, seats, message_id, rules, stake,"
        " scoring_mode, hand_number, dealer, engine_state, bookkeeping, version, created_at, updated_at)"
        " VALUES (7, 70, 700, 'playing', ?, 9000, ?, 5, 'pushups', 3, 1, ?, ?, 12, ?, ?)",
        (json.dumps(seats), json.dumps({"preset": "seattle"}), '{"phase": "draw"}', json.dumps({"timeouts": {"0": 1}}), v1_time, v1_time),
    )
    record = {"format": "tonk-hand/1", "rules": {"preset": "seattle"}, "players": ["Croaker", "Goblin"],
              "dealer": 0, "stake": 5, "deck": DECK, "actions": [{"seat": 1, "do": "drop"}]}
    result = {"outcome": "caught", "winners": [0], "counts": [4, 9], "payments": [10, -10], "pushups": [0, 18], "dropper": 1}
    connection.execute(
        "INSERT INTO hands (hand_id, guild_id, table_id, finished_at, outcome, dropper, stake, scoring_mode, record, result)"
        " VALUES ('1:3', 7, 1, ?, 'caught', 1, 5, 'pushups', ?, ?)",
        (v1_time, json.dumps(record), json.dumps(result)),
    )
    connection.executemany(
        "INSERT INTO hand_seats VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
        [(0, "user:700", "Croaker", 4, 10, 0, 1), (1, "cpu:Goblin", "Goblin", 9, -10, 18, 0)],
    )
    connection.executemany(
        "INSERT INTO ledger VALUES (7, ?, ?, ?, ?, 1, ?, 0, ?, ?, ?)",
        [("user:700", "Croaker", 10, 0, 1, 1, 0, v1_time), ("cpu:Goblin", "Goblin", -10, 18, 0, 0, 1, v1_time)],
    )
    connection.commit()
    connection.close()
    return record


async def test_a_version_1_database_is_migrated_without_losing_rows(tmp_path):
    path = tmp_path / "v1.db"
    record = build_v1_database(path)

    async with await open_database(f"sqlite+aiosqlite:///{path}") as database:
        assert await schema_version(database.engine) == LATEST_VERSION == 4
        async with database.engine.connect() as connection:
            # version 3 fills in what the stats read from the hands already stored
            rules = (await connection.exec_driver_sql("SELECT house_rules FROM hands")).scalar()
            streaks = (await connection.exec_driver_sql(
                "SELECT account, streak, best_streak, catches, losses, biggest_win, biggest_loss FROM ledger ORDER BY account"
            )).all()
            rivals = (await connection.exec_driver_sql("SELECT account, opponent, hands, net FROM rivals ORDER BY account")).all()
            tallies = (await connection.exec_driver_sql("SELECT season, outcome, house_rules, hands FROM hand_tallies")).all()
        assert rules == '{"preset":"seattle"}'
        assert streaks == [("cpu:Goblin", 0, 0, 0, 1, 0, -10), ("user:700", 1, 1, 1, 0, 10, 0)]
        assert rivals == [("cpu:Goblin", "user:700", 1, -10.0), ("user:700", "cpu:Goblin", 1, 10.0)]
        assert tallies == [(1, "caught", '{"preset":"seattle"}', 1)]
        async with database.sessions() as session:
            settings = await get_guild_settings(session, guild_id=7)
            assert (settings.rules, settings.stake, settings.scoring_mode) == ({"preset": "seattle", "jokers": 2}, 5, "pushups")
            assert (settings.turn_timer_seconds, settings.table_channel_ids, settings.season) == (45, [70, 71], 1)
            assert settings.pictures is True  # version 4: a server stored before keeps pictures on

            table = await get_open_table_in_channel(session, channel_id=70)
            assert (table.id, table.status, table.version, table.hand_number, table.dealer) == (1, "playing", 12, 3, 1)
            assert table.seats[1]["level"] == "hard" and table.bookkeeping == {"timeouts": {"0": 1}}
            assert table.engine_state == '{"phase": "draw"}' and table.created_at.year == 2025
            saved = await save_table(session, table_id=1, expected_version=12, hand_number=4)
            assert saved.version == 13

            assert await hand_record(session, guild_id=7, hand_id="1:3") == record
            [summary] = await recent_hands(session, guild_id=7)
            assert (summary.season, summary.players, summary.payments) == (1, ("Croaker", "Goblin"), (10, -10))

            table_before = await standings(session, guild_id=7, mode="stakes")
            assert [(s.account, s.balance, s.catches, s.caught_drops) for s in table_before] == [
                ("user:700", 10, 1, 0),
                ("cpu:Goblin", -10, 0, 1),
            ]

            # What version 2 adds works on the migrated data: seasons.
            assert await start_new_season(session, guild_id=7) == 2
            players = [PlayerRef.human(700, "Croaker"), PlayerRef.computer("Goblin")]
            result = {"outcome": "run_out", "winners": [1], "counts": [12, 0], "payments": [-5, 5], "pushups": [12, 0]}
            assert await record_finished_hand(
                session, guild_id=7, table_id=1, hand_id="1:4", record={**record, "actions": []},
                result=result, players=players, stake=5, scoring_mode="pushups",
            )
            goblin_now = await player_standing(session, guild_id=7, account="cpu:Goblin", mode="stakes")
            goblin_then = await player_standing(session, guild_id=7, account="cpu:Goblin", mode="stakes", season=1)
            for account in ("cpu:Goblin", "user:700"):  # the summaries v3 made, and the ones kept since, add up
                assert await player_stats(session, guild_id=7, account=account) == await player_stats_from_hands(
                    session, guild_id=7, account=account)
            assert (goblin_now.balance, goblin_now.hands, goblin_now.rank) == (5, 1, 1)
            assert (goblin_then.balance, goblin_then.hands, goblin_then.rank) == (-10, 1, 2)
            assert [s.season for s in await list_seasons(session, guild_id=7)] == [1, 2]
            assert [h.season for h in await recent_hands(session, guild_id=7)] == [2, 1]
