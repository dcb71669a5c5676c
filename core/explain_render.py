"""Explanations worded: plain text (terminal), Markdown sized for Discord, and JSON.

:mod:`core.explain` decides every reason as data (a kind and its values); this module is
where they become words, once, for every front door: the command line prints
:func:`to_text`, the bot's ``/why`` sends :func:`to_markdown` (and the "why" picture draws
:func:`sentence` and :func:`note_text`), the sheet's Standings tab writes :func:`reason_text`
and its Breakdown tab :func:`round_text`, :func:`taken_off_text` and :func:`summary`.

Discord's limits shape the Markdown: a message holds at most 2,000 characters and an embed
description 4,096. :func:`to_markdown` returns a summary that fits a message and details
split into parts that each fit an embed description, to be shown when asked for.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from core.awards.reasons import AwardNote, AwardWhy, Item
from core.explain import (
    Comparison,
    Explanation,
    Note,
    RoundNote,
    RoundPart,
    RoundWhy,
    TiebreakExplanation,
    Why,
)
from core.explain_data import (
    award_note_data,
    comparison_data,
    exact,
    note_data,
    reason_data,
    round_note_data,
)
from core.limits import shorten
from core.model import EntryKind
from core.names import markdown_safe as md
from core.numbers import UNDEFINED_TEXT, as_json_number, display, half_points, money

if TYPE_CHECKING:
    from core.awards.result import PlayerAward

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
#: How many players of a large score group a summary lists on each side of the player.
GROUP_WINDOW = 3


@dataclass(frozen=True, slots=True)
class MarkdownExplanation:
    """``summary`` fits one Discord message; each of ``details`` fits an embed description."""

    summary: str
    details: tuple[str, ...]


# -- words for the data -------------------------------------------------------------------

#: An unplayed round in an explanation's words.
UNPLAYED_WORDS = {
    EntryKind.FORFEIT_WIN: "forfeit win",
    EntryKind.FORFEIT_LOSS: "forfeit loss",
    EntryKind.FULL_BYE: "full-point bye",
    EntryKind.PAIRING_BYE: "full-point bye",
    EntryKind.HALF_BYE: "half-point bye",
    EntryKind.ZERO_BYE: "zero-point bye",
    EntryKind.ABSENT: "absence",
    EntryKind.WITHDRAWN: "withdrawal",
}
_SHARE = {
    EntryKind.WIN: "you won: all of it",
    EntryKind.DRAW: "a draw: half of it",
    EntryKind.LOSS: "you lost: none of it",
}
_PLAIN = {
    RoundWhy.NOT_PLAYED_NOTHING: "not played: counts nothing",
    RoundWhy.RUNNING_SCORE: "your score after this round",
    RoundWhy.NOT_PLAYED_ZERO: "not played: adds 0",
    RoundWhy.WITH_BLACK: "played with Black",
    RoundWhy.AGAINST_TIED: "against a tied player",
    RoundWhy.OPPONENT_RATING: "opponent's rating",
    RoundWhy.UNRATED: "unrated: skipped",
    RoundWhy.NOT_PLAYED: "not played",
}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ordinal_place(place: str) -> str:
    """``3`` → ``3rd``; ``3-4`` → ``3rd–4th``."""
    return "–".join(ordinal(int(p)) for p in place.split("-"))


def points(score: Fraction) -> str:
    """``3 points``, ``1 point``, ``2.5 points``."""
    text = display(score)
    return f"{text} point" if score == 1 else f"{text} points"


def _scored(score: Fraction) -> str:
    return half_points(int(score * 2))


def rounds_text(rounds: list[int] | tuple[int, ...]) -> str:
    """``round 3``, ``rounds 4–5``, ``rounds 2, 5``."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}–{rounds[-1]}"
    return "rounds " + ", ".join(map(str, rounds))


