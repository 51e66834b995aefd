"""How the table, the lobby, a private hand and the ledger look in Discord.

Pure functions to embeds and component views. The channel's table message is built from
the table's `PublicTable` (what everyone may see), a private hand from the engine's
`SeatView` of that seat: no renderer is ever handed a full hand of cards, so none can
leak one. The engine decides what is legal; this module only shows it.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import discord
import orjson

from bot.commands import play_value
from bot.sidebets import SIDE_BET_NAMES, PublicSideBet, side_bets_words
from bot.table import SLAP_DISCARD, OutcomeKind, PublicTable, Scoring, SeatKind, Status
from engine import PRESET_NAMES, Card, Discard, Hit, Rules, SeatView, Spread, Swap, names, sorted_hand, spread_name
from engine.cards import Suit
from engine.text import Said, Text, t, tc, tn
from engine.help import (OPTION_GROUPS, OPTIONS, card_values, not_played, option_in_force, option_words, plural,
                         points, rules_label)
from engine.view import PublicEvent, PublicSpread

from cogs import pictures
from i18n import ENGLISH, Lang
from cogs.components import Verb, ask_button, button, menu, rules_here_button, view_of

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.green()
COLOUR_OVER = discord.Colour.gold()
COLOUR_CLOSED = discord.Colour.dark_grey()
LAST_PLAYS = 6
MENU_OPTIONS = 25
"""Discord's limit of options in one select menu."""

OUTCOME_WORDS = {
    OutcomeKind.INSTANT: tc("outcome", "Tonk on the deal"),
    OutcomeKind.VOID: tc("outcome", "Void hand (two tonks on the deal)"),
    OutcomeKind.TONK_OUT: tc("outcome", "Tonk out"),
    OutcomeKind.RUN_OUT: tc("outcome", "Run out"),
    OutcomeKind.DROP_WON: tc("outcome", "Drop won"),
    OutcomeKind.CAUGHT: tc("outcome", "Caught!"),
    OutcomeKind.STOCK_OUT: tc("outcome", "Stock out"),
    OutcomeKind.DRAW: tc("outcome", "Draw"),
}


def cards_text(cards, lang: Lang = ENGLISH) -> str:
    """Cards in words (`ace of spades, 10 of hearts`): every card a message or a control names is
    written so, never with a suit symbol, which a screen reader says as "black heart suit". The
    pictures show the cards with their symbols; the text is what screen readers, menus and
    notifications read."""
    if not cards:
        return "—"
    return names(cards) if lang is ENGLISH else lang.series(list(cards))


def fit(text: str, limit: int) -> str:
    """`text` within `limit` characters (a label's or an option's limit), cut at a word with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[:limit - 1].rsplit(" ", 1)[0].rstrip(",") + "…"


def signed(n: int, lang: Lang = ENGLISH) -> str:
    return f"+{lang.number(n)}" if n > 0 else lang.number(n)


def _footer(table: PublicTable, lang: Lang = ENGLISH) -> str:
    scoring = (lang.render(t("push-ups")) if table.scoring is Scoring.PUSHUPS
               else lang.render(t("stake {stake}", stake=table.stake)))
    return lang.render(t("table {id} · {rules} · {scoring}", id=str(table.id), rules=rules_label(table.rules),
                         scoring=scoring))


def table_message(table: PublicTable, *, deadline: float | None = None, picture: bool = False,
                  shown: pictures.TablePicture | None = None, paused: float = 0.0,
                  lang: Lang = ENGLISH) -> dict[str, Any]:
    """The channel's message for a table, whatever its state, from what everyone may see, in the
    server's language (`lang`).
    `deadline` (a Unix time) is when the turn in play runs out; `picture` adds a PNG of the table;
    `shown`: the picture the edited message carries already, kept rather than sent again when it
    is still right; `paused`: seconds the turn's timer stood still while Discord was out of reach."""
    if table.status is Status.CLOSED:
        return closed_message(table, lang=lang)
    if table.status is Status.LOBBY:
        return lobby_message(table, lang=lang)
    return play_message(table, deadline=deadline, picture=picture, shown=shown, paused=paused, lang=lang)


def relative_time(when: float) -> str:
    """Discord's relative timestamp ("in 40 seconds"), shown in each reader's own clock."""
    return f"<t:{int(when)}:R>"


def attach(message: dict[str, Any], name: str, picture: pictures.Picture | None) -> dict[str, Any]:
    """Put `picture` on the message as an attachment shown in its embed (or take any old one off).
    The text stays: menus, screen readers and notifications read it."""
    if picture is None:
        message["attachments"] = []
        return message
    message["attachments"] = [discord.File(io.BytesIO(picture.png), filename=name, description=picture.alt or None)]
    message["embed"].set_image(url=f"attachment://{name}")
    return message


def keep(message: dict[str, Any], name: str) -> dict[str, Any]:
    """Show the picture the edited message carries already: no `attachments` in the edit, so
    Discord keeps its files (and discord.py sends no upload), and the embed points at it again."""
    message.pop("attachments", None)
    message["embed"].set_image(url=f"attachment://{name}")
    return message


def look(message: dict[str, Any]) -> int:
    """What a message shows a reader (its text, embed and components; not its files, which the
    caller follows itself): two messages with the same look need no edit from one to the other."""
    embed = message.get("embed")
    view = message.get("view")
    return hash((message.get("content"), orjson.dumps(embed.to_dict(), option=orjson.OPT_SORT_KEYS) if embed else None,
                 orjson.dumps(view.to_components(), option=orjson.OPT_SORT_KEYS) if view else None))


def as_new(message: dict[str, Any]) -> dict[str, Any]:
    """An edit's keywords as those of a new message (`send` takes files, not attachments)."""
    out = dict(message)
    files = out.pop("attachments", None)
    if files:
        out["files"] = files
    return out


def picture_lang(lang: Lang) -> str:
    """A picture's `lang`: "" for English (the pictures' own words), else the reader's locale."""
    return "" if lang is ENGLISH else lang.locale


def channel_picture(table: PublicTable, lang: Lang = ENGLISH) -> pictures.TablePicture | None:
    """The picture the channel message of `table` carries when pictures are on (None: no picture):
    a hand in play or its showdown, not the lobby, nor the table between hands after the seats changed."""
    if table.status in (Status.LOBBY, Status.CLOSED) or table.phase is None or not table.seats:
        return None
    if table.outcome is None and table.status is Status.BETWEEN_HANDS:
        return None
    return table_picture(table, lang)


def table_picture(table: PublicTable, lang: Lang = ENGLISH) -> pictures.TablePicture:
    """The table's picture from what everyone may see (a hand only at the showdown).

    It shows what changes only now and then: the seats with their totals, the spreads, and at the
    showdown every hand. Whose turn it is, how many cards each holds, the stock and the discard
    change with every play, and they are in the message's text (and the discard and the stock in
    each private hand): left out of the picture, a draw or a discard edits the channel message's
    text and keeps its file, so most plays draw and upload no picture at all."""
    out = table.outcome
    seats = tuple(
        pictures.SeatPicture(
            name=seat.name,
            total=seat.pushups if table.scoring is Scoring.PUSHUPS else seat.total,
            is_away=seat.away, is_dealer=seat.is_dealer,
            note=lang.render(t("dropped")) if out is not None and out.dropper == i else "",
            shown=seat.showdown, count=out.counts[i] if out is not None else None,
            is_winner=out is not None and i in out.winners,
        ) for i, seat in enumerate(table.seats))
    spreads = tuple(pictures.SpreadPicture(table.names[s.owner], tuple(s.cards), tuple(s.named))
                    for s in table.spreads)
    # the totals' unit, said once
    title = (t("Hand {n} · totals in push-ups", n=table.hand_number) if table.scoring is Scoring.PUSHUPS
             else t("Hand {n} · totals in points", n=table.hand_number))
    return pictures.TablePicture(seats, spreads, stock=None, title=lang.render(title), lang=picture_lang(lang))


