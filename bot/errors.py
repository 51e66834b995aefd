"""Refusals the bot shows to a person (ephemerally), as opposed to faults it logs.

There is one kind of refusal: the engine's `TonkError` (an illegal play, rules that do not
fit together, a record that cannot be read). `UserError` is the bot's own, a `TonkError`
too, so whoever shows refusals to people catches `TonkError` alone, and nothing re-wraps one
into the other.
"""

from engine.errors import TonkError


class UserError(TonkError):
    """Something a person asked for that cannot be done; the message says why."""


class StaleView(UserError):
    """A click on a message that shows an older state of the table."""
