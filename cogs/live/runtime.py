"""What one live table keeps in memory, in one part per concern, and what the parts share.

`TableRuntime` is one table's: the coordinator's tasks (the update worker, the computer players,
the slaps, the idle lobby) and the newest table it was given, beside the state of each part:
`ChannelState` (the channel message, cogs/live/channel.py), `ClockState` (the turn's timer and
ping, cogs/live/clock.py) and `HandsState` (the live private hands and their `LiveHand`s,
cogs/live/hands.py). Each part changes its own state only; the parts import this module, and it
imports none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.config import Settings
from bot.service import TableService
from bot.table import Table
from engine import Card, TonkError

from cogs import pictures

if TYPE_CHECKING:
    from bot.server import ServerService

log = logging.getLogger("cogs.live")


def start_task(holder: object, attribute: str, coro: Awaitable[None], name: str) -> None:
    """Run `coro` as `holder`'s task named by `attribute` unless one is running already."""
    task = getattr(holder, attribute)
    if task is None or task.done():
        setattr(holder, attribute, asyncio.create_task(coro, name=name))  # type: ignore[arg-type]
    else:
        coro.close()  # type: ignore[attr-defined]


class Reachability:
    """Is Discord reachable (the bot's gateway connected)? While it is not, nobody can click, so
    the turn timers stand still: each timer's deadline moves on by the time Discord was away since
    the turn began (`away_since`), and the table shows the later deadline when Discord is back."""

    def __init__(self) -> None:
        self.down_at: float | None = None
        self.spans: list[tuple[float, float]] = []
        """The past outages (Unix times), kept for a day at most."""
        self.changed = asyncio.Event()

    @property
    def down(self) -> bool:
        return self.down_at is not None

    def went_down(self, at: float | None = None) -> None:
        """Discord is out of reach, since `at` (Unix time; now by default)."""
        if self.down_at is None:
            self.down_at = time.time() if at is None else at
            self.changed.set()

    def came_back(self) -> float:
        """Discord is back: how many seconds it was away (0: it was not)."""
        if self.down_at is None:
            return 0.0
        now = time.time()
        self.spans = [span for span in self.spans if span[1] > now - 86400] + [(self.down_at, now)]
        away, self.down_at = now - self.down_at, None
        self.changed.set()
        return away

    def intervals(self) -> list[tuple[float, float]]:
        """The outages (Unix times), the one in progress included (until now)."""
        return self.spans + ([(self.down_at, time.time())] if self.down_at is not None else [])

    def away_since(self, since: float) -> float:
        """Seconds Discord was away after `since` (Unix time), the outage in progress included."""
        return sum(max(0.0, end - max(start, since)) for start, end in self.intervals())


ROUND_GRACE = 5.0
"""A table's round of updates (channel, ping, hands) still in flight after this many seconds holds
its clock too: discord.py tries a 500, 502 or 504 again itself for up to half a minute before the
round fails, and meanwhile the players see nothing move."""


class TableReach(Reachability):
    """Does Discord's REST take one table's updates? From a round that failed (counted from when
    that round began) until one lands, or while a round has been in flight for `ROUND_GRACE`, its
    players cannot see the game move, so its clock stands still."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight: float | None = None
        """When (Unix time) the round in flight began."""

    @property
    def down(self) -> bool:
        return self.down_at is not None or self._held() is not None

    def _held(self) -> tuple[float, float] | None:
        """The span a round in flight for longer than `ROUND_GRACE` holds the clock (to now)."""
        now = time.time()
        if self.in_flight is None or self.down_at is not None or now - self.in_flight <= ROUND_GRACE:
            return None
        return (self.in_flight + ROUND_GRACE, now)

    def intervals(self) -> list[tuple[float, float]]:
        held = self._held()
        return super().intervals() + ([held] if held is not None else [])

    def round_began(self) -> None:
        self.in_flight = time.time()

    def round_failed(self) -> None:
        """A step of the round failed: the clock has stood still since the round began."""
        self.went_down(self.in_flight)

    def round_ended(self, landed: bool) -> float:
        """The round is over (`landed`: Discord took all of it): how long the clock stood still."""
        held = self._held()
        self.in_flight = None
        if held is not None:
            self.spans.append(held)
            self.changed.set()
        away = self.came_back() if landed else 0.0
        return away + (held[1] - held[0] if held is not None else 0.0)


@dataclass(eq=False)
class ChannelState:
    """What the table's channel message shows, and whether the channel lets the bot in."""

    last_edit: float = 0.0
    shown: int | None = None
    """The table's `moves` that its channel message shows."""
    shown_turn: str | None = None
    """The turn (`Table.turn_key`) its channel message shows."""
    picture: pictures.TablePicture | None = None
    """The picture the channel message carries (None: none, or not known while an edit is in flight)."""
    edits: int = 0
    """Edits of the channel message begun: only the newest one's picture is known to be shown."""
    replying: int = 0
    """Clicks on this table being answered: the channel edit waits for their replies."""
    replied: asyncio.Event = field(default_factory=asyncio.Event)
    blocked: list[str] | None = None
    """The permissions the channel refused the bot (a message edit or a ping failed): the table's
    message cannot follow the game until they are back. None: nothing refused."""
    blocked_told: set[int] = field(default_factory=set)
    """Who was told at a click that the table is stuck (once each while it is)."""
    host_told: bool = False
    reposted: bool = False
    """The table's message was deleted and posted again (it is posted again once, not forever)."""
    recover: asyncio.Task | None = None
    """Tries the channel again every `PERMISSION_RETRY_SECONDS` while it refuses the bot."""

    def edit_begun(self) -> int:
        """An edit of the channel message begins: until it lands, what picture it shows is not known."""
        self.edits += 1
        self.picture = None
        return self.edits

    def edit_landed(self, edit: int, picture: pictures.TablePicture | None) -> None:
        """Edit number `edit` reached Discord showing `picture`; a later edit begun meanwhile decides."""
        if edit == self.edits:
            self.picture = picture


