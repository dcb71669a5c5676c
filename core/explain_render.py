"""Explanations rendered: plain text (terminal), Markdown sized for Discord, and JSON.

Discord's limits shape the Markdown: a message holds at most 2,000 characters and an embed
description 4,096. :func:`to_markdown` returns a summary that fits a message and details
split into parts that each fit an embed description, to be shown when asked for.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from core.explain import Explanation, RoundPart, TiebreakExplanation, points
from core.names import markdown_safe as md
from core.numbers import UNDEFINED_TEXT, as_json_number, display

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
#: How many players of a large score group a summary lists on each side of the player.
GROUP_WINDOW = 3


@dataclass(frozen=True, slots=True)
class MarkdownExplanation:
    """``summary`` fits one Discord message; each of ``details`` fits an embed description."""

    summary: str
    details: tuple[str, ...]


def _group_window(e: Explanation) -> list[str]:
    group = list(e.score_group)
    at = next(i for i, p in enumerate(group) if p.id == e.player.id)
    low, high = max(0, at - GROUP_WINDOW), min(len(group), at + GROUP_WINDOW + 1)
    names = [f"{p.place} {p.name}" for p in group[low:high]]
    if low:
        names.insert(0, f"… {low} more")
    if high < len(group):
        names.append(f"{len(group) - high} more …")
    return names


def _value(v: Fraction | None) -> str:
    return display(v, None, UNDEFINED_TEXT)


def _round_line(p: RoundPart) -> tuple[str, str, str, str]:
    mark = "dropped" if p.dropped else ""
    return (f"Rd {p.round}", p.entry, _value(p.value), f"{p.reason}{'  ' if mark else ''}{mark}")


def to_text(e: Explanation) -> str:
    """The explanation for a terminal: summary, comparisons, each tiebreak round by round."""
    lines = [e.headline, f"Rules: {e.profile} — tiebreaks in order: {', '.join(e.order)}.", ""]
    lines.append(f"Score group ({points(e.player.score)}): " + " · ".join(_group_window(e)))
    for c in e.comparisons:
        lines.append(f"{'Above' if c.above else 'Below'} you: {c.sentence}")
    for tb in e.tiebreaks:
        lines += ["", tb.summary]
        rows = [_round_line(p) for p in tb.parts]
        widths = [max((len(r[j]) for r in rows), default=0) for j in range(3)]
        for r in rows:
            lines.append(
                "  "
                + "  ".join(c.ljust(w) for c, w in zip(r[:3], widths, strict=True))
                + "  "
                + r[3]
            )
        if tb.adjustment:
            lines.append(f"  {display(tb.adjustment)}: {tb.adjustment_reason}")
    if e.notes:
        lines += ["", "Notes:"] + [f"- {n}" for n in e.notes]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _md_tiebreak(tb: TiebreakExplanation) -> list[str]:
    lines = [f"**{md(tb.name)} {tb.shown}**: {md(tb.note)}"]
    for p in tb.parts:
        value = _value(p.value)
        entry = md(p.entry)
        cell = f"~~{entry} → {value}~~ dropped" if p.dropped else f"{entry} → {value}"
        reason = f" — {md(p.reason)}" if p.reason else ""
        lines.append(f"`Rd {p.round}` {cell}{reason}")
    if tb.adjustment:
        lines.append(f"{display(tb.adjustment)}: {md(tb.adjustment_reason)}")
    if tb.variant:
        lines.append(f"_{md(tb.name)}: {md(tb.variant)}._")
    return lines


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_markdown(e: Explanation) -> MarkdownExplanation:
    """Discord-sized Markdown: a summary message and details split into embed-sized parts.
    Every sentence of the explanation holds names, so each is escaped
    (:func:`core.names.markdown_safe`) before Markdown is put around it."""
    summary = [
        f"**{md(e.headline)}**",
        f"Score group ({points(e.player.score)}): " + " · ".join(md(n) for n in _group_window(e)),
    ]
    summary += [f"{'⬆' if c.above else '⬇'} {md(c.sentence)}" for c in e.comparisons]
    summary.append(
        "Tiebreaks ("
        + e.profile
        + "): "
        + " · ".join(f"{md(tb.name)} {tb.shown}" for tb in e.tiebreaks)
    )
    summary += [f"_{md(n)}_" for n in e.notes]
    text = "\n".join(summary)
    details: list[str] = []
    page: list[str] = []
    for block in (_md_tiebreak(tb) for tb in e.tiebreaks):
        for line in block:
            line = _fit(line, EMBED_DESCRIPTION_LIMIT)
            if page and len("\n".join([*page, line])) > EMBED_DESCRIPTION_LIMIT:
                details.append("\n".join(page))
                page = []
            page.append(line)
        page.append("")
    if page:
        details.append("\n".join(page).rstrip())
    return MarkdownExplanation(_fit(text, MESSAGE_LIMIT), tuple(details))


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return as_json_number(value, 2 if value.denominator not in (1, 2, 4) else None)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def to_json_dict(e: Explanation) -> dict[str, Any]:
    """The explanation as plain JSON data (exact values as decimals; ratings to 2 places)."""
    data: dict[str, Any] = _jsonable(asdict(e))
    data["headline"] = e.headline
    return data


def to_json(e: Explanation) -> str:
    return json.dumps(to_json_dict(e), ensure_ascii=False, indent=1) + "\n"


def render_explanation(e: Explanation, fmt: str = "text") -> str:
    """``text``, ``markdown`` (summary, then the details) or ``json``."""
    if fmt == "json":
        return to_json(e)
    if fmt == "markdown":
        md = to_markdown(e)
        return "\n\n".join([md.summary, *md.details]) + "\n"
    return to_text(e)
