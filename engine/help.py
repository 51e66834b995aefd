"""Tonk taught in two minutes, for `/tonk help` and the terminal's `help`.

Pure text from a `Rules`: what each ending pays is worked out by the engine's own
settlement (`settle_drop`, `settle_instant`, `Rules.tonk_out_multiple`, ...) on small example
hands, so the help cannot disagree with what the table really pays.
"""

from __future__ import annotations

import re
from typing import Any
from dataclasses import replace
from functools import lru_cache

from .outcome import (
    DROP_WON_MULTIPLE,
    RUN_OUT_MULTIPLE,
    instant_winners,
    settle_drop,
    settle_instant,
    settle_stock_out,
)
from .rules import INSTANT_KINDS, InstantHand, Rules
from .text import N_, Said, Text, as_text, lines, said, t, tn

# The caught-drop example: you drop with 10 at a table of four; the others hold these.
CAUGHT_EXAMPLE = (10, 8, 10, 20)
PLAIN_COUNT = 30  # a dealt count no instant hand claims


def plural(n: int, word: str) -> str:
    """`1 card`, `2 cards`, `1 stake`, `0 stakes`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def points(n: int | float, *, sign: bool = False) -> str:
    """The one word for what a ledger holds, in stakes scoring: `1 point`, `-1 point`, `2 points`,
    `+1.5 points` (`sign`: `+` before a gain). Push-ups are `plural(n, "push-up")`."""
    n = round(n, 6)  # sums of shares carry float noise
    number = str(int(n)) if float(n).is_integer() else f"{n:.1f}"
    if sign and n > 0:
        number = "+" + number
    return f"{number} point" if abs(n) == 1 else f"{number} points"


def either(words: list[str]) -> str:
    """`50`, `50 or 49`, `50, 49 or at most 14`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def stakes(n: int) -> Text:
    return tn("{n} stake", "{n} stakes", n)


def _either(words: list) -> Text | int:
    """`50`, `50 or 49`, `50, 49 or at most 14` (at most three choices: a high, a low, a low hand)."""
    if len(words) == 1:
        return words[0]
    if len(words) == 2:
        return t("{a} or {b}", a=words[0], b=words[1])
    return t("{a}, {b} or {c}", a=words[0], b=words[1], c=words[2])


def instant_lines(rules: Rules) -> list[Text]:
    """What a tonk on the deal pays, one phrase per multiple, from `instant_winners`."""
    low, high = rules.instant_high_counts
    candidates: list[tuple[int, Any]] = [(high, high), (low, low)]
    if rules.instant_low:
        candidates.append((rules.instant_low, t("at most {count}", count=rules.instant_low)))
    by_multiple: dict[int, list] = {}
    for dealt, words in candidates:
        counts = [dealt, PLAIN_COUNT, PLAIN_COUNT]
        winners = instant_winners(rules, counts, 2)
        if winners and winners[0][0] == 0:
            by_multiple.setdefault(-settle_instant(winners, counts, 1).payments[1], []).append(words)
    return [t("a dealt count of {counts} wins {stakes} from each other player", counts=_either(words), stakes=stakes(m))
            for m, words in sorted(by_multiple.items(), reverse=True)]


def tonk_out_phrase(rules: Rules) -> Text:
    if rules.first_turn_tonk_out == "double_then_single":  # it replaces what a tonk out pays
        return t("{first} on your first turn, {later} later", first=stakes(2), later=stakes(1))
    one, two = rules.tonk_out_multiple(1), rules.tonk_out_multiple(2)
    if one == two:
        return stakes(one)
    return t("{two} when you laid two new spreads that turn, otherwise {one}", two=stakes(two), one=stakes(one))


def caught_example(rules: Rules) -> tuple[list[Text], list[Text]]:
    """The caught-drop example's payments and push-ups (lists: the language joins them), as
    settled by `settle_drop`."""
    counts = list(CAUGHT_EXAMPLE)
    outcome = settle_drop(rules, 0, counts, len(counts) - 1, 1)
    assert outcome.kind == "caught"
    who = [t("you"), t("the {count}", count=counts[1]), t("the other {count}", count=counts[2]),
           t("the {count}", count=counts[3])]
    pays = [t("{who} {amount}", who=w, amount=signed(p)) for w, p in zip(who, outcome.payments)]
    pushups = [t("{who} {amount}", who=w, amount=p) for w, p in zip(who, outcome.pushups)]
    return pays, pushups


