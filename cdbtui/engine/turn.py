"""The flow of a turn (RULES.md §3): who may act now, holding, waiting, declining,
moving the count on, Iniciativa Rápida, and starting a turn.

Owns `in_turn` (may this combatant act at the current moment?), the commands
`cmd.Hold` and `cmd.Act` (Retrasar la Acción), `cmd.Wait` (Quedarse a la Espera),
`cmd.Done` (declinar), `cmd.Next` (advance the count; with Iniciativa Rápida, end the
actor's go), `cmd.Quick`, `cmd.NewTurn` (the turn ends: durations run out and melee
tires, `conditions.end_of_turn`), and `start_turn` (RULES.md §3 "Turn start", §5: the
AC a turn starts with, surprise wearing off, Liderazgo's pool expiring, what is still
running).  Handlers return the state their command makes; `rules.apply` settles the
countdown after each.
The checks each command runs before it changes anything are public (`check_hold`,
`check_act_now`, `check_wait`, `check_decline`, `check_next`): `options` asks them too.
"""

from __future__ import annotations


from . import commands as cmd
from .conditions import end_of_turn, note_running
from .countdown import (
    enter_moment,
    fixes_moment,
    get_combatant,
    next_moment,
    note_ties,
    refuse_in_quick,
    require_started,
)
from .errors import Refusal
from .limits import vouch
from .model import (
    copier_of,
    evolve,
    ACTIVE,
    FOLLOWING,
    SURPRISED,
    Combatant,
    Fight,
    LogKind,
    Role,
    Status,
    mention_of,
    renewed_roster,
)
from .mounts import refuse_mount, rider_present
from .queries import is_incapacitated, is_out, queue
from .spending import check_can_maneuver, complete_carried

#: What a new turn resets on each combatant in play (RULES.md §3 "Turn start"), as
#: Python expressions of `old` (the combatant) and `_renewed`'s arguments (its marker,
#: AC, status, conditions and their durations); every other field is kept.
_TURN_RESET = {
    "marker": "marker",
    "ac": "ac",
    "status": "status",
    "conditions": "conditions",
    "expires": "expires",
    "attacks": "0",
    "extra_targets": "0",
    "targets": "()",
    "leadership": "0",
    "stops": "()",
    "maneuvers": "()",
    "aimed_last_turn": "old.aimed_this_turn",
    "aimed_this_turn": "False",
    "moved_this_turn": "False",
    "recon_this_turn": "False",
    "melee_this_turn": "False",
    "acting": "False",
    "trigger": "None",
    "arrival": "0",
}

#: `_renewed(c, marker, ac, status, conditions, expires)`: `c` at the start of a turn
#: (`_TURN_RESET`), the same as `evolve(c, …)` but made once for these fields, so that
#: a turn of 200 combatants stays cheap (benchmarks/engine.py).  Every value it sets
#: is within the bounds a save may hold whatever `c` holds (the start moment is a
#: marker, the turn's AC at most its AC per turn, the conditions and durations are
#: some of `c`'s, the rest constants or `c`'s own): so `limits.check_state` need not
#: look at a renewed combatant again (`vouch`).  A field added here must keep that.
_renewed = copier_of(Combatant, ("marker", "ac", "status", "conditions", "expires"), _TURN_RESET)


def _unchanged_by_renewal():
    """`unchanged(c, marker, ac, status, conditions, expires)`: whether `_renewed` with
    these arguments would give a combatant equal to `c` (one who has done nothing
    since the last turn began): then `c` itself is kept, shared with the old state."""
    first = ("status", "ac", "marker")  # what a combatant who acted has changed
    order = [*first, *(name for name in _TURN_RESET if name not in first)]
    tests = " and ".join(f"old.{name} == ({_TURN_RESET[name]})" for name in order)
    scope: dict[str, object] = {}
    source = f"def unchanged(old, marker, ac, status, conditions, expires):\n    return {tests}"
    exec(compile(source, "<generated unchanged (turn.py)>", "exec"), scope)  # noqa: S102
    return scope["unchanged"]


_unchanged = _unchanged_by_renewal()


