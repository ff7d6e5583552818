"""The sheet at a real table (issue 12), in a real terminal: tmux runs
`python -m cdbtui open` at 120×36 on a fight of twelve combatants; keys go in with
`send-keys` and the screen is read back with `capture-pane`.

How the screen is read: the side panel's title is its top border, "╭─ Raúl · PNJ ─…",
on the row of the sheet's top border ("╭─ Plantilla ─…"); the selected combatant is
the name before " · PJ" / " · PNJ" there.  The sheet is the part of the rows from
its top border to its bottom one that lies left of the panel's column (so a name in
the panel or the log does not count as on the sheet).

tmux is required: without it this test fails with a clear message (it does not skip).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

from cdbtui.store import load

TMUX = shutil.which("tmux") or ("/usr/bin/tmux" if Path("/usr/bin/tmux").exists() else None)
ROOT = Path(__file__).parents[2]

#: Twelve combatants, each with a start moment of its own: the sheet's columns (start
#: order, highest first) and so → from the head of the queue walk them in this order.
#: Short names, so that at 120 columns all must be shown whole.
NAMES = ("Sven", "Mike", "Ana", "Bea", "Tomás", "Zoe", "Lía", "Iker", "Nora", "Raúl", "Eva", "Hugo")
LINES = [
    *(f"alta {name} ac={6 + i % 4} agi={i % 5} bando={'pj' if i < 4 else 'pnj'}"
      for i, name in enumerate(NAMES)),
    *(f"momento {name} {15 - i}" for i, name in enumerate(NAMES)),
    "empezar",
]
PANEL_TITLE = re.compile(r"╭─ (.+?) · (?:PJ|PNJ)\b")


class Terminal:
    """A tmux server of this test's own (its socket, no user config) running the app."""

    def __init__(self, command: str, size: tuple[int, int]) -> None:
        self.socket = f"cdbtui-table-{uuid.uuid4().hex[:8]}"
        # Without COLUMNS/LINES (pytest-xdist workers set 80×24): the app takes the pane's size.
        env = {**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
               "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
        self.run("new-session", "-d", "-s", "app", "-x", str(size[0]), "-y", str(size[1]),
                 command, ";", "set-option", "-g", "remain-on-exit", "on", env=env)
        # (remain-on-exit: an app that crashes leaves its traceback on the screen shown)

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        result = subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", *args],
                                check=False, capture_output=True, text=True, timeout=10, env=env)
        assert result.returncode == 0, f"tmux {' '.join(args)}: {result.stderr}"
        return result.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "app")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "app", *(["-l"] if literal else []), *keys)

    def wait(self, check, what: str, timeout: float = 5.0) -> str:
        """The screen once `check(screen)` holds; fails showing the screen otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}; the screen shows:\n{screen}")
            time.sleep(0.01)

    def close(self) -> None:
        """End the server and remove its socket file (kill-server leaves it behind)."""
        socket = self.run("display-message", "-p", "#{socket_path}").strip()
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], check=False, capture_output=True,
                       timeout=10)
        if socket:
            Path(socket).unlink(missing_ok=True)


def selected(screen: str) -> str | None:
    """The name in the side panel's title ("Raúl" of "╭─ Raúl · PNJ ─…"), if shown."""
    for row in screen.splitlines():
        if "╭─ Plantilla" in row:
            found = PANEL_TITLE.search(row, row.index("╭─ Plantilla") + 1)
            return found.group(1) if found else None
    return None


def sheet_area(screen: str) -> str:
    """The sheet's rows, cut at the side panel's column (its title's "╭")."""
    rows = screen.splitlines()
    top = next(i for i, row in enumerate(rows) if "╭─ Plantilla" in row)
    title = PANEL_TITLE.search(rows[top], rows[top].index("╭─ Plantilla") + 1)
    right = title.start() if title else len(rows[top])
    bottom = next((i for i in range(top + 1, len(rows)) if rows[i].startswith("╰")), len(rows))
    return "\n".join(row[:right] for row in rows[top:bottom + 1])


def test_twelve_combatants_at_120x36_are_all_on_the_sheet_and_reachable(save_from):
    assert TMUX is not None, "tmux is not installed: this test needs it (apt-get install tmux)"
    path = save_from(LINES, "mesa")
    commands = load(path).lines
    terminal = Terminal(f"cd {ROOT} && exec {sys.executable} -m cdbtui open {path}", (120, 36))
    try:
        def missing(screen: str) -> list[str]:
            sheet = sheet_area(screen)
            return [name for name in NAMES if not re.search(rf"(?<!\w){name}(?!\w)", sheet)]

        # The first frames may come before the layout settles: wait for the whole sheet.
        screen = terminal.wait(lambda s: selected(s) is not None and "Actúa:" in s and not missing(s),
                               "the sheet never showed all twelve names whole", timeout=20)
        assert selected(screen) == NAMES[0]  # the head of the queue, leftmost

        seen = [NAMES[0]]
        for expected in NAMES[1:]:
            terminal.keys("Right")
            screen = terminal.wait(lambda s: selected(s) not in (None, seen[-1]),
                                   f"→ after {seen[-1]} did not move the panel to {expected}")
            seen.append(selected(screen))
        assert seen == list(NAMES), f"→ walked {seen}, not the sheet's columns {list(NAMES)}"

        for typed, name in (("rau", "Raúl"), ("tom", "Tomás"), ("ik", "Iker")):
            before = terminal.screen()
            terminal.keys("/", literal=True)
            # letters typed before the search line is up go to the sheet as keys
            terminal.wait(lambda s, before=before: s != before, f"/ did not open the search (for {name})")
            terminal.keys(typed, literal=True)
            terminal.keys("Enter")
            terminal.wait(lambda s, name=name: selected(s) == name and "Actúa:" in s,
                          f"/ {typed} ⏎ did not jump to {name}")
        assert load(path).lines == commands  # moving and searching ran no command
    finally:
        terminal.close()
