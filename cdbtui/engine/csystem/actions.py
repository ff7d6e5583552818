"""What a combatant does at its go (CSYSTEM.md §4.4, §5, §6, §7): maneuvers with
the no-repeat rule, generic actions, the attack helper (roll against the target's
Defensa, Índice de Éxito, damage − RD), fire modes and ammunition.

Checks run in this order, so the refusal names the first rule broken: may it act
now (`turns.check_actor`), the budget and its overrides, the no-repeat rule, then
the action's own requirements."""

from __future__ import annotations

import math

from ..errors import Refusal
from ..model import evolve, Fight, LogKind, Note
from . import commands as cs
from .budget import allows, cap_of, left, left_text, tier_of, used_text
from .common import cond_name, edit, get, log, roll, sheet
from .defense import cover_level, defense
from .health import add_condition, drop_condition, heal, lose
from .model import Prompt, Weapon
from .tables import COMPLEX, CONDITIONS, COVER, MARK, SIMPLE, Action, catalog_ids, find_action
from .turns import advance, check_actor, end_go

#: Generic actions typed with a free text (`NAME compleja TEXTO`).
GENERIC = {"compleja": COMPLEX, "simple": SIMPLE, "gratis": "free"}
AMMO_SHARE = {"quarter": 4, "half": 2}
NAMES_ES = {"quarter": "25 %", "half": "50 %"}


def the(weapon: str) -> str:
    """A weapon's name with its article ("el subfusil", "la pistola": by its ending)."""
    return f"{'la' if weapon.rstrip().lower().endswith('a') else 'el'} {weapon}"


def _kind(fight: Fight, name: str, action: Action, command: cs.Act) -> str:
    """complex / simple / free / turn: what this action costs this time (§4.4)."""
    s = sheet(get(fight, name))
    if action.id == "cubrirse":
        if command.form is None:
            raise Refusal("Cubrirse: escribe «simple» (tirarse al suelo) o «compleja» (a cubierto:"
                          " parcial o casi-completa)")
        return command.form
    if action.id == "levantarse":
        return SIMPLE if s.acrobatics else COMPLEX
    if action.id == "recargar":
        weapon = _reload_weapon(s, command.weapon or (command.words[0] if command.words else None), name)
        if "pesado" in weapon.modes:
            return "turn"
        return SIMPLE if weapon.mode == "simple" or weapon.modes == ("simple",) else COMPLEX
    return action.type


def _check_budget(fight: Fight, name: str, kind: str, label: str) -> None:
    s = sheet(get(fight, name))
    if kind == "free":
        return
    if kind == "turn":
        if s.used:
            raise Refusal(f"{label} ocupa todo el turno: {name} ya ha hecho {used_text(s.used)}")
        if allows(s, COMPLEX):  # the whole turn: more than a capped budget allows
            return
    elif allows(s, kind):
        return
    cap, why = cap_of(s)
    if cap == (0, 1):
        what = ("una sola acción de movimiento por turno" if why == "mareado"
                else "una acción simple por turno")
        tail = {COMPLEX: f" ({label.lower()} es compleja)",
                "turn": f" ({label.lower()} ocupa todo el turno)"}.get(kind, "")
        raise Refusal(f"{name} está {cond_name(why)}: solo puede hacer {what}{tail}")
    most_complex = max(c for c, _ in tier_of(s.level))
    if kind == COMPLEX and s.used.count(COMPLEX) >= most_complex:
        what = "su acción compleja" if most_complex == 1 else "sus acciones complejas"
        raise Refusal(f"{name} (nivel {s.level}) ya usó {what}: le queda {left_text(left(s))}")
    raise Refusal(f"{name} (nivel {s.level}) ya hizo {used_text(s.used)}: solo le queda {left_text(left(s))}")


def _check_repeat(fight: Fight, name: str, action: Action) -> None:
    s = sheet(get(fight, name))
    if action.maneuver and action.id in s.maneuvers:
        raise Refusal(f"{name} ya ha usado {action.name} este turno: no se pueden usar dos maniobras"
                      " iguales en el mismo turno")