def _turn_status(c: Combatant) -> Status:
    """Where `c` starts a turn: out, done (incapacitated) or ready."""
    if not (c.conditions or c.wounds.marked or c.fatigue.marked):
        return Status.READY  # the usual case, without asking the track
    return Status.OUT if is_out(c) else (Status.DONE if is_incapacitated(c) else Status.READY)


def _renew(c: Combatant, marker: int, ac: int, status: Status, conditions: tuple[str, ...],
           expires: tuple) -> Combatant:
    """`_renewed(c, …)`, or `c` itself when that would change nothing."""
    if c.status is status and _unchanged(c, marker, ac, status, conditions, expires):
        return c
    return _renewed(c, marker, ac, status, conditions, expires)


def start_turn(fight: Fight, turn: int) -> Fight:
    """Turn `turn` starts (RULES.md §3 "Turn start", §5): everyone in play back at its
    start moment with the turn's AC, surprise gone from turn 2, Liderazgo's pool gone;
    the log says what is still running (RULES.md §5 "Durations").  The countdown
    then settles by itself (`rules.apply`)."""
    fresh = []
    running = []  # combatants that may have a duration still running
    roster = fight.combatants
    ready = Status.READY
    for c in roster:
        if c.leadership > 0:
            fight = fight.note(
                f"Caduca el Liderazgo de {c.name}: {c.leadership} bono(s) sin repartir al acabar el turno",
                kind=LogKind.RULE, about=[c.name],
            )
        start = c.start
        if start is not None and not (c.conditions or c.expires or c.notes
                                      or c.wounds.marked or c.fatigue.marked):
            # The usual case (`_renew` inlined): nothing running or marked, so ready
            # with the whole AC.
            ac = c.ac_per_turn
            if c.status is ready and _unchanged(c, start, ac, ready, c.conditions, c.expires):
                fresh.append(c)
            else:
                fresh.append(_renewed(c, start, ac, ready, c.conditions, c.expires))
            continue
        conditions, expires = c.conditions, c.expires
        if turn >= 2 and SURPRISED in conditions:
            conditions = tuple(x for x in conditions if x != SURPRISED)
            expires = tuple(e for e in expires if e.condition != SURPRISED)
        if expires or c.notes:
            running.append(c)
        if start is None:
            fresh.append(c if conditions is c.conditions else evolve(c, conditions=conditions, expires=expires))
            continue
        if conditions is not c.conditions:
            c = evolve(c, conditions=conditions, expires=expires)
        status = _turn_status(c)
        fresh.append(_renew(c, start, c.budget(turn) if status is Status.READY else 0, status,
                            conditions, expires))
    previous = fight.moment
    renewed = renewed_roster(roster, fresh)
    vouch(roster, renewed)
    fight = evolve(fight, combatants=renewed, turn=turn, moment=None, actor=None)
    fight = fight.note(f"— Turno {turn} —", kind=LogKind.TURN)
    if running:
        fight = note_running(fight, [fight.find(c.name) for c in running])
    top = next_moment(fight)
    if top is None:  # nobody can act (all out, or nobody left): the count still stands somewhere
        starts = [c.start for c in fight.in_play]
        top = max(starts) if starts else (previous if previous is not None else 0)
        return evolve(fight, moment=top)
    fight = evolve(fight, moment=top)
    return note_ties(fight)


def in_turn(fight: Fight, c: Combatant, what: str) -> None:
    """Refuse unless `c` may act at the current moment (queue or holder)."""
    require_started(fight)
    check_can_maneuver(fight, c)
    if c.status is Status.DONE:
        raise Refusal(f"{c.name} ya ha terminado este turno (le quedan {c.ac} AC)")
    rider = fight.rider_of(c)
    if rider is not None:
        if not rider_present(fight, rider, now=True):
            raise Refusal(
                f"{c.name} es la montura de {rider.name}: actúa en el momento de su jinete"
                f" (ahora no le toca a {rider.name}): no puede {what}"
            )
        return
    if c.status in FOLLOWING:
        return
    if fight.quick:
        if c.name != fight.actor:
            raise Refusal(
                f"Con Iniciativa Rápida ahora actúa {fight.actor or 'nadie'}: {c.name} solo puede"
                f" reaccionar (no puede {what})"
            )
        return
    if c.marker != fight.moment:
        raise Refusal(
            f"{c.name} actúa en el momento {c.marker}; ahora es el momento {fight.moment}"
            f" (solo las reacciones se hacen fuera de tu momento): no puede {what}"
        )


