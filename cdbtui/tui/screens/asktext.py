"""Ask for one line of text (a new name), answered with Enter or cancelled with Escape."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...printable import literal
from ..text import plain


class AskText(ModalScreen[str | None]):
    """A titled input prefilled with `value`; dismisses with the text or None."""

    BINDINGS = [Binding("escape", "cancel", "cancelar", key_display="esc")]

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-text", classes="dialog"):
            yield Static(plain(self.title_text), classes="title")
            # Prefilled with the text as shown: an Input writes what it holds raw.
            yield Input(value=literal(self.value), id="ask-text-input")
            yield Static("⏎ aceptar · Esc cancelar", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.notify("Escribe un nombre (o Esc para cancelar)", severity="error")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
