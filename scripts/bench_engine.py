"""Random-playout throughput of the engine, side by side with a base commit.

    python scripts/bench_engine.py                      # this tree against 0ee025e
    python scripts/bench_engine.py --hands 20000 --seeds 1,2,3 --rounds 3 --base 0ee025e

The base commit's engine/ is exported with `git archive` into a temporary folder (the
repository is not touched). Each measurement is a fresh subprocess of this Python that
imports one tree's engine, deals and plays `--hands` hands with uniformly random legal
actions (exactly `python -m engine simulate`: same seed, same rotation of the deal) and
reports the CPU time of its own process (`time.process_time`, so other work on a shared
machine counts less than it would in wall-clock time). Base and new runs alternate, on
the same seeds, `--rounds` times; the script prints each run, then the median hands per
CPU second of each tree, their ratio, and the median of the back-to-back ratios (a base
run and the new run right after it, on the same seed). It also checks that both trees produce the same
endings, payments and action counts for every seed: a faster engine must play the same game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import hashlib, json, random, sys, time
from engine.game import Game
from engine.rules import Rules
from engine.simulate import play_random_hand

hands, players, preset, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rules = Rules.preset(preset)
rng = random.Random(seed)
endings = {}
digest = hashlib.sha256()
actions = 0
dealer = 0
started = time.process_time()
for _ in range(hands):
    game = Game.deal(rules, players, dealer, rng=rng)
    play_random_hand(game, rng)
    kind = game.outcome.kind
    endings[kind] = endings.get(kind, 0) + 1
    actions += len(game.log)
    digest.update(repr(game.outcome.payments).encode())
    dealer = (dealer + 1) % players
cpu = time.process_time() - started
print(json.dumps({"cpu": cpu, "endings": dict(sorted(endings.items())), "actions": actions,
                  "payments_sha256": digest.hexdigest()[:16]}))
"""


def export_tree(commit: str, into: Path) -> Path:
    """Write `commit`'s engine/ package into `into` with git archive; return the folder."""
    archive = into / "base.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "engine"], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def run_child(tree: Path, code: str, *args) -> dict:
    """Run `code` in a fresh Python that imports `tree`'s engine; return the JSON it prints."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def run_once(tree: Path, hands: int, players: int, preset: str, seed: int) -> dict:
    return run_child(tree, CHILD, hands, players, preset, seed)


@contextlib.contextmanager
def trees_to_compare(base: str, prog: str):
    """{name: engine tree}: `base`'s engine/ exported into a temporary folder, and this
    tree; None (and one line on standard error) when `base` cannot be exported."""
    with tempfile.TemporaryDirectory(prefix="tonk-bench-base-") as tmp:
        try:
            base_tree = export_tree(base, Path(tmp))
        except subprocess.CalledProcessError:
            print(f"{prog}: cannot export engine/ from commit {base!r}", file=sys.stderr)
            yield None
            return
        yield {f"base {base}": base_tree, "this tree": ROOT}


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="0ee025e", help="commit to compare against (default 0ee025e)")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per run (default 20000)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated seeds, each run by both trees")
    parser.add_argument("--rounds", type=int, default=3, help="times each (tree, seed) is run")
    args = parser.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    except ValueError:
        print(f"bench_engine: --seeds must be whole numbers separated by commas, not {args.seeds!r}", file=sys.stderr)
        return 2
    if args.hands < 1 or args.rounds < 1 or not seeds:
        print("bench_engine: --hands and --rounds must be at least 1, with at least one seed", file=sys.stderr)
        return 2

    print(f"machine: {machine()}")
    print(f"{args.hands} hands per run, {args.players} players, preset {args.preset}, seeds {seeds}, "
          f"{args.rounds} rounds; CPU time of each subprocess")
    with trees_to_compare(args.base, "bench_engine") as trees:
        if trees is None:
            return 2
        rates: dict[str, list[float]] = {name: [] for name in trees}
        results: dict[tuple[str, int], dict] = {}
        for rnd in range(args.rounds):
            for seed in seeds:
                for name, tree in trees.items():
                    r = run_once(tree, args.hands, args.players, args.preset, seed)
                    rate = args.hands / r["cpu"]
                    rates[name].append(rate)
                    results[(name, seed)] = r
                    print(f"  round {rnd + 1} seed {seed} {name:>14}: {r['cpu']:6.3f} s CPU  {rate:9.0f} hands/s")
    names = list(trees)
    same = all(
        {k: results[(names[0], s)][k] for k in ("endings", "actions", "payments_sha256")}
        == {k: results[(names[1], s)][k] for k in ("endings", "actions", "payments_sha256")}
        for s in seeds
    )
    for s in seeds:
        r = results[(names[1], s)]
        print(f"seed {s}: endings {r['endings']}, {r['actions']} actions, payments sha256 {r['payments_sha256']}")
    print("same endings, actions and payments in both trees: " + ("yes" if same else "NO"))
    base_rate = statistics.median(rates[names[0]])
    new_rate = statistics.median(rates[names[1]])
    print(f"median hands per CPU second: {names[0]} {base_rate:,.0f}   {names[1]} {new_rate:,.0f}")
    print(f"ratio (this tree / base): {new_rate / base_rate:.2f}x")
    # each (round, seed) runs base then this tree back to back: their ratio shares the
    # machine's load of that moment, so its median is steadier on a busy machine
    paired = [b / a for a, b in zip(rates[names[0]], rates[names[1]])]
    print(f"median of the {len(paired)} back-to-back ratios: {statistics.median(paired):.3f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
