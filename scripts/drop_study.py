"""How good is a drop rule? Replayed over hard's self-play positions with their real outcomes.

    python scripts/drop_study.py gen FILE --players 2 --hands 1500 --seed 21 [--preset standard]
    python scripts/drop_study.py calib FILE [--leans 0.5,0.6,1.0]
    python scripts/drop_study.py rules FILE [FILE ...] [--lean 0.6] [--bar 0.2] [--play 0.3]

`gen` plays hands of `hard` against itself and, at every start of a turn where a drop is
legal and the count is at most 25, keeps what the seat saw and what it could not: the
exact payment of dropping there (the engine's `settle_drop` on the real counts), the
value of playing on instead (the same position played to the end twice by fresh `hard`
players, the drop refused at this turn), hard's choice, hard's look-ahead value of
playing on, and the mean drop payment over 128 deals drawn by hard's opponent model
with its lean scaled by each of 0.5, 0.6, 0.7 and 1 (`Estimate(..., lean=...)`).

`calib` says how well each lean predicts whether the drop wins (log loss, and predicted
against actual by tenths). `rules` replays the rule "drop when the mean drop payment at
lean L beats BAR + PLAY x hard's value of playing on" seat-hand by seat-hand: at the
first position where the rule drops and hard did not, the gain is the drop's payment
less the value of playing on; where hard dropped and the rule would not, the reverse.
That is a first-order figure (after a departure the rest of the hand is hard's), per
seat-hand; counting every position instead of the first one overstates a drop rule.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, Rules  # noqa: E402
from engine.actions import DRAW, DROP, TAKE  # noqa: E402
from engine.cards import count  # noqa: E402
from engine.outcome import settle_drop  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.players.hard import Estimate, HardPlayer, utility  # noqa: E402
from engine.players.memory import Memory  # noqa: E402

LEANS = (0.5, 0.6, 0.7, 1.0)


def play_on(game: Game, seat: int, first, seed: int) -> float:
    copy = Game.from_json(game.to_json())
    bots = [make_player("hard", seed * 7 + s) for s in range(len(copy.hands))]
    copy.apply(seat, first)
    while copy.outcome is None:
        s = copy.to_act
        copy.apply(s, bots[s].choose(copy.view(s)))
    return utility(copy.outcome, seat, "stakes", 1)


def features(view, seat_player: HardPlayer, alt) -> dict:
    memory = Memory(view)
    estimate = Estimate(seat_player, view, memory)
    out = {"play": estimate.values(take=alt == TAKE, stock_out_now=False).get("play", 0.0)}
    for lean in LEANS:
        deals = Estimate(seat_player, view, memory, lean=lean).sample_hands(128)
        pays = [utility(settle_drop(view.rules, view.seat, [count(h) for h in hands], view.dealer, 1),
                        view.seat, "stakes", 1) for hands, _ in deals]
        out[lean] = sum(pays) / len(pays)
        out[f"win{lean}"] = sum(1 for p in pays if p > 0) / len(pays)
    return out


def cmd_gen(args) -> int:
    rules = Rules.preset(args.preset)
    rows = []
    for i in range(args.hands):
        game = Game.deal(rules, args.players, i % args.players, rng=random.Random(f"{args.seed}|{i}"))
        bots = [make_player("hard", args.seed * 1000 + i * 8 + s) for s in range(args.players)]
        while game.outcome is None:
            seat = game.to_act
            view = game.view(seat)
            action = bots[seat].choose(view)
            if view.phase == "start" and DROP in view.legal_actions and view.count <= 25:
                alt = action
                if action == DROP:  # what hard does when it does not drop
                    h = make_player("hard", 5)
                    take, draw = h.draw_scores(view, Memory(view)) if TAKE in view.legal_actions else (None, 0)
                    alt = TAKE if take is not None and take < draw - 0.5 else DRAW
                drop = utility(settle_drop(rules, seat, game.counts(), game.dealer, 1), seat, "stakes", 1)
                on = [play_on(game, seat, alt, args.seed * 100_000 + i * 50 + len(rows) * 3 + k) for k in range(2)]
                row = {"hand": i, "seat": seat, "hard_drops": action == DROP, "drop": drop, "on": sum(on) / 2,
                       "wins": all(game.counts()[seat] < c for j, c in enumerate(game.counts()) if j != seat),
                       "count": view.count}
                row.update(features(view, HardPlayer(len(rows)), alt))
                rows.append(row)
            game.apply(seat, action)
    Path(args.file).write_bytes(pickle.dumps({"players": args.players, "preset": args.preset, "rows": rows}))
    print(f"{len(rows)} positions from {args.hands} hands")
    return 0


def load(name: str) -> list[dict]:
    return pickle.loads(Path(name).read_bytes())["rows"]


def cmd_calib(args) -> int:
    rows = load(args.file)
    for lean in [float(x) for x in args.leans.split(",")]:
        loss = 0.0
        bins = [[0, 0.0, 0] for _ in range(10)]
        for r in rows:
            p = min(max(r[f"win{lean}"], 0.01), 0.99)
            loss -= math.log(p if r["wins"] else 1 - p)
            b = bins[min(int(r[f"win{lean}"] * 10), 9)]
            b[0] += 1
            b[1] += r[f"win{lean}"]
            b[2] += r["wins"]
        table = " ".join(f"{b[1] / b[0]:.2f}/{b[2] / b[0]:.2f}" for b in bins if b[0])
        print(f"lean {lean}: log loss {loss / len(rows):.4f}; predicted/actual win by tenths: {table}")
    return 0


def replay(rows: list[dict], rule) -> tuple[float, float, int]:
    """First-order gain over hard per seat-hand of a drop rule (`rule(row)`: drop there?):
    at the first position where the rule drops and hard did not, the drop's payment less
    the value of playing on; where hard dropped and the rule would not, the reverse.
    (mean, half its 95% interval, seat-hands)."""
    hands: dict = {}
    for r in rows:
        hands.setdefault((r["hand"], r["seat"]), []).append(r)
    gains = []
    for seq in hands.values():
        g = 0.0
        for r in seq:
            drops = rule(r)
            if drops and not r["hard_drops"]:
                g = r["drop"] - r["on"]
                break
            if r["hard_drops"]:
                g = 0.0 if drops else r["on"] - r["drop"]
                break
        gains.append(g)
    n = len(gains)
    mean = sum(gains) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in gains) / (n - 1) / n)
    return mean, half, n


def cmd_rules(args) -> int:
    for name in args.file:
        mean, half, n = replay(load(name), lambda r: r[args.lean] > args.bar + args.play * max(r["play"], 0.0))
        print(f"{name}: {n} seat-hands with a drop decision; gain over hard {mean:+.3f} "
              f"[{mean - half:+.3f}, {mean + half:+.3f}] stakes per seat-hand")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen")
    gen.add_argument("file")
    gen.add_argument("--players", type=int, default=2)
    gen.add_argument("--hands", type=int, default=1500)
    gen.add_argument("--seed", type=int, default=21)
    gen.add_argument("--preset", default="standard")
    gen.set_defaults(run=cmd_gen)
    calib = sub.add_parser("calib")
    calib.add_argument("file")
    calib.add_argument("--leans", default="0.5,0.6,0.7,1.0")
    calib.set_defaults(run=cmd_calib)
    rules = sub.add_parser("rules")
    rules.add_argument("file", nargs="+")
    rules.add_argument("--lean", type=float, default=0.6, choices=LEANS)
    rules.add_argument("--bar", type=float, default=0.2)
    rules.add_argument("--play", type=float, default=0.3)
    rules.set_defaults(run=cmd_rules)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
