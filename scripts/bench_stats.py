"""Benchmark: /tonk stats, /tonk top and /tonk stats server on a server with 200,000 hands.

Builds a SQLite file (the store's schema and settings) holding one server's
200,000 finished hands over three seasons (the last, current one with 100,000),
played by 50 accounts (44 people, 6 computer players) at tables of 2 to 4, with
the endings of real play in rough proportion. The hands and their seats are
written in bulk (executemany in one transaction), and the summaries the stats
read are made by ``summaries.replay`` from the same hands (as the schema
migration makes them), not through ``record_finished_hand``: building the file
is not what is measured.

Then it times what the commands do, through the same service and render code:
    - stats:  StatsService.player + stats_render.player_embed (+ to_dict)
    - top:    StatsService.top (a random category) + stats_render.top_embed
    - server: StatsService.server + stats_render.server_embed
    - chart:  StatsService.chart (the lines) and stats_chart.balance_png (the PNG), apart;
      and, if matplotlib is installed, the same chart drawn by matplotlib (Agg), to compare
    - ledger: the existing /tonk ledger queries (standings + player_standing), as the
      same-run reference

    python scripts/bench_stats.py                    # 200,000 hands, 300 requests of each
    python scripts/bench_stats.py --hands 20000 --requests 50

Wall time (perf_counter) and CPU time of the whole process (process_time, which
counts aiosqlite's worker thread too) are printed per request kind: p50, p99, max.
On a shared, busy machine the wall figures include waiting for a core.
"""

import argparse
import asyncio
import io
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.stats import StatsService  # noqa: E402
from bot.store import open_database, player_standing, standings  # noqa: E402
from bot.store.migrations import house_rules_key  # noqa: E402
from bot.store.models import utcnow  # noqa: E402
from bot.store.summaries import StoredHand, replay  # noqa: E402
from cogs import stats_chart, stats_render  # noqa: E402

GUILD_ID = 1
SEASON_SIZES = (50_000, 50_000, 100_000)
ACCOUNTS = [(f"user:{1000 + n}", f"Player {n}") for n in range(44)] + [
    (f"cpu:{name} (normal)", f"{name} (normal)") for name in ("Goblin", "One-Eye", "Elmo", "Otto", "Hagop", "Silent")
]
ENDINGS = (("drop_won", 30), ("caught", 15), ("run_out", 20), ("tonk_out", 10), ("stock_out", 10), ("instant", 8),
           ("void", 3), ("draw", 4))
RULES = ({"preset": "standard"}, {"preset": "standard"}, {"preset": "black company"}, {"preset": "standard", "hand_size": 7})
RECORD_ACTIONS = [{"seat": 0, "do": "draw"}, {"seat": 0, "do": "discard", "card": "Kd"}, {"seat": 1, "do": "drop"}]


def hand_result(rng: random.Random, players: int) -> dict[str, Any]:
    """A zero-sum result of the given ending, settled as RULES.md's standard game settles it."""
    outcome = rng.choices([name for name, _ in ENDINGS], [weight for _, weight in ENDINGS])[0]
    counts = [rng.randint(1, 45) for _ in range(players)]
    payments, pushups, winners, dropper = [0] * players, [0] * players, [], None
    if outcome in ("void", "draw"):
        pass
    elif outcome == "caught":
        dropper, low = rng.sample(range(players), 2)
        counts[low] = min(counts[low], counts[dropper])
        for seat in range(players):
            if seat not in (dropper, low):
                payments[seat] -= 1
                payments[low] += 1
                pushups[seat] = counts[seat]
        payments[dropper] -= 2
        payments[low] += 2
        pushups[dropper] = 2 * counts[dropper]
        winners = [low]
    else:
        winner = rng.randrange(players)
        multiple = 2 if outcome in ("instant", "tonk_out") else 1
        for seat in range(players):
            if seat != winner:
                payments[seat] -= multiple
                payments[winner] += multiple
                pushups[seat] = multiple * counts[seat]
        winners = [winner]
        dropper = winner if outcome == "drop_won" else None
    result = {"outcome": outcome, "winners": winners, "counts": counts, "payments": payments, "pushups": pushups}
    if dropper is not None:
        result["dropper"] = dropper
    return result


