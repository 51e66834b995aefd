"""Everything SQLite-only: THE one place with raw SQLite SQL.

The rest of the store speaks SQLAlchemy Core/ORM and runs unchanged on SQLite
and PostgreSQL. SQLite needs a few things of its own, all of them here:

- ``configure_engine``: the PRAGMAs every pooled connection gets (WAL, busy
  timeout, foreign keys, ``synchronous=NORMAL``) and the ``BEGIN DEFERRED |
  IMMEDIATE`` the store emits itself (the recipe of SQLAlchemy's SQLite docs);
- ``preflight``: a look at the file before the engine touches it, read-only, so
  that a corrupt, foreign, newer or read-only file is refused with one line and
  left exactly as it was (setting WAL mode alone would rewrite its header);
- ``write_finished_hand``: a finished hand (the hand, its seats, the ledger,
  rivals and tally upserts, and BEGIN/COMMIT when it is its own transaction) in ONE call on
  aiosqlite's worker thread, instead of a dozen hand-offs between the event loop
  and that thread. The statements are the ones ``hands.py`` builds (compiled here
  to SQLite text once); PostgreSQL runs them through SQLAlchemy (a test checks
  that both ways write the same rows on SQLite);
- ``upgrade_legacy``: files written before the store moved to Alembic carry a
  ``schema_version`` table (versions 1 and 2 of the hand-written migrations).
  A version 1 file is upgraded to 2 with the SQL it always used; then the
  ``schema_version`` table is replaced by Alembic's stamp of revision "2" (or
  "3"/"4" for a version 3/4 file, whose schema revisions "3"/"4" build the same way),
  all inside the migration's one write transaction; Alembic goes on from there.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, event
from sqlalchemy.dialects import sqlite as sqlite_dialects
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from .errors import DatabaseStartupError, SchemaTooNewError
from .transactions import BEGIN_MODE_OPTION

BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})
LEGACY_LATEST = 4
"""The last version of the hand-written migrations: 2 is Alembic's baseline revision; 3 and 4 its revisions "3", "4"."""
OUR_TABLES = frozenset({"guild_settings", "live_tables", "hands", "hand_seats", "ledger"})
SQLITE_MAGIC = b"SQLite format 3\x00"


# --------------------------------------------------------------------------- connections


def configure_engine(engine: AsyncEngine, *, busy_timeout_ms: int) -> None:
    """PRAGMAs on every new connection, and the store's own BEGIN."""
    busy_timeout_ms = int(busy_timeout_ms)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, connection_record: Any) -> None:
        # Take BEGIN away from the sqlite3 driver (its legacy mode skips BEGIN
        # before SELECT and DDL); _on_begin emits it instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(BEGIN_MODE_OPTION, "DEFERRED")
        if mode not in BEGIN_MODES:
            raise ValueError(f"unknown SQLite BEGIN mode {mode!r}")
        connection.exec_driver_sql(f"BEGIN {mode}")


# --------------------------------------------------------------------------- a finished hand in one call

# The statements are hands.py's own (SQLAlchemy's SQLite dialect), compiled once
# to SQL text with named parameters; sqlite3 runs them on the worker thread.
_NAMED = sqlite_dialects.dialect(paramstyle="named")
_compiled: dict[tuple[int, tuple[str, ...]], tuple[str, dict[str, Any]]] = {}


def _sql(statement: Any, row: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``statement`` as SQLite SQL for rows with ``row``'s keys, and its literal parameters."""
    key = (id(statement), tuple(row))
    if key not in _compiled:
        compiled = statement.compile(dialect=_NAMED, column_keys=list(row))
        _compiled[key] = (str(compiled), {name: value for name, value in compiled.params.items() if value is not None})
    return _compiled[key]


def _stored(value: Any) -> Any:
    # What SQLAlchemy's SQLite types store: JSON as text, times as naive UTC text, booleans as 0/1.
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, dict | list):
        return json.dumps(value)
    if isinstance(value, bool):
        return int(value)
    return value


def _stored_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{name: _stored(value) for name, value in row.items()} for row in rows]