def stock_out_phrase(rules: Rules) -> Text:
    if rules.stock_out == "dead_hand":
        return t("the hand is dead: nobody pays")
    win = settle_stock_out([5, 10, 12], 1)
    tie = settle_stock_out([5, 5, 12], 1)
    if tie.kind == "draw":
        text = t("the lowest count wins {stakes} from each player (a tie for lowest: nobody pays)",
                 stakes=stakes(-win.payments[1]))
    else:
        text = t("the lowest count wins {stakes} from each player", stakes=stakes(-win.payments[1]))
    if rules.stock_out == "reshuffle":
        text = t("the discard pile but its top card is shuffled into a new stock; "
                 "if there is nothing to shuffle, {then}", then=text)
    return text


def card_values(rules: Rules) -> Text:
    """What each card counts in a hand under these rules."""
    faces = t("J 11, Q 12, K 13") if rules.face_values == "ranked" else t("J Q K 10")
    if rules.jokers:
        return t("A is 1, 2 to 10 their number, {faces}, jokers 0", faces=faces)
    return t("A is 1, 2 to 10 their number, {faces}", faces=faces)


def _bullets(items: list) -> Text:
    """`• a` / `• b`, one a line."""
    return lines(*(lines("• ", item, sep="") for item in items))


def help_sections(rules: Rules, *, stake: int = 1, preset: str | None = None) -> list[tuple[Text, Text]]:
    """(heading, text) pairs: goal, deal, a turn, spreads and hits, dropping, endings; each a
    `Text` (a long text is several messages, one a sentence or paragraph: `engine.text.lines`).

    Each text is short enough for a Discord embed field (1024 characters) in English."""
    name = preset or rules.closest_preset()
    sections = [(
        t("Goal"),
        t("Get rid of your cards, or hold the lowest count when the hand ends. Your count is the sum "
          "of the cards in your hand: {values}. Cards you lay on the table no longer count.",
          values=card_values(rules)),
    )]
    deal = tn("{n} card each from a {deck}-card deck", "{n} cards each from a {deck}-card deck",
              rules.hand_size, deck=rules.deck)
    if rules.deck == 40:
        deal = t("{deal} (no 8s, 9s or 10s: in a run 7 is next to J)", deal=deal)
    if rules.jokers and rules.wild:
        deal = tn("{deal} with {n} joker (wild: see the house rules)",
                  "{deal} with {n} jokers (wild: see the house rules)", rules.jokers, deal=deal)
    elif rules.jokers:
        deal = tn("{deal} with {n} joker (jokers are never spread or hit)",
                  "{deal} with {n} jokers (jokers are never spread or hit)", rules.jokers, deal=deal)
    deal = t("{deal}; the next card is turned up to start the discard pile.", deal=deal) if rules.upcard else \
        t("{deal}; no card is turned up, so the first player draws from the stock.", deal=deal)
    instant = instant_lines(rules)
    if instant:
        deal = t("{deal} Tonk on the deal, before anyone plays: {instant}.", deal=deal,
                 instant=lines(*instant, sep="; "))
    sections.append((t("The deal"), deal))
    sections.append((t("A turn"), lines(
        t("1. Drop, or draw the top card of the stock, or take the top card of the discard pile."),
        t("2. Lay spreads and hits, as many as your cards allow (the house rules below say what you must or may "
          "not lay).") if rules.house else
        t("2. Lay spreads and hits, as many as your cards allow (nothing forces you)."),
        t("3. Discard one card: your turn ends and play passes to the left."),
    )))
    hits = t("any spread on the table, yours or anyone's") if rules.hit_books else \
        t("any run on the table, yours or anyone's (books cannot be hit at this table)")
    ace = t("the ace is low or high: ace, 2, 3 or queen, king, ace of clubs") if rules.ace_in_runs == "low_or_high" \
        else t("the ace is low only: ace, 2, 3 of clubs")
    sections.append((t("Spreads and hits"), lines(
        t("A spread is a book, 3 or 4 cards of one rank (three 7s), or a run, 3 or more cards in a row of one "
          "suit (4, 5, 6 of hearts; {ace}).", ace=ace),
        t("A hit adds one card from your hand to {hits}, so that it stays a spread.", hits=hits),
        sep=" ")))
    pays, pushups = caught_example(rules)
    drop = [t("Instead of drawing, you may drop: everyone shows their hand. If your count is strictly the "
              "lowest you win {stakes} from each player. If anyone has your count or less you are caught. "
              "Say you drop with {mine} and the others hold {others}: {pays}.",
              stakes=stakes(DROP_WON_MULTIPLE), mine=CAUGHT_EXAMPLE[0], others=_and(CAUGHT_EXAMPLE[1:]), pays=pays)]
    if rules.waiting:
        bars = []
        if rules.spread_wait:
            bars.append(tn("a new spread of yours bars your drop for your next {n} turn",
                           "a new spread of yours bars your drop for your next {n} turns", rules.spread_wait))
        if rules.hit_wait:
            bars.append(tn("each hit on your spreads bars it for {n} turn",
                           "each hit on your spreads bars it for {n} turns", rules.hit_wait))
        if bars:
            drop.append(t("Waiting rule: {bars}.", bars=lines(*bars, sep="; ")))
    sections.append((t("Dropping and being caught"), lines(*drop, sep=" ")))
    endings = [
        t("Tonk out (spread or hit your last card, no discard): {pays} from each player.", pays=tonk_out_phrase(rules)),
        t("Run out (discard your last card): {stakes} from each player.", stakes=stakes(RUN_OUT_MULTIPLE)),
        t("Drop: won {stakes} from each player; caught as above.", stakes=stakes(DROP_WON_MULTIPLE)),
        t("Empty stock (someone must draw and cannot): {what}.", what=stock_out_phrase(rules)),
    ]
    if rules.scoring == "pushups":
        endings.append(t(
            "Scoring is push-ups (low is good): the winner takes 0, each loser their count times the "
            "stakes the win pays; in the caught example: {pushups}.", pushups=pushups))
    endings.append(tn("A stake is {n} point at this table.", "A stake is {n} points at this table.", stake))
    sections.append((t("How a hand ends and what it pays ({preset})", preset=name), lines(*endings)))
    house = rules._describe_house()
    if house:
        sections.append((t("House rules at this table"), _bullets(house)))
    return sections


