"""A computer player that remembers (expert) learns over a table's hands, from its own view of each
finished hand and nothing else; the table keeps what it learned, and its decisions get it (issue 25)."""

import json
import random

from bot.table import Level, Scoring, SeatKind, Status, Table
from engine import DROP, Drop, Rules
from engine.players.sessionmemory import SessionMemory

ALICE, BOB = 1, 2
GOBLIN = "computer:Goblin (expert)"


def table_with(level: Level, seed: int = 3) -> tuple[Table, random.Random]:
    table = Table.open(guild_id=10, channel_id=20, host_id=ALICE, host_name="alice", rules=Rules(), stake=1,
                       scoring=Scoring.STAKES, computers=1, level=level, now=1.0)
    table = Table.from_json(dict(table.to_json(), id=7))
    rng = random.Random(seed)
    table, _ = table.start(ALICE, rng)
    while not table.in_play:
        table, _ = table.next_hand(ALICE, rng)
    return table, rng


def never_drops(level, seed, view, session=None):
    return next(a for a in view.legal_actions if not isinstance(a, Drop))


def alice_drops(table: Table) -> Table:
    """The computer plays on (never dropping) until Alice may drop, and she does: the hand is over."""
    while table.in_play:
        if table.is_computer_turn:
            table, _ = table.computer_play(never_drops)
        elif DROP in table.seat_view(0).legal_actions:
            table, _ = table.act(ALICE, DROP)
        else:  # drew already (the engine's own order): discard the first card offered
            table, _ = table.act(ALICE, table.seat_view(0).legal_actions[-1])
    return table


def test_an_expert_seat_learns_each_finished_hand_from_its_own_view_alone():
    table, _ = table_with(Level.EXPERT)
    assert table.memories == ()
    ended = alice_drops(table)
    assert ended.status is Status.BETWEEN_HANDS and ended.game.outcome.dropper == 0
    keys = [ended.seat_key(0), ended.seat_key(1)]
    assert keys == ["user:1", GOBLIN]
    expected = SessionMemory(GOBLIN)
    expected.learn(ended.game.view(1), keys)  # the computer's own view of the finished hand
    assert dict(ended.memories) == {GOBLIN: json.dumps(expected.to_dict())}
    learned = SessionMemory.from_dict(json.loads(dict(ended.memories)[GOBLIN]))
    assert learned.hands == {"user:1": 1}
    assert learned.drops["user:1"][0][1] == ended.game.outcome.counts[0]  # Alice's count as shown at the drop
    # what it keeps is hands seen and (turns, count) at each drop, which every seat sees at the showdown
    data = json.loads(dict(ended.memories)[GOBLIN])
    assert set(data) == {"seat", "hands", "drops"}
    assert all(type(x) is int for _, drops in data["drops"] for drop in drops for x in drop)


def test_the_memory_is_kept_with_the_table_and_given_to_the_expert_at_its_next_turn():
    table, rng = table_with(Level.EXPERT)
    ended = alice_drops(table)
    again = Table.from_json(json.loads(json.dumps(ended.to_json())))
    assert again.memories == ended.memories and again == ended  # it survives a save and a restart
    table, _ = again.next_hand(ALICE, rng)
    while not table.is_computer_turn:
        legal = table.seat_view(0).legal_actions
        table, _ = table.act(ALICE, next(a for a in legal if not isinstance(a, Drop)))
    memory, keys = table.computer_session()
    assert keys == ["user:1", GOBLIN] and memory.seat_key == GOBLIN and memory.hands == {"user:1": 1}
    seen = []
    table.computer_play(lambda level, seed, view: seen.append(view.seat) or never_drops(level, seed, view))
    assert seen == [1]
    ended = alice_drops(table)
    assert SessionMemory.from_dict(json.loads(dict(ended.memories)[GOBLIN])).hands == {"user:1": 2}


def test_levels_that_do_not_remember_keep_nothing():
    table, _ = table_with(Level.HARD)
    assert table.computer_session() is None
    assert alice_drops(table).memories == ()
    table, _ = table_with(Level.EXPERT)
    assert table.seats[1].kind is SeatKind.COMPUTER and Level.EXPERT.remembers and not Level.HARD.remembers


def test_a_computer_no_longer_seated_takes_its_memory_with_it():
    table, rng = table_with(Level.EXPERT)
    ended = alice_drops(table)
    table, _ = ended.join(BOB, "bob", now=2.0)
    goblin = next(i for i, s in enumerate(table.seats) if s.kind is SeatKind.COMPUTER)
    table, _ = table.remove(ALICE, goblin, now=3.0)
    assert [s.name for s in table.seats] == ["alice", "bob"]
    table, _ = table.next_hand(ALICE, rng)
    while table.status is not Status.BETWEEN_HANDS:
        if not table.in_play:
            table, _ = table.next_hand(ALICE, rng)
            continue
        seat = table.to_act
        user = table.seats[seat].user_id
        legal = table.seat_view(seat).legal_actions
        table, _ = table.act(user, DROP if DROP in legal else legal[-1])
    assert table.memories == ()
