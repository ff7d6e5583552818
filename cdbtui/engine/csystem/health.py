"""Vitalidad, Aplomo, Energía and the states near death (CSYSTEM.md §9): damage,
Herido / Malherido and the pain roll, critical wounds, Inconsciente, agonía,
healing.  Rolls only the table can make are saved prompts (`Prompt`), answered by
`dolor`, `refleja` and `critica` (SYSTEMS.md §4 "Prompts are state")."""

from __future__ import annotations

from ..errors import Refusal
from ..model import evolve, Fight, LogKind
from .common import edit, get, log, roll, sheet
from .model import CsCondition, CsSheet, Prompt

#: Prompts a combatant's go waits for (the critical table and the GM's Aplomo call
#: do not: see the Decisions in the help).
BLOCKING = frozenset({"dolor", "refleja"})
DEATH = -11  # «por debajo de -10 puntos de Vitalidad, inmediatamente muere»


def add_condition(s: CsSheet, id: str, value: str | None = None, ends: int | None = None) -> CsSheet:
    """`s` with condition `id` (replacing the lesser state of its chain)."""
    replaced = {"malherido": ("herido",), "exhausto": ("fatigado",), "sujeto": ("apresado",),
                "muerto": ("moribundo", "estabilizado", "inconsciente")}.get(id, ())
    kept = tuple(c for c in s.conditions if c.id != id and c.id not in replaced)
    return evolve(s, conditions=(*kept, CsCondition(id, value, ends)))


def drop_condition(s: CsSheet, *ids: str) -> CsSheet:
    return evolve(s, conditions=tuple(c for c in s.conditions if c.id not in ids))


def prompt_text(p: Prompt, name: str) -> str:
    if p.roll == "dolor":
        return f"tirada de dolor: CON vs ND {p.nd} («dolor {name} TOTAL»)"
    if p.roll == "refleja":
        why = "para no perder Vitalidad" if p.reason == "moribundo" else "para despertar"
        return f"tirada refleja de CON vs ND {p.nd} {why} («refleja {name} TOTAL»)"
    if p.roll == "critica":
        return f"tira 1d20 + {p.bonus} en Heridas críticas («critica {name} TEXTO [+ESTADO]»)"
    return "¿queda inconsciente? (decide el DJ: «estado " + name + " +inconsciente»)"


def blocking(s: CsSheet) -> Prompt | None:
    return next((p for p in s.pending if p.roll in BLOCKING), None)


def _status(s: CsSheet, turn: int) -> CsSheet:
    """The states Vitalidad sets after a loss (living beings; robots: §9.9)."""
    v = s.vitality
    if s.robot:
        if v < 0:
            return add_condition(s, "muerto", "destruido")
        if v == 0 and not s.has("inutilizado"):
            s = add_condition(s, "inutilizado")
        if v * 4 < s.vitality_max * 3 and not s.has("averiado"):
            s = add_condition(s, "averiado")
        return s
    if v < DEATH + 1:
        return add_condition(s, "muerto")
    if v < 0:
        return s if s.has("moribundo") else add_condition(s, "moribundo")
    if v == 0 and not s.has("inconsciente"):
        s = evolve(add_condition(add_condition(s, "inconsciente"), "tumbado"), unconscious_since=turn)
    return s


