"""Starting the bot with a missing or broken .env: a clear message and exit status 2."""

import os
import subprocess
import sys

import pytest

from bot.config import ConfigError, load_settings


def run_bot(tmp_path, env_text: str | None, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "LOG_LEVEL", "TONK_"))}
    env_file = tmp_path / ".env"
    if env_text is not None:
        env_file.write_text(env_text)
    env["TONK_ENV_FILE"] = str(env_file)
    env.update(extra)
    return subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, timeout=60,
                          env=env, cwd=tmp_path)


@pytest.mark.parametrize("env_text, words", [
    (None, "DISCORD_TOKEN is missing"),
    ("DISCORD_TOKEN=\n", "DISCORD_TOKEN is missing"),
    ("DISCORD_TOKEN=Bot abc.def\n", "looks malformed"),
    ("DISCORD_TOKEN=abc\nDEV_GUILD_ID=my-server\n", "DEV_GUILD_ID must be a server id"),
    ("DISCORD_TOKEN=abc\nLOG_LEVEL=LOUD\n", "LOG_LEVEL must be one of"),
    ("DISCORD_TOKEN=abc\nCLEAR_GUILD_COMMANDS=123,my-server\n", "CLEAR_GUILD_COMMANDS must be server ids"),
    ("DISCORD_TOKEN=abc\nDATABASE_URL=tonk.db\n", "DATABASE_URL must be a URL"),
    ("DISCORD_TOKEN=abc\nDISCORD_API_BASE=discord.local/api\n", "DISCORD_API_BASE must start with http"),
    ("DISCORD_TOKEN=abc\nDISCORD_GATEWAY_URL=http://x\n", "DISCORD_GATEWAY_URL must start with ws"),
    ("DISCORD_TOKEN=abc\nTONK_COMPUTER_DELAY=soon\n", "TONK_COMPUTER_DELAY must be a number"),
    ("DISCORD_TOKEN=abc\nSHARD_COUNT=two\n", "SHARD_COUNT must be a whole number"),
    ("DISCORD_TOKEN=abc\nSHARD_COUNT=0\n", "SHARD_COUNT must be a whole number"),
    ("DISCORD_TOKEN=abc\nSHARD_IDS=0\n", "SHARD_IDS needs SHARD_COUNT"),
    ("DISCORD_TOKEN=abc\nSHARD_COUNT=2\nSHARD_IDS=2\n", "SHARD_IDS must be shard numbers from 0 to 1"),
    ("DISCORD_TOKEN=abc\nSHARD_COUNT=4\nSHARD_IDS=0;1\n", "SHARD_IDS must be shard numbers"),
    ("DISCORD_TOKEN=abc\nTONK_DEAL_SEED=lucky\n", "TONK_DEAL_SEED must be a whole number"),
    ("DISCORD_TOKEN=abc\nTONK_EVENT_LOOP=tokio\n", "TONK_EVENT_LOOP must be one of uvloop, asyncio"),
    ("DISCORD_TOKEN=abc\nTONK_FONT_LAYOUT=fancy\n", "TONK_FONT_LAYOUT must be one of raqm, basic"),
    ("DISCORD_TOKEN=abc\nTONK_FONT_DIRS=/no/such/fonts\n", "TONK_FONT_DIRS must name folders"),
])
def test_a_broken_env_stops_the_bot_with_exit_2_and_says_why(tmp_path, env_text, words):
    done = run_bot(tmp_path, env_text)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was created before the settings were good


@pytest.mark.parametrize("data, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ".env is not a text file (a NUL byte on line 3)"),
    (b"DISCORD_TOKEN=abc\nLOG_LEVEL=\xff\xfeINFO\n", ".env is not UTF-8 text (line 2)"),
    (b"DISCORD_TOKEN=abc\nthis is not a setting\n", ".env, line 2: not a setting"),
    (b'DISCORD_TOKEN="abc\n', ".env, line 1: not a setting"),
])
def test_an_env_file_that_is_not_settings_is_one_line_and_exit_2(tmp_path, data, words):
    (tmp_path / ".env").write_bytes(data)
    done = run_bot(tmp_path, None)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("tonk-bot: "), done.stderr
    assert words in done.stderr and "NAME=value" in done.stderr, done.stderr
    assert done.stdout == ""
    assert not (tmp_path / "data").exists()


def test_an_env_file_is_read_as_python_dotenv_reads_it_and_the_environment_wins(tmp_path):
    from bot.config import load_env_file

    path = tmp_path / ".env"
    path.write_text("\ufeff# a comment\nexport DISCORD_TOKEN='abc'\nLOG_LEVEL=debug # loud\nDEV_GUILD_ID=\n"
                    'TONK_DATA=/srv\nDATABASE_URL="sqlite+aiosqlite:///${TONK_DATA}/tonk.db"\n\n', encoding="utf-8")
    environ = {"LOG_LEVEL": "WARNING"}
    load_env_file(path, environ)
    assert environ == {"LOG_LEVEL": "WARNING", "DISCORD_TOKEN": "abc", "DEV_GUILD_ID": "", "TONK_DATA": "/srv",
                       "DATABASE_URL": "sqlite+aiosqlite:////srv/tonk.db"}
    load_env_file(tmp_path / "absent.env", environ)  # no file: nothing to do
    with pytest.raises(ConfigError, match="cannot be read"):
        load_env_file(tmp_path, {})  # a folder, not a file


