"""The table service on a real SQLite file: lobby, play, refusals, restarts, time-outs.

These run without Discord; the end-to-end tests drive the same paths through buttons.
"""

import asyncio
import contextlib
import random
import threading

from i18n import ENGLISH
import pytest

from bot.errors import StaleView, UserError
from bot.commands import AddComputer, Back, End, Join, Leave, NextHand, SetPreset, SetRule, Start, TimeOut, play_value
from bot.server import ServerService
from bot.service import Person, TableService, computer_choice
from service_helpers import do, play
from bot.table import Ping, Status
from bot.store import balance_total, open_database, recent_hands, standings
from engine import DRAW, Discard, NotYourTurn, TonkError

GUILD, CHANNEL = 10, 20
ALICE, BOB, CAROL, EVE = Person(1, "alice"), Person(2, "bob"), Person(3, "carol"), Person(9, "eve")


@pytest.fixture
async def db(database_url):
    """The service on each backend (``database_url``: a SQLite file, a PostgreSQL database)."""
    database = await open_database(database_url)
    yield database
    await database.close()


def first_legal(level, seed, view):
    return view.legal_actions[0] if view.legal_actions[0].verb != "drop" else view.legal_actions[1]


async def started(service, *players, preset="standard", computers=0):
    view = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=players[0], preset=preset,
                                    computers=computers)
    for p in players[1:]:
        view = await do(service, view.id, p, Join)
    return await do(service, view.id, players[0], Start)


async def test_lobby_join_leave_and_start(db):
    service = TableService(db, rng=random.Random(1))
    view = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ALICE)
    with pytest.raises(UserError, match="already a table in this channel"):
        await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=BOB)
    with pytest.raises(UserError, match="at least 2 players"):
        await do(service, view.id, ALICE, Start)
    view = await do(service, view.id, BOB, Join)
    with pytest.raises(UserError, match="already seated"):
        await do(service, view.id, BOB, Join)
    with pytest.raises(UserError, match="Only the host"):
        await do(service, view.id, BOB, Start)
    view = await do(service, view.id, BOB, AddComputer, "hard")
    assert [s.name for s in view.seats] == ["alice", "bob", "Goblin (hard)"]
    with pytest.raises(UserError, match="Only seated players"):
        await do(service, view.id, EVE, AddComputer, "easy")
    view = await do(service, view.id, ALICE, Start)
    assert view.status in (Status.PLAYING, Status.BETWEEN_HANDS) and view.game is not None
    assert "deals" in str(view.cuts)
    with pytest.raises(UserError, match="already started"):
        await do(service, view.id, ALICE, Start)


async def test_play_refusals_change_nothing(db):
    service = TableService(db, rng=random.Random(3))
    view = await started(service, ALICE, BOB, CAROL)
    while view.status is not Status.PLAYING:  # a tonk on the deal: deal again
        view = await do(service, view.id, ALICE, NextHand)
    game = view.game
    to_act = [ALICE, BOB, CAROL][game.turn]
    other = [ALICE, BOB, CAROL][(game.turn + 1) % 3]
    before = (view.version, view.moves, view.game.to_json())
    with pytest.raises(NotYourTurn):
        await play(service, view.id, other, "draw")
    with pytest.raises(UserError, match="not seated"):
        await play(service, view.id, EVE, "draw")
    with pytest.raises(TonkError, match="Draw from the stock"):
        await play(service, view.id, to_act, "discard", game.hands[game.turn][0].code)
    with pytest.raises(UserError, match="not a play I know"):
        await play(service, view.id, to_act, "discard", "ZZ")
    again = await service.load(view.id)
    assert (again.version, again.moves, again.game.to_json()) == before


async def test_two_quick_clicks_apply_once(db):
    service = TableService(db, rng=random.Random(4))
    view = await started(service, ALICE, BOB)
    while view.status is not Status.PLAYING:
        view = await do(service, view.id, ALICE, NextHand)
    who = [ALICE, BOB][view.game.turn]
    moves = view.moves
    after = await play(service, view.id, who, "draw", moves=moves)
    with pytest.raises(StaleView):
        await play(service, view.id, who, "draw", moves=moves)
    assert len(after.game.log) == 1
    assert len((await service.load(view.id)).game.log) == 1


