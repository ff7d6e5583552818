"""Spending AC (RULES.md §3 "Spending", "Carry-over", "Losing a carried maneuver",
"Reactions"; §4 attack count, Apuntar, extra targets, the book's limits on single
maneuvers, grappled and pinned; §6 which spends are melee).

Owns the checks a maneuver passes before it spends (`check_cost`,
`check_can_maneuver`, `check_maneuver_rules`, which includes `check_held` for
Agarrado / Inmovilizado and the catalog's `once_per_turn` / `no_carry`), spending at the current moment
(`spend_ac`; a mount's `_spend_mount`, which keeps its rider's marker), completing a
carried maneuver (`complete_carried`), and what a maneuver does once all its AC are spent
(`_finished`: attack count, aim bonus, the turn's targets, a Bloqueo's −2, Liderazgo's
pool, leaving a duel, `end_duel`).  `completes_now` (do the AC left cover a cost, or
is it carried) and `check_mount_spend` are public: `options` asks them too.  Imports
only `queries` among the rules modules.
"""

from __future__ import annotations


from . import commands as cmd
from .catalog import Maneuver, catalog_for
from .errors import Refusal
from .model import (
    evolve,
    BLOCK_PENALTY,
    DUEL,
    GRAPPLED,
    PINNED,
    SURPRISED,
    Carried,
    Combatant,
    Fight,
    LogKind,
    Role,
    Status,
)
from .queries import is_incapacitated
from .text import fold

# Decisions where the book is silent:
# · Targets: `NAME MANIOBRA [N] a BLANCO` on attacks; the distinct targets named in a
#   turn feed the extra-target penalty; `blancos N` counts the same targets, so the
#   penalty is the larger of the two.  A reaction's target (Bloqueo) is not a target.
# · Bloqueo: «NAME bloqueo a ATACANTE» is a block that worked: −2 on the attacker's next
#   attack, kept across turns until that attack.
# · Melee (RULES.md §6): a combatant spends AC on a melee attack when it begins a maneuver
#   whose catalog row says `melee` (by default the attacks of the groups Cuerpo a cuerpo,
#   Artista Marcial and Maestro de Esgrima, and Carga con Montura), as an action, a
#   reaction (a martial Bloqueo) or an interrupt, or completes a carried one.
# · Grappled and pinned (RULES.md §4), Decision: holding and waiting stay allowed to an
#   Agarrado and an Inmovilizado.  Holding spends nothing and does nothing (not acting at
#   one's moment *is* holding); Quedarse a la Espera is a book "maneuver", but what the
#   waiter does when its trigger comes is checked like any maneuver, so a pinned waiter
#   can only interrupt with Escapar (the AC it pays while waiting are paid to escape at
#   the right moment).  A pinned combatant that is also grappled is only pinned.
# · Once per turn (Esquivar Disparos): what counts is the maneuvers begun this turn
#   (`Combatant.maneuvers`, the labels of this turn's spends).

#: Maneuvers with an effect the engine applies when they finish (catalog ids).
BLOCKS = frozenset({"bloqueo", "bloqueo-artista-marcial", "bloqueo-esgrima"})
LEADERSHIP = "liderazgo"
LEAVE_DUEL = "abandonar-duelo"


def complete_carried(fight: Fight, c: Combatant) -> Fight:
    """Spend the AC still owed by a carried maneuver (RULES.md §3 carry-over)."""
    carried = c.carried
    assert carried is not None and fight.moment is not None
    moment = fight.moment
    finished = completes_now(c, carried.remaining)
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
    c = evolve(c, arrival=tick, melee_this_turn=c.melee_this_turn or _melee(fight, carried.maneuver)
               ).with_stop(moment, f"completa {carried.label}")
    fight = fight.replace(c).note(text, kind=LogKind.ACTION, about=_doer(c, carried.target),
                                  free=carried.label)
    if finished:
        fight = _finished(
            fight, c, carried.maneuver, attack=carried.attack, aim=carried.aim,
            target=carried.target, degree=carried.degree,
        )
    return fight


