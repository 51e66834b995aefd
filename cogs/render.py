"""How the table, the lobby, a private hand and the ledger look in Discord.

Pure functions to embeds and component views. The channel's table message is built from
the table's `PublicTable` (what everyone may see), a private hand from the engine's
`SeatView` of that seat: no renderer is ever handed a full hand of cards, so none can
leak one. The engine decides what is legal; this module only shows it.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.service import action_arg
from bot.table import OutcomeKind, PublicTable, Scoring, SeatKind, Status
from engine import Card, Discard, Hit, Rules, SeatView, Spread, sorted_hand
from engine.help import plural
from engine.view import PublicEvent, PublicSpread

from cogs import pictures
from cogs.components import RulesHereButton, Verb, button, menu, view_of

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.green()
COLOUR_OVER = discord.Colour.gold()
COLOUR_CLOSED = discord.Colour.dark_grey()
LAST_PLAYS = 6

OUTCOME_WORDS = {
    OutcomeKind.INSTANT: "Tonk on the deal",
    OutcomeKind.VOID: "Void hand (two tonks on the deal)",
    OutcomeKind.TONK_OUT: "Tonk out",
    OutcomeKind.RUN_OUT: "Run out",
    OutcomeKind.DROP_WON: "Drop won",
    OutcomeKind.CAUGHT: "Caught!",
    OutcomeKind.STOCK_OUT: "Stock out",
    OutcomeKind.DRAW: "Draw",
}


def cards_text(cards) -> str:
    return " ".join(c.label for c in cards) if cards else "—"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _footer(table: PublicTable) -> str:
    scoring = "push-ups" if table.scoring is Scoring.PUSHUPS else f"stake {table.stake}"
    return f"table {table.id} · {table.rules.closest_preset()} · {scoring}"


def table_message(table: PublicTable, *, deadline: float | None = None, picture: bool = False) -> dict[str, Any]:
    """The channel's message for a table, whatever its state, from what everyone may see.
    `deadline` (a Unix time) is when the turn in play runs out; `picture` adds a PNG of the table."""
    if table.status is Status.CLOSED:
        return closed_message(table)
    if table.status is Status.LOBBY:
        return lobby_message(table)
    return play_message(table, deadline=deadline, picture=picture)


def relative_time(when: float) -> str:
    """Discord's relative timestamp ("in 40 seconds"), shown in each reader's own clock."""
    return f"<t:{int(when)}:R>"


def attach(message: dict[str, Any], name: str, picture: pictures.Picture | None) -> dict[str, Any]:
    """Put `picture` on the message as an attachment shown in its embed (or take any old one off).
    The text stays: menus, screen readers and notifications read it."""
    if picture is None:
        message["attachments"] = []
        return message
    message["attachments"] = [discord.File(io.BytesIO(picture.png), filename=name)]
    message["embed"].set_image(url=f"attachment://{name}")
    return message


def as_new(message: dict[str, Any]) -> dict[str, Any]:
    """An edit's keywords as those of a new message (`send` takes files, not attachments)."""
    out = dict(message)
    files = out.pop("attachments", None)
    if files:
        out["files"] = files
    return out


def table_picture(table: PublicTable) -> pictures.TablePicture:
    """The table's picture from what everyone may see (a hand only at the showdown)."""
    out = table.outcome
    seats = tuple(
        pictures.SeatPicture(
            name=seat.name, cards_in_hand=seat.cards or 0,
            total=seat.pushups if table.scoring is Scoring.PUSHUPS else seat.total,
            is_turn=seat.is_turn, is_away=seat.away, is_dealer=seat.is_dealer,
            note=("dropped" if out is not None and out.dropper == i else
                  f"waiting {seat.waiting}" if seat.waiting and out is None else ""),
            shown=seat.showdown, count=out.counts[i] if out is not None else None,
            is_winner=out is not None and i in out.winners,
        ) for i, seat in enumerate(table.seats))
    spreads = tuple(pictures.SpreadPicture(table.names[s.owner], tuple(s.cards)) for s in table.spreads)
    return pictures.TablePicture(seats, spreads, table.discard_top, table.stock_size,
                                 f"Hand {table.hand_number}")


