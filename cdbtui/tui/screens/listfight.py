"""What the fight screens of the list rulesets share: C-System's (`CsFightScreen` in
`screens.csfight`) and the storyteller's (`NarrFightScreen` in `screens.narrfight`).

Both show the order of initiative as a list (`widgets.rowlist`), the side panel, a
folding legend, the log and the footer; both build their bindings from one table of
keys, hide the keys that do not apply (`check_action`) and say why when one is
pressed anyway (`on_key`); both follow the app's selection and send a clicked row's
name up.  Each ruleset's screen sets its table (`KEYS`, ending in
`common_entries`), list widget (`LIST`), titles and legend, and writes
`_applies_to` and its own actions: every key builds a command line for
`app.run_line` or opens it on the `:` line to finish, some through a
`ChoicePicker` (`_pick`) or the end-of-turn confirmation (`_end_turn`).  The
screens keep no game state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import events
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...engine.model import Fight
from ...engine.options import YES, Verdict
from ...keys import SCOPE_ORDER, Entry, Key, Scope, When
from ...view.rows import ActionChoice
from ..compositing import CroppedScreen
from ..text import plain, tell
from ..widgets.fightlog import FightLog
from ..widgets.keybar import KeyBar
from ..widgets.panel import SidePanel, legend_markup
from ..widgets.rowlist import RowListView

#: Why a key that needs them does not apply.
NO_FIGHT = "No hay ningún combate abierto"
NOBODY = "Nadie seleccionado: usa ←/→ para elegir"
#: Below this terminal height the legend starts folded (`L` shows it).
LEGEND_ROWS = 40
#: The actions every list screen answers the same way (`action_…` below).
COMMON_ACTIONS = ("help", "legend", "leave")


def common_entries(prefix: str, commands: str) -> tuple[Entry, ...]:
    """The last entries of a list ruleset's table of keys, the same in both: undo and
    redo, moving the selection, the `:` line (for `commands`), help, legend, leave;
    the ids start with `prefix`."""
    return (
        Entry("u / ctrl+z, ctrl+y", "deshacer, rehacer", (
            Key("u,ctrl+z", "undo", f"{prefix}-undo", "deshacer", "u", When.FIGHT, Scope.HISTORY),
            Key("ctrl+y", "redo", f"{prefix}-redo", "rehacer", None, When.FIGHT, Scope.HISTORY),
        )),
        Entry("← → ↑ ↓ / h l k j", "mover la selección por la lista", (
            Key("left,h,up,k", "move(-1)", f"{prefix}-move-up", "anterior", None, When.FIGHT, priority=True),
            Key("right,l,down,j", "move(1)", f"{prefix}-move-down", "siguiente", None, When.FIGHT,
                priority=True),
        )),
        Entry(":", f"línea de órdenes (todas las órdenes {commands})", (
            Key("colon", "command_line", f"{prefix}-command-line", "orden", None, When.FIGHT),
        )),
        Entry("?", "esta ayuda: teclas, marcas, órdenes y decisiones de reglas", (
            Key("question_mark", "help", f"{prefix}-help", "ayuda", "?", When.ALWAYS),
        )),
        Entry("L", "mostrar u ocultar la leyenda", (
            Key("L", "legend", f"{prefix}-legend", "leyenda", None, When.ALWAYS),
        )),
        Entry("q / ctrl+q", "volver a la lista de combates / salir; todo queda guardado", (
            Key("q", "leave", f"{prefix}-leave", "cerrar", None, When.ALWAYS),
        )),
    )


def key_bindings(keys: Iterable[Key]) -> list[Binding]:
    """A screen's bindings from its table of keys, in the footer's order of scopes."""
    return [
        Binding(key.keys, key.action, key.label, show=key.shown is not None,
                key_display=key.shown, id=key.id, priority=key.priority)
        for key in sorted(keys, key=lambda key: SCOPE_ORDER.index(key.scope))
    ]


class ChoicePicker(ModalScreen[tuple[str, bool] | None]):
    """A list to choose from (C-System's allowed actions, an attack's target);
    dismisses with (line, complete) or None."""

    BINDINGS = [Binding("escape", "cancel", "cancelar", key_display="esc")]

    def __init__(self, title: str, choices: tuple[ActionChoice, ...]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="picker", classes="dialog"):
            yield Static(plain(self.title_text), id="picker-title")
            yield OptionList(*(Option(Content(c.label)) for c in self.choices), id="picker-list")
            yield Static("⏎ elegir · ↑↓ moverse · Esc cancelar", classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = self.choices[event.option_index]
        self.dismiss((choice.line, choice.complete))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ListFightScreen(CroppedScreen):
    """A list ruleset's fight screen; subclasses set `BINDINGS = key_bindings(KEYS)`."""

    #: Every binding of the ruleset's table of keys.
    KEYS: ClassVar[tuple[Key, ...]] = ()
    #: The ruleset's list widget, and the title of its border.
    LIST: ClassVar[type[RowListView]] = RowListView
    LIST_TITLE: ClassVar[str] = "Orden"
    #: The legend beside the list (the view's `LEGEND_SHORT`).
    LEGEND: ClassVar[tuple[tuple[str, str], ...]] = ()

    _ready = False
    _header: str | None = None
    _verdicts: tuple[Fight | None, str | None, dict] = (None, None, {})
    _legend_shown: bool | None = None
    _by_key: ClassVar[dict[str, Key]] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._by_key = {name: key for key in cls.KEYS for name in key.keys.split(",")}

    # ------------------------------------------------------------ what each ruleset says

    def header(self, fight: Fight) -> str:
        """The line above the list."""
        raise NotImplementedError

    def _applies_to(self, fight: Fight, action: str, parameters: tuple[object, ...]) -> Verdict:
        """Whether one of the ruleset's own keys applies to `fight` now, and why not."""
        return YES

    def _compose_list(self) -> ComposeResult:
        """The left of the screen: the list (the storyteller adds its dice panel)."""
        yield self.LIST(id="sheet")

    def _mounted(self) -> None:
        """What the ruleset's screen does once mounted, before the first `show`."""

    def _show_more(self, fight: Fight | None) -> None:
        """What else the ruleset's screen shows of a new state."""

    # ------------------------------------------------------------ the screen

    def compose(self) -> ComposeResult:
        yield Static("", id="fight-header")
        with Horizontal(id="main"):
            yield from self._compose_list()
            with Vertical(id="side"):
                yield SidePanel(id="panel")
                yield Static(self._legend_markup(), id="legend")
        yield FightLog(id="log")
        yield Static("", id="finder")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#sheet").border_title = self.LIST_TITLE
        self.query_one("#log").border_title = "Registro"
        self.query_one("#finder").display = False
        self._mounted()
        self.query_one(self.LIST).focus()
        self._fold_legend()
        self._ready = True
        self.show(getattr(self.app, "fight", None), self.app.selected)

    def on_resize(self) -> None:
        if self._ready:
            self._fold_legend()

    def _legend_markup(self) -> str:
        return legend_markup(self.LEGEND)

    def _fold_legend(self) -> None:
        """The legend folded under `LEGEND_ROWS` rows, unless the DJ chose (`L`)."""
        shown = self._legend_shown
        if shown is None:
            shown = self.app.size.height >= LEGEND_ROWS
        legend = self.query_one("#legend", Static)
        if legend.has_class("-folded") == shown:
            legend.set_class(not shown, "-folded")
            legend.update(self._legend_markup() if shown else "[b]Leyenda[/b] [$text-muted](L)[/]")

    # ------------------------------------------------------------ state in

    def show(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready:
            return
        header = self.header(fight) if fight is not None else "Sin combate abierto"
        if header != self._header:
            self._header = header
            self.query_one("#fight-header", Static).update(plain(header), layout=False)
        self.query_one(self.LIST).show(fight, selected)
        self.query_one("#panel", SidePanel).show(fight, selected)
        self._show_more(fight)
        self.query_one(FightLog).show(fight.log if fight is not None else ())
        self.keys_after_frame()

    def show_selection(self, fight: Fight | None, selected: str | None) -> None:
        if not self._ready:
            return
        self.query_one(self.LIST).select(selected)
        self.query_one("#panel", SidePanel).show(fight, selected)
        self.keys_after_frame()

    def footer_entries(self):
        return self.KEYS

    def on_row_list_view_clicked(self, message: RowListView.Clicked) -> None:
        self.app.select(message.name)

    # ------------------------------------------------------------ which keys apply

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.applies(action, parameters))

    def applies(self, action: str, parameters: tuple[object, ...] = ()) -> Verdict:
        """Whether a key applies now (asked once per state and selection)."""
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
        if action in COMMON_ACTIONS:
            return YES
        if fight is None:
            return Verdict(False, NO_FIGHT)
        return self._applies_to(fight, action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A key of the table that does not apply now says why."""
        key = self._by_key.get(event.key)
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

    def _selected(self) -> str | None:
        """The selected combatant's name; nobody selected: says so (and None)."""
        name = self.app.selected
        if not name:
            self.app.notify(NOBODY, severity="warning")
        return name

    def _then(self, answer: tuple[str, bool] | None) -> None:
        """A picker's answer: a whole line runs, the start of one opens on the `:` line."""
        if not answer:
            return
        line, complete = answer
        if complete:
            self.app.run_line(line)
        else:
            self.app.open_command_line(line)

    def _pick(self, title: str, choices: tuple[ActionChoice, ...]) -> None:
        """Offer `choices` (`ChoicePicker`); the one chosen goes on as `_then` says."""
        self.app.push_screen(ChoicePicker(title, choices), self._then)

    def _end_turn(self, waiting: list[str], loses: str) -> None:
        """«turno», once the DJ confirms it when some (`waiting`) have not acted yet
        (`loses`: what they lose)."""
        from .confirm import Confirm

        if not waiting:
            self.app.run_line("turno")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.app.run_line("turno")

        self.app.push_screen(Confirm("Sin actuar aún: " + ", ".join(waiting) + ".",
                                     f"¿Terminar el turno? {loses}"), answer)
