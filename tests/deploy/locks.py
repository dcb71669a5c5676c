"""The lock files (deploy/requirements*.lock, written by deploy/lock.sh) read the way
`pip install --require-hashes -r` reads them, and held against pyproject.toml and against
what is installed.

`python -m tests.deploy.locks LOCK` exits 1, naming each difference, unless the installed
packages are exactly LOCK's (.ci/run runs it after installing the lock and the tests)."""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).parents[2]
PROJECT = canonicalize_name("harkness")

# What CI and the image run, the platform deploy/lock.sh resolves for: markers in
# pyproject.toml are evaluated as there.
TARGET = {
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
}


@dataclass(frozen=True)
class Pin:
    """One entry of a lock: ``name==version`` and the sha256 of each file pip may take."""

    name: NormalizedName
    version: Version
    hashes: frozenset[str]


def read(path: Path) -> dict[NormalizedName, Pin]:
    """The pins of a lock file, by name. Anything pip would not install under
    ``--require-hashes`` (a range, a pin without a hash, a local path, an option line) is a
    ValueError naming the file and the line."""
    pins: dict[NormalizedName, Pin] = {}
    lines = path.read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    for number, line in enumerate(lines, start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path.name}, line {number}"
        if words[0].startswith("-"):
            raise ValueError(f"{where}: an option, not a pin: {words[0]}")
        requirement = Requirement(words[0])
        specifiers = list(requirement.specifier)
        if requirement.url or len(specifiers) != 1 or specifiers[0].operator != "==":
            raise ValueError(f"{where}: {words[0]} is not pinned to one version with ==")
        hashes = [word.removeprefix("--hash=sha256:") for word in words[1:]]
        if not hashes or any(len(h) != 64 or h.strip("0123456789abcdef") for h in hashes):
            raise ValueError(f"{where}: {words[0]} needs --hash=sha256:… for each file")
        name = canonicalize_name(requirement.name)
        if name in pins:
            raise ValueError(f"{where}: {name} is pinned twice")
        pins[name] = Pin(name, Version(specifiers[0].version), frozenset(hashes))
    return pins


def requirements(
    extras: Collection[str], pyproject: Path = ROOT / "pyproject.toml"
) -> list[Requirement]:
    """Harkness's own requirements with these extras, for the target platform: the
    extras' references to ``harkness[…]`` followed, markers that do not hold there dropped.

    >>> sorted(r.name for r in requirements(["pairing"]))
    ['gacrux', 'networkx', 'py4swiss', 'rich']
    """
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional: Mapping[str, list[str]] = project["optional-dependencies"]
    found: list[Requirement] = []
    todo, done = [("", text) for text in project["dependencies"]], set(extras)
    todo += [(extra, text) for extra in extras for text in optional[extra]]
    while todo:
        extra, text = todo.pop(0)
        requirement = Requirement(text)
        if requirement.marker and not requirement.marker.evaluate({**TARGET, "extra": extra}):
            continue
        if canonicalize_name(requirement.name) != PROJECT:
            found.append(requirement)
            continue
        for more in sorted(requirement.extras - done):
            done.add(more)
            todo += [(more, t) for t in optional[more]]
    return found


def unmet(wanted: Iterable[Requirement], pins: Mapping[NormalizedName, Pin]) -> list[str]:
    """Each requirement the lock has no pin for, or pins outside its specifier."""
    problems = []
    for requirement in wanted:
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(f"{requirement}: not in the lock")
        elif not requirement.specifier.contains(pin.version, prereleases=True):
            problems.append(f"{requirement}: the lock has {pin.version}")
    return problems


def installed_differences(pins: Mapping[NormalizedName, Pin]) -> list[str]:
    """Each package installed here at another version than the lock's, or missing, or not
    in the lock (Harkness itself, and pip's own tools unless the lock has them, aside)."""
    aside = {PROJECT} | ({"pip", "setuptools", "wheel"} - set(pins))
    installed = {
        name: Version(d.version)
        for d in distributions()
        if (name := canonicalize_name(d.metadata["Name"])) not in aside
    }
    locked = {name: pin.version for name, pin in pins.items()}
    return [
        f"{name}: installed {installed.get(name)}, locked {locked.get(name)}"
        for name in sorted(installed.keys() | locked.keys())
        if installed.get(name) != locked.get(name)
    ]


if __name__ == "__main__":
    (lock,) = sys.argv[1:]
    differences = installed_differences(read(Path(lock)))
    for line in differences:
        print(line, file=sys.stderr)
    if differences:
        sys.exit(f"the installed packages are not {lock}'s: see deploy/lock.sh")
    print(f"installed: exactly {lock}")
