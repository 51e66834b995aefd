"""How the table, the lobby, a private hand and the ledger look in Discord.

Pure functions to embeds and component views. The channel's table message is built from
the table's `PublicTable` (what everyone may see), a private hand from the engine's
`SeatView` of that seat: no renderer is ever handed a full hand of cards, so none can
leak one. The engine decides what is legal; this module only shows it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import action_arg
from bot.table import OutcomeKind, PublicTable, Scoring, SeatKind, Status
from engine import Discard, Hit, Rules, SeatView, Spread, sorted_hand
from engine.view import PublicEvent, PublicSpread

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


def table_message(table: PublicTable) -> dict[str, Any]:
    """The channel's message for a table, whatever its state, from what everyone may see."""
    if table.status is Status.CLOSED:
        return closed_message(table)
    if table.status is Status.LOBBY:
        return lobby_message(table)
    return play_message(table)


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
        ], row=1),
    )
    return {"content": None, "embed": embed, "view": components}


def closed_message(table: PublicTable) -> dict[str, Any]:
    embed = discord.Embed(title="Tonk table closed", description=table.closed_reason or "This table is closed.",
                          colour=COLOUR_CLOSED)
    if table.hand_number and table.seats:
        lines = [f"{s.name}: {signed(s.total)}" for s in table.seats]
        embed.add_field(name=f"After {table.hand_number} hand(s)", value="\n".join(lines))
    embed.set_footer(text=f"table {table.id}")
    return {"content": None, "embed": embed, "view": None}


# ---------------------------------------------------------------------------- the table

def describe_event(names, event: PublicEvent) -> str:
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
    if table.scoring is Scoring.PUSHUPS:
        return f"{pushups} push-ups"
    return f"{signed(total)} {unit}"


def play_message(table: PublicTable) -> dict[str, Any]:
    """A hand in play, its showdown, or the table between hands (after someone left)."""
    out = table.outcome
    dealt = table.phase is not None
    lines = []
    for seat in table.seats:
        marker = "▶ " if seat.is_turn else ""
        bits = [f"{seat.cards} cards"] if seat.cards is not None else []
        if seat.is_dealer:
            bits.append("dealer")
        if seat.waiting:
            bits.append(f"waiting {seat.waiting}")
        if seat.away:
            bits.append("away: computer plays")
        if seat.kind is SeatKind.COMPUTER:
            bits.append("computer")
        bits.append(_score_text(table, seat.total, seat.pushups, unit="pts"))
        lines.append(f"{marker}**{seat.name}** · {' · '.join(bits)}")
    over = table.status is Status.BETWEEN_HANDS
    if out is not None:
        title = f"Tonk · hand {table.hand_number} · {OUTCOME_WORDS[OutcomeKind(out.kind)]}"
        colour, description = COLOUR_OVER, showdown_text(table)
    elif over:
        title = f"Tonk · hand {table.hand_number} · over"
        colour, description = COLOUR_OVER, "The seats changed since the last hand. Next hand when you are ready."
    else:
        title = f"Tonk · hand {table.hand_number}"
        colour = COLOUR_PLAY
        step = "may drop, draw or take the discard" if table.phase == "start" else "spreads, hits, then discards"
        description = f"**{table.names[table.turn]}** to play: {step}."  # type: ignore[index]
    embed = discord.Embed(title=title, description=description[:4096], colour=colour)
    embed.add_field(name="Seats", value="\n".join(lines)[:1024], inline=False)
    if out is not None:
        for i, seat in enumerate(table.seats):
            money = _score_text(table, out.payments[i], out.pushups[i], unit="points")
            embed.add_field(name=f"{seat.name}: count {out.counts[i]}",
                            value=f"{cards_text(sorted_hand(seat.showdown or ()))}\n{money}"[:1024], inline=True)
    if dealt:
        embed.add_field(name="Discard", value=table.discard_top.label if table.discard_top else "empty", inline=True)
        embed.add_field(name="Stock", value=f"{table.stock_size} cards", inline=True)
        add_spreads_field(embed, table.spreads, table.names)
        plays = [describe_event(table.names, e) for e in table.history[-LAST_PLAYS:]]
        if table.cuts and len(plays) < LAST_PLAYS:
            plays.insert(0, table.cuts)
        if plays:
            embed.add_field(name="Last plays", value=_fit_lines(plays), inline=False)
    embed.set_footer(text=_footer(table))
    t = table.id
    if over:
        items = [button(t, Verb.NEXT, "Next hand", style=discord.ButtonStyle.success, row=0),
                 button(t, Verb.LEAVE, "Leave", row=0)]
    else:
        items = [button(t, Verb.HAND, "My hand", style=discord.ButtonStyle.primary, row=0)]
    if table.anyone_away:
        items.append(button(t, Verb.BACK, "I'm back", row=0))
    return {"content": None, "embed": embed, "view": view_of(*items)}


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


