"""Pilot tests of the storyteller fight screen: the worked example's turn 1
(STORYTELLER.md §15) from the keyboard, every key through the same funnel as the
`:` line (`app.run_line` → `Session.execute`); the selection following the
declarer, the actor and the attack's target; keys that do not apply saying why;
the demo one key away on the start screen."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parents[1] / "tui"))
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from _narr_lines import narr_session
from helpers import keys
from screen_text import screen_text

from cdbtui.store import create
from _narr_now import current_sheet


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


@pytest.fixture
def narr_app(tmp_path):
    from cdbtui.tui.app import CdbApp

    def build(lines=()):
        path = tmp_path / "deposito.toml"
        create(path, narr_session(*lines))
        return CdbApp(path)

    return build


def sheet(app, name):
    return current_sheet(app.fight, name)  # as it stands in this turn


async def line_value(app) -> str:
    from textual.widgets import Input

    return app.screen.query_one(Input).value


async def type_line(pilot, text: str) -> None:
    await pilot.press(*text)
    await keys(pilot, "enter")


async def test_the_screen_shows_the_declaration_phase(narr_app):
    from cdbtui.tui.screens.narrfight import NarrFightScreen

    app = narr_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NarrFightScreen)
        text = screen_text(app)
        assert "Depósito · Narrador · Turno 1 · Declaración ↑ · Declara: Cadáver (8)" in text
        assert "por declarar" in text and "Cadáver · PNJ" in text
        assert app.selected == "Cadáver"
        assert "d declarar" in text and "␣ siguiente" in text


async def test_keys_that_do_not_apply_say_why(narr_app):
    app = narr_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        before = app.fight
        await keys(pilot, "g")
        assert app.fight is before
        assert any("Nadie está atacando ahora" in str(n.message) for n in app._notifications)
        await keys(pilot, "a")
        assert app.fight is before
        assert any("es la fase de declaración" in str(n.message) for n in app._notifications)
        bar = screen_text(app).splitlines()[-1]
        assert "d declarar" in bar and "g defender" not in bar


async def test_space_ends_the_initiative_phase_and_shift_t_asks(narr_app):
    from cdbtui.tui.screens.confirm import Confirm

    app = narr_app(("declara cadaver golpe",))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "space")  # Víctor declares nothing
        assert app.fight.narr.declarer == "Matón" and app.selected == "Matón"
        await keys(pilot, "T")  # «t» is «tirar» (SYSTEMS §3.1's bar); the turn's end is «T»
        assert isinstance(app.screen, Confirm)
        await keys(pilot, "escape")
        assert app.fight.turn == 1


async def test_help_lists_the_storyteller_keys_and_decisions(narr_app):
    app = narr_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "question_mark")
        text = screen_text(app)
        assert "Ayuda · Narrador" in text


async def test_the_demo_is_one_key_away(tmp_path):
    from cdbtui.tui.app import CdbApp
    from cdbtui.tui.screens.narrfight import NarrFightScreen

    app = CdbApp(saves_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "m")
        await pilot.pause()
        assert isinstance(app.screen, NarrFightScreen)
        assert app.fight.rules == "narrador" and app.fight.narr.declarer == "Cadáver"
        assert "Depósito · Narrador · Turno 1 · Declaración ↑" in screen_text(app)


async def test_a_new_narrador_fight_from_the_start_screen(tmp_path):
    from cdbtui.tui.app import CdbApp
    from cdbtui.tui.screens.narrfight import NarrFightScreen

    app = CdbApp(saves_dir=tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "n")
        text = screen_text(app)
        assert "C-System" in text and "Narrador (d10)" in text
        await pilot.press(*"Morgue")
        await keys(pilot, "tab", "down", "down", "down")
        await keys(pilot, "enter")
        assert isinstance(app.screen, NarrFightScreen)
        assert app.fight.rules == "narrador" and app.fight.name == "Morgue"
        assert app.fight.narr.phase == "initiative"
        # the : line adds a combatant; «i» prefills its initiative.
        await keys(pilot, "colon")
        await type_line(pilot, "alta Kara bando=pj des=3 ast=3 fv=5")
        assert app.selected == "Kara"
        await keys(pilot, "i")
        assert await line_value(app) == "iniciativa Kara "
        await type_line(pilot, "13")
        await keys(pilot, "space")
        assert app.fight.narr.phase == "declare" and app.selected == "Kara"


async def test_the_palette_has_no_cdb_entries(narr_app):
    app = narr_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+p")
        await pilot.pause()
        text = screen_text(app)
        assert "Siguiente" in text and "Deshacer" in text
        assert "Avanzar la cuenta atrás" not in text and "Momentos iniciales" not in text
        assert "Añadir combatiente" not in text
