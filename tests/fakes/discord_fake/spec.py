"""Discord's published description of its HTTP API, and every request checked against it.

The description is Discord's OpenAPI 3.1 file (``tests/fakes/specs/discord-openapi.json``,
v10; origin and licence in the README beside it). :func:`check_request` finds the operation a
request names (method and path below ``/api/v10``), checks its query parameters and its body
(JSON, or the ``payload_json`` part of a multipart upload) with :mod:`tests.fakes.schema_check`,
and words each issue as Discord's ``50035 Invalid Form Body`` does: a nested ``errors`` object
of ``{"code", "message"}`` pairs at the field's path.

Where the description and Discord's prose documentation disagree, the documentation decides.
The exceptions are few, and each is written below with the page that says so:

- ids may be sent as JSON integers (:data:`SNOWFLAKE`);
- boolean query strings may be ``1``/``0`` (:data:`BOOLEAN_QUERY_VALUES`);
- a multipart upload carries its JSON in a ``payload_json`` part (``rest.RestApi._parse_body``
  reads it; the description lists only the body's fields and ``files[n]``);
- a message's ``content`` holds 2,000 characters, not the description's 4,000 (held by
  ``limits.CONTENT_MAX``, which every message the fake accepts goes through);
- embeds' ``flags`` and commands' ``nsfw`` exist (:data:`DOCUMENTED_FIELDS`);
- ``dm_permission`` is deprecated for ``contexts`` (:data:`DEPRECATED`).

What discord.py sends that no page allows is let through only in a form that asks for nothing
(:data:`TOLERATED`, :data:`TOLERATED_EXTRAS`) and recorded.

Two things the fake refuses though Discord would not: a field the description does not list
(Discord drops it silently; the fake answers ``UNKNOWN_FIELD``, so a misspelt or invented
field fails a test instead of doing nothing), and a deprecated field.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakes.schema_check import Issue, Schemas

from .limits import Problem

Json = dict[str, Any]

SPEC_FILE = Path(__file__).resolve().parent.parent / "specs" / "discord-openapi.json"

SNOWFLAKE: Json = {
    # Discord's "Reference › Snowflakes": ids are 64-bit unsigned integers that the API
    # *returns* as strings; requests may send them as JSON integers, as the docs' own
    # "Reference › Uploading Files" example does (``"attachments": [{"id": 0, ...}]``) and
    # as discord.py does (an upload's ``id`` is its ``files[n]`` index; ``recipient_id``).
    "type": ["string", "integer"],
    "pattern": "^(0|[1-9][0-9]*)$",
    "minimum": 0,
    "maximum": 2**64 - 1,
    "format": "snowflake",
}

BOOLEAN_QUERY_VALUES = {
    **dict.fromkeys(("True", "true", "1"), True),
    **dict.fromkeys(("False", "false", "0"), False),
}
"""Discord's "Reference › Boolean Query Strings": the API takes ``True``, ``true`` and ``1`` as
true and ``False``, ``false`` and ``0`` as false (discord.py sends ``with_response=1``)."""

DOCUMENTED_FIELDS: dict[str, dict[str, Json]] = {
    # "Message Resource › Embed Object": ``flags?`` integer, the embed flags (discord.py's
    # ``Embed.to_dict`` always writes it, ``0`` unless set).
    "RichEmbed": {"flags": {"type": ["integer", "null"], "minimum": 0}},
    # "Interactions › Application Commands": the create, edit and bulk-overwrite JSON params
    # list ``nsfw?`` boolean, "whether the command is age-restricted" (discord.py sends it).
    "ApplicationCommandCreateRequest": {"nsfw": {"type": ["boolean", "null"]}},
    "ApplicationCommandUpdateRequest": {"nsfw": {"type": ["boolean", "null"]}},
    "ApplicationCommandPatchRequestPartial": {"nsfw": {"type": ["boolean", "null"]}},
}
"""Fields the documentation lists that the description lacks."""

_DM_PERMISSION = {"dm_permission": "use contexts instead"}
DEPRECATED = {
    # "Interactions › Application Commands", Application Command Object: ``dm_permission``
    # is "Deprecated (use contexts instead)".
    "ApplicationCommandCreateRequest": _DM_PERMISSION,
    "ApplicationCommandUpdateRequest": _DM_PERMISSION,
    "ApplicationCommandPatchRequestPartial": _DM_PERMISSION,
}
"""Fields the documentation deprecates that the description does not mark, and why."""

TOLERATED = {
    "dm_permission": ("contexts", True),
}
"""Deprecated fields a library sends that the fake lets through when their replacement is
sent beside them (then the docs say the replacement decides) or when they hold their default
(they ask for nothing): discord.py 2.x writes ``dm_permission`` into every global command
(``app_commands.Command.to_dict``): ``false`` beside ``contexts: [0]`` for a
``guild_only`` command, else ``true``, the documented default ("By default, commands are
visible"). Each use is still recorded (:attr:`Checked.tolerated`)."""

TOLERATED_EXTRAS: dict[str, Any] = {"tts": False}
"""Undocumented fields a library sends that the fake lets through with this value only:
discord.py's ``http.handle_message_parameters`` writes ``"tts": false`` into every message
payload, edits included, and "Edit Message" / "Edit Webhook Message" list no ``tts``. A false
``tts`` asks for nothing and Discord drops fields it does not know; each use is recorded."""


@functools.cache
def description() -> Json:
    """The OpenAPI description, with the documented exceptions above written into it."""
    spec: Json = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = SNOWFLAKE
    for name, documented in DOCUMENTED_FIELDS.items():
        schemas[name]["properties"].update(documented)
    for name, deprecated in DEPRECATED.items():
        for prop, why in deprecated.items():
            schemas[name]["properties"][prop] = {
                **schemas[name]["properties"][prop],
                "deprecated": True,
                "description": why,
            }
    return spec


def _resolve(ref: str) -> Json:
    prefix = "#/components/schemas/"
    if not ref.startswith(prefix):
        raise ValueError(f"unexpected reference {ref!r} in Discord's description")
    schema: Json = description()["components"]["schemas"][ref[len(prefix) :]]
    return schema


@functools.cache
def schemas() -> Schemas:
    """The description's schemas, prepared once for every request of the test run."""
    return Schemas(_resolve)


@dataclass(frozen=True)
class Operation:
    """One method on one path of the description."""

    method: str
    template: str
    spec: Json = field(repr=False)
    parameters: dict[str, Json] = field(repr=False)
    """The query parameters' schemas, by name (the path's and the operation's)."""

    def body_schema(self, *, multipart: bool) -> Json | None:
        """The request body's schema for the content type used (None: no body described)."""
        content = (self.spec.get("requestBody") or {}).get("content") or {}
        media = content.get("multipart/form-data" if multipart else "application/json")
        return None if media is None else media.get("schema")


@functools.cache
def _routes() -> dict[int, list[tuple[re.Pattern[str], str, Json]]]:
    """The description's paths as patterns, grouped by their number of segments."""
    routes: dict[int, list[tuple[re.Pattern[str], str, Json]]] = {}
    for template, item in description()["paths"].items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        routes.setdefault(template.count("/"), []).append((re.compile(pattern), template, item))
    # A literal segment wins over a parameter (``/users/@me`` over ``/users/{user_id}``).
    for group in routes.values():
        group.sort(key=lambda route: route[1].count("{"))
    return routes


def operation(method: str, path: str) -> Operation | None:
    """The operation a request names, or None when the description has no such route."""
    for pattern, template, item in _routes().get(path.count("/"), []):
        if pattern.fullmatch(path):
            spec = item.get(method.lower())
            if spec is None:
                return None
            parameters = {
                p["name"]: p["schema"]
                for p in [*item.get("parameters", []), *spec.get("parameters", [])]
                if p.get("in") == "query"
            }
            return Operation(method.upper(), template, spec, parameters)
    return None


@dataclass
class Checked:
    """What the check found: problems to refuse the request for, and tolerated uses."""

    operation: Operation | None
    problems: list[Problem] = field(default_factory=list)
    tolerated: list[Problem] = field(default_factory=list)


def check_request(
    method: str,
    path: str,
    query: Mapping[str, str],
    body: Any,
    *,
    multipart: bool = False,
) -> Checked:
    """Check a request (path below ``/api/v10``) against Discord's description."""
    found = operation(method, path)
    checked = Checked(found)
    if found is None:
        checked.problems.append(
            Problem((), "UNKNOWN_ROUTE", f"Discord's API description has no {method} {path}.")
        )
        return checked
    for name, text in query.items():
        schema = found.parameters.get(name)
        if schema is None:
            checked.problems.append(_unknown((), name))
            continue
        value = _query_value(schema, text)
        checked.problems.extend(_word(i) for i in schemas().check(schema, value, (name,)))
    schema = found.body_schema(multipart=multipart)
    if body is None:
        return checked
    if schema is None:
        checked.problems.append(Problem((), "UNKNOWN_FIELD", f"{method} {path} takes no body."))
        return checked
    for issue in schemas().check(schema, body):
        if _tolerated(issue, body):
            checked.tolerated.append(_word(issue))
        else:
            checked.problems.append(_word(issue))
    return checked


def _query_value(schema: Json, text: str) -> Any:
    """A query string's value as the JSON type its schema names (the text if it is not one)."""
    kind = schemas().node(schema).target.types or frozenset()
    if "boolean" in kind:
        return BOOLEAN_QUERY_VALUES.get(text, text)
    if "integer" in kind and re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return text


def _tolerated(issue: Issue, body: Any) -> bool:
    """Whether an issue is a library's use the fake lets through (:data:`TOLERATED`,
    :data:`TOLERATED_EXTRAS`)."""
    holder: Any = body
    for part in issue.path[: -1 if issue.kind == "deprecated" else None]:
        holder = holder[part]
    if not isinstance(holder, dict):
        return False
    if issue.kind == "deprecated" and issue.path and str(issue.path[-1]) in TOLERATED:
        name = str(issue.path[-1])
        replacement, default = TOLERATED[name]
        return holder.get(replacement) is not None or _same(holder[name], default)
    if issue.kind == "unknown" and issue.limit in TOLERATED_EXTRAS:
        return _same(holder[issue.limit], TOLERATED_EXTRAS[issue.limit])
    return False


def _same(value: Any, expected: Any) -> bool:
    return type(value) is type(expected) and value == expected


# ---------------------------------------------------------------------- Discord's wording


_TYPE_WORDS = {
    "integer": ("NUMBER_TYPE_COERCE", "int"),
    "number": ("NUMBER_TYPE_COERCE", "float"),
    "boolean": ("BOOLEAN_TYPE_COERCE", "boolean"),
    "string": ("STRING_TYPE_CONVERT", "string"),
    "array": ("LIST_TYPE_CONVERT", "list"),
    "object": ("DICT_TYPE_CONVERT", "dict"),
}


def _unknown(path: tuple[str | int, ...], name: str) -> Problem:
    return Problem(
        (*path, name),
        "UNKNOWN_FIELD",
        f'"{name}" is not a field in Discord\'s API description (Discord would ignore it).',
    )


def _choices(values: Iterable[Any]) -> str:
    return "(" + ", ".join(json.dumps(v) for v in values) + ")"


def _word(issue: Issue) -> Problem:
    """One issue as Discord words it in an ``Invalid Form Body`` answer."""
    path, kind, limit, value = issue.path, issue.kind, issue.limit, issue.value
    if kind == "unknown":
        return _unknown(path, str(limit))
    if kind == "required":
        return Problem(path, "BASE_TYPE_REQUIRED", "This field is required")
    if kind == "type":
        if value is None:
            return Problem(path, "BASE_TYPE_REQUIRED", "This field is required")
        expected = [t for t in limit if t != "null"] or ["null"]
        code, word = _TYPE_WORDS.get(expected[0], ("BASE_TYPE_CHOICES", expected[0]))
        shown = value if isinstance(value, str | int | float) else type(value).__name__
        return Problem(path, code, f'Value "{shown}" is not {word}.')
    if kind == "choices":
        return Problem(path, "BASE_TYPE_CHOICES", f"Value must be one of {_choices(limit)}.")
    if kind == "union":
        key, allowed = limit
        return Problem(
            path,
            "UNION_TYPE_CHOICES",
            f'Value of field "{key}" must be one of {_choices(allowed)}.',
        )
    if kind in ("max_length", "max_items", "max_properties"):
        return Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    if kind in ("min_length", "min_items"):
        return Problem(path, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")
    if kind == "maximum":
        return Problem(
            path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
        )
    if kind == "minimum":
        return Problem(
            path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
        )
    if kind == "pattern" and limit == SNOWFLAKE["pattern"]:
        return Problem(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
    if kind == "pattern":
        return Problem(path, "REGEX_VALIDATE", f'Value "{value}" does not match {limit}.')
    if kind == "unique":
        return Problem(path, "BASE_TYPE_DUPLICATES", "Values must be unique.")
    if kind == "deprecated":
        return Problem(
            path, "DEPRECATED_FIELD", f"Deprecated in Discord's documentation ({limit})."
        )
    return Problem(path, kind.upper(), f"Not as Discord's API description says ({kind}).")
