"""FakeDiscord: REST v10 and the gateway on 127.0.0.1, plus the users who click.

The bot under test is real, unmodified discord.py pointed here by `bot.endpoints`.
Tests drive it as guild members (`slash`, `click`, `select`, `submit_modal`), read what
each member sees (`visible`, `find_button`, `wait_for_message`), and rely on the fake to
enforce what Discord enforces, recording every breach in `violations`. The REST routes
live in rest.py and the websocket in gateway.py; this module is the API tests use.
"""

from __future__ import annotations

import asyncio
import fnmatch
import secrets
import socket
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, TypeVar

from aiohttp import web

from .gateway import INVALID_SESSION, RECONNECT, Connection, GatewayServer, GatewaySession, dumps
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    CommandUnavailable,
    InteractionTimeout,
    SentInteraction,
    base_payload,
    build_command_data,
    component_data,
    dm_payload,
    find_command,
    modal_submit_components,
    new_token,
)
from .model import (
    ADMINISTRATOR,
    BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    DM,
    MANAGE_GUILD,
    Button,
    Clock,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Select,
    Snowflakes,
    walk_components,
)
from .ratelimits import DISCORD_DEFAULT_LIMITS, RateLimiter, RateLimitHit
from .rest import API, MAX_UPLOAD_BYTES, RequestRecord, RestAPI

T = TypeVar("T")
UserLike = FakeMember | FakeUser | str
ChannelLike = FakeChannel | str | int
MessageLike = FakeMessage | int


class BotNotConnected(RuntimeError):
    """No gateway session is identified for this guild, so Discord could not deliver the event."""


@dataclass(frozen=True)
class Violation:
    """Something the bot did that real Discord refuses (or that makes an interaction fail)."""

    kind: str
    status: int
    code: int
    message: str
    route: str
    detail: str = ""
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" [interaction {self.interaction_id}]" if self.interaction_id else ""
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.kind} ({self.status}/{self.code} {self.message}) on {self.route}{where}{detail}"


@dataclass(frozen=True)
class LatencyStats:
    """Acknowledgement latency in seconds over all interactions the bot answered."""

    count: int
    p50: float
    p90: float
    p99: float
    max: float


