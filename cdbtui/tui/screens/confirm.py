"""A yes/no question, answered with Enter (sí) or Escape (no)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..text import plain_lines
from ..widgets.keybar import KeyBar


class Confirm(ModalScreen[bool]):
    """Asks one question; dismisses with True or False.

    Both texts may quote user input (a typed line, a fight's name): shown literally.
    """

    BINDINGS = [
        # Only Enter says yes: some questions pop up by themselves («¿Empezar el
        # turno 2?» once everyone is done), and a letter meant for the sheet (`s`,
        # estado) must not answer them.
        Binding("enter", "answer(True)", "sí", key_display="⏎"),
        Binding("escape,n", "answer(False)", "no", key_display="esc"),
    ]

    def __init__(self, statement: str, question: str) -> None:
        super().__init__()
        self.statement = statement
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(plain_lines(self.statement))
            yield Static(plain_lines(self.question), classes="question")
            yield Static("⏎ sí · Esc no", classes="hint")
        yield KeyBar()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
