"""What one seat learns about each opponent over the hands of a session.

A `SessionMemory` belongs to one seat. After every hand it learns from that seat's own
`SeatView` of the finished hand, and from nothing else: the outcome every seat sees
(each hand's count at the showdown, who dropped) and the public history. Cards that were
never shown (the stock left at the end) cannot reach it. What it keeps, per opponent
(keyed by whoever the caller says sits in each seat: a user id or seat at a Discord
table, a slot in the arena, where seats rotate):

- `hands`: the finished hands it saw that opponent play;
- `drops`: the last `KEEP` drops of that opponent, as (turns it had played, its count).

`drop_offset(key)` is how much higher (positive) or lower than `hard` that opponent
drops (its counts at its drops against expert's play-out drop counts `expert.DROP_AT` by
turns played, less hard's own mean `HARD_DROPS_AT`), shrunk towards 0 by `PRIOR`
pseudo-drops: expert's play-outs and hard's one-turn look-ahead (the value of playing on
in expert's drop decision) let that opponent drop at its own counts.

It is small (at most `KEEP` pairs of small integers per opponent) and plain data:
`to_dict()` / `from_dict()` carry it between hands (the arena keeps it for a session
of hands with the same seats; a Discord table keeps one per expert seat: `Table.memories` in bot/table.py).
"""

from __future__ import annotations

from ..view import SeatView
from .memory import Memory

KEEP = 40  # drops kept per opponent (the most recent)
PRIOR = 6.0  # pseudo-drops at offset 0: a few drops move the offset only a little
# hard's own drops come at counts this far below DROP_AT on average (a drop comes once the
# count has fallen under the bar, so below it): measured over 600 hands each of hard
# against hard (-2.5, -1.9) and of hard, hard and normal (-2.9, -1.8; normal: -7.9), the
# last 40 drops of each slot. An opponent that drops like hard gets an offset of about 0.
HARD_DROPS_AT = -2.2


class SessionMemory:
    __slots__ = ("seat_key", "hands", "drops")

    def __init__(self, seat_key=None):
        self.seat_key = seat_key  # whose memory this is (the owner's key)
        self.hands: dict = {}  # opponent key -> finished hands seen
        self.drops: dict = {}  # opponent key -> [(turns, count), ...], oldest first

    def __repr__(self) -> str:
        return f"SessionMemory(seat_key={self.seat_key!r}, hands={self.hands!r}, drops={self.drops!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, SessionMemory) and self.to_dict() == other.to_dict()

    def learn(self, view: SeatView, keys) -> None:
        """Learn from this seat's own view of a finished hand; `keys[s]` says who sat in seat s."""
        if view.outcome is None:
            raise ValueError("A session memory learns from finished hands only.")
        if self.seat_key is not None and keys[view.seat] != self.seat_key:
            raise ValueError("A session memory learns only from its own seat's view.")
        outcome = view.outcome
        memory = Memory(view)
        for j in memory.others():
            key = keys[j]
            self.hands[key] = self.hands.get(key, 0) + 1
            if outcome.dropper == j and j < len(outcome.counts):
                kept = self.drops.setdefault(key, [])
                kept.append((memory.turns[j], int(outcome.counts[j])))
                del kept[:-KEEP]

    def drop_offset(self, key) -> float:
        """How much higher than the play-outs' drop counts this opponent drops (count points)."""
        from .expert import DROP_AT  # (expert imports this module)

        drops = self.drops.get(key)
        if not drops:
            return 0.0
        total = sum(c - DROP_AT[min(t, len(DROP_AT) - 1)] - HARD_DROPS_AT for t, c in drops)
        return total / (len(drops) + PRIOR)

    def to_dict(self) -> dict:
        return {"seat": self.seat_key, "hands": [[k, v] for k, v in self.hands.items()],
                "drops": [[k, [list(d) for d in v]] for k, v in self.drops.items()]}

    @classmethod
    def from_dict(cls, data: dict) -> "SessionMemory":
        out = cls(data.get("seat"))
        out.hands = {k: int(v) for k, v in data.get("hands", [])}
        out.drops = {k: [(int(t), int(c)) for t, c in v][-KEEP:] for k, v in data.get("drops", [])}
        return out
