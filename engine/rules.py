"""House rules as data: one frozen `Rules` object, presets by name.

Every option of RULES.md section 7 is a field here; its JSON key is the field name.
A rules dict in a record or the database is `{"preset": NAME, **overrides}`; unknown
keys and values that do not exist are refused with `RulesError`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from .cards import Rank
from .errors import RulesError

HAND_SIZES = (5, 7)
TONK_OUT_PAYS = ("double", "second_spread", "single")
INSTANT_HIGH = ("49_50", "50_over_49", "off")
INSTANT_CONFLICT = ("void", "best", "all_paid")
CAUGHT_PAYS = (
    "standard",
    "low_collects",
    "dropper_pays_all",
    "equal_or_lower",
    "double_to_all",
    "five_to_low",
    "per_player",
)
STOCK_OUT = ("lowest_wins", "dead_hand", "reshuffle")
SCORING = ("stakes", "pushups")
DECKS = (52, 40)


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

    def __post_init__(self) -> None:
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(message)

        check(self.hand_size in HAND_SIZES, f"Hand size must be 5 or 7, not {self.hand_size!r}.")
        for name in ("upcard", "waiting", "hit_wait_cap", "hit_books", "instant_low_triple"):
            check(isinstance(getattr(self, name), bool), f"{name} must be true or false.")
        for name in ("spread_wait", "hit_wait"):
            value = getattr(self, name)
            check(isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9,
                  f"{name} must be a whole number of turns from 0 to 9.")
        check(self.tonk_out_pays in TONK_OUT_PAYS, f"tonk_out_pays must be one of {', '.join(TONK_OUT_PAYS)}.")
        check(self.instant_high in INSTANT_HIGH, f"instant_high must be one of {', '.join(INSTANT_HIGH)}.")
        check(self.instant_low == 0 or (isinstance(self.instant_low, int) and 9 <= self.instant_low <= 15),
              "instant_low must be 0 (off) or a count from 9 to 15.")
        check(not self.instant_low_triple or self.instant_low == 9,
              "instant_low_triple pays triple only for a count of 9 or less: set instant_low to 9.")
        check(self.instant_conflict in INSTANT_CONFLICT,
              f"instant_conflict must be one of {', '.join(INSTANT_CONFLICT)}.")
        check(self.caught_pays in CAUGHT_PAYS, f"caught_pays must be one of {', '.join(CAUGHT_PAYS)}.")
        check(self.stock_out in STOCK_OUT, f"stock_out must be one of {', '.join(STOCK_OUT)}.")
        check(isinstance(self.jokers, int) and not isinstance(self.jokers, bool) and 0 <= self.jokers <= 4,
              "jokers must be from 0 to 4.")
        check(self.deck in DECKS, "deck must be 52 or 40.")
        check(self.scoring in SCORING, "scoring must be stakes or pushups.")

    # --- derived facts the engine asks for -------------------------------------------

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """Ranks in the deck, in run order (40 cards: 7 is next to J)."""
        if self.deck == 40:
            return tuple(r for r in Rank if r not in (Rank.EIGHT, Rank.NINE, Rank.TEN))
        return tuple(Rank)

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
        upcard = 1 if self.upcard else 0
        return min(6, (self.deck_size - upcard - 1) // self.hand_size)

    # --- (de)serialisation --------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Rules":
        key = normalise_preset_name(name)
        if key not in PRESETS:
            raise RulesError(f"There is no preset called {name!r}; try one of {', '.join(PRESET_NAMES)}.")
        return PRESETS[key]

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """`{"preset": NAME, **overrides}`; a missing preset means standard."""
        if not isinstance(data, dict):
            raise RulesError("Rules must be an object with a preset name and options.")
        data = dict(data)
        base = cls.preset(data.pop("preset", "standard"))
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"Unknown house rule option(s): {', '.join(unknown)}.")
        try:
            return replace(base, **data)
        except TypeError as exc:  # pragma: no cover - replace only raises for unknown keys
            raise RulesError(str(exc)) from None

    def to_dict(self, preset: str | None = None) -> dict:
        """The shortest dict that rebuilds these rules: a preset plus what differs from it."""
        if preset is None:
            preset = self.closest_preset()
        base = asdict(PRESETS[normalise_preset_name(preset)])
        mine = asdict(self)
        out: dict = {"preset": PRESETS_DISPLAY[normalise_preset_name(preset)]}
        out.update({k: v for k, v in mine.items() if base[k] != v})
        return out

    def closest_preset(self) -> str:
        mine = asdict(self)
        best = min(PRESETS, key=lambda k: sum(1 for f, v in asdict(PRESETS[k]).items() if mine[f] != v))
        return PRESETS_DISPLAY[best]

    def describe(self) -> list[str]:
        """One line per option, in words a player reads (used by /tonk rules and the lobby)."""
        low, high = self.instant_high_counts
        lines = [
            f"Deal {self.hand_size} cards each from a {self.deck}-card deck"
            + (f" with {self.jokers} joker{'' if self.jokers == 1 else 's'} worth 0" if self.jokers else "")
            + ("; an upcard starts the discard pile." if self.upcard else "; no upcard (first player draws)."),
        ]
        if self.instant_high == "49_50":
            lines.append(f"Tonk on the deal: a count of {low} or {high} wins a double stake.")
        elif self.instant_high == "50_over_49":
            lines.append(f"Tonk on the deal: {high} wins double, {low} wins single ({high} beats {low}).")
        else:
            lines.append("No tonk for a high count on the deal.")
        if self.instant_low:
            pays = "triple" if self.instant_low_triple else "double"
            lines.append(f"A count of {self.instant_low} or less on the deal wins {pays}.")
        lines.append({
            "void": "Two instant winners: the hand is void.",
            "best": "Two instant winners: the best one wins (low beats 50 beats 49).",
            "all_paid": "Two instant winners: each is paid by the others.",
        }[self.instant_conflict])
        lines.append({
            "double": "Tonk out (no cards left, no discard) pays double.",
            "second_spread": "Tonk out pays double only when made with a second new spread in the turn; otherwise single.",
            "single": "Tonk out pays a single stake.",
        }[self.tonk_out_pays])
        lines.append("Hits on books allowed." if self.hit_books else "Hits on runs only (no hitting books).")
        if self.waiting:
            cap = " (at most one turn per round)" if self.hit_wait_cap else ""
            spread_turns = f"{self.spread_wait} turn{'' if self.spread_wait == 1 else 's'}"
            hit_turns = f"{self.hit_wait} turn{'' if self.hit_wait == 1 else 's'}"
            lines.append(
                f"Waiting: a new spread bars your drop for {spread_turns}; each hit on your spreads bars it for "
                f"{hit_turns}{cap}."
            )
        lines.append({
            "standard": "Caught drop: the dropper pays double to everyone at or under their count; others pay the low player(s).",
            "low_collects": "Caught drop: low player(s) collect double from the dropper and single from everyone else.",
            "dropper_pays_all": "Caught drop: the dropper pays one stake per other player to the low player(s).",
            "equal_or_lower": "Caught drop: the dropper pays single to each at or under their count; low player(s) collect single from the rest.",
            "double_to_all": "Caught drop: the dropper pays double to every other player.",
            "five_to_low": "Caught drop: the dropper pays 5 stakes to the low player.",
            "per_player": "Caught drop: the dropper pays 2 stakes per player at the table to each low player.",
        }[self.caught_pays])
        lines.append({
            "lowest_wins": "Empty stock: lowest count wins single (a tie is a draw).",
            "dead_hand": "Empty stock: dead hand, nobody pays.",
            "reshuffle": "Empty stock: the discard pile (but its top card) is shuffled into a new stock.",
        }[self.stock_out])
        lines.append("Scoring: push-ups (low is good)." if self.scoring == "pushups" else "Scoring: stakes (zero-sum).")
        return lines


def normalise_preset_name(name: str) -> str:
    if not isinstance(name, str):
        raise RulesError("The preset must be a name.")
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
    "seattle": replace(_STANDARD, hand_size=7),
    "baton rouge": replace(_STANDARD, deck=40),
}
PRESETS_DISPLAY = {k: k for k in PRESETS}
PRESETS_DISPLAY["push ups"] = "push-ups"
PRESET_NAMES = tuple(PRESETS_DISPLAY.values())
