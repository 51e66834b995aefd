"""House rules at a real table (`python -m bot` through the fake Discord): the host picks a
preset and options in the lobby, a slap race, and a wild card spread naming its card.

The hands are stacked: the bot is stopped, the stacked hand is written into its table (as a
saved hand in play), and the restarted bot carries on from it. So no test depends on the
deal (TONK_DEAL_SEED), and a house-rule hand is shown to survive a restart.
"""

import asyncio
import re
import json
import sqlite3

from e2e_helpers import (pick, DRAWN, ack, bot_env, button, menu, open_hand, play_simple_turn, reply_text,
                         showdown_payments, turn_name)
from engine import DRAW, Discard, Rules, Spread
from engine_helpers import C, cards, deal

SLAP_HANDS = ["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"]


async def start_bot(bot_process, tmp_path):
    process = bot_process(env=bot_env(tmp_path))
    await process.start()
    await process.fake.wait_for_commands("tonk")
    return process


async def lobby(fake, preset: str):
    sent = await fake.slash("alice", "tonk", "tonk new", preset=preset)
    await ack(sent)
    table = await sent.original()
    for name in ("bob", "carol"):
        await ack(await fake.click(name, table.button("Join")))
    await fake.wait_for(lambda: all(f"<@{fake.user(n).id}>" in table.text for n in ("bob", "carol")), what="joins")
    return table


async def stack_hand(process, tmp_path, table, make_game) -> None:
    """Stop the bot, make `make_game(the seats' names, the table's saved rules)` the table's hand in
    play, start the bot again."""

    def message_saved() -> bool:  # the lobby message's id is saved just after the command's reply
        db = sqlite3.connect(tmp_path / "tonk.db")
        try:
            return db.execute("SELECT message_id FROM live_tables WHERE status = 'lobby'").fetchone()[0] is not None
        finally:
            db.close()

    await process.fake.wait_for(message_saved, what="the lobby saved")
    await process.stop()
    db = sqlite3.connect(tmp_path / "tonk.db")
    with db:
        seats, rules = db.execute("SELECT seats, rules FROM live_tables WHERE status = 'lobby'").fetchone()
        game = make_game([s["name"] for s in json.loads(seats)], Rules.from_dict(json.loads(rules)))
        db.execute("UPDATE live_tables SET status = 'playing', hand_number = 1, dealer = ?, engine_state = ? "
                   "WHERE status = 'lobby'", (game.dealer, json.dumps(game.to_json())))
    db.close()
    await process.start()
    await process.fake.wait_for(lambda: "Tonk · hand 1" in table.text, timeout=15, what="the stacked hand")