def headline(e: Explanation) -> str:
    """``Player C: 3rd place, 3 points of 4.``"""
    shared = " (shared)" if "-" in e.player.place else ""
    when = f" after round {e.after_round}" if e.after_round else ""
    return (
        f"{e.player.name}: {ordinal_place(e.player.place)} place{shared}{when}, "
        f"{points(e.player.score)} of {e.rounds}."
    )


def _shown(e: Explanation, code: str, value: Fraction | None) -> str:
    tb = e.tiebreak(code)
    return display(value, tb.digits, "undefined")


def sentence(e: Explanation, c: Comparison) -> str:
    """How the player compares with the neighbour ``c`` (:class:`~core.explain.Why`)."""
    upper, lower = (c.other, e.player) if c.above else (e.player, c.other)
    both = f"{upper.name} and {lower.name} both scored {_scored(e.player.score)}"
    if c.kind is Why.ALL_UNPLAYED:
        return (
            f"{both}, but {lower.name}'s points all came from rounds not played, "
            f"so {upper.name} is ahead before any tiebreak."
        )
    pieces = [both]
    pieces += [f"{e.tiebreak(code).name} {_shown(e, code, v)} each" for code, v in c.equal]
    if c.kind is Why.EQUAL or c.decided_by is None:
        pieces.append("they are equal on every tiebreak, so they share the place")
    elif c.kind is Why.COIN_FLIP:
        pieces.append(f"a coin flip decides ({c.text})")
    else:
        up, low = (c.theirs, c.ours) if c.above else (c.ours, c.theirs)
        code = c.decided_by
        shown = f"{_shown(e, code, up)} vs {_shown(e, code, low)}"
        pieces.append(f"{e.tiebreak(code).name} {shown} decides")
    return "; ".join(pieces) + "."


def note_text(e: Explanation, n: Note) -> str:
    """One note of the explanation in words (:class:`~core.explain.Why`)."""
    if n.kind is Why.SHARES_PLACE:
        return (
            f"You share place {n.place} with {', '.join(n.players)}: equal score and equal "
            "on every tiebreak."
        )
    if n.kind is Why.COIN_USED:
        return f"A coin flip was used in this score group ({n.text})."
    if n.kind is Why.UNPLAYED_PRE_CHECK:
        return (
            "All your points came from rounds you did not play, so a player on the "
            "same score who scored in play finishes ahead of you (US Chess 34E)."
        )
    if n.kind is Why.NO_UNPLAYED_PRE_CHECK:
        return (
            "All your points came from rounds you did not play; "
            f"{n.profile} has no all-unplayed pre-check (as SwissSys), so the "
            "tiebreaks decide your place like anyone else's."
        )
    if n.kind is Why.MEDIAN_LAST:
        return (
            f"With only {n.count} round{'s' if n.count != 1 else ''}, Modified Median moves "
            f"to last place in the order ({n.profile} rules)."
        )
    if n.kind is Why.UNDEFINED:
        return f"{e.tiebreak(n.code).name} is not defined for you: {n.text}."
    if n.kind is Why.ALONE:
        scored = _scored(n.score or Fraction(0))
        return f"Nobody else scored {scored}, so no tiebreak was needed for your place."
    if n.kind is Why.FILE_DISAGREES:
        return f"The file says otherwise about your score: {n.text}."
    if n.kind is Why.TAKEN_OFF:
        return taken_off_text(n)
    if n.kind in (Why.HALF_BYE_TAKEN, Why.HALF_BYE_KEPT):
        return variant_text(n)
    return headline(e)


def reason_text(e: Explanation) -> str:
    """The short why of the place (:attr:`~core.explain.Explanation.reason`) in words: the
    Standings tab's "Why" column."""
    reason = e.reason
    return sentence(e, reason) if isinstance(reason, Comparison) else note_text(e, reason)


