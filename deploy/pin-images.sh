#!/usr/bin/env bash
# Pins each base image of deploy/ (bot.Dockerfile's FROM lines, the `image:` lines of the
# compose files) to a digest: asks Docker Hub what the exact tag names now (the digest of
# its multi-platform index, as `docker pull` records it) and writes `name:tag@sha256:…` in
# place of `name:tag`, or of an older digest after it. Review the diff and commit it; run it
# again after moving a tag to a newer release.
#
#   deploy/pin-images.sh          resolve and write every digest (needs curl, python3 and
#                                 Docker Hub)
#   deploy/pin-images.sh --list   print the images it pins, name:tag one a line, and stop
#
# The same with Docker itself, one image at a time:
#   docker buildx imagetools inspect python:3.11.17-slim-trixie   (its "Digest:" line)
set -euo pipefail
cd "$(dirname "$0")"

files=(bot.Dockerfile compose.yaml compose.scale.yaml)
# name:tag of each FROM and image: line (the locally built harkness-bot has no tag).
images=$(grep -hoE '^[[:space:]]*(FROM|image:)[[:space:]]+[^[:space:]]+:[^[:space:]]+' "${files[@]}" \
  | awk '{print $2}' | sed 's/@sha256:.*//' | sort -u)

if [[ ${1:-} == --list ]]; then
  echo "$images"
  exit 0
fi

digest() {  # name:tag -> sha256:… of the manifest (index) the tag names on Docker Hub
  local name=${1%%:*} tag=${1#*:} token
  [[ $name == */* ]] || name=library/$name
  token=$(curl -fsS "https://auth.docker.io/token?service=registry.docker.io&scope=repository:$name:pull" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  curl -fsS --head \
    -H "Authorization: Bearer $token" \
    -H "Accept: application/vnd.oci.image.index.v1+json" \
    -H "Accept: application/vnd.docker.distribution.manifest.list.v2+json" \
    -H "Accept: application/vnd.oci.image.manifest.v1+json" \
    -H "Accept: application/vnd.docker.distribution.manifest.v2+json" \
    "https://registry-1.docker.io/v2/$name/manifests/$tag" \
    | tr -d '\r' | awk 'tolower($1) == "docker-content-digest:" {print $2}'
}

for image in $images; do
  sha=$(digest "$image")
  [[ $sha =~ ^sha256:[0-9a-f]{64}$ ]] || { echo "no digest for $image: '$sha'" >&2; exit 1; }
  echo "$image@$sha"
  # name:tag, with or without an older digest, as a whole word: becomes name:tag@sha.
  python3 - "$image" "$sha" "${files[@]}" <<'PY'
import re
import sys
from pathlib import Path

image, sha, *files = sys.argv[1:]
pattern = re.compile(rf"(?<=\s){re.escape(image)}(@sha256:[0-9a-f]{{64}})?(?=\s|$)", re.M)
for name in files:
    path = Path(name)
    path.write_text(pattern.sub(f"{image}@{sha}", path.read_text()))
PY
done
