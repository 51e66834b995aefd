"""What the Tonk cogs share: who clicked, the choices of the commands, and the one place where
a problem is told to the person (a refusal, in one line) or logged (anything else)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.service import Person
from bot.table import Scoring
from engine import PRESET_NAMES, TonkError

log = logging.getLogger("cogs")

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
SCORING_CHOICES = [app_commands.Choice(name="stakes (zero-sum points)", value=Scoring.STAKES.value),
                   app_commands.Choice(name="push-ups (low is good)", value=Scoring.PUSHUPS.value)]
def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def person_of(interaction: discord.Interaction) -> Person:
    user = interaction.user
    perms = interaction.permissions
    return Person(user_id=user.id, name=user.display_name, is_admin=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id)


NOT_IN_DMS = "Tonk is played in a server's text channels: use /tonk there, not in direct messages."


def in_server(interaction: discord.Interaction) -> bool:
    """Every Tonk command and click is for a server: one clear line anywhere else. Discord
    offers the commands only in servers (`contexts`), but an old client may still send one."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage(NOT_IN_DMS)
    return True


async def report_error(interaction: discord.Interaction, error: BaseException, *, table_id: int | None = None) -> None:
    """Refusals go to the person, privately, in one line; anything else is logged with an apology."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, TonkError):  # UserError is one
        text = str(error)
    elif isinstance(error, app_commands.MissingPermissions):
        text = "You need the Manage Server permission for that."
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = NOT_IN_DMS
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
