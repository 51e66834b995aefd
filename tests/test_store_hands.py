"""Finished hands: exactly once per hand id, zero-sum, and nothing lost under concurrency."""

import asyncio
import random
from collections import Counter, defaultdict
from datetime import datetime

import pytest
from conftest_store import ACCOUNTS, GUILD, db, fake_hand, new_table, simple_hand  # noqa: F401 (db is a fixture)

from bot.store import (
    has_played,
    PlayerRef,
    StaleTableError,
    balance_total,
    get_hand,
    get_table,
    hand_record,
    recent_hands,
    record_finished_hand,
    save_table,
    standings,
    write_transaction,
)

from bot.store.db import POOL_SIZE

CROAKER, GOBLIN, ELMO = PlayerRef.human(1, "Croaker"), PlayerRef.computer("Goblin"), PlayerRef.human(3, "Elmo")


async def record(db, hand_id, players, hand, *, guild_id=GUILD, table_id=None, stake=1, mode="stakes"):  # noqa: F811
    record_json, result = hand
    async with db.sessions() as session:
        return await record_finished_hand(
            session, guild_id=guild_id, table_id=table_id, hand_id=hand_id, record=record_json,
            result=result, players=players, stake=stake, scoring_mode=mode,
        )


async def row_counts(db):  # noqa: F811
    async with db.engine.connect() as connection:
        return {
            table: (await connection.exec_driver_sql(f"SELECT COUNT(*) FROM {table}")).scalar()
            for table in ("hands", "hand_seats", "ledger")
        }


async def ledger_rows(db, guild_id=GUILD):  # noqa: F811
    async with db.sessions() as session:
        return {row.account: row for row in await standings(session, guild_id=guild_id, mode="stakes", limit=1000)}


def expected_ledger(played):
    """What the ledger must hold after these (players, result) hands, computed without the store."""
    totals = defaultdict(Counter)
    for players, result in played:
        for seat, player in enumerate(players):
            won = seat in result["winners"]
            caught = result["outcome"] == "caught"
            totals[player.account].update(
                balance=result["payments"][seat],
                pushups=result["pushups"][seat],
                hands=1,
                wins=won,
                tonk_outs=won and result["outcome"] == "tonk_out",
                catches=won and caught,
                caught_drops=caught and seat == result.get("dropper"),
            )
    return {account: {key: totals[account][key] for key in FIGURES} for account in totals}


FIGURES = ("balance", "pushups", "hands", "wins", "tonk_outs", "catches", "caught_drops")


def as_figures(rows):
    return {account: {key: getattr(row, key) for key in FIGURES} for account, row in rows.items()}


async def test_a_hand_is_written_with_its_seats_and_ledger(db):  # noqa: F811
    table = await new_table(db)
    hand = simple_hand(["Croaker", "Goblin", "Elmo"], [2, -1, -1], dropper=0, pushups=[0, 10, 25])
    assert await record(db, f"{table.id}:1", [CROAKER, GOBLIN, ELMO], hand, table_id=table.id, stake=1)
    assert await row_counts(db) == {"hands": 1, "hand_seats": 3, "ledger": 3}
    rows = await ledger_rows(db)
    assert (rows["user:1"].balance, rows["user:1"].wins, rows["user:1"].rank) == (2, 1, 1)
    assert (rows["user:3"].balance, rows["user:3"].pushups, rows["user:3"].hands) == (-1, 25, 1)
    async with db.sessions() as session:
        stored = await get_hand(session, guild_id=GUILD, hand_id=f"{table.id}:1")
        assert await hand_record(session, guild_id=GUILD, hand_id=f"{table.id}:1") == hand[0]
        assert await hand_record(session, guild_id=GUILD + 1, hand_id=f"{table.id}:1") is None  # other servers' hands stay private
        assert await hand_record(session, guild_id=GUILD, hand_id="nope") is None
    assert (stored.result, stored.outcome, stored.dropper, stored.table_id, stored.season) == (hand[1], "drop_won", 0, table.id, 1)


