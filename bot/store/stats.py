"""Player and server statistics: from per-season summaries, checked against the stored hands.

The finished hands (``hands`` and their ``hand_seats``) are the one source of
truth. The figures a player asks for are read from the summaries written in
the same transaction as each hand (``ledger``, ``rivals``, ``hand_tallies``;
see ``summaries.py``), a few rows per account and season, so that a profile, a
leaderboard or a server's stats never scan a server's every hand. A retried
hand write is refused by the unique hand id before any summary is touched, so
nothing is counted twice. ``player_stats_from_hands`` computes the same
figures by SQL aggregates over the hands themselves (window functions for the
streaks, ``CASE`` for the counters; SQL that SQLite and PostgreSQL both run):
the tests hold the two to the same figures, and an admin can audit with it.

Definitions (what a player sees):
    - hands: every finished hand the account sat in, void and drawn ones too;
      win rate = wins / hands.
    - a win: the seat is among the hand's winners (the low players of a caught
      drop included). tonk outs, run outs, drops won and instant wins are wins
      of those endings; catches are wins of a caught drop; times caught is
      being the dropper of a caught drop.
    - a streak: hands won in a row, in the order they were written. A hand
      nobody won (void, drawn) neither breaks nor extends it. A season's
      streaks start with the season; the all-time ones run across seasons.
    - net against an opponent: each hand's payments split pairwise in
      proportion (every loser pays each winner its share of what the winners
      took), summed over the hands both played. Exact when one player wins, and
      for every standard caught drop.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Float, and_, case, cast, func, literal, literal_column, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks
from .ledger import _season_or_current
from .models import Hand, HandSeat, HandTally, LedgerEntry, Rival
from .summaries import join_streaks
from .players import COMPUTER_PREFIX
from .transactions import read_transaction

NO_WINNER_OUTCOMES = ("void", "draw")
TOP_CATEGORIES = ("net", "pushups", "win_rate", "wins", "tonk_outs", "catches", "streak")
DEFAULT_MIN_HANDS = 10


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's figures over a set of hands (a season, or all time)."""

    hands: int = 0
    wins: int = 0
    net: int = 0
    """Stakes won minus stakes paid."""
    pushups: int = 0
    tonk_outs: int = 0
    run_outs: int = 0
    drops_won: int = 0
    caught_drops: int = 0
    catches: int = 0
    instant_wins: int = 0
    biggest_win: int = 0
    """The most won in a single hand (0 if never)."""
    biggest_loss: int = 0
    """The most lost in a single hand, as a negative number (0 if never)."""
    best_streak: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.hands if self.hands else None

    def __add__(self, other: "Tally") -> "Tally":
        summed = {name: getattr(self, name) + getattr(other, name) for name in _SUMMED}
        return Tally(
            **summed,
            biggest_win=max(self.biggest_win, other.biggest_win),
            biggest_loss=min(self.biggest_loss, other.biggest_loss),
            best_streak=max(self.best_streak, other.best_streak),
        )


_SUMMED = ("hands", "wins", "net", "pushups", "tonk_outs", "run_outs", "drops_won", "caught_drops", "catches",
           "instant_wins")


@dataclass(frozen=True, slots=True)
class OpponentNet:
    """What one player won from (positive) or lost to (negative) one opponent."""

    account: str
    display_name: str
    hands: int
    """Hands both played."""
    net: float
    season_hands: int
    season_net: float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    account: str
    display_name: str
    season: int
    """The season of ``this_season``."""
    this_season: Tally
    all_time: Tally
    current_streak: int
    """Hands won in a row up to the player's latest hand, across seasons."""
    opponents: tuple[OpponentNet, ...] = field(default=())
    """Every opponent, most hands together first."""

    @property
    def favourite(self) -> OpponentNet | None:
        """The opponent this player has won most from, all time (None if from nobody)."""
        best = max(self.opponents, key=lambda o: (o.net, o.hands), default=None)
        return best if best is not None and best.net > 0 else None

    @property
    def nemesis(self) -> OpponentNet | None:
        """The opponent this player has lost most to, all time (None if to nobody)."""
        worst = min(self.opponents, key=lambda o: (o.net, -o.hands), default=None)
        return worst if worst is not None and worst.net < 0 else None