def showdown_text(table: PublicTable) -> str:
    out = table.outcome
    assert out is not None
    names = table.names
    dropper = names[out.dropper] if out.dropper is not None else ""
    count = out.counts[out.dropper] if out.dropper is not None else 0
    text = SHOWDOWN[OutcomeKind(out.kind)].format(
        winners=", ".join(names[w] for w in out.winners), dropper=dropper, count=count)
    return text + " Next hand when you are ready."


# ---------------------------------------------------------------------------- a private hand

def hand_message(view: SeatView, *, table_id: int, hand_number: int, moves: int, away: bool = False,
                 note: str | None = None, hint: str | None = None) -> dict[str, Any]:
    """The ephemeral message with one player's cards and the plays legal right now, built only
    from what that seat may see (the engine's `SeatView`). `hint`: the service's line for a
    player's first hand, if this is it."""
    t = table_id
    hand = sorted_hand(view.hand)
    embed = discord.Embed(title="Your hand", description=f"# {cards_text(hand)}\nCount **{view.count}**",
                          colour=COLOUR_PLAY)
    top = view.discard_top
    embed.add_field(name="Discard", value=top.label if top else "empty", inline=True)
    embed.add_field(name="Stock", value=f"{view.stock_size} cards", inline=True)
    add_spreads_field(embed, view.spreads, view.players)
    legal = list(view.legal_actions)
    if view.outcome is not None:
        status = "This hand is over: see the table for the showdown."
    elif away:
        status = "A computer player is playing your seat: press I'm back on the table."
        legal = []
    elif not view.my_turn:
        status = f"Not your turn: **{view.players[view.turn]}** is playing."
    elif view.phase == "start":
        status = "Your turn: drop, draw from the stock, or take the discard."
        if view.rules.waiting and view.drop_blocked:
            status += " (You are waiting: no drop this turn.)"
    else:
        status = "Spread or hit if you like, then discard to end your turn."
    if note:
        status = f"{note}\n{status}"
    embed.add_field(name="Now", value=status[:1024], inline=False)
    if hint:
        embed.add_field(name="New to Tonk?", value=f"{hint} /tonk help teaches the rest."[:1024], inline=False)
    embed.set_footer(text=f"table {t} · hand {hand_number} · only you can see this")
    items: list[discord.ui.Item[Any]] = []
    verbs = {a.verb for a in legal}
    if "draw" in verbs:
        items.append(button(t, Verb.DRAW, "Draw", style=discord.ButtonStyle.primary, version=moves, row=0))
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
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        items.append(menu(t, Verb.DISCARD, "Discard…", [
            discord.SelectOption(label=a.card.label, value=action_arg(a)) for a in discards
        ], version=moves, row=3))
    return {"embed": embed, "view": view_of(*items)}


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
        lines.append(f"**{row.rank}.** {row.display_name}: {score} · {row.hands} hands, {row.wins} wins")
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
