"""The storyteller sheet: the list widget (`widgets.rowlist`) painting `view.narrlist.build_list`.

Its spans are styled by `view.narrlist.Role` (`ROLE_CLASS`: `narrlist--…` in
`screens.tcss`), the attack being resolved by
`narrlist--attack-line` (the players' list shows it too); a click on a row posts
`NarrListView.Clicked` up.
"""

from __future__ import annotations

from ...engine.model import Fight
from ...view.narrlist import Role, build_list
from ...view.rows import Kind, RowList
from .rowlist import RowListView, role_classes


class NarrListView(RowListView):
    """The storyteller's order of this turn, one row per combatant."""

    ROLE_CLASS = role_classes(Role, "narrlist")
    SELECTED_CLASS = "narrlist--selected"
    ACTED_CLASS = "narrlist--acted-row"
    OUT_CLASS = "narrlist--out"
    ACTING_CLASS = "narrlist--acting-row"
    ACTOR_ROLE = Role.ACTOR
    KIND_CLASS = {Kind.ATTACK: "narrlist--attack-line"}
    COMPONENT_CLASSES = {*ROLE_CLASS.values(), *KIND_CLASS.values(), SELECTED_CLASS, ACTED_CLASS, OUT_CLASS,
                         ACTING_CLASS}
    #: The roles `screens.tcss` does not style: a used total-defence die is struck (§3.1).
    def build(self, fight: Fight, width: int | None) -> RowList:
        return build_list(fight, None if self.for_players else self.selected,
                          for_players=self.for_players, width=width, attack_line=self.for_players)
