"""The maneuver picker's choices: the catalog as one combatant sees it, the
maneuvers it used in this fight first (most recent first), and, for an attack, the
targets it may name (the other side, its last targets first)."""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen

from ..engine.catalog import VARIABLE_ES
from ..engine.model import Combatant, Fight, LogKind, Role, Status
from ..engine.queries import is_out
from ..engine.spending import BLOCKS
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
    #: The combatant did it earlier in this fight (such rows come first).
    recent: bool = False

    @property
    def targeted(self) -> bool:
        """It names a target (`a BLANCO`): an attack, or a Bloqueo (the attacker)."""
        return self.attack or self.id in BLOCKS

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
    each with what the engine says about doing it now (`engine.options`).  Those it did
    earlier in this fight come first, the most recent first (`used_maneuvers`): doing
    the same again is Enter twice; the rest follow in catalog order.  What it may not
    do now goes after all it may (a grappled one's Escapar is not buried under the
    shots it did before)."""
    found = options(fight, c.name).maneuvers
    used = used_maneuvers(fight, c, {o.maneuver.name: o.maneuver.id for o in found})
    rank = {maneuver_id: index for index, maneuver_id in enumerate(used)}
    choices = []
    for option in found:
        m = option.maneuver
        state = _STATES[option.can]
        if m.variable is not None and (option.ok or not fight.started):
            state = ChoiceState.VARIABLE
        choices.append(Choice(m.id, m.name, option.cost, m.attack, m.reaction, m.variable,
                              _hint(option, state, fight.started), m.summary, state,
                              option.why, m.id in rank))
    order = {ch.id: index for index, ch in enumerate(choices)}
    return tuple(sorted(choices, key=lambda ch: (not ch.allowed, rank.get(ch.id, len(rank)), order[ch.id])))


#: Log entries of a maneuver done (an action, a reaction or an interrupt's maneuver).
_DONE = (LogKind.ACTION, LogKind.REACTION)


def _acts(entry, c: Combatant) -> bool:
    """Whether a log entry is one of `c`'s own maneuvers («NAME: …», `c` its actor)."""
    return (entry.kind in _DONE and entry.text.startswith(f"{c.name}: ")
            and any(m.role is Role.ACTOR and m.name == c.name for m in entry.about))


def used_maneuvers(fight: Fight, c: Combatant, names: dict[str, str]) -> tuple[str, ...]:
    """The ids of the maneuvers `c` did in this fight, most recent first, read from
    the structured log: its entries as actor of an action or a reaction, whose text
    begins with the maneuver's name (`names`: name → id; «Mike: Disparar Armas Largas
    a Ninja (3 AC) …»; a completed carried one and a free action name none).  The
    longest name is tried first («Apuntar a una parte del Cuerpo» is no «Apuntar»)."""
    by_length = sorted(names.items(), key=lambda item: -len(item[0]))
    head = len(c.name) + 2
    seen: dict[str, None] = {}
    read: dict[str, str | None] = {}  # a long fight repeats its lines: each read once

    def maneuver_of(text: str) -> str | None:
        text = text[head:]
        for name, maneuver_id in by_length:
            if text.startswith(name) and text[len(name):len(name) + 1] in ("", " ", ","):
                return maneuver_id
        return None

    for entry in reversed(fight.log):
        if not _acts(entry, c):
            continue
        if entry.text not in read:
            read[entry.text] = maneuver_of(entry.text)
        if read[entry.text] is not None:
            seen.setdefault(read[entry.text], None)
            if len(seen) == len(names):
                break
    return tuple(seen)


@frozen
class Target:
    """A combatant an attack may name, as the picker's target step lists it."""

    #: The name as the roster spells it (the command line names it so).
    name: str
    #: What the row says of it: its side when a faction, «oculto» when hidden…
    side: str = field(default="", converter=literal)
    hidden: bool = False
    #: The attacker named it before in this fight (such rows come first).
    recent: bool = False

    @property
    def label(self) -> str:
        """The name as shown: literally (a name is the DJ's text)."""
        return literal(self.name)


def recent_targets(fight: Fight, c: Combatant) -> tuple[str, ...]:
    """Whom `c` named as target in this fight, most recent first (the log's mentions)."""
    seen: dict[str, None] = {}
    for entry in reversed(fight.log):
        if _acts(entry, c):
            for m in entry.about:
                if m.role is Role.TARGET:
                    seen.setdefault(m.name, None)
    return tuple(seen)


def target_choices(fight: Fight, c: Combatant) -> tuple[Target, ...]:
    """The combatants `c` may name as its target: the other side (a PJ's are the PNJ
    and factions, a PNJ's the rest), hidden ones too (the DJ's screen), those out of
    the fight left out; the ones it targeted before first, the rest in roster order."""
    pool = [x for x in fight.combatants
            if x.key != c.key and x.side != c.side and x.status is not Status.OUT and not is_out(x)]
    recent = {name: index for index, name in enumerate(recent_targets(fight, c))}
    order = sorted(range(len(pool)), key=lambda i: (recent.get(pool[i].name, len(recent)), i))
    return tuple(
        Target(x.name, "" if x.side in ("pj", "pnj") else x.side, x.hidden, x.name in recent)
        for x in (pool[i] for i in order)
    )


def filter_targets(targets: tuple[Target, ...], query: str) -> tuple[Target, ...]:
    """Targets with a word starting with each typed word (accents and case optional):
    «viu» finds «La Viuda Negra», «23» «Orco número 23»."""
    words = fold(query).split()
    return tuple(t for t in targets
                 if all(any(w.startswith(typed) for w in fold(t.name).split()) for typed in words))


def filter_choices(choices: tuple[Choice, ...], query: str) -> tuple[Choice, ...]:
    """Choices with a word starting with each typed word (accents and case optional)."""
    words = fold(query).replace("-", " ").split()
    if not words:
        return choices

    def matches(choice: Choice) -> bool:
        names = slug(choice.name).split("-") + choice.id.split("-")
        return all(any(name.startswith(w) for name in names) for w in words)

    return tuple(ch for ch in choices if matches(ch))
