"""One resolved, hash-checked set of versions: deploy/requirements-test.lock is what CI
installs and tests, deploy/requirements.lock (the same versions) what the image and the
systemd recipe install; both are written by deploy/lock.sh and must keep up with
pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.deploy.locks import ROOT, read, requirements, unmet

TEST_LOCK = ROOT / "deploy" / "requirements-test.lock"
IMAGE_LOCK = ROOT / "deploy" / "requirements.lock"
# The extras each lock is resolved for (deploy/lock.sh says the same).
PROFILES = [(TEST_LOCK, ["test"]), (IMAGE_LOCK, ["bot", "sheets", "images", "pairing"])]


@pytest.mark.parametrize(("lock", "extras"), PROFILES, ids=["test", "image"])
def test_every_requirement_in_pyproject_has_a_pin_in_the_lock_that_satisfies_it(
    lock: Path, extras: list[str]
) -> None:
    wanted = requirements(extras)
    assert len(wanted) > 10  # the extras were followed, harkness[…] inside them too
    assert unmet(wanted, read(lock)) == [], "pyproject.toml moved: run deploy/lock.sh"


def test_the_image_lock_has_the_test_lock_s_versions_and_hashes() -> None:
    tested, shipped = read(TEST_LOCK), read(IMAGE_LOCK)
    assert shipped.items() <= tested.items(), "run deploy/lock.sh"
    assert "pytest" in tested and "pytest" not in shipped  # the image carries no test tools


@pytest.mark.parametrize("lock", [TEST_LOCK, IMAGE_LOCK], ids=["test", "image"])
def test_the_lock_says_how_it_was_made_and_leaves_harkness_out(lock: Path) -> None:
    # Harkness itself is installed from the checkout, after the lock: pip refuses a local
    # path under --require-hashes.
    assert "harkness" not in read(lock)
    header = lock.read_text(encoding="utf-8").splitlines()[:2]
    assert header[1] == "#    deploy/lock.sh (CPython 3.11, x86_64-manylinux_2_28)"
    assert (ROOT / "deploy" / "lock.sh").stat().st_mode & 0o111  # executable


def test_a_requirement_outside_the_lock_is_reported(tmp_path: Path) -> None:
    lock = tmp_path / "requirements.lock"
    lock.write_text(f"rich==13.7.0 \\\n    --hash=sha256:{'0' * 64}\n    # via harkness\n")
    pins = read(lock)
    assert unmet([Requirement("rich>=13.7")], pins) == []
    assert unmet([Requirement("rich>=14")], pins) == ["rich>=14: the lock has 13.7.0"]
    assert unmet([Requirement("networkx==3.6.1")], pins) == ["networkx==3.6.1: not in the lock"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("rich>=13.7 \\\n    --hash=sha256:" + "0" * 64, "not pinned to one version"),
        ("rich==13.7.0\n", "needs --hash=sha256"),
        ("rich==13.7.0 --hash=sha256:abc\n", "needs --hash=sha256"),
        ("-e .\n", "an option, not a pin"),
        ("harkness @ file:///src --hash=sha256:" + "0" * 64, "not pinned to one version"),
    ],
)
def test_a_lock_that_pip_would_refuse_under_require_hashes_is_refused(
    tmp_path: Path, text: str, problem: str
) -> None:
    lock = tmp_path / "requirements.lock"
    lock.write_text("# a comment\n" + text)
    with pytest.raises(ValueError, match=f"requirements.lock, line 2: .*{problem}"):
        read(lock)


def test_ci_installs_the_lock_with_hashes_before_the_readme_s_command() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    lock = "pip install --quiet --require-hashes -r deploy/requirements-test.lock"
    readme = next(i for i, line in enumerate(lines) if line.startswith('bash -c "$test_command"'))
    assert lines.index(lock) < readme
    # and afterwards checks that what the tests ran on is exactly the lock
    check = "python -m tests.deploy.locks deploy/requirements-test.lock"
    assert lines.index(check) > readme
