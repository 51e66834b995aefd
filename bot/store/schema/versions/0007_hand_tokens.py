"""``hand_tokens``: the interaction each live private hand is edited through, so a start after a
kill can take the hands back up.

Revision ID: 7
Revises: 6

A live private hand message is edited through the webhook token of the click that last showed it,
valid for Discord's 15 minutes. A graceful stop marks every live hand as no longer following the
game; a killed process could not, and its hands kept claiming to follow. One row per person and
table keeps what edits their hand (the token, the message, when the click lent it); the next start
takes up every hand whose token still works. The rows go with their table.
"""

import sqlalchemy as sa
from alembic import op

revision = "7"
down_revision = "6"
branch_labels = None
depends_on = None

ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def timestamp() -> sa.DateTime:
    return sa.DateTime(timezone=True).with_variant(sa.DateTime(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "hand_tokens",
        sa.Column("table_id", ROW_ID, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("application_id", sa.BigInteger(), nullable=False),
        sa.Column("token", sa.String(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("followup", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("lent_at", timestamp(), nullable=False),
    )
    op.create_index("ix_hand_tokens_guild", "hand_tokens", ["guild_id"])


def downgrade() -> None:
    raise NotImplementedError("revision 7 cannot be downgraded")
