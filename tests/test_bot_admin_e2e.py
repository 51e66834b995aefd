"""Who sees which command, and where: the managers' /tonk-admin group, guild-only commands, a
DM or a voice channel's chat answered in one line, and deleting a server's data, through the fake."""

import discord
import pytest

from e2e_helpers import ack, reply_text
from fakediscord import CommandUnavailable
from fakediscord.model import GUILD_VOICE, MANAGE_GUILD
from test_bot_e2e import PLAYERS, open_table, play_hand, start_bot, start_table

from cogs.common import NOT_IN_DMS
from cogs.tonk import NOT_IN_VOICE
from i18n import ENGLISH


def options(command) -> set[str]:
    return {o["name"] for o in command.get("options") or []}


async def test_the_commands_are_registered_guild_only_and_the_admin_group_for_managers_only(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await fake.wait_for_commands("tonk", "tonk-admin")
    commands = {c["name"]: c for c in fake.commands(fake.guild)}
    assert set(commands) == {"tonk", "tonk-admin"}
    tonk, admin = commands["tonk"], commands["tonk-admin"]
    # members see /tonk; only Manage Server sees /tonk-admin (a server may change that in its settings)
    assert tonk["default_member_permissions"] is None
    assert admin["default_member_permissions"] == str(MANAGE_GUILD) == str(discord.Permissions(manage_guild=True).value)
    assert options(admin) == {"settings", "season", "forget"}
    assert not options(tonk) & {"settings", "season", "forget"}
    for command in (tonk, admin):  # in servers only: not in DMs, not installable on a user's account
        assert command["contexts"] == [0] and command["integration_types"] == [0]
    # as members see them
    with pytest.raises(CommandUnavailable, match="lacks permissions"):
        await fake.slash("alice", "tonk", "tonk-admin settings")
    with pytest.raises(CommandUnavailable, match="lacks permissions"):
        await fake.slash("alice", "tonk", "tonk-admin forget")
    assert "Tonk settings for this server" in await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))
    # Discord offers no /tonk in a DM; a client that still shows an old registration gets one line
    with pytest.raises(CommandUnavailable, match="not offered in DMs"):
        await fake.slash_dm("alice", "tonk new")
    for command in ("tonk new", "tonk help", "tonk ledger", "tonk-admin forget"):
        sent = await fake.slash_dm("alice", command, old_client=True)
        assert await reply_text(sent) == ENGLISH.render(NOT_IN_DMS), command
        assert (await sent.original()).ephemeral


async def test_a_voice_channels_chat_is_refused_in_one_line_and_opens_nothing(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    fake.guild.add_channel("hangout", type=GUILD_VOICE)
    await start_bot(bot_process, tmp_path)
    sent = await fake.slash("alice", "hangout", "tonk new")
    assert await reply_text(sent) == ENGLISH.render(NOT_IN_VOICE) and (await sent.original()).ephemeral
    assert not [m for m in fake.visible("bob", "hangout")]
    # the rest works there (nothing in them needs a table), and the text channel is free as ever
    assert "Tonk" in await reply_text(await fake.slash("alice", "hangout", "tonk help"))
    await open_table(fake, joiners=("bob",))


async def test_forget_asks_first_then_closes_the_table_and_deletes_the_servers_data(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", stake=3, turn_timer=60))
    await ack(await fake.slash("admin", "tonk", "tonk-admin season", name="Opening night"))
    table = await open_table(fake, stake=2)
    await start_table(fake, table)
    await play_hand(fake, table, PLAYERS)  # one hand on the ledger
    await fake.wait_for(lambda: "Next hand" in [b.label for b in table.buttons], what="the hand to end")
    await ack(await fake.click("alice", table.button("Next hand")))
    await fake.wait_for(lambda: "hand 2" in table.text, what="the second deal")
    assert "Alice" in await reply_text(await fake.slash("carol", "tonk", "tonk ledger"))

    # asked first: keeping changes nothing
    sent = await fake.slash("admin", "tonk", "tonk-admin forget")
    question = await sent.original()
    assert question.ephemeral and "cannot be undone" in question.text
    assert [b.label for b in question.buttons] == ["Delete this server's data", "Keep everything as it is"]
    await ack(await fake.click("admin", question.button("Keep everything as it is")), expect=7)
    assert question.text == "Nothing changed." and not question.buttons
    assert "Alice" in await reply_text(await fake.slash("carol", "tonk", "tonk ledger"))
    assert "hand 2" in table.text and table.buttons  # the table plays on

    # confirmed: the table closes (its message says so), then every row of the server is gone
    question = await (await fake.slash("admin", "tonk", "tonk-admin forget")).original()
    done = await fake.click("admin", question.button("Delete this server's data"))
    await ack(done)
    await fake.wait_for(lambda: question.text.startswith("Done:"), what="the deletion")
    assert "1 table, 1 hand" in question.text and "its settings" in question.text and not question.buttons
    await fake.wait_for(lambda: "closed" in table.text and "pays nothing" in table.text, what="the table to close")
    assert not table.buttons
    ledger = await reply_text(await fake.slash("carol", "tonk", "tonk ledger"))
    assert "Alice" not in ledger and "No hands played yet" in ledger
    assert "No hands played" in await reply_text(await fake.slash("carol", "tonk", "tonk history"))
    settings = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))
    assert "Stake\n1" in settings and "90 s" in settings  # the defaults again
    # the channel is free, and the server starts afresh
    await open_table(fake, joiners=("bob",))


async def test_a_new_season_asks_first(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    sent = await fake.slash("admin", "tonk", "tonk-admin settings", new_season=True, stake=4)
    question = await sent.original()
    assert "Start a new season?" in question.text and "Stake\n4" in question.text  # the rest is done at once
    await ack(await fake.click("admin", question.button("Keep everything as it is")), expect=7)
    assert question.content == "Nothing changed." and "Stake\n4" in question.text and not question.buttons
    assert "season 1" in await reply_text(await fake.slash("carol", "tonk", "tonk ledger"))
    question = await (await fake.slash("admin", "tonk", "tonk-admin settings", new_season=True)).original()
    await ack(await fake.click("admin", question.button("Start a new season")), expect=7)
    assert "season 2 begins" in question.text and not question.buttons
    assert "season 2" in await reply_text(await fake.slash("carol", "tonk", "tonk ledger"))
