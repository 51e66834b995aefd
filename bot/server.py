"""A server's side of Tonk, apart from its tables: its settings, the house rules in force where
someone asks, its ledger and history, and deleting everything kept about it.

`TableService` changes tables; `ServerService` reads and changes what belongs to the server.
It uses the table service only to find the table in a channel and to close a server's tables
before its data is deleted.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from engine import Rules

from bot.commands import End
from bot.errors import StaleView, UserError
from bot.languages import ServerLanguages
from bot.service import Person, TableService
from bot.store import (Database, Forgotten, GuildSettings, PlayerRef, current_season, forget_guild,
                       get_guild_settings, guild_languages, hand_record, hand_with_accounts, list_open_tables, player_standing, recent_hands,
                       standings, start_new_season, update_guild_settings)
from bot.table import Scoring
from engine.text import Text, t


@dataclass(frozen=True, slots=True)
class House:
    """The house rules in force where someone asks: the table in this channel's, else the server's."""

    rules: Rules
    """With the table's (or server's) scoring mode, which may differ from its preset's."""
    stake: int
    title: Text
    table_id: int | None = None
    """The open table in the channel, if there is one."""
    turn_timer: int = 90
    """The server's seconds a turn."""


REVIEWS_KEPT = 256
"""Reviews kept in memory (per hand and seat): opening one again answers at once."""


def _review_text(record: dict, seat: int, seed: int, computers: tuple[int, ...]) -> str:
    """In the review worker process: the review's text, or the one line that says why there is none."""
    from engine.review import ReviewError, review

    try:
        return review(record, seat, seed=seed, computers=computers).text()
    except ReviewError as exc:
        return f"{REFUSED}{exc}"


REFUSED = "\x00refused:"

DISCORD_LANGUAGE = "discord"
"""`/tonk-admin settings language:`'s value for "the server's Discord language" (stored as None)."""


