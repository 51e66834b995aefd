"""Inference from the opponents' own decisions (engine/players/infer.py, issue 25)."""

from __future__ import annotations

import random

import pytest

from engine import DROP, Game, Rules
from engine.actions import DRAW, Discard
from engine.cards import Card, count
from engine.game import START
from engine.players import infer, make_player
from engine.players.expert import INFER
from engine.players.hands import Layout
from engine.players.memory import Memory
from test_players_expert import redeal_hidden

STANDARD = Rules.preset("standard")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def opponent_turns(rules: Rules, players: int, seed: int, turns: int):
    """A seeded hand of hard players played until seat 0 is at the start of a turn with a
    drop legal after each other seat has finished `turns` turns: (game, seat 0's view)."""
    game = Game.deal(rules, players, players - 1, rng=random.Random(seed))  # seat 0 acts first
    bots = [make_player("hard", seed * 10 + s) for s in range(players)]
    while game.outcome is None:
        seat = game.to_act
        view = game.view(seat)
        if seat == 0 and view.phase == START and DROP in view.legal_actions and \
                all(len(infer.turns_of(view, j)) >= turns for j in range(1, players)):
            return game, view
        action = bots[seat].choose(view)
        if seat == 0 and action == DROP:
            action = DRAW  # seat 0 plays on: the position is wanted later in the hand
        game.apply(seat, action)
    return None, None


def mean(dist: list[float]) -> float:
    return sum(c * p for c, p in enumerate(dist))


def test_turns_of_reads_each_finished_turn_from_the_history():
    for seed in range(20):
        game, view = opponent_turns(STANDARD, 2, seed, 2)
        if game is None:
            continue
        turns = infer.turns_of(view, 1)
        memory = Memory(view)
        assert len(turns) == memory.turns[1]  # every turn it started, it finished with a discard
        assert [t[3] for t in turns] == memory.discards[1]
        taken = [t[1] for t in turns if t[0] == "take"]
        assert taken == memory.taken[1]
        return
    raise AssertionError("no position found")


def test_a_non_drop_at_a_low_threshold_shifts_the_count_up():
    """With the same particles (same seed), weighing by the opponent's non-drops moves its
    count's distribution to higher counts: a player who could drop and did not likely held
    more than it drops at."""
    shifted = 0
    for seed in range(12):
        game, view = opponent_turns(STANDARD, 2, 100 + seed, 3)
        if game is None:
            continue
        memory = Memory(view)
        with_ = infer.opponent_distribution(view, memory, 1, random.Random(5), infer.Params(
            particles=300, tau=3.0, prior="uniform", history=True, nodrop=True, discard=False, pass_make=0.0))
        without = infer.opponent_distribution(view, memory, 1, random.Random(5), infer.Params(
            particles=300, tau=3.0, prior="uniform", history=True, nodrop=False, discard=False, pass_make=0.0))
        assert mean(with_) >= mean(without) - 1e-9
        shifted += mean(with_) > mean(without) + 0.1
    assert shifted >= 5


def test_the_non_drop_likelihood_rises_with_the_count_and_falls_with_the_turns():
    low, high = infer.nodrop_likelihood(2, False, 3, 2), infer.nodrop_likelihood(2, False, 3, 20)
    assert low < 0.25 < 0.9 < high
    # the same count is a likelier non-drop late in the hand, where players drop only very low
    assert infer.nodrop_likelihood(2, False, 0, 10) < infer.nodrop_likelihood(2, False, 5, 10)


def test_throwing_a_low_card_while_keeping_a_loose_king_is_unlikely():
    view = Game.deal(STANDARD, 2, 0, rng=random.Random(1)).view(0)
    memory = Memory(view)
    before = cards("2S 9H KD 4C")  # nothing pairs or runs
    p_king = infer.hard_discard_likelihood(memory, 1, before, before[2], 3.0)
    p_deuce = infer.hard_discard_likelihood(memory, 1, before, before[0], 3.0)
    assert p_king > 0.5 > 0.05 > p_deuce
    assert sum(infer.hard_discard_likelihood(memory, 1, before, c, 3.0) for c in before) == pytest.approx(1.0)
    # a king that pairs is kept: throwing the nine is then likelier than throwing a king
    paired = cards("KS 9H KD 4C")
    assert infer.hard_discard_likelihood(memory, 1, paired, paired[1], 3.0) > \
        infer.hard_discard_likelihood(memory, 1, paired, paired[0], 3.0)
    layout = Layout.of(STANDARD)
    assert infer.discard_likelihood(layout, before, before[2], infer.DEFAULT) > \
        infer.discard_likelihood(layout, before, before[0], infer.DEFAULT)


