"""What every C-System rule module needs: look-ups, sheet edits, the die, the log."""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..errors import Refusal
from ..model import Combatant, Fight, LogKind, copier_of, evolve, mention_of
from ..turnstamp import TurnStamp
from .model import CsPart, CsSheet
from .tables import CONDITIONS


def get(fight: Fight, name: str) -> Combatant:
    """`name` as it stands in this turn (`current`): what every rule reads and edits."""
    c = fight.find(name)
    if c is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return current(c, fight.turn)


def stored(fight: Fight, name: str) -> Combatant:
    """`name` as stored, its turn fields perhaps an earlier turn's: for reading what
    lasts the fight (initiative, DES, Alerta, conditions…) without renewing it."""
    c = fight.find(name)
    if c is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return c


def acted_now(fight: Fight, c: Combatant) -> bool:
    """Whether `c` has had its go in this turn (`current`'s answer, without renewing)."""
    s = c.sheet
    return s.acted and (s.turn is None or s.turn == fight.turn)


#: A sheet as a new turn leaves it: this turn's fields reset (CSYSTEM §4.1: no
#: carry-over), made once for these fields.  Every value is a constant or the old
#: sheet's own.
_renewed = copier_of(CsSheet, ("turn",), {"turn": "turn", "acted": "False", "used": "()",
                                          "maneuvers": "()", "begun": "False"})


def _renew(s: CsSheet, turn: int) -> CsSheet:
    """`s` as turn `turn` leaves it (its weapons' `fired` at 0 too)."""
    renewed = _renewed(s, turn)
    if any(w.fired for w in s.weapons):
        renewed = evolve(renewed, weapons=tuple(w if not w.fired else evolve(w, fired=0) for w in s.weapons))
    return renewed


#: C-System's turn fields, read lazily (`engine.turnstamp`): a new turn copies no sheet.
TURNS = TurnStamp(CsSheet, _renew)
#: `c` as it stands in turn `turn`; the fight so; a view reading its fight so.
current = TURNS.current
current_fight = TURNS.current_fight
at_turn = TURNS.at_turn


def sheet(c: Combatant) -> CsSheet:
    s = c.sheet
    assert isinstance(s, CsSheet), c.name
    return s


def part(fight: Fight) -> CsPart:
    return fight.cs if fight.cs is not None else CsPart()


def with_part(fight: Fight, **changes) -> Fight:
    return evolve(fight, cs=evolve(part(fight), **changes))


def edit(fight: Fight, name: str, **changes) -> Fight:
    """The fight with `name`'s sheet changed."""
    c = get(fight, name)
    return fight.replace(evolve(c, sheet=evolve(sheet(c), **changes)))


def log(fight: Fight, text: str, about: Iterable[str] = (), *, warning: bool = False,
        kind: LogKind = LogKind.ACTION, free: str | None = None) -> Fight:
    """One log entry naming `about` (with their flags now: the players' filter)."""
    mentions = []
    for name in about:
        c = fight.find(name)
        mentions.append(name if c is None else mention_of(c))
    return fight.note(text, warning=warning, kind=kind, about=mentions, free=free)


def roll(fight: Fight, sides: int) -> tuple[Fight, int]:
    """A die of the fight's RNG (a pure function of the seed and the count of rolls)."""
    die = random.Random(f"{fight.seed}:{fight.rolls}").randint(1, sides)
    return evolve(fight, rolls=fight.rolls + 1), die


def is_out(s: CsSheet) -> bool:
    """Out of the fight (struck on the sheet): inconsciente, moribundo, muerto, inutilizado."""
    return any(CONDITIONS[c.id].out for c in s.conditions if c.id in CONDITIONS)


def cond_name(id: str) -> str:
    info = CONDITIONS.get(id)
    return info.name if info is not None else id


def require_started(fight: Fight) -> None:
    if not fight.started:
        raise Refusal("El combate no ha empezado: usa «empezar» cuando todos tengan iniciativa")


def order_names(fight: Fight) -> tuple[str, ...]:
    return part(fight).order


def turn_over(fight: Fight) -> bool:
    """A started fight with nobody's go under way (everyone out, or all had theirs)."""
    return fight.started and fight.actor is None