def _and(items) -> Text:
    """The caught example's other three counts: `8, 10 and 20`."""
    a, b, c = items
    return t("{a}, {b} and {c}", a=a, b=b, c=c)


def help_text(rules: Rules, *, stake: int = 1, preset: str | None = None, markdown: bool = True) -> Text:
    """The whole lesson as one `Text`: `**bold**` headings for Discord, or plain for a terminal."""
    parts = []
    for heading, body in help_sections(rules, stake=stake, preset=preset):
        title = lines("**", heading, "**", sep="") if markdown else t("{heading}:", heading=heading)
        parts.append(lines(title, body))
    return lines(*parts, sep="\n\n")


@lru_cache(maxsize=64)
def first_hand_hint(rules: Rules) -> Text:
    """One line for a player's first hand ever (shown at every render of that hand: worked out
    once per rules)."""
    cost = -settle_drop(rules, 0, [10, 8, 20], 2, 1).payments[0]  # caught by one player of three
    return t("First hand? Draw (or take the discard), lay 3 of a kind or 3 in a row of one suit, then "
             "discard your highest card. Drop only with a very low count: if anyone has yours or less, "
             "you pay {stakes} or more.", stakes=stakes(cost))


# ---------------------------------------------------------------------------- options, for a host

def _on_off(on: str, off: str) -> tuple:
    return (("true", on, True), ("false", off, False))


INSTANT_TITLES = {
    "50": said(t("Instant hand: a count of 50")), "49": said(t("Instant hand: a count of 49")),
    "47": said(t("Instant hand: a count of 47")), "41": said(t("Instant hand: a count of 41")),
    "low": said(t("Instant hand: a low count")), "all_faces": said(t("Instant hand: all face cards")),
    "all_tens_and_faces": said(t("Instant hand: all tens and face cards")),
}
"""Each instant hand of RULE_KEYS.md's `instant_hands`, set one by one (`instant_hands:KIND`)."""
assert tuple(INSTANT_TITLES) == INSTANT_KINDS
LOW_MAX = range(9, 16)


