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
  rivals and tally upserts) in ONE statement, one call on aiosqlite's worker
  thread through its public API, instead of a dozen hand-offs between the event
  loop and that thread: an INSERT into a TEMP view whose INSTEAD OF trigger runs
  ``hands.py``'s own statements (their rows read from the view's columns, one
  parameter a value; compiled here once per process for each shape of hand, created
  on a connection's first hand of that shape). PostgreSQL runs the same
  statements through SQLAlchemy (a test checks that both ways write the same rows
  on SQLite);
- ``upgrade_legacy``: files written before the store moved to Alembic carry a
  ``schema_version`` table (versions 1 and 2 of the hand-written migrations).
  A version 1 file is upgraded to 2 with the SQL it always used; then the
  ``schema_version`` table is replaced by Alembic's stamp of revision "2" (or
  "3"/"4" for a version 3/4 file, whose schema revisions "3"/"4" build the same way),
  all inside the migration's one write transaction; Alembic goes on from there.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from sqlalchemy import Boolean, Connection, event, false, insert, literal_column, null, select, true, union_all
from sqlalchemy.dialects import sqlite as sqlite_dialects
from sqlalchemy.exc import MissingGreenlet
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool
from sqlmodel.ext.asyncio.session import AsyncSession

from . import hand_statements
from .errors import DatabaseStartupError, SchemaTooNewError
from .transactions import BEGIN_MODE_OPTION

BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})
LEGACY_LATEST = 4
"""The last version of the hand-written migrations: 2 is Alembic's baseline revision; 3 and 4 its revisions "3", "4"."""
OUR_TABLES = frozenset({"guild_settings", "live_tables", "hands", "hand_seats", "ledger"})
SQLITE_MAGIC = b"SQLite format 3\x00"


# --------------------------------------------------------------------------- connections


def _write_ahead(cursor: Any, attempts: int = 200) -> None:
    """Put the database in WAL mode. Switching a new file's journal takes an exclusive lock, and
    SQLite does not wait on its busy timeout for it: processes opening a new database together
    (shards, or the bot and a script) each try again, briefly, until one of them has switched it."""
    for attempt in range(attempts):
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except Exception as exc:  # the driver's OperationalError, through SQLAlchemy's adapter
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.01)


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
            _write_ahead(cursor)
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


# --------------------------------------------------------------------------- a finished hand in one statement

# hands.py's statements, their rows read from the parameters of one INSERT, run by a TEMP
# trigger that a connection gets with its first hand of each shape (rows per table: a
# 4-player hand writes 4 seats, 4 ledger rows, 12 rivals and a tally): one INSERT into the
# TEMP view ``tonk_finished_hand_<shape>`` writes the hand, its seats and its summaries.
# SQLite runs a statement atomically, with everything its triggers do, so the hand is all
# written or not at all. Every value is a parameter of its own (the view's columns), not
# JSON: encoding rows as JSON and reading them back with json_extract cost about a third
# of a hand's CPU.
FINISHED_HAND = "tonk_finished_hand"
_DIALECT = sqlite_dialects.dialect()


@dataclass(frozen=True, slots=True)
class _FinishedHand:
    """For one shape of hand: the view and trigger DDL, the INSERT that fires it, and its parameters' sources."""

    ddl: tuple[str, ...]
    insert_sql: str
    hand_values: _Values
    row_values: tuple[_Values, ...]
    """One a table of ``hand_statements.ROW_TABLES``: the values each of its rows gives, in the view's order."""


