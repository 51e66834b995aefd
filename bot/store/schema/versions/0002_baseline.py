"""Baseline: the schema of version 2 (seasons), for SQLite and PostgreSQL.

Revision ID: 2
Revises: (none)

Identical, on SQLite, to what the hand-written migrations 1 and 2 built; a file
from before Alembic is upgraded with those and stamped with this revision (see
``bot/store/sqlite.py``). Revision ids are integers counting on from 2, so
``schema_version`` stays a number. A released revision is never edited: add the
next one (``3``, with ``down_revision = "2"``), and use ``op.batch_alter_table``
for changes SQLite's ALTER TABLE cannot make.
"""

import sqlalchemy as sa
from alembic import op

revision = "2"
down_revision = None
branch_labels = None
depends_on = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
OPEN_ONLY = sa.text("status != 'closed'")
MODES = "scoring_mode IN ('stakes', 'pushups')"
STATUSES = "status IN ('lobby', 'playing', 'between_hands', 'closed')"
OUTCOMES = "outcome IN ('instant', 'void', 'tonk_out', 'run_out', 'drop_won', 'caught', 'stock_out', 'draw')"


def timestamp() -> sa.DateTime:
    """Timestamps with a zone where the database has them (PostgreSQL), naive UTC on SQLite."""
    return sa.DateTime(timezone=True).with_variant(sa.DateTime(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("rules", sa.JSON(), nullable=False, server_default=sa.text("""'{"preset": "standard"}'""")),
        sa.Column("stake", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("scoring_mode", sa.String(), nullable=False, server_default="stakes"),
        sa.Column("turn_timer_seconds", sa.Integer(), nullable=False, server_default="90"),
        sa.Column("table_channel_ids", sa.JSON(), nullable=True),
        sa.Column("updated_at", timestamp(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("season_started_at", timestamp(), nullable=True),
        sa.CheckConstraint("stake >= 1"),
        sa.CheckConstraint(MODES),
        sa.CheckConstraint("turn_timer_seconds > 0"),
        sa.CheckConstraint("season >= 1"),
    )
    # sqlite_autoincrement: a table id is never reused, because buttons carry it
    # (a PostgreSQL sequence never reuses one either).
    op.create_table(
        "live_tables",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_user_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(), nullable=False, server_default="lobby"),
        sa.Column("seats", sa.JSON(), nullable=False, server_default=sa.text("'[]'")),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("stake", sa.Integer(), nullable=False),
        sa.Column("scoring_mode", sa.String(), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("dealer", sa.Integer(), nullable=True),
        sa.Column("engine_state", sa.Text(), nullable=True),
        sa.Column("bookkeeping", sa.JSON(), nullable=False, server_default=sa.text("'{}'")),
        sa.Column("version", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("created_at", timestamp(), nullable=False),
        sa.Column("updated_at", timestamp(), nullable=False),
        sa.CheckConstraint(STATUSES),
        sa.CheckConstraint("stake >= 1"),
        sa.CheckConstraint(MODES),
        sqlite_autoincrement=True,
    )
    # At most one open table per channel.
    op.create_index("ux_live_tables_open_channel", "live_tables", ["channel_id"], unique=True,
                    sqlite_where=OPEN_ONLY, postgresql_where=OPEN_ONLY)
    op.create_index("ix_live_tables_open_guild", "live_tables", ["guild_id"],
                    sqlite_where=OPEN_ONLY, postgresql_where=OPEN_ONLY)
    op.create_table(
        "hands",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("hand_id", sa.String(), nullable=False, unique=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("table_id", ROW_ID, sa.ForeignKey("live_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("finished_at", timestamp(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("dropper", sa.Integer(), nullable=True),
        sa.Column("stake", sa.Integer(), nullable=False),
        sa.Column("scoring_mode", sa.String(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False, server_default="1"),
        sa.CheckConstraint(OUTCOMES),
        sa.CheckConstraint("stake >= 1"),
        sa.CheckConstraint(MODES),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_hands_guild_season", "hands", ["guild_id", "season", "id"])
    op.create_table(
        "hand_seats",
        sa.Column("hand_pk", ROW_ID, sa.ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True,
                  autoincrement=False),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("account", sa.String(), nullable=False),
        sa.Column("display_name", sa.String(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("payment", sa.Integer(), nullable=False),
        sa.Column("pushups", sa.Integer(), nullable=False),
        # A real BOOLEAN on PostgreSQL; on SQLite 0/1 with a CHECK.
        sa.Column("won", sa.Boolean(create_constraint=True, name="ck_hand_seats_won"), nullable=False),
        sa.CheckConstraint("seat >= 0"),
    )
    op.create_index("ix_hand_seats_account", "hand_seats", ["account"])
    counter = dict(nullable=False, server_default="0")
    op.create_table(
        "ledger",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("season", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("account", sa.String(), primary_key=True),
        sa.Column("display_name", sa.String(), nullable=False),
        *(sa.Column(name, sa.Integer(), **counter)
          for name in ("balance", "pushups", "hands", "wins", "tonk_outs", "catches", "caught_drops")),
        sa.Column("updated_at", timestamp(), nullable=False),
    )
    op.create_table(
        "season_archive",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("season", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("started_at", timestamp(), nullable=True),
        sa.Column("ended_at", timestamp(), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("the baseline cannot be downgraded")
