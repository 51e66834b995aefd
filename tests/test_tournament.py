"""The tournament model (bot/tournament.py): seating, rounds, standings, places; no Discord, no store."""

import random
from itertools import combinations

import pytest

from bot.errors import UserError
from bot.tournament import (Config, Format, Result, Stage, Tournament, repeats, results_of_hands, seat_avoiding,
                            seat_snake, table_sizes)

ORGANISER = 1


def opened(n: int, *, format=Format.KNOCKOUT, seats=3, rounds=3, seed=7) -> Tournament:
    tournament = Tournament.open(guild_id=10, channel_id=20, organiser_id=ORGANISER, organiser_name="Org",
                                 config=Config(format=format, seats=seats, rounds=rounds, hands=2), seed=seed)
    for user in range(100, 100 + n):
        tournament = tournament.join(user, f"P{user}")
    return tournament


def play_round(tournament: Tournament, rng: random.Random, scores=None) -> Tournament:
    """Every table of the round in play finishes: zero-sum scores (from `scores` if given)."""
    round_ = tournament.current
    for table in round_.tables:
        if scores is not None:
            results = [Result(u, *scores[u]) for u in table.players]
        else:
            raw = [rng.randint(-10, 10) for _ in table.players]
            shift = sum(raw)
            raw[0] -= shift
            results = [Result(u, s, rng.randint(0, 2)) for u, s in zip(table.players, raw)]
        tournament = tournament.recorded(round_.number, table.number, results, hands_played=2, done=True)
    return tournament


@pytest.mark.parametrize("n, seats, sizes", [
    (10, 3, [4, 3, 3]), (9, 3, [3, 3, 3]), (8, 3, [4, 4]), (6, 3, [3, 3]), (5, 3, [3, 2]), (64, 3, [4] + [3] * 20),
    (20, 3, [4, 4, 3, 3, 3, 3]), (7, 2, [3, 2, 2]), (8, 4, [4, 4]), (11, 4, [4, 4, 3]), (2, 3, [2]), (4, 3, [4]),
])
def test_tables_are_balanced(n, seats, sizes):
    assert table_sizes(n, seats) == sizes
    assert sum(sizes) == n and max(sizes) - min(sizes) <= 1


def test_tables_never_exceed_what_the_rules_seat():
    assert table_sizes(10, 3, most=3) == [3, 3, 2, 2]
    for n in range(2, 65):
        for seats in (2, 3, 4):
            sizes = table_sizes(n, seats)
            assert sum(sizes) == n and max(sizes) <= seats + 1 and min(sizes) >= min(n, 2)


def test_sign_ups_refuse_what_they_should_and_change_nothing():
    tournament = opened(2)
    with pytest.raises(UserError, match="signed up already"):
        tournament.join(100, "again")
    with pytest.raises(UserError, match="not signed up"):
        tournament.leave(999)
    with pytest.raises(UserError, match="needs 6 entrants for two tables of 3; 2 have signed up"):
        tournament.start(ORGANISER)
    full = opened(64)
    with pytest.raises(UserError, match="64 entrants at most"):
        full.join(5000, "late")
    with pytest.raises(UserError, match="Only the organiser"):
        full.start(100)
    assert tournament.leave(100).entrants == tournament.entrants[1:]
    with pytest.raises(UserError, match="from 2 to 4"):
        Config(seats=5).check()


def test_a_knockout_of_nine_at_three_seats_ends_at_one_final_table():
    rng = random.Random(1)
    tournament = opened(9).start(ORGANISER)
    assert tournament.stage is Stage.PLAYING
    first = tournament.current
    assert [len(t.players) for t in first.tables] == [3, 3, 3] and not first.final
    assert sorted(u for t in first.tables for u in t.players) == list(range(100, 109))
    with pytest.raises(UserError, match="Sign-ups are closed"):
        tournament.join(5000, "late")
    tournament = play_round(tournament, rng)
    assert tournament.stage is Stage.BETWEEN
    winners = [tournament.table_order(t)[0] for t in tournament.current.tables]
    assert list(tournament.current.advancing) == winners
    with pytest.raises(UserError, match="Only the organiser"):
        tournament.next_round(100)
    tournament = tournament.next_round(ORGANISER)
    final = tournament.current
    assert final.final and len(final.tables) == 1 and set(final.tables[0].players) == set(winners)
    tournament = play_round(tournament, rng)
    assert tournament.stage is Stage.FINISHED
    places = [s.user_id for s in tournament.standings()]
    assert places[0] == tournament.winner == tournament.table_order(final.tables[0])[0]
    assert places[:3] == tournament.table_order(final.tables[0])  # the final table in its order
    assert sorted(places) == list(range(100, 109))


