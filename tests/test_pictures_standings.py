"""A tournament's standings picture: every name drawn as written (any script, emoji), a podium of
the first three once it is over, the phone's width, and alt text in the picture's language."""

import io

from PIL import Image

import i18n
from cogs import pictures
from engine.text import t

ROWS = ((1, "Zoë 🃏", 7, 3, False), (2, "山田太郎", 3, 2, False), (3, "محمد", -2, 1, False),
        (4, "Ólafur", -3, 0, True), (5, "Ada", -5, 0, True))


def test_the_standings_and_the_podium_are_drawn_phone_wide_with_every_name():
    for podium in (False, True):
        picture = pictures.render_standings(pictures.StandingsPicture(ROWS, title="Tonk tournament", podium=podium))
        image = Image.open(io.BytesIO(picture.png))
        assert image.width == pictures.TABLE_WIDTH == 400  # a phone scales it by four fifths at most
        drawn = " ".join(box.text for box in picture.texts)
        assert all(name in drawn for _, name, *_ in ROWS)
        assert picture.alt.startswith("Podium picture: Tonk tournament." if podium else "Standings picture:")
        assert "1. Zoë 🃏: +7 points, 3 hands won; 2. 山田太郎: +3 points" in picture.alt
        assert "4. Ólafur: -3 points, 0 hands won, out" in picture.alt
    # the podium adds its blocks above the rows
    flat = pictures.render_standings(pictures.StandingsPicture(ROWS, title="x"))
    tall = pictures.render_standings(pictures.StandingsPicture(ROWS, title="x", podium=True))
    assert tall.height > flat.height


def test_the_alt_text_is_in_the_pictures_language():
    picture = pictures.render_standings(pictures.StandingsPicture(ROWS, title="トーナメント", lang="ja"))
    head = i18n.lang("ja").render(t("Standings picture: {title}.", title="トーナメント"))
    assert picture.alt.startswith(head)
    assert picture.alt != pictures.render_standings(pictures.StandingsPicture(ROWS, title="トーナメント")).alt \
        or head == i18n.ENGLISH.render(t("Standings picture: {title}.", title="トーナメント"))
