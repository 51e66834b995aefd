"""Which language a server's shared messages speak: its `/tonk-admin settings language:`, else
its Discord language (`guild_locale`, "en-US" on a server that is not a Community server), else
English.

A click must not wait for the database to learn this: `ServerLanguages` holds the choice of
every server that made one (read in one query at start-up, `load`), and the service changes it
when a manager sets it (`chose`) or the server's data is deleted (`forgot`). A guild belongs to
one shard, and so to one process: the process that stores a server's choice is the one that
reads it.

`server_locale(guild_id, guild_locale)` answers from it, at no cost; `cogs.common.server_lang`
turns that into an `i18n.Lang`.
"""

from __future__ import annotations

from collections.abc import Callable

from babel import Locale

from i18n import DEFAULT, SHIPPED, catalogue_code

_BABEL_NAMES = {"zh_CN": "zh_Hans", "zh_TW": "zh_Hant"}
"""Two shipped languages are both "中文": their names say which script."""


def language_name(locale: str) -> str:
    """A shipped language's name in that language ("Deutsch", "Español", "中文（简体）")."""
    code = catalogue_code(locale)
    babel = Locale.parse(_BABEL_NAMES.get(code, code))
    name = babel.get_display_name(babel) or locale
    return name[:1].upper() + name[1:]


class ServerLanguages:
    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}
        self.guild_locale: Callable[[int], str | None] = lambda guild_id: None
        """The server's Discord language when only its id is known (the bot looks in its guild
        cache): set by the client."""

    def load(self, chosen: dict[int, str]) -> None:
        self._chosen = {guild_id: locale for guild_id, locale in chosen.items() if locale in SHIPPED}

    def chosen(self, guild_id: int | None) -> str | None:
        """The language a manager chose for the server, or None (its Discord language)."""
        return self._chosen.get(guild_id) if guild_id is not None else None

    def chose(self, guild_id: int, locale: str | None) -> None:
        if locale is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = locale

    def forgot(self, guild_id: int) -> None:
        self._chosen.pop(guild_id, None)

    def server_locale(self, guild_id: int | None, guild_locale: str | None = None) -> str:
        """The Discord locale the server's shared messages are written in."""
        chosen = self.chosen(guild_id)
        if chosen is not None:
            return chosen
        if guild_locale is None and guild_id is not None:
            guild_locale = self.guild_locale(guild_id)
        return str(guild_locale) if guild_locale else DEFAULT


class PeopleLanguages:
    """Each person's Discord language as their last click told it (`interaction.locale`): what a
    message only they read is written in when no click is in hand (their live private hand edited
    after another player's move, a direct message to a host). Bounded: the oldest are forgotten
    first, and a person forgotten is written to in English until their next click."""

    def __init__(self, most: int = 100_000) -> None:
        self._locales: dict[int, str] = {}
        self._most = most

    def heard(self, user_id: int, locale: str | None) -> None:
        if not locale or self._locales.get(user_id) == locale:
            return
        self._locales.pop(user_id, None)
        self._locales[user_id] = locale
        if len(self._locales) > self._most:
            del self._locales[next(iter(self._locales))]

    def locale(self, user_id: int | None) -> str | None:
        return self._locales.get(user_id) if user_id is not None else None


LANGUAGES = ServerLanguages()
"""The running bot's (its `ServerService` uses this one); a test's service may hold its own."""


PEOPLE = PeopleLanguages()
"""The running bot's record of each person's language (cogs.common.reader_lang fills it)."""


def person_locale(user_id: int | None) -> str | None:
    """The Discord locale of the last click of `user_id` this process saw, or None."""
    return PEOPLE.locale(user_id)


def server_locale(guild_id: int | None, guild_locale: str | None = None) -> str:
    """The Discord locale of server `guild_id`'s tables and shared answers: its chosen language,
    else `guild_locale` (its Discord language), else English. No database round-trip."""
    return LANGUAGES.server_locale(guild_id, guild_locale)


__all__ = ["LANGUAGES", "PEOPLE", "PeopleLanguages", "ServerLanguages", "person_locale", "language_name", "server_locale"]
