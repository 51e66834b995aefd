"""What a newcomer meets through the fake Discord: `/tonk help` and its rules button."""

import re

import pytest

from e2e_helpers import ack, deal_until_in_play, open_hand, reply_text
from fakediscord import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL, CommandUnavailable
from test_bot_e2e import dealt_table, play_hand, start_bot

RULES_BUTTON = "Rules of the table here"


async def help_message(fake, user, channel="tonk"):
    sent = await fake.slash(user, channel, "tonk help")
    await ack(sent, expect=4)
    return await sent.original()


async def test_help_teaches_the_house_rules_here_and_its_button_shows_the_table(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    # no table here: the server's default rules (standard), privately
    lesson = await help_message(fake, "dave")
    assert lesson.ephemeral and lesson not in fake.visible("alice")
    for heading in ("Goal", "A turn", "Spreads and hits", "Dropping and being caught", "How a hand ends"):
        assert heading in lesson.text, heading
    assert "this server's default rules" in lesson.text and "at most 15" not in lesson.text
    assert "There is no table in this channel" in await reply_text(
        await fake.click("dave", lesson.button(RULES_BUTTON)))
    # a black company table for push-ups opens here: the lesson follows its house rules
    sent = await fake.slash("alice", "tonk", "tonk new", preset="black company", scoring="pushups", stake=3)
    await ack(sent)
    table = await sent.original()
    table_id = table.embeds[0]["footer"]["text"].split()[1]
    lesson = await help_message(fake, "dave")
    assert f"table {table_id} in this channel" in lesson.text
    assert "at most 15" in lesson.text and "push-ups" in lesson.text and "3 points" in lesson.text
    rules = await reply_text(await fake.click("dave", lesson.button(RULES_BUTTON)))
    assert f"House rules at table {table_id}" in rules and "15 or less" in rules
    # the button reads the channel when it is clicked: the earlier lesson's button after the table closed
    await ack(await fake.slash("alice", "tonk", "tonk end"))
    assert "There is no table in this channel" in await reply_text(
        await fake.click("dave", lesson.button(RULES_BUTTON)))
    # another channel's lesson is the server's, whatever table plays in #tonk
    other = await help_message(fake, "bob", "lobby")
    assert "this server's default rules" in other.text


async def test_a_manager_turns_pictures_off_and_on(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", stake=2))
    assert "Pictures\non" in shown
    with pytest.raises(CommandUnavailable, match="lacks permissions"):  # members do not see /tonk-admin
        await fake.slash("alice", "tonk", "tonk-admin settings", pictures=False)
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=False))
    assert "Pictures\noff (text only)" in shown and "Stake\n2" in shown
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))
    assert "Pictures\noff" in shown  # stored: a later look shows it
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=True))
    assert "Pictures\non" in shown


async def test_new_says_which_permissions_the_bot_lacks_instead_of_opening_a_table(fake_discord, bot_process,
                                                                                      tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    channel, me = fake.channel("tonk"), fake.guild.members[fake.bot_user.id]
    channel.set_permissions(me, deny=SEND_MESSAGES | EMBED_LINKS)
    refused = await reply_text(await fake.slash("alice", "tonk", "tonk new"))
    # without Send Messages, Discord takes Embed Links and Attach Files away too
    assert "I lack Send Messages, Embed Links and Attach Files here" in refused and "pictures:False" not in refused
    assert "no open table" in await reply_text(await fake.slash("alice", "tonk", "tonk end"))  # nothing opened
    # pictures need Attach Files, which a role of the bot may lack in one channel only
    channel.set_permissions(fake.guild.role(fake.bot_user.global_name or fake.bot_user.name), deny=ATTACH_FILES)
    channel.overwrites.pop(me.id)
    refused = await reply_text(await fake.slash("alice", "tonk", "tonk new"))
    assert "I lack Attach Files here" in refused and "pictures:False" in refused
    # the other channel is fine, and with pictures off #tonk is too
    sent = await fake.slash("bob", "lobby", "tonk new")
    await ack(sent)
    lobby = await sent.original()
    assert "waiting for players" in lobby.text
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", pictures=False))
    sent = await fake.slash("alice", "tonk", "tonk new")
    await ack(sent)
    table = await sent.original()
    assert "waiting for players" in table.text
    # the table it opened is alive: a join shows on the channel's message
    await ack(await fake.click("carol", table.button("Join")))
    await fake.wait_for(lambda: f"<@{fake.user('carol').id}>" in table.text, what="carol's join")
    # a channel the bot cannot see at all: View Channel is named first
    await ack(await fake.slash("bob", "lobby", "tonk end"))
    await fake.wait_for(lambda: "Tonk table closed" in lobby.text, what="the lobby table's close")
    fake.channel("lobby").set_permissions(fake.guild.everyone, deny=VIEW_CHANNEL)
    assert "I lack View Channel" in await reply_text(await fake.slash("admin", "lobby", "tonk new"))


def test_what_a_table_needs_depends_on_pictures_and_threads():
    import discord

    from cogs.tonk import missing_permissions

    enough = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True)
    assert missing_permissions(enough, pictures=True) == []
    no_files = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
    assert missing_permissions(no_files, pictures=True) == ["Attach Files"]
    assert missing_permissions(no_files, pictures=False) == []
    # in a thread the bot posts with Send Messages in Threads
    assert missing_permissions(no_files, pictures=False, thread=True) == ["Send Messages in Threads"]
    threads = discord.Permissions(view_channel=True, send_messages_in_threads=True, embed_links=True)
    assert missing_permissions(threads, pictures=False, thread=True) == []
    assert missing_permissions(discord.Permissions.none(), pictures=False) == [
        "View Channel", "Send Messages", "Embed Links"]


async def test_a_players_first_hand_shows_the_hint_and_later_hands_do_not(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    _, table, _ = await dealt_table(fake, bot_process, tmp_path, joiners=("bob",))
    first = re.search(r"hand (\d+)", table.text).group(1) == "1"  # else a tonk on the deal stored hand 1 already
    for user in ("alice", "bob"):
        hand = await open_hand(fake, user, table)
        assert ("New to Tonk?" in hand.text) is first, (user, first, hand.text)
        if first:
            assert "First hand? Draw" in hand.text and "/tonk help" in hand.text
    await play_hand(fake, table, ["alice", "bob"])
    after = int(re.search(r"hand (\d+)", table.text).group(1)) + 1
    await ack(await fake.click("bob", table.button("Next hand")))
    await fake.wait_for(lambda: f"hand {after}" in table.text, what="the next deal")
    await deal_until_in_play(fake, table)
    for user in ("alice", "bob"):
        assert "New to Tonk?" not in (await open_hand(fake, user, table)).text
