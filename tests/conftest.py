"""Shared fixtures for the engine tests: sessions built from command lines.

Kept small and generic on purpose: the UI tests add their own conftest in tests/tui/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cdbtui.engine.session import Session

DEMO = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"


def demo_lines() -> list[str]:
    """The command lines of the bundled demo fight (comments and blank lines left out)."""
    lines = DEMO.read_text("utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def play(*lines: str, rules: str = "cdb", seed: int = 0, into: Session | None = None) -> Session:
    """A session (new, or `into`) after executing `lines` in order."""
    session = into if into is not None else Session.new(rules=rules, seed=seed)
    for line in lines:
        session.execute(line)
    return session


@pytest.fixture
def session() -> Callable[..., Session]:
    """Factory: `session("alta Mike ac=7", ...)` plays the lines into a new session."""
    return play


@pytest.fixture
def demo() -> Session:
    """The demo fight (RULES.md §7's cast, with the demo's values) at the start of turn 1."""
    return play(*demo_lines())
