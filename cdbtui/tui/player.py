"""The players' view (`cdbtui view PATH`, and `cdbtui serve` in a browser): read-only.

It follows the DJ's save: every `POLL_SECONDS` it looks at the file's
(modification time, size, inode) and, when they change, brings its copy up to date
off the event loop with a `follow.Follower` (which reads only the journal entries
the DJ's autosave appended, whatever the length of the fight).  What players may see is decided in `players.py`
(`player_view`: hidden PNJ absent, private PNJ numbers as `?`, the no-gap rule of
the countdown); this module only paints it.  A missing or unreadable save never
blanks the screen: the last good sheet stays, under a line saying what the view is
waiting for, until the file reads again.  Every text painted is literal (no
markup, no control characters: `view` gives them so, and the few pieces built
here go through `printable.literal`): a name can't style, break or take over the
players' terminal.

Two layouts: the normal one, and a large one for a TV across the table (`g`, or
`PlayerApp(path, large=True)`): the moment in big digits, the acting name in bold
capitals, wider columns.  `q` quits; no key can change the fight.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import var
from textual.widgets import Digits, Static

from ..engine.model import Fight
from ..printable import literal, shout
from ..files import SaveError
from ..follow import Follower
from ..players import PcRow, PlayerView, player_view
from ..view import Sheet
from ..view.rulesets import is_csystem, is_narrador
from .compositing import CroppedScreen, quick_frames
from .styles import css_path, theme_for_terminal
from .widgets.fightlog import FightLog
from .widgets.cslist import CsListView
from .widgets.narrlist import NarrListView
from .widgets.sheet import SheetView
from .widgets.keybar import KeyBar

#: How often the save is looked at; a DJ's keypress shows within ~2 polls.
POLL_SECONDS = 0.1
#: While the save cannot be read, retry this often (in polls) even if it looks unchanged.
RETRY_POLLS = 5
#: Spaces between the sheet's columns in the normal and the large layout.
GAP_NORMAL = 3
GAP_LARGE = 6
#: Log entries kept for the players' log.
LOG_LINES = 50

Signature = tuple[int, int, int]


def file_signature(path: Path) -> Signature | None:
    """(mtime in ns, size, inode) of `path`, or None when it cannot be stat'ed.

    The inode catches an atomic replace (`os.replace` of a new file) even when the
    size and the time stamp happen to match; the size catches an append.
    """
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def read_fight(follower: Follower) -> tuple[Fight | None, str | None]:
    """The fight saved at the follower's path, or None and the reason in Spanish.

    Any failure is a reason, not a crash: the file may be caught mid-append or
    mid-edit, and a player view has nobody at the keyboard to restart it.
    """
    try:
        follower.poll()
    except SaveError as error:
        return None, str(error)
    except Exception as error:  # noqa: BLE001 - the view must outlive any bad file
        return None, f"no se puede leer {follower.path} ({type(error).__name__}: {error})"
    assert follower.session is not None
    return follower.session.fight, None


class PcStrip(Horizontal):
    """A card per PJ: its AC left this turn (also as dots) and its status."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._cards: list[Static] = []

    def show(self, rows: tuple[PcRow, ...]) -> None:
        if len(rows) != len(self._cards):  # a PJ joined or left: new cards
            self.remove_children()
            self._cards = [Static(classes="player-pc") for _ in rows]
            self.mount_all(self._cards)
        for card, row in zip(self._cards, rows):
            card.border_title = Content(row.name)
            card.update(Content.assemble(
                ("AC ", "dim"), (row.ac_text, "bold"), "  ", row.pips, "\n", row.status,
            ))
            card.set_class(row.heads_queue, "-acting")
            card.set_class(row.in_queue and not row.heads_queue, "-queued")
            card.set_class(row.done, "-done")
            card.set_class(row.out, "-out")
        self.display = bool(rows)


