"""A server's language through the fake Discord: `/tonk-admin settings language:` offers every
shipped language under its own name, stores the choice (it outlives a restart), and the server's
shared messages are rendered in it; a server that chose none speaks its Discord language
(`guild_locale`), and the settings say so in the words of the manager who asked.

The words are looked up in the shipped catalogues (the sign-up's title, the settings' field), so
the test holds them to what a reader sees: German for a German server, Spanish once Spanish is
chosen, the manager's own Japanese for the settings they asked for.
"""

import re

from e2e_helpers import ack, reply_text
from test_bot_e2e import start_bot

import i18n
from engine.text import t
from i18n import SHIPPED

TITLE = t("Tonk tournament: sign-ups open")
"""The tournament sign-up's title, posted in the channel for everyone (the server's language)."""


async def open_signups(fake, channel: str, locale: str) -> None:
    sent = await fake.slash("admin", channel, "tonk tournament open")
    await ack(sent)
    title = i18n.lang(locale).render(TITLE)
    assert title != i18n.ENGLISH.render(TITLE) or locale.startswith("en")
    assert title in (await sent.original()).text


def language_field(text: str, reader: str = "ja") -> str:
    """The settings' Language field, named in the words of the manager who asked."""
    label = i18n.lang(reader).render(t("Language"))
    match = re.search(re.escape(label) + r"\n(.+)", text)
    assert match, text
    return match.group(1)


def discord_language(name: str, reader: str = "ja") -> str:
    return i18n.lang(reader).render(t("{language} (the server's Discord language)", language=name))


async def test_a_server_speaks_the_language_its_managers_choose_else_its_discord_language(
        fake_discord, bot_process, tmp_path):
    fake = fake_discord
    fake.guild.locale = "de"  # the server's Discord language (guild_locale); not a choice of the bot's
    fake.user("admin").locale = "ja"  # the manager's own client: their private answers, not the server's
    process = await start_bot(bot_process, tmp_path)

    # the option offers "the server's Discord language" and every shipped language, each in itself
    admin = next(c for c in fake.commands(fake.guild) if c["name"] == "tonk-admin")
    settings = next(o for o in admin["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert [c["value"] for c in language["choices"]] == ["discord", *SHIPPED]
    names = {c["value"]: c["name"] for c in language["choices"]}
    assert (names["es-ES"], names["de"], names["pt-BR"], names["ja"]) == ("Español", "Deutsch", "Português (Brasil)", "日本語")
    assert names["discord"] == "The server's Discord language"

    # nothing chosen: the server's Discord language, and the channel hears it
    assert language_field(await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))) == \
        discord_language("Deutsch")
    await open_signups(fake, "tonk", "de")

    # a manager picks Spanish: shown back under its own name, and the next shared message is Spanish
    chosen = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", language="es-ES"))
    assert language_field(chosen) == "Español"
    await open_signups(fake, "lobby", "es-ES")

    # the choice is stored: a restarted bot still knows it, before anyone touches the setting again
    await process.stop()
    await process.start()
    assert language_field(await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))) == "Español"
    # another setting leaves it as it is
    assert language_field(await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", stake=3))) == \
        "Español"

    # back to the server's Discord language
    back = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", language="discord"))
    assert language_field(back) == discord_language("Deutsch")


async def test_a_server_whose_discord_language_is_not_shipped_reads_english(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    fake.guild.locale = "nl"
    await start_bot(bot_process, tmp_path)
    text = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))
    assert language_field(text, "en-US") == discord_language("English", "en-US")