def _reload_weapon(s, wanted: str | None, name: str) -> Weapon:
    if wanted is not None:
        weapon = s.weapon(wanted)
        if weapon is None:
            raise Refusal(f"{name} no tiene el arma «{wanted}»")
        return weapon
    weapon = next((w for w in s.weapons if w.magazine), None)
    if weapon is None:
        raise Refusal(f"{name} no tiene ningún arma con cargador que recargar")
    return weapon


def _attack_weapon(s, action: Action, wanted: str | None, name: str) -> Weapon | None:
    if wanted is not None:
        weapon = s.weapon(wanted)
        if weapon is None:
            raise Refusal(f"{name} no tiene el arma «{wanted}»")
        return weapon
    if action.attack == "ranged" or action.needs:
        return next((w for w in s.weapons if w.is_ranged), None)
    if action.attack == "melee":
        return next((w for w in s.weapons if not w.is_ranged), None)
    return s.weapon()


def _rounds(action: Action, weapon: Weapon) -> int:
    if action.ammo in AMMO_SHARE:
        return math.ceil(weapon.magazine / AMMO_SHARE[action.ammo])
    if action.ammo == "all":
        return weapon.ammo
    return 1


def _check_fire(name: str, action: Action, weapon: Weapon | None) -> None:
    """The weapon an action needs, its mode and its rounds (§7)."""
    if action.needs == "ranged" and (weapon is None or not weapon.is_ranged):
        raise Refusal(f"{action.name} necesita un arma a distancia")
    if action.needs in ("semi", "auto", "heavy"):
        modes = set() if weapon is None else set(weapon.modes)
        if action.needs == "semi" and not modes & {"sa", "fa"}:
            raise Refusal(f"{action.name} necesita un arma automática o semiautomática")
        if action.needs == "auto" and "fa" not in modes:
            raise Refusal(f"{action.name} necesita un arma automática")
        if action.needs == "heavy" and not {"fa", "pesado"} <= modes:
            raise Refusal(f"{action.name} necesita un arma automática pesada")
    if weapon is None or not weapon.is_ranged or not weapon.magazine:
        return
    if weapon.ammo == 0:
        raise Refusal(f"{the(weapon.name).capitalize()} de {name} no tiene munición: recarga")
    if (weapon.mode == "simple" or weapon.modes == ("simple",)) and weapon.fired >= 1:
        raise Refusal(f"{the(weapon.name).capitalize()} es de fuego simple: solo un disparo por turno")
    if action.ammo == "all":
        need = math.ceil(weapon.magazine * 3 / 4)
        if weapon.ammo < need:
            raise Refusal(f"{action.name} necesita al menos el 75 % ({need} de {weapon.magazine};"
                          f" quedan {weapon.ammo})")
    elif action.ammo in AMMO_SHARE:
        need = _rounds(action, weapon)
        if weapon.ammo < need:
            raise Refusal(f"{action.name} necesita {need} balas (le quedan {weapon.ammo})")


