"""What edits each live private hand: one row per person and table (``hand_tokens``, schema v7).

Written in batches by bot/hand_tokens.py (a click lends a new token every time: one write per
click would double the bot's writes), read once at start to take the hands back up, and deleted
with their table or server.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import tuple_
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import HandToken
from .portable import insert_on_conflict
from .transactions import read_transaction, write_transaction

COLUMNS = ("guild_id", "application_id", "token", "message_id", "followup", "lent_at")


async def save_hand_tokens(session: AsyncSession, *, kept: Sequence[dict[str, Any]],
                           dropped: Iterable[tuple[int, int]] = (), tables_closed: Iterable[int] = ()) -> None:
    """In one transaction: delete the row of each (table, user) of `dropped` and every row of the
    tables in `tables_closed`, then upsert each row of `kept` (every column of ``HandToken``)."""
    gone, closed = list(dropped), list(tables_closed)
    async with write_transaction(session):
        if gone:
            await session.exec(delete(HandToken).where(  # type: ignore[call-overload]
                tuple_(col(HandToken.table_id), col(HandToken.user_id)).in_(gone)))
        if closed:
            await session.exec(delete(HandToken).where(col(HandToken.table_id).in_(closed)))  # type: ignore[call-overload]
        if kept:
            # one statement, its rows as parameters (executemany): compiled once per process, not
            # once per batch size as a multi-row VALUES would be
            insert = insert_on_conflict(session, HandToken)
            upsert = insert.on_conflict_do_update(index_elements=["table_id", "user_id"],
                                                  set_={name: insert.excluded[name] for name in COLUMNS})
            await session.exec(upsert, params=list(kept))  # type: ignore[call-overload]


async def list_hand_tokens(session: AsyncSession, *, table_ids: Iterable[int]) -> list[HandToken]:
    """The kept tokens of these tables, oldest first."""
    ids = list(table_ids)
    if not ids:
        return []
    async with read_transaction(session):
        rows = await session.exec(select(HandToken).where(col(HandToken.table_id).in_(ids))
                                  .order_by(col(HandToken.lent_at)))
        return list(rows.all())


async def delete_hand_tokens_before(session: AsyncSession, *, before: datetime) -> int:
    """Delete every token lent before `before` (Discord has expired them): how many."""
    async with write_transaction(session):
        result = await session.exec(delete(HandToken).where(col(HandToken.lent_at) < before))  # type: ignore[call-overload]
    return result.rowcount
