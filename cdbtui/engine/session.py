"""A fight with its history: the one funnel every front end sends command lines into.

`Session.execute(line)` parses, applies and records; `deshacer`/`rehacer` walk the
history.  The history is the list of canonical command lines applied since the
empty fight, so it can be saved and, since the RNG lives in the state, replayed to
exactly the same states (a redone roll gives the same die).  States are cached and
rebuilt by replay only when an undo reaches one that was not kept (after a load).
"""

from __future__ import annotations

from attrs import define, field

from . import commands as cmd
from .errors import Refusal
from .model import Fight
from .parser import parse
from .rules import apply, new_fight


#: Commands whose warnings are the DJ's choice to confirm (not consequences like damage).
CAUTIOUS = (cmd.Perform, cmd.Trigger, cmd.Done)


#: What a command did to the history, as the save's journal records it.
DO, UNDO, REDO = "do", "undo", "redo"


@define
class Outcome:
    """What a command line did: the fight after it, a one-line summary, and its
    effect on the history (`kind`: DO with the canonical `line`, UNDO or REDO)."""

    fight: Fight
    message: str
    kind: str = DO
    line: str = ""


@define
class Session:
    """A fight, the lines that built it from `base`, and the lines undone since."""

    base: Fight
    lines: list[str] = field(factory=list)
    states: list[Fight | None] = field(default=None)
    redo_lines: list[str] = field(factory=list)
    redo_states: list[Fight | None] = field(factory=list)

    def __attrs_post_init__(self) -> None:
        if self.states is None:
            self.states = [self.base]
            for line in self.lines:
                self.states.append(apply(self.states[-1], parse(line, self.states[-1])))

    @classmethod
    def new(cls, name: str = "Combate", rules: str = "cdb", seed: int = 0) -> Session:
        return cls(new_fight(name, rules, seed))

    @classmethod
    def resume(
        cls, base: Fight, lines: list[str], current: Fight, redo_lines: list[str]
    ) -> Session:
        """A session loaded from disk: only the current state is known; the rest replay."""
        states: list[Fight | None] = [base, *([None] * len(lines))]
        states[-1] = current
        return cls(base, list(lines), states, list(redo_lines), [None] * len(redo_lines))

    @property
    def fight(self) -> Fight:
        fight = self.states[-1]
        assert fight is not None
        return fight

    @property
    def can_undo(self) -> bool:
        return bool(self.lines)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_lines)

    def _state(self, index: int) -> Fight:
        """The state after `lines[:index]`, replaying from the nearest kept one."""
        known = index
        while self.states[known] is None:
            known -= 1
        fight = self.states[known]
        for position in range(known, index):
            fight = apply(fight, parse(self.lines[position], fight))
            self.states[position + 1] = fight
        return fight

    def adopt(self, lines: list[str], states: list[Fight]) -> int:
        """Fill in the states not kept (after a load) from `states`, a replay of `lines`
        (`Session(base, lines).states`, which is pure and may run in another thread);
        only the part of the history still shared with it.  Returns how many."""
        shared = 0
        while shared < min(len(lines), len(self.lines)) and lines[shared] == self.lines[shared]:
            shared += 1
        filled = 0
        for index in range(1, shared + 1):
            if self.states[index] is None:
                self.states[index] = states[index]
                filled += 1
        return filled

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
        refused has no cautions: running it gives the refusal.
        """
        try:
            command = parse(line, self.fight)
            if not isinstance(command, CAUTIOUS):
                return []
            after = apply(self.fight, command)
        except Refusal:
            return []
        return [entry.text for entry in after.log[len(self.fight.log):] if entry.warning]

    def run(self, command: cmd.Command) -> Outcome:
        fight = apply(self.fight, command)
        line = command.line()
        self.lines.append(line)
        self.states.append(fight)
        self.redo_lines.clear()
        self.redo_states.clear()
        return Outcome(fight, line, DO, line)

    def undo(self) -> Outcome:
        if not self.lines:
            raise Refusal("No hay nada que deshacer")
        previous = self._state(len(self.lines) - 1)
        line = self.lines.pop()
        self.redo_lines.append(line)
        self.redo_states.append(self.states.pop())
        return Outcome(previous, f"Deshecho: {line}", UNDO, line)

    def redo(self) -> Outcome:
        if not self.redo_lines:
            raise Refusal("No hay nada que rehacer")
        line = self.redo_lines.pop()
        state = self.redo_states.pop()
        if state is None:
            state = apply(self.fight, parse(line, self.fight))
        self.lines.append(line)
        self.states.append(state)
        return Outcome(state, f"Rehecho: {line}", REDO, line)
