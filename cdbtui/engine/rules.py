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
from .catalog import RULES_ES, Maneuver, catalog, catalog_for
from .errors import Refusal
from .model import (
    ACTIVE,
    BLOCK_PENALTY,
    COVER,
    DUEL,
    FATIGUE_CATEGORIES,
    FOLLOWING,
    GRAPPLED,
    INCAPACITATED,
    MOUNTED,
    NO_MEMBERS,
    OUT_CONDITIONS,
    PINNED,
    SURPRISED,
    WOUND_CATEGORIES,
    Carried,
    Combatant,
    Fight,
    Status,
    Track,
)
from .text import fold, slug

# Decisions where the book is silent (the optional rules and the sheet's extras):
# · Targets: `NAME MANIOBRA [N] a BLANCO` on attacks; the distinct targets named in a
#   turn feed the extra-target penalty; `blancos N` counts the same targets, so the
#   penalty is the larger of the two.  A reaction's target (Bloqueo) is not a target.
# · Bloqueo: «NAME bloqueo a ATACANTE» is a block that worked: −2 on the attacker's next
#   attack, kept across turns until that attack.
# · Liderazgo: `NAME liderazgo gde=N` sets the pool to 1 + N when the maneuver completes;
#   the pool expires at the end of the turn; a bonus handed out (`bono`) lasts until
#   its receiver's next attack; one leader with a pool per side.
# · Duels: declared mid-turn they take effect at once (a marker above the INI drops to
#   it); leaving one keeps the start moment (initiative is not rerolled).
# · Mounts: the mount has no moment of its own and never holds the countdown; it may
#   act at its rider's moment or right after its rider's maneuver, spends its own AC
#   without moving its marker (which shows the rider's), and carries nothing over.
# · Hordas: each `aguante` of Daño Total puts one member out, at most `balas=N`.
# · Healing: `curar` removes the worst boxes first and is allowed in a fight
#   (Primeros Auxilios); `descanso` wipes the Rasguños only between turns.

