"""Interactions the fake users send, and the record of how the bot answered each one.

`SentInteraction` is the handle `slash()`, `click()` and `select()` return: await its
`ack()` / `original()` / `followup()` to see what the bot did, read `ack_latency`.
The builders here turn "alice runs /tonk new preset:standard" into the exact
INTERACTION_CREATE payload discord.py's CommandTree and ViewStore expect.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import DEFAULT_MEMBER_PERMISSIONS, FakeAttachment, FakeChannel, FakeMember, FakeMessage, FakeRole, FakeUser, walk_components

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class CommandUnavailable(LookupError):
    """The Discord client would not let this user send this command (unknown, not permitted, bad options)."""


class InteractionTimeout(AssertionError):
    """The bot did not do what the test waited for in time."""


@dataclass(frozen=True)
class Modal:
    """A modal the bot opened (callback type 9), as the user sees it."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    @property
    def text_inputs(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 4]


@dataclass(eq=False)
class SentInteraction:
    """One INTERACTION_CREATE the fake sent, and everything the bot did with it."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user: FakeMember
    channel: FakeChannel
    payload: dict[str, Any]
    sent_at: float  # fake clock
    sent_perf: float  # real perf_counter, for latency
    command: str | None = None  # "tonk new" for application commands
    source_message: FakeMessage | None = None  # the message a component sat on
    response_type: int | None = None
    acked_at: float | None = None
    ack_latency: float | None = None
    original_message: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: Modal | None = None
    choices: list[dict[str, Any]] | None = None
    response_errors: list[str] = field(default_factory=list)

    @property
    def acked(self) -> bool:
        return self.response_type is not None

    def age(self) -> float:
        return self.fake.clock.now() - self.sent_at

    async def ack(self, timeout: float = 5.0) -> int:
        """Waits for the initial response; returns its callback type (4, 5, 6, 7, 8 or 9)."""
        await self.fake.wait_for(lambda: self.acked, timeout=timeout, what=f"an acknowledgement of {self}")
        assert self.response_type is not None
        return self.response_type

    async def original(self, timeout: float = 5.0, *, loaded: bool = True) -> FakeMessage:
        """The message the response created or updated; with `loaded`, waits past "thinking..."."""

        def ready() -> FakeMessage | None:
            message = self.original_message
            if message is None or (loaded and message.loading):
                return None
            return message

        return await self.fake.wait_for(ready, timeout=timeout, what=f"the original response of {self}")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> FakeMessage:
        """The index-th followup message (a followup that filled a deferred response counts)."""
        return await self.fake.wait_for(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout=timeout,
            what=f"followup #{index} of {self}",
        )

    async def modal_shown(self, timeout: float = 5.0) -> Modal:
        return await self.fake.wait_for(lambda: self.modal, timeout=timeout, what=f"a modal from {self}")

    def __repr__(self) -> str:
        what = self.command or self.payload.get("data", {}).get("custom_id") or "?"
        return f"<SentInteraction {self.id} type={self.type} {what!r} by {self.user.name} response={self.response_type}>"


def new_token() -> str:
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)


def base_payload(
    fake: FakeDiscord,
    *,
    interaction_id: int,
    token: str,
    type: int,
    member: FakeMember,
    channel: FakeChannel,
    data: dict[str, Any],
    locale: str,
) -> dict[str, Any]:
    guild = channel.guild
    assert guild is not None, "interactions are sent in guild channels"
    bot_member = guild.members.get(fake.bot_user.id)
    app_permissions = channel.permissions_for(bot_member) if bot_member else 0
    return {
        "id": str(interaction_id),
        "application_id": str(fake.application_id),
        "type": type,
        "data": data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "channel_id": str(channel.id),
        "channel": channel.payload(permissions=channel.permissions_for(member)),
        "member": member.payload(with_permissions=True),
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "guild_locale": guild.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


def dm_payload(fake: FakeDiscord, *, interaction_id: int, token: str, type: int, user, channel: FakeChannel,
               data: dict[str, Any]) -> dict[str, Any]:
    """An interaction in the user's DM with the bot: `user` instead of `member`, no guild, context 1."""
    return {
        "id": str(interaction_id),
        "application_id": str(fake.application_id),
        "type": type,
        "data": data,
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "user": user.payload(),
        "token": token,
        "version": 1,
        "app_permissions": str(DEFAULT_MEMBER_PERMISSIONS),
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"1": str(user.id)},
        "context": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


