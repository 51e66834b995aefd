"""The table model alone (no store, no Discord): each operation, each refusal, JSON, the public view."""

import json
import random

import pytest

from bot.errors import StaleView, UserError
from bot.table import (SCHEMA, HandDealt, HandOver, Level, Ping, Played, Scoring, SeatAway, SeatBack, SeatLeft,
                       SeatTaken, Status, Table, TableClosed, TimedOut, TurnStarted, level_of)
from engine import DRAW, DROP, Game, NotYourTurn, Rules, TonkError

ALICE, BOB, CAROL, EVE = 1, 2, 3, 9


def lobby(*, computers=0, rules=None) -> Table:
    table = Table.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice", rules=rules or Rules(),
                       stake=2, scoring=Scoring.STAKES, computers=computers, now=100.0)
    return table.__class__.from_json(dict(table.to_json(), id=7))


def seated(*names: tuple[int, str]) -> Table:
    table = lobby()
    for user_id, name in names:
        table, _ = table.join(user_id, name, now=101.0)
    return table


def refused(table: Table, operation, match: str) -> None:
    """The operation is refused (a TonkError: UserError or the engine's own) saying `match`, and
    the table is as it was."""
    before = json.dumps(table.to_json())
    with pytest.raises(TonkError, match=match):
        operation(table)
    assert json.dumps(table.to_json()) == before


def dealt(seed: int = 1, players=((BOB, "bob"), (CAROL, "carol"))) -> Table:
    """A table with a hand in play (deals again past a tonk on the deal)."""
    rng = random.Random(seed)
    table, _ = seated(*players).start(ALICE, rng)
    while not table.in_play:
        table, _ = table.next_hand(ALICE, rng)
    return table


def user_at(table: Table, seat: int) -> int:
    return table.seats[seat].user_id


def finish(table: Table) -> Table:
    """The player to act drops: the hand is over."""
    table, _ = table.act(user_at(table, table.to_act), DROP)
    assert table.status is Status.BETWEEN_HANDS
    return table


def test_join_add_computer_and_their_refusals():
    table = lobby()
    table, events = table.join(BOB, "bob", now=200.0)
    assert events == [SeatTaken(1, "bob")] and table.lobby_since == 200.0
    refused(table, lambda t: t.join(BOB, "bob"), "already seated")
    table, events = table.add_computer(BOB, Level.HARD)
    assert events == [SeatTaken(2, "Goblin (hard)")] and table.seats[2].level is Level.HARD
    refused(table, lambda t: t.add_computer(EVE, Level.EASY), "Only seated players")
    table, events = table.add_computer(BOB, level_of("expert"))
    assert events == [SeatTaken(3, "One-Eye (expert)")] and table.seats[3].level is Level.EXPERT
    assert [level for level in Level if level.searches] == [Level.EXPERT]  # the bot runs these in a thread
    for n in range(2):
        table, _ = table.join(20 + n, f"p{n}")
    refused(table, lambda t: t.join(EVE, "eve"), "full")
    refused(dealt(), lambda t: t.join(EVE, "eve"), "hand is in play")


def test_start_deals_and_only_the_host_can():
    table = seated((BOB, "bob"))
    refused(lobby(), lambda t: t.start(ALICE, random.Random(1)), "at least 2 players")
    refused(table, lambda t: t.start(BOB, random.Random(1)), "Only the host")
    started, events = table.start(ALICE, random.Random(1))
    assert isinstance(events[0], HandDealt) and started.hand_number == 1 and "deals" in str(started.cuts)
    assert isinstance(events[-1], (TurnStarted, HandOver))
    refused(started, lambda t: t.start(ALICE, random.Random(1)), "already started")


def test_a_play_returns_a_new_table_and_leaves_the_old_one_alone():
    table = dealt()
    seat = table.to_act
    after, events = table.act(user_at(table, seat), DRAW)
    assert events == [Played(seat, DRAW)] and after.game.phase == "play" and table.game.phase == "start"
    assert after.moves == table.moves + 1
    other = user_at(table, (seat + 1) % 3)
    with pytest.raises(NotYourTurn):
        table.act(other, DRAW)
    refused(table, lambda t: t.act(EVE, DRAW), "not seated")
    with pytest.raises(StaleView):
        after.act(user_at(after, seat), DRAW, moves=table.moves)
    refused(lobby(), lambda t: t.act(ALICE, DRAW), "No hand is being played")


