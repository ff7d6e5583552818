"""TUI benchmark: the app's own work per keypress, and time from launch to first paint.

For 10, 50 and 200 combatants the real `CdbApp` runs headless (`run_test`, 160×50)
on a started fight and a cycle of keys is pressed: spend 1 AC, undo, dodge, undo,
advance, undo, move the selection right and left.  Pilot's press + pause sleeps
~60 ms of its own, so wall time is not measured; instead, per key:

* work: perf_counter around the key's binding handler (`App._check_bindings`, which
  runs the action, `Session.execute`, the atomic autosave and the widget updates)
  plus every screen update until the next key (`Screen._on_timer_update`: layout,
  the compositor render, and here also the serialization to terminal escape codes
  that a headless driver would skip);
* cpu: process CPU time around press + pause (everything the process did for that
  key, Pilot's own bookkeeping included; sleeps excluded).

First paint is measured in a fresh interpreter: from before `import cdbtui.tui.app`
to the end of the first compositor render that shows the sheet (interpreter start-up
itself, ~20 ms, is not included).

Run: .venv/bin/python benchmarks/tui.py [--keys N]
Goal: p95 work < 16 ms at 50 combatants, < 33 ms at 200; first paint < 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

CYCLE = ("1", "u", "e", "u", "space", "u", "l", "h")
SIZE = (160, 50)


def build_save(folder: Path, count: int) -> Path:
    from cdbtui.engine.session import Session
    from cdbtui.store import create

    session = Session.new("Banco", "cdb", seed=1)
    for i in range(count):
        side = "pj" if i % 4 == 0 else "pnj"
        session.execute(f"alta C{i:03d} ac={6 + i % 4} agi={i % 5} ate={i % 3} bando={side}")
    for i in range(count):
        session.execute(f"momento C{i:03d} {4 + i % 12}")
    session.execute("empezar")
    path = folder / f"banco-{count}.toml"
    create(path, session)
    return path


class Meter:
    """Accumulates the durations of the instrumented methods."""

    def __init__(self) -> None:
        self.work = 0.0

    def install(self) -> None:
        from textual.app import App
        from textual.screen import Screen

        meter = self
        check_bindings = App._check_bindings
        timer_update = Screen._on_timer_update
        render_update = None

        async def timed_check_bindings(app, key, priority=False):
            began = time.perf_counter()
            try:
                return await check_bindings(app, key, priority)
            finally:
                meter.work += time.perf_counter() - began

        def timed_timer_update(screen):
            began = time.perf_counter()
            try:
                return timer_update(screen)
            finally:
                meter.work += time.perf_counter() - began

        from textual._compositor import Compositor

        render_update = Compositor.render_update

        def render_and_serialize(compositor, *args, **kwargs):
            update = render_update(compositor, *args, **kwargs)
            if update is not None and meter.console is not None:
                update.render_segments(meter.console)  # what a real terminal would get
            return update

        App._check_bindings = timed_check_bindings
        Screen._on_timer_update = timed_timer_update
        Compositor.render_update = render_and_serialize
        self.console = None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def measure_keys(path: Path, presses: int, meter: Meter) -> tuple[list[float], list[float]]:
    from cdbtui.tui.app import CdbApp

    app = CdbApp(path)
    work: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        meter.console = app.console
        await pilot.pause()
        for _ in range(4):  # warm caches (catalog, styles) before measuring
            for key in CYCLE:
                await pilot.press(key)
                await pilot.pause()
        for index in range(presses):
            key = CYCLE[index % len(CYCLE)]
            meter.work = 0.0
            began = time.process_time()
            await pilot.press(key)
            await pilot.pause()
            cpu.append(time.process_time() - began)
            work.append(meter.work)
    meter.console = None
    return work, cpu


def first_paint(path: Path) -> float:
    """Seconds from importing the app to its first painted sheet, in a fresh interpreter."""
    code = f"""
import os, sys, time, asyncio
os.environ["TEXTUAL_ANIMATIONS"] = "none"
sys.path.insert(0, {str(Path(__file__).parents[1])!r})
began = time.perf_counter()
from cdbtui.tui.app import CdbApp
from textual._compositor import Compositor
from cdbtui.tui.screens.fight import FightScreen
painted = []
original = Compositor.render_update
def render_update(self, *a, **k):
    update = original(self, *a, **k)
    if not painted and app.fight is not None and isinstance(app.screen, FightScreen):
        painted.append(time.perf_counter() - began)
    return update
Compositor.render_update = render_update
app = CdbApp({str(path)!r})
async def main():
    async with app.run_test(size={SIZE!r}) as pilot:
        while not painted:
            await pilot.pause(0.01)
asyncio.run(main())
print(painted[0])
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(result.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=80, help="keys measured per size")
    args = parser.parse_args()
    meter = Meter()
    meter.install()
    goals = {50: 0.016, 200: 0.033}
    ok = True
    print(f"cdbtui TUI benchmark · {SIZE[0]}×{SIZE[1]} · keys {' '.join(CYCLE)} · {args.keys} per size")
    print(f"{'combatants':>10} | {'work median':>11} {'work p95':>9} | {'cpu median':>10} {'cpu p95':>8} | goal")
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for count in (10, 50, 200):
            paths[count] = build_save(Path(folder), count)
            work, cpu = asyncio.run(measure_keys(paths[count], args.keys, meter))
            p95 = percentile(work, 0.95)
            goal = goals.get(count)
            verdict = "—" if goal is None else ("ok" if p95 < goal else f"FALLA (> {goal * 1000:.0f} ms)")
            ok = ok and verdict in ("—", "ok")
            print(f"{count:>10} | {statistics.median(work) * 1000:>8.2f} ms {p95 * 1000:>6.2f} ms"
                  f" | {statistics.median(cpu) * 1000:>7.2f} ms {percentile(cpu, 0.95) * 1000:>5.2f} ms | {verdict}")
        for count in (10, 200):
            seconds = first_paint(paths[count])
            verdict = "ok" if seconds < 1.0 else "FALLA (> 1 s)"
            ok = ok and seconds < 1.0
            print(f"first paint, {count} combatants: {seconds * 1000:.0f} ms | {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