#: Maneuvers with an effect the engine applies when they finish (catalog ids).
BLOCKS = frozenset({"bloqueo", "bloqueo-esgrima"})
LEADERSHIP = "liderazgo"
LEAVE_DUEL = "abandonar-duelo"
MOUNTED_CHARGE = "carga-con-montura"
RANGED_GROUP = "A distancia"
#: Talent that adds the opposed roll's degree of success to a duelist's INI.
DUELIST = "duelista"
#: What the book says about cover (Reglas de Cobertura), for the log.
COVER_NOTE = (
    "Reglas de Cobertura: si el impacto da en la parte cubierta, al Daño se le resta"
    " primero la RD de la cobertura y con lo que quede se calcula el Daño Total"
)

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
    mounts = fight.mounts
    markers = [
        c.marker for c in fight.combatants
        if c.status in (Status.READY, Status.ACTED) and c.marker is not None
        and c.key not in mounts
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
        mounts = fight.mounts
        waiting = [
            (( -c.start, *order_key(c, position)[1:]), c)
            for position, c in enumerate(fight.combatants)
            if c.status is Status.READY and c.start is not None and c.key not in mounts
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
    finished = carried.remaining <= c.ac
    if finished:
        ac = c.ac - carried.remaining
        marker = moment - carried.remaining
        c = evolve(c, ac=ac, marker=marker, carried=None,
                   status=Status.DONE if ac == 0 else Status.ACTED)
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
    fight = fight.replace(c).note(text)
    if finished:
        fight = _finished(
            fight, c, carried.maneuver, attack=carried.attack, aim=carried.aim,
            target=carried.target, degree=carried.degree,
        )
    return fight


def _finished(
    fight: Fight,
    c: Combatant,
    maneuver: str | None,
    *,
    attack: bool,
    aim: bool,
    target: str | None = None,
    degree: int | None = None,
    reaction: bool = False,
) -> Fight:
    """What a maneuver does once its AC are all spent: the attack count, the aim bonus
    and the one-roll modifiers it uses up; the targets of the turn; Liderazgo's pool,
    a successful Bloqueo's −2 on the attacker, leaving a duel."""
    c = fight.find(c.name)
    assert c is not None
    used = []
    if attack:
        if c.lead_bonus:
            used.append(f"el +{c.lead_bonus} de Liderazgo")
        if c.block_penalty:
            used.append(f"el −{-c.block_penalty} del Bloqueo que sufrió")
        c = evolve(c, attacks=c.attacks + 1, aim=0, block_penalty=0, lead_bonus=0)
    if aim:
        bonus = min(3, c.aim + 1) if c.aimed_last_turn else 1
        c = evolve(c, aim=bonus, aimed_this_turn=True)
    extra_before = -c.target_penalty
    if attack and target is not None and not reaction:
        known = {fold(t) for t in c.targets}
        if fold(target) not in known:
            c = evolve(c, targets=(*c.targets, target))
    fight = fight.replace(c)
    if used:
        fight = fight.note(f"{c.name} aplica a esta tirada " + " y ".join(used))
    if -c.target_penalty > extra_before:
        fight = fight.note(
            f"{c.name} ataca a {len(c.targets)} blancos este turno ({', '.join(c.targets)}):"
            f" −{-c.target_penalty} a todas sus acciones",
            warning=True,
        )
    if maneuver in BLOCKS and target is not None:
        attacker = fight.find(target)
        if attacker is not None:
            fight = fight.replace(evolve(attacker, block_penalty=BLOCK_PENALTY)).note(
                f"Bloqueo de {c.name}: {attacker.name} tiene −{-BLOCK_PENALTY} en su próxima tirada"
            )
    if maneuver == LEADERSHIP and degree is not None:
        pool = 1 + degree
        fight = fight.replace(evolve(c, leadership=pool)).note(
            f"{c.name} lidera: {pool} bono(s) de +1 para sus compañeros este turno"
            f" («bono {cmd.quote(c.name)} a COMPAÑERO», uno por tirada)"
        )
    if maneuver == LEAVE_DUEL and c.duel is not None:
        fight = _end_duel(fight, c, f"{c.name} abandona el duelo")
    return fight


def _end_duel(fight: Fight, c: Combatant, reason: str) -> Fight:
    """Both duelists lose `en-duelo`; their start moments stay (initiative is not rerolled)."""
    changed = []
    partner = fight.find(c.duel) if c.duel else None
    for who in (c, partner):
        if who is None:
            continue
        who = fight.find(who.name)
        changed.append(evolve(
            who, duel=None, conditions=tuple(x for x in who.conditions if x != DUEL)
        ))
    other = f" y {partner.name}" if partner is not None else ""
    return fight.replace(*changed).note(f"{reason}: {c.name}{other} dejan de estar en duelo")


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
    target: str | None = None,
    degree: int | None = None,
) -> Fight:
    """Spend `cost` AC at the current moment; carry what does not fit."""
    moment = fight.moment
    assert moment is not None
    if c.key in fight.mounts:
        return _spend_mount(fight, c, cost, label, maneuver=maneuver, reaction=reaction,
                            target=target)
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
    finished = cost <= c.ac
    if finished:
        ac = c.ac - cost
        marker = start_from - cost
        c = evolve(c, ac=ac, marker=marker, acting=False, trigger=None, arrival=tick,
                   status=Status.DONE if ac == 0 else Status.ACTED)
        text = f"{c.name}: {label}{kind} ({cost} AC) → momento {marker}"
    else:
        invested = c.ac
        marker = start_from - invested
        owed = cost - invested
        c = evolve(
            c, ac=0, marker=marker, acting=False, trigger=None, arrival=tick,
            status=Status.DONE,
            carried=Carried(
                maneuver.id if maneuver else "gasta", label, owed, attack=attack, aim=aim,
                target=target, degree=degree,
            ),
        )
        text = (f"{c.name}: {label} ({cost} AC), invierte {invested} y le faltan {owed}"
                f" → momento {marker} (la completa el turno siguiente)")
    c = evolve(
        c,
        moved_this_turn=c.moved_this_turn or moves,
        recon_this_turn=c.recon_this_turn or (maneuver is not None and maneuver.id == "reconocimiento"),
    ).with_stop(start_from, label)
    fight = fight.replace(c).note(text)
    if finished:
        fight = _finished(
            fight, c, maneuver.id if maneuver else None, attack=attack, aim=aim,
            target=target, degree=degree, reaction=reaction,
        )
    return fight


def _spend_mount(
    fight: Fight,
    c: Combatant,
    cost: int,
    label: str,
    *,
    maneuver: Maneuver | None,
    reaction: bool,
    target: str | None,
) -> Fight:
    """A mount spends its own AC but stays at its rider's marker (it acts at the rider's
    moment, 000 "Carga con Montura"); it never leaves a maneuver for next turn."""
    rider = fight.rider_of(c)
    assert rider is not None
    if cost > c.ac:
        raise Refusal(
            f"{c.name} (montura de {rider.name}) no tiene AC para {label} (le quedan {c.ac},"
            f" cuesta {cost}): una montura no deja maniobras para el turno siguiente"
        )
    if c.carried is not None:
        fight = fight.note(
            f"{c.name} abandona {c.carried.label}: pierde los AC invertidos el turno anterior",
            warning=True,
        )
    ac = c.ac - cost
    c = evolve(
        c, ac=ac, carried=None, acting=False, trigger=None,
        status=Status.DONE if ac == 0 else Status.ACTED,
        maneuvers=(*c.maneuvers, label),
        moved_this_turn=c.moved_this_turn or (maneuver is not None and maneuver.moves),
    )
    kind = ", reacción" if reaction else ""
    fight = fight.replace(c).note(
        f"{c.name}: {label}{kind} ({cost} AC, montura de {rider.name}: sigue su momento)"
        f" → le quedan {ac} AC"
    )
    return _finished(
        fight, c, maneuver.id if maneuver else None,
        attack=maneuver is not None and maneuver.attack, aim=maneuver is not None and maneuver.aim,
        target=target, reaction=reaction,
    )


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
    if not 0 <= command.members <= 9999:
        raise Refusal(f"miembros= entre 1 y 9999 (pedido: {command.members})")
    if command.toughness != 1 and not command.members:
        raise Refusal("aguante= es el daño que inutiliza a un miembro de una Horda: va con miembros=N")
    if not 1 <= command.toughness <= 99:
        raise Refusal(f"aguante= entre 1 y 99 (pedido: {command.toughness})")
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
        members=command.members,
        toughness=command.toughness,
    )
    fight = evolve(fight, combatants=(*fight.combatants, combatant))
    group = ""
    if command.members:
        group = (f", grupo de {command.members}: una columna, una tirada; cada {command.toughness}"
                 " de daño inutiliza a un miembro")
    fight = fight.note(f"Alta de {name} ({command.side.upper() if command.side in ('pj', 'pnj') else command.side}, {command.ac} AC{group})")
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
    if c.duel is not None:
        fight = _end_duel(fight, c, f"Baja de {c.name}")
    rider = fight.rider_of(c)
    if rider is not None:
        fight = fight.replace(_unmounted(rider)).note(f"{rider.name} se queda sin montura")
    fight = evolve(fight, combatants=tuple(x for x in fight.combatants if x.key != c.key))
    return _settle(fight.note(f"Baja de {c.name}"))


