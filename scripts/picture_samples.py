"""Write sample pictures to docs/pictures/: a table mid-hand, a private hand, a showdown,
an international table of six and its showdown, each also as a phone shows it (320 px wide).

The pictures come from seeded hands of computer players, drawn by the same renderer
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
WORLD = ["田中さくら", "陳美玲", "김민준", "محمد علي (Mo)", "प्रिया शर्मा", "Zoë 🃏 Ærø"]
"""Japanese, Chinese and Korean names, each in its region's glyph forms (kana: JP; traditional
Han: TC; hangul: KR), an Arabic name with Latin in brackets (laid out right to left by the bidi
algorithm, the brackets mirrored), Devanagari, and Latin with an emoji."""
OUT = ROOT / "docs" / "pictures"
PHONE = 320


def sample(seed: int, names=NAMES):
    """(table, hand, showdown, caption lines) for the first seed whose hand has a spread
    before seat 0 draws, and is played to a showdown; None otherwise."""
    import random

    rng = random.Random(seed)
    n = len(names)
    game = Game.deal(Rules.preset("standard"), names, n - 1, rng=rng)
    bots = [make_player("normal", seed=seed * 10 + i) for i in range(n)]
    totals = (3, -1, -2, 4, 0, -4)[:n - 1] + (-sum((3, -1, -2, 4, 0, -4)[:n - 1]),)
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
    if mid is None or game.outcome.kind in ("instant", "void"):
        return None
    final = tuple(t + p for t, p in zip(totals, game.outcome.payments))
    words = {"drop_won": "a drop that won", "caught": "caught!", "tonk_out": "tonk out", "run_out": "run out",
             "stock_out": "stock out", "draw": "a draw"}
    end = pictures.table_picture_from_view(game.view(0), totals=final,
                                           title=f"Showdown · {words.get(game.outcome.kind, game.outcome.kind)}")
    return mid[0], mid[1], end


def phone(png: bytes) -> bytes:
    """The picture as a phone shows it: scaled to 320 px wide (Discord does not enlarge one)."""
    import io

    image = pictures.Image.open(io.BytesIO(png)).convert("RGB")
    k = min(1.0, PHONE / image.width)
    out = io.BytesIO()
    small = image.resize((round(image.width * k), round(image.height * k)), pictures.Image.Resampling.LANCZOS)
    small.quantize(256, method=pictures.Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


def first(names, seeds=range(1, 500)):
    for seed in seeds:
        found = sample(seed, names)
        if found:
            return seed, found
    raise SystemExit("no sample hand found")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    seed, (table, hand, showdown) = first(NAMES)
    world_seed, (world_table, _, world_showdown) = first(WORLD)
    lines = ["# Sample pictures", "",
             f"Made by `python scripts/picture_samples.py`: a hand of three computer players (seed {seed}),",
             f"and one of six with names in several scripts (seed {world_seed}: Japanese, Chinese and Korean",
             "names each in its own region's glyph forms, an Arabic name with Latin in brackets laid out",
             "right to left), drawn by cogs/pictures.py",
             "from the same public inputs the bot gives it. Each is shown as sent (400 px wide at most) and",
             "as a phone shows it (scaled to 320 px wide: every text and card index stays over 10 px tall;",
             "tests/test_pictures_phone.py checks it). Under each, its description (the attachment's alt",
             "text, read by screen readers).", "",
             "Use: `pictures.warm()` once at start-up (it loads the fonts, cogs/fonts.py, and logs any that",
             "are missing); then `render_table(TablePicture(...))` for the channel message and",
             "`render_hand(HandPicture(...))` for a private hand, each returning",
             "`Picture(png, width, height, boxes, texts, alt)` cached per input. The inputs hold only what",
             "their viewer may see (`table_picture_from_view` / `hand_picture_from_view` build them from a",
             "`SeatView`). Timings and sizes: docs/BENCHMARKS.md.", ""]
    for name, picture in (("table", pictures.render_table(table)), ("hand", pictures.render_hand(hand)),
                          ("showdown", pictures.render_table(showdown)),
                          ("international_table", pictures.render_table(world_table)),
                          ("showdown6", pictures.render_table(world_showdown))):
        (OUT / f"{name}.png").write_bytes(picture.png)
        (OUT / f"{name}_phone.png").write_bytes(phone(picture.png))
        pictured = f"![{name}]({name}.png) ![{name} at phone width]({name}_phone.png)"
        lines += [f"## {name.replace('_', ' ')}", "", pictured,
                  "", f"{picture.width} x {picture.height} px, {len(picture.png):,} bytes.", "",
                  f"> {picture.alt}", ""]
        print(f"{name}: {picture.width}x{picture.height}, {len(picture.png):,} bytes")
    (OUT / "index.md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
