"""Names in every script drawn as written (no '?', no empty box), shortened at a grapheme,
and every picture described in words within Discord's limit.

The glyph check is done twice, independently: through the fonts' character maps (what the
renderer chose) and by ink: each grapheme drawn alone with the font the renderer picked must
differ from that font's notdef glyph (the box a font draws for a character it lacks)."""

from __future__ import annotations

import io
import json
import logging
import unicodedata
from pathlib import Path

import discord
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageStat, features

from bot.stats import ChartData, ChartLine
from cogs import fonts, pictures, render, stats_chart
from cogs.pictures import HandPicture, SeatPicture, SpreadPicture, TablePicture, render_hand, render_table
from engine.cards import Card, parse_cards

NAMES = {
    "Latin with accents": ["José Ñandú", "Łukasz Żółć", "Nguyễn Thị Ánh", "Ærøskøbing Ðorđe", "Zoë Çelik"],
    "Greek": ["Ελένη Παπαδοπούλου"],
    "Cyrillic": ["Владимир", "Жанна Ёлкина"],
    "Hebrew": ["דוד כהן"],
    "Arabic": ["محمد", "فاطمة الزهراء"],
    "Devanagari": ["प्रिया शर्मा"],
    "Thai": ["สมชาย ใจดี"],
    "Chinese": ["王小明"],
    "Japanese": ["田中太郎", "さくら カタカナ"],
    "Korean": ["김민준"],
    "emoji": ["Sam 👍🏽", "👨‍👩‍👧 Family", "🇯🇵 Kenji", "Zoë 🃏", "🔥🔥", "❤️ Ana"],
}
ALL_NAMES = [name for names in NAMES.values() for name in names]
SPECS = [Path(__file__).resolve().parents[2] / "shared" / "discord-api" / "openapi.json",
         Path("/work/shared/discord-api/openapi.json")]


def spec_alt_limit() -> int | None:
    """Discord's limit on an attachment's description, from its OpenAPI description (shared/)."""
    for path in SPECS:
        if path.is_file():
            schemas = json.loads(path.read_text())["components"]["schemas"]
            return schemas["MessageAttachmentRequest"]["properties"]["description"]["maxLength"]
    return None


