"""The bot explained through the fake Discord: /tonk help's buttons-and-commands half follows
the table and the server, and the table's Rules button shows its rules, in play and between hands."""

import re

from e2e_helpers import ack, deal_until_in_play, reply_text
from test_bot_e2e import open_table, play_hand, start_bot, start_table


async def test_help_explains_the_bot_under_the_table_here(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    await ack(await fake.slash("admin", "tonk", "tonk-admin settings", turn_timer=40))
    sent = await fake.slash("dave", "tonk", "tonk help")
    await ack(sent, expect=4)
    lesson = await sent.original()
    assert [e["title"] for e in lesson.embeds] == ["Tonk in two minutes", "Playing here: the buttons and the commands"]
    for words in ("**My hand**", "**Refresh**", "40 s a turn", "With 10 s left", "**I'm back**", "**Next hand**",
                  "**Side bets: in/out**", "/tonk bigone", "**Rules**", "`/tonk-admin forget`", "`/tonk top`",
                  "Slap!**: not played at this table"):
        assert words in lesson.text, words
    # a slapping table here: the help says how Slap! works at it
    await open_table(fake, preset="slap", joiners=("bob",))
    lesson = await (await fake.slash("dave", "tonk", "tonk help")).original()
    assert "the first to press it lays the card there" in lesson.text


async def test_the_rules_button_shows_this_tables_rules_in_play_and_between_hands(fake_discord, bot_process,
                                                                                  tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, preset="chicago", joiners=("bob",))
    assert table.embeds[0]["footer"]["text"].endswith("· chicago · stake 1")
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    table_id = re.search(r"table (\d+)", table.embeds[0]["footer"]["text"]).group(1)
    for viewer in ("carol", "bob"):  # anyone who sees the table, seated or not
        sent = await fake.click(viewer, table.button("Rules"))
        assert await ack(sent) == 4
        rules = await sent.original()
        assert rules.ephemeral and rules not in fake.visible("alice")
        assert f"House rules at table {table_id}" in rules.text
        assert "Deuces and jokers are wild" in rules.text and "later ones single" in rules.text
    await play_hand(fake, table, ["alice", "bob"])
    await fake.wait_for(lambda: "Next hand" in [b.label for b in table.buttons], what="the hand's end")
    assert "later ones single" in await reply_text(await fake.click("dave", table.button("Rules")))