def _check_start_allowed(fight: Fight, c: Combatant) -> None:
    _refuse_mount(fight, c, "tener momento inicial propio")
    if c.duel is not None:
        raise Refusal(
            f"{c.name} está en duelo con {c.duel}: en un duelo no se tira Iniciativa, se actúa"
            f" en la INI (con Duelista, «duelo {cmd.quote(c.name)} {cmd.quote(c.duel)}"
            f" {cmd.quote(c.name)}+N»)"
        )
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
        mounts = fight.mounts  # a mount takes its rider's moment
        who = [c for c in fight.combatants if c.start is None and c.key not in mounts]
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
    mounts = fight.mounts
    missing = [c.name for c in fight.combatants if c.start is None and c.key not in mounts]
    if missing:
        raise Refusal(f"Falta el momento inicial de {', '.join(missing)}: usa «momento» o «tirar»")
    return _start_turn(fight, 1)


def _start_turn(fight: Fight, turn: int) -> Fight:
    fresh = []
    for c in fight.combatants:
        if c.leadership > 0:
            fight = fight.note(
                f"Caduca el Liderazgo de {c.name}: {c.leadership} bono(s) sin repartir al acabar el turno"
            )
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
            targets=(),
            leadership=0,
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
    previous = fight.moment
    fight = evolve(fight, combatants=tuple(fresh), turn=turn, moment=None, actor=None)
    fight = fight.note(f"— Turno {turn} —")
    top = _next_moment(fight)
    if top is None:  # nobody can act (all out, or nobody left): the count still stands somewhere
        starts = [c.start for c in fight.in_play]
        top = max(starts) if starts else (previous if previous is not None else 0)
        fight = evolve(fight, moment=top)
        return _settle(fight)
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
    rider = fight.rider_of(c)
    if rider is not None:
        if not _rider_present(fight, rider, now=True):
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
        maneuver = catalog_for(fight).get(command.maneuver)
        refusal = maneuver.refusal(c)  # talent-only maneuvers (RULES.md §4)
        if refusal is not None:
            raise Refusal(refusal)
        cost = maneuver.cost_for(c, command.amount)
        label = maneuver.name
    _check_cost(c, cost, label)
    target = _check_target(fight, c, maneuver, command.target)
    _check_degree(fight, c, maneuver, command.degree)
    if target is not None:
        label = f"{label} a {target}"
    if maneuver is not None and maneuver.reaction and not interrupt:
        return _settle(_react(fight, c, maneuver, cost, label, target))
    _in_turn(fight, c, label)
    if c.status is Status.WAITING and not interrupt:
        interrupt = True
    if maneuver is not None:
        _check_maneuver_rules(fight, c, maneuver, cost)
    if interrupt:
        fight = fight.note(f"{c.name} interrumpe: {c.trigger or 'lo que esperaba'}")
    fight = _maneuver_notes(fight, c, maneuver)
    return _settle(_spend(fight, c, cost, label, maneuver=maneuver, target=target,
                          degree=command.degree))