def _opponent_counted(n: RoundNote) -> str:
    """Why an opponent's adjusted score differs from their real one (US Chess 34E1): each
    unplayed round counts ½, so only rounds that scored something else are named."""
    changed: dict[str, list[int]] = {}
    for r, kind in n.half:
        changed.setdefault(UNPLAYED_WORDS[kind], []).append(r)
    reasons = []
    withdrawn = changed.pop("withdrawal", [])
    if withdrawn:
        reasons.append(
            f"withdrew after round {withdrawn[0] - 1}, so "
            f"{rounds_text(withdrawn)} count{'s' if len(withdrawn) == 1 else ''} ½ each"
            if withdrawn[0] > 1
            else "withdrew before round 1"
        )
    for words, rounds in changed.items():
        reasons.append(
            f"{('an ' if words[0] in 'aeiou' else 'a ') if len(rounds) == 1 else ''}{words}"
            f"{'s' if len(rounds) > 1 else ''} in {rounds_text(rounds)} "
            f"count{'s' if len(rounds) == 1 else ''} ½"
        )
    return "; ".join(reasons)


def round_text(n: RoundNote | None) -> str:
    """Why a round contributed what it did, in words ("" for a round whose entry says it)."""
    if n is None:
        return ""
    if n.kind in (RoundWhy.OPPONENT_SCORE, RoundWhy.SHARE_OF_OPPONENT):
        text = f"{n.opponent} scored {display(n.scored)}"
        if n.counted is not None:
            text += f", counted as {display(n.counted)}: {_opponent_counted(n)}"
        if n.kind is RoundWhy.SHARE_OF_OPPONENT and n.result is not None:
            text += f"; {_SHARE[n.result]}"
        return text
    if n.kind is RoundWhy.OWN_UNPLAYED and n.entry is not None:
        return f"your own {UNPLAYED_WORDS[n.entry]}: counts as an opponent with 0"
    if n.kind is RoundWhy.OPPONENT_CUMULATIVE:
        return f"{n.opponent}'s Cumulative"
    if n.kind is RoundWhy.KASHDAN:
        if n.entry is not None and n.entry.played:
            return f"{n.entry.value}: {n.points}"
        return f"not played: {n.points}"
    if n.kind is RoundWhy.RULE:
        return n.text
    return _PLAIN.get(n.kind, "")


def taken_off_text(n: Note | None) -> str:
    """Cumulative's subtraction (US Chess 34E3) in words, round by round ("" for none)."""
    if n is None:
        return ""
    words = [
        f"−{'½' if h == 1 else half_points(h)} for your {UNPLAYED_WORDS[kind]} in round {r}"
        for r, kind, h in n.taken
    ]
    return "points won without playing are taken off: " + ", ".join(words)


def variant_text(n: Note | None) -> str:
    """Which Cumulative the profile uses, in words, where it matters to the player ("" for
    none): SwissSys takes ½ off for a half-point bye, US Chess 34E3 only full points."""
    if n is None:
        return ""
    if n.kind is Why.HALF_BYE_TAKEN:
        return (
            f"{n.profile} takes ½ off for a half-point bye as well as 1 for a full point "
            "won without playing, as SwissSys does (US Chess 34E3 takes off only the full point)"
        )
    many = len(n.rounds) > 1
    byes = f"half-point bye{'s' if many else ''} in {rounds_text(n.rounds)}"
    return (
        f"your {byes} {'keep their' if many else 'keeps its'} ½: {n.profile} "
        "takes off only full points won without playing, as US Chess 34E3 says (SwissSys "
        "takes ½ off for a half-point bye)"
    )


def summary(tb: TiebreakExplanation) -> str:
    """One tiebreak in a sentence: its value, its rule, what was dropped or taken off."""
    if tb.value is None:
        return f"{tb.name} is not defined for you ({tb.note})."
    variant = variant_text(tb.variant)
    more = f"; {variant}" if variant else ""
    dropped = [p for p in tb.parts if p.dropped]
    if dropped:
        rounds = ", ".join(f"round {p.round} ({display(p.value)})" for p in dropped)
        return f"{tb.name} {tb.shown}: {tb.note}; dropped {rounds}."
    if tb.adjustment:
        total = sum((p.value for p in tb.parts if p.value is not None), Fraction(0))
        return (
            f"{tb.name} {tb.shown}: {tb.note} ({display(total)}), minus "
            f"{display(-tb.adjustment)} for points won without playing{more}."
        )
    return f"{tb.name} {tb.shown}: {tb.note}{more}."


