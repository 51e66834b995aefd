"""A table under house rules (RULES.md sections 9-11): the hand it deals, its JSON across a
restart, the slap race, and what the turn timer plays where a house rule forbids the usual."""

import json
import random
from dataclasses import replace

import pytest

from bot.errors import UserError
from bot.table import Played, RulesChanged, Status, Table, TimedOut, TurnStarted
from engine import DRAW, DROP, Discard, Game, Rules, Spread, TonkError
from engine.actions import Slap
from engine.house import SLAP_DISCARD
from engine_helpers import C, cards, deal, rules_of
from test_table import ALICE, BOB, CAROL, EVE, lobby


def refused(table: Table, operation, match: str) -> None:
    """The operation is refused (by the table or the engine) saying `match`; the table is as it was."""
    before = json.dumps(table.to_json())
    with pytest.raises((UserError, TonkError), match=match):
        operation(table)
    assert json.dumps(table.to_json()) == before


SLAP_HANDS = ["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"]


def at_table(game: Game, rules: Rules) -> Table:
    """alice, bob and carol seated (in that order) playing `game`, dealt by carol."""
    table = lobby(rules=rules)
    table, _ = table.join(BOB, "bob")
    table, _ = table.join(CAROL, "carol")
    return replace(table, status=Status.PLAYING, hand_number=1, dealer=2, game=game)


def slap_window(rules=None) -> Table:
    """alice has laid 6s 7s 8s and discarded 9s, which fits her run: a slap window is open."""
    rules = rules or Rules.preset("slap")
    table = at_table(deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules,
                          names=["alice", "bob", "carol"]), rules)
    for action in (DRAW, Spread(cards("6s 7s 8s")), Discard(C("9s"))):
        table, _ = table.act(ALICE, action)
    return table


def test_house_rules_deal_a_house_hand_and_standard_rules_the_plain_one():
    for preset, house in (("standard", False), ("waiting", False), ("chicago", True), ("slap", True),
                          ("high faces", True)):
        table, _ = lobby(rules=Rules.preset(preset)).join(BOB, "bob")
        table, _ = table.start(ALICE, random.Random(3))
        assert type(table.game) is Game and (table.game.house is not None) is house, preset


def test_a_house_hand_in_play_survives_the_round_trip_through_json():
    rules = rules_of("slap", slap="next_player_first")
    table = slap_window(rules)
    table, _ = table.slap(CAROL, table.slap_window)  # carol slaps; bob, the next player, may take it over
    data = json.loads(json.dumps(table.to_json()))
    again = Table.from_json(data)
    assert again.game.house is not None and again.rules == rules
    assert again.game.to_json() == table.game.to_json()
    assert again.turn_key == table.turn_key and again.to_act == table.to_act == 2
    assert again.slap_window == table.slap_window and again.public().slappers == (1,)
    # the restored hand plays on exactly as the one saved would
    after, _ = again.slap(BOB, again.slap_window)
    assert after.game.phase == "start" and after.to_act == 1 and len(after.game.hands[2]) == 5


def test_the_first_slap_wins_and_a_later_one_is_told_it_was_too_late():
    table = slap_window()
    window = table.slap_window
    public = table.public()
    assert window is not None and public.slap_window == window and public.slappers == (0, 1, 2)
    table, events = table.slap(CAROL, window)
    assert events[0] == Played(2, Slap(0))
    assert table.game.phase == SLAP_DISCARD and table.to_act == 2
    assert isinstance(events[-1], TurnStarted) and events[-1].seat == 2  # carol owes a discard now
    assert table.slap_window is None and table.public().seats[2].is_turn
    refused(table, lambda t: t.slap(BOB, window), "Too late: carol slapped that card first")
    refused(table, lambda t: t.slap(EVE, window), "not seated")
    refused(table, lambda t: t.act(BOB, DRAW), "carol slapped and must discard")
    table, _ = table.act(CAROL, Discard(C("Jh")))
    assert table.to_act == 1 and table.game.phase == "start"


