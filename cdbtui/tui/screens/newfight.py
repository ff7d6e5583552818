"""A new fight from the start screen: its name, its rules (CdB, Walküre, C-System
or Narrador) and whether the party roster joins it (CdB and Walküre only: the
party's sheets are CdB's).

Returns (name, rules, with_party) or None; the start screen writes the save.
Enter creates from any field, as the hint says: the rules choice and the party's
checkbox leave Enter to the dialog (arrows choose the rules, Space ticks).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Static

from ..text import plain
from .add import FormCheckbox


class RulesChoice(RadioSet, inherit_bindings=False):
    """The rules as radio buttons that leave Enter to the dialog: an arrow moves
    to the other rules and chooses them (Space too)."""

    BINDINGS = [
        Binding("down,right", "choose(1)", "siguiente", show=False),
        Binding("up,left", "choose(-1)", "anterior", show=False),
        Binding("space", "toggle_button", "elegir", show=False),
    ]

    def action_choose(self, step: int) -> None:
        if step > 0:
            self.action_next_button()
        else:
            self.action_previous_button()
        if self._selected is not None and self._nodes[self._selected] is not self.pressed_button:
            self.action_toggle_button()


class NewFight(ModalScreen[tuple[str, str, bool] | None]):
    """Asks the name of a new fight, its ruleset and whether the party joins."""

    BINDINGS = [
        Binding("escape", "cancel", "cancelar", key_display="esc"),
        # Reached from the rules and the checkbox (the name's Input submits by itself).
        Binding("enter", "create", "crear", show=False),
    ]

    def __init__(self, party: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.party = party

    def compose(self) -> ComposeResult:
        with Vertical(id="new-fight", classes="dialog"):
            yield Static("Combate nuevo", classes="title")
            yield Input(placeholder="nombre (p. ej. Emboscada en el puerto)", id="fight-name")
            with RulesChoice(id="fight-rules"):
                yield RadioButton("CdB Engine", value=True, id="cdb")
                yield RadioButton("Walküre", id="walkure")
                yield RadioButton("C-System", id="csystem")
                yield RadioButton("Narrador (d10)", id="narrador")
            if self.party:
                yield FormCheckbox(plain(f"Con el grupo: {', '.join(self.party)}"), value=True,
                                    id="with-party")
            yield Static("⏎ crear · Tab campo · ↑↓ reglas · Esc cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def action_create(self) -> None:
        box = self.query_one("#fight-name", Input)
        name = box.value.strip()
        if not name:
            self.notify("El combate necesita un nombre", severity="error")
            box.focus()
            return
        pressed = self.query_one(RadioSet).pressed_button
        with_party = bool(self.party) and self.query_one("#with-party", FormCheckbox).value
        self.dismiss((name, pressed.id if pressed is not None else "cdb", with_party))

    def action_cancel(self) -> None:
        self.dismiss(None)