def check(fight: Fight, command: cs.Act) -> tuple[Action | None, str]:
    """Every check of `command` that needs no roll; its action and cost."""
    name = command.name
    check_actor(fight, name)
    if command.action in GENERIC:
        kind = GENERIC[command.action]
        _check_budget(fight, name, kind, f"una acción {command.action}")
        return None, kind
    action = find_action(command.action)
    if action is None:
        raise Refusal(f"No conozco la acción «{command.action}» en C-System")
    kind = _kind(fight, name, action, command)
    _check_budget(fight, name, kind, action.name)
    _check_repeat(fight, name, action)
    s = sheet(get(fight, name))
    if "carga" in command.words and action.id == "derribar":
        _check_repeat(fight, name, find_action("cargar"))
    if action.id in ("cargar", "correr") or (action.id == "derribar" and "carga" in command.words):
        for c in s.conditions:
            info = CONDITIONS.get(c.id)
            if info is not None and info.no_charge:
                verb = "correr" if action.id == "correr" else "cargar"
                raise Refusal(f"{name} está {info.name}: no puede {verb}")
    if action.id == "apuntar":
        if not any(w.is_ranged for w in s.weapons):
            raise Refusal("Apuntar necesita un arma a distancia")
        cap = max(s.per - 4, 0)
        if cap == 0:
            raise Refusal(f"Apuntar: Percepción {s.per} no da bono (máximo Percepción − 4 = 0)")
        if s.aim >= cap:
            raise Refusal(f"Apuntar: {name} ya tiene el máximo +{cap} (Percepción {s.per} − 4)")
    if action.id == "levantarse" and not s.has("tumbado"):
        raise Refusal(f"{name} no está tumbado: no tiene que levantarse")
    if action.id == "cambiar-modo":
        if len(command.words) != 2:
            raise Refusal(f"Se usa «{name} modo ARMA MODO»")
        weapon = s.weapon(command.words[0])
        if weapon is None:
            raise Refusal(f"{name} no tiene el arma «{command.words[0]}»")
        if command.words[1] not in weapon.modes:
            raise Refusal(f"{the(weapon.name).capitalize()} no tiene el modo «{command.words[1]}» (tiene:"
                          f" {', '.join(weapon.modes) or 'ninguno'})")
    if action.attack or action.needs:
        weapon = _attack_weapon(s, action, command.weapon, name)
        if action.attack == "melee" and weapon is not None and weapon.is_ranged:
            raise Refusal(f"{action.name} necesita un ataque cuerpo a cuerpo o sin armas (no {the(weapon.name)})")
        _check_fire(name, action, weapon)
    if command.roll is not None and command.target is None and action.attack:
        raise Refusal(f"Falta el objetivo: «{name} {action.id} a OBJETIVO tirada=N»")
    if command.target is not None:
        target = get(fight, command.target)
        if target.name == name and action.id != "primeros-auxilios":
            raise Refusal(f"{name} no puede atacarse a sí mismo")
        t = sheet(target)
        if action.id == "primeros-auxilios" and t.first_aid:
            raise Refusal(f"{target.name} ya recibió primeros auxilios en las últimas 24 horas")
        if action.id == "golpe-de-gracia" and not any(t.has(x) for x in ("indefenso", "inconsciente", "paralizado")):
            raise Refusal(f"Golpe de gracia: {target.name} no está indefenso")
        if action.id == "sacudir" and not t.has("fascinado"):
            raise Refusal(f"{target.name} no está fascinado: no hay nada que sacudir")
    elif action.id in ("primeros-auxilios", "golpe-de-gracia", "sacudir"):
        raise Refusal(f"{action.name} necesita un objetivo: «{name} {action.id} a OBJETIVO»")
    return action, kind


def act(fight: Fight, command: cs.Act) -> Fight:
    """`command`'s action at its combatant's go; the go ends when nothing is left or
    the action ends it (Esquivar/Bloquear, a whole-turn reload)."""
    action, kind = check(fight, command)
    name = command.name
    s = sheet(get(fight, name))
    used = s.used if kind == "free" else (*s.used, *((COMPLEX,) if kind == "turn" else (kind,)))
    maneuvers = s.maneuvers
    if action is not None and action.maneuver:
        maneuvers = (*maneuvers, action.id)
        if action.id == "derribar" and "carga" in command.words:
            maneuvers = (*maneuvers, "cargar")
    fight = edit(fight, name, used=used, maneuvers=maneuvers)
    mark = {COMPLEX: MARK[COMPLEX], SIMPLE: MARK[SIMPLE], "free": "gratis", "turn": "todo el turno"}[kind]
    if action is None:
        text = f"{name}: {command.text or 'acción ' + command.action} ({mark})"
        fight = _only_warning(fight, name)
        fight = log(fight, text, [name], free=command.text or None)
    else:
        fight = _perform(fight, command, action, mark)
    s = sheet(get(fight, name))
    if fight.actor != name:
        return fight
    if kind == "turn" or (action is not None and action.ends_go):
        return advance(end_go(fight, name))
    if not left(s):
        return advance(end_go(fight, name, f"{name} termina su turno (no le queda nada)"))
    return fight


