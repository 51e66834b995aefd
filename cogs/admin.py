"""`/tonk-admin`: the commands of a server's managers, in a group of their own.

Discord shows a command to a member only if they have its group's
`default_member_permissions` (here Manage Server; a server may grant it to other
roles in its Integrations settings). It ignores that on a subcommand, which is why
these are not `/tonk settings` and `/tonk season` any more: under `/tonk`, every member
saw them. Each command still checks Manage Server when it runs, and so does each click
on a confirmation, because a server can change who sees a command.

Whatever cannot be undone asks first, with buttons (`cogs.components.ask_button`):
starting a new season, and forgetting the server.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.errors import UserError
from bot.languages import language_name
from bot.server import DISCORD_LANGUAGE, ServerService
from bot.service import TableService
from engine.text import N_, Text, lines, t, tn

from cogs import render, stats_commands
from cogs.components import ASK_EVENT, ask_button, view_of
from cogs.common import (PRESET_CHOICES, SCORING_CHOICES, in_server, person_of, reader_lang, report_error,
                         server_lang)

GROUP_NAME = "tonk-admin"

FORGET_QUESTION = lines(
    t("**Delete everything Tonk keeps about this server?**"),
    t("Its settings, every table (an open one closes now: an unfinished hand pays nothing), every hand "
      "played here and its record, the ledger of every season, the stats and the season names. "
      "Players' data on other servers stays. This cannot be undone."))
SEASON_QUESTION = t("**Start a new season?** The standings of this season are archived (`season:` in /tonk stats "
                    "and /tonk top still shows them) and everyone starts again from 0.")


LANGUAGE_CHOICES = ([app_commands.Choice(name=N_("The server's Discord language"), value=DISCORD_LANGUAGE)]
                    + [app_commands.Choice(name=language_name(locale), value=locale) for locale in i18n.SHIPPED])
"""Each shipped language under its own name ("Deutsch", "Español"), whoever reads the menu."""


def with_language(embed: discord.Embed, settings, interaction: discord.Interaction) -> discord.Embed:
    """The settings' embed with the server's language, in the words of the manager who asked."""
    reader = i18n.lang(str(interaction.locale) if interaction.locale else None)
    shared = server_lang(interaction)
    name = language_name(shared.locale)
    if settings.language is None:
        value = reader.render(t("{language} (the server's Discord language)", language=name))
    else:
        value = name
    embed.add_field(name=reader.render(t("Language")), value=value[:1024], inline=True)
    return embed


def asking(question: Text, what: str, yes: Text, lang: i18n.Lang) -> dict:
    """An ephemeral confirmation in the reader's language: the question, a red button that does it,
    a grey one that does not."""
    return {"content": lang.render(question),
            "view": view_of(ask_button(what, lang.render(yes)[:80], discord.ButtonStyle.danger),
                            ask_button("keep", lang.render(t("Keep everything as it is"))[:80]))}


def forgotten_text(done, lang: i18n.Lang) -> str:
    parts = [tn("{n} table", "{n} tables", done.tables), tn("{n} hand", "{n} hands", done.hands),
             tn("{n} ledger row", "{n} ledger rows", done.ledger_rows)]
    if done.settings:
        parts.append(t("its settings"))
    return lang.render(t("Done: this server's Tonk data is deleted ({what}). /tonk new starts afresh.",
                         what=lang.join(parts)))


@app_commands.guild_only()
@app_commands.guild_install()
@app_commands.default_permissions(manage_guild=True)
class TonkAdminCog(commands.GroupCog, name="TonkAdmin", group_name=GROUP_NAME,
                   group_description=N_("Tonk for server managers: settings, seasons, deleting this server's data")):
    def __init__(self, tonk: commands.Cog):
        """`tonk`: the Tonk cog, whose service, live tables and stats these commands share."""
        self.tonk = tonk
        self.service: TableService = tonk.service  # type: ignore[attr-defined]
        self.server: ServerService = tonk.server  # type: ignore[attr-defined]
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return in_server(interaction)

    # ------------------------------------------------------------------ /tonk-admin settings

    @app_commands.command(name="settings", description=N_("Server defaults for new tables (Manage Server)"))
    @app_commands.checks.has_permissions(manage_guild=True)  # and at run time: a server can show it to others
    @app_commands.describe(
        preset=N_("Default house rules"), stake=N_("Default stake"), scoring=N_("Default scoring mode"),
        turn_timer=N_("Seconds a player has for a turn"), allow_channel=N_("Let this channel host tables"),
        disallow_channel=N_("Stop this channel hosting tables"), all_channels=N_("Let every channel host tables"),
        new_season=N_("Archive the ledger and start a new season (asks first)"),
        pictures=N_("Show tables and hands as pictures (off: text only)"),
        language=N_("Language of the tables and of answers for everyone (default: the server's Discord language)"),
    )
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       stake: app_commands.Range[int, 1, 1000] | None = None, scoring: str | None = None,
                       turn_timer: app_commands.Range[int, 3, 3600] | None = None,
                       allow_channel: discord.TextChannel | None = None,
                       disallow_channel: discord.TextChannel | None = None,
                       all_channels: bool = False, new_season: bool = False,
                       pictures: bool | None = None, language: str | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        current, notes = await self.server.update_settings(
            guild_id, preset=preset, stake=stake, scoring=scoring, turn_timer=turn_timer,
            allow_channel=allow_channel.id if allow_channel else None,
            disallow_channel=disallow_channel.id if disallow_channel else None,
            all_channels=all_channels, pictures=pictures, language=language)
        self.tonk.live.settings_changed(guild_id)
        embed = with_language(render.settings_embed(current, notes, lang=reader_lang(interaction)), current, interaction)
        if not new_season:
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        await interaction.response.send_message(embed=embed, ephemeral=True,
                                                **asking(SEASON_QUESTION, "season", t("Start a new season"),
                                                         reader_lang(interaction)))

    # ------------------------------------------------------------------ /tonk-admin season

    @app_commands.command(name="season",
                          description=N_("Name this server's current season, or an ended one (Manage Server)"))
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(name=N_("The season's name"), number=N_("Which season (default: the current one)"))
    async def season(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 50],
                     number: app_commands.Range[int, 1] | None = None) -> None:
        await stats_commands.name_season(self.tonk.stats, interaction, name=name, number=number)

    # ------------------------------------------------------------------ /tonk-admin forget

    @app_commands.command(name="forget", description=N_("Delete everything Tonk keeps about this server (asks first)"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def forget(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(**asking(FORGET_QUESTION, "forget", t("Delete this server's data"),
                                                         reader_lang(interaction)),
                                                ephemeral=True)

    # ------------------------------------------------------------------ the confirmations' buttons

    @commands.Cog.listener(f"on_{ASK_EVENT}")
    async def on_ask(self, interaction: discord.Interaction, what: str) -> None:
        try:
            await self._answer(interaction, what)
        except Exception as exc:
            await report_error(interaction, exc)

    async def _answer(self, interaction: discord.Interaction, what: str) -> None:
        if what == "keep":
            await interaction.response.edit_message(content=reader_lang(interaction).render(t("Nothing changed.")),
                                                    view=None)
            return
        if not in_server(interaction):
            return
        person = person_of(interaction)
        if not person.is_admin:
            raise UserError(t("You need the Manage Server permission for that."))
        guild_id = interaction.guild_id
        assert guild_id is not None
        if what == "season":
            current, notes = await self.server.update_settings(guild_id, new_season=True)
            embed = with_language(render.settings_embed(current, notes, lang=reader_lang(interaction)), current, interaction)
            await interaction.response.edit_message(content=None, embed=embed, view=None)
        elif what == "forget":
            await interaction.response.defer()  # closing the open tables first may take a moment
            done = await self.server.forget_server(guild_id, person)
            self.tonk.live.settings_changed(guild_id)
            await interaction.edit_original_response(content=forgotten_text(done, reader_lang(interaction)), view=None)
