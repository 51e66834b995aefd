"""Keeping each table alive in Discord: the service's events in, Discord's messages out.

The service publishes the events of every change with the table after it; `LiveTables` reads
each event (`READERS`, one reader per event class) and asks its parts for what follows:

- `ChannelFollower` (channel.py): the table's channel message, edited at most once per
  `table_edit_interval`, and a channel that refuses the bot a permission;
- `TurnClock` (clock.py): the turn's timer with its warning, and the turn ping;
- `LiveHands` (hands.py): each seated person's live private hand message;

and runs the table's own work: the computer players (each waits `computer_delay` before its
play), the computers' slaps (house rule), and the idle lobby's closing. One `TableRuntime` per
live table (runtime.py) holds the state of each part, created when the table is first seen and
dropped when it closes or nothing runs for it.

A new state of a table reaches Discord through one worker per table (`request_sync`): newest
state wins, changes that arrive while it waits fold into one round, and each round edits the
channel message, the ping and the live hands, and tells the players whose hand stopped following.
It shows the service's newest saved table: no load. Pictures and requests cost most of a click,
so nothing is drawn or sent that would not change what a reader sees. Pictures are drawn on the
event loop: on a picture thread, Pillow's Python half contended for the GIL with the loop, and
clicks waited seconds with the process at half a core (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

import aiohttp
import discord

from bot.commands import CloseIdle, ComputerSlap
from bot.config import Settings
from bot.errors import UserError
from bot.server import ServerService
from bot.service import TableService, computer_choice, computer_slaps
from bot.shards import ShardOwnership
from bot.table import (BigOneCalled, ConfirmSet, Event, HandDealt, HandOver, HostChanged, Played, RulesChanged,
                       SeatAway, SeatBack, SeatLeaving, SeatLeft, SeatRemoved, SeatTaken, SideBetsChanged, Status,
                       Table, TableClosed, TakeOverAsked, TimedOut, TurnStarted)

from cogs.live.channel import PERMISSION_RETRY_SECONDS, ChannelFollower
from cogs.live.clock import WARNING_SHARE, TurnClock, warning_lead
from cogs.live.hands import HAND_WAIT_SECONDS, LiveHands
from cogs.live.runtime import (HAND_TOKEN_SECONDS, LiveHand, Paused, Reachability, Runtimes, ServerLooks, TableRuntime,
                               background)

log = logging.getLogger("cogs.live")
OUTAGE_RETRY_MAX = 30.0
"""The longest wait between two tries of a round that Discord failed (a 5xx or no answer)."""
OUTAGE_ERRORS = (discord.DiscordServerError, OSError, aiohttp.ClientError, asyncio.TimeoutError)
"""What Discord's bad day raises: a 5xx, a time-out, no connection."""
SLAP_GRACE_SECONDS = 2.5
"""House rule (slap): how long a computer player to act waits before drawing (which closes the
slap window) while a person may still slap, so people get a fair chance at the Slap! button."""


def people_may_slap(table: Table) -> bool:
    """Is a slap window open that a person (not a computer) may still slap?"""
    return table.slap_window is not None and any(
        not table.seats[seat].played_by_computer for seat in table.game.slappers())  # type: ignore[union-attr]


