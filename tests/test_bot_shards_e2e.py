"""Two bot processes, one shard each, on one PostgreSQL: each drives only its servers' tables.

Shard 0's process is killed mid-hand (SIGKILL: no goodbye) and shard 1's is restarted
meanwhile: shard 1 resumes its own table only, and shard 0's table stays exactly as it
was until its own process comes back and plays it on from where it stopped.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal

import pytest
from e2e_helpers import ack, bot_env, turn_name
from fakediscord import MANAGE_GUILD, FakeDiscord

from bot.store import balance_total, open_database
from engine import Game

SHARDS = 2
TURN_TIMER = 3  # seconds: a human who does not play is played for, then marked away (computers take over)


def two_servers(fake: FakeDiscord) -> None:
    for shard in range(SHARDS):
        guild = fake.add_guild(f"Shard {shard} Hall", channels=("tonk",), shard=(shard, SHARDS))
        fake.add_member(guild, f"player{shard}")
        fake.add_member(guild, f"mod{shard}", permissions=MANAGE_GUILD)


@pytest.fixture
async def fake_discord(fake_discord_factory) -> FakeDiscord:
    return await fake_discord_factory(build=two_servers, tonk_hall=False, shards=SHARDS)


def buttons(message) -> list[str]:
    return [b.label for b in message.buttons]


async def deal_a_hand_in_play(fake, guild, shard):
    """A table of one person and two computers, dealt, with a hand in play (re-dealt if it ended at once)."""
    channel = guild.channel("tonk")
    await ack(await fake.slash(f"mod{shard}", channel, "tonk-admin settings", turn_timer=TURN_TIMER))
    sent = await fake.slash(f"player{shard}", channel, "tonk new", computers=2, level="easy")
    await ack(sent)
    table = await sent.original()
    await ack(await fake.click(f"player{shard}", table.button("Start")), expect=7)
    await fake.wait_for(lambda: "Tonk · hand" in table.text, what="the deal")
    for hand in range(2, 8):
        if "Next hand" not in buttons(table):
            return table
        # a tonk on the deal ended the hand at once: deal the next one
        await ack(await fake.click(f"player{shard}", table.button("Next hand")))
        await fake.wait_for(lambda: f"hand {hand}" in table.text, what="the next deal")
    raise AssertionError("six hands in a row ended on the deal")


def table_id_of(table) -> int:
    ids = {int(m.group(1)) for b in table.buttons for m in [re.match(r"tonk:(\d+):", b.custom_id or "")] if m}
    assert len(ids) == 1, [b.custom_id for b in table.buttons]
    return ids.pop()


def resumed(output: str) -> list[set[int]]:
    """The table ids of each 'resuming N open tables' line, one set per start."""
    return [{int(table) for table in re.findall(r"(\d+)@\d+", line)}
            for line in re.findall(r"resuming \d+ open tables.*", output)]


async def stored(url, table_id):
    async with await open_database(url) as database, database.engine.connect() as connection:
        row = (await connection.exec_driver_sql(
            f"SELECT version, status, hand_number, engine_state FROM live_tables WHERE id = {int(table_id)}")).one()
        hands = (await connection.exec_driver_sql(
            f"SELECT hand_id, record, result FROM hands WHERE table_id = {int(table_id)} ORDER BY id")).all()
    return row, hands


async def test_two_shard_processes_on_one_postgresql_never_drive_each_others_tables(
        fake_discord, bot_process, postgres_server, tmp_path):
    fake = fake_discord
    url = postgres_server.new_database()
    guilds = list(fake.guilds.values())
    processes = [
        bot_process(env=bot_env(tmp_path, DATABASE_URL=url, SHARD_COUNT=str(SHARDS), SHARD_IDS=str(shard),
                                TONK_COMPUTER_DELAY="0.2"))
        for shard in range(SHARDS)
    ]
    for process in processes:
        await process.start()
    await fake.wait_for_commands("tonk")
    assert sorted(s.shard for s in fake.shard_sessions()) == [(0, SHARDS), (1, SHARDS)]

    tables = [await deal_a_hand_in_play(fake, guild, shard) for shard, guild in enumerate(guilds)]
    ids = [table_id_of(table) for table in tables]

    # Shard 0's process dies mid-hand; shard 1's restarts while it is down.
    await processes[0].stop(sig=signal.SIGKILL)
    frozen_text = tables[0].text
    frozen_row, _ = await stored(url, ids[0])
    assert frozen_row[1] == "playing"
    await processes[1].restart()

    # Shard 1 plays its own hand to the end (timers, then computers for the away player) ...
    await fake.wait_for(lambda: "Next hand" in buttons(tables[1]), timeout=90, what="shard 1's hand to end")
    # ... and never touched shard 0's table, though it was open in the same database.
    assert tables[0].text == frozen_text
    assert (await stored(url, ids[0]))[0] == frozen_row

    # Shard 0 comes back and plays its hand on from where it stopped.
    await processes[0].start()
    await fake.wait_for(lambda: "Next hand" in buttons(tables[0]), timeout=90, what="shard 0's hand to end")

    outputs = [process.output() for process in processes]
    assert resumed(outputs[0]) == [set(), {ids[0]}]  # first start: nothing yet; restart: its own table
    assert resumed(outputs[1]) == [set(), {ids[1]}]  # its restart saw both open tables, took only its own
    for shard, output in enumerate(outputs):
        other = ids[1 - shard]
        assert not re.search(rf"\btable {other}\b", output), f"shard {shard} mentions table {other}"
        assert "Traceback" not in output, output[-3000:]

    # Nothing lost, nothing played twice: every hand once, replaying to its stored result.
    for shard, table_id in enumerate(ids):
        (version, status, hand_number, state), hands = await stored(url, table_id)
        assert status == "between_hands"
        assert [hand_id for hand_id, _, _ in hands] == [f"{table_id}-{n}" for n in range(1, hand_number + 1)]
        for _, record, result in hands:
            record = json.loads(record) if isinstance(record, str) else record
            result = json.loads(result) if isinstance(result, str) else result
            game = Game.from_record(record)
            assert game.over and game.outcome.result(dropper=True) == result
        if shard == 0:  # the hand that was cut off kept every play made before the kill
            before = json.loads(frozen_row[3])["actions"]
            last = json.loads(hands[-1][1]) if isinstance(hands[-1][1], str) else hands[-1][1]
            assert last["actions"][:len(before)] == before and len(last["actions"]) > len(before)
    async with await open_database(url) as database, database.sessions() as session:
        for guild in guilds:
            assert await balance_total(session, guild_id=guild.id) == 0
    await asyncio.gather(*(process.stop() for process in processes))
