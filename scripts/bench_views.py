"""How long a seat's view takes to build in a long hand, side by side with a base commit.

    python scripts/bench_views.py --base 6ae261d              # this tree against 6ae261d
    python scripts/bench_views.py --base 6ae261d --actions 2000 --rounds 5

A long hand: two players under the standard rules with `stock_out: reshuffle`, each
turn a draw and a discard (never a spread or a drop), so the hand never ends and its
log grows by two actions a turn. Each measurement is a fresh subprocess of this Python
that imports one tree's engine (the base's engine/ is exported with `git archive`), in
CPU time (`time.process_time`):

- `end`: the hand played to `--actions` actions, then `game.view(0)` built 200 times
  (what every click on a long hand's table costs the bot);
- `copy`: then 200 times a copy of that game, a draw applied to the copy and the
  drawer's view of it (the bot applies every play to a copy of the table's game);
- `each`: a new hand played to `--actions` actions with both seats' views built after
  every action (what a table that shows every move costs over a whole hand).

Base and new runs alternate `--rounds` times; the script prints each run and the medians
of both trees with their ratio, and checks that both trees' views show the same history.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import machine, run_child, trees_to_compare  # noqa: E402

CHILD = r"""
import hashlib, json, sys, time
from engine import DRAW, Discard, Game, Rules

actions = int(sys.argv[1])
rules = Rules(stock_out="reshuffle")


def long_hand(n, each=False):
    import random
    game = Game.deal(rules, 2, 0, rng=random.Random(7))
    for _ in range(n // 2):
        seat = game.turn
        game.apply(seat, DRAW)
        if each:
            game.view(0), game.view(1)
        hand = game.hands[seat]
        game.apply(seat, Discard(max(hand, key=lambda c: (c.value, c.code))))
        if each:
            game.view(0), game.view(1)
    return game


game = long_hand(actions)
started = time.process_time()
for _ in range(200):
    view = game.view(0)
end = (time.process_time() - started) / 200
game.view(1)
started = time.process_time()
for _ in range(200):  # as the bot plays: a copy of the table's game, the play applied to it, its view
    twin = game.copy()
    twin.apply(twin.turn, DRAW)
    twin.view(twin.turn)
copy = (time.process_time() - started) / 200
started = time.process_time()
long_hand(actions, each=True)
each = time.process_time() - started
seen = hashlib.sha256(repr([(e.seat, e.action.verb, e.card and e.card.code) for e in view.history]).encode())
print(json.dumps({"end": end, "copy": copy, "each": each, "log": len(game.log), "history": seen.hexdigest()[:16]}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="6ae261d", help="commit to compare against (default 6ae261d)")
    parser.add_argument("--actions", type=int, default=2000, help="actions in the long hand (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="times each tree is run (default 5)")
    args = parser.parse_args(argv)
    if args.actions < 2 or args.rounds < 1:
        print("bench_views: --actions must be at least 2 and --rounds at least 1", file=sys.stderr)
        return 2
    print(f"machine: {machine()}")
    print(f"a {args.actions}-action hand, {args.rounds} rounds; CPU time of each subprocess")
    with trees_to_compare(args.base, "bench_views") as trees:
        if trees is None:
            return 2
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for rnd in range(args.rounds):
            for name, tree in trees.items():
                r = run_child(tree, CHILD, args.actions)
                runs[name].append(r)
                print(f"  round {rnd + 1} {name:>14}: one view at the end {r['end'] * 1e6:9.1f} us   "
                      f"copy, draw, view {r['copy'] * 1e6:9.1f} us   views after every action {r['each']:7.3f} s")
    names = list(trees)
    same = len({r["history"] for rs in runs.values() for r in rs}) == 1
    print("same history in both trees' views: " + ("yes" if same else "NO"))
    for key, unit, scale in (("end", "us per view at the end", 1e6), ("copy", "us per copy, draw and view", 1e6),
                             ("each", "ms for the whole hand's views", 1e3)):
        base = statistics.median(r[key] for r in runs[names[0]])
        new = statistics.median(r[key] for r in runs[names[1]])
        print(f"median {unit}: {names[0]} {base * scale:,.1f}   {names[1]} {new * scale:,.1f}   "
              f"speed-up {base / new:.1f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
