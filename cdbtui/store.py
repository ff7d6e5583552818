"""Saves: a fight and its history as a TOML file, written atomically.

The file holds the current state in full (readable, and loaded as is) and the
history as canonical command lines from the empty fight, so undo survives a
restart.  Writing goes to a temporary file in the same folder, is fsynced, and
replaces the old file with `os.replace`: a crash leaves the old save or the new
one, never half of one.  Serialization lives here, outside the engine classes.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomli_w
from attrs import fields

from .engine.catalog import RULESETS
from .engine.model import Carried, Combatant, Fight, LogEntry, Status, Stop, Track
from .engine.rules import new_fight
from .engine.session import Session

FORMAT = "cdbtui"
VERSION = 1


class SaveError(Exception):
    """A save that cannot be read or written; `str()` is one Spanish line."""


# ---------------------------------------------------------------- to TOML


def _plain(value: Any) -> Any:
    if isinstance(value, Status):
        return value.value
    if isinstance(value, Stop):
        return [value.moment, value.ac, value.begin]
    if isinstance(value, (Carried, Track)):
        return _table(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _table(obj: Any) -> dict[str, Any]:
    """An attrs instance as a TOML table; None (absent in TOML) is left out."""
    table = {}
    for f in fields(type(obj)):
        value = getattr(obj, f.name)
        if value is not None:
            table[f.name] = _plain(value)
    return table


@lru_cache(maxsize=1 << 16)
def _chunk(header: str, obj: Any) -> str:
    """One `[[header]]` table as TOML text; sub-tables are nested under `header`.

    States are immutable and a command changes few combatants and only appends to
    the log, so caching by value makes a save re-serialize only what changed.
    """
    body = tomli_w.dumps(_table(obj))
    return f"[[{header}]]\n" + body.replace("\n[", f"\n[{header}.")


def dumps(session: Session) -> str:
    base = session.base
    fight = session.fight
    scalars = {k: v for k, v in _table(fight).items() if k not in ("combatants", "log")}
    head = tomli_w.dumps({"format": FORMAT, "version": VERSION, "fight": scalars})
    history = tomli_w.dumps({
        "history": {
            "name": base.name,
            "rules": base.rules,
            "seed": base.seed,
            "lines": list(session.lines),
            "redo": list(session.redo_lines),
        }
    })
    parts = [head]
    parts += [_chunk("fight.combatants", c) for c in fight.combatants]
    parts += [_chunk("fight.log", entry) for entry in fight.log]
    parts.append(history)
    return "\n".join(parts)


# ---------------------------------------------------------------- from TOML


def _combatant(table: dict[str, Any]) -> Combatant:
    values = dict(table)
    values["status"] = Status(values.get("status", "ready"))
    values["stops"] = tuple(Stop(int(m), int(ac), int(b)) for m, ac, b in values.get("stops", ()))
    for key in ("talents", "maneuvers", "conditions"):
        values[key] = tuple(str(v) for v in values.get(key, ()))
    if "carried" in values:
        values["carried"] = Carried(**values["carried"])
    for key in ("wounds", "fatigue"):
        if key in values:
            track = values[key]
            values[key] = Track(tuple(int(n) for n in track["boxes"]), int(track["marked"]))
    return Combatant(**values)


def _fight(table: dict[str, Any]) -> Fight:
    values = dict(table)
    values["combatants"] = tuple(_combatant(c) for c in values.get("combatants", ()))
    values["log"] = tuple(
        LogEntry(int(e["turn"]), e.get("moment"), str(e["text"]), bool(e.get("warning", False)))
        for e in values.get("log", ())
    )
    if values.get("rules") not in RULESETS:
        raise SaveError(f"reglas desconocidas «{values.get('rules')}»")
    return Fight(**values)


def loads(text: str) -> Session:
    """A session from the text of a save; `SaveError` says in Spanish what is wrong."""
    try:
        document = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise SaveError(f"no es un archivo TOML válido ({error})") from None
    if document.get("format") != FORMAT:
        raise SaveError("no es una partida de cdbtui")
    version = document.get("version")
    if not isinstance(version, int):
        raise SaveError("la partida no indica su versión")
    if version > VERSION:
        raise SaveError(
            f"la partida es de una versión más nueva de cdbtui (formato {version},"
            f" este programa lee hasta el {VERSION}): actualiza cdbtui"
        )
    try:
        current = _fight(document["fight"])
        history = document["history"]
        base = new_fight(history["name"], history["rules"], int(history["seed"]))
        lines = [str(line) for line in history.get("lines", [])]
        redo = [str(line) for line in history.get("redo", [])]
    except SaveError:
        raise
    except Exception as error:  # a damaged or hand-edited file: any shape is possible
        raise SaveError(f"la partida está dañada ({type(error).__name__}: {error})") from None
    return Session.resume(base, lines, current, redo)


def load(path: Path) -> Session:
    try:
        text = Path(path).read_text("utf-8")
    except FileNotFoundError:
        raise SaveError(f"no existe {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SaveError(f"no se puede leer {path}: {error}") from None
    try:
        return loads(text)
    except SaveError as error:
        raise SaveError(f"{path}: {error}") from None


def _mode_for(path: Path) -> int:
    """Keep an existing save's permissions; a new one gets the usual 0o666 & ~umask
    (mkstemp's private 0o600 would hide the save from a player view run by others)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old or the new file whole."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(handle, _mode_for(path))
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    try:
        directory = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def save(path: Path, session: Session) -> None:
    try:
        write_atomic(path, dumps(session))
    except OSError as error:
        raise SaveError(f"no se puede guardar {path}: {error.strerror or error}") from None


def create(path: Path, session: Session) -> None:
    """Write a new save; refuses to overwrite an existing file."""
    path = Path(path)
    if path.exists():
        raise SaveError(f"{path} ya existe: no se sobrescribe")
    if not path.parent.exists():
        raise SaveError(f"no existe la carpeta {path.parent}")
    save(path, session)