def _only_warning(fight: Fight, name: str) -> Fight:
    for c in sheet(get(fight, name)).conditions:
        info = CONDITIONS.get(c.id)
        if info is not None and info.only:
            return log(fight, f"Aviso: {name} está {info.name.lower()}: {info.only}", [name],
                       warning=True, kind=LogKind.RULE)
    return fight


def _perform(fight: Fight, command: cs.Act, action: Action, mark: str) -> Fight:
    name = command.name
    s = sheet(get(fight, name))
    label = f"{name}: {action.name} ({mark})"
    if action.id == "apuntar":
        cap = max(s.per - 4, 0)
        aim = min(s.aim + 2, cap)
        fight = edit(fight, name, aim=aim)
        return log(fight, f"{label} → +{aim}", [name])
    if action.id == "esquivar":
        if s.martial_arts:
            bonus, how = s.martial_arts, "artes marciales"
        elif command.amount is not None:
            if command.amount != 5:
                raise Refusal("Esquivar/Bloquear: se tira 1d10 o se escoge un 5 («esquivar 5»)")
            bonus, how = 5, "escoge 5"
        else:
            fight, bonus = roll(fight, 10)
            how = f"1d10 = {bonus}"
        before = defense(s).ranged
        fight = edit(fight, name, dodge=bonus, dodged=True)
        after = defense(sheet(get(fight, name))).ranged
        return log(fight, f"{label} +{bonus} ({how}): Defensa {before} → {after} hasta el inicio de su"
                          " turno; su turno termina", [name])
    if action.id == "cubrirse":
        if command.form == SIMPLE:
            s = add_condition(s, "tumbado")
            fight = edit(fight, name, conditions=s.conditions)
            d = defense(s)
            return log(fight, f"{label}: se tira al suelo, tumbado: Defensa a distancia {d.ranged},"
                              f" cuerpo a cuerpo {d.melee}", [name])
        level = next((w for w in command.words if w in COVER), "parcial")
        s = add_condition(s, "a-cubierto", level)
        fight = edit(fight, name, conditions=s.conditions, cover_lost=0)
        return log(fight, f"{label}: a cubierto ({level}): +{COVER[level]} a la Defensa y {COVER[level]}"
                          " de RD contra ataques a distancia", [name])
    if action.id == "levantarse":
        fight = edit(fight, name, conditions=drop_condition(s, "tumbado").conditions)
        return log(fight, f"{label}: se levanta", [name])
    if action.id == "recargar":
        weapon = _reload_weapon(s, command.weapon or (command.words[0] if command.words else None), name)
        fight = _set_weapon(fight, name, evolve(weapon, ammo=weapon.magazine))
        return log(fight, f"{label}: {weapon.name} {weapon.magazine}/{weapon.magazine}", [name])
    if action.id == "cambiar-modo":
        weapon = s.weapon(command.words[0])
        assert weapon is not None
        fight = _set_weapon(fight, name, evolve(weapon, mode=command.words[1]))
        return log(fight, f"{label}: {weapon.name} en modo {command.words[1]}", [name])
    if action.id == "primeros-auxilios":
        return _first_aid(fight, command, label)
    if action.id == "sacudir":
        target = get(fight, command.target)
        fight = edit(fight, target.name, conditions=drop_condition(sheet(target), "fascinado").conditions)
        return log(fight, f"{label}: {target.name} deja de estar fascinado", [name, target.name])
    if action.id == "cargar" or (action.id == "derribar" and "carga" in command.words):
        fight = edit(fight, name, charged=True)
    if action.attack:
        return _attack(fight, command, action, label)
    note = f" ({action.note})" if action.note else ""
    return log(fight, label + note, [name])


def _set_weapon(fight: Fight, name: str, weapon: Weapon) -> Fight:
    s = sheet(get(fight, name))
    weapons = tuple(weapon if w.name == weapon.name else w for w in s.weapons)
    return edit(fight, name, weapons=weapons)


