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
from itertools import repeat
from typing import Any

from engine import (DRAW, DROP, KINDS, START, Action, Card, Discard, Draw, Drop, Game, Hit, Outcome, PublicEvent,
                    PublicSpread, Rules, RulesError, Slap, Spread, Swap, TakeDiscard, cut_for_dealer,
                    next_dealer)
from engine.game import MAX_PLAYERS, MIN_PLAYERS
from engine.help import changed_rules, plain_refusal
from engine.house import SLAP_DISCARD
from engine.players.sessionmemory import SessionMemory
from engine.session import seat_newcomer

from bot.commands import (AddComputer, Back, CallBigOne, CloseIdle, Command, ComputerPlay, ComputerSlap, DealNext, End,
                          Join, Leave, NextHand, Play, Remove, SetConfirm, SetPreset, SetRule, SetSideBets,
                          SlapDiscard, Start, TakeOver, TimeOut, ToggleSideBets)
from bot.bigone import BigOne
from bot.errors import StaleView, UserError
from bot.sidebets import PublicSideBets, SideBets, and_list, plural_points
from engine.text import Text, as_text, t, tc, tn
from engine.textdata import text_from_data, to_data

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

    @property
    def remembers(self) -> bool:
        """Whether a computer player of this level keeps a session memory: what it learned of
        each other player over the table's hands (engine/players/sessionmemory.py)."""
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
        raise UserError(t("Computer players are {levels}.", levels=[str(level) for level in Level])) from None


def highest_card(hand) -> Card:
    """What a timed-out seat throws: the highest count, then the highest rank."""
    return max(hand, key=lambda c: (c.value, c.sort_key))


PICKS = (Spread, Hit, Discard, Swap)
"""Plays picked from a menu: a seat that confirms first is asked before they are played."""
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
    leaving: bool = False
    """The person left during a hand: a computer plays the seat out, and it goes before the next deal."""
    votes: tuple[int, ...] = ()
    """Who (user ids) asked to hand this idle seat to a computer player, this turn."""
    confirm: bool = False
    """The person confirms each pick from a menu before it is played (no costly mis-tap)."""

    @classmethod
    def human(cls, user_id: int, name: str, *, confirm: bool = False) -> "Seat":
        return cls(SeatKind.HUMAN, name, user_id=user_id, confirm=confirm)

    @classmethod
    def computer(cls, name: str, level: Level) -> "Seat":
        return cls(SeatKind.COMPUTER, f"{name} ({level})", level=level)

    @property
    def is_human(self) -> bool:
        return self.kind is SeatKind.HUMAN

    @property
    def played_by_computer(self) -> bool:
        return not self.is_human or self.away or self.leaving

    def votes_text(self, needed: int) -> Text:
        return tn("{votes} of the {n} needed to hand {name}'s seat to a computer player",
                  "{votes} of the {n} needed to hand {name}'s seat to a computer player",
                  needed, votes=len(self.votes), name=self.name)

    @property
    def present(self) -> bool:
        """A person who is at the table and playing their own seat."""
        return self.is_human and not self.away and not self.leaving

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
class ConfirmSet(SeatEvent):
    """The person at `seat` chose to confirm each pick (`on`) or to play picks at once."""

    on: bool


class AskFirst(Exception):
    """Not a refusal: the pick is legal, and its player confirms picks first. Nothing changed;
    `table` is the table as it is, `action` the pick to confirm."""

    def __init__(self, table: "Table", action: Action):
        super().__init__("confirm this pick first")
        self.table, self.action = table, action


@dataclass(frozen=True, slots=True)
class SeatLeaving(SeatEvent):
    """The player at `seat` left during a hand: a computer plays it out; the seat goes before the next deal."""

    name: str


@dataclass(frozen=True, slots=True)
class SeatRemoved(SeatEvent):
    """The host removed the seat `seat` (between hands or in the lobby); later seats move up one."""

    name: str


@dataclass(frozen=True, slots=True)
class TakeOverAsked(SeatEvent):
    """Someone asked to hand the idle seat `seat` to a computer player: `votes` of the `needed`."""

    votes: int
    needed: int


@dataclass(frozen=True, slots=True)
class HostChanged(Event):
    """The host left or is away: the person at `seat` hosts the table now."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class Played(SeatEvent):
    """`seat` made a play (by a computer for a computer seat, an away seat, or a time-out).
    Everyone sees it in the history; the hand and the legal plays of `seat` changed."""

    action: Action
    by_computer: bool = False
    drawn: Card | None = field(default=None, repr=False, compare=False)
    """The card a person's draw or take brought into their hand: for that seat's eyes only
    (the live runtime marks it in their private hand until the turn ends)."""


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
class RulesChanged(Event):
    """The host changed the house rules in the lobby."""


@dataclass(frozen=True, slots=True)
class SideBetsChanged(Event):
    """The host set the side bets, or a player opted in or out: what the table shows changed."""

    text: Text


@dataclass(frozen=True, slots=True)
class BigOneCalled(Event):
    """The host called the big one: the next `hands` hands at double stake, then the table closes."""

    hands: int


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table closed (ended, everyone left, or idle): nothing more happens at it."""

    reason: Text


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
    leaving: bool = False
    """Left during the hand: a computer plays it out; the seat goes before the next deal."""
    votes: int = 0
    """How many have asked to hand this seat to a computer player, this turn."""


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
    cuts: Text | None = None
    outcome: Outcome | None = None
    closed_reason: Text | None = None
    replayable: bool = True
    """A closed table may be played again (not once its server's data is deleted)."""
    timer_plays: frozenset[int] = frozenset()
    """Which entries of `history` the turn timer played for a player who ran out of time."""
    slap_window: int | None = None
    """House rule (slap): the open window's discard (see `Table.slap_window`), or None."""
    slappers: tuple[int, ...] = ()
    """The seats that may slap now."""
    side_bets: PublicSideBets | None = None
    big_one: int = 0
    """Hands left of the big one (the one in play included); 0 when it is not called."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def anyone_away(self) -> bool:
        """Is a seat someone may take back with I'm back (away, or left during this hand)?"""
        return any(s.away or (s.leaving and self.status is Status.PLAYING) for s in self.seats)


# ---------------------------------------------------------------------------- a tournament's table

