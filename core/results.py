"""Result words: every spelling Harkness accepts for a result, and the score text it prints.

One table for every front door (core/RULEBOOK.md, "Round entries"): a member's report in
Discord, a TD's result cell on a Google Sheet game list, the reports the bot writes to its
sheet tab and reads back. Three kinds of words:

- **side words** name one player's result: ``win``, ``w``, ``1``, ``draw``, ``½``, ``loss``,
  ``forfeit win``, ``x``, ``+``, …;
- **score words** name a game from the first-named side: ``1-0``, ``½-½`` (or ``1/2-1/2``,
  ``0.5-0.5``, ``=-=``), ``0-1``, ``1F-0F`` / ``+/-`` (forfeits), ``0F-0F`` / ``-/-`` /
  ``double forfeit`` (neither came: a forfeit loss for both);
- **bye words** name a round without an opponent: ``full``/``B``/``1``, ``half``/``H``/``½``,
  ``zero``/``U``/``0``, ``pairing`` (a pairing-allocated bye), and every kind's own name.

Lookups are case-insensitive and ignore spaces, non-breaking spaces and the en/em dash
written for a hyphen (:func:`result_key`). A front door words its own refusal.

>>> side_result("Draw"), side_result("1/2-1/2"), score_result("1F - 0F").first
(<EntryKind.DRAW: 'draw'>, <EntryKind.DRAW: 'draw'>, <EntryKind.FORFEIT_WIN: 'forfeit win'>)
>>> score_result("0F-0F").double, is_double_forfeit("Double"), score_text(EntryKind.LOSS, True)
(True, True, '-/-')
>>> bye_result("H"), bye_result("half-point bye"), score_text(EntryKind.FORFEIT_LOSS)
(<EntryKind.HALF_BYE: 'half-point bye'>, <EntryKind.HALF_BYE: 'half-point bye'>, '-/+')
"""

from __future__ import annotations

from typing import NamedTuple

from core.model import BYES, MIRROR, WITH_OPPONENT, EntryKind, RoundEntry

_SIDE_WORDS = {
    EntryKind.WIN: ("win", "w", "1"),
    EntryKind.DRAW: ("draw", "d", "½", "=", "0.5"),
    EntryKind.LOSS: ("loss", "l", "0"),
    EntryKind.FORFEIT_WIN: ("forfeit win", "x", "+"),
    EntryKind.FORFEIT_LOSS: ("forfeit loss", "f", "-"),
}
_SCORE_WORDS = {
    EntryKind.WIN: ("1-0",),
    EntryKind.DRAW: ("½-½", "1/2-1/2", "0.5-0.5", "=-="),
    EntryKind.LOSS: ("0-1",),
    EntryKind.FORFEIT_WIN: ("1f-0f", "+-", "+/-"),
    EntryKind.FORFEIT_LOSS: ("0f-1f", "-+", "-/+"),
}
#: A double forfeit (neither player came): a forfeit loss for both (TRF-16 ``-`` on both sides).
_DOUBLE_FORFEIT_WORDS = ("double forfeit", "double", "0f-0f", "-/-", "--")
#: A bye row carries the player's points, so a score names the bye it is worth.
_BYE_WORDS = {
    EntryKind.FULL_BYE: ("full", "b", "bye", "1", "+", "1-0", "0-1", "1f-0f", "0f-1f"),
    EntryKind.PAIRING_BYE: ("pairing",),
    EntryKind.HALF_BYE: ("half", "h", "½", "0.5", "1/2", "½-½", "1/2-1/2"),
    EntryKind.ZERO_BYE: ("zero", "u", "0", "0-0"),
}


class Score(NamedTuple):
    """A game's result as each side has it: the first-named player's and the other's."""

    first: EntryKind
    second: EntryKind

    @property
    def double(self) -> bool:
        """A double forfeit: a forfeit loss on both sides."""
        return self.first is self.second is EntryKind.FORFEIT_LOSS


#: The score text of a game from the first-named side (``+/-`` for a forfeit).
_SCORE_TEXT = {
    EntryKind.WIN: "1-0",
    EntryKind.DRAW: "½-½",
    EntryKind.LOSS: "0-1",
    EntryKind.FORFEIT_WIN: "+/-",
    EntryKind.FORFEIT_LOSS: "-/+",
}


def result_key(text: str) -> str:
    """A result's text as looked up: lower case, without spaces (non-breaking ones too),
    en and em dashes read as hyphens.

    >>> result_key(" 1F – 0F "), result_key("½ - ½"), result_key("BYE")
    ('1f-0f', '½-½', 'bye')
    """
    return "".join(text.lower().replace("–", "-").replace("—", "-").split())


def _table(words: dict[EntryKind, tuple[str, ...]]) -> dict[str, EntryKind]:
    return {result_key(word): kind for kind, spellings in words.items() for word in spellings}


_ONE_SIDED = _table(_SCORE_WORDS)
DOUBLE_FORFEIT_WORDS = frozenset(result_key(word) for word in _DOUBLE_FORFEIT_WORDS)
SCORE_WORDS = {
    **{key: Score(kind, MIRROR[kind]) for key, kind in _ONE_SIDED.items()},
    **dict.fromkeys(DOUBLE_FORFEIT_WORDS, Score(EntryKind.FORFEIT_LOSS, EntryKind.FORFEIT_LOSS)),
}
SIDE_WORDS = {**_table(_SIDE_WORDS), **_ONE_SIDED}
BYE_WORDS = {**_table(_BYE_WORDS), **{result_key(kind.value): kind for kind in BYES}}


def side_result(text: EntryKind | str) -> EntryKind | None:
    """One player's result of a game (a side word, or a score from that player's side; a
    kind already read stands if it is a game's); None if ``text`` is none of them.

    >>> side_result(EntryKind.FORFEIT_WIN).value, side_result(EntryKind.HALF_BYE)
    ('forfeit win', None)
    """
    if isinstance(text, EntryKind):
        return text if text in WITH_OPPONENT else None
    return SIDE_WORDS.get(result_key(text))


def score_result(text: str) -> Score | None:
    """A game written as a score (``1-0``, ``½-½``, ``0F-1F``, ``0F-0F``), as each side has
    it; None if ``text`` is not a score."""
    return SCORE_WORDS.get(result_key(text))


def is_double_forfeit(text: str) -> bool:
    """Whether ``text`` names a double forfeit (``double forfeit``, ``0F-0F``, ``-/-``)."""
    return result_key(text) in DOUBLE_FORFEIT_WORDS


def bye_result(text: EntryKind | str) -> EntryKind | None:
    """The bye ``text`` names (``H``, ``half``, ``½``, ``half-point bye``; a kind already
    read stands if it is a bye); None if none."""
    if isinstance(text, EntryKind):
        return text if text in BYES else None
    return BYE_WORDS.get(result_key(text)) if text.strip() else None


def score_text(kind: EntryKind, double: bool = False) -> str:
    """A game's result as a score from the first-named player's side: ``1-0``, ``½-½``,
    ``0-1``, ``+/-``, ``-/+`` (``-/-`` for a double forfeit); any other entry as its
    crosstable letter (or its name)."""
    if double:
        return "-/-"
    return _SCORE_TEXT.get(kind) or str(RoundEntry(kind)) or kind.value
