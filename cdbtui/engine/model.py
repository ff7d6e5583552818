"""The state of a fight: immutable attrs value objects, changed only with `evolve`.

Vocabulary follows RULES.md §1: a `Fight` holds `Combatant`s, a `turn`, the current
`moment` of the countdown and the `log`.  Nothing here knows about commands, files or
screens; `rules.apply` (rules.py and the rules modules it dispatches to) is the only
place that makes a new state out of an old one.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from itertools import chain, islice

import attrs
from attrs import field, frozen

from .csystem.model import CsPart, CsSheet
from .narrador.model import NarrPart, NarrSheet
from .text import fold


def evolve(inst, **changes):
    """`attrs.evolve`, fast for the two values every command copies (`Combatant`,
    `Fight`): a command changes a few fields of objects of 20 and 40 fields, and
    `attrs.evolve` re-runs the whole `__init__` generically (a new turn of 200
    combatants paid milliseconds for it).  For those two classes (no converters,
    validators or setattr hooks) a copier generated from their fields fills a new
    object in (see `_generated_copy`); any other class goes to `attrs.evolve`."""
    fast = _FAST.get(type(inst))
    if fast is None:
        return attrs.evolve(inst, **changes)
    fields, copier = fast
    if not changes.keys() <= fields:
        raise TypeError(f"{type(inst).__name__} has no field {sorted(changes.keys() - fields)[0]!r}")
    return copier(inst, changes)


#: Each fast-copied class's builder (see `_generated_copy`).
_BUILDERS: dict[type, type] = {}


def _builder(cls: type) -> type:
    """A plain class with exactly `cls`'s slots and no `__setattr__` of its own.

    A frozen slotted attrs class can only be filled in through its slots'
    descriptors, one Python-level call per field (about 0.15 µs each: 6 µs for a
    combatant).  An object made as a builder is filled in with ordinary attribute
    stores (which the interpreter does inline) and then made a `cls` by assigning
    its `__class__`, which Python allows between classes of the same layout: the
    same base and the same slots (laid out by sorted name, whatever the class).
    That needs `cls` to have no `__weakref__` slot of its own (CPython then sees
    the layouts as different): the classes copied this way are `weakref_slot=False`.
    """
    builder = _BUILDERS.get(cls)
    if builder is None:
        assert cls.__bases__ == (object,) and "__weakref__" not in cls.__slots__, cls
        # Every slot is filled in by `_generated_copy`: the fields and attrs' hash cache.
        extra = set(cls.__slots__) - {f.name for f in attrs.fields(cls)}
        assert extra <= {"_attrs_cached_hash"}, (cls, extra)
        builder = type(f"_{cls.__name__}Builder", (object,), {"__slots__": cls.__slots__})
        _BUILDERS[cls] = builder
    return builder


def _generated_copy(cls: type, params: str, value_of, extra: tuple[str, ...] = (),
                    header: str = "copy(old, {params})") -> object:
    """A function `copy(old, <params>)` (or the `header` given) making a new `cls`
    without running its `__init__`: a `_builder` object whose fields are the Python
    expressions `value_of(name)` (of `old` and the params), made a `cls`; `extra`
    lines run before that (`n` is the object being filled in)."""
    assert not any(f.validator or f.on_setattr for f in attrs.fields(cls)), cls
    assert header != "copy(old, {params})" or not any(f.converter for f in attrs.fields(cls)), cls
    scope: dict[str, object] = {"new": object.__new__, "cls": cls, "builder": _builder(cls),
                                "set": setattr}
    body = [f"def {header.format(params=params)}:", "    n = new(builder)"]
    body.extend(f"    n.{f.name} = {value_of(f.name)}" for f in attrs.fields(cls))
    body.extend(f"    {line}" for line in extra)
    if "_attrs_cached_hash" in cls.__slots__:
        body.append("    n._attrs_cached_hash = None")
    body.append("    n.__class__ = cls")
    body.append("    return n")
    name = header.partition("(")[0]
    # A file name of its own, so that a profile tells the generated functions apart.
    code = compile("\n".join(body), f"<generated {name} of {cls.__name__}: {params}>", "exec")
    exec(code, scope)  # noqa: S102 - generated from attrs fields and code, no input
    return scope[name]


def copier_of(cls: type, params: tuple[str, ...], fields: dict[str, str]):
    """A function `(old, *params) -> cls`: a copy of `old` whose `fields` are set to
    the given Python expressions (of `old`, the params and constants) and whose other
    fields are old's.  For a copy made very often with the same fields changed
    (every combatant at a new turn, turn.py)."""
    assert set(fields) <= {f.name for f in attrs.fields(cls)}, sorted(fields)
    return _generated_copy(cls, ", ".join(params), lambda name: fields.get(name, f"old.{name}"))


def maker_of(cls: type):
    """A function `(*fields) -> cls` taking every field in order, with no defaults
    and no converters run: for a value made very often whose caller passes each
    field as its converter would leave it (`LogEntry`, made by `Fight.note`)."""
    names = [f.name for f in attrs.fields(cls)]
    return _generated_copy(cls, ", ".join(names), lambda name: name, header="make({params})")


def _copier(cls: type):
    """`copy(old, changes)`: a new `cls` with old's fields, those in `changes` changed
    (their names already checked by `evolve`)."""
    return _generated_copy(cls, "changes", lambda name: f"old.{name}",
                           ("for name, value in changes.items():", "    set(n, name, value)"))


#: The classes `evolve` copies with a generated copier (filled in below, once the
#: classes exist).
_FAST: dict[type, object] = {}

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
#: Conditions the book gives no AC effect but the engine keeps track of.
COVER = "a-cubierto"
DUEL = "en-duelo"
MOUNTED = "montado"
#: A group (Horda) whose last member was put out of the fight.
NO_MEMBERS = "sin-miembros"
#: A Moribundo whose Primeros Auxilios roll passed: it will not die, but stays out.
STABILISED = "estabilizado"
OUT_CONDITIONS = frozenset({"moribundo", "exhausto", NO_MEMBERS})
#: The conditions `estado` takes (RULES.md §5 "Known conditions only"): those with an
#: effect, those the engine keeps track of, and each ruleset's own list.  Any other
#: remark about a combatant is a note (`nota`).
KNOWN_CONDITIONS = {
    "cdb": (SURPRISED, GRAPPLED, PINNED, INCAPACITATED, "moribundo", "exhausto", COVER, DUEL,
            MOUNTED, STABILISED, NO_MEMBERS, "aturdido", "derribado", "cegado", "ensordecido",
            "en-llamas", "desarmado", "inconsciente"),
}
KNOWN_CONDITIONS["walkure"] = KNOWN_CONDITIONS["cdb"]
#: Bloqueo: "el enemigo tendrá un -2 en su próxima tirada".
BLOCK_PENALTY = -2


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
    #: The combatant it is aimed at (`NAME MANIOBRA a BLANCO`): counted when it completes.
    target: str | None = None
    #: Liderazgo's degree of success: the pool of bonuses is set when it completes.
    degree: int | None = None


@frozen
class Note:
    """A free remark about a combatant (`nota`): no rules effect.  `until`: the turn
    at whose end it ends by itself (`turnos=N`), or None."""

    text: str
    until: int | None = None


@frozen
class Expiry:
    """A condition given a duration (`estado NAME +COND turnos=N`): it ends by itself
    at the end of turn `turn` (RULES.md §5 "Durations")."""

    condition: str
    turn: int


@frozen
class Track:
    """A wound or fatigue track: boxes per category and how many are marked.

    Boxes fill from the first one; `marked` is the position of the last marked box.
    `cleared` boxes at the front are empty again: the Rasguños wiped after a battle
    (`descanso`), or those Primeros Auxilios treated, while worse boxes stay marked.
    New damage fills those first (`mark`: "from the first empty one").
    """

    boxes: tuple[int, ...] = DEFAULT_BOXES
    marked: int = 0
    cleared: int = 0

    @property
    def size(self) -> int:
        return sum(self.boxes)

    @property
    def count(self) -> int:
        """How many boxes are marked (the cleared ones at the front left out)."""
        return self.marked - self.cleared

    def mark(self, boxes: int) -> tuple[Track, int]:
        """The track with `boxes` more boxes marked from the first empty one (RULES.md
        §6): the cleared ones at its front, then those after the last marked; and how
        many did not fit (the track is full)."""
        refill = min(boxes, self.cleared)
        after = min(boxes - refill, self.size - self.marked)
        track = evolve(self, marked=self.marked + after, cleared=self.cleared - refill)
        return track, boxes - refill - after

    def heal(self, boxes: int) -> Track:
        """The track with `boxes` marked boxes removed, worst first (Curación natural)."""
        marked = self.marked - boxes
        if marked <= self.cleared:
            return evolve(self, marked=0, cleared=0)
        return evolve(self, marked=marked)

    def clear_first(self) -> Track:
        """The track with the first category's boxes (Rasguño, Fatigado) wiped."""
        first = self.boxes[0] if self.boxes else 0
        if self.marked <= first:
            return evolve(self, marked=0, cleared=0)
        return evolve(self, cleared=max(self.cleared, first))

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