def test_a_knockout_table_is_decided_by_points_then_hands_won():
    tournament = opened(6).start(ORGANISER)
    table = tournament.current.tables[0]
    a, b, c = table.players
    results = [Result(a, 2, 0), Result(b, 2, 1), Result(c, -4, 1)]
    tournament = tournament.recorded(1, 1, results, hands_played=2, done=True)
    assert tournament.table_order(tournament.current.tables[0]) == [b, a, c]


def test_runners_up_fill_a_final_table_when_too_few_tables_win():
    rng = random.Random(3)
    tournament = play_round(opened(6).start(ORGANISER), rng)
    advancing = tournament.current.advancing
    winners = [tournament.table_order(t)[0] for t in tournament.current.tables]
    assert len(advancing) == 3 and list(advancing[:2]) == winners
    tournament = tournament.next_round(ORGANISER)
    assert tournament.current.final and set(tournament.current.tables[0].players) == set(advancing)


def test_a_knockout_of_sixty_four_goes_round_by_round_down_to_a_winner():
    rng = random.Random(5)
    tournament = opened(64).start(ORGANISER)
    sizes = []
    while tournament.stage is not Stage.FINISHED:
        sizes.append([len(t.players) for t in tournament.current.tables])
        tournament = play_round(tournament, rng)
        if tournament.stage is Stage.BETWEEN:
            tournament = tournament.next_round(ORGANISER)
    assert sizes[0] == [4] + [3] * 20 and len(sizes[-1]) == 1
    assert [sum(s) for s in sizes] == [64, 21, 7, 3]
    assert len({s.user_id for s in tournament.standings()}) == 64


def test_swiss_of_eight_over_three_rounds_repeats_no_more_pairs_than_it_must():
    rng = random.Random(11)
    tournament = opened(8, format=Format.SWISS).start(ORGANISER)
    for number in range(1, 4):
        met_before = {frozenset(p) for r in tournament.rounds[:-1] for t in r.tables
                      for p in combinations(t.players, 2)}
        tables = [t.players for t in tournament.current.tables]
        assert sorted(len(t) for t in tables) == [4, 4]
        if number > 1:  # the fewest repeated pairs any split of eight into two fours has
            everyone = [u for t in tables for u in t]
            least = min(repeats([four, tuple(u for u in everyone if u not in four)], met_before)
                        for four in combinations(everyone, 4))
            assert repeats(tables, met_before) == least
        tournament = play_round(tournament, rng)
        if number < 3:
            assert tournament.stage is Stage.BETWEEN
            tournament = tournament.next_round(ORGANISER)
    assert tournament.stage is Stage.FINISHED


def test_swiss_of_nine_at_three_seats_never_seats_a_pair_twice():
    rng = random.Random(2)
    tournament = opened(9, format=Format.SWISS, rounds=4).start(ORGANISER)
    seen: list[frozenset] = []
    for number in range(1, 5):
        for table in tournament.current.tables:
            seen += [frozenset(p) for p in combinations(table.players, 2)]
        tournament = play_round(tournament, rng)
        if number < 4:
            tournament = tournament.next_round(ORGANISER)
    assert len(seen) == len(set(seen)) == 36  # four rounds, every pair of nine exactly once


def test_swiss_reseats_by_standing_when_nobody_has_met():
    order = list(range(12))
    tables = seat_avoiding(order, [3, 3, 3, 3], set(), random.Random(0))
    assert tables == [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)]


def test_swiss_tiebreaks_are_points_then_hands_won_then_opponents_points():
    tournament = opened(6, format=Format.SWISS, rounds=1).start(ORGANISER)
    t1, t2 = tournament.current.tables
    a, b, c = t1.players
    d, e, f = t2.players
    scores = {a: (5, 1), b: (0, 1), c: (-5, 0), d: (5, 1), e: (5, 2), f: (-10, 0)}
    tournament = play_round(tournament, random.Random(0), scores)
    assert tournament.stage is Stage.FINISHED
    standings = tournament.standings()
    # e: 5 points, 2 hands; then a and d: 5 points, 1 hand each; a's opponents have -5, d's -5 too...
    assert standings[0].user_id == e
    tied = [s for s in standings if s.points == 5 and s.hands_won == 1]
    assert {s.user_id for s in tied} == {a, d}
    assert tied[0].opponents_points >= tied[1].opponents_points
    # d sat with e (5) and f (-10): -5; a sat with b (0) and c (-5): -5; equal, so sign-up order
    assert tied[0].opponents_points == tied[1].opponents_points == -5
    signed = [x.user_id for x in tournament.entrants]
    assert [s.user_id for s in tied] == sorted((a, d), key=signed.index)