async def test_has_played_is_per_server_and_per_account(db):  # noqa: F811
    async with db.sessions() as session:
        assert not await has_played(session, guild_id=GUILD, account=CROAKER.account)
    await record(db, "h1", [CROAKER, GOBLIN], simple_hand(["Croaker", "Goblin"], [1, -1]))
    async with db.sessions() as session:
        assert await has_played(session, guild_id=GUILD, account=CROAKER.account)
        assert await has_played(session, guild_id=GUILD, account=GOBLIN.account)
        assert not await has_played(session, guild_id=GUILD, account=ELMO.account)
        assert not await has_played(session, guild_id=GUILD + 1, account=CROAKER.account)


async def test_the_same_hand_twice_is_written_once(db):  # noqa: F811
    hand = simple_hand(["Croaker", "Goblin"], [1, -1])
    assert await record(db, "h1", [CROAKER, GOBLIN], hand) is True
    before = (await row_counts(db), as_figures(await ledger_rows(db)))
    assert await record(db, "h1", [CROAKER, GOBLIN], hand) is False
    other = simple_hand(["Elmo", "Goblin"], [-3, 3])  # a different hand under the same id changes nothing either
    assert await record(db, "h1", [ELMO, GOBLIN], other) is False
    assert (await row_counts(db), as_figures(await ledger_rows(db))) == before


async def test_concurrent_attempts_at_one_hand_write_it_once(db):  # noqa: F811
    hand = simple_hand(["Croaker", "Goblin", "Elmo"], [2, -1, -1])
    results = await asyncio.gather(*(record(db, "same", [CROAKER, GOBLIN, ELMO], hand) for _ in range(10)))
    assert sorted(results) == [False] * 9 + [True]
    assert await row_counts(db) == {"hands": 1, "hand_seats": 3, "ledger": 3}
    assert as_figures(await ledger_rows(db)) == expected_ledger([([CROAKER, GOBLIN, ELMO], hand[1])])


async def test_payments_that_do_not_sum_to_zero_are_refused_and_nothing_is_written(db):  # noqa: F811
    hand = simple_hand(["Croaker", "Goblin"], [2, -1])
    with pytest.raises(ValueError, match="sum to 1, not zero"):
        await record(db, "bad", [CROAKER, GOBLIN], hand)
    assert await row_counts(db) == {"hands": 0, "hand_seats": 0, "ledger": 0}
    assert await record(db, "bad", [CROAKER, GOBLIN], simple_hand(["Croaker", "Goblin"], [1, -1]))  # the id is still free


BAD_RESULTS = [
    ({"outcome": "caught", "winners": [0]}, "dropper"),  # a caught hand must name its dropper
    ({"outcome": "caught", "winners": [0], "dropper": 0}, "dropper"),  # ... who is not a winner
    ({"outcome": "drop_won", "winners": [0], "dropper": 1}, "dropper"),
    ({"outcome": "run_out", "winners": [0], "dropper": 0}, "no dropper"),
    ({"outcome": "resign"}, "outcome"),
    ({"winners": [2]}, "winners"),
    ({"winners": [1, 0]}, "winners"),
    ({"winners": []}, "at least one winner"),
    ({"outcome": "void"}, "no winners"),
    ({"counts": [1, 2, 3]}, "counts"),
    ({"payments": [1.0, -1.0]}, "payments"),
    ({"pushups": [0, -4]}, "negative"),
]


@pytest.mark.parametrize("change, message", BAD_RESULTS)
async def test_inconsistent_results_are_refused(db, change, message):  # noqa: F811
    record_json, result = simple_hand(["Croaker", "Goblin"], [1, -1])
    with pytest.raises(ValueError, match=message):
        await record(db, "h", [CROAKER, GOBLIN], (record_json, {**result, **change}))
    assert await row_counts(db) == {"hands": 0, "hand_seats": 0, "ledger": 0}