@frozen(cache_hash=True, weakref_slot=False)
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
    #: Extra targets typed with `blancos NAME N` (RULES.md §4).
    extra_targets: int = 0
    #: Targets named in this turn's attacks (`NAME MANIOBRA a BLANCO`), in order.
    targets: tuple[str, ...] = ()
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
    #: A successful Bloqueo against it: −2 to its next attack (0 when none pending).
    block_penalty: int = 0
    #: Liderazgo: +1 bonuses this leader may still hand out this turn.
    leadership: int = 0
    #: A +1 handed out by its side's leader, for its next attack.
    lead_bonus: int = 0
    #: The other duelist while in a duel (condition `en-duelo`).
    duel: str | None = None
    #: The rider's mount (condition `montado`): it acts at the rider's moment.
    mount: str | None = None
    #: A group or Horda: members left (0 = a single character, not a group).
    members: int = 0
    #: Horda: the Daño that puts one member out (the DJ's 1, 2 or 3).
    toughness: int = 1
    #: Free notes (`nota`), in the order they were added.
    notes: tuple[Note, ...] = ()
    #: When each condition with a duration ends (RULES.md §5 "Durations").
    expires: tuple[Expiry, ...] = ()
    #: A melee attack maneuver this turn: 1 fatigue point at its end (RULES.md §6).
    melee_this_turn: bool = False
    #: Primeros Auxilios already applied to it in this fight (once per fight, §6).
    first_aid: bool = False
    #: Another ruleset's sheet (C-System: `csystem.model.CsSheet`), by composition
    #: (SYSTEMS.md §4); None for CdB and Walküre, whose fields are the ones above.
    sheet: CsSheet | NarrSheet | None = None

    @property
    def key(self) -> str:
        return self.name.casefold()

    @property
    def is_pc(self) -> bool:
        return self.side == "pj"

    @property
    def is_group(self) -> bool:
        """A group or Horda: damage puts members out instead of marking boxes."""
        return self.members > 0 or self.has(NO_MEMBERS)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def has_talent(self, talent: str) -> bool:
        return talent in self.talents

    def expiry(self, condition: str) -> int | None:
        """The turn at whose end `condition` ends by itself, or None."""
        return next((e.turn for e in self.expires if e.condition == condition), None)

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
    def target_penalty(self) -> int:
        """−1 per extra target this turn: the larger of `blancos N` and the targets named
        in attacks beyond the first (the two count the same targets, so they never add)."""
        return -max(self.extra_targets, len(self.targets) - 1, 0)

    @property
    def modifier(self) -> int:
        """Total modifier to the next attack roll (RULES.md §6): wounds, fatigue, attack
        count, extra targets, aim, a pending Bloqueo (−2) and a leader's bonus (+1)."""
        return (
            self.wounds.penalty
            + self.fatigue.penalty
            + self.attack_penalty
            + self.target_penalty
            + self.aim
            + self.block_penalty
            + self.lead_bonus
        )

    def with_stop(self, begin: int, label: str) -> Combatant:
        """This combatant with a tick at its marker for a maneuver begun at `begin`."""
        assert self.marker is not None
        return evolve(
            self,
            stops=(*self.stops, Stop(self.marker, self.ac, begin)),
            maneuvers=(*self.maneuvers, label),
        )


