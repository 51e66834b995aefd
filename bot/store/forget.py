"""Forgetting a server: every row the bot keeps about it, deleted in one transaction.

What a server's admin asks for with ``/tonk-admin forget`` (see PRIVACY.md): its
settings, its tables (open or closed), its finished hands and their seats, its
ledgers and their stats summaries, its seasons and their names. Other servers'
rows are untouched, and a player's rows on another server stay there.
"""

from dataclasses import dataclass

from sqlalchemy import delete
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import (GuildSettings, Hand, HandSeat, HandTally, HandToken, LedgerEntry, LiveTable, Rival, SeasonArchive,
                     SeasonName)
from .tournaments import forget_guild_tournaments
from .transactions import write_transaction


@dataclass(frozen=True, slots=True)
class Forgotten:
    """How many rows of each kind were deleted."""

    tables: int
    hands: int
    ledger_rows: int
    settings: bool


async def forget_guild(session: AsyncSession, *, guild_id: int) -> Forgotten:
    """Delete everything stored about server ``guild_id``, atomically (all or nothing).

    A hand's seats go first (they are keyed by the hand, not the server), then the hands
    (they point at their table), then the tables and the per-server rows.
    """
    async with write_transaction(session):
        await forget_guild_tournaments(session, guild_id=guild_id)
        hands = select(Hand.id).where(Hand.guild_id == guild_id).scalar_subquery()
        seats = delete(HandSeat).where(HandSeat.hand_pk.in_(hands))  # type: ignore[attr-defined]
        await session.exec(seats)  # type: ignore[call-overload]
        counts = {}
        for model in (HandToken, Hand, LiveTable, LedgerEntry, Rival, HandTally, SeasonName, SeasonArchive, GuildSettings):
            result = await session.exec(delete(model).where(model.guild_id == guild_id))  # type: ignore[call-overload]
            counts[model] = result.rowcount
    return Forgotten(tables=counts[LiveTable], hands=counts[Hand], ledger_rows=counts[LedgerEntry],
                     settings=bool(counts[GuildSettings]))
