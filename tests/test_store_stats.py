"""Player stats, leaderboards and server stats from known hands, every figure worked out by hand.

The hands are the golden records of tests/records, replayed by the engine and stored as
the bot stores them. The seats' names map to accounts: Croaker is Alice, One-Eye is Bob,
Elmo is Cleo, Goblin is a computer player. Season 1, in order:

    1 drop_won_3p      Croaker wins a drop     [+2, -1, -1]         (Croaker, Goblin, One-Eye)
    2 run_out_3p       Croaker runs out        [+2, -1, -1]
    3 void_two_instants  void                  [0, 0, 0]
    4 tonk_out_double_3p Croaker tonks out     [+4, -2, -2]         (then written again: a retry)
Season 2:
    5 stock_out_2p     Croaker lowest          [+1, -1]             (Croaker, Goblin)
    6 drop_won_3p      Croaker wins a drop     [+2, -1, -1]
    7 instant_49_3p    Goblin's 49             [-2, +4, -2]
    8 caught_two_low_4p_stake5  Croaker caught by Goblin and One-Eye  [-20, +15, +15, -10]  (+ Elmo)
    9 washington_caught_3p  One-Eye caught by Croaker  [+6, 0, -6]
"""

import json
from pathlib import Path

import pytest
from conftest_store import GUILD, db  # noqa: F401 (db is a fixture)

from bot.store import (
    PlayerRef,
    Tally,
    balance_history,
    name_season,
    opponent_flows,
    player_stats,
    player_stats_from_hands,
    record_finished_hand,
    season_names,
    server_stats,
    standings,
    start_new_season,
    top,
)
from engine import Game

RECORDS = Path(__file__).parent / "records"
ALICE, BOB, CLEO = PlayerRef.human(1, "Alice"), PlayerRef.human(2, "Bob"), PlayerRef.human(3, "Cleo")
GOBLIN = PlayerRef.computer("Goblin")
SEATED_AS = {"Croaker": ALICE, "Goblin": GOBLIN, "One-Eye": BOB, "Elmo": CLEO}
SEASON_1 = ["drop_won_3p", "run_out_3p", "void_two_instants_3p", "tonk_out_double_3p"]
SEASON_2 = ["stock_out_2p", "drop_won_3p", "instant_49_3p", "caught_two_low_4p_stake5", "washington_caught_3p"]


async def store(db, hand_id: str, name: str) -> bool:  # noqa: F811
    record = json.loads((RECORDS / f"{name}.json").read_text())
    result = Game.from_record(record).outcome.result(dropper=True)
    async with db.sessions() as session:
        return await record_finished_hand(
            session, guild_id=GUILD, table_id=None, hand_id=hand_id, record=record, result=result,
            players=[SEATED_AS[player] for player in record["players"]], stake=record["stake"], scoring_mode="stakes",
        )


@pytest.fixture
async def played(db):  # noqa: F811
    for number, name in enumerate(SEASON_1, start=1):
        assert await store(db, f"h{number}", name)
    assert not await store(db, "h4", "tonk_out_double_3p")  # a retried write stores nothing
    async with db.sessions() as session:
        assert await start_new_season(session, guild_id=GUILD) == 2
    assert not await store(db, "h4", "tonk_out_double_3p")  # nor in the next season
    for number, name in enumerate(SEASON_2, start=len(SEASON_1) + 1):
        assert await store(db, f"h{number}", name)
    return db


async def stats_of(db, player, season=None):  # noqa: F811
    async with db.sessions() as session:
        return await player_stats(session, guild_id=GUILD, account=player.account, season=season)


async def test_a_humans_figures_this_season_and_all_time(played):
    alice = await stats_of(played, ALICE)
    assert (alice.display_name, alice.season) == ("Alice", 2)
    # season 2: won 5, 6, 9; lost 7 (Goblin's instant) and 8 (caught dropping)
    assert alice.this_season == Tally(
        hands=5, wins=3, net=1 + 2 - 2 - 20 + 6, pushups=32 + 40, tonk_outs=0, run_outs=0, drops_won=1,
        caught_drops=1, catches=1, instant_wins=0, biggest_win=6, biggest_loss=-20, best_streak=2,
    )
    assert alice.this_season.win_rate == pytest.approx(0.6)
    # all time adds season 1: three wins (drop, run out, tonk out) around a void hand
    assert alice.all_time == Tally(
        hands=9, wins=6, net=8 - 13, pushups=72, tonk_outs=1, run_outs=1, drops_won=2, caught_drops=1, catches=1,
        instant_wins=0, biggest_win=6, biggest_loss=-20, best_streak=5,
    )
    # W W (void) W | W W L L W: the streak of five runs across the new season; one win since the last loss
    assert alice.current_streak == 1


