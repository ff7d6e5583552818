"""Read-only questions about a fight (RULES.md §3 "Who acts", §5, §6).

Owns the order of the queue at the current moment (`order_key`, `queue`) and the
key that broke each tie (`tie_reason`), and whether a combatant is incapacitated
(no maneuvers) or out of the fight.  Nothing here changes a fight; every other rules
module may import it, it imports none of them.  `rules.py` re-exports these names.
"""

from __future__ import annotations

from .model import INCAPACITATED, OUT_CONDITIONS, Combatant, Fight, Status

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


#: The last states' queues, by the identity of the state (which it holds on to, so
#: that the identity is not reused while the entry lives): one command asks the same
#: state's queue several times (settling, the ties, the turn's end).
_QUEUES: dict[int, tuple[Fight, tuple[Combatant, ...]]] = {}


def queue(fight: Fight) -> tuple[Combatant, ...]:
    """Who acts at the current moment, in order; holders who chose to act go last."""
    known = _QUEUES.get(id(fight))
    if known is not None and known[0] is fight:
        return known[1]
    line = _queue(fight)
    if len(_QUEUES) >= 16:
        _QUEUES.clear()
    _QUEUES[id(fight)] = (fight, line)
    return line


def _queue(fight: Fight) -> tuple[Combatant, ...]:
    if not fight.started or fight.moment is None:
        return ()
    if fight.quick:
        actor = fight.find(fight.actor) if fight.actor else None
        return (actor,) if actor is not None and actor.status in (Status.READY, Status.ACTED) else ()
    moment = fight.moment
    mounts = fight.mounts  # a mount acts with its rider, never on its own
    main = [
        (order_key(c, position), c)
        for position, c in enumerate(fight.combatants)
        if c.marker == moment and c.status in (Status.READY, Status.ACTED) and c.key not in mounts
    ]
    main.sort(key=lambda pair: pair[0])
    holders = sorted(
        (c for c in fight.combatants if c.status is Status.HOLDING and c.acting),
        key=lambda c: c.arrival,
    )
    return (*(c for _, c in main), *holders)


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
