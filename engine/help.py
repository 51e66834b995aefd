"""Tonk taught in two minutes, for `/tonk help` and the terminal's `help`.

Pure text from a `Rules`: what each ending pays is worked out by the engine's own
settlement (`settle_drop`, `settle_instant`, `Rules.tonk_out_multiple`, ...) on small example
hands, so the help cannot disagree with what the table really pays.
"""

from __future__ import annotations

from .outcome import (
    DROP_WON_MULTIPLE,
    RUN_OUT_MULTIPLE,
    instant_winners,
    settle_drop,
    settle_instant,
    settle_stock_out,
)
from .rules import Rules

# The caught-drop example: you drop with 10 at a table of four; the others hold these.
CAUGHT_EXAMPLE = (10, 8, 10, 20)
PLAIN_COUNT = 30  # a dealt count no instant hand claims


def plural(n: int, word: str) -> str:
    """`1 card`, `2 cards`, `1 stake`, `0 stakes`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def either(words: list[str]) -> str:
    """`50`, `50 or 49`, `50, 49 or at most 14`."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def stakes(n: int) -> str:
    return plural(n, "stake")


def instant_lines(rules: Rules) -> list[str]:
    """What a tonk on the deal pays, one phrase per multiple, from `instant_winners`."""
    low, high = rules.instant_high_counts
    candidates = [(high, f"{high}"), (low, f"{low}")]
    if rules.instant_low:
        candidates.append((rules.instant_low, f"at most {rules.instant_low}"))
    by_multiple: dict[int, list[str]] = {}
    for dealt, words in candidates:
        counts = [dealt, PLAIN_COUNT, PLAIN_COUNT]
        winners = instant_winners(rules, counts, 2)
        if winners and winners[0][0] == 0:
            by_multiple.setdefault(-settle_instant(winners, counts, 1).payments[1], []).append(words)
    return [f"a dealt count of {either(words)} wins {stakes(m)} from each other player"
            for m, words in sorted(by_multiple.items(), reverse=True)]


def tonk_out_phrase(rules: Rules) -> str:
    one, two = rules.tonk_out_multiple(1), rules.tonk_out_multiple(2)
    if one == two:
        return stakes(one)
    return f"{stakes(two)} when you laid two new spreads that turn, otherwise {stakes(one)}"


def caught_example(rules: Rules) -> tuple[str, str]:
    """The caught-drop example's payments and push-ups, as settled by `settle_drop`."""
    counts = list(CAUGHT_EXAMPLE)
    outcome = settle_drop(rules, 0, counts, len(counts) - 1, 1)
    assert outcome.kind == "caught"
    who = ["you", "the 8", "the other 10", "the 20"]
    pays = ", ".join(f"{w} {signed(p)}" for w, p in zip(who, outcome.payments))
    pushups = ", ".join(f"{w} {p}" for w, p in zip(who, outcome.pushups))
    return pays, pushups


def stock_out_phrase(rules: Rules) -> str:
    if rules.stock_out == "dead_hand":
        return "the hand is dead: nobody pays"
    win = settle_stock_out([5, 10, 12], 1)
    tie = settle_stock_out([5, 5, 12], 1)
    text = f"the lowest count wins {stakes(-win.payments[1])} from each player"
    if tie.kind == "draw":
        text += " (a tie for lowest: nobody pays)"
    if rules.stock_out == "reshuffle":
        text = ("the discard pile but its top card is shuffled into a new stock; "
                f"if there is nothing to shuffle, {text}")
    return text


