"""The form that adds a combatant (also mid-fight): validated, then one `alta` line.

Field checks here are about typing (a name, whole numbers); the rules (a unique
name, AC in range…) are the engine's, and its refusal keeps the form open.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.validation import Integer
from textual.widgets import Checkbox, Input, Label, Select, Static

from ...engine import commands as cmd
from ..text import plain

NUMBERS = (
    ("ac", "AC por turno", "7", True),
    ("ini", "INI", "0", False),
    ("agi", "Agilidad", "0", False),
    ("ate", "Atención", "0", False),
    ("mov", "MOV", "0", False),
    ("start", "Momento inicial", "vacío: luego", False),
)


class AddForm(ModalScreen[None]):
    """Alta de combatiente."""

    BINDINGS = [
        Binding("escape", "cancel", "cancelar", key_display="esc"),
        Binding("ctrl+s", "submit", "añadir", key_display="^s"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="add-form", classes="dialog"):
            yield Static("Añadir combatiente", classes="title")
            with Grid(id="add-grid"):
                yield Label("Nombre")
                yield Input(placeholder="p. ej. Soldado 3", id="add-name")
                for key, label, placeholder, _required in NUMBERS:
                    yield Label(label)
                    yield Input(placeholder=placeholder, id=f"add-{key}", type="integer",
                                validators=[Integer(minimum=-99, maximum=99)])
                yield Label("Bando")
                yield Select([("PNJ", "pnj"), ("PJ", "pj")], value="pnj", allow_blank=False, id="add-side")
                yield Label("Oculto")
                yield Checkbox("oculto a los jugadores", id="add-hidden")
            yield Static("", id="add-error", classes="error")
            yield Static("⏎ añadir · Tab siguiente campo · Esc cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#add-name", Input).focus()

    def _error(self, text: str) -> None:
        self.query_one("#add-error", Static).update(plain(text))

    @on(Input.Submitted)
    def action_submit(self) -> None:
        name = self.query_one("#add-name", Input).value.strip()
        if not name:
            self._error("Falta el nombre")
            self.query_one("#add-name", Input).focus()
            return
        values: dict[str, int | None] = {}
        for key, label, _placeholder, required in NUMBERS:
            box = self.query_one(f"#add-{key}", Input)
            text = box.value.strip()
            if not text:
                if required:
                    self._error(f"Falta {label}")
                    box.focus()
                    return
                values[key] = None
                continue
            try:
                values[key] = int(text)
            except ValueError:
                self._error(f"{label}: «{text}» no es un número entero")
                box.focus()
                return
        side = self.query_one("#add-side", Select).value
        command = cmd.Add(
            name=name,
            ac=values["ac"] or 0,
            ini=values["ini"] or 0,
            agi=values["agi"] or 0,
            ate=values["ate"] or 0,
            mov=values["mov"] or 0,
            side=str(side),
            hidden=self.query_one("#add-hidden", Checkbox).value,
            start=values["start"],
        )
        if self.app.run_line(command.line()):
            self.dismiss(None)
        else:
            self._error("No se pudo añadir: mira el aviso")

    def action_cancel(self) -> None:
        self.dismiss(None)
