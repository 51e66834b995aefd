"""The tables, as SQLModel classes.

These classes map the schema; they do not create it. The schema is written by
the Alembic revisions in ``schema/versions`` (a test checks that the two agree,
on SQLite and PostgreSQL). Discord ids are 64-bit: ``BIGINT``. Row ids are
``BIGINT`` too, except on SQLite, where only ``INTEGER PRIMARY KEY`` is the rowid
(and may be ``AUTOINCREMENT``).
"""

from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import JSON, BigInteger, DateTime, Dialect, Index, Integer, text
from sqlalchemy.types import TypeDecorator, TypeEngine
from sqlmodel import Field, SQLModel

ScoringMode = Literal["stakes", "pushups"]
SCORING_MODES: tuple[str, ...] = ("stakes", "pushups")

TableStatus = Literal["lobby", "playing", "between_hands", "closed"]
TABLE_STATUSES: tuple[str, ...] = ("lobby", "playing", "between_hands", "closed")
OPEN_STATUSES: tuple[str, ...] = ("lobby", "playing", "between_hands")

Outcome = Literal["instant", "void", "tonk_out", "run_out", "drop_won", "caught", "stock_out", "draw"]
OUTCOMES: tuple[str, ...] = ("instant", "void", "tonk_out", "run_out", "drop_won", "caught", "stock_out", "draw")

DEFAULT_RULES: dict[str, Any] = {"preset": "standard"}
DEFAULT_STAKE = 1
DEFAULT_SCORING_MODE = "stakes"
DEFAULT_TURN_TIMER_SECONDS = 90
FIRST_SEASON = 1

ROW_ID = BigInteger().with_variant(Integer(), "sqlite")
"""Type of the generated row ids (and the columns that refer to them)."""
OPEN_ONLY = text("status != 'closed'")


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, aware UTC datetimes out.

    PostgreSQL stores them as ``TIMESTAMP WITH TIME ZONE``. SQLite has no time
    zones: the value is stored as naive UTC text and given its UTC zone back
    when read, so the bot never compares naive and aware times.
    """

    impl = DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        return dialect.type_descriptor(DateTime(timezone=dialect.name != "sqlite"))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware datetime (UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class GuildSettings(SQLModel, table=True):
    """One server's defaults for new tables, and its current ledger season."""

    __tablename__ = "guild_settings"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    rules: dict[str, Any] = Field(default_factory=lambda: dict(DEFAULT_RULES), sa_type=JSON(none_as_null=True), nullable=False)
    stake: int = Field(default=DEFAULT_STAKE)
    scoring_mode: str = Field(default=DEFAULT_SCORING_MODE)
    turn_timer_seconds: int = Field(default=DEFAULT_TURN_TIMER_SECONDS)
    table_channel_ids: list[int] | None = Field(default=None, sa_type=JSON(none_as_null=True), nullable=True)
    """Channels that may host tables; None means every channel."""
    season: int = Field(default=FIRST_SEASON)
    """Current ledger season (schema v2)."""
    season_started_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    """When the current season began; None for the first season (since the beginning)."""
    updated_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=False)
    """None only on the unsaved defaults that ``get_guild_settings`` returns for a new server."""
    pictures: bool = Field(default=True)
    """Show tables and hands as pictures (schema v4); off: text only."""
    language: str | None = Field(default=None, nullable=True)
    """The language of the server's tables and shared answers, a Discord locale of
    ``i18n.SHIPPED`` (schema v6); None: the server's Discord language (``guild_locale``)."""

    def allows_channel(self, channel_id: int) -> bool:
        """Whether a table may be opened in this channel."""
        return not self.table_channel_ids or channel_id in self.table_channel_ids