@cache
def _finished_hand(shape: tuple[int, ...]) -> _FinishedHand:
    """The statement for a hand with ``shape[i]`` rows for ``hand_statements.ROW_TABLES[i]``."""

    hands_table = hand_statements.Hand.__table__  # type: ignore[attr-defined]
    hand_columns = [column.name for column in hands_table.columns if column.name not in hand_statements.FROM_THE_DATABASE]
    view = f"{FINISHED_HAND}_{'_'.join(map(str, shape))}"
    view_columns = list(hand_columns)
    row_values: list[_Values] = []
    tables = iter(zip(hand_statements.ROW_TABLES, shape, strict=True))

    def rows_from_parameters(statement: Any, column: str, from_hand: Any) -> Any:
        # The rows of this table: one SELECT of NEW's columns a row, without the columns
        # every row takes from the hand (hand_statements.SAME_AS_HAND), which come from the hand's.
        table, count = next(tables)
        assert statement.table is table, "hand_statements.row_statements builds its statements in ROW_TABLES order"
        names = [other.name for other in table.columns if other.name != column]
        own = [name for name in names if name not in hand_statements.SAME_AS_HAND]
        row_values.append(_Values(own, table))

        def new(row: int, name: str) -> Any:
            if name in hand_statements.SAME_AS_HAND:
                return literal_column(f"NEW.{hand_statements.SAME_AS_HAND[name]}").label(name)
            view_columns.append(f"{table.name}_{row}_{name}")
            return literal_column(f"NEW.{view_columns[-1]}").label(name)

        selects = [select(*(new(row, name) for name in names)) for row in range(count)]
        if not selects:  # no rows: a SELECT that gives none
            selects = [select(*(null().label(name) for name in names)).where(false())]
        rows = (union_all(*selects) if len(selects) > 1 else selects[0]).subquery()
        # WHERE true: SQLite's parser needs it between INSERT ... SELECT and ON CONFLICT.
        source = select(*rows.c, from_hand(literal_column("NEW.hand_id"))).where(true())
        return statement.from_select([*names, column], source)

    # A taken hand_id fails the plain INSERT (UNIQUE), which undoes the whole statement.
    hand_insert = insert(hands_table).from_select(
        [*hand_columns, "season"],
        select(*(literal_column(f"NEW.{name}") for name in hand_columns),
               hand_statements.current_season(literal_column("NEW.guild_id"))),
    )
    body = [hand_insert, *hand_statements.row_statements("sqlite", rows_from_parameters)]
    compiled = [str(statement.compile(dialect=_DIALECT, compile_kwargs={"literal_binds": True})) for statement in body]
    ddl = (
        f"CREATE TEMP VIEW IF NOT EXISTS {view} AS SELECT " + ", ".join(f"NULL AS {name}" for name in view_columns),
        f"CREATE TEMP TRIGGER IF NOT EXISTS {view}_write INSTEAD OF INSERT ON {view} BEGIN "
        + "; ".join(compiled) + "; END",
    )
    insert_sql = f"INSERT INTO {view} ({', '.join(view_columns)}) VALUES ({', '.join('?' * len(view_columns))})"
    return _FinishedHand(ddl, insert_sql, _Values(hand_columns, hands_table), tuple(row_values))


class _Values:
    """A row's values for ``names``, converted as SQLAlchemy converts them on SQLite (JSON
    as text, times as naive UTC text), so the trigger stores what the ORM would. Booleans
    need nothing: sqlite3 binds True and False as 1 and 0, what the ORM writes."""

    __slots__ = ("names", "pick", "conversions")

    def __init__(self, names: list[str], table: Any) -> None:
        self.names = names
        self.pick = itemgetter(*names) if len(names) > 1 else lambda row: (row[names[0]],)
        conversions = []
        for index, name in enumerate(names):
            column_type = table.columns[name].type
            process = column_type.dialect_impl(_DIALECT).bind_processor(_DIALECT)
            if process is not None and not isinstance(column_type, Boolean):
                conversions.append((index, process))
        self.conversions = conversions

    def __call__(self, row: dict[str, Any]) -> list[Any]:
        values = list(self.pick(row))
        for index, process in self.conversions:
            if values[index] is not None:
                values[index] = process(values[index])
        return values

    def add(self, parameters: list[Any], rows: list[dict[str, Any]]) -> None:
        """Append the values of ``rows`` to ``parameters`` (without a list a row when nothing is converted)."""
        if self.conversions:
            for row in rows:
                parameters += self(row)
        else:
            pick = self.pick
            for row in rows:
                parameters += pick(row)


async def write_finished_hand(
    session: AsyncSession, hand_row: dict[str, Any], *then: list[dict[str, Any]], encoded: dict[str, str] | None = None
) -> bool:
    """``hands.record_finished_hand``'s writes on SQLite: one statement, one call on aiosqlite's thread.

    ``hand_row`` is the hand; ``then`` its rows for ``hand_statements.ROW_TABLES``, in that order
    (the lock order). One ``INSERT`` into the TEMP view fires the trigger that writes them
    all, inside the session's transaction if it has one (the caller commits), else as a
    transaction of its own (its first step takes the write lock, as ``BEGIN IMMEDIATE``
    would). Returns False, having written nothing, if the hand id was taken. ``encoded``
    holds JSON columns of the hand already encoded as text (``json.dumps``, as SQLAlchemy would).
    """
    statement = _finished_hand(tuple(map(len, then)))
    parameters = statement.hand_values(hand_row if not encoded else {**hand_row, **dict.fromkeys(encoded)})
    for name, text in (encoded or {}).items():
        parameters[statement.hand_values.names.index(name)] = text
    for values, rows in zip(statement.row_values, then, strict=True):
        values.add(parameters, rows)
    ddl, insert_sql = statement.ddl, statement.insert_sql
    if session.in_transaction():
        raw = await (await session.connection()).get_raw_connection()
        return await _insert_finished_hand(raw.driver_connection, ddl, insert_sql, parameters)
    raw = await _pooled(session)
    try:
        return await _insert_finished_hand(raw.driver_connection, ddl, insert_sql, parameters)
    finally:
        raw.close()


