"""The house rules of RULES.md section 9 (and the side bets of section 10) in one Game.

`Game.deal` makes a `HouseGame` whenever the rules need one (`Rules.house`) or side
bets are on, so the standard engine keeps its fast paths. Here `legal_actions` is the
candidate actions filtered by `verify`, so the buttons a seat sees and the refusals it
gets can never disagree; every refusal names the house rule that forbids the action.

Slap windows: after a discard whose card fits a spread on the table, any seat may slap
it (`legal_actions(seat)` lists the slaps for every seat, not only the seat to play)
until the next player draws or takes. A slapper other than the discarder owes one extra
discard (`phase == SLAP_DISCARD`, `to_act` is the slapper) before play goes on.
"""

from __future__ import annotations

from itertools import combinations

from .actions import CLAIM, DRAW, DROP, TAKE, Action, Claim, Discard, Draw, Drop, Hit, Slap, Spread, Swap, TakeDiscard
from .cards import Card, Rank, Suit
from .errors import IllegalAction, NotYourTurn, TonkError
from .game import OVER, PLAY, START, Game, TableSpread, spreads_in
from .outcome import Outcome, instant_claims, win_by_one
from .session import high_card_winner, high_cards, settle_side_bets

SLAP_DISCARD = "slap_discard"  # a slapper owes the table one extra discard


