"""Live play as players meet it: the private hand follows the game, the ping opens it, Drop
asks once, and people join or leave between hands without stalling the table."""

import re

from e2e_helpers import (pick, DRAWN, ack, button, deal_until_in_play, drop_confirmed, hand_is_over, hand_line, hand_over, menu,
                         open_hand, play_simple_turn, seat_counts, turn_name)
from test_bot_e2e import dealt_table, open_table, start_bot, start_table

PLAYERS = ["alice", "bob", "carol"]

def field(message, name: str) -> str | None:
    return next((f["value"] for f in message.embeds[0]["fields"] if f["name"] == name), None)


def hand_cards(hand) -> list[str]:
    return hand_line(hand)


def private_messages(fake, user: str) -> list:
    return [m for m in fake.visible(user) if m.ephemeral]


def pings(fake) -> list:
    return [m for m in fake.visible("dave") if "your turn at the Tonk table" in m.content]


def seat_order(table) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", field(table, "Seats"))


def dealer(table) -> str:
    line = next(line for line in field(table, "Seats").splitlines() if "dealer" in line)
    return re.search(r"\*\*(.+?)\*\*", line).group(1)


async def test_the_private_hand_follows_the_game_without_pressing_my_hand_again(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake)
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    # everyone opens their hand once, at the start; nobody presses My hand again
    hands = {user: await open_hand(fake, user, table) for user in PLAYERS}
    asked_to_drop = 0
    for hand_number in range(3):
        await deal_until_in_play(fake, table)
        number = int(re.search(r"hand (\d+)", table.text).group(1))
        turns = 0
        while not hand_over(table):
            name = await fake.wait_for(lambda: hand_over(table) and "-" or turn_name(table), what="whose turn")
            if name == "-":
                break
            user = name.lower()
            hand = hands[user]
            # the hand shows the turn by itself, with the cards and the stock as they are now
            await fake.wait_for(lambda: "Your turn" in hand.text and f"hand {number}" in hand.text,
                                timeout=10, what=f"{user}'s hand to follow the game")
            assert len(hand_cards(hand)) == seat_counts(table)[name]
            assert field(hand, "Stock") == field(table, "Stock")
            # the turn ping names the deadline and carries the button that opens the hand
            ping = await fake.wait_for(lambda: len(pings(fake)) == 1 and pings(fake)[0], what="the ping")
            assert str(fake.user(user).id) in ping.content and "<t:" in ping.content
            assert ping.button("My hand") is not None and "Time runs out <t:" in table.text
            # pictures of the table and of the hand, shown in their embeds; the text stays
            for message, name_ in ((table, "table.png"), (hand, "hand.png")):
                assert message.attachment(name_).data.startswith(b"\x89PNG")
                assert message.embeds[0]["image"]["url"] == f"attachment://{name_}"
            drop = turns >= 2 * len(PLAYERS) and button(hand, "Drop") is not None
            if drop:
                # Drop asks once, showing the count, and changes nothing until confirmed
                await ack(await fake.click(user, button(hand, "Drop")))
                await fake.wait_for(lambda: button(hand, "Drop with") is not None, what="the confirm step")
                assert "Drop with a count of" in hand.text and button(hand, "Cancel") is not None
                assert "dropped" not in table.text
                asked_to_drop += 1
                await ack(await fake.click(user, button(hand, "Drop with")))
                await fake.wait_for(lambda: hand_over(table), timeout=10, what="the showdown after the drop")
                break
            await ack(await fake.click(user, button(hand, "Draw")))
            await fake.wait_for(lambda: DRAWN in hand.text or hand_is_over(hand), what="the draw")
            if DRAWN in hand.text:
                # the drawn card is named and marked
                drawn = re.search(r"You drew the \*\*(.+?)\*\*", hand.text).group(1)
                assert f"{drawn} (drawn)" in hand_cards(hand)
            await play_simple_turn(fake, user, table, hand=hand)
            turns += 1
            await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10,
                                what=f"the turn after {name}'s")
        # the hand's end shows in every private hand too
        for user in PLAYERS:
            await fake.wait_for(lambda: "This hand is over" in hands[user].text, timeout=10,
                                what=f"{user}'s hand to show the end")
        await ack(await fake.click("alice", table.button("Next hand")))
        await fake.wait_for(lambda: f"hand {number + 1}" in table.text, what="the next deal")
    # one private message each for the whole game: at most two per player per hand
    for user in PLAYERS:
        assert len(private_messages(fake, user)) == 1, user
    assert asked_to_drop >= 1


