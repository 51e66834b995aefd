"""Random playouts: every action chosen uniformly among the legal ones.

Used by `python -m engine simulate`, by the property tests, and by the store's tests
(`random_hand`) to produce realistic finished hands.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from .game import Game
from .rules import Rules

MAX_ACTIONS = 10_000
_RANDBELOW_BY_BITS = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]  # a hand that has not ended by then is a bug, not a long hand


def play_random_hand(game: Game, rng: random.Random) -> Game:
    """Play `game` to its end with uniformly random legal actions."""
    if game.rules.slap != "off":
        return _play_random_slap_hand(game, rng)
    steps = 0
    choice = rng.choice
    if type(rng) is random.Random and _RANDBELOW_BY_BITS:
        getrandbits = rng.getrandbits
        while game.outcome is None:  # rng.choice inlined: the same draws, half the calls
            seat = game.turn
            actions = game.legal_actions(seat)
            n = len(actions)
            k = n.bit_length()
            i = getrandbits(k)
            while i >= n:
                i = getrandbits(k)
            game.apply(seat, actions[i])
            steps += 1
            assert steps < MAX_ACTIONS, "a random hand did not end"
        return game
    while game.outcome is None:
        seat = game.turn
        game.apply(seat, choice(game.legal_actions(seat)))
        steps += 1
        assert steps < MAX_ACTIONS, "a random hand did not end"
    return game


def _play_random_slap_hand(game: Game, rng: random.Random) -> Game:
    """Random play with the slap house rule: in a slap window a random other seat slaps half the time."""
    steps = 0
    while game.outcome is None:
        seat = game.to_act
        slaps = [(s, a) for s in range(game.num_players) if s != seat for a in game.legal_slaps(s)]
        if slaps and rng.random() < 0.5:
            seat, action = rng.choice(slaps)
        else:
            action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        steps += 1
        assert steps < MAX_ACTIONS, "a random hand did not end"
    return game


def random_hand(
    rng: random.Random,
    *,
    players: int | list[str] = 3,
    preset: str = "standard",
    rules: Rules | None = None,
    stake: int = 1,
    dealer: int | None = None,
) -> tuple[dict, dict]:
    """Deal and randomly play one hand; return its (record, result) as plain data."""
    rules = rules or Rules.preset(preset)
    names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    if dealer is None:
        dealer = rng.randrange(len(names))
    game = Game.deal(rules, names, dealer, rng=rng, stake=stake)
    play_random_hand(game, rng)
    return game.record(), game.outcome.result(dropper=True)


def simulate(hands: int, players: int, preset: str, seed: int) -> dict:
    """Play `hands` random hands, rotating the deal; return the summary figures."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    endings: Counter = Counter()
    turns = 0
    actions = 0
    dealer = 0
    started = time.perf_counter()
    for _ in range(hands):
        game = Game.deal(rules, players, dealer, rng=rng)
        play_random_hand(game, rng)
        endings[game.outcome.kind] += 1
        turns += game.turns
        actions += len(game.log)
        dealer = (dealer + 1) % players
    elapsed = time.perf_counter() - started
    return {
        "hands": hands,
        "players": players,
        "preset": rules.closest_preset() if preset is None else preset,
        "seed": seed,
        "endings": dict(sorted(endings.items())),
        "average_turns": round(turns / hands, 3) if hands else 0,
        "average_actions": round(actions / hands, 3) if hands else 0,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(hands / elapsed, 1) if elapsed else None,
    }
