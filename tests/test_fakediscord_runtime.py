"""Starting bots the production way, pointing discord.py at the fake, and load the fake can carry."""

from __future__ import annotations

import asyncio
import json
import signal

import aiohttp
import discord.http
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from fakediscord import BotNotConnected, FakeDiscord, running
from fakediscord.testbot import TestBot

from bot.endpoints import apply_endpoints



@pytest.fixture
def saved_endpoints():
    saved = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield saved
    discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


def test_apply_endpoints_with_none_changes_nothing(saved_endpoints) -> None:
    apply_endpoints(None, None)
    assert (discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == saved_endpoints
    assert discord.http.Route.BASE == "https://discord.com/api/v10"


def test_apply_endpoints_redirects_rest_and_gateway(saved_endpoints) -> None:
    apply_endpoints("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway?v=9")
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    assert DiscordWebSocket.DEFAULT_GATEWAY == yarl.URL("ws://127.0.0.1:9/gateway")
    with pytest.raises(ValueError):
        apply_endpoints(None, "http://127.0.0.1:9/gateway")


async def test_subprocess_bot_restarts_on_the_same_state(fake_discord: FakeDiscord, bot_process, tmp_path) -> None:
    state = tmp_path / "state.json"
    process = bot_process("fakediscord.testbot", env={"FDTEST_STATE": str(state)})
    await process.start()
    reply = await fake_discord.slash("alice", "tonk", "fd counter")
    counter = await reply.original()
    await (await fake_discord.click("bob", counter, "fd:counter")).ack()
    assert counter.button(custom_id="fd:counter").label == "Count: 1"

    assert await process.stop() == 0  # SIGTERM closes the bot cleanly
    assert not fake_discord.bot_ready

    await process.start()
    assert fake_discord.identify_count == 2
    assert fake_discord.command_syncs == 2
    click = await fake_discord.click("carol", counter, "fd:counter")  # persistent view, new process
    assert await click.ack() == 7
    assert counter.button(custom_id="fd:counter").label == "Count: 2"
    assert json.loads(state.read_text()) == {"count": 2}
    assert "logging in using static token" in process.output()


async def test_commands_without_a_connected_bot_cannot_be_delivered(fake_discord: FakeDiscord) -> None:
    url = f"{fake_discord.api_base}/applications/{fake_discord.application_id}/commands"
    command = {"name": "ping", "description": "Ping", "type": 1}
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as session:
        async with session.put(url, json=[command]) as response:  # a deploy script, no gateway
            assert response.status == 200
    with pytest.raises(BotNotConnected):
        await fake_discord.slash("dave", "tonk", "ping")


async def test_killed_bot_fails_interactions_until_restarted(fake_discord: FakeDiscord, bot_process) -> None:
    process = bot_process("fakediscord.testbot")
    await process.start()
    await process.stop(sig=signal.SIGKILL)  # no goodbye: the session looks resumable to Discord
    lost = await fake_discord.slash("dave", "tonk", "fd hello")
    fake_discord.advance_time(3.5)
    [violation] = fake_discord.take_violations()
    assert violation.kind == "not_acknowledged" and violation.interaction_id == lost.id

    await process.start()
    reply = await fake_discord.slash("dave", "tonk", "fd hello")
    assert (await reply.original()).content == "Hello, dave!"


async def test_two_hundred_concurrent_commands_across_many_channels(fake_discord_factory) -> None:
    def build(fake: FakeDiscord) -> None:
        for table in range(20):
            fake.guild.add_channel(f"table-{table}")
        for player in range(40):
            fake.add_member(fake.guild, f"player{player}")

    fake = await fake_discord_factory(build=build)
    async with running(fake, TestBot()):
        channels = [c for c in fake.guild.channels.values() if c.name.startswith("table-")]
        replies = await asyncio.gather(*(
            fake.slash(f"player{i % 40}", channels[i % 20], "fd hello") for i in range(200)
        ))
        messages = await asyncio.gather(*(r.original(timeout=10) for r in replies))
    assert {m.content for m in messages} == {f"Hello, player{i}!" for i in range(40)}
    stats = fake.ack_latency_stats()
    assert stats.count == 200 and stats.p99 < fake.ack_deadline


async def test_several_guilds_each_reach_the_bot(fake_discord_factory) -> None:
    def build(fake: FakeDiscord) -> None:
        second = fake.add_guild("Back Room", channels=("cards",))
        fake.add_member(second, "alice")  # the same user in both guilds
        fake.add_member(second, "erin")

    fake = await fake_discord_factory(build=build)
    async with running(fake, TestBot()) as bot:
        assert sorted(g.name for g in bot.guilds) == ["Back Room", "Tonk Hall"]
        back_room = next(g for g in fake.guilds.values() if g.name == "Back Room")
        reply = await fake.slash("erin", back_room.channel("cards"), "fd hello")
        assert (await reply.original()).content == "Hello, erin!"
        assert reply.payload["guild_id"] == str(back_room.id)
        with pytest.raises(LookupError):
            await fake.slash("erin", "tonk", "fd hello")  # erin is not in Tonk Hall
