"""The order of initiative (CSYSTEM.md §3): rolled or typed once, ties by DES,
Alerta and the roster (swappable), kept for the fight; a change of value re-places
the combatant after the last one whose initiative is at least its new value (§3.5);
lowering one's place copies the value of the one it now follows (§3.4)."""

from __future__ import annotations

from ..errors import Refusal
from ..model import Fight, LogKind
from .common import edit, log, part, sheet, stored, with_part
from .defense import effective_dex


def tie_key(fight: Fight, name: str) -> tuple[int, int, int, int]:
    s = sheet(stored(fight, name))
    assert s.initiative is not None
    return (-s.initiative, -s.dex, -s.alerta, s.tie)


def sorted_order(fight: Fight) -> tuple[str, ...]:
    """Everyone with an initiative, by value, DES, Alerta, then the roster (§3.3)."""
    named = [c.name for c in fight.combatants if sheet(c).initiative is not None]
    return tuple(sorted(named, key=lambda n: tie_key(fight, n)))


def tie_reason(fight: Fight, a: str, b: str) -> str | None:
    """Why `a` goes before `b` when they share a value ("DES 6 > 5"), None if they don't."""
    sa, sb = sheet(stored(fight, a)), sheet(stored(fight, b))
    if sa.initiative != sb.initiative:
        return None
    if sa.after == b:
        return f"se retrasó tras {b}"
    if sa.dex != sb.dex:
        return f"DES {sa.dex} > {sb.dex}"
    if sa.alerta != sb.alerta:
        return f"Alerta {sa.alerta} > {sb.alerta}"
    return "orden de la lista"


def note_ties(fight: Fight) -> Fight:
    order = part(fight).order
    reasons = []
    for a, b in zip(order, order[1:]):
        why = tie_reason(fight, a, b)
        if why is not None:
            reasons.append(f"{a} antes que {b} ({why})")
    if not reasons:
        return fight
    return log(fight, "Orden: " + "; ".join(reasons), [n for n in order], kind=LogKind.ORDER)


def resort(fight: Fight, name: str) -> Fight:
    """Before the fight starts: `name` (a new value, or its first) takes its place by
    the keys of §3.3 among the others, who keep their order: the order stays the
    sort of §3.3, but for the GM's own placements (`orden … antes/tras`), which
    neither a later value nor `empezar` undoes (§3.6)."""
    key = tie_key(fight, name)
    rest = [n for n in part(fight).order if n != name]
    at = next((i for i, other in enumerate(rest) if tie_key(fight, other) > key), len(rest))
    return with_part(fight, order=(*rest[:at], name, *rest[at:]))


def place_by_value(fight: Fight, name: str) -> Fight:
    """§3.5: `name` (with its new value) goes after the last combatant whose
    initiative is at least its value; ties stay ahead of the one that changed."""
    value = sheet(stored(fight, name)).initiative
    assert value is not None
    rest = [n for n in part(fight).order if n != name]
    at = 0
    for index, other in enumerate(rest):
        if (sheet(stored(fight, other)).initiative or 0) >= value:
            at = index + 1
    return with_part(fight, order=(*rest[:at], name, *rest[at:]))


def position(fight: Fight, name: str) -> int | None:
    order = part(fight).order
    return order.index(name) if name in order else None


def change_value(fight: Fight, name: str, value: int, why: str) -> Fight:
    """A change of initiative value mid-fight (Ensordecido, a power): re-placed."""
    s = sheet(stored(fight, name))
    old = s.initiative
    fight = edit(fight, name, initiative=value, after=None,
                 shift=s.shift + (0 if old is None else value - old))
    if not fight.started:
        return resort(fight, name)
    before = position(fight, name)
    fight = place_by_value(fight, name)
    order = part(fight).order
    at = order.index(name)
    where = f"pasa tras {order[at - 1]}" if at > 0 else "pasa a ser el primero"
    about = [name, order[at - 1]] if at > 0 else [name]
    if before == at:
        where = "no cambia de lugar"
        about = [name]
    return log(fight, f"{name}: {why}: iniciativa {old} → {value}, {where}", about, kind=LogKind.ORDER)


def initiative_roll(fight: Fight, name: str, die: int) -> tuple[int, str]:
    """1d20 + effective DES + Alerta + the weapon's INI (§3.1), and the sum as text."""
    s = sheet(stored(fight, name))
    dex = effective_dex(s)
    total = die + dex + s.alerta + s.ini_mod
    text = f"{die} + {dex} + {s.alerta}" + (f" {s.ini_mod:+d}".replace("+", "+ ").replace("-", "− ")
                                             if s.ini_mod else "")
    return total, f"{text} = {total}"


def swap(fight: Fight, a: str, b: str) -> Fight:
    """`cambiar A B`: two combatants tied on every key trade places (§3.3)."""
    sa, sb = sheet(stored(fight, a)), sheet(stored(fight, b))
    if a == b:
        raise Refusal("«cambiar» necesita dos combatientes distintos")
    if sa.initiative is None or sb.initiative is None:
        missing = a if sa.initiative is None else b
        raise Refusal(f"{missing} aún no tiene iniciativa: no hay empate que cambiar")
    if (sa.initiative, sa.dex, sa.alerta) != (sb.initiative, sb.dex, sb.alerta):
        raise Refusal(f"Cambiar: {a} y {b} no están empatados (iniciativa {sa.initiative} y"
                      f" {sb.initiative}, DES {sa.dex} y {sb.dex}, Alerta {sa.alerta} y {sb.alerta})")
    fight = edit(edit(fight, a, tie=sb.tie), b, tie=sa.tie)
    order = list(part(fight).order)
    if a in order and b in order:
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]
    fight = with_part(fight, order=tuple(order))
    return log(fight, f"El DJ cambia el orden del empate: {b} antes que {a}" if order.index(b) < order.index(a)
               else f"El DJ cambia el orden del empate: {a} antes que {b}", [a, b], kind=LogKind.ORDER)


def move_next_to(fight: Fight, name: str, other: str, before: bool) -> Fight:
    """`name` right after (or before) `other`, taking its value (so the order stays
    sorted by value)."""
    fight = edit(fight, name, initiative=sheet(stored(fight, other)).initiative)
    rest = [n for n in part(fight).order if n != name]
    at = rest.index(other) + (0 if before else 1)
    return with_part(fight, order=(*rest[:at], name, *rest[at:]))