# ---------------------------------------------------------------------------- lobby

def lobby_message(table: PublicTable) -> dict[str, Any]:
    lines = []
    for i, seat in enumerate(table.seats):
        host = " (host)" if seat.is_host else ""
        who = f"<@{seat.user_id}>" if seat.kind is SeatKind.HUMAN else f"🤖 {seat.name}"
        lines.append(f"{i + 1}. {who}{host}")
    embed = discord.Embed(
        title="Tonk table: waiting for players",
        description=f"Seats {len(table.seats)}/{table.capacity}. Join, add computer players, then the host starts.",
        colour=COLOUR_LOBBY,
    )
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    embed.add_field(name="House rules", value="\n".join(f"• {line}" for line in table.rules.describe())[:1024],
                    inline=False)
    embed.set_footer(text=_footer(table))
    t = table.id
    components = view_of(
        button(t, Verb.JOIN, "Join", style=discord.ButtonStyle.primary, row=0),
        button(t, Verb.LEAVE, "Leave", row=0),
        button(t, Verb.START, "Start", style=discord.ButtonStyle.success, row=0),
        button(t, Verb.CANCEL, "Cancel", style=discord.ButtonStyle.danger, row=0),
        menu(t, Verb.CPU, "Add a computer player…", [
            discord.SelectOption(label="Easy computer player", value="easy"),
            discord.SelectOption(label="Normal computer player", value="normal"),
            discord.SelectOption(label="Hard computer player", value="hard"),
            discord.SelectOption(label="Expert computer player", value="expert",
                                 description="Searches ahead; thinks a moment longer"),
        ], row=1),
    )
    return {"content": None, "embed": embed, "view": components}


def closed_message(table: PublicTable) -> dict[str, Any]:
    embed = discord.Embed(title="Tonk table closed", description=table.closed_reason or "This table is closed.",
                          colour=COLOUR_CLOSED)
    if table.hand_number and table.seats:
        lines = [f"{s.name}: {signed(s.total)}" for s in table.seats]
        embed.add_field(name=f"After {plural(table.hand_number, 'hand')}", value="\n".join(lines))
    embed.set_footer(text=f"table {table.id}")
    return {"content": None, "embed": embed, "view": None}


# ---------------------------------------------------------------------------- the table

def describe_event(names, event: PublicEvent, *, by_timer: bool = False) -> str:
    text = _event_text(names, event)
    return f"⏰ {text} (time ran out: the bot played)" if by_timer else text


def _event_text(names, event: PublicEvent) -> str:
    who = names[event.seat]
    action = event.action
    verb = action.verb
    if verb == "draw":
        return f"{who} drew from the stock"
    if verb == "take":
        return f"{who} took {event.card.label if event.card else 'the discard'}"
    if verb == "spread":
        return f"{who} spread {cards_text(action.cards)}"  # type: ignore[union-attr]
    if verb == "hit":
        return f"{who} hit {action.card.label} on spread {action.spread + 1}"  # type: ignore[union-attr]
    if verb == "discard":
        return f"{who} discarded {action.card.label}"  # type: ignore[union-attr]
    return f"{who} dropped"


def _score_text(table: PublicTable, total: int, pushups: int, *, unit: str) -> str:
    """`+2 points`, `-1 point`, `1 push-up` (`unit` is singular)."""
    if table.scoring is Scoring.PUSHUPS:
        return plural(pushups, "push-up")
    return f"{signed(total)} {unit if abs(total) == 1 else unit + 's'}"


