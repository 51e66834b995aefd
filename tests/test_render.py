"""What the cogs render stays inside Discord's limits and holds nothing in memory."""

import random

import pytest

from bot.service import Person, TableService
from bot.store import open_database
from cogs import render


@pytest.fixture
async def service(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/tonk.db")
    yield TableService(db, rng=random.Random(2))
    await db.close()


def check_limits(message):
    embed = message["embed"].to_dict()
    assert len(embed.get("description") or "") <= 4096 and len(embed.get("fields", [])) <= 25
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed.get("fields", []))
    view = message["view"]
    if view is None:
        return
    # clicks are routed by the registered dynamic items, so no view is kept alive per message
    assert view.is_finished()
    items = view.children
    assert len(items) <= 25
    for item in items:
        assert len(item.custom_id) <= 100
        options = getattr(item, "options", None)
        if options is not None:
            assert 1 <= len(options) <= 25 and all(len(o.value) <= 100 and len(o.label) <= 100 for o in options)


async def test_lobby_table_and_hand_messages_fit_discord(service):
    people = [Person(i, f"player{i}") for i in range(1, 7)]
    view = await service.open_table(guild_id=1, channel_id=2, host=people[0], preset="seattle")
    check_limits(render.lobby_message(view))
    for p in people[1:5]:
        view = await service.join(view.id, p)
    view = await service.start(view.id, people[0])
    for _ in range(40):
        check_limits(render.table_message(view))
        if view.table.status != "playing":
            break
        game = view.game
        check_limits(render.hand_message(view, game.turn))
        action = random.Random(len(game.log)).choice([a for a in game.legal_actions(game.turn) if a.verb != "drop"])
        from bot.service import action_arg
        view = await service.act(view.id, people[game.turn], action.verb, action_arg(action))
    check_limits(render.table_message(view))
