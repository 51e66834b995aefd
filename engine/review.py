"""Review a hand: what the expert would have done at each of a seat's decisions, and what
each difference cost (issue 26).

```python
from engine.review import review, ReviewError
rv = review(record, seat=1, seed=0)          # a finished (or unfinished) hand record, HAND_RECORD.md
rv.text()                                    # plain text, at most 4096 characters (a Discord embed)
rv.to_json()                                 # the same as data
```

**Decisions.** A seat's hand is cut into its decisions: at the start of each of its turns
the choice between drop, draw and take (a drop, or a decision not to drop, whenever a drop
was allowed), and after the draw or take the rest of the turn as one plan (every spread,
hit and the discard; they are weighed together because each lay changes what the next
one is worth). A start with one legal action (a stock-out call with nothing to take) is
no choice and is not listed.

**Honest to what the seat saw.** Each decision is worked out from the seat's `SeatView` at
that moment alone (its hand, the table, the public history): the hand is replayed from
the record to that point and only `game.view(seat)` is read. The hidden cards (the others'
hands, the stock order) are *sampled* from the cards the seat had not seen, with the
expert's model of what the others' play revealed; the real hidden cards, the cards shown
later and the showdown never enter an estimate. Randomness comes from `seed` and the
decision's place in the record, so a decision's figures do not depend on anything later
in the hand either (tests/test_review.py re-deals the hidden cards and finds them
unchanged).

**The expert's choice** is `ExpertPlayer`'s (engine/players/expert.py) from that view,
with a fixed search budget (`search` deals, no CPU-time cap, so the same for a seed).

**The cost** of a decision is the mean, over `samples` fresh sampled deals (not the ones the
expert chose on: that would flatter its choice), of the payment the seat gets playing the
expert's choice minus the payment playing what it did, each played to the end of the hand
in a real engine `Game` on the same deal and with the same play-out randomness (common
random numbers): the seat's own turn by its plan, then every seat by the expert's quick
play-out policy (expert.Rollout). Its uncertainty is the standard error of that mean
difference. In stakes (push-ups under push-ups scoring). A cost below zero means the
player's choice did better than the expert's on these deals: within noise, the expert
has no better advice. When the choices are the same the cost is 0 and nothing is played.
At a start where a drop was allowed the deals lean the hidden cards less to low values
(`ExpertPlayer.drop_lean`: hard's own lean makes a drop look lost too often there).

**The chance that someone held your count or less** (drop and non-drop decisions): from
expert's learned model of each opponent's count (`countmodel`), where it applies
(standard caught pays, stakes, 52 cards, 5-card hands); elsewhere the share of sampled
deals in which some other seat's count was at most the seat's.

**Cards named in the text**: only cards the seat had seen by the time of the decision
described (its hand, drawn cards, the table, the discards). The showdown's cards are not
named (even though the seat saw them at the end).

Not covered: house rules of RULES.md section 9 and side bets (the review's evaluation and
its calibration were measured without them): `review` refuses them with one line.
Slaps are not decisions here. The review is pure Python, holds no global state but a
read-only model table, and may run in a thread or a process.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from .actions import DROP, Action, Discard, Draw, Drop, Hit, Spread, TakeDiscard
from .cards import Card, count, sorted_hand
from .errors import RecordError, TonkError
from .game import Game
from .view import SeatView

MAX_TEXT = 4096  # a Discord embed's description
DEFAULT_SAMPLES = 96  # evaluation deals per decision that differs from the expert's choice
DEFAULT_SEARCH = 24  # the expert's own deals per decision (its strength was measured at 16: docs/BENCHMARKS.md)
SURE = 0.99  # a non-drop this sure to be caught is summed up in one line of the text


class ReviewError(ValueError):
    """A review that cannot be made; the message is one line, safe to show a player."""


@dataclass(frozen=True)
class Decision:
    index: int  # position in the record's actions of the decision's first action
    turn: int  # the seat's turn in the hand, from 1
    kind: str  # "start" (drop / draw / take) or "play" (spreads, hits and the discard)
    did: tuple[Action, ...]
    expert: tuple[Action, ...]
    same: bool
    cost: float  # expected loss in the scoring unit: value(expert's choice) - value(what was done)
    error: float  # standard error of `cost`
    samples: int  # deals behind `cost` (0 when the choices were the same)
    count: int  # the seat's count when it decided (after the draw for a play decision)
    drop_allowed: bool
    low_chance: float | None  # drop / non-drop decisions: P(some other seat held `count` or less)
    did_text: str
    expert_text: str
    hand: tuple[Card, ...] = field(default=(), repr=False)  # the seat's hand when it decided

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "turn": self.turn,
            "kind": self.kind,
            "did": [a.to_record() for a in self.did],
            "expert": [a.to_record() for a in self.expert],
            "same": self.same,
            "cost": round(self.cost, 4),
            "error": round(self.error, 4),
            "samples": self.samples,
            "count": self.count,
            "drop_allowed": self.drop_allowed,
            "low_chance": None if self.low_chance is None else round(self.low_chance, 4),
            "did_text": self.did_text,
            "expert_text": self.expert_text,
            "hand": [c.code for c in self.hand],
        }


@dataclass(frozen=True)
class Review:
    seat: int
    name: str
    players: tuple[str, ...]
    unit: str  # "stakes" or "push-ups"
    result: dict | None  # the hand's replay result (HAND_RECORD.md), None while unfinished
    decisions: tuple[Decision, ...]  # costliest first
    samples: int
    search: int
    seed: int
    cpu_seconds: float = field(default=0.0, compare=False)

    @property
    def differences(self) -> list[Decision]:
        return [d for d in self.decisions if not d.same]

    @property
    def total_cost(self) -> tuple[float, float]:
        """(sum of the costs of the differences, its standard error)."""
        diffs = self.differences
        return sum(d.cost for d in diffs), math.sqrt(sum(d.error ** 2 for d in diffs))

    def to_json(self) -> dict:
        total, error = self.total_cost
        return {
            "format": "tonk-review/1",
            "seat": self.seat,
            "name": self.name,
            "unit": self.unit,
            "result": self.result,
            "samples": self.samples,
            "search": self.search,
            "seed": self.seed,
            "total_cost": round(total, 4),
            "total_error": round(error, 4),
            "decisions": [d.to_json() for d in self.decisions],
        }

    def text(self, limit: int = MAX_TEXT) -> str:
        """Plain text for a private message or an embed: at most `limit` characters, the
        costliest difference first; names only cards this seat had seen when it decided."""
        unit = self.unit
        lines = [self._headline()]
        diffs = self.differences
        total, error = self.total_cost
        n = len(self.decisions)
        if not n:
            lines.append("You had no decision to make in this hand.")
            return _fit(lines, [], [], limit)
        if diffs:
            lines.append(f"{_plural(n, 'decision')}; the expert would have chosen differently at {len(diffs)}, "
                         f"worth about {_num(total)} ± {_num(error)} {unit} to you in all.")
        else:
            lines.append(f"{_plural(n, 'decision')}; the expert would have made every one the way you did.")
        lines.append("")
        items = []
        for i, d in enumerate(diffs, 1):
            chance = ""
            if d.low_chance is not None:
                chance = (f" Chance that someone held {d.count} or less, from what you could see: "
                          f"{_pct(d.low_chance)}.")
            verdict = f"Cost about {_num(d.cost)} ± {_num(d.error)} {unit}." if d.cost > 0 else (
                f"No clear cost ({_num(d.cost)} ± {_num(d.error)} {unit}): your choice did as well on the sampled deals.")
            items.append(f"{i}. Turn {d.turn}, {'start' if d.kind == 'start' else 'after the draw'} "
                         f"(count {d.count}): you {d.did_text}; the expert would have {d.expert_text}. "
                         f"{verdict}{chance}")
        same = [d for d in sorted(self.decisions, key=lambda d: d.index) if d.same]
        tail = []
        if same:
            if items:
                tail.append("")
            drops = [d for d in same if d.low_chance is not None]
            tail.append("As the expert would have: " + ", ".join(
                f"turn {d.turn} {'start' if d.kind == 'start' else 'play'}" for d in same) + ".")
            high = []
            for d in drops:
                if d.low_chance >= SURE and not isinstance(d.did[0], Drop):
                    high.append(d.turn)
                    continue
                tail.append(f"Turn {d.turn}: you {d.did_text} with a count of {d.count}; chance that someone "
                            f"held {d.count} or less, from what you could see: {_pct(d.low_chance)}.")
            if high:
                tail.append(f"Not dropping at turn{'s' if len(high) > 1 else ''} {', '.join(map(str, high))}: "
                            f"someone almost surely held your count or less (over {_pct(SURE)}).")
        tail.append("")
        tail.append(f"Estimates use only what you could see at each decision: the hidden cards are sampled "
                    f"({self.samples} deals for each difference), never read. A cost assumes good play after "
                    f"the decision.")
        return _fit(lines, items, tail, limit)

    def _title(self) -> str:
        return "Review of your hand" if self.name.lower() == "you" else f"Review of your hand ({self.name})"

    def _headline(self) -> str:
        r = self.result
        if r is None:
            return f"{self._title()}: the hand is not over."
        how = _ENDINGS.get(r["outcome"], r["outcome"])
        winners = ["you" if w == self.seat else self.players[w] for w in r["winners"]]
        if winners:
            how += (f" (winner{'s' if len(winners) > 1 else ''}: "
                    + (winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]) + ")")
        paid = r["payments"][self.seat]
        if self.unit == "push-ups":
            return f"{self._title()}: {how}; you did {r['pushups'][self.seat]} push-ups."
        if not paid:
            return f"{self._title()}: {how}; you paid nothing."
        return (f"{self._title()}: {how}; "
                f"you {'won' if paid > 0 else 'paid'} {_plural(abs(paid), 'point')}.")


_ENDINGS = {
    "instant": "a tonk on the deal",
    "void": "a void deal",
    "tonk_out": "a tonk out",
    "run_out": "a run out",
    "drop_won": "a drop that won",
    "caught": "a caught drop",
    "stock_out": "an empty stock",
    "draw": "a drawn hand",
}


def _fit(lines: list[str], items: list[str], tail: list[str], limit: int) -> str:
    text = "\n".join(lines + items + tail)
    if len(text) <= limit:
        return text
    for keep in range(len(items) - 1, -1, -1):
        more = f"... and {len(items) - keep} smaller {'difference' if len(items) - keep == 1 else 'differences'}."
        text = "\n".join(lines + items[:keep] + [more] + tail[-1:])
        if len(text) <= limit:
            return text
    return text[: limit - 1] + "…"


def _num(x: float) -> str:
    return f"{x:.2f}"


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cards(cards) -> str:
    return " ".join(c.label for c in sorted_hand(cards))


def describe(actions, view: SeatView) -> str:
    """What a list of this seat's actions does, in words (past tense after "you" / "would have")."""
    parts = []
    for a in actions:
        if isinstance(a, Drop):
            parts.append("dropped")
        elif isinstance(a, Draw):
            parts.append("drew from the stock")
        elif isinstance(a, TakeDiscard):
            parts.append(f"took {view.discard_top.label}" if view.discard_top is not None else "took the discard")
        elif isinstance(a, Spread):
            parts.append(f"spread {_cards(a.cards)}")
        elif isinstance(a, Hit):
            parts.append(f"hit {a.card.label} on spread {a.spread + 1}")
        elif isinstance(a, Discard):
            parts.append(f"discarded {a.card.label}")
        else:
            parts.append(a.verb)
    return ", ".join(parts) or "nothing"


