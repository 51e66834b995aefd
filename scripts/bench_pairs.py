"""Benchmark: the 200-table click cost as a median over several runs, each paired with its own trivial bot.

This machine's speed moves by about half from one minute to the next (docs/BENCHMARKS.md, round
12): one run of `bench_discord.py` against one run of the trivial bot measured 2.43x to 3.91x for
the same code. This runs `bench_discord.py` `--pairs` times in a row (each run: the Tonk bot's
window, then the trivial bot's window with the same click pattern), and prints each run's figures
and their medians: the ratio of CPU per click to the trivial bot's in the same run, the Tonk bot's
p99, and its memory per table in play. Each run also reads the machine's own speed in each window
(`loop`: ms of CPU a fixed Python loop took, bench_discord.py's `SpeedProbe`): the speed moves by
itself too (round 13), and the runs whose two windows ran at the same speed are summed up apart.
Arguments after `--` go to every run.

    python scripts/bench_pairs.py --pairs 5
    python scripts/bench_pairs.py --pairs 5 -- --tables 200 --seconds 60 --think-min 1 --think-max 3
    python scripts/bench_pairs.py --tree /path/to/another/checkout --pairs 5   # that checkout's bot and harness

A script, not a test: it exits 0 unless a run itself failed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["--tables", "200", "--seconds", "60", "--think-min", "1", "--think-max", "3", "--baseline-seconds", "60"]


def figures(run: dict) -> dict:
    tonk, floor = run["tonk"], run["floor"]
    return {
        "cpu": tonk["bot_cpu_ms_per_click"],
        "floor": floor["bot_cpu_ms_per_click"],
        "ratio": tonk["bot_cpu_ms_per_click"] / floor["bot_cpu_ms_per_click"],
        "p99": tonk["ack"]["p99"] * 1000,
        "floor_p99": floor["ack"]["p99"] * 1000,
        "kib": (tonk["rss_with_tables_kib"] - tonk["rss_baseline_kib"]) / tonk["tables"],
        "unacked": tonk["unacked_in_window"],
        "busy": tonk["bot_cpu_percent"],
        # the machine's speed in each window (bench_discord.py's SpeedProbe; NaN from a checkout without it)
        "loop": tonk.get("probe_ms", {}).get("median") or math.nan,
        "floor_loop": floor.get("probe_ms", {}).get("median") or math.nan,
    }


def line(name: str, f: dict) -> str:
    return (f"{name:>8}  {f['cpu']:5.2f} ms/click ({f['busy']:3.0f}% of a core) against {f['floor']:4.2f}: "
            f"{f['ratio']:4.2f}x   p99 {f['p99']:6.1f} ms (trivial {f['floor_p99']:5.1f})   "
            f"{f['kib']:5.1f} KiB/table   unacked {f['unacked']:.0f}   "
            f"loop {f['loop']:4.1f} / {f['floor_loop']:4.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="runs, each with its own trivial-bot run (default 5)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose bench_discord.py and bot run")
    parser.add_argument("bench_args", nargs="*", help="arguments for bench_discord.py (after --)")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    bench_args = args.bench_args or DEFAULT
    if "--baseline-seconds" in bench_args and bench_args[bench_args.index("--baseline-seconds") + 1] in ("0", "0.0"):
        parser.error("every run needs its trivial bot: leave --baseline-seconds above 0")
    env = {**os.environ, "PYTHONPATH": str(args.tree)}
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(1, args.pairs + 1):
            out = Path(folder) / f"run{number}.json"
            command = [sys.executable, str(args.tree / "scripts" / "bench_discord.py"), *bench_args, "--json", str(out)]
            done = subprocess.run(command, cwd=args.tree, env=env, capture_output=True, text=True)
            if done.returncode != 0 or not out.exists():
                print(f"run {number} failed (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
                return 1
            runs.append(figures(json.loads(out.read_text())))
            print(line(f"run {number}", runs[-1]), flush=True)
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(line("median", median))
    # This machine's speed moves by itself (docs/BENCHMARKS.md, round 13): a run whose two windows saw
    # about the same speed (the fixed loop within 10% of each other) compares like with like.
    alike = [run for run in runs if abs(run["loop"] / run["floor_loop"] - 1) <= 0.10]
    if alike:
        print(f"the {len(alike)} run(s) whose two windows ran at the same speed (fixed loop within 10%): median ratio "
              f"{statistics.median(run['ratio'] for run in alike):.2f}x, p99 {statistics.median(run['p99'] for run in alike):.1f} ms")
    print(f"targets (issue 21): {median['ratio']:.2f}x the trivial bot (at most 2.5x); p99 {median['p99']:.1f} ms "
          f"(at most 50 ms); clicks never acknowledged: {sum(run['unacked'] for run in runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
