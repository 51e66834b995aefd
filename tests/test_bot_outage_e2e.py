"""Discord's bad days (issue 35): its REST answers 503 for a while. The clicks' answers still land
(interaction callbacks are spared, as on Discord's usual incidents), while every edit of the table's
channel message and of the live private hands fails. When Discord answers again, each message shows
the newest table (not a queue of old states), the hands that were live still follow the game, and
the bot's log has one warning per table, no traceback: the trouble was Discord's."""

import asyncio
import re
import time

from e2e_helpers import deal_until_in_play, open_hand, play_simple_turn, turn_name
from test_bot_commands import command_text
from test_bot_e2e import dealt_table, open_table, start_bot, start_table


async def timed_table(fake, bot_process, tmp_path, *, seconds: int):
    """A running bot whose server's turns last `seconds`, and a two-seat table dealt and in play."""
    process = await start_bot(bot_process, tmp_path)
    await command_text(fake, "admin", "tonk-admin settings", turn_timer=seconds)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    return process, table


async def test_an_outage_of_edits_ends_with_every_message_showing_the_newest_table(fake_discord, bot_process,
                                                                                   tmp_path):
    fake = fake_discord
    process, table, first = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    second = "bob" if first == "alice" else "alice"
    waiting = await open_hand(fake, second, table)  # a live hand that follows the game
    assert "Your turn" not in waiting.text

    fake.rest_outage(503, "PATCH *")
    await play_simple_turn(fake, first, table)  # the clicks are answered: the player sees their own plays
    await fake.wait_for(lambda: any(r.status == 503 and r.route.startswith("PATCH /channels/")
                                    for r in fake.requests), what="a channel edit refused by the outage")
    await fake.wait_for(lambda: any(r.status == 503 and r.route.startswith("PATCH /webhooks/")
                                    for r in fake.requests), what="a live hand's edit refused by the outage")
    assert turn_name(table).lower() == first  # the channel could not follow meanwhile
    assert "Your turn" not in waiting.text

    fake.rest_back()
    await fake.wait_for(lambda: turn_name(table).lower() == second, timeout=20, what="the table after the outage")
    await fake.wait_for(lambda: "Your turn" in waiting.text, timeout=20, what="the live hand after the outage")
    await play_simple_turn(fake, second, table, hand=waiting)  # and the game goes on from it
    await fake.wait_for(lambda: turn_name(table).lower() == first, what="the next turn")

    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert log.count("Discord failed an update") == 1, log[-3000:]
    assert "Discord answers again" in log
    fake.assert_no_violations()


async def test_no_turn_times_out_while_discord_refuses_the_tables_updates(fake_discord, bot_process, tmp_path):
    """A 6 s turn begins while Discord's REST refuses every edit (the clicks' answers still land):
    the next player's hand and the table cannot show that it is their turn, so their timer stands
    still as long as the table's updates fail, and goes on with the time it had left once one lands;
    the table then says why."""
    fake = fake_discord
    process, table = await timed_table(fake, bot_process, tmp_path, seconds=6)
    first = turn_name(table).lower()
    second = "bob" if first == "alice" else "alice"
    waiting = await open_hand(fake, second, table)  # looking: no ping, their hand would say it

    fake.rest_outage(503, "PATCH *")
    await play_simple_turn(fake, first, table)  # the clicks are answered; nothing else reaches Discord
    began = time.monotonic()
    await fake.wait_for(lambda: any(r.status == 503 and r.route.startswith("PATCH /channels/")
                                    for r in fake.requests), what="the table's edit refused")
    await asyncio.sleep(9)  # real time: the bot's own timer is what is held against the outage
    assert turn_name(table).lower() == first and "Your turn" not in waiting.text  # nobody could see it
    assert "time ran out" not in table.text
    fake.rest_back()
    await fake.wait_for(lambda: "Your turn" in waiting.text, timeout=30, what="the live hand after the outage")
    await fake.wait_for(lambda: turn_name(table).lower() == second, timeout=10, what="the table after the outage")
    back = time.monotonic()
    assert "time ran out" not in table.text, "the turn timed out while nobody could see it"
    away = int(re.search(r"Discord was unreachable for (\d+) seconds: the timer paused", table.text)[1])
    assert 8 <= away <= back - began + 1, (away, back - began)
    await fake.wait_for(lambda: "time ran out" in table.text, timeout=20, what="the turn's time-out after the outage")
    assert time.monotonic() - back > 1.0, "the timer did not go on with the time it had left"
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert "its clock stands still meanwhile" in log
    assert log.count("turn timed out (the bot played it)") == 1  # the operator's line: the one after the outage
    fake.assert_no_violations()


