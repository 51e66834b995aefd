"""Alembic's script directory for the store: ``versions/`` holds one file per revision.

``bot.store.migrations.migrate`` runs them (no ``alembic.ini`` or ``env.py`` is
needed: the bot drives Alembic from code, on the engine it already has).
"""
