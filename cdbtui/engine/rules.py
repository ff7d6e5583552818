"""The rules of the countdown (RULES.md §2–§6): `apply(fight, command) -> fight`.

Every change to a fight goes through `apply`.  It never mutates its input: it
returns a new `Fight` or raises `Refusal` with the Spanish sentence the user sees,
in which case nothing changed.  The RNG is a pure function of the fight's seed and
its count of rolls, so replaying a command replays the same die.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from attrs import evolve

from . import commands as cmd
from .catalog import RULES_ES, Maneuver, catalog
from .errors import Refusal
from .model import (
    ACTIVE,
    FOLLOWING,
    GRAPPLED,
    INCAPACITATED,
    OUT_CONDITIONS,
    PINNED,
    SURPRISED,
    Carried,
    Combatant,
    Fight,
    Status,
    Track,
)
from .text import fold, slug

# ---------------------------------------------------------------- queries


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
    """Who acts at the current moment, in order; holders who chose to act go last."""
    if not fight.started or fight.moment is None:
        return ()
    if fight.quick:
        actor = fight.find(fight.actor) if fight.actor else None
        return (actor,) if actor is not None and actor.status in (Status.READY, Status.ACTED) else ()
    moment = fight.moment
    main = [
        (order_key(c, position), c)
        for position, c in enumerate(fight.combatants)
        if c.marker == moment and c.status in (Status.READY, Status.ACTED)
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


# ---------------------------------------------------------------- helpers


def _get(fight: Fight, name: str) -> Combatant:
    combatant = fight.find(name)
    if combatant is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return combatant


def _require_started(fight: Fight) -> None:
    if not fight.started:
        raise Refusal("El combate no ha empezado: usa «empezar» cuando todos tengan momento inicial")


def _roll_die(fight: Fight) -> tuple[Fight, int]:
    die = random.Random(f"{fight.seed}:{fight.rolls}").randint(1, 6)
    return evolve(fight, rolls=fight.rolls + 1), die


def _note_ties(fight: Fight) -> Fight:
    """Log which key decided each tie in the queue at the current moment."""
    line = queue(fight)
    if len(line) < 2:
        return fight
    reasons = [
        f"{a.name} antes que {b.name} ({tie_reason(a, b)})"
        for a, b in zip(line, line[1:])
        if not (b.status is Status.HOLDING)
    ]
    return fight.note("Orden: " + "; ".join(reasons)) if reasons else fight


def _enter(fight: Fight, moment: int) -> Fight:
    """Move the countdown to `moment`: holders follow, waiters pay 1 AC a moment."""
    previous = fight.moment if fight.moment is not None else moment
    passed = previous - moment
    changed = []
    for c in fight.combatants:
        if c.status is Status.HOLDING:
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
    fight = evolve(fight.replace(*changed), moment=moment)
    for c in changed:
        if c.status is Status.DONE:
            fight = fight.note(f"{c.name} agota sus AC a la espera → momento {c.marker}")
    return _note_ties(fight)


def _next_moment(fight: Fight) -> int | None:
    """The highest marker of anyone who fixes a moment (not holders or waiters)."""
    markers = [
        c.marker for c in fight.combatants
        if c.status in (Status.READY, Status.ACTED) and c.marker is not None
    ]
    return max(markers) if markers else None


def _settle(fight: Fight) -> Fight:
    """Complete carried maneuvers at the head of the queue; advance past empty moments."""
    if fight.quick:
        return _settle_quick(fight)
    while fight.started and not fight.turn_over:
        line = queue(fight)
        if line:
            head = line[0]
            if head.carried is not None and head.status is Status.READY:
                fight = _complete(fight, head)
                continue
            return fight
        target = _next_moment(fight)
        if target is None:
            return fight
        fight = _enter(fight, target)
    return fight


def _settle_quick(fight: Fight) -> Fight:
    """Iniciativa Rápida: the actor keeps its go until it ends it; then the next in
    start order (Agilidad, Atención, Habilidad, roster) who has not had one."""
    while fight.started:
        actor = fight.find(fight.actor) if fight.actor else None
        if actor is not None and actor.status in (Status.READY, Status.ACTED):
            if actor.carried is not None and actor.status is Status.READY:
                fight = _complete(fight, actor)
                continue
            return fight
        waiting = [
            (( -c.start, *order_key(c, position)[1:]), c)
            for position, c in enumerate(fight.combatants)
            if c.status is Status.READY and c.start is not None
        ]
        if not waiting:
            return evolve(fight, actor=None)
        _, actor = min(waiting, key=lambda pair: pair[0])
        fight = evolve(fight, actor=actor.name, moment=actor.start)
        fight = fight.note(f"Le toca a {actor.name} (iniciativa {actor.start}): gasta las AC que quiera")
    return fight


def _refuse_in_quick(fight: Fight, what: str) -> None:
    if fight.quick:
        raise Refusal(f"Con Iniciativa Rápida no hay momentos: no se puede {what}")


def _complete(fight: Fight, c: Combatant) -> Fight:
    """Spend the AC still owed by a carried maneuver (RULES.md §3 carry-over)."""
    carried = c.carried
    assert carried is not None and fight.moment is not None
    moment = fight.moment
    if carried.remaining <= c.ac:
        ac = c.ac - carried.remaining
        marker = moment - carried.remaining
        c = evolve(c, ac=ac, marker=marker, carried=None,
                   status=Status.DONE if ac == 0 else Status.ACTED)
        c = _finish_effects(c, carried.attack, carried.aim)
        text = (f"{c.name}: completa {carried.label} ({carried.remaining} AC)"
                f" → momento {marker}")
    else:
        owed = carried.remaining - c.ac
        marker = moment - c.ac
        c = evolve(c, ac=0, marker=marker, status=Status.DONE,
                   carried=evolve(carried, remaining=owed))
        text = (f"{c.name}: sigue con {carried.label}, le faltan {owed} AC"
                f" → momento {marker}")
    fight, tick = fight.tick()
    c = evolve(c, arrival=tick).with_stop(moment, f"completa {carried.label}")
    return fight.replace(c).note(text)


def _finish_effects(c: Combatant, attack: bool, aim: bool) -> Combatant:
    """What a finished maneuver does to the attack count and the aim bonus."""
    if attack:
        c = evolve(c, attacks=c.attacks + 1, aim=0)
    if aim:
        bonus = min(3, c.aim + 1) if c.aimed_last_turn else 1
        c = evolve(c, aim=bonus, aimed_this_turn=True)
    return c


def _check_cost(c: Combatant, cost: int, label: str) -> None:
    if cost <= 0:
        raise Refusal(f"{label} debe costar al menos 1 AC (pedido: {cost})")
    if cost > c.ac_per_turn:
        raise Refusal(
            f"{label} cuesta {cost} AC y {c.name} solo tiene {c.ac_per_turn} por turno:"
            " ningún turno puede con ella"
        )


def _check_can_maneuver(fight: Fight, c: Combatant) -> None:
    if c.marker is None or c.start is None:
        raise Refusal(f"{c.name} no tiene momento inicial: usa «momento {c.name} N» o «tirar»")
    if c.status is Status.OUT:
        raise Refusal(f"{c.name} está fuera de combate")
    if is_incapacitated(c):
        raise Refusal(f"{c.name} está incapacitado: no puede hacer maniobras")


def _check_maneuver_rules(fight: Fight, c: Combatant, maneuver: Maneuver, cost: int) -> None:
    zen = c.has_talent("punteria-zen")
    if maneuver.aim:
        # An Apuntar belongs to the turn it completes: one started with too few AC
        # finishes next turn, so it is allowed after this turn's aim (RULES.md §7).
        completes_now = cost <= c.ac
        if (c.aimed_this_turn and completes_now) or (c.carried is not None and c.carried.aim):
            raise Refusal(f"{c.name} ya ha apuntado este turno: solo se puede Apuntar una vez por turno")
        if c.moved_this_turn and not zen:
            raise Refusal(f"{c.name} ya se ha movido este turno: no puede Apuntar sin Puntería Zen")
    if maneuver.moves and c.aimed_this_turn and not zen:
        raise Refusal(f"{c.name} ha apuntado este turno: no puede moverse sin Puntería Zen")


def _spend(
    fight: Fight,
    c: Combatant,
    cost: int,
    label: str,
    *,
    maneuver: Maneuver | None,
    reaction: bool = False,
) -> Fight:
    """Spend `cost` AC at the current moment; carry what does not fit."""
    moment = fight.moment
    assert moment is not None
    if c.carried is not None:
        fight = fight.note(
            f"{c.name} abandona {c.carried.label}: pierde los AC invertidos el turno anterior",
            warning=True,
        )
        c = evolve(c, carried=None)
    attack = maneuver is not None and maneuver.attack
    aim = maneuver is not None and maneuver.aim
    moves = maneuver is not None and maneuver.moves
    if attack and c.has(SURPRISED) and fight.turn == 1 and not c.recon_this_turn:
        fight = fight.note(
            f"Aviso: {c.name} está sorprendido y ataca sin Reconocimiento previo", warning=True
        )
    fight, tick = fight.tick()
    kind = ", reacción" if reaction else ""
    if fight.quick:  # no countdown: the line just drops from where it is
        start_from = c.marker
    else:
        start_from = min(c.marker, moment) if reaction else moment
    if cost <= c.ac:
        ac = c.ac - cost
        marker = start_from - cost
        c = evolve(c, ac=ac, marker=marker, acting=False, trigger=None, arrival=tick,
                   status=Status.DONE if ac == 0 else Status.ACTED)
        c = _finish_effects(c, attack, aim)
        text = f"{c.name}: {label}{kind} ({cost} AC) → momento {marker}"
    else:
        invested = c.ac
        marker = start_from - invested
        owed = cost - invested
        c = evolve(
            c, ac=0, marker=marker, acting=False, trigger=None, arrival=tick,
            status=Status.DONE,
            carried=Carried(
                maneuver.id if maneuver else "gasta", label, owed, attack=attack, aim=aim
            ),
        )
        text = (f"{c.name}: {label} ({cost} AC), invierte {invested} y le faltan {owed}"
                f" → momento {marker} (la completa el turno siguiente)")
    c = evolve(
        c,
        moved_this_turn=c.moved_this_turn or moves,
        recon_this_turn=c.recon_this_turn or (maneuver is not None and maneuver.id == "reconocimiento"),
    ).with_stop(start_from, label)
    return fight.replace(c).note(text)


# ---------------------------------------------------------------- set-up commands


def _add(fight: Fight, command: cmd.Add) -> Fight:
    name = command.name.strip()
    if not name:
        raise Refusal("Falta el nombre del combatiente")
    clash = next((w for w in fold(name).split() if w in cmd.RESERVED), None)
    if clash is not None:
        raise Refusal(f"«{name}» contiene «{clash}», una palabra de órdenes: elige otro nombre")
    if fight.find(name) is not None:
        raise Refusal(f"Ya hay un combatiente llamado «{fight.find(name).name}»")
    if not 1 <= command.ac <= 99:
        raise Refusal(f"Las AC por turno deben estar entre 1 y 99 (pedido: {command.ac})")
    if command.wounds is not None and (
        len(command.wounds) != 5 or any(n < 1 or n > 99 for n in command.wounds)
    ):
        raise Refusal("vida= necesita 5 números (Rasguño…Moribundo), cada uno entre 1 y 99")
    combatant = Combatant(
        name=name,
        ac_per_turn=command.ac,
        side=command.side,
        ini=command.ini,
        agi=command.agi,
        ate=command.ate,
        skill=command.skill,
        mov=command.mov,
        talents=command.talents,
        hidden=command.hidden,
        private=command.private,
        wounds=Track(command.wounds) if command.wounds else Track(),
        fatigue=Track(command.wounds) if command.wounds else Track(),
    )
    fight = evolve(fight, combatants=(*fight.combatants, combatant))
    fight = fight.note(f"Alta de {name} ({command.side.upper() if command.side in ('pj', 'pnj') else command.side}, {command.ac} AC)")
    if command.start is not None:
        fight = _place(fight, combatant, command.start)
    return _settle(fight)


def _place(fight: Fight, c: Combatant, start: int) -> Fight:
    """Give `c` its start moment; mid-fight it joins the countdown at once."""
    c = evolve(c, start=start)
    if fight.started:
        # With nobody left in the countdown (all removed) there is no moment: it starts here.
        moment = start if fight.moment is None else fight.moment
        marker = start if fight.quick else min(start, moment)
        c = evolve(c, marker=marker, ac=c.budget(fight.turn), status=Status.READY)
        fight = fight.replace(c)
        if start > moment:
            fight = fight.note(f"{c.name} entra en el combate en el momento {marker} (su inicio {start} ya pasó)")
        if fight.moment is None or fight.turn_over or fight.moment < marker:
            fight = evolve(fight, moment=max(marker, moment))
        return fight
    return fight.replace(c)


def _remove(fight: Fight, command: cmd.Remove) -> Fight:
    c = _get(fight, command.name)
    fight = evolve(fight, combatants=tuple(x for x in fight.combatants if x.key != c.key))
    return _settle(fight.note(f"Baja de {c.name}"))


def _check_start_allowed(fight: Fight, c: Combatant) -> None:
    if fight.started and c.start is not None:
        raise Refusal(
            f"La iniciativa se tira una vez por combate: {c.name} ya empieza en el momento"
            f" {c.start} (usa «deshacer» si fue un error)"
        )


def _set_start(fight: Fight, command: cmd.SetStart) -> Fight:
    c = _get(fight, command.name)
    _check_start_allowed(fight, c)
    if not -99 <= command.start <= 99:
        raise Refusal(f"Momento inicial fuera de rango: {command.start}")
    fight = _place(fight, c, command.start)
    return _settle(fight.note(f"{c.name} empieza en el momento {command.start}"))


def _roll(fight: Fight, command: cmd.Roll) -> Fight:
    if command.names:
        who = [_get(fight, n) for n in command.names]
        for c in who:
            _check_start_allowed(fight, c)
    else:
        who = [c for c in fight.combatants if c.start is None]
        if not fight.combatants:
            raise Refusal("No hay combatientes: añade alguno con «alta NOMBRE ac=N»")
        if not who:
            raise Refusal("Todos tienen ya momento inicial: nombra a quién tirar")
    if command.together:
        fight, die = _roll_die(fight)
        dice = [die] * len(who)
        fight = fight.note(f"Tirada de grupo: 1d6 = {die} para {', '.join(c.name for c in who)}")
    else:
        dice = []
        for _ in who:
            fight, die = _roll_die(fight)
            dice.append(die)
    for c, die in zip(who, dice):
        c = fight.find(c.name)
        fight = _place(fight, c, die + c.ini)
        fight = fight.note(f"{c.name}: 1d6 ({die}) + INI {c.ini} = momento {die + c.ini}")
    return _settle(fight)


def _surprise(fight: Fight, command: cmd.Surprise) -> Fight:
    for name in command.names:
        fight = _condition(fight, cmd.Condition(name, SURPRISED, True))
    return fight


def _begin(fight: Fight, command: cmd.Begin) -> Fight:
    if fight.started:
        raise Refusal(f"El combate ya ha empezado (turno {fight.turn})")
    if not fight.combatants:
        raise Refusal("No hay combatientes: añade alguno con «alta NOMBRE ac=N»")
    missing = [c.name for c in fight.combatants if c.start is None]
    if missing:
        raise Refusal(f"Falta el momento inicial de {', '.join(missing)}: usa «momento» o «tirar»")
    return _start_turn(fight, 1)


def _start_turn(fight: Fight, turn: int) -> Fight:
    fresh = []
    for c in fight.combatants:
        conditions = c.conditions
        if turn >= 2 and SURPRISED in conditions:
            conditions = tuple(x for x in conditions if x != SURPRISED)
        if c.start is None:
            fresh.append(evolve(c, conditions=conditions))
            continue
        c = evolve(c, conditions=conditions) if conditions != c.conditions else c
        status = Status.OUT if is_out(c) else (
            Status.DONE if is_incapacitated(c) else Status.READY)
        fresh.append(evolve(
            c,
            marker=c.start,
            ac=c.budget(turn) if status is Status.READY else 0,
            status=status,
            attacks=0,
            extra_targets=0,
            stops=(),
            maneuvers=(),
            aimed_last_turn=c.aimed_this_turn,
            aimed_this_turn=False,
            moved_this_turn=False,
            recon_this_turn=False,
            acting=False,
            trigger=None,
            arrival=0,
        ))
    fight = evolve(fight, combatants=tuple(fresh), turn=turn, moment=None, actor=None)
    fight = fight.note(f"— Turno {turn} —")
    top = _next_moment(fight)
    fight = evolve(fight, moment=top)
    if top is not None:
        fight = _note_ties(fight)
    return _settle(fight)


# ---------------------------------------------------------------- the countdown


def _in_turn(fight: Fight, c: Combatant, what: str) -> None:
    """Refuse unless `c` may act at the current moment (queue or holder)."""
    _require_started(fight)
    _check_can_maneuver(fight, c)
    if c.status is Status.DONE:
        raise Refusal(f"{c.name} ya ha terminado este turno (le quedan {c.ac} AC)")
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


def _perform(fight: Fight, command: cmd.Perform, *, interrupt: bool = False) -> Fight:
    _require_started(fight)
    c = _get(fight, command.name)
    maneuver: Maneuver | None = None
    if command.maneuver is None:
        if command.amount is None:
            raise Refusal("«gasta» necesita un número de AC")
        cost = command.amount
        label = command.text or "Otra acción"
    else:
        maneuver = catalog(fight.rules).get(command.maneuver)
        refusal = maneuver.refusal(c)  # talent-only maneuvers (RULES.md §4)
        if refusal is not None:
            raise Refusal(refusal)
        cost = maneuver.cost_for(c, command.amount)
        label = maneuver.name
    _check_cost(c, cost, label)
    if maneuver is not None and maneuver.reaction and not interrupt:
        return _settle(_react(fight, c, maneuver, cost))
    _in_turn(fight, c, label)
    if c.status is Status.WAITING and not interrupt:
        interrupt = True
    if maneuver is not None:
        _check_maneuver_rules(fight, c, maneuver, cost)
    if interrupt:
        fight = fight.note(f"{c.name} interrumpe: {c.trigger or 'lo que esperaba'}")
    return _settle(_spend(fight, c, cost, label, maneuver=maneuver))


def _react(fight: Fight, c: Combatant, maneuver: Maneuver, cost: int) -> Fight:
    _check_can_maneuver(fight, c)
    _check_maneuver_rules(fight, c, maneuver, cost)
    verb = maneuver.name.lower()
    if c.status is Status.DONE and c.ac > 0:
        raise Refusal(f"{c.name} ha declinado este turno: no puede {verb}")
    if c.ac < cost:
        raise Refusal(
            f"{c.name} no tiene AC para {verb} (le quedan {c.ac}, cuesta {cost})"
        )
    return _spend(fight, c, cost, maneuver.name, maneuver=maneuver, reaction=True)


def _hold(fight: Fight, command: cmd.Hold) -> Fight:
    _refuse_in_quick(fight, "retrasar la acción")
    c = _get(fight, command.name)
    _in_turn(fight, c, "retrasar")
    if c.status is Status.HOLDING and not c.acting:
        raise Refusal(f"{c.name} ya está retrasando su acción")
    if c.status is Status.WAITING:
        raise Refusal(f"{c.name} está a la espera: usa «fin» o «interrumpe»")
    c = evolve(c, status=Status.HOLDING, acting=False)
    fight = fight.replace(c).note(f"{c.name} retrasa su acción (sigue la cuenta sin gastar)")
    return _settle(fight)


def _act(fight: Fight, command: cmd.Act) -> Fight:
    _require_started(fight)
    _refuse_in_quick(fight, "retrasar la acción")
    c = _get(fight, command.name)
    if c.status is not Status.HOLDING:
        raise Refusal(f"{c.name} no está retrasando su acción: no tiene que «actuar»")
    if c.acting:
        raise Refusal(f"{c.name} ya va a actuar en este momento")
    fight, tick = fight.tick()
    c = evolve(c, acting=True, arrival=tick)
    return fight.replace(c).note(f"{c.name} deja de retrasar: actúa ahora, el último del momento {fight.moment}")


def _wait(fight: Fight, command: cmd.Wait) -> Fight:
    _refuse_in_quick(fight, "quedarse a la espera")
    c = _get(fight, command.name)
    _in_turn(fight, c, "quedarse a la espera")
    if c.status is Status.WAITING:
        raise Refusal(f"{c.name} ya está a la espera")
    trigger = command.text or "una señal"
    c = evolve(c, status=Status.WAITING, acting=False, trigger=trigger)
    fight = fight.replace(c).note(f"{c.name} se queda a la espera de: {trigger} (1 AC por momento)")
    return _settle(fight)


def _trigger(fight: Fight, command: cmd.Trigger) -> Fight:
    _require_started(fight)
    c = _get(fight, command.action.name)
    if c.status is not Status.WAITING:
        raise Refusal(f"{c.name} no está a la espera: no puede interrumpir")
    return _perform(fight, command.action, interrupt=True)


def _done(fight: Fight, command: cmd.Done) -> Fight:
    _require_started(fight)
    c = _get(fight, command.name)
    if c.status not in ACTIVE:
        raise Refusal(f"{c.name} ya ha terminado este turno")
    if c.marker is None:
        raise Refusal(f"{c.name} no tiene momento inicial")
    if c.carried is not None:
        fight = fight.note(f"{c.name} abandona {c.carried.label}", warning=True)
    c = evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None, carried=None)
    return _settle(fight.replace(c).note(f"{c.name} declina: renuncia a sus AC este turno"))


def _next(fight: Fight, command: cmd.Next) -> Fight:
    _require_started(fight)
    if fight.turn_over:
        raise Refusal(f"El turno {fight.turn} ha terminado: usa «turno» para empezar el siguiente")
    assert fight.moment is not None
    if fight.quick:
        return _end_go(fight)
    for c in queue(fight):
        if c.carried is not None and c.status is Status.READY:
            fight = _complete(fight, fight.find(c.name))
    stayed = [
        evolve(c, status=Status.HOLDING, acting=False)
        for c in queue(fight)
    ]
    fight = fight.replace(*stayed)
    if stayed:
        fight = fight.note(
            "Avanza la cuenta: " + ", ".join(c.name for c in stayed) + " pasan a retrasar"
        )
    target = _next_moment(fight)
    if target is None:
        target = fight.moment - 1
    fight = _enter(fight, target)
    return _settle(fight)


def _end_go(fight: Fight) -> Fight:
    """Iniciativa Rápida: the actor ends its go, keeping what AC it has left to react."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is not None:
        if actor.status is Status.READY:
            actor = evolve(actor, status=Status.ACTED)
        fight = fight.replace(actor).note(
            f"{actor.name} termina su actuación (guarda {actor.ac} AC para reaccionar)"
        )
    return _settle(evolve(fight, actor=None))


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
    return fight.note(f"Iniciativa Rápida {state}" + (" (desde el turno siguiente)" if fight.started else ""))


