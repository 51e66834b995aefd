"""Write sample pictures to docs/pictures/: a table mid-hand, a private hand, a showdown.

The pictures come from a seeded hand of computer players, drawn by the same renderer
the bot uses (cogs/pictures.py), from the same inputs it is given (SeatView adapters).

    python scripts/picture_samples.py            # writes docs/pictures/*.png and index.md
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs import pictures  # noqa: E402
from engine import Draw, Game, Rules, Spread  # noqa: E402
from engine.players import make_player  # noqa: E402

NAMES = ["Croaker", "Goblin", "Elmo"]
OUT = ROOT / "docs" / "pictures"


def sample(seed: int):
    """(table, hand, showdown, caption lines) for the first seed whose hand has a spread
    before seat 0 draws, and is played to a showdown; None otherwise."""
    import random

    rng = random.Random(seed)
    game = Game.deal(Rules.preset("standard"), NAMES, 2, rng=rng)
    bots = [make_player("normal", seed=seed * 10 + i) for i in range(3)]
    totals = (3, -1, -2)
    mid = None
    drawn = None
    while game.outcome is None:
        seat = game.turn
        view = game.view(seat)
        action = bots[seat].choose(view)
        before = set(view.hand)
        game.apply(seat, action)
        if seat == 0 and isinstance(action, Draw) and game.outcome is None:
            drawn = next(c for c in game.hands[0] if c not in before)
            if game.spreads and mid is None:
                mine = game.view(0)
                mid = (
                    pictures.table_picture_from_view(mine, totals=totals, title="Tonk · hand 4 · standard"),
                    pictures.hand_picture_from_view(mine, drawn=drawn, title=f"Your hand · you drew {drawn.label}"),
                )
        if isinstance(action, Spread) and seat == 0:
            drawn = None
    if mid is None or game.outcome.kind == "instant":
        return None
    final = tuple(t + p for t, p in zip(totals, game.outcome.payments))
    words = {"drop_won": "a drop that won", "caught": "caught!", "tonk_out": "tonk out", "run_out": "run out",
             "stock_out": "stock out", "draw": "a draw"}
    end = pictures.table_picture_from_view(game.view(0), totals=final,
                                           title=f"Showdown · {words.get(game.outcome.kind, game.outcome.kind)}")
    return mid[0], mid[1], end


def main() -> int:
    for seed in range(1, 500):
        found = sample(seed)
        if found:
            break
    else:  # pragma: no cover - the seeds above always find one
        print("no sample hand found", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    table, hand, showdown = found
    lines = ["# Sample pictures", "",
             f"Made by `python scripts/picture_samples.py` (seed {seed}): a hand of three computer players,",
             "drawn by cogs/pictures.py from the same public inputs the bot gives it.", "",
             "Use: `pictures.warm()` once at start-up; then `render_table(TablePicture(...))` for the",
             "channel message and `render_hand(HandPicture(...))` for a private hand, each returning",
             "`Picture(png, width, height, boxes)` cached per input. The inputs hold only what their",
             "viewer may see (`table_picture_from_view` / `hand_picture_from_view` build them from a",
             "`SeatView`). Timings and sizes: docs/BENCHMARKS.md.", ""]
    for name, picture in (("table", pictures.render_table(table)), ("hand", pictures.render_hand(hand)),
                          ("showdown", pictures.render_table(showdown))):
        (OUT / f"{name}.png").write_bytes(picture.png)
        lines += [f"## {name}", "", f"![{name}]({name}.png)", "",
                  f"{picture.width} x {picture.height} px, {len(picture.png):,} bytes.", ""]
        print(f"{name}: {picture.width}x{picture.height}, {len(picture.png):,} bytes")
    (OUT / "index.md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