class LiveTables:
    def __init__(self, client: discord.Client, service: TableService, settings: Settings,
                 server: ServerService | None = None):
        self.client = client
        self.service = service
        self.settings = settings
        self.tables = Runtimes()
        self.looks = ServerLooks(server)
        """The servers' settings the runtime reads (the turn timer, pictures on or off)."""
        self._closing = False
        self.reach = Reachability()
        """Is Discord reachable? While it is not, the turn timers and idle lobbies stand still."""
        shared = dict(client=client, service=service, settings=settings, looks=self.looks, tables=self.tables,
                      reach=self.reach, closing=lambda: self._closing)
        self.clock = TurnClock(**shared)
        self.channel = ChannelFollower(**shared, clock=self.clock,
                                       resync=lambda table_id: self.request_sync(table_id, force=True))
        self.hands = LiveHands(**shared, clock=self.clock)

    def runtime(self, table_id: int) -> TableRuntime:
        return self.tables.of(table_id)

    def discord_away(self) -> None:
        """The gateway dropped: nobody can click until it is back, so no timer runs meanwhile."""
        if not self.reach.down:
            log.info("Discord is out of reach: the turn timers and idle lobbies stand still")
        self.reach.went_down()

    def discord_back(self) -> None:
        """The gateway is back: the timers go on with the time they had left, and each table in play
        shows its later deadline."""
        away = self.reach.came_back()
        if away <= 0:
            return
        log.info("Discord is back after %.1f s: the turn timers go on with the time they had left", away)
        for table_id, runtime in list(self.tables.items()):
            if runtime.clock.turn_started is not None:
                self.request_sync(table_id, force=True)

    def settings_changed(self, guild_id: int) -> None:
        self.looks.changed(guild_id)

    # ------------------------------------------------------------------ reacting to the service

    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: what happened at a table, and the table after it. With no
        events the table was opened, or found after a restart: everything it needs starts."""
        if self._closing:
            return
        runtime = self.tables.of(table.id)
        if runtime.newest is None or table.version >= runtime.newest.version:
            runtime.newest = table
        if not events:
            self._resume(runtime, table)
            return
        for event in events:
            READERS[type(event)](self, runtime, table, event)

    def _resume(self, runtime: TableRuntime, table: Table) -> None:
        self.request_sync(table.id)
        if not table.is_open:
            runtime.cancel()
            return
        if table.status is Status.LOBBY:
            runtime.start("idle", self._idle(runtime))
        if table.is_computer_turn:
            runtime.start("computer", self._run_computers(runtime))
        self.clock.schedule(runtime, table)
        self._schedule_slaps(runtime, table)

    # what each event asks of the runtime (READERS, below the class, maps every event class to one)

    def _shows(self, runtime: TableRuntime, table: Table, event: Event) -> None:
        """Something everyone sees changed: the channel message, the ping and the live hands follow."""
        self.request_sync(table.id)

    def _timed_out(self, runtime: TableRuntime, table: Table, event: Event) -> None:
        """A turn ran out (the bot played it): one line for the operator, who can tell a table's
        slow player from a bot that timed people out for Discord's fault."""
        log.info("table %s: seat %s's turn timed out (the bot played it)", table.id, event.seat)  # type: ignore[attr-defined]
        self.request_sync(table.id)

    def _seats_changed(self, runtime: TableRuntime, table: Table, event: Event) -> None:
        self.request_sync(table.id)
        if table.status is Status.LOBBY:
            runtime.start("idle", self._idle(runtime))

    def _played(self, runtime: TableRuntime, table: Table, event: Played) -> None:
        self.request_sync(table.id)
        self.hands.played(runtime, table, event)
        self._schedule_slaps(runtime, table)  # a discard may open a slap window; any play may close it

    def _turn_started(self, runtime: TableRuntime, table: Table, event: TurnStarted) -> None:
        self.request_sync(table.id)
        self.clock.schedule(runtime, table)
        if event.by_computer:
            runtime.start("computer", self._run_computers(runtime))

    def _hand_over(self, runtime: TableRuntime, table: Table, event: HandOver) -> None:
        self.request_sync(table.id)
        self.clock.schedule(runtime, table)  # no turn: the timer stops
        self._schedule_slaps(runtime, table)

    def _closed(self, runtime: TableRuntime, table: Table, event: TableClosed) -> None:
        self.request_sync(table.id)
        runtime.cancel()

    # ------------------------------------------------------------------ one worker per table

    def request_sync(self, table_id: int, *, force: bool = False) -> None:
        """Bring the channel, the ping and the live hands up to date with the table: one worker per
        table, newest state wins.

        A change that arrives while a round is in flight marks the table dirty again, so the
        worker goes round once more; changes that arrive while it waits fold into one round.
        `force`: what the channel message shows is not known (send it whole).
        """
        runtime = self.tables.of(table_id)
        if force:
            self.channel.forget_shown(runtime)
        if not runtime.dirty:
            runtime.dirty_at = time.monotonic()
        runtime.dirty = True
        runtime.changed.set()
        runtime.start("sync", self._sync(runtime))

    def show_again(self, table_id: int) -> None:
        """Someone asked for a table where one is open (/tonk new): its message is sent whole, and if
        it was deleted (Discord answers the edit 404) it is posted again, even if it was once already:
        between hands nothing else edits it, so nobody could have found Next hand."""
        if table_id in self.tables or self.service.newest(table_id) is not None:
            self.tables.of(table_id).channel.reposted = False
            self.request_sync(table_id, force=True)

    def _table_now(self, runtime: TableRuntime) -> Table | None:
        """The newest saved table, as the service keeps it: no load. A closed table is no longer
        kept there; the event that closed it brought it."""
        return self.service.newest(runtime.table_id) or runtime.newest

    async def _sync(self, runtime: TableRuntime) -> None:
        while runtime.dirty and not self._closing:
            await self.channel.ready(runtime)
            await self.channel.hold(runtime, lambda: self._table_now(runtime))
            runtime.dirty = False
            table = None
            landed = False
            runtime.rest.round_began()
            try:
                table = self._table_now(runtime) or await self.service.load(runtime.table_id)
                refused: discord.Forbidden | None = None
                failed: BaseException | None = None
                for step in (lambda: self.channel.edit(runtime, table), lambda: self.clock.ping(table),  # noqa: B023
                             lambda: self.hands.follow(runtime, table)):  # noqa: B023
                    try:
                        await step()
                    except discord.Forbidden as exc:
                        refused = refused or exc  # the private hands, edited through their clicks, still follow
                    except OUTAGE_ERRORS as exc:
                        runtime.rest.round_failed()  # the table's clock stands still from the round's start
                        failed = failed or exc  # the other steps still try: one route's outage is not all
                if failed is not None:
                    raise failed
                await self.hands.notice_stale(runtime, table)
                if refused is not None:
                    await self.channel.refused(runtime, table, refused)
                    continue
            except asyncio.CancelledError:
                raise
            except UserError:
                break
            except OUTAGE_ERRORS as exc:
                runtime.rest.round_failed()
                await self._outage(runtime, exc)
                continue
            except Exception:
                log.exception("table %s: could not update the channel", runtime.table_id)
            else:
                landed = True
                if runtime.failures:
                    log.info("table %s: Discord answers again: the table shows its newest state", runtime.table_id)
                runtime.failures = 0
                self.channel.let_in(runtime)
                if not table.is_open and not runtime.dirty:
                    break
            finally:
                runtime.rest.round_ended(landed)  # its clock goes on (a round that landed shows the time away)
        else:
            return
        # the table closed (or vanished): nothing of it stays in memory
        runtime.cancel()
        self.tables.pop(runtime.table_id, None)
        self.service.hand_tokens.table_closed(runtime.table_id)

    async def _outage(self, runtime: TableRuntime, exc: BaseException) -> None:
        """Discord failed a round (5xx, a time-out, no connection): the round is tried again with
        back-off and jitter (1 s, 2 s, 4 s ... at most `OUTAGE_RETRY_MAX`), whole, with the table's
        newest state then, so an outage ends with the newest table shown, not a queue of old ones.
        One warning per outage, no traceback: it is Discord's trouble, not the bot's."""
        if runtime.failures == 0:
            log.warning("table %s: Discord failed an update (%s): trying again until it answers; "
                        "its clock stands still meanwhile",
                        runtime.table_id, getattr(exc, "status", None) or type(exc).__name__)
        runtime.failures += 1
        self.channel.forget_shown(runtime)
        runtime.dirty = True
        delay = min(OUTAGE_RETRY_MAX, 2.0 ** (runtime.failures - 1)) * random.uniform(0.5, 1.0)
        await asyncio.sleep(delay)

    # ------------------------------------------------------------------ computer players

    async def _run_computers(self, runtime: TableRuntime) -> None:
        with background(runtime.table_id, "a computer player"):
            while not self._closing:
                await asyncio.sleep(self.settings.computer_delay)
                if people_may_slap(self._table_now(runtime) or await self.service.load(runtime.table_id)):
                    await asyncio.sleep(SLAP_GRACE_SECONDS)
                table = await self.service.computer_step(runtime.table_id, choose=computer_choice)
                if not table.is_computer_turn:
                    return

    # ------------------------------------------------------------------ the slap race (house rule)

    def _schedule_slaps(self, runtime: TableRuntime, table: Table) -> None:
        """A slap window opened: each computer seat that would slap it does so after its own
        reaction time (the engine's, human-like), unless someone was quicker."""
        window = table.slap_window
        current = runtime.slaps
        if window is None or (current is not None and current[0] == window and not current[1].done()):
            return
        if current is not None and not current[1].done() and current[1] is not asyncio.current_task():
            current[1].cancel()  # an older window's race: that discard can no longer be slapped
        runtime.slaps = None
        offers = computer_slaps(table)
        if offers:
            task = asyncio.create_task(self._slap_after(table.id, window, offers), name=f"tonk-slap-{table.id}")
            runtime.slaps = (window, task)

    async def _slap_after(self, table_id: int, window: int, offers) -> None:
        with background(table_id, "a computer player's slap"):
            waited = 0.0
            for delay, seat, action in offers:
                await asyncio.sleep(max(0.0, delay - waited))
                waited = delay
                table = await self.service.apply(table_id, None, ComputerSlap(seat, window, action))
                if table.slap_window != window:
                    return  # it landed, or the window closed: the race is over

    # ------------------------------------------------------------------ idle lobbies

    async def _idle(self, runtime: TableRuntime) -> None:
        with background(runtime.table_id, "closing the idle lobby"):
            while True:
                table = self._table_now(runtime) or await self.service.load(runtime.table_id)
                if table.status is not Status.LOBBY:
                    return
                since = table.lobby_since
                pause = Paused(self.reach, runtime.rest)
                wait = since + self.settings.lobby_idle_seconds + pause.away_since(since) - time.time()
                if wait > 0 or pause.down:
                    await pause.sleep_until(lambda: since + self.settings.lobby_idle_seconds  # noqa: B023
                                            + pause.away_since(since))  # noqa: B023
                    continue
                await self.service.apply(runtime.table_id, None, CloseIdle(self.settings.lobby_idle_seconds))
                return

    # ------------------------------------------------------------------ lifecycle

    async def resume_all(self) -> None:
        """After a start or restart: every open table gets its edits, timers and computers back."""
        ownership = ShardOwnership(self.settings.shard_count, self.settings.shard_ids)
        tables = await self.service.recover(owns=ownership.owns)
        log.info("resuming %d open tables (%s): %s", len(tables), ownership,
                 " ".join(f"{table.id}@{table.guild_id}" for table in tables) or "none")
        kept: dict[int, list] = {}
        for hand in await self.service.hand_tokens.take_up([table.id for table in tables]):
            kept.setdefault(hand.table_id, []).append(hand)
        for table in tables:
            runtime = self.tables.of(table.id)
            self.hands.lost_after_restart(runtime, table)
            self.hands.take_up(runtime, table, kept.get(table.id, []))
            self.on_events(table, [])

    async def close(self, timeout: float = 5.0) -> None:
        """Let pending updates finish, and every live hand say that it no longer follows the game
        (the stop takes its tokens away), at most `timeout` seconds in all; then stop every task."""
        began = time.monotonic()
        self._closing = True
        syncs = [r.sync for r in self.tables.values() if r.sync is not None and not r.sync.done()]
        if syncs:
            await asyncio.wait(syncs, timeout=timeout * 0.6)
        await self.hands.retire_all(list(self.tables.values()), max(0.5, timeout - (time.monotonic() - began)))
        await self.service.hand_tokens.close()  # the retired hands' tokens go: nothing to take up
        for runtime in self.tables.values():
            runtime.cancel()
            if runtime.sync is not None:
                runtime.sync.cancel()
        self.tables.clear()


