"""A reader for the small subset of YAML that deploy/compose.yaml uses, so its structure
can be checked where PyYAML is not installed (where it is, the tests use both and compare).

Block mappings and sequences by indentation (spaces only), ``- key: value`` items, flow
sequences of scalars (``["CMD", "python"]``), quoted and plain scalars, integers, booleans,
``null``, and comments. Anything else raises :class:`YamlSubsetError` with the line number.

>>> read("a:\\n  b: [x, \\"y z\\"]  # note\\n  c:\\n    - 1\\n    - k: v\\n")
{'a': {'b': ['x', 'y z'], 'c': [1, {'k': 'v'}]}}
"""

from __future__ import annotations

import re
from typing import Any

_KEY = re.compile(r"^([A-Za-z0-9_.\-/]+):(?:\s+(.*))?$")


class YamlSubsetError(ValueError):
    """The text is not in the supported subset (or not valid YAML at all)."""


def _strip_comment(text: str) -> str:
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip()
    if quote:
        raise YamlSubsetError(f"unclosed quote in {text!r}")
    return text.rstrip()


def _scalar(text: str, number: int) -> Any:
    text = text.strip()
    if text.startswith("[") or text.startswith("{"):
        if not text.startswith("[") or not text.endswith("]"):
            raise YamlSubsetError(f"line {number}: unsupported flow collection {text!r}")
        inner = text[1:-1].strip()
        items = re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^,]+', inner) if inner else []
        return [_scalar(item, number) for item in items if item.strip(", ")]
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if text[:1] in "\"'":
        raise YamlSubsetError(f"line {number}: badly quoted {text!r}")
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~", ""):
        return None
    if text.startswith(("&", "*", "!", "|", ">")):
        raise YamlSubsetError(f"line {number}: unsupported YAML feature in {text!r}")
    return text


def read(text: str) -> Any:
    """The document as Python dicts, lists and scalars."""
    lines: list[tuple[int, str, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlSubsetError(f"line {number}: tabs are not allowed for indentation")
        content = _strip_comment(raw)
        if content.strip():
            lines.append((len(content) - len(content.lstrip(" ")), content.strip(), number))
    if not lines:
        return None
    value, end = _block(lines, 0, lines[0][0])
    if end != len(lines):
        raise YamlSubsetError(f"line {lines[end][2]}: indentation does not match any block")
    return value


def _block(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1].startswith("- ") or lines[i][1] == "-":
        return _sequence(lines, i, indent)
    return _mapping(lines, i, indent)


def _sequence(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[Any, int]:
    items: list[Any] = []
    while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("-"):
        _, content, number = lines[i]
        rest = content[1:].strip()
        if not rest:
            raise YamlSubsetError(f"line {number}: empty sequence item")
        if _KEY.match(rest):
            lines[i] = (indent + 2, rest, number)
            value, i = _mapping(lines, i, indent + 2)
            items.append(value)
        else:
            items.append(_scalar(rest, number))
            i += 1
    return items, i


def _mapping(lines: list[tuple[int, str, int]], i: int, indent: int) -> tuple[Any, int]:
    found: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        _, content, number = lines[i]
        match = _KEY.match(content)
        if match is None:
            raise YamlSubsetError(f"line {number}: expected 'key: value', got {content!r}")
        key, rest = match.group(1), match.group(2)
        if key in found:
            raise YamlSubsetError(f"line {number}: duplicate key {key!r}")
        i += 1
        if rest is not None and rest != "":
            found[key] = _scalar(rest, number)
        elif i < len(lines) and lines[i][0] > indent:
            found[key], i = _block(lines, i, lines[i][0])
        elif i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("-"):
            found[key], i = _sequence(lines, i, indent)
        else:
            found[key] = None
    if i < len(lines) and lines[i][0] > indent:
        raise YamlSubsetError(f"line {lines[i][2]}: unexpected indentation")
    return found, i
