"""The measuring oracles (issue 25's ceiling): arena only, never a level the bot can seat."""

from __future__ import annotations

import random

import pytest

from bot.table import Level
from engine import DROP, Game, Rules
from engine.outcome import settle_drop
from engine.players import LEVELS, make_player
from engine.players.arena import play_hand, seat_player
from engine.players.oracle import MEASURING, OracleDropPlayer
from test_players import play_checked


def test_no_oracle_is_a_level_of_the_bot():
    for name in MEASURING:
        assert name not in LEVELS
        assert name not in {level.value for level in Level}
        with pytest.raises(ValueError):
            make_player(name, 1)


def test_an_oracle_without_the_real_game_refuses_to_decide():
    game = Game.deal(Rules(), 2, 0, rng=random.Random(3))
    for name in MEASURING:
        player = seat_player(name, 1, {})
        with pytest.raises(RuntimeError, match="measuring tool"):
            # play on until its first start of a turn with a drop legal (the oracle's own decision)
            for _ in range(40):
                seat = game.turn
                view = game.view(seat)
                action = player.choose(view) if DROP in view.legal_actions else make_player("hard", 2).choose(view)
                game.apply(seat, action)


@pytest.mark.parametrize("players", [2, 3])
def test_the_drop_oracle_drops_exactly_when_the_true_counts_win(players):
    """Where a drop is legal it drops when settle_drop on the true counts pays it, never otherwise."""
    rules = Rules()
    drops = declined = 0
    for hand in range(12):
        game = Game.deal(rules, players, hand % players, rng=random.Random(500 + hand))
        bots = {s: make_player("hard", hand * 10 + s) for s in range(players)}
        bots[0] = OracleDropPlayer(hand)
        bots[0].game = game
        while game.outcome is None:
            seat = game.turn
            view = game.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal_actions
            if seat == 0 and view.phase == "start" and DROP in view.legal_actions and view.legal_actions != [DROP]:
                wins = settle_drop(rules, 0, game.counts(), game.dealer, 1).payments[0] > 0
                assert (action == DROP) == wins
                drops += wins
                declined += not wins
            game.apply(seat, action)
    assert drops >= 3 and declined >= 10


@pytest.mark.parametrize("name", sorted(MEASURING))
def test_every_oracle_plays_legal_arena_hands(name):
    for index in range(4):
        result = play_hand(Rules(), [name, "hard"], 7, index)
        assert sum(result.payments) == 0


def test_the_full_oracle_plays_legally_with_the_game_it_was_given():
    game = Game.deal(Rules.preset("waiting"), 3, 1, rng=random.Random(9))
    oracle = seat_player("oracle", 4, {"samples": 4})
    oracle.game = game
    bots = {0: oracle, 1: make_player("hard", 1), 2: make_player("normal", 2)}
    play_checked(game, bots)
    assert oracle.fallbacks == 0


def test_the_veto_oracle_is_hard_except_for_hards_losing_drops():
    from engine.players.oracle import OracleVetoPlayer

    rules = Rules()
    vetoed = kept = 0
    for hand in range(150):  # hard is caught in about 2% of 2-player hands
        game = Game.deal(rules, 2, hand % 2, rng=random.Random(900 + hand))
        other = make_player("hard", hand)
        while game.outcome is None:
            seat = game.turn
            view = game.view(seat)
            if seat == 0:
                veto = OracleVetoPlayer(hand * 7)
                veto.game = game
                mine, hards = veto.choose(view), make_player("hard", hand * 7).choose(view)
                if hards == DROP and view.legal_actions != [DROP]:
                    wins = settle_drop(rules, 0, game.counts(), game.dealer, 1).payments[0] > 0
                    assert (mine == DROP) == wins
                    vetoed += not wins
                    kept += wins
                else:
                    assert mine == hards
                action = mine
            else:
                action = other.choose(view)
            game.apply(seat, action)
    assert vetoed >= 1 and kept >= 5
