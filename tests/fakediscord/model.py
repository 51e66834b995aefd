"""The fake's world: users, guilds, channels and messages, plus the injectable clock.

Everything here is plain data that the server mutates and tests read. Messages are
live objects: a test holding one sees later edits. Payload builders produce the JSON
shapes real Discord sends, because discord.py parses them unmodified.
"""

from __future__ import annotations

import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
)
BOT_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_CHANNELS

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
"""The thread lifetimes Discord accepts (minutes without a message before a thread is archived)."""
MAX_ACTIVE_THREADS = 1000
"""Active (unarchived) threads a guild may have at once."""
FLAG_HAS_THREAD = 1 << 5


class Clock:
    """Monotonic time that tests can move forward without waiting.

    Deadlines (the 3-second ack, 15-minute tokens, rate-limit windows) are measured
    on this clock, so `advance(901)` expires every interaction token at once.
    """

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def wall(self) -> float:
        """Unix time as the fake pretends it is (used for timestamps and headers)."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self.offset += seconds


class Snowflakes:
    """Discord-shaped ids: milliseconds since 2015 in the high bits, so created_at is sane."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._counter = itertools.count()

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new id; with `shard=(shard_id, shard_count)` one of a guild on that shard (ms moved ahead a little)."""
        ms = int(self._clock.wall() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, count = shard
            ms += (shard_id - ms) % count  # (id >> 22) % count == shard_id
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).isoformat()


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"  # the language of the person's Discord client: every interaction carries it

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name.title(),
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user in a guild. Permissions come from @everyone plus the member's roles."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        if self.guild.owner_id == self.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def has(self, permissions: int) -> bool:
        return self.permissions & permissions == permissions

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data

    def __repr__(self) -> str:
        return f"<FakeMember {self.name} id={self.id}>"


@dataclass(frozen=True)
class Overwrite:
    """A channel's permission overwrite for one role (type 0) or one member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    guild: FakeGuild | None
    type: int = GUILD_TEXT
    position: int = 0
    recipient: FakeUser | None = None  # for DMs
    messages: list[FakeMessage] = field(default_factory=list)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    # a thread's (types 10, 11, 12): it lives in `parent` and takes the parent's permissions
    parent: FakeChannel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_ts: float = 0.0
    last_activity: float = 0.0
    archive_ts: float | None = None
    thread_members: set[int] = field(default_factory=set)
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def set_permissions(self, target: FakeRole | FakeMember, *, allow: int = 0, deny: int = 0) -> None:
        """Overwrite `target`'s permissions in this channel (as a channel's settings do; no
        CHANNEL_UPDATE is sent: interactions carry the resolved permissions, which is what bots read)."""
        self.overwrites[target.id] = Overwrite(target.id, 1 if isinstance(target, FakeMember) else 0, allow, deny)

    def permissions_for(self, member: FakeMember, *, implicit: bool = True) -> int:
        """`member`'s permissions here: Discord's order (@everyone's overwrite, the roles', the
        member's own), with its implicit denials (no View Channel, nothing; no Send Messages,
        no embeds or files)."""
        if self.is_thread:
            assert self.parent is not None
            value = self.parent.permissions_for(member, implicit=False)
            if not value & VIEW_CHANNEL:
                return 0
            if self.type == PRIVATE_THREAD and member.id not in self.thread_members and not value & MANAGE_THREADS:
                return 0  # a private thread shows only to its members (and those who manage threads)
            if not value & SEND_MESSAGES_IN_THREADS:  # in a thread this, not Send Messages, lets one post
                value &= ~(EMBED_LINKS | ATTACH_FILES)
            return value
        value = member.permissions
        if value == ALL_PERMISSIONS or self.guild is None:
            return value
        everyone = self.overwrites.get(self.guild.everyone.id)
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        roles = [self.overwrites[r.id] for r in member.roles if r.id in self.overwrites]
        deny = allow = 0
        for overwrite in roles:
            deny |= overwrite.deny
            allow |= overwrite.allow
        value = (value & ~deny) | allow
        own = self.overwrites.get(member.id)
        if own is not None and own.type == 1:
            value = (value & ~own.deny) | own.allow
        if not value & VIEW_CHANNEL:
            return 0
        if implicit and not value & SEND_MESSAGES:
            value &= ~(EMBED_LINKS | ATTACH_FILES)
        return value

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        last = self.messages[-1].id if self.messages else None
        if self.is_thread:
            assert self.guild is not None and self.parent is not None
            metadata: dict[str, Any] = {
                "archived": self.archived, "archive_timestamp": iso(self.archive_ts or self.created_ts),
                "auto_archive_duration": self.auto_archive_duration, "locked": self.locked,
                "create_timestamp": iso(self.created_ts),
            }
            if self.type == PRIVATE_THREAD:
                metadata["invitable"] = self.invitable
            data = {
                "id": str(self.id), "type": self.type, "guild_id": str(self.guild.id), "name": self.name,
                "parent_id": str(self.parent.id), "owner_id": str(self.owner_id), "flags": 0,
                "last_message_id": str(last) if last else None, "rate_limit_per_user": 0,
                "thread_metadata": metadata, "message_count": self.message_count,
                "member_count": min(50, len(self.thread_members)), "total_message_sent": self.message_count,
            }
            if permissions is not None:
                data["permissions"] = str(permissions)
            return data
        if self.type == DM:
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(last) if last else None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        else:
            assert self.guild is not None
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild.id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [o.payload() for o in self.overwrites.values()],
                "parent_id": None,
                "nsfw": False,
                "topic": None,
                "last_message_id": str(last) if last else None,
                "rate_limit_per_user": 0,
                "default_thread_rate_limit_per_user": 0,
                "flags": 0,
            }
            if self.type == GUILD_VOICE:
                data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    everyone: FakeRole
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    locale: str = "en-US"
    _ids: Snowflakes | None = None

    def member(self, name_or_id: str | int) -> FakeMember:
        for member in self.members.values():
            if member.id == name_or_id or member.name == name_or_id:
                return member
        raise LookupError(f"no member {name_or_id!r} in guild {self.name!r}")

    def channel(self, name_or_id: str | int) -> FakeChannel:
        if isinstance(name_or_id, str):
            name_or_id = name_or_id.lstrip("#")
        for channel in self.channels.values():
            if channel.id == name_or_id or channel.name == name_or_id:
                return channel
        raise LookupError(f"no channel {name_or_id!r} in guild {self.name!r}")

    def role(self, name_or_id: str | int) -> FakeRole:
        for role in [self.everyone, *self.roles]:
            if role.id == name_or_id or role.name == name_or_id:
                return role
        raise LookupError(f"no role {name_or_id!r} in guild {self.name!r}")

    def add_role(self, name: str, permissions: int = 0, *, managed: bool = False) -> FakeRole:
        assert self._ids is not None
        role = FakeRole(self._ids.next(), name, permissions, position=len(self.roles) + 1, managed=managed)
        self.roles.append(role)
        return role

    @property
    def threads(self) -> list[FakeChannel]:
        """The guild's threads, active or archived, oldest first."""
        return [c for c in self.channels.values() if c.is_thread]

    def add_channel(self, name: str, type: int = GUILD_TEXT) -> FakeChannel:
        """A text channel, or with `type=GUILD_VOICE` a voice channel (whose chat takes commands)."""
        assert self._ids is not None
        channel = FakeChannel(self._ids.next(), name.lstrip("#"), self, type=type, position=len(self.channels))
        self.channels[channel.id] = channel
        return channel

    def add_user(self, user: FakeUser, *, roles: list[FakeRole] | None = None) -> FakeMember:
        member = FakeMember(user, self, roles=list(roles or []))
        self.members[user.id] = member
        return member

    def payload(self, *, permissions_for: FakeMember | None = None) -> dict[str, Any]:
        """The full GUILD_CREATE payload (all members included, so no chunking is needed)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "us-west",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "features": [],
            "application_id": None,
            "roles": [r.payload() for r in [self.everyone, *self.roles]],
            "emojis": [],
            "stickers": [],
            "unavailable": False,
            "large": False,
            "lazy": True,
            "joined_at": iso(time.time()),
            "member_count": len(self.members),
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """A stored upload. `data` holds the exact bytes the sender uploaded."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def text(self, encoding: str = "utf-8") -> str:
        return self.data.decode(encoding)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True, eq=False)
