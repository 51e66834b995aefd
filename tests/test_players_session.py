"""Session memory (issue 25): what one seat learns about each opponent over a session's hands."""

from __future__ import annotations

import random

import pytest

from engine import Game, Rules
from engine.players import make_player
from engine.players.arena import new_sessions, play_hand, run_arena, session_at
from engine.players.expert import DROP_AT, Rollout
from engine.players.hard import Estimate
from engine.players.memory import Memory
from engine.players.sessionmemory import HARD_DROPS_AT, PRIOR, SessionMemory
from test_players import play_checked


def finished_hand(seed: int, players: int = 3) -> Game:
    game = Game.deal(Rules(), players, seed % players, rng=random.Random(seed))
    play_checked(game, {s: make_player("hard", seed * 10 + s) for s in range(players)})
    return game


def with_stock_redealt(game: Game, rng: random.Random) -> Game:
    """The same finished hand with the cards nobody ever saw (the stock left) in another order."""
    data = game.to_json()
    rng.shuffle(data["stock"])
    return Game.from_json(data)


def test_it_learns_each_drop_it_saw_with_the_turns_and_count_shown():
    keys = ("me", "ann", "bob")
    memory = SessionMemory("me")
    seen = 0
    for seed in range(30):
        game = finished_hand(seed)
        out = game.outcome
        memory.learn(game.view(0), keys)
        if out.dropper in (1, 2):
            turns = Memory(game.view(0)).turns[out.dropper]
            assert memory.drops[keys[out.dropper]][-1] == (turns, out.counts[out.dropper])
            seen += 1
    assert seen >= 5
    assert memory.hands == {"ann": 30, "bob": 30}  # nothing about itself
    assert "me" not in memory.drops
    drops = memory.drops["ann"]
    expected = sum(c - DROP_AT[min(t, len(DROP_AT) - 1)] - HARD_DROPS_AT for t, c in drops) / (len(drops) + PRIOR)
    assert memory.drop_offset("ann") == pytest.approx(expected)
    assert SessionMemory.from_dict(memory.to_dict()) == memory


def test_it_holds_only_what_its_seat_saw():
    """Another seat's view or an unfinished hand is refused; cards never shown (the stock
    left at the end, dealt again in another order) leave it exactly as it was."""
    keys = (0, 1, 2)
    rng = random.Random(4)
    for seed in range(12):
        game = finished_hand(seed)
        assert game.stock  # cards nobody saw
        again = with_stock_redealt(game, rng)
        assert again.stock != game.stock and again.view(0) == game.view(0)
        one, two = SessionMemory(0), SessionMemory(0)
        one.learn(game.view(0), keys)
        two.learn(again.view(0), keys)
        assert one == two
    with pytest.raises(ValueError, match="own seat"):
        SessionMemory(0).learn(finished_hand(1).view(1), keys)
    fresh = Game.deal(Rules(), 3, 0, rng=random.Random(2))
    with pytest.raises(ValueError, match="finished"):
        SessionMemory(0).learn(fresh.view(0), keys)


def test_an_arena_session_is_the_same_whatever_the_workers_and_where_a_run_resumes():
    rules = Rules()
    levels = ["expert", "hard"]
    options = {"expert": {"samples": 4, "time_cap": float("inf")}}
    one = run_arena(8, levels, rules, 6, session=3, options=options)
    two = run_arena(8, levels, rules, 6, session=3, options=options, workers=2)
    assert [h.payments for h in one.hands] == [h.payments for h in two.hands]
    # hand 4 of a 3-hand session starts from what hand 3 taught: played again, the same memory
    rebuilt = session_at(rules, levels, 6, 5, 3, options=options)
    direct = new_sessions(levels)
    for i in (3, 4):
        play_hand(rules, levels, 6, i, options=options, sessions=direct)
    assert rebuilt == direct and rebuilt[0].hands == {1: 2}


def test_expert_play_outs_let_an_opponent_drop_at_its_own_counts():
    game = Game.deal(Rules(), 2, 0, rng=random.Random(8))
    learned = SessionMemory("x")
    learned.drops["y"] = [(1, 20)] * 30  # drops at 20 after one turn
    me = game.turn
    keys = tuple("x" if s == me else "y" for s in range(2))
    player = make_player("expert", 1, samples=4)
    player.session = (learned, keys)
    view = game.view(me)
    offsets = player.session_offsets(view)
    assert offsets[me] == 0.0 and offsets[1 - me] == pytest.approx(30 * (20 - DROP_AT[1] - HARD_DROPS_AT) / (30 + PRIOR))
    rollout = Rollout(game, Memory(view), random.Random(1), 0.0, offsets)
    assert rollout.threshold(1 - me) == pytest.approx(DROP_AT[0] + offsets[1 - me])  # no turn played yet
    assert rollout.threshold(me) == DROP_AT[0]
    # the value of playing on in the drop decision (hard's look-ahead) uses it too
    plain = make_player("expert", 1, samples=4)
    memory = Memory(view)
    assert Estimate(player, view, memory).opponent_threshold(1 - me) == pytest.approx(
        Estimate(plain, view, memory).opponent_threshold(1 - me) + offsets[1 - me])
    assert player.choose(view) in view.legal_actions


def test_expert_with_a_session_memory_still_decides_from_its_seat_view_alone():
    """The seat-view test with a memory learned over earlier hands: dealing the hidden cards
    again leaves every seeded decision unchanged."""
    from test_players_expert import redeal_hidden

    levels = ["expert", "hard"]
    sessions = new_sessions(levels)
    for i in range(8):
        play_hand(Rules(), levels, 2, i, options={"expert": {"samples": 4}}, sessions=sessions)
    learned = sessions[0]
    assert learned.hands == {1: 8} and learned.drop_offset(1) != 0.0  # it learned something
    decisions = 0
    for hand in range(4):
        game = Game.deal(Rules(), 2, hand % 2, rng=random.Random(90 + hand))
        other = make_player("hard", hand)
        steps = 0
        while game.outcome is None and steps < 40:
            seat = game.turn
            if seat == 0:
                games = [game] + [redeal_hidden(game, 0, random.Random(hand * 50 + steps + k)) for k in range(2)]
                chosen = []
                for g in games:
                    player = make_player("expert", hand * 100 + steps, samples=6, time_cap=float("inf"))
                    player.session = (learned, (0, 1))
                    chosen.append(player.choose(g.view(0)))
                assert chosen[0] == chosen[1] == chosen[2]
                action = chosen[0]
                decisions += 1
            else:
                action = other.choose(game.view(seat))
            game.apply(seat, action)
            steps += 1
    assert decisions >= 8