def check_hold(fight: Fight, c: Combatant) -> None:
    """Refuse unless `c` may start holding its action now (Retrasar la Acción)."""
    refuse_in_quick(fight, "retrasar la acción")
    refuse_mount(fight, c, "retrasar la acción")
    in_turn(fight, c, "retrasar")
    if c.status is Status.HOLDING and not c.acting:
        raise Refusal(f"{c.name} ya está retrasando su acción")
    if c.status is Status.WAITING:
        raise Refusal(f"{c.name} está a la espera: usa «fin» o «interrumpe»")


def _hold(fight: Fight, command: cmd.Hold) -> Fight:
    refuse_in_quick(fight, "retrasar la acción")
    c = get_combatant(fight, command.name)
    check_hold(fight, c)
    c = evolve(c, status=Status.HOLDING, acting=False)
    fight = fight.replace(c).note(f"{c.name} retrasa su acción (sigue la cuenta sin gastar)",
                                  kind=LogKind.ACTION, about=[c.name])
    return fight


def check_act_now(fight: Fight, c: Combatant) -> None:
    """Refuse unless `c` holds its action and may stop holding now («actua»)."""
    require_started(fight)
    refuse_in_quick(fight, "retrasar la acción")
    if c.status is not Status.HOLDING:
        raise Refusal(f"{c.name} no está retrasando su acción: no tiene que «actuar»")
    if c.acting:
        raise Refusal(f"{c.name} ya va a actuar en este momento")


def _act(fight: Fight, command: cmd.Act) -> Fight:
    require_started(fight)
    refuse_in_quick(fight, "retrasar la acción")
    c = get_combatant(fight, command.name)
    check_act_now(fight, c)
    fight, tick = fight.tick()
    c = evolve(c, acting=True, arrival=tick)
    return fight.replace(c).note(f"{c.name} deja de retrasar: actúa ahora, el último del momento {fight.moment}",
                                 kind=LogKind.ACTION, about=[c.name])


def check_wait(fight: Fight, c: Combatant) -> None:
    """Refuse unless `c` may start waiting now (Quedarse a la Espera)."""
    refuse_in_quick(fight, "quedarse a la espera")
    refuse_mount(fight, c, "quedarse a la espera")
    in_turn(fight, c, "quedarse a la espera")
    if c.status is Status.WAITING:
        raise Refusal(f"{c.name} ya está a la espera")


def _wait(fight: Fight, command: cmd.Wait) -> Fight:
    refuse_in_quick(fight, "quedarse a la espera")
    c = get_combatant(fight, command.name)
    check_wait(fight, c)
    trigger = command.text or "una señal"
    c = evolve(c, status=Status.WAITING, acting=False, trigger=trigger)
    fight = fight.replace(c).note(f"{c.name} se queda a la espera de: {trigger} (1 AC por momento)",
                                  kind=LogKind.ACTION, about=[c.name], free=trigger)
    return fight


def check_decline(fight: Fight, c: Combatant) -> None:
    """Refuse unless `c` still has this turn's AC to decline («fin»)."""
    require_started(fight)
    if c.status not in ACTIVE:
        raise Refusal(f"{c.name} ya ha terminado este turno")
    if c.marker is None:
        raise Refusal(f"{c.name} no tiene momento inicial")


def _done(fight: Fight, command: cmd.Done) -> Fight:
    require_started(fight)
    c = get_combatant(fight, command.name)
    check_decline(fight, c)
    if c.carried is not None:
        fight = fight.note(f"{c.name} abandona {c.carried.label}", warning=True, kind=LogKind.ACTION,
                           about=[c.name, *([(c.carried.target, Role.TARGET)] if c.carried.target else [])],
                           free=c.carried.label)
    c = evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None, carried=None)
    return fight.replace(c).note(f"{c.name} declina: renuncia a sus AC este turno",
                                 kind=LogKind.ACTION, about=[c.name])


