"""The C-System fight screen (SYSTEMS.md §2.1): the order of initiative as a list
(`CsListView`), the same side panel, log and footer as every fight, C-System's keys
(`CS_KEYS`) and its `:` line completed from C-System's words.

Imported when a C-System fight is opened (`app._ensure_screen`): a CdB fight starts
without it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.suggester import Suggester
from textual.widgets import Input, Static

from ...engine.commands import quote
from ...engine.csystem import budget as cs_budget
from ...engine.csystem.common import current
from ...engine.csystem.health import BLOCKING as BLOCKING_ROLLS
from ...engine.model import Fight
from ...engine.options import YES, Verdict
from ...keys import Entry, Key, Scope, When
from ...view import cslist
from ...view.rows import ActionChoice
from ..text import plain
from ..widgets.cslist import CsListView
from .listfight import NOBODY, ChoicePicker, ListFightScreen, common_entries, key_bindings
from .prompt import CommandLine, listed, typeable


#: C-System's keys (one table: the screen's bindings and the help's lines).  The
#: go's keys act for whoever's go it is (the actor); d, e, p for the selected.  The
#: footer shows, in this order, SYSTEMS.md §2.1's «■ compleja  □ simple  m maniobra
#: a atacar  r retrasarse  f fin  ␣ siguiente  d daño  u deshacer  ? ayuda» (c and v
#: shown as ■ and □); the other keys are in the help and the command palette.
CS_KEYS: tuple[Entry, ...] = (
    Entry("c / v", "acción compleja ■ / simple □ de quien actúa (escribe qué: «compleja TEXTO»);"
          " en la barra de teclas, «■ compleja» y «□ simple»", (
        Key("c", "cs_line('complex')", "cs-complex", "compleja", "■", When.FIGHT, Scope.SELECTED),
        Key("v", "cs_line('simple')", "cs-simple", "simple", "□", When.FIGHT, Scope.SELECTED),
    )),
    Entry("m / ⏎", "maniobra o acción de quien actúa: solo las que su presupuesto permite y no"
          " ha usado este turno", (
        Key("m,enter", "cs_pick", "cs-maneuver", "maniobra", "m", When.FIGHT, Scope.SELECTED),
    )),
    Entry("a", "atacar: elige el objetivo y escribe la tirada («ataca OBJETIVO tirada=»)", (
        Key("a", "cs_attack", "cs-attack", "atacar", "a", When.FIGHT, Scope.SELECTED),
    )),
    Entry("r", "retrasarse: actuar tras otro («retrasa tras OTRO» o «retrasa final»)", (
        Key("r", "cs_line('lower')", "cs-lower", "retrasarse", "r", When.FIGHT, Scope.SELECTED),
    )),
    Entry("f", "fin del turno propio de quien actúa (lo que le queda se pierde)", (
        Key("f", "cs_done", "cs-done", "fin", "f", When.FIGHT, Scope.SELECTED),
    )),
    Entry("espacio", "siguiente: termina el turno propio actual y pasa al siguiente", (
        Key("space", "cs_next", "cs-next", "siguiente", "␣", When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("t", "terminar el turno ya (quienes no han actuado pierden su turno propio)", (
        Key("t", "cs_new_turn", "cs-new-turn", "turno", None, When.FIGHT, Scope.COUNTDOWN),
    )),
    Entry("d / e", "daño / estado (condición) del seleccionado", (
        Key("d", "cs_line('damage')", "cs-damage", "daño", "d", When.FIGHT, Scope.SELECTED),
        Key("e", "cs_line('condition')", "cs-condition", "estado", None, When.FIGHT, Scope.SELECTED),
    )),
    Entry("p", "responder la tirada pendiente del seleccionado (dolor, refleja, crítica)", (
        Key("p", "cs_answer", "cs-answer", "tirada", None, When.FIGHT, Scope.SELECTED),
    )),
    Entry("i / n", "iniciativa del seleccionado / alta de un combatiente (en la línea de órdenes)", (
        Key("i", "cs_line('initiative')", "cs-initiative", "iniciativa", None, When.FIGHT),
        Key("n", "cs_line('add')", "cs-add", "alta", None, When.FIGHT),
    )),
    *common_entries("cs", "de C-System"),
)
_CS_ALL = tuple(key for entry in CS_KEYS for key in entry.bindings)
#: The bindings in the table's order (the footer's, as §2.1 lists it: «␣ siguiente»
#: before «d daño»), not sorted by scope.
_CS_BINDINGS = [binding for key in _CS_ALL for binding in key_bindings((key,))]
#: What the prefilled lines of `cs_line` start with ({actor}, {name}: quoted names).
_CS_LINES = {
    "complex": "{actor} compleja ",
    "simple": "{actor} simple ",
    "lower": "{actor} retrasa tras ",
    "damage": "dano {name} ",
    "condition": "estado {name} +",
    "initiative": "iniciativa {name} ",
    "add": "alta ",
}
#: The answer command of each prompt (`Prompt.roll`).
_ANSWERS = {"dolor": "dolor {name} ", "refleja": "refleja {name} ", "critica": "critica {name} ",
            "aplomo": "estado {name} +inconsciente"}
NO_GO = "Nadie está actuando: «empezar» (o espacio) abre el primer turno propio"


class CsSuggester(Suggester):
    """The ghost text of C-System's `:` line: what Tab would add, when only one fits."""

    def __init__(self, fight: Fight) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.fight = fight

    async def get_suggestion(self, value: str) -> str | None:
        line, more = cslist.complete(self.fight, value)
        return typeable(line) if line is not None and not more else None


