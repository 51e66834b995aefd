"""The database: URL, SQLite settings on every connection, schema versions and migration (both backends)."""

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
from bot.store.sqlite import SCHEMA_VERSION_DDL, V1_DDL, V2_DDL
from bot.store.models import utcnow
from sqlalchemy import inspect
from sqlmodel import select

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


async def test_a_session_gives_its_connection_back_however_it_ends(db):
    """A session out of any transaction is closed at once (StoreSession); one in a transaction
    (a caller failing after its flush) is rolled back; either way the pool gets its connection back."""
    pool = db.engine.sync_engine.pool
    guild = 4242
    async with db.sessions() as session:
        await get_guild_settings(session, guild_id=guild)  # its own transaction, committed
        assert not session.in_transaction()
    assert pool.checkedout() == 0
    with pytest.raises(RuntimeError):
        async with db.sessions() as session:
            session.add(GuildSettings(guild_id=guild, updated_at=utcnow()))
            await session.flush()  # begins a transaction and writes the row
            assert session.in_transaction()
            raise RuntimeError("the caller fails inside its transaction")
    assert pool.checkedout() == 0
    async with db.sessions() as session:  # the insert was rolled back when the session closed
        assert (await session.exec(select(GuildSettings).where(GuildSettings.guild_id == guild))).first() is None
    assert pool.checkedout() == 0


async def alembic_versions(database):
    async with database.engine.connect() as connection:
        return [row[0] for row in (await connection.exec_driver_sql("SELECT version_num FROM alembic_version")).all()]


async def test_a_new_database_gets_every_migration_once(database_url):
    async with await open_database(database_url):
        pass
    async with await open_database(database_url) as database:  # second start: nothing to do
        assert await migrate(database.engine) == LATEST_VERSION
        assert await schema_version(database.engine) == LATEST_VERSION
        assert await alembic_versions(database) == [str(LATEST_VERSION)]


def schema_of(connection):
    """{table: ({column: (not null, primary key)}, {index name})} as the database reports it."""
    inspector = inspect(connection)
    schema = {}
    for model in STORE_MODELS:
        name = model.__table__.name
        key = set(inspector.get_pk_constraint(name)["constrained_columns"])
        columns = {c["name"]: (not c["nullable"] or c["name"] in key, c["name"] in key) for c in inspector.get_columns(name)}
        schema[name] = (columns, {index["name"] for index in inspector.get_indexes(name)})
    return schema


async def assert_models_map_the_schema(database):
    async with database.engine.connect() as connection:
        schema = await connection.run_sync(schema_of)
    for model in STORE_MODELS:
        table = model.__table__
        columns, indexes = schema[table.name]
        assert columns == {c.name: (not c.nullable, c.primary_key) for c in table.columns}, table.name
        assert {index.name for index in table.indexes} <= indexes, table.name


async def test_models_map_exactly_the_schema_the_migrations_build(db):
    await assert_models_map_the_schema(db)
    async with db.engine.connect() as connection:
        columns = {c["name"]: c["type"] for c in await connection.run_sync(lambda c: inspect(c).get_columns("hand_seats"))}
    if db.dialect == "postgresql":  # portable types: real booleans, 64-bit ids, zoned timestamps
        assert type(columns["won"]).__name__ == "BOOLEAN"
        async with db.engine.connect() as connection:
            types = dict((await connection.exec_driver_sql(
                "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'live_tables'")).all())
        assert types["guild_id"] == types["channel_id"] == types["id"] == "bigint"
        assert types["created_at"] == "timestamp with time zone"


async def test_the_open_table_index_is_partial_on_both_backends(db):
    async with db.engine.connect() as connection:
        indexes = await connection.run_sync(lambda c: inspect(c).get_indexes("live_tables"))
    [open_channel] = [index for index in indexes if index["name"] == "ux_live_tables_open_channel"]
    assert open_channel["unique"]
    where = open_channel.get("dialect_options", {}).get(f"{db.dialect}_where")
    assert where is not None and "closed" in str(where)


