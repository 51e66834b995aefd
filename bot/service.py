"""Tables as players meet them: the lobby, seats, hands in play, computer turns, time-outs.

This layer turns what a person asks for (join, draw, discard, next hand...) into engine
actions and store writes. It holds no game rules (the engine decides what is legal and
what everyone pays) and knows nothing of Discord (the cogs render what it returns).
Every change to a table runs under that table's lock and is saved with the table's
version, so two quick clicks can never apply one action twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from engine import (DRAW, START, Action, Card, Discard, Game, Hit, Rules, RulesError, Spread,
                    action_from_record, cut_for_dealer, next_dealer)
from engine.game import MAX_PLAYERS, MIN_PLAYERS

from bot.errors import StaleView, UserError
from bot.store import (ChannelBusyError, Database, LiveTable, PlayerRef, StaleTableError, TableNotFoundError,
                       close_table, create_table, get_guild_settings, get_open_table_in_channel, get_table,
                       list_open_tables, record_finished_hand, save_table, write_retrying,
                       write_transaction)

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "hard")
COMPUTER_NAMES = ("Goblin", "One-Eye", "Elmo", "Otto", "Hagop", "Silent", "Candy", "Pawnbroker")
TIMEOUTS_BEFORE_AWAY = 3
AWAY_LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class Person:
    """Who clicked: a Discord member as this layer needs them."""

    user_id: int
    name: str
    is_admin: bool = False


@dataclass(slots=True)
class TableView:
    """A table row and, when a hand exists, its engine state."""

    table: LiveTable
    game: Game | None = None

    @property
    def id(self) -> int:
        return self.table.id  # type: ignore[return-value]

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.table.seats

    @property
    def book(self) -> dict[str, Any]:
        return self.table.bookkeeping

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.table.seats):
            if seat["kind"] == "human" and seat["user_id"] == user_id:
                return i
        return None

    def seat_required(self, user_id: int) -> int:
        """The user's seat, or a refusal for someone not seated here."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        return seat

    def is_computer_turn(self) -> bool:
        game = self.game
        if game is None or game.over or self.table.status != "playing":
            return False
        seat = self.table.seats[game.turn]
        return seat["kind"] == "computer" or game.turn in self.book.get("away", [])

    def turn_key(self) -> str | None:
        """Identifies the turn in play: timers compare it before acting."""
        if self.game is None or self.game.over or self.table.status != "playing":
            return None
        return f"{self.table.hand_number}:{self.game.turns}"

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.table.rules)


def human_seat(person: Person) -> dict[str, Any]:
    return {"kind": "human", "user_id": person.user_id, "name": person.name, "level": None}


def computer_seat(name: str, level: str) -> dict[str, Any]:
    return {"kind": "computer", "user_id": None, "name": f"{name} ({level})", "level": level}


def highest_card(hand: list[Card]) -> Card:
    """What a timed-out seat throws: the highest count, then the highest rank."""
    return max(hand, key=lambda c: (c.value, c.sort_key))


