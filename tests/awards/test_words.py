"""Every kind of award reason is worded once, in core.explain_render, from its values (and
given as data by core.explain_data): no kind falls through unworded, no value shows as
"None", and names are data (escaped in Markdown)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from core.awards import AwardNote, AwardWhy, Item
from core.explain_data import award_note_data
from core.explain_render import award_markdown, award_note_text, award_text
from tests.awards.support import Entry, awards
from tests.awards.test_worked_examples import CAP, FIELD

FULL = AwardNote(
    AwardWhy.POOL,
    players=("Ann", "Bob"),
    prize="2nd",
    other="U1800",
    items=(Item("2nd", Fraction(200), ("Ann",), Fraction(4)), Item("U1800", Fraction(150))),
    amount=Fraction(325, 2),
    other_amount=Fraction(150),
    total=Fraction(350),
    count=2,
    score=Fraction(4),
    place="2-3",
    code="MM",
    ours=Fraction(27, 2),
    theirs=Fraction(11),
    text="coin flip, seed abc: drew 5 against 3",
)


@pytest.mark.parametrize("kind", list(AwardWhy))
def test_every_kind_is_worded_from_its_values(kind: AwardWhy) -> None:
    text = award_note_text(AwardNote(**{**_fields(FULL), "kind": kind}), "$")
    assert text != kind.value and "None" not in text and text.endswith(".")


@pytest.mark.parametrize("kind", list(AwardWhy))
def test_every_kind_is_data_in_json(kind: AwardWhy) -> None:
    data = award_note_data(AwardNote(**{**_fields(FULL), "kind": kind}))
    assert data["kind"] == kind.value
    assert json.loads(json.dumps(data))["items"][0] == {
        "prize": "2nd",
        "amount": {"num": 200, "den": 1},
        "players": ["Ann"],
        "score": {"num": 4, "den": 1},
    }


def _fields(note: AwardNote) -> dict[str, object]:
    return {name: getattr(note, name) for name in AwardNote.__slots__}  # type: ignore[attr-defined]


def test_the_worked_examples_cap_is_said_in_words() -> None:
    prizes = 'currency = "$"\n' + CAP.format(method="us-chess")
    text = award_text(awards(FIELD, prizes).award(3))
    first = "2495: $536 (1st U2400, 2nd U2400, 3rd and 4th pooled); no trophy."
    assert text.splitlines()[0] == first
    assert (
        "No more than the largest prize you could win if there were no tie, 3rd ($536), "
        "rather than the $746.75 share (US Chess 32B3)." in text
    )
    assert "$1,379 (1st U2400, brought by 2391)" in text


def test_markdown_escapes_names_in_every_sentence() -> None:
    field = [Entry("**Ann**", 4), Entry("<@1>", 4)]
    result = awards(field, '[[prize]]\nname = "_1st_"\nplace = 1\namount = 10\n')
    text = award_markdown(result.award(1))
    assert r"\*\*Ann\*\*" in text and r"\<\@1\>" in text and r"\_1st\_" in text
