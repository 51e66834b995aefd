"""The live private hands: each seated person's hand message follows the game.

Each seated person has at most one live private hand message per table (a `LiveHand`, kept in
the table's runtime, cogs/live/runtime.py): the
interaction that last showed it (their click on My hand, the ping's button, or any button of
the hand) lends its webhook token, valid 15 minutes and renewed by every click, and every new
state of the table brings the hand up to date with it. Opening the hand again replaces the old
message. Before the token runs out (`hand_follow_seconds`, 14 minutes) the hand retires: its
message says it no longer follows the game, with a button that brings the live hand back (a new
click, a new token), so no message is left claiming to be current. Whoever is seated in the hand
in play with a hand that no longer follows is told in the channel, one short note with My hand
for all of them, at most once per person and deal; the player to act has the turn ping. When the
bot stops (a restart, an update), every live hand says so while its token still works. Each live
hand's token is kept in the store (bot/hand_tokens.py): a start after a kill takes up the hands
whose tokens still work, and they follow the game again (`take_up`); everyone else seated in a
hand in play is told in the channel that their hand stopped following.

A hand is rendered from the seat's `SeatView` only. Its picture shows its own cards only; a live
hand is edited only when its text, embed or components would change (another player's draw
changes nothing it shows: the stock is shown to the player to act).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.hand_tokens import TOKEN_SECONDS, KeptHand
from bot.table import Played, Table
from engine import Card
from engine.text import Text
from engine.help import plural

from cogs import pictures, render
from cogs.common import person_lang, server_lang
from cogs.live.clock import TurnClock, my_hand_view
from cogs.live.runtime import ORIGINAL, LiveHand, LivePart, TableRuntime

log = logging.getLogger("cogs.live")
HAND_WAIT_SECONDS = 1.0
"""How long a click on the live hand message waits for that message's edit in flight."""
TAKE_UP_MARGIN = 5.0
"""A kept hand with less time than this left to follow is retired at once after a start."""



