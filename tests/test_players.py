"""Computer players: legal play everywhere, no hidden information, determinism, behaviour."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import random

import pytest

from engine import DRAW, DROP, TAKE, Discard, Game, PRESET_NAMES, Rules, SeatView, Spread, stacked_deck
from engine.cards import parse_cards
from engine.players import LEVELS, EasyPlayer, ExpertPlayer, HardPlayer, NormalPlayer, make_player
from engine.players.hard import Estimate
from engine.players.memory import Memory
from engine.outcome import settle_drop
from engine_helpers import C, cards, deal, rules_of

HOUSE_RULES = [
    {"jokers": 2},
    {"upcard": False},
    {"stock_out": "reshuffle"},
    {"stock_out": "dead_hand"},
    {"hit_books": False, "tonk_out_pays": "second_spread"},
    {"preset": "waiting", "hit_wait_cap": True},
    {"caught_pays": "five_to_low"},
    {"caught_pays": "per_player", "instant_high": "off"},
    {"caught_pays": "equal_or_lower", "jokers": 4},
    {"caught_pays": "low_collects", "scoring": "pushups"},
    {"caught_pays": "dropper_pays_all", "instant_low": 9, "instant_low_triple": True},
    {"caught_pays": "double_to_all", "instant_conflict": "best"},
    {"preset": "seattle", "deck": 40},
]


def play_checked(game: Game, bots: dict, *, max_steps: int = 3000) -> list:
    """Play to the end; every action must be one of the view's legal actions."""
    log = []
    steps = 0
    while game.outcome is None:
        seat = game.turn
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions, (bots[seat], action, view.legal_actions)
        game.apply(seat, action)
        log.append((seat, action))
        steps += 1
        assert steps < max_steps, "a hand did not end"
    assert sum(game.outcome.payments) == 0
    return log


def play_hands(rules: Rules, levels: list[str], hands: int, seed: int) -> int:
    rng = random.Random(seed)
    actions = 0
    for i in range(hands):
        n = len(levels)
        game = Game.deal(rules, n, i % n, rng=rng)
        bots = {s: make_player(levels[(s + i) % n], seed=seed * 1000 + i * 10 + s) for s in range(n)}
        actions += len(play_checked(game, bots))
        assert all(b.fallbacks == 0 for b in bots.values())
    return actions


# ---------------------------------------------------------------------- the API


def test_levels_and_factory():
    assert LEVELS == ("easy", "normal", "hard", "expert")
    assert isinstance(make_player("easy"), EasyPlayer)
    assert isinstance(make_player("Normal", seed=3), NormalPlayer)
    assert isinstance(make_player("hard", seed=3), HardPlayer)
    assert isinstance(make_player("Expert", seed=3), ExpertPlayer)
    with pytest.raises(ValueError, match="no computer level"):
        make_player("grandmaster")


def test_choose_takes_only_a_seat_view():
    for level in LEVELS:
        params = list(inspect.signature(make_player(level).choose).parameters)
        assert params == ["view"]


def test_choose_refuses_a_view_when_it_is_not_the_seats_turn():
    game = Game.deal(Rules(), 3, 2, rng=random.Random(5))
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_player("hard", 1).choose(game.view(1))


# ---------------------------------------------------------------------- legal play everywhere


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_easy_and_normal_play_legally_in_every_preset(preset):
    rules = Rules.preset(preset)
    total = 0
    for players in range(2, min(6, rules.max_players()) + 1):
        mix = ["easy", "normal"] * 3
        total += play_hands(rules, mix[:players], 60, seed=players)
    assert total > 3000


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_easy_and_normal_play_legally_under_house_rules(options):
    rules = Rules.from_dict(options)
    players = min(4, rules.max_players())
    play_hands(rules, ["normal", "easy", "normal", "easy"][:players], 40, seed=11)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hard_plays_legally_in_every_preset(preset):
    rules = Rules.preset(preset)
    play_hands(rules, ["hard", "normal", "easy"], 4, seed=21)
    play_hands(rules, ["hard", "hard"], 2, seed=22)
    if rules.max_players() >= 6:
        play_hands(rules, ["hard", "easy", "normal", "easy", "hard", "easy"], 1, seed=23)