async def test_a_database_from_newer_code_is_refused(database_url):
    async with await open_database(database_url) as database:
        async with database.engine.begin() as connection:
            await connection.exec_driver_sql("UPDATE alembic_version SET version_num = '99'")
    with pytest.raises(SchemaTooNewError, match="version 99"):
        await open_database(database_url)


async def test_two_processes_starting_together_migrate_once(database_url):
    engines = [create_engine(database_url) for _ in range(4)]
    try:
        assert await asyncio.gather(*(migrate(engine) for engine in engines)) == [LATEST_VERSION] * 4
        async with engines[0].connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT version_num FROM alembic_version")).all()
        assert [row[0] for row in rows] == [str(LATEST_VERSION)]
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
        assert await schema_version(database.engine) == LATEST_VERSION
        assert await alembic_versions(database) == [str(LATEST_VERSION)]  # stamped "2", then Alembic's revisions
        await assert_models_map_the_schema(database)
        async with database.engine.connect() as connection:
            assert "schema_version" not in await connection.run_sync(lambda c: inspect(c).get_table_names())
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


async def test_a_version_2_file_from_before_alembic_is_stamped_and_keeps_its_rows(tmp_path):
    path = tmp_path / "v2.db"
    build_v1_database(path)
    connection = sqlite3.connect(path)
    for statement in V2_DDL:
        connection.execute(statement)
    connection.execute("INSERT INTO schema_version VALUES (2, 'seasons', '2025-02-01 00:00:00.000000')")
    connection.commit()
    connection.close()

    async with await open_database(f"sqlite+aiosqlite:///{path}") as database:
        assert await alembic_versions(database) == [str(LATEST_VERSION)]  # stamped "2", then the revisions after it ran
        async with database.sessions() as session:
            assert [s.account for s in await standings(session, guild_id=7, mode="stakes")] == ["user:700", "cpu:Goblin"]


@pytest.mark.parametrize("version", [3, 4])
async def test_a_version_3_or_4_file_from_before_alembic_is_stamped_as_it_is(tmp_path, version):
    # A file of the hand-written migration 3 (or 4) has revision 3's (4's) schema and a schema_version table.
    path = tmp_path / f"v{version}.db"
    build_v1_database(path)
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    assert await migrate(engine, target=version) == version
    await engine.dispose()
    connection = sqlite3.connect(path)
    connection.execute("DROP TABLE alembic_version")
    connection.execute(SCHEMA_VERSION_DDL)
    connection.executemany("INSERT INTO schema_version VALUES (?, 'v', '2025-03-01 00:00:00.000000')",
                           [(n,) for n in range(1, version + 1)])
    connection.commit()
    rivals_before = connection.execute("SELECT * FROM rivals ORDER BY 1, 2, 3, 4").fetchall()
    connection.close()

    async with await open_database(f"sqlite+aiosqlite:///{path}") as database:  # revision 3 must not run again
        assert await alembic_versions(database) == [str(LATEST_VERSION)]
        await assert_models_map_the_schema(database)
        async with database.engine.connect() as connection:
            assert (await connection.exec_driver_sql("SELECT * FROM rivals ORDER BY 1, 2, 3, 4")).all() == rivals_before
        async with database.sessions() as session:
            assert (await get_guild_settings(session, guild_id=7)).pictures is True


async def test_a_legacy_file_from_newer_code_is_refused_untouched(tmp_path):
    path = tmp_path / "v9.db"
    build_v1_database(path)
    connection = sqlite3.connect(path)
    connection.execute("INSERT INTO schema_version VALUES (9, 'future', '2030-01-01 00:00:00.000000')")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNewError, match="version 9"):
        await open_database(f"sqlite+aiosqlite:///{path}")
    assert path.read_bytes() == before