def test_opponents_points_break_a_tie_of_points_and_hands():
    """a and d both have 3 points and 1 hand won; a sat with stronger opponents (b, c, e: -2 in
    all) than d (e, f, c, f: -10), so a places above d although d signed up first."""
    from bot.tournament import Entrant, Round, RoundTable

    a, b, c, d, e, f = 1, 2, 3, 4, 5, 6

    def table(number, scores):
        return RoundTable(number, tuple(scores), results=tuple(Result(u, s, w) for u, (s, w) in scores.items()),
                          hands_played=2, done=True)

    rounds = (Round(1, (table(1, {a: (3, 1), b: (0, 0), c: (-3, 0)}), table(2, {d: (3, 1), e: (-1, 0), f: (-2, 0)}))),
              Round(2, (table(1, {a: (0, 0), b: (1, 1), e: (-1, 0)}), table(2, {d: (0, 0), c: (1, 1), f: (-1, 0)}))))
    tournament = Tournament(id=1, guild_id=1, channel_id=1, organiser_id=9, organiser_name="Org",
                            config=Config(format=Format.SWISS, rounds=2), seed=0, stage=Stage.FINISHED,
                            entrants=tuple(Entrant(u, f"P{u}") for u in (d, a, b, c, e, f)), rounds=rounds)
    standings = tournament.standings()
    by_user = {s.user_id: s for s in standings}
    assert (by_user[a].points, by_user[a].hands_won) == (by_user[d].points, by_user[d].hands_won) == (3, 1)
    assert by_user[a].opponents_points == -2 and by_user[d].opponents_points == -10
    assert [s.user_id for s in standings[:2]] == [a, d] and tournament.winner == a


def test_withdrawal_only_between_rounds_and_the_withdrawn_are_seated_no_more():
    rng = random.Random(4)
    tournament = opened(9, format=Format.SWISS).start(ORGANISER)
    leaver = tournament.current.tables[0].players[0]
    with pytest.raises(UserError, match="only between rounds"):
        tournament.withdraw(ORGANISER, leaver)
    tournament = play_round(tournament, rng)
    with pytest.raises(UserError, match="Only the organiser"):
        tournament.withdraw(leaver, leaver)
    tournament = tournament.withdraw(ORGANISER, leaver)
    with pytest.raises(UserError, match="withdrawn already"):
        tournament.withdraw(ORGANISER, leaver)
    tournament = tournament.next_round(ORGANISER)
    assert leaver not in [u for t in tournament.current.tables for u in t.players]
    assert [len(t.players) for t in tournament.current.tables] == [4, 4]
    assert tournament.standings()[-1].user_id == leaver


def test_results_recorded_twice_count_once_and_a_done_table_stays_done():
    tournament = opened(6).start(ORGANISER)
    table = tournament.current.tables[0]
    results = [Result(u, 1 - i, 1) for i, u in enumerate(table.players)]
    once = tournament.recorded(1, 1, results, hands_played=1, done=False)
    assert once.recorded(1, 1, results, hands_played=1, done=False) is once
    done = once.recorded(1, 1, results, hands_played=2, done=True)
    assert done.recorded(1, 1, [Result(u, 50) for u in table.players], hands_played=3, done=True) is done
    assert done.totals()[table.players[0]] == (1, 1)


def test_seeded_seating_is_the_same_after_a_restart():
    a = opened(20, format=Format.SWISS, seed=99).start(ORGANISER)
    b = Tournament.from_json(a.to_json())
    assert b.to_json() == a.to_json()
    rng1, rng2 = random.Random(8), random.Random(8)
    a, b = play_round(a, rng1).next_round(ORGANISER), play_round(b, rng2).next_round(ORGANISER)
    assert a.current == b.current
    assert Tournament.from_json(a.to_json()) == a


def test_end_asks_the_organiser_or_a_manager():
    tournament = opened(6).start(ORGANISER)
    with pytest.raises(UserError, match="Only the organiser or a member with Manage Server"):
        tournament.end(100)
    ended = tournament.end(555, is_admin=True, name="Mod")
    assert ended.stage is Stage.ENDED and not ended.is_open
    with pytest.raises(UserError, match="is over"):
        ended.end(ORGANISER)


def test_snake_spreads_the_best_over_the_tables():
    assert seat_snake(list(range(7)), [3, 2, 2]) == [(0, 5, 6), (1, 4), (2, 3)]


def test_results_of_hands_add_payments_or_push_ups_and_wins():
    hands = [{"payments": [2, -1, -1], "pushups": [0, 5, 5], "winners": [0]},
             {"payments": [-3, 6, -3], "pushups": [7, 0, 7], "winners": [1], "side_settled": [1, 0, -1]}]
    assert results_of_hands((7, 8, 9), hands, scoring="stakes") == [Result(7, 0, 1), Result(8, 5, 1),
                                                                    Result(9, -5, 0)]
    assert results_of_hands((7, 8, 9), hands, scoring="pushups") == [Result(7, -7, 1), Result(8, -5, 1),
                                                                     Result(9, -12, 0)]
