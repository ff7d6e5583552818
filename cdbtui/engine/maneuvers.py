"""Maneuvers (RULES.md §3 "Spending", "Reactions", "Wait"; §4): `cmd.Perform` and
`cmd.Trigger`.

Owns doing a catalog maneuver or a free action (`gasta N`) at one's moment, a
reaction outside it (`_react`), a waiter's interruption, the checks on a target and on
Liderazgo's degree of success, and the reminders the book ties to a maneuver (mounted
charges, leaving a duel, shooting from a mount).  The spending itself is in
`spending.py`.  The checks of a reaction and of an interruption are public
(`check_react`, `check_reaction_fits`, `check_interrupt`): `options` asks them too.
`chosen_maneuver` is the one place a typed maneuver id becomes a catalog row (a book
name shared by two talents resolved by the combatant's talent, RULES.md §4).
"""

from __future__ import annotations

from . import commands as cmd
from .catalog import Maneuver, catalog_for
from .countdown import get_combatant, require_started
from .errors import Refusal
from .model import DUEL, MOUNTED, Combatant, Fight, LogKind, Status
from .spending import (
    BLOCKS,
    LEADERSHIP,
    LEAVE_DUEL,
    check_can_maneuver,
    check_cost,
    check_maneuver_rules,
    spend_ac,
    completes_now,
)
from .text import fold
from .turn import in_turn

#: Catalog id and group the maneuver reminders look for.
MOUNTED_CHARGE = "carga-con-montura"
RANGED_GROUP = "A distancia"


def _waited_for(fight: Fight, c: Combatant) -> tuple:
    """Who the trigger named when `c` started waiting (this turn's entry): the
    interruption repeats the trigger's words, so it names them too, even if one has
    left the fight since (a hidden one must stay hidden from players)."""
    opening = f"{c.name} se queda a la espera de: "
    for entry in reversed(fight.log):
        if entry.turn != fight.turn:
            break
        if entry.text.startswith(opening):
            return tuple(m for m in entry.about if m.name != c.name)
    return ()


def chosen_maneuver(fight: Fight, command: cmd.Perform) -> Maneuver | None:
    """The catalog maneuver `command` does (None: a free action), or `Refusal`.

    The one place where a book name shared by two talents is resolved (RULES.md §4
    "One book name, two talents"): `bloqueo` typed by a Maestro de Esgrima is his
    Bloqueo; with both talents it is refused, listing the two ids (`Catalog.resolve`).
    `rules.apply` asks it too (`is_reaction`), so the reaction window sees the same
    maneuver the handler does."""
    if command.maneuver is None:
        return None
    return catalog_for(fight).resolve(command.maneuver, fight.find(command.name))


def is_reaction(fight: Fight, command: cmd.Perform) -> bool:
    """Whether `command` is a reaction (declared outside one's moment, RULES.md §3)."""
    try:
        maneuver = chosen_maneuver(fight, command)
    except Refusal:
        return False  # the handler refuses it
    return maneuver is not None and maneuver.reaction


def _perform(fight: Fight, command: cmd.Perform, *, interrupt: bool = False) -> Fight:
    require_started(fight)
    c = get_combatant(fight, command.name)
    maneuver: Maneuver | None = None
    if command.maneuver is None:
        if command.amount is None:
            raise Refusal("«gasta» necesita un número de AC")
        cost = command.amount
        label = command.text or "Otra acción"
    else:
        maneuver = chosen_maneuver(fight, command)
        refusal = maneuver.refusal(c)  # talent-only maneuvers (RULES.md §4)
        if refusal is not None:
            raise Refusal(refusal)
        cost = maneuver.cost_for(c, command.amount)
        label = maneuver.name
    check_cost(c, cost, label)
    target = _check_target(fight, c, maneuver, command.target)
    _check_degree(fight, c, maneuver, command.degree)
    if target is not None:
        label = f"{label} a {target}"
    if maneuver is not None and maneuver.reaction and not interrupt:
        return _react(fight, c, maneuver, cost, label, target)
    in_turn(fight, c, label)
    if c.status is Status.WAITING and not interrupt:
        interrupt = True
    check_maneuver_rules(fight, c, maneuver, cost)  # a free action too: pinned (RULES.md §4)
    if interrupt:
        fight = fight.note(f"{c.name} interrumpe: {c.trigger or 'lo que esperaba'}",
                           kind=LogKind.ACTION, about=[c.name, *_waited_for(fight, c)],
                           free=c.trigger)
    fight = _maneuver_notes(fight, c, maneuver)
    return spend_ac(fight, c, cost, label, maneuver=maneuver, target=target,
                    degree=command.degree)