async def test_a_finished_hand_is_ledgered_exactly_once_and_sums_to_zero(db):
    service = TableService(db, rng=random.Random(5))
    view = await started(service, ALICE, BOB, CAROL)
    hands_done = 0
    for _ in range(6):
        while view.status is Status.PLAYING:
            game = view.game
            who = [ALICE, BOB, CAROL][game.turn]
            action = first_legal(None, None, game.view(game.turn))
            view = await play(service, view.id, who, action.verb, play_value(action))
        hands_done += 1
        view = await do(service, view.id, BOB, NextHand)
    async with db.sessions() as session:
        hands = await recent_hands(session, guild_id=GUILD, limit=50)
        assert len(hands) == hands_done
        assert await balance_total(session, guild_id=GUILD) == 0
        rows = await standings(session, guild_id=GUILD, mode="stakes")
    assert sorted(r.display_name for r in rows) == ["alice", "bob", "carol"]
    assert sum(r.balance for r in rows) == 0
    # recovery after a restart writes nothing twice
    await TableService(db).recover()
    async with db.sessions() as session:
        assert len(await recent_hands(session, guild_id=GUILD, limit=50)) == hands_done


async def test_a_restart_loses_nothing(db, database_url):
    service = TableService(db, rng=random.Random(6))
    view = await started(service, ALICE, BOB)
    while view.status is not Status.PLAYING:
        view = await do(service, view.id, ALICE, NextHand)
    who = [ALICE, BOB][view.game.turn]
    view = await play(service, view.id, who, "draw")
    state = view.game.to_json()
    await db.close()
    db2 = await open_database(database_url)
    try:
        fresh = TableService(db2)
        [again] = await fresh.recover()
        assert again.game.to_json() == state and again.game.phase == "play"
        card = again.game.hands[again.game.turn][0]
        done = await play(fresh, again.id, who, "discard", card.code)
        assert done.game.discard_top is card
    finally:
        await db2.close()


async def test_three_time_outs_hand_the_seat_to_a_computer_until_back(db):
    service = TableService(db, rng=random.Random(8))
    view = await started(service, ALICE, BOB)
    while view.status is not Status.PLAYING:
        view = await do(service, view.id, ALICE, NextHand)
    seat = view.game.turn
    who = [ALICE, BOB][seat]
    other = [ALICE, BOB][1 - seat]
    assert (await service.apply(view.id, None, TimeOut("stale:key"))).version == view.version  # nothing saved
    for n in range(3):
        key = view.turn_key
        hand_before = list(view.game.hands[seat])
        view = await service.apply(view.id, None, TimeOut(key))
        if view.status is not Status.PLAYING:
            pytest.skip("the stock ran out")
        # the bot drew and threw the highest card; it never drops
        assert view.game.log[-2][1] is DRAW and isinstance(view.game.log[-1][1], Discard)
        thrown = view.game.log[-1][1].card
        assert thrown.value == max(c.value for c in hand_before + [view.game.log[-1][1].card])
        if n < 2:
            assert not view.seats[seat].away
            view = await play(service, view.id, other, "draw")
            view = await play(service, view.id, other, "discard", view.game.hands[1 - seat][-1].code)
    assert view.seats[seat].away
    view = await play(service, view.id, other, "draw")
    view = await play(service, view.id, other, "discard", view.game.hands[1 - seat][-1].code)
    assert view.is_computer_turn
    with pytest.raises(UserError, match="computer player has your seat"):
        await play(service, view.id, who, "draw")
    stepped = await service.computer_step(view.id, choose=first_legal)
    assert len(stepped.game.log) == len(view.game.log) + 1
    view = await do(service, view.id, who, Back)
    assert not view.seats[seat].away and view.seats[seat].timeouts == 0


