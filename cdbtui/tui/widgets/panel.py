"""The side panel: everything about the selected combatant, from `view.panel_rows`.

The values are user text (names, conditions, wait triggers…), already literal
(`view`); they are assembled as `Content`, never parsed as markup.
"""

from __future__ import annotations

import textwrap

from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from ...engine.model import Fight
from ...view import LEGEND_SHORT, PanelRow, RowRole, panel_rows, panel_title

#: The style of a value by the role `view.panel_rows` gives its line.
ROLE_MARKUP = {
    RowRole.NORMAL: "",
    RowRole.AC: "bold",
    RowRole.DIM: "$text-muted",
    RowRole.WARNING: "$warning",
    RowRole.GOOD: "$success",
    RowRole.CARRIED: "$warning italic",
}


#: The label's column ("Este turno" and a space); values wrap under themselves.
LABEL = 11
#: The panel's inner width before the first layout (screens.tcss: 30 − border − padding).
WIDTH = 26


def wrap_value(value: str, room: int) -> list[str]:
    """`value` in lines of at most `room` characters, broken at spaces: "1 turno"
    and "· 2 turnos" are kept whole ("aturdido" / "· 2 turnos"), hyphens too."""
    if room <= 0 or len(value) <= room:
        return [value]
    glue = "\x00"  # joins what stays whole; `literal` values hold no NUL
    kept = value.replace(" · ", f" ·{glue}").replace(" turno", f"{glue}turno")
    lines = textwrap.wrap(kept, room, break_on_hyphens=False) or [kept]
    return [line.replace(glue, " ") for line in lines]


def panel_content(rows: tuple[PanelRow, ...], width: int = WIDTH) -> Content:
    """The panel's lines: a muted label and the value in its role's style, a long
    value wrapped under itself (the label column stays clear)."""
    parts: list[str | tuple[str, str]] = []
    for index, row in enumerate(rows):
        if index:
            parts.append("\n")
        lines = wrap_value(row.value, width - LABEL)
        parts += [(f"{row.label:<{LABEL - 1}}", "$text-muted"), " ", (lines[0], ROLE_MARKUP[row.role])]
        for line in lines[1:]:
            parts += ["\n", " " * LABEL, (line, ROLE_MARKUP[row.role])]
    return Content.assemble(*parts)


def _lines(rows: tuple[PanelRow, ...], width: int) -> int:
    """How many lines `rows` take at `width` (a long note wraps): the panel's height
    follows its content (screens.tcss), so a change of it needs a layout."""
    return sum(len(wrap_value(row.value, width - LABEL)) for row in rows)


class SidePanel(Static):
    """Attributes down: `show(fight, name)` repaints it; it never changes the fight."""

    _rows: tuple[PanelRow, ...] | None = None
    _width: int = WIDTH
    _title: str | None = None

    def show(self, fight: Fight | None, name: str | None) -> None:
        combatant = fight.find(name) if fight is not None and name else None
        if combatant is None:
            self.border_title = "Sin selección"
            self._rows = self._title = None
            self.update("Nadie seleccionado.\n\n«a» añade un combatiente.", layout=False)
            return
        title = panel_title(combatant)
        if title != getattr(self, "_title", None):  # the border is repainted whole
            self._title = title
            self.border_title = Content(title)
        rows = panel_rows(combatant, fight)
        width = self.content_size.width or WIDTH
        if rows != self._rows or width != self._width:  # no repaint when unchanged
            # A layout only when its height changes (it follows its lines).
            grows = self._rows is None or _lines(rows, width) != _lines(self._rows, width)
            self._rows, self._width = rows, width
            self.update(panel_content(rows, width), layout=grows)


def legend_markup() -> str:
    """The legend of the sheet's marks, shown under the panel (it never changes)."""
    lines = ["[b]Leyenda[/b]"]
    for mark, meaning in LEGEND_SHORT:
        lines.append(f"[$accent]{escape(mark):<4}[/] [$text-muted]{escape(meaning)}[/]")
    return "\n".join(lines)