async def test_the_ping_opens_the_hand_and_people_join_and_leave_between_hands(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, _ = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    name = turn_name(table)
    user = name.lower()
    ping = await fake.wait_for(lambda: len(pings(fake)) == 1 and pings(fake)[0], what="the ping")
    # one click on the ping's button brings the hand
    sent = await fake.click(user, ping.button("My hand"))
    await ack(sent)
    hand = await sent.original()
    assert hand.ephemeral and "Your turn" in hand.text and hand not in fake.visible("dave")
    # the other player's click on it shows their own hand, not the player's
    other = "bob" if user == "alice" else "alice"
    sent = await fake.click(other, ping.button("My hand"))
    await ack(sent)
    assert "Not your turn" in (await sent.original()).text
    await drop_confirmed(fake, user, hand)
    await fake.wait_for(lambda: hand_over(table), timeout=10, what="the showdown")
    old_dealer = dealer(table)
    # the showdown offers Join: the newcomer sits at the dealer's right
    await ack(await fake.click("carol", table.button("Join")))
    await fake.wait_for(lambda: "Carol" in seat_order(table), what="carol seated")
    order = seat_order(table)
    assert order[(order.index("Carol") + 1) % 3] == old_dealer, order
    await ack(await fake.click("bob", table.button("Next hand")))
    await deal_until_in_play(fake, table, user="bob")
    assert seat_counts(table).get("Carol") == 5  # carol is dealt in
    # play the hand out with drops, then bob leaves between hands
    while not hand_over(table):
        name = await fake.wait_for(lambda: hand_over(table) and "-" or turn_name(table), what="whose turn")
        if name == "-":
            break
        await play_simple_turn(fake, name.lower(), table, drop=True)
        await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10, what="the turn")
    await ack(await fake.click("bob", table.button("Leave")))
    await fake.wait_for(lambda: "Bob" not in seat_order(table), what="bob gone")
    # a leave does not stall the table: the next hand is dealt to those still seated and played on
    await ack(await fake.click("carol", table.button("Next hand")))
    await deal_until_in_play(fake, table, user="carol")
    assert set(seat_counts(table)) == {"Alice", "Carol"}
    name = await fake.wait_for(lambda: turn_name(table), what="the first turn")
    await fake.wait_for(lambda: len(pings(fake)) == 1 and str(fake.user(name.lower()).id) in pings(fake)[0].content,
                        what="the ping for the next hand")
    await play_simple_turn(fake, name.lower(), table)
    await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10, what="the turn to pass")


async def test_after_the_hand_token_expires_the_next_ping_brings_the_hand_back(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    sent = await fake.slash("alice", "tonk", "tonk new", computers=1, level="easy")
    await ack(sent)
    table = await sent.original()
    await start_table(fake, table)
    await deal_until_in_play(fake, table)

    def alices_turn():
        return turn_name(table) == "Alice" and "may drop, draw or take" in table.text

    await fake.wait_for(alices_turn, timeout=10, what="alice's turn")
    hand = await open_hand(fake, "alice", table)
    before = table.text
    await play_simple_turn(fake, "alice", table, hand=hand)
    # fifteen minutes pass: Discord no longer takes the hand's token, so the bot cannot edit it
    fake.advance_time(901)
    await fake.wait_for(lambda: table.text != before, timeout=10, what="alice's play to show")
    await deal_until_in_play(fake, table)
    await fake.wait_for(alices_turn, timeout=15, what="alice's next turn")
    ping = await fake.wait_for(lambda: len(pings(fake)) == 1 and pings(fake)[0], what="the ping")
    # one click on the ping brings the hand back, as it is now
    sent = await fake.click("alice", ping.button("My hand"))
    await ack(sent)
    again = await sent.original()
    assert again is not hand and "Your turn" in again.text and button(again, "Draw") is not None
    # the bot tried the old token once (to edit the old message or to remove it), then let it go
    await fake.wait_for(lambda: any(v.kind == "expired_token" for v in fake.violations), what="the old token's try")
    assert 1 <= len(fake.take_violations("expired_token")) <= 2


async def test_with_pictures_off_messages_carry_text_only_and_turning_them_on_shows_them(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=False))
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    name = turn_name(table)
    hand = await open_hand(fake, name.lower(), table)
    assert not table.attachments and not hand.attachments and "image" not in table.embeds[0]
    assert "Your turn" in hand.text and "Seats" in table.text
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=True))
    await play_simple_turn(fake, name.lower(), table, hand=hand)
    await fake.wait_for(lambda: [a.filename for a in table.attachments] == ["table.png"], timeout=10,
                        what="the table's picture once pictures are on")