def build(connection: Any, total: int, seed: int) -> None:
    """Write ``total`` hands, their seats, the summaries (by ``summaries.replay``) and the seasons, in bulk."""
    rng = random.Random(seed)
    scale = total / sum(SEASON_SIZES)
    bounds, end = [], 0
    for size in SEASON_SIZES:
        end += round(size * scale)
        bounds.append(end)
    bounds[-1] = total
    now = utcnow().strftime("%Y-%m-%d %H:%M:%S.%f")
    hands, seats, stored = [], [], []
    for pk in range(1, total + 1):
        season = 1 + sum(pk > bound for bound in bounds)
        players = rng.sample(ACCOUNTS, rng.choice((2, 3, 3, 4, 4)))
        result = hand_result(rng, len(players))
        rules = rng.choice(RULES)
        record = {"format": "tonk-hand/1", "rules": rules, "players": [name for _, name in players], "dealer": 0,
                  "stake": 1, "deck": [], "actions": RECORD_ACTIONS}
        hand_seats = tuple((account, name, result["payments"][seat], result["pushups"][seat], seat in result["winners"])
                           for seat, (account, name) in enumerate(players))
        stored.append(StoredHand(GUILD_ID, season, result["outcome"], result.get("dropper"), house_rules_key(rules),
                                 hand_seats))
        hands.append((pk, f"t:{pk}", GUILD_ID, season, now, result["outcome"], result.get("dropper"), 1, "stakes",
                       json.dumps(record), json.dumps(result), house_rules_key(rules)))
        seats.extend((pk, seat, account, name, result["counts"][seat], payment, pushups, won)
                     for seat, (account, name, payment, pushups, won) in enumerate(hand_seats))
    summaries = replay(stored)
    connection.exec_driver_sql(
        "INSERT INTO hands (id, hand_id, guild_id, season, finished_at, outcome, dropper, stake, scoring_mode,"
        " record, result, house_rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", hands)
    connection.exec_driver_sql("INSERT INTO hand_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?)", seats)
    columns = list(next(iter(summaries.ledger.values())))
    connection.exec_driver_sql(
        f"INSERT INTO ledger (guild_id, season, account, updated_at, {', '.join(columns)})"
        f" VALUES ({', '.join('?' * (len(columns) + 4))})",
        [(*key, now, *(row[name] for name in columns)) for key, row in summaries.ledger.items()])
    connection.exec_driver_sql("INSERT INTO rivals VALUES (?, ?, ?, ?, ?, ?)",
                               [(*key, hands, net) for key, (hands, net) in summaries.rivals.items()])
    connection.exec_driver_sql("INSERT INTO hand_tallies VALUES (?, ?, ?, ?, ?)",
                               [(*key, hands) for key, hands in summaries.tallies.items()])
    connection.exec_driver_sql(
        "INSERT INTO guild_settings (guild_id, updated_at, season, season_started_at) VALUES (?, ?, ?, ?)",
        (GUILD_ID, now, len(SEASON_SIZES), now))
    connection.exec_driver_sql(
        "INSERT INTO season_archive (guild_id, season, started_at, ended_at) VALUES (?, ?, NULL, ?), (?, ?, ?, ?)",
        (GUILD_ID, 1, now, GUILD_ID, 2, now, now))
    connection.exec_driver_sql("INSERT INTO season_names VALUES (?, 2, 'Winter league', ?)", (GUILD_ID, now))
    connection.exec_driver_sql("ANALYZE")


