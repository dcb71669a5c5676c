"""What the fake saw: requests, messages, interaction callbacks, and rule violations.

A test drives the fake with an interaction and then awaits what the bot sent back on an
:class:`InteractionRecord`. Every helper that waits re-checks the record's violations
first, so a bot that breaks one of Discord's rules fails the test with a
:class:`DiscordLimitError` saying which rule, where, and by how much.
"""

from __future__ import annotations

import enum
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .limits import Problem
from .models import (
    JSON,
    CallbackType,
    FakeChannel,
    FakeMember,
    FakeUser,
    InteractionType,
    MessageFlag,
)

T = TypeVar("T")

DEFAULT_WAIT = 30.0
"""Seconds a helper waits for the bot before failing the test. Only its patience: Discord's
3-second rule is checked by the fake itself (``response_deadline``) whatever the wait, and a
loaded machine may take more than a few seconds to answer a hundred members at once."""


class FakeUsageError(Exception):
    """The test asked for something a Discord user cannot do (e.g. click a disabled button)."""


class CommandUnavailable(FakeUsageError):
    """Discord would not offer this command to this user (permissions, DM, not registered)."""


class ViolationKind(enum.StrEnum):
    """The rule the bot broke."""

    INVALID_FORM_BODY = "invalid form body"
    EMPTY_MESSAGE = "empty message"
    LATE_RESPONSE = "late response"
    DOUBLE_RESPONSE = "double response"
    BAD_RESPONSE_TYPE = "response type not valid for this interaction"
    UNKNOWN_WEBHOOK = "webhook used before the interaction was acknowledged"
    TOKEN_EXPIRED = "interaction token expired"
    UNKNOWN_MESSAGE = "unknown message"
    COMMAND_SYNC = "invalid application command"
    MISSING_PERMISSIONS = "missing permissions"
    PAYLOAD_TOO_LARGE = "attachment too large"
    UNSUPPORTED_ROUTE = "route the fake does not implement"
    NOT_DESCRIBED = "route Discord's API description does not have"


@dataclass(eq=False)
class Violation:
    """One breach of Discord's rules, as the fake answered it."""

    kind: ViolationKind
    summary: str
    method: str
    path: str
    problems: tuple[Problem, ...] = ()
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)
    reported: bool = False

    def __str__(self) -> str:
        lines = [f"{self.kind}: {self.summary} ({self.method} {self.path})"]
        lines.extend(f"    - {problem}" for problem in self.problems)
        return "\n".join(lines)


class DiscordLimitError(AssertionError):
    """The bot did something real Discord rejects; ``violations`` says what."""

    def __init__(self, violations: Sequence[Violation], context: str = "") -> None:
        self.violations = list(violations)
        for violation in self.violations:
            violation.reported = True
        head = f"Discord would reject what the bot sent{f' for {context}' if context else ''}:"
        super().__init__("\n".join([head, *(f"  {v}" for v in self.violations)]))

    @property
    def kinds(self) -> set[ViolationKind]:
        """The kinds of rule broken."""
        return {v.kind for v in self.violations}


class Waiter(Protocol):
    """What records need from the fake to wait for the bot."""

    async def wait_for(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``probe()`` returns something other than ``None``."""
        ...


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart/form-data request."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass(eq=False)
class RequestRecord:
    """One HTTP request the bot made, with the fake's answer."""

    method: str
    path: str
    """Path below the API base (``/channels/1/messages``), or the full path outside it."""
    query: dict[str, str]
    json: Any
    """The JSON body, or the ``payload_json`` part of a multipart body."""
    files: list[UploadedFile]
    at: float
    status: int = 0
    response: Any = None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} → {self.status}>"


@dataclass(eq=False)
class AttachmentRecord:
    """A file the bot uploaded (decoded from multipart/form-data), or a user's upload."""

    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def text(self, encoding: str = "utf-8") -> str:
        """The file's content decoded as text."""
        return self.data.decode(encoding)

    def payload(self) -> JSON:
        """The attachment object."""
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data

    def __repr__(self) -> str:
        return f"<attachment {self.filename} {self.size} bytes {self.content_type}>"


