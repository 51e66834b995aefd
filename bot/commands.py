"""Everything that can be done to a table, as frozen values: commands in, events out.

A person's click, a turn timer, an idle lobby's clock and a computer player each become one
`Command`; `Table.apply` carries it out, returning the new table and the events it caused, or
refuses it with one person-readable `UserError` and changes nothing. `TableService.apply`
is the one entry that locks, loads, applies, saves and publishes. Adding an operation is a
command here, its case in `Table.apply`, and its control in the renderer.

A play travels in a button's or menu's value as text (`play_value`, `play_from`): that is
the one place the text form is read back, so a click is parsed once, into a `Play`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Action, Discard, Hit, Slap, Spread, Swap, action_from_record

from bot.errors import UserError
from engine.text import t


@dataclass(frozen=True, slots=True)
class Command:
    """Something done to a table."""


@dataclass(frozen=True, slots=True)
class ByPerson(Command):
    """A command a person gives: `by` is their user id (the service checks their server)."""

    by: int


# ---------------------------------------------------------------------------- seats and the lobby

@dataclass(frozen=True, slots=True)
class Join(ByPerson):
    name: str
    confirm: bool = False
    """Ask this person to confirm each pick from a menu (new players are protected by default)."""


@dataclass(frozen=True, slots=True)
class Leave(ByPerson):
    """Leave the table. In a hand, a computer player plays the seat out and the seat goes
    with the next deal (the hand's result is still the leaver's)."""


@dataclass(frozen=True, slots=True)
class AddComputer(ByPerson):
    level: str = "normal"


@dataclass(frozen=True, slots=True)
class SetPreset(ByPerson):
    """The host plays another preset (its scoring too), in the lobby."""

    preset: str


@dataclass(frozen=True, slots=True)
class SetRule(ByPerson):
    """The host changes one option (`value` as engine.help's catalog spells it), in the lobby."""

    key: str
    value: str


@dataclass(frozen=True, slots=True)
class Start(ByPerson):
    pass


@dataclass(frozen=True, slots=True)
class NextHand(ByPerson):
    pass


@dataclass(frozen=True, slots=True)
class End(ByPerson):
    """Close the table (the host, or a member who manages the server)."""

    name: str
    is_admin: bool = False
    hand: int | None = None
    """The hand number the closer was asked at (a confirmation): refused if the table has dealt
    since, so a late "yes" never closes a hand nobody asked about."""
    forgetting: bool = False
    """Closed because the server's data is being deleted: no Play again from it."""


# ---------------------------------------------------------------------------- the host's controls

@dataclass(frozen=True, slots=True)
class TakeOver(ByPerson):
    """Hand the seat `seat` to a computer player now. The host's word does it at once; from
    anyone else it is a vote, and a majority of the other people seated does it."""

    seat: int


@dataclass(frozen=True, slots=True)
class Remove(ByPerson):
    """The host removes the seat `seat` between hands (or in the lobby)."""

    seat: int


# ---------------------------------------------------------------------------- play

@dataclass(frozen=True, slots=True)
class Play(ByPerson):
    """A person's play; `moves` (from a private hand message) refuses a click on an older one."""

    action: Action
    moves: int | None = None
    confirmed: bool = False
    """The person confirmed this pick (a seat that asks first gets `AskFirst` without it)."""
    stop_asking: bool = False
    """...and asked not to be asked again at this table."""


@dataclass(frozen=True, slots=True)
class SetConfirm(ByPerson):
    """Ask before each pick from a menu (spread, hit, discard, swap), or play picks at once."""

    on: bool


@dataclass(frozen=True, slots=True)
class SlapDiscard(ByPerson):
    """House rule (slap): slap the discard made at `window` in the hand's log."""

    window: int | None


@dataclass(frozen=True, slots=True)
class Back(ByPerson):
    """Take one's seat back from the computer player."""


# ---------------------------------------------------------------------------- the whole session

@dataclass(frozen=True, slots=True)
class SetSideBets(ByPerson):
    kinds: tuple[str, ...]
    stake: int | None = None
    suit_call: str | None = None


@dataclass(frozen=True, slots=True)
class ToggleSideBets(ByPerson):
    pass


@dataclass(frozen=True, slots=True)
class CallBigOne(ByPerson):
    hands: int


# ---------------------------------------------------------------------------- the bot's own

@dataclass(frozen=True, slots=True)
class TimeOut(Command):
    """The turn `turn` ran out of time (nothing happens if it is over)."""

    turn: str


@dataclass(frozen=True, slots=True)
class CloseIdle(Command):
    idle_seconds: float


@dataclass(frozen=True, slots=True)
class ComputerPlay(Command):
    """The computer player of the turn `turn` plays `action` (nothing happens if the turn moved on)."""

    turn: str
    action: Action


@dataclass(frozen=True, slots=True)
class DealNext(Command):
    """A tournament table's next deal, by the bot after a pause: only if hand `after` is still
    the last one dealt (a player's Next hand may have dealt it first)."""

    after: int


@dataclass(frozen=True, slots=True)
class ComputerSlap(Command):
    seat: int
    window: int
    action: Slap


# ---------------------------------------------------------------------------- a play as a control's value

def play_value(action: Action) -> str | None:
    """The value a button or menu carries for `action` (read back by `play_from`): card codes,
    `@` and the spread's number for a hit or swap, `=` and the card a wild card stands for."""
    if isinstance(action, Spread):
        named = action.named
        return ".".join(c.code + (f"={named[c].code}" if c in named else "") for c in action.cards)
    if isinstance(action, Hit):
        named = f"={action.stands_for.code}" if action.stands_for is not None else ""
        return f"{action.card.code}@{action.spread}{named}"
    if isinstance(action, Swap):
        return f"{action.card.code}@{action.spread}"
    if isinstance(action, Discard):
        return action.card.code
    return None


def play_from(verb: str, value: str | None) -> Action:
    """A control's verb and value as an engine action (the inverse of `play_value`), through
    the hand record's form; a value that is no play is one clear refusal."""
    entry: dict[str, Any] = {"do": verb}
    if verb == "spread" and value:
        codes = [part.partition("=") for part in value.split(".")]
        entry["cards"] = [card for card, _, _ in codes]
        named = {card: name for card, _, name in codes if name}
        if named:
            entry["as"] = named
    elif verb in ("hit", "swap") and value and "@" in value:
        card, spread = value.split("@", 1)
        spread, _, name = spread.partition("=")
        entry.update(card=card, spread=int(spread) if spread.isdigit() else spread)
        if name and verb == "hit":
            entry["as"] = {card: name}
    elif verb == "discard" and value:
        entry["card"] = value
    try:
        return action_from_record(entry)
    except ValueError:
        raise UserError(t('That choice is not a play I know.')) from None


__all__ = ["AddComputer", "Back", "ByPerson", "CallBigOne", "CloseIdle", "Command", "ComputerPlay", "ComputerSlap",
           "DealNext", "End", "Join", "Leave", "NextHand", "Play", "Remove", "SetConfirm", "SetPreset", "SetRule", "SetSideBets",
           "SlapDiscard", "Start", "TakeOver", "TimeOut", "ToggleSideBets", "play_from", "play_value"]
