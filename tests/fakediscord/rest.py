"""The REST half of the fake: Discord's v10 routes a bot uses, with Discord's checks and errors.

Every handler answers in Discord's JSON shapes. Breaches of Discord's rules raise
FakeHTTPError, which the middleware turns into Discord's error reply and, where the bot is
at fault, records as a violation. Rate limits are applied per route before the handler runs.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable

from aiohttp import web

from . import limits
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS, INTENT_MESSAGE_CONTENT, dumps
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Modal,
    SentInteraction,
)
from .model import (
    ANNOUNCEMENT_THREAD,
    ATTACH_FILES,
    AUTO_ARCHIVE_MINUTES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_ANNOUNCEMENT,
    GUILD_TEXT,
    MANAGE_THREADS,
    MAX_ACTIVE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    walk_components,
)

API = "/api/v10"
MAX_UPLOAD_BYTES = 25 * 1024 * 1024


OUTAGE_REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
                  504: "Gateway Timeout"}


class FakeHTTPError(Exception):
    """An error reply in Discord's JSON shape; `violation` names the breach to record."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        violation: str | None = None,
        detail: str = "",
        body: dict[str, Any] | None = None,
        interaction: SentInteraction | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message} {detail}".strip())
        self.status = status
        self.code = code
        self.message = message
        self.violation = violation
        self.detail = detail
        self.body = body or {"message": message, "code": code}
        self.interaction = interaction


@dataclass(frozen=True)
class RequestRecord:
    """One REST request as the fake answered it; `at` is when it arrived (before its rate limit check and
    its handling), on the fake clock."""

    method: str
    route: str
    path: str
    status: int
    at: float
    retry_after: float | None = None

    def __str__(self) -> str:
        extra = f" retry_after={self.retry_after:.3f}" if self.retry_after is not None else ""
        return f"{self.at:.3f} {self.method} {self.path} -> {self.status}{extra}"


@dataclass
class Upload:
    """One files[n] part of a multipart request."""

    filename: str
    data: bytes
    content_type: str | None


