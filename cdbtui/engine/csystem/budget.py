"""The action economy (CSYSTEM.md §4.2–4.5): what a combatant may still take this
turn.  A turn is legal when the actions taken are one of its level's combinations
or part of one; the conditions' caps apply on top (the most restrictive wins)."""

from __future__ import annotations

from .model import CsSheet
from .tables import COMPLEX, CONDITIONS, MARK, SIMPLE, tier_of

Pair = tuple[int, int]


def counts(used: tuple[str, ...]) -> Pair:
    return used.count(COMPLEX), used.count(SIMPLE)


def _maximal(pairs: list[Pair]) -> tuple[Pair, ...]:
    """Those not dominated by another, in the sheet's order (most complex first)."""
    unique = sorted(set(pairs), key=lambda p: (-p[0], -p[1]))
    return tuple(p for p in unique
                 if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in unique))


def cap_of(sheet: CsSheet) -> tuple[Pair | None, str]:
    """The tightest cap its conditions put on the budget, and the condition's id."""
    best: Pair | None = None
    why = ""
    for condition in sheet.conditions:
        info = CONDITIONS.get(condition.id)
        if info is None or info.cap is None:
            continue
        if best is None or (info.cap[0] + info.cap[1]) < (best[0] + best[1]):
            best, why = info.cap, info.id
    return best, why


def combinations(sheet: CsSheet) -> tuple[Pair, ...]:
    """The maximal combinations of its level, cut by its conditions' cap."""
    combos = list(tier_of(sheet.level))
    cap, _ = cap_of(sheet)
    if cap is not None:
        combos = [(min(c, cap[0]), min(s, cap[1])) for c, s in combos]
    return _maximal([p for p in combos if p != (0, 0)]) or ((0, 0),)


def left(sheet: CsSheet, used: tuple[str, ...] | None = None) -> tuple[Pair, ...]:
    """The maximal combinations still legal after `used` (its turn so far): () when
    nothing is left."""
    c, s = counts(sheet.used if used is None else used)
    rest = [(C - c, S - s) for C, S in combinations(sheet) if C >= c and S >= s]
    return tuple(p for p in _maximal(rest) if p != (0, 0))


def allows(sheet: CsSheet, kind: str) -> bool:
    """Whether one more action of `kind` (complex / simple) keeps the turn legal."""
    need = (1, 0) if kind == COMPLEX else (0, 1)
    return any(c >= need[0] and s >= need[1] for c, s in left(sheet))


def pair_text(pair: Pair) -> str:
    return MARK[COMPLEX] * pair[0] + MARK[SIMPLE] * pair[1]


def left_text(pairs: tuple[Pair, ...]) -> str:
    """"■□ o □□", "—" when nothing is left."""
    return " o ".join(pair_text(p) for p in pairs) if pairs else "—"


def used_text(used: tuple[str, ...]) -> str:
    return "".join(MARK[kind] for kind in used)
