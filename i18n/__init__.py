"""Words in a language: the gettext catalogues, read once, and the one place values become text.

English is the source: a message id is its English text (`engine.text`), and `i18n/locales/
tonk.pot` lists them all (`python -m i18n extract` rebuilds it; a test fails when it is
stale). A language is one catalogue, `i18n/locales/<code>/LC_MESSAGES/tonk.po`; adding a
language is adding that file and its code to `SHIPPED`. Plural forms come from the
catalogue's header (CLDR's rules, through Babel); numbers and lists are written with Babel's
CLDR data for the language. A message a catalogue lacks (or leaves empty or fuzzy) is shown in
English, and logged once.

Every catalogue is parsed at most once per process (`lang()` is cached): a click looks its
words up in a dict.
"""

from __future__ import annotations

import gettext
import logging
import functools
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from babel import Locale
from babel.lists import format_list
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal

from engine.text import LINES, RAW, Said, Text, as_text, t, tc

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "tonk"

# The shipped languages, as Discord names its locales (interaction.locale, guild_locale), in
# the order `/tonk-admin settings language:` lists them. Each maps to its catalogue's code.
SHIPPED: dict[str, str] = {
    "en-US": "en",
    "es-ES": "es",
    "pt-BR": "pt_BR",
    "fr": "fr",
    "de": "de",
    "it": "it",
    "pl": "pl",
    "ru": "ru",
    "uk": "uk",
    "tr": "tr",
    "ja": "ja",
    "ko": "ko",
    "zh-CN": "zh_CN",
    "zh-TW": "zh_TW",
}
# Discord locales that read a shipped catalogue of another name.
ALIASES: dict[str, str] = {"en-GB": "en", "es-419": "es"}
CATALOGUES = tuple(dict.fromkeys(SHIPPED.values()))  # "en" needs no file: it is the source
DEFAULT = "en-US"

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def catalogue_code(locale: str | None) -> str:
    """The catalogue a Discord locale (or a POSIX one, `de_DE.UTF-8`) reads: "en" when none fits."""
    if not locale:
        return "en"
    code = str(locale)
    if code in SHIPPED:
        return SHIPPED[code]
    if code in ALIASES:
        return ALIASES[code]
    code = code.split(".")[0].split("@")[0].replace("-", "_")
    if code in CATALOGUES:
        return code
    for known in CATALOGUES:
        if known.lower() == code.lower():
            return known
    if code.lower().startswith("zh"):
        return "zh_TW" if code.lower() in ("zh_tw", "zh_hk", "zh_mo", "zh_hant") else "zh_CN"
    base = code.split("_")[0].lower()
    return base if base in CATALOGUES else "en"


def _babel_locale(locale: str | None, code: str) -> Locale:
    for candidate in (str(locale or "").split(".")[0].replace("-", "_"), code):
        try:
            return Locale.parse(candidate)
        except (ValueError, TypeError, Exception):  # babel raises UnknownLocaleError (an Exception)
            continue
    return Locale.parse("en_US")


@dataclass
class Catalogue:
    """One language's messages: `{(context, msgid): str or tuple of plural forms}`."""

    code: str
    messages: dict[tuple[str | None, str], Any]
    plural: Callable[[int], int]
    nplurals: int

    @classmethod
    def source(cls) -> "Catalogue":
        return cls("en", {}, gettext.c2py("n != 1"), 2)

    @classmethod
    def read(cls, code: str, path: Path | None = None) -> "Catalogue":
        from babel.messages.pofile import read_po

        path = path or LOCALES_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        with open(path, "rb") as fh:
            cat = read_po(fh, locale=code)
        messages: dict[tuple[str | None, str], Any] = {}
        for m in cat:
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, (list, tuple)):
                forms = tuple(m.string or ())
                if forms and all(forms):
                    messages[(m.context, m.id[0])] = forms
            elif m.string:
                messages[(m.context, m.id)] = m.string
        nplurals, expr = cat.num_plurals, cat.plural_expr
        return cls(code, messages, gettext.c2py(expr), nplurals)


_warned: set[tuple[str, str]] = set()


