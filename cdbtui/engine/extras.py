"""The sheet's extras beyond the book: the GM swapping two tied combatants
(`cmd.Swap`, RULES.md §3 "Who acts"), a turn's extra targets (`cmd.Targets`, §4),
renaming the fight (`cmd.Rename`) and house rules (`cmd.HouseRules`).
"""

from __future__ import annotations


from . import commands as cmd
from .catalog import catalog, catalog_for
from .countdown import get_combatant, require_started
from .errors import Refusal
from .model import Fight, LogKind, Status, evolve

def _swap(fight: Fight, command: cmd.Swap) -> Fight:
    a, b = get_combatant(fight, command.first), get_combatant(fight, command.second)
    if a.key == b.key:
        raise Refusal("Para cambiar el orden hacen falta dos combatientes distintos")
    if (a.status is Status.READY, a.agi, a.ate, a.skill) != (b.status is Status.READY, b.agi, b.ate, b.skill) or a.status is not b.status:
        raise Refusal(f"{a.name} y {b.name} no están empatados: el orden lo deciden las reglas")
    roster = list(fight.combatants)
    i, j = fight.index(a.name), fight.index(b.name)
    roster[i], roster[j] = roster[j], roster[i]
    return evolve(fight, combatants=tuple(roster)).note(f"El DJ cambia el orden de {a.name} y {b.name}",
                                                        kind=LogKind.ORDER, about=[a.name, b.name])


def _targets(fight: Fight, command: cmd.Targets) -> Fight:
    require_started(fight)
    c = get_combatant(fight, command.name)
    if not 0 <= command.extra <= 20:
        raise Refusal(f"Blancos adicionales entre 0 y 20 (pedido: {command.extra})")
    c = evolve(c, extra_targets=command.extra)
    return fight.replace(c).note(
        f"{c.name}: {command.extra} blanco(s) adicional(es) este turno → −{command.extra} a todo",
        kind=LogKind.RULE, about=[c.name],
    )


def _rename(fight: Fight, command: cmd.Rename) -> Fight:
    title = command.title.strip()
    if not title:
        raise Refusal("El combate necesita un nombre")
    return evolve(fight, name=title).note(f"El combate se llama «{title}»", kind=LogKind.SETUP)


def _house_rules(fight: Fight, command: cmd.HouseRules) -> Fight:
    """Set (or drop) the fight's house rules; a carried maneuver must still exist."""
    after = evolve(fight, house=command.text)
    book = catalog_for(after)
    for c in fight.combatants:
        if c.carried is not None and c.carried.maneuver not in {m.id for m in book.maneuvers}:
            raise Refusal(f"{c.name} tiene pendiente «{c.carried.label}», que sin esas reglas"
                          " de la casa no existe: que la complete o la abandone antes")
    if not command.text:
        return after.note("Sin reglas de la casa: el catálogo del libro", kind=LogKind.RULE)
    base = {m.id: m for m in catalog(fight.rules).maneuvers}
    added = [m.name for m in book.maneuvers if m.id not in base]
    changed = [m.name for m in book.maneuvers if m.id in base and m != base[m.id]]
    parts = []
    if added:
        parts.append("nuevas: " + ", ".join(added))
    if changed:
        parts.append("cambiadas: " + ", ".join(changed))
    return after.note("Reglas de la casa · " + ("; ".join(parts) or "sin cambios"), kind=LogKind.RULE)


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Swap: _swap,
    cmd.Targets: _targets,
    cmd.Rename: _rename,
    cmd.HouseRules: _house_rules,
}
