"""Per-server settings: the defaults a new table starts from.

A server with no row yet gets the defaults (standard rules, stake 1, stakes
mode, 90 s turn timer, every channel, pictures on, the server's Discord
language); its row is written on the first update.
"""

from collections.abc import Iterable
from typing import Any, Final

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks
from .models import GuildSettings, utcnow
from .portable import insert_on_conflict
from .transactions import read_transaction, write_transaction


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final[Any] = _Unset()
"""Default of the update arguments: leave this setting as it is."""


async def get_guild_settings(session: AsyncSession, *, guild_id: int) -> GuildSettings:
    """The server's settings, or unsaved defaults (``updated_at`` None) if it has none yet."""
    async with read_transaction(session):
        settings = await session.get(GuildSettings, guild_id, populate_existing=True)
    return settings if settings is not None else GuildSettings(guild_id=guild_id)


async def guild_languages(session: AsyncSession) -> dict[int, str]:
    """{guild_id: language} of every server that chose one (the others speak their Discord language)."""
    async with read_transaction(session):
        rows = await session.exec(select(GuildSettings.guild_id, GuildSettings.language)
                                  .where(col(GuildSettings.language).is_not(None)))
        return {guild_id: language for guild_id, language in rows.all()}


async def update_guild_settings(
    session: AsyncSession,
    *,
    guild_id: int,
    rules: dict[str, Any] = UNSET,
    stake: int = UNSET,
    scoring_mode: str = UNSET,
    turn_timer_seconds: int = UNSET,
    table_channel_ids: Iterable[int] | None = UNSET,
    pictures: bool = UNSET,
    language: str | None = UNSET,
) -> GuildSettings:
    """Change the given settings (the others keep their value) and return them all.

    ``table_channel_ids``: an empty list or None allows every channel. ``language``: a shipped
    Discord locale, or None for the server's Discord language.
    """
    changes: dict[str, Any] = {}
    if rules is not UNSET:
        changes["rules"] = checks.check_rules(rules)
    if stake is not UNSET:
        changes["stake"] = checks.check_stake(stake)
    if scoring_mode is not UNSET:
        changes["scoring_mode"] = checks.check_scoring_mode(scoring_mode)
    if turn_timer_seconds is not UNSET:
        changes["turn_timer_seconds"] = checks.check_int("turn timer seconds", turn_timer_seconds, minimum=1)
    if table_channel_ids is not UNSET:
        changes["table_channel_ids"] = checks.check_channel_ids(table_channel_ids)
    if pictures is not UNSET:
        changes["pictures"] = checks.check_bool("pictures", pictures)
    if language is not UNSET:
        changes["language"] = checks.check_language(language)
    changes["updated_at"] = utcnow()

    defaults = GuildSettings(guild_id=guild_id)
    row = {
        "guild_id": guild_id,
        "rules": defaults.rules,
        "stake": defaults.stake,
        "scoring_mode": defaults.scoring_mode,
        "turn_timer_seconds": defaults.turn_timer_seconds,
        "table_channel_ids": defaults.table_channel_ids,
        "season": defaults.season,
        "pictures": defaults.pictures,
        "language": defaults.language,
        **changes,
    }
    statement = insert_on_conflict(session, GuildSettings).values(row)
    statement = statement.on_conflict_do_update(
        index_elements=["guild_id"],
        set_={name: statement.excluded[name] for name in changes},
    ).returning(GuildSettings)
    async with write_transaction(session):
        result = await session.exec(statement, execution_options={"populate_existing": True})
        return result.scalars().one()
