"""The FIDE family: Handbook C.07 tiebreaks, in the texts of 1 August 2024 and 1 March 2026.

Codes as FIDE writes them (``BH/C1``, ``SB``, ``ARO``…), registered in the rule family
``"fide"``; profiles ``fide-2024`` and ``fide-2026`` differ only in ``Profile.fide_version``,
which the unplayed-round rules read (art. 16.4: the 2026 text caps the dummy opponent).
``--rules fide`` picks the text by the tournament's start date (``core.profiles.resolve_for``).

The rules themselves live in ``fide_unplayed`` (arts. 14–16), ``fide_buchholz`` (8, 9),
``fide_results`` (6, 7) and ``fide_ratings`` (10); each function's docstring cites its article
and works one of FIDE's published exercises.

>>> from core.profiles import resolve
>>> resolve("fide-2026").tiebreaks, resolve("fide-2026").fide_version
(('BH/C1', 'BH', 'SB', 'DE', 'WON', 'BPG'), '2026')
>>> resolve("fide-2024", "aro/c1, tpr").tiebreaks
('ARO/C1', 'TPR')
"""

from __future__ import annotations

from core.tiebreaks.base import Tiebreak
from core.tiebreaks.fide_buchholz import (
    average_of_opponents_buchholz,
    buchholz,
    buchholz_cut1,
    buchholz_cut2,
    buchholz_median1,
    buchholz_median2,
    fore_buchholz,
    koya,
    sonneborn_berger,
    sonneborn_berger_cut1,
)
from core.tiebreaks.fide_ratings import (
    average_perfect_performance_of_opponents,
    average_performance_of_opponents,
    average_rating_of_opponents,
    average_rating_of_opponents_cut1,
    perfect_tournament_performance,
    tournament_performance_rating,
)
from core.tiebreaks.fide_results import (
    direct_encounter,
    direct_encounter_column,
    games_with_black,
    games_won,
    progressive_scores,
    progressive_scores_cut1,
    rounds_elected_to_play,
    wins,
    wins_with_black,
)
from core.tiebreaks.notes import opponent_scores

TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak("BH", "Buchholz", "C.07 8.1, 16", buchholz, notes=opponent_scores),
    Tiebreak(
        "BH/C1", "Buchholz Cut-1", "C.07 8.1, 14.1, 16.5", buchholz_cut1, notes=opponent_scores
    ),
    Tiebreak(
        "BH/C2", "Buchholz Cut-2", "C.07 8.1, 14.2, 16.5", buchholz_cut2, notes=opponent_scores
    ),
    Tiebreak(
        "BH/M1",
        "Median Buchholz-1",
        "C.07 8.1, 14.3, 16.5",
        buchholz_median1,
        notes=opponent_scores,
    ),
    Tiebreak(
        "BH/M2",
        "Median Buchholz-2",
        "C.07 8.1, 14.4, 16.5",
        buchholz_median2,
        notes=opponent_scores,
    ),
    Tiebreak("FB", "Fore Buchholz", "C.07 8.2, 16", fore_buchholz, notes=opponent_scores),
    Tiebreak(
        "AOB", "Average of Opponents' Buchholz", "C.07 8.3", average_of_opponents_buchholz, digits=2
    ),
    Tiebreak("SB", "Sonneborn-Berger", "C.07 9.1, 16", sonneborn_berger, notes=opponent_scores),
    Tiebreak(
        "SB/C1",
        "Sonneborn-Berger Cut-1",
        "C.07 9.1, 14.1, 16.5",
        sonneborn_berger_cut1,
        notes=opponent_scores,
    ),
    Tiebreak("KS", "Koya", "C.07 9.2", koya),
    Tiebreak("PS", "Progressive scores", "C.07 7", progressive_scores),
    Tiebreak("PS/C1", "Progressive scores Cut-1", "C.07 7, 14.1", progressive_scores_cut1),
    Tiebreak("WIN", "Number of wins", "C.07 7.1", wins),
    Tiebreak("WON", "Number of games won", "C.07 7.2", games_won),
    Tiebreak("BPG", "Number of games played with Black", "C.07 7.3", games_with_black),
    Tiebreak("BWG", "Number of games won with Black", "C.07 7.4", wins_with_black),
    Tiebreak("REP", "Rounds one elected to play", "C.07 7, 16.1.2", rounds_elected_to_play),
    Tiebreak("DE", "Direct encounter", "C.07 6", direct_encounter_column, group=direct_encounter),
    Tiebreak(
        "ARO", "Average rating of opponents", "C.07 10.1", average_rating_of_opponents, digits=0
    ),
    Tiebreak(
        "ARO/C1",
        "Average rating of opponents Cut-1",
        "C.07 10.1, 14.1",
        average_rating_of_opponents_cut1,
        digits=0,
    ),
    Tiebreak(
        "TPR", "Tournament performance rating", "C.07 10.2", tournament_performance_rating, digits=0
    ),
    Tiebreak(
        "PTP",
        "Perfect tournament performance",
        "C.07 10.3",
        perfect_tournament_performance,
        digits=0,
    ),
    Tiebreak(
        "APRO",
        "Average performance rating of opponents",
        "C.07 10.4",
        average_performance_of_opponents,
        digits=0,
    ),
    Tiebreak(
        "APPO",
        "Average perfect performance of opponents",
        "C.07 10.5",
        average_perfect_performance_of_opponents,
        digits=0,
    ),
)
