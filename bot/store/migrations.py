"""The schema, as an ordered list of versioned migrations.

Why not Alembic: the bot owns one SQLite file and upgrades it in place when it
starts. A ``schema_version`` table and an ordered list of small functions do
that with no extra tool, no migration folder to ship, and no autogenerate step
that can miss SQLite's limits (most ``ALTER TABLE`` changes need a table
rebuild, which is written out by hand here anyway). Each migration is frozen
once released: a change to the schema is a new migration appended to
``MIGRATIONS``, never an edit of an old one.

``migrate`` runs every missing migration, in order, in ONE transaction that
holds the write lock from its start (``BEGIN IMMEDIATE``), so two processes
starting together cannot both migrate, and a failed upgrade leaves the file as
it was. A new database is built by the same path (v1, then v2, ...), so a
fresh file and an upgraded one cannot drift apart.

Versions:
    1. the first schema: server settings, live tables, finished hands with
       their seats, and one ledger row per server and account.
    2. seasons: an admin reset archives a server's standings instead of
       deleting them. Adds ``guild_settings.season`` and ``season_started_at``,
       ``hands.season``, the ``season_archive`` table, and rebuilds ``ledger``
       with the season in its primary key (old rows become season 1).
    3. player stats: ``hands.house_rules`` (the record's rules as canonical
       JSON text), the ledger's stats columns (wins of each kind, biggest win
       and loss, losses, streaks), the ``rivals`` and ``hand_tallies`` tables
       (see ``summaries.py``), ``season_names``, and an index of hand seats by
       account then hand (it replaces the one by account). The new columns and
       tables are filled in by replaying the hands already stored.
    4. the server setting ``guild_settings.pictures`` (on for every server
       already stored): whether tables and hands are shown as pictures.
"""

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby

from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from .errors import SchemaTooNewError
from .summaries import StoredHand, replay
from .transactions import IMMEDIATE

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

_V3_LEDGER = ("run_outs", "drops_won", "instant_wins", "losses", "biggest_win", "biggest_loss", "streak", "best_streak",
              "opening_streak")
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


V3_DDL: tuple[str, ...] = (
    "ALTER TABLE hands ADD COLUMN house_rules VARCHAR NOT NULL DEFAULT '{\"preset\":\"standard\"}'",
    # (account, hand_pk) serves every lookup the (account) index served, in hand order too.
    "DROP INDEX ix_hand_seats_account",
    "CREATE INDEX ix_hand_seats_account_hand ON hand_seats (account, hand_pk)",
    *(f"ALTER TABLE ledger ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0" for name in _V3_LEDGER),
    """
    CREATE TABLE rivals (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        account VARCHAR NOT NULL,
        opponent VARCHAR NOT NULL,
        hands INTEGER NOT NULL DEFAULT 0,
        net FLOAT NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, season, account, opponent)
    )
    """,
    f"""
    CREATE TABLE hand_tallies (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        outcome VARCHAR NOT NULL CHECK (outcome IN {_OUTCOMES}),
        house_rules VARCHAR NOT NULL,
        hands INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, season, outcome, house_rules)
    )
    """,
    """
    CREATE TABLE season_names (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL CHECK (season >= 1),
        name VARCHAR NOT NULL,
        named_at DATETIME NOT NULL,
        PRIMARY KEY (guild_id, season)
    )
    """,
)


