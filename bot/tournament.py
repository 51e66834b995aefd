"""A tournament as data: sign-ups, rounds of tables, results, standings and the places at the end.

Nothing here touches Discord, asyncio or the store (`bot.tournaments` moves a tournament
between them). A `Tournament` is frozen; every operation returns the new one or raises a
`UserError` that says why and changes nothing. Seating is seeded by the tournament's own
`seed` and the round's number, so a restart seats exactly as before.

    sign-up ──start──▶ playing ──last table done──▶ between rounds ──next round──▶ playing
                                  └──(last round, or one table was the final)──▶ finished
      any ──end──▶ ended

Decisions where the issue is silent (docs/TOURNAMENTS.md says the same for organisers):

- **Points** are what the round's hands paid an entrant at their table (the table's totals:
  stakes paid and won; under push-ups, minus the push-ups they owe). A table's totals sum to
  zero, so points across tables compare. Ties: hands won, then opponents' points (the points
  of everyone an entrant sat with, once per sitting), then the order of sign-up.
- **Balanced tables** (`table_sizes`): as many tables of the chosen size as fit, the rest of
  the entrants spread one each over them (10 at 3 seats: 4, 3, 3; 64 at 3: twenty of 3 and
  one of 4); only where that would put two extra at one table are there more, smaller
  tables instead (5 at 3: 3, 2). No computer fills a seat.
- **Knock-out**: the best of each table go on (round points, then hands won in the round,
  then tournament points, then sign-up order); when fewer than a table's seats would go on
  from more than one table, the best runners-up fill the next table up to the seats. A
  round that fits one table (seats + 1 at most) is the final; its best wins. Later rounds
  are seated by standing in a snake (the best spread over the tables).
- **Swiss**: round one is a seeded draw; each later round seats by standing and, where the
  numbers allow, nobody with someone they sat with before (a seeded local search that
  minimises repeated pairs first, then how far apart in the standings a table's players are).
- A withdrawal is made by the organiser between rounds: the entrant is seated no more and
  places after everyone still playing. Who leaves a table mid-round keeps the seat: a
  computer plays it out and the result is theirs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations
from typing import Any, Iterable

from bot.errors import UserError
from engine.text import t, tn

SCHEMA = 1
MAX_ENTRANTS = 64
MIN_SEATS, MAX_SEATS = 2, 4
DEFAULT_SEATS = 3
MAX_HANDS = 20
MAX_SWISS_ROUNDS = 10
MIN_TABLES = 2
"""A start needs enough entrants for two full tables: a single table is not a tournament."""


class Format(StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"


class Stage(StrEnum):
    SIGNUP = "signup"
    PLAYING = "playing"
    BETWEEN = "between_rounds"
    FINISHED = "finished"
    ENDED = "ended"


OPEN_STAGES = (Stage.SIGNUP, Stage.PLAYING, Stage.BETWEEN)


@dataclass(frozen=True, slots=True)
class Config:
    format: Format = Format.KNOCKOUT
    seats: int = DEFAULT_SEATS
    hands: int = 3
    """Hands each table plays in a round."""
    rounds: int = 3
    """Swiss: the fixed number of rounds (a knock-out plays until one table is left)."""
    rules: dict[str, Any] = field(default_factory=lambda: {"preset": "standard"})
    scoring: str = "stakes"
    stake: int = 1
    ledger: bool = False
    """True: the hands count in the server's ledger ("for the ledger"); False: "for glory"."""
    starts_at: int | None = None
    """When the organiser means to start (Unix seconds), shown as a Discord timestamp."""
    most_at_table: int = MAX_SEATS + 1
    """The most seats one table may have under these rules (the engine's limit)."""

    def check(self) -> "Config":
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise UserError(t("A tournament table seats from {low} to {high}.", low=MIN_SEATS, high=MAX_SEATS))
        if not 1 <= self.hands <= MAX_HANDS:
            raise UserError(t("A round is from 1 to {top} hands at each table.", top=MAX_HANDS))
        if self.format is Format.SWISS and not 1 <= self.rounds <= MAX_SWISS_ROUNDS:
            raise UserError(t("A Swiss tournament plays from 1 to {top} rounds.", top=MAX_SWISS_ROUNDS))
        if self.most_at_table < self.seats:
            raise UserError(t("These house rules seat at most {n} at a table.", n=self.most_at_table))
        return self

    def to_json(self) -> dict[str, Any]:
        return {"format": str(self.format), "seats": self.seats, "hands": self.hands, "rounds": self.rounds,
                "rules": dict(self.rules), "scoring": self.scoring, "stake": self.stake, "ledger": self.ledger,
                "starts_at": self.starts_at, "most_at_table": self.most_at_table}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Config":
        return cls(format=Format(data["format"]), seats=data["seats"], hands=data["hands"], rounds=data["rounds"],
                   rules=dict(data["rules"]), scoring=data["scoring"], stake=data["stake"], ledger=data["ledger"],
                   starts_at=data.get("starts_at"), most_at_table=data.get("most_at_table", MAX_SEATS + 1))


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's round at one table, so far or final."""

    user_id: int
    score: int = 0
    hands_won: int = 0


