"""The deal, turns, spreads, hits and every refusal (RULES.md sections 2, 4 and 9)."""

import pytest

from engine import (DRAW, DROP, TAKE, Discard, Game, Hit, IllegalAction, NotYourTurn, Rules, Spread,
                    stacked_deck)
from engine_helpers import C, cards, deal, rules_of, snapshot


def test_deal_goes_round_from_the_dealers_left_then_upcard_then_stock():
    rules = Rules()
    game = deal(["As 2s 3s 4s 5s", "Ah 2h 3h 4h 5h", "Ad 2d 3d 4d 5d"], upcard="Kc", stock="Qc Jc", dealer=1)
    # dealer 1: seat 2 is dealt first, then 0, then 1
    assert game.deck[:3] == [C("Ad"), C("As"), C("Ah")]
    assert game.deck[15] is C("Kc")
    assert game.discard_top is C("Kc")
    assert game.turn == 2
    game.apply(2, DRAW)
    assert game.hands[2][-1] is C("Qc")
    assert len(game.stock) == 52 - 16 - 1
    assert rules.hand_size == 5


def test_upcard_off_means_the_first_player_must_draw():
    game = deal(["As 2s 3s 4s 9c", "Ah 2h 3h 4h 9d"], upcard=None, rules=rules_of(upcard=False))
    assert game.discard_top is None
    assert TAKE not in game.legal_actions(0)
    with pytest.raises(IllegalAction, match="discard pile is empty"):
        game.apply(0, TAKE)
    assert len(game.stock) == 42


def test_seattle_deals_seven_and_baton_rouge_uses_forty_cards():
    g7 = Game.deal(Rules.preset("seattle"), 4, 0, rng=__import__("random").Random(1))
    assert all(len(h) == 7 for h in g7.hands) or g7.over
    g40 = Game.deal(Rules.preset("baton rouge"), 3, 0, rng=__import__("random").Random(1))
    assert len(g40.deck) == 40


def test_too_many_players_for_the_deck_is_refused():
    with pytest.raises(Exception, match="enough for"):
        Game.deal(Rules(deck=40, hand_size=7), 6, 0)


def test_turn_draw_spread_hit_discard_and_the_turn_passes_left():
    game = deal(["7s 8s 9s Kd 2c", "7h 7c Qh Qd Jh", "Ac Ad 4h 5c 6d"], upcard="3d", stock="10s 7d")
    assert game.legal_actions(0) == [DROP, DRAW, TAKE]
    assert game.legal_actions(1) == []
    game.apply(0, DRAW)  # 10s
    acts = game.legal_actions(0)
    assert Spread(cards("7s 8s 9s")) in acts and Spread(cards("7s 8s 9s 10s")) in acts
    assert Spread(cards("8s 9s 10s")) in acts
    game.apply(0, Spread(cards("9s 7s 8s")))  # any order is accepted; runs lie in order
    assert [str(c) for c in game.spreads[0].cards] == ["7s", "8s", "9s"]
    game.apply(0, Hit(C("10s"), 0))
    assert [str(c) for c in game.spreads[0].cards] == ["7s", "8s", "9s", "10s"]
    game.apply(0, Discard(C("Kd")))
    assert game.turn == 1 and game.discard_top is C("Kd")
    game.apply(1, TAKE)
    assert C("Kd") in game.hands[1]
    # seat 1 may discard the card it just took
    game.apply(1, Discard(C("Kd")))
    assert game.turn == 2


def test_books_and_runs_a_is_low_only():
    game = deal(["As 2s 3s Qs Ks", "Ah Ad Ac 4h 5h"], upcard="9c", stock="Jc")
    game.apply(0, DRAW)
    acts = game.legal_actions(0)
    assert Spread(cards("As 2s 3s")) in acts
    with pytest.raises(IllegalAction, match="neither a book"):
        game.apply(0, Spread(cards("Qs Ks As")))
    game.apply(0, Spread(cards("As 2s 3s")))
    game.apply(0, Discard(C("Jc")))
    game.apply(1, DRAW)
    game.apply(1, Spread(cards("Ah Ad Ac")))
    assert game.spreads[1].kind == "book"


def test_forty_card_runs_put_7_next_to_j():
    rules = Rules(deck=40)
    game = deal(["6h 7h Jh 2c 3c", "Ac Ad As 4d 5d"], upcard="Kc", stock="Qh", rules=rules)
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("6h 7h Jh")))
    assert game.spreads[0].kind == "run"
    game.apply(0, Hit(C("Qh"), 0))
    assert [str(c) for c in game.spreads[0].cards] == ["6h", "7h", "Jh", "Qh"]