# ---------------------------------------------------------------------------- lobby

def lobby_message(table: PublicTable, *, lang: Lang = ENGLISH) -> dict[str, Any]:
    L = lang.render
    lines = []
    for i, seat in enumerate(table.seats):
        who = f"<@{seat.user_id}>" if seat.kind is SeatKind.HUMAN else f"🤖 {seat.name}"
        lines.append(f"{i + 1}. " + (L(t("{who} (host)", who=who)) if seat.is_host else who))
    embed = discord.Embed(
        title=L(t("Tonk table: waiting for players")),
        description=L(t("Seats {seated}/{capacity}. Join, add computer players, then the host starts.",
                        seated=len(table.seats), capacity=table.capacity)),
        colour=COLOUR_LOBBY,
    )
    embed.add_field(name=L(t("Seats")), value="\n".join(lines), inline=False)
    rules = shown_rules(table)
    add_lines_fields(embed, L(t("House rules")), [f"• {L(line)}" for line in rules.describe()])
    add_session_fields(embed, table, lang=lang)
    embed.set_footer(text=_footer(table, lang))
    n = table.id
    components = view_of(
        button(n, Verb.JOIN, L(tc("button", "Join")), style=discord.ButtonStyle.primary, row=0),
        button(n, Verb.LEAVE, L(tc("button", "Leave")), row=0),
        button(n, Verb.START, L(tc("button", "Start")), style=discord.ButtonStyle.success, row=0),
        button(n, Verb.CANCEL, L(tc("button", "Cancel")), style=discord.ButtonStyle.danger, row=0),
        *side_bets_button(table, row=0, lang=lang),
        menu(n, Verb.CPU, L(t("Add a computer player…")), [
            discord.SelectOption(label=L(t("Easy computer player")), value="easy"),
            discord.SelectOption(label=L(t("Normal computer player")), value="normal"),
            discord.SelectOption(label=L(t("Hard computer player")), value="hard"),
            discord.SelectOption(label=L(t("Expert computer player")), value="expert",
                                 description=L(t("Searches ahead; thinks a moment longer"))),
        ], row=1),
        *rules_menus(n, rules, lang=lang),
    )
    return {"content": None, "embed": embed, "view": components}


def add_lines_fields(embed: discord.Embed, name: str, lines: list[str], limit: int = 1024,
                     lang: Lang = ENGLISH) -> None:
    """Lines in as many fields as they need (a field holds 1024 characters), never cut mid-line."""
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join(chunk + [line])) > limit:
            embed.add_field(name=name, value="\n".join(chunk), inline=False)
            chunk, name = [], lang.render(t("{name} (more)", name=name))
        chunk.append(line[:limit])
    if chunk:
        embed.add_field(name=name, value="\n".join(chunk), inline=False)


def shown_rules(table) -> Rules:
    """A table's rules with its own scoring mode (which /tonk new may set apart from the preset's)."""
    return replace(table.rules, scoring=table.scoring.value)


def said_words(text: "Text | str", lang: Lang = ENGLISH) -> str:
    """The engine's words of an option (`Said`, Text or a marked constant) in the reader's language."""
    return _word(lang, text)


def rules_menus(t_id: int, rules: Rules, *, lang: Lang = ENGLISH) -> list[discord.ui.Item[Any]]:
    """The host's menus in the lobby: a preset, or one option of each group (its value next)."""
    L = lang.render
    preset = rules.closest_preset()
    exact = Rules.preset(preset) == rules
    items: list[discord.ui.Item[Any]] = [menu(t_id, Verb.PRESET, L(t("Host: play a preset…")), [
        discord.SelectOption(label=L(t("Preset: {name}", name=name))[:100], value=name,
                             default=exact and name == preset)
        for name in PRESET_NAMES
    ], row=2)]
    placeholders = (t("Host: change the standard rules…"), t("Host: change house rules…"))
    for row, (group, options) in enumerate(OPTION_GROUPS, start=3):
        items.append(menu(t_id, Verb.RULE, L(placeholders[min(row - 3, 1)]), [
            discord.SelectOption(label=_word(lang, title)[:100], value=key,
                                 description=_word(lang, option_words(rules, key))[:100])
            for key, title, _ in options
        ], version=row, row=row))
    return items


def rule_choice_message(table_id: int, key: str, rules: Rules, done: str = "", *,
                        lang: Lang = ENGLISH) -> dict[str, Any]:
    """The host's second step: the values of one option, the one in force marked (a low instant
    hand's highest count in a menu of its own). `done` says what the last pick changed."""
    title, choices = OPTIONS[key]
    title = _word(lang, title)
    now = _word(lang, option_words(rules, key))
    counts = [c for c in choices if c[0].startswith("max:")]
    menus = [(None, title, [c for c in choices if c not in counts])]
    if counts:
        menus.append((1, lang.render(t("Highest count")), counts))
    content = done + lang.render(t("**{option}**: now {value}. Choose what it should be:", option=title, value=now))
    return {"content": content, "view": view_of(*(
        menu(table_id, Verb.SET, placeholder[:100], [
            discord.SelectOption(label=_word(lang, words)[:100], value=f"{key}={code}",
                                 default=option_in_force(rules, key, code))
            for code, words, _ in picks
        ], version=version) for version, placeholder, picks in menus))}


def closed_message(table: PublicTable, *, lang: Lang = ENGLISH) -> dict[str, Any]:
    L = lang.render
    reason = L(table.closed_reason) if table.closed_reason is not None else L(t("This table is closed."))
    embed = discord.Embed(title=L(t("Tonk table closed")), description=reason, colour=COLOUR_CLOSED)
    if table.outcome is not None:  # the last hand of the big one: its showdown stays in view
        embed.add_field(name=L(t("Hand {n}: {ending}", n=table.hand_number,
                                 ending=OUTCOME_WORDS[OutcomeKind(table.outcome.kind)])),
                        value=showdown_text(table, closing=True, lang=lang)[:1024], inline=False)
    if table.hand_number and table.seats:
        lines = [f"{s.name}: {signed(s.total, lang)}" for s in table.seats]
        embed.add_field(name=L(tn("After {n} hand", "After {n} hands", table.hand_number)), value="\n".join(lines))
    if table.side_bets is not None and table.side_bets.hand and table.outcome is not None:
        embed.add_field(name=L(t("Side bets")), value=_fit_lines(side_bet_lines(table, lang=lang)), inline=False)
    embed.set_footer(text=L(t("table {id}", id=str(table.id))))
    again = ([button(table.id, Verb.AGAIN, L(tc("button", "Play again")), style=discord.ButtonStyle.success)]
             if table.seats and table.replayable else [])
    return {"content": None, "embed": embed, "view": view_of(*again) if again else None}


# ---------------------------------------------------------------------------- the table

def describe_event(names, event: PublicEvent, *, by_timer: bool = False, lang: Lang = ENGLISH) -> str:
    text = _event_text(names, event, lang)
    return lang.render(t("⏰ {play} (time ran out: the bot played)", play=text)) if by_timer else text


