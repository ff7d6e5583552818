"""TUI benchmark: work per keypress, first paint, keypress to screen change in tmux.

For 10, 50 and 200 combatants the real `CdbApp` runs headless (`run_test`, 160×50)
on a started fight and a cycle of keys is pressed: spend 1 AC, undo, dodge, undo,
advance, undo, move the selection right and left.  Pilot's press + pause sleeps
~60 ms of its own, so wall time is not measured; instead, per key:

* work: perf_counter around the key's binding handler (`App._check_bindings`, which
  runs the action, `Session.execute`, the atomic autosave and the widget updates)
  plus every screen update until the next key (`Screen._on_timer_update`: layout,
  the compositor render, and here also the serialization to terminal escape codes
  that a headless driver would skip) and the callbacks run after a refresh
  (`Screen._invoke_and_clear_callbacks`: the footer's keys, scrolling into view);
* cpu: process CPU time around press + pause (everything the process did for that
  key, Pilot's own bookkeeping included; sleeps excluded).

First paint is measured in a fresh interpreter: from before `import cdbtui.tui.app`
to the end of the first compositor render that shows the sheet (interpreter start-up
itself, ~20 ms, is not included), with cdbtui byte-compiled first as `make run`
does (`compileall`: an editable install is not, and with PYTHONDONTWRITEBYTECODE
set, as on this machine, every start would compile it again, ~0.2 s more).

Real terminal: the same 50- and 200-combatant saves open in the real app
(`python -m cdbtui open SAVE`), each in a detached tmux session at 120×36, next to
`benchmarks/minimal_app.py` (a Textual app that repaints a counter on the same keys).
Once each has painted, → and ← are sent in turn (→ then ← keeps the state bounded)
and the pane is polled until it differs from the screen before the key: that time
is keypress to screen change, as a DJ sees it (tmux writes the key to the pty, the
app reads, works, writes escape codes, tmux parses them into its grid).  The three
apps run at once and take their keys in rounds, so a change of the machine's load
hits all three alike; the ratio cdbtui / minimal is the figure to watch, the absolute
times move with the load.  "last change" is the time of the last change before the
pane stays the same for 50 ms (a repaint spread over several frames).

Polling: one tmux server of our own (`-L`, no user config) and one control-mode
client (`tmux -C`) kept open; send-keys and capture-pane are lines written to its
stdin, answered between `%begin`/`%end`.  A capture that way costs ~0.15 ms; spawning
`tmux capture-pane` per poll costs ~4–7 ms here (process start-up), which would make
the floor bigger than the minimal app's whole latency.  Both are measured and printed
as the floor: a sample includes the send-keys and up to one capture beyond the true
change.  The polls run back to back (`--poll-pause MS` sleeps between them, to leave
the CPU to the apps on a loaded machine; on 2 busy cores it made no visible
difference).  TEXTUAL_ANIMATIONS=none in all apps, as above.

Run: .venv/bin/python benchmarks/tui.py [--keys N] [--terminal-keys N] [--part all|headless|terminal]
Goal: p95 work < 16 ms at 50 combatants, < 33 ms at 200; first paint < 1 s;
in the real terminal, cdbtui's median within 1.3× the minimal app's (50 and 200).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

CYCLE = ("1", "u", "e", "u", "space", "u", "l", "h")
#: C-System (`--rules csystem`): end the go, undo, next, undo, select right and left.
CS_CYCLE = ("f", "u", "space", "u", "right", "left")
#: Storyteller (`--rules narrador`), in the action phase: next, undo, select right and left.
NARR_CYCLE = ("space", "u", "right", "left")
SIZE = (160, 50)


def build_cs_save(folder: Path, count: int) -> Path:
    """A started C-System fight of `count` combatants (NH 1–12, half with a rifle)."""
    from cdbtui.engine.session import Session
    from cdbtui.store import create

    session = Session.new("Banco", "csystem", seed=1)
    for i in range(count):
        side = "pj" if i % 4 == 0 else "pnj"
        session.execute(f"alta C{i:03d} nh={1 + i % 12} des={1 + i % 7} ale={i % 5} per=8 con=6 rd=2 bando={side}")
        if i % 2:
            session.execute(f"arma C{i:03d} rifle modos=sa,fa cargador=30 dano=2d6")
        session.execute(f"iniciativa C{i:03d} {5 + i % 25}")
    session.execute("empezar")
    path = folder / f"banco-cs-{count}.toml"
    create(path, session)
    return path


def build_narr_save(folder: Path, count: int) -> Path:
    """A storyteller fight of `count` combatants in its action phase."""
    from cdbtui.engine.session import Session
    from cdbtui.store import create

    session = Session.new("Banco", "narrador", seed=1)
    for i in range(count):
        side = "pj" if i % 4 == 0 else "pnj"
        session.execute(f"alta C{i:03d} des={2 + i % 3} ast={1 + i % 3} fue=3 res=2 fv=3 bando={side}"
                        " rasgos=pelea:2,esquivar:2,armas-de-fuego:2")
        if i % 2:
            session.execute(f"arma C{i:03d} rifle-de-asalto")
        session.execute(f"iniciativa C{i:03d} {5 + i % 20}")
    session.execute("siguiente")
    while session.fight.narr.phase == "declare":
        who = session.fight.narr.declarer
        session.execute(f"declara {who} {'disparo esquiva' if int(who[1:]) % 2 else 'golpe'}")
    path = folder / f"banco-narr-{count}.toml"
    create(path, session)
    return path


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

        invoke_callbacks = Screen._invoke_and_clear_callbacks

        async def timed_callbacks(screen):
            began = time.perf_counter()
            try:
                return await invoke_callbacks(screen)
            finally:
                meter.work += time.perf_counter() - began

        App._check_bindings = timed_check_bindings
        Screen._on_timer_update = timed_timer_update
        Screen._invoke_and_clear_callbacks = timed_callbacks
        Compositor.render_update = render_and_serialize
        self.console = None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


async def measure_keys(path: Path, presses: int, meter: Meter,
                       cycle: tuple[str, ...] = CYCLE) -> tuple[list[float], list[float]]:
    from cdbtui.tui.app import CdbApp

    app = CdbApp(path)
    work: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        meter.console = app.console
        await pilot.pause()
        for _ in range(4):  # warm caches (catalog, styles) before measuring
            for key in cycle:
                await pilot.press(key)
                await pilot.pause()
        for index in range(presses):
            key = cycle[index % len(cycle)]
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


# ------------------------------------------------------------ real terminal (tmux)

TERMINAL_SIZE = (120, 36)
TERMINAL_KEYS = ("Right", "Left")
#: cdbtui's median keypress-to-screen-change within this many times the minimal app's.
TERMINAL_GOAL = 1.3
MINIMAL_APP = Path(__file__).with_name("minimal_app.py")
ROOT = Path(__file__).parents[1]


class ControlClient:
    """A private tmux server (its own socket, no user config) and one control-mode
    client (`tmux -C`) attached to an idle session of its own: a command written to
    its stdin is answered between `%begin` and `%end` lines, with no process started."""

    def __init__(self, tmux: str) -> None:
        self.tmux = tmux
        self.socket = f"cdbtui-bench-{os.getpid()}"
        env = {**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
               "TEXTUAL_ANIMATIONS": "none", "COLORTERM": "truecolor"}  # the pane gives the size
        self.process = subprocess.Popen(
            [tmux, "-L", self.socket, "-f", "/dev/null", "-C", "new-session", "-s", "control", "cat"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
        )
        # new-session's own reply comes first: read replies up to the one of "ready"
        self._send("set-option -g default-terminal tmux-256color")
        self._send("set-option -g remain-on-exit on")  # an app that dies leaves its traceback
        self._send("display-message -p ready")
        while self._reply("start-up") != b"ready\n":
            pass

    def run(self, command: str) -> bytes:
        """Run one tmux command through the control client; its output."""
        self._send(command)
        return self._reply(command)

    def _send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()

    def _reply(self, command: str) -> bytes:
        """The next command reply (notifications between replies are skipped)."""
        assert self.process.stdout is not None
        readline = self.process.stdout.readline
        lines: list[bytes] = []
        inside = False
        while True:
            line = readline()
            if not line:
                raise RuntimeError(f"tmux control client ended on «{command}»")
            if line.startswith(b"%begin"):
                inside, lines = True, []
            elif inside and line.startswith((b"%end", b"%error")):
                if line.startswith(b"%error"):
                    raise RuntimeError(f"tmux «{command}»: {b''.join(lines).decode(errors='replace')}")
                return b"".join(lines)
            elif inside:
                lines.append(line)
            # outside a block: a notification (%sessions-changed…), not ours

    def start(self, name: str, command: str) -> None:
        """A detached session running `command` at the fixed size."""
        width, height = TERMINAL_SIZE
        subprocess.run([self.tmux, "-L", self.socket, "new-session", "-d", "-s", name,
                        "-x", str(width), "-y", str(height), command], check=True, timeout=10)

    def capture(self, name: str) -> bytes:
        return self.run(f"capture-pane -p -t {name}")

    def close(self) -> None:
        """End the server (and so the apps) and remove its socket file."""
        socket = subprocess.run([self.tmux, "-L", self.socket, "display-message", "-p", "#{socket_path}"],
                                check=False, capture_output=True, text=True, timeout=10).stdout.strip()
        subprocess.run([self.tmux, "-L", self.socket, "kill-server"], check=False, capture_output=True,
                       timeout=10)
        self.process.wait(timeout=10)
        if socket:
            Path(socket).unlink(missing_ok=True)


def wait_painted(client: ControlClient, name: str, text: str, timeout: float = 30.0) -> bytes:
    """The pane once it shows `text` and has not changed for 0.3 s."""
    deadline = time.monotonic() + timeout
    pane, since = b"", time.monotonic()
    while time.monotonic() < deadline:
        now = client.capture(name)
        if client.run(f"display-message -p -t {name} '#{{pane_dead}}'") == b"1\n":
            raise RuntimeError(f"{name} ended before painting; the pane shows:\n{now.decode()}")
        if now != pane:
            pane, since = now, time.monotonic()
        elif text.encode() in pane and time.monotonic() - since > 0.3:
            return pane
        time.sleep(0.01)
    raise RuntimeError(f"{name}: «{text}» never appeared steadily; the pane shows:\n{pane.decode()}")


def key_to_change(client: ControlClient, name: str, key: str, before: bytes,
                  pause: float = 0.0, quiet: float = 0.05,
                  timeout: float = 5.0) -> tuple[float, float, bytes]:
    """Send `key`; seconds to the first capture that differs from `before`, seconds
    to the last change before the pane stays the same for `quiet` seconds (a repaint
    in several frames), and that settled pane.  `pause`: seconds slept between two
    polls for the first change (0: back to back)."""
    run = client.run
    capture = f"capture-pane -p -t {name}"
    began = time.perf_counter()
    run(f"send-keys -t {name} {key}")
    pane = run(capture)
    while pane == before:
        if time.perf_counter() - began > timeout:
            raise RuntimeError(f"{name}: the screen did not change within {timeout} s of {key}")
        if pause:
            time.sleep(pause)
        pane = run(capture)
    first = last = time.perf_counter() - began
    while time.perf_counter() - began - last < quiet:
        time.sleep(0.001)  # changes after the first are timed to ~1 ms, leaving the CPU to the apps
        now = run(capture)
        if now != pane:
            pane, last = now, time.perf_counter() - began
    return first, last, pane


def capture_floor(client: ControlClient, name: str, samples: int = 200) -> tuple[float, float]:
    """Median seconds of one capture-pane through the control client, and through a
    new `tmux capture-pane` process (the other way to poll)."""
    through_client = []
    for _ in range(samples):
        began = time.perf_counter()
        client.capture(name)
        through_client.append(time.perf_counter() - began)
    through_process = []
    for _ in range(samples // 4):
        began = time.perf_counter()
        subprocess.run([client.tmux, "-L", client.socket, "capture-pane", "-p", "-t", name],
                       capture_output=True, check=True)
        through_process.append(time.perf_counter() - began)
    return statistics.median(through_client), statistics.median(through_process)


def measure_terminal(
    paths: dict[int, Path], presses: int, pause: float = 0.0,
) -> tuple[dict[str, tuple[list[float], list[float]]], tuple[float, float]] | None:
    """Keypress-to-screen-change samples for the minimal app and cdbtui on each save,
    all running at once in their own tmux sessions and measured in turns (one key to
    each in every round), so a change of the machine's load hits all alike."""
    tmux = shutil.which("tmux")
    if tmux is None:
        return None
    client = ControlClient(tmux)
    try:
        apps = {"minimal": (f"exec {shlex.quote(sys.executable)} {shlex.quote(str(MINIMAL_APP))}", "Teclas: 0")}
        for count, path in paths.items():
            command = f"cd {shlex.quote(str(ROOT))} && exec {shlex.quote(sys.executable)} -m cdbtui open {shlex.quote(str(path))}"
            apps[f"cdbtui-{count}"] = (command, "Actúa:")
        for name, (command, _) in apps.items():
            client.start(name, command)
        screens = {name: wait_painted(client, name, text) for name, (_, text) in apps.items()}
        floor = capture_floor(client, "minimal")
        samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in apps}
        warm = 6
        for index in range(warm + presses):
            key = TERMINAL_KEYS[index % len(TERMINAL_KEYS)]
            for name in apps:
                first, last, screens[name] = key_to_change(client, name, key, screens[name], pause)
                if index >= warm:
                    samples[name][0].append(first)
                    samples[name][1].append(last)
        return samples, floor
    finally:
        client.close()


