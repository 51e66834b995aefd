"""The state of one hand of Tonk and the only place its rules are applied.

`Game.deal(...)` starts a hand from an explicit deck order or a `random.Random`;
`legal_actions(seat)` says what a seat may do now; `apply(seat, action)` either
changes the state or raises a `TonkError` and changes nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from .actions import DISCARDS, DRAW, DROP, TAKE, Action, Discard, Draw, Drop, Hit, Spread, TakeDiscard, action_from_record
from .cards import BOOK_BIAS, BOOK_TOP, CARD_COUNT, RANK_TALLY, SUIT_NUMBER, Card, Suit, count, shuffle
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
from .rules import Rules

START = "start"  # the seat to act may drop, draw or take the discard
PLAY = "play"  # the seat has drawn: spread, hit, then discard
OVER = "over"

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_STAKE = 1_000_000  # points per single stake: far above any table, far below trouble
_DEFAULT_NAMES = tuple(tuple(f"Player {i + 1}" for i in range(n)) for n in range(MAX_PLAYERS + 1))


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
        raise RulesError(f"Tonk is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
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


@dataclass(slots=True)
class TableSpread:
    """A spread on the table: who laid it, book or run, and its cards (runs in order)."""

    owner: int
    kind: str  # "book" or "run"
    cards: list[Card]
    named: dict | None = None  # wild card -> the card it stands for (house rule: wild cards)

    def to_dict(self) -> dict:
        data = {"owner": self.owner, "kind": self.kind, "cards": [c.code for c in self.cards]}
        if self.named:
            data["as"] = {w.code: n.code for w, n in self.named.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "TableSpread":
        named = {Card.parse(w): Card.parse(n) for w, n in data["as"].items()} if data.get("as") else None
        return cls(data["owner"], data["kind"], [Card.parse(c) for c in data["cards"]], named)

    def natural(self) -> list[Card]:
        """The cards as they count in the spread: each wild card as the card it stands for."""
        named = self.named
        return [named.get(c, c) for c in self.cards] if named else self.cards


class Game:
    """One hand: the full state, with every hidden card. Build it with `Game.deal`."""

    __slots__ = (
        "rules", "players", "dealer", "stake", "deck", "hands", "stock", "discard", "spreads",
        "turn", "phase", "waits", "drop_blocked", "hit_flags", "spreads_this_turn",
        "reshuffles", "turns", "log", "outcome", "_pos",
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
        deal an `engine.house.HouseGame`, which keeps this class's fast paths free of them.
        """
        if isinstance(players, int):
            names = list(_DEFAULT_NAMES[players] if 0 <= players <= MAX_PLAYERS else (f"Player {i + 1}" for i in range(players)))
        else:
            names = list(players)
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RulesError(f"Tonk is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}.")
        full, most = _deck_and_max_players(rules)
        if n > most:
            raise RulesError(
                f"A {rules.deck_size}-card deck with {rules.hand_size} cards each is enough for "
                f"{rules.max_players()} players at most."
            )
        if not 0 <= dealer < n:
            raise RulesError(f"The dealer must be one of the seats 0 to {n - 1}.")
        if not isinstance(stake, int) or isinstance(stake, bool) or not 1 <= stake <= MAX_STAKE:
            raise RulesError(f"The stake must be a whole number of points from 1 to {MAX_STAKE:,}.")
        if deck is None:
            deck = list(full)
            shuffle(deck, rng or random.Random())  # as shuffled_deck(rules, rng)
        else:
            deck = list(deck)
            check_deck(rules, deck)
        house = rules._house or side_bets
        if house and cls is Game:
            from .house import HouseGame

            cls = HouseGame
        game = cls()
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
        if house:
            game._setup(side_bets)
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

    def _setup(self, side_bets) -> None:
        """Hook for HouseGame: its own state, set before the tonk on the deal is settled."""

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
        """The seat whose action the hand waits for (a slapper's extra discard under house rules)."""
        return self.turn

    def counts(self) -> list[int]:
        return [count(h) for h in self.hands]

    def can_drop(self, seat: int) -> bool:
        return self.phase == START and seat == self.turn and not self.drop_blocked

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when it is not that seat's turn)."""
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
        """Every book and run that can be laid from `hand`."""
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
        first = spread.cards[0]
        if spread.kind == "book":
            return self.rules.hit_books and card.rank is first.rank and len(spread.cards) < 4
        if card.suit is not first.suit:
            return False
        pos = self._pos
        p = pos[card.rank]
        return p == pos[first.rank] - 1 or p == pos[spread.cards[-1].rank] + 1

    # ------------------------------------------------------------------ verifying

    def verify(self, seat: int, action: Action) -> None:
        """Raise a TonkError that names the broken rule, or return if `action` is legal."""
        if self.phase == OVER:
            raise IllegalAction("This hand is over.")
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction("There is no such seat at this table.")
        if seat != self.turn:
            raise NotYourTurn(f"It is {self.players[self.turn]}'s turn, not yours.")
        kind = type(action)
        if self.phase == START:
            if kind is Drop:
                if self.drop_blocked:
                    raise IllegalAction("You are waiting: you cannot drop on this turn.")
                return
            if kind is Draw:
                return
            if kind is TakeDiscard:
                if not self.discard:
                    raise IllegalAction("The discard pile is empty: draw from the stock.")
                return
            if kind in (Spread, Hit, Discard):
                raise IllegalAction("Draw from the stock or take the discard first (or drop).")
            raise IllegalAction(_not_at_this_table(action))
        # PLAY
        if kind is Drop:
            raise IllegalAction("You can only drop at the start of your turn, before you draw.")
        if kind is Draw or kind is TakeDiscard:
            raise IllegalAction("You have already drawn this turn: spread, hit or discard.")
        hand = self.hands[seat]
        if kind is Discard:
            self._require_in_hand(action.card, hand)
            return
        if kind is Hit:
            self._require_in_hand(action.card, hand)
            if action.card.joker:
                raise IllegalAction("Jokers cannot be played on spreads.")
            if not isinstance(action.spread, int) or not 0 <= action.spread < len(self.spreads):
                raise IllegalAction("There is no such spread on the table.")
            if action.stands_for is not None:
                raise IllegalAction("House rule: there are no wild cards at this table.")
            spread = self.spreads[action.spread]
            if not self._fits(action.card, spread):
                if spread.kind == "book" and not self.rules.hit_books:
                    raise IllegalAction("House rule: you can hit runs only, not books.")
                if spread.kind == "book" and len(spread.cards) >= 4:
                    raise IllegalAction("That book already has all four cards.")
                what = "book" if spread.kind == "book" else "run (same suit, at either end; A is low)"
                raise IllegalAction(f"{action.card.label} does not fit that {what}.")
            return
        if kind is Spread:
            cards = action.cards
            self._require_spread_cards(cards, hand)
            if action.wilds:
                raise IllegalAction("House rule: there are no wild cards at this table.")
            if any(c.joker for c in cards):
                raise IllegalAction("Jokers cannot be spread.")
            if self._spread_kind(cards) is None:
                raise IllegalAction(
                    "Those cards are neither a book (3 or 4 of one rank) nor a run "
                    "(3 or more of one suit in sequence; A is low)."
                )
            return
        raise IllegalAction(_not_at_this_table(action))

    def _require_spread_cards(self, cards, hand) -> None:
        """A spread's cards: each once, each in the hand, at least three."""
        if len(set(cards)) != len(cards):
            raise IllegalAction("A spread cannot use the same card twice.")
        for c in cards:
            self._require_in_hand(c, hand)
        if len(cards) < 3:
            raise IllegalAction("A spread needs at least 3 cards.")

    def _require_in_hand(self, card, hand) -> None:
        if not isinstance(card, Card):
            raise IllegalAction("That is not a card.")
        if card not in hand:
            raise IllegalAction(f"{card.label} is not in your hand.")

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
        if kind is Draw:
            if not self.stock and not self._reshuffle():
                return self._end(self._stock_out())
            self.hands[seat].append(self.stock.pop())
            self.phase = PLAY
        elif kind is TakeDiscard:
            self.hands[seat].append(self.discard.pop())
            self.phase = PLAY
        elif kind is Drop:
            return self._end(settle_drop(self.rules, seat, self.counts(), self.dealer, self.stake))
        elif kind is Discard:
            hand = self.hands[seat]
            hand.remove(action.card)
            self.discard.append(action.card)
            if not hand:
                return self._end(win_by_one("run_out", seat, self.counts(), self.stake, RUN_OUT_MULTIPLE))
            self._begin_turn((seat + 1) % len(self.players))
        elif kind is Spread:
            hand = self.hands[seat]
            for c in action.cards:
                hand.remove(c)
            spread_kind = self._spread_kind(action.cards)
            cards = list(action.cards)
            if spread_kind == "run":
                cards.sort(key=lambda c: self._pos[c.rank])
            self.spreads.append(TableSpread(seat, spread_kind, cards))
            self.spreads_this_turn += 1
            if self.rules.waiting:
                self.waits[seat] += self.rules.spread_wait
            if not hand:
                return self._end(self._tonk_out(seat))
        elif kind is Hit:
            hand = self.hands[seat]
            hand.remove(action.card)
            spread = self.spreads[action.spread]
            if self._pos[action.card.rank] < self._pos[spread.cards[0].rank] and spread.kind == "run":
                spread.cards.insert(0, action.card)
            else:
                spread.cards.append(action.card)
            if self.rules.waiting:
                owner = spread.owner
                if not (self.rules.hit_wait_cap and self.hit_flags[owner]):
                    self.waits[owner] += self.rules.hit_wait
                self.hit_flags[owner] = True
            if not hand:
                return self._end(self._tonk_out(seat))
        return None

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

    def _end(self, outcome: Outcome) -> Outcome:
        self.phase = OVER
        self.outcome = outcome
        return outcome

    def _tonk_out(self, seat: int) -> Outcome:
        multiple = self.rules.tonk_out_multiple(self.spreads_this_turn)
        return win_by_one("tonk_out", seat, self.counts(), self.stake, multiple)

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
        return {
            "format": "tonk-hand/1",
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "dealer": self.dealer,
            "stake": self.stake,
            "deck": [c.code for c in self.deck],
            "actions": [{"seat": s, **a.to_record()} for s, a in self.log],
            **self._record_extra(),
        }

    def _record_extra(self) -> dict:
        """Hook for HouseGame: the record's `side_bets`."""
        return {}

    def result(self) -> dict:
        """The replay result of HAND_RECORD.md, also for an unfinished hand (outcome null);
        with side bets, a finished hand's result carries `side_payments` and `pot_out`."""
        if self.outcome is None:
            n = self.num_players
            return {"outcome": None, "winners": [], "counts": self.counts(), "payments": [0] * n, "pushups": [0] * n}
        return self.outcome.result()

    @classmethod
    def from_record(cls, record: dict) -> "Game":
        """Replay a record; raise RecordError naming the bad part or the action index."""
        if not isinstance(record, dict):
            raise RecordError("A hand record must be a JSON object.")
        if record.get("format") != "tonk-hand/1":
            raise RecordError(f"Unknown record format {record.get('format')!r} (expected tonk-hand/1).")
        missing = [k for k in ("rules", "players", "dealer", "stake", "deck", "actions") if k not in record]
        if missing:
            raise RecordError(f"The record lacks {', '.join(missing)}.")
        try:
            rules = Rules.from_dict(record["rules"])
        except TonkError as exc:
            raise RecordError(f"Bad rules: {exc}") from None
        players = record["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of names.")
        if not isinstance(record["deck"], list):
            raise RecordError("deck must be a list of cards.")
        try:
            deck = [Card.parse(c) for c in record["deck"]]
        except ValueError as exc:
            raise RecordError(f"Bad deck: {exc}") from None
        dealer, stake = record["dealer"], record["stake"]
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError("dealer must be a seat number.")
        if not isinstance(stake, int) or isinstance(stake, bool):
            raise RecordError("stake must be a whole number.")
        side_bets = None
        if record.get("side_bets") is not None:
            from .session import side_bets_from_record

            side_bets = side_bets_from_record(record["side_bets"], len(players), stake)
        try:
            game = cls.deal(rules, players, dealer, deck=deck, stake=stake, side_bets=side_bets)
        except TonkError as exc:
            raise RecordError(str(exc)) from None
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("actions must be a list.")
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
        return {
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
            **self._state_extra(),
        }

    def _state_extra(self) -> dict:
        """Hook for HouseGame: its own state in `to_json`."""
        return {}

    def _load_extra(self, data: dict) -> None:
        """Hook for HouseGame: restore what `_state_extra` saved."""

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        if not isinstance(data, dict) or data.get("format") != "tonk-state/1":
            raise RecordError("Not a saved Tonk hand (format tonk-state/1).")
        parse = Card.parse
        rules = Rules.from_dict(data["rules"])
        if cls is Game and (rules.house or data.get("house")):
            from .house import HouseGame

            cls = HouseGame
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
        game._load_extra(data)
        return game

    def copy(self) -> "Game":
        """An independent copy: applying an action to it leaves this game as it was."""
        cls = type(self)
        game = cls.__new__(cls)
        for name in Game.__slots__:
            setattr(game, name, getattr(self, name))
        game.hands = [list(h) for h in self.hands]
        game.stock = list(self.stock)
        game.discard = list(self.discard)
        game.spreads = [TableSpread(s.owner, s.kind, list(s.cards), dict(s.named) if s.named else None)
                        for s in self.spreads]
        game.waits = list(self.waits)
        game.hit_flags = list(self.hit_flags)
        game.log = list(self.log)
        return game

    def view(self, seat: int):
        """What `seat` may see, and nothing more (see engine.view.SeatView)."""
        from .view import SeatView

        return SeatView.of(self, seat)


