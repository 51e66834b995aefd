"""Closing a table others are playing or waiting at asks first, through the fake Discord: the
lobby's Cancel with people seated, /tonk end during a hand; a late "yes" closes nothing new."""

import re

from e2e_helpers import ack, deal_until_in_play, reply_text
from test_bot_e2e import open_table, start_bot, start_table


async def test_cancel_of_a_lobby_with_people_in_it_asks_first(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob", "carol"))
    sent = await fake.click("alice", table.button("Cancel"))
    assert await ack(sent) == 4  # a private question, not an edit of the lobby
    question = await sent.original()
    assert question.ephemeral and question not in fake.visible("bob")
    assert "Close table" in question.text and "Bob and Carol are seated" in question.text
    assert [b.label for b in question.buttons] == ["Close the table", "Keep it open"]
    await ack(await fake.click("alice", question.button("Keep it open")), expect=7)
    assert question.text == "Nothing changed." and not question.buttons
    assert "waiting for players" in table.text and table.button("Join")  # the lobby is as it was
    # asked again and confirmed: the lobby closes
    question = await (await fake.click("alice", table.button("Cancel"))).original()
    await ack(await fake.click("alice", question.button("Close the table")), expect=7)
    assert question.text.startswith("Table") and "closed" in question.text
    await fake.wait_for(lambda: "closed" in table.text and [b.label for b in table.buttons] == ["Play again"],
                        what="the lobby to close")


async def test_a_yes_given_before_the_deal_does_not_close_the_hand_in_play(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    question = await (await fake.click("alice", table.button("Cancel"))).original()
    assert "Bob is seated" in question.text
    await start_table(fake, table)  # the host deals instead
    late = await fake.click("alice", question.button("Close the table"))
    assert "moved on since you asked" in await reply_text(late)
    assert "Tonk · hand" in table.text and "closed" not in table.text


async def test_tonk_end_during_a_hand_asks_first_and_a_lone_host_closes_at_once(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, joiners=("bob",))
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    assert "Only the host" in await reply_text(await fake.slash("bob", "tonk", "tonk end"))  # refused, not asked
    sent = await fake.slash("alice", "tonk", "tonk end")
    question = await sent.original()
    assert question.ephemeral and re.search(r"Hand \d+ is in play: it pays nothing", question.text)
    await ack(await fake.click("alice", question.button("Keep it open")), expect=7)
    assert "closed" not in table.text
    question = await (await fake.slash("alice", "tonk", "tonk end")).original()
    await ack(await fake.click("alice", question.button("Close the table")), expect=7)
    await fake.wait_for(lambda: "closed" in table.text and "pays nothing" in table.text, what="the end")
    # a lobby nobody else waits at closes without a question, by Cancel and by /tonk end
    lobby = await open_table(fake, joiners=())
    assert await ack(await fake.click("alice", lobby.button("Cancel"))) == 7
    await fake.wait_for(lambda: "closed" in lobby.text, what="the lobby to close")
    await open_table(fake, joiners=())
    assert "closed" in await reply_text(await fake.slash("alice", "tonk", "tonk end"))
