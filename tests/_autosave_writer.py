"""A DJ that keeps playing: the writer process of tests/test_save_crash.py.

    python tests/_autosave_writer.py PATH SEED [COUNT] [--lockstep]

Opens the save at PATH with `SaveFile.open`, then runs COUNT (200) commands that
stay legal (spends by whoever heads the queue, `siguiente`, `turno`, some damage,
undo and redo), calling `record` after each.  After each record it prints one
acknowledgement line and flushes stdout: from then on that state is durable.

    ACK NUMBER LINES FINGERPRINT

`NUMBER` counts the commands recorded (0 once the save is open, then 1…COUNT),
`LINES` is `len(session.lines)` and `FINGERPRINT` is `fingerprint(session)`.  The commands depend only on SEED and
on the state, so `script(session, seed, count)` run in the test gives the same
sequence without a file: the states a crash may leave behind are known in advance.
With `--lockstep` it waits for a line on stdin after each acknowledgement (until
stdin is closed), so that a test can kill it at a chosen point of the next command.

With `CDB_CRASH=NUMBER:POINT` in the environment the process kills itself with
SIGKILL inside the write of command NUMBER, at POINT:

- `append-half`: after writing (and fsyncing) half of its journal entry;
- `before-replace`: a compaction's temporary file is written, not yet in place;
- `before-backup`: the `.bak` is staged (hard link), not yet in place;
- `after-replace`: the new file is in place, the folder not yet fsynced.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

if __name__ == "__main__":  # run as a script: import cdbtui from the checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cdbtui import files, funnel  # noqa: E402
from cdbtui.engine.commands import quote  # noqa: E402
from cdbtui.engine.errors import Refusal  # noqa: E402
from cdbtui.engine.rules import queue  # noqa: E402
from cdbtui.engine.session import Outcome, Session  # noqa: E402


def fingerprint(session: Session) -> str:
    """A short hash of the fight, its history and what can be redone."""
    text = repr(session.fight) + "\x00" + "\n".join(session.lines) + "\x00" + "\n".join(
        session.redo_lines
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def candidates(session: Session, rng: random.Random, floor: int) -> Iterator[str]:
    """Command lines to try in order: the first one the rules accept is played."""
    fight = session.fight
    if fight.turn_over or (fight.moment is not None and fight.moment <= 0):
        yield "turno"  # nobody left to act this turn (holders would count down forever)
        return
    roll = rng.random()
    if roll < 0.08 and len(session.lines) > floor + 2:
        yield "deshacer"
    elif roll < 0.12 and session.can_redo:
        yield "rehacer"
    elif roll < 0.17 and fight.combatants:
        yield f"dano {quote(rng.choice(fight.combatants).name)} 1"
    elif roll < 0.75:
        head = queue(fight)
        if head:
            yield f"{quote(head[0].name)} gasta {rng.randint(1, 2)}"
            yield f"{quote(head[0].name)} gasta 1"
    yield "siguiente"
    yield "turno"


def step(session: Session, rng: random.Random, floor: int) -> Outcome:
    """Play one legal command (the first candidate not refused)."""
    for line in candidates(session, rng, floor):
        try:
            return session.execute(line)
        except Refusal:
            continue
    raise AssertionError(f"no legal command in {session.fight!r:.200}")


#: Commands played at fixed points whatever the dice say, so that the file is rewritten
#: on undos below the snapshot: the first undoes the save's last line (`empezar` of
#: the demo), and 103-104 follow the compaction after COMPACT_EVERY appends (at 102,
#: counting the rewrite at 1).
SCHEDULE = {1: "deshacer", 2: "rehacer", 103: "deshacer", 104: "deshacer", 105: "rehacer"}


def script(session: Session, seed: int, count: int) -> Iterator[tuple[Outcome, Session]]:
    """The `count` commands the writer plays with `seed`, from `session`."""
    rng = random.Random(seed)
    floor = len(session.lines)
    for number in range(1, count + 1):
        if number in SCHEDULE:
            yield session.execute(SCHEDULE[number]), session
        else:
            yield step(session, rng, floor), session


def _arm(crash: str) -> list[int]:
    """Install the self-kill of `CDB_CRASH`; returns the [commands recorded] counter."""
    number, point = crash.split(":")
    target = int(number)
    recorded = [0]

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    def armed() -> bool:
        return recorded[0] + 1 == target

    real_write, real_replace = os.write, os.replace
    real_fsync_folder = files._fsync_folder

    def write(fd: int, data: bytes) -> int:
        if point == "append-half" and armed() and data.startswith(b"\n[[journal]]"):
            real_write(fd, data[: len(data) // 2])
            os.fsync(fd)
            die()
        return real_write(fd, data)

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if armed():
            if point == "before-replace" and not str(dst).endswith(".bak"):
                die()
            if point == "before-backup" and str(src).endswith(".bak.tmp"):
                die()
        return real_replace(src, dst, *args, **kwargs)

    def fsync_folder(folder: Path) -> None:
        if point == "after-replace" and armed():
            die()
        real_fsync_folder(folder)

    os.write = write  # type: ignore[assignment]
    os.replace = replace  # type: ignore[assignment]
    files._fsync_folder = fsync_folder  # type: ignore[assignment]
    return recorded


def main(argv: list[str]) -> int:
    lockstep = "--lockstep" in argv
    argv = [arg for arg in argv if arg != "--lockstep"]
    path, seed = Path(argv[0]), int(argv[1])
    count = int(argv[2]) if len(argv) > 2 else 200
    crash = os.environ.get("CDB_CRASH")
    recorded = _arm(crash) if crash else [0]
    save_file = funnel.SaveFile.open(path)
    out = sys.stdout

    def acknowledge(number: int, session: Session) -> None:
        nonlocal lockstep
        out.write(f"ACK {number} {len(session.lines)} {fingerprint(session)}\n")
        out.flush()
        if lockstep and not sys.stdin.readline():
            lockstep = False  # stdin closed: play on freely

    acknowledge(0, save_file.session)
    for number, (outcome, session) in enumerate(script(save_file.session, seed, count), 1):
        save_file.record(outcome)
        recorded[0] = number
        acknowledge(number, session)
    save_file.close()
    out.write("DONE\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