@dataclass(frozen=True, slots=True)
class RoundTable:
    number: int
    """1, 2, ... within the round."""
    players: tuple[int, ...]
    """User ids, in seat order."""
    table_id: int | None = None
    thread_id: int | None = None
    results: tuple[Result, ...] = ()
    hands_played: int = 0
    done: bool = False

    def result_of(self, user_id: int) -> Result:
        return next((r for r in self.results if r.user_id == user_id), Result(user_id))

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "players": list(self.players), "table_id": self.table_id,
                "thread_id": self.thread_id, "hands_played": self.hands_played, "done": self.done,
                "results": [[r.user_id, r.score, r.hands_won] for r in self.results]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "RoundTable":
        return cls(number=data["number"], players=tuple(data["players"]), table_id=data.get("table_id"),
                   thread_id=data.get("thread_id"), hands_played=data.get("hands_played", 0),
                   done=data.get("done", False), results=tuple(Result(*r) for r in data.get("results") or ()))


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[RoundTable, ...]
    final: bool = False
    advancing: tuple[int, ...] = ()
    """Knock-out: who goes on, once the round is done."""

    @property
    def done(self) -> bool:
        return all(table.done for table in self.tables)

    def table(self, number: int) -> RoundTable:
        for table in self.tables:
            if table.number == number:
                return table
        raise UserError(t("There is no table {n} in this round.", n=number))

    def table_of(self, user_id: int) -> RoundTable | None:
        return next((table for table in self.tables if user_id in table.players), None)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "final": self.final, "advancing": list(self.advancing),
                "tables": [table.to_json() for table in self.tables]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Round":
        return cls(number=data["number"], final=data.get("final", False), advancing=tuple(data.get("advancing") or ()),
                   tables=tuple(RoundTable.from_json(table) for table in data["tables"]))


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    user_id: int
    name: str
    points: int
    hands_won: int
    opponents_points: int
    withdrawn: bool = False
    out: bool = False
    """Knock-out: no longer playing (knocked out or withdrawn)."""


# ---------------------------------------------------------------------------- seating


