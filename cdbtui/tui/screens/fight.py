"""The main screen: header, sheet, side panel, log and footer, and the DJ's keys.

Every key builds a command line and hands it to `app.run_line`; the screen keeps
no game state.  The key table below is the one place the bindings are declared;
`check_action` hides those that do not apply now, so the Footer lists only them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine.commands import quote
from ...engine.model import Fight, Status
from ...roster import member_from_combatant, party_lines, put_member, roster_path
from ...store import SaveError
from ...view import status_line
from ..text import plain, tell
from ..widgets.fightlog import FightLog
from ..widgets.panel import SidePanel, legend_markup
from ..widgets.sheet import SheetView

#: (keys, action, description in the footer, key shown or None to hide) — the DJ's keys.
KEYS = (
    ("enter", "maneuver", "maniobra", "⏎"),
    ("1", "spend(1)", "gastar", "1-9"),
    *((str(n), f"spend({n})", f"gastar {n}", None) for n in range(2, 10)),
    ("e", "react('esquivar')", "esquivar", "e"),
    ("c", "react('ponerse-a-cubierto')", "cubierto", "c"),
    ("r", "hold", "retrasar", "r"),
    ("w", "wait", "esperar", "w"),
    ("f", "done", "fin", "f"),
    ("d", "damage", "daño", "d"),
    ("s", "condition", "estado", "s"),
    ("space", "next", "avanzar", "␣"),
    ("t", "new_turn", "turno", "t"),
    ("u,ctrl+z", "undo", "deshacer", "u"),
    ("ctrl+y", "redo", "rehacer", "^y"),
    ("left,h", "move(-1)", "anterior", None),
    ("right,l", "move(1)", "siguiente", None),
    ("a", "add", "añadir", "a"),
    ("G", "party_save", "al grupo", None),
    ("A", "party_add", "añadir el grupo", None),
    ("i", "initiative", "iniciativa", "i"),
    ("colon", "command_line", "orden", ":"),
    ("question_mark", "help", "ayuda", "?"),
    ("q", "app.quit", "salir", "q"),
)


class FightScreen(Screen):
    """The live Plantilla."""

    BINDINGS = [
        Binding(keys, action, description, show=shown is not None, key_display=shown)
        for keys, action, description, shown in KEYS
    ]

    _binding_signature: tuple = ()

    def compose(self) -> ComposeResult:
        yield Static("", id="fight-header")
        with Horizontal(id="main"):
            yield SheetView(id="sheet")
            with Vertical(id="side"):
                yield SidePanel(id="panel")
                yield Static(legend_markup(), id="legend")
        yield FightLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Plantilla"
        self.query_one("#log").border_title = "Registro"
        self.query_one(SheetView).focus()

    # ------------------------------------------------------------ state in

    def show(self, fight: Fight | None, selected: str | None) -> None:
        self.query_one("#fight-header", Static).update(
            plain(status_line(fight) if fight is not None else "Sin combate abierto"), layout=False
        )
        self.query_one(SheetView).show(fight, selected)
        self.query_one(SidePanel).show(fight, selected)
        self.query_one(FightLog).show(fight.log if fight is not None else ())
        self._refresh_bindings_if_changed()

    def show_selection(self, fight: Fight | None, selected: str | None) -> None:
        self.query_one(SheetView).select(selected)
        self.query_one(SidePanel).show(fight, selected)
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        """Refresh the Footer only when the set of keys that apply changes.

        A footer refresh rebuilds its key widgets, which costs more than the rest of
        a keypress; most commands leave the same keys applicable.
        """
        signature = tuple(
            self.check_action(action, ()) for action in
            ("maneuver", "spend", "react", "hold", "done", "next", "new_turn", "move")
        )
        if signature != self._binding_signature:
            self._binding_signature = signature
            self.refresh_bindings()

    def on_sheet_view_clicked(self, message: SheetView.Clicked) -> None:
        self.app.select(message.name)

    # ------------------------------------------------------------ which keys apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        fight: Fight | None = getattr(self.app, "fight", None)
        if action in ("help", "command_line", "add", "initiative", "undo", "redo", "move",
                      "damage", "condition", "party_save", "party_add"):
            if fight is None and action not in ("help",):
                return None
            return True
        if fight is None or not fight.started:
            return None
        if action == "new_turn":
            return True
        if action == "next":
            return None if fight.turn_over else True
        who = fight.find(self.app.selected or "")
        if who is None or who.status is Status.OUT:
            return None
        if action in ("done", "wait", "maneuver", "spend") and who.status is Status.DONE:
            return None
        return True

    # ------------------------------------------------------------ actions: keys → lines

    def _who(self) -> str | None:
        name = self.app.selected
        if not name:
            self.app.notify("Nadie seleccionado: usa ←/→ para elegir", severity="warning")
        return name

    def _for_selected(self, template: str, *, edit: bool = False) -> None:
        """Run `template` (with `{name}` quoted in) for the selected combatant, or
        open it on the `:` line for the DJ to finish (`edit`)."""
        name = self._who()
        if not name:
            return
        line = template.format(name=quote(name))
        if edit:
            self.app.open_command_line(line)
        else:
            self.app.run_line(line)

    def action_maneuver(self) -> None:
        name = self._who()
        if name:
            self.app.open_picker(name)

    def action_spend(self, amount: int) -> None:
        self._for_selected(f"{{name}} gasta {amount}")

    def action_react(self, maneuver: str) -> None:
        self._for_selected(f"{{name}} {maneuver}")

    def action_hold(self) -> None:
        who = self.app.fight.find(self.app.selected or "") if self.app.fight else None
        holding = who is not None and who.status is Status.HOLDING and not who.acting
        self._for_selected("{name} actua" if holding else "{name} retrasa")

    def action_wait(self) -> None:
        self._for_selected("{name} espera ", edit=True)

    def action_damage(self) -> None:
        self._for_selected("dano {name} ", edit=True)

    def action_condition(self) -> None:
        self._for_selected("estado {name} +", edit=True)

    def action_done(self) -> None:
        self._for_selected("{name} fin")

    def action_next(self) -> None:
        self.app.run_line("siguiente")

    def action_new_turn(self) -> None:
        self.app.run_line("turno")

    def action_undo(self) -> None:
        self.app.run_line("deshacer")

    def action_redo(self) -> None:
        self.app.run_line("rehacer")

    def action_move(self, step: int) -> None:
        self.app.move_selection(step)

    def action_add(self) -> None:
        self.app.open_add_form()

    def action_party_save(self) -> None:
        """Keep the selected combatant's sheet in the party roster for new fights."""
        fight, name = self.app.fight, self._who()
        who = fight.find(name) if fight is not None and name else None
        if who is None:
            return
        try:
            new = put_member(self.app.saves_dir, member_from_combatant(who))
        except SaveError as error:
            tell(self.app, str(error), severity="error")
            return
        verb = "añadido al" if new else "actualizado en el"
        tell(self.app, f"{who.name} {verb} grupo de PJ ({roster_path(self.app.saves_dir)})")

    def action_party_add(self) -> None:
        """Add the party members missing from this fight (each an `alta`, undoable)."""
        fight = self.app.fight
        try:
            lines = party_lines(self.app.saves_dir, tuple(c.name for c in fight.combatants))
        except SaveError as error:
            tell(self.app, str(error), severity="error")
            return
        if not lines:
            self.app.notify("No falta nadie del grupo (o el grupo está vacío: «G» guarda un PJ)",
                            severity="warning")
            return
        for line in lines:
            if not self.app.run_line(line):
                break

    def action_initiative(self) -> None:
        self.app.open_setup()

    def action_command_line(self) -> None:
        self.app.open_command_line("")

    def action_help(self) -> None:
        self.app.open_help()
