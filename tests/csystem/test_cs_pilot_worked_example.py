"""CSYSTEM.md §12 (two turns on a rooftop) played from the keyboard, every row.

The lines are /tmp/cs/SYNTAX.md's script of the example; each goes through the
screen's own key where one exists for the step (the picker «m», «a» and its target
step, «e», «p», «v», «r») and through the `:` line for the rest (an Esquivar with a
chosen value, the refused rows, the answer «p» does not prefill).  After each row
the test reads `app.fight` and checks what the row's «left after» column says, whose
go it is, and the Vitalidad and Defensa the row gives.  The refused rows (10, 17,
23) leave the fight as it was and show the spec's sentence in a notification (how
`app.run_line` shows a `Refusal`: `tell` → `notify`)."""

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

from cdbtui.engine.csystem import budget
from cdbtui.engine.csystem.defense import defense
from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES
from cdbtui.store import create

SEED = 1234
NH5_MENU = "■■ o ■□ o □□□"
NH9_MENU = "■■□ o ■□□ o □□□□"
NH1_MENU = "■□ o □□"
TITAN_10 = "Titán (nivel 1) ya usó su acción compleja: le queda □"
SICARIO_17 = ("Sicario 1 está Malherido: solo puede hacer una acción simple por turno "
              "(levantarse es compleja)")
CENTELLA_23 = ("Centella ya ha usado Apuntar este turno: no se pueden usar dos maniobras "
               "iguales en el mismo turno")


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


@pytest.fixture
def app(tmp_path):
    """The worked example's fight (the demo's set-up: SYNTAX.md's script up to
    `empezar`), opened from its save."""
    from cdbtui.tui.app import CdbApp

    session = Session.new("Azotea", "csystem", SEED)
    for line in CS_DEMO_LINES:
        session.execute(line)
    path = tmp_path / "azotea.toml"
    create(path, session)
    return CdbApp(path)


# ------------------------------------------------------------------ helpers


def sheet(app, name):
    return app.fight.find(name).sheet


def left(app, name) -> str:
    return budget.left_text(budget.left(sheet(app, name)))


def dfn(app, name) -> tuple[int, int]:
    d = defense(sheet(app, name))
    return d.ranged, d.melee


def ids(app, name) -> set[str]:
    return {c.id for c in sheet(app, name).conditions}


def ammo(app, name) -> int:
    return sheet(app, name).weapons[0].ammo


def prompt(app, name) -> tuple[str, int | None]:
    """(roll, ND) of the first prompt the combatant waits for."""
    first = sheet(app, name).pending[0]
    return first.roll, first.nd


def messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def line_value(app) -> str:
    from textual.widgets import Input

    return app.screen.query_one(Input).value


async def type_line(pilot, text: str) -> None:
    """Finish the `:` line a key opened (or «:» itself) and run it: `text` typed key
    by key (the key events `pilot.press` sends, posted one after another without
    waiting for the app to go idle after each one: a fast typist), then Enter."""
    from textual.keys import _character_to_key

    await burst(pilot, *((char if char.isalnum() else _character_to_key(char), char)
                         for char in text))
    await keys(pilot, "enter")


async def burst(pilot, *presses: tuple[str, str | None]) -> None:
    """(key, character) events posted in a row, then one pause."""
    from textual import events

    for key, char in presses:
        pilot.app.post_message(events.Key(key, char))
    await pilot.pause()


async def down(pilot, times: int) -> None:
    await burst(pilot, *(("down", None),) * times)


async def colon(pilot, line: str) -> None:
    await keys(pilot, "colon")
    await type_line(pilot, line)


async def select(pilot, app, name: str) -> None:
    """↓ or ↑ to `name`, in the list's order (top to bottom)."""
    from cdbtui.view import cslist

    rows = cslist.cs_selection_order(app.fight)
    steps = rows.index(name) - rows.index(app.selected)
    await burst(pilot, *(("down" if steps > 0 else "up", None),) * abs(steps))
    assert app.selected == name


