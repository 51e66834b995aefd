"""The server setting ``guild_settings.language``: the language of its tables and shared answers.

Revision ID: 6
Revises: 5

A Discord locale ("es-ES", one of ``i18n.SHIPPED``), or NULL: the server's own Discord
language (``guild_locale``), else English. Every server stored before has NULL, so nothing a
server sees changes until a manager picks a language (/tonk-admin settings language:).
"""

import sqlalchemy as sa
from alembic import op

revision = "6"
down_revision = "5"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("guild_settings", sa.Column("language", sa.String(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("revision 6 cannot be downgraded")
