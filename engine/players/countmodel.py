"""A learned model of each opponent's hidden count, from what the table has seen.

`hard` draws the others' hidden cards with one lean to low values by the turns played;
at a drop decision that lean is badly calibrated (docs/BENCHMARKS.md, round 7). This
model is learned instead: from many self-play hands (hard against hard, and tables with
a normal seat; 2 and 3 players; standard and waiting), the distribution of the sum of an
opponent's hidden cards (its count less the cards it took and still holds, which are
known) is tabulated by public features of that opponent (`features`): how many hidden
cards it holds, the turns it has played, whether it took the discard at its last turn,
the values of its last two discards, whether it laid cards, the table size and waiting.
Keys are smoothed by backing off to coarser keys (`LEVELS`), and the table is shipped as
engine/players/count_model.json (made by scripts/count_model.py, seeded).

`posterior` joins that learned distribution with what the observer can see of the
unknown cards (the hidden cards come from them: a pool short of low cards makes low
sums less likely), and `drop_value` turns the per-opponent distributions into the exact
mean payment of dropping now (standard caught pays, stakes), treating the opponents'
counts as independent.
"""

from __future__ import annotations

import json
from functools import lru_cache
from math import comb
from pathlib import Path

from ..view import SeatView
from .memory import Memory

MAX_SUM = 50  # five hidden cards of ten
# pseudo-observations of the coarser key's distribution (backoff; 30 and 100 overfit held-out hands)
SMOOTH = 400.0
FILE = Path(__file__).with_name("count_model.json")


def _turn_bucket(t: int) -> int:
    return t if t <= 6 else 7 if t <= 8 else 8 if t <= 11 else 9


def _d1(card) -> int:
    if card is None:
        return 0
    v = card.value
    return 1 if v <= 2 else 2 if v <= 4 else 3 if v <= 6 else 4 if v <= 8 else 5 if v <= 9 else 6


def _d2(card) -> int:
    if card is None:
        return 0
    v = card.value
    return 1 if v <= 4 else 2 if v <= 7 else 3


def last_start(view: SeatView, j: int) -> str | None:
    """`j`'s last start-of-turn action in the public history: "take", "draw" or None."""
    for event in reversed(view.history):
        if event.seat == j and event.action.verb in ("take", "draw"):
            return event.action.verb
    return None


def features(view: SeatView, memory: Memory, j: int) -> tuple:
    """The public facts about opponent `j` that the model is keyed by (finest key)."""
    discards = memory.discards[j]
    return (
        memory.n,
        1 if view.rules.waiting else 0,
        min(memory.hidden[j], 5),
        _turn_bucket(memory.turns[j]),
        1 if last_start(view, j) == "take" else 0,
        _d1(discards[-1] if discards else None),
        _d2(discards[-2] if len(discards) > 1 else None),
        1 if memory.laid[j] else 0,
    )


# From the finest key to the coarsest: the slices of `features` each level keeps.
LEVELS = (
    (2,),  # hidden cards
    (0, 2, 3),  # + table size, turns
    (0, 1, 2, 3, 4),  # + waiting, took last
    (0, 1, 2, 3, 4, 5),  # + last discard
    (0, 1, 2, 3, 4, 5, 6, 7),  # + the one before, laid
)


def key_of(feats: tuple, level: int) -> str:
    return "|".join(str(feats[i]) for i in LEVELS[level])


def applies(rules) -> bool:
    """The model was learned on 52-card, 5-card hands without house rules, stakes scoring
    and the standard caught pays (standard and waiting presets)."""
    return (not rules.house and rules.hand_size == 5 and len(rules.ranks) == 13 and rules.jokers == 0
            and rules.caught_pays == "standard" and rules.scoring == "stakes")