def _check_target(
    fight: Fight, c: Combatant, maneuver: Maneuver | None, name: str | None
) -> str | None:
    """The target's name as the roster spells it, or a refusal (RULES.md §4)."""
    if name is None:
        return None
    label = maneuver.name if maneuver is not None else "Otra acción"
    if maneuver is None or not maneuver.attack:
        raise Refusal(f"{label} no es una maniobra de ataque: no lleva blanco («a NOMBRE»)")
    target = fight.find(name)
    if target is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate: {c.name} no puede atacarle")
    if target.key == c.key:
        raise Refusal(f"{c.name} no puede ser su propio blanco")
    if (c.duel is not None and fold(c.duel) != fold(target.name)
            and not maneuver.reaction):
        raise Refusal(
            f"{c.name} está en duelo con {c.duel}: para atacar a {target.name} antes debe"
            f" abandonar el duelo («{cmd.quote(c.name)} {LEAVE_DUEL}», 3 AC)"
        )
    return target.name


def _check_degree(fight: Fight, c: Combatant, maneuver: Maneuver | None, degree: int | None) -> None:
    """Liderazgo's degree of success: one leader per side (000 "Liderazgo")."""
    if degree is None:
        return
    if maneuver is None or maneuver.id != LEADERSHIP:
        raise Refusal("Solo Liderazgo lleva Grado de Éxito («NOMBRE liderazgo gde=N»)")
    if not 0 <= degree <= 20:
        raise Refusal(
            f"Grado de Éxito de Liderazgo entre 0 y 20 (pedido: {degree}); si la tirada"
            f" no llega a 9 no hay bonos: «{cmd.quote(c.name)} {LEADERSHIP}» sin número"
        )
    rival = next(
        (x for x in fight.combatants if x.side == c.side and x.key != c.key and x.leadership > 0),
        None,
    )
    if rival is not None:
        raise Refusal(
            f"Un líder por bando: {rival.name} ya lidera a los suyos este turno"
            f" (le quedan {rival.leadership} bonos)"
        )


def _maneuver_notes(fight: Fight, c: Combatant, maneuver: Maneuver | None) -> Fight:
    """Reminders the book ties to a maneuver: mounted charges, duels, shooting mounted."""
    if maneuver is None:
        return fight
    if maneuver.id == MOUNTED_CHARGE and c.mount is None:
        fight = fight.note(
            f"Aviso: {c.name} no está montado (usa «monta {cmd.quote(c.name)} MONTURA»):"
            " en la Carga con Montura es la montura la que gasta las AC del movimiento",
            warning=True,
        )
    if maneuver.id == MOUNTED_CHARGE and c.mount is not None:
        fight = fight.note(
            f"{c.mount} gasta ahora, en el momento de {c.name}, las AC de lo que mueva"
            f" («{cmd.quote(c.mount)} mover N»)"
        )
    if maneuver.id == LEAVE_DUEL and c.duel is None:
        fight = fight.note(f"Aviso: {c.name} no está en duelo: abandonarlo no tiene efecto", warning=True)
    if maneuver.attack and c.mount is not None and maneuver.group == RANGED_GROUP:
        fight = fight.note(f"{c.name} dispara desde una montura: −2 a la tirada (Combate montado)")
    return fight


