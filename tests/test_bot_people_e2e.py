"""Real groups through the fake Discord: leaving during a hand (asked once), the host handing an
idle seat to a computer, the others doing it by a majority, the host removing a seat between
hands, play again; the ledger stays zero-sum through all of it. Also: one click loads its
table once."""

import re
import sqlite3

from e2e_helpers import pick, DRAWN, ack, button, deal_until_in_play, hand_over, menu, open_hand, reply_text, turn_name
from test_bot_e2e import open_table, start_bot, start_table


def ledger(tmp_path) -> dict[str, int]:
    with sqlite3.connect(tmp_path / "tonk.db") as db:
        return dict(db.execute("SELECT display_name, balance FROM ledger").fetchall())


def seats_field(table) -> str:
    return next(f["value"] for f in table.embeds[0]["fields"] if f["name"] == "Seats")


def option(select, name: str):
    return next(o for o in select.options if name in o.label)


async def finish_hand(fake, table, people):
    """The people to act drop at once; computer seats play themselves."""
    while not hand_over(table) and "Tonk table closed" not in table.text:
        name = await fake.wait_for(lambda: (hand_over(table) or "Tonk table closed" in table.text) and "-"
                                   or turn_name(table), what="whose turn", timeout=20)
        if name == "-":
            return
        user = name.lower()
        if user not in people:  # a computer plays that seat
            await fake.wait_for(lambda: turn_name(table) != name or hand_over(table)
                                or "Tonk table closed" in table.text, what=f"{name}'s computer play", timeout=20)
            continue
        hand = await open_hand(fake, user, table)
        if button(hand, "Drop") is None:  # not a drop turn: draw and discard
            await ack(await fake.click(user, button(hand, "Draw")))
            await fake.wait_for(lambda: DRAWN in hand.text or "This hand is over" in hand.text, what="the draw")
            discard = menu(hand, "discard")
            if discard is not None:
                await pick(fake, user, hand, discard, discard.options[0].value)
            continue
        await ack(await fake.click(user, button(hand, "Drop")))
        await fake.wait_for(lambda: button(hand, "Drop with") is not None, what="the drop's confirm step")
        await ack(await fake.click(user, button(hand, "Drop with")))
        await fake.wait_for(lambda: turn_name(table) != name or hand_over(table) or "closed" in table.text,
                            what="the drop")