async def _pooled(session: AsyncSession) -> Any:
    """A pooled DBAPI connection of the session's engine, no SQLAlchemy Connection around it (a
    fifth of the CPU of a hand): no BEGIN, each statement is its own transaction. Giving it back
    (``close()``) does no I/O, because SQLite engines return connections without a reset (db.py)."""
    engine = session.bind
    assert isinstance(engine, AsyncEngine)
    sync_engine = engine.sync_engine
    # A connection waiting in the pool is taken without a greenlet (AsyncEngine.raw_connection
    # runs the same checkout in one: a tenth of the event loop's CPU of a hand); only a new
    # connection needs one, to await aiosqlite's connect.
    if isinstance(sync_engine.pool, QueuePool) and sync_engine.pool.checkedin():
        try:
            return sync_engine.raw_connection()
        except MissingGreenlet:
            # That pooled connection was closed (invalidated), and opening it again awaits
            # aiosqlite's connect: SQLAlchemy checked it back in, and the greenlet's way opens it.
            pass
    return await engine.raw_connection()


# --------------------------------------------------------------------------- a table's save in one statement


@cache
def _table_update(names: tuple[str, ...]) -> tuple[str, _Values]:
    """``tables.save_table_version``'s checked UPDATE for the columns ``names``, as SQL text, and
    their values' conversions (what the ORM binds)."""
    from .models import LiveTable  # models.py is not needed before the first save

    table = LiveTable.__table__  # type: ignore[attr-defined]
    assignments = ", ".join(f"{name} = ?" for name in names)
    sql = (f"UPDATE {table.name} SET {assignments}, version = version + 1 "
           "WHERE id = ? AND version = ? AND status != 'closed' RETURNING version")
    return sql, _Values(list(names), table)


async def save_table_version(session: AsyncSession, table_id: int, expected_version: int,
                             values: dict[str, Any]) -> int | None:
    """``tables.save_table_version``'s UPDATE (``values`` checked already, ``updated_at`` among them)
    as one statement, one call on aiosqlite's thread, outside any transaction: a single UPDATE is
    atomic by itself, and it takes SQLite's write lock as its first step. Against SQLAlchemy's
    session (BEGIN IMMEDIATE, the ORM's UPDATE, COMMIT: three calls) this is most of a click's
    database time. The new version, or None if nothing was saved (the caller asks why)."""
    assert not session.in_transaction(), "the one-statement save is its own transaction"
    names = tuple(values)
    sql, convert = _table_update(names)
    raw = await _pooled(session)
    try:
        rows = await raw.driver_connection.execute_fetchall(sql, [*convert(values), table_id, expected_version])
    finally:
        raw.close()
    return rows[0][0] if rows else None


async def _insert_finished_hand(driver: Any, ddl: tuple[str, ...], sql: str, parameters: list[Any]) -> bool:
    """Run the INSERT on ``driver`` (the ``aiosqlite.Connection``), making the view first if it has none."""
    try:
        await driver.execute_fetchall(sql, parameters)
    except sqlite3.IntegrityError as error:
        if "hands.hand_id" in str(error):  # UNIQUE constraint failed: the hand is stored already
            return False
        raise
    except sqlite3.OperationalError as error:
        if not ddl or f"no such table: {FINISHED_HAND}_" not in str(error):
            raise
        # This connection's first hand (or its view went with a rolled-back transaction).
        # Made here, not when connecting: SQLite checks triggers when a migration renames
        # a table, and the schema may not be there yet when the connection opens.
        for statement in ddl:
            await driver.execute_fetchall(statement)
        return await _insert_finished_hand(driver, (), sql, parameters)
    return True


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