def report_terminal(paths: dict[int, Path], presses: int, pause: float = 0.0) -> bool:
    """Print the real-terminal table; whether cdbtui is within the goal of the minimal app."""
    width, height = TERMINAL_SIZE
    print(f"\nreal terminal · tmux {width}×{height} · keys → ← alternating · {presses} per app"
          " · keypress to the first capture-pane that differs")
    measured = measure_terminal(paths, presses, pause)
    if measured is None:
        print("tmux is not installed: the real-terminal measurement did not run (apt-get install tmux)")
        return False
    samples, (client_floor, process_floor) = measured
    minimal = statistics.median(samples["minimal"][0])
    print(f"{'app':>12} | {'median':>8} {'p95':>8} | {'× minimal':>9} | {'last change':>11} {'p95':>8} | goal")
    ok = True
    for name, (values, lasts) in samples.items():
        median = statistics.median(values)
        line = f"{name:>12} | {median * 1000:>5.2f} ms {percentile(values, 0.95) * 1000:>5.2f} ms |"
        whole = f"{statistics.median(lasts) * 1000:>8.2f} ms {percentile(lasts, 0.95) * 1000:>5.2f} ms"
        if name == "minimal":
            print(f"{line} {'1.00×':>9} | {whole} | —")
            continue
        ratio = median / minimal
        verdict = "ok" if ratio <= TERMINAL_GOAL else f"FALLA (> {TERMINAL_GOAL}×)"
        ok = ok and ratio <= TERMINAL_GOAL
        print(f"{line} {ratio:>8.2f}× | {whole} | {verdict}")
    print(f"measurement floor: one capture-pane through the control client takes {client_floor * 1000:.2f} ms"
          f" (a new tmux process per poll: {process_floor * 1000:.2f} ms); every sample includes"
          " the send-keys and up to one capture of it")
    return ok