def _would(text: str) -> str:
    """"drew from the stock" -> "drawn from the stock" after "would have"."""
    swaps = (("dropped", "dropped"), ("drew", "drawn"), ("took", "taken"), ("spread", "spread"),
             ("hit", "hit"), ("discarded", "discarded"))
    out = []
    for part in text.split(", "):
        for a, b in swaps:
            if part.startswith(a + " ") or part == a:
                part = b + part[len(a):]
                break
        out.append(part)
    return ", ".join(out)


# ---------------------------------------------------------------------- the review


def review(record: dict, seat: int, *, samples: int = DEFAULT_SAMPLES, search: int = DEFAULT_SEARCH,
           seed: int = 0, computers=()) -> Review:
    """Review `seat`'s decisions in a hand record (HAND_RECORD.md).

    `samples`: evaluation deals per decision where the expert chose differently; `search`:
    the expert's own deals per decision; `seed`: the same seed gives the same review.
    `computers`: seats the computer played (their review is refused).
    Raises ReviewError (one line for the player) for a record that does not replay, a seat
    not at the table, a computer's seat, or house rules / side bets.
    """
    started = time.process_time()
    if not isinstance(samples, int) or not isinstance(search, int) or samples < 2 or search < 1:
        raise ReviewError("A review needs at least 2 evaluation deals and 1 search deal per decision.")
    try:
        final = Game.from_record(record)
    except RecordError as exc:
        raise ReviewError(f"This hand record cannot be replayed ({exc}).") from None
    except (TonkError, TypeError, KeyError, AttributeError) as exc:
        raise ReviewError(f"This hand record cannot be replayed ({exc}).") from None
    n = final.num_players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ReviewError(f"There is no seat {seat!r} in this hand: the seats are 0 to {n - 1}.")
    if seat in set(computers):
        raise ReviewError(f"Seat {seat} ({final.players[seat]}) was played by the computer: "
                          "a review is of a person's own decisions.")
    if final.rules.house or record.get("side_bets"):
        raise ReviewError("Reviews cover the rules of RULES.md sections 1-8; this hand was played with house "
                          "rules or side bets (section 9-10), which the expert's look-ahead does not know.")
    decisions = [evaluate(view, did, index, turn, samples=samples, search=search, seed=seed)
                 for view, did, index, turn in decision_points(record, seat)]
    decisions.sort(key=lambda d: (d.same, -d.cost, d.index))
    unit = "push-ups" if final.rules.scoring == "pushups" else "stakes"
    result = final.result() if final.outcome is not None else None
    return Review(seat, final.players[seat], tuple(final.players), unit, result, tuple(decisions),
                  samples, search, seed, time.process_time() - started)


