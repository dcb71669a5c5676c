"""Every problem core raises carries a code from the one list (``core.problems.CODES``), so
that a front door decides by the code and the values, never by the English of the message.

Two checks: the source (every ``Problem(…)`` call in ``core/`` names its ``code=``, a known
one when written out; every listed code is used) and the known bad inputs of each reader,
validator and command (each problem they raise has a listed code, and the values a front
door needs)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.formats import read_text
from core.formats.crosstable import read_crosstable, write_crosstable
from core.formats.text import decode
from core.formats.trf import read_trf, write_trf
from core.model import EntryKind, Player, RoundEntry, Tournament
from core.pairing import prepare
from core.problems import CODES, HarknessError, Problem
from core.profiles import resolve_for

CORE = Path(__file__).resolve().parent.parent / "core"
#: Functions of core that make a Problem from a code given as an argument.
_MAKERS = {"Problem", "_order_problem", "problem"}


def _calls() -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in _MAKERS:
                    yield f"{path.relative_to(CORE.parent)}:{node.lineno}", node


def _code_argument(name: str, call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    if name == "_order_problem" and call.args:
        return call.args[0]
    return None


def test_every_problem_core_makes_names_a_listed_code() -> None:
    missing, unknown, used = [], [], set()
    for where, call in _calls():
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name == "problem" and not isinstance(func, ast.Attribute):
            continue
        code = _code_argument(name, call)
        if code is None:
            missing.append(where)
        elif isinstance(code, ast.Constant):
            if code.value not in CODES:
                unknown.append(f"{where}: {code.value!r}")
            used.add(code.value)
    assert not missing, f"Problem(…) without code=: {missing}"
    assert not unknown, f"codes not listed in core.problems.CODES: {unknown}"
    # Codes chosen at run time are string constants elsewhere in core (core/players.py).
    text = "\n".join(p.read_text(encoding="utf-8") for p in CORE.rglob("*.py"))
    unused = [c for c in CODES if c not in used and f'"{c}"' not in text.replace("CODES", "")]
    assert not unused, f"listed codes no problem carries: {unused}"


def test_the_listed_codes_are_kebab_case() -> None:
    assert all(c == c.lower() and " " not in c and "_" not in c for c in CODES)


def _problems(make: Callable[[], object]) -> tuple[Problem, ...]:
    with pytest.raises(HarknessError) as raised:
        make()
    assert raised.value.problems
    return raised.value.problems


UNCOLOURED = read_crosstable("#  Name  Rd 1\n1  Ann  W2\n2  Bob  L1")
BAD_CROSSTABLE = """#  Name  Rating  Rd 1  Rd 2
1  Ann  1800  W2 (w)  zz
1  Bob  abc  L1 (b)  H
x  Cy  1500  W9  H
"""


@pytest.mark.parametrize(
    ("make", "codes"),
    [
        (lambda: read_crosstable(""), ["empty-file"]),
        (
            lambda: read_crosstable("Name  Rd 2\nAnn  H"),
            ["missing-columns", "round-columns-out-of-order"],
        ),
        (
            lambda: read_crosstable(BAD_CROSSTABLE),
            ["bad-round-entry", "bad-rating", "bad-starting-number"],
        ),
        (lambda: read_crosstable("#  Name  Rd 1\n1  Ann  H\n1  Bob  H"), ["number-used-twice"]),
        (lambda: read_crosstable("#  Name  Rd 1\n1  Ann  W2\n2  Bob  W1"), ["sides-disagree"]),
        (lambda: decode(b"a\x00b", "x.txt"), ["not-text"]),
        (lambda: read_text("001 junk", "x.trf"), None),
        (lambda: resolve_for("", "nope"), ["unknown-profile"]),
        (lambda: resolve_for("", "uscf", "MM,MM,XYZ"), ["unknown-code", "code-twice"]),
        (
            lambda: Tournament(
                (
                    Player(1, "A", (RoundEntry(EntryKind.WIN, 2),)),
                    Player(2, "B", (RoundEntry(EntryKind.WIN, 1), RoundEntry(EntryKind.FULL_BYE))),
                ),
                1,
            ),
            None,
        ),
        (lambda: prepare(UNCOLOURED, 3, rounds=1), ["round-not-next", "beyond-planned-rounds"]),
        (lambda: prepare(UNCOLOURED, 2, rounds=3), ["no-colour"]),
        (lambda: write_trf(read_crosstable("#  Name\n12345  Ann")), None),
        (lambda: write_crosstable(read_trf("001    1      " + " " * 67 + "0.0")), None),
    ],
)
def test_the_known_bad_inputs_carry_listed_codes(
    make: Callable[[], object], codes: list[str] | None
) -> None:
    problems = _problems(make)
    assert all(p.code in CODES for p in problems), [(p.code, str(p)) for p in problems]
    if codes is not None:
        assert sorted({p.code or "" for p in problems}) == sorted(codes)


def test_a_cells_problem_names_its_column_and_the_text_found() -> None:
    problems = _problems(lambda: read_crosstable(BAD_CROSSTABLE, "club.txt"))
    entry = next(p for p in problems if p.code == "bad-round-entry")
    assert (entry.field, entry.value, entry.line, entry.player) == ("Rd 2", "zz", 2, None)
    # Messages are the command line's, unchanged.
    assert str(entry).startswith("club.txt:2:")
    rating = _problems(lambda: read_crosstable("#  Name  Rating  Rd 1\n1  Ann  abc  H"))
    assert [(p.code, p.field, p.value) for p in rating] == [("bad-rating", "Rating", "abc")]


def test_a_located_consistency_problem_keeps_its_code_and_other_player() -> None:
    (problem,) = _problems(lambda: read_crosstable("#  Name  Rd 1\n1  Ann  W2\n2  Bob  W1", "a"))
    assert (problem.code, problem.player, problem.round, problem.other) == (
        "sides-disagree",
        1,
        1,
        2,
    )
    assert (problem.path, problem.line) == ("a", 2)


#: Front doors that make a core Problem themselves (from a core answer).
ADAPTERS = (CORE.parent / "bot", CORE.parent / "sheets")


def test_every_problem_an_adapter_makes_names_a_listed_code() -> None:
    missing = []
    for root in ADAPTERS:
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                made = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                if made and node.func.id == "Problem" and _code_argument("Problem", node) is None:
                    missing.append(f"{path.relative_to(CORE.parent)}:{node.lineno}")
    assert not missing, f"Problem(…) without code=: {missing}"


def test_a_name_problem_names_its_code_field_and_value() -> None:
    from core.names import name_problem

    problem = name_problem("Bob\x07")
    assert problem is not None and problem.code in CODES
    assert (problem.code, problem.field, problem.value) == ("bad-name", "name", "'Bob\\x07'")
    assert problem.message == "a name cannot hold control characters (U+0007 at character 4)"
    assert name_problem("Carol") is None
