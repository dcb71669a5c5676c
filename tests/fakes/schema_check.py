"""Check a JSON value against a schema of a provider's API description.

The fakes hold every request to what the provider documents: Discord's OpenAPI 3.1
description (``tests/fakes/specs/``) and the Sheets API's discovery document (shipped in
``google-api-python-client``). Both describe bodies with the same few JSON-Schema keywords,
which this module checks, and nothing more:

- ``$ref`` (followed through a ``resolve`` function the description supplies), ``allOf``,
  ``oneOf`` and ``anyOf`` (both read as "one of these fits");
- ``type`` (a name or a list of names: ``["string", "null"]`` is a nullable string; the
  discovery document's ``any`` takes anything), ``enum`` and ``const``;
- ``properties``, ``required`` and ``additionalProperties``. An object schema that lists its
  properties and has no ``additionalProperties`` is *closed*: a name it does not list is an
  unknown field (Google answers "Unknown name"; the fakes refuse it from Discord too);
- ``minLength``/``maxLength``, ``minItems``/``maxItems``, ``minimum``/``maximum``,
  ``maxProperties``, ``uniqueItems``, ``pattern``, and the integer ranges of ``format``
  (``int32``, ``uint32``, ``int64``, ``uint64``; an ``int64`` may be a string of digits, as
  proto3's JSON mapping writes it);
- ``deprecated``: reported as an issue of its own, for the fake to refuse.

The checker answers a list of :class:`Issue` values (every problem, not just the first); each
fake words them as its provider does. Schemas are prepared once into :class:`Node` values,
cached by identity, so a request of 10^5 cells is checked without re-reading a schema.

>>> schemas = Schemas(lambda name: {"Color": {"type": "object",
...     "properties": {"red": {"type": "number"}}}}[name])
>>> schemas.check({"$ref": "Color"}, {"red": 1, "blu": 0})
[Issue(path=(), kind='unknown', limit='blu', value=None, schema=None)]
>>> schemas.check({"type": "string", "maxLength": 3}, "Alice")
[Issue(path=(), kind='max_length', limit=3, value='Alice', schema=None)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]
Path = tuple[str | int, ...]

#: What an issue is about. ``limit`` holds, by kind: ``unknown`` the unknown name;
#: ``required`` nothing; ``type`` the allowed type names; ``choices`` the allowed values;
#: ``union`` the discriminating property and its allowed values; ``max_length`` (and the
#: other bounds) the bound; ``pattern`` the pattern; ``deprecated`` the schema's description;
#: ``mask`` what a field-mask check found (see ``Schemas(format_checks=...)``).
KINDS = (
    "unknown",
    "required",
    "type",
    "choices",
    "union",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
    "minimum",
    "maximum",
    "max_properties",
    "unique",
    "pattern",
    "deprecated",
    "mask",
)

#: The ranges of the integer formats.
INTEGER_RANGES = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}
_DIGITS = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class Issue:
    """One way a value breaks its schema, at a path of names and list indexes."""

    path: Path
    kind: str
    limit: Any = None
    value: Any = None
    schema: str | None = None
    """The name of the schema refused (its ``id`` or ``title``), where it has one."""


_JSON_TYPES = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


def json_type(value: Any) -> str:
    """The JSON type name of a decoded JSON value.

    >>> json_type(True), json_type(1), json_type(1.5), json_type(None)
    ('boolean', 'integer', 'number', 'null')
    """
    return _JSON_TYPES.get(type(value), "object")


class Node:
    """One schema, read once: its keywords as attributes, its sub-schemas prepared lazily."""

    def __init__(self, schemas: Schemas, schema: Json) -> None:
        get = schema.get
        self.ref: str | None = get("$ref")
        self.deprecated: str | None = None
        if get("deprecated"):
            self.deprecated = str(get("description") or "deprecated")
        kind = get("type")
        names = [kind] if isinstance(kind, str) else list(kind or [])
        self.types: frozenset[str] | None = (
            None if not names or "any" in names else frozenset(names)
        )
        self.enum: list[Any] | None = get("enum")
        self.const: list[Any] | None = [schema["const"]] if "const" in schema else None
        self.format: str | None = get("format")
        self.pattern: re.Pattern[str] | None = (
            re.compile(schema["pattern"]) if "pattern" in schema else None
        )
        self.bounds = {
            key: schema[key]
            for key in (
                "minLength",
                "maxLength",
                "minItems",
                "maxItems",
                "minimum",
                "maximum",
                "maxProperties",
            )
            if key in schema
        }
        self.unique: bool = bool(get("uniqueItems"))
        self.required: tuple[str, ...] = tuple(get("required") or ())
        self.description: str = str(get("description") or "")
        self.name: str | None = get("id") or get("title")
        self._schemas = schemas
        self._raw = schema
        self._target: Node | None = None if self.ref else self
        self._parts: list[Node] | None = None
        self._branches: list[Node] | None = None
        self._properties: dict[str, Node] | None = None
        self._known: frozenset[str] | None = None
        self._items: Node | None = None
        self._additional: Node | None = None
        self._formats: dict[str, FormatCheck] | None = None

    # Sub-schemas, prepared on first use (references may be recursive).

    @property
    def target(self) -> Node:
        """The node a ``$ref`` names (itself when it is no reference)."""
        if self._target is None:
            assert self.ref is not None
            self._target = self._schemas.resolved(self.ref)
        return self._target

    @property
    def parts(self) -> list[Node]:
        """The ``allOf`` sub-schemas."""
        if self._parts is None:
            self._parts = [self._schemas.node(part) for part in self._raw.get("allOf", [])]
        return self._parts

    @property
    def branches(self) -> list[Node]:
        """The ``oneOf`` and ``anyOf`` alternatives."""
        if self._branches is None:
            raw = [*self._raw.get("oneOf", []), *self._raw.get("anyOf", [])]
            self._branches = [self._schemas.node(branch) for branch in raw]
        return self._branches

    @property
    def properties(self) -> dict[str, Node]:
        """The listed properties."""
        if self._properties is None:
            raw = self._raw.get("properties", {})
            self._properties = {name: self._schemas.node(sub) for name, sub in raw.items()}
        return self._properties

    @property
    def known(self) -> frozenset[str]:
        """Every property name this schema and its ``allOf`` parts list."""
        if self._known is None:
            names = set(self.properties)
            for part in self.parts:
                names |= part.target.known
            self._known = frozenset(names)
        return self._known

    @property
    def closed(self) -> bool:
        """Whether a name outside :attr:`known` is an unknown field."""
        if "additionalProperties" in self._raw:
            return False
        return "properties" in self._raw or any(part.target.closed for part in self.parts)

    @property
    def items(self) -> Node | None:
        """The schema of an array's items."""
        if self._items is None and isinstance(self._raw.get("items"), dict):
            self._items = self._schemas.node(self._raw["items"])
        return self._items

    @property
    def additional(self) -> Node | None:
        """The schema of the values of a map (``additionalProperties``)."""
        if self._additional is None and isinstance(self._raw.get("additionalProperties"), dict):
            self._additional = self._schemas.node(self._raw["additionalProperties"])
        return self._additional

    @property
    def formats(self) -> dict[str, FormatCheck]:
        """The properties whose ``format`` has a check of its own (see :class:`Schemas`)."""
        if self._formats is None:
            checks = self._schemas.format_checks
            self._formats = {
                name: checks[child.format or child.target.format or ""]
                for name, child in self.properties.items()
                if (child.format or child.target.format) in checks
            }
        return self._formats