def help_sections(rules: Rules, *, stake: int = 1, preset: str | None = None) -> list[tuple[str, str]]:
    """(heading, text) pairs: goal, deal, a turn, spreads and hits, dropping, endings.

    Each text is short enough for a Discord embed field (1024 characters)."""
    name = preset or rules.closest_preset()
    values = "A is 1, 2 to 10 their number, J Q K 10"
    if rules.jokers:
        values += ", jokers 0"
    sections = [(
        "Goal",
        f"Get rid of your cards, or hold the lowest count when the hand ends. Your count is the sum "
        f"of the cards in your hand: {values}. Cards you lay on the table no longer count.",
    )]
    deal = f"{plural(rules.hand_size, 'card')} each from a {rules.deck}-card deck"
    if rules.deck == 40:
        deal += " (no 8s, 9s or 10s: in a run 7 is next to J)"
    if rules.jokers:
        deal += f" with {plural(rules.jokers, 'joker')} (jokers are never spread or hit)"
    deal += "; the next card is turned up to start the discard pile." if rules.upcard else \
        "; no card is turned up, so the first player draws from the stock."
    instant = instant_lines(rules)
    if instant:
        deal += " Tonk on the deal, before anyone plays: " + "; ".join(instant) + "."
    sections.append(("The deal", deal))
    sections.append((
        "A turn",
        "1. Drop, or draw the top card of the stock, or take the top card of the discard pile.\n"
        "2. Lay spreads and hits, as many as your cards allow (nothing forces you).\n"
        "3. Discard one card: your turn ends and play passes to the left.",
    ))
    hits = "any spread on the table, yours or anyone's" if rules.hit_books else \
        "any run on the table, yours or anyone's (books cannot be hit at this table)"
    sections.append((
        "Spreads and hits",
        "A spread is a book, 3 or 4 cards of one rank (7♠ 7♥ 7♦), or a run, 3 or more cards "
        "in a row of one suit (4♥ 5♥ 6♥; the ace is low only: A♣ 2♣ 3♣). "
        f"A hit adds one card from your hand to {hits}, so that it stays a spread.",
    ))
    pays, pushups = caught_example(rules)
    drop = (
        "Instead of drawing, you may drop: everyone shows their hand. If your count is strictly the "
        f"lowest you win {stakes(DROP_WON_MULTIPLE)} from each player. If anyone has your count or "
        f"less you are caught. Say you drop with 10 and the others hold 8, 10 and 20: {pays}."
    )
    if rules.waiting:
        bars = []
        if rules.spread_wait:
            bars.append(f"a new spread of yours bars your drop for your next {plural(rules.spread_wait, 'turn')}")
        if rules.hit_wait:
            bars.append(f"each hit on your spreads bars it for {plural(rules.hit_wait, 'turn')}")
        if bars:
            drop += " Waiting rule: " + "; ".join(bars) + "."
    sections.append(("Dropping and being caught", drop))
    endings = [
        f"Tonk out (spread or hit your last card, no discard): {tonk_out_phrase(rules)} from each player.",
        f"Run out (discard your last card): {stakes(RUN_OUT_MULTIPLE)} from each player.",
        f"Drop: won {stakes(DROP_WON_MULTIPLE)} from each player; caught as above.",
        f"Empty stock (someone must draw and cannot): {stock_out_phrase(rules)}.",
    ]
    if rules.scoring == "pushups":
        endings.append(
            "Scoring is push-ups (low is good): the winner takes 0, each loser their count times the "
            f"stakes the win pays; in the caught example: {pushups}.")
    endings.append("A stake is " + plural(stake, "point") + " at this table.")
    sections.append((f"How a hand ends and what it pays ({name})", "\n".join(endings)))
    return sections


def help_text(rules: Rules, *, stake: int = 1, preset: str | None = None, markdown: bool = True) -> str:
    """The whole lesson as one text: `**bold**` headings for Discord, or plain for a terminal."""
    parts = []
    for heading, body in help_sections(rules, stake=stake, preset=preset):
        title = f"**{heading}**" if markdown else f"{heading}:"
        parts.append(f"{title}\n{body}")
    return "\n\n".join(parts)


def first_hand_hint(rules: Rules) -> str:
    """One line for a player's first hand ever."""
    cost = -settle_drop(rules, 0, [10, 8, 20], 2, 1).payments[0]  # caught by one player of three
    return ("First hand? Draw (or take the discard), lay 3 of a kind or 3 in a row of one suit, then "
            "discard your highest card. Drop only with a very low count: if anyone has yours or less, "
            f"you pay {stakes(cost)} or more.")
