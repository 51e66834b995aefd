"""What `/tonk stats player`, `/tonk stats server`, `/tonk top` and `/tonk-admin season` do.

The cog declares the commands (cogs/tonk.py) and calls these functions, which
ask ``bot.stats`` for the figures and answer with the embeds of
``stats_render`` (and the chart of ``stats_chart``). Refusals raise
``UserError`` before anything is sent, so the cog's error handler answers them
ephemerally.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

from bot.errors import UserError
from bot.stats import CHART_BY, StatsService, account_of_user, computer_account
from engine.text import N_, t

from cogs import stats_chart, stats_render
from cogs.common import reader_lang, server_lang

CHART_CHOICES = [app_commands.Choice(name=N_("by season"), value="season"),
                 app_commands.Choice(name=N_("by opponent"), value="opponent"),
                 app_commands.Choice(name=N_("no chart"), value="none")]
CATEGORY_CHOICES = [app_commands.Choice(name=N_("net points"), value="net"),
                    app_commands.Choice(name=N_("push-ups (low is good)"), value="pushups"),
                    app_commands.Choice(name=N_("win rate"), value="win_rate"),
                    app_commands.Choice(name=N_("wins"), value="wins"),
                    app_commands.Choice(name=N_("tonk outs"), value="tonk_outs"),
                    app_commands.Choice(name=N_("catches"), value="catches"),
                    app_commands.Choice(name=N_("best winning streak"), value="streak")]
"""/tonk top's categories, as the command's menu names them (in the catalogue: the menu is
localised when the commands are synced; `stats_render.CATEGORY_WORDS` are the answer's words)."""


def _server_name(interaction: discord.Interaction) -> str:
    return interaction.guild.name if interaction.guild else reader_lang(interaction).render(t("this server"))


def _guild_id(interaction: discord.Interaction) -> int:
    assert interaction.guild_id is not None  # the commands are guild_only
    return interaction.guild_id


async def player(stats: StatsService, interaction: discord.Interaction, *, player: discord.Member | None,
                 computer: str | None, season: int | None, chart: str) -> None:
    if player is not None and computer is not None:
        raise UserError(t("Pick a member or a computer player, not both."))
    if computer is not None:
        account, name = computer_account(computer)
    else:
        member = player or interaction.user
        account, name = account_of_user(member.id), member.display_name
    guild_id, server = _guild_id(interaction), _server_name(interaction)
    lang = server_lang(interaction)  # posted for everyone in the channel
    report = await stats.player(guild_id=guild_id, account=account, season=season, name=name)
    if chart not in CHART_BY:
        await interaction.response.send_message(embed=stats_render.player_embed(report, server=server, lang=lang))
        return
    data = await stats.chart(guild_id=guild_id, account=account, by=chart, name=report.stats.display_name)
    png = await asyncio.to_thread(stats_chart.balance_png, data, server=server, lang=lang)
    await interaction.response.send_message(
        embed=stats_render.player_embed(report, server=server, chart=True, lang=lang),
        file=discord.File(io.BytesIO(png), filename=stats_render.CHART_FILENAME,
                          description=stats_chart.describe(data, server=server, lang=lang)),
    )


async def computer_choices(stats: StatsService, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    computers = await stats.computers(guild_id=interaction.guild_id)
    wanted = current.strip().lower()
    return [app_commands.Choice(name=name[:100], value=account[:100])
            for account, name in computers if wanted in name.lower()][:25]


async def season_choices(stats: StatsService, interaction: discord.Interaction,
                         current: int | str | None) -> list[app_commands.Choice[int]]:
    """The server's seasons, newest first, named: what `season:` offers while typing."""
    if interaction.guild_id is None:
        return []
    typed = str(current or "").strip().lower()
    lang = reader_lang(interaction)
    named = [(lang.value(label), label) for label in await stats.seasons(guild_id=interaction.guild_id)]
    return [app_commands.Choice(name=name[:100], value=label.number)
            for name, label in named if typed in name.lower() or typed == str(label.number)][:25]


async def server(stats: StatsService, interaction: discord.Interaction, *, season: int | None) -> None:
    report = await stats.server(guild_id=_guild_id(interaction), season=season)
    await interaction.response.send_message(embed=stats_render.server_embed(
        report, server=_server_name(interaction), lang=server_lang(interaction)))


async def top(stats: StatsService, interaction: discord.Interaction, *, category: str, season: int | None,
              min_hands: int) -> None:
    report = await stats.top(guild_id=_guild_id(interaction), category=category, season=season,
                             account=account_of_user(interaction.user.id), min_hands=min_hands)
    await interaction.response.send_message(embed=stats_render.top_embed(
        report, server=_server_name(interaction), lang=server_lang(interaction)))


async def name_season(stats: StatsService, interaction: discord.Interaction, *, name: str, number: int | None) -> None:
    label = await stats.name_season(guild_id=_guild_id(interaction), name=name, season=number)
    await interaction.response.send_message(reader_lang(interaction).render(t("{season}: named.", season=label)))
