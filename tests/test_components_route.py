"""A component click becomes its client event once (cogs/components.py `routed`): the custom id
parsed into a typed `Click`, a menu's values with it, and only for a control the clicked
message carries (the bot sent it there)."""

from types import SimpleNamespace

import discord
import pytest
from discord.components import _component_factory

from cogs.components import (ASK_EVENT, CLICK_EVENT, RULES_HERE, RULES_HERE_EVENT, Click, ask_button,
                             Verb, button, menu, routed, rules_here_button, view_of)


def _message(*items):
    """A message as discord.py parses it from Discord's payload, carrying these controls."""
    rows = view_of(*items).to_components()
    return SimpleNamespace(components=[_component_factory(row) for row in rows])


def _click(message, custom_id: str, kind: discord.ComponentType, values=None):
    data = {"custom_id": custom_id, "component_type": kind.value}
    if values is not None:
        data["values"] = values
    return SimpleNamespace(type=discord.InteractionType.component, data=data, message=message)


HAND = _message(button(7, Verb.DRAW, "Draw", version=12),
                menu(7, Verb.DISCARD, "Discard", [discord.SelectOption(label="K♠", value="KS")], version=12),
                rules_here_button(), ask_button("season"))


def test_a_button_and_a_menu_become_typed_clicks():
    assert routed(_click(HAND, "tonk:7:draw:12", discord.ComponentType.button)) == (
        CLICK_EVENT, (Click(7, Verb.DRAW, 12),))
    assert routed(_click(HAND, "tonk:7:discard-menu:12", discord.ComponentType.select, ["KS"])) == (
        CLICK_EVENT, (Click(7, Verb.DISCARD, 12, ("KS",)),))
    assert routed(_click(HAND, RULES_HERE, discord.ComponentType.button)) == (RULES_HERE_EVENT, ())
    assert routed(_click(HAND, "tonk:ask:season", discord.ComponentType.button)) == (ASK_EVENT, ("season",))


def test_a_control_the_message_does_not_carry_is_ignored():
    # a crafted click: another table's id, another version, or a button's id sent as a menu's
    assert routed(_click(HAND, "tonk:8:draw:12", discord.ComponentType.button)) is None
    assert routed(_click(HAND, "tonk:7:draw:13", discord.ComponentType.button)) is None
    assert routed(_click(HAND, "tonk:7:draw:12", discord.ComponentType.select, ["KS"])) is None
    assert routed(_click(None, "tonk:7:draw:12", discord.ComponentType.button)) is None


def test_other_interactions_and_other_bots_ids_are_not_clicks():
    command = SimpleNamespace(type=discord.InteractionType.application_command, data={}, message=None)
    assert routed(command) is None
    other = _message(discord.ui.Button(label="x", custom_id="someone:else"))
    assert routed(_click(other, "someone:else", discord.ComponentType.button)) is None


def test_a_control_routed_would_not_read_is_never_made():
    # the custom id is checked when the control is made: a button nobody could click is a bug
    with pytest.raises(ValueError):
        ask_button("everything")
    with pytest.raises(ValueError):  # over Discord's 100 characters
        menu(7, Verb.DISCARD, "Discard", [discord.SelectOption(label="K♠", value="KS")], version=12, tag="x" * 100)
    assert menu(7, Verb.DISCARD, "Discard", [discord.SelectOption(label="K♠", value="KS")], version=12,
                tag="x").custom_id == "tonk:7:discard-menu:12:x"
