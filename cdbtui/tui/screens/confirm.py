"""A yes/no question, answered with Enter (sí) or Escape (no)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class Confirm(ModalScreen[bool]):
    """Asks one question; dismisses with True or False."""

    BINDINGS = [
        Binding("enter,y,s", "answer(True)", "sí", key_display="⏎"),
        Binding("escape,n", "answer(False)", "no", key_display="esc"),
    ]

    def __init__(self, statement: str, question: str) -> None:
        super().__init__()
        self.statement = statement
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(self.statement, markup=False)
            yield Static(self.question, classes="question")
            yield Static("⏎ sí · Esc no", classes="hint")
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
