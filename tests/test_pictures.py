"""The table and hand pictures: their size, that each card drawn is the right one, and
that the table picture cannot show a card nobody may see."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

from cogs import pictures
from cogs.card_art import card_image
from cogs.pictures import (
    HandPicture,
    SeatPicture,
    SpreadPicture,
    TablePicture,
    hand_picture_from_view,
    render_hand,
    render_table,
    table_picture_from_view,
)
from engine import DRAW, Discard, Game, Rules
from engine.cards import Card, parse_cards
from engine.game import stacked_deck

ALL_CARDS = [Card.by_index(i) for i in range(56)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def decoded(picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG"
    assert image.size == (picture.width, picture.height)
    return image.convert("RGB")


def difference(image: Image.Image, box, card: Card, width: int, x: int, y: int) -> float:
    """Mean difference between `image` in `box` and the same part of `card`'s art drawn at (x, y)."""
    art = card_image(card, width)
    left, top, right, bottom = box
    part = art.crop((left - x, top - y, right - x, bottom - y)).convert("RGB")
    return sum(ImageStat.Stat(ImageChops.difference(image.crop(box), part)).mean) / 3


def check_every_card(picture) -> int:
    """Each face drawn matches its own art best among all 56 cards; returns how many."""
    image = decoded(picture)
    checked = 0
    for box in picture.boxes:
        if box.card is None:
            continue
        x0, y0, x1, y1 = box.visible
        inset = max(3, round(box.width * 0.1))
        inner = (x0 + 2, y0 + inset, x1 - 5, y1 - inset)  # past the rounded corners and any frame
        scores = {c: difference(image, inner, c, box.width, box.x, box.y) for c in ALL_CARDS}
        best = min(scores, key=scores.get)
        assert best is box.card, f"{box.card} at {box.visible} looks like {best}"
        assert scores[box.card] < 4, (box.card, scores[box.card])
        checked += 1
    return checked


def busy_table() -> TablePicture:
    seats = tuple(
        SeatPicture(f"Player {i + 1}", cards_in_hand=i + 1, total=i - 2, is_turn=i == 2, is_away=i == 4,
                    is_dealer=i == 0)
        for i in range(6)
    )
    spreads = (
        SpreadPicture("Player 1", cards("3h 4h 5h 6h 7h 8h")),
        SpreadPicture("Player 3", cards("Ks Kd Kh Kc")),
        SpreadPicture("Player 2", cards("As 2s 3s")),
        SpreadPicture("Player 6", cards("10d Jd Qd")),
    )
    return TablePicture(seats, spreads, discard_top=Card.parse("9c"), stock=17, title="Table 7")


def test_table_picture_is_a_small_png_at_discord_embed_width():
    picture = render_table(busy_table())
    image = decoded(picture)
    assert image.width == pictures.TABLE_WIDTH <= 800 and 300 <= image.height <= 900
    assert len(picture.png) < 100_000  # tens of kilobytes, far under Discord's 8 MB
    assert image.getpixel((200, image.height - 8))[1] > image.getpixel((200, image.height - 8))[0]  # green felt


def test_every_card_on_the_table_is_the_card_it_claims():
    picture = render_table(busy_table())
    drawn = [box.card for box in picture.boxes if box.card is not None]
    assert sorted(c.index for c in drawn) == sorted(
        c.index for c in cards("3h 4h 5h 6h 7h 8h Ks Kd Kh Kc As 2s 3s 10d Jd Qd 9c"))
    assert check_every_card(picture) == 17


def test_every_card_in_the_hand_is_drawn_in_the_hands_order_and_the_drawn_card_is_raised():
    hand = cards("Kd 2h X1 10c 7s 7h Ad")
    picture = render_hand(HandPicture(hand, drawn=Card.parse("10c"), discard_top=Card.parse("Qs"), stock=4))
    faces = [box for box in picture.boxes if box.card is not None]
    assert tuple(box.card for box in faces[:len(hand)]) == hand
    assert [box.x for box in faces[:len(hand)]] == sorted(box.x for box in faces[:len(hand)])
    assert faces[-1].card == Card.parse("Qs")  # the discard, beside the hand
    raised = {box.card for box in faces[:len(hand)] if box.y < max(b.y for b in faces[:len(hand)])}
    assert raised == {Card.parse("10c")}
    assert check_every_card(picture) == len(hand) + 1
    assert picture.width <= 800


def test_red_suits_are_red_and_black_suits_black():
    def ink(card: Card) -> tuple[float, float]:
        data = card_image(card, 96).convert("RGB").tobytes()
        pixels = [p for p in zip(data[0::3], data[1::3], data[2::3]) if max(p) - min(p) > 80 or max(p) < 90]
        reds = sum(1 for r, g, b in pixels if r > 150 and g < 80)
        return reds, len(pixels) - reds

    for text in ("7h", "7d"):
        red, dark = ink(Card.parse(text))
        assert red > 5 * dark
    for text in ("7s", "7c"):
        red, dark = ink(Card.parse(text))
        assert dark > 5 * red


def test_jokers_and_every_card_have_art_of_their_own():
    images = {c: card_image(c, 60).tobytes() for c in ALL_CARDS}
    assert len(set(images.values())) == len(ALL_CARDS)
    picture = render_hand(HandPicture(cards("X1 X2 5c")))
    assert check_every_card(picture) == 3


def deal(hands: list[str]) -> Game:
    rules = Rules()
    deck = stacked_deck(rules, 0, [list(cards(h)) for h in hands], upcard=Card.parse("Kc"),
                        stock=list(cards("Qh")))
    return Game.deal(rules, ["Ann", "Bob"], 0, deck=deck)


