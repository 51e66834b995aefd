"""The real bot, started as `python -m bot`, played through the fake Discord by buttons."""

import asyncio
import re

from engine_helpers import cards_named
from e2e_helpers import (pick, DRAWN, ack, bot_env, button, deal_until_in_play, hand_line, hand_over, menu, open_hand, play_simple_turn,
                         reply_text, seat_counts, showdown_payments, turn_name)

PLAYERS = ["alice", "bob", "carol"]


async def start_bot(bot_process, tmp_path, **extra):
    process = bot_process(env=bot_env(tmp_path, **extra))
    await process.start()
    await process.fake.wait_for_commands("tonk")
    return process


async def open_table(fake, host="alice", joiners=("bob", "carol"), **options):
    sent = await fake.slash(host, "tonk", "tonk new", **options)
    await ack(sent)
    table = await sent.original()
    assert "waiting for players" in table.text
    for name in joiners:
        await ack(await fake.click(name, table.button("Join")))
    await fake.wait_for(lambda: all(f"<@{fake.user(n).id}>" in table.text for n in joiners), what="joins")
    return table


async def start_table(fake, table, host="alice"):
    sent = await fake.click(host, table.button("Start"))
    if await sent.ack() != 7:  # not an update of the table message: show what the bot said instead
        raise AssertionError(f"Start was answered with: {(await sent.original()).text}")
    await fake.wait_for(lambda: "Tonk · hand" in table.text, what="the deal")


async def dealt_table(fake, bot_process, tmp_path, joiners=("bob", "carol")):
    """A running bot and a dealt table in play; returns (process, table message, player to act)."""
    process = await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=joiners)
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    return process, table, turn_name(table).lower()


async def play_hand(fake, table, players, *, drop_after: int = 2):
    """Everyone plays simple turns; after `drop_after` rounds the player to act drops."""
    turns = 0
    while "Next hand" not in [b.label for b in table.buttons]:
        name = await fake.wait_for(lambda: turn_name(table) or ("Next hand" in [b.label for b in table.buttons] and "-"),
                                   what="whose turn")
        if name == "-":
            break
        user = next(p for p in players if p.capitalize() == name)
        before = turns
        await play_simple_turn(fake, user, table, drop=turns >= drop_after * len(players))
        turns += 1
        await fake.wait_for(lambda: turn_name(table) != name or "Next hand" in [b.label for b in table.buttons],
                            timeout=10, what=f"the table after {name}'s turn {before}")
    return showdown_payments(table)


async def test_a_full_three_player_game_from_new_to_ledger(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, stake=2, preset="standard")
    assert "Tonk on the deal" in table.text  # the lobby shows the house rules in force
    # a stranger cannot start it, and only the host can
    assert "Only the host" in await reply_text(await fake.click("dave", table.button("Start")))
    assert "Only the host" in await reply_text(await fake.click("bob", table.button("Start")))
    await start_table(fake, table)
    totals = {p: 0 for p in PLAYERS}
    for hand_number in (1, 2):
        assert f"hand {hand_number}" in table.text
        counts = seat_counts(table)
        assert set(counts) == {p.capitalize() for p in PLAYERS}
        if hand_over(table):  # a tonk on the deal (some deal seeds): settled at once, nothing to play
            payments = showdown_payments(table)
        else:
            # nobody but the players may look at a hand
            assert "not seated" in await reply_text(await fake.click("dave", table.button("My hand")))
            payments = await play_hand(fake, table, PLAYERS)
        assert sum(payments.values()) == 0 and set(payments) == {p.capitalize() for p in PLAYERS}
        assert any(v != 0 for v in payments.values()) or "nobody pays" in table.text.lower() or "Void" in table.text
        for p, v in payments.items():
            totals[p.lower()] += v
        # the showdown shows every hand
        assert all(f"{p.capitalize()}: count" in table.text for p in PLAYERS)
        if hand_number == 1:
            assert "Only seated players" in await reply_text(await fake.click("dave", table.button("Next hand")))
            await ack(await fake.click("bob", table.button("Next hand")))
            await fake.wait_for(lambda: "hand 2" in table.text, what="the second deal")
    sent = await fake.slash("carol", "tonk", "tonk ledger")
    await ack(sent)
    ledger = (await sent.original()).text
    for p in PLAYERS:
        sign = f"+{totals[p]}" if totals[p] > 0 else str(totals[p])
        assert re.search(rf"{p.capitalize()}: {re.escape(sign)} points? · 2 hands", ledger), (p, totals, ledger)


