"""Persistent buttons and menus.

Every custom id carries what a click needs, `tonk:{table_id}:{verb}` for the shared
table and lobby, `tonk:{table_id}:{verb}:{moves}` for a private hand message, so a
click works after a restart: it loads the table instead of trusting memory. `route` parses a
click's custom id once, into a typed `Click` (select values too), and hands it to the cog as a
client event; no game rule lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from bot.commands import (AddComputer, Back, Command, End, Join, Leave, NextHand, Play, Remove, SetConfirm, SetPreset,
                          SetRule, SlapDiscard, Start, TakeOver, ToggleSideBets, play_from)
from bot.errors import UserError
from bot.service import Person
from engine.text import t

PREFIX = "tonk"


class Verb(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    CPU = "cpu"
    NEXT = "next"
    BACK = "back"
    HAND = "hand"
    REFRESH = "refresh"
    DRAW = "draw"
    TAKE = "take"
    DROP = "drop"
    SPREAD = "spread"
    HIT = "hit"
    DISCARD = "discard"
    DROP_CONFIRM = "dropnow"
    """The second click of a drop: `DROP` only asks whether you mean it."""
    CLAIM = "claim"
    SWAP = "swap"
    SLAP = "slap"
    """The table's Slap! button; its version is the discard's place in the hand's log."""
    FOCUS = "focus"
    """The first step of a two-step choice: a menu of groups, whose pick shows the hand with
    that group's plays in its menu (more plays than one menu holds)."""
    RULE = "rule"
    """The lobby's house-rule menu (host only): pick an option, then its value."""
    PRESET = "preset"
    """The lobby's preset menu (host only)."""
    SET = "set"
    """The second step of a house rule: its value (`key=value`), host only."""
    SIDE = "side"
    """A player opts in to the side bets, or out."""
    LEAVE_ASK = "leaveask"
    """Leave during a hand: asks first (a computer plays the seat out), with `LEAVE_NOW`."""
    LEAVE_NOW = "leavenow"
    """The second click of a Leave during a hand: `LEAVE` then only asks whether you mean it."""
    TAKEOVER = "takeover"
    """The table's menu of people seated: hand that seat to a computer player (the host at once,
    the others by a majority)."""
    REMOVE = "remove"
    """The host's menu of seats between hands: remove that seat."""
    CONFIRM = "confirm"
    """Play the pick that waits for its player's word (the seat confirms picks)."""
    ASK_OFF = "askoff"
    """Play the waiting pick, and play picks at once from now on (at this table)."""
    ASK_ON = "askon"
    """Confirm each pick from now on (at this table)."""
    AGAIN = "again"
    """A closed table's Play again: a new lobby with the same seats and rules."""
    REVIEW = "review"
    """The showdown's Review my hand (its version: the hand's number): the clicker's own review."""
    TABLE_RULES = "tablerules"
    """The table message's Rules button: this table's house rules, privately."""
    CLOSE = "close"
    """The "yes" of closing a table that asked first (a hand in play, people in the lobby); its
    version is the hand number it was asked at."""


PLAYS = frozenset({Verb.DRAW, Verb.TAKE, Verb.DROP_CONFIRM, Verb.SPREAD, Verb.HIT, Verb.DISCARD, Verb.CLAIM,
                   Verb.SWAP})
"""Clicks that are plays, and the engine's verb for each."""
ENGINE_VERB = {Verb.DROP_CONFIRM: "drop"}
PICKED = frozenset({Verb.SPREAD, Verb.HIT, Verb.DISCARD, Verb.SWAP})
"""Plays picked from a menu: a seat that confirms picks is asked first."""
HAND_VERBS = frozenset({Verb.HAND, Verb.REFRESH, Verb.DROP, Verb.FOCUS})
"""Clicks that show the private hand (Drop only asks whether you mean it; Focus narrows a menu)."""
_VERBS = "|".join(v.value for v in Verb)
BUTTON_TEMPLATE = rf"tonk:(?P<table>[0-9]{{1,19}}):(?P<verb>{_VERBS})(?::(?P<version>[0-9]{{1,9}}))?"
SELECT_TEMPLATE = (rf"tonk:(?P<table>[0-9]{{1,19}}):(?P<verb>{_VERBS})-menu(?::(?P<version>[0-9]{{1,9}}))?"
                   r"(?::(?P<tag>[a-z]{1,16}))?")
