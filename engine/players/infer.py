"""Inference from what the opponents did: each opponent's hidden cards weighed by how
likely its own decisions were under a model of its play (issue 25).

The learned count model (`countmodel`) reads an opponent's public features (turns, last
take, the value buckets of its last two discards, ...) as a table lookup. This module
asks instead, for each candidate hidden hand of opponent `j` (a particle: `j`'s hidden
cards drawn uniformly from the cards this seat cannot see; cards it took and keeps are
known), how likely `j`'s finished turns were had it held that hand. Its turns are
replayed backwards from the particle (`history_weight`): before its discard it held its
hand and the card it threw; before its lays, those cards too; before its draw, all that
less the card it drew (which card that was is unknown: one is picked at random among
those it may have drawn, the weight corrected by how many there were; a taken card is
known). Each turn's decisions are weighed under a soft model of how the computer levels
play:

- **its discard**: a softmax at temperature `tau` of hard's own per-card discard score
  (`hard_discard_likelihood`: the card's value, what its live pairs and two-card runs
  may still lay, what it feeds the next seat, keeping a pair when down to three cards).
  A hand that kept a loose card far higher than the one thrown explains the discard badly.
- **its non-drop**: it could drop at the start of the turn and did not; the chance of that
  with count `c` after `t` turns is `1 - sigmoid((thr(t) - c) / width)` (`DROP_CURVE`,
  fitted on self-play by `scripts/infer_model.py fit-drops`). Under waiting only turns
  before it first laid a card count (later its waits are not replayed).
- **its draw**: drawing when the pile's top made a book or run of three with its hand
  is less likely (`pass_make`).

With a uniform prior over the hidden cards (any deal is alike before anyone acts) and
every decision of `j` weighed, this is Bayes' rule up to the soft model's errors and the
opponents taken one at a time. The result per opponent is a distribution of its count;
`blended_drop_value` joins it with the learned model's (in log-odds of "its count is at
most mine") and settles the drop exactly as `countmodel.drop_value` does (standard caught
pays, stakes, the opponents independent). Everything comes from the `SeatView` (through
`Memory` and the public history): the real hidden cards cannot reach it. Measured in
docs/BENCHMARKS.md (round 11).
"""

from __future__ import annotations

import math
import random

from ..cards import count
from ..odds import logistic, logit
from ..view import SeatView
from . import countmodel
from .hard import COMBO_LEAN, HardPlayer
from .hands import spread_potential
from .hands import Layout
from .memory import Memory

# The count at which a seat drops half the time by the turns it has played before that
# start of turn (index), per table size and waiting; and the logistic width. Fitted on
# self-play (scripts/infer_model.py fit-drops; docs/BENCHMARKS.md round 11).
DROP_CURVE = {
    (2, 0): ((20.0, 17.0, 11.5, 8.0, 7.0, 4.5, 0.0), 4.0),
    (3, 0): ((20.0, 15.0, 11.0, 8.0, 5.5, 5.0, 2.0), 3.0),
    (2, 1): ((21.5, 19.0, 14.0, 11.0, 8.0, 5.0, 0.0), 3.0),
    (3, 1): ((19.5, 15.0, 10.0, 6.0, 5.5, 4.0, 0.5), 3.0),
}


class Params:
    """The soft model's figures (see the module doc)."""

    __slots__ = ("particles", "tau", "connect", "low_feed", "nodrop", "pass_make", "floor", "mix", "prior",
                 "prior_levels", "discard", "model", "combo", "history", "depth")

    def __init__(self, particles: int = 300, tau: float = 3.0, connect: float = 6.0, low_feed: float = 0.4,
                 nodrop: bool = True, pass_make: float = 0.25, floor: float = 0.02, mix: float = 0.0,
                 prior: str = "uniform", prior_levels: int = 3, discard: bool = True, model: str = "hard",
                 combo: bool = False, history: bool = True, depth: int = 99):
        self.particles = particles
        self.tau = tau
        self.connect = connect
        self.low_feed = low_feed
        self.nodrop = nodrop
        self.pass_make = pass_make
        self.floor = floor  # every likelihood at least this (a level's odd choice)
        self.mix = mix  # share of the learned count model mixed into each opponent's distribution
        # the particles' prior: "uniform" (any unknown cards alike) or "model": the learned count
        # model's distribution of the hidden sum (`countmodel`, its first `prior_levels` keys)
        self.prior = prior
        self.prior_levels = prior_levels
        self.discard = discard  # weigh by the last discard's likelihood
        # the discard model: "hard" (hard's own per-card discard score: value, live pairs and
        # two-card runs, what the card feeds the next seat, keeping a pair when down to
        # two cards) or "plain" (value, low_feed and connect only)
        self.model = model
        self.history = history  # weigh by every finished turn of the opponent, not only its last
        self.depth = depth  # ... its last `depth` turns at most (older ones are left out: time)
        self.combo = combo  # hard's combo weight for cards that fit a card j took and keeps


