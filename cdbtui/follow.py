"""Following a save another process is playing: the player view's source."""

from __future__ import annotations

import tomllib
from pathlib import Path

from .engine.session import Session
from .files import SaveError, file_stamp, read_bytes
from .store import JOURNAL, loaded_from, replay_journal


class Follower:
    """Follows a save that another process is playing (the player view).

    `poll()` looks at the file and brings `session` up to date: when only journal
    entries were appended since the last look it reads and replays just those, so
    following stays cheap however long the fight; anything else (a rewrite, an
    atomic replace, a file that shrank) is a full `read`.  A missing or broken file
    raises `SaveError` and leaves `session` as it was: the last good state.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.session: Session | None = None
        self._stamp: tuple[int, int, int] | None = None
        self._offset = 0

    def poll(self) -> bool:
        """True when `session` changed since the last call."""
        stamp = file_stamp(self.path)
        if stamp is None:
            # The file's name: the players' status line is one line (the DJ knows where).
            raise SaveError(f"no existe {self.path.name}")
        if stamp == self._stamp:
            return False
        if (self.session is not None and self._stamp is not None
                and stamp[0] == self._stamp[0] and 0 <= self._offset < stamp[1]
                and self._read_tail()):
            self._stamp = stamp
            return True
        self._read_whole()
        self._stamp = stamp
        return True

    def _read_tail(self) -> bool:
        """Replay what was appended; False if it is not a whole run of journal entries."""
        try:
            with open(self.path, "rb") as file:
                file.seek(self._offset)
                tail = file.read()
            text = tail.decode("utf-8")
            if not text.startswith(JOURNAL) or not text.endswith("\n"):
                return False
            entries = tomllib.loads(text).get("journal")
            if not isinstance(entries, list) or {} in entries:
                return False
            assert self.session is not None
            replay_journal(self.session, entries)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, SaveError):
            return False
        self._offset += len(tail)
        return True

    def _read_whole(self) -> None:
        data = read_bytes(self.path)
        loaded = loaded_from(self.path, data)
        self.session = loaded.session
        # After a torn tail, read it whole again next time rather than append to it.
        self._offset = -1 if loaded.torn else len(data)
