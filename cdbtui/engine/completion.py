"""Completion of a command line being typed: keywords, names and maneuver ids.

Part of the command language (the parser's vocabulary), so it lives with it: the
TUI's `:` line only shows what this proposes.
"""

from __future__ import annotations

from .catalog import catalog_for
from .commands import ACTIONS, KEYWORDS, quote
from .model import Fight
from .text import fold

def completions(fight: Fight, text: str) -> tuple[str, ...]:
    """Ways to finish the last word of a command line: keywords, names, maneuver ids."""
    head, _, last = text.rpartition(" ")
    if last.startswith('"'):
        last = last[1:]
    key = fold(last)
    names = [quote(c.name) for c in fight.combatants]
    if not head.strip():
        pool = sorted(set(KEYWORDS.values())) + names
    else:
        pool = names + sorted(set(ACTIONS.values())) + [m.id for m in catalog_for(fight).maneuvers]
    seen: dict[str, None] = {}
    for word in pool:
        if fold(word.strip('"')).startswith(key) and fold(word.strip('"')) != key:
            seen.setdefault(word, None)
    prefix = head + " " if head else ""
    return tuple(prefix + word for word in seen)
