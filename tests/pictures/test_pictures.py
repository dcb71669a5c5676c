"""Pictures of standings, explanations and crosstables: golden images, alt texts, layouts.

Golden images live in tests/snapshots/pictures/ and are compared pixel by pixel with a small
tolerance (another FreeType build may shade a glyph's edge differently). Regenerate them, as
the text snapshots, with ``UPDATE_SNAPSHOTS=1 pytest tests/pictures``, then look at them.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from core.examples import load_example
from core.explain import explain
from core.explain_render import headline, sentence
from core.formats import read_tournament
from core.numbers import half_points
from core.pictures import DESCRIPTION_MAX, PicturesUnavailable, alt_text, canvas
from core.pictures.crosstable import MAX_PLAYERS, cell_text, crosstable_picture, fits
from core.pictures.layout import PHONE_WIDTH
from core.pictures.standings import NARROW_DROP, StandingsPage, standings_picture
from core.pictures.why import why_picture
from core.problems import HarknessError
from core.standings import Standings, compute_standings
from tests.builders import crosstable
from tests.generate import random_swiss

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "snapshots" / "pictures"
CORPUS = ROOT / "tests" / "corpus"
#: A pixel differs when a channel differs by more than this; at most this share may differ.
CHANNEL_TOLERANCE = 48
PIXEL_SHARE = 0.005
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def club() -> Standings:
    return compute_standings(load_example("club-swiss.trf"), "uscf")


@pytest.fixture(scope="module")
def explain_club() -> Standings:
    return compute_standings(read_tournament(CORPUS / "explain-club.csv"), "uscf")


def shared() -> Standings:
    return compute_standings(crosstable("Zoë Ångström: D2", "Σοφία Παπαδοπούλου: D1"), "uscf")


def differing_pixels(png: bytes, name: str) -> int:
    """How many pixels of ``png`` differ from the golden image by more than the tolerance."""
    with Image.open(io.BytesIO(png)) as got, Image.open(GOLDEN / f"{name}.png") as want:
        assert got.size == want.size, f"{name}: {got.size} != {want.size}"
        difference = ImageChops.difference(got.convert("RGB"), want.convert("RGB"))
        mask = difference.convert("L").point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
        return mask.histogram()[255]


def assert_matches_golden(png: bytes, name: str) -> None:
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        (GOLDEN / f"{name}.png").write_bytes(png)
    with Image.open(io.BytesIO(png)) as image:
        allowed = PIXEL_SHARE * image.width * image.height
    differing = differing_pixels(png, name)
    assert differing <= allowed, (
        f"{name}: {differing} pixels differ; if the change is meant, regenerate with "
        "UPDATE_SNAPSHOTS=1 pytest tests/pictures and look at the pictures"
    )


def golden_cases() -> dict[str, bytes]:
    club = compute_standings(load_example("club-swiss.trf"), "uscf")
    page = StandingsPage(
        club, 0, 8, marks={3: "*", 5: "?"}, legend=["* provisional", "? disputed"], planned=7
    )
    group = compute_standings(read_tournament(CORPUS / "explain-club.csv"), "uscf")
    return {
        "standings-light": standings_picture(page, "light").data,
        "standings-dark-narrow": standings_picture(page, "dark", narrow=True).data,
        "why-light": why_picture(club, explain(club, 8), "light").data,
        "why-dark-unplayed": why_picture(group, explain(group, 8), "dark").data,
        "why-light-shared": why_picture(shared(), explain(shared(), 1), "light").data,
        "crosstable-dark": crosstable_picture(club, "dark").data,
    }


@pytest.fixture(scope="module")
def drawn() -> dict[str, bytes]:
    return golden_cases()


@pytest.mark.parametrize(
    "name",
    [
        "standings-light",
        "standings-dark-narrow",
        "why-light",
        "why-dark-unplayed",
        "why-light-shared",
        "crosstable-dark",
    ],
)
def test_pictures_match_their_golden_images(drawn: dict[str, bytes], name: str) -> None:
    assert drawn[name].startswith(b"\x89PNG\r\n\x1a\n")
    assert_matches_golden(drawn[name], name)


def test_the_same_input_gives_the_same_bytes(drawn: dict[str, bytes]) -> None:
    assert golden_cases() == drawn


def test_a_changed_cell_fails_the_golden_comparison(drawn: dict[str, bytes]) -> None:
    with Image.open(io.BytesIO(drawn["standings-light"])) as image:
        changed = image.convert("RGB")
    changed.paste((255, 0, 0), (100, 150, 400, 250))
    out = io.BytesIO()
    changed.save(out, format="PNG")
    assert differing_pixels(out.getvalue(), "standings-light") > PIXEL_SHARE * 300 * 100


# -- alt texts: every number is the engine's ------------------------------------------------

ROW = re.compile(r"(\d+(?:-\d+)?)\. (.+?) (\d+(?:\.5)?)([*?]?)(?: \(([^()]*)\))?;")


def test_standings_alt_text_numbers_are_the_engines(club: Standings) -> None:
    page = StandingsPage(club, 2, 7, marks={3: "*"})
    text = standings_picture(page).description
    assert len(text) <= DESCRIPTION_MAX
    assert "after round 5" in text
    rows = ROW.findall(text.split(page.subtitle() + ".", 1)[1])
    assert len(rows) == 7
    for (place, name, score, mark, values), row in zip(rows, club.rows[2:9], strict=True):
        assert (place, name, score) == (row.place, row.player.name, half_points(row.half_points))
        assert mark == ("*" if row.player.id == 3 else "")
        shown = dict(pair.split(" ") for pair in values.split(", "))
        assert list(shown) == list(club.order)
        for code, value in shown.items():
            assert value == club.columns[code].display(row.player_index, None, "–")


def test_why_alt_text_numbers_are_the_engines(club: Standings) -> None:
    e = explain(club, 8)
    text = why_picture(club, e).description
    assert headline(e) in text
    for c in e.comparisons:
        assert sentence(e, c) in text
        assert c.decided_by is not None and c.ours is not None and c.theirs is not None
        tb = club.columns[c.decided_by]
        assert tb.display(club.row_of(8).player_index) in NUMBER.findall(sentence(e, c))
    rows = ROW.findall(text.split("Score group:", 1)[1])
    group = club.score_group(8)
    assert [r[1] for r in rows] == [g.player.name for g in group]
    for (_, _, score, _, values), row in zip(rows, group, strict=True):
        assert score == half_points(row.half_points)
        for pair in values.split(", "):
            code, value = pair.split(" ")
            assert value == club.columns[code].display(row.player_index, None, "–")


def test_crosstable_alt_text_is_every_result_and_score(club: Standings) -> None:
    text = crosstable_picture(club).description
    for row in club.rows:
        cells = " ".join(cell_text(e) or "absent" for e in row.player.entries)
        assert f"#{row.player.id} {row.player.name}: {cells}, {half_points(row.half_points)};" in (
            text
        )


def test_alt_text_stops_at_discords_limit_and_says_how_many_are_left() -> None:
    big = compute_standings(random_swiss(500, 9, seed=5), "uscf")
    text = standings_picture(StandingsPage(big, 0, 60)).description
    assert len(text) <= DESCRIPTION_MAX
    assert re.search(r"… and \d+ more\.$", text)
    assert alt_text("x", ["a" * 2000]) == "x … and 1 more."


# -- layout -------------------------------------------------------------------------------


def test_the_narrow_layout_fits_a_phone_and_names_what_it_leaves_out() -> None:
    long = "Maximiliana Konstantinopoulou-Wolkenstein"
    t = crosstable(f"{long}: W2 D3", "Ann: L1 B", "Bob: B D1")
    fide = compute_standings(t, "fide-2026")
    page = StandingsPage(fide)
    wide = standings_picture(page)
    narrow = standings_picture(page, narrow=True)
    assert narrow.width <= PHONE_WIDTH < wide.width
    assert canvas.BODY >= 24  # 12 CSS pixels on a 360-pixel screen at twice the density
    dropped = len(fide.order) - NARROW_DROP
    assert f"{fide.order[dropped - 1]} " in narrow.description
    assert f"{fide.order[-1]} " not in narrow.description


def test_names_are_data_whatever_they_hold() -> None:
    hostile = "**Bob**\x00\n" + "Ж" * 10_000
    t = crosstable("Ann: W2", "Bob: L1")
    t = replace(t, players=(t.players[0], replace(t.players[1], name=hostile)))
    standings = compute_standings(t, "uscf")
    picture = standings_picture(StandingsPage(standings), narrow=True)
    assert picture.width <= PHONE_WIDTH
    assert len(picture.description) <= DESCRIPTION_MAX


@pytest.mark.parametrize("text", ["é", "ß", "Ω", "Ж", "½", "ő"])
def test_the_font_has_accents_greek_cyrillic_and_the_half(text: str) -> None:
    def drawn(text: str) -> bytes:
        image = Image.new("L", (60, 60))
        ImageDraw.Draw(image).text((5, 5), text, font=canvas.font(canvas.BODY), fill=255)
        return image.tobytes()

    assert drawn(text) != drawn("\U0001f600")  # a glyph, not the missing-glyph box


def test_a_section_too_large_for_a_crosstable_picture_is_refused() -> None:
    big = compute_standings(random_swiss(MAX_PLAYERS + 1, 5, seed=2), "uscf")
    assert not fits(big)
    with pytest.raises(HarknessError, match="at most 60 players"):
        crosstable_picture(big)


# -- the command line ----------------------------------------------------------------------


def run(*argv: str, modules: str = "") -> subprocess.CompletedProcess[str]:
    code = f"{modules}import sys; from core.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_writes_a_png_of_the_standings_and_of_an_explanation(tmp_path: Path) -> None:
    from core.cli import main
    from core.examples import example_path

    out = tmp_path / "standings.png"
    example = example_path("club-swiss.trf")
    assert main(["standings", example, "--format", "png", "--output", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    why = tmp_path / "why.png"
    argv = ["explain", example, "8", "--format", "png", "--theme", "dark", "--output", str(why)]
    assert main(argv) == 0
    with Image.open(why) as image:
        assert image.format == "PNG"


def test_cli_png_needs_an_output_file_and_a_page_that_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.cli import main
    from core.examples import example_path

    example = example_path("club-swiss.trf")
    assert main(["standings", example, "--format", "png"]) == 2
    assert "give --output FILE" in capsys.readouterr().err
    out = str(tmp_path / "x.png")
    assert main(["standings", example, "--format", "png", "--output", out, "--page", "2"]) == 2
    assert "pages run 1–1" in capsys.readouterr().err


def test_cli_without_pillow_says_how_to_install_it(tmp_path: Path) -> None:
    from core.examples import example_path

    blocked = "import sys; sys.modules['PIL'] = None; "
    args = ["standings", example_path("club-swiss.trf"), "--format", "png"]
    result = run(*args, "--output", str(tmp_path / "x.png"), modules=blocked)
    assert result.returncode == 2
    assert "pip install 'harkness[images]'" in result.stderr
    assert not (tmp_path / "x.png").exists()
    text = run("standings", example_path("club-swiss.trf"), modules=blocked)
    assert text.returncode == 0 and "Chen, Wei" in text.stdout


def test_harkness_starts_without_importing_pillow() -> None:
    code = "import sys, core.cli; print('PIL' in sys.modules, 'core.pictures' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "False"]


def test_pictures_unavailable_is_an_input_error_with_the_hint() -> None:
    assert "harkness[images]" in str(PicturesUnavailable())


def test_svg_is_the_same_layout_as_well_formed_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from xml.dom.minidom import parseString

    from core.cli import main

    t = crosstable("<b>Ann & Co</b>: W2", "Bob: L1")
    standings = compute_standings(t, "uscf")
    page = StandingsPage(standings)
    svg = standings_picture(page, "dark", fmt="svg")
    png = standings_picture(page, "dark")
    assert (svg.format, svg.width, svg.height) == ("svg", png.width, png.height)
    assert svg.description == png.description
    document = parseString(svg.data)
    texts = [node.firstChild.data for node in document.getElementsByTagName("text")]
    assert "<b>Ann & Co</b>" in texts and "Bob" in texts
    assert standings_picture(page, "dark", fmt="svg").data == svg.data
    from core.examples import example_path

    assert main(["explain", example_path("club-swiss.trf"), "8", "--format", "svg"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<svg ") and "Harper, Evan" in out
