"""Snapshots of the sheet (start, mid-turn, turn 2 with carried maneuvers) at 80×24
and 160×50, a hidden PNJ with notes and durations at 120×36, and of the maneuver
picker and the help screen.

`snap_compare` is a synchronous fixture, so these are plain `def` tests.  Update
with `pytest tests/tui --snapshot-update` only after looking at the report.
"""

from __future__ import annotations

import pytest

from conftest import EXAMPLE_TURN_1, demo_lines

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