def check_next(fight: Fight) -> None:
    """Refuse moving the count on when there is no turn under way («siguiente»)."""
    require_started(fight)
    if fight.turn_over:
        raise Refusal(f"El turno {fight.turn} ha terminado: usa «turno» para empezar el siguiente")


def _next(fight: Fight, command: cmd.Next) -> Fight:
    check_next(fight)
    assert fight.moment is not None
    if fight.quick:
        return _end_go(fight)
    for c in queue(fight):
        if c.carried is not None and c.status is Status.READY:
            fight = complete_carried(fight, fight.find(c.name))
    line = queue(fight)
    target = _next_without(fight, line) if line else next_moment(fight)
    if target is None:
        target = fight.moment - 1
    # Those who stay start holding, and holders follow the count: each is copied
    # once, already where the count goes (`enter_moment` leaves them there).
    stayed = [evolve(c, status=Status.HOLDING, acting=False, marker=target) for c in line]
    fight = fight.replace(*stayed)
    if stayed:
        fight = fight.note(
            "Avanza la cuenta: " + ", ".join(c.name for c in stayed)
            + (" pasa a retrasar" if len(stayed) == 1 else " pasan a retrasar"),
            kind=LogKind.TURN, about=[c.name for c in stayed],
        )
    return enter_moment(fight, target)


def _next_without(fight: Fight, line: tuple[Combatant, ...]) -> int | None:
    """`next_moment` once those in `line` hold (a holder fixes no moment): the highest
    marker of the others who fix one."""
    staying = {id(c) for c in line}
    mounts = fight.mounts
    markers = [c.marker for c in fight.combatants if id(c) not in staying and fixes_moment(c, mounts)]
    return max(markers) if markers else None


def _end_go(fight: Fight) -> Fight:
    """Iniciativa Rápida: the actor ends its go, keeping what AC it has left to react."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is not None:
        if actor.status is Status.READY:
            actor = evolve(actor, status=Status.ACTED)
        fight = fight.replace(actor).note(
            f"{actor.name} termina su actuación (guarda {actor.ac} AC para reaccionar)",
            kind=LogKind.TURN, about=[actor.name],
        )
    return evolve(fight, actor=None)


def _quick(fight: Fight, command: cmd.Quick) -> Fight:
    if command.on == fight.quick:
        raise Refusal(f"La Iniciativa Rápida ya está {'activada' if fight.quick else 'desactivada'}")
    if fight.started and not fight.turn_over:
        raise Refusal("La Iniciativa Rápida se cambia antes de empezar o con el turno terminado")
    keeping = [
        evolve(c, status=Status.DONE, ac=0)
        for c in fight.combatants if c.status in ACTIVE and c.start is not None and fight.started
    ]  # a quick turn ends with AC kept for dodges: the countdown's turn-over means all done
    fight = evolve(fight.replace(*keeping), quick=command.on, actor=None)
    state = "activada: sin momentos, cada uno gasta sus AC de una vez, por orden de iniciativa" \
        if command.on else "desactivada: vuelve la cuenta atrás de momentos"
    return fight.note(f"Iniciativa Rápida {state}" + (" (desde el turno siguiente)" if fight.started else ""),
                      kind=LogKind.RULE)


def _new_turn(fight: Fight, command: cmd.NewTurn) -> Fight:
    require_started(fight)
    declined = [c for c in fight.combatants if c.status in ACTIVE and c.start is not None]
    if declined:  # everyone is reset by the new turn; only the log needs them
        fight = fight.note("El DJ cierra el turno: " + ", ".join(c.name for c in declined) + " declinan",
                           kind=LogKind.TURN, about=[mention_of(c) for c in declined])
    return start_turn(end_of_turn(fight), fight.turn + 1)


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Hold: _hold,
    cmd.Act: _act,
    cmd.Wait: _wait,
    cmd.Done: _done,
    cmd.Next: _next,
    cmd.NewTurn: _new_turn,
    cmd.Quick: _quick,
}