def _check_target(
    fight: Fight, c: Combatant, maneuver: Maneuver | None, name: str | None
) -> str | None:
    """The target's name as the roster spells it, or a refusal (RULES.md §4)."""
    if name is None:
        return None
    label = maneuver.name if maneuver is not None else "Otra acción"
    # A block names the attacker it blocked (spending.BLOCKS), an attack or not (the
    # Maestro de Esgrima's Bloqueo is a reaction, not an attack maneuver: RULES.md §4).
    if maneuver is None or not (maneuver.attack or maneuver.id in BLOCKS):
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
    if maneuver.id == MOUNTED_CHARGE and c.mount is None and not c.has(MOUNTED):
        fight = fight.note(
            f"Aviso: {c.name} no está montado (usa «monta {cmd.quote(c.name)} MONTURA»):"
            " en la Carga con Montura es la montura la que gasta las AC del movimiento",
            warning=True, kind=LogKind.RULE, about=[c.name],
        )
    if maneuver.id == MOUNTED_CHARGE and c.mount is not None:
        fight = fight.note(
            f"{c.mount} gasta ahora, en el momento de {c.name}, las AC de lo que mueva"
            f" («{cmd.quote(c.mount)} mover N»)",
            kind=LogKind.RULE, about=[c.mount, c.name],
        )
    elif maneuver.id == MOUNTED_CHARGE and c.has(MOUNTED):  # a mount the sheet does not hold
        fight = fight.note(f"La montura de {c.name} gasta ahora, en su momento, las AC de lo que mueva",
                           kind=LogKind.RULE, about=[c.name])
    if maneuver.id == LEAVE_DUEL and c.duel is None and not c.has(DUEL):
        fight = fight.note(f"Aviso: {c.name} no está en duelo: abandonarlo no tiene efecto", warning=True,
                           kind=LogKind.RULE, about=[c.name])
    if maneuver.attack and (c.mount is not None or c.has(MOUNTED)) and maneuver.group == RANGED_GROUP:
        fight = fight.note(f"{c.name} dispara desde una montura: −2 a la tirada (Combate montado)",
                           kind=LogKind.RULE, about=[c.name])
    return fight


def check_react(fight: Fight, c: Combatant, maneuver: Maneuver, cost: int) -> None:
    """Refuse a reaction `c` may not declare now, AC aside (`check_reaction_fits`)."""
    check_can_maneuver(fight, c)
    check_maneuver_rules(fight, c, maneuver, cost)
    if c.status is Status.DONE and c.ac > 0:
        raise Refusal(f"{c.name} ha declinado este turno: no puede {maneuver.name.lower()}")


def check_reaction_fits(c: Combatant, maneuver: Maneuver, cost: int) -> None:
    """A reaction is never carried over: refuse one that costs more than the AC left."""
    if not completes_now(c, cost):
        raise Refusal(
            f"{c.name} no tiene AC para {maneuver.name.lower()} (le quedan {c.ac}): cuesta {cost}"
        )


def check_interrupt(fight: Fight, c: Combatant) -> None:
    """Only a waiter interrupts (RULES.md §3 "Wait")."""
    require_started(fight)
    if c.status is not Status.WAITING:
        raise Refusal(f"{c.name} no está a la espera: no puede interrumpir")


def _react(
    fight: Fight, c: Combatant, maneuver: Maneuver, cost: int, label: str, target: str | None
) -> Fight:
    check_react(fight, c, maneuver, cost)
    check_reaction_fits(c, maneuver, cost)
    return spend_ac(fight, c, cost, label, maneuver=maneuver, reaction=True, target=target)


def _trigger(fight: Fight, command: cmd.Trigger) -> Fight:
    require_started(fight)
    c = get_combatant(fight, command.action.name)
    check_interrupt(fight, c)
    return _perform(fight, command.action, interrupt=True)


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Perform: _perform,
    cmd.Trigger: _trigger,
}
