"""How long `engine.review.review` takes for one seat of one hand (issue 26: 2 s at p99).

Seeded self-play hands of noisy hard players (engine/players/noisy.py: a mistake at 15%
of decisions, so reviews have differences to price), standard rules; seat 0 of each hand
is reviewed with the default budget. CPU time of the process (`time.process_time`) and
wall-clock time are both printed: on a shared machine the CPU time is what one core needs.

    python scripts/bench_review.py [--hands 50] [--players 2,3,4] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.players.noisy import play_record  # noqa: E402
from engine.review import DEFAULT_SAMPLES, DEFAULT_SEARCH, review  # noqa: E402
from engine.rules import Rules  # noqa: E402


def percentile(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    print(f"engine.review, {args.hands} hands per table size, preset {args.preset}, seat 0 reviewed, "
          f"samples {DEFAULT_SAMPLES}, search {DEFAULT_SEARCH}, seed {args.seed}; "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| players | reviews | decisions (mean) | differences (mean) | CPU p50 s | CPU p99 s | CPU max s | wall p50 s | wall p99 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in [int(x) for x in args.players.split(",")]:
        cpu, wall, decisions, diffs = [], [], [], []
        for i in range(args.hands):
            record = play_record(rules, n, args.seed * 100_000 + n * 1000 + i)
            w, c = time.perf_counter(), time.process_time()
            rv = review(record, 0, seed=i)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
            decisions.append(len(rv.decisions))
            diffs.append(len(rv.differences))
        print(f"| {n} | {len(cpu)} | {sum(decisions) / len(decisions):.1f} | {sum(diffs) / len(diffs):.1f} | "
              f"{percentile(cpu, 0.5):.3f} | {percentile(cpu, 0.99):.3f} | {max(cpu):.3f} | "
              f"{percentile(wall, 0.5):.3f} | {percentile(wall, 0.99):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
