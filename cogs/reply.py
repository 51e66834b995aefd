"""A click's answer within Discord's 3 seconds, loaded or not.

Discord fails an interaction that is not acknowledged within 3 seconds of its creation. A click
is answered at once when its answer is ready in time, exactly as a fast click always was (the
message edited in the response, or a new message sent as the response). When the answer is not
ready `ACK_BUDGET` seconds after Discord created the interaction (a busy machine, a table lock
held by a computer player thinking), or the click reaches the bot that late, it is deferred (Discord's "deferred update", which
shows nothing new) and the answer is put in place when ready: the clicked message edited
through the interaction's webhook, or a new message sent as a follow-up.

Every answer to a click goes through the click's `Reply`, so the deferral and the answer never
race: whichever comes first decides how the other is sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any

import discord

ACK_BUDGET = 2.0
"""Seconds after the interaction's creation by which an answer not ready yet is deferred: a
second's margin for the deferral's own request under load."""
REPLY_KEY = "tonk_reply"


class Reply:
    """How one interaction is answered: at once, or deferred then edited in."""

    def __init__(self, interaction: discord.Interaction):
        self.interaction = interaction
        self.deferred = False
        self._lock = asyncio.Lock()

    async def defer(self) -> None:
        """Acknowledge now, unless the answer went already."""
        async with self._lock:
            if self.interaction.response.is_done():
                return
            await self.interaction.response.defer()  # a component: "deferred update", nothing shown
            self.deferred = True

    async def edit(self, **message: Any) -> None:
        """The clicked message becomes `message` (the keywords of `InteractionResponse.edit_message`)."""
        async with self._lock:
            if not self.deferred:
                await self.interaction.response.edit_message(**message)
            else:
                await self.interaction.edit_original_response(**message)

    async def send(self, *, ephemeral: bool = True, **message: Any) -> int | None:
        """A new message with `message` (the keywords of `send_message`): its id, when known."""
        async with self._lock:
            if not self.deferred:
                response = await self.interaction.response.send_message(ephemeral=ephemeral, **message)
                message_id = getattr(response, "message_id", None)
                if message_id is None and not ephemeral:
                    message_id = (await self.interaction.original_response()).id
                return message_id
            sent = await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **message)
            return sent.id

    @property
    def followup(self) -> bool:
        """A new message of this reply is a follow-up, edited by its own id (not `@original`)."""
        return self.deferred


def reply_of(interaction: discord.Interaction) -> Reply:
    """The interaction's one `Reply` (made at its first use)."""
    reply = interaction.extras.get(REPLY_KEY)
    if reply is None:
        reply = interaction.extras[REPLY_KEY] = Reply(interaction)
    return reply


async def in_time(interaction: discord.Interaction, answer: Awaitable[None], *, budget: float = ACK_BUDGET) -> None:
    """Run `answer` (which answers through `reply_of(interaction)`); defer the interaction if the
    answer is not given `budget` seconds after Discord created it. Raises what `answer` raises."""
    reply = reply_of(interaction)
    age = time.time() - interaction.created_at.timestamp()
    if age >= budget:
        # it reached us late: the loop is behind, and anything the answer waits for may be too
        await _defer(reply)
    task = asyncio.ensure_future(answer)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, budget - age))
    if not done:
        await _defer(reply)
    await task


async def _defer(reply: Reply) -> None:
    try:
        await reply.defer()
    except discord.HTTPException:
        pass  # too late even for that (the answer's own request will say so)