def decision_points(record: dict, seat: int):
    """(view before the decision, the seat's actions in it, index of the first, turn) for
    each decision `seat` made; the record must replay (`Game.from_record`)."""
    from .actions import action_from_record

    game = Game.from_record({**record, "actions": []})
    actions = [(e["seat"], action_from_record(e)) for e in record["actions"]]
    turn = 0
    i = 0
    while i < len(actions):
        who, action = actions[i]
        if who == seat and game.outcome is None and game.phase == "start" and game.turn == seat:
            turn += 1
            view = game.view(seat)
            game.apply(who, action)
            if len(view.legal_actions) > 1:
                yield view, (action,), i, turn
            i += 1
            continue
        if who == seat and game.outcome is None and game.phase == "play" and game.turn == seat:
            view = game.view(seat)
            first = i
            did = []
            while i < len(actions) and actions[i][0] == seat and game.outcome is None and game.phase == "play":
                game.apply(seat, actions[i][1])
                did.append(actions[i][1])
                i += 1
                if isinstance(did[-1], Discard):
                    break
            if game.outcome is not None or did and isinstance(did[-1], Discard):
                yield view, tuple(did), first, turn
            continue
        game.apply(who, action)
        i += 1


def _decision_seed(seed: int, index: int, part: int) -> int:
    return (seed * 1_000_003 + index * 7919 + part) & 0xFFFFFFFF


