"""Discord's rate limits at a busy table: three quick computer players and no pause between
edits, with the fake's per-route buckets on (5 channel edits in 5 s). The bot sends nothing
into a known 429, and the table message always ends on the newest state."""

import sqlite3

from e2e_helpers import ack, hand_over, open_hand, play_simple_turn, turn_name


async def test_a_busy_table_loses_no_update_and_meets_no_429(fake_discord, bot_process, tmp_path):
    from test_bot_e2e import start_bot

    fake = fake_discord
    await start_bot(bot_process, tmp_path, TONK_TABLE_EDIT_INTERVAL="0", TONK_COMPUTER_DELAY="0")
    sent = await fake.slash("alice", "tonk", "tonk new", computers=3, level="easy")
    await ack(sent)
    table = await sent.original()
    await ack(await fake.click("alice", table.button("Start")))
    for _ in range(3):  # three hands: dozens of changes, far more than 5 edits in 5 s
        await fake.wait_for(lambda: hand_over(table) or turn_name(table) == "Alice", timeout=30, what="alice's turn")
        while not hand_over(table):
            hand = await open_hand(fake, "alice", table)
            if "Your turn" in hand.text:  # else the computers ended the hand meanwhile
                await play_simple_turn(fake, "alice", table, drop=True, hand=hand)
            await fake.wait_for(lambda: hand_over(table) or turn_name(table) == "Alice", timeout=30,
                                what="alice's turn or the hand's end")
        number = int(__import__("re").search(r"hand (\d+)", table.text).group(1))
        # the last state shows: the showdown's totals are the ledger's
        with sqlite3.connect(tmp_path / "tonk.db") as db:
            balances = dict(db.execute("SELECT display_name, balance FROM ledger").fetchall())
        await fake.wait_for(lambda: _alice_total(table) == balances["Alice"],
                            timeout=15, what="the table to show the newest totals")
        await ack(await fake.click("alice", table.button("Next hand")))
        await fake.wait_for(lambda: f"hand {number + 1}" in table.text, timeout=15, what="the next deal")
    assert fake.rate_limit_hits == []  # every bucket's advertised limit was respected
    edits = [r.at for r in fake.requests_to("PATCH /channels/{channel_id}/messages/{message_id}")]
    busiest = max(sum(1 for t in edits if start <= t < start + 5.0) for start in edits)
    # the channel's bucket was used to its limit (never past it: no 429 above). Its windows are fixed,
    # as Discord's are (5 edits, then a new window of 5 s from the next one), so a sliding 5 s may
    # hold up to 9 edits that the bucket allowed: the ping's deadline edit shares it with the table's
    assert busiest >= 5


def _alice_total(table) -> int | None:
    import re

    field = next(f["value"] for f in table.embeds[0]["fields"] if f["name"] == "Seats")
    line = next((line for line in field.splitlines() if "**Alice**" in line), "")
    match = re.search(r"([+-]?\d+) points?", line)
    return int(match.group(1)) if match else None
