"""The DJ's keys at the table, as one table of data (no Textual, no engine).

Each `Entry` is one line of the help: the keys as the help shows them, the help text
in Spanish, and the `Key`s it documents, each with the Textual key names, the fight
screen's action, a binding id, the footer's short label (and the key it shows, or
None to keep it out of the footer) and `When` it applies.  From this table come:

- the fight screen's `BINDINGS` (`cdbtui.tui.screens.fight`), in `footer_keys()`
  order: the selected combatant's keys first, then the countdown's, then undo/redo,
  then the rest (an 80-column footer shows only the first few);
- which keys apply now (`FightScreen.check_action`, by `When`, asking the engine's
  `engine.options`), so the footer lists only those, and a key pressed when it does
  not apply says why;
- the help screen's list of keys (`help_lines`);
- the README's table of keys (`readme_table`; a test compares it with README.md).

`ADD_SYNTAX` is the whole syntax of `alta`, quoted by the help screen and the README.
"""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from .engine.parser import USAGE


class When(StrEnum):
    """When a key applies (the fight screen asks the engine for the verbs)."""

    #: Always (with no fight open too).
    ALWAYS = "always"
    #: With a fight open.
    FIGHT = "fight"
    #: With a combatant selected.
    SELECTED = "selected"
    #: The selected may act or react now (the maneuver picker).
    MANEUVER = "maneuver"
    #: The selected may spend that many AC on a free action now.
    SPEND = "spend"
    #: The selected may declare that reaction now.
    REACT = "react"
    #: The selected may hold its action, or, holding, act now.
    HOLD = "hold"
    #: The selected may start waiting.
    WAIT = "wait"
    #: The selected may decline what it has left.
    DECLINE = "decline"
    #: The countdown may be moved on.
    ADVANCE = "advance"
    #: A new turn may be started.
    NEW_TURN = "new-turn"


class Scope(StrEnum):
    """Whom a key is about; the footer lists them in this order."""

    SELECTED = "selected"
    COUNTDOWN = "countdown"
    HISTORY = "history"
    OTHER = "other"


SCOPE_ORDER = tuple(Scope)


@frozen
class Key:
    """One binding of the fight screen."""

    #: Textual key names, comma-separated ("u,ctrl+z").
    keys: str
    #: The fight screen's action, with its arguments ("spend(1)").
    action: str
    #: The binding's id (stable, for keymaps and tests).
    id: str
    #: The footer's short label.
    label: str
    #: The key as the footer shows it; None keeps the binding out of the footer.
    shown: str | None
    when: When
    scope: Scope = Scope.OTHER
    #: Checked before the focused widget's keys (the sheet scrolls with the arrows,
    #: the screen's Tab moves the focus: the DJ's keys win).
    priority: bool = False

    @property
    def action_name(self) -> str:
        """The action without its arguments ("spend"), as `check_action` receives it."""
        return self.action.split("(", 1)[0]


@frozen
class Entry:
    """One line of the help and of the README's table: keys, text, their bindings."""

    #: The keys as the help shows them ("e / c").
    keys: str
    #: What they do, in Spanish.
    help: str
    #: The fight screen's bindings it documents (none: a key of the app itself).
    bindings: tuple[Key, ...] = ()


def _spend(amount: int) -> Key:
    return Key(str(amount), f"spend({amount})", f"spend-{amount}",
               "gastar" if amount == 1 else f"gastar {amount}", "1-9" if amount == 1 else None,
               When.SPEND, Scope.SELECTED)