class LogKind(StrEnum):
    """What a log entry records.  The text is for display only: what players may
    read (players.py) and what the export stresses (damage) come from the kind and
    the names an entry is about, never from its wording."""

    #: Adding and removing combatants, start moments and rolls, the fight's name.
    SETUP = "setup"
    #: A new turn, its end, the count moving on, whose go it is (Iniciativa Rápida).
    TURN = "turn"
    #: Who goes first at a moment: ties, the DJ's swap.
    ORDER = "order"
    #: A maneuver or free action at one's moment; holding, waiting, interrupting, declining.
    ACTION = "action"
    #: A maneuver outside one's moment (Esquivar, Bloqueo…).
    REACTION = "reaction"
    #: A condition gained or lost; out of the fight, incapacitated; duels and mounts.
    CONDITION = "condition"
    #: A damage roll: boxes marked, stopped by RD, members of a Horda put out.
    DAMAGE = "damage"
    #: Healing and the rest after a battle.
    HEAL = "heal"
    #: A rule's reminder or effect: cover, penalties, Bloqueo, Liderazgo, mounted combat.
    RULE = "rule"
    #: Anything else (house rules…).
    NOTE = "note"
    #: A declaration (the storyteller system): players read it as it is performed.
    DECLARE = "declare"


class Role(StrEnum):
    """How a log entry names a combatant."""

    #: The entry is about it: the numbers in the text may be its own.
    ACTOR = "actor"
    #: The object of another's maneuver ("Mike: Disparar a Soldado 2 (3 AC)"): named,
    #: but the numbers are not its.
    TARGET = "target"
    #: Named in a text the DJ typed (a trigger, a free action's words).
    NAMED = "named"


