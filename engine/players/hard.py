"""Hard: card memory, sampled opponent hands, and drops decided by expected payment.

What it knows is what its `SeatView` shows: its hand, the table, the discard pile and
the public history, which it replays (`Memory`) to learn which cards each opponent
took from the pile and still holds, what they threw, and which cards are unknown.

Drops: it samples the opponents' hidden cards from the unknown cards (known taken
cards stay where they are; each opponent's hidden cards are biased towards low values
the more turns that opponent has played, as players throw their high cards), and for
each sample settles the hand with the engine's own `settle_drop` under the table's
rules. That is the expected payment of dropping now (push-ups under push-ups scoring).
It compares this with the value of playing on, estimated on the same samples by a
one-turn look-ahead: its own turn (its real plan for the card it would take or a card
drawn from the sampled stock), each opponent's turn (an opponent drops when its
sampled count is low enough, otherwise draws or takes and plays greedily; going out
is settled too), and at its next turn the better of dropping then (if waiting lets it)
or playing on, valued as a showdown where the lowest count wins a single stake
(`settle_stock_out`); which of the two it will pick then is chosen by a threshold on
its own next count, the only thing it will know. Caught-pay variants, waiting,
tonk-out pay and scoring mode all enter through the engine's settlement functions.
With the stock gone, drawing ends the hand, and that too is valued on the samples.

Draws: it takes the discard when the best plan with it beats the mean best plan over
every card the stock may give (cards grouped by what they change in the hand).
Spreads, hits and discards: the normal player's scoring with tighter feeding
penalties, holding spreads on waiting tables only when that pays.
"""

from __future__ import annotations

import math
from heapq import nsmallest
from itertools import combinations

from ..actions import DRAW, DROP, TAKE, Action, Discard, Hit, Spread
from ..cards import count
from ..outcome import Outcome, settle_drop, settle_stock_out, win_by_one
from ..view import SeatView
from .base import ComputerPlayer, Style
from .hands import Layout, greedy_hits, table_places
from .memory import Memory
from .normal import BASE, FLOOR, SLOPE, count_scale

# How strongly an opponent's hidden cards lean to low values after t turns: the weight
# of a card of value v is exp(-LEAN[t] * v). Fitted so the weighted mean card value
# matches what players actually hold after t turns in self-play (6.5 at the deal,
# 4.2 after four turns, 2.7 after ten).
LEAN = (0.0, 0.075, 0.139, 0.191, 0.238, 0.279, 0.315, 0.343, 0.382, 0.422, 0.462)
COMBO_LEAN = 2.5  # cards that pair or run with a card the opponent took and keeps
THROWN_LEAN = 0.5  # cards of a rank the opponent has thrown away


