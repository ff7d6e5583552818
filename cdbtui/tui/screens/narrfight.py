"""The storyteller ("narrador") fight screen: the turn's order as a list, the side
panel, the dice-pool panel («Tirada»), the log and the footer, and its keys.

Every key builds a command line and hands it to `app.run_line` (or opens it on the
`:` line for the DJ to finish): the same funnel as the `:` line.  The screen keeps
no game state; which keys apply is read from the fight (phase, declarer, actor, the
attack being resolved), the command itself is the engine's to accept or refuse.
"""

from __future__ import annotations

from textual import events
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...engine.commands import quote
from ...engine.model import Fight
from ...engine.narrador.tables import find_maneuver
from ...engine.options import YES, Verdict
from ...keys import SCOPE_ORDER, Entry, Key, Scope, When
from ...view import cslist, narrlist
from ..text import plain, tell
from ..widgets.fightlog import FightLog
from ..widgets.keybar import KeyBar
from ..widgets.narrlist import NarrListView
from ..widgets.panel import DicePanel, SidePanel, legend_markup

NO_FIGHT = "No hay ningún combate abierto"
NOBODY = "Nadie seleccionado: usa ←/→ para elegir"
NO_ATTACK = "Nadie está atacando ahora: «a» hace actuar a quien le toca"
NO_ACTOR = "Nadie está actuando: es la fase de {phase}"
PHASES = {"initiative": "iniciativa", "declare": "declaración", "act": "acción", "over": "fin"}
LEGEND_ROWS = 40

