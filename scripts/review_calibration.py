"""Are the review's costs calibrated? (issue 26)

Plays seeded self-play hands of noisy hard players (engine/players/noisy.py: hard, with a
mistake at `--noise` of its decisions), reviews seat 0 of each hand with the default
budget (`engine.review.review`), and for every decision where the expert would have
chosen differently measures what the difference really cost, on the hand's REAL hidden
cards (which the review never read):

- **realised, play-out**: from the real position (the real hands and the real stock
  order), the expert's choice and what was done, each played to the end by the same
  play-out the review uses (the seat's plan for its turn, then expert.Rollout for every
  seat); the difference of the seat's payments. This checks the review's sampling of the
  hidden cards: if that is calibrated, decisions priced at X lose X on average here.
- **realised, table**: from the real position, the two choices, then the hand played on
  by the table's own players (noisy hard at every seat, fresh seeds; `--runs` runs with the
  same seeds for both choices); the mean difference. This is "what happens" when the
  hand goes on as it was being played, so it also checks the play-out's stand-in for
  the players.

It prints both against the review's estimate (calibrated: engine/review.py COST_MAP) and
against the raw play-out estimate, by bins, with 95% intervals; `--diag` adds a third
realised column, the hand played on by hard players without mistakes. For the drop /
non-drop decisions it prints the review's chance that someone held the seat's count or
less (calibrated: CHANCE_MAP) and the count model's, against how often someone really did.

    python scripts/review_calibration.py [--hands 400] [--players 2,3] [--noise 0.2] [--runs 4] [--seed 1]
    python scripts/review_calibration.py --hands 800 --seed 2 --diag --dump s2.json   # rows for a fit
    python scripts/review_calibration.py --fit s1.json s2.json s3.json   # COST_MAP and CHANCE_MAP from dumps
    python scripts/review_calibration.py --cv s1.json s2.json s3.json    # each dump against the others' maps
    python scripts/review_calibration.py --counts --hands 300  # the count model's counts against the real ones

The shipped maps were fitted on seeds 1 and 2 (800 hands each) and 3 (600 hands), each
seed checked against the maps of the other two (docs/BENCHMARKS.md); about 0.6-1 s of
CPU a hand.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import count  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.players.expert import ExpertPlayer  # noqa: E402
from engine.players.hard import Estimate, utility  # noqa: E402
from engine.players.memory import Memory  # noqa: E402
from engine.players.noisy import NoisyPlayer, play_record  # noqa: E402
from engine.review import review  # noqa: E402
from engine.rules import Rules  # noqa: E402

COST_BINS = (-math.inf, -0.1, 0.1, 0.3, 0.6, 1.0, 2.0, math.inf)
CHANCE_BINS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0001)


def position(record: dict, index: int) -> Game:
    """The real game just before action `index` (every hidden card in it)."""
    return Game.from_record({**record, "actions": record["actions"][:index]})


def realised_playout(game: Game, seat: int, did, expert, seed: int) -> float:
    view = game.view(seat)
    memory = Memory(view)
    judge = ExpertPlayer(seed, time_cap=float("inf"))
    estimate = Estimate(judge, view, memory)
    hands = [list(h) for h in game.hands]
    stock = list(game.stock)
    mine = judge.play_out(view, memory, estimate, hands, stock, list(did), seed)
    theirs = judge.play_out(view, memory, estimate, hands, stock, list(expert), seed)
    return theirs - mine


def play_on(game: Game, seat: int, actions, seed: int, noise: float) -> float:
    game = game.copy()
    for a in actions:
        if game.outcome is not None or not game.is_legal(seat, a):
            break
        game.apply(seat, a)
    bots = [NoisyPlayer(seed * 16 + i, noise=noise) for i in range(game.num_players)]
    steps = 0
    while game.outcome is None and steps < 5000:
        s = game.to_act
        game.apply(s, bots[s].choose(game.view(s)))
        steps += 1
    return utility(game.outcome, seat, game.rules.scoring, game.stake)


def realised_table(game: Game, seat: int, did, expert, seed: int, runs: int, noise: float) -> float:
    diffs = [play_on(game, seat, expert, seed + r, noise) - play_on(game, seat, did, seed + r, noise)
             for r in range(runs)]
    return sum(diffs) / runs


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def bin_of(x, bins):
    for i in range(len(bins) - 1):
        if bins[i] <= x < bins[i + 1]:
            return i
    return len(bins) - 2


def label(bins, i, pct=False):
    lo, hi = bins[i], bins[i + 1]
    f = (lambda v: f"{round(100 * v)}%") if pct else (lambda v: f"{v:+.1f}")
    if lo == -math.inf:
        return f"below {f(hi)}"
    if hi == math.inf:
        return f"{f(lo)} and up"
    return f"{f(lo)} to {f(min(hi, 1.0) if pct else hi)}"


def collect(args) -> tuple[list[dict], list[dict], dict]:
    """Play, review and measure: one row per difference, one per drop / non-drop decision."""
    rules = Rules.preset(args.preset)
    sizes = [int(x) for x in args.players.split(",")]
    started = time.process_time()
    rows = []
    chances = []
    decisions = same = 0
    for i in range(args.hands):
        n = sizes[i % len(sizes)]
        seed = args.seed * 1_000_000 + i
        record = play_record(rules, n, seed, noise=args.noise)
        rv = review(record, 0, seed=seed)
        for d in rv.decisions:
            decisions += 1
            if d.low_chance is not None:
                game = position(record, d.index)
                mine = count(game.hands[0])
                happened = any(count(h) <= mine for j, h in enumerate(game.hands) if j != 0)
                chances.append({"hand": i, "players": n, "chance": d.low_chance, "raw": d.raw_chance,
                                "happened": happened, "count": mine})
            if d.same:
                same += 1
                continue
            game = position(record, d.index)
            row = {"hand": i, "players": n, "kind": d.kind, "cost": d.cost, "error": d.error,
                   "raw": d.raw_cost, "raw_error": d.raw_error, "verb": d.did[0].verb,
                   "playout": realised_playout(game, 0, d.did, d.expert, seed + d.index),
                   "table": realised_table(game, 0, d.did, d.expert, seed * 31 + d.index, args.runs, args.noise)}
            if args.diag:  # the same, the hand played on by hard players without mistakes
                row["hard"] = realised_table(game, 0, d.did, d.expert, seed * 37 + d.index, args.runs, 0.0)
            rows.append(row)
        if (i + 1) % 50 == 0:
            print(f"{i + 1} hands, {len(rows)} differences, CPU {time.process_time() - started:.0f} s",
                  file=sys.stderr, flush=True)
    meta = {"hands": args.hands, "players": sizes, "preset": args.preset, "noise": args.noise, "runs": args.runs,
            "seed": args.seed, "decisions": decisions, "same": same, "cpu": time.process_time() - started}
    return rows, chances, meta


def cost_table(rows: list[dict], key: str, diag: bool) -> None:
    cols = ["realised, play-out", "realised, table"] + (["realised, hard table"] if diag else [])
    print(f"| estimated cost (stakes) | differences | mean estimate | mean std. error | mean raw estimate | "
          + " | ".join(cols) + " |")
    print("|---" * (5 + len(cols)) + "|")
    fields = ["playout", "table"] + (["hard"] if diag else [])

    def line(name, g):
        est = sum(r[key] for r in g) / len(g)
        se = sum(r["error" if key == "cost" else "raw_error"] for r in g) / len(g)
        raw = sum(r["raw"] for r in g) / len(g)
        cells = []
        for f in fields:
            m, c = mean_ci([r[f] for r in g])
            cells.append(f"{m:+.3f} ± {c:.3f}")
        return f"| {name} | {len(g):,} | {est:+.3f} | {se:.3f} | {raw:+.3f} | " + " | ".join(cells) + " |"

    groups = {}
    for r in rows:
        groups.setdefault(bin_of(r[key], COST_BINS), []).append(r)
    for b in sorted(groups):
        print(line(label(COST_BINS, b), groups[b]))
    print(line("all", rows))
    for kind in ("start", "play"):
        g = [r for r in rows if r["kind"] == kind]
        if g:
            print(line(f"all {kind} decisions", g))


def chance_table(chances: list[dict], key: str) -> None:
    print("| chance someone held your count or less | decisions | mean predicted | how often someone did |")
    print("|---|---|---|---|")
    groups = {}
    for c in chances:
        groups.setdefault(bin_of(c[key], CHANCE_BINS), []).append(c)
    for b in sorted(groups):
        g = groups[b]
        pred = sum(c[key] for c in g) / len(g)
        freq = sum(1 for c in g if c["happened"]) / len(g)
        ci = 1.96 * math.sqrt(max(freq * (1 - freq), 1e-9) / len(g))
        print(f"| {label(CHANCE_BINS, b, pct=True)} | {len(g):,} | {pred:.1%} | {freq:.1%} ± {ci:.1%} |")


def fit_cost(rows: list[dict]) -> tuple[float, float]:
    """Least squares of the realised table cost on the raw (play-out) estimate: (a, b).
    Differences that paid the same on every sampled deal (standard error 0: two equal
    cards, say) are left out: the review keeps those at their estimate."""
    rows = [r for r in rows if r["raw_error"] > 0]
    xs = [r["raw"] for r in rows]
    ys = [r["table"] for r in rows]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def fit_chance(chances: list[dict]) -> tuple[float, float, float]:
    """Logistic recalibration (Platt, with the table size): logit P = a + b logit(raw) + c x
    (1 at 3 or more players, else 0), by Newton's method on the log loss."""
    from engine.odds import logistic, logit

    xs = [(1.0, logit(c["raw"]), 1.0 if c["players"] >= 3 else 0.0) for c in chances
          if 0.0 < c["raw"] < 1.0]  # a sure 0 or 1 stays as it is
    ys = [1.0 if c["happened"] else 0.0 for c in chances if 0.0 < c["raw"] < 1.0]
    w = [0.0, 1.0, 0.0]
    for _ in range(100):
        g = [0.0] * 3
        h = [[0.0] * 3 for _ in range(3)]
        for x, y in zip(xs, ys):
            p = logistic(sum(wi * xi for wi, xi in zip(w, x)))
            for i in range(3):
                g[i] += (y - p) * x[i]
                for k in range(3):
                    h[i][k] += p * (1 - p) * x[i] * x[k]
        step = _solve(h, g)
        w = [wi + si for wi, si in zip(w, step)]
        if sum(abs(si) for si in step) < 1e-10:
            break
    return tuple(w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination for a small system a x = b."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        for r in range(i + 1, n):
            f = m[r][i] / m[i][i]
            for k in range(i, n + 1):
                m[r][k] -= f * m[i][k]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][k] * x[k] for k in range(i + 1, n))) / m[i][i]
    return x


