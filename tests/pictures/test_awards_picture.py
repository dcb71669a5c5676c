"""The prize list as a picture: golden images (light and dark), the same bytes for the same
list, a phone's width, the alt text from the engine's amounts, and a list too long for a
picture refused (the text has it all)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from core.awards import Awards, compute_awards, read_prize_file, read_prizes
from core.examples import example_path, load_example
from core.pictures.awards import MAX_ROWS, awards_picture, description
from core.pictures.layout import PHONE_WIDTH
from core.problems import HarknessError
from core.standings import compute_standings
from tests.awards.support import Entry, section
from tests.pictures.test_pictures import assert_matches_golden


@pytest.fixture(scope="module")
def club() -> Awards:
    standings = compute_standings(load_example("club-swiss.trf"), "uscf")
    return compute_awards(standings, read_prize_file(example_path("club-swiss-prizes.toml")))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_prize_list_matches_its_golden_image(club: Awards, theme: str) -> None:
    picture = awards_picture(club, theme)
    assert_matches_golden(picture.data, f"awards-{theme}")
    assert awards_picture(club, theme).data == picture.data  # deterministic


def test_the_prize_list_fits_a_phone(club: Awards) -> None:
    picture = awards_picture(club)
    with Image.open(io.BytesIO(picture.data)) as image:
        assert image.width == picture.width <= PHONE_WIDTH


def test_the_alt_text_names_each_winner_with_the_engines_amounts(club: Awards) -> None:
    text = description(club)
    assert text.startswith("Prize list picture: Riverside Chess Club Autumn Swiss, us-chess.")
    assert "2. Alvarez, Maria 3.5: $133.33, 2nd place;" in text
    assert "6. Eriksen, Lars 3: $50;" in text and "Gupta" not in text
    assert "Team 1. Rooks, 12.5: Top team" in text


def test_a_list_with_more_winners_than_a_picture_shows_keeps_the_text() -> None:
    field = [Entry(f"P{n}", 1) for n in range(MAX_ROWS + 1)]
    awards = compute_awards(
        section(field), read_prizes('[[prize]]\nname = "1st"\nplace = 1\namount = 1000\n')
    )
    with pytest.raises(HarknessError) as raised:
        awards_picture(awards)
    assert raised.value.problems[0].code == "picture-too-large"


def test_an_svg_picture_escapes_names(club: Awards) -> None:
    field = [Entry("<b>Ann & Co</b>", 2)]
    awards = compute_awards(
        section(field), read_prizes('[[prize]]\nname = "1st"\nplace = 1\namount = 10\n')
    )
    svg = awards_picture(awards, fmt="svg").data.decode()
    assert "&lt;b&gt;Ann &amp; Co&lt;/b&gt;" in svg and "<b>" not in svg
