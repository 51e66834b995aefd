"""The model says what happened as values: every refusal the engine and the bot raise, the help,
the rules and the terminal's words are message ids with parameters (engine.text), and only an
edge (a cog, the terminal) puts them into a language."""

from __future__ import annotations

import ast
import re
import io
from pathlib import Path

import pytest

import i18n
from engine import PRESET_NAMES, Rules
from engine.help import first_hand_hint, help_sections, help_text
from engine.players.terminal import TerminalGame, terminal_lang
from engine.text import Text, tn

ROOT = Path(__file__).resolve().parent.parent
REFUSALS = {"UserError", "StaleView", "TonkError", "RulesError", "RecordError", "IllegalAction", "NotYourTurn",
            "ReviewError"}
MARKERS = {"t", "tn", "tc", "tnc", "as_text", "lines"}


def built_text(node: ast.expr) -> bool:
    """A sentence built in code: a string, an f-string, or a concatenation or format of one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.JoinedStr, ast.BinOp)):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join")


def test_no_refusal_under_engine_or_bot_is_raised_with_a_sentence_built_in_code():
    found = []
    for folder in ("engine", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in REFUSALS and built_text(node.args[0]):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, "raise these with t(...) and named parameters: " + ", ".join(found)


def test_the_checker_finds_a_sentence_built_in_code():
    for source in ('UserError(f"No table {n}.")', 'RulesError("No.")', 'IllegalAction("a" + b)',
                   'UserError("{} cards".format(n))'):
        assert built_text(ast.parse(source, mode="eval").body.args[0]), source
    for source in ('UserError(t("No table {n}.", n=n))', "RulesError(exc.text)"):
        assert not built_text(ast.parse(source, mode="eval").body.args[0]), source


def texts(value) -> list:
    """Every leaf a help or rules function returned (sections are pairs)."""
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in texts(item)]
    return [value]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_help_and_rules_return_texts_never_strings(preset):
    rules = Rules.preset(preset)
    for made in (help_sections(rules, stake=5), [help_text(rules)], [first_hand_hint(rules)], rules.describe(),
                 [h.describe() for h in rules.instant_list]):
        assert all(isinstance(leaf, Text) for leaf in texts(made)), (preset, made)
    assert len(help_sections(rules)) >= 6 and rules.describe()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_word_of_the_help_and_the_rules_comes_from_the_catalogue(preset):
    """In the pseudo-language every catalogue message is wrapped in ⟦ ⟧ and its letters changed:
    a plain English word left over was built outside the catalogue."""
    pseudo = i18n.lang(i18n.PSEUDO)
    rules = Rules.preset(preset)
    shown = "\n".join([pseudo.render(help_text(rules, markdown=False))]
                      + [pseudo.render(line) for line in rules.describe()])
    bare = [word for word in _words(shown) if len(word) > 2]
    assert not bare, bare[:20]
    assert "⟦" in shown and shown.count("⟦") == shown.count("⟧")


def _words(shown: str) -> list[str]:
    """ASCII words outside the ⟦ ⟧ of translated messages (placeholders' values: numbers, names)."""
    out, depth, word = [], 0, ""
    for ch in shown + " ":
        if ch == "⟦":
            depth += 1
        elif ch == "⟧":
            depth -= 1
        if depth == 0 and ch.isascii() and ch.isalpha():
            word += ch
            continue
        if word:
            out.append(word)
        word = ""
    return [w for w in out if w not in PRESET_NAMES and w.lower() not in {n for p in PRESET_NAMES for n in p.split()}]


def test_the_help_in_german_writes_its_stake_as_a_german_number():
    de = i18n.lang("de")
    body = next(de.render(b) for h, b in help_sections(Rules(), stake=1500)
                if i18n.ENGLISH.render(h).startswith("How a hand ends"))
    assert "1.500" in body and "1,500" not in body  # German groups thousands with a dot


def test_the_terminal_speaks_tonk_lang_else_lang():
    assert terminal_lang({"TONK_LANG": "pt-BR", "LANG": "de_DE.UTF-8"}).number(1.5) == "1,5"
    assert terminal_lang({"TONK_LANG": "pt-BR", "LANG": "de_DE.UTF-8"}).locale == "pt-BR"
    german = terminal_lang({"LANG": "de_DE.UTF-8"})
    assert german.catalogue.code == "de" and german.number(1.5) == "1,5"
    for english in ({"LANG": "C.UTF-8"}, {"LANG": "POSIX"}, {}, {"TONK_LANG": "", "LANG": "en_US.UTF-8"}):
        assert terminal_lang(english).number(1.5) == "1.5", english


def test_the_terminal_game_says_its_help_and_prompts_in_the_language_of_tonk_lang(monkeypatch):
    monkeypatch.setenv("TONK_LANG", i18n.PSEUDO)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    out = io.StringIO()
    game = TerminalGame(Rules(), ["you", "easy"], seed=3, hands=1, stdin=io.StringIO("help\nq\n"), stdout=out)
    game.run()
    pseudo = i18n.lang(i18n.PSEUDO)
    shown = out.getvalue()
    assert pseudo.render(help_text(Rules(), markdown=False)) in shown
    assert i18n.pseudo_string("Your choices:") in shown and "Your choices:" not in shown
    assert i18n.pseudo_string("You leave the table.") in shown
    assert "Goal" not in shown and i18n.pseudo_string("Goal") in shown


def test_the_terminal_game_in_english_by_default(monkeypatch):
    monkeypatch.delenv("TONK_LANG", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    out = io.StringIO()
    TerminalGame(Rules(), ["you", "easy"], seed=3, hands=1, stdin=io.StringIO("help\nq\n"), stdout=out).run()
    assert "Your choices:" in out.getvalue() and "Goal:" in out.getvalue()


def _plural_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tn", "tnc"):
            words = node.args[:2] if node.func.id == "tn" else node.args[:3]
            yield node, all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in words)


def test_every_plural_message_names_both_forms_as_written_words():
    """`pybabel extract` takes a plural entry only from string literals: `tn("{n} joker", said(...), n)`
    left the catalogue a singular entry, and no language could say "3 jokers" its own way."""
    found = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for folder in ("engine", "bot", "cogs") for path in (ROOT / folder).rglob("*.py")
             for node, literal in _plural_calls(ast.parse(path.read_text())) if not literal]
    assert not found, "write both forms as strings: " + ", ".join(found)
    bad = ast.parse('tn("{n} joker", said(t("{n} jokers")), n)')
    assert [literal for _, literal in _plural_calls(bad)] == [False]


