"""Season names: a server's host may name its current season or any ended one.

A name is only a label: the season's number stays the key of its ledger rows
and hands, so renaming changes no figure. The upsert is written with the
backend's own ``INSERT ... ON CONFLICT`` (SQLite and PostgreSQL spell it alike).
"""

from sqlalchemy import func
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks
from .ledger import _season_or_current
from .stats import _execute
from .models import FIRST_SEASON, GuildSettings, SeasonName, utcnow
from .portable import insert_on_conflict
from .transactions import read_transaction, write_transaction

MAX_SEASON_NAME = 50


def check_season_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError("A season's name needs at least one character.")
    name = " ".join(name.split())
    if len(name) > MAX_SEASON_NAME:
        raise ValueError(f"A season's name has at most {MAX_SEASON_NAME} characters, not {len(name)}.")
    return name


async def name_season(session: AsyncSession, *, guild_id: int, name: str, season: int | None = None) -> tuple[int, str]:
    """Name ``season`` (default: the current one); return its number and the name as stored.

    A season after the current one cannot be named yet (``ValueError``).
    """
    name = check_season_name(name)
    async with write_transaction(session):
        current = await _season_or_current(session, guild_id, None)
        season = current if season is None else checks.check_int("season", season, minimum=FIRST_SEASON)
        if season > current:
            raise ValueError(f"Season {season} has not begun: this server is in season {current}.")
        statement = insert_on_conflict(session, SeasonName).values(guild_id=guild_id, season=season, name=name, named_at=utcnow())
        await session.exec(
            statement.on_conflict_do_update(
                index_elements=["guild_id", "season"],
                set_={"name": statement.excluded.name, "named_at": statement.excluded.named_at},
            )
        )
    return season, name


async def season_names(session: AsyncSession, *, guild_id: int) -> dict[int, str]:
    """The server's named seasons: {season number: name}."""
    async with read_transaction(session):
        rows = await session.exec(select(SeasonName.season, SeasonName.name).where(SeasonName.guild_id == guild_id))
        return dict(rows.all())


async def season_label(session: AsyncSession, *, guild_id: int, season: int | None = None) -> tuple[int, int, str | None]:
    """(the season, the server's current season, the season's name or None), in one query.

    ``season`` defaults to the current one; it is not checked against the current one.
    """
    current = func.coalesce(
        select(GuildSettings.season).where(GuildSettings.guild_id == guild_id).scalar_subquery(), FIRST_SEASON
    )
    wanted = current if season is None else checks.check_int("season", season, minimum=FIRST_SEASON)
    name = select(SeasonName.name).where(SeasonName.guild_id == guild_id, SeasonName.season == wanted).scalar_subquery()
    async with read_transaction(session):
        current_season, season_name = (await _execute(session, select(current, name))).one()
    return (current_season if season is None else season), current_season, season_name
