"""The slash commands in every shipped language: discord.py's `app_commands.Translator` over the
catalogues.

Descriptions, option descriptions and choice names are looked up in each language's catalogue
(their English is marked with `N_` where the commands are declared, so `python -m i18n extract`
puts them in the template) and sent as `description_localizations` / `name_localizations` when
the commands are synced. Command and option names stay English: a translated name would break
mentions (`/tonk new`) and the instructions people share. A string a catalogue lacks, or whose
translation Discord would refuse (longer than 100 characters), is left out for that language:
Discord shows the English.
"""

from __future__ import annotations

import logging

from discord import Locale
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, Translator, locale_str

import i18n

log = logging.getLogger(__name__)

TRANSLATED = {TranslationContextLocation.command_description, TranslationContextLocation.group_description,
              TranslationContextLocation.parameter_description, TranslationContextLocation.choice_name}
"""What Discord shows in the reader's language; names (commands, groups, options) stay English."""

MAX_LENGTH = 100
"""Discord's limit for a description and a choice's name, in every language."""


def command_translation(message: str, locale: str) -> str | None:
    """`message`'s translation for the Discord locale `locale`, or None (Discord shows the English)."""
    lang = i18n.lang(locale)
    code = lang.code
    if code == "en":
        return None
    found = lang.catalogue.messages.get((None, message))
    if not isinstance(found, str) or not found.strip() or found == message:
        return None
    if len(found) > MAX_LENGTH:
        log.warning("catalogue %s: the translation of %r is longer than Discord allows: shown in English",
                    code, message)
        return None
    return found


class CatalogueTranslator(Translator):
    async def translate(self, string: locale_str, locale: Locale, context: TranslationContextTypes) -> str | None:
        if context.location not in TRANSLATED:
            return None
        return command_translation(string.message, locale.value)


__all__ = ["CatalogueTranslator", "command_translation"]