#: When one entry names a combatant twice, the role kept (the one that says most).
_ROLE_RANK = {Role.ACTOR: 0, Role.TARGET: 1, Role.NAMED: 2}


@frozen(cache_hash=True)
class Mention:
    """A combatant a log entry is about, with what players could know of it *when the
    entry was made*: `hidden` (an `oculto` PNJ: players must not learn it exists) and
    `private` (a `privado` PNJ: players must not learn its numbers; a PJ's numbers are
    its player's own, so a private PJ is not private here).  A name that was on no
    roster is both, to be safe."""

    name: str
    role: Role = field(default=Role.ACTOR, converter=Role)
    hidden: bool = False
    private: bool = False


@lru_cache(maxsize=4096)
def _mention(name: str, role: Role, hidden: bool, private: bool) -> Mention:
    """Mentions are few distinct values repeated over a long log: shared ones."""
    return Mention(name, role, hidden, private)


def mention_of(c: Combatant, role: Role = Role.ACTOR) -> Mention:
    """`c` as a log entry names it, with its flags as they are now."""
    return _mention(c.name, role if role.__class__ is Role else Role(role), c.hidden,
                    c.private and c.side != "pj")


@lru_cache(maxsize=256)
def _name_finder(names: tuple[str, ...]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """A pattern finding any of `names` (folded) as whole words, longest first, so that
    "Soldado 1" is never read as "Soldado" followed by a 1; and folded → roster name."""
    by_fold = {}
    for name in names:
        by_fold.setdefault(fold(name), name)
    words = sorted(by_fold, key=len, reverse=True)
    if not words:
        return None, by_fold
    body = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)"), by_fold


#: Free texts repeat (a maneuver's label, a trigger): folded once each.
_folded = lru_cache(maxsize=4096)(fold)


#: What `Fight.note` takes as the names an entry is about: a name (an actor), a
#: (name, role) pair, or a `Mention` made beforehand (someone no longer on the roster).
About = str | tuple[str, Role] | Mention


@frozen(cache_hash=True, weakref_slot=False)
class LogEntry:
    """One line of the fight's log: what happened, when, what kind of thing it was and
    whom it is about (`about`, with the flags each had at that moment).  `text` is
    for display only."""

    turn: int
    moment: int | None
    text: str
    warning: bool = False
    kind: LogKind = field(default=LogKind.NOTE, converter=LogKind)
    about: tuple[Mention, ...] = field(default=(), converter=tuple)

    def __str__(self) -> str:
        when = f"T{self.turn}" + ("" if self.moment is None else f" M{self.moment}")
        return f"{when} · {self.text}"


#: `LogEntry(…)` with every field given, as its converters would leave it (a tuple
#: of mentions, a `LogKind`): one per log line, made without running `__init__`.
_new_entry = maker_of(LogEntry)

#: Entries per chunk of a `Log` (see there).
LOG_CHUNK = 256


