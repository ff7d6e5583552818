"""Snapshots of C-System's fight screen and players' view (SYSTEMS.md §2.1): the
demo at the start of turn 1, and mid-turn 1 (CSYSTEM.md §12 step 9: Titán charged,
Sicario 1 waits for its pain roll and the critical table, Centella ensordecida,
Ruina dodging), at 80×24 and 160×50; the players' view of turn 2 with a hidden
and a private PNJ at 120×36.

`snap_compare` is a synchronous fixture, so these are plain `def` tests.  Update
with `pytest -n0 tests/csystem/test_snapshots_cs.py --snapshot-update` only after
looking at the report.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))

import pytest
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES
from cdbtui.store import create

SIZES = [(80, 24), (160, 50)]
#: Turn 1 of CSYSTEM.md §12 up to Titán's charge (step 9).
STEP_9 = (
    "centella apuntar", "centella ataca ruina tirada=31 dano=7",
    "ruina ataca centella tirada=30 dano=9 tipo=energia", "estado centella +ensordecido",
    "ruina mover", "ruina esquivar 5", "sicario rafaga-corta a titan tirada=20 dano=6+4",
    "sicario cubrirse simple", "titan cargar a sicario tirada=21 dano=14",
)
#: Turn 2 begun (steps 10–13), a hidden Sombra and a private Matón joined.
TURN_2 = (
    *STEP_9, "dolor sicario 20", 'critica sicario "corte profundo" +sangrando:1',
    'titan simple "¡Centella, cúbreme!"', "ruina ataca titan tirada=31 dano=9 tipo=energia",
    "alta Sombra nh=2 des=5 ale=3 con=4 oculto", "iniciativa Sombra 16",
    "alta Matón nh=1 des=3 ale=1 con=5 privado", "iniciativa Matón 10",
)


def cs_save(path: Path, lines) -> Path:
    session = Session.new("Azotea", "csystem", 1234)
    for line in (*CS_DEMO_LINES, *lines):
        session.execute(line)
    create(path, session)
    return path


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


async def settle(pilot) -> None:
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_cs_start_of_the_demo(snap_compare, tmp_path, size):
    from cdbtui.tui.app import CdbApp

    app = CdbApp(cs_save(tmp_path / "azotea.toml", ()))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_cs_mid_turn_with_conditions_and_a_prompt(snap_compare, tmp_path, size):
    from cdbtui.tui.app import CdbApp

    app = CdbApp(cs_save(tmp_path / "azotea.toml", STEP_9))

    async def shown(pilot) -> None:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "⟳" in text and "Titán (4.º de 4)" in text

    assert snap_compare(app, terminal_size=size, run_before=shown)


def test_cs_player_view(snap_compare, tmp_path):
    from cdbtui.tui.player import PlayerApp

    app = PlayerApp(cs_save(tmp_path / "azotea.toml", TURN_2), poll_seconds=3600)

    async def shown(pilot) -> None:
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "sombra" not in text.casefold()
        assert "Turno 2 · Actúa: Doctor Ruina" in text
        row = next(line for line in text.splitlines() if "Matón" in line and "│" in line)
        assert "?" in row and "/" not in row

    assert snap_compare(app, terminal_size=(120, 36), run_before=shown)
