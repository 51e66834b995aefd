"""The state of one hand of Tonk and the only place its rules are applied.

`Game.deal(...)` starts a hand from an explicit deck order or a `random.Random`;
`legal_actions(seat)` says what a seat may do now; `apply(seat, action)` either
changes the state or raises a `TonkError` and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

from .actions import (DISCARDS, DRAW, DROP, TAKE, Action, Claim, Discard, Draw, Drop, Hit, Slap, Spread, Swap, TakeDiscard,
                      action_from_record)
from .cards import Card, Suit, count, shuffle
from .text import Text, t
from .errors import IllegalAction, NotYourTurn, RecordError, RulesError, TonkError
from .outcome import (
    RUN_OUT_MULTIPLE,
    Outcome,
    instant_winners,
    no_payment,
    settle_drop,
    settle_instant,
    settle_stock_out,
    win_by_one,
)
from .house import HouseState, house_rules
from .rules import Rules
from .session import high_card_winner, settle_side_bets, side_bets_from_record
from .spreads import OVER, PLAY, SLAP_DISCARD, START, TableSpread, run_positions, spreads_in
from .view import PublicEvent, SeatView, public_history

__all__ = [  # the spreads' and phases' names stay importable from here, as before
    "MAX_PLAYERS", "MAX_STAKE", "MIN_PLAYERS", "OVER", "PLAY", "SLAP_DISCARD", "START", "Game", "TableSpread",
    "check_deck", "cut_for_dealer", "full_deck", "next_dealer", "run_positions", "shuffled_deck", "spreads_in",
    "stacked_deck",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_STAKE = 1_000_000  # points per single stake: far above any table, far below trouble
_DEFAULT_NAMES = tuple(tuple(f"Player {i + 1}" for i in range(n)) for n in range(MAX_PLAYERS + 1))
# the house rules' per-seat state of a game without them, by number of players (never changed)
_ZEROS = tuple((0,) * n for n in range(MAX_PLAYERS + 1))
_FALSES = tuple((False,) * n for n in range(MAX_PLAYERS + 1))
_NONES = tuple((None,) * n for n in range(MAX_PLAYERS + 1))
_NO_SIDE_BETS: Mapping = MappingProxyType({})


def _house_field(name: str, off, doc: str) -> property:
    """A read-only field of the house rules' state (`Game.hs`); `off` (a value, or a
    tuple of per-seat values by number of players) when the game has no house rules."""
    if type(off) is tuple and off and type(off[0]) is tuple:
        def get(self):
            hs = self.hs
            if hs is not None:
                return getattr(hs, name)
            n = len(self.players)
            return off[n] if n < len(off) else off[1][:1] * n
    else:
        def get(self):
            hs = self.hs
            return getattr(hs, name) if hs is not None else off
    get.__name__ = name
    return property(get, doc=doc)


_FULL_DECKS: dict[Rules, tuple[tuple[Card, ...], int]] = {}
_last_rules: tuple = (None, None)  # the rules asked about last and their answer


def _deck_and_max_players(rules: Rules) -> tuple[tuple[Card, ...], int]:
    """The full deck and `rules.max_players()`, worked out once per rules: every deal
    (and every hand a computer player imagines) starts from them."""
    global _last_rules
    last = _last_rules
    if last[0] is rules:  # the usual case, without hashing every option
        return last[1]
    known = _FULL_DECKS.get(rules)
    if known is None:
        cards = [Card.of(rank, suit) for suit in Suit for rank in rules.ranks]
        cards.extend(Card.joker_card(i) for i in range(1, rules.jokers + 1))
        known = _FULL_DECKS[rules] = (tuple(cards), rules.max_players())
    _last_rules = (rules, known)
    return known


def full_deck(rules: Rules) -> list[Card]:
    """Every card the rules play with, in a fixed order (suits, then ranks, then jokers)."""
    return list(_deck_and_max_players(rules)[0])


def shuffled_deck(rules: Rules, rng: random.Random) -> list[Card]:
    deck = full_deck(rules)
    shuffle(deck, rng)  # the same order as rng.shuffle(deck), faster
    return deck


def next_dealer(dealer: int, players: int) -> int:
    """The deal passes to the left after every hand."""
    return (dealer + 1) % players


def cut_for_dealer(players: int, rng: random.Random) -> tuple[int, list[list[Card | None]]]:
    """Each player cuts a card; the highest deals (A low); tied players cut again.

    Returns the dealer and every round of cuts (None for a seat that sat a round out).
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(t("Tonk is for {low} to {high} players.", low=MIN_PLAYERS, high=MAX_PLAYERS))
    contenders = list(range(players))
    rounds: list[list[Card | None]] = []
    while True:
        deck = full_deck(Rules())
        rng.shuffle(deck)
        cuts: list[Card | None] = [None] * players
        for seat in contenders:
            cuts[seat] = deck.pop()
        rounds.append(cuts)
        best = max(int(cuts[s].rank) for s in contenders)  # type: ignore[union-attr]
        contenders = [s for s in contenders if int(cuts[s].rank) == best]  # type: ignore[union-attr]
        if len(contenders) == 1:
            return contenders[0], rounds


