"""The funnel: playing a save.  Every change to a fight, from every front end (the
TUI's keys and `:` line, `cdbtui do`/`casa`, the fight list's rename), goes
through `SaveFile.play(line)`: under the folder lock, catch up with another
writer, run the line through the session, make it durable, and only then
acknowledge it; a refusal or a failed write changes nothing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from attrs import define, field

from .engine.commands import HouseRules
from .engine.errors import Refusal
from .engine.session import UNDO, Outcome, Session
from .files import (
    SaveError,
    append_all,
    file_stamp,
    folder_lock,
    free_copy,
    read_bytes_stamped,
    reason,
)
from .store import SCHEMA, create, journal_entry, loaded_from, save, schema_for

#: Journal entries appended before the file is rewritten whole.
COMPACT_EVERY = 100
#: The kind of an outcome that ran nothing: its warnings wait for the DJ's «sí».
CONFIRM = "confirm"


def house_file_line(line: str) -> str:
    """`casa RUTA.toml` (or `:casa ~/reglas.toml`): the command with the file's text,
    since the engine reads no files.  Any other line is returned as it is."""
    head, _, rest = line.strip().removeprefix(":").strip().partition(" ")
    rest = rest.strip()
    if head.casefold() not in ("casa", "house") or not rest or rest[0] in "\"'«“":
        return line
    path = Path(rest).expanduser()
    if not path.is_file():
        return line  # "casa no", or a TOML text: the parser says what is wrong
    try:
        return HouseRules(path.read_text("utf-8")).line()
    except UnicodeDecodeError:
        raise Refusal(f"{path} no es texto UTF-8") from None
    except OSError as error:
        raise Refusal(f"No se puede leer {path}: {reason(error)}") from None


class Reloaded(SaveError):
    """Another program changed the save: the session now holds the file's state and
    the command was not run (the DJ decides again on what the screen now shows)."""


@define
class SaveFile:
    """The save a DJ is playing: `play(line)` runs a command and makes it durable.

    Nothing is written until the first command is recorded, so opening a save and
    running a refused command leaves the file exactly as it was.  The first write
    rewrites the file whole if the reading had to migrate or recover; later ones
    append a journal entry, until `COMPACT_EVERY` of them.  Writes go through a
    symbolic link to the file it points at (`target`), which stays a link.
    """

    path: Path
    session: Session
    #: Why the next write must rewrite the file whole (None: appending is fine).
    pending: str | None = None
    #: The schema the file had when read (an older one is copied aside first).
    schema: int = SCHEMA
    #: How the file looked after our last read or write, to notice changes by others.
    stamp: tuple[int, int, int] | None = None
    journal: int = 0
    #: len(session.lines) in the snapshot: undoing below it prefers a rewrite.
    floor: int = 0
    notes: list[str] = field(factory=list)

    @property
    def target(self) -> Path:
        """The file written: `path`, or what it links to."""
        return Path(os.path.realpath(self.path))

    @classmethod
    def open(cls, path: Path) -> SaveFile:
        """Read a save to play it.  Under the folder lock, so that the stamp taken is
        that of the bytes read (a write landing in between would be missed)."""
        path = Path(path)
        with folder_lock(path):
            data, stamp = read_bytes_stamped(path)
            loaded = loaded_from(path, data)
        save_file = cls(path, loaded.session, schema=loaded.schema, stamp=stamp,
                        journal=loaded.journal, floor=len(loaded.session.lines))
        save_file.notes.extend(loaded.notes)
        if loaded.schema < schema_for(loaded.session.fight.rules):
            save_file.pending = "migrate"
            save_file.notes.append(
                f"Partida de un formato anterior ({loaded.schema}): al guardar se"
                f" convierte y el original queda en {path.name}.v{loaded.schema}"
            )
        elif loaded.edited:
            save_file.pending = "edited"
            if not loaded.notes:
                save_file.notes.append(
                    "La partida se editó a mano: se usa tal cual y deshacer empieza aquí"
                )
        elif loaded.torn:
            save_file.pending = "torn"
            save_file.notes.append("Se descartó la última orden, que quedó a medio guardar")
        elif loaded.journal:  # tidy up on the first write; the snapshot's floor is unknown
            save_file.pending = "tidy"
        return save_file

    @classmethod
    def create(cls, path: Path, session: Session) -> SaveFile:
        with folder_lock(path):
            create(path, session)
            return cls(Path(path), session, stamp=file_stamp(Path(path)), floor=len(session.lines))

    @property
    def changed_on_disk(self) -> bool:
        """The file is not as we left it (another program wrote it)."""
        return file_stamp(self.path) != self.stamp

    # ------------------------------------------------------------ the funnel

    def play(self, line: str, *, confirmed: bool = True) -> Outcome:
        """Run one command line and make it durable, or change nothing.

        Under the folder lock from the check that the file is as we left it until
        the write is on disk.  `Refusal` (the engine said no) and `SaveError` (the
        file could not be written) leave the session and the file as they were;
        `Reloaded` means another program had written the save: the session now
        holds the file's state and `line` was not run.

        With `confirmed=False` (the TUI), a line whose warnings are the DJ's to
        confirm (abandoning a carried maneuver, attacking while surprised) is not
        run: the outcome's kind is `CONFIRM` and its `message` the warnings, one a
        line; the DJ's «sí» plays it again with `confirmed=True`.
        """
        line = house_file_line(line)
        with folder_lock(self.path):
            self._catch_up()
            if not confirmed:
                cautions = self.session.cautions(line)
                if cautions:
                    return Outcome(self.session.fight, "\n".join(cautions), CONFIRM, line)
            mark = self.session.mark()
            outcome = self.session.execute(line)
            try:
                self._record(outcome)
            except BaseException:
                self.session.rollback(mark)
                raise
            return outcome

    @classmethod
    def start(cls, path: Path, session: Session, lines: list[str] = ()) -> SaveFile:
        """A new save at `path` (never over an existing file): `session` after `lines`
        (the party, the demo's set-up…), all of them or nothing."""
        for line in lines:
            try:
                session.execute(line)
            except Refusal as refusal:
                raise Refusal(f"«{line}»: {refusal}") from None
        return cls.create(path, session)

    def _catch_up(self) -> None:
        """Before a write: if the file changed since we read or wrote it, take its
        state (`Reloaded`); if it is gone, write ours whole again; if it can't be
        read, refuse to write (the DJ may be fixing it by hand)."""
        if self.stamp is None or file_stamp(self.path) == self.stamp:
            return
        if not os.path.lexists(self.path) or not os.path.exists(self.path):
            self.pending = "lost"
            return
        try:
            fresh = SaveFile.open(self.path)
        except SaveError as error:
            raise SaveError(f"{error} · la orden no se ha guardado ni aplicado; cuando el"
                            " archivo vuelva a leerse se seguirá desde él") from None
        self.session, self.pending, self.schema = fresh.session, fresh.pending, fresh.schema
        self.stamp, self.journal, self.floor = fresh.stamp, fresh.journal, fresh.floor
        raise Reloaded(
            "La partida cambió en el disco (otro programa): recargada."
            " Repite la orden si sigue haciendo falta."
        )

    def record(self, outcome: Outcome) -> None:
        """Make the command just run by the session durable (or raise `SaveError`,
        and the file is as it was before it).  `play` is the usual way in."""
        with folder_lock(self.path):
            if self.stamp is not None and file_stamp(self.path) != self.stamp:
                if os.path.exists(self.path):
                    raise SaveError(
                        f"{self.path} cambió mientras tanto (otro programa la está jugando):"
                        " no se guarda esta orden; vuelve a abrir la partida"
                    )
                self.pending = "lost"
            self._record(outcome)

    def _record(self, outcome: Outcome) -> None:
        if outcome.kind == UNDO and len(self.session.lines) < self.floor:
            self.pending = self.pending or "undo"
        must = self.pending in ("migrate", "torn", "lost")
        if must or self.pending is not None or self.journal >= COMPACT_EVERY:
            try:
                self._compact()
                return
            except SaveError:
                if must or self.stamp is None:
                    raise
                # Only tidiness was lost: the journal entry below is as durable.
        try:
            self.stamp = append_all(self.target, journal_entry(outcome).encode("utf-8"))
        except OSError as error:
            # The file is as before this command (cut back), with a new time: ours
            # still.  If it could not be cut back, the next write rewrites it whole.
            restored = getattr(error, "restored_stamp", None)
            if restored is None:
                self.pending = "torn"
            else:
                self.stamp = restored
            raise SaveError(
                f"no se puede guardar {self.path}: {reason(error)}"
                " · la orden no se ha aplicado"
            ) from None
        self.journal += 1

    def compact(self) -> None:
        """Rewrite the file whole: the current state, the history, an empty journal."""
        with folder_lock(self.path):
            if self.stamp is not None and self.changed_on_disk and os.path.exists(self.path):
                raise SaveError(f"{self.path} cambió mientras tanto (otro programa):"
                                " no se reescribe")
            self._compact()

    def _compact(self) -> None:
        target = self.target
        if self.pending == "migrate" and target.exists():
            try:
                shutil.copy2(target, free_copy(target, f".v{self.schema}"))
            except OSError as error:
                raise SaveError(f"no se puede guardar {self.path}: {reason(error)}") from None
        save(target, self.session)
        self.pending = None
        self.schema = schema_for(self.session.fight.rules)
        self.journal = 0
        self.floor = len(self.session.lines)
        self.stamp = file_stamp(self.path)

    def close(self) -> str | None:
        """Leave the file tidy (no journal) if anything was appended, unless another
        program has written it since (its version is newer than ours).  Everything
        is already durable: a rewrite that fails (a full disk) leaves the journal as
        it is, and the reason is returned instead of raised."""
        if not self.journal:
            return None
        try:
            with folder_lock(self.path):
                if not self.changed_on_disk:
                    self._compact()
        except SaveError as error:
            return str(error)
        return None

    def cleanup_leftovers(self) -> None:
        """Remove temporary files a crash mid-write may have left beside the save."""
        target = self.target
        for leftover in target.parent.glob(f".{target.name}.*.tmp"):
            try:
                leftover.unlink()
            except OSError:
                pass
