"""A server's language through the fake Discord: `/tonk-admin settings language:` offers every
shipped language under its own name, stores the choice (it outlives a restart), and the server's
shared messages are rendered in it; a server that chose none speaks its Discord language
(`guild_locale`), and the settings say so in the words of the manager who asked.

Which words are Spanish depends on what the es catalogue translates so far; what is checked here
holds whatever it translates: the choice shown back under its own name ("Español"), and the
language the channel's message was rendered in (a message missing from a catalogue is logged
once, naming the catalogue the bot looked it up in).
"""

import re

from e2e_helpers import ack, reply_text
from test_bot_e2e import start_bot

from i18n import SHIPPED

SHARED_WORDS = "Organiser: {name}"
"""A message of the tournament's sign-up, posted in the channel for everyone (the server's language)."""


def looked_up(process, code: str) -> bool:
    """Whether the bot rendered the channel's sign-up in the language of catalogue `code`."""
    return f"catalogue {code} has no translation of {SHARED_WORDS!r}" in process.output()


async def open_signups(fake, channel: str) -> None:
    sent = await fake.slash("admin", channel, "tonk tournament open")
    await ack(sent)
    assert "sign-ups open" in (await sent.original()).text


def language_field(text: str) -> str:
    match = re.search(r"Language\n(.+)", text)
    assert match, text
    return match.group(1)


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
        "Deutsch (the server's Discord language)"
    await open_signups(fake, "tonk")
    await fake.wait_for(lambda: looked_up(process, "de"), what="the sign-up rendered in German")
    assert not looked_up(process, "es")

    # a manager picks Spanish: shown back under its own name, and the next shared message is Spanish
    chosen = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", language="es-ES"))
    assert language_field(chosen) == "Español"
    await open_signups(fake, "lobby")
    await fake.wait_for(lambda: looked_up(process, "es"), what="the sign-up rendered in Spanish")

    # the choice is stored: a restarted bot still knows it, before anyone touches the setting again
    await process.stop()
    await process.start()
    assert language_field(await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))) == "Español"
    # another setting leaves it as it is
    assert language_field(await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", stake=3))) == \
        "Español"

    # back to the server's Discord language
    back = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings", language="discord"))
    assert language_field(back) == "Deutsch (the server's Discord language)"


async def test_a_server_whose_discord_language_is_not_shipped_reads_english(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    fake.guild.locale = "nl"
    await start_bot(bot_process, tmp_path)
    text = await reply_text(await fake.slash("admin", "tonk", "tonk-admin settings"))
    assert language_field(text) == "English (the server's Discord language)"