class Log(tuple):
    """The fight's log: a tuple of `LogEntry` to whoever reads it, whose states share
    their entries.

    A command appends a line or two to a log that may be 100,000 entries long, and
    the history keeps many of those states: a tuple copied per append costs the
    history quadratic time and memory.  A `Log` is immutable and persistent: full
    chunks of `LOG_CHUNK` entries (tuples, shared by every later log) and a short
    tail; `appended` copies at most the tail and, once per chunk, the tuple of
    chunks.  It reads like a tuple (len, iteration, indexing and slicing, which give
    a plain tuple, `in`, equality and hashing equal to those of the tuple of the
    same entries, repr); `Fight(log=<tuple>)` keeps working (`Fight.note` turns it
    into a `Log`).  It is a tuple subclass with no items of its own, so that
    `isinstance(log, tuple)` holds for generic code (the codec encodes it as a list),
    and every tuple method is overridden.
    """

    # A tuple subclass cannot have __slots__: the three fields live in __dict__.
    _chunks: tuple[tuple[LogEntry, ...], ...]
    _tail: tuple[LogEntry, ...]
    _size: int

    def __new__(cls, entries=()):
        if type(entries) is cls:
            return entries
        entries = tuple(entries)
        full = len(entries) - len(entries) % LOG_CHUNK
        chunks = tuple(entries[i : i + LOG_CHUNK] for i in range(0, full, LOG_CHUNK))
        return cls._make(chunks, entries[full:], len(entries))

    @classmethod
    def _make(cls, chunks, tail, size) -> Log:
        log = tuple.__new__(cls)
        log._chunks = chunks
        log._tail = tail
        log._size = size
        return log

    def appended(self, entry: LogEntry) -> Log:
        """This log with `entry` at the end (self is left as it is)."""
        tail = (*self._tail, entry)
        if len(tail) < LOG_CHUNK:
            return Log._make(self._chunks, tail, self._size + 1)
        return Log._make((*self._chunks, tail), (), self._size + 1)

    def prefix(self, size: int) -> Log:
        """The first `size` entries, as a `Log` sharing this one's chunks (the log of
        an earlier state of the same fight is a prefix of this one)."""
        if not 0 <= size <= self._size:
            raise ValueError(f"a log of {self._size} entries has no prefix of {size}")
        if size == self._size:
            return self
        full, rest = divmod(size, LOG_CHUNK)
        tail = (self._chunks[full] if full < len(self._chunks) else self._tail)[:rest]
        return Log._make(self._chunks[:full], tail, size)

    # ------------------------------------------------------------ reading

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __iter__(self):
        if not self._chunks:
            return iter(self._tail)
        return chain(chain.from_iterable(self._chunks), self._tail)

    def __reversed__(self):
        parts = (*self._chunks, self._tail)
        return chain.from_iterable(reversed(part) for part in reversed(parts))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._size)
            if step == 1:
                return self._range(start, stop)
            return tuple(self._at(i) for i in range(start, stop, step))
        position = operator.index(index)
        if position < 0:
            position += self._size
        if not 0 <= position < self._size:
            raise IndexError("tuple index out of range")
        return self._at(position)

    def _at(self, position: int) -> LogEntry:
        chunk, offset = divmod(position, LOG_CHUNK)
        if chunk < len(self._chunks):
            return self._chunks[chunk][offset]
        return self._tail[offset]

    def _range(self, start: int, stop: int) -> tuple[LogEntry, ...]:
        """Entries `start` to `stop` (0 ≤ start, stop ≤ len) as a tuple."""
        if stop <= start:
            return ()
        full = len(self._chunks) * LOG_CHUNK
        if start >= full:  # the usual case: the last few entries
            return self._tail[start - full : stop - full]
        first = start // LOG_CHUNK
        parts = (*self._chunks[first:], self._tail)
        flat = chain.from_iterable(parts)
        return tuple(islice(flat, start - first * LOG_CHUNK, stop - first * LOG_CHUNK))

    def __contains__(self, value) -> bool:
        return any(value in part for part in (*self._chunks, self._tail))

    def count(self, value) -> int:
        return sum(part.count(value) for part in (*self._chunks, self._tail))

    def index(self, value, start=0, stop=None) -> int:
        return tuple(self).index(value, start, self._size if stop is None else stop)

    # ------------------------------------------------------------ as a value

    def __eq__(self, other):
        if self is other:
            return True
        if isinstance(other, Log):
            if self._size != other._size:
                return False
            # Same size, same chunking: compare chunk by chunk (shared ones at once).
            for mine, theirs in zip(self._chunks, other._chunks):
                if mine is not theirs and mine != theirs:
                    return False
            return self._tail == other._tail
        if isinstance(other, tuple):
            return self._size == len(other) and tuple(self) == other
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other):
        return tuple(self) < tuple(other) if isinstance(other, tuple) else NotImplemented

    def __le__(self, other):
        return tuple(self) <= tuple(other) if isinstance(other, tuple) else NotImplemented

    def __gt__(self, other):
        return tuple(self) > tuple(other) if isinstance(other, tuple) else NotImplemented

    def __ge__(self, other):
        return tuple(self) >= tuple(other) if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = self.__dict__["_hash"] = hash(tuple(self))
        return cached

    def __add__(self, other):
        return tuple(self) + tuple(other) if isinstance(other, tuple) else NotImplemented

    def __radd__(self, other):
        return tuple(other) + tuple(self) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, times):
        return tuple(self) * times

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return (Log, (tuple(self),))

    def __getnewargs__(self):
        return (tuple(self),)

    def __copy__(self) -> Log:
        return self

    def __deepcopy__(self, memo) -> Log:
        return self  # immutable, and so are its entries


