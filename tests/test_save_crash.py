"""Autosaves survive SIGKILL: a writer process plays 200 commands and is killed at
random points, during appends and during the rewrites (every `COMPACT_EVERY`
journal entries and on an undo below the snapshot).

After every kill the save must load, and hold the last acknowledged state or the
next one (the command being written when the process died), with a history that
replays to that same fight; only `.NAME.toml.*.tmp` leftovers may lie beside it,
and opening the save again clears them.

The writer is tests/_autosave_writer.py: its commands depend only on a seed and
the state, so the test plays the same script in-process first (`reference`) and
knows every state a crash may leave, and which commands rewrite the file whole.
"""

from __future__ import annotations

import os
import random
from collections import Counter
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import _autosave_writer as writer
import pytest
from fights import demo_lines, play

from cdbtui import files, funnel, store
from cdbtui.engine.session import Session

WRITER = Path(__file__).with_name("_autosave_writer.py")
COMMANDS = 200
#: Scripts (writer seeds) and the fight's own seed.
SEEDS = (101, 202, 303)
FIGHT_SEED = 7
SAVE = "pelea.toml"


def initial_session() -> Session:
    return play(*demo_lines(), seed=FIGHT_SEED)


@dataclass
class Reference:
    """The states of one script: `states[n]` after n commands, as (lines, fingerprint)."""

    seed: int
    states: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    #: Command numbers whose `record` rewrote the file whole.
    rewrites: list[int] = field(default_factory=list)
    #: Of those, the ones due to COMPACT_EVERY journal entries.
    full_journal: list[int] = field(default_factory=list)


def state_of(session: Session) -> tuple[tuple[str, ...], str]:
    return tuple(session.lines), writer.fingerprint(session)


def reference(seed: int, folder: Path) -> Reference:
    """Play the writer's script in-process with a real SaveFile, noting the rewrites."""
    path = folder / f"ref-{seed}.toml"
    funnel.SaveFile.create(path, initial_session())
    save_file = funnel.SaveFile.open(path)
    ref = Reference(seed, [state_of(save_file.session)])
    for number, (outcome, session) in enumerate(
        writer.script(save_file.session, seed, COMMANDS), 1
    ):
        journal = save_file.journal
        inode = path.stat().st_ino
        save_file.record(outcome)
        if path.stat().st_ino != inode:  # put in place by os.replace: a rewrite
            ref.rewrites.append(number)
            if journal >= funnel.COMPACT_EVERY:
                ref.full_journal.append(number)
        else:
            assert save_file.journal == journal + 1
        ref.states.append(state_of(session))
    save_file.close()
    assert store.load(path).lines == list(ref.states[-1][0])
    return ref


@pytest.fixture(scope="module")
def references(tmp_path_factory) -> dict[int, Reference]:
    folder = tmp_path_factory.mktemp("reference")
    return {seed: reference(seed, folder) for seed in SEEDS}


def test_the_scripts_exercise_every_kind_of_write(references):
    """The scripts are worth killing: appends, full-journal compactions, undo rewrites."""
    for ref in references.values():
        assert len(ref.states) == COMMANDS + 1
        assert ref.full_journal, "no compaction after COMPACT_EVERY entries"
        undo_rewrites = set(ref.rewrites) - set(ref.full_journal)
        assert undo_rewrites, "no rewrite on an undo below the snapshot"
        assert len(ref.rewrites) < COMMANDS // 2, "mostly appends, as in play"
        lines = [len(lines) for lines, _ in ref.states]
        assert max(lines) - lines[0] > 100
        assert any(b < a for a, b in zip(lines, lines[1:])), "no undo in the script"


# ---------------------------------------------------------------- the kills


@dataclass
class Kill:
    """One writer run and how it ends: `after` acknowledgements in lockstep, then
    `delay` seconds; or (after=None) `delay` seconds from the start, freely."""

    seed: int
    after: int | None
    delay: float
    crash: str | None = None  # CDB_CRASH: the writer kills itself

    @property
    def label(self) -> str:
        how = self.crash or (f"ack {self.after}" if self.after is not None else "timer")
        return f"seed {self.seed}, {how} + {self.delay * 1000:.1f} ms"


def new_save(folder: Path) -> Path:
    folder.mkdir()
    path = folder / SAVE
    funnel.SaveFile.create(path, initial_session())
    return path


def acknowledged_states(text: str) -> list[tuple[int, int, str]]:
    """(number, len(lines), fingerprint) of each acknowledgement."""
    rows = (line.split() for line in text.splitlines() if line.startswith("ACK "))
    return [(int(number), int(lines), fp) for _, number, lines, fp in rows]


