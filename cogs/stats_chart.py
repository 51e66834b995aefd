"""A player's running balance as a PNG, drawn with Pillow.

Pillow rather than matplotlib: at the same size and the same elements (title
with the server's name, axis labels and ticks, grid, zero line, a legend, one
line per season or opponent) it draws a chart in a few milliseconds where
matplotlib's Agg backend needed hundreds on this machine (scripts/bench_stats.py
measures both; docs/BENCHMARKS.md has the figures). Lines are drawn at twice
the size and scaled down, which smooths them as anti-aliasing would. Text goes
through cogs/fonts.py's chain of fonts, so a player's or a server's name in any
script (or with an emoji) is drawn as written.

The look lives here; the lines come from ``bot.stats``.
"""

from __future__ import annotations

import io
import math
import time

from PIL import Image, ImageDraw

import i18n
from bot.metrics import METRICS
from bot.stats import ChartData
from engine.text import Text, t

from cogs import fonts

WIDTH, HEIGHT = 400, 300
"""Small enough that a phone, which shows a picture about 320 px wide, scales it by four fifths
only: every text (18 px and more, capitals 13 px) stays over 10 px tall there."""
SCALE = 2
"""Drawn at twice the size, then scaled down: smooth lines."""
BACKGROUND = (43, 45, 49)
"""Discord's dark theme, so the picture sits in the embed without a white box."""
FOREGROUND = (219, 222, 225)
GRID = (78, 80, 88)
COLOURS = ((87, 242, 135), (88, 101, 242), (254, 231, 92), (235, 69, 158), (237, 66, 69), (59, 165, 93),
           (250, 166, 26), (155, 132, 238))
SMALL, NORMAL, LARGE = 18, 18, 20
"""Font sizes (final pixels): tick labels, legend and axis labels, the title."""
LEFT, RIGHT, TOP, BOTTOM = 72, 18, 40, 60
"""The plot's margins, in final pixels."""


def _text(image: Image.Image, xy, text: str, size: int, fill, anchor: str = "la") -> int:
    """Draw `text` (every script, through the font chain) placed as Pillow places text for
    `anchor` (left/middle/right; top/middle/baseline); returns its width."""
    width = fonts.text_length(text, size)
    m = fonts.metrics(size)
    x = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    baseline = xy[1] + {"a": m.ascent, "t": m.ascent, "m": (m.ascent - m.descent) / 2, "s": 0,
                        "d": -m.descent}[anchor[1]]
    fonts.draw(image, round(x), round(baseline), text, size, fill)
    return width


def nice_ticks(low: float, high: float, *, count: int = 5, integer: bool = False) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering low..high."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, round(step))
    first, last = math.floor(low / step), math.ceil(high / step)
    return [n * step for n in range(first, last + 1)]


def _words(text, lang: i18n.Lang) -> str:
    return lang.render(text) if isinstance(text, Text) else str(text)


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def balance_png(chart: ChartData, *, server: str, lang: i18n.Lang = i18n.ENGLISH) -> bytes:
    """The chart as PNG bytes, titled with the player and the server's name, in `lang`."""
    started = time.perf_counter()
    png = _balance_png(chart, server=server, lang=lang)
    METRICS.picture("chart", time.perf_counter() - started)
    return png


