"""The table's channel message follows the game.

Discord limits message edits per channel, and computer players can play faster than people
read, so a table message is edited at most once per `table_edit_interval` (later changes fold
into the next edit, which always shows the newest state), and never while a click on the table is
being answered (the reply comes first, and may itself be the edit). The channel's picture shows
the seats, the spreads and the showdown (whose turn it is, the cards in each hand, the stock and
the discard are in the text), so a draw or a discard edits the text and keeps the file.

A channel that refuses the bot a permission (an edit or a ping fails with 403) makes the table
stuck: the host is told once by direct message, each player at their next click, and the channel
is tried again every `PERMISSION_RETRY_SECONDS` until it works.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.table import Table

from cogs import pictures, render
from cogs.common import person_lang, server_lang
from cogs.live.clock import TurnClock
from cogs.live.runtime import LivePart, TableRuntime, start_task

log = logging.getLogger("cogs.live")
MID_TURN_HOLD = 2.0
"""A change within the turn the channel message shows (a draw, a spread, a hit) waits this long at
most for the turn's end, so a turn's plays land in one edit (a draw and its discard, a few seconds
apart, were two): the message is never more than this behind, and the turn's end shows at once."""
PERMISSION_RETRY_SECONDS = 10.0
"""How often a table whose channel refused the bot a permission tries again (one request)."""


