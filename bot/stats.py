"""Stats as players ask for them: a profile, a leaderboard, the server's hands, a balance chart.

The cog calls this layer and renders what it returns; this layer reads the store
(which computes every figure from the stored hands) and adds what a reader needs
around the figures: the season's name, whether it has ended, the house rules'
names. It knows nothing of Discord and draws nothing: a chart is returned as the
lines to draw.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import Rules, RulesError

from bot.errors import UserError
from bot.store import (TOP_CATEGORIES, Database, Leaderboard, OpponentNet, PlayerRef, PlayerStats, ServerStats, Tally,
                       balance_history,
                       computer_accounts, current_season, display_names, list_seasons, name_season, opponent_flows, player_stats,
                       read_transaction, season_label, season_names, server_stats, top, tournament_record)
from engine.text import Said, Text, as_text, said, t, tn

CHART_HANDS = 100
"""How many of a player's last hands the balance chart shows."""
CHART_OPPONENTS = 3
CHART_BY = ("season", "opponent")


@dataclass(frozen=True, slots=True)
class SeasonLabel:
    number: int
    name: str | None
    ended: bool

    def __text__(self) -> Text:
        """`Season 3`, `Season 3: Winter league (ended)`, in the reader's language."""
        title = t("Season {n}: {name}", n=self.number, name=self.name) if self.name else t("Season {n}", n=self.number)
        return t("{season} (ended)", season=title) if self.ended else title

    def __str__(self) -> str:  # for logs; a reader gets `Lang.value(label)`
        return str(self.__text__())


@dataclass(frozen=True, slots=True)
class PlayerReport:
    stats: PlayerStats
    season: SeasonLabel
    tournaments: tuple[int, int] = (0, 0)
    """(tournaments played to the end, tournaments won) on this server, all time."""


@dataclass(frozen=True, slots=True)
class TopReport:
    board: Leaderboard
    season: SeasonLabel


@dataclass(frozen=True, slots=True)
class ServerReport:
    stats: ServerStats
    season: SeasonLabel
    house_rules: tuple[tuple[str, int], ...]
    """(the rules' name, hands), most played first; equal names added together."""


@dataclass(frozen=True, slots=True)
class ChartLine:
    label: Text
    hands: tuple[int, ...]
    """x: the hand's place among the player's last hands (1 = the oldest shown)."""
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class ChartData:
    """A chart's data; its words are message ids, drawn in the reader's language."""

    title: Text
    y_label: Text
    x_label: Text
    lines: tuple[ChartLine, ...]


def rules_name(house_rules: str) -> Said:
    """A readable name for a hand's rules (canonical JSON): the closest preset, and '+ N changes' from it."""
    try:
        shortest = Rules.from_dict(json.loads(house_rules)).to_dict()
    except (ValueError, RulesError):
        return said(t("unknown rules"))
    changes = len(shortest) - 1
    if not changes:
        return said(as_text(shortest["preset"]))
    return said(tn("{preset} + {n} change", "{preset} + {n} changes", changes, preset=shortest["preset"]))


