"""The storyteller ("narrador") fight screen: the turn's order as a list, the side
panel, the dice-pool panel («Tirada»), the log and the footer, and its keys.

Every key builds a command line and hands it to `app.run_line` (or opens it on the
`:` line for the DJ to finish): the same funnel as the `:` line.  The screen keeps
no game state; which keys apply is read from the fight (phase, declarer, actor, the
attack being resolved), the command itself is the engine's to accept or refuse.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical

from ...engine.commands import quote
from ...engine.model import Fight
from ...engine.narrador.now import current_fight
from ...engine.narrador.tables import find_maneuver
from ...engine.options import YES, Verdict
from ...keys import Entry, Key, Scope, When
from ...view import narrlist
from ...view.rows import ActionChoice
from ..widgets.narrlist import NarrListView
from ..widgets.panel import DicePanel
from .listfight import NO_FIGHT, NOBODY, ListFightScreen, common_entries, key_bindings

NO_ATTACK = "Nadie está atacando ahora: «a» hace actuar a quien le toca"
NO_ACTOR = "Nadie está actuando: es la fase de {phase}"
PHASES = {"initiative": "iniciativa", "declare": "declaración", "act": "acción", "over": "fin del turno"}
#: The phases whose keys «i» and «t» apply in: the initiative phase, and the turn
#: over (the engine starts the next turn's initiative phase first, SYSTEMS §3.4).
INITIATIVE_PHASES = ("initiative", "over")

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
    Entry("t", "tirar la iniciativa de quienes aún no la tienen («tirar», fase de iniciativa; con el turno"
          " terminado empieza el siguiente)", (
        Key("t", "narr('roll')", "narr-roll", "tirar", "t", When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("espacio", "siguiente: acaba la fase de iniciativa, pasa al siguiente declarante, termina el turno"
          " de quien actúa o, con el turno terminado, empieza el siguiente", (
        Key("space", "narr('next')", "narr-next", "siguiente", "␣", When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("x / e", "daño tras la absorción («dano NOMBRE », al objetivo del ataque) / estado del seleccionado", (
        Key("x", "narr('damage')", "narr-damage", "daño", "x", When.FIGHT, Scope.SELECTED),
        Key("e", "narr('condition')", "narr-condition", "estado", None, When.FIGHT, Scope.SELECTED),
    )),
    Entry("i / n", "iniciativa del seleccionado / alta de un combatiente (en la línea de órdenes)", (
        Key("i", "narr('initiative')", "narr-initiative", "iniciativa", None, When.FIGHT, Scope.SELECTED),
        Key("n", "narr('add')", "narr-add", "alta", None, When.FIGHT),
    )),
    Entry("T", "terminar el turno ya (pregunta si alguien no ha actuado; lo pendiente se pierde)", (
        Key("T", "narr('new_turn')", "narr-new-turn", "turno", None, When.FIGHT, Scope.COUNTDOWN),
    )),
    *common_entries("narr", "del sistema narrativo"),
)
_NARR_ALL = tuple(key for entry in NARR_KEYS for key in entry.bindings)


def waiting(fight: Fight) -> list[str]:
    """Who would lose something if the turn ended now."""
    return [c.name for c in narrlist.ordered(fight) if c.name in narrlist.order_of(fight)
            and narrlist.sheet_of(c).status in ("to_declare", "declared", "delaying")]


class NarrFightScreen(ListFightScreen):
    """The storyteller fight (SYSTEMS.md §3.1): the list, with the dice-pool panel under it."""

    #: The rulesets whose fights this screen shows (`CdbApp._fight_screen`).
    RULESETS: ClassVar[tuple[str, ...]] = ("narrador",)

    KEYS = _NARR_ALL
    BINDINGS = key_bindings(_NARR_ALL)
    LIST = NarrListView
    LIST_TITLE = "Iniciativa"
    LEGEND = narrlist.LEGEND_SHORT

    def header(self, fight: Fight) -> str:
        return narrlist.narr_header(fight)

    def _compose_list(self) -> ComposeResult:
        with Vertical(id="narr-left"):
            yield NarrListView(id="sheet")
            yield DicePanel(id="dice")

    def _mounted(self) -> None:
        self.query_one("#dice").display = False

    def _show_more(self, fight: Fight | None) -> None:
        self.query_one("#dice", DicePanel).show(fight)

    # ------------------------------------------------------------ which keys apply

    def _applies_to(self, fight: Fight, action: str, parameters: tuple[object, ...]) -> Verdict:
        if not narrlist.is_narrador(fight):
            return Verdict(False, NO_FIGHT)
        fight = current_fight(fight)  # the sheets as they stand in this turn
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
            return YES if phase in INITIATIVE_PHASES else Verdict(
                False, "La iniciativa se escribe en la fase de iniciativa (al empezar cada turno)")
        if kind == "condition":
            return YES if selected is not None else Verdict(False, NOBODY)
        if kind == "new_turn":  # from any phase (SYSTEMS §3.5)
            return YES
        if kind == "roll":  # (with everyone's initiative in, the engine says so)
            return YES if phase in INITIATIVE_PHASES else Verdict(
                False, "La iniciativa se tira en la fase de iniciativa (al empezar cada turno)")
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

    # ------------------------------------------------------------ actions: keys → lines

    def action_narr(self, kind: str) -> None:
        fight = self.app.fight
        fight = current_fight(fight) if fight is not None else None  # as it stands in this turn
        if fight is None:
            return
        getattr(self, f"_{kind}")(fight)

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
        targets = tuple(ActionChoice(name, f"{who} actua a {quote(name)} exitos=", False)
                        for name in others)
        self._pick(f"{actor.name}: {m.name} a…", targets)

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

    def _roll(self, fight: Fight) -> None:
        self.app.run_line("tirar")

    def _new_turn(self, fight: Fight) -> None:
        self._end_turn(waiting(fight), "Pierden lo que les quedaba.")
