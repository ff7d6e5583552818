"""Engine benchmark: median and p95 of a spend, an advance, a new turn, an undo and a
save, with 10, 50 and 200 combatants and a 1,000-command history.

Each sample runs one command line through `Session.execute` (parse + rules + history,
the same path as the TUI and `cdbtui do`) on a fight that already has 1,000 commands
in its history, then undoes it so every sample starts from the same state.  Saves are
real atomic writes (temp file, fsync, os.replace) to a temporary folder.

Run: .venv/bin/python benchmarks/engine.py [--samples N] [--profile [N]]

`--profile` adds, after the table, a profile (cProfile, by own time) of the spend,
the advance and the new turn at 200 combatants, the N busiest functions of each
(default 15): where the time of a command goes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from cdbtui.engine.commands import quote  # noqa: E402
from cdbtui.engine.rules import queue  # noqa: E402
from cdbtui.engine.session import Session  # noqa: E402
from cdbtui.store import dumps, load, save  # noqa: E402

HISTORY = 1000


def build(count: int) -> Session:
    """A fight of `count` combatants with a history of exactly HISTORY commands."""
    session = Session.new("Banco", "cdb", seed=1)
    for i in range(count):
        session.execute(f"alta C{i:03d} ac={5 + i % 4} agi={i % 5} ate={i % 3} bando={'pj' if i % 4 == 0 else 'pnj'}")
    for i in range(count):
        session.execute(f"momento C{i:03d} {4 + i % 12}")
    session.execute("empezar")
    while len(session.lines) < HISTORY:
        fight = session.fight
        if fight.turn_over:
            session.execute("turno")
            continue
        head = queue(fight)
        if head:
            session.execute(f"{quote(head[0].name)} gasta {1 + len(session.lines) % 3}")
        else:
            session.execute("siguiente")
    return session


def ready(session: Session) -> None:
    """Leave the session at a moment where the queue is not empty."""
    while session.fight.turn_over or not queue(session.fight):
        session.execute("turno" if session.fight.turn_over else "siguiente")


def sample(session: Session, make_line, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        line = make_line(session)
        start = time.perf_counter()
        session.execute(line)
        times.append(time.perf_counter() - start)
        session.undo()
    return times


def sample_undo(session: Session, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        session.execute(f"{quote(queue(session.fight)[0].name)} gasta 1")
        start = time.perf_counter()
        session.undo()
        times.append(time.perf_counter() - start)
    return times


def sample_save(session: Session, folder: Path, samples: int) -> list[float]:
    path = folder / "banco.toml"
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        save(path, session)
        times.append(time.perf_counter() - start)
    return times


def profile(session: Session, top: int) -> None:
    """Print where the time of each timed command goes (cProfile, by own time)."""
    for name, make_line in (
        ("spend (gasta 1)", lambda s: f"{quote(queue(s.fight)[0].name)} gasta 1"),
        ("advance (siguiente)", lambda s: "siguiente"),
        ("new turn (turno)", lambda s: "turno"),
    ):
        profiler = cProfile.Profile()
        for _ in range(50):
            line = make_line(session)
            profiler.enable()
            session.execute(line)
            profiler.disable()
            session.undo()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
        print(f"\n--- profile: {len(session.fight.combatants)} combatants, {name}, 50 runs")
        print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def stats(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered) * 1000:8.3f} {p95 * 1000:8.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--profile", type=int, nargs="?", const=15, default=None, metavar="N",
                        help="after the table, the N busiest functions of each command at 200")
    args = parser.parse_args()
    print(f"history: {HISTORY} commands; samples: {args.samples}; times in ms (median, p95)")
    print(f"{'combatants':>10} {'operation':<22} {'median':>8} {'p95':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for count in (10, 50, 200):
            session = build(count)
            ready(session)
            rows = {
                "spend (gasta 1)": sample(
                    session, lambda s: f"{quote(queue(s.fight)[0].name)} gasta 1", args.samples),
                "advance (siguiente)": sample(session, lambda s: "siguiente", args.samples),
                "new turn (turno)": sample(session, lambda s: "turno", args.samples),
                "undo": sample_undo(session, args.samples),
                "save (atomic, fsync)": sample_save(session, folder, max(20, args.samples // 4)),
            }
            for name, times in rows.items():
                print(f"{count:>10} {name:<22} {stats(times)}")
            size = len(dumps(session).encode())
            path = folder / "reload.toml"
            save(path, session)
            start = time.perf_counter()
            reloaded = load(path)
            loaded = time.perf_counter() - start
            start = time.perf_counter()
            reloaded.undo()
            replay = time.perf_counter() - start
            print(f"{count:>10} {'save size':<22} {size / 1024:8.1f} KiB")
            print(f"{count:>10} {'load':<22} {loaded * 1000:8.3f}")
            print(f"{count:>10} {'first undo after load':<22} {replay * 1000:8.3f}  (replays the history once)")
            if args.profile and count == 200:
                profiled = session
    if args.profile:
        profile(profiled, args.profile)


if __name__ == "__main__":
    main()
