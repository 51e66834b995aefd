"""What one seat may see: its own hand, the table, and the public history.

Computer players and the bot's private hand messages work from a `SeatView` alone, so
nothing hidden (other hands, the stock order) can leak through them. Other players'
cards appear only once the hand is over (the showdown).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card, count
from .outcome import Outcome
from .rules import Rules


@dataclass(frozen=True, slots=True)
class PublicSpread:
    owner: int
    kind: str
    cards: tuple[Card, ...]
    named: tuple[tuple[Card, Card], ...] = ()  # (wild card, the card it stands for)

    def natural(self) -> tuple[Card, ...]:
        """The cards as they count in the spread: each wild card as the card it stands for."""
        if not self.named:
            return self.cards
        named = dict(self.named)
        return tuple(named.get(c, c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One action as the whole table saw it. `card` is the card that became known
    (the taken discard, the discard, the hit card, the slapped discard, the wild card a
    swap took into hand); None for a draw from the stock."""

    seat: int
    action: Action
    card: Card | None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rules: Rules
    players: tuple[str, ...]
    dealer: int
    stake: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    spreads: tuple[PublicSpread, ...]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    turn: int
    phase: str
    waits: tuple[int, ...]
    drop_blocked: bool
    history: tuple[PublicEvent, ...]
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None
    showdown: tuple[tuple[Card, ...], ...] | None
    upcard: Card | None
    to_act: int = -1  # the seat the hand waits for (a slapper's extra discard, or `turn`)
    side_cards: tuple[Card | None, ...] = ()  # high-card side bet: each seat's shown card, public
    slappers: tuple[int, ...] = ()  # seats that may slap now

    @classmethod
    def of(cls, game, seat: int) -> "SeatView":
        over = game.outcome is not None
        return cls(
            seat=seat,
            rules=game.rules,
            players=tuple(game.players),
            dealer=game.dealer,
            stake=game.stake,
            hand=tuple(game.hands[seat]),
            hand_sizes=tuple(len(h) for h in game.hands),
            spreads=tuple(PublicSpread(s.owner, s.kind, tuple(s.cards), tuple(s.named.items()) if s.named else ())
                          for s in game.spreads),
            discard_top=game.discard[-1] if game.discard else None,
            discard_size=len(game.discard),
            stock_size=len(game.stock),
            turn=game.turn,
            phase=game.phase,
            waits=tuple(game.waits),
            drop_blocked=game.drop_blocked if game.turn == seat else False,
            history=public_history(game),
            legal_actions=tuple(game.legal_actions(seat)),
            outcome=game.outcome,
            showdown=tuple(tuple(h) for h in game.hands) if over else None,
            upcard=game.deck[game.rules.hand_size * len(game.players)] if game.rules.upcard else None,
            to_act=game.to_act,
            side_cards=tuple(game.side_cards),
            slappers=() if over else tuple(game.slappers()),
        )

    @property
    def count(self) -> int:
        if self.rules.face_values == "ranked":
            return sum(self.rules.card_value(c) for c in self.hand)
        return count(self.hand)

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat and self.outcome is None

    def seen_cards(self) -> set[Card]:
        """Every card this seat has seen: its hand, the table, the upcard and every discard."""
        seen = set(self.hand)
        for spread in self.spreads:
            seen.update(spread.cards)
        if self.upcard is not None:
            seen.add(self.upcard)
        seen.update(c for c in self.side_cards if c is not None)
        for event in self.history:
            if event.card is not None:
                seen.add(event.card)
            if event.action.verb == "spread":
                seen.update(event.action.cards)
        return seen


class PublicHistory:
    """The public side of a game's log, kept on the game (`game._public`) and extended
    only by the actions logged since it was last asked for: building a view costs the
    new actions, not a replay of the whole log. It follows the discard pile (which card a
    take or a slap picked up) and the stock's size (when a reshuffle, a house rule, turned
    the pile into a new stock)."""

    __slots__ = ("log", "events", "pile", "stock", "swaps", "frozen")

    def __init__(self, game) -> None:
        rules = game.rules
        dealt = rules.hand_size * len(game.players)
        self.log = game.log  # the list this history follows (a game given a new log starts over)
        self.events: list[PublicEvent] = []
        self.pile: list[Card] = [game.deck[dealt]] if rules.upcard else []
        self.stock = len(game.deck) - dealt - len(self.pile)
        self.swaps = 0  # swaps seen so far: game.swaps[i] is the wild card the i-th took into hand
        self.frozen: tuple[PublicEvent, ...] = ()

    def copy_for(self, game) -> "PublicHistory":
        """This history for `game`, a copy of the game it follows (Game.copy): the events so
        far are shared, what follows is the copy's own."""
        twin = PublicHistory.__new__(PublicHistory)
        twin.log = game.log
        twin.events = list(self.events)
        twin.pile = list(self.pile)
        twin.stock = self.stock
        twin.swaps = self.swaps
        twin.frozen = self.frozen
        return twin

    def extend(self, game) -> tuple[PublicEvent, ...]:
        events, pile = self.events, self.pile
        log = game.log
        if len(events) == len(log):
            return self.frozen
        rules = game.rules
        for who, action in log[len(events):]:
            verb = action.verb
            card = None
            if verb == "slap":
                last = events[-1] if events else None
                if last is not None and last.action.verb == "slap" and last.seat != who:
                    card = last.card  # next player first: the same discard, slapped over again
                else:
                    card = pile.pop()
            elif verb == "take":
                card = pile.pop()
            elif verb == "swap":
                card = game.swaps[self.swaps]
                self.swaps += 1
            elif verb == "discard":
                pile.append(action.card)
                card = action.card
            elif verb == "hit":
                card = action.card
            elif verb == "draw":
                if self.stock == 0 and rules.can_reshuffle(len(pile)):
                    self.stock = len(pile) - 1
                    del pile[:-1]
                self.stock = max(self.stock - 1, 0)
            events.append(PublicEvent(who, action, card))
        self.frozen = tuple(events)
        return self.frozen


def public_history(game) -> tuple[PublicEvent, ...]:
    """Every action of `game` as the whole table saw it, in order: one tuple per length
    of the log, shared by every view built at that point."""
    history = game._public
    if history is None or history.log is not game.log or len(history.events) > len(game.log):
        history = game._public = PublicHistory(game)
    return history.extend(game)
