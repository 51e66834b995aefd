"""The turn's clock: its timer (with the warning near the end) and the ping that tells a person it
is their turn.

A turn's timer asks the service to time the turn out, which does nothing if the turn has moved
on, so a late timer never plays. The turn ping's message id is saved with the table: a restart
neither pings twice nor leaves an old ping behind, and closing the table removes it. A restart
restarts the turn's timer; the ping it finds is edited to show the new deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import discord

from bot.commands import TimeOut
from bot.table import Ping, Table
from engine.text import t, tc, tn
from i18n import ENGLISH, Lang

from cogs import render
from cogs.common import server_lang
from cogs.components import Verb, button, view_of
from cogs.live.runtime import ClockState, LivePart, TableRuntime, background

log = logging.getLogger("cogs.live")
WARNING_SHARE = 0.25
"""The turn's warning comes when a quarter of its time is left, at least 5 s before the end
(`warning_lead`); a timer too short for that is warned at half time."""


def warning_lead(seconds: float) -> int:
    """How many whole seconds before a turn of `seconds` runs out its player is warned: a quarter
    of the turn, at least 5 s, but never more than half the turn (rounded down), so every timer
    the settings accept (3 s and up) has its warning: 3 s warns with 1 s left, 4 or 5 s with 2 s,
    6 s with 3 s, 10 s and up with a quarter (at least 5 s). 0: no warning (under 2 s)."""
    return int(min(max(5.0, seconds * WARNING_SHARE), seconds // 2))


def my_hand_view(table: Table, lang: Lang = ENGLISH) -> discord.ui.View:
    """One button that opens the player's hand (the same click as the table's My hand): the ping's,
    the warning's and the channel's note to players whose hand stopped following."""
    return view_of(button(table.id, Verb.HAND, lang.render(tc("button", "My hand")), style=discord.ButtonStyle.primary))


def ping_text(user_id: int, deadline: float | None, lang: Lang = ENGLISH) -> str:
    mention = f"<@{user_id}>"
    if deadline is None:
        return lang.render(t("{mention}, your turn at the Tonk table.", mention=mention))
    return lang.render(t("{mention}, your turn at the Tonk table: time runs out {when}.", mention=mention,
                         when=render.relative_time(deadline)))


def warning_text(user_id: int, left: int, lang: Lang = ENGLISH) -> str:
    mention = f"<@{user_id}>"
    return lang.render(tn("{mention}, ⏰ {n} second left in your turn: then the bot draws and discards your "
                          "highest card for you.",
                          "{mention}, ⏰ {n} seconds left in your turn: then the bot draws and discards your "
                          "highest card for you.", left, mention=mention))


class TurnClock(LivePart):
    """Each table's turn timer and turn ping (`ClockState`)."""

    def schedule(self, runtime: TableRuntime, table: Table) -> None:
        """The turn in play has its timer (a new turn a new one; no turn, or a computer's, none)."""
        clock = runtime.clock
        key = table.turn_key
        current = clock.timer
        if current is not None and current[0] == key and not current[1].done():
            return
        if current is not None and current[1] is not asyncio.current_task():
            current[1].cancel()
        clock.timer = None
        if key is None or table.is_computer_turn:
            return
        clock.turn_started = (key, time.time())
        task = asyncio.create_task(self._timer(table.id, table.guild_id, key), name=f"tonk-timer-{table.id}")
        clock.timer = (key, task)

    def paused(self, table: Table) -> float:
        """Seconds the turn in play stood still because Discord was out of reach (0: it did not)."""
        runtime = self.tables.get(table.id)
        started = runtime.clock.turn_started if runtime is not None else None
        if started is None or started[0] != table.turn_key or table.is_computer_turn:
            return 0.0
        return self.pause(table.id).away_since(started[1])

    async def deadline(self, table: Table) -> float | None:
        """When the turn in play runs out (Unix time); None when no person's turn is timed."""
        runtime = self.tables.get(table.id)
        started = runtime.clock.turn_started if runtime is not None else None
        if started is None or started[0] != table.turn_key or table.is_computer_turn:
            return None
        return started[1] + await self.looks.turn_seconds(table.guild_id) + self.pause(table.id).away_since(started[1])

    async def _timer(self, table_id: int, guild_id: int, key: str) -> None:
        """The turn `key`'s time-out (and its warning). It sleeps the whole turn, so it keeps the
        table's ids only, not the `Table` it began with (a stale copy of the game)."""
        with background(table_id, "the turn timer"):
            seconds = await self.looks.turn_seconds(guild_id)
            lead = warning_lead(seconds)
            began = time.time()
            pause = self.pause(table_id)

            def end() -> float:  # Discord's time away since the turn began does not count
                return began + seconds + pause.away_since(began)

            if lead > 0:
                await pause.sleep_until(lambda: end() - lead)
                await self._warn(table_id, key, lead)
            await pause.sleep_until(end)
            await self.service.apply(table_id, None, TimeOut(key))

    async def _warn(self, table_id: int, key: str, left: int) -> None:
        table = self.service.newest(table_id) or await self.service.load(table_id)
        if table.turn_key != key:
            return
        user_id = table.seats[table.to_act].user_id  # type: ignore[index]
        lang = server_lang(table.guild_id)
        text = warning_text(user_id, left, lang)  # type: ignore[arg-type]
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            # a new message, since an edit does not notify; it takes the ping's place
            sent = await channel.send(text, view=my_hand_view(table, lang), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id)]))  # type: ignore[arg-type]
            if await self.service.set_ping(table_id, Ping(sent.id, key)) is None:
                await sent.delete()
                return
            runtime = self.tables.get(table_id)
            if runtime is not None:
                runtime.clock.ping_deadline = (key, await self.deadline(table))
            if table.ping is not None:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(table.ping.message_id).delete()
        except discord.HTTPException:
            log.warning("table %s: could not warn the player to act", table_id)

    def looking(self, table: Table, user_id: int | None) -> bool:
        """`user_id`'s private hand follows this table and they clicked at it in the last
        TONK_LOOKING_SECONDS (90 s): they see their turn come without a ping (their hand says it is
        their turn). The turn's warning still mentions them, so nobody away is timed out unwarned."""
        seconds = self.settings.looking_seconds
        runtime = self.tables.get(table.id)
        hand = runtime.hands.live.get(user_id) if runtime is not None and user_id is not None and seconds else None
        return (hand is not None and hand.fresh and not hand.gone and not hand.retired
                and time.monotonic() - hand.since < seconds)

    async def ping(self, table: Table) -> None:
        """One short mention when a person's turn begins, unless they are looking at the table
        already (`looking`); the previous one is removed."""
        key = table.turn_key
        wanted = key is not None and not table.is_computer_turn
        if wanted and (table.ping is None or table.ping.turn != key) \
                and self.looking(table, table.seats[table.to_act].user_id):  # type: ignore[index]
            wanted = False
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
            lang = server_lang(table.guild_id)
            try:
                message = await channel.send(
                    ping_text(user_id, deadline, lang),  # type: ignore[arg-type]
                    view=my_hand_view(table, lang), allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(user_id)]),  # type: ignore[arg-type]
                )
            except discord.Forbidden:
                if old is not None:  # removed (or tried): the next try must not remove it again
                    await self.service.set_ping(table.id, None)
                raise
            ping = Ping(message.id, key)  # type: ignore[arg-type]
            self.tables.of(table.id).clock.ping_deadline = (key, deadline)  # type: ignore[assignment]
        if table.is_open and await self.service.set_ping(table.id, ping) is None and ping is not None:
            # the table closed meanwhile: the new ping must not outlive it
            await channel.get_partial_message(ping.message_id).delete()

    async def _ping_follows_deadline(self, table: Table, ping: Ping) -> None:
        """The ping of the turn in play shows the deadline the table shows. A restart restarts the
        turn's timer (the bot was away, the player may have been unable to play): the ping it
        finds, sent by the process before, is edited to the new deadline (an edit notifies nobody)."""
        clock: ClockState = self.tables.of(table.id).clock
        deadline = await self.deadline(table)
        if clock.ping_deadline == (ping.turn, deadline):
            return
        clock.ping_deadline = (ping.turn, deadline)
        user_id = table.seats[table.to_act].user_id  # type: ignore[index]
        lang = server_lang(table.guild_id)
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(ping.message_id)
        try:
            await message.edit(content=ping_text(user_id, deadline, lang),  # type: ignore[arg-type]
                               view=my_hand_view(table, lang), allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(user_id)]))  # type: ignore[arg-type,list-item]
        except discord.NotFound:
            pass  # removed meanwhile: the next turn's ping is sent as usual