class _Roster:
    """What the states sharing one roster tuple (every state a command makes without
    changing a combatant: a log line, the clock…) know about it: the index by folded
    name, each name's position, and facts computed at most once (`roster_fact`).

    A roster made from another by swapping a few combatants in (`Fight.replace`),
    with the same names and the same riders, remembers it (`parent`) and what was
    swapped (`changes`: (position, old, new) triples), so that a fact may be derived
    from the parent's instead of computed again.  Only one generation is remembered
    (a roster forgets its own parent once it has a child), so a chain of states
    never holds on to the rosters before it."""

    __slots__ = ("changes", "combatants", "facts", "index", "parent", "positions")

    def __init__(self, combatants, index, positions) -> None:
        self.combatants = combatants  # held on to: its identity can't be reused meanwhile
        self.index = index
        self.positions = positions
        self.facts: dict = {}
        self.parent: _Roster | None = None
        self.changes: tuple[tuple[int, Combatant, Combatant], ...] = ()


#: Rosters by the identity of the roster tuple (keyed by identity: hashing 200
#: combatants would cost more than searching them).
_ROSTERS: dict[int, _Roster] = {}

#: What a `derive` function of `roster_fact` returns when it can't tell.
UNDERIVED = object()


def _keep(roster: _Roster) -> _Roster:
    if len(_ROSTERS) >= 64:  # the oldest goes (one at a time: no burst of freeing)
        try:
            del _ROSTERS[next(iter(_ROSTERS))]
        except (KeyError, RuntimeError, StopIteration):
            pass  # another thread (the TUI's replay) changed the table meanwhile
    _ROSTERS[id(roster.combatants)] = roster
    return roster


def _roster(combatants: tuple[Combatant, ...]) -> _Roster:
    """The roster's index (made once: states are immutable and one command looks the
    same roster up many times)."""
    known = _ROSTERS.get(id(combatants))
    if known is not None and known.combatants is combatants:
        return known
    keys = [c.key for c in combatants]
    return _keep(_Roster(combatants, dict(zip(keys, combatants)),
                         {key: position for position, key in enumerate(keys)}))


def roster_fact(combatants: tuple[Combatant, ...], name, compute, derive=None):
    """`compute(combatants)`, computed once per roster tuple and kept with its index.

    For questions about the whole roster that several steps of one command ask of
    states sharing it (who rides, is the turn over, where the count goes next):
    `compute` must be a pure function of the roster, and `name` (any hashable)
    unique to it.  `derive(value, combatants, changes, positions)`, if given, makes
    the same value from the fact `value` of the roster this one was made from, the
    swaps that made it (`_Roster.changes`: their names and riders are the same) and
    the positions by folded name; or returns `UNDERIVED`, and it is computed."""
    roster = _roster(combatants)
    facts = roster.facts
    try:
        return facts[name]
    except KeyError:
        pass
    value = UNDERIVED
    parent = roster.parent
    if derive is not None and parent is not None and name in parent.facts:
        value = derive(parent.facts[name], combatants, roster.changes, roster.positions)
    if value is UNDERIVED:
        value = compute(combatants)
        if parent is not None and name in _CARRIED:
            parent.facts.setdefault(name, value)  # the same there: its next child takes it
    facts[name] = value
    return value


def _replaced(combatants: tuple[Combatant, ...], changed: tuple[Combatant, ...]) -> tuple[Combatant, ...]:
    """`combatants` with `changed` swapped in by name; the new roster's index is made
    from the old one (a command changes a few combatants of many)."""
    roster = _roster(combatants)
    positions = roster.positions
    index = roster.index
    items = list(combatants)
    updates = {}
    renamed = remounted = False
    for c in changed:
        key = c.key
        position = positions.get(key)
        if position is not None:
            was = index[key]
            if was is c and key not in updates:
                continue  # swapped for itself: no change
            renamed = renamed or c.name != was.name
            remounted = remounted or c.mount != was.mount
            items[position] = c
            updates[key] = c
    if not updates:
        return combatants
    result = tuple(items)
    new = _keep(_Roster(result, {**index, **updates}, positions))
    # What depends only on the names, or on who rides whom, carries over; the rest
    # may be derived from the old roster's (`roster_fact`).
    facts = roster.facts
    for name in () if renamed else _BY_NAMES:
        if name in facts:
            new.facts[name] = facts[name]
    if not remounted and "mounts" in facts:
        new.facts["mounts"] = facts["mounts"]
    if not (renamed or remounted):
        swaps = {positions[key]: (index[key], c) for key, c in updates.items()}
        base = roster
        if roster.parent is not None and all(name in _CARRIED for name in facts):
            # Nothing was asked of the old roster: derive from what it came from, with
            # both commands' swaps (each position's oldest and newest combatants).
            base = roster.parent
            for position, old, mid in roster.changes:
                now = swaps.get(position)
                swaps[position] = (old, mid if now is None else now[1])
        roster.parent = None  # the old roster forgets its own parent: no chains
        if len(swaps) <= _MAX_SWAPS:
            new.parent = base
            new.changes = tuple((position, old, c) for position, (old, c) in swaps.items())
    return result


