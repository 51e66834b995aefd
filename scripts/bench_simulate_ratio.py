"""Benchmark: `python -m engine simulate` here against a base commit, in the same run.

The machine is shared and busy, so absolute figures vary; this script alternates the
two engines, each in its own process, and compares CPU time (time.process_time of the
simulation alone), which other processes disturb far less than wall time:

    git worktree add /tmp/base-0ee025e 0ee025e      # or: git archive 0ee025e engine | tar -x -C DIR
    python scripts/bench_simulate_ratio.py --base /tmp/base-0ee025e --rounds 5

It prints, per round, hands per CPU-second of the base and of this tree, and the median
ratio (this tree / base; above 1 is faster). Standard preset, random legal play.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from engine.simulate import simulate
hands, players, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
started = time.process_time()
summary = simulate(hands, players, "standard", seed)
print(json.dumps({"cpu": time.process_time() - started, "endings": summary["endings"]}))
"""


def run(tree: Path, hands: int, players: int, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, "-c", CHILD, str(hands), str(players), str(seed)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, type=Path, help="a checkout of the base commit (holds engine/)")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ratios = []
    print(f"standard preset, {args.players} players, {args.hands} hands per run, CPU time")
    print("| round | base hands/CPU-s | this tree hands/CPU-s | ratio |")
    print("|---|---|---|---|")
    for r in range(args.rounds):
        seed = r + 1
        order = [("base", args.base), ("head", HERE)] if r % 2 == 0 else [("head", HERE), ("base", args.base)]
        got = {name: run(tree, args.hands, args.players, seed) for name, tree in order}
        assert got["base"]["endings"] == got["head"]["endings"], "the two engines played different hands"
        base, head = args.hands / got["base"]["cpu"], args.hands / got["head"]["cpu"]
        ratios.append(head / base)
        print(f"| {r + 1} | {base:,.0f} | {head:,.0f} | {head / base:.3f} |", flush=True)
    print(f"median ratio (this tree / base): {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
