"""Persistent buttons and menus.

Every custom id carries what a click needs, `tonk:{table_id}:{verb}` for the shared
table and lobby, `tonk:{table_id}:{verb}:{version}` for a private hand message, so a
click works after a restart: it loads the table instead of trusting memory. The items
only route the click to the cog; no game rule lives here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:  # pragma: no cover
    from cogs.tonk import TonkCog

PREFIX = "tonk"
BUTTON_TEMPLATE = r"tonk:(?P<table>[0-9]+):(?P<verb>[a-z]+)(?::(?P<version>[0-9]+))?"
SELECT_TEMPLATE = r"tonk:(?P<table>[0-9]+):(?P<verb>[a-z]+)-menu(?::(?P<version>[0-9]+))?"


def custom_id(table_id: int, verb: str, version: int | None = None, *, menu: bool = False) -> str:
    name = f"{verb}-menu" if menu else verb
    return f"{PREFIX}:{table_id}:{name}" + (f":{version}" if version is not None else "")


def _cog(interaction: discord.Interaction) -> "TonkCog":
    return interaction.client.get_cog("Tonk")  # type: ignore[union-attr,return-value]


class TonkButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "TonkButton":
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        match = re.fullmatch(BUTTON_TEMPLATE, self.custom_id)
        assert match is not None
        await _cog(interaction).on_click(
            interaction, int(match["table"]), match["verb"],
            int(match["version"]) if match["version"] else None, [],
        )


class TonkSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "TonkSelect":
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        match = re.fullmatch(SELECT_TEMPLATE, self.custom_id)
        assert match is not None
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _cog(interaction).on_click(
            interaction, int(match["table"]), match["verb"],
            int(match["version"]) if match["version"] else None, values,
        )


def button(table_id: int, verb: str, label: str, *, style=discord.ButtonStyle.secondary,
           version: int | None = None, row: int | None = None, disabled: bool = False,
           emoji: str | None = None) -> TonkButton:
    return TonkButton(discord.ui.Button(
        label=label, style=style, custom_id=custom_id(table_id, verb, version), row=row,
        disabled=disabled, emoji=emoji,
    ))


def menu(table_id: int, verb: str, placeholder: str, options: list[discord.SelectOption], *,
         version: int | None = None, row: int | None = None) -> TonkSelect:
    return TonkSelect(discord.ui.Select(
        placeholder=placeholder, options=options[:25], custom_id=custom_id(table_id, verb, version, menu=True),
        row=row, min_values=1, max_values=1,
    ))


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