#: Roster facts that depend only on the combatants' names (`roster_fact`).
_BY_NAMES = ("names", "finder")
#: Facts a new roster may take from the one it was made from.
_CARRIED = frozenset({*_BY_NAMES, "mounts"})
#: More swaps than this since the last roster whose facts are known: computed afresh.
_MAX_SWAPS = 32


def renewed_roster(combatants: tuple[Combatant, ...], items: list[Combatant]) -> tuple[Combatant, ...]:
    """`items` as a roster, where `items[i]` is a new version of `combatants[i]` with
    the same name and the same mount (a new turn renews every combatant); its index
    is made from the old one's."""
    roster = _roster(combatants)
    result = tuple(items)
    if len(roster.index) == len(result) == len(combatants):  # else indexed when asked
        new = _keep(_Roster(result, dict(zip(roster.index, result)), roster.positions))
        for name in (*_BY_NAMES, "mounts"):  # a new turn changes no name and no rider
            if name in roster.facts:
                new.facts[name] = roster.facts[name]
    return result


@frozen
class Window:
    """The reaction window (RULES.md §3): after an action taken at `moment`, the state
    just before the automatic advance that followed it, so that a reaction or an
    interrupt answering that action happens there.

    Kept small: `before` holds the combatants the advance changed, as they were
    (the others are the current ones); `clock` and `log` (the log's length) are the
    fight's before the advance."""

    moment: int
    clock: int
    log: int
    before: tuple[Combatant, ...] = ()


