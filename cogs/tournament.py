"""`/tonk tournament`: sign-ups in a text channel, a thread per table, the standings that follow.

The commands live in the `tonk` group (`TournamentCommands` is mixed into `TonkCog`); the clicks
on the sign-up and standings message (`tonkt:{id}:{verb}`) are routed here by `route`. The rules
of a tournament are `bot.tournament`'s, its storage `bot.tournaments`'; this module turns clicks
into service calls, makes the threads and keeps the channel's standings message in step.

Discord lets a command group have subcommands or be a command, never both: the sign-up opens with
`/tonk tournament open`, beside `standings`, `end`, `withdraw` and `history`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.commands import DealNext
from bot.errors import StaleView, UserError
from bot.service import TableService
from bot.sidebets import and_list
from bot.table import Event, HandOver, Status, Table
from bot.tournament import MAX_HANDS, MAX_SWISS_ROUNDS, Stage, Tournament
from bot.tournaments import TournamentService
from engine.text import N_, t

from cogs import render, tournament_render as looks
from cogs.common import PRESET_CHOICES, SCORING_CHOICES, person_of, report_error, server_lang
from cogs.components import _on_message
from cogs.live.runtime import background
from cogs.reply import in_time, reply_of

log = logging.getLogger("cogs.tournament")

EVENT = "tonk_tournament_click"
FORMAT_CHOICES = [app_commands.Choice(name=N_("knock-out (the best of each table go on)"), value="knockout"),
                  app_commands.Choice(name=N_("Swiss (fixed rounds, reseated by standing)"), value="swiss")]
COUNT_CHOICES = [app_commands.Choice(name=N_("for glory (the tournament only)"), value="glory"),
                 app_commands.Choice(name=N_("for the ledger (the server's ledger too)"), value="ledger")]
THREAD_ARCHIVE_MINUTES = 1440


def route(interaction: discord.Interaction) -> None:
    """`on_interaction`: a click on a tournament's button becomes `EVENT` (id, verb)."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom = data.get("custom_id", "")
    match = looks.TEMPLATE.fullmatch(custom)
    if match and _on_message(interaction.message, custom, discord.ComponentType.button.value):
        interaction.client.dispatch(EVENT, interaction, int(match["id"]), match["verb"])


async def on_route(interaction: discord.Interaction) -> None:
    route(interaction)


def guild_lang(client: discord.Client, guild_id: int) -> i18n.Lang:
    """The language of the tournament's channel messages: the server's (`server_lang`)."""
    return server_lang(client.get_guild(guild_id) or guild_id)


@dataclass(eq=False)
class Follower:
    """One tournament's standings message: edited at most once per `table_edit_interval`, newest wins."""

    tournament_id: int
    newest: Tournament | None = None
    dirty: bool = False
    task: asyncio.Task | None = None
    last_edit: float = 0.0
    announced: bool = False
    deals: dict[int, asyncio.Task] = field(default_factory=dict)


