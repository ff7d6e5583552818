"""The fight's log, newest last: a Textual `Log` kept in step with `Fight.log`."""

from __future__ import annotations

from textual.widgets import Log

from ...engine.model import LogEntry

KEEP = 500  # lines shown; the save keeps them all


class FightLog(Log):
    """Appends only what is new; an undo (a shorter or different log) rewrites it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(max_lines=KEEP, **kwargs)
        self._shown: tuple[LogEntry, ...] = ()

    def show(self, entries: tuple[LogEntry, ...]) -> None:
        old = self._shown
        if entries is old:
            return
        if len(entries) >= len(old) and (not old or entries[len(old) - 1] is old[-1]
                                         or entries[: len(old)] == old):
            new = entries[len(old):]
        else:
            self.clear()
            new = entries[-KEEP:]
        self._shown = entries
        if new:
            self.write_lines([str(entry) for entry in new[-KEEP:]])
