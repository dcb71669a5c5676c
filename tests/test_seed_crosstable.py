"""Seed 000: MD Chess's published crosstable must be reproduced exactly.

The seed is a web page flattened to one cell a line: the headings ``#`` … ``TBrk[O]``, then
eleven cells per player. Every cell Harkness writes must equal the published cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.examples import load_example
from core.formats.crosstable import crosstable_rows, read_crosstable, write_crosstable
from core.standings import Standings, compute_standings

SEED = Path(__file__).parent / "corpus" / "mdchess-scholastic-crosstable.txt"


def published_table() -> list[list[str]]:
    lines = [line.strip() for line in SEED.read_text(encoding="utf-8").splitlines()]
    cells = [line for line in lines if line]
    start = cells.index("#")
    end = cells.index("TBrk[O]") + 1
    header = cells[start:end]
    body = cells[end : end + 10 * len(header)]
    return [header] + [body[i : i + len(header)] for i in range(0, len(body), len(header))]


@pytest.fixture(scope="module")
def standings() -> Standings:
    return compute_standings(load_example("mdchess-scholastic.txt"), "mdchess")


def test_published_table_has_ten_players_and_four_tiebreaks() -> None:
    table = published_table()
    assert len(table) == 11
    assert table[0][-4:] == ["TBrk[M]", "TBrk[S]", "TBrk[C]", "TBrk[O]"]


def test_every_cell_of_the_seed_crosstable_is_reproduced(standings: Standings) -> None:
    assert crosstable_rows(standings.tournament, standings) == published_table()


def test_all_forty_tiebreak_values_and_the_order(standings: Standings) -> None:
    published = published_table()[1:]
    ours = crosstable_rows(standings.tournament, standings)[1:]
    assert [row[1] for row in ours] == [row[1] for row in published]
    values = [(row[0], row[-4:]) for row in ours]
    assert values == [(row[0], row[-4:]) for row in published]
    assert sum(len(v) for _, v in values) == 40


def test_decisive_tiebreaks_of_the_three_point_group(standings: Standings) -> None:
    top = [(r.player.name, r.separated_by) for r in standings.rows[:5]]
    assert top == [
        ("Player A", None),
        ("Player B", "MM"),
        ("Player C", "MM"),
        ("Player D", "SOLK"),
        ("Player E", "score"),
    ]


def test_the_written_crosstable_reads_back_as_the_same_tournament(standings: Standings) -> None:
    for separator in ("  ", ",", "\t"):
        text = write_crosstable(standings.tournament, standings, separator)
        assert read_crosstable(text, name="mdchess-scholastic") == standings.tournament
