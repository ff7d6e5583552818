"""The maneuver picker's choices: the catalog as one combatant sees it."""

from __future__ import annotations

from attrs import field, frozen

from ..engine.catalog import VARIABLE_ES, catalog_for
from ..engine.model import Combatant, Fight
from ..engine.text import fold, slug
from ..printable import literal

@frozen
class Choice:
    """A maneuver offered to a combatant: its cost with talents applied and a hint."""

    id: str
    #: The name, hint and summary are shown (house rules name maneuvers): literal.
    name: str = field(converter=literal)
    cost: int
    attack: bool
    reaction: bool
    variable: str | None
    hint: str = field(converter=literal)
    summary: str = field(default="", converter=literal)


def maneuver_choices(fight: Fight, c: Combatant) -> tuple[Choice, ...]:
    """The catalog as `c` sees it: maneuvers whose talents it has, costs with its talents.

    The hint only compares the engine's numbers (cost vs AC left); the engine decides.
    """
    choices = []
    for m in catalog_for(fight).available(c):
        cost = m.base_cost(c)
        hint = ""
        if m.variable is not None:
            hint = f"+ {VARIABLE_ES[m.variable]}"
        elif fight.started and cost > c.ac:
            short = cost - c.ac
            hint = (f"faltan {short} AC: no puede" if m.reaction
                    else f"faltan {short} AC: se completa el turno siguiente")
        choices.append(Choice(m.id, m.name, cost, m.attack, m.reaction, m.variable, hint,
                              m.summary))
    return tuple(choices)


def filter_choices(choices: tuple[Choice, ...], query: str) -> tuple[Choice, ...]:
    """Choices with a word starting with each typed word (accents and case optional)."""
    words = fold(query).replace("-", " ").split()
    if not words:
        return choices

    def matches(choice: Choice) -> bool:
        names = slug(choice.name).split("-") + choice.id.split("-")
        return all(any(name.startswith(w) for name in names) for w in words)

    return tuple(ch for ch in choices if matches(ch))
