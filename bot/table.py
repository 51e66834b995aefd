"""A table's life, as data: seats, status, totals and the hand in play, changed only by operations.

This is the engine's shape one level up (pokerkit's state plus operations). A `Table` is
frozen; every operation either returns the new table and the events it caused, or raises
a `UserError` that says why and changes nothing. Nothing here touches Discord, asyncio or
the store: `TableService` loads a table, operates, saves it and publishes the events.

    lobby ──start──▶ playing ──hand over──▶ between hands ──next hand──▶ playing
      ▲                                  │
      └──── leave (fewer than 2 left) ◀──┘        any ──end / everyone left / idle──▶ closed

`to_json`/`from_json` are the one place a table becomes data and back (schema version
`SCHEMA`); `public()` is what everyone at the channel may see, with no card of any hand
before the showdown.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine import (DRAW, KINDS, START, Action, Card, Discard, Game, Outcome, PublicEvent, PublicSpread, Rules,
                    cut_for_dealer, next_dealer)
from engine.game import MAX_PLAYERS, MIN_PLAYERS

from bot.errors import StaleView, UserError

SCHEMA = 2
"""Version of the table JSON. 1 was the untyped bookkeeping dict, which version 2 reads unchanged."""
COMPUTER_NAMES = ("Goblin", "One-Eye", "Elmo", "Otto", "Hagop", "Silent", "Candy", "Pawnbroker")
TIMEOUTS_BEFORE_AWAY = 3


class Status(StrEnum):
    """Where a table is in its life (see the diagram above)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    CLOSED = "closed"


class SeatKind(StrEnum):
    """A person (by Discord user id) or a computer player (by level)."""

    HUMAN = "human"
    COMPUTER = "computer"


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"

    @property
    def searches(self) -> bool:
        """Whether a decision at this level is a search (up to its time budget, about 0.2 s of
        CPU): the bot makes those in a worker thread, off the event loop."""
        return self is Level.EXPERT


AWAY_LEVEL = Level.NORMAL
"""How well the computer plays the seat of a person who timed out three times."""


class Scoring(StrEnum):
    """Stakes: zero-sum points; push-ups: counted up, low is good."""

    STAKES = "stakes"
    PUSHUPS = "pushups"


OutcomeKind = StrEnum("OutcomeKind", {kind.upper(): kind for kind in KINDS})  # type: ignore[misc]
"""How a hand ended: the engine's `Outcome.kind` values, as an enum."""


def capacity(rules: Rules) -> int:
    """How many seats a table with these rules has (the engine's player limits)."""
    return max(MIN_PLAYERS, min(MAX_PLAYERS, rules.max_players()))


def level_of(value: str) -> Level:
    try:
        return Level(value)
    except ValueError:
        raise UserError(f"Computer players are {', '.join(Level)}.") from None


def highest_card(hand) -> Card:
    """What a timed-out seat throws: the highest count, then the highest rank."""
    return max(hand, key=lambda c: (c.value, c.sort_key))


# ---------------------------------------------------------------------------- seats and events

@dataclass(frozen=True, slots=True)
class Seat:
    kind: SeatKind
    name: str
    user_id: int | None = None
    level: Level | None = None
    away: bool = False
    """Three time-outs in a row: a computer plays the seat until the person presses I'm back."""
    timeouts: int = 0
    total: int = 0
    pushups: int = 0

    @classmethod
    def human(cls, user_id: int, name: str) -> "Seat":
        return cls(SeatKind.HUMAN, name, user_id=user_id)

    @classmethod
    def computer(cls, name: str, level: Level) -> "Seat":
        return cls(SeatKind.COMPUTER, f"{name} ({level})", level=level)

    @property
    def is_human(self) -> bool:
        return self.kind is SeatKind.HUMAN

    @property
    def played_by_computer(self) -> bool:
        return not self.is_human or self.away

    @property
    def computer_level(self) -> Level:
        return self.level or AWAY_LEVEL


