"""Random C-System command sequences against the invariants of CSYSTEM.md §3–§5, §9–§10.

A hypothesis state machine sets up a fight (combatants of random nivel heroico with
weapons, typed or rolled initiative, `empezar`), then plays random command lines of
SYSTEMS.md §2.2 through `Session.execute` and checks after every step:

- a refused line changes nothing (fight and history);
- what each combatant took this turn (`used`) is one of its level's combinations of
  §4.2 or part of one (the table is written here, not imported from the engine); an
  action accepted under Malherido/Mareado keeps the turn within □, and nobody acts
  while a condition allows nothing (§4.5);
- each combatant begins at most one go per turn (§3.5), and `goes` grows by exactly
  the goes the log says began;
- after `empezar` the order holds everyone with an initiative once, sorted by value,
  highest first (ties in any order, §3.3–3.5);
- Vitalidad never above its maximum (§9.7);
- the actor is the first in the order who has not had its go, None when all did (§3.5),
  except that a go under way goes on when someone else is lifted above it (that one
  acts next: «or next, if a +5 lifted it above the current place»);
- undo gives back exactly the state before the line, redo the state after it;
- at the end: save → load gives the same fight and history; undo-all on the loaded
  session walks back through every recorded state and redo-all reproduces the final
  one; the loaded lines, replayed from scratch, build the same fight.
"""

from __future__ import annotations

import tempfile
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cdbtui import store
from cdbtui.engine.csystem.common import current_fight
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Fight
from cdbtui.engine.session import Session

POOL = ["Ana", "Bruno", "Cora", "Dani", "Eva Luna"]

#: CSYSTEM.md §4.2, the maximal combinations (complex, simple) by nivel heroico.
MAXIMA = {
    "1-4": ((1, 1), (0, 2)),
    "5-8": ((2, 0), (1, 1), (0, 3)),
    "9+": ((2, 1), (1, 2), (0, 4)),
}


def maxima(level: int) -> tuple[tuple[int, int], ...]:
    return MAXIMA["1-4" if level <= 4 else "5-8" if level <= 8 else "9+"]


def legal(level: int, complex_: int, simple: int) -> bool:
    """A listed combination or part of one (■ is not worth □□)."""
    return any(complex_ <= c and simple <= s for c, s in maxima(level))


#: §4.5: conditions under which one may take at most one simple action / nothing.
ONE_SIMPLE = ("malherido", "mareado")
NOTHING = ("aturdido", "aterrado", "fascinado", "inconsciente", "moribundo", "muerto", "inutilizado")

#: Weapons as typed with `arma` (SYNTAX.md).
WEAPONS = [
    "pistola modos=sa cargador=15 dano=2d6",
    "subfusil modos=fa cargador=30 dano=2d6",
    "escopeta modos=simple cargador=2 dano=4d6",
    "rifle modos=simple,sa cargador=5",
    "ametralladora modos=fa,pesado cargador=100 dano=5d6",
    "rayo distancia dano=3d6",
    "puños dano=3d6",
    "espada dano=2d6",
]
WEAPON_NAMES = [w.split()[0] for w in WEAPONS]
MANEUVERS = ["apuntar", "cargar", "cubrirse simple", "cubrirse compleja", "cubrirse compleja casi-completa",
             "cubrirse", "derribar", "desarmar", "esquivar", "esquivar 5", "presa", "disparo-en-combate",
             "rafaga-corta", "rafaga-larga", "fuego-automatico-pesado"]
GENERIC = ["mover", "correr", "recarga", "levantarse", "simple", "compleja", 'simple "¡cúbreme!"',
           "compleja busca en la mochila", "gratis suelta la presa", "sacudir", "golpe-de-gracia",
           "primeros-auxilios"]
TARGETED = ["ataca", "cargar a", "derribar a", "presa a", "rafaga-corta a", "rafaga-larga a",
            "disparo-en-combate a", "fuego-automatico-pesado a", "primeros-auxilios a", "golpe-de-gracia a",
            "desarmar a", "sacudir a"]
