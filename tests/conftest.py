"""Test-wide setup: the fake Discord's fixtures (fake_discord, bot_process, ...)."""

pytest_plugins = ["fakediscord.pytest_plugin"]
