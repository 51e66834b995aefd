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
    wilds: tuple[tuple[Card, Card], ...] = ()  # (wild card, the card it stands for), wild cards only
    verb = "spread"

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if all(isinstance(c, Card) for c in cards):
            cards = tuple(sorted(cards, key=_sort_key))
        object.__setattr__(self, "cards", cards)
        if self.wilds:
            wilds = tuple(self.wilds.items()) if isinstance(self.wilds, dict) else tuple(self.wilds)
            object.__setattr__(self, "wilds", tuple(sorted(wilds, key=lambda w: _sort_key(w[0]))))

    @property
    def named(self) -> dict:
        """Wild card -> the card it stands for."""
        return dict(self.wilds)

    def to_record(self) -> dict:
        out = {"do": "spread", "cards": [c.code for c in self.cards]}
        if self.wilds:
            out["as"] = {w.code: n.code for w, n in self.wilds}
        return out


@dataclass(frozen=True, slots=True)
class Hit:
    """Add one card from the hand to spread number `spread` (0 = first laid this hand)."""

    card: Card
    spread: int
    stands_for: Card | None = None  # for a wild card: the card it stands for
    verb = "hit"

    def to_record(self) -> dict:
        out = {"do": "hit", "card": self.card.code, "spread": self.spread}
        if self.stands_for is not None:
            out["as"] = {self.card.code: self.stands_for.code}
        return out


@dataclass(frozen=True, slots=True)
class Swap:
    """Wild swap: put the natural `card` in the place of the wild card standing for it
    in spread number `spread`, and take that wild card into the hand."""

    card: Card
    spread: int
    verb = "swap"

    def to_record(self) -> dict:
        return {"do": "swap", "card": self.card.code, "spread": self.spread}


@dataclass(frozen=True, slots=True)
class Slap:
    """Slap the top discard onto spread number `spread` (any seat, in a slap window);
    `stands_for` names what a wild discard stands for."""

    spread: int
    stands_for: Card | None = None
    verb = "slap"

    def to_record(self) -> dict:
        out: dict = {"do": "slap", "spread": self.spread}
        if self.stands_for is not None:
            out["as"] = self.stands_for.code
        return out


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim an instant hand in turn: at the start of the first turn, before drawing."""

    verb = "claim"

    def to_record(self) -> dict:
        return {"do": "claim"}


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


Action = Draw | TakeDiscard | Spread | Hit | Discard | Drop | Swap | Slap | Claim
DRAW = Draw()
TAKE = TakeDiscard()
DROP = Drop()
DISCARDS = tuple(Discard(Card.by_index(i)) for i in range(CARD_COUNT))  # by Card.index: legal_actions reuses them
CLAIM = Claim()


def _wild_map(entry: dict) -> dict:
    named = entry.get("as")
    if named is None:
        return {}
    if not isinstance(named, dict) or not named:
        raise ValueError("'as' must map each wild card to the card it stands for, like {\"X1\": \"6s\"}")
    return {Card.parse(k): Card.parse(v) for k, v in named.items()}


def _spread_number(entry: dict) -> int:
    spread = entry.get("spread")
    if not isinstance(spread, int) or isinstance(spread, bool):
        raise ValueError(f"a {entry.get('do')} needs the spread's number")
    return spread


def action_from_record(entry: dict) -> Action:
    """Parse the `do` part of a record action; raise ValueError with a readable reason."""
    if not isinstance(entry, dict):
        raise ValueError("an action must be an object")
    verb = entry.get("do")
    allowed = {"seat", "do", "cards", "card", "spread", "as"}
    extra = sorted(map(str, set(entry) - allowed))
    if extra:
        raise ValueError(f"unknown field(s) {', '.join(extra)}")
    if verb == "draw":
        return DRAW
    if verb == "take":
        return TAKE
    if verb == "drop":
        return DROP
    if verb == "claim":
        return CLAIM
    if verb == "spread":
        cards = entry.get("cards")
        if not isinstance(cards, list) or not cards:
            raise ValueError("a spread needs a list of cards")
        named = _wild_map(entry)
        return Spread(tuple(Card.parse(c) for c in cards), tuple(named.items()))
    if verb == "hit":
        card = Card.parse(entry.get("card"))
        named = _wild_map(entry)
        if named and list(named) != [card]:
            raise ValueError("a hit's 'as' names only the card it hits with")
        return Hit(card, _spread_number(entry), named.get(card))
    if verb == "swap":
        return Swap(Card.parse(entry.get("card")), _spread_number(entry))
    if verb == "slap":
        named = entry.get("as")
        return Slap(_spread_number(entry), None if named is None else Card.parse(named))
    if verb == "discard":
        return Discard(Card.parse(entry.get("card")))
    raise ValueError(f"unknown action {verb!r} (use draw, take, spread, hit, discard, drop, swap, slap or claim)")