class HouseGame(Game):
    """A hand under house rules of RULES.md section 9. Build it with `Game.deal`."""

    __slots__ = (
        "own_turns", "hits_this_turn", "taken", "hit_waits", "barred_by_hit", "hit_any", "boobed",
        "window", "slapper", "pending", "side_bets", "side_cards", "naturals_winner", "swaps", "_top", "_at",
    )

    # ------------------------------------------------------------------ set-up and state

    def _setup(self, side_bets) -> None:
        n = len(self.players)
        self.own_turns = [0] * n
        self.hits_this_turn = 0
        self.taken = None
        self.hit_waits = [0] * n
        self.barred_by_hit = False
        self.hit_any = [False] * n
        self.boobed = [False] * n
        self.window = None  # the seat whose discard may be slapped now
        self.slapper = None
        self.pending = None  # next player first: (slapper, state before that slap)
        self.side_bets = dict(side_bets or {})
        self.side_cards = [None] * n
        self.naturals_winner = None
        self.swaps = []  # the wild card each swap took into hand, in order (public)
        ranks = self.rules.ranks
        self._top = len(ranks) if self.rules.ace_in_runs == "low_or_high" else None
        self._at = {(suit, place): Card.of(rank, suit) for suit in Suit for place, rank in enumerate(ranks)}
        if self._top is not None:
            self._at.update({(suit, self._top): Card.of(Rank.ACE, suit) for suit in Suit})
        bet = self.side_bets.get("high_card")
        if bet is not None:
            self.side_cards = high_cards(bet, self.hands)

    def _state_extra(self) -> dict:
        code = _code
        return {
            "house": {
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
        }

    def _load_extra(self, data: dict) -> None:
        from .session import side_bets_from_record

        house = data.get("house") or {}
        n = len(self.players)
        bets = house.get("side_bets") or None
        self._setup(side_bets_from_record(bets, n, self.stake) if bets else None)
        parse = _parse
        self.own_turns = list(house.get("own_turns", self.own_turns))
        self.hits_this_turn = house.get("hits_this_turn", 0)
        self.taken = parse(house.get("taken"))
        self.hit_waits = list(house.get("hit_waits", self.hit_waits))
        self.barred_by_hit = house.get("barred_by_hit", False)
        self.hit_any = list(house.get("hit_any", self.hit_any))
        self.boobed = list(house.get("boobed", self.boobed))
        self.window = house.get("window")
        self.slapper = house.get("slapper")
        pending = house.get("pending")
        self.pending = None if pending is None else (pending[0], _thaw(pending[1]), pending[2])
        if "side_cards" in house:
            self.side_cards = [parse(c) for c in house["side_cards"]]
        self.naturals_winner = house.get("naturals_winner")
        self.swaps = [parse(c) for c in house.get("swaps", [])]

    def copy(self) -> "HouseGame":
        game = super().copy()
        for name in HouseGame.__slots__:
            value = getattr(self, name)
            setattr(game, name, list(value) if isinstance(value, list) else value)
        game.side_bets = dict(self.side_bets)
        return game

    def _snapshot(self) -> tuple:
        """What a slap changes, so that the next player's slap can override it."""
        return (
            [list(h) for h in self.hands], list(self.discard),
            [TableSpread(s.owner, s.kind, list(s.cards), dict(s.named) if s.named else None) for s in self.spreads],
            list(self.waits), list(self.hit_waits), list(self.hit_flags), list(self.hit_any),
            self.phase, self.slapper, self.window, self.naturals_winner,
        )

    def _restore(self, snap: tuple) -> None:
        (hands, discard, spreads, self.waits, self.hit_waits, self.hit_flags, self.hit_any,
         self.phase, self.slapper, self.window, self.naturals_winner) = snap
        self.hands = [list(h) for h in hands]
        self.discard = list(discard)
        self.spreads = [TableSpread(s.owner, s.kind, list(s.cards), dict(s.named) if s.named else None)
                        for s in spreads]

    # ------------------------------------------------------------------ records

    def _record_extra(self) -> dict:
        if not self.side_bets:
            return {}
        return {"side_bets": {k: b.to_record() for k, b in self.side_bets.items()}}

    def side_winners(self) -> dict[str, int | None]:
        """The seat that wins each side bet of this hand so far (None: nobody, the pot carries)."""
        winners = {"naturals": self.naturals_winner}
        if "high_card" in self.side_bets:
            winners["high_card"] = high_card_winner(self.side_cards)
        return winners

    def side_result(self) -> tuple[list[int], dict[str, int]]:
        """(side_payments, pot_out) of this hand's side bets (RULES.md section 10)."""
        return settle_side_bets(self.side_bets, self.side_winners(), self.num_players)

    def result(self) -> dict:
        data = super().result()
        if self.side_bets and self.outcome is not None:
            payments, pot_out = self.side_result()
            data["side_payments"] = payments
            data["pot_out"] = pot_out
        return data

    # ------------------------------------------------------------------ queries

    @property
    def to_act(self) -> int:
        return self.slapper if self.phase == SLAP_DISCARD else self.turn

    def counts(self) -> list[int]:
        if self.rules.face_values == "ranked":
            value = self.rules.card_value
            return [sum(value(c) for c in h) for h in self.hands]
        return super().counts()

    def can_drop(self, seat: int) -> bool:
        return self.is_legal(seat, DROP)

    def is_wild(self, card: Card) -> bool:
        """Can this card be played as a wild card at this table?"""
        kind = self.rules.wild_cards
        if kind == "none":
            return False
        return card.joker != 0 or (kind == "deuces_and_jokers" and card.rank is Rank.TWO)

    def slap_window_open(self) -> bool:
        """Is there a discard that some seat may slap now?"""
        return any(self.legal_slaps(seat) for seat in range(self.num_players))

    def slappers(self) -> list[int]:
        """The seats that may slap now (the bot enables its Slap! button for them)."""
        return [seat for seat in range(self.num_players) if self.legal_slaps(seat)]

    def legal_slaps(self, seat: int) -> list[Slap]:
        if self.rules.slap == "off" or self.phase == OVER:
            return []
        if self._may_override(seat):
            # the next player may still take over the pending slap: the table as it was
            snap = self.pending[1]
            return [a for a in self._as_before(snap, self._slap_candidates) if self.is_legal(seat, a)]
        if self.window is None or not self.discard:
            return []
        return [a for a in self._slap_candidates() if self.is_legal(seat, a)]

    def _may_override(self, seat: int) -> bool:
        """next player first: may `seat` (the next player) take over a slap made before theirs?"""
        return (self.rules.slap == "next_player_first" and self.pending is not None
                and seat == self.turn and self.pending[0] != seat)

    def _as_before(self, snap: tuple, fn, *args):
        """Call `fn` on the table as it was before the pending slap (discard pile and spreads)."""
        saved = self.discard, self.spreads
        self.discard, self.spreads = snap[1], snap[2]
        try:
            return fn(*args)
        finally:
            self.discard, self.spreads = saved

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == OVER or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            return []
        slaps = self.legal_slaps(seat)
        if self.phase == SLAP_DISCARD:
            if seat != self.slapper:
                return slaps
            return [Discard(c) for c in self.hands[seat]]
        if seat != self.turn:
            return slaps
        hand = self.hands[seat]
        if self.phase == START:
            candidates: list[Action] = [CLAIM, DROP, DRAW, TAKE]
        else:
            candidates = [DROP]
            candidates.extend(self._spread_candidates(hand))
            candidates.extend(self._hit_candidates(hand))
            candidates.extend(self._swap_candidates(hand))
            candidates.extend(Discard(c) for c in hand)
        return [a for a in candidates if self.is_legal(seat, a)] + slaps

    # ------------------------------------------------------------------ cards on the table

    def _table_cards(self) -> set:
        """Every card on the table, each wild card as the card it stands for."""
        cards = set()
        for s in self.spreads:
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

    def _fits(self, card: Card, spread: TableSpread) -> bool:
        return not card.joker and card in self._open_cards(spread)

    # ------------------------------------------------------------------ candidates

    def _spread_candidates(self, hand) -> list[Spread]:
        found = [Spread(cards) for cards in spreads_in(hand, self._pos)]
        if self._top is not None:
            found.extend(Spread(cards) for cards in self._high_ace_runs(hand))
        if self.rules.wild_cards != "none" and any(self.is_wild(c) for c in hand):
            found.extend(self._wild_spreads(hand))
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

    def _wild_spreads(self, hand) -> list[Spread]:
        """Books and runs with wild cards: the natural cards held there, each gap filled
        by wild cards (one naming per choice of wild cards; any other naming is legal too)."""
        wilds = [c for c in hand if self.is_wild(c)]
        on_table = self._table_cards()
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
                    if len(naturals) < 2 or not gaps or any(g in on_table for g in gaps):
                        continue
                    pool = [w for w in wilds if w not in naturals]
                    if len(gaps) > len(pool):
                        continue
                    for chosen in combinations(pool, len(gaps)):
                        found.append(Spread(tuple(naturals) + chosen, tuple(zip(chosen, gaps))))
        return found

    def _hit_candidates(self, hand) -> list[Hit]:
        out = []
        on_table = None
        for i, spread in enumerate(self.spreads):
            open_cards = self._open_cards(spread)
            if not open_cards:
                continue
            for card in hand:
                if card in open_cards:
                    out.append(Hit(card, i))
                if self.is_wild(card):
                    if on_table is None:
                        on_table = self._table_cards()
                    out.extend(Hit(card, i, e) for e in open_cards if e not in on_table)
        return out

    def _swap_candidates(self, hand) -> list[Swap]:
        if not self.rules.wild_swap:
            return []
        return [Swap(n, i) for i, s in enumerate(self.spreads) if s.named for n in s.named.values() if n in hand]

    def _slap_candidates(self) -> list[Slap]:
        top = self.discard[-1]
        out = []
        on_table = None
        for i, spread in enumerate(self.spreads):
            open_cards = self._open_cards(spread)
            if top in open_cards:
                out.append(Slap(i))
            if self.is_wild(top):
                if on_table is None:
                    on_table = self._table_cards()
                out.extend(Slap(i, e) for e in open_cards if e not in on_table)
        return out

    # ------------------------------------------------------------------ verifying

    def verify(self, seat: int, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalAction("This hand is over.")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise IllegalAction("There is no such seat at this table.")
        kind = type(action)
        if kind is Slap:
            return self._verify_slap(seat, action)
        if self.phase == SLAP_DISCARD:
            if seat != self.slapper:
                raise NotYourTurn(f"{self.players[self.slapper]} slapped and must discard one card first.")
            if kind is not Discard:
                raise IllegalAction("You slapped: discard one card from your hand.")
            self._require_in_hand(action.card, self.hands[seat])
            return
        if seat != self.turn:
            raise NotYourTurn(f"It is {self.players[self.turn]}'s turn, not yours.")
        rules = self.rules
        hand = self.hands[seat]
        if self.boobed[seat] and kind is not Drop:
            raise IllegalAction("House rule (boobed): you emptied your hand too late to win; you must drop.")
        if self.phase == START:
            if kind is Claim:
                return self._verify_claim(seat)
            if kind is Drop and self.boobed[seat]:
                return  # even while waiting
            if kind is Swap:
                raise IllegalAction("Draw from the stock or take the discard first (or drop).")
            super().verify(seat, action)  # the standard game's order of play
            if kind is TakeDiscard and rules.take_must_be_used and not self._usable(hand, self.discard[-1]):
                raise IllegalAction(f"House rule (take must be used): take {self.discard[-1].label} only to spread "
                                    "or hit with it at once.")
            return
        # PLAY
        if kind is Claim:
            raise IllegalAction("An instant hand is claimed at the start of your first turn, before you draw.")
        if kind is Drop:
            if rules.drop_when != "any_time":
                raise IllegalAction("You can only drop at the start of your turn, before you draw.")
            if self.drop_blocked:
                raise IllegalAction("You are waiting: you cannot drop on this turn.")
            self._require_taken_used("drop")
            return
        if kind is Draw or kind is TakeDiscard:
            raise IllegalAction("You have already drawn this turn: spread, hit or discard.")
        if kind is Discard:
            self._require_in_hand(action.card, hand)
            self._require_taken_used("discard")
            if self._barred_out() and len(hand) == 1:
                raise IllegalAction("House rule (hit bars going out): you were hit, so you cannot empty your hand "
                                    "this turn.")
            if rules.must_spread != "off" and self._has_layable_spread(seat):
                raise IllegalAction("House rule (must spread): lay the spread you hold before you discard.")
            return
        if kind is Hit or kind is Swap:
            self._verify_hit(seat, action)
        elif kind is Spread:
            self._verify_spread(seat, action)
        else:
            raise IllegalAction("That is not a Tonk action.")
        if self.taken is not None and self.taken in hand and self._strands_taken(seat, action):
            raise IllegalAction(f"House rule (take must be used): that would leave the {self.taken.label} you took "
                                "with no spread or hit to play it in.")

    def _strands_taken(self, seat: int, action) -> bool:
        """take must be used: after this lay, could the taken card still be spread or hit?"""
        taken = self.taken
        if taken in getattr(action, "cards", ()) or getattr(action, "card", None) is taken:
            return False
        snap = self._snapshot()
        hand = self.hands[seat]
        try:
            if type(action) is Spread:
                for c in action.cards:
                    hand.remove(c)
                named = action.named
                natural = [named.get(c, c) for c in action.cards]
                self.spreads.append(TableSpread(seat, self._kind_of(natural), list(action.cards), named or None))
            elif type(action) is Hit:
                hand.remove(action.card)
                self._place(self.spreads[action.spread], action.card, action.stands_for)
            else:
                return False  # a swap leaves the table's open ends as they were
            rest = [c for c in hand if c is not taken]
            return not self._usable(rest, taken)
        finally:
            self._restore(snap)

    def _verify_claim(self, seat: int) -> None:
        if not any(h.when == "turn" for h in self.rules.instant_list):
            raise IllegalAction("There are no instant hands to claim in turn at this table.")
        if self.own_turns[seat] != 1:
            raise IllegalAction("An instant hand can only be claimed at the start of your first turn.")
        if self.spreads:
            raise IllegalAction("Too late to claim: a spread has been laid.")
        if seat not in self._turn_claims():
            raise IllegalAction("Your hand is not an instant hand.")

    def _turn_claims(self) -> dict:
        return instant_claims(self.rules, self.hands, self.counts(), when="turn")

    def _require_taken_used(self, what: str) -> None:
        taken = self.taken
        if taken is not None and taken in self.hands[self.turn]:
            raise IllegalAction(f"House rule (take must be used): spread or hit with the {taken.label} you took "
                                f"before you {what}.")

    def _barred_out(self) -> bool:
        return self.rules.hit_bars_going_out and self.barred_by_hit

    def _keep_after_lay(self) -> int:
        """Cards a lay must leave in hand: under 'hit bars going out', one to discard and
        one to keep (so the turn can still end without emptying the hand)."""
        return 2 if self._barred_out() else 0

    def _verify_hit(self, seat: int, action) -> None:
        rules = self.rules
        hand = self.hands[seat]
        swap = type(action) is Swap
        self._require_in_hand(action.card, hand)
        if swap and not rules.wild_swap:
            raise IllegalAction("House rule: there are no wild swaps at this table.")
        if not isinstance(action.spread, int) or not 0 <= action.spread < len(self.spreads):
            raise IllegalAction("There is no such spread on the table.")
        if rules.hits_per_turn and self.hits_this_turn >= rules.hits_per_turn:
            raise IllegalAction("House rule (hits per turn): one hit a turn.")
        spread = self.spreads[action.spread]
        if swap:
            if action.card.joker or action.card not in (spread.named or {}).values():
                raise IllegalAction(f"No wild card in that spread stands for {action.card.label}: swap a natural "
                                    "card for the wild card standing for it.")
        else:
            self._verify_fit(action.card, action.stands_for, spread)
            left = len(hand) - 1
            keep = self._keep_after_lay()
            if keep and left < (1 if rules.hit_ends_turn else keep):
                raise IllegalAction("House rule (hit bars going out): you were hit, so you cannot empty your hand "
                                    "this turn.")
        if rules.hit_ends_turn and self.taken is not None and self.taken in hand and self.taken is not action.card:
            raise IllegalAction(f"House rule (take must be used): a hit ends your turn, and the {self.taken.label} "
                                "you took is still in your hand.")

    def _verify_fit(self, card: Card, stands_for, spread: TableSpread) -> None:
        open_cards = self._open_cards(spread)
        if stands_for is not None:
            self._verify_names({card: stands_for})
            if stands_for not in open_cards:
                raise IllegalAction(f"{card.label} cannot stand for {stands_for.label} in that spread.")
            return
        if card.joker:
            if self.rules.wild_cards == "none":
                raise IllegalAction("Jokers cannot be played on spreads.")
            raise IllegalAction("Say what the joker stands for (house rule: wild cards).")
        if card not in open_cards:
            if spread.kind == "book" and not self.rules.hit_books:
                raise IllegalAction("House rule: you can hit runs only, not books.")
            if spread.kind == "book" and len(spread.cards) >= 4:
                raise IllegalAction("That book already has all four cards.")
            if card in spread.natural():
                raise IllegalAction(f"A wild card already stands for {card.label} there: swap it (if wild swap is "
                                    "on).")
            ace = " or high" if self._top is not None else ""
            what = "book" if spread.kind == "book" else f"run (same suit, at either end; A is low{ace})"
            raise IllegalAction(f"{card.label} does not fit that {what}.")

    def _verify_names(self, named: dict) -> None:
        """Each wild card may name one natural card of this deck, not on the table, once."""
        if self.rules.wild_cards == "none":
            raise IllegalAction("House rule: there are no wild cards at this table.")
        deck_ranks = set(self.rules.ranks)
        on_table = self._table_cards()
        seen = set()
        for wild, card in named.items():
            if not isinstance(wild, Card) or not isinstance(card, Card):
                raise IllegalAction("That is not a card.")
            if not self.is_wild(wild):
                raise IllegalAction(f"{wild.label} is not a wild card at this table.")
            if card.joker or card.rank not in deck_ranks:
                raise IllegalAction(f"A wild card stands for a card of this deck, not {card.label}.")
            if card in on_table:
                raise IllegalAction(f"{card.label} is on the table already: a wild card cannot stand for it.")
            if card in seen:
                raise IllegalAction(f"Two wild cards cannot stand for the same card ({card.label}).")
            seen.add(card)

    def _verify_spread(self, seat: int, action: Spread) -> None:
        hand = self.hands[seat]
        cards = action.cards
        self._require_spread_cards(cards, hand)
        named = action.named
        if named:
            if any(w not in cards for w in named):
                raise IllegalAction("Name only the wild cards of the spread.")
            self._verify_names(named)
            if len(cards) - len(named) < 2:
                raise IllegalAction("House rule (wild cards): a spread needs at least two natural cards.")
            if any(n in cards for n in named.values()):
                raise IllegalAction("A wild card cannot stand for a card in the same spread.")
        elif any(c.joker for c in cards):
            if self.rules.wild_cards == "none":
                raise IllegalAction("Jokers cannot be spread.")
            raise IllegalAction("Say what each joker stands for (house rule: wild cards).")
        natural = [named.get(c, c) for c in cards]
        if self._kind_of(natural) is None:
            ace = "A is low or high, never both" if self._top is not None else "A is low"
            raise IllegalAction(
                "Those cards are neither a book (3 or 4 of one rank) nor a run "
                f"(3 or more of one suit in sequence; {ace})."
            )
        keep = self._keep_after_lay()
        if keep and len(hand) - len(cards) < keep:
            raise IllegalAction("House rule (hit bars going out): you were hit, so you cannot empty your hand "
                                "this turn.")

    def _has_layable_spread(self, seat: int) -> bool:
        """must spread: does the hand hold a spread it may lay now? (with
        `on_but_three_aces`, a spread of natural aces only does not count)"""
        aces = self.rules.must_spread == "on_but_three_aces"
        for spread in self._spread_candidates(self.hands[seat]):
            if aces and not spread.wilds and all(c.rank is Rank.ACE for c in spread.cards):
                continue
            try:
                self._verify_spread(seat, spread)
            except TonkError:
                continue
            return True
        return False

    def _usable(self, hand, top: Card) -> bool:
        """take must be used: could `top` be spread or hit with at once after taking it?"""
        after = list(hand) + [top]
        keep = self._keep_after_lay()
        for spread in self._spread_candidates(after):
            if top in spread.cards and len(after) - len(spread.cards) >= keep:
                return True
        if keep and len(after) - 1 < (1 if self.rules.hit_ends_turn else keep):
            return False  # a hit would leave too few cards (hit bars going out)
        wild = self.is_wild(top)
        on_table = self._table_cards() if wild else set()
        for spread in self.spreads:
            open_cards = self._open_cards(spread)
            if top in open_cards or (wild and any(e not in on_table for e in open_cards)):
                return True
        return False

    def _verify_slap(self, seat: int, action: Slap) -> None:
        rules = self.rules
        if rules.slap == "off":
            raise IllegalAction("House rule: there is no slapping at this table.")
        next_first = rules.slap == "next_player_first"
        override = self._may_override(seat)
        if self.phase == SLAP_DISCARD and not override:
            raise IllegalAction(f"{self.players[self.slapper]} slapped that card first.")
        if self.phase == PLAY:
            raise IllegalAction("Too late to slap: the next player has drawn.")
        if self.window is None and not override:
            raise IllegalAction("There is no discard to slap now.")
        if self.boobed[seat] and seat == self.turn:
            raise IllegalAction("House rule (boobed): you emptied your hand too late to win; you must drop.")
        discarder = self.pending[2] if override else self.window
        extra = seat != discarder and not (next_first and seat == self.turn)
        if extra and not self.hands[seat]:
            raise IllegalAction("You need a card in hand to discard after a slap.")
        if override:
            self._as_before(self.pending[1], self._verify_slap_fit, action)
        else:
            self._verify_slap_fit(action)

    def _verify_slap_fit(self, action: Slap) -> None:
        if not isinstance(action.spread, int) or not 0 <= action.spread < len(self.spreads):
            raise IllegalAction("There is no such spread on the table.")
        self._verify_fit(self.discard[-1], action.stands_for, self.spreads[action.spread])

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> Outcome | None:
        self.verify(seat, action)
        self.log.append((seat, action))
        kind = type(action)
        rules = self.rules
        if kind is Slap:
            return self._slap(seat, action)
        if kind is Draw or kind is TakeDiscard:
            self.window = None
            self.pending = None
            if kind is TakeDiscard:
                self.taken = self.discard[-1] if rules.take_must_be_used else None
            if kind is Draw and not self.stock and not self._reshuffle():
                return self._end(self._stock_out())
            self.hands[seat].append(self.stock.pop() if kind is Draw else self.discard.pop())
            self.phase = PLAY
            return None
        if kind is Claim:
            multiple = self._turn_claims()[seat][0]
            return self._end(win_by_one("instant", seat, self.counts(), self.stake, multiple))
        if kind is Drop:
            from .outcome import settle_drop

            return self._end(settle_drop(rules, seat, self.counts(), self.dealer, self.stake))
        if kind is Discard:
            hand = self.hands[seat]
            hand.remove(action.card)
            self.discard.append(action.card)
            extra = self.phase == SLAP_DISCARD
            if not hand:
                out = self._went_out(seat, "run_out")
                if out is not None:
                    return out
            if extra:
                self.phase = START
                self.slapper = None
                self.pending = None
            else:
                self._begin_turn((seat + 1) % self.num_players)
            self.window = seat if rules.slap != "off" else None
            return None
        hand = self.hands[seat]
        if kind is Spread:
            named = action.named
            for c in action.cards:
                hand.remove(c)
            natural = [named.get(c, c) for c in action.cards]
            spread_kind = self._kind_of(natural)
            cards = list(action.cards)
            if spread_kind == "run":
                place = dict(zip(natural, self._run_places(natural)))
                cards.sort(key=lambda c: place[named.get(c, c)])
            self.spreads.append(TableSpread(seat, spread_kind, cards, dict(named) if named else None))
            self.spreads_this_turn += 1
            if rules.waiting:
                self.waits[seat] += rules.spread_wait
            if (spread_kind == "book" and not named and self.naturals_winner is None
                    and seat in getattr(self.side_bets.get("naturals"), "seats", ())):
                self.naturals_winner = seat
        elif kind is Hit:
            hand.remove(action.card)
            self._place(self.spreads[action.spread], action.card, action.stands_for)
            self._note_hit(seat, self.spreads[action.spread].owner)
            self.hits_this_turn += 1
        else:  # Swap
            spread = self.spreads[action.spread]
            wild = next(w for w, n in spread.named.items() if n is action.card)
            hand.remove(action.card)
            spread.cards[spread.cards.index(wild)] = action.card
            del spread.named[wild]
            if not spread.named:
                spread.named = None
            hand.append(wild)
            self.swaps.append(wild)
            self._note_hit(seat, spread.owner)
            self.hits_this_turn += 1
        if not hand:
            out = self._went_out(seat, "tonk_out")
            if out is not None:
                return out
            self._begin_turn((seat + 1) % self.num_players)  # boobed: the turn ends here
        elif kind is not Spread and rules.hit_ends_turn:
            self._begin_turn((seat + 1) % self.num_players)
        return None

    def _place(self, spread: TableSpread, card: Card, stands_for) -> None:
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

    def _note_hit(self, hitter: int, owner: int) -> None:
        """A hit (or a swap or a slap): it spoils the hitter's going out (house rule) and,
        on a waiting table, bars the spread owner's next drop."""
        rules = self.rules
        self.hit_any[hitter] = True
        if rules.waiting:
            if not (rules.hit_wait_cap and self.hit_flags[owner]):
                self.waits[owner] += rules.hit_wait
                self.hit_waits[owner] += rules.hit_wait
            self.hit_flags[owner] = True

    def _slap(self, seat: int, action: Slap) -> None:
        rules = self.rules
        next_first = rules.slap == "next_player_first"
        if self._may_override(seat):
            _, snap, discarder = self.pending
            self._restore(snap)
            self.pending = None
        else:
            discarder = self.window
            if next_first and seat != self.turn:
                self.pending = (seat, self._snapshot(), discarder)
        card = self.discard.pop()
        spread = self.spreads[action.spread]
        self._place(spread, card, action.stands_for)
        self._note_hit(seat, spread.owner)
        self.window = None
        if seat != discarder and not (next_first and seat == self.turn):
            self.phase = SLAP_DISCARD
            self.slapper = seat
        else:
            self.phase = START
            self.slapper = None
        return None

    def _went_out(self, seat: int, kind: str) -> Outcome | None:
        """Settle a player's emptied hand, or None when it does not win (boobed)."""
        rules = self.rules
        if rules.boobed and len(self.stock) <= self.num_players:
            self.boobed[seat] = True
            return None
        return self._end(win_by_one(kind, seat, self.counts(), self.stake, self.going_out_multiple(seat, kind)))

    def going_out_multiple(self, seat: int, kind: str) -> int:
        """What emptying the hand pays under the house rules (RULES.md sections 7 and 9)."""
        rules = self.rules
        if kind == "run_out":
            multiple = 2 if rules.run_out_pays == "double" else 1
        else:
            first = self.own_turns[seat] == 1 and self.turn == seat
            pays = rules.tonk_out_pays
            multiple = 2 if pays == "double" or (pays == "second_spread" and self.spreads_this_turn >= 2) else 1
            if rules.first_turn_tonk_out == "double_then_single":
                multiple = 2 if first else 1
            elif rules.first_turn_tonk_out == "quadruple_two_spreads" and first and self.spreads_this_turn >= 2:
                multiple = 4
        if rules.hit_spoils_tonk_out and self.hit_any[seat]:
            return 1
        if (kind == "tonk_out" and rules.double_double and multiple == 2 and self.num_players == 2
                and self._all_hit(self.hands[1 - seat])):
            return 4
        return multiple

    def _all_hit(self, cards) -> bool:
        """double double: could these cards all be laid as hits, one after another?"""
        if not cards:
            return True
        saved = [(s, list(s.cards), dict(s.named) if s.named else None) for s in self.spreads]
        try:
            return self._hit_all(list(cards))
        finally:
            for s, c, named in saved:
                s.cards, s.named = c, named

    def _hit_all(self, cards: list) -> bool:
        if not cards:
            return True
        on_table = None
        for card in cards:
            for spread in self.spreads:
                open_cards = self._open_cards(spread)
                if card in open_cards:
                    names = [None]
                elif self.is_wild(card):
                    on_table = self._table_cards() if on_table is None else on_table
                    names = [e for e in open_cards if e not in on_table]
                else:
                    continue
                for name in names:
                    before, named = list(spread.cards), dict(spread.named) if spread.named else None
                    self._place(spread, card, name)
                    rest = [c for c in cards if c is not card]
                    if self._hit_all(rest):
                        return True
                    spread.cards, spread.named = before, named
                    if name is None:
                        return False  # a natural hit never blocks another: no other order helps
        return False

    def _begin_turn(self, seat: int) -> None:
        super()._begin_turn(seat)
        self.own_turns[seat] += 1
        self.hits_this_turn = 0
        self.taken = None
        self.window = None
        self.pending = None
        self.barred_by_hit = False
        if self.drop_blocked and self.hit_waits[seat] > 0:
            self.hit_waits[seat] -= 1
            self.barred_by_hit = True


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
