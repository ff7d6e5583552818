"""Storage benchmark: autosave, load, file size and player-view lag of a save.

For each number of combatants (10, 50, 200) and each history length (1,000 and
10,000 commands) a fight is built like benchmarks/engine.py does (sign-ups, moments,
`empezar`, then spends / `siguiente` / `turno` until the history is that long),
written with `store.save` to a real file in a temporary folder and dropped (so the
process holds what a DJ who reopens the save holds, not 10,000 cached states), and:

* autosave: the file is opened with `SaveFile.open`, as the TUI does, and
  `--samples` consecutive commands (default 300; the same spends / siguiente / turno)
  go down the path a DJ's keypress takes: `outcome = save_file.session.execute(line)`
  is not timed, `save_file.record(outcome)` is (append one journal entry + fsync,
  or, every `COMPACT_EVERY` = 100 entries, rewrite the file whole).  The compactions
  that fall in the run are part of the distribution; the max and how many there were
  are printed too, and "append only" leaves them out;
* compaction: `save_file.compact()` timed on its own, each time after one more
  (untimed) command, so it re-serializes what that command changed;
* load: `store.read(path)` of a compacted save, and of a save with 100 journal
  entries pending (they are replayed on top of the snapshot);
* size: the file in KB (1,024 bytes), compacted and with 100 entries pending;
* player view: a `follow.Follower` follows the file; after each `record` its
  `poll()` is timed (the work the player view does before repainting: an appended
  entry is read and replayed on its own; after a compaction the file was replaced,
  so that poll is a full read).  For comparison, "full re-read" times a fresh
  `Follower(path).poll()` (what a view that re-read the whole file would pay) at
  points spread over the run.  The lag a player sees is at most the view's poll
  interval plus the poll: the line "lag" adds the two (p95 and worst case).

The fsyncs are real: run it on the disk the saves live on (`--dir`) to see that
disk's numbers; by default the system's temporary folder is used.  Load, compaction
and full re-read take max(5, samples // 30) samples each.  Building the 10,000-
command fights is slow (~8 s at 200 combatants) and not timed.

Goals (printed beside the results): autosave p95 under 10 ms at 200 combatants
and 1,000 commands; player-view lag under 500 ms.

Long histories (`--long`, default 20,000 and 100,000 commands): a campaign
evening's fight, 6 combatants played turn after turn (spends, attacks at a target,
reactions, `siguiente`, `turno`, damage and healing, now and then a `deshacer`),
saved with `store.save`.  Each measure runs in a fresh subprocess, so that its peak
resident memory (VmHWM, the whole process: interpreter and imports included)
is its own; the peak of Python's allocations (tracemalloc, in a separate untimed
run) is printed too:

* load: `store.read(path)`;
* undo after load: the first `deshacer` of a loaded session (only the current
  state is known: the history is replayed once, and checked against it);
* load + undo: both, as a DJ who reopens the save and undoes pays them;
* poll after a command / after an undo: a `follow.Follower` that has read the save
  polls after one journal entry was appended (an undo makes it replay too).

Goal: 20,000 commands load and undo in under 1 s and 200 MB; 100,000 in under
5 s and 500 MB.  Building the 100,000-command fight is slow (~1 min) and not timed.

Run: .venv/bin/python benchmarks/storage.py [--samples N] [--sizes 10,50,200]
     [--histories 1000,10000] [--quick] [--dir FOLDER]
     [--long 20000,100000 | --long none] [--only-long] [--long-samples N]
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from cdbtui import files, follow, funnel, store  # noqa: E402
from cdbtui.engine.commands import quote  # noqa: E402
from cdbtui.engine.parser import parse  # noqa: E402
from cdbtui.engine.rules import queue  # noqa: E402
from cdbtui.engine.session import DO, UNDO, Outcome, Session  # noqa: E402

#: The player view's poll interval (cdbtui.tui.player.POLL_SECONDS), in seconds.
POLL_SECONDS = 0.1  # keep equal to cdbtui.tui.player.POLL_SECONDS (no Textual import here)
AUTOSAVE_GOAL_MS = 10.0
LAG_GOAL_MS = 500.0
#: Entries pending in the "load with journal" file (a compaction's worth).
PENDING = 100


def next_line(session: Session) -> str:
    """The next command of the benchmark fight (the loop of engine.py's `build`)."""
    fight = session.fight
    if fight.turn_over:
        return "turno"
    head = queue(fight)
    if head:
        return f"{quote(head[0].name)} gasta {1 + len(session.lines) % 3}"
    return "siguiente"


def build(count: int, history: int) -> Session:
    """A fight of `count` combatants with a history of exactly `history` commands."""
    session = Session.new("Banco", "cdb", seed=1)
    for i in range(count):
        session.execute(f"alta C{i:03d} ac={5 + i % 4} agi={i % 5} ate={i % 3}"
                        f" bando={'pj' if i % 4 == 0 else 'pnj'}")
    for i in range(count):
        session.execute(f"momento C{i:03d} {4 + i % 12}")
    session.execute("empezar")
    while len(session.lines) < history:
        session.execute(next_line(session))
    return session


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def measure(count: int, history: int, samples: int, folder: Path) -> dict:
    """Every number of one (combatants, history) cell; times in seconds."""
    few = max(5, samples // 30)
    session = build(count, history)
    path = folder / f"banco-{count}-{history}.toml"
    store.save(path, session)
    # Only the file goes on: the DJ reopens it below (a resumed session keeps just the
    # current state), and the built one's cached states would otherwise slow every
    # garbage collection of the reads, which the player view does in its own process.
    del session
    gc.collect()
    result: dict = {"size": path.stat().st_size}
    result["load"] = [timed(lambda: store.read(path)) for _ in range(few)]

    save_file = funnel.SaveFile.open(path)
    follower = follow.Follower(path)
    follower.poll()
    record: list[float] = []
    append: list[float] = []
    in_run: list[float] = []
    poll: list[float] = []
    full: list[float] = []
    every = max(1, samples // few)
    for number in range(samples):
        outcome = save_file.session.execute(next_line(save_file.session))
        spent = timed(lambda: save_file.record(outcome))
        record.append(spent)
        (in_run if save_file.journal == 0 else append).append(spent)
        poll.append(timed(follower.poll))
        if number % every == every - 1:
            full.append(timed(lambda: follow.Follower(path).poll()))
    result.update(record=record, append=append, compactions=in_run, poll=poll, full=full)
    result["in_sync"] = (follower.session is not None
                         and follower.session.fight == save_file.session.fight)

    compact = []
    for _ in range(few):
        save_file.session.execute(next_line(save_file.session))
        compact.append(timed(save_file.compact))
    result["compact"] = compact

    for _ in range(PENDING):
        save_file.record(save_file.session.execute(next_line(save_file.session)))
    pending = folder / f"pendiente-{count}-{history}.toml"
    shutil.copyfile(path, pending)
    loaded = store.read(pending)
    result["pending_entries"] = loaded.journal
    result["pending_size"] = pending.stat().st_size
    result["load_pending"] = [timed(lambda: store.read(pending)) for _ in range(few)]
    for leftover in (path, pending, files.backup_path(path)):
        leftover.unlink(missing_ok=True)
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


def row(count: int, history: int, name: str, times: list[float] | None,
        note: str = "", *, worst: bool = False) -> None:
    if times:
        cells = f"{ms(statistics.median(times))} {ms(percentile(times, 0.95))}"
        cells += f" {ms(max(times))}" if worst else f" {'':>9}"
    else:
        cells = f"{'—':>9} {'—':>9} {'':>9}"
    print(f"{count:>4} {history:>7,} {name:<24} {cells}  {note}".rstrip())


def report(count: int, history: int, r: dict, samples: int) -> None:
    record, poll = r["record"], r["poll"]
    goal = ""
    if count == 200 and history == 1000:
        p95 = percentile(record, 0.95) * 1000
        goal = (f"goal p95 < {AUTOSAVE_GOAL_MS:.0f} ms: "
                f"{'met' if p95 < AUTOSAVE_GOAL_MS else 'NOT met'}")
    compactions = len(r["compactions"])
    row(count, history, "autosave (record)", record,
        f"{samples} commands, {compactions} compaction(s) among them; {goal}".rstrip("; "), worst=True)
    row(count, history, "  append only", r["append"], "one journal entry + fsync", worst=True)
    row(count, history, "  compactions in run", r["compactions"], "", worst=True)
    row(count, history, "compaction (alone)", r["compact"], "save_file.compact()", worst=True)
    row(count, history, "load compacted", r["load"], "store.read", worst=True)
    row(count, history, f"load +{r['pending_entries']} journal", r["load_pending"],
        "store.read, entries replayed", worst=True)
    row(count, history, "player poll", poll,
        "Follower.poll() after each record" + ("" if r["in_sync"] else "; OUT OF SYNC"),
        worst=True)
    row(count, history, "  full re-read", r["full"], "fresh Follower(path).poll()", worst=True)
    interval = POLL_SECONDS * 1000
    lag = [interval + seconds * 1000 for seconds in poll]
    worst = max(lag)
    print(f"{count:>4} {history:>7,} {'player lag (at most)':<24} {statistics.median(lag):9.2f}"
          f" {percentile(lag, 0.95):9.2f} {worst:9.2f}  poll interval {interval:.0f} ms + poll;"
          f" goal < {LAG_GOAL_MS:.0f} ms: {'met' if worst < LAG_GOAL_MS else 'NOT met'}")
    print(f"{count:>4} {history:>7,} {'size (KB)':<24} {r['size'] / 1024:9.1f}"
          f" {r['pending_size'] / 1024:9.1f} {'':>9}  compacted / +{r['pending_entries']} journal")


# ---------------------------------------------------------------- long histories

#: The campaign fight: three PJ against three PNJ.
CAMPAIGN = ["Mike", "Sven", "Ana", "Soldado 1", "Soldado 2", "Soldado 3"]
#: (commands, seconds, MB): load + undo must stay under both.
LONG_GOALS = {20_000: (1.0, 200.0), 100_000: (5.0, 500.0)}


def campaign_line(session: Session) -> str:
    """The next command of the campaign fight: whoever the countdown reaches acts."""
    fight = session.fight
    n = len(session.lines)
    head = queue(fight)
    if fight.turn_over or (not head and fight.moment is not None and fight.moment <= 0):
        return "turno"  # nobody left to act (a maneuver carried below 0 waits for the turn)
    if not head:
        return "siguiente"
    actor = head[0]
    name = quote(actor.name)
    foes = [c for c in fight.combatants if c.side != actor.side]
    target = quote(foes[n % len(foes)].name)
    pick = n % 7
    if pick == 0:
        return f"{name} atacar-con-armas-de-1-mano a {target}"
    if pick == 1:
        return f"{name} esquivar"
    if pick == 2:
        return f"{name} punetazo a {target}"
    if pick == 3 and n % 21 == 3:
        return f"dano {target} 1"
    # First aid mid-turn: once per patient and fight, Rasguños and Heridas only (§6).
    hurt = [c for c in fight.combatants
            if c.wounds.count > 1 and not c.first_aid and (c.wounds.category or 0) <= 1]
    if pick == 4 and hurt:
        return f"curar {quote(hurt[0].name)} 1"
    if pick == 5 and n % 35 == 5:
        return "siguiente"
    return f"{name} gasta {1 + n % 3}"


def build_campaign(history: int) -> Session:
    """The campaign fight with a history of exactly `history` commands; one command
    in 50 is undone and the evening goes on (sometimes with another command)."""
    session = Session.new("Campaña", "cdb", seed=1)
    # Without the book's melee fatigue (RULES.md §6), a long evening of punches would
    # put everyone out: the campaign stays the fight it measured before.
    session.execute("fatiga-cc no")
    for i, name in enumerate(CAMPAIGN):
        session.execute(f"alta {quote(name)} ac={5 + i % 4} agi={i % 5} ate={i % 3}"
                        f" hab={3 + i % 3} bando={'pj' if i < 3 else 'pnj'}")
    for i, name in enumerate(CAMPAIGN):
        session.execute(f"momento {quote(name)} {4 + i * 2 % 12}")
    session.execute("empezar")
    played = 0
    while len(session.lines) < history:
        played += 1
        if played % 50 == 0:
            session.execute("deshacer")
        session.execute(campaign_line(session))
    return session


def _peak_rss_mb() -> float:
    """This process's peak resident memory.  VmHWM is that of the process image since
    exec; ru_maxrss would also count the parent's memory at the fork."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def _append(path: Path, outcome: Outcome) -> None:
    with open(path, "a", encoding="utf-8") as file:
        file.write(store.journal_entry(outcome))


def _fresh_copy(path: Path, number: int) -> Path:
    copy = path.with_name(f"{path.stem}-copia{number}.toml")
    shutil.copyfile(path, copy)
    return copy


def child(task: str, path: Path, samples: int) -> dict:
    """One measure of a long history, in a process of its own (see `long_cell`)."""
    gc.collect()
    result: dict = {"rss_start": _peak_rss_mb()}
    if task == "load":
        times = []
        for _ in range(samples):
            times.append(timed(lambda: store.read(path)))
            gc.collect()
        result["times"] = {"load": times}
        result["rss"] = _peak_rss_mb()
        tracemalloc.start()
        store.read(path)
        result["traced"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    elif task == "undo":
        undo, both = [], []
        for _ in range(samples):
            start = time.perf_counter()
            session = store.read(path).session
            middle = time.perf_counter()
            session.undo()
            end = time.perf_counter()
            undo.append(end - middle)
            both.append(end - start)
            del session
            gc.collect()
        result["times"] = {"undo": undo, "load+undo": both}
        result["rss"] = _peak_rss_mb()
        tracemalloc.start()
        store.read(path).session.undo()
        result["traced"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    elif task == "poll":
        after_do, after_undo = [], []
        for number in range(samples):
            copy = _fresh_copy(path, number)
            follower = follow.Follower(copy)
            follower.poll()  # the full read when the view opens: not timed
            fight = follower.session.fight
            line = parse(campaign_line(follower.session), fight).line()
            _append(copy, Outcome(fight, line, DO, line))
            after_do.append(timed(follower.poll))
            _append(copy, Outcome(fight, "", UNDO))
            _append(copy, Outcome(fight, "", UNDO))  # below the loaded state: a replay
            after_undo.append(timed(follower.poll))
            del follower
            copy.unlink()
            gc.collect()
        result["times"] = {"poll do": after_do, "poll undo": after_undo}
        result["rss"] = _peak_rss_mb()
        copy = _fresh_copy(path, samples)
        tracemalloc.start()
        follower = follow.Follower(copy)
        follower.poll()
        _append(copy, Outcome(follower.session.fight, "", UNDO))
        follower.poll()
        result["traced"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        copy.unlink()
    else:
        raise SystemExit(f"unknown task {task}")
    return result


def run_child(task: str, path: Path, samples: int, timeout: float) -> dict:
    command = [sys.executable, __file__, "--child", task, str(path), str(samples)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"more than {timeout:.0f} s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:80]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def long_cell(history: int, samples: int, folder: Path, timeout: float) -> None:
    began = time.perf_counter()
    session = build_campaign(history)
    path = folder / f"campana-{history}.toml"
    store.save(path, session)
    entries = len(session.fight.log)
    del session
    gc.collect()
    built = time.perf_counter() - began
    size = path.stat().st_size / 2**20
    print(f"{history:>7,} commands: {entries:,} log entries, save {size:.1f} MB,"
          f" built in {built:.0f} s (not timed)")
    seconds, megabytes = LONG_GOALS.get(history, (None, None))
    for task in ("load", "undo", "poll"):
        result = run_child(task, path, samples, timeout)
        if "error" in result:
            print(f"{history:>7,} {task:<20} failed: {result['error']}")
            continue
        memory = f"peak RSS {result['rss']:7.1f} MB, traced {result['traced']:7.1f} MB"
        for name, times in result["times"].items():
            note = memory if name == next(iter(result["times"])) else ""
            if name == "load+undo" and seconds is not None:
                met = statistics.median(times) < seconds and result["rss"] < megabytes
                note = (f"{memory}; goal < {seconds:.0f} s and {megabytes:.0f} MB:"
                        f" {'met' if met else 'NOT met'}")
            print(f"{history:>7,} {name:<20} {ms(statistics.median(times))}"
                  f" {ms(percentile(times, 0.95))} {ms(max(times))}  {note}")
        sys.stdout.flush()


def numbers(text: str) -> list[int]:
    if text.strip().lower() in ("", "none", "no"):
        return []
    return [int(part.replace("_", "")) for part in text.split(",") if part.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=300,
                        help="consecutive autosaved commands per cell (default 300)")
    parser.add_argument("--sizes", type=numbers, default=None,
                        help="numbers of combatants (default 10,50,200)")
    parser.add_argument("--histories", type=numbers, default=None,
                        help="commands of history (default 1000,10000)")
    parser.add_argument("--quick", action="store_true",
                        help="10 and 50 combatants, 1,000 commands only")
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder for the test saves (default: a temporary folder)")
    parser.add_argument("--long", type=numbers, default=None,
                        help="long histories, in commands (default 20000,100000; none)")
    parser.add_argument("--only-long", action="store_true",
                        help="only the long histories")
    parser.add_argument("--long-samples", type=int, default=5,
                        help="samples per long-history measure (default 5)")
    parser.add_argument("--long-timeout", type=float, default=900,
                        help="seconds before a long-history measure is given up")
    parser.add_argument("--child", nargs=3, metavar=("TASK", "PATH", "SAMPLES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        task, path, count = args.child
        print(json.dumps(child(task, Path(path), int(count))))
        return
    sizes = args.sizes or ([10, 50] if args.quick else [10, 50, 200])
    histories = args.histories or ([1000] if args.quick else [1000, 10000])
    samples = max(1, args.samples)

    began = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="cdbtui-bench-") as tmp:
        folder = Path(tmp)
        print(f"saves in {folder}; autosave samples: {samples} per cell;"
              f" COMPACT_EVERY = {funnel.COMPACT_EVERY}; times in ms")
        if not args.only_long:
            print(f"{'comb':>4} {'history':>7} {'measure':<24} {'median':>9} {'p95':>9} {'max':>9}")
            for history in histories:
                for count in sizes:
                    report(count, history, measure(count, history, samples, folder), samples)
                    sys.stdout.flush()
        long = args.long if args.long is not None else ([] if args.quick else [20_000, 100_000])
        if long:
            print(f"long histories, 6 combatants; {args.long_samples} samples each, times in ms")
            print(f"{'history':>7} {'measure':<20} {'median':>9} {'p95':>9} {'max':>9}")
            for history in long:
                long_cell(history, max(1, args.long_samples), folder, args.long_timeout)
    print(f"total {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
