"""Player stats: rules per hand, the ledger's stats columns, rivals, hand tallies, season names.

Revision ID: 3
Revises: 2

What hand-written migration 3 of the stats work built, for both databases:
``hands.house_rules`` (the record's rules as canonical JSON text), the
ledger's stats columns (wins of each kind, biggest win and loss, losses,
streaks), the ``rivals`` and ``hand_tallies`` tables (see ``summaries.py``),
``season_names``, and an index of hand seats by account then hand (it replaces
the one by account). The new columns and tables are filled in by replaying the
hands already stored.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "3"
down_revision = "2"
branch_labels = None
depends_on = None

V3_LEDGER = ("run_outs", "drops_won", "instant_wins", "losses", "biggest_win", "biggest_loss", "streak", "best_streak",
             "opening_streak")
OUTCOMES = "outcome IN ('instant', 'void', 'tonk_out', 'run_out', 'drop_won', 'caught', 'stock_out', 'draw')"
STANDARD = '{"preset":"standard"}'


def timestamp() -> sa.DateTime:
    return sa.DateTime(timezone=True).with_variant(sa.DateTime(), "sqlite")


def upgrade() -> None:
    op.add_column("hands", sa.Column("house_rules", sa.String(), nullable=False, server_default=STANDARD))
    # (account, hand_pk) serves every lookup the (account) index served, in hand order too.
    op.drop_index("ix_hand_seats_account", table_name="hand_seats")
    op.create_index("ix_hand_seats_account_hand", "hand_seats", ["account", "hand_pk"])
    for name in V3_LEDGER:
        op.add_column("ledger", sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "rivals",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("season", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("account", sa.String(), primary_key=True),
        sa.Column("opponent", sa.String(), primary_key=True),
        sa.Column("hands", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("net", sa.Float(), nullable=False, server_default="0"),
    )
    op.create_table(
        "hand_tallies",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("season", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("outcome", sa.String(), primary_key=True),
        sa.Column("house_rules", sa.String(), primary_key=True),
        sa.Column("hands", sa.Integer(), nullable=False, server_default="0"),
        sa.CheckConstraint(OUTCOMES),
    )
    op.create_table(
        "season_names",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("season", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("named_at", timestamp(), nullable=False),
        sa.CheckConstraint("season >= 1"),
    )
    fill_in_from_stored_hands(op.get_bind())


def fill_in_from_stored_hands(connection: sa.Connection) -> None:
    # Imported here: bot.store.migrations reads this file while it is being imported.
    from bot.store.migrations import house_rules_key, stored_hands
    from bot.store.summaries import replay

    hands = connection.execute(sa.text("SELECT id, record FROM hands")).all()
    if hands:
        connection.execute(
            sa.text("UPDATE hands SET house_rules = :rules WHERE id = :id"),
            [{"rules": house_rules_key((json.loads(record) if isinstance(record, str) else record)
                                       .get("rules", {"preset": "standard"})), "id": pk}
             for pk, record in hands],
        )
    summaries = replay(stored_hands(connection))
    if not summaries.ledger:
        return
    key = ("guild_id", "season", "account")
    connection.execute(
        sa.text(f"UPDATE ledger SET {', '.join(f'{name} = :{name}' for name in V3_LEDGER)}"
                " WHERE guild_id = :guild_id AND season = :season AND account = :account"),
        [{**{name: row[name] for name in V3_LEDGER}, **dict(zip(key, ledger_key, strict=True))}
         for ledger_key, row in summaries.ledger.items()],
    )
    connection.execute(
        sa.text("INSERT INTO rivals (guild_id, season, account, opponent, hands, net)"
                " VALUES (:guild_id, :season, :account, :opponent, :hands, :net)"),
        [dict(zip((*key, "opponent"), rival_key, strict=True), hands=hands, net=net)
         for rival_key, (hands, net) in summaries.rivals.items()],
    )
    connection.execute(
        sa.text("INSERT INTO hand_tallies (guild_id, season, outcome, house_rules, hands)"
                " VALUES (:guild_id, :season, :outcome, :house_rules, :hands)"),
        [dict(zip(("guild_id", "season", "outcome", "house_rules"), tally_key, strict=True), hands=hands)
         for tally_key, hands in summaries.tallies.items()],
    )


def downgrade() -> None:
    raise NotImplementedError("revision 3 cannot be downgraded")
