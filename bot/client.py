"""The Discord client: settings and database in, the `tonk` cog loaded as an extension.

The bot knows nothing of the cogs beyond the extension's name: the cog registers its
persistent buttons, its error handler and its live tables itself (`setup`, `cog_load`),
and gives them back when unloaded (`Bot.close` unloads every extension).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Callable
from pathlib import Path

import discord
from discord.ext import commands

from bot.config import Settings
from bot.languages import LANGUAGES
from bot.metrics import METRICS, write_health
from bot.server import ServerService
from bot.service import TableService
from bot.store import Database
from bot.tournaments import TournamentService
from bot.translator import CatalogueTranslator

log = logging.getLogger(__name__)

INTENTS = discord.Intents.none()
INTENTS.guilds = True  # channels and the guild for interactions; no privileged intents
EXTENSIONS = ("cogs.tonk",)


class TonkBot(commands.AutoShardedBot):
    """Runs the shards of SHARD_IDS (all by default) and drives only their servers' tables."""

    def __init__(self, *, settings: Settings, db: Database, after_login: Callable[[], None] | None = None):
        # the bot never joins a voice channel: discord.py's warnings that its voice libraries
        # (PyNaCl, davey) are missing say nothing about this bot, and would alarm its operator
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            # discord.py keeps the last 1000 messages it is sent (MESSAGE_CREATE) for lookups the
            # bot never makes: it edits and deletes its messages by id (partial messages)
            max_messages=None,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
            # every request to Discord counted by route and status (METRICS_PORT)
            http_trace=METRICS.trace_config() if METRICS.enabled else None,
        )
        self._watchers: list[asyncio.Task] = []
        self._health_wake = asyncio.Event()
        """Set when a shard's gateway is ready: the health file says so at once, not 10 s later."""
        self.settings = settings
        self.db = db
        self.after_login = after_login
        """Called once Discord has accepted the token, before the cogs load (python -m bot's start-up log)."""
        rng = random.Random(settings.deal_seed) if settings.deal_seed is not None else None
        self.service = TableService(db, rng=rng)
        self.server = ServerService(db, self.service, LANGUAGES)
        LANGUAGES.guild_locale = self._guild_locale
        seeds = random.Random(settings.deal_seed + 1) if settings.deal_seed is not None else None
        self.tournaments = TournamentService(db, self.service,
                                             seed=(lambda: seeds.getrandbits(48)) if seeds is not None else None)

    def _guild_locale(self, guild_id: int) -> str | None:
        guild = self.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None and guild.preferred_locale else None

    def gateway_connected(self) -> bool:
        """Every shard of this process has its gateway connection open (the health check)."""
        shards = self.shards
        return self.is_ready() and bool(shards) and all(not shard.is_closed() for shard in shards.values())

    async def _database_answers(self) -> None:
        from sqlalchemy import text

        async with self.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    def _watch(self) -> None:
        """The metrics' sampler and the health file, when the host asked for them."""
        if METRICS.enabled:
            METRICS.watch_database(self.db.engine.sync_engine)
            self.service.finished_hooks.append(lambda table: METRICS.hand_finished(self._shard_of(table.guild_id)))
            self._watchers.append(asyncio.ensure_future(METRICS.sample(
                lambda: [table.status.value for table in self.service.open_tables()], lambda: self.latencies)))
        if self.settings.health_file:
            self._watchers.append(asyncio.ensure_future(write_health(
                Path(self.settings.health_file), self.gateway_connected, self._database_answers,
                wake=self._health_wake)))

    async def on_ready(self) -> None:  # every shard of this process ready
        self._health_wake.set()

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._health_wake.set()

    def _shard_of(self, guild_id: int | None) -> int:
        return (guild_id >> 22) % (self.shard_count or 1) if guild_id else 0

    async def close(self) -> None:
        for task in self._watchers:
            task.cancel()
        await super().close()

    async def setup_hook(self) -> None:
        if self.after_login is not None:
            self.after_login()
        self._watch()
        await self.server.load_languages()  # every server's chosen language, once: no click asks the database
        # the commands' descriptions and choices in every shipped language; their names stay English
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Everything made so far lives as long as the process (modules, SQLAlchemy's and discord.py's
        # state, the card art and fonts): out of the cyclic collector's way, a full collection walks
        # only what play creates. Left in, each full collection (every few seconds at 100 clicks/s)
        # walked all of it and stopped the bot for 80-100 ms, the clicks' p99.
        gc.collect()
        gc.freeze()
        for guild_id in self.settings.clear_guild_commands:
            if guild_id != self.settings.dev_guild_id:
                # this bot's server-level commands there (left by an earlier DEV_GUILD_ID) go:
                # syncing an empty list removes them, and touches no other bot's or global command
                await self.tree.sync(guild=discord.Object(guild_id))
                log.info("removed this bot's server-level commands in server %s (CLEAR_GUILD_COMMANDS)", guild_id)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
