"""The stats service and what it looks like: profile, leaderboard and server embeds, the chart.

The hands are the known ones of test_store_stats (its `played` fixture); the figures
checked here are the ones worked out by hand there, as a reader sees them.
"""

import io

import pytest
from PIL import Image
from test_store_stats import ALICE, BOB, GOBLIN, played  # noqa: F401 (a fixture)
from conftest_store import GUILD, db  # noqa: F401 (db is a fixture)

from bot.errors import UserError
from bot.stats import StatsService, rules_name
from cogs import stats_chart, stats_render
from i18n import ENGLISH


def text_of(embed) -> str:
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    for field in data.get("fields", []):
        parts += [field["name"], field["value"]]
    return "\n".join(parts + [data.get("footer", {}).get("text", "")])


async def test_a_profile_shows_the_season_and_all_time_figures(played):  # noqa: F811
    service = StatsService(played)
    await service.name_season(guild_id=GUILD, name="Spring league")
    report = await service.player(guild_id=GUILD, account=ALICE.account)
    text = text_of(stats_render.player_embed(report, server="Black Company", chart=True))
    assert "Alice · Tonk stats" in text and "Season 2: Spring league · Black Company" in text
    assert "**5 hands**, won 3 (60%)" in text and "**9 hands**, won 6 (67%)" in text
    assert "Net **-13 points** · 72 push-ups" in text and "Net **-5 points** · 72 push-ups" in text
    assert "Drops won 1 · caught dropping 1" in text and "Drops won 2 · caught dropping 1" in text
    assert "Biggest win +6 points · loss -20 points" in text and "Best streak 5 wins" in text
    assert "Current streak\n1 win" in text
    assert "Favourite opponent\nBob: +1 point over 8 hands" in text and "Nemesis\nGoblin: -6 points over 9 hands" in text
    assert stats_render.player_embed(report, server="x", chart=True).image.url == "attachment://balance.png"


async def test_an_ended_season_is_labelled_and_a_future_one_refused(played):  # noqa: F811
    service = StatsService(played)
    report = await service.player(guild_id=GUILD, account=GOBLIN.account, season=1)
    assert str(report.season) == "Season 1 (ended)" and report.stats.this_season.net == -4
    with pytest.raises(UserError, match="Season 3 has not begun"):
        await service.top(guild_id=GUILD, category="net", season=3)
    with pytest.raises(UserError, match="Nobody has not played"):
        await service.player(guild_id=GUILD, account="user:99", name="Nobody")


async def test_the_leaderboard_and_the_server_as_a_reader_sees_them(played):  # noqa: F811
    service = StatsService(played)
    board = text_of(stats_render.top_embed(await service.top(guild_id=GUILD, category="net", account=BOB.account),
                                           server="Black Company"))
    assert ("**1.** Goblin: +17 points · 5 hands\n**2.** Bob: +6 points · 4 hands\n**3.** Cleo: -10 points · 1 hand\n"
            "**4.** Alice: -13 points") in board
    assert "Your place\n**2.** Bob: +6 points" in board and "The same points as /tonk ledger" in board
    rate = text_of(stats_render.top_embed(await service.top(guild_id=GUILD, category="win_rate", min_hands=5,
                                                            account=BOB.account), server="x"))
    assert "**1.** Alice: 60%" in rate and "You need 5 hands in this season to rank by win rate." in rate
    server = text_of(stats_render.server_embed(await service.server(guild_id=GUILD), server="Black Company"))
    assert "5 this season · 9 all time" in server and "4 this season" in server
    assert "Caught!: 40% (2)" in server and "Stock out: 20% (1)" in server
    assert "standard: 4 hands\nwashington: 1 hand" in server


def test_rules_are_named_by_their_preset_and_changes():
    assert rules_name('{"preset":"standard"}') == "standard"
    # the same rules as seattle (7 cards, all tens and faces instead of 49/50: RULES.md section 11)
    assert rules_name('{"hand_size":7,"instant_hands":[{"hand":"all_tens_and_faces","pays":2,"when":"deal"}],'
                      '"preset":"standard"}') == "seattle"
    assert rules_name('{"hand_size":7,"preset":"standard"}') == "standard + 1 change"
    assert rules_name('{"jokers":2,"preset":"standard"}') == "standard + 1 change"
    assert rules_name("not json") == "unknown rules"


async def test_the_chart_by_season_and_by_opponent(played):  # noqa: F811
    service = StatsService(played)
    by_season = await service.chart(guild_id=GUILD, account=ALICE.account, name="Alice")
    # season 1: +2, +4, +4 (void), +8; season 2: +1, +3, +1, -19, -13
    assert [(ENGLISH.render(line.label), line.hands, line.values) for line in by_season.lines] == [
        ("Season 1", (1, 2, 3, 4), (2, 4, 4, 8)),
        ("Season 2", (5, 6, 7, 8, 9), (1, 3, 1, -19, -13)),
    ]
    by_opponent = await service.chart(guild_id=GUILD, account=ALICE.account, by="opponent", hands=5)
    assert [(ENGLISH.render(line.label), line.values) for line in by_opponent.lines] == [
        ("vs Goblin", (1, 2, 0, -10, -10)),
        ("vs Bob", (1, 1, -9, -3)),
        ("vs Cleo", (0,)),
    ]
    png = stats_chart.balance_png(by_season, server="Black Company")
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size) == ("PNG", (stats_chart.WIDTH, stats_chart.HEIGHT))
    assert len(image.getcolors(maxcolors=1 << 20)) > 50  # lines, text and grid, not a blank picture
    with pytest.raises(UserError, match="by season or opponent"):
        await service.chart(guild_id=GUILD, account=ALICE.account, by="moon")


def test_nice_ticks_cover_the_values():
    assert stats_chart.nice_ticks(-13, 8) == [-15, -10, -5, 0, 5, 10]
    assert stats_chart.nice_ticks(1, 9, count=8, integer=True) == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert stats_chart.nice_ticks(0, 0) == [-1, -0.5, 0, 0.5, 1]


async def test_computer_players_are_listed_and_found_by_name(played):  # noqa: F811
    from bot.stats import computer_account as _computer_account

    service = StatsService(played)
    assert await service.computers(guild_id=GUILD) == [("cpu:Goblin", "Goblin")]
    # picked from the list (the account) or typed (the name): the same profile
    for typed in ("cpu:Goblin", " Goblin "):
        account, name = _computer_account(typed)
        report = await service.player(guild_id=GUILD, account=account, name=name)
        assert (report.stats.display_name, report.stats.all_time.net) == ("Goblin", 13)
    with pytest.raises(UserError, match="Nobody has not played"):
        await service.player(guild_id=GUILD, account=_computer_account("Nobody")[0], name="Nobody")
    with pytest.raises(UserError, match="not a computer player's name"):
        _computer_account("cpu:")


def test_net_against_an_opponent_reads_as_whole_points_or_one_decimal():
    assert stats_render.net_points(0.1 + 0.2 + 0.7) == "+1 point"  # a float's noise is no fraction
    assert stats_render.net_points(-10 / 3) == "-3.3 points" and stats_render.net_points(0.0) == "0 points"
