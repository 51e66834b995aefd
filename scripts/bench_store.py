"""Benchmark: finished hands written per second by the store.

Each hand is what the bot writes when a hand ends: the full hand record, the
result, one row per seat and the ledger updates, in one transaction, through a
fresh session, on a SQLite file with the store's default settings (WAL,
synchronous=NORMAL, busy timeout, foreign keys) in a temporary directory.

    python scripts/bench_store.py                 # 3 rounds of 2000 hands, one writer
    python scripts/bench_store.py --writers 8     # and 3 rounds with 8 concurrent writers
    python scripts/bench_store.py --postgres      # the same on a throwaway PostgreSQL server
    python scripts/bench_store.py --database-url postgresql+asyncpg://...   # an empty database of yours
    python scripts/bench_store.py --code /tmp/base   # the store of another checkout (a baseline), same harness
    python scripts/bench_store.py --wait-quiet 600   # each round waits (up to 600 s) for an idle machine

``--postgres`` starts a server from the system's ``pg_ctl`` in a temporary folder
(tests/pgserver.py), with PostgreSQL's default durability (fsync, synchronous
commit) unless ``--pg-async-commit`` (``synchronous_commit=off``, which like
SQLite's ``synchronous=NORMAL`` in WAL mode may lose the last commits on a power
cut, never the database). Besides hands per second (wall clock), the figures
give this process's CPU time per hand, which varies less on a busy machine
(for PostgreSQL the server's own CPU time is not in it).

Each round writes new hands into the same file; the figures of every round are
printed, then the median. On a shared machine they vary with the CPU load of
other jobs (each statement is a round trip to aiosqlite's worker thread).

Hands come from ``engine.random_hand`` when the engine has it, otherwise from a
local generator of records of the same size. Generation is not timed.
"""

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# --code DIR measures another checkout's store (e.g. a worktree of a baseline commit) with this harness.
CODE = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv[:-1] else Path(__file__).resolve().parents[1]
sys.path.insert(0, str(CODE.resolve()))

from bot.store import PlayerRef, balance_total, create_table, open_database, record_finished_hand  # noqa: E402

GUILD_ID = 1
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "cdhs" for rank in RANKS]
ACCOUNTS = [PlayerRef.human(1000 + n, f"Player {n}") for n in range(6)] + [PlayerRef.computer(f"Bot {n}") for n in range(3)]


