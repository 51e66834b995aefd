"""Real groups at a table, in the model: leaving during a hand, the host's controls (an idle seat
to a computer, removing a seat), the host passing on, and playing again once a table closed.
Every command goes through `Table.apply`, as the service gives it."""

import json
import random

import pytest

from bot.commands import (AddComputer, Back, End, Join, Leave, NextHand, Play, Remove, Start, TakeOver, TimeOut)
from bot.errors import UserError
from bot.table import (HandOver, HostChanged, SeatAway, SeatLeaving, SeatRemoved, Status, Table, TableClosed,
                       TakeOverAsked, TurnStarted)
from engine import DRAW, DROP, Rules
from engine.players import make_player
from test_table import ALICE, BOB, CAROL, EVE, lobby, user_at

DAVE = 4


def apply(table: Table, command, seed: int = 1):
    return table.apply(command, now=500.0, rng=random.Random(seed))


def refused(table: Table, command, match: str) -> None:
    before = json.dumps(table.to_json())
    with pytest.raises(UserError, match=match):
        apply(table, command)
    assert json.dumps(table.to_json()) == before


def in_play(*people: tuple[int, str], computers: int = 0, seed: int = 1) -> Table:
    table = lobby(computers=computers)
    for user_id, name in people:
        table, _ = apply(table, Join(user_id, name))
    rng = random.Random(seed)
    table, _ = table.apply(Start(ALICE), rng=rng)
    while not table.in_play:
        table, _ = table.apply(NextHand(ALICE), rng=rng)
    return table


def play_out(table: Table) -> tuple[Table, list]:
    """Play the hand to its end: people and computers alike play as a normal computer player would."""
    events = []
    players = {}
    while table.in_play:
        seat = table.to_act
        player = players.setdefault(seat, make_player("normal", seed=seat))
        action = player.choose(table.game.view(seat))
        if table.seats[seat].played_by_computer:
            from bot.commands import ComputerPlay
            table, more = apply(table, ComputerPlay(table.turn_key, action))
        else:
            table, more = apply(table, Play(user_at(table, seat), action))
        events += more
    return table, events


def test_leaving_during_a_hand_hands_the_seat_to_a_computer_until_the_hand_ends():
    table = in_play((BOB, "bob"), (CAROL, "carol"))
    seat = table.seat_of(BOB)
    table, events = apply(table, Leave(BOB))
    assert events[0] == SeatLeaving(seat, "bob") and table.status is Status.PLAYING
    assert table.seats[seat].leaving and table.seats[seat].played_by_computer
    public = table.public()
    assert public.seats[seat].leaving and public.anyone_away  # I'm back shows: the leaver may return
    refused(table, Leave(BOB), "left this table already")
    refused(table, Play(BOB, DRAW), "computer player has your seat")
    table, events = play_out(table)
    assert any(isinstance(e, HandOver) for e in events) and table.status is Status.BETWEEN_HANDS
    assert table.seats[seat].name == "bob"  # still seated for the showdown and the ledger of that hand
    refused(table, NextHand(BOB), "Only seated players")
    dealt, _ = apply(table, NextHand(ALICE))
    assert [s.name for s in dealt.seats] == ["alice", "carol"] and dealt.in_play or dealt.status is Status.BETWEEN_HANDS


def test_a_leaver_on_turn_is_played_at_once_and_i_m_back_returns_the_seat():
    table = in_play((BOB, "bob"))
    to_act = table.to_act
    user = user_at(table, to_act)
    table, events = apply(table, Leave(user))
    assert table.is_computer_turn and TurnStarted(to_act, table.turn_key, True) in events
    table, events = apply(table, Back(user))
    assert not table.seats[to_act].leaving and not table.is_computer_turn


def test_a_table_left_with_one_player_closes_after_that_hand():
    table = in_play((BOB, "bob"))
    table, _ = apply(table, Leave(BOB))
    assert table.status is Status.PLAYING and table.host_user_id == ALICE
    table, events = play_out(table)
    kinds = [type(e) for e in events]
    assert HandOver in kinds and TableClosed in kinds and kinds.index(HandOver) < kinds.index(TableClosed)
    assert table.status is Status.CLOSED and table.game.over  # the hand is still recorded with its result


def test_everyone_leaving_a_hand_closes_the_table_and_the_hand_pays_nothing():
    table = in_play(computers=1)
    table, events = apply(table, Leave(ALICE))
    assert table.status is Status.CLOSED and "pays nothing" in str(table.closed_reason)


def test_the_host_leaving_during_a_hand_passes_the_table_to_the_next_person():
    table = in_play((BOB, "bob"), (CAROL, "carol"))
    table, events = apply(table, Leave(ALICE))
    heir = table.seat_of(BOB)
    assert table.host_user_id == BOB and HostChanged(heir, "bob") in events


def test_the_host_hands_an_idle_seat_to_a_computer_at_once():
    table = in_play((BOB, "bob"), (CAROL, "carol"))
    seat = table.seat_of(CAROL)
    refused(table, TakeOver(EVE, seat), "not seated")
    refused(table, TakeOver(ALICE, table.seat_of(ALICE)), "your own seat")
    refused(table, TakeOver(ALICE, 9), "no such seat")
    table, events = apply(table, TakeOver(ALICE, seat))
    assert SeatAway(seat) in events and table.seats[seat].away
    refused(table, TakeOver(ALICE, seat), "has carol's seat already")


