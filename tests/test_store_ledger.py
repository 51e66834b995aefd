"""Standings in both modes, ranks, and seasons: a reset archives, it never deletes."""

from conftest_store import GUILD, db, simple_hand  # noqa: F401 (db is a fixture)

from bot.store import (
    PlayerRef,
    balance_total,
    current_season,
    get_guild_settings,
    list_seasons,
    player_standing,
    recent_hands,
    record_finished_hand,
    standings,
    start_new_season,
    update_guild_settings,
)

ALICE, BOB, CLEO = (PlayerRef.human(1, "Alice"), PlayerRef.human(2, "Bob"), PlayerRef.human(3, "Cleo"))
BOT = PlayerRef.computer("Goblin")


async def play(db, hand_id, players, payments, pushups, *, guild_id=GUILD):  # noqa: F811
    record, result = simple_hand([p.display_name for p in players], payments, pushups=pushups)
    async with db.sessions() as session:
        assert await record_finished_hand(
            session, guild_id=guild_id, table_id=None, hand_id=hand_id, record=record, result=result,
            players=players, stake=1, scoring_mode="stakes",
        )


async def test_stakes_rank_high_balances_first_and_push_ups_low_totals_first(db):  # noqa: F811
    await play(db, "1", [ALICE, BOB, CLEO, BOT], [3, -1, -1, -1], [0, 10, 30, 20])
    await play(db, "2", [ALICE, BOB, CLEO, BOT], [-1, 3, -1, -1], [5, 0, 30, 20])
    async with db.sessions() as session:
        stakes = await standings(session, guild_id=GUILD, mode="stakes")
        pushups = await standings(session, guild_id=GUILD, mode="pushups")
        top_two = await standings(session, guild_id=GUILD, mode="pushups", limit=2)
    # Alice and Bob tie on 2 and share rank 1; Cleo and the bot tie on -2 and share rank 3.
    assert [(s.rank, s.display_name, s.balance) for s in stakes] == [
        (1, "Alice", 2), (1, "Bob", 2), (3, "Cleo", -2), (3, "Goblin", -2),
    ]
    assert [(s.rank, s.display_name, s.pushups) for s in pushups] == [
        (1, "Alice", 5), (2, "Bob", 10), (3, "Goblin", 40), (4, "Cleo", 60),
    ]
    assert top_two == pushups[:2]
    assert stakes[0].user_id == 1 and stakes[3].user_id is None and stakes[0].hands == 2 and stakes[0].wins == 1


async def test_one_players_row_and_rank(db):  # noqa: F811
    await play(db, "1", [ALICE, BOB, CLEO], [2, -1, -1], [0, 10, 30])
    async with db.sessions() as session:
        cleo = await player_standing(session, guild_id=GUILD, account="user:3", mode="pushups")
        bob = await player_standing(session, guild_id=GUILD, account="user:2", mode="stakes")
        nobody = await player_standing(session, guild_id=GUILD, account="user:99", mode="stakes")
    assert (cleo.rank, cleo.pushups, cleo.balance) == (3, 30, -1)
    assert (bob.rank, bob.balance) == (2, -1)
    assert nobody is None


async def test_display_names_follow_the_latest_hand(db):  # noqa: F811
    await play(db, "1", [ALICE, BOB], [1, -1], [0, 5])
    await play(db, "2", [PlayerRef.human(1, "Alice the Great"), BOB], [1, -1], [0, 5])
    async with db.sessions() as session:
        alice = await player_standing(session, guild_id=GUILD, account="user:1", mode="stakes")
    assert (alice.display_name, alice.balance, alice.hands) == ("Alice the Great", 2, 2)


async def test_servers_keep_separate_ledgers(db):  # noqa: F811
    await play(db, "1", [ALICE, BOB], [1, -1], [0, 5])
    await play(db, "2", [ALICE, BOB], [-1, 1], [5, 0], guild_id=GUILD + 1)
    async with db.sessions() as session:
        here = await player_standing(session, guild_id=GUILD, account="user:1", mode="stakes")
        there = await player_standing(session, guild_id=GUILD + 1, account="user:1", mode="stakes")
    assert (here.balance, there.balance) == (1, -1)


async def test_a_reset_archives_the_season_and_starts_the_next(db):  # noqa: F811
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=GUILD, stake=4, scoring_mode="pushups")
    await play(db, "1", [ALICE, BOB], [1, -1], [0, 5])
    async with db.sessions() as session:
        assert await start_new_season(session, guild_id=GUILD) == 2
        assert await current_season(session, guild_id=GUILD) == 2
        assert await standings(session, guild_id=GUILD, mode="stakes") == []
        old = await standings(session, guild_id=GUILD, mode="stakes", season=1)
        settings = await get_guild_settings(session, guild_id=GUILD)
    assert [(s.display_name, s.balance) for s in old] == [("Alice", 1), ("Bob", -1)]
    assert (settings.stake, settings.scoring_mode, settings.season) == (4, "pushups", 2)  # the reset keeps the settings

    await play(db, "2", [ALICE, BOB], [-3, 3], [9, 0])
    async with db.sessions() as session:
        now = await standings(session, guild_id=GUILD, mode="stakes")
        alice_old = await player_standing(session, guild_id=GUILD, account="user:1", mode="stakes", season=1)
        seasons = await list_seasons(session, guild_id=GUILD)
        hands = await recent_hands(session, guild_id=GUILD)
        second_season_hands = await recent_hands(session, guild_id=GUILD, season=2)
        assert await balance_total(session, guild_id=GUILD) == 0
        assert await balance_total(session, guild_id=GUILD, season=2) == 0
    assert [(s.display_name, s.balance) for s in now] == [("Bob", 3), ("Alice", -3)]
    assert (alice_old.balance, alice_old.rank) == (1, 1)
    assert [(s.season, s.is_current) for s in seasons] == [(1, False), (2, True)]
    assert seasons[0].started_at is None and seasons[0].ended_at == seasons[1].started_at
    assert [(h.hand_id, h.season) for h in hands] == [("2", 2), ("1", 1)]
    assert [h.hand_id for h in second_season_hands] == ["2"]


async def test_a_server_without_settings_can_be_reset_too(db):  # noqa: F811
    async with db.sessions() as session:
        assert [s.season for s in await list_seasons(session, guild_id=5)] == [1]
        assert await start_new_season(session, guild_id=5) == 2
        assert await start_new_season(session, guild_id=5) == 3
        settings = await get_guild_settings(session, guild_id=5)
        assert [s.season for s in await list_seasons(session, guild_id=5)] == [1, 2, 3]
        assert (settings.season, settings.stake, settings.rules) == (3, 1, {"preset": "standard"})
        started = settings.season_started_at
        changed = await update_guild_settings(session, guild_id=5, stake=2)  # a settings change keeps the season
    assert (changed.season, changed.stake, changed.season_started_at) == (3, 2, started)
