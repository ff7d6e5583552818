"""The saves folder: which fights are there, and new / duplicate / rename / delete.

The folder is `./saves` unless `--saves DIR` or the `CDBTUI_SAVES` environment
variable says otherwise.  Every fight is one `NAME.toml` (see `store`); beside it
may live `NAME.toml.bak` (the previous version) and `NAME.toml.v1` (an original
kept by a migration).  Deleting moves all of them to the `.papelera/` folder
inside the saves folder, never erases them.  The party roster lives in
`_grupo.toml` (see `roster`), which is not a fight and is not listed.
"""

from __future__ import annotations

import os
import re
import tomllib
from datetime import datetime
from importlib import resources
from pathlib import Path

from attrs import frozen

from .engine.catalog import RULES_ES
from .engine.commands import quote
from .engine.errors import Refusal
from .engine.session import Session
from .engine.text import slug
from .files import SaveError, backup_path, read_bytes
from .files import folder_lock
from .files import free_path as next_free
from .funnel import SaveFile
from .store import APP, SCHEMA, digest_of, read, save_text, section_text, summary

ENVIRONMENT = "CDBTUI_SAVES"
DEFAULT_FOLDER = Path("saves")
TRASH = ".papelera"
DEMO_NAME = "puerto"


def saves_folder(option: str | None = None) -> Path:
    """`--saves DIR` if given, else `$CDBTUI_SAVES`, else `./saves`."""
    if option:
        return Path(option)
    value = os.environ.get(ENVIRONMENT)
    return Path(value) if value else DEFAULT_FOLDER


@frozen
class Listing:
    """One fight of the list: what the start screen shows of it."""

    path: Path
    name: str
    rules: str
    turn: int
    combatants: int
    played: datetime
    problem: str | None = None
    #: How many of the combatants are hidden PNJ (the DJ's list shows them apart).
    hidden: int = 0

    @property
    def count_text(self) -> str:
        """"4", or "4 (+1 oculto)" when one of five is a hidden PNJ."""
        if not self.hidden:
            return str(self.combatants)
        shown = self.combatants - self.hidden
        return f"{shown} (+{self.hidden} oculto{'s' if self.hidden > 1 else ''})"

    @property
    def rules_es(self) -> str:
        return RULES_ES.get(self.rules, self.rules)


_SUMMARY = re.compile(r"^\[summary\]\n(.*?)\n\n", re.S | re.M)


def _summary(text: str) -> dict | None:
    """The `[summary]` table of a save without a journal (exact), else None."""
    if "\n[[journal]]\n" in text:
        return None  # commands after the snapshot: the summary may be stale
    match = _SUMMARY.search(text)
    if not match:
        return None
    try:
        table = tomllib.loads(match[1])
    except tomllib.TOMLDecodeError:
        return None
    keys = {"name": str, "rules": str, "turn": int, "combatants": int}
    if not all(isinstance(table.get(k), t) for k, t in keys.items()):
        return None
    hidden = table.get("hidden", 0)
    if isinstance(hidden, bool) or not isinstance(hidden, int) or not 0 <= hidden <= table["combatants"]:
        return None
    return table


def describe(path: Path) -> Listing:
    """What the list shows of `path`; a file that can't be read says why.

    A save written whole by cdbtui is shown from its `[summary]` once its header
    says it is ours, of a format this program reads, and its `[fight]` matches its
    digest; anything else is read in full, so that a damaged, foreign or newer file
    shows its problem instead of passing for a normal fight.
    """
    try:
        played = datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        played = datetime.fromtimestamp(0)
    try:
        text, _ = save_text(read_bytes(path))
        table = _summary(text) if _trusted(text) else None
        if table is not None and "hidden" not in table:
            # A summary of schema 2 does not count hidden PNJ: its combatants' tables do.
            fight_text = section_text(text, "fight") or ""
            table["hidden"] = min(fight_text.count("\nhidden = true\n"), table["combatants"])
        if table is None:
            fight = read(path).session.fight
            table = summary(fight)
    except SaveError as error:
        return Listing(path, path.stem, "?", 0, 0, played, problem=str(error))
    return Listing(path, table["name"], table["rules"], table["turn"], table["combatants"], played,
                 hidden=table.get("hidden", 0))


