"""What every C-System rule module needs: look-ups, sheet edits, the die, the log."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import wraps

from ..errors import Refusal
from ..model import Combatant, Fight, LogKind, copier_of, evolve, mention_of
from .model import CsPart, CsSheet
from .tables import CONDITIONS


def get(fight: Fight, name: str) -> Combatant:
    """`name` as it stands in this turn (`current`): what every rule reads and edits."""
    c = fight.find(name)
    if c is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return current(c, fight.turn)


#: A sheet as a new turn leaves it: this turn's fields reset (CSYSTEM §4.1: no
#: carry-over), made once for these fields (a turn of 200 renews 200 sheets, as they
#: are read: `current`).  Every value is a constant or the old sheet's own.
_renewed = copier_of(CsSheet, ("turn",), {"turn": "turn", "acted": "False", "used": "()",
                                          "maneuvers": "()", "begun": "False"})
_with_sheet = copier_of(Combatant, ("sheet",), {"sheet": "sheet"})
#: Combatants already brought to a turn, by id (kept alive with them): the same
#: stale combatant read in many states of one turn is renewed once.
_CURRENT: dict[int, tuple[Combatant, int, Combatant]] = {}


def current(c: Combatant, turn: int) -> Combatant:
    """`c` as it stands in turn `turn`: a sheet whose turn's fields belong to an
    earlier turn reads with them reset (and its weapons' `fired` at 0), stamped
    with `turn`; any other combatant is itself."""
    s = c.sheet
    if not isinstance(s, CsSheet) or s.turn == turn:
        return c
    known = _CURRENT.get(id(c))
    if known is not None and known[0] is c and known[1] == turn:
        return known[2]
    if s.turn is None:  # the fight's current turn already: only stamped
        renewed = _renewed_keeping(s, turn)
    else:
        renewed = _renewed(s, turn)
        if any(w.fired for w in s.weapons):
            renewed = evolve(renewed, weapons=tuple(w if not w.fired else evolve(w, fired=0)
                                                          for w in s.weapons))
    made = _with_sheet(c, renewed)
    if len(_CURRENT) > 8192:
        _CURRENT.clear()
    _CURRENT[id(c)] = (c, turn, made)
    return made


_renewed_keeping = copier_of(CsSheet, ("turn",), {"turn": "turn"})


def current_fight(fight: Fight) -> Fight:
    """`fight` with every combatant `current` in its turn: what the views read (the
    engine reads each combatant through `common.get`, which does the same).  The
    same fight object when nothing is stale; remembered for the last few fights."""
    known = _CURRENT_FIGHTS.get(id(fight))
    if known is not None and known[0] is fight:
        return known[1]
    turn = fight.turn
    roster = fight.combatants
    renewed = tuple(current(c, turn) for c in roster)
    made = fight if all(a is b for a, b in zip(renewed, roster)) else evolve(fight, combatants=renewed)
    if len(_CURRENT_FIGHTS) > 16:
        _CURRENT_FIGHTS.clear()
    _CURRENT_FIGHTS[id(fight)] = (fight, made)
    _CURRENT_FIGHTS[id(made)] = (made, made)
    return made


_CURRENT_FIGHTS: dict[int, tuple[Fight, Fight]] = {}


def at_turn(view: Callable) -> Callable:
    """A view of a C-System fight (its first argument) reads it `current_fight`."""
    @wraps(view)
    def read(fight, *args, **kwargs):
        return view(None if fight is None else current_fight(fight), *args, **kwargs)
    return read


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
