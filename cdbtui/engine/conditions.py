"""Conditions, damage and healing (RULES.md §5, §6; CdB "Curación").

Owns `cmd.Condition` (a condition gained mid-turn changes the AC left at once),
`cmd.Damage` (Daño − RD as boxes of wounds or fatigue; a Horda loses members instead:
`optional._damage_group`), `cmd.Heal` and `cmd.Rest`.
"""

from __future__ import annotations

import math

from attrs import evolve

from . import commands as cmd
from .countdown import get_combatant, settle
from .errors import Refusal
from .model import (
    ACTIVE,
    COVER,
    DUEL,
    FATIGUE_CATEGORIES,
    GRAPPLED,
    INCAPACITATED,
    MOUNTED,
    NO_MEMBERS,
    OUT_CONDITIONS,
    PINNED,
    SURPRISED,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
    LogKind,
    Status,
)
from .mounts import dismount_rider
from .optional import damage_group
from .queries import is_incapacitated, is_out
from .spending import end_duel
from .text import slug

# Decisions where the book is silent:
# · Healing: `curar` removes the worst boxes first and is allowed in a fight
#   (Primeros Auxilios); `descanso` wipes the Rasguños only between turns.

#: What the book says about cover (Reglas de Cobertura), for the log.
COVER_NOTE = (
    "Reglas de Cobertura: si el impacto da en la parte cubierta, al Daño se le resta"
    " primero la RD de la cobertura y con lo que quede se calcula el Daño Total"
)


def set_condition(fight: Fight, command: cmd.Condition) -> Fight:
    c = get_combatant(fight, command.name)
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
        return settle(end_duel(fight, c, "El DJ termina el duelo"))
    if condition == MOUNTED:
        if command.on:
            raise Refusal(
                f"Para montar hace falta la montura: «monta {cmd.quote(c.name)} MONTURA»"
            )
        return dismount_rider(fight, cmd.Dismount(c.name))
    if condition == NO_MEMBERS and command.on and not c.is_group:
        raise Refusal(f"{c.name} no es un grupo (Horda): usa «moribundo» para dejarle fuera")
    if command.on:
        if c.has(condition):
            raise Refusal(f"{c.name} ya está {condition}")
        if condition == SURPRISED:
            if fight.turn > 1 or (fight.started and c.status is not Status.READY):
                raise Refusal("La sorpresa solo vale en el primer turno, antes de que actúe")
        c = evolve(c, conditions=(*c.conditions, condition))
        fight = fight.note(f"{c.name}: +{condition}" + (f" ({COVER_NOTE})" if condition == COVER else ""),
                           kind=LogKind.CONDITION, about=[c.name], free=condition)
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
            + (" (recupera sus AC el turno siguiente)" if condition in (GRAPPLED, PINNED, SURPRISED) else ""),
            kind=LogKind.CONDITION, about=[c.name], free=condition,
        )
    return settle(fight)


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
    c = get_combatant(fight, command.name)
    total = command.amount - command.rd
    track_name = "fatiga" if command.fatigue else "heridas"
    if command.shots is not None and not c.is_group:
        raise Refusal(f"balas= solo cuenta contra una Horda (alta … miembros=N): {c.name} no lo es")
    if command.shots is not None and not 0 <= command.shots <= 999:
        raise Refusal(f"balas= entre 0 y 999 (pedido: {command.shots})")
    if c.has(COVER):
        fight = fight.note(f"{c.name} está a cubierto: {COVER_NOTE}", kind=LogKind.RULE, about=[c.name])
    if c.is_group:
        return damage_group(fight, c, command)
    if total < 0:
        return fight.note(f"{c.name}: daño {command.amount} − RD {command.rd} < 0, sin efecto",
                          kind=LogKind.DAMAGE, about=[c.name])
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
    fight = fight.note(f"{c.name}: {boxes} casilla(s) de {track_name} (daño {command.amount} − RD {command.rd})",
                       kind=LogKind.DAMAGE, about=[c.name])
    if c.status is not Status.OUT:
        if is_out(c):
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} cae inconsciente: fuera de combate", warning=True,
                               kind=LogKind.CONDITION, about=[c.name])
        elif is_incapacitated(c) and c.status in ACTIVE:
            c = evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} queda incapacitado: no puede hacer maniobras", warning=True,
                               kind=LogKind.CONDITION, about=[c.name])
    return settle(fight.replace(c))


def _heal(fight: Fight, command: cmd.Heal) -> Fight:
    """Remove marked boxes, the worst first (CdB "Curación": a roll heals 1 PV + 1 per
    degree of success, always from the highest category). Allowed in a fight too:
    Primeros Auxilios "puede ser usado en combate"."""
    c = get_combatant(fight, command.name)
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
    return settle(fight.replace(c).note(text, kind=LogKind.HEAL, about=[c.name]))


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
        + " (las heridas peores se curan con «curar NOMBRE N»)",
        kind=LogKind.HEAL, about=[c.name for c in changed],
    )


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Condition: set_condition,
    cmd.Damage: _damage,
    cmd.Heal: _heal,
    cmd.Rest: _rest,
}
