"""Persistence for the Tonk bot: SQLModel on SQLAlchemy's async engine, SQLite (aiosqlite) or PostgreSQL (asyncpg).

Open the database once, keep its session factory, and pass a session to the
repository functions (keyword-only arguments after the session)::

    db = await open_database(database_url_from_env())
    async with db.sessions() as session:
        table = await create_table(session, guild_id=..., channel_id=..., ...)

Each function commits its own short transaction unless the session is already
in one (see ``transactions.py``). Nothing here knows about Discord.
"""

from .db import (
    DEFAULT_DATABASE_URL,
    Database,
    create_engine,
    create_session_factory,
    database_url_from_env,
    describe_database,
    open_database,
)
from .errors import (
    ChannelBusyError,
    DatabaseStartupError,
    SchemaTooNewError,
    StaleTableError,
    StoreError,
    TableClosedError,
    TableNotFoundError,
)
from .forget import Forgotten, forget_guild
from .guilds import UNSET, get_guild_settings, update_guild_settings
from .hands import (RECORD_FORMAT, HandSummary, check_result, get_hand, hand_record, has_played, recent_hands,
                    record_finished_hand)
from .ledger import (
    SeasonInfo,
    Standing,
    balance_total,
    current_season,
    list_seasons,
    player_standing,
    standings,
    start_new_season,
)
from .migrations import LATEST_VERSION, migrate, schema_version
from .seasons import name_season, season_label, season_names
from .stats import (
    TOP_CATEGORIES,
    BalancePoint,
    Leaderboard,
    OpponentNet,
    PlayerStats,
    ServerStats,
    Tally,
    TopEntry,
    balance_history,
    computer_accounts,
    display_names,
    opponent_flows,
    player_stats,
    player_stats_from_hands,
    server_stats,
    top,
)
from .models import (
    OUTCOMES,
    SCORING_MODES,
    TABLE_STATUSES,
    GuildSettings,
    Hand,
    HandSeat,
    LedgerEntry,
    LiveTable,
    SeasonArchive,
    SeasonName,
    HandTally,
    Rival,
)
from .players import PlayerRef
from .portable import is_retryable, retrying, write_retrying
from .tables import (
    SAVABLE_FIELDS,
    close_table,
    create_table,
    get_open_table_in_channel,
    get_table,
    list_open_tables,
    save_table,
    save_table_version,
)
from .transactions import read_transaction, write_transaction

__all__ = [
    "Forgotten",
    "forget_guild",
    "has_played",
    "TOP_CATEGORIES",
    "BalancePoint",
    "Leaderboard",
    "OpponentNet",
    "PlayerStats",
    "SeasonName",
    "HandTally",
    "Rival",
    "ServerStats",
    "Tally",
    "TopEntry",
    "balance_history",
    "computer_accounts",
    "display_names",
    "name_season",
    "opponent_flows",
    "player_stats",
    "player_stats_from_hands",
    "season_label",
    "season_names",
    "server_stats",
    "top",
    "DEFAULT_DATABASE_URL",
    "LATEST_VERSION",
    "OUTCOMES",
    "RECORD_FORMAT",
    "SAVABLE_FIELDS",
    "SCORING_MODES",
    "TABLE_STATUSES",
    "UNSET",
    "ChannelBusyError",
    "Database",
    "DatabaseStartupError",
    "GuildSettings",
    "Hand",
    "HandSeat",
    "HandSummary",
    "LedgerEntry",
    "LiveTable",
    "PlayerRef",
    "SchemaTooNewError",
    "SeasonArchive",
    "SeasonInfo",
    "StaleTableError",
    "Standing",
    "StoreError",
    "TableClosedError",
    "TableNotFoundError",
    "balance_total",
    "check_result",
    "close_table",
    "create_engine",
    "create_session_factory",
    "create_table",
    "current_season",
    "database_url_from_env",
    "describe_database",
    "get_guild_settings",
    "get_hand",
    "get_open_table_in_channel",
    "get_table",
    "hand_record",
    "is_retryable",
    "list_open_tables",
    "list_seasons",
    "migrate",
    "open_database",
    "player_standing",
    "read_transaction",
    "recent_hands",
    "record_finished_hand",
    "retrying",
    "save_table",
    "save_table_version",
    "schema_version",
    "standings",
    "start_new_season",
    "update_guild_settings",
    "write_retrying",
    "write_transaction",
]