def count_bias(args) -> None:
    """Why the count model's chances read high: at the reviewed seat's drop-allowed starts,
    each opponent's mean count by the model against its real count, by the turns it had played."""
    from engine.actions import DROP
    from engine.players import countmodel
    from engine.review import decision_points

    rules = Rules.preset(args.preset)
    sizes = [int(x) for x in args.players.split(",")]
    groups: dict[int, list] = {}
    for i in range(args.hands):
        n = sizes[i % len(sizes)]
        record = play_record(rules, n, args.seed * 1_000_000 + i, noise=args.noise)
        for view, _, index, _ in decision_points(record, 0):
            if view.phase != "start" or DROP not in view.legal_actions:
                continue
            memory = Memory(view)
            game = position(record, index)
            for j, p in countmodel.opponent_counts(view, memory).items():
                groups.setdefault(min(memory.turns[j], 6), []).append(
                    (sum(c * q for c, q in enumerate(p)), count(game.hands[j]), sum(p[: view.count + 1]),
                     count(game.hands[j]) <= view.count))
    print(f"{args.hands} hands, noise {args.noise}, seed {args.seed}: each opponent at seat 0's drop-allowed starts")
    print("| opponent's turns played | opponents | mean count, model | mean count, real | "
          "P(count <= seat's), model | how often |")
    print("|---|---|---|---|---|---|")
    for k in sorted(groups):
        g = groups[k]
        cells = [sum(r[i] for r in g) / len(g) for i in range(4)]
        print(f"| {k}{'+' if k == 6 else ''} | {len(g):,} | {cells[0]:.1f} | {cells[1]:.1f} | {cells[2]:.1%} | "
              f"{cells[3]:.1%} |")


