"""House rules as the players see them: the host's lobby menus, /tonk rules in plain words, the
Slap! button, and a private hand whose menus offer exactly the seat's legal plays."""

import re
from dataclasses import replace

import pytest

from bot.service import parse_action
from bot.table import Scoring, Table
from cogs import render
from cogs.components import Verb
from engine import CLAIM, DRAW, PRESET_NAMES, Discard, Hit, Rules, Spread
from engine.actions import Swap
from engine.help import OPTIONS, option_value, plain_refusal
from engine_helpers import C, cards, deal, rules_of
from test_table_house import ALICE, BOB, CAROL, at_table, slap_window

KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")


def items(message):
    """(custom_id, the Button or Select) of each component, checked against Discord's limits."""
    out = []
    view = message["view"]
    for dynamic in view.children if view is not None else ():
        item = dynamic.item
        assert len(item.custom_id) <= 100
        options = getattr(item, "options", None)
        if options is not None:
            values = [o.value for o in options]
            assert 1 <= len(options) <= 25 and len(set(values)) == len(values)
            assert all(len(o.value) <= 100 and len(o.label) <= 100 for o in options)
        out.append((item.custom_id, item))
    ids = [i for i, _ in out]
    assert len(set(ids)) == len(ids) and len(ids) <= 25
    return out


def menu_of(message, verb: Verb):
    return next((item for cid, item in items(message) if f":{verb}-menu" in cid), None)


def labels(message) -> list[str]:
    return [getattr(item, "label", None) for _, item in items(message)]


def hand(table: Table, seat: int, **kw):
    return render.hand_message(table.seat_view(seat), table_id=table.id, hand_number=table.hand_number,
                               moves=table.moves, **kw)


def offered(message, verb: Verb) -> list:
    """The plays a menu offers, parsed back as the service parses a click."""
    select = menu_of(message, verb)
    return [parse_action(str(verb), o.value) for o in select.options] if select is not None else []


# ---------------------------------------------------------------------------- the private hand