async def test_an_expert_computer_thinks_off_the_event_loop_and_plays_a_whole_hand(db):
    service = TableService(db, rng=random.Random(12))
    view = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ALICE, preset="standard",
                                    computers=1, level="expert")
    assert [s.name for s in view.seats] == ["alice", "Goblin (expert)"]
    view = await do(service, view.id, ALICE, Start)
    while view.status is not Status.PLAYING:
        view = await do(service, view.id, ALICE, NextHand)
    loop_thread = threading.get_ident()
    other_table_ran = threading.Event()
    thinking_threads = []
    sessions = []

    def slow_expert(level, seed, seat_view, session=None):
        # while the expert "thinks", the event loop must go on serving other coroutines
        thinking_threads.append(threading.get_ident())
        assert other_table_ran.wait(timeout=10), "the event loop was blocked while the expert thought"
        sessions.append(session)
        return computer_choice(level, seed, seat_view, session)

    async def another_table():
        await asyncio.sleep(0)
        other_table_ran.set()

    computer_plays = 0
    while view.status is Status.PLAYING:
        if view.is_computer_turn:
            other_table_ran.clear()
            moves = view.moves
            view, _ = await asyncio.gather(service.computer_step(view.id, choose=slow_expert), another_table())
            computer_plays += 1
            assert view.moves == moves + 1  # one play, saved
        else:
            legal = view.seat_view(0).legal_actions
            action = next((a for a in legal if a.verb not in ("drop", "take")), legal[0])
            view = await play(service, view.id, ALICE, action.verb, play_value(action))
    assert computer_plays >= 1 and len(thinking_threads) == computer_plays
    assert loop_thread not in thinking_threads
    # it decided with its session memory (empty in the table's first hand), keyed by who sits where
    assert all(s is not None and s[1] == ["user:1", "computer:Goblin (expert)"] for s in sessions)
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0
        assert len(await recent_hands(session, guild_id=GUILD, limit=5)) >= 1


async def test_end_a_table_host_or_admin_only(db):
    service = TableService(db, rng=random.Random(9))
    view = await started(service, ALICE, BOB)
    with pytest.raises(UserError, match="Only the host"):
        await do(service, view.id, BOB, End)
    closed = await do(service, view.id, Person(7, "mod", is_admin=True), End)
    assert closed.status is Status.CLOSED
    assert (await service.open_in_channel(CHANNEL)) is None
    async with db.sessions() as session:
        assert await balance_total(session, guild_id=GUILD) == 0


async def test_the_service_forgets_a_closed_table_and_any_table_after_its_clicks(db):
    """Nothing per table stays in memory once a table is closed, nor for clicks on a table
    that is gone or closed; an open table nobody is changing keeps only its saved state."""
    service = TableService(db, rng=random.Random(9))
    view = await started(service, ALICE, BOB)
    assert service.remembered() == {view.id}  # its newest saved state, and no lock

    async def hold_the_lock():
        async with service.lock(view.id):
            await asyncio.sleep(0.01)

    waiting = [asyncio.create_task(hold_the_lock()) for _ in range(3)]
    await asyncio.sleep(0)
    assert service.lock(view.id) is service.lock(view.id)  # one lock while it is in use
    await asyncio.gather(*waiting)
    await do(service, view.id, ALICE, End)
    for call in (service.load(view.id), do(service, 404, EVE, Join), service.load(404)):
        with contextlib.suppress(UserError):
            await call
    assert service.remembered() == set()


def seed_where(instant_on_hands: tuple[bool, bool], players: int = 2) -> int:
    """A seed for TableService's rng whose first two deals are (or are not) tonks on the deal."""
    from engine import Game, Rules, cut_for_dealer, next_dealer
    for seed in range(20000):
        rng = random.Random(seed)
        dealer, _ = cut_for_dealer(players, rng)
        first = Game.deal(Rules(), players, dealer, rng=random.Random(rng.getrandbits(64)))
        second = Game.deal(Rules(), players, next_dealer(dealer, players), rng=random.Random(rng.getrandbits(64)))
        if (first.over, second.over) == instant_on_hands:
            return seed
    raise AssertionError("no such seed")


