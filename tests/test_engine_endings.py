"""Every ending of RULES.md section 5 and its settlement, in stakes and push-ups."""

import pytest

from engine import DRAW, DROP, Discard, Game, Hit, Rules, Spread
from engine_helpers import C, cards, deal, rules_of

# --------------------------------------------------------------------------- instant wins

LOW = "As 2c 3d 4h 6s"  # 16: not low under any option
MID = "9c 9d 2h 3h 4c"  # 27
MID2 = "9c 9d 8h 7h 6c"  # 39


def outcome_of(hands, rules=None, dealer=None, stake=1):
    game = deal(hands, rules=rules, dealer=dealer, stake=stake)
    return game.outcome


def test_49_on_the_deal_wins_double_from_everyone():
    out = outcome_of([LOW, "Kd Qd Jd 10d 9s", MID])
    assert out.kind == "instant" and out.winners == (1,)
    assert out.counts == (16, 49, 27)
    assert out.payments == (-2, 4, -2)
    assert out.pushups == (32, 0, 54)


def test_stake_multiplies_payments():
    out = outcome_of([LOW, "Kd Qd Jd 10d 10s", MID], stake=5)
    assert out.payments == (-10, 20, -10)


def test_two_instant_winners_void_the_hand():
    out = outcome_of(["Kc Qc Jc 10c 10h", "Kd Qd Jd 10d 9s", MID])
    assert out.kind == "void" and out.winners == () and out.payments == (0, 0, 0) and out.pushups == (0, 0, 0)


def test_50_over_49_pays_49_single_and_50_beats_49():
    rules = rules_of(instant_high="50_over_49")
    out = outcome_of([LOW, "Kd Qd Jd 10d 9s", MID], rules=rules)
    assert out.payments == (-1, 2, -1) and out.pushups == (16, 0, 27)
    out = outcome_of(["Kc Qc Jc 10c 10h", "Kd Qd Jd 10d 9s", MID], rules=rules)
    assert out.kind == "instant" and out.winners == (0,) and out.payments == (4, -2, -2)


def test_instant_high_off():
    out = outcome_of(["Kc Qc Jc 10c 10h", "Kd Qd Jd 10d 9s", MID], rules=rules_of(instant_high="off"))
    assert out is None


def test_instant_low_double_and_triple():
    out = outcome_of(["As 2c 3d 4h 2s", MID, "9s 9h 8c 8d 7c"], rules=rules_of(instant_low=12))
    assert out.winners == (0,) and out.counts[0] == 12 and out.payments == (4, -2, -2)
    assert outcome_of(["As 2c 3d 4h 3s", MID, "9s 9h 8c 8d 7c"], rules=rules_of(instant_low=12)) is None
    out = outcome_of(["As 2c 3d Ah 2s", MID, "9s 9h 8c 8d 7c"], rules=rules_of(instant_low=9, instant_low_triple=True))
    assert out.counts[0] == 9 and out.payments == (6, -3, -3) and out.pushups == (0, 81, 123)


def test_conflict_best_low_beats_50_and_lower_low_beats_higher():
    rules = rules_of(instant_low=12, instant_conflict="best")
    out = outcome_of(["Kc Qc Jc 10c 10h", "As 2c 3d 4h Ah", MID2], rules=rules)
    assert out.winners == (1,) and out.payments == (-2, 4, -2)
    out = outcome_of(["As 2c 3d 4h 2s", "Ah 2d 3h 4d 5h", MID2], rules=rules)  # 12 and 15? no: 15 > 12
    assert out.winners == (0,)
    out = outcome_of(["As 2c 3d 4h 2s", "Ah 2d 3h Ac Ad", MID2], rules=rules)  # 12 vs 8
    assert out.winners == (1,)