READERS = {
    SeatTaken: LiveTables._seats_changed, SeatLeft: LiveTables._seats_changed,
    SeatRemoved: LiveTables._seats_changed, SeatLeaving: LiveTables._shows, HostChanged: LiveTables._shows,
    TakeOverAsked: LiveTables._shows, SeatAway: LiveTables._shows, SeatBack: LiveTables._shows,
    RulesChanged: LiveTables._shows, SideBetsChanged: LiveTables._shows, BigOneCalled: LiveTables._shows,
    HandDealt: LiveTables._shows, TimedOut: LiveTables._timed_out, Played: LiveTables._played,
    ConfirmSet: LiveTables._shows, TurnStarted: LiveTables._turn_started, HandOver: LiveTables._hand_over,
    TableClosed: LiveTables._closed,
}
"""Every event class the table emits, and what the live runtime does for it: an event class
missing here is a KeyError at its first emission (and tests/test_events.py fails first)."""

__all__ = ["HAND_TOKEN_SECONDS", "HAND_WAIT_SECONDS", "PERMISSION_RETRY_SECONDS", "READERS", "SLAP_GRACE_SECONDS",
           "WARNING_SHARE", "LiveHand", "LiveTables", "TableRuntime", "background", "people_may_slap", "warning_lead"]
