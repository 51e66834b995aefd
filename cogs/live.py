"""Keeping each table's channel alive: message edits, turn pings, computer turns, timers.

The service publishes the events of every change; `LiveTables` reacts to them with one
`TableRuntime` per live table, created when the table is first seen and dropped when it
closes. Discord limits message edits per channel, and computer players can play faster
than people read, so a table message is edited at most once per `table_edit_interval`
(later changes fold into the next edit, which always shows the newest state). Computer
players wait `computer_delay` before each play. A turn's timer asks the service to time
the turn out, which does nothing if the turn has moved on, so a late timer never plays.
The turn ping's message id is saved with the table: a restart neither pings twice nor
leaves an old ping behind, and closing the table removes it.

Each seated person has at most one live private hand message per table (`LiveHand`): the
interaction that last showed it (their click on My hand, the ping's button, or any button of
the hand) lends its webhook token, valid 15 minutes and renewed by every click, and the
channel's edits bring the hand up to date with it whenever the table moved on. Opening the
hand again replaces the old message. Before the token runs out (`hand_follow_seconds`, 14 minutes)
the hand retires: its message says it no longer follows the game, with a button that brings the live
hand back (a new click, a new token), so no message is left claiming to be current. Whoever is seated
in the hand in play with a hand that no longer follows is told in the channel, one short note with
My hand for all of them, at most once per person and deal; the player to act has the turn ping.
The hand is rendered from the seat's `SeatView` only.

Pictures and requests cost most of a click, so nothing is drawn or sent that would not change
what a reader sees. The channel's picture shows the seats, the spreads and the showdown (whose
turn it is, the cards in each hand, the stock and the discard are in the text), so a draw or a
discard edits the text and keeps the file. A hand message's picture shows its own cards only; a
live hand is edited only when its text, embed or components would change (another player's draw
changes nothing it shows: the stock is shown to the player to act). Pictures are drawn on the
event loop: on a picture thread, Pillow's Python half contended for the GIL with the loop, and
clicks waited seconds with the process at half a core (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.config import Settings
from bot.errors import UserError
from bot.service import TableService, computer_choice, computer_slaps
from bot.shards import ShardOwnership
from bot.commands import CloseIdle, ComputerSlap, TimeOut
from bot.table import (BigOneCalled, ConfirmSet, Event, HandDealt, HandOver, HostChanged, Ping, Played, RulesChanged, SeatAway,
                       SeatBack, SeatLeaving, SeatLeft, SeatRemoved, SeatTaken, SideBetsChanged, Status, Table,
                       TableClosed, TakeOverAsked, TimedOut, TurnStarted)
from engine import Card
from engine.help import plural

from cogs import pictures, render
from cogs.components import Verb, button, view_of

log = logging.getLogger(__name__)
WARNING_SHARE = 0.25
"""The turn's warning comes when a quarter of its time is left, at least 5 s before the end
(`warning_lead`); a timer too short for that is warned at half time."""
HAND_TOKEN_SECONDS = 14 * 60
"""How long the bot edits a private hand through one interaction: Discord's tokens last 15 minutes.
Then the hand retires: its message says it no longer follows the game (the settings'
`hand_follow_seconds`, this by default)."""
HAND_WAIT_SECONDS = 1.0
"""How long a click on the live hand message waits for that message's edit in flight."""
ORIGINAL = "@original"
"""The message id that names an interaction's response in its webhook's routes."""
SLAP_GRACE_SECONDS = 2.5
"""House rule (slap): how long a computer player to act waits before drawing (which closes the
slap window) while a person may still slap, so people get a fair chance at the Slap! button."""


@dataclass(eq=False, slots=True)
class LiveHand:
    """A person's private hand message and the interaction webhook that edits it.

    Only the webhook's id and token are kept, not the `discord.Interaction` that lent them:
    that object holds the click's whole payload, its message, member and channel (several KiB)
    for the token's 15 minutes, and editing its response needs none of them."""

    application_id: int
    token: str
    message_id: int | None
    moves: int
    """The table's `moves` the message shows."""
    picture: pictures.HandPicture | None = None
    """The picture the message carries (None: none, or not known while an edit is in flight)."""
    look: int | None = None
    """What the message shows (`render.look`; None: not known): an edit that would show the same
    is not sent."""
    since: float = field(default_factory=time.monotonic)
    gone: bool = False
    """Discord refused an edit of it (deleted, or its token expired): nothing more is tried."""
    retired: bool = False
    """Its token is about to expire: the message says it no longer follows the game, and is left."""
    retire: asyncio.TimerHandle | None = None
    """When it retires (`follow_seconds` after the click that lent the token)."""
    follow_seconds: float = HAND_TOKEN_SECONDS

    @property
    def fresh(self) -> bool:
        return not self.retired and not self.gone and time.monotonic() - self.since < self.follow_seconds

    def webhook(self, client: discord.Client) -> discord.Webhook:
        """The interaction's webhook, whose `@original` message is this hand (as
        `Interaction.edit_original_response` addresses it)."""
        return discord.Webhook.partial(self.application_id, self.token, client=client)