@pytest.mark.parametrize(
    "players, record_change, message",
    [
        ([CROAKER, CROAKER], {}, "at most once"),
        ([CROAKER], {"players": ["Croaker"]}, "2 to 6 players"),
        ([CROAKER, GOBLIN], {"format": "tonk-hand/2"}, "tonk-hand/1"),
        ([CROAKER, GOBLIN], {"players": ["Croaker"]}, "2 players"),
    ],
)
async def test_inconsistent_hands_are_refused(db, players, record_change, message):  # noqa: F811
    record_json, result = simple_hand(["Croaker", "Goblin"], [1, -1])
    with pytest.raises(ValueError, match=message):
        await record(db, "h", players, ({**record_json, **record_change}, result))
    assert await row_counts(db) == {"hands": 0, "hand_seats": 0, "ledger": 0}


async def test_catches_caught_drops_tonk_outs_and_wins_are_counted(db):  # noqa: F811
    players = [CROAKER, GOBLIN, ELMO]
    names = ["Croaker", "Goblin", "Elmo"]
    # Goblin drops on 9, Croaker and Elmo hold 4: Goblin pays each a double, nobody else pays.
    caught = simple_hand(names, [2, -4, 2], outcome="caught", winners=[0, 2], dropper=1, pushups=[0, 18, 0])
    tonk_out = simple_hand(names, [-2, -2, 4], outcome="tonk_out", winners=[2], pushups=[20, 30, 0])
    void = simple_hand(names, [0, 0, 0], outcome="void", winners=[], pushups=[0, 0, 0])
    for hand_id, hand in (("c", caught), ("t", tonk_out), ("v", void)):
        assert await record(db, hand_id, players, hand, mode="pushups")
    rows = as_figures(await ledger_rows(db))
    assert rows == expected_ledger([(players, caught[1]), (players, tonk_out[1]), (players, void[1])])
    assert rows["user:3"] == {"balance": 6, "pushups": 0, "hands": 3, "wins": 2, "tonk_outs": 1, "catches": 1, "caught_drops": 0}
    assert rows["cpu:Goblin"]["caught_drops"] == 1 and rows["user:1"]["catches"] == 1


async def test_recent_hands_newest_first_with_players_and_payments(db):  # noqa: F811
    names = ["Croaker", "Goblin"]
    await record(db, "a", [CROAKER, GOBLIN], simple_hand(names, [1, -1]))
    await record(db, "b", [ELMO, GOBLIN], simple_hand(["Elmo", "Goblin"], [-2, 2]))
    await record(db, "c", [CROAKER, ELMO], simple_hand(["Croaker", "Elmo"], [-1, 1]))
    await record(db, "elsewhere", [CROAKER, GOBLIN], simple_hand(names, [1, -1]), guild_id=GUILD + 1)
    async with db.sessions() as session:
        latest = await recent_hands(session, guild_id=GUILD)
        two = await recent_hands(session, guild_id=GUILD, limit=2)
        mine = await recent_hands(session, guild_id=GUILD, account="user:1")
    assert [h.hand_id for h in latest] == ["c", "b", "a"] and [h.hand_id for h in two] == ["c", "b"]
    assert [h.hand_id for h in mine] == ["c", "a"]
    assert (latest[1].players, latest[1].accounts, latest[1].payments, latest[1].winners) == (
        ("Elmo", "Goblin"), ("user:3", "cpu:Goblin"), (-2, 2), (1,),
    )
    assert latest[0].finished_at.tzinfo is not None and latest[0].outcome == "drop_won"


