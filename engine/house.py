"""The house rules of RULES.md section 9 (and the side bets of section 10) as one rule object.

A game under house rules (`Rules.house`) or with side bets holds a `HouseRules` as its
`house`; the game's one `verify` and one `apply` (engine.game) consult it where a house
rule changes what is legal or what a lay does. It keeps no state of its own (the game
keeps all of it): one object serves every hand under the same rules. Its
`legal_actions` is the candidate actions filtered through the game's `verify`, so the
buttons a seat sees and the refusals it gets can never disagree; every refusal names the
house rule that forbids the action.

Slap windows: after a discard whose card fits a spread on the table, any seat may slap
it (`legal_actions(seat)` lists the slaps for every seat, not only the seat to play)
until the next player draws or takes. A slapper other than the discarder owes one extra
discard (`phase == SLAP_DISCARD`, `to_act` is the slapper) before play goes on.

This module never imports engine.game (the game imports it): the game is passed in as
`g` wherever a rule needs the table.
"""

from __future__ import annotations

from itertools import combinations

from .actions import CLAIM, DRAW, DROP, TAKE, Action, Discard, Hit, Slap, Spread, Swap
from .cards import Card, Rank, Suit
from .errors import IllegalAction, NotYourTurn, TonkError
from .outcome import instant_claims
from .rules import Rules
from .session import high_cards, side_bets_from_record
from .spreads import OVER, PLAY, SLAP_DISCARD, START, TableSpread, run_positions, spreads_in
from .text import t

__all__ = ["SLAP_DISCARD", "HouseRules", "HouseState", "house_rules"]

_BY_RULES: dict[Rules, "HouseRules"] = {}


def house_rules(rules: Rules) -> "HouseRules":
    """The rule object for these rules, made once per rules."""
    known = _BY_RULES.get(rules)
    if known is None:
        if len(_BY_RULES) > 256:  # tables with ever new options: do not grow without end
            _BY_RULES.clear()
        known = _BY_RULES[rules] = HouseRules(rules)
    return known


class HouseState:
    """What only the house rules change in one hand (`Game.hs`); `Game` reads it out as
    `game.boobed`, `game.side_bets`, ... (as dealt, and never changed, without house rules)."""

    __slots__ = ("own_turns", "hits_this_turn", "taken", "hit_waits", "barred_by_hit", "hit_any", "boobed",
                 "window", "slapper", "pending", "side_bets", "side_cards", "naturals_winner", "swaps")

    def __init__(self, n: int, side_bets: dict | None, hands) -> None:
        self.own_turns = [0] * n  # each seat's turns so far (first turn tonk out, claims)
        self.hits_this_turn = 0
        self.taken = None  # take must be used: the card taken this turn
        self.hit_waits = [0] * n  # the part of each seat's wait a hit added (hit bars going out)
        self.barred_by_hit = False
        self.hit_any = [False] * n  # hit spoils tonk out
        self.boobed = [False] * n
        self.window = None  # slap: the seat whose discard may be slapped now
        self.slapper = None  # slap: the slapper owing its extra discard
        self.pending = None  # slap next player first: (slapper, state before that slap, discarder)
        self.side_bets = dict(side_bets or {})
        bet = self.side_bets.get("high_card")
        self.side_cards = high_cards(bet, hands) if bet is not None else [None] * n
        self.naturals_winner = None
        self.swaps: list[Card] = []  # the wild card each swap took into hand, in order (public)

    def copy(self) -> "HouseState":
        state = HouseState.__new__(HouseState)
        for name in HouseState.__slots__:
            value = getattr(self, name)
            setattr(state, name, list(value) if type(value) is list else value)
        state.side_bets = dict(self.side_bets)
        return state  # `pending` is shared: a slap taken over copies what it restores

    def to_json(self) -> dict:
        """The "house" part of `Game.to_json` (tonk-state/1)."""
        code = _code
        return {
            "own_turns": list(self.own_turns),
            "hits_this_turn": self.hits_this_turn,
            "taken": code(self.taken),
            "hit_waits": list(self.hit_waits),
            "barred_by_hit": self.barred_by_hit,
            "hit_any": list(self.hit_any),
            "boobed": list(self.boobed),
            "window": self.window,
            "slapper": self.slapper,
            "pending": None if self.pending is None else [self.pending[0], _freeze(self.pending[1]), self.pending[2]],
            "side_bets": {k: b.to_record() for k, b in self.side_bets.items()},
            "side_cards": [code(c) for c in self.side_cards],
            "naturals_winner": self.naturals_winner,
            "swaps": [c.code for c in self.swaps],
        }

    @classmethod
    def from_json(cls, saved: dict, n: int, stake: int, hands) -> "HouseState":
        """Restore `to_json`'s data (a key it lacks keeps its value as dealt)."""
        bets = saved.get("side_bets") or None
        state = cls(n, side_bets_from_record(bets, n, stake) if bets else None, hands)
        parse = _parse
        state.own_turns = list(saved.get("own_turns", state.own_turns))
        state.hits_this_turn = saved.get("hits_this_turn", 0)
        state.taken = parse(saved.get("taken"))
        state.hit_waits = list(saved.get("hit_waits", state.hit_waits))
        state.barred_by_hit = saved.get("barred_by_hit", False)
        state.hit_any = list(saved.get("hit_any", state.hit_any))
        state.boobed = list(saved.get("boobed", state.boobed))
        state.window = saved.get("window")
        state.slapper = saved.get("slapper")
        pending = saved.get("pending")
        state.pending = None if pending is None else (pending[0], _thaw(pending[1]), pending[2])
        if "side_cards" in saved:
            state.side_cards = [parse(c) for c in saved["side_cards"]]
        state.naturals_winner = saved.get("naturals_winner")
        state.swaps = [parse(c) for c in saved.get("swaps", [])]
        return state