@pytest.mark.parametrize("options", HOUSE_RULES[:8], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_hard_plays_legally_under_house_rules(options):
    rules = Rules.from_dict(options)
    play_hands(rules, ["hard", "normal", "hard", "easy"][: min(4, rules.max_players())], 2, seed=31)


def test_a_long_hand_after_the_stock_runs_out_still_ends():
    # the stock runs out and nobody can drop low enough: players may take the discard only
    # while it lowers their count, so the hand ends by a stock-out
    rules = Rules(instant_high="off")
    for seed in range(4):
        play_hands(rules, ["easy", "easy"], 3, seed=100 + seed)


# ---------------------------------------------------------------------- no hidden information


def _mirror_decks(rules: Rules):
    """Two decks that agree on everything seat 0 can ever see in the first turns (its
    hand, the upcard, the first 12 stock cards) and differ in every hidden card:
    in one the other hands are all high, in the other all low."""
    mine = parse_cards("2c 3d 7d Qd 9s")
    upcard = C("9h")
    stock = parse_cards("8h 9c 10h Jh 5s 6h 10c Js Jc 5d 6c 8s")
    high = [parse_cards("Kc Kd Qc Jd 8c"), parse_cards("Kh Ks Qh Qs 8d")]
    low = [parse_cards("Ac Ad 2d 3h 3s"), parse_cards("Ah As 2h 2s 4c")]
    decks = []
    for others in (high, low):
        deck = stacked_deck(rules, 2, [mine, others[0], others[1]], upcard=upcard, stock=stock)
        decks.append(deck)
    return decks


def test_hard_decides_the_same_when_only_hidden_cards_differ():
    """Two games whose views for the hard seat are identical but whose hidden cards (the
    other hands and the rest of the stock) are opposite: a player that saw hidden cards
    would drop in one and not the other. The opponents take the discard and throw it
    back, so the public history stays the same in both."""
    rules = Rules()
    for seed in range(3):
        games = [Game.deal(rules, 3, 2, deck=deck) for deck in _mirror_decks(rules)]
        bots = [make_player("hard", seed=seed), make_player("hard", seed=seed)]
        decisions = turns = peeking_would_differ = 0
        while games[0].outcome is None and turns < 10:  # hard draws at most 10 stock cards
            seat = games[0].turn
            if seat == 0:
                views = [g.view(0) for g in games]
                assert views[0] == views[1]
                if views[0].phase == "start":
                    # what a peeking player would know: whether dropping now wins or is caught
                    paid = [settle_drop(rules, 0, g.counts(), g.dealer, 1).payments[0] for g in games]
                    peeking_would_differ += paid[0] != paid[1]
                actions = [bot.choose(view) for bot, view in zip(bots, views)]
                assert actions[0] == actions[1]
                decisions += 1
                turns += views[0].phase == "start"
            elif games[0].phase == "start":
                actions = [TAKE, TAKE] if games[0].discard_top else [DRAW, DRAW]
            else:
                actions = [Discard(g.hands[seat][-1]) for g in games]
            for game, action in zip(games, actions):
                game.apply(seat, action)
        assert decisions >= 6 and peeking_would_differ >= 3
    assert games[0].counts() != games[1].counts()


def test_a_seat_view_holds_no_reference_to_the_game():
    game = Game.deal(Rules.preset("waiting"), 4, 0, rng=random.Random(3))
    bots = {s: make_player("normal", s) for s in range(4)}
    for _ in range(12):
        if game.outcome is not None:
            break
        game.apply(game.turn, bots[game.turn].choose(game.view(game.turn)))
    view = game.view(game.turn)
    seen = set()
    todo = [view]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, str, int, float, bool)) or obj is None:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, Game), "a SeatView leads to the Game"
        if isinstance(obj, (tuple, list, set, frozenset, dict)) or dataclasses.is_dataclass(obj):
            todo.extend(gc.get_referents(obj))
    assert len(seen) > 20