DEFAULT = Params()


def last_turn(view: SeatView, j: int):
    """`j`'s last finished turn (see `turns_of`), or None."""
    turns = turns_of(view, j)
    return turns[-1] if turns else None


def turns_of(view: SeatView, j: int) -> list[tuple]:
    """`j`'s finished turns in the public history, oldest first: (start verb, taken card
    or passed top or None, cards laid, discarded card). The pile's top is replayed (as in
    `Memory`) to name what `j` took or passed."""
    pile: list = [view.upcard] if view.upcard is not None else []
    rules = view.rules
    stock = len(Layout.of(rules).deck) - rules.hand_size * len(view.players) - len(pile)
    found = []
    current = None
    for event in view.history:
        who, action = event.seat, event.action
        verb = action.verb
        if verb == "slap":
            if pile and pile[-1] == event.card:
                pile.pop()
            continue
        if verb in ("take", "draw"):
            if verb == "draw" and stock == 0 and rules.can_reshuffle(len(pile)):
                stock = len(pile) - 1
                del pile[:-1]
            top = pile[-1] if pile else None
            if verb == "take":
                pile.pop()
            else:
                stock = max(stock - 1, 0)
            current = [verb, top, [], None] if who == j else None
        elif verb == "discard":
            pile.append(action.card)
            if who == j and current is not None:
                current[3] = action.card
                found.append(tuple(current))
                current = None
        elif verb == "spread":
            if who == j and current is not None:
                current[2].extend(action.cards)
        elif verb in ("hit", "swap"):
            if who == j and current is not None and verb == "hit":
                current[2].append(action.card)
    return found


def history_weight(memory: Memory, j: int, hand: list, turns: list, nodrop_ok: bool,
                   rng: random.Random, params: Params, waiting: bool) -> float:
    """The likelihood of all of `j`'s finished turns had it held `hand` now: its turns
    replayed backwards (before its discard it held the hand and the card thrown, before
    its lays those cards too, before its draw all that less the drawn card: one card
    picked at random among those it may have drawn, the weight corrected by how many
    there were), each discard, each non-drop and each draw over a pile card that made a
    spread weighed by the soft model of its play."""
    layout = memory.layout
    taken = set(memory.taken[j])
    w = 1.0
    floor = params.floor
    n = memory.n
    for index in range(len(turns) - 1, max(len(turns) - params.depth, 0) - 1, -1):
        verb, top, laid, thrown = turns[index]
        if params.discard:
            if params.model == "hard":
                w *= max(hard_discard_likelihood(memory, j, hand + [thrown], thrown, params.tau), floor)
            else:
                w *= max(discard_likelihood(layout, hand + [thrown], thrown, params), floor)
        after = hand + [thrown] + list(laid)
        if verb == "take":
            start = [c for c in after if c is not top]
        else:
            options = [c for c in after if c not in taken]
            if not options:
                return 0.0
            x = options[rng.randrange(len(options))]
            w *= len(options)
            start = [c for c in after if c is not x]
            if params.pass_make and top is not None and _makes(layout, start, top):
                w *= params.pass_make
        if nodrop_ok and (not waiting or not any(t[2] for t in turns[:index + 1])):
            w *= max(nodrop_likelihood(n, waiting, index, count(start)), floor)
        hand = start
    return w


def _connected(layout, card, others) -> bool:
    if card.joker:
        return True
    pos = layout.pos
    p = pos[card]
    for c in others:
        if c is card or c.joker:
            continue
        if c.rank is card.rank or (c.suit is card.suit and abs(pos[c] - p) <= 2):
            return True
    return False


def _makes(layout, hand, top) -> bool:
    """Would `top` make a book or a run of three with `hand`?"""
    if top is None or top.joker:
        return top is not None
    if sum(1 for c in hand if c.rank is top.rank) >= 2:
        return True
    pos = layout.pos
    p = pos[top]
    suited = {pos[c] for c in hand if not c.joker and c.suit is top.suit}
    return (p - 1 in suited and p + 1 in suited) or (p - 1 in suited and p - 2 in suited) or (
        p + 1 in suited and p + 2 in suited)


