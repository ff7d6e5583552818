"""`cdbtui` without a path: the start screen, the one-key demo, and the player view."""

from __future__ import annotations

import os
import time

from cdbtui.store import load, save
from cdbtui.tui.app import CdbApp
from cdbtui.tui.player import PlayerApp
from conftest import demo_lines, write_save
from helpers import keys
from screen_text import screen_text

SIZE = (100, 30)


async def test_first_run_offers_the_demo_with_one_key(tmp_path):
    saves = tmp_path / "saves"
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "combate de ejemplo" in screen_text(app)
        await keys(pilot, "d")
        assert app.path == saves / "puerto.toml"
        assert app.fight.name == "Emboscada en el puerto"
        assert app.fight.turn == 1 and app.selected == "Mike"
        assert load(app.path).fight == app.fight


async def test_demo_never_overwrites_an_existing_file(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "puerto.toml").write_text("no tocar", "utf-8")
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "d")
        assert app.path == saves / "puerto-2.toml"
    assert (saves / "puerto.toml").read_text("utf-8") == "no tocar"


async def test_start_screen_lists_saves_newest_first_and_opens_one(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    old = write_save(saves / "antiguo.toml", demo_lines())
    write_save(saves / "nuevo.toml", demo_lines()[:3])
    past = time.time() - 3600
    os.utime(old, (past, past))
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert text.index("nuevo") < text.index("antiguo")
        await keys(pilot, "down", "enter")
        assert app.path == old
        assert app.fight.started


async def test_opening_a_damaged_save_is_a_notification(tmp_path):
    bad = tmp_path / "roto.toml"
    bad.write_text("esto no es toml [", "utf-8")
    app = CdbApp(bad)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("TOML" in n.message for n in app._notifications)
        assert app.fight is None and app.is_running


async def test_player_view_hides_secrets_and_follows_the_save(save_from):
    path = save_from([*demo_lines(), 'alta Espia ac=5 momento=3 oculto'])
    app = PlayerApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Turno 1 · Momento 7 · Actúa: Mike" in text
        assert "Espia" not in text                       # hidden PNJ absent
        assert "Soldado 2 ?" in text                     # private numbers as ?
        assert "Mike 7" in text
        session = load(path)
        session.execute("mike disparar-armas-largas")
        save(path, session)
        os.utime(path, (time.time() + 5, time.time() + 5))
        await pilot.pause(0.8)
        text = screen_text(app)
        assert "Actúa: Soldado 1" in text and "● 4" in text
        await keys(pilot, "space", "enter", "t")         # nothing else reacts
        assert load(path).fight == session.fight
        await pilot.press("q")
        await pilot.pause()
    assert not app.is_running


async def test_n_creates_a_new_empty_walkure_fight_and_opens_it(tmp_path):
    saves = tmp_path / "saves"
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "n")
        await pilot.press(*"Asalto al tren")
        await keys(pilot, "tab", "down", "space")  # the radio set: Walküre
        await keys(pilot, "shift+tab", "enter")
        assert app.path == saves / "asalto-al-tren.toml"
        assert (app.fight.name, app.fight.rules, app.fight.turn) == ("Asalto al tren", "walkure", 0)
        assert app.fight.combatants == ()
        assert load(app.path).fight == app.fight
        await keys(pilot, "a")  # the add form opens on the new fight
        from cdbtui.tui.screens.add import AddForm
        assert isinstance(app.screen, AddForm)


async def test_a_new_fight_needs_a_name(tmp_path):
    saves = tmp_path / "saves"
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "n", "enter")
        from cdbtui.tui.screens.newfight import NewFight
        assert isinstance(app.screen, NewFight)
        assert not saves.exists() or not list(saves.glob("*.toml"))


async def test_start_screen_shows_rules_turn_and_size(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    write_save(saves / "puerto.toml", demo_lines())
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for cell in ("Emboscada en el puerto", "CdB", "puerto.toml", "Turno", "Combatientes"):
            assert cell in text


async def test_duplicate_rename_and_trash_from_the_start_screen(tmp_path):
    from cdbtui import library

    saves = tmp_path / "saves"
    saves.mkdir()
    original = write_save(saves / "puerto.toml", demo_lines())
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await keys(pilot, "c")  # duplicate: the copy is listed and selected
        copy = saves / "puerto-copia.toml"
        assert copy.exists() and "(copia)" in screen_text(app)
        await keys(pilot, "r")  # rename the copy
        app.screen.query_one("#ask-text-input").value = "Segunda noche"
        await keys(pilot, "enter")
        renamed = saves / "segunda-noche.toml"
        assert renamed.exists() and not copy.exists()
        assert load(renamed).fight.name == "Segunda noche"
        await keys(pilot, "delete")  # asks first: Escape keeps it
        await keys(pilot, "escape")
        assert renamed.exists()
        await keys(pilot, "delete", "enter")
        assert not renamed.exists()
        trashed = list((saves / library.TRASH).glob("segunda-noche-*.toml"))
        assert len(trashed) == 1 and load(trashed[0]).fight.name == "Segunda noche"
        assert original.exists() and "Segunda noche" not in screen_text(app)
        await keys(pilot, "enter")
        assert app.path == original


async def test_a_new_fight_takes_the_party_and_g_saves_a_pj_to_it(tmp_path):
    from cdbtui import roster

    saves = tmp_path / "saves"
    saves.mkdir()
    path = write_save(saves / "puerto.toml", demo_lines())
    app = CdbApp(path, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.select("Sven")
        await keys(pilot, "G")
        assert [m.name for m in roster.load_roster(saves)] == ["Sven"]
    app = CdbApp(None, saves_dir=saves)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "n")
        assert "Con el grupo: Sven" in screen_text(app)
        await pilot.press(*"Otra pelea")
        await keys(pilot, "enter")
        assert [c.name for c in app.fight.combatants] == ["Sven"]
        assert app.fight.find("Sven").is_pc
        await keys(pilot, "u")
        assert app.fight.combatants == ()
        await keys(pilot, "A")  # the party again, as undoable altas
        assert [c.name for c in app.fight.combatants] == ["Sven"]
        assert load(app.path).fight == app.fight


async def test_another_program_changing_the_save_is_reloaded_not_overwritten(save_from):
    import subprocess
    import sys

    path = save_from(demo_lines())
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        subprocess.run([sys.executable, "-m", "cdbtui", "do", str(path), "Mike gasta 2"],
                       check=True, capture_output=True)
        await keys(pilot, "1")  # noticed before running: reload instead
        assert app.fight.find("Mike").ac == 5
        assert app.session.lines[-1] == "Mike gasta 2"
        assert any("cambió en el disco" in n.message for n in app._notifications)
        await keys(pilot, "1")
        assert app.session.lines[-2:] == ["Mike gasta 2", f"{app.session.lines[-1]}"]
        assert app.session.lines[-1].endswith("gasta 1")
    assert load(path).lines == app.session.lines


async def test_opening_a_save_replays_its_history_in_the_background(save_from):
    path = save_from(demo_lines())
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):  # waiting for the worker thread, not timing it
            await pilot.pause(0.05)
            if None not in app.session.states:
                break
        assert None not in app.session.states
        await keys(pilot, "u")
        assert app.fight.turn == 0 and app.session.redo_lines == ["empezar"]
