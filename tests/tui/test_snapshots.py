"""Snapshots of the sheet (start, mid-turn, turn 2 with carried maneuvers) at 80×24
and 160×50, a hidden PNJ with notes and durations at 120×36, twelve combatants at
120×36 and eight at 80×24, and of the maneuver picker (with a used maneuver first
and the target step), the add form and the help screen.

`snap_compare` is a synchronous fixture, so these are plain `def` tests.  Update
with `pytest tests/tui --snapshot-update` only after looking at the report.
"""

from __future__ import annotations

import pytest

from conftest import EXAMPLE_TURN_1, demo_lines
from fights import TWELVE as TABLE

SIZES = [(80, 24), (160, 50)]

#: Turn 1 at moment 5, the state of SHEET.md's sketch.
MID_TURN = [*demo_lines(), *EXAMPLE_TURN_1[:2]]
#: Turn 2 just started: Mike completed his shot; Sven and Soldado 2 still carry theirs.
TURN_2 = [*demo_lines(), *EXAMPLE_TURN_1, "turno"]


async def settle(pilot) -> None:
    await pilot.pause()  # cursors don't blink: conftest's autouse `no_blink`


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sheet_at_the_start_of_the_example(snap_compare, make_app, size):
    assert snap_compare(make_app(), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sheet_mid_turn(snap_compare, make_app, size):
    assert snap_compare(make_app(MID_TURN), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sheet_turn_2_with_carried_maneuvers(snap_compare, make_app, size):
    assert snap_compare(make_app(TURN_2), terminal_size=size, run_before=settle)


#: Issue 11: a hidden Ninja (◌ in its column head, "oculto" in the panel's title) with
#: a note and a condition that end by themselves, typed after Mike's shot at 7: the
#: countdown is at 6 and the header says a reaction would land at 7.
HIDDEN_WITH_NOTES = [
    *demo_lines()[:-1], "alta Ninja ac=6 agi=5 momento=6 oculto", "empezar",
    "mike disparar-armas-largas", "nota ninja acecha tras las cajas turnos=2",
    "estado ninja +a-cubierto turnos=1",
]


def test_sheet_with_a_hidden_pnj_notes_and_durations(snap_compare, make_app):
    assert snap_compare(make_app(HIDDEN_WITH_NOTES), terminal_size=(120, 36), run_before=settle)


def test_maneuver_picker(snap_compare, make_app):
    async def open_picker(pilot):
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(*"dispar")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_picker)


def test_help_screen(snap_compare, make_app):
    async def open_help(pilot):
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_help)


#: Issue 12: twelve combatants at a real table, mid-turn: a hidden PNJ (Ninja), a
#: wounded one (Sven: Herido in his column head), two orcs told apart by their
#: numbers, and Zoe, added without a start moment (the "sin momento" strip): the
#: table of tests/fights.py with a hidden Ninja for Soldado 2, and no Perro.
TWELVE = [
    *TABLE[:7], "alta Ninja ac=6 agi=5 momento=6 oculto", *TABLE[8:11], "empezar",
    "alta Zoe ac=5",
    'mike disparar-armas-largas a "La Viuda Negra"',
    "dano sven 4",
]
#: Eight of them, for a small laptop terminal.
EIGHT = [line for line in TWELVE if not any(
    name in line for name in ("Ana", "Bea", "Ñúñez", "Ninja"))]


@pytest.mark.parametrize(("lines", "size"), [(TWELVE, (120, 36)), (EIGHT, (80, 24))],
                         ids=["twelve-120x36", "eight-80x24"])
def test_sheet_at_a_real_table(snap_compare, make_app, lines, size):
    assert snap_compare(make_app(lines), terminal_size=size, run_before=settle)


def test_add_form_at_80x24(snap_compare, make_app):
    async def open_form(pilot):
        await pilot.press("a")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_form)


def test_picker_with_recent_maneuvers_and_the_target_step(snap_compare, make_app):
    """Mike shot at moment 7 and acts again at 4: his shot comes first, marked as
    used; choosing it asks for the target (the other side, his last target first)."""
    lines = [*demo_lines(), "mike disparar-armas-largas a soldado 1", "soldado 1 esquivar",
             "sven fin", "soldado 1 fin"]

    async def open_targets(pilot):
        pilot.app.select("Mike")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(lines), terminal_size=(80, 24), run_before=open_targets)
