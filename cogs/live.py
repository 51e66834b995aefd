"""Keeping each table's channel message alive: edits, turn mentions, computer turns, timers.

Discord limits message edits per channel, and computer players can play faster than
people read, so every table message is edited at most once per `table_edit_interval`
(later changes fold into the next edit, which always shows the newest state). Computer
players wait `computer_delay` before each play. One timer task per table watches the
turn in play; it asks the service to time the turn out, which the service refuses if
the turn has moved on, so a late timer can never play twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.service import TableView, computer_choice
from bot.store import get_guild_settings

from cogs import render

if TYPE_CHECKING:  # pragma: no cover
    from bot.client import TonkBot

log = logging.getLogger(__name__)
WARNING_SHARE = 0.25  # warn when a quarter of the turn time is left (at least 5 s before)


def _start_once(tasks: dict[int, asyncio.Task], table_id: int, run, name: str) -> None:
    """Start `run(table_id)` for a table unless its task of this kind is still running."""
    task = tasks.get(table_id)
    if task is None or task.done():
        tasks[table_id] = asyncio.create_task(run(table_id), name=f"tonk-{name}-{table_id}")


class LiveTables:
    def __init__(self, bot: "TonkBot"):
        self.bot = bot
        self.service = bot.service
        self.settings = bot.settings
        self._last_edit: dict[int, float] = {}
        self._shown_version: dict[int, int] = {}
        self._dirty: set[int] = set()
        self._sync_tasks: dict[int, asyncio.Task] = {}
        self._computer_tasks: dict[int, asyncio.Task] = {}
        self._timer_tasks: dict[int, tuple[str, asyncio.Task]] = {}
        self._idle_tasks: dict[int, asyncio.Task] = {}
        self._mentioned: dict[int, str] = {}
        self._turn_seconds: dict[int, float] = {}
        self._mention_messages: dict[int, discord.PartialMessage] = {}
        self._closing = False

    # ------------------------------------------------------------------ after every change

    async def changed(self, view: TableView, *, edited_now: bool = False) -> None:
        """React to a new state of a table: message edit, mention, computer turn, timer."""
        if edited_now:
            self._last_edit[view.id] = time.monotonic()
            self._shown_version[view.id] = view.table.version
        self.request_sync(view.id)
        if view.table.status == "closed":
            self._cancel_all(view.id)
            return
        if view.table.status == "lobby":
            _start_once(self._idle_tasks, view.id, self._idle, "idle")
        if view.is_computer_turn():
            _start_once(self._computer_tasks, view.id, self._run_computers, "computer")
        await self._schedule_timer(view)

    # ------------------------------------------------------------------ the table message and mentions

    def request_sync(self, table_id: int) -> None:
        """Bring the channel up to date with the table: one worker per table, newest state wins.

        A change that arrives while an edit is in flight marks the table dirty again, so the
        worker goes round once more; changes that arrive while it waits fold into one edit.
        """
        self._dirty.add(table_id)
        _start_once(self._sync_tasks, table_id, self._sync, "sync")

    async def _sync(self, table_id: int) -> None:
        while table_id in self._dirty and not self._closing:
            wait = self._last_edit.get(table_id, 0.0) + self.settings.table_edit_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(table_id)
            try:
                view = await self.service.load(table_id)
                await self._edit(view)
                await self._mention_turn(view)
            except asyncio.CancelledError:
                raise
            except UserError:
                return
            except Exception:
                log.exception("table %s: could not update the channel", table_id)

    async def _edit(self, view: TableView) -> None:
        if view.table.message_id is None or self._shown_version.get(view.id) == view.table.version:
            return
        self._last_edit[view.id] = time.monotonic()
        self._shown_version[view.id] = view.table.version
        channel = self.bot.get_partial_messageable(view.table.channel_id)
        message = channel.get_partial_message(view.table.message_id)
        try:
            await message.edit(**render.table_message(view))
        except discord.NotFound:
            log.warning("table %s: its message is gone", view.id)

    async def _mention_turn(self, view: TableView) -> None:
        """One short mention when a person's turn begins; the previous one is removed."""
        key = view.turn_key()
        game = view.game
        if key is None or game is None or view.is_computer_turn():
            if key is None:
                await self._clear_mention(view.id)
            return
        if self._mentioned.get(view.id) == key:
            return
        self._mentioned[view.id] = key
        await self._clear_mention(view.id)
        user_id = view.seats[game.turn]["user_id"]
        channel = self.bot.get_partial_messageable(view.table.channel_id)
        message = await channel.send(
            f"<@{user_id}>, your turn at the Tonk table (press **My hand**).",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )
        self._mention_messages[view.id] = channel.get_partial_message(message.id)

    async def _clear_mention(self, table_id: int) -> None:
        message = self._mention_messages.pop(table_id, None)
        if message is not None:
            try:
                await message.delete()
            except discord.HTTPException:
                pass

    # ------------------------------------------------------------------ computer players


    async def _run_computers(self, table_id: int) -> None:
        try:
            while not self._closing:
                await asyncio.sleep(self.settings.computer_delay)
                view = await self.service.computer_step(table_id, choose=computer_choice)
                if view is None:
                    return
                self.request_sync(table_id)
                await self._schedule_timer(view)
                if not view.is_computer_turn():
                    return
        except UserError:
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a computer player failed", table_id)

    # ------------------------------------------------------------------ turn timer

    async def _schedule_timer(self, view: TableView) -> None:
        key = view.turn_key()
        current = self._timer_tasks.get(view.id)
        if current is not None and current[0] == key and not current[1].done():
            return
        if current is not None:
            current[1].cancel()
            self._timer_tasks.pop(view.id, None)
        if key is None or view.is_computer_turn():
            return
        seconds = await self.turn_seconds(view.table.guild_id)
        task = asyncio.create_task(self._timer(view.id, key, seconds), name=f"tonk-timer-{view.id}")
        self._timer_tasks[view.id] = (key, task)

    async def turn_seconds(self, guild_id: int) -> float:
        """The server's turn timer, read once and kept until /tonk settings changes it."""
        seconds = self._turn_seconds.get(guild_id)
        if seconds is None:
            async with self.service.db.sessions() as session:
                settings = await get_guild_settings(session, guild_id=guild_id)
            seconds = self._turn_seconds[guild_id] = float(settings.turn_timer_seconds)
        return seconds

    def settings_changed(self, guild_id: int) -> None:
        self._turn_seconds.pop(guild_id, None)

    async def _timer(self, table_id: int, key: str, seconds: float) -> None:
        warn_at = max(0.0, seconds - max(5.0, seconds * WARNING_SHARE))
        try:
            if warn_at > 0:
                await asyncio.sleep(warn_at)
                await self._warn(table_id, key, seconds - warn_at)
                await asyncio.sleep(seconds - warn_at)
            else:
                await asyncio.sleep(seconds)
            view = await self.service.time_out(table_id, key)
            if view is None:
                return
            self._timer_tasks.pop(table_id, None)
            await self.changed(view)
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: the turn timer failed", table_id)

    async def _warn(self, table_id: int, key: str, left: float) -> None:
        view = await self.service.load(table_id)
        if view.turn_key() != key or view.game is None:
            return
        message = self._mention_messages.get(table_id)
        user_id = view.seats[view.game.turn]["user_id"]
        text = (f"<@{user_id}>, ⏰ {int(left)} seconds left in your turn: then the bot draws and "
                f"discards your highest card for you.")
        try:
            if message is not None:
                await message.edit(content=text)
            else:
                channel = self.bot.get_partial_messageable(view.table.channel_id)
                sent = await channel.send(text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))
                self._mention_messages[table_id] = channel.get_partial_message(sent.id)
        except discord.HTTPException:
            log.warning("table %s: could not warn the player to act", table_id)

    # ------------------------------------------------------------------ idle lobbies


    async def _idle(self, table_id: int) -> None:
        try:
            while True:
                view = await self.service.load(table_id)
                if view.table.status != "lobby":
                    return
                since = view.book.get("lobby_since", time.time())
                wait = since + self.settings.lobby_idle_seconds - time.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                closed = await self.service.close_idle_lobby(table_id, self.settings.lobby_idle_seconds)
                if closed is not None:
                    self._idle_tasks.pop(table_id, None)
                    await self.changed(closed)
                return
        except asyncio.CancelledError:
            raise
        except UserError:
            return
        except Exception:
            log.exception("table %s: closing the idle lobby failed", table_id)

    # ------------------------------------------------------------------ lifecycle

    async def resume_all(self) -> None:
        """After a start or restart: every open table gets its edits, timers and computers back."""
        views = await self.service.recover(owns=self.bot.ownership.owns)
        log.info("resuming %d open tables (%s): %s", len(views), self.bot.ownership,
                 " ".join(f"{view.id}@{view.table.guild_id}" for view in views) or "none")
        for view in views:
            await self.changed(view)

    def _cancel_all(self, table_id: int) -> None:
        for tasks in (self._computer_tasks, self._idle_tasks):
            task = tasks.pop(table_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        timer = self._timer_tasks.pop(table_id, None)
        if timer is not None and timer[1] is not asyncio.current_task():
            timer[1].cancel()

    async def close(self) -> None:
        self._closing = True
        tasks = [t for t in self._sync_tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        for table_id in list(self._computer_tasks) + list(self._idle_tasks) + list(self._timer_tasks):
            self._cancel_all(table_id)
