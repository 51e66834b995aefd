"""Every picture legible on a phone: scaled to 320 px wide (as Discord shows it on a 360 px
screen), every text's capitals and every card's rank and suit are at least 10 px tall, for 2 to
6 seats, in play and at the showdown, and the private hand at every size."""

from __future__ import annotations

import io
from functools import lru_cache

import pytest
from PIL import Image, ImageDraw

from cogs import fonts, pictures
from cogs.card_art import INDEX_WIDTH
from cogs.pictures import HandPicture, SeatPicture, SpreadPicture, TablePicture, render_hand, render_table
from engine.cards import Card, parse_cards

PHONE = 320
SMALLEST = 10
NAMES = ["Croaker", "محمد علي", "田中太郎", "Владимир Петров", "Zoë 🃏 Ærø", "प्रिया शर्मा"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def scale(picture) -> float:
    """How much Discord shrinks the picture on the phone (it never enlarges one)."""
    return min(1.0, PHONE / picture.width)


@lru_cache(maxsize=None)
def cap_height(size: int) -> int:
    """The ink height of a capital H drawn as the pictures draw text at `size` (measured)."""
    image = Image.new("L", (size * 3, size * 3), 0)
    fonts.draw(image, 2, size * 2, "H", size, 255)
    box = image.point(lambda v: 255 if v >= 128 else 0).getbbox()
    assert box is not None
    return box[3] - box[1]


@lru_cache(maxsize=None)
def suit_height(suit: str, size: int) -> int:
    """The ink height of a suit symbol drawn in text at `size` (measured on its stamp)."""
    stamp, _, _ = pictures._text_stamp(suit, size, (240, 240, 232), "la")
    alpha = stamp if stamp.mode == "L" else stamp.getchannel("A")
    box = alpha.point(lambda v: 255 if v >= 128 else 0).getbbox()
    assert box is not None
    return box[3] - box[1]


def _ink_rows(image: Image.Image, box) -> list[int]:
    """The rows of `box` holding a suit's ink (red, black, a joker's blue or purple), not the face
    nor the grey edge."""
    part = image.crop(box)
    rows = []
    for y in range(part.height):
        for x in range(part.width):
            r, g, b = part.getpixel((x, y))
            if max(r, g, b) - min(r, g, b) > 80 or max(r, g, b) < 100:
                rows.append(y)
                break
    return rows


def index_heights(image: Image.Image, box) -> list[int]:
    """The heights of the ink blobs of a card's corner index in the picture, top down: its rank
    and its suit (then, maybe, the top of the large symbol in the card's middle)."""
    x, y, w = box.x, box.y, box.width
    rows = _ink_rows(image, (x + 2, y + 2, x + round(INDEX_WIDTH * w), y + round(0.72 * w)))
    blobs, start = [], None
    for a, b in zip(rows, rows[1:] + [None]):
        start = a if start is None else start
        if b is None or b > a + 1:
            blobs.append(a - start + 1)
            start = None
    return blobs


def check_legible(picture) -> tuple[float, float]:
    """Asserts every text and card index is at least SMALLEST px tall at phone width; returns
    the smallest text and card index heights found there."""
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    k = scale(picture)
    smallest_text = min((cap_height(t.size) * k for t in picture.texts), default=99.0)
    assert smallest_text >= SMALLEST, [(t.text, t.size) for t in picture.texts if cap_height(t.size) * k < SMALLEST]
    for t in picture.texts:  # a suit in text ("=5♠", "you drew 10♥") too
        for suit in set("♠♥♦♣") & set(t.text):
            assert suit_height(suit, t.size) * k >= SMALLEST, (t.text, t.size)
    for t in picture.texts:  # and all of it inside the picture, none of it a lone ellipsis
        assert 0 <= t.box[0] and t.box[2] <= picture.width and 0 <= t.box[1] and t.box[3] <= picture.height, t
        assert t.text != "…", t
    smallest_card = 99.0
    for box in picture.boxes:
        if box.card is None:
            continue
        heights = index_heights(image, box)[:2]  # a rank over a suit (a joker's star over its number)
        assert len(heights) == 2, (box.card, heights)
        smallest_card = min(smallest_card, min(heights) * k)
        assert min(heights) * k >= SMALLEST, (box.card, box.width, heights, k)
    # and the picture really is drawn at that size: scaled to the phone, it is PHONE px wide
    assert round(picture.width * k) <= PHONE
    return smallest_text, smallest_card


def in_play(n: int, names=NAMES) -> TablePicture:
    seats = tuple(SeatPicture(names[i % len(names)], cards_in_hand=5 + i, total=i - 2, is_turn=i == 1,
                              is_dealer=i == 0, is_away=i == 3, note="waiting 2" if i == 2 else "")
                  for i in range(n))
    spreads = (SpreadPicture(names[0], cards("3h 4h 5h 6h 7h 8h 9h")), SpreadPicture(names[1 % n], cards("Ks Kd Kh")),
               SpreadPicture(names[2 % n], cards("4s X1 6s"), wild=((Card.parse("X1"), Card.parse("5s")),)),
               SpreadPicture(names[0], cards("10d 10c 10s")))
    return TablePicture(seats, spreads, Card.parse("10h"), 17, title="Tonk · hand 4 · standard")


def showdown(n: int, hand: str) -> TablePicture:
    seats = tuple(SeatPicture(NAMES[i], total=i - 2, shown=cards(hand), is_dealer=i == 0, is_winner=i == 1,
                              note="dropped" if i == 2 else "") for i in range(n))
    return TablePicture(seats, (SpreadPicture(NAMES[0], cards("Qs Qd Qc")),), stock=None, title="Showdown · caught!")


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_table_in_play_is_legible_at_phone_width(n):
    check_legible(render_table(in_play(n)))
    live = in_play(n)  # as the channel's message carries it: no counts of cards, no piles
    live = TablePicture(tuple(SeatPicture(s.name, total=s.total, is_dealer=s.is_dealer, is_away=s.is_away)
                              for s in live.seats), live.spreads, stock=None, title=live.title)
    check_legible(render_table(live))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("hand", ["As 10h Kd X2 7c", "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs", "Jd"])
def test_the_showdown_is_legible_at_phone_width(n, hand):
    picture = render_table(showdown(n, hand))
    check_legible(picture)
    assert sum(1 for b in picture.boxes if b.card is not None) == n * len(cards(hand)) + 3


@pytest.mark.parametrize("size", range(1, 13))
@pytest.mark.parametrize("side", [False, True])
def test_every_hand_is_legible_at_phone_width(size, side):
    hand = cards("As 2h 3d 4c 5s 6h 7d 8c 9s 10h Jd Qc")[:size]
    picture = render_hand(HandPicture(hand, drawn=hand[-1], discard_top=Card.parse("Ks") if side else None,
                                      count=40, stock=12 if side else None, title="Your hand · you drew 10♥"))
    check_legible(picture)
    assert picture.width <= pictures.HAND_MAX_WIDTH


def test_the_check_fails_on_the_old_sizes():
    # The pictures before this layout: 640 px wide with 15 px labels and 46 px showdown cards.
    old = Image.new("RGB", (640, 200), (27, 94, 52))
    fonts.draw(old, 10, 40, "count 7", 15, (240, 240, 232))
    png = io.BytesIO()
    old.save(png, "PNG")
    picture = pictures.Picture(png.getvalue(), 640, 200, (), (pictures.TextBox("count 7", 15, (10, 20, 70, 45)),))
    with pytest.raises(AssertionError):
        check_legible(picture)
    from cogs.card_art import card_image

    art = card_image(Card.parse("Kd"), 46)
    canvas = Image.new("RGB", (640, 120), (27, 94, 52))
    canvas.paste(art, (10, 10), art)
    out = io.BytesIO()
    canvas.save(out, "PNG")
    box = pictures.CardBox(Card.parse("Kd"), 10, 10, 46, (10, 10, 56, 10 + art.height))
    with pytest.raises(AssertionError):
        check_legible(pictures.Picture(out.getvalue(), 640, 120, (box,)))


def test_a_six_seat_showdown_at_phone_width_keeps_its_heights(tmp_path):
    picture = render_table(showdown(6, "As 10h Kd X2 7c"))
    text, card = check_legible(picture)
    image = Image.open(io.BytesIO(picture.png))
    phone = image.resize((PHONE, round(picture.height * scale(picture))), Image.Resampling.LANCZOS)
    assert phone.width == PHONE and text >= SMALLEST and card >= SMALLEST
    ImageDraw.Draw(phone)  # the scaled picture decodes and draws (docs/pictures/ shows it)


def _blob_heights(image: Image.Image, box) -> list[int]:
    """Heights of the runs of rows holding light ink (text on the chart's dark background) in `box`."""
    part = image.crop(box).convert("L")
    rows = [y for y in range(part.height) if any(part.getpixel((x, y)) > 150 for x in range(part.width))]
    heights, start = [], None
    for a, b in zip(rows, rows[1:] + [None]):
        start = a if start is None else start
        if b is None or b > a + 1:
            if start > 0 and a < part.height - 1:  # whole in the box: not the edge of something else
                heights.append(a - start + 1)
            start = None
    return heights


def test_the_stats_chart_is_legible_at_phone_width():
    from bot.stats import ChartData, ChartLine
    from cogs import stats_chart

    values = tuple(float((i * 7) % 23 - 11) for i in range(100))
    data = ChartData("Balance of 田中太郎", "Balance", "Hands", (ChartLine("Season 1", tuple(range(1, 101)), values),))
    image = Image.open(io.BytesIO(stats_chart.balance_png(data, server="Сервер")))
    k = min(1.0, PHONE / image.width)
    phone = image.convert("RGB").resize((round(image.width * k), round(image.height * k)), Image.Resampling.LANCZOS)
    # the y axis's numbers, left of the plot (right of the turned label), and the x axis's, under it
    left, bottom = round(stats_chart.LEFT * k), round((stats_chart.HEIGHT - stats_chart.BOTTOM) * k)
    y_numbers = _blob_heights(phone, (round(28 * k), round(stats_chart.TOP * k) - 12, left - 2, bottom + 12))
    x_numbers = _blob_heights(phone, (left, bottom + 3, phone.width, bottom + round(32 * k)))
    assert len(y_numbers) >= 3 and len(x_numbers) == 1
    assert min(y_numbers + x_numbers) >= SMALLEST, (y_numbers, x_numbers)
