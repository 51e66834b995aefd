"""Side bets and the big one, played through the fake Discord with the real bot.

The deals are seeded (TONK_DEAL_SEED, searched for once with the table model, as in
tests/test_table_session.py): at seed 21, with Alice and Bob in the high-card side bet at a
table of three, nobody in holds the called suit at the first deal and one of them does at
the second. What happens during play does not matter to the high card: it is settled at
the deal, and the ledger books it with the hand once that hand ends.
"""

import json
import re
import sqlite3

from e2e_helpers import ack, play_simple_turn, reply_text, turn_name
from test_bot_e2e import open_table, play_hand, start_bot, start_table

PLAYERS = ["alice", "bob", "carol"]
CARRIES_THEN_WON = "21"


def ledger(tmp_path) -> tuple[dict[str, int], list[dict]]:
    """({display name: balance}, stored results in order) read from the bot's database."""
    with sqlite3.connect(tmp_path / "tonk.db") as db:
        balances = dict(db.execute("SELECT display_name, balance FROM ledger").fetchall())
        results = [json.loads(r) for (r,) in db.execute("SELECT result FROM hands ORDER BY id").fetchall()]
    return balances, results


def hand_number(table) -> int:
    return int(re.search(r"hand (\d+)", table.text).group(1))


async def next_hand(fake, table, user="alice"):
    number = hand_number(table)
    await ack(await fake.click(user, table.button("Next hand")))
    await fake.wait_for(lambda: f"hand {number + 1}" in table.text, what="the next deal")


async def play_last_hand(fake, table):
    """Simple turns until the table closes after its last hand (the player to act drops at once)."""
    closed = "Tonk table closed"
    while closed not in table.text:
        name = await fake.wait_for(lambda: turn_name(table) or (closed in table.text and "-"), what="whose turn")
        if name == "-":
            break
        await play_simple_turn(fake, name.lower(), table, drop=True)
        await fake.wait_for(lambda: turn_name(table) != name or closed in table.text, timeout=10,
                            what=f"the table after {name}'s turn")


async def side_bets_on(fake, table):
    """Alice (the host) turns on the high card at 2 points; Alice and Bob opt in; the table starts."""
    assert "Only the host" in await reply_text(await fake.slash("bob", "tonk", "tonk sidebets", bet="high_card"))
    said = await reply_text(await fake.slash("alice", "tonk", "tonk sidebets", bet="high_card", stake=2))
    assert "Side bets are on" in said
    await fake.wait_for(lambda: "In: nobody yet" in table.text, what="the side bets on the lobby")
    for user in ("alice", "bob"):
        await ack(await fake.click(user, table.button("Side bets: in/out")))
    await fake.wait_for(lambda: "In: Alice and Bob." in table.text, what="the opt-ins")
    await start_table(fake, table)
    assert "(Alice and Bob, pot 4)" in table.text


async def first_hand_carried(fake, table, tmp_path):
    """Hand 1: nobody in holds the called suit; the pot of 4 carries over and the ledger is untouched by it."""
    await side_bets_on(fake, table)
    payments = await play_hand(fake, table, PLAYERS)
    assert "nobody in holds the suit: the pot carries over" in table.text
    assert "In the pots for the next deal: high card 4." in table.text
    balances, results = ledger(tmp_path)
    assert balances == payments and sum(balances.values()) == 0  # the pot is owed, not yet booked
    assert "side_settled" not in results[0]
    return payments


