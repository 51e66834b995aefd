"""Hand analysis shared by every computer player: spreads, hits and the ways to play a turn.

Everything here works on a seat's own cards and the public table, nothing else. A
`Layout` holds the per-rules facts (card values, run positions); `lay_options` lists
the ways to lay cards this turn (which spreads, which hits, in an order the engine
accepts), and the players score what each one keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..actions import Hit, Spread
from ..cards import Rank
from ..game import full_deck, run_positions, spreads_in
from ..rules import Rules

_LAYOUTS: dict[Rules, "Layout"] = {}


class Layout:
    """Per-rules facts about the cards: run positions, the deck, neighbours in runs."""

    __slots__ = ("rules", "deck", "pos", "at", "ranks", "size", "average", "of_rank")

    def __init__(self, rules: Rules):
        self.rules = rules
        self.deck = tuple(full_deck(rules))
        self.ranks = rules.ranks
        place = {rank: i for i, rank in enumerate(rules.ranks)}
        self.pos = {c: place[c.rank] for c in self.deck if not c.joker}
        self.at = {(c.suit, place[c.rank]): c for c in self.deck if not c.joker}
        self.size = len(self.ranks)
        self.of_rank: dict = {}
        for c in self.deck:
            if not c.joker:
                self.of_rank.setdefault(c.rank, []).append(c)
        self.average = sum(c.value for c in self.deck) / len(self.deck)

    @classmethod
    def of(cls, rules: Rules) -> "Layout":
        layout = _LAYOUTS.get(rules)
        if layout is None:
            layout = _LAYOUTS[rules] = cls(rules)
        return layout

    def neighbour(self, card, step: int):
        """The card `step` places along the same suit's run, or None."""
        return self.at.get((card.suit, self.pos[card] + step))

    def hand_spreads(self, hand) -> list[tuple]:
        """Every book and run that could be laid from `hand` (as card tuples)."""
        return spreads_in(hand, run_positions(self.rules))


@dataclass(slots=True)
class Place:
    """A spread on the table as a target for hits: its current ends or size."""

    index: int
    owner: int
    kind: str
    suit: object
    rank: object
    lo: int
    hi: int
    size: int


def table_places(layout: Layout, spreads) -> list[Place]:
    places = []
    pos = layout.pos
    high_aces = layout.rules.ace_in_runs == "low_or_high"
    for i, s in enumerate(spreads):
        cards = s.natural() if s.named else s.cards  # wild cards as what they stand for
        first = cards[0]
        if s.kind == "run":
            at = [pos[c] for c in cards]
            if high_aces and {c.rank for c in cards} >= {Rank.ACE, Rank.KING} and Rank.TWO not in {
                    c.rank for c in cards}:
                at = [layout.size if c.rank is Rank.ACE else p for c, p in zip(cards, at)]
            lo, hi = min(at), max(at)
            places.append(Place(i, s.owner, "run", first.suit, None, lo, hi, len(cards)))
        else:
            places.append(Place(i, s.owner, "book", None, first.rank, 0, 0, len(s.cards)))
    return places


def fits(layout: Layout, card, place: Place) -> bool:
    if card.joker:
        return False
    if place.kind == "book":
        return layout.rules.hit_books and place.size < 4 and card.rank is place.rank
    if card.suit is not place.suit:
        return False
    p = layout.pos[card]
    return p == place.lo - 1 or p == place.hi + 1


def hit_targets(layout: Layout, places: list[Place]) -> set:
    """Every card (anywhere) that would fit a spread on the table right now."""
    out = set()
    hit_books = layout.rules.hit_books
    for place in places:
        if place.kind == "run":
            for p in (place.lo - 1, place.hi + 1):
                card = layout.at.get((place.suit, p))
                if card is not None:
                    out.add(card)
        elif hit_books and place.size < 4:
            for c in layout.deck:
                if not c.joker and c.rank is place.rank:
                    out.add(c)
    return out