@dataclass(frozen=True, slots=True)
class Ping:
    """The channel message that told a person it is their turn (kept so it is sent once and removed)."""

    message_id: int
    turn: str


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at a table. What a seat sees may have changed with any of them."""


@dataclass(frozen=True, slots=True)
class SeatEvent(Event):
    """Something that happened to one seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatTaken(SeatEvent):
    """A person joined or a computer player was added, at seat `seat`."""

    name: str


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A new hand was dealt: every seat has new cards."""

    hand_number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class SeatLeft(SeatEvent):
    """The player at `seat` left (between hands or in the lobby); later seats move up one."""

    name: str


@dataclass(frozen=True, slots=True)
class Played(SeatEvent):
    """`seat` made a play (by a computer for a computer seat, an away seat, or a time-out).
    Everyone sees it in the history; the hand and the legal plays of `seat` changed."""

    action: Action
    by_computer: bool = False


@dataclass(frozen=True, slots=True)
class TimedOut(SeatEvent):
    """The player at `seat` ran out of time; the plays made for them follow."""


@dataclass(frozen=True, slots=True)
class TurnStarted(SeatEvent):
    """The turn passed to `seat` (who now has plays; the previous player has none)."""

    turn: str
    """The turn key (`hand:turn`): timers and pings compare it."""
    by_computer: bool


@dataclass(frozen=True, slots=True)
class SeatAway(SeatEvent):
    """Three time-outs in a row: a computer plays `seat` until its player is back."""


@dataclass(frozen=True, slots=True)
class HandOver(Event):
    """The hand ended: everyone sees every hand (the showdown) and the totals changed."""

    hand_number: int
    hand_id: str
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class SeatBack(SeatEvent):
    """The player at `seat` took their seat back from the computer."""


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table closed (ended, everyone left, or idle): nothing more happens at it."""

    reason: str


# ---------------------------------------------------------------------------- the public view

@dataclass(frozen=True, slots=True)
class PublicSeat:
    name: str
    kind: SeatKind
    user_id: int | None
    is_host: bool
    cards: int | None
    """Cards held (None when no hand is dealt)."""
    total: int
    pushups: int
    away: bool
    waiting: int
    is_dealer: bool
    is_turn: bool
    showdown: tuple[Card, ...] | None = None
    """The hand, shown only once the hand is over."""


