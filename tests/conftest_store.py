"""Shared helpers of the store tests: a real database per test, on each backend, and random hands.

Imported by the ``test_store_*`` modules (``from conftest_store import db, ...``);
the ``db`` fixture then works in them as if it were in a conftest.
"""

import random
from typing import Any

import pytest

from bot.store import Database, PlayerRef, create_table, open_database

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "cdhs" for rank in RANKS]
GUILD = 111
CHANNEL = 222
HOST = 333

SEATS = [
    {"kind": "human", "user_id": HOST, "name": "Croaker", "level": None},
    {"kind": "computer", "user_id": None, "name": "Goblin", "level": "easy"},
]

ACCOUNTS = [PlayerRef.human(1000 + n, f"Player {n}") for n in range(6)] + [
    PlayerRef.computer("Goblin"),
    PlayerRef.computer("One-Eye", "One-Eye the bot"),
]


def sqlite_url(tmp_path: Any, name: str = "tonk.db") -> str:
    return f"sqlite+aiosqlite:///{tmp_path / name}"


@pytest.fixture
async def db(database_url: str) -> Any:
    """An empty, migrated database: a SQLite file, then a PostgreSQL database (``database_url``)."""
    database = await open_database(database_url)
    try:
        yield database
    finally:
        await database.close()


async def new_table(database: Database, *, guild_id: int = GUILD, channel_id: int = CHANNEL) -> Any:
    async with database.sessions() as session:
        return await create_table(
            session,
            guild_id=guild_id,
            channel_id=channel_id,
            host_user_id=HOST,
            seats=SEATS,
            rules={"preset": "standard"},
            stake=1,
            scoring_mode="stakes",
        )


def record_for(names: list[str], rng: random.Random, stake: int = 1) -> dict[str, Any]:
    deck = DECK[:]
    rng.shuffle(deck)
    return {
        "format": "tonk-hand/1",
        "rules": {"preset": "standard"},
        "players": names,
        "dealer": rng.randrange(len(names)),
        "stake": stake,
        "deck": deck,
        "actions": [{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": deck[0]}, {"seat": 1, "do": "drop"}],
    }


def fake_result(rng: random.Random, players: int, stake: int = 1) -> dict[str, Any]:
    """A random result settled as RULES.md's standard game settles it (zero-sum)."""
    outcome = rng.choice(["instant", "void", "tonk_out", "run_out", "drop_won", "caught", "stock_out", "draw"])
    seats = range(players)
    counts = [rng.randint(0, 50) for _ in seats]
    payments = [0] * players
    pushups = [0] * players
    winners: list[int] = []
    dropper = None

    def pay(payer: int, payee: int, multiple: int) -> None:
        payments[payer] -= multiple * stake
        payments[payee] += multiple * stake

    if outcome in ("instant", "tonk_out", "run_out", "drop_won", "stock_out"):
        winner = rng.randrange(players)
        if outcome == "instant":
            counts = [rng.randint(0, 48) for _ in seats]
            counts[winner] = rng.choice([49, 50])
        elif outcome in ("tonk_out", "run_out"):
            counts[winner] = 0
        else:
            counts[winner] = rng.randint(0, 9)
            counts = [count if seat == winner else rng.randint(counts[winner] + 1, 50) for seat, count in enumerate(counts)]
        multiple = 2 if outcome in ("instant", "tonk_out") else 1
        for seat in seats:
            if seat != winner:
                pay(seat, winner, multiple)
                pushups[seat] = multiple * counts[seat]
        winners = [winner]
        dropper = winner if outcome == "drop_won" else None
    elif outcome == "caught":
        dropper = rng.randrange(players)
        counts[dropper] = rng.randint(1, 30)
        low = rng.randint(0, counts[dropper])
        others = [seat for seat in seats if seat != dropper]
        low_players = sorted(rng.sample(others, rng.randint(1, len(others))))
        for seat in others:
            counts[seat] = low if seat in low_players else rng.randint(low + 1, 50)
        for seat in others:
            if counts[seat] <= counts[dropper]:
                pay(dropper, seat, 2)
            if seat not in low_players:
                for low_player in low_players:
                    pay(seat, low_player, 1)
            pushups[seat] = 0 if seat in low_players else counts[seat]
        pushups[dropper] = 2 * counts[dropper]
        winners = low_players
    result: dict[str, Any] = {
        "outcome": outcome,
        "winners": winners,
        "counts": counts,
        "payments": payments,
        "pushups": pushups,
    }
    if dropper is not None:
        result["dropper"] = dropper
    assert sum(payments) == 0
    return result


def fake_hand(rng: random.Random, players: int, stake: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
    return record_for([f"P{seat}" for seat in range(players)], rng, stake), fake_result(rng, players, stake)


def simple_hand(names: list[str], payments: list[int], *, outcome: str = "drop_won", winners: list[int] | None = None,
                dropper: int | None = None, pushups: list[int] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A hand with the given payments, for tests that check exact figures."""
    winners = winners if winners is not None else [max(range(len(payments)), key=lambda seat: payments[seat])]
    result: dict[str, Any] = {
        "outcome": outcome,
        "winners": winners,
        "counts": [5 * seat for seat in range(len(names))],
        "payments": payments,
        "pushups": pushups if pushups is not None else [0 if seat in winners else 10 for seat in range(len(names))],
    }
    if dropper is not None:
        result["dropper"] = dropper
    return record_for(names, random.Random(0)), result
