"""A fake Discord on 127.0.0.1 that the real discord.py client connects to, for end-to-end tests.

    from fakediscord import FakeDiscord, running

    async def test_hello(fake_discord):              # fixture from fakediscord.pytest_plugin
        async with running(fake_discord, make_bot()):
            reply = await fake_discord.slash("alice", "tonk", "tonk new", preset="standard")
            message = await reply.original()
            await fake_discord.click("bob", message.button("Join"))

See README.md beside this file.
"""

from .interactions import CommandUnavailable, InteractionTimeout, Modal, SentInteraction
from .limits import FormErrors
from .model import (
    ADMINISTRATOR,
    ATTACH_FILES,
    DEFAULT_MEMBER_PERMISSIONS,
    EMBED_LINKS,
    MANAGE_GUILD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Button,
    Clock,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
    Select,
    SelectOption,
)
from .netguard import loopback_only
from .ratelimits import DISCORD_DEFAULT_LIMITS, RateLimitHit, RateLimiter
from .runner import BotProcess, endpoints_applied, running
from .server import BotNotConnected, FakeDiscord, LatencyStats, RequestRecord, Violation

__all__ = [
    "ADMINISTRATOR",
    "ATTACH_FILES",
    "BotNotConnected",
    "BotProcess",
    "Button",
    "Clock",
    "CommandUnavailable",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DISCORD_DEFAULT_LIMITS",
    "EMBED_LINKS",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "FormErrors",
    "InteractionTimeout",
    "LatencyStats",
    "MANAGE_GUILD",
    "Overwrite",
    "READ_MESSAGE_HISTORY",
    "SEND_MESSAGES",
    "Modal",
    "RateLimitHit",
    "RateLimiter",
    "RequestRecord",
    "Select",
    "SelectOption",
    "SentInteraction",
    "VIEW_CHANNEL",
    "Violation",
    "endpoints_applied",
    "loopback_only",
    "running",
]
