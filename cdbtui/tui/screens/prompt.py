"""The `:` command line: every command of COMMANDS.md, with completion.

Names (quoted when of several words), keywords, maneuver ids, talents and
conditions complete (`engine.completion`): Tab completes a unique prefix; on an
ambiguous one it lists the candidates on the line below and chooses none (the
line only grows by what they all share).  The ghost text (→ accepts) is what Tab
would add, only when it adds to what is typed.  It returns the typed line for
`app.run_line`.
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
from ...engine.completion import candidates, suggestion, tab
from ..text import plain


def typeable(line: str | None) -> str | None:
    """`line` if an Input can show it: an Input writes its text to the terminal raw,
    so a name with control characters (an old save's) is never put into it."""
    return line if line is not None and literal(line) == line else None


#: How many candidates the line under the input lists.
SHOWN = 8


def listed(words: tuple[str, ...] | list[str]) -> str:
    """The candidates as the hint lists them (at most `SHOWN`, then how many more)."""
    more = f"  … y {len(words) - SHOWN} más" if len(words) > SHOWN else ""
    return "  ".join(words[:SHOWN]) + more


class CommandSuggester(Suggester):
    """The ghost text: what Tab would add to the line, when it only adds."""

    def __init__(self, fight: Fight) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.fight = fight

    async def get_suggestion(self, value: str) -> str | None:
        return typeable(suggestion(self.fight, value))


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
        #: The line as the last ambiguous Tab left it (its hint says so).
        self.tabbed: str | None = None

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
        self._hint(event.value, tabbed=event.value == self.tabbed)

    def _hint(self, value: str, *, tabbed: bool = False) -> None:
        found = candidates(self.fight, value)
        words = list(dict.fromkeys(c.label for c in found))
        if all(c.line(value) == value for c in found):  # nothing, or the word as typed
            text = "⏎ ejecutar · Esc cancelar · Tab completa nombres, maniobras y palabras"
        elif tabbed:
            text = f"Varias opciones ({len(words)}), sigue escribiendo: {listed(words)}"
        elif len(words) == 1:
            text = f"Tab completa: {words[0]}"
        else:
            text = f"Tab: {listed(words)}"
        self.query_one("#command-hint", Static).update(plain(text))

    def action_complete(self) -> None:
        """Tab: a unique candidate completes; several are listed and none is chosen."""
        box = self.query_one(Input)
        before, after = box.value[:box.cursor_position], box.value[box.cursor_position:]
        result = tab(self.fight, before)
        value = typeable(result.value)
        if value is not None:
            box.value = value + after
            box.cursor_position = len(value)
        if result.shown:
            self.tabbed = box.value
            self._hint(value if value is not None else before, tabbed=True)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
