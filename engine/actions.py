"""One small frozen value per action a player can take, and their record form."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_COUNT, Card


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock (from an empty stock this ends the hand)."""

    verb = "draw"

    def to_record(self) -> dict:
        return {"do": "draw"}


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile."""

    verb = "take"

    def to_record(self) -> dict:
        return {"do": "take"}


@dataclass(frozen=True, slots=True)
class Spread:
    """Lay 3 or more cards from the hand as a new book or run.

    The cards are kept in one canonical order (rank, then suit), so the same spread
    chosen in any order is the same action.
    """

    cards: tuple[Card, ...]
    verb = "spread"

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if all(isinstance(c, Card) for c in cards):
            cards = tuple(sorted(cards, key=_sort_key))
        object.__setattr__(self, "cards", cards)

    def to_record(self) -> dict:
        return {"do": "spread", "cards": [c.code for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Hit:
    """Add one card from the hand to spread number `spread` (0 = first laid this hand)."""

    card: Card
    spread: int
    verb = "hit"

    def to_record(self) -> dict:
        return {"do": "hit", "card": self.card.code, "spread": self.spread}


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay one card from the hand on the discard pile, ending the turn."""

    card: Card
    verb = "discard"

    def to_record(self) -> dict:
        return {"do": "discard", "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Drop:
    """Show the hand and end the play, claiming the lowest count (start of turn only)."""

    verb = "drop"

    def to_record(self) -> dict:
        return {"do": "drop"}


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


Action = Draw | TakeDiscard | Spread | Hit | Discard | Drop
DRAW = Draw()
TAKE = TakeDiscard()
DROP = Drop()
DISCARDS = tuple(Discard(Card.by_index(i)) for i in range(CARD_COUNT))  # by Card.index: legal_actions reuses them


def action_from_record(entry: dict) -> Action:
    """Parse the `do` part of a record action; raise ValueError with a readable reason."""
    if not isinstance(entry, dict):
        raise ValueError("an action must be an object")
    verb = entry.get("do")
    allowed = {"seat", "do", "cards", "card", "spread"}
    extra = sorted(set(entry) - allowed)
    if extra:
        raise ValueError(f"unknown field(s) {', '.join(extra)}")
    if verb == "draw":
        return DRAW
    if verb == "take":
        return TAKE
    if verb == "drop":
        return DROP
    if verb == "spread":
        cards = entry.get("cards")
        if not isinstance(cards, list) or not cards:
            raise ValueError("a spread needs a list of cards")
        return Spread(tuple(Card.parse(c) for c in cards))
    if verb == "hit":
        spread = entry.get("spread")
        if not isinstance(spread, int) or isinstance(spread, bool):
            raise ValueError("a hit needs the spread's number")
        return Hit(Card.parse(entry.get("card")), spread)
    if verb == "discard":
        return Discard(Card.parse(entry.get("card")))
    raise ValueError(f"unknown action {verb!r} (use draw, take, spread, hit, discard or drop)")