async def pick(pilot, app, line: str) -> bool:
    """«m», then the choice whose line is `line` (↓ to it, ⏎); whether it was offered
    (when not, the picker is closed with Esc)."""
    await keys(pilot, "m")
    lines = [c.line for c in app.screen.choices]
    if line not in lines:
        await keys(pilot, "escape")
        return False
    await down(pilot, lines.index(line))
    await keys(pilot, "enter")
    return True


async def attack(pilot, app, target: str, rest: str) -> None:
    """«a», the target step (↓ to `target`, ⏎), the rest of «… tirada=» typed."""
    from cdbtui.tui.screens.prompt import CommandLine

    await keys(pilot, "a")
    names = [c.label for c in app.screen.choices]
    assert target in names, names
    await down(pilot, names.index(target))
    await keys(pilot, "enter")
    assert isinstance(app.screen, CommandLine)
    assert (await line_value(app)).endswith("tirada=")
    await type_line(pilot, rest)


async def refused(pilot, app, line: str, message: str) -> None:
    """The line typed on «:» is refused: the fight and its history stay as they
    were, and the DJ sees the spec's sentence."""
    before, history = app.fight, list(app.session.lines)
    seen = {n.identity for n in app._notifications}
    await colon(pilot, line)
    assert app.fight == before
    assert list(app.session.lines) == history
    new = [str(n.message) for n in app._notifications if n.identity not in seen]
    assert any(message in m for m in new), (new, messages(app))
    await pilot.pause()
    assert await line_value(app) == line  # back on the «:» line, to be mended
    await keys(pilot, "escape")  # given up: the line goes
    assert app.fight == before and list(app.session.lines) == history


# ------------------------------------------------------------------ the example


