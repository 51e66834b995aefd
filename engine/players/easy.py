"""Easy: plausible but weak play, the way a beginner plays Tonk.

It lays every spread and hit at once, keeps pairs, throws its highest card, takes the
discard only when it pairs a card or is very low, and drops only with a very low count
(a little less shy once the stock runs low).
"""

from __future__ import annotations

from ..actions import DRAW, DROP, TAKE, Action, Discard
from ..view import SeatView
from .base import ComputerPlayer, Style
from .hands import lay_options
from .memory import Memory


class EasyPlayer(ComputerPlayer):
    level = "easy"
    style = Style(potential=0.0, feed_collected=0.0, feed_hit=0.0)

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        legal = view.legal_actions
        count = view.count
        late = view.stock_size < 10 or memory.turns[view.seat] >= 8
        if DROP in legal and (count <= 3 or (late and count <= 7)):
            return DROP
        top = view.discard_top
        if view.stock_size == 0 and TAKE in legal and count > 10:
            return TAKE  # drawing now would end the hand with a poor count
        if top is not None and TAKE in legal and not top.joker:
            if top.value <= 2 or any(c.rank is top.rank for c in view.hand if not c.joker):
                return TAKE
        if top is not None and top.joker and TAKE in legal:
            return TAKE
        return DRAW

    def plan_turn(self, view: SeatView, memory: Memory) -> list[Action]:
        options = lay_options(memory.layout, view.hand, view.spreads, view.seat, with_holds=False)
        option = min(options, key=lambda o: (len(o.rest), -o.laid_value))
        rest = option.rest
        if not rest:
            return option.actions
        pairs = {c.rank for c in rest for d in rest if c is not d and c.rank is d.rank and not c.joker}
        loose = [c for c in rest if c.rank not in pairs and not c.joker] or [c for c in rest if not c.joker] or rest
        worst = max(loose, key=lambda c: (c.value, self.rng.random()))
        return option.actions + [Discard(worst)]
