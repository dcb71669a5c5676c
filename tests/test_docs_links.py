"""Every relative link in the project's Markdown resolves: the file (or folder) it names
exists, and a ``#anchor`` names a heading of that file, as GitHub makes them (lowercase,
punctuation other than ``-`` and ``_`` dropped, spaces to ``-``, ``-1``, ``-2`` … for a
heading repeated). Links to other sites are not followed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Folders that are not the project's text: tools' output, virtual environments, caches.
SKIPPED = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__"}
SKIPPED_SUFFIXES = (".egg-info", "_cache")

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def _markdown_files() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*.md")):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED or p.endswith(SKIPPED_SUFFIXES) for p in parts[:-1]):
            continue
        found.append(path)
    return found


def _prose(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with code spans blanked."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)))
    return lines


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it.

    >>> slug("Security: the add-on's endpoint (`harkness-sheets serve`)")
    'security-the-add-ons-endpoint-harkness-sheets-serve'
    >>> slug("Awards: `harkness awards`")
    'awards-harkness-awards'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings."""
    seen: dict[str, int] = {}
    found = set()
    text = path.read_text(encoding="utf-8")
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``path`` that names no file, or no heading of its file."""
    broken = []
    name = path.relative_to(root).as_posix()
    for number, line in _prose(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if EXTERNAL.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                broken.append(f"{name}:{number}: {target}: no such file")
            elif not linked.is_relative_to(root):
                broken.append(f"{name}:{number}: {target}: outside the repository")
            elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
                broken.append(f"{name}:{number}: {target}: no heading #{anchor}")
    return broken


def test_the_walk_finds_the_project_docs() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _markdown_files()}
    assert {"README.md", "core/README.md", "bot/README.md", "sheets/README.md"} <= names
    assert {"deploy/README.md", "docs/ARCHITECTURE.md"} <= names


def test_every_relative_link_and_anchor_resolves() -> None:
    broken = [b for path in _markdown_files() for b in broken_links(path)]
    assert not broken, "\n".join(broken)


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    # The check itself can fail: a missing file, a missing heading and a link out of the
    # repository are reported; a link in code is not a link.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A: the `first` heading\n\n## Again\n## Again\n")
    page = tmp_path / "README.md"
    page.write_text(
        "[ok](docs/a.md#a-the-first-heading) [ok](docs/a.md#again-1) [ok](#top) [ok](docs/)\n"
        "# Top\n"
        "[bad](docs/a.md#again-2) [bad](missing.md) [bad](../outside.md) `[code](missing.md)`\n"
        "```\n[fenced](missing.md)\n```\n"
    )
    (tmp_path.parent / "outside.md").write_text("outside\n")
    broken = broken_links(page, tmp_path)
    assert [b.split(": ", 1)[0] for b in broken] == ["README.md:3"] * 3, broken