async def test_a_tonk_on_the_first_deal_is_settled_and_ledgered(db):
    service = TableService(db, rng=random.Random(seed_where((True, False))))
    view = await started(service, ALICE, BOB)
    assert view.status is Status.BETWEEN_HANDS and view.game.outcome.kind in ("instant", "void")
    async with db.sessions() as session:
        hands = await recent_hands(session, guild_id=GUILD, limit=5)
        assert [h.hand_id for h in hands] == [f"{view.id}-1"]
        assert await balance_total(session, guild_id=GUILD) == 0
        rows = {r.display_name: r.balance for r in await standings(session, guild_id=GUILD, mode="stakes")}
    assert [rows["alice"], rows["bob"]] == list(view.game.outcome.payments)


async def test_a_tonk_on_a_later_deal_is_ledgered_under_its_own_hand_id(db):
    service = TableService(db, rng=random.Random(seed_where((False, True))))
    view = await started(service, ALICE, BOB)
    who = [ALICE, BOB][view.game.turn]
    view = await play(service, view.id, who, "drop")
    first = view.game.outcome.payments
    view = await do(service, view.id, ALICE, NextHand)
    assert view.status is Status.BETWEEN_HANDS and view.hand_number == 2
    second = view.game.outcome.payments
    async with db.sessions() as session:
        hands = await recent_hands(session, guild_id=GUILD, limit=5)
        assert sorted(h.hand_id for h in hands) == [f"{view.id}-1", f"{view.id}-2"]
        rows = {r.display_name: r.balance for r in await standings(session, guild_id=GUILD, mode="stakes")}
    assert [rows["alice"], rows["bob"]] == [first[0] + second[0], first[1] + second[1]]
    assert [s.total for s in view.seats] == [rows["alice"], rows["bob"]]


async def test_a_click_on_a_table_that_no_longer_exists_says_so(db):
    """Bug 2: the store returns None for an unknown table; that was an AttributeError and an apology."""
    service = TableService(db, rng=random.Random(10))
    for call in (do(service, 404, ALICE, Join), do(service, 404, ALICE, Start), play(service, 404, ALICE, "draw"),
                 service.load(404)):
        with pytest.raises(UserError, match="no longer exists"):
            await call


async def test_a_table_of_another_server_is_refused(db):
    """Bug 4: a custom id names a table by id; a click from another server must not reach it."""
    service = TableService(db, rng=random.Random(11))
    view = await started(service, ALICE, BOB)
    stranger = Person(BOB.user_id, "bob", guild_id=GUILD + 1)
    before = view.moves
    for call in (play(service, view.id, stranger, "drop"), do(service, view.id, stranger, Leave),
                 service.load(view.id, stranger)):
        with pytest.raises(UserError, match="another server"):
            await call
    assert (await service.load(view.id, Person(BOB.user_id, "bob", guild_id=GUILD))).moves == before


async def test_leaving_between_hands_leaves_a_table_that_deals_on(db):
    """Bug 1: after a Leave between hands the table must still offer and deal the next hand."""
    from cogs import render

    service = TableService(db, rng=random.Random(12))
    view = await started(service, ALICE, BOB, CAROL)
    while view.status is Status.PLAYING:
        view = await play(service, view.id, [ALICE, BOB, CAROL][view.game.turn], "drop")
    view = await do(service, view.id, CAROL, Leave)
    assert view.status is Status.BETWEEN_HANDS
    labels = [getattr(item, "label", None) or item.placeholder
              for item in render.table_message(view.public())["view"].children]
    assert labels == ["Next hand", "Join", "Leave", "Host: remove a seat…", "Rules"]
    view = await do(service, view.id, BOB, NextHand)
    assert view.hand_number == 2 and [s.name for s in view.seats] == ["alice", "bob"]


