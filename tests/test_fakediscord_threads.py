"""The fake's threads are Discord's: both ways to start one, thread channels (types 11 and 12)
with their parent's permissions, Create Public Threads and Send Messages in Threads, the form's
limits, the active-thread limit and archiving, all held against Discord's OpenAPI description."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import pytest
from fakediscord import FakeDiscord, running
from fakediscord import rest as fake_rest
from fakediscord.model import (CREATE_PUBLIC_THREADS, GUILD_VOICE, PRIVATE_THREAD, PUBLIC_THREAD, SEND_MESSAGES,
                               SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL)
from fakediscord.testbot import TestBot

from test_render_discord_schema import SPEC, Schema

SPECS = [SPEC, Path("/work/shared/discord-api/openapi.json")]  # beside the repository, or the shared copy
SCHEMA = Schema(json.loads(next(p for p in SPECS if p.exists()).read_text()))


def schema_errors(name: str, value) -> list[str]:
    return SCHEMA.errors({"$ref": f"#/components/schemas/{name}"}, value)


@pytest.fixture
async def testbot(fake_discord: FakeDiscord):
    async with running(fake_discord, TestBot()) as bot:
        yield bot


def text_channel(bot: TestBot, fake: FakeDiscord, name: str = "tonk") -> discord.TextChannel:
    return bot.get_channel(fake.channel(name).id)  # type: ignore[return-value]


async def test_a_public_thread_without_a_message_is_a_channel_of_its_parent(fake_discord, testbot):
    fake = fake_discord
    parent = text_channel(testbot, fake)
    thread = await parent.create_thread(name="Round 1 · Table 1", type=discord.ChannelType.public_thread,
                                        auto_archive_duration=1440)
    assert isinstance(thread, discord.Thread) and thread.parent_id == parent.id
    assert thread.type is discord.ChannelType.public_thread and thread.name == "Round 1 · Table 1"
    stored = fake.channel(thread.id)
    assert stored.type == PUBLIC_THREAD and stored.parent is fake.channel("tonk")
    assert stored not in [c for c in fake.guild.channels.values() if not c.is_thread]
    # what the bot sent and what the fake answered are Discord's shapes
    route, body = fake.thread_requests[-1]
    assert route == "POST /channels/{channel_id}/threads"
    assert schema_errors("CreateTextThreadWithoutMessageRequest", body) == []
    assert schema_errors("ThreadResponse", stored.payload()) == []
    await fake.wait_for(lambda: testbot.get_channel(thread.id) is not None, what="THREAD_CREATE in the cache")
    # the bot posts there; members see it; a slash command in the thread carries the thread
    await thread.send("Hand 1")
    assert fake.visible("alice", stored)[-1].content == "Hand 1"
    reply = await fake.slash("alice", stored, "fd hello")
    assert reply.payload["channel"]["type"] == PUBLIC_THREAD
    assert reply.payload["channel"]["parent_id"] == str(parent.id)
    assert int(reply.payload["app_permissions"]) & SEND_MESSAGES_IN_THREADS
    assert await reply.ack() == 4


async def test_a_thread_from_a_message_takes_the_messages_id(fake_discord, testbot):
    fake = fake_discord
    parent = text_channel(testbot, fake)
    starter = await parent.send("Round 2")
    thread = await starter.create_thread(name="Round 2 · Table 1")
    assert thread.id == starter.id and thread.type is discord.ChannelType.public_thread
    route, body = fake.thread_requests[-1]
    assert route == "POST /channels/{channel_id}/messages/{message_id}/threads"
    assert schema_errors("CreateTextThreadWithMessageRequest", body) == []
    assert fake.message(starter.id).payload()["thread"]["id"] == str(thread.id)
    with pytest.raises(discord.HTTPException) as refused:
        await starter.create_thread(name="again")
    assert refused.value.code == 160004
    assert [v.kind for v in fake.take_violations()] == ["thread_exists"]


async def test_threads_need_create_public_threads_and_posting_needs_send_messages_in_threads(fake_discord, testbot):
    fake = fake_discord
    channel = fake.channel("tonk")
    bot_member = fake.guild.member(fake.bot_user.id)
    channel.set_permissions(bot_member, deny=CREATE_PUBLIC_THREADS)
    parent = text_channel(testbot, fake)
    with pytest.raises(discord.Forbidden) as refused:
        await parent.create_thread(name="Table 1", type=discord.ChannelType.public_thread)
    assert refused.value.code == 50013
    assert [v.kind for v in fake.take_violations()] == ["missing_permissions"]
    # without Send Messages in the parent, a thread still takes posts if Send Messages in Threads is allowed
    channel.set_permissions(bot_member, deny=SEND_MESSAGES)
    thread = await parent.create_thread(name="Table 1", type=discord.ChannelType.public_thread)
    await thread.send("in the thread")
    with pytest.raises(discord.Forbidden):
        await parent.send("in the channel")
    fake.take_violations()
    channel.set_permissions(bot_member, deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("no more")
    assert refused.value.code == 50013
    assert fake.channel(thread.id).permissions_for(bot_member) & SEND_MESSAGES_IN_THREADS == 0
    fake.take_violations()
    # a member who cannot see the parent cannot see its threads
    alice = fake.guild.member("alice")
    channel.set_permissions(alice, deny=VIEW_CHANNEL)
    assert fake.channel(thread.id).permissions_for(alice) == 0


async def test_a_private_thread_shows_only_to_its_members(fake_discord, testbot):
    fake = fake_discord
    thread = await text_channel(testbot, fake).create_thread(name="secret")  # discord.py's default: private
    stored = fake.channel(thread.id)
    assert stored.type == PRIVATE_THREAD
    assert stored.permissions_for(fake.guild.member("alice")) == 0
    assert stored.permissions_for(fake.guild.member(fake.bot_user.id)) & VIEW_CHANNEL


async def test_the_forms_limits_and_the_channels_that_take_no_thread(fake_discord, testbot):
    fake = fake_discord
    parent = text_channel(testbot, fake)
    with pytest.raises(discord.HTTPException) as refused:
        await parent.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
    assert refused.value.code == 50035
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=parent.id)
    with pytest.raises(discord.HTTPException) as refused:
        await testbot.http.request(route, json={"name": "t", "auto_archive_duration": 30, "type": 11})
    assert refused.value.code == 50035
    thread = await parent.create_thread(name="t", type=discord.ChannelType.public_thread)
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=thread.id)
    with pytest.raises(discord.HTTPException) as refused:
        await testbot.http.request(route, json={"name": "in a thread", "type": 11})
    assert refused.value.code == 50024
    voice = fake.guild.add_channel("table-talk", type=GUILD_VOICE)
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=voice.id)
    with pytest.raises(discord.HTTPException) as refused:
        await testbot.http.request(route, json={"name": "in voice", "type": 11})
    assert refused.value.code == 50024
    assert sorted(v.kind for v in fake.take_violations()) == ["invalid_form_body"] * 2 + [
        "thread_in_wrong_channel"] * 2


async def test_the_active_thread_limit(fake_discord, testbot, monkeypatch):
    monkeypatch.setattr(fake_rest, "MAX_ACTIVE_THREADS", 2)
    parent = text_channel(testbot, fake_discord)
    for n in range(2):
        await parent.create_thread(name=f"t{n}", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.HTTPException) as refused:
        await parent.create_thread(name="one too many", type=discord.ChannelType.public_thread)
    assert refused.value.code == 160006
    assert [v.kind for v in fake_discord.take_violations()] == ["too_many_threads"]


async def test_an_idle_thread_is_archived_a_post_unarchives_it_an_edit_is_refused(fake_discord, testbot):
    fake = fake_discord
    thread = await text_channel(testbot, fake).create_thread(name="t", type=discord.ChannelType.public_thread,
                                                               auto_archive_duration=60)
    first = await thread.send("hand 1")
    fake.advance_time(61 * 60)
    with pytest.raises(discord.HTTPException) as refused:
        await first.edit(content="hand 1 (edited)")
    assert refused.value.code == 50083
    fake.take_violations()
    await thread.send("hand 2")  # a new message brings an unlocked thread back
    assert not fake.channel(thread.id).archived
    fake.channel(thread.id).archived = fake.channel(thread.id).locked = True
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("locked")
    assert refused.value.code == 50083
    assert [v.kind for v in fake.take_violations()] == ["archived_thread"]
