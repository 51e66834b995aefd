"""Clear moves in the messages (the drawn card, the discard menu's order, Drop's confirm, an
empty stock, a tied stock-out, plurals) and the table's side of live play (joining between
hands at the dealer's right, the timer's plays marked in the log)."""

import asyncio
import random

from bot.table import Level, Scoring, Status, Table
from cogs import render
from cogs.live import LiveHand, LiveTables, warning_lead
from engine import DRAW, DROP, Discard, Rules, Spread, sorted_hand
from engine_helpers import C, deal


def labels(message) -> list[str]:
    return [item.label for item in message["view"].children if hasattr(item, "label")
            and item.label]


def custom_ids(message) -> list[str]:
    return [item.custom_id for item in message["view"].children]


def field(message, name: str) -> str:
    return next(f["value"] for f in message["embed"].to_dict()["fields"] if f["name"] == name)


def hand(view, **options):
    return render.hand_message(view, table_id=7, hand_number=1, moves=3, **options)


def table_of(game, status=Status.PLAYING) -> Table:
    return Table(id=7, guild_id=1, channel_id=2, host_user_id=10, rules=game.rules, stake=1, scoring=Scoring.STAKES,
                 seats=tuple(Table.open(guild_id=1, channel_id=2, host_id=10 + i, host_name=name, rules=Rules(),
                                        stake=1, scoring=Scoring.STAKES).seats[0]
                             for i, name in enumerate(game.players)),
                 status=status, hand_number=1, dealer=game.dealer, game=game)


def test_the_drawn_card_is_named_and_marked_and_the_discard_menu_follows_the_hand():
    game = deal(["Kc 2h 9s As 5d", "3c 4c 8h 9h Jd"], stock="7h")
    game.apply(0, DRAW)
    message = hand(game.view(0), drawn=C("7h"), picture=True)
    description = message["embed"].description
    shown = description.splitlines()[0].removeprefix("### ").split(", ")
    assert "7 of hearts (drawn)" in shown and "You drew the **7 of hearts**." in description
    assert [c.removesuffix(" (drawn)") for c in shown] == [c.name for c in sorted_hand(game.hands[0])]
    discard = next(item for item in message["view"].children if ":discard-menu:" in item.custom_id)
    assert [o.label for o in discard.options] == [c.removesuffix(" (drawn)") for c in shown]
    assert [o.description for o in discard.options if o.label == "7 of hearts"] == ["just drawn"]
    # the picture rides along, shown in the embed
    assert message["attachments"][0].filename == "hand.png"
    assert message["embed"].image.url == "attachment://hand.png"
    # another seat's view cannot be marked with a card it does not hold
    assert "(drawn)" not in hand(game.view(1), drawn=C("7h"))["embed"].description


def test_a_hand_keeps_its_picture_while_other_players_move_and_sends_a_new_one_when_it_changes():
    game = deal(["Kc 2h 9s As 5d", "3c 4c 8h 9h Jd"], stock="7h 6s")
    watcher_before, player_before = game.view(1), game.view(0)
    shown = render.hand_picture(watcher_before)
    game.apply(0, DRAW)  # the other player's move: the stock changes, the watcher's cards do not
    watcher = game.view(1)
    # the stock is the drawing player's concern (and the table's): the watcher's hand looks the
    # same after another's draw, so the live hand needs no edit for it
    stock = player_before.stock_size
    assert field(hand(player_before), "Stock") == f"{stock} cards" and field(hand(game.view(0)), "Stock") == f"{stock - 1} cards"
    assert "Stock" not in [f["name"] for f in hand(watcher)["embed"].to_dict()["fields"]]
    assert render.look(hand(watcher, shown=shown)) == render.look(hand(watcher_before, shown=shown))
    game.apply(0, Discard(C("Kc")))  # the discard and the turn change: the watcher's hand does too
    assert render.look(hand(game.view(1), shown=shown)) != render.look(hand(watcher, shown=shown))
    assert field(hand(game.view(1)), "Stock") == f"{stock - 1} cards"  # now the watcher's turn: the stock is shown
    kept = hand(watcher, picture=True, shown=shown)
    # the edit names no attachments, so Discord keeps the file; the embed still shows it
    assert "attachments" not in kept and kept["embed"].image.url == "attachment://hand.png"
    # the drawing player's own hand changed: the edit of their message sends a new picture
    sent = hand(game.view(0), drawn=C("7h"), picture=True, shown=render.hand_picture(player_before))
    assert [f.filename for f in sent["attachments"]] == ["hand.png"]
    # a new message (nothing shown yet) carries the picture; with pictures off there is none
    assert [f.filename for f in hand(watcher, picture=True)["attachments"]] == ["hand.png"]
    off = hand(watcher, shown=shown)
    assert off["attachments"] == [] and off["embed"].image.url is None


