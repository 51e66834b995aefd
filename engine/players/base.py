"""The skeleton every computer player shares: one `choose(view)` per decision.

A turn is two decisions for the player's logic: at the start (drop, draw or take) and
after the draw, a plan (spreads and hits in order, then a discard) that `choose` hands
out one action per call. The plan is checked against the view before each step and
made afresh whenever the view is not the one it expected, so a player never relies on
anything but the `SeatView` it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import CLAIM, DRAW, DROP, TAKE, Action, Discard
from ..cards import count
from ..game import START
from ..house import SLAP_DISCARD
from ..view import SeatView
from . import house
from .hands import lay_options, spread_potential
from .memory import Memory

# Going out, in count points: better than any hand kept, and on the same scale so that
# the chance of going out on the next draw weighs what it is worth.
TONK_OUT_SCORE = -35.0  # a plan that empties the hand by spreads and hits
RUN_OUT_SCORE = -25.0  # a plan that discards the last card
LONG_HAND = 40  # own turns after which a player drops whenever it may: every hand must end


def stock_is_out(view: SeatView) -> bool:
    """Drawing now would end the hand (an empty stock and nothing to reshuffle)."""
    return view.stock_size == 0 and not view.rules.can_reshuffle(view.discard_size)


@dataclass(frozen=True, slots=True)
class Style:
    """How a player scores the hand it keeps (all figures in count points)."""

    potential: float = 1.0  # weight of pairs and two-card runs that may still become spreads
    draws_ahead: float = 2.0  # how many more cards it expects to see for a combo
    feed_collected: float = 6.0  # penalty: discard fits cards the next player took
    feed_hit: float = 6.0  # penalty: discard fits a spread on the table
    feed_low: float = 0.0  # penalty per point under 5 of the discarded card
    holds: bool = False  # consider holding spreads in hand (waiting tables)
    wait_turn: float = 2.0  # cost of one turn barred from dropping
    small_hand: float = 0.0  # bonus per hit-out when one card is kept (run-out chances)
    go_out: float = 0.0  # bonus for two cards kept that one card would make a spread: a tonk out


class ComputerPlayer:
    """Base class: subclasses decide the start of a turn and may change the scoring."""

    level = "base"
    style = Style()

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._plan: tuple[int, frozenset, list] | None = None
        self.fallbacks = 0  # times a computed action was not legal (a bug if ever above 0)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    # ------------------------------------------------------------------ the one entry point

    def choose(self, view: SeatView) -> Action:
        """The action this player takes now; always one of `view.legal_actions`."""
        legal = view.legal_actions
        if not legal:
            raise ValueError("It is not this seat's turn: there is nothing to choose.")
        if view.phase == SLAP_DISCARD:
            action = house.best_discard(self, view)
        elif view.phase == START:
            self._plan = None
            memory = Memory(view)
            if CLAIM in legal:
                action = CLAIM  # an instant hand claimed in turn: a sure win
            elif legal == [DROP]:
                action = DROP  # boobed: nothing else is allowed
            elif memory.turns[view.seat] >= LONG_HAND and DROP in legal:
                action = DROP
            else:
                action = self.start_turn(view, memory)
            if action == TAKE and stock_is_out(view) and not self.take_lowers_count(view, memory):
                # after the stock is gone, taking must make progress or the hand never ends
                action = DRAW
        elif view.rules.house:
            action = house.house_play(self, view)
        else:
            action = self._planned(view)
            if action is None:
                actions = self.plan_turn(view, Memory(view))
                action = self._remember(view, actions)
        if action not in legal:
            self.fallbacks += 1
            self._plan = None
            action = self._fallback(view)
        return action

    def slap(self, view: SeatView):
        """(Slap, reaction delay in seconds) if this player slaps the open window now, else None.

        Ask every seat whose `view.legal_actions` holds a Slap; the bot may wait the delay
        before sending the slap, so the race feels human."""
        return house.slap_decision(self, view)

    def _planned(self, view: SeatView) -> Action | None:
        if self._plan is None:
            return None
        at, hand, actions = self._plan
        if at != len(view.history) or hand != frozenset(view.hand) or not actions:
            self._plan = None
            return None
        return self._remember(view, actions)

    def _remember(self, view: SeatView, actions: list) -> Action:
        action, rest = actions[0], actions[1:]
        hand = set(view.hand)
        if hasattr(action, "cards"):
            hand.difference_update(action.cards)
        elif hasattr(action, "card"):
            hand.discard(action.card)
        if rest and not isinstance(action, Discard):
            self._plan = (len(view.history) + 1, frozenset(hand), rest)
        else:
            self._plan = None
        return action

    def _fallback(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if view.phase == START:
            return DRAW if DRAW in legal else legal[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        return max(discards, key=lambda a: a.card.value) if discards else legal[0]

    # ------------------------------------------------------------------ decisions

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        raise NotImplementedError

    def plan_turn(self, view: SeatView, memory: Memory) -> list[Action]:
        score, actions = self.best_plan(view.hand, view, memory)
        return actions

    # ------------------------------------------------------------------ shared tools

    def take_lowers_count(self, view: SeatView, memory: Memory) -> bool:
        """Would taking the discard (and playing the best plan) lower my count?"""
        top = view.discard_top
        if top is None:
            return False
        _, actions = self.best_plan(list(view.hand) + [top], view, memory)
        kept = set(view.hand)
        kept.add(top)
        for action in actions:
            if hasattr(action, "cards"):
                kept.difference_update(action.cards)
            else:
                kept.discard(action.card)
        return count(kept) < view.count

    def best_plan(self, hand, view: SeatView, memory: Memory):
        """The best (score, actions) for a turn holding `hand` after the draw (lower is better).

        Scores are count points: the count kept, less what its pairs and two-card runs
        may still lay, plus what the discard may give the next player, plus the turns a
        lay bars me from dropping on a waiting table. Going out beats everything.
        """
        key = frozenset(hand)
        cache = memory.plans
        found = cache.get(key)
        if found is not None:
            return found
        best = None
        best_actions: list = []
        for score, option, card in self.plan_scores(hand, view, memory):
            if best is None or score < best:
                best = score
                best_actions = option.actions if card is None else option.actions + [Discard(card)]
        found = cache[key] = (best, best_actions)
        return found

    def ranked_plans(self, hand, view: SeatView, memory: Memory, k: int) -> list[tuple[float, list]]:
        """The `k` best (score, actions) for a turn holding `hand`, best first; plans
        that keep the same cards count once."""
        scored = sorted(((score, i, option, card) for i, (score, option, card)
                         in enumerate(self.plan_scores(hand, view, memory))), key=lambda t: (t[0], t[1]))
        out: list[tuple[float, list]] = []
        kept_seen: set = set()
        for score, _, option, card in scored:
            kept = frozenset(c for c in option.rest if c is not card)
            if kept in kept_seen:
                continue
            kept_seen.add(kept)
            out.append((score, option.actions if card is None else option.actions + [Discard(card)]))
            if len(out) == k:
                break
        return out

    def plan_scores(self, hand, view: SeatView, memory: Memory):
        """(score, lay option, card to discard or None) for every way to play the turn."""
        layout = memory.layout
        style = self.style
        rules = view.rules
        holds = style.holds and rules.waiting
        options = lay_options(layout, hand, view.spreads, view.seat, with_holds=holds, places=memory.places)
        for option in options:
            rest = option.rest
            if not rest:
                yield (TONK_OUT_SCORE if rules.tonk_out_pays != "single" else RUN_OUT_SCORE - 1), option, None
                continue
            if len(rest) == 1:
                yield RUN_OUT_SCORE, option, rest[0]
                continue
            base = self.lay_cost(option, view, memory) + count(rest)
            combos = self.combo_values(rest, memory) if style.potential else None
            total = sum(combos.values()) / 2 if combos else 0.0  # every combo is in two cards
            for card in rest:
                score = base - card.value
                if combos:
                    score -= style.potential * (total - combos.get(card, 0.0))
                if style.small_hand and len(rest) == 2:
                    score -= style.small_hand * memory.hit_share
                elif style.go_out and len(rest) == 3:
                    score -= style.go_out * self.completion([c for c in rest if c is not card], memory)
                score += self.feed(card, view, memory)
                yield score, option, card

    def lay_cost(self, option, view: SeatView, memory: Memory) -> float:
        """Cost in count points of laying this way: turns it bars me from dropping."""
        rules = view.rules
        if not rules.waiting:
            return 0.0
        turns = option.new_spreads * rules.spread_wait + option.own_hits * rules.hit_wait
        return self.style.wait_turn * turns

    def combo_values(self, cards, memory: Memory) -> dict:
        """For each card, the count points its pairs and two-card runs may still lay
        (each combo weighed by its live outs). A combo counts for both of its cards."""
        alive = memory.alive
        if not alive:
            return {}
        share = self.style.draws_ahead / len(alive)
        values: dict = {}
        for a, b, outs in spread_potential(memory.layout, cards):
            live = sum(1 for c in outs if c in alive)
            if live:
                v = min(0.9, live * share) * (a.value + b.value)
                values[a] = values.get(a, 0.0) + v
                values[b] = values.get(b, 0.0) + v
        return values

    def completion(self, pair, memory: Memory) -> float:
        """The chance that two cards become a spread with a card still to come."""
        alive = memory.alive
        if not alive:
            return 0.0
        share = self.style.draws_ahead / len(alive)
        for a, b, outs in spread_potential(memory.layout, pair):
            live = sum(1 for c in outs if c in alive)
            return min(0.9, live * share)
        return 0.0

    def feed(self, card, view: SeatView, memory: Memory) -> float:
        """What discarding `card` may give the next player, in count points."""
        style = self.style
        if card.joker:
            return 50.0
        penalty = 0.0
        if card in memory.targets:
            penalty += style.feed_hit
        collected = memory.held[memory.next_seat]
        if collected and style.feed_collected:
            pos = memory.layout.pos
            for c in collected:
                if c.joker:
                    continue
                if c.rank is card.rank or (c.suit is card.suit and abs(pos[c] - pos[card]) <= 2):
                    penalty += style.feed_collected
                    break
        if style.feed_low and card.value < 5:
            penalty += style.feed_low * (5 - card.value)
        return penalty

    def draw_scores(self, view: SeatView, memory: Memory, *, quick: bool = False):
        """(score if I take the discard, expected score if I draw), lower is better."""
        hand = list(view.hand)
        top = view.discard_top
        take = None
        if top is not None:
            take, _ = self.best_plan(hand + [top], view, memory)
        if quick:
            draw = self.quick_draw_score(hand, view, memory)
        else:
            draw = self.expected_draw(hand, view, memory)
        return take, draw

    def quick_draw_score(self, hand, view: SeatView, memory: Memory) -> float:
        """The plan score after drawing a typical card: one that fits nothing I hold or
        the table, of about the mean value of the unknown cards (one plan, not dozens)."""
        pool = memory.unknown
        if not pool:
            return float(count(hand))
        mean = sum(c.value for c in pool) / len(pool)
        relevant = self._relevant(hand, memory)
        targets = memory.targets
        plain = [c for c in pool
                 if not c.joker and c not in targets and not self._is_relevant(c, relevant, memory)]
        if not plain:
            return self.expected_draw(hand, view, memory)
        card = min(plain, key=lambda c: (abs(c.value - mean), c.index))
        score, _ = self.best_plan(hand + [card], view, memory)
        return score

    @staticmethod
    def _relevant(hand, memory: Memory) -> set:
        keys = set()
        pos = memory.layout.pos
        for c in hand:
            if c.joker:
                continue
            keys.add(("r", c.rank))
            for step in (-2, -1, 1, 2):
                keys.add(("s", c.suit, pos[c] + step))
        return keys

    @staticmethod
    def _is_relevant(card, keys: set, memory: Memory) -> bool:
        return ("r", card.rank) in keys or ("s", card.suit, memory.layout.pos[card]) in keys

    def expected_draw(self, hand, view: SeatView, memory: Memory) -> float:
        """Mean best-plan score over the cards the stock may give (grouped by what matters)."""
        pool = memory.unknown
        if not pool:
            return float(count(hand))
        keys = self._relevant(hand, memory)
        targets = memory.targets
        groups: dict = {}
        for c in pool:
            if c.joker:
                key = ("joker",)
            elif c in targets or self._is_relevant(c, keys, memory):
                key = c
            else:
                key = ("v", c.value)
            groups.setdefault(key, []).append(c)
        total = 0.0
        for cards in groups.values():
            score, _ = self.best_plan(hand + [cards[0]], view, memory)
            total += score * len(cards)
        return total / len(pool)


def take_or_draw(view: SeatView, take_score, draw_score, margin: float = 0.0) -> Action:
    """Take the discard when its plan beats drawing by more than `margin` count points."""
    if view.discard_top is not None and take_score is not None and take_score < draw_score - margin:
        return TAKE
    return DRAW


__all__ = ["ComputerPlayer", "Style", "stock_is_out", "take_or_draw"]
