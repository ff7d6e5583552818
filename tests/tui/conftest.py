"""The fixtures module of the TUI tests: an app factory on a save built from command
lines, and what every app under test gets without asking.

Runs are deterministic: saves live in `tmp_path`, animations are off, the fight's
RNG seed is fixed, the theme is fixed, and (autouse fixtures, nothing to remember
in a test) no cursor blinks and Pilot waits less between two keys.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ["CDBTUI_THEME"] = "textual-dark"
sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402

from cdbtui.engine.session import Session  # noqa: E402
from cdbtui.store import create  # noqa: E402

DEMO = Path(__file__).parents[2] / "cdbtui" / "demo" / "puerto.txt"
SEED = 1234


def demo_lines() -> list[str]:
    """The bundled demo: the seeds' worked example, set up and started."""
    return [
        line.strip() for line in DEMO.read_text("utf-8").splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


from fights import EXAMPLE_TURN_1  # noqa: E402,F401 - the worked example, shared


def write_save(path: Path, lines: Iterable[str], *, rules: str = "cdb") -> Path:
    session = Session.new(path.stem, rules, SEED)
    for line in lines:
        session.execute(line)
    create(path, session)
    return path


@pytest.fixture
def save_from(tmp_path: Path) -> Callable[..., Path]:
    """`save_from(lines, name=...)`: a save file built from command lines."""

    def build(lines: Iterable[str], name: str = "combate") -> Path:
        return write_save(tmp_path / f"{name}.toml", lines)

    return build


@pytest.fixture
def make_app(save_from) -> Callable[..., object]:
    """`make_app(lines=demo)`: a `CdbApp` on a fresh save of those lines."""
    from cdbtui.tui.app import CdbApp

    def build(lines: Iterable[str] | None = None, name: str = "combate") -> CdbApp:
        path = save_from(demo_lines() if lines is None else lines, name)
        return CdbApp(path)

    return build


@pytest.fixture(autouse=True)
def no_blink(monkeypatch) -> None:
    """No cursor blinks in any app under test, so screenshots are stable: every
    `Input` starts with `cursor_blink` off (the cursor then stays shown)."""
    from textual.widgets import Input

    monkeypatch.setattr(Input.cursor_blink, "_default", False)


async def _settle_between_keys(min_sleep: float = 0.0, max_sleep: float = 1.0) -> None:
    """`textual._wait.wait_for_idle` with 5 ms windows instead of 20 ms: wait until a
    window passes with this process using less than 1/20 of it in CPU."""
    window = 0.005
    start = time.monotonic()
    while True:
        cpu = time.process_time()
        await asyncio.sleep(window)
        elapsed = time.monotonic() - start
        if elapsed >= max_sleep:
            break
        if elapsed > min_sleep and time.process_time() - cpu < window / 20:
            break


@pytest.fixture(autouse=True, scope="session")
def short_waits_between_keys():
    """`pilot.press` sends each key and waits for the app to look idle twice (Textual's
    `App._press_keys`), in 20 ms windows: most of a Pilot test's time.  Between keys
    that wait is shortened to 5 ms windows (same test: less than 1/20 of the window in
    CPU).  What makes a test's checks safe is unchanged: `press` still ends waiting
    until the screen has handled every message, and `pilot.pause()` (after each key
    of `helpers.keys`, before reading the screen) keeps Textual's own idle wait."""
    import textual.app
    from textual._wait import SLEEP_GRANULARITY, SLEEP_IDLE, wait_for_idle

    assert textual.app.wait_for_idle is wait_for_idle, "Textual's key presses changed"
    assert (SLEEP_GRANULARITY, SLEEP_IDLE) == (1 / 50, 1 / 50 / 20), "Textual's wait changed"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(textual.app, "wait_for_idle", _settle_between_keys)
        yield