def test_a_drop_ends_the_hand_and_adds_the_totals():
    table = dealt()
    over, events = table.act(user_at(table, table.to_act), DROP)
    [hand_over] = [e for e in events if isinstance(e, HandOver)]
    assert hand_over.hand_id == "7-1" and over.status is Status.BETWEEN_HANDS
    assert [s.total for s in over.seats] == list(hand_over.outcome.payments) and sum(s.total for s in over.seats) == 0
    refused(over, lambda t: t.act(ALICE, DRAW), "No hand is being played")
    refused(over, lambda t: t.next_hand(EVE, random.Random(1)), "Only seated players")
    again, events = over.next_hand(BOB, random.Random(2))
    assert again.hand_number == 2 and isinstance(events[0], HandDealt)


def test_leave_between_hands_keeps_the_table_going():
    """Bug 1: a player leaving between hands turned the table back into a lobby nobody could start."""
    over = finish(dealt())
    table, events = over.leave(CAROL, now=300.0)
    assert events == [SeatLeft(2, "carol")]
    assert table.status is Status.BETWEEN_HANDS and table.game is None and len(table.seats) == 2
    public = table.public()
    assert public.status is Status.BETWEEN_HANDS and all(s.showdown is None for s in public.seats)
    again, _ = table.next_hand(BOB, random.Random(3))
    assert again.hand_number == 2 and again.game.num_players == 2
    # down to one player it is a lobby again, which the host can start once someone joins
    alone, _ = table.leave(BOB)
    assert alone.status is Status.LOBBY
    joined, _ = alone.join(EVE, "eve")
    restarted, _ = joined.start(ALICE, random.Random(4))
    assert restarted.hand_number == 2 and restarted.status is not Status.LOBBY


def test_leave_refusals_host_handover_and_everyone_gone():
    table = seated((BOB, "bob"))
    refused(table, lambda t: t.leave(EVE), "not seated")
    in_hand, events = dealt().leave(BOB)  # during a hand: a computer plays the seat out
    assert in_hand.seats[in_hand.seat_of(BOB)].leaving and in_hand.status is Status.PLAYING
    assert [type(e).__name__ for e in events][0] == "SeatLeaving"
    left, _ = table.leave(ALICE)
    assert left.host_user_id == BOB
    closed, events = lobby(computers=1).leave(ALICE)
    assert closed.status is Status.CLOSED and isinstance(events[-1], TableClosed)


def test_three_time_outs_hand_the_seat_to_a_computer_until_back():
    table = dealt(players=((BOB, "bob"),))
    seat = table.to_act
    other = user_at(table, 1 - seat)
    assert table.time_out("0:0") == (table, [])
    for n in range(3):
        table, events = table.time_out(table.turn_key)
        assert isinstance(events[0], TimedOut) and [e.action.verb for e in events if isinstance(e, Played)] == [
            "draw", "discard"]
        assert (SeatAway(seat) in events) == (n == 2)
        table, _ = table.act(other, DRAW)
        table, _ = table.act(other, next(a for a in table.game.legal_actions(1 - seat) if a.verb == "discard"))
    assert table.is_computer_turn and table.time_out(table.turn_key) == (table, [])
    level, _, view = table.computer_turn()
    assert level is Level.NORMAL and view == table.seat_view(seat)  # the away seat's level, its own view only
    refused(table, lambda t: t.act(user_at(t, seat), DRAW), "computer player has your seat")
    played, events = table.computer_play(lambda level, seed, view: view.legal_actions[1])
    assert events[0] == Played(seat, DRAW, by_computer=True)
    back, events = played.back(user_at(table, seat))
    assert back.computer_turn() is None  # the person plays their seat again
    assert events[0] == SeatBack(seat) and not back.seats[seat].away and back.seats[seat].timeouts == 0
    refused(back, lambda t: t.back(user_at(t, seat)), "your own seat already")
    # the hand ends while the computer still plays the seat: I'm back between hands shows them back at once
    discarded, _ = played.computer_play(lambda level, seed, view: next(a for a in view.legal_actions
                                                                       if a.verb == "discard"))
    over = finish(discarded)  # the other player drops
    assert over.seats[seat].away and over.public().anyone_away
    between, events = over.back(user_at(table, seat))
    assert events == [SeatBack(seat)] and not between.seats[seat].away and not between.public().anyone_away
    assert between.status is Status.BETWEEN_HANDS
    refused(between, lambda t: t.back(user_at(t, seat)), "your own seat already")


