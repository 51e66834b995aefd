"""House rules as the players see them: the host's lobby menus, /tonk rules in plain words, the
Slap! button, and a private hand whose menus offer exactly the seat's legal plays."""

import re
from dataclasses import fields, replace

import pytest

from bot.commands import play_from
from bot.table import Scoring, Table
from cogs import render
from cogs.components import Verb
from engine import CLAIM, DRAW, PRESET_NAMES, Discard, Hit, Rules, Spread
from engine.actions import Swap
from bot.errors import UserError
from engine import RulesError
from i18n import ENGLISH
from engine.help import NOT_PLAYED, OPTIONS, changed_rules, option_value, option_words, plain_refusal
from engine.rules import (ACE_IN_RUNS, CAUGHT_PAYS, DROP_WHEN, FACE_VALUES, FIRST_TURN_TONK_OUT, INSTANT_CONFLICT,
                          INSTANT_HIGH, INSTANT_KINDS, INSTANT_TIE, MUST_SPREAD, RUN_OUT_PAYS, SCORING, SLAP,
                          STOCK_OUT, TONK_OUT_PAYS, WILD_CARDS)
from engine_helpers import C, cards, deal, rules_of
from test_table_house import ALICE, BOB, CAROL, at_table, slap_window

KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")


def items(message):
    """(custom_id, the Button or Select) of each component, checked against Discord's limits."""
    out = []
    view = message["view"]
    for item in view.children if view is not None else ():
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
    return [play_from(str(verb), o.value) for o in select.options] if select is not None else []


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
    assert [o.label for o in menu_of(message, Verb.SPREAD).options] == ["joker 1 as 4 of spades, 5, 6 of spades", "5, 6 of spades, joker 1 as 7 of spades"]
    # played: the table shows the card the joker stands for, and a hit with the other wild names its card
    table, _ = table.act(ALICE, spreads[1])
    assert "5, 6 of spades, joker 1 as 7 of spades" in str(render.table_message(table.public())["embed"].to_dict())
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
    assert "2 of clubs as 4 of spades on spread 1 (alice)" in hit_labels
    assert offered(message, Verb.SWAP) == [Swap(C("7s"), 0)]
    table, _ = table.act(BOB, Swap(C("7s"), 0))
    assert C("X1") in table.game.hands[1]
    assert "bob swapped 7 of spades for joker 1 on spread 1" in str(render.table_message(table.public())["embed"].to_dict())


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
    slap = [(cid, item) for cid, item in items(message) if getattr(item, "label", None) == "Slap!"]
    assert [cid for cid, _ in slap] == [f"tonk:{table.id}:slap:{table.slap_window}"]
    assert "The 9 of spades fits a spread" in message["embed"].description
    table, _ = table.slap(BOB, table.slap_window)
    message = render.table_message(table.public())
    assert "Slap!" not in labels(message)
    assert "👋 bob slapped 9 of spades onto spread 1" in str(message["embed"].to_dict())
    assert "**bob** to play: slapped, and discards one card" in message["embed"].description


# ---------------------------------------------------------------------------- the lobby and /tonk rules

def lobby_table(rules: Rules) -> Table:
    return Table.open(guild_id=1, channel_id=2, host_id=ALICE, host_name="alice", rules=rules, stake=1,
                      scoring=Scoring(rules.scoring))


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
        selects = [item for cid, item in items(choice) if ":set-menu" in cid]
        marked = [o.label for select in selects for o in select.options if o.default]
        # the value in force is marked (section 7's high and low counts are not, when the table
        # sets its instant hands one by one: the content says so)
        assert marked != [] or "instant hands one by one" in choice["content"], key
        for option in (o for select in selects for o in select.options):
            assert not KEY.search(option.label) and not KEY.search(choice["content"])
            option_value(*option.value.split("=", 1))  # every value is one the option has


NEEDS = {"catchers_stakes": {"caught_pays": "catchers_only"}, "instant_tie": {"instant_conflict": "best"},
         "wild_swap": {"wild_cards": "deuces_and_jokers"}, "wild_cards": {"jokers": 1},
         "spread_wait": {"waiting": True}, "hit_wait": {"waiting": True}, "hit_wait_cap": {"waiting": True},
         "instant_low_triple": {"instant_low": 9}}