@dataclass(frozen=True, slots=True)
class PublicTable:
    """What everyone at the channel may see: no card of any hand before the showdown, no stock."""

    id: int
    status: Status
    rules: Rules
    stake: int
    scoring: Scoring
    capacity: int
    hand_number: int
    seats: tuple[PublicSeat, ...]
    turn: int | None = None
    phase: str | None = None
    spreads: tuple[PublicSpread, ...] = ()
    discard_top: Card | None = None
    stock_size: int = 0
    history: tuple[PublicEvent, ...] = ()
    cuts: str | None = None
    outcome: Outcome | None = None
    closed_reason: str | None = None
    timer_plays: frozenset[int] = frozenset()
    """Which entries of `history` the turn timer played for a player who ran out of time."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def anyone_away(self) -> bool:
        return any(s.away for s in self.seats)


# ---------------------------------------------------------------------------- the table

@dataclass(frozen=True, slots=True)
class Table:
    id: int
    guild_id: int
    channel_id: int
    host_user_id: int
    rules: Rules
    stake: int
    scoring: Scoring
    seats: tuple[Seat, ...]
    status: Status = Status.LOBBY
    hand_number: int = 0
    dealer: int | None = None
    game: Game | None = field(default=None, compare=False)
    """The hand in play or just finished. Never changed in place: operations play on a copy."""
    cuts: str | None = None
    lobby_since: float = 0.0
    closed_reason: str | None = None
    message_id: int | None = None
    ping: Ping | None = None
    timer_plays: tuple[int, ...] = ()
    """Positions in the hand's log of the plays the turn timer made (the log says so)."""
    moves: int = 0
    """Grows with every operation that changes what someone sees; a private hand message
    carries it, so a click on an older one is refused (`StaleView`)."""
    version: int = 0
    """The store's version this table was loaded at (not part of the JSON)."""

    # ------------------------------------------------------------------ queries

    @property
    def capacity(self) -> int:
        return capacity(self.rules)

    @property
    def hand_id(self) -> str:
        return f"{self.id}-{self.hand_number}"

    @property
    def is_open(self) -> bool:
        return self.status is not Status.CLOSED

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.is_human and seat.user_id == user_id:
                return i
        return None

    def seat_required(self, user_id: int) -> int:
        """The user's seat, or a refusal for someone not seated here."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        return seat

    @property
    def in_play(self) -> bool:
        return self.status is Status.PLAYING and self.game is not None and not self.game.over

    @property
    def turn_key(self) -> str | None:
        """Identifies the turn in play: timers and pings compare it."""
        if not self.in_play:
            return None
        return f"{self.hand_number}:{self.game.turns}"  # type: ignore[union-attr]

    @property
    def to_act(self) -> int | None:
        return self.game.turn if self.in_play else None  # type: ignore[union-attr]

    @property
    def is_computer_turn(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].played_by_computer

    def seat_view(self, seat: int):
        """What one seat may see (the engine's `SeatView`); None when no hand is dealt."""
        return self.game.view(seat) if self.game is not None else None

    def public(self) -> PublicTable:
        game = self.game
        over = game is not None and game.over
        seats = []
        for i, seat in enumerate(self.seats):
            seats.append(PublicSeat(
                name=seat.name, kind=seat.kind, user_id=seat.user_id,
                is_host=seat.is_human and seat.user_id == self.host_user_id,
                cards=len(game.hands[i]) if game is not None else None,
                total=seat.total, pushups=seat.pushups, away=seat.away,
                waiting=game.waits[i] if game is not None and self.rules.waiting else 0,
                is_dealer=game is not None and i == game.dealer,
                is_turn=self.in_play and i == game.turn,  # type: ignore[union-attr]
                showdown=tuple(game.hands[i]) if over else None,  # type: ignore[union-attr]
            ))
        base = PublicTable(
            id=self.id, status=self.status, rules=self.rules, stake=self.stake, scoring=self.scoring,
            capacity=self.capacity, hand_number=self.hand_number, seats=tuple(seats),
            cuts=self.cuts if self.hand_number == 1 else None, closed_reason=self.closed_reason,
        )
        if game is None:
            return base
        # the public side of any seat's view: its hand and legal plays are dropped here
        history = game.view(game.turn).history
        return replace(
            base, turn=game.turn if not over else None, phase=game.phase,
            spreads=tuple(PublicSpread(s.owner, s.kind, tuple(s.cards)) for s in game.spreads),
            discard_top=game.discard_top, stock_size=len(game.stock), history=history, outcome=game.outcome,
            timer_plays=frozenset(self.timer_plays),
        )

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, *, guild_id: int, channel_id: int, host_id: int, host_name: str, rules: Rules, stake: int,
             scoring: Scoring, computers: int = 0, level: Level = Level.NORMAL, now: float = 0.0) -> "Table":
        """A new lobby (id 0 until the store gives it one)."""
        cap = capacity(rules)
        if computers < 0 or 1 + computers > cap:
            raise UserError(f"This table seats {cap}: add at most {cap - 1} computer players.")
        seats = (Seat.human(host_id, host_name),) + tuple(
            Seat.computer(COMPUTER_NAMES[i], level) for i in range(computers))
        return cls(id=0, guild_id=guild_id, channel_id=channel_id, host_user_id=host_id, rules=rules, stake=stake,
                   scoring=scoring, seats=seats, lobby_since=now)

    # ------------------------------------------------------------------ lobby operations

    def _changed(self, **changes: Any) -> "Table":
        return replace(self, moves=self.moves + 1, **changes)

    def _seat(self, seat: Seat, when: str, now: float) -> tuple["Table", list[Event]]:
        """Seat a newcomer: in the lobby at the end; between hands at the dealer's right, so the
        deal still passes to the player on the dealer's left and the newcomer deals last."""
        if self.status not in (Status.LOBBY, Status.BETWEEN_HANDS):
            raise UserError(f"A hand is in play: {when}.")
        if len(self.seats) >= self.capacity:
            raise UserError("This table is full.")
        if self.status is Status.BETWEEN_HANDS and self.dealer is not None:
            index = self.dealer
            # the finished hand is ledgered already; the next deal starts from these seats
            table = self._changed(seats=self.seats[:index] + (seat,) + self.seats[index:], lobby_since=now,
                                  dealer=self.dealer + 1, game=None)
            return table, [SeatTaken(index, seat.name)]
        table = self._changed(seats=self.seats + (seat,), lobby_since=now)
        return table, [SeatTaken(len(self.seats), seat.name)]

    def join(self, user_id: int, name: str, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        if self.seat_of(user_id) is not None:
            raise UserError("You are already seated at this table.")
        return self._seat(Seat.human(user_id, name), "join when it ends", now)

    def add_computer(self, user_id: int, level: Level, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        if self.seat_of(user_id) is None:
            raise UserError("Only seated players can add computer players.")
        taken = {s.name.split(" (")[0] for s in self.seats if not s.is_human}
        name = next(n for n in COMPUTER_NAMES if n not in taken)
        return self._seat(Seat.computer(name, level), "add computer players when it ends", now)

    def leave(self, user_id: int, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        seat = self.seat_required(user_id)
        if self.status is Status.PLAYING:
            raise UserError("A hand is in play: finish it first (or ask the host to /tonk end).")
        seats = self.seats[:seat] + self.seats[seat + 1:]
        events: list[Event] = [SeatLeft(seat, self.seats[seat].name)]
        humans = [s for s in seats if s.is_human]
        if not humans:
            closed, more = self._close("Everyone left.")
            return closed, events + more
        changes: dict[str, Any] = {"seats": seats, "lobby_since": now}
        if self.host_user_id == user_id:
            changes["host_user_id"] = humans[0].user_id
        if self.status is Status.BETWEEN_HANDS:
            # the finished hand is ledgered already; the next deal starts from these seats
            changes["game"] = None
            dealer = self.dealer or 0
            if seat < dealer or (seat == dealer and seat > 0):
                dealer -= 1  # the deal still passes to the player who sat on the dealer's left
            elif seat == dealer:
                dealer = len(seats) - 1
            changes["dealer"] = dealer % len(seats)
            if len(seats) < MIN_PLAYERS:
                changes["status"] = Status.LOBBY
        return self._changed(**changes), events

    def start(self, user_id: int, rng: random.Random) -> tuple["Table", list[Event]]:
        if self.status is not Status.LOBBY:
            raise UserError("This table has already started.")
        if user_id != self.host_user_id:
            raise UserError("Only the host can start the table.")
        if len(self.seats) < MIN_PLAYERS:
            raise UserError("Tonk needs at least 2 players: wait for someone to join, or add a computer player.")
        dealer, rounds = cut_for_dealer(len(self.seats), rng)
        names = [s.name for s in self.seats]
        cut_text = ", ".join(f"{names[i]} {c.label}" for i, c in enumerate(rounds[-1]) if c is not None)
        table = replace(self, cuts=f"Cut for the deal: {cut_text}. {names[dealer]} deals.")
        return table._deal(dealer, self.hand_number + 1, rng)

    def next_hand(self, user_id: int, rng: random.Random) -> tuple["Table", list[Event]]:
        if self.status is not Status.BETWEEN_HANDS:
            raise UserError("The next hand can be dealt only when the last one is over.")
        if self.seat_of(user_id) is None:
            raise UserError("Only seated players can deal the next hand.")
        return self._deal(next_dealer(self.dealer or 0, len(self.seats)), self.hand_number + 1, rng)

    def _deal(self, dealer: int, hand_number: int, rng: random.Random) -> tuple["Table", list[Event]]:
        game = Game.deal(self.rules, [s.name for s in self.seats], dealer,
                         rng=random.Random(rng.getrandbits(64)), stake=self.stake)
        seats = tuple(replace(s, away=False, timeouts=0) for s in self.seats)
        table = self._changed(status=Status.PLAYING, dealer=dealer, hand_number=hand_number, game=game, seats=seats,
                              timer_plays=())
        return table._settle([HandDealt(hand_number, dealer)])  # a tonk on the deal ends the hand at once

    # ------------------------------------------------------------------ play

    def _playing_seat(self, user_id: int) -> int:
        seat = self.seat_required(user_id)
        if not self.in_play:
            raise UserError("No hand is being played at this table right now.")
        return seat

    def act(self, user_id: int, action: Action, *, moves: int | None = None) -> tuple["Table", list[Event]]:
        """A person's play. `moves` (from a private hand message) refuses a click on an older message."""
        seat = self._playing_seat(user_id)
        if moves is not None and moves != self.moves:
            raise StaleView("That view is out of date; here is your hand as it is now.")
        if self.seats[seat].away:
            raise UserError("A computer player has your seat: press I'm back on the table first.")
        game = self.game.copy()  # type: ignore[union-attr]
        game.apply(seat, action)  # raises and changes nothing when illegal
        seats = _with_seat(self.seats, seat, timeouts=0)
        return self._changed(game=game, seats=seats)._settle([Played(seat, action)], self)

    def computer_turn(self) -> tuple[Level, int, Any] | None:
        """(level, seed, seat view) of the computer player to act, or None when no computer plays now."""
        if not self.is_computer_turn:
            return None
        game = self.game
        seat = game.turn  # type: ignore[union-attr]
        seed = hash((self.id, self.hand_number, len(game.log))) & 0xFFFFFFFF  # type: ignore[union-attr]
        return self.seats[seat].computer_level, seed, game.view(seat)  # type: ignore[union-attr]

    def computer_play(self, choose: Callable[[Level, int, Any], Action]) -> tuple["Table", list[Event]]:
        """If a computer plays the seat to act, make one play; `choose(level, seed, seat_view)` picks it."""
        turn = self.computer_turn()
        if turn is None:
            return self, []
        action = choose(*turn)
        game = self.game.copy()  # type: ignore[union-attr]
        seat = game.turn
        game.apply(seat, action)
        return self._changed(game=game)._settle([Played(seat, action, by_computer=True)], self)

    def time_out(self, turn: str) -> tuple["Table", list[Event]]:
        """The seat to act ran out of time: draw, discard the highest card, never drop.
        Nothing happens (no events) if that turn is over or a computer plays it."""
        if self.turn_key != turn or self.is_computer_turn:
            return self, []
        game = self.game.copy()  # type: ignore[union-attr]
        seat = game.turn
        events: list[Event] = [TimedOut(seat)]
        played = list(self.timer_plays)
        if game.phase == START:
            played.append(len(game.log))
            game.apply(seat, DRAW)
            events.append(Played(seat, DRAW, by_computer=True))
        if not game.over:
            discard = Discard(highest_card(game.hands[seat]))
            played.append(len(game.log))
            game.apply(seat, discard)
            events.append(Played(seat, discard, by_computer=True))
        timeouts = self.seats[seat].timeouts + 1
        away = timeouts >= TIMEOUTS_BEFORE_AWAY
        if away and not self.seats[seat].away:
            events.append(SeatAway(seat))
        seats = _with_seat(self.seats, seat, timeouts=timeouts, away=away or self.seats[seat].away)
        return self._changed(game=game, seats=seats, timer_plays=tuple(played))._settle(events, self)

    def back(self, user_id: int) -> tuple["Table", list[Event]]:
        seat = self.seat_required(user_id)
        if not self.seats[seat].away:
            raise UserError("You are playing your own seat already.")
        table = self._changed(seats=_with_seat(self.seats, seat, away=False, timeouts=0))
        return table, [SeatBack(seat)] + table._turn_event()

    def _settle(self, events: list[Event], before: "Table | None" = None) -> tuple["Table", list[Event]]:
        """After a deal or a play (from `before`): a hand that ended is added to the totals,
        else a turn that began is announced."""
        game = self.game
        assert game is not None
        if not game.over:
            started = before is None or before.turn_key != self.turn_key
            return self, events + (self._turn_event() if started else [])
        out = game.outcome
        assert out is not None
        seats = tuple(replace(s, total=s.total + pay, pushups=s.pushups + push)
                      for s, pay, push in zip(self.seats, out.payments, out.pushups))
        table = replace(self, status=Status.BETWEEN_HANDS, seats=seats)
        return table, events + [HandOver(self.hand_number, self.hand_id, out)]

    def _turn_event(self) -> list[Event]:
        key = self.turn_key
        if key is None:
            return []
        return [TurnStarted(self.to_act, key, self.is_computer_turn)]  # type: ignore[arg-type]

    # ------------------------------------------------------------------ closing and bookkeeping

    def end(self, user_id: int, name: str, *, is_admin: bool = False) -> tuple["Table", list[Event]]:
        """Close the table (host or Manage Server). An unfinished hand pays nothing."""
        if user_id != self.host_user_id and not is_admin:
            raise UserError("Only the host or a member with Manage Server can end this table.")
        reason = f"Ended by {name}."
        if self.status is Status.PLAYING:
            reason += " The unfinished hand pays nothing."
        return self._close(reason)

    def close_idle(self, now: float, idle_seconds: float) -> tuple["Table", list[Event]]:
        if self.status is not Status.LOBBY or now - self.lobby_since < idle_seconds:
            return self, []
        return self._close("The lobby was idle for too long.")

    def _close(self, reason: str) -> tuple["Table", list[Event]]:
        return self._changed(status=Status.CLOSED, closed_reason=reason), [TableClosed(reason)]

    def with_message(self, message_id: int) -> "Table":
        return replace(self, message_id=message_id)

    def with_ping(self, ping: Ping | None) -> "Table":
        return replace(self, ping=ping)

    # ------------------------------------------------------------------ JSON, in one place

    def to_json(self) -> dict[str, Any]:
        """Everything about the table as JSON data; `from_json` restores it exactly (but `version`)."""
        return {
            "schema": SCHEMA,
            "id": self.id, "guild_id": self.guild_id, "channel_id": self.channel_id,
            "host_user_id": self.host_user_id, "rules": self.rules.to_dict(), "stake": self.stake,
            "scoring_mode": str(self.scoring), "status": str(self.status),
            "seats": [{"kind": str(s.kind), "user_id": s.user_id, "name": s.name,
                       "level": str(s.level) if s.level else None} for s in self.seats],
            "hand_number": self.hand_number, "dealer": self.dealer,
            "engine_state": self.game.to_json() if self.game is not None else None,
            "message_id": self.message_id,
            "bookkeeping": self._bookkeeping(),
        }

    def _bookkeeping(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "totals": [s.total for s in self.seats], "pushup_totals": [s.pushups for s in self.seats],
            "timeouts": [s.timeouts for s in self.seats],
            "away": [i for i, s in enumerate(self.seats) if s.away],
            "hand_id": self.hand_id, "cuts": self.cuts, "lobby_since": self.lobby_since,
            "closed_reason": self.closed_reason, "moves": self.moves, "timer_plays": list(self.timer_plays),
            "ping": {"message_id": self.ping.message_id, "turn": self.ping.turn} if self.ping else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, game: Game | None = None, version: int = 0) -> "Table":
        """A table from `to_json` data (or a schema-1 row). `game` reuses a hand already parsed."""
        book = data.get("bookkeeping") or {}
        if book.get("schema", 1) > SCHEMA:
            raise ValueError(f"table {data.get('id')} was saved by a newer bot (schema {book['schema']})")
        n = len(data["seats"])

        def per_seat(key: str, default: int = 0) -> list[int]:
            return (list(book.get(key) or []) + [default] * n)[:n]

        totals, pushups, timeouts = per_seat("totals"), per_seat("pushup_totals"), per_seat("timeouts")
        away = set(book.get("away") or [])
        seats = tuple(
            Seat(SeatKind(s["kind"]), s["name"], user_id=s.get("user_id"),
                 level=Level(s["level"]) if s.get("level") else None, away=i in away,
                 timeouts=timeouts[i], total=totals[i], pushups=pushups[i])
            for i, s in enumerate(data["seats"])
        )
        state = data.get("engine_state")
        if game is None and state is not None:
            game = Game.from_json(json.loads(state) if isinstance(state, str) else state)
        ping = book.get("ping")
        return cls(
            id=data["id"], guild_id=data["guild_id"], channel_id=data["channel_id"],
            host_user_id=data["host_user_id"], rules=Rules.from_dict(data["rules"]), stake=data["stake"],
            scoring=Scoring(data["scoring_mode"]), seats=seats, status=Status(data["status"]),
            hand_number=data["hand_number"], dealer=data["dealer"], game=game,
            cuts=book.get("cuts"), lobby_since=float(book.get("lobby_since") or 0.0),
            closed_reason=book.get("closed_reason"), message_id=data.get("message_id"),
            ping=Ping(ping["message_id"], ping["turn"]) if ping else None, moves=int(book.get("moves") or 0),
            timer_plays=tuple(book.get("timer_plays") or ()), version=version,
        )

    def columns(self, *, since: "Table | None" = None) -> dict[str, Any]:
        """The store's columns for this table; with `since`, only those that differ from it."""
        data = self.to_json() if since is None or self.game is not since.game else None
        if data is None:  # the hand did not change: do not serialise it again
            data = replace(self, game=None).to_json()
        columns = {key: data[key] for key in ("host_user_id", "status", "seats", "hand_number", "dealer",
                                              "message_id", "bookkeeping")}
        if since is None or self.game is not since.game:
            columns["engine_state"] = json.dumps(data["engine_state"]) if data["engine_state"] is not None else None
        return columns


def _with_seat(seats: tuple[Seat, ...], index: int, **changes: Any) -> tuple[Seat, ...]:
    return seats[:index] + (replace(seats[index], **changes),) + seats[index + 1:]