@dataclass(eq=False)
class MessageRecord:
    """A message as users see it; ``history`` keeps the versions before each edit."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[AttachmentRecord] = field(default_factory=list)
    type: int = 0
    via: str = "channel"
    """How it was made: ``callback``, ``deferred``, ``followup``, ``channel`` or ``user``."""
    interaction: InteractionRecord | None = None
    webhook_id: int | None = None
    timestamp: str = ""
    edited_timestamp: str | None = None
    message_reference: JSON | None = None
    history: list[JSON] = field(default_factory=list)
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user can see the message."""
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is still a deferred "Bot is thinking…" placeholder."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def text(self) -> str:
        """All the words a user reads: content, then each embed's parts, then text displays."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(
                str(x)
                for x in (
                    (embed.get("author") or {}).get("name"),
                    embed.get("title"),
                    embed.get("description"),
                )
                if x
            )
            for embed_field in embed.get("fields") or []:
                parts.append(f"{embed_field.get('name')}\n{embed_field.get('value')}")
            footer = (embed.get("footer") or {}).get("text")
            if footer:
                parts.append(str(footer))
        parts.extend(c["content"] for c in walk_components(self.components) if c.get("type") == 10)
        return "\n".join(parts)

    def buttons(self) -> list[JSON]:
        """Every button in the message, in reading order."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> JSON:
        """The button with this label or custom_id."""
        for button in self.buttons():
            if (label is None or button.get("label") == label) and (
                custom_id is None or button.get("custom_id") == custom_id
            ):
                return button
        labels = [b.get("label") for b in self.buttons()]
        raise FakeUsageError(f"no button {label or custom_id!r} in message {self.id}: {labels}")

    def attachment(self, filename: str) -> AttachmentRecord:
        """The attachment called ``filename``."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise KeyError(f"no attachment {filename!r} in message {self.id}: {names}")

    def snapshot(self) -> JSON:
        """The visible state, kept in ``history`` before an edit."""
        return {
            "content": self.content,
            "embeds": json.loads(json.dumps(self.embeds)),
            "components": json.loads(json.dumps(self.components)),
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachments],
        }

    def payload(self) -> JSON:
        """The message object, as REST returns it and gateway events carry it."""
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        source = self.interaction
        if source is not None:
            metadata: JSON = {
                "id": str(source.id),
                "type": int(source.type),
                "user": source.user.payload(),
                "authorizing_integration_owners": (
                    {"0": str(source.channel.guild.id)} if source.channel.guild else {"1": "0"}
                ),
            }
            if source.source_message is not None:
                metadata["interacted_message_id"] = str(source.source_message.id)
            data["interaction_metadata"] = metadata
        return data

    def __repr__(self) -> str:
        kind = "ephemeral " if self.ephemeral else ""
        return f"<{kind}message {self.id} via {self.via}: {self.text[:60]!r}>"


@dataclass(eq=False)
class CallbackRecord:
    """One POST to /interactions/{id}/{token}/callback, accepted or refused."""

    type: int
    data: JSON | None
    at: float
    elapsed: float
    """Seconds between INTERACTION_CREATE and this callback."""
    status: int
    accepted: bool
    attachments: list[AttachmentRecord] = field(default_factory=list)
    error: JSON | None = None
    message: MessageRecord | None = None
    """The message this callback created or updated (types 4, 5, 7)."""

    @property
    def kind(self) -> CallbackType | int:
        """The callback type as an enum when known."""
        try:
            return CallbackType(self.type)
        except ValueError:
            return self.type

    @property
    def ephemeral(self) -> bool:
        """Whether the callback asked for an ephemeral answer."""
        return bool(int((self.data or {}).get("flags") or 0) & MessageFlag.EPHEMERAL)

    def __repr__(self) -> str:
        state = "accepted" if self.accepted else f"refused {self.status}"
        return f"<callback {self.kind!r} after {self.elapsed:.3f}s {state}>"


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the test injected, and everything the bot did with its token."""

    id: int
    token: str
    type: InteractionType
    label: str
    """What the user did, for messages: ``/tournament create``, ``button 'Confirm'``…"""
    user: FakeUser
    member: FakeMember | None
    channel: FakeChannel
    payload: JSON
    waiter: Waiter = field(repr=False)
    focused_option_type: int | None = None
    source_message: MessageRecord | None = None
    """The message whose component was used (component and modal-submit interactions)."""
    sent_at: float | None = None
    callbacks: list[CallbackRecord] = field(default_factory=list)
    original: MessageRecord | None = None
    followups: list[MessageRecord] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    original_edits: int = 0
    """How many times the bot edited the original response (PATCH …/messages/@original)."""
    modal_submitted: bool = False

    @property
    def acknowledged(self) -> CallbackRecord | None:
        """The accepted initial response, if any."""
        return next((c for c in self.callbacks if c.accepted), None)

    @property
    def messages(self) -> list[MessageRecord]:
        """Messages this interaction's token created: the original, then follow-ups."""
        found = [self.original] if self.original and self.original.interaction is self else []
        return [*found, *self.followups]

    def raise_for_violations(self) -> None:
        """Raise :class:`DiscordLimitError` if the bot broke a rule on this interaction."""
        if self.violations:
            raise DiscordLimitError(self.violations, self.label)

    async def _wait(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        def checked() -> T | None:
            self.raise_for_violations()
            return probe()

        return await self.waiter.wait_for(checked, timeout, f"{what} to {self.label}")

    async def response(self, timeout: float = DEFAULT_WAIT) -> CallbackRecord:
        """The bot's initial response; raises if it was refused, late, or never came."""
        return await self._wait(lambda: self.acknowledged, timeout, "an initial response")

    async def reply(self, timeout: float = DEFAULT_WAIT) -> MessageRecord:
        """The message the response shows the user, once it is no longer "thinking".

        After a deferral this waits for the edit of the original (or the first follow-up,
        which Discord turns into that edit); after a deferred update (type 6) it waits for
        the component's message to be edited.
        """
        first = await self.response(timeout)
        if first.type in (
            CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
            CallbackType.MODAL,
        ):
            raise FakeUsageError(f"{self.label} was answered with {first.kind!r}, not a message")

        def ready() -> MessageRecord | None:
            message = self.original
            if message is None or message.loading:
                return None
            if first.type == CallbackType.DEFERRED_UPDATE_MESSAGE and not self.original_edits:
                return None
            return message

        return await self._wait(ready, timeout, "a reply")

    async def followup(self, index: int = 0, timeout: float = DEFAULT_WAIT) -> MessageRecord:
        """The ``index``-th follow-up message that created a new message."""

        def probe() -> MessageRecord | None:
            return self.followups[index] if len(self.followups) > index else None

        return await self._wait(probe, timeout, f"follow-up #{index + 1}")

    async def choices(self, timeout: float = DEFAULT_WAIT) -> list[JSON]:
        """The autocomplete choices the bot offered."""
        first = await self.response(timeout)
        if first.type != CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
            raise FakeUsageError(f"{self.label} was answered with {first.kind!r}, not choices")
        return list((first.data or {}).get("choices") or [])

    async def modal(self, timeout: float = DEFAULT_WAIT) -> JSON:
        """The modal the bot opened (``custom_id``, ``title``, ``components``)."""
        first = await self.response(timeout)
        if first.type != CallbackType.MODAL:
            raise FakeUsageError(f"{self.label} was answered with {first.kind!r}, not a modal")
        return dict(first.data or {})

    def __repr__(self) -> str:
        return f"<interaction {self.id} {self.label} by {self.user.username}>"


def walk_components(components: Sequence[JSON]) -> list[JSON]:
    """Every component, depth first (rows, sections, containers, labels and their children)."""
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found.extend(walk_components(component.get("components") or []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                found.extend(walk_components([child]))
    return found
