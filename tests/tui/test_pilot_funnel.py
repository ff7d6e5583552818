"""Undo and redo are told by what the funnel did, not by what was typed (issue 10):
`:Deshacer`, `:UNDO` and `u` after the last combatant's go behave the same."""

from __future__ import annotations

import pytest
from conftest import demo_lines
from helpers import keys
from screen_text import screen_text

from cdbtui.tui.app import CdbApp

SIZE = (120, 36)


@pytest.mark.parametrize("undo", [["u"], [":", *"Deshacer", "enter"], [":", *"UNDO", "enter"]])
async def test_undo_right_after_turno_never_proposes_the_turn_again(save_from, undo):
    path = save_from([*demo_lines(), "Mike fin", "Sven fin", '"Soldado 1" fin'])
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "f")  # the last one: the turn is over, the app proposes turn 2
        assert "Empezar el turno 2" in screen_text(app)
        await keys(pilot, "enter")  # «sí»: turno
        assert app.fight.turn == 2
        await keys(pilot, *undo)  # back to the end of turn 1: an undo, not a new end
        assert app.fight.turn == 1 and app.fight.turn_over
        assert "Empezar el turno 2" not in screen_text(app)