def test_settings_defaults():
    settings = load_settings({"DISCORD_TOKEN": "abc"})
    assert settings.database_url == "sqlite+aiosqlite:///data/tonk.db"
    assert settings.dev_guild_id is None and settings.log_level == "INFO"
    assert settings.api_base is None and settings.gateway_url is None
    assert settings.computer_delay == 1.0 and settings.table_edit_interval == 1.0
    assert settings.deal_seed is None and settings.event_loop is None
    assert load_settings({"DISCORD_TOKEN": "abc", "TONK_EVENT_LOOP": " AsyncIO "}).event_loop == "asyncio"
    assert load_settings({"DISCORD_TOKEN": "abc", "TONK_DEAL_SEED": "42"}).deal_seed == 42
    with pytest.raises(ConfigError):
        load_settings({})


def test_shard_settings_say_which_servers_this_process_drives():
    from bot.shards import ShardOwnership, shard_of

    settings = load_settings({"DISCORD_TOKEN": "abc", "SHARD_COUNT": "4", "SHARD_IDS": " 3, 1,1"})
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    ownership = ShardOwnership(settings.shard_count, settings.shard_ids)
    guilds = {shard: (1000 + shard) << 22 for shard in range(4)}  # (id >> 22) % 4 == shard
    assert [shard_of(guild, 4) for guild in guilds.values()] == [0, 1, 2, 3]
    assert [ownership.owns(guild) for guild in guilds.values()] == [False, True, False, True]
    assert str(ownership) == "shards 1, 3 of 4"
    for everything in (ShardOwnership(), ShardOwnership(4, None)):
        assert all(everything.owns(guild) for guild in guilds.values())
    defaults = load_settings({"DISCORD_TOKEN": "abc"})
    assert (defaults.shard_count, defaults.shard_ids) == (None, None)


def test_env_example_lists_every_setting_the_readme_documents_and_the_code_reads():
    import re
    from pathlib import Path

    from dotenv import dotenv_values

    root = Path(__file__).resolve().parent.parent
    example = dotenv_values(root / ".env.example")
    readme = (root / "README.md").read_text()
    # TONK_ENV_FILE names the file itself; TONK_TEST_DEAL_SEED is the test suite's, not the bot's
    documented = set(re.findall(r"`((?:DISCORD|DATABASE|DEV|LOG|TONK|SHARD|CLEAR|METRICS)_[A-Z_]+)`", readme)) - {"TONK_ENV_FILE",
                                                                                          "TONK_TEST_DEAL_SEED"}
    read = set(re.findall(r'"((?:DISCORD|DATABASE|DEV|LOG|TONK|SHARD|CLEAR|METRICS)_[A-Z_]+)"', (root / "bot/config.py").read_text()))
    assert set(example) == documented == read
    # copied as it is, with a token, it gives the defaults
    filled = {k: v or "" for k, v in example.items()} | {"DISCORD_TOKEN": "abc"}
    assert load_settings(filled) == load_settings({"DISCORD_TOKEN": "abc"})


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is installed only where libuv's loop runs")
def test_the_bot_runs_on_uvloop_unless_told_otherwise(monkeypatch):
    import asyncio

    import uvloop

    from bot.__main__ import event_loop_factory

    assert event_loop_factory(None) is uvloop.new_event_loop
    assert event_loop_factory("uvloop") is uvloop.new_event_loop
    assert event_loop_factory("asyncio") is None  # asyncio.Runner's default loop
    with asyncio.Runner(loop_factory=event_loop_factory(None)) as runner:
        assert isinstance(runner.get_loop(), uvloop.Loop)
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed
    assert event_loop_factory(None) is None
    with pytest.raises(ConfigError, match="uvloop is not installed"):
        event_loop_factory("uvloop")


def test_servers_to_clear_commands_in_are_read_as_ids():
    assert load_settings({"DISCORD_TOKEN": "abc"}).clear_guild_commands == ()
    assert load_settings({"DISCORD_TOKEN": "abc", "CLEAR_GUILD_COMMANDS": " 12, 34,12 "}).clear_guild_commands == (12, 34)


def test_the_fonts_folders_and_layout_are_read_as_given(tmp_path):
    defaults = load_settings({"DISCORD_TOKEN": "abc"})
    assert defaults.font_dirs is None and defaults.font_layout is None
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    settings = load_settings({"DISCORD_TOKEN": "abc", "TONK_FONT_DIRS": f" {tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'} ",
                              "TONK_FONT_LAYOUT": " Basic "})
    assert settings.font_dirs == (str(tmp_path / "a"), str(tmp_path / "b")) and settings.font_layout == "basic"