def lose(fight: Fight, name: str, amount: int, *, wound: bool, attack: bool, kind: str = "letal",
         text: str = "") -> tuple[Fight, str]:
    """`name` takes `amount` (after RD).  A *herida* (`wound`: an attack's or a typed
    damage, not bleeding) below CON gives a critical wound and a pain roll (§9.2); an
    attack that deals damage kills an unconscious combatant at 0 or less (§9.3).
    Returns the fight and the "→ 43/48" tail for the log line."""
    c = get(fight, name)
    s = sheet(c)
    if amount <= 0:
        return fight, f"→ {s.vitality}/{s.vitality_max}"
    if kind == "conmocion" and s.composure is not None:
        return _lose_composure(fight, name, amount)
    if attack and (s.has("inconsciente") or s.has("moribundo")) and s.vitality <= 0 and not s.robot:
        s = add_condition(s, "muerto")
        fight = edit(fight, name, conditions=s.conditions)
        return log(fight, f"{name} estaba inconsciente con {s.vitality} de Vitalidad: muere", [name],
                   kind=LogKind.CONDITION), f"→ {s.vitality}/{s.vitality_max}, muerto"
    rest = amount
    if s.temp_vitality:
        absorbed = min(s.temp_vitality, rest)
        s = evolve(s, temp_vitality=s.temp_vitality - absorbed)
        rest -= absorbed
    s = evolve(s, vitality=s.vitality - rest)
    s = _status(s, fight.turn)
    tail = f"→ {s.vitality}/{s.vitality_max}"
    if s.has("muerto") and not sheet(c).has("muerto"):
        tail += ", muerto"
    elif s.has("moribundo") and not sheet(c).has("moribundo"):
        tail += ", moribundo"
    elif s.has("inconsciente") and not sheet(c).has("inconsciente"):
        tail += ", inconsciente"
    elif s.has("inutilizado") and not sheet(c).has("inutilizado"):
        tail += ", inutilizado"
    if wound and rest > 0 and not s.robot and s.vitality < s.con and not s.has("muerto"):
        prompts = list(s.pending)
        if s.vitality > 0:
            prompts.append(Prompt("dolor", nd=10 + rest))
        prompts.append(Prompt("critica", bonus=s.criticals))
        s = evolve(s, criticals=s.criticals + 1, pending=tuple(prompts))
        tail += f" < CON {s.con}: herida crítica (tira 1d20 + {s.criticals - 1})"
        if s.vitality > 0:
            tail += f" y tirada de dolor vs ND {10 + rest}"
    return fight.replace(evolve(c, sheet=s)), tail


def _lose_composure(fight: Fight, name: str, amount: int) -> tuple[Fight, str]:
    """§9.5: conmoción comes off Aplomo; at half the GM is asked once; at 0 the rest
    goes to Vitalidad and it is out until Aplomo is back to 5."""
    s = sheet(get(fight, name))
    assert s.composure is not None and s.composure_max is not None
    left = s.composure - amount
    over = max(-left, 0)
    s = evolve(s, composure=max(left, 0))
    tail = f"→ Aplomo {s.composure}/{s.composure_max}"
    if s.composure <= s.composure_max // 2 and not s.composure_asked:
        s = evolve(s, composure_asked=True, pending=(*s.pending, Prompt("aplomo")))
        tail += ": ¿queda inconsciente? (decide el DJ)"
    if s.composure == 0 and not s.has("inconsciente"):
        s = add_condition(add_condition(s, "inconsciente", "aplomo"), "tumbado")
        tail += ", inconsciente hasta recuperar 5 de Aplomo"
    fight = edit(fight, name, **_fields(s))
    if over:
        fight, more = lose(fight, name, over, wound=True, attack=False)
        tail += f"; {over} a Vitalidad {more}"
    return fight, tail


def _fields(s: CsSheet) -> dict:
    return {"composure": s.composure, "composure_asked": s.composure_asked,
            "pending": s.pending, "conditions": s.conditions}


def pop_prompt(s: CsSheet, roll_kind: str, name: str) -> tuple[CsSheet, Prompt]:
    found = next((p for p in s.pending if p.roll == roll_kind), None)
    if found is None:
        what = {"dolor": "ninguna tirada de dolor", "refleja": "ninguna tirada refleja de CON",
                "critica": "ninguna herida crítica"}[roll_kind]
        raise Refusal(f"{name} no tiene {what} pendiente")
    pending = list(s.pending)
    pending.remove(found)
    return evolve(s, pending=tuple(pending)), found