def discard_likelihood(layout, before: list, thrown, params: Params) -> float:
    """P(throwing `thrown` out of `before`) under the soft keep-score model."""
    tau = params.tau
    low = params.low_feed
    conn = params.connect
    scores = []
    mine = 0.0
    for c in before:
        v = c.value
        s = v - (low * (5 - v) if v < 5 else 0.0)
        if _connected(layout, c, before):
            s -= conn
        s /= tau
        scores.append(s)
        if c is thrown:
            mine = s
    return _share(scores, mine)


def _share(scores: list[float], mine: float) -> float:
    """The softmax share of the score `mine` among `scores` (the chance of throwing that card)."""
    top = max(scores)
    return math.exp(mine - top) / sum(math.exp(x - top) for x in scores)


def hard_discard_likelihood(memory: Memory, j: int, before: list, thrown, tau: float) -> float:
    """P(`j` throwing `thrown` out of `before`, the cards it kept after laying) under a
    softmax at temperature `tau` of hard's own per-card discard score (`ComputerPlayer.
    plan_scores` with hard's style: the card's value, what its live pairs and two-card
    runs may still lay, the feeding penalties towards `j`'s next seat, and with three
    cards the chance the two it keeps become a spread), as `j` would see it from the
    public table (the unknown cards are this seat's, a close stand-in)."""
    style = HardPlayer.style
    layout = memory.layout
    alive = memory.alive
    share = style.draws_ahead / len(alive) if alive else 0.0
    combos: dict = {}
    pairs = spread_potential(layout, before)
    for a, b, outs in pairs:
        live = 0
        for c in outs:
            if c in alive:
                live += 1
        if live:
            v = min(0.9, live * share) * (a.value + b.value)
            combos[a] = combos.get(a, 0.0) + v
            combos[b] = combos.get(b, 0.0) + v
    targets = memory.targets
    collected = [c for c in memory.held[(j + 1) % memory.n] if not c.joker]
    pos = layout.pos
    three = len(before) == 3
    scores = []
    mine = 0.0
    for card in before:
        if card.joker:
            s = 50.0
        else:
            s = -card.value + style.potential * combos.get(card, 0.0)
            if card in targets:
                s += style.feed_hit
            for c in collected:
                if c.rank is card.rank or (c.suit is card.suit and abs(pos[c] - pos[card]) <= 2):
                    s += style.feed_collected
                    break
            if card.value < 5:
                s += style.feed_low * (5 - card.value)
            if three:
                keep = [c for c in before if c is not card]
                for a, b, outs in spread_potential(layout, keep):
                    live = sum(1 for c in outs if c in alive)
                    s -= style.go_out * min(0.9, live * share)
                    break
        s = -s / tau
        scores.append(s)
        if card is thrown:
            mine = s
    return _share(scores, mine)


def nodrop_likelihood(n: int, waiting: bool, turns_before: int, c: int) -> float:
    curve, width = DROP_CURVE.get((n, 1 if waiting else 0), DROP_CURVE[(2, 0)])
    thr = curve[min(turns_before, len(curve) - 1)]
    x = (thr - c) / width
    if x > 30:
        return 0.0
    return 1.0 - logistic(x)