@dataclass(frozen=True, slots=True)
class TopEntry:
    rank: int
    account: str
    display_name: str
    value: float
    """The category's figure: an int, or a fraction (0..1) for the win rate."""
    hands: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    category: str
    season: int
    entries: tuple[TopEntry, ...]
    mine: TopEntry | None
    """The asking account's own line, wherever it ranks (None if it is not ranked)."""
    min_hands: int


@dataclass(frozen=True, slots=True)
class ServerStats:
    season: int
    season_hands: int
    all_time_hands: int
    players: int
    """Accounts that played in the season."""
    endings: tuple[tuple[str, int], ...]
    """(outcome, hands) in the season, most first."""
    house_rules: tuple[tuple[str, int], ...]
    """(canonical rules JSON, hands) in the season, most first."""


@dataclass(frozen=True, slots=True)
class BalancePoint:
    """One of a player's hands, for the running-balance chart."""

    hand_pk: int
    season: int
    payment: int
    season_balance: int
    """The player's season balance after this hand."""


async def _execute(session: AsyncSession, statement: Any) -> Any:
    """Run a read on the session's connection: plain rows, without the ORM's work per statement
    (a third of a profile's time), in the session's transaction."""
    connection = await session.connection()
    return await connection.execute(statement)


def _won_with(outcome: str) -> Any:
    return and_(col(HandSeat.won), col(Hand.outcome) == outcome)


def _count(condition: Any) -> Any:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _players_hands(guild_id: int, account: str) -> Any:
    return (col(HandSeat.account) == account, col(Hand.guild_id) == guild_id)


def _tally_statement(guild_id: int, account: str, season: int) -> Any:
    payment = col(HandSeat.payment)
    return (
        select(
            (col(Hand.season) == season).label("in_season"),
            func.count(),
            _count(col(HandSeat.won)),
            func.coalesce(func.sum(payment), 0),
            func.coalesce(func.sum(HandSeat.pushups), 0),
            _count(_won_with("tonk_out")),
            _count(_won_with("run_out")),
            _count(_won_with("drop_won")),
            _count(and_(col(Hand.outcome) == "caught", col(Hand.dropper) == col(HandSeat.seat))),
            _count(_won_with("caught")),
            _count(_won_with("instant")),
            func.coalesce(func.max(case((payment > 0, payment))), 0),
            func.coalesce(func.min(case((payment < 0, payment))), 0),
        )
        .join(Hand, col(Hand.id) == col(HandSeat.hand_pk))
        .where(*_players_hands(guild_id, account))
        # by the output column's name: PostgreSQL would not match a repeated expression with its own parameter
        .group_by(literal_column("in_season"))
    )


def _streaks_statement(guild_id: int, account: str, season: int) -> Any:
    """Best streak all time and in ``season``, and the current streak: gaps and islands.

    Over the decisive hands in order, a run of wins keeps ``row_number() -
    row_number() partitioned by won`` constant; each such group is one streak.
    """
    hand, won = col(Hand.id), col(HandSeat.won)
    numbered = func.row_number().over(order_by=hand)
    numbered_in_season = func.row_number().over(partition_by=Hand.season, order_by=hand)
    sequence = (
        select(
            hand.label("hand"),
            col(Hand.season).label("season"),
            won.label("won"),
            (numbered - func.row_number().over(partition_by=won, order_by=hand)).label("run"),
            (numbered_in_season - func.row_number().over(partition_by=(Hand.season, won), order_by=hand)).label(
                "season_run"
            ),
        )
        .join(Hand, hand == col(HandSeat.hand_pk))
        .where(*_players_hands(guild_id, account), col(Hand.outcome).not_in(NO_WINNER_OUTCOMES))
        .cte("sequence")
    )
    runs = select(func.count().label("length")).where(sequence.c.won).group_by(sequence.c.run).subquery()
    season_runs = (
        select(func.count().label("length"))
        .where(sequence.c.won, sequence.c.season == season)
        .group_by(sequence.c.season_run)
        .subquery()
    )
    last_loss = select(func.coalesce(func.max(sequence.c.hand), 0)).where(~sequence.c.won).scalar_subquery()
    return select(
        select(func.coalesce(func.max(runs.c.length), 0)).scalar_subquery(),
        select(func.coalesce(func.max(season_runs.c.length), 0)).scalar_subquery(),
        select(func.count()).where(sequence.c.won, sequence.c.hand > last_loss).scalar_subquery(),
    )