def _plan_key(view: SeatView, actions) -> tuple:
    """What a turn's plan leaves: the cards kept, the discard, the spreads laid (order free)."""
    kept = set(view.hand)
    discard = None
    spreads = []
    for a in actions:
        if isinstance(a, Spread):
            kept.difference_update(a.cards)
            spreads.append(a.cards)
        elif isinstance(a, Hit):
            kept.discard(a.card)
        elif isinstance(a, Discard):
            kept.discard(a.card)
            discard = a.card
    return frozenset(kept), discard, frozenset(spreads)


def evaluate(view: SeatView, did, index: int, turn: int, *, samples: int = DEFAULT_SAMPLES,
             search: int = DEFAULT_SEARCH, seed: int = 0) -> Decision:
    """One decision, from `view` alone: the expert's choice, the cost of the difference
    and, where a drop was allowed, the chance someone held the seat's count or less."""
    from .players.expert import ExpertPlayer
    from .players.hard import Estimate
    from .players.memory import Memory

    did = tuple(did)
    start = view.phase == "start"
    chooser = ExpertPlayer(_decision_seed(seed, index, 1), samples=search, time_cap=float("inf"))
    if start:
        expert = (chooser.choose(view),)
        same = expert == did
    else:
        expert = tuple(chooser.plan_turn(view, Memory(view)))
        same = _plan_key(view, expert) == _plan_key(view, did)
    drop_allowed = start and DROP in view.legal_actions
    lean = ExpertPlayer.drop_lean if drop_allowed else 1.0
    judge = ExpertPlayer(_decision_seed(seed, index, 2), samples=samples, time_cap=float("inf"))
    memory = Memory(view)
    estimate = Estimate(judge, view, memory, lean=lean)
    deals = None
    cost = error = 0.0
    used = 0
    if not same:
        deals = estimate.sample_hands(samples)
        diffs = []
        for hands, stock in deals:
            s = judge.rng.getrandbits(32)
            mine = judge.play_out(view, memory, estimate, hands, stock, list(did), s)
            theirs = judge.play_out(view, memory, estimate, hands, stock, list(expert), s)
            diffs.append(theirs - mine)
        used = len(diffs)
        cost = sum(diffs) / used
        var = sum((d - cost) ** 2 for d in diffs) / (used - 1)
        error = math.sqrt(var / used)
    low = None
    if drop_allowed:
        low = low_chance(view, memory, estimate, deals)
    did_text = describe(did, view)
    expert_text = _would(describe(expert, view))
    return Decision(index, turn, "start" if start else "play", did, expert, same, cost, error, used,
                    view.count, drop_allowed, low, did_text, expert_text, tuple(sorted_hand(view.hand)))


def low_chance(view: SeatView, memory, estimate, deals=None) -> float:
    """P(some other seat's count is at most this seat's), from the seat's view."""
    from .players import countmodel

    d = view.count
    if countmodel.applies(view.rules):
        none = 1.0
        for p in countmodel.opponent_counts(view, memory).values():
            none *= 1.0 - sum(p[: d + 1])
        return 1.0 - none
    if deals is None:
        deals = estimate.sample_hands(64)
    seat = view.seat
    hit = sum(1 for hands, _ in deals if min(count(h) for j, h in enumerate(hands) if j != seat) <= d)
    return hit / len(deals)


__all__ = ["Decision", "Review", "ReviewError", "decision_points", "evaluate", "low_chance", "review"]
