"""The start screen of `cdbtui` without a path: the fights in the saves folder.

A table of the saves, newest first (name, rules, turn, combatants, last played),
with new / open / duplicate / rename / delete; deleting asks and moves the file
to the trash folder (`library.trash`).  On a first run with no saves the bundled
demo fight (the seeds' harbour ambush) is offered and opens with one key.  The
party roster (`roster`) is offered when creating a fight.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ... import library
from ...engine.errors import Refusal
from ...printable import literal
from ...roster import create_cs_demo, create_narr_demo, load_roster
from ...store import SaveError
from ..text import cell, plain, tell
from ..widgets.keybar import KeyBar


class StartScreen(Screen[Path | None]):
    """Choose a fight to open, or make one; `d` opens the demo."""

    BINDINGS = [
        Binding("enter", "open", "abrir", key_display="⏎", show=False),
        Binding("n", "new", "nuevo"),
        Binding("d", "demo", "ejemplo"),
        Binding("s", "cs_demo", "ejemplo C-System"),
        Binding("m", "narr_demo", "ejemplo Narrador"),
        Binding("c", "duplicate", "duplicar"),
        Binding("r", "rename", "renombrar"),
        Binding("delete,x", "delete", "a la papelera", key_display="supr"),
        Binding("q,escape", "quit_app", "salir"),
    ]

    def __init__(self, folder: Path, *, select: Path | None = None) -> None:
        super().__init__()
        self.folder = Path(folder)
        #: The save to put the cursor on (the fight just left with `q`).
        self.select = Path(select) if select is not None else None

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static("cdbtui · Plantilla de Momentos de Iniciativa", classes="title")
            yield Static("", id="saves-title")
            table: DataTable = DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            table.add_columns("Combate", "Reglas", "Turno", "Combatientes", "Jugado", "Archivo")
            yield table
            yield Static("", id="first-run")
            yield Static("⏎ abrir · n nuevo · d ejemplo · s ejemplo C-System · m ejemplo Narrador · c duplicar"
                         " · r renombrar · supr a la papelera · q salir", classes="hint")
        yield KeyBar()

    def on_mount(self) -> None:
        self.refresh_list(select=self.select)

    # ------------------------------------------------------------ the list

    def refresh_list(self, select: Path | None = None) -> None:
        table = self.query_one("#saves", DataTable)
        table.clear()
        found = library.entries(self.folder)
        for entry in found:
            if entry.problem:
                cells = (entry.path.stem, "—", "—", "—", f"{entry.played:%Y-%m-%d %H:%M}",
                         "no se puede abrir")
            else:
                turn = str(entry.turn) if entry.turn else "preparación"
                cells = (entry.name, entry.rules_es, turn, entry.count_text,
                         f"{entry.played:%Y-%m-%d %H:%M}", entry.path.name)
            table.add_row(*(cell(text) for text in cells), key=str(entry.path))
        table.display = bool(found)
        first_run = self.query_one("#first-run", Static)
        first_run.display = not found
        self.query_one("#saves-title", Static).update(
            plain(f"Partidas en {self.folder}/ (la más reciente primero):" if found else ""))
        if not found:
            first_run.update(Content.assemble(
                f"No hay partidas en {literal(str(self.folder))}/.\n\nPulsa ", ("d", "b"),
                " para abrir el combate de ejemplo del libro:\n"
                "Mike y Sven contra dos soldados en el puerto.\n\nPulsa ", ("s", "b"),
                " para abrir el de C-System (superhéroes): Centella y Titán contra\n"
                "el Doctor Ruina y su sicario en una azotea.\n\nPulsa ", ("m", "b"),
                " para abrir el del sistema Narrador (d10): Kara y Víctor contra\n"
                "un matón y un cadáver en un depósito.\n\nPulsa ", ("n", "b"),
                " para crear un combate nuevo (con tu grupo de PJ, si lo tienes).",
            ))
            return
        table.focus()
        if select is not None:
            for row, entry in enumerate(found):
                if entry.path == select:
                    table.move_cursor(row=row)

    def _chosen(self) -> Path | None:
        table = self.query_one("#saves", DataTable)
        if not table.display or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return Path(str(key.value))

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(Path(str(event.row_key.value)))

    # ------------------------------------------------------------ actions

    def action_open(self) -> None:
        path = self._chosen()
        if path is not None:
            self.dismiss(path)

    def action_demo(self) -> None:
        try:
            path = library.create_demo(self.folder)
        except (SaveError, Refusal, OSError) as error:
            tell(self, f"No se pudo crear el ejemplo: {error}", severity="error")
            return
        self.dismiss(path)

    def action_cs_demo(self) -> None:
        """C-System's demo fight (CSYSTEM.md §12), started."""
        try:
            path = create_cs_demo(self.folder)
        except (SaveError, Refusal, OSError) as error:
            tell(self, f"No se pudo crear el ejemplo de C-System: {error}", severity="error")
            return
        self.dismiss(path)

    def action_narr_demo(self) -> None:
        """The storyteller demo fight (STORYTELLER.md §15), at turn 1's declarations."""
        try:
            path = create_narr_demo(self.folder)
        except (SaveError, Refusal, OSError) as error:
            tell(self, f"No se pudo crear el ejemplo del Narrador: {error}", severity="error")
            return
        self.dismiss(path)

    def action_new(self) -> None:
        from .newfight import NewFight

        try:
            party = load_roster(self.folder)
        except SaveError as error:
            tell(self, f"El grupo no se puede leer: {error}", severity="warning")
            party = []

        def created(answer: tuple[str, str, bool] | None) -> None:
            if answer is None:
                return
            name, rules, with_party = answer
            # The party's «alta» lines are CdB's: they join CdB and Walküre fights only.
            lines = tuple(m.line() for m in party) if with_party and rules in ("cdb", "walkure") else ()
            try:
                path = library.create_fight(self.folder, name, rules, lines)
            except (SaveError, Refusal, OSError) as error:
                tell(self, f"No se pudo crear el combate: {error}", severity="error")
                return
            self.dismiss(path)

        self.app.push_screen(NewFight(tuple(m.name for m in party)), created)

    def action_duplicate(self) -> None:
        path = self._chosen()
        if path is None:
            return
        try:
            copy = library.duplicate(path)
        except (SaveError, OSError) as error:
            tell(self, f"No se pudo duplicar: {error}", severity="error")
            return
        tell(self, f"Copia creada: {copy.name}")
        self.refresh_list(select=copy)

    def action_rename(self) -> None:
        from .asktext import AskText

        path = self._chosen()
        if path is None:
            return
        entry = library.describe(path)

        def renamed(name: str | None) -> None:
            if not name:
                return
            try:
                target = library.rename(path, name)
            except (SaveError, OSError) as error:
                tell(self, f"No se pudo renombrar: {error}", severity="error")
                return
            tell(self, f"Renombrado: {name} ({target.name})")
            self.refresh_list(select=target)

        self.app.push_screen(AskText("Renombrar el combate", entry.name), renamed)

    def action_delete(self) -> None:
        from .confirm import Confirm

        path = self._chosen()
        if path is None:
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                where = library.trash(path)
            except OSError as error:
                tell(self, f"No se pudo mover a la papelera: {error}", severity="error")
                return
            tell(self, f"{path.name} está en la papelera ({where.parent.name}/{where.name})")
            self.refresh_list()

        self.app.push_screen(
            Confirm(f"«{library.describe(path).name}» ({path.name})",
                    f"¿Mover a la papelera ({library.TRASH}/)? No se borra: se puede recuperar."),
            answer,
        )

    def action_quit_app(self) -> None:
        self.dismiss(None)