async def test_pictures_are_on_until_a_server_turns_them_off(db):
    service = TableService(db, rng=random.Random(1))
    assert await ServerService(db, service).pictures_enabled(5) is True
    settings, _ = await ServerService(db, service).update_settings(5, pictures=False)
    assert settings.pictures is False and await ServerService(db, service).pictures_enabled(5) is False
    assert await ServerService(db, service).pictures_enabled(6) is True  # another server keeps its own
    settings, _ = await ServerService(db, service).update_settings(5, stake=3)  # other changes leave it alone
    assert (settings.stake, settings.pictures) == (3, False)
    await ServerService(db, service).update_settings(5, pictures=True)
    assert await ServerService(db, service).pictures_enabled(5) is True


async def test_the_first_hand_hint_lasts_until_a_players_first_hand_is_stored_on_this_server(db):
    service = TableService(db, rng=random.Random(4))
    lobby = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ALICE)
    hint = await service.first_hand_hint(lobby, ALICE.user_id)
    assert hint is not None and ENGLISH.render(hint).startswith("First hand?")
    view = await do(service, lobby.id, BOB, Join)
    view = await do(service, view.id, ALICE, Start)
    if view.status is Status.PLAYING:  # the first hand is under way: still the first
        assert await service.first_hand_hint(view, BOB.user_id) == hint
        view = await play(service, view.id, [ALICE, BOB][view.game.turn], "drop")
    assert view.status is Status.BETWEEN_HANDS
    # stored: no hint for either player again, even in a fresh service (nothing cached)
    assert await service.first_hand_hint(view, ALICE.user_id) is None
    assert await TableService(db).first_hand_hint(view, BOB.user_id) is None
    assert await service.first_hand_hint(view, EVE.user_id) == hint  # never played here
    elsewhere = await service.open_table(guild_id=GUILD + 1, channel_id=CHANNEL + 1, host=ALICE)
    assert await service.first_hand_hint(elsewhere, ALICE.user_id) is not None  # another server: new again


async def test_the_host_changes_the_house_rules_in_the_lobby_and_they_are_kept(db, database_url):
    service = TableService(db, rng=random.Random(5))
    table = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ALICE, preset="standard")
    table = await do(service, table.id, BOB, Join)
    table = await do(service, table.id, ALICE, SetPreset, "push-ups")
    assert table.rules.scoring == "pushups" and str(table.scoring) == "pushups"  # a preset brings its scoring
    table = await do(service, table.id, ALICE, SetRule, "wild_cards", "deuces_and_jokers")
    assert table.rules.wild_cards == "deuces_and_jokers" and str(table.scoring) == "pushups"
    for who, key, value, words in (
        (BOB, "slap", "first_to_slap", "Only the host can change the house rules."),
        (ALICE, "slap", "sometimes", "Slapping: that is not one of its choices."),
        (ALICE, "nonsense", "1", "There is no such house rule."),
        (ALICE, "wild_cards", "jokers", "“Wild cards” jokers needs jokers in the deck (set jokers)."),
    ):
        with pytest.raises(UserError) as refused:
            await do(service, table.id, who, SetRule, key, value)
        assert str(refused.value) == words
    # saved: a new service on the same database (a restart) plays by them
    again = await TableService(db, rng=random.Random(5)).load(table.id)
    assert again.rules == table.rules and again.scoring == table.scoring
    table = await do(service, table.id, ALICE, Start)
    assert table.game.house is not None  # the house rules' rule object is in play
    with pytest.raises(UserError, match="only in the lobby"):
        await do(service, table.id, ALICE, SetRule, "slap", "first_to_slap")


async def test_what_the_service_holds_after_each_save_is_what_the_store_gives_back(db):
    # A save no longer reads the row back: the table it keeps must be the one a restart loads.
    service = TableService(db, rng=random.Random(7))
    view = await started(service, ALICE, BOB, CAROL)
    while view.status is not Status.PLAYING:
        view = await do(service, view.id, ALICE, NextHand)
    for step in range(12):
        if view.status is not Status.PLAYING:
            break
        game = view.game
        action = first_legal(None, None, game.view(game.turn))
        view = await play(service, view.id, [ALICE, BOB, CAROL][game.turn], action.verb, play_value(action))
        if view.is_open:
            view = await service.set_ping(view.id, Ping(1000 + step, view.turn_key))
        fresh = await TableService(db).load(view.id)
        assert (fresh.to_json(), fresh.version) == (view.to_json(), view.version)
        assert fresh.ping == view.ping


