"""Finished hands: written once with their ledger updates, then read back.

``record_finished_hand`` writes, in one transaction: the hand (its full
``tonk-hand/1`` record and replay result), one row per seat, and the ledger
increments of every player. The hand's ``hand_id`` is unique in the schema and
the hand row is inserted with ``ON CONFLICT (hand_id) DO NOTHING`` before
anything else, so a retry, or a second task racing the first, writes nothing
and gets ``False``; only the unique index decides, no earlier SELECT.

A good ``hand_id`` is one the bot can rebuild on a retry, e.g.
``f"{table_id}:{hand_number}"``.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, exists
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from engine.game import MAX_PLAYERS, MIN_PLAYERS

from . import checks, postgresql, sqlite
from .hand_statements import hand_insert, row_statements
from .migrations import house_rules_key
from .models import OUTCOMES, Hand, HandSeat, utcnow
from .summaries import pairwise_flows, seat_figures
from .players import PlayerRef
from .portable import dialect_name, write_retrying
from .transactions import read_transaction

RECORD_FORMAT = "tonk-hand/1"
_NO_WINNERS = frozenset({"void", "draw"})
SQLITE_IN_ONE_CALL = True
"""On SQLite, write a hand in one statement, one call on the database thread (``sqlite.write_finished_hand``,
the same statements run by a trigger); False runs the portable statements below there too (the tests compare the two)."""

POSTGRESQL_IN_ONE_STATEMENT = True
"""On PostgreSQL, write a hand in one statement of data-modifying WITH queries (``postgresql.write_finished_hand``,
the same row statements); False runs the statements below one by one (the tests compare the two)."""



def _int_list(name: str, value: object, length: int) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != length or not all(map(checks.is_int, value)):
        raise ValueError(f"result {name} must be a list of {length} integers (one per seat), not {value!r}")
    return list(value)


def check_result(result: object, *, seats: int) -> dict[str, Any]:
    """The replay result of HAND_RECORD.md, checked for a hand of ``seats`` players.

    ``dropper`` is required for ``caught`` (the dropper is not among the
    winners, who are the low players) and optional for ``drop_won`` (then it is
    the winner). Payments must sum to zero.
    """
    if not isinstance(result, Mapping):
        raise ValueError(f"result must be a dict, not {result!r}")
    outcome = result.get("outcome")
    if outcome not in OUTCOMES:
        raise ValueError(f"result outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    winners = result.get("winners")
    if (
        not isinstance(winners, list | tuple)
        or not all(checks.is_int(seat) and 0 <= seat < seats for seat in winners)
        or list(winners) != sorted(set(winners))
    ):
        raise ValueError(f"result winners must be distinct seats (0..{seats - 1}) in seat order, not {winners!r}")
    if outcome in _NO_WINNERS and winners:
        raise ValueError(f"a {outcome} hand has no winners, not {winners!r}")
    if outcome not in _NO_WINNERS and not winners:
        raise ValueError(f"a {outcome} hand needs at least one winner")
    counts = _int_list("counts", result.get("counts"), seats)
    payments = _int_list("payments", result.get("payments"), seats)
    pushups = _int_list("pushups", result.get("pushups"), seats)
    if sum(payments) != 0:
        raise ValueError(f"payments {payments} sum to {sum(payments)}, not zero: refusing a hand that breaks the ledger")
    if any(value < 0 for value in pushups):
        raise ValueError(f"push-ups cannot be negative: {pushups}")
    dropper = result.get("dropper")
    if outcome == "caught":
        if not checks.is_int(dropper) or not 0 <= dropper < seats or dropper in winners:
            raise ValueError(f"a caught hand needs its dropper: a seat that is not a winner, not {dropper!r}")
    elif outcome == "drop_won":
        if dropper is not None and list(winners) != [dropper]:
            raise ValueError(f"a won drop is won by its dropper: dropper {dropper!r}, winners {winners!r}")
    elif dropper is not None:
        raise ValueError(f"a {outcome} hand has no dropper")
    return {**result, "winners": list(winners), "counts": counts, "payments": payments, "pushups": pushups}


def check_record(record: object, *, seats: int) -> tuple[dict[str, Any], str]:
    """A ``tonk-hand/1`` hand record with one player per seat (its content is the engine's), and its JSON text."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise ValueError(f'a hand record is a dict with "format": "{RECORD_FORMAT}"')
    names = record.get("players")
    if not isinstance(names, list | tuple) or len(names) != seats:
        raise ValueError(f"the hand record names {names!r}, but the hand has {seats} players")
    record = dict(record)
    return record, checks.json_text("hand record", record)


def _check_players(players: Sequence[PlayerRef]) -> list[PlayerRef]:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or not all(isinstance(p, PlayerRef) for p in players):
        raise ValueError(f"a hand has {MIN_PLAYERS} to {MAX_PLAYERS} players (PlayerRef), not {players!r}")
    accounts = [player.account for player in players]
    if len(set(accounts)) != len(accounts):
        raise ValueError(f"a player sits at most once in a hand: {accounts}")
    return list(players)


async def record_finished_hand(
    session: AsyncSession,
    *,
    guild_id: int,
    table_id: int | None,
    hand_id: str,
    record: Mapping[str, Any],
    result: Mapping[str, Any],
    players: Sequence[PlayerRef],
    stake: int,
    scoring_mode: str,
    finished_at: datetime | None = None,
    side_payments: Sequence[int] | None = None,
) -> bool:
    """Store a finished hand and update the server's ledger, exactly once per ``hand_id``.

    ``players`` are in seat order. Returns True if the hand was written, False if
    a hand with this id was already stored (nothing is changed then). Raises
    ``ValueError`` for an inconsistent hand, payments that do not sum to zero
    included, before writing anything. Both the stakes balance and the push-ups
    are booked for every hand; the scoring mode only says which one the table played.

    ``side_payments`` (per seat, zero-sum) is what the side pots won in this hand
    move (RULES.md section 10): a pot is owed by its payers until it is won, so it
    reaches the ledger only then, with the hand that won it, in both scoring modes.
    It is added to each seat's payment and balance and kept in the stored result as
    ``side_settled``; the hand's own ``payments`` stay as the engine settled them.
    """
    players = _check_players(players)
    seats = len(players)
    result = check_result(result, seats=seats)
    record, record_text = check_record(record, seats=seats)
    if not isinstance(hand_id, str) or not hand_id:
        raise ValueError(f"hand_id must be a non-empty string, not {hand_id!r}")
    guild_id = checks.check_int("guild id", guild_id)
    stake = checks.check_stake(stake)
    scoring_mode = checks.check_scoring_mode(scoring_mode)
    if table_id is not None:
        table_id = checks.check_int("table id", table_id)
    finished_at = finished_at or utcnow()
    if finished_at.tzinfo is None:
        raise ValueError("finished_at must be an aware datetime (UTC)")

    payments = result["payments"]
    if side_payments is not None:
        side = _int_list("side_payments", list(side_payments), seats)
        if sum(side) != 0:
            raise ValueError(f"side payments {side} sum to {sum(side)}, not zero: refusing a hand that breaks the ledger")
        result = {**result, "side_settled": side}
        payments = [pay + won for pay, won in zip(payments, side)]
    outcome, winners, dropper = result["outcome"], set(result["winners"]), result.get("dropper")
    hand_row = {
        "hand_id": hand_id,
        "guild_id": guild_id,
        "season_guild_id": guild_id,
        "table_id": table_id,
        "finished_at": finished_at,
        "outcome": outcome,
        "dropper": dropper,
        "stake": stake,
        "scoring_mode": scoring_mode,
        "record": record,
        "result": result,
        "house_rules": house_rules_key(record.get("rules", {"preset": "standard"})),
    }
    seat_rows = [
        {
            "seat": seat,
            "account": player.account,
            "display_name": player.display_name,
            "count": result["counts"][seat],
            "payment": payments[seat],
            "pushups": result["pushups"][seat],
            "won": seat in winners,
        }
        for seat, player in enumerate(players)
    ]
    ledger_rows = [
        {
            "guild_id": guild_id,
            "account": player.account,
            "display_name": player.display_name,
            "updated_at": finished_at,
            **seat_figures(outcome=outcome, seat=seat, won=seat in winners, dropper=dropper,
                           payment=payments[seat], pushups=result["pushups"][seat]),
        }
        for seat, player in enumerate(players)
    ]
    rival_rows = [
        {"guild_id": guild_id, "account": players[a].account, "opponent": players[b].account, "hands": 1, "net": flow}
        for (a, b), flow in pairwise_flows(payments).items()
    ]
    tally_row = {"guild_id": guild_id, "outcome": outcome, "house_rules": hand_row["house_rules"], "hands": 1}
    # One global lock order, whatever the seat order: ledger rows by (server, season,
    # account), then rivals by (account, opponent), then the tally. Two hands that
    # share players never wait for each other in a cycle.
    ledger_rows.sort(key=lambda row: row["account"])
    rival_rows.sort(key=lambda row: (row["account"], row["opponent"]))
    rows = (hand_row, seat_rows, ledger_rows, rival_rows, [tally_row])
    dialect = dialect_name(session)
    if dialect == "sqlite" and SQLITE_IN_ONE_CALL:
        # The record's JSON text is the check's: a hand's largest value is encoded once.
        return await sqlite.write_finished_hand(session, *rows, encoded={"record": record_text})
    if dialect == "postgresql" and POSTGRESQL_IN_ONE_STATEMENT:
        return await postgresql.write_finished_hand(session, *rows)
    for row in (*seat_rows, *ledger_rows, *rival_rows, tally_row):
        row["of_hand_id"] = hand_id  # the statements find the hand (its id, its season) by hand_id
    statements = _statements(dialect)

    async def write(session: AsyncSession) -> bool:
        connection = await session.connection()
        return await connection.run_sync(_write_hand, statements, *rows)

    return await write_retrying(session, write)


def _write_hand(
    connection: Connection,
    statements: tuple[Any, ...],
    hand_row: dict[str, Any],
    *then: list[dict[str, Any]],
) -> bool:
    # One greenlet for the statements: the hand first, so that a duplicate
    # hand_id stops here having written nothing, summaries included.
    hand_insert, *others = statements
    if connection.execute(hand_insert, hand_row).first() is None:  # the hand_id was taken, DO NOTHING did nothing
        return False
    for statement, rows in zip(others, then, strict=True):
        connection.execute(statement, rows)
    return True


@cache
def _statements(dialect: str) -> tuple[Any, ...]:
    """For ``dialect``: the hand insert (returning its id), then the seat insert and the
    ledger, rivals and tally upserts (each run with the rows in that order).

    Only the hand insert returns anything: the others find the hand by ``of_hand_id``
    and are ``inline`` (no RETURNING of the generated key).
    """
    return (hand_insert(dialect), *row_statements(dialect, _bound_rows))


def _bound_rows(statement: Any, column: str, from_hand: Callable[[Any], Any]) -> Any:
    # One row per parameter set; the hand is found by the parameter of_hand_id.
    return statement.values({column: from_hand(bindparam("of_hand_id"))}).inline()


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of a server's recent hands."""

    hand_id: str
    finished_at: datetime
    outcome: str
    season: int
    table_id: int | None
    stake: int
    scoring_mode: str
    players: tuple[str, ...]
    """Display names in seat order."""
    accounts: tuple[str, ...]
    payments: tuple[int, ...]
    pushups: tuple[int, ...]
    winners: tuple[int, ...]


async def recent_hands(
    session: AsyncSession,
    *,
    guild_id: int,
    limit: int = 10,
    account: str | None = None,
    season: int | None = None,
) -> list[HandSummary]:
    """The server's latest finished hands, newest first; only ``account``'s, or one season's, if given."""
    statement = (
        select(Hand.id, Hand.hand_id, Hand.finished_at, Hand.outcome, Hand.season, Hand.table_id, Hand.stake, Hand.scoring_mode)
        .where(Hand.guild_id == guild_id)
        .order_by(col(Hand.id).desc())
        .limit(limit)
    )
    if season is not None:
        statement = statement.where(Hand.season == season)
    if account is not None:
        statement = statement.where(
            exists().where(col(HandSeat.hand_pk) == col(Hand.id), col(HandSeat.account) == account)
        )
    async with read_transaction(session):
        hands = (await session.exec(statement)).all()
        seat_rows = (
            await session.exec(
                select(HandSeat).where(col(HandSeat.hand_pk).in_([hand.id for hand in hands])).order_by(HandSeat.hand_pk, HandSeat.seat)
            )
        ).all()
    seats_by_hand: dict[int, list[HandSeat]] = {}
    for seat in seat_rows:
        seats_by_hand.setdefault(seat.hand_pk, []).append(seat)
    summaries = []
    for hand in hands:
        seats = seats_by_hand.get(hand.id, [])
        summaries.append(
            HandSummary(
                hand_id=hand.hand_id,
                finished_at=hand.finished_at,
                outcome=hand.outcome,
                season=hand.season,
                table_id=hand.table_id,
                stake=hand.stake,
                scoring_mode=hand.scoring_mode,
                players=tuple(seat.display_name for seat in seats),
                accounts=tuple(seat.account for seat in seats),
                payments=tuple(seat.payment for seat in seats),
                pushups=tuple(seat.pushups for seat in seats),
                winners=tuple(seat.seat for seat in seats if seat.won),
            )
        )
    return summaries


async def has_played(session: AsyncSession, *, guild_id: int, account: str) -> bool:
    """Whether ``account`` sat at any stored hand on this server (any season)."""
    statement = select(exists().where(
        col(HandSeat.account) == account, col(HandSeat.hand_pk) == col(Hand.id), col(Hand.guild_id) == guild_id))
    async with read_transaction(session):
        return bool((await session.exec(statement)).one())


async def get_hand(session: AsyncSession, *, guild_id: int, hand_id: str) -> Hand | None:
    """The stored hand (record, result, outcome, season...), if it was played on this server."""
    statement = select(Hand).where(Hand.hand_id == hand_id, Hand.guild_id == guild_id)
    async with read_transaction(session):
        return (await session.exec(statement, execution_options={"populate_existing": True})).first()


async def hand_record(session: AsyncSession, *, guild_id: int, hand_id: str) -> dict[str, Any] | None:
    """The hand's ``tonk-hand/1`` record, for download, if it was played on this server."""
    hand = await get_hand(session, guild_id=guild_id, hand_id=hand_id)
    return None if hand is None else hand.record
