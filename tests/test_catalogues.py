"""The catalogues are complete and consistent: every shipped language holds every message of the
English source, with the same placeholders and its language's number of plural forms, and the
template (`i18n/locales/tonk.pot`) is what the code holds today (`python -m i18n check`)."""

from __future__ import annotations

import pytest
from babel.messages.plurals import get_plural

import i18n
from engine.text import tn
from i18n.__main__ import TEMPLATE, catalogue_path, dump, read, template

CODES = [code for code in i18n.CATALOGUES if code != "en"]
FLOOR = dict.fromkeys(CODES, 1.0)
"""The share of the messages each catalogue translates at least: every shipped language is complete
(a change that adds a text brings its translations with it; a new language may start lower here)."""
GLOSSARY = ("spread", "hit", "drop", "tonk", "stake", "push-up")


@pytest.fixture(scope="module")
def source():
    return template()


def _forms(message) -> tuple[str, ...]:
    s = message.string
    return tuple(s) if isinstance(s, (list, tuple)) else (s,)


def _ids(message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def test_the_template_is_what_the_code_holds(source):
    assert TEMPLATE.exists(), "run python -m i18n update"
    assert TEMPLATE.read_bytes() == dump(source), "the template is stale: run python -m i18n update"
    assert len(source) > 300  # every layer's words are in it, not a handful


def test_every_language_named_by_discord_is_shipped():
    assert set(i18n.SHIPPED) >= {"en-US", "es-ES", "pt-BR", "fr", "de", "it", "pl", "ru", "uk", "tr",
                                 "ja", "ko", "zh-CN", "zh-TW"}
    assert i18n.catalogue_code("es-419") == "es" and i18n.catalogue_code("en-GB") == "en"
    assert i18n.catalogue_code("nl") == "en"  # an unshipped language reads English


def _problems(code: str, source, *, every: bool) -> list[str]:
    """What is wrong with `code`'s catalogue: a translated message whose placeholders are not the
    English's, or whose plural forms are not its language's number; with `every`, a message missing."""
    cat = read(catalogue_path(code), code)
    nplurals = get_plural(code).num_plurals
    problems = [] if cat.num_plurals == nplurals else [f"Plural-Forms says {cat.num_plurals}, CLDR {nplurals}"]
    for m in source:
        if not m.id:
            continue
        got = cat.get(m.id, context=m.context)
        key = _ids(m)[0]
        if got is None or got.fuzzy or not all(_forms(got)):
            if every:
                problems.append(f"missing: {key!r}")
            continue
        wanted = set().union(*(i18n.placeholders(i) for i in _ids(m)))
        forms = _forms(got)
        if m.pluralizable and len(forms) != nplurals:
            problems.append(f"{len(forms)} plural forms, not {nplurals}: {key!r}")
        for form in forms:
            have = i18n.placeholders(form)
            # a plural form may leave out the count where its language says it in words ("one card")
            if have != wanted and not (m.pluralizable and have == wanted - {"n"}):
                problems.append(f"placeholders {sorted(have)} instead of {sorted(wanted)}: {key!r}")
            try:
                form.format_map({p: "x" for p in wanted})
            except (ValueError, IndexError, KeyError) as exc:
                problems.append(f"does not format ({exc}): {key!r}")
    return problems


@pytest.mark.parametrize("code", CODES)
def test_every_translation_keeps_its_placeholders_and_plural_forms(code, source):
    problems = _problems(code, source, every=False)
    assert not problems, f"{code}: {len(problems)} problems, first: " + "; ".join(problems[:5])


@pytest.mark.parametrize("code", CODES)
def test_no_language_falls_behind_what_it_has(code, source):
    """Each catalogue translates at least the share of the messages it did when this floor was set
    (2026-12-06): a change that adds texts must bring their translations along, at least enough to
    keep every language where it was (python -m i18n todo CODE lists what a catalogue lacks)."""
    cat = read(catalogue_path(code), code)
    ids = [m for m in source if m.id]
    done = sum(1 for m in ids if (got := cat.get(m.id, context=m.context)) is not None and not got.fuzzy
               and all(_forms(got)))
    assert done / len(ids) >= FLOOR[code], f"{code}: {done} of {len(ids)} translated, under its floor {FLOOR[code]}"


@pytest.mark.parametrize("code", CODES)
def test_a_catalogue_keeps_its_glossary(code):
    """Game words stay consistent within a language: each catalogue's header names them."""
    header = read(catalogue_path(code), code).header_comment.lower()
    assert "glossary" in header, f"{code}: no glossary in the header comment"
    for word in GLOSSARY:
        assert word in header, f"{code}: the glossary does not say what {word!r} is called"


@pytest.mark.parametrize("code", CODES)
def test_no_catalogue_is_english_in_disguise(code, source):
    """A catalogue that copies the English msgids is not a translation (names such as "Tonk" aside)."""
    cat = read(catalogue_path(code), code)
    long_ids = [m for m in source if m.id and not m.pluralizable and len(m.id) > 40]
    same = [m.id for m in long_ids if (got := cat.get(m.id, context=m.context)) and got.string == m.id]
    assert len(same) <= len(long_ids) // 20, f"{code}: {len(same)} long messages left in English, e.g. {same[:3]}"


@pytest.mark.parametrize(("n", "words"), [(1, "1 punkt"), (2, "2 punkty"), (5, "5 punktów"), (22, "22 punkty")])
def test_polish_counts_points_as_polish_does(n, words):
    assert i18n.lang("pl").render(tn("{n} point", "{n} points", n)) == words


@pytest.mark.parametrize(("n", "words"), [(1, "1 karta"), (2, "2 karty"), (5, "5 kart"), (22, "22 karty")])
def test_polish_counts_cards_as_polish_does(n, words):
    assert i18n.lang("pl").render(tn("{n} card", "{n} cards", n)) == words


@pytest.mark.parametrize(("locale", "written"), [("de", "1,5"), ("fr", "1,5"), ("pt-BR", "1,5"), ("es-ES", "1,5"),
                                                 ("en-US", "1.5"), ("ja", "1.5")])
def test_decimals_are_written_as_the_language_writes_them(locale, written):
    assert i18n.lang(locale).number(1.5) == written


def test_thousands_are_grouped_as_the_language_groups_them():
    assert i18n.lang("de").number(10000) == "10.000"
    assert i18n.lang("en-US").number(10000) == "10,000"
    assert i18n.lang("fr").number(10000) in ("10\u202f000", "10\u00a0000")


def test_lists_are_joined_as_the_language_joins_them():
    assert i18n.lang("es-ES").join(["a", "b", "c"]) == "a, b y c"
    assert i18n.lang("de").join(["a", "b", "c"]) == "a, b und c"
    assert i18n.lang("en-US").join(["a", "b", "c"]) == "a, b, and c"


def test_a_missing_translation_falls_back_to_english_for_that_message_alone(caplog, tmp_path):
    po = tmp_path / "xx.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  'msgid "yes"\nmsgstr "ja"\n', encoding="utf-8")
    lang = i18n.Lang("de", i18n.Catalogue.read("de", po), i18n.lang("de").babel)
    from engine.text import t

    with caplog.at_level("WARNING", logger="i18n"):
        assert lang.render(t("yes")) == "ja"
        assert lang.render(t("a message no catalogue has {n}", n=3)) == "a message no catalogue has 3"
        assert lang.render(t("a message no catalogue has {n}", n=4)) == "a message no catalogue has 4"
    assert sum("no translation" in r.getMessage() for r in caplog.records) == 1  # logged once


def test_a_catalogue_is_read_once_per_process():
    first = i18n.lang("de").catalogue
    assert i18n.lang("de").catalogue is first and i18n.lang("de-DE").catalogue is first


def test_fill_writes_no_row_whose_shape_no_longer_matches_the_message(tmp_path, monkeypatch):
    """A translator's row for a message that became plural (or stopped being) is left out, not spread
    one character per plural form (what `{n} joker` once became in French)."""
    import i18n.__main__ as tool

    po = tmp_path / "tonk.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  'msgid "{n} joker"\nmsgid_plural "{n} jokers"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
                  'msgid "yes"\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(tool, "catalogue_path", lambda code: po)
    assert tool.fill("de", [{"context": None, "id": "{n} joker", "string": "{n} Joker"},
                            {"context": None, "id": "yes", "strings": ["ja", "ja"]}]) == 0
    assert tool.fill("de", [{"context": None, "id": "{n} joker", "strings": ["{n} Joker", "{n} Joker"]},
                            {"context": None, "id": "yes", "string": "ja"}]) == 2
    cat = read(po, "de")
    assert tuple(cat.get("{n} joker").string) == ("{n} Joker", "{n} Joker") and cat.get("yes").string == "ja"
