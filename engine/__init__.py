"""The Tonk rules engine: pure Python, no Discord, no database, no asyncio.

See engine/README.md for the rules as implemented, the option keys and the decisions
taken where RULES.md is silent.
"""

from .actions import (CLAIM, DRAW, DROP, TAKE, Action, Claim, Discard, Draw, Drop, Hit, Slap, Spread, Swap, TakeDiscard,
                      action_from_record)
from .cards import Card, Rank, Suit, count, names, parse_cards, sorted_hand, spread_name
from .errors import IllegalAction, NotYourTurn, RecordError, RulesError, TonkError
from .game import OVER, PLAY, START, Game, TableSpread, cut_for_dealer, full_deck, next_dealer, shuffled_deck, stacked_deck
from .outcome import KINDS, Outcome
from .rules import PRESET_NAMES, PRESETS, InstantHand, Rules
from .simulate import play_random_hand, random_hand
from .view import PublicEvent, PublicSpread, SeatView

__all__ = [
    "CLAIM", "Claim", "InstantHand", "Slap", "Swap",
    "Action", "Card", "DRAW", "DROP", "Discard", "Draw", "Drop", "Game", "Hit", "IllegalAction",
    "KINDS", "NotYourTurn", "OVER", "Outcome", "PLAY", "PRESETS", "PRESET_NAMES", "PublicEvent",
    "PublicSpread", "Rank", "RecordError", "Rules", "RulesError", "START", "SeatView", "Spread",
    "Suit", "TAKE", "TableSpread", "TakeDiscard", "TonkError", "action_from_record", "count",
    "cut_for_dealer", "full_deck", "names", "next_dealer", "parse_cards", "play_random_hand",
    "random_hand", "shuffled_deck", "sorted_hand", "spread_name", "stacked_deck",
]
