"""The database: URL, async engine, SQLite settings, session factory.

One async engine per process and one ``async_sessionmaker`` made from it. Every
SQLite connection the pool opens gets the same settings from a ``connect``
listener: WAL (readers never block the writer), a busy timeout (a writer waits
for the lock instead of failing), foreign keys on (SQLite's default is off),
and ``synchronous=NORMAL`` (safe in WAL mode; a power cut can lose the last
commits but never corrupts the file).
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from .migrations import migrate
from .transactions import BEGIN_MODE_OPTION

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/tonk.db"
DEFAULT_BUSY_TIMEOUT_MS = 5_000
_BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})


def database_url_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` from the environment, or the default SQLite file.

    The app loads ``.env`` (python-dotenv) before calling this.
    """
    environ = os.environ if environ is None else environ
    return environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def _sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite URL, or None for an in-memory or URI database."""
    if not url.get_backend_name() == "sqlite":
        return None
    database = url.database or ""
    if database in ("", ":memory:") or database.startswith("file:") or url.query.get("uri"):
        return None
    return Path(database)


POOL_SIZE = 16


def create_engine(url: str | URL, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS, echo: bool = False) -> AsyncEngine:
    """An async engine for ``url``; for SQLite, with the settings above on every connection.

    The folder of a SQLite file is created when missing.
    """
    url = make_url(url)
    file = _sqlite_file(url)
    if file is not None:
        file.expanduser().parent.mkdir(parents=True, exist_ok=True)
    pool: dict[str, Any] = {}
    if file is not None:
        # A fixed pool: SQLAlchemy's default (5 kept, 10 more opened and closed again under
        # load) churns connections, each a new aiosqlite thread and four PRAGMAs.
        pool = {"pool_size": POOL_SIZE, "max_overflow": 0, "pool_timeout": 30, "pool_reset_on_return": None}
    engine = create_async_engine(url, echo=echo, **pool)
    if url.get_backend_name() == "sqlite":
        _configure_sqlite(engine, busy_timeout_ms=busy_timeout_ms)
    return engine


def _configure_sqlite(engine: AsyncEngine, *, busy_timeout_ms: int) -> None:
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
        if mode not in _BEGIN_MODES:
            raise ValueError(f"unknown SQLite BEGIN mode {mode!r}")
        connection.exec_driver_sql(f"BEGIN {mode}")


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for the repository functions; objects stay usable after commit."""
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


@dataclass(frozen=True, slots=True)
class Database:
    """The engine and its session factory, ready to use (schema migrated).

    ``async with await open_database(url) as db:`` disposes the engine at the end.
    """

    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> "Database":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


async def open_database(url: str | URL | None = None, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Database:
    """Create the engine, create or upgrade the schema, and return the database.

    ``url`` defaults to ``database_url_from_env()``.
    """
    engine = create_engine(url if url is not None else database_url_from_env(), busy_timeout_ms=busy_timeout_ms)
    try:
        await migrate(engine)
    except BaseException:
        await engine.dispose()
        raise
    return Database(engine=engine, sessions=create_session_factory(engine))