class HardPlayer(ComputerPlayer):
    level = "hard"
    style = Style(potential=1.0, draws_ahead=6.0, feed_collected=6.0, feed_hit=7.0, feed_low=0.4,
                  holds=True, wait_turn=1.5, small_hand=15.0, go_out=30.0)
    samples = 64
    margin = 0.0  # stakes: drop only when it beats playing on by this much
    opponent_offset = -3.0  # the others drop at a normal player's count threshold plus this
    low_drop = 3  # with a count this low (5 cards), drop whenever the sampled drop wins in expectation
    out_feed = 120.0  # count points per unit of chance that my discard lets the next player go out
    out_feed_size = 3  # the next player can go out on my discard holding this many cards or fewer
    # The two habits above (issue 14) measured +0.14 [+0.03, +0.24] stakes a hand against
    # the old hard at 2 players but -0.11 [-0.26, +0.04] at 3 (1,500 hands): they apply
    # at tables of this many players or fewer until more hands say otherwise.
    habits_players = 2

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.last_values: dict | None = None  # the estimates behind the last start-of-turn choice

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        legal = view.legal_actions
        can_drop = DROP in legal
        stock_out_now = view.stock_size == 0 and not view.rules.can_reshuffle(view.discard_size)
        take_ok = TAKE in legal
        if take_ok:
            take_score, draw_score = self.draw_scores(view, memory)
            prefer_take = take_score is not None and take_score < draw_score - 0.5
        else:
            prefer_take = False
        if stock_out_now:
            prefer_take = take_ok
        if not can_drop and not stock_out_now:
            return TAKE if prefer_take else DRAW
        estimate = Estimate(self, view, memory)
        if not estimate.worth_sampling() and not stock_out_now:
            return TAKE if prefer_take else DRAW
        values = estimate.values(take=prefer_take, stock_out_now=stock_out_now)
        self.last_values = values
        if can_drop and values.get("drop", 0.0) > 0.0 and len(view.players) <= self.habits_players and \
                view.count <= self.low_drop * count_scale(view.rules):
            # Playing on from a count this low rarely gains more than it risks (someone
            # goes out, or gets lower): when the drop wins on average, take it.
            return DROP
        if "drop" in values:
            values["drop"] -= self.margin
        best = max(values, key=values.get)
        if best == "drop" and can_drop:
            return DROP
        if best == "stock_out" or not take_ok:
            return DRAW
        return TAKE if prefer_take else DRAW

    def session_offset(self, view: SeatView, j: int) -> float:
        """How much higher than hard opponent `j` drops, learned over a session (count
        points; expert's session memory). hard keeps no memory across hands: 0."""
        return 0.0

    def feed(self, card, view: SeatView, memory: Memory) -> float:
        """The normal feeding penalty, plus the danger that my discard lets the next
        player go out: with few cards left, taking a card that makes a spread with two
        they hold is a tonk out or a run out."""
        penalty = super().feed(card, view, memory)
        if card.joker or not self.out_feed or len(view.players) > self.habits_players:
            return penalty
        nxt = memory.next_seat
        if view.hand_sizes[nxt] > self.out_feed_size:
            return penalty
        return penalty + self.out_feed * completes_chance(card, nxt, memory)

    # the plan for one hand after drawing, remembered for the length of a decision
    def cached_plan(self, cache: dict, hand, view: SeatView, memory: Memory):
        key = frozenset(hand)
        found = cache.get(key)
        if found is None:
            score, actions = self.best_plan(list(hand), view, memory)
            kept = set(hand)
            new_spreads = own_hits = 0
            went_out = None
            discard = None
            for action in actions:
                if isinstance(action, Spread):
                    kept.difference_update(action.cards)
                    new_spreads += 1
                elif isinstance(action, Hit):
                    kept.discard(action.card)
                    if view.spreads[action.spread].owner == view.seat:
                        own_hits += 1
                elif isinstance(action, Discard):
                    kept.discard(action.card)
                    discard = action.card
            if not kept:
                went_out = "run_out" if discard is not None else "tonk_out"
            found = cache[key] = ([c for c in hand if c in kept], discard, went_out, new_spreads, own_hits,
                                  [a for a in actions if isinstance(a, Spread)])
        return found


def completes_chance(card, seat: int, memory: Memory) -> float:
    """The chance that `seat` holds two cards that make a book or run with `card`.

    A card `seat` took and still holds is there for sure; an unknown card is in its
    hidden cards with chance hidden / unknown (uniformly: the weight of what it chose
    to keep is in the caller's factor); any other card is out of play.
    """
    unknown = memory.unknown
    if not unknown:
        return 0.0
    layout = memory.layout
    held = memory.held[seat]
    alive = memory.alive
    share = memory.hidden[seat] / len(unknown)

    def chance(c) -> float:
        if c is None:
            return 0.0
        if c in held:
            return 1.0
        return share if c in alive else 0.0

    pairs = []
    same = [c for c in layout.of_rank.get(card.rank, ()) if c is not card]
    pairs.extend(combinations(same, 2))  # a book
    below2, below, above, above2 = (layout.neighbour(card, step) for step in (-2, -1, 1, 2))
    pairs.extend(((below2, below), (below, above), (above, above2)))  # the runs through it
    miss = 1.0
    for a, b in pairs:
        p = chance(a) * chance(b)
        if p:
            miss *= 1.0 - min(p, 1.0)
    return 1.0 - miss


def utility(outcome: Outcome, seat: int, scoring: str, stake: int) -> float:
    """What an outcome is worth to `seat`: stakes won, or push-ups avoided."""
    if scoring == "pushups":
        return -float(outcome.pushups[seat])
    return outcome.payments[seat] / stake


