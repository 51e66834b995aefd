"""expert's learned model of the opponents' hidden counts (engine/players/countmodel.py)."""

from __future__ import annotations

import random

import pytest

from engine import DROP, Game, Rules
from engine.players import countmodel as cm, make_player
from engine.players.memory import Memory
from test_players_expert import redeal_hidden


def flat_model(hidden_sum: int) -> cm.CountModel:
    """A model whose every opponent holds hidden cards summing to `hidden_sum`."""
    hist = [0] * (cm.MAX_SUM + 1)
    hist[hidden_sum] = 10_000
    tables = {f"0:{h}": hist for h in range(6)}
    return cm.CountModel(tables)


def test_sum_ways_counts_the_ways_to_pick_cards_by_value():
    values = [0] * 11
    values[1], values[2] = 2, 1  # two aces and a deuce
    ways = cm.sum_ways(tuple(values), 2)
    assert ways[2] == 1 and ways[3] == 2 and sum(ways) == 3
    full = cm.sum_ways(tuple([0] + [4] * 9 + [16]), 1)
    assert full[10] == 16 and full[1] == 4 and sum(full) == 52


def test_the_shipped_model_gives_distributions_over_possible_sums():
    model = cm.model()
    for h in range(6):
        for turns in (0, 3, 9):
            feats = (2, 0, h, turns, 1, 2, 1, 0)
            p = model.distribution(feats)
            assert abs(sum(p) - 1.0) < 1e-9
            assert all(q == 0.0 for s, q in enumerate(p) if s < h or s > 10 * h)
    # more hidden cards, higher sums on average
    mean = [sum(s * q for s, q in enumerate(model.distribution((2, 0, h, 3, 0, 3, 2, 0)))) for h in (1, 3, 5)]
    assert mean[0] < mean[1] < mean[2]


def test_the_unknown_cards_rule_out_sums_they_cannot_make():
    values = [0] * 11
    values[8] = values[9] = 4
    values[10] = 16  # nothing under 8 is unknown
    p = cm.posterior(cm.model(), (2, 0, 2, 4, 0, 3, 2, 0), tuple(values))
    assert abs(sum(p) - 1.0) < 1e-9
    assert all(q == 0.0 for s, q in enumerate(p) if s < 16)


def test_drop_value_settles_the_drop_on_the_opponents_counts():
    rules = Rules.preset("standard")
    for seed in range(40):
        game = Game.deal(rules, 2, 0, rng=random.Random(seed))
        view = game.view(game.turn)
        if DROP not in view.legal_actions:
            continue
        memory = Memory(view)
        mine = view.count
        value, win = cm.drop_value(view, memory, flat_model(min(mine + 1, 50)), use_pool=False)
        # the other holds more: won, a single stake
        assert (value, win) == pytest.approx((1.0, 1.0), abs=1e-3)
        if mine >= 5:
            value, win = cm.drop_value(view, memory, flat_model(mine), use_pool=False)
            assert (value, win) == pytest.approx((-2.0, 0.0), abs=1e-3)  # equal: caught, a double stake
        return
    raise AssertionError("no drop position found")


def test_the_features_come_from_the_view_alone():
    rules = Rules.preset("waiting")
    for hand in range(4):
        game = Game.deal(rules, 3, hand % 3, rng=random.Random(300 + hand))
        bots = [make_player("hard", hand * 10 + s) for s in range(3)]
        steps = 0
        while game.outcome is None and steps < 40:
            seat = game.to_act
            view = game.view(seat)
            if view.phase == "start":
                memory = Memory(view)
                again = redeal_hidden(game, seat, random.Random(steps))
                memory2 = Memory(again.view(seat))
                for j in memory.others():
                    assert cm.features(view, memory, j) == cm.features(again.view(seat), memory2, j)
                assert cm.drop_value(view, memory) == cm.drop_value(again.view(seat), memory2)
            game.apply(seat, bots[seat].choose(view))
            steps += 1


def test_the_model_applies_only_where_it_was_learned():
    assert cm.applies(Rules.preset("standard")) and cm.applies(Rules.preset("waiting"))
    assert not cm.applies(Rules.preset("seattle"))  # 7-card hands
    assert not cm.applies(Rules.preset("push-ups"))  # push-ups scoring


def test_expert_values_the_drop_by_the_learned_model_where_it_applies():
    """At a drop decision in standard play expert's drop value is the model's; with 7-card
    hands (seattle) it is round 7's lean deals."""
    for preset, learned in (("standard", True), ("seattle", False)):
        rules = Rules.preset(preset)
        for seed in range(60):
            game = Game.deal(rules, 2, 0, rng=random.Random(seed))
            view = game.view(game.turn)
            if DROP not in view.legal_actions:
                continue
            player = make_player("expert", 3, samples=4, time_cap=float("inf"))
            memory = Memory(view)
            player.drop_decision(view, memory)
            value, _ = cm.drop_value(view, memory)
            assert (player.last_drop["drop"] == value) is learned
            break
        else:
            raise AssertionError(f"no drop position under {preset}")
