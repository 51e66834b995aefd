"""PNG pictures of a table and of a private hand, for Discord messages.

The renderer's inputs are small frozen values holding only what their viewer may see:
`TablePicture` (public: seats with how many cards they hold, spreads, the discard top,
the stock count, and the hands only once they are shown at the showdown) and
`HandPicture` (one player's own cards). Neither can be handed another player's hidden
cards, so a picture cannot leak one. `table_picture_from_view` and
`hand_picture_from_view` build them from the engine's `SeatView`; the table layer may
map its own public view onto them instead.

Pictures are cached per input (the values are hashable), so a message edited for
every move re-renders only when what it shows has changed. The cache is small (`CACHE_SIZE`):
the live table code keeps what each message shows and sends no picture that did not change.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
import time
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import MAX_JOKERS, SUIT_WORDS, Card, Suit, count, spread_name
from engine.view import SeatView

import i18n
from bot.metrics import METRICS
from engine.text import t, tc, tn
from cogs import fonts
from cogs.card_art import INDEX_WIDTH, back_image, card_image, card_size, font, suit_mask

FELT = (27, 94, 52)
FELT_EDGE = (18, 68, 37)
PANEL = (20, 74, 40)
PANEL_EDGE = (44, 120, 70)
GOLD = (246, 196, 68)
TEXT_RED = (255, 105, 105)  # ♥ and ♦ in text on the felt
TEXT = (240, 240, 232)
MUTED = (170, 200, 178)
PLUS = (150, 230, 160)
MINUS = (255, 160, 150)
TABLE_WIDTH = 400
"""Discord shows a picture up to about 400-550 px wide on a desktop, and about 300-320 px on a
phone: at 400 px a phone scales it by four fifths only (the sizes below keep it legible there)."""
MARGIN = 10
CACHE_SIZE = 8
"""Pictures kept of each kind. The live table code keeps what each message shows and sends no
picture that did not change, so a cache serves only a picture shown again soon (a hand opened
again): at 200 tables 32 were replaced within seconds, and held half a megabyte of PNGs."""
STAMPS = 256
"""Text stamps kept: 2048 held about 3 KiB of name stamps for each of 200 tables, half the memory a
table cost the bot, for about a tenth of a millisecond saved each time a table's picture changes."""
WIDTHS = 1024
"""Text widths kept (about 450 bytes each with its key and the cache's links, measured: 0.45 MiB in all; 200
tables' names and the shared labels fit)."""
EVERY_CARD = tuple(Card.by_index(i) for i in range(52 + MAX_JOKERS))
SUIT_OF_SYMBOL = {suit.symbol: suit for suit in Suit}
log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------- inputs

def _tuples(value, *names: str) -> None:
    """Turn the named list fields of a frozen picture input into tuples (the cache keys
    on the inputs, so they must be hashable whatever sequence the caller passed)."""
    for name in names:
        items = getattr(value, name)
        if items is not None and not isinstance(items, tuple):
            object.__setattr__(value, name, tuple(items))


@dataclass(frozen=True, slots=True)
class SeatPicture:
    """One seat as everyone sees it. `shown` holds the hand only once it is public (showdown)."""

    name: str
    cards_in_hand: int | None = None
    """How many cards the seat holds, drawn as backs (None: not drawn; the channel's picture
    leaves what changes with every play to the message's text)."""
    total: int | None = None
    is_turn: bool = False
    is_away: bool = False
    is_dealer: bool = False
    note: str = ""
    shown: tuple[Card, ...] | None = None
    count: int | None = None  # the shown hand's count (the engine's, under the table's rules)
    is_winner: bool = False  # at the showdown

    def __post_init__(self) -> None:
        _tuples(self, "shown")


@dataclass(frozen=True, slots=True)
class SpreadPicture:
    """A spread on the table; `wild` pairs each wild card in it with the card it stands for."""

    owner: str
    cards: tuple[Card, ...]
    wild: tuple[tuple[Card, Card], ...] = ()

    def __post_init__(self) -> None:
        _tuples(self, "cards")
        object.__setattr__(self, "wild", tuple(tuple(pair) for pair in self.wild))


@dataclass(frozen=True, slots=True)
class TablePicture:
    """The public table: nothing in it is a card a player holds unseen."""

    seats: tuple[SeatPicture, ...]
    spreads: tuple[SpreadPicture, ...] = ()
    discard_top: Card | None = None
    stock: int | None = 0
    """Cards in the stock; None: no piles are drawn (the stock and the discard top are left to
    the message's text), and the spreads take the whole width."""
    title: str = ""
    lang: str = ""
    """The locale its words are drawn in ("" or an English one: English); part of the cache's key."""

    def __post_init__(self) -> None:
        _tuples(self, "seats", "spreads")


@dataclass(frozen=True, slots=True)
class HandPicture:
    """One player's own hand, in the order the hand is shown (the menus use the same order)."""

    cards: tuple[Card, ...]
    drawn: Card | None = None
    discard_top: Card | None = None
    count: int | None = None
    stock: int | None = None
    title: str = ""
    lang: str = ""
    """The locale its words are drawn in ("" or an English one: English)."""

    def __post_init__(self) -> None:
        _tuples(self, "cards")


# ---------------------------------------------------------------------------- output

@dataclass(frozen=True, slots=True)
class CardBox:
    """Where one card was drawn: the card (None for a back), the card's top-left corner
    and width, and the part of it left visible by the cards over it."""

    card: Card | None
    x: int
    y: int
    width: int
    visible: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class TextBox:
    """Where a text was drawn: the text as drawn (shortened if it was), its font size, and its box."""

    text: str
    size: int
    box: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Picture:
    png: bytes
    width: int
    height: int
    boxes: tuple[CardBox, ...] = field(repr=False)
    texts: tuple[TextBox, ...] = field(default=(), repr=False)
    alt: str = ""
    """What the picture shows, in words (the attachment's description, read by screen readers)."""


