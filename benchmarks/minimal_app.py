"""The reference of `benchmarks/tui.py`'s real-terminal measurement: the smallest
Textual app that repaints on a key.

One `Static` shows how many keys were pressed; → and ← (the keys the benchmark sends
to cdbtui too) add one and repaint it, q quits.  What it costs from a keypress to
the changed screen is Textual's own floor (driver, message pump, compositor, escape
codes) plus the terminal's; cdbtui's latency is compared against it.

Run: .venv/bin/python benchmarks/minimal_app.py
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.widgets import Static


class CounterApp(App):
    """A counter of keypresses, repainted on each."""

    BINDINGS: ClassVar = [("right", "count", "contar"), ("left", "count", "contar"), ("q", "quit", "salir")]

    presses = 0

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="counter")

    def action_count(self) -> None:
        self.presses += 1
        self.query_one("#counter", Static).update(self._text())

    def _text(self) -> str:
        return f"Teclas: {self.presses}"


if __name__ == "__main__":
    CounterApp().run()