def matplotlib_png(chart: Any, *, server: str) -> bytes | None:
    """The same chart with matplotlib's Agg backend (no pyplot), for the comparison; None without matplotlib."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None
    figure = Figure(figsize=(8, 4.5), dpi=100, facecolor="#2b2d31")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_facecolor("#2b2d31")
    for line in chart.lines:
        axes.plot(line.hands, line.values, label=line.label, linewidth=2)
    axes.axhline(0, color="#4e5058")
    axes.set_title(f"{chart.title} · {server}", color="#dbdee1", loc="left")
    axes.set_xlabel(chart.x_label, color="#dbdee1")
    axes.set_ylabel(chart.y_label, color="#dbdee1")
    axes.tick_params(colors="#dbdee1")
    axes.grid(True, color="#4e5058")
    axes.legend(loc="upper left")
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


async def timed(label: str, requests: int, call: Callable[[int], Awaitable[Any]]) -> dict[str, float]:
    walls, cpus = [], []
    for index in range(requests):
        wall, cpu = time.perf_counter(), time.process_time()
        await call(index)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)

    def p(values: list[float], q: float) -> float:
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]

    figures = {"wall_p50": p(walls, 50), "wall_p99": p(walls, 99), "wall_max": max(walls),
               "cpu_p50": p(cpus, 50), "cpu_p99": p(cpus, 99)}
    print(f"{label:<22} wall p50 {figures['wall_p50']:7.1f} ms  p99 {figures['wall_p99']:7.1f} ms  "
          f"max {figures['wall_max']:7.1f} ms | cpu p50 {figures['cpu_p50']:7.1f} ms  p99 {figures['cpu_p99']:7.1f} ms",
          flush=True)
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=sum(SEASON_SIZES))
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--charts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(f"sqlite+aiosqlite:///{folder}/bench.db")
        started = time.perf_counter()
        async with db.engine.begin() as connection:
            await connection.run_sync(build, args.hands, args.seed)
        print(f"built {args.hands:,} hands for {len(ACCOUNTS)} accounts in {time.perf_counter() - started:.1f} s",
              flush=True)
        service = StatsService(db)
        rng = random.Random(args.seed)
        server = "Bench server"
        accounts = [rng.choice(ACCOUNTS) for _ in range(max(args.requests, args.charts))]
        categories = ("net", "pushups", "win_rate", "wins", "tonk_outs", "catches", "streak")

        async def ledger(index: int) -> None:
            async with db.sessions() as session:
                await standings(session, guild_id=GUILD_ID, mode="stakes", limit=10)
                await player_standing(session, guild_id=GUILD_ID, mode="stakes", account=accounts[index][0])

        async def stats(index: int) -> None:
            account, name = accounts[index]
            season = None if index % 4 else 2  # one in four asks for an ended season
            report = await service.player(guild_id=GUILD_ID, account=account, season=season, name=name)
            stats_render.player_embed(report, server=server, chart=True).to_dict()

        async def top(index: int) -> None:
            season = None if index % 4 else 1
            report = await service.top(guild_id=GUILD_ID, category=categories[index % len(categories)],
                                       season=season, account=accounts[index][0])
            stats_render.top_embed(report, server=server).to_dict()

        async def server_stats(index: int) -> None:
            report = await service.server(guild_id=GUILD_ID, season=None if index % 4 else 2)
            stats_render.server_embed(report, server=server).to_dict()

        charts: list[Any] = []

        async def chart_lines(index: int) -> None:
            account, name = accounts[index]
            charts.append(await service.chart(guild_id=GUILD_ID, account=account, name=name,
                                              by="opponent" if index % 2 else "season"))

        async def chart_png(index: int) -> None:
            stats_chart.balance_png(charts[index], server=server)

        await stats(0)  # warm the caches once (imports, statement compilation)
        stats_chart.balance_png((await service.chart(guild_id=GUILD_ID, account=accounts[0][0])), server=server)
        results = {
            "ledger (reference)": await timed("ledger (reference)", args.requests, ledger),
            "/tonk stats": await timed("/tonk stats", args.requests, stats),
            "/tonk top": await timed("/tonk top", args.requests, top),
            "/tonk stats server": await timed("/tonk stats server", args.requests, server_stats),
            "chart lines": await timed("chart lines (query)", args.charts, chart_lines),
            "chart png": await timed("chart png (Pillow)", args.charts, chart_png),
        }
        if matplotlib_png(charts[0], server=server) is not None:

            async def chart_matplotlib(index: int) -> None:
                matplotlib_png(charts[index], server=server)

            await timed("chart png (matplotlib)", args.charts, chart_matplotlib)
        await db.close()
    verdicts = [("/tonk stats", 50), ("/tonk top", 50), ("/tonk stats server", 50), ("chart png", 150)]
    for label, budget in verdicts:
        figure = results[label]["wall_p99"]
        print(f"{label}: p99 {figure:.1f} ms wall, budget {budget} ms: {'met' if figure <= budget else 'MISSED'}")


if __name__ == "__main__":
    asyncio.run(main())
