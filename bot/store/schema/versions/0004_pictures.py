"""The server setting ``guild_settings.pictures``: tables and hands as pictures, or text only.

Revision ID: 4
Revises: 3

What hand-written migration 4 of the pictures work built: a boolean, on by
default and for every server already stored (a real BOOLEAN on PostgreSQL, 0/1
on SQLite). Unlike migration 4 there is no CHECK (pictures IN (0, 1)) on SQLite:
SQLite cannot add a constraint with ALTER TABLE, and a table rebuild for it is
not worth it; the store only ever writes booleans here (``checks.check_bool``).
"""

import sqlalchemy as sa
from alembic import op

revision = "4"
down_revision = "3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "guild_settings",
        sa.Column("pictures", sa.Boolean(create_constraint=False), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    raise NotImplementedError("revision 4 cannot be downgraded")