async def test_no_turn_times_out_while_discords_gateway_is_down(fake_discord, bot_process, tmp_path):
    """A 6 s turn, and Discord's gateway down for 9 s of it: nobody could click, so the turn does
    not time out meanwhile; once Discord is back the timer goes on with the time it had left."""
    fake = fake_discord
    process, table = await timed_table(fake, bot_process, tmp_path, seconds=6)
    sleeper = turn_name(table)
    began = time.monotonic()
    await fake.gateway_outage()
    await asyncio.sleep(9)  # real time: the bot's own timers are what is held against the outage
    assert "time ran out" not in table.text and turn_name(table) == sleeper
    identifies = fake.identify_count
    fake.gateway_back()
    await fake.wait_for_bot(timeout=40)
    back = time.monotonic()
    assert fake.identify_count <= identifies + 1  # one new session at most (discord.py identifies after a refused upgrade)

    await fake.wait_for(lambda: "Discord was unreachable for" in table.text, timeout=10,
                        what="the table saying why its timer stood still")
    shown = time.monotonic()
    away = int(re.search(r"Discord was unreachable for (\d+) seconds: the timer paused", table.text)[1])
    # from the drop until the bot heard it was back (its on_resumed, a moment after the fake's
    # RESUMED on a busy machine): never longer than until the table said so
    assert 8 <= away <= shown - began + 1, (away, back - began, shown - began)
    await fake.wait_for(lambda: "time ran out" in table.text, timeout=20, what="the turn's time-out after the outage")
    assert time.monotonic() - back > 1.0, "the timer did not go on with the time it had left"
    await fake.wait_for(lambda: turn_name(table) != sleeper, what="the next turn")
    assert "Discord was unreachable" not in table.text  # the next turn's timer never stood still
    assert time.monotonic() - began > 6 + 9 - 1
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert " ERROR " not in log, log[-3000:]  # discord.py's failed reconnects are Discord's trouble: warnings
    assert "Discord is back after" in log



async def test_an_outage_that_begins_while_discord_py_waits_to_say_ready_is_not_over_when_it_does(
        fake_discord, bot_process, tmp_path):
    """discord.py says it is ready about 2 s after Discord's READY (it waits for the servers to
    arrive). The gateway going down in those 2 s is not over when that late "ready" comes: the
    turn still does not time out while nobody can click."""
    fake = fake_discord
    process, table = await timed_table(fake, bot_process, tmp_path, seconds=6)
    sleeper = turn_name(table)
    identifies = fake.identify_count
    await fake.invalid_session(resumable=False)  # the bot identifies again: a new READY
    await fake.wait_for_bot(identifies=identifies + 1)
    await fake.gateway_outage()  # at once: discord.py's "ready" comes after it
    await asyncio.sleep(9)  # real time: the bot's own timers are what is held against the outage
    assert "time ran out" not in table.text and turn_name(table) == sleeper
    fake.gateway_back()
    await fake.wait_for_bot(timeout=40)
    await fake.wait_for(lambda: "time ran out" in table.text, timeout=20, what="the turn's time-out after the outage")
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert log.count("Discord is back after") == 1, log[-3000:]  # once: the new session's late "ready" was not it


async def test_a_click_whose_answer_discord_refused_is_answered_again_or_shown_at_the_next_look(
        fake_discord, bot_process, tmp_path):
    """Discord answers 503 to the bot's interaction callbacks. For a moment: the bot answers again
    within the click's 3 s and the player sees their draw. For longer than 3 s: the player saw
    "This interaction failed", but the draw was applied and their next look (My hand) shows it; the
    turn goes on from there and the log holds no traceback."""
    fake = fake_discord
    from e2e_helpers import DRAWN, button

    process, table, first = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    hand = await open_hand(fake, first, table)
    fake.rest_outage(503, "POST /interactions/*/callback")
    draw = await fake.click(first, button(hand, "Draw"))
    await fake.wait_for(lambda: any(r.status == 503 and r.route.endswith("/callback") for r in fake.requests),
                        what="the click's answer refused")
    fake.rest_back()
    await fake.wait_for(lambda: draw.acked, what="the click answered again within its 3 s")
    await fake.wait_for(lambda: DRAWN in hand.text, what="the draw shown")
    await play_simple_turn(fake, first, table, hand=hand)
    await fake.wait_for(lambda: turn_name(table).lower() != first, what="the next turn")
    second = turn_name(table).lower()

    hand = await open_hand(fake, second, table)
    fake.rest_outage(503, "POST /interactions/*/callback")
    refused = sum(r.status == 503 for r in fake.requests)
    draw = await fake.click(second, button(hand, "Draw"))
    await fake.wait_for(lambda: sum(r.status == 503 for r in fake.requests) > refused, what="the answer refused")
    fake.advance_time(3.5)  # the click's 3 s pass: the player sees "This interaction failed"
    fake.rest_back()
    await fake.settle()
    assert not draw.acked
    look = await open_hand(fake, second, table)  # the next look shows what was applied
    assert DRAWN in look.text, look.text
    await play_simple_turn(fake, second, table, hand=look)
    await fake.wait_for(lambda: turn_name(table).lower() == first, what="the turn after")
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert "Discord did not take the answer to a click" in log
    failed = [v for v in fake.violations if v.kind in ("late_ack", "not_acknowledged")]
    assert failed and all(v.interaction_id == draw.id for v in failed)  # only the click Discord's outage failed
    fake.violations[:] = [v for v in fake.violations if v not in failed]
    fake.assert_no_violations()