def test_conflict_best_tie_goes_to_nearest_the_dealers_left():
    rules = rules_of(instant_low=12, instant_conflict="best")
    hands = ["As 2c 3d 4h 2s", MID2, "Ah 2d 3h 4d 2h"]  # seats 0 and 2 both 12
    assert outcome_of(hands, rules=rules, dealer=1).winners == (2,)
    assert outcome_of(hands, rules=rules, dealer=2).winners == (0,)


def test_conflict_all_paid_each_winner_collects_from_the_others():
    rules = rules_of(instant_low=12, instant_conflict="all_paid")
    out = outcome_of(["Kc Qc Jc 10c 10h", "As 2c 3d 4h Ah", MID], rules=rules)
    assert out.kind == "instant" and out.winners == (0, 1)
    assert out.payments == (2, 2, -4) and out.pushups == (0, 0, 54)


def test_forty_card_deck_instant_high_is_47_or_50():
    out = outcome_of([LOW, "Kd Qd Jd Js 7s", "6c 6d 2h 3h 4c"], rules=Rules(deck=40))
    assert out.winners == (1,) and out.counts[1] == 47


def test_49_after_play_has_begun_is_worth_nothing():
    game = deal(["Kd Qd Jd 10d 8s", MID], upcard="5c", stock="As")
    game.apply(0, DRAW)
    game.apply(0, Discard(C("As")))
    assert game.outcome is None


# --------------------------------------------------------------------------- tonk out / run out

def test_tonk_out_pays_double_by_default():
    game = deal(["7s 8s 9s 10s Js", "Kd Qd 2h 3h 4c", "9c 9d 5h 6h 7c"], stock="Qs")
    game.apply(0, DRAW)
    out = game.apply(0, Spread(cards("7s 8s 9s 10s Js Qs")))
    assert out.kind == "tonk_out" and out.winners == (0,)
    assert out.counts == (0, 29, 36)
    assert out.payments == (4, -2, -2) and out.pushups == (0, 58, 72)


def test_tonk_out_single_house_rule():
    game = deal(["7s 8s 9s 10s Js", "Kd Qd 2h 3h 4c"], stock="Qs", rules=rules_of(tonk_out_pays="single"))
    game.apply(0, DRAW)
    out = game.apply(0, Spread(cards("7s 8s 9s 10s Js Qs")))
    assert out.payments == (1, -1) and out.pushups == (0, 29)


def test_tonk_out_double_only_with_a_second_new_spread():
    rules = rules_of(tonk_out_pays="second_spread")
    game = deal(["7s 8s 9s 4h 4d", "Kd Qd 2h 3h 4c"], stock="4s", rules=rules)
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    out = game.apply(0, Spread(cards("4h 4d 4s")))
    assert out.kind == "tonk_out" and out.payments == (2, -2)
    game = deal(["7s 8s 9s 10s Js", "Kd Qd 2h 3h 4c"], stock="Qs", rules=rules)
    game.apply(0, DRAW)
    out = game.apply(0, Spread(cards("7s 8s 9s 10s Js Qs")))
    assert out.payments == (1, -1)


def test_tonk_out_by_hitting_the_last_card():
    game = deal(["5d 6d 7d 8d 9d", "Kd Qd 2h 3h 4c"], stock="10d")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("5d 6d 7d")))
    game.apply(0, Hit(C("8d"), 0))
    game.apply(0, Hit(C("9d"), 0))
    out = game.apply(0, Hit(C("10d"), 0))
    assert out.kind == "tonk_out" and out.payments == (2, -2) and out.pushups == (0, 58)


def test_run_out_discarding_the_last_card_pays_single():
    game = deal(["7s 8s 9s 10s Js", "Kd Qd 2h 3h 4c", "9c 9d 5h 6h 7c"], stock="Kh")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Hit(C("10s"), 0))
    game.apply(0, Hit(C("Js"), 0))
    out = game.apply(0, Discard(C("Kh")))
    assert out.kind == "run_out" and out.winners == (0,)
    assert out.payments == (2, -1, -1) and out.pushups == (0, 29, 36)


