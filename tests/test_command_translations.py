"""The slash commands in every shipped language: what discord.py would sync (the commands' payload
through the bot's `CatalogueTranslator`) holds Discord's rules in every language, the English of
every description and choice is in the catalogue's template, and a translation reaches the
registration as `description_localizations` / `name_localizations` (names stay English).

Discord's rules come from its OpenAPI description (../shared/discord-api/openapi.json) where it
gives them: a description and a choice's name are 1 to 100 characters in every locale, and a
locale is one of Discord's. The 8,000-character total of a command is only in Discord's
documentation ("Application Commands", Limits): the names, descriptions and choice names and
values of a command, its subcommands, options and choices, each field counted at its longest
localisation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import i18n
from bot.client import TonkBot
from bot.config import load_settings
from bot.translator import CatalogueTranslator
from cogs.admin import LANGUAGE_CHOICES, TonkAdminCog
from cogs.tonk import TonkCog

SPECS = [Path(__file__).resolve().parents[2] / "shared" / "discord-api" / "openapi.json",
         Path("/work/shared/discord-api/openapi.json")]
COMMAND_TOTAL = 8000
"""Discord's documented limit on a command's characters (not in the OpenAPI description)."""


@pytest.fixture(scope="module")
def spec() -> dict:
    for path in SPECS:
        if path.exists():
            return json.loads(path.read_text())["components"]["schemas"]
    pytest.skip("shared/discord-api/openapi.json is not beside the repository")


def rule(spec: dict, schema: str, field: str) -> tuple[int, int]:
    """(minLength, maxLength) of each value of `schema`'s `field` localisations."""
    values = spec[schema]["properties"][field]["additionalProperties"]
    return values.get("minLength", 0), values["maxLength"]


async def payloads(translator: CatalogueTranslator | None = None) -> dict[str, dict]:
    """{name: payload} of the bot's commands as `tree.sync` would send them."""
    bot = TonkBot(settings=load_settings({"DISCORD_TOKEN": "MTIz.fake.token-for-tests"}), db=None)  # type: ignore[arg-type]
    tonk = TonkCog(bot)
    for cog in (tonk, TonkAdminCog(tonk)):
        bot.tree.add_command(cog.__cog_app_commands_group__)  # what add_cog does, without the cog's start
    if translator is not None:
        await bot.tree.set_translator(translator)
    out = {}
    for command in bot.tree._get_all_commands():
        out[command.name] = (await command.get_translated_payload(bot.tree, translator) if translator
                             else command.to_dict(bot.tree))
    await bot.http.close()  # never logged in: nothing else to close
    return out


def walk(node: dict, kind: str = "command"):
    """(kind, node) for the command and every option and choice under it."""
    yield kind, node
    for option in node.get("options") or []:
        yield from walk(option, "option")
    for choice in node.get("choices") or []:
        yield "choice", choice


def longest(node: dict, field: str) -> int:
    return max([len(str(node.get(field) or ""))] + [len(v) for v in (node.get(f"{field}_localizations") or {}).values()])


def total(command: dict) -> int:
    """A command's characters as Discord counts them against its 8,000."""
    count = 0
    for kind, node in walk(command):
        count += longest(node, "name")
        if kind == "choice":
            count += len(str(node["value"]))
        else:
            count += longest(node, "description")
    return count


async def test_every_localised_string_holds_discords_rules_in_every_language(spec):
    synced = await payloads(CatalogueTranslator())
    locales = {o["const"] for o in spec["AvailableLocalesEnum"]["oneOf"]}
    schemas = {"command": "ApplicationCommandCreateRequest", "option": "ApplicationCommandStringOption",
               "choice": "ApplicationCommandOptionStringChoice"}
    for name, command in synced.items():
        for kind, node in walk(command):
            for field in ("description", "name") if kind == "choice" else ("description",):
                if kind == "choice" and field == "description":
                    continue
                low, high = rule(spec, schemas[kind], f"{field}_localizations")
                for locale, text in (node.get(f"{field}_localizations") or {}).items():
                    assert locale in locales, (name, node.get("name"), locale)
                    assert low <= len(text) <= high, (name, node.get("name"), locale, text)
            if kind != "choice":
                assert not node.get("name_localizations"), (name, node["name"])  # names stay English
        assert total(command) <= COMMAND_TOTAL, (name, total(command))


async def test_the_english_leaves_room_for_languages_that_run_longer():
    """German and Russian run about 30% longer than English: every command must still fit then."""
    for name, command in (await payloads()).items():
        assert total(command) * 1.3 <= COMMAND_TOTAL, (name, total(command))
        for kind, node in walk(command):
            if kind != "choice":
                assert len(node["description"]) <= 100


def test_top_offers_every_category_the_answer_knows():
    from cogs import stats_commands, stats_render

    assert [c.value for c in stats_commands.CATEGORY_CHOICES] == list(stats_render.CATEGORY_WORDS)


async def test_every_description_and_choice_is_in_the_catalogues_template():
    """A command's words reach translators only if `python -m i18n extract` finds them (`N_`)."""
    with open(i18n.LOCALES_DIR / "tonk.pot", "rb") as fh:
        template = {m.id for m in read_po(fh) if m.id and m.context is None}
    language_names = {choice.name for choice in LANGUAGE_CHOICES[1:]}
    for name, command in (await payloads()).items():
        for kind, node in walk(command):
            if kind == "choice":
                if node["name"] == str(node["value"]) or node["name"] in language_names:
                    continue  # a preset's or a level's own name; a language's name in itself
                assert node["name"] in template, (name, node["name"])
            else:
                assert node["description"] in template, (name, node["name"], node["description"])


