"""Review a hand: what the expert would have done at each of a seat's decisions, and what
each difference cost (issue 26).

```python
from engine.review import review, ReviewError
rv = review(record, seat=1, seed=0)          # a finished (or unfinished) hand record, HAND_RECORD.md
rv.text()                                    # plain text, at most 4096 characters (a Discord embed)
rv.to_json()                                 # the same as data
```

**Decisions.** Every action of the seat where it had a choice is a decision of its own:
at the start of each of its turns the choice between drop, draw and take (a drop, or a
decision not to drop, whenever a drop was allowed), and after the draw or take each
spread, each hit and the discard, each from the seat's view at that moment (after the
lays before it in the turn). At a play decision the expert plans the rest of the turn
from that view; a lay agrees with it when its plan makes that lay at some point of the
turn (the order of a turn's lays rarely matters), a discard when the plan is that
discard alone. An action with one legal choice is no decision and is not listed.

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
random numbers): at a play decision the expert's plan for the rest of the turn against
the player's one action followed by the seat's planner for the rest of that turn (the
turn after a start decision likewise), then every seat by the expert's quick play-out
policy (expert.Rollout). Its uncertainty is the standard error of that mean
difference. In stakes (push-ups under push-ups scoring).

**Calibrated to the table.** That play-out estimate (kept as `raw_cost`) prices the
difference as if everyone played on by the play-out policy; measured against the hand
played on by the table's own players (scripts/review_calibration.py: noisy hard at every
seat, and hard without mistakes), large differences lost about half of it, and
differences priced near 0 still lost about 0.15 (the expert's choice was still the better
one): the policy plays on more sharply than real players, whose later play blurs what a
decision changed. The play-out estimate is calibrated against play-outs on the real
hidden cards (its sampling of them is right); so the text's cost is `a + b x` the
play-out estimate (`COST_MAP`, by kind of decision, fitted on 2,200 self-play hands of
three seeds, each seed checked against the maps fitted on the other two:
docs/BENCHMARKS.md), its error `b x` the play-out's. Two choices that paid the same on
every sampled deal (two cards of one value) stay at their estimate. A cost below zero
means the player's choice did better than the expert's on these deals: within noise, the
expert has no better advice. When the choices are the same the cost is 0 and nothing is
played. At a start where a drop was allowed the deals lean the hidden cards less to low
values (`ExpertPlayer.drop_lean`: hard's own lean makes a drop look lost too often there).

**The chance that someone held your count or less** (drop and non-drop decisions): from
expert's learned model of each opponent's count (`countmodel`), where it applies
(standard caught pays, stakes, 52 cards, 5-card hands); elsewhere the share of sampled
deals in which some other seat's count was at most the seat's. The model was learned
from hard and normal players' self-play; at the reviewed seat's starts it reads the
others' counts 1-2.5 points low (more against players who make mistakes), so its chance
was high by 6-15 points in the middle. The text's chance is recalibrated (Platt, with a
term for 3 or more players: `CHANCE_MAP`; `raw_chance` keeps the model's), fitted and
checked like the costs; the sampled deals' share (where the model does not apply) is not.
Both maps were fitted in standard play at 2 and 3 players (docs/BENCHMARKS.md).

**Cards named in the text**: only cards the seat had seen by the time of the decision
described (its hand, drawn cards, the table, the discards). The showdown's cards are not
named (even though the seat saw them at the end).

Not covered: the house rules of RULES.md section 9. `ExpertPlayer` searches under them now,
but the review's own look-ahead (its quick play-out policy) knows sections 1-8 only and its
calibration was measured without them, so `review` refuses them in one line that says so;
likewise the naturals side bet (section 10), whose pot for a natural book the look-ahead
does not know. The high card side bet is reviewed: its pot is settled at the deal and no
decision changes it (the shown cards are public, and the sampled deals keep them in
their holders' hands); the costs are the hand's own payments, and the text says so.
Slaps are not decisions here. The review is pure Python, holds no global state but a
read-only model table, and may run in a thread or a process.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from .actions import DROP, Action, Discard, Draw, Drop, Hit, Spread, TakeDiscard
from .cards import Card, count, names, sorted_hand, spread_name
from .errors import RecordError, TonkError
from .game import Game
from .odds import logistic, logit
from .text import t
from .view import SeatView

MAX_TEXT = 4096  # a Discord embed's description
DEFAULT_SAMPLES = 96  # evaluation deals per decision that differs from the expert's choice
DEFAULT_SEARCH = 24  # the expert's own deals per decision (its strength was measured at 16: docs/BENCHMARKS.md)
SURE = 0.99  # a non-drop this sure to be caught is summed up in one line of the text
# Calibration (docs/BENCHMARKS.md, scripts/review_calibration.py --fit): what a difference
# really cost in self-play, against the play-out estimate, by kind of decision:
# cost = a + b x play-out estimate (its error scaled by b).
COST_MAP = {"start": (0.144, 0.530), "play": (0.123, 0.380)}
# ... and how often someone really held the seat's count or less against the count model's
# chance: logit(chance) = a + b x logit(model's chance) + c (at 3 or more players).
CHANCE_MAP = (-0.629, 0.979, 0.152)


class ReviewError(TonkError):
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
    step: int = 0  # 0: the start of the turn; 1: right after the draw or take; 2: after one lay; ...
    raw_cost: float = 0.0  # the play-out estimate before calibration (COST_MAP)
    raw_error: float = 0.0
    raw_chance: float | None = None  # the count model's chance before calibration (CHANCE_MAP)

    @property
    def when(self) -> str:
        """Where in its turn the decision was, in words."""
        if self.kind == "start":
            return "start"
        return "after the draw" if self.step <= 1 else f"after the draw, play {self.step}"

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
            "step": self.step,
            "raw_cost": round(self.raw_cost, 4),
            "raw_error": round(self.raw_error, 4),
            "raw_chance": None if self.raw_chance is None else round(self.raw_chance, 4),
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
    note: str = ""  # a line about the hand's side bets, when it had some

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
            "note": self.note,
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
            items.append(f"{i}. Turn {d.turn}, {d.when} "
                         f"(count {d.count}): you {d.did_text}; the expert would have {d.expert_text}. "
                         f"{verdict}{chance}")
        same = [d for d in sorted(self.decisions, key=lambda d: d.index) if d.same]
        tail = []
        if same:
            if items:
                tail.append("")
            drops = [d for d in same if d.low_chance is not None]
            turns: dict[int, list[str]] = {}
            for d in same:
                turns.setdefault(d.turn, []).append("start" if d.kind == "start" else d.did[0].verb)
            tail.append("As the expert would have: " + ", ".join(
                f"turn {t} ({', '.join(what)})" for t, what in turns.items()) + ".")
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
        if self.note:
            tail.append(self.note)
        tail.append(f"Estimates use only what you could see at each decision: the hidden cards are sampled "
                    f"({self.samples} deals for each difference), never read. Costs and chances are scaled to "
                    f"what such decisions really cost, and how often someone really held the count, in self-play.")
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
    return names(sorted_hand(cards))


def describe(actions, view: SeatView) -> str:
    """What a list of this seat's actions does, in words (past tense after "you" / "would have")."""
    parts = []
    for a in actions:
        if isinstance(a, Drop):
            parts.append("dropped")
        elif isinstance(a, Draw):
            parts.append("drew from the stock")
        elif isinstance(a, TakeDiscard):
            parts.append(f"took {view.discard_top.name}" if view.discard_top is not None else "took the discard")
        elif isinstance(a, Spread):
            parts.append(f"spread {spread_name(a.cards, a.named)}")
        elif isinstance(a, Hit):
            parts.append(f"hit {a.card.name} on spread {a.spread + 1}")
        elif isinstance(a, Discard):
            parts.append(f"discarded {a.card.name}")
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
        raise ReviewError(t("A review needs at least 2 evaluation deals and 1 search deal per decision."))
    try:
        final = Game.from_record(record)
    except TonkError as exc:  # (a RecordError too)
        raise ReviewError(t("This hand record cannot be replayed ({why}).", why=exc.text)) from None
    except (TypeError, KeyError, AttributeError) as exc:
        raise ReviewError(t("This hand record cannot be replayed ({why}).", why=str(exc))) from None
    n = final.num_players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ReviewError(t("There is no seat {seat} in this hand: the seats are 0 to {last}.", seat=repr(seat), last=n - 1))
    if seat in set(computers):
        raise ReviewError(t("Seat {seat} ({name}) was played by the computer: a review is of a person's own "
                            "decisions.", seat=seat, name=final.players[seat]))
    if final.rules.house:
        raise ReviewError(t("Reviews cover the rules of RULES.md sections 1-8: the review's look-ahead does not "
                            "know this hand's house rules (section 9), and its prices were checked without them, "
                            "so it cannot price your choices here."))
    bets = record.get("side_bets") or {}
    if "naturals" in bets:
        raise ReviewError(t("This hand had the naturals side bet (RULES.md section 10): the expert's look-ahead "
                            "does not know that a natural book wins its pot, so it cannot price your spreads."))
    note = ("The high card side pot was settled at the deal, whatever you did: the costs are the hand's "
            "own payments." if "high_card" in bets else "")
    decisions = [evaluate(view, did, index, turn, samples=samples, search=search, seed=seed)
                 for view, did, index, turn in decision_points(record, seat)]
    decisions.sort(key=lambda d: (d.same, -d.cost, d.index))
    unit = "push-ups" if final.rules.scoring == "pushups" else "stakes"
    result = final.result() if final.outcome is not None else None
    return Review(seat, final.players[seat], tuple(final.players), unit, result, tuple(decisions),
                  samples, search, seed, time.process_time() - started, note)


