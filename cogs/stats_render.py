"""How a player's profile, a leaderboard and a server's stats look in Discord.

Pure functions from the reports of ``bot.stats`` to embeds, in the language given (the server's:
these answers are posted for everyone). The figures are the store's; this module only words and
lays them out.
"""

from __future__ import annotations

import discord

from engine.text import Text, t, tc, tn
from i18n import ENGLISH, Lang

from bot.stats import OpponentNet, PlayerReport, ServerReport, Tally, TopReport

from cogs.render import COLOUR_LOBBY, OUTCOME_WORDS, points_words, pushups_words

COLOUR_STATS = discord.Colour.teal()
CHART_FILENAME = "balance.png"
CATEGORY_WORDS = {
    "net": t("net points"),
    "pushups": t("push-ups (low is good)"),
    "win_rate": t("win rate"),
    "wins": tc("top category", "wins"),  # a noun here; the seat's tag "wins" is a verb
    "tonk_outs": t("tonk outs"),
    "catches": t("catches"),
    "streak": t("best winning streak"),
}
"""/tonk top's categories as its answer's title names them ("Top {category} · {server}")."""


def percent(fraction: float | None, lang: Lang = ENGLISH) -> str:
    if fraction is None:
        return "—"
    from babel.numbers import format_percent

    return format_percent(fraction, locale=lang.babel)


def net_points(amount: float, lang: Lang = ENGLISH) -> str:
    """A signed amount of points; a fraction (a share of a caught drop) keeps one decimal."""
    return points_words(amount, lang, sign=True)


def _hands(n: int) -> Text:
    return tn("{n} hand", "{n} hands", n)


def _wins(n: int) -> Text:
    return tn("{n} win", "{n} wins", n)


def tally_text(tally: Tally, lang: Lang = ENGLISH) -> str:
    L = lang.render
    return "\n".join((
        L(t("**{hands}**, won {wins} ({rate})", hands=_hands(tally.hands), wins=tally.wins,
            rate=percent(tally.win_rate, lang))),
        L(t("Net **{net}** · {pushups}", net=net_points(tally.net, lang), pushups=pushups_words(tally.pushups, lang))),
        L(t("Tonk outs {tonk_outs} · run outs {run_outs}", tonk_outs=tally.tonk_outs, run_outs=tally.run_outs)),
        L(t("Drops won {won} · caught dropping {caught}", won=tally.drops_won, caught=tally.caught_drops)),
        L(t("Catches {catches} · instant wins {instant}", catches=tally.catches, instant=tally.instant_wins)),
        L(t("Biggest win {win} · loss {loss}", win=net_points(tally.biggest_win, lang),
            loss=net_points(tally.biggest_loss, lang))),
        L(t("Best streak {streak}", streak=_wins(tally.best_streak))),
    ))


def _opponent_text(opponent: OpponentNet | None, lang: Lang) -> str:
    if opponent is None:
        return lang.render(t("nobody yet"))
    return lang.render(t("{name}: {net} over {hands}", name=opponent.display_name, net=net_points(opponent.net, lang),
                         hands=_hands(opponent.hands)))


def player_embed(report: PlayerReport, *, server: str, chart: bool = False, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    stats = report.stats
    embed = discord.Embed(title=L(t("{name} · Tonk stats", name=stats.display_name))[:256],
                          description=L(t("{season} · {server}", season=report.season, server=server)),
                          colour=COLOUR_STATS)
    embed.add_field(name=L(t("Season {n}", n=report.season.number)), value=tally_text(stats.this_season, lang),
                    inline=True)
    embed.add_field(name=L(t("All time")), value=tally_text(stats.all_time, lang), inline=True)
    embed.add_field(name=L(t("Current streak")), value=L(_wins(stats.current_streak)), inline=False)
    embed.add_field(name=L(t("Favourite opponent")), value=_opponent_text(stats.favourite, lang), inline=True)
    embed.add_field(name=L(t("Nemesis")), value=_opponent_text(stats.nemesis, lang), inline=True)
    played, won = report.tournaments
    if played:
        embed.add_field(name=L(t("Tournaments")), value=L(tn(
            "{n} played, {won} won", "{n} played, {won} won", played, won=won)), inline=False)
    if chart:
        embed.set_image(url=f"attachment://{CHART_FILENAME}")
    embed.set_footer(text=L(t("Net against an opponent splits each hand's payments in proportion.")))
    return embed


def _top_value(category: str, value: float, lang: Lang) -> str:
    if category == "win_rate":
        return percent(value, lang)
    if category == "net":
        return net_points(int(value), lang)
    if category == "pushups":
        return pushups_words(int(value), lang)
    return lang.number(int(value))


def top_embed(report: TopReport, *, server: str, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    board = report.board
    title = L(t("Top {category} · {server}", category=CATEGORY_WORDS[board.category], server=server))
    lines = [L(t("**{rank}.** {name}: {value} · {hands}", rank=entry.rank, name=entry.display_name,
                 value=_top_value(board.category, entry.value, lang), hands=_hands(entry.hands)))
             for entry in board.entries]
    description = "\n".join([lang.value(report.season), *(lines or [L(t("Nobody ranks here yet."))])])
    embed = discord.Embed(title=title[:256], description=description[:4096], colour=COLOUR_LOBBY)
    mine = board.mine
    if mine is None:
        place = L(t("You are not ranked in this season."))
        if board.category == "win_rate":
            place = L(t("You need {hands} in this season to rank by win rate.", hands=_hands(board.min_hands)))
    else:
        place = L(t("**{rank}.** {name}: {value}", rank=mine.rank, name=mine.display_name,
                    value=_top_value(board.category, mine.value, lang)))
    embed.add_field(name=L(t("Your place")), value=place[:1024], inline=False)
    if board.category == "win_rate":
        embed.set_footer(text=L(t("Players with at least {hands} rank by win rate.", hands=_hands(board.min_hands))))
    elif board.category == "net":
        embed.set_footer(text=L(t("The same points as /tonk ledger, which shows this season's standings with hands "
                                  "and wins; here any season (season:).")))
    return embed


def server_embed(report: ServerReport, *, server: str, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    stats = report.stats
    embed = discord.Embed(title=L(t("{server} · Tonk stats", server=server))[:256], description=lang.value(report.season),
                          colour=COLOUR_STATS)
    embed.add_field(name=L(t("Hands")), value=L(t("{season} this season · {all_time} all time", season=stats.season_hands,
                                                   all_time=stats.all_time_hands)), inline=True)
    embed.add_field(name=L(t("Players")), value=L(t("{n} this season", n=stats.players)), inline=True)
    total = stats.season_hands
    endings = "\n".join(L(t("{outcome}: {share} ({hands})", outcome=OUTCOME_WORDS.get(outcome, outcome),
                            share=percent(hands / total, lang), hands=hands))
                        for outcome, hands in stats.endings)
    none = L(t("No hands this season."))
    embed.add_field(name=L(t("How hands ended")), value=endings[:1024] or none, inline=False)
    rules = "\n".join(L(t("{rules}: {hands}", rules=name, hands=_hands(hands))) for name, hands in report.house_rules[:5])
    embed.add_field(name=L(t("House rules played most")), value=rules[:1024] or none, inline=False)
    return embed