def _balance_png(chart: ChartData, *, server: str, lang: i18n.Lang) -> bytes:
    s = SCALE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = LEFT * s, (WIDTH - RIGHT) * s, TOP * s, (HEIGHT - BOTTOM) * s

    xs = [x for line in chart.lines for x in line.hands] or [1]
    ys = [y for line in chart.lines for y in line.values] + [0.0]
    x_ticks = nice_ticks(min(xs), max(xs), count=5, integer=True)
    y_ticks = nice_ticks(min(ys), max(ys), count=5)
    x_low, x_high = x_ticks[0], max(x_ticks[-1], x_ticks[0] + 1)
    y_low, y_high = y_ticks[0], max(y_ticks[-1], y_ticks[0] + 1)

    def point(x: float, y: float) -> tuple[float, float]:
        return (left + (x - x_low) / (x_high - x_low) * (right - left),
                bottom - (y - y_low) / (y_high - y_low) * (bottom - top))

    small, normal, large = SMALL * s, NORMAL * s, LARGE * s
    for value in y_ticks:
        _, y = point(x_low, value)
        draw.line([(left, y), (right, y)], fill=GRID, width=s if value else 2 * s)
        _text(image, (left - 6 * s, y), _label(value), small, FOREGROUND, "rm")
    for value in x_ticks:
        x, _ = point(value, y_low)
        draw.line([(x, bottom), (x, bottom + 5 * s)], fill=GRID, width=s)
        _text(image, (x, bottom + 6 * s), _label(value), small, FOREGROUND, "mt")
    draw.rectangle([left, top, right, bottom], outline=GRID, width=s)

    for index, line in enumerate(chart.lines):
        colour = COLOURS[index % len(COLOURS)]
        points = [point(x, y) for x, y in zip(line.hands, line.values, strict=True)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * s, joint="curve")
        for x, y in points if len(points) == 1 else ():
            draw.ellipse([x - 4 * s, y - 4 * s, x + 4 * s, y + 4 * s], fill=colour)
    # the legend, top left inside the plot, on a box of its own
    room = (right - left) * 2 // 3 - 30 * s  # a legend label's room: two thirds of the plot at most
    labels = [fonts.shorten(_words(line.label, lang), normal, room) for line in chart.lines]
    if chart.lines:
        widest = max(fonts.text_length(label, normal) for label in labels)
        draw.rectangle([left + 4 * s, top + 4 * s, left + 36 * s + widest, top + (10 + 24 * len(labels)) * s],
                       fill=BACKGROUND, outline=GRID, width=s)
    for index, label in enumerate(labels):
        colour = COLOURS[index % len(COLOURS)]
        key_y = top + (11 + 24 * index) * s
        draw.rectangle([left + 10 * s, key_y, left + 24 * s, key_y + 12 * s], fill=colour)
        _text(image, (left + 30 * s, key_y + 6 * s), label, normal, FOREGROUND, "lm")

    title = fonts.shorten(f"{_words(chart.title, lang)} · {server}", large, (WIDTH - 16) * s)
    _text(image, (8 * s, 28 * s), title, large, FOREGROUND, "ls")
    _text(image, ((left + right) / 2, (HEIGHT - 8) * s), _words(chart.x_label, lang), normal, FOREGROUND, "ms")
    # the y label, turned a quarter
    y_label = _words(chart.y_label, lang)
    width = fonts.text_length(y_label, normal) + 4 * s
    label = Image.new("RGB", (width, 26 * s), BACKGROUND)
    _text(label, (width / 2, 13 * s), y_label, normal, FOREGROUND, "mm")
    label = label.rotate(90, expand=True)
    image.paste(label, (2 * s, int((top + bottom) / 2 - label.height / 2)))

    out = io.BytesIO()
    image.reduce(SCALE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def describe(chart: ChartData, *, server: str, lang: i18n.Lang = i18n.ENGLISH) -> str:
    """The chart in words, for the attachment's description (screen readers), in `lang`: each
    line's label, span of hands, where it ends and its lowest and highest points. At most 1024
    characters (Discord's limit)."""
    L = lang.render
    parts = [L(t("Chart: {title} · {server}. {y} by {x}.", title=_words(chart.title, lang), server=server,
                 y=_words(chart.y_label, lang), x=_words(chart.x_label, lang)))]
    if not chart.lines:
        parts.append(L(t("No hands yet.")))
    for line in chart.lines:
        label = _words(line.label, lang)
        if not line.values:
            parts.append(L(t("{line}: no hands.", line=label)))
            continue
        parts.append(L(t("{line}: hands {first} to {last}, ends at {end}, lowest {low}, highest {high}.", line=label,
                         first=line.hands[0], last=line.hands[-1], end=_label(line.values[-1]),
                         low=_label(min(line.values)), high=_label(max(line.values)))))
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023].rsplit(" ", 1)[0] + "…"
