"""Test-wide setup: the fake Discord's fixtures (fake_discord, bot_process, ...) and PostgreSQL."""

pytest_plugins = ["fakediscord.pytest_plugin", "pgserver"]