def decision_points(record: dict, seat: int):
    """(view before the decision, the seat's action in it (a 1-tuple), index of the action,
    turn) for each decision `seat` made; the record must replay (`Game.from_record`).

    Every action of the seat where it had more than one legal action is a decision of its
    own: the start of a turn (drop, draw or take) and, after the draw, every spread, hit
    and the discard, each from the view at that moment (after the lays before it)."""
    from .actions import action_from_record

    game = Game.from_record({**record, "actions": []})
    turn = 0
    for i, entry in enumerate(record["actions"]):
        who, action = entry["seat"], action_from_record(entry)
        if who == seat and game.outcome is None and game.turn == seat and game.phase in ("start", "play"):
            if game.phase == "start":
                turn += 1
            view = game.view(seat)
            game.apply(who, action)
            if len(view.legal_actions) > 1:
                yield view, (action,), i, turn
            continue
        game.apply(who, action)


def _decision_seed(seed: int, index: int, part: int) -> int:
    return (seed * 1_000_003 + index * 7919 + part) & 0xFFFFFFFF


def _step(view: SeatView) -> int:
    """Which of the turn's decisions a view is at: 0 at the start, 1 right after the draw or
    take, 2 after one lay, ..."""
    if view.phase == "start":
        return 0
    step = 1
    for event in reversed(view.history):
        if event.seat != view.seat or event.action.verb in ("draw", "take"):
            break
        step += event.action.verb in ("spread", "hit")
    return step