#: The storyteller keys (one table: the screen's bindings and the help's lines).
NARR_KEYS: tuple[Entry, ...] = (
    Entry("d", "declarar: «declara NOMBRE » para quien declara ahora (o el seleccionado)", (
        Key("d", "narr('declare')", "narr-declare", "declarar", "d", When.FIGHT, Scope.SELECTED),
    )),
    Entry("a / ⏎", "actuar: la siguiente acción declarada de quien actúa; si es un ataque, elige el objetivo"
          " y escribe los éxitos («NOMBRE actua a OBJETIVO exitos=»)", (
        Key("a,enter", "narr('act')", "narr-act", "actuar", "a", When.FIGHT, Scope.SELECTED),
    )),
    Entry("g", "defender al objetivo del ataque en curso («OBJETIVO defiende »)", (
        Key("g", "narr('defend')", "narr-defend", "defender", "g", When.FIGHT, Scope.SELECTED),
    )),
    Entry("b", "abortar: el objetivo abandona una acción para defenderse («OBJETIVO aborta »)", (
        Key("b", "narr('abort')", "narr-abort", "abortar", "b", When.FIGHT, Scope.SELECTED),
    )),
    Entry("r", "retrasar la acción de quien actúa («NOMBRE retrasa»)", (
        Key("r", "narr('delay')", "narr-delay", "retrasar", "r", When.FIGHT, Scope.SELECTED),
    )),
    Entry("f", "fin: quien actúa deja lo que le quedaba («NOMBRE fin»)", (
        Key("f", "narr('done')", "narr-done", "fin", "f", When.FIGHT, Scope.SELECTED),
    )),
    Entry("x / e", "daño tras la absorción («dano NOMBRE », al objetivo del ataque) / estado del seleccionado", (
        Key("x", "narr('damage')", "narr-damage", "daño", "x", When.FIGHT, Scope.SELECTED),
        Key("e", "narr('condition')", "narr-condition", "estado", "e", When.FIGHT, Scope.SELECTED),
    )),
    Entry("i / n", "iniciativa del seleccionado / alta de un combatiente (en la línea de órdenes)", (
        Key("i", "narr('initiative')", "narr-initiative", "iniciativa", "i", When.FIGHT, Scope.SELECTED),
        Key("n", "narr('add')", "narr-add", "alta", None, When.FIGHT),
    )),
    Entry("espacio", "siguiente: acaba la fase de iniciativa, pasa al siguiente declarante o termina el turno"
          " de quien actúa", (
        Key("space", "narr('next')", "narr-next", "siguiente", "␣", When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("t", "terminar el turno ya (pregunta si alguien no ha actuado; lo pendiente se pierde)", (
        Key("t", "narr('new_turn')", "narr-new-turn", "turno", "t", When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("u / ctrl+z, ctrl+y", "deshacer, rehacer", (
        Key("u,ctrl+z", "undo", "narr-undo", "deshacer", "u", When.FIGHT, Scope.HISTORY),
        Key("ctrl+y", "redo", "narr-redo", "rehacer", None, When.FIGHT, Scope.HISTORY),
    )),
    Entry("← → ↑ ↓ / h l k j", "mover la selección por la lista", (
        Key("left,h,up,k", "move(-1)", "narr-move-up", "anterior", None, When.FIGHT, priority=True),
        Key("right,l,down,j", "move(1)", "narr-move-down", "siguiente", None, When.FIGHT, priority=True),
    )),
    Entry(":", "línea de órdenes (todas las órdenes del sistema narrativo)", (
        Key("colon", "command_line", "narr-command-line", "orden", ":", When.FIGHT),
    )),
    Entry("?", "esta ayuda: teclas, marcas, órdenes y decisiones de reglas", (
        Key("question_mark", "help", "narr-help", "ayuda", "?", When.ALWAYS),
    )),
    Entry("L", "mostrar u ocultar la leyenda", (
        Key("L", "legend", "narr-legend", "leyenda", None, When.ALWAYS),
    )),
    Entry("q / ctrl+q", "volver a la lista de combates / salir; todo queda guardado", (
        Key("q", "leave", "narr-leave", "cerrar", None, When.ALWAYS),
    )),
)
_NARR_ALL = tuple(key for entry in NARR_KEYS for key in entry.bindings)
_NARR_BY_KEY = {name: key for key in _NARR_ALL for name in key.keys.split(",")}


def narr_legend_markup() -> str:
    return legend_markup(narrlist.LEGEND_SHORT)


def waiting(fight: Fight) -> list[str]:
    """Who would lose something if the turn ended now."""
    return [c.name for c in narrlist.ordered(fight) if c.name in narrlist.order_of(fight)
            and narrlist.sheet_of(c).status in ("to_declare", "declared", "delaying")]


class NarrFightScreen(Screen):
    """The storyteller fight (SYSTEMS.md §3.1)."""

    BINDINGS = [
        Binding(key.keys, key.action, key.label, show=key.shown is not None,
                key_display=key.shown, id=key.id, priority=key.priority)
        for key in sorted(_NARR_ALL, key=lambda key: SCOPE_ORDER.index(key.scope))
    ]
    _ready = False
    _header: str | None = None
    _binding_signature: tuple = ()
    _verdicts: tuple[Fight | None, str | None, dict] = (None, None, {})
    _legend_shown: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="fight-header")
        with Horizontal(id="main"):
            with Vertical(id="narr-left"):
                yield NarrListView(id="sheet")
                yield DicePanel(id="dice")
            with Vertical(id="side"):
                yield SidePanel(id="panel")
                yield Static(narr_legend_markup(), id="legend")
        yield FightLog(id="log")
        yield Static("", id="finder")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = "Iniciativa"
        self.query_one("#log").border_title = "Registro"
        self.query_one("#finder").display = False
        self.query_one("#dice").display = False
        self.query_one(NarrListView).focus()
        self._fold_legend()
        self._ready = True
        self.show(getattr(self.app, "fight", None), self.app.selected)

    def on_resize(self) -> None:
        if self._ready:
            self._fold_legend()

    def _fold_legend(self) -> None:
        shown = self._legend_shown
        if shown is None:
            shown = self.app.size.height >= LEGEND_ROWS
        legend = self.query_one("#legend", Static)
        if legend.has_class("-folded") == shown:
            legend.set_class(not shown, "-folded")
            legend.update(narr_legend_markup() if shown else "[b]Leyenda[/b] [$text-muted](L)[/]")

    # ------------------------------------------------------------ state in

    def show(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready:
            return
        header = narrlist.narr_header(fight) if fight is not None else "Sin combate abierto"
        if header != self._header:
            self._header = header
            self.query_one("#fight-header", Static).update(plain(header), layout=False)
        self.query_one(NarrListView).show(fight, selected)
        self.query_one("#panel", SidePanel).show(fight, selected)
        self.query_one("#dice", DicePanel).show(fight)
        self.query_one(FightLog).show(fight.log if fight is not None else ())
        self._refresh_bindings_if_changed()

    def show_selection(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready:
            return
        self.query_one(NarrListView).select(selected)
        self.query_one("#panel", SidePanel).show(fight, selected)
        self._refresh_bindings_if_changed()

    def _refresh_bindings_if_changed(self) -> None:
        signature = tuple(bool(self.applies(key.action_name, parse_action(key.action)[2]))
                          for key in _NARR_ALL if key.shown is not None)
        if signature != self._binding_signature:
            self._binding_signature = signature
            self.refresh_bindings()

    def on_narr_list_view_clicked(self, message: NarrListView.Clicked) -> None:
        self.app.select(message.name)

    # ------------------------------------------------------------ which keys apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.applies(action, parameters))

    def applies(self, action: str, parameters: tuple[object, ...] = ()) -> Verdict:
        fight = getattr(self.app, "fight", None)
        selected = self.app.selected
        known_fight, known_selected, memo = self._verdicts
        if known_fight is not fight or known_selected != selected:
            memo = {}
            self._verdicts = (fight, selected, memo)
        key = (action, parameters)
        verdict = memo.get(key)
        if verdict is None:
            verdict = memo[key] = self._applies(action, parameters)
        return verdict

    def _applies(self, action: str, parameters: tuple[object, ...]) -> Verdict:
        fight: Fight | None = getattr(self.app, "fight", None)
        if action in ("help", "legend", "leave"):
            return YES
        if fight is None or not narrlist.is_narrador(fight):
            return Verdict(False, NO_FIGHT)
        if action != "narr":
            return YES
        kind = str(parameters[0]) if parameters else ""
        phase = narrlist.phase_of(fight)
        attack = narrlist.attack_of(fight)
        selected = fight.find(self.app.selected or "")
        if kind in ("next", "add", "damage"):
            return YES if kind != "damage" or attack or selected else Verdict(False, NOBODY)
        if kind == "declare":
            return YES if phase == "declare" else Verdict(
                False, f"Ahora no se declara: es la fase de {PHASES.get(phase, phase)}")
        if kind in ("defend", "abort"):
            return YES if attack is not None else Verdict(False, "Nadie está atacando ahora")
        if kind == "initiative":
            return YES if phase == "initiative" else Verdict(
                False, "La iniciativa se escribe en la fase de iniciativa (al empezar cada turno)")
        if kind == "condition":
            return YES if selected is not None else Verdict(False, NOBODY)
        if kind == "new_turn":
            started = phase != "initiative" or any(
                narrlist.sheet_of(c).status != "to_declare" for c in fight.combatants)
            return YES if started else Verdict(False, "El turno aún no ha empezado: iniciativas y «siguiente»")
        if kind == "act":
            if phase != "act":
                return Verdict(False, NO_ACTOR.format(phase=PHASES.get(phase, phase)))
            if fight.actor or (selected is not None and narrlist.sheet_of(selected).status == "delaying"):
                return YES
            return Verdict(False, "Nadie tiene el turno: los que retrasan actúan con «NOMBRE actua ACCION»")
        if kind in ("delay", "done"):
            if phase != "act" or not fight.actor:
                return Verdict(False, NO_ACTOR.format(phase=PHASES.get(phase, phase)))
            return YES
        return YES

    def on_key(self, event: events.Key) -> None:
        key = _NARR_BY_KEY.get(event.key)
        if key is None:
            return
        verdict = self.applies(key.action_name, parse_action(key.action)[2])
        if not verdict:
            event.stop()
            event.prevent_default()
            tell(self.app, verdict.why, severity="warning")

    # ------------------------------------------------------------ actions: keys → lines

    def action_move(self, step: int) -> None:
        self.app.move_selection(step)

    def action_legend(self) -> None:
        self._legend_shown = self.query_one("#legend").has_class("-folded")
        self._fold_legend()

    def action_leave(self) -> None:
        self.app.leave_fight()

    def action_undo(self) -> None:
        self.app.run_line("deshacer")

    def action_redo(self) -> None:
        self.app.run_line("rehacer")

    def action_command_line(self) -> None:
        self.app.open_command_line("")

    def action_help(self) -> None:
        self.app.open_help()

    def action_narr(self, kind: str) -> None:
        fight = self.app.fight
        if fight is None:
            return
        getattr(self, f"_{kind}")(fight)

    def _selected(self) -> str | None:
        name = self.app.selected
        if not name:
            self.app.notify(NOBODY, severity="warning")
        return name

    def _declare(self, fight: Fight) -> None:
        who = narrlist.declarer_of(fight) or self._selected()
        if who:
            self.app.open_command_line(f"declara {quote(who)} ")

    def _act(self, fight: Fight) -> None:
        selected = fight.find(self.app.selected or "")
        if selected is not None and narrlist.sheet_of(selected).status == "delaying" \
                and selected.name != fight.actor:
            self.app.open_command_line(f"{quote(selected.name)} actua ")
            return
        actor = fight.find(fight.actor or "")
        if actor is None:
            return
        s = narrlist.sheet_of(actor)
        pending = [d for d in s.declared if not d.defense and not d.done]
        m = find_maneuver(pending[0].action) if pending else None
        who = quote(actor.name)
        if m is None or not (m.attack or m.id == "apretar"):
            self.app.run_line(f"{who} actua")
            return
        names = narrlist.narr_selection_order(fight)
        others = [n for n in names if n != actor.name and not narrlist.sheet_of(fight.find(n)).out]
        # The other side first: the likelier targets.
        others.sort(key=lambda n: fight.find(n).is_pc == actor.is_pc)
        targets = tuple(cslist.ActionChoice(name, f"{who} actua a {quote(name)} exitos=", False)
                        for name in others)
        from .fight import CsPicker

        title = f"{actor.name}: {m.name} a…"
        self.app.push_screen(CsPicker(title, targets), self._then)

    def _then(self, answer: tuple[str, bool] | None) -> None:
        if not answer:
            return
        line, complete = answer
        if complete:
            self.app.run_line(line)
        else:
            self.app.open_command_line(line)

    def _target(self, fight: Fight) -> str | None:
        attack = narrlist.attack_of(fight)
        return attack.target if attack is not None else None

    def _defend(self, fight: Fight) -> None:
        target = self._target(fight)
        if target:
            self.app.open_command_line(f"{quote(target)} defiende ")

    def _abort(self, fight: Fight) -> None:
        target = self._target(fight)
        if target:
            self.app.open_command_line(f"{quote(target)} aborta ")

    def _delay(self, fight: Fight) -> None:
        if fight.actor:
            self.app.run_line(f"{quote(fight.actor)} retrasa")

    def _done(self, fight: Fight) -> None:
        if fight.actor:
            self.app.run_line(f"{quote(fight.actor)} fin")

    def _damage(self, fight: Fight) -> None:
        who = self._target(fight) or self._selected()
        if who:
            self.app.open_command_line(f"dano {quote(who)} ")

    def _condition(self, fight: Fight) -> None:
        who = self._selected()
        if who:
            self.app.open_command_line(f"estado {quote(who)} +")

    def _initiative(self, fight: Fight) -> None:
        who = self._selected()
        if who:
            self.app.open_command_line(f"iniciativa {quote(who)} ")

    def _add(self, fight: Fight) -> None:
        self.app.open_command_line("alta ")

    def _next(self, fight: Fight) -> None:
        self.app.run_line("siguiente")

    def _new_turn(self, fight: Fight) -> None:
        from .confirm import Confirm

        left = waiting(fight)
        if not left:
            self.app.run_line("turno")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.run_line("turno")

        self.app.push_screen(Confirm("Sin actuar aún: " + ", ".join(left) + ".",
                                     "¿Terminar el turno? Pierden lo que les quedaba."), answer)
