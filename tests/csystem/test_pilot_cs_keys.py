"""Pilot tests of C-System's fight screen: the worked example's first rows
(CSYSTEM.md §12) typed from the keyboard, every key through the same funnel as
the `:` line (`app.run_line` → `Session.execute`), and the keys that do not apply
saying why.  The demo fight is the start screen's, one key away."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))

import pytest
from helpers import keys
from screen_text import screen_text

from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES
from cdbtui.store import create

SEED = 1234


def cs_save(path: Path, lines=()) -> Path:
    session = Session.new("Azotea", "csystem", SEED)
    for line in (*CS_DEMO_LINES, *lines):
        session.execute(line)
    create(path, session)
    return path


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


@pytest.fixture
def cs_app(tmp_path):
    from cdbtui.tui.app import CdbApp

    def build(lines=()):
        return CdbApp(cs_save(tmp_path / "azotea.toml", lines))

    return build


def sheet(app, name):
    return app.fight.find(name).sheet


async def type_line(pilot, text: str) -> None:
    """Finish the `:` line a key opened and run it."""
    await pilot.press(*text)
    await keys(pilot, "enter")


async def test_the_c_system_screen_shows_the_list_and_the_header(cs_app):
    from cdbtui.tui.screens.csfight import CsFightScreen

    app = cs_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CsFightScreen)
        text = screen_text(app)
        assert "Azotea · C-System · Turno 1 · Actúa: Centella (1.º de 4) · luego: Doctor Ruina" in text
        assert "▶1  22   Centella" in text
        assert "Centella · PJ · NH 5" in text  # the side panel, on whose go it is
        assert "■■ o ■□ o □□□" in text
        assert app.selected == "Centella"


async def test_keys_that_do_not_apply_say_why(cs_app):
    """Titán (NH 1) after Cargar: ■ is not left; «c» says so and runs nothing."""
    lines = ("centella apuntar", "centella ataca ruina tirada=31 dano=7",
             "ruina ataca centella tirada=30 dano=9 tipo=energia", "estado centella +ensordecido",
             "ruina mover", "ruina esquivar 5", "sicario rafaga-corta a titan tirada=20 dano=6+4",
             "sicario cubrirse simple", "titan cargar a sicario tirada=21 dano=14")
    app = cs_app(lines)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        before = len(app.session.lines)
        await keys(pilot, "c")
        assert len(app.session.lines) == before
        assert any("le queda □" in str(n.message) for n in app._notifications)
        bar = screen_text(app).splitlines()[-1]
        assert "■ compleja" not in bar and "□ simple" in bar
        # the pending prompts: ⟳ before Sicario, «p» opens the answer on the : line
        assert "⟳Sicario 1" in screen_text(app)
        while app.selected != "Sicario 1":
            await keys(pilot, "up")
        await keys(pilot, "p")
        await type_line(pilot, "20")
        assert any(c.id == "malherido" for c in sheet(app, "Sicario 1").conditions)
        # f ends Titán's go: turn 2 starts by itself, Ruina's go
        await keys(pilot, "f")
        assert app.fight.turn == 2 and app.fight.actor == "Doctor Ruina"
        assert app.selected == "Doctor Ruina"
        # u undoes it
        await keys(pilot, "u")
        assert app.fight.turn == 1 and app.fight.actor == "Titán"


async def test_help_lists_c_system_commands_and_decisions(cs_app):
    from cdbtui.tui.screens.help import cs_help_markdown
    from cdbtui.view.cslist import DECISIONS

    text = cs_help_markdown()
    assert "retrasa tras OTRO" in text and "dolor NOMBRE TOTAL" in text
    assert all(f"**{title}**" in text for title, _ in DECISIONS)
    app = cs_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await keys(pilot, "question_mark")
        assert "Ayuda · C-System" in screen_text(app)
        await keys(pilot, "escape")


async def test_the_start_screen_opens_the_c_system_demo(tmp_path):
    from cdbtui.tui.app import CdbApp
    from cdbtui.tui.screens.csfight import CsFightScreen

    app = CdbApp(None, saves_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "ejemplo C-System" in screen_text(app)
        await keys(pilot, "s")
        assert isinstance(app.screen, CsFightScreen)
        assert app.fight.rules == "csystem" and app.fight.actor == "Centella"
        assert [c.name for c in app.fight.combatants] == [
            "Centella", "Titán", "Sicario 1", "Doctor Ruina"]
        # back to the list and into CdB's demo: the CdB screen again
        from cdbtui.tui.screens.fight import FightScreen

        await keys(pilot, "q")
        await keys(pilot, "d")
        assert type(app.screen) is FightScreen
        assert app.fight.rules == "cdb"


#: Turn 2 up to Centella's go (steps 10–18 of CSYSTEM.md §12).
TO_STEP_19 = (
    "centella apuntar", "centella ataca ruina tirada=31 dano=7",
    "ruina ataca centella tirada=30 dano=9 tipo=energia", "estado centella +ensordecido",
    "ruina mover", "ruina esquivar 5", "sicario rafaga-corta a titan tirada=20 dano=6+4",
    "sicario cubrirse simple", "titan cargar a sicario tirada=21 dano=14", "dolor sicario 20",
    'critica sicario "corte profundo" +sangrando:1', 'titan simple "¡Centella, cúbreme!"',
    "ruina ataca titan tirada=31 dano=9 tipo=energia", "dolor titan 25",
    "ruina ataca titan tirada=22 dano=4 tipo=energia", "dolor titan 13", "ruina mover",
    'sicario simple "pide refuerzos por radio"',
)


async def test_space_next_and_t_to_end_the_turn(cs_app):
    from cdbtui.tui.screens.confirm import Confirm

    app = cs_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "space")  # Centella's go ends: Ruina's
        assert app.fight.actor == "Doctor Ruina"
        assert sheet(app, "Centella").acted
        await keys(pilot, "t")
        assert isinstance(app.screen, Confirm)
        assert "Doctor Ruina, Sicario 1, Titán" in screen_text(app)
        await keys(pilot, "enter")
        assert app.fight.turn == 2 and app.fight.actor == "Centella"
        # every key went through the funnel: the history has the lines
        assert app.session.lines[-2:] == ["siguiente", "turno"]
