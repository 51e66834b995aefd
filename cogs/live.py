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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

import aiohttp
import discord

from bot.config import Settings
from bot.errors import UserError
from bot.service import TableService, computer_choice
from bot.table import Event, Ping, Status, Table, TableClosed

from cogs import render

log = logging.getLogger(__name__)
WARNING_SHARE = 0.25  # warn when a quarter of the turn time is left (at least 5 s before)


@dataclass(eq=False)
class TableRuntime:
    """What one live table needs in memory: its tasks and what its message shows."""

    table_id: int
    last_edit: float = 0.0
    shown: int | None = None
    """The table's `moves` that its channel message shows."""
    dirty: bool = False
    sync: asyncio.Task | None = None
    computer: asyncio.Task | None = None
    idle: asyncio.Task | None = None
    timer: tuple[str, asyncio.Task] | None = None
    replying: int = 0
    """Clicks on this table being answered: the channel edit waits for their replies."""
    replied: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def idle_now(self) -> bool:
        tasks = (self.sync, self.computer, self.idle, self.timer[1] if self.timer else None)
        return self.replying == 0 and all(t is None or t.done() for t in tasks)

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
        tasks = [self.computer, self.idle, self.timer[1] if self.timer else None]
        for task in tasks:
            if task is not None and task is not running:
                task.cancel()
        self.timer = None


class LiveTables:
    def __init__(self, client: discord.Client, service: TableService, settings: Settings):
        self.client = client
        self.service = service
        self.settings = settings
        self.tables: dict[int, TableRuntime] = {}
        self._turn_seconds: dict[int, float] = {}
        self._closing = False

    def runtime(self, table_id: int) -> TableRuntime:
        runtime = self.tables.get(table_id)
        if runtime is None:
            runtime = self.tables[table_id] = TableRuntime(table_id)
        return runtime

    # ------------------------------------------------------------------ reacting to the service

    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: a table changed (or, with no events, was found after a restart)."""
        if self._closing:
            return
        runtime = self.runtime(table.id)
        self.request_sync(table.id)
        if any(isinstance(e, TableClosed) for e in events) or not table.is_open:
            runtime.cancel()
            return
        if table.status is Status.LOBBY:
            runtime.start("idle", self._idle(runtime))
        if table.is_computer_turn:
            runtime.start("computer", self._run_computers(runtime))
        self._schedule_timer(runtime, table)

    def shown(self, table: Table) -> None:
        """A click's reply is showing `table` on the channel message itself: no edit needed for it."""
        runtime = self.tables.get(table.id)
        if runtime is not None:
            runtime.shown = table.moves
            runtime.last_edit = time.monotonic()

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
                table = await self.service.load(runtime.table_id)
                await self._edit(runtime, table)
                await self._ping(table)
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
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(table.message_id)
        try:
            await message.edit(**render.table_message(table.public()))
        except discord.NotFound:
            log.warning("table %s: its message is gone", table.id)

    async def _ping(self, table: Table) -> None:
        """One short mention when a person's turn begins; the previous one is removed."""
        key = table.turn_key
        wanted = key is not None and not table.is_computer_turn
        old = table.ping
        if wanted and old is not None and old.turn == key:
            return
        if old is None and not wanted:
            return
        channel = self.client.get_partial_messageable(table.channel_id)
        if old is not None:
            try:
                await channel.get_partial_message(old.message_id).delete()
            except discord.HTTPException:
                pass
        ping = None
        if wanted:
            user_id = table.seats[table.to_act].user_id  # type: ignore[index]
            message = await channel.send(
                f"<@{user_id}>, your turn at the Tonk table (press **My hand**).",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),  # type: ignore[arg-type]
            )
            ping = Ping(message.id, key)  # type: ignore[arg-type]
        if table.is_open and await self.service.set_ping(table.id, ping) is None and ping is not None:
            # the table closed meanwhile: the new ping must not outlive it
            await channel.get_partial_message(ping.message_id).delete()

    # ------------------------------------------------------------------ computer players

    async def _run_computers(self, runtime: TableRuntime) -> None:
        try:
            while not self._closing:
                await asyncio.sleep(self.settings.computer_delay)
                table = await self.service.computer_step(runtime.table_id, choose=computer_choice)
                if not table.is_computer_turn:
                    return
        except UserError:
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a computer player failed", runtime.table_id)

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
        task = asyncio.create_task(self._timer(table, key), name=f"tonk-timer-{table.id}")
        runtime.timer = (key, task)

    async def turn_seconds(self, guild_id: int) -> float:
        """The server's turn timer, read once and kept until /tonk settings changes it."""
        seconds = self._turn_seconds.get(guild_id)
        if seconds is None:
            settings = await self.service.guild_settings(guild_id)
            seconds = self._turn_seconds[guild_id] = float(settings.turn_timer_seconds)
        return seconds

    def settings_changed(self, guild_id: int) -> None:
        self._turn_seconds.pop(guild_id, None)

    async def _timer(self, table: Table, key: str) -> None:
        try:
            seconds = await self.turn_seconds(table.guild_id)
            warn_at = max(0.0, seconds - max(5.0, seconds * WARNING_SHARE))
            if warn_at > 0:
                await asyncio.sleep(warn_at)
                await self._warn(table.id, key, seconds - warn_at)
                await asyncio.sleep(seconds - warn_at)
            else:
                await asyncio.sleep(seconds)
            await self.service.time_out(table.id, key)
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: the turn timer failed", table.id)

    async def _warn(self, table_id: int, key: str, left: float) -> None:
        table = await self.service.load(table_id)
        if table.turn_key != key:
            return
        user_id = table.seats[table.to_act].user_id  # type: ignore[index]
        text = (f"<@{user_id}>, ⏰ {int(left)} seconds left in your turn: then the bot draws and "
                f"discards your highest card for you.")
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            if table.ping is not None and table.ping.turn == key:
                await channel.get_partial_message(table.ping.message_id).edit(content=text)
            else:
                sent = await channel.send(text, allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id)]))  # type: ignore[arg-type]
                if await self.service.set_ping(table_id, Ping(sent.id, key)) is None:
                    await sent.delete()
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
                await self.service.close_idle_lobby(runtime.table_id, self.settings.lobby_idle_seconds)
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
        for table in await self.service.recover():
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