def _not_at_this_table(action) -> str:
    """The refusal for an action only a house rule allows (slap, swap, claim)."""
    verb = getattr(action, "verb", None)
    if verb == "slap":
        return "House rule: there is no slapping at this table."
    if verb == "swap":
        return "House rule: there are no wild swaps at this table."
    if verb == "claim":
        return "There are no instant hands to claim in turn at this table."
    return "That is not a Tonk action."


def spreads_in(hand, positions: dict) -> list[tuple[Card, ...]]:
    """Every book and run in `hand`: books in suit order, runs in sequence.

    `positions` maps a rank to its place in a run (`run_positions(rules)`). Shared by the
    legal-action generator and the computer players, so both see the same spreads.
    """
    found: list[tuple[Card, ...]] = []
    if len(hand) < 3:
        return found
    # Most hands hold no spread: find out from one integer before sorting anything. Each
    # card adds its rank's tally (a 4-bit field per rank, see cards.RANK_TALLY) and, above
    # bit 64, its own bit at 16 * suit + run position: three bits in a row are a run.
    tally = BOOK_BIAS
    table = _spread_tally(positions)
    for c in hand:
        tally += table[c.index]
    placed = tally >> 64
    books = tally & BOOK_TOP
    runs = placed & (placed >> 1) & (placed >> 2)
    if books:
        by_rank: dict = {}
        for c in hand:
            if not c.joker:
                by_rank.setdefault(c.rank, []).append(c)
        for cards in by_rank.values():
            if len(cards) >= 3:
                cards.sort(key=_suit_key)
                for size in range(3, len(cards) + 1):
                    found.extend(combinations(cards, size))
    if runs:
        by_suit: dict = {}
        for c in hand:
            if not c.joker:
                by_suit.setdefault(c.suit, []).append(c)
        for cards in by_suit.values():
            if len(cards) < 3:
                continue
            cards.sort(key=lambda c: positions[c.rank])
            # split into maximal consecutive stretches, then take every sub-stretch of 3+
            start = 0
            for i in range(1, len(cards) + 1):
                if i == len(cards) or positions[cards[i].rank] != positions[cards[i - 1].rank] + 1:
                    for a in range(start, i - 2):
                        for b in range(a + 3, i + 1):
                            found.append(tuple(cards[a:b]))
                    start = i
    return found