async def test_leave_during_a_hand_asks_once_then_a_computer_plays_the_seat_out(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob", "carol"))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    # a stranger's click changes nothing
    assert "not seated" in await reply_text(await fake.click("dave", table.button("Leave")))
    sent = await fake.click("bob", table.button("Leave"))
    await ack(sent)
    question = await sent.original()
    assert question.ephemeral and "Leave the table now?" in question.text
    assert "left" not in seats_field(table)  # asking changed nothing yet
    await ack(await fake.click("bob", button(question, "Leave now")))
    await fake.wait_for(lambda: "You left the table" in question.text, what="the leave's answer")
    await fake.wait_for(lambda: "left: computer plays it out" in seats_field(table), what="the table to say who left")
    await finish_hand(fake, table, {"alice", "carol"})
    assert hand_over(table)
    # the next deal goes without bob; the hand he left is his in the ledger, which sums to zero
    balances = ledger(tmp_path)
    assert "Bob" in balances and sum(balances.values()) == 0
    number = int(re.search(r"hand (\d+)", table.text).group(1))
    await ack(await fake.click("alice", table.button("Next hand")))
    await fake.wait_for(lambda: f"hand {number + 1}" in table.text, what="the next deal")
    assert "**Bob**" not in seats_field(table)


async def test_the_host_and_a_majority_hand_idle_seats_to_computers_and_remove_them(fake_discord, bot_process,
                                                                                    tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob", "carol", "dave"))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    takeover = menu(table, "takeover")
    # two of the three others are needed against the host: one ask is counted, not acted on
    text = await reply_text(await fake.select("bob", takeover, values=[option(takeover, "Alice").value]))
    assert "1 of the 2 needed" in text
    await fake.wait_for(lambda: "1 ask to hand to a computer" in seats_field(table), what="the ask shown")
    text = await reply_text(await fake.select("carol", menu(table, "takeover"),
                                              values=[option(takeover, "Alice").value]))
    assert "A computer player has Alice's seat now" in text
    await fake.wait_for(lambda: "away: computer plays" in seats_field(table), what="alice's seat handed over")
    # the host is away: the next person present hosts now, and hands dave's seat over at once
    host = re.search(r"\*\*(\w+)\*\*[^\n]*host", seats_field(table))
    assert host is None or host.group(1) != "Alice"
    await finish_hand(fake, table, {"bob", "carol", "dave"})
    balances = ledger(tmp_path)
    assert sum(balances.values()) == 0 and len(balances) == 4
    # between hands the host (bob now) removes a seat; nobody else may
    remove = menu(table, "remove")
    assert "Only the host" in await reply_text(await fake.select("carol", remove,
                                                                 values=[option(remove, "Dave").value]))
    await ack(await fake.select("bob", remove, values=[option(remove, "Dave").value]))
    await fake.wait_for(lambda: "**Dave**" not in seats_field(table), what="dave's seat removed")
    assert sum(ledger(tmp_path).values()) == 0


async def test_play_again_opens_a_lobby_with_the_same_seats(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await ack(await fake.select("bob", menu(table, "cpu"), values=["hard"]))
    await fake.wait_for(lambda: "Goblin (hard)" in table.text, what="the computer player")
    sent = await fake.click("alice", table.button("Cancel"))  # bob is seated: it asks first
    await ack(sent)
    await ack(await fake.click("alice", (await sent.original()).button("Close the table")))
    await fake.wait_for(lambda: "Tonk table closed" in table.text, what="the table to close")
    assert "Only the players" in await reply_text(await fake.click("dave", table.button("Play again")))
    sent = await fake.click("bob", table.button("Play again"))
    await ack(sent)
    lobby = await sent.original()
    assert not lobby.ephemeral and "waiting for players" in lobby.text
    for who in ("alice", "bob"):
        assert f"<@{fake.user(who).id}>" in lobby.text
    assert "Goblin (hard)" in lobby.text and f"<@{fake.user('bob').id}> (host)" in lobby.text
    assert "already a table in this channel" in await reply_text(await fake.click("alice", table.button("Play again")))


async def test_a_draw_click_loads_its_table_once(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path, LOG_LEVEL="DEBUG")
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    user = turn_name(table).lower()
    hand = await open_hand(fake, user, table)
    await fake.settle()

    def loads() -> list[str]:
        return [line for line in process.output().splitlines() if re.search(r"table \d+: loaded", line)]

    before = len(loads())
    assert before and button(hand, "Draw") is not None
    await ack(await fake.click(user, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    await fake.wait_for(lambda: "drew from the stock" in table.text, what="the table to follow the draw")
    await fake.settle()
    assert len(loads()[before:]) == 1, loads()[before:]


async def test_a_new_player_s_pick_asks_first_and_a_practised_player_s_plays_at_once(fake_discord, bot_process,
                                                                                      tmp_path):
    from e2e_helpers import confirm_button

    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    name = turn_name(table)
    user = name.lower()
    hand = await open_hand(fake, user, table)
    if button(hand, "Draw") is not None:
        await ack(await fake.click(user, button(hand, "Draw")))
        await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    discard = menu(hand, "discard")
    first, second = discard.options[0], discard.options[-1]
    # a new player's pick waits for their word: the table has not moved
    await ack(await fake.select(user, discard, values=[first.value]))
    assert f"Discard {first.label}" in hand.text and confirm_button(hand) is not None
    assert turn_name(table) == name
    # Cancel, or another pick, changes nothing but the question
    await ack(await fake.click(user, button(hand, "Cancel")))
    assert confirm_button(hand) is None and turn_name(table) == name
    await ack(await fake.select(user, menu(hand, "discard"), values=[second.value]))
    assert f"Discard {second.label}" in hand.text
    await ack(await fake.click(user, confirm_button(hand)))
    await fake.wait_for(lambda: turn_name(table) != name, what="the confirmed discard")
    assert f"discarded {second.label}" in table.text
    # the other player answers "play it, and stop asking": their next picks play at once
    other = turn_name(table).lower()
    hand = await open_hand(fake, other, table)
    await ack(await fake.click(other, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    discard = menu(hand, "discard")
    await ack(await fake.select(other, discard, values=[discard.options[0].value]))
    await ack(await fake.click(other, button(hand, "Play it, and stop asking")))
    await fake.wait_for(lambda: turn_name(table) == name, what="the discard played")
    # the first player still confirms; then the other's next pick plays at once
    hand = await open_hand(fake, user, table)
    await ack(await fake.click(user, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")  # a full stock: the hand goes on
    discard = menu(hand, "discard")
    await ack(await fake.select(user, discard, values=[discard.options[0].value]))
    await ack(await fake.click(user, confirm_button(hand)))
    await fake.wait_for(lambda: turn_name(table) == other.capitalize(), what=f"{other}'s turn again")
    hand = await open_hand(fake, other, table)
    await ack(await fake.click(other, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    assert button(hand, "Ask before each pick") is not None  # the way back to being asked
    discard = menu(hand, "discard")
    await ack(await fake.select(other, discard, values=[discard.options[0].value]))
    await fake.wait_for(lambda: turn_name(table) == name, what="a pick that plays at once")