class CountModel:
    """Histograms of an opponent's hidden sum, by key, with backoff smoothing."""

    def __init__(self, tables: dict[str, dict[str, list[int]]], smooth: float = SMOOTH):
        self.tables = tables  # key -> [count of sum 0, 1, ..., MAX_SUM] at each level
        self.smooth = smooth
        self._cache: dict = {}

    @classmethod
    def load(cls, path: Path = FILE) -> "CountModel":
        data = json.loads(Path(path).read_text())
        tables = {}
        for key, sparse in data["tables"].items():
            hist = [0] * (MAX_SUM + 1)
            for s, c in sparse:
                hist[s] = c
            tables[key] = hist
        return cls(tables, data.get("smooth", SMOOTH))

    def distribution(self, feats: tuple, levels: int = len(LEVELS)) -> list[float]:
        """P(hidden sum = s) for s = 0..MAX_SUM, smoothed from coarse to fine keys (the
        first `levels` of `LEVELS`)."""
        found = self._cache.get((feats, levels))
        if found is not None:
            return found
        h = feats[2]
        lo, hi = h, 10 * h
        width = hi - lo + 1
        p = [1.0 / width if lo <= s <= hi else 0.0 for s in range(MAX_SUM + 1)]
        for level in range(levels):
            hist = self.tables.get(f"{level}:{key_of(feats, level)}")
            if hist is None:
                break
            total = sum(hist)
            m = self.smooth if level else 1.0
            p = [(c + m * q) / (total + m) for c, q in zip(hist, p)]
        self._cache[(feats, levels)] = p
        return p


@lru_cache(maxsize=None)
def model() -> CountModel:
    """The shipped model, loaded once (11-14 ms) at the first drop decision."""
    return CountModel.load()


def sum_ways(values: tuple[int, ...], h: int) -> list[float]:
    """Ways to pick `h` cards whose values sum to s, from cards of these value counts
    (`values[v]` cards of value v)."""
    ways = [[0] * (MAX_SUM + 1) for _ in range(h + 1)]
    ways[0][0] = 1
    for v, m in enumerate(values):
        if not m or not v:
            continue
        new = [row[:] for row in ways]
        for k in range(h):
            row = ways[k]
            for s in range(MAX_SUM + 1):
                w = row[s]
                if not w:
                    continue
                for i in range(1, min(m, h - k) + 1):
                    t = s + v * i
                    if t > MAX_SUM:
                        break
                    new[k + i][t] += w * comb(m, i)
        ways = new
    return [float(x) for x in ways[h]]


@lru_cache(maxsize=16)
def _prior(h: int) -> tuple[float, ...]:
    values = [0] + [4] * 9 + [16]
    ways = sum_ways(tuple(values), h)
    total = sum(ways)
    return tuple(w / total for w in ways)


def pool_values(cards) -> tuple[int, ...]:
    values = [0] * 11
    for c in cards:
        values[c.value] += 1
    return tuple(values)


def posterior(model_: CountModel, feats: tuple, pool: tuple[int, ...], use_pool: bool = True) -> list[float]:
    """P(hidden sum = s): the learned distribution, weighed by how the unknown cards
    make each sum more or less likely than a full deck does."""
    p = model_.distribution(feats)
    h = feats[2]
    if use_pool and h:
        ways = sum_ways(pool, h)
        total = sum(ways)
        prior = _prior(h)
        if total:
            p = [q * (w / total) / pr if pr > 0 else 0.0 for q, w, pr in zip(p, ways, prior)]
    z = sum(p)
    if z <= 0:
        return model_.distribution(feats)
    return [q / z for q in p]


def opponent_counts(view: SeatView, memory: Memory, model_: CountModel | None = None,
                    use_pool: bool = True) -> dict[int, list[float]]:
    """For each opponent, P(its count = c) for c = 0..MAX_SUM + its known cards' value."""
    model_ = model_ or model()
    pool = pool_values(memory.unknown)
    out = {}
    for j in memory.others():
        known = sum(c.value for c in memory.held[j])
        p = posterior(model_, features(view, memory, j), pool, use_pool)
        out[j] = [0.0] * known + p
    return out


def drop_value(view: SeatView, memory: Memory, model_: CountModel | None = None,
               use_pool: bool = True) -> tuple[float, float]:
    """(mean payment of dropping now, chance the drop wins), standard caught pays,
    stakes; the opponents' counts independent."""
    d = view.count
    win = 1.0
    caught = 0.0
    dists = opponent_counts(view, memory, model_, use_pool)
    for p in dists.values():
        low = sum(p[: d + 1])  # count <= mine: the drop is caught by this player
        win *= 1.0 - low
        caught += low
    n = memory.n
    return (n - 1) * win - 2.0 * caught, win