async def test_a_side_pot_carried_over_survives_a_restart_and_is_won(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path, TONK_DEAL_SEED=CARRIES_THEN_WON)
    table = await open_table(fake)
    first = await first_hand_carried(fake, table, tmp_path)
    await process.stop()
    await process.start()
    await next_hand(fake, table, "carol")
    assert "(Alice and Bob, pot 8)" in table.text and "wins the pot." in table.text  # settled at the deal
    second = await play_hand(fake, table, PLAYERS)
    won = re.search(r"(\w+) wins the pot\.", table.text)
    assert won and won.group(1) in ("Alice", "Bob"), table.text
    winner = won.group(1)
    loser = ({"Alice", "Bob"} - {winner}).pop()
    # the winner takes the pot of 8: their own 4 back and the loser's 4, shown net
    assert f"Won: {', '.join(f'{n} +4' if n == winner else f'{n} -4' for n in ('Alice', 'Bob'))}." in table.text
    balances, results = ledger(tmp_path)
    assert sum(balances.values()) == 0
    side = {winner: 4, loser: -4, "Carol": 0}
    assert balances == {p: first[p] + second[p] + side[p] for p in first}
    assert results[1]["side_settled"] == [side[n] for n in ("Alice", "Bob", "Carol")]
    assert results[1]["payments"] == [second[n] for n in ("Alice", "Bob", "Carol")]
    with sqlite3.connect(tmp_path / "tonk.db") as db:
        records = [json.loads(r) for (r,) in db.execute("SELECT record FROM hands ORDER BY id")]
    # the records carry the side bets, so a replay settles them the same way
    assert [r["side_bets"]["high_card"]["pot_in"] for r in records] == [0, 4]
    assert records[1]["side_bets"]["high_card"]["seats"] == [0, 1]
    assert "In the pots for the next deal" not in table.text


async def test_a_table_closed_with_a_side_pot_returns_it(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path, TONK_DEAL_SEED=CARRIES_THEN_WON)
    table = await open_table(fake)
    payments = await first_hand_carried(fake, table, tmp_path)
    await ack(await fake.slash("alice", "tonk", "tonk end"))
    await fake.wait_for(lambda: "Tonk table closed" in table.text, what="the close")
    assert "The side pots (4 points) went back to those who paid in." in table.text
    balances, _ = ledger(tmp_path)
    assert balances == payments and sum(balances.values()) == 0


async def test_the_big_one_doubles_the_stakes_and_ends_the_table(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",), stake=3)
    assert "no open table" in (await reply_text(await fake.slash("alice", "lobby", "tonk bigone", hands=2))).lower()
    await start_table(fake, table)
    await play_hand(fake, table, ["alice", "bob"])
    assert "Only the host" in await reply_text(await fake.slash("bob", "tonk", "tonk bigone", hands=2))
    said = await reply_text(await fake.slash("alice", "tonk", "tonk bigone", hands=2))
    assert "next 2 hands at double stakes" in said
    await fake.wait_for(lambda: "The big one: 2 hands left, double stakes" in table.text, what="the big one shown")
    assert "on already" in await reply_text(await fake.slash("alice", "tonk", "tonk bigone", hands=3))
    await next_hand(fake, table)
    await play_hand(fake, table, ["alice", "bob"])
    await fake.wait_for(lambda: "The big one: 1 hand left, double stakes" in table.text, what="one hand left")
    await process.stop()
    await process.start()
    await next_hand(fake, table, "bob")
    assert "The big one: 1 hand left" in table.text
    await play_last_hand(fake, table)
    assert "The big one is over: that was the last hand." in table.text
    assert "Hand 3:" in table.text  # the last hand's showdown stays on the closed table
    with sqlite3.connect(tmp_path / "tonk.db") as db:
        stakes = [s for (s,) in db.execute("SELECT stake FROM hands ORDER BY id").fetchall()]
        records = [json.loads(r)["stake"] for (r,) in db.execute("SELECT record FROM hands ORDER BY id")]
        payments = [json.loads(r)["payments"] for (r,) in db.execute("SELECT result FROM hands ORDER BY id")]
        total = db.execute("SELECT SUM(balance) FROM ledger").fetchone()[0]
    assert stakes == records == [3, 6, 6] and total == 0
    assert all(p % 6 == 0 for hand in payments[1:] for p in hand)
    assert "no open table" in (await reply_text(await fake.slash("alice", "tonk", "tonk bigone", hands=1))).lower()
