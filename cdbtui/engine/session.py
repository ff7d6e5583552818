"""A fight with its history: the one funnel every front end sends command lines into.

`Session.execute(line)` parses, applies and records; `deshacer`/`rehacer` walk the
history.  The history is the list of canonical command lines applied since `base`,
so it can be saved and, since the RNG lives in the state, replayed to exactly the
same states (a redone roll gives the same die).

History in linear time and memory: a fight of a campaign evening runs to 100,000
commands.  States share their log (`model.Log`), and only some states are kept:
every `CHECKPOINT`-th one and the last `RECENT` (so that an undo is instant); an
undo that reaches one that was not kept replays at most `CHECKPOINT` lines from the
checkpoint below it, and keeps what it rebuilt.  Of the redo stack, the top
`RECENT` states are kept; a deeper redo applies its line again.

After a load (`Session.resume`) only `base` and the current state are known: the
states in between are unknown, and the step from `base` to the current state is
unchecked (the file may have been edited).  The first undo below the current state
replays the whole history once, and if it does not reproduce the current state it
raises `HistoryMismatch` and changes nothing: undo never jumps to another fight.
`verify()` does the same check on demand, `adopt()` takes a replay made elsewhere
(the TUI replays in a thread) once it reproduces the current state.

`mark()` and `rollback(token)` put the session back exactly as it was: a command
whose save failed is taken back (the store never acknowledges it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from attrs import define, frozen

from . import commands as cmd
from .errors import Refusal
from .model import Fight, Log, evolve
from .parser import parse
from .rules import apply, new_fight


#: Commands whose warnings are the DJ's choice to confirm (not consequences like damage):
#: CdB's maneuvers, interrupts and declines; the other rulesets' actions, declarations
#: and defenses (SYSTEMS.md §2.3, §3.3 "Warnings"), by class name (`cautious`).
CAUTIOUS = (cmd.Perform, cmd.Trigger, cmd.Done)
_CAUTIOUS_ELSEWHERE = {"cdbtui.engine.csystem.commands": ("Act",),
                       "cdbtui.engine.narrador.commands": ("Declare", "Act", "Defend", "Abort", "Ambush")}


def cautious(command: object) -> bool:
    """Whether `command`'s warnings are the DJ's to confirm (see `CAUTIOUS`)."""
    kind = type(command)
    return isinstance(command, CAUTIOUS) or kind.__name__ in _CAUTIOUS_ELSEWHERE.get(kind.__module__, ())


#: What a command did to the history, as the save's journal records it.
DO, UNDO, REDO = "do", "undo", "redo"

#: Every CHECKPOINT-th state of the history is kept (an undo replays at most that many).
CHECKPOINT = 64
#: The last RECENT states of the history, and the top RECENT of the redo stack, are kept.
RECENT = 64
#: Changes recorded after a `mark()` before its token expires (a mark is meant to
#: cover one command; this bounds what a forgotten one holds on to).
MAX_TRAIL = 10_000

MISMATCH = (
    "El historial guardado no lleva al estado actual del combate:"
    " no se puede deshacer más allá de este punto"
)


class HistoryMismatch(Refusal):
    """Replaying the saved history does not give the state it should lead to (a save
    edited by hand, or written by a different version of the rules)."""

    def __init__(self, message: str = MISMATCH) -> None:
        super().__init__(message)


@define
class Outcome:
    """What a command line did: the fight after it, a one-line summary, and its
    effect on the history (`kind`: DO with the canonical `line`, UNDO or REDO)."""

    fight: Fight
    message: str
    kind: str = DO
    line: str = ""


@frozen(eq=False)
class Mark:
    """The token of `Session.mark()`: opaque to callers."""

    session: int
    serial: int


_MISSING: Any = object()


def _with_shared_log(fight: Fight) -> Fight:
    """`fight` with its log as a `Log` (a loaded one is a plain tuple): an equal
    state whose later states share the entries instead of converting them each time."""
    if type(fight.log) is Log or not fight.log:
        return fight
    return evolve(fight, log=Log(fight.log))


def _step(fight: Fight, line: str) -> Fight:
    return apply(fight, parse(line, fight))


class States(Sequence):
    """`session.states`: the state after each prefix of the history, `None` where it
    is not known (between `base` and the current state after a load, until a replay
    checks them).  A read-only view: states not kept are rebuilt as they are read
    (iterating replays each line once) and not stored."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def __len__(self) -> int:
        return len(self._session.lines) + 1

    def __getitem__(self, index):
        size = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step == 1:
                return list(self._session._walk(start, stop))
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("states index out of range")
        return next(self._session._walk(index, index + 1))

    def __iter__(self) -> Iterator[Fight | None]:
        return self._session._walk(0, len(self))

    def __contains__(self, value) -> bool:
        if value is None:
            return any(hi - lo > 1 for lo, hi in self._session._gaps)
        return any(state == value for state in self)

    def __eq__(self, other) -> bool:
        if isinstance(other, (States, list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"States({list(self)!r})"


class Session:
    """A fight, the lines that built it from `base`, and the lines undone since.

    `Session(base, lines)` replays `lines` from `base`; `states`, if given, is what
    is known of the history (the state after each prefix, None where unknown; a
    run of None is checked by the first replay through it, like after `resume`)."""

    def __init__(
        self,
        base: Fight,
        lines: list[str] | None = None,
        states: Sequence[Fight | None] | None = None,
        redo_lines: list[str] | None = None,
        redo_states: list[Fight | None] | None = None,
    ) -> None:
        self.base = base
        self.lines: list[str] = lines if isinstance(lines, list) else list(lines or ())
        self.redo_lines: list[str] = (
            redo_lines if isinstance(redo_lines, list) else list(redo_lines or ()))
        if redo_states is None:
            redo_states = [None] * len(self.redo_lines)
        if len(redo_states) != len(self.redo_lines):
            raise ValueError("redo_states and redo_lines differ in length")
        self.redo_states: list[Fight | None] = list(redo_states)
        #: The kept states, by position in the history (0 is base; the top is always kept).
        self._kept: dict[int, Fight] = {0: base}
        #: Unchecked steps (lo, hi): the states strictly between are unknown, lo and hi kept.
        self._gaps: list[tuple[int, int]] = []
        self._trail: list[tuple] | None = None
        self._serial = 0
        #: The last `cautions` preview: (fight, command, the fight after it).
        self._preview: tuple[Fight, cmd.Command, Fight] | None = None
        if states is None:
            fight = base
            top = len(self.lines)
            for index, line in enumerate(self.lines, 1):
                fight = _step(fight, line)
                if self._keeps(index, top):
                    self._kept[index] = fight
        else:
            self._from_states(list(states))
        for index in range(len(self.redo_states) - RECENT):  # a redo stack given whole
            self.redo_states[index] = None

    def _from_states(self, states: list[Fight | None]) -> None:
        top = len(self.lines)
        if len(states) != top + 1:
            raise ValueError(f"{len(states)} states for {top} lines (one more is needed)")
        if states[0] is not None:
            self._kept[0] = states[0]
        known = 0
        for index in range(1, top + 1):
            state = states[index]
            if state is None:
                continue
            if index > known + 1:
                self._gaps.append((known, index))
            self._kept[index] = state
            known = index
        fight = self._kept[known]
        for index in range(known + 1, top + 1):  # no kept state above: replay (trusted)
            fight = _step(fight, self.lines[index - 1])
            self._kept[index] = fight
        for index in [i for i in self._kept if not self._keeps(i, top)]:
            del self._kept[index]

    @classmethod
    def new(cls, name: str = "Combate", rules: str = "cdb", seed: int = 0) -> Session:
        return cls(new_fight(name, rules, seed))

    @classmethod
    def resume(
        cls,
        base: Fight,
        lines: list[str],
        current: Fight,
        redo_lines: list[str],
        known: Mapping[int, Fight] | None = None,
    ) -> Session:
        """A session loaded from disk: only `base` and the current state are known, and
        `known`, other states saved with it (`saved_states`), by position (0 < position
        < len(lines); others are ignored).

        Each step between two known states is unchecked: the first undo that crosses
        it replays its lines and checks that they lead to the known state above
        (`HistoryMismatch` if not), so an undo right after a load replays only the
        lines since the nearest saved state below."""
        session = cls(base, [], None, list(redo_lines))
        session.lines = list(lines)
        top = len(session.lines)
        session._kept[top] = _with_shared_log(current)
        positions = sorted(p for p in (known or {}) if 0 < p < top)
        for position in positions:
            session._kept[position] = _with_shared_log(known[position])  # type: ignore[index]
        ends = [0, *positions, top]
        session._gaps = [(lo, hi) for lo, hi in zip(ends, ends[1:]) if hi > lo]
        return session

    def saved_states(self, count: int = 12) -> dict[int, Fight]:
        """States worth saving beside the current one, for `resume(known=…)`: so that
        an undo after a load replays little.  For k < `count`, the state at the
        largest multiple of 64·2^k below the top (a handful of distinct ones, ever
        farther down: 64 lines or less below the top, then about 1, 2, 4, 8… × 64);
        only states kept (known), so this costs no replay.  A position stays the same
        while the history grows, so a save written again keeps the same states."""
        top = len(self.lines)
        chosen: dict[int, Fight] = {}
        for k in range(count):
            step = CHECKPOINT << k
            position = (top - 1) // step * step
            if position <= 0:
                break
            state = self._kept.get(position)
            if state is not None:
                chosen[position] = state
        return chosen

    # ------------------------------------------------------------ reading

    @property
    def fight(self) -> Fight:
        return self._kept[len(self.lines)]

    @property
    def states(self) -> States:
        """The state after each prefix of `lines` (None: unknown until replayed)."""
        return States(self)

    @property
    def fully_known(self) -> bool:
        """Every state of the history is known and checked (nothing left to replay)."""
        return not self._gaps

    @property
    def can_undo(self) -> bool:
        return bool(self.lines)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_lines)

    def _keeps(self, index: int, top: int) -> bool:
        """Whether the state at `index` is one to keep (with `top` lines in the history)."""
        return (index % CHECKPOINT == 0 or index >= top - RECENT
                or any(index in gap for gap in self._gaps))

    def _positions(self, lo: int, hi: int, top: int) -> list[int]:
        """The positions strictly between `lo` and `hi` whose states are kept."""
        first = (lo // CHECKPOINT + 1) * CHECKPOINT
        chosen = set(range(first, hi, CHECKPOINT))
        chosen.update(range(max(lo + 1, top - RECENT), hi))
        chosen.update(end for gap in self._gaps for end in gap if lo < end < hi)
        return sorted(chosen)

    def _gap_below(self, index: int) -> tuple[int, int] | None:
        """The unchecked step that reaching the state at `index` from the top crosses."""
        for gap in self._gaps:
            if gap[0] <= index < gap[1]:
                return gap
        return None

    def _walk(self, start: int, stop: int) -> Iterator[Fight | None]:
        """The states at `start` … `stop - 1`, rebuilding (not keeping) those not kept;
        None inside an unchecked step."""
        index = start
        fight: Fight | None = None
        while index < stop:
            kept = self._kept.get(index)
            if kept is not None:
                fight = kept
            elif any(lo < index < hi for lo, hi in self._gaps):
                fight = None
            elif fight is not None:
                fight = _step(fight, self.lines[index - 1])
            else:
                known = index - 1
                while known not in self._kept:
                    known -= 1
                fight = self._kept[known]
                for position in range(known, index):
                    fight = _step(fight, self.lines[position])
            yield fight
            index += 1

    # ------------------------------------------------------------ changes, recorded

    def _record(self, *change) -> None:
        if self._trail is not None:
            self._trail.append(change)
            if len(self._trail) > MAX_TRAIL:
                self._trail = None  # the mark has expired

    def _set_kept(self, index: int, state: Fight) -> None:
        self._record("kept", index, self._kept.get(index, _MISSING))
        self._kept[index] = state

    def _drop_kept(self, index: int) -> Fight:
        state = self._kept.pop(index)
        self._record("kept", index, state)
        return state

    def _set_gaps(self, gaps: list[tuple[int, int]]) -> None:
        self._record("gaps", self._gaps)
        self._gaps = gaps

    def _push_line(self, line: str, state: Fight) -> None:
        """`line` on top of the history, reaching `state`."""
        self.lines.append(line)
        self._record("push")
        top = len(self.lines)
        self._set_kept(top, state)
        old = top - RECENT - 1
        if old > 0 and old in self._kept and not self._keeps(old, top):
            self._drop_kept(old)

    def _pop_line(self) -> tuple[str, Fight]:
        top = len(self.lines)
        state = self._kept.pop(top)
        line = self.lines.pop()
        self._record("pop", line, state)
        return line, state

    def _push_redo(self, line: str, state: Fight | None) -> None:
        self.redo_lines.append(line)
        self.redo_states.append(state)
        self._record("push redo")
        self._thin_redo()

    def _pop_redo(self) -> tuple[str, Fight | None]:
        line, state = self.redo_lines.pop(), self.redo_states.pop()
        self._record("pop redo", line, state)
        return line, state

    def _clear_redo(self) -> None:
        if self.redo_lines:
            if self._trail is not None:  # O(redo), only under a mark
                self._record("redo", list(self.redo_lines), list(self.redo_states))
            self.redo_lines.clear()
            self.redo_states.clear()

    def _thin_redo(self) -> None:
        """Forget the redo state that just left the top RECENT (a redo applies its line)."""
        deep = len(self.redo_states) - RECENT - 1
        if deep >= 0 and self.redo_states[deep] is not None:
            self._record("redo state", deep, self.redo_states[deep])
            self.redo_states[deep] = None

    # ------------------------------------------------------------ mark and rollback

    def mark(self) -> Mark:
        """A token for `rollback`: the session as it is now.  Only the latest mark can
        be rolled back to (a new mark replaces it), and only while it covers fewer than
        MAX_TRAIL changes (it is meant for one command: run, then save, and roll back
        if the save failed).  Costs nothing until something changes."""
        self._serial += 1
        self._trail = []
        return Mark(id(self), self._serial)

    def rollback(self, token: Mark) -> None:
        """Put the session back exactly as it was at `mark()` (lines, states, redo
        lines and states); the mark stays valid (a second rollback does nothing)."""
        if (not isinstance(token, Mark) or token.session != id(self)
                or token.serial != self._serial or self._trail is None):
            raise ValueError("esta marca ya no sirve: solo se vuelve a la última")
        trail, self._trail = self._trail, None
        for change in reversed(trail):
            kind = change[0]
            if kind == "kept":
                _, index, state = change
                if state is _MISSING:
                    self._kept.pop(index, None)
                else:
                    self._kept[index] = state
            elif kind == "gaps":
                self._gaps = change[1]
            elif kind == "push":
                self.lines.pop()
            elif kind == "pop":
                _, line, state = change
                self.lines.append(line)
                self._kept[len(self.lines)] = state
            elif kind == "push redo":
                self.redo_lines.pop()
                self.redo_states.pop()
            elif kind == "pop redo":
                self.redo_lines.append(change[1])
                self.redo_states.append(change[2])
            elif kind == "redo":
                self.redo_lines[:] = change[1]
                self.redo_states[:] = change[2]
            elif kind == "redo state":
                self.redo_states[change[1]] = change[2]
            else:  # pragma: no cover
                raise AssertionError(kind)
        self._trail = []

    # ------------------------------------------------------------ the unknown states

    def _replay_gap(self, gap: tuple[int, int]) -> dict[int, Fight]:
        """The states to keep inside the unchecked step `gap`, by replaying it; raises
        `HistoryMismatch` (and changes nothing) if it does not reach the kept state."""
        lo, hi = gap
        top = len(self.lines)
        fight = self._kept[lo]
        found: dict[int, Fight] = {}
        try:
            for index in range(lo + 1, hi + 1):
                fight = _step(fight, self.lines[index - 1])
                if index < hi and self._keeps(index, top):
                    found[index] = fight
        except Refusal:
            raise HistoryMismatch() from None
        if fight != self._kept[hi]:
            raise HistoryMismatch()
        return found

    def _fill_gap(self, gap: tuple[int, int], found: dict[int, Fight]) -> None:
        self._set_gaps([g for g in self._gaps if g != gap])
        for index, state in found.items():
            self._set_kept(index, state)

    def _check_gap(self, gap: tuple[int, int]) -> None:
        self._fill_gap(gap, self._replay_gap(gap))

    def _state(self, index: int) -> Fight:
        """The state after `lines[:index]`, replaying from the nearest kept one below
        (after checking the unchecked step it is in, if any) and keeping what it rebuilt."""
        gap = self._gap_below(index)
        if gap is not None:
            self._check_gap(gap)
        known = index
        while known not in self._kept:
            known -= 1
        fight = self._kept[known]
        for position in range(known, index):
            fight = _step(fight, self.lines[position])
            self._set_kept(position + 1, fight)
        return fight

    def verify(self) -> bool:
        """Replay the whole history from `base`: whether it reproduces the current
        state (and the kept state each unchecked step leads to).  On success the
        unknown states are known and checked; on failure nothing changes (an undo
        below the step that fails raises `HistoryMismatch`)."""
        top = len(self.lines)
        ends = {hi for _, hi in self._gaps}
        found: dict[tuple[int, int], dict[int, Fight]] = {gap: {} for gap in self._gaps}
        fight = self.base
        try:
            for index, line in enumerate(self.lines, 1):
                fight = _step(fight, line)
                for gap in self._gaps:
                    if gap[0] < index < gap[1] and self._keeps(index, top):
                        found[gap][index] = fight
                if index in ends and fight != self._kept[index]:
                    return False
        except Refusal:
            return False
        if fight != self.fight:
            return False
        for gap, states in found.items():
            self._fill_gap(gap, states)
        return True

    def adopt(self, lines: list[str], states: Sequence[Fight | None]) -> int:
        """Take the unknown states (after a load) from `states`, a replay of `lines`
        (`Session(base, lines).states`, which is pure and may run in another thread),
        for the part of the history still shared with it.  It must reproduce the kept
        state each unchecked step leads to, or `HistoryMismatch` (nothing adopted).
        Returns how many states became known."""
        shared = 0
        limit = min(len(lines), len(self.lines))
        while shared < limit and lines[shared] == self.lines[shared]:
            shared += 1
        top = len(self.lines)
        taken: list[tuple[tuple[int, int], dict[int, Fight]]] = []
        for lo, hi in self._gaps:
            if hi > shared:
                continue  # the replay does not reach its end: it cannot be checked
            if states[hi] != self._kept[hi] or states[lo] != self._kept[lo]:
                raise HistoryMismatch()
            found = {}
            for index in self._positions(lo, hi, top):
                state = states[index]
                if state is None:
                    break
                found[index] = state
            else:
                taken.append(((lo, hi), found))
        filled = 0
        for gap, found in taken:
            self._fill_gap(gap, found)
            filled += gap[1] - gap[0] - 1
        return filled

    # ------------------------------------------------------------ commands

    def execute(self, line: str) -> Outcome:
        """Run one command line; `Refusal` leaves the session exactly as it was."""
        command = parse(line, self.fight)
        if isinstance(command, cmd.Undo):
            return self.undo()
        if isinstance(command, cmd.Redo):
            return self.redo()
        return self.run(command)

    def cautions(self, line: str) -> list[str]:
        """Warnings the DJ should confirm before `line` runs, without running it.

        A maneuver that abandons a carried one (RULES.md §3: "the UI warns before
        confirming") or a surprised combatant attacking blind.  A line that would be
        refused has no cautions: running it gives the refusal.  The state computed
        to find them is kept, so running the same command next costs nothing more.
        """
        try:
            command = parse(line, self.fight)
            if not cautious(command):
                return []
            after = self._applied(command)
        except Refusal:
            return []
        # In the reaction window the command is applied before the advance that
        # followed the last action (RULES.md §3): its entries start there.
        window = self.fight.window
        start = len(self.fight.log) if window is None else min(window.log, len(self.fight.log))
        return [entry.text for entry in after.log[start:] if entry.warning]

    def _applied(self, command: cmd.Command) -> Fight:
        """`apply(self.fight, command)`, reusing the last preview of the same command."""
        preview = self._preview
        if preview is not None and preview[0] is self.fight and preview[1] == command:
            return preview[2]
        after = apply(self.fight, command)
        self._preview = (self.fight, command, after)
        return after

    def run(self, command: cmd.Command) -> Outcome:
        fight = self._applied(command)
        self._preview = None
        line = command.line()
        self._clear_redo()
        self._push_line(line, fight)
        return Outcome(fight, line, DO, line)

    def undo(self) -> Outcome:
        """Back one line; `HistoryMismatch` (nothing changes) if the saved history
        does not lead to the state being undone."""
        if not self.lines:
            raise Refusal("No hay nada que deshacer")
        previous = self._state(len(self.lines) - 1)
        line, state = self._pop_line()
        self._push_redo(line, state)
        return Outcome(previous, f"Deshecho: {line}", UNDO, line)

    def redo(self) -> Outcome:
        if not self.redo_lines:
            raise Refusal("No hay nada que rehacer")
        state = self.redo_states[-1]
        if state is None:
            state = _step(self.fight, self.redo_lines[-1])
        line, _ = self._pop_redo()
        self._push_line(line, state)
        return Outcome(state, f"Rehecho: {line}", REDO, line)