def test_the_house_options_count_in_polish_plural_forms():
    from engine.help import OPTION_GROUPS

    pl = i18n.lang("pl")
    options = {key: dict((value, label) for value, label, _ in choices)
               for _, group in OPTION_GROUPS for key, _, choices in group}
    assert pl.render(options["jokers"]["2"].text) == "2 jokery"
    assert pl.render(options["jokers"]["4"].text) != pl.render(tn("{n} joker", "{n} jokers", 5))
    assert pl.render(options["hand_size"]["5"].text) == "5 kart"


def test_a_refused_spread_names_the_ace_rule_in_the_readers_language():
    from engine_helpers import C, cards, deal, rules_of

    from engine import DRAW, IllegalAction, Spread

    pseudo = i18n.lang(i18n.PSEUDO)
    for rules in (rules_of(jokers=2, wild_cards="jokers"),
                  rules_of(jokers=2, wild_cards="jokers", ace_in_runs="low_or_high")):
        game = deal(["5s X1 7s Kd 9c", "2c 3d 4h 6h 7h"], stock="8c", rules=rules)
        game.apply(0, DRAW)
        spread = Spread(cards("5s X1 7s"), ((C("X1"), C("8s")),))
        with pytest.raises(IllegalAction) as refused:
            game.apply(0, spread)
        shown = pseudo.render(refused.value.text)
        assert "⟦" in shown and not re.findall(r"[A-Za-z]{2,}", shown), shown  # no English words inside it


def test_a_rules_label_is_said_in_the_readers_language_but_the_preset_keeps_its_name():
    """The footer's `standard + 7 cards, 2 jokers, …` is the catalogue's words; only the preset's
    name, which a host types in `/tonk new preset:`, stays as it is."""
    from dataclasses import replace as changed

    from engine.help import rules_label

    crowded = changed(Rules(), hand_size=7, deck=40, upcard=False, hit_books=False, stock_out="dead_hand",
                      slap="first_to_slap", face_values="ranked", jokers=2, caught_pays="double_to_all",
                      spread_wait=2, wild_cards="deuces_and_jokers")
    pseudo = i18n.lang(i18n.PSEUDO)
    for label in (rules_label(crowded, limit=10_000), rules_label(crowded, limit=10), rules_label(crowded, with_scoring=True)):
        shown, preset = pseudo.render(label), crowded.closest_preset()
        assert label.startswith(preset + " + ") and preset in shown
        assert not re.findall(r"[A-Za-z]{2,}", shown.replace(preset, "", 1)), shown