async def test_an_ended_seasons_figures_stay_viewable(played):
    alice = await stats_of(played, ALICE, season=1)
    assert alice.season == 1
    assert alice.this_season == Tally(
        hands=4, wins=3, net=8, pushups=0, tonk_outs=1, run_outs=1, drops_won=1, biggest_win=4, best_streak=3,
    )
    assert alice.all_time.hands == 9 and alice.current_streak == 1


async def test_a_computer_player_has_a_profile_too(played):
    goblin = await stats_of(played, GOBLIN)
    assert goblin.display_name == "Goblin"
    assert goblin.this_season == Tally(
        hands=5, wins=2, net=-1 - 1 + 4 + 15 + 0, pushups=29 + 29 + 19, instant_wins=1, catches=1,
        biggest_win=15, biggest_loss=-1, best_streak=2,
    )
    assert goblin.all_time == Tally(
        hands=9, wins=2, net=-4 + 17, pushups=116 + 77, instant_wins=1, catches=1, biggest_win=15, biggest_loss=-2,
        best_streak=2,
    )
    assert goblin.current_streak == 0  # the Washington hand: paid nothing, but did not win


async def test_net_against_each_opponent_names_the_favourite_and_the_nemesis(played):
    alice = await stats_of(played, ALICE)
    against = {o.display_name: (o.hands, o.net, o.season_hands, o.season_net) for o in alice.opponents}
    # Goblin: +1 +1 +0 +2 | +1 +1 -2 -10 (a third of the 30 stakes the caught drop paid) +0
    # Bob (One-Eye): +1 +1 +0 +2 | +1 +0 -10 +6; Cleo (Elmo) lost with Alice in her one hand
    assert against == {
        "Goblin": (9, pytest.approx(-6), 5, pytest.approx(-10)),
        "Bob": (8, pytest.approx(1), 4, pytest.approx(-3)),
        "Cleo": (1, 0, 1, 0),
    }
    assert [o.display_name for o in alice.opponents] == ["Goblin", "Bob", "Cleo"]  # most hands together first
    assert alice.favourite.display_name == "Bob" and alice.nemesis.display_name == "Goblin"


async def test_nobody_who_never_played_has_stats(played):
    assert await stats_of(played, PlayerRef.human(99, "Nobody")) is None


async def test_the_summaries_kept_per_hand_agree_with_aggregates_over_the_hands(played):
    async with played.sessions() as session:
        for season in (1, 2):
            for player in (ALICE, BOB, CLEO, GOBLIN):
                fast = await player_stats(session, guild_id=GUILD, account=player.account, season=season)
                slow = await player_stats_from_hands(session, guild_id=GUILD, account=player.account, season=season)
                assert fast == slow, (season, player)
            for row in await standings(session, guild_id=GUILD, mode="stakes", season=season):
                figures = (await player_stats(session, guild_id=GUILD, account=row.account, season=season)).this_season
                assert (row.balance, row.pushups, row.hands, row.wins, row.tonk_outs, row.catches, row.caught_drops) == (
                    figures.net, figures.pushups, figures.hands, figures.wins, figures.tonk_outs, figures.catches,
                    figures.caught_drops,
                ), (season, row.account)


async def leaderboard(db, category, season=None, caller=ALICE, **kwargs):  # noqa: F811
    async with db.sessions() as session:
        board = await top(session, guild_id=GUILD, category=category, season=season, account=caller.account, **kwargs)
    return [(e.rank, e.display_name, e.value) for e in board.entries], board.mine


async def test_top_by_net_this_season_with_the_callers_place(played):
    entries, mine = await leaderboard(played, "net", caller=CLEO)
    assert entries == [(1, "Goblin", 17), (2, "Bob", -1 - 2 + 15 - 6), (3, "Cleo", -10), (4, "Alice", -13)]
    assert (mine.rank, mine.value, mine.hands) == (3, -10, 1)


async def test_top_by_streak_shares_ranks_and_ended_seasons_keep_theirs(played):
    entries, mine = await leaderboard(played, "streak")
    assert entries == [(1, "Alice", 2), (1, "Goblin", 2), (3, "Bob", 1), (4, "Cleo", 0)]
    assert mine.rank == 1
    entries, _ = await leaderboard(played, "streak", season=1)
    assert entries == [(1, "Alice", 3), (2, "Bob", 0), (2, "Goblin", 0)]


async def test_top_by_win_rate_needs_the_minimum_hands(played):
    entries, mine = await leaderboard(played, "win_rate", caller=CLEO, min_hands=2)
    assert entries == [(1, "Alice", pytest.approx(3 / 5)), (2, "Goblin", pytest.approx(2 / 5)), (3, "Bob", pytest.approx(1 / 4))]
    assert mine is None  # Cleo played one hand