def _instant_words(pays: int, when: str) -> str:
    if when == "deal":
        return said(tn("wins {n} stake from each player on the deal", "wins {n} stakes from each player on the deal",
                       pays))
    return said(tn("wins {n} stake from each player when claimed at the start of your first turn",
                   "wins {n} stakes from each player when claimed at the start of your first turn", pays))


def _instant_choices(kind: str) -> tuple:
    """Off, or what the hand pays and when (and for a low hand, its highest count: `max:N`)."""
    paid = tuple((f"{pays}:{when}", _instant_words(pays, when), (pays, when))
                 for when in ("deal", "turn") for pays in (1, 2, 3, 4))
    most = tuple((f"max:{n}", said(t("a count of {n} or less", n=n)), ("max", n)) for n in LOW_MAX) if kind == "low" else ()
    return (("off", said(t("not played")), None),) + paid + most


OPTION_GROUPS: tuple[tuple[str, tuple[tuple[str, str, tuple], ...]], ...] = (
    (said(t("The standard rules (RULES.md section 7)")), (
        ("hand_size", said(t("Cards dealt to each player")), tuple((str(n), said(tn("{n} card", "{n} cards", n)), n) for n in range(3, 13))),
        ("deck", said(t("Deck")), (("52", said(t("52 cards")), 52), ("40", said(t("40 cards (no 8s, 9s or 10s)")), 40))),
        ("jokers", said(t("Jokers in the deck")), tuple((str(n), said(tn("{n} joker", "{n} jokers", n)) if n else said(t("no jokers")), n)
                                               for n in range(5))),
        ("upcard", said(t("Upcard")), _on_off(said(t("an upcard starts the discard pile")), said(t("no upcard: the first player draws")))),
        ("waiting", said(t("Waiting")), _on_off(said(t("a new spread or a hit on it bars your drop for a while")),
                                       said(t("no waiting: drop at any turn")))),
        ("spread_wait", said(t("Waiting after a new spread")), tuple((str(n), said(tn("{n} turn", "{n} turns", n)), n) for n in range(10))),
        ("hit_wait", said(t("Waiting after a hit on your spreads")), tuple((str(n), said(tn("{n} turn", "{n} turns", n)), n) for n in range(10))),
        ("hit_wait_cap", said(t("Waiting from hits")), _on_off(said(t("at most one turn a round, however many hits")),
                                                       said(t("each hit adds its turns")))),
        ("hit_books", said(t("Hits on books")), _on_off(said(t("books and runs may be hit")), said(t("runs only")))),
        ("tonk_out_pays", said(t("What a tonk out pays")), (("double", said(t("double")), "double"),
                                                   ("second_spread", said(t("double only with a second new spread")),
                                                    "second_spread"),
                                                   ("single", said(t("single")), "single"))),
        ("instant_high", said(t("A high count on the deal")), (("49_50", said(t("49 or 50 wins double")), "49_50"),
                                                      ("50_over_49", said(t("50 double, 49 single")), "50_over_49"),
                                                      ("off", said(t("no instant win for a high count")), "off"))),
        ("instant_low", said(t("A low count on the deal")), (("0", said(t("no instant win for a low count")), 0),)
         + tuple((str(n), said(t("{n} or less wins double", n=n)), n) for n in range(9, 16))),
        ("instant_low_triple", said(t("A count of 9 or less on the deal")), _on_off(said(t("wins triple")), said(t("wins double")))),
        ("instant_conflict", said(t("Two instant winners on the deal")), (
            ("void", said(t("the hand is void")), "void"),
            ("low_beats_high", said(t("the best wins (low beats 50 beats 49)")), "low_beats_high"),
            ("high_beats_low", said(t("the best wins (50 beats 49 beats low)")), "high_beats_low"),
            ("first_from_left", said(t("the one nearest the dealer's left")), "first_from_left"),
            ("all_paid", said(t("each is paid by the others")), "all_paid"))),
        ("instant_tie", said(t("Equal best instant hands")), (("left", said(t("the one nearest the dealer's left wins")), "left"),
                                                    ("void", said(t("the hand is void")), "void"))),
        ("caught_pays", said(t("What a caught drop pays")), (
            ("standard", said(t("double to those at or under the count, single to the low player")), "standard"),
            ("low_collects", said(t("the low player collects double and single")), "low_collects"),
            ("dropper_pays_all", said(t("one stake per player, to the low player")), "dropper_pays_all"),
            ("equal_or_lower", said(t("single to each at or under the count")), "equal_or_lower"),
            ("double_to_all", said(t("double to every other player")), "double_to_all"),
            ("five_to_low", said(t("5 stakes to the low player")), "five_to_low"),
            ("per_player", said(t("2 stakes per player to each low player")), "per_player"),
            ("catchers_only", said(t("only those who caught the drop are paid")), "catchers_only"))),
        ("catchers_stakes", said(t("What each catcher gets (catchers only)")), (("2", said(t("2 stakes")), 2), ("4", said(t("4 stakes")), 4))),
        ("stock_out", said(t("An empty stock")), (("lowest_wins", said(t("the lowest count wins single")), "lowest_wins"),
                                          ("dead_hand", said(t("a dead hand: nobody pays")), "dead_hand"),
                                          ("reshuffle", said(t("the discard pile becomes a new stock")), "reshuffle"))),
        ("scoring", said(t("Scoring")), (("stakes", said(t("stakes (zero-sum points)")), "stakes"),
                                ("pushups", said(t("push-ups (low is good)")), "pushups"))),
    )),
    (said(t("House rules (RULES.md section 9)")), (
        ("face_values", said(t("Face cards count")), (("ten", said(t("10 each")), "ten"), ("ranked", said(t("J 11, Q 12, K 13")), "ranked"))),
        ("ace_in_runs", said(t("The ace in runs")), (("low", said(t("low only (A-2-3)")), "low"),
                                            ("low_or_high", said(t("low or high (A-2-3 or Q-K-A)")), "low_or_high"))),
        ("wild_cards", said(t("Wild cards")), (("none", said(t("none")), "none"), ("jokers", said(t("jokers")), "jokers"),
                                      ("deuces_and_jokers", said(t("deuces and jokers")), "deuces_and_jokers"))),
        ("wild_swap", said(t("Wild swap")), _on_off(said(t("swap a natural card for a wild card on the table")), said(t("no swapping")))),
        ("must_spread", said(t("Must spread")), (("off", said(t("you may hold spreads")), "off"),
                                        ("on", said(t("lay every spread you can before you discard")), "on"),
                                        ("on_but_three_aces", said(t("lay every spread but three aces")), "on_but_three_aces"))),
        ("hits_per_turn", said(t("Hits a turn")), (("0", said(t("as many as you like")), 0), ("1", said(t("at most one")), 1))),
        ("hit_ends_turn", said(t("A hit ends the turn")), _on_off(said(t("a hit ends your turn (no discard)")), said(t("hit, then discard")))),
        ("take_must_be_used", said(t("Taking the discard")), _on_off(said(t("only to spread or hit with it at once")),
                                                            said(t("take it for any reason")))),
        ("hit_bars_going_out", said(t("A hit bars going out")), _on_off(said(t("on a turn a hit bars your drop, you cannot go out")),
                                                               said(t("off")))),
        ("hit_spoils_tonk_out", said(t("Hitting spoils a tonk out")), _on_off(said(t("once you have hit, going out pays single")),
                                                                     said(t("off")))),
        ("first_turn_tonk_out", said(t("A tonk out on your first turn")), (
            ("as_tonk_out", said(t("pays as any tonk out")), "as_tonk_out"),
            ("double_then_single", said(t("double; later ones single")), "double_then_single"),
            ("quadruple_two_spreads", said(t("four stakes with two new spreads")), "quadruple_two_spreads"))),
        ("run_out_pays", said(t("What a run out pays")), (("single", said(t("single")), "single"), ("double", said(t("double")), "double"))),
        ("double_double", said(t("Double double (two players)")), _on_off(said(t("four stakes when the loser's hand could all be hit")),
                                                                 said(t("off")))),
        ("boobed", said(t("Boobed hands")), _on_off(said(t("near the end of the stock, going out does not win")), said(t("off")))),
        ("drop_when", said(t("When you may drop")), (("start_of_turn", said(t("at the start of your turn")), "start_of_turn"),
                                            ("any_time", said(t("any time in your turn")), "any_time"))),
        ("slap", said(t("Slapping")), (("off", said(t("no slapping")), "off"),
                              ("first_to_slap", said(t("anyone may slap a fitting discard: the first slap wins")),
                               "first_to_slap"),
                              ("next_player_first", said(t("anyone may slap; the next player's slap wins")),
                               "next_player_first"))),
        *(("instant_hands:" + kind, title, _instant_choices(kind)) for kind, title in INSTANT_TITLES.items()),
    )),
)
"""Every option a host may change at a table, in the words players read: (group title,
((key, what it is, ((value, words, the option's value), ...)), ...)). Keys are RULE_KEYS.md's;
the words never show a key. `instant_hands` is set one instant hand at a time (`instant_hands:KIND`)."""

