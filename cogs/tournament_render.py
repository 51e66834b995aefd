"""How a tournament looks in Discord: the sign-up message that becomes the standings, the private
standings, a table's thread name, the winner's announcement. Every word goes through the
catalogues (`engine.text` marks it, `i18n.Lang` renders it in the reader's language)."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

import i18n
from bot.sidebets import and_list
from bot.table import Status, Table
from bot.tournament import Format, Stage, Standing, Tournament
from engine.text import Text, t, tc, tn

from cogs import pictures

PREFIX = "tonkt"
TEMPLATE = re.compile(rf"{PREFIX}:(?P<id>\d+):(?P<verb>join|leave|start|next|endnow|keep)")
COLOUR = discord.Colour.dark_gold()
STANDINGS_FILE = "standings.png"
SHOWN = 16
"""Standings lines shown in the channel message (the private standings show everyone)."""


def custom_id(tournament_id: int, verb: str) -> str:
    custom = f"{PREFIX}:{tournament_id}:{verb}"
    assert TEMPLATE.fullmatch(custom) and len(custom) <= 100
    return custom


def format_name(tournament: Tournament) -> Text:
    return tc("tournament format", "knock-out") if tournament.config.format is Format.KNOCKOUT else \
        tc("tournament format", "Swiss")


def thread_name(lang: i18n.Lang, round_number: int, table_number: int) -> str:
    return lang.render(t("Round {round} · Table {table}", round=round_number, table=table_number))[:100]


def _settings_line(tournament: Tournament) -> Text:
    config = tournament.config
    rules = str(config.rules.get("preset", "standard"))
    scoring = tc("scoring", "push-ups") if config.scoring == "pushups" else tc("scoring", "stakes")
    counts = t("for the ledger") if config.ledger else t("for glory")
    hands = tn("{n} hand a round", "{n} hands a round", config.hands)
    if config.format is Format.SWISS:
        rounds = tn("{n} round", "{n} rounds", config.rounds)
        return t("{format}, {rounds}, {seats} at a table, {hands} · {rules} rules, {scoring}, {counts}",
                 format=format_name(tournament), rounds=rounds, seats=config.seats, hands=hands, rules=rules,
                 scoring=scoring, counts=counts)
    return t("{format}, {seats} at a table, {hands} · {rules} rules, {scoring}, {counts}",
             format=format_name(tournament), seats=config.seats, hands=hands, rules=rules, scoring=scoring,
             counts=counts)


def standing_line(standing: Standing, *, finished: bool) -> Text:
    mark = (t("(withdrawn)") if standing.withdrawn else t("(out)") if standing.out and not finished else None)
    line = tn("{place}. {name}: {points} points, {n} hand won, opponents {opponents}",
              "{place}. {name}: {points} points, {n} hands won, opponents {opponents}", standing.hands_won,
              place=standing.place, name=standing.name, points=standing.points,
              opponents=standing.opponents_points)
    return t("{line} {mark}", line=line, mark=mark) if mark is not None else line


def table_line(tournament: Tournament, seated, table: Table | None) -> Text:
    names = and_list([tournament.name_of(u) for u in seated.players])
    where = f"<#{seated.thread_id}>" if seated.thread_id else None
    if seated.done:
        best = tournament.name_of(tournament.table_order(seated)[0])
        state = t("done, best {name}", name=best)
    elif table is None or seated.table_id is None:
        state = t("being seated")
    elif table.status is Status.PLAYING:
        state = t("hand {hand} of {hands} in play", hand=table.hand_number, hands=tournament.config.hands)
    else:
        state = t("hand {hand} of {hands} over", hand=table.hand_number, hands=tournament.config.hands)
    if where is None:
        return t("Table {n}: {names}, {state}", n=seated.number, names=names, state=state)
    return t("Table {n} ({where}): {names}, {state}", n=seated.number, where=where, names=names, state=state)


def _title(tournament: Tournament) -> Text:
    current = tournament.current
    if tournament.stage is Stage.SIGNUP:
        return t("Tonk tournament: sign-ups open")
    if tournament.stage is Stage.FINISHED:
        return t("Tonk tournament: {name} wins", name=tournament.name_of(tournament.winner))  # type: ignore[arg-type]
    if tournament.stage is Stage.ENDED:
        return t("Tonk tournament: ended")
    assert current is not None
    if current.final:
        return t("Tonk tournament: the final table")
    if tournament.config.format is Format.SWISS:
        return t("Tonk tournament: round {n} of {rounds}", n=current.number, rounds=tournament.config.rounds)
    return t("Tonk tournament: round {n}", n=current.number)


def standings_embed(tournament: Tournament, lang: i18n.Lang, tables: dict[int, Table | None] | None = None,
                    *, everyone: bool = False) -> discord.Embed:
    """The tournament as the channel (or, `everyone`, a private reader) sees it now."""
    config = tournament.config
    lines: list[str] = [lang.render(_settings_line(tournament)),
                        lang.render(t("Organiser: {name}", name=tournament.organiser_name))]
    if config.starts_at:
        when = f"<t:{config.starts_at}:F> (<t:{config.starts_at}:R>)"
        lines.append(lang.render(t("Starts {when}", when=when)))
    if tournament.stage is Stage.SIGNUP:
        names = [e.name for e in tournament.entrants]
        lines.append("")
        lines.append(lang.render(tn("{n} entrant (at least {fewest} to start): {names}",
                                    "{n} entrants (at least {fewest} to start): {names}", len(names),
                                    fewest=tournament.fewest, names=and_list(names) if names else "-")))
    else:
        current = tournament.current
        if current is not None and tournament.stage in (Stage.PLAYING, Stage.BETWEEN):
            lines.append("")
            for seated in current.tables:
                table = (tables or {}).get(seated.table_id) if seated.table_id else None
                lines.append(lang.render(table_line(tournament, seated, table)))
        if tournament.stage is Stage.BETWEEN:
            lines.append("")
            lines.append(lang.render(t("Round {n} is over: the organiser starts the next round.",
                                       n=current.number)))  # type: ignore[union-attr]
            if config.format is Format.KNOCKOUT and current is not None and current.advancing:
                lines.append(lang.render(t("Going on: {names}", names=and_list(
                    [tournament.name_of(u) for u in current.advancing]))))
        if tournament.stage is Stage.ENDED and tournament.closed_reason is not None:
            lines.append(lang.render(tournament.closed_reason))
    embed = discord.Embed(title=lang.render(_title(tournament)), description="\n".join(lines)[:4096], colour=COLOUR)
    if tournament.stage is not Stage.SIGNUP:
        standings = tournament.standings()
        finished = tournament.stage is Stage.FINISHED
        shown = standings if everyone else standings[:SHOWN]
        text = "\n".join(lang.render(standing_line(s, finished=finished)) for s in shown)
        if len(standings) > len(shown):
            text += "\n" + lang.render(tn("and {n} more: /tonk tournament standings",
                                          "and {n} more: /tonk tournament standings", len(standings) - len(shown)))
        name = lang.render(t("Places") if finished else t("Standings"))
        for i in range(0, len(text), 1024):  # a field holds 1,024 characters
            embed.add_field(name=name if i == 0 else "\u200b", value=text[i:i + 1024], inline=False)
            if i >= 4 * 1024:
                break
    return embed


def _button(tournament: Tournament, verb: str, label: Text, lang: i18n.Lang,
            style=discord.ButtonStyle.secondary) -> discord.ui.Button:
    return discord.ui.Button(label=lang.render(label), style=style, custom_id=custom_id(tournament.id, verb))


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def standings_picture(tournament: Tournament, lang: i18n.Lang) -> pictures.Picture | None:
    """The standings drawn (a podium above them once it is over); None at the sign-up."""
    if tournament.stage is Stage.SIGNUP:
        return None
    finished = tournament.stage is Stage.FINISHED
    rows = tuple((s.place, s.name, s.points, s.hands_won, s.out or s.withdrawn) for s in tournament.standings())
    return pictures.render_standings(pictures.StandingsPicture(
        rows, title=lang.render(_title(tournament)), podium=finished and bool(rows),
        lang="" if lang is i18n.ENGLISH else lang.locale))


def with_standings_picture(message: dict[str, Any], tournament: Tournament, lang: i18n.Lang) -> dict[str, Any]:
    picture = standings_picture(tournament, lang)
    if picture is not None:
        message["attachments"] = [discord.File(io.BytesIO(picture.png), filename=STANDINGS_FILE,
                                               description=picture.alt or None)]
        message["embed"].set_image(url=f"attachment://{STANDINGS_FILE}")
    return message


def standings_message(tournament: Tournament, lang: i18n.Lang,
                      tables: dict[int, Table | None] | None = None) -> dict[str, Any]:
    """The channel's message: sign-ups with Join, Leave and Start; then the standings, with Next
    round between rounds, and their picture; no buttons once it is over."""
    embed = standings_embed(tournament, lang, tables)
    if tournament.stage is Stage.SIGNUP:
        view = view_of(_button(tournament, "join", tc("button", "Join"), lang, discord.ButtonStyle.success),
                       _button(tournament, "leave", tc("button", "Leave"), lang),
                       _button(tournament, "start", tc("button", "Start"), lang, discord.ButtonStyle.primary))
    elif tournament.stage is Stage.BETWEEN:
        view = view_of(_button(tournament, "next", tc("button", "Next round"), lang, discord.ButtonStyle.primary))
    else:
        view = view_of()
    return with_standings_picture({"embed": embed, "view": view}, tournament, lang)


def end_question(tournament: Tournament, lang: i18n.Lang) -> dict[str, Any]:
    playing = sum(1 for x in (tournament.current.tables if tournament.current else ()) if not x.done)
    if tournament.stage is Stage.PLAYING and playing:
        text = tn("End the tournament? {n} table is playing: its unfinished hand pays nothing.",
                  "End the tournament? {n} tables are playing: their unfinished hands pay nothing.", playing)
    else:
        text = t("End the tournament? Nobody is placed.")
    view = view_of(_button(tournament, "endnow", tc("button", "End the tournament"), lang, discord.ButtonStyle.danger),
                   _button(tournament, "keep", tc("button", "Keep it going"), lang))
    return {"content": lang.render(text), "view": view}


def winner_text(tournament: Tournament) -> Text:
    standings = tournament.standings()
    podium = [s.name for s in standings[:3]]
    places = [t("{place}. {name}", place=i + 1, name=n) for i, n in enumerate(podium)]
    return t("🏆 {name} wins the tournament! Places: {podium}.", name=podium[0], podium=and_list(places))


def history_embed(tournaments: list[Tournament], lang: i18n.Lang) -> discord.Embed:
    lines = []
    for tournament in tournaments:
        if tournament.stage is Stage.FINISHED:
            podium = [s.name for s in tournament.standings()[:3]]
            lines.append(lang.render(t("Tournament {id} ({format}, {n} entrants): {podium}", id=tournament.id,
                                       format=format_name(tournament), n=len(tournament.entrants),
                                       podium=and_list(podium))))
        else:
            lines.append(lang.render(t("Tournament {id} ({format}, {n} entrants): ended before its end",
                                       id=tournament.id, format=format_name(tournament),
                                       n=len(tournament.entrants))))
    return discord.Embed(title=lang.render(t("Tournaments on this server")), description="\n".join(lines) or "-",
                         colour=COLOUR)


def missing_names(permissions: discord.Permissions, *, pictures: bool) -> list[Text]:
    """What the bot lacks in a channel to run a tournament there: its threads, and the tables in them."""
    needed = {"view_channel": tc("permission", "View Channel"),
              "create_public_threads": tc("permission", "Create Public Threads"),
              "send_messages_in_threads": tc("permission", "Send Messages in Threads"),
              "send_messages": tc("permission", "Send Messages"),
              "embed_links": tc("permission", "Embed Links")}
    if pictures:
        needed["attach_files"] = tc("permission", "Attach Files")
    return [name for flag, name in needed.items() if not getattr(permissions, flag)]


__all__ = ["PREFIX", "TEMPLATE", "custom_id", "end_question", "history_embed", "missing_names",
           "standings_embed", "standings_message", "thread_name", "winner_text"]