# --------------------------------------------------------------------------- drops

def test_drop_won_strictly_lowest():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c", "9c 9d 5h 6h 7c"])
    out = game.apply(0, DROP)
    assert out.kind == "drop_won" and out.winners == (0,) and out.counts == (15, 29, 36)
    assert out.payments == (2, -1, -1) and out.pushups == (0, 29, 36)


def test_drop_tied_is_caught_and_dropper_pays_double():
    game = deal(["As 2c 3d 4h 10s", "Ah 2d 3h 4c 10d"])
    out = game.apply(0, DROP)
    assert out.kind == "caught" and out.winners == (1,) and out.dropper == 0
    assert out.payments == (-2, 2) and out.pushups == (40, 0)


# 4 players, dealer 3 so seat 0 plays first and drops. Counts [20, 15, 18, 25].
FOUR = ["As 2c 3d 4h Ks", "Ah 2d 3h 4c 5s", "Ad 2h 3c 2s Kc", "Kd Qd 3s Ac 4s"]

CAUGHT = {
    "standard": (-4, 4, 1, -1),
    "low_collects": (-2, 4, -1, -1),
    "dropper_pays_all": (-3, 3, 0, 0),
    "equal_or_lower": (-2, 3, 0, -1),
    "double_to_all": (-6, 2, 2, 2),
    "five_to_low": (-5, 5, 0, 0),
    "per_player": (-8, 8, 0, 0),
}


@pytest.mark.parametrize("variant", sorted(CAUGHT))
def test_every_caught_pays_variant(variant):
    game = deal(FOUR, rules=rules_of(caught_pays=variant), dealer=3)
    assert game.counts() == [20, 15, 18, 28]
    out = game.apply(0, DROP)
    assert out.kind == "caught" and out.winners == (1,)
    assert out.payments == CAUGHT[variant]
    assert sum(out.payments) == 0
    assert out.pushups == (40, 0, 18, 28)


# Two low players tied: counts [20, 15, 15, 35]
TIED = ["As 2c 3d 4h Ks", "Ah 2d 3h 4c 5s", "Ad 2h 3c 4s 5d", "Kd Qd 2s 3s 10c"]
CAUGHT_TIED = {
    "standard": (-4, 3, 3, -2),  # seat 3 (35) is over d: not paid by the dropper, pays each low
    "low_collects": (-4, 3, 3, -2),
    "dropper_pays_all": (-6, 3, 3, 0),
    "equal_or_lower": (-2, 2, 2, -2),
    "double_to_all": (-6, 2, 2, 2),
    "per_player": (-16, 8, 8, 0),
}


@pytest.mark.parametrize("variant", sorted(CAUGHT_TIED))
def test_caught_with_two_low_players_tied(variant):
    game = deal(TIED, rules=rules_of(caught_pays=variant), dealer=3)
    assert game.counts() == [20, 15, 15, 35]
    out = game.apply(0, DROP)
    assert out.winners == (1, 2)
    assert out.payments == CAUGHT_TIED[variant]
    assert out.pushups == (40, 0, 0, 35)


def test_caught_standard_everyone_at_or_under_the_dropper_collects_double():
    # counts [20, 15, 15, 20]: seat 3 ties the dropper: the dropper pays it double, and it pays each low player
    hands = ["As 2c 3d 4h Ks", "Ah 2d 3h 4c 5s", "Ad 2h 3c 4s 5d", "Kd 2s 3s 4d Ac"]
    game = deal(hands, dealer=3)
    assert game.counts() == [20, 15, 15, 20]
    out = game.apply(0, DROP)
    assert out.payments == (-6, 3, 3, 0)
    assert out.pushups == (40, 0, 0, 20)


