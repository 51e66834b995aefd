"""Per-server settings: defaults until changed, then exactly what was set."""

import pytest
from conftest_store import db  # noqa: F401 (db is a fixture)

from bot.languages import ServerLanguages
from bot.server import DISCORD_LANGUAGE, ServerService
from bot.store import get_guild_settings, guild_languages, update_guild_settings


async def test_a_new_server_gets_the_defaults_without_a_row(db):  # noqa: F811
    async with db.sessions() as session:
        settings = await get_guild_settings(session, guild_id=1)
    assert (settings.rules, settings.stake, settings.scoring_mode) == ({"preset": "standard"}, 1, "stakes")
    assert (settings.turn_timer_seconds, settings.table_channel_ids, settings.season) == (90, None, 1)
    assert settings.updated_at is None and settings.allows_channel(12345) and settings.pictures is True
    async with db.engine.connect() as connection:
        assert (await connection.exec_driver_sql("SELECT COUNT(*) FROM guild_settings")).scalar() == 0


async def test_updates_change_only_what_is_given_and_round_trip(db):  # noqa: F811
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=1, rules={"preset": "black company", "hand_size": 7}, stake=5)
        updated = await update_guild_settings(
            session, guild_id=1, scoring_mode="pushups", turn_timer_seconds=30, table_channel_ids=[30, 10, 30]
        )
    assert (updated.rules, updated.stake, updated.scoring_mode) == ({"preset": "black company", "hand_size": 7}, 5, "pushups")
    assert (updated.turn_timer_seconds, updated.table_channel_ids) == (30, [10, 30])
    assert updated.allows_channel(10) and not updated.allows_channel(20)
    async with db.sessions() as session:
        loaded = await get_guild_settings(session, guild_id=1)
        other = await get_guild_settings(session, guild_id=2)
    assert loaded.model_dump() == updated.model_dump()
    assert other.stake == 1


async def test_an_empty_channel_list_means_every_channel(db):  # noqa: F811
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=1, table_channel_ids=[10])
        cleared = await update_guild_settings(session, guild_id=1, table_channel_ids=[])
    assert cleared.table_channel_ids is None and cleared.allows_channel(99)


async def test_pictures_turn_off_and_on_without_touching_the_rest(db):  # noqa: F811
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=1, stake=4)
        off = await update_guild_settings(session, guild_id=1, pictures=False)
        assert (off.pictures, off.stake) == (False, 4)
        assert (await get_guild_settings(session, guild_id=1)).pictures is False
        fresh = await update_guild_settings(session, guild_id=2, pictures=False)
        assert (fresh.pictures, fresh.stake) == (False, 1)
        assert (await update_guild_settings(session, guild_id=1, pictures=True)).pictures is True


async def test_a_language_is_stored_listed_and_cleared_without_touching_the_rest(db):  # noqa: F811
    async with db.sessions() as session:
        assert (await get_guild_settings(session, guild_id=1)).language is None  # the server's Discord language
        await update_guild_settings(session, guild_id=1, stake=4)
        spanish = await update_guild_settings(session, guild_id=1, language="es-ES")
        assert (spanish.language, spanish.stake) == ("es-ES", 4)
        await update_guild_settings(session, guild_id=2, language="ja")
        await update_guild_settings(session, guild_id=3, stake=2)
        assert await guild_languages(session) == {1: "es-ES", 2: "ja"}  # only the servers that chose one
        assert (await update_guild_settings(session, guild_id=1, language=None)).language is None
        assert await guild_languages(session) == {2: "ja"}


async def test_the_servers_language_is_read_once_and_kept_in_step_with_the_setting(db):  # noqa: F811
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=2, language="pt-BR")
    languages = ServerLanguages()
    server = ServerService(db, tables=None, languages=languages)  # type: ignore[arg-type]
    await server.load_languages()
    calls = []
    languages.guild_locale = lambda guild_id: calls.append(guild_id) or "de"
    assert server.server_locale(2, "en-US") == "pt-BR"  # chosen, whatever the server's Discord language
    assert server.server_locale(1, "fr") == "fr"  # none chosen: the server's Discord language
    assert server.server_locale(1) == "de" and calls == [1]  # only the id: the bot's guild cache says
    languages.guild_locale = lambda guild_id: None
    assert server.server_locale(1) == "en-US" and server.server_locale(None) == "en-US"  # else English
    current, _ = await server.update_settings(1, language="ja")
    assert current.language == "ja" and server.server_locale(1, "fr") == "ja"
    current, _ = await server.update_settings(1, stake=3)  # another setting keeps the language
    assert server.server_locale(1, "fr") == "ja"
    await server.update_settings(1, language=DISCORD_LANGUAGE)
    assert server.server_locale(1, "fr") == "fr"
    async with db.sessions() as session:
        assert (await get_guild_settings(session, guild_id=1)).language is None
    # no database round-trip for a language once loaded: the store is not asked again
    await db.close()
    assert server.server_locale(2, "en-US") == "pt-BR"


@pytest.mark.parametrize(
    "changes",
    [
        {"stake": 0},
        {"stake": True},
        {"scoring_mode": "beans"},
        {"turn_timer_seconds": 0},
        {"rules": {"hand_size": 7}},
        {"rules": ["standard"]},
        {"table_channel_ids": "123"},
        {"pictures": 0},
        {"pictures": "off"},
        {"language": "nl"},
        {"language": "es"},
    ],
)
async def test_bad_settings_are_refused(db, changes):  # noqa: F811
    async with db.sessions() as session:
        with pytest.raises(ValueError):
            await update_guild_settings(session, guild_id=1, **changes)
        assert (await get_guild_settings(session, guild_id=1)).updated_at is None


def test_server_lang_reads_the_chosen_language_else_the_guilds_from_a_guild_an_interaction_or_an_id(monkeypatch):
    import discord

    from bot import languages
    from cogs.common import server_lang

    registry = ServerLanguages()
    monkeypatch.setattr(languages, "LANGUAGES", registry)
    registry.load({7: "es-ES", 8: "not-shipped"})  # a stale value is ignored, not shown
    registry.guild_locale = lambda guild_id: "ja" if guild_id == 9 else None

    class Guild:
        def __init__(self, id, locale):
            self.id, self.preferred_locale = id, discord.Locale(locale)

    interaction = discord.Interaction.__new__(discord.Interaction)
    interaction.guild_id, interaction.guild_locale = 7, discord.Locale("de")
    assert server_lang(interaction).code == "es"
    interaction.guild_id = 8
    assert server_lang(interaction).code == "de"  # none chosen: the guild_locale Discord sent
    assert server_lang(Guild(7, "fr")).code == "es" and server_lang(Guild(8, "pl")).code == "pl"
    assert server_lang(9).code == "ja" and server_lang(10).code == "en" and server_lang(None).code == "en"
    assert server_lang(Guild(8, "es-419")).locale == "es-419"  # Latin American numbers and lists, Spanish words
