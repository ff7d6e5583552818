"""Shared fixtures for the engine tests: sessions built from command lines.

Kept small and generic on purpose: the UI tests add their own conftest in tests/tui/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from shell import cdbtui

from cdbtui.engine.session import Session

from fights import DEMO, demo_lines, play


@pytest.fixture
def session() -> Callable[..., Session]:
    """Factory: `session("alta Mike ac=7", ...)` plays the lines into a new session."""
    return play


@pytest.fixture
def demo() -> Session:
    """The demo fight (RULES.md §7's cast, with the demo's values) at the start of turn 1."""
    return play(*demo_lines())


@pytest.fixture(scope="module")
def demo_save(tmp_path_factory) -> Path:
    """A save holding the demo fight at the start of turn 1, made through the shell
    (created once per module, copied per test by `save`)."""
    path = tmp_path_factory.mktemp("demo") / "puerto.toml"
    assert cdbtui("new", str(path), "--seed", "7").returncode == 0
    result = cdbtui("do", str(path), "-", stdin=DEMO.read_text("utf-8"))
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def save(demo_save: Path, tmp_path: Path) -> Path:
    """A copy of `demo_save` of this test's own."""
    copy = tmp_path / "fight.toml"
    copy.write_bytes(demo_save.read_bytes())
    return copy