class TableService:
    def __init__(self, db: Database, *, rng: random.Random | None = None):
        self.db = db
        self._rng = rng or random.Random(secrets.randbits(64))
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._games: dict[int, tuple[int, Game]] = {}
        self._writer = asyncio.Lock()
        """One writer at a time, queued here in order: SQLite takes one writer anyway, and its
        busy handler would make the others sleep in steps of up to 100 ms."""
        self._latest: dict[int, LiveTable] = {}
        """The newest saved row of each table. This process makes every write, so a click
        needs no read; a save against a stale row is still refused by its version."""

    # ------------------------------------------------------------------ loading & saving

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks[table_id]

    async def _load(self, table_id: int) -> TableView:
        table = self._latest.get(table_id)
        if table is None:
            async with self.db.sessions() as session:
                try:
                    table = await get_table(session, table_id=table_id)
                except TableNotFoundError:
                    raise UserError("This table no longer exists.") from None
            self._latest[table_id] = table
        return TableView(table, self._game_of(table))

    async def load(self, table_id: int) -> TableView:
        """The table as last saved, for showing it: waits for a change in progress to finish,
        so nobody is ever shown a play that is not saved yet."""
        async with self.lock(table_id):
            return await self._load(table_id)

    def forget(self, table_id: int) -> None:
        self._latest.pop(table_id, None)
        self._games.pop(table_id, None)

    async def open_in_channel(self, channel_id: int) -> TableView | None:
        async with self.db.sessions() as session:
            table = await get_open_table_in_channel(session, channel_id=channel_id)
        return TableView(table, self._game_of(table)) if table else None

    async def open_tables(self) -> list[TableView]:
        async with self.db.sessions() as session:
            tables = await list_open_tables(session)
        return [TableView(t, self._game_of(t)) for t in tables]

    def _game_of(self, table: LiveTable) -> Game | None:
        if not table.engine_state:
            return None
        cached = self._games.get(table.id)  # type: ignore[arg-type]
        if cached and cached[0] == table.version:
            return cached[1]
        game = Game.from_json(json.loads(table.engine_state))
        self._games[table.id] = (table.version, game)  # type: ignore[index]
        return game

    async def _save(self, view: TableView, *, finished: bool = False, **changes: Any) -> TableView:
        """Save `changes` against the version `view` was loaded at (and record a finished hand)."""
        if view.game is not None and "engine_state" not in changes:
            changes["engine_state"] = json.dumps(view.game.to_json())
        if "bookkeeping" not in changes:
            changes["bookkeeping"] = view.book
        try:
            async def write(session) -> LiveTable:
                table = await save_table(session, table_id=view.id, expected_version=view.table.version, **changes)
                if finished:
                    # the hand id is in the bookkeeping being saved (a new deal writes a new one)
                    await self._record_hand(session, view, changes["bookkeeping"]["hand_id"])
                return table

            async with self._writer, self.db.sessions() as session:
                # the whole transaction again if PostgreSQL picks it as a deadlock victim
                table = await write_retrying(session, write)
        except StaleTableError:
            self.forget(view.id)
            raise StaleView("Someone else acted first: look again at the table.") from None
        except BaseException:
            self.forget(view.id)
            raise
        self._latest[view.id] = table
        if view.game is not None and changes.get("engine_state") is not None:
            self._games[view.id] = (table.version, view.game)
        elif changes.get("engine_state", "keep") is None:
            self._games.pop(view.id, None)
        return TableView(table, view.game)

    async def _record_hand(self, session, view: TableView, hand_id: str) -> None:
        game = view.game
        assert game is not None and game.outcome is not None
        await record_finished_hand(
            session,
            guild_id=view.table.guild_id,
            table_id=view.id,
            hand_id=hand_id,
            record=game.record(),
            result=game.outcome.result(dropper=True),
            players=[PlayerRef.from_seat(s) for s in view.seats],
            stake=view.table.stake,
            scoring_mode=view.table.scoring_mode,
        )

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Person,
        preset: str | None = None,
        stake: int | None = None,
        scoring: str | None = None,
        hand_size: int | None = None,
        computers: int = 0,
        level: str = "normal",
    ) -> TableView:
        async with self.db.sessions() as session:
            settings = await get_guild_settings(session, guild_id=guild_id)
        if not settings.allows_channel(channel_id):
            raise UserError("Tables can't be opened in this channel on this server; ask an admin (/tonk settings).")
        rules_dict = dict(settings.rules) if preset is None else {"preset": preset}
        if hand_size is not None:
            rules_dict["hand_size"] = hand_size
        try:
            rules = Rules.from_dict(rules_dict)
        except RulesError as exc:
            raise UserError(str(exc)) from None
        if scoring is None:
            scoring = rules.scoring if preset is not None else settings.scoring_mode
        stake = settings.stake if stake is None else stake
        if level not in LEVELS:
            raise UserError(f"Computer players are {', '.join(LEVELS)}.")
        capacity = self.capacity(rules)
        if computers < 0 or 1 + computers > capacity:
            raise UserError(f"This table seats {capacity}: add at most {capacity - 1} computer players.")
        seats = [human_seat(host)] + [computer_seat(COMPUTER_NAMES[i], level) for i in range(computers)]
        book = {"lobby_since": time.time(), "totals": [0] * len(seats), "pushup_totals": [0] * len(seats)}
        async with self._writer, self.db.sessions() as session:
            try:
                table = await create_table(
                    session, guild_id=guild_id, channel_id=channel_id, host_user_id=host.user_id, seats=seats,
                    rules=rules.to_dict(), stake=stake, scoring_mode=scoring, bookkeeping=book,
                )
            except ChannelBusyError:
                raise UserError("There is already a table in this channel: join it, or /tonk end it.") from None
        return TableView(table)

    @staticmethod
    def capacity(rules: Rules) -> int:
        return max(MIN_PLAYERS, min(MAX_PLAYERS, rules.max_players()))

    async def set_message(self, table_id: int, message_id: int) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            return await self._save(view, message_id=message_id)

    def _lobby(self, view: TableView) -> None:
        if view.table.status != "lobby":
            raise UserError("This table has already started.")

    def _resize_totals(self, book: dict, seats: int) -> None:
        for key in ("totals", "pushup_totals"):
            values = list(book.get(key, []))
            book[key] = (values + [0] * seats)[:seats]

    async def join(self, table_id: int, person: Person) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            if view.seat_of(person.user_id) is not None:
                raise UserError("You are already seated at this table.")
            return await self._add_seat(view, human_seat(person), "join when it ends")

    async def add_computer(self, table_id: int, person: Person, level: str) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            if view.seat_of(person.user_id) is None:
                raise UserError("Only seated players can add computer players.")
            if level not in LEVELS:
                raise UserError(f"Computer players are {', '.join(LEVELS)}.")
            taken = {s["name"].split(" (")[0] for s in view.seats if s["kind"] == "computer"}
            name = next(n for n in COMPUTER_NAMES if n not in taken)
            return await self._add_seat(view, computer_seat(name, level), "add computer players when it ends")

    async def _add_seat(self, view: TableView, seat: dict[str, Any], when: str) -> TableView:
        """Seat someone at the next free place, between hands or in the lobby."""
        if view.table.status not in ("lobby", "between_hands"):
            raise UserError(f"A hand is in play: {when}.")
        if len(view.seats) >= self.capacity(view.rules):
            raise UserError("This table is full.")
        seats = view.seats + [seat]
        book = dict(view.book, lobby_since=time.time())
        self._resize_totals(book, len(seats))
        return await self._save(view, seats=seats, bookkeeping=book)

    async def leave(self, table_id: int, person: Person) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            seat = view.seat_required(person.user_id)
            if view.table.status == "playing":
                raise UserError("A hand is in play: finish it first (or ask the host to /tonk end).")
            seats = [s for i, s in enumerate(view.seats) if i != seat]
            book = dict(view.book, lobby_since=time.time())
            for key in ("totals", "pushup_totals"):
                values = list(book.get(key, []))
                if seat < len(values):
                    values.pop(seat)
                book[key] = values
            humans = [s for s in seats if s["kind"] == "human"]
            if not humans:
                return await self._close(view, "Everyone left.")
            changes: dict[str, Any] = {"seats": seats, "bookkeeping": book}
            if view.table.host_user_id == person.user_id:
                changes["host_user_id"] = humans[0]["user_id"]
            if view.table.status == "between_hands":
                # the finished hand stays in the store; the next deal starts from these seats
                view.game = None
                changes["engine_state"] = None
                dealer = view.table.dealer or 0
                if seat < dealer or (seat == dealer and seat > 0):
                    dealer -= 1  # the deal still passes to the player who sat on the dealer's left
                elif seat == dealer:
                    dealer = len(seats) - 1
                changes["dealer"] = dealer % len(seats)
                if len(seats) < MIN_PLAYERS:
                    changes["status"] = "lobby"
            return await self._save(view, **changes)

    async def start(self, table_id: int, person: Person) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            self._lobby(view)
            if person.user_id != view.table.host_user_id:
                raise UserError("Only the host can start the table.")
            if len(view.seats) < MIN_PLAYERS:
                raise UserError("Tonk needs at least 2 players: wait for someone to join, or add a computer player.")
            dealer, rounds = cut_for_dealer(len(view.seats), self._rng)
            cuts = rounds[-1]
            names = [s["name"] for s in view.seats]
            cut_text = ", ".join(f"{names[i]} {c.label}" for i, c in enumerate(cuts) if c is not None)
            book = dict(view.book, cuts=f"Cut for the deal: {cut_text}. {names[dealer]} deals.")
            return await self._deal(view, dealer=dealer, hand_number=1, book=book)

    async def _deal(self, view: TableView, *, dealer: int, hand_number: int, book: dict) -> TableView:
        rules = view.rules
        names = [s["name"] for s in view.seats]
        game = Game.deal(rules, names, dealer, rng=random.Random(self._rng.getrandbits(64)), stake=view.table.stake)
        book = dict(book)
        book["hand_id"] = f"{view.id}-{hand_number}"
        book["timeouts"] = [0] * len(names)
        book["away"] = []
        self._resize_totals(book, len(names))
        view.game = game  # a tonk on the deal ends the hand at once
        return await self._after_play(view, book, status="playing", dealer=dealer, hand_number=hand_number)

    def _add_totals(self, view: TableView, book: dict) -> None:
        outcome = view.game.outcome  # type: ignore[union-attr]
        book["totals"] = [a + b for a, b in zip(book["totals"], outcome.payments)]
        book["pushup_totals"] = [a + b for a, b in zip(book["pushup_totals"], outcome.pushups)]

    async def next_hand(self, table_id: int, person: Person) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            if view.table.status != "between_hands":
                raise UserError("The next hand can be dealt only when the last one is over.")
            if view.seat_of(person.user_id) is None:
                raise UserError("Only seated players can deal the next hand.")
            if len(view.seats) < MIN_PLAYERS:
                raise UserError("Tonk needs at least 2 players.")
            dealer = next_dealer(view.table.dealer or 0, len(view.seats))
            return await self._deal(view, dealer=dealer, hand_number=view.table.hand_number + 1, book=dict(view.book))

    async def cancel(self, table_id: int, person: Person) -> TableView:
        """Cancel a lobby or end a table (host or Manage Server). An unfinished hand pays nothing."""
        async with self.lock(table_id):
            view = await self._load(table_id)
            if person.user_id != view.table.host_user_id and not person.is_admin:
                raise UserError("Only the host or a member with Manage Server can end this table.")
            reason = f"Ended by {person.name}."
            if view.table.status == "playing":
                reason += " The unfinished hand pays nothing."
            return await self._close(view, reason)

    async def close_idle_lobby(self, table_id: int, idle_seconds: float) -> TableView | None:
        async with self.lock(table_id):
            view = await self._load(table_id)
            if view.table.status != "lobby":
                return None
            if time.time() - view.book.get("lobby_since", 0) < idle_seconds:
                return None
            return await self._close(view, "The lobby was idle for too long.")

    async def _close(self, view: TableView, reason: str) -> TableView:
        book = dict(view.book, closed_reason=reason)
        async with self._writer, self.db.sessions() as session, write_transaction(session):
            try:
                await save_table(session, table_id=view.id, expected_version=view.table.version, bookkeeping=book)
            except StaleTableError:
                self.forget(view.id)
                raise StaleView("Someone else acted first: look again at the table.") from None
            table = await close_table(session, table_id=view.id)
        self.forget(view.id)
        return TableView(table, view.game)

    # ------------------------------------------------------------------ play

    async def act(self, table_id: int, person: Person, verb: str, arg: str | None = None,
                  version: int | None = None) -> TableView:
        """Apply one player's action. Raises UserError/TonkError and changes nothing when refused."""
        async with self.lock(table_id):
            view = await self._load(table_id)
            seat = self._playing_seat(view, person)
            if version is not None and version != view.table.version:
                raise StaleView("That view is out of date; here is your hand as it is now.")
            if seat in view.book.get("away", []):
                raise UserError("A computer player has your seat: press I'm back on the table first.")
            action = parse_action(verb, arg)
            game = view.game
            assert game is not None
            game.apply(seat, action)  # raises and changes nothing when illegal
            book = dict(view.book)
            book["timeouts"] = list(book.get("timeouts", []))
            book["timeouts"][seat] = 0
            return await self._after_play(view, book)

    def _playing_seat(self, view: TableView, person: Person) -> int:
        seat = view.seat_required(person.user_id)
        if view.table.status != "playing" or view.game is None:
            raise UserError("No hand is being played at this table right now.")
        return seat

    async def _after_play(self, view: TableView, book: dict, **changes: Any) -> TableView:
        """Save the state a play (or a deal) left; a hand that ended is settled and ledgered with it."""
        game = view.game
        assert game is not None
        if game.over:
            self._add_totals(view, book)
            changes["status"] = "between_hands"
            return await self._save(view, finished=True, bookkeeping=book, **changes)
        return await self._save(view, bookkeeping=book, **changes)

    async def computer_step(self, table_id: int, *, choose) -> TableView | None:
        """If a computer plays the seat to act, make one play. `choose(level, seed, view)` picks it."""
        async with self.lock(table_id):
            view = await self._load(table_id)
            if not view.is_computer_turn():
                return None
            game = view.game
            assert game is not None
            seat = game.turn
            level = view.seats[seat].get("level") or AWAY_LEVEL
            seed = hash((view.id, view.table.hand_number, len(game.log))) & 0xFFFFFFFF
            action = choose(level, seed, game.view(seat))
            game.apply(seat, action)
            return await self._after_play(view, dict(view.book))

    async def time_out(self, table_id: int, turn_key: str) -> TableView | None:
        """The seat to act ran out of time: draw, discard the highest card, never drop."""
        async with self.lock(table_id):
            view = await self._load(table_id)
            if view.turn_key() != turn_key or view.is_computer_turn():
                return None
            game = view.game
            assert game is not None
            seat = game.turn
            if game.phase == START:
                game.apply(seat, DRAW)
            if not game.over:
                game.apply(seat, Discard(highest_card(game.hands[seat])))
            book = dict(view.book)
            timeouts = list(book.get("timeouts", [0] * len(view.seats)))
            timeouts[seat] += 1
            book["timeouts"] = timeouts
            if timeouts[seat] >= TIMEOUTS_BEFORE_AWAY:
                book["away"] = sorted(set(book.get("away", [])) | {seat})
            return await self._after_play(view, book)

    async def back(self, table_id: int, person: Person) -> TableView:
        async with self.lock(table_id):
            view = await self._load(table_id)
            seat = view.seat_required(person.user_id)
            if seat not in view.book.get("away", []):
                raise UserError("You are playing your own seat already.")
            book = dict(view.book)
            book["away"] = [s for s in book["away"] if s != seat]
            book["timeouts"] = list(book.get("timeouts", []))
            book["timeouts"][seat] = 0
            return await self._save(view, bookkeeping=book)

    async def recover(self, owns=lambda guild_id: True) -> list[TableView]:
        """After a restart: every open table of the servers this process `owns` (its shards'),
        with any finished-but-unrecorded hand written."""
        views = [view for view in await self.open_tables() if owns(view.table.guild_id)]
        for view in views:
            if view.table.status == "between_hands" and view.game is not None and view.game.over:
                async with self.lock(view.id), self._writer, self.db.sessions() as session, \
                        write_transaction(session):
                    # exactly once: a retry of the same hand id changes nothing
                    await self._record_hand(session, view, view.book["hand_id"])
        return views


def computer_choice(level: str, seed: int, view) -> Action:
    """What a computer player of `level` plays from its seat's view (and nothing else)."""
    from engine.players import make_player

    return make_player(level, seed=seed).choose(view)


def action_arg(action: Action) -> str | None:
    """The argument a button or menu carries for `action` (the inverse of parse_action)."""
    if isinstance(action, Spread):
        return ".".join(c.code for c in action.cards)
    if isinstance(action, Hit):
        return f"{action.card.code}@{action.spread}"
    if isinstance(action, Discard):
        return action.card.code
    return None


def parse_action(verb: str, arg: str | None) -> Action:
    """A click's verb and argument (card codes) as an engine action, via the record form."""
    entry: dict[str, Any] = {"do": verb}
    if verb == "spread" and arg:
        entry["cards"] = arg.split(".")
    elif verb == "hit" and arg and "@" in arg:
        card, spread = arg.split("@", 1)
        entry.update(card=card, spread=int(spread) if spread.isdigit() else spread)
    elif verb == "discard" and arg:
        entry["card"] = arg
    try:
        return action_from_record(entry)
    except ValueError:
        raise UserError("That choice is not a play I know.") from None
