"""Shared fixtures for the engine tests: sessions built from command lines.

Kept small and generic on purpose: the UI tests add their own conftest in tests/tui/.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cdbtui.engine.session import Session

from fights import demo_lines, play


@pytest.fixture
def session() -> Callable[..., Session]:
    """Factory: `session("alta Mike ac=7", ...)` plays the lines into a new session."""
    return play


@pytest.fixture
def demo() -> Session:
    """The demo fight (RULES.md §7's cast, with the demo's values) at the start of turn 1."""
    return play(*demo_lines())
