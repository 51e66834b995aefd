"""Whole-session pieces of RULES.md section 10, as pure functions the bot can call.

- Side bets (high card, naturals): what each deal's bets are (`SideBet`), who wins them
  (the hand decides: `Game.side_winners`), and their settlement, zero-sum with the pot:
  `sum(side_payments) + pot_out - pot_in == 0`. `SidePot` keeps who paid what into a pot
  across hands, so a table that closes returns it to its payers.
- The big one: the last N hands at double stake.
- Joining between hands: a newcomer sits at the dealer's right and so deals last.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import Card, Suit
from .errors import RecordError, RulesError
from .text import t

SIDE_BET_KINDS = ("high_card", "naturals")
MAX_SIDE_STAKE = 1_000_000
MAX_POT = 10**12
BIG_ONE_HANDS = range(1, 11)
SUIT_CALLS = ("random", "spades")


@dataclass(frozen=True, slots=True)
class SideBet:
    """One side bet of one deal: who is in, the side stake each pays in, the pot before."""

    kind: str
    seats: tuple[int, ...]
    stake: int
    pot_in: int = 0
    suit: Suit | None = None  # high card: the called suit

    def to_record(self) -> dict:
        data: dict = {}
        if self.suit is not None:
            data["suit"] = self.suit.value
        data.update({"seats": list(self.seats), "stake": self.stake, "pot_in": self.pot_in})
        return data

    @property
    def pot(self) -> int:
        """What the pot holds once this deal's side stakes are in."""
        return self.pot_in + self.stake * len(self.seats)


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def side_bet(kind: str, seats, stake: int, pot_in: int = 0, suit: Suit | str | None = None,
             players: int = 6) -> SideBet:
    """Build and check one side bet; raise RulesError with a reason a player can read."""
    if kind not in SIDE_BET_KINDS:
        raise RulesError(t('There is no side bet called {kind}; use high_card or naturals.', kind=repr(kind)))
    seats = tuple(seats)
    if not all(_whole(s, 0, players - 1) for s in seats) or len(set(seats)) != len(seats):
        raise RulesError(t("The {kind} side bet's seats must be distinct seats of this table.", kind=kind))
    if not _whole(stake, 1, MAX_SIDE_STAKE):
        raise RulesError(t('A side stake is a whole number of points from 1 to {top}.', top=MAX_SIDE_STAKE))
    if not _whole(pot_in, 0, MAX_POT):
        raise RulesError(t('A side pot holds a whole, non-negative number of points.'))
    if kind == "high_card":
        if isinstance(suit, str):
            suit = next((s for s in Suit if s.value == suit), None)
        if not isinstance(suit, Suit):
            raise RulesError(t('The high card side bet needs its called suit (c, d, h or s).'))
    elif suit is not None:
        raise RulesError(t('Only the high card side bet calls a suit.'))
    return SideBet(kind, tuple(sorted(seats)), stake, pot_in, suit)


def side_bets_from_record(data, players: int, stake: int) -> dict[str, SideBet]:
    """The record's `side_bets` object as SideBets; RecordError names what is wrong."""
    if not isinstance(data, dict) or not data:
        raise RecordError(t('side_bets must be an object with high_card and/or naturals.'))
    bets = {}
    for kind, entry in data.items():
        if kind not in SIDE_BET_KINDS:
            raise RecordError(t('Unknown side bet {kind} (use high_card or naturals).', kind=repr(kind)))
        if not isinstance(entry, dict):
            raise RecordError(t('side_bets.{kind} must be an object.', kind=kind))
        allowed = {"seats", "stake", "pot_in"} | ({"suit"} if kind == "high_card" else set())
        extra = sorted(map(str, set(entry) - allowed))
        if extra:
            raise RecordError(t('side_bets.{kind} has unknown field(s) {extra}.', kind=kind, extra=list(extra)))
        seats = entry.get("seats")
        if not isinstance(seats, list):
            raise RecordError(t('side_bets.{kind}.seats must be a list of seats.', kind=kind))
        try:
            bets[kind] = side_bet(kind, seats, entry.get("stake"), entry.get("pot_in", 0), entry.get("suit"), players)
        except RulesError as exc:
            raise RecordError(str(exc)) from None
    return bets


