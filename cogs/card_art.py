"""Card art drawn by the project with Pillow: faces, jokers and backs, in red and black.

Nothing is read from disk: suits are drawn as shapes and ranks use Pillow's built-in
scalable font (Pillow >= 10.1), so cards look the same on every host. (Names and other text
in the pictures go through cogs/fonts.py's chain of fonts.) Each piece is drawn once at three
times its size and scaled down (smooth edges), then cached per card and width, so
laying out a picture only pastes finished cards.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card, Suit

SUPERSAMPLE = 3
CARD_RATIO = 1.4  # height / width, like a poker card
RED = (200, 16, 46)
BLACK = (26, 26, 30)
JOKER_COLOURS = {1: (200, 16, 46), 2: (26, 26, 30), 3: (46, 90, 190), 4: (120, 40, 150)}
FACE = (253, 252, 246)
EDGE = (150, 150, 140)
BACK = (140, 28, 44)
BACK_LINES = (182, 62, 76)
BACK_FRAME = (244, 236, 220)

def card_size(width: int) -> tuple[int, int]:
    return width, round(width * CARD_RATIO)


def suit_colour(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return JOKER_COLOURS[card.joker]
    return RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own scalable font (Aileron) for ranks; nothing read from the system."""
    return ImageFont.load_default(size=max(6, size))  # type: ignore[return-value]


# ---------------------------------------------------------------------------- suit shapes

def _draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, x: float, y: float, s: float) -> None:
    """A suit symbol of size `s` (its width) with its top-left at (x, y), in fill 255."""
    r = s * 0.27
    if suit is Suit.DIAMONDS:
        draw.polygon([(x + s / 2, y), (x + s * 0.9, y + s / 2), (x + s / 2, y + s), (x + s * 0.1, y + s / 2)],
                     fill=255)
    elif suit is Suit.HEARTS:
        draw.ellipse([x, y + s * 0.05, x + 2 * r, y + s * 0.05 + 2 * r], fill=255)
        draw.ellipse([x + s - 2 * r, y + s * 0.05, x + s, y + s * 0.05 + 2 * r], fill=255)
        draw.polygon([(x + s * 0.015, y + s * 0.38), (x + s * 0.985, y + s * 0.38), (x + s / 2, y + s * 0.98),
                      ], fill=255)
        draw.polygon([(x + s * 0.3, y + s * 0.2), (x + s * 0.7, y + s * 0.2), (x + s / 2, y + s * 0.5)],
                     fill=255)
    elif suit is Suit.SPADES:
        draw.polygon([(x + s / 2, y), (x + s * 0.985, y + s * 0.52), (x + s * 0.015, y + s * 0.52)], fill=255)
        draw.ellipse([x, y + s * 0.78 - 2 * r, x + 2 * r, y + s * 0.78], fill=255)
        draw.ellipse([x + s - 2 * r, y + s * 0.78 - 2 * r, x + s, y + s * 0.78], fill=255)
        draw.polygon([(x + s / 2, y + s * 0.55), (x + s * 0.66, y + s), (x + s * 0.34, y + s)], fill=255)
    else:  # clubs
        c = s * 0.25
        for cx, cy in ((s / 2, c), (c, s * 0.56), (s - c, s * 0.56)):
            draw.ellipse([x + cx - c, y + cy - c, x + cx + c, y + cy + c], fill=255)
        draw.rectangle([x + s * 0.44, y + s * 0.3, x + s * 0.56, y + s * 0.7], fill=255)
        draw.polygon([(x + s / 2, y + s * 0.5), (x + s * 0.68, y + s), (x + s * 0.32, y + s)], fill=255)


def _draw_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill) -> None:
    import math

    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.42
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=fill)


@lru_cache(maxsize=64)
def suit_mask(suit: Suit, size: int) -> Image.Image:
    """An anti-aliased mask ("L") of one suit symbol, `size` pixels square."""
    big = size * 4
    mask = Image.new("L", (big, big), 0)
    _draw_suit(ImageDraw.Draw(mask), suit, 0, 0, big)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------------- whole cards

def _blank(width: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    w, h = card_size(width)
    W, H = w * SUPERSAMPLE, h * SUPERSAMPLE
    image = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image), W, H


def _finish(image: Image.Image, width: int) -> Image.Image:
    return image.resize(card_size(width), Image.Resampling.LANCZOS)


def _outline(draw: ImageDraw.ImageDraw, W: int, H: int, fill) -> None:
    radius = round(W * 0.09)
    draw.rounded_rectangle([0, 0, W - 1, H - 1], radius=radius, fill=fill, outline=EDGE,
                           width=max(2, SUPERSAMPLE))


# The corner index, as fractions of the card's width: large enough that a card 52 px wide
# shown at four fifths of its size (a 400 px picture on a 320 px phone screen) still has a
# rank and a suit over 10 px tall; a fan of cards shows each card's left strip of INDEX_WIDTH.
RANK_SIZE = 0.37  # the rank's font size (its capitals are about 0.27 of the width tall)
PIP_SIZE = 0.28  # the suit under it
INDEX_WIDTH = 0.38  # the strip the index takes


