"""Benchmark: time to render the table picture and a private hand picture (PNG bytes).

States come from seeded games of computer players (2 to 6 seats, several presets), a
picture after every action, so the inputs are the ones a live table would render.

    python scripts/bench_pictures.py                # 300 states per kind, seed 1
    python scripts/bench_pictures.py --states 1000 --seed 2
    python scripts/bench_pictures.py --names world  # players named in many scripts, with emoji
    python scripts/bench_pictures.py --names fresh  # names new to every picture, as with 200 tables at once

Figures, each in CPU milliseconds of this process (time.process_time, so other jobs on
a shared machine weigh less than with wall time), p50 / p99 / max:
- first: the very first picture of the run (card art drawn from nothing), then the time
  of `pictures.warm()`, which draws the rest (the bot calls it once at start-up);
- cold: a state not seen before (the picture cache is cleared before each render,
  card art already drawn, as in a running bot);
- cached: the same state again (what an unchanged message costs);
and the PNG sizes (bytes) and image sizes (pixels). There was no renderer before this
one, so there is no baseline commit; the target is 20 ms at p99 per picture.
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs import card_art, pictures  # noqa: E402
from engine import Game, Rules  # noqa: E402
from engine.players import make_player  # noqa: E402

PRESETS = ("standard", "waiting", "seattle", "black company")
WORLD = ("José Ñandú", "Ελένη", "Владимир", "דוד כהן", "محمد علي", "प्रिया शर्मा", "สมชาย", "田中太郎", "王小明",
         "김민준", "Sam 👍🏽", "Zoë 🃏")


def states(count: int, seed: int, world: bool = False):
    """(table picture, hand picture) pairs from seeded games, one per action."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = Rules.preset(rng.choice(PRESETS))
        n = rng.randint(2, min(6, rules.max_players()))
        names = (rng.sample(WORLD, n) if world else [f"Player {i + 1}" for i in range(n)])
        game = Game.deal(rules, names, rng.randrange(n), rng=rng)
        bots = [make_player("easy", seed=rng.randrange(10**6)) for _ in range(n)]
        totals = [0] * n
        drawn = None
        while len(out) < count:
            seat = game.turn
            view = game.view(seat)
            out.append((pictures.table_picture_from_view(view, totals=tuple(totals), title="Tonk · table 1"),
                        pictures.hand_picture_from_view(view, drawn=drawn, title=f"{names[seat]}'s hand")))
            if game.outcome is not None:
                break
            before = set(view.hand)
            game.apply(seat, bots[seat].choose(view))
            after = [c for c in game.hands[seat] if c not in before]
            drawn = after[0] if after else None
    return out


def fresh_names(samples, seed: int):
    """Each state's players renamed with names no other state has ("Member 123456")."""
    rng = random.Random(seed)
    out = []
    for table, hand in samples:
        names = {seat.name: f"Member {rng.randrange(10**6):06d}" for seat in table.seats}
        seats = tuple(replace(seat, name=names[seat.name]) for seat in table.seats)
        spreads = tuple(replace(spread, owner=names.get(spread.owner, spread.owner)) for spread in table.spreads)
        owner = hand.title.removesuffix("'s hand")
        title = f"{names[owner]}'s hand" if owner in names else hand.title
        out.append((replace(table, seats=seats, spreads=spreads), replace(hand, title=title)))
    return out


def timed(render, picture) -> tuple[float, object]:
    start = time.process_time()
    result = render(picture)
    return (time.process_time() - start) * 1000, result


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--names", choices=("latin", "world", "fresh"), default="latin",
                        help="'Player 1'... (the default), names in many scripts and emoji, or names no "
                             "picture before had (200 tables' players outnumber the text stamps kept)")
    args = parser.parse_args()
    samples = states(args.states, args.seed, args.names == "world")
    if args.names == "fresh":
        samples = fresh_names(samples, args.seed)
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}, "
          f"Pillow {pictures.Image.__version__}")
    print(f"{len(samples)} states, seed {args.seed}, {args.names} names; CPU ms per picture")
    print(f"{'picture':<8} {'render':<7} {'p50':>6} {'p99':>6} {'max':>6}   {'PNG bytes p50/max':>18}   pixels")
    card_art.card_image.cache_clear()
    card_art.back_image.cache_clear()
    pictures.clear_cache()
    first, _ = timed(pictures.render_table, samples[0][0])
    warm, _ = timed(lambda _: pictures.warm(), None)
    print(f"first table picture of the run (card art and palette from nothing): {first:.0f} ms; "
          f"then pictures.warm() (the rest of the art): {warm:.0f} ms")
    for kind, render, index in (("table", pictures.render_table, 0), ("hand", pictures.render_hand, 1)):
        cold, cached, sizes, dims = [], [], [], set()
        for sample in samples:
            pictures.clear_cache()
            ms, picture = timed(render, sample[index])
            cold.append(ms)
            cached.append(timed(render, sample[index])[0])
            sizes.append(len(picture.png))
            dims.add((picture.width, picture.height))
        widths = sorted({w for w, _ in dims})
        heights = sorted({h for _, h in dims})
        print(f"{kind:<8} {'cold':<7} {pct(cold, 50):6.1f} {pct(cold, 99):6.1f} {max(cold):6.1f}   "
              f"{statistics.median(sizes):>8,.0f} / {max(sizes):>7,}   "
              f"{widths[0]}-{widths[-1]} x {heights[0]}-{heights[-1]}")
        print(f"{kind:<8} {'cached':<7} {pct(cached, 50):6.3f} {pct(cached, 99):6.3f} {max(cached):6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