@dataclass(eq=False)
class ClockState:
    """The turn in play's timer, and what its ping shows."""

    timer: tuple[str, asyncio.Task] | None = None
    turn_started: tuple[str, float] | None = None
    """The turn whose timer runs, and when it began (Unix time)."""
    ping_deadline: tuple[str, float | None] | None = None
    """The turn and the deadline the turn's ping (or its warning) shows, when this process sent it."""


HAND_TOKEN_SECONDS = 14 * 60
"""How long the bot edits a private hand through one interaction: Discord's tokens last 15 minutes.
Then the hand retires: its message says it no longer follows the game (the settings'
`hand_follow_seconds`, this by default)."""
ORIGINAL = "@original"
"""The message id that names an interaction's response in its webhook's routes."""


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
    lent_at: float = field(default_factory=time.time)
    """When the click lent the token (Unix time): it is kept with it for the next start."""
    gone: bool = False
    """Discord refused an edit of it (deleted, or its token expired): nothing more is tried."""
    retired: bool = False
    """Its token is about to expire: the message says it no longer follows the game, and is left."""
    retire: asyncio.TimerHandle | None = None
    """When it retires (`follow_seconds` after the click that lent the token)."""
    follow_seconds: float = HAND_TOKEN_SECONDS
    followup: bool = False
    """The message is a follow-up of its interaction (a deferred click), edited by its id."""

    @property
    def target(self) -> str | int:
        """How the interaction's webhook names this message: its response, or a follow-up by id."""
        return self.message_id if self.followup and self.message_id is not None else ORIGINAL

    @property
    def fresh(self) -> bool:
        return not self.retired and not self.gone and time.monotonic() - self.since < self.follow_seconds

    def webhook(self, client: discord.Client) -> discord.Webhook:
        """The interaction's webhook, whose `@original` message is this hand (as
        `Interaction.edit_original_response` addresses it)."""
        return discord.Webhook.partial(self.application_id, self.token, client=client)


