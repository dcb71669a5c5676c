"""Fuzzing the ``harkness`` command: TRF-16, crosstable text and CSV inputs, mutated as a
careless or hostile user would (digits that are not ASCII, numbers of thousands of digits,
long runs of blanks, cells glued or split, lines repeated, cut or swapped, other encodings).

Whatever the input, the command exits 0 or 2, never with a traceback; every error names its
place (file:line[:column], or the player and round); a failed ``convert`` leaves no file;
and what ``convert`` writes reads back to the same standings. The examples are drawn with a
fixed seed (derandomized) and kept few, so the test is the same and quick on every run; the
command runs in-process, with a few runs as a separate process for the real exit status.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli import main
from core.examples import example_path
from core.formats.crosstable import write_crosstable
from core.formats.trf import read_trf

SEED_TRF = Path(example_path("club-swiss.trf")).read_text(encoding="utf-8")
SEED_TEXT = Path(example_path("mdchess-scholastic.txt")).read_text(encoding="utf-8")
SEED_CSV = write_crosstable(read_trf(SEED_TRF), None, ",")
SEEDS = {"trf": SEED_TRF, "txt": SEED_TEXT, "csv": SEED_CSV}

#: A problem printed by the command: where (file:line[:column], and/or player and round),
#: then what.
LOCATED = re.compile(
    r"harkness: (?:\S.*?:\d+(?::\d+)?(?: player \d+(?:, round \d+)?)?"
    r"|\S.*? player \d+(?:, round \d+)?): \S"
)

#: Pieces a user (or an attacker) might type: digits that are not ASCII, separators,
#: quotes, result letters, byte-order marks, and long runs of digits and blanks.
PIECES = st.one_of(
    st.sampled_from(
        [
            "²",
            "³",
            "٣",
            "１",
            ",",
            "\t",
            "  ",
            " ",
            '"',
            '""',
            "\r",
            "\n",
            "\ufeff",
            "½",
            "=",
            "W",
            "D",
            "L",
            "X",
            "F",
            "B",
            "H",
            "U",
            "Z",
            "-",
            "+",
            "(w)",
            "(b)",
            "0000",
            "9999",
            "Rd ",
            "XXR ",
            "001 ",
            "#",
            "Name",
            "Rating",
            "\x00",
            "\u2028",
            "é",
        ]
    ),
    st.text(max_size=8),
    st.builds(
        lambda c, n: c * n,
        st.sampled_from(["1", " ", "9", "a", ","]),
        st.sampled_from([50, 300, 5000]),
    ),
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str, str]:
    """(kind, text, encoding): a seed file with a few edits."""
    kind = draw(st.sampled_from(sorted(SEEDS)))
    lines = SEEDS[kind].splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["insert", "replace", "delete", "repeat", "swap", "cut"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        if edit == "insert":
            lines[i] = line[:at] + draw(PIECES) + line[at:]
        elif edit == "replace":
            lines[i] = line[:at] + draw(PIECES) + line[at + draw(st.integers(1, 6)) :]
        elif edit == "delete":
            lines[i] = line[:at] + line[at + draw(st.integers(1, 12)) :]
        elif edit == "repeat":
            lines.insert(i, line)
        elif edit == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], line
        elif len(lines) > 1:
            del lines[i]
    encoding = draw(st.sampled_from(["utf-8"] * 6 + ["utf-16", "latin-1"]))
    return kind, "".join(lines), encoding


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def assert_located(status: int, err: str) -> None:
    assert status in (0, 2)
    if status == 2:
        lines = err.splitlines()
        assert lines, "exit 2 without saying why"
        for line in lines:
            assert LOCATED.match(line), f"not located: {line!r}"


def standings_of(path: Path) -> list[tuple[int, str, object, object]]:
    """Every row of the standings: place, score and every tiebreak value."""
    status, out, err = run("standings", str(path), "--format", "json")
    assert status == 0, f"{path.name} was written but does not read back:\n{err}"
    return [
        (row["id"], row["place"], row["score"], row["tiebreaks"])
        for row in json.loads(out)["standings"]
    ]


@settings(
    max_examples=120,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated(), st.sampled_from(["out.trf", "out.csv", "out.txt"]))
def test_any_mutated_input_gets_a_result_or_located_errors(
    case: tuple[str, str, str], target_name: str
) -> None:
    kind, text, encoding = case
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / f"in.{kind}"
        source.write_bytes(text.encode(encoding, "replace"))
        status, _, err = run("standings", str(source))
        assert_located(status, err)
        target = Path(folder) / target_name
        status, _, err = run("convert", str(source), str(target))
        assert_located(status, err)
        if status != 0:
            assert sorted(p.name for p in Path(folder).iterdir()) == [source.name]
            return
        assert standings_of(target) == standings_of(source)


def test_the_command_as_a_process_exits_2_without_a_traceback(tmp_path: Path) -> None:
    cases = {
        "digits.txt": "#  Name  Rd 1\n1²  Ann  B\n",
        "huge.csv": "#,Name,Rd 1\n1,Ann,W" + "1" * 5000 + "\n",
        "field.csv": '#,Name,Rd 1\n1,"' + "a" * 140_000 + '",B\n',
        "xxr.trf": "XXR " + "9" * 5000 + "\n" + SEED_TRF.split("XXR 5\n")[1],
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "core", "standings", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
        assert_located(done.returncode, done.stderr)