def _new_turn(fight: Fight, command: cmd.NewTurn) -> Fight:
    _require_started(fight)
    declined = [c.name for c in fight.combatants if c.status in ACTIVE and c.start is not None]
    if declined:  # everyone is reset by the new turn; only the log needs them
        fight = fight.note("El DJ cierra el turno: " + ", ".join(declined) + " declinan")
    return _start_turn(fight, fight.turn + 1)


# ---------------------------------------------------------------- conditions and damage


def _condition(fight: Fight, command: cmd.Condition) -> Fight:
    c = _get(fight, command.name)
    condition = slug(command.condition)
    if not condition:
        raise Refusal("Falta el estado: p. ej. «estado Mike +agarrado»")
    if command.on:
        if c.has(condition):
            raise Refusal(f"{c.name} ya está {condition}")
        if condition == SURPRISED:
            if fight.turn > 1 or (fight.started and c.status is not Status.READY):
                raise Refusal("La sorpresa solo vale en el primer turno, antes de que actúe")
        c = evolve(c, conditions=(*c.conditions, condition))
        fight = fight.note(f"{c.name}: +{condition}")
        if fight.started and c.status in ACTIVE:
            c = _apply_condition_now(c, condition)
        fight = fight.replace(c)
    else:
        if not c.has(condition):
            raise Refusal(f"{c.name} no está {condition}")
        c = evolve(c, conditions=tuple(x for x in c.conditions if x != condition))
        if condition in OUT_CONDITIONS and c.status is Status.OUT and not is_out(c):
            c = evolve(c, status=Status.DONE)
        fight = fight.replace(c).note(
            f"{c.name}: −{condition}"
            + (" (recupera sus AC el turno siguiente)" if condition in (GRAPPLED, PINNED, SURPRISED) else "")
        )
    return _settle(fight)