def wild_table():
    rules = Rules.preset("chicago")
    game = deal(["5s 6s X1 Kd Qh", "9c 9d 8h 10h Qc", "Ac Kc 5d 6d Jh"], stock="3c", rules=rules,
                names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    table, _ = table.act(ALICE, DRAW)
    return table


def test_wild_spreads_are_offered_naming_what_the_wild_card_stands_for():
    table = wild_table()
    message = hand(table, 0)
    spreads = offered(message, Verb.SPREAD)
    legal = [a for a in table.game.legal_actions(0) if isinstance(a, Spread)]
    assert spreads == legal and all(a.wilds for a in spreads)
    assert [o.label for o in menu_of(message, Verb.SPREAD).options] == ["5♠ 6♠ Joker 1 as 4♠", "5♠ 6♠ Joker 1 as 7♠"]
    # played: the table shows the card the joker stands for, and a hit with the other wild names its card
    table, _ = table.act(ALICE, spreads[1])
    assert "Joker 1 as 7♠" in str(render.table_message(table.public())["embed"].to_dict())
    assert offered(hand(table, 0), Verb.HIT) == []  # no card of alice's fits 5-6-7 now


def test_wild_hits_and_swaps_are_offered():
    rules = rules_of("deuces wild")
    game = deal(["5s 6s X1 Kd Qh", "7s 2c 8h 10h Qc", "Ac Kc 5d 6d Jh"], stock="3c 4c", rules=rules,
                names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    for action in (DRAW, Spread(cards("5s 6s X1"), ((C("X1"), C("7s")),)), Discard(C("Kd"))):
        table, _ = table.act(ALICE, action)
    table, _ = table.act(BOB, DRAW)
    message = hand(table, 1)
    hits = offered(message, Verb.HIT)
    legal = table.game.legal_actions(1)
    assert set(hits) == {a for a in legal if isinstance(a, Hit)}
    assert Hit(C("2c"), 0, C("4s")) in hits and Hit(C("2c"), 0, C("8s")) in hits
    hit_labels = [o.label for o in menu_of(message, Verb.HIT).options]
    assert "2♣ as 4♠ on spread 1 (alice)" in hit_labels
    assert offered(message, Verb.SWAP) == [Swap(C("7s"), 0)]
    table, _ = table.act(BOB, Swap(C("7s"), 0))
    assert C("X1") in table.game.hands[1]
    assert "bob swapped 7♠ for Joker 1 on spread 1" in str(render.table_message(table.public())["embed"].to_dict())


def test_more_plays_than_a_menu_holds_become_two_steps():
    rules = rules_of("deuces wild", hand_size=7)
    game = deal(["5s 6s 8h 9h X1 2c 2d", "Ac Kc 5d 6d Jh Qc 3h", "Ad Kd 4c 7d Jd Qd 3d"], stock="Kh", rules=rules,
                names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    table, _ = table.act(ALICE, DRAW)
    legal = {a for a in table.game.legal_actions(0) if isinstance(a, Spread)}
    assert len(legal) > 25
    first = hand(table, 0)
    assert menu_of(first, Verb.SPREAD) is None
    groups = menu_of(first, Verb.FOCUS)
    seen = set()
    for option in groups.options:
        assert option.value.startswith("spread:")
        second = hand(table, 0, focus=option.value)
        plays = offered(second, Verb.SPREAD)
        assert plays and set(plays) <= legal
        natural = {tuple(c for c in a.cards if c not in a.named) for a in plays}
        assert len(natural) == 1  # the group's natural cards, with each choice of wild cards
        seen |= set(plays)
    assert seen == legal
    assert menu_of(hand(table, 0, focus="spread:nonsense"), Verb.FOCUS) is not None  # a stale pick: step one again


def test_a_claim_in_turn_is_a_button_and_the_slappers_discard_is_all_they_may_do():
    rules = Rules.preset("chicago")  # 49 is claimed at the start of the first turn
    game = deal(["9s 10s Qs Kd Qh", "9c 9d 8h 10h 3c", "Ac Kc 5d 6d Jh"], stock="4c", rules=rules,
                names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    assert CLAIM in table.game.legal_actions(0)
    message = hand(table, 0)
    assert "Claim instant hand" in labels(message) and "instant hand" in str(message["embed"].to_dict())
    assert "Claim instant hand" not in labels(hand(table, 1))
    table, _ = table.act(ALICE, CLAIM)
    assert table.game.over and table.game.outcome.winners == (0,)
    shown = render.table_message(table.public())["embed"]
    assert "Instant hand claimed" in shown.title and "alice claimed an instant hand" in shown.description

    table = slap_window()
    table, _ = table.slap(CAROL, table.slap_window)
    message = hand(table, 2)
    assert "You slapped" in str(message["embed"].to_dict())
    assert set(offered(message, Verb.DISCARD)) == {Discard(c) for c in table.game.hands[2]}
    assert menu_of(message, Verb.SPREAD) is None and "Draw" not in labels(message)
    assert "carol" in str(hand(table, 1)["embed"].to_dict())  # bob waits for carol


def test_a_drop_after_drawing_is_offered_where_the_house_allows_it():
    for drop_when, shown in (("any_time", True), ("start_of_turn", False)):
        rules = rules_of(drop_when=drop_when)
        game = deal(["5s 6s 9d Kd Qh", "9c 9h 8h 10h Qc", "Ac Kc 5d 6d Jh"], stock="3c", names=["alice", "bob", "carol"],
                    rules=rules)
        table, _ = at_table(game, rules).act(ALICE, DRAW)
        assert any(str(label).startswith("Drop") for label in labels(hand(table, 0))) is shown


# ---------------------------------------------------------------------------- the table message

def test_the_table_shows_slap_while_a_window_is_open_and_only_then():
    table = slap_window()
    message = render.table_message(table.public())
    slap = [(cid, item) for cid, item in items(message) if item.label == "Slap!"]
    assert [cid for cid, _ in slap] == [f"tonk:{table.id}:slap:{table.slap_window}"]
    assert "9♠ fits a spread" in message["embed"].description
    table, _ = table.slap(BOB, table.slap_window)
    message = render.table_message(table.public())
    assert "Slap!" not in labels(message)
    assert "👋 bob slapped 9♠ onto spread 1" in str(message["embed"].to_dict())
    assert "**bob** to play: slapped, and discards one card" in message["embed"].description


# ---------------------------------------------------------------------------- the lobby and /tonk rules

def lobby_table(rules: Rules) -> Table:
    return Table.open(guild_id=1, channel_id=2, host_id=ALICE, host_name="alice", rules=rules, stake=1,
                      scoring=Scoring.STAKES)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_lobby_offers_every_preset_and_option_in_words(preset):
    rules = Rules.preset(preset)
    message = render.lobby_message(lobby_table(rules).public())
    presets = menu_of(message, Verb.PRESET)
    assert [o.value for o in presets.options] == list(PRESET_NAMES)
    marked = [o.value for o in presets.options if o.default]
    assert len(marked) == 1 and Rules.preset(marked[0]) == rules  # (seattle and scarne are the same rules)
    rule_menus = [item for cid, item in items(message) if ":rule-menu" in cid]
    keys = [o.value for m in rule_menus for o in m.options]
    assert sorted(keys) == sorted(OPTIONS)
    words = [o.label for m in rule_menus for o in m.options] + [o.description for m in rule_menus for o in m.options]
    assert not any(KEY.search(w) for w in words), words
    text = str(message["embed"].to_dict())
    assert not KEY.search(text.replace("table_", ""))
    for key in OPTIONS:
        choice = render.rule_choice_message(1, key, rules)
        select = menu_of(choice, Verb.SET)
        assert [o.label for o in select.options if o.default] != []  # the value in force is marked
        for option in select.options:
            assert not KEY.search(option.label) and not KEY.search(choice["content"])
            option_value(*option.value.split("=", 1))  # every value is one the option has


NEEDS = {"catchers_stakes": {"caught_pays": "catchers_only"}, "instant_tie": {"instant_conflict": "best"},
         "wild_swap": {"wild_cards": "deuces_and_jokers"}, "wild_cards": {"jokers": 1}}


def test_rules_explains_every_option_value_in_plain_words():
    """/tonk rules (Rules.describe): every value of every option changes what it says, and it
    never shows an option key."""
    for key, (title, choices) in OPTIONS.items():
        base = rules_of(**NEEDS.get(key, {}))
        said = {}
        for code, words, value in choices:
            try:
                rules = replace(base, **{key: value})
            except Exception as exc:  # a combination the engine refuses needs another option first
                assert not KEY.search(plain_refusal(str(exc))), exc
                continue
            lines = "\n".join(rules.describe())
            assert not KEY.search(lines), (key, lines)
            said[code] = lines
        assert len(set(said.values())) == len(said), (key, said)  # each value reads differently


def test_new_offers_every_preset_and_help_follows_the_house_rules():
    from cogs.tonk import PRESET_CHOICES
    from engine.help import help_sections

    new = {"rushville", "chicago", "deuces wild", "newark", "washington dc", "scarne", "vietnam", "slap",
           "high faces"}
    assert {c.value for c in PRESET_CHOICES} == set(PRESET_NAMES) and new <= set(PRESET_NAMES)
    assert len(PRESET_CHOICES) <= 25  # Discord's limit of choices
    high = dict(help_sections(Rules.preset("high faces")))
    assert "J 11, Q 12, K 13" in high["Goal"] and "J Q K 10" not in high["Goal"]
    assert "J 11, Q 12, K 13" in render.rules_embed(Rules.preset("high faces"), "t").footer.text
    chicago = dict(help_sections(Rules.preset("chicago")))
    assert "never spread" not in chicago["The deal"] and "Deuces and jokers are wild" in \
        chicago["House rules at this table"]
    assert "House rules at this table" not in dict(help_sections(Rules()))
    aces = dict(help_sections(rules_of(ace_in_runs="low_or_high")))
    assert "Q♣ K♣ A♣" in aces["Spreads and hits"]
