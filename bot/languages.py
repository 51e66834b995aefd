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


LANGUAGES = ServerLanguages()
"""The running bot's (its `ServerService` uses this one); a test's service may hold its own."""


def server_locale(guild_id: int | None, guild_locale: str | None = None) -> str:
    """The Discord locale of server `guild_id`'s tables and shared answers: its chosen language,
    else `guild_locale` (its Discord language), else English. No database round-trip."""
    return LANGUAGES.server_locale(guild_id, guild_locale)


__all__ = ["LANGUAGES", "ServerLanguages", "language_name", "server_locale"]
