"""The tournament service on each backend (a SQLite file, a PostgreSQL database): rounds of real
tables played out by computer players, results summed from the stored hands, a restart mid-round."""

import random

import pytest

from bot.commands import DealNext, Leave
from bot.errors import UserError
from bot.service import Person, TableService, computer_choice
from bot.store import balance_total, open_database, recent_hands, standings
from bot.table import Status
from bot.tournament import Stage
from bot.tournaments import TournamentService

GUILD, CHANNEL = 10, 20
ORGANISER = Person(1, "org", guild_id=GUILD)
PEOPLE = [Person(100 + i, f"p{i}", guild_id=GUILD) for i in range(9)]


@pytest.fixture
async def db(database_url):
    database = await open_database(database_url)
    yield database
    await database.close()


def services(db, seed=5):
    tables = TableService(db, rng=random.Random(seed))
    return tables, TournamentService(db, tables, seed=lambda: seed)


async def open_round(tournaments, tournament, thread_base=5000):
    opened = []
    for seated in tournament.current.tables:
        tournament, table = await tournaments.open_table(tournament.id, tournament.current.number, seated.number,
                                                         thread_id=thread_base + 10 * tournament.current.number
                                                         + seated.number)
        opened.append(table)
    return tournament, opened


async def play_out(tables, table_id, *, leave=True, hands=None):
    """Everyone leaves their seat (a computer plays it out, the result theirs), then the table plays
    until it closes (or `hands` more hands are over)."""
    table = await tables.load(table_id)
    if leave:
        for seat in table.seats:
            if table.is_open:
                table = await tables.apply(table_id, Person(seat.user_id, seat.name, guild_id=GUILD),
                                           Leave(seat.user_id))
    done = 0
    while table.is_open:
        if table.status is Status.BETWEEN_HANDS:
            done += 1
            if hands is not None and done >= hands:
                return table
            table = await tables.apply(table_id, None, DealNext(table.hand_number))
        else:
            assert table.is_computer_turn, table.status
            table = await tables.computer_step(table_id, choose=computer_choice)
    return table


async def signed_up(tournaments, n=9, **options):
    tournament = await tournaments.open(guild_id=GUILD, channel_id=CHANNEL, organiser=ORGANISER, **options)
    for person in PEOPLE[:n]:
        tournament = await tournaments.join(tournament.id, person)
    return tournament


async def test_a_knockout_of_nine_for_the_ledger_plays_down_to_a_winner(db):
    tables, tournaments = services(db)
    tournament = await signed_up(tournaments, format="knockout", seats=3, hands=2, preset="standard", ledger=True)
    with pytest.raises(UserError, match="running in this channel already"):
        await tournaments.open(guild_id=GUILD, channel_id=CHANNEL, organiser=PEOPLE[0])
    with pytest.raises(UserError, match="Only the organiser"):
        await tournaments.start(tournament.id, PEOPLE[0])
    tournament = await tournaments.start(tournament.id, ORGANISER)
    tournament, round_one = await open_round(tournaments, tournament)
    assert [len(t.seats) for t in round_one] == [3, 3, 3]
    assert all(t.tournament.round == 1 and t.host_user_id == ORGANISER.user_id for t in round_one)
    for table in round_one:
        closed = await play_out(tables, table.id)
        assert closed.status is Status.CLOSED and closed.hand_number == 2
    await tournaments.settled()
    tournament = await tournaments.load(tournament.id)
    assert tournament.stage is Stage.BETWEEN
    assert all(t.done and t.hands_played == 2 for t in tournament.current.tables)
    going = tournament.current.advancing
    assert len(going) == 3
    tournament = await tournaments.next_round(tournament.id, ORGANISER)
    assert tournament.current.final
    tournament, (final,) = await open_round(tournaments, tournament)
    assert {s.user_id for s in final.seats} == set(going)
    await play_out(tables, final.id)
    await tournaments.settled()
    tournament = await tournaments.load(tournament.id)
    assert tournament.stage is Stage.FINISHED and tournament.winner in going
    assert await tournaments.record_of(GUILD, tournament.winner) == (1, 1)
    assert await tournaments.record_of(GUILD, next(u for u in going if u != tournament.winner)) == (1, 0)
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        hands = await recent_hands(session, guild_id=GUILD, limit=50)
        assert len(hands) == 4 * 2  # every hand in the server's history once
    # the points are the table totals the hands paid
    totals = tournament.totals()
    assert sum(p for p, _ in totals.values()) == 0