def _trusted(text: str) -> bool:
    """The cheap checks that let the list believe a save's `[summary]`."""
    head = text[: text.find("\n[summary]\n") + 1]
    if not head:
        return False
    try:
        header = tomllib.loads(head)
    except ValueError:
        return False
    # Schema 2 wrote the same summary (without `hidden`): no need to read it whole.
    if header.get("app") != APP or header.get("schema") not in (2, 3, 4, SCHEMA):
        return False
    if "\nend = true\n" not in text:
        return False
    written = section_text(text, "fight")
    return written is not None and digest_of(written) == header.get("digest")


def list_saves(folder: Path) -> list[Path]:
    """The fights in `folder`, newest first (the roster and hidden files left out)."""
    if not folder.is_dir():
        return []
    saves = [p for p in folder.glob("*.toml")
             if p.is_file() and not p.name.startswith(("_", "."))]
    return sorted(saves, key=lambda p: p.stat().st_mtime, reverse=True)


def entries(folder: Path) -> list[Listing]:
    return [describe(path) for path in list_saves(folder)]


def free_path(folder: Path, stem: str) -> Path:
    """`folder/stem.toml`, or `stem-2.toml`, `stem-3.toml`…: a file that does not exist."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = stem.lstrip("_.") or "combate"
    return next_free(folder / f"{stem}.toml", lambda n: folder / f"{stem}-{n}.toml")


def demo_lines() -> list[str]:
    text = resources.files("cdbtui").joinpath("demo", "puerto.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def create_demo(folder: Path) -> Path:
    """Write the demo fight to a new file in `folder`; never overwrites."""
    path = free_path(folder, DEMO_NAME)
    SaveFile.start(path, Session.new(DEMO_NAME, "cdb", 0), demo_lines())
    return path


def create_fight(folder: Path, name: str, rules: str, party: tuple[str, ...] = ()) -> Path:
    """Write a new fight called `name` (with the party's `alta` lines run); the file is
    named after it and never reuses an existing one."""
    path = free_path(folder, slug(name) or "combate")
    seed = int.from_bytes(os.urandom(4), "big")
    SaveFile.start(path, Session.new(name, rules, seed), list(party))
    return path


def _companions(path: Path) -> list[Path]:
    """The save and the files that belong to it (.bak, .v1 originals)."""
    found = [path, backup_path(path)]
    found += sorted(path.parent.glob(f"{path.name}.v[0-9]*"))
    return [p for p in found if p.exists()]


def duplicate(path: Path) -> Path:
    """A copy of the fight under a new name ("NAME (copia)"), in the same folder."""
    session = read(path).session
    copy = free_path(path.parent, f"{path.stem}-copia")
    rename = [f"nombre {quote(session.fight.name + ' (copia)')}"]
    try:
        SaveFile.start(copy, session, rename)
    except Refusal:  # a name too long for a fight: the copy keeps the original's
        SaveFile.start(copy, read(path).session)
    return copy


def rename(path: Path, new_name: str) -> Path:
    """Rename the fight (a `nombre` command, undoable) and its file to match."""
    new_name = new_name.strip()
    if not new_name:
        raise SaveError("el nombre nuevo está vacío")
    target = path.with_name(f"{slug(new_name) or 'combate'}.toml")
    if target != path and target.exists():
        raise SaveError(f"ya existe {target.name}: elige otro nombre")
    with folder_lock(path):
        save_file = SaveFile.open(path)
        try:
            save_file.play(f"nombre {quote(new_name)}")
        except Refusal as refusal:
            raise SaveError(str(refusal)) from None
        finally:
            save_file.close()
    if target != path:
        for companion in _companions(path):
            os.replace(companion, target.with_name(target.name + companion.name[len(path.name):]))
    return target


def trash(path: Path) -> Path:
    """Move the fight (and its .bak) to `.papelera/` in its folder; returns where."""
    bin_folder = path.parent / TRASH
    bin_folder.mkdir(exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = bin_folder / f"{path.stem}-{stamp}.toml"
    number = 2
    while target.exists():
        target = bin_folder / f"{path.stem}-{stamp}-{number}.toml"
        number += 1
    for companion in _companions(path):
        os.replace(companion, target.with_name(target.name + companion.name[len(path.name):]))
    return target
