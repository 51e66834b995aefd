"""`/tonk help` and the terminal's `help`: the lesson follows the table's house rules,
and what it says each ending pays is what the engine really pays."""

from __future__ import annotations

import re

import pytest

from engine import DRAW, Card, Game, Rules, Spread, parse_cards, stacked_deck
from engine.help import first_hand_hint as _first_hand_hint, help_sections as _help_sections, help_text as _help_text
from engine.outcome import settle_drop
from i18n import ENGLISH


def help_sections(rules: Rules, **kw) -> list[tuple[str, str]]:
    """The sections as an English reader reads them (the engine returns `Text`s)."""
    return [(ENGLISH.render(h), ENGLISH.render(b)) for h, b in _help_sections(rules, **kw)]


def help_text(rules: Rules, **kw) -> str:
    return ENGLISH.render(_help_text(rules, **kw))


def first_hand_hint(rules: Rules) -> str:
    return ENGLISH.render(_first_hand_hint(rules))


def describe(rules: Rules) -> list[str]:
    return [ENGLISH.render(line) for line in rules.describe()]


def section(rules: Rules, heading: str) -> str:
    return next(body for title, body in help_sections(rules) if title.startswith(heading))


def tonk_out_payment(rules: Rules) -> int:
    """Play a tonk out with one spread through the engine; what each loser pays in stakes."""
    hands = [parse_cards("Kh Qh Jh 2c 3d"), parse_cards("5s 6s 7s 8s 9s")]
    deck = stacked_deck(rules, 0, hands, upcard=Card.parse("4c"), stock=parse_cards("10s"))
    game = Game.deal(rules, ["Ann", "Bob"], 0, deck=deck)
    game.apply(1, DRAW)
    outcome = game.apply(1, Spread(tuple(parse_cards("5s 6s 7s 8s 9s 10s"))))
    assert outcome.kind == "tonk_out"
    return -outcome.payments[0]


@pytest.mark.parametrize("preset", ["standard", "black company"])
def test_tonk_out_is_paid_what_the_help_says(preset):
    rules = Rules.preset(preset)
    paid = tonk_out_payment(rules)
    line = next(line for line in section(rules, "How a hand ends").splitlines() if line.startswith("Tonk out"))
    assert f": {paid} stake{'s' if paid != 1 else ''} from each player" in line


def test_the_text_changes_with_the_house_rules():
    standard = help_text(Rules.preset("standard"))
    black = help_text(Rules.preset("black company"))
    assert "Tonk out (spread or hit your last card, no discard): 2 stakes" in standard
    assert "Tonk out (spread or hit your last card, no discard): 1 stake from" in black
    assert "books cannot be hit" in black and "books cannot be hit" not in standard
    assert "a dealt count of 50, 49 or at most 15 wins 2 stakes" in black
    assert "a dealt count of 50 or 49 wins 2 stakes" in standard
    split = help_text(Rules.from_dict({"instant_high": "50_over_49", "tonk_out_pays": "second_spread"}))
    assert "50 wins 2 stakes from each other player; a dealt count of 49 wins 1 stake" in split
    assert "2 stakes when you laid two new spreads that turn, otherwise 1 stake" in split
    assert "Tonk on the deal" not in help_text(Rules.from_dict({"instant_high": "off"}))
    assert "Waiting rule" not in standard
    assert "in a run 7 is next to J" in help_text(Rules.preset("baton rouge"))
    assert "7 cards each" in help_text(Rules.preset("seattle")) and "5 cards each" in standard
    assert "bars your drop for your next 3 turns" in help_text(Rules.preset("waiting"))


@pytest.mark.parametrize("variant", ["standard", "five_to_low", "per_player", "double_to_all"])
def test_the_caught_example_is_settled_by_the_engine(variant):
    rules = Rules.from_dict({"caught_pays": variant})
    text = section(rules, "Dropping")
    found = re.search(r"you ([+-]?\d+), the 8 ([+-]?\d+), the other 10 ([+-]?\d+), the 20 ([+-]?\d+)", text)
    payments = [int(x) for x in found.groups()]
    assert payments == list(settle_drop(rules, 0, [10, 8, 10, 20], 3, 1).payments)
    assert sum(payments) == 0


def test_stock_out_push_ups_jokers_and_stake_are_said_when_they_apply():
    dead = help_text(Rules.from_dict({"stock_out": "dead_hand"}))
    assert "the hand is dead: nobody pays" in dead
    assert "lowest count wins 1 stake from each player (a tie for lowest: nobody pays)" in help_text(Rules())
    pushups = help_text(Rules.preset("push-ups"))
    assert "push-ups (low is good)" in pushups and "you 20, the 8 0, the other 10 10, the 20 20" in pushups
    assert "push-ups" not in help_text(Rules())
    jokers = help_text(Rules.from_dict({"jokers": 1, "upcard": False}), stake=5)
    assert "with 1 joker " in jokers and "jokers 0" in jokers and "first player draws" in jokers
    assert "A stake is 5 points at this table." in jokers


def test_markdown_for_discord_plain_for_a_terminal_and_short_enough():
    for preset in ("standard", "black company", "washington", "push-ups"):
        text = help_text(Rules.preset(preset), stake=25)
        assert "**Goal**" in text and len(text) < 2000  # one Discord message
        assert all(len(body) <= 1024 for _, body in help_sections(Rules.preset(preset)))  # embed fields
    plain = help_text(Rules(), markdown=False)
    assert "**" not in plain and "Goal:" in plain


def test_first_hand_hint_is_one_line_and_names_the_cost_of_being_caught():
    hint = first_hand_hint(Rules())
    assert "\n" not in hint and len(hint) < 250
    assert "you pay 2 stakes or more" in hint
    assert "you pay 6 stakes or more" in first_hand_hint(Rules.preset("washington"))


def test_the_house_rules_list_says_1_turn_and_1_joker():
    lines = "\n".join(describe(Rules.from_dict({"preset": "waiting", "spread_wait": 1, "jokers": 1})))
    assert "with 1 joker worth 0" in lines and "bars your drop for 1 turn;" in lines
    assert "bars it for 1 turn." in lines and "turn(s)" not in lines and "joker(s)" not in lines
    lines = "\n".join(describe(Rules.from_dict({"preset": "waiting", "jokers": 2})))
    assert "with 2 jokers worth 0" in lines and "bars your drop for 3 turns;" in lines
