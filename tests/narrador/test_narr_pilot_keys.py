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
    return app.fight.find(name).sheet


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


async def test_turn_1_of_the_worked_example_from_the_keyboard(narr_app):
    from cdbtui.tui.screens.fight import CsPicker
    from cdbtui.tui.screens.prompt import CommandLine

    app = narr_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        # Declarations, lowest first: «d» prefills the declarer.
        for who, what in (("Cadáver", "golpe"), ("Víctor", "fuego-automatico"),
                          ("Matón", "disparos-multiples 2"), ("Kara", "disparo esquiva")):
            assert app.selected == who
            await keys(pilot, "d")
            assert isinstance(app.screen, CommandLine)
            assert await line_value(app) == f"declara {who} "
            await type_line(pilot, what)
        assert app.fight.narr.phase == "act" and app.fight.actor == "Kara"
        assert app.selected == "Kara"
        assert "Acción ↓ · Actúa: Kara (13)" in screen_text(app)
        # 1: Kara shoots Matón: «a», the target step (the other side first), the successes.
        await keys(pilot, "a")
        assert isinstance(app.screen, CsPicker)
        await keys(pilot, "enter")
        assert await line_value(app) == "Kara actua a Matón exitos="
        await type_line(pilot, "2")
        assert app.fight.narr.attack.target == "Matón"
        assert app.selected == "Matón"  # the attack's target
        assert "Tirada" in screen_text(app)
        # 2: Matón tries to abort: «b», rolls 0 successes.
        await keys(pilot, "b")
        assert await line_value(app) == "Matón aborta "
        await type_line(pilot, "tira exitos=0 esquiva")
        # 3: the GM types the damage after soak: «x» on the attack's target.
        await keys(pilot, "x")
        assert await line_value(app) == "dano Matón "
        await type_line(pilot, "3 letal")
        assert sheet(app, "Matón").lethal == 3
        assert app.fight.actor == "Matón" and app.selected == "Matón"
        assert "Disparo 5→2 · Disparo 5→1" in screen_text(app)
        # 4, 5: Matón's two shots, Kara dodges each with «g».
        for successes, dodge in ((1, 2), (1, 1)):
            await keys(pilot, "a")
            await keys(pilot, "enter")
            assert await line_value(app) == "Matón actua a Kara exitos="
            await type_line(pilot, str(successes))
            assert app.selected == "Kara"
            await keys(pilot, "g")
            assert await line_value(app) == "Kara defiende "
            await type_line(pilot, f"esquiva exitos={dodge}")
            assert app.fight.narr.attack is None
        assert sheet(app, "Kara").defenses == 2 and sheet(app, "Kara").lethal == 0
        assert app.fight.actor == "Víctor"
        # 6: Víctor's automatic fire at the Cadáver (the second of the other side).
        await keys(pilot, "a")
        choices = [c.label for c in app.screen.choices]
        assert choices[:2] == ["Matón", "Cadáver"]
        await pilot.press("down")
        await keys(pilot, "enter")
        assert await line_value(app) == "Víctor actua a Cadáver exitos="
        await type_line(pilot, "6")
        assert sheet(app, "Víctor").weapons[0].ammo == 0
        await keys(pilot, "x")
        await type_line(pilot, "6 letal")
        # 7: the Cadáver, stunned, loses its Golpe; turn 2's initiative phase starts.
        assert app.fight.turn == 2 and app.fight.narr.phase == "initiative"
        assert sheet(app, "Cadáver").lethal == 6
        assert "Turno 2 · Iniciativa" in screen_text(app)
        # Undo goes back through the same funnel.
        await keys(pilot, "u")
        assert app.fight.turn == 1 and app.fight.narr.attack is not None


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


async def test_space_ends_the_initiative_phase_and_t_asks(narr_app):
    from cdbtui.tui.screens.confirm import Confirm

    app = narr_app(("declara cadaver golpe",))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await keys(pilot, "space")  # Víctor declares nothing
        assert app.fight.narr.declarer == "Matón" and app.selected == "Matón"
        await keys(pilot, "t")
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