def _agrees(action: Action, plan, view: SeatView) -> bool:
    """Is one action of the player's turn what the expert's plan from the same view does?
    A lay agrees when the plan makes it at any point of the turn (the order of a turn's lays
    rarely matters); a discard only when it is all the plan does (no lay first)."""
    if not plan:
        return False
    if isinstance(action, Spread):
        return any(isinstance(a, Spread) and set(a.cards) == set(action.cards) for a in plan)
    if isinstance(action, Hit):
        return any(isinstance(a, Hit) and a.card == action.card and
                   (a.spread == action.spread or a.spread >= len(view.spreads)) for a in plan)
    return action == plan[0]


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
        # the expert's plan for the rest of the turn from this view; what the player did is
        # this one action, then the rest of the turn as the seat's planner would play it
        expert = tuple(chooser.plan_turn(view, Memory(view)))
        same = len(did) == 1 and _agrees(did[0], expert, view)
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
    low = raw_low = None
    if drop_allowed:
        from .players import countmodel

        raw_low = low_chance(view, memory, estimate, deals)
        # (the map was fitted on the count model's chances; the sampled deals' share elsewhere stays)
        low = calibrated_chance(raw_low, len(view.players)) if countmodel.applies(view.rules) else raw_low
    kind = "start" if start else "play"
    raw_cost, raw_error = cost, error
    if not same and raw_error > 0:  # (choices that paid the same on every deal stay as they are)
        a, b = COST_MAP[kind]
        cost, error = a + b * raw_cost, b * raw_error
    did_text = describe(did, view)
    expert_text = _would(describe(expert[:1], view))
    return Decision(index, turn, kind, did, expert, same, cost, error, used,
                    view.count, drop_allowed, low, did_text, expert_text, tuple(sorted_hand(view.hand)),
                    _step(view), raw_cost, raw_error, raw_low)


def calibrated_chance(p: float, players: int) -> float:
    """The count model's chance that someone held the seat's count or less, recalibrated
    against how often someone really did (CHANCE_MAP; 4 players as 3, which was measured);
    a sure 0 or 1 stays sure."""
    if p <= 0.0 or p >= 1.0:
        return p
    a, b, c = CHANCE_MAP
    return logistic(a + b * logit(p) + (c if players >= 3 else 0.0))


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
