"""The `expert` level: a search over sampled hidden hands that sees only its seat view."""

from __future__ import annotations

import random

import pytest

from engine import DRAW, DROP, PRESET_NAMES, TAKE, Discard, Game, Rules, Spread
from engine.outcome import settle_drop
from engine.players import LEVELS, ExpertPlayer, make_player
from engine.players.expert import sampled_game
from engine.players.hard import Estimate
from engine.players.memory import Memory
from engine_helpers import C, cards, deal
from test_players import play_checked
from test_players_hard_habits import three_seats_after_a_take_and_spread

NO_CAP = float("inf")  # no CPU-time guard: the same seed always makes the same search


def expert(seed: int, samples: int = 8) -> ExpertPlayer:
    return make_player("expert", seed, samples=samples, time_cap=NO_CAP)


def redeal_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card `seat` cannot know dealt afresh: the other
    hands' unknown cards and the stock order. Cards an opponent took from the pile and
    still holds stay where they are (the seat saw them taken)."""
    held = Memory(game.view(seat)).held
    slots, pool = [], []
    for j, hand in enumerate(game.hands):
        if j == seat:
            continue
        for k, card in enumerate(hand):
            if card not in held[j]:
                slots.append((j, k))
                pool.append(card)
    pool.extend(game.stock)
    rng.shuffle(pool)
    data = game.to_json()
    for (j, k), card in zip(slots, pool):
        data["hands"][j][k] = card.code
    data["stock"] = [c.code for c in reversed(pool[len(slots):])]
    return Game.from_json(data)


def test_expert_is_a_level_everywhere_levels_are_listed():
    assert "expert" in LEVELS
    player = make_player("expert", 3, samples=5)
    assert isinstance(player, ExpertPlayer) and player.samples == 5
    with pytest.raises(ValueError):
        make_player("expert", 3, samples=0)


@pytest.mark.parametrize("players,preset", [(2, "standard"), (3, "waiting"), (2, "chicago"), (3, "deuces wild")])
def test_expert_decides_the_same_when_the_hidden_cards_are_dealt_again(players, preset):
    """At every decision of seeded hands, the hidden cards are re-dealt twice consistently
    with expert's view: the view is the same, the real hands are not, and expert (same
    seed) makes the same decision in all three games."""
    rules = Rules.preset(preset)
    decisions = hidden_differs = drop_result_differs = 0
    for hand in range(10):
        game = Game.deal(rules, players, hand % players, rng=random.Random(70 + hand))
        others = {s: make_player("normal", seed=hand * 10 + s) for s in range(1, players)}
        steps = 0
        while game.outcome is None and steps < 60:
            seat = game.turn
            if seat == 0:
                view = game.view(0)
                redealt = [redeal_hidden(game, 0, random.Random(hand * 100 + steps + k)) for k in range(2)]
                assert all(g.view(0) == view for g in redealt)
                hidden_differs += any(g.hands != game.hands or g.stock != game.stock for g in redealt)
                if view.phase == "start" and DROP in view.legal_actions:
                    paid = {settle_drop(rules, 0, g.counts(), g.dealer, 1).payments[0] for g in [game, *redealt]}
                    drop_result_differs += len(paid) > 1
                seed = hand * 1000 + steps
                chosen = [expert(seed).choose(g.view(0)) for g in [game, *redealt]]
                assert chosen[0] == chosen[1] == chosen[2]
                action = chosen[0]
                decisions += 1
            else:
                action = others[seat].choose(game.view(seat))
            game.apply(seat, action)
            steps += 1
    assert decisions >= 10 and hidden_differs >= 8
    assert drop_result_differs >= 1  # a player that peeked would have had a reason to decide otherwise


def test_a_sampled_game_is_the_views_position():
    game = three_seats_after_a_take_and_spread()
    view = game.view(2)
    memory = Memory(view)
    player = expert(1)
    for hands, stock in Estimate(player, view, memory).sample_hands(20):
        sample = sampled_game(view, memory, hands, stock)
        mine = sample.view(2)
        for field in ("hand", "hand_sizes", "spreads", "discard_top", "discard_size", "stock_size", "turn",
                      "phase", "waits", "drop_blocked", "legal_actions"):
            assert getattr(mine, field) == getattr(view, field), field
        assert C("Jd") in sample.hands[1]  # taken, so known to be held
        assert len(sample.stock) == len(game.stock)
        every = [c for h in sample.hands for c in h] + sample.stock + sample.discard
        every += [c for s in sample.spreads for c in s.cards]
        assert sorted(c.index for c in every) == list(range(52))


def test_expert_takes_the_discard_that_goes_out():
    """Two nines in hand and a nine on the pile: taking it is a tonk out."""
    game = deal(["5c 5d 5h 9c 9d", "2h 3s 4h Kh Qs"], upcard="Jc", stock="Ah 9h")
    game.apply(0, DRAW)  # Ah
    game.apply(0, Spread(cards("5c 5d 5h")))
    game.apply(0, Discard(C("Ah")))
    game.apply(1, DRAW)  # 9h
    game.apply(1, Discard(C("9h")))
    for seed in range(3):
        player = expert(seed)
        assert player.choose(game.view(0)) == TAKE
        assert player.last_search["take"] == 2.0  # a tonk out on every sampled deal
    game.apply(0, TAKE)
    assert expert(1).choose(game.view(0)) == Spread(cards("9c 9d 9h"))


def test_expert_plays_legally_and_repeatably_under_house_rules():
    for preset in ("standard", "waiting", "black company", "push-ups", "seattle", "baton rouge"):
        rules = Rules.preset(preset)
        logs = []
        for _ in range(2):
            game = Game.deal(rules, 3, 1, rng=random.Random(5))
            bots = {0: expert(9, samples=4), 1: make_player("hard", 1), 2: expert(11, samples=4)}
            log = []
            while game.outcome is None:
                seat = game.turn
                action = bots[seat].choose(game.view(seat))
                assert action in game.legal_actions(seat)
                game.apply(seat, action)
                log.append(action)
                assert len(log) < 2000
            assert bots[0].fallbacks == bots[2].fallbacks == 0
            logs.append(log)
        assert logs[0] == logs[1]


def test_expert_searches_within_its_budget_and_reports_what_it_weighed():
    game = deal(["2c 3d Ad 5h 4s", "Kc Kd Qc Jd 8c", "Kh Ks Qh Qs 8d"], upcard="9h", stock="8h 9c 10h Jh")
    view = game.view(0)
    player = expert(4, samples=12)
    action = player.choose(view)
    searched = player.last_search
    assert searched is not None and searched["samples"] == 12
    assert {"drop", "draw", "take"} <= set(searched)
    assert action.verb == searched["chosen"]
    assert searched["default"] == make_player("hard", 4).choose(view).verb  # what it starts from
    if searched["chosen"] != searched["default"]:  # it changes its mind only for a better mean
        assert searched[searched["chosen"]] > searched[searched["default"]]


@pytest.mark.parametrize("preset", [p for p in PRESET_NAMES if Rules.preset(p).house])
def test_expert_plays_legally_in_every_house_rule_preset(preset, monkeypatch):
    """Under section 9's house rules expert searches too (its play-outs run in the engine
    under those rules): every action legal, every hand ended, nothing thrown, and it
    really searched."""
    rules = Rules.preset(preset)
    searched = []
    original = ExpertPlayer.search

    def counting(self, *args):
        searched.append(1)
        return original(self, *args)

    monkeypatch.setattr(ExpertPlayer, "search", counting)
    for i in range(4):
        game = Game.deal(rules, 3, i % 3, rng=random.Random(40 + i))
        bots = {0: expert(i), 1: make_player("hard", i), 2: expert(100 + i)}
        play_checked(game, bots)
        assert bots[0].fallbacks == bots[2].fallbacks == 0
    assert len(searched) >= 4


HOUSE_OPTIONS = [
    {"face_values": "ranked"}, {"ace_in_runs": "low_or_high"}, {"wild_cards": "jokers", "jokers": 2},
    {"wild_cards": "deuces_and_jokers", "jokers": 1, "wild_swap": True}, {"must_spread": "on"},
    {"must_spread": "on_but_three_aces"}, {"hits_per_turn": 1}, {"hit_ends_turn": True},
    {"take_must_be_used": True}, {"hit_bars_going_out": True, "waiting": True}, {"hit_spoils_tonk_out": True},
    {"first_turn_tonk_out": "double_then_single"}, {"first_turn_tonk_out": "quadruple_two_spreads"},
    {"run_out_pays": "double"}, {"double_double": True}, {"boobed": True}, {"drop_when": "any_time"},
    {"slap": "first_to_slap"}, {"slap": "next_player_first"},
    {"caught_pays": "catchers_only", "catchers_stakes": 4, "instant_hands": [{"hand": "49", "pays": 1, "when": "turn"}]},
]


@pytest.mark.parametrize("option", HOUSE_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())[:40])
def test_expert_searches_and_plays_legally_under_each_house_option(option):
    """Each option of section 9 alone: expert (searching, with the public house state in its
    sampled games) plays arena hands to the end with every action legal (the arena
    refuses a hand with an illegal choice), at 2 and 3 players."""
    from engine.players.arena import play_hand

    rules = Rules.from_dict({"preset": "standard", **option})
    assert rules.house and ExpertPlayer(1).searches(rules)
    for index in range(2):
        result = play_hand(rules, ["expert", "hard", "normal"][: 2 + index], seed=5, index=index,
                           options={"expert": {"samples": 4}})
        assert abs(sum(result.payments)) < 1e-9