def test_table_picture_shows_no_hidden_card():
    # Two deals that differ only in what the players hold: the table pictures are the same bytes.
    one = deal(["As 2s 3s 4s 5d", "9h 9d 8c 7c 6c"])
    two = deal(["Jd Js 4h 4c 2d", "3c 3d 5s 6s 8h"])
    for game in (one, two):
        game.apply(1, DRAW)  # a hidden card from the stock...
        game.apply(1, Discard(Card.parse("Qh")))  # ...shown when it is thrown
    pictures_of = [render_table(table_picture_from_view(g.view(seat))) for g in (one, two) for seat in (0, 1)]
    assert len({p.png for p in pictures_of}) == 1
    shown = {box.card for box in pictures_of[0].boxes if box.card is not None}
    assert shown == {Card.parse("Qh")}
    backs = [box for box in pictures_of[0].boxes if box.card is None]
    assert len(backs) == 5 + 5 + 3  # the two hands as backs, and the stock's stack
    # By construction the picture has no field for a hidden hand: only counts.
    seat = table_picture_from_view(one.view(0)).seats[0]
    assert seat.cards_in_hand == 5 and seat.shown is None


def test_hands_are_shown_on_the_table_only_at_the_showdown():
    game = deal(["As 2s 3s 4s 5d", "9h 9d 8c 7c 6c"])
    from engine import Drop

    game.apply(1, Drop())
    picture = render_table(table_picture_from_view(game.view(0), totals=game.outcome.payments))
    seats = table_picture_from_view(game.view(0)).seats
    assert all(s.shown is not None for s in seats)
    assert [s.count for s in seats] == list(game.outcome.counts)
    assert [s.is_winner for s in seats] == [s in game.outcome.winners for s in range(2)]
    assert seats[1].note == "dropped" and seats[0].note == ""
    faces = sorted(box.card.index for box in picture.boxes if box.card is not None)
    assert faces == sorted(c.index for c in cards("As 2s 3s 4s 5d 9h 9d 8c 7c 6c Kc"))
    assert check_every_card(picture) == 11


def test_hand_picture_from_a_seat_view_uses_the_menus_order_and_marks_the_draw():
    game = deal(["As 2s 3s 4s 5d", "9h 9d 8c 7c 6c"])
    game.apply(1, DRAW)
    view = game.view(1)
    order = sorted(view.hand, key=lambda c: -c.sort_key[0])
    picture = hand_picture_from_view(view, drawn=Card.parse("Qh"), order=order)
    assert picture.cards == tuple(order) and picture.drawn == Card.parse("Qh")
    assert picture.discard_top == Card.parse("Kc") and picture.count == 49
    rendered = render_hand(picture)
    assert check_every_card(rendered) == 7


def test_pictures_are_cached_per_state():
    table = busy_table()
    first = render_table(table)
    assert render_table(busy_table()) is first  # an equal state costs nothing
    as_lists = TablePicture(list(table.seats), [SpreadPicture(s.owner, list(s.cards)) for s in table.spreads],
                            table.discard_top, table.stock, table.title)
    assert render_table(as_lists) is first  # lists from the caller are keyed like tuples
    hand = render_hand(HandPicture(cards("As 2s")))
    assert render_hand(HandPicture(list(cards("As 2s")))) is hand
    other = render_table(TablePicture(table.seats, table.spreads, table.discard_top, 16, table.title))
    assert other.png != first.png


def test_spreads_are_numbered_in_the_picture_as_the_controls_name_them():
    seats = (SeatPicture("Ann", 5), SeatPicture("Bob", 5))
    spreads = (SpreadPicture("Ann", cards("4s 5s 6s")), SpreadPicture("Bob", cards("9h 9d 9c")))
    picture = render_table(TablePicture(seats, spreads, stock=None))
    texts = picture.texts
    pairs = {(a.text, b.text) for a, b in zip(texts, texts[1:])
             if a.box[2] < b.box[0] and abs(a.box[1] - b.box[1]) < 6}  # a number just left of a name
    assert {("1", "Ann"), ("2", "Bob")} <= pairs
    assert "spread 1 of Ann: 4, 5, 6 of spades" in picture.alt
    assert "spread 2 of Bob: 9 of hearts, 9 of diamonds, 9 of clubs" in picture.alt


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_table_size_fits(n):
    seats = tuple(SeatPicture(f"A rather long player name number {i}", 7, total=0) for i in range(n))
    picture = render_table(TablePicture(seats, discard_top=None, stock=0))
    image = decoded(picture)
    assert image.width == pictures.TABLE_WIDTH
    assert all(0 <= b.x and b.x + b.width <= image.width and b.visible[3] <= image.height for b in picture.boxes)
    assert sum(1 for box in picture.boxes if box.card is None) == 7 * n  # no stock left to stack


def test_suits_in_text_are_drawn_not_replaced():
    seats = (SeatPicture("Ann", 5), SeatPicture("Bob", 5))
    titles = ["You drew 7♥", "You drew 7♦", "You drew 7♠", "You drew 7?"]
    rendered = {render_table(TablePicture(seats, stock=30, title=t)).png for t in titles}
    assert len(rendered) == 4


def test_a_wild_card_in_a_spread_says_what_it_stands_for():
    seats = (SeatPicture("Ann", 5), SeatPicture("Bob", 5))
    plain = SpreadPicture("Ann", cards("4s X1 6s"))
    wild = SpreadPicture("Ann", cards("4s X1 6s"), wild=((Card.parse("X1"), Card.parse("5s")),))
    without = render_table(TablePicture(seats, (plain,), stock=30))
    with_tag = render_table(TablePicture(seats, (wild,), stock=30))
    assert with_tag.png != without.png and with_tag.height > without.height
    assert [b.card for b in with_tag.boxes if b.card] == list(cards("4s X1 6s"))
    assert check_every_card(with_tag) == 3
