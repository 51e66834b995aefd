"""PRIVACY.md tells people what the bot stores: every table of the schema is in its list."""

from pathlib import Path

from sqlmodel import SQLModel

import bot.store.models  # noqa: F401  (the tables register themselves)

PRIVACY = (Path(__file__).resolve().parents[1] / "PRIVACY.md").read_text(encoding="utf-8")


def test_every_table_the_bot_stores_is_listed_in_privacy_md():
    listed = PRIVACY.split("## What is stored", 1)[1].split("## Who can see it", 1)[0]
    missing = sorted(name for name in SQLModel.metadata.tables if f"`{name}`" not in listed)
    assert not missing, f"PRIVACY.md does not say what these tables keep: {missing}"