async def test_the_host_picks_a_preset_and_any_option_in_the_lobby(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await lobby(fake, "standard")
    assert "wild" not in table.text.lower()
    preset = menu(table, "preset")
    # only the host: a stranger's or a player's pick is refused in one line and changes nothing
    for who in ("bob", "dave"):
        text = await reply_text(await fake.select(who, preset, values=["chicago"]))
        assert text.strip() == "Only the host can change the house rules."
    assert "wild" not in table.text.lower()
    await ack(await fake.select("alice", preset, values=["chicago"]), expect=7)
    await fake.wait_for(lambda: "Deuces and jokers are wild" in table.text, what="the preset in the lobby")
    assert "2 jokers" in table.text and "claimed at the start of your first turn" in table.text
    # one option: the host's menu of options, then (only to the host) its values
    house = next(s for s in table.selects if ":rule-menu:4" in s.custom_id)
    assert "Only the host" in await reply_text(await fake.select("carol", house, values=["slap"]))
    sent = await fake.select("alice", house, values=["slap"])
    await ack(sent)
    values = await sent.original()
    assert values.ephemeral and "Slapping" in values.text
    choice = menu(values, "set")
    assert [o.label for o in choice.options][0] == "no slapping" and all("_" not in o.label for o in choice.options)
    await ack(await fake.select("alice", choice, values=["slap=first_to_slap"]))
    await fake.wait_for(lambda: "Done" in values.text, what="the host's answer")
    await fake.wait_for(lambda: "the first slap wins" in table.text, what="the new rule in the lobby")
    assert "Deuces and jokers are wild" in table.text  # the preset's other rules stay
    # a bad combination: wild jokers with no jokers in the deck, one clear line, nothing changes
    standard = await ack(await fake.select("alice", menu(table, "preset"), values=["standard"]), expect=7)
    await fake.wait_for(lambda: "wild" not in table.text.lower(), what="back to standard")
    sent = await fake.select("alice", house, values=["wild_cards"])
    await ack(sent)
    choice = menu(await sent.original(), "set")
    text = await reply_text(await fake.select("alice", choice, values=["wild_cards=jokers"]))
    assert "needs jokers in the deck" in text and "wild_cards" not in text and "\n" not in text.strip()
    assert "wild" not in table.text.lower() and standard == 7


async def test_a_slap_race_one_wins_and_the_other_is_told(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await lobby(fake, "slap")

    def stacked(players, _rules):
        game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"), names=players)
        for action in (DRAW, Spread(cards("6s 7s 8s")), Discard(C("9s"))):
            game.apply(0, action)  # alice lays a run and discards the 9s that fits it
        return game

    await stack_hand(process, tmp_path, table, stacked)
    await fake.wait_for(lambda: button(table, "Slap!") is not None, what="the Slap! button")
    assert "fits a spread" in table.text
    slap = table.button("Slap!")
    assert "not seated" in await reply_text(await fake.click("dave", slap))
    # bob and carol slap at once: one wins, the other is told in one line, ephemerally
    first, second = await asyncio.gather(fake.click("bob", slap), fake.click("carol", slap))
    kinds = await asyncio.gather(first.ack(), second.ack())
    assert sorted(kinds) == [4, 7], kinds  # one edits the table, one is answered privately
    loser, winner = (first, "Carol") if kinds[0] == 4 else (second, "Bob")
    told = await loser.original()
    assert told.ephemeral and told.text.strip() == f"Too late: {winner} slapped that card first."
    await fake.wait_for(lambda: f"{winner} slapped 9 of spades onto spread 1" in table.text, what="the slap on the table")
    assert button(table, "Slap!") is None  # the window is closed
    # the winner owes one extra discard: it is their turn now, and their hand says so
    await fake.wait_for(lambda: turn_name(table) == winner, what="the slapper's discard")
    hand = await open_hand(fake, winner.lower(), table)
    assert "You slapped" in hand.text and button(hand, "Draw") is None
    discard = menu(hand, "discard")
    await pick(fake, winner.lower(), hand, discard, discard.options[0].value)
    await fake.wait_for(lambda: turn_name(table) == "Bob" and "may drop, draw" in table.text,
                        what="bob's turn again")


async def test_a_wild_card_spread_names_its_card(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await lobby(fake, "chicago")
    await stack_hand(process, tmp_path, table, lambda players, _rules: deal(
        ["5s 6s X1 Kd Qh", "9c 9d 8h 10h Qc", "Ac Kc 5d 6d Jh"], stock="3c", rules=Rules.preset("chicago"),
        names=players))
    hand = await open_hand(fake, "alice", table)
    await ack(await fake.click("alice", button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    spread = menu(hand, "spread")
    labels = [o.label for o in spread.options]
    assert "5, 6 of spades, joker 1 as 7 of spades" in labels and "joker 1 as 4 of spades, 5, 6 of spades" in labels, labels
    option = next(o for o in spread.options if o.label == "5, 6 of spades, joker 1 as 7 of spades")
    await pick(fake, "alice", hand, spread, option.value)
    await fake.wait_for(lambda: "Alice spread 5, 6 of spades, joker 1 as 7 of spades" in table.text, what="the wild spread")
    assert "1. Alice: 5, 6 of spades, joker 1 as 7 of spades" in table.text
    discard = menu(hand, "discard")
    assert {o.label for o in discard.options} == {"king of diamonds", "queen of hearts", "3 of clubs"}
    await pick(fake, "alice", hand, discard, "Kd")
    await fake.wait_for(lambda: turn_name(table) == "Bob", what="bob's turn")


async def test_computer_players_slap_after_their_reaction_time(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    sent = await fake.slash("alice", "tonk", "tonk new", preset="slap", computers=2, level="hard")
    await ack(sent)
    table = await sent.original()

    def stacked(players, _rules):
        game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"), names=players)
        for action in (DRAW, Spread(cards("6s 7s 8s"))):
            game.apply(0, action)  # alice has laid a run; her discard comes next
        return game

    await stack_hand(process, tmp_path, table, stacked)
    hand = await open_hand(fake, "alice", table)
    discard = menu(hand, "discard")
    await pick(fake, "alice", hand, discard, "9s")
    # the 9s fits alice's run: a computer slaps it (after its reaction time), then discards one more
    await fake.wait_for(lambda: re.search(r"\(hard\) slapped 9 of spades onto spread 1", table.text), timeout=15,
                        what="a computer's slap")
    await fake.wait_for(lambda: "1. Alice: 6, 7, 8, 9 of spades" in table.text, what="the slapped card on the run")


async def test_the_host_sets_an_instant_hand_and_a_count_then_a_hand_is_played_under_them(
        fake_discord, bot_process, tmp_path):
    """Standard rules, then the host claims a low count in turn (3 stakes, 10 or less) and deals
    3 cards: the stacked hand is played under the rules the lobby saved. Alice's 11 is over the
    count (no claim); Bob's 10 is claimed at his first turn and paid 3 stakes by each player."""
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await lobby(fake, "standard")
    house = next(s for s in table.selects if ":rule-menu:4" in s.custom_id)
    low = next(o for o in house.options if o.label == "Instant hand: a low count")
    assert low.description == "not played"
    sent = await fake.select("alice", house, values=[low.value])
    await ack(sent)
    values = await sent.original()
    assert values.ephemeral and "now not played" in values.text
    await ack(await fake.select("alice", menu(values, "set"), values=[f"{low.value}=3:turn"]))
    await fake.wait_for(lambda: "Done" in values.text, what="the host's first pick")
    # the low hand's highest count has a menu of its own, still there after the first pick
    count = next(s for s in values.selects if s.custom_id.endswith(":set-menu:1"))
    assert [o.label for o in count.options if o.default] == ["a count of 13 or less"]
    await ack(await fake.select("alice", count, values=[f"{low.value}=max:10"]))
    await fake.wait_for(lambda: "a count of 10 or less" in values.text, what="the host's second pick")
    # a numeric option of section 7: the cards dealt
    standard = next(s for s in table.selects if ":rule-menu:3" in s.custom_id)
    sent = await fake.select("alice", standard, values=["hand_size"])
    await ack(sent)
    sizes = await sent.original()
    await ack(await fake.select("alice", menu(sizes, "set"), values=["hand_size=3"]))
    await fake.wait_for(lambda: "Deal 3 cards each" in table.text, what="3 cards in the lobby")
    assert ("A count of 10 or less claimed at the start of your first turn wins 3 stakes from each player."
            in table.text)

    def stacked(players, rules):
        assert rules.hand_size == 3 and [h.to_dict() for h in rules.instant_hands if h.hand == "low"] == \
            [{"hand": "low", "pays": 3, "when": "turn", "max": 10}]
        return deal(["Ac 4d 6h", "2c 3d 5h", "Kc Qd Jh"], stock="Ks 8c 7d", upcard="9s", rules=rules,
                    names=players)

    await stack_hand(process, tmp_path, table, stacked)
    hand = await open_hand(fake, "alice", table)
    assert button(hand, "Claim") is None  # 11 is over the count of 10
    await play_simple_turn(fake, "alice", table, hand=hand)
    await fake.wait_for(lambda: turn_name(table) == "Bob", what="bob's turn")
    hand = await open_hand(fake, "bob", table)
    assert "claim it to win now" in hand.text
    await ack(await fake.click("bob", button(hand, "Claim")))
    await fake.wait_for(lambda: "Bob claimed an instant hand at the start of their first turn" in table.text,
                        what="the claim")
    assert showdown_payments(table) == {"Alice": -3, "Bob": 6, "Carol": -3}
