"""Columns that fit, on the real screens (issue 12): twelve combatants on a 120×36
DJ sheet, the strip of those without a start moment, the sheet scrolling to the
selection when they can't fit, and the player view keeping the acting column in
view with "luego: …" on its big line."""

from __future__ import annotations

from screen_text import screen_text

from cdbtui.tui.player import PlayerApp
from cdbtui.tui.widgets.sheet import GUTTER, STRIP, STRIP_LABEL

NAMES = ("Brunilda Peña", "La Viuda Negra", "Orco número 23", "Orco número 28", "Mike",
         "Sven", "Soldado 1", "Soldado 2", "Merche", "Ana", "Capitán Garfio", "Bea")


def twelve() -> list[str]:
    """Twelve combatants, starts 12 down to 4 (some share one), started; Zoe joins
    mid-fight without a start moment."""
    lines = []
    for index, name in enumerate(NAMES):
        side = "pj" if index % 3 == 0 else "pnj"
        lines.append(f'alta "{name}" ac={5 + index % 4} bando={side} momento={12 - index % 9}')
    return [*lines, "empezar", 'dano "La Viuda Negra" 4', "alta Zoe ac=5"]


def sheet_text(app, sheet) -> list[str]:
    """The painted lines of the sheet widget (inside its border)."""
    region = sheet.region
    lines = screen_text(app).splitlines()[region.y:region.y + region.height]
    return [line[region.x:region.x + region.width] for line in lines]


async def test_twelve_columns_fit_at_120_the_strip_and_scrolling_to_the_selection(make_app):
    app = make_app(twelve())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        sheet = app.screen.query_one("#sheet")
        side = app.screen.query_one("#side")
        # The side panel takes its 30 columns: the sheet has the other 90, border included.
        assert side.outer_size.width == 30 and sheet.outer_size.width == 90
        painted = sheet_text(app, sheet)
        header = painted[1]
        columns = sheet.sheet.columns
        assert [c.name for c in columns if c.name in NAMES] and len(columns) == 12
        for column in columns:  # every one of the twelve, by its header, on screen
            assert column.label in header, (column.label, header)
        assert sheet.max_scroll_x == 0  # no sideways scrolling needed
        labels = [c.label for c in columns]
        assert len(set(labels)) == 12
        orcs = [c.label for c in columns if c.name.startswith("Orco")]
        assert orcs[0].endswith("23") and orcs[1].endswith("28")
        assert any("−1" in c.label for c in columns if c.name == "La Viuda Negra")
        assert "Herido" in "\n".join(painted[:4])  # her category under her name

        # The strip: Zoe has no start moment; a click on her name selects her.
        text = "\n".join(painted)
        assert f"{STRIP_LABEL}Zoe" in text
        y = sheet._top.index(STRIP)
        await pilot.click(sheet, offset=(1 + 1 + len(STRIP_LABEL) + 1, 1 + y))
        await pilot.pause()
        assert app.selected == "Zoe" and sheet.selected == "Zoe"
        highlight = sheet.get_component_rich_style("sheet--selected").bgcolor
        zoe = next(seg for seg in sheet.render_line(y) if seg.text == "Zoe")
        assert highlight is not None and zoe.style.bgcolor == highlight

        # At 80×24 the twelve can't fit (their numbers won't shrink): selecting the
        # last column scrolls it into view, the first scrolls back.
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert sheet.max_scroll_x > 0
        last = sheet.sheet.columns[-1]
        app.select(last.name)
        await pilot.pause()
        await pilot.pause()
        left = sheet._offsets[-1]
        area = sheet.scrollable_content_region.width - GUTTER
        assert sheet.scroll_x <= left and left + last.width <= sheet.scroll_x + area
        assert last.label in sheet_text(app, sheet)[1]
        first = sheet.sheet.columns[0]
        app.select(first.name)
        await pilot.pause()
        await pilot.pause()
        assert sheet.scroll_x == 0 and first.label in sheet_text(app, sheet)[1]


async def test_the_player_view_keeps_the_acting_column_in_view_and_says_luego(save_from):
    # All but the last two columns decline: Soldado 2 (start 5) acts, Merche (4) is on deck.
    lines = twelve()
    order = sorted(range(12), key=lambda i: (-(12 - i % 9), i))
    declining = [f'"{NAMES[i]}" fin' for i in order[:-2]]
    path = save_from([*lines, *declining])
    app = PlayerApp(path, poll_seconds=3600.0)
    async with app.run_test(size=(60, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        sheet = app.query_one("#player-sheet")
        head = next(c for c in sheet.sheet.columns if c.heads_queue)
        assert head.name == NAMES[order[-2]]
        assert sheet.max_scroll_x > 0  # twelve columns don't fit in 60, even with narrow gaps
        index = sheet.sheet.columns.index(head)
        left = sheet._offsets[index]
        area = sheet.scrollable_content_region.width - GUTTER
        assert 0 < sheet.scroll_x <= left and left + head.width <= sheet.scroll_x + area
        assert head.label in sheet_text(app, sheet)[1]
        # At 120 they fit, the wide gaps narrowed (3 → fewer) before any name is cut.
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.pause()
        assert sheet.max_scroll_x == 0 and sheet._gap < 3
        await pilot.press("g")
        await pilot.pause()
        text = screen_text(app)
        deck = NAMES[order[-1]]
        assert f"luego: {deck}" in text
        assert "luego: Zoe" not in text
