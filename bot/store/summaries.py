"""What one finished hand adds to the per-season summaries the stats read.

The hands are the source of truth; three summary tables, written in the same
transaction as each hand (after its exactly-once insert), let the stats answer
without scanning a server's every hand:

    - ``ledger``: one row per (server, season, account): totals, counters of
      each kind of win, biggest win and loss, and the streak figures;
    - ``rivals``: one row per (server, season, account, opponent): hands
      played together and the net won from the opponent;
    - ``hand_tallies``: one row per (server, season, ending, house rules): hands.

This module holds the arithmetic of one hand, shared by the write path (which
turns it into SQL upserts) and by ``replay`` (which rebuilds the summaries
from stored hands: the schema migration and the benchmark use it). Tests check
that the summaries equal aggregates computed over the stored hands.

Streaks: a win extends the streak, a loss ends it, a hand nobody won (void,
drawn) leaves it. ``opening_streak`` counts the wins before the season's first
loss, so streaks that run across seasons can be joined up (see ``join_streaks``).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

NO_WINNER_OUTCOMES = ("void", "draw")
COUNTERS = ("balance", "pushups", "hands", "wins", "tonk_outs", "run_outs", "drops_won", "instant_wins", "catches",
            "caught_drops", "losses")
"""Ledger columns that a hand adds to."""
WIN_COUNTERS = {"tonk_out": "tonk_outs", "run_out": "run_outs", "drop_won": "drops_won", "instant": "instant_wins",
                "caught": "catches"}


def pairwise_flows(payments: Sequence[int]) -> dict[tuple[int, int], float]:
    """{(a, b): what seat a took from seat b} for every ordered pair of seats.

    Each loser pays each winner in proportion to what the winners took: exact
    when one seat wins, and for the standard caught drop.
    """
    moved = sum(abs(payment) for payment in payments)
    seats = range(len(payments))
    return {
        (a, b): (-payments[b] * abs(payments[a]) * 2 / moved if payments[a] * payments[b] < 0 else 0.0)
        for a in seats for b in seats if a != b
    }


def seat_figures(*, outcome: str, seat: int, won: bool, dropper: int | None, payment: int, pushups: int) -> dict[str, int]:
    """One seat's ledger figures for one hand: what a ledger row starts from, or adds."""
    figures = dict.fromkeys(COUNTERS, 0)
    figures.update(balance=payment, pushups=pushups, hands=1, wins=int(won),
                   caught_drops=int(outcome == "caught" and seat == dropper),
                   losses=int(not won and outcome not in NO_WINNER_OUTCOMES))
    if won and outcome in WIN_COUNTERS:
        figures[WIN_COUNTERS[outcome]] = 1
    figures.update(biggest_win=max(payment, 0), biggest_loss=min(payment, 0),
                   streak=int(won), best_streak=int(won), opening_streak=int(won))
    return figures


def add_hand(row: dict[str, Any], figures: dict[str, int]) -> None:
    """Add one hand's ``figures`` to a ledger ``row`` in place (the SQL upsert does the same)."""
    won, lost = figures["wins"] > 0, figures["losses"] > 0
    if won and row["losses"] == 0:
        row["opening_streak"] += 1
    for name in COUNTERS:
        row[name] += figures[name]
    row["biggest_win"] = max(row["biggest_win"], figures["biggest_win"])
    row["biggest_loss"] = min(row["biggest_loss"], figures["biggest_loss"])
    if won:
        row["streak"] += 1
        row["best_streak"] = max(row["best_streak"], row["streak"])
    elif lost:
        row["streak"] = 0


@dataclass(frozen=True, slots=True)
class StoredHand:
    guild_id: int
    season: int
    outcome: str
    dropper: int | None
    house_rules: str
    seats: tuple[tuple[str, str, int, int, bool], ...]
    """(account, display name, payment, push-ups, won) in seat order."""


@dataclass(slots=True)
class Summaries:
    ledger: dict[tuple[int, int, str], dict[str, Any]]
    """(guild, season, account) -> display_name and every ledger figure."""
    rivals: dict[tuple[int, int, str, str], list[Any]]
    """(guild, season, account, opponent) -> [hands, net]."""
    tallies: dict[tuple[int, int, str, str], int]
    """(guild, season, outcome, house rules) -> hands."""


def replay(hands: Iterable[StoredHand]) -> Summaries:
    """The summaries of ``hands``, given in the order they were written."""
    summaries = Summaries({}, {}, {})
    for hand in hands:
        key = (hand.guild_id, hand.season, hand.outcome, hand.house_rules)
        summaries.tallies[key] = summaries.tallies.get(key, 0) + 1
        for seat, (account, name, payment, pushups, won) in enumerate(hand.seats):
            figures = seat_figures(outcome=hand.outcome, seat=seat, won=won, dropper=hand.dropper,
                                   payment=payment, pushups=pushups)
            row = summaries.ledger.get((hand.guild_id, hand.season, account))
            if row is None:
                summaries.ledger[(hand.guild_id, hand.season, account)] = {"display_name": name, **figures}
            else:
                row["display_name"] = name
                add_hand(row, figures)
        for (a, b), flow in pairwise_flows([seat[2] for seat in hand.seats]).items():
            rival = summaries.rivals.setdefault((hand.guild_id, hand.season, hand.seats[a][0], hand.seats[b][0]), [0, 0.0])
            rival[0] += 1
            rival[1] += flow
    return summaries


def join_streaks(seasons: Iterable[tuple[int, int, int, int]]) -> tuple[int, int]:
    """(best, current) streak across seasons, from each season's (streak, best_streak, opening_streak, losses), oldest first.

    A season without a loss carries the run of the seasons before it on.
    """
    best = run = 0
    for streak, best_streak, opening_streak, losses in seasons:
        best = max(best, best_streak, run + opening_streak)
        run = run + streak if losses == 0 else streak
    return best, run
