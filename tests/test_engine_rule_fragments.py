"""Rule fragments that used to be repeated outside the engine's rules: one definition each."""

from engine import Rules, parse_cards
from engine.players.hands import Layout
from engine.players.hard import greedy_turn


def test_tonk_out_multiple_follows_the_house_rule():
    assert [Rules(tonk_out_pays="double").tonk_out_multiple(n) for n in (0, 1, 2)] == [2, 2, 2]
    assert [Rules(tonk_out_pays="single").tonk_out_multiple(n) for n in (0, 1, 2)] == [1, 1, 1]
    assert [Rules(tonk_out_pays="second_spread").tonk_out_multiple(n) for n in (0, 1, 2, 3)] == [1, 1, 2, 2]


def test_reshuffle_needs_the_house_rule_and_a_card_under_the_top():
    assert Rules(stock_out="reshuffle").can_reshuffle(2)
    assert not Rules(stock_out="reshuffle").can_reshuffle(1)
    assert not Rules(stock_out="lowest_wins").can_reshuffle(10)


def test_the_hard_players_sampled_opponent_counts_the_spreads_of_a_tonk_out():
    """hard.py valued an opponent's tonk out with two new spreads as single under second_spread."""
    rules = Rules(tonk_out_pays="second_spread", hit_books=True)
    hand = parse_cards("2s 2h 2d 9c 9h")
    went = greedy_turn(Layout(rules), hand, [], parse_cards("9d")[0], [])
    assert went[2] == "tonk_out" and went[3] == 2 and rules.tonk_out_multiple(went[3]) == 2
