"""The storyteller's turn fields, read lazily (`engine.turnstamp`): a new turn
copies no sheet; a sheet whose turn fields belong to an earlier turn reads as the
start of this one leaves it (`_renew`).  Kept apart from the rules so that the
views read sheets so without importing them."""

from __future__ import annotations

from ..model import copier_of, evolve
from ..turnstamp import TurnStamp
from .model import NarrSheet

#: A sheet at the start of a turn (§13): this turn's fields reset, made once for these
#: fields; every value is a constant or the old sheet's own.
_renewed_sheet = copier_of(NarrSheet, ("turn", "status", "conditions", "weapons"), {
    "turn": "turn", "initiative": "None", "status": "status", "declared": "()", "full_defense": "False",
    "defenses": "0", "aborted": "False", "abort_failed": "False",
    "spent": "False", "conditions": "conditions", "weapons": "weapons"})


def _renew(s: NarrSheet, turn: int) -> NarrSheet:
    """`s` as the start of turn `turn` leaves it (§4, §13): what lasted until an
    earlier turn's end is gone, surprise too, the shots fired are back at 0, the
    Willpower point is available, and nothing is declared or rolled yet."""
    conditions = s.conditions
    if conditions and any(x.until is not None and x.until < turn or x.id == "sorprendido" for x in conditions):
        conditions = tuple(x for x in conditions if (x.until is None or x.until >= turn) and x.id != "sorprendido")
    weapons = s.weapons
    if weapons and any(w.shots for w in weapons):
        weapons = tuple(evolve(w, shots=0) if w.shots else w for w in weapons)
    return _renewed_sheet(s, turn, "out" if s.out else "to_declare", conditions, weapons)


#: The storyteller's turn fields, read lazily (`engine.turnstamp`): a new turn copies no sheet.
TURNS = TurnStamp(NarrSheet, _renew)
current = TURNS.current
current_fight = TURNS.current_fight
at_turn = TURNS.at_turn
#: A loaded fight's sheets stamped with its turn (a save from before `NarrSheet.turn`).
stamped = TURNS.stamped


def initiative_now(s: NarrSheet, turn: int) -> int | None:
    """`s`'s initiative as it stands in turn `turn` (`_renew`'s, without renewing)."""
    return s.initiative if s.turn is None or s.turn == turn else None


def status_now(s: NarrSheet, turn: int) -> str:
    """`s`'s place in turn `turn` (`_renew`'s, without renewing)."""
    return s.status if s.turn is None or s.turn == turn else ("out" if s.out else "to_declare")