def _write_hand(
    connection: sqlite3.Connection, own_transaction: bool, hand: tuple[str, dict[str, Any]],
    then: list[tuple[str, list[dict[str, Any]]]],
) -> bool:
    """On aiosqlite's thread: the hand first (a taken hand_id stops here), then the rest."""
    if own_transaction:
        connection.execute("BEGIN IMMEDIATE")
    try:
        inserted = connection.execute(*hand).fetchall()
        if inserted:
            [(hand_pk,)] = inserted
            for sql, rows in then:
                connection.executemany(sql, [{**row, "hand_pk": hand_pk, "ledger_hand_pk": hand_pk} for row in rows])
        if own_transaction:
            connection.execute("COMMIT")
    except BaseException:
        if own_transaction and connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return bool(inserted)


async def _run_on_thread(connection: AsyncConnection, own_transaction: bool, *work: Any) -> bool:
    driver = (await connection.get_raw_connection()).driver_connection  # the aiosqlite.Connection
    # aiosqlite runs each call on its connection's thread, in order; _execute queues one call
    # (its public methods are one call per statement, which is what this avoids).
    return await driver._execute(lambda: _write_hand(driver._conn, own_transaction, *work))


async def write_finished_hand(
    session: AsyncSession,
    statements: tuple[Any, ...],
    hand_row: dict[str, Any],
    *then: list[dict[str, Any]],
) -> bool:
    """``hands.record_finished_hand``'s statements on SQLite, in one call on the database thread.

    ``statements[0]`` inserts ``hand_row`` returning its id; each further statement
    runs with its list of rows, given the hand's id as ``hand_pk`` and
    ``ledger_hand_pk``. In the session's transaction if it has one (the caller
    commits), else in a transaction of its own, ``BEGIN IMMEDIATE`` to ``COMMIT``
    in that same call. Returns False, having written nothing, if the hand id was taken.
    """
    hand_insert, *others = statements
    sql, literals = _sql(hand_insert, hand_row)
    hand = (sql, {**literals, **_stored_rows([hand_row])[0]})
    work = []
    for statement, rows in zip(others, then, strict=True):
        if rows:
            sql, literals = _sql(statement, {**rows[0], "hand_pk": 0, "ledger_hand_pk": 0})
            work.append((sql, [{**literals, **row} for row in _stored_rows(rows)]))
    if session.in_transaction():
        return await _run_on_thread(await session.connection(), False, hand, work)
    engine = session.bind
    assert isinstance(engine, AsyncEngine)
    async with engine.connect() as connection:  # no BEGIN yet: the call below emits its own
        return await _run_on_thread(connection, True, hand, work)


# --------------------------------------------------------------------------- the file, before opening it