async def test_a_hand_and_its_table_save_commit_together_or_not_at_all(db):  # noqa: F811
    table = await new_table(db)
    hand = simple_hand(["Croaker", "Goblin"], [1, -1])
    async with db.sessions() as session, write_transaction(session):
        assert await record_finished_hand(
            session, guild_id=GUILD, table_id=table.id, hand_id="t:1", record=hand[0], result=hand[1],
            players=[CROAKER, GOBLIN], stake=1, scoring_mode="stakes",
        )
        await save_table(session, table_id=table.id, expected_version=1, status="between_hands", hand_number=1)

    with pytest.raises(StaleTableError):
        async with db.sessions() as session, write_transaction(session):
            await record_finished_hand(
                session, guild_id=GUILD, table_id=table.id, hand_id="t:2", record=hand[0], result=hand[1],
                players=[CROAKER, GOBLIN], stake=1, scoring_mode="stakes",
            )
            await save_table(session, table_id=table.id, expected_version=1, hand_number=2)  # stale: rolls back the hand
    assert await row_counts(db) == {"hands": 1, "hand_seats": 2, "ledger": 2}
    async with db.sessions() as session:
        assert (await get_table(session, table_id=table.id)).hand_number == 1


async def test_a_hand_stored_already_changes_nothing_inside_a_callers_transaction(db):  # noqa: F811
    table = await new_table(db)
    hand = simple_hand(["Croaker", "Goblin"], [1, -1])
    assert await record(db, "t:1", [CROAKER, GOBLIN], hand, table_id=table.id)
    before = (await row_counts(db), as_figures(await ledger_rows(db)))
    async with db.sessions() as session, write_transaction(session):  # e.g. recovery after a restart
        assert await record_finished_hand(
            session, guild_id=GUILD, table_id=table.id, hand_id="t:1", record=hand[0], result=hand[1],
            players=[CROAKER, GOBLIN], stake=1, scoring_mode="stakes",
        ) is False
        await save_table(session, table_id=table.id, expected_version=1, status="between_hands", hand_number=1)
    assert (await row_counts(db), as_figures(await ledger_rows(db))) == before
    async with db.sessions() as session:
        assert (await get_table(session, table_id=table.id)).hand_number == 1  # the caller's write was kept


async def test_a_hand_of_a_table_that_does_not_exist_is_refused_and_nothing_is_written(db):  # noqa: F811
    hand = simple_hand(["Croaker", "Goblin"], [1, -1])
    for _ in range(POOL_SIZE + 4):  # and every failed write gives its connection back to the pool
        with pytest.raises(Exception, match="(?i)foreign key"):
            await record(db, "nowhere:1", [CROAKER, GOBLIN], hand, table_id=987654)
    assert await row_counts(db) == {"hands": 0, "hand_seats": 0, "ledger": 0}
    assert await record(db, "nowhere:1", [CROAKER, GOBLIN], hand)  # the id was not used up


async def test_names_with_quotes_and_any_characters_are_stored_as_they_are(db):  # noqa: F811
    # The rows travel as JSON into one statement on each database: nothing may be mangled.
    odd = [PlayerRef.human(41, 'O\'Brien "the \\ one"'), PlayerRef.computer("Ünï 🂡 \u2028 bot; DROP TABLE ledger")]
    hand = simple_hand([p.display_name for p in odd], [3, -3])
    assert await record(db, "odd:1", odd, hand)
    rows = await ledger_rows(db)
    assert {account: row.display_name for account, row in rows.items()} == {p.account: p.display_name for p in odd}
    assert (rows[odd[0].account].balance, rows[odd[1].account].balance) == (3, -3)
    async with db.sessions() as session:
        [summary] = await recent_hands(session, guild_id=GUILD)
    assert summary.players == tuple(p.display_name for p in odd)


