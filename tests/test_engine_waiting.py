"""The waiting house rule: laying or being hit bars your drop for some turns."""

import pytest

from engine import DRAW, DROP, Discard, Hit, IllegalAction, Spread
from engine_helpers import C, cards, deal, rules_of


def pass_turn(game):
    seat = game.turn
    game.apply(seat, DRAW)
    game.apply(seat, Discard(game.hands[seat][-1]))


def test_a_new_spread_bars_the_drop_for_the_next_three_turns():
    game = deal(["7s 8s 9s Kd 2c", "Kh Qh 2h 3h 4c"], rules=rules_of("waiting"), stock="Qc")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Qc")))
    barred = []
    for _ in range(4):
        pass_turn(game)  # seat 1
        assert game.turn == 0
        barred.append(DROP not in game.legal_actions(0))
        if barred[-1]:
            with pytest.raises(IllegalAction, match="waiting"):
                game.apply(0, DROP)
            pass_turn(game)
    assert barred == [True, True, True, False]
    assert DROP in game.legal_actions(0)


def test_without_waiting_you_may_drop_right_after_spreading():
    game = deal(["7s 8s 9s Kd 2c", "Kh Qh 2h 3h 4c"], stock="Qc")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Qc")))
    pass_turn(game)
    assert DROP in game.legal_actions(0)


def test_a_hit_on_your_spread_bars_your_next_turn_and_waits_add_up():
    rules = rules_of("waiting")
    game = deal(["7s 8s 9s Kd 2c", "10s Qh 2h 3h 4c"], rules=rules, stock="Qc 5d")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Qc")))
    assert game.waits[0] == 3
    game.apply(1, DRAW)
    game.apply(1, Hit(C("10s"), 0))  # seat 0 is hit: one more turn
    assert game.waits[0] == 4
    assert game.waits[1] == 0  # hitting someone else's spread costs the hitter nothing
    game.apply(1, Discard(C("5d")))
    barred = 0
    while DROP not in game.legal_actions(0):
        barred += 1
        pass_turn(game)
        pass_turn(game)
    assert barred == 4


def test_hit_wait_cap_makes_two_hits_in_one_round_cost_one_turn():
    for cap, expected in ((False, 2), (True, 1)):
        rules = rules_of(waiting=True, spread_wait=0, hit_wait=1, hit_wait_cap=cap)
        game = deal(["7s 8s 9s Kd 2c", "10s 6s 2h 3h 4c"], rules=rules, stock="Qc 5d")
        game.apply(0, DRAW)
        game.apply(0, Spread(cards("7s 8s 9s")))
        game.apply(0, Discard(C("Qc")))
        game.apply(1, DRAW)
        game.apply(1, Hit(C("10s"), 0))
        game.apply(1, Hit(C("6s"), 0))
        assert game.waits[0] == expected, cap


def test_washington_spread_wait_zero_hit_wait_one():
    game = deal(["7s 8s 9s Kd 2c", "10s Qh 2h 3h 4c"], rules=rules_of("washington"), stock="Qc 5d")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Qc")))
    assert game.waits[0] == 0
    game.apply(1, DRAW)
    game.apply(1, Hit(C("10s"), 0))
    game.apply(1, Discard(C("5d")))
    assert DROP not in game.legal_actions(0)
    pass_turn(game)
    pass_turn(game)
    assert DROP in game.legal_actions(0)


def test_waiting_never_stops_a_tonk_out():
    rules = rules_of("waiting")
    game = deal(["7s 8s 9s 4h 4d", "Kh Qh 2h 3h 4c"], rules=rules, stock="Kc 5c 4s")
    game.apply(0, DRAW)  # Kc
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Kc")))
    pass_turn(game)  # seat 1 draws 5c
    assert DROP not in game.legal_actions(0)
    game.apply(0, DRAW)  # 4s
    out = game.apply(0, Spread(cards("4h 4d 4s")))
    assert out.kind == "tonk_out" and out.winners == (0,)
