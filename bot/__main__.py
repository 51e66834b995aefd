"""`python -m bot` (and the `tonk-bot` command): read `.env`, open the database, run the bot."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord
from dotenv import load_dotenv

from bot.config import ConfigError, Settings, load_settings
from bot.endpoints import apply_endpoints

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 3


CLOSE_TIMEOUT = 8.0
"""Seconds a stop signal leaves the bot to finish its edits and log out before it quits anyway."""


async def run(settings: Settings) -> None:
    from bot.client import TonkBot
    from bot.store import open_database

    db = await open_database(settings.database_url)
    bot = TonkBot(settings=settings, db=db)
    try:
        await bot.__aenter__()
        runner = asyncio.ensure_future(bot.start(settings.token))
        loop = asyncio.get_running_loop()

        async def stop() -> None:
            # Discord may be unreachable (discord.py then retries its requests and reconnects
            # with back-off): close politely, but quit within the timeout all the same.
            try:
                await asyncio.wait_for(bot.close(), CLOSE_TIMEOUT)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - quitting anyway
                logging.getLogger(__name__).warning("could not close cleanly; quitting")
            runner.cancel()

        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(stop()))
            except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
                pass
        try:
            await runner
        except asyncio.CancelledError:
            if not runner.cancelled():
                raise
    finally:
        try:
            await asyncio.wait_for(bot.__aexit__(None, None, None), 2.0)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - quitting anyway
            pass
        await db.close()


def main() -> int:
    load_dotenv(os.environ.get("TONK_ENV_FILE", ".env"))
    try:
        settings = load_settings(os.environ)
    except ConfigError as exc:
        print(f"tonk-bot: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level_number,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for chatty in ("discord.http", "alembic"):  # the store logs its own line when it upgrades the schema
        logging.getLogger(chatty).setLevel(max(settings.log_level_number, logging.WARNING))
    apply_endpoints(settings.api_base, settings.gateway_url)
    from bot.store import DatabaseStartupError, SchemaTooNewError, describe_database

    try:
        asyncio.run(run(settings))
    except DatabaseStartupError as exc:
        print(f"tonk-bot: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except SchemaTooNewError as exc:
        print(f"tonk-bot: {describe_database(settings.database_url)}: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except discord.LoginFailure:
        print("tonk-bot: Discord rejected DISCORD_TOKEN: check the token in .env "
              "(Developer Portal → your application → Bot → Reset Token).", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        print("tonk-bot: Discord refused the intents.", file=sys.stderr)
        return EXIT_CONFIG
    except (aiohttp.ClientConnectionError, OSError) as exc:
        # Only logging in gets here: once connected, discord.py reconnects by itself.
        where = settings.api_base or "https://discord.com"
        print(f"tonk-bot: cannot reach Discord at {where} ({_reason(exc)}): check this machine's network "
              "(and DISCORD_API_BASE if set), then start the bot again.", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        pass
    return 0


def _reason(exc: BaseException) -> str:
    """The innermost cause in a few words ("Name or service not known", "Connect call failed ...")."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
