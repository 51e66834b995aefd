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

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import CallBigOne, Command, End, Play, SetSideBets, play_from
from bot.errors import StaleView, UserError
from bot.metrics import METRICS
from bot.server import ServerService
from bot.service import TableService
from bot.stats import StatsService
from bot.table import AskFirst, Level, Table
from engine import Rules, TonkError
from engine.help import OPTIONS, help_sections, option_words
from engine.text import N_, Text, t, tn

from cogs import bot_help, fonts, pictures, render, stats_commands
from cogs.common import (PRESET_CHOICES, SCORING_CHOICES, and_list, in_server, person_of, reader_lang, report_error,
                         server_lang)
from cogs.components import CLICK_EVENT, HAND_VERBS, PLAYS, RULES_HERE_EVENT, Click, Verb, route

PENDING_VERBS = frozenset({Verb.CONFIRM, Verb.ASK_OFF, Verb.ASK_ON})
"""The private hand's answers about picks that ask first."""
from cogs.live import LiveTables
from cogs.reply import in_time, reply_of
from cogs.tournament import TournamentCommands
from cogs.tournament import on_route as route_tournament

log = logging.getLogger(__name__)

SIDE_BET_CHOICES = [app_commands.Choice(name=N_("high card (each shows their top card of a called suit)"),
                                       value="high_card"),
                    app_commands.Choice(name=N_("naturals (the first book of natural cards)"), value="naturals"),
                    app_commands.Choice(name=N_("both"), value="both"),
                    app_commands.Choice(name=N_("off (the pots go back to those who paid in)"), value="off")]
SIDE_BET_KINDS = {"high_card": ("high_card",), "naturals": ("naturals",), "both": ("high_card", "naturals"), "off": ()}
SUIT_CHOICES = [app_commands.Choice(name=N_("called at random at each deal"), value="random"),
                app_commands.Choice(name=N_("spades always"), value="spades")]
LEVEL_CHOICES = [app_commands.Choice(name=level.value, value=level.value) for level in Level]

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


NOT_IN_VOICE = t("Tables live in text channels and their threads, not in a voice channel's chat, where a turn "
                 "ping is easy to miss: open one with /tonk new in a text channel.")


