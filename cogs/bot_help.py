"""The other half of `/tonk help`: the bot itself, every button a player meets and every command.

engine/help.py teaches the game; this says how it is played here, on Discord, under the rules
of the table in the channel (Slap! only where slapping is played, a wild swap only where wild
cards are) and the server's turn timer. `tests/test_bot_help.py` holds it against the
registered commands and the buttons the renderers make, so a new one cannot be left out.
"""

from __future__ import annotations

import discord

from bot.table import TIMEOUTS_BEFORE_AWAY
from engine import Rules
from engine.help import plural

from cogs.live.clock import warning_lead

COLOUR = discord.Colour.blurple()


def controls(rules: Rules, *, turn_timer: int) -> list[tuple[str, str]]:
    """(buttons, what they do), in the order a player meets them."""
    plays = "**Draw**, **Take** the discard, **Drop** (it asks once, showing your count), " \
            "and menus to **Lay a spread**, **Hit a spread** and **Discard**"
    if rules.wild_swap:
        plays += " (and **Swap** a wild card off the table)"
    if any(h.when == "turn" for h in rules.instant_list):
        plays += "; **Claim instant hand** at the start of your first turn"
    slap = ("**Slap!** appears on the table when a discard fits a spread: the first to press it lays the card "
            "there." if rules.slap == "first_to_slap" else
            "**Slap!** appears on the table when a discard fits a spread; the next player's slap wins."
            if rules.slap == "next_player_first" else "**Slap!**: not played at this table (a house rule).")
    return [
        ("The lobby",
         "**Join**, **Leave**, **Add a computer player**. The host **Start**s (2+ seats) or **Cancel**s "
         "(asking first if others joined), and may change the preset or a rule with the menus."),
        ("Your hand",
         f"**My hand** (on the table and in your turn ping) shows your cards privately with the plays legal "
         f"now: {plays}. The message follows the game; **Refresh** shows it again as it is now. Cards are "
         "in words (10 of hearts) for screen readers, and every picture is described."),
        ("No costly mis-tap",
         "A new player's pick from a menu asks first: **Confirm**, **Cancel**, or **Play it, and stop "
         "asking**; **Ask before each pick** turns the question back on."),
        ("The turn timer",
         f"{turn_timer} s a turn on this server. With {warning_lead(turn_timer)} s left you are pinged; at "
         "the end the bot draws and discards your highest card for you. After "
         f"{plural(TIMEOUTS_BEFORE_AWAY, 'time-out')} in a row a computer plays your seat until you press "
         "**I'm back**."),
        ("Leaving and idle players",
         "**Leave** in a hand asks once; a computer plays your seat out (its result is yours). **Hand an "
         "idle player's seat to a computer**: the host at once, or a majority of the others; **I'm back** "
         "returns a seat. An absent host passes the table on."),
        ("Between hands",
         "**Next hand** deals again (the deal passes left); **Join** seats a newcomer at the dealer's right; "
         "**Leave**; the host may **remove a seat**."),
        ("Slap!", slap),
        ("Side bets and the big one",
         "With side bets on (/tonk sidebets), **Side bets: in/out** puts you in or out of every deal's "
         "pots. The big one (/tonk bigone): the last hands at double stakes."),
        ("Rules, Review, Play again",
         "**Rules**: the table's house rules, privately. **Review my hand** (at the showdown): the expert's "
         "choice at each of your decisions, and its cost. **Play again** (closed table): same seats and rules."),
    ]


COMMANDS: list[tuple[str, str]] = [
    ("/tonk new", "open a table here"),
    ("/tonk end", "close the table (host; asks first)"),
    ("/tonk rules", "the house rules here or of a preset"),
    ("/tonk help", "this help, under the rules here"),
    ("/tonk sidebets", "side bets at the table here (host)"),
    ("/tonk bigone", "last hands at double stakes"),
    ("/tonk ledger", "this season's standings"),
    ("/tonk top", "the top 10 in any category"),
    ("/tonk stats player", "a player's figures and chart"),
    ("/tonk stats server", "this server's hands"),
    ("/tonk history", "recent hands, downloads, reviews"),
    ("/tonk tournament open", "tournament sign-ups here"),
    ("/tonk tournament standings", "its standings, privately"),
    ("/tonk tournament end", "end it (organiser; asks first)"),
    ("/tonk tournament withdraw", "withdraw an entrant"),
    ("/tonk tournament history", "finished tournaments"),
    ("/tonk-admin settings", "defaults, channels, seasons"),
    ("/tonk-admin season", "name a season (Manage Server)"),
    ("/tonk-admin forget", "delete this server's Tonk data (asks first)"),
]
"""Every command, with what it does in a few words."""


def bot_help_embed(rules: Rules, *, turn_timer: int) -> discord.Embed:
    embed = discord.Embed(title="Playing here: the buttons and the commands", colour=COLOUR)
    for name, text in controls(rules, turn_timer=turn_timer):
        embed.add_field(name=name, value=text[:1024], inline=False)
    tables = [c for c in COMMANDS if not c[0].startswith("/tonk tournament")]
    tournaments = [c for c in COMMANDS if c[0].startswith("/tonk tournament")]
    for title, commands in (("Commands", tables), ("Tournaments", tournaments)):  # a field holds 1,024
        embed.add_field(name=title, inline=False, value="\n".join(f"`{name}` {text}" for name, text in commands))
    return embed
