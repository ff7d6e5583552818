"""The side panel: everything about the selected combatant, from `view.panel_rows`.

The values are user text (names, conditions, wait triggers…), already literal
(`view`); they are painted as plain segments (`panel_lines`), never parsed as
markup.  The title (a border title) is a `Content`, also never markup.
"""

from __future__ import annotations

import textwrap

from rich.segment import Segment
from textual.content import Content
from textual.geometry import Region
from textual.markup import escape
from textual.strip import Strip
from textual.widget import Widget

from .styled import StyledLines
from ...engine.model import Combatant, Fight
from ...view import LEGEND_SHORT, PanelRow, RowRole, panel_rows, panel_title
from ...view.rulesets import is_csystem, is_narrador

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


#: The component class of a value's style, by its role (`SidePanel.DEFAULT_CSS`).
ROLE_CLASS = {
    RowRole.NORMAL: None,
    RowRole.AC: "panel--ac",
    RowRole.DIM: "panel--dim",
    RowRole.WARNING: "panel--warning",
    RowRole.GOOD: "panel--good",
    RowRole.CARRIED: "panel--carried",
}
#: What the panel says with nobody selected.
NOBODY = ("Nadie seleccionado.", "", "«a» añade un combatiente.")

#: A painted line: its parts, each a text and the component class of its style.
Line = tuple[tuple[str, str | None], ...]


def panel_lines(rows: tuple[PanelRow, ...], width: int = WIDTH) -> tuple[Line, ...]:
    """The panel's lines: a muted label and the value in its role's style, a long
    value wrapped under itself (the label column stays clear)."""
    lines: list[Line] = []
    for row in rows:
        values = wrap_value(row.value, width - LABEL)
        style = ROLE_CLASS[row.role]
        lines.append(((f"{row.label:<{LABEL - 1}} ", "panel--label"), (values[0], style)))
        lines.extend(((" " * LABEL, None), (value, style)) for value in values[1:])
    return tuple(lines)


def _title_and_rows(combatant: Combatant, fight: Fight) -> tuple[str, tuple[PanelRow, ...]]:
    """The panel's title and rows in the fight's ruleset (the other rulesets'
    views are imported when a fight uses them: a CdB fight starts without them)."""
    if is_narrador(fight):
        from ...view.narrlist import narr_panel_rows, narr_panel_title
        return narr_panel_title(combatant), narr_panel_rows(combatant, fight)
    if is_csystem(fight):
        from ...view.cslist import cs_panel_rows, cs_panel_title
        return cs_panel_title(combatant), cs_panel_rows(combatant, fight)
    return panel_title(combatant), panel_rows(combatant, fight)