OPTIONS = {key: (title, choices) for _, group in OPTION_GROUPS for key, title, choices in group}


def option_value(key: str, value: str):
    """The option's value for a host's pick (`value` as the catalog spells it), or RulesError."""
    from .errors import RulesError

    if key not in OPTIONS:
        raise RulesError(t('There is no such house rule.'))
    title, choices = OPTIONS[key]
    for code, _, typed in choices:
        if code == value:
            return typed
    raise RulesError(t('{title}: that is not one of its choices.', title=title))


SECTION_7_INSTANTS = {"instant_high": ("50", "49", "47"), "instant_low": ("low",), "instant_low_triple": ("low",)}
"""Section 7's instant options and the instant hands each stands for, when `instant_hands` is a list."""


def instant_hands_of(rules: Rules) -> tuple[InstantHand, ...]:
    """The instant hands a host edits: the list, or those section 7's options make (also the
    count-based ones that ranked face values put out of play: they come back with ten)."""
    if rules.instant_hands is not None:
        return rules.instant_hands
    return replace(rules, face_values="ten").instant_list


def _instant_of(rules: Rules, kind: str) -> InstantHand | None:
    return next((h for h in instant_hands_of(rules) if h.hand == kind), None)


def option_words(rules: Rules, key: str) -> str:
    """What an option is set to at these rules, in words."""
    title, choices = OPTIONS[key]
    base, _, kind = key.partition(":")
    if kind:
        hand = _instant_of(rules, kind)
        if hand is None:
            return said(t("not played"))
        if kind == "low":
            return said(t("{pays}, a count of {n} or less", pays=_instant_words(hand.pays, hand.when).text, n=hand.max))
        return _instant_words(hand.pays, hand.when)
    if base in SECTION_7_INSTANTS and rules.instant_hands is not None:
        return said(t("set by the instant hands one by one"))
    now = getattr(rules, key)
    return next((words for _, words, typed in choices if typed == now and type(typed) is type(now)), str(now))


