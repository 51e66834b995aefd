"""Whole-session pieces of RULES.md section 10: side bets and pots, the big one, newcomers."""

import random

import pytest

from engine import RulesError, Suit
from engine.session import (SidePot, big_one_stake, call_suit, check_big_one, high_card_winner, high_cards,
                            seat_newcomer, settle_side_bets, side_bet)
from engine_helpers import cards


def test_high_card_shows_each_participants_highest_of_the_suit():
    bet = side_bet("high_card", [0, 1, 2], 1, suit="h", players=4)
    hands = [cards("Ah 3h Kc"), cards("Qh 2c 3c"), cards("2s 3s 4s"), cards("Kh 4c 5c")]
    shown = high_cards(bet, hands)
    assert shown == [cards("3h")[0], cards("Qh")[0], None, None]  # seat 3 is not in; A is low
    assert high_card_winner(shown) == 1
    assert high_card_winner([None, None]) is None


def test_side_bets_settle_zero_sum_with_the_pot():
    bets = {"high_card": side_bet("high_card", [0, 2], 2, pot_in=5, suit="s", players=3),
            "naturals": side_bet("naturals", [0, 1, 2], 1, pot_in=7, players=3)}
    payments, pot_out = settle_side_bets(bets, {"high_card": 2, "naturals": None}, 3)
    assert payments == [-3, -1, -2 - 1 + 9] and pot_out == {"high_card": 0, "naturals": 10}
    assert sum(payments) + sum(pot_out.values()) - 12 == 0
    payments, pot_out = settle_side_bets(bets, {"high_card": None, "naturals": 1}, 3)
    assert payments == [-3, -1 + 10, -3] and pot_out == {"high_card": 9, "naturals": 0}


@pytest.mark.parametrize("args, words", [
    (("poker", [0], 1), "no side bet"),
    (("naturals", [0, 0], 1), "distinct seats"),
    (("naturals", [0], 0), "side stake"),
    (("naturals", [0], 10**7), "side stake"),
    (("high_card", [0], 1), "called suit"),
])
def test_bad_side_bets_are_refused(args, words):
    with pytest.raises(RulesError, match=words):
        side_bet(*args, players=3)


def test_a_side_pot_is_won_whole_or_refunded_to_its_payers():
    pot = SidePot()
    pot.pay_in("ann", 2)
    pot.pay_in("bob", 2)
    pot.pay_in("ann", 1)
    assert pot.total == 5
    assert pot.refund() == {"ann": 3, "bob": 2} and pot.total == 0
    pot.pay_in("bob", 4)
    assert pot.won_by("cid") == {"cid": 4} and pot.total == 0


def test_the_called_suit():
    assert call_suit("spades", random.Random(1)) is Suit.SPADES
    assert {call_suit("random", random.Random(s)) for s in range(40)} == set(Suit)
    with pytest.raises(RulesError):
        call_suit("hearts", random.Random(1))


def test_the_big_one_doubles_the_stake_for_1_to_10_hands():
    assert big_one_stake(3) == 6
    assert check_big_one(1) == 1 and check_big_one(10) == 10
    for bad in (0, 11, True, "3"):
        with pytest.raises(RulesError, match="1 to 10"):
            check_big_one(bad)


def test_a_newcomer_sits_at_the_dealers_right_and_deals_last():
    seated, dealer, seat = seat_newcomer(["A", "B", "C"], 1, "N")
    assert seated == ["A", "N", "B", "C"] and dealer == 2 and seat == 1 and seated[dealer] == "B"
    upcoming = [seated[(dealer + k) % 4] for k in range(1, 4)]  # the deal passes to the left
    assert upcoming == ["C", "A", "N"]  # everyone who has not dealt yet deals before the newcomer
    assert seat_newcomer(["A", "B"], 0, "N") == (["N", "A", "B"], 1, 0)
