"""What a seat can know about the hand: replayed from its own `SeatView` alone.

Cards a player took from the discard pile are known to be in that hand until they are
played again; everything not in my hand, on the table, in the discard pile or known to
be held by someone is *unknown*: it lies in the stock or among the others' hidden cards.
"""

from __future__ import annotations

from ..view import SeatView
from .hands import Layout, hit_targets, table_places


class Memory:
    """The public history of the hand, digested for one seat."""

    __slots__ = (
        "view", "layout", "seat", "n", "taken", "held", "discards", "turns", "draws", "pile",
        "unknown", "hidden", "table", "passed", "laid", "plans", "_places", "_targets", "_alive",
        "_hit_share",
    )

    def __init__(self, view: SeatView):
        self.view = view
        self.plans: dict = {}  # best plans found during this decision, by hand
        self._places = self._targets = self._alive = self._hit_share = None
        self.layout = layout = Layout.of(view.rules)
        rules = view.rules
        n = self.n = len(view.players)
        self.seat = view.seat
        self.taken: list[list] = [[] for _ in range(n)]  # cards each seat took from the pile
        self.held: list[set] = [set() for _ in range(n)]  # taken cards still in that hand
        self.discards: list[list] = [[] for _ in range(n)]
        self.turns = [0] * n  # turns each seat has started (draws and takes)
        self.draws = [0] * n
        self.laid = [0] * n  # cards each seat laid on the table (spreads and hits)
        self.passed: list[list] = [[] for _ in range(n)]  # pile tops a seat left there
        pile: list = [view.upcard] if view.upcard is not None else []
        dealt = rules.hand_size * n
        stock = len(layout.deck) - dealt - len(pile)
        for j, card in enumerate(view.side_cards):  # the high-card side bet's shown cards are public
            if card is not None and j != view.seat:
                self.held[j].add(card)
        for event in view.history:
            who, action = event.seat, event.action
            verb = action.verb
            if verb == "slap":  # the top discard went onto a spread
                if pile and pile[-1] == event.card:  # (a slap taken over by the next player: already gone)
                    pile.pop()
                continue
            if verb == "swap":  # a natural card went to the table, the wild card (public) to the hand
                self.held[who].discard(action.card)
                self.held[who].add(event.card)
                continue
            if verb == "take":
                card = pile.pop()
                self.taken[who].append(card)
                self.held[who].add(card)
                self.turns[who] += 1
            elif verb == "draw":
                if stock == 0 and rules.can_reshuffle(len(pile)):
                    stock = len(pile) - 1
                    del pile[:-1]
                stock = max(stock - 1, 0)
                if pile:
                    self.passed[who].append(pile[-1])
                self.turns[who] += 1
                self.draws[who] += 1
            elif verb == "discard":
                pile.append(action.card)
                self.discards[who].append(action.card)
                self.held[who].discard(action.card)
            elif verb == "spread":
                for c in action.cards:
                    self.held[who].discard(c)
                self.laid[who] += len(action.cards)
            elif verb == "hit":
                self.held[who].discard(action.card)
                self.laid[who] += 1
        self.pile = pile
        self.held[self.seat] = set()
        self.table = {c for s in view.spreads for c in s.cards}
        known = set(view.hand) | self.table | set(pile)
        for j in range(n):
            if j != self.seat:
                known |= self.held[j]
        self.unknown = [c for c in layout.deck if c not in known]
        # hidden cards: how many of each other hand's cards I cannot name
        self.hidden = [
            0 if j == self.seat else max(view.hand_sizes[j] - len(self.held[j]), 0) for j in range(n)
        ]

    def others(self) -> list[int]:
        """The other seats in turn order, starting left of me."""
        return [(self.seat + k) % self.n for k in range(1, self.n)]

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % self.n

    @property
    def alive(self) -> set:
        """Cards I might still draw or see: the unknown ones."""
        if self._alive is None:
            self._alive = set(self.unknown)
        return self._alive

    @property
    def places(self) -> list:
        """The table's spreads as targets for hits."""
        if self._places is None:
            self._places = table_places(self.layout, self.view.spreads)
        return self._places

    @property
    def targets(self) -> set:
        """Every card that would fit a spread on the table now."""
        if self._targets is None:
            self._targets = hit_targets(self.layout, self.places)
        return self._targets

    @property
    def hit_share(self) -> float:
        """The share of unknown cards that would fit a spread on the table."""
        if self._hit_share is None:
            alive = self.unknown
            targets = self.targets
            self._hit_share = sum(1 for c in alive if c in targets) / len(alive) if alive else 0.0
        return self._hit_share