def opponent_distribution(view: SeatView, memory: Memory, j: int, rng: random.Random,
                          params: Params = DEFAULT) -> list[float]:
    """P(`j`'s count = c) for c = 0.., from weighted particles of its hidden cards."""
    layout = memory.layout
    held = sorted(memory.held[j], key=lambda c: c.index)
    known = sum(c.value for c in held)
    h = memory.hidden[j]
    pool = memory.unknown
    size = 10 * h + known + 1
    if h == 0 or not pool:
        dist = [0.0] * (known + 1)
        dist[known] = 1.0
        return dist
    history = turns_of(view, j)
    last = history[-1] if history else None
    rules = view.rules
    # was the drop legal at the start of j's last turn? (waiting: only sure when j has laid nothing)
    nodrop = params.nodrop and last is not None and (not rules.waiting or memory.laid[j] == 0)
    turns_before = max(memory.turns[j] - 1, 0)
    combo = [c for c in held if not c.joker]
    pos = layout.pos
    prior = None
    if params.prior == "model" and countmodel.applies(rules):
        feats = countmodel.features(view, memory, j)
        learned = countmodel.model().distribution(feats, params.prior_levels)
        base = countmodel._prior(h)  # the full deck's ways to make each sum: uniform sampling's share
        prior = [q / b if b > 0 else 0.0 for q, b in zip(learned, base)]
    out = [0.0] * size
    total = 0.0
    floor = params.floor
    k = params.particles
    h = min(h, len(pool))
    for _ in range(k):
        hidden = rng.sample(pool, h)
        w = 1.0
        if prior is not None:
            s_hidden = count(hidden)
            w = prior[s_hidden] if s_hidden < len(prior) else 0.0
            if not w:
                continue
        if combo and params.combo:
            for c in hidden:
                if c.joker:
                    continue
                for t in combo:
                    if t.rank is c.rank or (t.suit is c.suit and abs(pos[t] - pos[c]) <= 2):
                        w *= COMBO_LEAN
                        break
        now = held + hidden
        c_now = known + count(hidden)
        if params.history:
            w *= history_weight(memory, j, now, history, params.nodrop, rng, params, rules.waiting)
        elif last is not None:
            verb, top, laid, thrown = last
            before = now + [thrown]
            if params.discard:
                if params.model == "hard":
                    w *= max(hard_discard_likelihood(memory, j, before, thrown, params.tau), floor)
                else:
                    w *= max(discard_likelihood(layout, before, thrown, params), floor)
            if nodrop or (verb == "draw" and params.pass_make):
                base = c_now + thrown.value + sum(c.value for c in laid)
                if verb == "take":
                    options = [top] if top is not None else []
                else:
                    options = hidden + [thrown] + [c for c in laid if c not in memory.held[j]]
                if options:
                    acc = 0.0
                    for x in options:
                        lx = 1.0
                        if nodrop:
                            lx *= nodrop_likelihood(memory.n, rules.waiting, turns_before, base - x.value)
                        if verb == "draw" and params.pass_make and top is not None:
                            start = [c for c in before if c is not x] + list(laid)
                            if _makes(layout, start, top):
                                lx *= params.pass_make
                        acc += lx
                    w *= max(acc / len(options), floor)
        if c_now < size:
            out[c_now] += w
        total += w
    if total <= 0:
        return [1.0 / size] * size
    return [x / total for x in out]


def opponent_counts(view: SeatView, memory: Memory, rng: random.Random,
                    params: Params = DEFAULT) -> dict[int, list[float]]:
    dists = {j: opponent_distribution(view, memory, j, rng, params) for j in memory.others()}
    if params.mix > 0:
        learned = countmodel.opponent_counts(view, memory)
        for j, p in dists.items():
            q = learned[j]
            m = max(len(p), len(q))
            p = p + [0.0] * (m - len(p))
            q = q + [0.0] * (m - len(q))
            dists[j] = [(1 - params.mix) * a + params.mix * b for a, b in zip(p, q)]
    return dists


def drop_value(view: SeatView, memory: Memory, rng: random.Random,
               params: Params = DEFAULT) -> tuple[float, float]:
    """(mean payment of dropping now, chance the drop wins), standard caught pays, stakes;
    the opponents' counts independent (as `countmodel.drop_value`)."""
    d = view.count
    win = 1.0
    caught = 0.0
    for p in opponent_counts(view, memory, rng, params).values():
        low = sum(p[: d + 1])
        win *= 1.0 - low
        caught += low
    return (memory.n - 1) * win - 2.0 * caught, win


def blended_drop_value(view: SeatView, memory: Memory, rng: random.Random, params: Params = DEFAULT,
                       weight: float = 0.5) -> tuple[float, float]:
    """(mean payment of dropping now, chance the drop wins) with each opponent's chance of
    a count at most mine taken from both models: `weight` of the inference's log-odds and
    the rest of the learned count model's (`countmodel`), standard caught pays, stakes."""
    d = view.count
    learned = countmodel.opponent_counts(view, memory)
    inferred = {j: opponent_distribution(view, memory, j, rng, params) for j in memory.others()}
    win = 1.0
    caught = 0.0
    for j in memory.others():
        a = sum(inferred[j][: d + 1])
        b = sum(learned[j][: d + 1])
        low = logistic(weight * logit(a) + (1.0 - weight) * logit(b))
        win *= 1.0 - low
        caught += low
    return (memory.n - 1) * win - 2.0 * caught, win