class Forked:
    """The writer in a forked copy of this process, cdbtui already imported: a real
    process, killed for real, with the pipes and the calls of `subprocess.Popen` the
    test uses, without starting Python and importing everything again for each of
    the hundred runs (that was most of this file's time)."""

    def __init__(self, argv: list[str], crash: str | None, *, lockstep: bool) -> None:
        in_r, in_w = os.pipe() if lockstep else (os.open(os.devnull, os.O_RDONLY), None)
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: the writer, on fds 0, 1, 2
            code = 1
            try:
                os.dup2(in_r, 0)
                os.dup2(out_w, 1)
                os.dup2(err_w, 2)
                for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
                    if fd is not None and fd > 2:
                        os.close(fd)
                os.environ.pop("CDB_CRASH", None)
                if crash:
                    os.environ["CDB_CRASH"] = crash
                sys.stdin = open(0, "r", encoding="utf-8", closefd=False)
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
                code = writer.main(argv)
                sys.stdout.flush()
            except BaseException:  # noqa: BLE001 - the child reports and exits, always
                import traceback
                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(code)
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        self.pid = pid
        self.returncode: int | None = None
        self.stdin = os.fdopen(in_w, "wb", buffering=0) if in_w is not None else None
        self.stdout = os.fdopen(out_r, "rb", buffering=0)
        self.stderr = os.fdopen(err_r, "rb")

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def run_and_kill(kill: Kill, path: Path, ref: Reference) -> tuple[int, bool]:
    """Run the writer on `path` and kill it; returns (last acknowledgement, killed
    while running).  The acknowledged states are checked against the reference."""
    args = [str(path), str(kill.seed), str(COMMANDS)]
    if kill.after is not None:
        args.append("--lockstep")
    process = Forked(args, kill.crash, lockstep=kill.after is not None)
    assert process.stdout is not None and process.stderr is not None
    watchdog = threading.Timer(30, process.kill)  # a hung writer fails the test, not CI
    watchdog.start()
    seen: list[str] = []
    try:
        if kill.after is not None:
            assert process.stdin is not None
            for number in range(kill.after + 1):  # ACK 0 (open) … ACK after
                line = process.stdout.readline().decode()
                assert line.startswith(f"ACK {number} "), (kill.label, line)
                seen.append(line)
                if number < kill.after:
                    process.stdin.write(b"\n")  # go on to the next command
            process.stdin.write(b"\n")  # play one more command…
            if kill.delay:
                time.sleep(kill.delay)
            process.send_signal(signal.SIGKILL)  # …and die in the middle of it
            process.stdin.close()
        elif not kill.crash:
            time.sleep(kill.delay)
            process.send_signal(signal.SIGKILL)
        out = process.stdout.read()
        err = process.stderr.read()
        process.wait()
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
    text = "".join(seen) + out.decode()
    acks = acknowledged_states(text)
    expected = [(n, len(lines), fp) for n, (lines, fp) in enumerate(ref.states)]
    assert acks == expected[: len(acks)], (kill.label, text[-300:])
    killed = process.returncode == -signal.SIGKILL
    assert killed or process.returncode == 0, (kill.label, process.returncode, err.decode())
    if not killed:
        assert text.endswith("DONE\n")
    return (acks[-1][0] if acks else -1), killed


def check_after_kill(path: Path, ref: Reference, last: int, label: str) -> int:
    """The save after a kill; returns which state it holds (`last` or `last + 1`)."""
    folder = path.parent
    names = {p.name for p in folder.iterdir()}
    leftovers = {p.name for p in folder.glob(f".{path.name}.*.tmp")}
    assert names - leftovers <= {path.name, path.name + ".bak"}, (label, names)
    assert path.name in names, label

    loaded = store.read(path)
    session = loaded.session
    state = state_of(session)
    allowed = {ref.states[n]: n for n in (last, last + 1) if 0 <= n < len(ref.states)}
    assert state in allowed, (
        f"{label}: loaded {len(session.lines)} lines, acknowledged"
        f" {len(ref.states[max(last, 0)][0])} (ack {last})"
    )
    # The history replays from scratch to the very same fight.
    assert Session(session.base, list(session.lines)).fight == session.fight, label

    # The previous version, when there is one, is a whole earlier state too.
    backup = files.backup_path(path)
    if backup.exists():
        old = state_of(store.load(backup))
        assert old in ref.states[: allowed[state] + 1], label

    # Opening the save again and cleaning up leaves only the save (and its .bak).
    save_file = funnel.SaveFile.open(path)
    assert state_of(save_file.session) == state
    save_file.cleanup_leftovers()
    assert {p.name for p in folder.iterdir()} <= {path.name, path.name + ".bak"}, label
    assert state_of(store.load(path)) == state, label
    return allowed[state]


