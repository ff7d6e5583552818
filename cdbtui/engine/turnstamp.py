"""Turn fields read lazily: how C-System and the storyteller start a new turn without
copying a sheet (benchmarks/csystem.py, benchmarks/narrador.py).

A ruleset's sheet keeps the fields that only last a turn (C-System's `acted`,
`used`…; the storyteller's `initiative`, `declared`…) with the `turn` they belong
to.  A new turn only moves `Fight.turn` on; a sheet whose `turn` is older reads as
the new turn leaves it (`renew`), the first time it is read in that turn:

- the engine reads every combatant through its ruleset's `get` (`current`), so a
  rule always sees, and an edit always writes, the sheet as it stands this turn;
- the views read a fight through `current_fight` (the `at_turn` decorator on their
  entry points), which renews the stale combatants of a roster, each once per turn
  (remembered by identity: the same stale combatant read in many states of a turn
  is renewed once, so the views' caches by combatant keep working).

`turn = None` on a sheet means the fight's current turn (a save from before the
field: each ruleset stamps its sheets when a save is read).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from attrs import define, field

from .model import Combatant, Fight, copier_of, evolve


@define
class TurnStamp:
    """The lazy renewal of one ruleset's sheets: `sheet_type` (attrs, with a `turn`
    field) and `renew(sheet, turn)`, the sheet as a new turn `turn` leaves it
    (stamped with `turn`), a pure function of the two."""

    sheet_type: type
    renew: Callable[[object, int], object]
    #: Combatants already brought to a turn, by id (kept alive with them).
    _combatants: dict[int, tuple[Combatant, int, Combatant]] = field(factory=dict, init=False)
    #: The last fights brought to their turn, by id.
    _fights: dict[int, tuple[Fight, Fight]] = field(factory=dict, init=False)

    def current(self, c: Combatant, turn: int) -> Combatant:
        """`c` as it stands in turn `turn`: its sheet renewed when its turn fields
        belong to an earlier turn (or only stamped when they say None); any other
        combatant is itself."""
        s = c.sheet
        if s.__class__ is not self.sheet_type or s.turn == turn:
            return c
        known = self._combatants.get(id(c))
        if known is not None and known[0] is c and known[1] == turn:
            return known[2]
        renewed = _stamped(s, turn) if s.turn is None else self.renew(s, turn)
        made = _with_sheet(c, renewed)
        if len(self._combatants) > 8192:
            self._combatants.clear()
        self._combatants[id(c)] = (c, turn, made)
        return made

    def current_fight(self, fight: Fight) -> Fight:
        """`fight` with every combatant `current` in its turn (the same object when
        none is stale); remembered for the last few fights."""
        known = self._fights.get(id(fight))
        if known is not None and known[0] is fight:
            return known[1]
        turn = fight.turn
        roster = fight.combatants
        renewed = tuple(self.current(c, turn) for c in roster)
        made = fight if all(a is b for a, b in zip(renewed, roster)) else evolve(fight, combatants=renewed)
        if len(self._fights) > 16:
            self._fights.clear()
        self._fights[id(fight)] = (fight, made)
        self._fights[id(made)] = (made, made)
        return made

    def at_turn(self, view: Callable) -> Callable:
        """A view whose first argument is a fight (or None) reads it `current_fight`."""
        @wraps(view)
        def read(fight, *args, **kwargs):
            return view(None if fight is None else self.current_fight(fight), *args, **kwargs)
        return read

    def stamped(self, fight: Fight) -> Fight:
        """A loaded fight whose sheets don't say their turn (a save from before the
        field): their turn fields belong to the turn it was saved in."""
        if all(c.sheet.__class__ is not self.sheet_type or c.sheet.turn is not None for c in fight.combatants):
            return fight
        return evolve(fight, combatants=tuple(
            evolve(c, sheet=evolve(c.sheet, turn=fight.turn))
            if c.sheet.__class__ is self.sheet_type and c.sheet.turn is None else c for c in fight.combatants))


_with_sheet = copier_of(Combatant, ("sheet",), {"sheet": "sheet"})


def _stamped(sheet, turn: int):
    return evolve(sheet, turn=turn)
