"""The `:` command line: every command of COMMANDS.md, with completion.

Names, keywords and maneuver ids complete inline (→ or Tab accepts); the line
below lists the candidates.  It returns the typed line for `app.run_line`.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from ...engine.model import Fight
from ...printable import literal
from ...engine.completion import completions
from ..text import plain


def typeable(fight: Fight, value: str) -> list[str]:
    """The completions of `value` that an Input can show: an Input writes its text
    to the terminal raw, so a name with control characters (an old save's) is
    never put into it."""
    return [line for line in completions(fight, value) if literal(line) == line]


class CommandSuggester(Suggester):
    """Suggests the first completion of the last word (names, keywords, maneuvers)."""

    def __init__(self, fight: Fight) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.fight = fight

    async def get_suggestion(self, value: str) -> str | None:
        found = typeable(self.fight, value)
        return found[0] if found else None


class CommandLine(ModalScreen[str | None]):
    """One line of the command language; Enter runs it, Esc cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "cancelar", key_display="esc"),
        Binding("tab", "complete", "completar", priority=True),
    ]

    def __init__(self, fight: Fight, text: str = "") -> None:
        super().__init__()
        self.fight = fight
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="command-line", classes="dialog"):
            yield Input(self.text, placeholder="orden (p. ej. mike disparar-armas-largas, siguiente, dano sven 3)",
                        suggester=CommandSuggester(self.fight), id="command-input")
            yield Static("", id="command-hint", classes="hint")

    def on_mount(self) -> None:
        box = self.query_one(Input)
        box.focus()
        box.cursor_position = len(self.text)
        self._hint(self.text)

    @on(Input.Changed)
    def changed(self, event: Input.Changed) -> None:
        self._hint(event.value)

    def _hint(self, value: str) -> None:
        found = completions(self.fight, value)
        words = [f.rpartition(" ")[2] for f in found[:8]]
        more = " …" if len(found) > 8 else ""
        text = ("Tab/→ completa: " + "  ".join(words) + more) if words else "⏎ ejecutar · Esc cancelar · ? ayuda"
        self.query_one("#command-hint", Static).update(plain(text))

    def action_complete(self) -> None:
        box = self.query_one(Input)
        found = typeable(self.fight, box.value)
        if found:
            box.value = found[0] + " "
            box.cursor_position = len(box.value)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
