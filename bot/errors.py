"""Refusals the bot shows to a person (ephemerally), as opposed to faults it logs."""


class UserError(Exception):
    """Something a person asked for that cannot be done; the message says why."""


class StaleView(UserError):
    """A click on a message that shows an older state of the table."""
