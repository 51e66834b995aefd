"""`/tonk help`'s half about the bot: every command and every button a player meets is in it,
it follows the table's rules and the server's timer, and the whole help fits Discord; the
table's footer names its preset and what differs from it."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from bot.table import Scoring, Table
from cogs import bot_help, render
from cogs.admin import TonkAdminCog
from cogs.tonk import TonkCog
from engine import PRESET_NAMES, Rules
from engine.help import help_sections, rules_label
from i18n import ENGLISH
from engine.rules import PRESETS

KITCHEN_SINK = replace(PRESETS["chicago"], face_values="ranked", ace_in_runs="low_or_high", wild_swap=True,
                       must_spread="on_but_three_aces", hits_per_turn=1, hit_ends_turn=True, take_must_be_used=True,
                       hit_bars_going_out=True, run_out_pays="double", boobed=True, drop_when="any_time",
                       slap="next_player_first", waiting=True, double_double=True)
"""Every house rule at once: the longest lesson there is."""


def help_text(rules: Rules, turn_timer: int = 90) -> str:
    return str(bot_help.bot_help_embed(rules, turn_timer=turn_timer).to_dict())


def registered_commands() -> set[str]:
    names = set()
    for cog in (TonkCog, TonkAdminCog):
        for command in cog.__cog_app_commands__:
            subcommands = getattr(command, "commands", None)
            for sub in subcommands or [command]:
                names.add(" ".join(filter(None, [cog.__cog_group_name__, command.name if subcommands else None,
                                                 sub.name])))
    return names


def test_every_registered_command_is_in_the_help_with_what_it_does():
    listed = {name.lstrip("/"): text for name, text in bot_help.COMMANDS}
    assert set(listed) == registered_commands()
    assert all(len(ENGLISH.render(text)) > 10 for text in listed.values())
    text = help_text(Rules())
    assert all(f"`/{name}`" in text for name in listed)


def label_word(label: str) -> str:
    """A button's or menu's name as the help spells it: `Take 5 of spades` is Take, `Drop (12)` is Drop."""
    label = label.removeprefix("Host: ").rstrip("…").split(" (")[0]
    label = re.sub(r"\s+(ace|jack|queen|king|joker|\d+)\b.*$", "", label)  # a card (joker 1) or a count after it
    return label


def labels(message) -> set[str]:
    view = message.get("view")
    out = set()
    for item in view.children if view is not None else ():
        label = getattr(item, "label", None) or getattr(item, "placeholder", None)
        if label:
            out.add(label_word(label))
    return out


def met_labels(preset: str, seed: int) -> set[str]:
    """Every button and menu a seated player meets in a few random hands of `preset`."""
    rng = random.Random(seed)
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="p1", rules=Rules.preset(preset), stake=1,
                       scoring=Scoring.STAKES)
    table, _ = table.join(2, "p2")
    seen = labels(render.table_message(table.public()))
    table, _ = table.start(1, rng)
    for _ in range(2):
        while table.in_play:
            seen |= labels(render.table_message(table.public()))
            game = table.game
            seat = game.to_act
            seen |= labels(render.hand_message(table.seat_view(seat), table_id=table.id,
                                               hand_number=table.hand_number, moves=table.moves))
            legal = game.legal_actions(seat)
            action = rng.choice([a for a in legal if a.verb != "drop"] if rng.random() < 0.9 else legal)
            table, _ = table.act(table.seats[seat].user_id, action)
        seen |= labels(render.table_message(table.public()))
        table, _ = table.next_hand(1, rng)
    return seen


LOBBY_MENUS = {"play a preset", "change the standard rules", "change house rules"}
"""The host's rule menus: the help says the host may change the rules with the menus."""


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_button_and_menu_a_player_meets_is_in_the_help(preset):
    text = help_text(Rules.preset(preset))
    met = met_labels(preset, seed=len(preset))
    assert {"My hand", "Refresh", "Rules", "Next hand", "Leave", "Join", "Start", "Cancel", "Draw"} <= met
    missing = [label for label in met if label not in LOBBY_MENUS and label not in text]
    assert not missing, f"not in the help: {missing}"
    for word in ("I'm back", "Slap!", "Side bets: in/out", "/tonk bigone", "the turn timer", "s left"):
        assert word.lower() in text.lower(), word


def test_the_help_follows_the_table_and_the_servers_timer():
    assert "not played at this table" in help_text(Rules())
    assert "the first to press it lays the card" in help_text(Rules.preset("slap"))
    assert "Swap" in help_text(Rules.preset("deuces wild")) and "Swap" not in help_text(Rules())
    assert "Claim instant hand" in help_text(Rules.preset("chicago"))  # its 49 is claimed in turn
    assert "Claim instant hand" not in help_text(Rules())
    text = help_text(Rules(), turn_timer=60)
    assert "60 s a turn" in text and "With 15 s left" in text
    assert "With 5 s left" in help_text(Rules(), turn_timer=12)
    # the help says what the timer does: a 3 s turn warns with 1 s left, not 5 s (more than the turn)
    assert "3 s a turn" in help_text(Rules(), turn_timer=3) and "With 1 s left" in help_text(Rules(), turn_timer=3)
    assert "3 time-outs in a row" in text
    assert "Cards are in words (10 of hearts) for screen readers" in text  # as every message writes them


@pytest.mark.parametrize("rules", [*PRESETS.values(), KITCHEN_SINK], ids=[*PRESETS, "kitchen sink"])
def test_the_whole_help_fits_one_discord_message(rules):
    message = render.help_message(help_sections(rules, stake=1000), "Under the house rules of table 99999 here",
                                  rules, bot_help.bot_help_embed(rules, turn_timer=3600))
    embeds = [e.to_dict() for e in message["embeds"]]
    assert sum(len(e) for e in message["embeds"]) <= 6000  # Discord's total for all a message's embeds
    for embed in embeds:
        assert len(embed.get("fields", [])) <= 25
        assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed["fields"])


def test_the_footer_names_the_preset_and_what_differs_from_it():
    assert rules_label(Rules()) == "standard"
    assert rules_label(Rules.preset("chicago")) == "chicago"
    assert rules_label(replace(Rules(), scoring="pushups")) == "standard"  # the footer says the scoring itself
    assert rules_label(replace(Rules(), jokers=2, caught_pays="double_to_all")) == \
        "standard + caught pays double to every other player, 2 jokers"
    assert rules_label(replace(Rules.preset("black company"), hand_size=7)) == "black company + 7 cards"
    crowded = replace(Rules(), hand_size=7, deck=40, upcard=False, hit_books=False, stock_out="dead_hand",
                      slap="first_to_slap", face_values="ranked", jokers=2, caught_pays="double_to_all")
    assert rules_label(crowded, limit=100) == "baton rouge + 8 changes"  # the closest preset: 40 cards
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="p1", stake=3, scoring=Scoring.PUSHUPS,
                       rules=replace(Rules(), jokers=2))
    footer = render.table_message(table.public())["embed"].footer.text
    assert footer == f"table {table.id} · standard + 2 jokers · push-ups"
