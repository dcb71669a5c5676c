"""The fake Discord a test drives: one aiohttp server on 127.0.0.1 with REST and gateway.

Typical use (the fixtures in ``tests/fakes/discord_fixtures.py`` do the first two steps)::

    async with DiscordFake() as fake:
        async with running_bot(fake, make_bot()):
            record = await fake.command(fake.member("alice"), "standings")
            reply = await record.reply()
            assert "Alice" in reply.text

The fake follows Discord's documented behaviour for the routes and opcodes it implements
(the real discord.py client runs against it unmodified) and refuses what Discord refuses
(see :mod:`.limits`), so a bot that breaks one of those rules fails its tests here instead
of failing in a club's server. It is not Discord: rate limits, channel permission
overwrites, threads, voice and user-installed apps are not modelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from aiohttp import web

from .gateway import GatewayServer, GatewaySession
from .limits import (
    ATTACHMENT_SIZE_MAX,
    INTERACTION_RESPONSE_SECONDS,
    INTERACTION_TOKEN_SECONDS,
    Problem,
)
from .models import (
    JSON,
    PRIVILEGED_INTENTS,
    ChannelType,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Intent,
    InteractionType,
    OptionType,
    Permission,
    Upload,
    iso_now,
)
from .records import (
    AttachmentRecord,
    CommandUnavailable,
    DiscordLimitError,
    FakeUsageError,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    Violation,
    ViolationKind,
    walk_components,
)
from .rest import UNSUPPORTED, RestApi
from .world import World, chess_club_world

T = TypeVar("T")

API_VERSION = 10
DEFAULT_HEARTBEAT_INTERVAL_MS = 41_250
"""What Discord sends in HELLO today."""

Actor = FakeMember | FakeUser

POLL_SECONDS = 0.02
"""How often :meth:`DiscordFake.wait_for` re-checks a probe when nothing else happens."""


class DiscordFake:
    """Discord's REST API and gateway on 127.0.0.1, for one test.

    Parameters mirror Discord's rules and can be tightened or relaxed per test:
    ``response_deadline`` (3 s), ``token_lifetime`` (15 min), ``attachment_size_limit``
    (10 MiB), and which privileged intents the application may use.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        token: str | None = None,
        response_deadline: float = INTERACTION_RESPONSE_SECONDS,
        token_lifetime: float = INTERACTION_TOKEN_SECONDS,
        attachment_size_limit: int = ATTACHMENT_SIZE_MAX,
        heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_INTERVAL_MS,
        allowed_privileged_intents: int = int(PRIVILEGED_INTENTS),
    ) -> None:
        self.world = world or chess_club_world()
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.attachment_size_limit = attachment_size_limit
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allowed_privileged_intents = allowed_privileged_intents

        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.attachments: dict[int, AttachmentRecord] = {}
        self.commands: dict[int | None, dict[tuple[int, str], JSON]] = {}
        """Registered application commands by scope (guild id, or None for global)."""
        self.command_syncs: list[RequestRecord] = []
        """Every request that created, replaced, edited or deleted application commands."""
        self.tolerated_uses: list[tuple[str, Problem]] = []
        """Fields a library sends that Discord's description does not allow, let through as
        :mod:`.spec` says (``TOLERATED``, ``TOLERATED_EXTRAS``): the route
        (``"PUT /applications/1/commands"``) and the field's problem."""

        self.gateway = GatewayServer(self)
        self.rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._changed = asyncio.Event()
        self._last_activity = time.monotonic()

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> DiscordFake:
        """Listen on an ephemeral port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self.rest.middleware])
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        assert host == "127.0.0.1"
        self._port = int(port)
        return self

    async def stop(self) -> None:
        """Close every gateway socket and the server."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordFake:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # ----------------------------------------------------------------- addresses

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if not self._port:
            raise RuntimeError("the fake Discord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """The REST base discord.py must use (``DISCORD_API_BASE``), version included."""
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL (``DISCORD_GATEWAY_URL``)."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot process: token, both endpoints, and the dev guild."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "HARKNESS_DEV_GUILD": str(self.guild.id),
        }

    # ----------------------------------------------------------------- the world

    @property
    def application_id(self) -> int:
        """The application's id (also the bot user's id)."""
        return self.world.application_id

    @property
    def bot_user(self) -> FakeUser:
        """The bot's own user."""
        return self.world.bot_user

    @property
    def guild(self) -> FakeGuild:
        """The first (by default the only) guild: Harkness Chess Club."""
        return next(iter(self.world.guilds.values()))

    def member(self, name: str, guild: FakeGuild | None = None) -> FakeMember:
        """A member by username, e.g. ``fake.member("alice")`` or ``fake.member("td")``."""
        return (guild or self.guild).member(name)

    def role(self, name: str, guild: FakeGuild | None = None) -> FakeRole:
        """A role by name, e.g. ``fake.role("Tournament Director")``."""
        return (guild or self.guild).role(name)

    def channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """A guild channel by name, e.g. ``fake.channel("results")``."""
        return (guild or self.guild).channel(name)

    def dm_channel(self, user: FakeUser | FakeMember) -> FakeChannel:
        """The DM channel between the bot and ``user`` (Discord creates it on first use)."""
        return self.world.dm_channel(user.user if isinstance(user, FakeMember) else user)

    def user(self, name: str) -> FakeUser:
        """Any user by username."""
        for user in self.world.users.values():
            if user.username == name:
                return user
        raise KeyError(f"no user {name!r}")

    @property
    def default_channel(self) -> FakeChannel:
        """Where commands are used unless a test says otherwise: #general."""
        texts = [c for c in self.guild.channels if c.type is ChannelType.GUILD_TEXT]
        return next((c for c in texts if c.name == "general"), texts[0])

    def add_user(self, username: str, *, global_name: str | None = None) -> FakeUser:
        """A Discord account that is not (yet) a member of any guild."""
        return self.world.new_user(username, global_name=global_name)

    def add_role(
        self, name: str, permissions: int = 0, *, guild: FakeGuild | None = None
    ) -> FakeRole:
        """Create a role; a connected bot receives GUILD_ROLE_CREATE."""
        guild = guild or self.guild
        role = self.world.new_role(guild, name, permissions)
        self.dispatch_if(
            Intent.GUILDS, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
        )
        return role

    def add_member(
        self,
        username: str,
        roles: Sequence[FakeRole] = (),
        *,
        guild: FakeGuild | None = None,
        global_name: str | None = None,
    ) -> FakeMember:
        """A new user joins; a bot with the members intent receives GUILD_MEMBER_ADD."""
        guild = guild or self.guild
        member = self.world.new_member(
            guild, self.world.new_user(username, global_name=global_name), roles
        )
        self.dispatch_if(
            Intent.GUILD_MEMBERS,
            "GUILD_MEMBER_ADD",
            {"guild_id": str(guild.id), **member.payload()},
        )
        return member

    def set_roles(self, member: FakeMember, roles: Sequence[FakeRole]) -> None:
        """Change a member's roles; a bot with the members intent gets GUILD_MEMBER_UPDATE."""
        member.roles = list(roles)
        self.dispatch_if(
            Intent.GUILD_MEMBERS,
            "GUILD_MEMBER_UPDATE",
            {"guild_id": str(member.guild.id), **member.payload()},
        )

    def add_channel(
        self,
        name: str,
        kind: ChannelType = ChannelType.GUILD_TEXT,
        *,
        guild: FakeGuild | None = None,
    ) -> FakeChannel:
        """Create a guild channel; a connected bot receives CHANNEL_CREATE."""
        channel = self.world.new_channel(guild or self.guild, name, kind)
        self.dispatch_if(Intent.GUILDS, "CHANNEL_CREATE", channel.payload())
        return channel

    def dispatch_if(self, intent: Intent, event: str, data: JSON) -> None:
        """Dispatch ``event`` to the connected bot if its intents include ``intent``."""
        session = self.gateway.session
        if session is not None and session.intents & intent:
            session.dispatch(event, data)

    # ----------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wake every waiting helper: something changed."""
        self._last_activity = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    def gateway_changed(self) -> None:
        """GatewayHost hook."""
        self.notify()

    async def wait_for(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``probe()`` returns something other than ``None``, and return it.

        Fails the test with an AssertionError naming ``what`` after ``timeout`` seconds.
        Exceptions raised by ``probe`` (e.g. :class:`DiscordLimitError`) propagate. The
        probe runs on every change the fake sees and at least every ``POLL_SECONDS``, so
        it may also watch the bot's own state.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = probe()
            if value is not None:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, POLL_SECONDS))

    async def quiet(self, period: float = 0.2, timeout: float = 10.0) -> None:
        """Wait until nothing has happened (no request, no gateway frame) for ``period``."""
        deadline = time.monotonic() + timeout
        while (idle := time.monotonic() - self._last_activity) < period:
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot was still busy after {timeout:g}s")
            await asyncio.sleep(period - idle)

    async def wait_until_ready(self, timeout: float = 10.0) -> GatewaySession:
        """Wait for a bot to IDENTIFY and receive READY and its GUILD_CREATEs."""

        def probe() -> GatewaySession | None:
            session = self.gateway.session
            if session is None or not session.connected or session.seq < 1 + len(self.world.guilds):
                return None
            return session

        return await self.wait_for(probe, timeout, "a bot to connect to the gateway")

    async def wait_until_shards_ready(self, count: int, timeout: float = 10.0) -> None:
        """Wait until a bot's ``count`` shards are each connected and have received READY
        and the GUILD_CREATEs of their guilds."""

        def probe() -> bool | None:
            ready = set()
            for session in self.gateway.sessions.values():
                owned = sum(1 for g in self.world.guilds if session.owns(g))
                if (
                    not session.invalidated
                    and session.connected
                    and session.shard[1] == count
                    and session.seq >= 1 + owned
                ):
                    ready.add(session.shard[0])
            return True if len(ready) == count else None

        await self.wait_for(probe, timeout, f"{count} shards to connect to the gateway")

    # ----------------------------------------------------------------- violations

    def record_violation(
        self,
        kind: ViolationKind,
        summary: str,
        request: web.Request | None = None,
        *,
        problems: Sequence[Any] = (),
        interaction: InteractionRecord | None = None,
    ) -> Violation:
        """Note that the bot broke one of Discord's rules (the REST layer calls this)."""
        violation = Violation(
            kind,
            summary,
            request.method if request else "-",
            request.path if request else "-",
            tuple(problems),
            interaction.id if interaction else None,
        )
        self.violations.append(violation)
        if interaction is not None:
            interaction.violations.append(violation)
        self.notify()
        return violation

    def unreported_violations(self) -> list[Violation]:
        """Violations no helper has raised into the test yet."""
        return [v for v in self.violations if not v.reported]

    def assert_clean(self) -> None:
        """Raise :class:`DiscordLimitError` for any violation the test has not seen."""
        pending = self.unreported_violations()
        if pending:
            raise DiscordLimitError(pending)

    @property
    def unhandled_requests(self) -> list[RequestRecord]:
        """Requests to routes the fake does not implement (also recorded as violations)."""
        return [r for r in self.requests if r.status == 404 and r.response == UNSUPPORTED]

    # ----------------------------------------------------------------- commands

    def registered_commands(self, guild_id: FakeGuild | int | None = None) -> list[JSON]:
        """The commands registered globally (``None``) or for a guild, as Discord stores them."""
        scope = guild_id.id if isinstance(guild_id, FakeGuild) else guild_id
        return list(self.commands.get(scope, {}).values())

    def registered_command(self, name: str, guild_id: FakeGuild | int | None = None) -> JSON:
        """One registered chat-input command by name, globally or in a guild."""
        for command in self.registered_commands(guild_id):
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        names = [c["name"] for c in self.registered_commands(guild_id)]
        raise KeyError(f"/{name} is not registered in scope {guild_id!r}; registered: {names}")

    def _find_command(self, path: list[str], user: FakeUser, member: FakeMember | None) -> JSON:
        guild = member.guild if member else None
        scopes: list[int | None] = [guild.id, None] if guild else [None]
        for scope in scopes:
            command = self.commands.get(scope, {}).get((1, path[0]))
            if command is not None:
                break
        else:
            known = sorted({name for scope in scopes for (_, name) in self.commands.get(scope, {})})
            raise CommandUnavailable(f"/{path[0]} is not registered here; registered: {known}")
        label = "/" + " ".join(path)
        contexts = command.get("contexts")
        if guild is None:
            if command.get("dm_permission") is False or (
                contexts is not None and 1 not in contexts
            ):
                raise CommandUnavailable(f"{label} cannot be used in DMs with the bot")
        elif "guild_id" not in command and contexts is not None and 0 not in contexts:
            raise CommandUnavailable(f"{label} cannot be used in servers")
        required = command.get("default_member_permissions")
        if member is not None and required is not None:
            needed = int(required)
            held = member.permissions
            allowed = (
                bool(held & Permission.ADMINISTRATOR) if needed == 0 else held & needed == needed
            )
            if not allowed:
                raise CommandUnavailable(
                    f"{label} is hidden from {user.username}: it needs permissions "
                    f"{Permission(needed)!r} and they hold {Permission(held & ((1 << 41) - 1))!r}"
                )
        return command

    def _build_options(
        self,
        definitions: Sequence[JSON],
        path: list[str],
        given: Mapping[str, Any],
        resolved: dict[str, dict[str, JSON]],
        *,
        label: str,
        focused: str | None,
        channel: FakeChannel,
    ) -> tuple[list[JSON], JSON | None]:
        """Options as Discord sends them, and the focused option's definition."""
        by_name = {d["name"]: d for d in definitions}
        if path:
            sub = by_name.get(path[0])
            if sub is None or sub.get("type") not in (1, 2):
                choices = [d["name"] for d in definitions if d.get("type") in (1, 2)]
                raise CommandUnavailable(f"{label}: no subcommand {path[0]!r}; there are {choices}")
            inner, focused_def = self._build_options(
                sub.get("options") or [],
                path[1:],
                given,
                resolved,
                label=label,
                focused=focused,
                channel=channel,
            )
            return [{"type": sub["type"], "name": sub["name"], "options": inner}], focused_def
        nested = [d["name"] for d in definitions if d.get("type") in (1, 2)]
        if nested:
            raise FakeUsageError(f"{label} needs a subcommand: one of {nested}")
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise FakeUsageError(f"{label} has no option(s) {unknown}; it has {sorted(by_name)}")
        focused_def = by_name.get(focused) if focused else None
        if focused is not None:
            if focused_def is None:
                raise FakeUsageError(f"{label} has no option {focused!r} to type into")
            if not focused_def.get("autocomplete"):
                raise FakeUsageError(
                    f"{label}: option {focused!r} has no autocomplete, so Discord sends none"
                )
        else:
            missing = [
                d["name"] for d in definitions if d.get("required") and d["name"] not in given
            ]
            if missing:
                raise FakeUsageError(f"{label}: Discord will not send it without {missing}")
        options: list[JSON] = []
        for name, value in given.items():
            definition = by_name[name]
            if name == focused:
                options.append(
                    {"type": definition["type"], "name": name, "value": str(value), "focused": True}
                )
                continue
            converted = self._option_value(
                definition, value, resolved, label=label, channel=channel
            )
            options.append({"type": definition["type"], "name": name, "value": converted})
        return options, focused_def

    def _option_value(
        self,
        definition: JSON,
        value: Any,
        resolved: dict[str, dict[str, JSON]],
        *,
        label: str,
        channel: FakeChannel,
    ) -> Any:
        """Check ``value`` the way Discord's client does and convert it for the payload."""
        kind = definition["type"]
        name = f"{label} {definition['name']}"

        def refuse(reason: str) -> FakeUsageError:
            return FakeUsageError(f"{name}: Discord's client would not accept {value!r}: {reason}")

        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise refuse(f"pick one of {[c['value'] for c in choices]}")
        if kind == OptionType.STRING:
            if not isinstance(value, str):
                raise refuse("a string is expected")
            if (
                not definition.get("min_length", 0)
                <= len(value)
                <= definition.get("max_length", 6000)
            ):
                raise refuse("its length is outside min_length/max_length")
            return value
        if kind in (OptionType.INTEGER, OptionType.NUMBER):
            numeric = (int,) if kind == OptionType.INTEGER else (int, float)
            if isinstance(value, bool) or not isinstance(value, numeric):
                raise refuse("a number of the right kind is expected")
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise refuse(f"it must be within {low}..{high}")
            return value
        if kind == OptionType.BOOLEAN:
            if not isinstance(value, bool):
                raise refuse("True or False is expected")
            return value
        if kind in (OptionType.USER, OptionType.MENTIONABLE) and isinstance(
            value, FakeMember | FakeUser
        ):
            user = value.user if isinstance(value, FakeMember) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild = channel.guild
            member = guild.members.get(user.id) if guild else None
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
            return str(user.id)
        if kind in (OptionType.ROLE, OptionType.MENTIONABLE) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == OptionType.CHANNEL and isinstance(value, FakeChannel):
            allowed = definition.get("channel_types")
            if allowed and int(value.type) not in allowed:
                raise refuse(f"only channel types {allowed} are offered")
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": int(value.type),
                "permissions": str(int(Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES)),
                "parent_id": str(value.parent_id) if value.parent_id else None,
            }
            return str(value.id)
        if kind == OptionType.ATTACHMENT and isinstance(value, Upload):
            if len(value.data) > self.attachment_size_limit:
                raise refuse(f"files over {self.attachment_size_limit} bytes cannot be uploaded")
            attachment = self.store_attachment(
                channel.id, value.filename, value.content_type, value.data
            )
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            return str(attachment.id)
        raise refuse(f"an option of type {OptionType(kind).name} cannot hold it")

    def store_attachment(
        self,
        channel_id: int,
        filename: str,
        content_type: str,
        data: bytes,
        description: str | None = None,
    ) -> AttachmentRecord:
        """Keep an uploaded file and serve it at its CDN-like URL on the fake."""
        attachment_id = self.world.ids.next()
        attachment = AttachmentRecord(
            attachment_id,
            filename,
            content_type,
            data,
            f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}",
            description,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    # ----------------------------------------------------------------- interactions

    def _actor(
        self, who: Actor, channel: FakeChannel | None
    ) -> tuple[FakeUser, FakeMember | None, FakeChannel]:
        """Who acts, as which member (None in DMs), and where."""
        user = who.user if isinstance(who, FakeMember) else who
        if channel is not None and channel.type is ChannelType.DM:
            if channel.recipient is not user:
                raise FakeUsageError(f"{user.username} is not in the DM channel {channel.id}")
            return user, None, channel
        if isinstance(who, FakeMember):
            channel = channel or self.default_channel
            if channel.guild is not who.guild:
                raise FakeUsageError(f"{channel!r} is not in {who.name}'s guild")
            return user, who, channel
        if channel is None:
            return user, None, self.world.dm_channel(user)
        assert channel.guild is not None
        member = channel.guild.members.get(user.id)
        if member is None:
            raise FakeUsageError(f"{user.username} is not a member of {channel.guild.name}")
        return user, member, channel

    def _interaction_payload(
        self,
        interaction_id: int,
        token: str,
        kind: InteractionType,
        data: JSON,
        user: FakeUser,
        member: FakeMember | None,
        channel: FakeChannel,
        *,
        message: MessageRecord | None,
        locale: str,
    ) -> JSON:
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": int(kind),
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        guild = channel.guild
        if guild is not None and member is not None:
            bot_member = guild.members.get(self.bot_user.id)
            app_permissions = bot_member.permissions if bot_member else 0
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(with_permissions=True),
                app_permissions=str(app_permissions),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
                channel={**channel.payload(), "permissions": str(member.permissions)},
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(int(Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES)),
                authorizing_integration_owners={"0": "0"},
                context=1,
                channel=channel.payload(),
            )
        if message is not None:
            payload["message"] = message.payload()
        return payload

    async def _inject(
        self,
        kind: InteractionType,
        label: str,
        who: Actor,
        channel: FakeChannel | None,
        data: JSON,
        *,
        source_message: MessageRecord | None = None,
        focused_option_type: int | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """Send INTERACTION_CREATE to the bot (to the shard of the channel's guild); the
        3-second clock starts on delivery."""
        user, member, channel = self._actor(who, channel)
        session = self.gateway.session_for(channel.guild.id if channel.guild else None)
        if session is None or not session.connected:
            raise FakeUsageError("no bot is connected to the fake gateway (start one with run_bot)")
        interaction_id = self.world.ids.next()
        token = f"fake-interaction.{secrets.token_urlsafe(48)}"
        payload = self._interaction_payload(
            interaction_id,
            token,
            kind,
            data,
            user,
            member,
            channel,
            message=source_message,
            locale=locale,
        )
        record = InteractionRecord(
            interaction_id,
            token,
            kind,
            label,
            user,
            member,
            channel,
            payload,
            self,
            focused_option_type=focused_option_type,
            source_message=source_message,
        )
        self.interactions[interaction_id] = record
        self.interactions_by_token[token] = record
        record.sent_at = time.monotonic()

        def delivered() -> None:
            record.sent_at = time.monotonic()

        await asyncio.wait_for(
            session.dispatch("INTERACTION_CREATE", payload, on_delivered=delivered), 10.0
        )
        return record

    async def command(
        self,
        who: Actor,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """``who`` runs a slash command, e.g. ``"tournament create"`` with ``{"name": ...}``.

        Options are checked against the registered definition as Discord's client does
        (unknown or missing options, choices, ranges and the like raise
        :class:`FakeUsageError`; a command the user may not see raises
        :class:`CommandUnavailable`). Users, members, roles, channels and
        :class:`Upload` files become ``resolved`` data. Pass a :class:`FakeUser` who is
        not a member (or a DM channel) to use the command in a DM with the bot.
        """
        return await self._application_command(
            InteractionType.APPLICATION_COMMAND, who, name, options or {}, None, channel, locale
        )

    async def autocomplete(
        self,
        who: Actor,
        name: str,
        focused: str,
        typed: str = "",
        options: Mapping[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """``who`` types ``typed`` into option ``focused`` of ``name``; await ``.choices()``."""
        given = {**(options or {}), focused: typed}
        return await self._application_command(
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            who,
            name,
            given,
            focused,
            channel,
            locale,
        )

    async def _application_command(
        self,
        kind: InteractionType,
        who: Actor,
        name: str,
        given: Mapping[str, Any],
        focused: str | None,
        channel: FakeChannel | None,
        locale: str,
    ) -> InteractionRecord:
        path = name.strip().lstrip("/").split()
        label = "/" + " ".join(path)
        user, member, where = self._actor(who, channel)
        command = self._find_command(path, user, member)
        resolved: dict[str, dict[str, JSON]] = {}
        options, focused_def = self._build_options(
            command.get("options") or [],
            path[1:],
            given,
            resolved,
            label=label,
            focused=focused,
            channel=where,
        )
        data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        suffix = f" ({focused}: {given.get(focused)!r})" if focused else ""
        return await self._inject(
            kind,
            label + suffix,
            who,
            where,
            data,
            focused_option_type=int(focused_def["type"]) if focused_def else None,
            locale=locale,
        )

    def _usable_message(self, who: Actor, message: MessageRecord | int) -> MessageRecord:
        if isinstance(message, int):
            message = self.messages[message]
        if message.deleted:
            raise FakeUsageError(f"message {message.id} was deleted")
        user = who.user if isinstance(who, FakeMember) else who
        if message.ephemeral and message.interaction and message.interaction.user is not user:
            owner = message.interaction.user.username
            raise FakeUsageError(f"message {message.id} is ephemeral: only {owner} sees it")
        return message

    def _message_channel(self, message: MessageRecord) -> FakeChannel:
        return self.world.channels[message.channel_id]

    async def click(
        self,
        who: Actor,
        message: MessageRecord | int,
        label: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> InteractionRecord:
        """``who`` clicks a button (by label or custom_id) on a message the bot sent."""
        message = self._usable_message(who, message)
        button = message.button(label, custom_id=custom_id)
        if button.get("style") in (5, 6):
            raise FakeUsageError(f"button {label or custom_id!r} is a link/premium button")
        if button.get("disabled"):
            raise FakeUsageError(
                f"button {button.get('label')!r} is disabled; it cannot be clicked"
            )
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._inject(
            InteractionType.MESSAGE_COMPONENT,
            f"button {button.get('label') or button['custom_id']!r}",
            who,
            self._message_channel(message),
            data,
            source_message=message,
        )

    async def select(
        self,
        who: Actor,
        message: MessageRecord | int,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
    ) -> InteractionRecord:
        """``who`` picks ``values`` in a string select menu of a message the bot sent."""
        message = self._usable_message(who, message)
        menus = [c for c in walk_components(message.components) if c.get("type") == 3]
        menu = next((m for m in menus if custom_id in (None, m.get("custom_id"))), None)
        if menu is None:
            raise FakeUsageError(f"no select menu {custom_id!r} in message {message.id}")
        offered = [o["value"] for o in menu.get("options") or []]
        if any(v not in offered for v in values):
            raise FakeUsageError(f"{list(values)} are not all among the options {offered}")
        if not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
            raise FakeUsageError(f"{len(values)} values is outside min_values/max_values")
        if menu.get("disabled"):
            raise FakeUsageError("the select menu is disabled")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": list(values)}
        return await self._inject(
            InteractionType.MESSAGE_COMPONENT,
            f"select {menu.get('placeholder') or menu['custom_id']!r}",
            who,
            self._message_channel(message),
            data,
            source_message=message,
        )

    async def submit_modal(
        self,
        who: Actor,
        opened_by: InteractionRecord,
        values: Mapping[str, str] | None = None,
    ) -> InteractionRecord:
        """``who`` fills in and submits the modal the bot opened in answer to ``opened_by``.

        ``values`` maps each text input's label or custom_id to what the user typed;
        inputs left out keep their pre-filled value. Required inputs, lengths and unknown
        names are checked as Discord's client does.
        """
        values = dict(values or {})
        modal = await opened_by.modal()
        user = who.user if isinstance(who, FakeMember) else who
        if user is not opened_by.user:
            raise FakeUsageError(f"only {opened_by.user.username} sees this modal")
        if opened_by.modal_submitted:
            raise FakeUsageError("this modal was already submitted")
        submitted: list[JSON] = []
        used: set[str] = set()

        def answer(text_input: JSON, label: str | None) -> JSON:
            key = next((k for k in (text_input["custom_id"], label) if k in values), None)
            value = values[key] if key is not None else (text_input.get("value") or "")
            if key is not None:
                used.add(key)
            name = label or text_input["custom_id"]
            if text_input.get("required", True) and not value:
                raise FakeUsageError(f"modal input {name!r} is required")
            low, high = text_input.get("min_length", 0), text_input.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise FakeUsageError(f"modal input {name!r} must be {low}-{high} characters")
            return {"type": 4, "custom_id": text_input["custom_id"], "value": value}

        for component in modal.get("components") or []:
            if component.get("type") == 1:
                text_input = component["components"][0]
                submitted.append(
                    {"type": 1, "components": [answer(text_input, text_input.get("label"))]}
                )
            elif component.get("type") == 18 and component["component"].get("type") == 4:
                inner = answer(component["component"], component.get("label"))
                submitted.append({"type": 18, "component": inner})
        unknown = sorted(set(values) - used)
        if unknown:
            raise FakeUsageError(f"the modal has no inputs {unknown}")
        opened_by.modal_submitted = True
        data = {"custom_id": modal["custom_id"], "components": submitted}
        return await self._inject(
            InteractionType.MODAL_SUBMIT,
            f"modal {modal.get('title')!r}",
            who,
            opened_by.channel,
            data,
            source_message=opened_by.source_message,
        )

    async def post_message(
        self, who: Actor, content: str, channel: FakeChannel | None = None
    ) -> MessageRecord:
        """A user writes a plain message; the bot receives MESSAGE_CREATE if its intents allow."""
        user, member, channel = self._actor(who, channel)
        message = MessageRecord(
            self.world.ids.next(),
            channel.id,
            channel.guild.id if channel.guild else None,
            user,
            content=content,
            via="user",
            timestamp=iso_now(),
        )
        self.messages[message.id] = message
        session = self.gateway.session
        if session is not None:
            dm = channel.type is ChannelType.DM
            if session.intents & (Intent.DIRECT_MESSAGES if dm else Intent.GUILD_MESSAGES):
                data = message.payload()
                readable = dm or self.bot_user.mention in content
                if not (readable or session.intents & Intent.MESSAGE_CONTENT):
                    data["content"] = ""
                if member is not None:
                    data["member"] = member.payload(with_user=False)
                await asyncio.wait_for(session.dispatch("MESSAGE_CREATE", data), 10.0)
        self.notify()
        return message

    def messages_in(
        self, channel: FakeChannel, *, include_ephemeral: bool = False
    ) -> list[MessageRecord]:
        """Messages in a channel, oldest first (deleted ones left out)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id
            and not m.deleted
            and (include_ephemeral or not m.ephemeral)
        ]

    # ----------------------------------------------------------------- gateway host

    def ready_payload(self, session: GatewaySession) -> JSON:
        """READY for a new session."""
        user = {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None}
        return {
            "v": API_VERSION,
            "user": user,
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in self.world.guilds.values()
                if session.owns(g.id)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "_trace": ["fake-discord"],
        }

    @property
    def application_flags(self) -> int:
        """GATEWAY_* flags for the privileged intents the application may use."""
        flags = 0
        if self.allowed_privileged_intents & Intent.GUILD_PRESENCES:
            flags |= 1 << 12
        if self.allowed_privileged_intents & Intent.GUILD_MEMBERS:
            flags |= 1 << 14
        if self.allowed_privileged_intents & Intent.MESSAGE_CONTENT:
            flags |= 1 << 18
        return flags

    def guild_create_payloads(self, session: GatewaySession) -> list[JSON]:
        """GUILD_CREATE for each guild; without GUILD_MEMBERS only the bot's own member."""
        payloads = []
        for guild in self.world.guilds.values():
            if not session.owns(guild.id):
                continue
            if session.intents & Intent.GUILD_MEMBERS:
                members = list(guild.members.values())
            else:
                members = [m for m in guild.members.values() if m.user is self.bot_user]
            payloads.append(guild.create_payload(include_members=members))
        return payloads

    def member_chunk(self, session: GatewaySession, request: JSON) -> JSON:
        """GUILD_MEMBERS_CHUNK answering REQUEST_GUILD_MEMBERS (query prefix or user ids)."""
        guild = self.world.guilds.get(int(request.get("guild_id") or 0))
        members = list(guild.members.values()) if guild else []
        ids = [int(i) for i in request.get("user_ids") or []]
        if ids:
            found = [m for m in members if m.id in ids]
            not_found = [str(i) for i in ids if i not in {m.id for m in found}]
        else:
            query = str(request.get("query") or "").lower()
            found = [m for m in members if m.name.lower().startswith(query)]
            limit = int(request.get("limit") or 0)
            found = found[:limit] if limit else found
            not_found = []
        chunk: JSON = {
            "guild_id": str(guild.id if guild else 0),
            "members": [m.payload() for m in found],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if request.get("nonce") is not None:
            chunk["nonce"] = request["nonce"]
        if request.get("presences"):
            chunk["presences"] = []
        return chunk

    # ----------------------------------------------------------------- test controls

    async def gateway_reconnect(self, timeout: float = 10.0) -> None:
        """Ask the bot to reconnect (op 7) and wait until it has RESUMEd."""
        session = self.gateway.session
        assert session is not None
        before = session.resumes
        await self.gateway.request_reconnect()
        await self.wait_for(
            lambda: True if session.resumes > before and session.connected else None,
            timeout,
            "the bot to RESUME",
        )

    async def gateway_outage(self) -> None:
        """Discord's gateway goes down: the bot's connection is cut and every new one is
        answered 503, until :meth:`gateway_restored`."""
        self.gateway.down = True
        with contextlib.suppress(RuntimeError):  # no bot connected: nothing to cut
            await self.gateway.drop(1001)

    def gateway_restored(self) -> None:
        """The outage is over: the gateway accepts connections again."""
        self.gateway.down = False

    async def gateway_drop(self, code: int = 4000, timeout: float = 10.0) -> None:
        """Cut the bot's gateway connection and wait until it has RESUMEd."""
        session = self.gateway.session
        assert session is not None
        before = session.resumes
        await self.gateway.drop(code)
        await self.wait_for(
            lambda: True if session.resumes > before and session.connected else None,
            timeout,
            "the bot to RESUME",
        )