class Estimate:
    """Sampled opponent hands and the values of dropping and of playing on."""

    def __init__(self, player: HardPlayer, view: SeatView, memory: Memory, lean: float = 1.0):
        self.player = player
        self.lean = lean  # scales LEAN: 1 is hard's model, lower leans the hidden cards less to low values
        self.view = view
        self.memory = memory
        self.rules = view.rules
        self.layout = memory.layout
        self.rng = player.rng
        self.seat = view.seat
        self.n = memory.n
        self.plans: dict = {}

    def worth_sampling(self) -> bool:
        """Skip the sampling when my count is far too high for a drop to be worth a thought."""
        return self.view.count <= 25 * self._scale()

    def _scale(self) -> float:
        return self.rules.hand_size / 5

    # ------------------------------------------------------------------ sampling

    def weights(self, j: int) -> list[float]:
        memory = self.memory
        lean = LEAN[min(memory.turns[j], len(LEAN) - 1)] * self.lean
        pos = self.layout.pos
        held = [c for c in memory.held[j] if not c.joker]
        thrown = {c.rank for c in memory.discards[j] if not c.joker}
        out = []
        for c in memory.unknown:
            w = math.exp(-lean * c.value)
            if not c.joker:
                for h in held:
                    if h.rank is c.rank or (h.suit is c.suit and abs(pos[h] - pos[c]) <= 2):
                        w *= COMBO_LEAN
                        break
                if c.rank in thrown:
                    w *= THROWN_LEAN
            out.append(w)
        return out

    def sample_hands(self, count_: int) -> list[tuple[list[list], list]]:
        """`count_` samples of (every hand, the stock in draw order: last card on top)."""
        memory = self.memory
        pool = memory.unknown
        others = memory.others()
        inverse = {j: [1.0 / w for w in self.weights(j)] for j in others}
        rng = self.rng
        random_ = rng.random
        log = math.log
        samples = []
        size = len(pool)
        for _ in range(count_):
            taken = [False] * size
            hands: list[list] = [[] for _ in range(self.n)]
            hands[self.seat] = list(self.view.hand)
            order = list(others)
            rng.shuffle(order)
            for j in order:
                need = memory.hidden[j]
                chosen = sorted(memory.held[j], key=_index)  # a set: fix its order
                if need:
                    inv = inverse[j]
                    keys = [(-log(1.0 - random_()) * inv[i], i) for i in range(size) if not taken[i]]
                    for _, i in nsmallest(need, keys):
                        taken[i] = True
                        chosen.append(pool[i])
                hands[j] = chosen
            stock = [pool[i] for i in range(size) if not taken[i]]
            rng.shuffle(stock)
            samples.append((hands, stock))
        return samples

    # ------------------------------------------------------------------ values

    def values(self, *, take: bool, stock_out_now: bool) -> dict[str, float]:
        view = self.view
        rules = self.rules
        seat = self.seat
        stake = view.stake
        scoring = rules.scoring
        samples = self.sample_hands(self.player.samples)
        drop_total = 0.0
        stock_total = 0.0
        play_results = []
        for hands, stock in samples:
            counts = [count(h) for h in hands]
            if DROP in view.legal_actions:
                drop_total += utility(settle_drop(rules, seat, counts, view.dealer, stake), seat, scoring, stake)
            if stock_out_now:
                if rules.stock_out == "dead_hand":
                    stock_total += 0.0
                else:
                    stock_total += utility(settle_stock_out(counts, stake), seat, scoring, stake)
            if not (stock_out_now and not take):
                play_results.append(self.play_on(hands, stock, take))
        k = len(samples)
        values: dict[str, float] = {}
        if DROP in view.legal_actions:
            values["drop"] = drop_total / k
        if stock_out_now:
            values["stock_out"] = stock_total / k
        if play_results:
            values["play"] = self.leaf_policy(play_results)
        return values

    def leaf_policy(self, results) -> float:
        """Mean value of playing on, choosing at my next turn to drop when my count is
        at most the best threshold (the only thing I will know then is my own count)."""
        ended = 0.0
        pending = []
        for r in results:
            if r[0] is None:
                pending.append(r[1:])
            else:
                ended += r[0]
        total = len(results)
        if not pending:
            return ended / total
        pending.sort(key=lambda r: r[0])
        # drop when my count <= pending[i][0]: value = sum drops up to i + sum waits after
        wait_sum = sum(r[2] for r in pending)
        best = wait_sum
        running = 0.0
        for i, (mine, drop_value, wait_value, can_drop) in enumerate(pending):
            if not can_drop:
                running += wait_value
            else:
                running += drop_value
            wait_sum -= wait_value
            candidate = running + wait_sum
            if candidate > best:
                best = candidate
        return (ended + best) / total

    def play_on(self, hands, stock, take: bool):
        """One sampled turn round: (value if it ended, else None, my count, drop value,
        value of leaving the drop to the others, whether I may drop then)."""
        view = self.view
        rules = self.rules
        seat = self.seat
        n = self.n
        stake = view.stake
        scoring = rules.scoring
        layout = self.layout
        hands = [list(h) for h in hands]
        stock = list(stock)
        my_hand = list(view.hand)
        top = view.discard_top
        if take and top is not None:
            my_hand.append(top)
        else:
            if not stock:
                return (utility(settle_stock_out([count(h) for h in hands], stake), seat, scoring, stake),)
            my_hand.append(stock.pop())
        kept, discard, went_out, new_spreads, own_hits, spreads = self.player.cached_plan(
            self.plans, my_hand, view, self.memory)
        hands[seat] = kept
        if went_out:
            multiple = rules.tonk_out_multiple(new_spreads) if went_out == "tonk_out" else 1
            counts = [count(h) for h in hands]
            return (utility(win_by_one(went_out, seat, counts, stake, multiple), seat, scoring, stake),)
        my_waits = view.waits[seat]
        if rules.waiting:
            my_waits += new_spreads * rules.spread_wait + own_hits * rules.hit_wait
        places = table_places(layout, view.spreads)
        top = discard
        memory = self.memory
        for k in range(1, n):
            j = (seat + k) % n
            hand = hands[j]
            c_j = count(hand)
            blocked = rules.waiting and view.waits[j] > 0
            if not blocked and c_j <= self.opponent_threshold(j):
                counts = [count(h) for h in hands]
                return (utility(settle_drop(rules, j, counts, view.dealer, stake), seat, scoring, stake),)
            result = greedy_turn(layout, hand, places, top, stock)
            if result == "stock_out":
                if rules.stock_out == "dead_hand":
                    return (0.0,)
                if rules.stock_out == "lowest_wins" or len(memory.pile) < 2:
                    counts = [count(h) for h in hands]
                    return (utility(settle_stock_out(counts, stake), seat, scoring, stake),)
                break  # a reshuffle: too far to look
            hand, top, went_out, laid = result
            hands[j] = hand
            if went_out:
                counts = [count(h) for h in hands]
                multiple = rules.tonk_out_multiple(laid) if went_out == "tonk_out" else 1
                return (utility(win_by_one(went_out, j, counts, stake, multiple), seat, scoring, stake),)
        counts = [count(h) for h in hands]
        mine = counts[seat]
        can_drop = my_waits <= 0
        drop_value = utility(settle_drop(rules, seat, counts, view.dealer, stake), seat, scoring, stake)
        # leaving the drop to later: a neutral showdown (the lowest count wins single)
        wait_value = utility(settle_stock_out(counts, stake), seat, scoring, stake)
        return (None, mine, drop_value, wait_value, can_drop)

    def opponent_threshold(self, j: int) -> float:
        """The count at which I expect opponent `j` to drop (a normal player's rule)."""
        memory = self.memory
        view = self.view
        n = memory.n
        played = memory.turns[j]
        threshold = max(BASE[n] - SLOPE[n] * max(played - 1, 0), FLOOR[n])
        return (threshold + self.player.session_offset(view, j)) * count_scale(view.rules) + self.player.opponent_offset


