"""The fake's REST API: the routes a discord.py bot uses, answered as Discord answers them.

Implemented (below ``/api/v{9,10}``):

* session: ``GET /gateway``, ``GET /gateway/bot``, ``GET /users/@me``,
  ``GET /oauth2/applications/@me`` (and ``/applications/@me``);
* application commands, global and per guild: list, bulk overwrite (PUT), create (POST,
  an upsert), get, edit, delete;
* interactions: ``POST /interactions/{id}/{token}/callback`` (types 4-9, JSON or multipart,
  ``with_response``), follow-ups ``POST /webhooks/{app}/{token}``, and
  ``GET/PATCH/DELETE /webhooks/{app}/{token}/messages/{@original|id}``;
* channels and messages: ``GET /channels/{id}``, list/create/get/edit/delete messages,
  typing; DMs via ``POST /users/@me/channels``;
* guilds: the guild, its channels, roles, members and one member; ``GET /users/{id}``;
* uploaded files, served back at ``/attachments/{channel}/{id}/{filename}``.

Anything else answers 404 and is recorded as a violation, so a bot using an endpoint the
fake lacks fails loudly instead of passing by accident. Every request is recorded in
``fake.requests`` with its decoded body (multipart ``payload_json`` and ``files[n]``).
"""

from __future__ import annotations

import contextvars
import json
import mimetypes
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from aiohttp import BodyPartReader, hdrs, web

from . import spec
from .limits import (
    ALLOWED_CALLBACKS,
    Problem,
    attachment_description_problems,
    autocomplete_problems,
    callback_flag_problems,
    command_list_problems,
    form_errors,
    is_empty_message,
    message_problems,
    modal_problems,
)
from .models import (
    JSON,
    CallbackType,
    ChannelType,
    FakeChannel,
    FakeGuild,
    Intent,
    InteractionType,
    MessageFlag,
    Permission,
    iso_now,
)
from .records import (
    AttachmentRecord,
    CallbackRecord,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    UploadedFile,
    ViolationKind,
)

if TYPE_CHECKING:
    from .fake import DiscordFake

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

UNSUPPORTED = {"message": "404: Not Found", "code": 0, "fake": "route not implemented"}
"""The body the fake answers for routes it does not implement."""

WEBHOOK_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS
    | MessageFlag.EPHEMERAL
    | MessageFlag.SUPPRESS_NOTIFICATIONS
    | MessageFlag.IS_COMPONENTS_V2
)
CHANNEL_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
)
TRUE_QUERY = ("1", "true", "True")


@dataclass
class ParsedBody:
    """A request body: JSON (or multipart ``payload_json``) and uploaded files by index."""

    json: Any = None
    files: dict[int, UploadedFile] = field(default_factory=dict)
    invalid_json: bool = False


@dataclass
class Exchange:
    """One request in flight: its decoded body, its record, and the JSON answered."""

    body: ParsedBody
    record: RequestRecord
    response_json: Any = None


_EXCHANGE: contextvars.ContextVar[Exchange] = contextvars.ContextVar("fake_discord_exchange")
"""The request being handled (the middleware and the handler run in the same task)."""


def exchange() -> Exchange:
    """The request the current handler is answering."""
    return _EXCHANGE.get()


class Refused(Exception):
    """A handler's lookup or check failed: the error it answers, already built and recorded.

    Raised by the lookup helpers (``_channel``, ``_guild``, …) so the handlers read straight
    through; :meth:`RestApi.middleware` answers ``response`` in place of the handler's.
    """

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


@dataclass
class NewFile:
    """An upload that becomes an attachment if the message is accepted."""

    upload: UploadedFile
    filename: str
    description: str | None


@dataclass
class Draft:
    """What a message would look like after a create or edit, before it is accepted."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    attachments: list[AttachmentRecord | NewFile]
    problems: list[Problem]

    def as_payload(self) -> JSON:
        """The draft in the shape the limit checks read."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
        }