def other_headless(rules: str, presses: int, goals: dict[int, float]) -> bool:
    """The headless work per key on C-System or storyteller fights of 10, 50 and 200
    (issues 13 and 14: p95 under 16 ms at 50)."""
    ok = True
    build, cycle, title = ((build_cs_save, CS_CYCLE, "C-System") if rules == "csystem"
                           else (build_narr_save, NARR_CYCLE, "Narrador"))
    with tempfile.TemporaryDirectory() as folder:
        meter = Meter()
        meter.install()
        print(f"cdbtui TUI benchmark, {title} · {SIZE[0]}×{SIZE[1]} · keys {' '.join(cycle)} · {presses} per size")
        print(f"{'combatants':>10} | {'work median':>11} {'work p95':>9} | {'cpu median':>10} {'cpu p95':>8} | goal")
        for count in (10, 50, 200):
            work, cpu = asyncio.run(measure_keys(build(Path(folder), count), presses, meter, cycle))
            p95 = percentile(work, 0.95)
            goal = goals.get(count)
            verdict = "—" if goal is None else ("ok" if p95 < goal else f"FALLA (> {goal * 1000:.0f} ms)")
            ok = ok and verdict in ("—", "ok")
            print(f"{count:>10} | {statistics.median(work) * 1000:>8.2f} ms {p95 * 1000:>6.2f} ms"
                  f" | {statistics.median(cpu) * 1000:>7.2f} ms {percentile(cpu, 0.95) * 1000:>5.2f} ms | {verdict}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=80, help="keys measured per size (headless)")
    parser.add_argument("--terminal-keys", type=int, default=60, help="keys measured per app (tmux)")
    parser.add_argument("--poll-pause", type=float, default=0.0, metavar="MS",
                        help="sleep between two polls of the pane (default 0: back to back)")
    parser.add_argument("--part", choices=("all", "headless", "terminal"), default="all",
                        help="only the headless work per key and first paint, or only the real terminal")
    parser.add_argument("--rules", choices=("cdb", "csystem", "narrador"), default="cdb",
                        help="csystem / narrador: only the headless work per key on such a fight (its key cycle)")
    args = parser.parse_args()
    goals = {50: 0.016, 200: 0.033}
    ok = True
    if args.rules != "cdb":
        return 0 if other_headless(args.rules, args.keys, goals) else 1
    with tempfile.TemporaryDirectory() as folder:
        paths = {count: build_save(Path(folder), count) for count in (10, 50, 200)}
        if args.part == "terminal":
            return 0 if report_terminal({50: paths[50], 200: paths[200]}, args.terminal_keys, args.poll_pause / 1000) else 1
        meter = Meter()
        meter.install()
        print(f"cdbtui TUI benchmark · {SIZE[0]}×{SIZE[1]} · keys {' '.join(CYCLE)} · {args.keys} per size")
        print(f"{'combatants':>10} | {'work median':>11} {'work p95':>9} | {'cpu median':>10} {'cpu p95':>8} | goal")
        for count in (10, 50, 200):
            work, cpu = asyncio.run(measure_keys(paths[count], args.keys, meter))
            p95 = percentile(work, 0.95)
            goal = goals.get(count)
            verdict = "—" if goal is None else ("ok" if p95 < goal else f"FALLA (> {goal * 1000:.0f} ms)")
            ok = ok and verdict in ("—", "ok")
            print(f"{count:>10} | {statistics.median(work) * 1000:>8.2f} ms {p95 * 1000:>6.2f} ms"
                  f" | {statistics.median(cpu) * 1000:>7.2f} ms {percentile(cpu, 0.95) * 1000:>5.2f} ms | {verdict}")
        compileall.compile_dir(str(ROOT / "cdbtui"), quiet=1)  # as `make run` does
        for count in (10, 200):
            seconds = first_paint(paths[count])
            verdict = "ok" if seconds < 1.0 else "FALLA (> 1 s)"
            ok = ok and seconds < 1.0
            print(f"first paint, {count} combatants: {seconds * 1000:.0f} ms | {verdict}")
        if args.part == "all":
            ok = report_terminal({50: paths[50], 200: paths[200]}, args.terminal_keys, args.poll_pause / 1000) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
