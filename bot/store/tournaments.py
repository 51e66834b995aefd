"""Tournaments: create, load, save with optimistic concurrency; their tables' hands; places.

A tournament is saved as a table is: ``UPDATE ... WHERE id = ? AND version = ?``, so two
changes at once cannot both land (``StaleTournamentError``). A tournament table's finished
hand is written with ``record_tournament_hand`` inside the transaction that saves the table
(``ON CONFLICT (hand_id) DO NOTHING``: exactly once); the tournament's results are summed
from those rows (``table_hand_results``), so nothing between the two writes can be lost.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, func, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from . import checks
from .errors import StoreError
from .models import (OPEN_TOURNAMENT_STAGES, TOURNAMENT_STAGES, TournamentHand, TournamentPlace, TournamentRow,
                     utcnow)
from .portable import insert_on_conflict
from .transactions import read_transaction, write_transaction

_FRESH = {"populate_existing": True}


class TournamentBusyError(StoreError):
    """The channel already runs an open tournament (one per channel)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"Channel {channel_id} already runs a tournament.")


class StaleTournamentError(StoreError):
    """The tournament was saved by someone else since it was loaded (or it is over)."""

    def __init__(self, tournament_id: int, expected_version: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"Tournament {tournament_id} is no longer at version {expected_version}.")


def _status(value: object) -> str:
    if value not in TOURNAMENT_STAGES:
        raise ValueError(f"a tournament's status is one of {', '.join(TOURNAMENT_STAGES)}, not {value!r}")
    return value  # type: ignore[return-value]


async def create_tournament(session: AsyncSession, *, guild_id: int, channel_id: int, data: dict[str, Any],
                            status: str = "signup") -> TournamentRow:
    """A new tournament (version 1); ``TournamentBusyError`` if the channel runs one."""
    now = utcnow()
    if _status(status) not in OPEN_TOURNAMENT_STAGES:
        raise ValueError("a new tournament is open")
    row = {"guild_id": checks.check_int("guild id", guild_id), "channel_id": checks.check_int("channel id", channel_id),
           "status": status, "data": checks.check_json_object("tournament", data), "version": 1,
           "created_at": now, "updated_at": now}
    statement = insert_on_conflict(session, TournamentRow).values(row).on_conflict_do_nothing().returning(TournamentRow)
    async with write_transaction(session):
        created = (await session.exec(statement, execution_options=_FRESH)).scalars().first()
    if created is None:
        raise TournamentBusyError(channel_id)
    return created


async def get_tournament(session: AsyncSession, *, tournament_id: int) -> TournamentRow | None:
    async with read_transaction(session):
        return await session.get(TournamentRow, tournament_id, populate_existing=True)


async def get_open_tournament_in_channel(session: AsyncSession, *, channel_id: int) -> TournamentRow | None:
    statement = select(TournamentRow).where(TournamentRow.channel_id == channel_id,
                                            col(TournamentRow.status).in_(OPEN_TOURNAMENT_STAGES))
    async with read_transaction(session):
        return (await session.exec(statement, execution_options=_FRESH)).first()


async def list_open_tournaments(session: AsyncSession, *, guild_id: int | None = None) -> list[TournamentRow]:
    """Every open tournament (of one server, or all), oldest first: what to resume after a restart."""
    statement = (select(TournamentRow).where(col(TournamentRow.status).in_(OPEN_TOURNAMENT_STAGES))
                 .order_by(TournamentRow.id))
    if guild_id is not None:
        statement = statement.where(TournamentRow.guild_id == guild_id)
    async with read_transaction(session):
        return list((await session.exec(statement, execution_options=_FRESH)).all())


async def finished_tournaments(session: AsyncSession, *, guild_id: int, limit: int = 10) -> list[TournamentRow]:
    """A server's finished (or ended) tournaments, newest first: its tournament history."""
    statement = (select(TournamentRow).where(TournamentRow.guild_id == guild_id,
                                             col(TournamentRow.status).not_in(OPEN_TOURNAMENT_STAGES))
                 .order_by(col(TournamentRow.id).desc()).limit(limit))
    async with read_transaction(session):
        return list((await session.exec(statement, execution_options=_FRESH)).all())


async def save_tournament(session: AsyncSession, *, tournament_id: int, expected_version: int, status: str,
                          data: dict[str, Any]) -> int:
    """Write the tournament if it is still ``expected_version`` and open; its new version.
    ``StaleTournamentError`` otherwise (nothing written)."""
    statement = (
        update(TournamentRow)
        .where(TournamentRow.id == tournament_id, TournamentRow.version == expected_version,
               col(TournamentRow.status).in_(OPEN_TOURNAMENT_STAGES))
        .values(status=_status(status), data=checks.check_json_object("tournament", data),
                version=TournamentRow.version + 1, updated_at=utcnow())
        .returning(TournamentRow.version)
    )
    async with write_transaction(session):
        version = (await session.exec(statement, execution_options={"synchronize_session": False})).scalars().first()
    if version is None:
        raise StaleTournamentError(tournament_id, expected_version)
    return version