def answer_pain(fight: Fight, name: str, total: int, energy: bool) -> Fight:
    """`dolor NAME TOTAL` (§9.2): ≥ ND Herido; < ND Malherido; < ND − 5 Inconsciente
    for 1d10 minutes (10 turns each), or Malherido for 5 Energía (optional rule)."""
    s, p = pop_prompt(sheet(get(fight, name)), "dolor", name)
    assert p.nd is not None
    if total >= p.nd:
        outcome = "herido" if not s.has("malherido") else "malherido"
        s = add_condition(s, outcome) if not s.has(outcome) else s
        text = f"{name}: dolor {total} vs ND {p.nd}: supera → {outcome.capitalize()}"
    elif total < p.nd - 5:
        if energy:
            from .common import part
            if not part(fight).energy_saves:
                raise Refusal("La regla opcional de gastar 5 de Energía no está activada («energia-salva si»)")
            if s.energy is None or s.energy < 5:
                raise Refusal(f"{name} no tiene 5 puntos de Energía que gastar")
            s = add_condition(evolve(s, energy=s.energy - 5), "malherido")
            text = f"{name}: dolor {total} vs ND {p.nd}: falla por más de 5; gasta 5 de Energía → Malherido"
        else:
            fight, die = roll(fight, 10)
            wake = fight.turn + 10 * die
            s = add_condition(add_condition(add_condition(s, "malherido"), "inconsciente", f"T{wake}"), "tumbado")
            text = (f"{name}: dolor {total} vs ND {p.nd}: falla por más de 5 → Inconsciente"
                    f" {die} minuto(s) (hasta el turno {wake})")
    else:
        if energy:
            raise Refusal("La Energía solo evita caer inconsciente (fallar por más de 5)")
        s = add_condition(s, "malherido")
        text = f"{name}: dolor {total} vs ND {p.nd}: falla → Malherido"
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, text, [name], kind=LogKind.CONDITION)


def answer_reflex(fight: Fight, name: str, total: int) -> Fight:
    """`refleja NAME TOTAL`: a Moribundo's CON ND 20 (§9.4) or the waking roll (§9.3)."""
    s, p = pop_prompt(sheet(get(fight, name)), "refleja", name)
    nd = p.nd or 20
    if p.reason == "moribundo":
        if total >= nd:
            s = evolve(add_condition(s, "estabilizado"), stabilized_since=fight.turn)
            text = f"{name}: CON {total} vs ND {nd}: se estabiliza (ya no pierde Vitalidad cada turno)"
            fight = fight.replace(evolve(get(fight, name), sheet=s))
            return log(fight, text, [name], kind=LogKind.CONDITION)
        fight = fight.replace(evolve(get(fight, name), sheet=s))
        fight, tail = lose(fight, name, 1, wound=False, attack=False)
        return log(fight, f"{name}: CON {total} vs ND {nd}: falla, pierde 1 de Vitalidad {tail}", [name],
                   kind=LogKind.CONDITION)
    if total >= nd:
        s = drop_condition(evolve(s, vitality=max(s.vitality, 1), unconscious_since=None), "inconsciente")
        s = add_condition(add_condition(s, "malherido"), "tumbado")
        text = f"{name}: CON {total} vs ND {nd}: despierta con 1 de Vitalidad, malherido y tumbado"
    elif total <= nd - 5:
        s = add_condition(s, "muerto")
        text = f"{name}: CON {total} vs ND {nd}: falla por 5 o más → muere"
    else:
        s = add_condition(drop_condition(s, "inconsciente"), "inconsciente", "1h")
        s = evolve(s, unconscious_since=None)
        text = f"{name}: CON {total} vs ND {nd}: falla → inconsciente 1 hora (fuera del combate)"
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, text, [name], kind=LogKind.CONDITION)