def option_in_force(rules: Rules, key: str, code: str) -> bool:
    """Is the host's pick `code` what the option is now (the menu marks it)?"""
    title, choices = OPTIONS[key]
    typed = next(t for c, _, t in choices if c == code)
    base, _, kind = key.partition(":")
    if kind:
        hand = _instant_of(rules, kind)
        if typed is None or hand is None:
            return typed is None and hand is None
        return typed == ("max", hand.max) or typed == (hand.pays, hand.when)
    if base in SECTION_7_INSTANTS and rules.instant_hands is not None:
        return False
    now = getattr(rules, key)
    return typed == now and type(typed) is type(now)


def changed_rules(rules: Rules, key: str, code: str) -> Rules:
    """The rules after the host's pick `code` for option `key`, or RulesError (nothing changes).

    An instant hand (`instant_hands:KIND`) is put in, changed or taken out of the list, the
    others kept. With a list in force, section 7's high and low options change the instant
    hands they stand for, and leave the others (a claim in turn, all faces) as they are."""
    value = option_value(key, code)
    base, _, kind = key.partition(":")
    data = rules.to_dict()
    if kind:
        data["instant_hands"] = [h.to_dict() for h in _with_instant(rules, kind, value)]
    elif base in SECTION_7_INSTANTS and rules.instant_hands is not None:
        data[key] = value
        made = instant_hands_of(Rules.from_dict({**data, "instant_hands": None}))
        kinds = SECTION_7_INSTANTS[key]
        data["instant_hands"] = [h.to_dict() for h in rules.instant_hands if h.hand not in kinds] + \
            [h.to_dict() for h in made if h.hand in kinds]
    else:
        data[key] = value
    return Rules.from_dict(data)


