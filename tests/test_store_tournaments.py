"""Tournaments in the store, on SQLite and PostgreSQL: one open per channel, versioned saves,
each table's hands written once, places, and forgetting a server."""

import pytest
from conftest_store import db  # noqa: F401 (db is a fixture)

from bot.store import (StaleTournamentError, TournamentBusyError, create_tournament, finished_tournaments,
                       forget_guild, get_open_tournament_in_channel, get_tournament, list_open_tournaments,
                       record_tournament_hand, save_tournament, table_hand_results, tournament_hands,
                       tournament_places, tournament_record, write_places)

GUILD, CHANNEL = 11, 22
RESULT = {"outcome": "tonk_out", "winners": [0], "counts": [0, 9, 12], "payments": [4, -2, -2], "pushups": [0, 5, 5]}


async def test_one_open_tournament_per_channel_and_versioned_saves(db):  # noqa: F811
    async with db.sessions() as session:
        row = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL, data={"stage": "signup"})
        assert row.version == 1
        with pytest.raises(TournamentBusyError):
            await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL, data={})
        other = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL + 1, data={})
        version = await save_tournament(session, tournament_id=row.id, expected_version=1, status="playing",
                                        data={"stage": "playing"})
        assert version == 2
        with pytest.raises(StaleTournamentError):
            await save_tournament(session, tournament_id=row.id, expected_version=1, status="playing", data={})
        stored = await get_tournament(session, tournament_id=row.id)
        assert (stored.status, stored.data, stored.version) == ("playing", {"stage": "playing"}, 2)
        assert [t.id for t in await list_open_tournaments(session)] == [row.id, other.id]
        assert (await get_open_tournament_in_channel(session, channel_id=CHANNEL)).id == row.id
        await save_tournament(session, tournament_id=row.id, expected_version=2, status="finished", data={"x": 1})
        with pytest.raises(StaleTournamentError):  # a finished tournament is never changed again
            await save_tournament(session, tournament_id=row.id, expected_version=3, status="playing", data={})
        assert await get_open_tournament_in_channel(session, channel_id=CHANNEL) is None
        again = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL, data={})  # the channel is free
        assert again.id > row.id
        assert [t.id for t in await finished_tournaments(session, guild_id=GUILD)] == [row.id]


async def test_a_tables_hands_are_written_once_and_summed_in_order(db):  # noqa: F811
    async with db.sessions() as session:
        row = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL, data={})
        common = dict(tournament_id=row.id, guild_id=GUILD, table_id=5, round=1, table_number=1,
                      players=[1, 2, None], record={"format": "tonk-hand/1"})
        second = {**RESULT, "winners": [1], "payments": [-1, 2, -1]}
        assert await record_tournament_hand(session, hand_id="5-2", hand_number=2, result=second, **common)
        assert await record_tournament_hand(session, hand_id="5-1", hand_number=1, result=RESULT, **common)
        assert not await record_tournament_hand(session, hand_id="5-1", hand_number=1, result=RESULT, **common)
        with pytest.raises(ValueError, match="sum to zero"):
            await record_tournament_hand(session, hand_id="5-3", hand_number=3,
                                         result={**RESULT, "payments": [1, 1, 1]}, **common)
        assert await table_hand_results(session, table_id=5) == [RESULT, second]
        assert [h.hand_id for h in await tournament_hands(session, tournament_id=row.id)] == ["5-1", "5-2"]


async def test_places_count_tournaments_played_and_won_and_a_forgotten_server_keeps_none(db):  # noqa: F811
    async with db.sessions() as session:
        first = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL, data={})
        second = await create_tournament(session, guild_id=GUILD, channel_id=CHANNEL + 1, data={})
        elsewhere = await create_tournament(session, guild_id=GUILD + 1, channel_id=CHANNEL + 2, data={})
        await write_places(session, tournament_id=first.id, guild_id=GUILD,
                           places=[("user:1", "alice", 1), ("user:2", "bob", 2)])
        await write_places(session, tournament_id=first.id, guild_id=GUILD, places=[("user:1", "alice", 1)])  # once
        await write_places(session, tournament_id=second.id, guild_id=GUILD,
                           places=[("user:2", "bob", 1), ("user:1", "alice", 2)])
        await write_places(session, tournament_id=elsewhere.id, guild_id=GUILD + 1, places=[("user:1", "alice", 1)])
        assert await tournament_record(session, guild_id=GUILD, account="user:1") == (2, 1)
        assert await tournament_record(session, guild_id=GUILD, account="user:9") == (0, 0)
        assert [p.display_name for p in await tournament_places(session, tournament_id=second.id)] == ["bob", "alice"]
        await record_tournament_hand(session, hand_id="1-1", tournament_id=first.id, guild_id=GUILD, table_id=1,
                                     round=1, table_number=1, hand_number=1, players=[1, 2, None], result=RESULT,
                                     record={})
        await forget_guild(session, guild_id=GUILD)
        assert await get_tournament(session, tournament_id=first.id) is None
        assert await tournament_record(session, guild_id=GUILD, account="user:1") == (0, 0)
        assert await table_hand_results(session, table_id=1) == []
        assert await tournament_record(session, guild_id=GUILD + 1, account="user:1") == (1, 1)