class Button:
    """A button as a user sees it on a message."""

    message: FakeMessage
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: dict[str, Any] | None = None

    def __repr__(self) -> str:
        state = " disabled" if self.disabled else ""
        return f"<Button {self.label!r} custom_id={self.custom_id!r} style={self.style}{state}>"


@dataclass(frozen=True, eq=False)
class Select:
    """A select menu as a user sees it on a message (string, user, role, mentionable or channel)."""

    message: FakeMessage
    custom_id: str
    type: int
    options: tuple[SelectOption, ...]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool

    def option(self, label: str) -> SelectOption:
        for option in self.options:
            if option.label == label:
                return option
        raise LookupError(f"no option {label!r} in select {self.custom_id!r}; have {[o.label for o in self.options]}")

    def __repr__(self) -> str:
        return f"<Select {self.custom_id!r} options={[o.value for o in self.options]}>"


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, sections, containers and labels."""
    for component in components:
        yield component
        children = component.get("components")
        if children:
            yield from walk_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if child:
                yield from walk_components([child])


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it; `visible_to` set means an ephemeral for that user only."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    visible_to: int | None = None
    deleted: bool = False
    edits: int = 0
    thread: FakeChannel | None = None
    """The thread started from this message, if any."""

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while a deferred response still shows "Bot is thinking...\""""
        return bool(self.flags & FLAG_LOADING)

    def visible_for(self, user_id: int) -> bool:
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                message=self,
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                style=c.get("style", 1),
                disabled=bool(c.get("disabled", False)),
                url=c.get("url"),
                emoji=c.get("emoji"),
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                message=self,
                custom_id=c.get("custom_id", ""),
                type=c["type"],
                options=tuple(
                    SelectOption(o.get("label", ""), o.get("value", ""), o.get("description"), bool(o.get("default")))
                    for o in c.get("options", [])
                ),
                placeholder=c.get("placeholder"),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=bool(c.get("disabled", False)),
            )
            for c in walk_components(self.components)
            if c.get("type") in (3, 5, 6, 7, 8)
        ]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> Button:
        for button in self.buttons:
            if (label is None or button.label == label) and (custom_id is None or button.custom_id == custom_id):
                return button
        raise LookupError(f"no button label={label!r} custom_id={custom_id!r} on {self!r}; have {self.buttons}")

    def select(self, custom_id: str | None = None) -> Select:
        for select in self.selects:
            if custom_id is None or select.custom_id == custom_id:
                return select
        raise LookupError(f"no select custom_id={custom_id!r} on {self!r}; have {self.selects}")

    def attachment(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise LookupError(f"no attachment {filename!r} on {self!r}; have {[a.filename for a in self.attachments]}")

    @property
    def text(self) -> str:
        """Content, embed text and text displays joined: handy for `"You win" in message.text`."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [
                embed.get("title") or "",
                embed.get("description") or "",
                (embed.get("author") or {}).get("name") or "",
                (embed.get("footer") or {}).get("text") or "",
            ]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        parts += [c.get("content", "") for c in walk_components(self.components) if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def payload(self, *, include_guild: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.thread is not None:
            data["thread"] = self.thread.payload()
            data["flags"] = self.flags | FLAG_HAS_THREAD
        if include_guild and self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
            member = self.channel.guild.members.get(self.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data

    def __repr__(self) -> str:
        who = f" ephemeral-for={self.visible_to}" if self.ephemeral else ""
        text = self.text.replace("\n", " | ")
        if len(text) > 60:
            text = text[:57] + "..."
        return f"<FakeMessage id={self.id} #{self.channel.name}{who} {text!r}>"