def _with_instant(rules: Rules, kind: str, value) -> list[InstantHand]:
    hands = list(instant_hands_of(rules))
    at = next((i for i, h in enumerate(hands) if h.hand == kind), None)
    old = hands[at] if at is not None else None
    if value is None:
        return [h for h in hands if h.hand != kind]
    pays, when = (old.pays, old.when) if old is not None else (2, "deal")
    most = old.max if old is not None else (rules.instant_low or 13)
    if value[0] == "max":
        most = value[1]
    else:
        pays, when = value
    new = InstantHand(kind, pays, when, most if kind == "low" else 0)
    if at is None:
        return hands + [new]
    hands[at] = new
    return hands


def plain_refusal(message: str) -> str:
    """A RulesError's message with each option key (`wild_cards`) replaced by what players call
    the option; one-word keys (deck, jokers) read as plain words already."""
    return _KEY.sub(lambda m: f"“{_TITLES[m[0]]}”", message)


_TITLES = {key: title for key, (title, _) in OPTIONS.items() if ":" not in key} | {"instant_hands": "Instant hands"}
_KEY = re.compile(r"\b(?:" + "|".join(sorted((k for k in _TITLES if "_" in k), key=len, reverse=True)) + r")\b")


# ---------------------------------------------------------------------------- what is not played

NOT_PLAYED = {
    "waiting": N_("Waiting: a new spread, or a hit on your spreads, bars your drop for some turns."),
    "instant_low": N_("A low count on the deal (say 13 or less) winning at once."),
    "instant_claims": N_("Instant hands claimed in turn: shown at the start of your first turn instead of on the deal."),
    "face_values": N_("Face cards counting by rank (J 11, Q 12, K 13) instead of 10 each."),
    "ace_in_runs": N_("The ace high in runs (Q-K-A) as well as low."),
    "wild_cards": N_("Wild cards: deuces or jokers standing for any card you name in a spread."),
    "wild_swap": N_("Wild swap: play the natural card a wild card on the table stands for and take the wild card."),
    "must_spread": N_("Must spread: laying every spread you can before you discard."),
    "hits_per_turn": N_("One hit a turn at most."),
    "hit_ends_turn": N_("A hit ending your turn at once, with no discard."),
    "take_must_be_used": N_("Taking the discard only to spread or hit with it at once."),
    "hit_bars_going_out": N_("A hit that bars your drop barring you from going out too."),
    "hit_spoils_tonk_out": N_("A hit spoiling your tonk out: going out after hitting pays single."),
    "first_turn_tonk_out": N_("A tonk out on your first turn paying more (double, or four with two new spreads)."),
    "run_out_pays": N_("A run out (your last card discarded) paying double."),
    "double_double": N_("Double double: four stakes for a tonk out when the loser's whole hand could be hit."),
    "boobed": N_("Boobed hands: near the end of the stock, going out does not win."),
    "drop_when": N_("Dropping at any time in your turn, also after drawing."),
    "slap": N_("Slapping: anyone may slap a discard that fits a spread on the table."),
}
"""Each house rule a table can leave out, in one plain sentence: /tonk rules lists those it
leaves out under "Not played here" (`Rules.describe` says what is played)."""


def not_played(rules: Rules) -> list[str]:
    """The house rules these rules leave out (those Rules.describe is silent about when off)."""
    off = Rules()
    out = []
    for key, sentence in NOT_PLAYED.items():
        if key == "instant_claims":
            left_out = not any(h.when == "turn" for h in rules.instant_list)
        elif key == "instant_low":
            left_out = not any(h.hand == "low" for h in rules.instant_list)
        else:
            left_out = getattr(rules, key) == getattr(off, key)
        if left_out:
            out.append(sentence)
    return out


# ---------------------------------------------------------------------------- a table's rules in one line

