"""Cards: small frozen values, interned so the engine compares them by identity.

Notation (records, logs, tests): rank then suit letter, `As`, `10h`, `Qd`, `2c`; `T` is
accepted for ten on input and `10` is printed. Jokers are `X1`..`X4`. Players on Discord read
cards in words through `Card.name` ("ace of spades", "10 of hearts": a screen reader says a
suit symbol as "black heart suit"); the pictures and the terminal show `Card.label` (A♠ 10♥).
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

from .text import Text, tc


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def points(self) -> int:
        """A = 1, 2..10 face value, J Q K = 10."""
        return min(int(self), 10)

    @property
    def code(self) -> str:
        return _RANK_CODES[self]


class Suit(enum.Enum):
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    # Enum hashes a member by its name in Python code; suits key the engine's dicts in
    # every legal-action and spread search, so hash them by identity, in C.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_RANK_CODES = {r: ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")[r - 1] for r in Rank}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
RANK_WORDS = {Rank.ACE: "ace", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
"""A rank as a message writes it (the others as digits: "10 of hearts" reads well and stays short)."""
SUIT_WORDS = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
_SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
MAX_JOKERS = 4


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card or a joker (rank and suit None, `joker` 1..4).

    Build cards with `Card.parse`, `Card.of` or `Card.joker_card`: they return the one
    shared instance per card, so equality and hashing are by identity: exact, and as fast
    as Python can compare anything (the engine's random playouts depend on it).
    """

    rank: Rank | None
    suit: Suit | None
    joker: int = 0
    index: int = field(default=-1, repr=False)
    value: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if self.index < 0:
            raise TypeError("Cards are shared values: use Card.parse, Card.of or Card.joker_card.")

    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo) -> "Card":
        return self

    def __reduce__(self):
        return (Card.by_index, (self.index,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @property
    def code(self) -> str:
        return _CODES[self.index]

    @property
    def label(self) -> str:
        """What a player sees: `A♠`, `10♥`, `🃏1` for a joker."""
        if self.joker:
            return f"Joker {self.joker}"
        return f"{self.rank.code}{self.suit.symbol}"  # type: ignore[union-attr]

    @property
    def name(self) -> str:
        """The card in words, as a message says it and a screen reader reads it well:
        `ace of spades`, `10 of hearts`, `queen of diamonds`, `joker 1`."""
        return _NAMES[self.index]

    def __text__(self) -> Text:
        """The card in words in the reader's language (`i18n` renders it): the words of `name`."""
        return card_text(self)

    @property
    def is_joker(self) -> bool:
        return self.joker != 0

    @property
    def sort_key(self) -> tuple[int, int]:
        """Rank then suit; jokers last."""
        if self.joker:
            return (99, self.joker)
        return (int(self.rank), _SUIT_ORDER[self.suit])  # type: ignore[arg-type,index]

    @staticmethod
    def of(rank: Rank, suit: Suit) -> "Card":
        return _BY_RANK_SUIT[(rank, suit)]

    @staticmethod
    def joker_card(number: int) -> "Card":
        if not 1 <= number <= MAX_JOKERS:
            raise ValueError(f"There is no joker number {number}.")
        return _ALL[51 + number]

    @staticmethod
    def parse(text: str) -> "Card":
        """Parse `As`, `10h`, `Th`, `qd`, `X1`; raise ValueError naming the bad text."""
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a card.")
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise ValueError(f"{text!r} is not a card (write rank then suit, like As, 10h, Qd).")
        return card

    @staticmethod
    def by_index(index: int) -> "Card":
        return _ALL[index]


def _build() -> tuple[list[Card], dict[str, Card], dict[tuple[Rank, Suit], Card], list[str]]:
    cards: list[Card] = []
    codes: list[str] = []
    by_code: dict[str, Card] = {}
    by_rank_suit: dict[tuple[Rank, Suit], Card] = {}
    for suit in Suit:
        for rank in Rank:
            index = len(cards)
            card = Card(rank, suit, 0, index, rank.points)
            cards.append(card)
            code = f"{rank.code}{suit.value}"
            codes.append(code)
            by_code[code.upper()] = card
            if rank is Rank.TEN:
                by_code[f"T{suit.value}".upper()] = card
            by_rank_suit[(rank, suit)] = card
    for number in range(1, MAX_JOKERS + 1):
        card = Card(None, None, number, len(cards), 0)
        cards.append(card)
        codes.append(f"X{number}")
        by_code[f"X{number}"] = card
    return cards, by_code, by_rank_suit, codes


_ALL, _BY_CODE, _BY_RANK_SUIT, _CODES = _build()
_NAMES = tuple(f"joker {c.joker}" if c.joker else
               f"{RANK_WORDS.get(c.rank, str(int(c.rank)))} of {SUIT_WORDS[c.suit]}"  # type: ignore[arg-type,index]
               for c in _ALL)
CARD_COUNT = len(_ALL)  # 52 cards and the jokers: Card.index runs from 0 to CARD_COUNT - 1

# Tables by Card.index for the spread search (game.spreads_in), which every legal-action
# list and every computer player's plan runs on every hand it looks at. RANK_TALLY: a card
# adds one to a 4-bit field for its rank (jokers add nothing); a field holds at most 4, so
# adding BOOK_BIAS (5 to every field) sets a field's top bit (BOOK_TOP) exactly when three
# or more cards share that rank. SUIT_NUMBER: 0..3 for clubs..spades, -1 for a joker.
_RANK_BITS = 4
RANK_TALLY = tuple(0 if c.joker else 1 << (_RANK_BITS * int(c.rank)) for c in _ALL)  # type: ignore[arg-type]
BOOK_BIAS = sum(5 << (_RANK_BITS * r) for r in range(1, 14))
BOOK_TOP = sum(8 << (_RANK_BITS * r) for r in range(1, 14))
SUIT_NUMBER = tuple(-1 if c.joker else _SUIT_ORDER[c.suit] for c in _ALL)  # type: ignore[index]


# TRANSLATORS: a rank in words inside a card's name ("ace" of "ace of spades"); 2 to 10 stay digits.
RANK_TEXT = {Rank.ACE: tc("rank", "ace"), Rank.JACK: tc("rank", "jack"), Rank.QUEEN: tc("rank", "queen"),
             Rank.KING: tc("rank", "king")}


def rank_text(rank: Rank) -> "Text | str":
    return RANK_TEXT.get(rank) or rank.code


def card_text(card: Card) -> Text:
    """A card's name in words as a `Text`: one message per suit, so a language may put the suit
    first ("Herz-Ass") or decline it ("as kier")."""
    if card.joker:
        return tc("card", "joker {n}", n=str(card.joker))
    rank = rank_text(card.rank)  # type: ignore[arg-type]
    if card.suit is Suit.SPADES:
        return tc("card", "{rank} of spades", rank=rank)
    if card.suit is Suit.HEARTS:
        return tc("card", "{rank} of hearts", rank=rank)
    if card.suit is Suit.DIAMONDS:
        return tc("card", "{rank} of diamonds", rank=rank)
    return tc("card", "{rank} of clubs", rank=rank)


def names(cards) -> str:
    """Cards in words, one after another: `ace of spades, 3 of hearts, joker 1`."""
    return ", ".join(c.name for c in cards)


def spread_name(cards, named=None) -> str:
    """A spread's cards in words, in the order they lie: cards of one suit next to each other
    share it (a run: `4, 5, 6 of hearts`), a book names each (`7 of spades, 7 of hearts, 7 of
    clubs`), a wild card the card it stands for (`joker 1 as 5 of hearts`). `named`: each wild
    card's card (a mapping or pairs)."""
    stands = dict(named or ())
    natural = [stands.get(c, c) for c in cards]
    if natural and all(not c.joker for c in natural) and len({c.suit for c in natural}) == 1:
        # a run, told from its low end: each wild card where the card it stands for lies, the ace
        # last where it is high (with the king and without the 2)
        ranks_in = {c.rank for c in natural}
        high = Rank.KING in ranks_in and Rank.TWO not in ranks_in

        def place(card: Card) -> int:
            rank = int(stands.get(card, card).rank)  # type: ignore[arg-type]
            return 14 if high and rank == 1 else rank

        cards = sorted(cards, key=place)
    parts: list[str] = []
    ranks: list[str] = []
    suit = None

    def close() -> None:
        if ranks:
            parts.append(f"{', '.join(ranks)} of {SUIT_WORDS[suit]}")  # type: ignore[index]
            ranks.clear()

    for card in cards:
        if card in stands or card.joker:
            close()
            parts.append(f"{card.name} as {stands[card].name}" if card in stands else card.name)
            suit = None
            continue
        if card.suit is not suit:
            close()
            suit = card.suit
        ranks.append(RANK_WORDS.get(card.rank, str(int(card.rank))))  # type: ignore[arg-type]
    close()
    return ", ".join(parts)


def parse_cards(texts) -> list[Card]:
    """Parse a list of card codes, or one space- or comma-separated string."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t) for t in texts]


def count(cards) -> int:
    """A hand's count: the sum of its card values (jokers are worth 0)."""
    total = 0
    for c in cards:  # a plain loop: the fastest way in CPython 3.11 for a hand of a few cards
        total += c.value
    return total


def sorted_hand(cards) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)


def _fast_shuffle_applies() -> bool:
    """Whether `shuffle` reproduces random.Random.shuffle: CPython's randbelow by getrandbits."""
    return random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


_FAST_SHUFFLE = _fast_shuffle_applies()
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(cards: list, rng: random.Random) -> None:
    """Shuffle `cards` in place exactly as `rng.shuffle(cards)` would.

    Same draws from the generator in the same order, so every seeded deal, record and
    test is unchanged; but without `random.shuffle`'s two method calls per card (about
    three times faster): the engine shuffles a deck for every hand it deals and every
    hand a computer player imagines. Other generators (a subclass, SystemRandom) use
    their own `shuffle`.
    """
    if not _FAST_SHUFFLE or type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    size = len(cards)
    steps = _SHUFFLE_STEPS.get(size)
    if steps is None:
        # CPython's shuffle: for i from the end, j = randbelow(i + 1), where randbelow(n)
        # draws getrandbits(n.bit_length()) until the draw is below n.
        steps = _SHUFFLE_STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