FormatCheck = Callable[[Any, Node, Path], Iterable[Issue]]
"""A check of a string ``format`` that needs its context: ``(value, the object schema that
holds the property, the path)`` → issues. The Sheets fake checks field masks with one."""


class Schemas:
    """The schemas of one API description, prepared on demand and cached.

    ``resolve`` turns a ``$ref`` into its schema. With ``null_is_default`` a ``null`` passes
    any schema (proto3's JSON mapping reads it as the field's default: Google); without it
    ``null`` must be allowed by the schema (OpenAPI: Discord).
    """

    def __init__(
        self,
        resolve: Callable[[str], Json],
        *,
        null_is_default: bool = False,
        format_checks: Mapping[str, FormatCheck] | None = None,
    ) -> None:
        self._resolve = resolve
        self._nodes: dict[int, Node] = {}
        self._refs: dict[str, Node] = {}
        self._keep: list[Json] = []
        self.null_is_default = null_is_default
        self.format_checks = dict(format_checks or {})

    def node(self, schema: Json) -> Node:
        """The prepared node of a schema (the same node for the same schema object)."""
        node = self._nodes.get(id(schema))
        if node is None:
            node = Node(self, schema)
            self._nodes[id(schema)] = node
            self._keep.append(schema)  # ids stay unique while the schema is alive
        return node

    def resolved(self, ref: str) -> Node:
        """The node a ``$ref`` names, following chains of references."""
        node = self._refs.get(ref)
        if node is None:
            node = self.node(self._resolve(ref))
            while node.ref:
                node = self.node(self._resolve(node.ref))
            self._refs[ref] = node
        return node

    def check(self, schema: Json | Node, value: Any, path: Path = ()) -> list[Issue]:
        """Every issue of ``value`` against ``schema``; empty when it fits."""
        out: list[Issue] = []
        self._check(schema if isinstance(schema, Node) else self.node(schema), value, path, out)
        return out

    # ------------------------------------------------------------------ the walk

    def _check(
        self, node: Node, value: Any, path: Path, out: list[Issue], *, closed: bool = True
    ) -> None:
        if node.deprecated:  # beside a $ref, as discovery documents mark a property
            out.append(Issue(path, "deprecated", node.deprecated))
        if node.ref:
            node = node.target
            if node.deprecated:
                out.append(Issue(path, "deprecated", node.deprecated))
        if value is None and self.null_is_default:
            return
        if node.parts:
            before = len(out)
            for part in node.parts:
                self._check(part, value, path, out, closed=False)
            if _refused_here(out[before:], path):
                return
        if node.branches and not self._union(node.branches, value, path, out):
            return
        kind = _JSON_TYPES.get(type(value), "object")
        if node.types is not None and not _type_fits(kind, value, node):
            out.append(Issue(path, "type", tuple(sorted(node.types)), value, node.name))
            return
        allowed = node.const if node.const is not None else node.enum
        if allowed is not None and not any(_same(value, choice) for choice in allowed):
            out.append(Issue(path, "choices", tuple(allowed), value))
            return
        if kind == "string":
            self._string(node, value, path, out)
        elif kind in ("integer", "number"):
            self._number(node, value, path, out)
        elif kind == "array":
            self._array(node, value, path, out)
        elif kind == "object":
            self._object(node, value, path, out, closed=closed)

    def _string(self, node: Node, value: str, path: Path, out: list[Issue]) -> None:
        bounds = node.bounds
        if "maxLength" in bounds and len(value) > bounds["maxLength"]:
            out.append(Issue(path, "max_length", bounds["maxLength"], value))
        if "minLength" in bounds and len(value) < bounds["minLength"]:
            out.append(Issue(path, "min_length", bounds["minLength"], value))
        if node.pattern is not None and not node.pattern.search(value):
            out.append(Issue(path, "pattern", node.pattern.pattern, value))
        if node.format in INTEGER_RANGES:  # an int64 written as a string of digits
            if not _DIGITS.fullmatch(value):
                out.append(Issue(path, "type", ("integer",), value))
            else:
                self._number(node, int(value), path, out)

    @staticmethod
    def _number(node: Node, value: float, path: Path, out: list[Issue]) -> None:
        low, high = INTEGER_RANGES.get(node.format or "", (None, None))
        low = node.bounds.get("minimum", low)
        high = node.bounds.get("maximum", high)
        if low is not None and value < low:
            out.append(Issue(path, "minimum", low, value))
        if high is not None and value > high:
            out.append(Issue(path, "maximum", high, value))

    def _array(self, node: Node, value: list[Any], path: Path, out: list[Issue]) -> None:
        bounds = node.bounds
        if "maxItems" in bounds and len(value) > bounds["maxItems"]:
            out.append(Issue(path, "max_items", bounds["maxItems"], len(value)))
        if "minItems" in bounds and len(value) < bounds["minItems"]:
            out.append(Issue(path, "min_items", bounds["minItems"], len(value)))
        if node.unique:
            seen = [repr(item) for item in value]
            if len(set(seen)) != len(seen):
                out.append(Issue(path, "unique", None, value))
        items = node.items
        if items is not None:
            for index, item in enumerate(value):
                self._check(items, item, (*path, index), out)

    def _object(
        self, node: Node, value: dict[str, Any], path: Path, out: list[Issue], *, closed: bool
    ) -> None:
        if "maxProperties" in node.bounds and len(value) > node.bounds["maxProperties"]:
            out.append(Issue(path, "max_properties", node.bounds["maxProperties"], len(value)))
        for name in node.required:
            if name not in value:
                out.append(Issue((*path, name), "required"))
        properties = node.properties
        additional = node.additional
        formats = node.formats
        for name, item in value.items():
            child = properties.get(name)
            if child is not None:
                self._check(child, item, (*path, name), out)
                if name in formats and isinstance(item, str):
                    out.extend(formats[name](item, node, (*path, name)))
            elif additional is not None:
                self._check(additional, item, (*path, name), out)
            elif closed and node.closed and name not in node.known:
                out.append(Issue(path, "unknown", name))

    def _union(self, branches: list[Node], value: Any, path: Path, out: list[Issue]) -> bool:
        """Check ``value`` against alternatives; True when one fits (its own checks go on).

        When none fits, the issues reported are those of the alternative that got furthest:
        every alternative refusing the value itself (a wrong type or value) becomes one
        issue listing what all of them allow; alternatives that differ by one property (a
        ``type`` discriminator) that no alternative accepts become one ``union`` issue.
        """
        attempts: list[list[Issue]] = []
        for branch in branches:
            issues: list[Issue] = []
            self._check(branch, value, path, issues)
            if all(issue.kind == "deprecated" for issue in issues):
                out.extend(issues)
                return True
            attempts.append(issues)
        out.extend(_best(attempts, path, value))
        return False


