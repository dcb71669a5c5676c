"""The Sheets API's discovery document, and every request to the fake checked against it.

The document is the one Google's client libraries are generated from, as shipped inside
``google-api-python-client`` (pinned in the ``test`` extra):
``googleapiclient/discovery_cache/documents/sheets.v4.json``. :func:`refusal` checks one API
call (method name, query, JSON body) with :mod:`tests.fakes.schema_check` and answers the
``400 INVALID_ARGUMENT`` Google sends, worded as Google words it, or None:

- a name the request's message does not have: ``Invalid JSON payload received. Unknown name
  "x" at 'requests[0].update_cells': Cannot find field.`` (a query parameter: ``Cannot bind
  query parameter``);
- a value of the wrong type or outside an enum: ``Invalid value at
  'requests[0].add_sheet.properties.sheet_type' (type.googleapis.com/...SheetType), "X"``;
- a field mask (a request's ``fields``, or the ``fields`` query parameter) naming a field that
  does not exist, from the root the document gives it ("The root `properties` is implied");
- the limits Google documents outside the document (:data:`DOCUMENTED_LIMITS`);
- a field the document marks deprecated (``CellFormat.backgroundColor``): Google still takes
  it, the fake refuses it, so that no request of ours uses one.

Locations are written as Google writes them: proto field names (``update_cells``) with list
indexes (``rows[0]``).
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Mapping
from typing import Any

from tests.fakes.schema_check import Issue, Node, Path, Schemas
from tests.fakes.sheets import fieldmask
from tests.fakes.sheets.errors import ApiError

Json = dict[str, Any]

DISCOVERY_PACKAGE = "googleapiclient"
DISCOVERY_FILE = ("discovery_cache", "documents", "sheets.v4.json")

CELL_CHARACTERS_MAX = 50_000
"""Google Drive Help, "Files you can store in Google Drive" (Spreadsheets): a cell holds at
most 50,000 characters; Sheets answers "Your input contains more than the maximum of 50000
characters in a single cell." The discovery document has no lengths, so it is written here."""

DOCUMENTED_LIMITS: dict[str, dict[str, Json]] = {
    "ExtendedValue": {
        "stringValue": {"maxLength": CELL_CHARACTERS_MAX},
        "formulaValue": {"maxLength": CELL_CHARACTERS_MAX},
    },
}
"""Limits from Google's prose documentation, merged into the document's schemas."""

_MAX_LINES = 20
"""Google joins the problems of one request with newlines; the fake names at most this many."""


@functools.cache
def discovery() -> Json:
    """The discovery document, with :data:`DOCUMENTED_LIMITS` written into its schemas."""
    path = importlib.resources.files(DISCOVERY_PACKAGE).joinpath(*DISCOVERY_FILE)
    document: Json = json.loads(path.read_text(encoding="utf-8"))
    schemas = document["schemas"]
    for name, properties in DOCUMENTED_LIMITS.items():
        for prop, limits in properties.items():
            schemas[name]["properties"][prop] = {**schemas[name]["properties"][prop], **limits}
    # ValueRange.values: rows of cells of any type; a cell written as a string has the limit.
    rows = schemas["ValueRange"]["properties"]["values"]["items"]
    rows["items"] = {**rows["items"], "maxLength": CELL_CHARACTERS_MAX}
    return document


@functools.cache
def schemas() -> Schemas:
    """The document's schemas, prepared once. ``null`` passes any field: proto3's JSON
    mapping (protobuf.dev, "ProtoJSON Format") reads it as the field's default."""
    return Schemas(
        lambda name: discovery()["schemas"][name],
        null_is_default=True,
        format_checks={"google-fieldmask": _update_mask},
    )


@functools.cache
def methods() -> dict[str, Json]:
    """The API's methods by name (``spreadsheets.values.update``), as the fake's ``Op`` names
    them."""
    found: dict[str, Json] = {}

    def walk(resource: Json) -> None:
        for method in resource.get("methods", {}).values():
            found[method["id"].removeprefix("sheets.")] = method
        for child in resource.get("resources", {}).values():
            walk(child)

    walk(discovery())
    return found


