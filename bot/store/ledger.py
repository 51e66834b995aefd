"""A server's standings, per season, and the admin reset that starts a new season.

Stakes mode ranks by balance (zero-sum, higher is better); push-ups mode by
push-up total (low is good). Ties share a rank (1, 2, 2, 4). A reset never
deletes: it archives the season that ends and bumps the server's season
number, so old standings stay queryable with ``season=``.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks
from .models import FIRST_SEASON, GuildSettings, LedgerEntry, SeasonArchive, utcnow
from .players import HUMAN_PREFIX
from .portable import insert_on_conflict
from .transactions import read_transaction, write_transaction


@dataclass(frozen=True, slots=True)
class Standing:
    """One account's line in the standings."""

    rank: int
    account: str
    display_name: str
    balance: int
    pushups: int
    hands: int
    wins: int
    tonk_outs: int
    catches: int
    caught_drops: int

    @property
    def user_id(self) -> int | None:
        """The Discord user id of a human; None for a computer player."""
        if self.account.startswith(HUMAN_PREFIX):
            return int(self.account.removeprefix(HUMAN_PREFIX))
        return None


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    season: int
    started_at: datetime | None
    """None for a server's first season: it runs from the beginning."""
    ended_at: datetime | None
    """None for the current season."""

    @property
    def is_current(self) -> bool:
        return self.ended_at is None


_STANDING_COLUMNS = (
    LedgerEntry.account,
    LedgerEntry.display_name,
    LedgerEntry.balance,
    LedgerEntry.pushups,
    LedgerEntry.hands,
    LedgerEntry.wins,
    LedgerEntry.tonk_outs,
    LedgerEntry.catches,
    LedgerEntry.caught_drops,
)


def _ranked(guild_id: int, season: int, mode: str) -> Any:
    metric = col(LedgerEntry.balance).desc() if mode == "stakes" else col(LedgerEntry.pushups).asc()
    return (
        select(func.rank().over(order_by=metric).label("rank"), *_STANDING_COLUMNS)
        .where(LedgerEntry.guild_id == guild_id, LedgerEntry.season == season)
        .order_by(metric, LedgerEntry.display_name, LedgerEntry.account)
    )


async def _season_or_current(session: AsyncSession, guild_id: int, season: int | None) -> int:
    if season is not None:
        return checks.check_int("season", season, minimum=FIRST_SEASON)
    current = (await session.exec(select(GuildSettings.season).where(GuildSettings.guild_id == guild_id))).first()
    return current or FIRST_SEASON


async def current_season(session: AsyncSession, *, guild_id: int) -> int:
    async with read_transaction(session):
        return await _season_or_current(session, guild_id, None)


async def standings(
    session: AsyncSession, *, guild_id: int, mode: str, limit: int = 10, season: int | None = None
) -> list[Standing]:
    """The top ``limit`` accounts of the season (default: the current one) in ``mode``."""
    mode = checks.check_scoring_mode(mode)
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        rows = (await session.exec(_ranked(guild_id, season, mode).limit(limit))).all()
    return [Standing(*row) for row in rows]


async def player_standing(
    session: AsyncSession, *, guild_id: int, account: str, mode: str, season: int | None = None
) -> Standing | None:
    """One account's rank and totals in the season, or None if it played no hand in it."""
    mode = checks.check_scoring_mode(mode)
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        ranked = _ranked(guild_id, season, mode).subquery()
        row = (await session.exec(select(*ranked.c).where(ranked.c.account == account))).first()
    return None if row is None else Standing(*row)


async def balance_total(session: AsyncSession, *, guild_id: int, season: int | None = None) -> int:
    """Sum of the stakes balances (all seasons, or one): always 0 on a healthy ledger."""
    statement = select(func.coalesce(func.sum(LedgerEntry.balance), 0)).where(LedgerEntry.guild_id == guild_id)
    if season is not None:
        statement = statement.where(LedgerEntry.season == season)
    async with read_transaction(session):
        return int((await session.exec(statement)).one())


async def start_new_season(session: AsyncSession, *, guild_id: int) -> int:
    """Archive the server's current standings and start the next season; return its number.

    Hands finished from now on count in the new season; old rows are kept.
    """
    now = utcnow()
    async with write_transaction(session):
        current = (
            await session.exec(
                select(GuildSettings.season, GuildSettings.season_started_at).where(GuildSettings.guild_id == guild_id)
            )
        ).first()
        old_season, started_at = current if current is not None else (FIRST_SEASON, None)
        defaults = GuildSettings(guild_id=guild_id)
        statement = insert_on_conflict(session, GuildSettings).values(
            guild_id=guild_id,
            rules=defaults.rules,
            stake=defaults.stake,
            scoring_mode=defaults.scoring_mode,
            turn_timer_seconds=defaults.turn_timer_seconds,
            season=old_season + 1,
            season_started_at=now,
            updated_at=now,
        )
        await session.exec(
            statement.on_conflict_do_update(
                index_elements=["guild_id"],
                set_={"season": old_season + 1, "season_started_at": now, "updated_at": now},
            )
        )
        await session.exec(
            insert_on_conflict(session, SeasonArchive).values(guild_id=guild_id, season=old_season, started_at=started_at, ended_at=now)
        )
    return old_season + 1


async def list_seasons(session: AsyncSession, *, guild_id: int) -> list[SeasonInfo]:
    """Every season of the server, oldest first, the current one last."""
    async with read_transaction(session):
        archived = (
            await session.exec(select(SeasonArchive).where(SeasonArchive.guild_id == guild_id).order_by(SeasonArchive.season))
        ).all()
        current = (
            await session.exec(
                select(GuildSettings.season, GuildSettings.season_started_at).where(GuildSettings.guild_id == guild_id)
            )
        ).first()
    season, started_at = current if current is not None else (FIRST_SEASON, None)
    seasons = [SeasonInfo(row.season, row.started_at, row.ended_at) for row in archived]
    return seasons + [SeasonInfo(season, started_at, None)]
