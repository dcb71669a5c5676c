"""The images deploy/ builds and runs: each base image an exact release (and its digest once
deploy/pin-images.sh has written it), and the bot's image installing the lock, every file
checked against its hash, then Harkness alone."""

from __future__ import annotations

import re
import shlex
import subprocess

import yaml

from tests.bot.test_deploy import DEPLOY, _dockerfile

# How many parts an exact release's version has, for each image deploy/ uses: PostgreSQL
# numbers its releases major.minor. A new image joins this list on purpose.
RELEASE_PARTS = {"python": 3, "postgres": 2, "caddy": 3, "prom/prometheus": 3}
REFERENCE = re.compile(
    r"(?P<name>[a-z0-9/._-]+):(?P<tag>v?(?P<version>\d+(?:\.\d+)*)(?:-[a-z]+)*)"
    r"(?:@sha256:[0-9a-f]{64})?"
)


def _images() -> list[str]:
    """Every FROM of the bot's Dockerfile and every image of the compose files but the one
    they build (harkness-bot)."""
    images = [rest.split()[0] for keyword, rest in _dockerfile() if keyword == "FROM"]
    for name in ("compose.yaml", "compose.scale.yaml"):
        for service in yaml.safe_load((DEPLOY / name).read_text())["services"].values():
            if "image" in service and "build" not in service:
                images.append(service["image"])
    return images


def test_every_base_image_is_an_exact_release() -> None:
    images = _images()
    assert len(images) == 5  # two FROMs, postgres, caddy, prometheus
    for image in images:
        match = REFERENCE.fullmatch(image)
        assert match, f"{image}: name:version-tag (then @sha256:…)"
        parts = RELEASE_PARTS[match["name"]]
        assert len(match["version"].split(".")) == parts, f"{image}: not one exact release"
    froms = [rest.split()[0] for keyword, rest in _dockerfile() if keyword == "FROM"]
    assert len(set(froms)) == 1  # the wheel is built on the Python it runs on


def test_pin_images_finds_every_base_image() -> None:
    """deploy/pin-images.sh (which writes the digests; it needs Docker Hub) pins the same
    images these tests check, each by its tag."""
    listed = subprocess.run(
        ["bash", str(DEPLOY / "pin-images.sh"), "--list"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout.split()
    assert sorted(listed) == sorted({image.split("@")[0] for image in _images()})


def test_the_image_installs_the_lock_with_hashes_then_harkness_alone() -> None:
    instructions = _dockerfile()
    runs = [shlex.split(rest) for keyword, rest in instructions if keyword == "RUN"]
    (wheel,) = [run for run in runs if run[:2] == ["pip", "wheel"]]
    assert "--no-deps" in wheel and wheel[-1] == "."  # Harkness alone, not its dependencies
    installs = [run for run in runs if run[:2] == ["pip", "install"]]
    assert len(installs) == 2
    lock, harkness = installs
    copied = ("COPY", "deploy/requirements.lock /tmp/requirements.lock")
    assert copied in instructions
    assert lock[lock.index("-r") + 1] == "/tmp/requirements.lock"
    assert "--require-hashes" in lock
    assert "--no-deps" in harkness and "/wheels/*.whl" in harkness
