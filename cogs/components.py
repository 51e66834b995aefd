"""Persistent buttons and menus.

Every custom id carries what a click needs, `tonk:{table_id}:{verb}` for the shared
table and lobby, `tonk:{table_id}:{verb}:{moves}` for a private hand message, so a
click works after a restart: it loads the table instead of trusting memory. The items
parse their custom id once, into typed fields (discord.py's dynamic_counter example),
and hand the click to the cog; no game rule lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:  # pragma: no cover
    from cogs.tonk import TonkCog

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


PLAYS = frozenset({Verb.DRAW, Verb.TAKE, Verb.DROP_CONFIRM, Verb.SPREAD, Verb.HIT, Verb.DISCARD, Verb.CLAIM,
                   Verb.SWAP})
"""Clicks that are plays, and the engine's verb for each."""
ENGINE_VERB = {Verb.DROP_CONFIRM: "drop"}
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
    values: tuple[str, ...] = ()


def custom_id(table_id: int, verb: Verb, version: int | None = None, *, menu: bool = False,
              tag: str | None = None) -> str:
    name = f"{verb}-menu" if menu else str(verb)
    return (f"{PREFIX}:{table_id}:{name}" + (f":{version}" if version is not None else "")
            + (f":{tag}" if tag is not None else ""))


def _parse(match: re.Match[str]) -> tuple[int, Verb, int | None]:
    return int(match["table"]), Verb(match["verb"]), int(match["version"]) if match["version"] else None


async def _route(interaction: discord.Interaction, click: Click) -> None:
    cog: TonkCog = interaction.client.get_cog("Tonk")  # type: ignore[union-attr,assignment]
    await cog.on_click(interaction, click)


class _ClickItem:
    """What both persistent items share: the click's table, verb and version, parsed once."""

    def __init__(self, item: discord.ui.Item[Any], table_id: int, verb: Verb, version: int | None) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # the DynamicItem's
        self.table_id, self.verb, self.version = table_id, verb, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /):
        return cls(item, *_parse(match))  # type: ignore[arg-type]


class TonkButton(_ClickItem, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, Click(self.table_id, self.verb, self.version))


class TonkSelect(_ClickItem, discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        values = tuple((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _route(interaction, Click(self.table_id, self.verb, self.version, values))


RULES_HERE = f"{PREFIX}:rules-here"
"""The help's button: the rules of whatever table is in the channel when it is clicked."""


class RulesHereButton(discord.ui.DynamicItem[discord.ui.Button], template=RULES_HERE):
    def __init__(self, label: str = "Rules of the table here") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=RULES_HERE))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: TonkCog = interaction.client.get_cog("Tonk")  # type: ignore[union-attr,assignment]
        await cog.on_rules_here(interaction)


def button(table_id: int, verb: Verb, label: str, *, style=discord.ButtonStyle.secondary,
           version: int | None = None, row: int | None = None, disabled: bool = False,
           emoji: str | None = None) -> TonkButton:
    return TonkButton(discord.ui.Button(
        label=label, style=style, custom_id=custom_id(table_id, verb, version), row=row,
        disabled=disabled, emoji=emoji,
    ), table_id, verb, version)


def menu(table_id: int, verb: Verb, placeholder: str, options: list[discord.SelectOption], *,
         version: int | None = None, row: int | None = None, tag: str | None = None) -> TonkSelect:
    return TonkSelect(discord.ui.Select(
        placeholder=placeholder, options=options[:25], custom_id=custom_id(table_id, verb, version, menu=True, tag=tag),
        row=row, min_values=1, max_values=1,
    ), table_id, verb, version)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view that only carries components: it is stopped before it is sent.

    Clicks reach the bot through the registered dynamic items, not through a view kept in
    memory, so discord.py need not keep one alive per message (for an ephemeral message it
    would hold each for 15 minutes with a timer task: memory that grows with every click).
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view
