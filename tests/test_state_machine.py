"""Random command sequences against the invariants of RULES.md §3 and the history.

A hypothesis state machine plays command lines (set-up, maneuvers from the catalog,
reactions, waits, holds, conditions, damage, undo/redo) through `Session.execute` and
checks after every step:

- a refused line changes nothing;
- 0 ≤ AC ≤ the turn's budget; every active combatant's marker ≤ the current moment;
- a new tick (Stop) sits at the marker, and begin − moment = the AC that maneuver spent;
- undo gives back exactly the state before the line, redo the state after it;
- at the end: save → load gives an equal fight and history, and on the loaded session
  (which replays lazily) undo-all walks back through every recorded state and redo-all
  reproduces the final one.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cdbtui import store
from cdbtui.engine.catalog import TALENT_ES, catalog
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import ACTIVE, FOLLOWING, Fight
from attrs import evolve

from cdbtui.engine import rules
from cdbtui.engine.countdown import settle, window_base
from cdbtui.engine.mounts import sync_mounts
from cdbtui.engine.parser import parse
from cdbtui.engine.rules import queue
from cdbtui.engine.session import Session

POOL = ["Ana", "Bruno", "Cora", "Dani", "Eva Luna", "Fede"]
MANEUVERS = [m.id for m in catalog("cdb").maneuvers]
#: The everyday ones, drawn more often so that fights get somewhere.
COMMON = ["punetazo", "disparar-armas-largas", "apuntar", "esquivar", "mover 1", "mover 2",
          "carga 1", "patada", "reconocimiento", "agarron", "ponerse-a-cubierto"]
TALENTS = list(TALENT_ES)
CONDITIONS = ["agarrado", "inmovilizado", "sorprendido", "incapacitado", "moribundo", "a-cubierto",
              "en-duelo", "montado"]
#: Attacks that name a target (RULES.md §4), and the block that marks the attacker.
ATTACKS = ["punetazo", "disparar-armas-largas", "patada", "carga 1", "rafaga-media 3", "bloqueo"]

who = st.integers(0, 8)
small = st.integers(0, 4)


def unsettled(fight: Fight, command) -> Fight:
    """The state `command`'s handler makes, before the count moves on by itself."""
    return sync_mounts(rules._HANDLERS[type(command)](evolve(fight, window=None), command))


def quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


class FightMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new(seed=5)
        #: states[i] is the fight after the first i lines of the history.
        self.states: list[Fight] = [self.session.fight]
        self.redo: list[Fight] = []

    # ------------------------------------------------------------ helpers

    def name(self, index: int, *, waiters_first: bool = False) -> str:
        """Mostly someone who may act now (the queue comes first), sometimes nobody."""
        fight = self.session.fight
        following = [c for c in fight.combatants if c.status in FOLLOWING]
        candidates = [*queue(fight), *following, *fight.combatants]
        if waiters_first:
            candidates = [*following, *candidates]
        if not candidates or index == 8:
            return "Nadie"
        return quoted(candidates[index % len(candidates)].name)

    def run(self, line: str) -> None:
        before = self.session.fight
        lines = list(self.session.lines)
        try:
            self.session.execute(line)
        except Refusal as refusal:
            assert str(refusal).strip()
            assert self.session.fight is before, f"refused {line!r} changed the fight"
            assert self.session.lines == lines
            return
        after = self.session.fight
        self.check_stops(before, after)
        self.states.append(after)
        self.redo.clear()
        # Undo gives back exactly the state before; redo the one after.
        self.session.execute("deshacer")
        assert self.session.fight == before
        self.session.execute("rehacer")
        assert self.session.fight == after

    @staticmethod
    def check_stops(before: Fight, after: Fight) -> None:
        # A reaction or an interrupt in the reaction window spends from the state it
        # answers (RULES.md §3), not from the one after the count moved on.
        answered = window_base(before)
        for c in after.combatants:
            old = before.find(c.name)
            if (old is not None and before.window is not None and c.stops
                    and len(c.stops) > len(old.stops) and c.stops[-1].begin == before.window.moment):
                old = answered.find(c.name)
            if old is None or c.start is None:
                continue
            new_turn = after.turn != before.turn
            previous_stops = () if new_turn else old.stops
            if len(c.stops) == len(previous_stops):
                assert c.stops == previous_stops
                continue
            assert len(c.stops) == len(previous_stops) + 1, (before.turn, after.turn, c.stops)
            stop = c.stops[-1]
            ac_before = c.budget(after.turn) if new_turn else old.ac
            assert stop.moment == c.marker, (c.name, stop, c.marker)
            assert stop.ac == c.ac
            assert stop.begin - stop.moment == ac_before - c.ac, (c.name, stop, ac_before, c.ac)

    # ------------------------------------------------------------ set-up

    @initialize(
        cast=st.lists(
            st.tuples(st.integers(1, 8), st.integers(0, 3), st.integers(0, 3), st.integers(-1, 8)),
            min_size=2, max_size=4,
        ),
        begin=st.sampled_from([True, True, True, False]),
    )
    def setup(self, cast, begin):
        for (ac, agi, ate, start), name in zip(cast, POOL):
            self.run(f"alta {quoted(name)} ac={ac} agi={agi} ate={ate} momento={start}")
        if begin:
            self.run("empezar")

    @rule(index=st.integers(0, len(POOL) - 1), ac=st.integers(1, 8), agi=small, ate=small,
          talents=st.lists(st.sampled_from(TALENTS), max_size=3, unique=True),
          start=st.integers(-2, 9) | st.none())
    def add(self, index, ac, agi, ate, talents, start):
        line = f"alta {quoted(POOL[index])} ac={ac} agi={agi} ate={ate}"
        if talents:
            line += " talentos=" + ",".join(talents)
        if start is not None:
            line += f" momento={start}"
        self.run(line)

    @rule(i=who)
    def remove(self, i):
        self.run(f"baja {self.name(i)}")

    @rule(i=who, start=st.integers(-2, 9))
    def set_start(self, i, start):
        self.run(f"momento {self.name(i)} {start}")

    @rule(i=who, j=who, mode=st.sampled_from(["all", "one", "together"]))
    def roll(self, i, j, mode):
        if mode == "all":
            self.run("tirar")
        elif mode == "one":
            self.run(f"tirar {self.name(i)}")
        else:
            self.run(f"tirar juntos {self.name(i)} {self.name(j)}")

    @rule(i=who)
    def surprise(self, i):
        self.run(f"sorpresa {self.name(i)}")

    @rule()
    def begin(self):
        self.run("empezar")

    # ------------------------------------------------------------ the countdown

    @rule(i=who, maneuver=st.sampled_from(MANEUVERS), extra=st.none() | small)
    def maneuver(self, i, maneuver, extra):
        self.run(f"{self.name(i)} {maneuver}" + ("" if extra is None else f" {extra}"))

    @rule(i=who, maneuver=st.sampled_from(COMMON))
    def common(self, i, maneuver):
        self.run(f"{self.name(i)} {maneuver}")

    @rule(i=who, maneuver=st.sampled_from(["esquivar", "ponerse-a-cubierto", "parada"]))
    def react(self, i, maneuver):
        self.run(f"{self.name(i)} {maneuver}")

    @rule(i=who, amount=st.integers(0, 5))
    def spend(self, i, amount):
        self.run(f"{self.name(i)} gasta {amount}")

    @rule(i=who, j=who, action=st.sampled_from(["disparar-armas-largas", "punetazo", "mover 2", "gasta 1"]),
          reaction=st.sampled_from(["esquivar", "ponerse-a-cubierto", "parada"]))
    def action_then_reaction(self, i, j, action, reaction):
        """RULES.md §3, the reaction window: an action, then a reaction typed after the
        count moved on, is the reaction declared at the action's moment before the
        count moved on (the handlers' own states, before the advance)."""
        fight = self.session.fight
        line = f"{self.name(i)} {action}"
        self.run(line)
        acted = self.session.fight
        if acted is fight or acted.window is None:
            return
        answer = f"{self.name(j)} {reaction}"
        try:
            raw = unsettled(fight, parse(line, fight))
            raw = unsettled(raw, parse(answer, raw))
            expected = sync_mounts(settle(raw))
        except Refusal:
            expected = None
        self.run(answer)
        if expected is None:
            assert self.session.fight is acted, f"{answer!r} refused before the advance, accepted after"
            return
        got = self.session.fight
        event("a reaction answered an action in its window")
        assert evolve(got, log=(), window=None) == evolve(expected, log=(), window=None), (line, answer)
        if raw.turn_over:  # the answer ended the turn: nobody is left to answer
            assert got.window is None
        else:
            assert got.window is not None and got.window.moment == acted.window.moment

    @rule(i=who)
    def hold(self, i):
        self.run(f"{self.name(i)} retrasa")

    @rule(i=who)
    def act(self, i):
        self.run(f"{self.name(i)} actua")

    @rule(i=who)
    def wait(self, i):
        self.run(f"{self.name(i)} espera la puerta")

    @rule(i=who, maneuver=st.sampled_from(["punetazo", "disparar-armas-largas", "mover 2", "gasta 1"]))
    def trigger(self, i, maneuver):
        self.run(f"{self.name(i, waiters_first=True)} interrumpe {maneuver}")

    @rule(i=who)
    def done(self, i):
        self.run(f"{self.name(i)} fin")

    @rule()
    def next(self):
        self.run("siguiente")

    @rule(i=who, j=who)
    def swap(self, i, j):
        self.run(f"cambiar {self.name(i)} {self.name(j)}")

    @rule(i=who, extra=st.integers(0, 3))
    def targets(self, i, extra):
        self.run(f"blancos {self.name(i)} {extra}")

    @rule(on=st.booleans())
    def quick(self, on):
        self.run(f"rapida {'si' if on else 'no'}")

    @rule()
    def new_turn(self):
        self.run("turno")

    @rule(i=who, condition=st.sampled_from(CONDITIONS), on=st.booleans())
    def condition(self, i, condition, on):
        self.run(f"estado {self.name(i)} {'+' if on else '-'}{condition}")

    @rule(i=who, condition=st.sampled_from(["aturdido", "a-cubierto", "agarrado", "derribado"]),
          turns=st.integers(1, 3))
    def timed_condition(self, i, condition, turns):
        self.run(f"estado {self.name(i)} +{condition} turnos={turns}")

    @rule(i=who, text=st.sampled_from(["sangra", "sin munición", "-"]), turns=st.none() | st.integers(1, 2))
    def note(self, i, text, turns):
        tail = f" turnos={turns}" if turns is not None and text != "-" else ""
        self.run(f"nota {self.name(i)} {text}{tail}")

    @rule(i=who, on=st.booleans())
    def reveal(self, i, on):
        self.run(f"{'revelar' if on else 'ocultar'} {self.name(i)}")

    @rule(on=st.booleans())
    def melee_fatigue(self, on):
        self.run(f"fatiga-cc {'si' if on else 'no'}")

    @rule(i=who, amount=st.integers(0, 6), rd=st.integers(-1, 3), fatigue=st.booleans())
    def damage(self, i, amount, rd, fatigue):
        self.run(f"dano {self.name(i)} {amount} rd={rd}" + (" fatiga" if fatigue else ""))

    # ------------------------------------------------------------ the rules the sheet must know

    @rule(i=who, j=who, maneuver=st.sampled_from(ATTACKS))
    def attack_target(self, i, j, maneuver):
        self.run(f"{self.name(i)} {maneuver} a {self.name(j)}")

    @rule(i=who, degree=st.integers(-1, 3) | st.none())
    def lead(self, i, degree):
        self.run(f"{self.name(i)} liderazgo" + ("" if degree is None else f" gde={degree}"))

    @rule(i=who, j=who)
    def bonus(self, i, j):
        self.run(f"bono {self.name(i)} a {self.name(j)}")

    @rule(i=who, j=who, degree=st.integers(0, 3), winner=st.sampled_from([None, 0, 1]))
    def duel(self, i, j, degree, winner):
        a, b = self.name(i), self.name(j)
        tail = "" if winner is None else f" {(a, b)[winner]}+{degree}"
        self.run(f"duelo {a} {b}{tail}")

    @rule(i=who, j=who, on=st.booleans())
    def mount(self, i, j, on):
        self.run(f"monta {self.name(i)} {self.name(j)}" if on else f"desmonta {self.name(i)}")

    @rule(i=who, amount=st.integers(0, 4), fatigue=st.booleans())
    def heal(self, i, amount, fatigue):
        self.run(f"curar {self.name(i)} {amount}" + (" fatiga" if fatigue else ""))

    @rule()
    def rest(self):
        self.run("descanso")

    @rule(index=st.integers(0, len(POOL) - 1), ac=st.integers(1, 8), members=st.integers(1, 6),
          toughness=st.integers(1, 3), start=st.integers(-2, 9))
    def add_horde(self, index, ac, members, toughness, start):
        self.run(f"alta {quoted(POOL[index])} ac={ac} miembros={members} aguante={toughness}"
                 f" momento={start}")

    @rule(i=who, amount=st.integers(0, 8), shots=st.integers(0, 3) | st.none())
    def damage_horde(self, i, amount, shots):
        self.run(f"dano {self.name(i)} {amount}" + ("" if shots is None else f" balas={shots}"))

    # ------------------------------------------------------------ history

    @rule()
    def undo(self):
        if len(self.states) == 1:
            try:
                self.session.execute("deshacer")
            except Refusal:
                return
            raise AssertionError("undo with an empty history was accepted")
        self.session.execute("deshacer")
        self.redo.append(self.states.pop())
        assert self.session.fight == self.states[-1]

    @rule()
    def redo_(self):
        if not self.redo:
            try:
                self.session.execute("rehacer")
            except Refusal:
                return
            raise AssertionError("redo with nothing undone was accepted")
        self.session.execute("rehacer")
        self.states.append(self.redo.pop())
        assert self.session.fight == self.states[-1]

    # ------------------------------------------------------------ invariants

    @invariant()
    def ac_within_budget_and_markers_not_ahead(self):
        fight = self.session.fight
        if not fight.started:
            return
        for c in fight.in_play:
            assert 0 <= c.ac <= c.budget(fight.turn), (c.name, c.ac, c.budget(fight.turn))
            if fight.quick:  # no countdown: only the actor, below its own start
                actor = fight.find(fight.actor) if fight.actor else None
                assert actor is None or actor.marker <= actor.start
                assert fight.turn_over == (actor is None)
            elif c.status in ACTIVE:
                assert fight.moment is not None and c.marker <= fight.moment, (
                    c.name, c.marker, fight.moment)

    @invariant()
    def history_matches(self):
        assert len(self.session.lines) == len(self.states) - 1
        assert self.session.fight == self.states[-1]

    def teardown(self):
        # Save and load: equal fight, equal history.
        loaded = store.loads(store.dumps(self.session))
        assert loaded.fight == self.session.fight
        assert loaded.lines == self.session.lines
        assert loaded.redo_lines == self.session.redo_lines
        assert loaded.base == self.session.base
        # Undo all on the loaded session (lazy replay), then redo all.
        for expected in reversed(self.states[:-1]):
            loaded.execute("deshacer")
            assert loaded.fight == expected
        for expected in self.states[1:]:
            loaded.execute("rehacer")
            assert loaded.fight == expected
        # The lines alone, replayed from scratch, build the same fight.
        assert Session(self.session.base, list(self.session.lines)).fight == self.session.fight


FightMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestFightMachine = FightMachine.TestCase
