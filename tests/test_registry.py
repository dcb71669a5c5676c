"""The tiebreak registry has no import side effects: each rule family is a constant, the
profiles are data that the tiebreaks read (one way), rule families are an enum."""

from __future__ import annotations

import subprocess
import sys

from core.profiles import PROFILES, Family, Profile, names
from core.tiebreaks import USCF_TIEBREAKS, tiebreaks_of


def test_every_profile_is_known_without_importing_a_tiebreak() -> None:
    code = (
        "import sys, core.profiles as p; n = p.names(); "
        "assert 'fide-2026' in n and 'core.tiebreaks' not in sys.modules, n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_families_are_an_enum_and_each_profile_names_its_own() -> None:
    assert {p.family for p in PROFILES.values()} == set(Family)
    assert Profile("x", "", (), family="fide").family is Family.FIDE  # type: ignore[arg-type]
    for name in names():
        if name != "fide":
            profile = PROFILES[name]
            assert set(profile.tiebreaks) <= set(tiebreaks_of(profile.family))


def test_a_family_is_its_constant_tuple() -> None:
    from core.tiebreaks import fide

    assert list(tiebreaks_of(Family.USCF)) == [t.code for t in USCF_TIEBREAKS]
    assert list(tiebreaks_of(Family.FIDE)) == [t.code for t in fide.TIEBREAKS]
