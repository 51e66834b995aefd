"""The pictures on a host with less than the README asks for: no Noto fonts, no raqm layout, or
both. Each mix draws every picture (a table in play, a showdown, a hand, the stats chart) with
what it has, and start-up says so in one warning naming every package to install.

A mix is made as the bot makes it from TONK_FONT_DIRS and TONK_FONT_LAYOUT (`fonts.configure`):
an empty font folder is a host without the fonts; the basic layout is a host without raqm."""

from __future__ import annotations

import io
import logging

import pytest
from PIL import Image, ImageFont, features

from bot.stats import ChartData, ChartLine
from cogs import fonts, pictures, stats_chart
from cogs.pictures import HandPicture, SeatPicture, SpreadPicture, TablePicture, render_hand, render_table
from engine.cards import count, parse_cards

FONT_PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji")
MIXES = {
    "no fonts, raqm": (True, None),
    "fonts, no raqm": (False, "basic"),
    "no fonts, no raqm": (True, "basic"),
}
NAMES = ("Zoë", "محمد", "דוד כהן", "王小明", "Sam 👍🏽", "प्रिया")


@pytest.fixture
def mix(request, tmp_path):
    """The mix named by the test's parameter, in force for the test; the host's own afterwards."""
    empty, layout = MIXES[request.param]
    folder = tmp_path / "fonts"
    folder.mkdir()
    fonts.configure(dirs=[str(folder)] if empty else None, layout=layout)
    pictures.clear_text()
    yield request.param
    fonts.configure()
    pictures.clear_text()


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def every_picture() -> list[bytes]:
    """A table in play, a showdown, a hand and the stats chart, with names in many scripts."""
    hand = tuple(parse_cards("As 2s 3s Kd 9h"))
    spreads = (SpreadPicture(NAMES[1], tuple(parse_cards("4s 5s 6s"))),)
    in_play = TablePicture(tuple(SeatPicture(name, cards_in_hand=5, total=i - 2, is_turn=i == 0)
                                 for i, name in enumerate(NAMES)), spreads, hand[3], 20, "Tonk · hand 1 · 東京")
    showdown = TablePicture(tuple(SeatPicture(name, total=1, is_dealer=i == 0, shown=hand[:3], count=count(hand[:3]),
                                              note="dropped" if i == 0 else "", is_winner=i == 1)
                                  for i, name in enumerate(NAMES)), spreads, stock=None, title="Hand 1")
    chart = ChartData(f"Balance of {NAMES[1]}", "Balance", "Hands",
                      tuple(ChartLine(name, (1, 2, 3), (0.0, 2.0, -1.0)) for name in NAMES[:3]))
    return [render_table(in_play).png, render_table(showdown).png,
            render_hand(HandPicture(hand, hand[4], hand[3], count(hand), 20, title=NAMES[2])).png,
            stats_chart.balance_png(chart, server="Сервер 🃏")]


@pytest.mark.parametrize("mix", list(MIXES), indirect=True)
def test_every_picture_is_drawn_with_what_the_host_has(mix):
    drawn = every_picture()
    for data in drawn:
        image = png(data)
        assert image.width > 100 and image.height > 50
        assert image.convert("L").getextrema()[0] != image.convert("L").getextrema()[1]  # not blank
    # the names still tell the seats apart: another name draws another picture
    other = TablePicture((SeatPicture("Zoe", 5), SeatPicture("محمود", 5)), stock=None)
    same = TablePicture((SeatPicture("Zoë", 5), SeatPicture("محمد", 5)), stock=None)
    assert render_table(other).png != render_table(same).png


@pytest.mark.parametrize("mix", list(MIXES), indirect=True)
def test_the_chain_and_the_layout_are_those_of_the_mix(mix):
    empty, layout = MIXES[mix]
    chain = fonts.chain()
    if empty:
        assert [f.name for f in chain] == ["Pillow's Aileron"]
        assert fonts.missing_characters("Zoe") == [] and sorted(fonts.missing_characters("محمد")) == sorted("محمد")
        assert fonts.missing_characters("👍🏽") != []  # a box holding its code point, not a '?'
    else:
        assert chain[0].name == "NotoSans-Regular.ttf" and fonts.missing() == []
    want = ImageFont.Layout.BASIC if layout == "basic" or not features.check("raqm") else ImageFont.Layout.RAQM
    assert fonts.layout_engine() == want
    for font in fonts.every_font():  # each face is loaded with the layout it is drawn with
        face = fonts.face(font, 20)
        assert face.layout_engine == (ImageFont.Layout.BASIC if font.path is None else want)
    assert fonts.bidi_engine() == ("fribidi" if want == ImageFont.Layout.RAQM and fonts._fribidi() else
                                   "first strong letter")