async def test_for_glory_the_hands_stay_out_of_the_ledger(db):
    tables, tournaments = services(db, seed=8)
    tournament = await signed_up(tournaments, n=6, format="swiss", seats=3, hands=1, rounds=1, ledger=False)
    tournament, opened = await open_round(tournaments, await tournaments.start(tournament.id, ORGANISER))
    for table in opened:
        await play_out(tables, table.id)
    await tournaments.settled()
    tournament = await tournaments.load(tournament.id)
    assert tournament.stage is Stage.FINISHED
    async with db.sessions() as session:
        assert await standings(session, guild_id=GUILD, mode="stakes") == []
        assert await recent_hands(session, guild_id=GUILD, limit=5) == []
    assert sum(t.hands_played for t in tournament.current.tables) == 2


async def test_a_restart_mid_round_resumes_every_table_and_the_standings(db):
    tables, tournaments = services(db, seed=3)
    tournament = await signed_up(tournaments, n=6, format="swiss", seats=3, hands=3, rounds=1, ledger=True)
    tournament, opened = await open_round(tournaments, await tournaments.start(tournament.id, ORGANISER))
    await play_out(tables, opened[0].id, hands=1)  # one hand over at the first table
    await tournaments.settled()
    before = await tournaments.load(tournament.id)
    # a hand finishes while nobody listens (killed between the table's save and the tournament's)
    tables.listeners.clear()
    await play_out(tables, opened[1].id, hands=1)
    lost = await tournaments.load(tournament.id)
    assert lost.current.tables[1].hands_played == 0
    # the restart: new services on the same database
    tables, tournaments = services(db, seed=4)
    resumed_tables = await tables.recover()
    assert {t.id for t in resumed_tables} == {t.id for t in opened}
    (resumed,) = await tournaments.recover()
    assert resumed.current.tables[0] == before.current.tables[0]
    assert resumed.current.tables[1].hands_played == 1  # summed again from the stored hand
    for table in opened:
        await play_out(tables, table.id, leave=False)
    await tournaments.settled()
    finished = await tournaments.load(tournament.id)
    assert finished.stage is Stage.FINISHED
    assert [t.hands_played for t in finished.current.tables] == [3, 3]
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        assert len(await recent_hands(session, guild_id=GUILD, limit=50)) == 6  # nothing lost or doubled


async def test_ending_closes_the_open_tables_and_keeps_what_was_played(db):
    tables, tournaments = services(db, seed=6)
    tournament = await signed_up(tournaments, n=6, hands=3)
    with pytest.raises(UserError, match="Only the organiser or a member with Manage Server"):
        await tournaments.end(tournament.id, PEOPLE[1])
    tournament, opened = await open_round(tournaments, await tournaments.start(tournament.id, ORGANISER))
    ended = await tournaments.end(tournament.id, ORGANISER)
    assert ended.stage is Stage.ENDED
    for table in opened:
        assert not (await tables.load(table.id)).is_open
    assert await tournaments.in_channel(CHANNEL) is None


async def test_a_tournament_table_refuses_a_stranger_and_a_leaver_keeps_the_seat(db):
    tables, tournaments = services(db, seed=2)
    tournament = await signed_up(tournaments, n=6, hands=2)
    tournament, opened = await open_round(tournaments, await tournaments.start(tournament.id, ORGANISER))
    from bot.commands import Back, Join

    table = opened[0]
    stranger = Person(999, "stranger", guild_id=GUILD)
    with pytest.raises(UserError, match="tournament's table"):
        await tables.apply(table.id, stranger, Join(999, "stranger"))
    if table.in_play:
        seat = table.seats[0]
        person = Person(seat.user_id, seat.name, guild_id=GUILD)
        left = await tables.apply(table.id, person, Leave(seat.user_id))
        assert left.seats[0].away and len(left.seats) == 3 and left.seats[0].user_id == seat.user_id
        back = await tables.apply(table.id, person, Back(seat.user_id))
        assert not back.seats[0].away