def _apply_condition_now(c: Combatant, condition: str) -> Combatant:
    """A condition gained mid-turn changes the AC left at once (RULES.md §5)."""
    if condition == SURPRISED:
        return evolve(c, ac=c.budget(1))
    if condition == GRAPPLED and not c.has(PINNED):
        return evolve(c, ac=math.ceil(c.ac / 2))
    if condition == PINNED:
        factor = 2 if c.has(GRAPPLED) else 4
        return evolve(c, ac=math.ceil(c.ac / factor))
    if condition == INCAPACITATED:
        return evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None)
    if condition in OUT_CONDITIONS:
        return evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None)
    return c


def _damage(fight: Fight, command: cmd.Damage) -> Fight:
    c = _get(fight, command.name)
    total = command.amount - command.rd
    track_name = "fatiga" if command.fatigue else "heridas"
    if total < 0:
        return fight.note(f"{c.name}: daño {command.amount} − RD {command.rd} < 0, sin efecto")
    boxes = max(total, 1)
    if command.fatigue:
        room = c.fatigue.size - c.fatigue.marked
        to_fatigue = min(boxes, room)
        overflow = boxes - to_fatigue
        c = evolve(c, fatigue=evolve(c.fatigue, marked=c.fatigue.marked + to_fatigue))
    else:
        overflow = boxes
    if overflow:
        c = evolve(c, wounds=evolve(c.wounds, marked=min(c.wounds.size, c.wounds.marked + overflow)))
    fight = fight.note(f"{c.name}: {boxes} casilla(s) de {track_name} (daño {command.amount} − RD {command.rd})")
    if c.status is not Status.OUT:
        if is_out(c):
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} cae inconsciente: fuera de combate", warning=True)
        elif is_incapacitated(c) and c.status in ACTIVE:
            c = evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} queda incapacitado: no puede hacer maniobras", warning=True)
    return _settle(fight.replace(c))