async def test_a_deleted_table_message_is_posted_again_once(fake_discord, bot_process, tmp_path):
    """A moderator deletes the table's message mid-hand: Discord answers the bot's next edit 404
    (Unknown Message), and the bot posts the table again, once, and follows the game there; the
    hand goes on. Deleted a second time, it stays deleted (a 404 is not tried forever), and the
    players still play from their private hands, until someone asks for a table (/tonk new):
    refused, since one is open, and the open table is posted again for them."""
    fake = fake_discord
    process, table, first = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    channel = table.channel

    def tables_shown():
        return [m for m in fake.messages.values()
                if m.channel is channel and not m.deleted and not m.ephemeral and "Seats" in m.text]

    hand = await open_hand(fake, first, table)
    await fake.delete_message(table)
    await play_simple_turn(fake, first, table, hand=hand)
    await fake.wait_for(lambda: len(tables_shown()) == 1, timeout=15, what="the table posted again")
    again = tables_shown()[0]
    assert again.id != table.id
    await fake.wait_for(lambda: turn_name(again) and turn_name(again).lower() != first, what="the turn after, shown")
    second = turn_name(again).lower()
    await play_simple_turn(fake, second, again)
    await fake.wait_for(lambda: turn_name(again).lower() == first, what="the repost following the game")

    hand = await open_hand(fake, first, again)
    await fake.delete_message(again)
    await play_simple_turn(fake, first, again, hand=hand)  # the private hand plays on without the table
    await fake.wait_for(lambda: "Your turn" not in hand.text, what="the turn played from the private hand")
    await fake.wait_for(lambda: "its message is gone" in process.output(), timeout=15, what="the second 404 let be")
    await fake.settle()
    assert not tables_shown()  # not posted a second time
    assert process.output().count("the table is posted again") == 1

    # a player who finds no table asks for one: the open table comes back for them
    from e2e_helpers import ack
    sent = await fake.slash(second, "tonk", "tonk new")
    await ack(sent)
    assert "There is already a table in this channel" in (await sent.original()).text
    await fake.wait_for(lambda: len(tables_shown()) == 1, timeout=15, what="the table posted again for /tonk new")
    shown = tables_shown()[0]
    await fake.wait_for(lambda: turn_name(shown) is not None, what="the table's turn shown")
    await fake.wait_for(lambda: process.output().count("the table is posted again") == 2, what="its log line")
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    assert log.count("the table is posted again") == 2 and "its message is gone" in log
    gone = [v for v in fake.violations if v.kind == "unknown_message"]
    assert 1 <= len(gone) and all(v.route.startswith("PATCH /channels/") for v in gone)
    fake.violations[:] = [v for v in fake.violations if v not in gone]
    fake.assert_no_violations()


async def test_a_slow_discord_still_has_every_click_answered_in_time_at_every_table(fake_discord, bot_process,
                                                                                   tmp_path):
    """Discord answers every request 2 s late (an interaction's answer still counts when it
    arrives). Two tables play at once: every click is acknowledged within its 3 s, neither table's
    updates wait behind the other's, and both channel messages end on the newest table."""
    fake = fake_discord
    import asyncio

    from e2e_helpers import ack, deal_until_in_play

    process, table, _ = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    sent = await fake.slash("carol", "lobby", "tonk new")
    await ack(sent)
    other = await sent.original()
    await ack(await fake.click("dave", other.button("Join")))
    await ack(await fake.click("carol", other.button("Start")))
    await fake.wait_for(lambda: "Tonk · hand" in other.text, what="the second table's deal")
    await deal_until_in_play(fake, other, user="carol")

    fake.slow_api(2.0)
    clicks = len(fake.interactions)

    async def two_turns(message):
        for _ in range(2):
            name = turn_name(message)
            await play_simple_turn(fake, name.lower(), message)
            await fake.wait_for(lambda: turn_name(message) != name, timeout=30, what=f"the table after {name}'s turn")

    await asyncio.gather(two_turns(table), two_turns(other))
    fake.api_fast()
    answered = [i for i in list(fake.interactions.values())[clicks:]]
    assert len(answered) >= 8 and all(i.acked for i in answered)
    assert max(i.ack_latency for i in answered) < 3.0, sorted(i.ack_latency for i in answered)[-3:]
    log = process.output()
    assert "Traceback" not in log, log[-3000:]
    fake.assert_no_violations()