def _react(
    fight: Fight, c: Combatant, maneuver: Maneuver, cost: int, label: str, target: str | None
) -> Fight:
    _check_can_maneuver(fight, c)
    _check_maneuver_rules(fight, c, maneuver, cost)
    verb = maneuver.name.lower()
    if c.status is Status.DONE and c.ac > 0:
        raise Refusal(f"{c.name} ha declinado este turno: no puede {verb}")
    if c.ac < cost:
        raise Refusal(
            f"{c.name} no tiene AC para {verb} (le quedan {c.ac}, cuesta {cost})"
        )
    return _spend(fight, c, cost, label, maneuver=maneuver, reaction=True, target=target)


def _rider_present(fight: Fight, rider: Combatant, *, now: bool = False) -> bool:
    """Whether a rider's mount may still act this turn: the rider acts now or later, or
    its maneuver is the last thing that happened (the mount moves right after its
    rider's order, even once the countdown has moved on).  `now`: only at the rider's
    moment or right after its maneuver (for the mount's own maneuvers)."""
    acted_last = bool(rider.stops) and rider.arrival == fight.clock
    if fight.quick:  # no moments: the mount acts during its rider's go
        return rider.name == fight.actor or acted_last or (not now and rider.status in ACTIVE)
    if now:
        return acted_last or (rider.status in ACTIVE and (
            rider.status in FOLLOWING or rider.marker == fight.moment
        ))
    return rider.status in ACTIVE or acted_last


def _refuse_mount(fight: Fight, c: Combatant, what: str) -> None:
    rider = fight.rider_of(c)
    if rider is not None:
        raise Refusal(f"{c.name} es la montura de {rider.name}: actúa con su jinete, no puede {what}")


def _hold(fight: Fight, command: cmd.Hold) -> Fight:
    _refuse_in_quick(fight, "retrasar la acción")
    c = _get(fight, command.name)
    _refuse_mount(fight, c, "retrasar la acción")
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
    _refuse_mount(fight, c, "quedarse a la espera")
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
    if condition == DUEL:
        if command.on:
            raise Refusal(
                f"Un duelo es entre dos: empiézalo con «duelo {cmd.quote(c.name)} RIVAL»"
            )
        if c.duel is None:
            raise Refusal(f"{c.name} no está en duelo")
        return _settle(_end_duel(fight, c, "El DJ termina el duelo"))
    if condition == MOUNTED:
        if command.on:
            raise Refusal(
                f"Para montar hace falta la montura: «monta {cmd.quote(c.name)} MONTURA»"
            )
        return _dismount(fight, cmd.Dismount(c.name))
    if condition == NO_MEMBERS and command.on and not c.is_group:
        raise Refusal(f"{c.name} no es un grupo (Horda): usa «moribundo» para dejarle fuera")
    if command.on:
        if c.has(condition):
            raise Refusal(f"{c.name} ya está {condition}")
        if condition == SURPRISED:
            if fight.turn > 1 or (fight.started and c.status is not Status.READY):
                raise Refusal("La sorpresa solo vale en el primer turno, antes de que actúe")
        c = evolve(c, conditions=(*c.conditions, condition))
        fight = fight.note(f"{c.name}: +{condition}" + (f" ({COVER_NOTE})" if condition == COVER else ""))
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
    if command.shots is not None and not c.is_group:
        raise Refusal(f"balas= solo cuenta contra una Horda (alta … miembros=N): {c.name} no lo es")
    if command.shots is not None and not 0 <= command.shots <= 999:
        raise Refusal(f"balas= entre 0 y 999 (pedido: {command.shots})")
    if c.has(COVER):
        fight = fight.note(f"{c.name} está a cubierto: {COVER_NOTE}")
    if c.is_group:
        return _damage_group(fight, c, command)
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