def play_message(table: PublicTable, *, deadline: float | None = None, picture: bool = False) -> dict[str, Any]:
    """A hand in play, its showdown, or the table between hands (after someone left or joined)."""
    out = table.outcome
    dealt = table.phase is not None
    lines = []
    for seat in table.seats:
        marker = "▶ " if seat.is_turn else ""
        bits = [plural(seat.cards, "card")] if seat.cards is not None else []
        if seat.is_dealer:
            bits.append("dealer")
        if seat.waiting:
            bits.append(f"waiting {seat.waiting}")
        if seat.away:
            bits.append("away: computer plays")
        if seat.kind is SeatKind.COMPUTER:
            bits.append("computer")
        bits.append(_score_text(table, seat.total, seat.pushups, unit="pt"))
        lines.append(f"{marker}**{seat.name}** · {' · '.join(bits)}")
    over = table.status is Status.BETWEEN_HANDS
    if out is not None:
        title = f"Tonk · hand {table.hand_number} · {OUTCOME_WORDS[OutcomeKind(out.kind)]}"
        colour, description = COLOUR_OVER, showdown_text(table)
    elif over:
        title = f"Tonk · hand {table.hand_number} · over"
        colour, description = COLOUR_OVER, ("The seats changed since the last hand. Next hand when you are ready; "
                                            "newcomers join at the dealer's right.")
    else:
        title = f"Tonk · hand {table.hand_number}"
        colour = COLOUR_PLAY
        step = "may drop, draw or take the discard" if table.phase == "start" else "spreads, hits, then discards"
        description = f"**{table.names[table.turn]}** to play: {step}."  # type: ignore[index]
        if deadline is not None:
            description += f" Time runs out {relative_time(deadline)}."
    embed = discord.Embed(title=title, description=description[:4096], colour=colour)
    embed.add_field(name="Seats", value="\n".join(lines)[:1024], inline=False)
    if out is not None:
        for i, seat in enumerate(table.seats):
            money = _score_text(table, out.payments[i], out.pushups[i], unit="point")
            embed.add_field(name=f"{seat.name}: count {out.counts[i]}",
                            value=f"{cards_text(sorted_hand(seat.showdown or ()))}\n{money}"[:1024], inline=True)
    if dealt:
        embed.add_field(name="Discard", value=table.discard_top.label if table.discard_top else "empty", inline=True)
        embed.add_field(name="Stock", value=plural(table.stock_size, "card"), inline=True)
        add_spreads_field(embed, table.spreads, table.names)
        start = max(0, len(table.history) - LAST_PLAYS)
        plays = [describe_event(table.names, e, by_timer=start + i in table.timer_plays)
                 for i, e in enumerate(table.history[start:])]
        if table.cuts and len(plays) < LAST_PLAYS:
            plays.insert(0, table.cuts)
        if plays:
            embed.add_field(name="Last plays", value=_fit_lines(plays), inline=False)
    embed.set_footer(text=_footer(table))
    t = table.id
    if over:
        items = [button(t, Verb.NEXT, "Next hand", style=discord.ButtonStyle.success, row=0),
                 button(t, Verb.LEAVE, "Leave", row=0)]
        if len(table.seats) < table.capacity:
            items.insert(1, button(t, Verb.JOIN, "Join", style=discord.ButtonStyle.primary, row=0))
    else:
        items = [button(t, Verb.HAND, "My hand", style=discord.ButtonStyle.primary, row=0)]
    if table.anyone_away:
        items.append(button(t, Verb.BACK, "I'm back", row=0))
    message = {"content": None, "embed": embed, "view": view_of(*items)}
    shown = picture and dealt and table.seats and (out is not None or not over)
    return attach(message, "table.png", pictures.render_table(table_picture(table)) if shown else None)


def add_spreads_field(embed: discord.Embed, spreads: tuple[PublicSpread, ...], names) -> None:
    """Every spread on the table, numbered as hits name them, with its owner."""
    if spreads:
        lines = [f"{n + 1}. {names[s.owner]}: {cards_text(s.cards)}" for n, s in enumerate(spreads)]
        embed.add_field(name="Spreads", value=_fit_lines(lines), inline=False)


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
    OutcomeKind.INSTANT: "{winners} won on the deal.",
    OutcomeKind.VOID: "Two or more tonks on the deal: the hand is void, nobody pays.",
    OutcomeKind.TONK_OUT: "{winners} tonked out (no cards left).",
    OutcomeKind.RUN_OUT: "{winners} ran out of cards.",
    OutcomeKind.DROP_WON: "{dropper} dropped with {count} and won.",
    OutcomeKind.CAUGHT: "{dropper} dropped with {count} and was caught by {winners}.",
    OutcomeKind.STOCK_OUT: "The stock ran out: {winners} has the lowest count.",
    OutcomeKind.DRAW: "No winner: nobody pays.",
}
STOCK_TIE = "The stock ran out with {tied} tied for the lowest count ({count}): nobody pays."


