"""The countdown's machinery that every command shares (RULES.md §2–§3).

Owns looking a combatant up (`get_combatant`) and the guards every command starts with, the
seeded die (`roll_die`: a pure function of the fight's seed and its count of rolls),
placing a combatant at its start moment (`place`, mid-fight too), entering a moment
(`enter_moment`: holders follow, waiters pay 1 AC a moment; the log of ties), and
`settle`, run after each command: it completes carried maneuvers at the head of the
queue and moves the count past empty moments (with Iniciativa Rápida, hands the go
to the next combatant).  Imports `queries` and `spending`, no command module.

Public, for what players see (players.py shows the countdown as the engine would
move it, never with a copy of these rules): `follow_countdown` (entering a moment,
unlogged), `next_moment` (where the count goes next) and `next_go` (Iniciativa
Rápida: who has the next go).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

from .errors import Refusal
from .model import (
    UNDERIVED,
    Combatant,
    Fight,
    Log,
    LogKind,
    Status,
    Window,
    evolve,
    ridden,
    roster_fact,
)
from .queries import order_key, queue, tie_reason
from .spending import complete_carried


def get_combatant(fight: Fight, name: str) -> Combatant:
    combatant = fight.find(name)
    if combatant is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return combatant


def require_started(fight: Fight) -> None:
    if not fight.started:
        raise Refusal("El combate no ha empezado: usa «empezar» cuando todos tengan momento inicial")


def roll_die(fight: Fight) -> tuple[Fight, int]:
    die = random.Random(f"{fight.seed}:{fight.rolls}").randint(1, 6)
    return evolve(fight, rolls=fight.rolls + 1), die


def note_ties(fight: Fight) -> Fight:
    """Log which key decided each tie in the queue at the current moment."""
    line = queue(fight)
    if len(line) < 2:
        return fight
    reasons = [
        f"{a.name} antes que {b.name} ({tie_reason(a, b)})"
        for a, b in zip(line, line[1:])
        if not (b.status is Status.HOLDING)
    ]
    tied = [c.name for pair in pairwise(line) if pair[1].status is not Status.HOLDING for c in pair]
    # Each name once (the entry's mentions would be the same, one per combatant).
    return fight.note("Orden: " + "; ".join(reasons), kind=LogKind.ORDER,
                      about=dict.fromkeys(tied)) if reasons else fight


def follow_countdown(fight: Fight, moment: int) -> Fight:
    """The fight with the countdown at `moment` (from a higher one): holders follow,
    waiters pay 1 AC a moment (and are done when they run out).  Nothing is logged:
    `enter_moment` is this plus the log; the players' view (players.py) uses it to show the
    countdown at the moment players see."""
    previous = fight.moment if fight.moment is not None else moment
    passed = previous - moment
    changed = []
    for c in fight.combatants:
        if c.status is Status.HOLDING:
            if c.marker != moment or c.acting:  # (one already there is left as it is)
                changed.append(evolve(c, marker=moment, acting=False))
        elif c.status is Status.WAITING and passed > 0:
            paid = min(passed, c.ac)
            ac = c.ac - paid
            changed.append(evolve(
                c,
                ac=ac,
                marker=c.marker - paid,
                status=Status.WAITING if ac > 0 else Status.DONE,
                trigger=c.trigger if ac > 0 else None,
            ))
    return evolve(fight.replace(*changed), moment=moment)


def enter_moment(fight: Fight, moment: int) -> Fight:
    """Move the countdown to `moment`: holders follow, waiters pay 1 AC a moment."""
    waiting = [c for c in fight.combatants if c.status is Status.WAITING]
    fight = follow_countdown(fight, moment)
    for c in waiting:
        c = fight.find(c.name)
        if c.status is Status.DONE:
            fight = fight.note(f"{c.name} agota sus AC a la espera → momento {c.marker}",
                               kind=LogKind.ACTION, about=[c.name])
    return note_ties(fight)


def next_moment(fight: Fight) -> int | None:
    """The highest marker of anyone who fixes a moment (not holders or waiters, not
    mounts): where the countdown goes next."""
    return roster_fact(fight.combatants, "next_moment", _next_moment, _derive_next_moment)


def fixes_moment(c: Combatant, mounts: frozenset[str]) -> bool:
    """Whether `c`'s marker is a moment the count goes to (not a holder's or a
    waiter's, which follow it; not a mount's)."""
    return ((c.status is Status.READY or c.status is Status.ACTED) and c.marker is not None
            and not (mounts and c.key in mounts))


def _next_moment(combatants: tuple[Combatant, ...]) -> int | None:
    mounts = ridden(combatants)
    ready, acted = Status.READY, Status.ACTED
    markers = [  # `fixes_moment`, inlined
        c.marker for c in combatants
        if (c.status is ready or c.status is acted) and c.marker is not None
        and not (mounts and c.key in mounts)
    ]
    return max(markers) if markers else None


def _derive_next_moment(top, combatants, changes, positions):
    """`_next_moment` of a roster made by swapping `changes` in, from the old roster's
    `top`: unless one of those swapped out may have been the one at the top."""
    mounts = ridden(combatants)
    if top is not None and any(old.marker == top and fixes_moment(old, mounts) for _, old, _ in changes):
        return UNDERIVED
    markers = [new.marker for _, _, new in changes if fixes_moment(new, mounts)]
    if top is not None:
        markers.append(top)
    return max(markers) if markers else None


def window_base(fight: Fight) -> Fight:
    """The state a reaction or an interrupt answers (RULES.md §3 "The reaction
    window"): with a window open, the fight as it was at the window's moment, just
    before the automatic advance (and with no window of its own); else `fight`."""
    window = fight.window
    if window is None:
        return fight
    base = fight.replace(*window.before) if window.before else fight
    return evolve(base, moment=window.moment, clock=window.clock,
                  log=Log(fight.log).prefix(window.log), window=None)


def open_window(raw: Fight, settled: Fight) -> Fight:
    """`settled` (which is `settle(raw)`) with the window open at `raw`'s moment: what
    the advance changed is remembered as it was in `raw`."""
    assert raw.moment is not None
    before = tuple(c for c, now in zip(raw.combatants, settled.combatants) if c is not now)
    return evolve(settled, window=Window(raw.moment, raw.clock, len(raw.log), before))


def settle(fight: Fight) -> Fight:
    """Complete carried maneuvers at the head of the queue; advance past empty moments."""
    if fight.quick:
        return _settle_quick(fight)
    while fight.started and not fight.turn_over:
        line = queue(fight)
        if line:
            head = line[0]
            if head.carried is not None and head.status is Status.READY:
                fight = complete_carried(fight, head)
                continue
            return fight
        target = next_moment(fight)
        if target is None:
            return fight
        fight = enter_moment(fight, target)
    return fight


def _settle_quick(fight: Fight) -> Fight:
    """Iniciativa Rápida: the actor keeps its go until it ends it; then the next in
    start order (Agilidad, Atención, Habilidad, roster) who has not had one."""
    while fight.started:
        actor = fight.find(fight.actor) if fight.actor else None
        if actor is not None and actor.status in (Status.READY, Status.ACTED):
            if actor.carried is not None and actor.status is Status.READY:
                fight = complete_carried(fight, actor)
                continue
            return fight
        actor = next_go(fight)
        if actor is None:
            return evolve(fight, actor=None)
        fight = evolve(fight, actor=actor.name, moment=actor.start)
        fight = fight.note(f"Le toca a {actor.name} (iniciativa {actor.start}): gasta las AC que quiera",
                           kind=LogKind.TURN, about=[actor.name])
    return fight


def next_go(fight: Fight, among: Callable[[Combatant], bool] | None = None) -> Combatant | None:
    """Iniciativa Rápida: who has the next go, the highest start (then Agilidad,
    Atención, Habilidad, roster) of those who have not had one; a mount goes with
    its rider.  `among` narrows the choice (players.py: the visible ones)."""
    mounts = fight.mounts
    waiting = [
        ((-c.start, *order_key(c, position)[1:]), c)
        for position, c in enumerate(fight.combatants)
        if c.status is Status.READY and c.start is not None and c.key not in mounts
        and (among is None or among(c))
    ]
    return min(waiting, key=lambda pair: pair[0])[1] if waiting else None


def refuse_in_quick(fight: Fight, what: str) -> None:
    if fight.quick:
        raise Refusal(f"Con Iniciativa Rápida no hay momentos: no se puede {what}")


def place(fight: Fight, c: Combatant, start: int) -> Fight:
    """Give `c` its start moment; mid-fight it joins the countdown at once."""
    c = evolve(c, start=start)
    if fight.started:
        # With nobody left in the countdown (all removed) there is no moment: it starts here.
        moment = start if fight.moment is None else fight.moment
        marker = start if fight.quick else min(start, moment)
        c = evolve(c, marker=marker, ac=c.budget(fight.turn), status=Status.READY)
        fight = fight.replace(c)
        if start > moment:
            fight = fight.note(f"{c.name} entra en el combate en el momento {marker} (su inicio {start} ya pasó)",
                               kind=LogKind.SETUP, about=[c.name])
        if fight.moment is None or fight.turn_over or fight.moment < marker:
            fight = evolve(fight, moment=max(marker, moment))
        return fight
    return fight.replace(c)