_SPREAD_TALLIES: dict[int, tuple[dict, tuple[int, ...]]] = {}


def _spread_tally(positions: dict) -> tuple[int, ...]:
    """By Card.index: the card's rank tally plus its run bit above bit 64 (jokers: 0).
    Kept per `positions` dict (run_positions keeps one per deck, so this stays small)."""
    known = _SPREAD_TALLIES.get(id(positions))
    if known is not None and known[0] is positions:
        return known[1]
    table = tuple(
        0 if c.joker or c.rank not in positions
        else RANK_TALLY[c.index] | 1 << (64 + 16 * SUIT_NUMBER[c.index] + positions[c.rank])
        for c in map(Card.by_index, range(CARD_COUNT))
    )
    if len(_SPREAD_TALLIES) > 64:  # someone passes fresh dicts: do not grow without end
        _SPREAD_TALLIES.clear()
    _SPREAD_TALLIES[id(positions)] = (positions, table)
    return table


def _suit_key(card: Card) -> str:
    return card.suit.value  # type: ignore[union-attr]


_POSITIONS: dict[int, dict] = {}


def run_positions(rules: Rules) -> dict:
    """Rank -> place in a run (40-card deck: 7 is next to J)."""
    key = rules.deck
    if key not in _POSITIONS:
        _POSITIONS[key] = {rank: i for i, rank in enumerate(rules.ranks)}
    return _POSITIONS[key]


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
            f"The deck is not a full {rules.deck_size}-card deck for these rules ({'; '.join(parts) or 'wrong size'})."
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
