"""The `/tonk` command group and every click on a Tonk button or menu.

Callbacks translate a click into a service call and render the answer; the engine and
the service decide what is allowed. Every interaction is answered at once (well within
Discord's 3 seconds); refusals are ephemeral and never errors.
"""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import StaleView, UserError
from bot.service import LEVELS, Person
from bot.stats import StatsService
from bot.store import (PlayerRef, current_season, get_guild_settings, hand_record, player_standing, recent_hands,
                       standings, start_new_season, update_guild_settings)
from engine import PRESET_NAMES, Rules

from cogs import render, stats_commands

if TYPE_CHECKING:  # pragma: no cover
    from bot.client import TonkBot

log = logging.getLogger(__name__)

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
SCORING_CHOICES = [app_commands.Choice(name="stakes (zero-sum points)", value="stakes"),
                   app_commands.Choice(name="push-ups (low is good)", value="pushups")]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
HAND_VERBS = {"draw", "take", "drop", "spread", "hit", "discard"}


def person_of(interaction: discord.Interaction) -> Person:
    user = interaction.user
    perms = interaction.permissions
    return Person(user_id=user.id, name=user.display_name, is_admin=bool(perms and perms.manage_guild))


class TonkCog(commands.GroupCog, name="Tonk", group_name="tonk", group_description="Play Tonk, the knock-rummy"):
    def __init__(self, bot: "TonkBot"):
        self.bot = bot
        self.service = bot.service
        self.live = bot.live
        self.stats = StatsService(bot.db)
        super().__init__()

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
        view = await self.service.open_table(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, host=person_of(interaction),  # type: ignore[arg-type]
            preset=preset, stake=stake, scoring=scoring, hand_size=hand_size, computers=computers, level=level,
        )
        try:
            response = await interaction.response.send_message(**render.lobby_message(view))
            message_id = getattr(response, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except Exception:
            # no lobby message reached the channel: free the channel instead of leaving an
            # invisible table behind
            await self.service.cancel(view.id, Person(view.table.host_user_id, "the bot", is_admin=True))
            raise
        view = await self.service.set_message(view.id, message_id)
        await self.live.changed(view, edited_now=True)

    # ------------------------------------------------------------------ /tonk end

    @app_commands.command(name="end", description="Close the Tonk table in this channel (an unfinished hand pays nothing)")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        view = await self.service.open_in_channel(interaction.channel_id)  # type: ignore[arg-type]
        if view is None:
            raise UserError("There is no open table in this channel.")
        closed = await self.service.cancel(view.id, person_of(interaction))
        try:
            await interaction.response.send_message(f"Table {view.id} closed.", ephemeral=True)
        finally:
            await self.live.changed(closed)

    # ------------------------------------------------------------------ /tonk rules

    @app_commands.command(name="rules", description="Explain the house rules of a preset or of this channel's table")
    @app_commands.describe(preset="A preset to explain (default: the table here, else this server's rules)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        if preset is not None:
            embed = render.rules_embed(Rules.preset(preset), f"House rules: {preset}")
        else:
            view = await self.service.open_in_channel(interaction.channel_id) if interaction.guild_id else None  # type: ignore[arg-type]
            if view is not None:
                embed = render.rules_embed(view.rules, f"House rules at table {view.id}")
            else:
                rules = Rules()
                if interaction.guild_id:
                    async with self.service.db.sessions() as session:
                        settings = await get_guild_settings(session, guild_id=interaction.guild_id)
                    rules = Rules.from_dict(settings.rules)
                embed = render.rules_embed(rules, "This server's house rules")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ /tonk ledger

    @app_commands.command(name="ledger", description="This server's standings")
    @app_commands.guild_only()
    @app_commands.describe(mode="Stakes balances or push-ups (default: the server's scoring mode)")
    @app_commands.choices(mode=SCORING_CHOICES)
    async def ledger(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        async with self.service.db.sessions() as session:
            if mode is None:
                mode = (await get_guild_settings(session, guild_id=guild_id)).scoring_mode
            rows = await standings(session, guild_id=guild_id, mode=mode, limit=10)
            mine = await player_standing(session, guild_id=guild_id, mode=mode,
                                         account=PlayerRef.human(interaction.user.id, "me").account)
            season = await current_season(session, guild_id=guild_id)
        name = interaction.guild.name if interaction.guild else "this server"
        await interaction.response.send_message(
            embed=render.ledger_embed(rows, mine, mode=mode, season=season, guild_name=name))

    # ------------------------------------------------------------------ /tonk history

    @app_commands.command(name="history", description="Recent hands on this server; download one hand's record")
    @app_commands.guild_only()
    @app_commands.describe(hand="A hand id from the list, to download its record", count="How many hands to list")
    async def history(self, interaction: discord.Interaction, hand: str | None = None,
                      count: app_commands.Range[int, 1, 20] = 10) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        async with self.service.db.sessions() as session:
            if hand is not None:
                record = await hand_record(session, guild_id=guild_id, hand_id=hand.strip())
                if record is None:
                    raise UserError(f"There is no hand {hand!r} on this server.")
                data = json.dumps(record, indent=1).encode()
                await interaction.response.send_message(
                    f"Hand {hand}: replay it with `python -m engine replay hand-{hand}.json`.",
                    file=discord.File(io.BytesIO(data), filename=f"hand-{hand}.json"), ephemeral=True)
                return
            hands = await recent_hands(session, guild_id=guild_id, limit=count)
        if not hands:
            await interaction.response.send_message("No hands played on this server yet.", ephemeral=True)
            return
        lines = []
        for h in hands:
            who = ", ".join(f"{name} {render.signed(p)}" for name, p in zip(h.players, h.payments))
            lines.append(f"`{h.hand_id}` {discord.utils.format_dt(h.finished_at, 'R')} · "
                         f"{render.OUTCOME_WORDS.get(h.outcome, h.outcome)} · {who}")
        embed = discord.Embed(title="Recent hands", description="\n".join(lines)[:4096], colour=render.COLOUR_LOBBY)
        embed.set_footer(text="/tonk history hand:<id> downloads a hand's record.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

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

    @stats_group.command(name="server", description="This server's Tonk hands: how they ended, the rules played most")
    @app_commands.describe(season="Season number (default: the current one)")
    async def stats_server(self, interaction: discord.Interaction,
                           season: app_commands.Range[int, 1] | None = None) -> None:
        await stats_commands.server(self.stats, interaction, season=season)

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
    )
    @app_commands.choices(preset=PRESET_CHOICES, scoring=SCORING_CHOICES)
    async def settings(self, interaction: discord.Interaction, preset: str | None = None,
                       stake: app_commands.Range[int, 1, 1000] | None = None, scoring: str | None = None,
                       turn_timer: app_commands.Range[int, 3, 3600] | None = None,
                       allow_channel: discord.TextChannel | None = None,
                       disallow_channel: discord.TextChannel | None = None,
                       all_channels: bool = False, new_season: bool = False) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        notes = []
        async with self.service.db.sessions() as session:
            current = await get_guild_settings(session, guild_id=guild_id)
            changes: dict = {}
            if preset is not None:
                changes["rules"] = Rules.preset(preset).to_dict(preset)
            if stake is not None:
                changes["stake"] = stake
            if scoring is not None:
                changes["scoring_mode"] = scoring
            if turn_timer is not None:
                changes["turn_timer_seconds"] = turn_timer
            channels = list(current.table_channel_ids or [])
            if all_channels:
                channels = []
            if allow_channel is not None and allow_channel.id not in channels:
                channels.append(allow_channel.id)
            if disallow_channel is not None:
                if not channels:
                    raise UserError("Every channel may host tables now: allow the ones you want first.")
                channels = [c for c in channels if c != disallow_channel.id]
                if not channels:
                    raise UserError("At least one channel must be able to host tables (or use all_channels).")
            if all_channels or allow_channel is not None or disallow_channel is not None:
                changes["table_channel_ids"] = channels
            if changes:
                current = await update_guild_settings(session, guild_id=guild_id, **changes)
                self.live.settings_changed(guild_id)
            if new_season:
                season = await start_new_season(session, guild_id=guild_id)
                notes.append(f"The old standings are archived; season {season} begins.")
        rules = Rules.from_dict(current.rules)
        where = ", ".join(f"<#{c}>" for c in current.table_channel_ids or []) or "every channel"
        embed = discord.Embed(title="Tonk settings for this server", colour=render.COLOUR_LOBBY, description="\n".join(notes) or None)
        embed.add_field(name="House rules", value=rules.closest_preset(), inline=True)
        embed.add_field(name="Stake", value=str(current.stake), inline=True)
        embed.add_field(name="Scoring", value=current.scoring_mode, inline=True)
        embed.add_field(name="Turn timer", value=f"{current.turn_timer_seconds} s", inline=True)
        embed.add_field(name="Tables allowed in", value=where, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ clicks

    async def on_click(self, interaction: discord.Interaction, table_id: int, verb: str,
                       version: int | None, values: list[str]) -> None:
        try:
            try:
                await self._dispatch(interaction, table_id, verb, version, values)
            except StaleView as exc:
                if version is None:
                    raise
                # a click on an old hand message: show the hand as it is now instead
                await self._show_hand(interaction, table_id, note=str(exc), edit=True)
        except Exception as exc:  # UserError / TonkError are refusals; the rest is logged
            await self.bot.report_error(interaction, exc, table_id=table_id)

    async def _dispatch(self, interaction: discord.Interaction, table_id: int, verb: str,
                        version: int | None, values: list[str]) -> None:
        person = person_of(interaction)
        service = self.service
        if verb in HAND_VERBS:
            arg = values[0] if values else None
            view = await service.act(table_id, person, verb, arg, version)
            seat = view.seat_of(person.user_id)
            note = "Done." if not view.game or view.game.over else None
            try:
                await interaction.response.edit_message(**render.hand_message(view, seat, note=note))  # type: ignore[arg-type]
            finally:
                await self.live.changed(view)  # the play is saved: the table must show it even if this reply failed
            return
        if verb == "refresh":
            await self._show_hand(interaction, table_id, edit=True)
            return
        if verb == "hand":
            await self._show_hand(interaction, table_id, edit=False)
            return
        if verb == "join":
            view = await service.join(table_id, person)
        elif verb == "leave":
            view = await service.leave(table_id, person)
        elif verb == "cpu":
            view = await service.add_computer(table_id, person, values[0] if values else "normal")
        elif verb == "start":
            view = await service.start(table_id, person)
        elif verb == "cancel":
            view = await service.cancel(table_id, person)
        elif verb == "next":
            view = await service.next_hand(table_id, person)
        elif verb == "back":
            view = await service.back(table_id, person)
        else:
            raise UserError("That button is not one I know.")
        edited = False
        try:
            await interaction.response.edit_message(**render.table_message(view))
            edited = True
        finally:
            await self.live.changed(view, edited_now=edited)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int, *, note: str | None = None,
                         edit: bool) -> None:
        view = await self.service.load(table_id)
        seat = view.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("You are not seated at this table: only its players have a hand.")
        if view.game is None:
            raise UserError("No hand has been dealt at this table yet.")
        message = render.hand_message(view, seat, note=note)
        if edit:
            await interaction.response.edit_message(**message)
        else:
            await interaction.response.send_message(**message, ephemeral=True)


async def setup(bot: "TonkBot") -> None:
    await bot.add_cog(TonkCog(bot))
