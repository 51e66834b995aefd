"""The table's whole-session options alone (RULES.md section 10): side bets and their pots,
the big one, and where a newcomer sits. No store, no Discord."""

import json
import random

from bot.bigone import BigOne
from bot.table import BigOneCalled, SeatTaken, SideBetsChanged, Status, Table, TableClosed
from engine import DROP, Game
from test_table import ALICE, BOB, CAROL, EVE, refused, seated

PLAYERS = ((BOB, "bob"), (CAROL, "carol"))


def round_trip(table: Table) -> Table:
    """What a restart sees: the table through its JSON."""
    return Table.from_json(json.loads(json.dumps(table.to_json())))


def finish(table: Table) -> Table:
    """The player to act drops (a tonk on the deal is over already)."""
    while table.in_play:
        table, _ = table.act(table.seats[table.to_act].user_id, DROP)
    return table


def betting(kinds=("high_card",), stake=3, suit_call="random", who=(ALICE, BOB)) -> Table:
    table = seated(*PLAYERS)
    table, events = table.set_side_bets(ALICE, kinds, stake=stake, suit_call=suit_call)
    assert isinstance(events[0], SideBetsChanged)
    for user in who:
        table, _ = table.toggle_side_bets(user)
    return table


def hands(table: Table, rng: random.Random, count: int):
    """Deal and finish `count` hands; yield the table after each."""
    for _ in range(count):
        table, _ = (table.start(ALICE, rng) if table.status is Status.LOBBY else table.next_hand(ALICE, rng))
        table = round_trip(finish(table))
        yield table


def test_only_the_host_sets_side_bets_and_bad_values_are_refused():
    table = seated(*PLAYERS)
    refused(table, lambda t: t.set_side_bets(BOB, ("naturals",)), "Only the host")
    refused(table, lambda t: t.set_side_bets(ALICE, ("dice",)), "no side bet called 'dice'")
    refused(table, lambda t: t.set_side_bets(ALICE, ("naturals",), stake=0), "side stake")
    refused(table, lambda t: t.set_side_bets(ALICE, ("high_card",), suit_call="hearts"), "spades always")
    refused(table, lambda t: t.toggle_side_bets(BOB), "has not turned side bets on")
    table, _ = table.set_side_bets(ALICE, ("naturals",), stake=2)
    refused(table, lambda t: t.toggle_side_bets(EVE), "not seated")
    table, events = table.toggle_side_bets(BOB)
    assert [type(e) for e in events] == [SideBetsChanged]
    assert str(events[0].text) == "bob is in the side bets from the next deal."
    assert table.public().side_bets.players == ("bob",)
    table, _ = table.toggle_side_bets(BOB)
    assert table.public().side_bets.players == ()
    closed, _ = table.end(ALICE, "alice")
    refused(closed, lambda t: t.set_side_bets(ALICE, ("naturals",)), "closed")
    refused(closed, lambda t: t.call_big_one(ALICE, 2), "closed")
    playing, _ = table.start(ALICE, random.Random(3))
    if playing.in_play:
        refused(playing, lambda t: t.set_side_bets(ALICE, ()), "between hands")


def test_a_side_bet_needs_two_players_in_it():
    table = betting(who=(BOB,))
    for after in hands(table, random.Random(1), 2):
        assert not getattr(after.game, "side_bets", None) and after.side_settled == ()
        assert after.side_bets.pots == {}


def test_high_card_pots_are_won_at_once_or_carried_and_the_totals_stay_zero_sum():
    rng = random.Random(11)
    table = betting(kinds=("high_card", "naturals"), stake=3)
    carried = won = 0
    for after in hands(table, rng, 12):
        bets = after.game.side_bets
        assert set(bets) == {"high_card", "naturals"} and bets["high_card"].seats == (0, 1)
        assert bets["high_card"].stake == 3
        winners = after.game.side_winners()
        settled = after.side_settled
        assert sum(settled or (0,)) == 0
        assert sum(s.total for s in after.seats) == 0  # the hands' payments and the pots won
        for kind, bet in bets.items():
            if winners[kind] is None:  # carried over, whole, to the next deal
                assert after.side_bets.total(kind) == bet.pot
                carried += kind == "naturals"
            else:
                assert after.side_bets.total(kind) == 0 and settled[winners[kind]] > 0
                won += kind == "high_card"
        assert after.public().side_bets.settled == settled
        table = after
    assert carried and won  


def test_a_carried_pot_goes_to_its_winner_from_everyone_who_paid_in():
    # seed 21 (searched for once): nobody in holds the called suit at the first deal, one does at the second
    rng = random.Random(21)
    table = betting(kinds=("high_card",), stake=2, suit_call="random")
    first, second = hands(table, rng, 2)
    assert first.game.side_winners()["high_card"] is None
    assert first.side_bets.pots == {"high_card": {ALICE: 2, BOB: 2}} and first.side_settled == ()
    assert first.public().side_bets.pots == {"high_card": 4}
    winner = second.game.side_winners()["high_card"]
    assert winner in (0, 1) and second.game.side_bets["high_card"].pot_in == 4
    assert second.side_settled[winner] == 4 and second.side_settled[1 - winner] == -4
    assert second.side_settled[2] == 0 and second.side_bets.pots == {}
    # the stored record replays to the same side bets: pot 4 in, 4 more paid, all of it won
    replayed = Game.from_record(json.loads(json.dumps(second.game.record()))).result()
    assert replayed["pot_out"] == {"high_card": 0} and replayed["side_payments"][winner] == 6


