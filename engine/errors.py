"""Errors the engine raises. Messages are written for players, not programmers."""

from __future__ import annotations


class TonkError(ValueError):
    """Base of every refusal the engine makes; the message is safe to show a player."""


class IllegalAction(TonkError):
    """The action breaks a rule of the game; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """Someone tried to act while it was another seat's turn."""


class RulesError(TonkError):
    """House rules that do not exist or do not fit together."""


class RecordError(TonkError):
    """A hand record that cannot be read or replayed.

    `index` is the position of the offending action, or None when the record itself
    (its format, deck or rules) is at fault.
    """

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index

    def __str__(self) -> str:
        text = super().__str__()
        return text if self.index is None else f"action {self.index}: {text}"
