"""The dialogs: maneuver picker, `:` line, add form, initiative set-up, help, palette."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from cdbtui.engine.model import Status
from cdbtui.tui.screens.picker import ManeuverPicker
from helpers import keys, pick, state
from screen_text import screen_text

SIZE = (120, 36)


def shown_ids(app) -> list[str]:
    return [ch.id for ch in app.screen.shown]


# ---------------------------------------------------------------- picker

async def test_picker_filters_without_accents_and_shows_talent_costs(make_app):
    lines = [
        "alta Bruce ac=6 bando=pj talentos=artista-marcial momento=6",
        "alta Kato ac=6 bando=pnj momento=5",
        "empezar",
    ]
    app = make_app(lines)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "enter")
        assert isinstance(app.screen, ManeuverPicker)
        all_ids = shown_ids(app)
        assert "proyectar" in all_ids  # Bruce has Artista Marcial
        # The filter's rules are tests/test_picker_and_completion.py's; here the list
        # on screen follows what is typed, accents and case ignored.
        await pilot.press(*"PUÑ")
        await pilot.pause()
        assert shown_ids(app) == ["punetazo"]
        await keys(pilot, *["backspace"] * 3)
        await pilot.press(*"presa")
        await pilot.pause()
        presa = next(ch for ch in app.screen.shown if ch.id == "presa")
        assert presa.cost == 3  # 4, one less with Artista Marcial
        assert "3 AC" in screen_text(app)
        await keys(pilot, "escape")
        assert not isinstance(app.screen, ManeuverPicker)
        assert state(app, "Bruce") == (6, 6)


async def test_picker_marks_attacks_in_italics_and_reactions(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "enter")
        # The rows are `choice_prompt`'s (tests/tui/test_picker_rows.py): the list has them.
        option = app.screen.query_one(OptionList).get_option("disparar-armas-largas")
        content = option.prompt
        italic = [span for span in content.spans if "italic" in str(span.style)]
        assert italic and content.plain[italic[0].start:italic[0].end] == "Disparar Armas Largas"
        await pilot.press(*"cubierto")
        await pilot.pause()
        assert "reacción" in screen_text(app)


async def test_picker_says_when_a_maneuver_will_be_carried(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "5")  # Mike: 2 AC left at moment 2
        await keys(pilot, "h")  # back to Mike (the selection followed the queue)
        assert app.selected == "Mike"
        await keys(pilot, "enter")
        await pilot.press(*"armas largas")
        await pilot.pause()
        assert "faltan 1 AC: se completa el turno siguiente" in screen_text(app)


async def test_picker_asks_the_movement_ac_of_a_variable_cost(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pick(pilot, "carga", amount=2)
        await keys(pilot, "escape")  # an attack: the target step, Esc for none
        assert state(app, "Mike") == (2, 2)  # Carga 3 + 2 AC of movement
        assert "Carga" in app.fight.find("Mike").maneuvers


async def test_waiter_picks_an_interrupting_maneuver(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "w")
        await pilot.press(*"que asome")
        await keys(pilot, "enter")
        await keys(pilot, "h")
        assert app.selected == "Mike"
        await pick(pilot, "armas largas")
        await keys(pilot, "escape")  # an attack: the target step, Esc for none
        assert app.fight.find("Mike").status is not Status.WAITING
        assert any("interrumpe" in e.text for e in app.fight.log)


# ---------------------------------------------------------------- : line

async def test_command_line_runs_any_command(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "colon")
        await pilot.press(*"dano sven 3")
        await keys(pilot, "enter")
        assert app.fight.find("Sven").wounds.marked == 3


async def test_a_refused_command_line_comes_back_to_be_mended(make_app):
    """A typo on the «:» line costs one key, not the whole line: the refusal is told,
    the line opens again as typed; Esc gives it up, and nothing ran meanwhile."""
    from cdbtui.tui.screens.prompt import CommandLine

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before, lines = app.fight, list(app.session.lines)
        await keys(pilot, "colon")
        await pilot.press(*"dano sven x")
        await keys(pilot, "enter")
        assert isinstance(app.screen, CommandLine)
        assert app.screen.query_one(Input).value == "dano sven x"
        assert any("no es un número" in str(n.message) for n in app._notifications)
        assert app.fight == before and list(app.session.lines) == lines
        await keys(pilot, "backspace")
        await pilot.press("3")
        await keys(pilot, "enter")
        assert not isinstance(app.screen, CommandLine)
        assert app.fight.find("Sven").wounds.marked == 3
        await keys(pilot, "colon")
        await pilot.press(*"nadie fin")
        await keys(pilot, "enter", "escape")
        assert not isinstance(app.screen, CommandLine) and len(app.session.lines) == len(lines) + 1


async def test_command_line_completes_names_and_maneuvers(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "colon")
        await pilot.press(*"mi")
        await keys(pilot, "tab")
        box = app.screen.query_one(Input)
        assert box.value == "Mike "
        assert not box.cursor_blink  # conftest's autouse `no_blink`, in every test
        await pilot.press(*"disparar-armas-la")
        await keys(pilot, "tab")
        assert box.value == "Mike disparar-armas-largas "
        await pilot.press(*"so")
        await pilot.pause()
        assert '"Soldado 1"' in screen_text(app) or "Soldado 1" in screen_text(app)
        await keys(pilot, *["backspace"] * 3, "enter")
        assert state(app, "Mike") == (4, 4)


# ---------------------------------------------------------------- add form

async def test_add_form_adds_a_combatant_mid_fight(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a")
        await keys(pilot, "enter")  # no name: the form says so and stays
        assert "Falta el nombre" in screen_text(app)
        await pilot.press(*"Soldado 3")
        await keys(pilot, "tab")
        await pilot.press(*"4")          # AC
        await keys(pilot, "tab", "tab", "tab", "tab", "tab")
        await pilot.press(*"6")          # start moment
        await keys(pilot, "enter")
        new = app.fight.find("Soldado 3")
        assert new is not None and new.ac_per_turn == 4 and new.start == 6
        assert new.marker == 6 and new.status is Status.READY
        assert "Soldado 3" in screen_text(app)


# A refused line: tests/tui/test_pilot_forms.py (with the rest of the form).


# ---------------------------------------------------------------- initiative

async def test_initiative_setup_types_rolls_and_begins(make_app):
    lines = [
        "alta Mike ac=7 ini=4 bando=pj",
        "alta Sven ac=5 ini=2 bando=pj",
        '"alta" "Soldado 1" ac=6 ini=3',
    ]
    app = make_app(lines[:2] + ['alta "Soldado 1" ac=6 ini=3'])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.fight.started
        # The dialog itself (`i` on a combatant without a start moment now opens its
        # «momento» line instead: the fight screen's tests cover the key).
        app.open_setup()
        await pilot.pause()
        text = screen_text(app)
        assert "Momentos iniciales" in text and "INI" in text
        await pilot.press(*"9")
        await keys(pilot, "enter")       # Mike's typed total
        assert app.fight.find("Mike").start == 9
        await keys(pilot, "ctrl+r")      # roll for the others
        assert all(c.start is not None for c in app.fight.combatants)
        await keys(pilot, "ctrl+b")
        assert app.fight.started and app.fight.turn == 1
        assert app.selected == "Mike"


# ---------------------------------------------------------------- help, palette

async def test_help_lists_keys_marks_and_rule_decisions(make_app):
    app = make_app()
    async with app.run_test(size=(120, 80)) as pilot:
        await pilot.pause()
        await keys(pilot, "question_mark")
        text = screen_text(app)
        assert "Teclas" in text and "Marcas de la plantilla" in text
        await keys(pilot, "end")
        text = screen_text(app)
        assert "Ventana de reacción" in text and "Hordas" in text  # issue 11's, and the last
        await keys(pilot, "pageup")
        text = screen_text(app)
        assert "Decisiones de reglas" in text and "Disparar Arcos" in text
        await keys(pilot, "escape")
        assert "Decisiones de reglas" not in screen_text(app)


async def test_palette_offers_the_same_commands(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+p")
        await pilot.press(*"avanzar")
        await pilot.pause(0.3)
        await keys(pilot, "enter")
        await pilot.pause(0.2)
        assert app.fight.moment == 6


async def test_palette_runs_a_typed_command_line(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+p")
        await pilot.press(*"mike gasta 2")
        await pilot.pause(0.3)
        await keys(pilot, "enter")
        await pilot.pause(0.2)
        assert state(app, "Mike") == (5, 5)