@frozen(weakref_slot=False)
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
    #: A `Log` once anything was noted (a plain tuple, as a loader may build it, reads
    #: the same: `note` turns it into a `Log`).
    log: tuple[LogEntry, ...] = ()
    #: Iniciativa Rápida (Walküre's optional rule): no moments, one go each in start order.
    quick: bool = False
    #: In Iniciativa Rápida, whose go it is (None between goes and once the turn is over).
    actor: str | None = None
    #: The DJ's house rules for this fight (TOML text merged into the book's catalog;
    #: kept in the state so that replaying the history gives the same costs).
    house: str = ""
    #: The book's 1 fatigue point per turn of melee (RULES.md §6; `fatiga-cc si|no`).
    melee_fatigue: bool = True
    #: The open reaction window (RULES.md §3), or None.
    window: Window | None = None
    #: Another ruleset's part of the fight (C-System: the order of initiative).
    cs: CsPart | None = None
    #: The storyteller system's part of the fight (the phase, this turn's order).
    narr: NarrPart | None = None

    def find(self, name: str) -> Combatant | None:
        combatants = self.combatants
        known = _ROSTERS.get(id(combatants))  # `_roster`, inlined: asked very often
        if known is None or known.combatants is not combatants:
            known = _roster(combatants)
        return known.index.get(name.casefold())

    def index(self, name: str) -> int:
        key = name.casefold()
        for position, combatant in enumerate(self.combatants):
            if combatant.key == key:
                return position
        raise KeyError(name)

    def replace(self, *changed: Combatant) -> Fight:
        """The fight with these combatants (matched by name) swapped in."""
        if not changed:
            return self
        combatants = _replaced(self.combatants, changed)
        return self if combatants is self.combatants else evolve(self, combatants=combatants)

    def note(
        self,
        text: str,
        *,
        warning: bool = False,
        kind: LogKind = LogKind.NOTE,
        about: Iterable[About] = (),
        free: str | None = None,
    ) -> Fight:
        """The fight with one more log entry: the only way entries are added.

        `about` are the combatants the text names (see `About`); `free` is the part
        of the text the DJ typed (a trigger, a free action's words), searched for the
        roster's names (accents and case folded, whole words, longest first): those
        it names are mentioned too (`Role.NAMED`).  Each mention's flags are the
        combatant's now (a pure function of the state: a replay gives the same).
        """
        entry = _new_entry(self.turn, self.moment, text, warning,
                           kind if kind.__class__ is LogKind else LogKind(kind),
                           self.mentions(about, free))
        log = self.log if type(self.log) is Log else Log(self.log)
        return evolve(self, log=log.appended(entry))

    def mentions(self, about: Iterable[About] = (), free: str | None = None) -> tuple[Mention, ...]:
        """The mentions of a new log entry (see `note`), one per combatant."""
        found: dict[str, Mention] = {}
        rank = _ROLE_RANK

        def add(m: Mention) -> None:
            known = found.setdefault(m.name.casefold(), m)
            if known is not m and rank[m.role] < rank[known.role]:
                found[m.name.casefold()] = m

        index = _roster(self.combatants).index
        for item in about:  # (`add` and `find` inlined: a new turn's entry may name 200)
            if not isinstance(item, Mention):
                name, role = (item, Role.ACTOR) if isinstance(item, str) else item
                c = index.get(name.casefold())
                item = _mention(name, Role(role), True, True) if c is None else mention_of(c, role)
            key = item.name.casefold()
            known = found.setdefault(key, item)
            if known is not item and rank[item.role] < rank[known.role]:
                found[key] = item
        if free:
            pattern, by_fold = roster_fact(self.combatants, "finder", _finder)
            if pattern is not None:
                for word in pattern.findall(_folded(free)):
                    add(mention_of(self.find(by_fold[word]), Role.NAMED))
        return tuple(found.values())

    def tick(self) -> tuple[Fight, int]:
        """Advance the arrival clock: who reached a moment first breaks late ties."""
        return evolve(self, clock=self.clock + 1), self.clock + 1

    @property
    def started(self) -> bool:
        return self.turn > 0

    @property
    def mounts(self) -> frozenset[str]:
        """Keys of the combatants ridden by someone: they act at their rider's moment."""
        return ridden(self.combatants)

    def rider_of(self, mount: Combatant) -> Combatant | None:
        for c in self.combatants:
            if c.mount is not None and c.mount.casefold() == mount.key:
                return c
        return None

    @property
    def in_play(self) -> tuple[Combatant, ...]:
        """Combatants that take part in the countdown (a start moment is known)."""
        return roster_fact(self.combatants, "in_play", _in_play)

    @property
    def turn_over(self) -> bool:
        if not self.started:
            return False
        if self.narr is not None:
            return self.narr.phase == "over"
        if self.quick or self.cs is not None:  # everyone has had their go (some may
            return self.actor is None  # keep AC to react); C-System: nobody's go is on
        return roster_fact(self.combatants, "unfinished", _unfinished, _derive_unfinished) == 0


def _names(combatants: tuple[Combatant, ...]) -> tuple[str, ...]:
    return tuple(c.name for c in combatants)


def _finder(combatants: tuple[Combatant, ...]):
    return _name_finder(roster_fact(combatants, "names", _names))


def ridden(combatants: tuple[Combatant, ...]) -> frozenset[str]:
    """Keys of the combatants this roster's riders ride (`Fight.mounts`)."""
    return roster_fact(combatants, "mounts", _mounts)


def _mounts(combatants: tuple[Combatant, ...]) -> frozenset[str]:
    return frozenset(c.mount.casefold() for c in combatants if c.mount)


def _in_play(combatants: tuple[Combatant, ...]) -> tuple[Combatant, ...]:
    return tuple(c for c in combatants if c.start is not None)


def _holds_turn(c: Combatant, mounts: frozenset[str]) -> bool:
    """Whether `c` keeps the turn open: in play, not done or out, not a mount (a mount
    never holds the turn open: its rider does)."""
    return (c.start is not None and c.status is not Status.DONE and c.status is not Status.OUT
            and not (mounts and c.key in mounts))


def _unfinished(combatants: tuple[Combatant, ...]) -> int:
    """How many keep the turn open (`_holds_turn`): the turn is over at none."""
    mounts = ridden(combatants)
    done, out = Status.DONE, Status.OUT
    count = 0
    for c in combatants:  # `_holds_turn`, inlined
        if (c.start is not None and c.status is not done and c.status is not out
                and not (mounts and c.key in mounts)):
            count += 1
    return count


def _derive_unfinished(count: int, combatants, changes, positions) -> int:
    mounts = ridden(combatants)
    for _, old, new in changes:
        count += _holds_turn(new, mounts) - _holds_turn(old, mounts)
    return count


for _cls in (Combatant, Fight, CsSheet, NarrSheet):
    _FAST[_cls] = (frozenset(f.name for f in attrs.fields(_cls)), _copier(_cls))