class LiveTournaments:
    """Threads for a round's tables, the standings message, the next deal at a tournament's tables."""

    def __init__(self, client: discord.Client, service: TournamentService, tables: TableService, live, settings,
                 server):
        self.client = client
        self.service = service
        self.tables = tables
        self.live = live
        self.settings = settings
        self.server = server
        self.followers: dict[int, Follower] = {}
        self._closing = False
        self._deals: dict[int, asyncio.Task] = {}

    def follower(self, tournament_id: int) -> Follower:
        follower = self.followers.get(tournament_id)
        if follower is None:
            follower = self.followers[tournament_id] = Follower(tournament_id)
        return follower

    # ------------------------------------------------------------------ the service's listeners

    def on_tournament(self, tournament: Tournament) -> None:
        if self._closing:
            return
        follower = self.follower(tournament.id)
        if follower.newest is not None and follower.newest.stage is not Stage.FINISHED \
                and tournament.stage is Stage.FINISHED:
            follower.announced = False
            asyncio.get_running_loop().create_task(self._announce(tournament))
        if follower.newest is None or tournament.version >= follower.newest.version:
            follower.newest = tournament
        self.request_sync(tournament.id)

    def on_table_events(self, table: Table, events: list[Event]) -> None:
        """A tournament table's hand is over and the round goes on there: the bot deals the next
        after `next_deal_delay`; every change of a table shows in the standings."""
        if self._closing or table.tournament is None:
            return
        if any(isinstance(e, HandOver) for e in events) and table.status is Status.BETWEEN_HANDS:
            self._schedule_deal(table)
        if any(isinstance(e, HandOver) for e in events) or table.status is Status.CLOSED:
            self.request_sync(table.tournament.tournament_id)

    def _schedule_deal(self, table: Table) -> None:
        old = self._deals.get(table.id)
        if old is not None and not old.done():
            old.cancel()
        self._deals[table.id] = asyncio.get_running_loop().create_task(
            self._deal_after(table.id, table.hand_number), name=f"tonk-tournament-deal-{table.id}")

    async def _deal_after(self, table_id: int, hand_number: int) -> None:
        with background(table_id, "the next deal of a tournament table"):
            await asyncio.sleep(self.settings.next_deal_delay)
            await self.tables.apply(table_id, None, DealNext(hand_number))

    # ------------------------------------------------------------------ the standings message

    def request_sync(self, tournament_id: int) -> None:
        follower = self.follower(tournament_id)
        follower.dirty = True
        if follower.task is None or follower.task.done():
            follower.task = asyncio.get_running_loop().create_task(self._sync(follower),
                                                                   name=f"tonk-tournament-{tournament_id}")

    async def _sync(self, follower: Follower) -> None:
        while follower.dirty and not self._closing:
            wait = follower.last_edit + self.settings.table_edit_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            follower.dirty = False
            try:
                tournament = await self.service.load(follower.tournament_id)
                follower.newest = tournament
                if tournament.message_id is None:
                    continue
                follower.last_edit = time.monotonic()
                message = await self.standings_message(tournament)
                partial = self.client.get_partial_messageable(tournament.channel_id)
                await partial.get_partial_message(tournament.message_id).edit(**message)
            except asyncio.CancelledError:
                raise
            except (discord.HTTPException, OSError) as exc:
                log.warning("tournament %s: could not edit the standings: %s", follower.tournament_id, exc)
            except Exception:
                log.exception("tournament %s: could not edit the standings", follower.tournament_id)

    async def standings_message(self, tournament: Tournament) -> dict[str, Any]:
        tables: dict[int, Table | None] = {}
        for seated in tournament.current.tables if tournament.current else ():
            if seated.table_id is not None:
                tables[seated.table_id] = self.tables.newest(seated.table_id) or await self.tables.load(seated.table_id)
        return looks.standings_message(tournament, guild_lang(self.client, tournament.guild_id), tables)

    async def _announce(self, tournament: Tournament) -> None:
        with background(tournament.id, "the winner's announcement"):
            lang = guild_lang(self.client, tournament.guild_id)
            channel = self.client.get_partial_messageable(tournament.channel_id)
            await channel.send(lang.render(looks.winner_text(tournament)))

    # ------------------------------------------------------------------ a round's tables, each in its thread

    async def open_round(self, tournament: Tournament) -> Tournament:
        """Every table of the round in play that has no table yet gets its thread and its table
        (all of a round's at once); each table's message is posted in its thread."""
        current = tournament.current
        if tournament.stage is not Stage.PLAYING or current is None:
            return tournament
        lang = guild_lang(self.client, tournament.guild_id)
        parent = self.client.get_channel(tournament.channel_id)
        if not isinstance(parent, discord.TextChannel):
            parent = await self.client.fetch_channel(tournament.channel_id)

        async def one(seated) -> None:
            thread_id = seated.thread_id
            if thread_id is None:
                thread = await parent.create_thread(  # type: ignore[union-attr]
                    name=looks.thread_name(lang, current.number, seated.number),
                    type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
                thread_id = thread.id
            _, table = await self.service.open_table(tournament.id, current.number, seated.number,
                                                     thread_id=thread_id)
            if table.message_id is None:
                await self.post_table(table)

        results = await asyncio.gather(*(one(seated) for seated in current.tables if seated.table_id is None),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                log.error("tournament %s: a table could not be opened", tournament.id, exc_info=result)
        return await self.service.load(tournament.id)

    async def post_table(self, table: Table) -> None:
        """The table's message in its thread (as `/tonk new`'s reply is in a channel); the live
        runtime follows it from there."""
        thread = self.client.get_partial_messageable(table.channel_id)
        message = render.as_new(render.table_message(table.public(), lang=server_lang(table.guild_id)))
        # the players are called to their thread once (later edits show the table alone)
        message["content"] = " ".join(f"<@{s.user_id}>" for s in table.seats if s.is_human)
        sent = await thread.send(**message, allowed_mentions=discord.AllowedMentions(users=True))
        saved = await self.tables.set_message(table.id, sent.id)
        if saved is not None:
            self.live.on_events(saved, [])

    # ------------------------------------------------------------------ after a restart

    async def resume_all(self, owns=lambda guild_id: True) -> None:
        tournaments = await self.service.recover(owns)
        for tournament in tournaments:
            if tournament.stage is Stage.PLAYING:
                tournament = await self.open_round(tournament)
                for seated in tournament.current.tables:  # type: ignore[union-attr]
                    table = self.tables.newest(seated.table_id) if seated.table_id else None
                    if table is not None and table.status is Status.BETWEEN_HANDS:
                        self._schedule_deal(table)
            self.follower(tournament.id).newest = tournament
            self.request_sync(tournament.id)

    async def close(self) -> None:
        self._closing = True
        for task in [*self._deals.values(), *(f.task for f in self.followers.values() if f.task)]:
            task.cancel()
        await self.service.settled()


class TournamentCommands:
    """Mixed into `TonkCog`: `/tonk tournament ...` and the clicks on a tournament's message."""

    tournament_group = app_commands.Group(name="tournament", description=N_("Tonk tournaments: many tables, rounds, "
                                          "standings and a final table"), guild_only=True)

    def _tournaments_init(self) -> None:
        bot = self.bot  # type: ignore[attr-defined]
        self.tournaments: TournamentService = bot.tournaments
        self.live_tournaments = LiveTournaments(bot, self.tournaments, self.service, self.live,  # type: ignore[attr-defined]
                                                bot.settings, self.server)  # type: ignore[attr-defined]

    async def _tournaments_load(self) -> None:
        self.tournaments.listeners.append(self.live_tournaments.on_tournament)
        self.service.listeners.append(self.live_tournaments.on_table_events)  # type: ignore[attr-defined]
        from bot.shards import ShardOwnership

        settings = self.bot.settings  # type: ignore[attr-defined]
        ownership = ShardOwnership(settings.shard_count, settings.shard_ids)
        try:
            await self.live_tournaments.resume_all(ownership.owns)
        except Exception:
            log.exception("could not resume the tournaments")

    async def _tournaments_unload(self) -> None:
        with contextlib.suppress(ValueError):
            self.tournaments.listeners.remove(self.live_tournaments.on_tournament)
            self.service.listeners.remove(self.live_tournaments.on_table_events)  # type: ignore[attr-defined]
        await self.live_tournaments.close()

    # ------------------------------------------------------------------ /tonk tournament open

    @tournament_group.command(name="open", description=N_("Open sign-ups for a tournament in this channel"))
    @app_commands.describe(format=N_("Knock-out or Swiss"), seats=N_("Players at each table (2 to 4)"),
                           hands=N_("Hands each table plays in a round"), rounds=N_("Rounds (Swiss only)"),
                           preset=N_("House rules (default: this server's)"), scoring=N_("Stakes or push-ups"),
                           counts=N_("For glory, or in the server's ledger too"),
                           starts_in=N_("Minutes until the start you plan (shown to everyone)"))
    @app_commands.choices(format=FORMAT_CHOICES, preset=PRESET_CHOICES, scoring=SCORING_CHOICES,
                          counts=COUNT_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    async def tournament_open(self, interaction: discord.Interaction, format: str = "knockout",
                              seats: app_commands.Range[int, 2, 4] = 3,
                              hands: app_commands.Range[int, 1, MAX_HANDS] = 3,
                              rounds: app_commands.Range[int, 1, MAX_SWISS_ROUNDS] = 3,
                              preset: str | None = None, scoring: str | None = None, counts: str = "glory",
                              starts_in: app_commands.Range[int, 1, 10080] | None = None) -> None:
        lang = i18n.lang(str(interaction.locale))
        person = person_of(interaction)
        if not person.is_admin:
            raise UserError(t("Opening a tournament takes the Manage Server permission."))
        await self._can_run_here(interaction)
        starts_at = int(time.time()) + 60 * starts_in if starts_in else None
        tournament = await self.tournaments.open(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, organiser=person,  # type: ignore[arg-type]
            format=format, seats=seats, hands=hands, rounds=rounds, preset=preset, scoring=scoring,
            ledger=counts == "ledger", starts_at=starts_at)
        channel_lang = guild_lang(self.bot, tournament.guild_id)  # type: ignore[attr-defined]
        try:
            message_id = await reply_of(interaction).send(
                ephemeral=False, **looks.standings_message(tournament, channel_lang))
        except Exception:
            await self.tournaments.end(tournament.id, person)  # no sign-up reached the channel: free it
            raise
        del lang
        await self.tournaments.set_message(tournament.id, message_id)  # type: ignore[arg-type]

    async def _can_run_here(self, interaction: discord.Interaction) -> None:
        """A tournament needs a text channel whose threads the bot may create and post in: one line
        naming what is missing, and nothing changes."""
        channel = interaction.channel
        kind = getattr(channel, "type", None)
        if isinstance(channel, discord.Thread) or kind not in (discord.ChannelType.text, discord.ChannelType.news):
            raise UserError(t("A tournament runs in a text channel, where each table gets a thread of its own: "
                              "this channel takes no threads. Open it in a text channel."))
        pictures = await self.server.pictures_enabled(interaction.guild_id)  # type: ignore[attr-defined]
        missing = looks.missing_names(interaction.app_permissions, pictures=pictures)
        if missing:
            raise UserError(t("I can't run a tournament here: I lack {missing} in this channel. Ask someone who "
                              "manages the server to allow it.", missing=and_list(missing)))

    # ------------------------------------------------------------------ the other commands

    async def _here(self, interaction: discord.Interaction) -> Tournament:
        channel = interaction.channel
        channel_id = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        tournament = await self.tournaments.in_channel(channel_id)  # type: ignore[arg-type]
        if tournament is None:
            raise UserError(t("No tournament runs in this channel."))
        return tournament

    @tournament_group.command(name="standings", description=N_("The standings of this channel's tournament, privately"))
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        tournament = await self._here(interaction)
        lang = i18n.lang(str(interaction.locale))
        tables = {}
        for seated in tournament.current.tables if tournament.current else ():
            if seated.table_id is not None:
                tables[seated.table_id] = self.service.newest(seated.table_id)  # type: ignore[attr-defined]
        message = looks.with_standings_picture({"embed": looks.standings_embed(tournament, lang, tables, everyone=True)},
                                               tournament, lang)
        files = message.pop("attachments", None)
        await interaction.response.send_message(**message, **({"files": files} if files else {}), ephemeral=True)

    @tournament_group.command(name="end", description=N_("End this channel's tournament (the organiser; asks first)"))
    async def tournament_end(self, interaction: discord.Interaction) -> None:
        tournament = await self._here(interaction)
        person = person_of(interaction)
        if person.user_id != tournament.organiser_id and not person.is_admin:
            raise UserError(t("Only the organiser or a member with Manage Server can end the tournament."))
        await interaction.response.send_message(**looks.end_question(tournament, i18n.lang(str(interaction.locale))),
                                                ephemeral=True)

    @tournament_group.command(name="withdraw", description=N_("Withdraw an entrant between rounds (the organiser)"))
    @app_commands.describe(player=N_("The entrant to withdraw"))
    async def tournament_withdraw(self, interaction: discord.Interaction, player: discord.Member) -> None:
        tournament = await self._here(interaction)
        tournament = await self.tournaments.withdraw(tournament.id, person_of(interaction), player.id)
        lang = i18n.lang(str(interaction.locale))
        await interaction.response.send_message(lang.render(t("{name} is withdrawn: not seated again.",
                                                              name=tournament.name_of(player.id))), ephemeral=True)

    @tournament_group.command(name="history", description=N_("This server's finished tournaments and their places"))
    async def tournament_history(self, interaction: discord.Interaction) -> None:
        finished = await self.tournaments.history(interaction.guild_id)  # type: ignore[arg-type]
        await interaction.response.send_message(
            embed=looks.history_embed(finished, i18n.lang(str(interaction.locale))), ephemeral=True)

    # ------------------------------------------------------------------ clicks

    @commands.Cog.listener(f"on_{EVENT}")
    async def on_tonk_tournament_click(self, interaction: discord.Interaction, tournament_id: int, verb: str) -> None:
        try:
            await in_time(interaction, self._tournament_click(interaction, tournament_id, verb))
        except Exception as exc:
            await report_error(interaction, exc)

    async def _tournament_click(self, interaction: discord.Interaction, tournament_id: int, verb: str) -> None:
        person = person_of(interaction)
        lang = i18n.lang(str(interaction.locale))
        service = self.tournaments
        live = self.live_tournaments
        if verb == "join":
            tournament = await service.join(tournament_id, person)
        elif verb == "leave":
            tournament = await service.leave(tournament_id, person)
        elif verb == "start":
            tournament = await service.load(tournament_id, person)
            if person.user_id == tournament.organiser_id:  # a stranger is refused by the model, in one line
                await self._can_run_here(interaction)
            tournament = await service.start(tournament_id, person)
            await reply_of(interaction).defer()  # threads and tables take a moment
            tournament = await live.open_round(tournament)
        elif verb == "next":
            tournament = await service.next_round(tournament_id, person)
            await reply_of(interaction).defer()
            tournament = await live.open_round(tournament)
        elif verb == "endnow":
            tournament = await service.end(tournament_id, person)
            await reply_of(interaction).edit(content=lang.render(t("The tournament is over: ended.")), view=None)
            return
        elif verb == "keep":
            await reply_of(interaction).edit(content=lang.render(t("The tournament goes on.")), view=None)
            return
        else:
            return
        message = await live.standings_message(tournament)
        await reply_of(interaction).edit(**message)
        live.follower(tournament.id).last_edit = time.monotonic()


__all__ = ["EVENT", "LiveTournaments", "TournamentCommands", "on_route", "route"]
