"""The Discord client: settings and database in, the `tonk` cog loaded as an extension.

The bot knows nothing of the cogs beyond the extension's name: the cog registers its
persistent buttons, its error handler and its live tables itself (`setup`, `cog_load`),
and gives them back when unloaded (`Bot.close` unloads every extension).
"""

from __future__ import annotations

import gc
import logging
import random
from collections.abc import Callable

import discord
from discord.ext import commands

from bot.config import Settings
from bot.languages import LANGUAGES
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
        )
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

    async def setup_hook(self) -> None:
        if self.after_login is not None:
            self.after_login()
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