class CsCommandLine(CommandLine):
    """The `:` line for a C-System fight: the same line, completed from C-System's
    words (`view.cslist.complete`; the command language's own completion knows CdB)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="command-line", classes="dialog"):
            yield Input(self.text, placeholder="orden (p. ej. centella apuntar, siguiente, dano titan 3)",
                        suggester=CsSuggester(self.fight), id="command-input")
            yield Static("", id="command-hint", classes="hint")

    def _hint(self, value: str, *, tabbed: bool = False) -> None:
        _, found = cslist.complete(self.fight, value)
        if tabbed and found:
            text = f"Varias opciones ({len(found)}), sigue escribiendo: {listed(list(found))}"
        else:
            text = "⏎ ejecutar · Esc cancelar · Tab completa nombres, acciones y palabras"
        self.query_one("#command-hint", Static).update(plain(text))

    def action_complete(self) -> None:
        box = self.query_one(Input)
        before, after = box.value[:box.cursor_position], box.value[box.cursor_position:]
        line, found = cslist.complete(self.fight, before)
        value = typeable(line)
        if value is not None:
            box.value = value + after
            box.cursor_position = len(value)
        if found:
            self.tabbed = box.value
            self._hint(box.value, tabbed=True)


#: The picker under the name C-System's screen first gave it.
CsPicker = ChoicePicker


class CsFightScreen(ListFightScreen):
    """The C-System fight: the order of initiative as a list (`CsListView`), the same
    side panel, log and footer, and C-System's keys (`CS_KEYS`).  Every key builds a
    command line for `app.run_line` (or opens it on the `:` line to finish).  Not a
    `FightScreen`: Textual would run that screen's handlers (mount, keys) too."""

    #: The rulesets whose fights this screen shows (`CdbApp._fight_screen`).
    RULESETS: ClassVar[tuple[str, ...]] = ("csystem",)

    KEYS = _CS_ALL
    BINDINGS = _CS_BINDINGS
    LIST = CsListView
    LEGEND = cslist.LEGEND_SHORT

    def header(self, fight: Fight) -> str:
        return cslist.cs_header(fight)

    def _actor(self, fight: Fight):
        """Whose go it is, as it stands in this turn (`csystem.common.current`)."""
        actor = fight.find(fight.actor) if fight.started and fight.actor else None
        return current(actor, fight.turn) if actor is not None else None

    def _applies_to(self, fight: Fight, action: str, parameters: tuple[object, ...]) -> Verdict:
        """Whether a key applies now, and why not, from the engine's own budget
        (`csystem.budget`); the command itself is the engine's to accept or refuse."""
        kind = str(parameters[0]) if parameters else ""
        if action in ("undo", "redo", "command_line", "move") or kind in ("add",):
            return YES
        if action in ("cs_line", "cs_answer") and kind not in ("complex", "simple", "lower"):
            who = fight.find(self.app.selected or "")
            if who is None:
                return Verdict(False, NOBODY)
            if action == "cs_answer" and not cslist.sheet_of(who).pending:
                return Verdict(False, f"{who.name} no espera ninguna tirada")
            return YES
        if action == "cs_next":
            return YES if fight.started and fight.actor else (
                YES if not fight.started else Verdict(False, NO_GO))
        if action == "cs_new_turn":
            return YES if fight.started else Verdict(False, NO_GO)
        actor = self._actor(fight)
        if actor is None:
            return Verdict(False, NO_GO)
        sheet = cslist.sheet_of(actor)
        left = cs_budget.left_text(cs_budget.left(sheet))
        level = f"{actor.name} (nivel {sheet.level})"
        if action == "cs_line" and kind in ("complex", "simple"):
            word = {"complex": cs_budget.COMPLEX, "simple": cs_budget.SIMPLE}[kind]
            if not cs_budget.allows(sheet, word):
                what = "compleja" if word == cs_budget.COMPLEX else "simple"
                return Verdict(False, f"{level} no puede hacer otra acción {what}: le queda {left}")
        if action == "cs_attack" and not cs_budget.allows(sheet, cs_budget.COMPLEX):
            return Verdict(False, f"{level} no puede atacar (acción compleja): le queda {left}")
        if action == "cs_pick" and not cslist.has_action_choice(fight, actor.name):
            return Verdict(False, f"{level} no puede hacer ninguna maniobra más: le queda {left}")
        if action == "cs_line" and kind == "lower" and sheet.used:
            return Verdict(False, f"{actor.name} ya ha actuado este turno: no puede retrasarse")
        return YES

    # ------------------------------------------------------------ actions: keys → lines

    def _line(self, template: str) -> str | None:
        fight = self.app.fight
        actor = self._actor(fight) if fight is not None else None
        if "{actor}" in template and actor is None:
            self.app.notify(NO_GO, severity="warning")
            return None
        selected = self.app.selected
        if "{name}" in template and not self._selected():
            return None
        return template.format(actor=quote(actor.name) if actor else "",
                               name=quote(selected) if selected else "")

    def action_cs_line(self, kind: str) -> None:
        line = self._line(_CS_LINES[kind])
        if line is not None:
            self.app.open_command_line(line)

    def action_cs_done(self) -> None:
        line = self._line("{actor} fin")
        if line is not None:
            self.app.run_line(line)

    def action_cs_next(self) -> None:
        fight = self.app.fight
        self.app.run_line("siguiente" if fight is not None and fight.started else "empezar")

    def action_cs_answer(self) -> None:
        fight, name = self.app.fight, self.app.selected
        who = fight.find(name) if fight is not None and name else None
        if who is None or not cslist.sheet_of(who).pending:
            return
        pending = cslist.sheet_of(who).pending
        # The roll its go waits for first (pain, CON ND 20), then the reminders.
        prompt = next((p for p in pending if p.roll in BLOCKING_ROLLS), pending[0])
        template = _ANSWERS.get(prompt.roll, "{name} ")
        self.app.open_command_line(template.format(name=quote(who.name)))

    def action_cs_pick(self) -> None:
        fight = self.app.fight
        actor = self._actor(fight) if fight is not None else None
        if actor is None:
            return
        sheet = cslist.sheet_of(actor)
        left = cs_budget.left_text(cs_budget.left(sheet))
        self._pick(f"{actor.name}: le queda {left}", cslist.action_choices(fight, actor.name))

    def action_cs_attack(self) -> None:
        """The target step: the others in the order, then «ACTOR ataca TARGET tirada=»."""
        fight = self.app.fight
        actor = self._actor(fight) if fight is not None else None
        if actor is None:
            return
        who = quote(actor.name)
        targets = tuple(ActionChoice(name, f"{who} ataca {quote(name)} tirada=", False)
                        for name in cslist.cs_selection_order(fight) if name != actor.name)
        self._pick(f"{actor.name} ataca a…", targets)

    def action_cs_new_turn(self) -> None:
        fight = self.app.fight
        if fight is None:
            return
        self._end_turn([c.name for c in cslist.ordered(fight)
                        if c.name in cslist.order_of(fight) and not cslist.sheet_of(c).acted],
                       "Pierden su turno propio.")
