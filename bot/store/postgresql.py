"""PostgreSQL-only: a finished hand in one statement.

``hands.record_finished_hand`` writes a hand, its seats and its summaries with
five statements, one round trip each. On PostgreSQL they become one statement
with data-modifying ``WITH`` queries: the hand's ``INSERT ... ON CONFLICT
(hand_id) DO NOTHING RETURNING id, season`` first, then hands.py's own row
statements (``hand_statements.row_statements``), their rows read from JSON parameters and
joined to the hand just inserted. If the hand id was taken, the hand query
returns no row, so the row queries insert nothing: exactly once, decided by the
unique index as before. The ledger rows arrive sorted (the store's lock order)
and are inserted in that order (``WITH ORDINALITY ... ORDER BY``).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import JSON, bindparam, cast, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel.ext.asyncio.session import AsyncSession

from . import hand_statements
from .portable import retrying


@cache
def _finished_hand() -> tuple[Any, list[str], list[tuple[str, list[str]]]]:
    """The statement, the hand's columns, and each row table's columns (in JSON order)."""

    hands_table = hand_statements.Hand.__table__  # type: ignore[attr-defined]
    hand_names = [column.name for column in hands_table.columns if column.name not in hand_statements.FROM_THE_DATABASE]
    hand = (
        insert(hands_table)
        .values({**{name: bindparam(f"hand_{name}", type_=hands_table.c[name].type) for name in hand_names},
                 "season": hand_statements.current_season(bindparam("hand_guild_id"))})
        .on_conflict_do_nothing(index_elements=["hand_id"])
        .returning(hands_table.c.id, hands_table.c.season)
        .cte("hand")
    )
    row_names: list[tuple[str, list[str]]] = []

    def rows_from_json(statement: Any, column: str, from_hand: Any) -> Any:
        table = statement.table
        names = [other.name for other in table.columns if other.name != column]
        row_names.append((table.name, names))
        rows = func.json_array_elements(bindparam(f"rows_{table.name}", type_=JSON)).table_valued(
            "value", with_ordinality="position").render_derived()
        values = [cast(rows.c.value.op("->>")(index), table.c[name].type) for index, name in enumerate(names)]
        from_the_hand = hand.c.id if column == "hand_pk" else hand.c.season
        source = select(*values, from_the_hand).select_from(rows).join(hand, from_the_hand.isnot(None))
        return statement.from_select([*names, column], source.order_by(rows.c.position))

    writes = [statement.cte(f"written_{index}") for index, statement in
              enumerate(hand_statements.row_statements("postgresql", rows_from_json))]
    return select(hand.c.id).add_cte(*writes), hand_names, row_names


def _as_json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


async def write_finished_hand(session: AsyncSession, hand_row: dict[str, Any], *then: list[dict[str, Any]]) -> bool:
    """``hands.record_finished_hand``'s writes on PostgreSQL in one statement.

    ``then`` are the rows for ``hand_statements.ROW_TABLES``, in that order. Inside the
    session's transaction if it has one (the caller commits, and retries), else
    on its own in autocommit mode, run again if PostgreSQL picks it as a deadlock
    victim. Returns False, having written nothing, if the hand id was taken.
    """
    statement, hand_names, row_names = _finished_hand()
    parameters = {f"hand_{name}": hand_row[name] for name in hand_names}
    for (table, names), rows in zip(row_names, then, strict=True):
        parameters[f"rows_{table}"] = [[_as_json(row[name]) for name in names] for row in rows]
    if session.in_transaction():
        connection = await session.connection()
        return (await connection.execute(statement, parameters)).first() is not None
    engine = session.bind
    assert isinstance(engine, AsyncEngine)

    async def alone() -> bool:
        # One statement is atomic by itself: no BEGIN and COMMIT round trips around it.
        async with engine.connect() as connection:
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            return (await autocommit.execute(statement, parameters)).first() is not None

    return await retrying(alone)
