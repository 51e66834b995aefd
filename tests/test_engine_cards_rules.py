import random

import pytest

from engine import Card, Rank, Rules, RulesError, Suit, count, cut_for_dealer, full_deck, parse_cards
from engine.rules import PRESET_NAMES
from i18n import ENGLISH


def test_card_notation_round_trips_and_accepts_t_for_ten():
    assert str(Card.parse("10h")) == "10h"
    assert Card.parse("Th") is Card.parse("10h")
    assert Card.parse("qd").label == "Q♦"
    assert Card.parse("As").label == "A♠"
    assert str(Card.parse("x2")) == "X2"


@pytest.mark.parametrize("text", ["1s", "11h", "Ax", "", "10", "X5", "Joker"])
def test_bad_card_text_is_refused_with_the_text(text):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_values_a_is_one_faces_are_ten_jokers_zero():
    assert count(parse_cards("As 2d 9c 10h")) == 22
    assert count(parse_cards("Js Qd Kc")) == 30
    assert count(parse_cards("X1 X2 Ks")) == 10


def test_cards_are_shared_values():
    assert Card.of(Rank.KING, Suit.SPADES) is Card.parse("Ks")
    with pytest.raises(TypeError):
        Card(Rank.KING, Suit.SPADES)


def test_decks_52_40_and_jokers():
    assert len(full_deck(Rules())) == 52
    forty = full_deck(Rules(deck=40))
    assert len(forty) == 40 and not any(c.rank in (Rank.EIGHT, Rank.NINE, Rank.TEN) for c in forty)
    assert len(full_deck(Rules(jokers=2))) == 54


def test_every_preset_by_name():
    assert set(PRESET_NAMES) == {"standard", "waiting", "black company", "washington", "push-ups", "seattle", "baton rouge",
                                 "rushville", "chicago", "deuces wild", "newark", "washington dc", "scarne",
                                 "vietnam", "slap", "high faces"}
    assert Rules.preset("standard") == Rules()
    assert Rules.preset("waiting").waiting
    bc = Rules.preset("Black Company")
    assert (bc.instant_high, bc.instant_low, bc.instant_conflict, bc.hit_books, bc.tonk_out_pays) == (
        "49_50", 15, "all_paid", False, "single")
    wa = Rules.preset("washington")
    assert (wa.scoring, wa.instant_low, wa.instant_conflict, wa.waiting, wa.spread_wait, wa.hit_wait, wa.caught_pays) == (
        "stakes", 14, "all_paid", True, 0, 1, "per_player")
    assert Rules.preset("push-ups").scoring == "pushups"
    assert Rules.preset("seattle").hand_size == 7
    assert Rules.preset("baton rouge").deck == 40


def test_rules_dict_round_trip_keeps_overrides_only():
    rules = Rules.from_dict({"preset": "waiting", "jokers": 2, "stock_out": "reshuffle"})
    data = rules.to_dict()
    assert data == {"preset": "waiting", "jokers": 2, "stock_out": "reshuffle"}
    assert Rules.from_dict(data) == rules


@pytest.mark.parametrize("data, words", [
    ({"preset": "standard", "colour": "red"}, "Unknown house rule option"),
    ({"preset": "nonsense"}, "no preset called"),
    ({"hand_size": 13}, "Hand size"),
    ({"hand_size": 2}, "Hand size"),
    ({"instant_low": 20}, "instant_low"),
    ({"instant_low": 12, "instant_low_triple": True}, "triple"),
    ({"caught_pays": "everyone"}, "caught_pays"),
    ({"jokers": 5}, "jokers"),
    ({"deck": 36}, "deck"),
    ({"waiting": "yes"}, "true or false"),
])
def test_unknown_or_impossible_rules_are_refused(data, words):
    with pytest.raises(RulesError, match=words):
        Rules.from_dict(data)


def test_describe_speaks_of_every_option_in_force():
    text = "\n".join(map(ENGLISH.render, Rules.preset("washington").describe()))
    assert "14 or less" in text and "Waiting" in text and "2 stakes per player" in text


def test_cut_for_dealer_highest_deals_and_ties_cut_again():
    for seed in range(200):
        dealer, rounds = cut_for_dealer(4, random.Random(seed))
        last = rounds[-1]
        best = max(int(c.rank) for c in last if c is not None)
        assert int(last[dealer].rank) == best
        assert sum(1 for c in last if c is not None and int(c.rank) == best) == 1
        for earlier in rounds[:-1]:  # every earlier round was a tie at the top
            top = max(int(c.rank) for c in earlier if c is not None)
            assert sum(1 for c in earlier if c is not None and int(c.rank) == top) > 1
    assert any(len(cut_for_dealer(6, random.Random(s))[1]) > 1 for s in range(100))
