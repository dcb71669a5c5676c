"""The one exception type a user of the store can cause.

Every mistake a member or a TD can make (an unknown tournament, a name already taken, a
game they did not play, a round out of range, …) raises :class:`StoreError` with a message
written for them, so a front end shows ``str(error)`` as it is.

>>> error = StoreError("there is no tournament called 'Spring Open' here", "unknown-tournament")
>>> str(error), error.code
("there is no tournament called 'Spring Open' here", 'unknown-tournament')
"""

from __future__ import annotations

from dataclasses import replace

from core.problems import HarknessError, Problem


class StoreError(Exception):
    """A request the store refuses, with a message a member or TD can act on.

    ``code`` is a short, stable key (``"unknown-tournament"``, ``"name-taken"``,
    ``"not-your-game"``, ``"round-out-of-range"``, …) for callers that branch on the kind
    of mistake; ``message`` is the text to show.
    """

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


#: What the store says of a value core could not read, by what it was meant to be.
_REFUSALS = {
    "result": (
        "a game's result is win, draw or loss (or forfeit win / forfeit loss)",
        "bad-result",
    ),
    "bye": (
        "a bye is full (1 point), half (½), zero (0) or pairing (pairing-allocated, 1 point)",
        "bad-bye",
    ),
    "colour": ("a colour is white or black", "bad-colour"),
}


def refusal(field: str, value: object) -> StoreError:
    """The store's words for a ``field`` (``result``, ``bye``, ``colour``) whose ``value``
    core's reading (:mod:`core.results`, :meth:`core.model.Colour.parse`) found to be none.

    >>> error = refusal("colour", "red")
    >>> error.code, error.message
    ('bad-colour', "a colour is white or black, not 'red'")
    """
    text, code = _REFUSALS[field]
    return StoreError(f"{text}, not {getattr(value, 'value', value)!r}", code)


#: What the bot calls the settings core's problems name (``Problem.field``) where the command
#: line's words would not do: a slash command's option, or the imported file's record for a
#: setting the bot has no option for.
_SETTING_NAMES = {
    "round": "round",
    "rounds": "rounds",
    # Players kept apart come from /round avoid, or an imported file's record 260.
    "avoid": "kept apart (/round avoid, or the imported file)",
}


def problem_words(problem: Problem) -> str:
    """Core's problem in the bot's words: at its place (player, round), and where it names a
    setting, the setting as the bot names it followed by core's ``detail``; core's sentence
    otherwise (decided by ``field``, never by the message's words).

    >>> from core.problems import Problem
    >>> problem_words(Problem("--round must be 1 or more (got 0)", code="bad-round",
    ...                       field="round", value="0", detail="must be 1 or more (got 0)"))
    'round: must be 1 or more (got 0)'
    >>> problem_words(Problem("paired 2 times", player=3, round=2, code="paired-twice"))
    'player 3, round 2: paired 2 times'
    """
    name = _SETTING_NAMES.get(problem.field or "")
    if name is not None and problem.detail:
        problem = replace(problem, message=f"{name}: {problem.detail}")
    return str(problem)


def problems_words(error: HarknessError, shown: int | None = None) -> str:
    """Every problem of ``error`` (the first ``shown``) in the bot's words, joined by ``;``."""
    return "; ".join(problem_words(p) for p in error.problems[:shown])
