"""Snapshots of the players' view at 120×36, normal and large (`grande`), mid-turn
with a hidden PNJ in the queue and a private PNJ: neither may show.

`snap_compare` is a synchronous fixture, so these are plain `def` tests.  Update
with `pytest tests/tui/test_player_snapshots.py --snapshot-update` only after
looking at the report.
"""

from __future__ import annotations

import pytest

from cdbtui.tui.player import PlayerApp
from conftest import EXAMPLE_TURN_1, demo_lines
from screen_text import screen_text

#: SHEET.md's moment 5 (Mike shot, Soldado 1 took cover), with a hidden Ninja who
#: waits at moment 5 too and a private Soldado 2.
HIDDEN_MID_TURN = [
    *demo_lines()[:-1], "alta Ninja ac=6 agi=5 momento=5 oculto", "empezar", *EXAMPLE_TURN_1[:2],
]


async def settle(pilot) -> None:
    await pilot.pause()
    text = screen_text(pilot.app)
    assert "ninja" not in text.casefold()
    assert "Actúa: Sven" in text or "Actúa: SVEN" in text


@pytest.mark.parametrize("large", [False, True], ids=["normal", "grande"])
def test_player_view_with_a_hidden_pnj(snap_compare, save_from, large):
    app = PlayerApp(save_from(HIDDEN_MID_TURN), large=large, poll_seconds=3600)
    assert snap_compare(app, terminal_size=(120, 36), run_before=settle)


def test_player_view_with_twelve(snap_compare, save_from):
    """Issue 12: the players' view of twelve combatants fits 120 columns; the hidden
    Ninja is not there."""
    from test_snapshots import TWELVE

    app = PlayerApp(save_from(TWELVE), poll_seconds=3600)

    async def settled(pilot) -> None:
        await pilot.pause()
        assert "ninja" not in screen_text(pilot.app).casefold()

    assert snap_compare(app, terminal_size=(120, 36), run_before=settled)