"""A menu's custom id may end in a tag that only keeps two menus of one message apart (Discord
refuses a message whose custom ids repeat): the two-step choice's menus, `focus-menu:{moves}:spread`
and `...:hit`. The click ignores it: the picked value names the kind of play."""


@dataclass(frozen=True, slots=True)
class Click:
    """A click as the cog needs it: which table, what to do, from which message state, the chosen values."""

    table_id: int
    verb: Verb
    version: int | None = None
    """What the control was made for: the table's `moves` on a private hand message (a click on
    an older one is refused), the discard's place in the log on Slap!."""
    values: tuple[str, ...] = ()

    @property
    def value(self) -> str | None:
        """A menu's one picked value."""
        return self.values[0] if self.values else None

    def seat(self) -> int:
        """A menu of seats' pick: the seat's number."""
        value = self.value
        if value is None or not value.isdigit():
            raise UserError(t("Pick a seat from the menu."))
        return int(value)

    def command(self, person: Person, *, new_player: bool = False) -> Command:
        """This click as the table command it asks for (a click that only shows something is no command).
        `new_player`: the person has no hand on this server yet (they join confirming their picks)."""
        by, verb = person.user_id, self.verb
        if verb in PLAYS:
            return Play(by, play_from(ENGINE_VERB.get(verb, str(verb)), self.value), moves=self.version)
        match verb:
            case Verb.JOIN:
                return Join(by, person.name, confirm=new_player)
            case Verb.ASK_ON:
                return SetConfirm(by, True)
            case Verb.LEAVE | Verb.LEAVE_NOW:
                return Leave(by)
            case Verb.CPU:
                return AddComputer(by, self.value or "normal")
            case Verb.START:
                return Start(by)
            case Verb.CANCEL:
                return End(by, person.name, is_admin=person.is_admin)
            case Verb.CLOSE:  # the "yes" to a question asked at hand `version`
                return End(by, person.name, is_admin=person.is_admin, hand=self.version)
            case Verb.NEXT:
                return NextHand(by)
            case Verb.BACK:
                return Back(by)
            case Verb.SLAP:
                return SlapDiscard(by, self.version)
            case Verb.PRESET:
                return SetPreset(by, self.value or "standard")
            case Verb.SET:
                key, _, code = (self.value or "").partition("=")
                return SetRule(by, key, code)
            case Verb.SIDE:
                return ToggleSideBets(by)
            case Verb.TAKEOVER:
                return TakeOver(by, self.seat())
            case Verb.REMOVE:
                return Remove(by, self.seat())
        raise ValueError(f"{verb} is not a table command")


def custom_id(table_id: int, verb: Verb, version: int | None = None, *, menu: bool = False,
              tag: str | None = None) -> str:
    name = f"{verb}-menu" if menu else str(verb)
    return (f"{PREFIX}:{table_id}:{name}" + (f":{version}" if version is not None else "")
            + (f":{tag}" if tag is not None else ""))


def _parse(match: re.Match[str]) -> tuple[int, Verb, int | None]:
    return int(match["table"]), Verb(match["verb"]), int(match["version"]) if match["version"] else None


CLICK_EVENT = "tonk_click"
"""The client event a click becomes (`on_tonk_click(interaction, click)`): whoever handles clicks
listens for it, and nothing here needs to know who (no import of the cog, no lookup of it)."""
RULES_HERE_EVENT = "tonk_rules_here"
ASK_EVENT = "tonk_ask"
"""A server-wide confirmation's click (`on_tonk_ask(interaction, what)`), for the admin commands."""


RULES_HERE = f"{PREFIX}:rules-here"
"""The help's button: the rules of whatever table is in the channel when it is clicked."""

SERVER_ASKS = ("forget", "season", "keep")
"""The server-wide confirmations of `/tonk-admin` (forget this server, start a new season) and
the answer of every confirmation that changes nothing (keep)."""
ASK_TEMPLATE = rf"{PREFIX}:ask:(?P<what>{'|'.join(SERVER_ASKS)})"


# ---------------------------------------------------------------------------- a click in