class SidePanel(StyledLines, Widget):
    """Attributes down: `show(fight, name)` repaints it; it never changes the fight.

    A Line-API widget painting `panel_lines` (a `Static` re-rendered its whole
    content on every change of the selection: the dearest part of an arrow key)."""

    COMPONENT_CLASSES = {"panel--label", *(c for c in ROLE_CLASS.values() if c)}
    DEFAULT_CSS = """
    SidePanel {
        height: auto;
        & > .panel--label { color: $text-muted; }
        & > .panel--ac { text-style: bold; }
        & > .panel--dim { color: $text-muted; }
        & > .panel--warning { color: $warning; }
        & > .panel--good { color: $success; }
        & > .panel--carried { color: $warning; text-style: italic; }
    }
    """

    _rows: tuple[PanelRow, ...] | None = None
    _width: int = WIDTH
    _title: str | None = None
    _lines: tuple[Line, ...] = tuple(((text, None),) for text in NOBODY)
    _styles: dict | None = None

    def show(self, fight: Fight | None, name: str | None) -> None:
        combatant = fight.find(name) if fight is not None and name else None
        if combatant is None:
            if self._rows is not None or self._title is None:
                self.border_title = "Sin selección"
                self._rows, self._title = None, ""
                self._paint(tuple(((text, None),) for text in NOBODY))
            return
        title, rows = _title_and_rows(combatant, fight)
        if title != self._title:
            self._title = title
            self._retitle(title)
        width = self.size.width or WIDTH
        if rows != self._rows or width != self._width:  # no repaint when unchanged
            self._rows, self._width = rows, width
            self._paint(panel_lines(rows, width))

    def _retitle(self, title: str) -> None:
        """The border's title, painting only the border's top line again (setting
        `border_title` repaints the whole panel: Textual's descriptor stores the
        Content in `_border_title` and refreshes all)."""
        if not self.is_mounted:
            self.border_title = Content(title)
            return
        self._border_title = Content(title)
        x, y = self.content_offset
        self.refresh(Region(-x, -y, self.outer_size.width, 1))

    def _paint(self, lines: tuple[Line, ...]) -> None:
        # A layout only when it grows: a shorter panel keeps its height with blank
        # lines, so that walking the selection doesn't lay the whole screen out again.
        old = self._lines
        if len(lines) > len(old):
            self._lines = lines
            self.refresh(layout=True)
            return
        lines = lines + ((),) * (len(old) - len(lines))
        self._lines = lines
        # Only the lines that changed are painted again (an arrow key or a spend
        # changes a few of them; the border and the rest stay as they are).
        width = self.size.width
        changed = [Region(0, y, width, 1) for y, (was, now) in enumerate(zip(old, lines)) if was != now]
        if changed:
            self.refresh(*changed)

    def on_resize(self) -> None:
        if self._rows is not None and self.size.width != self._width:
            self._width = self.size.width
            self._paint(panel_lines(self._rows, self._width))

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._lines)

    def notify_style_update(self) -> None:
        self._styles = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.base_style
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, base)
        styles = self._styles
        if styles is None:  # once per stylesheet update
            styles = self._styles = {None: base} | {
                name: base + self.component_style(name) for name in self.COMPONENT_CLASSES}
        segments = [Segment(text, styles[style]) for text, style in self._lines[y] if text]
        return Strip(segments).crop_extend(0, width, base)


def dice_lines(rows: tuple[PanelRow, ...], width: int) -> tuple[Line, ...]:
    """The dice-pool panel's lines: a term and its value in two columns ("Salud
    (Lesionado)  −1"); a row without a label is a sentence across the panel."""
    labels = [len(row.label) for row in rows if row.label]
    column = min(max(labels, default=0) + 2, max(width - 10, 8))
    lines: list[Line] = []
    for row in rows:
        style = ROLE_CLASS[row.role]
        if not row.label:
            for value in wrap_value(row.value, width) or [""]:
                lines.append(((value, style),))
            continue
        values = wrap_value(row.value, max(width - column, 4))
        label = row.label if len(row.label) < column else row.label[:column - 2] + "…"
        lines.append(((f"{label:<{column}}", "panel--label"), (values[0], style)))
        lines.extend(((" " * column, None), (value, style)) for value in values[1:])
    return tuple(lines)


class DicePanel(SidePanel):
    """The storyteller dice-pool panel («Tirada», SYSTEMS.md §3.1): the attack being
    resolved (the attacker's dice and difficulty with each modifier, what the target
    can do to defend and with how many dice), or the actor's next roll; hidden when
    there is none.  Painted like the side panel, from `view.narrlist.narr_dice_rows`."""

    def show(self, fight: Fight | None, name: str | None = None) -> None:
        if is_narrador(fight):
            from ...view.narrlist import narr_dice_rows
            title, rows = narr_dice_rows(fight)
        else:
            title, rows = "", ()
        self.display = bool(rows)
        if title != self._title:
            self._title = title
            self._retitle(title)
        width = self.size.width or 40
        if rows != self._rows or width != self._width:
            self._rows, self._width = rows, width
            self._paint(dice_lines(rows, width))

    def on_resize(self) -> None:
        if self._rows is not None and self.size.width != self._width:
            self._width = self.size.width
            self._paint(dice_lines(self._rows, self._width))


def legend_markup(marks: tuple[tuple[str, str], ...] = LEGEND_SHORT) -> str:
    """The legend of the sheet's marks (C-System's: `view.cslist.LEGEND_SHORT`),
    shown under the panel (it never changes)."""
    lines = ["[b]Leyenda[/b]"]
    for mark, meaning in marks:
        lines.append(f"[$accent]{escape(mark):<4}[/] [$text-muted]{escape(meaning)}[/]")
    return "\n".join(lines)