KEYS: tuple[Entry, ...] = (
    Entry("⏎", "maniobra del seleccionado (filtra escribiendo)", (
        Key("enter", "maneuver", "maneuver", "maniobra", "⏎", When.MANEUVER, Scope.SELECTED),
    )),
    Entry("1–9", "el seleccionado gasta esas AC en una acción libre",
          tuple(_spend(n) for n in range(1, 10))),
    Entry("e / c", "esquivar / ponerse a cubierto (reacciones, en cualquier momento)", (
        Key("e", "react('esquivar')", "react-esquivar", "esquivar", "e", When.REACT,
            Scope.SELECTED),
        Key("c", "react('ponerse-a-cubierto')", "react-cubierto", "cubierto", "c", When.REACT,
            Scope.SELECTED),
    )),
    Entry("r", "retrasar la acción (otra vez: actuar ahora)", (
        Key("r", "hold", "hold", "retrasar", "r", When.HOLD, Scope.SELECTED),
    )),
    Entry("w", "quedarse a la espera (escribe el desencadenante)", (
        Key("w", "wait", "wait", "esperar", "w", When.WAIT, Scope.SELECTED),
    )),
    Entry("f", "fin: declina las AC que le quedan", (
        Key("f", "done", "done", "fin", "f", When.DECLINE, Scope.SELECTED),
    )),
    Entry("espacio", "avanzar la cuenta atrás", (
        Key("space", "next", "next", "avanzar", "␣", When.ADVANCE, Scope.COUNTDOWN),
    )),
    Entry("t", "turno nuevo (se propone solo cuando todos terminan)", (
        Key("t", "new_turn", "new-turn", "turno", "t", When.NEW_TURN, Scope.COUNTDOWN),
    )),
    Entry("u / ctrl+z, ctrl+y", "deshacer, rehacer", (
        Key("u,ctrl+z", "undo", "undo", "deshacer", "u", When.FIGHT, Scope.HISTORY),
        Key("ctrl+y", "redo", "redo", "rehacer", "^y", When.FIGHT, Scope.HISTORY),
    )),
    Entry("← → / h l", "mover la selección (tras su orden sigue en el seleccionado; si era"
          " el primero de la cola y ha terminado, pasa al siguiente)", (
        Key("left,h", "move(-1)", "move-left", "anterior", None, When.FIGHT, priority=True),
        Key("right,l", "move(1)", "move-right", "siguiente", None, When.FIGHT, priority=True),
    )),
    Entry("Tab / mayús+Tab", "recorrer la cola de este momento (y quien retrasa o espera)", (
        Key("tab", "walk(1)", "walk-next", "cola", None, When.FIGHT, priority=True),
        Key("shift+tab", "walk(-1)", "walk-previous", "cola atrás", None, When.FIGHT,
            priority=True),
    )),
    Entry("/", "buscar por el nombre: unas letras de sus palabras (sin tildes), Tab entre"
          " los encontrados, ⏎; con uno solo posible, la tecla siguiente que no siga su nombre ya es"
          " para él", (
        Key("slash", "find", "find", "buscar", "/", When.FIGHT),
    )),
    Entry("d / s", "daño / estado (condición) del seleccionado", (
        Key("d", "damage", "damage", "daño", "d", When.SELECTED, Scope.SELECTED),
        Key("s", "condition", "condition", "estado", "s", When.SELECTED, Scope.SELECTED),
    )),
    Entry("a", "añadir combatiente (también a mitad de combate)", (
        Key("a", "add", "add", "añadir", "a", When.FIGHT),
    )),
    Entry("G / A", "guardar al seleccionado en el grupo de PJ (un PNJ pregunta antes)"
          " / añadir el grupo al combate", (
        Key("G", "party_save", "party-save", "al grupo", None, When.SELECTED),
        Key("A", "party_add", "party-add", "añadir el grupo", None, When.FIGHT),
    )),
    Entry("i", "momentos iniciales: escribir o tirar 1d6+INI, empezar (sobre alguien sin"
          " momento: «momento NOMBRE» en la línea de órdenes)", (
        Key("i", "initiative", "initiative", "iniciativa", "i", When.FIGHT),
    )),
    Entry(":", "línea de órdenes (todas las órdenes, con Tab para completar)", (
        Key("colon", "command_line", "command-line", "orden", ":", When.FIGHT),
    )),
    Entry("ctrl+p", "paleta de órdenes"),
    Entry("?", "esta ayuda: teclas, marcas de la plantilla y decisiones de reglas", (
        Key("question_mark", "help", "help", "ayuda", "?", When.ALWAYS),
    )),
    Entry("L", "mostrar u ocultar la leyenda (oculta al empezar con menos de 40 filas)", (
        Key("L", "legend", "legend", "leyenda", None, When.ALWAYS),
    )),
    Entry("q / ctrl+q", "volver a la lista de combates (si se abrió desde ella; si no, salir)"
          " / salir; todo queda guardado tras cada orden", (
        Key("q", "leave", "leave", "cerrar", "q", When.ALWAYS),
    )),
)

#: The whole syntax of `alta` (every key of `engine.parser.ADD_KEYS` and flag of
#: `ADD_FLAGS`; a test checks it), quoted by the help screen and the README.
#: The whole syntax of `alta`: the command language's own (parser.USAGE).
ADD_SYNTAX = USAGE["alta"]


def all_keys() -> tuple[Key, ...]:
    """Every binding, in the table's order."""
    return tuple(key for entry in KEYS for key in entry.bindings)


def footer_keys() -> tuple[Key, ...]:
    """The bindings in the footer's order: by `Scope`, then the table's order."""
    return tuple(sorted(all_keys(), key=lambda key: SCOPE_ORDER.index(key.scope)))


def key_for_action(action_name: str) -> Key | None:
    """The first binding whose action (without arguments) is `action_name`."""
    return next((key for key in all_keys() if key.action_name == action_name), None)


def help_lines() -> list[str]:
    """The help screen's list of keys, as Markdown list items."""
    return [f"- `{entry.keys}` — {entry.help}" for entry in KEYS]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def readme_table() -> str:
    """The README's table of keys (Markdown), the same lines as the help screen's."""
    rows = ["| key | what it does |", "|---|---|"]
    rows += [f"| `{_cell(entry.keys)}` | {_cell(entry.help)} |" for entry in KEYS]
    return "\n".join(rows) + "\n"
