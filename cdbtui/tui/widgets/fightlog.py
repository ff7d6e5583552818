"""The fight's log, newest last: a small Line API widget kept in step with `Fight.log`.

Its virtual height is fixed (the last KEEP entries, padded at the top), so a new
entry repaints the log without a layout of the whole screen; it scrolls back
with the usual keys and the mouse wheel.  Long lines are cut with an ellipsis;
each entry is one line on screen, its texts shown literally (`printable.literal`:
a newline or an escape sequence typed into a free-action text shows as `\\n`,
`\\x1b`, and never reaches the terminal).
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from rich.segment import Segment

from .styled import StyledLines
from ...engine.model import LogEntry
from ...printable import literal
from ...view import fit

KEEP = 200  # entries shown; the save keeps them all


class FightLog(StyledLines, ScrollView, can_focus=True):
    """Attributes down: `show(entries)`; it never changes the fight."""

    COMPONENT_CLASSES = {"fightlog--warning"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[LogEntry, ...] = ()
        self._lines: list[LogEntry | None] = [None] * KEEP
        #: id(entry) → (entry, width, strip): the strips painted, by entry.
        self._strips: dict[int, tuple[LogEntry, int, Strip]] = {}
        self.virtual_size = Size(0, KEEP)

    def on_mount(self) -> None:
        self.call_after_refresh(self._follow)

    def on_resize(self) -> None:
        self.call_after_refresh(self._follow)

    def _follow(self) -> None:
        self.scroll_end(animate=False, immediate=True)

    def show(self, entries: tuple[LogEntry, ...]) -> None:
        if entries is self._shown:
            return
        self._shown = entries
        tail = list(entries[-KEEP:])
        self._lines = [None] * (KEEP - len(tail)) + tail
        self.refresh()
        self.call_after_refresh(self._follow)  # newest last, always in view

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        entry = self._lines[index] if 0 <= index < len(self._lines) else None
        if entry is None:
            return Strip.blank(width, self.base_style)
        known = self._strips.get(id(entry))
        if known is not None and known[0] is entry and known[1] == width:
            return known[2]  # a new entry moves the others up a line: each painted once
        style = self.base_style
        if entry.warning:
            style += self.component_style("fightlog--warning")
        strip = Strip([Segment(fit(literal(str(entry)), width), style)], width)
        if len(self._strips) > 2 * KEEP:
            self._strips.clear()
        self._strips[id(entry)] = (entry, width, strip)
        return strip

    def notify_style_update(self) -> None:
        self._strips.clear()
        super().notify_style_update()