def _event_text(names, event: PublicEvent, lang: Lang = ENGLISH) -> str:
    L = lang.render
    who = names[event.seat]
    action = event.action
    verb = action.verb
    if verb == "draw":
        return L(tc("log", "{who} drew from the stock", who=who))
    if verb == "take":
        if event.card:
            return L(tc("log", "{who} took {card}", who=who, card=card_words(event.card, lang)))
        return L(tc("log", "{who} took the discard", who=who))
    if verb == "spread":
        return L(tc("log", "{who} spread {cards}", who=who, cards=spread_text(action, lang)))
    if verb == "hit":
        return L(tc("log", "{who} hit {card} on spread {n}", who=who, n=action.spread + 1,  # type: ignore[union-attr]
                    card=wild_text(action.card, action.stands_for, lang)))  # type: ignore[union-attr]
    if verb == "discard":
        return L(tc("log", "{who} discarded {card}", who=who, card=card_words(action.card, lang)))  # type: ignore[union-attr]
    if verb == "slap":
        if event.card:
            card = wild_text(event.card, action.stands_for, lang)  # type: ignore[union-attr]
            return L(tc("log", "👋 {who} slapped {card} onto spread {n}", who=who, card=card,
                        n=action.spread + 1))  # type: ignore[union-attr]
        return L(tc("log", "👋 {who} slapped the discard onto spread {n}", who=who, n=action.spread + 1))  # type: ignore[union-attr]
    if verb == "swap":
        card = card_words(action.card, lang)  # type: ignore[union-attr]
        if event.card:
            return L(tc("log", "{who} swapped {card} for {wild} on spread {n}", who=who, card=card,
                        wild=card_words(event.card, lang), n=action.spread + 1))  # type: ignore[union-attr]
        return L(tc("log", "{who} swapped {card} for the wild card on spread {n}", who=who, card=card,
                    n=action.spread + 1))  # type: ignore[union-attr]
    if verb == "claim":
        return L(tc("log", "{who} claimed an instant hand", who=who))
    return L(tc("log", "{who} dropped", who=who))


def wild_text(card: Card, stands_for: Card | None, lang: Lang = ENGLISH) -> str:
    """`7 of spades`, or for a wild card `joker 1 as 7 of spades`."""
    if stands_for is None:
        return card_words(card, lang)
    if lang is ENGLISH:
        return f"{card.name} as {stands_for.name}"
    return lang.render(tc("card", "{wild} as {card}", wild=card, card=stands_for))


def spread_text(spread, lang: Lang = ENGLISH) -> str:
    """A spread's cards in words, each wild card with the card it stands for (a `Spread` or
    `PublicSpread`): `4, 5, 6 of hearts`, `7 of spades, 7 of hearts, joker 1 as 7 of clubs`."""
    named = dict(getattr(spread, "wilds", None) or getattr(spread, "named", None) or ())
    if not spread.cards:
        return "—"
    if lang is ENGLISH:
        return spread_name(spread.cards, named)
    return lang.series([wild_text(c, named.get(c), lang) for c in spread.cards])


def _score_text(table: PublicTable, total: int, pushups: int, lang: Lang = ENGLISH) -> str:
    """`+2 points`, `-1 point`, `1 push-up`: the ledger's one word for each scoring mode."""
    if table.scoring is Scoring.PUSHUPS:
        return pushups_words(pushups, lang)
    return points_words(total, lang, sign=True)


PAUSE_SHOWN = 5.0
"""Seconds of Discord out of reach in a turn from which the table says its timer paused (a
reconnect of a second or two, which Discord asks for routinely, goes unsaid)."""


def duration_words(seconds: float, lang: Lang = ENGLISH) -> str:
    """`9 seconds`, `2 minutes`, `1 hour`: a span as the language says it (CLDR's units)."""
    from datetime import timedelta

    from babel.dates import format_timedelta

    return format_timedelta(timedelta(seconds=round(seconds)), threshold=1.5, locale=lang.babel)


def play_message(table: PublicTable, *, deadline: float | None = None, picture: bool = False,
                 shown: pictures.TablePicture | None = None, paused: float = 0.0,
                 lang: Lang = ENGLISH) -> dict[str, Any]:
    """A hand in play, its showdown, or the table between hands (after someone left or joined)."""
    L = lang.render
    out = table.outcome
    dealt = table.phase is not None
    lines = []
    for seat in table.seats:
        marker = "▶ " if seat.is_turn else ""
        bits = [count_cards(seat.cards, lang)] if seat.cards is not None else []
        if seat.is_dealer:
            bits.append(L(t("dealer")))
        if seat.waiting:
            bits.append(L(t("waiting {n}", n=seat.waiting)))
        if seat.leaving:
            bits.append(L(t("left: computer plays it out")))
        elif seat.away:
            bits.append(L(t("away: computer plays")))
        if seat.votes:
            bits.append(L(tn("{n} ask to hand to a computer", "{n} asks to hand to a computer", seat.votes)))
        if seat.kind is SeatKind.COMPUTER:
            bits.append(L(t("computer")))
        bits.append(_score_text(table, seat.total, seat.pushups, lang))
        lines.append(f"{marker}**{seat.name}** · {' · '.join(bits)}")
    over = table.status is Status.BETWEEN_HANDS
    if out is not None:
        ending = L(t("Instant hand claimed")) if claimed(table) else L(OUTCOME_WORDS[OutcomeKind(out.kind)])
        title = L(t("Tonk · hand {n} · {ending}", n=table.hand_number, ending=ending))
        colour, description = COLOUR_OVER, showdown_text(table, lang=lang)
    elif over:
        title = L(t("Tonk · hand {n} · over", n=table.hand_number))
        colour, description = COLOUR_OVER, L(t("The seats changed since the last hand. Next hand when you are "
                                               "ready; newcomers join at the dealer's right."))
    else:
        title = L(t("Tonk · hand {n}", n=table.hand_number))
        colour = COLOUR_PLAY
        who = table.names[table.turn]  # type: ignore[index]
        if table.phase == "start":
            description = L(t("**{who}** to play: may drop, draw or take the discard.", who=who))
        elif table.phase == SLAP_DISCARD:
            description = L(t("**{who}** to play: slapped, and discards one card.", who=who))
        else:
            description = L(t("**{who}** to play: spreads, hits, then discards.", who=who))
        if table.slap_window is not None:
            description += "\n" + L(t("👋 **Slap!** The {card} fits a spread: the first to press Slap! lays it there.",
                                      card=card_words(table.discard_top, lang)))  # type: ignore[arg-type]
        if deadline is not None:
            description += " " + L(t("Time runs out {when}.", when=relative_time(deadline)))
            if paused >= PAUSE_SHOWN:
                description += "\n" + L(t("⏸️ Discord was unreachable for {duration}: the timer paused.",
                                          duration=duration_words(paused, lang)))
    embed = discord.Embed(title=title, description=description[:4096], colour=colour)
    embed.add_field(name=L(t("Seats")), value="\n".join(lines)[:1024], inline=False)
    if out is not None:
        for i, seat in enumerate(table.seats):
            money = _score_text(table, out.payments[i], out.pushups[i], lang)
            embed.add_field(name=L(t("{name}: count {count}", name=seat.name, count=out.counts[i])),
                            value=f"{cards_text(sorted_hand(seat.showdown or ()), lang)}\n{money}"[:1024], inline=True)
    if dealt:
        embed.add_field(name=L(t("Discard")), inline=True,
                        value=card_words(table.discard_top, lang) if table.discard_top else L(t("empty")))
        embed.add_field(name=L(t("Stock")), value=count_cards(table.stock_size, lang), inline=True)
        add_spreads_field(embed, table.spreads, table.names, lang=lang)
    add_session_fields(embed, table, lang=lang)
    if dealt:
        start = max(0, len(table.history) - LAST_PLAYS)
        plays = [describe_event(table.names, e, by_timer=start + i in table.timer_plays, lang=lang)
                 for i, e in enumerate(table.history[start:])]
        if table.cuts and len(plays) < LAST_PLAYS:
            plays.insert(0, pictures.cards_in_words(L(table.cuts)))  # tables saved before cards were in words
        if plays:
            embed.add_field(name=L(t("Last plays")), value=_fit_lines(plays), inline=False)
    embed.set_footer(text=_footer(table, lang))
    n = table.id
    if over:
        items = [button(n, Verb.NEXT, L(tc("button", "Next hand")), style=discord.ButtonStyle.success, row=0),
                 button(n, Verb.LEAVE, L(tc("button", "Leave")), row=0)]
        if len([s for s in table.seats if not s.leaving]) < table.capacity:
            items.insert(1, button(n, Verb.JOIN, L(tc("button", "Join")), style=discord.ButtonStyle.primary, row=0))
        items += side_bets_button(table, lang=lang)
        items += seat_menu(table, Verb.REMOVE, L(t("Host: remove a seat…")), lambda s: not s.is_host)
    else:
        items = [button(n, Verb.HAND, L(tc("button", "My hand")), style=discord.ButtonStyle.primary, row=0)]
        if table.slap_window is not None:
            items.append(button(n, Verb.SLAP, L(tc("button", "Slap!")), style=discord.ButtonStyle.danger,
                                version=table.slap_window, row=0, emoji="👋"))
        items.append(button(n, Verb.LEAVE_ASK, L(tc("button", "Leave")), row=0))
        items += seat_menu(table, Verb.TAKEOVER, L(t("Hand an idle player's seat to a computer…")),
                           lambda s: s.kind is SeatKind.HUMAN and not s.away and not s.leaving)
    if table.anyone_away:
        items.append(button(n, Verb.BACK, L(tc("button", "I'm back")), row=0))
    items.append(button(n, Verb.TABLE_RULES, L(tc("button", "Rules")), row=1))
    if out is not None:  # the showdown: each player may review their own decisions
        items.append(button(n, Verb.REVIEW, L(tc("button", "Review my hand")), version=table.hand_number, row=1))
    message = {"content": None, "embed": embed, "view": view_of(*items)}
    wanted = channel_picture(table, lang) if picture else None
    if wanted is not None and wanted == shown:
        return keep(message, "table.png")
    return attach(message, "table.png", pictures.render_table(wanted) if wanted is not None else None)