def kill_plan(references: dict[int, Reference]) -> list[Kill]:
    rng = random.Random(20240611)
    plan: list[Kill] = []
    for ref in references.values():
        # Into every rewrite: in lockstep, released just before it, killed soon after.
        for number in ref.rewrites:
            for delay in (0.0003, 0.0008, 0.002):
                plan.append(Kill(ref.seed, number - 1, delay * rng.uniform(0.5, 1.5)))
        # Into appends all over the 200 commands (one in each sixth), and into the
        # rewrite of `close()` after the last one.
        for low in range(0, COMMANDS, COMMANDS // 6 + 1):
            number = rng.randrange(low, min(low + COMMANDS // 6 + 1, COMMANDS))
            plan.append(Kill(ref.seed, number, rng.uniform(0, 0.002)))
        plan.append(Kill(ref.seed, COMMANDS, rng.uniform(0, 0.002)))
        # Free-running, after a random time (also before the first command or after the last).
        for _ in range(3):
            plan.append(Kill(ref.seed, None, rng.uniform(0.05, 0.4)))
    return plan


def test_sigkill_at_random_points_leaves_a_loadable_save(references, tmp_path):
    plan = kill_plan(references)
    killed_runs = 0
    outcomes: Counter[str] = Counter()
    reached: dict[int, set[int]] = {seed: set() for seed in references}
    for index, kill in enumerate(plan):
        path = new_save(tmp_path / f"run{index:03d}")
        last, killed = run_and_kill(kill, path, references[kill.seed])
        leftovers = list(path.parent.glob(f".{SAVE}.*.tmp"))
        held = check_after_kill(path, references[kill.seed], last, kill.label)
        if killed:
            killed_runs += 1
            # The command released (lockstep) or being written (timer) when killed.
            reached[kill.seed].add(kill.after + 1 if kill.after is not None else last + 1)
            outcomes[("mid-write leftovers" if leftovers else
                      "next state" if held > last else "acknowledged state")] += 1
    print(f"{len(plan)} runs, {killed_runs} killed while running: {dict(outcomes)}")
    assert killed_runs >= 15, f"only {killed_runs} runs were killed while writing"
    # The kills reached commands all through the script, every rewrite included.
    for seed, ref in references.items():
        assert set(ref.rewrites) <= reached[seed]
        assert min(reached[seed]) <= 40 and max(reached[seed]) >= COMMANDS - 40


def test_acknowledged_states_are_the_reference_ones(references, tmp_path):
    """The writer left alone plays exactly the reference script (the test's premise)."""
    ref = references[SEEDS[0]]
    path = new_save(tmp_path / "whole")
    result = subprocess.run(
        [sys.executable, str(WRITER), str(path), str(ref.seed), str(COMMANDS)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    acks = acknowledged_states(result.stdout)
    assert acks == [(n, len(lines), fp) for n, (lines, fp) in enumerate(ref.states)]
    assert state_of(store.load(path)) == ref.states[-1]
    assert store.read(path).journal == 0  # closed: compacted


# ---------------------------------------------------------------- crashes inside a write


def crash_plan(ref: Reference) -> list[tuple[str, int, int]]:
    """(point, command number, state expected after the crash)."""
    appends = [n for n in range(1, COMMANDS + 1) if n not in ref.rewrites]
    undo_rewrite = next(n for n in ref.rewrites if n not in ref.full_journal)
    full = ref.full_journal[0]
    plan = [("append-half", n, n - 1) for n in (appends[0], appends[len(appends) // 2], appends[-1])]
    for number in (undo_rewrite, full):
        plan += [
            ("before-replace", number, number - 1),
            ("before-backup", number, number - 1),
            ("after-replace", number, number),
        ]
    return plan


def test_crashes_inside_a_write_leave_the_old_or_the_new_state(references, tmp_path):
    ref = references[SEEDS[1]]
    for index, (point, number, expected) in enumerate(crash_plan(ref)):
        kill = Kill(ref.seed, None, 0.0, crash=f"{number}:{point}")
        path = new_save(tmp_path / f"crash{index:02d}")
        last, killed = run_and_kill(kill, path, references[kill.seed])
        assert killed and last == number - 1, kill.label
        if point == "append-half":
            assert store.read(path).torn, kill.label
        if point in ("before-replace", "before-backup"):
            assert list(path.parent.glob(f".{SAVE}.*.tmp")), f"{kill.label}: no leftover"
        held = check_after_kill(path, ref, last, kill.label)
        assert held == expected, kill.label


def test_a_torn_append_is_dropped_and_the_next_command_rewrites_the_file(references, tmp_path):
    """After a torn journal entry, playing on must not append after the torn bytes."""
    ref = references[SEEDS[2]]
    number = next(n for n in range(10, COMMANDS) if n not in ref.rewrites)
    path = new_save(tmp_path / "torn")
    run_and_kill(Kill(ref.seed, None, 0.0, crash=f"{number}:append-half"), path, ref)
    save_file = funnel.SaveFile.open(path)
    assert state_of(save_file.session) == ref.states[number - 1]
    save_file.record(save_file.session.execute("dano Mike 1"))
    loaded = store.read(path)
    assert not loaded.torn and loaded.journal == 0
    assert list(loaded.session.lines) == [*ref.states[number - 1][0], "dano Mike 1"]