def _type_fits(kind: str, value: Any, node: Node) -> bool:
    types = node.types
    assert types is not None
    if kind in types:
        return True
    if kind == "integer" and "number" in types:
        return True
    # proto3's JSON mapping writes 64-bit integers as strings of digits.
    return kind == "integer" and "string" in types and node.format in INTEGER_RANGES


def _same(value: Any, choice: Any) -> bool:
    """Equal, and of the same JSON type (``True`` is not ``1``)."""
    return json_type(value) == json_type(choice) and value == choice


def _refused_here(issues: list[Issue], path: Path) -> bool:
    return any(i.path == path and i.kind in ("type", "choices", "union") for i in issues)


def _discriminators(issues: list[Issue], path: Path) -> set[str | int]:
    depth = len(path) + 1
    return {i.path[-1] for i in issues if len(i.path) == depth and i.kind in ("choices", "union")}


def _refused_itself(issues: list[Issue], path: Path) -> bool:
    return all(i.path == path and i.kind in ("type", "choices") for i in issues)


def _best(attempts: list[list[Issue]], path: Path, value: Any) -> list[Issue]:
    if all(_refused_itself(issues, path) for issues in attempts):
        choices = [c for issues in attempts for i in issues if i.kind == "choices" for c in i.limit]
        if choices:
            return [Issue(path, "choices", tuple(dict.fromkeys(choices)), value)]
        types = [t for issues in attempts for i in issues if i.kind == "type" for t in i.limit]
        return [Issue(path, "type", tuple(dict.fromkeys(types)), value)]
    keys = [_discriminators(issues, path) for issues in attempts]
    fitting = [keys[n] for n, issues in enumerate(attempts) if not _refused_here(issues, path)]
    common = set.intersection(*fitting) if fitting else set()
    if common and isinstance(value, dict):
        key = min(common, key=str)
        allowed = [
            c
            for issues in attempts
            for i in issues
            if i.path == (*path, key) and i.kind == "choices"
            for c in i.limit
        ]
        return [Issue(path, "union", (key, tuple(dict.fromkeys(allowed))), value.get(key))]
    ranked = sorted(
        range(len(attempts)),
        key=lambda n: (
            _refused_here(attempts[n], path),
            len(keys[n]),
            len(attempts[n]),
        ),
    )
    return attempts[ranked[0]]
