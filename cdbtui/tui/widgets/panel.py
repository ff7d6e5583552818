"""The side panel: everything about the selected combatant, from `view.panel_rows`.

The values are user text (names, conditions, wait triggers…), already literal
(`view`); they are assembled as `Content`, never parsed as markup.
"""

from __future__ import annotations

from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from ...engine.model import Fight
from ...printable import literal
from ...view import LEGEND, PanelRow, RowRole, panel_rows


#: The style of a value by the role `view.panel_rows` gives its line.
ROLE_MARKUP = {
    RowRole.NORMAL: "",
    RowRole.AC: "bold",
    RowRole.DIM: "$text-muted",
    RowRole.WARNING: "$warning",
    RowRole.GOOD: "$success",
    RowRole.CARRIED: "$warning italic",
}


def panel_content(rows: tuple[PanelRow, ...]) -> Content:
    """The panel's lines: a muted label and the value in its role's style."""
    parts: list[str | tuple[str, str]] = []
    for index, row in enumerate(rows):
        if index:
            parts.append("\n")
        parts += [(f"{row.label:<10}", "$text-muted"), " ", (row.value, ROLE_MARKUP[row.role])]
    return Content.assemble(*parts)


class SidePanel(Static):
    """Attributes down: `show(fight, name)` repaints it; it never changes the fight."""

    _rows: tuple[PanelRow, ...] | None = None

    def show(self, fight: Fight | None, name: str | None) -> None:
        combatant = fight.find(name) if fight is not None and name else None
        if combatant is None:
            self.border_title = "Sin selección"
            self._rows = None
            self.update("Nadie seleccionado.\n\n«a» añade un combatiente.", layout=False)
            return
        side = combatant.side.upper() if combatant.side in ("pj", "pnj") else combatant.side
        self.border_title = Content(literal(f"{combatant.name} · {side}"))
        rows = panel_rows(combatant, fight)
        if rows != self._rows:  # fixed size: no layout, and no repaint when unchanged
            self._rows = rows
            self.update(panel_content(rows), layout=False)


def legend_markup() -> str:
    """The legend of the sheet's marks, shown under the panel (it never changes)."""
    lines = ["[b]Leyenda[/b]"]
    for mark, meaning in LEGEND[1:]:
        lines.append(f"[$accent]{escape(mark):<4}[/] [$text-muted]{escape(meaning)}[/]")
    return "\n".join(lines)