class FakeDiscord(RestAPI, GatewayServer):
    """A Discord for one bot application, on an ephemeral port of 127.0.0.1.

    Build the world (`add_guild`, `add_member`) or use `FakeDiscord.tonk_hall()`, then
    `await start()`. Point the bot at `api_base` / `gateway_url` (see `env()`).
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "TonkBot",
        clock: Clock | None = None,
        ack_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        rate_limits: dict[str, tuple[int, float]] | None = None,
        heartbeat_interval_ms: int = 41250,
        honor_compression: bool = True,
        shards: int = 1,
    ) -> None:
        self.clock = clock or Clock()
        self.ids = Snowflakes(self.clock)
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, bot_name.lower(), bot_name, bot=True)
        self.app_owner = FakeUser(self.ids.next(), "tonk-dev", "Tonk Developer")
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.honor_compression = honor_compression
        self.recommended_shards = shards
        """What GET /gateway/bot recommends; IDENTIFY may use any count (as Discord, below 2,500 servers)."""
        self.rate_limits = RateLimiter(self.clock)
        for route, (limit, per) in (DISCORD_DEFAULT_LIMITS if rate_limits is None else rate_limits).items():
            self.rate_limits.set(route, limit, per)

        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.command_syncs = 0

        self.interactions: dict[int, SentInteraction] = {}
        self._by_token: dict[str, SentInteraction] = {}
        self._acking: set[int] = set()
        self._late: set[int] = set()
        self._reported_unacked: set[int] = set()
        self.violations: list[Violation] = []
        self.thread_requests: list[tuple[str, dict[str, Any]]] = []
        """(route, body) of every thread the bot started: tests hold the bodies against Discord's schema."""
        self.violations_allowed = False
        self.requests: list[RequestRecord] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.gateway_queries: list[dict[str, str]] = []
        self.identify_count = 0
        self.heartbeats = 0
        self._rest_outage: tuple[int, str] | None = None
        self._slow: tuple[float, str] | None = None
        self.gateway_refused = False

        self._connections: set[Connection] = set()
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ---------------------------------------------------------------- world

    @classmethod
    def tonk_hall(cls, **kwargs: Any) -> FakeDiscord:
        """Guild "Tonk Hall" with #tonk and #lobby; alice, bob, carol, dave; admin has Manage Server."""
        fake = cls(**kwargs)
        guild = fake.add_guild("Tonk Hall", channels=("tonk", "lobby"))
        for name in ("alice", "bob", "carol", "dave"):
            fake.add_member(guild, name)
        fake.add_member(guild, "admin", permissions=MANAGE_GUILD, role_name="Moderators")
        return fake

    def add_user(self, name: str, *, global_name: str | None = None, bot: bool = False) -> FakeUser:
        user = FakeUser(self.ids.next(), name, global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, channels: Iterable[str] = ("general",), owner: str = "owner",
                  shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild owned by a separate member `owner` (owners bypass every permission check).

        `shard=(shard_id, shard_count)` picks an id that Discord would put on that shard.
        """
        guild_id = self.ids.next(shard=shard)
        owner_name = owner if not self._user_named(owner) else f"{owner}{len(self.guilds) + 1}"
        owner_user = self.add_user(owner_name)
        everyone = FakeRole(guild_id, "@everyone", DEFAULT_MEMBER_PERMISSIONS)
        guild = FakeGuild(guild_id, name, owner_user.id, everyone, _ids=self.ids)
        self.guilds[guild.id] = guild
        guild.add_user(owner_user)
        bot_role = guild.add_role(self.bot_user.global_name or self.bot_user.name, BOT_PERMISSIONS, managed=True)
        guild.add_user(self.bot_user, roles=[bot_role])
        for channel in channels:
            guild.add_channel(channel)
        return guild

    def add_member(
        self,
        guild: FakeGuild | None,
        name: str,
        *,
        permissions: int = 0,
        roles: Iterable[FakeRole] = (),
        role_name: str | None = None,
    ) -> FakeMember:
        """Adds user `name` to `guild`; extra `permissions` come through a role of their own."""
        guild = guild or self.guild
        user = self._user_named(name) or self.add_user(name)
        member_roles = list(roles)
        if permissions:
            member_roles.append(guild.add_role(role_name or f"{name}-perms", permissions))
        return guild.add_user(user, roles=member_roles)

    def _user_named(self, name: str) -> FakeUser | None:
        return next((u for u in self.users.values() if u.name == name), None)

    @property
    def guild(self) -> FakeGuild:
        return next(iter(self.guilds.values()))

    @property
    def default_channel(self) -> FakeChannel:
        return next(iter(self.guild.channels.values()))

    def user(self, name_or_id: str | int) -> FakeUser:
        for user in self.users.values():
            if user.id == name_or_id or user.name == name_or_id:
                return user
        raise LookupError(f"no user {name_or_id!r}")

    def member(self, user: UserLike, guild: FakeGuild | None = None) -> FakeMember:
        if isinstance(user, FakeMember):
            return user
        guild = guild or self.guild
        return guild.member(user.id if isinstance(user, FakeUser) else user)

    def channel(self, channel: ChannelLike | None = None, guild: FakeGuild | None = None) -> FakeChannel:
        if channel is None:
            return self.default_channel
        if isinstance(channel, FakeChannel):
            return channel
        if isinstance(channel, int) and channel in self.dm_channels:
            return self.dm_channels[channel]
        for g in [guild] if guild else self.guilds.values():
            try:
                return g.channel(channel)
            except LookupError:
                continue
        raise LookupError(f"no channel {channel!r}")

    def message(self, message: MessageLike) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        try:
            return self.messages[int(message)]
        except KeyError:
            raise LookupError(f"no message {message!r}") from None

    def dm_channel(self, user: UserLike) -> FakeChannel | None:
        user_id = self._user_id(user)
        return next((c for c in self.dm_channels.values() if c.recipient and c.recipient.id == user_id), None)

    def _user_id(self, user: UserLike) -> int:
        if isinstance(user, (FakeMember, FakeUser)):
            return user.id
        return self.user(user).id

    def store_attachment(
        self,
        filename: str,
        data: bytes,
        *,
        content_type: str | None = None,
        description: str | None = None,
        channel_id: int = 0,
    ) -> FakeAttachment:
        attachment_id = self.ids.next()
        url = f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}" if self.port else ""
        attachment = FakeAttachment(attachment_id, filename, data, content_type, description, url)
        self.attachments[attachment.id] = attachment
        return attachment

    # ---------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        assert self.port is not None, "start() the fake first"
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        assert self.port is not None, "start() the fake first"
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """The environment the production entry point reads to find Discord."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=MAX_UPLOAD_BYTES * 2, middlewares=[self._middleware])
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        return self

    async def stop(self) -> None:
        for connection in list(self._connections):
            connection.closed_by_server = True
            await connection.ws.close(code=1001, message=b"fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---------------------------------------------------------------- waiting

    def _notify(self) -> None:
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(self, predicate: Callable[[], T], *, timeout: float = 5.0, what: str | None = None) -> T:
        """Returns predicate()'s first truthy value; re-checked on every change (and every 50 ms)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "".join(f"\n  {v}" for v in self.violations[-5:])
                raise InteractionTimeout(
                    f"timed out after {timeout}s waiting for {what or predicate}"
                    + (f"\nviolations so far:{recent}" if recent else "")
                )
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 0.05))
            except asyncio.TimeoutError:
                pass

    @property
    def bot_ready(self) -> bool:
        """A live session has received READY and every GUILD_CREATE."""
        return any(s.alive and s.ready and s.connected for s in self.sessions.values())

    def shard_sessions(self, shard_id: int | None = None) -> list[GatewaySession]:
        """Connected, ready sessions (of one shard id), oldest first."""
        return sorted((s for s in self.sessions.values() if s.alive and s.ready and s.connected
                       and (shard_id is None or s.shard[0] == shard_id)), key=lambda s: s.identified_at)

    async def wait_for_bot(self, *, identifies: int | None = None, timeout: float = 15.0) -> None:
        """Waits until the bot is connected (and, with `identifies`, has IDENTIFYed that many times)."""
        await self.wait_for(
            lambda: self.bot_ready and (identifies is None or self.identify_count >= identifies),
            timeout=timeout,
            what="the bot to connect to the gateway",
        )

    async def wait_for_commands(self, *names: str, guild: FakeGuild | None = None, timeout: float = 10.0) -> None:
        def synced() -> bool:
            have = {c["name"] for c in self.commands(guild)}
            return all(n in have for n in names)

        await self.wait_for(synced, timeout=timeout, what=f"commands {names} to be synced")

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """Synced commands a member of `guild` can see (guild-scoped first, then global)."""
        scoped = self.guild_commands.get(guild.id, []) if guild else []
        return [*scoped, *self.global_commands]

    # ---------------------------------------------------------------- what users see

    def visible(self, user: UserLike, channel: ChannelLike | None = None) -> list[FakeMessage]:
        """The channel's messages plus `user`'s own ephemerals, oldest first (DMs: only their recipient)."""
        user_id = self._user_id(user)
        channel = self.channel(channel)
        if channel.type == DM and (channel.recipient is None or channel.recipient.id != user_id):
            return []
        return [m for m in channel.messages if m.visible_for(user_id)]

    def last_message(self, user: UserLike, channel: ChannelLike | None = None) -> FakeMessage | None:
        messages = self.visible(user, channel)
        return messages[-1] if messages else None

    def find_button(
        self,
        user: UserLike,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        channel: ChannelLike | None = None,
    ) -> Button:
        """The newest button `user` can see matching label / custom_id (custom_id may be a prefix with '*')."""
        for message in reversed(self.visible(user, channel)):
            for button in message.buttons:
                if _matches(button.label, label) and _matches(button.custom_id, custom_id):
                    return button
        raise LookupError(f"{_name(user)} sees no button label={label!r} custom_id={custom_id!r}")

    def find_select(self, user: UserLike, custom_id: str | None = None, *, channel: ChannelLike | None = None) -> Select:
        for message in reversed(self.visible(user, channel)):
            for select in message.selects:
                if _matches(select.custom_id, custom_id):
                    return select
        raise LookupError(f"{_name(user)} sees no select custom_id={custom_id!r}")

    async def wait_for_message(
        self,
        user: UserLike,
        channel: ChannelLike | None = None,
        *,
        contains: str | None = None,
        where: Callable[[FakeMessage], bool] | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The newest message `user` sees whose text contains `contains` and satisfies `where`."""

        def find() -> FakeMessage | None:
            for message in reversed(self.visible(user, channel)):
                if message.loading:
                    continue
                if contains is not None and contains not in message.text:
                    continue
                if where is not None and not where(message):
                    continue
                return message
            return None

        return await self.wait_for(find, timeout=timeout, what=f"{_name(user)} to see a message containing {contains!r}")

    async def wait_for_button(
        self,
        user: UserLike,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        channel: ChannelLike | None = None,
        enabled: bool | None = True,
        timeout: float = 5.0,
    ) -> Button:
        def find() -> Button | None:
            try:
                button = self.find_button(user, label, custom_id=custom_id, channel=channel)
            except LookupError:
                return None
            if enabled is not None and button.disabled == enabled:
                return None
            return button

        return await self.wait_for(find, timeout=timeout, what=f"{_name(user)} to see button {label or custom_id!r}")

    # ---------------------------------------------------------------- users act

    async def slash(
        self,
        user: UserLike,
        channel: ChannelLike | None,
        command: str,
        /,
        *,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
        **values: Any,
    ) -> SentInteraction:
        """`user` runs `/command` ("tonk new") in `channel` with options as keyword arguments.

        Raises CommandUnavailable where the Discord client would not let the user send it.
        Option values: str/int/float/bool, a member (or name) for user options, a channel
        (or name), a role (or name), or `(filename, bytes)` for attachments.
        """
        channel = self.channel(channel)
        member = self.member(user, channel.guild)
        words = command.strip().lstrip("/").split()
        definition = self._command(channel.guild, words[0])
        self._check_command_permission(member, definition)
        data = build_command_data(self, definition, words[1:], member, {**(options or {}), **values})
        return await self._send_interaction(APPLICATION_COMMAND, member, channel, data, command=" ".join(words),
                                            locale=locale)

    async def slash_dm(self, user: UserLike, command: str, /, *, old_client: bool = False,
                       **values: Any) -> SentInteraction:
        """`user` runs `/command` in their DM with the bot. Raises CommandUnavailable if the command's
        `contexts` leave out bot DMs (1), as the Discord client does; `old_client=True` sends it
        anyway, like a client that still shows an older registration of the command."""
        account = self.user(user)
        words = command.strip().lstrip("/").split()
        definition = self._command(None, words[0])
        contexts = definition.get("contexts")
        allowed = (1 in contexts) if contexts is not None else definition.get("dm_permission", True)
        if not allowed and not old_client:
            raise CommandUnavailable(f"/{words[0]} is not offered in DMs (contexts {contexts})")
        channel = self.dm_channel(account)
        if channel is None:
            channel = FakeChannel(self.ids.next(), f"dm-{account.name}", None, type=DM, recipient=account)
            self.dm_channels[channel.id] = channel
        data = build_command_data(self, definition, words[1:], None, values)  # type: ignore[arg-type]
        sessions = [s for s in self.sessions.values() if s.alive and s.ready]
        if not sessions:
            raise BotNotConnected("no bot session for a DM")
        session = max(sessions, key=lambda s: (s.connected, s.identified_at))
        interaction_id, token = self.ids.next(), new_token()
        payload = dm_payload(self, interaction_id=interaction_id, token=token, type=APPLICATION_COMMAND,
                             user=account, channel=channel, data=data)
        interaction = SentInteraction(
            fake=self, id=interaction_id, token=token, type=APPLICATION_COMMAND, user=account, channel=channel,
            payload=payload, sent_at=self.clock.now(), sent_perf=time.perf_counter(), command=" ".join(words),
        )
        self.interactions[interaction.id] = interaction
        self._by_token[token] = interaction
        await session.dispatch("INTERACTION_CREATE", payload)
        return interaction

    async def autocomplete(
        self, user: UserLike, channel: ChannelLike | None, command: str, focused: str, /, **values: Any
    ) -> SentInteraction:
        """`user` is typing option `focused` of `/command`; await `.ack()` then read `.choices`."""
        channel = self.channel(channel)
        member = self.member(user, channel.guild)
        words = command.strip().lstrip("/").split()
        definition = self._command(channel.guild, words[0])
        values.setdefault(focused, "")
        data = build_command_data(self, definition, words[1:], member, values, focused=focused)
        return await self._send_interaction(AUTOCOMPLETE, member, channel, data, command=" ".join(words))

    async def click(self, user: UserLike, message: MessageLike | Button, custom_id: str | None = None) -> SentInteraction:
        """`user` clicks the button `custom_id` on `message` (or pass a Button from `find_button`)."""
        if isinstance(message, Button):
            custom_id = custom_id or message.custom_id
            message = message.message
        msg = self.message(message)
        member = self._member_seeing(user, msg)
        component = self._component(msg, custom_id)
        if component.get("type") != 2:
            raise CommandUnavailable(f"{custom_id!r} on {msg!r} is not a button")
        if component.get("style") == 5 or component.get("url"):
            raise CommandUnavailable(f"{custom_id!r} is a link button; Discord sends no interaction")
        if component.get("disabled"):
            raise CommandUnavailable(f"button {component.get('label')!r} ({custom_id!r}) is disabled")
        data = component_data(component, None, self, member)
        return await self._send_interaction(MESSAGE_COMPONENT, member, msg.channel, data, source=msg)

    async def select(
        self,
        user: UserLike,
        message: MessageLike | Select,
        custom_id: str | None = None,
        values: Iterable[Any] = (),
    ) -> SentInteraction:
        """`user` picks `values` in the select `custom_id` (option values; labels also accepted)."""
        if isinstance(message, Select):
            custom_id = custom_id or message.custom_id
            message = message.message
        msg = self.message(message)
        member = self._member_seeing(user, msg)
        component = self._component(msg, custom_id)
        kind = component.get("type")
        if kind not in (3, 5, 6, 7, 8):
            raise CommandUnavailable(f"{custom_id!r} on {msg!r} is not a select")
        if component.get("disabled"):
            raise CommandUnavailable(f"select {custom_id!r} is disabled")
        chosen = list(values)
        if kind == 3:
            options = component.get("options") or []
            by_label = {o.get("label"): o.get("value") for o in options}
            known = {o.get("value") for o in options}
            chosen = [v if v in known else by_label.get(v, v) for v in chosen]
            bad = [v for v in chosen if v not in known]
            if bad:
                raise CommandUnavailable(f"select {custom_id!r} has no options {bad}; have {sorted(known)}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(chosen) <= high:
            raise CommandUnavailable(f"select {custom_id!r} takes {low}..{high} values, got {len(chosen)}")
        data = component_data(component, chosen, self, member)
        return await self._send_interaction(MESSAGE_COMPONENT, member, msg.channel, data, source=msg)

    async def submit_modal(self, user: UserLike, opened_by: SentInteraction, values: dict[str, str]) -> SentInteraction:
        """`user` fills the modal that `opened_by`'s response showed and presses Submit."""
        modal = opened_by.modal
        if modal is None:
            raise CommandUnavailable(f"{opened_by!r} did not open a modal")
        member = self.member(user, opened_by.channel.guild)
        if member.id != opened_by.user.id:
            raise CommandUnavailable("only the user who opened a modal can submit it")
        data = {"custom_id": modal.custom_id, "components": modal_submit_components(modal, values)}
        return await self._send_interaction(MODAL_SUBMIT, member, opened_by.channel, data, source=opened_by.source_message)

    async def say(self, user: UserLike, channel: ChannelLike | None, content: str) -> FakeMessage:
        """`user` posts an ordinary message (dispatched as MESSAGE_CREATE)."""
        channel = self.channel(channel)
        author = self.member(user, channel.guild).user if channel.guild else self.user(_name(user))
        message = FakeMessage(self.ids.next(), channel, author, content=content, created_at=self.clock.wall())
        await self._add_message(message)
        return message

    def _member_seeing(self, user: UserLike, message: FakeMessage) -> FakeMember:
        member = self.member(user, message.channel.guild)
        if not message.visible_for(member.id):
            raise CommandUnavailable(f"{member.name} cannot see {message!r}")
        return member

    def _component(self, message: FakeMessage, custom_id: str | None) -> dict[str, Any]:
        for component in walk_components(message.components):
            if component.get("custom_id") == custom_id and component.get("type") not in (1, 9, 17):
                return component
        have = [c.get("custom_id") for c in walk_components(message.components) if c.get("custom_id")]
        raise LookupError(f"no component {custom_id!r} on {message!r}; have {have}")

    def _command(self, guild: FakeGuild | None, name: str) -> dict[str, Any]:
        definition = find_command(self.commands(guild), name)
        if definition is None:
            have = sorted(c["name"] for c in self.commands(guild))
            raise CommandUnavailable(f"/{name} is not synced; the bot synced {have}")
        return definition

    @staticmethod
    def _check_command_permission(member: FakeMember, definition: dict[str, Any]) -> None:
        required = definition.get("default_member_permissions")
        if required is None or member.permissions & ADMINISTRATOR:
            return
        if int(required) == 0 or not member.has(int(required)):
            raise CommandUnavailable(f"{member.name} lacks permissions {required} for /{definition['name']}")

    def _session_for(self, guild: FakeGuild) -> GatewaySession:
        """The newest live session for the guild's shard; a disconnected one buffers, as Discord's do."""
        sessions = [s for s in self.sessions.values() if s.alive and s.ready and s.serves(guild.id)]
        if not sessions:
            raise BotNotConnected(f"no bot session serves guild {guild.name!r}")
        return max(sessions, key=lambda s: (s.connected, s.identified_at))

    async def _send_interaction(
        self,
        type: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        command: str | None = None,
        source: FakeMessage | None = None,
        locale: str | None = None,
    ) -> SentInteraction:
        assert channel.guild is not None
        locale = locale or member.user.locale
        session = self._session_for(channel.guild)
        interaction_id = self.ids.next()
        token = new_token()
        payload = base_payload(
            self, interaction_id=interaction_id, token=token, type=type, member=member,
            channel=channel, data=data, locale=locale,
        )
        if source is not None:
            payload["message"] = source.payload()
        interaction = SentInteraction(
            fake=self, id=interaction_id, token=token, type=type, user=member, channel=channel,
            payload=payload, sent_at=self.clock.now(), sent_perf=time.perf_counter(),
            command=command, source_message=source,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[token] = interaction
        await session.dispatch("INTERACTION_CREATE", payload)
        return interaction

    # ---------------------------------------------------------------- time and gateway control

    def advance_time(self, seconds: float) -> None:
        """Moves the fake clock (ack deadlines, token expiry, rate-limit windows) forward."""
        self.clock.advance(seconds)
        self._notify()

    async def reconnect_gateway(self) -> None:
        """Sends op 7 RECONNECT on every live socket; discord.py should RESUME."""
        for session in self.sessions.values():
            if session.connection is not None:
                await session.connection.send(dumps({"op": RECONNECT, "d": None, "s": None, "t": None}))

    async def delete_message(self, message: "MessageLike") -> None:
        """Someone (a moderator) deletes a message in its channel; the bot hears MESSAGE_DELETE."""
        await self._delete(self.message(message))

    async def invalid_session(self, resumable: bool = False) -> None:
        """Sends op 9 INVALID_SESSION on every live socket; `resumable` is its `d`: may the client
        RESUME? A session that may not is over (what it buffered is lost): the client must wait 1-5 s
        and IDENTIFY again, as Discord asks."""
        for session in list(self.sessions.values()):
            if session.connection is not None:
                if not resumable:
                    session.alive = False
                await session.connection.send(dumps({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None}))

    async def drop_gateway(self, code: int = 4000) -> None:
        """Closes every gateway socket with `code` (4000: unknown error, resumable)."""
        for connection in list(self._connections):
            connection.closed_by_server = True
            await connection.ws.close(code=code, message=b"dropped by test")

    async def gateway_outage(self, code: int = 4000) -> None:
        """Discord's gateway goes down: every socket closes with `code` and no new one opens (the
        upgrade answers 503) until `gateway_back()`; the sessions stay resumable meanwhile."""
        self.gateway_refused = True
        await self.drop_gateway(code)

    def gateway_back(self) -> None:
        self.gateway_refused = False
        self._notify()

    def rest_outage(self, status: int = 503, routes: str = "*") -> None:
        """Discord's REST answers `status` (500, 502, 503, 504) to every request whose route matches
        the glob `routes` ("PATCH /channels/*", "* /webhooks/*": method and route template), until
        `rest_back()`. Interaction callbacks are spared unless `routes` names them: on Discord's bad
        days the click's answer usually still lands while message edits fail."""
        if status not in (500, 502, 503, 504):
            raise ValueError(f"an outage answers 500, 502, 503 or 504, not {status}")
        self._rest_outage = (status, routes)

    def rest_back(self) -> None:
        """The REST outage is over."""
        self._rest_outage = None
        self._notify()

    def slow_api(self, seconds: float, routes: str = "*") -> None:
        """Discord's API slows down: every request whose route matches the glob `routes` is done on
        arrival (an interaction's answer counts when it arrives, as Discord's do) but its response
        comes `seconds` later, until `api_fast()`."""
        self._slow = (seconds, routes)

    def api_fast(self) -> None:
        self._slow = None
        self._notify()

    def slowness_for(self, route: str) -> float:
        if self._slow is None:
            return 0.0
        seconds, pattern = self._slow
        return seconds if fnmatch.fnmatchcase(route, pattern) else 0.0

    def rest_outage_for(self, route: str) -> int | None:
        """The status an outage answers `route` with now, if any."""
        if self._rest_outage is None:
            return None
        status, pattern = self._rest_outage
        if "/callback" in route and "/callback" not in pattern:
            return None
        return status if fnmatch.fnmatchcase(route, pattern) else None

    # ---------------------------------------------------------------- violations and metrics

    def _violate(self, kind: str, status: int, code: int, message: str, route: str, detail: str = "",
                 interaction: SentInteraction | None = None) -> None:
        self.violations.append(Violation(kind, status, code, message, route, detail, interaction.id if interaction else None))
        if interaction is not None:
            interaction.response_errors.append(f"{kind}: {detail or message}")

    def unacknowledged(self) -> list[SentInteraction]:
        """Interactions past the ack deadline that the bot never answered (users saw "interaction failed")."""
        return [
            i for i in self.interactions.values()
            if not i.acked and i.age() > self.ack_deadline
        ]

    def check_interactions(self) -> None:
        """Records a `not_acknowledged` violation for each interaction that failed for its user."""
        for interaction in self.unacknowledged():
            if interaction.id in self._reported_unacked or interaction.id in self._late:
                continue
            self._reported_unacked.add(interaction.id)
            self._violate("not_acknowledged", 0, 0, "This interaction failed", "INTERACTION_CREATE",
                          f"{interaction!r} got no response within {self.ack_deadline}s", interaction)

    async def settle(self, timeout: float | None = None) -> None:
        """Waits until every interaction is answered or past its deadline (bounded by real time)."""
        timeout = self.ack_deadline + 0.5 if timeout is None else timeout
        try:
            await self.wait_for(
                lambda: all(i.acked or i.age() > self.ack_deadline or i.id in self._late for i in self.interactions.values()),
                timeout=timeout,
                what="pending interactions to settle",
            )
        except InteractionTimeout:
            pass
        self.check_interactions()

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Removes and returns the violations (of `kind`), for tests that break limits on purpose."""
        self.check_interactions()
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def allow_violations(self) -> None:
        """Opts this fake out of the teardown check (the test breaks rules on purpose)."""
        self.violations_allowed = True

    def assert_no_violations(self) -> None:
        self.check_interactions()
        if self.violations:
            lines = "\n  ".join(str(v) for v in self.violations)
            raise AssertionError(f"the bot broke Discord's rules {len(self.violations)} time(s):\n  {lines}")

    @property
    def rate_limit_hits(self) -> list[RateLimitHit]:
        """Every 429 served (RateLimitHit records)."""
        return self.rate_limits.hits

    @property
    def ack_latencies(self) -> list[float]:
        """Seconds from sending INTERACTION_CREATE to receiving the accepted initial callback."""
        return [i.ack_latency for i in self.interactions.values() if i.ack_latency is not None]

    def ack_latency_stats(self) -> LatencyStats:
        values = sorted(self.ack_latencies)
        if not values:
            return LatencyStats(0, 0.0, 0.0, 0.0, 0.0)
        if len(values) == 1:
            return LatencyStats(1, values[0], values[0], values[0], values[0])
        q = statistics.quantiles(values, n=100, method="inclusive")
        return LatencyStats(len(values), q[49], q[89], q[98], values[-1])

    def requests_to(self, route: str) -> list[RequestRecord]:
        """Requests whose route matches `route` ("PATCH /channels/{channel_id}/messages/{message_id}")."""
        return [r for r in self.requests if r.route == route]


def _matches(value: str | None, wanted: str | None) -> bool:
    if wanted is None:
        return True
    if value is None:
        return False
    if wanted.endswith("*"):
        return value.startswith(wanted[:-1])
    return value == wanted


def _name(user: UserLike) -> str:
    return user if isinstance(user, str) else user.name
