"""The players' view (`cdbtui view PATH`): the same sheet, read-only, following the save.

No side panel; hidden PNJ are absent and private PNJ numbers show as `?`
(`build_sheet(for_players=True)`).  It polls the file's modification time and
reloads it with `store.load` when the GM's app saves; only `q` reacts.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..store import SaveError, load
from ..view import player_headline, player_queue
from .styles import css_path, theme_for_terminal
from .widgets.sheet import SheetView

POLL_SECONDS = 0.5


class PlayerApp(App[int]):
    """Vista de jugadores."""

    CSS_PATH = css_path()
    TITLE = "cdbtui · jugadores"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("q", "quit", "salir")]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self._mtime: float | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="player-headline")
        yield Static("", id="player-queue")
        yield SheetView(for_players=True, gap=3, id="player-sheet")

    def on_mount(self) -> None:
        self.theme = theme_for_terminal()
        self.query_one("#player-sheet").border_title = "Plantilla"
        self.reload()
        self.set_interval(POLL_SECONDS, self.reload)

    def reload(self) -> None:
        """Reload the save if it changed since the last look."""
        try:
            mtime = self.path.stat().st_mtime
        except OSError:
            return
        if mtime == self._mtime:
            return
        try:
            fight = load(self.path).fight
        except SaveError:
            return  # mid-write or damaged: keep showing the last good state
        self._mtime = mtime
        self.query_one("#player-headline", Static).update(player_headline(fight))
        self.query_one("#player-queue", Static).update(f"{fight.name} · {player_queue(fight)}")
        self.query_one(SheetView).show(fight, None)
