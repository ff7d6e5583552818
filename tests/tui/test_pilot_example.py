"""The seeds' worked example (RULES.md §7) played from the keyboard alone.

The markers and AC after each moment are the table of RULES.md §7; at the end the
app's fight must equal the engine's fight for the same command lines, and the save
on disk must hold it (autosave after every key).  Turn 2 starts from a save of
those lines at the end of turn 1.
"""

from __future__ import annotations

from cdbtui.engine.model import Status
from cdbtui.engine.session import Session
from cdbtui.store import load
from conftest import EXAMPLE_TURN_1, SEED, demo_lines
from helpers import keys, pick, state

from screen_text import screen_text


async def play_turn_1(app, pilot) -> None:
    """Turn 1 of the example, key by key; asserts each row of the table."""
    assert app.selected == "Mike" and app.fight.moment == 7
    await pick(pilot, "armas largas")                     # M7 Mike shoots (3)
    assert state(app, "Mike") == (4, 4)
    assert app.selected == "Soldado 1"                   # the selection follows the queue
    await keys(pilot, "c")                               # Sold. 1 takes cover (reaction)
    assert state(app, "Soldado 1") == (5, 5)
    assert app.fight.moment == 5 and app.selected == "Sven"
    await pick(pilot, "armas largas")                    # M5 Sven shoots (3)
    assert state(app, "Sven") == (2, 2)
    assert app.selected == "Soldado 1"
    await keys(pilot, "l", "l")                          # move to Soldado 2
    assert app.selected == "Soldado 2"
    await keys(pilot, "c")                               # Sold. 2 takes cover (1)
    assert state(app, "Soldado 2") == (3, 4)
    assert app.selected == "Soldado 2"  # a reaction out of turn: the selection stays
    await keys(pilot, "tab")                             # back to the queue: Soldado 1
    assert app.selected == "Soldado 1"
    await pick(pilot, "armas largas")                    # Sold. 1 shoots (3)
    assert state(app, "Soldado 1") == (2, 2)
    assert app.fight.moment == 4 and app.selected == "Mike"
    await keys(pilot, "c")                               # M4 Mike takes cover (1)
    assert state(app, "Mike") == (3, 3)
    assert app.fight.moment == 3
    await keys(pilot, "l", "l", "l")                     # Mike → Sold. 1 → Sven → Sold. 2
    assert app.selected == "Soldado 2"
    await pick(pilot, "armas largas")                    # M3 Sold. 2 shoots (3)
    assert state(app, "Soldado 2") == (0, 1)
    assert app.selected == "Soldado 2"  # not the head: the selection stays
    await keys(pilot, "tab")                             # the queue's head: Mike
    assert app.selected == "Mike"
    await pick(pilot, "apuntar")                         # Mike aims (2)
    assert state(app, "Mike") == (1, 1)
    assert app.fight.moment == 2
    await keys(pilot, "h")                               # Sven is first at 2 (Atención)
    assert app.selected == "Soldado 1"
    await pick(pilot, "apuntar")                         # M2 Sold. 1 aims (2): done
    assert state(app, "Soldado 1") == (0, 0)
    assert app.fight.find("Soldado 1").status is Status.DONE
    assert app.selected == "Soldado 1"  # not the head: the selection stays
    await keys(pilot, "tab")                             # the queue's head: Sven
    assert app.selected == "Sven"
    await pick(pilot, "armas largas")                    # Sven: 2 of 3 AC, carries 1
    assert state(app, "Sven") == (0, 0)
    assert app.fight.find("Sven").carried.remaining == 1
    assert app.fight.moment == 1 and app.selected == "Mike"
    await pick(pilot, "armas largas")                    # M1 Mike: 1 of 3, carries 2
    assert state(app, "Mike") == (0, 0)
    assert app.fight.find("Mike").carried.remaining == 2
    assert app.fight.moment == 0 and app.selected == "Soldado 2"
    await pick(pilot, "armas largas")                    # M0 Sold. 2: 1 of 3, carries 2
    assert state(app, "Soldado 2") == (-1, 0)
    assert app.fight.find("Soldado 2").carried.remaining == 2
    assert app.fight.turn_over


async def test_worked_example_turn_1_from_the_keyboard(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await play_turn_1(app, pilot)
        # The app proposes the new turn; Escape declines, the turn stays over.
        await keys(pilot, "escape")
        assert app.fight.turn == 1 and app.fight.turn_over
        # Same state as the engine given the same lines, and the same on disk.
        engine = Session.new("combate", "cdb", SEED)
        for line in [*demo_lines(), *EXAMPLE_TURN_1]:
            engine.execute(line)
        for c in engine.fight.combatants:
            mine = app.fight.find(c.name)
            assert (mine.marker, mine.ac, mine.status, mine.carried) == (
                c.marker, c.ac, c.status, c.carried)
        assert load(app.path).fight == app.fight


async def test_worked_example_turn_2_completes_carried_maneuvers(make_app):
    # From a save at the end of turn 1 (the same lines the test above plays by key
    # and compares with the engine), not by pressing through turn 1 again.
    app = make_app([*demo_lines(), *EXAMPLE_TURN_1])
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.fight.turn == 1 and app.fight.turn_over
        assert [app.fight.find(n).carried.remaining for n in ("Sven", "Mike", "Soldado 2")] == [
            1, 2, 2]
        await keys(pilot, "t")                           # start the new turn
        assert app.fight.turn == 2
        assert state(app, "Mike") == (5, 5)              # completes at 7 → 5
        assert app.fight.find("Mike").carried is None
        assert app.fight.moment == 6 and app.selected == "Soldado 1"
        await keys(pilot, "space")                       # Sold. 1 holds; on to 5
        assert app.fight.find("Soldado 1").status is Status.HOLDING
        assert state(app, "Sven") == (4, 4)              # completes at 5 → 4
        await keys(pilot, "space")                       # on to 4
        assert state(app, "Soldado 2") == (2, 3)         # completes at 4 → 2
        text = screen_text(app)
        assert "Turno 2" in text and "completa" in text
        assert load(app.path).fight == app.fight
