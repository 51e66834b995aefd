"""A player's running balance as a PNG, drawn with Pillow.

Pillow rather than matplotlib: at the same size and the same elements (title
with the server's name, axis labels and ticks, grid, zero line, a legend, one
line per season or opponent) it draws a chart in a few milliseconds where
matplotlib's Agg backend needed hundreds on this machine (scripts/bench_stats.py
measures both; docs/BENCHMARKS.md has the figures). Lines are drawn at twice
the size and scaled down, which smooths them as anti-aliasing would. The font
is the one Pillow ships (``ImageFont.load_default(size=...)``), so nothing
depends on the fonts of the host.

The look lives here; the lines come from ``bot.stats``.
"""

from __future__ import annotations

import io
import math
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.stats import ChartData

WIDTH, HEIGHT = 800, 450
"""Discord shows an 800 x 450 picture whole in an embed."""
SCALE = 2
"""Drawn at twice the size, then scaled down: smooth lines."""
BACKGROUND = (43, 45, 49)
"""Discord's dark theme, so the picture sits in the embed without a white box."""
FOREGROUND = (219, 222, 225)
GRID = (78, 80, 88)
COLOURS = ((87, 242, 135), (88, 101, 242), (254, 231, 92), (235, 69, 158), (237, 66, 69), (59, 165, 93),
           (250, 166, 26), (155, 132, 238))
LEFT, RIGHT, TOP, BOTTOM = 78, 20, 52, 58
"""The plot's margins, in final pixels."""


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size * SCALE)


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


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def balance_png(chart: ChartData, *, server: str) -> bytes:
    """The chart as PNG bytes, titled with the player and the server's name."""
    s = SCALE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = LEFT * s, (WIDTH - RIGHT) * s, TOP * s, (HEIGHT - BOTTOM) * s

    xs = [x for line in chart.lines for x in line.hands] or [1]
    ys = [y for line in chart.lines for y in line.values] + [0.0]
    x_ticks = nice_ticks(min(xs), max(xs), count=8, integer=True)
    y_ticks = nice_ticks(min(ys), max(ys), count=5)
    x_low, x_high = x_ticks[0], max(x_ticks[-1], x_ticks[0] + 1)
    y_low, y_high = y_ticks[0], max(y_ticks[-1], y_ticks[0] + 1)

    def point(x: float, y: float) -> tuple[float, float]:
        return (left + (x - x_low) / (x_high - x_low) * (right - left),
                bottom - (y - y_low) / (y_high - y_low) * (bottom - top))

    small, normal, large = _font(12), _font(13), _font(16)
    for value in y_ticks:
        _, y = point(x_low, value)
        draw.line([(left, y), (right, y)], fill=GRID, width=s if value else 2 * s)
        draw.text((left - 8 * s, y), _label(value), fill=FOREGROUND, font=small, anchor="rm")
    for value in x_ticks:
        x, _ = point(value, y_low)
        draw.line([(x, bottom), (x, bottom + 5 * s)], fill=GRID, width=s)
        draw.text((x, bottom + 8 * s), _label(value), fill=FOREGROUND, font=small, anchor="mt")
    draw.rectangle([left, top, right, bottom], outline=GRID, width=s)

    for index, line in enumerate(chart.lines):
        colour = COLOURS[index % len(COLOURS)]
        points = [point(x, y) for x, y in zip(line.hands, line.values, strict=True)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3 * s, joint="curve")
        for x, y in points if len(points) == 1 else ():
            draw.ellipse([x - 4 * s, y - 4 * s, x + 4 * s, y + 4 * s], fill=colour)
    # the legend, top left inside the plot, on a box of its own
    if chart.lines:
        widest = max(draw.textlength(line.label, font=normal) for line in chart.lines)
        draw.rectangle([left + 4 * s, top + 4 * s, left + 36 * s + widest, top + (12 + 20 * len(chart.lines)) * s],
                       fill=BACKGROUND, outline=GRID, width=s)
    for index, line in enumerate(chart.lines):
        colour = COLOURS[index % len(COLOURS)]
        key_y = top + (10 + 20 * index) * s
        draw.rectangle([left + 10 * s, key_y, left + 24 * s, key_y + 12 * s], fill=colour)
        draw.text((left + 30 * s, key_y + 6 * s), line.label, fill=FOREGROUND, font=normal, anchor="lm")

    draw.text((left, 18 * s), f"{chart.title} · {server}", fill=FOREGROUND, font=large, anchor="ls")
    draw.text(((left + right) / 2, (HEIGHT - 14) * s), chart.x_label, fill=FOREGROUND, font=normal, anchor="ms")
    # the y label, turned a quarter
    width = int(draw.textlength(chart.y_label, font=normal)) + 4 * s
    label = Image.new("RGB", (width, 20 * s), BACKGROUND)
    ImageDraw.Draw(label).text((width / 2, 10 * s), chart.y_label, fill=FOREGROUND, font=normal, anchor="mm")
    label = label.rotate(90, expand=True)
    image.paste(label, (6 * s, int((top + bottom) / 2 - label.height / 2)))

    out = io.BytesIO()
    image.reduce(SCALE).save(out, format="PNG", compress_level=3)
    return out.getvalue()
