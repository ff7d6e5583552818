"""Snapshots of the storyteller fight screen and players' view (SYSTEMS.md §3.1), from
the worked example (STORYTELLER.md §15) at 80×24 and 120×36: the initiative phase
(Cadáver's initiative still to type), the declaration phase (Matón declares, Kara
still to), and the action phase with an attack waiting (step 4: Matón's first shot
at Kara, the dice-pool panel «Tirada» open); the players' view of step 4 with a
hidden PNJ.

`snap_compare` is a synchronous fixture, so these are plain `def` tests.  Update
with `pytest -n0 tests/narrador/test_narr_snapshots.py --snapshot-update` only
after looking at the report.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from _narr_lines import DECLARED, SEED, STEP_4, narr_session
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import NARR_DEMO_LINES
from cdbtui.store import create

SIZES = [(80, 24), (120, 36)]


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


def save(tmp_path: Path, session: Session) -> Path:
    path = tmp_path / "deposito.toml"
    create(path, session)
    return path


def initiative_session() -> Session:
    session = Session.new("Depósito", "narrador", SEED)
    for line in NARR_DEMO_LINES[:-2]:  # the Cadáver's initiative and «siguiente» not yet
        session.execute(line)
    return session


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_narr_initiative_phase(snap_compare, tmp_path, size):
    from cdbtui.tui.app import CdbApp

    app = CdbApp(save(tmp_path, initiative_session()))

    async def shown(pilot) -> None:
        await pilot.pause()
        assert "Turno 1 · Iniciativa" in screen_text(pilot.app)

    assert snap_compare(app, terminal_size=size, run_before=shown)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_narr_declaration_phase(snap_compare, tmp_path, size):
    from cdbtui.tui.app import CdbApp

    app = CdbApp(save(tmp_path, narr_session(*DECLARED[:2])))

    async def shown(pilot) -> None:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Declaración ↑ · Declara: Matón (13)" in text and "por declarar" in text

    assert snap_compare(app, terminal_size=size, run_before=shown)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_narr_action_phase_with_an_attack_waiting(snap_compare, tmp_path, size):
    from cdbtui.tui.app import CdbApp

    app = CdbApp(save(tmp_path, narr_session(*STEP_4)))

    async def shown(pilot) -> None:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Acción ↓ · Actúa: Matón (13)" in text and "Tirada" in text

    assert snap_compare(app, terminal_size=size, run_before=shown)


def test_narr_player_view(snap_compare, tmp_path):
    from cdbtui.tui.player import PlayerApp

    session = Session.new("Depósito", "narrador", SEED)
    lines = list(NARR_DEMO_LINES)
    lines[-1:-1] = ["alta Sombra des=3 ast=3 fv=2 oculto", "iniciativa Sombra 9"]
    for line in (*lines, "declara cadaver golpe", "siguiente", *STEP_4[1:]):
        session.execute(line)
    app = PlayerApp(save(tmp_path, session), poll_seconds=3600)

    async def shown(pilot) -> None:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "sombra" not in text.casefold()
        listed = "\n".join(line for line in text.splitlines() if "●" in line or "·····" in line)
        assert "✓Disparo" in listed and "Esquiva" not in listed and "F. automático" not in listed

    assert snap_compare(app, terminal_size=(120, 36), run_before=shown)
