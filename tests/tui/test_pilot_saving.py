"""The app never plays on without saving (issue 9, item 2).

A save broken or moved away for a moment used to make the app drop its save file
silently: everything played after the glitch was lost on quitting.  Now a command
is shown only once it is on disk; while the file can't be read the key is refused
with a message, and once it is back the app follows it again.
"""

from __future__ import annotations

from conftest import demo_lines
from helpers import keys

from cdbtui import files
from cdbtui.store import load
from cdbtui.tui.app import CdbApp

SIZE = (120, 36)


def _messages(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_a_save_broken_for_a_moment_loses_nothing_played_after_it(save_from):
    path = save_from(demo_lines())
    good = path.read_bytes()
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.fight
        path.write_text("esto no es una partida [", "utf-8")  # the DJ's editor, mid-save
        await keys(pilot, "1")
        assert app.fight == before  # not acknowledged: not on disk
        assert any("no se ha guardado" in m for m in _messages(app))
        path.write_bytes(good)  # the file is back
        base = load(path).lines
        await keys(pilot, "1")  # noticed: reloaded from the file, the key not run
        assert any("recargada" in m for m in _messages(app))
        await keys(pilot, "1")
        await keys(pilot, "1")
        played = list(app.session.lines)
        assert played[: len(base)] == base and len(played) == len(base) + 2
        assert all(line.endswith("gasta 1") for line in played[len(base):])
        shown = app.fight
    assert load(path).fight == shown
    assert load(path).lines == played


async def test_a_save_moved_away_is_written_again_whole(save_from):
    path = save_from(demo_lines())
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        path.rename(path.with_suffix(".movida"))
        await keys(pilot, "1")
        assert path.exists()
        assert load(path).fight == app.fight
        await keys(pilot, "1")
        shown = app.fight
    assert load(path).fight == shown


async def test_a_full_disk_refuses_the_key_and_keeps_the_screen_as_on_disk(save_from, monkeypatch):
    import errno

    path = save_from(demo_lines())
    app = CdbApp(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "1")  # the first write (tidies the file); appends from now on
        before, on_disk = app.fight, path.read_bytes()

        def full(handle, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(files.os, "write", full)
        await keys(pilot, "1")
        monkeypatch.undo()
        assert app.fight == before
        assert path.read_bytes() == on_disk
        assert any("no se ha aplicado" in m for m in _messages(app))
        await keys(pilot, "1")
        shown = app.fight
    assert load(path).fight == shown
