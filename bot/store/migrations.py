"""The schema: Alembic revisions in ``schema/versions``, run by ``migrate`` on start.

Alembic (the SQLAlchemy ecosystem's migration tool) writes the same schema on
SQLite and PostgreSQL from one set of revisions, and on SQLite its batch mode
rebuilds tables where ``ALTER TABLE`` cannot change them. The bot drives it
from code on the engine it already has: no ``alembic.ini``, no ``env.py``.

``migrate`` runs every missing revision in ONE transaction that first takes a
lock only one process can hold: SQLite's write lock (``BEGIN IMMEDIATE``) or, on
PostgreSQL, a transaction-level advisory lock. Two processes starting together
therefore migrate exactly once; the second finds the work done. DDL is
transactional on both databases, so a failed upgrade leaves the schema as it was.

Revision ids are integers as text ("2", "3", ...), so ``schema_version`` is a
number. Revision "2", the baseline, is the schema that the hand-written
migrations 1 and 2 built before Alembic; revisions "3" (player stats) and "4"
(pictures setting) are what hand-written migrations 3 and 4 built. Files from then are upgraded and stamped by
``sqlite.upgrade_legacy`` inside the same transaction.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from functools import cache
from itertools import groupby
from pathlib import Path

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

from . import sqlite
from .errors import DatabaseStartupError, SchemaTooNewError
from .summaries import StoredHand
from .transactions import IMMEDIATE

SCRIPT_LOCATION = Path(__file__).with_name("schema")
BASELINE = "2"
MIGRATION_LOCK = 0x546F6E6B  # "Tonk": the PostgreSQL advisory lock key of migrations
OUR_TABLES = sqlite.OUR_TABLES

log = logging.getLogger(__name__)


@cache
def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    return config


@cache
def script_directory() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


@cache
def known_revisions() -> frozenset[str]:
    return frozenset(revision.revision for revision in script_directory().walk_revisions())


LATEST_VERSION = int(script_directory().get_current_head() or BASELINE)


def _take_migration_lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    # SQLite: the transaction began with BEGIN IMMEDIATE, the write lock is ours.


def _current(connection: Connection) -> str | None:
    context = MigrationContext.configure(connection)
    current = context.get_current_revision()
    if current is None and connection.dialect.name == "sqlite":
        legacy = sqlite.legacy_version(connection)
        if legacy is not None:
            stamp = sqlite.upgrade_legacy(connection, legacy)
            context.stamp(script_directory(), stamp)
            log.info("database file from before Alembic (version %s) stamped %s", legacy, stamp)
            return stamp
    if current is None and OUR_TABLES & set(inspect(connection).get_table_names()):
        raise DatabaseStartupError(
            "the database has Tonk's tables but no schema version (alembic_version): "
            "it was not made by this bot; use an empty database"
        )
    if current is not None and current not in known_revisions():
        raise SchemaTooNewError(current, LATEST_VERSION)
    return current


def _migrate(connection: Connection, target: str) -> int:
    _take_migration_lock(connection)
    current = _current(connection)
    if current is None or int(current) < int(target):
        script = script_directory()

        def upgrade(revision: object, context: MigrationContext) -> object:
            return script._upgrade_revs(target, revision)

        with EnvironmentContext(_config(), script, fn=upgrade, destination_rev=target) as environment:
            environment.configure(connection=connection, render_as_batch=True)
            with environment.begin_transaction():
                environment.run_migrations()
        if current is None:
            log.info("database: created the bot's tables (schema version %s)", target)
        else:
            log.info("database: upgraded from schema version %s to %s", current, target)
        current = target
    return int(current)


async def migrate(engine: AsyncEngine, *, target: int = LATEST_VERSION) -> int:
    """Bring the database up to ``target`` (default: the latest); return its version.

    Idempotent: an up-to-date database is left untouched. Raises
    ``SchemaTooNewError`` for a database written by a newer version of the code.
    """
    if str(target) not in known_revisions():
        raise ValueError(f"unknown schema version {target}; the versions are {sorted(known_revisions(), key=int)}")
    async with engine.execution_options(**IMMEDIATE).begin() as connection:
        return await connection.run_sync(_migrate, str(target))


def _version(connection: Connection) -> int:
    current = MigrationContext.configure(connection).get_current_revision()
    if current is not None:
        return int(current)
    if connection.dialect.name == "sqlite":
        return sqlite.legacy_version(connection) or 0
    return 0


async def schema_version(engine: AsyncEngine) -> int:
    """The database's schema version (0 for a database never migrated)."""
    async with engine.connect() as connection:
        return await connection.run_sync(_version)


def house_rules_key(rules: object) -> str:
    """A hand's rules dict as canonical JSON text: equal rules, equal text."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stored_hands(connection: Connection) -> Iterator[StoredHand]:
    """Every stored hand with its seats, in the order they were written (revision 3 replays them)."""
    rows = connection.execute(text(
        "SELECT h.id, h.guild_id, h.season, h.outcome, h.dropper, h.house_rules, s.account, s.display_name,"
        " s.payment, s.pushups, s.won FROM hands h JOIN hand_seats s ON s.hand_pk = h.id ORDER BY h.id, s.seat"
    ))
    for _, group in groupby(rows, key=lambda row: row[0]):
        seats = list(group)
        first = seats[0]
        yield StoredHand(first[1], first[2], first[3], first[4], first[5],
                         tuple((row[6], row[7], row[8], row[9], bool(row[10])) for row in seats))