# -- the renderings -----------------------------------------------------------------------


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
    why = round_text(p.note)
    return (f"Rd {p.round}", p.entry, _value(p.value), f"{why}{'  ' if mark else ''}{mark}")


def to_text(e: Explanation) -> str:
    """The explanation for a terminal: summary, comparisons, each tiebreak round by round."""
    lines = [headline(e), f"Rules: {e.profile} — tiebreaks in order: {', '.join(e.order)}.", ""]
    lines.append(f"Score group ({points(e.player.score)}): " + " · ".join(_group_window(e)))
    for c in e.comparisons:
        lines.append(f"{'Above' if c.above else 'Below'} you: {sentence(e, c)}")
    for tb in e.tiebreaks:
        lines += ["", summary(tb)]
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
            lines.append(f"  {display(tb.adjustment)}: {taken_off_text(tb.taken_off)}")
    if e.notes:
        lines += ["", "Notes:"] + [f"- {note_text(e, n)}" for n in e.notes]
    if e.award is not None:
        lines += ["", "Award: " + award_text(e.award)]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _md_tiebreak(tb: TiebreakExplanation) -> list[str]:
    lines = [f"**{md(tb.name)} {tb.shown}**: {md(tb.note)}"]
    for p in tb.parts:
        value = _value(p.value)
        entry = md(p.entry)
        cell = f"~~{entry} → {value}~~ dropped" if p.dropped else f"{entry} → {value}"
        why = round_text(p.note)
        reason = f" — {md(why)}" if why else ""
        lines.append(f"`Rd {p.round}` {cell}{reason}")
    if tb.adjustment:
        lines.append(f"{display(tb.adjustment)}: {md(taken_off_text(tb.taken_off))}")
    if tb.variant:
        lines.append(f"_{md(tb.name)}: {md(variant_text(tb.variant))}._")
    return lines


def to_markdown(e: Explanation) -> MarkdownExplanation:
    """Discord-sized Markdown: a summary message and details split into embed-sized parts.
    Every sentence of the explanation holds names, so each is escaped
    (:func:`core.names.markdown_safe`) before Markdown is put around it."""
    head = [
        f"**{md(headline(e))}**",
        f"Score group ({points(e.player.score)}): " + " · ".join(md(n) for n in _group_window(e)),
    ]
    head += [f"{'⬆' if c.above else '⬇'} {md(sentence(e, c))}" for c in e.comparisons]
    head.append(
        "Tiebreaks ("
        + e.profile
        + "): "
        + " · ".join(f"{md(tb.name)} {tb.shown}" for tb in e.tiebreaks)
    )
    head += [f"_{md(note_text(e, n))}_" for n in e.notes]
    details_award = ""
    if e.award is not None:  # its headline in the summary, its reasons first in the details
        head.append(f"**{md(award_headline(e.award))}**")
        details_award = award_markdown(e.award)
    text = "\n".join(head)
    details: list[str] = []
    page: list[str] = []
    blocks = [_md_tiebreak(tb) for tb in e.tiebreaks]
    if details_award:
        blocks.insert(0, details_award.split("\n"))
    for block in blocks:
        for line in block:
            line = shorten(line, EMBED_DESCRIPTION_LIMIT)
            if page and len("\n".join([*page, line])) > EMBED_DESCRIPTION_LIMIT:
                details.append("\n".join(page))
                page = []
            page.append(line)
        page.append("")
    if page:
        details.append("\n".join(page).rstrip())
    return MarkdownExplanation(shorten(text, MESSAGE_LIMIT), tuple(details))


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return as_json_number(value, 2 if value.denominator not in (1, 2, 4) else None)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _json_part(p: RoundPart) -> dict[str, Any]:
    return {
        "round": p.round,
        "entry": p.entry,
        "opponent": p.opponent,
        "value": p.value,
        "dropped": p.dropped,
        "reason": round_text(p.note),
        "note": round_note_data(p.note),
    }