@pytest.mark.parametrize("mix", list(MIXES), indirect=True)
def test_start_up_logs_one_warning_naming_every_package_to_install(mix, caplog):
    empty, layout = MIXES[mix]
    with caplog.at_level(logging.INFO, logger="cogs"):
        pictures.warm()
        every_picture()  # drawing the characters no font has logs no further warning
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings
    warning = warnings[0]
    assert all((package in warning) == empty for package in FONT_PACKAGES), warning
    if layout == "basic":
        assert "TONK_FONT_LAYOUT=basic" in warning and "Arabic is drawn unjoined" in warning
        assert "libfribidi0" not in warning  # turned off here, not missing: nothing to install for it
    assert ("install " in warning) == empty
    assert "fonts: " + ", ".join(f.name for f in fonts.chain()) in caplog.text  # the chain, as information


def test_a_host_without_raqm_is_told_to_install_libfribidi(monkeypatch, caplog):
    monkeypatch.setattr(fonts, "raqm_available", lambda: False)
    fonts.configure()
    pictures.clear_text()
    try:
        assert fonts.layout_engine() == ImageFont.Layout.BASIC
        assert fonts.advice().endswith('install libfribidi0 (README "Fonts")')
        assert "Pillow has no raqm layout" in fonts.advice()
        with caplog.at_level(logging.INFO, logger="cogs"):
            pictures.warm()
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [fonts.advice()]
        assert all(png(data) for data in every_picture())
    finally:
        monkeypatch.undo()
        fonts.configure()
        pictures.clear_text()


def test_a_host_with_everything_gets_no_warning(caplog):
    fonts.configure()
    pictures.clear_text()
    if not features.check("raqm") or fonts.missing():
        pytest.fail(f"this host lacks what the README asks for: {fonts.advice()}")
    assert fonts.advice() is None
    with caplog.at_level(logging.INFO, logger="cogs"):
        pictures.warm()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_the_warning_names_only_the_packages_missing(monkeypatch):
    found = fonts.find
    monkeypatch.setattr(fonts, "find", lambda file: None if "CJK" in file or "Hebrew" in file else found(file))
    fonts.reset()
    try:
        advice = fonts.advice()
        assert "NotoSansCJK-Regular.ttc (Chinese, Japanese, Korean)" in advice
        assert "NotoSansHebrew-Regular.ttf (Hebrew)" in advice
        assert advice.endswith('install fonts-noto-core fonts-noto-cjk (README "Fonts")'), advice
        assert "Latin with Pillow's own font" not in advice  # Noto Sans is there
    finally:
        monkeypatch.undo()
        fonts.reset()
        pictures.clear_text()


def test_pillows_own_font_is_drawn_without_a_direction_where_raqm_is(tmp_path):
    """The crash of a first start without the fonts: Pillow loads its own font with the basic
    layout, which refuses a direction, while raqm is there for the others."""
    assert features.check("raqm"), "Pillow's raqm layout is needed (README \"Fonts\"): install libfribidi0"
    fonts.configure(dirs=[str(tmp_path)])
    pictures.clear_text()
    try:
        assert fonts.layout_engine() == ImageFont.Layout.RAQM and fonts.bidi_engine() == "fribidi"
        runs = fonts.runs("Ann 12 דוד")
        assert any(run.rtl is not None for run in runs)  # fribidi gives the runs a direction
        image = Image.new("L", (300, 40), 0)
        assert fonts.draw(image, 2, 30, "Ann 12 דוד", 20, 255) == 2 + fonts.text_length("Ann 12 דוד", 20)
        assert image.getbbox() is not None
    finally:
        fonts.configure()
        pictures.clear_text()


def test_configure_refuses_an_unknown_layout():
    with pytest.raises(ValueError):
        fonts.configure(layout="fancy")
    fonts.configure()