ALT_LIMIT = pictures.ALT_LIMIT


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _ink(font: fonts.Font, cluster: str) -> bytes:
    """`cluster` drawn alone with `font` (the emoji font in colour), as bytes to compare."""
    face = fonts.face(font, 40)
    image = Image.new("RGBA", (400, 200), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((20, 150), cluster, font=face, fill=(255, 255, 255, 255), anchor="ls",
                               embedded_color=font.emoji)
    return image.tobytes()


NOTDEF = "\U000FFFFD"  # a private-use character no font of the chain maps: each draws its notdef for it


def undrawn(text: str) -> list[str]:
    """The graphemes of `text` that would not be drawn as themselves: no font chosen (a code
    point box), a chosen font that lacks one of its characters, or ink equal to the font's notdef
    glyph (or no ink at all)."""
    bad = []
    for run in fonts.runs(text):
        for cluster in fonts.graphemes(run.text):
            if cluster.isspace():
                continue
            if run.font is None:
                bad.append(cluster)
                continue
            needed = [ord(c) for c in cluster if ord(c) not in fonts.IGNORABLE]
            ink = _ink(run.font, cluster)
            blank = Image.new("RGBA", (400, 200), (0, 0, 0, 0)).tobytes()
            if not all(run.font.has(cp) for cp in needed) or ink == _ink(run.font, NOTDEF) or ink == blank:
                bad.append(cluster)
    return bad


@pytest.fixture
def fresh_fonts():
    """The chain as the host has it, again after a test changed it."""
    yield
    fonts.reset()
    pictures.clear_text()


@pytest.mark.parametrize("script", list(NAMES))
def test_every_script_and_emoji_is_drawn_with_a_font_that_has_it(script):
    assert features.check("raqm"), "Pillow's raqm layout is needed for Arabic, Hebrew, Devanagari and Thai"
    for name in NAMES[script]:
        assert fonts.missing_characters(name) == [], (name, fonts.report())  # the report names the package
        assert undrawn(name) == [], name


def test_the_glyph_check_fails_when_a_font_is_missing(monkeypatch, fresh_fonts):
    # Without the CJK font, Chinese, Japanese and Korean names have no font: the check says so.
    monkeypatch.setattr(fonts, "WANTED", tuple(w for w in fonts.WANTED if "CJK" not in w.file))
    fonts.reset()
    assert undrawn("田中太郎") == list("田中太郎")
    assert fonts.missing_characters("김민준") == list("김민준")
    assert undrawn("José") == []
    # and a font that claims a character it does not draw is caught by its ink: the notdef box
    arabic = next(f for f in fonts.chain() if "Arabic" in f.name)
    assert _ink(arabic, "田") == _ink(arabic, NOTDEF)


def test_names_in_every_script_are_drawn_in_the_pictures_as_written():
    seats = tuple(SeatPicture(name, cards_in_hand=5, total=0) for name in ALL_NAMES[:6])
    spreads = tuple(SpreadPicture(name, cards("4s 5s 6s")) for name in ALL_NAMES[6:12])
    table = render_table(TablePicture(seats, spreads, stock=None, title="Tonk · 東京 · Москва"))
    showdown = render_table(TablePicture(
        tuple(SeatPicture(name, total=1, shown=cards("As 2s 3s")) for name in ALL_NAMES[12:18]), stock=None))
    drawn = [t.text for p in (table, showdown) for t in p.texts]
    for name in ALL_NAMES[:18]:
        # each name is drawn whole, or shortened with an ellipsis after whole graphemes of it
        assert any(t == name or t.endswith("…") and name.startswith(t[:-1]) and len(t) > 1 for t in drawn), name
    assert not any("?" in t for t in drawn)
    for text in drawn:
        assert undrawn(text.rstrip("…")) == [], text
    # names that differ only in their letters draw differently (not the same boxes or '?')
    one = render_table(TablePicture((SeatPicture("田中", 5), SeatPicture("محمد", 5)), stock=None))
    two = render_table(TablePicture((SeatPicture("中田", 5), SeatPicture("محمود", 5)), stock=None))
    assert one.png != two.png


def test_arabic_is_joined_and_hebrew_runs_right_to_left():
    arabic = next(f for f in fonts.chain() if "Arabic" in f.name)
    joined = fonts.face(arabic, 40).getlength("محمد")
    apart = sum(fonts.face(arabic, 40).getlength(c) for c in "محمد")
    assert joined != apart  # shaped: initial, medial and final forms, not four isolated letters
    runs = fonts.runs("דוד abc")
    assert [r.text.strip() for r in runs] == ["abc", "דוד"]  # a Hebrew name with Latin in it: laid right to left


CJK_NAMES = {"田中さくら": "JP", "さくら": "JP", "김민준": "KR", "이서연 Kim": "KR", "陳大文": "TC", "劉德華": "TC",
             "周杰倫": "TC", "张伟": "SC", "刘德华": "SC", "王小明": "SC"}
"""Kana: Japanese; hangul: Korean; Han only: Traditional Chinese when more of its characters are
traditional-only than simplified-only, else Simplified (王小明 is written alike in both: SC)."""


@pytest.mark.parametrize("name", list(CJK_NAMES))
def test_each_cjk_name_is_drawn_with_its_own_regions_glyph_forms(name):
    form = CJK_NAMES[name]
    assert fonts.cjk_form(name) == form
    cjk = [run.font for run in fonts.runs(name) if run.font is not None and run.font.forms]
    assert cjk and all(fonts.face(font, 20).getname()[0] == f"Noto Sans CJK {form}" for font in cjk)


def test_the_regional_face_changes_the_glyphs_drawn():
    """骨 is drawn differently in Japanese and Chinese forms: a Han-only name draws the Chinese one,
    the same character beside kana the Japanese one."""
    def drawn(text: str) -> bytes:
        image = Image.new("L", (200, 60), 0)
        fonts.draw(image, 4, 48, text, 40, 255)
        return image.crop((0, 0, 40, 60)).tobytes()  # the first character

    assert fonts.cjk_form("骨") == "SC" and fonts.cjk_form("骨さ") == "JP"
    assert drawn("骨") != drawn("骨さ")
    assert drawn("骨") == drawn("骨人")  # the same face for another Han-only name


MIXED = {  # a name as stored -> its pieces from left to right as a browser lays them (UAX #9)
    "דוד 3 Smith": ["Smith", "3", "דוד"],  # right-to-left paragraph: the digit after Hebrew stays with it
    "محمد Ali 2024": ["Ali 2024", "محمد"],  # digits after a Latin word are Latin (rule W7)
    "Ann محمد 12": ["Ann", "12", "محمد"],  # left-to-right paragraph: digits after Arabic join its run
    "فاطمة (Fatima) 7": ["7", ")", "Fatima", "(", "فاطمة"],  # brackets mirrored in a right-to-left run
    "abc אבג 123 def": ["abc", "123", "אבג", "def"],
}


@pytest.mark.parametrize("name", list(MIXED))
def test_mixed_right_to_left_names_are_laid_out_by_the_bidi_algorithm(name):
    assert fonts.bidi_engine() == "fribidi"
    runs = fonts.runs(name)
    assert [run.text.strip() for run in runs if run.text.strip()] == MIXED[name]
    for run in runs:  # Hebrew and Arabic letters are shaped right to left, Latin and digits left to right
        kinds = {unicodedata.bidirectional(c) for c in run.text}
        if kinds & {"R", "AL"}:
            assert run.rtl is True
        if kinds & {"L", "EN"}:
            assert run.rtl is False


def test_a_mixed_name_looks_as_raqm_lays_it_out_in_one_font(fresh_fonts, monkeypatch):
    """With one font holding every letter (DejaVu Sans), raqm can lay out a whole mixed name by
    itself: the runs drawn one by one must look the same (up to a pixel of rounding)."""
    path = fonts.find("DejaVuSans.ttf")
    if path is None:
        pytest.skip("DejaVu Sans is not installed")
    ranges = fonts.cmap_ranges(path)
    only = fonts.Font("DejaVuSans.ttf", path, 0, False, tuple(r[0] for r in ranges), tuple(r[1] for r in ranges))
    whole = ImageFont.truetype(path, 28, layout_engine=ImageFont.Layout.RAQM)

    def image(text: str, ours: bool) -> Image.Image:
        out = Image.new("L", (600, 60), 0)
        if ours:
            fonts.draw(out, 10, 45, text, 28, 255)
        else:
            ImageDraw.Draw(out).text((10, 45), text, font=whole, fill=255, anchor="ls")
        return out.filter(ImageFilter.GaussianBlur(3))

    def apart(a: Image.Image, b: Image.Image) -> float:
        return ImageStat.Stat(ImageChops.difference(a, b)).sum[0] / ImageStat.Stat(b).sum[0]

    fonts.reset()
    monkeypatch.setattr(fonts, "chain", lambda: (only,))
    for name in MIXED:
        assert apart(image(name, True), image(name, False)) < 0.15, name
    # and the comparison sees a wrong order: the same letters laid out in another order differ
    assert apart(image("3 Smith דוד", True), image("דוד 3 Smith", False)) > 0.3


def test_without_fribidi_a_right_to_left_name_still_reads_right_to_left(monkeypatch, fresh_fonts):
    monkeypatch.setattr(fonts, "_fribidi", lambda: None)
    fonts.reset()
    assert fonts.bidi_engine() == "first strong letter"
    assert [r.text.strip() for r in fonts.runs("דוד abc")] == ["abc", "דוד"]
    assert all(r.rtl is None for r in fonts.runs("דוד abc"))


def test_the_chart_draws_names_and_the_server_as_written():
    def chart(name: str, server: str) -> bytes:
        data = ChartData(f"Balance of {name}", "Balance", "Hands", (ChartLine(name, (1, 2, 3), (0.0, 2.0, -1.0)),))
        return stats_chart.balance_png(data, server=server)

    assert chart("田中", "東京") != chart("中田", "京東")
    assert chart("Владимир", "Сервер") != chart("Владимер", "Сервор")
    for text in ("Balance of 田中 · 東京", "Владимир", "Season 1 · محمد 👍🏽"):
        assert undrawn(text) == []


def test_a_character_no_font_has_is_a_visible_code_point_box_and_logged(caplog):
    odd = "\U000F0001"  # private use: in no font of the chain
    fonts._logged.discard(odd)  # as in a fresh process
    pictures._text_stamp.cache_clear()
    assert fonts.missing_characters(f"Ann{odd}") == [odd]
    with caplog.at_level(logging.WARNING, logger="cogs.fonts"):
        stamp, _, _ = pictures._text_stamp(f"Ann{odd}", 20, (255, 255, 255), "la")
        plain, _, _ = pictures._text_stamp("Ann", 20, (255, 255, 255), "la")
    assert stamp.width > plain.width + 10
    box = stamp.crop((plain.width + 1, 0, stamp.width, stamp.height))
    assert box.getbbox() is not None  # ink where the character is: a box with F0001 in it, not nothing
    assert caplog.text.count("U+F0001") == 1
    with caplog.at_level(logging.WARNING, logger="cogs.fonts"):
        pictures._text_stamp.cache_clear()
        pictures._text_stamp(f"Bob{odd}", 20, (255, 255, 255), "la")
    assert caplog.text.count("U+F0001") == 1  # logged once, not at every picture


def test_a_text_is_measured_as_wide_as_it_is_drawn():
    # fit() measures names without drawing them (text_width, from fonts.text_length): the measure
    # must be where drawing them ends, or a name would be cut too early or run past its seat
    texts = [name for names in NAMES.values() for name in names] + list(MIXED) + ["\U000F0001 odd", "count 7"]
    for size in (14, 20, 26):
        for text in texts:
            scratch = Image.new("L", (4000, 3 * size), 0)
            assert fonts.draw(scratch, 0, 2 * size, text, size, 255) == fonts.text_length(text, size), (text, size)
            assert pictures.text_width(text, size) == fonts.text_length(text, size)


def test_names_are_shortened_at_a_grapheme_with_an_ellipsis():
    names = ["👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧 family", "Nguye\u0302\u0303n Nguye\u0302\u0303n Nguye\u0302\u0303n",
             "प्रिया शर्मा प्रिया शर्मा", "🇯🇵🇫🇷🇩🇪🇧🇷🇮🇳🇰🇷"]
    for name in names:
        clusters = fonts.graphemes(name)
        for width in range(20, 240, 7):
            short = fonts.shorten(name, 20, width)
            if short == name:
                continue
            assert short.endswith("…") and fonts.text_length(short, 20) <= width or short == "…"
            kept = short[:-1]
            whole = ""
            for cluster in clusters:  # the kept part is whole graphemes of the name
                if len(whole) >= len(kept.rstrip()):
                    break
                whole += cluster
            assert whole.rstrip() == kept.rstrip(), (name, width, short)


def test_the_hand_is_described_card_by_card():
    hand = HandPicture(cards("Kd 2h X1 10c 7s"), drawn=Card.parse("10c"), count=30, title="Your hand")
    alt = render_hand(hand).alt
    assert ("5 cards: king of diamonds, 2 of hearts, joker 1, 10 of clubs, 7 of spades." in alt
            and "Count 30." in alt and "Just drawn: 10 of clubs." in alt)
    assert not set("♠♥♦♣") & set(alt)  # a screen reader says "black heart suit" for those
    titled = render_hand(HandPicture(cards("Kd 10c"), drawn=Card.parse("10c"), title="Your hand · you drew 10♣")).alt
    assert titled.startswith("Your hand, you drew 10 of clubs. 2 cards: king of diamonds, 10 of clubs.")
    assert not set("♠♥♦♣·") & set(titled)
    assert pictures.spoken("Q♦︎ then ♣") == "queen of diamonds then clubs"


def test_the_table_and_the_showdown_are_described_with_their_numbered_spreads():
    seats = (SeatPicture("Ann", total=3, is_dealer=True, shown=cards("As 2s"), count=3, is_winner=True),
             SeatPicture("محمد", total=-3, shown=cards("Kh Qh"), count=20, note="dropped"))
    spreads = (SpreadPicture("Ann", cards("4s X1 6s"), wild=((Card.parse("X1"), Card.parse("5s")),)),)
    alt = render_table(TablePicture(seats, spreads, stock=None, title="Showdown")).alt
    assert alt.startswith("Showdown picture: Showdown.")
    assert "Ann, total +3, dealer, shows ace of spades, 2 of spades, count 3, wins" in alt
    assert "محمد, total -3, shows king of hearts, queen of hearts, count 20, dropped" in alt
    assert "spread 1 of Ann: 4 of spades, joker 1 as 5 of spades, 6 of spades" in alt


def test_the_limit_is_discords():
    limit = spec_alt_limit()
    if limit is None:
        pytest.skip("shared/discord-api/openapi.json is not beside the repository")
    assert pictures.ALT_LIMIT == limit == 1024


def test_descriptions_stay_within_discords_limit():
    long = "A very long display name that goes on " * 2
    seats = tuple(SeatPicture(f"{long}{i}", total=-100, shown=cards("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs"),
                              is_dealer=i == 0, note="dropped", is_away=True) for i in range(6))
    spreads = tuple(SpreadPicture(f"{long}{i}", cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h")) for i in range(8))
    picture = render_table(TablePicture(seats, spreads, Card.parse("Kc"), 30, title=long))
    assert len(picture.alt) <= ALT_LIMIT and picture.alt.endswith("…")
    big_hand = render_hand(HandPicture(cards("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs"), title=long * 20))
    assert len(big_hand.alt) <= ALT_LIMIT
    data = ChartData(long * 10, "Balance", "Hands", tuple(ChartLine(long, (1, 2), (1.0, 2.0)) for _ in range(30)))
    assert len(stats_chart.describe(data, server=long)) <= ALT_LIMIT


def test_the_picture_goes_out_with_its_description():
    picture = render_hand(HandPicture(cards("Kd 2h")))
    message = render.attach({"embed": discord.Embed(title="Your hand")}, "hand.png", picture)
    file = message["attachments"][0]
    assert isinstance(file, discord.File) and file.description == picture.alt
    assert file.to_dict(0)["description"] == picture.alt  # what discord.py puts in the request
    assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)


def test_start_up_logs_the_fonts_and_names_the_package_of_a_missing_one(monkeypatch, caplog, fresh_fonts):
    with caplog.at_level(logging.INFO, logger="cogs.pictures"):
        pictures.warm()
    assert "fonts: NotoSans-Regular.ttf" in caplog.text and "missing" not in caplog.text
    caplog.clear()
    found = fonts.find
    monkeypatch.setattr(fonts, "find", lambda file: None if "Emoji" in file else found(file))  # as on a bare host
    fonts.reset()
    pictures.clear_text()
    with caplog.at_level(logging.INFO, logger="cogs.pictures"):
        pictures.warm()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "NotoColorEmoji.ttf" in warnings[0] and "fonts-noto-color-emoji" in warnings[0]
    # the picture still comes: the emoji drawn as its code point in a box, not as '?'
    assert fonts.missing_characters("Sam 🦄") == ["🦄"]
    picture = render_table(TablePicture((SeatPicture("Sam 🦄", 5), SeatPicture("Ann", 5)), stock=None))
    assert "Sam 🦄" in [t.text for t in picture.texts]
    assert fonts.missing_characters("Sam 👍") == []  # an emoji the symbol fonts have is drawn by them, in one colour
