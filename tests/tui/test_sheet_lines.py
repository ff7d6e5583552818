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
