"""One unit, one word, and plurals right: every text the bot renders for a generated set of
tables, hands, rules, help, stats, ledgers and settings says `1 point`, `2 points`, `1 push-up`,
never `1 points`, `2 point`, `pts`, `(s)`, nor calls the ledger's points "stakes"."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from bot.stats import PlayerReport, SeasonLabel, ServerReport, TopReport
from bot.store import GuildSettings, HandSummary, Leaderboard, OpponentNet, PlayerStats, ServerStats, Standing, Tally
from bot.store.stats import TopEntry
from bot.table import Level, Scoring, Table
from cogs import bot_help, render, stats_render
from engine import PRESET_NAMES, Rules
from engine.help import OPTIONS, changed_rules, help_sections, rules_label

NOUNS = r"(point|push-up|hand|card|stake|win|turn|joker|change|table|player|seat|time-out|loss|catch|ledger row)"
WRONG = [
    (re.compile(r"\(s\)"), "a (s) plural"),
    (re.compile(r"(?<![\d.])[+-]?1 " + NOUNS + r"e?s\b"), "one with a plural"),
    (re.compile(r"(?<![\d.])[+-]?(\d+\.\d+|0|[2-9]|[1-9]\d+) " + NOUNS + r"(?![\w-])"), "many with a singular"),
    (re.compile(r"\bpts?\b"), "pts"),
    (re.compile(r"\*\* stakes|\bnet stakes|Net [+-]?\d+ stakes", re.IGNORECASE), "the ledger's points as stakes"),
]


def check(text: str, where: str) -> None:
    for pattern, what in WRONG:
        found = pattern.search(text)
        assert found is None, f"{what}: {found.group(0)!r} in {where}: …{text[max(0, found.start() - 60):found.end() + 60]}…"


def texts(message) -> str:
    """Everything a message shows: content, every embed's text, button labels, menu options."""
    embeds = message.get("embeds") or ([message["embed"]] if message.get("embed") else [])
    parts = [str(message.get("content") or "")]
    for embed in embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    view = message.get("view")
    for item in view.children if view is not None else ():
        parts.append(getattr(item, "label", None) or getattr(item, "placeholder", None) or "")
        parts += [f"{o.label} {o.description or ''}" for o in getattr(item, "options", None) or []]
    return "\n".join(parts)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("scoring", [Scoring.STAKES, Scoring.PUSHUPS])
def test_tables_and_hands_say_their_numbers_right(preset, scoring):
    rng = random.Random(f"{preset}{scoring}")
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="Ann", rules=Rules.preset(preset), stake=1,
                       scoring=scoring, computers=0)
    check(texts(render.table_message(table.public())), "the lobby")
    table, _ = table.join(2, "Bo")  # names without digits: "p1 wins" is no plural
    table, _ = table.add_computer(1, Level.EASY)
    table, _ = table.set_side_bets(1, ("high_card",), stake=1)
    table, _ = table.toggle_side_bets(1)
    table, _ = table.toggle_side_bets(2)
    check(texts(render.table_message(table.public())), "the lobby with side bets")
    table, _ = table.start(1, rng)
    table, _ = table.call_big_one(1, 2)
    for hand in range(3):
        while table.in_play:
            check(texts(render.table_message(table.public())), f"hand {hand} in play")
            turn = table.computer_turn()
            if turn is not None:
                table, _ = table.computer_play(lambda level, seed, view: view.legal_actions[-1])
                continue
            game = table.game
            seat = game.to_act
            view = table.seat_view(seat)
            check(texts(render.hand_message(view, table_id=table.id, hand_number=table.hand_number,
                                            moves=table.moves)), "a hand")
            legal = game.legal_actions(seat)
            action = rng.choice([a for a in legal if a.verb != "drop"] if rng.random() < 0.9 else legal)
            table, _ = table.act(table.seats[seat].user_id, action)
        check(texts(render.table_message(table.public())), f"hand {hand}'s showdown")
        if not table.is_open:
            break
        table, _ = table.next_hand(1, rng)
    if table.is_open:
        table, _ = table.end(1, "Ann")
    check(texts(render.table_message(table.public())), "the closed table")