async def test_a_rolled_back_first_hand_on_a_connection_does_not_break_the_next(db):  # noqa: F811
    # On SQLite a connection creates what it writes hands with at its first hand, inside
    # the caller's transaction: a rollback takes it away, and the next hand must still work.
    from sqlmodel.ext.asyncio.session import AsyncSession

    hand = simple_hand(["Croaker", "Goblin"], [2, -2])
    async with db.engine.connect() as connection:
        with pytest.raises(RuntimeError):
            async with AsyncSession(bind=connection) as session, write_transaction(session):
                assert await record_finished_hand(
                    session, guild_id=GUILD, table_id=None, hand_id="r:1", record=hand[0], result=hand[1],
                    players=[CROAKER, GOBLIN], stake=1, scoring_mode="stakes")
                raise RuntimeError("the caller fails after the hand")
        async with AsyncSession(bind=connection) as session, write_transaction(session):
            assert await record_finished_hand(
                session, guild_id=GUILD, table_id=None, hand_id="r:2", record=hand[0], result=hand[1],
                players=[CROAKER, GOBLIN], stake=1, scoring_mode="stakes")
    assert await row_counts(db) == {"hands": 1, "hand_seats": 2, "ledger": 2}
    async with db.sessions() as session:
        assert [h.hand_id for h in await recent_hands(session, guild_id=GUILD)] == ["r:2"]


async def test_balances_sum_to_zero_after_many_random_hands(db):  # noqa: F811
    rng = random.Random(20240601)
    played = {GUILD: [], GUILD + 1: []}
    for number in range(300):
        guild_id = rng.choice(list(played))
        players = rng.sample(ACCOUNTS, rng.randint(2, 6))
        hand = fake_hand(rng, len(players), stake=rng.randint(1, 5))
        assert await record(db, f"r{number}", players, hand, guild_id=guild_id, stake=hand[0]["stake"])
        played[guild_id].append((players, hand[1]))
    async with db.sessions() as session:
        for guild_id, hands in played.items():
            assert await balance_total(session, guild_id=guild_id) == 0
            assert as_figures(await ledger_rows(db, guild_id)) == expected_ledger(hands)
    assert (await row_counts(db))["hands"] == 300


async def test_balances_sum_to_zero_after_many_hands_played_by_the_engine(db):  # noqa: F811
    import engine  # the engine's random_hand(rng, players=P, preset=NAME) -> (record, result)

    rng = random.Random(7)
    presets = ["standard", "waiting", "black company", "washington", "push-ups", "seattle", "baton rouge"]
    played = []
    for number in range(140):
        players = rng.sample(ACCOUNTS, rng.randint(2, 6))
        preset = presets[number % len(presets)]
        hand = engine.random_hand(rng, players=len(players), preset=preset)
        assert await record(db, f"e{number}", players, hand, stake=hand[0]["stake"])
        played.append((players, hand[1]))
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
    assert as_figures(await ledger_rows(db)) == expected_ledger(played)