def heal(fight: Fight, name: str, amount: int, why: str = "") -> Fight:
    """Vitalidad up to its maximum; one unconscious revives (tumbado, herido if still
    below CON, §9.3); Herido and Malherido end at CON or above (§9.2)."""
    s = sheet(get(fight, name))
    if s.has("muerto"):
        raise Refusal(f"{name} está muerto: no se le puede curar")
    before = s.vitality
    s = evolve(s, vitality=min(s.vitality + amount, s.vitality_max))
    extra = ""
    if s.robot and s.vitality > 0 and s.has("inutilizado"):  # repaired: back, but tumbado (§9.9)
        s = add_condition(drop_condition(s, "inutilizado"), "tumbado")
        extra = ": se reactiva (tumbado)"
    if s.robot and s.has("averiado") and s.vitality * 4 >= s.vitality_max * 3:
        s = drop_condition(s, "averiado")
        extra += "; ya no está averiado"
    if s.vitality > 0 and (s.has("inconsciente") or s.has("moribundo")):
        s = drop_condition(evolve(s, unconscious_since=None, stabilized_since=None), "inconsciente", "moribundo",
                           "estabilizado")
        s = add_condition(s, "tumbado")
        extra = ": revive (tumbado)"
        if s.vitality < s.con and not s.has("malherido"):
            s = add_condition(s, "herido")
            extra = ": revive (tumbado y herido)"
    if s.vitality >= s.con and (s.has("herido") or s.has("malherido")):
        s = drop_condition(s, "herido", "malherido")
        extra += "; ya no está herido"
    if s.vitality >= s.con and any(p.roll == "dolor" for p in s.pending):
        s = evolve(s, pending=tuple(p for p in s.pending if p.roll != "dolor"))
        extra += "; ya no hace falta la tirada de dolor"
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, f"{name}{why} recupera {s.vitality - before} de Vitalidad → {s.vitality}/{s.vitality_max}{extra}",
               [name], kind=LogKind.HEAL)


def spend_energy(fight: Fight, name: str, delta: int) -> Fight:
    """§9.6: spent more than VOL → Fatigado; all of it → Exhausto."""
    s = sheet(get(fight, name))
    if s.energy is None or s.energy_max is None:
        raise Refusal(f"{name} no tiene Energía (escríbela con «alta … energia=N»)")
    if delta < 0 and -delta > s.energy:
        raise Refusal(f"{name} solo tiene {s.energy} puntos de Energía")
    s = evolve(s, energy=min(s.energy + delta, s.energy_max))
    extra = ""
    if s.energy == 0 and not s.has("exhausto"):
        s = add_condition(s, "exhausto")
        extra = ": exhausto"
    elif s.energy_max - s.energy > s.wil and not s.has("fatigado") and not s.has("exhausto"):
        s = add_condition(s, "fatigado")
        extra = f": fatigado (ha gastado más que su Voluntad {s.wil})"
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, f"{name}: Energía {delta:+d} → {s.energy}/{s.energy_max}{extra}", [name],
               kind=LogKind.CONDITION)


def adjust_composure(fight: Fight, name: str, delta: int) -> Fight:
    s = sheet(get(fight, name))
    if s.composure is None or s.composure_max is None:
        raise Refusal(f"{name} no tiene Aplomo (escríbelo con «alta … aplomo=N»)")
    if delta < 0:
        fight, tail = _lose_composure(fight, name, -delta)
        return log(fight, f"{name}: Aplomo {delta:+d} {tail}", [name], kind=LogKind.CONDITION)
    s = evolve(s, composure=min(s.composure + delta, s.composure_max))
    extra = ""
    cond = s.condition("inconsciente")
    if cond is not None and cond.value == "aplomo" and s.composure >= 5:
        s = drop_condition(s, "inconsciente")
        extra = ": despierta (tumbado)"
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, f"{name}: Aplomo {delta:+d} → {s.composure}/{s.composure_max}{extra}", [name],
               kind=LogKind.CONDITION)