def test_hard_counts_known_taken_cards_as_held():
    """An opponent down to one card that it took from the pile (an ace) is certainly
    lower than my 2: dropping is certainly caught. If that card came from the stock,
    the drop is probably good."""
    def scenario(taken: bool, caught_pays: str = "standard") -> SeatView:
        rules = rules_of(caught_pays=caught_pays)
        game = deal(["Ad 2c 3c 4c 2s", "5h 6h 7h 8h Kd", "9s 9d Js Qd Kc"], upcard="10c",
                    stock="5c Qh" if taken else "5c Kh Qh", rules=rules)
        game.apply(0, DRAW)
        game.apply(0, Spread(cards("2c 3c 4c 5c")))
        game.apply(0, Discard(C("Ad")))
        game.apply(1, TAKE if taken else DRAW)
        game.apply(1, Spread(cards("5h 6h 7h 8h")))
        game.apply(1, Discard(C("Kd")))
        game.apply(2, DRAW)
        game.apply(2, Discard(C("Qh")))
        return game.view(0)

    known = scenario(True)
    assert known.count == 2 and known.hand_sizes == (1, 1, 5)
    for seed in range(3):
        player = make_player("hard", seed)
        assert player.choose(known) != DROP
        values = Estimate(player, known, Memory(known)).values(take=False, stock_out_now=False)
        assert values["drop"] == -2.0  # caught in every sample: pays the ace holder double
        unknown = scenario(False)
        values = Estimate(player, unknown, Memory(unknown)).values(take=False, stock_out_now=False)
        assert values["drop"] > 0.5
        harsh = scenario(False, "per_player")
        harsh_values = Estimate(player, harsh, Memory(harsh)).values(take=False, stock_out_now=False)
        assert harsh_values["drop"] < values["drop"]


# ---------------------------------------------------------------------- determinism


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_gives_the_same_play(level):
    def run(seed):
        logs = []
        for i in range(3):
            game = Game.deal(Rules.preset("waiting"), 3, i % 3, rng=random.Random(40 + i))
            bots = {s: make_player(level, seed=seed + s) for s in range(3)}
            logs.append(play_checked(game, bots))
        return logs

    assert run(7) == run(7)


# ---------------------------------------------------------------------- behaviour


def test_normal_and_hard_take_a_discard_that_completes_a_spread():
    for level in ("normal", "hard", "easy"):
        game = deal(["7c 7d Ks Qh 2s", "Ac 4d 9h Jc Js", "3c 5d 6h 8s 10d"], upcard="7h", stock="Kd")
        assert make_player(level, 1).choose(game.view(0)) == TAKE
        game.apply(0, TAKE)
        player = make_player(level, 1)
        first = player.choose(game.view(0))
        assert first == Spread(cards("7c 7d 7h"))


def test_normal_lays_hits_and_throws_the_high_card():
    game = deal(["Ks 5h 6h 7h 2c", "4h 4d 4s Jc Js", "3c 5d 6d 8s 10d"], upcard="Qd", stock="8h 3s 3d 9c")
    game.apply(0, DRAW)  # 8h
    player = make_player("normal", 1)
    actions = []
    while game.turn == 0 and game.outcome is None:
        action = player.choose(game.view(0))
        actions.append(action)
        game.apply(0, action)
    assert actions[0] == Spread(cards("5h 6h 7h 8h"))
    assert actions[-1] == Discard(C("Ks"))


def test_hard_is_more_careful_when_a_caught_drop_costs_more():
    """The same positions judged under standard and under costlier caught-pay rules."""
    rules = Rules()
    states = []
    i = 0
    while len(states) < 40:
        game = Game.deal(rules, 3, i % 3, rng=random.Random(500 + i))
        bots = {s: make_player("normal", seed=i * 3 + s) for s in range(3)}
        i += 1
        while game.outcome is None:
            view = game.view(game.turn)
            if view.phase == "start" and DROP in view.legal_actions and view.count <= 15 and len(view.history) > 3:
                states.append(view)
            game.apply(game.turn, bots[game.turn].choose(view))

    def drops(caught_pays: str) -> int:
        costly = dataclasses.replace(rules, caught_pays=caught_pays)
        return sum(make_player("hard", k).choose(dataclasses.replace(v, rules=costly)) == DROP
                   for k, v in enumerate(states))

    standard = drops("standard")
    assert standard >= 5
    assert drops("five_to_low") < standard
    assert drops("per_player") < standard
    assert drops("equal_or_lower") > standard  # caught costs less there