async def test_top_by_the_other_categories(played):
    assert (await leaderboard(played, "tonk_outs", season=1))[0][0] == (1, "Alice", 1)
    catches, _ = await leaderboard(played, "catches")
    assert catches == [(1, "Alice", 1), (1, "Bob", 1), (1, "Goblin", 1), (4, "Cleo", 0)]
    pushups, _ = await leaderboard(played, "pushups")  # low is good
    assert pushups == [(1, "Cleo", 35), (2, "Alice", 72), (3, "Goblin", 77), (4, "Bob", 36 + 54 + 0 + 2 * 31)]
    with pytest.raises(ValueError, match="category must be one of"):
        await leaderboard(played, "luck")


async def test_server_stats_count_endings_and_house_rules(played):
    async with played.sessions() as session:
        now = await server_stats(session, guild_id=GUILD)
        then = await server_stats(session, guild_id=GUILD, season=1)
    assert (now.season, now.season_hands, now.all_time_hands, now.players) == (2, 5, 9, 4)
    assert now.endings == (("caught", 2), ("drop_won", 1), ("instant", 1), ("stock_out", 1))
    assert now.house_rules == (('{"preset":"standard"}', 4), ('{"preset":"washington"}', 1))
    assert then.endings == (("drop_won", 1), ("run_out", 1), ("tonk_out", 1), ("void", 1))
    assert (then.season_hands, then.players) == (4, 3)


async def test_running_balance_and_flows_of_the_last_hands(played):
    async with played.sessions() as session:
        points = await balance_history(session, guild_id=GUILD, account=ALICE.account, limit=4)
        flows = await opponent_flows(session, account=ALICE.account, hand_pks=[p.hand_pk for p in points])
    # season 2 balance: +1 after hand 5, then +2, -2, -20, +6
    assert [(p.season, p.payment, p.season_balance) for p in points] == [(2, 2, 3), (2, -2, 1), (2, -20, -19), (2, 6, -13)]
    assert [flows[p.hand_pk] for p in points] == [
        {"cpu:Goblin": 1, "user:2": 1},
        {"cpu:Goblin": -2, "user:2": 0},
        {"cpu:Goblin": -10, "user:2": -10, "user:3": 0},
        {"cpu:Goblin": 0, "user:2": 6},
    ]


async def test_the_host_names_seasons_current_and_ended(played):
    async with played.sessions() as session:
        assert await name_season(session, guild_id=GUILD, name="  Spring   league ") == (2, "Spring league")
        assert await name_season(session, guild_id=GUILD, name="Winter", season=1) == (1, "Winter")
        assert await name_season(session, guild_id=GUILD, name="Winter cup", season=1) == (1, "Winter cup")
        with pytest.raises(ValueError, match="has not begun"):
            await name_season(session, guild_id=GUILD, name="Summer", season=3)
        with pytest.raises(ValueError, match="at least one character"):
            await name_season(session, guild_id=GUILD, name="   ")
        assert await season_names(session, guild_id=GUILD) == {1: "Winter cup", 2: "Spring league"}


async def test_summaries_equal_the_aggregates_over_many_random_hands_and_seasons(db):  # noqa: F811
    import random

    from conftest_store import ACCOUNTS, fake_hand

    rng = random.Random(13)
    written = []
    for number in range(240):
        if number in (80, 170):
            async with db.sessions() as session:
                await start_new_season(session, guild_id=GUILD)
        players = rng.sample(ACCOUNTS, rng.randint(2, 4))
        record, result = fake_hand(rng, len(players), stake=rng.choice([1, 2, 5]))
        record["players"] = [p.display_name for p in players]
        async with db.sessions() as session:
            for _ in range(1 + (number % 7 == 0)):  # every seventh hand is written twice
                wrote = await record_finished_hand(
                    session, guild_id=GUILD, table_id=None, hand_id=f"r{number}", record=record, result=result,
                    players=players, stake=1, scoring_mode="stakes",
                )
                written.append(wrote)
    assert written.count(True) == 240
    async with db.sessions() as session:
        for season in (1, 2, 3):
            for player in ACCOUNTS:
                fast = await player_stats(session, guild_id=GUILD, account=player.account, season=season)
                slow = await player_stats_from_hands(session, guild_id=GUILD, account=player.account, season=season)
                assert fast is not None
                assert fast.this_season == slow.this_season and fast.all_time == slow.all_time, (season, player)
                assert fast.current_streak == slow.current_streak
                assert [(o.account, o.hands, o.season_hands) for o in fast.opponents] == [
                    (o.account, o.hands, o.season_hands) for o in slow.opponents]
                for mine, theirs in zip(fast.opponents, slow.opponents):
                    assert mine.net == pytest.approx(theirs.net) and mine.season_net == pytest.approx(theirs.season_net)
        totals = await server_stats(session, guild_id=GUILD, season=3)
    assert totals.all_time_hands == 240 and totals.season_hands == 70
