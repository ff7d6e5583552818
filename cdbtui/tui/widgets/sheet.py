"""The Plantilla itself: one Line API widget painting `view.build_sheet`.

Moments run down a sticky gutter on the left, one column per combatant runs
across, and sticky lines on top name the columns (`HEADER`), give the worst wound
or fatigue category of each (`CATEGORIES`, when anyone has one) and list those
without a start moment (`STRIP`, "sin momento: Ana, Bea", when there are any).
The columns are fitted to the widget's width (`view.build_sheet(width=…)`, again
on every resize); only when their numbers can't shrink further does the sheet
scroll sideways, keeping the selected column (the player view: the acting one) in
view.  The widget holds no game state: the app pushes the fight and the
selection in with `show()`; a click on a column posts `SheetView.Clicked` up.
Rows are painted from a small cache of strips that is cleared on every `show()`.
The texts are `view`'s, already literal (no control characters, no markup: the
segments are plain text).
"""

from __future__ import annotations

from bisect import bisect_right

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .styled import StyledLines
from ...engine.model import Fight, Status
from ...printable import literal
from ...view import CellRole, Column, Sheet, build_sheet, category_text, fit

GUTTER = 8  # "▸  -1 │ "
#: The sticky lines on top, by the row number that stands for them.
HEADER, CATEGORIES, STRIP = -1, -2, -3
#: What the strip of combatants without a start moment starts with.
STRIP_LABEL = "sin momento: "
#: The component class of each cell role of `view.Cell` (a name takes its side's colour).
CELL_STYLES = {
    CellRole.MARKER: "sheet--marker",
    CellRole.ACTING: "sheet--acting",
    CellRole.TICK: "sheet--tick",
    CellRole.SPENT: "sheet--spent",
    CellRole.GAP: "sheet--gap",
    CellRole.CARRIED: "sheet--carried",
}
#: Roles that show where a combatant stands: underlined while it is in the queue.
PLACE_ROLES = frozenset({CellRole.NAME, CellRole.MARKER})


def _drawn(column: Column) -> set[int]:
    """Rows where a column has something drawn (its flags colour only those)."""
    return {row for row, cell in enumerate(column.cells) if cell.role is not CellRole.EMPTY}


def top_rows(sheet: Sheet) -> tuple[int, ...]:
    """The sticky lines a sheet has on top, in order (`HEADER`, `CATEGORIES`, `STRIP`)."""
    rows = [HEADER]
    if sheet.has_categories:
        rows.append(CATEGORIES)
    if sheet.unplaced:
        rows.append(STRIP)
    return tuple(rows)


def changed_lines(
    old: Sheet, old_selected: str | None, new: Sheet, new_selected: str | None
) -> set[int] | None:
    """The lines (row index; the negative `HEADER`, `CATEGORIES`, `STRIP` for the
    lines on top) that paint differently, or None for all.

    Compared column by column: `view.build_sheet` reuses the cells of a combatant
    that did not change, so most columns are skipped by identity.
    """
    if old.moments != new.moments or [(c.name, c.width) for c in old.columns] != [
        (c.name, c.width) for c in new.columns
    ] or top_rows(old) != top_rows(new):
        return None
    lines: set[int] = set()
    if old.unplaced != new.unplaced or old.waiting_for_start != new.waiting_for_start or (
        old_selected != new_selected
        and (old_selected in new.unplaced or new_selected in new.unplaced)
    ):
        lines.add(STRIP)
    if old.current != new.current:
        for moment in (old.current, new.current):
            if moment in new.moments:
                lines.add(new.moments.index(moment))
    for before, after in zip(old.columns, new.columns):
        flags_before = (before.heads_queue, before.in_queue, before.status, before.pc,
                        before.name == old_selected)
        flags_after = (after.heads_queue, after.in_queue, after.status, after.pc,
                       after.name == new_selected)
        if before.label != after.label:
            lines.add(-1)
        if before.category != after.category:
            lines.add(CATEGORIES)
        if flags_before != flags_after:
            lines.add(-1)
            lines |= _drawn(before) | _drawn(after)
        elif before.cells is not after.cells:
            lines |= {
                row for row, (a, b) in enumerate(zip(before.cells, after.cells)) if a != b
            }
    return lines


