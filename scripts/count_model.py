"""Learn expert's model of the opponents' hidden counts (engine/players/count_model.json).

    python scripts/count_model.py gen FILE --players 2 --seats hard,hard --preset standard --hands 6000 --seed 31
    python scripts/count_model.py gen FILE ... --play-on        # also the real value of playing on (slow)
    python scripts/count_model.py fit FILE [FILE ...] [--out engine/players/count_model.json] [--min 100]
    python scripts/count_model.py calib FILE [FILE ...] [--model engine/players/count_model.json]
    python scripts/count_model.py rules FILE [FILE ...] [--bars 0,0.2] [--plays 0,0.3]

`gen` plays self-play hands with the given levels (rotated round the table hand by hand;
every deal and player seeded from --seed and the hand) and, at every start of a turn,
records for each opponent of the seat to act the public features the model is keyed by
(`engine.players.countmodel.features`, from that seat's `SeatView` alone) and the real
sum of that opponent's hidden cards. At positions where a hard seat may drop with a count
of 25 or less it also keeps what the drop calibration needs: the real outcome of a drop
there, and the chance of a won drop and mean drop payment by hard's model with its lean
scaled by 0.6 (expert's round-7 model), over 64 deals.

`fit` tabulates the hidden sums by key at every level of `countmodel.LEVELS` (keys seen
fewer than --min times are left out: the coarser key stands for them) and writes the JSON.
`calib` scores models of "the drop wins" on held-out positions (log loss; predicted
against actual by tenths): the learned model with and without the unknown cards' weight,
and the lean-0.6 deals.

The shipped table was made by (each gen a separate process; seeds differ by file):

    python scripts/count_model.py gen d2_standard.pkl --players 2 --seats hard,hard --preset standard --hands 10000 --seed 31
    python scripts/count_model.py gen d2_waiting.pkl --players 2 --seats hard,hard --preset waiting --hands 10000 --seed 33
    python scripts/count_model.py gen d3_standard.pkl --players 3 --seats hard,hard,normal --hands 6000 --seed 32
    python scripts/count_model.py gen d3_waiting.pkl --players 3 --seats hard,hard,normal --preset waiting ... --seed 34
    python scripts/count_model.py fit d2_*.pkl d3_*.pkl --min 100

and scored on held-out hands (`gen` of 2,000 hands with seeds 41, 42 and 44; `calib`) and
on replays (`gen --play-on`: 2,500 hands at 2 players, seed 51; 1,200 at 3, seed 52; `rules`);
the figures are in docs/BENCHMARKS.md (round 8). `rules` replays "drop when the drop value
beats BAR + PLAY x hard's play value" over --play-on positions for each drop value (the
lean deals, the learned model with and without the unknown cards), as scripts/drop_study.py
does (first order, per seat-hand).
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import Game, Rules  # noqa: E402
from engine.actions import DRAW, DROP, TAKE  # noqa: E402
from engine.cards import count  # noqa: E402
from engine.game import START  # noqa: E402
from engine.outcome import settle_drop  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.players import countmodel as cm  # noqa: E402
from engine.players.hard import Estimate, HardPlayer, utility  # noqa: E402
from engine.players.memory import Memory  # noqa: E402
from drop_study import replay  # noqa: E402  (scripts/: the first-order replay of a drop rule)


def cmd_gen(args) -> int:
    rules = Rules.preset(args.preset)
    levels = [s.strip() for s in args.seats.split(",")]
    n = len(levels)
    records = []  # (features, hidden sum)
    positions = []
    scratch = HardPlayer(args.seed)
    for i in range(args.hands):
        seat_levels = [levels[(s + i) % n] for s in range(n)]
        game = Game.deal(rules, seat_levels, i % n, rng=random.Random(f"{args.seed}|{i}"))
        bots = [make_player(seat_levels[s], args.seed * 1000 + i * 8 + s) for s in range(n)]
        while game.outcome is None:
            seat = game.to_act
            view = game.view(seat)
            if view.phase == START:
                memory = Memory(view)
                opps = []
                for j in memory.others():
                    hidden = count(game.hands[j]) - sum(c.value for c in memory.held[j])
                    feats = cm.features(view, memory, j)
                    records.append((feats, hidden))
                    opps.append((feats, sum(c.value for c in memory.held[j]), count(game.hands[j])))
                if seat_levels[seat] == "hard" and DROP in view.legal_actions and view.count <= 25:
                    est = Estimate(scratch, view, memory, lean=0.6)
                    pays = [utility(settle_drop(rules, seat, [count(h) for h in hands], view.dealer, 1), seat,
                                    "stakes", 1) for hands, _ in est.sample_hands(64)]
                    extra = {}
                    if args.play_on:
                        extra = play_on_figures(game, view, memory, seat_levels, scratch, args.seed * 100_000 + i * 50
                                                + len(positions) * 3)
                    positions.append({**extra,
                        "hand": i, "seat": seat, "d": view.count, "n": n, "opps": opps,
                        "pool": cm.pool_values(memory.unknown),
                        "drop": utility(settle_drop(rules, seat, game.counts(), game.dealer, 1), seat, "stakes", 1),
                        "lean_drop": sum(pays) / len(pays),
                        "lean_win": sum(1 for p in pays if p > 0) / len(pays),
                    })
            game.apply(seat, bots[seat].choose(view))
    settings = {k: v for k, v in vars(args).items() if k != "run"}
    Path(args.file).write_bytes(pickle.dumps({"args": settings, "records": records, "positions": positions}))
    print(f"{len(records)} opponent records, {len(positions)} drop positions from {args.hands} hands")
    return 0


def play_on_figures(game, view, memory, seat_levels, scratch, seed: int) -> dict:
    """hard's choice here, hard's look-ahead value of playing on, and the real value of
    playing on (the position played to the end twice by fresh players of the table's levels, this seat
    drawing or taking as hard would when it does not drop)."""
    probe = make_player("hard", seed)
    choice = probe.choose(view)
    take, draw = probe.draw_scores(view, memory) if TAKE in view.legal_actions else (None, 0)
    alt = TAKE if take is not None and take < draw - 0.5 else DRAW
    values = Estimate(scratch, view, memory).values(take=alt == TAKE, stock_out_now=False)
    on = []
    for k in range(2):
        copy = Game.from_json(game.to_json())
        bots = [make_player(seat_levels[s], seed * 7 + k * 11 + s) for s in range(len(copy.hands))]
        copy.apply(view.seat, alt)
        while copy.outcome is None:
            s = copy.to_act
            copy.apply(s, bots[s].choose(copy.view(s)))
        on.append(utility(copy.outcome, view.seat, "stakes", 1))
    return {"hard_drops": choice == DROP, "play": values.get("play", 0.0), "on": sum(on) / 2}


def load(names) -> tuple[list, list]:
    records, positions = [], []
    for name in names:
        data = pickle.loads(Path(name).read_bytes())
        records.extend(data["records"])
        positions.extend(data["positions"])
    return records, positions


def fit(records, minimum: int) -> dict:
    tables: dict = defaultdict(lambda: [0] * (cm.MAX_SUM + 1))
    for feats, hidden in records:
        for level in range(len(cm.LEVELS)):
            tables[f"{level}:{cm.key_of(feats, level)}"][min(hidden, cm.MAX_SUM)] += 1
    return {k: v for k, v in tables.items() if sum(v) >= minimum or k.startswith("0:")}


def cmd_fit(args) -> int:
    records, _ = load(args.files)
    tables = fit(records, args.min)
    sparse = {k: [[s, c] for s, c in enumerate(v) if c] for k, v in sorted(tables.items())}
    data = {"about": "Hidden-count histograms by opponent features (engine/players/countmodel.py); "
                     "made by scripts/count_model.py fit", "smooth": cm.SMOOTH, "records": len(records),
            "tables": sparse}
    Path(args.out).write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len(records)} records, {len(tables)} keys -> {args.out} ({Path(args.out).stat().st_size} bytes)")
    return 0


def win_from(model_, pos, use_pool: bool) -> tuple[float, float]:
    d = pos["d"]
    win, caught = 1.0, 0.0
    for feats, known, _ in pos["opps"]:
        p = [0.0] * known + cm.posterior(model_, feats, pos["pool"], use_pool)
        low = sum(p[: d + 1])
        win *= 1.0 - low
        caught += low
    return (pos["n"] - 1) * win - 2.0 * caught, win


def report(name: str, preds, positions) -> None:
    loss = 0.0
    bins = [[0, 0.0, 0] for _ in range(10)]
    err = 0.0
    for (value, p), pos in zip(preds, positions):
        wins = pos["drop"] > 0
        q = min(max(p, 0.01), 0.99)
        loss -= math.log(q if wins else 1 - q)
        b = bins[min(int(p * 10), 9)]
        b[0] += 1
        b[1] += p
        b[2] += wins
        err += (value - pos["drop"]) ** 2
    k = len(positions)
    table = " ".join(f"{b[1] / b[0]:.2f}/{b[2] / b[0]:.2f}" for b in bins if b[0])
    print(f"  {name}: log loss {loss / k:.4f}, drop payment rmse {math.sqrt(err / k):.3f}; by tenths {table}")


def cmd_calib(args) -> int:
    model_ = cm.CountModel.load(Path(args.model))
    if args.smooth is not None:
        model_.smooth = args.smooth
    for name in args.files:
        _, positions = load([name])
        print(f"{name}: {len(positions)} positions")
        report("lean 0.6 deals", [(p["lean_drop"], p["lean_win"]) for p in positions], positions)
        report("learned", [win_from(model_, p, False) for p in positions], positions)
        report("learned + unknown cards", [win_from(model_, p, True) for p in positions], positions)
    return 0


def cmd_rules(args) -> int:
    model_ = cm.CountModel.load(Path(args.model))
    for name in args.files:
        _, positions = load([name])
        positions = [p for p in positions if "on" in p]
        for p in positions:
            p["learned"] = win_from(model_, p, True)[0]
            p["learned_np"] = win_from(model_, p, False)[0]
        print(f"{name}: {len(positions)} positions with play-on values")
        for label, key in (("lean 0.6", "lean_drop"), ("learned + unknown", "learned"), ("learned", "learned_np")):
            cells = []
            for bar in [float(x) for x in args.bars.split(",")]:
                for play in [float(x) for x in args.plays.split(",")]:
                    mean, half, k = replay(positions, lambda p: p[key] > bar + play * max(p["play"], 0.0))
                    cells.append(f"{bar:g}+{play:g}p {mean:+.3f}")
            print(f"  {label} ({k} seat-hands, +-{half:.3f}): " + "  ".join(cells))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("gen")
    gen.add_argument("file")
    gen.add_argument("--players", type=int, default=2)
    gen.add_argument("--seats", default="hard,hard")
    gen.add_argument("--hands", type=int, default=2000)
    gen.add_argument("--seed", type=int, default=31)
    gen.add_argument("--preset", default="standard")
    gen.add_argument("--play-on", action="store_true", help="also the real value of playing on (slow)")
    gen.set_defaults(run=cmd_gen)
    fit_ = sub.add_parser("fit")
    fit_.add_argument("files", nargs="+")
    fit_.add_argument("--out", default=str(cm.FILE))
    fit_.add_argument("--min", type=int, default=100)
    fit_.set_defaults(run=cmd_fit)
    calib = sub.add_parser("calib")
    calib.add_argument("files", nargs="+")
    calib.add_argument("--model", default=str(cm.FILE))
    calib.add_argument("--smooth", type=float)
    calib.set_defaults(run=cmd_calib)
    rules = sub.add_parser("rules")
    rules.add_argument("files", nargs="+")
    rules.add_argument("--model", default=str(cm.FILE))
    rules.add_argument("--bars", default="0,0.1,0.2,0.3,0.4,0.6")
    rules.add_argument("--plays", default="0,0.3,0.6")
    rules.set_defaults(run=cmd_rules)
    args = parser.parse_args(argv)
    if args.command == "gen" and len(args.seats.split(",")) != args.players:
        parser.error("--seats names one level per player")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