def _json_tiebreak(tb: TiebreakExplanation) -> dict[str, Any]:
    return {
        "code": tb.code,
        "name": tb.name,
        "rule": tb.rule,
        "value": tb.value,
        "shown": tb.shown,
        "note": tb.note,
        "parts": [_json_part(p) for p in tb.parts],
        "adjustment": tb.adjustment,
        "adjustment_reason": taken_off_text(tb.taken_off),
        "summary": summary(tb),
        "variant": variant_text(tb.variant),
        "digits": tb.digits,
        "taken_off": note_data(tb.taken_off) if tb.taken_off else None,
        "variant_reason": note_data(tb.variant) if tb.variant else None,
    }


def to_json_dict(e: Explanation) -> dict[str, Any]:
    """The explanation as plain JSON data (values as decimals; ratings to 2 places), every
    reason in words and, beside the words, as data (:mod:`core.explain_data`: a kind and
    its values, exact numbers as ``{"num", "den"}``): ``reason`` (the short why),
    ``note_reasons`` (one a note, in the order of ``notes``), each comparison's ``reason``,
    each round part's ``note``, each tiebreak's ``taken_off`` and ``variant_reason``. The
    keys of the words are those of earlier versions, unchanged."""
    comparisons = [
        {
            "other": asdict(c.other),
            "above": c.above,
            "decided_by": c.decided_by,
            "ours": c.ours,
            "theirs": c.theirs,
            "equal": c.equal,
            "sentence": sentence(e, c),
            "reason": comparison_data(c),
        }
        for c in e.comparisons
    ]
    data: dict[str, Any] = _jsonable(
        {
            "player": asdict(e.player),
            "rank": e.rank,
            "rounds": e.rounds,
            "profile": e.profile,
            "order": e.order,
            "score_group": [asdict(p) for p in e.score_group],
            "comparisons": comparisons,
            "tiebreaks": [_json_tiebreak(tb) for tb in e.tiebreaks],
            "notes": [note_text(e, n) for n in e.notes],
            "after_round": e.after_round,
        }
    )
    data["headline"] = headline(e)
    data["reason"] = reason_data(e.reason)
    data["note_reasons"] = [note_data(n) for n in e.notes]
    if e.award is not None:
        data["award"] = award_json(e.award)
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


# -- awards: cash, trophies and teams in words ----------------------------------------------

#: What decided between two prizes of equal amount (US Chess 32B4), by precedence's part.
_PRECEDENCE_WORDS = {
    "kind": "a place prize comes before a class prize, a class prize before an unrated one, "
    "an unrated one before other categories",
    "upper": "the higher class comes first",
    "lower": "the higher class comes first",
    "rank": "the earlier prize of its ladder comes first",
    "order": "it was announced first",
}


