"""The bot's commands and table lifecycle through the fake Discord: settings, rules,
history downloads, ending tables, idle lobbies, the turn timer and a rejected token."""

import asyncio
import json
import re
import sys

import pytest

from fakediscord import CommandUnavailable
from e2e_helpers import ack, bot_env, deal_until_in_play, menu, play_simple_turn, reply_text, turn_name
from test_bot_e2e import open_table, start_bot, start_table


async def command_text(fake, user, command, **options):
    sent = await fake.slash(user, "tonk", command, **options)
    await ack(sent)
    return (await sent.original()).text


async def test_settings_are_for_managers_and_change_new_tables(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    with pytest.raises(CommandUnavailable, match="lacks permissions"):  # members do not even see it
        await fake.slash("alice", "tonk", "tonk-admin settings", stake=5)
    # a server may show /tonk-admin to more members (its Integrations settings): it still checks
    next(c for c in fake.commands(fake.guild) if c["name"] == "tonk-admin")["default_member_permissions"] = None
    refused = await fake.slash("alice", "tonk", "tonk-admin settings", stake=5)
    assert "Manage Server" in await reply_text(refused)
    # one answer per refusal: the tree's error handler alone reports it. A second report would
    # be a followup; with the token expired on the fake's clock it would be refused and recorded
    # as a violation (which fails the test at teardown) instead of waiting here to see none come.
    fake.advance_time(fake.token_lifetime + 1)
    assert refused.followups == []
    text = await command_text(fake, "admin", "tonk-admin settings", preset="black company", stake=5, scoring="pushups",
                              turn_timer=30)
    assert "black company" in text and "5" in text and "push-ups" in text and "30 seconds" in text
    # a new table takes the server's defaults
    sent = await fake.slash("bob", "tonk", "tonk new")
    await ack(sent)
    lobby = await sent.original()
    assert "black company" in lobby.text and "push-ups" in lobby.text
    assert "15 or less on the deal" in lobby.text
    # rules: of the table here, and of any preset
    assert "15 or less" in await command_text(fake, "carol", "tonk rules")
    assert "7 cards" in await command_text(fake, "carol", "tonk rules", preset="seattle")


async def test_tables_only_in_allowed_channels_and_one_per_channel(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await command_text(fake, "admin", "tonk-admin settings", allow_channel=fake.channel("lobby"))
    assert "can't be opened in this channel" in await command_text(fake, "alice", "tonk new")
    sent = await fake.slash("alice", "lobby", "tonk new")
    await ack(sent)
    assert "waiting for players" in (await sent.original()).text
    sent = await fake.slash("bob", "lobby", "tonk new")
    await ack(sent)
    assert "already a table in this channel" in (await sent.original()).text


async def test_lobby_leave_cancel_add_computer_and_end(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await ack(await fake.select("bob", menu(table, "cpu"), values=["hard"]))
    await fake.wait_for(lambda: "Goblin (hard)" in table.text, what="the computer player")
    await ack(await fake.select("bob", menu(table, "cpu"), values=["Expert computer player"]))
    await fake.wait_for(lambda: "One-Eye (expert)" in table.text, what="the expert computer player")
    await ack(await fake.click("bob", table.button("Leave")))
    await fake.wait_for(lambda: f"<@{fake.user('bob').id}>" not in table.text, what="bob leaving")
    assert "Only the host or a member with Manage Server" in await reply_text(
        await fake.click("carol", table.button("Cancel")))
    await ack(await fake.click("alice", table.button("Cancel")))
    await fake.wait_for(lambda: "closed" in table.text, what="the table to close")
    assert [b.label for b in table.buttons] == ["Play again"]  # the closed table offers only that
    # the channel is free again; /tonk end by a moderator closes a table in play
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    assert "Only the host" in await command_text(fake, "bob", "tonk end")
    question = await (await fake.slash("admin", "tonk", "tonk end")).original()  # a hand in play: asks first
    assert "is in play" in question.text
    await ack(await fake.click("admin", question.button("Close the table")), expect=7)
    assert "closed" in question.text
    await fake.wait_for(lambda: "closed" in table.text and "pays nothing" in table.text, what="the end")
    assert "no open table" in await command_text(fake, "admin", "tonk end")


async def test_history_lists_hands_and_downloads_a_replayable_record(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    while "Next hand" not in [b.label for b in table.buttons]:
        name = await fake.wait_for(lambda: turn_name(table), what="whose turn")
        await play_simple_turn(fake, name.lower(), table, drop=True)
        await fake.wait_for(lambda: turn_name(table) != name or "Next hand" in [b.label for b in table.buttons],
                            timeout=10, what="the drop")
    text = await command_text(fake, "carol", "tonk history")
    hand_id = re.search(r"`([0-9]+-1)`", text).group(1)
    sent = await fake.slash("carol", "tonk", "tonk history", hand=hand_id)
    await ack(sent)
    reply = await sent.original()
    record = json.loads(reply.attachment(f"hand-{hand_id}.json").text())
    assert record["format"] == "tonk-hand/1" and record["players"] == ["Alice", "Bob"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "engine", "replay", str(path),
                                                stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    result = json.loads(out)
    assert result["outcome"] in ("drop_won", "caught", "instant", "void") and sum(result["payments"]) == 0
    assert "no hand" in await command_text(fake, "carol", "tonk history", hand="999-9")


async def test_an_idle_lobby_closes(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path, TONK_LOBBY_IDLE="2")
    table = await open_table(fake, joiners=())
    await fake.wait_for(lambda: "idle" in table.text, timeout=10, what="the idle lobby to close")
    assert [b.label for b in table.buttons] == ["Play again"]  # the only control of a closed table


async def test_turn_timer_warns_plays_for_the_absent_player_and_hands_the_seat_to_a_computer(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await command_text(fake, "admin", "tonk-admin settings", turn_timer=6)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    sleeper = turn_name(table)
    awake = "Bob" if sleeper == "Alice" else "Alice"
    sleeper_user = fake.user(sleeper.lower())
    # the warning names the sleeper shortly before the time runs out
    ping = await fake.wait_for(lambda: next((m for m in fake.visible("dave")
                                             if "your turn at the Tonk table" in m.content), None), what="the ping")
    warning = await fake.wait_for(lambda: next((m for m in fake.visible("dave") if "seconds left" in m.content
                                                and str(sleeper_user.id) in m.content), None),
                                  timeout=8, what="the warning")
    # a new message (an edit would not notify), with the button to the hand; it replaces the ping
    assert warning is not ping and warning.button("My hand") is not None
    await fake.wait_for(lambda: ping.deleted, what="the ping replaced by the warning")
    for timeouts in range(1, 4):
        await fake.wait_for(lambda: turn_name(table) == awake, timeout=12, what=f"time-out {timeouts}")
        assert f"{sleeper} drew from the stock" in table.text and f"{sleeper} discarded" in table.text
        assert "(time ran out: the bot played)" in table.text  # the log says who played it
        assert not any(m.content.startswith("<@") and "Drop" in m.content for m in fake.visible("dave"))
        if timeouts < 3:
            await play_simple_turn(fake, awake.lower(), table)
            await fake.wait_for(lambda: turn_name(table) == sleeper, timeout=10, what="the sleeper's turn")
    await fake.wait_for(lambda: "away: computer plays" in table.text and "I'm back" in
                        [b.label for b in table.buttons], timeout=10, what="the computer to take the seat")
    # the computer plays the sleeper's turn as soon as it comes round
    await play_simple_turn(fake, awake.lower(), table)
    await fake.wait_for(lambda: turn_name(table) == awake or "Next hand" in [b.label for b in table.buttons],
                        timeout=10, what="the computer's turn")
    assert "only" not in await reply_text(await fake.click(sleeper.lower(), table.button("I'm back")))
    await fake.wait_for(lambda: "away: computer plays" not in table.text, timeout=10, what="the seat back")


async def test_the_shortest_turn_timer_warns_each_player_before_it_plays_for_them(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await command_text(fake, "admin", "tonk-admin settings", turn_timer=3)  # the least /tonk settings takes
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    channel = fake.channel("tonk")

    def turn_messages():
        """The bot's pings and warnings in the channel, removed ones too, oldest first."""
        return [m for m in channel.messages
                if "your turn at the Tonk table" in m.content or "left in your turn" in m.content]

    # nobody clicks: two turns pass, each pinged, warned, then played by the timer
    await fake.wait_for(lambda: len(turn_messages()) >= 4, timeout=20, what="two turns' pings and warnings")
    first, second = turn_messages()[:2], turn_messages()[2:4]
    players = []
    for ping, warning in (first, second):
        user_id = re.match(r"<@(\d+)>", ping.content).group(1)
        assert "your turn at the Tonk table" in ping.content
        # the warning follows its turn's ping (which it replaces) and comes before the time-out,
        # which passes the turn: the next ping comes only after it
        assert warning.content.startswith(f"<@{user_id}>, ⏰ 1 second left in your turn"), warning.content
        assert warning.button("My hand") is not None
        await fake.wait_for(lambda: ping.deleted, what="the ping replaced by the warning")
        players.append(user_id)
    assert players[0] != players[1]  # the time-out passed the turn to the other player
    for user_id in players:
        name = next(n for n in ("alice", "bob") if str(fake.user(n).id) == user_id).capitalize()
        await fake.wait_for(lambda: f"{name} drew from the stock" in table.text, timeout=10,
                            what=f"the timer's play for {name}")
    assert "(time ran out: the bot played)" in table.text


async def test_a_rejected_token_exits_2_with_a_message(fake_discord, bot_process, tmp_path):
    process = bot_process(env=bot_env(tmp_path, DISCORD_TOKEN="not-the-right-token"))
    await process.start(wait=False)
    code = await asyncio.wait_for(process.process.wait(), timeout=30)
    assert code == 2
    # one line, as every refusal: not after the INFO lines of the start-up's steps that went well
    lines = [line for line in process.output().splitlines() if line.strip() and not line.startswith("=====")]
    assert len(lines) == 1, process.output()
    assert lines[0].startswith("tonk-bot: Discord rejected DISCORD_TOKEN: check the token in .env")
    assert [v.kind for v in fake_discord.take_violations("unauthorized")] == ["unauthorized"]