def test_a_closing_table_and_a_leaver_get_their_pot_shares_back():
    rng = random.Random(125)  # searched for once: nobody in holds the called suit at the first deal
    table = betting(kinds=("high_card",), stake=2, who=(ALICE, BOB, CAROL))
    first = next(hands(table, rng, 1))
    assert first.side_bets.pots == {"high_card": {ALICE: 2, BOB: 2, CAROL: 2}}
    left, _ = first.leave(CAROL)
    assert left.side_bets.pots == {"high_card": {ALICE: 2, BOB: 2}} and CAROL not in left.side_bets.players
    totals = [s.total for s in left.seats]
    closed, events = left.end(ALICE, "alice")
    assert events == [TableClosed(closed.closed_reason)]
    assert "The side pots (4 points) went back to those who paid in." in str(closed.closed_reason)
    assert closed.side_bets.pots == {} and [s.total for s in closed.seats] == totals
    # turning a bet off returns its pot too
    off, events = first.set_side_bets(ALICE, ())
    assert off.side_bets.pots == {} and "6 points in pots went back" in str(events[0].text)


def test_the_big_one_doubles_the_stake_for_its_hands_then_closes_the_table():
    table = seated(*PLAYERS)
    refused(table, lambda t: t.call_big_one(BOB, 2), "Only the host")
    refused(table, lambda t: t.call_big_one(ALICE, 11), "last 1 to 10 hands")
    refused(table, lambda t: t.call_big_one(ALICE, 0), "last 1 to 10 hands")
    rng = random.Random(2)
    table = finish(table.start(ALICE, rng)[0])
    assert table.game.stake == 2
    table, events = table.call_big_one(ALICE, 2)
    assert events == [BigOneCalled(2)] and round_trip(table).big_one == BigOne(2)
    refused(table, lambda t: t.call_big_one(ALICE, 3), "on already: 2 hands left")
    table, _ = table.next_hand(ALICE, rng)
    assert table.game.stake == 4 and table.public().big_one == 2
    table = round_trip(finish(table))
    assert table.big_one == BigOne(1) and table.status is Status.BETWEEN_HANDS
    assert all(abs(p) % 4 == 0 for p in table.game.outcome.payments)
    table, _ = table.next_hand(ALICE, rng)
    assert table.game.stake == 4
    while table.in_play:
        table, events = table.act(table.seats[table.to_act].user_id, DROP)
    assert table.status is Status.CLOSED and not table.big_one.on
    assert str(table.closed_reason) == "The big one is over: that was the last hand."
    assert isinstance(events[-1], TableClosed) and table.game.over  # the last hand is still recorded


def test_a_newcomer_between_hands_sits_at_the_dealers_right_and_deals_last():
    rng = random.Random(6)
    table = finish(seated(*PLAYERS).start(ALICE, rng)[0])
    dealer = table.dealer
    before = [s.name for s in table.seats]
    table, events = table.join(EVE, "eve")
    assert events == [SeatTaken(dealer, "eve")]
    assert [s.name for s in table.seats] == before[:dealer] + ["eve"] + before[dealer:]
    assert table.seats[table.dealer].name == before[dealer]  # the same player dealt the last hand
    # the deal passes to the left: everyone else deals before the newcomer, and the last dealer
    # deals again only after them
    dealers = []
    for _ in range(len(table.seats)):
        table, _ = table.next_hand(ALICE, rng)
        dealers.append(table.seats[table.dealer].name)
        table = finish(table)
    assert dealers[-2:] == ["eve", before[dealer]] and "eve" not in dealers[:-2]


def field(message, name: str) -> str:
    return next(f["value"] for f in message["embed"].to_dict()["fields"] if f["name"] == name)


def labels(message) -> list[str]:
    return [item.label for item in message["view"].children if hasattr(item, "label")]


def test_the_table_message_shows_the_side_bets_the_pots_and_the_big_one():
    from cogs import render
    from engine.cards import SUIT_WORDS

    table = betting(kinds=("high_card", "naturals"), stake=2)
    lobby = render.table_message(table.public())
    assert field(lobby, "Side bets") == ("High card (suit called at random) and naturals, 2 points a deal each. "
                                         "In: alice and bob.")
    assert "Side bets: in/out" in labels(lobby)
    first = next(hands(table, random.Random(21), 1))
    first, _ = first.call_big_one(ALICE, 3)
    shown = render.table_message(first.public())
    side = field(shown, "Side bets")
    high = SUIT_WORDS[first.game.side_bets["high_card"].suit]
    assert f"High card in {high} (alice and bob, pot 4): nobody in holds the suit: the pot carries over." in side
    assert "Naturals (alice and bob, pot 4): no natural book: the pot carries over." in side
    assert "In the pots for the next deal: high card 4, naturals 4." in side
    assert field(shown, "The big one") == "The big one: 3 hands left, double stakes; then the table closes."
    assert "Side bets: in/out" in labels(shown) and "Next hand" in labels(shown)
    second, _ = first.next_hand(ALICE, random.Random(1))
    playing = render.table_message(second.public())
    assert "Side bets: in/out" not in labels(playing)
    assert "pot 8" in field(playing, "Side bets")
    closed = render.table_message(second.end(ALICE, "alice")[0].public())
    assert "The side pots" in closed["embed"].description and "went back to those who paid in" in \
        closed["embed"].description


def test_the_big_one_is_a_value_that_counts_only_its_own_hands():
    big = BigOne().called(3)
    assert big.stake(5) == 10 and BigOne().stake(5) == 5
    assert big.after_hand(5, 5) == big  # called during a hand dealt at the table's stake: it starts at the next
    assert big.after_hand(10, 5) == BigOne(2) and not BigOne(2).over and BigOne(1).after_hand(10, 5).over
    assert BigOne.from_json(big.to_json()) == big and BigOne.from_json(None) == BigOne()
