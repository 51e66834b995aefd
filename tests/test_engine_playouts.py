"""Seeded random playouts over every preset and 2..6 players (OpenSpiel's random_sim_test)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import DRAW, DROP, TAKE, Discard, Game, Hit, IllegalAction, PRESET_NAMES, Rules, Spread, TonkError
from engine.game import full_deck


def assert_every_card_accounted_for(game: Game) -> None:
    where = [c for h in game.hands for c in h] + list(game.stock) + list(game.discard)
    where += [c for s in game.spreads for c in s.cards]
    assert sorted(c.index for c in where) == sorted(c.index for c in full_deck(game.rules))


def junk_actions(game: Game, rng: random.Random):
    """Actions that are probably illegal now: wrong seat, wrong phase, cards not held."""
    seat = game.turn
    other = (seat + 1) % game.num_players
    someone_elses = game.hands[other][0] if game.hands[other] else None
    yield other, DRAW
    yield seat, DROP
    yield seat, TAKE
    if someone_elses is not None:
        yield seat, Discard(someone_elses)
        yield seat, Hit(someone_elses, 0)
    hand = game.hands[seat]
    if len(hand) >= 3:
        yield seat, Spread(tuple(rng.sample(hand, 3)))
    if hand:
        yield seat, Hit(hand[0], 99)


def play_checked(game: Game, rng: random.Random) -> None:
    steps = 0
    while not game.over:
        assert_every_card_accounted_for(game)
        seat = game.turn
        legal = game.legal_actions(seat)
        assert legal, "a seat to act always has a legal action"
        for who, action in junk_actions(game, rng):
            is_legal = who == seat and action in legal
            before = json.dumps(game.to_json())
            if is_legal:
                continue
            with pytest.raises(TonkError):
                game.apply(who, action)
            assert json.dumps(game.to_json()) == before
        for action in legal:
            assert game.is_legal(seat, action)
        game.apply(seat, rng.choice(legal))
        steps += 1
        assert steps < 5000
    assert_every_card_accounted_for(game)
    out = game.outcome
    assert sum(out.payments) == 0
    assert all(p % game.stake == 0 for p in out.payments)
    assert all(p >= 0 for p in out.pushups)
    assert out.counts == tuple(game.counts()) or out.kind in ("instant", "void")
    if out.kind in ("void", "draw"):
        assert out.winners == () and set(out.payments) == {0}


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_hands_every_preset_and_table_size(preset, players):
    rules = Rules.preset(preset)
    if players > rules.max_players():
        pytest.skip("deck too small")
    rng = random.Random(f"{preset}-{players}")
    for hand in range(25):
        game = Game.deal(rules, players, hand % players, rng=rng, stake=1 + hand % 3)
        play_checked(game, rng)


OPTIONS = st.fixed_dictionaries({
    "hand_size": st.sampled_from([5, 7]),
    "upcard": st.booleans(),
    "waiting": st.booleans(),
    "spread_wait": st.integers(0, 3),
    "hit_wait": st.integers(0, 2),
    "hit_wait_cap": st.booleans(),
    "hit_books": st.booleans(),
    "tonk_out_pays": st.sampled_from(["double", "second_spread", "single"]),
    "instant_high": st.sampled_from(["49_50", "50_over_49", "off"]),
    "instant_conflict": st.sampled_from(["void", "best", "all_paid"]),
    "caught_pays": st.sampled_from(["standard", "low_collects", "dropper_pays_all", "equal_or_lower",
                                    "double_to_all", "five_to_low", "per_player"]),
    "stock_out": st.sampled_from(["lowest_wins", "dead_hand", "reshuffle"]),
    "jokers": st.integers(0, 4),
    "deck": st.sampled_from([52, 40]),
    "instant_low": st.sampled_from([0, 9, 12, 15]),
})


@settings(max_examples=150, deadline=None)
@given(options=OPTIONS, players=st.integers(2, 6), seed=st.integers(0, 2**32), triple=st.booleans())
def test_random_hands_under_any_mix_of_house_rules(options, players, seed, triple):
    options = dict(options, instant_low_triple=triple and options["instant_low"] == 9)
    rules = Rules.from_dict(options)
    players = min(players, rules.max_players())
    rng = random.Random(seed)
    game = Game.deal(rules, players, seed % players, rng=rng)
    play_checked(game, rng)
    again = Game.from_record(game.record())
    assert again.outcome == game.outcome


def test_a_refused_action_on_a_finished_hand_changes_nothing():
    rng = random.Random(7)
    game = Game.deal(Rules(), 3, 0, rng=rng)
    while not game.over:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    before = json.dumps(game.to_json())
    with pytest.raises(IllegalAction):
        game.apply(game.turn, DRAW)
    assert json.dumps(game.to_json()) == before