def table_sizes(n: int, seats: int, most: int | None = None) -> list[int]:
    """Balanced tables for `n` entrants at `seats` a table (see the module's note): sizes
    differ by at most one; largest first."""
    if n < 2:
        return []
    most = seats + 1 if most is None else min(most, seats + 1)
    tables = max(1, n // seats)
    if -(-n // tables) > most:  # two extra at a table: more, smaller tables instead
        tables = -(-n // seats)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _pairs(players: Iterable[int]) -> set[frozenset[int]]:
    return {frozenset(pair) for pair in combinations(players, 2)}


def repeats(tables: Iterable[Iterable[int]], met: set[frozenset[int]]) -> int:
    """How many pairs sitting together in `tables` have sat together before."""
    return sum(len(_pairs(table) & met) for table in tables)


def seat_avoiding(order: list[int], sizes: list[int], met: set[frozenset[int]], rng: random.Random,
                  *, tries: int = 24) -> list[tuple[int, ...]]:
    """`order` (best first) seated at tables of `sizes`: as few repeated pairs as the search
    finds, then each table's players as close in the standings as it can. Seeded by `rng`."""
    rank = {user: i for i, user in enumerate(order)}

    def cost(table: list[int]) -> tuple[int, int]:
        pairs = _pairs(table)
        return len(pairs & met), (max(rank[u] for u in table) - min(rank[u] for u in table)) if table else 0

    def chunked(users: list[int]) -> list[list[int]]:
        out, at = [], 0
        for size in sizes:
            out.append(users[at:at + size])
            at += size
        return out

    best: list[list[int]] | None = None
    best_cost = (1 << 30, 1 << 30)
    for attempt in range(tries):
        users = list(order)
        if attempt >= tries // 2:  # a start anywhere: single swaps alone can be stuck
            rng.shuffle(users)
        elif attempt:  # a perturbed start: neighbours in the standings swapped at random
            for i in range(len(users) - 1):
                if rng.random() < 0.5:
                    j = min(len(users) - 1, i + rng.randint(1, 3))
                    users[i], users[j] = users[j], users[i]
        tables = chunked(users)
        costs = [cost(table) for table in tables]
        improved = True
        while improved:
            improved = False
            for a in range(len(tables)):
                for b in range(a + 1, len(tables)):
                    for i in range(len(tables[a])):
                        for j in range(len(tables[b])):
                            ta, tb = list(tables[a]), list(tables[b])
                            ta[i], tb[j] = tb[j], ta[i]
                            ca, cb = cost(ta), cost(tb)
                            old = (costs[a][0] + costs[b][0], costs[a][1] + costs[b][1])
                            new = (ca[0] + cb[0], ca[1] + cb[1])
                            if new < old:
                                tables[a], tables[b], costs[a], costs[b] = ta, tb, ca, cb
                                improved = True
        total = (sum(c[0] for c in costs), sum(c[1] for c in costs))
        if total < best_cost:
            best, best_cost = [list(table) for table in tables], total
        if best_cost[0] == 0 and attempt >= 1:
            break
    assert best is not None
    return [tuple(sorted(table, key=rank.__getitem__)) for table in best]


def seat_snake(order: list[int], sizes: list[int]) -> list[tuple[int, ...]]:
    """`order` (best first) dealt over the tables in a snake (1, 2, 3, 3, 2, 1, ...): the best
    are spread over the tables."""
    tables: list[list[int]] = [[] for _ in sizes]
    forward, at = True, 0
    for user in order:
        for _ in range(2 * len(sizes)):
            if len(tables[at]) < sizes[at]:
                break
            at, forward = _step(at, forward, len(sizes))
        tables[at].append(user)
        at, forward = _step(at, forward, len(sizes))
    return [tuple(table) for table in tables]


def _step(at: int, forward: bool, n: int) -> tuple[int, bool]:
    if forward:
        return (at + 1, True) if at + 1 < n else (at, False)
    return (at - 1, False) if at > 0 else (at, True)


# ---------------------------------------------------------------------------- the tournament


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    organiser_name: str
    config: Config
    seed: int
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    stage: Stage = Stage.SIGNUP
    message_id: int | None = None
    """The sign-up message, which becomes the standings message at the start."""
    closed_reason: Any = None
    version: int = 0
    """The store's version this was loaded at (not part of the JSON)."""

    # ------------------------------------------------------------------ queries

    @property
    def is_open(self) -> bool:
        return self.stage in OPEN_STAGES

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def name_of(self, user_id: int) -> str:
        entrant = self.entrant(user_id)
        return entrant.name if entrant is not None else str(user_id)

    @property
    def active(self) -> list[int]:
        """Who is still playing: not withdrawn and (knock-out) not knocked out."""
        alive = [e.user_id for e in self.entrants if not e.withdrawn]
        if self.config.format is Format.KNOCKOUT and self.rounds and self.rounds[-1].done:
            going = set(self.rounds[-1].advancing)
            alive = [u for u in alive if u in going]
        elif self.config.format is Format.KNOCKOUT and len(self.rounds) > 1:
            going = set(self.rounds[-2].advancing)
            alive = [u for u in alive if u in going]
        return alive

    def totals(self) -> dict[int, tuple[int, int]]:
        """(points, hands won) of every entrant, over every round so far (the one in play too)."""
        totals = {e.user_id: [0, 0] for e in self.entrants}
        for round_ in self.rounds:
            for table in round_.tables:
                for result in table.results:
                    if result.user_id in totals:
                        totals[result.user_id][0] += result.score
                        totals[result.user_id][1] += result.hands_won
        return {user: (p, w) for user, (p, w) in totals.items()}

    def met(self) -> set[frozenset[int]]:
        """Every pair that has sat at one table."""
        pairs: set[frozenset[int]] = set()
        for round_ in self.rounds:
            for table in round_.tables:
                pairs |= _pairs(table.players)
        return pairs

    def standings(self) -> list[Standing]:
        """Everyone, best first: points, hands won, opponents' points, sign-up order; in a
        knock-out those still in come first, then the others by the round they went out in;
        withdrawn entrants last."""
        totals = self.totals()
        opponents = {e.user_id: 0 for e in self.entrants}
        for round_ in self.rounds:
            for table in round_.tables:
                for user in table.players:
                    if user in opponents:
                        opponents[user] += sum(totals.get(o, (0, 0))[0] for o in table.players if o != user)
        signed = {e.user_id: i for i, e in enumerate(self.entrants)}
        lasted = self._rounds_lasted()
        withdrawn = {e.user_id for e in self.entrants if e.withdrawn}

        def key(user: int):
            points, won = totals[user]
            return (user in withdrawn, -lasted.get(user, 0), -points, -won, -opponents[user], signed[user])

        if self.config.format is Format.KNOCKOUT and self.stage is Stage.FINISHED:
            order = self._knockout_places()
        else:
            order = sorted(totals, key=key)
        alive = set(self.active)
        return [Standing(place=i + 1, user_id=user, name=self.name_of(user), points=totals[user][0],
                         hands_won=totals[user][1], opponents_points=opponents[user], withdrawn=user in withdrawn,
                         out=self.config.format is Format.KNOCKOUT and user not in alive)
                for i, user in enumerate(order)]

    def _rounds_lasted(self) -> dict[int, int]:
        """Knock-out: how many rounds each entrant reached (the later the better); Swiss: none."""
        if self.config.format is not Format.KNOCKOUT:
            return {}
        lasted: dict[int, int] = {}
        for round_ in self.rounds:
            for table in round_.tables:
                for user in table.players:
                    lasted[user] = round_.number
            for user in round_.advancing:
                lasted[user] = round_.number + 1
        return lasted

    def _knockout_places(self) -> list[int]:
        """A finished knock-out's places: the final table in its order, then each earlier round's
        players who went out there, in that round's order; withdrawn entrants last."""
        withdrawn = [e.user_id for e in self.entrants if e.withdrawn]
        placed: list[int] = []
        for round_ in reversed(self.rounds):
            ranked = self._round_order(round_)
            placed += [u for u in ranked if u not in placed and u not in withdrawn]
        placed += [e.user_id for e in self.entrants if e.user_id not in placed and e.user_id not in withdrawn]
        return placed + withdrawn

    def table_order(self, table: RoundTable, before: dict[int, tuple[int, int]] | None = None) -> list[int]:
        """A table's players, best first: round points, hands won in the round, tournament
        points, sign-up order."""
        totals = before if before is not None else self.totals()
        signed = {e.user_id: i for i, e in enumerate(self.entrants)}
        return sorted(table.players, key=lambda u: (-table.result_of(u).score, -table.result_of(u).hands_won,
                                                    -totals.get(u, (0, 0))[0], signed.get(u, 0)))

    def _round_order(self, round_: Round) -> list[int]:
        """Every player of a round, best first: the table winners, then the runners-up, and so on;
        within each rank by round points, hands won, sign-up order."""
        signed = {e.user_id: i for i, e in enumerate(self.entrants)}
        totals = self.totals()
        ranked = []
        for table in round_.tables:
            for place, user in enumerate(self.table_order(table, totals)):
                result = table.result_of(user)
                ranked.append((place, -result.score, -result.hands_won, signed.get(user, 0), user))
        return [entry[-1] for entry in sorted(ranked)]

    @property
    def winner(self) -> int | None:
        if self.stage is not Stage.FINISHED:
            return None
        standings = self.standings()
        return standings[0].user_id if standings else None

    # ------------------------------------------------------------------ sign-ups

    @classmethod
    def open(cls, *, guild_id: int, channel_id: int, organiser_id: int, organiser_name: str, config: Config,
             seed: int) -> "Tournament":
        return cls(id=0, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id,
                   organiser_name=organiser_name, config=config.check(), seed=seed)

    def join(self, user_id: int, name: str) -> "Tournament":
        if self.stage is not Stage.SIGNUP:
            raise UserError(t("Sign-ups are closed: the tournament has started."))
        if self.entrant(user_id) is not None:
            raise UserError(t("You are signed up already."))
        if len(self.entrants) >= MAX_ENTRANTS:
            raise UserError(t("The tournament is full: {n} entrants at most.", n=MAX_ENTRANTS))
        return replace(self, entrants=self.entrants + (Entrant(user_id, name),))

    def leave(self, user_id: int) -> "Tournament":
        if self.stage is not Stage.SIGNUP:
            raise UserError(t("The tournament has started: leave your table, and a computer plays your seat out."))
        if self.entrant(user_id) is None:
            raise UserError(t("You are not signed up."))
        return replace(self, entrants=tuple(e for e in self.entrants if e.user_id != user_id))

    @property
    def fewest(self) -> int:
        return MIN_TABLES * self.config.seats

    def start(self, user_id: int) -> "Tournament":
        """The organiser closes sign-ups; round one is seated (its tables get ids later)."""
        if user_id != self.organiser_id:
            raise UserError(t("Only the organiser, {name}, can start the tournament.", name=self.organiser_name))
        if self.stage is not Stage.SIGNUP:
            raise UserError(t("The tournament has started already."))
        if len(self.entrants) < self.fewest:
            raise UserError(tn("A tournament needs {n} entrant for two tables of {seats}; {signed} have signed up.",
                               "A tournament needs {n} entrants for two tables of {seats}; {signed} have signed up.",
                               self.fewest, seats=self.config.seats, signed=len(self.entrants)))
        return self._seat_round()

    # ------------------------------------------------------------------ rounds

    def _rng(self, round_number: int) -> random.Random:
        return random.Random(f"{self.seed}:{round_number}")

    def _seat_round(self) -> "Tournament":
        number = len(self.rounds) + 1
        players = self.active
        config = self.config
        rng = self._rng(number)
        final = False
        if number == 1:
            order = list(players)
            rng.shuffle(order)
            sizes = table_sizes(len(order), config.seats, config.most_at_table)
            tables = _chunk(order, sizes)
        else:
            standing = [s.user_id for s in self.standings()]
            order = [u for u in standing if u in set(players)]
            if config.format is Format.KNOCKOUT:
                if len(order) <= min(config.seats + 1, config.most_at_table):
                    tables, final = [tuple(order)], True
                else:
                    tables = seat_snake(order, table_sizes(len(order), config.seats, config.most_at_table))
            else:
                sizes = table_sizes(len(order), config.seats, config.most_at_table)
                tables = seat_avoiding(order, sizes, self.met(), rng)
        if config.format is Format.KNOCKOUT and len(tables) == 1:
            final = True
        round_ = Round(number, tuple(RoundTable(i + 1, tuple(players)) for i, players in enumerate(tables)),
                       final=final)
        return replace(self, rounds=self.rounds + (round_,), stage=Stage.PLAYING)

    def _with_round(self, round_: Round) -> "Tournament":
        return replace(self, rounds=self.rounds[:-1] + (round_,))

    def placed(self, round_number: int, table_number: int, *, table_id: int, thread_id: int | None) -> "Tournament":
        """A table of the round in play has its thread and its table."""
        round_ = self._round(round_number)
        table = replace(round_.table(table_number), table_id=table_id, thread_id=thread_id)
        return self._with_round(replace(round_, tables=tuple(table if x.number == table_number else x
                                                              for x in round_.tables)))

    def _round(self, number: int) -> Round:
        current = self.current
        if current is None or current.number != number or self.stage is not Stage.PLAYING:
            raise UserError(t("Round {n} is not in play.", n=number))
        return current

    def recorded(self, round_number: int, table_number: int, results: Iterable[Result], *, hands_played: int,
                 done: bool) -> "Tournament":
        """A table's results so far (after each finished hand), and whether its round is over
        there. The same results again change nothing; the last table done ends the round."""
        round_ = self._round(round_number)
        table = round_.table(table_number)
        if table.done:
            return self
        by_user = {r.user_id: r for r in results}
        ordered = tuple(by_user.get(u, Result(u)) for u in table.players)
        new = replace(table, results=ordered, hands_played=hands_played, done=done)
        if new == table:
            return self
        round_ = replace(round_, tables=tuple(new if x.number == table_number else x for x in round_.tables))
        tournament = self._with_round(round_)
        return tournament._round_over() if round_.done else tournament

    def _round_over(self) -> "Tournament":
        round_ = self.current
        assert round_ is not None and round_.done
        config = self.config
        if config.format is Format.SWISS:
            last = round_.number >= config.rounds
            return replace(self, stage=Stage.FINISHED if last else Stage.BETWEEN)
        if round_.final:
            return replace(self, stage=Stage.FINISHED, rounds=self.rounds[:-1] + (
                replace(round_, advancing=tuple(self.table_order(round_.tables[0])[:1])),))
        going = [self.table_order(table)[0] for table in round_.tables]
        if len(going) < config.seats:  # the best runners-up fill one table
            others = [u for u in self._round_order(round_) if u not in going]
            going += others[:config.seats - len(going)]
        round_ = replace(round_, advancing=tuple(going))
        return replace(self, rounds=self.rounds[:-1] + (round_,), stage=Stage.BETWEEN)

    def next_round(self, user_id: int) -> "Tournament":
        if user_id != self.organiser_id:
            raise UserError(t("Only the organiser, {name}, can start the next round.", name=self.organiser_name))
        if self.stage is not Stage.BETWEEN:
            raise UserError(t("The next round can start only when every table of this one is done."))
        if len(self.active) < 2:  # withdrawals left one (or nobody): the tournament is decided
            return replace(self, stage=Stage.FINISHED)
        return self._seat_round()

    def withdraw(self, by: int, user_id: int) -> "Tournament":
        """The organiser withdraws an entrant between rounds (or takes them off the list before the start)."""
        if by != self.organiser_id:
            raise UserError(t("Only the organiser, {name}, can withdraw an entrant.", name=self.organiser_name))
        entrant = self.entrant(user_id)
        if entrant is None:
            raise UserError(t("They are not in this tournament."))
        if self.stage is Stage.SIGNUP:
            return self.leave(user_id)
        if self.stage is not Stage.BETWEEN:
            raise UserError(t("An entrant can be withdrawn only between rounds: their seat is played out now."))
        if entrant.withdrawn:
            raise UserError(t("{name} is withdrawn already.", name=entrant.name))
        if user_id not in self.active:
            raise UserError(t("{name} is out of the tournament already.", name=entrant.name))
        return replace(self, entrants=tuple(replace(e, withdrawn=True) if e.user_id == user_id else e
                                            for e in self.entrants))

    def end(self, by: int, *, is_admin: bool = False, name: str = "") -> "Tournament":
        if by != self.organiser_id and not is_admin:
            raise UserError(t("Only the organiser or a member with Manage Server can end the tournament."))
        if not self.is_open:
            raise UserError(t("This tournament is over."))
        return replace(self, stage=Stage.ENDED, closed_reason=t("Ended by {name}.", name=name or self.organiser_name))

    def with_message(self, message_id: int) -> "Tournament":
        return replace(self, message_id=message_id)

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        from engine.textdata import to_data

        return {"schema": SCHEMA, "id": self.id, "guild_id": self.guild_id, "channel_id": self.channel_id,
                "organiser_id": self.organiser_id, "organiser_name": self.organiser_name,
                "config": self.config.to_json(), "seed": self.seed, "stage": str(self.stage),
                "entrants": [[e.user_id, e.name, e.withdrawn] for e in self.entrants],
                "rounds": [r.to_json() for r in self.rounds], "message_id": self.message_id,
                "closed_reason": to_data(self.closed_reason)}

    @classmethod
    def from_json(cls, data: dict[str, Any], *, version: int = 0) -> "Tournament":
        from engine.textdata import text_from_data

        if data.get("schema", 1) > SCHEMA:
            raise ValueError(f"tournament {data.get('id')} was saved by a newer bot (schema {data['schema']})")
        return cls(id=data["id"], guild_id=data["guild_id"], channel_id=data["channel_id"],
                   organiser_id=data["organiser_id"], organiser_name=data["organiser_name"],
                   config=Config.from_json(data["config"]), seed=data["seed"], stage=Stage(data["stage"]),
                   entrants=tuple(Entrant(u, n, bool(w)) for u, n, w in data["entrants"]),
                   rounds=tuple(Round.from_json(r) for r in data["rounds"]), message_id=data.get("message_id"),
                   closed_reason=text_from_data(data.get("closed_reason")), version=version)


def _chunk(order: list[int], sizes: list[int]) -> list[tuple[int, ...]]:
    out, at = [], 0
    for size in sizes:
        out.append(tuple(order[at:at + size]))
        at += size
    return out


def results_of_hands(players: tuple[int, ...], hands: Iterable[dict[str, Any]], *, scoring: str) -> list[Result]:
    """A table's results from its stored hands' results (seat order = `players`): the points
    each hand paid (push-ups: minus the push-ups), and the hands each won."""
    score = {u: 0 for u in players}
    won = {u: 0 for u in players}
    for result in hands:
        payments = result.get("payments") or [0] * len(players)
        pushups = result.get("pushups") or [0] * len(players)
        side = result.get("side_settled") or [0] * len(players)
        for seat, user in enumerate(players):
            score[user] += -pushups[seat] if scoring == "pushups" else payments[seat] + side[seat]
            if seat in (result.get("winners") or ()):
                won[user] += 1
    return [Result(u, score[u], won[u]) for u in players]


__all__ = ["Config", "Entrant", "Format", "MAX_ENTRANTS", "Result", "Round", "RoundTable", "Stage", "Standing",
           "Tournament", "repeats", "results_of_hands", "seat_avoiding", "seat_snake", "table_sizes"]
