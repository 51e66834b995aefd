"""Live tables: create, load, save with optimistic concurrency, close.

The bot saves a table after every accepted action. Two clicks handled at once
may both have loaded version 7; ``save_table`` lets the first save win (the
table becomes version 8) and refuses the second with ``StaleTableError``. The
check is the ``UPDATE ... WHERE id = ? AND version = ?`` itself, so it holds
across connections and processes, not only inside one session.
"""

from typing import Any

from sqlalchemy import update
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks, sqlite
from .errors import ChannelBusyError, StaleTableError, StoreError, TableClosedError, TableNotFoundError
from .models import LiveTable, utcnow
from .portable import dialect_name, insert_on_conflict
from .transactions import read_transaction, write_transaction

_FRESH = {"populate_existing": True}
# An UPDATE must not touch the objects in the session by evaluating its WHERE
# in Python (SQLAlchemy's default): that would apply a refused save to them.
# The RETURNING row, loaded with populate_existing, refreshes the saved table.
_SAVE = {"populate_existing": True, "synchronize_session": False}
_SAVE_VERSION = {"synchronize_session": False}

SQLITE_IN_ONE_CALL = True
"""On SQLite, a save outside a transaction is one UPDATE on a pooled connection (``sqlite.save_table_version``);
False runs SQLAlchemy's statement there too (the tests compare the two)."""

_CHECKS: dict[str, Any] = {
    "host_user_id": lambda value: checks.check_int("host user id", value),
    "status": checks.check_status,
    "seats": checks.check_seats,
    "message_id": lambda value: None if value is None else checks.check_int("message id", value),
    "rules": checks.check_rules,
    "stake": checks.check_stake,
    "scoring_mode": checks.check_scoring_mode,
    "hand_number": lambda value: checks.check_int("hand number", value, minimum=0),
    "dealer": lambda value: None if value is None else checks.check_int("dealer", value, minimum=0),
    "engine_state": lambda value: _check_engine_state(value),
    "bookkeeping": lambda value: checks.check_json_object("bookkeeping", value),
}
SAVABLE_FIELDS = frozenset(_CHECKS)
"""The columns ``save_table`` may change (not id, guild, channel, version or timestamps)."""