CONDITIONS = ["ensordecido", "aturdido", "malherido", "herido", "mareado", "tumbado", "sangrando:2",
              "inconsciente", "moribundo", "a-cubierto:parcial", "fatigado", "aterrado", "desprevenido",
              "fascinado", "apresado", "estabilizado"]
TYPES = ["", " letal", " balistico", " energia", " conmocion"]

who = st.integers(0, 9)


def quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def turn_goes(fight: Fight) -> tuple[dict[str, int], int]:
    """How many goes each combatant began in the current turn, and in the whole fight
    (from the log: «— Turno N —» starts a turn, «Le toca a X» a go)."""
    names = {c.name for c in fight.combatants}
    this_turn: dict[str, int] = {}
    total: dict[str, int] = {}
    for entry in fight.log:
        text = entry.text
        if text.startswith("— Turno "):
            this_turn = {}
        elif text.startswith("Le toca a ") and text[len("Le toca a "):] in names:
            name = text[len("Le toca a "):]
            this_turn[name] = this_turn.get(name, 0) + 1
            total[name] = total.get(name, 0) + 1
    return this_turn, sum(total.values())


class CsFightMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new("T", "csystem", seed=7)
        #: states[i] is the fight after the first i lines of the history.
        self.states: list[Fight] = [self.session.fight]
        self.redo: list[Fight] = []
        #: Parallel to states / redo: who was lifted above a go under way (see `lifted`).
        self.lifted: list[frozenset[str]] = [frozenset()]
        self.redo_lifted: list[frozenset[str]] = []

    # ------------------------------------------------------------ helpers

    def name(self, index: int, *, pending: bool = False) -> str:
        """Mostly the actor (or one with a pending roll), sometimes anyone, sometimes nobody."""
        fight = self.session.fight
        if index == 9 or not fight.combatants:
            return "Nadie"
        first = [c.name for c in fight.combatants if c.sheet.pending] if pending else []
        if fight.actor is not None:
            first.append(fight.actor)
        if first and index < 6:
            return quoted(first[index % len(first)])
        return quoted(fight.combatants[index % len(fight.combatants)].name)

    def other(self, index: int) -> str:
        """Mostly someone who is not the actor (a target), sometimes anyone or nobody."""
        fight = self.session.fight
        if index == 9 or not fight.combatants:
            return "Nadie"
        others = [c.name for c in fight.combatants if c.name != fight.actor]
        candidates = [*others, *others, *(c.name for c in fight.combatants)]
        return quoted(candidates[index % len(candidates)])

    def run(self, line: str) -> None:
        before = self.session.fight
        lines = list(self.session.lines)
        try:
            self.session.execute(line)
        except Refusal as refusal:
            assert str(refusal).strip()
            assert self.session.fight == before, f"refused {line!r} changed the fight"
            assert self.session.lines == lines, f"refused {line!r} changed the history"
            return
        after = self.session.fight
        self.check_step(line, before, after)
        self.states.append(after)
        self.lifted.append(self.lifted_after(line, before, after, self.lifted[-1]))
        self.redo.clear()
        self.redo_lifted.clear()
        # Undo gives back exactly the state before; redo the one after.
        self.session.execute("deshacer")
        assert self.session.fight == before, f"undo of {line!r} is not the state before it"
        self.session.execute("rehacer")
        assert self.session.fight == after, f"redo of {line!r} is not the state after it"

    @staticmethod
    def lifted_after(line: str, before: Fight, after: Fight, lifted: frozenset[str]) -> frozenset[str]:
        """Those who may stand, not having acted, ahead of the actor in `after` (§3.5).

        The next to act is the first in the order who has not had its go; a go under
        way is not cut short when someone else's value lifts it above the current
        place: that one acts next («or next, if a +5 lifted it above the current
        place»).  So, while the same go goes on, a combatant that was behind the actor
        and moved ahead of it *without the actor's own value or place changing* is
        allowed there.  The actor moving down itself («acts at its new place»), or a
        go that has not begun (waiting for a roll), allows nobody."""
        actor = after.actor
        if not after.started or actor is None or actor != before.actor:
            return frozenset()
        after, before = current_fight(after), current_fight(before)  # as each stands in its turn
        now, then = after.find(actor).sheet, before.find(actor).sheet
        if not (now.begun and not now.acted and then.begun and not then.acted):
            return frozenset()
        order, old = after.cs.order, before.cs.order
        ahead = {n for n in order[:order.index(actor)] if not after.find(n).sheet.acted}
        same_place = (now.initiative, now.tie, now.after) == (then.initiative, then.tie, then.after)
        allowed = set()
        for name in ahead:
            was_behind = name in old and actor in old and old.index(name) > old.index(actor)
            if name in lifted or (same_place and was_behind):
                allowed.add(name)
        return frozenset(allowed)

    @staticmethod
    def check_step(line: str, before: Fight, after: Fight) -> None:
        """What one accepted line may do to the goes and the budgets."""
        _, goes_before = turn_goes(before)
        _, goes_after = turn_goes(after)
        before, after = current_fight(before), current_fight(after)  # as each stands in its turn
        sheet_goes = sum(c.sheet.goes for c in after.combatants)
        sheet_goes_before = sum(c.sheet.goes for c in before.combatants if after.find(c.name))
        assert sheet_goes - sheet_goes_before == goes_after - goes_before, (
            line, "goes on the sheets grew by", sheet_goes - sheet_goes_before,
            "goes begun in the log", goes_after - goes_before)
        if after.turn != before.turn:
            return
        for c in after.combatants:
            old = before.find(c.name)
            if old is None or len(c.sheet.used) <= len(old.sheet.used):
                continue
            assert c.sheet.used[:len(old.sheet.used)] == old.sheet.used, (line, c.name)
            # §4.5: the cap of the conditions it had when it acted.
            held = {x.id for x in old.sheet.conditions}
            assert not held & set(NOTHING), (line, c.name, "acted while", held & set(NOTHING))
            if held & set(ONE_SIMPLE):
                assert c.sheet.used == ("simple",), (line, c.name, held & set(ONE_SIMPLE), c.sheet.used)

    # ------------------------------------------------------------ set-up

    @initialize(
        cast=st.lists(
            st.tuples(st.integers(1, 12), st.integers(1, 8), st.integers(0, 6), st.integers(1, 10),
                      st.integers(1, 8), st.lists(st.sampled_from(WEAPONS), max_size=2, unique=True),
                      st.integers(1, 30) | st.none()),
            min_size=2, max_size=4,
        ),
        begin=st.sampled_from([True, True, True, False]),
    )
    def setup(self, cast, begin):
        for (nh, des, ale, per, con, weapons, ini), name in zip(cast, POOL):
            self.run(f"alta {quoted(name)} nh={nh} des={des} ale={ale} per={per} con={con}")
            for weapon in weapons:
                self.run(f"arma {quoted(name)} {weapon}")
            self.run(f"iniciativa {quoted(name)} {ini}" if ini is not None else f"tirar {quoted(name)}")
        if begin:
            self.run("empezar")

    @rule(index=st.integers(0, len(POOL) - 1), nh=st.integers(1, 12), des=st.integers(1, 8),
          ale=st.integers(0, 6), per=st.integers(1, 10), con=st.integers(1, 8),
          weapon=st.sampled_from(WEAPONS) | st.none(), ini=st.integers(1, 30) | st.none())
    def add(self, index, nh, des, ale, per, con, weapon, ini):
        name = quoted(POOL[index])
        self.run(f"alta {name} nh={nh} des={des} ale={ale} per={per} con={con}")
        if weapon is not None:
            self.run(f"arma {name} {weapon}")
        self.run(f"iniciativa {name} {ini}" if ini is not None else f"tirar {name}")

    @rule(i=who, value=st.integers(1, 30))
    def set_initiative(self, i, value):
        self.run(f"iniciativa {self.name(i)} {value}")

    @rule(i=who)
    def roll(self, i):
        self.run(f"tirar {self.name(i)}" if i < 5 else "tirar")

    @rule(i=who)
    def surprise(self, i):
        self.run(f"sorpresa {self.name(i)}")

    @rule(i=who, j=who)
    def swap(self, i, j):
        self.run(f"cambiar {self.name(i)} {self.other(j)}")

    @rule(i=who, j=who, before=st.booleans())
    def place(self, i, j, before):
        self.run(f"orden {self.name(i)} {'antes' if before else 'tras'} {self.other(j)}")

    @rule()
    def begin(self):
        self.run("empezar")

    # ------------------------------------------------------------ the go

    @rule(i=who, maneuver=st.sampled_from(MANEUVERS))
    def maneuver(self, i, maneuver):
        self.run(f"{self.name(i)} {maneuver}")

    @rule(i=who, action=st.sampled_from(GENERIC))
    def generic(self, i, action):
        self.run(f"{self.name(i)} {action}")

    @rule(i=who, j=who, action=st.sampled_from(TARGETED), hit=st.integers(0, 40),
          damage=st.lists(st.integers(0, 25), min_size=1, max_size=2), kind=st.sampled_from(TYPES),
          weapon=st.sampled_from([None] * 8 + WEAPON_NAMES))
    def attack(self, i, j, action, hit, damage, kind, weapon):
        line = f"{self.name(i)} {action} {self.other(j)} tirada={hit} dano={'+'.join(map(str, damage))}"
        if kind:
            line += f" tipo={kind.strip()}"
        if weapon is not None:
            line += f" arma={weapon}"
        self.run(line)

    @rule(i=who, j=who, hit=st.integers(10, 40), damage=st.integers(0, 30))
    def plain_attack(self, i, j, hit, damage):
        """The everyday attack, drawn more often so that wounds and prompts happen."""
        self.run(f"{self.name(i)} ataca {self.other(j)} tirada={hit} dano={damage}")

    @rule(i=who, weapon=st.sampled_from(WEAPON_NAMES), mode=st.sampled_from(["simple", "sa", "fa", "pesado"]))
    def fire_mode(self, i, weapon, mode):
        self.run(f"{self.name(i)} modo {weapon} {mode}")

    @rule(i=who, weapon=st.sampled_from(WEAPON_NAMES))
    def reload(self, i, weapon):
        self.run(f"{self.name(i)} recarga {weapon}")

    @rule(i=who, j=who, last=st.booleans())
    def lower(self, i, j, last):
        self.run(f"{self.name(i)} retrasa final" if last else f"{self.name(i)} retrasa tras {self.other(j)}")

    @rule(i=who)
    def done(self, i):
        self.run(f"{self.name(i)} fin")

    @rule()
    def next(self):
        self.run("siguiente")

    @rule()
    def new_turn(self):
        self.run("turno")

    # ------------------------------------------------------------ at any time

    @rule(i=who, amount=st.integers(0, 30), kind=st.sampled_from(TYPES), rd=st.integers(0, 4) | st.none(),
          bleed=st.booleans())
    def damage(self, i, amount, kind, rd, bleed):
        line = f"dano {self.name(i)} {amount}{kind}"
        if rd is not None:
            line += f" rd={rd}"
        if bleed:
            line += " sangrado"
        self.run(line)

    @rule(i=who, roll=st.sampled_from(["dolor", "refleja"]), total=st.integers(0, 35), energy=st.booleans())
    def answer(self, i, roll, total, energy):
        self.run(f"{roll} {self.name(i, pending=True)} {total}" + (" energia" if energy and roll == "dolor" else ""))

    @rule(i=who, text=st.sampled_from(["corte", '"corte profundo"', "fractura"]),
          condition=st.sampled_from(["", " +sangrando:1", " +aturdido", " +mareado"]))
    def critical(self, i, text, condition):
        self.run(f"critica {self.name(i, pending=True)} {text}{condition}")

    @rule(i=who, amount=st.integers(0, 40))
    def heal(self, i, amount):
        self.run(f"cura {self.name(i)} {amount}")

    @rule(i=who, condition=st.sampled_from(CONDITIONS), on=st.booleans(), turns=st.integers(1, 3) | st.none())
    def condition(self, i, condition, on, turns):
        if on:
            self.run(f"estado {self.name(i)} +{condition}" + ("" if turns is None else f" turnos={turns}"))
        else:
            self.run(f"estado {self.name(i)} -{condition.partition(':')[0]}")

    @rule(i=who, weapon=st.sampled_from(WEAPON_NAMES), rounds=st.integers(0, 40))
    def ammo(self, i, weapon, rounds):
        self.run(f"municion {self.name(i)} {weapon} {rounds}")

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
        self.redo_lifted.append(self.lifted.pop())
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
        self.lifted.append(self.redo_lifted.pop())
        assert self.session.fight == self.states[-1]

    # ------------------------------------------------------------ invariants

    @invariant()
    def budget_is_a_legal_combination(self):
        for c in current_fight(self.session.fight).combatants:
            s = c.sheet
            assert set(s.used) <= {"complex", "simple"}, (c.name, s.used)
            taken = (s.used.count("complex"), s.used.count("simple"))
            assert legal(s.level, *taken), (c.name, f"NH {s.level}", s.used)

    @invariant()
    def one_go_per_turn(self):
        this_turn, _ = turn_goes(self.session.fight)
        assert all(n <= 1 for n in this_turn.values()), this_turn

    @invariant()
    def order_sorted_by_initiative(self):
        fight = self.session.fight
        if not fight.started:
            return
        order = fight.cs.order
        assert len(order) == len(set(order)), order
        assert set(order) == {c.name for c in fight.combatants if c.sheet.initiative is not None}, order
        values = [fight.find(n).sheet.initiative for n in order]
        assert all(a >= b for a, b in pairwise(values)), list(zip(order, values))

    @invariant()
    def vitality_within_maximum(self):
        for c in self.session.fight.combatants:
            assert c.sheet.vitality <= c.sheet.vitality_max, (c.name, c.sheet.vitality, c.sheet.vitality_max)

    @invariant()
    def actor_is_first_who_has_not_acted(self):
        fight = self.session.fight
        if not fight.started:
            assert fight.actor is None
            return
        lifted = self.lifted[-1]
        fight = current_fight(fight)
        waiting = [n for n in fight.cs.order if not fight.find(n).sheet.acted and n not in lifted]
        assert fight.actor == (waiting[0] if waiting else None), (fight.actor, waiting, fight.cs.order)

    @invariant()
    def history_matches(self):
        assert len(self.session.lines) == len(self.states) - 1
        assert self.session.fight == self.states[-1]

    def teardown(self):
        # Save and load, as text and through a file: the same fight and history.
        loaded = store.loads(store.dumps(self.session))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "combate.toml"
            store.save(path, self.session)
            from_file = store.load(path)
        for other in (loaded, from_file):
            assert other.fight == self.session.fight
            assert other.lines == self.session.lines
            assert other.redo_lines == self.session.redo_lines
            assert other.base == self.session.base
        # The loaded lines, replayed from scratch, build the same fight.
        assert Session(from_file.base, list(from_file.lines)).fight == self.session.fight
        # Undo all on the loaded session (lazy replay), then redo all.
        for expected in reversed(self.states[:-1]):
            loaded.execute("deshacer")
            assert loaded.fight == expected
        for expected in self.states[1:]:
            loaded.execute("rehacer")
            assert loaded.fight == expected


CsFightMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestCsFightMachine = CsFightMachine.TestCase
