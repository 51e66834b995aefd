"""The house rules of RULES.md section 9: each option changes what it should, and each
refusal it adds names the house rule and changes nothing."""

import json

import pytest

from engine import CLAIM, DRAW, DROP, TAKE, Discard, Game, Hit, IllegalAction, Rules, RulesError, Spread
from engine.actions import Slap, Swap
from engine.house import SLAP_DISCARD, HouseRules
from engine_helpers import C, cards, deal, rules_of, snapshot


def play(game, *steps):
    out = None
    for seat, action in steps:
        out = game.apply(seat, action)
    return out


def refused(game, seat, action, words):
    """The action is refused with a reason containing `words`, and nothing changes."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, action)
    assert words.lower() in str(err.value).lower(), str(err.value)
    assert snapshot(game) == before
    assert action not in game.legal_actions(seat)
    return str(err.value)


def replayed(game):
    """The record replays to the same state and outcome."""
    record = json.loads(json.dumps(game.record()))
    again = Game.from_record(record)
    assert again.outcome == game.outcome
    assert again.to_json() == game.to_json()
    return again


# --------------------------------------------------------------------------- hand sizes, values


@pytest.mark.parametrize("size", range(3, 13))
def test_every_hand_size_from_3_to_12_deals(size):
    rules = rules_of(hand_size=size)
    game = Game.deal(rules, 2, 0)
    assert [len(h) for h in game.hands] == [size, size]
    assert len(game.stock) == 52 - 2 * size - 1


def test_hand_size_refused_when_the_deal_does_not_fit_the_deck():
    with pytest.raises(RulesError, match="enough for 4 players"):
        Game.deal(rules_of(hand_size=12), 5, 0)
    game = Game.deal(rules_of(hand_size=12), 4, 0)  # 4 x 12 + 1 = 49 cards fit
    assert len(game.stock) == 3
    assert rules_of(hand_size=12, upcard=False).max_players() == 4
    with pytest.raises(RulesError, match="3 to 12"):
        rules_of(hand_size=13)


def test_ranked_face_values_count_j_q_k_by_rank():
    rules = rules_of(face_values="ranked")
    game = deal(["Kc Qd Jh 2c 3c", "4c 4d 5h 6s 7s"], rules=rules)
    assert game.counts() == [13 + 12 + 11 + 5, 26]
    out = play(game, (0, DROP))
    assert out.kind == "caught" and out.counts == (41, 26)
    plain = deal(["Kc Qd Jh 2c 3c", "4c 4d 5h 6s 7s"])
    assert plain.counts() == [35, 26]


def test_ranked_face_values_turn_count_instant_hands_off():
    hands = ["Kc Qc Jc 10c 10h", "2c 3d 4h 5s 7s"]
    assert deal(hands).outcome.kind == "instant"  # 50
    assert deal(hands, rules=rules_of(face_values="ranked")).outcome is None


# --------------------------------------------------------------------------- ace high


def test_ace_high_runs_need_the_house_rule_and_never_wrap():
    hands = ["Qs Ks As 5d 9c", "2c 3d 4h 6s 7h"]
    game = deal(hands, stock="8c")
    play(game, (0, DRAW))
    refused(game, 0, Spread(cards("Qs Ks As")), "A is low")
    game = deal(hands, stock="8c", rules=rules_of(ace_in_runs="low_or_high"))
    play(game, (0, DRAW))
    assert Spread(cards("Qs Ks As")) in game.legal_actions(0)
    play(game, (0, Spread(cards("As Ks Qs"))))
    assert [c.code for c in game.spreads[0].cards] == ["Qs", "Ks", "As"]
    refused(game, 0, Hit(C("2c"), 0), "not in your hand")
    game2 = deal(["Ks As 2s 5d 9c", "2c 3d 4h 6s 7h"], stock="8c", rules=rules_of(ace_in_runs="low_or_high"))
    play(game2, (0, DRAW))
    refused(game2, 0, Spread(cards("Ks As 2s")), "never both")


def test_ace_hits_the_high_end_of_a_run():
    rules = rules_of(ace_in_runs="low_or_high")
    game = deal(["Js Qs Ks 5d 9c", "Ah 3d 4h 6s 7h"], stock="8c 8d", upcard="2d", rules=rules)
    play(game, (0, DRAW), (0, Spread(cards("Js Qs Ks"))), (0, Discard(C("9c"))), (1, DRAW))
    refused(game, 1, Hit(C("Ah"), 0), "does not fit")
    game = deal(["Jh Qh Kh 5d 9c", "Ah 3d 4h 6s 7h"], stock="8c 8d", upcard="2d", rules=rules)
    play(game, (0, DRAW), (0, Spread(cards("Jh Qh Kh"))), (0, Discard(C("9c"))), (1, DRAW), (1, Hit(C("Ah"), 0)))
    assert [c.code for c in game.spreads[0].cards] == ["Jh", "Qh", "Kh", "Ah"]
    replayed(game)


# --------------------------------------------------------------------------- wild cards

JOKERS = dict(jokers=2, wild_cards="jokers")


def test_a_wild_card_stands_for_the_card_it_names():
    rules = rules_of(**JOKERS)
    game = deal(["5s X1 7s Kd 9c", "2c 3d 4h 6h 7h"], stock="8c", rules=rules)
    play(game, (0, DRAW))
    refused(game, 0, Spread(cards("5s X1 7s")), "say what each joker stands for")
    refused(game, 0, Spread(cards("5s X1 7s"), ((C("X1"), C("8s")),)), "neither a book")
    spread = Spread(cards("5s X1 7s"), ((C("X1"), C("6s")),))
    assert spread in game.legal_actions(0)
    play(game, (0, spread))
    assert game.spreads[0].named == {C("X1"): C("6s")}
    assert [c.code for c in game.spreads[0].cards] == ["5s", "X1", "7s"]
    assert game.record()["actions"][1] == {"seat": 0, "do": "spread", "cards": ["5s", "7s", "X1"], "as": {"X1": "6s"}}
    assert game.counts()[0] == 10 + 9 + 8
    replayed(game)


def test_wild_spreads_need_two_natural_cards_and_a_free_card_to_name():
    rules = rules_of(**JOKERS)
    game = deal(["5s X1 X2 Kd 9c", "6c 6d 6h 2h 7h"], stock="8c 3c", upcard="Qd", rules=rules)
    play(game, (0, DRAW))
    refused(game, 0, Spread(cards("5s X1 X2"), ((C("X1"), C("6s")), (C("X2"), C("7s")))), "two natural cards")
    play(game, (0, Discard(C("8c"))), (1, DRAW), (1, Spread(cards("6c 6d 6h"))), (1, Discard(C("3c"))), (0, DRAW))
    refused(game, 0, Hit(C("X1"), 0, C("6h")), "on the table already")
    refused(game, 0, Hit(C("X1"), 0, C("7s")), "cannot stand for")
    play(game, (0, Hit(C("X1"), 0, C("6s"))))
    refused(game, 0, Hit(C("X2"), 0, C("6s")), "on the table already")


def test_without_wild_cards_jokers_and_as_are_refused():
    game = deal(["5s X1 7s Kd 9c", "2c 3d 4h 6h 7h"], stock="8c", rules=rules_of(jokers=2))
    assert game.house is None  # jokers alone are no house rule: the standard game's checks
    play(game, (0, DRAW))
    refused(game, 0, Spread(cards("5s X1 7s")), "jokers cannot be spread")
    house = deal(["5s X1 7s Kd 9c", "2c 3d 4h 6h 7h"], stock="8c", rules=rules_of(jokers=2, hits_per_turn=1))
    play(house, (0, DRAW))
    refused(house, 0, Spread(cards("5s X1 7s"), ((C("X1"), C("6s")),)), "no wild cards")


def test_a_deuce_is_wild_only_when_named():
    rules = rules_of(wild_cards="deuces_and_jokers")
    game = deal(["2s 3s 4s 2h 9c", "5c 3d 4h 6h 7h"], stock="8c", rules=rules)
    play(game, (0, DRAW))
    assert Spread(cards("2s 3s 4s")) in game.legal_actions(0)  # the 2s as itself
    play(game, (0, Spread(cards("3s 4s 2h"), ((C("2h"), C("5s")),))))
    assert game.spreads[0].natural() == list(cards("3s 4s 5s"))
    assert game.counts()[0] == 2 + 9 + 8


def test_wild_swap_puts_the_natural_card_in_and_takes_the_wild_card():
    rules = rules_of(wild_swap=True, **JOKERS)
    game = deal(["5s X1 7s Kd 9c", "6s 3d 4h 6h Qh"], stock="8c 10c", rules=rules)
    play(game, (0, DRAW), (0, Spread(cards("5s X1 7s"), ((C("X1"), C("6s")),))), (0, Discard(C("Kd"))), (1, DRAW))
    assert Swap(C("6s"), 0) in game.legal_actions(1)
    refused(game, 1, Swap(C("6h"), 0), "no wild card in that spread stands for")
    play(game, (1, Swap(C("6s"), 0)))
    assert game.spreads[0].cards == list(cards("5s 6s 7s")) and game.spreads[0].named is None
    assert C("X1") in game.hands[1]
    assert game.view(0).history[-1].card is C("X1")  # which wild card went to hand is public
    replayed(game)
    off = deal(["5s X1 7s Kd 9c", "6s 3d 4h 6h Qh"], stock="8c 10c", rules=rules_of(**JOKERS))
    play(off, (0, DRAW), (0, Spread(cards("5s X1 7s"), ((C("X1"), C("6s")),))), (0, Discard(C("Kd"))), (1, DRAW))
    refused(off, 1, Swap(C("6s"), 0), "no wild swaps")


# --------------------------------------------------------------------------- hit and spread rules


def test_must_spread_refuses_a_discard_while_holding_a_spread():
    hands = ["7c 7d 7h Kd 9c", "2c 3d 4h 6h Qh"]
    game = deal(hands, stock="8c", rules=rules_of(must_spread="on"))
    play(game, (0, DRAW))
    refused(game, 0, Discard(C("Kd")), "must spread")
    assert all(type(a) is not Discard for a in game.legal_actions(0))
    play(game, (0, Spread(cards("7c 7d 7h"))), (0, Discard(C("Kd"))))
    free = deal(hands, stock="8c")
    play(free, (0, DRAW), (0, Discard(C("Kd"))))


def test_must_spread_may_spare_three_aces():
    hands = ["Ac Ad Ah Kd 9c", "2c 3d 4h 6h Qh"]
    game = deal(hands, stock="8c", rules=rules_of(must_spread="on_but_three_aces"))
    play(game, (0, DRAW), (0, Discard(C("Kd"))))
    strict = deal(hands, stock="8c", rules=rules_of(must_spread="on"))
    play(strict, (0, DRAW))
    refused(strict, 0, Discard(C("Kd")), "must spread")


def test_one_hit_a_turn():
    hands = ["7c 7d 7h 8s 9s", "2c 3d 7s Js Qh"]
    steps = [(0, DRAW), (0, Spread(cards("8s 9s 10s"))), (0, Discard(C("7c"))), (1, DRAW), (1, Hit(C("7s"), 0))]
    game = deal(hands, stock="10s 4c", upcard="Kd", rules=rules_of(hits_per_turn=1))
    play(game, *steps)
    refused(game, 1, Hit(C("Js"), 0), "one hit a turn")
    free = deal(hands, stock="10s 4c", upcard="Kd")
    play(free, *steps, (1, Hit(C("Js"), 0)))


def test_a_hit_ends_the_turn_without_a_discard():
    rules = rules_of(hit_ends_turn=True)
    game = deal(["8s 9s 10s Kd Qc", "2c 3d 7s 10h Qh"], stock="5c 4c Jc", upcard="Kh", rules=rules)
    play(game, (0, DRAW), (0, Spread(cards("8s 9s 10s"))), (0, Discard(C("Kd"))), (1, DRAW), (1, Hit(C("7s"), 0)))
    assert game.turn == 0 and game.phase == "start" and game.discard_top is C("Kd")
    assert len(game.hands[1]) == 5
    replayed(game)


def test_take_must_be_used():
    rules = rules_of(take_must_be_used=True)
    game = deal(["6s 7s Kd Qc 2h", "2c 3d 4h 10h Qh"], stock="5c", upcard="9d", rules=rules)
    refused(game, 0, TAKE, "take must be used")
    game = deal(["6s 7s Kd Qc 2h", "2c 3d 4h 10h Qh"], stock="5c", upcard="8s", rules=rules)
    play(game, (0, TAKE))
    refused(game, 0, Discard(C("8s")), "take must be used")
    refused(game, 0, Discard(C("Kd")), "take must be used")
    play(game, (0, Spread(cards("6s 7s 8s"))), (0, Discard(C("Kd"))))
    free = deal(["6s 7s Kd Qc 2h", "2c 3d 4h 10h Qh"], stock="5c", upcard="9d")
    play(free, (0, TAKE), (0, Discard(C("9d"))))


def test_hit_bars_going_out_on_the_turn_a_hit_bars_the_drop():
    hands = ["6s 7s 8s Jc Qc", "9s 3d 4h 10h Qh"]
    steps = [(0, DRAW), (0, Spread(cards("6s 7s 8s"))), (0, Discard(C("2h"))), (1, DRAW), (1, Hit(C("9s"), 0)),
             (1, Discard(C("Qh"))), (0, DRAW)]
    waiting = dict(waiting=True, spread_wait=0, hit_wait=1)
    game = deal(hands, stock="2h 2c Kc", upcard="Jd", rules=rules_of(hit_bars_going_out=True, **waiting))
    play(game, *steps)
    assert game.barred_by_hit
    refused(game, 0, Spread(cards("Jc Qc Kc")), "hit bars going out")
    play(game, (0, Discard(C("Kc"))))
    free = deal(hands, stock="2h 2c Kc", upcard="Jd", rules=rules_of(**waiting))
    play(free, *steps)
    assert play(free, (0, Spread(cards("Jc Qc Kc")))).kind == "tonk_out"


TONK_AFTER_HITS = ["6s 7s 8s Jc Kd", "9s 10s 3c 3d Js"]
HITS_THEN_OUT = [(0, DRAW), (0, Spread(cards("6s 7s 8s"))), (0, Discard(C("Kd"))), (1, DRAW), (1, Hit(C("9s"), 0)),
                 (1, Hit(C("10s"), 0)), (1, Hit(C("Js"), 0)), (1, Spread(cards("3c 3d 3h")))]


def test_hit_spoils_tonk_out():
    spoiled = deal(TONK_AFTER_HITS, stock="2h 3h", upcard="Qd", rules=rules_of(hit_spoils_tonk_out=True))
    out = play(spoiled, *HITS_THEN_OUT)
    assert out.kind == "tonk_out" and out.payments == (-1, 1)
    plain = deal(TONK_AFTER_HITS, stock="2h 3h", upcard="Qd")
    assert play(plain, *HITS_THEN_OUT).payments == (-2, 2)


RUN_OUT = (["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh"], [(0, DRAW), (0, Spread(cards("6s 7s 8s 9s 10s"))),
                                                    (0, Discard(C("Kd")))])


def test_run_out_pays_double():
    hands, steps = RUN_OUT
    assert play(deal(hands, stock="10s", upcard="Jd"), *steps).payments == (1, -1)
    out = play(deal(hands, stock="10s", upcard="Jd", rules=rules_of(run_out_pays="double")), *steps)
    assert out.kind == "run_out" and out.payments == (2, -2) and out.pushups == (0, 2 * 29)


FIRST_TURN = ["6s 7s 8s Kc Kd", "2c 3d 4h 10h Qh"]
OUT_AT_ONCE = [(0, DRAW), (0, Spread(cards("6s 7s 8s"))), (0, Spread(cards("Kc Kd Kh")))]
OUT_LATER = [(0, DRAW), (0, Discard(C("2s"))), (1, DRAW), (1, Discard(C("Qh"))), (0, DRAW),
             (0, Spread(cards("6s 7s 8s"))), (0, Spread(cards("Kc Kd Kh")))]


@pytest.mark.parametrize("option, first, later", [
    ("as_tonk_out", 2, 2),
    ("double_then_single", 2, 1),
    ("quadruple_two_spreads", 4, 2),
])
def test_first_turn_tonk_out(option, first, later):
    rules = rules_of(first_turn_tonk_out=option)
    assert play(deal(FIRST_TURN, stock="Kh", upcard="Jd", rules=rules), *OUT_AT_ONCE).payments == (first, -first)
    out = play(deal(FIRST_TURN, stock="2s 9d Kh", upcard="Jd", rules=rules), *OUT_LATER)
    assert out.payments == (later, -later)


def test_quadruple_needs_two_new_spreads_on_the_first_turn():
    rules = rules_of(first_turn_tonk_out="quadruple_two_spreads")
    game = deal(["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh"], stock="10s", upcard="Jd", rules=rules)
    out = play(game, (0, DRAW), (0, Spread(cards("6s 7s 8s 9s 10s"))), (0, Discard(C("Kd"))))
    assert out.kind == "run_out" and out.payments == (1, -1)


def test_first_turn_tonk_out_is_spoiled_by_a_hit():
    rules = rules_of(first_turn_tonk_out="quadruple_two_spreads", hit_spoils_tonk_out=True)
    out = play(deal(TONK_AFTER_HITS, stock="2h 3h", upcard="Qd", rules=rules), *HITS_THEN_OUT)
    assert out.payments == (-1, 1)


@pytest.mark.parametrize("loser, multiple", [("5s 4s 9s 10s Ks", 4), ("5s 4s 9s 10s 2d", 2)])
def test_double_double_when_the_losers_hand_could_all_be_hit(loser, multiple):
    rules = rules_of(double_double=True)
    out = play(deal([FIRST_TURN[0], loser], stock="Kh", upcard="Jd", rules=rules), *OUT_AT_ONCE)
    assert out.payments == (multiple, -multiple)
    assert play(deal([FIRST_TURN[0], loser], stock="Kh", upcard="Jd"), *OUT_AT_ONCE).payments == (2, -2)


@pytest.mark.parametrize("stakes", [2, 4])
def test_catchers_only(stakes):
    hands = ["5c 5d Kc 2h 3h", "3c 4d Ad 2s Qh", "Kh Qd Jd 9s 7c"]
    rules = rules_of(caught_pays="catchers_only", catchers_stakes=stakes)
    out = play(deal(hands, rules=rules), (0, DROP))
    assert out.kind == "caught" and out.counts == (25, 20, 46) and out.winners == (1,)
    assert out.payments == (-stakes, stakes, 0)
    assert out.pushups == (50, 0, 46)
    assert play(deal(hands), (0, DROP)).payments == (-2, 3, -1)


def test_drop_any_time_allows_a_drop_after_drawing():
    hands = ["Ac 2d 3h 4s 5c", "Kc Kd Qh 8s 9h"]
    game = deal(hands, stock="9c", upcard="Jd")
    play(game, (0, DRAW))
    refused(game, 0, DROP, "only drop at the start")
    game = deal(hands, stock="9c", upcard="Jd", rules=rules_of(drop_when="any_time"))
    play(game, (0, DRAW))
    assert DROP in game.legal_actions(0)
    out = play(game, (0, DROP))
    assert out.kind == "drop_won" and out.counts == (24, 47)


def test_drop_any_time_still_waits_and_still_uses_a_taken_card():
    rules = rules_of(drop_when="any_time", take_must_be_used=True)
    game = deal(["6s 7s Kd Qc 2h", "2c 3d 4h 10h Qh"], stock="5c", upcard="8s", rules=rules)
    play(game, (0, TAKE))
    refused(game, 0, DROP, "take must be used")


# --------------------------------------------------------------------------- boobed


def boobed_deal(rules):
    """4 players x 12 cards: 3 stock cards, so every hand is played with a short stock."""
    seat0 = "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h"
    used = set(cards(seat0)) | set(cards("5s Kd 9s Js"))
    from engine import full_deck

    rest = [c for c in full_deck(rules) if c not in used]
    others = [" ".join(c.code for c in rest[i * 12:(i + 1) * 12]) for i in range(3)]
    return deal([seat0, *others], upcard="Kd", stock="5s 9s Js", rules=rules)


def test_boobed_emptying_the_hand_with_a_short_stock_does_not_win():
    rules = rules_of(hand_size=12, boobed=True)
    game = boobed_deal(rules)
    out = play(game, (0, DRAW), (0, Spread(cards("2c 2d 2h"))), (0, Spread(cards("3c 3d 3h"))),
               (0, Spread(cards("4c 4d 4h"))), (0, Spread(cards("5c 5d 5h 5s"))))
    assert out is None and game.hands[0] == [] and game.turn == 1 and game.boobed[0]
    for seat, start in ((1, DRAW), (2, DRAW), (3, TAKE)):  # the stock holds 2 cards
        game.apply(seat, start)
        game.apply(seat, Discard(game.hands[seat][0]))
    assert game.legal_actions(0) == [DROP]
    refused(game, 0, DRAW, "boobed")
    out = play(game, (0, DROP))
    assert out.kind == "drop_won" and out.counts[0] == 0 and out.payments[0] == 3
    replayed(game)
    plain = boobed_deal(rules_of(hand_size=12))
    out = play(plain, (0, DRAW), (0, Spread(cards("2c 2d 2h"))), (0, Spread(cards("3c 3d 3h"))),
               (0, Spread(cards("4c 4d 4h"))), (0, Spread(cards("5c 5d 5h 5s"))))
    assert out.kind == "tonk_out"


# --------------------------------------------------------------------------- slap

SLAP_HANDS = ["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"]
SLAP_OPEN = [(0, DRAW), (0, Spread(cards("6s 7s 8s"))), (0, Discard(C("9s")))]


def test_no_slapping_without_the_house_rule():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd")
    play(game, *SLAP_OPEN)
    with pytest.raises(IllegalAction):
        game.apply(2, Slap(0))
    house = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules_of(hits_per_turn=1))
    play(house, *SLAP_OPEN)
    refused(house, 2, Slap(0), "no slapping")


def test_first_to_slap_wins_and_owes_an_extra_discard():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    play(game, *SLAP_OPEN)
    assert game.slappers() == [0, 1, 2]
    assert Slap(0) in game.legal_actions(2) and Slap(0) in game.legal_actions(1)
    play(game, (2, Slap(0)))
    assert game.spreads[0].cards[-1] is C("9s") and game.phase == SLAP_DISCARD and game.to_act == 2
    refused(game, 1, DRAW, "slapped")
    refused(game, 0, Slap(0), "slapped that card first")
    assert game.legal_actions(2) == [Discard(c) for c in game.hands[2]]
    play(game, (2, Discard(C("Jh"))))
    assert game.phase == "start" and game.turn == 1 and len(game.hands[2]) == 4
    assert game.slappers() == []  # Jh fits nothing
    play(game, (1, DRAW))
    replayed(game)


def test_the_discarders_own_slap_carries_no_extra_discard():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    play(game, *SLAP_OPEN, (0, Slap(0)))
    assert game.phase == "start" and game.turn == 1 and len(game.hands[0]) == 2
    assert game.discard_top is C("Jd") and game.slappers() == []


def test_a_card_nobody_slapped_is_dead_once_the_next_player_draws():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    play(game, *SLAP_OPEN, (1, DRAW))
    refused(game, 2, Slap(0), "too late")


def test_next_player_first_overrides_an_earlier_slap():
    rules = rules_of(slap="next_player_first")
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules)
    play(game, *SLAP_OPEN, (2, Slap(0)))
    assert game.phase == SLAP_DISCARD and Slap(0) in game.legal_actions(1)
    refused(game, 0, Slap(0), "slapped that card first")
    play(game, (1, Slap(0)))
    assert game.phase == "start" and game.turn == 1 and len(game.hands[1]) == 5 and len(game.hands[2]) == 5
    assert game.spreads[0].cards[-1] is C("9s") and game.hit_any == [False, True, False]
    again = replayed(game)
    assert [a.to_record()["do"] for _, a in again.log][-2:] == ["slap", "slap"]
    play(game, (1, DRAW))


def test_next_player_first_slap_by_the_next_player_has_no_extra_discard():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules_of(slap="next_player_first"))
    play(game, *SLAP_OPEN, (1, Slap(0)))
    assert game.phase == "start" and len(game.hands[1]) == 5
    first = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    play(first, *SLAP_OPEN, (1, Slap(0)))
    assert first.phase == SLAP_DISCARD and first.to_act == 1


def test_a_slap_counts_as_a_hit_for_hit_spoils_and_waiting():
    rules = rules_of(slap="first_to_slap", waiting=True, spread_wait=0, hit_wait=1)
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules)
    play(game, *SLAP_OPEN, (2, Slap(0)), (2, Discard(C("Jh"))), (1, DRAW), (1, Discard(C("Qh"))), (2, DRAW),
         (2, Discard(C("Ac"))))
    assert game.drop_blocked and game.turn == 0


# --------------------------------------------------------------------------- instant hands


def instant_rules(*hands, **options):
    return rules_of(instant_hands=[dict(h) for h in hands], **options)


LOW12 = "Ac 2d 3h 4s 2c"  # 12
FIFTY = "Kc Qc Jc 10c 10h"
FORTY_NINE = "Kd Qd Jd 10d 9s"
PLAIN = "9c 9d 2h 3d 4c"  # 27


@pytest.mark.parametrize("conflict, tie, hands, winners, kind", [
    ("low_beats_high", "left", [LOW12, FIFTY, PLAIN], (0,), "instant"),
    ("high_beats_low", "left", [LOW12, FIFTY, PLAIN], (1,), "instant"),
    ("void", "left", [LOW12, FIFTY, PLAIN], (), "void"),
    ("all_paid", "left", [LOW12, FIFTY, PLAIN], (0, 1), "instant"),
    ("first_from_left", "left", [PLAIN, FIFTY, LOW12], (1,), "instant"),
    ("high_beats_low", "left", [FORTY_NINE, FIFTY, PLAIN], (1,), "instant"),
    ("low_beats_high", "left", [FIFTY, "Kh Qh Jh 10s 10d", PLAIN], (0,), "instant"),
    ("low_beats_high", "void", [FIFTY, "Kh Qh Jh 10s 10d", PLAIN], (), "void"),
])
def test_instant_conflicts(conflict, tie, hands, winners, kind):
    rules = instant_rules({"hand": "50"}, {"hand": "49"}, {"hand": "low", "max": 13},
                          instant_conflict=conflict, instant_tie=tie)
    out = deal(hands, rules=rules).outcome
    assert out.kind == kind and out.winners == winners
    assert sum(out.payments) == 0


def test_face_hands_and_41():
    rules = instant_rules({"hand": "all_faces", "pays": 3}, {"hand": "41"})
    out = deal(["Kc Qc Jc Kd Qd", PLAIN], rules=rules).outcome
    assert out.winners == (0,) and out.payments == (3, -3)
    out = deal(["Kc Qc Jc 9h 2d", PLAIN], rules=rules).outcome
    assert out.winners == (0,) and out.payments == (2, -2)
    tens = instant_rules({"hand": "all_tens_and_faces"}, hand_size=7)
    assert deal(["Kc Qc Jc 10d 10h Kd Qd", "9c 9d 2h 3h 4c 5c 6c"], rules=tens).outcome.winners == (0,)
    assert deal(["Kc Qc Jc 10d 9h Kd Qd", "9c 9d 2h 3h 4c 5c 6c"], rules=tens).outcome is None


def test_a_seat_with_two_instant_hands_is_paid_the_larger_multiple():
    rules = instant_rules({"hand": "50", "pays": 2}, {"hand": "all_faces", "pays": 3})
    assert deal(["Kc Qc Jc Kd Qd", PLAIN], rules=rules).outcome.payments == (3, -3)


def test_an_instant_hand_claimed_in_turn():
    rules = Rules.preset("chicago")
    game = deal([PLAIN, FORTY_NINE], stock="5c 6h", rules=rules)
    assert game.outcome is None
    refused(game, 0, CLAIM, "not an instant hand")
    play(game, (0, DRAW), (0, Discard(C("9c"))))
    assert CLAIM in game.legal_actions(1)
    out = play(game, (1, CLAIM))
    assert out.kind == "instant" and out.winners == (1,) and out.payments == (-1, 1)
    assert out.counts == (18 + 5, 49)  # the counts at the claim
    assert replayed(game).record()["actions"][-1] == {"seat": 1, "do": "claim"}


def test_an_in_turn_claim_is_lost_once_a_spread_is_laid():
    game = deal(["7c 7d 7h 2c 3c", FORTY_NINE], stock="5c 6h", rules=Rules.preset("chicago"))
    play(game, (0, DRAW), (0, Spread(cards("7c 7d 7h"))), (0, Discard(C("5c"))))
    refused(game, 1, CLAIM, "too late")


# --------------------------------------------------------------------------- side bets


def test_high_card_side_bet_is_settled_at_the_deal_and_shown_to_all():
    from engine.session import side_bet

    bets = {"high_card": side_bet("high_card", [0, 1], 2, pot_in=3, suit="s", players=3)}
    hands = ["As 9s 2c 3c 4c", "Ks 2d 3d 4d 5d", "Qs 2h 3h 4h 5h"]
    from engine import stacked_deck, parse_cards

    deck = stacked_deck(Rules(), 2, [parse_cards(h) for h in hands], upcard=C("Jd"))
    game = Game.deal(Rules(), 3, 2, deck=deck, side_bets=bets)
    assert game.side_cards == [C("9s"), C("Ks"), None]
    assert game.view(2).side_cards == (C("9s"), C("Ks"), None)
    play(game, (0, DROP))
    result = game.result()
    assert result["side_payments"] == [-2, 5, 0] and result["pot_out"] == {"high_card": 0}
    record = game.record()
    assert record["side_bets"] == {"high_card": {"suit": "s", "seats": [0, 1], "stake": 2, "pot_in": 3}}
    assert Game.from_record(record).result() == result


def test_naturals_pot_goes_to_the_first_natural_book_and_carries_otherwise():
    from engine.session import side_bet

    bets = {"naturals": side_bet("naturals", [0, 1], 1, pot_in=4, players=2)}
    from engine import stacked_deck, parse_cards

    deck = stacked_deck(Rules(), 1, [parse_cards("7c 7d 7h 2c 3c"), parse_cards(PLAIN.replace("9c", "Qs"))],
                        upcard=C("Jd"), stock=[C("5c")])
    game = Game.deal(Rules(), 2, 1, deck=deck, side_bets=bets)
    play(game, (0, DRAW), (0, Spread(cards("7c 7d 7h"))), (0, Discard(C("5c"))), (1, DROP))
    assert game.result()["side_payments"] == [5, -1] and game.result()["pot_out"] == {"naturals": 0}
    game = Game.deal(Rules(), 2, 1, deck=deck, side_bets=bets)
    play(game, (0, DROP))
    assert game.result()["side_payments"] == [-1, -1] and game.result()["pot_out"] == {"naturals": 6}
    assert "side_payments" not in Game.deal(Rules(), 2, 1, deck=deck, side_bets=bets).result()


# --------------------------------------------------------------------------- presets of section 11


def preset(name):
    return Rules.preset(name)


def test_rushville_pays_all_faces_not_49_and_catchers_four():
    assert deal(["Kc Qc Jc Kd Qd", PLAIN], rules=preset("rushville")).outcome.payments == (2, -2)
    assert deal([FORTY_NINE, PLAIN], rules=preset("rushville")).outcome is None
    assert deal([FORTY_NINE, PLAIN]).outcome.kind == "instant"
    hands = ["5c 5d Kc 2h 3h", "3c 4d Ad 2s Qh", "Kh Qd Jd 9s 7c"]
    assert play(deal(hands, rules=preset("rushville")), (0, DROP)).payments == (-4, 4, 0)
    hands_, steps = RUN_OUT
    assert play(deal(hands_, stock="10s", upcard="Jd", rules=preset("rushville")), *steps).payments == (2, -2)


def test_chicago_deals_no_upcard_and_voids_equal_best_hands():
    game = deal([PLAIN, "Ac 2d 3h 4s 5c"], rules=preset("chicago"))
    assert game.discard_top is None and TAKE not in game.legal_actions(0)
    assert deal([FIFTY, "Kh Qh Jh 10s 10d"], rules=preset("chicago")).outcome.kind == "void"
    assert deal([FIFTY, LOW12], rules=preset("chicago")).outcome.winners == (1,)  # a low beats 50
    out = play(deal(FIRST_TURN, stock="2s 9d Kh", rules=preset("chicago")), *OUT_LATER)
    assert out.payments == (1, -1)  # a later tonk out pays single


def test_deuces_wild_pays_41_and_plays_deuces_wild():
    assert deal(["Kc Qc Jc 9h 2d", PLAIN.replace("2h", "5h")], rules=preset("deuces wild")).outcome.payments == (2, -2)
    assert deal(["Kc Qc Jc 9h 2d", PLAIN.replace("2h", "5h")]).outcome is None
    game = deal(["5s 2h 7s Kd 9c", "6c 3d 4h 6h 7h"], stock="8c", rules=preset("deuces wild"))
    play(game, (0, DRAW), (0, Spread(cards("5s 2h 7s"), ((C("2h"), C("6s")),))))
    assert game.spreads[0].natural() == list(cards("5s 6s 7s"))


def test_newark_high_beats_low_and_pays_quadruple_first_turn_outs():
    assert deal([LOW12, FIFTY, PLAIN], rules=preset("newark")).outcome.winners == (1,)
    out = play(deal(FIRST_TURN, stock="Kh", upcard="Jd", rules=preset("newark")), *OUT_AT_ONCE)
    assert out.payments == (4, -4)


def test_washington_dc_low_beats_high_at_11():
    assert deal([LOW12, FIFTY, PLAIN], rules=preset("washington dc")).outcome.winners == (1,)  # 12 is not low
    low10 = "Ac 2d 3h 2s 2c"
    assert deal([low10, FIFTY, PLAIN], rules=preset("washington dc")).outcome.winners == (0,)
    assert deal([low10, FIFTY, PLAIN]).outcome.kind == "instant"


def test_scarne_and_seattle_deal_seven_with_the_tens_and_faces_hand():
    for name in ("scarne", "seattle"):
        rules = preset(name)
        assert rules.hand_size == 7
        out = deal(["Kc Qc Jc 10d 10h Kd Qd", "9c 9d 2h 3h 4c 5c 6c"], rules=rules).outcome
        assert out.winners == (0,) and out.payments == (2, -2)
        assert deal(["Kc Qc Jc 10d 9h 4d 6d", "9c 9d 2h 3h 4c 5c 6c"], rules=rules).outcome is None  # 59: no 49/50


def test_vietnam_deals_seven_from_forty_and_pays_all_faces():
    rules = preset("vietnam")
    assert rules.deck == 40 and rules.hand_size == 7 and rules.max_players() == 5
    out = deal(["Kc Qc Jc Kd Qd Jd Kh", "Ac 2c 3c 4c 5c 6c 7c"], rules=rules).outcome
    assert out.winners == (0,)


def test_slap_preset_opens_slap_windows():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=preset("slap"))
    play(game, *SLAP_OPEN)
    assert game.slappers() == [0, 1, 2]


def test_high_faces_counts_faces_by_rank():
    game = deal(["Kc Qd Jh 2c 3c", "4c 4d 5h 6s 7s"], rules=preset("high faces"))
    assert game.counts() == [41, 26]


def test_a_copy_of_a_house_game_is_independent():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules_of(slap="next_player_first", jokers=1,
                                                                        wild_cards="jokers"))
    play(game, *SLAP_OPEN, (2, Slap(0)))
    twin = game.copy()
    assert isinstance(twin.house, HouseRules) and twin.house is game.house and snapshot(twin) == snapshot(game)
    play(twin, (1, Slap(0)), (1, DRAW))
    assert game.phase == SLAP_DISCARD and game.pending is not None and len(game.log) == 4
    play(game, (2, Discard(C("Jh"))))
    assert twin.hands[2] != game.hands[2]
