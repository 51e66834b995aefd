"""The big one (RULES.md section 11), as a value of its own.

The host calls it for the table's last N hands (1 to 10): those hands are dealt at double stake,
and the table closes after the last of them. `BigOne` holds how many such hands are left; its
methods return the new value, and `bot.table.Table` checks who may call it and emits the events.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.session import big_one_stake, check_big_one

from bot.errors import UserError
from engine.text import tn


@dataclass(frozen=True, slots=True)
class BigOne:
    hands_left: int = 0
    """Hands left of the big one, a hand dealt under it and still in play included; 0: not called."""

    @property
    def on(self) -> bool:
        return self.hands_left > 0

    def called(self, hands: int) -> "BigOne":
        """The host calls it for the next `hands` hands (refused while it is on already)."""
        if self.on:
            raise UserError(tn("The big one is on already: {n} hand left.", "The big one is on already: {n} hands left.",
                               self.hands_left))
        return BigOne(check_big_one(hands))

    def stake(self, stake: int) -> int:
        """The stake of the next deal at a table of `stake`."""
        return big_one_stake(stake) if self.on else stake

    def after_hand(self, dealt_stake: int, stake: int) -> "BigOne":
        """The value after a hand dealt at `dealt_stake` finished: one hand fewer when it was a hand of
        the big one (one called during a hand starts at the next deal)."""
        return BigOne(self.hands_left - 1) if self.on and dealt_stake > stake else self

    @property
    def over(self) -> bool:
        """Was that the last hand of a big one? (Only meaningful from `after_hand`'s value.)"""
        return self.hands_left == 0

    def to_json(self) -> int:
        return self.hands_left

    @classmethod
    def from_json(cls, data: object) -> "BigOne":
        return cls(int(data or 0))  # type: ignore[call-overload]