@dataclass(eq=False)
class ChannelFollower(LivePart):
    """Each table's channel message (`ChannelState`): what it shows, when it may be edited, and
    whether the channel lets the bot in."""

    clock: TurnClock
    resync: Callable[[int], None]
    """Asks for the table to be brought up to date again, whatever its message shows."""

    async def table_message(self, table: Table) -> tuple[dict[str, Any], pictures.TablePicture | None]:
        """The channel message of `table`, with the turn's deadline and (unless the server turned
        them off) its picture, and the picture it shows once sent. The picture the channel message
        carries already is kept, not drawn and uploaded again."""
        public = table.public()
        on = await self.looks.pictures_on(table.guild_id)
        runtime = self.tables.get(table.id)
        lang = server_lang(table.guild_id)
        message = render.table_message(public, deadline=await self.clock.deadline(table), picture=on,
                                       paused=self.clock.paused(table),
                                       shown=runtime.channel.picture if runtime is not None else None,
                                       lang=lang)
        return message, render.channel_picture(public, lang) if on else None

    async def ready(self, runtime: TableRuntime) -> None:
        """Wait until the channel message may be edited: `table_edit_interval` after the last edit,
        and no click on the table being answered."""
        channel = runtime.channel
        wait = channel.last_edit + self.settings.table_edit_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        while channel.replying and not self.closing():
            channel.replied.clear()
            await channel.replied.wait()

    async def hold(self, runtime: TableRuntime, now: Callable[[], Table | None]) -> None:
        """Hold a round whose change stays within the turn the message shows (`MID_TURN_HOLD`)
        until the turn ends or the hold's time is up; a computer's turn, or any other change, goes at once."""
        channel = runtime.channel
        until = runtime.dirty_at + MID_TURN_HOLD
        while not self.closing():
            table = now()
            if (table is None or channel.shown is None or channel.shown == table.moves or channel.shown_turn is None
                    or table.is_computer_turn or table.turn_key != channel.shown_turn or channel.replying):
                return
            left = until - time.monotonic()
            if left <= 0:
                return
            runtime.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(runtime.changed.wait(), left)

    async def edit(self, runtime: TableRuntime, table: Table) -> None:
        """Show `table` in its channel message, unless the message shows it already."""
        channel = runtime.channel
        if table.message_id is None or channel.shown == table.moves:
            return
        channel.last_edit = time.monotonic()
        channel.shown = table.moves
        channel.shown_turn = table.turn_key
        content, picture = await self.table_message(table)
        edit = channel.edit_begun()
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(table.message_id)
        try:
            await message.edit(**content)
        except discord.NotFound as exc:
            if exc.code != 10008 or channel.reposted:  # the channel is gone, or the table was posted again already
                log.warning("table %s: its message is gone", table.id)
                return
            await self._post_again(runtime, table, content, edit, picture)
        else:
            channel.edit_landed(edit, picture)

    async def _post_again(self, runtime: TableRuntime, table: Table, content: dict[str, Any], edit: int,
                          picture: pictures.TablePicture | None) -> None:
        """Someone deleted the table's message: post the table again, once (a message deleted again
        is left deleted: the players still play from their private hands)."""
        runtime.channel.reposted = True
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            sent = await channel.send(**render.as_new(content))
        except discord.HTTPException as exc:
            log.warning("table %s: its message was deleted and could not be posted again (%s)", table.id, exc)
            return
        saved = await self.service.set_message(table.id, sent.id)
        if saved is not None and (runtime.newest is None or saved.version >= runtime.newest.version):
            runtime.newest = saved
        runtime.channel.edit_landed(edit, picture)
        log.info("table %s: its message was deleted: the table is posted again", table.id)

    def forget_shown(self, runtime: TableRuntime) -> None:
        """What the message shows is not known: the next edit sends it whole, picture and all."""
        runtime.channel.shown = None
        runtime.channel.shown_turn = None
        runtime.channel.edit_begun()

    # ------------------------------------------------------------------ a click's reply

    def shown(self, table: Table) -> int | None:
        """A click's reply is showing `table` on the channel message itself: no edit needed for it.
        The edit's number, for `picture_shown` once the reply landed."""
        runtime = self.tables.get(table.id)
        if runtime is None:
            return None
        runtime.channel.shown = table.moves
        runtime.channel.shown_turn = table.turn_key
        runtime.channel.last_edit = time.monotonic()
        return runtime.channel.edit_begun()

    def picture_shown(self, table_id: int, edit: int | None, picture: pictures.TablePicture | None) -> None:
        """The reply numbered `edit` (from `shown`) landed, and the channel message carries `picture`."""
        runtime = self.tables.get(table_id)
        if runtime is not None and edit is not None:
            runtime.channel.edit_landed(edit, picture)

    @contextlib.asynccontextmanager
    async def replying(self, table_id: int):
        """While a click on the table is answered, the channel's edit waits: the reply comes first
        (it may itself be the edit), and Discord sees the answer to the click as soon as it can."""
        runtime = self.tables.of(table_id)
        runtime.channel.replying += 1
        try:
            yield
        finally:
            runtime.channel.replying -= 1
            if runtime.channel.replying == 0:
                runtime.channel.replied.set()
                if runtime.idle_now and self.tables.get(table_id) is runtime:
                    del self.tables[table_id]  # nothing runs for it: keep no memory of it

    # ------------------------------------------------------------------ a channel that refuses the bot

    async def refused(self, runtime: TableRuntime, table: Table | None, exc: discord.Forbidden) -> None:
        """Discord refused an edit of the table's message or a ping for a missing permission: the
        table is stuck until someone gives it back. The players are told at their next click (the
        interaction's reply needs no permission in the channel), the host once by direct message,
        and the channel is tried again every `PERMISSION_RETRY_SECONDS` until it works."""
        channel = runtime.channel
        method = getattr(getattr(exc, "response", None), "method", "")
        missing = (["View Channel"] if exc.code == 50001 else ["Send Messages"] if method == "POST"
                   else ["Attach Files"])
        if channel.blocked is None:
            log.warning("table %s: the channel refuses the bot (%s: %s missing): the players are told at their "
                        "next click", runtime.table_id, exc.code, ", ".join(missing))
        channel.blocked = missing
        channel.shown = None  # the next try edits the message whatever it shows
        if not channel.host_told and table is not None:
            channel.host_told = True
            try:
                dm = await self.client.create_dm(discord.Object(table.host_user_id))  # type: ignore[arg-type]
                await dm.send(render.stuck_text(missing, table.channel_id, host=True,
                                                 lang=person_lang(table.host_user_id)))
            except (discord.HTTPException, OSError, aiohttp.ClientError) as error:
                log.info("table %s: could not tell the host by direct message (%s)", runtime.table_id, error)
        start_task(channel, "recover", self._try_again(runtime), f"tonk-recover-{runtime.table_id}")

    async def _try_again(self, runtime: TableRuntime) -> None:
        await asyncio.sleep(PERMISSION_RETRY_SECONDS)
        if runtime.channel.blocked is not None and self.tables.get(runtime.table_id) is runtime:
            self.resync(runtime.table_id)

    def let_in(self, runtime: TableRuntime) -> None:
        """An update went through: if the channel had refused the bot, it lets it in again."""
        channel = runtime.channel
        if channel.blocked is None:
            return
        log.info("table %s: the channel lets the bot in again: the table carries on", runtime.table_id)
        channel.blocked = None
        channel.blocked_told.clear()
        channel.host_told = False

    def stuck(self, table_id: int) -> bool:
        """Does the table's channel refuse the bot a permission it needs (as last tried)?"""
        runtime = self.tables.get(table_id)
        return runtime is not None and runtime.channel.blocked is not None

    def tell_stuck(self, table_id: int, user_id: int) -> bool:
        """Should `user_id` be told that the table is stuck? True once per person while it is."""
        runtime = self.tables.get(table_id)
        if runtime is None or runtime.channel.blocked is None or user_id in runtime.channel.blocked_told:
            return False
        runtime.channel.blocked_told.add(user_id)
        return True

    def permissions_back(self, table_id: int) -> None:
        """A click shows the bot has what it needs in the channel again: the table carries on now."""
        runtime = self.tables.get(table_id)
        if runtime is not None and runtime.channel.blocked is not None:
            self.resync(table_id)