@dataclass(eq=False)
class TableRuntime:
    """What one live table needs in memory: its tasks and what its message shows."""

    table_id: int
    last_edit: float = 0.0
    shown: int | None = None
    """The table's `moves` that its channel message shows."""
    picture: pictures.TablePicture | None = None
    """The picture the channel message carries (None: none, or not known while an edit is in flight)."""
    edits: int = 0
    """Edits of the channel message begun: only the newest one's picture is known to be shown."""
    dirty: bool = False
    sync: asyncio.Task | None = None
    computer: asyncio.Task | None = None
    idle: asyncio.Task | None = None
    timer: tuple[str, asyncio.Task] | None = None
    slaps: tuple[int, asyncio.Task] | None = None
    """House rule (slap): the computer seats' slaps of the open window (by its discard), after
    their reaction times."""
    replying: int = 0
    """Clicks on this table being answered: the channel edit waits for their replies."""
    replied: asyncio.Event = field(default_factory=asyncio.Event)
    hands: dict[int, LiveHand] = field(default_factory=dict)
    """Each person's live private hand message, by user id."""
    hand_locks: defaultdict[int, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    """One at a time per person: a click's reply and the edit that follows the table."""
    drawn: dict[int, tuple[str, Card]] = field(default_factory=dict)
    """The card each person drew this turn (by turn key), marked in their hand until the turn ends."""
    turn_started: tuple[str, float] | None = None
    """The turn whose timer runs, and when it began (Unix time)."""
    pending: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    """Each person's pick that waits for their word: (the table's moves, verb, value)."""
    newest: Table | None = None
    """The newest table the service published (the channel shows it, or the service's newer save)."""
    closed: Table | None = None
    """The table as it closed: shown as it is, even once its rows are deleted (/tonk-admin forget)."""
    ping_deadline: tuple[str, float | None] | None = None
    """The turn and the deadline the turn's ping (or its warning) shows, when this process sent it."""
    stale: set[int] = field(default_factory=set)
    """People whose private hand no longer follows the game (retired or refused), until they open it again."""
    noticed: tuple[int, set[int]] = (0, set())
    """The deal (hand number) and who was told in the channel during it that their hand stopped following."""

    @property
    def idle_now(self) -> bool:
        tasks = (self.sync, self.computer, self.idle, self.timer[1] if self.timer else None,
                 self.slaps[1] if self.slaps else None)
        live_hands = any(hand.fresh for hand in self.hands.values())
        return (self.replying == 0 and not live_hands and not self.stale
                and all(t is None or t.done() for t in tasks))

    def edit_begun(self) -> int:
        """An edit of the channel message begins: until it lands, what picture it shows is not known."""
        self.edits += 1
        self.picture = None
        return self.edits

    def edit_landed(self, edit: int, picture: pictures.TablePicture | None) -> None:
        """Edit number `edit` reached Discord showing `picture`; a later edit begun meanwhile decides."""
        if edit == self.edits:
            self.picture = picture

    def start(self, attribute: str, coro: Awaitable[None]) -> None:
        """Run `coro` as this table's task of that kind unless one is running already."""
        task = getattr(self, attribute)
        if task is None or task.done():
            setattr(self, attribute, asyncio.create_task(coro, name=f"tonk-{attribute}-{self.table_id}"))
        else:
            coro.close()  # type: ignore[attr-defined]

    def cancel(self) -> None:
        """Stop the table's computer, idle and timer tasks (not the one running this)."""
        running = asyncio.current_task()
        tasks = [self.computer, self.idle, self.timer[1] if self.timer else None, self.slaps[1] if self.slaps else None]
        for task in tasks:
            if task is not None and task is not running:
                task.cancel()
        self.timer = None
        self.slaps = None
        for hand in self.hands.values():
            if hand.retire is not None:
                hand.retire.cancel()


def warning_lead(seconds: float) -> int:
    """How many whole seconds before a turn of `seconds` runs out its player is warned: a quarter
    of the turn, at least 5 s, but never more than half the turn (rounded down), so every timer
    the settings accept (3 s and up) has its warning: 3 s warns with 1 s left, 4 or 5 s with 2 s,
    6 s with 3 s, 10 s and up with a quarter (at least 5 s). 0: no warning (under 2 s)."""
    return int(min(max(5.0, seconds * WARNING_SHARE), seconds // 2))


def people_may_slap(table: Table) -> bool:
    """Is a slap window open that a person (not a computer) may still slap?"""
    return table.slap_window is not None and any(
        not table.seats[seat].played_by_computer for seat in table.game.slappers())  # type: ignore[union-attr]


class LiveTables:
    def __init__(self, client: discord.Client, service: TableService, settings: Settings):
        self.client = client
        self.service = service
        self.settings = settings
        self.tables: dict[int, TableRuntime] = {}
        self._turn_seconds: dict[int, float] = {}
        self._pictures: dict[int, bool] = {}
        self._closing = False

    def runtime(self, table_id: int) -> TableRuntime:
        runtime = self.tables.get(table_id)
        if runtime is None:
            runtime = self.tables[table_id] = TableRuntime(table_id)
        return runtime

    # ------------------------------------------------------------------ reacting to the service

    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: what happened at a table, and the table after it. With no
        events the table was opened, or found after a restart: everything it needs starts."""
        if self._closing:
            return
        runtime = self.runtime(table.id)
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
            runtime.closed = table
            runtime.cancel()
            return
        if table.status is Status.LOBBY:
            runtime.start("idle", self._idle(runtime))
        if table.is_computer_turn:
            runtime.start("computer", self._run_computers(runtime))
        self._schedule_timer(runtime, table)
        self._schedule_slaps(runtime, table)

    # what each event asks of the runtime (READERS, below the class, maps every event class to one)

    def _shows(self, runtime: TableRuntime, table: Table, event: Event) -> None:
        """Something everyone sees changed: the channel message, the ping and the live hands follow."""
        self.request_sync(table.id)

    def _seats_changed(self, runtime: TableRuntime, table: Table, event: Event) -> None:
        self.request_sync(table.id)
        if table.status is Status.LOBBY:
            runtime.start("idle", self._idle(runtime))

    def _played(self, runtime: TableRuntime, table: Table, event: Played) -> None:
        self.request_sync(table.id)
        if event.drawn is not None and table.turn_key is not None:  # the drawer's own hand marks it
            user_id = table.seats[event.seat].user_id
            if user_id is not None:
                runtime.drawn[user_id] = (table.turn_key, event.drawn)
        self._schedule_slaps(runtime, table)  # a discard may open a slap window; any play may close it

    def _turn_started(self, runtime: TableRuntime, table: Table, event: TurnStarted) -> None:
        self.request_sync(table.id)
        self._schedule_timer(runtime, table)
        if event.by_computer:
            runtime.start("computer", self._run_computers(runtime))

    def _hand_over(self, runtime: TableRuntime, table: Table, event: HandOver) -> None:
        self.request_sync(table.id)
        self._schedule_timer(runtime, table)  # no turn: the timer stops
        self._schedule_slaps(runtime, table)

    def _closed(self, runtime: TableRuntime, table: Table, event: TableClosed) -> None:
        runtime.closed = table
        self.request_sync(table.id)
        runtime.cancel()

    def shown(self, table: Table) -> int | None:
        """A click's reply is showing `table` on the channel message itself: no edit needed for it.
        The edit's number, for `picture_shown` once the reply landed."""
        runtime = self.tables.get(table.id)
        if runtime is None:
            return None
        runtime.shown = table.moves
        runtime.last_edit = time.monotonic()
        return runtime.edit_begun()

    def picture_shown(self, table_id: int, edit: int | None, picture: pictures.TablePicture | None) -> None:
        """The reply numbered `edit` (from `shown`) landed, and the channel message carries `picture`."""
        runtime = self.tables.get(table_id)
        if runtime is not None and edit is not None:
            runtime.edit_landed(edit, picture)

    @contextlib.asynccontextmanager
    async def replying(self, table_id: int):
        """While a click on the table is answered, the channel's edit waits: the reply comes first
        (it may itself be the edit), and Discord sees the answer to the click as soon as it can."""
        runtime = self.runtime(table_id)
        runtime.replying += 1
        try:
            yield
        finally:
            runtime.replying -= 1
            if runtime.replying == 0:
                runtime.replied.set()
                if runtime.idle_now and self.tables.get(table_id) is runtime:
                    del self.tables[table_id]  # nothing runs for it: keep no memory of it

    def request_sync(self, table_id: int, *, force: bool = False) -> None:
        """Bring the channel up to date with the table: one worker per table, newest state wins.

        A change that arrives while an edit is in flight marks the table dirty again, so the
        worker goes round once more; changes that arrive while it waits fold into one edit.
        """
        runtime = self.runtime(table_id)
        if force:
            runtime.shown = None
            runtime.edit_begun()  # what the message shows is not known: send its picture again
        runtime.dirty = True
        runtime.start("sync", self._sync(runtime))

    async def _sync(self, runtime: TableRuntime) -> None:
        while runtime.dirty and not self._closing:
            wait = runtime.last_edit + self.settings.table_edit_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            while runtime.replying:
                runtime.replied.clear()
                await runtime.replied.wait()
            runtime.dirty = False
            try:
                # the newest saved table, as the service keeps it: no load; a closed table is
                # no longer kept there, and the event that closed it brought it
                table = self.service.newest(runtime.table_id) or runtime.closed or runtime.newest
                if table is None:
                    table = await self.service.load(runtime.table_id)
                await self._edit(runtime, table)
                await self._ping(table)
                await self._follow_hands(runtime, table)
                await self._notice_stale(runtime, table)
            except asyncio.CancelledError:
                raise
            except UserError:
                break
            except (OSError, aiohttp.ClientError) as exc:
                log.warning("table %s: could not reach Discord to update the channel: %s", runtime.table_id, exc)
            except Exception:
                log.exception("table %s: could not update the channel", runtime.table_id)
            else:
                if not table.is_open and not runtime.dirty:
                    break
        else:
            return
        # the table closed (or vanished): nothing of it stays in memory
        runtime.cancel()
        self.tables.pop(runtime.table_id, None)

    async def _edit(self, runtime: TableRuntime, table: Table) -> None:
        if table.message_id is None or runtime.shown == table.moves:
            return
        runtime.last_edit = time.monotonic()
        runtime.shown = table.moves
        content, picture = await self.table_message(table)
        edit = runtime.edit_begun()
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(table.message_id)
        try:
            await message.edit(**content)
        except discord.NotFound:
            log.warning("table %s: its message is gone", table.id)
        else:
            runtime.edit_landed(edit, picture)

    async def _ping(self, table: Table) -> None:
        """One short mention when a person's turn begins; the previous one is removed."""
        key = table.turn_key
        wanted = key is not None and not table.is_computer_turn
        old = table.ping
        channel = self.client.get_partial_messageable(table.channel_id)
        if wanted and old is not None and old.turn == key:
            await self._ping_follows_deadline(table, old)
            return
        if old is None and not wanted:
            return
        if old is not None:
            try:
                await channel.get_partial_message(old.message_id).delete()
            except discord.HTTPException:
                pass
        ping = None
        if wanted:
            user_id = table.seats[table.to_act].user_id  # type: ignore[index]
            deadline = await self.deadline(table)
            message = await channel.send(
                self._ping_text(user_id, deadline),  # type: ignore[arg-type]
                view=self._ping_view(table), allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id)]),  # type: ignore[arg-type]
            )
            ping = Ping(message.id, key)  # type: ignore[arg-type]
            self.runtime(table.id).ping_deadline = (key, deadline)  # type: ignore[assignment]
        if table.is_open and await self.service.set_ping(table.id, ping) is None and ping is not None:
            # the table closed meanwhile: the new ping must not outlive it
            await channel.get_partial_message(ping.message_id).delete()

    async def _ping_follows_deadline(self, table: Table, ping: Ping) -> None:
        """The ping of the turn in play shows the deadline the table shows. A restart restarts the
        turn's timer (the bot was away, the player may have been unable to play): the ping it
        finds, sent by the process before, is edited to the new deadline (an edit notifies nobody)."""
        runtime = self.runtime(table.id)
        deadline = await self.deadline(table)
        if runtime.ping_deadline == (ping.turn, deadline):
            return
        runtime.ping_deadline = (ping.turn, deadline)
        user_id = table.seats[table.to_act].user_id  # type: ignore[index]
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(ping.message_id)
        try:
            await message.edit(content=self._ping_text(user_id, deadline),  # type: ignore[arg-type]
                               view=self._ping_view(table), allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(user_id)]))  # type: ignore[arg-type,list-item]
        except discord.NotFound:
            pass  # removed meanwhile: the next turn's ping is sent as usual

    @staticmethod
    def _ping_text(user_id: int, deadline: float | None) -> str:
        when = f": time runs out {render.relative_time(deadline)}" if deadline is not None else ""
        return f"<@{user_id}>, your turn at the Tonk table{when}."

    @staticmethod
    def _ping_view(table: Table) -> discord.ui.View:
        """The ping's button opens the hand (the same click as the table's My hand)."""
        return view_of(button(table.id, Verb.HAND, "My hand", style=discord.ButtonStyle.primary))

    # ------------------------------------------------------------------ how messages look here

    async def table_message(self, table: Table) -> tuple[dict[str, Any], pictures.TablePicture | None]:
        """The channel message of `table`, with the turn's deadline and (unless the server turned
        them off) its picture, and the picture it shows once sent. The picture the channel message
        carries already is kept, not drawn and uploaded again."""
        public = table.public()
        on = await self.pictures_on(table.guild_id)
        runtime = self.tables.get(table.id)
        message = render.table_message(public, deadline=await self.deadline(table), picture=on,
                                       shown=runtime.picture if runtime is not None else None)
        return message, render.channel_picture(public) if on else None

    async def hand_message(self, table: Table, seat: int, *, note: str | None = None, confirm_drop: bool = False,
                           focus: str | None = None, message_id: int | None = None
                           ) -> tuple[dict[str, Any], pictures.HandPicture | None]:
        """A person's private hand, from their seat's view only; the card they drew this turn marked;
        and the picture it shows once sent (for `hand_shown`). `focus`: the group picked in a two-step
        choice; `message_id`: the message the answer edits (None: a new one); when it is the live hand
        message, its picture is kept unless the hand changed."""
        runtime = self.tables.get(table.id)
        live = runtime.hands.get(table.seats[seat].user_id) if runtime is not None else None  # type: ignore[arg-type]
        shown = live.picture if live is not None and message_id is not None and live.message_id == message_id else None
        return await self._hand(table, seat, note=note, confirm_drop=confirm_drop, focus=focus, shown=shown)

    async def _hand(self, table: Table, seat: int, *, note: str | None = None, confirm_drop: bool = False,
                    focus: str | None = None, shown: pictures.HandPicture | None = None) -> tuple[dict[str, Any], pictures.HandPicture | None]:
        """The hand message, and the picture it shows (None: pictures are off here)."""
        user_id = table.seats[seat].user_id
        drawn = self._drawn(table, user_id)
        view = table.seat_view(seat)
        runtime = self.tables.get(table.id)
        waiting = runtime.pending.get(user_id) if runtime is not None and user_id is not None else None
        pending = waiting[1:] if waiting is not None and waiting[0] == table.moves else None
        on = await self.pictures_on(table.guild_id)
        picture = render.hand_picture(view, drawn) if on else None
        message = render.hand_message(
            view, table_id=table.id, hand_number=table.hand_number, moves=table.moves,
            away=table.seats[seat].away, note=note, drawn=drawn, confirm_drop=confirm_drop,
            deadline=await self.deadline(table), picture=on, shown=shown, focus=focus, pending=pending,
            confirms=table.seats[seat].confirm,
            hint=await self.service.first_hand_hint(table, user_id) if user_id is not None else None)
        return message, picture

    def _drawn(self, table: Table, user_id: int | None) -> Card | None:
        """The card `user_id` drew in the turn in play, if they drew one."""
        runtime = self.tables.get(table.id)
        if runtime is None or user_id not in runtime.drawn:
            return None
        key, card = runtime.drawn[user_id]  # type: ignore[index]
        return card if key == table.turn_key else None

    async def deadline(self, table: Table) -> float | None:
        """When the turn in play runs out (Unix time); None when no person's turn is timed."""
        runtime = self.tables.get(table.id)
        started = runtime.turn_started if runtime is not None else None
        if started is None or started[0] != table.turn_key or table.is_computer_turn:
            return None
        return started[1] + await self.turn_seconds(table.guild_id)

    async def pictures_on(self, guild_id: int) -> bool:
        """The server's pictures setting, read once and kept until /tonk-admin settings changes it."""
        on = self._pictures.get(guild_id)
        if on is None:
            on = self._pictures[guild_id] = await self.service.pictures_enabled(guild_id)
        return on

    # ------------------------------------------------------------------ private hands

    @contextlib.asynccontextmanager
    async def hand_turn(self, table_id: int, user_id: int, message_id: int | None = None):
        """A person's click on their live hand message (`message_id`) waits for an edit of that
        message in flight, so the newer state lands last; but never long enough to miss Discord's
        3 seconds. A click elsewhere (My hand, the ping's button, an older hand message) answers
        with a new or another message, which no edit in flight can overwrite: it goes ahead."""
        runtime = self.runtime(table_id)
        live = runtime.hands.get(user_id)
        if live is None or message_id is None or live.message_id != message_id:
            yield
            return
        lock = runtime.hand_locks[user_id]
        try:
            await asyncio.wait_for(lock.acquire(), HAND_WAIT_SECONDS)
        except TimeoutError:
            yield  # the edit is stuck (Discord is slow): answer anyway; `moves` orders the rest
            return
        try:
            yield
        finally:
            lock.release()

    def hand_shown(self, table: Table, user_id: int, interaction: discord.Interaction,
                   message_id: int | None, message: dict[str, Any], picture: pictures.HandPicture | None) -> None:
        """A click's reply showed `table` in a private hand message (`message`, with `picture`, as
        `hand_message` made them): that message is the live one now, edited through this interaction
        (its token is the newest). Any other live hand message of this person at this table is deleted."""
        runtime = self.runtime(table.id)
        old = runtime.hands.get(user_id)
        seconds = self.settings.hand_follow_seconds
        hand = runtime.hands[user_id] = LiveHand(interaction.application_id, interaction.token, message_id,
                                                 table.moves, picture, render.look(message), follow_seconds=seconds)
        hand.retire = asyncio.get_running_loop().call_later(seconds, self._retire_later, runtime, user_id, hand)
        runtime.stale.discard(user_id)
        if old is not None:
            if old.retire is not None:
                old.retire.cancel()
            if old.message_id != message_id and old.fresh:
                asyncio.create_task(self._delete_hand(runtime, user_id, old), name=f"tonk-hand-delete-{table.id}")

    def ask_first(self, table: Table, user_id: int, verb: str, value: str | None) -> None:
        """`user_id` picked a play that waits for their word: their hand asks until they answer,
        pick another, cancel, or the table moves on."""
        if value is not None:
            self.runtime(table.id).pending[user_id] = (table.moves, str(verb), value)

    def pending_pick(self, table_id: int, user_id: int) -> tuple[int, str, str] | None:
        """The pick that waited for `user_id`'s word (it waits no longer)."""
        runtime = self.tables.get(table_id)
        return runtime.pending.pop(user_id, None) if runtime is not None else None

    async def _delete_hand(self, runtime: TableRuntime, user_id: int, hand: LiveHand) -> None:
        """Remove a hand message that a newer one replaced, once any edit of it in flight is over
        (a click that opened the new one did not wait for that edit)."""
        async with runtime.hand_locks[user_id]:
            if hand.gone:
                return
        try:
            await hand.webhook(self.client).delete_message(ORIGINAL)  # type: ignore[arg-type]
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            pass  # gone already, or its token expired: it simply stays as it was

    async def _follow_hands(self, runtime: TableRuntime, table: Table) -> None:
        """Bring every live private hand up to date with `table` (each person's edit in parallel)."""
        if runtime.hands:
            await asyncio.gather(*(self._follow_hand(runtime, table, user_id) for user_id in list(runtime.hands)))

    async def _follow_hand(self, runtime: TableRuntime, table: Table, user_id: int) -> None:
        hand = runtime.hands.get(user_id)
        if hand is None or hand.moves >= table.moves:
            return  # a reply showed this state or a newer one already
        if not hand.fresh:
            del runtime.hands[user_id]  # the next ping's button (or the channel's note) brings the hand back
            runtime.stale.add(user_id)
            return
        seat = table.seat_of(user_id)
        picture = None
        if seat is None or not table.is_open:
            message: dict[str, Any] = render.hand_closed(table.id, left=seat is None and table.is_open)
        elif table.game is None:
            message = render.hand_between(table.id, table.hand_number)
        else:
            # built (and any new picture drawn) before waiting for the hand: a click meanwhile
            # answers with this state or a newer one, and this edit then has nothing to do
            message, picture = await self._hand(table, seat, shown=hand.picture)
        async with runtime.hand_locks[user_id]:
            if runtime.hands.get(user_id) is not hand or hand.moves >= table.moves:
                return
            if "attachments" not in message and hand.picture != picture:
                # the message's picture is not the one this edit keeps: send it after all
                message, picture = await self._hand(table, seat, shown=None)  # type: ignore[arg-type]
            if seat is None or not table.is_open:
                del runtime.hands[user_id]
            hand.moves = table.moves
            look = render.look(message)
            if "attachments" not in message and look == hand.look:
                return  # another player's move changed nothing this hand shows (a draw): no edit
            hand.picture = None  # not known until the edit lands
            hand.look = None
            try:
                await hand.webhook(self.client).edit_message(ORIGINAL, **message)  # type: ignore[arg-type]
            except discord.HTTPException as exc:
                log.info("table %s: a private hand can no longer be edited (%s)", table.id, exc.status)
                hand.gone = True
                if runtime.hands.get(user_id) is hand:
                    del runtime.hands[user_id]
                    if seat is not None and table.is_open:
                        runtime.stale.add(user_id)
            else:
                hand.picture = picture
                hand.look = look

    def _retire_later(self, runtime: TableRuntime, user_id: int, hand: LiveHand) -> None:
        if not self._closing and self.tables.get(runtime.table_id) is runtime:
            asyncio.create_task(self._retire(runtime, user_id, hand), name=f"tonk-hand-retire-{runtime.table_id}")

    async def _retire(self, runtime: TableRuntime, user_id: int, hand: LiveHand) -> None:
        """The hand's token is about to expire (Discord's 15 minutes after the click that lent it):
        while it still works, the message says that it no longer follows the game, with the button
        that brings the live hand back (a new click, a new token). Nothing is tried with it after."""
        async with runtime.hand_locks[user_id]:
            if hand.gone or hand.retired:
                return
            hand.retired = True
            if runtime.hands.get(user_id) is not hand:
                return  # replaced meanwhile: that one follows the game
            del runtime.hands[user_id]
            runtime.stale.add(user_id)
            try:
                await hand.webhook(self.client).edit_message(  # type: ignore[arg-type]
                    ORIGINAL, **render.hand_retired(runtime.table_id))
            except (discord.HTTPException, OSError, aiohttp.ClientError) as exc:
                log.info("table %s: a private hand could not be retired (%s)", runtime.table_id, exc)

    async def _notice_stale(self, runtime: TableRuntime, table: Table) -> None:
        """People seated in the hand in play whose private hand no longer follows the game are told
        in the channel, with My hand: one short note for all of them, once per person and deal. The
        player to act is not: the turn's ping already brings their hand."""
        if not runtime.stale:
            return
        seated = {s.user_id for s in table.seats if s.is_human}
        runtime.stale &= seated
        if not table.in_play or not runtime.stale:
            return
        if runtime.noticed[0] != table.hand_number:
            runtime.noticed = (table.hand_number, set())
        to_act = table.seats[table.to_act].user_id if not table.is_computer_turn else None  # type: ignore[index]
        due = sorted(u for u in runtime.stale if u != to_act and u not in runtime.noticed[1])
        if not due:
            return
        runtime.noticed[1].update(due)
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            await channel.send(render.stale_hands_note(due, table.hand_number), view=self._ping_view(table),
                               allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(u) for u in due]))  # type: ignore[arg-type]
        except discord.HTTPException as exc:
            log.warning("table %s: could not tell players their hands stopped following (%s)", table.id, exc.status)

    # ------------------------------------------------------------------ computer players

    async def _run_computers(self, runtime: TableRuntime) -> None:
        try:
            while not self._closing:
                await asyncio.sleep(self.settings.computer_delay)
                if people_may_slap(await self.service.load(runtime.table_id)):
                    await asyncio.sleep(SLAP_GRACE_SECONDS)
                table = await self.service.computer_step(runtime.table_id, choose=computer_choice)
                if not table.is_computer_turn:
                    return
        except UserError:
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a computer player failed", runtime.table_id)

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
        try:
            waited = 0.0
            for delay, seat, action in offers:
                await asyncio.sleep(max(0.0, delay - waited))
                waited = delay
                table = await self.service.apply(table_id, None, ComputerSlap(seat, window, action))
                if table.slap_window != window:
                    return  # it landed, or the window closed: the race is over
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: a computer player's slap failed", table_id)

    # ------------------------------------------------------------------ turn timer

    def _schedule_timer(self, runtime: TableRuntime, table: Table) -> None:
        key = table.turn_key
        current = runtime.timer
        if current is not None and current[0] == key and not current[1].done():
            return
        if current is not None and current[1] is not asyncio.current_task():
            current[1].cancel()
        runtime.timer = None
        if key is None or table.is_computer_turn:
            return
        runtime.turn_started = (key, time.time())
        task = asyncio.create_task(self._timer(table.id, table.guild_id, key), name=f"tonk-timer-{table.id}")
        runtime.timer = (key, task)

    async def turn_seconds(self, guild_id: int) -> float:
        """The server's turn timer, read once and kept until /tonk-admin settings changes it."""
        seconds = self._turn_seconds.get(guild_id)
        if seconds is None:
            settings = await self.service.guild_settings(guild_id)
            seconds = self._turn_seconds[guild_id] = float(settings.turn_timer_seconds)
        return seconds

    def settings_changed(self, guild_id: int) -> None:
        self._turn_seconds.pop(guild_id, None)
        self._pictures.pop(guild_id, None)

    async def _timer(self, table_id: int, guild_id: int, key: str) -> None:
        """The turn `key`'s time-out (and its warning). It sleeps the whole turn, so it keeps the
        table's ids only, not the `Table` it began with (a stale copy of the game)."""
        try:
            seconds = await self.turn_seconds(guild_id)
            lead = warning_lead(seconds)
            if lead > 0:
                await asyncio.sleep(seconds - lead)
                await self._warn(table_id, key, lead)
                await asyncio.sleep(lead)
            else:
                await asyncio.sleep(seconds)
            await self.service.apply(table_id, None, TimeOut(key))
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: the turn timer failed", table_id)

    async def _warn(self, table_id: int, key: str, left: int) -> None:
        table = await self.service.load(table_id)
        if table.turn_key != key:
            return
        user_id = table.seats[table.to_act].user_id  # type: ignore[index]
        text = (f"<@{user_id}>, ⏰ {plural(left, 'second')} left in your turn: then the bot draws and "
                f"discards your highest card for you.")
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            # a new message, since an edit does not notify; it takes the ping's place
            sent = await channel.send(text, view=self._ping_view(table), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id)]))  # type: ignore[arg-type]
            if await self.service.set_ping(table_id, Ping(sent.id, key)) is None:
                await sent.delete()
                return
            runtime = self.tables.get(table_id)
            if runtime is not None:
                runtime.ping_deadline = (key, await self.deadline(table))
            if table.ping is not None:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(table.ping.message_id).delete()
        except discord.HTTPException:
            log.warning("table %s: could not warn the player to act", table_id)

    # ------------------------------------------------------------------ idle lobbies

    async def _idle(self, runtime: TableRuntime) -> None:
        try:
            while True:
                table = await self.service.load(runtime.table_id)
                if table.status is not Status.LOBBY:
                    return
                wait = table.lobby_since + self.settings.lobby_idle_seconds - time.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                await self.service.apply(runtime.table_id, None, CloseIdle(self.settings.lobby_idle_seconds))
                return
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: closing the idle lobby failed", runtime.table_id)

    # ------------------------------------------------------------------ lifecycle

    async def resume_all(self) -> None:
        """After a start or restart: every open table gets its edits, timers and computers back."""
        ownership = ShardOwnership(self.settings.shard_count, self.settings.shard_ids)
        tables = await self.service.recover(owns=ownership.owns)
        log.info("resuming %d open tables (%s): %s", len(tables), ownership,
                 " ".join(f"{table.id}@{table.guild_id}" for table in tables) or "none")
        for table in tables:
            self.on_events(table, [])

    async def close(self, timeout: float = 5.0) -> None:
        """Let pending edits finish (at most `timeout` seconds), then stop every task."""
        self._closing = True
        syncs = [r.sync for r in self.tables.values() if r.sync is not None and not r.sync.done()]
        if syncs:
            await asyncio.wait(syncs, timeout=timeout)
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
    HandDealt: LiveTables._shows, TimedOut: LiveTables._shows, Played: LiveTables._played,
    ConfirmSet: LiveTables._shows, TurnStarted: LiveTables._turn_started, HandOver: LiveTables._hand_over, TableClosed: LiveTables._closed,
}
"""Every event class the table emits, and what the live runtime does for it: an event class
missing here is a KeyError at its first emission (and tests/test_events.py fails first)."""
