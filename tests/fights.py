"""Fights built from command lines, for the engine tests (imported as `fights`: a
name of its own, since `conftest` is ambiguous between tests/ and tests/tui/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session

DEMO = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"

#: Issue 12's table: twelve combatants; three at moment 7 (Mike, then La Viuda Negra, then the
#: captain, by Agilidad), two orcs whose names differ only at the end.
TWELVE = (
    "alta Mike ac=7 agi=4 bando=pj momento=7",
    "alta Sven ac=5 agi=3 bando=pj momento=5",
    'alta "Brunilda Peña" ac=6 agi=3 bando=pj momento=6',
    'alta "La Viuda Negra" ac=6 agi=3 momento=7',
    'alta "Orco número 23" ac=4 momento=4',
    'alta "Orco número 28" ac=4 momento=4',
    'alta "Soldado 1" ac=6 momento=6',
    'alta "Soldado 2" ac=5 momento=3',
    "alta Ana ac=5 bando=pj momento=2",
    "alta Bea ac=5 bando=pj momento=5",
    'alta "Capitán Ñúñez" ac=7 agi=2 momento=7',
    "alta Perro ac=3 momento=1",
    "empezar",
)

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


def refused(s, line: str, match: str) -> None:
    """`line` is refused with a message matching `match`, and nothing changes."""
    before = s.fight
    lines = list(s.lines)
    with pytest.raises(Refusal, match=match):
        s.execute(line)
    assert s.fight == before
    assert s.lines == lines


def logged(s, text: str) -> bool:
    return any(text in entry.text for entry in s.fight.log)


def undoable(s, line: str) -> None:
    """`line` runs, undo gives back exactly the state before, redo the one after."""
    before = s.fight
    s.execute(line)
    after = s.fight
    s.execute("deshacer")
    assert s.fight == before
    s.execute("rehacer")
    assert s.fight == after
