"""C-System's sheet: the list widget (`widgets.rowlist`) painting `view.cslist.build_list`.

Its spans are styled by `view.cslist.Role` (`ROLE_CLASS`: `cslist--…` in
`screens.tcss`); a click on a row posts `CsListView.Clicked` up.
"""

from __future__ import annotations

from ...engine.model import Fight
from ...view.cslist import Role, build_list
from ...view.rows import RowList
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

    def build(self, fight: Fight, width: int | None) -> RowList:
        return build_list(fight, None if self.for_players else self.selected,
                          for_players=self.for_players, width=width)
