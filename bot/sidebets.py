"""The side bets of a table (RULES.md section 10), as a value of their own.

The host sets them, players opt in, each deal plays those with two or more players in, and
each pot grows until someone wins it. `SideBets` holds what lasts between hands (which bets,
the side stake, who is in, what each has paid into each pot); its methods return the new value
and say what changed, and `bot.table.Table` checks who may ask and emits the events.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from engine import Card, Suit
from engine.session import SIDE_BET_KINDS, SidePot, call_suit, side_bet

from bot.errors import UserError
from engine.text import Text, t, tc, tn

SIDE_BET_NAMES = {"high_card": tc("side bet", "high card"), "naturals": tc("side bet", "naturals")}
MIN_SIDE_BETTORS = 2
"""A side bet is played at a deal only with two or more players in it; else its pot waits."""


@dataclass(frozen=True, slots=True)
class SideBets:
    """The table's side bets (RULES.md section 10), set by the host, kept across hands.

    `players` (user ids) are in at every deal until they opt out. `pots` holds, per side
    bet, what each player has paid into its pot since it was last won: owed by them, not
    taken from their balance, until someone wins the pot (then the ledger moves it) or
    it is returned (the table closes, the host turns that bet off, or the player leaves).
    """

    kinds: tuple[str, ...] = ()
    stake: int = 1
    suit_call: str = "random"
    players: tuple[int, ...] = ()
    pots: dict[str, dict[int, int]] = field(default_factory=dict)

    @property
    def on(self) -> bool:
        return bool(self.kinds)

    def pot(self, kind: str) -> SidePot:
        return SidePot(dict(self.pots.get(kind, {})))

    def total(self, kind: str | None = None) -> int:
        return sum(sum(self.pots.get(k, {}).values()) for k in ((kind,) if kind else SIDE_BET_KINDS))

    def without(self, user_id: int) -> "SideBets":
        """This player out of the bets, their share of every pot returned."""
        pots = {k: {u: a for u, a in paid.items() if u != user_id} for k, paid in self.pots.items()}
        return replace(self, players=tuple(u for u in self.players if u != user_id),
                       pots={k: paid for k, paid in pots.items() if paid})

    def to_json(self) -> dict[str, Any]:
        return {"kinds": list(self.kinds), "stake": self.stake, "suit_call": self.suit_call,
                "players": list(self.players),
                "pots": {k: {str(u): a for u, a in paid.items()} for k, paid in self.pots.items() if paid}}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> "SideBets":
        if not data:
            return cls()
        return cls(tuple(data.get("kinds") or ()), int(data.get("stake") or 1), data.get("suit_call") or "random",
                   tuple(data.get("players") or ()),
                   {k: {int(u): int(a) for u, a in paid.items()} for k, paid in (data.get("pots") or {}).items()})

    # ------------------------------------------------------------------ what changes them

    def configured(self, kinds: tuple[str, ...], *, stake: int | None = None,
                   suit_call: str | None = None) -> tuple["SideBets", Text]:
        """Which bets are on (none: off), the side stake and how the suit is called; a bet turned
        off returns its pot to those who paid in. The new value and what the table says of it.
        A kind, stake or call that does not fit is a RulesError (a TonkError) and changes nothing."""
        stake = self.stake if stake is None else stake
        suit_call = self.suit_call if suit_call is None else suit_call
        for kind in kinds:
            side_bet(kind, (), stake, suit=Suit.SPADES if kind == "high_card" else None)
        call_suit(suit_call, random.Random(0))
        returned = sum(self.total(k) for k in SIDE_BET_KINDS if k not in kinds)
        pots = {k: paid for k, paid in self.pots.items() if k in kinds}
        kinds = tuple(k for k in SIDE_BET_KINDS if k in kinds)
        text = t("Side bets off.") if not kinds else t("Side bets: {bets}.", bets=side_bets_words(kinds, stake, suit_call))
        if returned:
            text = tn("{text} {n} point in pots went back to those who paid in.",
                      "{text} {n} points in pots went back to those who paid in.", returned, text=text)
        return replace(self, kinds=kinds, stake=stake, suit_call=suit_call, pots=pots), text

    def toggled(self, user_id: int) -> tuple["SideBets", bool]:
        """The player in at every deal from the next, or out again: the new value, and whether they are in."""
        if not self.on:
            raise UserError(t("The host has not turned side bets on (/tonk sidebets)."))
        if user_id in self.players:
            return replace(self, players=tuple(u for u in self.players if u != user_id)), False
        return replace(self, players=self.players + (user_id,)), True

    def to_deal(self, users: list[int | None], rng: random.Random) -> dict | None:
        """This deal's side bets for the engine (`users`: each seat's person, None for a computer):
        each bet with two or more players in it."""
        seats = tuple(i for i, u in enumerate(users) if u is not None and u in self.players)
        if not self.on or len(seats) < MIN_SIDE_BETTORS:
            return None
        suit = call_suit(self.suit_call, random.Random(rng.getrandbits(64))) if "high_card" in self.kinds else None
        return {kind: side_bet(kind, seats, self.stake, self.total(kind), suit if kind == "high_card" else None,
                               players=len(users))
                for kind in self.kinds}

    def settled(self, game, users: list[int | None]) -> tuple["SideBets", tuple[int, ...]]:
        """The finished hand's side stakes go into their pots; a pot won moves, in the ledger,
        from everyone who paid into it since it was last won to its winner. The new value, and
        per seat what the ledger moves (empty when no pot was won; zero-sum)."""
        dealt = game.side_bets if game is not None else None
        if not dealt:
            return self, ()
        winners = game.side_winners()
        seat_of = {u: i for i, u in enumerate(users)}
        pots = {k: dict(paid) for k, paid in self.pots.items()}
        moved = [0] * len(users)
        for kind, bet in dealt.items():
            pot = self.pot(kind)
            assert pot.total == bet.pot_in
            for seat in bet.seats:
                pot.pay_in(users[seat], bet.stake)
            winner = winners.get(kind)
            if winner is not None:
                for user, paid in pot.paid.items():
                    moved[seat_of[user]] -= paid  # every payer sits here: a leaver is paid back
                for user, won in pot.won_by(users[winner]).items():
                    moved[seat_of[user]] += won
            pots[kind] = pot.paid
        assert sum(moved) == 0
        return replace(self, pots={k: paid for k, paid in pots.items() if paid}), tuple(moved) if any(moved) else ()

    def public(self, game, seats, settled: tuple[int, ...]) -> "PublicSideBets | None":
        """The side bets as everyone sees them, with the hand dealt's (`game`, if any) bets."""
        dealt = game.side_bets if game is not None else {}
        if not self.on and not dealt:
            return None
        names = {s.user_id: s.name for s in seats if s.is_human}
        winners = game.side_winners() if dealt else {}
        hand = tuple(
            PublicSideBet(kind, bet.seats, bet.pot, bet.suit,
                          tuple(game.side_cards) if kind == "high_card" else (), winners.get(kind))
            for kind, bet in dealt.items())
        return PublicSideBets(
            kinds=self.kinds, stake=self.stake, suit_call=self.suit_call,
            players=tuple(names[u] for u in self.players if u in names),
            pots={kind: self.total(kind) for kind in SIDE_BET_KINDS if kind in self.kinds or self.total(kind)},
            hand=hand, settled=settled,
        )


