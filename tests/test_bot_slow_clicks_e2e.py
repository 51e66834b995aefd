"""A click the bot cannot answer at once is still acknowledged within Discord's 3 seconds: the
bot process is frozen while a click reaches it (as a loaded machine would hold it), and on
waking, the click past the budget, it defers the click (nothing new shown), then puts the
answer in place when ready: the clicked message edited, or a new message as a follow-up."""

import asyncio
import os
import signal

from e2e_helpers import DRAWN, ack, button, deal_until_in_play, open_hand, pick, turn_name
from test_bot_e2e import open_table, start_bot, start_table

FROZEN = 2.3
"""Seconds the bot is held: past the 2 s budget, short of Discord's 3 s."""


async def click_while_frozen(process, seconds: float, click):
    """Freeze the bot, make the click (it waits in the bot's socket), hold the bot `seconds`, wake it."""
    os.kill(process.process.pid, signal.SIGSTOP)
    try:
        sent = await click
        await asyncio.sleep(seconds)  # real time: the bot is stopped, its loop cannot run
    finally:
        os.kill(process.process.pid, signal.SIGCONT)
    return sent


async def test_a_click_held_past_the_budget_is_deferred_then_answered(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    user = turn_name(table).lower()
    hand = await open_hand(fake, user, table)
    assert button(hand, "Draw") is not None
    sent = await click_while_frozen(process, FROZEN, fake.click(user, button(hand, "Draw")))
    assert await ack(sent) == 6  # a deferred update: acknowledged in time, nothing new shown yet
    assert sent.ack_latency < 3.0, sent.ack_latency
    # then the answer is edited into the clicked hand message
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw edited in after the deferral")
    await fake.wait_for(lambda: "drew from the stock" in table.text, what="the table to follow")


async def test_my_hand_held_past_the_budget_comes_as_a_follow_up_that_follows_the_game(fake_discord, bot_process,
                                                                                      tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    user = turn_name(table).lower()
    other = "bob" if user == "alice" else "alice"
    sent = await click_while_frozen(process, FROZEN, fake.click(other, table.button("My hand")))
    assert await ack(sent) == 6 and sent.ack_latency < 3.0
    hand = await sent.followup()
    assert hand.ephemeral and "Not your turn" in hand.text
    # the follow-up is the live hand: it follows the game when the other player plays
    mine = await open_hand(fake, user, table)
    await ack(await fake.click(user, button(mine, "Draw")))
    await fake.wait_for(lambda: DRAWN in mine.text, what="the draw")
    discard = next(s for s in mine.selects if ":discard-menu" in s.custom_id)
    await pick(fake, user, mine, discard, discard.options[0].value)
    await fake.wait_for(lambda: "Your turn" in hand.text, what="the follow-up hand to follow the game")