_BUTTON = re.compile(BUTTON_TEMPLATE)
_SELECT = re.compile(SELECT_TEMPLATE)
_ASK = re.compile(ASK_TEMPLATE)
BUTTON, SELECT = discord.ComponentType.button.value, discord.ComponentType.select.value


def routed(interaction: discord.Interaction) -> tuple[str, tuple[Any, ...]] | None:
    """The client event a component click becomes, and its arguments after the interaction:
    `CLICK_EVENT` with its `Click`, `RULES_HERE_EVENT`, or `ASK_EVENT` with what is asked.
    None for anything else, and for a custom id that is not on the clicked message (the bot
    never sent that control there: a crafted click is ignored).

    The custom id is parsed once, here. Unlike discord.py's dynamic items, which rebuild a
    whole view of the clicked message to find the one item (a tenth of a click's dispatch),
    this reads the message's components as they were parsed from the payload."""
    if interaction.type is not discord.InteractionType.component:
        return None
    data: Any = interaction.data or {}
    custom, kind = data.get("custom_id", ""), data.get("component_type")
    if not _on_message(interaction.message, custom, kind):
        return None
    if kind == BUTTON:
        if m := _BUTTON.fullmatch(custom):
            return CLICK_EVENT, (Click(*_parse(m)),)
        if custom == RULES_HERE:
            return RULES_HERE_EVENT, ()
        if m := _ASK.fullmatch(custom):
            return ASK_EVENT, (m["what"],)
    elif kind == SELECT and (m := _SELECT.fullmatch(custom)):
        return CLICK_EVENT, (Click(*_parse(m), tuple(data.get("values", []))),)
    return None


def _on_message(message: discord.Message | None, custom: str, kind: Any) -> bool:
    """Whether the message carries a control of this kind with this custom id."""
    if message is None:
        return False
    rows = list(message.components)
    while rows:
        component = rows.pop()
        children = getattr(component, "children", None)
        if children is not None:
            rows.extend(children)
        elif getattr(component, "custom_id", None) == custom and component.type.value == kind:
            return True
    return False


async def route(interaction: discord.Interaction) -> None:
    """`on_interaction`: a click on one of the bot's controls becomes its client event."""
    found = routed(interaction)
    if found is not None:
        event, args = found
        interaction.client.dispatch(event, interaction, *args)


# ---------------------------------------------------------------------------- controls out

def _checked(custom: str, template: re.Pattern[str]) -> str:
    """`custom` if `routed` reads it as it is meant (a control it would ignore is a bug here)."""
    if not template.fullmatch(custom) or len(custom) > 100:
        raise ValueError(f"{custom!r} is not a custom id that clicks are routed by")
    return custom


def button(table_id: int, verb: Verb, label: str, *, style=discord.ButtonStyle.secondary,
           version: int | None = None, row: int | None = None, disabled: bool = False,
           emoji: str | None = None) -> discord.ui.Button:
    return discord.ui.Button(label=label, style=style, custom_id=_checked(custom_id(table_id, verb, version), _BUTTON),
                             row=row, disabled=disabled, emoji=emoji)


def menu(table_id: int, verb: Verb, placeholder: str, options: list[discord.SelectOption], *,
         version: int | None = None, row: int | None = None, tag: str | None = None) -> discord.ui.Select:
    custom = _checked(custom_id(table_id, verb, version, menu=True, tag=tag), _SELECT)
    return discord.ui.Select(placeholder=placeholder, options=options[:25], custom_id=custom, row=row,
                             min_values=1, max_values=1)


def rules_here_button(label: str = "Rules of the table here") -> discord.ui.Button:
    return discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=RULES_HERE)


def ask_button(what: str, label: str = "", style=discord.ButtonStyle.secondary) -> discord.ui.Button:
    """A confirmation's button that is not about one table: `tonk:ask:{what}`; the server is the
    click's own, and the cog checks again who clicked."""
    return discord.ui.Button(label=label or what, style=style, custom_id=_checked(f"{PREFIX}:ask:{what}", _ASK))


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view that only carries components: it is stopped before it is sent.

    Clicks reach the bot through `route`, not through a view kept in memory, so discord.py need
    not keep one alive per message (for an ephemeral message it would hold each for 15 minutes
    with a timer task: memory that grows with every click).
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