def greedy_hits(layout: Layout, cards: list, places: list[Place], *, skip_owner: int | None = None):
    """Hit every card that fits (chaining along runs). Returns (hits, cards left).

    `skip_owner`: leave that seat's spreads alone (a waiting table, where a hit on your
    own spread costs you a turn of dropping).
    """
    if not places or not cards:
        return [], cards
    rest = list(cards)
    state = [[p.lo, p.hi, p.size] for p in places]
    hits = []
    pos = layout.pos
    hit_books = layout.rules.hit_books
    changed = True
    while changed and rest:
        changed = False
        for card in list(rest):
            if card.joker:
                continue
            for place, st in zip(places, state):
                if place.owner == skip_owner:
                    continue
                if place.kind == "run":
                    if card.suit is not place.suit:
                        continue
                    p = pos[card]
                    if p == st[0] - 1:
                        st[0] = p
                    elif p == st[1] + 1:
                        st[1] = p
                    else:
                        continue
                else:
                    if not hit_books or st[2] >= 4 or card.rank is not place.rank:
                        continue
                    st[2] += 1
                hits.append((card, place))
                rest.remove(card)
                changed = True
                break
    return hits, rest


@dataclass(slots=True)
class LayOption:
    """One way to lay cards this turn: the actions in order and what stays in hand."""

    actions: list
    rest: list
    new_spreads: int
    own_hits: int
    laid_value: int


def lay_options(layout: Layout, hand, spreads, seat: int, *, with_holds: bool = True,
                places: list[Place] | None = None) -> list[LayOption]:
    """Every sensible way to lay cards from `hand` this turn.

    Spreads: any set of disjoint spreads from the hand (holding them is an option when
    `with_holds`); hits: greedily every card that fits, and under waiting also the
    variant that spares your own spreads.
    """
    candidates = layout.hand_spreads(hand)
    if places is None:
        places = table_places(layout, spreads)
    chosen_sets: list[list[tuple]] = []

    def collect(start: int, chosen: list, used: set) -> None:
        chosen_sets.append(list(chosen))
        for k in range(start, len(candidates)):
            spread = candidates[k]
            if used.isdisjoint(spread):
                chosen.append(spread)
                collect(k + 1, chosen, used | set(spread))
                chosen.pop()

    collect(0, [], set())
    if not with_holds and len(chosen_sets) > 1:
        best = max(sum(len(s) for s in cs) for cs in chosen_sets)
        # keep the sets that lay the most cards (fewer cards held is what not holding means)
        chosen_sets = [cs for cs in chosen_sets if sum(len(s) for s in cs) == best]
    skips = [None, seat] if layout.rules.waiting else [None]
    options = []
    for chosen in chosen_sets:
        used = set()
        for spread in chosen:
            used.update(spread)
        rest = [c for c in hand if c not in used]
        all_hits = None
        for skip in skips:
            hits, left = greedy_hits(layout, rest, places, skip_owner=skip)
            if skip is None:
                all_hits = hits
            elif not any(p.owner == seat for _, p in all_hits):
                continue  # sparing own spreads changes nothing here
            actions = [Spread(tuple(s)) for s in chosen]
            actions.extend(Hit(card, place.index) for card, place in hits)
            laid = sum(c.value for c in hand) - sum(c.value for c in left)
            own = sum(1 for _, p in hits if p.owner == seat)
            options.append(LayOption(actions, left, len(chosen), own, laid))
    return options


def spread_potential(layout: Layout, hand) -> list[tuple]:
    """Pairs and two-card runs in `hand`, each with the cards that would complete it."""
    combos = []
    cards = [c for c in hand if not c.joker]
    pos = layout.pos
    at = layout.at
    for a, b in combinations(cards, 2):
        if a.rank is b.rank:
            outs = [c for c in layout.of_rank[a.rank] if c is not a and c is not b]
            combos.append((a, b, outs))
        elif a.suit is b.suit:
            pa, pb = pos[a], pos[b]
            lo, hi = (pa, pb) if pa < pb else (pb, pa)
            if hi - lo == 1:
                outs = [c for c in (at.get((a.suit, lo - 1)), at.get((a.suit, hi + 1))) if c is not None]
            elif hi - lo == 2:
                outs = [at[(a.suit, lo + 1)]]
            else:
                continue
            combos.append((a, b, outs))
    return combos
