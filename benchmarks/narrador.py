"""Storyteller benchmark: median and p95 of each kind of command at 10, 50 and 200
combatants with a 1,000-command history (issue 14: each under 1 ms p95 at 200).

Each sample runs one command line through `Session.execute` (parse + rules +
history) on the same state, then undoes it.  The history: the combatants added and
armed, a first turn played through (initiatives, declarations, actions), then the
second turn's initiatives and declarations up to 1,000 lines; the samples are taken
in its declaration phase and, further on, in its action phase.

Run: .venv/bin/python benchmarks/narrador.py [--samples N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from cdbtui.engine.commands import quote  # noqa: E402
from cdbtui.engine.narrador.now import TURNS  # noqa: E402
from cdbtui.engine.session import Session  # noqa: E402

HISTORY = 1000


def name(i: int) -> str:
    return f"C{i:03d}"


def declare_all(session: Session) -> None:
    while session.fight.narr.phase == "declare":
        who = session.fight.narr.declarer
        i = int(who[1:])
        line = f"declara {who} disparo esquiva" if i % 2 else f"declara {who} golpe"
        session.execute(line)


def initiatives(session: Session, count: int) -> None:
    for i in range(count):
        session.execute(f"iniciativa {name(i)} {5 + i % 20}")
    session.execute("siguiente")


def build(count: int) -> tuple[Session, Session]:
    """Two sessions of the same fight with at least HISTORY lines: one in a turn's
    declaration phase (half have declared), one in that turn's action phase."""
    session = Session.new("Banco", "narrador", seed=1)
    for i in range(count):
        side = "pj" if i % 4 == 0 else "pnj"
        session.execute(f"alta {name(i)} des={2 + i % 3} ast={1 + i % 3} fue=3 res=2 fv=3 bando={side}"
                        " rasgos=pelea:2,esquivar:2,armas-de-fuego:2")
        if i % 2:
            session.execute(f"arma {name(i)} rifle-de-asalto")
    while len(session.lines) + count // 2 + 1 + count < HISTORY:  # whole turns
        initiatives(session, count)
        declare_all(session)
        while session.fight.narr.phase == "act":
            session.execute("siguiente")
    initiatives(session, count)
    for _ in range(count // 2):
        who = session.fight.narr.declarer
        session.execute(f"declara {who} golpe")
    declaring = Session.resume(session.base, list(session.lines), session.fight, [])
    declare_all(session)
    return declaring, session


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    print(f"history: ≥ {HISTORY} commands; samples: {args.samples}; times in ms (median, p95)")
    print(f"{'combatants':>10} {'operation':<30} {'median':>8} {'p95':>8}")
    for count in (10, 50, 200):
        declaring, acting = build(count)
        rows = {}
        rows["declare (declara)"] = sample(declaring, lambda s: f"declara {s.fight.narr.declarer} golpe", args.samples)
        rows["pass a declarer (siguiente)"] = sample(declaring, lambda s: "siguiente", args.samples)

        def target(s: Session) -> str:
            return quote(next(n for n in s.fight.narr.order if n != s.fight.actor))

        rows["attack (actua a X exitos=2)"] = sample(
            acting, lambda s: f"{quote(s.fight.actor)} actua a {target(s)} exitos=2", args.samples)
        rows["end a go (fin)"] = sample(acting, lambda s: f"{quote(s.fight.actor)} fin", args.samples)
        rows["damage (dano)"] = sample(acting, lambda s: f"dano {target(s)} 1 letal", args.samples)
        rows["condition (estado)"] = sample(acting, lambda s: f"estado {target(s)} +cegado", args.samples)
        rows["end the turn (turno)"] = sample(acting, lambda s: "turno", args.samples)
        # A new turn renews no sheet: each is renewed when first read in the turn
        # (engine.turnstamp); the first initiative of the turn, nothing renewed yet.
        acting.execute("turno")
        rows["first command of a turn"] = sample(
            acting, lambda s: (TURNS._combatants.clear(), TURNS._fights.clear(),
                               f"iniciativa {quote(s.fight.combatants[0].name)} 7")[-1], args.samples)
        acting.undo()
        undo = []
        for _ in range(args.samples):
            acting.execute(f"{quote(acting.fight.actor)} fin")
            start = time.perf_counter()
            acting.undo()
            undo.append(time.perf_counter() - start)
        rows["undo"] = undo
        for label, times in rows.items():
            print(f"{count:>10} {label:<30} {stats(times)}")


if __name__ == "__main__":
    main()