def test_five_to_low_tie_goes_to_nearest_the_dealers_left():
    rules = rules_of(caught_pays="five_to_low")
    game = deal(TIED, rules=rules, dealer=3)
    assert game.apply(0, DROP).payments == (-5, 5, 0, 0)
    # dealer 1: seat 2 is nearest the dealer's left; seats 2 and 3 draw and throw the card back
    game = deal(TIED, rules=rules, dealer=1)
    assert game.turn == 2
    for seat in (2, 3):
        game.apply(seat, DRAW)
        game.apply(seat, Discard(game.hands[seat][-1]))
    out = game.apply(0, DROP)
    assert out.winners == (1, 2) and out.payments == (-5, 0, 5, 0)


# --------------------------------------------------------------------------- stock out

def run_stock_dry(game):
    while game.stock:
        seat = game.turn
        game.apply(seat, DRAW)
        game.apply(seat, Discard(game.hands[seat][-1]))


def test_stock_out_lowest_wins_single():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"])
    run_stock_dry(game)
    assert game.outcome is None
    seat = game.turn
    assert DRAW in game.legal_actions(seat)
    out = game.apply(seat, DRAW)
    assert out.kind == "stock_out" and out.winners == (0,) and out.payments == (1, -1) and out.pushups == (0, 29)
    assert game.record()["actions"][-1] == {"seat": seat, "do": "draw"}


def test_stock_out_tie_for_lowest_is_a_draw():
    game = deal(["As 2c 3d 4h 5s", "Ah 2d 3h 4c 5d", "Kd Qd 2h 3c 4d"])
    run_stock_dry(game)
    out = game.apply(game.turn, DRAW)
    assert out.kind == "draw" and out.winners == () and out.payments == (0, 0, 0) and out.pushups == (0, 0, 0)


def test_stock_out_dead_hand_pays_nothing():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"], rules=rules_of(stock_out="dead_hand"))
    run_stock_dry(game)
    out = game.apply(game.turn, DRAW)
    assert out.kind == "draw" and out.payments == (0, 0)


def test_play_goes_on_taking_discards_after_the_last_stock_card():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"])
    run_stock_dry(game)
    from engine import TAKE
    seat = game.turn
    game.apply(seat, TAKE)
    game.apply(seat, Discard(game.hands[seat][-1]))
    assert game.outcome is None


def test_stock_out_reshuffle_makes_a_new_stock_and_replays_exactly():
    rules = rules_of(stock_out="reshuffle")
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"], rules=rules)
    run_stock_dry(game)
    pile = len(game.discard)
    top = game.discard_top
    seat = game.turn
    assert game.apply(seat, DRAW) is None
    assert game.discard == [top]
    assert len(game.stock) == pile - 2  # the pile but its top, less the card just drawn
    replayed = Game.from_record(game.record())
    assert replayed.to_json() == game.to_json()
    view = game.view(1 - seat)
    assert view.stock_size == len(game.stock)


def test_reshuffle_with_nothing_under_the_top_card_ends_as_lowest_wins():
    rules = rules_of(stock_out="reshuffle")
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"], rules=rules)
    state = game.to_json()
    state["stock"] = []  # every other card is somewhere else only in this contrived state
    game = Game.from_json(state)
    out = game.apply(0, DRAW)
    assert out.kind == "stock_out" and out.winners == (0,)


def test_jokers_are_worth_zero_and_cannot_be_spread_or_hit():
    rules = rules_of(jokers=2)
    game = deal(["X1 2c 3c 4c 9d", "Kd Qd 2h 3h 4h"], rules=rules, stock="5c X2")
    assert game.counts()[0] == 18
    game.apply(0, DRAW)
    from engine import IllegalAction
    with pytest.raises(IllegalAction, match="Jokers cannot be spread"):
        game.apply(0, Spread(cards("X1 2c 3c")))
    game.apply(0, Spread(cards("2c 3c 4c 5c")))
    assert all(not (isinstance(a, Hit) and a.card.is_joker) for a in game.legal_actions(0))
    with pytest.raises(IllegalAction, match="Jokers cannot be played"):
        game.apply(0, Hit(C("X1"), 0))
