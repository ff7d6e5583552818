"""The storyteller sheet: one Line-API widget painting `view.narrlist.build_list`.

The list is rebuilt, fitted to the widget's width, on every `show()`, `select()`
and resize (a few dozen rows at most: cheap); the column titles stay on the top
line while the rows scroll.  Each span is styled by its role (`ROLE_CLASS`), each
row by its flags (▶ actor, ✓ acted: dimmed, out: struck, selected: highlighted).
The widget holds no game state: the app pushes the fight and the selection in; a
click on a row posts `NarrListView.Clicked` up.  The texts are the view's, already
literal (plain segments, never markup).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...engine.model import Fight
from ...view.narrlist import Kind, Line, NarrList, Role, build_list

#: The component class of each role (`screens.tcss` gives their colours).
ROLE_CLASS = {role: f"narrlist--{role.value}" for role in Role}
#: Whole-row styles, by flag.
ROW_CLASSES = ("narrlist--selected", "narrlist--acted-row", "narrlist--out", "narrlist--acting-row",
               "narrlist--attack-line")


class NarrListView(ScrollView, can_focus=True):
    """The order of initiative, one row per combatant, painted line by line."""

    COMPONENT_CLASSES = {*ROLE_CLASS.values(), *ROW_CLASSES}

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
        self.list = NarrList(())
        self._styles: dict[str, Style] = {}

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
        self.list = NarrList(()) if fight is None else self._build(fight)
        lines = self.list.lines
        widest = max((sum(len(s.text) for s in line.spans) for line in lines), default=0)
        size = Size(widest, len(lines))
        if size != self.virtual_size:
            self.virtual_size = size
        self.refresh()
        self.call_after_refresh(self._keep_in_view)

    def _build(self, fight: Fight) -> NarrList:
        """The list fitted to the room inside the padding, less a vertical scrollbar's
        when its lines overflow the height."""
        width = self.content_region.width

        def build(room: int) -> NarrList:
            return build_list(fight, None if self.for_players else self.selected,
                              for_players=self.for_players, width=room if room > 0 else None,
                              attack_line=self.for_players)

        built = build(width)
        height = self.content_region.height
        if width > 0 and height > 0 and len(built.lines) > height:
            built = build(width - self.styles.scrollbar_size_vertical)
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
        self._styles.clear()
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name, partial=True)
        return style

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
        base = self.rich_style
        line = self._line_at(y)
        if line is None:
            return Strip.blank(width, base)
        row = base
        if line.kind is Kind.ATTACK:
            row += self._style("narrlist--attack-line")
        if line.selected:
            row += self._style("narrlist--selected")
        segments = []
        for span in line.spans:
            style = row + self._style(ROLE_CLASS[span.role]) if span.role is not Role.TEXT else row
            if line.actor and span.role is Role.ACTOR:
                style += self._style("narrlist--acting-row")
            if line.acted:
                style += self._style("narrlist--acted-row")
            if line.out:
                style += self._style("narrlist--out")
            segments.append(Segment(span.text, style))
        strip = Strip(segments)
        scroll_x = round(self.scroll_x)
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
