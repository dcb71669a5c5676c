"""Pictures in Discord: ``/standings``, ``/why`` and ``/crosstable`` attach a PNG with an alt
text beside the text answer, through the loopback fake (which keeps Discord's limits)."""

from __future__ import annotations

import io
import re
import sys

import pytest
from PIL import Image

import core.pictures
from core.explain import explain
from core.explain_render import headline, sentence
from core.numbers import half_points
from core.pictures import DESCRIPTION_MAX
from core.pictures.layout import PHONE_WIDTH
from core.standings import compute_standings
from tests.bot.support import Club, clicked, imported_swiss, reported, running_tournament
from tests.fakes.discord_fake.limits import attachment_description_problems
from tests.fakes.discord_fake.records import AttachmentRecord

PNG = b"\x89PNG\r\n\x1a\n"


def picture(attachment: AttachmentRecord) -> tuple[int, int]:
    assert attachment.content_type == "image/png"
    assert attachment.data.startswith(PNG)
    assert 0 < attachment.size <= 500_000
    assert attachment.description and len(attachment.description) <= DESCRIPTION_MAX
    with Image.open(io.BytesIO(attachment.data)) as image:
        return image.size


async def test_standings_attach_a_phone_sized_picture_of_the_page(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await reported(club, "carol", 1, "#4", "draw")  # provisional: marked *
    reply = await club.ok("erin", "standings")
    attachment = reply.attachment("standings-p1-dark.png")
    width, _ = picture(attachment)
    assert width <= PHONE_WIDTH
    assert reply.embeds[0]["image"]["url"] == "attachment://standings-p1-dark.png"
    assert reply.embeds[0]["description"].startswith("```")  # the text table stays
    view = await club.store.standings(club.guild, "Club Night")
    text = attachment.description or ""
    assert "Club Night" in text and "after round 1 of 4" in text
    for row in view.standings.rows:
        values = ", ".join(
            f"{code} {view.standings.columns[code].display(row.player_index, None, '–')}"
            for code in view.standings.order
        )
        mark = "*" if row.player.name in ("Carol", "Dave") else ""
        line = f"{row.place}. {row.player.name} {half_points(row.half_points)}{mark} ({values});"
        assert line in text


async def test_turning_a_page_turns_the_picture_and_keeps_its_theme(club: Club) -> None:
    swiss = await imported_swiss(club, 40, 5)
    rows = compute_standings(swiss, "uscf").rows
    first = await club.ok("alice", "standings", {"tournament": "Big Swiss", "theme": "light"})
    assert [a.filename for a in first.attachments] == ["standings-p1-light.png"]
    page = await clicked(club, "bob", first, "Next")
    (attachment,) = page.attachments
    assert attachment.filename == "standings-p2-light.png"
    assert page.embeds[0]["image"]["url"] == "attachment://standings-p2-light.png"
    text = attachment.description or ""
    assert "rows 16–30 of 40." in text
    row = r"(\d+(?:-\d+)?)\. (.+?) \d+(?:\.5)?[*?]? \("
    shown = re.findall(row, text.split(" of 40.", 1)[1])
    body = page.embeds[0]["description"].strip("`\n").splitlines()[1:]
    assert len(shown) == len(body)
    start = len(first.embeds[0]["description"].strip("`\n").splitlines()) - 1
    assert [name for _, name in shown] == [r.player.name for r in rows[start : start + len(body)]]
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.getpixel((2, 2)) == (255, 255, 255)  # the light theme's background
    club.fake.assert_clean()


async def test_why_attaches_the_score_group_picture(club: Club) -> None:
    swiss = await imported_swiss(club, 12, 4, name="Small Swiss")
    reply = await club.ok("alice", "why", {"tournament": "Small Swiss", "player": "#5"})
    assert reply.ephemeral and reply.content  # the text answer stays
    (attachment,) = reply.attachments
    assert attachment.filename == "why-5-dark.png"
    picture(attachment)
    standings = compute_standings(swiss, "uscf")
    e = explain(standings, 5)
    text = attachment.description or ""
    assert headline(e) in text
    for c in e.comparisons:
        assert sentence(e, c) in text


async def test_crosstable_attaches_a_picture_when_the_section_fits(club: Club) -> None:
    await imported_swiss(club, 14, 5, name="Small Swiss")
    reply = await club.ok("alice", "crosstable", {"tournament": "Small Swiss"})
    names = [a.filename for a in reply.attachments]
    assert names == [
        "small-swiss-crosstable-dark.png",
        "small-swiss-crosstable.txt",
        "small-swiss-crosstable.csv",
    ]
    picture(reply.attachments[0])
    assert (reply.attachments[0].description or "").startswith("Crosstable picture: Small Swiss")


async def test_a_crosstable_too_large_for_a_picture_keeps_the_files(club: Club) -> None:
    await imported_swiss(club, 61, 5, name="Large Swiss")
    reply = await club.ok("alice", "crosstable", {"tournament": "Large Swiss"})
    assert [a.filename for a in reply.attachments] == [
        "large-swiss-crosstable.txt",
        "large-swiss-crosstable.csv",
    ]


async def test_without_pillow_the_text_answers_alone(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if the images extra were missing
    monkeypatch.delitem(sys.modules, "core.pictures.canvas", raising=False)
    monkeypatch.delattr(core.pictures, "canvas", raising=False)
    await imported_swiss(club, 12, 4, name="Small Swiss")
    standings = await club.ok("alice", "standings", {"tournament": "Small Swiss"})
    assert standings.attachments == [] and "image" not in standings.embeds[0]
    why = await club.ok("alice", "why", {"tournament": "Small Swiss", "player": "#5"})
    assert why.attachments == [] and why.content


def test_the_fake_refuses_an_alt_text_over_discords_limit() -> None:
    assert attachment_description_problems(0, "x" * DESCRIPTION_MAX) == []
    (problem,) = attachment_description_problems(2, "x" * (DESCRIPTION_MAX + 1))
    assert problem.path == ("attachments", 2, "description")