def synthetic_hand(rng: random.Random, players: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A record of realistic size and a zero-sum drop_won/run_out result."""
    deck = DECK[:]
    rng.shuffle(deck)
    actions: list[dict[str, Any]] = []
    for turn in range(rng.randint(6, 30)):
        seat = turn % players
        actions.append({"seat": seat, "do": rng.choice(["draw", "take"])})
        actions.append({"seat": seat, "do": "discard", "card": rng.choice(deck)})
    counts = [rng.randint(0, 40) for _ in range(players)]
    winner = rng.randrange(players)
    counts[winner] = min(counts) - 1 if min(counts) > 0 else 0
    payments = [-1] * players
    payments[winner] = players - 1
    record = {
        "format": "tonk-hand/1",
        "rules": {"preset": "standard"},
        "players": [f"P{seat}" for seat in range(players)],
        "dealer": rng.randrange(players),
        "stake": 1,
        "deck": deck,
        "actions": actions,
    }
    result = {
        "outcome": "run_out",
        "winners": [winner],
        "counts": counts,
        "payments": payments,
        "pushups": [0 if seat == winner else count for seat, count in enumerate(counts)],
    }
    return record, result


def make_hands(count: int, players: int, seed: int) -> tuple[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    rng = random.Random(seed)
    try:
        import engine

        random_hand = engine.random_hand
    except (ImportError, AttributeError):
        return "synthetic records", [synthetic_hand(rng, players) for _ in range(count)]
    return "engine.random_hand", [random_hand(rng, players=players, preset="standard") for _ in range(count)]


async def write_hands(db: Any, table_id: int, hands: list[Any], first: int, writers: int, seed: int) -> float:
    rng = random.Random(seed)
    seatings = [rng.sample(ACCOUNTS, len(record["players"])) for record, _ in hands]
    queue = list(range(len(hands)))

    async def writer() -> None:
        while queue:
            index = queue.pop()
            record, result = hands[index]
            async with db.sessions() as session:
                written = await record_finished_hand(
                    session,
                    guild_id=GUILD_ID,
                    table_id=table_id,
                    hand_id=f"bench:{first + index}",
                    record=record,
                    result=result,
                    players=seatings[index],
                    stake=1,
                    scoring_mode="stakes",
                )
            assert written

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(writers)))
    return time.perf_counter() - started


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return sum(values) - values[3] - values[4], sum(values)


def busy_cores(before: tuple[int, int], after: tuple[int, int]) -> float:
    """How many cores were busy between two ``machine_busy`` readings (this process included)."""
    return (after[0] - before[0]) / max(1, after[1] - before[1]) * (os.cpu_count() or 1)


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), "unknown CPU")
    return f"{os.cpu_count()} cores ({model}), load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}"


async def wait_quiet(limit: float, most: float = 0.25) -> None:
    """Wait (at most ``limit`` s) until the machine's busy cores stay below ``most`` over 3 s."""
    deadline = time.monotonic() + limit
    while True:
        before = machine_busy()
        await asyncio.sleep(3)
        busy = busy_cores(before, machine_busy())
        if busy < most or time.monotonic() > deadline:
            print(f"  machine: {busy:.2f} cores busy before the round ({'quiet' if busy < most else 'NOT quiet'})")
            return
        await asyncio.sleep(2)


async def bench(url: str, where: str, args: argparse.Namespace) -> None:
    source, hands = make_hands(args.hands, args.players, args.seed)
    runs = [1] + ([args.writers] if args.writers and args.writers > 1 else [])
    async with await open_database(url) as db:
        async with db.sessions() as session:
            table = await create_table(
                session, guild_id=GUILD_ID, channel_id=1, host_user_id=1000, seats=[],
                rules={"preset": "standard"}, stake=1, scoring_mode="stakes",
            )
        print(f"store benchmark: {args.hands} hands of {args.players} players ({source}), {where}, code in {CODE}")
        print(f"  machine: {machine()}")
        first = 0
        for writers in runs:
            rates, cpu, others = [], [], []
            for _ in range(args.rounds):
                if args.wait_quiet:
                    await wait_quiet(args.wait_quiet)
                cpu_before, busy_before = time.process_time(), machine_busy()
                elapsed = await write_hands(db, table.id, hands, first, writers, args.seed)
                cpu.append((time.process_time() - cpu_before) * 1000 / len(hands))
                others.append(busy_cores(busy_before, machine_busy()) - cpu[-1] * len(hands) / 1000 / elapsed)
                first += len(hands)
                rates.append(len(hands) / elapsed)
            rounds = ", ".join(f"{rate:.0f}" for rate in rates)
            median = statistics.median(rates)
            print(
                f"  {writers} writer(s): median {median:5.0f} hands/s ({1000 / median:.2f} ms per hand,"
                f" one transaction each; {statistics.median(cpu):.2f} ms CPU per hand in this process); rounds: {rounds}"
            )
            print(f"     other processes kept {', '.join(f'{max(0.0, busy):.2f}' for busy in others)} cores busy "
                  f"during the rounds")
        async with db.sessions() as session:
            total = await balance_total(session, guild_id=GUILD_ID)
        print(f"  ledger balance total: {total} (must be 0)")
        assert total == 0


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--players", type=int, default=4, help="players per hand (default 4)")
    parser.add_argument("--writers", type=int, default=None, help="also run with this many concurrent writers")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per setting (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="an EMPTY database to write into (default: a new SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL server and write there")
    parser.add_argument("--code", metavar="DIR", help="import bot.store from this checkout instead (a baseline)")
    parser.add_argument("--pg-async-commit", action="store_true", help="with --postgres: synchronous_commit=off")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                        help="before each round, wait up to this long for other processes to leave the CPU alone")
    args = parser.parse_args()

    if args.database_url:
        await bench(args.database_url, "the database of --database-url", args)
    elif args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pgserver import start_server

        options = "-c synchronous_commit=off" if args.pg_async_commit else "-c fsync=on"
        server = start_server(options)
        try:
            commit = "synchronous_commit=off" if args.pg_async_commit else "fsync and synchronous commit on"
            await bench(server.new_database(), f"PostgreSQL on 127.0.0.1 ({commit})", args)
        finally:
            server.stop()
    else:
        with tempfile.TemporaryDirectory() as folder:
            await bench(f"sqlite+aiosqlite:///{folder}/bench.db", f"SQLite file in {folder}", args)


if __name__ == "__main__":
    asyncio.run(main())
