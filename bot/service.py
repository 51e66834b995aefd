"""Tables as players meet them: lock, load, operate, save, publish.

Every change to a table runs under that table's lock: the table is loaded (from this
process's cache of the newest saved table, else the store), one operation of
`bot.table.Table` is applied, the result is saved against the version it was loaded at
(together with a finished hand and its ledger rows, in one transaction), and its events
are handed to the listeners (the cog's live tables). The rules live in the engine and in
`bot.table`; this module only moves tables between them and the store.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import random
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from engine import Action, Rules, Slap
from engine.help import first_hand_hint

from bot.commands import Command, ComputerPlay, Start
from bot.errors import StaleView, UserError
from bot.hand_tokens import HandTokens
from bot.store import (ChannelBusyError, Database, GuildSettings, LiveTable, PlayerRef, StaleTableError,
                       TableClosedError, create_table, get_guild_settings, get_open_table_in_channel, get_table,
                       has_played, list_open_tables, record_finished_hand, record_tournament_hand, retrying,
                       save_table_version,
                       write_retrying, write_transaction)
from bot.table import Event, Level, Ping, Scoring, Status, Table, level_of
from bot.writes import WriteGate
from engine.text import t

log = logging.getLogger(__name__)

Listener = Callable[[Table, list[Event]], None]


@dataclass(frozen=True, slots=True)
class Person:
    """Who clicked: a Discord member as this layer needs them."""

    user_id: int
    name: str
    is_admin: bool = False
    guild_id: int | None = None
    """The server the click came from; a table of another server is refused."""


def table_of(row: LiveTable, game=None) -> Table:
    return Table.from_json({
        "id": row.id, "guild_id": row.guild_id, "channel_id": row.channel_id, "host_user_id": row.host_user_id,
        "rules": row.rules, "stake": row.stake, "scoring_mode": row.scoring_mode, "status": row.status,
        "seats": row.seats, "hand_number": row.hand_number, "dealer": row.dealer,
        "engine_state": None if game is not None else row.engine_state, "message_id": row.message_id,
        "bookkeeping": row.bookkeeping,
    }, game=game, version=row.version)


class TableService:
    def __init__(self, db: Database, *, rng: random.Random | None = None, clock: Callable[[], float] = time.time):
        self.db = db
        self._rng = rng or random.Random(secrets.randbits(64))
        self._clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """Each table's lock while anyone holds it or waits for it: a table nobody is changing
        has none, so a closed (or long quiet) table leaves nothing behind."""
        self.writes = WriteGate()
        """A play's save (one statement) alongside others; a finished hand's transaction, a new
        table's, alone (bot/writes.py)."""
        self.hand_tokens = HandTokens(db, self.writes)
        """The live private hands' tokens, kept for the next start (bot/hand_tokens.py)."""
        self._latest: dict[int, Table] = {}
        """The newest saved table of each open table. Tables are immutable and this process
        makes every write, so a click needs no read; a stale save is still refused by version."""
        self.listeners: list[Listener] = []
        self.finished_hooks: list[Callable[[Table], None]] = []
        """Called with each table whose hand was just finished and written (the metrics count them)."""
        self._played: dict[tuple[int, int], bool] = {}
        """(guild, user) -> whether they have a stored hand there. Hands of a server are stored
        by the process that owns it, which keeps this up to date in `_save`."""
        """(server, user) known to have a stored hand: past their first hand for good."""

    # ------------------------------------------------------------------ loading, saving, publishing

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def remembered(self) -> set[int]:
        """The tables this process keeps anything of in memory (open tables, and tables in use)."""
        return set(self._latest) | set(self._locks.keys())

    async def _load(self, table_id: int, person: Person | None = None) -> Table:
        log.debug("table %s: loaded", table_id)  # tests count these: a click loads its table once
        table = self._latest.get(table_id)
        if table is None:
            async with self.db.sessions() as session:
                row = await get_table(session, table_id=table_id)
            if row is None:
                raise UserError(t('This table no longer exists.'))
            table = table_of(row)
            if table.is_open:
                self._latest[table_id] = table
        if person is not None and person.guild_id is not None and person.guild_id != table.guild_id:
            raise UserError(t('That table belongs to another server.'))
        return table

    async def load(self, table_id: int, person: Person | None = None) -> Table:
        """The table as last saved, for showing it: waits for a change in progress to finish,
        so nobody is ever shown a play that is not saved yet."""
        async with self.lock(table_id):
            return await self._load(table_id, person)

    def newest(self, table_id: int) -> Table | None:
        """The newest saved state of an open table this process keeps (None: closed, or not kept):
        for showing it, with no load and no wait (what is kept here is saved already)."""
        return self._latest.get(table_id)

    def forget_server_players(self, guild_id: int) -> None:
        """Whom this process knows to have played on a server: forgotten with the server's data."""
        for key in [k for k in self._played if k[0] == guild_id]:
            del self._played[key]

    def open_tables(self) -> list[Table]:
        """The open tables this process keeps (those it drives), newest saved state of each."""
        return list(self._latest.values())

    def forget(self, table_id: int) -> None:
        self._latest.pop(table_id, None)

    def publish(self, table: Table, events: list[Event]) -> None:
        for listener in self.listeners:
            listener(table, events)

    async def _save(self, old: Table, new: Table, columns: dict[str, Any] | None = None) -> Table:
        """Save `new` against the version `old` was loaded at, with any hand that just finished;
        `columns` names what changed when the caller knows (else all but an unchanged hand)."""
        if columns is None:
            columns = new.columns(since=old)
        finished = new.game is not None and new.game.over and new.game is not old.game

        async def write(session) -> int:
            version = await save_table_version(session, table_id=old.id, expected_version=old.version, **columns)
            if finished:
                await self._record_hand(session, new)
            return version

        try:
            async with self.writes.exclusive() if finished else self.writes.shared(), self.db.sessions() as session:
                # the whole transaction again if PostgreSQL picks it as a deadlock victim; a save
                # with no finished hand is one UPDATE, atomic by itself (on SQLite one call)
                version = await (write_retrying(session, write) if finished else retrying(lambda: write(session)))
        except (StaleTableError, TableClosedError):
            self.forget(old.id)
            raise StaleView(t('Someone else acted first: look again at the table.')) from None
        except BaseException:
            self.forget(old.id)
            raise
        if finished:
            for hook in self.finished_hooks:
                hook(new)
            self._played.update(((new.guild_id, s.user_id), True) for s in new.seats if s.is_human)
        # what was saved is `new` (its JSON restores it exactly): no need to read the row back
        saved = replace(new, version=version)
        if saved.is_open:
            self._latest[old.id] = saved
        else:
            self.forget(old.id)
        return saved

    async def _record_hand(self, session, table: Table) -> None:
        game = table.game
        assert game is not None and game.outcome is not None
        link = table.tournament
        if link is not None:  # the tournament sums its results from these rows (bot/tournaments.py)
            result = game.outcome.result(dropper=True)
            if table.side_settled:
                result = {**result, "side_settled": list(table.side_settled)}
            await record_tournament_hand(
                session, hand_id=table.hand_id, tournament_id=link.tournament_id, guild_id=table.guild_id,
                table_id=table.id, round=link.round, table_number=link.number, hand_number=table.hand_number,
                players=[s.user_id for s in table.seats], result=result, record=game.record())
            if not link.ledger:  # "for glory": the hand counts in the tournament alone
                return
        await record_finished_hand(
            session, guild_id=table.guild_id, table_id=table.id, hand_id=table.hand_id, record=game.record(),
            result=game.outcome.result(dropper=True),
            players=[PlayerRef.human(s.user_id, s.name) if s.is_human else PlayerRef.computer(s.name)
                     for s in table.seats],
            stake=game.stake, scoring_mode=str(table.scoring), side_payments=table.side_settled or None,
        )

    async def _keep(self, table_id: int, change: Callable[[Table], Table]) -> Table | None:
        """Save bookkeeping that changes nothing anyone plays (message ids); None if the table closed."""
        async with self.lock(table_id):
            old = self._latest.get(table_id)  # an open table of this process's is kept: no load
            if old is None:
                try:
                    old = await self._load(table_id)
                except UserError:
                    return None
            if not old.is_open:
                return None
            try:
                new = change(old)
                return await self._save(old, new, new.bookkeeping_columns())
            except StaleView:
                return None

    # ------------------------------------------------------------------ opening and bookkeeping

    async def _settings(self, guild_id: int) -> GuildSettings:
        async with self.db.sessions() as session:
            return await get_guild_settings(session, guild_id=guild_id)

    async def open_table(self, *, guild_id: int, channel_id: int, host: Person, preset: str | None = None,
                         stake: int | None = None, scoring: str | None = None, hand_size: int | None = None,
                         computers: int = 0, level: str = "normal") -> Table:
        settings = await self._settings(guild_id)
        if not settings.allows_channel(channel_id):
            raise UserError(t("Tables can't be opened in this channel on this server; ask someone who manages the server (/tonk-admin settings)."))
        rules_dict = dict(settings.rules) if preset is None else {"preset": preset}
        if hand_size is not None:
            rules_dict["hand_size"] = hand_size
        rules = Rules.from_dict(rules_dict)  # a RulesError is one clear line
        if scoring is None:
            scoring = rules.scoring if preset is not None else settings.scoring_mode
        table = Table.open(guild_id=guild_id, channel_id=channel_id, host_id=host.user_id, host_name=host.name,
                           rules=rules, stake=settings.stake if stake is None else stake, scoring=Scoring(scoring),
                           computers=computers, level=level_of(level), now=self._clock(),
                           host_confirms=await self.is_new(guild_id, host.user_id))
        return await self._create(table)

    async def play_again(self, table_id: int, person: Person) -> Table:
        """A closed table's Play again: a new lobby in its channel, hosted by `person` (who sat
        at it), with the same seats (but those who left), computers, rules, stake and scoring."""
        old = await self.load(table_id, person)
        if old.is_open:
            raise UserError(t('This table is still open: play on here.'))
        settings = await self._settings(old.guild_id)
        if not settings.allows_channel(old.channel_id):
            raise UserError(t("Tables can't be opened in this channel on this server; ask an admin (/tonk settings)."))
        return await self._create(old.again(person.user_id, person.name, now=self._clock()))

    async def _create(self, table: Table) -> Table:
        """Store a new lobby; the channel must be free."""
        data = table.to_json()
        async with self.writes.exclusive(), self.db.sessions() as session:
            try:
                row = await create_table(
                    session, guild_id=table.guild_id, channel_id=table.channel_id, host_user_id=table.host_user_id,
                    seats=data["seats"], rules=data["rules"], stake=table.stake, scoring_mode=data["scoring_mode"],
                    bookkeeping=data["bookkeeping"],
                )
            except ChannelBusyError:
                raise UserError(t('There is already a table in this channel: join it, or /tonk end it.')) from None
        return table_of(row)

    async def open_tournament_table(self, table: Table) -> Table:
        """Store a tournament's table (every seat taken, in its thread) and deal its first hand."""
        assert table.tournament is not None
        created = await self._create(table)
        return await self._operate(created.id, None, lambda t: Start(t.host_user_id))

    async def set_message(self, table_id: int, message_id: int) -> Table | None:
        return await self._keep(table_id, lambda t: t.with_message(message_id))

    async def set_ping(self, table_id: int, ping: Ping | None) -> Table | None:
        return await self._keep(table_id, lambda t: t.with_ping(ping))

    async def open_in_channel(self, channel_id: int) -> Table | None:
        async with self.db.sessions() as session:
            row = await get_open_table_in_channel(session, channel_id=channel_id)
        return await self.load(row.id) if row is not None else None  # type: ignore[arg-type]

    async def recover(self, owns: Callable[[int], bool] = lambda guild_id: True) -> list[Table]:
        """After a restart: every open table of the servers this process `owns` (its shards'),
        with any finished-but-unrecorded hand written."""
        async with self.db.sessions() as session:
            rows = await list_open_tables(session)
        tables = []
        for row in (row for row in rows if owns(row.guild_id)):
            table = table_of(row)
            self._latest[table.id] = table
            if table.status is Status.BETWEEN_HANDS and table.game is not None and table.game.over:
                async with self.lock(table.id), self.writes.exclusive(), self.db.sessions() as session, \
                        write_transaction(session):
                    await self._record_hand(session, table)  # exactly once: a retry changes nothing
            tables.append(table)
        return tables

    # ------------------------------------------------------------------ what people, timers and computers do

    async def apply(self, table_id: int, person: Person | None, command: Command) -> Table:
        """The one entry for every change: lock, load, apply `command`, save, publish. A refusal
        (`TonkError`, `UserError` among them) changes nothing. `person` is who clicked (None for
        the bot's own timers and computer players): a table of another server is refused."""
        return await self._operate(table_id, person, lambda table: command)

    async def computer_step(self, table_id: int, *, choose) -> Table:
        """One play by the computer player to act, if any, as a `ComputerPlay`. A level that
        searches (expert) decides in a worker thread, so the event loop serves other tables
        meanwhile; the table's lock is held throughout, so nothing else changes this table while
        it thinks."""
        async def decide(table: Table) -> Command | None:
            turn = table.computer_turn()
            if turn is None:
                return None
            session = table.computer_session()
            call = functools.partial(choose, *turn, **({"session": session} if session is not None else {}))
            action = await asyncio.to_thread(call) if turn[0].searches else call()
            return ComputerPlay(table.turn_key, action)  # type: ignore[arg-type]

        return await self._operate(table_id, None, decide)

    async def _operate(self, table_id: int, person: Person | None,
                       decide: Callable[[Table], Command | None | Awaitable[Command | None]]) -> Table:
        """Lock, load, decide the command, apply it, save, publish. No command, or a command
        with no events, saves nothing."""
        async with self.lock(table_id):
            old = await self._load(table_id, person)
            command = decide(old)
            if inspect.isawaitable(command):
                command = await command
            if command is None:
                return old
            new, events = old.apply(command, now=self._clock(), rng=self._rng)
            if not events:
                return old
            saved = await self._save(old, new)
        self.publish(saved, events)
        return saved

    async def end_question(self, table_id: int, person: Person) -> tuple[Table, str | None]:
        """The table, and what closing it now would cost others (None: close at once)."""
        table = await self.load(table_id, person)
        return table, table.end_question(person.user_id, is_admin=person.is_admin)

    async def rules_to_change(self, table_id: int, person: Person) -> Table:
        """The lobby as it is, for a host about to change a rule (anyone else is refused)."""
        table = await self.load(table_id, person)
        table.may_change_rules(person.user_id)
        return table

    async def is_new(self, guild_id: int, user_id: int) -> bool:
        """Whether this person has no stored hand on this server yet (a new player: they get the
        first-hand hint, and confirm their picks unless they choose otherwise)."""
        key = (guild_id, user_id)
        played = self._played.get(key)
        if played is None:  # asked once per person and server, not at every render of their hand
            async with self.db.sessions() as session:
                played = await has_played(session, guild_id=guild_id, account=PlayerRef.human(user_id, "me").account)
            self._played[key] = played
        return not played

    async def first_hand_hint(self, table: Table, user_id: int) -> str | None:
        """The one-line hint for a player's first hand: shown while they have no stored hand on
        this server (so through the whole of their first hand, and never again)."""
        return first_hand_hint(table.rules) if await self.is_new(table.guild_id, user_id) else None

def computer_choice(level: Level, seed: int, view, session=None) -> Action:
    """What a computer player of `level` plays from its seat's view (and nothing else); `session`:
    its session memory and each seat's key (`Table.computer_session`), for a level that keeps one."""
    from engine.players import make_player

    player = make_player(str(level), seed=seed)
    if session is not None:
        player.session = session
    return player.choose(view)


def computer_slaps(table: Table) -> list[tuple[float, int, Slap]]:
    """House rule (slap): (reaction time in seconds, seat, slap) of each computer seat that would
    slap the open window, quickest first; each decided from that seat's view alone."""
    from engine.players import make_player

    game = table.game
    if table.slap_window is None or game is None:
        return []
    offers = []
    for seat in game.slappers():
        if not table.seats[seat].played_by_computer:
            continue
        seed = hash((table.id, table.hand_number, len(game.log), seat)) & 0xFFFFFFFF
        decision = make_player(str(table.seats[seat].computer_level), seed=seed).slap(game.view(seat))
        if decision is not None:
            offers.append((decision[1], seat, decision[0]))
    return sorted(offers, key=lambda o: (o[0], o[1]))


__all__ = ["Person", "TableService", "computer_choice", "computer_slaps", "table_of"]