def house_rules_key(rules: object) -> str:
    """A hand's rules dict as canonical JSON text: equal rules, equal text."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stored_hands(connection: Connection) -> Iterator[StoredHand]:
    """Every stored hand with its seats, in the order they were written."""
    rows = connection.exec_driver_sql(
        "SELECT h.id, h.guild_id, h.season, h.outcome, h.dropper, h.house_rules, s.account, s.display_name,"
        " s.payment, s.pushups, s.won FROM hands h JOIN hand_seats s ON s.hand_pk = h.id ORDER BY h.id, s.seat"
    )
    for _, group in groupby(rows, key=lambda row: row[0]):
        seats = list(group)
        first = seats[0]
        yield StoredHand(first[1], first[2], first[3], first[4], first[5],
                         tuple((row[6], row[7], row[8], row[9], bool(row[10])) for row in seats))


def _apply_v3(connection: Connection) -> None:
    _run_all(V3_DDL)(connection)
    hands = connection.exec_driver_sql("SELECT id, record FROM hands").all()
    if hands:
        connection.exec_driver_sql(
            "UPDATE hands SET house_rules = ? WHERE id = ?",
            [(house_rules_key(json.loads(record).get("rules", {"preset": "standard"})), pk) for pk, record in hands],
        )
    summaries = replay(stored_hands(connection))
    if summaries.ledger:
        connection.exec_driver_sql(
            f"UPDATE ledger SET {', '.join(f'{name} = ?' for name in _V3_LEDGER)}"
            " WHERE guild_id = ? AND season = ? AND account = ?",
            [(*(row[name] for name in _V3_LEDGER), *key) for key, row in summaries.ledger.items()],
        )
        connection.exec_driver_sql(
            "INSERT INTO rivals (guild_id, season, account, opponent, hands, net) VALUES (?, ?, ?, ?, ?, ?)",
            [(*key, hands, net) for key, (hands, net) in summaries.rivals.items()],
        )
        connection.exec_driver_sql(
            "INSERT INTO hand_tallies (guild_id, season, outcome, house_rules, hands) VALUES (?, ?, ?, ?, ?)",
            [(*key, hands) for key, hands in summaries.tallies.items()],
        )


V4_DDL: tuple[str, ...] = (
    "ALTER TABLE guild_settings ADD COLUMN pictures BOOLEAN NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1))",
)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    apply: Callable[[Connection], None]


def _run_all(statements: tuple[str, ...]) -> Callable[[Connection], None]:
    def apply(connection: Connection) -> None:
        for statement in statements:
            connection.exec_driver_sql(statement)

    return apply


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "first schema", _run_all(V1_DDL)),
    Migration(2, "seasons: archive standings on reset", _run_all(V2_DDL)),
    Migration(3, "player stats: rules per hand, streaks, season names, indexes", _apply_v3),
    Migration(4, "server setting: pictures on or off", _run_all(V4_DDL)),
)
LATEST_VERSION = MIGRATIONS[-1].version

assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))


def _now_text() -> str:
    # The text form SQLAlchemy's SQLite DateTime reads back.
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def _migrate(connection: Connection, target: int) -> int:
    connection.exec_driver_sql(SCHEMA_VERSION_DDL)
    current = connection.exec_driver_sql("SELECT MAX(version) FROM schema_version").scalar() or 0
    if current > LATEST_VERSION:
        raise SchemaTooNewError(current, LATEST_VERSION)
    for migration in MIGRATIONS:
        if current < migration.version <= target:
            migration.apply(connection)
            connection.exec_driver_sql(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.description, _now_text()),
            )
            current = migration.version
    return current


async def migrate(engine: AsyncEngine, *, target: int = LATEST_VERSION) -> int:
    """Bring the database up to ``target`` (default: the latest); return its version.

    Idempotent: an up-to-date database is left untouched. Raises
    ``SchemaTooNewError`` for a database written by a newer version of the code.
    """
    if not 0 <= target <= LATEST_VERSION:
        raise ValueError(f"unknown schema version {target}; the latest is {LATEST_VERSION}")
    async with engine.execution_options(**IMMEDIATE).begin() as connection:
        return await connection.run_sync(_migrate, target)


async def schema_version(engine: AsyncEngine) -> int:
    """The database's schema version (0 for a database never migrated)."""
    async with engine.connect() as connection:
        exists = (
            await connection.exec_driver_sql(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
            )
        ).first()
        if exists is None:
            return 0
        return (await connection.exec_driver_sql("SELECT MAX(version) FROM schema_version")).scalar() or 0