class LiveTable(SQLModel, table=True):
    """A table being played (or closed), saved after every accepted action.

    ``version`` grows by one on every save; see ``tables.save_table``.
    """

    __tablename__ = "live_tables"
    __table_args__ = (
        Index(
            "ux_live_tables_open_channel",
            "channel_id",
            unique=True,
            sqlite_where=OPEN_ONLY,
            postgresql_where=OPEN_ONLY,
        ),
        Index("ix_live_tables_open_guild", "guild_id", sqlite_where=OPEN_ONLY, postgresql_where=OPEN_ONLY),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ROW_ID)
    guild_id: int = Field(sa_type=BigInteger)
    channel_id: int = Field(sa_type=BigInteger)
    host_user_id: int = Field(sa_type=BigInteger)
    status: str = Field(default="lobby")
    seats: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON(none_as_null=True), nullable=False)
    """[{"kind": "human"|"computer", "user_id": int|None, "name": str, "level": str|None}, ...]"""
    message_id: int | None = Field(default=None, sa_type=BigInteger)
    rules: dict[str, Any] = Field(default_factory=lambda: dict(DEFAULT_RULES), sa_type=JSON(none_as_null=True), nullable=False)
    stake: int = Field(default=DEFAULT_STAKE)
    scoring_mode: str = Field(default=DEFAULT_SCORING_MODE)
    hand_number: int = Field(default=0)
    dealer: int | None = Field(default=None)
    engine_state: str | None = Field(default=None)
    """The engine's own serialisation of the hand in play (JSON text), opaque to the store."""
    bookkeeping: dict[str, Any] = Field(default_factory=dict, sa_type=JSON(none_as_null=True), nullable=False)
    """Free JSON for the bot: timeouts per seat, per-user hand message ids, ..."""
    version: int = Field(default=1)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)

    @property
    def is_open(self) -> bool:
        return self.status != "closed"