async def test_the_worked_example_both_turns_from_the_keyboard(app):
    from cdbtui.tui.screens.csfight import CsFightScreen
    from cdbtui.tui.screens.prompt import CommandLine

    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CsFightScreen)
        fight = app.fight
        # ---- row 1: Centella's go, the NH 5 menu; the cast's Vitalidad and Defensa.
        assert (fight.turn, fight.actor) == (1, "Centella")
        assert fight.cs.order == ("Centella", "Doctor Ruina", "Sicario 1", "Titán")
        assert left(app, "Centella") == NH5_MENU
        for name, pv, d in (("Centella", 32, 26), ("Titán", 28, 19), ("Sicario 1", 16, 20),
                            ("Doctor Ruina", 48, 29)):
            assert (sheet(app, name).vitality, sheet(app, name).vitality_max) == (pv, pv), name
            assert dfn(app, name) == (d, d), name
        assert ammo(app, "Centella") == 15 and ammo(app, "Sicario 1") == 30

        # ---- row 2: Apuntar (■) from the picker: aim +2.
        assert await pick(pilot, app, "Centella apuntar")
        assert sheet(app, "Centella").aim == 2
        assert left(app, "Centella") == "■ o □" and app.fight.actor == "Centella"

        # ---- row 3: «a» → Doctor Ruina, 31, 7 balístico: 48 → 43; aim and a round used.
        await attack(pilot, app, "Doctor Ruina", "31 dano=7")
        assert sheet(app, "Doctor Ruina").vitality == 43
        assert sheet(app, "Centella").aim == 0 and ammo(app, "Centella") == 14
        assert left(app, "Centella") == "—" and sheet(app, "Centella").acted
        assert app.fight.actor == "Doctor Ruina" and left(app, "Doctor Ruina") == NH9_MENU

        # ---- row 4: Ruina's ray at Centella (a generic attack, energía): 32 → 24.
        await attack(pilot, app, "Centella", "30 dano=9 tipo=energia")
        assert sheet(app, "Centella").vitality == 24 and ids(app, "Centella") == set()
        assert left(app, "Doctor Ruina") == NH1_MENU and app.fight.actor == "Doctor Ruina"
        # ... «e» on Centella: ensordecido, 22 → 17, placed after Sicario 1.
        await select(pilot, app, "Centella")
        await keys(pilot, "e")
        assert await line_value(app) == "estado Centella +"
        await type_line(pilot, "ensordecido")
        assert ids(app, "Centella") == {"ensordecido"}
        assert sheet(app, "Centella").initiative == 17
        assert app.fight.cs.order == ("Doctor Ruina", "Sicario 1", "Centella", "Titán")
        assert sheet(app, "Centella").acted  # no second go this turn
        assert app.fight.actor == "Doctor Ruina" and left(app, "Doctor Ruina") == NH1_MENU

        # ---- row 5: mover ½ (□) from the picker.
        assert await pick(pilot, app, '"Doctor Ruina" mover')
        assert sheet(app, "Doctor Ruina").used == ("complex", "simple")
        assert left(app, "Doctor Ruina") == "■ o □"

        # ---- row 6: Esquivar choosing 5.  The picker's «Esquivar» runs «esquivar» as it
        # is (the d10 rolled): a chosen value goes on the : line.
        await colon(pilot, "ruina esquivar 5")
        assert sheet(app, "Doctor Ruina").dodge == 5
        assert dfn(app, "Doctor Ruina") == (34, 34)
        assert left(app, "Doctor Ruina") == "—" and sheet(app, "Doctor Ruina").acted
        assert app.fight.actor == "Sicario 1" and left(app, "Sicario 1") == NH1_MENU

        # ---- row 7: Ráfaga corta from the picker, finished on the line: 8 rounds, 28 → 20.
        assert await pick(pilot, app, '"Sicario 1" rafaga-corta a ')
        assert isinstance(app.screen, CommandLine)
        assert await line_value(app) == '"Sicario 1" rafaga-corta a '
        await type_line(pilot, "titan tirada=20 dano=6+4")
        assert ammo(app, "Sicario 1") == 22
        assert sheet(app, "Titán").vitality == 20 and sheet(app, "Titán").pending == ()
        assert left(app, "Sicario 1") == "□" and app.fight.actor == "Sicario 1"

        # ---- row 8: Cubrirse simple from the picker: tumbado, 22 vs ranged, 18 vs melee.
        assert await pick(pilot, app, '"Sicario 1" cubrirse simple')
        assert ids(app, "Sicario 1") == {"tumbado"}
        assert dfn(app, "Sicario 1") == (22, 18)
        assert left(app, "Sicario 1") == "—"
        assert app.fight.actor == "Titán" and left(app, "Titán") == NH1_MENU
        assert dfn(app, "Titán") == (19, 19)

        # ---- row 9: Cargar from the picker, finished on the line: Def 19 → 17;
        # Sicario 16 → 3 < CON 4: a critical and the pain roll vs 23.
        assert await pick(pilot, app, "Titán cargar a ")
        await type_line(pilot, "sicario tirada=21 dano=14")
        assert dfn(app, "Titán") == (17, 17)
        assert left(app, "Titán") == "□" and app.fight.actor == "Titán"
        assert sheet(app, "Sicario 1").vitality == 3 and sheet(app, "Sicario 1").criticals == 1
        assert prompt(app, "Sicario 1") == ("dolor", 23)
        # ... «p» on Sicario 1: the pain roll, 20 → Malherido: 18 · 14.
        await select(pilot, app, "Sicario 1")
        await keys(pilot, "p")
        assert await line_value(app) == 'dolor "Sicario 1" '
        await type_line(pilot, "20")
        assert ids(app, "Sicario 1") == {"tumbado", "malherido"}
        assert dfn(app, "Sicario 1") == (18, 14)
        # ... «p» again: the critical table's answer, a deep cut: sangrando:1.
        await keys(pilot, "p")
        assert await line_value(app) == 'critica "Sicario 1" '
        await type_line(pilot, '"corte profundo" +sangrando:1')
        assert ids(app, "Sicario 1") == {"tumbado", "malherido", "sangrando"}
        assert sheet(app, "Sicario 1").condition("sangrando").value == "1"
        assert sheet(app, "Sicario 1").pending == ()
        assert app.fight.actor == "Titán" and left(app, "Titán") == "□"

        # ---- row 10: a second Cargar: not offered by the picker, refused on the line.
        assert not await pick(pilot, app, "Titán cargar a ")
        await refused(pilot, app, "titan cargar", TITAN_10)
        assert left(app, "Titán") == "□" and app.fight.actor == "Titán"

        # End of turn 1 (the values just before row 11's line).
        end_1 = {  # name: (initiative, vitality, (ranged, melee), conditions)
            "Doctor Ruina": (22, 43, (34, 34), set()),
            "Sicario 1": (18, 3, (18, 14), {"malherido", "tumbado", "sangrando"}),
            "Centella": (17, 24, (26, 26), {"ensordecido"}),
            "Titán": (14, 20, (17, 17), set()),
        }
        assert app.fight.cs.order == tuple(end_1)
        for name, (ini, pv, d, conds) in end_1.items():
            s = sheet(app, name)
            assert (s.initiative, s.vitality, dfn(app, name), ids(app, name)) == (ini, pv, d, conds), name
        assert [sheet(app, n).criticals for n in end_1] == [0, 1, 0, 0]
        assert (ammo(app, "Sicario 1"), ammo(app, "Centella")) == (22, 14)

        # ---- row 11: «v», the order as the text: Titán's go ends, turn 2 starts.
        await keys(pilot, "v")
        assert await line_value(app) == "Titán simple "
        await type_line(pilot, '"¡Centella, cúbreme!"')
        # ---- row 12: Ruina's start: Esquivar's +5 ends, 34 → 29; the NH 9 menu.
        assert (app.fight.turn, app.fight.actor) == (2, "Doctor Ruina")
        assert dfn(app, "Doctor Ruina") == (29, 29)
        assert left(app, "Doctor Ruina") == NH9_MENU
        assert dfn(app, "Titán") == (17, 17)  # Cargar lasts until Titán's start
        assert "Turno 2 · Actúa: Doctor Ruina" in screen_text(app)

        # ---- row 13: the ray at Titán: 20 → 6 < CON 7: critical 1, pain roll vs 24.
        await attack(pilot, app, "Titán", "31 dano=9 tipo=energia")
        assert sheet(app, "Titán").vitality == 6 and sheet(app, "Titán").criticals == 1
        assert prompt(app, "Titán") == ("dolor", 24)
        assert left(app, "Doctor Ruina") == NH1_MENU
        # ... «p» on Titán: 25 → Herido: 15.
        await select(pilot, app, "Titán")
        await keys(pilot, "p")
        assert await line_value(app) == "dolor Titán "
        await type_line(pilot, "25")
        assert ids(app, "Titán") == {"herido"}
        assert dfn(app, "Titán") == (15, 15)

        # ---- row 14: the ray again: 6 → 1, critical 2, pain roll vs 15.
        await attack(pilot, app, "Titán", "22 dano=4 tipo=energia")
        assert sheet(app, "Titán").vitality == 1 and sheet(app, "Titán").criticals == 2
        assert ("dolor", 15) in [(p.roll, p.nd) for p in sheet(app, "Titán").pending]
        assert left(app, "Doctor Ruina") == "□"
        # ... the pain roll on the : line: «p» answers the first prompt, and that is row
        # 13's critical reminder (not answered in the script), not this pain roll.
        await colon(pilot, "dolor titan 13")
        assert ids(app, "Titán") == {"malherido"}
        assert dfn(app, "Titán") == (14, 14)

        # ---- row 15: mover ½ from the picker; ---- row 16: Sicario's start bleeds 3 → 2.
        assert await pick(pilot, app, '"Doctor Ruina" mover')
        assert left(app, "Doctor Ruina") == "—"
        assert app.fight.actor == "Sicario 1"
        assert sheet(app, "Sicario 1").vitality == 2 and sheet(app, "Sicario 1").criticals == 1
        assert sheet(app, "Sicario 1").pending == ()
        assert left(app, "Sicario 1") == "□"

        # ---- row 17: Levantarse: not offered by the picker, refused on the line.
        assert not await pick(pilot, app, '"Sicario 1" levantarse')
        await refused(pilot, app, "sicario levantarse", SICARIO_17)
        assert left(app, "Sicario 1") == "□" and app.fight.actor == "Sicario 1"

        # ---- row 18: «v», the radio call: his go ends, Centella's.
        await keys(pilot, "v")
        assert await line_value(app) == '"Sicario 1" simple '
        await type_line(pilot, '"pide refuerzos por radio"')
        assert left(app, "Sicario 1") == "—" and sheet(app, "Sicario 1").acted
        assert app.fight.actor == "Centella" and left(app, "Centella") == NH5_MENU

        # ---- row 19: «r» tras Titán: 14 (tras Titán), after him in the order.
        await keys(pilot, "r")
        assert await line_value(app) == "Centella retrasa tras "
        await type_line(pilot, "titan")
        assert sheet(app, "Centella").initiative == 14
        assert sheet(app, "Centella").after == "Titán"
        assert app.fight.cs.order == ("Doctor Ruina", "Sicario 1", "Titán", "Centella")
        assert sheet(app, "Centella").used == () and not sheet(app, "Centella").acted
        # ---- row 20: Titán's start: Cargar's −2 ends, 14 → 16; Malherido: □.
        assert app.fight.actor == "Titán"
        assert dfn(app, "Titán") == (16, 16)
        assert left(app, "Titán") == "□"

        # ---- row 21: Cubrirse simple from the picker: tumbado, 18 · 14.
        assert await pick(pilot, app, "Titán cubrirse simple")
        assert ids(app, "Titán") == {"malherido", "tumbado"}
        assert dfn(app, "Titán") == (18, 14)
        assert left(app, "Titán") == "—"
        assert app.fight.actor == "Centella" and left(app, "Centella") == NH5_MENU

        # ---- row 22: Apuntar from the picker.
        assert await pick(pilot, app, "Centella apuntar")
        assert sheet(app, "Centella").aim == 2 and left(app, "Centella") == "■ o □"

        # ---- row 23: a second Apuntar: gone from the picker, refused on the line.
        assert not await pick(pilot, app, "Centella apuntar")
        await refused(pilot, app, "centella apuntar", CENTELLA_23)
        assert left(app, "Centella") == "■ o □" and app.fight.actor == "Centella"

        # ---- row 24: «a» → Doctor Ruina, 29, 8: 43 → 38; aim and a round used; turn 3.
        await attack(pilot, app, "Doctor Ruina", "29 dano=8")
        assert sheet(app, "Doctor Ruina").vitality == 38
        assert sheet(app, "Centella").aim == 0 and ammo(app, "Centella") == 13
        assert (app.fight.turn, app.fight.actor) == (3, "Doctor Ruina")
        assert left(app, "Doctor Ruina") == NH9_MENU
        assert "Turno 3 · Actúa: Doctor Ruina (1.º de 4)" in screen_text(app)

        # End of turn 2 (turn 3 runs Ruina, Sicario 1, Titán, Centella).
        end_2 = {
            "Doctor Ruina": (22, 38, (29, 29), set()),
            "Sicario 1": (18, 2, (18, 14), {"malherido", "tumbado", "sangrando"}),
            "Titán": (14, 1, (18, 14), {"malherido", "tumbado"}),
            "Centella": (14, 24, (26, 26), {"ensordecido"}),
        }
        assert app.fight.cs.order == tuple(end_2)
        for name, (ini, pv, d, conds) in end_2.items():
            s = sheet(app, name)
            assert (s.initiative, s.vitality, dfn(app, name), ids(app, name)) == (ini, pv, d, conds), name
        assert [sheet(app, n).criticals for n in end_2] == [0, 1, 2, 0]
        assert sheet(app, "Centella").after == "Titán"
        assert (ammo(app, "Sicario 1"), ammo(app, "Centella")) == (22, 13)
        # Every key went through the funnel: the history holds the accepted lines only.
        assert len(app.session.lines) == len(CS_DEMO_LINES) + 22
