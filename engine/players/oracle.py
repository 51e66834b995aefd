"""Measuring tools only: players that see hidden cards, to say how much there is to win.

None of these is a level of the bot: they are not in `LEVELS`, `make_player` refuses
them, and they cannot decide without the real `Game` that only the arena hands them
(`arena.play_hand` gives it to a player whose class sets `sees_game`). A player without
it raises instead of guessing. They answer issue 25's question: how much does a player
that sees the hidden cards gain over `hard`, and where (docs/BENCHMARKS.md, round 10)?

What each one sees, exactly:

- `oracle_drop`: `hard` in everything, except the drop. At the start of its turn, when a
  drop is legal, it reads every hand's true count and drops exactly when the drop wins
  (the engine's `settle_drop` on the true counts pays it: under the standard rules, when
  its count is strictly the lowest), never otherwise (where hard would have dropped it
  takes hard's choice between the discard and the stock instead). It sees no stock card
  and no hidden card for any other decision.
- `oracle_veto`: `hard`, except that it reads the true counts where hard drops, and
  plays on instead when that drop loses. It never drops where hard would not: the part
  of `oracle_drop`'s gain that is only not being caught.
- `oracle`: `expert`'s search (draw or take, and the plan after the draw among hard's
  best 3 plans, each played out to the end of the hand in the engine) run on the true
  hidden hands of every opponent instead of sampled ones. It drops exactly when the
  drop wins on the true counts, unless taking the discard goes out (as expert). The
  stock's cards are known as a set (the cards in no hand and not on the table, which a
  player who sees every hand can work out) but not their order: each play-out shuffles
  them afresh. The play-outs still play every seat by expert's quick
  rule policy, not by the opponents' real policy.
- `oracle_stock`: `oracle`, also seeing the stock in its true order (so it knows which
  card it will draw, and the play-outs draw the cards the real hand would).
"""

from __future__ import annotations

import random

from ..actions import DROP, TAKE, Action
from ..outcome import settle_drop
from ..view import SeatView
from .expert import ExpertPlayer
from .hard import HardPlayer
from .memory import Memory


class _SeesGame:
    """Mixin: the arena hands the real game over (`player.game = game`) before the first
    decision; without it the player refuses to decide."""

    sees_game = True
    game = None

    def _true_game(self):
        if self.game is None:
            raise RuntimeError(f"{self.level} is a measuring tool of the arena: it needs the real game")
        return self.game

    def drop_wins(self, view: SeatView) -> bool:
        """Does dropping now win, on the true counts?"""
        game = self._true_game()
        counts = game.counts()
        outcome = settle_drop(view.rules, view.seat, counts, view.dealer, view.stake)
        return outcome.payments[view.seat] > 0


class OracleDropPlayer(_SeesGame, HardPlayer):
    level = "oracle_drop"

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        chosen = super().start_turn(view, memory)
        if DROP not in view.legal_actions:
            return chosen
        if self.drop_wins(view):
            return DROP
        if chosen == DROP:  # hard would have dropped, and the drop loses: play on as hard would
            return ExpertPlayer.draw_or_take(self, view, memory)
        return chosen


class OracleVetoPlayer(_SeesGame, HardPlayer):
    """`hard`, except that where hard drops and the drop loses on the true counts it plays
    on instead (hard's choice between the discard and the stock). It never drops where
    hard would not: how much of `oracle_drop`'s gain is only not being caught."""

    level = "oracle_veto"

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        chosen = super().start_turn(view, memory)
        if chosen == DROP and not self.drop_wins(view):
            return ExpertPlayer.draw_or_take(self, view, memory)
        return chosen


class TrueDeals:
    """The search's deals: the opponents' true hidden hands, the stock's true cards
    (shuffled afresh for every deal, or in their true order when `order`)."""

    def __init__(self, player, view: SeatView, order: bool):
        self.player = player
        self.view = view
        self.order = order

    def sample_hands(self, k: int):
        game = self.player._true_game()
        hands = [list(h) for h in game.hands]
        hands[self.view.seat] = list(self.view.hand)
        rng: random.Random = self.player.rng
        out = []
        for _ in range(k):
            stock = list(game.stock)
            if not self.order:
                rng.shuffle(stock)
            out.append(([list(h) for h in hands], stock))
        return out


class OraclePlayer(_SeesGame, ExpertPlayer):
    level = "oracle"
    sees_order = False
    samples = 16  # the arena budget expert is measured with

    def deals(self, view: SeatView, memory: Memory):
        return TrueDeals(self, view, self.sees_order)

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        if DROP in view.legal_actions and self.drop_wins(view) and \
                not (TAKE in view.legal_actions and self.take_goes_out(view, memory)):
            return DROP  # (as expert: going out with the top discard pays at least a won drop)
        chosen = super().start_turn(view, memory)  # the search, its drop decision always "no"
        if chosen == DROP:
            return self.draw_or_take(view, memory)
        return chosen

    def drop_decision(self, view: SeatView, memory: Memory) -> bool:
        self.last_drop = None
        return False  # decided in start_turn on the true counts


class OracleStockPlayer(OraclePlayer):
    level = "oracle_stock"
    sees_order = True
    samples = 2  # the deals differ only in the play-outs' randomness


MEASURING = {"oracle_veto": OracleVetoPlayer, "oracle_drop": OracleDropPlayer, "oracle": OraclePlayer,
             "oracle_stock": OracleStockPlayer}
