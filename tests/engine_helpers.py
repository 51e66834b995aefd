"""Small builders for engine tests: stacked deals written as card strings."""

from __future__ import annotations

import json

from engine import Card, Game, Rules, full_deck, parse_cards, stacked_deck


def rules_of(preset: str = "standard", **options) -> Rules:
    return Rules.from_dict({"preset": preset, **options})


AUTO = "auto"


def deal(hands: list[str], *, upcard: str | None = AUTO, stock: str = "", dealer: int | None = None,
         rules: Rules | None = None, stake: int = 1, names=None) -> Game:
    """Deal `hands[seat]` to each seat (seat 0 plays first unless `dealer` is given)."""
    rules = rules or Rules()
    n = len(hands)
    if dealer is None:
        dealer = n - 1
    dealt = [parse_cards(h) for h in hands]
    stock_cards = parse_cards(stock)
    if upcard == AUTO:
        used = {c for h in dealt for c in h} | set(stock_cards)
        up = next(c for c in reversed(full_deck(rules)) if c not in used and not c.is_joker)
    else:
        up = Card.parse(upcard) if upcard else None
    deck = stacked_deck(rules, dealer, dealt, upcard=up if rules.upcard else None, stock=stock_cards)
    return Game.deal(rules, names or [f"P{i}" for i in range(n)], dealer, deck=deck, stake=stake)


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


_RANK_WORD = r"(?:ace|jack|queen|king|10|[2-9])"
_NAMED = None


def cards_named(text: str) -> set[Card]:
    """Every card `text` names, as the bot writes cards (`ace of spades`, a run's `4, 5, 6 of
    hearts`, `joker 1`) or with a suit symbol (`A♠`): what a leak check reads a message for."""
    import re

    global _NAMED
    if _NAMED is None:
        _NAMED = (re.compile(rf"(?<![\w-])((?:{_RANK_WORD}, )*{_RANK_WORD}) of (clubs|diamonds|hearts|spades)\b",
                             re.IGNORECASE),
                  re.compile(r"\bjoker ([1-4])\b", re.IGNORECASE),
                  re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AJQK])([♣♦♥♠])"))
    words, jokers, symbols = _NAMED
    ranks = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
    out: set[Card] = set()
    for match in words.finditer(text):
        suit = match.group(2)[0].lower()
        for rank in match.group(1).split(", "):
            out.add(Card.parse(ranks.get(rank.lower(), rank) + suit))
    out |= {Card.joker_card(int(m.group(1))) for m in jokers.finditer(text)}
    symbol_suits = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
    out |= {Card.parse(m.group(1) + symbol_suits[m.group(2)]) for m in symbols.finditer(text)}
    return out