class StatsService:
    def __init__(self, db: Database):
        self.db = db

    async def _season(self, session, guild_id: int, season: int | None) -> SeasonLabel:
        number, current, name = await season_label(session, guild_id=guild_id, season=season)
        if number > current:
            raise UserError(t('Season {number} has not begun: this server is in season {current}.', number=number, current=current))
        return SeasonLabel(number, name, number != current)

    async def player(self, *, guild_id: int, account: str, season: int | None = None,
                     name: str | None = None) -> PlayerReport:
        """One account's profile; ``name`` is how to call them in a refusal."""
        async with self.db.sessions() as session, read_transaction(session):
            label = await self._season(session, guild_id, season)
            stats = await player_stats(session, guild_id=guild_id, account=account, season=label.number)
            tournaments = await tournament_record(session, guild_id=guild_id, account=account)
        if stats is None:
            raise UserError(t('{name} has not played a hand on this server yet.', name=name) if name else t('That player has not played a hand on this server yet.'))
        return PlayerReport(stats, label, tournaments)

    async def top(self, *, guild_id: int, category: str, season: int | None = None, account: str | None = None,
                  min_hands: int = 10) -> TopReport:
        if category not in TOP_CATEGORIES:
            raise UserError(t('There is no leaderboard for {category}; pick one of {categories}.', category=repr(category), categories=list(TOP_CATEGORIES)))
        async with self.db.sessions() as session, read_transaction(session):
            label = await self._season(session, guild_id, season)
            board = await top(session, guild_id=guild_id, category=category, season=label.number, account=account,
                              min_hands=min_hands)
        return TopReport(board, label)

    async def server(self, *, guild_id: int, season: int | None = None) -> ServerReport:
        async with self.db.sessions() as session, read_transaction(session):
            label = await self._season(session, guild_id, season)
            stats = await server_stats(session, guild_id=guild_id, season=label.number)
        named: dict[str, int] = {}
        for house_rules, hands in stats.house_rules:
            name = rules_name(house_rules)
            named[name] = named.get(name, 0) + hands
        return ServerReport(stats, label, tuple(sorted(named.items(), key=lambda item: (-item[1], item[0]))))

    async def name_season(self, *, guild_id: int, name: str, season: int | None = None) -> SeasonLabel:
        async with self.db.sessions() as session:
            try:
                number, name = await name_season(session, guild_id=guild_id, name=name, season=season)
            except ValueError as exc:
                raise UserError(str(exc)) from None
            current = await current_season(session, guild_id=guild_id)
        return SeasonLabel(number, name, number != current)

    async def seasons(self, *, guild_id: int) -> list[SeasonLabel]:
        """Every season of the server, newest first, with its name."""
        async with self.db.sessions() as session, read_transaction(session):
            seasons = await list_seasons(session, guild_id=guild_id)
            names = await season_names(session, guild_id=guild_id)
        return [SeasonLabel(s.season, names.get(s.season), not s.is_current) for s in reversed(seasons)]

    async def computers(self, *, guild_id: int, prefix: str = "") -> list[tuple[str, str]]:
        """(account, name) of the computer players with a profile here."""
        async with self.db.sessions() as session:
            return await computer_accounts(session, guild_id=guild_id, prefix=prefix)

    async def chart(self, *, guild_id: int, account: str, by: str = "season", hands: int = CHART_HANDS,
                    name: str | None = None) -> ChartData:
        """The lines of a player's running balance over their last ``hands`` hands.

        By season: the season balance after each hand, one line per season. By
        opponent: the running net against each of the opponents met most in those hands.
        """
        if by not in CHART_BY:
            raise UserError(t('A chart is drawn by {choices}, not {by}.', choices=' or '.join(CHART_BY), by=repr(by)))
        async with self.db.sessions() as session, read_transaction(session):
            points = await balance_history(session, guild_id=guild_id, account=account, limit=hands)
            if not points:
                raise UserError(t('{name} has not played a hand on this server yet.', name=name) if name else t('That player has not played a hand on this server yet.'))
            names = await season_names(session, guild_id=guild_id)
            flows = await opponent_flows(session, account=account, hand_pks=[p.hand_pk for p in points]) \
                if by == "opponent" else {}
            met: dict[str, int] = {}
            for hand_flows in flows.values():
                for other in hand_flows:
                    met[other] = met.get(other, 0) + 1
            chosen = sorted(met, key=lambda other: (-met[other], other))[:CHART_OPPONENTS]
            opponent_names = await display_names(session, guild_id=guild_id, accounts=chosen)
        x_label = tn("the one hand played", "the last {n} hands", len(points))
        if by == "season":
            lines: dict[int, tuple[list[int], list[float]]] = {}
            for x, point in enumerate(points, start=1):
                xs, ys = lines.setdefault(point.season, ([], []))
                xs.append(x)
                ys.append(point.season_balance)

            def label(season: int) -> Text:
                return (t("Season {n}: {name}", n=season, name=names[season]) if season in names
                        else t("Season {n}", n=season))

            return ChartData(t("{name}: season balance", name=name or account), t("points"), x_label,
                             tuple(ChartLine(label(season), tuple(xs), tuple(ys)) for season, (xs, ys) in lines.items()))
        chart_lines = []
        for other in chosen:
            running, xs, ys = 0.0, [], []
            for x, point in enumerate(points, start=1):
                if other in flows.get(point.hand_pk, {}):
                    running += flows[point.hand_pk][other]
                    xs.append(x)
                    ys.append(running)
            chart_lines.append(ChartLine(t("vs {name}", name=opponent_names.get(other, other)), tuple(xs), tuple(ys)))
        return ChartData(t("{name}: net against opponents", name=name or account), t("points"), x_label,
                         tuple(chart_lines))


def account_of_user(user_id: int) -> str:
    return PlayerRef.human(user_id, "-").account


def computer_account(text: str) -> tuple[str, str]:
    """(account, name) of a computer player picked from the list or typed by name."""
    text = text.strip()
    try:
        ref = PlayerRef(text, text.removeprefix("cpu:")) if text.startswith("cpu:") else PlayerRef.computer(text)
    except ValueError:
        raise UserError(t("{text} is not a computer player's name.", text=repr(text))) from None
    return ref.account, ref.display_name


__all__ = ["CHART_BY", "ChartData", "OpponentNet", "PlayerReport", "ServerReport", "StatsService", "Tally",
           "TopReport", "account_of_user", "computer_account"]
