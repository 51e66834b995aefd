"""Events drive the live runtime: every event the table emits has a reader there, and the
events carry what their readers need (the drawn card, to its seat's runtime entry only)."""

import random
import sys

from bot.commands import ComputerPlay, Join, Leave, NextHand, Play, Remove, Start, TakeOver, TimeOut
from bot.table import Event, Played, Table
from cogs.live import READERS
from engine import DRAW, Rules
from engine.players import make_player
from test_table import ALICE, BOB, CAROL, lobby


def concrete_events() -> set[type]:
    """Event classes with no subclass (a slotted dataclass replaces its class: the stand-in
    left behind among the base's subclasses is not the one its module names)."""
    found, stack = set(), [Event]
    while stack:
        cls = stack.pop()
        subclasses = [c for c in cls.__subclasses__() if getattr(sys.modules[c.__module__], c.__name__, None) is c]
        if not subclasses and cls is not Event:
            found.add(cls)
        stack.extend(subclasses)
    return found


def test_every_event_class_has_a_reader_in_the_live_runtime():
    missing = concrete_events() - set(READERS)
    assert not missing, f"events nobody reads: {sorted(c.__name__ for c in missing)}"


def emitted(seed: int, preset: str) -> set[type]:
    """Play whole sessions of random commands, collecting what the table emits."""
    rng = random.Random(seed)
    table = lobby(rules=Rules.preset(preset), computers=1)
    kinds: set[type] = set()

    def run(command) -> None:
        nonlocal table
        try:
            table, events = table.apply(command, now=1.0, rng=rng)
        except Exception as exc:  # refusals are part of a random session
            assert type(exc).__module__.startswith(("bot.", "engine.")), exc
            return
        kinds.update(type(e) for e in events)

    for user, name in ((BOB, "bob"), (CAROL, "carol")):
        run(Join(user, name))
    run(Start(ALICE))
    players = [make_player("easy", seed=seed + i) for i in range(8)]
    for _ in range(400):
        if not table.is_open:
            break
        if table.in_play:
            seat = table.to_act
            roll = rng.random()
            if roll < 0.02:
                run(Leave(rng.choice((BOB, CAROL))))
            elif roll < 0.05:
                run(TakeOver(rng.choice((ALICE, BOB, CAROL)), rng.randrange(len(table.seats))))
            elif roll < 0.08:
                run(TimeOut(table.turn_key))
            elif table.seats[seat].played_by_computer:
                run(ComputerPlay(table.turn_key, players[seat].choose(table.game.view(seat))))
            else:
                run(Play(table.seats[seat].user_id, players[seat].choose(table.game.view(seat))))
        else:
            if rng.random() < 0.1:
                run(Remove(ALICE, rng.randrange(len(table.seats))))
            run(NextHand(ALICE) if table.seat_of(ALICE) is not None else NextHand(table.host_user_id))
    return kinds


def test_the_events_random_sessions_emit_are_all_read():
    kinds = set().union(*(emitted(seed, preset) for seed in range(6) for preset in ("standard", "waiting")))
    assert kinds <= set(READERS)
    assert Played in kinds and len(kinds) >= 8  # the sessions reach far enough to mean something


def test_a_draw_tells_its_card_to_the_drawer_s_event_only():
    rng = random.Random(3)
    table = lobby()
    table, _ = table.apply(Join(BOB, "bob"))
    table, _ = table.apply(Start(ALICE), rng=rng)
    while not table.in_play or table.game.phase != "start":
        table, _ = table.apply(NextHand(ALICE), rng=rng)
    seat = table.to_act
    after, events = table.apply(Play(table.seats[seat].user_id, DRAW))
    played = next(e for e in events if isinstance(e, Played))
    assert played.drawn is not None and played.drawn in after.game.hands[seat]
    assert played.drawn not in table.game.hands[seat]
    assert str(played.drawn) not in repr(played)  # never written to a log by accident