def _check_engine_state(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError("engine state must be the engine's JSON text (a str) or None")
    return value


def _checked_changes(changes: dict[str, Any]) -> dict[str, Any]:
    unknown = set(changes) - SAVABLE_FIELDS
    if unknown:
        raise TypeError(f"save_table cannot change {', '.join(sorted(unknown))}; it changes {', '.join(sorted(SAVABLE_FIELDS))}")
    return {name: _CHECKS[name](value) for name, value in changes.items()}


async def create_table(
    session: AsyncSession,
    *,
    guild_id: int,
    channel_id: int,
    host_user_id: int,
    seats: list[dict[str, Any]],
    rules: dict[str, Any],
    stake: int,
    scoring_mode: str,
    status: str = "lobby",
    message_id: int | None = None,
    bookkeeping: dict[str, Any] | None = None,
) -> LiveTable:
    """Open a table (version 1). Raises ``ChannelBusyError`` if the channel has an open table."""
    now = utcnow()
    row = _checked_changes(
        {
            "host_user_id": host_user_id,
            "status": status,
            "seats": seats,
            "message_id": message_id,
            "rules": rules,
            "stake": stake,
            "scoring_mode": scoring_mode,
            "bookkeeping": bookkeeping or {},
        }
    )
    if row["status"] == "closed":
        raise ValueError("a new table cannot be closed")
    row |= {
        "guild_id": checks.check_int("guild id", guild_id),
        "channel_id": checks.check_int("channel id", channel_id),
        "hand_number": 0,
        "version": 1,
        "created_at": now,
        "updated_at": now,
    }
    # The only uniqueness a new row can break is the open-table-per-channel index.
    statement = insert_on_conflict(session, LiveTable).values(row).on_conflict_do_nothing().returning(LiveTable)
    async with write_transaction(session):
        table = (await session.exec(statement, execution_options=_FRESH)).scalars().first()
    if table is None:
        raise ChannelBusyError(channel_id)
    return table


async def get_table(session: AsyncSession, *, table_id: int) -> LiveTable | None:
    """The table with this id, open or closed, as stored now."""
    async with read_transaction(session):
        return await session.get(LiveTable, table_id, populate_existing=True)


async def get_open_table_in_channel(session: AsyncSession, *, channel_id: int) -> LiveTable | None:
    """The channel's open table, if it has one."""
    statement = select(LiveTable).where(LiveTable.channel_id == channel_id, LiveTable.status != "closed")
    async with read_transaction(session):
        return (await session.exec(statement, execution_options=_FRESH)).first()


async def list_open_tables(session: AsyncSession, *, guild_id: int | None = None) -> list[LiveTable]:
    """Every open table (of one server, or of all), oldest first: what to recover after a restart."""
    statement = select(LiveTable).where(LiveTable.status != "closed").order_by(LiveTable.id)
    if guild_id is not None:
        statement = statement.where(LiveTable.guild_id == guild_id)
    async with read_transaction(session):
        return list((await session.exec(statement, execution_options=_FRESH)).all())


async def save_table(session: AsyncSession, *, table_id: int, expected_version: int, **changes: Any) -> LiveTable:
    """Write ``changes`` if the stored table is still ``expected_version``; return it at version + 1.

    Raises ``StaleTableError`` if someone saved it since, ``TableClosedError`` if
    it is closed, ``TableNotFoundError`` if there is no such table, ``TypeError``
    for a field that cannot be saved and ``ValueError`` for a bad value.
    """
    table = await _save(session, table_id, expected_version, changes, LiveTable, _SAVE)
    assert isinstance(table, LiveTable)
    return table


async def save_table_version(session: AsyncSession, *, table_id: int, expected_version: int, **changes: Any) -> int:
    """``save_table`` that returns only the new version, not the row: for a caller that
    already holds what it saved (the bot, after every click), loading the row back into
    the session is most of the save's cost. Same checks, same refusals."""
    if dialect_name(session) == "sqlite" and not session.in_transaction() and SQLITE_IN_ONE_CALL:
        values = {**_checked_changes(changes), "updated_at": utcnow()}
        saved = await sqlite.save_table_version(session, table_id, expected_version, values)
        if saved is None:
            async with read_transaction(session):  # ended at once: the session holds no transaction after
                refusal = await _why_not_saved(session, table_id, expected_version)
            raise refusal
        return saved
    version = await _save(session, table_id, expected_version, changes, LiveTable.version, _SAVE_VERSION)
    assert isinstance(version, int)
    return version


async def _save(session: AsyncSession, table_id: int, expected_version: int, changes: dict[str, Any],
                returned: Any, options: dict[str, Any]) -> Any:
    values = _checked_changes(changes)
    statement = (
        update(LiveTable)
        .where(
            LiveTable.id == table_id,
            LiveTable.version == expected_version,
            LiveTable.status != "closed",
        )
        .values(**values, version=LiveTable.version + 1, updated_at=utcnow())
        .returning(returned)
    )
    async with write_transaction(session):
        saved = (await session.exec(statement, execution_options=options)).scalars().first()
        refusal = None if saved is not None else await _why_not_saved(session, table_id, expected_version)
    # Raised after the (empty) transaction committed: a rollback would expire
    # every object the session holds, and the caller's tables with them.
    if refusal is not None:
        raise refusal
    assert saved is not None
    return saved


async def _why_not_saved(session: AsyncSession, table_id: int, expected_version: int) -> StoreError:
    stored = (await session.exec(select(LiveTable.version, LiveTable.status).where(LiveTable.id == table_id))).first()
    if stored is None:
        return TableNotFoundError(table_id)
    version, status = stored
    if status == "closed":
        return TableClosedError(table_id)
    return StaleTableError(table_id, expected_version, version)


async def close_table(session: AsyncSession, *, table_id: int, expected_version: int | None = None) -> LiveTable:
    """Close the table, freeing its channel.

    With ``expected_version`` this is a ``save_table`` of the status (stale
    versions and closed tables are refused). Without it the table is closed
    whatever its version (an admin's force close), and closing a closed table
    returns it unchanged.
    """
    if expected_version is not None:
        return await save_table(session, table_id=table_id, expected_version=expected_version, status="closed")
    statement = (
        update(LiveTable)
        .where(LiveTable.id == table_id, LiveTable.status != "closed")
        .values(status="closed", version=LiveTable.version + 1, updated_at=utcnow())
        .returning(LiveTable)
    )
    async with write_transaction(session):
        table = (await session.exec(statement, execution_options=_SAVE)).scalars().first()
        if table is None:
            table = await session.get(LiveTable, table_id, populate_existing=True)
    if table is None:
        raise TableNotFoundError(table_id)
    return table
