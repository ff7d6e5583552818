"""Roles in the view model: every cell, panel line and picker row says what it is as an
enum, and the widgets style by it (never by a glyph or a word of the text)."""

from __future__ import annotations

import re
from pathlib import Path

from fights import demo_lines, play

from cdbtui.view import (
    CellRole,
    ChoiceState,
    RowRole,
    build_sheet,
    maneuver_choices,
    panel_rows,
)

TUI = Path(__file__).parents[1] / "cdbtui" / "tui"


def cells(fight, name: str) -> dict:
    """{text: role} of the drawn cells of one column."""
    column = next(c for c in build_sheet(fight).columns if c.name == name)
    return {cell.text.strip(): cell.role for cell in column.cells if cell.role is not CellRole.EMPTY}


def choices(fight, name: str) -> dict:
    return {ch.id: ch for ch in maneuver_choices(fight, fight.find(name))}


# ---------------------------------------------------------------- the sheet's cells


def test_the_head_of_the_queue_at_its_start_is_the_acting_cell():
    f = play(*demo_lines()).fight
    assert cells(f, "Mike") == {"▶Mike 7": CellRole.ACTING}
    assert cells(f, "Sven") == {"Sven 5": CellRole.NAME}


def test_the_head_below_its_start_acts_at_its_marker():
    f = play("alta Ana ac=6 momento=5", "empezar", "ana gasta 2").fight
    assert cells(f, "Ana") == {"Ana": CellRole.NAME, "│": CellRole.SPENT, "▶● 4": CellRole.ACTING}


def test_a_name_that_starts_with_the_acting_glyph_is_still_a_name():
    f = play("alta ▶Bob ac=6 momento=5", "empezar", '"▶Bob" gasta 2').fight
    assert cells(f, "▶Bob") == {"▶Bob": CellRole.NAME, "│": CellRole.SPENT, "▶● 4": CellRole.ACTING}


def test_markers_ticks_spent_gaps_and_carried_cells_have_their_roles():
    f = play("alta Ana ac=6 momento=5", "alta Bea ac=6 momento=1", "empezar", "ana gasta 2",
             "ana retrasa").fight  # a tick at 3, then holding down to 1
    assert cells(f, "Ana") == {
        "Ana": CellRole.NAME, "│": CellRole.SPENT, "├ 4": CellRole.TICK, "╎": CellRole.GAP,
        "‖ 4": CellRole.MARKER,
    }
    carried = play("alta Ana ac=6 momento=3", "alta Bea ac=6 momento=5", "empezar",
                   "bea gasta 6", "ana gasta 4", "ana disparar-armas-pesadas", "turno").fight
    assert cells(carried, "Ana") == {"Ana 6": CellRole.NAME, "┊": CellRole.CARRIED}


# ---------------------------------------------------------------- the side panel


def test_panel_lines_say_what_their_value_is():
    f = play(*demo_lines(), "mike gasta 7").fight
    rows = {row.label: row.role for row in panel_rows(f.find("Mike"), f)}
    assert rows["AC"] is RowRole.AC and rows["Estado"] is RowRole.DIM
    f = play(*demo_lines(), "mike apuntar", "estado Mike +agarrado").fight
    rows = {row.label: row.role for row in panel_rows(f.find("Mike"), f)}
    assert rows["Apuntar"] is RowRole.GOOD and rows["Estados"] is RowRole.WARNING


# ---------------------------------------------------------------- the picker's rows


def test_picker_rows_say_what_the_engine_would_do():
    f = play(*demo_lines()).fight
    mike = choices(f, "Mike")
    assert mike["disparar-armas-largas"].state is ChoiceState.NOW
    assert mike["mover"].state is ChoiceState.VARIABLE and mike["mover"].allowed
    sven = choices(f, "Sven")  # not his moment
    assert sven["disparar-armas-largas"].state is ChoiceState.NOT_NOW
    assert not sven["disparar-armas-largas"].allowed
    assert "no puede Disparar Armas Largas" in sven["disparar-armas-largas"].why
    assert sven["esquivar"].state is ChoiceState.NOW


def test_a_short_carried_or_refused_row_has_its_state_and_the_engines_reason():
    f = play("alta Ana ac=4 momento=5", "empezar", "ana gasta 3").fight  # 1 AC left
    ana = choices(f, "Ana")
    assert ana["disparar-armas-largas"].state is ChoiceState.CARRIED
    assert ana["disparar-armas-largas"].hint == "faltan 2 AC: se completa el turno siguiente"
    assert ana["parada"].state is ChoiceState.SHORT and ana["parada"].hint == "faltan 1 AC: no puede"
    heavy = ana["disparar-armas-pesadas"]  # 4 AC: she has 4 a turn, fine
    assert heavy.state is ChoiceState.CARRIED
    aimed = choices(play("alta Ana ac=8 momento=5", "empezar", "ana apuntar").fight, "Ana")
    assert aimed["apuntar"].state is ChoiceState.REFUSED
    assert aimed["apuntar"].hint == aimed["apuntar"].why
    assert "una vez por turno" in aimed["apuntar"].why


# ---------------------------------------------------------------- the widgets style by role


def test_every_role_has_a_style_in_its_widget():
    from cdbtui.tui.screens.picker import HINT_STYLES
    from cdbtui.tui.widgets.panel import ROLE_CLASS, SidePanel
    from cdbtui.tui.widgets.sheet import CELL_STYLES, PLACE_ROLES

    assert set(ROLE_CLASS) == set(RowRole)
    for name in filter(None, ROLE_CLASS.values()):  # each class has its rule
        assert name in SidePanel.COMPONENT_CLASSES and f".{name}" in SidePanel.DEFAULT_CSS
    assert set(HINT_STYLES) == set(ChoiceState)
    styled = set(CELL_STYLES) | PLACE_ROLES | {CellRole.EMPTY}
    assert styled == set(CellRole)


def test_no_widget_styles_by_a_glyph_or_a_word_of_the_text():
    sniffing = re.compile(r"""startswith\(\s*["'](▶|faltan)|["']faltan["']\s+in\b""")
    for path in TUI.rglob("*.py"):
        assert not sniffing.search(path.read_text("utf-8")), path