def _swap(fight: Fight, command: cmd.Swap) -> Fight:
    a, b = _get(fight, command.first), _get(fight, command.second)
    if a.key == b.key:
        raise Refusal("Para cambiar el orden hacen falta dos combatientes distintos")
    if (a.status is Status.READY, a.agi, a.ate, a.skill) != (b.status is Status.READY, b.agi, b.ate, b.skill) or a.status is not b.status:
        raise Refusal(f"{a.name} y {b.name} no están empatados: el orden lo deciden las reglas")
    roster = list(fight.combatants)
    i, j = fight.index(a.name), fight.index(b.name)
    roster[i], roster[j] = roster[j], roster[i]
    return evolve(fight, combatants=tuple(roster)).note(f"El DJ cambia el orden de {a.name} y {b.name}")


def _targets(fight: Fight, command: cmd.Targets) -> Fight:
    _require_started(fight)
    c = _get(fight, command.name)
    if not 0 <= command.extra <= 20:
        raise Refusal(f"Blancos adicionales entre 0 y 20 (pedido: {command.extra})")
    c = evolve(c, extra_targets=command.extra)
    return fight.replace(c).note(
        f"{c.name}: {command.extra} blanco(s) adicional(es) este turno → −{command.extra} a todo"
    )


def _rename(fight: Fight, command: cmd.Rename) -> Fight:
    title = command.title.strip()
    if not title:
        raise Refusal("El combate necesita un nombre")
    return evolve(fight, name=title).note(f"El combate se llama «{title}»")


