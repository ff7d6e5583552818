"""Smoke test of the real app in a real terminal: tmux runs `python -m cdbtui open`,
we send keys and read the pane with capture-pane.

tmux is required: without it this test fails with a clear message (it does not skip).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

from cdbtui.store import load
from conftest import demo_lines

TMUX = shutil.which("tmux") or ("/usr/bin/tmux" if Path("/usr/bin/tmux").exists() else None)
ROOT = Path(__file__).parents[2]


def tmux(*args: str) -> str:
    result = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, f"tmux {' '.join(args)}: {result.stderr}"
    return result.stdout


def wait_for(session: str, text: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    pane = ""
    while time.monotonic() < deadline:
        pane = tmux("capture-pane", "-p", "-t", session)
        if text in pane:
            return pane
        time.sleep(0.1)
    raise AssertionError(f"«{text}» never appeared on screen; the pane shows:\n{pane}")


def gone_within(session: str, seconds: float) -> bool:
    """Wait until the tmux session has ended (the app quit), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if subprocess.run([TMUX, "has-session", "-t", session], capture_output=True).returncode:
            return True
        time.sleep(0.05)
    return False


def test_the_real_app_draws_the_sheet_and_a_key_moves_a_marker(save_from):
    assert TMUX is not None, (
        "tmux is not installed: the TUI smoke test needs it (apt-get install tmux)"
    )
    path = save_from(demo_lines(), "smoke")
    session = f"cdbtui-smoke-{uuid.uuid4().hex[:8]}"
    # Without COLUMNS/LINES (pytest-xdist workers set 80×24): the app takes the pane's size.
    env = {**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
           "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    command = f"cd {ROOT} && {sys.executable} -m cdbtui open {path}"
    subprocess.run(
        [TMUX, "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command],
        check=True, env=env, timeout=10,
    )
    try:
        pane = wait_for(session, "Actúa: Mike")
        assert "Mom │" in pane
        for name in ("Mike", "Sven", "Soldado 1", "Soldado 2"):
            assert name in pane
        for moment in ("7 │", "6 │", "5 │", "4 │"):
            assert moment in pane
        assert "▶Mike 7" in pane
        tmux("send-keys", "-t", session, "3")          # Mike spends 3 AC
        pane = wait_for(session, "● 4")
        assert "Actúa: Soldado 1" in pane
        assert load(path).fight.find("Mike").marker == 4  # autosaved
        tmux("send-keys", "-t", session, "q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            alive = subprocess.run([TMUX, "has-session", "-t", session], capture_output=True)
            if alive.returncode != 0:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the app did not quit on q")
    finally:
        subprocess.run([TMUX, "kill-session", "-t", session], capture_output=True)


def test_closing_the_terminal_or_ctrl_c_loses_nothing(save_from):
    """Each key's command is on disk (a fsynced journal entry) before the screen shows it:
    killing the terminal right after the repaint keeps it, and quitting tidies up."""
    assert TMUX is not None, "tmux is not installed (apt-get install tmux)"
    # Without COLUMNS/LINES (pytest-xdist workers set 80×24): the app takes the pane's size.
    env = {**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
           "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    for ending in ("kill-session", "C-c", "C-q"):
        path = save_from(demo_lines(), f"cierre-{ending.lower()}")
        session = f"cdbtui-close-{uuid.uuid4().hex[:8]}"
        command = f"cd {ROOT} && {sys.executable} -m cdbtui open {path}"
        subprocess.run([TMUX, "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                        command], check=True, env=env, timeout=10)
        try:
            wait_for(session, "Actúa: Mike")
            tmux("send-keys", "-t", session, "3")
            wait_for(session, "Actúa: Soldado 1")
            tmux("send-keys", "-t", session, "2")  # Soldado 1 spends 2
            wait_for(session, "Actúa: Sven")  # both at 4 now; Sven heads moment 5
            if ending == "kill-session":
                tmux("kill-session", "-t", session)  # the terminal closes under the app
            else:
                tmux("send-keys", "-t", session, ending)
                gone_within(session, 1.5)  # C-q quits (the session ends); C-c doesn't
        finally:
            subprocess.run([TMUX, "kill-session", "-t", session], capture_output=True)
        saved = load(path)
        assert saved.lines[-2:] == ["Mike gasta 3", '"Soldado 1" gasta 2'], ending
        assert saved.fight.find("Soldado 1").marker == 4
