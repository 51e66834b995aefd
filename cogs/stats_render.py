"""How a player's profile, a leaderboard and a server's stats look in Discord.

Pure functions from the reports of ``bot.stats`` to embeds. The figures are the
store's; this module only words and lays them out.
"""

from __future__ import annotations

import discord

from engine.text import t, tn
from i18n import ENGLISH

from bot.stats import OpponentNet, PlayerReport, ServerReport, Tally, TopReport

from engine.help import plural, points

from cogs.render import COLOUR_LOBBY, OUTCOME_WORDS

COLOUR_STATS = discord.Colour.teal()
CHART_FILENAME = "balance.png"
CATEGORY_WORDS = {
    "net": "net points",
    "pushups": "push-ups (low is good)",
    "win_rate": "win rate",
    "wins": "wins",
    "tonk_outs": "tonk outs",
    "catches": "catches",
    "streak": "best winning streak",
}


def percent(fraction: float | None) -> str:
    return "—" if fraction is None else f"{fraction:.0%}"


def net_points(amount: float) -> str:
    """A signed amount of points; a fraction (a share of a caught drop) keeps one decimal."""
    return points(amount, sign=True)


def tally_text(tally: Tally) -> str:
    return "\n".join((
        f"**{plural(tally.hands, 'hand')}**, won {tally.wins} ({percent(tally.win_rate)})",
        f"Net **{points(tally.net, sign=True)}** · {plural(tally.pushups, 'push-up')}",
        f"Tonk outs {tally.tonk_outs} · run outs {tally.run_outs}",
        f"Drops won {tally.drops_won} · caught dropping {tally.caught_drops}",
        f"Catches {tally.catches} · instant wins {tally.instant_wins}",
        f"Biggest win {points(tally.biggest_win, sign=True)} · loss {points(tally.biggest_loss, sign=True)}",
        f"Best streak {plural(tally.best_streak, 'win')}",
    ))


def _opponent_text(opponent: OpponentNet | None, empty: str) -> str:
    if opponent is None:
        return empty
    return f"{opponent.display_name}: {net_points(opponent.net)} over {plural(opponent.hands, 'hand')}"


def player_embed(report: PlayerReport, *, server: str, chart: bool = False) -> discord.Embed:
    stats = report.stats
    embed = discord.Embed(title=f"{stats.display_name} · Tonk stats", description=f"{report.season} · {server}",
                          colour=COLOUR_STATS)
    embed.add_field(name=f"Season {report.season.number}", value=tally_text(stats.this_season), inline=True)
    embed.add_field(name="All time", value=tally_text(stats.all_time), inline=True)
    embed.add_field(name="Current streak", value=plural(stats.current_streak, "win"), inline=False)
    embed.add_field(name="Favourite opponent", value=_opponent_text(stats.favourite, "nobody yet"), inline=True)
    embed.add_field(name="Nemesis", value=_opponent_text(stats.nemesis, "nobody yet"), inline=True)
    played, won = report.tournaments
    if played:
        embed.add_field(name=ENGLISH.render(t("Tournaments")), value=ENGLISH.render(tn(
            "{n} played, {won} won", "{n} played, {won} won", played, won=won)), inline=False)
    if chart:
        embed.set_image(url=f"attachment://{CHART_FILENAME}")
    embed.set_footer(text="Net against an opponent splits each hand's payments in proportion.")
    return embed


def _top_value(category: str, value: float) -> str:
    if category == "win_rate":
        return percent(value)
    if category == "net":
        return points(int(value), sign=True)
    if category == "pushups":
        return plural(int(value), "push-up")
    return str(int(value))


def top_embed(report: TopReport, *, server: str) -> discord.Embed:
    board = report.board
    title = f"Top {CATEGORY_WORDS[board.category]} · {server}"
    lines = [f"**{entry.rank}.** {entry.display_name}: {_top_value(board.category, entry.value)}"
             f" · {plural(entry.hands, 'hand')}" for entry in board.entries]
    description = "\n".join([str(report.season), *lines]) if lines else f"{report.season}\nNobody ranks here yet."
    embed = discord.Embed(title=title, description=description[:4096], colour=COLOUR_LOBBY)
    mine = board.mine
    if mine is None:
        place = "You are not ranked in this season."
        if board.category == "win_rate":
            place = f"You need {plural(board.min_hands, 'hand')} in this season to rank by win rate."
    else:
        place = f"**{mine.rank}.** {mine.display_name}: {_top_value(board.category, mine.value)}"
    embed.add_field(name="Your place", value=place, inline=False)
    if board.category == "win_rate":
        embed.set_footer(text=f"Players with at least {plural(board.min_hands, 'hand')} rank by win rate.")
    elif board.category == "net":
        embed.set_footer(text="The same points as /tonk ledger, which shows this season's standings with hands "
                              "and wins; here any season (season:).")
    return embed


def server_embed(report: ServerReport, *, server: str) -> discord.Embed:
    stats = report.stats
    embed = discord.Embed(title=f"{server} · Tonk stats", description=str(report.season), colour=COLOUR_STATS)
    embed.add_field(name="Hands", value=f"{stats.season_hands} this season · {stats.all_time_hands} all time", inline=True)
    embed.add_field(name="Players", value=f"{stats.players} this season", inline=True)
    total = stats.season_hands
    endings = "\n".join(f"{OUTCOME_WORDS.get(outcome, outcome)}: {percent(hands / total)} ({hands})"
                        for outcome, hands in stats.endings)
    embed.add_field(name="How hands ended", value=endings or "No hands this season.", inline=False)
    rules = "\n".join(f"{name}: {plural(hands, 'hand')}" for name, hands in report.house_rules[:5])
    embed.add_field(name="House rules played most", value=rules or "No hands this season.", inline=False)
    return embed