def seat_menu(table: PublicTable, verb: Verb, placeholder: str, which) -> list:
    """A menu of the seats `which` picks (by seat number), or nothing when it has none."""
    options = [discord.SelectOption(label=f"{i + 1}. {seat.name}"[:100], value=str(i))
               for i, seat in enumerate(table.seats) if which(seat)]
    return [menu(table.id, verb, placeholder, options, row=2)] if options else []


def leave_question(table_id: int, *, lang: Lang = ENGLISH) -> dict[str, Any]:
    """Leave during a hand asks first (one click more, once)."""
    return {"content": lang.render(t("Leave the table now? A computer player plays your seat for the rest of this "
                                     "hand, whose result is still yours; your seat goes before the next deal. "
                                     "To stay, dismiss this message.")),
            "view": view_of(button(table_id, Verb.LEAVE_NOW, lang.render(tc("button", "Leave now")),
                                   style=discord.ButtonStyle.danger))}


def command_done(table, verb: Verb, value: str | None, *, lang: Lang = ENGLISH) -> str:
    """The private line that answers Leave now or a take-over ask (`table` as it is after it)."""
    L = lang.render
    if verb is Verb.LEAVE_NOW:
        if not table.is_open:
            return L(t("You left, and the table closed."))
        return L(t("You left the table: a computer player plays your seat out this hand. "
                   "Press I'm back on the table if you change your mind before it ends."))
    index = int(value) if value is not None and value.isdigit() else -1
    if not 0 <= index < len(table.seats):
        return L(t("Done."))
    seat = table.seats[index]
    if seat.played_by_computer:
        return L(t("A computer player has {name}'s seat now, until they press I'm back.", name=seat.name))
    return L(t("Asked: {votes}.", votes=seat.votes_text(table.votes_needed(index))))


def side_bets_button(table: PublicTable, row: int = 1, *, lang: Lang = ENGLISH) -> list:
    """Each player's in/out toggle for the side bets, while the host has them on."""
    if table.side_bets is None or not table.side_bets.kinds:
        return []
    return [button(table.id, Verb.SIDE, lang.render(tc("button", "Side bets: in/out")), row=row)]


def add_session_fields(embed: discord.Embed, table: PublicTable, *, lang: Lang = ENGLISH) -> None:
    """The big one and the side bets, where the table shows them."""
    L = lang.render
    if table.big_one:
        embed.add_field(name=L(t("The big one")), inline=False,
                        value=L(tn("The big one: {n} hand left, double stakes; then the table closes.",
                                   "The big one: {n} hands left, double stakes; then the table closes.",
                                   table.big_one)))
    if table.side_bets is not None:
        embed.add_field(name=L(t("Side bets")), value=_fit_lines(side_bet_lines(table, lang=lang)), inline=False)


def side_bet_lines(table: PublicTable, *, lang: Lang = ENGLISH) -> list[str]:
    """The side bets: what is on and who is in, this hand's bets, and the pots carried."""
    L = lang.render
    bets = table.side_bets
    assert bets is not None
    names = table.names
    lines = []
    if bets.kinds:
        who = either(list(bets.players), lang) if bets.players else L(t("nobody yet (two or more play a bet)"))
        words = L(side_bets_words(bets.kinds, bets.stake, bets.suit_call))
        lines.append(L(t("{bets}. In: {who}.", bets=words.capitalize() if lang is ENGLISH else words[:1].upper() + words[1:], who=who)))
    over = table.outcome is not None
    for bet in bets.hand:
        lines.append(_hand_bet_line(bet, names, over, lang))
    carried = [f"{L(SIDE_BET_NAMES[k])} {lang.number(n)}" for k, n in bets.pots.items() if n]
    if carried and table.status in (Status.LOBBY, Status.BETWEEN_HANDS):
        lines.append(L(t("In the pots for the next deal: {pots}.", pots=lang.series(carried))))
    if over and bets.settled:
        lines.append(L(t("Won: {who}.", who=lang.series([f"{names[i]} {signed(n, lang)}"
                                                          for i, n in enumerate(bets.settled) if n]))))
    return lines