def _melee(fight: Fight, maneuver_id: str) -> bool:
    """Whether the catalog maneuver `maneuver_id` is a melee attack (a free action is not)."""
    maneuver = next((m for m in catalog_for(fight).maneuvers if m.id == maneuver_id), None)
    return maneuver is not None and maneuver.melee


def _grappled_caution(fight: Fight, c: Combatant, maneuver: Maneuver | None) -> Fight:
    """A maneuver a grappled combatant may do only in some grapples (Puñetazo: "solo si
    le agarran por las piernas"): a warning, so the DJ confirms it (a caution)."""
    if maneuver is None or not maneuver.grappled_caution or not c.has(GRAPPLED):
        return fight
    return fight.note(
        f"Aviso: {c.name} está agarrado: {maneuver.name} {maneuver.grappled_caution}",
        warning=True, kind=LogKind.RULE, about=[c.name],
    )


def _doer(c: Combatant, target: str | None) -> list:
    """The mentions of a maneuver's entry: who spends, and the target it names."""
    return [c.name] if target is None else [c.name, (target, Role.TARGET)]


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
    if attack and reaction:
        # An attack made as a reaction (a martial Bloqueo, Usar la Fuerza del Otro) keeps
        # the Apuntar bonus and a pending Liderazgo bonus (RULES.md §4 "Aim and reactions").
        if c.block_penalty:
            used.append(f"el −{-c.block_penalty} del Bloqueo que sufrió")
        c = evolve(c, attacks=c.attacks + 1, block_penalty=0)
    elif attack:
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
        fight = fight.note(f"{c.name} aplica a esta tirada " + " y ".join(used),
                           kind=LogKind.RULE, about=[c.name])
    if -c.target_penalty > extra_before:
        fight = fight.note(
            f"{c.name} ataca a {len(c.targets)} blancos este turno ({', '.join(c.targets)}):"
            f" −{-c.target_penalty} a todas sus acciones",
            warning=True, kind=LogKind.RULE,
            about=[c.name, *((t, Role.TARGET) for t in c.targets)],
        )
    if maneuver in BLOCKS and target is not None:
        attacker = fight.find(target)
        if attacker is not None:
            fight = fight.replace(evolve(attacker, block_penalty=BLOCK_PENALTY)).note(
                f"Bloqueo de {c.name}: {attacker.name} tiene −{-BLOCK_PENALTY} en su próxima tirada",
                kind=LogKind.RULE, about=[c.name, attacker.name],
            )
    if maneuver == LEADERSHIP and degree is not None:
        pool = 1 + degree
        fight = fight.replace(evolve(c, leadership=pool)).note(
            f"{c.name} lidera: {pool} bono(s) de +1 para sus compañeros este turno"
            f" («bono {cmd.quote(c.name)} a COMPAÑERO», uno por tirada)",
            kind=LogKind.RULE, about=[c.name],
        )
    if maneuver == LEAVE_DUEL and (c.duel is not None or c.has(DUEL)):
        fight = end_duel(fight, c, f"{c.name} abandona el duelo")
    return fight


def end_duel(fight: Fight, c: Combatant, reason: str) -> Fight:
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
    return fight.replace(*changed).note(
        f"{reason}: {c.name}{other} {'dejan' if other else 'deja'} de estar en duelo", kind=LogKind.CONDITION,
        about=[c.name, *([partner.name] if partner is not None else [])],
    )


def completes_now(c: Combatant, cost: int) -> bool:
    """Whether `cost` AC fit in what `c` has left this turn; if not, a maneuver invests
    them all and is completed next turn (RULES.md §3 "Carry-over"), a reaction or a
    mount's maneuver is refused (`check_reaction_fits`, `check_mount_spend`)."""
    return cost <= c.ac


def check_cost(c: Combatant, cost: int, label: str) -> None:
    if cost <= 0:
        raise Refusal(f"{label} debe costar al menos 1 AC (pedido: {cost})")
    if cost > c.ac_per_turn:
        raise Refusal(
            f"{label} cuesta {cost} AC y {c.name} solo tiene {c.ac_per_turn} por turno:"
            " ningún turno puede con ella"
        )


