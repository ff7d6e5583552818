"""Fights built from command lines, for the engine tests (imported as `fights`: a
name of its own, since `conftest` is ambiguous between tests/ and tests/tui/)."""

from __future__ import annotations

from pathlib import Path

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