def showdown_text(table: PublicTable) -> str:
    out = table.outcome
    assert out is not None
    names = table.names
    dropper = names[out.dropper] if out.dropper is not None else ""
    count = out.counts[out.dropper] if out.dropper is not None else 0
    text = SHOWDOWN[OutcomeKind(out.kind)].format(
        winners=", ".join(names[w] for w in out.winners), dropper=dropper, count=count)
    if out.kind == OutcomeKind.DRAW and table.stock_size == 0 and out.counts:
        low = min(out.counts)
        tied = [names[i] for i, c in enumerate(out.counts) if c == low]
        if table.rules.stock_out == "dead_hand":
            text = "The stock ran out: a dead hand, nobody pays."
        elif len(tied) > 1:
            text = STOCK_TIE.format(tied=either(tied), count=low)
    return text + " Next hand when you are ready."


def either(names: list[str]) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob and Cy` (empty for nobody)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------------------- a private hand

def hand_message(view: SeatView, *, table_id: int, hand_number: int, moves: int, away: bool = False,
                 note: str | None = None, drawn: Card | None = None, confirm_drop: bool = False,
                 deadline: float | None = None, picture: bool = False, hint: str | None = None) -> dict[str, Any]:
    """The ephemeral message with one player's cards and the plays legal right now, built only
    from what that seat may see (the engine's `SeatView`). `drawn` is the card this seat just
    drew (marked in the hand); `confirm_drop` asks before a drop; `deadline` ends the turn;
    `hint`: the service's line for a player's first hand, if this is it."""
    t = table_id
    hand = sorted_hand(view.hand)
    drawn = drawn if drawn in hand else None
    cards = " ".join(f"[{c.label}]" if c == drawn else c.label for c in hand) or "—"
    lines = [f"# {cards}", f"Count **{view.count}**"]
    if drawn is not None and view.my_turn:
        lines.append(f"You drew **{drawn.label}**.")
    embed = discord.Embed(title="Your hand", description="\n".join(lines), colour=COLOUR_PLAY)
    top = view.discard_top
    embed.add_field(name="Discard", value=top.label if top else "empty", inline=True)
    embed.add_field(name="Stock", value=plural(view.stock_size, "card"), inline=True)
    add_spreads_field(embed, view.spreads, view.players)
    legal = list(view.legal_actions)
    verbs = {a.verb for a in legal}
    stock_empty = "draw" in verbs and view.stock_size == 0 and not view.rules.can_reshuffle(view.discard_size)
    if view.outcome is not None:
        won = view.seat in view.outcome.winners
        who = "you" if won else either([view.players[w] for w in view.outcome.winners]) or "nobody"
        status = (f"This hand is over: {who} won; your count {view.outcome.counts[view.seat]}. "
                  f"See the table for the showdown. The next deal shows here.")
    elif away:
        status = "A computer player is playing your seat: press I'm back on the table."
        legal = []
    elif not view.my_turn:
        status = f"Not your turn: **{view.players[view.turn]}** is playing."
    elif confirm_drop and "drop" in verbs:
        status = (f"Drop with a count of **{view.count}**? If another player has {view.count} or less, "
                  f"you are caught and pay.")
    elif view.phase == "start":
        status = "Your turn: drop, draw from the stock, or take the discard."
        if view.rules.waiting and view.drop_blocked:
            status += " (You are waiting: no drop this turn.)"
    else:
        status = "Spread or hit if you like, then discard to end your turn."
    if stock_empty and view.my_turn and not away:
        status += "\nThe stock is empty: drawing ends the hand (the lowest count wins)."
    if deadline is not None and view.my_turn and not away:
        status += f"\nTime runs out {relative_time(deadline)}."
    if note:
        status = f"{note}\n{status}"
    embed.add_field(name="Now", value=status[:1024], inline=False)
    if hint:
        embed.add_field(name="New to Tonk?", value=f"{hint} /tonk help teaches the rest."[:1024], inline=False)
    embed.set_footer(text=f"table {t} · hand {hand_number} · only you can see this")
    items: list[discord.ui.Item[Any]] = []
    if confirm_drop and "drop" in verbs:
        items.append(button(t, Verb.DROP_CONFIRM, f"Drop with {view.count}", style=discord.ButtonStyle.danger,
                            version=moves, row=0))
        items.append(button(t, Verb.REFRESH, "Cancel", version=moves, row=0))
        return _with_hand_picture({"embed": embed, "view": view_of(*items)}, view, hand, drawn, picture)
    if "draw" in verbs:
        label = "Draw (ends the hand)" if stock_empty else "Draw"
        items.append(button(t, Verb.DRAW, label, style=discord.ButtonStyle.primary, version=moves, row=0))
    if "take" in verbs:
        items.append(button(t, Verb.TAKE, f"Take {top.label}", style=discord.ButtonStyle.primary,  # type: ignore[union-attr]
                            version=moves, row=0))
    if "drop" in verbs:
        items.append(button(t, Verb.DROP, f"Drop ({view.count})", style=discord.ButtonStyle.danger, version=moves,
                            row=0))
    items.append(button(t, Verb.REFRESH, "Refresh", version=moves, row=0))
    # Plays with wild cards name what each wild stands for, which these menus cannot carry
    # yet (issue 12's bot side): offering them would repeat a menu value, which Discord refuses.
    spreads = [a for a in legal if isinstance(a, Spread) and not a.wilds]
    if spreads:
        items.append(menu(t, Verb.SPREAD, "Lay a spread…", [
            discord.SelectOption(label=cards_text(a.cards), value=action_arg(a)) for a in spreads
        ], version=moves, row=1))
    hits = [a for a in legal if isinstance(a, Hit) and a.stands_for is None]
    if hits:
        items.append(menu(t, Verb.HIT, "Hit a spread…", [
            discord.SelectOption(
                label=f"{a.card.label} on spread {a.spread + 1} ({view.players[view.spreads[a.spread].owner]})",
                value=action_arg(a),
            ) for a in hits
        ], version=moves, row=2))
    place = {card: i for i, card in enumerate(hand)}
    discards = sorted((a for a in legal if isinstance(a, Discard)), key=lambda a: place.get(a.card, len(place)))
    if discards:
        items.append(menu(t, Verb.DISCARD, "Discard…", [
            discord.SelectOption(label=a.card.label, value=action_arg(a),
                                 description="just drawn" if a.card == drawn else None) for a in discards
        ], version=moves, row=3))
    return _with_hand_picture({"embed": embed, "view": view_of(*items)}, view, hand, drawn, picture)


def hand_between(table_id: int, hand_number: int) -> dict[str, Any]:
    """A private hand while the seats change between hands: the next deal shows here."""
    embed = discord.Embed(title="Your hand", colour=COLOUR_OVER,
                          description=f"Hand {hand_number} is over and the seats changed. The next deal shows here.")
    embed.set_footer(text=f"table {table_id} · only you can see this")
    return {"embed": embed, "view": None, "attachments": []}


def hand_closed(table_id: int, *, left: bool) -> dict[str, Any]:
    """The last look of a private hand: its player left, or the table closed."""
    text = "You left this table." if left else "This table is closed."
    embed = discord.Embed(title="Your hand", description=text, colour=COLOUR_CLOSED)
    embed.set_footer(text=f"table {table_id}")
    return {"embed": embed, "view": None, "attachments": []}


def _with_hand_picture(message: dict[str, Any], view: SeatView, hand: list[Card], drawn: Card | None,
                       picture: bool) -> dict[str, Any]:
    shown = pictures.render_hand(pictures.hand_picture_from_view(view, drawn=drawn, order=hand)) if picture else None
    return attach(message, "hand.png", shown)


# ---------------------------------------------------------------------------- commands

def rules_embed(rules: Rules, title: str) -> discord.Embed:
    embed = discord.Embed(title=title, colour=COLOUR_LOBBY,
                          description="\n".join(f"• {line}" for line in rules.describe()))
    embed.set_footer(text="Cards: A = 1, 2–10 face value, J Q K = 10. Low count is good.")
    return embed


def help_message(sections: list[tuple[str, str]], where: str) -> dict[str, Any]:
    """`/tonk help`: the lesson (engine/help.py's sections, one field each) and the button to
    the rules of the table in this channel."""
    embed = discord.Embed(title="Tonk in two minutes", colour=COLOUR_LOBBY,
                          description=f"{where}. Cards: A = 1, 2–10 face value, J Q K = 10; low count is good.")
    for heading, body in sections[:25]:
        embed.add_field(name=heading[:256], value=body[:1024], inline=False)
    embed.set_footer(text="/tonk new opens a table · /tonk rules explains a preset")
    return {"embed": embed, "view": view_of(RulesHereButton())}


def ledger_embed(rows, mine, *, mode: str, season: int, guild_name: str) -> discord.Embed:
    pushups = mode == "pushups"
    title = f"Tonk ledger · {guild_name} · season {season} · {'push-ups' if pushups else 'stakes'}"
    if not rows:
        return discord.Embed(title=title, description="No hands played yet this season.", colour=COLOUR_LOBBY)
    lines = []
    for row in rows:
        score = f"{row.pushups} push-ups" if pushups else signed(row.balance)
        lines.append(f"**{row.rank}.** {row.display_name}: {score} · {plural(row.hands, 'hand')}, "
                     f"{plural(row.wins, 'win')}")
    embed = discord.Embed(title=title, description="\n".join(lines)[:4096], colour=COLOUR_LOBBY)
    if mine is not None and all(r.account != mine.account for r in rows):
        score = f"{mine.pushups} push-ups" if pushups else signed(mine.balance)
        embed.add_field(name="Your place", value=f"**{mine.rank}.** {mine.display_name}: {score}", inline=False)
    elif mine is None:
        embed.add_field(name="Your place", value="You have not played this season.", inline=False)
    embed.set_footer(text="Low is good in push-ups." if pushups else "Stakes always sum to zero.")
    return embed


def history_embed(hands) -> discord.Embed:
    lines = []
    for h in hands:
        who = ", ".join(f"{name} {signed(p)}" for name, p in zip(h.players, h.payments))
        kind = OUTCOME_WORDS.get(h.outcome, h.outcome)  # type: ignore[call-overload]  # StrEnum keys
        lines.append(f"`{h.hand_id}` {discord.utils.format_dt(h.finished_at, 'R')} · {kind} · {who}")
    embed = discord.Embed(title="Recent hands", description="\n".join(lines)[:4096], colour=COLOUR_LOBBY)
    embed.set_footer(text="/tonk history hand:<id> downloads a hand's record.")
    return embed


def settings_embed(settings, notes: list[str]) -> discord.Embed:
    rules = Rules.from_dict(settings.rules)
    where = ", ".join(f"<#{c}>" for c in settings.table_channel_ids or []) or "every channel"
    embed = discord.Embed(title="Tonk settings for this server", colour=COLOUR_LOBBY,
                          description="\n".join(notes) or None)
    embed.add_field(name="House rules", value=rules.closest_preset(), inline=True)
    embed.add_field(name="Stake", value=str(settings.stake), inline=True)
    embed.add_field(name="Scoring", value=settings.scoring_mode, inline=True)
    embed.add_field(name="Turn timer", value=f"{settings.turn_timer_seconds} s", inline=True)
    embed.add_field(name="Pictures", value="on" if settings.pictures else "off (text only)", inline=True)
    embed.add_field(name="Tables allowed in", value=where, inline=False)
    return embed