def _writable(path: Path) -> bool:
    """Whether we may write ``path``; for root, also whether anyone was meant to (chmod a-w)."""
    if not os.access(path, os.W_OK):
        return False
    return os.geteuid() != 0 or bool(path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def preflight(file: Path, *, known_revisions: frozenset[str]) -> None:
    """Refuse a file the store must not open, changing nothing; create its folder if missing.

    Raises ``DatabaseStartupError`` (one line naming the file and what to do) or
    ``SchemaTooNewError``.
    """
    file = file.expanduser()
    folder = file.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseStartupError(
            f"cannot create the folder {folder} for the SQLite file ({error.strerror or error}): "
            "create it yourself or point DATABASE_URL elsewhere"
        ) from None
    if not folder.is_dir():
        raise DatabaseStartupError(f"{folder} is not a folder: point DATABASE_URL at a file in a folder")
    if not _writable(folder):
        raise DatabaseStartupError(
            f"the folder {folder} is not writable (SQLite keeps its journal beside the file): "
            "make it writable for this user or point DATABASE_URL elsewhere"
        )
    if not file.exists():
        return
    if not file.is_file():
        raise DatabaseStartupError(f"{file} is not a file: point DATABASE_URL at a SQLite file")
    if not _writable(file):
        raise DatabaseStartupError(f"the database file {file} is read-only: make it writable (chmod u+w) for this user")
    with file.open("rb") as handle:
        header = handle.read(len(SQLITE_MAGIC))
    if not header:
        return  # an empty file is an empty database
    if header != SQLITE_MAGIC:
        raise DatabaseStartupError(
            f"{file} is not a SQLite database (corrupt, or another kind of file): "
            "restore it from a backup or point DATABASE_URL at another file"
        )
    try:
        connection = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            revision = legacy = None
            if "alembic_version" in tables:
                revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            elif "schema_version" in tables:
                legacy = connection.execute("SELECT MAX(version) FROM schema_version").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise DatabaseStartupError(
            f"{file} cannot be read as a SQLite database ({error}): restore it from a backup or point DATABASE_URL "
            "at another file"
        ) from None
    if revision is not None and revision[0] not in known_revisions:
        raise SchemaTooNewError(revision[0], max(known_revisions, key=int))
    if legacy is not None and (legacy[0] or 0) > LEGACY_LATEST:
        raise SchemaTooNewError(legacy[0], max(known_revisions, key=int))
    if tables and "alembic_version" not in tables and "schema_version" not in tables:
        raise DatabaseStartupError(
            f"{file} is a SQLite database of another program (no Tonk schema in it): "
            "point DATABASE_URL at a new file name"
        )


# --------------------------------------------------------------------------- the hand-written migrations of old files

SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER NOT NULL PRIMARY KEY,"
    " description VARCHAR NOT NULL,"
    " applied_at DATETIME NOT NULL)"
)

_MODES = "('stakes', 'pushups')"
_STATUSES = "('lobby', 'playing', 'between_hands', 'closed')"
_OUTCOMES = "('instant', 'void', 'tonk_out', 'run_out', 'drop_won', 'caught', 'stock_out', 'draw')"

V1_DDL: tuple[str, ...] = (
    f"""
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL PRIMARY KEY,
        rules JSON NOT NULL DEFAULT '{{"preset": "standard"}}',
        stake INTEGER NOT NULL DEFAULT 1 CHECK (stake >= 1),
        scoring_mode VARCHAR NOT NULL DEFAULT 'stakes' CHECK (scoring_mode IN {_MODES}),
        turn_timer_seconds INTEGER NOT NULL DEFAULT 90 CHECK (turn_timer_seconds > 0),
        table_channel_ids JSON,
        updated_at DATETIME NOT NULL
    )
    """,
    # AUTOINCREMENT: a table id is never reused, because buttons carry it.
    f"""
    CREATE TABLE live_tables (
        id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        host_user_id INTEGER NOT NULL,
        status VARCHAR NOT NULL DEFAULT 'lobby' CHECK (status IN {_STATUSES}),
        seats JSON NOT NULL DEFAULT '[]',
        message_id INTEGER,
        rules JSON NOT NULL,
        stake INTEGER NOT NULL CHECK (stake >= 1),
        scoring_mode VARCHAR NOT NULL CHECK (scoring_mode IN {_MODES}),
        hand_number INTEGER NOT NULL DEFAULT 0,
        dealer INTEGER,
        engine_state TEXT,
        bookkeeping JSON NOT NULL DEFAULT '{{}}',
        version INTEGER NOT NULL DEFAULT 1,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL
    )
    """,
    # At most one open table per channel.
    "CREATE UNIQUE INDEX ux_live_tables_open_channel ON live_tables (channel_id) WHERE status != 'closed'",
    "CREATE INDEX ix_live_tables_open_guild ON live_tables (guild_id) WHERE status != 'closed'",
    f"""
    CREATE TABLE hands (
        id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
        hand_id VARCHAR NOT NULL UNIQUE,
        guild_id INTEGER NOT NULL,
        table_id INTEGER REFERENCES live_tables (id) ON DELETE SET NULL,
        finished_at DATETIME NOT NULL,
        outcome VARCHAR NOT NULL CHECK (outcome IN {_OUTCOMES}),
        dropper INTEGER,
        stake INTEGER NOT NULL CHECK (stake >= 1),
        scoring_mode VARCHAR NOT NULL CHECK (scoring_mode IN {_MODES}),
        record JSON NOT NULL,
        result JSON NOT NULL
    )
    """,
    "CREATE INDEX ix_hands_guild ON hands (guild_id, id)",
    """
    CREATE TABLE hand_seats (
        hand_pk INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        account VARCHAR NOT NULL,
        display_name VARCHAR NOT NULL,
        count INTEGER NOT NULL,
        payment INTEGER NOT NULL,
        pushups INTEGER NOT NULL,
        won BOOLEAN NOT NULL CHECK (won IN (0, 1)),
        PRIMARY KEY (hand_pk, seat)
    )
    """,
    "CREATE INDEX ix_hand_seats_account ON hand_seats (account)",
    """
    CREATE TABLE ledger (
        guild_id INTEGER NOT NULL,
        account VARCHAR NOT NULL,
        display_name VARCHAR NOT NULL,
        balance INTEGER NOT NULL DEFAULT 0,
        pushups INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        tonk_outs INTEGER NOT NULL DEFAULT 0,
        catches INTEGER NOT NULL DEFAULT 0,
        caught_drops INTEGER NOT NULL DEFAULT 0,
        updated_at DATETIME NOT NULL,
        PRIMARY KEY (guild_id, account)
    )
    """,
)