def _index(card) -> int:
    return card.index


def greedy_turn(layout: Layout, hand: list, places, top, stock: list):
    """A quick, plain turn for a sampled opponent: (hand after, discard, went out, spreads laid)
    or "stock_out" when it must draw from an empty stock."""
    hand = list(hand)
    took = False
    if top is not None and not top.joker:
        if _wants(layout, hand, places, top):
            hand.append(top)
            took = True
    elif top is not None and top.joker:
        hand.append(top)
        took = True
    if not took:
        if not stock:
            return "stock_out"
        hand.append(stock.pop())
    chosen = greedy_spreads(layout.hand_spreads(hand))
    laid = len(chosen)
    if chosen:
        used = {c for s in chosen for c in s}
        hand = [c for c in hand if c not in used]
    if places and hand:
        _, hand = greedy_hits(layout, hand, places)
    if not hand:
        return [], None, "tonk_out", laid
    if len(hand) == 1:
        return [], hand[0], "run_out", laid
    worst = plain_discard(hand)
    hand.remove(worst)
    return hand, worst, None, laid


def greedy_spreads(spreads: list) -> list:
    """The spreads a plain player lays: the most valuable first, then each that shares no
    card with those before it."""
    chosen: list = []
    used: set = set()
    for s in sorted(spreads, key=lambda s: -sum(c.value for c in s)):
        if used.isdisjoint(s):
            used.update(s)
            chosen.append(s)
    return chosen


def plain_discard(hand):
    """What a plain player throws: its highest card that pairs with nothing (a joker only
    when it holds nothing else)."""
    ranks: dict = {}
    for c in hand:
        ranks[c.rank] = ranks.get(c.rank, 0) + 1
    loose = [c for c in hand if ranks[c.rank] == 1 and not c.joker] or [c for c in hand if not c.joker] or hand
    return max(loose, key=lambda c: c.value)


def _wants(layout: Layout, hand, places, top) -> bool:
    """Would a plain player take `top`: it makes a spread, fits the table, or is low."""
    same = sum(1 for c in hand if c.rank is top.rank)
    if same >= 2:
        return True
    pos = layout.pos
    p = pos[top]
    suited = {pos[c] for c in hand if c.suit is top.suit and not c.joker}
    if (p - 1 in suited and p + 1 in suited) or (p - 1 in suited and p - 2 in suited) or (
            p + 1 in suited and p + 2 in suited):
        return True
    for place in places:
        if place.kind == "run":
            if top.suit is place.suit and (p == place.lo - 1 or p == place.hi + 1):
                return True
        elif layout.rules.hit_books and place.size < 4 and top.rank is place.rank:
            return True
    return top.value <= 2 and max(c.value for c in hand) >= 8
