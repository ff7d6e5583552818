"""Every key of the fight screen, one test each, asserting on the engine's state."""

from __future__ import annotations

from cdbtui.engine.model import Status
from cdbtui.store import load
from helpers import keys, state
from screen_text import screen_text

SIZE = (120, 36)


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_sheet_shows_moments_names_and_marks(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Turno 1 · Momento 7 · Actúa: Mike" in text
        for name in ("Mike", "Sven", "Soldado 1", "Soldado 2"):
            assert name in text
        assert "▸   7 │ ▶Mike 7" in text
        assert "Mom │" in text
        assert "T1 · — Turno 1 —" in text  # the log, newest last
        await keys(pilot, "3")
        assert "Mike: Otra acción (3 AC) → momento 4" in screen_text(app)


async def test_digits_spend_ac_on_a_free_action(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "3")
        assert state(app, "Mike") == (4, 4)
        assert "Otra acción" in app.fight.log[-1].text or "Otra acción" in " ".join(
            e.text for e in app.fight.log[-3:])
        assert app.selected == "Soldado 1"
        await keys(pilot, "2")
        assert state(app, "Soldado 1") == (4, 4)
        assert load(app.path).fight == app.fight  # autosaved


async def test_e_dodges_out_of_turn_for_the_selected(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "l", "l")
        assert app.selected == "Sven"
        await keys(pilot, "e")
        assert state(app, "Sven") == (4, 4)  # reaction: min(5, 7) − 1
        assert "Esquivar" in app.fight.find("Sven").maneuvers
        assert app.selected == "Sven"  # not the head of the queue: the selection stays


async def test_c_takes_cover(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "c")
        assert state(app, "Mike") == (6, 6)
        assert "Ponerse a Cubierto" in app.fight.find("Mike").maneuvers


async def test_r_holds_and_r_again_acts_now(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "r")
        mike = app.fight.find("Mike")
        assert mike.status is Status.HOLDING
        assert app.fight.moment == 6 and app.selected == "Soldado 1"
        await keys(pilot, "h")
        assert app.selected == "Mike"
        await keys(pilot, "r")
        assert app.fight.find("Mike").acting
        assert "‖" in screen_text(app)


async def test_w_waits_with_a_trigger_typed_in_the_command_line(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "w")
        await pilot.press(*"si abren la puerta")
        await keys(pilot, "enter")
        mike = app.fight.find("Mike")
        assert mike.status is Status.WAITING
        assert mike.trigger == "si abren la puerta"
        assert "…" in screen_text(app)


async def test_f_declines(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "f")
        assert app.fight.find("Mike").status is Status.DONE
        assert app.fight.moment == 6


async def test_space_moves_the_countdown_on(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "space")
        assert app.fight.moment == 6
        assert app.fight.find("Mike").status is Status.HOLDING
        assert app.selected == "Soldado 1"


async def test_t_starts_a_new_turn(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "3", "t")
        assert app.fight.turn == 1  # AC are left: it asks first
        await keys(pilot, "enter")
        assert app.fight.turn == 2
        assert state(app, "Mike") == (7, 7)


async def test_new_turn_is_proposed_when_everyone_is_done(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(4):
            await keys(pilot, "f")
        assert app.fight.turn_over
        assert "Empezar el turno 2" in screen_text(app)
        await keys(pilot, "enter")
        assert app.fight.turn == 2 and not app.fight.turn_over


async def test_undo_and_redo(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "3")
        assert state(app, "Mike") == (4, 4)
        await keys(pilot, "u")
        assert state(app, "Mike") == (7, 7)
        await keys(pilot, "ctrl+y")
        assert state(app, "Mike") == (4, 4)
        await keys(pilot, "ctrl+z")
        assert state(app, "Mike") == (7, 7)
        assert load(app.path).fight == app.fight
        await keys(pilot, "ctrl+y", "ctrl+y")  # nothing more to redo: the key is off
        assert state(app, "Mike") == (4, 4)
        assert not app.session.can_redo


async def test_arrows_and_hl_move_the_selection_and_wrap(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        order = ["Mike", "Soldado 1", "Sven", "Soldado 2"]
        seen = [app.selected]
        for key in ("right", "l", "right", "l"):
            await keys(pilot, key)
            seen.append(app.selected)
        assert seen == [*order, "Mike"]
        await keys(pilot, "left")
        assert app.selected == "Soldado 2"
        await keys(pilot, "h")
        assert app.selected == "Sven"
        assert "Sven · PJ" in screen_text(app)  # the side panel follows


async def test_refusals_are_spanish_notifications_and_change_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.fight
        await keys(pilot, "l", "l", "3")  # Sven at moment 7: not his moment
        assert app.fight is before
        assert any("Sven actúa en el momento 5" in n for n in notes(app))
        assert app.selected == "Sven"  # a refused command leaves the selection alone
        await keys(pilot, "colon")
        await pilot.press(*"blablá")
        await keys(pilot, "enter")
        assert app.fight is before
        assert any("blablá" in n for n in notes(app))
        assert app.is_running


async def test_q_quits_and_nothing_is_lost(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "3")
        path = app.path
        fight = app.fight
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running
    assert load(path).fight == fight


async def test_click_selects_a_column(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        sheet = app.screen.query_one("#sheet")
        # Sven's column: gutter (8) + Mike (8+1) + Soldado 1 (13+1), plus the border.
        await pilot.click(sheet, offset=(1 + 8 + 9 + 14 + 2, 3))
        await pilot.pause()
        assert app.selected == "Sven"


async def test_abandoning_a_carried_maneuver_asks_first(make_app):
    from conftest import EXAMPLE_TURN_1, demo_lines
    from cdbtui.tui.screens.confirm import Confirm

    app = make_app([*demo_lines(), *EXAMPLE_TURN_1, "turno"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.fight.find("Sven").carried is not None  # completes at 5; now it is 6
        app.select("Sven")
        await keys(pilot, "e")
        assert isinstance(app.screen, Confirm)
        assert "abandona" in app.screen.statement
        await keys(pilot, "n")
        sven = app.fight.find("Sven")
        assert sven.carried is not None and sven.ac == 5  # «no» changed nothing
        app.select("Sven")
        await keys(pilot, "e", "enter")
        sven = app.fight.find("Sven")
        assert sven.carried is None and sven.ac == 4 and "Esquivar" in sven.maneuvers


async def test_d_opens_damage_for_the_selected_and_s_a_condition(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "l", "l")  # Sven
        await keys(pilot, "d")
        await pilot.press(*"5 rd=1")
        await keys(pilot, "enter")
        sven = app.fight.find("Sven")
        assert sven.wounds.marked == 4 and sven.modifier == -1  # 3 Rasguño + 1 Herido
        app.select("Sven")
        await keys(pilot, "s")
        await pilot.press(*"agarrado")
        await keys(pilot, "enter")
        sven = app.fight.find("Sven")
        assert sven.has("agarrado") and sven.ac == 3  # ⌈5/2⌉ at once
        assert load(app.path).fight == app.fight
