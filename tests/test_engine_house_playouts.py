"""Seeded random playouts over every preset, 2 to 6 players and hand sizes 3 to 12, with
side bets on: every card is accounted for, payments and side payments are zero-sum
(with the pot), every hand ends, a refused action changes nothing, and the record
replays to the same hand."""

import json
import random

import pytest

from engine import DRAW, DROP, TAKE, Discard, Game, Hit, PRESET_NAMES, Rules, Spread, TonkError, full_deck
from engine.actions import CLAIM, Slap, Swap
from engine.session import side_bet
from engine.simulate import MAX_ACTIONS

from engine_helpers import rules_of


_DECKS: dict = {}


def accounted(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the stock, the pile or a spread."""
    places = [c for h in game.hands for c in h] + list(game.stock) + list(game.discard)
    places += [c for s in game.spreads for c in s.cards]
    deck = _DECKS.get(game.rules)
    if deck is None:
        deck = _DECKS[game.rules] = sorted(c.index for c in full_deck(game.rules))
    assert sorted(c.index for c in places) == deck


def probe_refusal(game: Game, rng: random.Random) -> None:
    """Try an action some seat may not take now: it must be refused and change nothing."""
    seat = rng.randrange(game.num_players)
    legal = set(game.legal_actions(seat))
    hand = game.hands[seat]
    other = game.hands[(seat + 1) % game.num_players]
    tries = [DRAW, TAKE, DROP, CLAIM, Slap(0), Slap(len(game.spreads))]
    if hand:
        tries += [Discard(rng.choice(hand)), Hit(rng.choice(hand), 0), Swap(rng.choice(hand), 0)]
    if other:
        tries.append(Discard(rng.choice(other)))
    if len(hand) >= 3:
        tries.append(Spread(tuple(rng.sample(hand, 3))))
    illegal = [a for a in tries if a not in legal]
    if not illegal:
        return
    action = rng.choice(illegal)
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(seat, action)
    except TonkError:
        assert json.dumps(game.to_json(), sort_keys=True) == before
    else:  # legal_actions lists one naming per wild choice; others are legal too
        assert game.house is not None and isinstance(action, (Spread, Hit, Slap))
        raise AssertionError(f"{action} was applied but not listed")


def play_out(game: Game, rng: random.Random, *, drop_chance: float = 0.08) -> int:
    """Random legal play, dropping rarely (so hands run long), other seats slapping at times."""
    steps = 0
    while game.outcome is None:
        seat = game.to_act
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} has nothing to do"
        if steps % 7 == 0:
            probe_refusal(game, rng)
            state = json.loads(json.dumps(game.to_json()))
            assert Game.from_json(state).to_json() == state  # a live table saves and loads mid-hand
        slaps = [(s, a) for s in range(game.num_players) if s != seat for a in game.legal_slaps(s)]
        if slaps and rng.random() < 0.5:
            seat, action = rng.choice(slaps)
        else:
            calm = [a for a in actions if a is not DROP] if rng.random() > drop_chance else actions
            claims = [a for a in actions if a is CLAIM]
            action = claims[0] if claims and rng.random() < 0.5 else rng.choice(calm or actions)
        game.apply(seat, action)
        accounted(game)
        steps += 1
        assert steps < MAX_ACTIONS, "a hand did not end"
    return steps


def side_bets_for(n: int, rng: random.Random) -> dict:
    seats = sorted(rng.sample(range(n), rng.randint(1, n)))
    return {
        "high_card": side_bet("high_card", seats, rng.randint(1, 3), rng.randint(0, 5), rng.choice("cdhs"), n),
        "naturals": side_bet("naturals", seats[::-1][: max(1, len(seats) - 1)], 1, rng.randint(0, 5), players=n),
    }


def check_finished(game: Game) -> None:
    out = game.outcome
    assert sum(out.payments) == 0
    assert all(p >= 0 for p in out.pushups)
    result = game.result()
    if game.side_bets:
        pot_in = sum(b.pot_in for b in game.side_bets.values())
        assert sum(result["side_payments"]) + sum(result["pot_out"].values()) - pot_in == 0
    record = json.loads(json.dumps(game.record()))
    again = Game.from_record(record)
    assert again.result() == result
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).result() == result


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_playouts_keep_every_invariant(preset):
    rules = Rules.preset(preset)
    rng = random.Random(f"house-playouts|{preset}")
    kinds = set()
    for players in range(2, rules.max_players() + 1):
        for hand in range(4):
            bets = side_bets_for(players, rng) if hand % 2 else None
            game = Game.deal(rules, players, hand % players, rng=rng, stake=rng.randint(1, 3), side_bets=bets)
            accounted(game)
            play_out(game, rng)
            check_finished(game)
            kinds.add(game.outcome.kind)
    assert kinds & {"drop_won", "caught"}


@pytest.mark.parametrize("size", range(3, 13))
def test_random_playouts_for_every_hand_size(size):
    rng = random.Random(f"house-sizes|{size}")
    for preset in ("standard", "chicago", "slap", "rushville"):
        rules = Rules.from_dict({"preset": preset, "hand_size": size})
        for players in range(2, rules.max_players() + 1):
            game = Game.deal(rules, players, 0, rng=rng)
            assert all(len(h) == size for h in game.hands)
            play_out(game, rng)
            check_finished(game)


OPTION_MIX = [
    dict(slap="next_player_first", wild_cards="deuces_and_jokers", jokers=2, wild_swap=True),
    dict(must_spread="on", hits_per_turn=1, hit_ends_turn=True, ace_in_runs="low_or_high"),
    dict(take_must_be_used=True, drop_when="any_time", waiting=True, hit_bars_going_out=True, spread_wait=1),
    dict(boobed=True, hand_size=9, run_out_pays="double", hit_spoils_tonk_out=True, face_values="ranked"),
    dict(double_double=True, first_turn_tonk_out="quadruple_two_spreads", caught_pays="catchers_only",
         catchers_stakes=4, stock_out="reshuffle"),
    dict(slap="first_to_slap", wild_cards="jokers", jokers=4, must_spread="on_but_three_aces", deck=40),
]


@pytest.mark.parametrize("options", OPTION_MIX)
def test_random_playouts_with_options_together(options):
    rules = rules_of(**options)
    rng = random.Random(json.dumps(options, sort_keys=True))
    for players in range(2, min(6, rules.max_players()) + 1):
        for hand in range(5):
            game = Game.deal(rules, players, hand % players, rng=rng, side_bets=side_bets_for(players, rng))
            play_out(game, rng, drop_chance=0.03)
            check_finished(game)
