"""A new fight from the start screen: its name, its rules (CdB or Walküre) and
whether the party roster joins it.

Returns (name, rules, with_party) or None; the start screen writes the save.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, RadioButton, RadioSet, Static

from ..text import plain


class NewFight(ModalScreen[tuple[str, str, bool] | None]):
    """Asks the name of a new fight, its ruleset and whether the party joins."""

    BINDINGS = [Binding("escape", "cancel", "cancelar", key_display="esc")]

    def __init__(self, party: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.party = party

    def compose(self) -> ComposeResult:
        with Vertical(id="new-fight", classes="dialog"):
            yield Static("Combate nuevo", classes="title")
            yield Input(placeholder="nombre (p. ej. Emboscada en el puerto)", id="fight-name")
            with RadioSet(id="fight-rules"):
                yield RadioButton("CdB Engine", value=True, id="cdb")
                yield RadioButton("Walküre", id="walkure")
            if self.party:
                yield Checkbox(plain(f"Con el grupo: {', '.join(self.party)}"), value=True,
                               id="with-party")
            yield Static("⏎ crear · Esc cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not name:
            self.notify("El combate necesita un nombre", severity="error")
            return
        pressed = self.query_one(RadioSet).pressed_button
        with_party = bool(self.party) and self.query_one("#with-party", Checkbox).value
        self.dismiss((name, pressed.id if pressed is not None else "cdb", with_party))

    def action_cancel(self) -> None:
        self.dismiss(None)