def test_rules_explains_every_option_value_in_plain_words():
    """/tonk rules (Rules.describe): every value of every option changes what it says, and it
    never shows an option key."""
    for key, (title, choices) in OPTIONS.items():
        base = rules_of(**NEEDS.get(key, {}))
        said = {}
        for code, words, value in choices:
            try:
                rules = changed_rules(base, key, code)
            except Exception as exc:  # a combination the engine refuses needs another option first
                assert not KEY.search(plain_refusal(str(exc))), exc
                continue
            lines = "\n".join(map(ENGLISH.render, rules.describe()))
            assert not KEY.search(lines), (key, lines)
            said[rules] = lines  # (two picks may make the same rules: a low hand's count, or pays and when)
        assert len(said) > 1 and len(set(said.values())) == len(said), (key, said)  # each reads differently


RULE_KEYS = (  # /work/shared/RULE_KEYS.md: section 7's keys, then sections 9 to 11's
    "hand_size", "upcard", "waiting", "spread_wait", "hit_wait", "hit_books", "tonk_out_pays", "instant_high",
    "instant_low", "instant_conflict", "caught_pays", "stock_out", "jokers", "deck", "scoring",
    "instant_hands", "instant_tie", "face_values", "ace_in_runs", "wild_cards", "wild_swap", "must_spread",
    "hits_per_turn", "hit_ends_turn", "take_must_be_used", "hit_bars_going_out", "hit_spoils_tonk_out",
    "double_double", "boobed", "first_turn_tonk_out", "run_out_pays", "catchers_stakes", "drop_when", "slap",
)
DOMAINS = {"hand_size": set(range(3, 13)), "spread_wait": set(range(10)), "hit_wait": set(range(10)),
           "instant_low": {0, *range(9, 16)}, "jokers": set(range(5)), "deck": {52, 40},
           "tonk_out_pays": set(TONK_OUT_PAYS), "instant_high": set(INSTANT_HIGH),
           "instant_conflict": set(INSTANT_CONFLICT) - {"best"}, "caught_pays": set(CAUGHT_PAYS),
           "stock_out": set(STOCK_OUT), "scoring": set(SCORING), "instant_tie": set(INSTANT_TIE),
           "face_values": set(FACE_VALUES), "ace_in_runs": set(ACE_IN_RUNS), "wild_cards": set(WILD_CARDS),
           "must_spread": set(MUST_SPREAD), "first_turn_tonk_out": set(FIRST_TURN_TONK_OUT),
           "run_out_pays": set(RUN_OUT_PAYS), "drop_when": set(DROP_WHEN), "slap": set(SLAP),
           "hits_per_turn": {0, 1}, "catchers_stakes": {2, 4}}
"""Every value the engine allows, for the options that are not true/false (`best` is `low_beats_high`)."""


def host_picks(table: Table):
    """Every (the rules after it) a host can pick through the lobby's components: a house-rule
    menu's option, then a value from the menu(s) it opens. Refused picks are left out."""
    for cid, rule_menu in items(render.lobby_message(table.public())):
        if ":rule-menu" not in cid:
            continue
        for option in rule_menu.options:
            choice = render.rule_choice_message(table.id, option.value, render.shown_rules(table))
            for cid2, select in items(choice):
                assert ":set-menu" in cid2
                for value in select.options:
                    key, _, code = value.value.partition("=")
                    try:
                        rules = changed_rules(render.shown_rules(table), key, code)
                        after, _ = table.set_rules(ALICE, rules, Scoring(rules.scoring))
                    except (RulesError, UserError):
                        continue
                    yield key, after


def test_the_host_reaches_every_option_key_through_the_lobby():
    """Each option key a table uses (RULE_KEYS.md's, and any new field of Rules) can be set by the
    host through the lobby's menus, to every value the engine allows it; a new key without a menu
    fails here."""
    keys = [f.name for f in fields(Rules) if f.init]
    assert set(RULE_KEYS) <= set(keys)
    for key in keys:
        start = lobby_table(rules_of(**NEEDS.get(key, {})))
        before = getattr(start.rules, key)
        reached = {repr(getattr(after.rules, key)) for _, after in host_picks(start)}
        assert len(reached - {repr(before)}) >= 1, f"no lobby pick changes {key}"
        if key in DOMAINS:
            assert {repr(v) for v in DOMAINS[key]} <= reached | {repr(before)}, key
        elif key != "instant_hands":
            assert reached == {"True", "False"}, key
    # every instant hand, on the deal or claimed in turn, paying 1 to 4, and a low one with each count
    table = lobby_table(Rules())
    made = {h for _, after in host_picks(table) for h in after.rules.instant_hands or ()}
    for kind in INSTANT_KINDS:
        for when in ("deal", "turn"):
            assert {p for p in (1, 2, 3, 4) if any(h.hand == kind and h.when == when and h.pays == p
                                                     for h in made)} == {1, 2, 3, 4}, (kind, when)
    low = lobby_table(rules_of(instant_hands=[{"hand": "low", "max": 13, "pays": 2}]))
    assert {h.max for _, after in host_picks(low) for h in after.rules.instant_hands if h.hand == "low"} == \
        set(range(9, 16))