def _damage_group(fight: Fight, c: Combatant, command: cmd.Damage) -> Fight:
    """Hordas (000 "Combate de Masas"): each `toughness` of Daño Total puts one member out,
    at most one per projectile; no boxes are marked. With none left the group is out."""
    total = command.amount - command.rd
    lost = max(total, 0) // c.toughness
    cap = ""
    if command.shots is not None and lost > command.shots:
        lost, cap = command.shots, f", máximo {command.shots} por las balas"
    lost = min(lost, c.members)
    members = c.members - lost
    c = evolve(c, members=members)
    fight = fight.note(
        f"{c.name}: {lost} miembro(s) inutilizado(s) (daño {command.amount} − RD {command.rd},"
        f" {c.toughness} por miembro{cap}) → quedan {members}"
    )
    if members == 0 and not c.has(NO_MEMBERS):
        c = evolve(c, conditions=(*c.conditions, NO_MEMBERS))
        if c.status is not Status.OUT:
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None, carried=None)
        fight = fight.note(f"{c.name} se queda sin miembros: fuera de combate", warning=True)
    return _settle(fight.replace(c))


def _heal(fight: Fight, command: cmd.Heal) -> Fight:
    """Remove marked boxes, the worst first (CdB "Curación": a roll heals 1 PV + 1 per
    degree of success, always from the highest category). Allowed in a fight too:
    Primeros Auxilios "puede ser usado en combate"."""
    c = _get(fight, command.name)
    if c.is_group:
        raise Refusal(f"{c.name} es una Horda: el daño le quita miembros, no marca casillas")
    if not 1 <= command.amount <= 99:
        raise Refusal(f"Casillas a curar entre 1 y 99 (pedido: {command.amount})")
    track = c.fatigue if command.fatigue else c.wounds
    what = "fatiga" if command.fatigue else "heridas"
    if track.count == 0:
        raise Refusal(f"{c.name} no tiene casillas de {what} marcadas")
    healed = min(command.amount, track.count)
    track = track.heal(healed)
    c = evolve(c, fatigue=track) if command.fatigue else evolve(c, wounds=track)
    names = FATIGUE_CATEGORIES if command.fatigue else WOUND_CATEGORIES
    now = "sin marcar" if track.category is None else names[track.category]
    text = f"{c.name}: cura {healed} casilla(s) de {what} → {now}"
    if c.status is Status.OUT and not is_out(c):
        c = evolve(c, status=Status.DONE)
        text += " (vuelve a actuar el turno siguiente)"
    return _settle(fight.replace(c).note(text))


def _rest(fight: Fight, command: cmd.Rest) -> Fight:
    """After the battle the Rasguños are wiped (CdB "Curación": "Los Rasguños suelen
    borrarse tras una batalla, siempre que dispongan de cinco o diez minutos")."""
    if fight.started and not fight.turn_over:
        raise Refusal(
            "Los Rasguños se borran tras la batalla, con cinco o diez minutos para atenderlos:"
            " termina antes el turno (todos «fin»)"
        )
    changed = [
        evolve(c, wounds=c.wounds.clear_first())
        for c in fight.combatants if c.wounds.clear_first() != c.wounds
    ]
    if not changed:
        raise Refusal("Nadie tiene Rasguños que borrar")
    return fight.replace(*changed).note(
        "Descanso tras la batalla: se borran los Rasguños de "
        + ", ".join(c.name for c in changed)
        + " (las heridas peores se curan con «curar NOMBRE N»)"
    )


def _bonus(fight: Fight, command: cmd.Bonus) -> Fight:
    """A leader hands one +1 of its pool to a companion's next roll (000 "Liderazgo":
    "solo se puede gastar un +1 en cada tirada", announced before the roll)."""
    _require_started(fight)
    leader, target = _get(fight, command.leader), _get(fight, command.target)
    if leader.leadership <= 0:
        raise Refusal(
            f"{leader.name} no tiene bonos de Liderazgo este turno (con la tirada superada:"
            f" «{cmd.quote(leader.name)} {LEADERSHIP} gde=N», N = Grado de Éxito)"
        )
    if leader.status is Status.OUT or is_incapacitated(leader):
        raise Refusal(f"{leader.name} no está en condiciones de dar órdenes")
    if target.key == leader.key:
        raise Refusal(f"El Liderazgo apoya a un compañero: {leader.name} no puede darse el bono")
    if target.side != leader.side:
        raise Refusal(f"{target.name} no es del bando de {leader.name}: el bono es para un compañero")
    if target.status is Status.OUT:
        raise Refusal(f"{target.name} está fuera de combate")
    if target.lead_bonus:
        raise Refusal(f"Solo un +1 de Liderazgo por tirada: {target.name} ya tiene uno para la próxima")
    leader = evolve(leader, leadership=leader.leadership - 1)
    target = evolve(target, lead_bonus=1)
    return fight.replace(leader, target).note(
        f"{leader.name} apoya a {target.name}: +1 a su próxima tirada"
        f" (le quedan {leader.leadership} bono(s))"
    )