SHORT_WORDS: dict[str, Any] = {
    "hand_size": lambda r: tn("{n} card", "{n} cards", r.hand_size),
    "deck": lambda r: t("{n}-card deck", n=r.deck),
    "jokers": lambda r: tn("{n} joker", "{n} jokers", r.jokers) if r.jokers else t("no jokers"),
    "upcard": lambda r: t("upcard") if r.upcard else t("no upcard"),
    "waiting": lambda r: t("waiting") if r.waiting else t("no waiting"),
    "spread_wait": lambda r: tn("spread waits {n} turn", "spread waits {n} turns", r.spread_wait),
    "hit_wait": lambda r: tn("hit waits {n} turn", "hit waits {n} turns", r.hit_wait),
    "hit_books": lambda r: t("books may be hit") if r.hit_books else t("runs only hit"),
    "tonk_out_pays": lambda r: t("tonk out pays {words}", words=option_words(r, "tonk_out_pays")),
    "caught_pays": lambda r: t("caught pays {words}", words=option_words(r, "caught_pays")),
    "catchers_stakes": lambda r: t("catchers get {stakes}", stakes=stakes(r.catchers_stakes)),
    "stock_out": lambda r: {"lowest_wins": t("empty stock: lowest wins"), "dead_hand": t("empty stock: dead hand"),
                            "reshuffle": t("empty stock: reshuffle")}[r.stock_out],
    "scoring": lambda r: t("push-ups") if r.scoring == "pushups" else t("stakes"),
    "face_values": lambda r: t("faces by rank") if r.face_values == "ranked" else t("faces 10"),
    "ace_in_runs": lambda r: t("ace high or low") if r.ace_in_runs == "low_or_high" else t("ace low"),
    "wild_cards": lambda r: (t("{words} wild", words=option_words(r, "wild_cards")) if r.wild_cards != "none"
                             else t("no wild cards")),
    "run_out_pays": lambda r: t("run out pays {n}", n=option_words(r, "run_out_pays")),  # n: "double", in words
    "first_turn_tonk_out": lambda r: t("first-turn tonk out: {words}", words=option_words(r, "first_turn_tonk_out")),
    "slap": lambda r: t("slapping") if r.slap != "off" else t("no slapping"),
}
"""Short words for an option's value, where its title and words (OPTIONS) would be too long for a
footer; any other option reads `title: words`."""

INSTANT_SHORT = {"all_faces": t("all faces"), "all_tens_and_faces": t("all tens and faces")}
"""An instant hand's name in a rules label (a count names itself: `50 pays 1`)."""


def _short_instant(hand: InstantHand) -> Text:
    name = t("≤{n}", n=hand.max) if hand.hand == "low" else INSTANT_SHORT.get(hand.hand, hand.hand)
    if hand.when == "turn":
        return t("{hand} pays {pays} in turn", hand=name, pays=hand.pays)
    return t("{hand} pays {pays}", hand=name, pays=hand.pays)


def _short(rules: Rules, key: str) -> Text:
    if key in SHORT_WORDS:
        return SHORT_WORDS[key](rules)
    if key == "instant_hands":
        hands = instant_hands_of(rules)
        if not hands:
            return t("instant hands: none")
        return t("instant hands: {hands}", hands=[_short_instant(h) for h in hands])
    title, _ = OPTIONS[key]
    return t("{option}: {words}", option=title, words=option_words(rules, key))


def rules_label(rules: Rules, *, with_scoring: bool = False, limit: int = 200) -> Said:
    """The preset these rules are closest to, and what differs from it in a few words:
    `standard`, `standard + 2 jokers, caught pays double to every other player`. The scoring
    mode is left out unless `with_scoring` (a table shows its scoring beside it). Longer than
    `limit` characters (in English), it only counts the changes: `standard + 9 changes`.
    The preset is its name as a host types it; the rest is said in the reader's language."""
    if not with_scoring:  # matched and told without it: a standard table for push-ups is "standard"
        rules = replace(rules, scoring="stakes")
    preset = rules.closest_preset()
    changed = [key for key in rules.to_dict(preset) if key != "preset" and (with_scoring or key != "scoring")]
    if not changed:
        return said(as_text(preset))
    label = said(t("{preset} + {changes}", preset=preset, changes=[_short(rules, key) for key in changed]))
    if len(label) > limit:  # too many to read at a glance: the Rules button says them all
        label = said(tn("{preset} + {n} change", "{preset} + {n} changes", len(changed), preset=preset))
    return label
