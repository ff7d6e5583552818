"""Issue 11 on screen (RULES.md §3, §5): the DJ's header says where a reaction lands
while the reaction window is open at a moment the countdown has left; the panel shows
notes and what is left of durations and says "oculto"; the DJ's sheet marks hidden
columns; `revelar` / `ocultar` change the sheet and the players' view from then on."""

from __future__ import annotations

from conftest import EXAMPLE_TURN_1, demo_lines
from helpers import keys
from screen_text import screen_text

from cdbtui.tui.player import PlayerApp
from cdbtui.view import HIDDEN_MARK

SIZE = (120, 36)
#: The seeds' table up to Soldado 1's cover at 7; the countdown is at 5.
MID_TURN = [*demo_lines(), *EXAMPLE_TURN_1[:2]]
#: The demo with a hidden Ninja starting at 6.
WITH_NINJA = [*demo_lines()[:-1], "alta Ninja ac=6 agi=5 momento=6 oculto", "empezar"]


def header(app) -> str:
    return screen_text(app).splitlines()[0]


def panel_lines(app) -> list[str]:
    """The side panel's lines as painted (inside its border), trailing spaces off."""
    lines = []
    for line in screen_text(app).splitlines()[2:]:
        if "││" not in line:
            break
        lines.append(line.split("││", 1)[1].rstrip("│ ").removeprefix(" "))
    return lines


async def test_the_header_says_where_a_reaction_lands_while_the_window_is_open(make_app):
    app = make_app(MID_TURN)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.fight.window.moment == 7 and app.fight.moment == 5
        assert "Momento 5 · Actúa: Sven, luego Soldado 1 · reacciones a M7 ·" in header(app)
        app.run_line('"soldado 2" ponerse-a-cubierto')  # still answering Mike's shot
        await pilot.pause()
        assert "reacciones a M7" in header(app)
        assert app.fight.find("Soldado 2").marker == 3
        app.run_line("sven disparar-armas-largas")  # a new action at 5: the window moves
        await pilot.pause()
        assert "reacciones a M7" not in header(app)


async def test_the_header_drops_the_window_once_a_command_closes_it(make_app):
    app = make_app(demo_lines())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "reacciones" not in header(app)
        app.run_line("mike gasta 1")  # 7 → 6: the countdown left the action's moment
        await pilot.pause()
        assert app.fight.moment == 6 and "reacciones a M7" in header(app)
        app.run_line("siguiente")
        await pilot.pause()
        assert app.fight.window is None and "reacciones" not in header(app)


async def test_the_panel_shows_notes_and_what_is_left_of_durations(make_app):
    app = make_app([*demo_lines(), "nota sven cojea turnos=2", "estado sven +aturdido turnos=1",
                    "nota sven lleva la llave"])
    async with app.run_test(size=SIZE) as pilot:
        app.select("Sven")
        await pilot.pause()
        panel = panel_lines(app)
        # Values wrap under themselves, keeping "· 1 turno" whole.
        assert panel[panel.index("Estados    aturdido") + 1] == " " * 11 + "· 1 turno"
        assert panel[panel.index("Notas      cojea") + 1] == " " * 11 + "· 2 turnos"
        assert " " * 11 + "lleva la llave" in panel
        assert panel[-1].startswith("Este turno")  # the panel grows: nothing is cut off
        app.run_line("nota sven -")
        await pilot.pause()
        assert not any("cojea" in line for line in panel_lines(app))


async def test_the_djs_sheet_marks_a_hidden_column_and_the_panel_says_oculto(make_app):
    app = make_app(WITH_NINJA)
    async with app.run_test(size=SIZE) as pilot:
        app.select("Ninja")
        await pilot.pause()
        text = screen_text(app)
        assert f"{HIDDEN_MARK}Ninja" in text
        assert "Ninja · PNJ · oculto" in text
        await keys(pilot, "l")
        assert "Ninja · PNJ · oculto" not in screen_text(app)
        app.run_line("revelar ninja")
        app.select("Ninja")
        await pilot.pause()
        text = screen_text(app)
        assert f"{HIDDEN_MARK}Ninja" not in text and "Ninja · PNJ" in text
        assert "Ninja · PNJ · oculto" not in text
        app.run_line("ocultar ninja")
        await pilot.pause()
        assert f"{HIDDEN_MARK}Ninja" in screen_text(app)


async def test_the_player_view_shows_a_revealed_pnj_but_not_its_hidden_past(save_from):
    path = save_from([*WITH_NINJA, "mike gasta 1 mira", "ninja gasta 2 se acerca",
                      "nota ninja acecha", "revelar ninja", '"soldado 1" gasta 1 dispara'])
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Ninja" in text  # its column, and the reveal's line
        assert "se acerca" not in text and "acecha" not in text
        assert "Alta de Ninja" not in text
        assert "reacciones" not in text and HIDDEN_MARK not in text
