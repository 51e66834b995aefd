"""How the table, the lobby, a private hand and the ledger look in Discord.

Pure functions from a `TableView` (and engine values) to embeds and component views;
the engine decides what is legal, this module only shows it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import TableView, action_arg
from engine import Discard, Hit, Rules, Spread, sorted_hand
from engine.view import PublicEvent

from cogs.components import button, menu, view_of

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.green()
COLOUR_OVER = discord.Colour.gold()
COLOUR_CLOSED = discord.Colour.dark_grey()
LAST_PLAYS = 6

OUTCOME_WORDS = {
    "instant": "Tonk on the deal",
    "void": "Void hand (two tonks on the deal)",
    "tonk_out": "Tonk out",
    "run_out": "Run out",
    "drop_won": "Drop won",
    "caught": "Caught!",
    "stock_out": "Stock out",
    "draw": "Draw",
}


def cards_text(cards) -> str:
    return " ".join(c.label for c in cards) if cards else "—"


def seat_name(view: TableView, seat: int) -> str:
    return view.seats[seat]["name"]


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _footer(view: TableView, rules: Rules) -> str:
    scoring = "push-ups" if view.table.scoring_mode == "pushups" else f"stake {view.table.stake}"
    return f"table {view.id} · {rules.closest_preset()} · {scoring}"


# ---------------------------------------------------------------------------- lobby

def lobby_message(view: TableView) -> dict[str, Any]:
    rules = view.rules
    if view.table.status == "closed":
        return closed_message(view)
    capacity = min(6, rules.max_players())
    lines = []
    for i, seat in enumerate(view.seats):
        host = " (host)" if seat["kind"] == "human" and seat["user_id"] == view.table.host_user_id else ""
        who = f"<@{seat['user_id']}>" if seat["kind"] == "human" else f"🤖 {seat['name']}"
        lines.append(f"{i + 1}. {who}{host}")
    embed = discord.Embed(
        title="Tonk table: waiting for players",
        description=f"Seats {len(view.seats)}/{capacity}. Join, add computer players, then the host starts.",
        colour=COLOUR_LOBBY,
    )
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    embed.add_field(name="House rules", value="\n".join(f"• {line}" for line in rules.describe())[:1024], inline=False)
    embed.set_footer(text=_footer(view, rules))
    t = view.id
    components = view_of(
        button(t, "join", "Join", style=discord.ButtonStyle.primary, row=0),
        button(t, "leave", "Leave", row=0),
        button(t, "start", "Start", style=discord.ButtonStyle.success, row=0),
        button(t, "cancel", "Cancel", style=discord.ButtonStyle.danger, row=0),
        menu(t, "cpu", "Add a computer player…", [
            discord.SelectOption(label="Easy computer player", value="easy"),
            discord.SelectOption(label="Normal computer player", value="normal"),
            discord.SelectOption(label="Hard computer player", value="hard"),
        ], row=1),
    )
    return {"content": None, "embed": embed, "view": components}


def closed_message(view: TableView) -> dict[str, Any]:
    reason = view.book.get("closed_reason", "This table is closed.")
    embed = discord.Embed(title="Tonk table closed", description=reason, colour=COLOUR_CLOSED)
    totals = view.book.get("totals")
    if totals and view.table.hand_number:
        lines = [f"{seat_name(view, i)}: {signed(v)}" for i, v in enumerate(totals) if i < len(view.seats)]
        embed.add_field(name=f"After {view.table.hand_number} hand(s)", value="\n".join(lines) or "—")
    embed.set_footer(text=f"table {view.id}")
    return {"content": None, "embed": embed, "view": None}


# ---------------------------------------------------------------------------- the table

def describe_event(view: TableView, event: PublicEvent) -> str:
    who = seat_name(view, event.seat)
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


def table_message(view: TableView) -> dict[str, Any]:
    if view.table.status == "closed":
        return closed_message(view)
    if view.table.status == "lobby" or view.game is None:
        return lobby_message(view)
    game = view.game
    rules = view.rules
    public = game.view(game.turn)  # only public parts of it are shown below
    away = set(view.book.get("away", []))
    totals = view.book.get("totals", [])
    pushups = view.book.get("pushup_totals", [])
    over = game.over
    lines = []
    for i, seat in enumerate(view.seats):
        marker = "▶ " if (not over and i == game.turn) else ""
        bits = [f"{len(game.hands[i])} cards"]
        if i == game.dealer:
            bits.append("dealer")
        if rules.waiting and game.waits[i]:
            bits.append(f"waiting {game.waits[i]}")
        if i in away:
            bits.append("away: computer plays")
        if seat["kind"] == "computer":
            bits.append("computer")
        score = pushups[i] if view.table.scoring_mode == "pushups" else (totals[i] if i < len(totals) else 0)
        score_text = f"{score} push-ups" if view.table.scoring_mode == "pushups" else f"{signed(score)} pts"
        lines.append(f"{marker}**{seat['name']}** · {' · '.join(bits)} · {score_text}")
    if over:
        title = f"Tonk · hand {view.table.hand_number} · {OUTCOME_WORDS[game.outcome.kind]}"
        colour = COLOUR_OVER
        description = showdown_text(view)
    else:
        title = f"Tonk · hand {view.table.hand_number}"
        colour = COLOUR_PLAY
        step = "may drop, draw or take the discard" if game.phase == "start" else "spreads, hits, then discards"
        description = f"**{seat_name(view, game.turn)}** to play: {step}."
    embed = discord.Embed(title=title, description=description[:4096], colour=colour)
    embed.add_field(name="Seats", value="\n".join(lines)[:1024], inline=False)
    if over:
        for i in range(len(view.seats)):
            out = game.outcome
            money = (f"{out.pushups[i]} push-ups" if view.table.scoring_mode == "pushups"
                     else f"{signed(out.payments[i])} points")
            embed.add_field(
                name=f"{seat_name(view, i)}: count {out.counts[i]}",
                value=f"{cards_text(sorted_hand(game.hands[i]))}\n{money}"[:1024], inline=True,
            )
    top = game.discard_top
    embed.add_field(name="Discard", value=top.label if top else "empty", inline=True)
    embed.add_field(name="Stock", value=f"{len(game.stock)} cards", inline=True)
    add_spreads_field(embed, view)
    plays = [describe_event(view, e) for e in public.history[-LAST_PLAYS:]]
    if view.book.get("cuts") and view.table.hand_number == 1 and len(plays) < LAST_PLAYS:
        plays.insert(0, view.book["cuts"])
    if plays:
        embed.add_field(name="Last plays", value=_fit_lines(plays), inline=False)
    embed.set_footer(text=_footer(view, rules))
    t = view.id
    if over:
        items = [
            button(t, "next", "Next hand", style=discord.ButtonStyle.success, row=0),
            button(t, "leave", "Leave", row=0),
        ]
    else:
        items = [button(t, "hand", "My hand", style=discord.ButtonStyle.primary, row=0)]
    if away:
        items.append(button(t, "back", "I'm back", row=0))
    return {"content": None, "embed": embed, "view": view_of(*items)}


def add_spreads_field(embed: discord.Embed, view: TableView) -> None:
    """Every spread on the table, numbered as hits name them, with its owner."""
    game = view.game
    if game is not None and game.spreads:
        spreads = [f"{n + 1}. {seat_name(view, s.owner)}: {cards_text(s.cards)}" for n, s in enumerate(game.spreads)]
        embed.add_field(name="Spreads", value=_fit_lines(spreads), inline=False)


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


def showdown_text(view: TableView) -> str:
    game = view.game
    assert game is not None and game.outcome is not None
    out = game.outcome
    names = [s["name"] for s in view.seats]
    winners = ", ".join(names[w] for w in out.winners)
    kind = out.kind
    if kind == "instant":
        text = f"{winners} won on the deal."
    elif kind == "void":
        text = "Two or more tonks on the deal: the hand is void, nobody pays."
    elif kind == "tonk_out":
        text = f"{winners} tonked out (no cards left)."
    elif kind == "run_out":
        text = f"{winners} ran out of cards."
    elif kind == "drop_won":
        text = f"{names[out.dropper]} dropped with {out.counts[out.dropper]} and won."
    elif kind == "caught":
        text = f"{names[out.dropper]} dropped with {out.counts[out.dropper]} and was caught by {winners}."
    elif kind == "stock_out":
        text = f"The stock ran out: {winners} has the lowest count."
    else:
        text = "No winner: nobody pays."
    return text + " Next hand when you are ready."


# ---------------------------------------------------------------------------- a private hand

def hand_message(view: TableView, seat: int, note: str | None = None) -> dict[str, Any]:
    """The ephemeral message with one player's cards and the plays legal right now."""
    game = view.game
    assert game is not None
    version = view.table.version
    t = view.id
    hand = sorted_hand(game.hands[seat])
    count = sum(c.value for c in hand)
    embed = discord.Embed(title="Your hand", description=f"# {cards_text(hand)}\nCount **{count}**",
                          colour=COLOUR_PLAY)
    top = game.discard_top
    embed.add_field(name="Discard", value=top.label if top else "empty", inline=True)
    embed.add_field(name="Stock", value=f"{len(game.stock)} cards", inline=True)
    add_spreads_field(embed, view)
    legal = game.legal_actions(seat) if view.table.status == "playing" else []
    away = seat in view.book.get("away", [])
    if game.over:
        status = "This hand is over: see the table for the showdown."
    elif away:
        status = "A computer player is playing your seat: press I'm back on the table."
        legal = []
    elif game.turn != seat:
        status = f"Not your turn: **{seat_name(view, game.turn)}** is playing."
    elif game.phase == "start":
        status = "Your turn: drop, draw from the stock, or take the discard."
        if game.rules.waiting and game.drop_blocked:
            status += " (You are waiting: no drop this turn.)"
    else:
        status = "Spread or hit if you like, then discard to end your turn."
    if note:
        status = f"{note}\n{status}"
    embed.add_field(name="Now", value=status[:1024], inline=False)
    embed.set_footer(text=f"table {t} · hand {view.table.hand_number} · only you can see this")
    items: list[discord.ui.Item[Any]] = []
    verbs = {a.verb for a in legal}
    if "draw" in verbs:
        items.append(button(t, "draw", "Draw", style=discord.ButtonStyle.primary, version=version, row=0))
    if "take" in verbs:
        items.append(button(t, "take", f"Take {top.label}", style=discord.ButtonStyle.primary,  # type: ignore[union-attr]
                            version=version, row=0))
    if "drop" in verbs:
        items.append(button(t, "drop", f"Drop ({count})", style=discord.ButtonStyle.danger, version=version, row=0))
    items.append(button(t, "refresh", "Refresh", version=version, row=0))
    spreads = [a for a in legal if isinstance(a, Spread)]
    if spreads:
        items.append(menu(t, "spread", "Lay a spread…", [
            discord.SelectOption(label=cards_text(a.cards), value=action_arg(a))
            for a in spreads
        ], version=version, row=1))
    hits = [a for a in legal if isinstance(a, Hit)]
    if hits:
        items.append(menu(t, "hit", "Hit a spread…", [
            discord.SelectOption(
                label=f"{a.card.label} on spread {a.spread + 1} ({seat_name(view, game.spreads[a.spread].owner)})",
                value=action_arg(a),
            ) for a in hits
        ], version=version, row=2))
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        items.append(menu(t, "discard", "Discard…", [
            discord.SelectOption(label=a.card.label, value=action_arg(a)) for a in discards
        ], version=version, row=3))
    return {"embed": embed, "view": view_of(*items)}


# ---------------------------------------------------------------------------- commands

def rules_embed(rules: Rules, title: str) -> discord.Embed:
    embed = discord.Embed(title=title, colour=COLOUR_LOBBY,
                          description="\n".join(f"• {line}" for line in rules.describe()))
    embed.set_footer(text="Cards: A = 1, 2–10 face value, J Q K = 10. Low count is good.")
    return embed


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
