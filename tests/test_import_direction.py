"""The floors of the house: ``core`` <- ``sheets`` <- ``bot``. Core imports neither the bot
nor the Sheets worker; the Sheets worker never imports the bot. Every import counts: at the
top of a module, inside a function (a "lazy" import), under ``if TYPE_CHECKING:``, relative
(``from .. import``), and ``importlib.import_module("…")`` / ``__import__("…")`` of a name
written in the code. Modules are read with :mod:`ast`, never imported."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What each package may not import (a package not listed may import anything).
FORBIDDEN = {"core": ("bot", "sheets"), "sheets": ("bot",)}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Every module name ``tree`` imports, with its line: statements anywhere in the tree,
    relative ones resolved against ``module``, and ``import_module``/``__import__`` calls
    with a written name."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            anchor = ".".join(parts) if node.level else ""
            if node.module:
                yield node.lineno, f"{anchor}.{node.module}" if anchor else node.module
            else:  # "from .. import bot": the names are modules
                for alias in node.names:
                    yield node.lineno, f"{anchor}.{alias.name}" if anchor else alias.name
        elif isinstance(node, ast.Call) and node.args:
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            first = node.args[0]
            written = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in ("import_module", "__import__") and written:
                yield node.lineno, str(ast.literal_eval(first))


def violations(root: Path) -> list[str]:
    """Each import in ``root``'s packages that runs up the floors, as ``path:line: a -> b``."""
    found = []
    for package, forbidden in FORBIDDEN.items():
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(path, root)
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for line, name in imported(tree, module, path.name == "__init__.py"):
                top = name.split(".")[0]
                if top in forbidden:
                    where = path.relative_to(root)
                    found.append(f"{where}:{line}: {module} imports {name}")
    return found


def test_core_imports_neither_the_bot_nor_the_sheets_worker_and_sheets_never_the_bot() -> None:
    assert violations(ROOT) == []
    assert len(list((ROOT / "sheets").rglob("*.py"))) > 30  # the packages were read


def test_the_check_finds_every_kind_of_import_up_the_floors(tmp_path: Path) -> None:
    """A tree like the product's, with one import up the floors of each kind: the check
    names each of them, and nothing else (the bot may import anything)."""
    files = {
        "core/__init__.py": "",
        "core/model.py": "from core.names import tidy\n",  # fine
        "core/lazy.py": "def f():\n    import sheets.client\n",
        "core/typing_only.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.store import Store\n"
        ),
        "sheets/__init__.py": "",
        "sheets/fine.py": "from core.model import Colour\nimport sheets.budget\n",
        "sheets/jobs.py": "from bot.store import Store\n",
        "sheets/later.py": "async def f():\n    from bot.store.hold import process_name\n",
        "sheets/fleet/__init__.py": "from ... import bot\n",
        "sheets/fleet/dynamic.py": (
            "import importlib\nstore = importlib.import_module('bot.store')\n"
            "other = __import__('bot')\n"
        ),
        "bot/__init__.py": "import sheets.fleet\nimport core\n",  # the bot may
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert violations(tmp_path) == [
        "core/lazy.py:2: core.lazy imports sheets.client",
        "core/typing_only.py:3: core.typing_only imports bot.store",
        "sheets/fleet/__init__.py:1: sheets.fleet imports bot",
        "sheets/fleet/dynamic.py:2: sheets.fleet.dynamic imports bot.store",
        "sheets/fleet/dynamic.py:3: sheets.fleet.dynamic imports bot",
        "sheets/jobs.py:1: sheets.jobs imports bot.store",
        "sheets/later.py:2: sheets.later imports bot.store.hold",
    ]