def test_a_slap_for_a_window_that_closed_changes_nothing():
    table = slap_window()
    window = table.slap_window
    table, _ = table.act(BOB, DRAW)  # the next player drew: the 9s is dead
    refused(table, lambda t: t.slap(CAROL, window), "can no longer be slapped")
    refused(table, lambda t: t.slap(CAROL, None), "can no longer be slapped")
    assert table.computer_slap(2, window, Slap(0)) == (table, [])  # carol is no computer, and too late anyway
    standard = at_table(deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", names=["alice", "bob", "carol"]), Rules())
    refused(standard, lambda t: t.slap(BOB, None), "no slapping")


def test_a_computer_slap_lands_only_while_its_window_is_open():
    table = slap_window()
    table = replace(table, seats=table.seats[:2] + (replace(table.seats[2], away=True),))  # a computer plays carol
    window = table.slap_window
    assert table.computer_slap(2, window + 1, Slap(0)) == (table, [])  # another window
    assert table.computer_slap(1, window, Slap(0)) == (table, [])  # bob is a person, playing
    slapped, events = table.computer_slap(2, window, Slap(0))
    assert events[0] == Played(2, Slap(0), by_computer=True) and slapped.game.phase == SLAP_DISCARD
    assert slapped.is_computer_turn  # so the computer makes carol's extra discard too


def test_the_slappers_extra_discard_is_a_turn_of_its_own_for_the_timer():
    table = slap_window()
    turn = table.turn_key
    table, _ = table.slap(CAROL, table.slap_window)
    assert table.turn_key != turn
    assert table.time_out(turn) == (table, [])  # bob's timer, started before the slap, does nothing
    timed, events = table.time_out(table.turn_key)
    assert events[0] == TimedOut(2) and events[1] == Played(2, Discard(C("Kc")), by_computer=True)
    assert timed.to_act == 1 and timed.game.phase == "start" and len(events) == 3  # bob's turn starts


def test_a_timed_out_turn_obeys_must_spread_and_the_boobed_hand():
    rules = rules_of(must_spread="on")
    game = deal(["6s 7s 8s 9d Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"], stock="Qs 2s 3s", upcard="Jd", rules=rules,
                names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    table, events = table.time_out(table.turn_key)
    plays = [e.action for e in events if isinstance(e, Played)]
    assert plays == [DRAW, Spread(cards("6s 7s 8s")), Discard(C("Kd"))]  # the spread first: the rule forces it
    assert table.to_act == 1
    # boobed: with the stock nearly gone, an emptied hand must drop at its next turn
    boobed = rules_of(boobed=True)
    game = deal(["6s 7s 8s 9s", "2c 3d 4h 10h", "Ac Kc 5d 6d"], stock="Qs", upcard="Jd",
                rules=replace(boobed, hand_size=4), names=["alice", "bob", "carol"])
    del game.stock[:-3]  # three cards left in the stock: no more than the players
    table = at_table(game, game.rules)
    table, _ = table.act(ALICE, DRAW)
    table, _ = table.act(ALICE, Spread(cards("6s 7s 8s 9s")))
    table, _ = table.act(ALICE, Discard(C("Qs")))
    assert table.game.boobed[0] and not table.game.over
    table, _ = table.time_out(table.turn_key)  # bob
    table, _ = table.time_out(table.turn_key)  # carol
    assert table.to_act == 0
    table, events = table.time_out(table.turn_key)
    assert [e.action for e in events if isinstance(e, Played)] == [DROP]
    assert table.status is Status.BETWEEN_HANDS


def test_a_person_cannot_slap_while_a_computer_has_their_seat():
    table = slap_window()
    table = replace(table, seats=table.seats[:2] + (replace(table.seats[2], away=True),))
    with pytest.raises(UserError, match="computer player has your seat"):
        table.slap(CAROL, table.slap_window)


def test_the_host_alone_changes_the_rules_in_the_lobby_within_the_seats_they_allow():
    table = lobby()
    for user, name in ((BOB, "bob"), (CAROL, "carol"), (4, "dave"), (5, "erin")):
        table, _ = table.join(user, name)
    chicago = Rules.preset("chicago")
    refused(table, lambda t: t.set_rules(BOB, chicago), "Only the host can change the house rules.")
    refused(table, lambda t: t.set_rules(EVE, chicago), "Only the host")
    refused(table, lambda t: t.set_rules(ALICE, rules_of(hand_size=12)), "seat at most 4 players, and 5 are seated")
    changed, events = table.set_rules(ALICE, chicago)
    assert events == [RulesChanged()] and changed.rules == chicago and changed.moves == table.moves + 1
    assert changed.set_rules(ALICE, chicago) == (changed, [])  # the same rules again: nothing to save
    columns = changed.columns(since=table)
    assert Rules.from_dict(columns["rules"]) == chicago and "rules" not in changed.columns(since=changed)
    assert Table.from_json(json.loads(json.dumps(changed.to_json()))).rules == chicago
    started, _ = changed.start(ALICE, random.Random(1))
    refused(started, lambda t: t.set_rules(ALICE, Rules()), "only in the lobby")


def test_computer_seats_slap_after_a_human_reaction_time_from_their_own_view():
    from bot.service import computer_slaps
    from bot.table import Level, Seat

    delays = []
    for hand_number in range(40):
        table = slap_window()
        seats = (table.seats[0], Seat.computer("Goblin", Level.HARD), Seat.computer("Elmo", Level.EASY))
        table = replace(table, seats=seats, hand_number=hand_number)
        offers = computer_slaps(table)
        assert offers == sorted(offers, key=lambda o: (o[0], o[1]))
        for delay, seat, action in offers:
            assert seat in (1, 2) and table.game.is_legal(seat, action)
            delays.append((seat, delay))
    hard = [d for s, d in delays if s == 1]
    easy = [d for s, d in delays if s == 2]
    assert min(hard) >= 0.3 and min(easy) >= 0.6  # never instant: a quick person beats them
    assert sum(hard) / len(hard) < sum(easy) / len(easy) and len(set(hard)) > 10  # varied, hard the quicker
    assert len(easy) < 40  # easy players miss some windows
    table = slap_window()
    assert computer_slaps(table) == []  # people only: the bot slaps for nobody