class PlayerApp(App[int]):
    """Vista de jugadores: la plantilla de solo lectura que sigue la partida del DJ."""

    CSS_PATH = css_path()
    TITLE = "cdbtui · jugadores"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("q", "quit", "salir"),
        Binding("g", "toggle_large", "grande / normal"),
    ]

    #: The large layout for a TV (`g` toggles it).
    large: var[bool] = var(False, init=False)

    def __init__(self, path: Path, *, large: bool = False, poll_seconds: float = POLL_SECONDS) -> None:
        super().__init__()
        self.path = Path(path)
        self.follower = Follower(self.path)
        self.poll_seconds = poll_seconds
        self.set_reactive(PlayerApp.large, large)
        #: What is on the screen now (None until the save is first read).
        self.board: PlayerView | None = None
        #: The last good fight read from the save (None until one is read).
        self.fight: Fight | None = None
        #: Why the save cannot be read now, shown as the waiting line (None: it reads).
        self.waiting: str | None = None
        self._signature: Signature | None = None
        self._failures = 0
        self._polls = 0
        self._loading = False

    # ------------------------------------------------------------ layout

    def get_default_screen(self) -> CroppedScreen:
        """The screen the view is composed on: its updates render only what they show."""
        return CroppedScreen(id="_default")

    def compose(self) -> ComposeResult:
        with Vertical(id="player-root"):
            yield Static(Content("Esperando a la partida…"), id="player-headline")
            with Horizontal(id="player-banner"):
                with Vertical(id="player-when"):
                    yield Static(id="player-turn")
                    yield Static(id="player-note")
                yield Digits("", id="player-moment")
                with Vertical(id="player-who"):
                    yield Static(id="player-actor")
                    yield Static(id="player-later")
            yield Static(id="player-queue")
            yield Static(id="player-status")
            yield SheetView(for_players=True, gap=GAP_NORMAL, id="player-sheet")
            yield CsListView(for_players=True, id="player-list")
            yield NarrListView(for_players=True, id="player-narr")
            yield Static(Content("Aún no hay nadie en la plantilla"), id="player-empty")
            yield PcStrip(id="player-pcs")
            yield FightLog(id="player-log")
        yield KeyBar()

    def on_mount(self) -> None:
        quick_frames()
        self.theme = theme_for_terminal()
        self.query_one("#player-sheet").border_title = "Plantilla"
        self.query_one("#player-log").border_title = "Registro"
        self.query_one("#player-pcs").display = False
        self.query_one("#player-empty").display = False
        self.query_one("#player-list").display = False
        self.query_one("#player-narr").display = False
        self._apply_layout()
        # The first read is done at once, so the first frame already shows the fight.
        signature = file_signature(self.path)
        self._take(signature, *read_fight(self.follower))
        self.set_interval(self.poll_seconds, self.poll)

    def action_toggle_large(self) -> None:
        self.large = not self.large

    def watch_large(self) -> None:
        self._apply_layout()

    def _apply_layout(self) -> None:
        self.query_one("#player-root").set_class(self.large, "-large")
        sheet = self.query_one(SheetView)
        sheet.gap = GAP_LARGE if self.large else GAP_NORMAL
        sheet.sheet = Sheet((), None, (), ())  # every line changes width: repaint all
        sheet.show(self.board.fight if self.board else None, None)

    # ------------------------------------------------------------ following the save

    def poll(self) -> None:
        """Reload the save if it changed (or, while it cannot be read, now and then)."""
        if self._loading:
            return
        self._polls += 1
        signature = file_signature(self.path)
        retry = self._failures == 1 or (self._failures > 1 and self._polls % RETRY_POLLS == 0)
        if signature == self._signature and self.fight is not None and not retry:
            return
        self._loading = True
        self.run_worker(self._load(signature), group="load", exit_on_error=False)

    async def _load(self, signature: Signature | None) -> None:
        try:
            fight, reason = await asyncio.to_thread(read_fight, self.follower)
        finally:
            self._loading = False
        self._take(signature, fight, reason)

    def _take(self, signature: Signature | None, fight: Fight | None, reason: str | None) -> None:
        """Show what a read of the save (at `signature`) gave: a fight, or why not."""
        self._signature = signature
        if fight is not None:
            self._failures = 0
            self._set_waiting(None)
            if fight != self.fight:
                self.fight = fight
                self.paint(player_view(fight, log_lines=LOG_LINES))
            return
        self._failures += 1
        # One failure may be a save caught mid-write: retried at the next poll
        # before the players are told (unless there is nothing to show yet).
        if self._failures >= 2 or self.fight is None:
            self._set_waiting(reason)

    def _set_waiting(self, reason: str | None) -> None:
        if reason == self.waiting:
            return
        self.waiting = reason
        status = self.query_one("#player-status", Static)
        status.update(Content(literal(f"Esperando a la partida: {reason}") if reason else ""))
        status.set_class(reason is not None, "-waiting")

    # ------------------------------------------------------------ painting

    def paint(self, view: PlayerView) -> None:
        """Push a new `PlayerView` down to the widgets."""
        self.board = view
        banner = view.banner
        self.query_one("#player-headline", Static).update(Content(view.headline))
        self.query_one("#player-turn", Static).update(Content(banner.turn))
        self.query_one("#player-note", Static).update(Content(banner.note))
        self.query_one("#player-moment", Digits).update(banner.moment)
        actor = self.query_one("#player-actor", Static)
        big = f"Actúa: {shout(banner.actor)}" if banner.actor else ""
        if big and banner.on_deck:
            big += f" · {banner.on_deck}"  # "luego: Soldado 1": who is on deck
        actor.update(Content(big))
        actor.set_class(not banner.actor, "-nobody")
        self.query_one("#player-later", Static).update(
            Content("" if banner.on_deck else banner.later))
        self.query_one("#player-queue", Static).update(
            Content(f"{literal(view.fight.name)} · {view.queue}"))
        sheet = self.query_one(SheetView)
        listed = self.query_one(CsListView)
        narr = self.query_one(NarrListView)
        if is_narrador(view.fight):  # the storyteller list: declared actions once performed
            sheet.display = listed.display = False
            narr.show(view.fight, None)
            empty = not view.fight.combatants
            narr.display = not empty
        elif is_csystem(view.fight):  # C-System: the list in initiative order
            sheet.display = narr.display = False
            listed.show(view.fight, None)
            empty = not view.fight.combatants
            listed.display = not empty
        else:
            listed.display = narr.display = False
            sheet.show(view.fight, None)
            empty = not sheet.sheet.columns
            sheet.display = not empty
        self.query_one("#player-empty").display = empty
        self.query_one(PcStrip).show(view.pcs)
        self.query_one(FightLog).show(view.log)


def run_player_view(path: Path, *, large: bool = False) -> int:
    """`cdbtui view PATH [--grande]`: run the players' view; the exit code for the shell."""
    app = PlayerApp(path, large=large)
    result = app.run()
    return int(result or app.return_code or 0)
