"""A `hard` player that now and then makes a human-looking mistake, and seeded self-play
hands with it: the hands `engine.review` is measured on (scripts/bench_review.py,
scripts/review_calibration.py, tests/test_review.py).

With chance `noise` at each decision it does not play hard's choice: at the start of a
turn it takes another legal start (a drop only with a count of `drop_count` or less,
so it does not throw hands away absurdly); after the draw it plays one of hard's next
best plans (second to fourth) instead of the best.
"""

from __future__ import annotations

import random

from ..actions import DROP, Action
from ..game import Game
from ..rules import Rules
from ..view import SeatView
from .hard import HardPlayer
from .memory import Memory


class NoisyPlayer(HardPlayer):
    level = "noisy"

    def __init__(self, seed: int | None = None, *, noise: float = 0.15, drop_count: int = 15):
        super().__init__(seed)
        self.noise = noise
        self.drop_count = drop_count
        self.mistakes = 0

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        best = super().start_turn(view, memory)
        if self.rng.random() >= self.noise:
            return best
        others = [a for a in view.legal_actions if a != best and (a != DROP or view.count <= self.drop_count)]
        if not others:
            return best
        self.mistakes += 1
        return self.rng.choice(others)

    def plan_turn(self, view: SeatView, memory: Memory) -> list[Action]:
        if self.rng.random() >= self.noise:
            return super().plan_turn(view, memory)
        plans = self.ranked_plans(list(view.hand), view, memory, 4)
        if len(plans) < 2:
            return super().plan_turn(view, memory)
        self.mistakes += 1
        return self.rng.choice(plans[1:])[1]


def play_record(rules: Rules, players: int, seed: int, *, noise: float = 0.15, dealer: int | None = None) -> dict:
    """One seeded self-play hand of noisy hard players; its hand record."""
    rng = random.Random(seed)
    game = Game.deal(rules, players, dealer=seed % players if dealer is None else dealer, rng=rng)
    bots = [NoisyPlayer(seed * 16 + i, noise=noise) for i in range(players)]
    steps = 0
    while game.outcome is None and steps < 5000:
        seat = game.to_act
        game.apply(seat, bots[seat].choose(game.view(seat)))
        steps += 1
    return game.record()


__all__ = ["NoisyPlayer", "play_record"]