@dataclass(frozen=True, slots=True)
class TournamentLink:
    """A table that is one table of a tournament's round (bot/tournament.py): it is dealt with
    every seat taken, plays `hands` hands and closes; nobody joins it; who leaves keeps the seat,
    played by a computer for the rest of the round (the result stays theirs), until I'm back."""

    tournament_id: int
    round: int
    number: int
    hands: int
    ledger: bool = False
    """The hands count in the server's ledger ("for the ledger"), not only in the tournament."""
    left: tuple[int, ...] = ()
    """Seats whose person left: a computer plays them at every deal of the round."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.tournament_id, "round": self.round, "number": self.number, "hands": self.hands,
                "ledger": self.ledger, "left": list(self.left)}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> "TournamentLink | None":
        if not data:
            return None
        return cls(data["id"], data["round"], data["number"], data["hands"], bool(data.get("ledger")),
                   tuple(data.get("left") or ()))


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
    cuts: Text | None = None
    """Who cut what for the first deal, and who deals."""
    lobby_since: float = 0.0
    closed_reason: Text | None = None
    replayable: bool = True
    """Play again may open a new lobby from it (False: closed as its server's data is deleted)."""
    message_id: int | None = None
    ping: Ping | None = None
    timer_plays: tuple[int, ...] = ()
    """Positions in the hand's log of the plays the turn timer made (the log says so)."""
    moves: int = 0
    """Grows with every operation that changes what someone sees; a private hand message
    carries it, so a click on an older one is refused (`StaleView`)."""
    version: int = 0
    """The store's version this table was loaded at (not part of the JSON)."""
    side_bets: SideBets = field(default_factory=SideBets)
    side_settled: tuple[int, ...] = ()
    """Per seat, what the side pots won in the hand just finished moved (zero-sum; the
    ledger books it with the hand). Empty when no pot was won."""
    big_one: BigOne = field(default_factory=BigOne)
    """The big one, if the host called it (bot/bigone.py)."""
    tournament: TournamentLink | None = None
    """Set on a table of a tournament's round."""
    memories: tuple[tuple[str, str], ...] = ()
    """Each remembering computer seat's session memory (`Level.remembers`), as (its `seat_key`,
    the memory's JSON): learned from that seat's own view of every hand it finished here."""
    _views: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    """The seats' views and the public view of this table, each built once (a table is frozen;
    `replace` makes a new one with none built)."""

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
            raise UserError(t("You are not seated at this table."))
        return seat

    @property
    def in_play(self) -> bool:
        return self.status is Status.PLAYING and self.game is not None and not self.game.over

    @property
    def turn_key(self) -> str | None:
        """Identifies the turn in play: timers and pings compare it. A slapper's extra
        discard (house rule: slap) is a turn of its own, named by where it falls in the log."""
        if not self.in_play:
            return None
        game = self.game
        key = f"{self.hand_number}:{game.turns}"  # type: ignore[union-attr]
        if game.to_act != game.turn or game.phase == SLAP_DISCARD:  # type: ignore[union-attr]
            key += f":slap{len(game.log)}"  # type: ignore[union-attr]
        return key

    @property
    def to_act(self) -> int | None:
        """The seat the hand waits for: the player whose turn it is, or a slapper's extra discard."""
        return self.game.to_act if self.in_play else None  # type: ignore[union-attr]

    @property
    def slap_window(self) -> int | None:
        """House rule (slap): while some seat may slap the top discard, where in the hand's log
        that discard was made (a Slap! click names it, so a late click cannot slap a later one)."""
        game = self.game
        if not self.in_play or game.rules.slap == "off" or not game.slappers():  # type: ignore[union-attr]
            return None
        return max(i for i, (_, a) in enumerate(game.log) if type(a) is Discard)  # type: ignore[union-attr]

    @property
    def is_computer_turn(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].played_by_computer

    def seat_view(self, seat: int):
        """What one seat may see (the engine's `SeatView`); None when no hand is dealt. Built once
        per table: every reader of this state (the reply, the live hands) shares it."""
        if self.game is None:
            return None
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(seat)
        return view

    def public(self) -> PublicTable:
        """What everyone at the channel may see (built once per table)."""
        public = self._views.get("public")
        if public is None:
            public = self._views["public"] = self._public()
        return public

    def _public(self) -> PublicTable:
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
                is_turn=self.in_play and i == game.to_act,  # type: ignore[union-attr]
                showdown=tuple(game.hands[i]) if over else None,  # type: ignore[union-attr]
                leaving=seat.leaving, votes=len(seat.votes),
            ))
        base = PublicTable(
            id=self.id, status=self.status, rules=self.rules, stake=self.stake, scoring=self.scoring,
            capacity=self.capacity, hand_number=self.hand_number, seats=tuple(seats),
            cuts=self.cuts if self.hand_number == 1 else None, closed_reason=self.closed_reason,
            replayable=self.replayable,
            side_bets=self.side_bets.public(self.game, self.seats, self.side_settled), big_one=self.big_one.hands_left,
        )
        if game is None:
            return base
        # the public side of any seat's view: its hand and legal plays are dropped here
        history = game.public_history()
        window = self.slap_window
        return replace(
            base, turn=game.to_act if not over else None, phase=game.phase,
            slap_window=window, slappers=tuple(game.slappers()) if window is not None else (),
            spreads=tuple(PublicSpread(s.owner, s.kind, tuple(s.cards), tuple(s.named.items()) if s.named else ())
                          for s in game.spreads),
            discard_top=game.discard_top, stock_size=len(game.stock), history=history, outcome=game.outcome,
            timer_plays=frozenset(self.timer_plays),
        )

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, *, guild_id: int, channel_id: int, host_id: int, host_name: str, rules: Rules, stake: int,
             scoring: Scoring, computers: int = 0, level: Level = Level.NORMAL, now: float = 0.0,
             host_confirms: bool = False) -> "Table":
        """A new lobby (id 0 until the store gives it one); `host_confirms`: the host confirms picks."""
        cap = capacity(rules)
        if computers < 0 or 1 + computers > cap:
            raise UserError(tn("This table seats {cap}: add at most {n} computer player.",
                               "This table seats {cap}: add at most {n} computer players.", cap - 1, cap=cap))
        seats = (Seat.human(host_id, host_name, confirm=host_confirms),) + tuple(
            Seat.computer(COMPUTER_NAMES[i], level) for i in range(computers))
        return cls(id=0, guild_id=guild_id, channel_id=channel_id, host_user_id=host_id, rules=rules, stake=stake,
                   scoring=scoring, seats=seats, lobby_since=now)

    @classmethod
    def for_tournament(cls, *, guild_id: int, channel_id: int, organiser_id: int, rules: Rules, stake: int,
                       scoring: Scoring, players: list[tuple[int, str]], link: TournamentLink,
                       now: float = 0.0) -> "Table":
        """A tournament table (id 0 until stored), every seat taken, hosted by the organiser."""
        if not MIN_PLAYERS <= len(players) <= capacity(rules):
            raise UserError(t("These house rules seat {low} to {high} at a table.", low=MIN_PLAYERS,
                              high=capacity(rules)))
        seats = tuple(Seat.human(user_id, name) for user_id, name in players)
        return cls(id=0, guild_id=guild_id, channel_id=channel_id, host_user_id=organiser_id, rules=rules,
                   stake=stake, scoring=scoring, seats=seats, lobby_since=now, tournament=link, replayable=False)

    def deal_first(self, rng: random.Random) -> tuple["Table", list[Event]]:
        """A tournament table's first deal: the cut, then the deal, with nobody to press Start."""
        assert self.tournament is not None and self.status is Status.LOBBY
        return self.start(self.host_user_id, rng)

    def again(self, user_id: int, name: str, *, now: float = 0.0) -> "Table":
        """Play again after this table closed: a new lobby (id 0 until stored) with the same
        seats but those who left, the same rules, stake and scoring, hosted by `user_id`, who
        must have sat here. Totals start from zero; the side bets and the big one are not carried."""
        if self.is_open:
            raise UserError(t("This table is still open: play on here."))
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError(t("Only the players of this table can play again: /tonk new opens a new table."))
        first = replace(self.seats[seat], name=name)
        seats = [first] + [s for i, s in enumerate(self.seats) if i != seat and not s.leaving]
        # a fresh seat each (no totals, not away), keeping whether its person confirms picks
        seats = [Seat(s.kind, s.name, user_id=s.user_id, level=s.level, confirm=s.confirm) for s in seats]
        return Table(id=0, guild_id=self.guild_id, channel_id=self.channel_id, host_user_id=user_id,
                     rules=self.rules, stake=self.stake, scoring=self.scoring, seats=tuple(seats), lobby_since=now)

    # ------------------------------------------------------------------ commands in, events out

    def apply(self, command: Command, *, now: float = 0.0,
              rng: random.Random | None = None) -> tuple["Table", list[Event]]:
        """Carry out `command`: the new table and what happened, or a `UserError` (a `TonkError`)
        that says why and changes nothing. `now` is the clock's time; `rng` deals and cuts."""
        match command:
            case Play(by=user, action=action, moves=moves, confirmed=confirmed, stop_asking=stop):
                return self.act(user, action, moves=moves, confirmed=confirmed, stop_asking=stop)
            case SetConfirm(by=user, on=on):
                seat = self.seat_required(user)
                if self.seats[seat].confirm == on:
                    return self, []
                return self._changed(seats=_with_seat(self.seats, seat, confirm=on)), [ConfirmSet(seat, on)]
            case ComputerPlay(turn=turn, action=action):
                if self.turn_key != turn:
                    return self, []  # the turn moved on while the computer thought
                return self.computer_play(lambda *_: action)
            case TimeOut(turn=turn):
                return self.time_out(turn)
            case Join(by=user, name=name, confirm=confirm):
                return self.join(user, name, now=now, confirm=confirm)
            case Leave(by=user):
                return self.leave(user, now=now)
            case AddComputer(by=user, level=level):
                return self.add_computer(user, level_of(level), now=now)
            case Start(by=user):
                return self.start(user, _needs(rng))
            case NextHand(by=user):
                return self.next_hand(user, _needs(rng))
            case DealNext(after=after):
                if self.status is not Status.BETWEEN_HANDS or self.hand_number != after or self.tournament is None:
                    return self, []  # dealt already, or closed
                return self._deal(next_dealer(self.dealer or 0, len(self.seats)), self.hand_number + 1, _needs(rng))
            case SetPreset(by=user, preset=preset):
                rules = Rules.preset(preset)  # an unknown preset is a RulesError: one clear line
                return self.set_rules(user, rules, Scoring(rules.scoring))
            case SetRule(by=user, key=key, value=value):
                self.may_change_rules(user)
                try:
                    rules = changed_rules(replace(self.rules, scoring=self.scoring.value), key, value)
                except RulesError as exc:
                    raise UserError(_plain(exc.text)) from None
                return self.set_rules(user, rules, Scoring(rules.scoring))
            case SlapDiscard(by=user, window=window):
                return self.slap(user, window)
            case ComputerSlap(seat=seat, window=window, action=action):
                return self.computer_slap(seat, window, action)
            case Back(by=user):
                return self.back(user)
            case TakeOver(by=user, seat=seat):
                return self.take_over(user, seat)
            case Remove(by=user, seat=seat):
                return self.remove(user, seat, now=now)
            case SetSideBets(by=user, kinds=kinds, stake=stake, suit_call=suit_call):
                return self.set_side_bets(user, kinds, stake=stake, suit_call=suit_call)
            case ToggleSideBets(by=user):
                return self.toggle_side_bets(user)
            case CallBigOne(by=user, hands=hands):
                return self.call_big_one(user, hands)
            case End(by=user, name=name, is_admin=is_admin, hand=hand, forgetting=forgetting):
                if hand is not None and self.is_open and self.hand_number != hand:
                    raise UserError(t("The table has moved on since you asked: ask again if you still want it closed."))
                table, events = self.end(user, name, is_admin=is_admin)
                return (replace(table, replayable=False) if forgetting else table), events
            case CloseIdle(idle_seconds=seconds):
                return self.close_idle(now, seconds)
        raise TypeError(f"not a table command: {command!r}")

    # ------------------------------------------------------------------ lobby operations

    def _changed(self, **changes: Any) -> "Table":
        return replace(self, moves=self.moves + 1, **changes)

    def _seat(self, seat: Seat, when: Text, now: float) -> tuple["Table", list[Event]]:
        """Seat a newcomer: in the lobby at the end; between hands at the dealer's right, so the
        deal still passes to the player on the dealer's left and the newcomer deals last."""
        if self.status not in (Status.LOBBY, Status.BETWEEN_HANDS):
            raise UserError(when)
        if any(s.leaving for s in self.seats):
            return self._without_leavers(now)._seat(seat, when, now)
        if len(self.seats) >= self.capacity:
            raise UserError(t("This table is full."))
        if self.status is Status.BETWEEN_HANDS and self.dealer is not None:
            seats, dealer, index = seat_newcomer(list(self.seats), self.dealer, seat)
            # the finished hand is ledgered already; the next deal starts from these seats
            table = self._changed(seats=tuple(seats), lobby_since=now, dealer=dealer, game=None, side_settled=())
            return table, [SeatTaken(index, seat.name)]
        table = self._changed(seats=self.seats + (seat,), lobby_since=now)
        return table, [SeatTaken(len(self.seats), seat.name)]

    def _not_tournament(self) -> None:
        if self.tournament is not None:
            raise UserError(t("This is a tournament's table: only the players seated for the round sit here."))

    def join(self, user_id: int, name: str, *, now: float = 0.0, confirm: bool = False) -> tuple["Table", list[Event]]:
        self._not_tournament()
        seat = self.seat_of(user_id)
        if seat is not None and not self.seats[seat].leaving:
            raise UserError(t("You are already seated at this table."))
        if seat is not None and self.status is Status.PLAYING:
            raise UserError(t("You left during this hand: press I'm back to play it, or join when it ends."))
        return self._seat(Seat.human(user_id, name, confirm=confirm), t("A hand is in play: join when it ends."), now)

    def add_computer(self, user_id: int, level: Level, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        self._not_tournament()
        if self.seat_of(user_id) is None:
            raise UserError(t("Only seated players can add computer players."))
        taken = {s.name.split(" (")[0] for s in self.seats if not s.is_human}
        name = next(n for n in COMPUTER_NAMES if n not in taken)
        return self._seat(Seat.computer(name, level), t("A hand is in play: add computer players when it ends."), now)

    def leave(self, user_id: int, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        """Leave the table. During a hand a computer player plays the seat out (its result is the
        leaver's, so the ledger stays whole) and the seat goes before the next deal."""
        seat = self.seat_required(user_id)
        name = self.seats[seat].name
        if self.tournament is not None:
            return self._leave_tournament_seat(seat)
        if self.seats[seat].leaving:
            raise UserError(t("You have left this table already: your seat goes before the next deal."))
        if self.status is Status.PLAYING:
            bets = self.side_bets  # this deal's pots stand; no more deals for the leaver
            table = self._changed(seats=_with_seat(self.seats, seat, leaving=True, votes=()),
                                  side_bets=replace(bets, players=tuple(u for u in bets.players if u != user_id)))
            events: list[Event] = [SeatLeaving(seat, name)]
            if not any(s.present for s in table.seats):
                closed, more = table._close(t("Everyone left. The unfinished hand pays nothing."))
                return closed, events + more
            table, more = table._pass_host()
            return table, events + more + (table._turn_event() if seat == self.to_act else [])
        table = self._without_seat(seat, now)
        events = [SeatLeft(seat, name)]
        if not any(s.is_human for s in table.seats):
            closed, more = table._close(t("Everyone left."))
            return closed, events + more
        table, more = table._pass_host()
        return table, events + more

    def _leave_tournament_seat(self, seat: int) -> tuple["Table", list[Event]]:
        """At a tournament's table the seat stays: a computer plays it for the rest of the round."""
        link = self.tournament
        assert link is not None
        if seat in link.left:
            raise UserError(t("A computer plays your seat already: I'm back returns it to you."))
        table = self._changed(seats=_with_seat(self.seats, seat, away=True, votes=()),
                              tournament=replace(link, left=tuple(sorted(link.left + (seat,)))))
        return table, [SeatAway(seat)] + (table._turn_event() if self.in_play and seat == self.to_act else [])

    def _without_seat(self, seat: int, now: float) -> "Table":
        """The table without seat `seat`, outside a hand: later seats move up one, the deal still
        passes to the player on the dealer's left, and the seat's side-bet shares go back to it."""
        seats = self.seats[:seat] + self.seats[seat + 1:]
        user_id = self.seats[seat].user_id
        changes: dict[str, Any] = {"seats": seats, "lobby_since": now}
        if user_id is not None:
            changes["side_bets"] = self.side_bets.without(user_id)
        if self.status is Status.BETWEEN_HANDS:
            # the finished hand is ledgered already; the next deal starts from these seats
            changes["game"] = None
            changes["side_settled"] = ()
            dealer = self.dealer or 0
            if seat < dealer or (seat == dealer and seat > 0):
                dealer -= 1  # the deal still passes to the player who sat on the dealer's left
            elif seat == dealer:
                dealer = len(seats) - 1
            changes["dealer"] = dealer % len(seats) if seats else 0
            if len(seats) < MIN_PLAYERS:
                changes["status"] = Status.LOBBY
        return self._changed(**changes)

    def _without_leavers(self, now: float) -> "Table":
        """Between hands: the seats of those who left during the hand go."""
        table = self
        for seat in reversed(range(len(self.seats))):
            if table.seats[seat].leaving:
                table = table._without_seat(seat, now)
        return table

    def _pass_host(self) -> tuple["Table", list[Event]]:
        """If the host left or a computer plays their seat, the next person present hosts (a
        tournament's table stays the organiser's)."""
        if self.tournament is not None:
            return self, []
        host = self.seat_of(self.host_user_id)
        if host is not None and self.seats[host].present:
            return self, []
        start = host if host is not None else 0
        order = [(start + k) % len(self.seats) for k in range(1, len(self.seats) + 1)]
        heir = next((i for i in order if self.seats[i].present), None)
        if heir is None:
            heir = next((i for i in order if self.seats[i].is_human and not self.seats[i].leaving), None)
        if heir is None or self.seats[heir].user_id == self.host_user_id:
            return self, []
        table = replace(self, host_user_id=self.seats[heir].user_id)
        return table, [HostChanged(heir, self.seats[heir].name)]

    def votes_needed(self, seat: int) -> int:
        """How many must ask to hand seat `seat` to a computer player: a majority of the other
        people present (the host's word alone does it)."""
        return sum(1 for i, s in enumerate(self.seats) if i != seat and s.present) // 2 + 1

    def take_over(self, user_id: int, seat: int) -> tuple["Table", list[Event]]:
        """Hand an idle person's seat to a computer player for now (I'm back returns it): at
        once when the host asks, else when a majority of the other people present have asked."""
        if not self.in_play:
            raise UserError(t("Only a seat in a hand in play can be handed to a computer player (between hands, "
                              "the host can remove a seat).") if self.is_open else
                            t("Only a seat in a hand in play can be handed to a computer player."))
        if not 0 <= seat < len(self.seats):
            raise UserError(t("There is no such seat at this table."))
        voter = self.seat_required(user_id)
        target = self.seats[seat]
        if voter == seat:
            raise UserError(t("That is your own seat: Leave hands it to a computer player."))
        if not target.present:
            raise UserError(t("A computer player has {name}'s seat already.", name=target.name))
        needed = self.votes_needed(seat)
        if user_id != self.host_user_id:
            if user_id in target.votes:
                raise UserError(t("You asked already: {votes}.", votes=target.votes_text(needed)))
            votes = target.votes + (user_id,)
            if len(votes) < needed:
                table = self._changed(seats=_with_seat(self.seats, seat, votes=votes))
                return table, [TakeOverAsked(seat, len(votes), needed)]
        table = self._changed(seats=_with_seat(self.seats, seat, away=True, votes=()))
        table, more = table._pass_host()
        return table, [SeatAway(seat)] + more + (table._turn_event() if seat == self.to_act else [])

    def remove(self, user_id: int, seat: int, *, now: float = 0.0) -> tuple["Table", list[Event]]:
        """The host removes a seat, a person's or a computer's, outside a hand."""
        self._not_tournament()
        if user_id != self.host_user_id:
            raise UserError(t("Only the host can remove a seat."))
        if not self.is_open:
            raise UserError(t("This table is closed."))
        if self.status is Status.PLAYING:
            raise UserError(t("A hand is in play: hand the seat to a computer player now, and remove it when "
                              "the hand is over."))
        if not 0 <= seat < len(self.seats):
            raise UserError(t("There is no such seat at this table."))
        if self.seats[seat].user_id == user_id:
            raise UserError(t("That is your own seat: Leave takes you off the table."))
        name = self.seats[seat].name
        return self._without_seat(seat, now), [SeatRemoved(seat, name)]

    def may_change_rules(self, user_id: int) -> None:
        """Refuse anyone but the host, and any time but the lobby's."""
        if user_id != self.host_user_id:
            raise UserError(t("Only the host can change the house rules."))
        if self.status is not Status.LOBBY:
            raise UserError(t("The house rules can change only in the lobby, before the first deal."))

    def set_rules(self, user_id: int, rules: Rules, scoring: Scoring | None = None) -> tuple["Table", list[Event]]:
        """The host plays by other rules (a preset, or one option changed); the seats stay."""
        self.may_change_rules(user_id)
        cap = capacity(rules)
        if len(self.seats) > cap:
            raise UserError(tn("Those rules seat at most {cap} players, and {n} is seated here.",
                               "Those rules seat at most {cap} players, and {n} are seated here.", len(self.seats), cap=cap))
        scoring = scoring or self.scoring
        if rules == self.rules and scoring == self.scoring:
            return self, []
        return self._changed(rules=rules, scoring=scoring), [RulesChanged()]

    def start(self, user_id: int, rng: random.Random) -> tuple["Table", list[Event]]:
        if self.status is not Status.LOBBY:
            raise UserError(t("This table has already started."))
        if user_id != self.host_user_id:
            raise UserError(t("Only the host can start the table."))
        if len(self.seats) < MIN_PLAYERS:
            raise UserError(tn("Tonk needs at least {n} player: wait for someone to join, or add a computer player.",
                               "Tonk needs at least {n} players: wait for someone to join, or add a computer player.",
                               MIN_PLAYERS))
        dealer, rounds = cut_for_dealer(len(self.seats), rng)
        names = [s.name for s in self.seats]
        # TRANSLATORS: one player's cut for the deal: their name, then the card they cut
        cut = [tc("cut for the deal", "{name} {card}", name=names[i], card=c) for i, c in enumerate(rounds[-1])
               if c is not None]
        table = replace(self, cuts=t("Cut for the deal: {cuts}. {dealer} deals.", cuts=cut, dealer=names[dealer]))
        return table._deal(dealer, self.hand_number + 1, rng)

    def next_hand(self, user_id: int, rng: random.Random) -> tuple["Table", list[Event]]:
        if self.status is not Status.BETWEEN_HANDS:
            raise UserError(t("The next hand can be dealt only when the last one is over."))
        seat = self.seat_of(user_id)
        if seat is None or self.seats[seat].leaving:
            raise UserError(t("Only seated players can deal the next hand."))
        table = self._without_leavers(self.lobby_since)
        if table.status is not Status.BETWEEN_HANDS:  # fewer than two seats stay
            return table, [SeatLeft(i, s.name) for i, s in reversed(list(enumerate(self.seats))) if s.leaving]
        return table._deal(next_dealer(table.dealer or 0, len(table.seats)), table.hand_number + 1, rng)

    def _deal(self, dealer: int, hand_number: int, rng: random.Random) -> tuple["Table", list[Event]]:
        deck_rng = random.Random(rng.getrandbits(64))
        stake = self.big_one.stake(self.stake)
        game = Game.deal(self.rules, [s.name for s in self.seats], dealer, rng=deck_rng, stake=stake,
                         side_bets=self.side_bets.to_deal([s.user_id if s.is_human else None for s in self.seats],
                                                          rng))
        left = self.tournament.left if self.tournament is not None else ()
        seats = tuple(replace(s, away=i in left, timeouts=0) for i, s in enumerate(self.seats))
        table = self._changed(status=Status.PLAYING, dealer=dealer, hand_number=hand_number, game=game, seats=seats,
                              timer_plays=(), side_settled=())
        return table._settle([HandDealt(hand_number, dealer)])  # a tonk on the deal ends the hand at once

    # ------------------------------------------------------------------ play

    def _playing_seat(self, user_id: int) -> int:
        seat = self.seat_required(user_id)
        if not self.in_play:
            raise UserError(t("No hand is being played at this table right now."))
        return seat

    def act(self, user_id: int, action: Action, *, moves: int | None = None, confirmed: bool = False,
            stop_asking: bool = False) -> tuple["Table", list[Event]]:
        """A person's play. `moves` (from a private hand message) refuses a click on an older message.
        A legal pick from a menu by a seat that confirms first raises `AskFirst` unless `confirmed`."""
        seat = self._playing_seat(user_id)
        if moves is not None and moves != self.moves:
            raise StaleView(t("That view is out of date; here is your hand as it is now."))
        if self.seats[seat].played_by_computer:
            raise UserError(t("A computer player has your seat: press I'm back on the table first."))
        game = self.game.copy()  # type: ignore[union-attr]
        game.apply(seat, action)  # raises and changes nothing when illegal
        if self.seats[seat].confirm and not confirmed and isinstance(action, PICKS):
            raise AskFirst(self, action)
        drawn = None
        if isinstance(action, (Draw, TakeDiscard)):
            new = set(game.hands[seat]) - set(self.game.hands[seat])  # type: ignore[union-attr]
            drawn = new.pop() if len(new) == 1 else None
        seats = _with_seat(self.seats, seat, timeouts=0, votes=(), **({"confirm": False} if stop_asking else {}))
        return self._changed(game=game, seats=seats)._settle([Played(seat, action, drawn=drawn)], self)

    def computer_turn(self) -> tuple[Level, int, Any] | None:
        """(level, seed, seat view) of the computer player to act, or None when no computer plays now."""
        if not self.is_computer_turn:
            return None
        game = self.game
        seat = game.to_act  # type: ignore[union-attr]
        seed = hash((self.id, self.hand_number, len(game.log))) & 0xFFFFFFFF  # type: ignore[union-attr]
        return self.seats[seat].computer_level, seed, game.view(seat)  # type: ignore[union-attr]

    def seat_key(self, seat: int) -> str:
        """Who sits in `seat`, as a session memory names them: a person by user id (a seat taken
        over by a computer is still that person's), a computer player by its name."""
        s = self.seats[seat]
        return f"user:{s.user_id}" if s.user_id is not None else f"computer:{s.name}"

    def computer_session(self) -> tuple[SessionMemory, list[str]] | None:
        """The session memory of the computer player to act, with the key of each seat, when its
        level keeps one (`Level.remembers`); None otherwise."""
        if not self.is_computer_turn:
            return None
        seat = self.game.to_act  # type: ignore[union-attr]
        if not self._remembers(seat):
            return None
        return self._memory(self.seat_key(seat)), [self.seat_key(i) for i in range(len(self.seats))]

    def _remembers(self, seat: int) -> bool:
        return self.seats[seat].kind is SeatKind.COMPUTER and self.seats[seat].computer_level.remembers

    def _memory(self, key: str) -> SessionMemory:
        """The session memory kept for `key`, or a new one."""
        data = dict(self.memories).get(key)
        return SessionMemory.from_dict(json.loads(data)) if data else SessionMemory(key)

    def _learned(self, game: Game) -> "Table":
        """After a hand: each remembering computer seat learns from its own view of it (and from
        nothing else); the memories of computer players no longer seated go."""
        keys = [self.seat_key(i) for i in range(len(self.seats))]
        kept = {key: data for key, data in self.memories if key in keys}
        for i in range(len(self.seats)):
            if self._remembers(i):
                memory = self._memory(keys[i])
                memory.learn(game.view(i), keys)
                kept[keys[i]] = json.dumps(memory.to_dict())
        memories = tuple(sorted(kept.items()))
        return self if memories == self.memories else replace(self, memories=memories)

    def computer_play(self, choose: Callable[[Level, int, Any], Action]) -> tuple["Table", list[Event]]:
        """If a computer plays the seat to act, make one play; `choose(level, seed, seat_view)` picks it."""
        turn = self.computer_turn()
        if turn is None:
            return self, []
        action = choose(*turn)
        game = self.game.copy()  # type: ignore[union-attr]
        seat = game.to_act
        game.apply(seat, action)
        return self._changed(game=game)._settle([Played(seat, action, by_computer=True)], self)

    def slap(self, user_id: int, window: int | None) -> tuple["Table", list[Event]]:
        """House rule (slap): a person slaps the discard of `window` (the Slap! button's).
        The first slap received wins; a later one is refused in one line and changes nothing."""
        seat = self._playing_seat(user_id)
        if self.rules.slap == "off":
            raise UserError(t("There is no slapping at this table."))
        if self.seats[seat].played_by_computer:
            raise UserError(t("A computer player has your seat: press I'm back on the table first."))
        game = self.game
        slaps = game.legal_slaps(seat)  # type: ignore[union-attr]
        if window != self.slap_window or not slaps:
            raise UserError(self._too_late(window))
        natural = [a for a in slaps if a.stands_for is None]
        return self._slapped(seat, (natural or slaps)[0], by_computer=False)

    def computer_slap(self, seat: int, window: int, action: Slap) -> tuple["Table", list[Event]]:
        """A computer seat's slap after its reaction time; nothing happens (no events) if the
        window closed meanwhile or the slap is no longer legal."""
        if (not 0 <= seat < len(self.seats) or not self.seats[seat].played_by_computer
                or window != self.slap_window or not self.game.is_legal(seat, action)):  # type: ignore[union-attr]
            return self, []
        return self._slapped(seat, action, by_computer=True)

    def _slapped(self, seat: int, action: Slap, *, by_computer: bool) -> tuple["Table", list[Event]]:
        game = self.game.copy()  # type: ignore[union-attr]
        game.apply(seat, action)
        return self._changed(game=game)._settle([Played(seat, action, by_computer=by_computer)], self)

    def _too_late(self, window: int | None) -> Text:
        """Why a Slap! click finds nothing to slap: someone was quicker, or the window closed."""
        game = self.game
        assert game is not None
        since = game.log[window + 1:] if window is not None and window < len(game.log) else []
        first = next((who for who, a in since if type(a) is Slap), None)
        if first is not None:
            return t("Too late: {name} slapped that card first.", name=self.seats[first].name)
        if window is not None and window == self.slap_window:
            return t("You cannot slap that card now (you need a card left to discard after it).")
        return t("Too late: that discard can no longer be slapped.")

    def time_out(self, turn: str) -> tuple["Table", list[Event]]:
        """The seat to act ran out of time: draw, discard the highest card, never drop.
        Nothing happens (no events) if that turn is over or a computer plays it. Where a house
        rule forbids that discard (must spread, a boobed hand), the bot makes the play it must."""
        if self.turn_key != turn or self.is_computer_turn:
            return self, []
        game = self.game.copy()  # type: ignore[union-attr]
        seat = game.to_act
        events: list[Event] = [TimedOut(seat)]
        played = list(self.timer_plays)
        turns = game.turns
        for _ in range(4 + len(game.hands[seat])):  # a draw, the lays a house rule forces, a discard
            action = timed_out_play(game, seat)
            played.append(len(game.log))
            game.apply(seat, action)
            events.append(Played(seat, action, by_computer=True))
            if type(action) in (Discard, Drop) or game.over or game.to_act != seat or game.turns != turns:
                break
        timeouts = self.seats[seat].timeouts + 1
        away = timeouts >= TIMEOUTS_BEFORE_AWAY
        if away and not self.seats[seat].away:
            events.append(SeatAway(seat))
        seats = _with_seat(self.seats, seat, timeouts=timeouts, away=away or self.seats[seat].away)
        table, more = self._changed(game=game, seats=seats, timer_plays=tuple(played))._pass_host()
        return table._settle(events + more, self)

    def back(self, user_id: int) -> tuple["Table", list[Event]]:
        seat = self.seat_required(user_id)
        if not self.seats[seat].away and not self.seats[seat].leaving:
            raise UserError(t("You are playing your own seat already."))
        if not self.in_play and self.seats[seat].leaving:  # between hands a seat that was left goes with the next deal
            raise UserError(t("You left during the last hand: join again to play the next one."))
        # between hands too: the table shows them back at once (the next deal would bring them back anyway)
        table = self._changed(seats=_with_seat(self.seats, seat, away=False, leaving=False, timeouts=0, votes=()))
        if table.tournament is not None and seat in table.tournament.left:
            table = replace(table, tournament=replace(table.tournament,
                                                      left=tuple(s for s in table.tournament.left if s != seat)))
        return table, [SeatBack(seat)] + (table._turn_event() if table.in_play else [])

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
        side_bets, settled = self.side_bets.settled(game, [s.user_id for s in self.seats])
        seats = tuple(replace(s, total=s.total + pay + side, pushups=s.pushups + push)
                      for s, pay, push, side in zip(self.seats, out.payments, out.pushups, settled or repeat(0)))
        table = replace(self, status=Status.BETWEEN_HANDS, seats=seats, side_bets=side_bets,
                        side_settled=settled)._learned(game)
        events = events + [HandOver(self.hand_number, self.hand_id, out)]
        staying = [s for s in seats if not s.leaving]
        if len(staying) < len(seats) and (len(staying) < MIN_PLAYERS or not any(s.is_human for s in staying)):
            closed, more = table._close(t("Too few players are left: the table closes after that hand."))
            return closed, events + more
        link = self.tournament
        if link is not None and self.hand_number >= link.hands:
            closed, more = table._close(tn("Round {round} is over at this table: {n} hand played.",
                                           "Round {round} is over at this table: {n} hands played.",
                                           self.hand_number, round=link.round))
            return closed, events + more
        big_one = self.big_one.after_hand(game.stake, self.stake)
        if big_one != self.big_one:  # that was a hand of the big one
            table = replace(table, big_one=big_one)
            if big_one.over:
                closed, more = table._close(t("The big one is over: that was the last hand."))
                return closed, events + more
        return table, events

    def _turn_event(self) -> list[Event]:
        key = self.turn_key
        if key is None:
            return []
        return [TurnStarted(self.to_act, key, self.is_computer_turn)]  # type: ignore[arg-type]

    # ------------------------------------------------------------------ closing and bookkeeping

    def may_end(self, user_id: int, *, is_admin: bool = False) -> None:
        if user_id != self.host_user_id and not is_admin:
            raise UserError(t("Only the host or a member with Manage Server can end this table."))

    def end_question(self, user_id: int, *, is_admin: bool = False) -> Text | None:
        """What closing now would cost others, for the closer to confirm first (None: nothing):
        a hand in play, or people waiting in the lobby. Refused as `end` refuses."""
        self.may_end(user_id, is_admin=is_admin)
        if not self.is_open:
            raise UserError(t("This table is closed."))
        if self.status is Status.PLAYING:
            return t("Hand {hand} is in play: it pays nothing if the table closes now.", hand=self.hand_number)
        waiting = [s.name for s in self.seats if s.is_human and s.user_id != user_id]
        if self.status is Status.LOBBY and waiting:
            return tn("{names} is seated, waiting for the deal.", "{names} are seated, waiting for the deal.",
                      len(waiting), names=and_list(waiting))
        return None

    def end(self, user_id: int, name: str, *, is_admin: bool = False) -> tuple["Table", list[Event]]:
        """Close the table (host or Manage Server). An unfinished hand pays nothing."""
        self.may_end(user_id, is_admin=is_admin)
        if self.status is Status.PLAYING:
            return self._close(t("Ended by {name}. The unfinished hand pays nothing.", name=name))
        return self._close(t("Ended by {name}.", name=name))

    def close_idle(self, now: float, idle_seconds: float) -> tuple["Table", list[Event]]:
        if self.status is not Status.LOBBY or now - self.lobby_since < idle_seconds:
            return self, []
        return self._close(t("The lobby was idle for too long."))

    def _close(self, reason: Text) -> tuple["Table", list[Event]]:
        returned = self.side_bets.total()
        if returned:  # owed by its payers until won: nothing leaves their balance
            reason = t("{reason} The side pots ({points}) went back to those who paid in.", reason=reason,
                       points=plural_points(returned))
        side_bets = replace(self.side_bets, pots={}, players=())
        return self._changed(status=Status.CLOSED, closed_reason=reason, side_bets=side_bets), [TableClosed(reason)]

    # ------------------------------------------------------------------ the whole session: side bets, the big one

    def set_side_bets(self, user_id: int, kinds: tuple[str, ...], *, stake: int | None = None,
                      suit_call: str | None = None) -> tuple["Table", list[Event]]:
        """The host turns side bets on (which, the side stake, how the suit is called) or off.
        A bet turned off returns its pot to those who paid in."""
        if user_id != self.host_user_id:
            raise UserError(t("Only the host sets the side bets."))
        if not self.is_open:
            raise UserError(t("This table is closed."))
        if self.in_play:
            raise UserError(t("A hand is in play: set the side bets between hands."))
        bets, text = self.side_bets.configured(kinds, stake=stake, suit_call=suit_call)
        return self._changed(side_bets=bets), [SideBetsChanged(text)]

    def toggle_side_bets(self, user_id: int) -> tuple["Table", list[Event]]:
        """A player opts in to the side bets at every deal from the next, or out again (what they
        paid into a pot stays there, owed, until it is won or returned)."""
        seat = self.seat_required(user_id)
        bets, now_in = self.side_bets.toggled(user_id)
        name = self.seats[seat].name
        text = (t("{name} is in the side bets from the next deal.", name=name) if now_in else
                t("{name} is out of the side bets from the next deal.", name=name))
        return self._changed(side_bets=bets), [SideBetsChanged(text)]

    def call_big_one(self, user_id: int, hands: int) -> tuple["Table", list[Event]]:
        """The host calls the big one: the next `hands` hands at double stake, then the table closes."""
        if user_id != self.host_user_id:
            raise UserError(t("Only the host can call the big one."))
        if not self.is_open:
            raise UserError(t("This table is closed."))
        big_one = self.big_one.called(hands)
        return self._changed(big_one=big_one), [BigOneCalled(big_one.hands_left)]

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
            "leaving": [i for i, s in enumerate(self.seats) if s.leaving],
            "confirm": [i for i, s in enumerate(self.seats) if s.confirm],
            "votes": {str(i): list(s.votes) for i, s in enumerate(self.seats) if s.votes},
            "hand_id": self.hand_id, "cuts": to_data(self.cuts), "lobby_since": self.lobby_since,
            "closed_reason": to_data(self.closed_reason), "moves": self.moves, "timer_plays": list(self.timer_plays),
            "ping": {"message_id": self.ping.message_id, "turn": self.ping.turn} if self.ping else None,
            "side_bets": self.side_bets.to_json() if self.side_bets != SideBets() else None,
            "side_settled": list(self.side_settled), "big_one": self.big_one.to_json(),
            **({"memories": dict(self.memories)} if self.memories else {}),
            **({"tournament": self.tournament.to_json(), "replayable": self.replayable} if self.tournament else {}),
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
        away, leaving, confirm = (set(book.get(key) or []) for key in ("away", "leaving", "confirm"))
        votes = {int(i): tuple(ids) for i, ids in (book.get("votes") or {}).items()}
        seats = tuple(
            Seat(SeatKind(s["kind"]), s["name"], user_id=s.get("user_id"),
                 level=Level(s["level"]) if s.get("level") else None, away=i in away,
                 timeouts=timeouts[i], total=totals[i], pushups=pushups[i], leaving=i in leaving, confirm=i in confirm,
                 votes=votes.get(i, ()))
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
            cuts=text_from_data(book.get("cuts")), lobby_since=float(book.get("lobby_since") or 0.0),
            closed_reason=text_from_data(book.get("closed_reason")), message_id=data.get("message_id"),
            ping=Ping(ping["message_id"], ping["turn"]) if ping else None, moves=int(book.get("moves") or 0),
            timer_plays=tuple(book.get("timer_plays") or ()), version=version,
            side_bets=SideBets.from_json(book.get("side_bets")), side_settled=tuple(book.get("side_settled") or ()),
            big_one=BigOne.from_json(book.get("big_one")),
            memories=tuple(sorted((str(k), str(v)) for k, v in (book.get("memories") or {}).items())),
            tournament=TournamentLink.from_json(book.get("tournament")),
            replayable=bool(book.get("replayable", True)),
        )

    def bookkeeping_columns(self) -> dict[str, Any]:
        """The store's columns for the message ids alone (`with_message`, `with_ping`): the
        write after a play that posted or edited a message changes nothing else."""
        return {"message_id": self.message_id, "bookkeeping": self._bookkeeping()}

    def columns(self, *, since: "Table | None" = None) -> dict[str, Any]:
        """The store's columns for this table; with `since`, only those that differ from it."""
        data = self.to_json() if since is None or self.game is not since.game else None
        if data is None:  # the hand did not change: do not serialise it again
            data = replace(self, game=None).to_json()
        columns = {key: data[key] for key in ("host_user_id", "status", "seats", "hand_number", "dealer",
                                              "message_id", "bookkeeping")}
        if since is None or self.rules != since.rules or self.scoring != since.scoring:  # the host changed them
            columns.update(rules=data["rules"], scoring_mode=data["scoring_mode"])
        if since is None or self.game is not since.game:
            columns["engine_state"] = json.dumps(data["engine_state"]) if data["engine_state"] is not None else None
        return columns


def _plain(text: Text) -> Text:
    """A RulesError's refusal with each option key it names (`wild_cards`) as players call the option.
    A key in a parameter is replaced there; a message whose own words name a key is shown in English."""
    text = replace(text, params={k: plain_refusal(v) if isinstance(v, str) else v for k, v in text.params.items()})
    english = str(text)
    plain = plain_refusal(english)
    return text if plain == english else as_text(plain)


def _needs(rng: random.Random | None) -> random.Random:
    if rng is None:
        raise TypeError("dealing needs the service's random source")
    return rng


def timed_out_play(game: Game, seat: int) -> Action:
    """What the bot plays for a seat out of time: draw, then discard the highest card; never a
    drop unless a house rule allows nothing else, and the lays a house rule forces first."""
    legal = [a for a in game.legal_actions(seat) if type(a) is not Slap]
    if game.phase == START:
        if DRAW in legal:
            return DRAW
        return legal[0] if legal else DROP  # boobed: only a drop is allowed
    discards = [a.card for a in legal if type(a) is Discard]
    if discards:
        return Discard(highest_card(discards))
    lays = [a for a in legal if type(a) is not Drop]
    return lays[0] if lays else DROP


def _with_seat(seats: tuple[Seat, ...], index: int, **changes: Any) -> tuple[Seat, ...]:
    return seats[:index] + (replace(seats[index], **changes),) + seats[index + 1:]
