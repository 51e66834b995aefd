"""Computer players under the house rules of RULES.md section 9: legal and sensible."""

import statistics

import pytest

from engine import CLAIM, DRAW, Discard, Rules, Spread
from engine.actions import Slap, Swap
from engine.players import make_player
from engine.players.arena import play_hand
from engine.players.house import slap_race
from engine_helpers import C, cards, deal, rules_of

NEW_PRESETS = ["rushville", "chicago", "deuces wild", "newark", "washington dc", "scarne", "vietnam", "slap",
               "high faces", "seattle"]


@pytest.mark.parametrize("preset", NEW_PRESETS)
def test_every_level_plays_every_new_preset_legally(preset):
    rules = Rules.preset(preset)
    for index in range(6):
        players = 2 + index % min(3, rules.max_players() - 1)
        levels = ["hard", "normal", "easy", "normal"][:players]
        result = play_hand(rules, levels, seed=11, index=index)  # raises on any illegal choice
        assert abs(sum(result.payments)) < 1e-9


OPTIONS = [
    dict(must_spread="on", hits_per_turn=1, hit_ends_turn=True),
    dict(take_must_be_used=True, drop_when="any_time", waiting=True, hit_bars_going_out=True),
    dict(slap="next_player_first", wild_cards="jokers", jokers=2, wild_swap=True, ace_in_runs="low_or_high"),
    dict(boobed=True, hand_size=10, double_double=True),
]


@pytest.mark.parametrize("options", OPTIONS)
def test_every_level_plays_options_together_legally(options):
    rules = rules_of(**options)
    for index in range(6):
        players = min(2 + index % 3, rules.max_players())
        play_hand(rules, ["hard", "normal", "easy", "hard"][:players], seed=5, index=index)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_lay_wild_spreads(level):
    rules = rules_of(wild_cards="jokers", jokers=2)
    game = deal(["5s X1 7s Kd Qc", "2c 3d 4h 6h 9h"], stock="8c", upcard="Jd", rules=rules)
    game.apply(0, DRAW)
    action = make_player(level, seed=1).choose(game.view(0))
    assert type(action) is Spread and action.wilds == ((C("X1"), C("6s")),)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_swap_for_a_wild_card(level):
    rules = rules_of(wild_cards="jokers", jokers=2, wild_swap=True)
    game = deal(["5s X1 7s Kd Qc", "6s 3d 4h 6h Qh"], stock="8c 10c", upcard="Jd", rules=rules)
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("5s X1 7s"), ((C("X1"), C("6s")),)))
    game.apply(0, Discard(C("Kd")))
    game.apply(1, DRAW)
    assert make_player(level, seed=1).choose(game.view(1)) == Swap(C("6s"), 0)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_claim_an_in_turn_instant_hand(level):
    game = deal(["9c 9d 2h 3d 4c", "Kd Qd Jd 10d 9s"], stock="5c 6h", rules=Rules.preset("chicago"))
    game.apply(0, DRAW)
    game.apply(0, Discard(C("9c")))
    assert make_player(level, seed=1).choose(game.view(1)) is CLAIM


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_obey_must_spread(level):
    game = deal(["7c 7d 7h Kd 9c", "2c 3d 4h 6h Qh"], stock="8d", rules=rules_of(must_spread="on",
                                                                                 hits_per_turn=1))
    game.apply(0, DRAW)
    bot = make_player(level, seed=1)
    action = bot.choose(game.view(0))
    assert action == Spread(cards("7c 7d 7h"))
    game.apply(0, action)
    assert type(bot.choose(game.view(0))) is Discard and bot.fallbacks == 0


SLAP_HANDS = ["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"]


def slap_window():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("6s 7s 8s")))
    game.apply(0, Discard(C("9s")))
    return game


def test_slap_decisions_carry_a_human_reaction_time():
    delays = {}
    for level in ("easy", "normal", "hard"):
        found = []
        for seed in range(60):
            decision = make_player(level, seed=seed).slap(slap_window().view(2))
            if decision is not None:
                action, delay = decision
                assert action == Slap(0) and 0.25 <= delay <= 5.0
                found.append(delay)
        delays[level] = found
    assert len(delays["hard"]) == 60 and len(delays["easy"]) < 60  # easy players miss some windows
    assert statistics.mean(delays["hard"]) < statistics.mean(delays["normal"]) < statistics.mean(delays["easy"])


def test_a_slap_race_is_won_by_the_quickest_and_the_slapper_discards():
    game = slap_window()
    bots = [make_player("easy", seed=3), make_player("easy", seed=4), make_player("hard", seed=5)]
    applied = slap_race(game, bots)
    assert applied and applied[0][0] == 2
    assert game.to_act == 2
    action = bots[2].choose(game.view(2))
    assert type(action) is Discard
    game.apply(2, action)
    assert game.to_act == 1


def test_no_slap_without_a_window():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=Rules.preset("slap"))
    assert make_player("hard", seed=1).slap(game.view(1)) is None
    assert slap_race(game, [make_player("hard", seed=s) for s in range(3)]) == []


@pytest.mark.parametrize("rules", [
    Rules.preset("chicago"),
    rules_of(take_must_be_used=True, boobed=True, waiting=True, hit_bars_going_out=True),
    rules_of(must_spread="on", hits_per_turn=1, hit_ends_turn=True),
], ids=["chicago", "take-boobed-waiting", "must-spread-one-hit"])
def test_the_expert_plays_house_rules_legally(rules):
    for index in range(2):
        play_hand(rules, ["expert", "hard", "normal"][: 2 + index], seed=3, index=index)
