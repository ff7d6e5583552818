"""The maneuver picker's choices: the catalog as one combatant sees it."""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen

from ..engine.catalog import VARIABLE_ES
from ..engine.model import Combatant, Fight
from ..engine.options import Can, ManeuverOption, options
from ..engine.text import fold, slug
from ..printable import literal

class ChoiceState(StrEnum):
    """What a row of the picker says about doing that maneuver now (its hint's kind)."""

    #: Done at once (no hint).
    NOW = "now"
    #: A variable cost: the hint says what the typed number adds.
    VARIABLE = "variable"
    #: Begun now, completed next turn: the hint says how many AC it lacks.
    CARRIED = "carried"
    #: Too few AC and it cannot be carried (a reaction): refused.
    SHORT = "short"
    #: Not this combatant's moment: only reactions now.
    NOT_NOW = "not-now"
    #: Refused by another rule: the hint is the engine's reason.
    REFUSED = "refused"


#: The engine's answer → the row's state (a variable cost that may be done says so).
_STATES = {
    Can.NOW: ChoiceState.NOW,
    Can.CARRIED: ChoiceState.CARRIED,
    Can.SHORT: ChoiceState.SHORT,
    Can.NOT_NOW: ChoiceState.NOT_NOW,
    Can.NO: ChoiceState.REFUSED,
}


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
    #: What the hint says (the widget styles the row by it).
    state: ChoiceState = ChoiceState.NOW
    #: Why it cannot be done now (the engine's refusal), empty when it can.
    why: str = field(default="", converter=literal)

    @property
    def allowed(self) -> bool:
        """The engine would accept it now (done at once or carried over)."""
        return self.state in (ChoiceState.NOW, ChoiceState.VARIABLE, ChoiceState.CARRIED)


def _hint(option: ManeuverOption, state: ChoiceState, started: bool) -> str:
    maneuver = option.maneuver
    if state is ChoiceState.VARIABLE:
        return f"+ {VARIABLE_ES[maneuver.variable]}"
    if not started:
        return ""
    if state in (ChoiceState.CARRIED, ChoiceState.NOT_NOW) and option.missing:
        # Not now: what will happen at its moment with the AC it has left (the
        # picker's title says that only reactions are possible now).
        return f"faltan {option.missing} AC: se completa el turno siguiente"
    if state is ChoiceState.SHORT:
        return f"faltan {option.missing} AC: no puede"
    if state is ChoiceState.REFUSED:
        return option.why
    return ""


def maneuver_choices(fight: Fight, c: Combatant) -> tuple[Choice, ...]:
    """The catalog as `c` sees it: maneuvers whose talents it has, costs with its talents,
    each with what the engine says about doing it now (`engine.options`)."""
    choices = []
    for option in options(fight, c.name).maneuvers:
        m = option.maneuver
        state = _STATES[option.can]
        if m.variable is not None and (option.ok or not fight.started):
            state = ChoiceState.VARIABLE
        choices.append(Choice(m.id, m.name, option.cost, m.attack, m.reaction, m.variable,
                              _hint(option, state, fight.started), m.summary, state,
                              option.why))
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