def test_end_and_idle_close():
    table = dealt()
    refused(table, lambda t: t.end(BOB, "bob"), "Only the host or a member with Manage Server")
    closed, events = table.end(EVE, "mod", is_admin=True)
    assert closed.status is Status.CLOSED and "pays nothing" in str(events[0].reason)
    assert lobby().close_idle(150.0, 60.0)[1] == []
    idle, events = lobby().close_idle(200.0, 60.0)
    assert idle.status is Status.CLOSED and "idle" in str(events[0].reason)


def test_closing_asks_first_when_it_costs_others_a_hand_or_a_wait():
    assert lobby(computers=2).end_question(ALICE) is None  # nobody else waits: close at once
    assert str(seated((BOB, "bob")).end_question(ALICE)) == "bob is seated, waiting for the deal."
    assert str(seated((BOB, "bob"), (CAROL, "carol")).end_question(EVE, is_admin=True)) == \
        "alice, bob and carol are seated, waiting for the deal."
    table = dealt()
    assert str(table.end_question(ALICE)) == f"Hand {table.hand_number} is in play: it pays nothing if the table closes now."
    with pytest.raises(UserError, match="Only the host or a member with Manage Server"):
        table.end_question(BOB)
    closed, _ = table.end(ALICE, "alice")
    with pytest.raises(UserError, match="closed"):
        closed.end_question(ALICE)


def test_json_round_trip_is_lossless_and_versioned():
    table = dealt()
    table, _ = table.act(user_at(table, table.to_act), DRAW)
    table = table.with_ping(Ping(555, table.turn_key)).with_message(444)
    data = json.loads(json.dumps(table.to_json()))
    assert data["schema"] == SCHEMA
    again = Table.from_json(data)
    assert again.to_json() == table.to_json() and again == table
    with pytest.raises(ValueError, match="newer bot"):
        Table.from_json(dict(data, bookkeeping=dict(data["bookkeeping"], schema=SCHEMA + 1)))


def test_a_schema_1_row_still_loads():
    """The untyped bookkeeping the bot saved before the table model is read as it was."""
    game = Game.deal(Rules(), ["alice", "bob"], 0, rng=random.Random(5))
    row = {"id": 3, "guild_id": 1, "channel_id": 2, "host_user_id": ALICE, "rules": {"preset": "standard"},
           "stake": 1, "scoring_mode": "stakes", "status": "playing", "hand_number": 2, "dealer": 0,
           "seats": [{"kind": "human", "user_id": ALICE, "name": "alice", "level": None},
                     {"kind": "human", "user_id": BOB, "name": "bob", "level": None}],
           "engine_state": json.dumps(game.to_json()), "message_id": 9,
           "bookkeeping": {"totals": [3, -3], "pushup_totals": [0, 2], "timeouts": [1, 0], "away": [1],
                           "hand_id": "3-2", "lobby_since": 5.0}}
    table = Table.from_json(row)
    assert [s.total for s in table.seats] == [3, -3] and table.seats[1].away and table.seats[0].timeouts == 1
    assert table.hand_id == "3-2" and table.ping is None and table.game.to_json() == game.to_json()


def test_the_public_view_shows_no_hand_before_the_showdown():
    table = dealt()
    public = table.public()
    assert all(s.showdown is None for s in public.seats)
    assert [s.cards for s in public.seats] == [5, 5, 5] and public.stock_size == len(table.game.stock)
    assert sum(s.is_turn for s in public.seats) == 1
    over = finish(table).public()
    assert [list(s.showdown) for s in over.seats] == [list(h) for h in table.game.hands]
    assert over.outcome is not None and over.turn is None
