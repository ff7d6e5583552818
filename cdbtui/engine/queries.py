"""Read-only questions about a fight (RULES.md §3 "Who acts", §5, §6).

Owns the order of the queue at the current moment (`order_key`, `queue`) and the
key that broke each tie (`tie_reason`), and whether a combatant is incapacitated
(no maneuvers) or out of the fight.  Nothing here changes a fight; every other rules
module may import it, it imports none of them.  `rules.py` re-exports these names.
"""

from __future__ import annotations

from operator import itemgetter

from .model import (
    INCAPACITATED,
    OUT_CONDITIONS,
    Combatant,
    Fight,
    Status,
    ridden,
    roster_fact,
)

def order_key(combatant: Combatant, roster_position: int) -> tuple:
    """Sort key of the queue at one moment (RULES.md §3 "Who acts")."""
    acted = combatant.status is not Status.READY
    return (
        acted,
        -combatant.agi,
        -combatant.ate,
        -combatant.skill,
        combatant.arrival if acted else 0,
        roster_position,
    )


def queue(fight: Fight) -> tuple[Combatant, ...]:
    """Who acts at the current moment, in order; holders who chose to act go last.

    Kept with the roster (`roster_fact`): one command asks the queue of several
    states that share a roster (settling, the ties, the turn's end, a log line),
    and the queue of a roster that differs from the last one in a few combatants is
    made from that one's (`_derive_queue`)."""
    key = ("queue", fight.turn > 0, fight.moment, fight.quick, fight.actor)
    moment = fight.moment
    if fight.quick or not fight.started or moment is None:
        return roster_fact(fight.combatants, key, lambda _: (_queue(fight),))[0]
    return roster_fact(fight.combatants, key, lambda _: _queue_parts(fight),
                       lambda parts, *swaps: _derive_queue(moment, parts, *swaps))[0]


def _queue(fight: Fight) -> tuple[Combatant, ...]:
    if not fight.started or fight.moment is None:
        return ()
    if fight.quick:
        actor = fight.find(fight.actor) if fight.actor else None
        return (actor,) if actor is not None and actor.status in (Status.READY, Status.ACTED) else ()
    return _queue_parts(fight)[0]


#: The queue at a moment as `roster_fact` keeps it: (the queue, its main part as
#: (sort key, combatant) pairs in order, its holders as ((arrival, roster position),
#: combatant) pairs in order).
QueueParts = tuple[tuple[Combatant, ...], list[tuple[tuple, Combatant]], list[tuple[tuple, Combatant]]]


def _queue_parts(fight: Fight) -> QueueParts:
    """The queue at the current moment of a fight under way (countdown, not Iniciativa
    Rápida), with the keys it was sorted by."""
    main: list[tuple[tuple, Combatant]] = []
    holders: list[tuple[tuple, Combatant]] = []
    _sort_in(main, holders, enumerate(fight.combatants), fight.moment, fight.mounts)
    return _joined(main, holders)


def _joined(main: list, holders: list) -> QueueParts:
    """Both parts sorted (their keys are unique: each holds the roster position), and
    the queue they make: the main part first, holders who chose to act now last (in
    the order they reached the moment, then the roster's)."""
    main.sort(key=itemgetter(0))
    holders.sort(key=itemgetter(0))
    return (*(c for _, c in main), *(c for _, c in holders)), main, holders


def _sort_in(main: list, holders: list, entries, moment: int, mounts: frozenset[str]) -> None:
    """Add the (roster position, combatant) `entries` that act at `moment` to the
    queue's `main` part and to its `holders` (who chose to act now), as (sort key,
    combatant) pairs (a mount acts with its rider, never on its own)."""
    ready, acted, holding = Status.READY, Status.ACTED, Status.HOLDING
    for position, c in entries:  # one look at each
        status = c.status
        if status is holding:
            if c.acting:
                holders.append(((c.arrival, position), c))
        elif (c.marker == moment and (status is ready or status is acted)
              and not (mounts and c.key in mounts)):
            main.append((order_key(c, position), c))


def _derive_queue(moment: int, parts: QueueParts, combatants, changes, positions) -> QueueParts:
    """The queue at `moment` of a roster made by swapping `changes` into one whose
    queue at that moment was `parts` (`roster_fact`): the same as `_queue_parts`,
    looking only at those in that queue and the swapped ones (the others are the
    same objects, in the same places)."""
    gone = {id(old) for _, old, _ in changes}
    main = [pair for pair in parts[1] if id(pair[1]) not in gone]
    holders = [pair for pair in parts[2] if id(pair[1]) not in gone]
    _sort_in(main, holders, ((position, new) for position, _, new in changes), moment,
             ridden(combatants))
    return _joined(main, holders)


def tie_reason(first: Combatant, second: Combatant) -> str:
    """Which key put `first` before `second` in the queue, in Spanish."""
    if (first.status is Status.READY) != (second.status is Status.READY):
        return "aún no había actuado"
    for label, a, b in (
        ("Agilidad", first.agi, second.agi),
        ("Atención", first.ate, second.ate),
        ("Habilidad", first.skill, second.skill),
    ):
        if a != b:
            return f"{label} {a} contra {b}"
    if first.status is not Status.READY and first.arrival != second.arrival:
        return "llegó antes a este momento"
    return "empate total: orden de la lista (el DJ puede «cambiar»)"


def is_incapacitated(c: Combatant) -> bool:
    return (
        c.has(INCAPACITATED)
        or (c.wounds.category or 0) >= 3
        or (c.fatigue.category or 0) >= 3
    )


def is_out(c: Combatant) -> bool:
    return (
        any(c.has(cond) for cond in OUT_CONDITIONS)
        or c.wounds.category == 4
        or c.fatigue.category == 4
    )