def _first_aid(fight: Fight, command: cs.Act, label: str) -> Fight:
    """§9.7: ND 20; a Malherido recovers 1d6, a Moribundo is stabilised and stays
    unconscious; once per patient per 24 h."""
    target = get(fight, command.target)
    t = sheet(target)
    fight = edit(fight, target.name, first_aid=True)
    about = [command.name, target.name]
    if command.roll is None:
        return log(fight, f"{label} a {target.name} (tirada de Medicina vs ND 20: «tirada=N»)", about)
    if command.roll < 20:
        return log(fight, f"{label} a {target.name}: {command.roll} vs ND 20: falla", about)
    if t.has("moribundo"):
        s = add_condition(t, "estabilizado")
        s = add_condition(s, "inconsciente") if not s.has("inconsciente") else s
        s = evolve(s, pending=tuple(p for p in s.pending if not (p.roll == "refleja" and p.reason == "moribundo")))
        fight = edit(fight, target.name, conditions=s.conditions, pending=s.pending, stabilized_since=fight.turn)
        return log(fight, f"{label} a {target.name}: {command.roll} vs ND 20: estabilizado e inconsciente", about)
    if t.has("malherido"):
        fight, die = roll(fight, 6)
        fight = log(fight, f"{label} a {target.name}: {command.roll} vs ND 20: recupera 1d6 = {die}", about)
        return heal(fight, target.name, die)
    return log(fight, f"{label} a {target.name}: {command.roll} vs ND 20: no está malherido ni moribundo", about)


def damage_type(weapon: Weapon | None, typed: str | None) -> str:
    if typed is not None:
        return typed
    return "balistico" if weapon is not None and (weapon.modes or weapon.magazine) else "letal"