async def test_fifty_hands_finishing_at_once_lose_nothing(db):  # noqa: F811
    rng = random.Random(50)
    hands = []
    for number in range(50):
        players = rng.sample(ACCOUNTS, rng.randint(2, 6))
        hands.append((f"c{number}", players, fake_hand(rng, len(players))))
    results = await asyncio.gather(*(record(db, hand_id, players, hand) for hand_id, players, hand in hands))
    assert results == [True] * 50
    counts = await row_counts(db)
    assert counts["hands"] == 50 and counts["hand_seats"] == sum(len(players) for _, players, _ in hands)
    assert as_figures(await ledger_rows(db)) == expected_ledger([(players, hand[1]) for _, players, hand in hands])
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        assert {h.hand_id for h in await recent_hands(session, guild_id=GUILD, limit=100)} == {h for h, _, _ in hands}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_one_statement_writes_exactly_what_the_portable_statements_write(backend, request, tmp_path, monkeypatch):
    # SQLite: one INSERT into the trigger's view; PostgreSQL: one statement of WITH queries.
    from bot.store import hands as hands_module
    from bot.store import open_database, start_new_season

    rng = random.Random(5)
    played = [(rng.sample(ACCOUNTS, players), fake_hand(rng, players)) for players in (2, 3, 4, 6, 5, 2)]
    flag = {"sqlite": "SQLITE_IN_ONE_CALL", "postgresql": "POSTGRESQL_IN_ONE_STATEMENT"}[backend]

    def new_database(name):
        if backend == "sqlite":
            return f"sqlite+aiosqlite:///{tmp_path}/{name}.db"
        return request.getfixturevalue("postgres_server").new_database()

    async def dump(one_call):
        monkeypatch.setattr(hands_module, flag, one_call)
        async with await open_database(new_database(one_call)) as database:
            for n, (players, hand) in enumerate(played):
                if n == 3:
                    async with database.sessions() as session:
                        await start_new_season(session, guild_id=GUILD)
                assert await record(database, f"h{n}", players, hand)
                assert not await record(database, f"h{n}", players, hand)
            async with database.sessions() as session, write_transaction(session):  # in a caller's transaction
                assert await record_finished_hand(
                    session, guild_id=GUILD, table_id=None, hand_id="joined", record=played[0][1][0],
                    result=played[0][1][1], players=played[0][0], stake=1, scoring_mode="stakes")
            # Rows by hand_id, not by the row id: a hand refused as a duplicate may use up an id
            # (AUTOINCREMENT) in one way and not in the other.
            queries = {
                "hands": "SELECT * FROM hands",
                "hand_seats": "SELECT h.hand_id, s.* FROM hand_seats s JOIN hands h ON h.id = s.hand_pk",
                **{table: f"SELECT * FROM {table}" for table in ("ledger", "rivals", "hand_tallies")},
            }
            async with database.engine.connect() as connection:
                return {
                    table: sorted(tuple(row) for row in await connection.exec_driver_sql(query))
                    for table, query in queries.items()
                }

    one_call, portable = await dump(True), await dump(False)
    assert len(one_call["hands"]) == 7 and all(one_call[table] for table in one_call)

    def without_times(rows):  # finished_at/updated_at are the same values, written a moment apart
        return [tuple(value for value in row if not (isinstance(value, datetime) or isinstance(value, str)
                                                      and value[:2] == "20")) for row in rows]

    def without_row_ids(table, rows):
        column = {"hands": 0, "hand_seats": 1}.get(table)
        return rows if column is None else [row[:column] + row[column + 1:] for row in rows]

    for table in one_call:
        assert without_row_ids(table, without_times(one_call[table])) == \
            without_row_ids(table, without_times(portable[table])), table


async def test_a_side_pot_won_is_booked_with_its_hand_and_a_broken_one_is_refused(db):  # noqa: F811
    hand = simple_hand(["Croaker", "Goblin", "Elmo"], [2, -1, -1], dropper=0, pushups=[0, 10, 25])
    record_json, result = hand
    async with db.sessions() as session:
        with pytest.raises(ValueError, match="side payments .* sum to 1, not zero"):
            await record_finished_hand(session, guild_id=GUILD, table_id=None, hand_id="side:0", record=record_json,
                                       result=result, players=[CROAKER, GOBLIN, ELMO], stake=1,
                                       scoring_mode="stakes", side_payments=[5, -4, 0])
    assert await row_counts(db) == {"hands": 0, "hand_seats": 0, "ledger": 0}
    async with db.sessions() as session:
        # a push-ups table: the pot won (Elmo's, paid by Croaker and Elmo) still moves balances
        assert await record_finished_hand(session, guild_id=GUILD, table_id=None, hand_id="side:1",
                                          record=record_json, result=result, players=[CROAKER, GOBLIN, ELMO],
                                          stake=1, scoring_mode="pushups", side_payments=[-6, 0, 6])
    rows = await ledger_rows(db)
    assert {a: r.balance for a, r in rows.items()} == {CROAKER.account: -4, GOBLIN.account: -1, ELMO.account: 5}
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        stored = await get_hand(session, guild_id=GUILD, hand_id="side:1")
    assert stored.result["payments"] == [2, -1, -1] and stored.result["side_settled"] == [-6, 0, 6]
