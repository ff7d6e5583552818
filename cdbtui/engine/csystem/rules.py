"""C-System's `apply(fight, command) -> fight` (or `Refusal`), behind the shared
funnel (`engine.rules.apply` dispatches here on `fight.rules == "csystem"`).

The handlers: setting up (alta, arma, iniciativa, tirar, sorpresa, cambiar, orden,
empezar), the go (actions, retrasa, fin, siguiente, turno), and what happens to a
combatant at any time (daño, prompts' answers, curar, energía, aplomo, estados,
munición).  The shared commands (baja, nombre, nota, revelar/ocultar) are CdB's."""

from __future__ import annotations

from collections.abc import Callable

from .. import commands as cmd
from ..conditions import HANDLERS as _CDB_CONDITIONS
from ..errors import Refusal
from ..extras import HANDLERS as _CDB_EXTRAS
from ..limits import MOST_TURNS, check_state
from ..model import evolve, Combatant, Fight, LogKind, mention_of
from . import commands as cs
from .actions import act, the
from .common import (TURNS, acted_now, cond_name, edit, get, log, part, require_started, roll, sheet, stored,
                     with_part)
from .defense import defense
from .budget import combinations, left
from .health import (
    add_condition,
    blocking,
    adjust_composure,
    answer_pain,
    answer_reflex,
    drop_condition,
    heal,
    lose,
    pop_prompt,
    spend_energy,
)
from .model import CsSheet, Weapon
from .order import (change_value, initiative_roll, move_next_to, note_ties, place_by_value, position, resort,
                    sorted_order, swap)
from .tables import CONDITIONS, COVER, condition_info
from .turns import advance, check_actor, end_go, finish, new_turn, replaced, resume


def default_vitality(con: int, level: int) -> int:
    """CON × 4 + 3 × (NH − 1) (Decision §2)."""
    return con * 4 + 3 * (level - 1)


def _add(fight: Fight, command: cs.Add) -> Fight:
    if fight.find(command.name) is not None:
        raise Refusal(f"Ya hay un combatiente llamado «{fight.find(command.name).name}»")
    if command.level < 1:
        raise Refusal("El nivel heroico (nh=) es al menos 1")
    traits = dict(t.partition(":")[::2] for t in command.traits)
    vitality = command.vitality if command.vitality is not None else max(
        default_vitality(command.con, command.level), 1)
    if vitality < 1:
        raise Refusal(f"La Vitalidad de {command.name} debe ser al menos 1 (pv={vitality})")
    s = CsSheet(
        level=command.level, dex=command.dex, alerta=command.alerta, per=command.per, con=command.con,
        wil=command.wil, strength=command.strength, spd=command.spd,
        vitality_max=vitality, vitality=vitality,
        composure_max=command.composure, composure=command.composure,
        energy_max=command.energy, energy=command.energy,
        def_bonus=command.def_bonus, shield=command.shield,
        dr_lethal=command.dr[0], dr_ballistic=command.dr[1], dr_energy=command.dr[2],
        ini_mod=command.ini_mod, acrobatics="acrobacias" in traits,
        martial_arts=int(traits.get("artes-marciales") or 0) if "artes-marciales" in traits else 0,
        swordsman="espadachin" in traits, robot="robot" in traits,
        tie=len(fight.combatants), turn=fight.turn,
    )
    c = Combatant(command.name, 0, side=command.side, hidden=command.hidden, private=command.private, sheet=s)
    fight = evolve(fight, combatants=(*fight.combatants, c))
    d = defense(s)
    return log(fight, f"Alta de {c.name} (NH {s.level}, Vitalidad {vitality}, Defensa {d.ranged})", [c.name],
               kind=LogKind.SETUP)


def _arm(fight: Fight, command: cs.Arm) -> Fight:
    c = get(fight, command.name)
    s = sheet(c)
    ammo = command.ammo if command.ammo is not None else command.magazine
    if command.magazine and not 0 <= ammo <= command.magazine:
        raise Refusal(f"Munición {ammo}: el cargador es de {command.magazine}")
    weapon = Weapon(command.weapon, command.modes, command.modes[0] if command.modes else None,
                    command.magazine, ammo, command.rate, command.damage, command.ranged)
    known = s.weapon(command.weapon)
    weapons = tuple(weapon if w is known else w for w in s.weapons) if known else (*s.weapons, weapon)
    fight = edit(fight, c.name, weapons=weapons)
    kind = "a distancia" if weapon.is_ranged else "cuerpo a cuerpo"
    extra = f", {ammo}/{weapon.magazine}" if weapon.magazine else ""
    return log(fight, f"{c.name}: arma {weapon.name} ({kind}{extra})", [c.name], kind=LogKind.SETUP)


