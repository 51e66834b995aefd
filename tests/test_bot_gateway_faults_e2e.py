"""Discord's bad days (issue 35), the gateway's share: mid-hand, Discord closes the socket (1001,
4000), asks for a RECONNECT, invalidates the session (resumable, then not), and a click arrives
while the bot is away. The bot resumes or identifies again on its own, the click that Discord
replays after the resume is applied once, the hand is played to its end, the ledger holds it once
and sums to zero, and the bot's log has no traceback: every fault was Discord's."""

from __future__ import annotations

import re

from e2e_helpers import DRAWN, ack, button, hand_is_over, hand_over, open_hand, play_simple_turn, turn_name
from test_bot_e2e import dealt_table, play_hand

PLAYERS = ("alice", "bob")


async def _back(fake, identifies: int, *, new_session: bool) -> None:
    """The bot is on the gateway again: on a new session (IDENTIFY) or the old one (RESUME)."""
    await fake.wait_for(lambda: fake.bot_ready and fake.identify_count >= identifies + new_session, timeout=30,
                        what="the bot back on the gateway")
    assert fake.identify_count == identifies + new_session, (fake.identify_count, identifies, new_session)


async def _one_turn(fake, table) -> None:
    if hand_over(table):
        await ack(await fake.click("alice", table.button("Next hand")))
        await fake.wait_for(lambda: turn_name(table) is not None and not hand_over(table), what="the next deal")
    name = turn_name(table)
    await play_simple_turn(fake, name.lower(), table)
    await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=15,
                        what=f"the table after {name}'s turn")


async def test_a_hand_lives_through_every_kind_of_gateway_drop(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process, table, _ = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    await _one_turn(fake, table)
    faults = (
        ("close 1001 (going away)", lambda: fake.drop_gateway(1001), False),
        ("close 4000 (unknown error)", lambda: fake.drop_gateway(4000), False),
        ("op 7 RECONNECT", fake.reconnect_gateway, False),
        ("op 9 INVALID_SESSION, resumable", lambda: fake.invalid_session(resumable=True), False),
        ("op 9 INVALID_SESSION, not resumable", lambda: fake.invalid_session(resumable=False), True),
    )
    for what, fault, new_session in faults:
        identifies = fake.identify_count
        await fault()
        await _back(fake, identifies, new_session=new_session)
        await _one_turn(fake, table)  # the table goes on from where it was
        assert not fake.unacknowledged(), what

    # a click Discord holds while the bot is away, and replays when it resumes: applied once
    if hand_over(table):
        await ack(await fake.click("alice", table.button("Next hand")))
        await fake.wait_for(lambda: turn_name(table) is not None and not hand_over(table), what="the next deal")
    name = turn_name(table)
    hand = await open_hand(fake, name.lower(), table)
    identifies = fake.identify_count
    await fake.drop_gateway(4000)
    draw = await fake.click(name.lower(), button(hand, "Draw"))  # buffered by the session, as Discord's are
    await _back(fake, identifies, new_session=False)
    await ack(draw)
    await fake.wait_for(lambda: DRAWN in hand.text or hand_is_over(hand), what="the replayed draw applied")
    assert button(hand, "Draw") is None  # drawn once: a second answer would be a violation below

    payments = await play_hand(fake, table, PLAYERS)
    assert sum(payments.values()) == 0 and set(payments) == {p.capitalize() for p in PLAYERS}
    sent = await fake.slash("alice", "tonk", "tonk ledger")
    await ack(sent)
    ledger = (await sent.original()).text
    hands = {int(n) for n in re.findall(r"· (\d+) hands?", ledger)}
    assert len(hands) == 1, ledger  # both players hold the same hands: none written twice
    log = process.output()
    assert "Traceback" not in log, log[-4000:]
    fake.assert_no_violations()
