"""Check hand records by hand, without the engine: the deck, the deal and card movement.

Golden records are written by people from worked examples, so before a record is
trusted as a test of the engine this script checks what a person can get wrong:

- the deck is a full deck for the rules (52 cards, or 40 for the baton rouge preset),
  every card exactly once;
- the deal of RULES.md section 2: deck[0] to the player left of the dealer, one card at
  a time round by round, then the upcard, then the stock, top card first;
- every action in turn order (draw or take first, discard last, drop only before
  drawing), every drawn card the stock top, every taken card the discard top, every
  spread, hit or discarded card in the mover's hand, spreads and hits well formed;
- nothing happens after the hand has ended (drop, tonk out, run out, empty stock), and
  no action follows a deal that ends the hand (an instant count under the preset).

It prints each seat's dealt hand and count, the upcard, a warning when a dealt count wins
on the deal under the record's preset, every action, and the final counts; when a sibling
`NAME.expected.json` exists its counts are compared with the final counts.
Payments and push-ups are the engine's job and are not computed here, and of `rules` only
the preset is read (upcard on; overrides are the engine's).

Usage: python tests/records/_check_deck.py [RECORD.json ...]
With no arguments it checks every tests/records/*.json that is not *.expected.json.
Exit status 0 when every record checks, 1 otherwise. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["c", "d", "h", "s"]
RANK_ORDER = {rank: i + 1 for i, rank in enumerate(RANKS)}

# What this script needs to know of each preset (RULES.md section 8).
# instant: counts that win on the deal; hit_books: may a card be added to a book.
PRESETS = {
    "standard": {"hand_size": 5, "deck": 52, "instant": "49/50", "hit_books": True},
    "waiting": {"hand_size": 5, "deck": 52, "instant": "49/50", "hit_books": True},
    "push-ups": {"hand_size": 5, "deck": 52, "instant": "49/50", "hit_books": True},
    "black company": {"hand_size": 5, "deck": 52, "instant": "49/50, <=15", "hit_books": False},
    "washington": {"hand_size": 5, "deck": 52, "instant": "49/50, <=14", "hit_books": True},
    "seattle": {"hand_size": 7, "deck": 52, "instant": "49/50", "hit_books": True},
    "baton rouge": {"hand_size": 5, "deck": 40, "instant": "47/50", "hit_books": True},
}


class RecordError(Exception):
    """A record that does not check; the message says where and why."""


def value(card: str) -> int:
    """A = 1, 2..10 face value, J Q K = 10."""
    return min(RANK_ORDER[card[:-1]], 10)


def count(cards) -> int:
    return sum(value(c) for c in cards)


def normalize(text) -> str:
    """`As`, `10h`, `Th`, `qd` -> canonical code; RecordError for anything else."""
    if not isinstance(text, str) or len(text.strip()) < 2:
        raise RecordError(f"{text!r} is not a card")
    text = text.strip()
    rank, suit = text[:-1].upper(), text[-1].lower()
    if rank == "T":
        rank = "10"
    if rank not in RANK_ORDER or suit not in SUITS:
        raise RecordError(f"{text!r} is not a card (write rank then suit, like As, 10h, Qd)")
    return rank + suit


def full_deck(size: int) -> set[str]:
    ranks = RANKS if size == 52 else [r for r in RANKS if r not in ("8", "9", "10")]
    return {r + s for r in ranks for s in SUITS}


def instant_wins(preset: str, dealt_count: int) -> str | None:
    """Name the instant win a dealt count would claim under the preset, or None."""
    high = {"baton rouge": (47, 50)}.get(preset, (49, 50))
    if dealt_count in high:
        return f"instant high ({dealt_count})"
    low = {"black company": 15, "washington": 14}.get(preset)
    if low is not None and dealt_count <= low:
        return f"instant low ({dealt_count} <= {low})"
    return None


def is_book(cards) -> bool:
    return 3 <= len(cards) <= 4 and len({c[:-1] for c in cards}) == 1


def is_run(cards) -> bool:
    if len(cards) < 3 or len({c[-1] for c in cards}) != 1:
        return False
    orders = sorted(RANK_ORDER[c[:-1]] for c in cards)
    return all(b == a + 1 for a, b in zip(orders, orders[1:]))


def fmt(cards) -> str:
    return " ".join(sorted(cards, key=lambda c: (RANK_ORDER[c[:-1]], c[-1]))) or "-"


def check(path: Path) -> bool:
    print(f"== {path}")
    try:
        final_counts = _check(path)
    except RecordError as error:
        print(f"   FAILED: {error}")
        return False
    expected_path = path.with_name(path.stem + ".expected.json")
    if expected_path.exists():
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        if expected.get("counts") == final_counts:
            print(f"   counts match {expected_path.name}: {final_counts}")
        else:
            print(f"   FAILED: counts {final_counts} but {expected_path.name} says {expected.get('counts')}")
            return False
    print("   OK")
    return True


def _check(path: Path) -> list[int]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot read the record: {error}") from None
    if record.get("format") != "tonk-hand/1":
        raise RecordError(f"format is {record.get('format')!r}, not 'tonk-hand/1'")

    rules = record.get("rules") or {}
    preset = rules.get("preset", "standard")
    if preset not in PRESETS:
        raise RecordError(f"unknown preset {preset!r}")
    options = PRESETS[preset]
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 6:
        raise RecordError("players must be a list of 2 to 6 names")
    n = len(players)
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(f"dealer {dealer!r} is not a seat 0..{n - 1}")

    # The deck: a full deck, every card once.
    deck = [normalize(c) for c in record.get("deck") or []]
    wanted = full_deck(options["deck"])
    seen: set[str] = set()
    for i, card in enumerate(deck):
        if card in seen:
            raise RecordError(f"deck[{i}] {card} appears twice")
        if card not in wanted:
            raise RecordError(f"deck[{i}] {card} is not in a {options['deck']}-card deck")
        seen.add(card)
    if len(deck) != len(wanted):
        missing = fmt(wanted - seen)
        raise RecordError(f"the deck has {len(deck)} cards, not {len(wanted)}; missing: {missing}")

    # The deal (RULES.md section 2).
    hand_size = options["hand_size"]
    hands: list[list[str]] = [[] for _ in range(n)]
    position = 0
    for _ in range(hand_size):
        for k in range(1, n + 1):
            hands[(dealer + k) % n].append(deck[position])
            position += 1
    upcard = deck[position]
    stock = deck[position + 1:]
    discards = [upcard]
    spreads: list[list[str]] = []

    print(f"   preset {preset!r}, dealer seat {dealer} ({players[dealer]}), stake {record.get('stake')}")
    claims = []
    for seat in range(n):
        dealt = count(hands[seat])
        claim = instant_wins(preset, dealt)
        if claim:
            claims.append(f"seat {seat} {claim}")
        note = f"   <-- {claim} on the deal" if claim else ""
        print(f"   seat {seat} {players[seat]:<12} {fmt(hands[seat]):<22} count {dealt:>2}{note}")
    print(f"   upcard {upcard}; stock {len(stock)} cards, top first: {' '.join(stock[:8])} ...")
    if claims:
        # An instant win (or a void deal) ends the hand before anyone plays.
        if record.get("actions"):
            raise RecordError(f"the deal ends the hand ({'; '.join(claims)}), yet the record has actions")
        print(f"   WARNING: the hand ends on the deal: {'; '.join(claims)}")

    # The actions.
    turn = (dealer + 1) % n
    drawn = False  # has the player to move drawn or taken this turn?
    ended: str | None = None
    for i, action in enumerate(record.get("actions") or []):
        where = f"action {i} {json.dumps(action)}"
        if ended:
            raise RecordError(f"{where}: the hand already ended ({ended})")
        seat, verb = action.get("seat"), action.get("do")
        if seat != turn:
            raise RecordError(f"{where}: it is seat {turn}'s turn, not seat {seat}'s")
        hand = hands[seat]
        if verb in ("draw", "take", "drop") and drawn:
            raise RecordError(f"{where}: seat {seat} has already drawn this turn")
        if verb in ("spread", "hit", "discard") and not drawn:
            raise RecordError(f"{where}: seat {seat} must draw or take first")

        if verb == "draw":
            if not stock:
                ended = "a draw from the empty stock ends the hand (stock out)"
                print(f"   {i:>3}: seat {seat} wants to draw; the stock is empty: the hand ends")
                continue
            card = stock.pop(0)
            if "card" in action and normalize(action["card"]) != card:
                raise RecordError(f"{where}: the stock top is {card}, not {action['card']}")
            hand.append(card)
            drawn = True
            print(f"   {i:>3}: seat {seat} draws {card}")
        elif verb == "take":
            if not discards:
                raise RecordError(f"{where}: the discard pile is empty")
            card = discards.pop()
            if "card" in action and normalize(action["card"]) != card:
                raise RecordError(f"{where}: the discard top is {card}, not {action['card']}")
            hand.append(card)
            drawn = True
            print(f"   {i:>3}: seat {seat} takes {card}")
        elif verb == "spread":
            cards = [normalize(c) for c in action.get("cards") or []]
            for card in cards:
                if card not in hand:
                    raise RecordError(f"{where}: {card} is not in seat {seat}'s hand ({fmt(hand)})")
            if len(set(cards)) != len(cards) or not (is_book(cards) or is_run(cards)):
                raise RecordError(f"{where}: {fmt(cards)} is neither a book nor a run")
            for card in cards:
                hand.remove(card)
            spreads.append(cards)
            print(f"   {i:>3}: seat {seat} spreads {fmt(cards)} (spread {len(spreads) - 1})")
        elif verb == "hit":
            card = normalize(action.get("card"))
            number = action.get("spread")
            if card not in hand:
                raise RecordError(f"{where}: {card} is not in seat {seat}'s hand ({fmt(hand)})")
            if not isinstance(number, int) or not 0 <= number < len(spreads):
                raise RecordError(f"{where}: there is no spread {number!r}")
            target = spreads[number]
            grown = target + [card]
            if is_book(target) and not options["hit_books"]:
                raise RecordError(f"{where}: under {preset!r} books cannot be hit")
            if not ((is_book(target) and is_book(grown)) or (is_run(target) and is_run(grown))):
                raise RecordError(f"{where}: {card} does not fit spread {number} ({fmt(target)})")
            hand.remove(card)
            target.append(card)
            print(f"   {i:>3}: seat {seat} hits spread {number} with {card}")
        elif verb == "discard":
            card = normalize(action.get("card"))
            if card not in hand:
                raise RecordError(f"{where}: {card} is not in seat {seat}'s hand ({fmt(hand)})")
            hand.remove(card)
            discards.append(card)
            print(f"   {i:>3}: seat {seat} discards {card}")
            if not hand:
                ended = f"seat {seat} ran out"
            turn, drawn = (turn + 1) % n, False
        elif verb == "drop":
            ended = f"seat {seat} dropped"
            print(f"   {i:>3}: seat {seat} drops with {count(hand)}")
        else:
            raise RecordError(f"{where}: unknown action {verb!r}")

        if verb in ("spread", "hit") and not hand:
            ended = f"seat {seat} tonked out"

    # Every card is still somewhere, exactly once.
    places = [c for h in hands for c in h] + stock + discards + [c for s in spreads for c in s]
    assert sorted(places) == sorted(deck), "cards were lost or duplicated"

    counts = [count(h) for h in hands]
    print(f"   end: {ended or 'the actions stop before the hand ends'}")
    for seat in range(n):
        print(f"   seat {seat} {players[seat]:<12} {fmt(hands[seat]):<22} count {counts[seat]:>2}")
    for number, spread in enumerate(spreads):
        print(f"   spread {number}: {fmt(spread)}")
    print(f"   discard top {discards[-1] if discards else '-'}, stock {len(stock)} cards")
    return counts


def main(argv: list[str]) -> int:
    if argv:
        paths = [Path(a) for a in argv]
    else:
        here = Path(__file__).resolve().parent
        paths = sorted(p for p in here.glob("*.json") if not p.name.endswith(".expected.json"))
    if not paths:
        print("no hand records to check")
        return 0
    results = [check(p) for p in paths]
    print(f"{sum(results)} of {len(results)} records check")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
