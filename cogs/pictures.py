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
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import MAX_JOKERS, Card, Suit, count
from engine.view import SeatView

from cogs.card_art import back_image, card_image, card_size, font, printable, suit_mask

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
TABLE_WIDTH = 640  # Discord shows pictures 400-550 px wide: keep the cards large in it
MARGIN = 16
CACHE_SIZE = 8
"""Pictures kept of each kind. The live table code keeps what each message shows and sends no
picture that did not change, so a cache serves only a picture shown again soon (a hand opened
again): at 200 tables 32 were replaced within seconds, and held half a megabyte of PNGs."""
STAMPS = 256
"""Text stamps kept: 2048 held about 3 KiB of name stamps for each of 200 tables, half the memory a
table cost the bot, for about a tenth of a millisecond saved each time a table's picture changes."""
EVERY_CARD = tuple(Card.by_index(i) for i in range(52 + MAX_JOKERS))
SUIT_OF_SYMBOL = {suit.symbol: suit for suit in Suit}


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
class Picture:
    png: bytes
    width: int
    height: int
    boxes: tuple[CardBox, ...] = field(repr=False)


class _Canvas:
    """A felt image that remembers where it put each card."""

    def __init__(self, width: int, height: int):
        self.image = Image.new("RGB", (width, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.boxes: list[CardBox] = []
        self.draw.rounded_rectangle([2, 2, width - 3, height - 3], radius=18, outline=FELT_EDGE, width=4)

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

    def text(self, xy, text: str, size: int, fill=TEXT, anchor: str = "la") -> None:
        stamp, dx, dy = _text_stamp(text, size, fill, anchor)
        if stamp is not None:
            at = (round(xy[0]) + dx, round(xy[1]) + dy)
            if stamp.mode == "L":  # one colour: the stamp is how much of it covers each pixel
                self.image.paste(fill, at + (at[0] + stamp.width, at[1] + stamp.height), stamp)
            else:
                self.image.paste(stamp, at, stamp)

    def png(self) -> Picture:
        # A palette of 256 colours fitted once to the card art and the felt: the PNG is a
        # third of the RGB one's size and encodes several times faster, with no visible change.
        small = self.image.quantize(palette=_palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        small.save(out, "PNG", compress_level=3)
        return Picture(out.getvalue(), self.image.width, self.image.height, tuple(self.boxes))


@lru_cache(maxsize=STAMPS)
def _text_stamp(text: str, size: int, fill, anchor: str):
    """Text drawn once on a transparent stamp, with its offset from the anchor point
    (counts, card numbers and labels repeat from picture to picture). Suit symbols, which the
    font lacks, are drawn as the cards draw them: ♥ and ♦ in red, ♠ and ♣ in `fill`.

    Text of one colour (nearly all of it) is kept as an "L" mask of its coverage, a quarter of
    an RGBA stamp's bytes. Every table brings its players' names, so the cache is small
    (`STAMPS`): it keeps what every picture shares, and a name is drawn again when its table's
    picture changes, which is now and then (the channel's picture changes with the spreads).
    Text with a red suit in another colour stays RGBA."""
    pieces = _pieces(text)
    f = font(size)
    pip = round(size * 0.62)
    width = sum(pip + 2 if isinstance(p, Suit) else round(f.getlength(p)) for p in pieces)
    ascent, descent = f.getmetrics()
    if width <= 0:
        return None, 0, 0
    def colour_of(piece) -> tuple:
        return TEXT_RED if isinstance(piece, Suit) and piece in (Suit.HEARTS, Suit.DIAMONDS) else fill
    one_colour = all(colour_of(piece) == fill for piece in pieces)
    if one_colour:
        stamp = Image.new("L", (width, ascent + descent), 0)
    else:
        stamp = Image.new("RGBA", (width, ascent + descent), fill + (0,))
    draw = ImageDraw.Draw(stamp)
    x = 0
    for piece in pieces:
        if isinstance(piece, Suit):
            ink = 255 if one_colour else Image.new("RGBA", (pip, pip), colour_of(piece) + (255,))
            stamp.paste(ink, (x + 1, ascent - pip, x + 1 + pip, ascent), suit_mask(piece, pip))
            x += pip + 2
        else:
            draw.text((x, ascent), piece, font=f, fill=255 if one_colour else fill, anchor="ls")
            x += round(f.getlength(piece))
    # Place the stamp as Pillow would place the text for `anchor` (left/middle/right; top/middle/baseline/descender).
    horizontal, vertical = anchor[0], anchor[1]
    dx = {"l": 0, "m": -width // 2, "r": -width}[horizontal]
    dy = {"a": 0, "t": 0, "m": -(ascent + descent) // 2, "s": -ascent, "d": -(ascent + descent)}[vertical]
    return stamp, dx, dy


def _pieces(text: str) -> list:
    """`text` split into runs of printable text and the suits between them."""
    pieces: list = []
    run = ""
    for char in text:
        if char in SUIT_OF_SYMBOL:
            if run:
                pieces.append(printable(run))
                run = ""
            pieces.append(SUIT_OF_SYMBOL[char])
        else:
            run += char
    if run:
        pieces.append(printable(run))
    return pieces


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette every picture is reduced to: fitted to a sample holding every card's
    face (at the sizes the pictures use), the back, and the felt, panel and text colours."""
    cards = EVERY_CARD
    width = 40 + 13 * (HAND_CARD + 4)
    sample = _Canvas(width, 900)
    y = 10
    for size in (HAND_CARD, PILE_CARD, SPREAD_CARD, SHOWN_CARD):
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


def text_width(text: str, size: int) -> int:
    stamp, _, _ = _text_stamp(text, size, TEXT, "la")
    return 0 if stamp is None else stamp.width


def fit(text: str, size: int, width: int) -> str:
    """`text` shortened with an ellipsis to fit `width` pixels."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n) if n < 0 else "0"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ---------------------------------------------------------------------------- the table

SEAT_HEIGHT = 86
SEAT_SHOWN_HEIGHT = 116
SEAT_NAME_HEIGHT = 60  # a seat whose cards are not drawn: its name, total and a note line
SEAT_NAME_ONLY = 40  # and with no note at any seat: its name and total
MINI_BACK = 20
SHOWN_CARD = 46
PILE_CARD = 72
SPREAD_CARD = 60
SPREAD_STEP = 26


def _seat_columns(n: int) -> int:
    return n if n <= 3 else 2 if n == 4 else 3


def _draw_seat(canvas: _Canvas, seat: SeatPicture, x: int, y: int, w: int, h: int) -> None:
    lit = seat.is_turn or seat.is_winner
    canvas.draw.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=PANEL, outline=GOLD if lit else PANEL_EDGE,
                                  width=3 if lit else 1)
    right = x + w - 10
    if seat.total is not None:
        colour = PLUS if seat.total > 0 else MINUS if seat.total < 0 else TEXT
        canvas.text((right, y + 10), signed(seat.total), 20, colour, "ra")
        right -= text_width(signed(seat.total), 20) + 10
    name_x = x + 10
    if seat.is_dealer:
        canvas.draw.ellipse([name_x, y + 10, name_x + 20, y + 30], fill=TEXT)
        canvas.text((name_x + 10, y + 20), "D", 14, PANEL, "mm")
        name_x += 26
    canvas.text((name_x, y + 10), fit(seat.name, 20, right - name_x), 20, GOLD if lit else TEXT)
    row = y + 40
    if seat.shown is not None:
        room = w - 20 - SHOWN_CARD - 80  # leave room for the count
        step = min(26, room // max(1, len(seat.shown) - 1))
        end = canvas.fan(seat.shown, x + 10, row, SHOWN_CARD, step) if seat.shown else x + 10
        shown_count = seat.count if seat.count is not None else count(seat.shown)
        label = f"count {shown_count}" if seat.shown else "no cards"
        canvas.text((end + 10, row + 4), label, 16, MUTED)
        note_xy, note_anchor, note_room = (end + 10, row + 26), "la", x + w - 10 - (end + 10)  # beside the cards
    else:
        if seat.cards_in_hand is not None:
            shown = min(seat.cards_in_hand, 12)
            end = canvas.fan([None] * shown, x + 10, row, MINI_BACK, 9)
            canvas.text((end + 8, row + 6), plural(seat.cards_in_hand, "card"), 16, MUTED)
        note_xy, note_anchor, note_room = (x + w - 10, y + h - 8), "rd", w - 20
    notes = []
    if seat.is_turn:
        notes.append("to play")
    if seat.note:
        notes.append(seat.note)
    if seat.is_winner:
        notes.append("wins")
    if seat.is_away:
        notes.append("away")
    if notes and note_anchor == "la":  # beside a shown hand: one note a line, under the count
        for i, note in enumerate(notes):
            canvas.text((note_xy[0], note_xy[1] + 18 * i), fit(note, 15, note_room), 15, GOLD if lit else MUTED,
                        note_anchor)
    elif notes:
        canvas.text(note_xy, fit(" · ".join(notes), 15, note_room), 15, GOLD if lit else MUTED, note_anchor)


def _spread_rows(spreads, width: int) -> list[list[tuple[SpreadPicture, int]]]:
    """Spreads flowed into rows that fit `width`, each with its own drawn width."""
    rows: list[list[tuple[SpreadPicture, int]]] = [[]]
    used = 0
    for spread in spreads:
        w = SPREAD_CARD + SPREAD_STEP * (len(spread.cards) - 1)
        w = max(w, 110)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((spread, w))
        used += w + 18
    return rows if rows[0] else []


def render_table(picture: TablePicture) -> Picture:
    return _render_table_cached(picture)


@lru_cache(maxsize=CACHE_SIZE)
def _render_table_cached(picture: TablePicture) -> Picture:
    width = TABLE_WIDTH
    n = len(picture.seats)
    columns = _seat_columns(max(n, 1))
    seat_rows = -(-n // columns)
    seat_h = (SEAT_SHOWN_HEIGHT if any(s.shown is not None for s in picture.seats) else
              SEAT_HEIGHT if any(s.cards_in_hand is not None for s in picture.seats) else
              SEAT_NAME_HEIGHT if any(s.note or s.is_away or s.is_turn for s in picture.seats) else SEAT_NAME_ONLY)
    top = MARGIN + (30 if picture.title else 0)
    seats_bottom = top + seat_rows * (seat_h + 10)
    piles = picture.stock is not None
    _, pile_h = card_size(PILE_CARD)
    spread_x = MARGIN + (2 * PILE_CARD + 34 + 24 if piles else 4)
    spread_w = width - spread_x - MARGIN
    rows = _spread_rows(picture.spreads, spread_w)
    _, spread_card_h = card_size(SPREAD_CARD)
    wild_h = 20 if any(spread.wild for spread in picture.spreads) else 0
    row_h = spread_card_h + 28 + wild_h
    middle_h = max(pile_h + 40 if piles else 0, 28 + len(rows) * row_h if rows else 60)
    height = seats_bottom + 8 + middle_h + MARGIN
    canvas = _Canvas(width, height)
    if picture.title:
        canvas.text((MARGIN + 4, MARGIN), fit(picture.title, 20, width - 2 * MARGIN), 20)

    seat_w = (width - 2 * MARGIN - (columns - 1) * 10) // columns
    for i, seat in enumerate(picture.seats):
        r, c = divmod(i, columns)
        _draw_seat(canvas, seat, MARGIN + c * (seat_w + 10), top + r * (seat_h + 10), seat_w, seat_h)

    y = seats_bottom + 8
    if piles:
        _draw_piles(canvas, picture, MARGIN + 4, y, pile_h)
        canvas.draw.line([(spread_x - 14, y + 4), (spread_x - 14, y + middle_h - 8)], fill=PANEL_EDGE, width=2)
    # The spreads, each under its owner's name.
    if not rows:
        canvas.text((spread_x, y + 30), "No spreads yet", 18, MUTED)
    for r, row in enumerate(rows):
        sx = spread_x
        sy = y + r * row_h
        for spread, w in row:
            canvas.text((sx, sy), fit(spread.owner, 15, w), 15, MUTED)
            canvas.fan(spread.cards, sx, sy + 22, SPREAD_CARD, SPREAD_STEP)
            stands = dict(spread.wild)
            for i, card in enumerate(spread.cards):
                if card in stands:  # under the wild card: what it stands for
                    canvas.text((sx + i * SPREAD_STEP + 2, sy + 24 + spread_card_h), f"={stands[card].label}", 14)
            sx += w + 18
    return canvas.png()


def _draw_piles(canvas: _Canvas, picture: TablePicture, x: int, y: int, pile_h: int) -> None:
    """The stock (a small stack of backs) and the discard pile's top card."""
    assert picture.stock is not None
    canvas.text((x + PILE_CARD / 2 + 3, y), "Stock", 16, MUTED, "ma")
    layers = min(3, picture.stock)
    for i in range(layers):
        canvas.card(None, x + 6 - 3 * i, y + 26 - 3 * i + 4, PILE_CARD)
    if not layers:
        canvas.draw.rounded_rectangle([x, y + 24, x + PILE_CARD, y + 24 + pile_h], radius=7, outline=PANEL_EDGE,
                                      width=2)
    stock = plural(picture.stock, "card") if picture.stock else "empty"
    canvas.text((x + PILE_CARD / 2 + 3, y + 30 + pile_h), stock, 16, TEXT, "ma")
    x += PILE_CARD + 34
    canvas.text((x + PILE_CARD / 2, y), "Discard", 16, MUTED, "ma")
    if picture.discard_top is not None:
        canvas.card(picture.discard_top, x, y + 24, PILE_CARD)
    else:
        canvas.draw.rounded_rectangle([x, y + 24, x + PILE_CARD, y + 24 + pile_h], radius=7, outline=PANEL_EDGE,
                                      width=2)
        canvas.text((x + PILE_CARD / 2, y + 24 + pile_h / 2), "empty", 15, MUTED, "mm")


# ---------------------------------------------------------------------------- a private hand

HAND_CARD = 96
HAND_MAX_WIDTH = 800
RAISE = 16


def render_hand(picture: HandPicture) -> Picture:
    return _render_hand_cached(picture)


@lru_cache(maxsize=CACHE_SIZE)
def _render_hand_cached(picture: HandPicture) -> Picture:
    card_w, card_h = card_size(HAND_CARD)
    side = PILE_CARD + 60 if picture.discard_top is not None or picture.stock is not None else 0
    n = len(picture.cards)
    room = HAND_MAX_WIDTH - 2 * MARGIN - side - 8
    gap = 10
    if n > 1 and n * card_w + (n - 1) * gap > room:
        step = (room - card_w) // (n - 1)
    else:
        step = card_w + gap
    cards_w = card_w + step * (n - 1) if n else 200
    width = MARGIN * 2 + 8 + cards_w + side
    width = max(width, 360)
    top = MARGIN + 30 + 20 + RAISE
    height = top + card_h + 40
    canvas = _Canvas(width, height)
    shown_count = picture.count if picture.count is not None else count(picture.cards)
    count_text = f"count {shown_count}"
    canvas.text((width - MARGIN - 4, MARGIN), count_text, 20, TEXT, "ra")
    if picture.title:
        room = width - 2 * MARGIN - 24 - text_width(count_text, 20)
        canvas.text((MARGIN + 4, MARGIN), fit(picture.title, 20, room), 20)
    x0 = MARGIN + 8
    if not n:
        canvas.text((x0, top + card_h / 2), "No cards in hand", 20, MUTED, "lm")
    drawn_at = picture.cards.index(picture.drawn) if picture.drawn in picture.cards else None
    for i, card in enumerate(picture.cards):
        x = x0 + i * step
        y = top - RAISE if i == drawn_at else top
        if i == drawn_at:
            canvas.draw.rounded_rectangle([x - 4, y - 4, x + card_w + 3, y + card_h + 3], radius=12, fill=GOLD)
            canvas.text((x + card_w / 2, y - 8), "drawn", 16, GOLD, "md")
        visible = None if i == n - 1 or step >= card_w else step
        canvas.card(card, x, y, HAND_CARD, visible)
        label_x = x + (min(step, card_w) / 2 if step < card_w else card_w / 2)
        canvas.text((label_x, top + card_h + 8), str(i + 1), 16, MUTED, "ma")
    if side:
        sx = width - MARGIN - side + 30
        canvas.draw.line([(sx - 14, top - RAISE), (sx - 14, top + card_h)], fill=PANEL_EDGE, width=2)
        pile_h = card_size(PILE_CARD)[1]
        if picture.discard_top is not None:
            canvas.text((sx + PILE_CARD / 2, top - RAISE), "Discard", 16, MUTED, "ma")
            canvas.card(picture.discard_top, sx, top - RAISE + 22, PILE_CARD)
        if picture.stock is not None:
            stock = f"stock {picture.stock}" if picture.stock else "stock empty"
            canvas.text((sx + PILE_CARD / 2, top - RAISE + 30 + pile_h), stock, 16, MUTED, "ma")
    return canvas.png()


def clear_cache() -> None:
    """Forget every cached picture (the benchmark measures cold renders with it)."""
    _render_table_cached.cache_clear()
    _render_hand_cached.cache_clear()


# ---------------------------------------------------------------------------- from the engine

def table_picture_from_view(view: SeatView, *, totals=None, away=(), title: str = "") -> TablePicture:
    """The public table of a `SeatView`: its own hand is never read, so any seat's view
    gives the same picture (hands appear only at the showdown, when they are public)."""
    showdown = view.showdown
    outcome = view.outcome

    def note(s: int) -> str:
        if outcome is not None:
            return "dropped" if outcome.dropper == s else ""
        return f"waiting {view.waits[s]}" if view.rules.waiting and view.waits[s] else ""

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
    spreads = tuple(SpreadPicture(view.players[sp.owner], tuple(sp.cards)) for sp in view.spreads)
    return TablePicture(seats, spreads, view.discard_top, view.stock_size, title)


def hand_picture_from_view(view: SeatView, *, drawn: Card | None = None, order=None,
                           show_discard: bool = True, title: str = "") -> HandPicture:
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
    )


def warm() -> None:
    """Draw every card at every size the pictures use, and fit the palette (about half a
    second, once): call it at start-up so no player waits for it."""
    for size in (HAND_CARD, PILE_CARD, SPREAD_CARD, SHOWN_CARD):
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