async def test_forgetting_a_server_closes_its_tables_then_deletes_everything_of_it_only(db):
    service = TableService(db, rng=random.Random(4))
    closed = []
    service.listeners.append(lambda table, events: closed.append(table.id) if not table.is_open else None)
    view = await started(service, ALICE, BOB)
    while view.status is Status.PLAYING:  # one hand stored on this server
        game = view.game
        action = first_legal(None, None, game.view(game.turn))
        view = await play(service, view.id, [ALICE, BOB][game.turn], action.verb, play_value(action))
    other = await service.open_table(guild_id=GUILD + 1, channel_id=CHANNEL + 1, host=CAROL)
    await ServerService(db, service).update_settings(GUILD, stake=4)
    assert await service.first_hand_hint(view, ALICE.user_id) is None  # alice has played here
    with pytest.raises(UserError, match="Manage Server"):
        await ServerService(db, service).forget_server(GUILD, ALICE)
    assert (await ServerService(db, service).guild_settings(GUILD)).stake == 4  # a refusal deletes nothing
    done = await ServerService(db, service).forget_server(GUILD, Person(7, "mod", is_admin=True))
    assert closed == [view.id]  # the open table was closed (its message says so) before it was deleted
    assert (done.tables, done.hands, done.settings) == (1, 1, True)
    assert (await ServerService(db, service).guild_settings(GUILD)).stake == 1
    assert await ServerService(db, service).recent_hands(GUILD, 10) == []
    assert await service.open_in_channel(CHANNEL) is None
    with pytest.raises(UserError, match="no longer exists"):
        await service.load(view.id)
    assert await service.first_hand_hint(view, ALICE.user_id) is not None  # a newcomer again
    assert (await service.open_in_channel(CHANNEL + 1)).id == other.id  # the other server keeps its table
    # the channel is free for a new table
    again = await service.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ALICE)
    assert again.is_open


async def test_a_play_at_one_table_does_not_wait_for_another_tables_save(db, monkeypatch):
    """Plays' saves are one statement each and go together (bot/writes.py): a save held up at one
    table (here, on purpose) does not hold up a play at another."""
    import bot.service as service_module

    service = TableService(db, rng=random.Random(6))
    one = await started(service, ALICE, BOB)
    two = await service.open_table(guild_id=GUILD, channel_id=CHANNEL + 1, host=CAROL)
    two = await do(service, two.id, EVE, Join)
    two = await do(service, two.id, CAROL, Start)
    for table, people in ((one, [ALICE, BOB]), (two, [CAROL, EVE])):
        while table.status is not Status.PLAYING:
            table = await do(service, table.id, people[0], NextHand)
    one, two = service.newest(one.id), service.newest(two.id)
    entered, held, real = asyncio.Event(), asyncio.Event(), service_module.save_table_version

    async def held_at_table_one(session, *, table_id, **changes):
        if table_id == one.id:
            entered.set()
            await held.wait()
        return await real(session, table_id=table_id, **changes)

    monkeypatch.setattr(service_module, "save_table_version", held_at_table_one)
    first = asyncio.create_task(play(service, one.id, [ALICE, BOB][one.game.turn], "draw", moves=one.moves))
    await entered.wait()
    async with asyncio.timeout(10):  # with one writer at a time, this waited for table one's save
        after = await play(service, two.id, [CAROL, EVE][two.game.turn], "draw", moves=two.moves)
    assert len(after.game.log) == len(two.game.log) + 1 and not first.done()
    held.set()
    assert len((await first).game.log) == len(one.game.log) + 1
