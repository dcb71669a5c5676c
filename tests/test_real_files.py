"""Tournament files written by real software (Swiss-Manager, SwissPerfect, lichess, KNSB and
ICU exports, JaVaFo samples), kept beside the checkout in ``../shared/data/real/``: every one
reads, ranks under every profile, explains, and converts; the readings of TRF-16 that these
files rely on hold on every line of them. Skipped, with the reason, on a clone without them.

The expected values are not here: these tests check the rules on real data (a double forfeit
is a forfeit loss on both sides, a points column that disagrees is a warning naming the
player, …), never numbers remembered from the files.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from core.explain import explain
from core.formats import read_text, read_tournament
from core.formats.crosstable import read_crosstable, write_crosstable
from core.formats.trf import write_trf
from core.model import EntryKind, Player, is_round_robin
from core.profiles import PROFILES, resolve
from core.standings import compute_standings
from tests.shared_data import SHARED, shared_path
from tests.test_convert_roundtrip import converts_or_is_refused

REAL = SHARED / "data" / "real"
FILES = (
    sorted(p for p in REAL.rglob("*") if p.suffix in {".trf", ".tab", ".txt"})
    if REAL.is_dir()
    else []
)


@pytest.fixture(params=FILES or [None], ids=lambda p: str(p.relative_to(REAL)) if p else "none")
def real(request: pytest.FixtureRequest) -> Path:
    if request.param is None:
        return shared_path("data", "real")  # skips, saying what is missing
    path: Path = request.param
    return path


def _text(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _player_lines(path: Path) -> list[str]:
    return [line.rstrip("\r\n") for line in _text(path).splitlines() if line.startswith("001")]


def test_the_corpus_is_there() -> None:
    shared_path("data", "real")
    assert len(FILES) >= 20


def test_every_file_ranks_and_explains_under_every_profile(real: Path) -> None:
    t = read_tournament(real)
    assert len(t) > 0 and t.rounds > 0
    for name in PROFILES:
        standings = compute_standings(t, resolve(name))
        assert sorted(row.player.id for row in standings.rows) == sorted(p.id for p in t)
        scores = [row.half_points for row in standings.rows]
        assert scores == sorted(scores, reverse=True)
        first = standings.rows[0].player.id
        assert explain(standings, first).player.place == standings.rows[0].place


def test_trf_to_trf_keeps_the_tournament_and_every_record(real: Path) -> None:
    t = read_tournament(real)
    written = write_trf(t)
    again = read_text(written)
    assert (again.players, again.rounds, again.name) == (t.players, t.rounds, t.name)
    assert (again.start_date, again.end_date, again.round_robin) == (
        t.start_date,
        t.end_date,
        t.round_robin,
    )
    # Canonical form: trailing blanks dropped, team records (013) after the players.
    assert sorted((c, x.rstrip()) for c, x in again.records) == sorted(
        (c, x.rstrip()) for c, x in t.records
    )
    kept = {line.rstrip() for line in written.splitlines()}
    for line in _text(real).splitlines():
        if line.strip() and not line.startswith("001"):
            assert line.rstrip().lstrip("\ufeff") in kept, line


def test_crosstable_text_and_csv_keep_every_score(real: Path) -> None:
    t = read_tournament(real)
    for separator in ("  ", ","):
        back = read_crosstable(write_crosstable(t, separator=separator))
        assert [p.half_points for p in back] == [p.half_points for p in sorted(t, key=_id)]


def _id(p: Player) -> int:
    return p.id


def _blocks(line: str) -> list[str]:
    return [line[start : start + 10].ljust(10) for start in range(89, len(line), 10)]


_UNPAIRED = {"+": EntryKind.FULL_BYE, "=": EntryKind.HALF_BYE, "-": EntryKind.ZERO_BYE}


def test_an_unpaired_round_is_the_bye_its_code_says(real: Path) -> None:
    t = read_tournament(real)
    for line in _player_lines(real):
        player = t.player(int(line[4:8]))
        for r, block in enumerate(_blocks(line)):
            if block[2:6].strip("0 ") == "" and block[9] in _UNPAIRED:
                assert player.entries[r].kind is _UNPAIRED[block[9]], (player.id, r + 1)


def test_a_double_forfeit_is_a_forfeit_loss_for_both(real: Path) -> None:
    t = read_tournament(real)
    for p in t:
        for r, e in enumerate(p.entries):
            other = t.player(e.opponent).entries[r] if e.opponent is not None else None
            if e.kind is EntryKind.FORFEIT_LOSS and other and other.kind is e.kind:
                assert other.opponent == p.id and other.half_points == 0 == e.half_points
                assert not e.played and not other.played
                assert t.opponents[t.index(p.id)][r] == -1


def test_a_points_column_that_disagrees_is_a_warning_naming_the_player(real: Path) -> None:
    t = read_tournament(real)
    disagree = set()
    for line in _player_lines(real):
        written = line[80:84].strip().replace(",", ".")
        player = t.player(int(line[4:8]))
        if re.fullmatch(r"\d+(\.\d+)?", written) and Fraction(written) != Fraction(
            player.half_points, 2
        ):
            disagree.add(player.id)
    assert {w.player for w in t.warnings} == disagree
    for w in t.warnings:
        assert w.player is not None and w.line is not None
        assert t.player(w.player).name in w.message


def test_a_declared_type_decides_round_robin_or_swiss(real: Path) -> None:
    t = read_tournament(real)
    declared = [text for code, text in t.records if code == "092"]
    if any("swiss" in text.lower() for text in declared):
        assert not is_round_robin(t)


def test_a_perfect_score_performs_736_above_the_best_opponent(real: Path) -> None:
    t = read_tournament(real)
    standings = compute_standings(t, resolve("fide-2024", "PTP"))
    for i, p in enumerate(t):
        games = [e for e in p.entries if e.played]
        ptp = standings.value("PTP", i)
        if games and ptp is not None and all(e.kind is EntryKind.WIN for e in games):
            best = max(t.player(e.opponent).rating or 0 for e in games if e.opponent)
            assert ptp == best + 736, p.id


US_REAL = SHARED / "data" / "us-real"
US_FILES = sorted(US_REAL.glob("*.txt")) if US_REAL.is_dir() else []


@pytest.fixture(params=US_FILES or [None], ids=lambda p: p.name if p else "none")
def us_real(request: pytest.FixtureRequest) -> Path:
    if request.param is None:
        return shared_path("data", "us-real")  # skips, saying what is missing
    path: Path = request.param
    return path


def test_every_us_section_reads_and_ranks_under_every_profile(us_real: Path) -> None:
    t = read_tournament(us_real)
    for name in PROFILES:
        standings = compute_standings(t, resolve(name))
        assert len(standings.rows) == len(t)
    # A double forfeit there is F on both rows: both score 0 in the round, neither played.
    for p in t:
        for r, e in enumerate(p.entries):
            if e.kind is EntryKind.FORFEIT_LOSS and e.opponent is not None:
                other = t.player(e.opponent).entries[r]
                assert other.kind in (EntryKind.FORFEIT_WIN, EntryKind.FORFEIT_LOSS)


def test_every_file_converts_with_the_same_standings_or_is_refused(
    real: Path, tmp_path: Path
) -> None:
    converts_or_is_refused(real, tmp_path)


def test_every_us_section_converts_with_the_same_standings_or_is_refused(
    us_real: Path, tmp_path: Path
) -> None:
    converts_or_is_refused(us_real, tmp_path)
