"""Tournaments as organisers and entrants meet them: lock, load, operate, save, publish.

The model is `bot.tournament.Tournament`; its tables are ordinary tables (`TableService`),
each in its own thread, linked to it (`Table.tournament`). Every finished hand of such a table
is stored with the table's save (`TableService._record_hand`); this service listens to the
tables' events and, after each finished hand, sums the table's stored hands into the
tournament's results (so a restart between the two writes loses nothing: `recover` sums them
again), saves the tournament and tells its listeners (the cog's standings message).

Discord's part (the threads, the messages) is the cog's: `start` seats round one, then the cog
makes a thread for each table and calls `open_table` for it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from engine import Rules
from engine.text import t

from bot.commands import End
from bot.errors import StaleView, UserError
from bot.service import Person, TableService
from bot.store import (Database, PlayerRef, StaleTournamentError, TournamentBusyError, create_tournament,
                       finished_tournaments, get_guild_settings, get_open_tournament_in_channel, get_tournament,
                       list_open_tournaments, save_tournament, table_hand_results, tournament_record, write_places,
                       write_transaction)
from bot.table import Event, HandOver, Scoring, Table, TableClosed, TournamentLink, capacity
from bot.tournament import Config, Format, Stage, Tournament, results_of_hands

log = logging.getLogger(__name__)

TournamentListener = Callable[[Tournament], None]


def tournament_of(row) -> Tournament:
    return replace(Tournament.from_json({**row.data, "id": row.id}, version=row.version))


class TournamentService:
    def __init__(self, db: Database, tables: TableService, *, seed: Callable[[], int] | None = None,
                 clock: Callable[[], float] = time.time):
        self.db = db
        self.tables = tables
        self._seed = seed or (lambda: secrets.randbits(48))
        self._clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.listeners: list[TournamentListener] = []
        self._pending: set[asyncio.Task] = set()
        tables.listeners.append(self._on_table_events)

    def lock(self, tournament_id: int) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    def publish(self, tournament: Tournament) -> None:
        for listener in self.listeners:
            listener(tournament)

    # ------------------------------------------------------------------ loading and saving

    async def load(self, tournament_id: int, person: Person | None = None) -> Tournament:
        async with self.db.sessions() as session:
            row = await get_tournament(session, tournament_id=tournament_id)
        if row is None:
            raise UserError(t("This tournament no longer exists."))
        tournament = tournament_of(row)
        if person is not None and person.guild_id is not None and person.guild_id != tournament.guild_id:
            raise UserError(t("That tournament belongs to another server."))
        return tournament

    async def in_channel(self, channel_id: int) -> Tournament | None:
        async with self.db.sessions() as session:
            row = await get_open_tournament_in_channel(session, channel_id=channel_id)
        return tournament_of(row) if row is not None else None

    async def _save(self, old: Tournament, new: Tournament) -> Tournament:
        if new == old:
            return old
        finished = new.stage is Stage.FINISHED and old.stage is not Stage.FINISHED
        try:
            async with self.tables.writes.exclusive(), self.db.sessions() as session, write_transaction(session):
                version = await save_tournament(session, tournament_id=old.id, expected_version=old.version,
                                                status=str(new.stage), data=new.to_json())
                if finished:  # the places, in the same transaction: counted in stats exactly once
                    await write_places(session, tournament_id=new.id, guild_id=new.guild_id, places=[
                        (PlayerRef.human(s.user_id, s.name).account, s.name, s.place) for s in new.standings()])
        except StaleTournamentError:
            raise StaleView(t("The tournament has moved on: look again.")) from None
        return replace(new, version=version)

    async def operate(self, tournament_id: int, person: Person | None,
                      change: Callable[[Tournament], Tournament | Awaitable[Tournament]]) -> Tournament:
        """Lock, load, change, save, publish; a refusal changes nothing."""
        async with self.lock(tournament_id):
            old = await self.load(tournament_id, person)
            new = change(old)
            if asyncio.iscoroutine(new):
                new = await new
            saved = await self._save(old, new)  # type: ignore[arg-type]
        if saved is not old:
            self.publish(saved)
        return saved

    # ------------------------------------------------------------------ sign-ups

    async def open(self, *, guild_id: int, channel_id: int, organiser: Person, format: str = "knockout",
                   seats: int = 3, hands: int = 3, rounds: int = 3, preset: str | None = None,
                   scoring: str | None = None, ledger: bool = False, starts_at: int | None = None) -> Tournament:
        async with self.db.sessions() as session:
            settings = await get_guild_settings(session, guild_id=guild_id)
        if not settings.allows_channel(channel_id):
            raise UserError(t("Tables can't be opened in this channel on this server; ask someone who manages "
                              "the server (/tonk-admin settings)."))
        rules_dict = dict(settings.rules) if preset is None else {"preset": preset}
        rules = Rules.from_dict(rules_dict)
        if scoring is None:
            scoring = rules.scoring if preset is not None else settings.scoring_mode
        config = Config(format=Format(format), seats=seats, hands=hands, rounds=rounds, rules=rules.to_dict(),
                        scoring=Scoring(scoring).value, stake=settings.stake, ledger=ledger, starts_at=starts_at,
                        most_at_table=capacity(rules))
        tournament = Tournament.open(guild_id=guild_id, channel_id=channel_id, organiser_id=organiser.user_id,
                                     organiser_name=organiser.name, config=config, seed=self._seed())
        async with self.tables.writes.exclusive(), self.db.sessions() as session:
            try:
                row = await create_tournament(session, guild_id=guild_id, channel_id=channel_id,
                                              data=tournament.to_json())
            except TournamentBusyError:
                raise UserError(t("A tournament is running in this channel already: one channel, one tournament.")) \
                    from None
        return tournament_of(row)

    async def join(self, tournament_id: int, person: Person) -> Tournament:
        return await self.operate(tournament_id, person, lambda x: x.join(person.user_id, person.name))

    async def leave(self, tournament_id: int, person: Person) -> Tournament:
        return await self.operate(tournament_id, person, lambda x: x.leave(person.user_id))

    async def set_message(self, tournament_id: int, message_id: int) -> Tournament:
        return await self.operate(tournament_id, None, lambda x: x.with_message(message_id))

    async def start(self, tournament_id: int, person: Person) -> Tournament:
        """Sign-ups close and round one is seated; the cog then opens each table (`open_table`)."""
        return await self.operate(tournament_id, person, lambda x: x.start(person.user_id))

    async def next_round(self, tournament_id: int, person: Person) -> Tournament:
        return await self.operate(tournament_id, person, lambda x: x.next_round(person.user_id))

    async def withdraw(self, tournament_id: int, person: Person, user_id: int) -> Tournament:
        return await self.operate(tournament_id, person, lambda x: x.withdraw(person.user_id, user_id))

    async def end(self, tournament_id: int, person: Person) -> Tournament:
        """End the tournament (organiser or Manage Server): its open tables close, their unfinished hands
        pay nothing."""
        ended = await self.operate(tournament_id, person,
                                   lambda x: x.end(person.user_id, is_admin=person.is_admin, name=person.name))
        for table in ended.current.tables if ended.current else ():
            if table.table_id is not None and not table.done:
                try:
                    await self.tables.apply(table.table_id, None, End(ended.organiser_id, person.name, is_admin=True))
                except (UserError, StaleView):
                    pass  # closed meanwhile
        return ended

    # ------------------------------------------------------------------ the tables of a round

    async def open_table(self, tournament_id: int, round_number: int, table_number: int, *,
                         thread_id: int) -> tuple[Tournament, Table]:
        """The table `table_number` of round `round_number`, in thread `thread_id`: stored, linked,
        dealt. A table that has one already is returned as it is (a retry after a restart)."""
        async with self.lock(tournament_id):
            tournament = await self.load(tournament_id)
            seated = tournament.current.table(table_number) if tournament.current else None
            if seated is None or tournament.current.number != round_number:  # type: ignore[union-attr]
                raise UserError(t("Round {n} is not in play.", n=round_number))
            if seated.table_id is not None:
                return tournament, await self.tables.load(seated.table_id)
            config = tournament.config
            link = TournamentLink(tournament.id, round_number, table_number, config.hands, config.ledger)
            table = Table.for_tournament(
                guild_id=tournament.guild_id, channel_id=thread_id, organiser_id=tournament.organiser_id,
                rules=Rules.from_dict(config.rules), stake=config.stake, scoring=Scoring(config.scoring),
                players=[(u, tournament.name_of(u)) for u in seated.players], link=link, now=self._clock())
            table = await self.tables.open_tournament_table(table)
            saved = await self._save(tournament, tournament.placed(round_number, table_number, table_id=table.id,
                                                                     thread_id=thread_id))
        self.publish(saved)
        if not table.is_open:  # every hand was a tonk on the deal: the table is done already
            await self.follow_table(table)
        return saved, table

    def _on_table_events(self, table: Table, events: list[Event]) -> None:
        """The table service's listener: a finished hand (or a closed table) of a tournament's table
        brings its results to the tournament."""
        if table.tournament is None or not any(isinstance(e, (HandOver, TableClosed)) for e in events):
            return
        task = asyncio.get_running_loop().create_task(self.follow_table(table), name=f"tonk-tournament-{table.id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settled(self) -> None:
        """Wait until every finished hand heard of is in its tournament (tests, shutdown)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def follow_table(self, table: Table) -> Tournament | None:
        """Sum `table`'s stored hands into its tournament's results; a closed table is done."""
        link = table.tournament
        assert link is not None
        try:
            async with self.db.sessions() as session:
                hands = await table_hand_results(session, table_id=table.id)

            def change(tournament: Tournament) -> Tournament:
                current = tournament.current
                if tournament.stage is not Stage.PLAYING or current is None or current.number != link.round:
                    return tournament
                seated = current.table(link.number)
                results = results_of_hands(seated.players, hands, scoring=tournament.config.scoring)
                return tournament.recorded(link.round, link.number, results, hands_played=len(hands),
                                           done=not table.is_open)

            return await self.operate(link.tournament_id, None, change)
        except Exception:
            log.exception("tournament %s: could not follow table %s", link.tournament_id, table.id)
            return None

    # ------------------------------------------------------------------ after a restart

    async def recover(self, owns: Callable[[int], bool] = lambda guild_id: True) -> list[Tournament]:
        """Every open tournament of the servers this process owns, its round's results summed
        again from the stored hands (nothing lost between a hand and the standings)."""
        async with self.db.sessions() as session:
            rows = await list_open_tournaments(session)
        tournaments = []
        for row in rows:
            if not owns(row.guild_id):
                continue
            tournament = tournament_of(row)
            if tournament.stage is Stage.PLAYING and tournament.current is not None:
                for seated in tournament.current.tables:
                    if seated.table_id is not None and not seated.done:
                        table = await self.tables.load(seated.table_id)
                        tournament = await self.follow_table(table) or tournament
            tournaments.append(tournament)
        return tournaments

    # ------------------------------------------------------------------ reading

    async def history(self, guild_id: int, limit: int = 5) -> list[Tournament]:
        async with self.db.sessions() as session:
            rows = await finished_tournaments(session, guild_id=guild_id, limit=limit)
        return [tournament_of(row) for row in rows]

    async def record_of(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(tournaments played to the end, won) by a person on a server."""
        async with self.db.sessions() as session:
            return await tournament_record(session, guild_id=guild_id,
                                           account=PlayerRef.human(user_id, "me").account)


__all__ = ["TournamentService", "tournament_of"]
