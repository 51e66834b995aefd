"""Who a ledger account belongs to.

A human's account is their Discord user id (``user:<id>``), so a rename keeps
their standing; a computer player's account is its own name (``cpu:<name>``).
The display name is what the standings show, updated on every hand.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

HUMAN_PREFIX = "user:"
COMPUTER_PREFIX = "cpu:"


@dataclass(frozen=True, slots=True)
class PlayerRef:
    account: str
    display_name: str

    def __post_init__(self) -> None:
        if self.account.startswith(HUMAN_PREFIX):
            user_id = self.account.removeprefix(HUMAN_PREFIX)
            if not user_id.isdigit():
                raise ValueError(f"a human account is user:<discord id>, not {self.account!r}")
        elif not self.account.startswith(COMPUTER_PREFIX) or self.account == COMPUTER_PREFIX:
            raise ValueError(f"an account is user:<discord id> or cpu:<name>, not {self.account!r}")
        if not isinstance(self.display_name, str) or not self.display_name:
            raise ValueError(f"a player needs a display name, not {self.display_name!r}")

    @classmethod
    def human(cls, user_id: int, display_name: str) -> "PlayerRef":
        return cls(f"{HUMAN_PREFIX}{int(user_id)}", display_name)

    @classmethod
    def computer(cls, name: str, display_name: str | None = None) -> "PlayerRef":
        return cls(f"{COMPUTER_PREFIX}{name}", display_name or name)

    @classmethod
    def from_seat(cls, seat: Mapping[str, Any]) -> "PlayerRef":
        """The account of a live table's seat (``{"kind", "user_id", "name", "level"}``)."""
        if seat["kind"] == "human":
            return cls.human(seat["user_id"], seat["name"])
        return cls.computer(seat["name"])

    @property
    def is_human(self) -> bool:
        return self.account.startswith(HUMAN_PREFIX)

    @property
    def user_id(self) -> int | None:
        """The Discord user id of a human; None for a computer player."""
        return int(self.account.removeprefix(HUMAN_PREFIX)) if self.is_human else None
