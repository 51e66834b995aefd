"""The engine's fast paths give exactly what the plain code they replace gave.

A seeded deal, the spreads a hand holds and a random playout must not change when the
engine gets faster: hand records, seeded tests and arena results depend on them.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest

from engine import Card, Game, Rules, full_deck
from engine.cards import shuffle
from engine.game import run_positions, spreads_in
from engine.simulate import play_random_hand


@pytest.mark.parametrize("size", [0, 1, 2, 3, 11, 40, 52, 56, 300])
def test_shuffle_matches_random_shuffle_and_leaves_the_generator_in_step(size):
    for seed in range(200):
        mine, theirs = random.Random(seed), random.Random(seed)
        cards, expected = list(range(size)), list(range(size))
        shuffle(cards, mine)
        theirs.shuffle(expected)
        assert cards == expected
        assert mine.getstate() == theirs.getstate()


def test_shuffle_uses_a_generators_own_shuffle_when_it_is_not_plain_random():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    cards = [1, 2, 3]
    shuffle(cards, Reversing(1))
    assert cards == [3, 2, 1]


@pytest.mark.parametrize("overrides", [{}, {"deck": 40, "jokers": 2}, {"hand_size": 7, "upcard": False}])
def test_a_seeded_deal_is_the_deal_of_the_deck_random_shuffle_gives(overrides):
    rules = replace(Rules(), **overrides)
    for seed in range(30):
        deck = full_deck(rules)
        random.Random(seed).shuffle(deck)
        dealt = Game.deal(rules, 3, seed % 3, rng=random.Random(seed))
        from_deck = Game.deal(rules, 3, seed % 3, deck=deck)
        assert dealt.deck == deck
        assert dealt.to_json() == from_deck.to_json()


def test_full_deck_is_a_fresh_list_every_time():
    deck = full_deck(Rules())
    deck.clear()
    assert len(full_deck(Rules())) == 52
    game = Game.deal(Rules(), 2, 0, rng=random.Random(1))
    assert sorted(c.index for c in game.deck) == list(range(52))


def reference_spreads(hand, positions):
    """The spread search as the engine first wrote it (no quick rejection)."""
    found = []
    by_rank, by_suit = {}, {}
    for c in hand:
        if c.joker:
            continue
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)
    for cards in by_rank.values():
        if len(cards) >= 3:
            cards.sort(key=lambda c: c.suit.value)
            for size in range(3, len(cards) + 1):
                found.extend(combinations(cards, size))
    for cards in by_suit.values():
        if len(cards) < 3:
            continue
        cards.sort(key=lambda c: positions[c.rank])
        start = 0
        for i in range(1, len(cards) + 1):
            if i == len(cards) or positions[cards[i].rank] != positions[cards[i - 1].rank] + 1:
                for a in range(start, i - 2):
                    for b in range(a + 3, i + 1):
                        found.append(tuple(cards[a:b]))
                start = i
    return found


@pytest.mark.parametrize("rules", [Rules(), Rules(deck=40, jokers=4)], ids=["52", "40+jokers"])
def test_spreads_in_finds_what_the_plain_search_finds_in_the_same_order(rules):
    rng = random.Random(5)
    positions = run_positions(rules)
    deck = full_deck(rules)
    suits = {}
    for c in deck:
        if not c.joker:
            suits.setdefault(c.suit, []).append(c)
    seen_spread = 0
    for trial in range(4000):
        if trial % 4 == 0:  # rich hands: most of one suit, so long runs and splits occur
            suit = rng.choice(list(suits))
            hand = rng.sample(suits[suit], rng.randint(3, 10)) + rng.sample(deck, 2)
            hand = list(dict.fromkeys(hand))
        else:
            hand = rng.sample(deck, rng.randint(0, 12))
        expected = reference_spreads(list(hand), positions)
        assert spreads_in(hand, positions) == expected, [c.code for c in hand]
        seen_spread += bool(expected)
    assert seen_spread > 1000  # the comparison covered hands that do hold spreads


def test_a_book_of_four_and_a_run_crossing_the_forty_card_gap():
    forty = run_positions(Rules(deck=40))
    hand = [Card.parse(c) for c in "7h Jh Qh 5c 5d 5h 5s X1".split()]
    found = {" ".join(c.code for c in s) for s in spreads_in(hand, forty)}
    assert "7h Jh Qh" in found and "5c 5d 5h 5s" in found
    assert spreads_in(hand, run_positions(Rules())) == reference_spreads(hand, run_positions(Rules()))
    assert "7h Jh Qh" not in {" ".join(c.code for c in s) for s in spreads_in(hand, run_positions(Rules()))}


def test_random_playouts_still_end_with_every_card_accounted_for():
    rng = random.Random(11)
    for i in range(300):
        rules = Rules.preset(("standard", "waiting", "baton rouge", "seattle")[i % 4])
        game = Game.deal(rules, 2 + i % 4, i % 2, rng=rng)
        play_random_hand(game, rng)
        assert sum(game.outcome.payments) == 0
        replayed = Game.from_record(game.record())
        assert replayed.outcome == game.outcome
