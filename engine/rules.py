"""House rules as data: one frozen `Rules` object, presets by name.

Every option of RULES.md section 7 is a field here; its JSON key is the field name.
A rules dict in a record or the database is `{"preset": NAME, **overrides}`; unknown
keys and values that do not exist are refused with `RulesError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from .cards import Rank
from .errors import RulesError
from .text import Text, t, tn

HAND_SIZES = tuple(range(3, 13))
TONK_OUT_PAYS = ("double", "second_spread", "single")
INSTANT_HIGH = ("49_50", "50_over_49", "off")
# `best` is section 7's name for `low_beats_high`; both are accepted.
INSTANT_CONFLICT = ("void", "best", "all_paid", "low_beats_high", "high_beats_low", "first_from_left")
INSTANT_TIE = ("left", "void")
INSTANT_KINDS = ("50", "49", "47", "41", "low", "all_faces", "all_tens_and_faces")
INSTANT_WHEN = ("deal", "turn")
FACE_VALUES = ("ten", "ranked")
ACE_IN_RUNS = ("low", "low_or_high")
WILD_CARDS = ("none", "jokers", "deuces_and_jokers")
MUST_SPREAD = ("off", "on", "on_but_three_aces")
FIRST_TURN_TONK_OUT = ("as_tonk_out", "double_then_single", "quadruple_two_spreads")
RUN_OUT_PAYS = ("single", "double")
DROP_WHEN = ("start_of_turn", "any_time")
SLAP = ("off", "first_to_slap", "next_player_first")
CAUGHT_PAYS = (
    "standard",
    "low_collects",
    "dropper_pays_all",
    "equal_or_lower",
    "double_to_all",
    "five_to_low",
    "per_player",
    "catchers_only",
)
STOCK_OUT = ("lowest_wins", "dead_hand", "reshuffle")
SCORING = ("stakes", "pushups")
DECKS = (52, 40)


@dataclass(frozen=True, slots=True)
class InstantHand:
    """One instant hand (RULES.md section 9): a condition on the dealt hand and what it pays.

    `hand` is one of INSTANT_KINDS; `max` is the highest count of a "low" hand; `when`
    is "deal" (settled at once) or "turn" (claimed at the start of the holder's first turn).
    """

    hand: str
    pays: int = 2
    when: str = "deal"
    max: int = 0

    def __post_init__(self) -> None:
        if self.hand not in INSTANT_KINDS:
            raise RulesError(t('An instant hand must be one of {kinds}, not {hand}.', kinds=list(INSTANT_KINDS), hand=repr(self.hand)))
        if self.pays not in (1, 2, 3, 4) or isinstance(self.pays, bool):
            raise RulesError(t("An instant hand pays 1 to 4 stakes."))
        if self.when not in INSTANT_WHEN:
            raise RulesError(t("An instant hand is claimed on the deal or in turn."))
        if self.hand == "low":
            if not isinstance(self.max, int) or isinstance(self.max, bool) or not 9 <= self.max <= 15:
                raise RulesError(t("A low instant hand needs a max count from 9 to 15."))
        elif self.max:
            raise RulesError(t("Only a low instant hand has a max count."))

    @classmethod
    def from_dict(cls, data) -> "InstantHand":
        if isinstance(data, InstantHand):
            return data
        if not isinstance(data, dict):
            raise RulesError(t('An instant hand must be an object like {{"hand": "50", "pays": 2}}.'))
        unknown = sorted(set(data) - {"hand", "pays", "when", "max"})
        if unknown:
            raise RulesError(t('Unknown instant hand field(s): {fields}.', fields=list(map(str, unknown))))
        if "hand" not in data:
            raise RulesError(t("An instant hand needs its hand (50, 49, 47, 41, low, all_faces, all_tens_and_faces)."))
        return cls(data["hand"], data.get("pays", 2), data.get("when", "deal"), data.get("max", 0))

    def to_dict(self) -> dict:
        out: dict = {"hand": self.hand, "pays": self.pays, "when": self.when}
        if self.hand == "low":
            out["max"] = self.max
        return out

    def holds(self, rules: "Rules", hand, count: int) -> bool:
        """Does a dealt `hand` (with its `count`) make this instant hand?"""
        kind = self.hand
        if kind == "low":
            return count <= self.max
        if kind == "all_faces":
            return all(c.rank is not None and c.rank >= Rank.JACK for c in hand)
        if kind == "all_tens_and_faces":
            return all(c.rank is not None and c.rank >= Rank.TEN for c in hand)
        return count == int(kind)

    def describe(self) -> "Text":
        deal = self.when == "deal"
        if self.hand == "low":
            return (tn("A count of {max} or less on the deal wins {n} stake from each player.",
                       "A count of {max} or less on the deal wins {n} stakes from each player.", self.pays, max=self.max)
                    if deal else
                    tn("A count of {max} or less claimed at the start of your first turn wins {n} stake from each "
                       "player.", "A count of {max} or less claimed at the start of your first turn wins {n} stakes "
                       "from each player.", self.pays, max=self.max))
        if self.hand == "all_faces":
            name = t("All face cards (J, Q, K)")
        elif self.hand == "all_tens_and_faces":
            name = t("All tens and face cards")
        else:
            name = t("A count of {count}", count=int(self.hand))
        if deal:
            return tn("{hand} on the deal wins {n} stake from each player.",
                      "{hand} on the deal wins {n} stakes from each player.", self.pays, hand=name)
        return tn("{hand} claimed at the start of your first turn wins {n} stake from each player.",
                  "{hand} claimed at the start of your first turn wins {n} stakes from each player.", self.pays,
                  hand=name)


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a table plays by. Defaults are the standard game."""

    hand_size: int = 5
    upcard: bool = True
    waiting: bool = False
    spread_wait: int = 3
    hit_wait: int = 1
    hit_wait_cap: bool = False
    hit_books: bool = True
    tonk_out_pays: str = "double"
    instant_high: str = "49_50"
    instant_low: int = 0
    instant_low_triple: bool = False
    instant_conflict: str = "void"
    caught_pays: str = "standard"
    stock_out: str = "lowest_wins"
    jokers: int = 0
    deck: int = 52
    scoring: str = "stakes"
    # RULES.md section 9 (keys as in shared/RULE_KEYS.md)
    instant_hands: tuple["InstantHand", ...] | None = None
    instant_tie: str = "left"
    face_values: str = "ten"
    ace_in_runs: str = "low"
    wild_cards: str = "none"
    wild_swap: bool = False
    must_spread: str = "off"
    hits_per_turn: int = 0
    hit_ends_turn: bool = False
    take_must_be_used: bool = False
    hit_bars_going_out: bool = False
    hit_spoils_tonk_out: bool = False
    first_turn_tonk_out: str = "as_tonk_out"
    run_out_pays: str = "single"
    double_double: bool = False
    catchers_stakes: int = 2
    boobed: bool = False
    drop_when: str = "start_of_turn"
    slap: str = "off"
    # derived once, for the deal's fast path (not options: no key, not compared)
    _instants: tuple = field(default=(), init=False, repr=False, compare=False)
    _scan: tuple | None = field(default=None, init=False, repr=False, compare=False)  # see Game.deal
    _house: bool = field(default=False, init=False, repr=False, compare=False)
    _ranks: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(message)

        check(self.hand_size in HAND_SIZES and not isinstance(self.hand_size, bool),
              f"Hand size must be a whole number from 3 to 12, not {self.hand_size!r}.")
        for name in ("upcard", "waiting", "hit_wait_cap", "hit_books", "instant_low_triple"):
            check(isinstance(getattr(self, name), bool), f"{name} must be true or false.")
        for name in ("spread_wait", "hit_wait"):
            value = getattr(self, name)
            check(isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9,
                  f"{name} must be a whole number of turns from 0 to 9.")
        check(self.tonk_out_pays in TONK_OUT_PAYS, f"tonk_out_pays must be one of {', '.join(TONK_OUT_PAYS)}.")
        check(self.instant_high in INSTANT_HIGH, f"instant_high must be one of {', '.join(INSTANT_HIGH)}.")
        check(self.instant_low == 0 or (isinstance(self.instant_low, int) and 9 <= self.instant_low <= 15),
              t("instant_low must be 0 (off) or a count from 9 to 15."))
        check(not self.instant_low_triple or self.instant_low == 9,
              t("instant_low_triple pays triple only for a count of 9 or less: set instant_low to 9."))
        check(self.instant_conflict in INSTANT_CONFLICT,
              f"instant_conflict must be one of {', '.join(INSTANT_CONFLICT)}.")
        check(self.caught_pays in CAUGHT_PAYS, f"caught_pays must be one of {', '.join(CAUGHT_PAYS)}.")
        check(self.stock_out in STOCK_OUT, f"stock_out must be one of {', '.join(STOCK_OUT)}.")
        check(isinstance(self.jokers, int) and not isinstance(self.jokers, bool) and 0 <= self.jokers <= 4,
              t("jokers must be from 0 to 4."))
        check(self.deck in DECKS, t("deck must be 52 or 40."))
        check(self.scoring in SCORING, t("scoring must be stakes or pushups."))
        if self.instant_hands is not None:
            hands = self.instant_hands
            if isinstance(hands, list):  # from a dict: build the frozen values here
                hands = tuple(InstantHand.from_dict(h) for h in hands)
                object.__setattr__(self, "instant_hands", hands)
            check(isinstance(hands, tuple) and all(isinstance(h, InstantHand) for h in hands),
                  t("instant_hands must be a list of instant hands."))
        for name, allowed in (("instant_tie", INSTANT_TIE), ("face_values", FACE_VALUES),
                              ("ace_in_runs", ACE_IN_RUNS), ("wild_cards", WILD_CARDS),
                              ("must_spread", MUST_SPREAD), ("first_turn_tonk_out", FIRST_TURN_TONK_OUT),
                              ("run_out_pays", RUN_OUT_PAYS), ("drop_when", DROP_WHEN), ("slap", SLAP)):
            check(getattr(self, name) in allowed, f"{name} must be one of {', '.join(allowed)}.")
        for name in ("wild_swap", "hit_ends_turn", "take_must_be_used", "hit_bars_going_out",
                     "hit_spoils_tonk_out", "double_double", "boobed"):
            check(isinstance(getattr(self, name), bool), f"{name} must be true or false.")
        check(self.hits_per_turn in (0, 1) and not isinstance(self.hits_per_turn, bool),
              t("hits_per_turn must be 0 (any number) or 1."))
        check(self.catchers_stakes in (2, 4) and not isinstance(self.catchers_stakes, bool),
              t("catchers_stakes must be 2 or 4."))
        check(not self.wild_swap or self.wild_cards != "none", t("wild_swap needs wild cards (set wild_cards)."))
        check(self.wild_cards != "jokers" or self.jokers > 0, t("wild_cards jokers needs jokers in the deck (set jokers)."))
        object.__setattr__(self, "_ranks", tuple(
            r for r in Rank if self.deck != 40 or r not in (Rank.EIGHT, Rank.NINE, Rank.TEN)))
        instants = self._instant_list()
        object.__setattr__(self, "_instants", instants)
        faces = any(h.hand in ("all_faces", "all_tens_and_faces") for h in instants)
        lows = [h.max for h in instants if h.hand == "low"]
        highs = frozenset(int(h.hand) for h in instants if h.hand.isdigit())
        object.__setattr__(self, "_scan", (max(lows, default=-1), highs, faces) if instants else None)
        object.__setattr__(self, "_house", self._needs_house())

    # --- derived facts the engine asks for -------------------------------------------

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """Ranks in the deck, in run order (40 cards: 7 is next to J)."""
        return self._ranks

    @property
    def deck_size(self) -> int:
        return len(self.ranks) * 4 + self.jokers

    @property
    def instant_high_counts(self) -> tuple[int, int]:
        """(lesser, greater) instant-high counts: 49/50, or 47/50 with the 40-card deck."""
        return (47 if self.deck == 40 else 49, 50)

    def tonk_out_multiple(self, new_spreads: int) -> int:
        """What a tonk out pays, in single stakes, when made with `new_spreads` spreads laid that turn."""
        pays = self.tonk_out_pays
        return 2 if pays == "double" or (pays == "second_spread" and new_spreads >= 2) else 1

    def can_reshuffle(self, discard_size: int) -> bool:
        """Whether an empty stock is renewed from a discard pile of this size (its top card stays)."""
        return self.stock_out == "reshuffle" and discard_size > 1

    def max_players(self) -> int:
        """Players × hand size + the upcard must fit in the deck (RULE_KEYS.md)."""
        upcard = 1 if self.upcard else 0
        return min(6, (self.deck_size - upcard) // self.hand_size)

    @property
    def instant_list(self) -> tuple["InstantHand", ...]:
        """The instant hands in force: `instant_hands`, or section 7's high and low options.

        With ranked face values the count-based hands are off (RULES.md section 9).
        """
        return self._instants

    def _instant_list(self) -> tuple["InstantHand", ...]:
        hands = self.instant_hands
        if hands is None:
            derived = []
            if self.instant_low:
                derived.append(InstantHand("low", 3 if self.instant_low_triple else 2, "deal", self.instant_low))
            if self.instant_high != "off":
                derived.append(InstantHand("50", 2))
                lesser = "47" if self.deck == 40 else "49"
                derived.append(InstantHand(lesser, 1 if self.instant_high == "50_over_49" else 2))
            hands = tuple(derived)
        if self.face_values == "ranked":
            hands = tuple(h for h in hands if h.hand in ("all_faces", "all_tens_and_faces"))
        return hands

    @property
    def wild(self) -> bool:
        return self.wild_cards != "none"

    @property
    def house(self) -> bool:
        """Do hands under these rules need the house rules' rule object (engine.house.HouseRules)?"""
        return self._house

    def _needs_house(self) -> bool:
        return (
            self.face_values != "ten" or self.ace_in_runs != "low" or self.wild_cards != "none"
            or self.must_spread != "off" or self.hits_per_turn != 0 or self.hit_ends_turn
            or self.take_must_be_used or self.hit_bars_going_out or self.hit_spoils_tonk_out
            or self.first_turn_tonk_out != "as_tonk_out" or self.run_out_pays != "single"
            or self.double_double or self.boobed or self.drop_when != "start_of_turn"
            or self.slap != "off" or any(h.when == "turn" for h in self._instants)
        )

    def card_value(self, card) -> int:
        """A card's value in a count: ranked face values make J 11, Q 12, K 13."""
        if self.face_values == "ranked" and card.rank is not None:
            return int(card.rank)
        return card.value

    # --- (de)serialisation --------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Rules":
        key = normalise_preset_name(name)
        if key not in PRESETS:
            raise RulesError(t('There is no preset called {name}; try one of {presets}.', name=repr(name), presets=list(PRESET_NAMES)))
        return PRESETS[key]

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """`{"preset": NAME, **overrides}`; a missing preset means standard."""
        if not isinstance(data, dict):
            raise RulesError(t("Rules must be an object with a preset name and options."))
        data = dict(data)
        base = cls.preset(data.pop("preset", "standard"))
        known = {f.name for f in fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(t('Unknown house rule option(s): {unknown}.', unknown=list(unknown)))
        try:
            return replace(base, **data)
        except TypeError as exc:  # pragma: no cover - replace only raises for unknown keys
            raise RulesError(str(exc)) from None

    def to_dict(self, preset: str | None = None) -> dict:
        """The shortest dict that rebuilds these rules: a preset plus what differs from it."""
        if preset is None:
            preset = self.closest_preset()
        base = _plain(PRESETS[normalise_preset_name(preset)])
        mine = _plain(self)
        out: dict = {"preset": PRESETS_DISPLAY[normalise_preset_name(preset)]}
        out.update({k: v for k, v in mine.items() if base[k] != v})
        return out

    def closest_preset(self) -> str:
        best = _CLOSEST.get(self)
        if best is None:
            mine = _plain(self)
            best = min(PRESETS, key=lambda k: sum(1 for f, v in _plain(PRESETS[k]).items() if mine[f] != v))
            if len(_CLOSEST) < 1024:
                _CLOSEST[self] = best
        return PRESETS_DISPLAY[best]

    def _describe_house(self) -> list["Text"]:
        return _describe_house(self)

    def describe(self) -> list["Text"]:
        """One line per option, in words a player reads (used by /tonk rules and the lobby)."""
        low, high = self.instant_high_counts
        deal = tn("Deal {n} card each from a {deck}-card deck", "Deal {n} cards each from a {deck}-card deck",
                  self.hand_size, deck=self.deck)
        if self.jokers:
            deal = tn("{deal} with {n} joker worth 0", "{deal} with {n} jokers worth 0", self.jokers, deal=deal)
        lines = [t("{deal}; an upcard starts the discard pile.", deal=deal) if self.upcard
                 else t("{deal}; no upcard (first player draws).", deal=deal)]
        if self.instant_hands is not None or self.face_values == "ranked":
            lines.extend(h.describe() for h in self.instant_list)
            if not self.instant_list:
                lines.append(t("No instant wins on the deal."))
        elif self.instant_high == "49_50":
            lines.append(t("Tonk on the deal: a count of {low} or {high} wins a double stake.", low=low, high=high))
        elif self.instant_high == "50_over_49":
            lines.append(t("Tonk on the deal: {high} wins double, {low} wins single ({high} beats {low}).", low=low, high=high))
        else:
            lines.append(t("No tonk for a high count on the deal."))
        if self.instant_low and self.instant_hands is None and self.face_values == "ten":
            lines.append(t("A count of {count} or less on the deal wins triple.", count=self.instant_low)
                         if self.instant_low_triple else
                         t("A count of {count} or less on the deal wins double.", count=self.instant_low))
        tie = t("equal best hands void the hand") if self.instant_tie == "void" else \
            t("equal best hands: the one nearest the dealer's left")
        lines.append({
            "void": t("Two instant winners: the hand is void."),
            "best": t("Two instant winners: the best one wins (low beats 50 beats 49) ({tie}).", tie=tie),
            "low_beats_high": t("Two instant winners: the best one wins (a low count beats 50 beats 49) ({tie}).", tie=tie),
            "high_beats_low": t("Two instant winners: the best one wins (50 beats 49 beats a low count) ({tie}).", tie=tie),
            "first_from_left": t("Two instant winners: the one nearest the dealer's left wins."),
            "all_paid": t("Two instant winners: each is paid by the others."),
        }[self.instant_conflict])
        lines.extend(self._describe_house())
        if self.first_turn_tonk_out == "double_then_single":  # it replaces tonk_out_pays (Game.going_out_multiple)
            lines.append(t("Tonk out (no cards left, no discard) pays double on your first turn; later ones single."))
        else:
            lines.append({
                "double": t("Tonk out (no cards left, no discard) pays double."),
                "second_spread": t("Tonk out pays double only when made with a second new spread in the turn; "
                                 "otherwise single."),
                "single": t("Tonk out pays a single stake."),
            }[self.tonk_out_pays])
        lines.append(t("Hits on books allowed.") if self.hit_books else t("Hits on runs only (no hitting books)."))
        if self.waiting:
            spread_turns = tn("{n} turn", "{n} turns", self.spread_wait)
            hit_turns = tn("{n} turn", "{n} turns", self.hit_wait)
            lines.append(
                t("Waiting: a new spread bars your drop for {spread}; each hit on your spreads bars it for "
                  "{hit} (at most one turn per round).", spread=spread_turns, hit=hit_turns) if self.hit_wait_cap else
                t("Waiting: a new spread bars your drop for {spread}; each hit on your spreads bars it for "
                  "{hit}.", spread=spread_turns, hit=hit_turns))
        lines.append({
            "standard": t("Caught drop: the dropper pays double to everyone at or under their count; the others pay "
                        "single to each player with the lowest count."),
            "low_collects": t("Caught drop: each player with the lowest count collects double from the dropper and "
                            "single from everyone else."),
            "dropper_pays_all": t("Caught drop: the dropper pays one stake per other player to each player with the "
                                "lowest count."),
            "equal_or_lower": t("Caught drop: the dropper pays single to each at or under their count; each player "
                              "with the lowest count collects single from the rest."),
            "double_to_all": t("Caught drop: the dropper pays double to every other player."),
            "five_to_low": t("Caught drop: the dropper pays 5 stakes to the low player."),
            "per_player": t("Caught drop: the dropper pays 2 stakes per player at the table to each low player."),
            "catchers_only": tn("Caught drop: the dropper pays {n} stake to everyone at or "
                                "under their count; nobody else pays.", "Caught drop: the dropper pays {n} stakes to "
                                "everyone at or under their count; nobody else pays.", self.catchers_stakes),
        }[self.caught_pays])
        lines.append({
            "lowest_wins": t("Empty stock: lowest count wins single (a tie is a draw)."),
            "dead_hand": t("Empty stock: dead hand, nobody pays."),
            "reshuffle": t("Empty stock: the discard pile (but its top card) is shuffled into a new stock."),
        }[self.stock_out])
        lines.append(t("Scoring: push-ups (low is good).") if self.scoring == "pushups" else t("Scoring: stakes (zero-sum)."))
        return lines


def _describe_house(rules: Rules) -> list["Text"]:
    """The section 9 options in force, one plain sentence each."""
    lines = []
    if rules.face_values == "ranked":
        lines.append(t("Face cards count by rank: J 11, Q 12, K 13."))
    if rules.ace_in_runs == "low_or_high":
        lines.append(t("An ace may be low or high in a run (A-2-3 and Q-K-A), never both (no K-A-2)."))
    if rules.wild_cards != "none":
        lines.append(t("Jokers are wild: a spread needs two natural cards; say what each wild card stands for.")
                     if rules.wild_cards == "jokers" else
                     t("Deuces and jokers are wild: a spread needs two natural cards; say what each wild card stands "
                       "for."))
    if rules.wild_swap:
        lines.append(t("Wild swap: play the natural card a wild card stands for and take the wild card into your hand."))
    if rules.must_spread != "off":
        lines.append(t("You must lay every spread you can before you discard (three aces may be held).")
                     if rules.must_spread == "on_but_three_aces" else
                     t("You must lay every spread you can before you discard."))
    if rules.hits_per_turn:
        lines.append(t("At most one hit a turn."))
    if rules.hit_ends_turn:
        lines.append(t("A hit ends your turn at once (no discard)."))
    if rules.take_must_be_used:
        lines.append(t("Take the discard only to spread or hit with it at once."))
    if rules.hit_bars_going_out:
        lines.append(t("A turn your drop is barred by a hit, you cannot empty your hand either."))
    if rules.hit_spoils_tonk_out:
        lines.append(t("Once you have hit a spread this hand, going out pays single."))
    # (first_turn_tonk_out "double_then_single" is said by the tonk out's own line: it replaces it)
    if rules.first_turn_tonk_out == "quadruple_two_spreads":
        lines.append(t("Going out on your first turn with two new spreads of your own pays four stakes."))
    if rules.run_out_pays == "double":
        lines.append(t("A run out (last card discarded) pays double."))
    if rules.double_double:
        lines.append(t("Two players: a tonk out pays four when the loser's whole hand could be hit on the table."))
    if rules.boobed:
        lines.append(t("Boobed: with no more stock cards than players, emptying your hand does not win; "
                     "you must drop with 0 at your next turn."))
    if rules.drop_when == "any_time":
        lines.append(t("You may drop at any time in your turn, also after drawing."))
    if rules.slap == "first_to_slap":
        lines.append(t("Slap: anyone may slap a discard that fits a spread; the first slap wins and the slapper "
                     "discards one more card."))
    elif rules.slap == "next_player_first":
        lines.append(t("Slap: anyone may slap a discard that fits a spread; the next player's slap wins."))
    return lines


_OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.init)
_PLAIN: dict = {}
_CLOSEST: dict = {}


def _plain(rules: Rules) -> dict:
    """The rules as a JSON-ready dict of every option (instant hands as a list of dicts).
    Remembered per rules: `to_dict` runs on every save of a live table."""
    found = _PLAIN.get(rules)
    if found is None:
        found = {name: getattr(rules, name) for name in _OPTION_NAMES}
        if found["instant_hands"] is not None:
            found["instant_hands"] = [h.to_dict() for h in found["instant_hands"]]
        if len(_PLAIN) < 1024:
            _PLAIN[rules] = found
    data = dict(found)
    if data["instant_hands"] is not None:
        data["instant_hands"] = [dict(h) for h in data["instant_hands"]]
    return data


def normalise_preset_name(name: str) -> str:
    if not isinstance(name, str):
        raise RulesError(t("The preset must be a name."))
    return name.strip().lower().replace("-", " ").replace("_", " ")


_STANDARD = Rules()
PRESETS: dict[str, Rules] = {
    "standard": _STANDARD,
    "waiting": replace(_STANDARD, waiting=True),
    "black company": replace(
        _STANDARD,
        instant_high="49_50",
        instant_low=15,
        instant_conflict="all_paid",
        hit_books=False,
        tonk_out_pays="single",
    ),
    "washington": replace(
        _STANDARD,
        scoring="stakes",
        instant_high="49_50",
        instant_low=14,
        instant_conflict="all_paid",
        waiting=True,
        spread_wait=0,
        hit_wait=1,
        caught_pays="per_player",
    ),
    "push ups": replace(_STANDARD, scoring="pushups"),
    "seattle": replace(_STANDARD, hand_size=7, instant_hands=(InstantHand("all_tens_and_faces"),)),
    "baton rouge": replace(_STANDARD, deck=40),
    # RULES.md section 11
    "rushville": replace(
        _STANDARD,
        instant_hands=(InstantHand("all_faces", 2),),
        run_out_pays="double",
        caught_pays="catchers_only",
        catchers_stakes=4,
        boobed=True,
    ),
    "chicago": replace(
        _STANDARD,
        wild_cards="deuces_and_jokers",
        jokers=2,
        upcard=False,
        instant_hands=(InstantHand("50", 2), InstantHand("low", 2, "deal", 13), InstantHand("49", 1, "turn")),
        instant_conflict="low_beats_high",
        instant_tie="void",
        hit_spoils_tonk_out=True,
        first_turn_tonk_out="double_then_single",
        caught_pays="catchers_only",
        catchers_stakes=2,
    ),
    "deuces wild": replace(
        _STANDARD,
        wild_cards="deuces_and_jokers",
        jokers=1,
        wild_swap=True,
        instant_hands=(InstantHand("50", 2), InstantHand("41", 2), InstantHand("low", 2, "deal", 13),
                       InstantHand("49", 1)),
    ),
    "newark": replace(
        _STANDARD,
        instant_hands=(InstantHand("50", 2), InstantHand("49", 2), InstantHand("low", 2, "deal", 13)),
        instant_conflict="high_beats_low",
        first_turn_tonk_out="quadruple_two_spreads",
    ),
    "washington dc": replace(
        _STANDARD,
        instant_hands=(InstantHand("50", 2), InstantHand("49", 2), InstantHand("low", 2, "deal", 11)),
        instant_conflict="low_beats_high",
    ),
    "scarne": replace(_STANDARD, hand_size=7, instant_hands=(InstantHand("all_tens_and_faces", 2),)),
    "vietnam": replace(_STANDARD, hand_size=7, deck=40, instant_hands=(InstantHand("all_faces", 2),)),
    "slap": replace(_STANDARD, slap="first_to_slap"),
    "high faces": replace(_STANDARD, face_values="ranked"),
}
PRESETS_DISPLAY = {k: k for k in PRESETS}
PRESETS_DISPLAY["push ups"] = "push-ups"
PRESET_NAMES = tuple(PRESETS_DISPLAY.values())