class RestApi:
    """Route handlers bound to one :class:`DiscordFake`."""

    def __init__(self, fake: DiscordFake) -> None:
        self.fake = fake

    # ------------------------------------------------------------ plumbing

    def add_routes(self, app: web.Application) -> None:
        """Register every route, with the catch-all last."""
        r = app.router
        api = r"/api/v{version:(9|10)}"
        r.add_get(f"{api}/gateway", self.get_gateway)
        r.add_get(f"{api}/gateway/bot", self.get_gateway_bot)
        r.add_get(f"{api}/users/@me", self.get_me)
        r.add_post(f"{api}/users/@me/channels", self.create_dm)
        r.add_get(rf"{api}/users/{{user_id:\d+}}", self.get_user)
        r.add_get(f"{api}/oauth2/applications/@me", self.get_application)
        r.add_get(f"{api}/applications/@me", self.get_application)
        app_path = rf"{api}/applications/{{app_id:\d+}}"
        for scope in ("", r"/guilds/{guild_id:\d+}"):
            commands = f"{app_path}{scope}/commands"
            r.add_get(commands, self.list_commands)
            r.add_put(commands, self.overwrite_commands)
            r.add_post(commands, self.create_command)
            one = rf"{commands}/{{command_id:\d+}}"
            r.add_get(one, self.get_command)
            r.add_patch(one, self.edit_command)
            r.add_delete(one, self.delete_command)
        r.add_post(rf"{api}/interactions/{{interaction_id:\d+}}/{{token}}/callback", self.callback)
        hook = rf"{api}/webhooks/{{app_id:\d+}}/{{token}}"
        r.add_post(hook, self.create_followup)
        r.add_get(f"{hook}/messages/{{message_id}}", self.get_webhook_message)
        r.add_patch(f"{hook}/messages/{{message_id}}", self.edit_webhook_message)
        r.add_delete(f"{hook}/messages/{{message_id}}", self.delete_webhook_message)
        channel = rf"{api}/channels/{{channel_id:\d+}}"
        r.add_get(channel, self.get_channel)
        r.add_get(f"{channel}/messages", self.list_messages)
        r.add_post(f"{channel}/messages", self.create_message)
        r.add_get(rf"{channel}/messages/{{message_id:\d+}}", self.get_message)
        r.add_patch(rf"{channel}/messages/{{message_id:\d+}}", self.edit_message)
        r.add_delete(rf"{channel}/messages/{{message_id:\d+}}", self.delete_message)
        r.add_post(f"{channel}/typing", self.typing)
        guild = rf"{api}/guilds/{{guild_id:\d+}}"
        r.add_get(guild, self.get_guild)
        r.add_get(f"{guild}/channels", self.get_guild_channels)
        r.add_get(f"{guild}/roles", self.get_guild_roles)
        r.add_get(f"{guild}/members", self.list_members)
        r.add_get(rf"{guild}/members/{{user_id:\d+}}", self.get_member)
        r.add_get(r"/attachments/{channel_id:\d+}/{attachment_id:\d+}/{filename}", self.download)
        r.add_route("*", "/{tail:.*}", self.unsupported)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Decode and record every request; check the bot token where Discord does."""
        if request.path == "/gateway":
            return await handler(request)
        body = await self._parse_body(request)
        path = request.path
        if path.startswith("/api/v"):
            path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else path
        record = RequestRecord(
            request.method,
            path,
            dict(request.query),
            body.json,
            list(body.files.values()),
            time.monotonic(),
        )
        self.fake.requests.append(record)
        current = Exchange(body, record)
        _EXCHANGE.set(current)
        if self._needs_token(path) and request.headers.get("Authorization") != (
            f"Bot {self.fake.token}"
        ):
            response: web.StreamResponse = self._error(request, 401, 0, "401: Unauthorized")
        elif body.invalid_json:
            response = self._error(request, 400, 50109, "The request body contains invalid JSON.")
        elif (refusal := self._check_described(request, path, body)) is not None:
            response = refusal
        else:
            try:
                response = await handler(request)
            except Refused as refused:
                response = refused.response
        record.status = response.status
        record.response = current.response_json
        self.fake.notify()
        return response

    def _check_described(
        self, request: web.Request, path: str, body: ParsedBody
    ) -> web.Response | None:
        """Refuse a request Discord's API description does not allow, as Discord would.

        Checked: the route, the query parameters and the body (for a multipart upload, its
        ``payload_json``). What a library sends that :mod:`.spec` tolerates is let through
        and recorded in ``fake.tolerated_uses``.
        """
        if not request.path.startswith("/api/v"):
            return None  # the gateway and uploaded files' URLs are not the HTTP API
        checked = spec.check_request(
            request.method,
            path,
            request.query,
            body.json,
            multipart=request.content_type.startswith("multipart/"),
        )
        self.fake.tolerated_uses.extend(
            (f"{request.method} {path}", problem) for problem in checked.tolerated
        )
        if not checked.problems:
            return None
        interaction = self._interaction_of(path)
        if checked.operation is None:
            self.fake.record_violation(
                ViolationKind.NOT_DESCRIBED,
                f"Discord's API description has no {request.method} {path}",
                request,
                interaction=interaction,
            )
            return self._json(request, {"message": "404: Not Found", "code": 0}, 404)
        template = checked.operation.template
        what = f"{request.method} {template} is not as Discord's API description allows"
        if interaction is not None:
            what = f"{interaction.label}: {what}"
        self.fake.record_violation(
            ViolationKind.COMMAND_SYNC
            if template.endswith(("/commands", "/commands/{command_id}"))
            else ViolationKind.INVALID_FORM_BODY,
            what,
            request,
            problems=checked.problems,
            interaction=interaction,
        )
        response = self._invalid_form(request, checked.problems)
        if interaction is not None and path.endswith("/callback"):
            payload = body.json if isinstance(body.json, dict) else {}
            kind = payload.get("type")
            now = time.monotonic()
            interaction.callbacks.append(
                CallbackRecord(
                    kind if isinstance(kind, int) else 0,
                    payload.get("data"),
                    now,
                    now - (interaction.sent_at or now),
                    400,
                    False,
                    error=exchange().response_json,
                )
            )
        return response

    def _interaction_of(self, path: str) -> InteractionRecord | None:
        """The interaction a callback or interaction-webhook path belongs to, if any."""
        parts = path.strip("/").split("/")
        if parts[0] == "interactions" and len(parts) > 1 and parts[1].isdigit():
            return self.fake.interactions.get(int(parts[1]))
        if parts[0] == "webhooks" and len(parts) > 2:
            return self.fake.interactions_by_token.get(parts[2])
        return None

    @staticmethod
    def _needs_token(path: str) -> bool:
        if path.startswith(("/attachments/", "/interactions/")):
            return False
        return not (path.startswith("/webhooks/") and path.count("/") >= 3)

    @staticmethod
    async def _parse_body(request: web.Request) -> ParsedBody:
        if request.content_type.startswith("multipart/"):
            parsed = ParsedBody()
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                data = bytes(await part.read())
                name = part.name or ""
                if name == "payload_json":
                    parsed.json = json.loads(data)
                elif name.startswith("files[") and name.endswith("]"):
                    index = int(name[6:-1])
                    parsed.files[index] = UploadedFile(
                        name,
                        part.filename or f"file{index}",
                        part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream"),
                        data,
                    )
            return parsed
        raw = await request.read()
        if not raw:
            return ParsedBody()
        try:
            return ParsedBody(json.loads(raw))
        except ValueError:
            return ParsedBody(raw.decode(errors="replace"), invalid_json=True)

    @staticmethod
    def _json(request: web.Request, data: Any, status: int = 200) -> web.Response:
        # Exactly "application/json", no charset: discord.py compares the header verbatim.
        exchange().response_json = data
        return web.Response(
            body=json.dumps(data).encode(), status=status, content_type="application/json"
        )

    @staticmethod
    def _no_content(request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _error(
        self,
        request: web.Request,
        status: int,
        code: int,
        message: str,
        problems: list[Problem] | None = None,
    ) -> web.Response:
        body: JSON = {"message": message, "code": code}
        if problems:
            body["errors"] = form_errors(problems)
        return self._json(request, body, status)

    def _refuse(self, request: web.Request, status: int, code: int, message: str) -> NoReturn:
        """Answer an error from anywhere in a handler (see :class:`Refused`)."""
        raise Refused(self._error(request, status, code, message))

    @staticmethod
    def _body_object() -> tuple[JSON, dict[int, UploadedFile]]:
        """The request's JSON object (``{}`` if the body is not one) and its uploaded files."""
        body = exchange().body
        return (body.json if isinstance(body.json, dict) else {}), body.files

    def _invalid_form(self, request: web.Request, problems: list[Problem]) -> web.Response:
        return self._error(request, 400, 50035, "Invalid Form Body", problems)

    async def unsupported(self, request: web.Request) -> web.StreamResponse:
        """Routes the fake lacks: 404, and a violation so the test notices."""
        path = request.path.split("/", 3)[3] if request.path.startswith("/api/v") else request.path
        self.fake.record_violation(
            ViolationKind.UNSUPPORTED_ROUTE,
            f"the bot called {request.method} /{path.lstrip('/')}, which the fake does not "
            "implement (add it to tests/fakes/discord_fake/rest.py)",
            request,
        )
        return self._json(request, UNSUPPORTED, 404)

    # ------------------------------------------------------------ session

    async def get_gateway(self, request: web.Request) -> web.StreamResponse:
        """GET /gateway."""
        return self._json(request, {"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        """GET /gateway/bot: one shard, a generous session start limit."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return self._json(
            request, {"url": self.fake.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    async def get_me(self, request: web.Request) -> web.StreamResponse:
        """GET /users/@me: the bot user."""
        user = {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False}
        return self._json(request, {**user, "email": None, "locale": "en-US"})

    async def get_user(self, request: web.Request) -> web.StreamResponse:
        """GET /users/{id}."""
        user = self.fake.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self._error(request, 404, 10013, "Unknown User")
        return self._json(request, user.payload())

    async def create_dm(self, request: web.Request) -> web.StreamResponse:
        """POST /users/@me/channels: open the DM channel with a user."""
        data = exchange().body.json or {}
        user = self.fake.world.users.get(int(data.get("recipient_id") or 0))
        if user is None:
            return self._error(request, 400, 50035, "Invalid Form Body")
        return self._json(request, self.fake.world.dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.StreamResponse:
        """GET /oauth2/applications/@me: the application (owner, flags, no endpoint URL)."""
        fake = self.fake
        return self._json(
            request,
            {
                "id": str(fake.application_id),
                "name": fake.bot_user.username,
                "icon": None,
                "description": "Chess tiebreaks a club can trust.",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": fake.world.app_owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": fake.application_flags,
                "bot": fake.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "rpc_origins": [],
                "tags": [],
                "install_params": {
                    "scopes": ["bot", "applications.commands"],
                    "permissions": "0",
                },
                "integration_types_config": {"0": {}},
                "approximate_guild_count": len(fake.world.guilds),
            },
        )

    # ------------------------------------------------------------ application commands

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.fake.application_id:
            self._refuse(request, 403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        if int(guild_id) not in self.fake.world.guilds:
            self._refuse(request, 404, 10004, "Unknown Guild")
        return int(guild_id)

    def _sync_scope(self, request: web.Request) -> int | None:
        """The scope of a request that changes commands, recorded as a command sync."""
        scope = self._command_scope(request)
        self.fake.command_syncs.append(exchange().record)
        return scope

    def _stored_command(self, scope: int | None, definition: JSON, existing: JSON | None) -> JSON:
        kind = int(definition.get("type") or 1)
        permissions = definition.get("default_member_permissions")
        stored: JSON = {
            "id": existing["id"] if existing else str(self.fake.world.ids.next()),
            "application_id": str(self.fake.application_id),
            "version": str(self.fake.world.ids.next()),
            "type": kind,
            "name": definition.get("name"),
            "name_localizations": definition.get("name_localizations"),
            "description": definition.get("description") or "",
            "description_localizations": definition.get("description_localizations"),
            "default_member_permissions": None if permissions is None else str(permissions),
            "nsfw": bool(definition.get("nsfw", False)),
        }
        if definition.get("options"):
            stored["options"] = definition["options"]
        if scope is None:
            contexts = definition.get("contexts")
            if contexts is None and definition.get("dm_permission") is False:
                contexts = [0]
            stored.update(
                dm_permission=definition.get("dm_permission", True) is not False,
                contexts=contexts,
                integration_types=definition.get("integration_types") or [0],
            )
        else:
            stored["guild_id"] = str(scope)
        return stored

    def _sync_refused(
        self, request: web.Request, problems: list[Problem], what: str
    ) -> web.Response:
        scope = request.match_info.get("guild_id")
        where = f"guild {scope}" if scope else "global"
        self.fake.record_violation(
            ViolationKind.COMMAND_SYNC,
            f"Discord refuses the {where} command {what}",
            request,
            problems=problems,
        )
        return self._invalid_form(request, problems)

    async def list_commands(self, request: web.Request) -> web.StreamResponse:
        """GET …/commands."""
        scope = self._command_scope(request)
        return self._json(request, self.fake.registered_commands(scope))

    async def overwrite_commands(self, request: web.Request) -> web.StreamResponse:
        """PUT …/commands: replace the whole set (what ``CommandTree.sync`` does)."""
        scope = self._sync_scope(request)
        definitions = exchange().body.json
        if not isinstance(definitions, list):
            return self._invalid_form(
                request, [Problem((), "BASE_TYPE_ARRAY", "Must be an array.")]
            )
        problems = command_list_problems(definitions)
        if problems:
            return self._sync_refused(request, problems, "overwrite")
        old = self.fake.commands.get(scope, {})
        new: dict[tuple[int, str], JSON] = {}
        for definition in definitions:
            key = (int(definition.get("type") or 1), str(definition["name"]))
            new[key] = self._stored_command(scope, definition, old.get(key))
        self.fake.commands[scope] = new
        return self._json(request, list(new.values()))

    async def create_command(self, request: web.Request) -> web.StreamResponse:
        """POST …/commands: create, or update the command with the same name and type."""
        scope = self._sync_scope(request)
        definition = exchange().body.json or {}
        current = self.fake.commands.setdefault(scope, {})
        key = (int(definition.get("type") or 1), str(definition.get("name")))
        others = [c for k, c in current.items() if k != key]
        problems = [
            p for p in command_list_problems([*others, definition]) if _about_last(p, others)
        ]
        if problems:
            return self._sync_refused(request, problems, "create")
        existing = current.get(key)
        current[key] = self._stored_command(scope, definition, existing)
        return self._json(request, current[key], 200 if existing else 201)

    def _find_command(
        self, request: web.Request, scope: int | None
    ) -> tuple[tuple[int, str], JSON]:
        command_id = request.match_info["command_id"]
        for key, command in self.fake.commands.get(scope, {}).items():
            if command["id"] == command_id:
                return key, command
        self._refuse(request, 404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.StreamResponse:
        """GET …/commands/{id}."""
        scope = self._command_scope(request)
        found = self._find_command(request, scope)
        return self._json(request, found[1])

    async def edit_command(self, request: web.Request) -> web.StreamResponse:
        """PATCH …/commands/{id}."""
        scope = self._sync_scope(request)
        found = self._find_command(request, scope)
        key, command = found
        merged = {**command, **(exchange().body.json or {})}
        current = self.fake.commands[scope]
        others = [c for k, c in current.items() if k != key]
        problems = [p for p in command_list_problems([*others, merged]) if _about_last(p, others)]
        if problems:
            return self._sync_refused(request, problems, "edit")
        del current[key]
        new_key = (int(merged.get("type") or 1), str(merged["name"]))
        current[new_key] = self._stored_command(scope, merged, command)
        return self._json(request, current[new_key])

    async def delete_command(self, request: web.Request) -> web.StreamResponse:
        """DELETE …/commands/{id}."""
        scope = self._sync_scope(request)
        found = self._find_command(request, scope)
        del self.fake.commands[scope][found[0]]
        return self._no_content(request)

    # ------------------------------------------------------------ messages (shared)

    def _draft(
        self,
        body: JSON,
        files: dict[int, UploadedFile],
        *,
        existing: MessageRecord | None,
        allowed_flags: int,
    ) -> Draft:
        """The message a create (``existing=None``) or edit would produce, with its problems."""

        def pick(key: str, default: Any) -> Any:
            return body.get(key, default)

        content = pick("content", existing.content if existing else "") or ""
        embeds = [
            {"type": "rich", **e} for e in pick("embeds", existing.embeds if existing else []) or []
        ]
        components = pick("components", existing.components if existing else []) or []
        requested = int(body.get("flags") or 0)
        if existing is None:
            flags = requested & allowed_flags
        else:
            flags = (existing.flags & ~int(MessageFlag.SUPPRESS_EMBEDS)) | (
                requested & int(MessageFlag.SUPPRESS_EMBEDS)
            )
            if existing.loading:
                flags |= requested & int(MessageFlag.IS_COMPONENTS_V2)
        problems: list[Problem] = []
        attachments: list[AttachmentRecord | NewFile] = []
        kept = existing.attachments if existing else []
        spec = body.get("attachments")
        used: set[int] = set()
        if spec is None:
            attachments.extend(kept)
        else:
            for i, entry in enumerate(spec):
                attachment_id = int(entry.get("id", -1))
                upload = files.get(attachment_id)
                problems.extend(attachment_description_problems(i, entry.get("description")))
                if upload is not None and attachment_id not in used:
                    used.add(attachment_id)
                    attachments.append(
                        NewFile(
                            upload,
                            entry.get("filename") or upload.filename,
                            entry.get("description"),
                        )
                    )
                    continue
                old = next((a for a in kept if a.id == attachment_id), None)
                if old is None:
                    problems.append(
                        Problem(
                            ("attachments", i, "id"), "ATTACHMENT_NOT_FOUND", "Unknown attachment."
                        )
                    )
                else:
                    attachments.append(old)
        for index in sorted(set(files) - used):
            upload = files[index]
            attachments.append(NewFile(upload, upload.filename, None))
        draft = Draft(str(content), embeds, components, flags, attachments, problems)
        draft.problems.extend(
            message_problems(draft.as_payload(), attachment_count=len(attachments))
        )
        return draft

    def _too_large(self, draft: Draft) -> list[str]:
        limit = self.fake.attachment_size_limit
        return [
            f"{a.filename} is {len(a.upload.data)} bytes (limit {limit})"
            for a in draft.attachments
            if isinstance(a, NewFile) and len(a.upload.data) > limit
        ]

    def _commit(self, message: MessageRecord, draft: Draft, *, edit: bool) -> None:
        if edit:
            message.history.append(message.snapshot())
            message.edited_timestamp = iso_now()
        attachments: list[AttachmentRecord] = []
        for item in draft.attachments:
            if isinstance(item, NewFile):
                content_type = mimetypes.guess_type(item.filename)[0] or item.upload.content_type
                attachments.append(
                    self.fake.store_attachment(
                        message.channel_id,
                        item.filename,
                        content_type,
                        item.upload.data,
                        item.description,
                    )
                )
            else:
                attachments.append(item)
        message.content = draft.content
        message.embeds = draft.embeds
        message.components = draft.components
        message.flags = draft.flags
        message.attachments = attachments
        self._announce(message, "MESSAGE_UPDATE" if edit else "MESSAGE_CREATE")

    def _new_message(
        self,
        channel: FakeChannel,
        *,
        via: str,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
    ) -> MessageRecord:
        fake = self.fake
        message = MessageRecord(
            fake.world.ids.next(),
            channel.id,
            channel.guild.id if channel.guild else None,
            fake.bot_user,
            type=message_type,
            via=via,
            interaction=interaction,
            webhook_id=fake.application_id if interaction else None,
            timestamp=iso_now(),
        )
        fake.messages[message.id] = message
        return message

    def _announce(self, message: MessageRecord, event: str) -> None:
        """Tell the bot about its own non-ephemeral message, as Discord does."""
        if message.ephemeral or message.loading:
            return
        channel = self.fake.world.channels.get(message.channel_id)
        dm = channel is not None and channel.type is ChannelType.DM
        self.fake.dispatch_if(
            Intent.DIRECT_MESSAGES if dm else Intent.GUILD_MESSAGES, event, message.payload()
        )

    def _check_draft(
        self,
        request: web.Request,
        draft: Draft,
        *,
        interaction: InteractionRecord | None,
        what: str,
        must_not_be_empty: bool,
    ) -> None:
        """Refuse (recording the violation) with Discord's answer if the draft breaks a rule."""
        fake = self.fake
        too_large = self._too_large(draft)
        if too_large:
            fake.record_violation(
                ViolationKind.PAYLOAD_TOO_LARGE,
                f"{what}: {'; '.join(too_large)}",
                request,
                interaction=interaction,
            )
            self._refuse(request, 413, 40005, "Request entity too large")
        if draft.problems:
            fake.record_violation(
                ViolationKind.INVALID_FORM_BODY,
                what,
                request,
                problems=draft.problems,
                interaction=interaction,
            )
            raise Refused(self._invalid_form(request, draft.problems))
        if must_not_be_empty and is_empty_message(draft.as_payload(), len(draft.attachments)):
            fake.record_violation(
                ViolationKind.EMPTY_MESSAGE,
                f"{what}: no content, embed, component or file",
                request,
                interaction=interaction,
            )
            self._refuse(request, 400, 50006, "Cannot send an empty message")

    # ------------------------------------------------------------ interaction callback

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """POST /interactions/{id}/{token}/callback: the initial response, once, within 3 s."""
        fake = self.fake
        record = fake.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return self._error(request, 404, 10062, "Unknown interaction")
        payload, files = self._body_object()
        callback_type = payload.get("type")
        data = payload.get("data")
        now = time.monotonic()
        elapsed = now - (record.sent_at or now)
        kind_name = _callback_name(callback_type)

        def record_failure(status: int) -> None:
            record.callbacks.append(
                CallbackRecord(
                    int(callback_type or 0),
                    data,
                    now,
                    elapsed,
                    status,
                    False,
                    error=exchange().response_json,
                )
            )

        def refuse(
            status: int,
            code: int,
            message: str,
            kind: ViolationKind,
            summary: str,
            problems: list[Problem] | None = None,
        ) -> web.Response:
            fake.record_violation(
                kind, summary, request, problems=problems or (), interaction=record
            )
            response = self._error(request, status, code, message, problems)
            record_failure(status)
            return response

        first = record.acknowledged
        if first is not None:
            return refuse(
                400,
                40060,
                "Interaction has already been acknowledged.",
                ViolationKind.DOUBLE_RESPONSE,
                f"{record.label}: a second initial response ({kind_name}) after "
                f"{_callback_name(first.type)}; use a follow-up or edit the original instead",
            )
        if elapsed > fake.response_deadline:
            return refuse(
                404,
                10062,
                "Unknown interaction",
                ViolationKind.LATE_RESPONSE,
                f"{record.label}: initial response ({kind_name}) came {elapsed:.2f}s after "
                f"INTERACTION_CREATE; Discord allows {fake.response_deadline:g}s (defer first)",
            )
        allowed = ALLOWED_CALLBACKS.get(int(record.type), frozenset())
        needs_source = callback_type in (
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
        )
        if callback_type not in allowed or (needs_source and record.source_message is None):
            problem = Problem(
                ("type",),
                "INTERACTION_CALLBACK_TYPE_INVALID",
                f"{kind_name} is not a valid response to a {record.type.name} interaction.",
            )
            return refuse(
                400,
                50035,
                "Invalid Form Body",
                ViolationKind.BAD_RESPONSE_TYPE,
                f"{record.label}: answered with {kind_name}",
                [problem],
            )
        flags = int((data or {}).get("flags") or 0)
        draft: Draft | None = None
        problems: list[Problem] = []
        if callback_type == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            draft = self._draft(data or {}, files, existing=None, allowed_flags=WEBHOOK_FLAGS)
            problems = callback_flag_problems(callback_type, flags)
        elif callback_type == CallbackType.UPDATE_MESSAGE:
            draft = self._draft(
                data or {}, files, existing=record.source_message, allowed_flags=WEBHOOK_FLAGS
            )
        elif callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            problems = callback_flag_problems(callback_type, flags)
        elif callback_type == CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
            problems = autocomplete_problems(data, record.focused_option_type or 3)
        elif callback_type == CallbackType.MODAL:
            problems = modal_problems(data)
        if draft is not None:
            draft.problems.extend(problems)
            try:
                self._check_draft(
                    request,
                    draft,
                    interaction=record,
                    what=f"{record.label}: {kind_name}",
                    must_not_be_empty=True,
                )
            except Refused as refused:
                record_failure(refused.response.status)
                raise
        elif problems:
            return refuse(
                400,
                50035,
                "Invalid Form Body",
                ViolationKind.INVALID_FORM_BODY,
                f"{record.label}: {kind_name}",
                problems,
            )

        def new_message(via: str) -> MessageRecord:
            command = record.type is InteractionType.APPLICATION_COMMAND
            return self._new_message(
                record.channel, via=via, interaction=record, message_type=20 if command else 0
            )

        message: MessageRecord | None = None
        if callback_type == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            assert draft is not None
            message = new_message("callback")
            self._commit(message, draft, edit=False)
            record.original = message
        elif callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            message = new_message("deferred")
            message.flags = int(MessageFlag.LOADING) | (flags & int(MessageFlag.EPHEMERAL))
            record.original = message
        elif callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
            record.original = record.source_message
        elif callback_type == CallbackType.UPDATE_MESSAGE:
            assert draft is not None and record.source_message is not None
            message = record.source_message
            self._commit(message, draft, edit=True)
            record.original = message
        callback = CallbackRecord(
            int(callback_type),
            data,
            now,
            elapsed,
            200,
            True,
            attachments=list(message.attachments) if message and draft else [],
            message=message,
        )
        record.callbacks.append(callback)
        if request.query.get("with_response") not in TRUE_QUERY:
            callback.status = 204
            return self._no_content(request)
        interaction: JSON = {"id": str(record.id), "type": int(record.type)}
        if message is not None:
            interaction.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
        resource: JSON = {"type": int(callback_type)}
        if message is not None and callback_type in (
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.UPDATE_MESSAGE,
        ):
            resource["message"] = message.payload()
        return self._json(request, {"interaction": interaction, "resource": resource})

    # ------------------------------------------------------------ follow-ups and edits

    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        fake = self.fake
        record = fake.interactions_by_token.get(request.match_info["token"])
        if int(request.match_info["app_id"]) != fake.application_id or record is None:
            self._refuse(request, 404, 10015, "Unknown Webhook")
        if record.acknowledged is None:
            fake.record_violation(
                ViolationKind.UNKNOWN_WEBHOOK,
                f"{record.label}: {request.method} on the interaction webhook before any "
                "accepted initial response (Discord answers 10015 Unknown Webhook)",
                request,
                interaction=record,
            )
            self._refuse(request, 404, 10015, "Unknown Webhook")
        if time.monotonic() - (record.sent_at or 0) > fake.token_lifetime:
            fake.record_violation(
                ViolationKind.TOKEN_EXPIRED,
                f"{record.label}: token used after {fake.token_lifetime:g}s",
                request,
                interaction=record,
            )
            self._refuse(request, 401, 50027, "Invalid Webhook Token")
        return record

    def _webhook_message(self, request: web.Request, record: InteractionRecord) -> MessageRecord:
        message_id = request.match_info["message_id"]
        if message_id == "@original":
            message = record.original
        else:
            candidates = [m for m in (record.original, *record.followups) if m is not None]
            message = next((m for m in candidates if str(m.id) == message_id), None)
        if message is None or message.deleted:
            self.fake.record_violation(
                ViolationKind.UNKNOWN_MESSAGE,
                f"{record.label}: {request.method} on message {message_id}, which this "
                "interaction has not created",
                request,
                interaction=record,
            )
            self._refuse(request, 404, 10008, "Unknown Message")
        return message

    async def create_followup(self, request: web.Request) -> web.StreamResponse:
        """POST /webhooks/{app}/{token}: a follow-up (completes a pending deferral)."""
        record = self._webhook_interaction(request)
        data, files = self._body_object()
        original = record.original
        completing = original is not None and original.loading and original.interaction is record
        existing = original if completing else None
        draft = self._draft(data, files, existing=existing, allowed_flags=WEBHOOK_FLAGS)
        if completing:
            draft.flags &= ~int(MessageFlag.LOADING)
        self._check_draft(
            request,
            draft,
            interaction=record,
            what=f"{record.label}: follow-up",
            must_not_be_empty=True,
        )
        if completing:
            assert original is not None
            self._commit(original, draft, edit=True)
            record.original_edits += 1
            return self._json(request, original.payload())
        message = self._new_message(
            record.channel, via="followup", interaction=record, message_type=20
        )
        self._commit(message, draft, edit=False)
        record.followups.append(message)
        return self._json(request, message.payload())

    async def get_webhook_message(self, request: web.Request) -> web.StreamResponse:
        """GET /webhooks/{app}/{token}/messages/{@original|id}."""
        record = self._webhook_interaction(request)
        message = self._webhook_message(request, record)
        return self._json(request, message.payload())

    async def edit_webhook_message(self, request: web.Request) -> web.StreamResponse:
        """PATCH /webhooks/{app}/{token}/messages/{@original|id} (completes a deferral)."""
        record = self._webhook_interaction(request)
        message = self._webhook_message(request, record)
        data, files = self._body_object()
        draft = self._draft(data, files, existing=message, allowed_flags=WEBHOOK_FLAGS)
        completing = message.loading
        draft.flags &= ~int(MessageFlag.LOADING)
        self._check_draft(
            request,
            draft,
            interaction=record,
            what=f"{record.label}: edit of message {message.id}",
            must_not_be_empty=completing,
        )
        self._commit(message, draft, edit=True)
        if message is record.original:
            record.original_edits += 1
        return self._json(request, message.payload())

    async def delete_webhook_message(self, request: web.Request) -> web.StreamResponse:
        """DELETE /webhooks/{app}/{token}/messages/{@original|id}."""
        record = self._webhook_interaction(request)
        message = self._webhook_message(request, record)
        self._delete(message)
        return self._no_content(request)

    def _delete(self, message: MessageRecord) -> None:
        message.deleted = True
        # A deleted "thinking…" placeholder is no longer pending: Discord makes the next
        # follow-up a new message (discord-api-docs #2739), not an edit of the deleted one.
        if message.loading:
            message.flags &= ~int(MessageFlag.LOADING)
        if not message.ephemeral:
            channel = self.fake.world.channels.get(message.channel_id)
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            dm = channel is not None and channel.type is ChannelType.DM
            self.fake.dispatch_if(
                Intent.DIRECT_MESSAGES if dm else Intent.GUILD_MESSAGES, "MESSAGE_DELETE", data
            )

    # ------------------------------------------------------------ channels

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.fake.world.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            self._refuse(request, 404, 10003, "Unknown Channel")
        return channel

    def _bot_may(self, channel: FakeChannel, permission: int) -> bool:
        if channel.guild is None:
            return True
        bot = channel.guild.members.get(self.fake.bot_user.id)
        return bot is not None and bot.permissions & permission == permission

    def _channel_message(self, request: web.Request, channel: FakeChannel) -> MessageRecord:
        message = self.fake.messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            self._refuse(request, 404, 10008, "Unknown Message")
        return message

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        """GET /channels/{id}."""
        channel = self._channel(request)
        return self._json(request, channel.payload())

    async def typing(self, request: web.Request) -> web.StreamResponse:
        """POST /channels/{id}/typing."""
        self._channel(request)
        return self._no_content(request)

    async def list_messages(self, request: web.Request) -> web.StreamResponse:
        """GET /channels/{id}/messages (newest first; ``limit``, ``before``, ``after``)."""
        channel = self._channel(request)
        if not self._bot_may(channel, Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY):
            return self._error(request, 403, 50001, "Missing Access")
        messages = self.fake.messages_in(channel)
        before, after = request.query.get("before"), request.query.get("after")
        if before:
            messages = [m for m in messages if m.id < int(before)]
        if after:
            messages = [m for m in messages if m.id > int(after)]
        limit = min(int(request.query.get("limit", "50")), 100)
        newest = sorted(messages, key=lambda m: m.id, reverse=True)
        chosen = newest[-limit:] if after else newest[:limit]
        return self._json(request, [m.payload() for m in chosen])

    async def get_message(self, request: web.Request) -> web.StreamResponse:
        """GET /channels/{id}/messages/{id}."""
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        return self._json(request, message.payload())

    async def create_message(self, request: web.Request) -> web.StreamResponse:
        """POST /channels/{id}/messages: the bot posts in a channel or DM."""
        channel = self._channel(request)
        data, files = self._body_object()
        needed = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES
        if files:
            needed |= Permission.ATTACH_FILES
        if not self._bot_may(channel, needed):
            self.fake.record_violation(
                ViolationKind.MISSING_PERMISSIONS,
                f"the bot may not post in #{channel.name} (needs {Permission(needed)!r})",
                request,
            )
            return self._error(request, 403, 50013, "Missing Permissions")
        draft = self._draft(data, files, existing=None, allowed_flags=CHANNEL_FLAGS)
        self._check_draft(
            request,
            draft,
            interaction=None,
            what=f"message in {channel.name or 'DM'}",
            must_not_be_empty=True,
        )
        reference = data.get("message_reference")
        message = self._new_message(channel, via="channel", message_type=19 if reference else 0)
        message.message_reference = reference
        self._commit(message, draft, edit=False)
        return self._json(request, message.payload())

    async def edit_message(self, request: web.Request) -> web.StreamResponse:
        """PATCH /channels/{id}/messages/{id}: the bot edits its own message."""
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        if message.author is not self.fake.bot_user:
            return self._error(
                request, 403, 50005, "Cannot edit a message authored by another user"
            )
        data, files = self._body_object()
        draft = self._draft(data, files, existing=message, allowed_flags=CHANNEL_FLAGS)
        self._check_draft(
            request,
            draft,
            interaction=None,
            what=f"edit of message {message.id}",
            must_not_be_empty=True,
        )
        self._commit(message, draft, edit=True)
        return self._json(request, message.payload())

    async def delete_message(self, request: web.Request) -> web.StreamResponse:
        """DELETE /channels/{id}/messages/{id}."""
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        if message.author is not self.fake.bot_user and not self._bot_may(
            channel, Permission.MANAGE_MESSAGES
        ):
            return self._error(request, 403, 50013, "Missing Permissions")
        self._delete(message)
        return self._no_content(request)

    # ------------------------------------------------------------ guilds and files

    def _guild(self, request: web.Request) -> FakeGuild:
        guild = self.fake.world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            self._refuse(request, 404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        """GET /guilds/{id}."""
        guild = self._guild(request)
        return self._json(request, guild.summary_payload())

    async def get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        """GET /guilds/{id}/channels."""
        guild = self._guild(request)
        return self._json(request, [c.payload() for c in guild.channels])

    async def get_guild_roles(self, request: web.Request) -> web.StreamResponse:
        """GET /guilds/{id}/roles."""
        guild = self._guild(request)
        return self._json(request, [r.payload() for r in guild.roles])

    async def list_members(self, request: web.Request) -> web.StreamResponse:
        """GET /guilds/{id}/members (needs the Server Members intent enabled for the app)."""
        guild = self._guild(request)
        if not self.fake.allowed_privileged_intents & Intent.GUILD_MEMBERS:
            return self._error(request, 403, 50001, "Missing Access")
        after = int(request.query.get("after", "0"))
        limit = min(int(request.query.get("limit", "1")), 1000)
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return self._json(request, [m.payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.StreamResponse:
        """GET /guilds/{id}/members/{user id}."""
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            return self._error(request, 404, 10007, "Unknown Member")
        return self._json(request, member.payload())

    async def download(self, request: web.Request) -> web.StreamResponse:
        """GET /attachments/…: an uploaded file's bytes (what ``Attachment.read()`` fetches)."""
        attachment = self.fake.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type)


def _about_last(problem: Problem, others: list[JSON]) -> bool:
    """Whether a problem concerns the command being created/edited (the last in the list)."""
    return not problem.path or problem.path[0] == len(others)


def _callback_name(callback_type: Any) -> str:
    try:
        return f"{CallbackType(callback_type).name} ({int(callback_type)})"
    except (TypeError, ValueError):
        return f"type {callback_type!r}"
