"""Fixtures for the TUI tests: an app factory on a save built from command lines.

Runs are deterministic: saves live in `tmp_path`, animations are off, the fight's
RNG seed is fixed, cursors don't blink, the theme is fixed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from cdbtui.engine.session import Session  # noqa: E402
from cdbtui.store import create  # noqa: E402

DEMO = Path(__file__).parents[2] / "cdbtui" / "demo" / "puerto.txt"
SEED = 1234


def demo_lines() -> list[str]:
    """The bundled demo: the seeds' worked example, set up and started."""
    return [
        line.strip() for line in DEMO.read_text("utf-8").splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


#: The worked example of RULES.md §7, turn 1, as command lines.
EXAMPLE_TURN_1 = (
    "mike disparar-armas-largas",
    '"Soldado 1" ponerse-a-cubierto',
    "sven disparar-armas-largas",
    '"Soldado 2" ponerse-a-cubierto',
    '"Soldado 1" disparar-armas-largas',
    "mike ponerse-a-cubierto",
    "mike apuntar",
    '"Soldado 2" disparar-armas-largas',
    "sven disparar-armas-largas",
    '"Soldado 1" apuntar',
    "mike disparar-armas-largas",
    '"Soldado 2" disparar-armas-largas',
)


def write_save(path: Path, lines: Iterable[str], *, rules: str = "cdb") -> Path:
    session = Session.new(path.stem, rules, SEED)
    for line in lines:
        session.execute(line)
    create(path, session)
    return path


@pytest.fixture
def save_from(tmp_path: Path) -> Callable[..., Path]:
    """`save_from(lines, name=...)`: a save file built from command lines."""

    def build(lines: Iterable[str], name: str = "combate") -> Path:
        return write_save(tmp_path / f"{name}.toml", lines)

    return build


@pytest.fixture
def make_app(save_from) -> Callable[..., object]:
    """`make_app(lines=demo)`: a `CdbApp` on a fresh save of those lines."""
    from cdbtui.tui.app import CdbApp

    def build(lines: Iterable[str] | None = None, name: str = "combate") -> CdbApp:
        path = save_from(demo_lines() if lines is None else lines, name)
        return CdbApp(path)

    return build


def no_blink(app) -> None:
    """Stop cursors blinking so screenshots are stable."""
    from textual.widgets import Input

    for box in app.screen.query(Input):
        box.cursor_blink = False
