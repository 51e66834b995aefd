"""Settings from the environment (`.env` is loaded by python-dotenv at startup).

A bad value stops the bot before it connects, with a message naming the variable.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path

from bot.store import DEFAULT_DATABASE_URL

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
EVENT_LOOPS = ("uvloop", "asyncio")
FONT_LAYOUTS = ("raqm", "basic")


class ConfigError(Exception):
    """A setting that is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    computer_delay: float = 1.0
    """Seconds a computer player waits before each play, so people can follow."""
    table_edit_interval: float = 1.0
    """Least seconds between two edits of one table message (Discord's rate limits)."""
    lobby_idle_seconds: float = 600.0
    next_deal_delay: float = 10.0
    """TONK_NEXT_DEAL_DELAY: seconds a tournament table waits after a hand (the showdown's time to be
    read) before the bot deals the next; a player's Next hand deals sooner."""
    shard_count: int | None = None
    """SHARD_COUNT: the bot's total number of shards; None lets Discord choose (one process runs them all)."""
    shard_ids: tuple[int, ...] | None = None
    """SHARD_IDS: the shards this process runs (and whose servers' tables it drives); None: all."""
    deal_seed: int | None = None
    """Seeds the bot's shuffles and cuts (for tests); None deals from a fresh random seed."""
    hand_follow_seconds: float = 840.0
    """TONK_HAND_FOLLOW_SECONDS: how long a private hand follows the game after its player's last
    click on it (Discord's tokens last 15 minutes: 14 by default; shorter for tests)."""
    looking_seconds: float = 90.0
    """TONK_LOOKING_SECONDS: a person whose private hand follows the game and who clicked at the table
    this recently gets no ping when their turn comes (their hand shows it); 0: every turn pings."""
    clear_guild_commands: tuple[int, ...] = ()
    """CLEAR_GUILD_COMMANDS: servers whose server-level commands of this bot are removed at start
    (after moving from DEV_GUILD_ID to global commands, which would otherwise show twice there)."""
    event_loop: str | None = None
    """TONK_EVENT_LOOP: "uvloop" or "asyncio"; None: uvloop where it is installed (not on Windows),
    else asyncio's own loop."""
    font_dirs: tuple[str, ...] | None = None
    """TONK_FONT_DIRS: the folders the pictures' fonts are looked for in (separated by ":"); None:
    the usual ones (README "Fonts"). An empty folder draws as a host without the Noto fonts."""
    metrics_port: int | None = None
    """METRICS_PORT: serve Prometheus metrics on this port (GET /metrics; bot/metrics.py); None: no metrics."""
    health_file: str | None = None
    """TONK_HEALTH_FILE: where the bot writes its health every few seconds, for `python -m bot health`
    (the Dockerfile's HEALTHCHECK); None: not written."""
    font_layout: str | None = None
    """TONK_FONT_LAYOUT: "basic" lays text out with Pillow's basic layout even where raqm is (as a
    host without libfribidi draws); None or "raqm": raqm where Pillow has it."""

    @property
    def log_level_number(self) -> int:
        return getattr(logging, self.log_level)


def _optional_float(environ: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}.") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low:g} and {high:g} seconds, not {raw}.")
    return value


def _shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    raw_count = environ.get("SHARD_COUNT", "").strip()
    raw_ids = environ.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: set the bot's total number of shards too.")
        return None, None
    if not raw_count.isdigit() or int(raw_count) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, at least 1, not {raw_count!r}.")
    count = int(raw_count)
    if not raw_ids:
        return count, None
    parts = [part.strip() for part in raw_ids.split(",")]
    if not all(part.isdigit() and int(part) < count for part in parts):
        raise ConfigError(
            f"SHARD_IDS must be shard numbers from 0 to {count - 1} separated by commas (e.g. 0,1), not {raw_ids!r}."
        )
    ids = tuple(sorted({int(part) for part in parts}))
    return count, ids


def _optional_digits(environ: Mapping[str, str], name: str, what: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ConfigError(f"{name} must be {what}, not {raw!r}.")
    return int(raw)


def _server_ids(environ: Mapping[str, str], name: str) -> tuple[int, ...]:
    raw = environ.get(name, "").strip()
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"{name} must be server ids (digits) separated by commas, not {raw!r}.")
    return tuple(dict.fromkeys(int(part) for part in parts))


def _font_dirs(environ: Mapping[str, str]) -> tuple[str, ...] | None:
    raw = environ.get("TONK_FONT_DIRS", "").strip()
    if not raw:
        return None
    folders = tuple(os.path.expanduser(part.strip()) for part in raw.split(os.pathsep) if part.strip())
    absent = [folder for folder in folders if not os.path.isdir(folder)]
    if absent:
        raise ConfigError(f"TONK_FONT_DIRS must name folders (separated by {os.pathsep!r}); "
                          f"{absent[0]!r} is not one.")
    return folders