def _duel(fight: Fight, command: cmd.Duel) -> Fight:
    """Duelos (000, optional rule): no initiative roll, each acts at its INI; with Duelista
    the winner of Averiguar Intenciones (vs 9) adds its degree of success."""
    a, b = _get(fight, command.first), _get(fight, command.second)
    if a.key == b.key:
        raise Refusal("Un duelo es entre dos combatientes distintos")
    for c, other in ((a, b), (b, a)):
        _refuse_mount(fight, c, "batirse en duelo")
        if c.duel is not None and fold(c.duel) != fold(other.name):
            raise Refusal(f"{c.name} ya está en duelo con {c.duel}")
    bonus = {a.key: 0, b.key: 0}
    if command.winner is not None and command.degree:
        winner = _get(fight, command.winner)
        if winner.key not in bonus:
            raise Refusal(f"{winner.name} no está en este duelo")
        if not winner.has_talent(DUELIST):
            raise Refusal(
                f"Solo con el talento Duelista se suma el Grado de Éxito a la INI:"
                f" {winner.name} no lo tiene"
            )
        if not 1 <= command.degree <= 20:
            raise Refusal(f"Grado de Éxito del duelo entre 1 y 20 (pedido: {command.degree})")
        bonus[winner.key] = command.degree
    parts = []
    for c, other in ((a, b), (b, a)):
        start = c.ini + bonus[c.key]
        if not -99 <= start <= 99:
            raise Refusal(f"Momento inicial fuera de rango: {start}")
        conditions = c.conditions if c.has(DUEL) else (*c.conditions, DUEL)
        c = evolve(c, duel=other.name, conditions=conditions)
        if fight.started and c.start is None:
            fight = _place(fight.replace(c), c, start)
        elif fight.started and c.marker is not None and c.marker > start:
            # mid-fight: from now on it acts at its INI (a marker already below stays)
            fight = fight.replace(evolve(c, start=start, marker=start))
        else:
            fight = fight.replace(evolve(c, start=start))
        how = f"INI {c.ini}" + (f" + {bonus[c.key]} de Grado de Éxito" if bonus[c.key] else "")
        parts.append(f"{c.name} en el momento {start} ({how})")
    fight = fight.note(
        f"Duelo entre {a.name} y {b.name}: no tiran Iniciativa; actúan "
        + " y ".join(parts)
        + f". Salir del duelo cuesta 3 AC («NOMBRE {LEAVE_DUEL}»)"
    )
    return _settle(fight)


def _unmounted(rider: Combatant) -> Combatant:
    return evolve(rider, mount=None, conditions=tuple(x for x in rider.conditions if x != MOUNTED))


def _mount(fight: Fight, command: cmd.Mount) -> Fight:
    """Combate montado (000): the mount acts at its rider's moment ("por simplificar
    actúa en el mismo Momento de Iniciativa que su jinete"), spending its own AC."""
    rider, mount = _get(fight, command.rider), _get(fight, command.mount)
    if rider.key == mount.key:
        raise Refusal(f"{rider.name} no puede montarse a sí mismo")
    if rider.mount is not None:
        raise Refusal(f"{rider.name} ya monta a {rider.mount}: primero «desmonta {cmd.quote(rider.name)}»")
    carrier = fight.rider_of(mount)
    if carrier is not None:
        raise Refusal(f"{mount.name} ya lleva a {carrier.name}")
    if fight.rider_of(rider) is not None:
        raise Refusal(f"{rider.name} es una montura: no puede montar a otro")
    if mount.mount is not None:
        raise Refusal(f"{mount.name} va montado en {mount.mount}: no puede ser montura")
    if mount.duel is not None:
        raise Refusal(f"{mount.name} está en duelo: no puede ser montura")
    if mount.status is Status.OUT or is_out(mount):
        raise Refusal(f"{mount.name} está fuera de combate: no puede llevar jinete")
    if fight.started and rider.start is None:
        raise Refusal(
            f"{rider.name} no tiene momento inicial: primero «momento {cmd.quote(rider.name)} N»"
            " (la montura toma el de su jinete)"
        )
    if mount.carried is not None:
        fight = fight.note(f"{mount.name} abandona {mount.carried.label}", warning=True)
        mount = evolve(mount, carried=None)
        fight = fight.replace(mount)
    rider = evolve(rider, mount=mount.name, conditions=(*rider.conditions, MOUNTED))
    fight = fight.replace(rider).note(
        f"{rider.name} monta a {mount.name}: la montura actúa en el momento de su jinete y"
        " gasta sus propias AC; cuerpo a cuerpo, + Modificador al Daño por la Escala de la"
        " montura; disparar desde la montura: −2"
    )
    return _settle(_sync_mounts(fight))