class _Canvas:
    """A felt image that remembers where it put each card and each text."""

    def __init__(self, width: int, height: int):
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.boxes: list[CardBox] = []
        self.texts: list[TextBox] = []
        self.colour = False  # an emoji was drawn: the PNG's palette is fitted to this picture
        self.draw.rounded_rectangle([1, 1, width - 2, height - 2], radius=12, outline=FELT_EDGE, width=3)

    def card(self, card: Card | None, x: int, y: int, width: int, visible_width: int | None = None) -> None:
        art = back_image(width) if card is None else card_image(card, width)
        self.image.paste(art, (x, y), art)
        shown = art.width if visible_width is None else min(visible_width, art.width)
        self.boxes.append(CardBox(card, x, y, width, (x, y, x + shown, y + art.height)))

    def fan(self, cards, x: int, y: int, width: int, step: int) -> int:
        """Cards left to right, each overlapping the one before; returns the right edge."""
        cards = list(cards)
        for i, card in enumerate(cards):
            last = i == len(cards) - 1
            self.card(card, x + i * step, y, width, None if last else step)
        return x + (len(cards) - 1) * step + width if cards else x

    def text(self, xy, text: str, size: int, fill=TEXT, anchor: str = "la") -> int:
        """Draw `text` placed as Pillow places text for `anchor`; returns its width."""
        stamp, dx, dy = _text_stamp(text, size, fill, anchor)
        if stamp is None:
            return 0
        at = (round(xy[0]) + dx, round(xy[1]) + dy)
        if stamp.mode == "L":  # one colour: the stamp is how much of it covers each pixel
            self.image.paste(fill, at + (at[0] + stamp.width, at[1] + stamp.height), stamp)
        else:
            self.image.paste(stamp, at, stamp)
            self.colour = self.colour or fonts.has_colour(text)
        self.texts.append(TextBox(text, size, (at[0], at[1], at[0] + stamp.width, at[1] + stamp.height)))
        return stamp.width

    def badge(self, x: int, y: int, number: int) -> int:
        """A spread's number as the controls name it ("spread 2"), gold; returns its width."""
        label = str(number)
        w = text_width(label, LABEL) + 10
        self.draw.rounded_rectangle([x, y + 1, x + w, y + LINE - 2], radius=6, fill=GOLD)
        self.text((x + w / 2, y + LINE / 2), label, LABEL, PANEL, "mm")
        return w

    def png(self, alt: str) -> Picture:
        # A palette of 256 colours fitted once to the card art and the felt: the PNG is a
        # third of the RGB one's size and encodes several times faster, with no visible change.
        # A picture with an emoji in colour gets a palette of its own (a few milliseconds more).
        if self.colour:
            small = self.image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        else:
            small = self.image.quantize(palette=_palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        small.save(out, "PNG", compress_level=3)
        return Picture(out.getvalue(), self.image.width, self.image.height, tuple(self.boxes), tuple(self.texts),
                       alt)


@lru_cache(maxsize=STAMPS)
def _text_stamp(text: str, size: int, fill, anchor: str):
    """Text drawn once on a transparent stamp, with its offset from the anchor point
    (counts, card numbers and labels repeat from picture to picture). Each character is drawn
    with the first font of the chain that has it (cogs/fonts.py: every script, emoji in colour).
    Suit symbols are drawn as the cards draw them: ♥ and ♦ in red, ♠ and ♣ in `fill`.

    Text of one colour (nearly all of it) is kept as an "L" mask of its coverage, a quarter of
    an RGBA stamp's bytes. Every table brings its players' names, so the cache is small
    (`STAMPS`): it keeps what every picture shares, and a name is drawn again when its table's
    picture changes, which is now and then (the channel's picture changes with the spreads).
    Text with a red suit or an emoji in colour is RGBA."""
    pieces = _pieces(text)
    pip = round(size * TEXT_PIP)
    width = text_width(text, size)
    m = fonts.metrics(size)
    ascent, descent = m.ascent, m.descent
    if width <= 0:
        return None, 0, 0

    def colour_of(piece) -> tuple:
        return TEXT_RED if isinstance(piece, Suit) and piece in (Suit.HEARTS, Suit.DIAMONDS) else fill

    one_colour = all(colour_of(piece) == fill for piece in pieces) and not fonts.has_colour(text)
    if one_colour:
        stamp = Image.new("L", (width, ascent + descent), 0)
    else:
        stamp = Image.new("RGBA", (width, ascent + descent), fill + (0,))
    x = 0
    for piece in pieces:
        if isinstance(piece, Suit):
            ink = 255 if one_colour else Image.new("RGBA", (pip, pip), colour_of(piece) + (255,))
            stamp.paste(ink, (x + 1, ascent - pip, x + 1 + pip, ascent), suit_mask(piece, pip))
            x += pip + 2
        else:
            x = fonts.draw(stamp, x, ascent, piece, size, 255 if one_colour else fill + (255,))
    # Place the stamp as Pillow would place the text for `anchor` (left/middle/right; top/middle/baseline/descender).
    horizontal, vertical = anchor[0], anchor[1]
    dx = {"l": 0, "m": -width // 2, "r": -width}[horizontal]
    dy = {"a": 0, "t": 0, "m": -(ascent + descent) // 2, "s": -ascent, "d": -(ascent + descent)}[vertical]
    return stamp, dx, dy


def _pieces(text: str) -> list:
    """`text` split into runs of text and the suits between them."""
    pieces: list = []
    run = ""
    for char in text:
        if char in SUIT_OF_SYMBOL:
            if run:
                pieces.append(run)
                run = ""
            pieces.append(SUIT_OF_SYMBOL[char])
        elif char != "\ufe0e":  # a text-presentation selector after a suit: the suit is drawn already
            run += char
    if run:
        pieces.append(run)
    return pieces


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette every picture is reduced to: fitted to a sample holding every card's
    face (at the sizes the pictures use), the back, and the felt, panel and text colours."""
    cards = EVERY_CARD
    width = 40 + 14 * (HAND_CARDS[0] + 4)
    sample = _Canvas(width, 900)
    y = 10
    for size in (HAND_CARDS[0], PILE_CARD, SPREAD_CARD, SHOWN_CARD):
        for i, card in enumerate(cards):
            x = 10 + (i % 14) * (size + 4)
            sample.card(card, x, y + (i // 14) * (card_size(size)[1] + 4), size)
        y += 4 * (card_size(size)[1] + 4)
        if y > 900 - 200:
            break
    sample.card(None, 10, 880 - card_size(PILE_CARD)[1], PILE_CARD)
    sample.card(None, 100, 880 - card_size(MINI_BACK)[1], MINI_BACK)
    strip = Image.new("RGB", (width, 1100))
    strip.paste(sample.image, (0, 0))
    draw = ImageDraw.Draw(strip)
    draw.rectangle([0, 900, width, 1100], fill=PANEL)
    for i, colour in enumerate((TEXT, MUTED, PLUS, MINUS, GOLD, PANEL_EDGE, FELT, FELT_EDGE)):
        draw.text((10 + 120 * (i % 8), 910), "Player 10 cards +3", font=font(20), fill=colour)
        draw.text((10 + 120 * (i % 8), 960), "count 0 Stock", font=font(16), fill=colour)
        draw.rectangle([10 + 120 * i, 1010, 120 + 120 * i, 1090], fill=FELT, outline=colour, width=3)
        draw.text((14 + 120 * i, 1020), "Player 7", font=font(20), fill=colour)
    return strip.quantize(256, method=Image.Quantize.FASTOCTREE)


@lru_cache(maxsize=WIDTHS)
def text_width(text: str, size: int) -> int:
    """How wide `text` is drawn at `size` (its stamp's width), measured without drawing it: a
    table's picture measures each name to fit it, and 200 tables' names are more than the stamps
    kept (`STAMPS`), so measuring by drawing drew most names twice."""
    pip = round(size * TEXT_PIP)
    return max(0, sum(pip + 2 if isinstance(p, Suit) else fonts.text_length(p, size) for p in _pieces(text)))


def fit(text: str, size: int, width: int) -> str:
    """`text` shortened with an ellipsis, at a grapheme boundary, to fit `width` pixels."""
    if text_width(text, size) <= width:
        return text
    if not SUIT_OF_SYMBOL.keys() & set(text):
        return fonts.shorten(text, size, width)
    parts = fonts.graphemes(text)
    while parts and text_width("".join(parts) + "…", size) > width:
        parts.pop()
    return "".join(parts).rstrip() + "…"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n) if n < 0 else "0"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _lang(picture: "TablePicture | HandPicture") -> i18n.Lang:
    return i18n.lang(picture.lang or None)


def _cards(n: int, lang: i18n.Lang) -> str:
    return lang.render(tn("{n} card", "{n} cards", n))


def _count(n: int, lang: i18n.Lang) -> str:
    return lang.render(t("count {count}", count=n))


# ---------------------------------------------------------------------------- the table
#
# Laid out for a phone: the picture is 400 px wide, so a phone showing it 320 px wide scales it
# by four fifths, and every text (18 px and more: capitals 13 px) and every card's rank and suit
# (cards 54 px and wider) stays over 10 px tall there (tests/test_pictures_phone.py measures it).

NAME = 20  # names and titles
LABEL = 18  # every other text; the smallest the pictures draw
TEXT_PIP = 0.72  # a suit in text ("=5♠"), as a share of the text's size: as tall as its capitals and more
LINE = 26  # a line of LABEL text
NAME_LINE = 28
MINI_BACK = 18
SHOWN_CARD = 54
PILE_CARD = 56
SPREAD_CARD = 56
SPREAD_STEP = 24
SHOWN_STEP = 30
GAP = 8
COLUMN_CARDS = 5  # a shown hand this long fits in half the picture's width


def _seat_columns(picture: TablePicture) -> int:
    """Two columns of seats; at the showdown one seat a row, unless three or more seats show
    hands short enough (5 cards) to fan in half the width, their count under the cards."""
    n = len(picture.seats)
    if n <= 1:
        return 1
    shown = [len(s.shown) for s in picture.seats if s.shown is not None]
    if shown and (n < 3 or max(shown) > COLUMN_CARDS):
        return 1
    return 2


def _compact_showdown(picture: TablePicture) -> bool:
    return any(s.shown is not None for s in picture.seats) and _seat_columns(picture) == 2


def _notes(seat: SeatPicture, lang: i18n.Lang = i18n.ENGLISH) -> list[str]:
    L = lang.render
    notes = []
    if seat.is_turn:
        notes.append(L(t("to play")))
    if seat.note:
        notes.append(seat.note)
    if seat.is_winner:
        notes.append(L(t("wins")))
    if seat.is_away:
        notes.append(L(t("away")))
    return notes


def _shown_label(seat: SeatPicture, lang: i18n.Lang = i18n.ENGLISH) -> str:
    if seat.shown is None:
        return ""
    shown_count = seat.count if seat.count is not None else count(seat.shown)
    return _count(shown_count, lang) if seat.shown else lang.render(t("no cards"))


def _below_lines(seat: SeatPicture, width: int, lang: i18n.Lang = i18n.ENGLISH) -> list[str]:
    """A compact showdown seat's count and notes, in as many lines as they need at `width`."""
    lines: list[str] = []
    for part in [_shown_label(seat, lang), *_notes(seat, lang)]:
        if lines and text_width(f"{lines[-1]} · {part}", LABEL) <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append(part)
    return lines


def _seat_height(picture: TablePicture) -> int:
    if any(s.shown is not None for s in picture.seats):
        below = 0
        if _compact_showdown(picture):
            seat_w = (TABLE_WIDTH - 2 * MARGIN - GAP) // 2
            below = 4 + LINE * max(len(_below_lines(s, seat_w - 16, _lang(picture))) for s in picture.seats)
        return 6 + NAME_LINE + card_size(SHOWN_CARD)[1] + below + 8
    height = 6 + NAME_LINE + 4
    if any(s.cards_in_hand is not None for s in picture.seats):
        height += card_size(MINI_BACK)[1] + 6
    if any(_notes(s, _lang(picture)) for s in picture.seats):
        height += LINE
    return height


def _draw_seat(canvas: _Canvas, seat: SeatPicture, x: int, y: int, w: int, h: int, compact: bool = False,
               lang: i18n.Lang = i18n.ENGLISH) -> None:
    """One seat's box; `compact`: a showdown in two columns, the count and notes under the cards."""
    lit = seat.is_turn or seat.is_winner
    canvas.draw.rounded_rectangle([x, y, x + w, y + h], radius=8, fill=PANEL, outline=GOLD if lit else PANEL_EDGE,
                                  width=3 if lit else 1)
    right = x + w - 8
    top = y + 6
    if seat.total is not None:
        colour = PLUS if seat.total > 0 else MINUS if seat.total < 0 else TEXT
        right -= canvas.text((right, top), signed(seat.total), NAME, colour, "ra") + 10
    shown_label = _shown_label(seat, lang)
    notes = _notes(seat, lang)
    step = 0
    notes_beside = False  # a shown hand's notes beside its cards, when they leave room for them
    if seat.shown is not None:
        step = min(SHOWN_STEP, (w - 16 - SHOWN_CARD) // max(1, len(seat.shown) - 1))
        fan_end = x + 8 + (SHOWN_CARD + step * (len(seat.shown) - 1) if seat.shown else 0)
        notes_beside = bool(notes) and x + w - 8 - (fan_end + 10) >= 80
        if not compact:
            right_label = " · ".join([shown_label, *([] if notes_beside else notes)])
            right -= canvas.text((right, top + 2), right_label, LABEL, GOLD if lit and notes else MUTED, "ra") + 10
    name_x = x + 8
    if seat.is_dealer:
        canvas.draw.ellipse([name_x, top + 3, name_x + 22, top + 25], fill=TEXT)
        canvas.text((name_x + 11, top + 14), "D", LABEL, PANEL, "mm")
        name_x += 28
    canvas.text((name_x, top), fit(seat.name, NAME, right - name_x), NAME, GOLD if lit else TEXT)
    row = top + NAME_LINE
    if seat.shown is not None:
        end = canvas.fan(seat.shown, x + 8, row, SHOWN_CARD, step) if seat.shown else x + 8
        if compact:
            for i, line in enumerate(_below_lines(seat, w - 16, lang)):
                canvas.text((x + 8, row + card_size(SHOWN_CARD)[1] + 4 + i * LINE), fit(line, LABEL, w - 16), LABEL,
                            GOLD if lit else MUTED)
        elif notes_beside:
            note_room = x + w - 8 - (end + 10)
            canvas.text((end + 10, row + 4), fit(" · ".join(notes), LABEL, note_room), LABEL,
                        GOLD if lit else MUTED)
        return
    if seat.cards_in_hand is not None:
        shown = min(seat.cards_in_hand, 8)
        end = canvas.fan([None] * shown, x + 8, row, MINI_BACK, 7)
        canvas.text((end + 8, row), _cards(seat.cards_in_hand, lang), LABEL, MUTED)
        row += card_size(MINI_BACK)[1] + 6
    if notes:
        canvas.text((x + 8, row), fit(" · ".join(notes), LABEL, w - 16), LABEL, GOLD if lit else MUTED)


def _spread_width(spread: SpreadPicture) -> int:
    return max(SPREAD_CARD + SPREAD_STEP * (len(spread.cards) - 1), 104)


def _spread_rows(spreads, width: int) -> list[list[tuple[int, SpreadPicture, int]]]:
    """Spreads (with their numbers) flowed into rows that fit `width`, each with its drawn width."""
    rows: list[list[tuple[int, SpreadPicture, int]]] = [[]]
    used = 0
    for number, spread in enumerate(spreads, start=1):
        w = min(_spread_width(spread), width)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((number, spread, w))
        used += w + 14
    return rows if rows[0] else []


def _timed(kind: str, draw, picture):
    """`draw(picture)`, its time counted when it drew (not a cache hit) and metrics are on."""
    if not METRICS.enabled:
        return draw(picture)
    misses, started = draw.cache_info().misses, time.perf_counter()
    result = draw(picture)
    if draw.cache_info().misses != misses:
        METRICS.picture(kind, time.perf_counter() - started)
    return result


def render_table(picture: TablePicture) -> Picture:
    return _timed("table", _render_table_cached, picture)


@lru_cache(maxsize=CACHE_SIZE)
def _render_table_cached(picture: TablePicture) -> Picture:
    width = TABLE_WIDTH
    n = len(picture.seats)
    columns = _seat_columns(picture)
    compact = _compact_showdown(picture)
    seat_rows = -(-n // columns)
    seat_h = _seat_height(picture)
    top = MARGIN + (NAME_LINE + 2 if picture.title else 0)
    seats_bottom = top + seat_rows * (seat_h + GAP)
    piles = picture.stock is not None
    _, pile_h = card_size(PILE_CARD)
    spread_x = MARGIN + (2 * PILE_CARD + 14 + 18 if piles else 2)
    spread_w = width - spread_x - MARGIN
    rows = _spread_rows(picture.spreads, spread_w)
    _, spread_card_h = card_size(SPREAD_CARD)
    wild_h = LINE if any(spread.wild for spread in picture.spreads) else 0
    row_h = LINE + 2 + spread_card_h + wild_h + 8
    middle_h = max(LINE + pile_h + LINE + 6 if piles else 0, len(rows) * row_h if rows else LINE + 8)
    height = seats_bottom + middle_h + MARGIN
    canvas = _Canvas(width, height)
    if picture.title:
        canvas.text((MARGIN + 2, MARGIN), fit(picture.title, NAME, width - 2 * MARGIN), NAME)

    seat_w = (width - 2 * MARGIN - (columns - 1) * GAP) // columns
    for i, seat in enumerate(picture.seats):
        r, c = divmod(i, columns)
        _draw_seat(canvas, seat, MARGIN + c * (seat_w + GAP), top + r * (seat_h + GAP), seat_w, seat_h,
                   compact, _lang(picture))

    y = seats_bottom
    if piles:
        _draw_piles(canvas, picture, MARGIN, y, pile_h)
        canvas.draw.line([(spread_x - 10, y + 4), (spread_x - 10, y + middle_h - 8)], fill=PANEL_EDGE, width=2)
    # The spreads, each numbered as the controls name them ("on spread 2"), under its owner's name.
    if not rows:
        canvas.text((spread_x, y + 2), _lang(picture).render(t("No spreads yet")), LABEL, MUTED)
    for r, row in enumerate(rows):
        sx = spread_x
        sy = y + r * row_h
        for number, spread, w in row:
            badge = canvas.badge(sx, sy, number)
            canvas.text((sx + badge + 6, sy), fit(spread.owner, LABEL, w - badge - 6), LABEL, MUTED)
            step = min(SPREAD_STEP, (w - SPREAD_CARD) // max(1, len(spread.cards) - 1))
            canvas.fan(spread.cards, sx, sy + LINE + 2, SPREAD_CARD, step)
            stands = dict(spread.wild)
            for i, card in enumerate(spread.cards):
                if card in stands:  # under the wild card: what it stands for
                    canvas.text((sx + i * step, sy + LINE + 4 + spread_card_h), f"={stands[card].label}", LABEL)
            sx += w + 14
    return canvas.png(describe_table(picture))


def _draw_piles(canvas: _Canvas, picture: TablePicture, x: int, y: int, pile_h: int) -> None:
    """The stock (a small stack of backs) and the discard pile's top card."""
    assert picture.stock is not None
    lang = _lang(picture)
    canvas.text((x + PILE_CARD / 2 + 3, y), lang.render(t("Stock")), LABEL, MUTED, "ma")
    layers = min(3, picture.stock)
    for i in range(layers):
        canvas.card(None, x + 6 - 3 * i, y + LINE + 4 - 3 * i, PILE_CARD)
    if not layers:
        canvas.draw.rounded_rectangle([x, y + LINE, x + PILE_CARD, y + LINE + pile_h], radius=7, outline=PANEL_EDGE,
                                      width=2)
    stock = _cards(picture.stock, lang) if picture.stock else lang.render(t("empty"))
    canvas.text((x + PILE_CARD / 2 + 3, y + LINE + 4 + pile_h), stock, LABEL, TEXT, "ma")
    x += PILE_CARD + 14
    canvas.text((x + PILE_CARD / 2, y), lang.render(t("Discard")), LABEL, MUTED, "ma")
    if picture.discard_top is not None:
        canvas.card(picture.discard_top, x, y + LINE, PILE_CARD)
    else:
        canvas.draw.rounded_rectangle([x, y + LINE, x + PILE_CARD, y + LINE + pile_h], radius=7, outline=PANEL_EDGE,
                                      width=2)
        canvas.text((x + PILE_CARD / 2, y + LINE + pile_h / 2), lang.render(t("empty")), LABEL, MUTED, "mm")


# ---------------------------------------------------------------------------- a private hand

HAND_CARDS = (84, 76, 68, 60, 54)
"""The hand's card widths, largest first: the largest whose fan still shows each card's index."""
HAND_MAX_WIDTH = TABLE_WIDTH
HAND_MIN_WIDTH = 320
RAISE = 14


def _hand_layout(n: int, room: int) -> tuple[int, int]:
    """(card width, step from card to card) for `n` cards in `room` pixels."""
    for card_w in HAND_CARDS:
        if n <= 1 or n * card_w + (n - 1) * 8 <= room:
            return card_w, card_w + 8
        step = (room - card_w) // (n - 1)
        if step >= INDEX_WIDTH * card_w + 4:
            return card_w, step
    card_w = HAND_CARDS[-1]
    return card_w, max(1, (room - card_w) // (n - 1))


def render_hand(picture: HandPicture) -> Picture:
    return _timed("hand", _render_hand_cached, picture)


@lru_cache(maxsize=CACHE_SIZE)
def _render_hand_cached(picture: HandPicture) -> Picture:
    side = PILE_CARD + 30 if picture.discard_top is not None or picture.stock is not None else 0
    n = len(picture.cards)
    room = HAND_MAX_WIDTH - 2 * MARGIN - side - 4
    card_w, step = _hand_layout(n, room)
    card_h = card_size(card_w)[1]
    cards_w = card_w + step * (n - 1) if n else 200
    width = min(HAND_MAX_WIDTH, max(MARGIN * 2 + 4 + cards_w + side, HAND_MIN_WIDTH))
    drawn_at = picture.cards.index(picture.drawn) if picture.drawn in picture.cards else None
    top = MARGIN + NAME_LINE + (LINE + RAISE if drawn_at is not None else 6)
    pile_bottom = top - RAISE + LINE + card_size(PILE_CARD)[1] + LINE + 4 if side else 0
    height = max(top + card_h, pile_bottom) + MARGIN
    canvas = _Canvas(width, height)
    shown_count = picture.count if picture.count is not None else count(picture.cards)
    lang = _lang(picture)
    count_text = _count(shown_count, lang)
    count_w = canvas.text((width - MARGIN - 2, MARGIN), count_text, NAME, TEXT, "ra")
    if picture.title:
        room = width - 2 * MARGIN - 14 - count_w
        canvas.text((MARGIN + 2, MARGIN), fit(picture.title, NAME, room), NAME)
    x0 = MARGIN + 4
    if not n:
        canvas.text((x0, top + card_h / 2), lang.render(t("No cards in hand")), NAME, MUTED, "lm")
    if drawn_at is not None:  # the drawn card's gold edge, under every card (it covers no card's index)
        x, y = x0 + drawn_at * step, top - RAISE
        canvas.draw.rounded_rectangle([x - 3, y - 3, x + card_w + 2, y + card_h + 2], radius=10, fill=GOLD)
        canvas.text((x + min(step, card_w) / 2, y - 4), lang.render(t("drawn")), LABEL, GOLD, "md")
    for i, card in enumerate(picture.cards):
        x = x0 + i * step
        y = top - RAISE if i == drawn_at else top
        visible = None if i == n - 1 or step >= card_w else step
        canvas.card(card, x, y, card_w, visible)
    if side:
        sx = width - MARGIN - PILE_CARD - 4
        canvas.draw.line([(sx - 12, top - RAISE), (sx - 12, height - MARGIN)], fill=PANEL_EDGE, width=2)
        pile_h = card_size(PILE_CARD)[1]
        if picture.discard_top is not None:
            canvas.text((sx + PILE_CARD / 2, top - RAISE), lang.render(t("Discard")), LABEL, MUTED, "ma")
            canvas.card(picture.discard_top, sx, top - RAISE + LINE, PILE_CARD)
        if picture.stock is not None:
            stock = (lang.render(t("stock {n}", n=picture.stock)) if picture.stock
                     else lang.render(t("no stock")))
            canvas.text((sx + PILE_CARD / 2, top - RAISE + LINE + pile_h + 4), stock, LABEL, MUTED, "ma")
    return canvas.png(describe_hand(picture))


# ---------------------------------------------------------------------------- a tournament's standings

STANDING_ROWS = 10
"""The rows a standings picture draws (the embed lists everyone)."""
PODIUM = {1: (150, 90), 2: (20, 60), 3: (280, 40)}
"""Each podium place's block: its left edge and its height (first in the middle, tallest)."""


@dataclass(frozen=True, slots=True)
class StandingsPicture:
    """A tournament's standings as everyone may see them: (place, name, points, hands won, out)."""

    rows: tuple[tuple[int, str, int, int, bool], ...]
    title: str = ""
    podium: bool = False
    """The tournament is over: the first three on a podium above the table."""
    lang: str = ""

    def __post_init__(self) -> None:
        _tuples(self, "rows")


def render_standings(picture: StandingsPicture) -> Picture:
    return _timed("standings", _render_standings_cached, picture)


@lru_cache(maxsize=CACHE_SIZE)
def _render_standings_cached(picture: StandingsPicture) -> Picture:
    lang = _lang(picture)
    rows = picture.rows[:STANDING_ROWS]
    podium_h = 40 + 90 + NAME_LINE if picture.podium and rows else 0
    width = TABLE_WIDTH
    height = MARGIN + NAME_LINE + 6 + podium_h + LINE * max(1, len(rows)) + MARGIN + 4
    canvas = _Canvas(width, height)
    canvas.text((MARGIN + 4, MARGIN), fit(picture.title, NAME, width - 2 * MARGIN - 8), NAME, GOLD)
    y = MARGIN + NAME_LINE + 6
    if podium_h:
        base = y + podium_h - 6
        for place, name, points, _, _ in rows[:3]:
            if place not in PODIUM:
                continue
            x, h = PODIUM[place]
            w = 100
            colour = GOLD if place == 1 else PANEL_EDGE
            canvas.draw.rounded_rectangle([x, base - h, x + w, base], radius=6, fill=colour)
            canvas.text((x + w / 2, base - h / 2), str(place), NAME, PANEL if place == 1 else TEXT, "mm")
            canvas.text((x + w / 2, base - h - 4), fit(name, LABEL, w + 16), LABEL, TEXT, "md")
        y += podium_h
    if not rows:
        canvas.text((MARGIN + 4, y), lang.render(t("Nobody has played yet")), LABEL, MUTED)
    for place, name, points, won, out in rows:
        colour = MUTED if out else TEXT
        canvas.text((MARGIN + 30, y), f"{place}.", LABEL, colour, "ra")
        score = lang.render(tn("{n} point", "{n} points", points, n=signed(points)))
        score_w = canvas.text((width - MARGIN - 6, y), score, LABEL, PLUS if points > 0 else MINUS if points < 0
                              else colour, "ra")
        canvas.text((MARGIN + 38, y), fit(name, LABEL, width - 2 * MARGIN - 52 - score_w), LABEL, colour)
        y += LINE
    return canvas.png(describe_standings(picture))


def describe_standings(picture: StandingsPicture) -> str:
    """The standings picture in words, in its language: the title, then each place drawn."""
    lang = _lang(picture)
    L = lang.render
    head = L(t("Podium picture: {title}.", title=picture.title)) if picture.podium \
        else L(t("Standings picture: {title}.", title=picture.title))

    def row(place: int, name: str, points: int, won: int, out: bool) -> str:
        score = L(tn("{n} point", "{n} points", points, n=signed(points)))
        hands = L(tn("{n} hand won", "{n} hands won", won))
        words = L(t("{place}. {name}: {score}, {hands}", place=place, name=name, score=score, hands=hands))
        return words + (", " + L(t("out")) if out else "")

    listed = "; ".join(row(*r) for r in picture.rows[:STANDING_ROWS])
    return _within([head, listed + "." if listed else L(t("Nobody has played yet."))])


# ---------------------------------------------------------------------------- in words (alt text)

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description (MessageAttachmentRequest.description)."""


def card_words(card: Card, lang: i18n.Lang = i18n.ENGLISH) -> str:
    """A card as a screen reader should say it: "10 of hearts", "queen of spades", "joker 2"."""
    return card.name if lang is i18n.ENGLISH else lang.value(card)


def cards_words(cards, wild=(), lang: i18n.Lang = i18n.ENGLISH) -> str:
    stands = dict(wild)
    if lang is i18n.ENGLISH:
        return ", ".join(card_words(c) + (f" as {card_words(stands[c])}" if c in stands else "") for c in cards)
    return lang.series([lang.render(tc("card", "{wild} as {card}", wild=c, card=stands[c])) if c in stands
                        else card_words(c, lang) for c in cards])


_CARD_IN_TEXT = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9AJQK])([♠♥♦♣])\ufe0e?")


def cards_in_words(text: str) -> str:
    """`text` with every card written with its suit symbol ("10♥", which screen readers say as "10
    black heart suit") in words ("10 of hearts"), and any other suit symbol as its suit's name."""
    text = _CARD_IN_TEXT.sub(lambda m: Card.parse(m.group(1) + SUIT_OF_SYMBOL[m.group(2)].value).name, text)
    return re.sub(r" ?([♠♥♦♣])\ufe0e?", lambda m: f" {SUIT_WORDS[SUIT_OF_SYMBOL[m.group(1)]]}", text)


def spoken(text: str) -> str:
    """Text as a screen reader should meet it: cards in words, the middle dots as commas."""
    return cards_in_words(text).replace(" · ", ", ").strip()


def _within(parts: list[str], limit: int = ALT_LIMIT) -> str:
    """Sentences joined, cut at a word with an ellipsis if they pass Discord's limit."""
    text = " ".join(p for p in parts if p)
    if len(text) <= limit:
        return text
    return text[:limit - 1].rsplit(" ", 1)[0] + "…"


def describe_table(picture: TablePicture) -> str:
    """The table picture in words, in the picture's language: each seat (total, dealer, notes, a
    shown hand by card names), the numbered spreads with their owners and cards, the piles."""
    lang = _lang(picture)
    L = lang.render
    seats = []
    for seat in picture.seats:
        bits = [seat.name]
        if seat.total is not None:
            bits.append(L(t("total {total}", total=signed(seat.total))))
        if seat.is_dealer:
            bits.append(L(t("dealer")))
        if seat.cards_in_hand is not None and seat.shown is None:
            bits.append(_cards(seat.cards_in_hand, lang))
        if seat.shown is not None:
            shown_count = seat.count if seat.count is not None else count(seat.shown)
            bits.append(L(t("shows {cards}, count {count}", cards=cards_words(seat.shown, lang=lang), count=shown_count))
                        if seat.shown else L(t("no cards")))
        bits += _notes(seat, lang)
        seats.append(", ".join(bits))
    showdown = any(s.shown is not None for s in picture.seats)
    title = spoken(picture.title) if lang is i18n.ENGLISH else picture.title.replace(" · ", ", ").strip()
    if title:
        head = t("Showdown picture: {title}.", title=title) if showdown else t("Table picture: {title}.", title=title)
    else:
        head = t("Showdown picture.") if showdown else t("Table picture.")
    parts = [L(head), L(t("Seats: {seats}.", seats="; ".join(seats)))]
    if picture.spreads:
        def words(s: SpreadPicture) -> str:
            return spread_name(s.cards, s.wild) if lang is i18n.ENGLISH else cards_words(s.cards, s.wild, lang)

        def spread(i: int, s: SpreadPicture) -> str:
            return L(t("spread {n} of {owner}: {cards}", n=i, owner=s.owner, cards=words(s)))

        listed = "; ".join(spread(i, s) for i, s in enumerate(picture.spreads, 1))
        parts.append(L(t("Spreads: {spreads}.", spreads=listed)))
    else:
        parts.append(L(t("No spreads yet.")))
    if picture.stock is not None:
        top = card_words(picture.discard_top, lang) if picture.discard_top else L(t("empty"))
        stock = _cards(picture.stock, lang) if picture.stock else L(t("empty"))
        parts.append(L(t("Discard: {card}.", card=top)) + " " + L(t("Stock: {stock}.", stock=stock)))
    return _within(parts)


def describe_hand(picture: HandPicture) -> str:
    """A private hand in words, in the picture's language: its cards by name, in the picture's
    order, the one just drawn, the count."""
    lang = _lang(picture)
    L = lang.render
    shown_count = picture.count if picture.count is not None else count(picture.cards)
    title = spoken(picture.title) if lang is i18n.ENGLISH else picture.title.replace(" · ", ", ").strip()
    if lang is i18n.ENGLISH and title.lower().startswith("your hand"):
        head = title + "."
    else:
        head = L(t("Your hand: {title}.", title=title)) if title else L(t("Your hand."))
    n = len(picture.cards)
    parts = [head,
             (L(tn("{n} card: {cards}.", "{n} cards: {cards}.", n, cards=cards_words(picture.cards, lang=lang)))
              if picture.cards else L(t("No cards in hand."))),
             L(t("Count {count}.", count=shown_count))]
    if picture.drawn is not None and picture.drawn in picture.cards:
        parts.append(L(t("Just drawn: {card}.", card=card_words(picture.drawn, lang))))
    if picture.discard_top is not None:
        parts.append(L(t("Discard: {card}.", card=card_words(picture.discard_top, lang))))
    if picture.stock is not None:
        parts.append(L(t("Stock: {stock}.", stock=_cards(picture.stock, lang) if picture.stock else L(t("empty")))))
    return _within(parts)


def clear_cache() -> None:
    """Forget every cached picture (the benchmark measures cold renders with it)."""
    _render_standings_cached.cache_clear()
    _render_table_cached.cache_clear()
    _render_hand_cached.cache_clear()


def clear_text() -> None:
    """Forget every text drawn (after the font chain changed: tests that remove a font)."""
    clear_cache()
    _text_stamp.cache_clear()
    text_width.cache_clear()


# ---------------------------------------------------------------------------- from the engine

def table_picture_from_view(view: SeatView, *, totals=None, away=(), title: str = "", lang: str = "") -> TablePicture:
    """The public table of a `SeatView`: its own hand is never read, so any seat's view
    gives the same picture (hands appear only at the showdown, when they are public)."""
    showdown = view.showdown
    outcome = view.outcome

    words = i18n.lang(lang or None)

    def note(s: int) -> str:
        if outcome is not None:
            return words.render(t("dropped")) if outcome.dropper == s else ""
        return words.render(t("waiting {n}", n=view.waits[s])) if view.rules.waiting and view.waits[s] else ""

    seats = tuple(
        SeatPicture(
            name=name,
            cards_in_hand=view.hand_sizes[s],
            total=None if totals is None else totals[s],
            is_turn=view.outcome is None and view.turn == s,
            is_away=s in away,
            is_dealer=view.dealer == s,
            note=note(s),
            shown=None if showdown is None else tuple(showdown[s]),
            count=None if outcome is None else outcome.counts[s],
            is_winner=outcome is not None and s in outcome.winners,
        )
        for s, name in enumerate(view.players)
    )
    spreads = tuple(SpreadPicture(view.players[sp.owner], tuple(sp.cards), tuple(sp.named)) for sp in view.spreads)
    return TablePicture(seats, spreads, view.discard_top, view.stock_size, title, lang)


def hand_picture_from_view(view: SeatView, *, drawn: Card | None = None, order=None,
                           show_discard: bool = True, title: str = "", lang: str = "") -> HandPicture:
    """The viewer's own hand: `order` (a list of its cards) fixes the order the menus use,
    `drawn` marks the card just drawn."""
    cards = tuple(order) if order is not None else view.hand
    assert sorted(c.index for c in cards) == sorted(c.index for c in view.hand), "order must be the hand"
    return HandPicture(
        cards=cards,
        drawn=drawn if drawn in view.hand else None,
        discard_top=view.discard_top if show_discard else None,
        count=view.count,
        stock=view.stock_size if show_discard else None,
        title=title,
        lang=lang,
    )


def warm() -> None:
    """Load the fonts (logging which are missing), draw every card at every size the pictures
    use, and fit the palette (about a second, once): call it at start-up so no player waits for it."""
    for line in fonts.report():
        log.info(line)
    advice = fonts.advice()
    if advice is not None:  # one line for the host: what is missing, how it shows, what to install
        log.warning(advice)
    for size in (*HAND_CARDS, PILE_CARD, SPREAD_CARD, SHOWN_CARD):
        for card in EVERY_CARD:
            card_image(card, size)
    for size in (PILE_CARD, MINI_BACK):
        back_image(size)
    _palette()
    # and one picture of each kind, so that the fonts at every size and the texts every picture
    # shares are ready too: a cost of the process, not of its first tables
    cards, names, spreads = EVERY_CARD[:5], ("North", "South"), (SpreadPicture("North", EVERY_CARD[:3]),)
    showdown = tuple(SeatPicture(name, total=0, is_dealer=i == 0, shown=cards, count=count(cards), note="dropped",
                                 is_winner=i == 1) for i, name in enumerate(names))
    in_play = tuple(SeatPicture(name, cards_in_hand=5, total=0, is_turn=i == 0) for i, name in enumerate(names))
    _render_table_cached.__wrapped__(TablePicture(showdown, spreads, stock=None, title="Hand 1"))
    _render_table_cached.__wrapped__(TablePicture(in_play, spreads, cards[3], 20, "Hand 1"))
    _render_hand_cached.__wrapped__(HandPicture(cards, cards[2], cards[4], count(cards), 20))
    for font in fonts.every_font():  # every font's face (each regional CJK face too) at the sizes text is drawn in
        for size in (LABEL, NAME):
            fonts.face(font, size)
    fonts.han_variants()  # the simplified and traditional characters that choose a Chinese name's face
    fonts.levels("\u05d0")  # and fribidi, loaded
