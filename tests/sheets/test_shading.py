"""The Standings tab shows ties in the sheet's own terms: tied score groups shaded, the cell
that broke each tie highlighted; formatting only, in the sync's one write."""

from __future__ import annotations

from collections.abc import Callable

from sheets.sync import SyncResult
from sheets.write import FILLS, HEADER_FORMAT
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]


def background(fake: SheetsFake, sheet_id: str, cell: str) -> object:
    return fake.cell(sheet_id, f"Standings!{cell}").format.get("backgroundColorStyle")


def test_tied_groups_are_shaded_and_the_deciding_cells_highlighted(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    # Seed 000: A, B, C and D all scored 3 (A over B and B over C by
    # Modified Median, C over D by Solkoff); E, F and G are alone; H and I tie on 1 (MM).
    sheet_id = make_sheet({"Results": seed_crosstable()})
    before = sheets_fake.values(sheet_id, "Results")
    run_sync(sheet_id)
    tied = FILLS["tied"]["backgroundColorStyle"]
    other = FILLS["tied-alternate"]["backgroundColorStyle"]
    decisive = FILLS["decisive"]["backgroundColorStyle"]
    assert [background(sheets_fake, sheet_id, f"C{r}") for r in range(2, 12)] == [
        tied,
        tied,
        tied,
        tied,
        None,
        None,
        None,
        other,
        other,
        None,
    ]
    mm = [background(sheets_fake, sheet_id, f"E{r}") for r in range(2, 6)]
    solk = [background(sheets_fake, sheet_id, f"F{r}") for r in range(2, 6)]
    assert mm == [decisive, decisive, decisive, tied]  # A|B and B|C broken by MM
    assert solk == [tied, tied, decisive, decisive]  # C|D broken by Solkoff
    assert sheets_fake.cell(sheet_id, "Standings!F4").format["textFormat"]["bold"] is True
    assert background(sheets_fake, sheet_id, "E9") == decisive  # H|I broken by MM
    assert background(sheets_fake, sheet_id, "G9") == other
    assert sheets_fake.cell(sheet_id, "Standings!A1").format == HEADER_FORMAT
    assert sheets_fake.values(sheet_id, "Results") == before  # the TD's tab: untouched


def test_the_shading_follows_the_results_when_they_change(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    # Player A and Player E drew in round 3; make it a win for Player E: A drops out of the
    # four-way tie, so the tie on 3 is B, C, D and E's row is no longer tied with anyone.
    sheets_fake.set_values(sheet_id, "Results!E2", [["L5 (w)"]])
    sheets_fake.set_values(sheet_id, "Results!E6", [["W1 (b)"]])
    sheets_fake.set_values(sheet_id, "Results!G2", [["2.5"]])  # and the Tot column with them
    sheets_fake.set_values(sheet_id, "Results!G6", [["3"]])
    result = run_sync(sheet_id)
    assert result.changed and result.problems == ()
    scores = [row[0] for row in sheets_fake.values(sheet_id, "Standings!D2:D11")]
    shaded = [background(sheets_fake, sheet_id, f"C{r}") is not None for r in range(2, 12)]
    for n, score in enumerate(scores):
        tied = scores.count(score) > 1
        assert shaded[n] == tied, (n, score)
