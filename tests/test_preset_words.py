"""Every preset's words against its options: what /tonk rules, the lobby and /tonk help say a
preset plays is what its options make the engine do (no line says one thing, another its opposite)."""

import re
from dataclasses import fields, replace
from types import SimpleNamespace

import pytest

from engine import Rules
from engine.help import help_sections as _help_sections
from i18n import ENGLISH
from engine.game import Game
from engine.rules import PRESETS

STANDARD = Rules()
OPTIONS = [f.name for f in fields(Rules) if f.init]
MULTIPLES = {"single": 1, "a single stake": 1, "double": 2, "four stakes": 4}



def help_sections(rules: Rules) -> list[tuple[str, str]]:
    """The sections as an English reader reads them (the engine returns `Text`s)."""
    return [(ENGLISH.render(h), ENGLISH.render(b)) for h, b in _help_sections(rules)]


def describe(rules: Rules) -> list[str]:
    return [ENGLISH.render(line) for line in rules.describe()]

def engine_pays(rules: Rules, kind: str, *, first: bool, spreads: int, hit: bool = False) -> int:
    """What the engine pays for seat 0 going out (`kind`) at a table of three, in stakes."""
    game = SimpleNamespace(rules=rules, own_turns=[1 if first else 3, 2, 2], turn=0, spreads_this_turn=spreads,
                           hit_any=[hit, False, False], num_players=3)
    return Game.going_out_multiple(game, 0, kind)  # type: ignore[arg-type]


def described_pays(lines: list[str], kind: str, *, first: bool, spreads: int, hit: bool = False) -> int:
    """What the description's lines say the same going out pays."""
    if hit and "Once you have hit a spread this hand, going out pays single." in lines:
        return 1
    if kind == "run_out":
        return 2 if "A run out (last card discarded) pays double." in lines else 1
    tonk = [line for line in lines if line.startswith("Tonk out")]
    assert len(tonk) == 1, tonk  # one line says what a tonk out pays
    line = tonk[0]
    if "on your first turn; later ones single" in line:
        pays = 2 if first else 1
    elif "only when made with a second new spread" in line:
        pays = 2 if spreads >= 2 else 1
    else:
        pays = MULTIPLES[re.search(r"pays (double|a single stake)", line).group(1)]
    if first and spreads >= 2 and "Going out on your first turn with two new spreads of your own pays four stakes." \
            in lines:
        pays = 4
    return pays


def help_tonk_out_pays(rules: Rules, *, first: bool, spreads: int) -> int:
    endings = dict(help_sections(rules))[next(h for h, _ in help_sections(rules) if h.startswith("How a hand ends"))]
    line = next(line for line in endings.splitlines() if line.startswith("Tonk out"))
    words = line.split(": ", 1)[1]
    if "on your first turn" in words:
        return int(re.search(r"(\d) stakes? on your first turn", words).group(1)) if first else \
            int(re.search(r"(\d) stakes? later", words).group(1))
    if "when you laid two new spreads" in words:
        return int(words.split()[0]) if spreads >= 2 else int(re.search(r"otherwise (\d)", words).group(1))
    return int(words.split()[0])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_presets_words_say_what_its_options_make_the_engine_pay(name):
    rules = PRESETS[name]
    lines = describe(rules)
    assert len(lines) == len(set(lines)), "a line said twice"
    for first in (True, False):
        for spreads in (1, 2):
            for hit in (False, True):
                for kind in ("tonk_out", "run_out"):
                    engine = engine_pays(rules, kind, first=first, spreads=spreads, hit=hit)
                    said = described_pays(lines, kind, first=first, spreads=spreads, hit=hit)
                    assert said == engine, (kind, first, spreads, hit)
            if not rules.hit_spoils_tonk_out and rules.first_turn_tonk_out != "quadruple_two_spreads":
                assert help_tonk_out_pays(rules, first=first, spreads=spreads) == \
                    engine_pays(rules, "tonk_out", first=first, spreads=spreads)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_option_a_preset_changes_is_in_its_words(name):
    rules = PRESETS[name]
    for option in OPTIONS:
        if getattr(rules, option) == getattr(STANDARD, option):
            continue
        back = {option: getattr(STANDARD, option)}
        if option == "wild_cards" and rules.wild_swap:
            back["wild_swap"] = False  # a swap needs wild cards
        assert describe(replace(rules, **back)) != describe(rules), f"{option} is not described"


def test_chicagos_first_turn_tonk_out_is_said_once_and_right():
    lines = describe(PRESETS["chicago"])
    assert "Tonk out (no cards left, no discard) pays double on your first turn; later ones single." in lines
    assert not any("Tonk out" in line and line.endswith("pays double.") for line in lines)
