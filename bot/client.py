"""The Discord client: settings and database in, cogs and persistent buttons loaded."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.errors import UserError
from bot.service import TableService
from bot.shards import ShardOwnership
from bot.store import Database
from engine import TonkError

log = logging.getLogger(__name__)

INTENTS = discord.Intents.none()
INTENTS.guilds = True  # channels and the guild for interactions; no privileged intents


class TonkBot(commands.AutoShardedBot):
    """Runs the shards of SHARD_IDS (all by default) and drives only their servers' tables."""

    def __init__(self, *, settings: Settings, db: Database):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
        )
        self.settings = settings
        self.db = db
        self.ownership = ShardOwnership(settings.shard_count, settings.shard_ids)
        self.service = TableService(db)
        from cogs.live import LiveTables

        self.live = LiveTables(self)
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        from cogs.components import TonkButton, TonkSelect

        await self.load_extension("cogs.tonk")
        self.add_dynamic_items(TonkButton, TonkSelect)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.live.resume_all()

    async def close(self) -> None:
        await self.live.close()
        await super().close()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        await self.report_error(interaction, error)

    async def report_error(self, interaction: discord.Interaction, error: BaseException,
                           *, table_id: int | None = None) -> None:
        """Refusals go to the user ephemerally; anything else is logged with an apology."""
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        if isinstance(error, (UserError, TonkError)):
            text = str(error)
        elif isinstance(error, app_commands.MissingPermissions):
            text = "You need the Manage Server permission for that."
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = "Tonk tables live in server channels."
        elif isinstance(error, app_commands.CheckFailure):
            text = "You can't use that here."
        else:
            log.error("table %s: %s failed", table_id, getattr(interaction.command, "qualified_name", "a click"),
                      exc_info=error)
            text = "Sorry, something went wrong on my side. It has been logged; please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell %s: %s", interaction.user, text)
