"""C-System benchmark: median and p95 of every kind of command at 10, 50 and 200
combatants with a 1,000-command history (issue 13: each under 1 ms p95 at 200).

Each sample runs one command line through `Session.execute` (parse + rules +
history, the path of the TUI and `cdbtui do`) on the same state, then undoes it.
"new turn" is the last go's action, which ends the turn and starts the next one.

Run: .venv/bin/python benchmarks/csystem.py [--samples N] [--profile NAME]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from cdbtui.engine.commands import quote  # noqa: E402
from cdbtui.engine.csystem.common import TURNS  # noqa: E402
from cdbtui.engine.csystem.common import sheet  # noqa: E402
from cdbtui.engine.session import Session  # noqa: E402

HISTORY = 1000


def build(count: int) -> Session:
    """`count` combatants (NH 1–12, half with a rifle), a history of HISTORY lines."""
    session = Session.new("Banco", "csystem", seed=1)
    for i in range(count):
        side = "pj" if i % 4 == 0 else "pnj"
        session.execute(f"alta C{i:03d} nh={1 + i % 12} des={1 + i % 7} ale={i % 5} per=8 con=6 rd=2 bando={side}")
        if i % 2:
            session.execute(f"arma C{i:03d} rifle modos=sa,fa cargador=300 dano=2d6")
    for i in range(count):
        session.execute(f"iniciativa C{i:03d} {5 + i % 25}")
    session.execute("empezar")
    while len(session.lines) < HISTORY:
        actor = session.fight.actor
        if actor is None:
            session.execute("turno")
            continue
        session.execute(f"{quote(actor)} simple")
    return session


def at_fresh_go(session: Session) -> None:
    """Leave the session at the start of a go of a combatant with a rifle."""
    while True:
        actor = session.fight.actor
        s = sheet(session.fight.find(actor))
        if not s.used and s.weapons and s.level < 9:
            return
        session.execute(f"{quote(actor)} fin")


def at_last_go(session: Session) -> Session:
    """A copy of the session at the start of the turn's last go."""
    copy = Session(session.fight)
    while True:
        fight = copy.fight
        waiting = [n for n in fight.cs.order if not sheet(fight.find(n)).acted]
        if len(waiting) == 1:
            return copy
        copy.execute(f"{quote(fight.actor)} fin")


def sample(session: Session, make_line, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        line = make_line(session)
        start = time.perf_counter()
        session.execute(line)
        times.append(time.perf_counter() - start)
        session.undo()
    return times


def stats(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{statistics.median(ordered) * 1000:8.3f} {p95 * 1000:8.3f}"


def lines(session: Session) -> dict:
    def actor(s: Session) -> str:
        return quote(s.fight.actor)

    def other(s: Session) -> str:
        return quote(next(n for n in s.fight.cs.order if n != s.fight.actor))

    return {
        "simple action": lambda s: f"{actor(s)} simple",
        "maneuver (apuntar)": lambda s: f"{actor(s)} apuntar",
        "attack (ataca tirada dano)": lambda s: f"{actor(s)} ataca {other(s)} tirada=25 dano=9",
        "burst (rafaga-corta)": lambda s: f"{actor(s)} rafaga-corta a {other(s)} tirada=25 dano=6+4",
        "end of go (fin)": lambda s: f"{actor(s)} fin",
        "lower (retrasa final)": lambda s: f"{actor(s)} retrasa final",
        "condition (ensordecido)": lambda s: f"estado {other(s)} +ensordecido",
        "damage (dano)": lambda s: f"dano {other(s)} 5",
        "initiative change": lambda s: f"iniciativa {other(s)} 3",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--profile", default=None, help="profile one operation at 200 (its name)")
    args = parser.parse_args()
    print(f"history: {HISTORY} commands; samples: {args.samples}; times in ms (median, p95)")
    print(f"{'combatants':>10} {'operation':<28} {'median':>8} {'p95':>8}")
    for count in (10, 50, 200):
        session = build(count)
        at_fresh_go(session)
        rows = {name: sample(session, make, args.samples) for name, make in lines(session).items()}
        last = at_last_go(session)
        rows["new turn (last go ends)"] = sample(last, lambda s: f"{quote(s.fight.actor)} fin", args.samples)
        # A new turn renews no sheet: each is renewed when first read in the turn
        # (engine.turnstamp).  The first command of a turn that re-places someone
        # reads the order: timed with nothing renewed yet (the memo emptied).
        fresh = at_last_go(session)
        fresh.execute(f"{quote(fresh.fight.actor)} fin")
        rows["first command of a turn"] = sample(
            fresh, lambda s: (TURNS._combatants.clear(), TURNS._fights.clear(),
                              f"iniciativa {quote(s.fight.cs.order[-1])} 3")[-1], args.samples)
        undo = []
        for _ in range(args.samples):
            session.execute(f"{quote(session.fight.actor)} simple")
            start = time.perf_counter()
            session.undo()
            undo.append(time.perf_counter() - start)
        rows["undo"] = undo
        for name, times in rows.items():
            print(f"{count:>10} {name:<28} {stats(times)}")
        if args.profile and count == 200:
            make = lines(session).get(args.profile) or (lambda s: f"{quote(s.fight.actor)} fin")
            target = session if args.profile in lines(session) else last
            profiler = cProfile.Profile()
            for _ in range(100):
                line = make(target)
                profiler.enable()
                target.execute(line)
                profiler.disable()
                target.undo()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