def selection_lines(sheet: Sheet, old_selected: str | None, new_selected: str | None) -> set[int]:
    """The lines that paint differently when only the selection moves on `sheet`:
    `changed_lines(sheet, old_selected, sheet, new_selected)`, looking only at the
    two columns concerned (an arrow key on a sheet of 200)."""
    lines: set[int] = set()
    if old_selected == new_selected:
        return lines
    if old_selected in sheet.unplaced or new_selected in sheet.unplaced:
        lines.add(STRIP)
    for column in sheet.columns:
        if column.name == old_selected or column.name == new_selected:
            lines.add(-1)
            lines |= _drawn(column)
    return lines


class SheetView(StyledLines, ScrollView, can_focus=True):
    """The grid of moments × combatants, painted line by line."""

    COMPONENT_CLASSES = {
        "sheet--gutter",
        "sheet--header",
        "sheet--current",
        "sheet--pj",
        "sheet--pnj",
        "sheet--marker",
        "sheet--tick",
        "sheet--spent",
        "sheet--gap",
        "sheet--carried",
        "sheet--acting",
        "sheet--queued",
        "sheet--selected",
        "sheet--done",
        "sheet--out",
        "sheet--empty-hint",
        "sheet--hidden",
        "sheet--category",
        "sheet--strip",
    }
    DEFAULT_CSS = """
    SheetView > .sheet--category { color: $warning; text-style: italic; }
    SheetView > .sheet--strip { color: $text-muted; }
    """

    class Clicked(Message):
        """The DJ clicked a combatant's column."""

        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    def __init__(self, *, for_players: bool = False, gap: int = 1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.for_players = for_players
        self.gap = gap
        self.sheet = Sheet((), None, (), ())
        self.selected: str | None = None
        self.fight: Fight | None = None
        self._top: tuple[int, ...] = (HEADER,)
        #: The gap painted between columns: `gap`, or less when the columns need it.
        self._gap = gap
        self._tall = False  # the moments overflow the height: a vertical scrollbar
        self._offsets: list[int] = []  # x of each column inside the scrolled area
        #: (from x, to x, name) of each name in the strip, for clicks.
        self._strip_spans: list[tuple[int, int, str]] = []
        self._cache: dict[tuple, Strip] = {}
        #: (column index, row, row style, selected?) → the cell's segment, for this
        #: sheet: a moved selection repaints two lines whose other cells are the same.
        self._cells: dict[tuple, Segment] = {}
        #: (row style, component classes) → the style they make (`_combined`).
        self._combinations: dict[tuple, Style] = {}

    # ------------------------------------------------------------ state in

    def show(self, fight: Fight | None, selected: str | None) -> None:
        """Paint `fight` with `selected` highlighted (None: an empty sheet).

        Only the lines whose cells changed are repainted: a command usually moves
        one or two markers, the current row and the ▶, not the whole grid.
        """
        old_sheet, old_selected, old_gap = self.sheet, self.selected, self._gap
        self.fight = fight
        self.sheet = self._build(fight)
        self._cells = {}
        if self._gap != old_gap:
            old_sheet = Sheet((), None, (), ())  # every column moves: repaint all
        self.selected = selected
        self._top = top_rows(self.sheet)
        offsets, x = [], 0
        for column in self.sheet.columns:
            offsets.append(x)
            x += column.width + self._gap
        self._offsets = offsets
        self._strip_spans = []
        at = len(STRIP_LABEL)
        for name, shown in zip(self.sheet.unplaced, self.sheet.waiting_for_start):
            self._strip_spans.append((at, at + len(shown), name))
            at += len(shown) + 2
        size = Size(GUTTER + max(0, x - self._gap), len(self._top) + max(1, len(self.sheet.moments)))
        if size != self.virtual_size:
            self.virtual_size = size
        self._repaint(changed_lines(old_sheet, old_selected, self.sheet, selected))
        self.call_after_refresh(self._keep_in_view)

    def _build(self, fight: Fight | None) -> Sheet:
        """The sheet of `fight` fitted to the widget's width (not yet laid out: natural widths)."""
        self._gap = self.gap
        if fight is None:
            return Sheet((), None, (), ())
        width = self.size.width
        if width <= 0:
            return build_sheet(fight, for_players=self.for_players, gap=self.gap)
        bar = self.styles.scrollbar_size_vertical

        def build(tall: bool, gap: int) -> Sheet:
            area = max(1, width - GUTTER - (bar if tall else 0))
            return build_sheet(fight, for_players=self.for_players, width=area, gap=gap)

        # Built once per show: as tall as last time (a vertical scrollbar takes a
        # column), again only if that changed or the gaps must narrow.
        gap, tall = self.gap, self._tall
        sheet = build(tall, gap)
        needed = len(top_rows(sheet)) + len(sheet.moments) > self.size.height
        area = max(1, width - GUTTER - (bar if needed else 0))
        gaps = len(sheet.columns) - 1
        while gap > 1 and sheet.natural + gap * gaps > area:
            gap -= 1  # wide gaps give way before the names do
        if needed != tall or gap != self.gap:
            self._tall = needed
            sheet = build(needed, gap)
        self._gap = gap
        return sheet

    def on_resize(self, event: events.Resize) -> None:
        """A new width: fit the columns again (every line repaints)."""
        if self.fight is not None:
            self.sheet = Sheet((), None, (), ())
            self.show(self.fight, self.selected)
            self.call_after_refresh(self._keep_in_view)

    def select(self, selected: str | None) -> None:
        """Move only the selection (no new sheet)."""
        old_selected, self.selected = self.selected, selected
        self._repaint(selection_lines(self.sheet, old_selected, selected))
        self._keep_in_view()

    def _repaint(self, lines: set[int] | None) -> None:
        """Drop the cached strips of `lines` (-1: the header; None: all) and repaint them."""
        if lines is None:
            self._cache.clear()
            self.refresh()
            return
        if not lines:
            return
        for key in [k for k in self._cache if k[0] in lines]:
            del self._cache[key]
        width = self.size.width
        scroll_y = round(self.scroll_y)
        top = self._top
        for row in lines:
            if row < 0:
                if row not in top:
                    continue
                y = top.index(row)
            else:
                y = row - scroll_y + len(top)
            if 0 <= y < self.size.height:
                self.refresh(Region(0, y, width, 1))

    def _keep_in_view(self) -> None:
        """Scroll so the selected column (none selected in the player view: the
        acting one) and the current moment are visible."""
        width = self.scrollable_content_region.width - GUTTER
        for index, column in enumerate(self.sheet.columns):
            wanted = (column.name == self.selected if self.selected is not None
                      else self.for_players and column.heads_queue)
            if wanted and width > 0:
                left = self._offsets[index]
                right = left + column.width
                if left < self.scroll_x:
                    self.scroll_to(x=left, animate=False, immediate=True)
                elif right > self.scroll_x + width:
                    self.scroll_to(x=right - width, animate=False, immediate=True)
                break
        if self.sheet.current in self.sheet.moments:
            row = self.sheet.moments.index(self.sheet.current)
            height = self.scrollable_content_region.height - len(self._top)
            if height > 0:
                if row < self.scroll_y:
                    self.scroll_to(y=row, animate=False, immediate=True)
                elif row >= self.scroll_y + height:
                    self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # ------------------------------------------------------------ painting

    def notify_style_update(self) -> None:
        """A new theme or stylesheet: every cached strip has old colours."""
        self._cache.clear()
        self._cells.clear()
        self._combinations.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        top = self._top
        row = top[y] if y < len(top) else scroll_y + y - len(top)
        key = (row, 0 if row == STRIP else scroll_x, width)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._paint(row, scroll_x, width)
            if len(self._cache) > 512:
                self._cache.clear()
            self._cache[key] = strip
        return strip

    def _paint(self, row: int, scroll_x: int, width: int) -> Strip:
        base = self.base_style
        sheet = self.sheet
        if row == STRIP:
            return self._paint_strip(width)
        if row >= len(sheet.moments):
            if row == 0 and not sheet.columns:
                text = "  Sin combatientes con momento inicial: «a» añade, «i» iniciativa"
                return Strip([Segment(text, base + self.component_style("sheet--empty-hint"))]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        current = row >= 0 and sheet.moments[row] == sheet.current
        row_style = base + self.component_style("sheet--current") if current else base
        if row == HEADER:
            gutter = Segment("  Mom │ ", base + self.component_style("sheet--header"))
        elif row == CATEGORIES:
            gutter = Segment("      │ ", base + self.component_style("sheet--gutter"))
        else:
            mark = "▸" if current else " "
            gutter_style = base + self.component_style("sheet--gutter")
            if current:
                gutter_style += self.component_style("sheet--current")
            gutter = Segment(f"{mark}{sheet.moments[row]:>4} │ ", gutter_style)
        area = max(0, width - GUTTER)
        # One strip for the whole line (Strip.join and a crop per part cost more than
        # the cells): the gutter is exactly GUTTER cells, the columns cut at the area.
        gutter = Segment(gutter.text[:GUTTER].ljust(GUTTER), gutter.style)
        if not area:
            return Strip([gutter]).crop_extend(0, width, base)
        return Strip([gutter, *self._columns(row, scroll_x, area, row_style)]).crop_extend(0, width, row_style)

    def _paint_strip(self, width: int) -> Strip:
        """"sin momento: Ana, Bea": those without a start moment, the selected highlighted."""
        base = self.base_style
        muted = base + self.component_style("sheet--strip")
        segments = [Segment(" " + STRIP_LABEL, muted)]
        for index, (name, shown) in enumerate(zip(self.sheet.unplaced, self.sheet.waiting_for_start)):
            if index:
                segments.append(Segment(", ", muted))
            style = base + self.component_style("sheet--header")
            if name == self.selected:
                style += self.component_style("sheet--selected")
            segments.append(Segment(shown, style))
        return Strip(segments).crop_extend(0, width, base)

    def _columns(self, row: int, scroll_x: int, area: int, row_style: Style) -> list[Segment]:
        """Segments of the visible columns of `row` (-1: the header), starting at scroll_x."""
        segments: list[Segment] = []
        columns = self.sheet.columns
        if not columns:
            return segments
        first = max(0, bisect_right(self._offsets, scroll_x) - 1)
        x = self._offsets[first]
        skip = scroll_x - x
        gap = Segment(" " * self._gap, row_style)
        cells = self._cells
        selected = self.selected
        for index in range(first, len(columns)):
            if x - scroll_x >= area:
                break
            column = columns[index]
            key = (index, row, row_style, column.name == selected)
            cell = cells.get(key)
            if cell is None:
                text, style = self._cell(column, row, row_style)
                cell = cells[key] = Segment(fit(text, column.width), style)
            segments.append(cell)
            segments.append(gap)
            x += column.width + self._gap
        strip = Strip(segments)
        return list(strip.crop(skip, skip + area)) if skip else segments

    def _combined(self, row_style: Style, names: tuple[str, ...]) -> Style:
        """`row_style` plus the component classes `names`, in order: remembered, as
        a line paints a dozen cells of the same few combinations."""
        key = (row_style, names)
        style = self._combinations.get(key)
        if style is None:
            style = row_style
            for name in names:
                style += self.component_style(name)
            if len(self._combinations) > 1024:
                self._combinations.clear()
            self._combinations[key] = style
        return style

    def _cell(self, column: Column, row: int, row_style: Style) -> tuple[str, Style]:
        if row == CATEGORIES:
            text = category_text(column.category, column.width) if column.category else ""
            return text, self._combined(row_style, ("sheet--category",)) if text else row_style
        empty = row >= 0 and column.cells[row].role is CellRole.EMPTY
        selected = column.name == self.selected
        if empty:
            return "", row_style
        names = ["sheet--selected"] if selected else []
        names.append("sheet--pj" if column.pc else "sheet--pnj")
        if row < 0:
            text = column.label or literal(column.name)
            names.append("sheet--header")
            if column.hidden:  # "◌Sombra": hidden from the players
                names.append("sheet--hidden")
            if column.heads_queue:
                names.append("sheet--acting")
        else:
            cell = column.cells[row]
            text, role = cell.text, cell.role
            if role in CELL_STYLES:
                names.append(CELL_STYLES[role])
            if role in PLACE_ROLES and column.in_queue:
                names.append("sheet--queued")
        if column.status is Status.DONE:
            names.append("sheet--done")
        elif column.status is Status.OUT:
            names.append("sheet--out")
        return text, self._combined(row_style, tuple(names))

    # ------------------------------------------------------------ messages up

    def on_click(self, event: events.Click) -> None:
        top = self._top
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if 0 <= offset.y < len(top) and top[offset.y] == STRIP:
            for left, right, name in self._strip_spans:
                if left <= offset.x - 1 < right:
                    self.post_message(self.Clicked(name))
                    return
            return
        if offset.x < GUTTER:
            return
        x = self.scroll_x + offset.x - GUTTER
        for index, column in enumerate(self.sheet.columns):
            left = self._offsets[index]
            if left <= x < left + column.width + self._gap:
                self.post_message(self.Clicked(column.name))
                return
