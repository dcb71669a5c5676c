"""Properties that hold for every valid tournament (hypothesis), with unplayed rounds."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.explain import explain
from core.model import Player, RoundEntry, Tournament
from core.problems import Problem
from core.render import to_json, to_json_dict
from core.standings import UNDEFINED, Standings, compute_standings
from core.tiebreaks.fide_unplayed import cut, cut_least, cut_one_at_a_time
from core.tiebreaks.uscf import trim
from tests.strategies import tournaments

US_CODES = "MM,SOLK,CUM,OCUM,MED,KASH,SB,BLK,H2H,AOR,PERF"
STATIC_CODES = "MM,SOLK,CUM,OCUM,KASH,SB,BLK,MED"
SUM_CODES = ("MM", "SOLK", "CUM", "OCUM", "MED", "KASH", "SB", "BLK")


def renumbered(t: Tournament, seed: int) -> tuple[Tournament, dict[int, int]]:
    """The same tournament with the starting numbers shuffled."""
    old = [p.id for p in t.players]
    new = old[:]
    random.Random(seed).shuffle(new)
    mapping = dict(zip(old, new, strict=True))

    def entry(e: RoundEntry) -> RoundEntry:
        return e if e.opponent is None else e._replace(opponent=mapping[e.opponent])

    players = sorted(
        (
            Player(mapping[p.id], p.name, tuple(entry(e) for e in p.entries), p.rating)
            for p in t.players
        ),
        key=lambda p: p.id,
    )
    return Tournament(tuple(players), t.rounds), mapping


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.integers(0, 10**6))
def test_renumbering_players_changes_nobody_s_values_or_place(t: Tournament, seed: int) -> None:
    before = compute_standings(t, "uscf", US_CODES)
    shuffled, mapping = renumbered(t, seed)
    after = compute_standings(shuffled, "uscf", US_CODES)
    place = {row.player.id: row.place for row in after.rows}
    for row in before.rows:
        j = shuffled.index(mapping[row.player.id])
        assert place[mapping[row.player.id]] == row.place
        for code in before.order:
            assert after.value(code, j) == before.value(code, row.player_index), code


@settings(max_examples=80, deadline=None)
@given(tournaments())
def test_median_never_exceeds_modified_median_which_never_exceeds_solkoff(t: Tournament) -> None:
    s = compute_standings(t, "uscf", "MED,MM,SOLK")
    for i in range(len(t)):
        med, mm, solk = s.value("MED", i), s.value("MM", i), s.value("SOLK", i)
        assert med is not None and mm is not None and solk is not None
        assert med <= mm <= solk


def _key(s: Standings, index: int) -> tuple[object, ...]:
    values = [s.columns[c].breakdowns[index].units for c in s.order]
    in_play = not (s.section.scores[index] > 0 and s.section.play_scores[index] == 0)
    return (s.section.scores[index], in_play, *(UNDEFINED if v is None else v for v in values))


@settings(max_examples=80, deadline=None)
@given(tournaments())
def test_standings_are_a_total_preorder(t: Tournament) -> None:
    s = compute_standings(t, "uscf", STATIC_CODES)
    keys = [_key(s, row.player_index) for row in s.rows]
    for (a, ka), (b, kb) in zip(
        zip(s.rows, keys, strict=True), zip(s.rows[1:], keys[1:], strict=True), strict=False
    ):
        assert ka >= kb  # type: ignore[operator]
        assert (a.place == b.place) == (ka == kb)
    assert [r.rank for r in s.rows] == list(range(1, len(t) + 1))
    first, *_ = (int(p) for p in s.rows[-1].place.split("-"))
    assert int(s.rows[-1].place.split("-")[-1]) == len(t) and first >= 1


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_sum_tiebreaks_are_the_sum_of_their_kept_parts(t: Tournament) -> None:
    s = compute_standings(t, "uscf", ",".join(SUM_CODES))
    for code in SUM_CODES:
        for b in s.columns[code].breakdowns:
            kept = [v for r, v in enumerate(b.per_round, start=1) if r not in b.dropped]
            assert b.units == sum(v for v in kept if v is not None) + b.adjustment


@settings(max_examples=50, deadline=None)
@given(tournaments(), st.sampled_from(["uscf", "mca", "wintd"]))
def test_explanations_repeat_the_standings_and_name_the_first_difference(
    t: Tournament, profile: str
) -> None:
    s = compute_standings(t, profile)
    for row in s.rows:
        e = explain(s, row.player.id)
        assert e.player.place == row.place
        assert e.player.score == Fraction(row.half_points, 2)
        for tb in e.tiebreaks:
            assert tb.value == s.value(tb.code, row.player_index)
            parts = [p.value for p in tb.parts]
            units = s.breakdown(tb.code, row.player_index).per_round
            scale = s.columns[tb.code].scale
            assert parts == [None if u is None else Fraction(u) / scale for u in units]
        for c in e.comparisons:
            other = s.tournament.index(c.other.id)
            static = [code for code in s.order if code != "H2H"]
            if c.decided_by == "unplayed" or "H2H" in s.order:
                continue
            differing = [
                code for code in static if s.value(code, row.player_index) != s.value(code, other)
            ]
            if c.decided_by is None:
                assert differing == [] and c.other.place == row.place
                continue
            assert differing and differing[0] == c.decided_by
            assert [code for code, _ in c.equal] == static[: static.index(c.decided_by)]


@settings(max_examples=60, deadline=None)
@given(
    tournaments(),
    st.sampled_from(["uscf", "mca", "fide-2024"]),
    st.lists(st.text(max_size=8), min_size=1, max_size=14),
)
def test_json_text_is_json_dumps_of_the_contract(
    t: Tournament, rules: str, names: list[str]
) -> None:
    """The JSON written row by row is what ``json.dumps`` writes of the contract's dict,
    whatever the names hold (quotes, control characters, non-ASCII, line separators)."""
    players = tuple(replace(p, name=names[n % len(names)]) for n, p in enumerate(t.players))
    warned = replace(
        Tournament(players, t.rounds),
        warnings=(Problem('a "warning" — noticed', "x.trf", 3, 81, players[0].id),),
    )
    s = compute_standings(warned, rules)
    assert to_json(s) == json.dumps(to_json_dict(s), ensure_ascii=False) + "\n"


def _trim_by_hand(
    values: list[int], lowest: int, highest: int, played: list[bool] | None
) -> tuple[int, tuple[int, ...]]:
    """Rule 34E1's cuts one at a time: the lowest (an own unplayed round first, then the
    earliest), then the highest of what is left (a played round first, then the latest)."""
    if lowest + highest >= len(values):
        return 0, tuple(range(1, len(values) + 1))
    left = list(range(len(values)))
    is_played = played or [True] * len(values)
    drop = []
    for _ in range(lowest):
        r = min(left, key=lambda r: (values[r], is_played[r], r))
        left.remove(r)
        drop.append(r)
    for _ in range(highest):
        r = max(left, key=lambda r: (values[r], is_played[r], r))
        left.remove(r)
        drop.append(r)
    return sum(values[r] for r in left), tuple(sorted(r + 1 for r in drop))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 8), min_size=1, max_size=12),
    st.integers(0, 2),
    st.integers(0, 2),
    st.none() | st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_trim_drops_what_the_rule_drops(
    values: list[int], lowest: int, highest: int, played: list[bool] | None
) -> None:
    flags = None if played is None else played[: len(values)]
    assert trim(values, lowest, highest, flags) == _trim_by_hand(values, lowest, highest, flags)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.none() | st.integers(0, 8), max_size=11),
    st.lists(st.integers(0, 8), min_size=11, max_size=11),
    st.integers(0, 2),
    st.integers(0, 2),
)
def test_a_cut_without_voluntarily_unplayed_rounds_is_the_one_at_a_time_cut(
    values: list[int | None], keys: list[int], low: int, high: int
) -> None:
    """C.07 14's cuts taken in one sort are the cuts taken one at a time."""
    keys = keys[: len(values)]
    vurs = [False] * len(values)
    assert cut(values, keys, vurs, low, high) == cut_one_at_a_time(values, keys, vurs, low, high)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.booleans()), max_size=11))
def test_buchholz_cut1_in_one_pass_is_the_one_at_a_time_cut(rounds: list[tuple[int, bool]]) -> None:
    """Buchholz Cut-1 (each value its own key, every round taking part), with or without
    voluntarily unplayed rounds, is C.07 14.1 and 16.5 taken one cut at a time."""
    values = [v for v, _ in rounds]
    vurs = [vur for _, vur in rounds]
    assert cut_least(values, vurs) == cut_one_at_a_time(values, values, vurs, 1, 0)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.text(alphabet="ab1 ,\"\n\r\t=+-@.'", max_size=6), min_size=1, max_size=4),
        max_size=5,
    )
)
def test_csv_is_written_with_every_cell_made_safe(rows: list[list[str]]) -> None:
    """The CSV writer looks at the cells only when its text may hold a cell that starts a
    formula; what it writes is always every cell through csv_safe."""
    import csv
    import io

    from core.names import csv_safe, write_csv

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([[csv_safe(c) for c in row] for row in rows])
    assert write_csv(iter(rows)) == out.getvalue()