class RestAPI:
    """Mixed into FakeDiscord: routes, middleware and handlers."""

    # ---------------------------------------------------------------- HTTP plumbing

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        a = API
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        r.add_get(a + "/users/@me", self._get_me)
        r.add_post(a + "/users/@me/channels", self._create_dm)
        r.add_get(a + "/users/{user_id}", self._get_user)
        r.add_get(a + "/oauth2/applications/@me", self._get_application)
        r.add_get(a + "/applications/@me", self._get_application)
        r.add_get(a + "/gateway/bot", self._get_gateway_bot)
        r.add_get(a + "/gateway", self._get_gateway)
        cmds = a + "/applications/{application_id}/commands"
        gcmds = a + "/applications/{application_id}/guilds/{guild_id}/commands"
        r.add_get(gcmds + "/permissions", self._get_command_permissions)
        for base in (cmds, gcmds):
            r.add_get(base, self._get_commands)
            r.add_put(base, self._put_commands)
            r.add_post(base, self._post_command)
            r.add_get(base + "/{command_id}", self._get_command)
            r.add_patch(base + "/{command_id}", self._patch_command)
            r.add_delete(base + "/{command_id}", self._delete_command)
        r.add_post(a + "/interactions/{webhook_id}/{webhook_token}/callback", self._interaction_callback)
        hook = a + "/webhooks/{webhook_id}/{webhook_token}"
        r.add_post(hook, self._post_followup)
        r.add_get(hook + "/messages/{message_id}", self._get_webhook_message)
        r.add_patch(hook + "/messages/{message_id}", self._patch_webhook_message)
        r.add_delete(hook + "/messages/{message_id}", self._delete_webhook_message)
        ch = a + "/channels/{channel_id}"
        r.add_get(ch, self._get_channel)
        r.add_post(ch + "/typing", self._typing)
        r.add_get(ch + "/messages", self._list_messages)
        r.add_post(ch + "/messages", self._post_message)
        r.add_get(ch + "/messages/{message_id}", self._get_message)
        r.add_patch(ch + "/messages/{message_id}", self._patch_message)
        r.add_delete(ch + "/messages/{message_id}", self._delete_message)
        r.add_post(ch + "/threads", self._start_thread)
        r.add_post(ch + "/messages/{message_id}/threads", self._start_thread_from_message)
        g = a + "/guilds/{guild_id}"
        r.add_get(g, self._get_guild)
        r.add_get(g + "/channels", self._get_guild_channels)
        r.add_get(g + "/threads/active", self._active_threads)
        r.add_get(g + "/roles", self._get_roles)
        r.add_get(g + "/members", self._list_members)
        r.add_get(g + "/members/{user_id}", self._get_member)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        match = request.match_info
        resource = match.route.resource if match.http_exception is None else None
        template = resource.canonical if resource is not None else request.path
        if not template.startswith(API):
            return await handler(request)
        route = f"{request.method} {template[len(API):]}"
        major = "+".join(match[k] for k in ("channel_id", "guild_id", "webhook_id", "webhook_token") if k in match)
        retry_after = None
        received = self.clock.now()  # when the request arrived: what its rate limit bucket counted
        try:
            if resource is None:
                raise FakeHTTPError(404, 0, "404: Not Found", violation="unsupported_route",
                                    detail=f"{request.method} {request.path} is not implemented by the fake")
            outage = self.rest_outage_for(route)
            if outage is not None:  # Discord's bad day: the request never reaches a handler
                raise FakeHTTPError(outage, 0, f"{outage}: {OUTAGE_REASONS.get(outage, 'Server Error')}")
            decision = self.rate_limits.check(route, major)
            if not decision.allowed:
                retry_after = decision.retry_after
                response: web.StreamResponse = _json(
                    {"message": "You are being rate limited.", "retry_after": decision.retry_after,
                     "global": False},
                    status=429, headers=decision.headers,
                )
            else:
                if not template.startswith((API + "/interactions/", API + "/webhooks/")):
                    if request.headers.get("Authorization") != f"Bot {self.token}":
                        raise FakeHTTPError(401, 0, "401: Unauthorized", violation="unauthorized")
                response = await handler(request)
                response.headers.update(decision.headers)
        except FakeHTTPError as error:
            if error.violation:
                self._violate(error.violation, error.status, error.code, error.message, route, error.detail,
                              error.interaction)
            response = _json(error.body, status=error.status)
        self.requests.append(RequestRecord(request.method, route, request.path_qs, response.status,
                                           received, retry_after))
        self._notify()
        slow = self.slowness_for(route) if resource is not None else 0.0
        if slow:  # done on arrival, answered late: what a slow Discord looks like from the bot
            await asyncio.sleep(slow)
        return response

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
        uploads: dict[int, Upload] = {}
        if request.content_type == "multipart/form-data":
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            total = 0
            async for part in reader:
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                    continue
                data = await part.read(decode=False)
                total += len(data)
                if name.startswith("files[") and name.endswith("]"):
                    index = int(name[6:-1])
                else:
                    index = len(uploads)
                uploads[index] = Upload(part.filename or f"file{index}", bytes(data), part.headers.get("Content-Type"))
            if total > MAX_UPLOAD_BYTES:
                raise FakeHTTPError(413, 40005, "Request entity too large", violation="upload_too_large",
                                    detail=f"{total} bytes")
            return payload, uploads
        if request.can_read_body:
            text = await request.text()
            if text:
                try:
                    return json.loads(text), uploads
                except json.JSONDecodeError:
                    raise FakeHTTPError(400, 50109, "The request body contains invalid JSON.", violation="invalid_json")
        return {}, uploads

    # ---------------------------------------------------------------- messages

    def _compose(
        self,
        payload: dict[str, Any],
        uploads: dict[int, Upload],
        existing: FakeMessage | None,
        *,
        channel: FakeChannel,
        allow_ephemeral: bool = False,
    ) -> dict[str, Any]:
        """Validates a create/edit payload and returns the message's new fields."""
        old_flags = existing.flags if existing else 0
        requested = int(payload.get("flags") or 0)
        flags = old_flags & ~FLAG_SUPPRESS_EMBEDS
        flags |= requested & (FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2)
        if allow_ephemeral and existing is None:
            flags |= requested & FLAG_EPHEMERAL
        if old_flags & FLAG_COMPONENTS_V2 and "flags" in payload and not requested & FLAG_COMPONENTS_V2:
            flags |= FLAG_COMPONENTS_V2  # Discord never lets a message leave components v2

        errors = limits.FormErrors()
        limits.check_message(payload, errors, flags=flags)

        fields: dict[str, Any] = {"flags": flags}
        if "content" in payload:
            fields["content"] = payload["content"] or ""
        if "embeds" in payload:
            fields["embeds"] = [_normalize_embed(e) for e in payload["embeds"] or []]
        if "components" in payload:
            fields["components"] = _normalize_components(payload["components"] or [])
        fields["attachments"] = self._compose_attachments(payload, uploads, existing, channel, errors)
        if errors:
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                detail=errors.summary(), body=errors.body())

        merged = {
            "content": fields.get("content", existing.content if existing else ""),
            "embeds": fields.get("embeds", existing.embeds if existing else []),
            "components": fields.get("components", existing.components if existing else []),
            "attachments": fields["attachments"],
        }
        if not any(merged.values()):
            raise FakeHTTPError(400, 50006, "Cannot send an empty message", violation="empty_message",
                                detail="no content, embeds, components or files")
        return fields

    def _compose_attachments(
        self,
        payload: dict[str, Any],
        uploads: dict[int, Upload],
        existing: FakeMessage | None,
        channel: FakeChannel,
        errors: limits.FormErrors,
    ) -> list[FakeAttachment]:
        current = list(existing.attachments) if existing else []
        used: set[int] = set()
        if payload.get("attachments") is not None:
            result: list[FakeAttachment] = []
            for i, item in enumerate(payload["attachments"]):
                ref = str(item.get("id"))
                kept = next((a for a in current if str(a.id) == ref), None)
                if kept is not None:
                    result.append(kept)
                    continue
                index = int(ref) if ref.isdigit() else -1
                upload = uploads.get(index)
                if upload is None:
                    errors.add(("attachments", i), "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {ref}")
                    continue
                used.add(index)
                result.append(self.store_attachment(
                    item.get("filename") or upload.filename, upload.data, content_type=upload.content_type,
                    description=item.get("description"), channel_id=channel.id,
                ))
        else:
            result = current
        for index in sorted(set(uploads) - used):
            upload = uploads[index]
            result.append(self.store_attachment(upload.filename, upload.data, content_type=upload.content_type,
                                                channel_id=channel.id))
        if len(result) > 10:
            errors.add(("attachments",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        return result

    async def _add_message(self, message: FakeMessage) -> FakeMessage:
        message.channel.messages.append(message)
        if message.channel.is_thread and not message.ephemeral:
            message.channel.message_count += 1
            message.channel.last_activity = self.clock.wall()
        self.messages[message.id] = message
        if not message.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE", message)
        self._notify()
        return message

    async def _edit_message(self, message: FakeMessage, fields: dict[str, Any], *, done_loading: bool = False) -> None:
        for key, value in fields.items():
            setattr(message, key, value)
        if done_loading:
            message.flags &= ~FLAG_LOADING
        message.edited_at = self.clock.wall()
        message.edits += 1
        if not message.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", message)
        self._notify()

    async def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild:
                data["guild_id"] = str(message.channel.guild.id)
            await self._dispatch_to_sessions(message.channel, data, "MESSAGE_DELETE")
        self._notify()

    async def _dispatch_message(self, event: str, message: FakeMessage) -> None:
        await self._dispatch_to_sessions(message.channel, message, event)

    async def _dispatch_to_sessions(self, channel: FakeChannel, data: dict[str, Any] | FakeMessage, event: str) -> None:
        intent = (INTENT_GUILDS if event.startswith("THREAD_") else INTENT_DIRECT_MESSAGES if channel.type == DM
                  else INTENT_GUILD_MESSAGES)
        for session in list(self.sessions.values()):
            if not session.alive or not session.ready or not session.has(intent):
                continue
            if channel.guild is not None and not session.serves(channel.guild.id):
                continue
            if isinstance(data, FakeMessage):
                payload = data.payload(include_guild=True)
                mentioned = str(self.bot_user.id) in payload["content"]
                if (data.author.id != self.bot_user.id and not session.has(INTENT_MESSAGE_CONTENT)
                        and not mentioned and channel.type != DM):
                    payload.update(content="", embeds=[], attachments=[], components=[])
            else:
                payload = data
            await session.dispatch(event, payload)

    def _interaction_message(self, interaction: SentInteraction, fields: dict[str, Any], *, loading: bool = False) -> FakeMessage:
        ephemeral = bool(fields.get("flags", 0) & FLAG_EPHEMERAL)
        flags = fields.pop("flags", 0) | (FLAG_LOADING if loading else 0)
        user = getattr(interaction.user, "user", interaction.user).payload()  # a member, or a user in a DM
        metadata: dict[str, Any] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user,
            "authorizing_integration_owners": {"0": str(interaction.channel.guild.id)} if interaction.channel.guild else {},
        }
        if interaction.type == MESSAGE_COMPONENT and interaction.source_message is not None:
            metadata["interacted_message_id"] = str(interaction.source_message.id)
        message = FakeMessage(
            self.ids.next(), interaction.channel, self.bot_user, flags=flags,
            type=20 if interaction.type == APPLICATION_COMMAND else 0,
            created_at=self.clock.wall(), webhook_id=self.application_id, application_id=self.application_id,
            interaction_metadata=metadata, visible_to=interaction.user.id if ephemeral else None,
        )
        for key, value in fields.items():
            setattr(message, key, value)
        return message

    # ---------------------------------------------------------------- REST handlers: identity

    async def _get_me(self, request: web.Request) -> web.Response:
        data = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None,
                                          "bio": ""}
        return _json(data)

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise FakeHTTPError(404, 10013, "Unknown User", violation="unknown_user")
        return _json(user.payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="unknown_user")
        channel = self.dm_channel(user)
        if channel is None:
            channel = FakeChannel(self.ids.next(), f"dm-{user.name}", None, type=DM, recipient=user)
            self.dm_channels[channel.id] = channel
        return _json(channel.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json({
            "id": str(self.application_id),
            "name": self.bot_user.global_name,
            "icon": None,
            "description": "Tonk under test",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": secrets.token_hex(32),
            "owner": self.app_owner.payload(),
            "team": None,
            "flags": 0,
            "bot": self.bot_user.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        })

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json({
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        })

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    # ---------------------------------------------------------------- REST handlers: commands

    def _command_scope(self, request: web.Request) -> tuple[int | None, list[dict[str, Any]]]:
        if int(request.match_info["application_id"]) != self.application_id:
            raise FakeHTTPError(403, 50001, "Missing Access", violation="wrong_application")
        if "guild_id" in request.match_info:
            guild_id = int(request.match_info["guild_id"])
            if guild_id not in self.guilds:
                raise FakeHTTPError(403, 50001, "Missing Access", violation="unknown_guild")
            return guild_id, self.guild_commands.setdefault(guild_id, [])
        return None, self.global_commands

    def _stored_command(self, guild_id: int | None, body: dict[str, Any]) -> dict[str, Any]:
        kind = body.get("type", 1)
        key = (guild_id, body.get("name", ""), kind)
        command_id = self._command_ids.setdefault(key, self.ids.next())
        command = {
            "id": str(command_id),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "default_member_permissions": _optional_str(body.get("default_member_permissions")),
            "type": kind,
            "name": body.get("name"),
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations"),
            "options": body.get("options") or [],
            "nsfw": bool(body.get("nsfw", False)),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "dm_permission": body.get("dm_permission", True),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def _get_commands(self, request: web.Request) -> web.Response:
        _, commands = self._command_scope(request)
        return _json(commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild_id, _ = self._command_scope(request)
        body, _ = await self._read_body(request)
        errors = limits.FormErrors()
        if not isinstance(body, list):
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body", detail="expected a list")
        if len(body) > 100:
            errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        limits.check_commands(body, errors)
        if errors:
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                detail=errors.summary(), body=errors.body())
        stored = [self._stored_command(guild_id, c) for c in body]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs += 1
        self._notify()
        return _json(stored)

    async def _post_command(self, request: web.Request) -> web.Response:
        guild_id, commands = self._command_scope(request)
        body, _ = await self._read_body(request)
        errors = limits.FormErrors()
        limits.check_commands([body], errors)
        if errors:
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                detail=errors.summary(), body=errors.body())
        command = self._stored_command(guild_id, body)
        commands[:] = [c for c in commands if c["id"] != command["id"]] + [command]
        self._notify()
        return _json(command, status=201)

    def _find_command(self, request: web.Request) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        _, commands = self._command_scope(request)
        command_id = request.match_info["command_id"]
        for command in commands:
            if command["id"] == command_id:
                return commands, command
        raise FakeHTTPError(404, 10063, "Unknown application command", violation="unknown_command")

    async def _get_command(self, request: web.Request) -> web.Response:
        return _json(self._find_command(request)[1])

    async def _patch_command(self, request: web.Request) -> web.Response:
        _, command = self._find_command(request)
        body, _ = await self._read_body(request)
        command.update({k: v for k, v in body.items() if k in command})
        return _json(command)

    async def _delete_command(self, request: web.Request) -> web.Response:
        commands, command = self._find_command(request)
        commands.remove(command)
        return web.Response(status=204)

    async def _get_command_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return _json([])

    # ---------------------------------------------------------------- REST handlers: interactions

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        route = "POST /interactions/{webhook_id}/{webhook_token}/callback"
        interaction = self.interactions.get(int(request.match_info["webhook_id"]))
        if interaction is None or interaction.token != request.match_info["webhook_token"]:
            raise FakeHTTPError(404, 10062, "Unknown interaction", violation="unknown_interaction")
        if interaction.acked or interaction.id in self._acking:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.", violation="double_ack",
                                detail=f"{interaction!r}", interaction=interaction)
        age = interaction.age()
        if age > self.ack_deadline:
            self._late.add(interaction.id)
            raise FakeHTTPError(404, 10062, "Unknown interaction", violation="late_ack",
                                detail=f"callback {age:.2f}s after INTERACTION_CREATE (limit {self.ack_deadline}s)",
                                interaction=interaction)
        self._acking.add(interaction.id)
        try:
            body, uploads = await self._read_body(request)
            kind = int(body.get("type", 0))
            data = body.get("data") or {}
            allowed = {
                APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
                MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE,
                                    UPDATE_MESSAGE, MODAL},
                AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
                MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
                | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if interaction.source_message else set()),
            }[interaction.type]
            if kind not in allowed:
                raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_response_type",
                                    detail=f"callback type {kind} for interaction type {interaction.type}",
                                    body={"message": "Invalid Form Body", "code": 50035, "errors": {"type": {
                                        "_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                     "message": "Invalid interaction response type"}]}}},
                                    interaction=interaction)
            resource: dict[str, Any] = {"type": kind}
            message: FakeMessage | None = None
            if kind == CHANNEL_MESSAGE:
                fields = self._compose(data, uploads, None, channel=interaction.channel, allow_ephemeral=True)
                message = self._interaction_message(interaction, fields)
            elif kind == DEFERRED_CHANNEL_MESSAGE:
                flags = int(data.get("flags") or 0) & FLAG_EPHEMERAL
                message = self._interaction_message(interaction, {"flags": flags}, loading=True)
            elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
                message = interaction.source_message
                assert message is not None
                if kind == UPDATE_MESSAGE:
                    fields = self._compose(data, uploads, message, channel=interaction.channel)
            elif kind == AUTOCOMPLETE_RESULT:
                errors = limits.FormErrors()
                limits.check_autocomplete(data, errors)
                if errors:
                    raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                        detail=errors.summary(), body=errors.body(), interaction=interaction)
            elif kind == MODAL:
                errors = limits.FormErrors()
                limits.check_modal(data, errors)
                if errors:
                    raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                        detail=errors.summary(), body=errors.body(), interaction=interaction)

            # Accepted: the interaction is acknowledged from here on.
            interaction.response_type = kind
            interaction.acked_at = self.clock.now()
            interaction.ack_latency = time.perf_counter() - interaction.sent_perf
            interaction.original_message = message
            if kind == CHANNEL_MESSAGE or kind == DEFERRED_CHANNEL_MESSAGE:
                assert message is not None
                await self._add_message(message)
            elif kind == UPDATE_MESSAGE:
                assert message is not None
                await self._edit_message(message, fields)
            elif kind == AUTOCOMPLETE_RESULT:
                interaction.choices = list(data.get("choices") or [])
            elif kind == MODAL:
                interaction.modal = Modal(data.get("custom_id", ""), data.get("title", ""), data.get("components") or [])
        except FakeHTTPError as error:
            if error.interaction is None:
                error.interaction = interaction
            raise
        finally:
            self._acking.discard(interaction.id)
        self._notify()

        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = message.loading
            info["response_message_ephemeral"] = message.ephemeral
            if kind != DEFERRED_UPDATE_MESSAGE:
                resource["message"] = message.payload()
        return _json({"interaction": info, "resource": resource})

    def _webhook_interaction(self, request: web.Request) -> SentInteraction:
        if int(request.match_info["webhook_id"]) != self.application_id:
            raise FakeHTTPError(404, 10015, "Unknown Webhook", violation="unknown_webhook",
                                detail="only interaction webhooks (application id) are supported")
        interaction = self._by_token.get(request.match_info["webhook_token"])
        if interaction is None:
            raise FakeHTTPError(404, 10015, "Unknown Webhook", violation="unknown_webhook")
        if interaction.age() > self.token_lifetime:
            raise FakeHTTPError(401, 50027, "Invalid Webhook Token", violation="expired_token",
                                detail=f"token used {interaction.age():.0f}s after the interaction "
                                       f"(valid {self.token_lifetime:.0f}s)", interaction=interaction)
        return interaction

    def _webhook_message(self, request: web.Request, interaction: SentInteraction) -> FakeMessage:
        ref = request.match_info["message_id"]
        if ref == "@original":
            message = interaction.original_message
        else:
            message = self.messages.get(int(ref)) if ref.isdigit() else None
            if message is not None and message is not interaction.original_message and message not in interaction.followups:
                message = None
        if message is None or message.deleted:
            raise FakeHTTPError(404, 10008, "Unknown Message", violation="unknown_message",
                                detail=f"{ref} of {interaction!r}", interaction=interaction)
        return message

    async def _post_followup(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        if not interaction.acked:
            raise FakeHTTPError(404, 10015, "Unknown Webhook", violation="followup_before_ack",
                                detail=f"followup to {interaction!r} before its initial response",
                                interaction=interaction)
        body, uploads = await self._read_body(request)
        original = interaction.original_message
        if interaction.response_type == DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
            # The first followup after a "thinking" defer replaces the loading message.
            fields = self._compose(body, uploads, original, channel=interaction.channel)
            await self._edit_message(original, fields, done_loading=True)
            message = original
        else:
            fields = self._compose(body, uploads, None, channel=interaction.channel, allow_ephemeral=True)
            message = self._interaction_message(interaction, fields)
            await self._add_message(message)
        interaction.followups.append(message)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(message.payload())
        return web.Response(status=204)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        return _json(self._webhook_message(request, interaction).payload())

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        message = self._webhook_message(request, interaction)
        body, uploads = await self._read_body(request)
        fields = self._compose(body, uploads, message, channel=message.channel)
        await self._edit_message(message, fields, done_loading=True)
        return _json(message.payload())

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._webhook_interaction(request)
        await self._delete(self._webhook_message(request, interaction))
        return web.Response(status=204)

    # ---------------------------------------------------------------- REST handlers: channels

    def _channel_from(self, request: web.Request) -> FakeChannel:
        channel_id = int(request.match_info["channel_id"])
        if channel_id in self.dm_channels:
            return self.dm_channels[channel_id]
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        raise FakeHTTPError(404, 10003, "Unknown Channel", violation="unknown_channel", detail=str(channel_id))

    def _channel_message(self, request: web.Request) -> FakeMessage:
        channel = self._channel_from(request)
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None or message.channel is not channel or message.deleted or message.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message", violation="unknown_message",
                                detail=request.match_info["message_id"])
        return message

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel_from(request).payload())

    async def _typing(self, request: web.Request) -> web.Response:
        self._channel_from(request)
        return web.Response(status=204)

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel_from(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        messages = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])][:limit]
        messages = list(reversed(messages))[:limit]
        return _json([m.payload() for m in messages])

    def _require(self, channel: FakeChannel, needed: int, what: str) -> None:
        """The bot's permissions in a guild channel, as Discord checks them: 403 when missing."""
        if channel.guild is None:
            return
        member = channel.guild.members.get(self.bot_user.id)
        have = channel.permissions_for(member) if member is not None else 0
        if not have & VIEW_CHANNEL:
            raise FakeHTTPError(403, 50001, "Missing Access", violation="missing_permissions",
                                detail=f"{what} in #{channel.name}")
        if have & needed != needed:
            raise FakeHTTPError(403, 50013, "Missing Permissions", violation="missing_permissions",
                                detail=f"{what} in #{channel.name}")

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel_from(request)
        body, uploads = await self._read_body(request)
        if channel.is_thread:
            await self._thread_open_for(channel, "send a message")
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        self._require(channel, send | (ATTACH_FILES if uploads else 0), "send a message")
        fields = self._compose(body, uploads, None, channel=channel)
        message = FakeMessage(self.ids.next(), channel, self.bot_user, created_at=self.clock.wall(),
                              type=19 if body.get("message_reference") else 0)
        for key, value in fields.items():
            setattr(message, key, value)
        await self._add_message(message)
        return _json(message.payload())

    async def _get_message(self, request: web.Request) -> web.Response:
        return _json(self._channel_message(request).payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author.id != self.bot_user.id:
            raise FakeHTTPError(403, 50005, "Cannot edit a message authored by another user",
                                violation="edit_foreign_message", detail=repr(message))
        body, uploads = await self._read_body(request)
        if message.channel.is_thread:
            await self._thread_open_for(message.channel, "edit a message")
        self._require(message.channel, ATTACH_FILES if uploads else 0, "edit a message")
        fields = self._compose(body, uploads, message, channel=message.channel)
        await self._edit_message(message, fields)
        return _json(message.payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        await self._delete(self._channel_message(request))
        return web.Response(status=204)

    # ---------------------------------------------------------------- REST handlers: guilds

    def _guild_from(self, request: web.Request) -> FakeGuild:
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise FakeHTTPError(404, 10004, "Unknown Guild", violation="unknown_guild")
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        data = self._guild_from(request).payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "member_count"):
            data.pop(key, None)
        return _json(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        # as Discord: a guild's channels, without its threads (GET /guilds/{id}/threads/active lists those)
        return _json([c.payload() for c in self._guild_from(request).channels.values() if not c.is_thread])

    async def _active_threads(self, request: web.Request) -> web.Response:
        guild = self._guild_from(request)
        threads = [t for t in guild.threads if not self._archive_if_idle(t)]
        return _json({"threads": [t.payload() for t in threads], "members": []})

    # ---------------------------------------------------------------- REST handlers: threads

    def _archive_if_idle(self, thread: FakeChannel) -> bool:
        """Archive a thread that had no message for its auto-archive duration (as Discord does, on
        the fake's clock); whether it is archived."""
        if not thread.archived and self.clock.wall() - thread.last_activity >= thread.auto_archive_duration * 60:
            thread.archived = True
            thread.archive_ts = thread.last_activity + thread.auto_archive_duration * 60
        return thread.archived

    async def _thread_open_for(self, thread: FakeChannel, what: str) -> None:
        """A message in an archived thread: a locked one refuses it (without Manage Threads); an
        unlocked one is unarchived by a new message, as Discord does, and an edit is refused."""
        if not self._archive_if_idle(thread):
            return
        member = thread.guild.members.get(self.bot_user.id) if thread.guild else None
        manages = member is not None and thread.permissions_for(member) & MANAGE_THREADS
        if thread.locked and not manages:
            raise FakeHTTPError(400, 50083, "Thread is archived", violation="archived_thread",
                                detail=f"{what} in locked thread {thread.name!r}")
        if what == "edit a message":
            raise FakeHTTPError(400, 50083, "Thread is archived", violation="archived_thread",
                                detail=f"{what} in archived thread {thread.name!r}")
        thread.archived = False
        thread.archive_ts = self.clock.wall()
        await self._dispatch_to_sessions(thread, thread.payload(), "THREAD_UPDATE")

    def _thread_fields(self, body: dict[str, Any], parent: FakeChannel, *, with_type: bool) -> tuple[str, int, int]:
        """The checked name, auto-archive duration and type of a new thread (Discord's form rules)."""
        errors = limits.FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not name.strip():
            errors.add(("name",), "BASE_TYPE_REQUIRED", "This field is required")
            name = ""
        else:
            errors.length_between(("name",), name, 1, 100)
        duration = body.get("auto_archive_duration")
        if duration is None:
            duration = 4320 if parent.type == GUILD_TEXT else 1440
        elif duration not in AUTO_ARCHIVE_MINUTES:
            errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                       f"Value must be one of {set(AUTO_ARCHIVE_MINUTES)}.")
        kind = body.get("type") if with_type else None
        if kind is None:  # API v10: a thread without a message is private unless asked otherwise
            kind = PRIVATE_THREAD if with_type else (ANNOUNCEMENT_THREAD if parent.type == GUILD_ANNOUNCEMENT
                                                     else PUBLIC_THREAD)
        if kind not in (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD):
            errors.add(("type",), "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}.")
        if errors:
            raise FakeHTTPError(400, 50035, "Invalid Form Body", violation="invalid_form_body",
                                detail=errors.summary(), body=errors.body())
        if parent.type not in (GUILD_TEXT, GUILD_ANNOUNCEMENT) or (kind == ANNOUNCEMENT_THREAD) != (
                parent.type == GUILD_ANNOUNCEMENT) or (kind == PRIVATE_THREAD and parent.type != GUILD_TEXT):
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type",
                                violation="thread_in_wrong_channel",
                                detail=f"a thread of type {kind} in #{parent.name} (type {parent.type})")
        return name, duration, kind

    async def _new_thread(self, parent: FakeChannel, name: str, duration: int, kind: int, *,
                          thread_id: int | None = None, invitable: bool = True) -> FakeChannel:
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        self._require(parent, needed, "create a thread")
        guild = parent.guild
        assert guild is not None
        if sum(1 for t in guild.threads if not self._archive_if_idle(t)) >= MAX_ACTIVE_THREADS:
            raise FakeHTTPError(400, 160006, "Maximum number of active threads reached",
                                violation="too_many_threads", detail=guild.name)
        now = self.clock.wall()
        thread = FakeChannel(thread_id or self.ids.next(), name, guild, type=kind, parent=parent,
                             owner_id=self.bot_user.id, auto_archive_duration=duration, created_ts=now,
                             last_activity=now, thread_members={self.bot_user.id}, invitable=invitable)
        guild.channels[thread.id] = thread
        await self._dispatch_to_sessions(parent, {**thread.payload(), "newly_created": True}, "THREAD_CREATE")
        self._notify()
        return thread

    async def _start_thread(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads: a thread with no starter message."""
        parent = self._channel_from(request)
        body, _ = await self._read_body(request)
        if parent.is_thread:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type",
                                violation="thread_in_wrong_channel", detail=f"a thread in thread {parent.name!r}")
        name, duration, kind = self._thread_fields(body, parent, with_type=True)
        thread = await self._new_thread(parent, name, duration, kind, invitable=bool(body.get("invitable", True)))
        self.thread_requests.append(("POST /channels/{channel_id}/threads", body))
        return _json(thread.payload(), status=201)

    async def _start_thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{id}/threads: a public thread on a message (its id is the message's)."""
        message = self._channel_message(request)
        parent = message.channel
        body, _ = await self._read_body(request)
        if parent.is_thread:
            raise FakeHTTPError(400, 50024, "Cannot execute action on this channel type",
                                violation="thread_in_wrong_channel", detail=f"a thread in thread {parent.name!r}")
        if message.thread is not None:
            raise FakeHTTPError(400, 160004, "A thread has already been created for this message",
                                violation="thread_exists", detail=repr(message))
        name, duration, kind = self._thread_fields(body, parent, with_type=False)
        thread = await self._new_thread(parent, name, duration, kind, thread_id=message.id)
        message.thread = thread
        self.thread_requests.append(("POST /channels/{channel_id}/messages/{message_id}/threads", body))
        await self._dispatch_message("MESSAGE_UPDATE", message)
        return _json(thread.payload(), status=201)

    async def _get_roles(self, request: web.Request) -> web.Response:
        guild = self._guild_from(request)
        return _json([r.payload() for r in [guild.everyone, *guild.roles]])

    async def _list_members(self, request: web.Request) -> web.Response:
        guild = self._guild_from(request)
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)[:limit]
        return _json([m.payload() for m in members])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild_from(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise FakeHTTPError(404, 10007, "Unknown Member", violation="unknown_member")
        return _json(member.payload())

    async def _cdn(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly "application/json": discord.py compares it verbatim (no charset)."""
    response = web.Response(body=dumps(data).encode(), status=status, headers=headers)
    response.headers["Content-Type"] = "application/json"
    return response


def _normalize_embed(embed: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich", **embed}


def _normalize_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deep copy with numeric ids filled in, as Discord returns them."""
    copied = json.loads(json.dumps(components))
    next_id = 1
    for component in walk_components(copied):
        if "id" not in component:
            component["id"] = next_id
        next_id = max(next_id, int(component["id"])) + 1
    return copied


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)
