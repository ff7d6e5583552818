"""The state of a fight: immutable attrs value objects, changed only with `evolve`.

Vocabulary follows RULES.md §1: a `Fight` holds `Combatant`s, a `turn`, the current
`moment` of the countdown and the `log`.  Nothing here knows about commands, files or
screens; `rules.py` is the only place that makes a new state out of an old one.
"""

from __future__ import annotations

import math
from enum import StrEnum

from attrs import evolve, field, frozen

#: Wound categories (RULES.md §6), in the order their boxes fill, with the total
#: penalty a combatant suffers once a box of that category is marked.
WOUND_CATEGORIES = ("Rasguño", "Herido", "Gravemente Herido", "Incapacitado", "Moribundo")
FATIGUE_CATEGORIES = ("Fatigado", "Aturdido", "Gravemente Aturdido", "Incapacitado", "Exhausto")
TRACK_PENALTIES = (0, -1, -3, -6, -6)
#: Boxes per category when the GM gives none (the Vigor table is not in the seeds).
DEFAULT_BOXES = (3, 3, 2, 2, 1)

#: Conditions with an effect on AC or on the countdown; any other word is a note.
GRAPPLED = "agarrado"
PINNED = "inmovilizado"
SURPRISED = "sorprendido"
INCAPACITATED = "incapacitado"
OUT_CONDITIONS = frozenset({"moribundo", "exhausto"})


class Status(StrEnum):
    """Where a combatant stands in the countdown of the current turn."""

    READY = "ready"
    ACTED = "acted"
    HOLDING = "holding"
    WAITING = "waiting"
    DONE = "done"
    OUT = "out"


STATUS_ES = {
    Status.READY: "por actuar",
    Status.ACTED: "ha actuado",
    Status.HOLDING: "retrasa",
    Status.WAITING: "a la espera",
    Status.DONE: "terminado",
    Status.OUT: "fuera de combate",
}

#: Statuses whose marker follows the countdown instead of fixing the next moment.
FOLLOWING = frozenset({Status.HOLDING, Status.WAITING})
#: Statuses of combatants still able to spend AC this turn.
ACTIVE = frozenset({Status.READY, Status.ACTED, Status.HOLDING, Status.WAITING})


@frozen
class Stop:
    """A tick on the sheet: a maneuver (or reaction) that began at `begin` ended at
    `moment` with `ac` left; the rows in between are the AC it spent."""

    moment: int
    ac: int
    begin: int


@frozen
class Carried:
    """A maneuver started without enough AC: `remaining` AC are spent next turn."""

    maneuver: str
    label: str
    remaining: int
    attack: bool = False
    aim: bool = False


@frozen
class Track:
    """A wound or fatigue track: boxes per category and how many are marked."""

    boxes: tuple[int, ...] = DEFAULT_BOXES
    marked: int = 0

    @property
    def size(self) -> int:
        return sum(self.boxes)

    @property
    def category(self) -> int | None:
        """Index of the worst category with a marked box, or None when clean."""
        if self.marked == 0:
            return None
        total = 0
        for index, count in enumerate(self.boxes):
            total += count
            if self.marked <= total:
                return index
        return len(self.boxes) - 1

    @property
    def penalty(self) -> int:
        category = self.category
        return 0 if category is None else TRACK_PENALTIES[category]