@dataclass
class Resolved:
    """The `resolved` map Discord sends with snowflake-typed options."""

    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    attachments: dict[str, Any] = field(default_factory=dict)

    def add_user(self, user: FakeUser | FakeMember) -> str:
        if isinstance(user, FakeMember):
            self.users[str(user.id)] = user.user.payload()
            self.members[str(user.id)] = user.payload(with_user=False, with_permissions=True)
        else:
            self.users[str(user.id)] = user.payload()
        return str(user.id)

    def payload(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v}


def find_command(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    for command in commands:
        if command.get("name") == name and command.get("type", 1) == 1:
            return command
    return None


def build_command_data(
    fake: FakeDiscord,
    command: dict[str, Any],
    path: list[str],
    member: FakeMember,
    values: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """Walks `path` (subcommand group / subcommand names) and converts `values` by option type."""
    resolved = Resolved()
    options_def: list[dict[str, Any]] = command.get("options") or []
    chain: list[dict[str, Any]] = []
    for name in path:
        sub = next((o for o in options_def if o.get("name") == name and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            have = [o["name"] for o in options_def if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise CommandUnavailable(f"/{command['name']} has no subcommand {name!r} here; have {have}")
        chain.append(sub)
        options_def = sub.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options_def):
        have = [o["name"] for o in options_def]
        raise CommandUnavailable(f"/{command['name']} {' '.join(path)} needs a subcommand; have {have}")

    leaf_options: list[dict[str, Any]] = []
    by_name = {o["name"]: o for o in options_def}
    unknown = set(values) - set(by_name)
    if unknown:
        raise CommandUnavailable(f"unknown options {sorted(unknown)}; have {sorted(by_name)}")
    for option in options_def:
        name = option["name"]
        if name not in values:
            if option.get("required") and name != focused:
                raise CommandUnavailable(f"missing required option {name!r}")
            continue
        item: dict[str, Any] = {"name": name, "type": option["type"]}
        if name == focused:
            item["value"] = str(values[name])
            item["focused"] = True
        else:
            item["value"] = convert_option(fake, option, values[name], member, resolved)
        leaf_options.append(item)

    options: list[dict[str, Any]] = leaf_options
    for sub in reversed(chain):
        options = [{"name": sub["name"], "type": sub["type"], "options": options}]

    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if resolved.payload():
        data["resolved"] = resolved.payload()
    return data


def convert_option(fake: FakeDiscord, option: dict[str, Any], value: Any, member: FakeMember, resolved: Resolved) -> Any:
    kind = option["type"]
    name = option["name"]
    guild = member.guild
    if kind in (STRING, INTEGER, NUMBER):
        if kind == STRING:
            value = str(value)
            low, high = option.get("min_length"), option.get("max_length")
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise CommandUnavailable(f"option {name!r}: length of {value!r} outside [{low}, {high}]")
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise CommandUnavailable(f"option {name!r} needs a number, got {value!r}")
            if kind == INTEGER and int(value) != value:
                raise CommandUnavailable(f"option {name!r} needs an integer, got {value!r}")
            value = int(value) if kind == INTEGER else float(value)
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise CommandUnavailable(f"option {name!r}: {value!r} outside [{low}, {high}]")
        choices = option.get("choices")
        if choices:
            allowed = [c["value"] for c in choices]
            if value not in allowed:
                by_label = {c["name"]: c["value"] for c in choices}
                if value in by_label:
                    return by_label[value]
                raise CommandUnavailable(f"option {name!r}: {value!r} is not one of the choices {allowed}")
        return value
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise CommandUnavailable(f"option {name!r} needs a bool, got {value!r}")
        return value
    if kind == USER or (kind == MENTIONABLE and not isinstance(value, FakeRole)):
        if isinstance(value, str):
            value = guild.member(value)
        if not isinstance(value, (FakeMember, FakeUser)):
            raise CommandUnavailable(f"option {name!r} needs a member, got {value!r}")
        return resolved.add_user(value)
    if kind in (ROLE, MENTIONABLE):
        if isinstance(value, str):
            value = guild.role(value)
        resolved.roles[str(value.id)] = value.payload()
        return str(value.id)
    if kind == CHANNEL:
        if isinstance(value, str):
            value = guild.channel(value)
        allowed_types = option.get("channel_types")
        if allowed_types and value.type not in allowed_types:
            raise CommandUnavailable(f"option {name!r}: channel type {value.type} not in {allowed_types}")
        data = value.payload(permissions=member.permissions)
        resolved.channels[str(value.id)] = {
            k: data[k] for k in ("id", "name", "type", "permissions", "parent_id", "flags") if k in data
        }
        return str(value.id)
    if kind == ATTACHMENT:
        if isinstance(value, tuple):
            filename, content = value
            value = fake.store_attachment(filename, content)
        if not isinstance(value, FakeAttachment):
            raise CommandUnavailable(f"option {name!r} needs (filename, bytes) or a FakeAttachment")
        resolved.attachments[str(value.id)] = value.payload()
        return str(value.id)
    raise CommandUnavailable(f"option type {kind} is not supported by the fake")


def component_data(component: dict[str, Any], values: list[str] | None, fake: FakeDiscord, member: FakeMember) -> dict[str, Any]:
    """`data` of a MESSAGE_COMPONENT interaction for a click or a selection."""
    kind = component["type"]
    data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": kind}
    if kind == 2:
        return data
    assert values is not None
    data["values"] = [str(v) if not hasattr(v, "id") else str(v.id) for v in values]
    guild = member.guild
    resolved = Resolved()
    if kind == 5 or kind == 7:  # user / mentionable select
        for v in values:
            if isinstance(v, FakeRole):
                resolved.roles[str(v.id)] = v.payload()
            else:
                target = guild.member(int(v) if str(v).isdigit() else v) if not isinstance(v, (FakeMember, FakeUser)) else v
                resolved.add_user(target)
    elif kind == 6:
        for v in values:
            role = v if isinstance(v, FakeRole) else guild.role(int(v) if str(v).isdigit() else v)
            resolved.roles[str(role.id)] = role.payload()
    elif kind == 8:
        for v in values:
            channel = v if isinstance(v, FakeChannel) else guild.channel(int(v) if str(v).isdigit() else v)
            resolved.channels[str(channel.id)] = {
                "id": str(channel.id), "name": channel.name, "type": channel.type,
                "permissions": str(member.permissions), "flags": 0,
            }
    if kind != 3:
        data["values"] = [*resolved.users, *resolved.roles, *resolved.channels]
        data["resolved"] = resolved.payload()
    return data


def modal_submit_components(modal: Modal, values: dict[str, str]) -> list[dict[str, Any]]:
    """Echoes the modal's layout back with the typed values, as Discord does on submit."""
    out: list[dict[str, Any]] = []
    known = {c["custom_id"] for c in modal.text_inputs}
    unknown = set(values) - known
    if unknown:
        raise CommandUnavailable(f"modal {modal.custom_id!r} has no inputs {sorted(unknown)}; have {sorted(known)}")
    for top in modal.components:
        if top.get("type") == 18:  # label wrapping one component
            inner = top.get("component") or {}
            out.append({"type": 18, "id": top.get("id", 0), "component": _submitted(inner, values)})
        else:
            out.append({"type": top.get("type", 1), "id": top.get("id", 0),
                        "components": [_submitted(c, values) for c in top.get("components", [])]})
    return out


def _submitted(component: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    if component.get("type") == 4:
        value = values.get(component["custom_id"], component.get("value") or "")
        if component.get("required", True) and not value:
            raise CommandUnavailable(f"modal input {component['custom_id']!r} is required")
        return {"type": 4, "id": component.get("id", 0), "custom_id": component["custom_id"], "value": value}
    return {k: v for k, v in component.items() if k in ("type", "id", "custom_id")}
