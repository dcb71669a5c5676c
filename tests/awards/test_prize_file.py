"""The prize file (TOML) is input like any other: read whole or not at all, every problem
coded and located at its line and key, the limits checked first."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from core.awards import Kind, Method, read_prize_fields, read_prize_file, read_prizes
from core.awards.check import section_problems
from core.examples import example_path, load_example
from core.limits import MAX_PRIZE_FILE_BYTES, MAX_PRIZES
from core.problems import HarknessError, Problem


def problems(text: str) -> list[Problem]:
    with pytest.raises(HarknessError) as raised:
        read_prizes(text, "p.toml")
    return list(raised.value.problems)


def test_the_example_prize_file_reads_every_kind_of_entry() -> None:
    prizes = read_prize_file(example_path("club-swiss-prizes.toml"))
    assert prizes.method is Method.US_CHESS and prizes.currency == "$"
    kinds = [p.kind for p in prizes.prizes]
    assert kinds == [Kind.PLACE] * 3 + [Kind.UNDER] * 2 + [Kind.UNRATED, Kind.CATEGORY, Kind.PLACE]
    second_u1800 = prizes.prizes[4]
    assert (second_u1800.high, second_u1800.rank, second_u1800.trophy) == (1800, 2, False)
    assert prizes.prizes[-1].team and prizes.prizes[-1].amount is None
    assert prizes.categories == {"junior": (9, 12)}
    assert prizes.teams["Bishops"] == (8,)


def test_every_top_level_setting() -> None:
    prizes = read_prizes(
        'method = "fide-hort"\ncurrency = "EUR"\ntrophy_follows_money = true\n'
        "playoff = [5, 3]\n[limits]\n7 = 50.5\n9 = 0\n[teams]\nA = [1, 2]\n"
        '[team]\ncount = 3\nplayoff = ["a"]\n'
    )
    assert prizes.method is Method.FIDE_HORT and prizes.trophy_follows_money
    assert prizes.playoff == (5, 3) and prizes.limits == {7: Fraction(101, 2), 9: 0}
    assert (prizes.team_count, prizes.team_playoff) == (3, ("A",))


def test_a_file_with_only_teams_is_valid() -> None:
    prizes = read_prizes("[teams]\nLincoln = [1, 2, 3]\n")
    assert prizes.prizes == () and prizes.teams == {"Lincoln": (1, 2, 3)}


def test_toml_that_does_not_parse_is_located_at_its_line_and_column() -> None:
    (problem,) = problems('method = "us-chess"\n[[prize]]\nname = "1st\nplace = 1\n')
    assert (problem.code, problem.path, problem.line) == ("bad-toml", "p.toml", 3)
    assert problem.column is not None and "TOML" in problem.message


def test_unknown_keys_are_refused_with_the_nearest_known_one() -> None:
    found = problems(
        'metod = "us-chess"\n[[prize]]\nname = "1st"\nplace = 1\nammount = 5\n[team]\ncuont = 3\n'
    )
    assert [(p.code, p.field, p.line) for p in found] == [
        ("unknown-key", "metod", 1),
        ("unknown-key", "ammount", 5),
        ("missing-key", "amount", 2),
        ("unknown-key", "cuont", 7),
    ]
    assert [p.detail for p in found if p.code == "unknown-key"] == [
        "unknown key 'metod'; did you mean 'method'?",
        "unknown key 'ammount'; did you mean 'amount'?",
        "unknown key 'cuont'; did you mean 'count'?",
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('amount = "$300"', "amount must be a number above 0"),
        ("amount = 0.005", "in cents (2 decimals at most)"),
        ("amount = -5", "amount must be a number above 0"),
        ("amount = true", "amount must be a number above 0"),
        ("amount = 1e12", "at most 1,000,000,000"),
        ("amount = nan", "amount must be a number above 0"),
        ('trophy = "yes"', "trophy must be true or false"),
    ],
)
def test_a_bad_value_says_what_was_expected_at_its_line(line: str, expected: str) -> None:
    text = f'[[prize]]\nname = "1st"\nplace = 1\n{line}\n'
    found = [p for p in problems(text) if p.code == "bad-prize-value"]
    assert len(found) == 1 and found[0].line == 4
    assert expected in found[0].message and found[0].field == line.split(" ")[0]


def test_a_prize_has_exactly_one_kind() -> None:
    none, two = problems(
        '[[prize]]\nname = "A"\namount = 5\n[[prize]]\nname = "B"\nplace = 2\nunrated = true\n'
        "amount = 5\n"
    )
    assert (none.code, none.line, two.code, two.line) == ("prize-kind", 1, "prize-kind", 4)
    assert "place and unrated" in two.message


def test_keys_that_only_go_together_and_ratings_in_range() -> None:
    found = problems(
        '[[prize]]\nname = "A"\nplace = 1\nrank = 2\namount = 5\n'
        '[[prize]]\nname = "B"\nfrom = 1500\namount = 5\ncategory = "x"\n'
        '[[prize]]\nname = "C"\nunder = 1500\nfrom = 1600\namount = 5\n'
        '[[prize]]\nname = "D"\nclass = [1999, 1800]\namount = 5\n'
        '[[prize]]\nname = "E"\nunrated = false\namount = 5\n'
    )
    assert [(p.field, p.line) for p in found] == [
        ("rank", 4),
        ("from", 8),
        ("from", 14),
        ("class", 18),
        ("unrated", 22),
    ]


def test_the_same_prize_twice_is_refused() -> None:
    found = problems(
        '[[prize]]\nname = "1st"\nplace = 1\namount = 5\n'
        '[[prize]]\nname = "1ST"\nplace = 2\namount = 5\n'
        '[[prize]]\nname = "Other"\nplace = 1\namount = 5\n'
        '[[prize]]\nname = "U1"\nunder = 1800\namount = 5\n'
        '[[prize]]\nname = "U2"\nunder = 1800\namount = 5\n'
    )
    assert [(p.code, p.field, p.line) for p in found] == [
        ("prize-twice", "name", 6),
        ("prize-twice", "place", 11),
        ("prize-twice", "rank", 17),
    ]


def test_an_unknown_method_or_category_gets_a_suggestion() -> None:
    found = problems(
        'method = "us-chess-2013"\n[[prize]]\nname = "Y"\ncategory = "yuoth"\namount = 5\n'
        "[categories]\nyouth = [1]\n"
    )
    assert [(p.code, p.line) for p in found] == [("unknown-method", 1), ("unknown-category", 4)]
    assert "did you mean 'us-chess-2003'?" in found[0].message
    assert "did you mean 'youth'?" in found[1].message


def test_a_category_is_named_as_the_categories_table_spells_it() -> None:
    prizes = read_prizes(
        '[[prize]]\nname = "Y"\ncategory = "YOUTH"\namount = 5\n[categories]\nYouth = [1]\n'
    )
    assert prizes.prizes[0].category == "Youth"


def test_lists_of_starting_numbers_and_limits_are_checked() -> None:
    found = problems(
        'playoff = [1, "2"]\n[categories]\nyouth = [1, 1]\n[limits]\nseven = 5\n8 = -1\n'
        "[teams]\nA = 3\n"
    )
    assert [(p.field, p.line) for p in found] == [
        ("playoff", 1),
        ("youth", 3),
        ("seven", 5),
        ("8", 6),
        ("A", 8),
    ]


def test_the_number_of_prizes_is_checked_before_any_prize_is_read() -> None:
    text = "[[prize]]\nname = 5\n" * (MAX_PRIZES + 1)
    (problem,) = problems(text)
    assert problem.code == "too-many-prizes" and problem.value == str(MAX_PRIZES + 1)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * MAX_PRIZE_FILE_BYTES)
    with pytest.raises(HarknessError) as raised:
        read_prize_file(big)
    (problem,) = raised.value.problems
    assert (problem.code, problem.path, problem.line) == ("file-too-large", str(big), 1)


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(HarknessError) as raised:
        read_prize_file(tmp_path / "none.toml")
    assert raised.value.problems[0].code == "cannot-read"


def test_one_prize_from_fields_as_a_bot_command_would_give_them() -> None:
    prize, found = read_prize_fields({"name": "Top senior", "category": "senior", "trophy": True})
    assert found == [] and prize is not None and prize.amount is None and prize.trophy
    _, found = read_prize_fields({"name": "x", "place": 0, "amount": 5}, where="your prize")
    assert (
        found[0].message == "your prize ('x'): place must be a whole number from 1 to 9,999, got 0"
    )
    assert found[0].detail == "place must be a whole number from 1 to 9,999, got 0"


def test_numbers_the_section_does_not_have_and_players_in_two_teams() -> None:
    prizes = read_prizes(
        "playoff = [11]\n[limits]\n12 = 5\n[categories]\nyouth = [2, 40]\n"
        "[teams]\nA = [1, 2]\nB = [2, 3]\n",
        "p.toml",
    )
    found = section_problems(prizes, load_example())
    assert [(p.code, p.field, p.value, p.line) for p in found] == [
        ("not-in-section", "categories", "40", 5),
        ("not-in-section", "limits", "12", 3),
        ("not-in-section", "playoff", "11", 1),
        ("in-two-teams", "teams", "B", 8),
    ]
    assert found[-1].player == 2


def test_the_awards_api_is_importable_by_its_names() -> None:
    import core.awards

    assert all(getattr(core.awards, name) for name in core.awards.__all__)
    with pytest.raises(AttributeError):
        core.awards.nothing  # noqa: B018