@frozen(cache_hash=True)
class Combatant:
    """One column of the sheet: a character's sheet data and its place in the countdown."""

    name: str
    ac_per_turn: int
    side: str = "pnj"
    ini: int = 0
    agi: int = 0
    ate: int = 0
    skill: int = 0
    mov: int = 0
    talents: tuple[str, ...] = ()
    hidden: bool = False
    private: bool = False
    start: int | None = None
    marker: int | None = None
    ac: int = 0
    status: Status = Status.READY
    attacks: int = 0
    extra_targets: int = 0
    stops: tuple[Stop, ...] = ()
    maneuvers: tuple[str, ...] = ()
    carried: Carried | None = None
    conditions: tuple[str, ...] = ()
    aim: int = 0
    aimed_this_turn: bool = False
    aimed_last_turn: bool = False
    moved_this_turn: bool = False
    recon_this_turn: bool = False
    acting: bool = False
    arrival: int = 0
    trigger: str | None = None
    wounds: Track = field(factory=Track)
    fatigue: Track = field(factory=Track)

    @property
    def key(self) -> str:
        return self.name.casefold()

    @property
    def is_pc(self) -> bool:
        return self.side == "pj"

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def has_talent(self, talent: str) -> bool:
        return talent in self.talents

    def budget(self, turn: int) -> int:
        """AC available at the start of `turn` (RULES.md §5: rounded up)."""
        ac = self.ac_per_turn
        if turn == 1 and self.has(SURPRISED):
            ac = math.ceil(ac / 2)
        if self.has(PINNED):
            ac = math.ceil(ac / 4)
        elif self.has(GRAPPLED):
            ac = math.ceil(ac / 2)
        return ac

    @property
    def attack_penalty(self) -> int:
        """Penalty of the next attack this turn: −1 for each attack already made."""
        return -self.attacks

    @property
    def modifier(self) -> int:
        """Total modifier to the next attack roll (RULES.md §6)."""
        return (
            self.wounds.penalty
            + self.fatigue.penalty
            + self.attack_penalty
            - self.extra_targets
            + self.aim
        )

    def with_stop(self, begin: int, label: str) -> Combatant:
        """This combatant with a tick at its marker for a maneuver begun at `begin`."""
        assert self.marker is not None
        return evolve(
            self,
            stops=(*self.stops, Stop(self.marker, self.ac, begin)),
            maneuvers=(*self.maneuvers, label),
        )


@frozen
class LogEntry:
    """One line of the fight's log: what happened, when."""

    turn: int
    moment: int | None
    text: str
    warning: bool = False

    def __str__(self) -> str:
        when = f"T{self.turn}" + ("" if self.moment is None else f" M{self.moment}")
        return f"{when} · {self.text}"


@frozen
class Fight:
    """A whole encounter: the roster, the countdown, the log and the RNG position."""

    name: str = "Combate"
    rules: str = "cdb"
    seed: int = 0
    rolls: int = 0
    turn: int = 0
    moment: int | None = None
    clock: int = 0
    combatants: tuple[Combatant, ...] = ()
    log: tuple[LogEntry, ...] = ()
    #: Iniciativa Rápida (Walküre's optional rule): no moments, one go each in start order.
    quick: bool = False
    #: In Iniciativa Rápida, whose go it is (None between goes and once the turn is over).
    actor: str | None = None

    def find(self, name: str) -> Combatant | None:
        key = name.casefold()
        for combatant in self.combatants:
            if combatant.key == key:
                return combatant
        return None

    def index(self, name: str) -> int:
        key = name.casefold()
        for position, combatant in enumerate(self.combatants):
            if combatant.key == key:
                return position
        raise KeyError(name)

    def replace(self, *changed: Combatant) -> Fight:
        """The fight with these combatants (matched by name) swapped in."""
        by_key = {c.key: c for c in changed}
        return evolve(
            self,
            combatants=tuple(by_key.get(c.key, c) for c in self.combatants),
        )

    def note(self, text: str, *, warning: bool = False) -> Fight:
        entry = LogEntry(self.turn, self.moment, text, warning)
        return evolve(self, log=(*self.log, entry))

    def tick(self) -> tuple[Fight, int]:
        """Advance the arrival clock: who reached a moment first breaks late ties."""
        return evolve(self, clock=self.clock + 1), self.clock + 1

    @property
    def started(self) -> bool:
        return self.turn > 0

    @property
    def in_play(self) -> tuple[Combatant, ...]:
        """Combatants that take part in the countdown (a start moment is known)."""
        return tuple(c for c in self.combatants if c.start is not None)

    @property
    def turn_over(self) -> bool:
        if not self.started:
            return False
        if self.quick:  # everyone has had their go (some may keep AC to react)
            return self.actor is None
        return all(c.status in (Status.DONE, Status.OUT) for c in self.in_play)
