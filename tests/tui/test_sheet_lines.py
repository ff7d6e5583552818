"""Which sheet lines a command repaints (`changed_lines`): only what changed."""

from __future__ import annotations

from cdbtui.tui.widgets.sheet import changed_lines
from cdbtui.view import build_sheet


def test_a_spend_repaints_the_spenders_rows_and_the_current_row_only(demo):
    before = build_sheet(demo.fight)
    demo.execute("mike gasta 2")
    after = build_sheet(demo.fight)
    lines = changed_lines(before, "Mike", after, "Mike")
    rows = {m: i for i, m in enumerate(after.moments)}
    # Mike's line from 7 down to 5, the ▶ moving to Soldado 1 at 6, the current row 7 → 6.
    assert {rows[7], rows[6], rows[5]} <= lines
    assert rows[4] not in lines and rows[0] not in lines
    untouched = [c for c in after.columns if c.name in ("Sven", "Soldado 2")]
    old = {c.name: c for c in before.columns}
    assert all(c.cells is old[c.name].cells for c in untouched)


def test_moving_the_selection_repaints_the_header_and_both_columns(demo):
    sheet = build_sheet(demo.fight)
    rows = {m: i for i, m in enumerate(sheet.moments)}
    lines = changed_lines(sheet, "Mike", sheet, "Sven")
    assert lines == {-1, rows[7], rows[5]}


def test_a_new_row_range_repaints_everything(demo):
    before = build_sheet(demo.fight)
    for line in ("mike gasta 7", "soldado 1 gasta 6", "sven gasta 5", "soldado 2 gasta 5"):
        demo.execute(line)
    assert build_sheet(demo.fight).moments[-1] == -1  # the sheet grew below 0
    assert changed_lines(before, None, build_sheet(demo.fight), None) is None


def test_the_strip_and_the_category_line_repaint_only_when_they_change(demo):
    from cdbtui.tui.widgets.sheet import CATEGORIES, HEADER, STRIP, top_rows

    demo.execute("alta Zoe ac=5")
    with_strip = build_sheet(demo.fight, width=60)
    assert top_rows(with_strip) == (HEADER, STRIP)
    rows = {m: i for i, m in enumerate(with_strip.moments)}
    # Into the strip: the strip, the header and Mike's drawn rows; no other row.
    lines = changed_lines(with_strip, "Mike", with_strip, "Zoe")
    assert lines is not None and STRIP in lines and HEADER in lines and rows[7] in lines
    assert rows[5] not in lines
    # A move between columns leaves the strip alone.
    assert STRIP not in changed_lines(with_strip, "Mike", with_strip, "Sven")
    # A first wound adds the category line: every line moves down, all repaint.
    demo.execute("dano Sven 4")
    wounded = build_sheet(demo.fight, width=60)
    assert top_rows(wounded) == (HEADER, CATEGORIES, STRIP)
    assert changed_lines(with_strip, None, wounded, None) is None
    # A worse wound changes the category line (and the modifier in the header).
    demo.execute("dano Sven 4")
    worse = build_sheet(demo.fight, width=60)
    lines = changed_lines(wounded, None, worse, None)
    assert lines is not None and CATEGORIES in lines and STRIP not in lines


def test_a_selection_move_repaints_what_changed_lines_finds_for_every_pair(demo):
    """`selection_lines` (the arrow keys' short way) agrees with the full comparison
    for every move, into and out of the strip, and to or from no selection."""
    from cdbtui.tui.widgets.sheet import selection_lines

    demo.execute("alta Zoe ac=5")
    sheet = build_sheet(demo.fight, width=60)
    names = [None, *(c.name for c in sheet.columns), *sheet.unplaced]
    for old in names:
        for new in names:
            assert selection_lines(sheet, old, new) == changed_lines(sheet, old, sheet, new), (old, new)