def _join(fight: Fight, name: str) -> Fight:
    """A combatant whose initiative is now known takes its place (§3.5); mid-fight,
    one placed before the current actor has its first go next turn (§3.8)."""
    if not fight.started:
        return resort(fight, name)
    fight = place_by_value(fight, name)
    at = position(fight, name)
    actor = position(fight, fight.actor) if fight.actor else None
    if actor is not None and at is not None and at < actor:
        fight = edit(fight, name, acted=True)
        return log(fight, f"{name} entra en el orden antes de quien actúa: su primer turno será el siguiente",
                   [name], kind=LogKind.ORDER)
    return replaced(fight, name)


def _initiative(fight: Fight, command: cs.Initiative) -> Fight:
    c = get(fight, command.name)
    s = sheet(c)
    if s.initiative is None or not fight.started:
        fight = edit(fight, c.name, initiative=command.value)
        fight = log(fight, f"Iniciativa de {c.name}: {command.value}", [c.name], kind=LogKind.SETUP)
        return _join(fight, c.name)
    return replaced(change_value(fight, c.name, command.value, "cambio del DJ"), c.name)


def _roll(fight: Fight, command: cmd.Roll) -> Fight:
    if command.together:
        raise Refusal("En C-System cada uno tira su iniciativa: «tirar NOMBRE …»")
    names = command.names or tuple(c.name for c in fight.combatants if sheet(c).initiative is None)
    if not names:
        raise Refusal("Todos tienen ya iniciativa: «tirar NOMBRE» para volver a tirar la de alguien")
    for name in names:
        if sheet(get(fight, name)).initiative is not None and fight.started:
            raise Refusal(f"{name} ya tiene iniciativa: la cambia el DJ con «iniciativa {cmd.quote(name)} N»")
    for name in names:
        fight, die = roll(fight, 20)
        total, text = initiative_roll(fight, name, die)
        fight = edit(fight, name, initiative=total)
        fight = log(fight, f"Tirada de iniciativa de {name}: {text}", [name], kind=LogKind.SETUP)
        fight = _join(fight, name)
    return fight


def _surprise(fight: Fight, command: cmd.Surprise) -> Fight:
    for name in command.names:
        s = sheet(get(fight, name))
        if s.goes:
            raise Refusal(f"{name} ya ha tenido su turno: la sorpresa es para quien aún no ha actuado")
        fight = edit(fight, name, surprised=True, conditions=add_condition(s, "desprevenido").conditions)
        fight = log(fight, f"{name} está desprevenido hasta su primer turno (sorpresa)", [name],
                    kind=LogKind.CONDITION)
    return fight


def _swap(fight: Fight, command: cmd.Swap) -> Fight:
    a, b = get(fight, command.first).name, get(fight, command.second).name
    return replaced(swap(fight, a, b), a, b)


def _place(fight: Fight, command: cs.Place) -> Fight:
    a, b = get(fight, command.name).name, get(fight, command.other).name
    if a == b:
        raise Refusal("«orden» necesita dos combatientes distintos")
    for name in (a, b):
        if position(fight, name) is None:
            raise Refusal(f"{name} aún no tiene lugar en el orden (le falta la iniciativa)")
    fight = move_next_to(fight, a, b, command.before)
    value = sheet(get(fight, a)).initiative
    fight = log(fight, f"El DJ coloca a {a} {'antes de' if command.before else 'tras'} {b} (iniciativa {value})",
                [a, b], kind=LogKind.ORDER)
    return replaced(fight, a)


def _begin(fight: Fight, command: cmd.Begin) -> Fight:
    if fight.started:
        raise Refusal("El combate ya ha empezado")
    if not fight.combatants:
        raise Refusal("No hay combatientes: añade alguno con «alta»")
    missing = [c.name for c in fight.combatants if sheet(c).initiative is None]
    if missing:
        raise Refusal(f"Falta la iniciativa de {', '.join(missing)}: «iniciativa NOMBRE N» o «tirar»")
    # The order as it stands (kept sorted by §3.3 as values came, with the GM's placements).
    fight = evolve(fight, turn=1)
    if set(part(fight).order) != {c.name for c in fight.combatants}:  # pragma: no cover - kept in step
        fight = with_part(fight, order=sorted_order(fight))
    fight = log(fight, "— Turno 1 —", kind=LogKind.TURN)
    fight = note_ties(fight)
    return advance(fight)