def check_can_maneuver(fight: Fight, c: Combatant) -> None:
    if c.marker is None or c.start is None:
        raise Refusal(f"{c.name} no tiene momento inicial: usa «momento {c.name} N» o «tirar»")
    if c.status is Status.OUT:
        raise Refusal(f"{c.name} está fuera de combate")
    if is_incapacitated(c):
        raise Refusal(f"{c.name} está incapacitado: no puede hacer maniobras")


def check_maneuver_rules(fight: Fight, c: Combatant, maneuver: Maneuver | None, cost: int) -> None:
    """The book's rules on what `c` may do now (`maneuver` None: a free action), AC
    aside: grappled and pinned, once per turn, never carried, Apuntar (RULES.md §4)."""
    check_held(fight, c, maneuver)
    if maneuver is None:
        return
    if maneuver.once_per_turn and _done_this_turn(c, maneuver):
        raise Refusal(
            f"{c.name} ya ha hecho {maneuver.name} este turno: solo se puede una vez por turno"
        )
    if maneuver.no_carry and not completes_now(c, cost):
        raise Refusal(
            f"{c.name} no tiene AC suficientes para {maneuver.name}: necesita {cost} y le quedan"
            f" {c.ac} (solo «siempre que tenga suficientes AC»: no se deja para el turno siguiente)"
        )
    zen = c.has_talent("punteria-zen")
    if maneuver.aim:
        # An Apuntar belongs to the turn it completes: one started with too few AC
        # finishes next turn, so it is allowed after this turn's aim (RULES.md §7).
        if (c.aimed_this_turn and completes_now(c, cost)) or (c.carried is not None and c.carried.aim):
            raise Refusal(f"{c.name} ya ha apuntado este turno: solo se puede Apuntar una vez por turno")
        if c.moved_this_turn and not zen:
            raise Refusal(f"{c.name} ya se ha movido este turno: no puede Apuntar sin Puntería Zen")
    if maneuver.moves and c.aimed_this_turn and not zen:
        raise Refusal(f"{c.name} ha apuntado este turno: no puede moverse sin Puntería Zen")


def check_held(fight: Fight, c: Combatant, maneuver: Maneuver | None) -> None:
    """Agarrado and Inmovilizado (RULES.md §4 "Grappled and pinned"): a pinned
    combatant may only Escapar (no reactions, no free actions); a grappled one may
    also react, spend on a free action, and do the catalog's `while_grappled` ones
    (Escapar, Patada, Puñetazo).  `maneuver` None: a free action."""
    what = f"hacer {maneuver.name}" if maneuver is not None else "gastar AC en otra acción"
    if c.has(PINNED):
        if maneuver is None or not maneuver.while_pinned:
            allowed = _allowed(fight, "while_pinned")
            also = "" if allowed == "Escapar" else f" ({allowed})"
            raise Refusal(
                f"{c.name} está inmovilizado y solo puede hacer maniobras para Escapar{also}:"
                f" no puede {what}"
            )
        return
    if c.has(GRAPPLED) and maneuver is not None and not (
        maneuver.reaction or maneuver.while_grappled
    ):
        allowed = _allowed(fight, "while_grappled")
        raise Refusal(
            f"{c.name} está agarrado: además de reaccionar y gastar AC en otra acción solo"
            f" puede hacer {allowed}; no puede {what}"
        )


def _allowed(fight: Fight, flag: str) -> str:
    """The names of the catalog's maneuvers with `flag` ("Escapar, Patada o Puñetazo")."""
    names = [m.name for m in catalog_for(fight).maneuvers if getattr(m, flag) and m.of is None]
    if not names:
        return "ninguna"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " o " + names[-1]


def _done_this_turn(c: Combatant, maneuver: Maneuver) -> bool:
    """Whether `c` has begun `maneuver` this turn (the labels of its spends: the name,
    or "NAME a BLANCO")."""
    name = maneuver.name
    return any(label == name or label.startswith(f"{name} a ") for label in c.maneuvers)