def high_cards(bet: SideBet, hands) -> list[Card | None]:
    """Per seat, the card a high-card participant shows: its highest of the called suit
    (K high, A low), or None (not in, or holding none of the suit)."""
    shown: list[Card | None] = [None] * len(hands)
    for seat in bet.seats:
        suited = [c for c in hands[seat] if c.suit is bet.suit]
        if suited:
            shown[seat] = max(suited, key=lambda c: int(c.rank))
    return shown


def high_card_winner(shown) -> int | None:
    cards = [(int(c.rank), seat) for seat, c in enumerate(shown) if c is not None]
    return max(cards)[1] if cards else None


def settle_side_bets(bets: dict[str, SideBet], winners: dict[str, int | None],
                     players: int) -> tuple[list[int], dict[str, int]]:
    """(side_payments per seat, pot_out per bet): every participant pays its side stake
    in; a winner takes the whole pot (pot_in included); an unwon pot carries over."""
    payments = [0] * players
    pot_out: dict[str, int] = {}
    for kind in SIDE_BET_KINDS:
        bet = bets.get(kind)
        if bet is None:
            continue
        for seat in bet.seats:
            payments[seat] -= bet.stake
        winner = winners.get(kind)
        if winner is None:
            pot_out[kind] = bet.pot
        else:
            payments[winner] += bet.pot
            pot_out[kind] = 0
    assert sum(payments) + sum(pot_out.values()) - sum(b.pot_in for b in bets.values()) == 0
    return payments, pot_out


def call_suit(how: str, rng: random.Random) -> Suit:
    """The high card's suit for a deal: at random, or spades always."""
    if how not in SUIT_CALLS:
        raise RulesError(t('The high card suit is called at random or is spades always.'))
    return Suit.SPADES if how == "spades" else rng.choice(list(Suit))


@dataclass(slots=True)
class SidePot:
    """A side pot across hands: who has paid what into it since it was last won.

    `pay_in` at each deal, then `won_by` (the winner takes everything) or, when the
    table closes, `refund` (each payer gets back what they paid). Both return the
    points each player gets, keyed by whatever identifies players (user ids).
    """

    paid: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.paid.values())

    def pay_in(self, player, amount: int) -> None:
        self.paid[player] = self.paid.get(player, 0) + amount

    def won_by(self, player) -> dict:
        total = self.total
        self.paid = {}
        return {player: total} if total else {}

    def refund(self) -> dict:
        back, self.paid = dict(self.paid), {}
        return back


def big_one_stake(stake: int) -> int:
    """The stake of a hand of the big one: double the table's."""
    return 2 * stake


def check_big_one(hands: int) -> int:
    """The host calls the big one for the last N hands, N from 1 to 10."""
    if not _whole(hands, BIG_ONE_HANDS.start, BIG_ONE_HANDS.stop - 1):
        raise RulesError(t('The big one is called for the last 1 to 10 hands.'))
    return hands


def seat_newcomer(players: list, dealer: int, newcomer) -> tuple[list, int, int]:
    """Seat a newcomer between hands at the dealer's right, so that they deal last.

    `dealer` is the seat of the hand just played; returns (players in their new seat
    order, that dealer's new seat, the newcomer's seat). The next deal passes to the left
    of the returned dealer as always, so the newcomer deals after everyone else.
    Seats run clockwise and "left" is the next seat, so the dealer's right is just
    before the dealer: the newcomer takes the dealer's seat number and everyone from
    the dealer on moves up one.
    """
    if not 0 <= dealer < len(players):
        raise RulesError(t('The dealer must be one of the seats.'))
    seated = list(players[:dealer]) + [newcomer] + list(players[dealer:])
    return seated, dealer + 1, dealer
