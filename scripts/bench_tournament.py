"""A 64-entrant tournament's round, every table at once: the real bot (`python -m bot`) against the
fake Discord, 64 scripted entrants signing up, a knock-out at 3 seats (21 tables, each in a thread
of its own), then every table's players playing as bench_discord.py's users play (My hand, drop or
draw, spread, discard, Next hand) for the measured window. Prints the clicks' acknowledgement
latency (p50, p90, p99, max), the unacknowledged clicks, the bot's CPU per click and the setup's
times.

    python scripts/bench_tournament.py --entrants 64 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from bench_discord import (BenchFake, Clicks, Driver, Table, bot_log_problems, cpu_per_click, cpu_seconds,  # noqa: E402
                           display_name, harness_collector_off, harness_collector_on, ms, play, quantiles,
                           violations_summary)
from bot.tournament import table_sizes  # noqa: E402
from fakediscord import MANAGE_GUILD, BotProcess  # noqa: E402


def table_message(fake, thread):
    return next((m for m in fake.messages.values()
                 if m.channel is thread and not m.ephemeral and m.author.id == fake.bot_user.id and m.embeds
                 and any(b.custom_id and b.custom_id.startswith("tonk:") for b in m.buttons)), None)


async def wait_for(predicate, timeout: float, what: str, detail=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise RuntimeError(f"timed out waiting for {what}" + (f" ({detail()})" if detail else ""))


async def run(args: argparse.Namespace, workdir: Path) -> dict:
    fake = BenchFake()
    guild = fake.add_guild("Tonk Hall", channels=["tonk"])
    organiser = fake.add_member(guild, "organiser", permissions=MANAGE_GUILD)
    entrants = [fake.add_member(guild, f"player{n:03d}") for n in range(1, args.entrants + 1)]
    await fake.start()
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/tonk.db", "TONK_ENV_FILE": str(workdir / "no.env"),
           "TONK_COMPUTER_DELAY": "1", "TONK_TABLE_EDIT_INTERVAL": "1", "TONK_NEXT_DEAL_DELAY": "2", "LOG_LEVEL": "INFO"}
    process = BotProcess(fake, "bot", env=env, log_path=workdir / "bot.log")
    result: dict = {}
    try:
        await process.start(timeout=60)
        await fake.wait_for_commands("tonk", timeout=30)
        pid = process.process.pid
        clicks = Clicks()
        driver = Driver(fake, clicks, (args.think_min, args.think_max))
        channel = guild.channel("tonk")
        t0 = time.perf_counter()
        sent = await driver.send("open", fake.slash(organiser, channel, "tonk tournament open", format="knockout",
                                                    seats=3, hands=args.hands))
        signups = sent.original_message
        if signups is None:
            raise RuntimeError(f"/tonk tournament open: {sent.response_errors}")
        join = next(b for b in signups.buttons if b.custom_id.endswith(":join"))
        gate = asyncio.Semaphore(8)

        async def sign_up(member) -> None:
            async with gate:
                await driver.click("signup", member, signups, join.custom_id)

        await asyncio.gather(*(sign_up(m) for m in entrants))
        start = next(b for b in signups.buttons if b.custom_id.endswith(":start"))
        begun = await driver.click("begin", organiser, signups, start.custom_id)
        refused = [s for v, _, s in clicks.records if v == "signup" and s.original_message is not None
                   and s.original_message.ephemeral]
        if refused:
            print(f"{len(refused)} sign-ups refused, e.g. {refused[0].original_message.text[:200]}", flush=True)
        if begun.original_message is not None and begun.original_message.ephemeral:
            print(f"start: {begun.original_message.text[:300]}", flush=True)
        args.tables = args.tables or len(table_sizes(args.entrants, 3))
        threads = await wait_for(lambda: [t for t in guild.threads if t.name.startswith("Round 1 · Table")]
                                 if len([t for t in guild.threads if t.name.startswith("Round 1 · Table")])
                                 >= args.tables else None, 120, f"{args.tables} threads",
                                 lambda: f"{len(guild.threads)} threads; sign-ups: {signups.text[-400:]}")
        messages = await wait_for(lambda: [table_message(fake, t) for t in threads]
                                  if all(table_message(fake, t) for t in threads) else None, 60, "every table")
        result["setup_seconds"] = time.perf_counter() - t0
        by_name = {display_name(m): m for m in entrants}
        tables = []
        for i, (thread, message) in enumerate(zip(threads, messages)):
            seated = [m for name, m in by_name.items() if f"**{name}**" in message.text
                      or f"<@{m.user.id}>" in message.content]
            table = Table(i, thread, seated, random.Random(args.seed * 1009 + i), message=message)
            table.by_name = {display_name(m): m for m in seated}
            table.table_id = int(next(b.custom_id for b in message.buttons if b.custom_id.startswith("tonk:"))
                                 .split(":")[1])
            table.read_table()
            tables.append(table)
        result["tables"] = len(tables)
        result["seated"] = sum(len(t.players) for t in tables)
        print(f"{len(tables)} tables dealt in their threads, {result['seated']} entrants seated, "
              f"{result['setup_seconds']:.1f} s after the open", flush=True)

        drivers = [asyncio.create_task(play(driver, t)) for t in tables]
        harness_collector_off()
        await asyncio.sleep(args.warmup)
        window0, cpu0 = time.perf_counter(), cpu_seconds(pid)
        await asyncio.sleep(args.seconds)
        window1, cpu1 = time.perf_counter(), cpu_seconds(pid)
        harness_collector_on()
        driver.stopping = True
        await asyncio.wait(drivers, timeout=20)
        for task in drivers:
            task.cancel()
        window = clicks.window(window0, window1)
        latencies = [s.ack_latency for _, s in window if s.ack_latency is not None]
        by_verb: dict[str, list[float]] = defaultdict(list)
        for verb, s in window:
            if s.ack_latency is not None:
                by_verb[verb].append(s.ack_latency)
        kinds, hits = violations_summary(fake)
        result.update(seconds=window1 - window0, clicks=len(window), ack=quantiles(latencies),
                      unacked=sum(1 for _, s in window if s.ack_latency is None),
                      ack_by_verb={v: quantiles(x) for v, x in sorted(by_verb.items())},
                      cpu_ms_per_click=cpu_per_click(cpu1 - cpu0, latencies),
                      cpu_percent=100 * (cpu1 - cpu0) / (window1 - window0),
                      hands=sum(t.hands_ended for t in tables), violations=dict(kinds), rate_limit_hits=dict(hits),
                      surprises=dict(clicks.refusals), timeouts=clicks.timeouts)
    finally:
        result["exit_code"] = await process.stop(timeout=15)
        errors, warnings, first = bot_log_problems(process)
        result.update(log_errors=errors, log_warnings=warnings, log_first_errors=first)
        await process.close()
        await fake.stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--tables", type=int, default=0,
                        help="tables round one seats (default: the bot's own seating, 21 for 64 at 3 seats)")
    parser.add_argument("--hands", type=int, default=20, help="hands a table plays in round one")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = asyncio.run(run(args, Path(tmp)))
    print()
    print(f"=== Tonk tournament: {args.entrants} entrants, {r.get('tables')} tables at once, "
          f"think {args.think_min}-{args.think_max} s ===")
    print(f"setup             {r.get('setup_seconds', 0):.1f} s from the open to every table dealt")
    print(f"clicks            {r.get('clicks')} in {r.get('seconds', 0):.1f} s; not acknowledged {r.get('unacked')}")
    if "ack" in r:
        print(f"ack latency       {ms(r['ack'])}")
        for verb, stats in r["ack_by_verb"].items():
            print(f"  {verb:<8}        {ms(stats)}")
        print(f"CPU per click     {r['cpu_ms_per_click']:.2f} ms (bot {r['cpu_percent']:.0f}% of a core)")
        print(f"hands completed   {r['hands']}")
        print(f"violations        {r['violations'] or 'none'}; 429s {r['rate_limit_hits'] or 'none'}")
        print(f"driver            timeouts {r['timeouts']}, surprises {r['surprises'] or 'none'}")
    print(f"bot log           {r['log_errors']} errors, {r['log_warnings']} warnings; exit code {r['exit_code']}")
    for line in r["log_first_errors"]:
        print(f"  {line[:200]}")
    return 0 if r.get("unacked") == 0 and not r["log_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