def _names(names: tuple[str, ...] | list[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``; names written ``Last, First`` are
    listed with semicolons (``Lee, Ann; Ng, Bo and Ito, Cy``).

    >>> _names(["Ann", "Bob", "Cy"]), _names(["Lee, Ann", "Ng, Bo", "Ito, Cy"])
    ('Ann, Bob and Cy', 'Lee, Ann; Ng, Bo and Ito, Cy')
    """
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    comma = "; " if any("," in name for name in names) else ", "
    return f"{comma.join(names[:-1])} and {names[-1]}"


def _tiebreak_name(code: str) -> str:
    """A tiebreak's name by its code (US Chess or FIDE), the code itself if neither."""
    from core.profiles import Family
    from core.tiebreaks import tiebreaks_of

    for family in (Family.USCF, Family.FIDE):
        registry = tiebreaks_of(family)
        if code in registry:
            return registry[code].name
    return code


def separation_text(code: str, ours: Fraction | None, theirs: Fraction | None, text: str) -> str:
    """What put one player (or team) ahead of another, from the first's side: ``scored 4 to
    3.5``, ``Modified Median 13.5 vs 11``, ``a coin flip (…)``."""
    if code == "score":
        return f"scored {_value(ours)} to {_value(theirs)}"
    if code == "unplayed":
        return "the other's points all came from rounds not played (US Chess 34E)"
    if code == "playoff":
        return "equal on score and every tiebreak, the recorded playoff or lot"
    if code == "coin":
        return f"equal on score and every tiebreak, a coin flip ({text})"
    return f"{_tiebreak_name(code)} {_value(ours)} vs {_value(theirs)}"


def _item(item: Item, currency: str) -> str:
    """``$150 (Top youth, brought by Ann)``, ``$300 (1st)``."""
    amount = money(item.amount, currency) if item.amount is not None else ""
    by = f", brought by {_names(item.players)}" if item.players else ""
    return f"{amount} ({item.prize}{by})" if amount else f"{item.prize}{by}"


def award_note_text(n: AwardNote, currency: str = "") -> str:
    """One reason of an award in words (:class:`~core.awards.reasons.AwardWhy`)."""
    m = partial(_money, currency=currency)
    kind = n.kind
    if kind is AwardWhy.POOL:
        if n.count == 1:
            prizes = " + ".join(_item(i, currency) for i in n.items)
            return f"You win {prizes}."
        pool = " + ".join(_item(i, currency) for i in n.items)
        return (
            f"{n.count} players tied on {points(n.score or Fraction(0))} "
            f"({_names(n.players)}) pool {pool}: {m(n.total)} split {n.count} ways, "
            f"{m(n.amount)} each (US Chess 32B3)."
        )
    if kind in (AwardWhy.SUB_GROUP, AwardWhy.OTHERS_ALONE):
        prizes = _names([i.prize for i in n.items])
        who = "You" if kind is AwardWhy.SUB_GROUP and len(n.players) == 1 else _names(n.players)
        return (
            f"{who} could win {prizes}, which no one else in the tie could: alone that is "
            f"{m(n.amount)} each, more than the {m(n.other_amount)} each of the whole pool "
            f"({m(n.total)} among {n.count}), so {'they take' if who != 'You' else 'you take'} "
            f"{'it' if len(n.items) == 1 else 'them'} alone"
            + ("" if kind is AwardWhy.SUB_GROUP else "; the others pool what is left")
            + " (US Chess 32B3)."
        )
    if kind is AwardWhy.NOT_BETTER_ALONE:
        prizes = _names([i.prize for i in n.items])
        who = "you" if len(n.players) == 1 else f"{_names(n.players)}"
        return (
            f"Alone, {who} would divide {prizes}, which no one else in the tie could win: "
            f"{m(n.amount)} each, no more than the {m(n.other_amount)} each of the whole pool "
            f"({m(n.total)} among {n.count}), so {'you pool' if who == 'you' else 'they pool'} "
            "with the others (US Chess 32B3)."
        )
    if kind is AwardWhy.PRECEDENCE:
        return (
            f"{n.prize} went into the pool rather than {n.other} (both {m(n.amount)}): "
            f"{_PRECEDENCE_WORDS.get(n.code, n.code)} (US Chess 32B4)."
        )
    if kind is AwardWhy.CAP:
        return (
            f"No more than the largest prize you could win if there were no tie, {n.prize} "
            f"({m(n.amount)}), rather than the {m(n.other_amount)} share (US Chess 32B3)."
        )
    if kind is AwardWhy.LIMIT:
        return (
            f"Your personal limit is {m(n.amount)}: you get that rather than the "
            f"{m(n.other_amount)} share."
        )
    if kind is AwardWhy.CAPPED_OTHERS:
        return (
            f"{_names(n.players)} may get less than the {m(n.other_amount)} share (a cap or "
            f"limit), so the others split the rest: {m(n.amount)} each."
        )
    if kind is AwardWhy.MOVED_DOWN:
        raised = ", ".join(f"{i.prize} to {m(i.amount)}" for i in n.items)
        return (
            f"{m(n.amount)} that nobody on {points(n.score or Fraction(0))} could take moved "
            f"down the place ladder: {raised}."
        )
    if kind is AwardWhy.RAISED:
        return (
            f"{n.prize} had been raised from {m(n.other_amount)} to {m(n.amount)} by money "
            f"moved down from the players on {points(n.score or Fraction(0))}."
        )
    if kind is AwardWhy.PLACE_PRIZE:
        return f"{n.prize}, {m(n.amount)}: the prize of place {n.place}."
    if kind is AwardWhy.SHARED_EQUALLY:
        prizes = " + ".join(_item(i, currency) for i in n.items)
        return (
            f"{_names(n.players)} share places {n.place} ({prizes}): {m(n.total)} split "
            f"{n.count} ways."
        )
    if kind is AwardWhy.HORT:
        own = f"half of {n.prize} ({m(n.other_amount)} of {m(n.amount)})" if n.prize else "no prize"
        each = (n.total or Fraction(0)) / n.count
        return (
            f"The Hort system: you keep {own}; the other halves of places {n.place} "
            f"({m(n.total)}) are shared by {_names(n.players)}, {m(each)} each."
        )
    if kind is AwardWhy.CATEGORY_OVER_MAIN:
        if not n.other_amount:
            return f"{n.prize}, {m(n.amount)}: you are next in line for it in the standings."
        return (
            f"{n.prize} ({m(n.amount)}) is worth more than your share of the main prizes "
            f"({m(n.other_amount)}): you take it and leave the main prizes to those below."
        )
    if kind is AwardWhy.MAIN_OVER_CATEGORY:
        return (
            f"Your share of the main prizes ({m(n.amount)}) is worth at least {n.prize} "
            f"({m(n.other_amount)}), which goes to the next player in line for it."
        )
    if kind is AwardWhy.UNPAID:
        return f"Your personal limit is {m(n.amount)}: of {m(n.other_amount)}, only that is paid."
    if kind is AwardWhy.ADDITIVE:
        shared = f", shared with {_names([p for p in n.players])}" if n.count > 1 else ""
        return f"{n.prize} ({m(n.amount)}) comes in addition to any other prize{shared}."
    return _trophy_or_team_text(n)


def _trophy_or_team_text(n: AwardNote) -> str:
    kind = n.kind
    if kind is AwardWhy.TROPHY:
        if not n.other:
            return f"Trophy {n.prize}: nobody below you could take it."
        why = separation_text(n.code, n.ours, n.theirs, n.text)
        return f"Trophy {n.prize}: ahead of {n.other}, the next in line for it: {why}."
    if kind is AwardWhy.TROPHY_FOLLOWS_MONEY:
        return (
            f"Trophy {n.prize} follows its money: you are the best placed of those who "
            f"shared it ({_names(n.players)})."
        )
    if kind is AwardWhy.NOT_PRIZE_ELIGIBLE:
        return "Your personal limit is 0: you are not prize-eligible (no cash, no trophy)."
    if kind is AwardWhy.NO_PRIZE_FOR_HIM:
        if n.text == "unrated":
            return (
                "No cash prize here is one you may win: an unrated player may win place, "
                "unrated and category prizes only (US Chess 33F)."
            )
        return "No cash prize here is one you may win."
    if kind is AwardWhy.PRIZES_TAKEN:
        taken = "; ".join(
            f"{i.prize} to {_names(list(i.players))} ({points(i.score or Fraction(0))})"
            for i in n.items
        )
        more = f"; and {n.count - len(n.items)} more" if n.count > len(n.items) else ""
        return f"Every cash prize you could win went to higher scores: {taken}{more}."
    if kind is AwardWhy.TROPHY_TAKEN:
        why = separation_text(n.code, n.theirs, n.ours, n.text)
        return f"Trophy {n.prize} went to {n.other}, ahead of you: {why}."
    if kind is AwardWhy.ONE_TROPHY:
        went = "; ".join(f"{i.prize} went to {_names(list(i.players))}" for i in n.items)
        return f"One trophy per player: you hold {n.prize}, so {went}."
    if kind is AwardWhy.NOT_AWARDED:
        if n.code == "nobody-eligible":
            return f"{n.prize} was not awarded: nobody in the section may win it."
        return f"{n.prize} was not awarded: everyone who could win it took a higher prize."
    if kind is AwardWhy.TEAM_SCORE:
        counted = ", ".join(f"{_names(list(i.players))} {display(i.score)}" for i in n.items)
        return (
            f"Team score {display(n.total)}: its first {n.count} in the standings count "
            f"({counted})."
        )
    if kind is AwardWhy.TEAM_ORDER:
        if n.code in ("score", "playoff", "coin", "unplayed"):
            why = separation_text(n.code, n.ours, n.theirs, n.text)
        else:
            why = (
                f"the counting players' {_tiebreak_name(n.code)} in all, {_value(n.ours)} vs "
                f"{_value(n.theirs)}"
            )
        return f"Ahead of {n.other}: {why}."
    if kind is AwardWhy.TEAM_TOO_SMALL:
        return f"{n.other} has {n.count} player in the section: at least 2 must count."
    if kind is AwardWhy.COUNTS_FOR_TEAM:
        return f"You count for {n.other}: one of its first {n.count} in the standings."
    if kind is AwardWhy.NOT_COUNTING:
        return (
            f"{n.other} counts its first {n.count} players in the standings; you are not one "
            "of them."
        )
    return n.kind.value


def _money(value: Fraction | None, currency: str = "") -> str:
    return money(value or Fraction(0), currency)


def award_headline(a: PlayerAward) -> str:
    """``Alvarez, Maria: $133.33 (2nd place, 3rd place and 1st U1800 pooled); trophy 2nd
    place.``"""
    if a.cash:
        pooled = " pooled" if len(a.prizes) > 1 else ""
        cash = f"{money(a.cash, a.currency)} ({_names(list(a.prizes))}{pooled})"
    else:
        cash = "no cash prize"
    trophies = f"trophy {_names(list(a.trophies))}" if a.trophies else "no trophy"
    return f"{a.name}: {cash}; {trophies}."


def award_text(a: PlayerAward) -> str:
    """A player's award for a terminal: the headline, each reason, then why not."""
    lines = [award_headline(a)]
    lines += [f"- {award_note_text(n, a.currency)}" for n in a.reasons]
    if a.why_not:
        lines += ["Why not more:"] + [f"- {award_note_text(n, a.currency)}" for n in a.why_not]
    return "\n".join(lines) + "\n"


def award_markdown(a: PlayerAward) -> str:
    """A player's award in Discord Markdown, every sentence escaped (names are data)."""
    lines = [f"**{md(award_headline(a))}**"]
    lines += [md(award_note_text(n, a.currency)) for n in a.reasons]
    lines += [f"_{md(award_note_text(n, a.currency))}_" for n in a.why_not]
    return "\n".join(lines)


def award_json(a: PlayerAward) -> dict[str, Any]:
    """A player's award as JSON: the amounts (paid as a number, exact as ``{"num", "den"}``),
    the prizes and trophies, and each reason in words and as data."""
    return {
        "cash": as_json_number(a.paid),
        "cash_exact": exact(a.cash),
        "prizes": list(a.prizes),
        "trophy": a.trophy,
        "trophies": list(a.trophies),
        "headline": award_headline(a),
        "reasons": [award_note_text(n, a.currency) for n in a.reasons],
        "why_not": [award_note_text(n, a.currency) for n in a.why_not],
        "reason_data": [award_note_data(n) for n in a.reasons],
        "why_not_data": [award_note_data(n) for n in a.why_not],
    }
