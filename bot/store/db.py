"""The database: URL, async engine, per-database settings, session factory, start-up.

One async engine per process and one ``async_sessionmaker`` made from it. The
URL says which database: SQLite (``sqlite+aiosqlite:///file``, the default, a
file beside the bot) or PostgreSQL (``postgresql+asyncpg://user:pw@host/db``,
shared by several bot processes). What SQLite needs on every connection (WAL,
busy timeout, foreign keys, its own BEGIN) is set in ``sqlite.py``.

``open_database`` turns every problem a person can fix (a misspelt URL, a
missing driver, a server that does not answer, a corrupt, foreign, newer or
read-only file, a folder it cannot write) into ``DatabaseStartupError`` or
``SchemaTooNewError`` with one line naming the setting or file and what to do,
before anything in the database was changed.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, InvalidRequestError, NoSuchModuleError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from . import sqlite
from .errors import DatabaseStartupError, SchemaTooNewError
from .migrations import known_revisions, migrate

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/tonk.db"
DEFAULT_BUSY_TIMEOUT_MS = 5_000
CONNECT_TIMEOUT_SECONDS = 10
SUPPORTED = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
EXAMPLES = "sqlite+aiosqlite:///data/tonk.db or postgresql+asyncpg://user:password@host/dbname"


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


def _parse(url: str | URL) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseStartupError(f"DATABASE_URL is not a database URL: use {EXAMPLES}") from None
    backend = parsed.get_backend_name()
    if backend not in SUPPORTED:
        raise DatabaseStartupError(
            f"DATABASE_URL names the database {backend!r}; the bot runs on SQLite or PostgreSQL: use {EXAMPLES}"
        )
    driver = parsed.get_driver_name()  # the dialect's default driver when the URL names none
    if driver != SUPPORTED[backend]:
        raise DatabaseStartupError(
            f"DATABASE_URL names the driver {driver!r}; use {backend}+{SUPPORTED[backend]}:// "
            f"(the bot needs an asyncio driver)"
        )
    return parsed


def create_engine(url: str | URL, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS, echo: bool = False) -> AsyncEngine:
    """An async engine for ``url``; for SQLite, with the settings of ``sqlite.py`` on every connection.

    The folder of a SQLite file is created when missing.
    """
    url = _parse(url)
    file = _sqlite_file(url)
    if file is not None:
        file.expanduser().parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        # No rollback when a connection goes back to the pool: a Session always ends its own
        # transaction, and sqlite.write_finished_hand gives back a raw connection without I/O.
        options = {"pool_reset_on_return": None}
    if file is not None:
        # A fixed pool: SQLAlchemy's default (5 kept, 10 more opened and closed again under
        # load) churns connections, each a new aiosqlite thread and four PRAGMAs.
        options.update(pool_size=POOL_SIZE, max_overflow=0, pool_timeout=30)
    elif url.get_backend_name() == "postgresql":
        options = {"pool_size": POOL_SIZE, "max_overflow": 4, "pool_pre_ping": True,
                   "connect_args": {"timeout": CONNECT_TIMEOUT_SECONDS}}
    try:
        engine = create_async_engine(url, echo=echo, **options)
    except (NoSuchModuleError, ImportError) as error:
        package = SUPPORTED.get(url.get_backend_name(), url.get_driver_name())
        raise DatabaseStartupError(
            f"DATABASE_URL needs the Python package {package!r}, which is not installed ({error}): "
            f"pip install {package}"
        ) from None
    if url.get_backend_name() == "sqlite":
        sqlite.configure_engine(engine, busy_timeout_ms=busy_timeout_ms)
    return engine


class StoreSession(AsyncSession):
    """The store's session: SQLModel's ``AsyncSession``, closed without a task when it holds nothing.

    ``AsyncSession.__aexit__`` closes the session in a task of its own (shielded, so that a
    cancelled caller still gives its connection back) and a greenlet. A session out of
    any transaction holds no connection: closing it only forgets its objects, no I/O, so
    it is closed at once. Every repository function ends its own transaction, and the
    one-statement hand write never opens one, so this is how most sessions end (a task
    and two turns of the event loop less per session).
    """

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        if self.sync_session.in_transaction():
            await super().__aexit__(type_, value, traceback)
        else:
            self.sync_session.close()


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for the repository functions; objects stay usable after commit."""
    return async_sessionmaker(engine, class_=StoreSession, expire_on_commit=False)


@dataclass(frozen=True, slots=True)
class Database:
    """The engine and its session factory, ready to use (schema migrated).

    ``async with await open_database(url) as db:`` disposes the engine at the end.
    """

    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> "Database":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


def describe_database(url: str | URL) -> str:
    """Where the data is, for a message: the SQLite file, or the URL without its password."""
    try:
        url = make_url(url)
    except ArgumentError:
        return "DATABASE_URL"
    return _where(url)


def _where(url: URL) -> str:
    file = _sqlite_file(url)
    if file is not None:
        return f"the SQLite file {file}"
    return f"the database {url.render_as_string(hide_password=True)}"


def _startup_error(url: URL, error: BaseException) -> DatabaseStartupError:
    """One line for a failure to connect or migrate."""
    detail = " ".join(str(getattr(error, "orig", None) or error).split()) or type(error).__name__
    if isinstance(error, DBAPIError):
        detail = " ".join(str(error.orig).split()) or type(error.orig).__name__
    if len(detail) > 200:
        detail = detail[:200] + "..."
    if url.get_backend_name() == "postgresql":
        return DatabaseStartupError(
            f"cannot open {_where(url)} ({detail}): check that the server runs and DATABASE_URL's host, port, "
            "user, password and database name"
        )
    return DatabaseStartupError(f"cannot open {_where(url)} ({detail}): check DATABASE_URL and the file")


async def open_database(url: str | URL | None = None, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Database:
    """Create the engine, create or upgrade the schema, and return the database.

    ``url`` defaults to ``database_url_from_env()``. Raises ``DatabaseStartupError``
    or ``SchemaTooNewError`` (one line each) when the database cannot be used;
    nothing in it was changed then.
    """
    parsed = _parse(url if url is not None else database_url_from_env())
    file = _sqlite_file(parsed)
    if file is not None:
        sqlite.preflight(file, known_revisions=known_revisions())
    engine = create_engine(parsed, busy_timeout_ms=busy_timeout_ms)
    try:
        await migrate(engine)
    except (DatabaseStartupError, SchemaTooNewError):
        await engine.dispose()
        raise
    except (DBAPIError, InterfaceError, InvalidRequestError, OSError, TimeoutError) as error:
        await engine.dispose()
        raise _startup_error(parsed, error) from error
    except BaseException:
        await engine.dispose()
        raise
    return Database(engine=engine, sessions=create_session_factory(engine))