def test_rules_help_and_labels_say_their_numbers_right():
    variants = [Rules.preset(name) for name in PRESET_NAMES]
    for key, (_, choices) in OPTIONS.items():
        for code, _, _ in choices:
            for base in (Rules(), Rules.preset("chicago")):
                try:
                    variants.append(changed_rules(base, key, code))
                except Exception:  # a combination the rules refuse
                    pass
    for rules in variants:
        for scoring in ("stakes", "pushups"):
            rules = replace(rules, scoring=scoring)
            check(texts({"embed": render.rules_embed(rules, "House rules")}), f"the rules of {rules_label(rules)}")
            for stake in (1, 2):
                sections = help_sections(rules, stake=stake)
                check(texts(render.help_message(sections, "Here", rules, bot_help.bot_help_embed(rules, turn_timer=1))),
                      f"the help of {rules_label(rules)}")
            check(rules_label(rules, with_scoring=True), "a rules label")
    for timer in (1, 5, 20, 60):
        check(texts({"embed": bot_help.bot_help_embed(Rules(), turn_timer=timer)}), f"the bot help at {timer} s")


def tally(n: int) -> Tally:
    return Tally(hands=n, wins=n, net=n, pushups=n, tonk_outs=n, run_outs=n, drops_won=n, caught_drops=n, catches=n,
                 instant_wins=n, biggest_win=n, biggest_loss=-n, best_streak=n)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_stats_ledgers_and_settings_say_their_numbers_right(n):
    season = SeasonLabel(1, None, False)
    opponent = OpponentNet("u:2", "Bob", n, float(n), n, float(n))
    stats = PlayerStats("u:1", "Alice", 1, tally(n), tally(n), n, (opponent,))
    check(texts({"embed": stats_render.player_embed(PlayerReport(stats, season), server="S")}), "a profile")
    entry = TopEntry(1, "u:1", "Alice", float(n), n)
    for category in stats_render.CATEGORY_WORDS:
        board = Leaderboard(category, 1, (entry,), entry, n)
        check(texts({"embed": stats_render.top_embed(TopReport(board, season), server="S")}), f"top {category}")
    server = ServerStats(1, n, n, n, (("caught", n),) if n else (), (("standard", n),) if n else ())
    check(texts({"embed": stats_render.server_embed(ServerReport(server, season, (("standard", n),)),
                                                    server="S")}), "server stats")
    row = Standing(1, "u:1", "Alice", n, n, n, n, n, n, n)
    for mode in ("stakes", "pushups"):
        check(texts({"embed": render.ledger_embed([row], row, mode=mode, season=1, guild_name="S")}), "the ledger")
        check(texts({"embed": render.ledger_embed([row], None, mode=mode, season=1, guild_name="S")}), "the ledger")
    hand = HandSummary(hand_id="1-1", finished_at=datetime.now(timezone.utc), outcome="drop_won", season=1,
                       table_id=1, stake=1, scoring_mode="stakes", players=("Alice", "Bob"), accounts=("u:1", "u:2"),
                       payments=(n, -n), pushups=(0, n), winners=(0,))
    check(texts({"embed": render.history_embed([hand])}), "the history")
    settings = GuildSettings(guild_id=1, stake=max(n, 1), turn_timer_seconds=max(n, 1) * 30)
    check(texts({"embed": render.settings_embed(settings, [])}), "the settings")


def test_the_checker_catches_what_it_is_for():
    for wrong in ("1 points", "-1 points", "+1 points", "2 point", "0 point", "1 push-ups", "3 push-up.", "wins 2 "
                  "stake(s)", "-2 pts", "Net **+3** stakes", "1 hands", "10 hand,", "1.5 point"):
        with pytest.raises(AssertionError):
            check(wrong, "a sample")
    for right in ("1 point", "-1 point", "2 points", "1 push-up", "0 push-ups", "+1.5 points", "11 points",
                  "a 52-card deck", "5 stakes to the low player", "1 hand, 1 win"):
        check(right, "a sample")