@app_commands.guild_only()  # on the group: Discord ignores it on a subcommand
@app_commands.guild_install()
class TonkCog(TournamentCommands, commands.GroupCog, name="Tonk", group_name="tonk", group_description=N_("Play Tonk, the knock-rummy")):
    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.service: TableService = bot.service  # type: ignore[attr-defined]
        self.server: ServerService = bot.server  # type: ignore[attr-defined]
        self.live = LiveTables(bot, self.service, bot.settings, self.server)  # type: ignore[attr-defined]
        self.stats = StatsService(bot.db)  # type: ignore[attr-defined]
        self._tree_on_error = None
        self._tournaments_init()
        super().__init__()

    async def cog_load(self) -> None:
        # the first picture in a process loads fonts and builds the card art (most of a
        # second): do it now, off the event loop, not inside a player's first click
        settings = self.bot.settings  # type: ignore[attr-defined]
        fonts.configure(dirs=settings.font_dirs, layout=settings.font_layout)
        await asyncio.to_thread(pictures.warm)
        self.service.listeners.append(self.live.on_events)
        self._tree_on_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[assignment]
        await self.live.resume_all()
        await self._tournaments_load()

    async def cog_unload(self) -> None:
        await self._tournaments_unload()
        self.bot.tree.on_error = self._tree_on_error  # type: ignore[assignment]
        if self.live.on_events in self.service.listeners:
            self.service.listeners.remove(self.live.on_events)
        await self.live.close()
        self.server.close()

    # Discord's gateway drops and comes back: while it is away nobody can click, so no timer runs

    @commands.Cog.listener("on_disconnect")
    @commands.Cog.listener("on_shard_disconnect")
    async def _discord_away(self, shard_id: int | None = None) -> None:
        self.live.discord_away()

    @commands.Cog.listener("on_resumed")
    @commands.Cog.listener("on_ready")
    @commands.Cog.listener("on_shard_resumed")
    @commands.Cog.listener("on_shard_ready")
    async def _discord_back(self, shard_id: int | None = None) -> None:
        if self._gateway_open():
            self.live.discord_back()

    def _gateway_open(self) -> bool:
        """Every shard's socket is open now. discord.py says a shard is ready about 2 s after
        Discord's READY (it waits for the servers to arrive): a socket that closed meanwhile is not
        back, and its late "ready" must not end that outage. Nor is Discord back while another
        shard's players still cannot click."""
        return not any(shard.is_closed() for shard in self.bot.shards.values())

    def in_server(self, interaction: discord.Interaction) -> bool:
        return in_server(interaction)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return self.in_server(interaction)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        await self.report_error(interaction, error)

    async def report_error(self, interaction: discord.Interaction, error: BaseException,
                           *, table_id: int | None = None) -> None:
        await report_error(interaction, error, table_id=table_id)

    # ------------------------------------------------------------------ /tonk new

    @app_commands.command(name="new", description=N_("Open a Tonk table in this channel"))
    @app_commands.guild_only()
    @app_commands.describe(
        preset=N_("House rules to play (default: this server's)"),
        stake=N_("Points per single stake (default: this server's)"),
        scoring=N_("Stakes or push-ups (default: the preset's or this server's)"),
        hand_size=N_("Cards dealt to each player"),
        computers=N_("Computer players to seat at once"),
        level=N_("How well the computer players play"),
    )
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES, level=LEVEL_CHOICES,
                          hand_size=[app_commands.Choice(name=N_("5 cards"), value=5),
                                     app_commands.Choice(name=N_("7 cards"), value=7)])
    async def new(self, interaction: discord.Interaction, preset: str | None = None,
                  stake: app_commands.Range[int, 1, 1000] | None = None, scoring: str | None = None,
                  hand_size: int | None = None, computers: app_commands.Range[int, 0, 5] = 0,
                  level: str = "normal") -> None:
        channel_type = getattr(interaction.channel, "type", None)  # also on a channel not in the cache
        if channel_type in (discord.ChannelType.voice, discord.ChannelType.stage_voice):
            raise UserError(NOT_IN_VOICE)
        missing = missing_permissions(
            interaction.app_permissions, pictures=await self.server.pictures_enabled(interaction.guild_id),  # type: ignore[arg-type]
            thread=isinstance(interaction.channel, discord.Thread))
        if missing:
            # the permissions by Discord's own names (its settings show them so in English)
            lack = and_list(missing)
            if missing == ["Attach Files"]:
                raise UserError(t("I can't keep a table going in this channel: I lack {missing} here. Ask someone who "
                                  "manages the server to allow me that in this channel's permissions, then /tonk new "
                                  "again. (Attach Files is for the table pictures: instead, a manager may turn them "
                                  "off with /tonk-admin settings pictures:False.)", missing=lack))
            raise UserError(t("I can't keep a table going in this channel: I lack {missing} here. Ask someone who "
                              "manages the server to allow me that in this channel's permissions, then /tonk new "
                              "again.", missing=lack))
        try:
            table = await self.service.open_table(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, host=person_of(interaction),  # type: ignore[arg-type]
                preset=preset, stake=stake, scoring=scoring, hand_size=hand_size, computers=computers, level=level,
            )
        except UserError:
            busy = await self.service.open_in_channel(interaction.channel_id)  # type: ignore[arg-type]
            if busy is not None:
                self.live.show_again(busy.id)  # a table message someone deleted comes back to join or play
            raise
        await self._show_new_table(interaction, table)

    async def _show_new_table(self, interaction: discord.Interaction, table: Table) -> None:
        """A new lobby's message is the interaction's reply; the live runtime follows it from there."""
        try:
            message_id = await reply_of(interaction).send(ephemeral=False, **render.as_new(
                render.table_message(table.public(), lang=server_lang(interaction))))
        except Exception:
            # no lobby message reached the channel: free the channel instead of leaving an
            # invisible table behind
            await self.service.apply(table.id, None, End(table.host_user_id, "the bot", is_admin=True))
            raise
        table = await self.service.set_message(table.id, message_id)
        if table is not None:
            self.live.on_events(table, [])
            self.live.channel.shown(table)

    # ------------------------------------------------------------------ /tonk end

    @app_commands.command(name="end", description=N_("Close the Tonk table in this channel (an unfinished hand pays nothing)"))
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        person = person_of(interaction)
        table, question = await self.service.end_question(table.id, person)
        if question is not None:  # a hand in play, or people waiting: ask first
            await interaction.response.send_message(**render.close_question(table.id, table.hand_number, question),
                                                    ephemeral=True)
            return
        await self.service.apply(table.id, person, End(person.user_id, person.name, is_admin=person.is_admin))
        await interaction.response.send_message(reader_lang(interaction).render(t("Table {id} closed.", id=table.id)),
                                                ephemeral=True)

    # ------------------------------------------------------------------ /tonk sidebets, /tonk bigone

    async def _table_here(self, interaction: discord.Interaction) -> Table:
        table = await self.service.open_in_channel(interaction.channel_id)  # type: ignore[arg-type]
        if table is None:
            raise UserError(t("There is no open table in this channel."))
        return table

    @app_commands.command(name="sidebets", description=N_("Side bets at this channel's table, for those who opt in (host)"))
    @app_commands.guild_only()
    @app_commands.describe(bet=N_("Which side bets are on"), stake=N_("Points each player in pays into a pot at every deal"),
                           suit=N_("How the high card's suit is called"))
    @app_commands.choices(bet=SIDE_BET_CHOICES, suit=SUIT_CHOICES)
    async def sidebets(self, interaction: discord.Interaction, bet: str,
                       stake: app_commands.Range[int, 1, 1000] | None = None, suit: str | None = None) -> None:
        table = await self._table_here(interaction)
        person = person_of(interaction)
        table = await self.service.apply(table.id, person, SetSideBets(person.user_id, SIDE_BET_KINDS[bet],
                                                                         stake=stake, suit_call=suit))
        text = (t("Side bets are off.") if not table.side_bets.on else
                t("Side bets are on: players opt in with the table's Side bets button, from the next deal."))
        await interaction.response.send_message(reader_lang(interaction).render(text), ephemeral=True)

    @app_commands.command(name="bigone", description=N_("Call the big one: the last hands at double stakes (host)"))
    @app_commands.guild_only()
    @app_commands.describe(hands=N_("How many hands are left (1 to 10); then the table closes"))
    async def bigone(self, interaction: discord.Interaction, hands: app_commands.Range[int, 1, 10]) -> None:
        table = await self._table_here(interaction)
        await self.service.apply(table.id, person_of(interaction), CallBigOne(interaction.user.id, hands))
        await interaction.response.send_message(server_lang(interaction).render(tn(
            "The big one: the next hand at double stakes, then the table closes.",
            "The big one: the next {n} hands at double stakes, then the table closes.", hands)))

    # ------------------------------------------------------------------ /tonk rules

    @app_commands.command(name="rules", description=N_("Explain the house rules of a preset or of this channel's table"))
    @app_commands.describe(preset=N_("A preset to explain (default: the table here, else this server's rules)"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        if preset is not None:
            rules, title = Rules.preset(preset), t("House rules: {preset}", preset=preset)
        else:
            rules, title = await self.server.house_rules(interaction.guild_id, interaction.channel_id)
        await interaction.response.send_message(embed=render.rules_embed(rules, title, lang=reader_lang(interaction)),
                                                ephemeral=True)

    # ------------------------------------------------------------------ /tonk help

    @app_commands.command(name="help", description=N_("Learn Tonk in two minutes, under the house rules here"))
    async def help(self, interaction: discord.Interaction) -> None:
        house = await self.server.house(interaction.guild_id, interaction.channel_id)
        where = (t("Under the house rules of table {id} in this channel", id=house.table_id)
                 if house.table_id is not None else t("Under this server's default rules"))
        sections = help_sections(house.rules, stake=house.stake)
        bot = bot_help.bot_help_embed(house.rules, turn_timer=house.turn_timer, lang=reader_lang(interaction))
        await interaction.response.send_message(**render.help_message(sections, where, house.rules, bot,
                                                                      lang=reader_lang(interaction)),
                                                ephemeral=True)

    @commands.Cog.listener(f"on_{RULES_HERE_EVENT}")
    async def on_rules_here(self, interaction: discord.Interaction) -> None:
        """The help's button: the rules of the table in this channel as it is now."""
        try:
            house = await self.server.house(interaction.guild_id, interaction.channel_id)
            if house.table_id is None:
                raise UserError(t("There is no table in this channel: /tonk new opens one, "
                                  "and /tonk rules shows this server's house rules."))
            await interaction.response.send_message(embed=render.rules_embed(house.rules, house.title,
                                                                             lang=reader_lang(interaction)),
                                                    ephemeral=True)
        except Exception as exc:
            await self.report_error(interaction, exc)

    # ------------------------------------------------------------------ /tonk ledger

    @app_commands.command(name="ledger", description=N_("This season's standings: points (or push-ups), hands and wins"))
    @app_commands.guild_only()
    @app_commands.describe(mode=N_("Stakes balances or push-ups (default: the server's scoring mode)"))
    @app_commands.choices(mode=SCORING_CHOICES)
    async def ledger(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        await interaction.response.defer(thinking=True)
        mode, rows, mine, season = await self.server.ledger(guild_id, interaction.user.id, mode)
        lang = server_lang(interaction)  # the ledger is posted for everyone in the channel
        name = interaction.guild.name if interaction.guild else lang.render(t("this server"))
        await interaction.edit_original_response(
            embed=render.ledger_embed(rows, mine, mode=mode, season=season, guild_name=name, lang=lang))

    # ------------------------------------------------------------------ /tonk history

    @app_commands.command(name="history", description=N_("Recent hands on this server; download one hand's record"))
    @app_commands.guild_only()
    @app_commands.describe(hand=N_("A hand id from the list, to download its record"), count=N_("How many hands to list"),
                           review=N_("Review your own decisions in that hand (what the expert would have done)"))
    async def history(self, interaction: discord.Interaction, hand: str | None = None,
                      count: app_commands.Range[int, 1, 20] = 10, review: bool = False) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        if hand is not None and review:
            text = await self.server.review(guild_id, hand.strip(), interaction.user.id)
            await interaction.edit_original_response(embed=render.review_embed(hand.strip(), text,
                                                                               lang=reader_lang(interaction)))
            return
        if review:
            raise UserError(t("Name the hand to review: /tonk history lists them, then hand:<id> review:True."))
        if hand is not None:
            record = await self.server.hand_record(guild_id, hand.strip())
            data = json.dumps(record, indent=1).encode()
            command = f"python -m engine replay hand-{hand}.json"
            await interaction.edit_original_response(
                content=reader_lang(interaction).render(t("Hand {hand}: replay it with `{command}`.", hand=hand,
                                                          command=command)),
                attachments=[discord.File(io.BytesIO(data), filename=f"hand-{hand}.json")])
            return
        hands = await self.server.recent_hands(guild_id, count)
        if not hands:
            await interaction.edit_original_response(content=reader_lang(interaction).render(
                t("No hands played on this server yet.")))
            return
        await interaction.edit_original_response(embed=render.history_embed(hands, lang=reader_lang(interaction)))

    # ------------------------------------------------------------------ /tonk stats, /tonk top
    # (the work is in cogs/stats_commands.py; these only declare the commands)

    stats_group = app_commands.Group(name="stats", description=N_("Tonk stats: a player's, or this server's"),
                                     guild_only=True)

    @stats_group.command(name="player", description=N_("A player's Tonk stats and balance chart (default: yours)"))
    @app_commands.describe(player=N_("A member of this server (default: you)"), computer=N_("A computer player instead"),
                           season=N_("Season number (default: the current one)"), chart=N_("Draw the running balance"))
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

    @stats_group.command(name="server", description=N_("This server's Tonk hands: how they ended, the rules played most"))
    @app_commands.describe(season=N_("Season number (default: the current one)"))
    async def stats_server(self, interaction: discord.Interaction,
                           season: app_commands.Range[int, 1] | None = None) -> None:
        await stats_commands.server(self.stats, interaction, season=season)

    @stats_server.autocomplete("season")
    async def stats_server_seasons(self, interaction: discord.Interaction, current: int):
        return await stats_commands.season_choices(self.stats, interaction, current)

    @app_commands.command(name="top", description=N_("This server's top 10 in a category, and your place"))
    @app_commands.guild_only()
    @app_commands.describe(category=N_("What to rank by (default: net points)"),
                           season=N_("Season number (default: the current one)"),
                           min_hands=N_("Hands a player needs to rank by win rate"))
    @app_commands.choices(category=stats_commands.CATEGORY_CHOICES)
    async def top(self, interaction: discord.Interaction, category: str = "net",
                  season: app_commands.Range[int, 1] | None = None,
                  min_hands: app_commands.Range[int, 1, 1000] = 10) -> None:
        await stats_commands.top(self.stats, interaction, category=category, season=season, min_hands=min_hands)

    @top.autocomplete("season")
    async def top_seasons(self, interaction: discord.Interaction, current: int):
        return await stats_commands.season_choices(self.stats, interaction, current)

    # ------------------------------------------------------------------ clicks

    @commands.Cog.listener(f"on_{CLICK_EVENT}")
    async def on_click(self, interaction: discord.Interaction, click: Click) -> None:
        reader_lang(interaction)  # the clicker's language, remembered before their hand is drawn
        shard = interaction.guild.shard_id if interaction.guild is not None else 0
        METRICS.click_arrived(interaction.id, shard)
        try:
            async with self.live.channel.replying(click.table_id):
                await in_time(interaction, self._answer(interaction, click))
        except Exception as exc:  # a TonkError is a refusal; the rest is logged
            METRICS.click_done(shard, click.verb.value, "refused" if isinstance(exc, TonkError) else "error")
            await self.report_error(interaction, exc, table_id=click.table_id)
            return
        METRICS.click_done(shard, click.verb.value, "ok")
        if self.live.channel.stuck(click.table_id):
            await self._tell_stuck(interaction, click.table_id)

    async def _tell_stuck(self, interaction: discord.Interaction, table_id: int) -> None:
        """The table's channel refused the bot a permission: the click is answered as usual, then
        its player is told (once) what is missing and who can fix it; a click that shows the
        permissions are back lets the table carry on at once."""
        missing = missing_permissions(
            interaction.app_permissions, pictures=await self.live.looks.pictures_on(interaction.guild_id),  # type: ignore[arg-type]
            thread=isinstance(interaction.channel, discord.Thread))
        if not missing:
            self.live.channel.permissions_back(table_id)
        elif self.live.channel.tell_stuck(table_id, interaction.user.id):
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.send(render.stuck_text(missing, interaction.channel_id, lang=reader_lang(interaction)), ephemeral=True)  # type: ignore[arg-type]

    async def _answer(self, interaction: discord.Interaction, click: Click) -> None:
        """Every click: the ones that only show something, then the commands, each answered in the
        message where it belongs (the table message, the private hand, or a private line)."""
        verb = click.verb
        if verb is Verb.RULE:
            await self._rule_values(interaction, click)
        elif verb is Verb.TABLE_RULES:  # nothing changes: this table's rules, to the clicker alone
            table = await self.service.load(click.table_id, person_of(interaction))
            embed = render.rules_embed(render.shown_rules(table), t("House rules at table {id}", id=table.id),
                                       lang=reader_lang(interaction))
            await reply_of(interaction).send(embed=embed, ephemeral=True)
        elif verb is Verb.CANCEL and (question := await self.service.end_question(
                click.table_id, person_of(interaction)))[1] is not None:  # others wait in the lobby: ask first
            table, words = question
            await reply_of(interaction).send(**render.close_question(table.id, table.hand_number, words),
                                                    ephemeral=True)
        elif verb is Verb.CLOSE:  # the "yes" of that question, or of /tonk end's
            person = person_of(interaction)
            table = await self.service.apply(click.table_id, person, click.command(person))
            await reply_of(interaction).edit(content=reader_lang(interaction).render(t("Table {id} closed.", id=table.id)),
                                             view=None)
        elif verb is Verb.SET:
            await self._set_rule(interaction, click)
        elif verb is Verb.LEAVE_ASK:
            table = await self.service.load(click.table_id, person_of(interaction))
            table.seat_required(interaction.user.id)  # a stranger is told so, not asked
            await reply_of(interaction).send(**render.leave_question(click.table_id, lang=reader_lang(interaction)), ephemeral=True)
        elif verb is Verb.LEAVE_NOW:
            await self._private_command(interaction, click, edit=True)
        elif verb is Verb.TAKEOVER:
            await self._private_command(interaction, click, edit=False)
        elif verb is Verb.AGAIN:
            await self._play_again(interaction, click)
        elif verb is Verb.REVIEW:  # seconds of search in the review worker: this click is deferred
            hand_id = f"{click.table_id}-{click.version}"
            text = await self.server.review(interaction.guild_id or 0, hand_id, interaction.user.id)
            await reply_of(interaction).send(embed=render.review_embed(hand_id, text, lang=reader_lang(interaction)),
                                             ephemeral=True)
        elif verb in PLAYS or verb in HAND_VERBS or verb in PENDING_VERBS:
            async with self.live.hands.hand_turn(click.table_id, interaction.user.id, _message_id(interaction)):
                try:
                    if verb in PLAYS:
                        await self._play(interaction, click, click.command(person_of(interaction)))
                    elif verb in PENDING_VERBS:
                        await self._pending(interaction, click)
                    else:
                        if verb is Verb.REFRESH:  # also Cancel of a pick that waits for its player's word
                            self.live.hands.pending_pick(click.table_id, interaction.user.id)
                        await self._show_hand(interaction, click.table_id, edit=verb is not Verb.HAND,
                                              confirm_drop=verb is Verb.DROP,
                                              focus=click.value if verb is Verb.FOCUS else None)
                except StaleView as exc:
                    if click.version is None:
                        raise
                    # a click on an old hand message: show the hand as it is now instead
                    await self._show_hand(interaction, click.table_id, note=exc.text, edit=True)
        else:
            await self._table_command(interaction, click)

    async def _play(self, interaction: discord.Interaction, click: Click, command: Command) -> None:
        """A play from a private hand message; the reply shows the hand after it (the live
        runtime learnt from the play's event which card a draw brought, and marks it). A pick
        of a seat that confirms picks waits for its player's word instead (nothing changes)."""
        person = person_of(interaction)
        try:
            table = await self.service.apply(click.table_id, person, command)
        except AskFirst as ask:
            self.live.hands.ask_first(ask.table, person.user_id, click.verb, click.value)
            await self._hand_reply(interaction, ask.table, person.user_id)
            return
        # the play is saved and published: the table message shows it even if this reply fails
        await self._hand_reply(interaction, table, person.user_id,
                               note=t("Done.") if table.game is None or table.game.over else None)

    async def _pending(self, interaction: discord.Interaction, click: Click) -> None:
        """The hand's answers to a pick that waits: play it (and maybe stop asking), or ask from now on."""
        person = person_of(interaction)
        if click.verb is Verb.ASK_ON:
            table = await self.service.apply(click.table_id, person, click.command(person))
            await self._hand_reply(interaction, table, person.user_id, note=t("From now on, each pick asks first."))
            return
        waiting = self.live.hands.pending_pick(click.table_id, person.user_id)
        if waiting is None or waiting[0] != click.version:
            raise StaleView(t("That pick is no longer waiting: pick again."))
        _, verb, value = waiting
        await self._play(interaction, click, Play(person.user_id, play_from(str(verb), value), moves=click.version,
                                                  confirmed=True, stop_asking=click.verb is Verb.ASK_OFF))

    async def _hand_reply(self, interaction: discord.Interaction, table: Table, user_id: int,
                          note: "Text | str | None" = None) -> None:
        """Answer a click on a private hand message with that message, showing `table`."""
        seat = table.seat_required(user_id)
        message, picture = await self.live.hands.hand_message(table, seat, note=note, message_id=_message_id(interaction))
        await reply_of(interaction).edit(**message)
        self.live.hands.hand_shown(table, user_id, interaction, _message_id(interaction), message, picture)

    async def _table_command(self, interaction: discord.Interaction, click: Click) -> None:
        """A click on the table message: the reply is that message, edited to the new state."""
        person = person_of(interaction)
        new = click.verb is Verb.JOIN and await self.service.is_new(interaction.guild_id or 0, person.user_id)
        table = await self.service.apply(click.table_id, person, click.command(person, new_player=new))
        message, picture = await self.live.channel.table_message(table)
        edit = self.live.channel.shown(table)
        try:
            await reply_of(interaction).edit(**message)
        except BaseException:
            self.live.request_sync(table.id, force=True)
            raise
        self.live.channel.picture_shown(table.id, edit, picture)

    async def _private_command(self, interaction: discord.Interaction, click: Click, *, edit: bool) -> None:
        """A command answered to its giver alone (the table message follows through the live
        runtime): Leave now, in the question's own message; a take-over ask, in a new line."""
        person = person_of(interaction)
        table = await self.service.apply(click.table_id, person, click.command(person))
        text = render.command_done(table, click.verb, click.value, lang=reader_lang(interaction))
        if edit:
            await reply_of(interaction).edit(content=text, embed=None, view=None)
        else:
            await reply_of(interaction).send(content=text, ephemeral=True)

    async def _play_again(self, interaction: discord.Interaction, click: Click) -> None:
        """A closed table's Play again: the new lobby is this click's reply, a new channel message."""
        table = await self.service.play_again(click.table_id, person_of(interaction))
        await self._show_new_table(interaction, table)

    async def _rule_values(self, interaction: discord.Interaction, click: Click) -> None:
        """The host's first step in the lobby: an option, whose values come back to the host alone."""
        table = await self.service.rules_to_change(click.table_id, person_of(interaction))
        if click.value not in OPTIONS:
            raise UserError(t("There is no such house rule."))
        choice = render.rule_choice_message(table.id, click.value, render.shown_rules(table),
                                            lang=reader_lang(interaction))
        await reply_of(interaction).send(**choice, ephemeral=True)

    async def _set_rule(self, interaction: discord.Interaction, click: Click) -> None:
        """The host's second step: the option's value (the lobby message follows the change)."""
        person = person_of(interaction)
        command = click.command(person)
        key = command.key  # type: ignore[attr-defined]
        table = await self.service.apply(click.table_id, person, command)
        lang = reader_lang(interaction)
        done = lang.render(t("Done: **{option}** is now {value}.", option=render.said_words(OPTIONS[key][0], lang),
                             value=render.said_words(option_words(table.rules, key), lang)))
        if key.startswith("instant_hands:"):  # a low hand has two menus: both stay for the other pick
            choice = render.rule_choice_message(table.id, key, render.shown_rules(table), done=done + "\n", lang=lang)
            await reply_of(interaction).edit(**choice)
        else:
            await reply_of(interaction).edit(content=done, view=None)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int, *, note: "Text | str | None" = None,
                         edit: bool, confirm_drop: bool = False, focus: str | None = None) -> None:
        """The private hand: a new message (My hand, the ping's button) that replaces any older
        one, or the hand message clicked, edited."""
        table = await self.service.load(table_id, person_of(interaction))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError(t("You are not seated at this table: only its players have a hand."))
        if table.game is None:
            raise UserError(t("No hand has been dealt at this table yet.") if table.hand_number == 0 else
                            t("The seats changed since the last hand: your cards come with the next deal."))
        message, picture = await self.live.hands.hand_message(
            table, seat, note=note, confirm_drop=confirm_drop, focus=focus,
            message_id=_message_id(interaction) if edit else None)
        if edit:
            await reply_of(interaction).edit(**message)
            message_id = _message_id(interaction)
        else:
            message_id = await reply_of(interaction).send(**render.as_new(message), ephemeral=True)
        self.live.hands.hand_shown(table, interaction.user.id, interaction, message_id, message, picture,
                             followup=not edit and reply_of(interaction).followup)


def _message_id(interaction: discord.Interaction) -> int | None:
    """The message a component click came from."""
    return interaction.message.id if interaction.message is not None else None


async def setup(bot: commands.Bot) -> None:
    from cogs.admin import TonkAdminCog

    bot.add_listener(route, "on_interaction")
    bot.add_listener(route_tournament, "on_interaction")
    cog = TonkCog(bot)
    await bot.add_cog(cog)
    await bot.add_cog(TonkAdminCog(cog))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_listener(route, "on_interaction")
    bot.remove_listener(route_tournament, "on_interaction")
