"""One Line-API widget painting a ruleset's list (`view.rows.RowList`).

Each ruleset subclasses `RowListView` with its view's build function (`build`) and
its role→component-class table (`ROLE_CLASS`, with the whole-row classes): C-System
(`widgets.cslist`), the storyteller (`widgets.narrlist`).  The list is rebuilt,
fitted to the widget's width, on every `show()`, `select()` and resize (a few dozen
rows at most: cheap); the column titles stay on the top line while the rows scroll.
Each span is styled by its role, each row by its flags (▶ actor, ✓ acted: dimmed,
out: struck, selected: highlighted).  The widget holds no game state: the app
pushes the fight and the selection in; a click on a row posts
`RowListView.Clicked` up.  The texts are the view's, already literal (plain
segments, never markup).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import ClassVar

from rich.segment import Segment
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .styled import StyledLines
from ...engine.model import Fight
from ...view.rows import Kind, Line, RowList


def role_classes(roles: type[StrEnum], prefix: str) -> dict[StrEnum, str]:
    """The component class of each role but plain text: `prefix--value`."""
    return {role: f"{prefix}--{role.value}" for role in roles if role.value != "text"}


class RowListView(StyledLines, ScrollView, can_focus=True):
    """The order of initiative, one row per combatant, painted line by line."""

    #: The component class of each span role (`screens.tcss` gives their colours).
    ROLE_CLASS: ClassVar[Mapping[StrEnum, str]] = {}
    #: Whole-row classes: the selected row, a row whose go is over, a row out of
    #: the fight, the ▶ span of the one who acts now.
    SELECTED_CLASS: ClassVar[str] = ""
    ACTED_CLASS: ClassVar[str] = ""
    OUT_CLASS: ClassVar[str] = ""
    ACTING_CLASS: ClassVar[str] = ""
    #: The role of the ▶ span (it takes `ACTING_CLASS` on the actor's row).
    ACTOR_ROLE: ClassVar[StrEnum | None] = None
    #: A class for the whole of a line of some kind (the storyteller's attack line).
    KIND_CLASS: ClassVar[Mapping[Kind, str]] = {}
    #: Whether one row per combatant under the titles is a lower bound of the
    #: lines in the players' list too (then a list taller than the widget is known
    #: before it is built); it always is in the DJ's, which has a row for everyone.
    ROWS_BOUND_LINES: ClassVar[bool] = False

    class Clicked(Message):
        """The DJ clicked a combatant's row."""

        def __init__(self, name: str) -> None:
            self.name = name
            super().__init__()

    def __init__(self, *, for_players: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.for_players = for_players
        self.fight: Fight | None = None
        self.selected: str | None = None
        self.list = RowList(())
        #: Painted lines by the id of their `Line` (kept alive with it), width and scroll:
        #: a new selection on the same state repaints two lines, not the list.
        self._strips: dict[int, tuple[Line, int, int, Strip]] = {}

    def build(self, fight: Fight, width: int | None) -> RowList:
        """The ruleset's list of `fight` for this widget, `width` cells wide."""
        raise NotImplementedError

    # ------------------------------------------------------------ state in

    def show(self, fight: Fight | None, selected: str | None) -> None:
        self.fight, self.selected = fight, selected
        self._rebuild()

    def select(self, selected: str | None) -> None:
        if selected != self.selected:
            self.selected = selected
            self._rebuild()

    def on_resize(self, event: events.Resize) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        fight = self.fight
        before = self.list.lines
        self.list = RowList(()) if fight is None else self._fitted(fight)
        lines = self.list.lines
        widest = max((line.length for line in lines), default=0)
        # Never narrower than the room: a list whose widest line shrinks keeps its
        # virtual size, so a key changes no layout (only the lines it changed).
        size = Size(max(widest, self.scrollable_content_region.width), len(lines))
        if size != self.virtual_size or len(before) != len(lines):
            self.virtual_size = size
            self.refresh()
        else:  # the same shape: repaint only the lines that changed (a go's end: two rows)
            for index, (old, new) in enumerate(zip(before, lines)):
                if old is not new and old != new:
                    self.refresh_line(index if index else self.scroll_offset.y)
        self.call_after_refresh(self._keep_in_view)

    def _fitted(self, fight: Fight) -> RowList:
        """The list fitted to the room inside the padding, less a vertical scrollbar's
        when its lines overflow the height."""
        width = self.content_region.width

        def build(room: int) -> RowList:
            return self.build(fight, room if room > 0 else None)

        height = self.content_region.height
        bar = self.styles.scrollbar_size_vertical
        # The rows alone overflowing the height: the scrollbar's room is known at once
        # (the DJ's list has a row for everyone; the players' lacks the hidden).
        bound = self.ROWS_BOUND_LINES or not self.for_players
        if bound and width > 0 and height > 0 and len(fight.combatants) + 1 > height:
            return build(width - bar)
        built = build(width)
        if width > 0 and height > 0 and len(built.lines) > height:
            built = build(width - bar)
        return built

    def _keep_in_view(self) -> None:
        """Scroll so the selected row (the players: the acting one) is visible."""
        for index, line in enumerate(self.list.lines):
            if line.kind is Kind.ROW and (line.selected or (self.for_players and line.actor)):
                self.scroll_to_region_y(index)
                return

    def scroll_to_region_y(self, index: int) -> None:
        height = self.scrollable_content_region.height - 1  # the titles stay on top
        row = index - 1
        if height <= 0:
            return
        if row < self.scroll_y:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= self.scroll_y + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # ------------------------------------------------------------ painting

    def notify_style_update(self) -> None:
        self._strips.clear()
        super().notify_style_update()

    def _line_at(self, y: int) -> Line | None:
        lines = self.list.lines
        if not lines:
            return None
        if y == 0:
            return lines[0]
        index = round(self.scroll_y) + y
        return lines[index] if 0 < index < len(lines) else None

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        line = self._line_at(y)
        if line is None:
            return Strip.blank(width, self.base_style)
        scroll_x = round(self.scroll_x)
        known = self._strips.get(id(line))
        if known is not None and known[0] is line and known[1] == width and known[2] == scroll_x:
            return known[3]
        strip = self._paint(line, width, scroll_x)
        if len(self._strips) > 4096:
            self._strips.clear()
        self._strips[id(line)] = (line, width, scroll_x, strip)
        return strip

    def _paint(self, line: Line, width: int, scroll_x: int) -> Strip:
        row = self.base_style
        kind_class = self.KIND_CLASS.get(line.kind)
        if kind_class:
            row += self.component_style(kind_class)
        if line.selected:
            row += self.component_style(self.SELECTED_CLASS)
        segments = []
        for span in line.spans:
            role_class = self.ROLE_CLASS.get(span.role)
            style = row + self.component_style(role_class) if role_class else row
            if line.actor and span.role is self.ACTOR_ROLE:
                style += self.component_style(self.ACTING_CLASS)
            if line.acted:
                style += self.component_style(self.ACTED_CLASS)
            if line.out:
                style += self.component_style(self.OUT_CLASS)
            segments.append(Segment(span.text, style))
        strip = Strip(segments)
        if scroll_x:
            strip = strip.crop(scroll_x, scroll_x + width)
        return strip.crop_extend(0, width, row)

    # ------------------------------------------------------------ messages up

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = self._line_at(offset.y)
        if line is not None and line.name is not None:
            self.post_message(self.Clicked(line.name))
