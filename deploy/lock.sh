#!/usr/bin/env bash
# Writes the lock files: every package Harkness installs, its dependencies' dependencies
# included, pinned to one version and to the sha256 of each of that version's files on PyPI,
# so that `pip install --require-hashes -r FILE` installs exactly these and nothing else.
#
#   deploy/requirements-test.lock   pyproject's [test] extra: what CI installs (.ci/run)
#   deploy/requirements.lock        [bot,sheets,images,pairing]: what the image
#                                   (deploy/bot.Dockerfile) and the systemd recipe install
#
# The second is resolved under the first as constraints, so a package in both has the same
# version and hashes in both (tests/deploy/test_lock.py checks, and checks that every
# requirement in pyproject.toml has a pin in the lock that satisfies it).
#
#   deploy/lock.sh                              keep every pin that still fits pyproject.toml
#   deploy/lock.sh --upgrade                    the newest versions of everything
#   deploy/lock.sh --upgrade-package aiohttp    the newest aiohttp, the rest kept
#
# Resolved for CPython 3.11 on Linux x86_64 (glibc 2.28 or newer), what CI and the image
# run. The hashes cover every file of each pinned version, so the locks install elsewhere
# too where the resolution would be the same; for another Python or platform write separate
# locks, e.g. LOCK_PYTHON=3.12 LOCK_PLATFORM=aarch64-manylinux_2_28 LOCK_DIR=/tmp/locks
# deploy/lock.sh (LOCK_PLATFORM takes uv's --python-platform names).
#
# uv (pinned below) resolves, from a throw-away virtual environment; needs python3 and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

uv_version=0.13.9
python_version=${LOCK_PYTHON:-3.11}
platform=${LOCK_PLATFORM:-x86_64-manylinux_2_28}
out=${LOCK_DIR:-deploy}
mkdir -p "$out"

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install --quiet "uv==$uv_version"

compile() {  # compile OUTPUT [uv pip compile options...]
  local output=$1
  shift
  "$tools/bin/uv" pip compile pyproject.toml --quiet --generate-hashes \
    --python-version "$python_version" --python-platform "$platform" \
    --custom-compile-command "deploy/lock.sh (CPython $python_version, $platform)" \
    --output-file "$output" "$@"
}

compile "$out/requirements-test.lock" --extra test "$@"
compile "$out/requirements.lock" --extra bot --extra sheets --extra images --extra pairing \
  --constraint "$out/requirements-test.lock"
echo "wrote $out/requirements-test.lock and $out/requirements.lock"
