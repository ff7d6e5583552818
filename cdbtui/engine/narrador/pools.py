"""Dice pools of the storyteller system (STORYTELLER.md §6.2, §11): the base pool
of an action, the multiple-action penalty of its slot, and the live dice (computed,
never stored: SYSTEMS.md §3.5 "Pools").  Apart from the rules so that the views can
read them without the rules module."""

from __future__ import annotations

from .model import Declared, NarrSheet
from .tables import Maneuver


def pool_of(s: NarrSheet, m: Maneuver, typed: int | None) -> int | None:
    """The base pool: typed, or traits (the attribute alone without the skill) +
    Precisión; None when the attribute is unknown (§2.5 Decision)."""
    if typed is not None:
        return typed
    if not m.traits:
        return None
    attribute = s.trait(m.traits[0])
    if attribute is None:
        return None
    skill = s.trait(m.traits[1]) if len(m.traits) > 1 else 0
    return attribute + (skill or 0) + m.accuracy


def slot_penalty(n: int, k: int) -> int:
    """Action k (1-based) of n declared (§6.2): −(n + k − 1); no penalty alone."""
    return 0 if n == 1 and k == 1 else -(n + k - 1)


def dice(s: NarrSheet, d: Declared, *, extra: int = 0) -> int | None:
    """The live dice of a declared action: base pool + slot penalty + health (§6.2, §11)."""
    if d.pool is None:
        return None
    return d.pool + d.penalty + s.health_penalty + extra