def _pairwise_flow(mine_payment: Any, theirs: Any, moved: Any) -> Any:
    """What ``mine`` took from (or paid to) ``theirs`` in one hand, in proportion.

    ``moved`` is the sum of every seat's absolute payment: twice what changed hands.
    """
    return case(
        (mine_payment * theirs < 0, -theirs * func.abs(mine_payment) * literal(2.0) / cast(moved, Float)),
        else_=literal(0.0),
    )


def _seats_with_moved(hand_pks: Any) -> Any:
    return (
        select(
            col(HandSeat.hand_pk).label("hand_pk"),
            col(HandSeat.account).label("account"),
            col(HandSeat.payment).label("payment"),
            func.sum(func.abs(HandSeat.payment)).over(partition_by=HandSeat.hand_pk).label("moved"),
        )
        .where(col(HandSeat.hand_pk).in_(hand_pks))
        .subquery()
    )


def _opponents_statement(guild_id: int, account: str, season: int) -> Any:
    mine = (
        select(col(HandSeat.hand_pk).label("hand_pk"), col(HandSeat.payment).label("payment"), col(Hand.season).label("season"))
        .join(Hand, col(Hand.id) == col(HandSeat.hand_pk))
        .where(*_players_hands(guild_id, account))
        .cte("mine")
    )
    seats = _seats_with_moved(select(mine.c.hand_pk))
    flow = _pairwise_flow(mine.c.payment, seats.c.payment, seats.c.moved)
    in_season = mine.c.season == season
    return (
        select(
            seats.c.account,
            func.count(),
            func.sum(flow),
            _count(in_season),
            func.coalesce(func.sum(case((in_season, flow), else_=literal(0.0))), 0.0),
        )
        .join(mine, mine.c.hand_pk == seats.c.hand_pk)
        .where(seats.c.account != account)
        .group_by(seats.c.account)
    )


async def _display_names(session: AsyncSession, guild_id: int, accounts: Sequence[str]) -> dict[str, str]:
    """Each account's name on this server as of its latest season there."""
    if not accounts:
        return {}
    rows = await _execute(session,
        select(LedgerEntry.account, LedgerEntry.display_name)
        .where(LedgerEntry.guild_id == guild_id, col(LedgerEntry.account).in_(accounts))
        .order_by(LedgerEntry.season)
    )
    return dict(rows.all())


async def player_stats_from_hands(
    session: AsyncSession, *, guild_id: int, account: str, season: int | None = None
) -> PlayerStats | None:
    """``player_stats`` computed by aggregates over the stored hands: the slow, direct way, for audits."""
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        groups = (await _execute(session, _tally_statement(guild_id, account, season))).all()
        if not groups:
            return None
        best_all, best_season, current = (await _execute(session, _streaks_statement(guild_id, account, season))).one()
        opponent_rows = (await _execute(session, _opponents_statement(guild_id, account, season))).all()
        names = await _display_names(session, guild_id, [account, *(row[0] for row in opponent_rows)])
    tallies = {bool(in_season): Tally(*figures) for in_season, *figures in groups}
    this_season = replace(tallies.get(True, Tally()), best_streak=best_season)
    all_time = replace(this_season + tallies.get(False, Tally()), best_streak=best_all)
    return PlayerStats(account, names.get(account, account), season, this_season, all_time, current,
                       _opponents(opponent_rows, names))


_TALLY_COLUMNS = (
    LedgerEntry.hands, LedgerEntry.wins, LedgerEntry.balance, LedgerEntry.pushups, LedgerEntry.tonk_outs,
    LedgerEntry.run_outs, LedgerEntry.drops_won, LedgerEntry.caught_drops, LedgerEntry.catches,
    LedgerEntry.instant_wins, LedgerEntry.biggest_win, LedgerEntry.biggest_loss, LedgerEntry.best_streak,
)


