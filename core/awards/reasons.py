"""Why a player (or a team) got an award, or did not: reasons as data, a kind and its values.

As :mod:`core.explain` does for places, the awards engine decides and keeps every decision
here without a word: the pool of a score group and who brought which prize, the precedence
that chose between equal amounts (US Chess 32B4), a sub-group that took its prizes alone
(32B3 "unless"), a cap or limit applied, money moved down, the FIDE-world shares, the
tiebreak comparison that gave a trophy, a team's counting players, and why a prize or
trophy a player might expect went elsewhere. :mod:`core.explain_render` words them;
:mod:`core.explain_data` gives them as JSON.

>>> note = AwardNote(AwardWhy.CAP, prize="3rd", amount=Fraction(536), other_amount=Fraction(2987, 4))
>>> note.kind.value, note.prize
('cap', '3rd')
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

__all__ = ["AwardNote", "AwardWhy", "Item"]


class AwardWhy(Enum):
    """The kind of one reason; the values each kind fills in are listed beside it."""

    # Cash under US Chess 32B (methods us-chess, us-chess-2003).
    POOL = "pool"
    """The player's score group (or the part of it he shares with) pooled prizes, at most
    one brought by each player (32B1, 32B3): ``score``, ``players`` (who share), ``items``
    (each prize, its amount and, when not every one of them could have brought it, who
    did), ``total``, ``count``, ``amount`` (each share before any cap)."""
    SUB_GROUP = "sub-group"
    """32B3 "unless": the player's sub-group (``players``) took the prizes only they could
    win (``items``) alone, ``amount`` each rather than ``other_amount`` from the whole
    group's pool (``total`` among ``count``)."""
    OTHERS_ALONE = "others-alone"
    """Players of the group (``players``) took prizes only they could win (``items``) alone
    (``amount`` each rather than ``other_amount``); the rest pooled what was left."""
    NOT_BETTER_ALONE = "not-better-alone"
    """The player's sub-group (``players``) could divide alone the prizes only they could win
    (``items``), but ``amount`` each is no more than ``other_amount``, their share of the
    whole pool (``total`` among ``count``): they pool with the others (32B3)."""
    PRECEDENCE = "precedence"
    """Between prizes of equal ``amount``, ``prize`` went into the pool and ``other`` did
    not (32B4); ``code`` is what decided: ``kind`` (place before class, class before
    unrated, unrated before other categories), ``upper``, ``lower`` (the higher class),
    ``rank`` (the ladder's order) or ``order`` (the order announced)."""
    CAP = "cap"
    """32B3 (as amended): no more than the largest prize the player could win if there were
    no tie, ``prize`` worth ``amount``, instead of the share ``other_amount``."""
    LIMIT = "limit"
    """The player's personal limit ``amount`` instead of the share ``other_amount``."""
    CAPPED_OTHERS = "capped-others"
    """Players of the pool (``players``) got less (a cap or limit); the others split the
    rest, ``amount`` each."""
    MOVED_DOWN = "moved-down"
    """Money nobody in the score group ``score`` could take (``amount``) moved down the
    place ladder: ``items`` are the prizes raised (or added) and their new amounts."""
    RAISED = "raised"
    """``prize`` had been raised from ``other_amount`` to ``amount`` by money moved down
    from the score group ``score``."""

    # Cash under FIDE-world methods (fide-none, fide-equal, fide-hort).
    PLACE_PRIZE = "place-prize"
    """``prize`` (``amount``) is the prize of the player's place ``place`` among those in
    the main prizes."""
    SHARED_EQUALLY = "shared-equally"
    """Tied on ``score`` (fide-equal), or equal on every tiebreak (fide-none), ``players``
    share the prizes of places ``place`` (``items``): ``total`` among ``count``."""
    HORT = "hort"
    """The Hort system: half of the player's own place's ``prize`` (``amount``) is kept
    (``other_amount``); the other halves of the tied ``players``' prizes (``total``) are
    shared equally among ``count``."""
    CATEGORY_OVER_MAIN = "category-over-main"
    """The category ``prize`` (``amount``) is worth more than the player's share of the main
    prizes (``other_amount``): he takes it and leaves the main prizes to those below."""
    MAIN_OVER_CATEGORY = "main-over-category"
    """The player's share of the main prizes (``amount``) is worth at least the category
    ``prize`` he could take (``other_amount``), which goes to the next in the category."""
    UNPAID = "unpaid"
    """Only the personal limit ``amount`` is paid of the share ``other_amount``."""
    ADDITIVE = "additive"
    """``prize`` is awarded in addition to any other (announced as such): ``amount`` to the
    player, shared among ``count`` (``players``) on ``score``."""

    # Trophies.
    TROPHY = "trophy"
    """The trophy ``prize`` went by standings order: the player is ahead of ``other``, the
    next player who could have taken it, by ``code`` (``score``, ``unplayed``, a tiebreak
    code, ``playoff`` or ``coin``) with ``ours`` against ``theirs`` (``text``: a coin
    flip's draw); no ``other``: nobody below could have taken it."""
    TROPHY_FOLLOWS_MONEY = "trophy-follows-money"
    """The trophy of ``prize`` went with its cash: to the best-placed of those who shared
    it (``players``)."""

    # Why not.
    NOT_PRIZE_ELIGIBLE = "not-prize-eligible"
    """The player's personal limit is 0: he takes no prize and no trophy."""
    NO_PRIZE_FOR_HIM = "no-prize-for-him"
    """No cash prize of the list is one the player may win (``text``: ``unrated`` when that
    is why)."""
    PRIZES_TAKEN = "prizes-taken"
    """Every cash prize the player could win went to players above him (``items``: each
    prize, its winners and their ``score``)."""
    TROPHY_TAKEN = "trophy-taken"
    """The trophy ``prize`` went to ``other``, ahead of the player by ``code`` (``ours``
    against ``theirs`` are the player's and the winner's values; ``text`` a coin flip)."""
    ONE_TROPHY = "one-trophy"
    """The player holds the trophy ``prize``; one trophy per player, so the trophies he
    could also have had went below him (``items``: each and who holds it)."""
    NOT_AWARDED = "not-awarded"
    """``prize`` was not awarded: ``code`` ``nobody-eligible`` (no player may win it) or
    ``all-placed`` (every player who could was placed higher)."""

    # Teams.
    TEAM_SCORE = "team-score"
    """The team's score ``total``: the first ``count`` of its players in the standings
    (``items``: each counting player and score)."""
    TEAM_ORDER = "team-order"
    """The team is ahead of ``other`` by ``code`` (``score``, a tiebreak code: the sum of
    the counting players' values, ``playoff`` or ``coin``): ``ours`` against ``theirs``."""
    TEAM_TOO_SMALL = "team-too-small"
    """The team has ``count`` player in the section: at least 2 must count."""
    COUNTS_FOR_TEAM = "counts-for-team"
    """The player counts for team ``other`` (its ``count`` counting players include him)."""
    NOT_COUNTING = "not-counting"
    """The player's team ``other`` counts its first ``count`` players; he is not one."""


@dataclass(frozen=True, slots=True)
class Item:
    """A prize in a reason: its name, its amount, the players (or teams) it names, and
    their score where that matters."""

    prize: str
    amount: Fraction | None = None
    players: tuple[str, ...] = ()
    score: Fraction | None = None


@dataclass(frozen=True, slots=True)
class AwardNote:
    """One reason: its kind and the values that kind needs (:class:`AwardWhy`)."""

    kind: AwardWhy
    players: tuple[str, ...] = ()
    prize: str = ""
    other: str = ""
    items: tuple[Item, ...] = ()
    amount: Fraction | None = None
    other_amount: Fraction | None = None
    total: Fraction | None = None
    count: int = 0
    score: Fraction | None = None
    place: str = ""
    code: str = ""
    ours: Fraction | None = None
    theirs: Fraction | None = None
    text: str = ""
