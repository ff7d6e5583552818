"""The start screen of `cdbtui` without a path: the saves in ./saves/, newest first.

On a first run with no saves the bundled demo fight (the seeds' harbour ambush)
is offered and opens with one key: its command lines are run through a Session
and written to a new file in saves/ (never over an existing one).
"""

from __future__ import annotations

import os
from datetime import datetime
from importlib import resources
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.errors import Refusal
from ...engine.session import Session
from ...engine.text import slug
from ...store import SaveError, create

DEMO_NAME = "puerto"


def list_saves(folder: Path) -> list[Path]:
    """The `.toml` saves in `folder`, newest first."""
    if not folder.is_dir():
        return []
    saves = [p for p in folder.glob("*.toml") if p.is_file()]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def demo_lines() -> list[str]:
    text = resources.files("cdbtui").joinpath("demo", "puerto.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def free_path(folder: Path, stem: str) -> Path:
    """`folder/stem.toml`, or `stem-2.toml`, `stem-3.toml`…: a file that does not exist."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.toml"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.toml"
        number += 1
    return path


def create_demo(folder: Path) -> Path:
    """Write the demo fight to a new file in `folder`; never overwrites."""
    path = free_path(folder, DEMO_NAME)
    session = Session.new(DEMO_NAME, "cdb", 0)
    for line in demo_lines():
        session.execute(line)
    create(path, session)
    return path


def create_fight(folder: Path, name: str, rules: str) -> Path:
    """Write a new empty fight called `name`; the file is named after it, never reused."""
    path = free_path(folder, slug(name) or "combate")
    seed = int.from_bytes(os.urandom(4), "big")
    create(path, Session.new(name, rules, seed))
    return path


class StartScreen(Screen[Path | None]):
    """Choose a fight to open; `d` opens the demo."""

    BINDINGS = [
        Binding("n", "new", "combate nuevo"),
        Binding("d", "demo", "combate de ejemplo"),
        Binding("q,escape", "quit_app", "salir"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.saves = list_saves(folder)

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static("cdbtui · Plantilla de Momentos de Iniciativa", classes="title")
            if self.saves:
                yield Static(f"Partidas en {self.folder}/ (la más reciente primero):")
                yield OptionList(*[
                    Option(f"{p.stem}  ·  {datetime.fromtimestamp(p.stat().st_mtime):%Y-%m-%d %H:%M}",
                           id=str(p))
                    for p in self.saves
                ], id="saves")
                yield Static("⏎ abrir · n combate nuevo · d combate de ejemplo · q salir", classes="hint")
            else:
                yield Static(
                    f"No hay partidas en {self.folder}/.\n\n"
                    "Pulsa [b]d[/b] para abrir el combate de ejemplo del libro:\n"
                    "Mike y Sven contra dos soldados en el puerto.\n\n"
                    "Pulsa [b]n[/b] para crear un combate nuevo, vacío.",
                    id="first-run",
                )
        yield Footer()

    @on(OptionList.OptionSelected)
    def open_save(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Path(event.option.id))

    def action_demo(self) -> None:
        try:
            path = create_demo(self.folder)
        except (SaveError, Refusal, OSError) as error:
            self.notify(f"No se pudo crear el ejemplo: {error}", severity="error")
            return
        self.dismiss(path)

    def action_new(self) -> None:
        from .newfight import NewFight

        def created(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            try:
                path = create_fight(self.folder, *answer)
            except (SaveError, Refusal, OSError) as error:
                self.notify(f"No se pudo crear el combate: {error}", severity="error")
                return
            self.dismiss(path)

        self.app.push_screen(NewFight(), created)

    def action_quit_app(self) -> None:
        self.dismiss(None)
