"""Tournaments: their state, their tables' hands, and who placed where.

Revision ID: 5
Revises: 4

``tournaments`` keeps each tournament's whole state as the bot's JSON, saved
against a version (one open tournament per channel: a partial unique index);
``tournament_hands`` every finished hand of a tournament's table, written in the
transaction that saves the table (the results are summed from them);
``tournament_places`` the places of a finished tournament, for a player's stats.
"""

import sqlalchemy as sa
from alembic import op

revision = "5"
down_revision = "4"
branch_labels = None
depends_on = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
OPEN = sa.text("status IN ('signup', 'playing', 'between_rounds')")
STAGES = "status IN ('signup', 'playing', 'between_rounds', 'finished', 'ended')"


def timestamp() -> sa.DateTime:
    return sa.DateTime(timezone=True).with_variant(sa.DateTime(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(), nullable=False, server_default="signup"),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("created_at", timestamp(), nullable=False),
        sa.Column("updated_at", timestamp(), nullable=False),
        sa.CheckConstraint(STAGES, name="ck_tournaments_status"),
        sqlite_autoincrement=True,
    )
    op.create_index("ux_tournaments_open_channel", "tournaments", ["channel_id"], unique=True,
                    sqlite_where=OPEN, postgresql_where=OPEN)
    op.create_index("ix_tournaments_guild", "tournaments", ["guild_id", "id"])
    op.create_table(
        "tournament_hands",
        sa.Column("hand_id", sa.String(), primary_key=True),
        sa.Column("tournament_id", ROW_ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("table_id", ROW_ID, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("finished_at", timestamp(), nullable=False),
    )
    op.create_index("ix_tournament_hands_table", "tournament_hands", ["table_id", "hand_number"])
    op.create_table(
        "tournament_places",
        sa.Column("tournament_id", ROW_ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True,
                  autoincrement=False),
        sa.Column("account", sa.String(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("display_name", sa.String(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournament_places_account", "tournament_places", ["guild_id", "account"])


def downgrade() -> None:
    raise NotImplementedError("revision 5 cannot be downgraded")
