"""The `/tonk` command group and every click on a Tonk button or menu.

Callbacks translate a click into a service call and render the answer; the engine, the
table model and the service decide what is allowed, and the cog holds no SQL. Every
interaction is answered at once (well within Discord's 3 seconds; the commands that
read the ledger defer first); refusals are ephemeral and never errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import StaleView, UserError
from bot.service import Person, TableService
from bot.stats import StatsService
from bot.table import Level, Scoring, Table
from engine import PRESET_NAMES, Rules, TonkError
from engine.help import OPTIONS, help_sections, option_words

from cogs import pictures, render, stats_commands
from cogs.components import ENGINE_VERB, PLAYS, Click, RulesHereButton, TonkButton, TonkSelect, Verb
from cogs.live import LiveTables

log = logging.getLogger(__name__)

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
SCORING_CHOICES = [app_commands.Choice(name="stakes (zero-sum points)", value=Scoring.STAKES.value),
                   app_commands.Choice(name="push-ups (low is good)", value=Scoring.PUSHUPS.value)]
SIDE_BET_CHOICES = [app_commands.Choice(name="high card (each shows their top card of a called suit)",
                                       value="high_card"),
                    app_commands.Choice(name="naturals (the first book of natural cards)", value="naturals"),
                    app_commands.Choice(name="both", value="both"),
                    app_commands.Choice(name="off (the pots go back to those who paid in)", value="off")]
SIDE_BET_KINDS = {"high_card": ("high_card",), "naturals": ("naturals",), "both": ("high_card", "naturals"), "off": ()}
SUIT_CHOICES = [app_commands.Choice(name="called at random at each deal", value="random"),
                app_commands.Choice(name="spades always", value="spades")]
LEVEL_CHOICES = [app_commands.Choice(name=level.value, value=level.value) for level in Level]

TableCall = Callable[[TableService, int, Person, Click], Awaitable[Table]]
TABLE_CALLS: dict[Verb, TableCall] = {
    Verb.JOIN: lambda s, t, p, c: s.join(t, p),
    Verb.LEAVE: lambda s, t, p, c: s.leave(t, p),
    Verb.CPU: lambda s, t, p, c: s.add_computer(t, p, c.values[0] if c.values else "normal"),
    Verb.START: lambda s, t, p, c: s.start(t, p),
    Verb.CANCEL: lambda s, t, p, c: s.end(t, p),
    Verb.NEXT: lambda s, t, p, c: s.next_hand(t, p),
    Verb.BACK: lambda s, t, p, c: s.back(t, p),
    Verb.SLAP: lambda s, t, p, c: s.slap(t, p, c.version),
    Verb.PRESET: lambda s, t, p, c: s.set_preset(t, p, c.values[0] if c.values else "standard"),
    Verb.SIDE: lambda s, t, p, c: s.toggle_side_bets(t, p),
}
"""Clicks on the shared table message: verb to service call; the reply edits that message."""


TABLE_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",  # the turn pings
    "embed_links": "Embed Links",  # the table, the lobby and the hands are embeds
}
"""What the bot needs in a channel to keep a table alive there (the table message is the
command's reply, but its later edits and the turn pings go through the channel)."""
PICTURE_PERMISSIONS = {"attach_files": "Attach Files"}
"""And to show the table as a picture, when the server has pictures on."""


def missing_permissions(permissions: discord.Permissions, *, pictures: bool, thread: bool = False) -> list[str]:
    """The names of the permissions a table needs here that `permissions` lacks."""
    needed = dict(TABLE_PERMISSIONS)
    if thread:  # in a thread, Send Messages in Threads is what lets the bot post
        needed.pop("send_messages")
        needed["send_messages_in_threads"] = "Send Messages in Threads"
    if pictures:
        needed.update(PICTURE_PERMISSIONS)
    return [name for flag, name in needed.items() if not getattr(permissions, flag)]


def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def person_of(interaction: discord.Interaction) -> Person:
    user = interaction.user
    perms = interaction.permissions
    return Person(user_id=user.id, name=user.display_name, is_admin=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id)


class TonkCog(commands.GroupCog, name="Tonk", group_name="tonk", group_description="Play Tonk, the knock-rummy"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.service: TableService = bot.service  # type: ignore[attr-defined]
        self.live = LiveTables(bot, self.service, bot.settings)  # type: ignore[attr-defined]
        self.stats = StatsService(bot.db)  # type: ignore[attr-defined]
        self._tree_on_error = None
        super().__init__()

    async def cog_load(self) -> None:
        # the first picture in a process loads fonts and builds the card art (most of a
        # second): do it now, off the event loop, not inside a player's first click
        await asyncio.to_thread(pictures.warm)
        self.service.listeners.append(self.live.on_events)
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[assignment]
        await self.live.resume_all()

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._tree_on_error  # type: ignore[assignment]
        if self.live.on_events in self.service.listeners:
            self.service.listeners.remove(self.live.on_events)
        await self.live.close()

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

    # ------------------------------------------------------------------ /tonk new

    @app_commands.command(name="new", description="Open a Tonk table in this channel")
    @app_commands.guild_only()
    @app_commands.describe(
        preset="House rules to play (default: this server's)",
        stake="Points per single stake (default: this server's)",
        scoring="Stakes or push-ups (default: the preset's or this server's)",
        hand_size="Cards dealt to each player",
        computers="Computer players to seat at once",
        level="How well the computer players play",
    )
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES, level=LEVEL_CHOICES,
                          hand_size=[app_commands.Choice(name="5 cards", value=5),
                                     app_commands.Choice(name="7 cards", value=7)])
    async def new(self, interaction: discord.Interaction, preset: str | None = None,
                  stake: app_commands.Range[int, 1, 1000] | None = None, scoring: str | None = None,
                  hand_size: int | None = None, computers: app_commands.Range[int, 0, 5] = 0,
                  level: str = "normal") -> None:
        missing = missing_permissions(
            interaction.app_permissions, pictures=await self.service.pictures_enabled(interaction.guild_id),  # type: ignore[arg-type]
            thread=isinstance(interaction.channel, discord.Thread))
        if missing:
            raise UserError(f"I can't keep a table going in this channel: I lack {and_list(missing)} here. "
                            "Ask someone who manages the server to allow me that in this channel's permissions, "
                            "then /tonk new again."
                            + (" (Attach Files is for the table pictures: instead, a manager may turn them off "
                               "with /tonk settings pictures:False.)" if missing == ["Attach Files"] else ""))
        table = await self.service.open_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, host=person_of(interaction),  # type: ignore[arg-type]
            preset=preset, stake=stake, scoring=scoring, hand_size=hand_size, computers=computers, level=level,
        )
        try:
            response = await interaction.response.send_message(**render.table_message(table.public()))
            message_id = getattr(response, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except Exception:
            # no lobby message reached the channel: free the channel instead of leaving an
            # invisible table behind
            await self.service.end(table.id, Person(table.host_user_id, "the bot", is_admin=True))
            raise
        table = await self.service.set_message(table.id, message_id)
        if table is not None:
            self.live.on_events(table, [])
            self.live.shown(table)

    # ------------------------------------------------------------------ /tonk end

    @app_commands.command(name="end", description="Close the Tonk table in this channel (an unfinished hand pays nothing)")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        await self.service.end(table.id, person_of(interaction))
        await interaction.response.send_message(f"Table {table.id} closed.", ephemeral=True)

    # ------------------------------------------------------------------ /tonk sidebets, /tonk bigone

    async def _table_here(self, interaction: discord.Interaction) -> Table:
        table = await self.service.open_in_channel(interaction.channel_id)  # type: ignore[arg-type]
        if table is None:
            raise UserError("There is no open table in this channel.")
        return table

    @app_commands.command(name="sidebets", description="Side bets at this channel's table, for those who opt in (host)")
    @app_commands.guild_only()
    @app_commands.describe(bet="Which side bets are on", stake="Points each player in pays into a pot at every deal",
                           suit="How the high card's suit is called")
    @app_commands.choices(bet=SIDE_BET_CHOICES, suit=SUIT_CHOICES)
    async def sidebets(self, interaction: discord.Interaction, bet: str,
                       stake: app_commands.Range[int, 1, 1000] | None = None, suit: str | None = None) -> None:
        table = await self._table_here(interaction)
        table = await self.service.set_side_bets(table.id, person_of(interaction), SIDE_BET_KINDS[bet],
                                                 stake=stake, suit_call=suit)
        text = ("Side bets are off." if not table.side_bets.on else
                "Side bets are on: players opt in with the table's Side bets button, from the next deal.")
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="bigone", description="Call the big one: the last hands at double stakes (host)")
    @app_commands.guild_only()
    @app_commands.describe(hands="How many hands are left (1 to 10); then the table closes")
    async def bigone(self, interaction: discord.Interaction, hands: app_commands.Range[int, 1, 10]) -> None:
        table = await self._table_here(interaction)
        await self.service.call_big_one(table.id, person_of(interaction), hands)
        await interaction.response.send_message(
            f"The big one: the next {hands} hand{'s' if hands > 1 else ''} at double stakes, then the table closes.")

    # ------------------------------------------------------------------ /tonk rules

    @app_commands.command(name="rules", description="Explain the house rules of a preset or of this channel's table")
    @app_commands.describe(preset="A preset to explain (default: the table here, else this server's rules)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        if preset is not None:
            rules, title = Rules.preset(preset), f"House rules: {preset}"
        else:
            rules, title = await self.service.house_rules(interaction.guild_id, interaction.channel_id)
        await interaction.response.send_message(embed=render.rules_embed(rules, title), ephemeral=True)

    # ------------------------------------------------------------------ /tonk help

    @app_commands.command(name="help", description="Learn Tonk in two minutes, under the house rules here")
    async def help(self, interaction: discord.Interaction) -> None:
        house = await self.service.house(interaction.guild_id, interaction.channel_id)
        where = (f"Under the house rules of table {house.table_id} in this channel" if house.table_id is not None
                 else "Under this server's default rules")
        sections = help_sections(house.rules, stake=house.stake)
        await interaction.response.send_message(**render.help_message(sections, where, house.rules), ephemeral=True)

    async def on_rules_here(self, interaction: discord.Interaction) -> None:
        """The help's button: the rules of the table in this channel as it is now."""
        try:
            house = await self.service.house(interaction.guild_id, interaction.channel_id)
            if house.table_id is None:
                raise UserError("There is no table in this channel: /tonk new opens one, "
                                "and /tonk rules shows this server's house rules.")
            await interaction.response.send_message(embed=render.rules_embed(house.rules, house.title),
                                                    ephemeral=True)
        except Exception as exc:
            await self.report_error(interaction, exc)

    # ------------------------------------------------------------------ /tonk ledger

    @app_commands.command(name="ledger", description="This server's standings")
    @app_commands.guild_only()
    @app_commands.describe(mode="Stakes balances or push-ups (default: the server's scoring mode)")
    @app_commands.choices(mode=SCORING_CHOICES)
    async def ledger(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        await interaction.response.defer(thinking=True)
        mode, rows, mine, season = await self.service.ledger(guild_id, interaction.user.id, mode)
        name = interaction.guild.name if interaction.guild else "this server"
        await interaction.edit_original_response(
            embed=render.ledger_embed(rows, mine, mode=mode, season=season, guild_name=name))

    # ------------------------------------------------------------------ /tonk history

    @app_commands.command(name="history", description="Recent hands on this server; download one hand's record")
    @app_commands.guild_only()
    @app_commands.describe(hand="A hand id from the list, to download its record", count="How many hands to list")
    async def history(self, interaction: discord.Interaction, hand: str | None = None,
                      count: app_commands.Range[int, 1, 20] = 10) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        if hand is not None:
            record = await self.service.hand_record(guild_id, hand.strip())
            data = json.dumps(record, indent=1).encode()
            await interaction.edit_original_response(
                content=f"Hand {hand}: replay it with `python -m engine replay hand-{hand}.json`.",
                attachments=[discord.File(io.BytesIO(data), filename=f"hand-{hand}.json")])
            return
        hands = await self.service.recent_hands(guild_id, count)
        if not hands:
            await interaction.edit_original_response(content="No hands played on this server yet.")
            return
        await interaction.edit_original_response(embed=render.history_embed(hands))

    # ------------------------------------------------------------------ /tonk stats, /tonk top, /tonk season
    # (the work is in cogs/stats_commands.py; these only declare the commands)

    stats_group = app_commands.Group(name="stats", description="Tonk stats: a player's, or this server's",
                                     guild_only=True)

    @stats_group.command(name="player", description="A player's Tonk stats and balance chart (default: yours)")
    @app_commands.describe(player="A member of this server (default: you)", computer="A computer player instead",
                           season="Season number (default: the current one)", chart="Draw the running balance")
    @app_commands.choices(chart=stats_commands.CHART_CHOICES)
    async def stats_player(self, interaction: discord.Interaction, player: discord.Member | None = None,
                           computer: str | None = None, season: app_commands.Range[int, 1] | None = None,
                           chart: str = "season") -> None:
        await stats_commands.player(self.stats, interaction, player=player, computer=computer, season=season,
                                    chart=chart)

    @stats_player.autocomplete("computer")
    async def stats_computer_names(self, interaction: discord.Interaction, current: str):
        return await stats_commands.computer_choices(self.stats, interaction, current)

    @stats_player.autocomplete("season")
    async def stats_player_seasons(self, interaction: discord.Interaction, current: int):
        return await stats_commands.season_choices(self.stats, interaction, current)

    @stats_group.command(name="server", description="This server's Tonk hands: how they ended, the rules played most")
    @app_commands.describe(season="Season number (default: the current one)")
    async def stats_server(self, interaction: discord.Interaction,
                           season: app_commands.Range[int, 1] | None = None) -> None:
        await stats_commands.server(self.stats, interaction, season=season)

    @stats_server.autocomplete("season")
    async def stats_server_seasons(self, interaction: discord.Interaction, current: int):
        return await stats_commands.season_choices(self.stats, interaction, current)

    @app_commands.command(name="top", description="This server's top 10 in a category, and your place")
    @app_commands.guild_only()
    @app_commands.describe(category="What to rank by (default: net stakes)",
                           season="Season number (default: the current one)",
                           min_hands="Hands a player needs to rank by win rate")
    @app_commands.choices(category=stats_commands.CATEGORY_CHOICES)
    async def top(self, interaction: discord.Interaction, category: str = "net",
                  season: app_commands.Range[int, 1] | None = None,
                  min_hands: app_commands.Range[int, 1, 1000] = 10) -> None:
        await stats_commands.top(self.stats, interaction, category=category, season=season, min_hands=min_hands)

    @top.autocomplete("season")
    async def top_seasons(self, interaction: discord.Interaction, current: int):
        return await stats_commands.season_choices(self.stats, interaction, current)

    @app_commands.command(name="season", description="Name this server's current season, or an ended one (Manage Server)")
    @app_commands.guild_only()
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(name="The season's name", number="Which season (default: the current one)")
    async def season(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 50],
                     number: app_commands.Range[int, 1] | None = None) -> None:
        await stats_commands.name_season(self.stats, interaction, name=name, number=number)

    # ------------------------------------------------------------------ /tonk settings

    @app_commands.command(name="settings", description="Server defaults for new tables (Manage Server)")
    @app_commands.guild_only()
    @app_commands.checks.has_permissions(manage_guild=True)  # checked at run time: Discord ignores
    # default_permissions on a subcommand, so the check here is what protects it
    @app_commands.describe(
        preset="Default house rules", stake="Default stake", scoring="Default scoring mode",
        turn_timer="Seconds a player has for a turn", allow_channel="Let this channel host tables",
        disallow_channel="Stop this channel hosting tables", all_channels="Let every channel host tables",
        new_season="Archive the ledger and start a new season",
        pictures="Show tables and hands as pictures (off: text only)",
    )
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       stake: app_commands.Range[int, 1, 1000] | None = None, scoring: str | None = None,
                       turn_timer: app_commands.Range[int, 3, 3600] | None = None,
                       allow_channel: discord.TextChannel | None = None,
                       disallow_channel: discord.TextChannel | None = None,
                       all_channels: bool = False, new_season: bool = False,
                       pictures: bool | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        current, notes = await self.service.update_settings(
            guild_id, preset=preset, stake=stake, scoring=scoring, turn_timer=turn_timer,
            allow_channel=allow_channel.id if allow_channel else None,
            disallow_channel=disallow_channel.id if disallow_channel else None,
            all_channels=all_channels, new_season=new_season, pictures=pictures)
        self.live.settings_changed(guild_id)
        await interaction.response.send_message(embed=render.settings_embed(current, notes), ephemeral=True)

    # ------------------------------------------------------------------ clicks

    async def on_click(self, interaction: discord.Interaction, click: Click) -> None:
        try:
            async with self.live.replying(click.table_id):
                await self._answer(interaction, click)
        except Exception as exc:  # UserError / TonkError are refusals; the rest is logged
            await self.report_error(interaction, exc, table_id=click.table_id)
            return
        if self.live.stuck(click.table_id):
            await self._tell_stuck(interaction, click.table_id)

    async def _tell_stuck(self, interaction: discord.Interaction, table_id: int) -> None:
        """The table's channel refused the bot a permission: the click is answered as usual, then
        its player is told (once) what is missing and who can fix it; a click that shows the
        permissions are back lets the table carry on at once."""
        missing = missing_permissions(
            interaction.app_permissions, pictures=await self.live.pictures_on(interaction.guild_id),  # type: ignore[arg-type]
            thread=isinstance(interaction.channel, discord.Thread))
        if not missing:
            self.live.permissions_back(table_id)
        elif self.live.tell_stuck(table_id, interaction.user.id):
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(render.stuck_text(missing, interaction.channel_id), ephemeral=True)  # type: ignore[arg-type]

    async def _answer(self, interaction: discord.Interaction, click: Click) -> None:
        if click.verb in (Verb.RULE, Verb.SET):
            await self._change_rule(interaction, click)
            return
        if click.verb not in PLAYS and click.verb not in HAND_VERBS:
            await self._table_call(interaction, click)
            return
        async with self.live.hand_turn(click.table_id, interaction.user.id, _message_id(interaction)):
            try:
                if click.verb in PLAYS:
                    await self._play(interaction, click)
                else:
                    focus = click.values[0] if click.verb is Verb.FOCUS and click.values else None
                    await self._show_hand(interaction, click.table_id, edit=click.verb is not Verb.HAND,
                                          confirm_drop=click.verb is Verb.DROP, focus=focus)
            except StaleView as exc:
                if click.version is None:
                    raise
                # a click on an old hand message: show the hand as it is now instead
                await self._show_hand(interaction, click.table_id, note=str(exc), edit=True)

    async def _play(self, interaction: discord.Interaction, click: Click) -> None:
        """A play from a private hand message; the reply shows the hand after it."""
        person = person_of(interaction)
        arg = click.values[0] if click.values else None
        before = await self.service.load(click.table_id, person) if click.verb is Verb.DRAW else None
        table = await self.service.act(click.table_id, person, ENGINE_VERB.get(click.verb, click.verb), arg,
                                       moves=click.version)
        # the play is saved and published: the table message shows it even if this reply fails
        seat = table.seat_required(person.user_id)
        if before is not None and before.game is not None and table.turn_key == before.turn_key:
            new = set(table.seat_view(seat).hand) - set(before.seat_view(seat).hand)  # the seat's own cards only
            if len(new) == 1:
                self.live.drew(table, person.user_id, new.pop())
        note = "Done." if table.game is None or table.game.over else None
        message, picture = await self.live.hand_message(table, seat, note=note, message_id=_message_id(interaction))
        await interaction.response.edit_message(**message)
        self.live.hand_shown(table, person.user_id, interaction, _message_id(interaction), message, picture)

    async def _table_call(self, interaction: discord.Interaction, click: Click) -> None:
        """A click on the table message: the reply is that message, edited to the new state."""
        table = await TABLE_CALLS[click.verb](self.service, click.table_id, person_of(interaction), click)
        message, picture = await self.live.table_message(table)
        edit = self.live.shown(table)
        try:
            await interaction.response.edit_message(**message)
        except BaseException:
            self.live.request_sync(table.id, force=True)
            raise
        self.live.picture_shown(table.id, edit, picture)

    async def _change_rule(self, interaction: discord.Interaction, click: Click) -> None:
        """The host's two steps in the lobby: an option (its values come back, only to the host),
        then its value (the lobby message follows the change)."""
        person = person_of(interaction)
        value = click.values[0] if click.values else ""
        if click.verb is Verb.RULE:
            table = await self.service.rules_to_change(click.table_id, person)
            if value not in OPTIONS:
                raise UserError("There is no such house rule.")
            choice = render.rule_choice_message(table.id, value, render.shown_rules(table))
            await interaction.response.send_message(**choice, ephemeral=True)
            return
        key, _, code = value.partition("=")
        table = await self.service.set_rule(click.table_id, person, key, code)
        done = f"Done: **{OPTIONS[key][0]}** is now {option_words(table.rules, key)}."
        if key.startswith("instant_hands:"):  # a low hand has two menus: both stay for the other pick
            choice = render.rule_choice_message(table.id, key, render.shown_rules(table), done=done + "\n")
            await interaction.response.edit_message(**choice)
        else:
            await interaction.response.edit_message(content=done, view=None)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int, *, note: str | None = None,
                         edit: bool, confirm_drop: bool = False, focus: str | None = None) -> None:
        """The private hand: a new message (My hand, the ping's button) that replaces any older
        one, or the hand message clicked, edited."""
        table = await self.service.load(table_id, person_of(interaction))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not seated at this table: only its players have a hand.")
        if table.game is None:
            raise UserError("No hand has been dealt at this table yet." if table.hand_number == 0 else
                            "The seats changed since the last hand: your cards come with the next deal.")
        message, picture = await self.live.hand_message(
            table, seat, note=note, confirm_drop=confirm_drop, focus=focus,
            message_id=_message_id(interaction) if edit else None)
        if edit:
            await interaction.response.edit_message(**message)
            message_id = _message_id(interaction)
        else:
            response = await interaction.response.send_message(**render.as_new(message), ephemeral=True)
            message_id = getattr(response, "message_id", None)
        self.live.hand_shown(table, interaction.user.id, interaction, message_id, message, picture)


HAND_VERBS = frozenset({Verb.HAND, Verb.REFRESH, Verb.DROP, Verb.FOCUS})
"""Clicks that show the private hand (Drop only asks whether you mean it; Focus narrows a menu)."""


def _message_id(interaction: discord.Interaction) -> int | None:
    """The message a component click came from."""
    return interaction.message.id if interaction.message is not None else None


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TonkButton, TonkSelect, RulesHereButton)
    await bot.add_cog(TonkCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(TonkButton, TonkSelect, RulesHereButton)