async def player_stats(
    session: AsyncSession, *, guild_id: int, account: str, season: int | None = None
) -> PlayerStats | None:
    """An account's figures on the server, in ``season`` (default: the current one) and all time.

    None if the account never played a hand on the server. Read from the
    summaries: one ledger row per season played, one rivals row per opponent and season.
    """
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        rows = (
            await _execute(session,
                select(LedgerEntry.season, LedgerEntry.display_name, LedgerEntry.streak, LedgerEntry.opening_streak,
                       LedgerEntry.losses, *_TALLY_COLUMNS)
                .where(LedgerEntry.guild_id == guild_id, LedgerEntry.account == account)
                .order_by(LedgerEntry.season)
            )
        ).all()
        if not rows:
            return None
        in_season = col(Rival.season) == season
        latest_name = (
            select(LedgerEntry.display_name)
            .where(LedgerEntry.guild_id == guild_id, LedgerEntry.account == Rival.opponent)
            .order_by(col(LedgerEntry.season).desc())
            .limit(1)
            .correlate(Rival)
            .scalar_subquery()
        )
        rival_rows = (
            await _execute(session,
                select(Rival.opponent, func.sum(Rival.hands), func.sum(Rival.net),
                       func.coalesce(func.sum(case((in_season, Rival.hands), else_=0)), 0),
                       func.coalesce(func.sum(case((in_season, Rival.net), else_=literal(0.0))), 0.0),
                       latest_name)  # correlated with the grouped opponent: valid SQL in SQLite and PostgreSQL
                .where(Rival.guild_id == guild_id, Rival.account == account)
                .group_by(Rival.opponent)
            )
        ).all()
    names = {row[0]: row[5] for row in rival_rows}
    this_season, all_time = Tally(), Tally()
    for _, _, _, _, _, *figures in rows:
        all_time += Tally(*figures)
    for row in rows:
        if row[0] == season:
            this_season = Tally(*row[5:])
    best, current = join_streaks((row[2], row[-1], row[3], row[4]) for row in rows)
    all_time = replace(all_time, best_streak=best)
    return PlayerStats(account, rows[-1][1], season, this_season, all_time, current,
                       _opponents([row[:5] for row in rival_rows], names))


def _opponents(rows: Sequence[Any], names: dict[str, str]) -> tuple[OpponentNet, ...]:
    """(opponent, hands, net, season hands, season net) rows, most hands together first."""
    opponents = (
        OpponentNet(other, names.get(other, other), hands, float(net), season_hands, float(season_net))
        for other, hands, net, season_hands, season_net in rows
    )
    return tuple(sorted(opponents, key=lambda o: (-o.hands, o.display_name)))


def _top_metric(category: str) -> tuple[Any, bool]:
    """The category's figure on a ledger row, and whether higher ranks first."""
    if category == "win_rate":
        return cast(LedgerEntry.wins, Float) / LedgerEntry.hands, True
    if category == "pushups":
        return col(LedgerEntry.pushups), False
    column = {"net": LedgerEntry.balance, "streak": LedgerEntry.best_streak}.get(category)
    return col(column if column is not None else getattr(LedgerEntry, category)), True


async def top(
    session: AsyncSession,
    *,
    guild_id: int,
    category: str,
    season: int | None = None,
    account: str | None = None,
    limit: int = 10,
    min_hands: int = DEFAULT_MIN_HANDS,
) -> Leaderboard:
    """The season's best ``limit`` accounts in ``category`` (ties share a rank), and ``account``'s own line.

    Push-ups rank low first; the win rate ranks only accounts with ``min_hands`` hands or more.
    """
    if category not in TOP_CATEGORIES:
        raise ValueError(f"category must be one of {', '.join(TOP_CATEGORIES)}, not {category!r}")
    min_hands = checks.check_int("minimum hands", min_hands, minimum=1)
    metric, higher_first = _top_metric(category)
    order = metric.desc() if higher_first else metric.asc()
    where = [LedgerEntry.guild_id == guild_id]
    if category == "win_rate":
        where.append(col(LedgerEntry.hands) >= min_hands)
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        ranked = (
            select(
                func.rank().over(order_by=order).label("rank"),
                col(LedgerEntry.account).label("account"),
                col(LedgerEntry.display_name).label("display_name"),
                metric.label("value"),
                col(LedgerEntry.hands).label("hands"),
                func.row_number().over(order_by=(order, LedgerEntry.display_name, LedgerEntry.account)).label("place"),
            )
            .where(*where, LedgerEntry.season == season)
            .subquery()
        )
        # the top lines and the asker's own, in one statement
        wanted = ranked.c.place <= limit if account is None else or_(ranked.c.place <= limit, ranked.c.account == account)
        rows = (await _execute(session, select(*ranked.c).where(wanted).order_by(ranked.c.place))).all()
    entries = tuple(TopEntry(*row[:5]) for row in rows if row.place <= limit)
    mine = next((TopEntry(*row[:5]) for row in rows if row.account == account), None)
    return Leaderboard(category, season, entries, mine, min_hands)


