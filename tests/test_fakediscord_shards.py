"""The fake Discord's sharded gateway: GET /gateway/bot's count, IDENTIFY with `shard`, guilds by shard."""

from __future__ import annotations

import json

import aiohttp
import discord
from fakediscord import FakeDiscord, running


def two_shards(fake: FakeDiscord) -> None:
    for shard_id, name in ((0, "Zero"), (1, "One")):
        guild = fake.add_guild(name, channels=("tonk",), shard=(shard_id, 2))
        fake.add_member(guild, "alice" if shard_id == 0 else "bob")


async def test_a_sharded_client_gets_each_guild_on_its_own_shard(fake_discord_factory):
    fake = await fake_discord_factory(build=two_shards, tonk_hall=False, shards=2)
    zero, one = fake.guilds.values()
    assert ((zero.id >> 22) % 2, (one.id >> 22) % 2) == (0, 1)
    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.AutoShardedClient(intents=intents)  # no shard count: it asks GET /gateway/bot
    async with running(fake, client):
        # discord.py waits 5 s between two IDENTIFYs (max_concurrency 1), as Discord asks
        await fake.wait_for(lambda: len(fake.shard_sessions()) == 2, timeout=20, what="both shards")
        assert fake.requests_to("GET /gateway/bot")
        assert client.shard_count == 2
        assert sorted(session.shard for session in fake.shard_sessions()) == [(0, 2), (1, 2)]
        await fake.wait_for(lambda: client.get_guild(one.id) is not None and client.get_guild(zero.id) is not None,
                            what="both guilds")
        assert (client.get_guild(zero.id).shard_id, client.get_guild(one.id).shard_id) == (0, 1)
        # each shard's session was sent its own guild only
        [session0] = fake.shard_sessions(0)
        [session1] = fake.shard_sessions(1)
        assert session0.serves(zero.id) and not session0.serves(one.id) and session1.serves(one.id)


async def test_a_process_running_one_shard_gets_only_its_guilds(fake_discord_factory):
    fake = await fake_discord_factory(build=two_shards, tonk_hall=False, shards=2)
    zero, one = fake.guilds.values()
    client = discord.AutoShardedClient(intents=discord.Intents.none(), shard_count=2, shard_ids=[1])
    async with running(fake, client):
        assert [session.shard for session in fake.shard_sessions()] == [(1, 2)]
        # nobody runs shard 0: Discord could not deliver anything in guild Zero
        assert not any(session.serves(zero.id) for session in fake.shard_sessions())
        assert client.get_guild(zero.id) is None and client.get_guild(one.id) is not None


async def test_an_identify_with_an_impossible_shard_is_closed_with_4010(fake_discord_factory):
    fake = await fake_discord_factory(shards=2)
    fake.violations_allowed = True
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        await ws.send_str(json.dumps({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [2, 2],
                                                     "properties": {}}}))
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
    assert [v.kind for v in fake.violations] == ["invalid_shard"]
