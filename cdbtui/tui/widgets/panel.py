"""The side panel: everything about the selected combatant, from `view.panel_rows`."""

from __future__ import annotations

from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from ...engine.model import Fight
from ...view import LEGEND, panel_rows


ROLE_MARKUP = {
    "normal": "",
    "ac": "bold",
    "dim": "$text-muted",
    "warning": "$warning",
    "good": "$success",
    "carried": "$warning italic",
}


class SidePanel(Static):
    """Attributes down: `show(fight, name)` repaints it; it never changes the fight."""

    _text = ""

    def show(self, fight: Fight | None, name: str | None) -> None:
        combatant = fight.find(name) if fight is not None and name else None
        if combatant is None:
            self.border_title = "Sin selección"
            self.update("Nadie seleccionado.\n\n«a» añade un combatiente.", layout=False)
            return
        side = combatant.side.upper() if combatant.side in ("pj", "pnj") else combatant.side
        self.border_title = f"{combatant.name} · {side}"
        lines = []
        for row in panel_rows(combatant, fight):
            style = ROLE_MARKUP.get(row.role, "")
            value = escape(row.value)
            if style:
                value = f"[{style}]{value}[/]"
            lines.append(f"[$text-muted]{row.label:<10}[/] {value}")
        text = "\n".join(lines)
        if text != self._text:  # fixed size: no layout, and no repaint when unchanged
            self._text = text
            self.update(Content.from_markup(text), layout=False)


def legend_markup() -> str:
    """The legend of the sheet's marks, shown under the panel (it never changes)."""
    lines = ["[b]Leyenda[/b]"]
    for mark, meaning in LEGEND[1:]:
        lines.append(f"[$accent]{escape(mark):<4}[/] [$text-muted]{escape(meaning)}[/]")
    return "\n".join(lines)
