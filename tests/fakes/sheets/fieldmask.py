"""Field masks: ``fields=sheets(properties(sheetId,title),protectedRanges)``.

Google uses one syntax for two jobs: choosing which parts of a response to send
(``spreadsheets.get?fields=...``) and choosing which parts of an object an update touches
(``updateSheetProperties.fields``, ``updateCells.fields``). Paths may be written with dots
or slashes (gspread sends ``gridProperties/frozenRowCount``) and grouped with parentheses.

A parsed mask is a tree: each name maps to a sub-mask, or to ``None`` for "all of it".

>>> parse("sheets(properties(sheetId,title)),spreadsheetId")
{'sheets': {'properties': {'sheetId': None, 'title': None}}, 'spreadsheetId': None}
>>> parse("gridProperties/frozenRowCount,title")
{'gridProperties': {'frozenRowCount': None}, 'title': None}
>>> parse("*") is None
True
"""

from __future__ import annotations

from typing import Any

Mask = dict[str, "Mask | None"]


def parse(text: str) -> Mask | None:
    """Parse a field mask; ``None`` means every field (``*`` or an empty mask)."""
    text = text.replace(" ", "")
    if text in ("", "*"):
        return None
    mask, position = _parse_list(text, 0)
    if position != len(text):
        raise ValueError(f"unbalanced parentheses in field mask {text!r}")
    return mask


def _parse_list(text: str, position: int) -> tuple[Mask, int]:
    mask: Mask = {}
    while position < len(text):
        start = position
        while position < len(text) and text[position] not in ",()":
            position += 1
        path = [part for part in text[start:position].replace("/", ".").split(".") if part]
        sub: Mask | None = None
        if position < len(text) and text[position] == "(":
            sub, position = _parse_list(text, position + 1)
            if position >= len(text) or text[position] != ")":
                raise ValueError(f"unbalanced parentheses in field mask {text!r}")
            position += 1
        if not path:
            raise ValueError(f"empty field name in field mask {text!r}")
        _insert(mask, path, sub)
        if position < len(text) and text[position] == ")":
            return mask, position
        if position < len(text) and text[position] == ",":
            position += 1
    return mask, position


def _insert(mask: Mask, path: list[str], sub: Mask | None) -> None:
    head, rest = path[0], path[1:]
    if head == "*" and not rest:
        mask.clear()
        mask["*"] = None
        return
    if head in mask and mask[head] is None:
        return
    if rest:
        child = mask.setdefault(head, {})
        assert child is not None
        _insert(child, rest, sub)
    elif sub is None:
        mask[head] = None
    else:
        existing = mask.get(head)
        if existing is None:
            mask[head] = sub
        else:
            for key, value in sub.items():
                _insert(existing, [key], value)


def select(document: Any, mask: Mask | None) -> Any:
    """Keep only the masked parts of a JSON document (lists are masked element-wise).

    >>> select({"a": 1, "b": {"c": 2, "d": 3}}, parse("b.c"))
    {'b': {'c': 2}}
    >>> select({"sheets": [{"p": 1, "q": 2}]}, parse("sheets.p"))
    {'sheets': [{'p': 1}]}
    """
    if mask is None or "*" in mask:
        return document
    if isinstance(document, list):
        return [select(item, mask) for item in document]
    if not isinstance(document, dict):
        return document
    kept: dict[str, Any] = {}
    for key, sub in mask.items():
        if key in document:
            kept[key] = select(document[key], sub)
    return kept


def leaf_paths(mask: Mask | None) -> list[tuple[str, ...]]:
    """The paths a mask names, for updates; ``[()]`` stands for "the whole object".

    >>> leaf_paths(parse("userEnteredFormat(textFormat,backgroundColor),note"))
    [('userEnteredFormat', 'textFormat'), ('userEnteredFormat', 'backgroundColor'), ('note',)]
    """
    if mask is None or "*" in mask:
        return [()]
    paths: list[tuple[str, ...]] = []
    for key, sub in mask.items():
        if sub is None:
            paths.append((key,))
        else:
            paths.extend((key, *rest) for rest in leaf_paths(sub))
    return paths


def copy_path(target: dict[str, Any], source: dict[str, Any], path: tuple[str, ...]) -> None:
    """Set ``target`` at ``path`` to what ``source`` has there; absent in source clears it.

    This is how an update with a field mask behaves: a masked field missing from the
    request is reset to its default.

    >>> target = {"textFormat": {"bold": True, "italic": True}}
    >>> copy_path(target, {"textFormat": {"bold": False}}, ("textFormat", "bold"))
    >>> copy_path(target, {}, ("textFormat", "italic"))
    >>> target
    {'textFormat': {'bold': False}}
    """
    if not path:
        target.clear()
        target.update(source)
        return
    *parents, leaf = path
    source_node: Any = source
    for name in parents:
        source_node = source_node.get(name) if isinstance(source_node, dict) else None
    target_node = target
    for name in parents:
        child = target_node.get(name)
        if not isinstance(child, dict):
            if not isinstance(source_node, dict) or leaf not in source_node:
                return
            child = {}
            target_node[name] = child
        target_node = child
    if isinstance(source_node, dict) and leaf in source_node:
        target_node[leaf] = source_node[leaf]
    else:
        target_node.pop(leaf, None)
    _prune(target, list(parents))


def _prune(target: dict[str, Any], parents: list[str]) -> None:
    if not parents:
        return
    child = target.get(parents[0])
    if isinstance(child, dict):
        _prune(child, parents[1:])
        if not child:
            del target[parents[0]]
