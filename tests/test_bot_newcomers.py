"""What a newcomer meets through the fake Discord: `/tonk help` and its rules button."""

from e2e_helpers import ack, reply_text
from test_bot_e2e import start_bot

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
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk settings", stake=2))
    assert "Pictures\non" in shown
    assert "Manage Server" in await reply_text(await fake.slash("alice", "tonk", "tonk settings", pictures=False))
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk settings", pictures=False))
    assert "Pictures\noff (text only)" in shown and "Stake\n2" in shown
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk settings"))
    assert "Pictures\noff" in shown  # stored: a later look shows it
    shown = await reply_text(await fake.slash("admin", "tonk", "tonk settings", pictures=True))
    assert "Pictures\non" in shown