def test_a_low_discard_is_likelier_from_a_low_hand_than_from_a_high_one():
    """An opponent that threw a three: had it held loose high cards it would likely have
    thrown one of those, so a hand of low cards explains the discard better; and a
    particle filter over such hands puts more weight on the low ones."""
    for seed in range(60):
        game = Game.deal(STANDARD, 2, 1, rng=random.Random(seed))
        game.apply(0, DRAW)
        game.apply(0, Discard(max(game.hands[0], key=lambda c: c.value)))
        game.apply(1, DRAW)
        hand1 = game.hands[1]
        low = min(hand1, key=lambda c: c.value)
        if low.value != 3 or game.possible_spreads(hand1):
            continue
        game.apply(1, Discard(low))
        view = game.view(0)
        memory = Memory(view)
        turns = infer.turns_of(view, 1)
        assert turns[-1][3] is low
        unknown = memory.unknown

        def loose(values):  # one card of each value, no two of a rank or within two places of a suit
            chosen = []
            for v in values:
                for c in unknown:
                    if c.value == v and c not in chosen and not infer._connected(memory.layout, c, chosen + [c]):
                        chosen.append(c)
                        break
            return chosen

        low_hand, high_hand = loose([1, 2, 4, 5, 6]), loose([10, 9, 8, 7, 6])
        assert len(low_hand) == len(high_hand) == 5
        params = infer.Params(tau=3.0, prior="uniform", history=True, nodrop=False, pass_make=0.0)
        w_low = infer.history_weight(memory, 1, low_hand, turns, False, random.Random(1), params, False)
        w_high = infer.history_weight(memory, 1, high_hand, turns, False, random.Random(1), params, False)
        assert w_low > 3 * w_high
        off = infer.Params(tau=3.0, prior="uniform", history=True, nodrop=False, pass_make=0.0, discard=False)
        assert infer.history_weight(memory, 1, low_hand, turns, False, random.Random(1), off, False) == \
            infer.history_weight(memory, 1, high_hand, turns, False, random.Random(1), off, False)
        return
    raise AssertionError("no position found")


@pytest.mark.parametrize("players,preset", [(2, "standard"), (3, "waiting")])
def test_the_inference_reads_the_seat_view_alone(players, preset):
    """Re-dealing every card the seat cannot know leaves each opponent's distribution and
    the drop value exactly as they were (same seed)."""
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(8):
        game, view = opponent_turns(rules, players, 200 + seed, 2)
        if game is None:
            continue
        memory = Memory(view)
        again = redeal_hidden(game, 0, random.Random(seed))
        assert again.hands != game.hands or again.stock != game.stock
        view2 = again.view(0)
        assert view2 == view
        memory2 = Memory(view2)
        for j in memory.others():
            assert infer.opponent_distribution(view, memory, j, random.Random(1), INFER) == \
                infer.opponent_distribution(view2, memory2, j, random.Random(1), INFER)
        assert infer.blended_drop_value(view, memory, random.Random(2), INFER) == \
            infer.blended_drop_value(view2, memory2, random.Random(2), INFER)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("players,preset", [(2, "standard"), (3, "waiting")])
def test_expert_with_the_inference_decides_the_same_when_the_hidden_cards_are_dealt_again(players, preset):
    rules = Rules.preset(preset)
    decisions = drops = 0
    for hand in range(20):
        if drops >= 3 and hand >= 4:
            break
        game = Game.deal(rules, players, hand % players, rng=random.Random(90 + hand))
        others = {s: make_player("hard", seed=hand * 10 + s) for s in range(1, players)}
        steps = 0
        while game.outcome is None and steps < 60:
            seat = game.turn
            if seat == 0:
                view = game.view(0)
                redealt = [redeal_hidden(game, 0, random.Random(hand * 100 + steps + k)) for k in range(2)]
                assert all(g.view(0) == view for g in redealt)
                seed = hand * 1000 + steps
                players_ = [make_player("expert", seed, samples=4, time_cap=float("inf"), infer_weight=0.5)
                            for _ in range(3)]
                chosen = [p.choose(g.view(0)) for p, g in zip(players_, [game, *redealt])]
                assert chosen[0] == chosen[1] == chosen[2]
                if players_[0].last_drop is not None:
                    drops += 1
                    assert players_[0].last_drop == players_[1].last_drop == players_[2].last_drop
                action = chosen[0]
                decisions += 1
            else:
                action = others[seat].choose(game.view(seat))
            game.apply(seat, action)
            steps += 1
    assert decisions >= 10 and drops >= 3


def test_expert_values_the_drop_with_the_inference_when_asked():
    for seed in range(30):
        game, view = opponent_turns(STANDARD, 2, 300 + seed, 2)
        if game is None:
            continue
        memory = Memory(view)
        plain = make_player("expert", 7, samples=4, time_cap=float("inf"))
        inferring = make_player("expert", 7, samples=4, time_cap=float("inf"), infer_weight=0.5)
        plain.drop_decision(view, memory)
        inferring.drop_decision(view, Memory(view))
        expected_rng = random.Random(make_player("expert", 7).rng.getrandbits(32))
        value, _ = infer.blended_drop_value(view, Memory(view), expected_rng, INFER, 0.5)
        assert inferring.last_drop["drop"] == pytest.approx(value)
        assert inferring.last_drop["drop"] != plain.last_drop["drop"]
        return
    raise AssertionError("no position found")


def test_infer_weight_is_a_share():
    with pytest.raises(ValueError):
        make_player("expert", 1, infer_weight=1.5)
    assert make_player("expert", 1, infer_weight=0.0).infer_weight is None
    assert count(cards("KS 2H")) == 12
