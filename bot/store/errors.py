"""The one exception type a user of the store can cause.

Every mistake a member or a TD can make (an unknown tournament, a name already taken, a
game they did not play, a round out of range, …) raises :class:`StoreError` with a message
written for them, so a front end shows ``str(error)`` as it is.

>>> error = StoreError("there is no tournament called 'Spring Open' here", "unknown-tournament")
>>> str(error), error.code
("there is no tournament called 'Spring Open' here", 'unknown-tournament')
"""

from __future__ import annotations


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