def test_an_instant_hand_set_one_by_one_keeps_the_others():
    """Chicago claims 49 in turn; the host makes it pay double on the deal and adds all faces:
    50 and the low count stay, and the high count's option then changes only 50 and 49."""
    chicago = Rules.preset("chicago")
    rules = changed_rules(chicago, "instant_hands:49", "2:deal")
    rules = changed_rules(rules, "instant_hands:all_faces", "3:turn")
    assert [h.to_dict() for h in rules.instant_hands] == [
        {"hand": "50", "pays": 2, "when": "deal"}, {"hand": "low", "pays": 2, "when": "deal", "max": 13},
        {"hand": "49", "pays": 2, "when": "deal"}, {"hand": "all_faces", "pays": 3, "when": "turn"}]
    off = changed_rules(rules, "instant_high", "off")
    assert sorted(h.hand for h in off.instant_hands) == ["all_faces", "low"]
    assert option_words(off, "instant_hands:all_faces") == \
        "wins 3 stakes from each player when claimed at the start of your first turn"
    assert option_words(off, "instant_hands:50") == "not played"
    lower = changed_rules(off, "instant_hands:low", "max:10")
    assert [h.max for h in lower.instant_hands if h.hand == "low"] == [10]
    # a bad value is refused and names no key
    with pytest.raises(RulesError) as refused:
        changed_rules(off, "instant_hands:low", "max:30")
    assert not KEY.search(plain_refusal(str(refused.value)))


def test_rules_explains_what_is_not_played_here():
    """/tonk rules: what the table plays, then each house rule it leaves out, in words, no key."""
    standard = render.rules_embed(Rules(), "House rules: standard").to_dict()
    left_out = "\n".join(f["value"] for f in standard["fields"] if f["name"].startswith("Not played here"))
    for words in ("Wild cards", "Slapping", "claimed in turn", "Must spread", "Waiting", "Boobed",
                  "Double double", "ace high", "by rank", "low count on the deal"):
        assert words in left_out, words
    assert len(left_out.splitlines()) == len(NOT_PLAYED)
    chicago = render.rules_embed(Rules.preset("chicago"), "House rules: chicago").to_dict()
    played = chicago["description"]
    left_out = "\n".join(f["value"] for f in chicago["fields"] if f["name"].startswith("Not played here"))
    assert "Deuces and jokers are wild" in played and "claimed at the start of your first turn" in played
    assert "Wild cards" not in left_out and "claimed in turn" not in left_out and "Slapping" in left_out
    assert not KEY.search(str(standard)) and not KEY.search(str(chicago))


def test_new_offers_every_preset_and_help_follows_the_house_rules():
    from cogs.common import PRESET_CHOICES
    from engine.help import help_sections as sections_of

    new = {"rushville", "chicago", "deuces wild", "newark", "washington dc", "scarne", "vietnam", "slap",
           "high faces"}
    assert {c.value for c in PRESET_CHOICES} == set(PRESET_NAMES) and new <= set(PRESET_NAMES)
    assert len(PRESET_CHOICES) <= 25  # Discord's limit of choices


    def help_sections(rules: Rules) -> list[tuple[str, str]]:
        return [(ENGLISH.render(h), ENGLISH.render(b)) for h, b in sections_of(rules)]

    high = dict(help_sections(Rules.preset("high faces")))
    assert "J 11, Q 12, K 13" in high["Goal"] and "J Q K 10" not in high["Goal"]
    assert "J 11, Q 12, K 13" in render.rules_embed(Rules.preset("high faces"), "t").footer.text
    chicago = dict(help_sections(Rules.preset("chicago")))
    assert "never spread" not in chicago["The deal"] and "Deuces and jokers are wild" in \
        chicago["House rules at this table"]
    assert "House rules at this table" not in dict(help_sections(Rules()))
    aces = dict(help_sections(rules_of(ace_in_runs="low_or_high")))
    assert "ace, 2, 3 or queen, king, ace of clubs" in aces["Spreads and hits"]