def test_the_channel_keeps_its_picture_through_draws_and_discards_and_sends_one_when_spreads_change():
    game = deal(["Kc 2h 9s As 5d", "3c 4c 5c 9h Jd"], stock="7h 6s 8d")
    shown = render.channel_picture(table_of(game).public())
    # what changes with every play is in the text, not in the picture: whose turn, the cards in
    # each hand, the stock and the discard
    assert shown.stock is None and shown.discard_top is None
    assert all(not s.is_turn and s.cards_in_hand is None for s in shown.seats)
    game.apply(0, DRAW)
    game.apply(0, Discard(C("Kc")))
    after = table_of(game).public()
    assert render.channel_picture(after) == shown
    kept = render.table_message(after, picture=True, shown=shown)
    # the edit names no attachments, so Discord keeps the file; the embed still shows it
    assert "attachments" not in kept and kept["embed"].image.url == "attachment://table.png"
    assert field(kept, "Discard") == "king of clubs" and "▶ **P1**" in field(kept, "Seats")
    game.apply(1, DRAW)
    game.apply(1, Spread((C("3c"), C("4c"), C("5c"))))  # a spread: the picture changes and is sent
    spread = table_of(game).public()
    assert render.channel_picture(spread) != shown
    sent = render.table_message(spread, picture=True, shown=shown)
    assert [f.filename for f in sent["attachments"]] == ["table.png"]
    # a message that carries no picture yet gets one; with pictures off there is none
    assert [f.filename for f in render.table_message(after, picture=True)["attachments"]] == ["table.png"]
    assert render.table_message(after, shown=shown)["attachments"] == []


def test_drop_asks_once_with_the_count():
    game = deal(["Kc 2h 9s As 5d", "3c 4c 8h 9h Jd"])
    view = game.view(0)
    plain = hand(view)
    assert "Drop (27)" in labels(plain) and "tonk:7:drop:3" in custom_ids(plain)
    confirm = hand(view, confirm_drop=True)
    assert labels(confirm) == ["Drop with 27", "Cancel"]
    assert custom_ids(confirm) == ["tonk:7:dropnow:3", "tonk:7:refresh"]  # Cancel only shows the hand again
    assert "Drop with a count of **27**?" in field(confirm, "Now")


def test_an_empty_stock_says_drawing_ends_the_hand_and_a_tie_names_who_tied():
    game = deal(["As 2c 3d 4h 5s", "Ac 2d 3h 4s 5c", "Kc Kd Qh 9s 8c"])
    game.stock.clear()
    view = game.view(0)
    message = hand(view)
    assert "Draw (ends the hand)" in labels(message) and "drawing ends the hand" in field(message, "Now")
    assert field(message, "Stock") == "0 cards"
    game.apply(0, DRAW)
    assert game.outcome.kind == "draw"
    table = table_of(game, Status.BETWEEN_HANDS)
    text = render.table_message(table.public())["embed"].description
    assert "P0 and P1 tied for the lowest count (15)" in text
    assert "nobody won; your count 15" in field(hand(game.view(1)), "Now")


