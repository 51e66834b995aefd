"""Inference from the opponents' own decisions (engine/players/infer.py): data, fits, scores.

    python scripts/infer_model.py gen FILE --players 2 --seats hard,hard --preset standard --hands 2000 --seed 61
    python scripts/infer_model.py fit-drops FILE [FILE ...]      # the drop curve (infer.DROP_CURVE)
    python scripts/infer_model.py fit-discards FILE [FILE ...]   # the plain discard model (--model plain): tau, connect, low_feed
    python scripts/infer_model.py calib FILE [FILE ...] --history --prior uniform --tau 3 --blend [--every 16] ...

`gen` plays self-play hands with the given levels (rotated round the table, every deal and
player seeded from --seed and the hand, as scripts/count_model.py does) and keeps:
every start of a turn where a seat could drop (table size, waiting, turns it had played,
its count, whether it dropped); every discard (the hand before it and the card thrown);
and, at every start of a turn of a `hard` seat with a drop legal and a count of 25 or
less, the game (JSON) and that seat, with the real result of a drop there.

`calib` scores "the drop wins" at those positions (from that seat's `SeatView` alone) by
the learned count model (`countmodel`, expert's round-8 drop) and by the inference of
`infer` with the given figures: log loss, Brier score, and predicted against actual by
tenths. Scores are deterministic for a file and figures (each position's particles are
seeded by the position's index).
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, Rules  # noqa: E402
from engine.actions import DROP  # noqa: E402
from engine.game import START  # noqa: E402
from engine.odds import logistic, logit  # noqa: E402
from engine.outcome import settle_drop  # noqa: E402
from engine.players import countmodel as cm  # noqa: E402
from engine.players import infer  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.players.hands import Layout  # noqa: E402
from engine.players.hard import utility  # noqa: E402
from engine.players.memory import Memory  # noqa: E402


def cmd_gen(args) -> int:
    rules = Rules.preset(args.preset)
    levels = [s.strip() for s in args.seats.split(",")]
    n = len(levels)
    drops = []  # (n, waiting, turns before, count, dropped, level)
    discards = []  # (hand before as card codes, thrown, level)
    positions = []
    for i in range(args.hands):
        seat_levels = [levels[(s + i) % n] for s in range(n)]
        game = Game.deal(rules, seat_levels, i % n, rng=random.Random(f"{args.seed}|{i}"))
        bots = [make_player(seat_levels[s], args.seed * 1000 + i * 8 + s) for s in range(n)]
        turns = [0] * n
        while game.outcome is None:
            seat = game.to_act
            view = game.view(seat)
            action = bots[seat].choose(view)
            if view.phase == START:
                if DROP in view.legal_actions:
                    drops.append((n, int(rules.waiting), turns[seat], view.count, action == DROP, seat_levels[seat]))
                    if seat_levels[seat] == "hard" and view.count <= 25:
                        positions.append({
                            "game": game.to_json(), "seat": seat, "hand": i,
                            "drop": utility(settle_drop(rules, seat, game.counts(), game.dealer, 1), seat, "stakes", 1),
                        })
                if action != DROP:
                    turns[seat] += 1
            elif action.verb == "discard":
                discards.append(([str(c) for c in view.hand], str(action.card), seat_levels[seat]))
            game.apply(seat, action)
    settings = {k: v for k, v in vars(args).items() if k != "run"}
    Path(args.file).write_bytes(pickle.dumps({"args": settings, "drops": drops, "discards": discards,
                                              "positions": positions}))
    print(f"{len(drops)} drop chances, {len(discards)} discards, {len(positions)} positions from {args.hands} hands")
    return 0


def load(names) -> dict:
    out: dict = {"drops": [], "discards": [], "positions": [], "rules": []}
    for name in names:
        data = pickle.loads(Path(name).read_bytes())
        for key in ("drops", "discards", "positions"):
            out[key].extend(data[key])
        out["rules"].append(data["args"]["preset"])
    return out


def cmd_fit_drops(args) -> int:
    """Per table size and waiting, per turns played: the count at which a seat drops half
    the time and one logistic width, by maximum likelihood over a grid."""
    data = load(args.files)
    groups: dict = defaultdict(list)
    for n, waiting, t, c, dropped, _ in data["drops"]:
        groups[(n, waiting)].append((min(t, 6), c, dropped))
    for key, rows in sorted(groups.items()):
        best_width, best_loss, best_curve = None, None, None
        for width in (1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0):
            curve, loss = [], 0.0
            for t in range(7):
                sub = [(c, d) for tt, c, d in rows if tt == t]
                best = None
                for thr10 in range(0, 300, 5):
                    thr = thr10 / 10
                    ll = 0.0
                    for c, d in sub:
                        p = 1 / (1 + math.exp(-(thr - c) / width))
                        p = min(max(p, 1e-6), 1 - 1e-6)
                        ll -= math.log(p if d else 1 - p)
                    if best is None or ll < best[0]:
                        best = (ll, thr)
                curve.append(best[1] if sub else (curve[-1] if curve else 20.0))
                loss += best[0] if sub else 0.0
            if best_loss is None or loss < best_loss:
                best_width, best_loss, best_curve = width, loss, curve
        print(f"{key}: {len(rows)} chances, width {best_width}, curve {tuple(best_curve)}, "
              f"log loss {best_loss / len(rows):.4f}")
    return 0


def cmd_fit_discards(args) -> int:
    data = load(args.files)
    rules = Rules.preset("standard")
    layout = Layout.of(rules)
    from engine.cards import Card
    rows = [([Card.parse(c) for c in hand], Card.parse(d)) for hand, d, _ in data["discards"]]
    rows = rows[:: max(1, len(rows) // 20000)]
    best = None
    for tau in (0.75, 1.0, 1.5, 2.0, 3.0):
        for connect in (0.0, 3.0, 6.0, 10.0):
            for low in (0.0, 0.4, 1.0):
                params = infer.Params(tau=tau, connect=connect, low_feed=low)
                ll = -sum(math.log(max(infer.discard_likelihood(layout, hand, d, params), 1e-9)) for hand, d in rows)
                ll /= len(rows)
                if best is None or ll < best[0]:
                    best = (ll, tau, connect, low)
                if args.verbose:
                    print(f"tau {tau} connect {connect} low {low}: {ll:.4f}")
    print(f"{len(rows)} discards; best tau {best[1]} connect {best[2]} low_feed {best[3]}: log loss {best[0]:.4f}")
    return 0


def score(name: str, preds: list[float], truth: list[bool]) -> str:
    loss = brier = 0.0
    bins = [[0, 0.0, 0] for _ in range(10)]
    for p, won in zip(preds, truth):
        q = min(max(p, 0.01), 0.99)
        loss -= math.log(q if won else 1 - q)
        brier += (p - won) ** 2
        b = bins[min(int(p * 10), 9)]
        b[0] += 1
        b[1] += p
        b[2] += won
    k = len(truth)
    table = " ".join(f"{b[1] / b[0]:.2f}/{b[2] / b[0]:.2f}" for b in bins if b[0])
    return f"  {name}: log loss {loss / k:.4f}, Brier {brier / k:.4f}; by tenths {table}"


def cmd_calib(args) -> int:
    params = infer.Params(particles=args.particles, tau=args.tau, connect=args.connect, low_feed=args.low_feed,
                          nodrop=not args.no_nodrop, pass_make=args.pass_make, floor=args.floor, mix=args.mix,
                          prior=args.prior, prior_levels=args.prior_levels, discard=not args.no_discard,
                          model=args.model, combo=args.combo, history=args.history, depth=args.depth)
    for name in args.files:
        data = load([name])
        positions = data["positions"][args.offset:: args.every]
        truth, learned, inferred = [], [], []
        for k, pos in enumerate(positions):
            game = Game.from_json(pos["game"])
            view = game.view(pos["seat"])
            memory = Memory(view)
            truth.append(pos["drop"] > 0)
            learned.append(cm.drop_value(view, memory)[1])
            inferred.append(infer.drop_value(view, memory, random.Random(k), params)[1])
        print(f"{name}: {len(positions)} positions")
        print(score("learned count model (round 8)", learned, truth))
        print(score(f"inference {params_text(params)}", inferred, truth))
        if args.blend:
            for a in (0.25, 0.5, 0.75):
                mixed = [logistic(a * logit(p) + (1 - a) * logit(q)) for p, q in zip(inferred, learned)]
                print(score(f"logit blend {a} inference", mixed, truth))
    return 0


def params_text(p: infer.Params) -> str:
    return " ".join(f"{k}={getattr(p, k)}" for k in p.__slots__)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen")
    gen.add_argument("file")
    gen.add_argument("--players", type=int, default=2)
    gen.add_argument("--seats", default="hard,hard")
    gen.add_argument("--hands", type=int, default=2000)
    gen.add_argument("--seed", type=int, default=61)
    gen.add_argument("--preset", default="standard")
    gen.set_defaults(run=cmd_gen)
    fd = sub.add_parser("fit-drops")
    fd.add_argument("files", nargs="+")
    fd.set_defaults(run=cmd_fit_drops)
    fdi = sub.add_parser("fit-discards")
    fdi.add_argument("files", nargs="+")
    fdi.add_argument("--verbose", action="store_true")
    fdi.set_defaults(run=cmd_fit_discards)
    calib = sub.add_parser("calib")
    calib.add_argument("files", nargs="+")
    calib.add_argument("--every", type=int, default=1, help="score every k-th position")
    calib.add_argument("--offset", type=int, default=0, help="... from this one")
    d = infer.DEFAULT
    calib.add_argument("--particles", type=int, default=d.particles)
    calib.add_argument("--tau", type=float, default=d.tau)
    calib.add_argument("--connect", type=float, default=d.connect)
    calib.add_argument("--low-feed", type=float, default=d.low_feed)
    calib.add_argument("--no-nodrop", action="store_true")
    calib.add_argument("--pass-make", type=float, default=d.pass_make)
    calib.add_argument("--floor", type=float, default=d.floor)
    calib.add_argument("--mix", type=float, default=d.mix)
    calib.add_argument("--blend", action="store_true")
    calib.add_argument("--prior", default=d.prior, choices=("uniform", "model"))
    calib.add_argument("--prior-levels", type=int, default=d.prior_levels)
    calib.add_argument("--no-discard", action="store_true")
    calib.add_argument("--model", default=d.model, choices=("hard", "plain"))
    calib.add_argument("--combo", action="store_true")
    calib.add_argument("--history", action="store_true")
    calib.add_argument("--depth", type=int, default=d.depth)
    calib.set_defaults(run=cmd_calib)
    args = parser.parse_args(argv)
    if args.command == "gen" and len(args.seats.split(",")) != args.players:
        parser.error("--seats names one level per player")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
