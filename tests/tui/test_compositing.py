"""From a key to the terminal (`cdbtui.tui.compositing`): a partial update renders
only what it shows and shows exactly what Textual's own compositor would; footer
work runs after the key's frame, once per burst; frames are written at once."""

from __future__ import annotations

import sys
from functools import partial

import pytest
from textual._compositor import Compositor
from textual.geometry import Region

from cdbtui.tui.compositing import SWITCH_INTERVAL, CroppedCompositor, quick_frames


def _chops_in(compositor, crop: Region, textual: bool) -> dict[tuple[int, int], list]:
    """The strips a partial update over `crop` takes (every cut of its rows that
    reaches into it), by (y, cut): rendered the cropped way, or Textual's
    (`textual`: the base class's `_get_renders` for this one call)."""
    if textual:
        compositor._get_renders = partial(Compositor._get_renders, compositor)
    try:
        chops = compositor._render_chops(crop, lambda y: crop.y <= y < crop.bottom)
    finally:
        compositor.__dict__.pop("_get_renders", None)
    cuts = compositor.cuts
    return {
        (y, cut): list(chops[y][cut])
        for y in range(crop.y, crop.bottom)
        for cut, end in zip(cuts[y], cuts[y][1:])
        if cut < crop.right and end > crop.x and chops[y][cut] is not None
    }


async def test_a_partial_update_shows_what_textuals_compositor_shows_in_every_crop(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        for key in ("right", "right", "1", "left"):
            await pilot.press(key)
        await pilot.pause()
        compositor = app.screen._compositor
        assert isinstance(compositor, CroppedCompositor)
        width, height = app.size
        crops = [Region(0, y, width, 1) for y in range(height)]  # every whole line
        crops += [Region(1, 2, 88, 2), Region(90, 1, 30, 1), Region(0, 1, width, 3),
                  Region(5, 10, 100, 20), Region(60, 0, 1, height), Region(0, height - 12, width, 12)]
        for crop in crops:
            ours = _chops_in(compositor, crop, textual=False)
            theirs = _chops_in(compositor, crop, textual=True)
            assert ours == theirs, crop
            assert ours, crop  # every crop of this screen shows something


async def test_a_partial_update_renders_only_the_widgets_it_shows(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        header = app.screen.query_one("#fight-header")
        crop = Region(0, header.region.y, 120, 1)  # the header line only
        rendered = [strips for _, _, strips in compositor._get_renders(crop)]
        textual = list(Compositor._get_renders(compositor, crop))
        assert len(rendered) < len(textual)  # the footer, the log… are left out
        assert all(len(strips) == 1 for strips in rendered)  # one line each


async def test_every_screen_a_dj_or_a_player_watches_uses_the_cropped_compositor(make_app, save_from):
    from cdbtui.tui.player import PlayerApp

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen._compositor, CroppedCompositor)
    player = PlayerApp(save_from(["alta Ana ac=5 momento=7", "empezar"], name="jugadores"))
    async with player.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(player.screen._compositor, CroppedCompositor)


async def test_footer_work_runs_after_the_frame_once_for_a_burst_of_keys(make_app, monkeypatch):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.1)
        screen = app.screen
        runs = []
        monkeypatch.setattr(screen, "_refresh_bindings_if_changed", lambda: runs.append(app.selected))
        for _ in range(3):  # three arrow keys in one go (a key held down)
            app.move_selection(1)
        assert runs == []  # not between the frame being queued and written
        await pilot.pause(0.2)
        assert runs == [app.selected]  # once, for the selection the burst left


async def test_the_footer_follows_the_selection_once_the_frame_is_out(make_app):
    """Moving to a combatant who is done hides the spend keys from the footer."""
    lines = ["alta Ana ac=5 momento=7", "alta Bea ac=5 momento=7", "empezar", "ana fin"]
    app = make_app(lines)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.1)
        app.select("Bea")
        await pilot.pause(0.2)
        before = screen_keys(app)
        app.select("Ana")
        await pilot.pause(0.2)
        after = screen_keys(app)
        assert before != after


def screen_keys(app) -> str:
    from cdbtui.tui.widgets.keybar import KeyBar

    bar = app.screen.query_one(KeyBar)
    return "".join(strip.text for strip in bar.render_lines(Region(0, 0, bar.size.width, bar.size.height)))


def test_quick_frames_shortens_the_switch_interval():
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # Python's default (an app under test set it)
        quick_frames()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)


def test_covers_needs_every_column_between_left_and_right():
    from cdbtui.tui.compositing import _covers

    assert _covers([(0, 90), (90, 120)], 0, 120)  # side by side: the sheet and the panel
    assert _covers([(90, 120), (0, 90)], 10, 100)  # in any order
    assert _covers([(0, 50), (20, 120)], 0, 120)  # overlapping
    assert not _covers([(0, 89), (90, 120)], 0, 120)  # a gap of one column (a margin)
    assert not _covers([(5, 120)], 0, 120)  # the first column is not covered
    assert not _covers([(0, 119)], 0, 120)  # nor the last
    assert not _covers([], 0, 1)


async def test_a_container_behind_its_children_is_not_rendered_for_their_rows(make_app):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        sheet = app.screen.query_one("#sheet")
        crop = Region(sheet.region.x, sheet.region.y + 2, 120, 1)  # a sheet row and the panel's
        rendered = [region for region, _, _ in compositor._get_renders(crop)]
        main = app.screen.query_one("#main")
        assert main.region.contains_region(crop)
        assert all(region.x >= sheet.region.x for region in rendered)
        assert len(rendered) == 2  # the sheet and the panel: not #main, #side or the screen
