"""One engine: every hand is a `Game`, the house rules a rule object its one apply path asks.

Saved tables from before (commit 6ae261d, which dealt a HouseGame subclass under house
rules) load and save byte for byte, replay from their records to the same state, and
offer the same actions; a standard game answers every house-rule question with "none".
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import DRAW, Discard, Game, Rules, PRESET_NAMES, action_from_record
from engine.house import HouseRules
from engine.session import side_bet

SAVED = json.loads((Path(__file__).parent / "states" / "saved_by_6ae261d.json").read_text())


def test_the_saved_cases_cover_house_state():
    names = [case["name"] for case in SAVED]
    assert "standard" in names and "slap" in names and "standard + side bets" in names
    slap = next(case for case in SAVED if case["name"] == "slap")
    assert slap["state"]["house"]["pending"] is not None  # a slap the next player may still take over


@pytest.mark.parametrize("case", SAVED, ids=[case["name"] for case in SAVED])
def test_a_game_saved_before_loads_and_saves_byte_for_byte(case):
    game = Game.from_json(case["state"])
    assert json.dumps(game.to_json()) == json.dumps(case["state"])
    assert json.dumps(game.record()) == json.dumps(case["record"])
    assert game.result() == case["result"]


@pytest.mark.parametrize("case", SAVED, ids=[case["name"] for case in SAVED])
def test_a_saved_game_offers_the_actions_it_offered_before(case):
    game = Game.from_json(case["state"])
    assert game.to_act == case["to_act"]
    assert [a.to_record() for a in game.legal_actions(game.to_act)] == case["legal"]
    assert game.slappers() == case["slappers"]
    replayed = Game.from_record(case["record"])
    assert json.dumps(replayed.to_json()) == json.dumps(case["state"])


@pytest.mark.parametrize("case", SAVED, ids=[case["name"] for case in SAVED])
def test_a_loaded_game_plays_on_as_the_replayed_one(case):
    loaded, replayed = Game.from_json(case["state"]), Game.from_record(case["record"])
    for entry in case["legal"][:3]:
        a, b = loaded.copy(), replayed.copy()
        a.apply(case["to_act"], action_from_record(entry))
        b.apply(case["to_act"], action_from_record(entry))
        assert a.to_json() == b.to_json()
    assert json.dumps(loaded.to_json()) == json.dumps(case["state"])  # the copies left it as it was


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_deals_the_one_game_class(preset):
    game = Game.deal(Rules.preset(preset), 3, 0)
    assert type(game) is Game
    assert (game.house is not None) == Rules.preset(preset).house
    assert not Game.__subclasses__()


def test_a_standard_game_answers_the_house_rule_questions_with_none():
    game = Game.deal(Rules(), ["a", "b", "c"], 0, rng=random.Random(0))  # seeded: no tonk on the deal
    assert game.house is None
    assert game.slappers() == [] and not game.slap_window_open()
    assert all(game.legal_slaps(seat) == [] for seat in range(3))
    assert game.side_bets == {} and game.side_winners() == {"naturals": None}
    assert list(game.side_cards) == [None, None, None] and list(game.boobed) == [False] * 3
    assert game.to_act == game.turn and game.pending is None and game.window is None
    view = game.view(game.turn)
    assert view.slappers == () and view.side_cards == (None, None, None)
    assert "side_bets" not in game.record() and "house" not in game.to_json()
    game.apply(game.turn, DRAW)
    game.apply(game.turn, Discard(game.hands[game.turn][0]))
    assert game.slappers() == [] and list(game.boobed) == [False] * 3  # still nothing: no rule changed them


def test_side_bets_alone_bring_the_rule_object_and_the_same_rules_share_it():
    bets = {"naturals": side_bet("naturals", [0, 1], 1)}
    game = Game.deal(Rules(), 2, 0, side_bets=bets)
    assert isinstance(game.house, HouseRules) and game.side_bets == bets
    assert Game.deal(Rules(), 2, 1, side_bets=bets).house is game.house
    assert "house" in game.to_json() and game.record()["side_bets"] == {"naturals": bets["naturals"].to_record()}