class Game:
    """One hand: the full state, with every hidden card. Build it with `Game.deal`.

    There is one kind of game. The house rules of RULES.md sections 9-11 and the side bets
    of section 10 are a rule object, `house` (an `engine.house.HouseRules`, None for the
    standard game), that this class's one `verify` and one `apply` consult where a house
    rule changes what is legal or what happens; what only they change is kept in `hs` (an
    `engine.house.HouseState`, None with them). Every game has every query and every part
    of the state (`slappers()`, `side_bets`, `boobed`, ...): without the house rules they
    read as empty (no slap window, no side bet, nobody boobed), so a caller never asks
    which kind of game it holds.
    """

    __slots__ = (
        "rules", "players", "dealer", "stake", "deck", "hands", "stock", "discard", "spreads",
        "turn", "phase", "waits", "drop_blocked", "hit_flags", "spreads_this_turn",
        "reshuffles", "turns", "log", "outcome", "_pos",
        "house", "hs",  # the house rules' rule object and the state only they change (None, None without them)
        "_public",  # engine.view's public history, extended as the log grows (None: not built yet)
    )

    def __init__(self) -> None:  # use Game.deal / Game.from_json
        self.outcome: Outcome | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: list[str] | int,
        dealer: int,
        *,
        deck: list[Card] | None = None,
        rng: random.Random | None = None,
        stake: int = 1,
        side_bets: dict | None = None,
    ) -> "Game":
        """Deal a hand (RULES.md section 2) and settle a tonk on the deal at once.

        House rules of RULES.md section 9 and side bets (section 10, `engine.session`)
        give the game its `house` rule object.
        """
        if isinstance(players, int):
            names = list(_DEFAULT_NAMES[players] if 0 <= players <= MAX_PLAYERS else (f"Player {i + 1}" for i in range(players)))
        else:
            names = list(players)
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RulesError(t("Tonk is for {low} to {high} players, not {n}.", low=MIN_PLAYERS, high=MAX_PLAYERS, n=n))
        full, most = _deck_and_max_players(rules)
        if n > most:
            raise RulesError(t(
                "A {deck}-card deck with {hand} cards each is enough for {most} players at most.",
                deck=rules.deck_size, hand=rules.hand_size, most=rules.max_players(),
            ))
        if not 0 <= dealer < n:
            raise RulesError(t("The dealer must be one of the seats 0 to {last}.", last=n - 1))
        if not isinstance(stake, int) or isinstance(stake, bool) or not 1 <= stake <= MAX_STAKE:
            raise RulesError(t("The stake must be a whole number of points from 1 to {top}.", top=MAX_STAKE))
        if deck is None:
            deck = list(full)
            shuffle(deck, rng or random.Random())  # as shuffled_deck(rules, rng)
        else:
            deck = list(deck)
            check_deck(rules, deck)
        house = house_rules(rules) if rules._house or side_bets else None
        game = object.__new__(cls)  # every field is set below
        game.rules = rules
        game.players = names
        game.dealer = dealer
        game.stake = stake
        game.deck = deck
        game._pos = run_positions(rules)
        # one card at a time from the dealer's left: the i-th seat from there gets every n-th card
        at = rules.hand_size * n
        game.hands = [None] * n  # type: ignore[list-item]
        for i in range(n):
            game.hands[(dealer + 1 + i) % n] = deck[i:at:n]
        game.discard = []
        if rules.upcard:
            game.discard.append(deck[at])
            at += 1
        game.stock = deck[:at - 1:-1]  # deck[at:] reversed: the top of the stock is the end of the list
        game.spreads = []
        game.waits = [0] * n
        game.hit_flags = [False] * n
        game.drop_blocked = False
        game.spreads_this_turn = 0
        game.reshuffles = 0
        game.turns = 0
        game.log = []
        game.outcome = None
        game.house = house
        game.hs = None if house is None else HouseState(n, side_bets, game.hands)
        game._public = None
        if house is not None:
            counts = game.counts()
        else:
            counts = [count(h) for h in game.hands]
        scan = rules._scan  # (highest low count, high counts, face hands): a quick look first
        if scan is not None and (scan[2] or any(c <= scan[0] or c in scan[1] for c in counts)):
            winners = instant_winners(rules, counts, dealer, game.hands)
        else:
            winners = ()
        if winners:
            game.turn = (dealer + 1) % n
            game.phase = OVER
            game.outcome = settle_instant(winners, counts, stake)
        else:
            game._begin_turn((dealer + 1) % n)
        return game

    # the house rules' state, as every game reads it: as dealt (and never changed) without them
    own_turns = _house_field("own_turns", _ZEROS, "each seat's turns so far (first turn tonk out, claims)")
    hits_this_turn = _house_field("hits_this_turn", 0, "hits this turn (hits per turn)")
    taken = _house_field("taken", None, "take must be used: the card taken this turn")
    hit_waits = _house_field("hit_waits", _ZEROS, "the part of each seat's wait a hit added (hit bars going out)")
    barred_by_hit = _house_field("barred_by_hit", False, "hit bars going out: this turn's wait came from a hit")
    hit_any = _house_field("hit_any", _FALSES, "each seat hit (slapped or swapped) this hand (hit spoils tonk out)")
    boobed = _house_field("boobed", _FALSES, "each seat boobed: emptied its hand too late to win")
    window = _house_field("window", None, "slap: the seat whose discard may be slapped now")
    slapper = _house_field("slapper", None, "slap: the slapper owing its extra discard")
    pending = _house_field("pending", None, "slap next player first: (slapper, state before, discarder)")
    side_bets = _house_field("side_bets", _NO_SIDE_BETS, "this deal's side bets by kind (RULES.md section 10)")
    side_cards = _house_field("side_cards", _NONES, "high card side bet: each seat's shown card (public)")
    naturals_winner = _house_field("naturals_winner", None, "naturals side bet: the seat of the first natural book")
    swaps = _house_field("swaps", (), "the wild card each swap took into hand, in order (public)")

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def discard_top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def to_act(self) -> int:
        """The seat whose action the hand waits for: `turn`, or a slapper owing its extra discard."""
        return self.slapper if self.phase == SLAP_DISCARD else self.turn

    def counts(self) -> list[int]:
        if self.rules.face_values == "ranked":  # house rule: J 11, Q 12, K 13
            value = self.rules.card_value
            return [sum(value(c) for c in h) for h in self.hands]
        return [count(h) for h in self.hands]

    def can_drop(self, seat: int) -> bool:
        return self.is_legal(seat, DROP)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now: under house rules also a slap out of turn
        (empty when the seat has nothing to do)."""
        if self.house is not None:  # the house rules' candidates, each one passed through `verify`
            return self.house.legal_actions(self, seat)
        if self.phase == OVER or seat != self.turn:
            return []
        if self.phase == START:
            if self.drop_blocked:
                return [DRAW, TAKE] if self.discard else [DRAW]
            return [DROP, DRAW, TAKE] if self.discard else [DROP, DRAW]
        hand = self.hands[seat]
        spreads = self.possible_spreads(hand)
        if not spreads and not self.spreads:  # the usual case: discard any card
            return [DISCARDS[card.index] for card in hand]
        actions: list[Action] = [Spread(cards) for cards in spreads]
        actions.extend([Hit(card, i) for card, i in self.possible_hits(hand)])
        actions.extend([DISCARDS[card.index] for card in hand])
        return actions

    def possible_spreads(self, hand) -> list[tuple[Card, ...]]:
        """Every natural book and run that can be laid from `hand`."""
        return spreads_in(hand, self._pos)

    def possible_hits(self, hand) -> list[tuple[Card, int]]:
        """(card, spread number) for every card in `hand` that fits a spread on the table."""
        hits = []
        for i, spread in enumerate(self.spreads):
            for card in hand:
                if self._fits(card, spread):
                    hits.append((card, i))
        return hits

    def _fits(self, card: Card, spread: TableSpread) -> bool:
        if card.joker:
            return False
        if self.house is not None:
            return self.house.fits(card, spread)
        first = spread.cards[0]
        if spread.kind == "book":
            return self.rules.hit_books and card.rank is first.rank and len(spread.cards) < 4
        if card.suit is not first.suit:
            return False
        pos = self._pos
        p = pos[card.rank]
        return p == pos[first.rank] - 1 or p == pos[spread.cards[-1].rank] + 1

    def slappers(self) -> list[int]:
        """The seats that may slap now (the bot enables its Slap! button for them); [] when
        no slap window is open, as always without the slap house rule."""
        house = self.house
        if house is None or not house.slap or self.phase == OVER:
            return []
        return [seat for seat in range(len(self.players)) if house.legal_slaps(self, seat)]

    def legal_slaps(self, seat: int) -> list[Slap]:
        """The slaps `seat` may make now, also out of turn ([] without the slap house rule)."""
        return [] if self.house is None else self.house.legal_slaps(self, seat)

    def slap_window_open(self) -> bool:
        """Is there a discard that some seat may slap now?"""
        return bool(self.slappers())

    def side_winners(self) -> dict[str, int | None]:
        """The seat that wins each side bet of this hand so far (None: nobody, the pot carries)."""
        winners = {"naturals": self.naturals_winner}
        if "high_card" in self.side_bets:
            winners["high_card"] = high_card_winner(self.side_cards)
        return winners

    def side_result(self) -> tuple[list[int], dict[str, int]]:
        """(side_payments, pot_out) of this hand's side bets (RULES.md section 10)."""
        return settle_side_bets(self.side_bets, self.side_winners(), self.num_players)

    # ------------------------------------------------------------------ verifying

    def verify(self, seat: int, action: Action) -> None:
        """Raise a TonkError that names the broken rule, or return if `action` is legal.

        The standard game's order of play; the house rule object (`house`) is asked
        where a house rule of RULES.md section 9 allows or forbids more.
        """
        phase = self.phase
        if phase == OVER:
            raise IllegalAction(t("This hand is over."))
        if type(seat) is not int or not 0 <= seat < len(self.players):
            raise IllegalAction(t("There is no such seat at this table."))
        kind = type(action)
        house = self.house
        if house is not None:  # out of turn: a slap, or a slapper's extra discard
            if kind is Slap:
                return house.verify_slap(self, seat, action)
            if phase == SLAP_DISCARD:
                return house.verify_extra_discard(self, seat, action)
            if seat == self.turn and self.boobed[seat] and kind is not Drop:
                raise IllegalAction(t("House rule (boobed): you emptied your hand too late to win; you must drop."))
        if seat != self.turn:
            raise NotYourTurn(t("It is {name}'s turn, not yours.", name=self.players[self.turn]))
        if phase == START:
            if kind is Drop:
                if self.drop_blocked and not self.boobed[seat]:  # boobed: drop even while waiting
                    raise IllegalAction(t("You are waiting: you cannot drop on this turn."))
                return
            if kind is Draw:
                return
            if kind is TakeDiscard:
                if not self.discard:
                    raise IllegalAction(t("The discard pile is empty: draw from the stock."))
                if house is not None:
                    house.verify_take(self, seat)
                return
            if kind is Claim and house is not None:
                return house.verify_claim(self, seat)
            if kind is Spread or kind is Hit or kind is Discard or (kind is Swap and house is not None):
                raise IllegalAction(t("Draw from the stock or take the discard first (or drop)."))
            raise IllegalAction(_not_at_this_table(action))
        # PLAY
        if kind is Drop:
            if house is None or self.rules.drop_when != "any_time":
                raise IllegalAction(t("You can only drop at the start of your turn, before you draw."))
            if self.drop_blocked:
                raise IllegalAction(t("You are waiting: you cannot drop on this turn."))
            house.require_taken_used(self, "drop")
            return
        if kind is Draw or kind is TakeDiscard:
            raise IllegalAction(t("You have already drawn this turn: spread, hit or discard."))
        hand = self.hands[seat]
        if kind is Discard:
            self._require_in_hand(action.card, hand)
            if house is not None:
                house.verify_discard(self, seat, hand)
            return
        if house is not None:
            if kind is Claim:
                raise IllegalAction(t("An instant hand is claimed at the start of your first turn, before you draw."))
            if kind is Hit or kind is Swap:
                house.verify_hit(self, seat, action)
            elif kind is Spread:
                house.verify_spread(self, seat, action)
            else:
                raise IllegalAction(_not_at_this_table(action))
            house.verify_taken_kept(self, seat, action)
            return
        if kind is Hit:
            self._require_in_hand(action.card, hand)
            if action.card.joker:
                raise IllegalAction(t("Jokers cannot be played on spreads."))
            if not isinstance(action.spread, int) or not 0 <= action.spread < len(self.spreads):
                raise IllegalAction(t("There is no such spread on the table."))
            if action.stands_for is not None:
                raise IllegalAction(t("House rule: there are no wild cards at this table."))
            spread = self.spreads[action.spread]
            if not self._fits(action.card, spread):
                if spread.kind == "book" and not self.rules.hit_books:
                    raise IllegalAction(t("House rule: you can hit runs only, not books."))
                if spread.kind == "book" and len(spread.cards) >= 4:
                    raise IllegalAction(t("That book already has all four cards."))
                if spread.kind == "book":
                    raise IllegalAction(t("{card} does not fit that book.", card=action.card))
                raise IllegalAction(t("{card} does not fit that run (same suit, at either end; A is low).", card=action.card))
            return
        if kind is Spread:
            cards = action.cards
            self._require_spread_cards(cards, hand)
            if action.wilds:
                raise IllegalAction(t("House rule: there are no wild cards at this table."))
            if any(c.joker for c in cards):
                raise IllegalAction(t("Jokers cannot be spread."))
            if self._spread_kind(cards) is None:
                raise IllegalAction(t(
                    "Those cards are neither a book (3 or 4 of one rank) nor a run "
                    "(3 or more of one suit in sequence; A is low)."
                ))
            return
        raise IllegalAction(_not_at_this_table(action))

    def _require_spread_cards(self, cards, hand) -> None:
        """A spread's cards: each once, each in the hand, at least three."""
        if len(set(cards)) != len(cards):
            raise IllegalAction(t("A spread cannot use the same card twice."))
        for c in cards:
            self._require_in_hand(c, hand)
        if len(cards) < 3:
            raise IllegalAction(t("A spread needs at least 3 cards."))

    def _require_in_hand(self, card, hand) -> None:
        if not isinstance(card, Card):
            raise IllegalAction(t("That is not a card."))
        if card not in hand:
            raise IllegalAction(t("{card} is not in your hand.", card=card))

    def _spread_kind(self, cards) -> str | None:
        first = cards[0]
        if all(c.rank is first.rank for c in cards):
            return "book" if len(cards) <= 4 else None
        if all(c.suit is first.suit for c in cards):
            positions = sorted(self._pos[c.rank] for c in cards)
            if all(b == a + 1 for a, b in zip(positions, positions[1:])):
                return "run"
        return None

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except TonkError:
            return False
        return True

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int, action: Action) -> Outcome | None:
        """Apply a legal action (or raise and change nothing); return the outcome if it ended the hand."""
        self.verify(seat, action)
        self.log.append((seat, action))
        kind = type(action)
        house = self.house
        if kind is Draw:
            if house is not None:
                self._picked_up(None)
            if not self.stock and not self._reshuffle():
                return self._end(self._stock_out())
            self.hands[seat].append(self.stock.pop())
            self.phase = PLAY
        elif kind is TakeDiscard:
            if house is not None:
                self._picked_up(self.discard[-1])
            self.hands[seat].append(self.discard.pop())
            self.phase = PLAY
        elif kind is Drop:
            return self._end(settle_drop(self.rules, seat, self.counts(), self.dealer, self.stake))
        elif kind is Discard:
            hand = self.hands[seat]
            hand.remove(action.card)
            self.discard.append(action.card)
            extra = self.phase == SLAP_DISCARD  # a slapper's extra discard: the turn stays where it is
            if not hand:
                out = self._went_out(seat, "run_out")
                if out is not None:
                    return out
            if extra:
                self.phase = START
                self.hs.slapper = None
                self.hs.pending = None
            else:
                self._begin_turn((seat + 1) % len(self.players))
            if house is not None and house.slap:
                self.hs.window = seat  # the discard may be slapped until the next player draws
        elif kind is Slap:
            return self._slap(seat, action)
        elif kind is Claim:
            multiple = house.turn_claims(self)[seat][0]  # type: ignore[union-attr]
            return self._end(win_by_one("instant", seat, self.counts(), self.stake, multiple))
        else:
            return self._lay(seat, action, kind)
        return None

    def _lay(self, seat: int, action, kind) -> Outcome | None:
        """A spread, a hit or (house rule) a wild swap: cards from the hand to the table."""
        hand = self.hands[seat]
        house = self.house
        rules = self.rules
        if kind is Spread:
            for c in action.cards:
                hand.remove(c)
            if house is None:
                spread_kind = self._spread_kind(action.cards)
                cards = list(action.cards)
                if spread_kind == "run":
                    pos = self._pos
                    cards.sort(key=lambda c: pos[c.rank])
                spread = TableSpread(seat, spread_kind, cards)
            else:
                spread = house.new_spread(seat, action)
            self.spreads.append(spread)
            self.spreads_this_turn += 1
            if rules.waiting:
                self.waits[seat] += rules.spread_wait
            hs = self.hs
            if (hs is not None and spread.kind == "book" and not spread.named and hs.naturals_winner is None
                    and seat in getattr(hs.side_bets.get("naturals"), "seats", ())):
                hs.naturals_winner = seat  # side bet: the first natural book
        elif kind is Hit:
            hand.remove(action.card)
            spread = self.spreads[action.spread]
            if house is None:
                if spread.kind == "run" and self._pos[action.card.rank] < self._pos[spread.cards[0].rank]:
                    spread.cards.insert(0, action.card)
                else:
                    spread.cards.append(action.card)
            else:
                house.place(spread, action.card, action.stands_for)
                self.hs.hits_this_turn += 1
            self._note_hit(seat, spread.owner)
        else:  # Swap (house rule: wild swap): the natural card for the wild card standing for it
            spread = self.spreads[action.spread]
            wild = next(w for w, n in spread.named.items() if n is action.card)
            hand.remove(action.card)
            spread.cards[spread.cards.index(wild)] = action.card
            del spread.named[wild]
            if not spread.named:
                spread.named = None
            hand.append(wild)
            self.hs.swaps.append(wild)
            self._note_hit(seat, spread.owner)
            self.hs.hits_this_turn += 1
        if not hand:
            out = self._went_out(seat, "tonk_out")
            if out is not None:
                return out
            self._begin_turn((seat + 1) % len(self.players))  # boobed: the turn ends here
        elif kind is not Spread and rules.hit_ends_turn:
            self._begin_turn((seat + 1) % len(self.players))
        return None

    def _picked_up(self, taken: Card | None) -> None:
        """House rules on a draw or a take: the slap window closes; take must be used
        remembers the card taken."""
        self.hs.window = None
        self.hs.pending = None
        if taken is not None:
            self.hs.taken = taken if self.rules.take_must_be_used else None

    def _note_hit(self, hitter: int, owner: int) -> None:
        """A hit (or a swap or a slap): on a waiting table it bars the spread owner's next
        drop; under house rules it also spoils the hitter's going out (hit spoils tonk out)."""
        rules = self.rules
        house = self.house
        if rules.waiting:
            if not (rules.hit_wait_cap and self.hit_flags[owner]):
                self.waits[owner] += rules.hit_wait
                if house is not None:
                    self.hs.hit_waits[owner] += rules.hit_wait
            self.hit_flags[owner] = True
        if house is not None:
            self.hs.hit_any[hitter] = True

    def _slap(self, seat: int, action: Slap) -> None:
        """House rule (slap): the top discard goes onto a spread; a slapper other than the
        discarder owes one extra discard. Under next player first the next player's slap
        replaces a pending one."""
        house = self.house
        next_first = self.rules.slap == "next_player_first"
        if house.may_override(self, seat):  # type: ignore[union-attr]
            _, snap, discarder = self.hs.pending
            self._restore(snap)
            self.hs.pending = None
        else:
            discarder = self.hs.window
            if next_first and seat != self.turn:
                self.hs.pending = (seat, self._snapshot(), discarder)
        card = self.discard.pop()
        spread = self.spreads[action.spread]
        house.place(spread, card, action.stands_for)  # type: ignore[union-attr]
        self._note_hit(seat, spread.owner)
        self.hs.window = None
        if seat != discarder and not (next_first and seat == self.turn):
            self.phase = SLAP_DISCARD
            self.hs.slapper = seat
        else:
            self.phase = START
            self.hs.slapper = None
        return None

    def _snapshot(self) -> tuple:
        """What a slap changes, so that the next player's slap can override it."""
        return (
            [list(h) for h in self.hands], list(self.discard), _copy_spreads(self.spreads),
            list(self.waits), list(self.hs.hit_waits), list(self.hit_flags), list(self.hs.hit_any),
            self.phase, self.hs.slapper, self.hs.window, self.hs.naturals_winner,
        )

    def _restore(self, snap: tuple) -> None:
        (hands, discard, spreads, self.waits, self.hs.hit_waits, self.hit_flags, self.hs.hit_any,
         self.phase, self.hs.slapper, self.hs.window, self.hs.naturals_winner) = snap
        self.hands = [list(h) for h in hands]
        self.discard = list(discard)
        self.spreads = _copy_spreads(spreads)

    def _went_out(self, seat: int, kind: str) -> Outcome | None:
        """Settle a player's emptied hand, or None when it does not win (house rule: boobed)."""
        if self.rules.boobed and len(self.stock) <= len(self.players):
            self.hs.boobed[seat] = True
            return None
        return self._end(win_by_one(kind, seat, self.counts(), self.stake, self.going_out_multiple(seat, kind)))

    def going_out_multiple(self, seat: int, kind: str) -> int:
        """What emptying the hand pays (RULES.md sections 4 and 7, and the house rules of 9)."""
        rules = self.rules
        if kind == "run_out":
            multiple = 2 if rules.run_out_pays == "double" else RUN_OUT_MULTIPLE
        else:
            multiple = rules.tonk_out_multiple(self.spreads_this_turn)
            first_turn = rules.first_turn_tonk_out
            if first_turn != "as_tonk_out":
                first = self.own_turns[seat] == 1 and self.turn == seat
                if first_turn == "double_then_single":
                    multiple = 2 if first else 1
                elif first_turn == "quadruple_two_spreads" and first and self.spreads_this_turn >= 2:
                    multiple = 4
        if rules.hit_spoils_tonk_out and self.hit_any[seat]:
            return 1
        if (kind == "tonk_out" and rules.double_double and multiple == 2 and self.num_players == 2
                and self.house.all_hit(self, self.hands[1 - seat])):  # type: ignore[union-attr]
            return 4
        return multiple

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = START
        self.turns += 1
        self.spreads_this_turn = 0
        self.hit_flags[seat] = False
        blocked = self.rules.waiting and self.waits[seat] > 0
        self.drop_blocked = blocked
        if blocked:
            self.waits[seat] -= 1
        if self.house is not None:
            self.hs.own_turns[seat] += 1
            self.hs.hits_this_turn = 0
            self.hs.taken = None
            self.hs.window = None
            self.hs.pending = None
            self.hs.barred_by_hit = False
            if blocked and self.hs.hit_waits[seat] > 0:  # hit bars going out: this wait came from a hit
                self.hs.hit_waits[seat] -= 1
                self.hs.barred_by_hit = True

    def _end(self, outcome: Outcome) -> Outcome:
        self.phase = OVER
        self.outcome = outcome
        return outcome

    def _stock_out(self) -> Outcome:
        if self.rules.stock_out == "dead_hand":
            return no_payment("draw", self.counts())
        return settle_stock_out(self.counts(), self.stake)

    def _reshuffle(self) -> bool:
        """House rule: turn the discard pile but its top card into a new stock.

        The shuffle is seeded from the hand's deck order and the reshuffle number, so a
        hand record still replays exactly. With nothing under the top card there is
        nothing to reshuffle and the stock-out ends the hand as 'lowest wins'.
        """
        if not self.rules.can_reshuffle(len(self.discard)):
            return False
        self.reshuffles += 1
        cards = self.discard[:-1]
        del self.discard[:-1]
        seed = " ".join(c.code for c in self.deck) + f"|reshuffle {self.reshuffles}"
        random.Random(seed).shuffle(cards)
        self.stock = cards
        return True

    # ------------------------------------------------------------------ records & JSON

    def record(self) -> dict:
        """The hand record of HAND_RECORD.md, finished or not."""
        data = {
            "format": "tonk-hand/1",
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "dealer": self.dealer,
            "stake": self.stake,
            "deck": [c.code for c in self.deck],
            "actions": [{"seat": s, **a.to_record()} for s, a in self.log],
        }
        if self.side_bets:
            data["side_bets"] = {k: b.to_record() for k, b in self.side_bets.items()}
        return data

    def result(self) -> dict:
        """The replay result of HAND_RECORD.md, also for an unfinished hand (outcome null);
        with side bets, a finished hand's result carries `side_payments` and `pot_out`."""
        if self.outcome is None:
            n = self.num_players
            return {"outcome": None, "winners": [], "counts": self.counts(), "payments": [0] * n, "pushups": [0] * n}
        data = self.outcome.result()
        if self.side_bets:
            data["side_payments"], data["pot_out"] = self.side_result()
        return data

    @classmethod
    def from_record(cls, record: dict) -> "Game":
        """Replay a record; raise RecordError naming the bad part or the action index."""
        if not isinstance(record, dict):
            raise RecordError(t("A hand record must be a JSON object."))
        if record.get("format") != "tonk-hand/1":
            raise RecordError(t('Unknown record format {format} (expected tonk-hand/1).', format=repr(record.get('format'))))
        missing = [k for k in ("rules", "players", "dealer", "stake", "deck", "actions") if k not in record]
        if missing:
            raise RecordError(t("The record lacks {fields}.", fields=tuple(missing)))
        try:
            rules = Rules.from_dict(record["rules"])
        except TonkError as exc:
            raise RecordError(t("Bad rules: {reason}", reason=exc.text)) from None
        players = record["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(t("players must be a list of names."))
        if not isinstance(record["deck"], list):
            raise RecordError(t("deck must be a list of cards."))
        try:
            deck = [Card.parse(c) for c in record["deck"]]
        except ValueError as exc:
            raise RecordError(t('Bad deck: {exc}', exc=exc)) from None
        dealer, stake = record["dealer"], record["stake"]
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(t("dealer must be a seat number."))
        if not isinstance(stake, int) or isinstance(stake, bool):
            raise RecordError(t("stake must be a whole number."))
        side_bets = None
        if record.get("side_bets") is not None:
            side_bets = side_bets_from_record(record["side_bets"], len(players), stake)
        try:
            game = cls.deal(rules, players, dealer, deck=deck, stake=stake, side_bets=side_bets)
        except TonkError as exc:
            raise RecordError(exc.text) from None
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError(t("actions must be a list."))
        for index, entry in enumerate(actions):
            try:
                action = action_from_record(entry)
                seat = entry.get("seat")
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise ValueError("the action has no seat number")
                game.apply(seat, action)
            except (ValueError, TonkError) as exc:
                raise RecordError(str(exc), index) from None
        return game

    def to_json(self) -> dict:
        """The whole state as JSON-ready data; `Game.from_json` restores it exactly."""
        data = {
            "format": "tonk-state/1",
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "dealer": self.dealer,
            "stake": self.stake,
            "deck": [c.code for c in self.deck],
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in reversed(self.stock)],
            "discard": [c.code for c in self.discard],
            "spreads": [s.to_dict() for s in self.spreads],
            "turn": self.turn,
            "phase": self.phase,
            "waits": list(self.waits),
            "drop_blocked": self.drop_blocked,
            "hit_flags": list(self.hit_flags),
            "spreads_this_turn": self.spreads_this_turn,
            "reshuffles": self.reshuffles,
            "turns": self.turns,
            "actions": [{"seat": s, **a.to_record()} for s, a in self.log],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
        if self.hs is not None:  # saved only when the house rules (or side bets) are in play
            data["house"] = self.hs.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        if not isinstance(data, dict) or data.get("format") != "tonk-state/1":
            raise RecordError(t("Not a saved Tonk hand (format tonk-state/1)."))
        parse = Card.parse
        rules = Rules.from_dict(data["rules"])
        saved = data.get("house")
        game = cls()
        game.rules = rules
        game.players = list(data["players"])
        game.dealer = data["dealer"]
        game.stake = data["stake"]
        game.deck = [parse(c) for c in data["deck"]]
        game.hands = [[parse(c) for c in h] for h in data["hands"]]
        game.stock = [parse(c) for c in reversed(data["stock"])]
        game.discard = [parse(c) for c in data["discard"]]
        game.spreads = [TableSpread.from_dict(s) for s in data["spreads"]]
        game.turn = data["turn"]
        game.phase = data["phase"]
        game.waits = list(data["waits"])
        game.drop_blocked = data["drop_blocked"]
        game.hit_flags = list(data["hit_flags"])
        game.spreads_this_turn = data["spreads_this_turn"]
        game.reshuffles = data["reshuffles"]
        game.turns = data["turns"]
        game.log = [(a["seat"], action_from_record(a)) for a in data["actions"]]
        game.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        game._pos = run_positions(game.rules)
        if not (rules.house or saved):
            game.house = game.hs = game._public = None
            return game
        game.house = house_rules(rules)
        game.hs = HouseState.from_json(saved or {}, len(game.players), game.stake, game.hands)
        game._public = None
        return game

    def copy(self) -> "Game":
        """An independent copy: applying an action to it leaves this game as it was."""
        cls = type(self)
        game = cls.__new__(cls)
        for name in _SLOTS:
            setattr(game, name, getattr(self, name))
        for name in _LISTS:
            setattr(game, name, list(getattr(self, name)))
        game.hands = [list(h) for h in self.hands]
        game.spreads = _copy_spreads(self.spreads)
        if self.hs is not None:
            game.hs = self.hs.copy()
        if self._public is not None:  # the copy goes on from the public history so far
            game._public = self._public.copy_for(game)
        return game

    def view(self, seat: int) -> SeatView:
        """What `seat` may see, and nothing more (see engine.view.SeatView)."""
        return SeatView.of(self, seat)

    def public_history(self) -> tuple[PublicEvent, ...]:
        """Every action as the whole table saw it (a view's `history`, without building a
        view): kept as the log grows, one tuple shared by every caller at this point."""
        return public_history(self)


_SLOTS = Game.__slots__
_LISTS = ("stock", "discard", "waits", "hit_flags", "log")  # what an action changes in place: a copy has its own


def _copy_spreads(spreads: list[TableSpread]) -> list[TableSpread]:
    return [TableSpread(s.owner, s.kind, list(s.cards), dict(s.named) if s.named else None) for s in spreads]


def _not_at_this_table(action) -> Text:
    """The refusal for an action only a house rule allows (slap, swap, claim)."""
    verb = getattr(action, "verb", None)
    if verb == "slap":
        return t("House rule: there is no slapping at this table.")
    if verb == "swap":
        return t("House rule: there are no wild swaps at this table.")
    if verb == "claim":
        return t("There are no instant hands to claim in turn at this table.")
    return t("That is not a Tonk action.")


def check_deck(rules: Rules, deck: list[Card]) -> None:
    expected = full_deck(rules)
    if len(deck) != len(expected) or set(deck) != set(expected):
        missing = [c.code for c in expected if c not in set(deck)]
        extra = [c.code for c in deck if c not in set(expected)]
        dupes = sorted({c.code for c in deck if deck.count(c) > 1})
        parts = []
        if missing:
            parts.append("missing " + " ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
        if extra:
            parts.append("not in this deck " + " ".join(extra[:8]))
        if dupes:
            parts.append("twice " + " ".join(dupes[:8]))
        raise RecordError(
            t('The deck is not a full {deck_size}-card deck for these rules ({problems}).', deck_size=rules.deck_size, problems='; '.join(parts) or t('wrong size'))
        )


def stacked_deck(
    rules: Rules,
    dealer: int,
    hands: list[list[Card]],
    *,
    upcard: Card | None = None,
    stock: list[Card] | None = None,
) -> list[Card]:
    """A full deck ordered so the deal gives `hands[seat]` to each seat, then `upcard`,
    then `stock` (top first) followed by every unused card. For tests and hand records."""
    n = len(hands)
    used = [c for h in hands for c in h] + ([upcard] if upcard else []) + list(stock or [])
    if len(set(used)) != len(used):
        raise ValueError("a card is used twice")
    if any(len(h) != rules.hand_size for h in hands):
        raise ValueError(f"every hand needs {rules.hand_size} cards")
    if rules.upcard and upcard is None:
        raise ValueError("these rules turn an upcard: give one")
    deck: list[Card] = []
    for round_ in range(rules.hand_size):
        for i in range(n):
            deck.append(hands[(dealer + 1 + i) % n][round_])
    if rules.upcard:
        deck.append(upcard)  # type: ignore[arg-type]
    deck.extend(stock or [])
    rest = [c for c in full_deck(rules) if c not in set(used)]
    deck.extend(rest)
    check_deck(rules, deck)
    return deck