def _lower(fight: Fight, command: cs.Lower) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    require_started(fight)
    if s.used or (s.acted and fight.actor != name):
        raise Refusal(f"{name} ya ha actuado este turno: no puede retrasarse")
    check_actor(fight, name)
    order = part(fight).order
    if command.after is None:
        last = order[-1]
        if last == name:
            raise Refusal(f"Retrasarse: {name} ya es el último del orden")
        fight = move_next_to(fight, name, last, False)
        fight = edit(fight, name, after=None)
        text = f"{name} se retrasa al final del orden (iniciativa {sheet(get(fight, name)).initiative})"
    else:
        other = get(fight, command.after).name
        if other not in order:
            raise Refusal(f"Retrasarse: {other} aún no tiene lugar en el orden (le falta la iniciativa)")
        if order.index(other) <= order.index(name):
            raise Refusal(f"Retrasarse: {other} no actúa después de {name}")
        fight = move_next_to(fight, name, other, False)
        fight = edit(fight, name, after=other)
        text = f"{name} se retrasa tras {other}: iniciativa {sheet(get(fight, name)).initiative} (tras {other})"
    followed = [] if command.after is None else [get(fight, command.after).name]
    fight = log(evolve(fight, actor=None), text, [name, *followed], kind=LogKind.ORDER)
    return advance(fight)


def _end_go(fight: Fight, command: cs.EndGo) -> Fight:
    name = get(fight, command.name).name
    check_actor(fight, name)
    return finish(fight, name, f"{name} termina su turno")


def _next(fight: Fight, command: cmd.Next) -> Fight:
    require_started(fight)
    if fight.actor is None:
        return _new_turn(fight, cmd.NewTurn())
    name = fight.actor
    s = sheet(get(fight, name))
    lost = "" if s.used else " (pierde su turno)"
    return finish(fight, name, f"{name} termina su turno{lost}")


def _new_turn(fight: Fight, command: cmd.NewTurn) -> Fight:
    require_started(fight)
    waiting = [n for n in part(fight).order if not acted_now(fight, stored(fight, n))]
    if waiting:
        fight = log(fight, "El DJ cierra el turno: " + ", ".join(waiting) + " pierden su turno",
                    waiting, kind=LogKind.TURN)
    for name in waiting:
        fight = end_go(fight, name)
    fight = new_turn(evolve(fight, actor=None))
    return advance(fight)


def _act(fight: Fight, command: cs.Act) -> Fight:
    return act(fight, evolve(command, name=get(fight, command.name).name,
                             target=None if command.target is None else get(fight, command.target).name))


def _damage(fight: Fight, command: cs.Damage) -> Fight:
    name = get(fight, command.name).name
    dealt = max(command.amount - (command.dr or 0), 0)
    fight, tail = lose(fight, name, dealt, wound=not command.bleed, attack=False, kind=command.kind)
    what = "sangrado" if command.bleed else f"daño {command.kind}"
    rd = f" − {command.dr} RD" if command.dr else ""
    fight = log(fight, f"{name}: {what} {command.amount}{rd} = {dealt} {tail}", [name], kind=LogKind.DAMAGE)
    return _after_change(fight, name)


def _answer(fight: Fight, command: cs.Answer) -> Fight:
    name = get(fight, command.name).name
    if command.roll == "dolor":
        fight = answer_pain(fight, name, command.total, command.energy)
    else:
        fight = answer_reflex(fight, name, command.total)
    return _after_change(fight, name)


def _critical(fight: Fight, command: cs.Critical) -> Fight:
    name = get(fight, command.name).name
    s, p = pop_prompt(sheet(get(fight, name)), "critica", name)
    for word in command.conditions:
        id, value = _condition_word(name, word)
        known = s.condition(id)
        if id == "sangrando" and known is not None and int(known.value or 1) >= int(value or 1):
            continue  # bleeding does not stack: the largest N is kept (§10 step 3)
        s = add_condition(s, id, value)
    fight = edit(fight, name, pending=s.pending, conditions=s.conditions)
    added = "".join(f" +{w}" for w in command.conditions)
    fight = log(fight, f"{name}: herida crítica (1d20 + {p.bonus}): {command.text}{added}", [name],
                kind=LogKind.CONDITION, free=command.text)
    return _after_change(fight, name)


def _heal(fight: Fight, command: cs.Heal) -> Fight:
    if command.amount <= 0:
        raise Refusal("Se cura una cantidad positiva: «cura NOMBRE N»")
    name = get(fight, command.name).name
    return _after_change(heal(fight, name, command.amount), name)


def _pool(fight: Fight, command: cs.Pool) -> Fight:
    name = get(fight, command.name).name
    if command.pool == "energia":
        fight = spend_energy(fight, name, command.delta)
    else:
        fight = adjust_composure(fight, name, command.delta)
    return _after_change(fight, name)


