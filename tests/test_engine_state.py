"""The seat view hides what it must; the state and records round-trip exactly."""

import json
import random

from engine import DRAW, DROP, TAKE, Discard, Game, Rules, Spread, random_hand
from engine.simulate import play_random_hand
from engine_helpers import C, cards, deal


def test_seat_view_holds_only_what_that_seat_may_see():
    game = deal(["7s 8s 9s Kd 2c", "Kh Qh 2h 3h 4c", "Ac Ad 5h 6h 7c"], stock="Qc Jd")
    game.apply(0, DRAW)
    game.apply(0, Spread(cards("7s 8s 9s")))
    game.apply(0, Discard(C("Qc")))
    view = game.view(1)
    assert view.hand == tuple(game.hands[1])
    assert view.hand_sizes == (2, 5, 5)
    assert view.discard_top is C("Qc") and view.stock_size == len(game.stock)
    assert view.spreads[0].cards == cards("7s 8s 9s")
    assert view.showdown is None
    assert view.legal_actions == (DROP, DRAW, TAKE)
    assert game.view(0).legal_actions == ()
    # nothing of another hand or of the stock order is anywhere in the view
    text = repr(view)
    for hidden in list(game.hands[0]) + list(game.hands[2]) + list(game.stock):
        assert f"Card({hidden.code})" not in text, hidden
    # the public history shows the discard but not the drawn card
    assert [e.card for e in view.history] == [None, None, C("Qc")]


def test_the_view_knows_which_card_a_take_picked_up():
    game = deal(["7s 8s 9s Kd 2c", "Kh Qh 2h 3h 4c"], upcard="5d", stock="Qc")
    game.apply(0, TAKE)
    game.apply(0, Discard(C("Kd")))
    game.apply(1, TAKE)
    view = game.view(0)
    assert [(e.action.verb, e.card) for e in view.history] == [("take", C("5d")), ("discard", C("Kd")), ("take", C("Kd"))]
    assert C("5d") in view.seen_cards() and C("Qc") not in view.seen_cards()


def test_showdown_shows_every_hand_once_the_hand_is_over():
    game = deal(["As 2c 3d 4h 5s", "Kd Qd 2h 3h 4c"])
    game.apply(0, DROP)
    view = game.view(1)
    assert view.showdown == (tuple(game.hands[0]), tuple(game.hands[1]))
    assert view.outcome.kind == "drop_won"


def test_state_json_round_trip_is_lossless_and_play_continues_identically():
    for seed in range(60):
        rng = random.Random(seed)
        preset = ["standard", "waiting", "black company", "washington", "seattle", "baton rouge"][seed % 6]
        rules = Rules.preset(preset)
        if seed % 5 == 0:
            rules = Rules.from_dict({"preset": preset, "jokers": 2, "stock_out": "reshuffle"})
        game = Game.deal(rules, 2 + seed % 4, seed % 2, rng=rng)
        for _ in range(rng.randrange(0, 12)):
            if game.over:
                break
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        text = json.dumps(game.to_json())
        restored = Game.from_json(json.loads(text))
        assert json.dumps(restored.to_json()) == text
        a, b = random.Random(seed), random.Random(seed)
        play_random_hand(game, a)
        play_random_hand(restored, b)
        assert game.to_json() == restored.to_json()


def test_record_round_trip_replays_to_the_same_state():
    for seed in range(100):
        rng = random.Random(seed)
        record, result = random_hand(rng, players=2 + seed % 5, preset="waiting")
        game = Game.from_record(json.loads(json.dumps(record)))
        assert game.outcome.result() == {k: v for k, v in result.items() if k != "dropper"}
        assert game.record() == record


def test_unfinished_hand_writes_a_record_that_replays_as_far_as_it_goes():
    game = deal(["7s 8s 9s Kd 2c", "Kh Qh 2h 3h 4c"], stock="Qc")
    game.apply(0, DRAW)
    record = game.record()
    assert record["actions"] == [{"seat": 0, "do": "draw"}]
    again = Game.from_record(record)
    assert again.outcome is None and again.hands == game.hands


def test_a_copy_plays_on_without_changing_the_original():
    import random as _random

    from engine import Game, Rules

    game = Game.deal(Rules(), 3, 0, rng=_random.Random(7))
    before = game.to_json()
    copy = game.copy()
    rng = _random.Random(1)
    while not copy.over:
        seat = copy.turn
        copy.apply(seat, rng.choice([a for a in copy.legal_actions(seat) if a.verb != "drop"] or
                                    copy.legal_actions(seat)))
    assert game.to_json() == before and copy.to_json() != before