def _dismount(fight: Fight, command: cmd.Dismount) -> Fight:
    rider = _get(fight, command.rider)
    if rider.mount is None:
        raise Refusal(f"{rider.name} no va montado")
    mount = fight.find(rider.mount)
    fight = fight.replace(_unmounted(rider)).note(
        f"{rider.name} desmonta de {rider.mount}"
        + (f": {mount.name} vuelve a actuar por su cuenta" if mount is not None else "")
    )
    return _settle(fight)


def _sync_mounts(fight: Fight) -> Fight:
    """Every mount sits at its rider's start and marker; once its rider has nothing left
    to do this turn, neither has the mount."""
    changed = []
    for rider in fight.combatants:
        if rider.mount is None:
            continue
        mount = fight.find(rider.mount)
        if mount is None:
            continue
        if fight.started and rider.start is None:
            continue  # refused by «monta»; nothing to follow yet
        new = evolve(mount, start=rider.start)
        if fight.started:
            if mount.start is None and mount.status is not Status.OUT:  # joins with its rider
                new = evolve(new, ac=mount.budget(fight.turn), status=Status.READY)
            marker = rider.marker
            if fight.moment is not None and marker is not None and not fight.quick:
                marker = min(marker, fight.moment)  # never ahead of the countdown
            new = evolve(new, marker=marker)
            if new.status in FOLLOWING:
                new = evolve(new, status=Status.ACTED if new.stops or new.maneuvers else Status.READY,
                             acting=False, trigger=None)
            if new.status in ACTIVE and not _rider_present(fight, rider):
                new = evolve(new, status=Status.DONE, ac=0)  # its rider's turn is over
        if new != mount:
            changed.append(new)
    return fight.replace(*changed) if changed else fight


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


def _house_rules(fight: Fight, command: cmd.HouseRules) -> Fight:
    """Set (or drop) the fight's house rules; a carried maneuver must still exist."""
    after = evolve(fight, house=command.text)
    book = catalog_for(after)
    for c in fight.combatants:
        if c.carried is not None and c.carried.maneuver not in {m.id for m in book.maneuvers}:
            raise Refusal(f"{c.name} tiene pendiente «{c.carried.label}», que sin esas reglas"
                          " de la casa no existe: que la complete o la abandone antes")
    if not command.text:
        return after.note("Sin reglas de la casa: el catálogo del libro")
    base = {m.id: m for m in catalog(fight.rules).maneuvers}
    added = [m.name for m in book.maneuvers if m.id not in base]
    changed = [m.name for m in book.maneuvers if m.id in base and m != base[m.id]]
    parts = []
    if added:
        parts.append("nuevas: " + ", ".join(added))
    if changed:
        parts.append("cambiadas: " + ", ".join(changed))
    return after.note("Reglas de la casa · " + ("; ".join(parts) or "sin cambios"))


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
    cmd.Heal: _heal,
    cmd.Rest: _rest,
    cmd.Bonus: _bonus,
    cmd.Duel: _duel,
    cmd.Mount: _mount,
    cmd.Dismount: _dismount,
    cmd.HouseRules: _house_rules,
}


def apply(fight: Fight, command: cmd.Command) -> Fight:
    """The fight after `command`, or `Refusal` (and the fight is unchanged)."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Refusal(f"Orden desconocida: {command!r}")
    after = _sync_mounts(handler(fight, command))
    if after.turn_over and not fight.turn_over:
        after = after.note(f"Fin del turno {after.turn}: todos han terminado (usa «turno»)")
    return after


def new_fight(name: str = "Combate", rules: str = "cdb", seed: int = 0) -> Fight:
    """An empty fight; `rules` must name a known catalog."""
    catalog(rules)
    return Fight(name=name, rules=rules, seed=seed).note(
        f"Combate «{name}» ({RULES_ES[rules]})"
    )