async def server_stats(session: AsyncSession, *, guild_id: int, season: int | None = None) -> ServerStats:
    """The server's hands in ``season`` (default: the current one) and all time, its endings and rules."""
    async with read_transaction(session):
        season = await _season_or_current(session, guild_id, season)
        players = (
            select(func.count())
            .where(LedgerEntry.guild_id == guild_id, LedgerEntry.season == season)
            .scalar_subquery()
        )
        rows = (
            await _execute(session,
                select(HandTally.season, HandTally.outcome, HandTally.house_rules, HandTally.hands, players)
                .where(HandTally.guild_id == guild_id)
            )
        ).all()
    endings: dict[str, int] = {}
    rules: dict[str, int] = {}
    for tally_season, outcome, house_rules, hands, _ in rows:
        if tally_season == season:
            endings[outcome] = endings.get(outcome, 0) + hands
            rules[house_rules] = rules.get(house_rules, 0) + hands
    return ServerStats(
        season=season,
        season_hands=sum(endings.values()),
        all_time_hands=sum(row[3] for row in rows),
        players=rows[0][4] if rows else 0,
        endings=_most_first(endings),
        house_rules=_most_first(rules),
    )


def _most_first(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


async def balance_history(
    session: AsyncSession, *, guild_id: int, account: str, limit: int = 200
) -> list[BalancePoint]:
    """The account's last ``limit`` hands on the server, oldest first, with its season balance after each.

    Reads only those hands: a season's balance after its last hand is the
    ledger's, and each earlier point is found by taking that hand's payment back.
    """
    limit = checks.check_int("limit", limit, minimum=1)
    async with read_transaction(session):
        rows = (
            await _execute(session,
                select(Hand.id, Hand.season, HandSeat.payment)
                .join(Hand, col(Hand.id) == col(HandSeat.hand_pk))
                .where(*_players_hands(guild_id, account))
                .order_by(col(HandSeat.hand_pk).desc())
                .limit(limit)
            )
        ).all()
        balances = dict(
            (
                await _execute(session,
                    select(LedgerEntry.season, LedgerEntry.balance).where(
                        LedgerEntry.guild_id == guild_id, LedgerEntry.account == account,
                        col(LedgerEntry.season).in_({row[1] for row in rows}),
                    )
                )
            ).all()
        )
    points = []
    for hand_pk, season, payment in rows:  # newest first
        points.append(BalancePoint(hand_pk, season, payment, balances[season]))
        balances[season] -= payment
    return points[::-1]


async def opponent_flows(
    session: AsyncSession, *, account: str, hand_pks: Sequence[int]
) -> dict[int, dict[str, float]]:
    """For each of the given hands, what ``account`` took from (or paid to) each other seat in it."""
    if not hand_pks:
        return {}
    seats = _seats_with_moved(list(hand_pks))
    mine = seats.alias("mine")
    flow = _pairwise_flow(mine.c.payment, seats.c.payment, seats.c.moved)
    statement = (
        select(seats.c.hand_pk, seats.c.account, flow)
        .join(mine, and_(mine.c.hand_pk == seats.c.hand_pk, mine.c.account == account))
        .where(seats.c.account != account)
    )
    flows: dict[int, dict[str, float]] = {}
    async with read_transaction(session):
        for hand_pk, other, amount in (await _execute(session, statement)).all():
            flows.setdefault(hand_pk, {})[other] = float(amount)
    return flows


async def display_names(session: AsyncSession, *, guild_id: int, accounts: Sequence[str]) -> dict[str, str]:
    """The latest name of each account on the server (accounts that never played are left out)."""
    async with read_transaction(session):
        return await _display_names(session, guild_id, list(accounts))


async def computer_accounts(session: AsyncSession, *, guild_id: int, prefix: str = "") -> list[tuple[str, str]]:
    """(account, display name) of the computer players that played on the server, by name."""
    statement = (
        select(LedgerEntry.account, LedgerEntry.display_name)
        .where(LedgerEntry.guild_id == guild_id, col(LedgerEntry.account).startswith(COMPUTER_PREFIX + prefix))
        .distinct()
        .order_by(LedgerEntry.display_name)
    )
    async with read_transaction(session):
        return [(account, name) for account, name in (await _execute(session, statement)).all()]