async def test_cards_stay_private_and_illegal_plays_are_not_offered(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, name = await dealt_table(fake, bot_process, tmp_path)
    other = next(p for p in PLAYERS if p != name)
    mine = await open_hand(fake, name, table)
    theirs = await open_hand(fake, other, table)
    assert mine.ephemeral and theirs.ephemeral
    # each sees only their own hand message; the channel shows no cards of anyone's hand
    assert mine not in fake.visible(other) and theirs not in fake.visible(name)
    assert mine not in fake.visible("dave")
    cards_line = hand_line(mine)
    public = " ".join(f["value"] for f in table.embeds[0]["fields"] if f["name"] != "Last plays")
    public += " ".join(m.text for m in fake.visible("dave") if m is not table)
    assert len(cards_line) == 5
    held = cards_named(", ".join(cards_line))
    assert len(held) == 5
    assert not cards_named(public) & held, public
    # the player not to act is offered no play at all
    assert button(theirs, "Draw") is None and menu(theirs, "discard") is None and "Not your turn" in theirs.text
    # discard before drawing is not offered either
    assert menu(mine, "discard") is None and button(mine, "Draw") is not None


async def test_double_clicks_and_old_messages_apply_nothing_twice(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, name = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    old = await open_hand(fake, name, table)
    fake.advance_time(901)  # the old message's token expires: the bot can no longer remove it
    new = await open_hand(fake, name, table)
    await fake.wait_for(lambda: fake.violations, what="the bot's try to remove the old hand message")
    assert {v.kind for v in fake.take_violations("expired_token")} == {"expired_token"}
    stock_before = int(re.search(r"(\d+) cards", new.embeds[0]["fields"][1]["value"]).group(1))
    first, second = await asyncio.gather(fake.click(name, button(new, "Draw")), fake.click(name, button(new, "Draw")))
    await first.ack()
    await second.ack()
    await fake.wait_for(lambda: DRAWN in new.text, what="the draw")
    # a click on the older message shows the hand as it is now instead of drawing again
    await ack(await fake.click(name, button(old, "Draw")))
    await fake.wait_for(lambda: "out of date" in old.text or "Someone else" in old.text, what="stale notice")
    assert button(old, "Draw") is None and menu(old, "discard") is not None
    hand = await open_hand(fake, name, table)
    assert len(hand_line(hand)) == 6  # one card drawn, once
    stock_after = int(re.search(r"(\d+) cards", hand.embeds[0]["fields"][1]["value"]).group(1))
    assert stock_after == stock_before - 1


async def test_restart_mid_hand_loses_nothing(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process, table, name = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    hand = await open_hand(fake, name, table)
    await ack(await fake.click(name, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    cards = hand.embeds[0]["description"].splitlines()[0]
    await process.stop()
    await process.start()
    # the table message's buttons work again and the hand goes on where it was
    again = await open_hand(fake, name, table)
    # (the mark on the drawn card is kept in memory only: a restart drops it, not the card)
    assert again.embeds[0]["description"].splitlines()[0] == cards.replace(" (drawn)", "")
    discard = menu(again, "discard")
    assert discard is not None and button(again, "Draw") is None
    await pick(fake, name, again, discard, discard.options[0].value)
    await fake.wait_for(lambda: turn_name(table) not in (None, name.capitalize()), timeout=10, what="the turn to pass")


async def test_a_game_with_computer_players(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    sent = await fake.slash("alice", "tonk", "tonk new", computers=2, level="normal")
    await ack(sent)
    table = await sent.original()
    assert "Goblin (normal)" in table.text and "One-Eye (normal)" in table.text
    await start_table(fake, table)
    for hand_number in (1, 2, 3):
        turns = 0
        while "Next hand" not in [b.label for b in table.buttons]:
            # Alice's turn begins: her name at the start phase. The table's edits are throttled,
            # so after her draw it may still show her turn (then discarding): that is not a new turn.
            name = await fake.wait_for(
                lambda: "Next hand" in [b.label for b in table.buttons] and "-" or
                (turn_name(table) == "Alice" and "may drop, draw or take" in table.text and "Alice"),
                timeout=15, what="alice's turn or the end")
            if name == "-":
                break
            before = table.text
            await play_simple_turn(fake, "alice", table, drop=turns >= 3)
            turns += 1
            # the computers may play so fast that it is Alice's turn again by the next edit
            await fake.wait_for(lambda: table.text != before, timeout=10, what="alice's play to show")
        payments = showdown_payments(table)
        assert sum(payments.values()) == 0 and set(payments) == {"Alice", "Goblin (normal)", "One-Eye (normal)"}
        if hand_number < 3:
            await ack(await fake.click("alice", table.button("Next hand")))
            await fake.wait_for(lambda: f"hand {hand_number + 1}" in table.text, what="the next deal")
    # computers are ledgered under their own names like anyone else
    sent = await fake.slash("bob", "tonk", "tonk ledger")
    await ack(sent)
    ledger = (await sent.original()).text
    assert "Goblin (normal)" in ledger and "One-Eye (normal)" in ledger and "3 hands" in ledger
    assert not fake.rate_limit_hits


async def test_after_a_restart_timers_and_computer_players_carry_on(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    sent = await fake.slash("admin", "tonk", "tonk-admin settings", turn_timer=4)
    await ack(sent)
    sent = await fake.slash("alice", "tonk", "tonk new", computers=1, level="easy")
    await ack(sent)
    table = await sent.original()
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    await fake.wait_for(lambda: turn_name(table) == "Alice", timeout=10, what="alice's turn")
    await process.stop()
    await process.start()
    # nobody clicks: the restarted bot's timer plays Alice's turn, then the computer plays on
    await fake.wait_for(lambda: "Alice drew from the stock" in table.text, timeout=15, what="the timer after restart")
    await fake.wait_for(lambda: "Goblin (easy)" in (table.embeds[0]["fields"][-1]["value"]
                                                    .split("Alice discarded")[-1]),
                        timeout=15, what="the computer to play after alice's time-out")


async def test_a_play_whose_reply_came_too_late_still_shows_on_the_table(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, name = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    hand = await open_hand(fake, name, table)
    await asyncio.sleep(1.5)  # past the bot's edit interval: no table update is pending any more
    await ack(await fake.click(name, button(hand, "Drop")))
    await fake.wait_for(lambda: button(hand, "Drop with") is not None, what="the drop's confirm step")
    sent = await fake.click(name, button(hand, "Drop with"))
    fake.advance_time(3.5)  # Discord gives up on the interaction before the bot answers
    await fake.wait_for(lambda: "Next hand" in [b.label for b in table.buttons], timeout=10,
                        what="the showdown although the reply was refused")
    assert "dropped" in table.text
    assert sent.response_errors or not sent.acked
    fake.take_violations()
