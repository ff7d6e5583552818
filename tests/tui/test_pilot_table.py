"""Issue 12 at the table: the selection obeys, the DJ's keys, confirmations, feedback,
Spanish everywhere, back to the list, room for the log and the legend.

Each test starts one app and walks several checks (an app start is the dear part).
"""

from __future__ import annotations

from cdbtui.roster import load_roster
from cdbtui.store import load
from cdbtui.tui.app import CdbApp
from cdbtui.tui.screens.confirm import Confirm
from cdbtui.tui.screens.fight import ac_left
from cdbtui.tui.screens.help import help_markdown
from cdbtui.tui.screens.prompt import CommandLine
from cdbtui.tui.screens.start import StartScreen
from cdbtui.view import selection_order
from conftest import demo_lines, write_save
from helpers import keys
from fights import TWELVE
from screen_text import screen_text

SIZE = (120, 36)



def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


def panel_title(app) -> str:
    return str(app.screen.query_one("#panel").border_title)


async def test_arrows_tab_and_the_finder_reach_everyone_of_twelve(make_app):
    app = make_app(TWELVE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        order = selection_order(app.fight)
        assert len(order) == 12 and app.selected == "Mike"
        # → walks every column, the panel following, also where the columns don't
        # fit and the sheet could scroll (the sheet's own arrow keys never win).
        await pilot.resize_terminal(70, 36)
        await pilot.pause()
        sheet = app.screen.query_one("#sheet")
        assert sheet.virtual_size.width > sheet.size.width
        seen = []
        for _ in range(12):
            await pilot.press("right")  # the selection and the panel follow at once
            seen.append(app.selected)
            assert panel_title(app).startswith(app.selected)
        start = order.index("Mike")
        assert seen == [order[(start + i) % 12] for i in range(1, 13)]
        await keys(pilot, "left", "h")
        assert app.selected == order[(start - 2) % 12]
        await keys(pilot, "l", "l")
        assert app.selected == "Mike"
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        # Tab walks the queue at moment 7; shift+Tab goes back.
        app.select("Mike")
        walked = []
        for _ in range(3):
            await pilot.press("tab")
            walked.append(app.selected)
        assert walked == ["La Viuda Negra", "Capitán Ñúñez", "Mike"]
        await keys(pilot, "shift+tab")
        assert app.selected == "Capitán Ñúñez"
        assert app.focused is app.screen.query_one("#sheet")  # Tab did not move the focus
        # `/` + letters jumps; without accents; Esc puts the selection back.
        await keys(pilot, "slash", "v", "n", "enter")
        assert app.selected == "La Viuda Negra"
        await keys(pilot, "slash", "n", "u")
        assert app.selected == "Capitán Ñúñez"  # "ñu", accents optional
        assert "Buscar: nu" in screen_text(app)
        await keys(pilot, "tab")  # Tab, while finding: the next name found
        assert app.selected == "Orco número 23"
        await keys(pilot, "shift+tab")
        assert app.selected == "Capitán Ñúñez"
        await keys(pilot, "escape")
        assert app.selected == "La Viuda Negra"
        assert "Buscar:" not in screen_text(app)
        # "Orco número 23" in three keys; once only one is left, the next key is
        # for it (here `d`: damage, on the `:` line).
        await keys(pilot, "slash", "2", "3")
        assert app.selected == "Orco número 23"
        await keys(pilot, "d")
        assert isinstance(app.screen, CommandLine)
        assert app.screen.query_one("#command-input").value == 'dano "Orco número 23" '
        await keys(pilot, "escape")
        # Nobody by that name: the finder says so and the selection stays.
        await keys(pilot, "slash", "s", "o", "x")
        assert app.selected == "Soldado 1" and "nadie más" in screen_text(app)
        await keys(pilot, "tab")  # Tab walks what «so» found
        assert app.selected == "Soldado 2" and "Buscar:" in screen_text(app)
        await keys(pilot, "escape")
        # Nothing typed yet: Tab walks nothing (not the queue) while the finder is open.
        before = app.selected
        await keys(pilot, "slash", "tab")
        assert app.selected == before and "Buscar:" in screen_text(app)
        await keys(pilot, "escape")
        # h and l are letters while finding, not the selection's keys; → closes the
        # finder and moves on from what it found (the sheet never scrolls instead).
        await keys(pilot, "slash", "l", "a")
        assert app.selected == "La Viuda Negra" and "Buscar: la" in screen_text(app)
        await keys(pilot, "right")
        assert app.selected == order[(order.index("La Viuda Negra") + 1) % 12]
        assert "Buscar:" not in screen_text(app)


async def test_the_selection_stays_on_who_acted_while_it_may_still(make_app):
    app = make_app(TWELVE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "tab")  # the second at moment 7
        assert app.selected == "La Viuda Negra"
        await keys(pilot, "1")
        viuda = app.fight.find("La Viuda Negra")
        assert (viuda.marker, viuda.ac) == (6, 5)
        assert app.selected == "La Viuda Negra"  # not the head: it stays
        mike_before = app.fight.find("Mike")
        await keys(pilot, "1")  # a second AC: refused for her, never Mike's
        assert app.fight.find("Mike") == mike_before
        assert any("La Viuda Negra" in n for n in notes(app))
        # Undo, redo and a command about someone keep the selection: the next key
        # is still hers, never the head's.
        await keys(pilot, "u")
        assert app.selected == "La Viuda Negra" and app.fight.find("La Viuda Negra").ac == 6
        await keys(pilot, "ctrl+y")
        assert app.selected == "La Viuda Negra" and app.fight.find("La Viuda Negra").ac == 5
        await keys(pilot, "colon")
        await pilot.press(*"dano soldado 1 2")
        await keys(pilot, "enter")
        assert app.fight.find("Soldado 1").wounds.marked == 2
        assert app.selected == "La Viuda Negra"
        app.select("Mike")
        await keys(pilot, "1")  # the head finished at 7: the queue's next
        assert app.selected == "Capitán Ñúñez"
        await keys(pilot, "r")  # the captain holds: moment 6
        assert app.fight.moment == 6
        await keys(pilot, "slash", "c")  # the captain, and `r` for him: act now
        assert app.selected == "Capitán Ñúñez"
        await keys(pilot, "r")
        assert app.fight.find("Capitán Ñúñez").acting
        assert app.selected == "Capitán Ñúñez"  # it may act now: it stays
        # A command typed on the `:` line by the selected works the same way.
        await keys(pilot, "colon")
        await pilot.press(*'"Capitán Ñúñez" gasta 1')
        await keys(pilot, "enter")
        assert app.fight.find("Capitán Ñúñez").ac == 6
        assert app.selected == "Capitán Ñúñez"


async def test_t_asks_while_anyone_has_ac_and_undo_says_what(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "3")
        left = ac_left(app.fight)
        assert left[0] == ("Mike", 4) and len(left) == 4
        await keys(pilot, "t")
        assert isinstance(app.screen, Confirm)
        expected = "Quedan AC: " + ", ".join(f"{n} {ac}" for n, ac in left) + "."
        assert app.screen.statement == expected
        assert "¿Cerrar el turno?" in screen_text(app)
        await keys(pilot, "s", "y")  # letters meant for the sheet never answer «sí»
        assert isinstance(app.screen, Confirm) and app.fight.turn == 1
        await keys(pilot, "n")
        assert app.fight.turn == 1
        await keys(pilot, "ctrl+p")  # the palette's «Turno nuevo» asks the same
        await pilot.press(*"turno nuevo")
        await pilot.pause(0.3)
        await keys(pilot, "enter")
        assert isinstance(app.screen, Confirm) and app.screen.statement == expected
        await keys(pilot, "escape")
        assert app.fight.turn == 1
        await keys(pilot, "t", "enter")
        assert app.fight.turn == 2
        # Undo and redo say what they undid and redid.
        await keys(pilot, "u")
        assert app.fight.turn == 1
        assert notes(app)[-1] == f"Deshecho: {app.session.redo_lines[-1]}" == "Deshecho: turno"
        await keys(pilot, "ctrl+y")
        assert notes(app)[-1] == "Rehecho: turno" and app.fight.turn == 2
        await keys(pilot, "colon")
        await pilot.press(*"deshacer")
        await keys(pilot, "enter")
        assert notes(app)[-1] == "Deshecho: turno"
        await keys(pilot, "u")
        assert notes(app)[-1] == "Deshecho: Mike gasta 3"
        # A key that can't apply says why: Mike is done.
        await keys(pilot, "f")
        app.select("Mike")
        await keys(pilot, "1")
        assert "Mike ya ha terminado este turno" in notes(app)[-1]
        count = len(notes(app))
        await keys(pilot, "enter")
        assert len(notes(app)) == count + 1 and "Mike ya ha terminado" in notes(app)[-1]
        # With nobody's AC left `t` asks nothing (the proposal of turn 2 aside).
        await keys(pilot, "tab")  # back to the queue: its head
        assert app.selected == "Soldado 1"
        for _ in range(3):
            await keys(pilot, "f")  # each the head: the selection follows the queue
        if isinstance(app.screen, Confirm):  # "¿Empezar el turno 2?"
            await keys(pilot, "n")
        assert ac_left(app.fight) == ()
        await keys(pilot, "t")
        assert app.fight.turn == 2 and not isinstance(app.screen, Confirm)


async def test_spanish_quit_palette_help_and_i_for_a_combatant_without_a_moment(make_app):
    app = make_app([*demo_lines(), "alta Ana ac=5"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+c")
        assert app.is_running
        quit_note = list(app._notifications)[-1]
        assert quit_note.title == "¿Quieres salir?"
        assert "ctrl+q" in quit_note.message and "quit" not in quit_note.message.lower()
        footer = screen_text(app).splitlines()[-1]
        assert "paleta" in footer and "palette" not in footer
        names = [c.title for c in app.get_system_commands(app.screen)]
        assert names == ["Tema", "Salir"]
        await keys(pilot, "ctrl+p")
        text = screen_text(app)
        assert "Busca una orden" in text
        for english in ("Keys", "Maximize", "Screenshot", "Theme", "Quit"):
            assert english not in text
        await pilot.press(*"zzqx")
        await pilot.pause(0.7)  # the palette says so after half a second
        text = screen_text(app)
        assert "Ninguna orden coincide" in text and "No matches" not in text
        await keys(pilot, "escape")
        assert ".md" not in help_markdown()  # no developer's files in the help
        # Ana has no start moment: ← from the first column reaches her (the last),
        # and `i` offers her «momento» line.
        assert selection_order(app.fight)[-1] == "Ana"
        app.select("Mike")
        await keys(pilot, "left")
        assert app.selected == "Ana"
        await keys(pilot, "i")
        assert isinstance(app.screen, CommandLine)
        assert app.screen.query_one("#command-input").value == "momento Ana "
        await pilot.press("3")
        await keys(pilot, "enter")
        assert app.fight.find("Ana").start == 3
        assert load(app.path).fight == app.fight


async def test_q_goes_back_to_the_list_and_G_asks_for_a_pnj(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    path = write_save(saves / "puerto.toml", demo_lines())
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "enter")
        assert app.path == path and app.fight.started
        await keys(pilot, "3")
        fight = app.fight
        # G on a PNJ asks first; «no» saves nobody, «sí» saves it.
        app.select("Soldado 1")
        await keys(pilot, "G")
        assert isinstance(app.screen, Confirm) and "PNJ" in app.screen.statement
        await keys(pilot, "n")
        assert load_roster(saves) == []
        await keys(pilot, "G", "enter")
        assert [m.name for m in load_roster(saves)] == ["Soldado 1"]
        app.select("Mike")
        await keys(pilot, "G")  # a PJ: no question
        assert not isinstance(app.screen, Confirm)
        assert [m.name for m in load_roster(saves)] == ["Soldado 1", "Mike"]
        # q: back to the list, the save intact and tidy; ⏎ opens it again.
        await keys(pilot, "q")
        assert isinstance(app.screen, StartScreen) and app.is_running
        assert app.fight is None and app.save_file is None
        assert load(path).fight == fight
        assert "Emboscada en el puerto" in screen_text(app)
        await keys(pilot, "enter")
        assert app.path == path and app.fight == fight
        await keys(pilot, "ctrl+q")
    assert not app.is_running


async def test_the_log_grows_with_the_terminal_and_the_legend_folds(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#log")
        legend = app.screen.query_one("#legend")
        short = log.size.height
        assert short >= 6  # 4 lines before: 6 rows with its border
        assert legend.has_class("-folded") and "Leyenda (L)" in screen_text(app)
        await pilot.resize_terminal(120, 55)
        await pilot.pause()
        assert log.size.height >= short + 4
        assert not legend.has_class("-folded")  # 40 rows or more: shown
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert legend.has_class("-folded")
        await keys(pilot, "L")  # the DJ's choice wins over the height
        assert not legend.has_class("-folded")
        assert "Leyenda (L)" not in screen_text(app)
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert not legend.has_class("-folded")
        await keys(pilot, "L")
        assert legend.has_class("-folded")


def test_ac_left_lists_those_in_play_with_ac_in_the_sheets_order():
    """What `t` asks about: nobody done, nobody without AC, the sheet's order."""
    from fights import play

    session = play(*demo_lines(), "mike gasta 7", '"Soldado 1" fin')
    assert ac_left(session.fight) == (("Sven", 5), ("Soldado 2", 5))
    session.execute("estado Sven +incapacitado")  # no maneuvers: nothing to spend
    assert ac_left(session.fight) == (("Soldado 2", 5),)