def _hand_bet_line(bet: PublicSideBet, names, over: bool, lang: Lang = ENGLISH) -> str:
    L = lang.render
    who = either([names[i] for i in bet.seats], lang)
    if bet.kind == "high_card":
        shown = lang.series([f"{names[i]} {card_words(c, lang)}" for i, c in enumerate(bet.shown) if c is not None])
        head = (L(t("High card in {suit} ({who}, pot {pot})", suit=SUIT_TEXT[bet.suit], who=who, pot=bet.pot))
                if bet.suit is not None else L(t("High card ({who}, pot {pot})", who=who, pot=bet.pot)))
        text = f"{head}: " + (f"{shown}; " if shown else "")
        if bet.winner is not None:
            return text + L(t("{name} wins the pot.", name=names[bet.winner]))
        return text + L(t("nobody in holds the suit: the pot carries over."))
    text = L(t("Naturals ({who}, pot {pot})", who=who, pot=bet.pot)) + ": "
    if bet.winner is not None:
        return text + L(t("{name} laid a natural book and wins the pot.", name=names[bet.winner]))
    if over:
        return text + L(t("no natural book: the pot carries over."))
    return text + L(t("the first natural book of 3 or 4 laid by one of them wins it."))


def add_spreads_field(embed: discord.Embed, spreads: tuple[PublicSpread, ...], names, *,
                      lang: Lang = ENGLISH) -> None:
    """Every spread on the table, numbered as hits name them, with its owner."""
    if spreads:
        lines = [f"{n + 1}. {names[s.owner]}: {spread_text(s, lang)}" for n, s in enumerate(spreads)]
        embed.add_field(name=lang.render(t("Spreads")), value=_fit_lines(lines), inline=False)


def _fit_lines(lines: list[str], limit: int = 1024) -> str:
    """Keep the newest lines that fit a field."""
    out: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit:
            break
        out.insert(0, line)
        size += len(line) + 1
    return "\n".join(out) or "—"


SHOWDOWN = {
    OutcomeKind.INSTANT: t("{winners} won on the deal."),
    OutcomeKind.VOID: t("Two or more tonks on the deal: the hand is void, nobody pays."),
    OutcomeKind.TONK_OUT: t("{winners} tonked out (no cards left)."),
    OutcomeKind.RUN_OUT: t("{winners} ran out of cards."),
    OutcomeKind.DROP_WON: t("{dropper} dropped with {count} and won."),
    OutcomeKind.CAUGHT: t("{dropper} dropped with {count} and was caught by {winners}."),
    OutcomeKind.STOCK_OUT: t("The stock ran out: {winners} has the lowest count."),
    OutcomeKind.DRAW: t("No winner: nobody pays."),
}


def claimed(table: PublicTable) -> bool:
    """Did the hand end with an instant hand claimed in turn (house rule), not on the deal?"""
    return bool(table.history) and table.history[-1].action.verb == "claim"


def showdown_text(table: PublicTable, *, closing: bool = False, lang: Lang = ENGLISH) -> str:
    L = lang.render
    out = table.outcome
    assert out is not None
    names = table.names
    dropper = names[out.dropper] if out.dropper is not None else ""
    count = out.counts[out.dropper] if out.dropper is not None else 0
    text = L(replace(SHOWDOWN[OutcomeKind(out.kind)],
                     params={"winners": either([names[w] for w in out.winners], lang) if lang is not ENGLISH else ", ".join(names[w] for w in out.winners), "dropper": dropper,
                             "count": count}))
    if claimed(table):
        text = L(t("{name} claimed an instant hand at the start of their first turn.", name=names[out.winners[0]]))
    if out.kind == OutcomeKind.DRAW and table.stock_size == 0 and out.counts:
        low = min(out.counts)
        tied = [names[i] for i, c in enumerate(out.counts) if c == low]
        if table.rules.stock_out == "dead_hand":
            text = L(t("The stock ran out: a dead hand, nobody pays."))
        elif len(tied) > 1:
            text = L(t("The stock ran out with {tied} tied for the lowest count ({count}): nobody pays.",
                       tied=either(tied, lang), count=low))
    return text if closing else text + " " + L(t("Next hand when you are ready."))