class Hand(SQLModel, table=True):
    """A finished hand: its full record and result, written exactly once per ``hand_id``."""

    __tablename__ = "hands"
    __table_args__ = (Index("ix_hands_guild_season", "guild_id", "season", "id"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=ROW_ID)
    hand_id: str = Field(unique=True)
    guild_id: int = Field(sa_type=BigInteger)
    table_id: int | None = Field(default=None, foreign_key="live_tables.id", ondelete="SET NULL", sa_type=ROW_ID)
    finished_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    outcome: str
    dropper: int | None = None
    stake: int
    scoring_mode: str
    record: dict[str, Any] = Field(sa_type=JSON(none_as_null=True), nullable=False)
    """The hand record, format ``tonk-hand/1``."""
    result: dict[str, Any] = Field(sa_type=JSON(none_as_null=True), nullable=False)
    """The replay result: outcome, winners, counts, payments, pushups (and dropper)."""
    season: int = Field(default=FIRST_SEASON)
    house_rules: str = Field(default='{"preset":"standard"}')
    """The record's rules as canonical JSON text (schema v3): equal rules, equal text."""


class HandSeat(SQLModel, table=True):
    """One seat of a finished hand: who sat there and what the hand did to them."""

    __tablename__ = "hand_seats"
    __table_args__ = (Index("ix_hand_seats_account_hand", "account", "hand_pk"),)

    hand_pk: int = Field(primary_key=True, foreign_key="hands.id", ondelete="CASCADE", sa_type=ROW_ID,
                         sa_column_kwargs={"autoincrement": False})
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    account: str
    display_name: str
    count: int
    payment: int
    pushups: int
    won: bool


class LedgerEntry(SQLModel, table=True):
    """One account's totals on one server in one season."""

    __tablename__ = "ledger"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    season: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    account: str = Field(primary_key=True)
    display_name: str
    balance: int = 0
    pushups: int = 0
    hands: int = 0
    wins: int = 0
    tonk_outs: int = 0
    catches: int = 0
    caught_drops: int = 0
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    # schema v3: the figures of a player's stats (see summaries.py)
    run_outs: int = 0
    drops_won: int = 0
    instant_wins: int = 0
    losses: int = 0
    """Hands lost: not won, and somebody won (void and drawn hands are neither)."""
    biggest_win: int = 0
    biggest_loss: int = 0
    """The most lost in one hand, as a negative number (0 if never)."""
    streak: int = 0
    """Hands won in a row in this season, up to its latest hand; a hand nobody won does not break it."""
    best_streak: int = 0
    opening_streak: int = 0
    """Wins before the season's first loss: joins streaks across seasons."""


class SeasonArchive(SQLModel, table=True):
    """A season that an admin ended; its ledger rows stay, keyed by season."""

    __tablename__ = "season_archive"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    season: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    ended_at: datetime = Field(sa_type=UTCDateTime, nullable=False)


class SeasonName(SQLModel, table=True):
    """The name a server's host gave one of its seasons, current or ended (schema v3)."""

    __tablename__ = "season_names"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    season: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    name: str
    named_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class Rival(SQLModel, table=True):
    """What one account won from (or lost to) one opponent on one server in one season (schema v3).

    ``net`` is the sum of each shared hand's proportional split (summaries.pairwise_flows).
    """

    __tablename__ = "rivals"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    season: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    account: str = Field(primary_key=True)
    opponent: str = Field(primary_key=True)
    hands: int = 0
    net: float = 0.0


class HandTally(SQLModel, table=True):
    """How many of a server's hands in a season ended one way under one set of house rules (schema v3)."""

    __tablename__ = "hand_tallies"

    guild_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    season: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    outcome: str = Field(primary_key=True)
    house_rules: str = Field(primary_key=True)
    hands: int = 0


TOURNAMENT_STAGES: tuple[str, ...] = ("signup", "playing", "between_rounds", "finished", "ended")
OPEN_TOURNAMENT_STAGES: tuple[str, ...] = ("signup", "playing", "between_rounds")
OPEN_TOURNAMENT = text("status IN ('signup', 'playing', 'between_rounds')")


class TournamentRow(SQLModel, table=True):
    """A tournament (schema v5): its whole state as the bot's JSON (bot/tournament.py), saved
    against its version as a table is. One open tournament per channel."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ux_tournaments_open_channel", "channel_id", unique=True,
              sqlite_where=OPEN_TOURNAMENT, postgresql_where=OPEN_TOURNAMENT),
        Index("ix_tournaments_guild", "guild_id", "id"),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ROW_ID)
    guild_id: int = Field(sa_type=BigInteger)
    channel_id: int = Field(sa_type=BigInteger)
    status: str = Field(default="signup")
    data: dict[str, Any] = Field(default_factory=dict, sa_type=JSON(none_as_null=True), nullable=False)
    version: int = Field(default=1)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class TournamentHand(SQLModel, table=True):
    """A finished hand of a tournament's table (schema v5), written once per ``hand_id`` in the
    transaction that saves the table: the tournament's results are summed from these, so a
    restart between the hand and the standings loses nothing. "For the ledger" hands are also
    in ``hands``; "for glory" hands only here."""

    __tablename__ = "tournament_hands"
    __table_args__ = (Index("ix_tournament_hands_table", "table_id", "hand_number"),)

    hand_id: str = Field(primary_key=True)
    tournament_id: int = Field(foreign_key="tournaments.id", ondelete="CASCADE", sa_type=ROW_ID)
    guild_id: int = Field(sa_type=BigInteger)
    table_id: int = Field(sa_type=ROW_ID)
    round: int
    table_number: int
    hand_number: int
    players: list[Any] = Field(sa_type=JSON(none_as_null=True), nullable=False)
    """The user id of each seat (None for a computer's)."""
    result: dict[str, Any] = Field(sa_type=JSON(none_as_null=True), nullable=False)
    record: dict[str, Any] = Field(sa_type=JSON(none_as_null=True), nullable=False)
    finished_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class TournamentPlace(SQLModel, table=True):
    """Where one account placed in a finished tournament (schema v5): `/tonk stats player` counts them."""

    __tablename__ = "tournament_places"
    __table_args__ = (Index("ix_tournament_places_account", "guild_id", "account"),)

    tournament_id: int = Field(primary_key=True, foreign_key="tournaments.id", ondelete="CASCADE", sa_type=ROW_ID,
                               sa_column_kwargs={"autoincrement": False})
    account: str = Field(primary_key=True)
    guild_id: int = Field(sa_type=BigInteger)
    display_name: str
    place: int


class HandToken(SQLModel, table=True):
    """What edits one person's live private hand at a table (schema v7): the webhook token of the
    click that last showed it, valid for Discord's 15 minutes from `lent_at`. A start after a kill
    takes up the hands whose tokens still work (bot/hand_tokens.py)."""

    __tablename__ = "hand_tokens"
    __table_args__ = (Index("ix_hand_tokens_guild", "guild_id"),)

    table_id: int = Field(primary_key=True, sa_type=ROW_ID, sa_column_kwargs={"autoincrement": False})
    user_id: int = Field(primary_key=True, sa_type=BigInteger, sa_column_kwargs={"autoincrement": False})
    guild_id: int = Field(sa_type=BigInteger)
    application_id: int = Field(sa_type=BigInteger)
    token: str
    message_id: int | None = Field(default=None, sa_type=BigInteger)
    followup: bool = False
    lent_at: datetime = Field(sa_type=UTCDateTime, nullable=False)
