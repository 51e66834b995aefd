"""The table's spreads and the phases of a hand: the pieces both the game and its house
rules (engine.house) build on, so neither has to import the other's module to get them."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .cards import BOOK_BIAS, BOOK_TOP, CARD_COUNT, RANK_TALLY, SUIT_NUMBER, Card
from .rules import Rules

START = "start"  # the seat to act may drop, draw or take the discard
PLAY = "play"  # the seat has drawn: spread, hit, then discard
OVER = "over"
SLAP_DISCARD = "slap_discard"  # house rule (slap): a slapper owes the table one extra discard


@dataclass(slots=True)
class TableSpread:
    """A spread on the table: who laid it, book or run, and its cards (runs in order)."""

    owner: int
    kind: str  # "book" or "run"
    cards: list[Card]
    named: dict | None = None  # wild card -> the card it stands for (house rule: wild cards)

    def to_dict(self) -> dict:
        data = {"owner": self.owner, "kind": self.kind, "cards": [c.code for c in self.cards]}
        if self.named:
            data["as"] = {w.code: n.code for w, n in self.named.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "TableSpread":
        named = {Card.parse(w): Card.parse(n) for w, n in data["as"].items()} if data.get("as") else None
        return cls(data["owner"], data["kind"], [Card.parse(c) for c in data["cards"]], named)

    def natural(self) -> list[Card]:
        """The cards as they count in the spread: each wild card as the card it stands for."""
        named = self.named
        return [named.get(c, c) for c in self.cards] if named else self.cards


def spreads_in(hand, positions: dict) -> list[tuple[Card, ...]]:
    """Every book and run in `hand`: books in suit order, runs in sequence.

    `positions` maps a rank to its place in a run (`run_positions(rules)`). Shared by the
    legal-action generator and the computer players, so both see the same spreads.
    """
    found: list[tuple[Card, ...]] = []
    if len(hand) < 3:
        return found
    # Most hands hold no spread: find out from one integer before sorting anything. Each
    # card adds its rank's tally (a 4-bit field per rank, see cards.RANK_TALLY) and, above
    # bit 64, its own bit at 16 * suit + run position: three bits in a row are a run.
    tally = BOOK_BIAS
    table = _spread_tally(positions)
    for c in hand:
        tally += table[c.index]
    placed = tally >> 64
    books = tally & BOOK_TOP
    runs = placed & (placed >> 1) & (placed >> 2)
    if books:
        by_rank: dict = {}
        for c in hand:
            if not c.joker:
                by_rank.setdefault(c.rank, []).append(c)
        for cards in by_rank.values():
            if len(cards) >= 3:
                cards.sort(key=_suit_key)
                for size in range(3, len(cards) + 1):
                    found.extend(combinations(cards, size))
    if runs:
        by_suit: dict = {}
        for c in hand:
            if not c.joker:
                by_suit.setdefault(c.suit, []).append(c)
        for cards in by_suit.values():
            if len(cards) < 3:
                continue
            cards.sort(key=lambda c: positions[c.rank])
            # split into maximal consecutive stretches, then take every sub-stretch of 3+
            start = 0
            for i in range(1, len(cards) + 1):
                if i == len(cards) or positions[cards[i].rank] != positions[cards[i - 1].rank] + 1:
                    for a in range(start, i - 2):
                        for b in range(a + 3, i + 1):
                            found.append(tuple(cards[a:b]))
                    start = i
    return found


_SPREAD_TALLIES: dict[int, tuple[dict, tuple[int, ...]]] = {}


def _spread_tally(positions: dict) -> tuple[int, ...]:
    """By Card.index: the card's rank tally plus its run bit above bit 64 (jokers: 0).
    Kept per `positions` dict (run_positions keeps one per deck, so this stays small)."""
    known = _SPREAD_TALLIES.get(id(positions))
    if known is not None and known[0] is positions:
        return known[1]
    table = tuple(
        0 if c.joker or c.rank not in positions
        else RANK_TALLY[c.index] | 1 << (64 + 16 * SUIT_NUMBER[c.index] + positions[c.rank])
        for c in map(Card.by_index, range(CARD_COUNT))
    )
    if len(_SPREAD_TALLIES) > 64:  # someone passes fresh dicts: do not grow without end
        _SPREAD_TALLIES.clear()
    _SPREAD_TALLIES[id(positions)] = (positions, table)
    return table


def _suit_key(card: Card) -> str:
    return card.suit.value  # type: ignore[union-attr]


_POSITIONS: dict[int, dict] = {}


def run_positions(rules: Rules) -> dict:
    """Rank -> place in a run (40-card deck: 7 is next to J)."""
    key = rules.deck
    if key not in _POSITIONS:
        _POSITIONS[key] = {rank: i for i, rank in enumerate(rules.ranks)}
    return _POSITIONS[key]
