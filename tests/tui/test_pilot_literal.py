"""Every user-provided text is shown literally on screen (issue 9, items 7 and 8).

Names like `[/b]` used to raise a MarkupError (the TUI died at the start screen),
`Orco [jefe]` lost "[jefe]", and an escape sequence in a name or a log text went
to the terminal raw.  These tests drive the real screens with such texts: no
exception, the text visible as typed, no control character painted.
"""

from __future__ import annotations

from attrs import evolve

from cdbtui.engine.model import LogEntry
from cdbtui.tui.app import CdbApp
from cdbtui.tui.player import PlayerApp
from cdbtui.tui.screens.picker import ManeuverPicker, choice_prompt
from cdbtui.tui.screens.setup import InitiativeSetup
from cdbtui.players import player_view
from cdbtui.view import Choice
from conftest import demo_lines, write_save
from helpers import keys
from screen_text import screen_text

SIZE = (120, 36)
#: The demo's fight, renamed `[/]`, with three names that look like markup.
MARKUP = [
    'nombre "[/]"',
    *demo_lines()[1:-1],
    'alta "Orco [jefe]" ac=6 ini=1 agi=2 momento=8',
    'alta "[/b]" ac=5 momento=3',
    'alta "[bold red]x" ac=4 momento=2',
    "empezar",
]
assert demo_lines()[0].startswith("nombre") and demo_lines()[-1] == "empezar"
NAMES = ("Orco [jefe]", "[/b]", "[bold red]x")
OSC52 = "\x1b]52;c;SGVsbG8=\x07"


def no_raw_controls(text: str) -> None:
    """Nothing painted is a control character a terminal would act on."""
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "\u202e" not in text


def hostile(fight):
    """`fight` with a name, the fight's name and log texts carrying escape sequences
    (built directly: the engine refuses such texts at command time)."""
    combatants = tuple(
        evolve(c, name=f"Sven{OSC52}") if c.name == "Sven" else c for c in fight.combatants
    )
    log = (*fight.log,
           LogEntry(fight.turn, fight.moment, f"Sven{OSC52} gasta 1: grita\nfuerte"),
           LogEntry(fight.turn, fight.moment, "Mike espera: al \u202eorco"))
    return evolve(fight, name="Puerto\x1b]0;t\x07", combatants=combatants, log=log)


async def test_the_fight_screen_shows_markup_names_literally(tmp_path):
    app = CdbApp(write_save(tmp_path / "combate.toml", MARKUP))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.selected == "Orco [jefe]"
        text = screen_text(app)
        for name in NAMES:
            assert name in text  # sheet headers and cells
        assert "Actúa: Orco [jefe] · [/] (CdB)" in text  # the header
        assert "Orco [jefe] · PNJ" in text  # the panel's title
        await keys(pilot, "l")
        assert app.selected == "Mike"
        await keys(pilot, "l", "l", "l", "l")
        assert app.selected == "[/b]"
        assert "[/b] · PNJ" in screen_text(app)


async def test_the_picker_and_the_setup_screen_show_names_literally(tmp_path):
    app = CdbApp(write_save(tmp_path / "combate.toml", MARKUP))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "enter")
        assert isinstance(app.screen, ManeuverPicker)
        assert "Orco [jefe] hace… (le quedan 6 AC)" in screen_text(app)
        await keys(pilot, "escape", "i")
        assert isinstance(app.screen, InitiativeSetup)
        text = screen_text(app)
        for name in NAMES:
            assert name in text


def test_a_house_rule_maneuver_is_listed_literally():
    choice = Choice("tajo", "[/b]Tajo\x1b[2J", 2, True, False, None, "", "[bold]corta\nfuerte")
    prompt = choice_prompt(choice)
    assert prompt.plain.startswith("[/b]Tajo\\x1b[2J  2 AC")
    assert "[bold]corta\\nfuerte" in prompt.plain
    no_raw_controls(prompt.plain)


async def test_a_refused_command_line_quoting_markup_is_a_literal_toast(tmp_path):
    app = CdbApp(write_save(tmp_path / "combate.toml", MARKUP))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.open_command_line("zzz[/b]")
        await pilot.pause()
        await keys(pilot, "enter")
        await pilot.pause(0.2)  # the toast is painted
        assert app.is_running
        assert "No hay nadie llamado «zzz[/b]» en este combate" in screen_text(app)


async def test_the_palette_lists_markup_names_literally(tmp_path):
    app = CdbApp(write_save(tmp_path / "combate.toml", MARKUP))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "ctrl+p")
        await pilot.press(*"esquiva")
        await pilot.pause(0.5)
        assert app.is_running
        assert "[/b] esquiva" in screen_text(app)


async def test_the_start_screen_lists_markup_fights_and_files_literally(tmp_path):
    saves = tmp_path / "s[" / "]s"  # --saves 's[/]s'
    saves.mkdir(parents=True)
    write_save(saves / "[bold red]a.toml", MARKUP)
    (saves / "roto [x].toml").write_text("esto no es toml [", "utf-8")
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=(160, 36)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "s[/]s/ (la más reciente primero)" in text
        assert "[bold red]a.toml" in text  # the file's name
        assert "roto [x]" in text          # an unreadable save's name
        assert any(line.split("│")[0].strip() == "[/]" or " [/] " in line
                   for line in text.splitlines())  # the fight's name
        table = app.screen.query_one("#saves")
        table.move_cursor(row=next(
            row for row in range(table.row_count)
            if "[bold red]" in str(table.get_row_at(row)[-1])))
        await keys(pilot, "enter")
        assert app.fight is not None and app.fight.name == "[/]"
        assert "· [/] (CdB)" in screen_text(app)


async def test_an_empty_saves_folder_with_markup_in_its_name(tmp_path):
    saves = tmp_path / "s[" / "]s"
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=(160, 36)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "s[/]s/." in text and "Pulsa d para abrir el combate de ejemplo" in text


async def test_escape_sequences_never_reach_the_dj_screen(tmp_path):
    app = CdbApp(write_save(tmp_path / "combate.toml", MARKUP))
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        fight = hostile(app.fight)
        app.selected = f"Sven{OSC52}"
        app.fight = fight
        await pilot.pause()
        text = screen_text(app)
        no_raw_controls(text)
        assert "Puerto\\x1b]0;t\\x07" in text           # the header
        assert "Sven\\x1b]52" in text                   # sheet and panel
        # A newline typed in a free text stays on its log line.
        assert "gasta 1: grita\\nfuerte" in text
        assert "al \\u202eorco" in text


async def test_the_player_view_shows_names_literally_and_no_escape(tmp_path):
    path = write_save(tmp_path / "combate.toml", MARKUP)
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Actúa: Orco [jefe]" in text and "[/] · Cola: Orco [jefe]" in text
        for name in NAMES:
            assert name in text
        app.paint(player_view(hostile(app.fight), log_lines=50))
        await pilot.pause()
        text = screen_text(app)
        no_raw_controls(text)
        assert "Puerto\\x1b]0;t\\x07 · Cola:" in text
        assert "Sven\\x1b]52" in text
        assert "gasta 1: grita\\nfuerte" in text