def _code(card):
    return None if card is None else card.code


def _parse(code):
    return None if code is None else Card.parse(code)


def _freeze(snap: tuple) -> list:
    hands, discard, spreads, waits, hit_waits, hit_flags, hit_any, phase, slapper, window, nat = snap
    return [[[c.code for c in h] for h in hands], [c.code for c in discard], [s.to_dict() for s in spreads],
            waits, hit_waits, hit_flags, hit_any, phase, slapper, window, nat]


def _thaw(data: list) -> tuple:
    hands, discard, spreads, waits, hit_waits, hit_flags, hit_any, phase, slapper, window, nat = data
    return ([[Card.parse(c) for c in h] for h in hands], [Card.parse(c) for c in discard],
            [TableSpread.from_dict(s) for s in spreads], list(waits), list(hit_waits), list(hit_flags),
            list(hit_any), phase, slapper, window, nat)


class HouseRules:
    """What the house rules of one `Rules` allow and do, asked by `Game.verify` and `Game.apply`."""

    __slots__ = ("rules", "_pos", "_top", "_at", "slap")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._pos = run_positions(rules)
        ranks = rules.ranks
        self._top = len(ranks) if rules.ace_in_runs == "low_or_high" else None  # an ace's place after the king
        self._at = {(suit, place): Card.of(rank, suit) for suit in Suit for place, rank in enumerate(ranks)}
        if self._top is not None:
            self._at.update({(suit, self._top): Card.of(Rank.ACE, suit) for suit in Suit})
        self.slap = rules.slap != "off"

    # ------------------------------------------------------------------ the game's hooks

    def verify_extra_discard(self, g, seat: int, action: Action) -> None:
        """slap: while a slapper owes its extra discard, that discard is the only action."""
        if seat != g.hs.slapper:
            raise NotYourTurn(t('{player} slapped and must discard one card first.', player=g.players[g.hs.slapper]))
        if type(action) is not Discard:
            raise IllegalAction(t('You slapped: discard one card from your hand.'))
        g._require_in_hand(action.card, g.hands[seat])

    def verify_take(self, g, seat: int) -> None:
        """take must be used: the discard may be taken only to spread or hit with at once."""
        top = g.discard[-1]
        if self.rules.take_must_be_used and not self._usable(g, g.hands[seat], top):
            raise IllegalAction(t('House rule (take must be used): take {card} only to spread or hit with it at once.', card=top))

    def verify_discard(self, g, seat: int, hand) -> None:
        """take must be used, hit bars going out and must spread, on a discard."""
        self.require_taken_used(g, "discard")
        if self._barred_out(g) and len(hand) == 1:
            raise IllegalAction(t('House rule (hit bars going out): you were hit, so you cannot empty your hand this turn.'))
        if self.rules.must_spread != "off" and self._has_layable_spread(g, seat):
            raise IllegalAction(t('House rule (must spread): lay the spread you hold before you discard.'))

    def verify_taken_kept(self, g, seat: int, action) -> None:
        """take must be used: a lay may not leave the taken card with no use."""
        taken = g.hs.taken
        if taken is not None and taken in g.hands[seat] and self._strands_taken(g, seat, action):
            raise IllegalAction(t('House rule (take must be used): that would leave the {card} you took with no spread or hit to play it in.', card=taken))

    def new_spread(self, seat: int, action: Spread) -> TableSpread:
        """The spread a legal `Spread` lays: wild cards named, a run in order (ace high or low)."""
        named = action.named
        natural = [named.get(c, c) for c in action.cards]
        spread_kind = self._kind_of(natural)
        cards = list(action.cards)
        if spread_kind == "run":
            place = dict(zip(natural, self._run_places(natural)))
            cards.sort(key=lambda c: place[named.get(c, c)])
        return TableSpread(seat, spread_kind, cards, dict(named) if named else None)

    def is_wild(self, card: Card) -> bool:
        """Can this card be played as a wild card at this table?"""
        kind = self.rules.wild_cards
        if kind == "none":
            return False
        return card.joker != 0 or (kind == "deuces_and_jokers" and card.rank is Rank.TWO)

    def legal_slaps(self, g, seat: int) -> list[Slap]:
        if self.rules.slap == "off" or g.phase == OVER:
            return []
        if self.may_override(g, seat):
            # the next player may still take over the pending slap: the table as it was
            snap = g.hs.pending[1]
            return [a for a in self._as_before(g, snap, self._slap_candidates, g) if g.is_legal(seat, a)]
        if g.hs.window is None or not g.discard:
            return []
        return [a for a in self._slap_candidates(g) if g.is_legal(seat, a)]

    def may_override(self, g, seat: int) -> bool:
        """next player first: may `seat` (the next player) take over a slap made before theirs?"""
        return (self.rules.slap == "next_player_first" and g.hs.pending is not None
                and seat == g.turn and g.hs.pending[0] != seat)

    def _as_before(self, g, snap: tuple, fn, *args):
        """Call `fn` on the table as it was before the pending slap (discard pile and spreads)."""
        saved = g.discard, g.spreads
        g.discard, g.spreads = snap[1], snap[2]
        try:
            return fn(*args)
        finally:
            g.discard, g.spreads = saved

    def legal_actions(self, g, seat: int) -> list[Action]:
        if g.phase == OVER or not isinstance(seat, int) or not 0 <= seat < g.num_players:
            return []
        slaps = self.legal_slaps(g, seat)
        if g.phase == SLAP_DISCARD:
            if seat != g.hs.slapper:
                return slaps
            return [Discard(c) for c in g.hands[seat]]
        if seat != g.turn:
            return slaps
        hand = g.hands[seat]
        if g.phase == START:
            candidates: list[Action] = [CLAIM, DROP, DRAW, TAKE]
        else:
            candidates = [DROP]
            candidates.extend(self._spread_candidates(g, hand))
            candidates.extend(self._hit_candidates(g, hand))
            candidates.extend(self._swap_candidates(g, hand))
            candidates.extend(Discard(c) for c in hand)
        return [a for a in candidates if g.is_legal(seat, a)] + slaps

    # ------------------------------------------------------------------ cards on the table

    def _table_cards(self, g) -> set:
        """Every card on the table, each wild card as the card it stands for."""
        cards = set()
        for s in g.spreads:
            cards.update(s.natural())
        return cards

    def _places(self, card: Card) -> tuple[int, ...]:
        """Where a card may sit in a run: its place, and for an ace also after the king."""
        p = self._pos[card.rank]
        if self._top is not None and card.rank is Rank.ACE:
            return (p, self._top)
        return (p,)

    def _run_places(self, cards) -> list[int]:
        """Each natural card's place in a run of these cards: an ace is high (after the
        king) when the house rule allows it and the cards hold a king and no two."""
        pos = self._pos
        top = self._top
        if top is not None:
            ranks = {c.rank for c in cards}
            if Rank.ACE in ranks and Rank.KING in ranks and Rank.TWO not in ranks:
                return [top if c.rank is Rank.ACE else pos[c.rank] for c in cards]
        return [pos[c.rank] for c in cards]

    def _run_ends(self, cards) -> tuple[int, int]:
        places = self._run_places(cards)
        return min(places), max(places)

    def _card_at(self, suit: Suit, place: int) -> Card | None:
        """The card at a place of a suit's run (the ace also after the king, when allowed)."""
        return self._at.get((suit, place))

    def _kind_of(self, cards) -> str | None:
        """"book" or "run" for natural cards (wild cards already named), or None."""
        first = cards[0]
        if any(c.joker for c in cards):
            return None
        if all(c.rank is first.rank for c in cards):
            return "book" if len(cards) <= 4 and len({c.suit for c in cards}) == len(cards) else None
        if all(c.suit is first.suit for c in cards):
            places = self._run_places(cards)
            if len(set(places)) == len(cards) and max(places) - min(places) + 1 == len(cards):
                return "run"
        return None

    def _open_cards(self, spread: TableSpread) -> list[Card]:
        """The natural cards that would extend a spread now (a hit or a wild card's name)."""
        natural = spread.natural()
        if spread.kind == "book":
            if not self.rules.hit_books or len(natural) >= 4:
                return []
            suits = {c.suit for c in natural}
            return [Card.of(natural[0].rank, s) for s in Suit if s not in suits]
        lo, hi = self._run_ends(natural)
        suit = natural[0].suit
        out = []
        for place in (lo - 1, hi + 1):
            card = self._card_at(suit, place)
            if card is not None and card not in natural and card not in out:
                out.append(card)
        return out

    def fits(self, card: Card, spread: TableSpread) -> bool:
        return not card.joker and card in self._open_cards(spread)

    # ------------------------------------------------------------------ candidates

    def _spread_candidates(self, g, hand) -> list[Spread]:
        found = [Spread(cards) for cards in spreads_in(hand, self._pos)]
        if self._top is not None:
            found.extend(Spread(cards) for cards in self._high_ace_runs(hand))
        if self.rules.wild_cards != "none" and any(self.is_wild(c) for c in hand):
            found.extend(self._wild_spreads(g, hand))
        return found

    def _high_ace_runs(self, hand) -> list[tuple]:
        """Runs that end in an ace after the king (Q-K-A, J-Q-K-A, ...)."""
        out = []
        for suit in Suit:
            ace = Card.of(Rank.ACE, suit)
            if ace not in hand:
                continue
            run = [ace]
            place = self._top - 1
            while True:
                card = self._card_at(suit, place)
                if card is None or card not in hand or card is ace:
                    break
                run.append(card)
                if len(run) >= 3:
                    out.append(tuple(run))
                place -= 1
        return out

    def _wild_spreads(self, g, hand) -> list[Spread]:
        """Books and runs with wild cards: the natural cards held there, each gap filled
        by wild cards (one naming per choice of wild cards; any other naming is legal too)."""
        wilds = [c for c in hand if self.is_wild(c)]
        on_table = self._table_cards(g)
        found: list[Spread] = []
        by_rank: dict = {}
        by_suit: dict = {}
        for c in hand:
            if not c.joker:
                by_rank.setdefault(c.rank, []).append(c)
                by_suit.setdefault(c.suit, []).append(c)
        for rank, naturals in by_rank.items():
            if len(naturals) < 2:
                continue
            pool = [w for w in wilds if w not in naturals]
            held = {c.suit for c in naturals}
            missing = [Card.of(rank, s) for s in Suit if s not in held and Card.of(rank, s) not in on_table]
            for k in range(1, min(len(pool), 4 - len(naturals), len(missing)) + 1):
                for chosen in combinations(pool, k):
                    found.append(Spread(tuple(naturals) + chosen, tuple(zip(chosen, missing))))
        longest = len(self.rules.ranks)
        last = self._top if self._top is not None else longest - 1
        for suit, cards in by_suit.items():
            if len(cards) < 2:
                continue
            for lo in range(0, last + 1):
                for hi in range(lo + 2, min(last, lo + longest - 1) + 1):
                    naturals, gaps = [], []
                    for place in range(lo, hi + 1):
                        card = self._card_at(suit, place)
                        if card in cards and card not in naturals:
                            naturals.append(card)
                        else:
                            gaps.append(card)
                    if len(naturals) < 2 or not gaps or any(gap in on_table for gap in gaps):
                        continue
                    pool = [w for w in wilds if w not in naturals]
                    if len(gaps) > len(pool):
                        continue
                    for chosen in combinations(pool, len(gaps)):
                        found.append(Spread(tuple(naturals) + chosen, tuple(zip(chosen, gaps))))
        return found

    def _hit_candidates(self, g, hand) -> list[Hit]:
        out = []
        on_table = None
        for i, spread in enumerate(g.spreads):
            open_cards = self._open_cards(spread)
            if not open_cards:
                continue
            for card in hand:
                if card in open_cards:
                    out.append(Hit(card, i))
                if self.is_wild(card):
                    if on_table is None:
                        on_table = self._table_cards(g)
                    out.extend(Hit(card, i, e) for e in open_cards if e not in on_table)
        return out

    def _swap_candidates(self, g, hand) -> list[Swap]:
        if not self.rules.wild_swap:
            return []
        return [Swap(n, i) for i, s in enumerate(g.spreads) if s.named for n in s.named.values() if n in hand]

    def _slap_candidates(self, g) -> list[Slap]:
        top = g.discard[-1]
        out = []
        on_table = None
        for i, spread in enumerate(g.spreads):
            open_cards = self._open_cards(spread)
            if top in open_cards:
                out.append(Slap(i))
            if self.is_wild(top):
                if on_table is None:
                    on_table = self._table_cards(g)
                out.extend(Slap(i, e) for e in open_cards if e not in on_table)
        return out

    # ------------------------------------------------------------------ verifying

    def _strands_taken(self, g, seat: int, action) -> bool:
        """take must be used: after this lay, could the taken card still be spread or hit?"""
        taken = g.hs.taken
        if taken in getattr(action, "cards", ()) or getattr(action, "card", None) is taken:
            return False
        snap = g._snapshot()
        hand = g.hands[seat]
        try:
            if type(action) is Spread:
                for c in action.cards:
                    hand.remove(c)
                named = action.named
                natural = [named.get(c, c) for c in action.cards]
                g.spreads.append(TableSpread(seat, self._kind_of(natural), list(action.cards), named or None))
            elif type(action) is Hit:
                hand.remove(action.card)
                self.place(g.spreads[action.spread], action.card, action.stands_for)
            else:
                return False  # a swap leaves the table's open ends as they were
            rest = [c for c in hand if c is not taken]
            return not self._usable(g, rest, taken)
        finally:
            g._restore(snap)

    def verify_claim(self, g, seat: int) -> None:
        if not any(h.when == "turn" for h in self.rules.instant_list):
            raise IllegalAction(t('There are no instant hands to claim in turn at this table.'))
        if g.hs.own_turns[seat] != 1:
            raise IllegalAction(t('An instant hand can only be claimed at the start of your first turn.'))
        if g.spreads:
            raise IllegalAction(t('Too late to claim: a spread has been laid.'))
        if seat not in self.turn_claims(g):
            raise IllegalAction(t('Your hand is not an instant hand.'))

    def turn_claims(self, g) -> dict:
        return instant_claims(self.rules, g.hands, g.counts(), when="turn")

    def require_taken_used(self, g, what: str) -> None:
        taken = g.hs.taken
        if taken is not None and taken in g.hands[g.turn]:
            if what == "drop":
                raise IllegalAction(t('House rule (take must be used): spread or hit with the {card} you took before you drop.', card=taken))
            raise IllegalAction(t('House rule (take must be used): spread or hit with the {card} you took before you discard.', card=taken))

    def _barred_out(self, g) -> bool:
        return self.rules.hit_bars_going_out and g.hs.barred_by_hit

    def _keep_after_lay(self, g) -> int:
        """Cards a lay must leave in hand: under 'hit bars going out', one to discard and
        one to keep (so the turn can still end without emptying the hand)."""
        return 2 if self._barred_out(g) else 0

    def verify_hit(self, g, seat: int, action) -> None:
        rules = self.rules
        hand = g.hands[seat]
        swap = type(action) is Swap
        g._require_in_hand(action.card, hand)
        if swap and not rules.wild_swap:
            raise IllegalAction(t('House rule: there are no wild swaps at this table.'))
        if not isinstance(action.spread, int) or not 0 <= action.spread < len(g.spreads):
            raise IllegalAction(t('There is no such spread on the table.'))
        if rules.hits_per_turn and g.hs.hits_this_turn >= rules.hits_per_turn:
            raise IllegalAction(t('House rule (hits per turn): one hit a turn.'))
        spread = g.spreads[action.spread]
        if swap:
            if action.card.joker or action.card not in (spread.named or {}).values():
                raise IllegalAction(t('No wild card in that spread stands for {card}: swap a natural card for the wild card standing for it.', card=action.card))
        else:
            self._verify_fit(g, action.card, action.stands_for, spread)
            left = len(hand) - 1
            keep = self._keep_after_lay(g)
            if keep and left < (1 if rules.hit_ends_turn else keep):
                raise IllegalAction(t('House rule (hit bars going out): you were hit, so you cannot empty your hand this turn.'))
        if rules.hit_ends_turn and g.hs.taken is not None and g.hs.taken in hand and g.hs.taken is not action.card:
            raise IllegalAction(t('House rule (take must be used): a hit ends your turn, and the {card} you took is still in your hand.', card=g.hs.taken))

    def _verify_fit(self, g, card: Card, stands_for, spread: TableSpread) -> None:
        open_cards = self._open_cards(spread)
        if stands_for is not None:
            self._verify_names(g, {card: stands_for})
            if stands_for not in open_cards:
                raise IllegalAction(t('{card} cannot stand for {other} in that spread.', card=card, other=stands_for))
            return
        if card.joker:
            if self.rules.wild_cards == "none":
                raise IllegalAction(t('Jokers cannot be played on spreads.'))
            raise IllegalAction(t('Say what the joker stands for (house rule: wild cards).'))
        if card not in open_cards:
            if spread.kind == "book" and not self.rules.hit_books:
                raise IllegalAction(t('House rule: you can hit runs only, not books.'))
            if spread.kind == "book" and len(spread.cards) >= 4:
                raise IllegalAction(t('That book already has all four cards.'))
            if card in spread.natural():
                raise IllegalAction(t('A wild card already stands for {card} there: swap it (if wild swap is on).', card=card))
            if spread.kind == "book":
                raise IllegalAction(t('{card} does not fit that book.', card=card))
            if self._top is not None:
                raise IllegalAction(t('{card} does not fit that run (same suit, at either end; A is low or high).', card=card))
            raise IllegalAction(t('{card} does not fit that run (same suit, at either end; A is low).', card=card))

    def _verify_names(self, g, named: dict) -> None:
        """Each wild card may name one natural card of this deck, not on the table, once."""
        if self.rules.wild_cards == "none":
            raise IllegalAction(t('House rule: there are no wild cards at this table.'))
        deck_ranks = set(self.rules.ranks)
        on_table = self._table_cards(g)
        seen = set()
        for wild, card in named.items():
            if not isinstance(wild, Card) or not isinstance(card, Card):
                raise IllegalAction(t('That is not a card.'))
            if not self.is_wild(wild):
                raise IllegalAction(t('{card} is not a wild card at this table.', card=wild))
            if card.joker or card.rank not in deck_ranks:
                raise IllegalAction(t('A wild card stands for a card of this deck, not {card}.', card=card))
            if card in on_table:
                raise IllegalAction(t('{card} is on the table already: a wild card cannot stand for it.', card=card))
            if card in seen:
                raise IllegalAction(t('Two wild cards cannot stand for the same card ({card}).', card=card))
            seen.add(card)

    def verify_spread(self, g, seat: int, action: Spread) -> None:
        hand = g.hands[seat]
        cards = action.cards
        g._require_spread_cards(cards, hand)
        named = action.named
        if named:
            if any(w not in cards for w in named):
                raise IllegalAction(t('Name only the wild cards of the spread.'))
            self._verify_names(g, named)
            if len(cards) - len(named) < 2:
                raise IllegalAction(t('House rule (wild cards): a spread needs at least two natural cards.'))
            if any(n in cards for n in named.values()):
                raise IllegalAction(t('A wild card cannot stand for a card in the same spread.'))
        elif any(c.joker for c in cards):
            if self.rules.wild_cards == "none":
                raise IllegalAction(t('Jokers cannot be spread.'))
            raise IllegalAction(t('Say what each joker stands for (house rule: wild cards).'))
        natural = [named.get(c, c) for c in cards]
        if self._kind_of(natural) is None:
            ace = t("A is low or high, never both") if self._top is not None else t("A is low")
            raise IllegalAction(
                t('Those cards are neither a book (3 or 4 of one rank) nor a run (3 or more of one suit in sequence; {ace}).', ace=ace)
            )
        keep = self._keep_after_lay(g)
        if keep and len(hand) - len(cards) < keep:
            raise IllegalAction(t('House rule (hit bars going out): you were hit, so you cannot empty your hand this turn.'))

    def _has_layable_spread(self, g, seat: int) -> bool:
        """must spread: does the hand hold a spread it may lay now? (with
        `on_but_three_aces`, a spread of natural aces only does not count)"""
        aces = self.rules.must_spread == "on_but_three_aces"
        for spread in self._spread_candidates(g, g.hands[seat]):
            if aces and not spread.wilds and all(c.rank is Rank.ACE for c in spread.cards):
                continue
            try:
                self.verify_spread(g, seat, spread)
            except TonkError:
                continue
            return True
        return False

    def _usable(self, g, hand, top: Card) -> bool:
        """take must be used: could `top` be spread or hit with at once after taking it?"""
        after = list(hand) + [top]
        keep = self._keep_after_lay(g)
        for spread in self._spread_candidates(g, after):
            if top in spread.cards and len(after) - len(spread.cards) >= keep:
                return True
        if keep and len(after) - 1 < (1 if self.rules.hit_ends_turn else keep):
            return False  # a hit would leave too few cards (hit bars going out)
        wild = self.is_wild(top)
        on_table = self._table_cards(g) if wild else set()
        for spread in g.spreads:
            open_cards = self._open_cards(spread)
            if top in open_cards or (wild and any(e not in on_table for e in open_cards)):
                return True
        return False

    def verify_slap(self, g, seat: int, action: Slap) -> None:
        rules = self.rules
        if rules.slap == "off":
            raise IllegalAction(t('House rule: there is no slapping at this table.'))
        next_first = rules.slap == "next_player_first"
        override = self.may_override(g, seat)
        if g.phase == SLAP_DISCARD and not override:
            raise IllegalAction(t('{player} slapped that card first.', player=g.players[g.hs.slapper]))
        if g.phase == PLAY:
            raise IllegalAction(t('Too late to slap: the next player has drawn.'))
        if g.hs.window is None and not override:
            raise IllegalAction(t('There is no discard to slap now.'))
        if g.hs.boobed[seat] and seat == g.turn:
            raise IllegalAction(t('House rule (boobed): you emptied your hand too late to win; you must drop.'))
        discarder = g.hs.pending[2] if override else g.hs.window
        extra = seat != discarder and not (next_first and seat == g.turn)
        if extra and not g.hands[seat]:
            raise IllegalAction(t('You need a card in hand to discard after a slap.'))
        if override:
            self._as_before(g, g.hs.pending[1], self._verify_slap_fit, g, action)
        else:
            self._verify_slap_fit(g, action)

    def _verify_slap_fit(self, g, action: Slap) -> None:
        if not isinstance(action.spread, int) or not 0 <= action.spread < len(g.spreads):
            raise IllegalAction(t('There is no such spread on the table.'))
        self._verify_fit(g, g.discard[-1], action.stands_for, g.spreads[action.spread])

    # ------------------------------------------------------------------ applying

    def place(self, spread: TableSpread, card: Card, stands_for) -> None:
        if stands_for is not None:
            if spread.named is None:
                spread.named = {}
            spread.named[card] = stands_for
        natural = stands_for or card
        if spread.kind == "run":
            cards = spread.natural()
            lo, _ = self._run_ends(cards)
            places = self._places(natural)
            if lo - 1 in places and self._card_at(natural.suit, lo - 1) is natural:
                spread.cards.insert(0, card)
                return
        spread.cards.append(card)

    def all_hit(self, g, cards) -> bool:
        """double double: could these cards all be laid as hits, one after another?"""
        if not cards:
            return True
        saved = [(s, list(s.cards), dict(s.named) if s.named else None) for s in g.spreads]
        try:
            return self._hit_all(g, list(cards))
        finally:
            for s, c, named in saved:
                s.cards, s.named = c, named

    def _hit_all(self, g, cards: list) -> bool:
        if not cards:
            return True
        on_table = None
        for card in cards:
            for spread in g.spreads:
                open_cards = self._open_cards(spread)
                if card in open_cards:
                    names = [None]
                elif self.is_wild(card):
                    on_table = self._table_cards(g) if on_table is None else on_table
                    names = [e for e in open_cards if e not in on_table]
                else:
                    continue
                for name in names:
                    before, named = list(spread.cards), dict(spread.named) if spread.named else None
                    self.place(spread, card, name)
                    rest = [c for c in cards if c is not card]
                    if self._hit_all(g, rest):
                        return True
                    spread.cards, spread.named = before, named
                    if name is None:
                        return False  # a natural hit never blocks another: no other order helps
        return False