@dataclass
class Lang:
    """A reader's language: their catalogue and their locale's way of writing numbers and lists."""

    locale: str
    catalogue: Catalogue
    babel: Locale
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def code(self) -> str:
        return self.catalogue.code

    def gettext(self, msgid: str, context: str | None = None, plural: str | None = None, n: int | None = None) -> str:
        found = self.catalogue.messages.get((context, msgid))
        if plural is not None:
            if isinstance(found, tuple):
                index = self.catalogue.plural(abs(int(n or 0)))
                if index < len(found):
                    return found[index]
            elif self.code != "en":
                self._missing(msgid)
            return msgid if (n is not None and abs(int(n)) == 1) else plural
        if isinstance(found, str):
            return found
        if self.code != "en" and msgid != RAW:
            self._missing(msgid)
        return msgid

    def _missing(self, msgid: str) -> None:
        key = (self.code, msgid)
        if key not in _warned:
            _warned.add(key)
            log.warning("catalogue %s has no translation of %r: shown in English", self.code, msgid)

    # -- values -------------------------------------------------------------------------------

    def number(self, value: int | float) -> str:
        return format_decimal(value, locale=self.babel)

    def join(self, items: Iterable[Any]) -> str:
        """A list as the language says one: "a, b and c", "a, b y c", "a、b和c" (CLDR's)."""
        parts = [self.value(i) for i in items]
        if not parts:
            return ""
        return format_list(parts, locale=self.babel)

    def series(self, items: Iterable[Any]) -> str:
        """Items one after another with no "and" (cards in a hand: "ace of spades, 3 of hearts");
        the separator is the catalogue's (", " in English, "、" in Japanese)."""
        # TRANSLATORS: what separates items in a plain enumeration (cards of a hand); keep any space.
        return self.render(tc("list separator", ", ")).join(self.value(i) for i in items)

    def value(self, value: Any) -> str:
        if isinstance(value, Text):
            return self.render(value)
        if isinstance(value, Said):  # the engine's words that carry their message id
            return self.render(value.text)
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return self.render(t("yes") if value else t("no"))
        if isinstance(value, (int, float)):
            return self.number(value)
        if isinstance(value, (list, tuple)):
            return self.series(value)
        words = getattr(value, "__text__", None)  # a value that names itself (a card, a seat)
        if words is not None:
            return self.render(words())
        return str(value)

    def render(self, text: "Text | str") -> str:
        """The words of `text` in this language: the one function every edge calls."""
        if isinstance(text, Said):
            text = text.text
        elif isinstance(text, str):
            return text
        if text.msgid == RAW:
            return str(text.params.get("raw", ""))
        if text.msgid == LINES:
            return text.params.get("sep", "\n").join(self.value(p) for p in text.params.get("parts", ()))
        pattern = self.gettext(text.msgid, text.context, text.plural, text.n)
        if not text.params and "{" not in pattern:
            return pattern
        values = {k: self.value(v) for k, v in text.params.items()}
        try:
            return pattern.format_map(_Missing(values))
        except (ValueError, IndexError, KeyError):  # a broken translation: say it in English
            log.warning("catalogue %s: the translation of %r does not format", self.code, text.msgid)
            return (text.msgid if text.plural is None or text.n == 1 else text.plural).format_map(_Missing(values))

    def __call__(self, text: "Text | str") -> str:
        return self.render(text)

    def pgettext(self, context: str, msgid: str) -> str:
        return self.gettext(msgid, context)

    @property
    def name(self) -> str:
        """The language's name in itself ("Deutsch", "polski")."""
        return self.babel.get_display_name(self.babel) or self.locale


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@lru_cache(maxsize=None)
def _catalogue(code: str) -> Catalogue:
    if code == "en":
        return Catalogue.source()
    try:
        return Catalogue.read(code)
    except OSError:
        log.warning("no catalogue for %s: shown in English", code)
        return Catalogue.source()


@lru_cache(maxsize=1)
def _pseudo_from_template() -> Lang:
    from babel.messages.pofile import read_po

    with open(LOCALES_DIR / f"{DOMAIN}.pot", "rb") as fh:
        return pseudo_lang(read_po(fh))


@lru_cache(maxsize=256)
def lang(locale: "str | None" = None) -> Lang:
    """The `Lang` of a Discord locale ("pt-BR", a `discord.Locale`) or a POSIX one; English when none.

    With `TONK_PSEUDO_LOCALE=1` in the environment every reader gets the pseudo-language: a
    translator's (and the leak tests') view of where each text on screen comes from."""
    if os.environ.get("TONK_PSEUDO_LOCALE") == "1" or locale == PSEUDO:
        return _pseudo_from_template()
    return _lang(str(locale) if locale else DEFAULT)


@functools.lru_cache(maxsize=128)
def _lang(locale: str) -> Lang:
    """One `Lang` per locale for the process. Every English locale reads the source itself
    (`ENGLISH`: the words as the code writes them, its lists and spreads as English writes them)."""
    code = catalogue_code(locale)
    if code == "en":
        return ENGLISH
    return Lang(locale, _catalogue(code), _babel_locale(locale, code))


# ------------------------------------------------------------------ the pseudo-language (tests)

PSEUDO = "x-pseudo"
"""A language no person speaks: every catalogue message wrapped in ⟦ ⟧ and its letters swapped for
look-alikes (ṫḣıṡ), placeholders kept. A text that reaches a reader without going through the
catalogue stays plain ASCII, which is how tests find words built outside it."""

_LOOKALIKE = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "ȧƀċḋėḟġḣıĵķŀṁṅȯṗʠṙṡṫüṿẇẋẏżȦƁĊḊĖḞĠḢİĴĶĿṀṄȮṖǪṘṠṪÜṾẆẊẎŻ",
)


def pseudo_string(pattern: str) -> str:
    parts = re.split(r"(\{[A-Za-z_][A-Za-z0-9_]*\})", pattern)
    return "⟦" + "".join(p if _PLACEHOLDER.fullmatch(p) else p.translate(_LOOKALIKE) for p in parts) + "⟧"


def pseudo_lang(messages: "Iterable[Any]") -> Lang:
    """The pseudo-language's `Lang`, from the template's messages (Babel `Message`s)."""
    table: dict[tuple[str | None, str], Any] = {}
    for m in messages:
        if not m.id:
            continue
        if isinstance(m.id, (list, tuple)):
            table[(m.context, m.id[0])] = (pseudo_string(m.id[0]), pseudo_string(m.id[1]))
        else:
            table[(m.context, m.id)] = pseudo_string(m.id)
    return Lang(PSEUDO, Catalogue(PSEUDO, table, gettext.c2py("n != 1"), 2), Locale.parse("en_US"))


def render(text: "Text | str", locale: "str | None" = None) -> str:
    return lang(locale).render(text)


def placeholders(pattern: str) -> set[str]:
    return set(_PLACEHOLDER.findall(pattern))


def plural_header(code: str) -> tuple[int, str]:
    p = get_plural(code)
    return p.num_plurals, p.plural_expr


ENGLISH = Lang(DEFAULT, Catalogue.source(), Locale.parse("en_US"))  # the source; never the pseudo-language

__all__ = ["ENGLISH", "Lang", "SHIPPED", "Text", "as_text", "catalogue_code", "lang", "render"]