def either(names: list[str], lang: Lang = ENGLISH) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob and Cy` (empty for nobody); in another language, as it joins a list."""
    if lang is not ENGLISH:
        return lang.join(names) if names else ""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------------------- a private hand

def hand_message(view: SeatView, *, table_id: int, hand_number: int, moves: int, away: bool = False,
                 note: "Text | str | None" = None, drawn: Card | None = None, confirm_drop: bool = False,
                 deadline: float | None = None, picture: bool = False, hint: "Text | str | None" = None,
                 focus: str | None = None, shown: pictures.HandPicture | None = None,
                 pending: tuple[str, str] | None = None, confirms: bool = False,
                 lang: Lang = ENGLISH) -> dict[str, Any]:
    """The ephemeral message with one player's cards and the plays legal right now, built only
    from what that seat may see (the engine's `SeatView`), in its reader's language (`lang`).
    `drawn` is the card this seat just
    drew (marked in the hand); `confirm_drop` asks before a drop; `deadline` ends the turn;
    `hint`: the service's line for a player's first hand, if this is it; `focus`: the group picked
    in the first step of a two-step choice (`verb:group`); `shown`: the picture the edited message
    carries already, kept rather than sent again when it is still right. `pending`: a pick (verb,
    value) that waits for this player's word; `confirms`: this player confirms each pick."""
    L = lang.render
    n = table_id
    hand = sorted_hand(view.hand)
    drawn = drawn if drawn in hand else None
    cards = lang.series([L(t("{card} (drawn)", card=card_words(c, lang))) if c == drawn else card_words(c, lang)
                         for c in hand]) or "—"
    lines = [f"### {cards}", L(t("Count **{count}**", count=view.count))]
    if drawn is not None and view.my_turn:
        lines.append(L(t("You drew the **{card}**.", card=card_words(drawn, lang))))
    embed = discord.Embed(title=L(t("Your hand")), description="\n".join(lines), colour=COLOUR_PLAY)
    top = view.discard_top
    embed.add_field(name=L(t("Discard")), value=card_words(top, lang) if top else L(t("empty")), inline=True)
    if view.my_turn or view.outcome is not None:
        # the one who draws needs the stock's size; left out of the others' hands (the table shows
        # it), another player's draw changes nothing they show, and their message is not edited
        embed.add_field(name=L(t("Stock")), value=count_cards(view.stock_size, lang), inline=True)
    add_spreads_field(embed, view.spreads, view.players, lang=lang)
    legal = list(view.legal_actions)
    verbs = {a.verb for a in legal}
    stock_empty = "draw" in verbs and view.stock_size == 0 and not view.rules.can_reshuffle(view.discard_size)
    if view.outcome is not None:
        count = view.outcome.counts[view.seat]
        if view.seat in view.outcome.winners:
            status = L(t("This hand is over: you won; your count {count}. See the table for the showdown. "
                         "The next deal shows here.", count=count))
        else:
            who = either([view.players[w] for w in view.outcome.winners], lang) or L(t("nobody"))
            status = L(t("This hand is over: {who} won; your count {count}. See the table for the showdown. "
                         "The next deal shows here.", who=who, count=count))
    elif away:
        status = L(t("A computer player is playing your seat: press I'm back on the table."))
        legal = []
    elif not view.my_turn:
        status = L(t("Not your turn: **{who}** is playing.",
                     who=view.players[view.to_act if view.to_act >= 0 else view.turn]))
        if "slap" in verbs:
            status += "\n" + L(t("👋 You may slap the {card}: press Slap! on the table.",
                                 card=card_words(top, lang)))  # type: ignore[arg-type]
    elif confirm_drop and "drop" in verbs:
        status = L(t("Drop with a count of **{count}**? If another player has {count} or less, you are caught "
                     "and pay.", count=view.count))
    elif view.phase == SLAP_DISCARD:
        status = L(t("You slapped: discard one card, then play goes on where it was."))
    elif view.phase == "start":
        status = L(t("Your turn: drop, draw from the stock, or take the discard."))
        if view.rules.waiting and view.drop_blocked:
            status += " " + L(t("(You are waiting: no drop this turn.)"))
        if "claim" in verbs:
            status += " " + L(t("Your hand is an instant hand: claim it to win now."))
    else:
        status = L(t("Spread or hit if you like, then discard to end your turn."))
        if "discard" not in verbs:
            status = L(t("Spread or hit now: a house rule bars your discard until you do (see /tonk rules)."))
    if stock_empty and view.my_turn and not away:
        status += "\n" + L(t("The stock is empty: drawing ends the hand (the lowest count wins)."))
    if deadline is not None and view.my_turn and not away:
        status += "\n" + L(t("Time runs out {when}.", when=relative_time(deadline)))
    names = view.players

    def on_spread(s: int) -> str:
        return L(t("spread {n} ({owner})", n=s + 1, owner=names[view.spreads[s].owner]))

    waiting = pick_words(legal, pending, on_spread, lang=lang) if view.my_turn and not away else None
    if waiting is not None:
        status = L(t("**{pick}**? Confirm it, pick another, or cancel.", pick=waiting))
    if note:
        status = f"{L(note)}\n{status}"
    embed.add_field(name=L(t("Now")), value=status[:1024], inline=False)
    if hint:
        embed.add_field(name=L(t("New to Tonk?")), value=L(t("{hint} /tonk help teaches the rest.", hint=L(hint)))[:1024],
                        inline=False)
    embed.set_footer(text=L(t("table {id} · hand {n} · only you can see this", id=str(n), n=hand_number)))
    items: list[discord.ui.Item[Any]] = []
    if confirm_drop and "drop" in verbs:
        items.append(button(n, Verb.DROP_CONFIRM, L(tc("button", "Drop with {count}", count=view.count)),
                            style=discord.ButtonStyle.danger, version=moves, row=0))
        items.append(button(n, Verb.REFRESH, L(tc("button", "Cancel")), row=0))
        return _with_hand_picture({"embed": embed, "view": view_of(*items)}, view, drawn, picture, shown, lang)
    if "draw" in verbs:
        label = L(tc("button", "Draw (ends the hand)")) if stock_empty else L(tc("button", "Draw"))
        items.append(button(n, Verb.DRAW, label, style=discord.ButtonStyle.primary, version=moves, row=0))
    if "take" in verbs:
        items.append(button(n, Verb.TAKE, fit(L(tc("button", "Take {card}", card=card_words(top, lang))), 80),  # type: ignore[arg-type]
                            style=discord.ButtonStyle.primary, version=moves, row=0))
    if "drop" in verbs:
        items.append(button(n, Verb.DROP, L(tc("button", "Drop ({count})", count=view.count)),
                            style=discord.ButtonStyle.danger, version=moves, row=0))
    if "claim" in verbs:
        items.append(button(n, Verb.CLAIM, L(tc("button", "Claim instant hand")), style=discord.ButtonStyle.success,
                            version=moves, row=0))
    if waiting is not None:
        items.append(button(n, Verb.CONFIRM, fit(waiting, 80), style=discord.ButtonStyle.success, version=moves, row=0))
        items.append(button(n, Verb.REFRESH, L(tc("button", "Cancel")), row=0))
        items.append(button(n, Verb.ASK_OFF, L(tc("button", "Play it, and stop asking")), version=moves, row=0))
    else:
        items.append(button(n, Verb.REFRESH, L(tc("button", "Refresh")), row=0))  # no version: it only shows the hand again
        if not confirms and view.my_turn and not away and verbs & {"spread", "hit", "discard", "swap"} \
                and not verbs & {"draw", "take"}:
            items.append(button(n, Verb.ASK_ON, L(tc("button", "Ask before each pick")), row=0))
    spreads = [a for a in legal if isinstance(a, Spread)]
    hits = [a for a in legal if isinstance(a, Hit)]
    swaps = [a for a in legal if isinstance(a, Swap)]

    def hit_words(a) -> str:
        return L(t("{card} on {spread}", card=wild_text(a.card, a.stands_for, lang), spread=on_spread(a.spread)))

    items.extend(choice_menus(n, moves, focus, [
        (Verb.SPREAD, L(t("Lay a spread…")), spreads, lambda a: spread_text(a, lang),
         lambda a: _natural_group(a, lang), 1),
        (Verb.HIT, L(t("Hit a spread…")), hits, hit_words,
         lambda a: (f"{a.card.code}@{a.spread}", L(t("{card} on {spread}", card=card_words(a.card, lang),
                                                     spread=on_spread(a.spread)))), 2),
    ], lang=lang))
    place = {card: i for i, card in enumerate(hand)}
    discards = sorted((a for a in legal if isinstance(a, Discard)), key=lambda a: place.get(a.card, len(place)))
    if discards:
        items.append(menu(n, Verb.DISCARD, L(t("Discard…")), [
            discord.SelectOption(label=fit(card_words(a.card, lang), 100), value=play_value(a),
                                 description=L(t("just drawn")) if a.card == drawn else None) for a in discards
        ], version=moves, row=3))
    if swaps:
        items.append(menu(n, Verb.SWAP, L(t("Swap a wild card off the table…")), [
            discord.SelectOption(label=fit(L(t("{card} for the wild card on {spread}", card=card_words(a.card, lang),
                                               spread=on_spread(a.spread))), 100),
                                 value=play_value(a)) for a in swaps
        ], version=moves, row=4))
    return _with_hand_picture({"embed": embed, "view": view_of(*items)}, view, drawn, picture, shown, lang)


def pick_words(legal, pending: tuple[str, str] | None, on_spread, *, lang: Lang = ENGLISH) -> str | None:
    """The waiting pick in words (`Discard 7 of hearts`), if it is still one of the legal plays."""
    if pending is None:
        return None
    L = lang.render
    verb, value = pending
    action = next((a for a in legal if a.verb == verb and play_value(a) == value), None)
    if isinstance(action, Discard):
        return L(tc("button", "Discard {card}", card=card_words(action.card, lang)))
    if isinstance(action, Spread):
        return L(tc("button", "Lay {cards}", cards=spread_text(action, lang)))
    if isinstance(action, Hit):
        return L(tc("button", "Hit {card} on {spread}", card=wild_text(action.card, action.stands_for, lang),
                    spread=on_spread(action.spread)))
    if isinstance(action, Swap):
        return L(tc("button", "Swap {card} for the wild card on {spread}", card=card_words(action.card, lang),
                    spread=on_spread(action.spread)))
    return None


def _natural_group(action: Spread, lang: Lang = ENGLISH) -> tuple[str, str]:
    """A wild spread's group for the two-step choice: its natural cards."""
    natural = [c for c in action.cards if c not in action.named]
    words = cards_text(natural, lang)
    return ".".join(c.code for c in natural), (lang.render(t("{cards} + wild", cards=words)) if action.wilds else words)


def choice_menus(t_id: int, moves: int, focus: str | None, choices, *, lang: Lang = ENGLISH) -> list[discord.ui.Item[Any]]:
    """One menu per kind of play (verb, placeholder, actions, label, group, row). A menu holds 25
    options: more plays than that become two steps, a menu of groups (`Verb.FOCUS`, its value
    `verb:group`) whose pick shows the hand again with that group's plays in the menu. A group of
    more than 25 plays (a pair of naturals with several wild cards) is offered in parts."""
    items: list[discord.ui.Item[Any]] = []
    for verb, placeholder, actions, label, group_of, row in choices:
        actions = list(dict.fromkeys(actions))  # one option per play: Discord refuses repeated values
        if not actions:
            continue
        prefix = f"{verb}:"
        if len(actions) > MENU_OPTIONS:
            groups = _choice_groups(actions, group_of, lang)
            chosen = focus[len(prefix):] if focus and focus.startswith(prefix) else None
            inside = next((members for key, _, members in groups if key == chosen), [])
            if not inside:
                items.append(menu(t_id, Verb.FOCUS,
                                  fit(lang.render(t("{menu} (choose the cards first)", menu=placeholder)), 150), [
                    discord.SelectOption(label=fit(words, 100), value=f"{prefix}{key}"[:100])
                    for key, words, _ in groups[:MENU_OPTIONS]
                ], version=moves, row=row, tag=str(verb)))  # two such menus may show at once
                continue
            actions = inside
        items.append(menu(t_id, verb, placeholder, [
            discord.SelectOption(label=fit(label(a), 100), value=play_value(a)) for a in actions[:MENU_OPTIONS]
        ], version=moves, row=row))
    return items


def _choice_groups(actions, group_of, lang: Lang = ENGLISH) -> list[tuple[str, str, list]]:
    """(key, words, plays) of each group of a two-step choice, in the plays' order; a group of
    more plays than a menu holds split into parts (`key~2`: "... (2 of 3)")."""
    groups: dict[str, tuple[str, list]] = {}
    for action in actions:
        key, words = group_of(action)
        groups.setdefault(key, (words, []))[1].append(action)
    out = []
    for key, (words, members) in groups.items():
        if len(members) <= MENU_OPTIONS:
            out.append((key, words, members))
            continue
        parts = -(-len(members) // MENU_OPTIONS)
        for part in range(parts):
            out.append((f"{key}~{part + 1}", lang.render(t("{group} ({part} of {parts})", group=words, part=part + 1,
                                                           parts=parts)),
                        members[part * MENU_OPTIONS:(part + 1) * MENU_OPTIONS]))
    return out


def hand_between(table_id: int, hand_number: int, *, lang: Lang = ENGLISH) -> dict[str, Any]:
    """A private hand while the seats change between hands: the next deal shows here."""
    L = lang.render
    embed = discord.Embed(title=L(t("Your hand")), colour=COLOUR_OVER,
                          description=L(t("Hand {n} is over and the seats changed. The next deal shows here.",
                                          n=hand_number)))
    embed.set_footer(text=L(t("table {id} · only you can see this", id=str(table_id))))
    return {"embed": embed, "view": None, "attachments": []}


def hand_retired(table_id: int, *, stopping: bool = False, lang: Lang = ENGLISH) -> dict[str, Any]:
    """A private hand whose token is about to expire, or whose bot stops (a restart or an update
    takes its tokens away): it no longer follows the game, and says so (rather than go on showing a
    state that is no longer true), with one button back to the live hand. The button is a new
    click, whose reply follows the game again."""
    L = lang.render
    if stopping:
        text = t("This message no longer follows the game: the bot stopped (for a restart or an update). When it "
                 "is back, press **Show my hand** (or My hand on the table) for your live hand.")
    else:
        text = t("This message no longer follows the game: Discord lets the bot update it for 15 minutes after "
                 "your last click on it. Press **Show my hand** (or My hand on the table) for your live hand.")
    embed = discord.Embed(title=L(t("Your hand")), colour=COLOUR_CLOSED, description=L(text))
    embed.set_footer(text=L(t("table {id} · only you can see this", id=str(table_id))))
    return {"embed": embed, "view": view_of(button(table_id, Verb.REFRESH, L(tc("button", "Show my hand")),
                                                   style=discord.ButtonStyle.primary)), "attachments": []}


def stale_hands_note(user_ids: list[int], hand_number: int, *, lang: Lang = ENGLISH) -> str:
    """The channel's short note to people whose private hand stopped following the game."""
    who = ", ".join(f"<@{u}>" for u in user_ids)
    return lang.render(tn(
        "{who}: your hand message stopped following the game (the bot can update one only for 15 minutes after "
        "your last click, and not across a restart). Hand {hand} is on: My hand shows your cards.",
        "{who}: your hand messages stopped following the game (the bot can update them only for 15 minutes after "
        "your last click, and not across a restart). Hand {hand} is on: My hand shows your cards.",
        len(user_ids), who=who, hand=hand_number))


def stuck_text(missing: list[str], channel_id: int, *, host: bool = False, lang: Lang = ENGLISH) -> str:
    """What a table whose channel refuses the bot a permission tells its players (and its host)."""
    lack = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
    if lang is not ENGLISH:
        lack = lang.join(missing)
    if host:
        text = t("Your Tonk table in <#{channel}> is stuck: I lack {lack} in <#{channel}>, so its message and the "
                 "turn pings can't follow the game. Someone who can change that channel's permissions (Manage "
                 "Channels or Manage Roles, or a server admin) can allow me that; the table then carries on by itself.",
                 channel=str(channel_id), lack=lack)
    else:
        text = t("This table is stuck: I lack {lack} in <#{channel}>, so its message and the turn pings can't follow "
                 "the game. Someone who can change that channel's permissions (Manage Channels or Manage Roles, or a "
                 "server admin) can allow me that; the table then carries on by itself.",
                 channel=str(channel_id), lack=lack)
    return lang.render(text)


def hand_closed(table_id: int, *, left: bool, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The last look of a private hand: its player left, or the table closed."""
    L = lang.render
    text = L(t("You left this table.")) if left else L(t("This table is closed."))
    embed = discord.Embed(title=L(t("Your hand")), description=text, colour=COLOUR_CLOSED)
    embed.set_footer(text=L(t("table {id}", id=str(table_id))))
    return {"embed": embed, "view": None, "attachments": []}


def hand_picture(view: SeatView, drawn: Card | None = None, lang: Lang = ENGLISH) -> pictures.HandPicture:
    """The picture of a private hand: the seat's own cards in the order the message lists them,
    the card just drawn marked. The discard and the stock are in the message's text; left out of
    the picture, it changes only when the hand does, so another player's move sends no new one."""
    return pictures.hand_picture_from_view(view, drawn=drawn, order=sorted_hand(view.hand), show_discard=False,
                                           lang=picture_lang(lang))


def _with_hand_picture(message: dict[str, Any], view: SeatView, drawn: Card | None, picture: bool,
                       shown: pictures.HandPicture | None, lang: Lang = ENGLISH) -> dict[str, Any]:
    if not picture:
        return attach(message, "hand.png", None)
    wanted = hand_picture(view, drawn, lang)
    if wanted == shown:
        return keep(message, "hand.png")
    return attach(message, "hand.png", pictures.render_hand(wanted))


# ---------------------------------------------------------------------------- commands

def review_embed(hand_id: str, text: str, *, lang: Lang = ENGLISH) -> discord.Embed:
    """A player's review of their own decisions in a hand (engine/review.py's text), privately."""
    return discord.Embed(title=lang.render(t("Your review of hand {hand}", hand=hand_id)),
                         description=pictures.cards_in_words(text)[:4096], colour=COLOUR_LOBBY)


def _word(lang: Lang, text: "Text | str") -> str:
    """A Text, the engine's words that carry one (`Said`), or a constant it marks for the catalogue
    (N_), in the reader's language."""
    if isinstance(text, Said):
        return lang.render(text.text)
    return lang.render(text) if isinstance(text, Text) else lang.gettext(text)


def rules_embed(rules: Rules, title: "Text | str", *, lang: Lang = ENGLISH) -> discord.Embed:
    """`/tonk rules`: every option of the table in words, those played, then the house rules it leaves out."""
    L = lang.render
    embed = discord.Embed(title=_word(lang, title)[:256], colour=COLOUR_LOBBY,
                          description="\n".join(f"• {L(line)}" for line in rules.describe())[:4096])
    add_lines_fields(embed, L(t("Not played here")), [f"• {_word(lang, line)}" for line in not_played(rules)], lang=lang)
    embed.set_footer(text=L(t("Cards: {values}. Low count is good.", values=L(card_values(rules)))))
    return embed


def help_message(sections: list[tuple[Any, Any]], where: "Text | str", rules: Rules | None = None,
                 bot: discord.Embed | None = None, *, lang: Lang = ENGLISH) -> dict[str, Any]:
    """`/tonk help`: the lesson (engine/help.py's sections, one field each), then `bot` (the
    buttons and commands, cogs/bot_help.py), and the button to the rules of the table here."""
    L = lang.render
    embed = discord.Embed(title=L(t("Tonk in two minutes")), colour=COLOUR_LOBBY,
                          description=L(t("{where}. Cards: {values}; low count is good.", where=_word(lang, where),
                                          values=L(card_values(rules or Rules())))))
    for heading, body in sections[:25]:
        embed.add_field(name=L(heading)[:256], value=L(body)[:1024], inline=False)
    embed.set_footer(text=L(t("/tonk new opens a table · /tonk rules explains a preset")))
    button = rules_here_button(lang.render(tc("button", "Rules of the table here")))
    if bot is not None:
        return {"embeds": [embed, bot], "view": view_of(button)}
    return {"embed": embed, "view": view_of(button)}


def ledger_embed(rows, mine, *, mode: str, season: int, guild_name: str, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    pushups = mode == "pushups"
    title = L(t("Tonk ledger · {server} · season {season} · push-ups", server=guild_name, season=season) if pushups
              else t("Tonk ledger · {server} · season {season} · points", server=guild_name, season=season))
    if not rows:
        return discord.Embed(title=title[:256], description=L(t("No hands played yet this season.")), colour=COLOUR_LOBBY)

    def score(row) -> str:
        return pushups_words(row.pushups, lang) if pushups else points_words(row.balance, lang, sign=True)

    def line(row) -> str:
        hands = L(tn("{n} hand", "{n} hands", row.hands))
        wins = L(tn("{n} win", "{n} wins", row.wins))
        return L(t("**{rank}.** {name}: {score} · {hands}, {wins}", rank=row.rank, name=row.display_name,
                   score=score(row), hands=hands, wins=wins))

    lines = [line(row) for row in rows]
    embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=COLOUR_LOBBY)
    if mine is not None and all(r.account != mine.account for r in rows):
        embed.add_field(name=L(t("Your place")), value=f"**{mine.rank}.** {mine.display_name}: {score(mine)}",
                        inline=False)
    elif mine is None:
        embed.add_field(name=L(t("Your place")), value=L(t("You have not played this season.")), inline=False)
    embed.set_footer(text=L(t("Low is good in push-ups.") if pushups else t("Points always sum to zero."))
                     + " " + L(LEDGER_VS_TOP))
    return embed


LEDGER_VS_TOP = t("The ledger is this season's standings in the server's scoring mode, with hands and wins; "
                  "/tonk top ranks the same points (category net) or any other figure, in any season.")


def history_embed(hands, *, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    lines = []
    for h in hands:
        who = lang.series([f"{name} {signed(p)}" for name, p in zip(h.players, h.payments)]) \
            if lang is not ENGLISH else ", ".join(f"{name} {signed(p)}" for name, p in zip(h.players, h.payments))
        kind = OUTCOME_WORDS.get(h.outcome, h.outcome)  # type: ignore[call-overload]  # StrEnum keys
        kind = L(kind) if isinstance(kind, Text) else str(kind)
        lines.append(f"`{h.hand_id}` {discord.utils.format_dt(h.finished_at, 'R')} · {kind} · {who}")
    embed = discord.Embed(title=L(t("Recent hands")), description="\n".join(lines)[:4096], colour=COLOUR_LOBBY)
    embed.set_footer(text=L(t("Each player's points from the hand. /tonk history hand:<id> downloads a hand's record.")))
    return embed


def close_question(table_id: int, hand_number: int, question: str) -> dict[str, Any]:
    """The ephemeral "are you sure" of closing a table that others are playing or waiting at."""
    return {"content": f"**Close table {table_id}?** {question}",
            "view": view_of(button(table_id, Verb.CLOSE, "Close the table", style=discord.ButtonStyle.danger,
                                   version=hand_number),
                            ask_button("keep", "Keep it open"))}


def settings_embed(settings, notes: list, *, lang: Lang = ENGLISH) -> discord.Embed:
    L = lang.render
    rules = Rules.from_dict(settings.rules)
    where = ", ".join(f"<#{c}>" for c in settings.table_channel_ids or []) or L(t("every channel"))
    embed = discord.Embed(title=L(t("Tonk settings for this server")), colour=COLOUR_LOBBY,
                          description="\n".join(_word(lang, note) for note in notes) or None)
    embed.add_field(name=L(t("House rules")), value=L(rules_label(rules))[:1024], inline=True)
    embed.add_field(name=L(t("Stake")), value=lang.number(settings.stake), inline=True)
    scoring = L(t("push-ups")) if settings.scoring_mode == "pushups" else L(t("stakes"))
    embed.add_field(name=L(t("Scoring")), value=scoring, inline=True)
    embed.add_field(name=L(t("Turn timer")), value=L(tn("{n} second", "{n} seconds", settings.turn_timer_seconds)),
                    inline=True)
    embed.add_field(name=L(t("Pictures")), value=L(t("on")) if settings.pictures else L(t("off (text only)")),
                    inline=True)
    embed.add_field(name=L(t("Tables allowed in")), value=where, inline=False)
    return embed


def card_words(card: Card, lang: Lang = ENGLISH) -> str:
    """One card in words in the reader's language (`ace of spades`, `As de picas`)."""
    return card.name if lang is ENGLISH else lang.value(card)


def count_cards(n: int, lang: Lang = ENGLISH) -> str:
    return lang.render(tn("{n} card", "{n} cards", n))


def points_words(n: int | float, lang: Lang = ENGLISH, *, sign: bool = False) -> str:
    """`1 point`, `-1 point`, `+2 points`, `+1.5 points`: the ledger's word in stakes scoring."""
    n = round(n, 6)  # sums of shares carry float noise
    whole = float(n).is_integer()
    number = lang.number(int(n) if whole else round(n, 1))
    if sign and n > 0:
        number = "+" + number
    return lang.render(tn("{n} point", "{n} points", abs(int(n)) if whole else 2, n=number))


def pushups_words(n: int, lang: Lang = ENGLISH) -> str:
    return lang.render(tn("{n} push-up", "{n} push-ups", n))


SUIT_TEXT = {Suit.CLUBS: tc("suit", "clubs"), Suit.DIAMONDS: tc("suit", "diamonds"),
             Suit.HEARTS: tc("suit", "hearts"), Suit.SPADES: tc("suit", "spades")}