def refusal(operation: str, query: Mapping[str, list[str]], body: Any) -> ApiError | None:
    """Google's 400 answer to a call its discovery document does not allow, or None."""
    method = methods()[operation]
    lines: list[tuple[str, str]] = []
    for name, values in query.items():
        lines.extend(_query_problems(method, name, values))
    request = method.get("request")
    if request is not None and body is not None:
        issues = schemas().check(request, body)
        lines.extend((_location(i.path), _word(i)) for i in issues)
    if not lines:
        return None
    shown = [line for _, line in lines[:_MAX_LINES]]
    if len(lines) > _MAX_LINES:
        shown.append(f"... and {len(lines) - _MAX_LINES} more.")
    violations = [{"field": field, "description": line} for field, line in lines[:_MAX_LINES]]
    return ApiError(
        400,
        "\n".join(shown),
        details=[
            {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": violations}
        ],
    )


# ---------------------------------------------------------------------- query parameters


def _query_problems(method: Json, name: str, values: list[str]) -> list[tuple[str, str]]:
    parameter = method.get("parameters", {}).get(name) or discovery()["parameters"].get(name)
    if parameter is None or parameter.get("location") != "query":
        return [
            (
                name,
                f'Invalid JSON payload received. Unknown name "{name}": Cannot bind query '
                f"parameter. Field '{name}' could not be found in request message.",
            )
        ]
    problems = []
    if len(values) > 1 and not parameter.get("repeated"):
        problems.append((name, f"Invalid value at '{_snake(name)}': it is not repeated."))
    for value in values:
        kind = parameter.get("type")
        if kind == "boolean" and value not in ("true", "false"):
            problems.append((name, f"Invalid value at '{_snake(name)}' (TYPE_BOOL), \"{value}\""))
        elif kind == "integer" and not re.fullmatch(r"-?[0-9]+", value):
            problems.append((name, f"Invalid value at '{_snake(name)}' (TYPE_INT32), \"{value}\""))
        elif "enum" in parameter and value not in parameter["enum"]:
            problems.append((name, _enum_message(_snake(name), name, value)))
    if name == "fields" and "response" in method:
        root = schemas().resolved(method["response"]["$ref"])
        for value in values:
            problems.extend(
                (name, f"Invalid field selection: {detail}")  # the response's mask
                for detail in _mask_problems(value, root)
            )
    return problems


# ---------------------------------------------------------------------- field masks


def _update_mask(value: str, holder: Node, path: Path) -> list[Issue]:
    """The issues of a request's ``fields`` (format ``google-fieldmask``): every path must
    name fields of the mask's root, which the field's description gives."""
    root = _mask_root(holder)
    if root is None:
        return []
    return [Issue(path, "mask", detail, value) for detail in _mask_problems(value, root)]


def _mask_root(holder: Node) -> Node | None:
    """The root of an update mask, read from its description: "The root `properties` is
    implied", "The root is the CellData", "The root `newPosition.overlayPosition`"."""
    description = holder.properties["fields"].description
    found = re.search(r"The root (?:is the (\w+)|[`'\"]([\w.]+)[`'\"] is implied)", description)
    if found is None:
        return None
    if found.group(1):
        return schemas().resolved(found.group(1))
    node = holder
    for name in found.group(2).split("."):
        if name not in node.properties:
            return schemas().resolved(name)  # a schema's name (`SlicerSpec`), not a field's
        node = node.properties[name].target
    return node


def _mask_problems(text: str, root: Node) -> list[str]:
    """What is wrong with a field mask read from ``root``: unknown or deprecated fields."""
    try:
        mask = fieldmask.parse(text)
    except ValueError as problem:
        return [str(problem)]
    problems = []
    for path in fieldmask.leaf_paths(mask):
        node = root
        for depth, name in enumerate(path):
            while node.items is not None:  # a repeated field: its mask applies to each item
                node = node.items.target
            if name == "*":
                break
            if node.additional is not None:  # a map: any key
                node = node.additional.target
                continue
            child = node.properties.get(name)
            named = ".".join(path[: depth + 1])
            if child is None:
                problems.append(f'{node.name or "the message"} has no field "{name}" ({named})')
                break
            if child.deprecated:
                problems.append(f"{named} is deprecated ({child.deprecated})")
            node = child.target
    return problems


# ---------------------------------------------------------------------- Google's wording


def _snake(name: str) -> str:
    """A JSON field name as the proto field Google's messages name (``update_cells``)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _location(path: Path) -> str:
    """``requests[0].update_cells.rows[0].values[2]``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{_snake(part)}"
    return text.lstrip(".")


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _enum_message(location: str, field: str, value: Any) -> str:
    enum = field[:1].upper() + field[1:]
    return (
        f"Invalid value at '{location}' (type.googleapis.com/google.apps.sheets.v4.{enum}), "
        f"{_shown(value)}"
    )


_PROTO_TYPES = {
    "integer": "TYPE_INT32",
    "number": "TYPE_DOUBLE",
    "boolean": "TYPE_BOOL",
    "string": "TYPE_STRING",
    "array": "type.googleapis.com/google.protobuf.ListValue",
}
"""The proto type Google names for a value of the wrong JSON type (every integer of the
Sheets API is an int32, every number but a few chart sizes a double)."""


def _word(issue: Issue) -> str:
    """One issue as Google words it."""
    path, kind, limit, value = issue.path, issue.kind, issue.limit, issue.value
    location = _location(path)
    if kind == "unknown":
        at = f" at '{location}'" if location else ""
        return f'Invalid JSON payload received. Unknown name "{limit}"{at}: Cannot find field.'
    if kind == "type":
        expected = limit[0] if limit else "object"
        if issue.schema:
            proto = f"type.googleapis.com/google.apps.sheets.v4.{issue.schema}"
        else:
            proto = _PROTO_TYPES.get(expected, "TYPE_MESSAGE")
        return f"Invalid value at '{location}' ({proto}), {_shown(value)}"
    if kind == "choices":
        return _enum_message(location, str(path[-1]) if path else "value", value)
    if kind == "max_length":
        return (
            f"Invalid value at '{location}': Your input contains more than the maximum of "
            f"{limit} characters in a single cell."
        )
    if kind == "mask":
        prefix = f"Invalid {_request_name(path)}: " if _request_name(path) else ""
        return f"{prefix}Invalid field mask: {limit}"
    if kind == "deprecated":
        return (
            f"Harkness Sheets fake: '{location}' is deprecated in the Sheets API ({limit}); "
            "Google still takes it, the fake refuses it."
        )
    return f"Invalid value at '{location}': {kind} {limit}, {_shown(value)}"


def _request_name(path: Path) -> str:
    """``requests[0].updateCells`` for a path inside a ``batchUpdate`` request."""
    if len(path) >= 3 and path[0] == "requests" and isinstance(path[1], int):
        return f"requests[{path[1]}].{path[2]}"
    return ""
