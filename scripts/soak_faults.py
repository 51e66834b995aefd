"""Soak: Tonk tables played for minutes through Discord's bad days, a seeded fault every 30 s (issue 35).

The real bot (`python -m bot`, as production starts it) plays `--tables` tables (20) against the
fake Discord on 127.0.0.1, driven by the scripted players of scripts/bench_discord.py (My hand,
draw or drop, spread, discard, Next hand; 0.5-2 s of thought before each click), with a 30 s turn
timer. Every `--every` seconds (30) for `--seconds` (600) one fault begins, drawn from a seeded
shuffle in which each kind comes at least once:

  close 1001 / 1006 / 4000    the gateway's socket closed with that code (the bot resumes)
  RECONNECT                   Discord asks the bot to reconnect
  INVALID_SESSION (resumable, and not)
  gateway outage 25 s         every socket closed, new ones refused (503 on the upgrade)
  REST 503 25 s               every request but the clicks' answers answered 503
  edits 502 25 s              every PATCH answered 502 (discord.py retries those itself)
  callbacks 503 2 s           the clicks' answers refused for 2 s
  slow API 2 s, 25 s          every request answered 2 s late
  table message deleted       a moderator deletes one table's message

Then `--recovery` seconds (60) without faults. Checked and printed at the end:
  - no hand lost or doubled: every table's stored hands are exactly 1..n, where n is its last
    finished hand, and the ledger's hand counts equal the stored hands' seats;
  - zero-sum: the server's balances sum to 0;
  - every table advanced after the last fault (its stored version grew in the recovery minute);
  - nobody timed out for Discord's fault: the bot's log of turns that ran out (the scripted players
    never think for 30 s), and every click the bot could see acknowledged (outside the failed-callback
    windows);
  - memory flat: the bot's RSS in the third minute after the tables opened (the first two warm its
    caches up) against the last minute;
  - no traceback and no ERROR line in the bot's log.

    python scripts/soak_faults.py                      # SQLite, 20 tables, 10 minutes
    python scripts/soak_faults.py --postgres           # the same on a throwaway PostgreSQL server
    python scripts/soak_faults.py --seconds 120        # a short run

A script, not a test: it prints its figures and exits 1 when a check fails, 0 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bench_discord import (Clicks, Driver, Table, build_world, open_table, play, rss_kib,  # noqa: E402
                           scratch, steady_rss)
from fakediscord import MANAGE_GUILD, BotProcess, loopback_only  # noqa: E402
from fakediscord.interactions import InteractionTimeout  # noqa: E402
from fakediscord.server import BotNotConnected  # noqa: E402
from sqlalchemy import text  # noqa: E402
from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

OUTAGE = 25.0
"""How long the longer faults last (gateway outage, REST outages, slow API): within the 30 s."""


class SoakDriver(Driver):
    """bench_discord.py's players, who also meet a bot that is not connected: Discord cannot deliver
    their click ("This interaction failed"), so they look again a moment later, as people do."""

    async def send(self, verb, sending):
        try:
            return await super().send(verb, sending)
        except BotNotConnected:
            self.clicks.refusals["bot away"] += 1
            await asyncio.sleep(1.0)
            raise LookupError("the bot is not connected") from None  # `play` looks again and plays on


@dataclass
class Fault:
    kind: str
    began: float
    """Fake clock."""
    ended: float = 0.0
    detail: str = ""
    wall: float = field(default_factory=time.time)
    """When it began (Unix time: the bot's log is read against it)."""


@dataclass
class Soak:
    faults: list[Fault] = field(default_factory=list)
    rss: list[tuple[float, int]] = field(default_factory=list)
    away: list[list[float]] = field(default_factory=list)
    """When (fake clock) the bot had no gateway session connected: a fault's own time, and its
    reconnecting after (discord.py's back-off can keep it away well after Discord is back)."""


async def apply_fault(kind: str, fake, tables: list[Table], rng: random.Random) -> str:
    """Begin the fault `kind`, and end it (each lasts at most `OUTAGE` seconds)."""
    if kind.startswith("close "):
        await fake.drop_gateway(int(kind.split()[1]))
    elif kind == "RECONNECT":
        await fake.reconnect_gateway()
    elif kind == "INVALID_SESSION resumable":
        await fake.invalid_session(True)
    elif kind == "INVALID_SESSION":
        await fake.invalid_session(False)
    elif kind == "gateway outage":
        await fake.gateway_outage()
        await asyncio.sleep(OUTAGE)
        fake.gateway_back()
    elif kind == "REST 503":
        fake.rest_outage(503, "*")
        await asyncio.sleep(OUTAGE)
        fake.rest_back()
    elif kind == "edits 502":
        fake.rest_outage(502, "PATCH *")
        await asyncio.sleep(OUTAGE)
        fake.rest_back()
    elif kind == "callbacks 503":
        fake.rest_outage(503, "POST /interactions/*/callback")
        await asyncio.sleep(2.0)
        fake.rest_back()
    elif kind == "slow API":
        fake.slow_api(2.0)
        await asyncio.sleep(OUTAGE)
        fake.api_fast()
    elif kind == "table message deleted":
        table = rng.choice([t for t in tables if t.message is not None])
        old = table.message
        await fake.delete_message(old)
        DELETED.add(str(old.id))
        # the players find the table where the bot posts it again (at its next change), as people
        # would; between hands nothing changes it, and a player who finds no table asks for one

        def posted_again():
            return next((m for m in fake.messages.values() if m.channel is old.channel and m.id != old.id
                         and not m.deleted and not m.ephemeral and m.embeds
                         and str(m.embeds[0].get("title", "")).startswith("Tonk")
                         and any(b.custom_id and b.custom_id.startswith(f"tonk:{table.table_id}:")
                                 for b in m.buttons)), None)

        try:
            table.message = await fake.wait_for(posted_again, timeout=10, what="the table posted again")
        except InteractionTimeout:
            await fake.slash(table.players[0], table.channel, "tonk new")
            table.message = await fake.wait_for(posted_again, timeout=15, what="the table posted for /tonk new")
            return f"table {table.table_id}, shown again for /tonk new"
        return f"table {table.table_id}"
    else:
        raise ValueError(kind)
    return ""


DELETED: set[str] = set()
"""The table messages the faults deleted: the bot's one edit of each that Discord refuses (404) is
how it learns of it."""
KINDS = ("close 1001", "close 1006", "close 4000", "RECONNECT", "INVALID_SESSION resumable", "INVALID_SESSION",
         "gateway outage", "REST 503", "edits 502", "callbacks 503", "slow API", "table message deleted")


def schedule(count: int, rng: random.Random) -> list[str]:
    """`count` faults: every kind once (if there is room), the rest drawn at random; shuffled."""
    kinds = list(KINDS)
    rng.shuffle(kinds)
    if count <= len(kinds):
        return kinds[:count]
    kinds += [rng.choice(KINDS) for _ in range(count - len(KINDS))]
    rng.shuffle(kinds)
    return kinds


async def stored(url: str) -> dict:
    """What the database holds, read as any other client would: each table's version, status and
    hand number, each stored hand, and the ledger."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as db:
            tables = {row[0]: dict(version=row[1], status=row[2], hand_number=row[3]) for row in
                      (await db.execute(text("SELECT id, version, status, hand_number FROM live_tables"))).all()}
            hands = [(row[0], row[1]) for row in
                     (await db.execute(text("SELECT table_id, hand_id FROM hands"))).all()]
            seats = (await db.execute(text("SELECT count(*) FROM hand_seats"))).scalar_one()
            ledger = (await db.execute(text("SELECT coalesce(sum(balance), 0), coalesce(sum(hands), 0), count(*) "
                                            "FROM ledger"))).one()
    finally:
        await engine.dispose()
    return dict(tables=tables, hands=hands, seats=seats, balance_sum=ledger[0], ledger_hands=ledger[1],
                accounts=ledger[2])


def check_hands(db: dict) -> list[str]:
    """Every table's stored hands are exactly 1..n (n its last finished hand), none twice."""
    problems = []
    by_table: dict[int, list[int]] = {}
    for table_id, hand_id in db["hands"]:
        by_table.setdefault(table_id, []).append(int(hand_id.rsplit("-", 1)[1]))
    for table_id, row in db["tables"].items():
        numbers = sorted(by_table.get(table_id, []))
        last = row["hand_number"] - (1 if row["status"] == "playing" else 0)
        if numbers != list(range(1, last + 1)):
            problems.append(f"table {table_id} ({row['status']}, hand {row['hand_number']}): stored hands {numbers}")
    if db["ledger_hands"] != db["seats"]:
        problems.append(f"the ledger counts {db['ledger_hands']} seats' hands, the stored hands have {db['seats']}")
    return problems


async def run(args: argparse.Namespace, workdir: Path) -> dict:
    rng = random.Random(args.seed)
    fake, seating = build_world(args.tables, rng, rate_limits=True)
    await fake.start()
    url = args.database_url or f"sqlite+aiosqlite:///{workdir}/tonk.db"
    env = {"DATABASE_URL": url, "TONK_ENV_FILE": str(workdir / "no.env"), "TONK_TABLE_EDIT_INTERVAL": "1",
           "TONK_COMPUTER_DELAY": "1", "LOG_LEVEL": "INFO"}
    process = BotProcess(fake, "bot", env=env, log_path=workdir / "bot.log")
    soak = Soak()
    result: dict = {"tables": args.tables, "database": url.split(":", 1)[0]}
    try:
        await process.start(timeout=60)
        await fake.wait_for_commands("tonk", timeout=30)
        pid = process.process.pid
        clicks = Clicks()
        driver = SoakDriver(fake, clicks, (args.think_min, args.think_max), ack_timeout=10.0)
        admin = fake.add_member(fake.guild, "soak-admin", permissions=MANAGE_GUILD)
        sent = await driver.send("settings", fake.slash(admin, fake.guild.channel("table-000"), "tonk-admin settings",
                                                        turn_timer=args.turn_timer))
        if not sent.acked:
            raise RuntimeError("the bot did not answer /tonk-admin settings")
        tables = [Table(i, fake.guild.channel(f"table-{i:03d}"), players, random.Random(args.seed * 100_003 + i))
                  for i, players in enumerate(seating)]
        gate = asyncio.Semaphore(4)

        async def setup(table: Table) -> None:
            async with gate:
                await open_table(driver, table)

        await asyncio.gather(*(setup(t) for t in tables))
        print(f"{args.tables} tables opened and dealt; turn timer {args.turn_timer:.0f} s; "
              f"a fault every {args.every:.0f} s for {args.seconds:.0f} s, then {args.recovery:.0f} s without",
              flush=True)
        players = [asyncio.create_task(play(driver, t)) for t in tables]
        result["rss_start_kib"] = await steady_rss(pid)

        async def sample_rss() -> None:
            while True:
                soak.rss.append((time.monotonic(), rss_kib(pid)))
                await asyncio.sleep(10)

        sampler = asyncio.create_task(sample_rss())

        async def watch_gateway() -> None:
            while True:
                connected = fake.bot_ready and any(s.connected for s in fake.sessions.values())
                now = fake.clock.now()
                if not connected and (not soak.away or soak.away[-1][1] < now - 0.2):
                    soak.away.append([now, now])
                elif not connected:
                    soak.away[-1][1] = now
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch_gateway())
        began = time.monotonic()
        kinds = schedule(int(args.seconds // args.every), rng)
        for i, kind in enumerate(kinds):
            await asyncio.sleep(max(0.0, began + (i + 1) * args.every - args.every / 2 - time.monotonic()))
            fault = Fault(kind, fake.clock.now())
            fault.detail = await apply_fault(kind, fake, tables, rng)
            fault.ended = fake.clock.now()
            soak.faults.append(fault)
            print(f"{time.monotonic() - began:6.1f} s  {kind}{' ' + fault.detail if fault.detail else ''} "
                  f"({fault.ended - fault.began:.1f} s)", flush=True)
        await asyncio.sleep(max(0.0, began + args.seconds - time.monotonic()))
        after_faults = await stored(url)
        last_fault_end = fake.clock.now()
        plays_from = time.perf_counter()
        await asyncio.sleep(args.recovery)
        at_end = await stored(url)
        sampler.cancel()
        watcher.cancel()
        result["players_stopped"] = sum(task.done() for task in players)  # a harness surprise ended a table's play
        driver.stopping = True
        await asyncio.wait(players, timeout=20)
        for task in players:
            task.cancel()
        await fake.settle()
        result["rss_end_kib"] = await steady_rss(pid)

        # every table advanced after the last fault
        open_ids = [t.table_id for t in tables]
        stuck = [tid for tid in open_ids
                 if at_end["tables"][tid]["version"] <= after_faults["tables"][tid]["version"]]
        played: Counter = Counter()
        for verb, at, s in clicks.records:
            if at >= plays_from and s.ack_latency is not None and verb in ("draw", "discard", "dropnow", "next"):
                played[int(s.payload.get("data", {}).get("custom_id", "x:0").split(":")[1])] += 1
        stuck += [tid for tid in open_ids if played[tid] == 0 and tid not in stuck]
        result["tables_stuck_after_last_fault"] = stuck
        result["plays_after_last_fault"] = {tid: played[tid] for tid in open_ids}
        result["last_fault_end"] = last_fault_end

        # the clicks the bot could see were all answered, but in the failed-callback windows
        # (and a click sent while the gateway was away or closing, which Discord never delivers)
        def in_fault(at: float, kinds: tuple[str, ...], margin: float = 3.0) -> bool:
            return (any(f.kind in kinds and f.began - margin <= at <= f.ended + margin for f in soak.faults)
                    or any(start - margin <= at <= end + margin for start, end in soak.away))

        window_kinds = ("callbacks 503", "gateway outage", "close 1001", "close 1006", "close 4000", "RECONNECT",
                        "INVALID_SESSION", "INVALID_SESSION resumable")
        unanswered = [s for _, _, s in clicks.records if s.ack_latency is None and not s.response_errors]
        result["clicks"] = len(clicks.records)
        result["clicks_unanswered"] = len(unanswered)
        result["clicks_unanswered_outside_faults"] = sum(1 for s in unanswered if not in_fault(s.sent_at, window_kinds))
        fake.check_interactions()
        sent_at = {i.id: i.sent_at for i in fake.interactions.values()}
        violations = Counter(v.kind for v in fake.violations)
        def caused(v) -> bool:
            if v.kind == "unknown_message" and v.detail in DELETED:
                return True  # the bot's edit of a deleted table message: Discord's 404 is how it learns
            return v.interaction_id is not None and in_fault(sent_at.get(v.interaction_id, 0.0), window_kinds)

        outside = Counter(v.kind for v in fake.violations if not caused(v))
        result["violations"] = dict(violations)
        result["violations_outside_faults"] = dict(outside)
        def when(v) -> str:
            at = sent_at.get(v.interaction_id) if v.interaction_id is not None else None
            before = [f for f in soak.faults if at is not None and f.began <= at]
            return f"{at - before[-1].began:.1f} s after {before[-1].kind} began" if before else ""

        result["violation_samples"] = [f"{v.kind} {v.route} {v.detail or v.message}"[:200] + f" ({when(v)})"
                                       for v in fake.violations if not caused(v)][:6]
        result["driver_refusals"] = dict(clicks.refusals)
        result["acks"] = sorted(s.ack_latency for _, _, s in clicks.records if s.ack_latency is not None)
        result["acks_outside_faults"] = sorted(s.ack_latency for _, _, s in clicks.records if s.ack_latency is not None
                                               and not in_fault(s.sent_at, KINDS, margin=5.0))
        result["faults"] = [(f.kind, round(f.ended - f.began, 1), f.detail) for f in soak.faults]
        result["gateway_away"] = [round(end - start, 1) for start, end in soak.away]
        result["rss_series_kib"] = [kib for _, kib in soak.rss]
    finally:
        code = await process.stop(timeout=15)
        result["bot_exit_code"] = code
        log = process.output()
        await process.close()
        await fake.stop()
    final = await stored(url)
    result["hands_stored"] = len(final["hands"])
    result["hand_problems"] = check_hands(final)
    result["balance_sum"] = final["balance_sum"]
    result["accounts"] = final["accounts"]
    lines = log.splitlines()
    result["timed_out_turns"] = sum("turn timed out" in line for line in lines)
    result["timeouts_after_faults"] = [timeout_after(line, soak.faults) for line in lines if "turn timed out" in line]
    result["log_errors"] = [line for line in lines if " ERROR " in line or " CRITICAL " in line][:5]
    result["log_tracebacks"] = log.count("Traceback")
    result["log_warnings"] = sum(" WARNING " in line for line in lines)
    return result


def timeout_after(line: str, faults: list[Fault]) -> str:
    """A timed-out turn of the bot's log, and the fault before it (the log's wall-clock time)."""
    from datetime import datetime

    at = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
    before = [f for f in faults if f.wall <= at]
    if not before:
        return f"{line[24:]} (before any fault)"
    fault = before[-1]
    return f"{line[24:]}: {at - fault.wall:.1f} s after {fault.kind} began"


def report(result: dict) -> int:
    rss = result["rss_series_kib"]
    minute = max(1, len(rss) // 10)
    # the first two minutes warm up (picture and text caches fill): flat means the third minute
    # against the last one
    first, last = statistics.median(rss[12:18] or rss[:6]), statistics.median(rss[-6:])
    def p99(acks: list[float]) -> float:
        return acks[int(0.99 * (len(acks) - 1))] * 1000 if acks else float("nan")

    checks = {
        "no hand lost or doubled": not result["hand_problems"],
        "zero-sum": result["balance_sum"] == 0,
        "every table advanced after the last fault": not result["tables_stuck_after_last_fault"],
        "nobody timed out": result["timed_out_turns"] == 0,
        "every click the bot could see answered": result["clicks_unanswered_outside_faults"] == 0,
        "no violation outside the faults": not result["violations_outside_faults"],
        "no traceback or ERROR in the log": result["log_tracebacks"] == 0 and not result["log_errors"],
        "bot stopped cleanly": result["bot_exit_code"] == 0,
        "every table's players played to the end": result["players_stopped"] == 0,
    }
    print()
    print(f"database            {result['database']}")
    print(f"faults              {len(result['faults'])}: " + ", ".join(f"{k} ({s} s)" for k, s, _ in result["faults"]))
    print(f"bot away            {len(result['gateway_away'])} times, {sum(result['gateway_away']):.1f} s in all "
          f"(the longest {max(result['gateway_away'], default=0):.1f} s)")
    print(f"clicks              {result['clicks']}  unanswered {result['clicks_unanswered']} "
          f"(outside the gateway and callback faults {result['clicks_unanswered_outside_faults']})")
    print(f"ack p99             {p99(result['acks']):.1f} ms in all, {p99(result['acks_outside_faults']):.1f} ms "
          f"outside the faults ({len(result['acks_outside_faults'])} clicks)")
    print(f"hands               {result['hands_stored']} stored")
    print(f"ledger              {result['accounts']} accounts, balances sum to {result['balance_sum']}")
    print(f"timed-out turns     {result['timed_out_turns']}")
    for line in result["timeouts_after_faults"][:10]:
        print(f"  {line}")
    print(f"violations          {result['violations']} (outside the faults {result['violations_outside_faults']})")
    for sample in result["violation_samples"]:
        print(f"  violation: {sample}")
    print(f"tables stuck        {result['tables_stuck_after_last_fault']}")
    print(f"RSS                 {result['rss_start_kib'] / 1024:.1f} MiB at the start, third minute "
          f"{first / 1024:.1f}, last minute {last / 1024:.1f} ({(last - first) / 1024:+.1f} MiB), after "
          f"{result['rss_end_kib'] / 1024:.1f}  (samples every 10 s, {minute} per minute)")
    print(f"bot log             {result['log_warnings']} warnings, {result['log_tracebacks']} tracebacks, "
          f"errors {result['log_errors'] or 'none'}")
    print(f"driver surprises    {result['driver_refusals']}")
    for problem in result["hand_problems"][:10]:
        print(f"  hand problem: {problem}")
    print()
    for name, ok in checks.items():
        print(f"{'ok  ' if ok else 'FAIL'}  {name}")
    return 0 if all(checks.values()) else 1


async def main_async(args: argparse.Namespace) -> int:
    with scratch(args, "soak-faults-") as workdir:
        with loopback_only():
            result = await run(args, workdir)
        code = report(result)
        if args.json:
            Path(args.json).write_text(json.dumps({"args": vars(args), "result": result}, indent=1, default=str))
        return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=600.0, help="how long faults come")
    parser.add_argument("--every", type=float, default=30.0, help="a fault every this many seconds")
    parser.add_argument("--recovery", type=float, default=60.0, help="play without faults after them")
    parser.add_argument("--turn-timer", type=float, default=30.0, help="the server's turn timer (seconds)")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--database-url", help="an EMPTY database for the bot (default: a SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="run the bot on a throwaway PostgreSQL server")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (database, bot log)")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