@dataclass(frozen=True, slots=True)
class PublicSideBet:
    """One side bet of the hand dealt: its called suit, who is in, each seat's shown card."""

    kind: str
    seats: tuple[int, ...]
    pot: int
    """The pot with this deal's side stakes in."""
    suit: Suit | None = None
    shown: tuple[Card | None, ...] = ()
    winner: int | None = None
    """Known for the high card from the deal; for naturals once a book is laid."""


@dataclass(frozen=True, slots=True)
class PublicSideBets:
    """The side bets as everyone sees them (no card but the high-card ones shown to all)."""

    kinds: tuple[str, ...]
    stake: int
    suit_call: str
    players: tuple[str, ...]
    """The names of the players who are in at the next deal."""
    pots: dict[str, int]
    """What each pot holds between deals (carried over, not yet won)."""
    hand: tuple[PublicSideBet, ...] = ()
    """The bets of the hand dealt (or just finished)."""
    settled: tuple[int, ...] = ()
    """What the pots won in the hand just finished moved, per seat (zero-sum)."""


def plural_points(n: int) -> Text:
    return tn("{n} point", "{n} points", n)


def and_list(items) -> "Text | str":
    """Items as a sentence names them: `a`, `a and b`, `a, b and c` (each a name or a Text)."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    # TRANSLATORS: the end of a list in a sentence: "alice, bob and carol" ({items} is "alice, bob")
    return tc("list", "{items} and {last}", items=items[:-1], last=items[-1])


def side_bets_words(kinds, stake: int, suit_call: str) -> Text:
    """`high card (spades always) and naturals, 2 points a deal each`."""
    names = [(t("high card (spades always)") if suit_call == "spades" else t("high card (suit called at random)"))
             if k == "high_card" else SIDE_BET_NAMES[k] for k in kinds]
    return tn("{bets}, {n} point a deal each", "{bets}, {n} points a deal each", stake, bets=and_list(names))
