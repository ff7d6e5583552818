"""The layers of cdbtui, enforced.

- The engine (`cdbtui/engine/`) imports nothing of the app around it.
- No headless module (all but `cdbtui/tui/`) imports Textual or Rich.
- The save modules import neither the views nor the TUI.
- Nothing imports the TUI but the CLI (and the TUI itself).

The rules are read from the sources with `ast` (every import, relative ones and
those inside functions included); and each headless module is also imported in a
fresh interpreter of its own, which shows what the sources can't: the modules it
pulls in at run time.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "cdbtui"
UI_LIBRARIES = ("textual", "rich")
TUI = "cdbtui.tui"
#: The modules that write and read saves and the fight list.
SAVE_MODULES = (
    "cdbtui.store", "cdbtui.codec", "cdbtui.library", "cdbtui.roster",
    "cdbtui.files", "cdbtui.funnel", "cdbtui.follow",
)
#: What the saves must not know about: how fights are shown.
VIEWS = ("cdbtui.view", "cdbtui.players", TUI)
#: The modules this test named before it found them by itself: still covered.
KNOWN_HEADLESS = (
    "cdbtui.engine.model", "cdbtui.engine.rules", "cdbtui.engine.parser",
    "cdbtui.engine.session", "cdbtui.engine.catalog", "cdbtui.store",
    "cdbtui.view", "cdbtui.cli", "cdbtui.codec", "cdbtui.library", "cdbtui.roster",
    "cdbtui.export",
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def sources() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@cache
def imports(name: str) -> frozenset[str]:
    """Every module `name` imports anywhere in its source, as absolute names
    (`from . import x` gives both the package and `package.x` if it is a module)."""
    path = sources()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                assert node.level - 1 < len(parts), f"{name}: import above the package"
                base = ".".join(parts[: len(parts) - (node.level - 1)]
                                + ([node.module] if node.module else []))
            else:
                assert node.module is not None
                base = node.module
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in sources())
    return frozenset(found)


def headless() -> list[str]:
    return [name for name in sources() if not within(name, TUI)]


def violations(modules, forbidden) -> list[str]:
    return [f"{name} imports {target}" for name in modules for target in sorted(imports(name))
            if any(within(target, bad) for bad in forbidden)]


# ---------------------------------------------------------------- the rules, from the sources


def test_the_sources_are_found_and_the_imports_read():
    assert set(KNOWN_HEADLESS) <= set(headless())
    assert all(name in sources() for name in SAVE_MODULES), "a save module moved: update"
    # The reader sees relative imports and imports inside functions.
    assert "cdbtui.engine.commands" in imports("cdbtui.engine.parser")  # from . import commands
    assert "cdbtui.tui.app" in imports("cdbtui.cli")  # imported inside _open


def test_the_engine_imports_nothing_of_the_app():
    engine = [name for name in sources() if within(name, "cdbtui.engine")]
    assert len(engine) > 10
    bad = [f"{name} imports {target}" for name in engine for target in sorted(imports(name))
           if within(target, "cdbtui") and not within(target, "cdbtui.engine")]
    assert bad == []


def test_no_headless_module_imports_textual_or_rich():
    assert violations(headless(), UI_LIBRARIES) == []


def test_the_save_modules_import_neither_the_views_nor_the_tui():
    assert violations(SAVE_MODULES, VIEWS) == []


def test_nothing_imports_the_tui_but_the_cli():
    outside = [name for name in headless() if name != "cdbtui.cli"]
    assert violations(outside, (TUI,)) == []


# ---------------------------------------------------------------- at run time, one per module


def units() -> list[str]:
    """Each top-level headless module, and each headless package with all of its
    modules (imported one after the other in the same fresh interpreter)."""
    tops = {".".join(name.split(".")[:2]) for name in headless() if name != "cdbtui"}
    return sorted(tops - {"cdbtui.__main__"})  # __main__ runs the CLI when imported


CHILD = """\
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    bad = sorted(m for m in sys.modules if m.split('.')[0] in {libraries!r})
    if bad:
        print(name, ','.join(bad))
        break
"""


@pytest.mark.parametrize("unit", units())
def test_a_headless_module_does_not_pull_in_textual_or_rich(unit):
    modules = [name for name in headless() if within(name, unit)]
    code = CHILD.format(libraries=UI_LIBRARIES)
    result = subprocess.run([sys.executable, "-c", code, *modules],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", f"importing {result.stdout.strip()}"


def test_every_headless_module_is_imported_by_one_of_those_tests():
    covered = {name for unit in units() for name in headless() if within(name, unit)}
    assert covered == set(headless()) - {"cdbtui", "cdbtui.__main__"}


# ---------------------------------------------------------------- the engine's purity


def test_engine_sources_have_no_io_or_clock():
    engine = PACKAGE / "engine"
    for source in engine.glob("*.py"):
        text = source.read_text("utf-8")
        for forbidden in ("import textual", "from textual", "import time", "open(", "datetime"):
            assert forbidden not in text, f"{source.name} uses {forbidden!r}"