def _condition_word(name: str, word: str) -> tuple[str, str | None]:
    """`sangrando:2` → ("sangrando", "2"), the id and value checked (§8)."""
    raw, _, value = word.partition(":")
    info = condition_info(raw)
    if info is None:
        import difflib
        close = difflib.get_close_matches(raw, list(CONDITIONS), n=2, cutoff=0.6)
        hint = f": ¿{' o '.join(close)}?" if close else f": los estados son {', '.join(list(CONDITIONS)[:6])}…"
        raise Refusal(f"No conozco el estado «{raw}»{hint}")
    if info.id == "sangrando":
        value = value or "1"
        if not value.isdigit() or not 1 <= int(value) <= 99:
            raise Refusal(f"sangrando:N necesita un número de 1 a 99 (no «{value}»)")
    elif info.id == "a-cubierto":
        value = value or "parcial"
        if value not in COVER:
            raise Refusal(f"a-cubierto: parcial o casi-completa (no «{value}»)")
    elif value:
        raise Refusal(f"El estado {info.id} no lleva valor (sobra «:{value}»)")
    return info.id, value or None


def _set_condition(fight: Fight, command: cs.SetCondition) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    id, value = _condition_word(name, command.condition + (f":{command.value}" if command.value else ""))
    if not command.on:
        if not s.has(id):
            raise Refusal(f"{name} no está {id}")
        fight = edit(fight, name, conditions=drop_condition(s, id).conditions)
        fight = log(fight, f"{name}: −{id}", [name], kind=LogKind.CONDITION)
        if id == "ensordecido" and s.initiative is not None:
            fight = replaced(change_value(fight, name, s.initiative + 5, "deja de estar ensordecido"), name)
        return _after_change(fight, name)
    if command.turns is not None and not 1 <= command.turns <= MOST_TURNS:
        raise Refusal(f"turnos= entre 1 y {MOST_TURNS} (pedido: {command.turns})")
    known = s.condition(id)
    if known is not None and id == "sangrando" and int(known.value or 1) >= int(value or 1):
        raise Refusal(f"{name} ya sangra {known.value}: el sangrado no se apila (cuenta el mayor)")
    if known is not None and known.value == value and id != "sangrando" and command.turns is None:
        raise Refusal(f"{name} ya está {id}")
    ends = None if command.turns is None else s.goes + command.turns
    fight = edit(fight, name, conditions=add_condition(s, id, value, ends).conditions)
    shown = id + (f":{value}" if value else "")
    lasting = "" if command.turns is None else f" ({command.turns} turno{'s' if command.turns != 1 else ''})"
    fight = log(fight, f"{name}: +{shown}{lasting}", [name], kind=LogKind.CONDITION)
    if id == "ensordecido" and known is None and s.initiative is not None:
        fight = replaced(change_value(fight, name, s.initiative - 5, "ensordecido"), name)
    if id == "inconsciente":
        t = sheet(get(fight, name))
        fight = edit(fight, name, conditions=add_condition(t, "tumbado").conditions,
                     unconscious_since=fight.turn if t.vitality <= 0 else None,
                     pending=tuple(p for p in t.pending if p.roll != "aplomo"))
    if id == "aturdido" and fight.actor == name and sheet(get(fight, name)).begun:
        t = sheet(get(fight, name))
        fight = edit(fight, name, conditions=drop_condition(t, "aturdido").conditions)
        return finish(fight, name, f"{name} está Aturdido: pierde lo que le quedaba de turno")
    return _after_change(fight, name)


def _after_change(fight: Fight, name: str) -> Fight:
    """After something happened to `name`: if its go was waiting for a roll that is
    now answered, it begins; if it is the actor and can no longer act, it ends."""
    if fight.actor != name or not fight.started:
        return fight
    s = sheet(get(fight, name))
    if blocking(s) is not None:
        return fight
    if not s.begun:
        return resume(fight, name)
    if combinations(s) == ((0, 0),) or any(s.has(x) for x in ("muerto", "inconsciente", "moribundo")):
        return finish(fight, name, f"{name} ya no puede actuar: termina su turno")
    if not left(s):
        return finish(fight, name)
    return fight


def _ammo(fight: Fight, command: cs.Ammo) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    weapon = s.weapon(command.weapon)
    if weapon is None:
        raise Refusal(f"{name} no tiene el arma «{command.weapon}»")
    if weapon.magazine and not 0 <= command.count <= weapon.magazine:
        raise Refusal(f"Munición {command.count}: el cargador de {the(weapon.name)} es de {weapon.magazine}")
    if not weapon.magazine:
        raise Refusal(f"{the(weapon.name).capitalize()} no tiene cargador")
    weapons = tuple(evolve(w, ammo=command.count) if w is weapon else w for w in s.weapons)
    fight = edit(fight, name, weapons=weapons)
    return log(fight, f"{name}: {weapon.name} {command.count}/{weapon.magazine}", [name], kind=LogKind.SETUP)