@dataclass(eq=False)
class LiveHands(LivePart):
    """Every table's live private hands (`HandsState`)."""

    clock: TurnClock

    # ------------------------------------------------------------------ what a hand shows

    async def hand_message(self, table: Table, seat: int, *, note: "Text | str | None" = None, confirm_drop: bool = False,
                           focus: str | None = None, message_id: int | None = None
                           ) -> tuple[dict[str, Any], pictures.HandPicture | None]:
        """A person's private hand, from their seat's view only; the card they drew this turn marked;
        and the picture it shows once sent (for `hand_shown`). `focus`: the group picked in a two-step
        choice; `message_id`: the message the answer edits (None: a new one); when it is the live hand
        message, its picture is kept unless the hand changed."""
        runtime = self.tables.get(table.id)
        live = runtime.hands.live.get(table.seats[seat].user_id) if runtime is not None else None  # type: ignore[arg-type]
        shown = live.picture if live is not None and message_id is not None and live.message_id == message_id else None
        return await self._hand(table, seat, note=note, confirm_drop=confirm_drop, focus=focus, shown=shown)

    async def _hand(self, table: Table, seat: int, *, note: "Text | str | None" = None, confirm_drop: bool = False,
                    focus: str | None = None, shown: pictures.HandPicture | None = None) -> tuple[dict[str, Any], pictures.HandPicture | None]:
        """The hand message, and the picture it shows (None: pictures are off here)."""
        user_id = table.seats[seat].user_id
        drawn = self._drawn(table, user_id)
        view = table.seat_view(seat)
        runtime = self.tables.get(table.id)
        waiting = runtime.hands.pending.get(user_id) if runtime is not None and user_id is not None else None
        pending = waiting[1:] if waiting is not None and waiting[0] == table.moves else None
        on = await self.looks.pictures_on(table.guild_id)
        picture = render.hand_picture(view, drawn, person_lang(user_id)) if on else None
        message = render.hand_message(
            view, table_id=table.id, hand_number=table.hand_number, moves=table.moves,
            away=table.seats[seat].away, note=note, drawn=drawn, confirm_drop=confirm_drop,
            deadline=await self.clock.deadline(table), picture=on, shown=shown, focus=focus, pending=pending,
            confirms=table.seats[seat].confirm, lang=person_lang(user_id),
            hint=await self.service.first_hand_hint(table, user_id) if user_id is not None else None)
        return message, picture

    def _drawn(self, table: Table, user_id: int | None) -> Card | None:
        """The card `user_id` drew in the turn in play, if they drew one."""
        runtime = self.tables.get(table.id)
        if runtime is None or user_id not in runtime.hands.drawn:
            return None
        key, card = runtime.hands.drawn[user_id]  # type: ignore[index]
        return card if key == table.turn_key else None

    def played(self, runtime: TableRuntime, table: Table, event: Played) -> None:
        """A draw's card is marked in the drawer's own hand (the event carries it for that seat only)."""
        if event.drawn is not None and table.turn_key is not None:
            user_id = table.seats[event.seat].user_id
            if user_id is not None:
                runtime.hands.drawn[user_id] = (table.turn_key, event.drawn)

    # ------------------------------------------------------------------ a click on a hand

    @contextlib.asynccontextmanager
    async def hand_turn(self, table_id: int, user_id: int, message_id: int | None = None):
        """A person's click on their live hand message (`message_id`) waits for an edit of that
        message in flight, so the newer state lands last; but never long enough to miss Discord's
        3 seconds. A click elsewhere (My hand, the ping's button, an older hand message) answers
        with a new or another message, which no edit in flight can overwrite: it goes ahead."""
        hands = self.tables.of(table_id).hands
        live = hands.live.get(user_id)
        if live is None or message_id is None or live.message_id != message_id:
            yield
            return
        lock = hands.locks[user_id]
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
                   message_id: int | None, message: dict[str, Any], picture: pictures.HandPicture | None, *,
                   followup: bool = False) -> None:
        """A click's reply showed `table` in a private hand message (`message`, with `picture`, as
        `hand_message` made them): that message is the live one now, edited through this interaction
        (its token is the newest). Any other live hand message of this person at this table is deleted."""
        runtime = self.tables.of(table.id)
        hands = runtime.hands
        old = hands.live.get(user_id)
        seconds = self.settings.hand_follow_seconds
        hand = hands.live[user_id] = LiveHand(interaction.application_id, interaction.token, message_id,
                                              table.moves, picture, render.look(message), follow_seconds=seconds,
                                              followup=followup)
        hand.retire = asyncio.get_running_loop().call_later(seconds, self._retire_later, runtime, user_id, hand)
        hands.stale.discard(user_id)
        self.service.hand_tokens.keep(KeptHand(table.id, user_id, table.guild_id, hand.application_id, hand.token,
                                               message_id, followup, hand.lent_at))
        if old is not None:
            if old.retire is not None:
                old.retire.cancel()
            if old.message_id != message_id and old.fresh:
                asyncio.create_task(self._delete(runtime, user_id, old), name=f"tonk-hand-delete-{table.id}")

    def ask_first(self, table: Table, user_id: int, verb: str, value: str | None) -> None:
        """`user_id` picked a play that waits for their word: their hand asks until they answer,
        pick another, cancel, or the table moves on."""
        if value is not None:
            self.tables.of(table.id).hands.pending[user_id] = (table.moves, str(verb), value)

    def pending_pick(self, table_id: int, user_id: int) -> tuple[int, str, str] | None:
        """The pick that waited for `user_id`'s word (it waits no longer)."""
        runtime = self.tables.get(table_id)
        return runtime.hands.pending.pop(user_id, None) if runtime is not None else None

    async def _delete(self, runtime: TableRuntime, user_id: int, hand: LiveHand) -> None:
        """Remove a hand message that a newer one replaced, once any edit of it in flight is over
        (a click that opened the new one did not wait for that edit)."""
        async with runtime.hands.locks[user_id]:
            if hand.gone:
                return
        try:
            await hand.webhook(self.client).delete_message(hand.target)  # type: ignore[arg-type]
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            pass  # gone already, or its token expired: it simply stays as it was

    # ------------------------------------------------------------------ following the table

    async def follow(self, runtime: TableRuntime, table: Table) -> None:
        """Bring every live private hand up to date with `table` (each person's edit in parallel)."""
        if runtime.hands.live:
            await asyncio.gather(*(self._follow(runtime, table, user_id) for user_id in list(runtime.hands.live)))

    async def _follow(self, runtime: TableRuntime, table: Table, user_id: int) -> None:
        hands = runtime.hands
        hand = hands.live.get(user_id)
        if hand is None or hand.moves >= table.moves:
            return  # a reply showed this state or a newer one already
        if not hand.fresh:
            del hands.live[user_id]  # the next ping's button (or the channel's note) brings the hand back
            self.service.hand_tokens.drop(table.id, user_id)
            hands.stale.add(user_id)
            return
        seat = table.seat_of(user_id)
        picture = None
        if seat is None or not table.is_open:
            message: dict[str, Any] = render.hand_closed(table.id, left=seat is None and table.is_open,
                                                                 lang=person_lang(user_id))
        elif table.game is None:
            message = render.hand_between(table.id, table.hand_number, lang=person_lang(user_id))
        else:
            # built (and any new picture drawn) before waiting for the hand: a click meanwhile
            # answers with this state or a newer one, and this edit then has nothing to do
            message, picture = await self._hand(table, seat, shown=hand.picture)
        async with hands.locks[user_id]:
            if hands.live.get(user_id) is not hand or hand.moves >= table.moves:
                return
            if "attachments" not in message and hand.picture != picture:
                # the message's picture is not the one this edit keeps: send it after all
                message, picture = await self._hand(table, seat, shown=None)  # type: ignore[arg-type]
            if seat is None or not table.is_open:
                del hands.live[user_id]
                self.service.hand_tokens.drop(table.id, user_id)
            hand.moves = table.moves
            look = render.look(message)
            # the files stay as they are: kept, or none before and none now (pictures off here)
            same_files = "attachments" not in message or (not message["attachments"] and hand.picture is None)
            if same_files and look == hand.look:
                return  # another player's move changed nothing this hand shows (a draw): no edit
            hand.picture = None  # not known until the edit lands
            hand.look = None
            try:
                await hand.webhook(self.client).edit_message(hand.target, **message)  # type: ignore[arg-type]
            except discord.DiscordServerError:
                hand.moves = -1  # Discord's outage, not the hand's: the table's next round edits it again
                raise
            except discord.HTTPException as exc:
                log.info("table %s: a private hand can no longer be edited (%s)", table.id, exc.status)
                hand.gone = True
                if hands.live.get(user_id) is hand:
                    del hands.live[user_id]
                    self.service.hand_tokens.drop(table.id, user_id)
                    if seat is not None and table.is_open:
                        hands.stale.add(user_id)
            else:
                hand.picture = picture
                hand.look = look

    def _retire_later(self, runtime: TableRuntime, user_id: int, hand: LiveHand) -> None:
        if not self.closing() and self.tables.get(runtime.table_id) is runtime:
            asyncio.create_task(self._retire(runtime, user_id, hand), name=f"tonk-hand-retire-{runtime.table_id}")

    async def retire_all(self, runtimes: list[TableRuntime], timeout: float) -> None:
        """The bot stops, and its hands' tokens go with it: while they still work, every live hand
        says that it no longer follows the game (at most `timeout` seconds for all of them; each
        is edited through its own interaction, so they do not wait for each other's bucket)."""
        tasks = [asyncio.create_task(self._retire(runtime, user_id, hand, stopping=True))
                 for runtime in runtimes for user_id, hand in list(runtime.hands.live.items()) if hand.fresh]
        if tasks:
            done, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            log.info("retired %s as the bot stops (%d too late)", plural(len(done), "live hand"), len(late))

    async def _retire(self, runtime: TableRuntime, user_id: int, hand: LiveHand, *, stopping: bool = False) -> None:
        """The hand's token is about to expire (Discord's 15 minutes after the click that lent it),
        or the bot stops: while the token still works, the message says that it no longer follows
        the game, with the button that brings the live hand back (a new click, a new token).
        Nothing is tried with it after."""
        hands = runtime.hands
        async with hands.locks[user_id]:
            if hand.gone or hand.retired:
                return
            hand.retired = True
            if hands.live.get(user_id) is not hand:
                return  # replaced meanwhile: that one follows the game
            del hands.live[user_id]
            self.service.hand_tokens.drop(runtime.table_id, user_id)
            hands.stale.add(user_id)
            try:
                await hand.webhook(self.client).edit_message(  # type: ignore[arg-type]
                    hand.target, **render.hand_retired(runtime.table_id, stopping=stopping,
                                                          lang=person_lang(user_id)))
            except (discord.HTTPException, OSError, aiohttp.ClientError) as exc:
                log.info("table %s: a private hand could not be retired (%s)", runtime.table_id, exc)

    def take_up(self, runtime: TableRuntime, table: Table, kept: list[KeptHand]) -> None:
        """After a start: the live hands the process before kept (killed, it could not mark them)
        follow the game again while their tokens work; the table's first update brings each to
        the newest state. A hand whose time to follow is over (or nearly) says it no longer
        follows, as it would have; one whose person is no longer seated is left alone."""
        hands = runtime.hands
        now = time.time()
        seconds = self.settings.hand_follow_seconds
        for kept_hand in kept:
            user_id = kept_hand.user_id
            age = max(0.0, now - kept_hand.lent_at)
            if table.seat_of(user_id) is None or not table.is_open or user_id in hands.live:
                self.service.hand_tokens.drop(table.id, user_id)
                continue
            hand = LiveHand(kept_hand.application_id, kept_hand.token, kept_hand.message_id, -1,
                            since=time.monotonic() - age, lent_at=kept_hand.lent_at, follow_seconds=seconds,
                            followup=kept_hand.followup)
            hands.live[user_id] = hand
            hands.stale.discard(user_id)
            left = seconds - age
            if left > TAKE_UP_MARGIN:
                hand.retire = asyncio.get_running_loop().call_later(left, self._retire_later, runtime, user_id, hand)
            elif age < TOKEN_SECONDS - TAKE_UP_MARGIN:
                self._retire_later(runtime, user_id, hand)
            else:
                del hands.live[user_id]  # its token is about to go: nothing can be said with it
                hands.stale.add(user_id)
                self.service.hand_tokens.drop(table.id, user_id)
        if kept:
            log.info("table %s: took up %s kept by the process before", table.id,
                     plural(sum(1 for k in kept if k.user_id in hands.live), "live hand"))

    def lost_after_restart(self, runtime: TableRuntime, table: Table) -> None:
        """After a restart the hand messages of the process before can no longer be edited (their
        tokens went with it): everyone seated in the hand in play is told once, the player to act
        by the turn's ping."""
        if table.in_play:
            runtime.hands.stale = {s.user_id for s in table.seats if s.is_human}  # type: ignore[misc]

    async def notice_stale(self, runtime: TableRuntime, table: Table) -> None:
        """People seated in the hand in play whose private hand no longer follows the game are told
        in the channel, with My hand: one short note for all of them, once per person and deal. The
        player to act is not: the turn's ping already brings their hand."""
        hands = runtime.hands
        if not hands.stale:
            return
        seated = {s.user_id for s in table.seats if s.is_human}
        hands.stale &= seated
        if not table.in_play or not hands.stale:
            return
        if hands.noticed[0] != table.hand_number:
            hands.noticed = (table.hand_number, set())
        to_act = table.seats[table.to_act].user_id if not table.is_computer_turn else None  # type: ignore[index]
        due = sorted(u for u in hands.stale if u != to_act and u not in hands.noticed[1])
        if not due:
            return
        hands.noticed[1].update(due)
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            await channel.send(render.stale_hands_note(due, table.hand_number, lang=server_lang(table.guild_id)), view=my_hand_view(table, server_lang(table.guild_id)),
                               allowed_mentions=discord.AllowedMentions(
                                   users=[discord.Object(u) for u in due]))  # type: ignore[arg-type]
        except discord.HTTPException as exc:
            log.warning("table %s: could not tell players their hands stopped following (%s)", table.id, exc.status)
