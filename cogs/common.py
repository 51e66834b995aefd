"""What the Tonk cogs share: who clicked, the choices of the commands, and the one place where
a problem is told to the person (a refusal, in one line) or logged (anything else)."""

from __future__ import annotations

import asyncio
import logging

import aiohttp

import discord
from discord import app_commands

import i18n
from bot.languages import PEOPLE, server_locale
from bot.service import Person
from bot.table import Scoring
from engine import PRESET_NAMES, TonkError
from engine.text import N_, Text, t

log = logging.getLogger("cogs")

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
SCORING_CHOICES = [app_commands.Choice(name=N_("stakes (zero-sum points)"), value=Scoring.STAKES.value),
                   app_commands.Choice(name=N_("push-ups (low is good)"), value=Scoring.PUSHUPS.value)]


def server_lang(guild_or_id: "discord.Guild | discord.Interaction | int | None") -> i18n.Lang:
    """The language of a server's shared messages (the table, its pings and notes, the showdown,
    answers posted for everyone): its `/tonk-admin settings language:`, else its Discord language
    (`guild_locale`), else English. Read from memory (`bot.languages`): no database round-trip.
    Give it the guild, or the interaction (its `guild_locale`), or just the server's id."""
    if isinstance(guild_or_id, discord.Interaction):
        guild_locale = guild_or_id.guild_locale
        return i18n.lang(server_locale(guild_or_id.guild_id, str(guild_locale) if guild_locale else None))
    if guild_or_id is None or isinstance(guild_or_id, int):
        return i18n.lang(server_locale(guild_or_id))
    preferred = guild_or_id.preferred_locale
    return i18n.lang(server_locale(guild_or_id.id, str(preferred) if preferred else None))


def reader_lang(interaction: discord.Interaction) -> i18n.Lang:
    """The language of the person who clicked or typed (their Discord client's, `locale`): for
    everything only they read (a private reply, a refusal, a confirmation, their own hand). It is
    remembered, for what they read later without a click in hand (their live hand)."""
    locale = str(interaction.locale) if getattr(interaction, "locale", None) else None
    if interaction.user is not None:
        PEOPLE.heard(interaction.user.id, locale)
    return i18n.lang(locale)


def person_lang(user_id: int | None) -> i18n.Lang:
    """The language of the last click `user_id` made (English when none is known)."""
    return i18n.lang(PEOPLE.locale(user_id))


def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def person_of(interaction: discord.Interaction) -> Person:
    user = interaction.user
    reader_lang(interaction)  # every click tells the person's language: remembered for their live hand
    perms = interaction.permissions
    return Person(user_id=user.id, name=user.display_name, is_admin=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id)


NOT_IN_DMS = t("Tonk is played in a server's text channels: use /tonk there, not in direct messages.")


def in_server(interaction: discord.Interaction) -> bool:
    """Every Tonk command and click is for a server: one clear line anywhere else. Discord
    offers the commands only in servers (`contexts`), but an old client may still send one."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage(NOT_IN_DMS)
    return True


def discords_fault(error: BaseException) -> bool:
    """Did Discord fail the answer, not the bot: a 5xx, a connection lost or timed out, or the
    click's 3 s run out while Discord was refusing the answer (10062, Unknown interaction)?"""
    if isinstance(error, (discord.DiscordServerError, OSError, aiohttp.ClientError, asyncio.TimeoutError)):
        return True
    return isinstance(error, discord.NotFound) and error.code == 10062


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__


async def report_error(interaction: discord.Interaction, error: BaseException, *, table_id: int | None = None) -> None:
    """Refusals go to the person, privately, in one line; anything else is logged with an apology."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    lang = reader_lang(interaction)
    words: Text | str
    if isinstance(error, TonkError):  # UserError is one
        words = error.text
    elif isinstance(error, app_commands.MissingPermissions):
        words = t("You need the Manage Server permission for that.")
    elif isinstance(error, app_commands.NoPrivateMessage):
        words = NOT_IN_DMS
    elif isinstance(error, app_commands.CheckFailure):
        words = t("You can't use that here.")
    elif discords_fault(error):  # the answer never reached the person; what was applied shows at their next look
        log.warning("table %s: Discord did not take the answer to %s (%s)", table_id,
                    getattr(interaction.command, "qualified_name", "a click"), _one_line(error))
        return
    else:
        log.error("table %s: %s failed", table_id, getattr(interaction.command, "qualified_name", "a click"),
                  exc_info=error)
        words = t("Sorry, something went wrong on my side. It has been logged; please try again.")
    text = lang.render(words)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell %s: %s", interaction.user, text)