@dataclass(eq=False)
class HandsState:
    """Each seated person's live private hand message at this table, and what it marks."""

    live: dict[int, LiveHand] = field(default_factory=dict)
    """Each person's live private hand message, by user id."""
    locks: defaultdict[int, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    """One at a time per person: a click's reply and the edit that follows the table."""
    drawn: dict[int, tuple[str, Card]] = field(default_factory=dict)
    """The card each person drew this turn (by turn key), marked in their hand until the turn ends."""
    pending: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    """Each person's pick that waits for their word: (the table's moves, verb, value)."""
    stale: set[int] = field(default_factory=set)
    """People whose private hand no longer follows the game (retired or refused), until they open it again."""
    noticed: tuple[int, set[int]] = (0, set())
    """The deal (hand number) and who was told in the channel during it that their hand stopped following."""

    @property
    def following(self) -> bool:
        """Does a hand message still follow the game, or is someone to be told that theirs stopped?"""
        return bool(self.stale) or any(hand.fresh for hand in self.live.values())

    def stop(self) -> None:
        for hand in self.live.values():
            if hand.retire is not None:
                hand.retire.cancel()


@dataclass(eq=False)
class TableRuntime:
    """What one live table needs in memory: the coordinator's tasks and each part's state."""

    table_id: int
    channel: ChannelState = field(default_factory=ChannelState)
    clock: ClockState = field(default_factory=ClockState)
    hands: HandsState = field(default_factory=HandsState)
    newest: Table | None = None
    """The newest table the service published: the channel shows it (or the service's newer save),
    also once the table closed and its rows are gone (/tonk-admin forget)."""
    dirty: bool = False
    """A change arrived that the channel, the ping and the live hands do not follow yet."""
    dirty_at: float = 0.0
    """When (monotonic) the oldest change not followed yet arrived."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at each change: a round held for the turn's end (`ChannelFollower.hold`) wakes."""
    failures: int = 0
    """Rounds in a row that Discord failed (a 5xx or no answer): the next try waits longer."""
    rest: TableReach = field(default_factory=TableReach)
    """Does Discord's REST take this table's updates? From a failed round until one lands, its
    players cannot see the game move, so its clock stands still (`LivePart.pause`)."""
    sync: asyncio.Task | None = None
    computer: asyncio.Task | None = None
    idle: asyncio.Task | None = None
    slaps: tuple[int, asyncio.Task] | None = None
    """House rule (slap): the computer seats' slaps of the open window (by its discard), after
    their reaction times."""

    @property
    def idle_now(self) -> bool:
        tasks = (self.sync, self.computer, self.idle, self.clock.timer[1] if self.clock.timer else None,
                 self.slaps[1] if self.slaps else None, self.channel.recover)
        return (self.channel.replying == 0 and not self.hands.following
                and all(t is None or t.done() for t in tasks))

    def start(self, attribute: str, coro: Awaitable[None]) -> None:
        """Run `coro` as this table's task of that kind unless one is running already."""
        start_task(self, attribute, coro, f"tonk-{attribute}-{self.table_id}")

    def cancel(self) -> None:
        """Stop the table's computer, idle, slap, timer and retry tasks (not the one running this)."""
        running = asyncio.current_task()
        tasks = [self.computer, self.idle, self.clock.timer[1] if self.clock.timer else None,
                 self.slaps[1] if self.slaps else None, self.channel.recover]
        for task in tasks:
            if task is not None and task is not running:
                task.cancel()
        self.clock.timer = None
        self.slaps = None
        self.hands.stop()


class Paused:
    """What stops one table's clock: Discord's gateway away (every table's) or Discord's REST
    refusing this table's updates (`TableRuntime.rest`, its own). Either way its players cannot see
    the game move, so its turn timer and idle lobby stand still; time away counts once when both
    happen at once."""

    def __init__(self, *sources: Reachability) -> None:
        self.sources = sources

    @property
    def down(self) -> bool:
        return any(source.down for source in self.sources)

    def away_since(self, since: float) -> float:
        """Seconds after `since` (Unix time) that any source was away, overlaps counted once."""
        away, reach = 0.0, since
        for start, end in sorted(span for source in self.sources for span in source.intervals()):
            start = max(start, reach)
            if end > start:
                away += end - start
                reach = end
        return away

    async def sleep_until(self, when: Callable[[], float]) -> None:
        """Sleep until the Unix time `when()` (asked again at every change), never while a source is away."""
        while True:
            for source in self.sources:
                source.changed.clear()
            left = when() - time.time()
            if not self.down and left <= 0:
                return
            waits = [asyncio.ensure_future(source.changed.wait()) for source in self.sources]
            try:
                await asyncio.wait(waits, timeout=None if self.down else left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()


class ServerLooks:
    """The server settings the live runtime reads at every state (the turn timer, pictures on or
    off): read once per server and kept until /tonk-admin settings changes them."""

    def __init__(self, server: "ServerService | None"):
        self.server = server
        self._turn_seconds: dict[int, float] = {}
        self._pictures: dict[int, bool] = {}

    async def turn_seconds(self, guild_id: int) -> float:
        seconds = self._turn_seconds.get(guild_id)
        if seconds is None:
            settings = await self.server.guild_settings(guild_id)  # type: ignore[union-attr]
            seconds = self._turn_seconds[guild_id] = float(settings.turn_timer_seconds)
        return seconds

    async def pictures_on(self, guild_id: int) -> bool:
        on = self._pictures.get(guild_id)
        if on is None:
            on = self._pictures[guild_id] = await self.server.pictures_enabled(guild_id)  # type: ignore[union-attr]
        return on

    def changed(self, guild_id: int) -> None:
        self._turn_seconds.pop(guild_id, None)
        self._pictures.pop(guild_id, None)


class Runtimes(dict[int, TableRuntime]):
    """Every live table's runtime, by table id (the coordinator creates and drops them)."""

    def of(self, table_id: int) -> TableRuntime:
        runtime = self.get(table_id)
        if runtime is None:
            runtime = self[table_id] = TableRuntime(table_id)
        return runtime


@dataclass(eq=False)
class LivePart:
    """What each part of the live runtime works with (the parts are dataclasses that add theirs)."""

    client: discord.Client
    service: TableService
    settings: Settings
    looks: ServerLooks
    tables: Runtimes
    reach: Reachability
    closing: Callable[[], bool]
    """Is the bot stopping? (Then no new work starts.)"""

    def pause(self, table_id: int) -> Paused:
        """What stops this table's clock: the gateway away, or Discord's REST refusing its updates."""
        runtime = self.tables.get(table_id)
        return Paused(self.reach, runtime.rest) if runtime is not None else Paused(self.reach)


@contextlib.contextmanager
def background(table_id: int, what: str):
    """The one place where the bot's own work at a table (computer players, slaps, turn timers,
    idle lobbies) meets trouble: a refusal (the table closed or moved on meanwhile) ends it
    quietly, Discord out of reach is a warning, anything else is logged with its traceback.
    Cancellation passes through."""
    try:
        yield
    except TonkError:  # UserError is one
        pass
    except (OSError, aiohttp.ClientError) as exc:
        log.warning("table %s: %s: could not reach Discord (%s)", table_id, what, exc)
    except Exception:
        log.exception("table %s: %s failed", table_id, what)