async def record_tournament_hand(session: AsyncSession, *, hand_id: str, tournament_id: int, guild_id: int,
                                 table_id: int, round: int, table_number: int, hand_number: int,
                                 players: Sequence[int | None], result: dict[str, Any], record: dict[str, Any],
                                 finished_at: datetime | None = None) -> bool:
    """A tournament table's finished hand, once per ``hand_id`` (False: it was there already)."""
    if len(players) != len(result.get("payments") or ()):
        raise ValueError(f"hand {hand_id}: {len(players)} players but a result of {result.get('payments')}")
    if sum(result["payments"]) != 0:
        raise ValueError(f"hand {hand_id}: payments {result['payments']} do not sum to zero")
    row = {"hand_id": hand_id, "tournament_id": tournament_id, "guild_id": guild_id, "table_id": table_id,
           "round": round, "table_number": table_number, "hand_number": hand_number, "players": list(players),
           "result": dict(result), "record": dict(record), "finished_at": finished_at or utcnow()}
    statement = (insert_on_conflict(session, TournamentHand).values(row)
                 .on_conflict_do_nothing(index_elements=["hand_id"]).returning(TournamentHand.hand_id))
    async with write_transaction(session):
        return (await session.exec(statement)).scalars().first() is not None


async def table_hand_results(session: AsyncSession, *, table_id: int) -> list[dict[str, Any]]:
    """The results of a tournament table's stored hands, in the order they were played."""
    statement = (select(TournamentHand.result).where(TournamentHand.table_id == table_id)
                 .order_by(TournamentHand.hand_number))
    async with read_transaction(session):
        return [dict(result) for result in (await session.exec(statement)).all()]


async def tournament_hands(session: AsyncSession, *, tournament_id: int) -> list[TournamentHand]:
    """Every stored hand of a tournament, by round, table and hand: its history."""
    statement = (select(TournamentHand).where(TournamentHand.tournament_id == tournament_id)
                 .order_by(TournamentHand.round, TournamentHand.table_number, TournamentHand.hand_number))
    async with read_transaction(session):
        return list((await session.exec(statement)).all())


async def write_places(session: AsyncSession, *, tournament_id: int, guild_id: int,
                       places: Sequence[tuple[str, str, int]]) -> None:
    """A finished tournament's places, (account, display name, place) each; written once."""
    rows = [{"tournament_id": tournament_id, "guild_id": guild_id, "account": account, "display_name": name,
             "place": place} for account, name, place in places]
    if not rows:
        return
    statement = insert_on_conflict(session, TournamentPlace).values(rows).on_conflict_do_nothing()
    async with write_transaction(session):
        await session.exec(statement)  # type: ignore[call-overload]


async def tournament_record(session: AsyncSession, *, guild_id: int, account: str) -> tuple[int, int]:
    """(tournaments played to the end, tournaments won) by ``account`` on a server."""
    statement = select(func.count(), func.coalesce(func.sum(case((TournamentPlace.place == 1, 1), else_=0)), 0)).where(
        TournamentPlace.guild_id == guild_id, TournamentPlace.account == account)
    async with read_transaction(session):
        played, won = (await session.exec(statement)).one()
    return int(played), int(won)


async def tournament_places(session: AsyncSession, *, tournament_id: int) -> list[TournamentPlace]:
    statement = (select(TournamentPlace).where(TournamentPlace.tournament_id == tournament_id)
                 .order_by(TournamentPlace.place))
    async with read_transaction(session):
        return list((await session.exec(statement)).all())


async def forget_guild_tournaments(session: AsyncSession, *, guild_id: int) -> int:
    """Inside ``forget_guild``'s transaction: a server's tournaments, their hands and places."""
    for model in (TournamentPlace, TournamentHand):
        await session.exec(delete(model).where(model.guild_id == guild_id))  # type: ignore[call-overload]
    result = await session.exec(delete(TournamentRow).where(TournamentRow.guild_id == guild_id))  # type: ignore[call-overload]
    return result.rowcount


__all__ = ["StaleTournamentError", "TournamentBusyError", "create_tournament", "finished_tournaments",
           "forget_guild_tournaments", "get_open_tournament_in_channel", "get_tournament", "list_open_tournaments",
           "record_tournament_hand", "save_tournament", "table_hand_results", "tournament_hands", "tournament_places",
           "tournament_record", "write_places"]