_HANDLERS: dict[type, Callable[[Fight, object], Fight]] = {
    cmd.Add: _add,
    cmd.Remove: _remove,
    cmd.SetStart: _set_start,
    cmd.Roll: _roll,
    cmd.Surprise: _surprise,
    cmd.Begin: _begin,
    cmd.Perform: _perform,
    cmd.Hold: _hold,
    cmd.Act: _act,
    cmd.Wait: _wait,
    cmd.Trigger: _trigger,
    cmd.Done: _done,
    cmd.Next: _next,
    cmd.NewTurn: _new_turn,
    cmd.Condition: _condition,
    cmd.Damage: _damage,
    cmd.Swap: _swap,
    cmd.Targets: _targets,
    cmd.Quick: _quick,
    cmd.Rename: _rename,
}


def apply(fight: Fight, command: cmd.Command) -> Fight:
    """The fight after `command`, or `Refusal` (and the fight is unchanged)."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Refusal(f"Orden desconocida: {command!r}")
    after = handler(fight, command)
    if after.turn_over and not fight.turn_over:
        after = after.note(f"Fin del turno {after.turn}: todos han terminado (usa «turno»)")
    return after


def new_fight(name: str = "Combate", rules: str = "cdb", seed: int = 0) -> Fight:
    """An empty fight; `rules` must name a known catalog."""
    catalog(rules)
    return Fight(name=name, rules=rules, seed=seed).note(
        f"Combate «{name}» ({RULES_ES[rules]})"
    )
