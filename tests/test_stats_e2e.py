"""Stats through the fake Discord: after a game, /tonk stats and /tonk top show its figures, and the chart arrives."""

import io
import re

import pytest

from PIL import Image

from e2e_helpers import ack, reply_text
from engine.help import points
from fakediscord import CommandUnavailable
from test_bot_e2e import PLAYERS, open_table, play_hand, start_bot, start_table


async def command_message(fake, user, command, **options):
    sent = await fake.slash(user, "tonk", command, **options)
    await ack(sent, expect=4)
    return await sent.original()


async def test_after_a_game_stats_top_and_the_chart_show_its_figures(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    await start_bot(bot_process, tmp_path)
    table = await open_table(fake, stake=2, preset="standard")
    await start_table(fake, table)
    totals = {p.capitalize(): 0 for p in PLAYERS}
    payments = await play_hand(fake, table, PLAYERS)
    for name, amount in payments.items():
        totals[name] += amount
    await ack(await fake.click("bob", table.button("Next hand")))
    await fake.wait_for(lambda: "hand 2" in table.text, what="the second deal")
    payments = await play_hand(fake, table, PLAYERS)
    for name, amount in payments.items():
        totals[name] += amount
    assert sum(totals.values()) == 0

    # carol's own profile, with her balance chart as an image
    profile = await command_message(fake, "carol", "tonk stats player")
    assert "Carol · Tonk stats" in profile.text
    assert f"Net **{points(totals['Carol'], sign=True)}**" in profile.text
    assert profile.text.count("**2 hands**") == 2  # this season and all time
    chart = profile.attachment("balance.png")
    image = Image.open(io.BytesIO(chart.data))
    assert (image.format, image.size) == ("PNG", (400, 300))
    assert chart.description.startswith("Chart: ") and "Carol" in chart.description  # read by screen readers
    assert profile.embeds[0]["image"]["url"] == "attachment://balance.png"

    # someone else's, asked for by member, without a chart
    bobs = await command_message(fake, "alice", "tonk stats player", player="bob", chart="none")
    assert "Bob · Tonk stats" in bobs.text and f"Net **{points(totals['Bob'], sign=True)}**" in bobs.text
    assert bobs.attachments == []

    # the leaderboard: everyone's net, highest first, and the caller's place
    board = await command_message(fake, "alice", "tonk top")
    lines = re.findall(r"\*\*(\d+)\.\*\* (\w+): ([+-]?\d+) points? · 2 hands", board.text)
    assert {name: int(net) for _, name, net in lines} == totals
    assert [int(net) for _, _, net in lines] == sorted(totals.values(), reverse=True)
    assert re.search(r"Your place\n\*\*\d\.\*\* Alice", board.text)

    server = await command_message(fake, "bob", "tonk stats server")
    assert "2 this season · 2 all time" in server.text and "3 this season" in server.text
    assert "standard: 2 hands" in server.text

    # a player with no hands is told so, ephemerally; only a manager names a season
    assert "has not played a hand" in await reply_text(await fake.slash("dave", "tonk", "tonk stats player"))
    with pytest.raises(CommandUnavailable, match="lacks permissions"):  # members do not see /tonk-admin
        await fake.slash("alice", "tonk", "tonk-admin season", name="Opening night")
    named = await command_message(fake, "admin", "tonk-admin season", name="Opening night")
    assert "Season 1: Opening night" in named.text
    assert "Season 1: Opening night" in (await command_message(fake, "carol", "tonk top", category="streak")).text
    # season: offers the server's seasons by name while typing
    typing = await fake.autocomplete("carol", "tonk", "tonk top", "season")
    await ack(typing, expect=8)
    assert [(c["name"], c["value"]) for c in typing.choices] == [("Season 1: Opening night", 1)]