def test_plurals():
    game = deal(["Kc 2h 9s As 5d", "3c 4c 8h 9h Jd"], stock="7h")
    table = table_of(game)
    closed = render.table_message(table._close("Ended.")[0].public())
    assert field(closed, "After 1 hand")
    assert "5 cards" in field(render.table_message(table.public()), "Seats")
    assert render._score_text(table.public(), 1, 1) == "+1 point"
    assert render._score_text(table.public(), -2, 1) == "-2 points"


def test_a_newcomer_between_hands_sits_at_the_dealers_right_and_the_deal_passes_on():
    rng = random.Random(3)
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="Ann", rules=Rules(), stake=1,
                       scoring=Scoring.STAKES)
    table, _ = table.join(2, "Bob")
    table, _ = table.join(3, "Cy")
    table, _ = table.start(1, rng)
    while table.status is Status.PLAYING:
        table, _ = table.act(table.seats[table.to_act].user_id, DROP)
    old_dealer = table.seats[table.dealer].name
    left_of_dealer = table.seats[(table.dealer + 1) % 3].name
    table, events = table.join(4, "Dee")
    names = [s.name for s in table.seats]
    assert names[(names.index("Dee") + 1) % 4] == old_dealer and table.seats[table.dealer].name == old_dealer
    assert table.game is None and "Join" in labels(render.table_message(table.public()))
    table, _ = table.add_computer(1, Level.EASY)  # a computer sits at the dealer's right too
    table, _ = table.next_hand(4, rng)
    assert table.seats[table.dealer].name == left_of_dealer and len(table.game.hands) == 5


def test_plays_made_by_the_timer_say_so_in_the_log_and_survive_a_save():
    rng = random.Random(5)
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="Ann", rules=Rules(), stake=1,
                       scoring=Scoring.STAKES)
    table, _ = table.join(2, "Bob")
    table, _ = table.start(1, rng)
    while table.status is not Status.PLAYING or not table.in_play:
        table, _ = table.next_hand(1, rng)
    sleeper = table.seats[table.to_act].name
    table, _ = table.time_out(table.turn_key)
    plays = field(render.table_message(table.public()), "Last plays")
    assert f"⏰ {sleeper} drew from the stock (time ran out: the bot played)" in plays
    assert f"⏰ {sleeper} discarded" in plays
    again = Table.from_json(table.to_json())
    assert again.timer_plays == table.timer_plays == (0, 1)


async def test_a_click_waits_only_for_an_edit_in_flight_of_the_message_it_answers_on():
    """A click on the live hand message waits for that message's edit in flight (the newer state
    must land last); My hand, the ping's button or an older message answer elsewhere: no wait."""
    live = LiveTables(client=None, service=None, settings=None)  # type: ignore[arg-type]
    runtime = live.runtime(7)
    runtime.hands.live[10] = LiveHand(application_id=1, token="token", message_id=500, moves=3)
    lock = runtime.hands.locks[10]
    await lock.acquire()  # the follow-up edit of message 500 is in flight
    entered: list[int | None] = []

    async def click(message_id):
        async with live.hands.hand_turn(7, 10, message_id):
            entered.append(message_id)

    elsewhere = [asyncio.create_task(click(m)) for m in (None, 499)]  # My hand / the ping, an older message
    on_live = asyncio.create_task(click(500))
    for _ in range(5):
        await asyncio.sleep(0)
    assert entered == [None, 499]  # answered at once
    lock.release()  # the edit landed
    await asyncio.gather(on_live, *elsewhere)
    assert entered == [None, 499, 500]


def test_every_turn_timer_the_settings_accept_has_a_warning_before_it_runs_out():
    # /tonk settings takes 3 s to 3600 s: each warns with whole seconds left, after the turn began
    for seconds in range(3, 3601):
        lead = warning_lead(seconds)
        assert 1 <= lead <= seconds / 2, seconds
    # a quarter of the turn, at least 5 s, where that leaves half the turn before the warning
    assert [warning_lead(s) for s in (3, 4, 5, 6, 9, 10, 20, 90, 3600)] == [1, 2, 2, 3, 4, 5, 5, 22, 900]