def apply_maps(rows, chances, cost_map, chance_map):
    """The review's calibrated figures for dumped rows, under other maps (as engine/review.py applies them)."""
    from engine.odds import logistic, logit

    out_rows = []
    for r in rows:
        a, b = cost_map[r["kind"]]
        cost, error = (a + b * r["raw"], b * r["raw_error"]) if r["raw_error"] > 0 else (r["raw"], r["raw_error"])
        out_rows.append({**r, "cost": cost, "error": error})
    out_chances = []
    for c in chances:
        p = c["raw"]
        if 0.0 < p < 1.0:
            a, b, k = chance_map
            p = logistic(a + b * logit(p) + (k if c["players"] >= 3 else 0.0))
        out_chances.append({**c, "chance": p})
    return out_rows, out_chances


def cross_validate(paths) -> None:
    dumps = [json.loads(Path(p).read_text()) for p in paths]
    rows, chances = [], []
    for i, held in enumerate(dumps):
        train_rows = [r for j, d in enumerate(dumps) if j != i for r in d["rows"]]
        train_chances = [c for j, d in enumerate(dumps) if j != i for c in d["chances"]]
        cost_map = {k: fit_cost([r for r in train_rows if r["kind"] == k]) for k in ("start", "play")}
        chance_map = fit_chance(train_chances)
        print(f"held out {paths[i]} (seed {held['meta']['seed']}, {held['meta']['hands']} hands): maps fitted on the "
              f"others: start {cost_map['start'][0]:+.3f} + {cost_map['start'][1]:.3f} x, play "
              f"{cost_map['play'][0]:+.3f} + {cost_map['play'][1]:.3f} x; chance {chance_map[0]:+.3f}, "
              f"{chance_map[1]:.3f}, {chance_map[2]:+.3f}")
        r, c = apply_maps(held["rows"], held["chances"], cost_map, chance_map)
        rows += r
        chances += c
    print()
    print(f"Every hand held out ({sum(d['meta']['hands'] for d in dumps):,} hands, {len(rows):,} differences):")
    cost_table(rows, "cost", False)
    print()
    chance_table(chances, "chance")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--players", default="2,3")
    parser.add_argument("--noise", type=float, default=0.2)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--diag", action="store_true", help="also play on with hard players without mistakes")
    parser.add_argument("--dump", help="write the measured rows to this JSON file")
    parser.add_argument("--counts", action="store_true",
                        help="only compare the count model's opponent counts with the real ones (no reviews)")
    parser.add_argument("--cv", nargs="+", metavar="DUMP",
                        help="cross-validate the maps: each dump against maps fitted on the others")
    parser.add_argument("--fit", nargs="+", metavar="DUMP",
                        help="fit the review's calibration (engine/review.py COST_MAP, CHANCE_MAP) from dumps")
    args = parser.parse_args()
    if args.cv:
        cross_validate(args.cv)
        return 0
    if args.fit:
        rows, chances = [], []
        for path in args.fit:
            data = json.loads(Path(path).read_text())
            rows += data["rows"]
            chances += data["chances"]
        for kind in ("start", "play"):
            g = [r for r in rows if r["kind"] == kind and r["raw_error"] > 0]
            a, b = fit_cost(g)
            print(f"cost, {kind} ({len(g)} differences): realised = {a:+.4f} + {b:.4f} x raw")
        a, b, c = fit_chance(chances)
        print(f"chance ({len(chances)} decisions): logit = {a:+.4f} + {b:.4f} x logit(raw) {c:+.4f} x (3+ players)")
        return 0
    if args.counts:
        count_bias(args)
        return 0
    rows, chances, meta = collect(args)
    if args.dump:
        Path(args.dump).write_text(json.dumps({"meta": meta, "rows": rows, "chances": chances}))
    print(f"{meta['hands']} hands ({', '.join(map(str, meta['players']))} players alternating), preset {args.preset}, "
          f"noisy hard at every seat (noise {args.noise}), seat 0 reviewed, seed {args.seed}; "
          f"{meta['decisions']:,} decisions, {meta['same']:,} as the expert would have, {len(rows):,} differences; "
          f"table runs per difference {args.runs}; CPU {meta['cpu']:.0f} s")
    print()
    print("Costs, binned by the review's estimate (calibrated):")
    cost_table(rows, "cost", args.diag)
    print()
    print("Costs, binned by the raw play-out estimate (before calibration):")
    cost_table(rows, "raw", args.diag)
    print()
    print("Drop chances, the review's (calibrated):")
    chance_table(chances, "chance")
    print()
    print("Drop chances, the count model's (raw):")
    chance_table(chances, "raw")
    return 0


if __name__ == "__main__":
    sys.exit(main())
