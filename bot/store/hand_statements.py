"""The statements that write a finished hand, shared by the portable path (``hands.py``) and
the one-call writers of each backend (``sqlite.py``, ``postgresql.py``).

They live apart from ``hands.py`` so the backends can build on them without importing
``hands.py``, which imports the backends: the store has no import circle.
"""

from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy import bindparam, case, func
from sqlmodel import select

from .models import FIRST_SEASON, GuildSettings, Hand, HandSeat, HandTally, LedgerEntry, Rival
from .portable import insert_for
from .summaries import COUNTERS

_hands = Hand.__table__  # type: ignore[attr-defined]
_hand_seats = HandSeat.__table__  # type: ignore[attr-defined]
_ledger = LedgerEntry.__table__  # type: ignore[attr-defined]


FROM_THE_DATABASE = frozenset({"id", "season"})
"""The hand's columns the database gives (its row id, and its season read in the statement), not the caller."""

ROW_TABLES = (_hand_seats, _ledger, Rival.__table__, HandTally.__table__)  # type: ignore[attr-defined]
"""The tables a hand writes a list of rows to, in the order they are written (``record_finished_hand``'s ``then``)."""

SAME_AS_HAND = {"guild_id": "guild_id", "updated_at": "finished_at", "outcome": "outcome", "house_rules": "house_rules"}
"""Row columns that ``record_finished_hand`` fills, in every row of a hand, from the hand's own value
(row column: hand column): the one-statement write on SQLite reads them from the hand, not from each row."""

RowSource = Callable[[Any, str, Callable[[Any], Any]], Any]
"""``(insert, column, from_hand) -> statement``: gives ``insert`` (into one of ``ROW_TABLES``) its
rows; ``column`` is the one each row takes from its stored hand, ``from_hand(hand_id)`` reads it."""


def row_statements(dialect: str, rows: RowSource) -> tuple[Any, ...]:
    """The seat insert and the ledger, rivals and tally upserts, with their rows from ``rows``.

    Each row takes one value from its stored hand, read in the same statement by
    the hand's ``hand_id``: a seat its hand's id, a summary row the hand's season.
    ``sqlite.py`` builds the same statements over rows read from its view's columns, for its trigger.
    """
    hand_id, season = partial(_of_hand, Hand.id), partial(_of_hand, Hand.season)
    seats, ledger, rivals, tallies = (insert_for(dialect, table) for table in ROW_TABLES)
    return (
        rows(seats, "hand_pk", hand_id),
        _ledger_upsert(rows(ledger, "season", season)),
        _added_upsert(rows(rivals, "season", season), ["guild_id", "season", "account", "opponent"], ("hands", "net")),
        _added_upsert(rows(tallies, "season", season), ["guild_id", "season", "outcome", "house_rules"], ("hands",)),
    )


def current_season(guild_id: Any) -> Any:
    """The server's current season (the first if it has no settings yet), read in the statement."""
    season = select(GuildSettings.season).where(GuildSettings.guild_id == guild_id).scalar_subquery()
    return func.coalesce(season, FIRST_SEASON)


def hand_insert(dialect: str) -> Any:
    # The hand counts in its server's current season, read in the same statement.
    return (
        insert_for(dialect, _hands)
        .values(season=current_season(bindparam("season_guild_id")))
        .on_conflict_do_nothing(index_elements=["hand_id"])
        .returning(_hands.c.id)
    )


def _of_hand(column: Any, hand_id: Any) -> Any:
    return select(column).where(Hand.hand_id == hand_id).scalar_subquery()


def _ledger_upsert(statement: Any) -> Any:
    row, new = _ledger.c, statement.excluded
    # The same arithmetic as summaries.add_hand. On the right of SET, the row's
    # columns are their values before this update.
    won, lost = new.wins > 0, new.losses > 0
    longer = row.streak + 1
    return statement.on_conflict_do_update(
        index_elements=["guild_id", "season", "account"],
        set_={
            "display_name": new.display_name,
            "updated_at": new.updated_at,
            **{name: row[name] + new[name] for name in COUNTERS},
            "biggest_win": case((new.biggest_win > row.biggest_win, new.biggest_win), else_=row.biggest_win),
            "biggest_loss": case((new.biggest_loss < row.biggest_loss, new.biggest_loss), else_=row.biggest_loss),
            "streak": case((won, longer), (lost, 0), else_=row.streak),
            "best_streak": case((won & (longer > row.best_streak), longer), else_=row.best_streak),
            "opening_streak": case((won & (row.losses == 0), row.opening_streak + 1), else_=row.opening_streak),
        },
    )


def _added_upsert(statement: Any, key: list[str], added: tuple[str, ...]) -> Any:
    table = statement.table
    return statement.on_conflict_do_update(
        index_elements=key, set_={name: table.c[name] + statement.excluded[name] for name in added}
    )
