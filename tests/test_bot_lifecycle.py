"""The bot across restarts and stops: turn pings sent once and cleaned up, a prompt exit."""

import asyncio
import contextlib
import re
import signal
import socket
import time

from e2e_helpers import ack, bot_env, end_table, open_hand, play_simple_turn, turn_name
from test_bot_e2e import dealt_table, open_table, start_bot, start_table


def black_hole(port: int = 0) -> socket.socket:
    """A listening socket that never accepts: connections to it hang, nothing ever answers."""
    hole = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    hole.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    hole.bind(("127.0.0.1", port))
    hole.listen(64)
    return hole


async def stop_promptly(process) -> int:
    """SIGTERM the bot; it must be gone within 15 s. Returns its exit status."""
    began = time.monotonic()
    code = await process.stop(timeout=60)
    took = time.monotonic() - began
    assert took < 15, f"the bot took {took:.1f}s to stop"
    return code


def pings(fake) -> list:
    """The turn pings anyone in the channel sees now."""
    return [m for m in fake.visible("dave") if "your turn at the Tonk table" in m.content]


async def test_a_restart_neither_pings_twice_nor_leaves_old_pings_and_end_removes_the_last(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process, table, _ = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    first_name = turn_name(table)
    first = await fake.wait_for(lambda: len(pings(fake)) == 1 and pings(fake)[0], what="the turn ping")
    assert str(fake.user(first_name.lower()).id) in first.content
    edits = table.edits
    await process.stop()
    await process.start()
    # the restarted bot redraws the table; the turn is the same, so it must not ping again
    await fake.wait_for(lambda: table.edits > edits, timeout=10, what="the table redrawn after the restart")
    await play_simple_turn(fake, first_name.lower(), table)
    await fake.wait_for(lambda: turn_name(table) not in (None, first_name) or "Next hand" in table.text,
                        timeout=10, what="the turn to pass")
    if turn_name(table) is not None:
        second = turn_name(table)
        await fake.wait_for(lambda: [str(fake.user(second.lower()).id) in m.content for m in pings(fake)] == [True],
                            timeout=10, what="one ping, for the next player only")
    else:
        await fake.wait_for(lambda: pings(fake) == [], timeout=10, what="no ping after the hand")
    assert first not in pings(fake)
    await end_table(fake, "alice")  # confirmed if a hand is in play
    await fake.wait_for(lambda: "closed" in table.text and pings(fake) == [], timeout=10,
                        what="/tonk end to remove the last ping")


def deadline(text: str) -> str | None:
    """The turn's deadline a message shows (Discord's relative timestamp)."""
    found = re.findall(r"<t:(\d+):R>", text)
    return found[0] if found else None


async def test_after_a_restart_the_ping_shows_the_deadline_the_table_shows(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process, table, player = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    ping = await fake.wait_for(lambda: len(pings(fake)) == 1 and pings(fake)[0], what="the turn ping")
    await fake.wait_for(lambda: deadline(table.text) is not None, what="the table's deadline")
    before = deadline(ping.content)
    assert before == deadline(table.text)
    await process.stop()
    await process.start()
    # the restarted bot times the turn afresh: the table shows a later deadline ...
    await fake.wait_for(lambda: deadline(table.text) not in (None, before), timeout=15,
                        what="the table's new deadline after the restart")
    # ... and the ping, the same message (the same turn: nobody is pinged twice), shows it too
    await fake.wait_for(lambda: deadline(ping.content) == deadline(table.text), timeout=10,
                        what="the ping to show the table's deadline")
    assert pings(fake) == [ping] and str(fake.user(player).id) in ping.content
    assert ping.button("My hand") is not None
    hand = await open_hand(fake, player, table)
    assert deadline(hand.text) == deadline(table.text)
    # the hand messages from before the restart no longer follow the game: the one not to act is
    # told in a short note with My hand (the player to act has the ping)
    other = "bob" if player == "alice" else "alice"
    note = await fake.wait_for(lambda: next((m for m in fake.visible("dave") if "stopped following" in m.content),
                                            None), what="the note after the restart")
    assert str(fake.user(other).id) in note.content and str(fake.user(player).id) not in note.content
    assert note.button("My hand") is not None


async def test_the_start_up_log_says_what_happened_in_plain_words(fake_discord, bot_process, tmp_path):
    process = await start_bot(bot_process, tmp_path)
    first = process.output()
    assert "database: created the bot's tables (schema version" in first
    # nothing about voice, which the bot never uses, and no warning on an ordinary start
    assert "voice" not in first.lower() and " WARNING " not in first, first
    await process.stop()
    await process.start()
    again = process.output()[len(first):]
    assert "created" not in again and "upgraded" not in again and " WARNING " not in again, again


async def test_moving_from_a_dev_server_to_global_commands_leaves_no_duplicates(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    guild = str(fake.guild.id)
    process = bot_process(env=bot_env(tmp_path, DEV_GUILD_ID=guild))
    await process.start()
    names = ["tonk", "tonk-admin"]
    await fake.wait_for(lambda: sorted(c["name"] for c in fake.guild_commands.get(fake.guild.id, [])) == names,
                        what="the commands synced to the dev server")
    assert fake.global_commands == []
    await process.stop()
    # global from now on; the old dev server's commands are cleared once
    process = bot_process(env=bot_env(tmp_path, CLEAR_GUILD_COMMANDS=guild))
    await process.start()
    await fake.wait_for(lambda: sorted(c["name"] for c in fake.commands(fake.guild)) == names, timeout=10,
                        what="one /tonk (and /tonk-admin) in the server: the global ones")
    assert fake.guild_commands.get(fake.guild.id) == [] and sorted(c["name"] for c in fake.global_commands) == names
    assert f"removed this bot's server-level commands in server {guild}" in process.output()
    await ack(await fake.slash("alice", "tonk", "tonk help"))


async def test_sigterm_while_discord_is_unreachable_exits_promptly(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    port = fake.port
    await fake.stop()  # Discord is gone: the gateway drops ...
    hole = black_hole(port)  # ... and its address swallows connections without ever answering
    try:
        await asyncio.sleep(2.0)  # the bot notices and tries to reconnect: its requests hang
        code = await stop_promptly(process)
    finally:
        hole.close()
    assert code == 0, process.output()[-2000:]


async def test_sigterm_while_discord_never_answers_at_start_exits_promptly_and_cleanly(
        fake_discord, bot_process, tmp_path):
    hole = black_hole()
    port = hole.getsockname()[1]
    try:
        process = bot_process(env=bot_env(tmp_path, DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
                                          DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/gateway"))
        await process.start(wait=False)
        for _ in range(300):  # until it is logging in: that request hangs
            if "logging in" in process.output():
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        code = await stop_promptly(process)
    finally:
        hole.close()
    assert code == 0 and "Traceback" not in process.output(), process.output()[-3000:]


async def test_a_stop_leaves_no_hand_message_claiming_to_follow_the_game(fake_discord, bot_process, tmp_path):
    """The tokens that edit the private hands go with the process: as the bot stops, every live
    hand says it no longer follows the game, and its one button brings the live hand back once the
    bot is up again."""
    fake = fake_discord
    process, table, player = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    hands = {user: await open_hand(fake, user, table) for user in ("alice", "bob")}
    assert all("no longer follows" not in hand.text for hand in hands.values())
    await stop_promptly(process)
    for user, hand in hands.items():
        assert "no longer follows the game: the bot stopped" in hand.text, (user, hand.text)
        assert [b.label for b in hand.buttons] == ["Show my hand"] and not hand.selects and not hand.attachments
    await process.start()
    await fake.wait_for(lambda: deadline(table.text) is not None, timeout=15, what="the table after the restart")
    sent = await fake.click(player, hands[player].buttons[0])
    await ack(sent, expect=7)
    assert "Your turn" in hands[player].text and any(b.label == "Draw" for b in hands[player].buttons)


def kept_tokens(tmp_path) -> int:
    """How many live hands' tokens the bot's SQLite file keeps (read as any other client would)."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(tmp_path / "tonk.db", timeout=5)) as db:
        return db.execute("SELECT count(*) FROM hand_tokens").fetchone()[0]


async def test_a_killed_bots_live_hands_follow_the_game_again_after_the_next_start(fake_discord, bot_process,
                                                                                   tmp_path):
    """Killed (no goodbye), the bot could not mark its live hands; they kept the tokens it kept in
    its database. The next start takes them up: each follows the game again without a click (the
    waiting player's old message says it is their turn), and nobody is told in the channel that
    their hand stopped following."""
    fake = fake_discord
    process, table, player = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    other = "bob" if player == "alice" else "alice"
    hands = {user: await open_hand(fake, user, table) for user in ("alice", "bob")}
    await fake.wait_for(lambda: kept_tokens(tmp_path) == 2, timeout=15, what="both hands' tokens kept")
    await process.stop(sig=signal.SIGKILL)
    assert all("no longer follows" not in hand.text for hand in hands.values())
    await process.start()
    await fake.wait_for(lambda: deadline(table.text) is not None, timeout=15, what="the table after the start")
    await play_simple_turn(fake, player, table, hand=hands[player])  # from the message the process before showed
    await fake.wait_for(lambda: "Your turn" in hands[other].text, timeout=15,
                        what="the waiting player's old message following the game")
    assert turn_name(table).lower() == other
    log = process.output()
    assert "took up 2 live hands kept by the process before" in log, log[-3000:]
    notes = [m for m in fake.messages.values() if "stopped following the game" in (m.content or "")]
    assert not notes, [m.content for m in notes]
    assert "Traceback" not in log
    fake.assert_no_violations()


async def test_a_killed_bots_hands_past_their_time_say_they_no_longer_follow_after_the_next_start(
        fake_discord, bot_process, tmp_path):
    """A kept hand whose time to follow is over (or nearly) by the next start (here 8 s:
    TONK_HAND_FOLLOW_SECONDS; its token is written about 5 s after the click) is marked then, as it
    would have been: it no longer follows, with its one button back."""
    from e2e_helpers import deal_until_in_play

    fake = fake_discord
    process = await start_bot(bot_process, tmp_path, TONK_HAND_FOLLOW_SECONDS="8")
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    hands = {user: await open_hand(fake, user, table) for user in ("alice", "bob")}
    await fake.wait_for(lambda: kept_tokens(tmp_path) == 2, timeout=15, what="both hands' tokens kept")
    await process.stop(sig=signal.SIGKILL)
    assert all("no longer follows" not in hand.text for hand in hands.values())
    await process.start()
    for user, hand in hands.items():
        await fake.wait_for(lambda: "no longer follows the game" in hand.text, timeout=15,  # noqa: B023
                            what=f"{user}'s kept hand marked")
        assert [b.label for b in hand.buttons] == ["Show my hand"], (user, hand.text)
    await fake.wait_for(lambda: kept_tokens(tmp_path) == 0, timeout=10, what="the marked hands' tokens gone")
    assert "Traceback" not in process.output()
