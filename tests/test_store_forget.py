"""Forgetting a server deletes every row kept about it, and nothing of any other server."""

from conftest_store import GUILD, db, new_table, simple_hand  # noqa: F401 (db is a fixture)

from bot.store import (PlayerRef, forget_guild, get_guild_settings, list_open_tables, name_season, player_stats,
                       record_finished_hand, standings, start_new_season, update_guild_settings)

OTHER = GUILD + 1
ALICE, BOB = PlayerRef.human(1, "Alice"), PlayerRef.human(2, "Bob")
TABLES = ["guild_settings", "live_tables", "hands", "hand_seats", "ledger", "season_archive", "season_names",
          "rivals", "hand_tallies"]


async def rows(db, guild_id):  # noqa: F811
    """{table: rows of `guild_id`} (hand_seats through their hand)."""
    counts = {}
    async with db.engine.connect() as connection:
        for table in TABLES:
            where = ("hand_pk IN (SELECT id FROM hands WHERE guild_id = :g)" if table == "hand_seats"
                     else "guild_id = :g")
            result = await connection.exec_driver_sql(f"SELECT COUNT(*) FROM {table} WHERE {where}".replace(":g", str(guild_id)))
            counts[table] = result.scalar()
    return counts


async def fill(db, guild_id):  # noqa: F811
    """A server with a row in every table: settings, two seasons (one named), a table, hands."""
    table = await new_table(db, guild_id=guild_id, channel_id=guild_id * 10)
    async with db.sessions() as session:
        await update_guild_settings(session, guild_id=guild_id, stake=3)
        for n, payments in enumerate(([2, -2], [-1, 1])):
            record, result = simple_hand(["Alice", "Bob"], payments)
            await record_finished_hand(session, guild_id=guild_id, table_id=table.id, hand_id=f"{guild_id}-{n}",
                                       record=record, result=result, players=[ALICE, BOB], stake=1,
                                       scoring_mode="stakes")
            if n == 0:
                await name_season(session, guild_id=guild_id, name="Opening night")
                await start_new_season(session, guild_id=guild_id)


async def test_forgetting_a_server_deletes_all_its_rows_and_only_its_rows(db):  # noqa: F811
    await fill(db, GUILD)
    await fill(db, OTHER)
    before = await rows(db, OTHER)
    assert all(before.values()), before  # every kind of row exists, so the test can see each go
    assert await rows(db, GUILD) == before
    async with db.sessions() as session:
        done = await forget_guild(session, guild_id=GUILD)
    assert (done.tables, done.hands, done.ledger_rows, done.settings) == (1, 2, 4, True)
    assert set((await rows(db, GUILD)).values()) == {0}
    assert await rows(db, OTHER) == before
    async with db.sessions() as session:
        settings = await get_guild_settings(session, guild_id=GUILD)
        assert settings.stake == 1 and settings.season == 1 and settings.updated_at is None  # the defaults again
        assert await standings(session, guild_id=GUILD, mode="stakes") == []
        assert [t.guild_id for t in await list_open_tables(session)] == [OTHER]
        stats = await player_stats(session, guild_id=OTHER, account=ALICE.account)
        assert stats is not None and stats.all_time.hands == 2  # the other server still counts both of Alice's hands
    # forgetting a server with nothing stored is no error, and deletes nothing
    async with db.sessions() as session:
        again = await forget_guild(session, guild_id=GUILD)
    assert (again.tables, again.hands, again.ledger_rows, again.settings) == (0, 0, 0, False)