def spend_ac(
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
            warning=True, kind=LogKind.ACTION, about=_doer(c, c.carried.target),
            free=c.carried.label,
        )
        c = evolve(c, carried=None)
    attack = maneuver is not None and maneuver.attack
    aim = maneuver is not None and maneuver.aim
    moves = maneuver is not None and maneuver.moves
    if attack and c.has(SURPRISED) and fight.turn == 1 and not c.recon_this_turn:
        fight = fight.note(
            f"Aviso: {c.name} está sorprendido y ataca sin Reconocimiento previo", warning=True,
            kind=LogKind.RULE, about=[c.name],
        )
    fight = _grappled_caution(fight, c, maneuver)
    fight, tick = fight.tick()
    kind = ", reacción" if reaction else ""
    if fight.quick:  # no countdown: the line just drops from where it is
        start_from = c.marker
    else:
        start_from = min(c.marker, moment) if reaction else moment
    finished = completes_now(c, cost)
    if finished:
        ac = c.ac - cost
        marker = start_from - cost
        # With Iniciativa Rápida a dodge before one's go keeps that go (RULES.md §3:
        # each spends its AC at once, in start order): it is still to act.
        keeps_go = fight.quick and reaction and c.status is Status.READY and c.name != fight.actor
        c = evolve(c, ac=ac, marker=marker, acting=False, trigger=None, arrival=tick,
                   status=Status.DONE if ac == 0 else (Status.READY if keeps_go else Status.ACTED))
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
        recon_this_turn=c.recon_this_turn or (maneuver is not None and maneuver.recon),
        melee_this_turn=c.melee_this_turn or (maneuver is not None and maneuver.melee),
    ).with_stop(start_from, label)
    fight = fight.replace(c).note(text, kind=LogKind.REACTION if reaction else LogKind.ACTION,
                                  about=_doer(c, target), free=label)
    if finished:
        fight = _finished(
            fight, c, maneuver.id if maneuver else None, attack=attack, aim=aim,
            target=target, degree=degree, reaction=reaction,
        )
    return fight


def check_mount_spend(fight: Fight, c: Combatant, cost: int, label: str) -> None:
    """A mount never leaves a maneuver for next turn: refuse what its AC left don't cover."""
    rider = fight.rider_of(c)
    if rider is not None and not completes_now(c, cost):
        raise Refusal(
            f"{c.name} (montura de {rider.name}) no tiene AC para {label} (le quedan {c.ac},"
            f" cuesta {cost}): una montura no deja maniobras para el turno siguiente"
        )


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
    check_mount_spend(fight, c, cost, label)
    if c.carried is not None:
        fight = fight.note(
            f"{c.name} abandona {c.carried.label}: pierde los AC invertidos el turno anterior",
            warning=True, kind=LogKind.ACTION, about=_doer(c, c.carried.target),
            free=c.carried.label,
        )
    ac = c.ac - cost
    c = evolve(
        c, ac=ac, carried=None, acting=False, trigger=None,
        status=Status.DONE if ac == 0 else Status.ACTED,
        maneuvers=(*c.maneuvers, label),
        moved_this_turn=c.moved_this_turn or (maneuver is not None and maneuver.moves),
        melee_this_turn=c.melee_this_turn or (maneuver is not None and maneuver.melee),
    )
    kind = ", reacción" if reaction else ""
    fight = fight.replace(c).note(
        f"{c.name}: {label}{kind} ({cost} AC, montura de {rider.name}: sigue su momento)"
        f" → le quedan {ac} AC",
        kind=LogKind.REACTION if reaction else LogKind.ACTION,
        about=[*_doer(c, target), (rider.name, Role.TARGET)], free=label,
    )
    return _finished(
        fight, c, maneuver.id if maneuver else None,
        attack=maneuver is not None and maneuver.attack, aim=maneuver is not None and maneuver.aim,
        target=target, reaction=reaction,
    )
