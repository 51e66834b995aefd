"""Words as values: what the engine, the table and the bot *say*, before a language is chosen.

A `Text` is a message id (its English source, as gettext writes it) and its parameters. The
model returns and raises these; only the edge (the cogs, the terminal, the command line) turns
one into words, in the reader's language, through `i18n`. The marker functions below are also
what `pybabel extract` looks for (see `i18n/babel.cfg`):

    t("The stake must be from 1 to {top}.", top=MAX_STAKE)
    tn("{n} card", "{n} cards", n)                      # plural form chosen by the catalogue
    tc("button", "Drop")                                # a context, for the same English word
    tnc("log", "{n} point", "{n} points", n)

Parameters stay values until the last moment: numbers are written as the language writes them,
a card is named in the language's words, a list is joined as the language joins lists, a nested
`Text` is translated too. Names (players, servers) are plain strings and are shown as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class Text:
    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    def __str__(self) -> str:  # for logs and programmers; a reader gets `i18n.Lang.render`
        from i18n import ENGLISH

        return ENGLISH.render(self)

    def __add__(self, other):  # "a" + Text: a sentence built by concatenation is a bug
        raise TypeError("a Text is not a str; render it with i18n first")

    __radd__ = __add__


class Said(str):
    """English words that carry their message id: a `str` (so the code that joins, compares or
    hashes them is unchanged), and `text`, which an edge renders in its reader's language. For the
    engine's tables of words (the options a host may set) where a `Text` cannot stand."""

    text: Text

    def __new__(cls, text: Text) -> "Said":
        from i18n import ENGLISH

        said = super().__new__(cls, ENGLISH.render(text))
        said.text = text
        return said


def said(text: Text) -> Said:
    return Said(text)


def t(msgid: str, /, **params: Any) -> Text:
    return Text(msgid, params)


def tn(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    params.setdefault("n", n)
    return Text(singular, params, plural, n)


def tc(context: str, msgid: str, /, **params: Any) -> Text:
    return Text(msgid, params, context=context)


def tnc(context: str, singular: str, plural: str, n: int, /, **params: Any) -> Text:
    params.setdefault("n", n)
    return Text(singular, params, plural, n, context)


def N_(msgid: str) -> str:
    """Mark a constant string for the catalogue where a `str` must stay (a slash command's
    description, which discord.py hands to the translator)."""
    return msgid


RAW = "{raw}"  # the one message id that is never translated: a string shown as it is


LINES = "\x00lines"  # never translated: its parts, each rendered, one after another (see `lines`)


def lines(*parts: "Text | str", sep: str = "\n") -> Text:
    """Several texts shown one after another (paragraphs of a help section, lines of a review):
    each part is its own message, so a translator never meets one giant paragraph."""
    return Text(LINES, {"parts": tuple(parts), "sep": sep})


def as_text(value: "Text | str") -> Text:
    """A refusal or a line that may still be a plain string (a name, a record's own words)."""
    return value if isinstance(value, Text) else Text(RAW, {"raw": value})
