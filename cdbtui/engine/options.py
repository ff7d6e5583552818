"""What a combatant may do now: the one query the picker, the keys and the palette ask.

`options(fight, name)` answers, for one combatant at this point of the fight, whether
it may act (spend AC on its own maneuvers at the current moment) or only react, hold
its action, act now (a holder), wait, interrupt (a waiter), decline, and, maneuver by
maneuver, whether each is done now, begun now and completed next turn, or refused,
with the Spanish sentence `rules.apply` would refuse it with.  `advance` and
`new_turn` answer the same for the countdown's «siguiente» and «turno».

Nothing here is a rule of its own: every answer runs the very checks the command
handlers run before they change anything (`spending`, `turn`, `maneuvers`,
`countdown`), so a "yes" here is a command `apply` accepts and a "no" carries its
refusal.  Pure: it reads a `Fight`, never changes one.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from attrs import frozen

from .catalog import Maneuver, catalog_for
from .countdown import get_combatant, require_started, window_base
from .errors import Refusal
from .maneuvers import check_interrupt, check_react, check_reaction_fits
from .model import Combatant, Fight
from .spending import (
    check_can_maneuver,
    check_cost,
    check_maneuver_rules,
    check_mount_spend,
    completes_now,
)
from .turn import in_turn, check_act_now, check_decline, check_hold, check_next, check_wait

#: The label of a free action (`NOMBRE gasta N`), as the engine logs it.
FREE_ACTION = "Otra acción"


class Can(StrEnum):
    """Whether one maneuver (or free action) can be done now."""

    #: Done at once: its AC fit in what is left.
    NOW = "now"
    #: Begun now with every AC left, completed next turn (RULES.md §3 "Carry-over").
    CARRIED = "carried"
    #: Too few AC left, and it cannot be carried over (a reaction, a mount's maneuver).
    SHORT = "short"
    #: Not now: the combatant may not act at this moment (only reactions are declared
    #: outside one's moment), or its turn is over.
    NOT_NOW = "not-now"
    #: Refused by another rule (a talent, its cost, Apuntar/mover, out of the fight…).
    NO = "no"


@frozen
class Verdict:
    """Yes, or no and why (the sentence the engine refuses the command with)."""

    ok: bool
    why: str = ""

    def __bool__(self) -> bool:
        return self.ok


YES = Verdict(True)


@frozen
class ManeuverOption:
    """One maneuver (None: a free action) as the combatant could do it now."""

    maneuver: Maneuver | None
    #: Its cost with the combatant's talents (a variable cost: the fixed part).
    cost: int
    can: Can
    #: Why not (empty when it can be done).
    why: str = ""
    #: The AC it lacks: carried over (CARRIED, or NOT_NOW once its moment comes) or
    #: refused for it (SHORT).
    missing: int = 0

    @property
    def ok(self) -> bool:
        """Whether the command would be accepted now."""
        return self.can in (Can.NOW, Can.CARRIED)

    @property
    def verdict(self) -> Verdict:
        return YES if self.ok else Verdict(False, self.why)


@frozen
class Options:
    """Everything one combatant may do now (RULES.md §3), each with why not."""

    name: str
    #: Spend AC on its own maneuvers at the current moment (a waiter: interrupting).
    act: Verdict
    #: Declare a reaction (some reaction of the catalog is possible now).
    react: Verdict
    #: Start holding its action («retrasa»).
    hold: Verdict
    #: Stop holding and act now, last of the moment («actua»).
    act_now: Verdict
    #: Start waiting for a trigger («espera»).
    wait: Verdict
    #: Interrupt what it waits for with a maneuver («interrumpe»).
    interrupt: Verdict
    #: Give up the AC it has left this turn («fin»).
    decline: Verdict
    #: The catalog's maneuvers it has the talents for, in catalog order (empty when
    #: asked for without them).
    maneuvers: tuple[ManeuverOption, ...] = ()

    @property
    def only_react(self) -> bool:
        """It may not act now, but it may still react."""
        return not self.act and bool(self.react)

    def maneuver(self, maneuver_id: str) -> ManeuverOption | None:
        return next((m for m in self.maneuvers
                     if m.maneuver is not None and m.maneuver.id == maneuver_id), None)


def _verdict(check: Callable[..., None], *args) -> Verdict:
    """Run one of the engine's checks: yes, or no with its refusal."""
    try:
        check(*args)
    except Refusal as refusal:
        return Verdict(False, str(refusal))
    return YES


