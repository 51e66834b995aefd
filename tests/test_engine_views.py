"""Views are built from the game's public history, kept as the log grows: a view costs the
actions since the last one, not a replay of the whole log, and shows what a replay shows."""

from __future__ import annotations

import random

import pytest

import engine.view as view_module
from engine import DRAW, TAKE, Discard, Game, Rules, Spread
from engine.actions import Slap

from engine_helpers import C, cards, deal, rules_of

SLAP_HANDS = ["6s 7s 8s 9s Kd", "2c 3d 4h 10h Qh", "Ac Kc 5d 6d Jh"]
SLAP_OPEN = [(0, DRAW), (0, Spread(cards("6s 7s 8s"))), (0, Discard(C("9s")))]

RULES = [
    Rules.preset("standard"),
    rules_of("standard", stock_out="reshuffle"),
    Rules.preset("waiting"),
    Rules.preset("slap"),
    rules_of("slap", slap="next_player_first", jokers=2, wild_cards="jokers", wild_swap=True),
    Rules.preset("deuces wild"),
]


def _expected_card(game: Game, seat: int, action, events: list) -> object:
    """The card the whole table saw for `action`, worked out from the table around it."""
    verb = action.verb
    if verb == "take":
        return game.discard[-1]
    if verb == "slap":  # a slap always takes the latest discard (a draw or a take closes the window)
        return next(card for verb_, card in reversed(events) if verb_ == "discard")
    if verb in ("discard", "hit"):
        return action.card
    return None  # draw, spread, drop, claim; a swap's card is checked after it is applied


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.closest_preset() + ("+" if r.house else ""))
def test_every_view_shows_what_the_table_saw(rules):
    rng = random.Random(11)
    for hand in range(12):
        game = Game.deal(rules, 3, hand % 3, rng=rng)
        events: list = []
        while game.outcome is None:
            seat = game.to_act
            slaps = [(s, a) for s in game.slappers() if s != seat for a in game.legal_slaps(s)]
            if slaps and rng.random() < 0.6:
                seat, action = rng.choice(slaps)
            else:
                legal = game.legal_actions(seat)
                calm = [a for a in legal if a.verb != "drop"]
                action = rng.choice(calm if calm and rng.random() < 0.9 else legal)
            card = _expected_card(game, seat, action, events)
            hand_before = list(game.hands[seat])
            game.apply(seat, action)
            if action.verb == "swap":
                card = next(c for c in game.hands[seat] if c not in hand_before)
            events.append((action.verb, card))
            watcher = rng.randrange(3)
            history = game.view(watcher).history  # built a step at a time
            assert [(e.action.verb, e.card) for e in history] == events
            assert [(e.seat, e.action) for e in history] == list(game.log)
        cold = Game.from_json(game.to_json()).view(0).history  # a loaded game builds it in one go
        assert cold == history


def test_a_slap_taken_over_by_the_next_player_shows_the_slapped_card_once():
    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules_of(slap="next_player_first"))
    for seat, action in (*SLAP_OPEN, (2, Slap(0)), (1, Slap(0))):
        game.apply(seat, action)
        game.view(0)
    history = game.view(2).history
    assert [(e.seat, e.action.verb, e.card) for e in history[-2:]] == [(2, "slap", C("9s")), (1, "slap", C("9s"))]
    game.apply(1, TAKE)  # the pile still holds the upcard: the take shows it
    assert game.view(0).history[-1].card == C("Jd") == game.hands[1][-1]


def test_views_at_one_point_share_one_history_and_a_later_view_extends_it():
    game = Game.deal(Rules(), 3, 0, rng=random.Random(4))
    game.apply(game.turn, DRAW)
    first = game.view(0).history
    assert len(first) == 1 and game.view(1).history is first and game.view(2).history is first
    assert game.public_history() is first  # the table's public history, without a seat's view
    game.apply(game.turn, Discard(game.hands[game.turn][0]))
    later = game.view(0).history
    assert len(later) == 2 and later[0] is first[0]


def test_a_view_builds_only_the_events_since_the_last_view(monkeypatch):
    made = []
    real = view_module.PublicEvent

    def counted(*args):
        made.append(args)
        return real(*args)

    monkeypatch.setattr(view_module, "PublicEvent", counted)
    game = Game.deal(rules_of("standard", stock_out="reshuffle"), 2, 0, rng=random.Random(2))
    for _ in range(300):  # a long hand: draw and discard, the stock renewed from the pile
        seat = game.turn
        game.apply(seat, DRAW)
        game.view(0), game.view(1)
        game.apply(seat, Discard(game.hands[seat][0]))
        game.view(0), game.view(1)
    assert game.reshuffles > 0 and len(game.log) == 600
    assert len(made) == 600  # one event per action, not one per action per view


def test_a_copy_goes_on_from_the_history_so_far_and_keeps_its_own(monkeypatch):
    game = Game.deal(rules_of("standard", stock_out="reshuffle"), 2, 0, rng=random.Random(9))
    for _ in range(60):
        seat = game.turn
        game.apply(seat, DRAW)
        game.apply(seat, Discard(game.hands[seat][0]))
    before = game.view(0).history
    made = []
    real = view_module.PublicEvent
    monkeypatch.setattr(view_module, "PublicEvent", lambda *args: made.append(args) or real(*args))
    twin = game.copy()  # what the bot does for every play: copy, then apply to the copy
    twin.apply(twin.turn, DRAW)
    twin.apply(twin.turn, Discard(twin.hands[twin.turn][-1]))
    assert twin.view(0).history[:-2] == before and len(made) == 2  # the copy built its two new events only
    assert twin.view(1).history[-1].card == twin.discard[-1]
    assert game.view(0).history is before and len(game.log) == 120  # the original is as it was
    game.apply(game.turn, DRAW)
    assert game.view(0).history[-1].action.verb == "draw" and twin.view(0).history[-1].action.verb == "discard"


def test_a_computer_players_memory_keeps_the_pile_through_a_slap_taken_over():
    from engine.players.memory import Memory

    game = deal(SLAP_HANDS, stock="Qs 2s 3s", upcard="Jd", rules=rules_of(slap="next_player_first"))
    for seat, action in (*SLAP_OPEN, (2, Slap(0)), (1, Slap(0))):
        game.apply(seat, action)
    assert Memory(game.view(1)).pile == [C("Jd")] == game.discard
