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
from engine.text import Text, t, tc, tn
from i18n import ENGLISH, Lang

from cogs.live.clock import warning_lead

COLOUR = discord.Colour.blurple()


def controls(rules: Rules, *, turn_timer: int, lang: Lang = ENGLISH) -> list[tuple[str, str]]:
    """(buttons, what they do), in the order a player meets them, in `lang`."""
    L = lang.render
    plays = L(t("**Draw**, **Take** the discard, **Drop** (it asks once, showing your count), "
                "and menus to **Lay a spread**, **Hit a spread** and **Discard**"))
    if rules.wild_swap:
        plays += " " + L(t("(and **Swap** a wild card off the table)"))
    if any(h.when == "turn" for h in rules.instant_list):
        plays += "; " + L(t("**Claim instant hand** at the start of your first turn"))
    slap = (t("**Slap!** appears on the table when a discard fits a spread: the first to press it lays the card "
              "there.") if rules.slap == "first_to_slap" else
            t("**Slap!** appears on the table when a discard fits a spread; the next player's slap wins.")
            if rules.slap == "next_player_first" else t("**Slap!**: not played at this table (a house rule)."))
    timeouts = L(tn("{n} time-out", "{n} time-outs", TIMEOUTS_BEFORE_AWAY))
    return [
        (L(t("The lobby")),
         L(t("**Join**, **Leave**, **Add a computer player**. The host **Start**s (2+ seats) or **Cancel**s "
             "(asking first if others joined), and may change the preset or a rule with the menus."))),
        (L(t("Your hand")),
         L(t("**My hand** (on the table and in your turn ping) shows your cards privately with the plays legal "
             "now: {plays}. The message follows the game; **Refresh** shows it again as it is now. Cards are "
             "in words (10 of hearts) for screen readers, and every picture is described.", plays=plays))),
        (L(t("No costly mis-tap")),
         L(t("A new player's pick from a menu asks first: **Confirm**, **Cancel**, or **Play it, and stop "
             "asking**; **Ask before each pick** turns the question back on."))),
        (L(t("The turn timer")),
         L(t("{seconds} s a turn on this server. With {lead} s left you are pinged; at the end the bot draws "
             "and discards your highest card for you. After {timeouts} in a row a computer plays your seat "
             "until you press **I'm back**.", seconds=turn_timer, lead=warning_lead(turn_timer), timeouts=timeouts))),
        (L(t("Leaving and idle players")),
         L(t("**Leave** in a hand asks once; a computer plays your seat out (its result is yours). **Hand an "
             "idle player's seat to a computer**: the host at once, or a majority of the others; **I'm back** "
             "returns a seat. An absent host passes the table on."))),
        (L(t("Between hands")),
         L(t("**Next hand** deals again (the deal passes left); **Join** seats a newcomer at the dealer's right; "
             "**Leave**; the host may **remove a seat**."))),
        (L(tc("button", "Slap!")), L(slap)),
        (L(t("Side bets and the big one")),
         L(t("With side bets on (/tonk sidebets), **Side bets: in/out** puts you in or out of every deal's "
             "pots. The big one (/tonk bigone): the last hands at double stakes."))),
        (L(t("Rules, Review, Play again")),
         L(t("**Rules**: the table's house rules, privately. **Review my hand** (at the showdown): the expert's "
             "choice at each of your decisions, and its cost. **Play again** (closed table): same seats and rules."))),
    ]


COMMANDS: list[tuple[str, Text]] = [
    ("/tonk new", t("open a table here")),
    ("/tonk end", t("close the table (host; asks first)")),
    ("/tonk rules", t("the house rules here or of a preset")),
    ("/tonk help", t("this help, under the rules here")),
    ("/tonk sidebets", t("side bets at the table here (host)")),
    ("/tonk bigone", t("last hands at double stakes")),
    ("/tonk ledger", t("this season's standings")),
    ("/tonk top", t("the top 10 in any category")),
    ("/tonk stats player", t("a player's figures and chart")),
    ("/tonk stats server", t("this server's hands")),
    ("/tonk history", t("recent hands, downloads, reviews")),
    ("/tonk tournament open", t("tournament sign-ups here")),
    ("/tonk tournament standings", t("its standings, privately")),
    ("/tonk tournament end", t("end it (organiser; asks first)")),
    ("/tonk tournament withdraw", t("withdraw an entrant")),
    ("/tonk tournament history", t("finished tournaments")),
    ("/tonk-admin settings", t("defaults, channels, seasons")),
    ("/tonk-admin season", t("name a season (Manage Server)")),
    ("/tonk-admin forget", t("delete this server's Tonk data (asks first)")),
]
"""Every command (its name stays English, as Discord shows it), with what it does in a few words."""


def bot_help_embed(rules: Rules, *, turn_timer: int, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    embed = discord.Embed(title=L(t("Playing here: the buttons and the commands")), colour=COLOUR)
    for name, text in controls(rules, turn_timer=turn_timer, lang=lang):
        embed.add_field(name=name[:256], value=text[:1024], inline=False)
    tables = [c for c in COMMANDS if not c[0].startswith("/tonk tournament")]
    tournaments = [c for c in COMMANDS if c[0].startswith("/tonk tournament")]
    for title, commands in ((t("Commands"), tables), (t("Tournaments"), tournaments)):  # a field holds 1,024
        embed.add_field(name=L(title), inline=False,
                        value="\n".join(f"`{name}` {L(text)}" for name, text in commands)[:1024])
    return embed
