"""Effective DES and Defensa with its breakdown (CSYSTEM.md §6.2), Resistencia
pasiva, and the modifiers of a combatant's next attack (§6.6)."""

from __future__ import annotations

from attrs import frozen

from .model import CsSheet
from .tables import CONDITIONS, COVER, COVER_STEPS


def effective_dex(sheet: CsSheet) -> int:
    """DES with the conditions' penalties: they add up, but inside one chain
    (Herido → Malherido, Fatigado → Exhausto, Apresado → Sujeto) only the worst
    counts; Paralizado makes it 0.  Never below 0 (Decision §6.2)."""
    worst: dict[str, int] = {}
    total = 0
    for condition in sheet.conditions:
        info = CONDITIONS.get(condition.id)
        if info is None or not info.dex:
            continue
        if info.chain:
            worst[info.chain] = min(worst.get(info.chain, 0), info.dex)
        else:
            total += info.dex
    if sheet.has("paralizado"):
        return 0
    return max(sheet.dex + total + sum(worst.values()), 0)


def dex_term(sheet: CsSheet, *, attacker_invisible: bool = False) -> tuple[int, str]:
    """The DES term of Defensa and why it is not the effective DES ("" when it is)."""
    if attacker_invisible:
        return 0, "atacante invisible"
    dex = effective_dex(sheet)
    ids = {c.id for c in sheet.conditions}
    for id in ("indefenso", "paralizado", "inconsciente", "moribundo"):
        if id in ids:
            return 0, CONDITIONS[id].name.lower()
    if "sujeto" in ids:
        return 0, "sujeto"
    for id in ("desprevenido", "aterrado"):
        if id in ids:
            return (dex + 1) // 2, f"{CONDITIONS[id].name.lower()}: mitad"
    return dex, ""


def cover_level(sheet: CsSheet) -> str | None:
    """The cover it has now: its `a-cubierto` level, lowered by shots from it."""
    cover = sheet.condition("a-cubierto")
    if cover is None:
        return None
    level = cover.value if cover.value in COVER else "parcial"
    index = COVER_STEPS.index(level) + sheet.cover_lost
    return COVER_STEPS[index] if index < len(COVER_STEPS) else None


@frozen
class Defense:
    """Defensa against ranged and melee attacks, and the terms that make it."""

    ranged: int
    melee: int
    #: (label, value) in the order they add up; the first is the base 15.
    parts: tuple[tuple[str, int], ...]

    @property
    def breakdown(self) -> str:
        """"19 = 15 + 3 + 1" (against ranged; a melee-only term is left out)."""
        terms = [value for label, value in self.parts if not label.startswith("cc:")]
        text = " + ".join(str(v) for v in terms[:1]) + "".join(
            f" + {v}" if v >= 0 else f" − {-v}" for v in terms[1:])
        return f"{self.ranged} = {text}"


def defense(sheet: CsSheet, *, attacker_invisible: bool = False) -> Defense:
    """Defensa = 15 + DES term + NH + BDEF + shield (×2 dodging) + Esquivar/Bloquear
    − 2 after Cargar + the conditions' changes + cover (against ranged)."""
    term, _ = dex_term(sheet, attacker_invisible=attacker_invisible)
    parts: list[tuple[str, int]] = [("base", 15), ("DES", term), ("NH", sheet.level)]
    if sheet.def_bonus:
        parts.append(("BDEF", sheet.def_bonus))
    if sheet.shield:
        parts.append(("escudo ×2" if sheet.dodge else "escudo", sheet.shield * (2 if sheet.dodge else 1)))
    if sheet.dodge:
        parts.append(("esquivar", sheet.dodge))
    if sheet.charged:
        parts.append(("cargar", -2))
    ranged = melee = 0
    for condition in sheet.conditions:
        info = CONDITIONS.get(condition.id)
        if info is None:
            continue
        if info.defense:
            parts.append((info.id, info.defense))
        if info.defense_ranged:
            parts.append((info.id, info.defense_ranged))
            ranged += info.defense_ranged
        if info.defense_melee:
            parts.append((f"cc:{info.id}", info.defense_melee))
            melee += info.defense_melee
    level = cover_level(sheet)
    if level is not None:
        parts.append(("cobertura", COVER[level]))
        ranged += COVER[level]
    shared = sum(value for label, value in parts
                 if label not in ("cobertura", "tumbado") and not label.startswith("cc:"))
    return Defense(shared + ranged, shared + melee, tuple(parts))


def passive(sheet: CsSheet, attribute: int) -> int:
    """Resistencia pasiva: 15 + attribute + NH."""
    return 15 + attribute + sheet.level


def attack_modifiers(sheet: CsSheet, *, melee: bool | None = None) -> list[tuple[str, int]]:
    """What the tracker knows that changes this combatant's next attack roll (§6.6):
    aim (ranged), and its conditions' modifiers."""
    found: list[tuple[str, int]] = []
    if sheet.aim and melee is not True:
        found.append(("apuntar", sheet.aim))
    for condition in sheet.conditions:
        info = CONDITIONS.get(condition.id)
        if info is None:
            continue
        if info.attack:
            found.append((info.id, info.attack))
        if info.attack_melee and melee is not False:
            found.append((f"{info.id} (cc)", info.attack_melee))
    return found