def _energy_saves(fight: Fight, command: cs.EnergySaves) -> Fight:
    if part(fight).energy_saves == command.on:
        raise Refusal("La regla opcional de la Energía ya está " + ("activada" if command.on else "desactivada"))
    fight = with_part(fight, energy_saves=command.on)
    return log(fight, "Regla opcional: gastar 5 de Energía para no caer inconsciente "
               + ("activada" if command.on else "desactivada"), kind=LogKind.RULE)


def _remove(fight: Fight, command: cmd.Remove) -> Fight:
    c = get(fight, command.name)
    was_actor = fight.actor == c.name
    fight = evolve(fight, combatants=tuple(x for x in fight.combatants if x.key != c.key),
                   actor=None if was_actor else fight.actor)
    fight = with_part(fight, order=tuple(n for n in part(fight).order if n != c.name))
    fight = fight.note(f"Baja de {c.name}", kind=LogKind.SETUP, about=[mention_of(c)])
    return advance(fight) if was_actor and fight.started else fight


_HANDLERS: dict[type, Callable[[Fight, object], Fight]] = {
    cs.Add: _add, cs.Arm: _arm, cs.Initiative: _initiative, cmd.Roll: _roll, cmd.Surprise: _surprise,
    cmd.Swap: _swap, cs.Place: _place, cmd.Begin: _begin, cs.Act: _act, cs.Lower: _lower,
    cs.EndGo: _end_go, cmd.Next: _next, cmd.NewTurn: _new_turn, cs.Damage: _damage, cs.Answer: _answer,
    cs.Critical: _critical, cs.Heal: _heal, cs.Pool: _pool, cs.SetCondition: _set_condition,
    cs.Ammo: _ammo, cs.EnergySaves: _energy_saves, cmd.Remove: _remove,
    cmd.Rename: _CDB_EXTRAS[cmd.Rename], cmd.Note: _CDB_CONDITIONS[cmd.Note],
    cmd.Reveal: _CDB_CONDITIONS[cmd.Reveal],
}


def consistency(fight: Fight) -> str | None:
    """What makes `fight` no C-System fight a command could go on from (a save edited
    by hand), in Spanish; None when it is one."""
    keys = {c.key for c in fight.combatants}  # (the names themselves: store.py checks them)
    for c in fight.combatants:
        if not isinstance(c.sheet, CsSheet):
            return f"«{c.name}» no tiene hoja de C-System"
        s = c.sheet
        if s.level < 1 or s.vitality_max < 1 or s.vitality > s.vitality_max:
            return f"«{c.name}»: nivel o Vitalidad imposibles"
        unknown = [x.id for x in s.conditions if x.id not in CONDITIONS]
        if unknown:
            return f"«{c.name}»: estado desconocido «{unknown[0]}»"
        if s.after is not None and s.after.casefold() not in keys:
            return f"«{c.name}» se retrasó tras «{s.after}», que no está en el combate"
    order = part(fight).order
    names = {c.name for c in fight.combatants}
    if len(set(order)) != len(order) or not set(order) <= names:
        return "el orden de iniciativa nombra a quien no está en el combate (o dos veces)"
    if any(sheet(stored(fight, n)).initiative is None for n in order):
        return "en el orden hay alguien sin iniciativa"
    if fight.started and any(sheet(c).initiative is not None and c.name not in order for c in fight.combatants):
        return "alguien con iniciativa no está en el orden"
    if fight.actor is not None and fight.actor not in order:
        return f"le toca a «{fight.actor}», que no está en el orden"
    if fight.moment is not None or fight.window is not None or fight.quick or fight.narr is not None:
        return "tiene momentos de la cuenta atrás de CdB"
    return None


def apply(fight: Fight, command: object) -> Fight:
    """The C-System fight after `command`, or `Refusal` (the fight unchanged)."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Refusal(f"Esa orden no existe en C-System: {_line(command)}")
    after = handler(fight, command)
    check_state(after, fight)
    return after


def _line(command: object) -> str:
    line = getattr(command, "line", None)
    return line() if callable(line) else repr(command)


#: A loaded fight's sheets stamped with its turn (a save from before `CsSheet.turn`).
stamped = TURNS.stamped

__all__ = ["apply", "cond_name", "default_vitality"]
