"""The book's optional rules other than mounts (those are in `mounts.py`).

Owns Duelos (`cmd.Duel`: no initiative roll, each acts at its INI, Duelista adds the
degree of success), the +1 a leader hands out (`cmd.Bonus`, 000 "Liderazgo"; the pool
itself is filled in `spending._finished`, one leader per side is checked in
`maneuvers._check_degree`) and the damage a Horda takes (`damage_group`, 000 "Combate
de Masas", called by `conditions._damage`).
"""

from __future__ import annotations


from . import commands as cmd
from .countdown import get_combatant, place, require_started, settle
from .errors import Refusal
from .model import DUEL, NO_MEMBERS, Combatant, Fight, LogKind, Status, evolve
from .mounts import refuse_mount
from .queries import is_incapacitated
from .spending import LEADERSHIP, LEAVE_DUEL
from .text import fold

# Decisions where the book is silent:
# · Liderazgo: `NAME liderazgo gde=N` sets the pool to 1 + N when the maneuver completes;
#   the pool expires at the end of the turn; a bonus handed out (`bono`) lasts until
#   its receiver's next attack; one leader with a pool per side.
# · Duels: declared mid-turn they take effect at once (a marker above the INI drops to
#   it); leaving one keeps the start moment (initiative is not rerolled).
# · Hordas: each `aguante` of Daño Total puts one member out, at most `balas=N`.

#: Talent that adds the opposed roll's degree of success to a duelist's INI.
DUELIST = "duelista"


def _bonus(fight: Fight, command: cmd.Bonus) -> Fight:
    """A leader hands one +1 of its pool to a companion's next roll (000 "Liderazgo":
    "solo se puede gastar un +1 en cada tirada", announced before the roll)."""
    require_started(fight)
    leader, target = get_combatant(fight, command.leader), get_combatant(fight, command.target)
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
        f" (le quedan {leader.leadership} bono(s))",
        kind=LogKind.RULE, about=[leader.name, target.name],
    )


def _duel(fight: Fight, command: cmd.Duel) -> Fight:
    """Duelos (000, optional rule): no initiative roll, each acts at its INI; with Duelista
    the winner of Averiguar Intenciones (vs 9) adds its degree of success."""
    a, b = get_combatant(fight, command.first), get_combatant(fight, command.second)
    if a.key == b.key:
        raise Refusal("Un duelo es entre dos combatientes distintos")
    for c, other in ((a, b), (b, a)):
        refuse_mount(fight, c, "batirse en duelo")
        if c.duel is not None and fold(c.duel) != fold(other.name):
            raise Refusal(f"{c.name} ya está en duelo con {c.duel}")
    bonus = {a.key: 0, b.key: 0}
    if command.winner is not None and command.degree:
        winner = get_combatant(fight, command.winner)
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
            fight = place(fight.replace(c), c, start)
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
        + f". Salir del duelo cuesta 3 AC («NOMBRE {LEAVE_DUEL}»)",
        kind=LogKind.CONDITION, about=[a.name, b.name],
    )
    return settle(fight)


def damage_group(fight: Fight, c: Combatant, command: cmd.Damage) -> Fight:
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
        f" {c.toughness} por miembro{cap}) → quedan {members}",
        kind=LogKind.DAMAGE, about=[c.name],
    )
    if members == 0 and not c.has(NO_MEMBERS):
        c = evolve(c, conditions=(*c.conditions, NO_MEMBERS))
        if c.status is not Status.OUT:
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None, carried=None)
        fight = fight.note(f"{c.name} se queda sin miembros: fuera de combate", warning=True,
                           kind=LogKind.CONDITION, about=[c.name])
    return fight.replace(c)  # rules.apply settles


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Bonus: _bonus,
    cmd.Duel: _duel,
}