_LEDGER_COUNTERS = "display_name, balance, pushups, hands, wins, tonk_outs, catches, caught_drops, updated_at"

V2_DDL: tuple[str, ...] = (
    "ALTER TABLE guild_settings ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1)",
    "ALTER TABLE guild_settings ADD COLUMN season_started_at DATETIME",
    "ALTER TABLE hands ADD COLUMN season INTEGER NOT NULL DEFAULT 1",
    "DROP INDEX ix_hands_guild",
    "CREATE INDEX ix_hands_guild_season ON hands (guild_id, season, id)",
    """
    CREATE TABLE season_archive (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        started_at DATETIME,
        ended_at DATETIME NOT NULL,
        PRIMARY KEY (guild_id, season)
    )
    """,
    # SQLite cannot change a primary key in place: build the new table, copy, swap.
    """
    CREATE TABLE ledger_v2 (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        account VARCHAR NOT NULL,
        display_name VARCHAR NOT NULL,
        balance INTEGER NOT NULL DEFAULT 0,
        pushups INTEGER NOT NULL DEFAULT 0,
        hands INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        tonk_outs INTEGER NOT NULL DEFAULT 0,
        catches INTEGER NOT NULL DEFAULT 0,
        caught_drops INTEGER NOT NULL DEFAULT 0,
        updated_at DATETIME NOT NULL,
        PRIMARY KEY (guild_id, season, account)
    )
    """,
    f"INSERT INTO ledger_v2 (guild_id, season, account, {_LEDGER_COUNTERS})"
    f" SELECT guild_id, 1, account, {_LEDGER_COUNTERS} FROM ledger",
    "DROP TABLE ledger",
    "ALTER TABLE ledger_v2 RENAME TO ledger",
)


def legacy_version(connection: Connection) -> int | None:
    """The ``schema_version`` of a file from before Alembic, or None if it has none."""
    exists = connection.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).first()
    if exists is None:
        return None
    return connection.exec_driver_sql("SELECT MAX(version) FROM schema_version").scalar() or 0


def upgrade_legacy(connection: Connection, version: int) -> str:
    """Bring a pre-Alembic file to a revision Alembic knows, drop ``schema_version``; return that revision.

    Versions 1 and 2 end at revision "2" (version 1 gets the v2 SQL it always got);
    versions 3 and 4 were built by the same steps as revisions "3" and "4" and are
    stamped as they are.
    The caller holds the write transaction and stamps the returned revision.
    """
    if version > LEGACY_LATEST:
        raise SchemaTooNewError(version, LEGACY_LATEST)
    if version < 1:
        for statement in V1_DDL:
            connection.exec_driver_sql(statement)
    if version < 2:
        for statement in V2_DDL:
            connection.exec_driver_sql(statement)
    connection.exec_driver_sql("DROP TABLE schema_version")
    return str(max(version, 2))