async def test_with_pictures_off_another_players_draw_edits_no_hand(fake_discord, bot_process, tmp_path):
    # text-only hands are edited only when their text changes, as hands with pictures are: another
    # player's draw changes nothing a watcher's hand shows (the edit said "remove the files" each time)
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=False))
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    player = turn_name(table).lower()
    watcher = "bob" if player == "alice" else "alice"
    watching = await open_hand(fake, watcher, table)
    edits = watching.edits
    stock = field(table, "Stock")
    hand = await open_hand(fake, player, table)
    await ack(await fake.click(player, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    await fake.wait_for(lambda: field(table, "Stock") != stock, timeout=10, what="the table to show the draw")
    await pick(fake, player, hand, menu(hand, "discard"), menu(hand, "discard").options[0].value)
    await fake.wait_for(lambda: "Your turn" in watching.text, timeout=10, what="the watcher's hand to follow")
    assert watching.edits == edits + 1 and not watching.attachments


async def test_another_players_move_edits_a_hand_and_keeps_its_picture(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, player = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    watcher = "bob" if player == "alice" else "alice"
    watching = await open_hand(fake, watcher, table)
    picture = watching.attachment("hand.png")
    table_picture = table.attachment("table.png")
    # each picture carries its description, the cards by name, for screen readers
    assert picture.description.startswith("Your hand.") and " of " in picture.description
    assert table_picture.description.startswith("Table picture: Hand 1, totals in points.")
    edits = watching.edits
    stock = field(table, "Stock")
    # the player to act draws and discards (two cards in and out: the hand cannot end)
    hand = await open_hand(fake, player, table)
    await ack(await fake.click(player, button(hand, "Draw")))
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw")
    # the table shows the draw: the edit that brings the live hands up to date with it is under way
    await fake.wait_for(lambda: field(table, "Stock") != stock, timeout=10, what="the table to show the draw")
    await pick(fake, player, hand, menu(hand, "discard"), menu(hand, "discard").options[0].value)
    # the watcher's hand follows: new text, the same file, still shown in the embed
    await fake.wait_for(lambda: "Your turn" in watching.text, timeout=10, what="the watcher's hand to follow")
    assert field(watching, "Stock") == field(table, "Stock")
    # the draw changed nothing the watcher's hand shows: one edit for the whole turn, the discard's
    assert watching.edits == edits + 1
    assert [a.id for a in watching.attachments] == [picture.id]
    # the table's text followed the draw and the discard; its picture (seats and spreads) was kept
    assert field(table, "Discard") in hand.text and [a.id for a in table.attachments] == [table_picture.id]
    assert table.embeds[0]["image"]["url"] == "attachment://table.png"
    assert watching.embeds[0]["image"]["url"] == "attachment://hand.png"
    # the watcher's own draw changes their cards: the picture is sent anew
    await ack(await fake.click(watcher, button(watching, "Draw")))
    await fake.wait_for(lambda: DRAWN in watching.text, what="the watcher's draw")
    drawn = watching.attachment("hand.png")
    assert drawn.id != picture.id and drawn.data.startswith(b"\x89PNG") and drawn.data != picture.data


async def test_opening_the_hand_again_replaces_the_old_message_and_the_new_one_follows(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, user = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    other = "bob" if user == "alice" else "alice"
    first = await open_hand(fake, other, table)
    second = await open_hand(fake, other, table)
    assert first.id != second.id and "Not your turn" in second.text
    # the older hand message is removed: one private hand per person and table
    await fake.wait_for(lambda: [m.id for m in private_messages(fake, other)] == [second.id],
                        what="the older hand message removed")
    # the player to act plays; the new message (edited through its own click's token) follows
    await play_simple_turn(fake, user, table)
    await fake.wait_for(lambda: "Your turn" in second.text or hand_is_over(second), timeout=10,
                        what=f"{other}'s new hand to follow the game")
    assert [m.id for m in private_messages(fake, other)] == [second.id]


RETIRED = "no longer follows the game"
NOTE = "stopped following the game"


async def test_a_hand_whose_token_runs_out_says_so_and_its_player_is_told_once_a_deal(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    # hands follow the game 6 s after their last click instead of 14 minutes (Discord's tokens: 15)
    await start_bot(bot_process, tmp_path, TONK_HAND_FOLLOW_SECONDS="6")
    table = await open_table(fake)
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    first = turn_name(table).lower()
    hands = {user: await open_hand(fake, user, table) for user in PLAYERS}
    # nobody clicks: before the tokens run out, every hand says it no longer follows, with one button back
    for user in PLAYERS:
        await fake.wait_for(lambda: RETIRED in hands[user].text, timeout=15, what=f"{user}'s hand to retire")
        assert [b.label for b in hands[user].buttons] == ["Show my hand"] and not hands[user].selects
        assert not hands[user].attachments  # no picture of cards that may no longer be the player's
    fake.advance_time(901)  # the tokens expire: the bot must not try them again (a violation fails the test)
    # one press on the retired message brings the live hand back, in the same message
    sent = await fake.click(first, button(hands[first], "Show my hand"))
    await ack(sent, expect=7)
    assert "Your turn" in hands[first].text and button(hands[first], "Draw") is not None
    await play_simple_turn(fake, first, table, hand=hands[first])
    second = await fake.wait_for(lambda: turn_name(table) not in (None, first.capitalize()) and turn_name(table),
                                 timeout=10, what="the next turn")
    second = second.lower()
    third = next(u for u in PLAYERS if u not in (first, second))
    # the two whose hands stopped following, not to act, are told in a short note with My hand
    # (sent with the channel's first update after their hands retired: one note for both, or, when
    # the machine is slow and that update came between their retirements, one each); the player to
    # act has the turn ping. Nobody is told twice in a deal.

    def notes(hand: int = 1):
        return [m for m in fake.visible("dave") if NOTE in m.content and f"Hand {hand} is on" in m.content]

    def told(hand: int = 1) -> list[str]:
        return [u for m in notes(hand) for u in PLAYERS if str(fake.user(u).id) in m.content]

    # (the draw's update of the channel waits for the turn's end: by then the second player is to
    # act, and their turn's ping brings their hand instead of the note)
    def second_told() -> bool:
        return second in told() or any(str(fake.user(second).id) in m.content for m in pings(fake))

    await fake.wait_for(lambda: third in told() and second_told(), timeout=10, what="the note")
    assert sorted(set(told())) == sorted(told()) and set(told()) <= {second, third}
    assert all(m.button("My hand") is not None for m in notes())
    note = next(m for m in notes() if str(fake.user(third).id) in m.content)
    sent = await fake.click(third, note.button("My hand"))
    await ack(sent)
    live = await sent.original()
    assert "Not your turn" in live.text and live.ephemeral
    # the second player plays from a fresh hand: the third's new hand follows, and nobody is told twice
    seconds_hand = await play_simple_turn(fake, second, table)
    await fake.wait_for(lambda: turn_name(table) != second.capitalize() or hand_over(table), timeout=10,
                        what="the turn after the second player's")
    await fake.wait_for(lambda: "Your turn" in live.text or hand_is_over(live) or RETIRED in live.text, timeout=10,
                        what="the third player's new hand to follow")
    assert told().count(third) == 1 and told().count(second) <= 1 and hands[third].text.count(RETIRED) == 1  # stays retired
    # the hand ends; a break longer than the hands follow: at the next deal, the two not to act are
    # told again (once for that deal), instead of reading "The next deal shows here" on a stale hand
    latest = {first: hands[first], second: seconds_hand, third: live}
    while not hand_over(table):
        name = await fake.wait_for(lambda: hand_over(table) and "-" or turn_name(table), what="whose turn")
        if name == "-":
            break
        latest[name.lower()] = await play_simple_turn(fake, name.lower(), table, drop=True)
        await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10, what="the turn")
    for user, hand in latest.items():
        if hand is not None:
            await fake.wait_for(lambda: RETIRED in hand.text, timeout=15, what=f"{user}'s last hand to retire")
    await ack(await fake.click(first, table.button("Next hand")))
    await fake.wait_for(lambda: "hand 2" in table.text, what="the next deal")
    if hand_over(table):
        return  # a tonk on the deal: no hand in play to be told about
    to_act = turn_name(table).lower()
    # every hand retired before this deal: one note for the two not to act
    note = await fake.wait_for(lambda: notes(2) and notes(2)[0], timeout=10, what="the next deal's note")
    assert str(fake.user(to_act).id) not in note.content
    assert all(str(fake.user(u).id) in note.content for u in PLAYERS if u != to_act)
    assert len(notes(2)) == 1 and sorted(told(2)) == sorted(u for u in PLAYERS if u != to_act)