class ServerService:
    def __init__(self, db: Database, tables: TableService, languages: ServerLanguages | None = None):
        self.db = db
        self.tables = tables
        self.languages = languages if languages is not None else ServerLanguages()
        """Every server's chosen language, in memory (`load_languages` at start-up); the bot's is
        `bot.languages.LANGUAGES`, which `cogs.common.server_lang` reads."""
        self._reviews: OrderedDict[tuple[int, str, int], str] = OrderedDict()
        self._worker: ProcessPoolExecutor | None = None
        """One process for reviews: their seconds of search never hold up the event loop's tables."""

    # ------------------------------------------------------------------ reviewing a hand

    async def review(self, guild_id: int, hand_id: str, user_id: int) -> str:
        """The review of `user_id`'s own decisions in stored hand `hand_id` (engine/review.py), as
        text. Refused in one line: no such hand here, the person did not sit at it, or the review
        cannot be made (a computer's seat, house rules). Worked in a process of its own, kept."""
        async with self.db.sessions() as session:
            found = await hand_with_accounts(session, guild_id=guild_id, hand_id=hand_id)
        if found is None:
            raise UserError(t('There is no hand {hand_id} on this server (/tonk history lists them).', hand_id=repr(hand_id)))
        record, accounts = found
        account = PlayerRef.human(user_id, "me").account
        if account not in accounts:
            raise UserError(t('You did not play hand {hand_id}: a review is of your own decisions.', hand_id=hand_id))
        seat = accounts.index(account)
        key = (guild_id, hand_id, seat)
        text = self._reviews.get(key)
        if text is None:
            computers = tuple(i for i, a in enumerate(accounts) if not a.startswith("user:"))
            if self._worker is None:
                self._worker = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self._worker, _review_text, record, seat,
                                              zlib.crc32(hand_id.encode()), computers)
            self._reviews[key] = text
            while len(self._reviews) > REVIEWS_KEPT:
                self._reviews.popitem(last=False)
        if text.startswith(REFUSED):
            raise UserError(text.removeprefix(REFUSED))
        return text

    def close(self) -> None:
        """Stop the review worker (at the cog's unload)."""
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    # ------------------------------------------------------------------ settings, ledger, history

    async def load_languages(self) -> None:
        """Read every server's chosen language, once: from then on `server_locale` answers from memory."""
        async with self.db.sessions() as session:
            self.languages.load(await guild_languages(session))

    def server_locale(self, guild_id: int | None, guild_locale: str | None = None) -> str:
        """The Discord locale of the server's tables and shared answers (no database round-trip)."""
        return self.languages.server_locale(guild_id, guild_locale)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.sessions() as session:
            return await get_guild_settings(session, guild_id=guild_id)

    async def pictures_enabled(self, guild_id: int) -> bool:
        """Whether this server shows tables and hands as pictures (a server setting, on by default)."""
        return (await self.guild_settings(guild_id)).pictures

    async def house(self, guild_id: int | None, channel_id: int | None) -> House:
        """The house rules of the table in this channel, else of this server, else the standard game."""
        table = await self.tables.open_in_channel(channel_id) if guild_id and channel_id else None
        settings = await self.guild_settings(guild_id) if guild_id else None
        timer = settings.turn_timer_seconds if settings is not None else House.turn_timer
        if table is not None:
            return House(replace(table.rules, scoring=table.scoring.value), table.stake,
                         t("House rules at table {id}", id=table.id), table.id, timer)
        if settings is not None:
            rules = replace(Rules.from_dict(settings.rules), scoring=settings.scoring_mode)
            return House(rules, settings.stake, t("This server's house rules"), turn_timer=timer)
        return House(Rules(), 1, t("This server's house rules"))

    async def house_rules(self, guild_id: int | None, channel_id: int | None) -> tuple[Rules, str]:
        house = await self.house(guild_id, channel_id)
        return house.rules, house.title

    async def update_settings(self, guild_id: int, *, preset: str | None = None, stake: int | None = None,
                              scoring: str | None = None, turn_timer: int | None = None,
                              allow_channel: int | None = None, disallow_channel: int | None = None,
                              all_channels: bool = False, new_season: bool = False,
                              pictures: bool | None = None,
                              language: str | None = None) -> tuple[GuildSettings, list[str]]:
        """Change the server's defaults; the channel allow-list keeps at least one channel (or all).
        `language`: a shipped Discord locale, or `DISCORD_LANGUAGE` (the server's own)."""
        notes = []
        async with self.db.sessions() as session:
            current = await get_guild_settings(session, guild_id=guild_id)
            changes: dict[str, Any] = {}
            if preset is not None:
                changes["rules"] = Rules.preset(preset).to_dict(preset)
            if stake is not None:
                changes["stake"] = stake
            if scoring is not None:
                changes["scoring_mode"] = Scoring(scoring).value
            if turn_timer is not None:
                changes["turn_timer_seconds"] = turn_timer
            if pictures is not None:
                changes["pictures"] = pictures
            if language is not None:
                changes["language"] = None if language == DISCORD_LANGUAGE else language
            channels = list(current.table_channel_ids or [])
            if all_channels:
                channels = []
            if allow_channel is not None and allow_channel not in channels:
                channels.append(allow_channel)
            if disallow_channel is not None:
                if not channels:
                    raise UserError(t('Every channel may host tables now: allow the ones you want first.'))
                channels = [c for c in channels if c != disallow_channel]
                if not channels:
                    raise UserError(t('At least one channel must be able to host tables (or use all_channels).'))
            if all_channels or allow_channel is not None or disallow_channel is not None:
                changes["table_channel_ids"] = channels
            if changes:
                current = await update_guild_settings(session, guild_id=guild_id, **changes)
                self.languages.chose(guild_id, current.language)
            if new_season:
                season = await start_new_season(session, guild_id=guild_id)
                notes.append(t("The old standings are archived; season {season} begins.", season=season))
        return current, notes

    async def forget_server(self, guild_id: int, person: Person) -> Forgotten:
        """Delete everything kept about server `guild_id` (Manage Server only): its open tables are
        closed first, as /tonk end closes them (their messages say so, an unfinished hand pays
        nothing), then every row of the server goes in one transaction."""
        if not person.is_admin:
            raise UserError(t('You need the Manage Server permission for that.'))
        async with self.db.sessions() as session:
            open_tables = await list_open_tables(session, guild_id=guild_id)
        for row in open_tables:
            try:
                await self.tables.apply(row.id, person, End(person.user_id, person.name, is_admin=True, forgetting=True))  # type: ignore[arg-type]
            except (UserError, StaleView):  # closed meanwhile
                pass
        async with self.tables.writes.exclusive(), self.db.sessions() as session:
            done = await forget_guild(session, guild_id=guild_id)
        self.languages.forgot(guild_id)
        for table_id in [t for t, table in self.tables._latest.items() if table.guild_id == guild_id]:
            self.tables.forget(table_id)
        self.tables.forget_server_players(guild_id)
        return done

    async def ledger(self, guild_id: int, user_id: int, mode: str | None):
        """(mode, top rows, the user's own standing, season) for /tonk ledger."""
        async with self.db.sessions() as session:
            if mode is None:
                mode = (await get_guild_settings(session, guild_id=guild_id)).scoring_mode
            rows = await standings(session, guild_id=guild_id, mode=mode, limit=10)
            mine = await player_standing(session, guild_id=guild_id, mode=mode,
                                         account=PlayerRef.human(user_id, "me").account)
            season = await current_season(session, guild_id=guild_id)
        return mode, rows, mine, season

    async def recent_hands(self, guild_id: int, count: int):
        async with self.db.sessions() as session:
            return await recent_hands(session, guild_id=guild_id, limit=count)

    async def hand_record(self, guild_id: int, hand_id: str) -> dict:
        async with self.db.sessions() as session:
            record = await hand_record(session, guild_id=guild_id, hand_id=hand_id)
        if record is None:
            raise UserError(t('There is no hand {hand_id} on this server.', hand_id=repr(hand_id)))
        return record


__all__ = ["DISCORD_LANGUAGE", "House", "ServerService"]
