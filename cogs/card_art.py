"""Card art drawn by the project with Pillow: faces, jokers and backs, in red and black.

Nothing is downloaded or read from disk: suits are drawn as shapes and text uses
Pillow's built-in scalable font (Pillow >= 10.1). Each piece is drawn once at three
times its size and scaled down (smooth edges), then cached per card and width, so
laying out a picture only pastes finished cards.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card, Rank, Suit

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

# Pip places on the card's inner field, (x, y) as fractions of the card (lower ones upside down).
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.2), (0.5, 0.8)),
    3: ((0.5, 0.2), (0.5, 0.5), (0.5, 0.8)),
    4: ((0.36, 0.2), (0.64, 0.2), (0.36, 0.8), (0.64, 0.8)),
    5: ((0.36, 0.2), (0.64, 0.2), (0.5, 0.5), (0.36, 0.8), (0.64, 0.8)),
    6: ((0.36, 0.2), (0.64, 0.2), (0.36, 0.5), (0.64, 0.5), (0.36, 0.8), (0.64, 0.8)),
    7: ((0.36, 0.2), (0.64, 0.2), (0.5, 0.35), (0.36, 0.5), (0.64, 0.5), (0.36, 0.8), (0.64, 0.8)),
    8: ((0.36, 0.2), (0.64, 0.2), (0.5, 0.35), (0.36, 0.5), (0.64, 0.5), (0.5, 0.65), (0.36, 0.8),
        (0.64, 0.8)),
    9: ((0.36, 0.2), (0.64, 0.2), (0.36, 0.4), (0.64, 0.4), (0.5, 0.5), (0.36, 0.6), (0.64, 0.6),
        (0.36, 0.8), (0.64, 0.8)),
    10: ((0.36, 0.2), (0.64, 0.2), (0.5, 0.3), (0.36, 0.4), (0.64, 0.4), (0.36, 0.6), (0.64, 0.6),
         (0.5, 0.7), (0.36, 0.8), (0.64, 0.8)),
}


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * CARD_RATIO)


def suit_colour(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return JOKER_COLOURS[card.joker]
    return RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's own scalable font (Aileron); nothing read from the system."""
    return ImageFont.load_default(size=max(6, size))  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether the built-in font draws `char` (it lacks most non-Latin letters and emoji)."""
    if char == " ":
        return True
    return _glyph_pixels(char) != _glyph_pixels("\uffff")


@lru_cache(maxsize=4096)
def _glyph_pixels(char: str) -> bytes:
    image = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(image).text((4, 4), char, font=font(24), fill=255)
    return image.tobytes()


def printable(text: str) -> str:
    """`text` in characters the font can draw: accents dropped where that helps (José
    becomes Jose), anything else the font lacks shown as '?' (never as boxes)."""
    out = []
    for char in text:
        if not has_glyph(char):
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            char = base if base and all(has_glyph(c) for c in base) else "?"
        out.append(char)
    return "".join(out)


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


def _index(image: Image.Image, card: Card, W: int, H: int) -> None:
    """The corner index (rank over suit) top left and, upside down, bottom right."""
    colour = suit_colour(card)
    size = round(W * 0.18)
    tall = 0.62 if card.is_joker else 0.52
    corner = Image.new("RGBA", (round(W * 0.25), round(W * tall)), (0, 0, 0, 0))
    d = ImageDraw.Draw(corner)
    cx = corner.width / 2
    if card.is_joker:
        text_font = font(round(W * 0.12))
        for i, letter in enumerate("JOKER"):
            d.text((cx, W * 0.04 + i * W * 0.115), letter, font=text_font, fill=colour, anchor="mt")
    else:
        rank_font = font(round(W * (0.3 if card.rank is not Rank.TEN else 0.25)))
        d.text((cx, W * 0.05), card.rank.code, font=rank_font, fill=colour, anchor="mt")  # type: ignore[union-attr]
        pip = suit_mask(card.suit, size)  # type: ignore[arg-type]
        corner.paste(Image.new("RGBA", pip.size, colour), (round(cx - size / 2), round(W * 0.32)), pip)
    image.alpha_composite(corner, (round(W * 0.01), round(W * 0.015)))
    flipped = corner.transpose(Image.Transpose.ROTATE_180)
    image.alpha_composite(flipped, (W - corner.width - round(W * 0.01), H - corner.height - round(W * 0.015)))


def _centre(image: Image.Image, card: Card, W: int, H: int) -> None:
    colour = suit_colour(card)
    draw = ImageDraw.Draw(image)
    if card.is_joker:
        _draw_star(draw, W / 2, H * 0.42, W * 0.3, colour)
        draw.text((W / 2, H * 0.74), str(card.joker), font=font(round(W * 0.22)), fill=colour, anchor="mm")
        return
    rank = int(card.rank)  # type: ignore[arg-type]
    solid = Image.new("RGBA", (W, H), colour)
    if rank == 1:
        size = round(W * 0.46)
        image.paste(solid.crop((0, 0, size, size)), (round((W - size) / 2), round((H - size) / 2)),
                    suit_mask(card.suit, size))  # type: ignore[arg-type]
        return
    if rank >= 11:
        # A court card: a frame in the suit's colour with the letter and a pip.
        left, top, right, bottom = W * 0.28, H * 0.18, W * 0.72, H * 0.82
        draw.rectangle([left, top, right, bottom], outline=colour, width=max(2, round(W * 0.025)))
        draw.text((W / 2, H * 0.4), card.rank.code, font=font(round(W * 0.36)), fill=colour,  # type: ignore
                  anchor="mm")
        size = round(W * 0.22)
        image.paste(solid.crop((0, 0, size, size)), (round((W - size) / 2), round(H * 0.6)),
                    suit_mask(card.suit, size))  # type: ignore[arg-type]
        return
    size = round(W * 0.16)
    upright = suit_mask(card.suit, size)  # type: ignore[arg-type]
    upside = upright.transpose(Image.Transpose.ROTATE_180)
    for fx, fy in _PIPS[rank]:
        mask = upside if fy > 0.55 else upright
        image.paste(solid.crop((0, 0, size, size)), (round(fx * W - size / 2), round(fy * H - size / 2)), mask)


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