def _rank_art(text: str, size: int, width: int, colour) -> Image.Image:
    """A rank in the card's font, squeezed sideways when wider than `width` ("10")."""
    f = font(size)
    left, top, right, bottom = f.getbbox(text, anchor="ls")
    art = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(art).text((1 - left, 1 - top), text, font=f, fill=colour, anchor="ls")
    if art.width > width:
        art = art.resize((width, art.height), Image.Resampling.LANCZOS)
    return art


def _index(image: Image.Image, card: Card, W: int, H: int) -> None:
    """The corner index (rank over suit; a joker's star over its number) top left and, upside
    down, bottom right."""
    colour = suit_colour(card)
    pip = round(W * PIP_SIZE)
    corner = Image.new("RGBA", (round(W * INDEX_WIDTH), round(W * 0.7)), (0, 0, 0, 0))
    cx = corner.width / 2
    top = round(W * 0.05)
    if card.is_joker:  # a star fills less of its square than a suit: drawn larger
        size = round(W * 0.3)
        star = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        _draw_star(ImageDraw.Draw(star), size / 2, size / 2, size / 2, colour)
        corner.alpha_composite(star, (round(cx - size / 2), top - round(W * 0.02)))
        rank = _rank_art(str(card.joker), round(W * RANK_SIZE), corner.width - 2, colour)
        corner.alpha_composite(rank, (round(cx - rank.width / 2), top + size + round(W * 0.02)))
    else:
        rank = _rank_art(card.rank.code, round(W * RANK_SIZE), corner.width - 2, colour)  # type: ignore[union-attr]
        corner.alpha_composite(rank, (round(cx - rank.width / 2), top))
        mask = suit_mask(card.suit, pip)  # type: ignore[arg-type]
        corner.paste(Image.new("RGBA", mask.size, colour), (round(cx - pip / 2), top + rank.height + round(W * 0.04)),
                     mask)
    image.alpha_composite(corner, (round(W * 0.01), round(W * 0.015)))
    flipped = corner.transpose(Image.Transpose.ROTATE_180)
    image.alpha_composite(flipped, (W - corner.width - round(W * 0.01), H - corner.height - round(W * 0.015)))


def _centre(image: Image.Image, card: Card, W: int, H: int) -> None:
    """One large symbol between the corners: the suit (larger on an ace), a court card's letter in
    a frame, a joker's star."""
    colour = suit_colour(card)
    draw = ImageDraw.Draw(image)
    if card.is_joker:
        _draw_star(draw, W / 2, H / 2, W * 0.2, colour)
        return
    rank = int(card.rank)  # type: ignore[arg-type]
    solid = Image.new("RGBA", (W, H), colour)
    if rank >= 11:
        left, top, right, bottom = W * 0.34, H * 0.3, W * 0.66, H * 0.7
        draw.rectangle([left, top, right, bottom], outline=colour, width=max(2, round(W * 0.02)))
        draw.text((W / 2, H * 0.42), card.rank.code, font=font(round(W * 0.26)), fill=colour,  # type: ignore
                  anchor="mm")
        size = round(W * 0.14)
        image.paste(solid.crop((0, 0, size, size)), (round((W - size) / 2), round(H * 0.53)),
                    suit_mask(card.suit, size))  # type: ignore[arg-type]
        return
    size = round(W * (0.4 if rank == 1 else 0.3))
    image.paste(solid.crop((0, 0, size, size)), (round((W - size) / 2), round((H - size) / 2)),
                suit_mask(card.suit, size))  # type: ignore[arg-type]


@lru_cache(maxsize=512)
def card_image(card: Card, width: int) -> Image.Image:
    """The face of `card`, `width` pixels wide (RGBA, rounded corners transparent)."""
    image, draw, W, H = _blank(width)
    _outline(draw, W, H, FACE)
    _index(image, card, W, H)
    _centre(image, card, W, H)
    return _finish(image, width)


@lru_cache(maxsize=16)
def back_image(width: int) -> Image.Image:
    """The back every hidden card shows: a red lattice in a cream frame."""
    image, draw, W, H = _blank(width)
    _outline(draw, W, H, BACK_FRAME)
    inset = round(W * 0.08)
    draw.rounded_rectangle([inset, inset, W - inset, H - inset], radius=round(W * 0.05), fill=BACK)
    step = max(6, round(W * 0.12))
    line = max(1, round(W * 0.02))
    for offset in range(-H, W + H, step):
        draw.line([(inset + offset, inset), (inset + offset + H, inset + H)], fill=BACK_LINES, width=line)
        draw.line([(inset + offset, H - inset), (inset + offset + H, H - inset - H)], fill=BACK_LINES, width=line)
    # Cover the lattice that ran past the inner panel with the frame again.
    frame = Image.new("L", (W, H), 0)
    ImageDraw.Draw(frame).rounded_rectangle([inset, inset, W - inset, H - inset], radius=round(W * 0.05), fill=255)
    plain, plain_draw, _, _ = _blank(width)
    _outline(plain_draw, W, H, BACK_FRAME)
    plain.paste(image, (0, 0), frame)
    _draw_star(ImageDraw.Draw(plain), W / 2, H / 2, W * 0.16, BACK_FRAME)
    return _finish(plain, width)
