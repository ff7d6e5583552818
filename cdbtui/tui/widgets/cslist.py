"""C-System's sheet: the list widget (`widgets.rowlist`) painting `view.cslist.build_list`.

Its spans are styled by `view.cslist.Role` (`ROLE_CLASS`: `cslist--…` in
`screens.tcss`); a click on a row posts
`CsListView.Clicked` up.  A row out of the fight is grey and struck as a whole, but
its Vitalidad bar below 0 keeps its red (SYSTEMS.md §2.1).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.strip import Strip

from ...engine.model import Fight
from ...view.cslist import Role, build_list
from ...view.rows import Line, RowList
from .rowlist import RowListView, role_classes


class CsListView(RowListView):
    """C-System's order of initiative, one row per combatant."""

    ROLE_CLASS = role_classes(Role, "cslist")
    SELECTED_CLASS = "cslist--selected"
    ACTED_CLASS = "cslist--done"
    OUT_CLASS = "cslist--out"
    ACTING_CLASS = "cslist--acting-row"
    ACTOR_ROLE = Role.ACTOR
    ROWS_BOUND_LINES = True
    COMPONENT_CLASSES = {*ROLE_CLASS.values(), SELECTED_CLASS, ACTED_CLASS, OUT_CLASS, ACTING_CLASS}
    #: The roles whose colour the grey of a row out of the fight does not cover.
    KEEP_WHEN_OUT = (Role.BAR_BAD,)

    def build(self, fight: Fight, width: int | None) -> RowList:
        return build_list(fight, None if self.for_players else self.selected,
                          for_players=self.for_players, width=width)

    def _paint(self, line: Line, width: int, scroll_x: int) -> Strip:
        strip = super()._paint(line, width, scroll_x)
        if not line.out:
            return strip
        # The cells of the spans that keep their colour, as (first, last + 1, role).
        kept: list[tuple[int, int, Role]] = []
        column = -scroll_x
        for span in line.spans:
            size = cell_len(span.text)
            if span.role in self.KEEP_WHEN_OUT and column + size > 0 and column < width:
                kept.append((max(column, 0), min(column + size, width), span.role))
            column += size
        if not kept:
            return strip
        cuts = sorted({edge for first, last, _ in kept for edge in (first, last)} | {width})
        pieces = strip.divide(cuts)
        roles = {first: role for first, _, role in kept}
        painted, start = [], 0
        for piece, cut in zip(pieces, cuts):
            role = roles.get(start) if start < cut else None
            if role is not None:  # the role's colour over the row's grey (the strike stays)
                again = self.component_style(self.ROLE_CLASS[role])
                piece = Strip(Segment.apply_style(piece, post_style=again), piece.cell_length)
            painted.append(piece)
            start = cut
        return Strip.join(painted)
