"""The keys, the picker and the palette ask the engine what the selected combatant may
do now (`engine.options`): a key that does not apply is not in the footer and, pressed
anyway, says why; the picker and the palette offer what the engine would accept."""

from __future__ import annotations

from textual.widgets import OptionList

from cdbtui.engine.model import Status
from cdbtui.tui.commands import FightCommands
from cdbtui.tui.screens.fight import FightScreen
from cdbtui.tui.screens.picker import ManeuverPicker
from helpers import keys
from screen_text import screen_text

SIZE = (160, 36)


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_outside_its_moment_hold_and_wait_leave_the_footer_and_say_why(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "r retrasar" in footer(app) and "w esperar" in footer(app)
        await keys(pilot, "l", "l")
        assert app.selected == "Sven"
        assert "r retrasar" not in footer(app) and "w esperar" not in footer(app)
        assert "e esquivar" in footer(app) and "⏎ maniobra" in footer(app)
        before = app.fight
        await keys(pilot, "r")
        assert app.fight is before  # nothing ran
        assert any("Sven actúa en el momento 5; ahora es el momento 7" in n for n in notes(app))
        await keys(pilot, "e")  # a reaction applies at any moment
        assert "Esquivar" in app.fight.find("Sven").maneuvers


async def test_a_done_combatant_has_no_maneuver_or_decline_key(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "7")  # Mike spends everything
        await keys(pilot, "h")
        assert app.selected == "Mike" and app.fight.find("Mike").status is Status.DONE
        assert "⏎ maniobra" not in footer(app) and "f fin" not in footer(app)
        await keys(pilot, "enter")
        assert isinstance(app.screen, FightScreen)  # no picker
        assert any("Mike ya ha terminado este turno" in n for n in notes(app))


async def test_a_holder_acts_now_with_the_same_key(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "r", "h")
        assert app.selected == "Mike" and "r retrasar" in footer(app)
        await keys(pilot, "r")
        assert app.fight.find("Mike").acting


async def test_the_picker_out_of_its_moment_offers_reactions_and_keeps_refused_rows_open(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "l", "l", "enter")
        assert isinstance(app.screen, ManeuverPicker)
        assert "Sven reacciona con… (le quedan 5 AC: ahora solo reacciones)" in screen_text(app)
        await pilot.press(*"armas largas")
        await keys(pilot, "enter")
        assert isinstance(app.screen, ManeuverPicker)  # refused: the picker stays
        assert any("no puede Disparar Armas Largas" in n for n in notes(app))
        await keys(pilot, "escape")
        assert app.fight.find("Sven").status is Status.READY


async def test_the_picker_of_a_waiter_interrupts(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.run_line("mike espera la puerta")
        await pilot.pause()
        app.select("Mike")
        await keys(pilot, "enter")
        assert "Mike interrumpe con…" in screen_text(app)
        await pilot.press(*"armas largas")
        await keys(pilot, "enter", "escape")  # an attack: no target
        assert any("interrumpe" in e.text for e in app.fight.log[-3:])
        assert app.fight.find("Mike").status is not Status.WAITING


async def test_the_palette_offers_only_what_the_engine_allows(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        labels = [label for label, _, _ in FightCommands(app.screen)._entries()]
        assert "Mike retrasa" in labels and "Sven esquiva" in labels
        assert "Sven retrasa" not in labels and "Mike actúa ahora" not in labels
        assert "Mike: Disparar Armas Largas (3 AC)" in labels
        assert "Turno nuevo" in labels and "Avanzar la cuenta atrás" in labels
        await keys(pilot, "7")
        app.select("Mike")
        await pilot.pause()
        labels = [label for label, _, _ in FightCommands(app.screen)._entries()]
        assert not any(label.startswith("Mike:") for label in labels)
        assert "Mike fin (declina)" not in labels


async def test_a_refused_row_is_styled_by_its_state_not_by_its_text(make_app):
    app = make_app([*_demo(), "mike gasta 7"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.select("Sven")
        await keys(pilot, "enter")
        option = app.screen.query_one(OptionList).get_option("disparar-armas-largas")
        muted = [s for s in option.prompt.spans if "$text-muted" in str(s.style)]
        assert option.prompt.plain[muted[0].start:muted[0].end] == "Disparar Armas Largas"


def _demo() -> list[str]:
    from conftest import demo_lines

    return demo_lines()