def test_the_others_hand_an_idle_seat_over_by_a_majority_so_an_absent_host_holds_nobody():
    table = in_play((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave"))
    host = table.seat_of(ALICE)
    assert table.votes_needed(host) == 2  # three others present: two of them
    table, events = apply(table, TakeOver(BOB, host))
    assert events == [TakeOverAsked(host, 1, 2)] and not table.seats[host].away
    refused(table, TakeOver(BOB, host), "asked already")
    table, events = apply(table, TakeOver(CAROL, host))
    assert SeatAway(host) in events and table.seats[host].away
    # the host is away now: the next person present hosts
    assert table.host_user_id == user_at(table, (host + 1) % 4)
    assert any(isinstance(e, HostChanged) for e in events)


def test_a_play_clears_the_asks_against_that_seat():
    table = in_play((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave"))
    seat = table.to_act
    asker = next(user_at(table, i) for i in range(4) if i != seat and user_at(table, i) != ALICE)
    table, _ = apply(table, TakeOver(asker, seat))
    assert table.seats[seat].votes == (asker,)
    restored = Table.from_json(json.loads(json.dumps(table.to_json())), version=table.version)
    assert restored.seats[seat].votes == (asker,)  # asks survive a restart
    table, _ = apply(table, Play(user_at(table, seat), DRAW))
    assert table.seats[seat].votes == ()


def test_the_host_removes_a_seat_between_hands_only():
    table = in_play((BOB, "bob"), computers=1)
    refused(table, Remove(ALICE, 1), "hand is in play")
    table, _ = play_out(table)
    refused(table, Remove(BOB, 0), "Only the host")
    refused(table, Remove(ALICE, table.seat_of(ALICE)), "your own seat")
    computer = next(i for i, s in enumerate(table.seats) if not s.is_human)
    table, events = apply(table, Remove(ALICE, computer))
    assert isinstance(events[0], SeatRemoved) and len(table.seats) == 2 and all(s.is_human for s in table.seats)
    table, _ = apply(table, NextHand(BOB))
    assert table.hand_number == 2


def test_play_again_opens_a_lobby_with_the_same_seats_and_rules():
    rules = Rules.preset("chicago")
    table = Table.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice", rules=rules, stake=3,
                       scoring=lobby().scoring, computers=1)
    table, _ = apply(table, Join(BOB, "bob"))
    table, _ = apply(table, AddComputer(BOB, "hard"))
    refused(table, Leave(EVE), "not seated")
    with pytest.raises(UserError, match="still open"):
        table.again(BOB, "bob")
    table, _ = apply(table, End(ALICE, "alice"))
    with pytest.raises(UserError, match="Only the players"):
        table.again(EVE, "eve")
    again = table.again(BOB, "Bobby")
    assert again.status is Status.LOBBY and again.host_user_id == BOB and again.rules == rules and again.stake == 3
    assert [s.name for s in again.seats] == ["Bobby", "alice", "Goblin (normal)", "One-Eye (hard)"]
    assert all(s.total == 0 for s in again.seats)


def test_three_time_outs_of_the_host_pass_the_table_on():
    table = in_play((BOB, "bob"))
    host = table.seat_of(ALICE)
    for _ in range(3):
        while table.to_act != host:
            table, _ = apply(table, TimeOut(table.turn_key))
        table, events = apply(table, TimeOut(table.turn_key))
        assert table.in_play  # time-outs draw and discard: this seeded hand goes on
    assert table.seats[host].away and table.host_user_id == BOB


def test_a_seat_that_confirms_picks_is_asked_first_and_nothing_changes_until_it_answers():
    from bot.commands import SetConfirm
    from bot.table import AskFirst, ConfirmSet
    from engine import Discard

    table = lobby()
    table, _ = apply(table, Join(BOB, "bob", confirm=True))
    assert table.seats[1].confirm and not table.seats[0].confirm
    rng = random.Random(2)
    table, _ = table.apply(Start(ALICE), rng=rng)
    while not table.in_play:
        table, _ = table.apply(NextHand(ALICE), rng=rng)
    while table.to_act != 1:  # alice plays at once: no question for her
        table, _ = apply(table, Play(ALICE, DRAW))
        table, _ = apply(table, Play(ALICE, next(a for a in table.game.legal_actions(0) if isinstance(a, Discard))))
    table, _ = apply(table, Play(BOB, DRAW))  # a button, not a pick: no question
    discard = next(a for a in table.game.legal_actions(1) if isinstance(a, Discard))
    before = json.dumps(table.to_json())
    with pytest.raises(AskFirst) as asked:
        apply(table, Play(BOB, discard))
    assert asked.value.table is table and asked.value.action == discard and json.dumps(table.to_json()) == before
    played, _ = apply(table, Play(BOB, discard, confirmed=True))
    assert played.to_act == 0 and played.seats[1].confirm  # still asks next time
    quiet, _ = apply(table, Play(BOB, discard, confirmed=True, stop_asking=True))
    assert not quiet.seats[1].confirm
    again, events = apply(quiet, SetConfirm(BOB, True))
    assert again.seats[1].confirm and events == [ConfirmSet(1, True)]
    assert apply(again, SetConfirm(BOB, True)) == (again, [])
    restored = Table.from_json(json.loads(json.dumps(again.to_json())))
    assert restored.seats[1].confirm  # the choice survives a restart


def test_the_showdown_picture_says_what_its_totals_count():
    from dataclasses import replace as changed

    from bot.table import Scoring
    from cogs import pictures, render

    table, _ = play_out(in_play((BOB, "bob")))
    picture = render.table_picture(table.public())
    assert picture.title.endswith("totals in points")
    assert "totals in points" in pictures.describe_table(picture)  # the alt text says it too
    pushups = render.table_picture(changed(table, scoring=Scoring.PUSHUPS).public())
    assert pushups.title.endswith("totals in push-ups")