def load_env_file(path: str | os.PathLike, environ: MutableMapping[str, str]) -> None:
    """Put the settings of the `.env` file at `path` into `environ`, as python-dotenv's load_dotenv
    does (a variable already set wins; no file: nothing to do), but a file that is not text, or a
    line that is no setting, is a ConfigError naming the file and the line, instead of
    python-dotenv's own warning (or a traceback) and whatever followed from a lost line."""
    from dotenv import dotenv_values
    from dotenv.parser import parse_stream

    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ConfigError(f"{name} cannot be read ({exc.strerror or exc}): fix its permissions, "
                          "or set TONK_ENV_FILE to another file.") from None
    fix = "write it as NAME=value lines in UTF-8 (copy .env.example)"
    if b"\x00" in data:
        line = data[:data.index(b"\x00")].count(b"\n") + 1
        raise ConfigError(f"{name} is not a text file (a NUL byte on line {line}): {fix}.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{name} is not UTF-8 text (line {line}): {fix}.") from None
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            raise ConfigError(f"{name}, line {binding.original.line}: not a setting: {fix}, "
                              "or begin the line with # to keep it as a comment.")
    for key, value in dotenv_values(stream=io.StringIO(text)).items():
        if key not in environ and value is not None:
            environ[key] = value


def load_settings(environ: Mapping[str, str]) -> Settings:
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is missing: put your bot's token in .env (copy .env.example) "
            "as DISCORD_TOKEN=... ."
        )
    if any(ch.isspace() for ch in token) or token.lower().startswith("bot "):
        raise ConfigError("DISCORD_TOKEN looks malformed: paste the token alone, without 'Bot ' or spaces.")
    database_url = environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    if "://" not in database_url:
        raise ConfigError(f"DATABASE_URL must be a URL like {DEFAULT_DATABASE_URL}, not {database_url!r}.")
    dev_guild_id = _optional_digits(environ, "DEV_GUILD_ID", "a server id (digits only)")
    log_level = (environ.get("LOG_LEVEL", "").strip() or "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
    api_base = environ.get("DISCORD_API_BASE", "").strip() or None
    if api_base and not api_base.startswith(("http://", "https://")):
        raise ConfigError(f"DISCORD_API_BASE must start with http:// or https://, not {api_base!r}.")
    gateway_url = environ.get("DISCORD_GATEWAY_URL", "").strip() or None
    if gateway_url and not gateway_url.startswith(("ws://", "wss://")):
        raise ConfigError(f"DISCORD_GATEWAY_URL must start with ws:// or wss://, not {gateway_url!r}.")
    shard_count, shard_ids = _shards(environ)
    deal_seed = _optional_digits(environ, "TONK_DEAL_SEED", "a whole number (or unset)")
    event_loop = environ.get("TONK_EVENT_LOOP", "").strip().lower() or None
    if event_loop is not None and event_loop not in EVENT_LOOPS:
        raise ConfigError(f"TONK_EVENT_LOOP must be one of {', '.join(EVENT_LOOPS)} (or unset), not {event_loop!r}.")
    font_layout = environ.get("TONK_FONT_LAYOUT", "").strip().lower() or None
    if font_layout is not None and font_layout not in FONT_LAYOUTS:
        raise ConfigError(f"TONK_FONT_LAYOUT must be one of {', '.join(FONT_LAYOUTS)} (or unset), not {font_layout!r}.")
    metrics_port = _optional_digits(environ, "METRICS_PORT", "a port number (1-65535; or unset)")
    if metrics_port is not None and not 1 <= metrics_port <= 65535:
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535 (or unset), not {metrics_port}.")
    health_file = environ.get("TONK_HEALTH_FILE", "").strip() or None
    return Settings(
        token=token,
        metrics_port=metrics_port,
        health_file=health_file,
        database_url=database_url,
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        api_base=api_base.rstrip("/") if api_base else None,
        gateway_url=gateway_url,
        computer_delay=_optional_float(environ, "TONK_COMPUTER_DELAY", 1.0, 0.0, 30.0),
        table_edit_interval=_optional_float(environ, "TONK_TABLE_EDIT_INTERVAL", 1.0, 0.0, 60.0),
        lobby_idle_seconds=_optional_float(environ, "TONK_LOBBY_IDLE", 600.0, 1.0, 86400.0),
        next_deal_delay=_optional_float(environ, "TONK_NEXT_DEAL_DELAY", 10.0, 0.0, 600.0),
        shard_count=shard_count,
        shard_ids=shard_ids,
        deal_seed=deal_seed,
        event_loop=event_loop,
        hand_follow_seconds=_optional_float(environ, "TONK_HAND_FOLLOW_SECONDS", 840.0, 1.0, 840.0),
        looking_seconds=_optional_float(environ, "TONK_LOOKING_SECONDS", 90.0, 0.0, 840.0),
        clear_guild_commands=_server_ids(environ, "CLEAR_GUILD_COMMANDS"),
        font_dirs=_font_dirs(environ),
        font_layout=font_layout,
    )
