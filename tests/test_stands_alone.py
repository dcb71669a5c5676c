"""The repository stands alone: its code, docs and tests cite the rulebooks (US Chess rule
numbers, FIDE C.07 articles) and its own files, never notes kept outside it (a rules file
beside the checkout, a tracker's issue numbers, a seed's number). Only the tests that use the
optional files beside the checkout name where those live (``tests/shared_data.py``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Folders that are not the project's text: tools' output, virtual environments, caches.
SKIPPED = {".git", ".venv", "venv", "build", "dist", "node_modules", "__pycache__", ".mypy_cache"}
SKIPPED_SUFFIXES = (".egg-info", "_cache")
TEXT = {".py", ".md", ".toml", ".yaml", ".yml", ".cfg", ".ini", ".txt", ".js", ".json", ".sh"}
TEXT |= {".service", ".Dockerfile", ".example", ".html", ".gs"}

#: Built from pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            r"\bRULES" + r"\.md\b",
            r"\b[Ii]ssue" + r" \d+",
            r"\bseed" + r"[ -]0\d\d\b",
        ]
    )
)
SHARED = re.compile(r"\.\./" + r"shared\b")
#: The tests that run against the optional files beside the checkout, and say where.
NAMES_SHARED = {"tests/shared_data.py", "tests/test_real_files.py", "tests/test_fide_exercises.py"}


def _files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED or p.endswith(SKIPPED_SUFFIXES) for p in parts[:-1]):
            continue
        if path.is_file() and (path.suffix in TEXT or path.name in {"run", "Caddyfile"}):
            found.append(path)
    return found


def test_no_file_cites_notes_kept_outside_the_repository() -> None:
    files = _files()
    assert any(p.name == "README.md" for p in files)  # the walk found the project
    cited = []
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line) or (SHARED.search(line) and name not in NAMES_SHARED):
                cited.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not cited, "\n".join(cited)