def node_at(command: dict, *path: str) -> dict:
    node = command
    for part in path:
        node = next(o for o in node["options"] if o["name"] == part)
    return node


async def test_a_translation_reaches_the_registration_for_every_locale_of_its_language(monkeypatch):
    spanish = i18n.lang("es-ES").catalogue.messages
    monkeypatch.setitem(spanish, (None, "Open a Tonk table in this channel"), "Abre una mesa de Tonk en este canal")
    monkeypatch.setitem(spanish, (None, "Cards dealt to each player"), "Cartas que recibe cada jugador")
    monkeypatch.setitem(spanish, (None, "7 cards"), "7 cartas")
    monkeypatch.setitem(spanish, (None, "The server's Discord language"), "El idioma de Discord del servidor")
    monkeypatch.setitem(spanish, (None, "Play Tonk, the knock-rummy"), "x" * 101)  # Discord would refuse it
    synced = await payloads(CatalogueTranslator())
    tonk, admin = synced["tonk"], synced["tonk-admin"]
    new = node_at(tonk, "new")
    assert new["description"] == "Open a Tonk table in this channel"
    spanish_only = {k: v for k, v in new["description_localizations"].items() if k.startswith("es")}
    assert spanish_only == {"es-ES": "Abre una mesa de Tonk en este canal",
                            "es-419": "Abre una mesa de Tonk en este canal"}
    hand_size = node_at(tonk, "new", "hand_size")
    assert hand_size["description_localizations"]["es-419"] == "Cartas que recibe cada jugador"
    seven = next(c for c in hand_size["choices"] if c["value"] == 7)
    assert seven["name"] == "7 cards"
    assert {k: v for k, v in seven["name_localizations"].items() if k.startswith("es")} == {"es-ES": "7 cartas",
                                                                                          "es-419": "7 cartas"}
    assert not new.get("name_localizations") and not hand_size.get("name_localizations")
    # the too-long translation is left out: Discord shows the English rather than refuse every command
    assert not {k for k in tonk.get("description_localizations") or {} if k.startswith("es")}
    language = node_at(admin, "settings", "language")
    choices = {c["value"]: c for c in language["choices"]}
    assert choices["discord"]["name_localizations"]["es-ES"] == "El idioma de Discord del servidor"
    assert [choices[code]["name"] for code in ("en-US", "es-ES", "de", "ja")] == ["English", "Español", "Deutsch", "日本語"]
    assert not choices["de"].get("name_localizations")  # a language's name is its own, in every client


async def test_the_shipped_catalogues_translations_are_sent_for_each_shipped_locale():
    """Whatever a shipped catalogue translates of the commands' words fits Discord's 100 characters
    and is in the registration, for that language's Discord locales; nothing is sent for a
    language that is not shipped."""
    synced = await payloads(CatalogueTranslator())
    for name, command in synced.items():
        for kind, node in walk(command):
            field = "name" if kind == "choice" else "description"
            sent = node.get(f"{field}_localizations") or {}
            for locale in [*i18n.SHIPPED, *i18n.ALIASES]:
                found = i18n.lang(locale).catalogue.messages.get((None, node[field]))
                if i18n.catalogue_code(locale) != "en" and isinstance(found, str) and found:
                    # a translation Discord would refuse is left out at start-up; here it fails
                    assert len(found) <= 100, (locale, node[field], found)
                    assert sent.get(locale) == found, (name, node[field], locale)
                else:
                    assert locale not in sent, (name, node[field], locale)
            assert not set(sent) - set(i18n.SHIPPED) - set(i18n.ALIASES), (name, node[field], sent)


def test_the_fake_discord_refuses_what_discord_refuses_in_a_registration():
    """The fake holds every e2e registration to the same rules (tests/fakediscord/limits.py)."""
    from fakediscord import limits

    def refused(command: dict) -> list[str]:
        errors = limits.FormErrors()
        limits.check_commands([command], errors)
        return errors.flat

    good = {"name": "tonk", "description": "Play", "description_localizations": {"es-ES": "Jugar"},
            "options": [{"type": 3, "name": "mode", "description": "Mode", "choices": [
                {"name": "both", "value": "both", "name_localizations": {"de": "beide"}}]}]}
    assert refused(good) == []
    assert refused({**good, "description_localizations": {"es": "Jugar"}})  # not a Discord locale
    assert refused({**good, "description_localizations": {"es-ES": "x" * 101}})
    assert refused({**good, "description_localizations": {"es-ES": ""}})
    long_choice = {**good, "options": [{**good["options"][0], "choices": [
        {"name": "both", "value": "both", "name_localizations": {"de": "x" * 101}}]}]}
    assert refused(long_choice)
    many = [{"type": 3, "name": f"o{i}", "description": "d", "description_localizations": {"ru": "я" * 100},
             "choices": [{"name": f"c{j}", "value": f"v{j}", "name_localizations": {"ru": "я" * 100}}
                         for j in range(3)]} for i in range(20)]
    assert limits.command_size({**good, "options": many}) > 8000
    assert "Command exceeds maximum size (8000) (APPLICATION_COMMAND_TOO_LARGE)" in " ".join(
        refused({**good, "options": many}))