def _attack(fight: Fight, command: cs.Act, action: Action, label: str) -> Fight:
    """The attack helper (§6): with `tirada=` the total is compared with the target's
    Defensa; a hit's damage is Índice + the dice − RD (cover's first), ≥ 0."""
    name = command.name
    s = sheet(get(fight, name))
    weapon = _attack_weapon(s, action, command.weapon, name)
    ranged = action.attack == "ranged" or (action.attack == "any" and weapon is not None and weapon.is_ranged)
    about = [name] + ([command.target] if command.target else [])
    if s.has("apresado"):
        fight = log(fight, f"Aviso: {name} está apresado: solo puede atacar con un arma ligera o a una mano",
                    about, warning=True, kind=LogKind.RULE)
    shots = ""
    if ranged and weapon is not None and weapon.magazine:
        rounds = _rounds(action, weapon)
        fired = weapon.fired + rounds
        fight = _set_weapon(fight, name, evolve(weapon, ammo=weapon.ammo - rounds, fired=fired))
        shots = f" ({rounds} bala{'s' if rounds != 1 else ''}, {weapon.ammo} → {weapon.ammo - rounds})"
        if weapon.rate and fired > weapon.rate:
            fight = log(fight, f"Aviso: {the(weapon.name)} ha disparado {fired} balas este turno (CAD {weapon.rate})",
                        about, warning=True, kind=LogKind.RULE)
    if ranged and s.aim:
        fight = edit(fight, name, aim=0)
    if ranged and cover_level(s) is not None:
        fight = edit(fight, name, cover_lost=sheet(get(fight, name)).cover_lost + 1)
        fight = log(fight, f"Aviso: {name} dispara desde la cobertura: la pierde en parte hasta su próximo turno",
                    [name], warning=True, kind=LogKind.RULE)
    if command.target is None:
        return log(fight, f"{label}{shots}", about)
    target = get(fight, command.target)
    t = sheet(target)
    total = command.roll
    rolled = ""
    if total is None and command.mod is not None:
        fight, die = roll(fight, 20)
        total = die + command.mod
        rolled = f" (1d20 = {die} {command.mod:+d})"
    if action.id == "golpe-de-gracia":
        prompts = (*t.pending, Prompt("critica", bonus=t.criticals + 10))
        fight = edit(fight, target.name, pending=prompts, criticals=t.criticals + 1)
        text = f"{label} a {target.name}{shots}: acierta (golpe de gracia): herida crítica, tira 1d20 + {t.criticals + 10}"
        if command.damage:  # an automatic hit, Índice 0: the weapon's damage less RD (§6.4)
            return _deal(fight, name, target.name, sum(command.damage), 0, command, weapon, ranged, text, about)
        return log(fight, text, about)
    if total is None:
        return log(fight, f"{label} a {target.name}{shots} (sin tirada: «tirada=N» para resolverlo)", about)
    d = defense(t, attacker_invisible=s.has("invisible"))
    against = d.ranged if ranged else d.melee
    margin = (total - against) // 2
    head = f"{label} a {target.name}{shots}: {total}{rolled} vs {against}"
    if total < against and action.id == "derribar" and against - total > 5:
        # §5.2: «Miss by more than 5: the defender may knock the attacker down on its
        # next action without a roll (a reminder on the defender)».
        reminder = f"puede derribar a {name} sin tirada en su próxima acción"
        defender = get(fight, target.name)
        fight = fight.replace(evolve(defender, notes=(*defender.notes, Note(reminder, fight.turn + 1))))
        return log(fight, f"{head}: falla por más de 5: {target.name} {reminder}", about)
    if total < against and action.ammo != "all":
        return log(fight, f"{head}: falla", about)
    if total < against:  # Fuego automático pesado: misses take half
        if not command.damage:
            return log(fight, f"{head}: falla (si hay daño, la mitad)", about)
        dice = sum(command.damage) // 2
        return _deal(fight, name, target.name, dice, 0, command, weapon, ranged, f"{head}: falla, mitad de daño", about)
    if action.id == "presa":
        for who, other in ((target.name, name), (name, target.name)):
            fight = edit(fight, who, conditions=add_condition(sheet(get(fight, who)), "apresado",
                                                                other if who == name else None).conditions)
        return log(fight, f"{head}: acierta (índice {margin}): {name} y {target.name} quedan apresados", about)
    if action.id == "derribar":
        return log(fight, f"{head}: acierta (índice {margin}): prueba enfrentada de FUE, {name} suma +{margin}", about)
    if not command.damage:
        return log(fight, f"{head}: acierta, índice {margin} (escribe el daño con «dano=N»)", about)
    return _deal(fight, name, target.name, sum(command.damage), margin, command, weapon, ranged,
                 f"{head}, índice {margin}", about)


def _deal(fight: Fight, name: str, target: str, dice: int, margin: int, command: cs.Act,
          weapon: Weapon | None, ranged: bool, head: str, about: list[str]) -> Fight:
    t = sheet(get(fight, target))
    kind = damage_type(weapon, command.kind)
    raw = margin + dice
    cover = cover_level(t) if ranged else None
    cover_rd = COVER[cover] if cover is not None else 0
    armour = t.dr(kind)
    dealt = max(raw - cover_rd - armour, 0)
    terms = f"{margin}+{'+'.join(map(str, command.damage)) if command.damage else dice}"
    if cover_rd:
        terms += f"−{cover_rd} (cobertura)"
    if armour:
        terms += f"−{armour}"
    fight, tail = lose(fight, target, dealt, wound=True, attack=True, kind=kind)
    return log(fight, f"{head}, daño {terms} = {dealt} {tail}", about, kind=LogKind.DAMAGE)


def available(fight: Fight, name: str) -> list[str]:
    """The action ids `name` may take now (the picker and the `:` line's completion):
    each checked like the command itself, with no target or roll."""
    found = []
    for id in catalog_ids():
        try:
            check(fight, cs.Act(name, id, form="simple" if id == "cubrirse" else None))
        except Refusal:
            if id == "cubrirse":
                try:
                    check(fight, cs.Act(name, id, form=COMPLEX))
                except Refusal:
                    continue
            else:
                continue
        found.append(id)
    return found