def test_hits_on_any_players_spread_runs_at_either_end_books_to_four():
    game = deal(["5d 6d 7d Kc Qc", "4d 8d 9h 9s 9c", "9d 2h 3h Jc Js"], upcard="Ks", stock="Kh Kd 10c 3c")
    game.apply(0, DRAW)  # Kh
    game.apply(0, Spread(cards("5d 6d 7d")))
    game.apply(0, Discard(C("Kh")))
    game.apply(1, DRAW)  # Kd
    acts = game.legal_actions(1)
    assert Hit(C("4d"), 0) in acts and Hit(C("8d"), 0) in acts
    game.apply(1, Hit(C("4d"), 0))
    game.apply(1, Spread(cards("9h 9s 9c")))
    game.apply(1, Discard(C("Kd")))
    game.apply(2, DRAW)  # 10c
    assert Hit(C("9d"), 1) in game.legal_actions(2)
    game.apply(2, Hit(C("9d"), 1))
    assert len(game.spreads[1].cards) == 4
    assert [str(c) for c in game.spreads[0].cards] == ["4d", "5d", "6d", "7d"]


def test_hit_books_off_refuses_hits_on_books_with_the_house_rule():
    rules = rules_of(hit_books=False)
    game = deal(["9h 9s 9c 2d 3d", "9d 4c 5c Jh Qh"], upcard="Ks", stock="Kh Kd", rules=rules)
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("9h 9s 9c")))
    game.apply(0, Discard(C("Kh")))
    game.apply(1, DRAW)
    assert not any(isinstance(a, Hit) for a in game.legal_actions(1))
    with pytest.raises(IllegalAction, match="runs only"):
        game.apply(1, Hit(C("9d"), 0))


REFUSALS = [
    ("out of turn", lambda g: g.apply(1, DRAW), NotYourTurn, "P0's turn"),
    ("discard before drawing", lambda g: g.apply(0, Discard(C("Kd"))), IllegalAction, "Draw from the stock"),
    ("spread before drawing", lambda g: g.apply(0, Spread(cards("7s 8s 9s"))), IllegalAction, "Draw from the stock"),
]


@pytest.mark.parametrize("name, act, error, words", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_at_the_start_of_a_turn_change_nothing(name, act, error, words):
    game = deal(["7s 8s 9s Kd 2c", "7h 7c Qh Qd Jh"], upcard="3d", stock="10s")
    before = snapshot(game)
    with pytest.raises(error, match=words):
        act(game)
    assert snapshot(game) == before


PLAY_REFUSALS = [
    ("draw twice", lambda g: g.apply(0, DRAW), "already drawn"),
    ("take after drawing", lambda g: g.apply(0, TAKE), "already drawn"),
    ("drop after drawing", lambda g: g.apply(0, DROP), "only drop at the start"),
    ("card not in hand", lambda g: g.apply(0, Discard(C("Ah"))), "not in your hand"),
    ("spread of two", lambda g: g.apply(0, Spread(cards("7s 8s"))), "at least 3"),
    ("not a spread", lambda g: g.apply(0, Spread(cards("7s 8s Kd"))), "neither a book"),
    ("same card twice", lambda g: g.apply(0, Spread(cards("7s 7s 8s"))), "same card twice"),
    ("spread with a card not held", lambda g: g.apply(0, Spread(cards("7s 8s 6s"))), "not in your hand"),
    ("hit with no spread", lambda g: g.apply(0, Hit(C("10s"), 0)), "no such spread"),
    ("negative spread number", lambda g: g.apply(0, Hit(C("10s"), -1)), "no such spread"),
    ("wrong seat number", lambda g: g.apply(7, Discard(C("Kd"))), "no such seat"),
]


@pytest.mark.parametrize("name, act, words", PLAY_REFUSALS, ids=[r[0] for r in PLAY_REFUSALS])
def test_refusals_after_drawing_change_nothing(name, act, words):
    game = deal(["7s 8s 9s Kd 2c", "7h 7c Qh Qd Jh"], upcard="3d", stock="10s")
    game.apply(0, DRAW)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=words):
        act(game)
    assert snapshot(game) == before


def test_hit_that_does_not_fit_is_refused_naming_the_spread():
    game = deal(["7s 8s 9s Kd 2c", "7h 7c Qh Qd Jh"], upcard="3d", stock="10s Jd")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Kd")))
    game.apply(1, DRAW)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="does not fit that run"):
        game.apply(1, Hit(C("7h"), 0))
    assert snapshot(game) == before


def test_actions_after_the_hand_is_over_are_refused():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd Jd 10d 8s"], upcard="3c")
    game.apply(0, DROP)
    with pytest.raises(IllegalAction, match="hand is over"):
        game.apply(1, DRAW)
    assert game.legal_actions(1) == []


def test_holding_a_spread_in_hand_is_allowed():
    game = deal(["7s 8s 9s Kd 2c", "7h 7c Qh Qd Jh"], upcard="3d", stock="10s")
    game.apply(0, DRAW)
    game.apply(0, Discard(C("10s")))  # nothing forces the run to be laid
    assert game.turn == 1


def test_stacked_deck_refuses_a_card_twice():
    with pytest.raises(ValueError):
        stacked_deck(Rules(), 1, [list(cards("As 2s 3s 4s 5s")), list(cards("As 2h 3h 4h 5h"))], upcard=C("Kc"))