def judge(
    fight: Fight, c: Combatant, maneuver: Maneuver | None, cost: int | None = None,
    *, answering: Fight | None = None,
) -> ManeuverOption:
    """Whether `c` can do `maneuver` now (None: a free action of `cost` AC), checked as
    `maneuvers._perform` checks it, in the same order.  A variable cost is judged at its
    smallest (the fixed part, at least 1 AC)."""
    if maneuver is not None:
        cost = maneuver.base_cost(c)
        judged = max(cost, 1) if maneuver.variable is not None else cost
        label = maneuver.name
    else:
        assert cost is not None
        judged, label = cost, FREE_ACTION
    missing = max(0, judged - c.ac)

    def option(can: Can, verdict: Verdict = YES, short: int = 0) -> ManeuverOption:
        return ManeuverOption(maneuver, cost, can, verdict.why, short)

    def first(*checks: tuple) -> Verdict:
        for check, *args in checks:
            verdict = _verdict(check, *args)
            if not verdict:
                return verdict
        return YES

    refused = _verdict(require_started, fight)
    talents = maneuver.refusal(c) if maneuver is not None and refused else None
    if talents is not None:  # talent-only maneuvers (RULES.md §4)
        return option(Can.NO, Verdict(False, talents))
    refused = first((require_started, fight), (check_cost, c, judged, label),
                    (check_can_maneuver, fight, c))
    if not refused:
        return option(Can.NO, refused)
    if maneuver is not None and maneuver.reaction:
        # A reaction answers the last action: it is judged where it would happen,
        # in the reaction window's state (RULES.md §3).
        fight = window_base(fight) if answering is None else answering
        c = fight.find(c.name) or c
        missing = max(0, judged - c.ac)
        refused = _verdict(check_react, fight, c, maneuver, judged)
        if not refused:
            return option(Can.NO, refused)
        short = _verdict(check_reaction_fits, c, maneuver, judged)
        return option(Can.NOW) if short else option(Can.SHORT, short, missing)
    refused = _verdict(in_turn, fight, c, label)
    if not refused:
        return option(Can.NOT_NOW, refused, missing)
    refused = _verdict(check_maneuver_rules, fight, c, maneuver, judged)
    if not refused:  # free actions too: a pinned combatant may only Escapar
        return option(Can.NO, refused)
    short = _verdict(check_mount_spend, fight, c, judged, label)
    if not short:
        return option(Can.SHORT, short, missing)
    return option(Can.NOW) if completes_now(c, judged) else option(Can.CARRIED, short=missing)


def spend(fight: Fight, name: str, amount: int) -> ManeuverOption:
    """Whether `name` can spend `amount` AC on a free action now («NOMBRE gasta N»)."""
    return judge(fight, get_combatant(fight, name), None, amount)


def maneuver_option(fight: Fight, name: str, maneuver_id: str) -> ManeuverOption:
    """Whether `name` can do the catalog maneuver `maneuver_id` now."""
    c = get_combatant(fight, name)
    # Refusal: not in this catalog, or a shared book name with both talents.
    maneuver = catalog_for(fight).resolve(maneuver_id, c)
    return judge(fight, c, maneuver)


def options(fight: Fight, name: str, *, maneuvers: bool = True) -> Options:
    """What `name` may do now; `maneuvers=False` leaves out the per-maneuver list (the
    verbs are still answered, reactions included).  Refusal if nobody has that name."""
    c = get_combatant(fight, name)
    available = catalog_for(fight).available(c)
    answering = window_base(fight)  # where reactions and interrupts happen (RULES.md §3)
    judged = tuple(judge(fight, c, m, answering=answering)
                   for m in available if maneuvers or m.reaction)
    reactions = sorted((o for o in judged if o.maneuver.reaction), key=lambda o: o.cost)
    if any(o.ok for o in reactions):
        react = YES
    elif reactions:
        react = Verdict(False, reactions[0].why)
    else:
        react = Verdict(False, f"{c.name} no tiene ninguna reacción en este reglamento")
    return Options(
        name=c.name,
        act=_verdict(in_turn, fight, c, "actuar"),
        react=react,
        hold=_verdict(check_hold, fight, c),
        act_now=_verdict(check_act_now, fight, c),
        wait=_verdict(check_wait, fight, c),
        interrupt=_verdict(check_interrupt, answering, answering.find(c.name) or c),
        decline=_verdict(check_decline, fight, c),
        maneuvers=judged if maneuvers else (),
    )


def advance(fight: Fight) -> Verdict:
    """Whether the countdown may be moved on now («siguiente»)."""
    return _verdict(check_next, fight)


def new_turn(fight: Fight) -> Verdict:
    """Whether a new turn may be started now («turno»)."""
    return _verdict(require_started, fight)
