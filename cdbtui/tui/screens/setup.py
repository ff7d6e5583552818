"""Initiative set-up: everyone with INI and start moment, before turn 1 (or later).

Players roll their own dice, so typing the total (1d6+INI) is the main path;
the app rolls for whoever is still missing on request.  Each entry is a command
line (`momento`, `tirar`, `empezar`) sent through `app.run_line`.  One row per
combatant (compact fields), scrolling; the keys' hint stays in view.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from ...engine.commands import quote
from ..text import plain
from ..widgets.keybar import KeyBar


class InitiativeSetup(ModalScreen[None]):
    """Momentos iniciales."""

    BINDINGS = [
        Binding("escape", "close", "volver", key_display="esc"),
        Binding("ctrl+r", "roll", "tirar los que faltan", key_display="^r"),
        Binding("ctrl+b", "begin", "empezar", key_display="^b"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="setup", classes="dialog"):
            yield Static("Momentos iniciales (1d6 + INI)", classes="title")
            yield Static("Nombre             Bando  INI  Inicio", classes="setup-head")
            with VerticalScroll(id="setup-rows", can_focus=False):  # Tab: the fields only
                for index, c in enumerate(self.app.fight.combatants):
                    with Horizontal(classes="setup-row"):
                        yield Label(plain(c.name), classes="setup-name")
                        yield Label(plain(c.side.upper()), classes="setup-side")
                        yield Label(str(c.ini), classes="setup-ini")
                        yield Input(
                            "" if c.start is None else str(c.start),
                            placeholder="total", type="integer",
                            id=f"start-{index}", classes="setup-start", compact=True,
                        )
            yield Static("⏎ fija el momento · ^r tira los que faltan · ^b empieza · Esc vuelve",
                         classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        for box in self.query(".setup-start").results(Input):
            if not box.value:
                box.focus()
                return
        boxes = list(self.query(".setup-start").results(Input))
        if boxes:
            boxes[0].focus()

    def _refresh_rows(self) -> None:
        fight = self.app.fight
        for index, c in enumerate(fight.combatants):
            boxes = self.query(f"#start-{index}").results(Input)
            for box in boxes:
                box.value = "" if c.start is None else str(c.start)

    @on(Input.Submitted)
    def set_start(self, event: Input.Submitted) -> None:
        index = int(event.input.id.removeprefix("start-"))
        combatant = self.app.fight.combatants[index]
        value = event.value.strip()
        if not value:
            return
        if self.app.run_line(f"momento {quote(combatant.name)} {value}"):
            self._refresh_rows()
            self.focus_next()

    def action_roll(self) -> None:
        if self.app.run_line("tirar"):
            self._refresh_rows()

    def action_begin(self) -> None:
        if self.app.run_line("empezar"):
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
