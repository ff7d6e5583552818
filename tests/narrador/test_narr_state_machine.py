"""Random storyteller ("narrador") command sequences against STORYTELLER.md §4–§7, §11–§12.

A hypothesis state machine sets up a fight (2–5 combatants with random Destreza,
Astucia, Fuerza de Voluntad, Resistencia, Fuerza, Percepción, traits and preset
weapons; typed or rolled initiative), then plays random command lines through
`Session.execute` and checks after every step:

- a refused line changes nothing (fight and history);
- the declaration phase goes from the lowest initiative to the highest (§4.2, ties
  §5.3): the declarer is the lowest still to declare, and who leaves «to declare»
  does so in that order, tracked from the state changes through the turn;
- the action phase goes from the highest down (§4.3): whoever begins a go (not a
  delayer acting at will, §6.9) has nobody higher still waiting with actions to do,
  and the goes begun in a turn follow the order;
- a declaration's slots carry the penalty of §6.2, written here: 0 alone,
  −(N + k − 1) for the k-th of N (none for defensa total, §7.6); a slot's base pool
  and penalty never change afterwards; the dice the tracker states for a declared
  attack or defense never exceed its base pool minus its slot's penalty (plus the
  dice of aim or of an immobilized or blinded target, with the health penalty of
  §11 on top); defensa total's k-th defense at most base − (k − 1); the j-th
  defense beyond the declared ones at most base − (2N + j − 1) (§6.4);
- a combatant that has acted this turn (its status was «acted», or it has already
  performed a non-defensive action) never has an abort accepted (§7.4.1);
- Willpower points never below 0, never back up, and at most one spent per
  combatant per turn (§12);
- undo gives back exactly the state before the line, redo the state after it;
- at the end: save → load gives the same fight and history; undo-all on the loaded
  session walks back through every recorded state and redo-all reproduces the final
  one; the loaded lines, replayed from scratch, build the same fight.

Two engine faults it found (since fixed) are pinned by plain tests at the end.
"""

from __future__ import annotations

import re
import tempfile
from itertools import pairwise
from pathlib import Path

from attrs import frozen
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cdbtui import store
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Fight
from cdbtui.engine.session import Session

POOL = ["Ana", "Bruno", "Cora", "Dani", "Eva Luna"]
TRAIT_IDS = ["pelea", "esquivar", "armas-de-fuego", "atletismo", "combate-cc", "sigilo", "alerta"]
WEAPONS = ["revolver-ligero", "revolver-pesado", "pistola-ligera", "glock-17", "pistola-pesada", "rifle",
           "ametralladora-ligera", "rifle-de-asalto", "escopeta", "escopeta-semiautomatica", "ballesta",
           "porra", "garrote", "cuchillo", "espada", "hacha-pequena", "hacha-grande", "estaca"]

#: The base pool of each action the machine declares (STORYTELLER §8: attribute +
#: skill + Precisión), written here, not read from the engine's table.
TRAITS_OF = {
    "golpe": ("des", "pelea", 0),
    "patada": ("des", "pelea", 0),
    "placaje": ("fue", "pelea", 0),
    "estocada": ("des", "combate-cc", 0),
    "disparo": ("des", "armas-de-fuego", 0),
    "disparos-multiples": ("des", "armas-de-fuego", 0),
    "rafaga-de-tres-balas": ("des", "armas-de-fuego", 2),
    "fuego-automatico": ("des", "armas-de-fuego", 10),
    "bloqueo": ("des", "pelea", 0),
    "esquiva": ("des", "esquivar", 0),
    "parada": ("des", "combate-cc", 0),
}
DEFENSES = ["bloqueo", "esquiva", "parada"]
ATTACKS = ["golpe", "patada", "placaje", "estocada", "disparo", "rafaga-de-tres-balas", "fuego-automatico"]
ACTIONS = [*ATTACKS, *DEFENSES, "disparos-multiples"]
CONDITIONS = ["derribado", "desequilibrado", "cegado", "inmovilizado", "atado", "sorprendido", "aturdido",
              "derribada", "aturdida"]
#: Penalties of the health track (STORYTELLER §11), by levels marked.
HEALTH = (0, 0, -1, -1, -2, -2, -5)

who = st.integers(0, 9)
pool_typed = st.none() | st.integers(4, 14)


def item(action: str, pool: int | None) -> str:
    return action if pool is None else f"{action}:{pool}"


def items(pairs) -> str:
    return " ".join(item(a, p) for a, p in pairs)


#: What follows `declara NAME`: one action, 2–4 actions, N shots (and a defense),
#: defensa total, or one of the whole-turn ones.
DECLARATIONS = st.one_of(
    st.tuples(st.sampled_from(ACTIONS), pool_typed).map(lambda x: item(*x)),
    st.lists(st.tuples(st.sampled_from([*ACTIONS, "recarga"]), pool_typed), min_size=2, max_size=4).map(items),
    st.tuples(st.integers(2, 4), pool_typed, st.none() | st.tuples(st.sampled_from(DEFENSES), pool_typed)).map(
        lambda x: f"{item('disparos-multiples', x[1])} {x[0]}" + ("" if x[2] is None else " " + item(*x[2]))),
    st.lists(st.tuples(st.sampled_from(DEFENSES), pool_typed), max_size=2).map(
        lambda x: ("defensa-total " + items(x)).strip()),
    st.sampled_from(["retrasa", "retrasa", "retrasa", "recarga", "apuntar"]),
    # Two or three blows with pools that stand the penalties: goes of several actions.
    st.lists(st.tuples(st.sampled_from(["golpe", "patada", "golpe", "disparo"]), st.integers(7, 14)),
             min_size=2, max_size=3).map(items),
)


def phase(*phases: str):
    """Draw the rule only in these phases (most lines then mean something; the rules
    without a precondition still try lines out of place)."""
    return precondition(lambda self: self.fight.narr is not None and self.fight.narr.phase in phases)


under_attack = precondition(lambda self: self.fight.narr is not None and self.fight.narr.attack is not None)


def quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def expected_penalty(n: int, k: int) -> int:
    """STORYTELLER §6.2: alone no penalty; the k-th (1-based) of n loses n + k − 1 dice."""
    if n == 1:
        return 0
    return -(n + k - 1)


def health_penalty(s) -> int:
    marked = min(s.lethal + s.bashing, s.levels)
    return HEALTH[min(marked, len(HEALTH) - 1)]


def traits_pool(s, action: str) -> int:
    attribute, skill, accuracy = TRAITS_OF[action]
    return (s.trait(attribute) or 0) + (s.trait(skill) or 0) + accuracy


def key(s) -> tuple:
    """The order of §5.3, lowest first: initiative, rating, Destreza, then the GM's
    (roster) order — the one added later, or swapped behind, goes after."""
    return (s.initiative or 0, s.rating, s.dex or 0, -s.tie)


def has_acted(s) -> bool:
    """§7.4.1 «Si tu personaje ya ha actuado este turno»: its go is over, or it has
    already performed one of its non-defensive actions."""
    return s.status == "acted" or any(d.done and not d.defense for d in s.declared)


def pending(s) -> bool:
    return any(not d.defense and not d.done for d in s.declared)


@frozen
class Track:
    """What the machine follows through a fight's history (one per state)."""

    #: (turn, name, key) as each left «to declare», in that order.
    declared: tuple = ()
    #: (turn, name, key) as each began a go at its place, in that order.
    goes: tuple = ()
    #: (turn, name) that spent a Willpower point.
    spent: frozenset = frozenset()
    #: The actor, when its go is a delayer's (it acts at will).
    delayer: str | None = None


ATTACK_LOG = re.compile(r"^(?P<who>[^:]+): (?P<what>[^:(]+?) a (?P<target>[^:]+): (?P<dice>\d+|\?) dados")
DEFENSE_LOG = re.compile(r"^(?P<who>[^:]+): (?P<what>\w+) \((?P<how>.+), (?P<dice>\d+|\?) dados\)")
MANEUVER_NAME = {"Bloqueo": "bloqueo", "Esquiva": "esquiva", "Parada": "parada"}


class NarrFightMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new("T", "narrador", seed=11)
        #: states[i] is the fight after the first i lines of the history.
        self.states: list[Fight] = [self.session.fight]
        self.redo: list[Fight] = []
        self.tracks: list[Track] = [Track()]
        self.redo_tracks: list[Track] = []
        self.broken = False

    # ------------------------------------------------------------ helpers

    @property
    def fight(self) -> Fight:
        return self.session.fight

    def everyone(self) -> list[str]:
        return [c.name for c in self.fight.combatants]

    def name(self, index: int) -> str:
        """Mostly the one whose moment it is (declarer, actor), sometimes anyone, or nobody."""
        fight = self.fight
        if index == 9 or not fight.combatants:
            return "Nadie"
        narr = fight.narr
        first = [n for n in (narr.declarer if narr else None, fight.actor) if n]
        if first and index < 6:
            return quoted(first[index % len(first)])
        names = self.everyone()
        return quoted(names[index % len(names)])

    def target(self, index: int) -> str:
        """Mostly someone who is not the actor, sometimes anyone or nobody."""
        names = self.everyone()
        if index == 9 or not names:
            return "Nadie"
        others = [n for n in names if n != self.fight.actor]
        candidates = [*others, *others, *names]
        return quoted(candidates[index % len(candidates)])

    def attacked(self, index: int) -> str:
        """Mostly the target of the attack being resolved."""
        narr = self.fight.narr
        if narr is not None and narr.attack is not None and index < 7:
            return quoted(narr.attack.target)
        return self.target(index)

    def delayers(self) -> list[str]:
        return [c.name for c in self.fight.combatants if c.sheet.status == "delaying"]

    def delayer(self, index: int) -> str:
        names = self.delayers()
        if names and index < 7:
            return quoted(names[index % len(names)])
        return self.name(index)

    def run(self, line: str, *, aborter: str | None = None, meters: int = 0) -> None:
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
        try:
            track = self.check_step(line, before, after, self.tracks[-1], aborter=aborter, meters=meters)
        except AssertionError as error:
            self.broken = True  # the recorded states no longer follow the session
            raise AssertionError(f"{error}\nlines:\n" + "\n".join(self.session.lines)) from None
        self.states.append(after)
        self.tracks.append(track)
        self.redo.clear()
        self.redo_tracks.clear()
        # Undo gives back exactly the state before; redo the one after.
        self.session.execute("deshacer")
        assert self.session.fight == before, f"undo of {line!r} is not the state before it"
        self.session.execute("rehacer")
        assert self.session.fight == after, f"redo of {line!r} is not the state after it"

    # ------------------------------------------------------------ the step checks

    def check_step(self, line: str, before: Fight, after: Fight, track: Track, *, aborter: str | None,
                   meters: int) -> Track:
        same_turn = after.turn == before.turn
        # §7.4.1: one who has acted never aborts.
        if aborter is not None:
            old = before.find(aborter)
            if old is not None:
                assert old.sheet.status != "acted", (line, f"{aborter} had acted and its abort was accepted")
                assert not has_acted(old.sheet), (
                    line, (f"{aborter} had acted (status {old.sheet.status!r},"
                           f" declared {old.sheet.declared}) and its abort was accepted"))
        # §12: points never below 0, never back, one per turn.
        spent = set(track.spent)
        for c in after.combatants:
            old = before.find(c.name)
            assert c.sheet.points >= 0, (line, c.name, c.sheet.points)
            if old is None:
                continue
            drop = old.sheet.points - c.sheet.points
            assert drop in (0, 1), (line, c.name, "Willpower points", old.sheet.points, "→", c.sheet.points)
            if drop:  # (the turn it counts for: once a turn is over, `fv` starts the next one)
                assert (after.turn, c.name) not in spent, (line, c.name, "spent a second point in turn",
                                                           after.turn)
                spent.add((after.turn, c.name))
        declared_seq = list(track.declared)
        goes = list(track.goes)
        delayer = track.delayer
        if same_turn:
            self.check_declarations(line, before, after, aborting=aborter is not None)
            self.check_dice(line, before, after, meters)
            # Who left «to declare» in this step, in the order the walk takes them.
            if before.narr.phase in ("initiative", "declare"):
                moved = [c for c in after.combatants
                         if before.find(c.name) is not None and before.find(c.name).sheet.status == "to_declare"
                         and c.sheet.status in ("declared", "delaying", "stunned")]
                for c in sorted(moved, key=lambda c: key(c.sheet)):
                    declared_seq.append((after.turn, c.name, key(c.sheet)))
            this_turn = [k for t, _, k in declared_seq if t == after.turn]
            assert all(a < b for a, b in pairwise(this_turn)), (
                line, "declarations not from the lowest to the highest",
                [(n, k) for t, n, k in declared_seq if t == after.turn])
        # Goes begun at their place.
        if after.actor != before.actor:
            delayer = None
            if after.actor is not None and after.narr.phase == "act":
                old = before.find(after.actor)
                if old is not None and old.sheet.status == "delaying" and same_turn:
                    delayer = after.actor
                elif not any(t == after.turn and n == after.actor for t, n, _ in goes):
                    goes.append((after.turn, after.actor, key(after.find(after.actor).sheet)))
        this_turn = [k for t, _, k in goes if t == after.turn]
        assert all(a > b for a, b in pairwise(this_turn)), (
            line, "goes not from the highest to the lowest", [(n, k) for t, n, k in goes if t == after.turn])
        return Track(tuple(declared_seq), tuple(goes), frozenset(spent), delayer)

    @staticmethod
    def check_declarations(line: str, before: Fight, after: Fight, *, aborting: bool) -> None:
        """§6.2: a new declaration's slots carry −(N + k − 1) (0 alone, 0 in defensa
        total), its base pool is the typed one or the traits; afterwards a slot's base
        pool and penalty never change (slots may be done, dropped or given to an abort)."""
        for c in after.combatants:
            old = before.find(c.name)
            if old is None:
                continue
            now, then = c.sheet.declared, old.sheet.declared
            if now == then or not now:
                continue
            if not then:
                n = len(now)
                for k, d in enumerate(now, 1):
                    want = 0 if c.sheet.full_defense else expected_penalty(n, k)
                    assert d.penalty == want, (line, c.name, f"slot {k} of {n}", d, "penalty should be", want)
                    if d.pool is not None and d.action in TRAITS_OF and f"{d.action}:" not in line:
                        assert d.pool == traits_pool(c.sheet, d.action), (line, c.name, d, "base pool")
                continue
            if len(now) == len(then):
                for a, b in zip(then, now):
                    if aborting and b.defense and b.done and not a.done:
                        # Given up to an abort (§7.4.3): the defense's own pool, the slot's penalty.
                        assert b.penalty == a.penalty, (line, c.name, a, "→", b)
                        continue
                    assert (a.pool, a.penalty) == (b.pool, b.penalty), (line, c.name, a, "→", b)
                continue
            # Fewer slots (undone defenses dropped): a subsequence of the old ones.
            rest = iter((d.pool, d.penalty) for d in then)
            assert all(any(x == (d.pool, d.penalty) for x in rest) for d in now), (line, c.name, then, "→", now)

    @staticmethod
    def check_dice(line: str, before: Fight, after: Fight, meters: int) -> None:
        """The dice the tracker states for declared attacks and defenses (log lines of this step)."""
        entries = [after.log[i].text for i in range(len(before.log), len(after.log))]
        for text in entries:
            m = ATTACK_LOG.match(text)
            if m and m["dice"] != "?":
                attacker = before.find(m["who"])
                target = before.find(m["target"])
                if attacker is None or target is None:
                    continue
                then = attacker.sheet
                now = after.find(attacker.name).sheet if after.find(attacker.name) else None
                # The slot this attack used: one that was not done and now is.
                used = None
                if now is not None and len(now.declared) == len(then.declared):
                    used = next((a for a, b in zip(then.declared, now.declared) if b.done and not a.done), None)
                if then.status == "delaying":
                    continue  # declared when it acts: pool checked as a new declaration
                if used is None or used.pool is None:
                    continue
                bonus = 2 * target.sheet.has("inmovilizado") + 2 * target.sheet.has("cegado") - meters
                if used.action in ("disparo", "disparos-multiples", "rafaga-de-tres-balas", "fuego-automatico"):
                    bonus += then.aim
                n = len(then.declared)
                k = then.declared.index(used) + 1
                slot = 0 if then.full_defense else expected_penalty(n, k)
                top = used.pool + slot + health_penalty(then) + bonus
                assert int(m["dice"]) <= top, (
                    line, text, (f"{used.action}: base {used.pool}, slot {k} of {n} ({slot}),"
                                 f" health {health_penalty(then)}, bonus {bonus}: at most {top}"))
                continue
            m = DEFENSE_LOG.match(text)
            if m and m["dice"] != "?" and m["what"] in MANEUVER_NAME:
                defender = before.find(m["who"])
                if defender is None:
                    continue
                then = defender.sheet
                now = after.find(defender.name).sheet
                maneuver = MANEUVER_NAME[m["what"]]
                traits = traits_pool(then, maneuver)
                typed = [d.pool for d in then.declared if d.action == maneuver and d.pool is not None]
                base = max([traits, *typed])
                health = health_penalty(then)
                n = len(then.declared)
                if m["how"] == "abandono":
                    # §7.4.3: the penalty of the slot it replaces.
                    if len(now.declared) != n or then.full_defense:
                        slot = 0  # a delayer's (nothing declared) or a total defense's
                    else:
                        changed = [k for k, (a, b) in enumerate(zip(then.declared, now.declared), 1) if a != b]
                        slot = expected_penalty(n, changed[0]) if changed else 0
                    top = base + slot + health
                elif then.full_defense:
                    # §7.6: the k-th defense rolls base − (k − 1).
                    k = now.defenses
                    top = base - (k - 1) + health
                else:
                    free = [k for k, d in enumerate(then.declared, 1) if d.defense and not d.done]
                    if free:
                        top = base + expected_penalty(n, free[0]) + health
                    else:
                        # §6.4: the j-th defense beyond the declared ones continues the
                        # chain: the (N+1)-th has −2N dice, the (N+2)-th −(2N+1) …
                        j = now.defenses - sum(d.defense for d in then.declared)
                        top = base - (2 * n + j - 1) + health
                assert int(m["dice"]) <= top, (line, text, f"at most {top}")

    # ------------------------------------------------------------ set-up

    @staticmethod
    def add_line(name: str, stats, traits) -> str:
        des, ast, fv, res, fue, per = stats
        line = f"alta {quoted(name)} des={des} ast={ast} fv={fv} res={res} fue={fue} per={per}"
        listed = [f"{t}:{v}" for t, v in zip(TRAIT_IDS, traits) if v]
        if listed:
            line += " rasgos=" + ",".join(listed)
        return line

    combatant = st.tuples(
        st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(0, 5), st.integers(1, 4), st.integers(1, 5),
                  st.integers(1, 4)),
        st.lists(st.integers(0, 5), min_size=len(TRAIT_IDS), max_size=len(TRAIT_IDS)),
        st.lists(st.sampled_from(WEAPONS), min_size=1, max_size=2, unique=True),
        st.integers(1, 20) | st.none(),
        st.booleans(),
    )

    @initialize(cast=st.lists(combatant, min_size=2, max_size=5), begin=st.sampled_from([True, True, True, False]))
    def setup(self, cast, begin):
        for (stats, traits, weapons, ini, supernatural), name in zip(cast, POOL):
            line = self.add_line(name, stats, traits) + (" sobrenatural" if supernatural else "")
            self.run(line)
            for weapon in weapons:
                self.run(f"arma {quoted(name)} {weapon}")
            self.run(f"iniciativa {quoted(name)} {ini}" if ini is not None else f"tirar {quoted(name)}")
        if begin:
            self.run("siguiente")

    # ------------------------------------------------------------ initiative

    @phase("initiative")
    @rule(what=st.sampled_from(["iniciativa", "tirar", "tirar todos", "cambiar"]), i=who, j=who,
          value=st.integers(1, 20))
    def initiative_line(self, what, i, j, value):
        if what == "iniciativa":
            self.run(f"iniciativa {self.target(i)} {value}")
        elif what == "tirar":
            self.run(f"tirar {self.target(i)}")
        elif what == "tirar todos":
            self.run("tirar")
        else:
            self.run(f"cambiar {self.target(i)} {self.target(j)}")

    @phase("initiative")
    @rule(data=st.data())
    def everyone_initiative(self, data):
        """Initiatives for all who miss one, then `siguiente`: so turns go on."""
        for c in self.fight.combatants:
            if c.sheet.initiative is None and not c.sheet.out:
                if data.draw(st.booleans()):
                    self.run(f"iniciativa {quoted(c.name)} {data.draw(st.integers(1, 20))}")
                else:
                    self.run(f"tirar {quoted(c.name)}")
        self.run("siguiente")

    # ------------------------------------------------------------ the turn's course

    def drive_once(self, data) -> None:
        """The natural next line of the phase, with its choices drawn: so fights get
        through their turns (the other rules try everything else)."""
        fight = self.fight
        narr = fight.narr
        if narr.phase == "initiative":
            self.everyone_initiative(data)
        elif narr.phase == "declare" and narr.declarer is not None:
            self.run(f"declara {quoted(narr.declarer)} {data.draw(DECLARATIONS)}")
        elif narr.phase == "act" and narr.attack is not None:
            target = quoted(narr.attack.target)
            t = fight.find(narr.attack.target).sheet
            ways = ["defiende", "aborta tira", "aborta gasta", "dano", "dano"]
            if t.full_defense or any(d.defense for d in t.declared):
                ways += ["defiende"] * 4  # it declared a defense: mostly it uses it
            way = data.draw(st.sampled_from(ways))
            mine = [d.action for d in t.declared if d.defense] or ["esquiva"]
            maneuver = data.draw(st.sampled_from([*DEFENSES, *mine, *mine, *mine]))
            hits = data.draw(st.integers(0, 5))
            if way == "defiende":
                self.run(f"{target} defiende {maneuver} exitos={hits}")
            elif way == "aborta tira":
                self.run(f"{target} aborta tira exitos={data.draw(st.integers(0, 2))} {maneuver} defensa={hits}",
                         aborter=narr.attack.target)
            elif way == "aborta gasta":
                self.run(f"{target} aborta gasta {maneuver} exitos={hits}", aborter=narr.attack.target)
            else:
                self.run(f"dano {target} {data.draw(st.integers(1, 4))} "
                         f"{data.draw(st.sampled_from(['letal', 'contundente']))}")
        elif self.interrupted() and data.draw(st.booleans()):
            self.delayer_steps_in(data)
        elif narr.phase == "act" and fight.actor is not None and self.delayers() and data.draw(st.booleans()):
            # A delayer steps in during someone's go, often at the one whose go it is.
            name = data.draw(st.sampled_from(self.delayers()))
            target = quoted(fight.actor) if data.draw(st.booleans()) else self.target(data.draw(st.integers(0, 8)))
            self.run(f"{quoted(name)} actua {data.draw(st.sampled_from(ATTACKS))} a {target}"
                     f" exitos={data.draw(st.integers(0, 4))}")
        elif narr.phase == "act" and fight.actor is not None:
            hits = data.draw(st.none() | st.integers(1, 5))
            # Often at one whose place has come and who declared a defense (§7.5, §7.6).
            guarded = [c.name for c in fight.combatants if c.name != fight.actor and c.sheet.status == "acted"
                       and (c.sheet.full_defense or any(d.defense for d in c.sheet.declared))]
            if guarded and data.draw(st.booleans()):
                target = quoted(data.draw(st.sampled_from(guarded)))
            else:
                target = self.target(data.draw(st.integers(0, 8)))
            self.run(f"{quoted(fight.actor)} actua a {target}" + ("" if hits is None else f" exitos={hits}"))
        elif narr.phase == "act":
            delayers = self.delayers()
            if delayers and data.draw(st.booleans()):
                name = data.draw(st.sampled_from(delayers))
                self.run(f"{quoted(name)} actua {data.draw(st.sampled_from(ATTACKS))} a"
                         f" {self.target(data.draw(st.integers(0, 8)))} exitos={data.draw(st.integers(0, 4))}")
            else:
                self.run("turno")

    def interrupted(self) -> bool:
        """A go under way (an action done, another pending) while someone delays."""
        fight = self.fight
        if fight.narr is None or fight.narr.phase != "act" or fight.actor is None or not self.delayers():
            return False
        s = fight.find(fight.actor).sheet
        return pending(s) and any(d.done for d in s.declared) and fight.narr.attack is None

    @precondition(lambda self: self.interrupted())
    @rule(data=st.data())
    def delayer_steps_in(self, data):
        """§6.9 and §7.4.1: a delayer attacks the one whose go is under way, who then
        tries to abort (it has acted: no abort may be accepted)."""
        actor = self.fight.actor
        name = data.draw(st.sampled_from(self.delayers()))
        self.run(f"{quoted(name)} actua {data.draw(st.sampled_from(['golpe', 'patada']))} a {quoted(actor)}"
                 f" exitos={data.draw(st.integers(1, 4))}")
        how = data.draw(st.sampled_from(["tira exitos=1", "gasta"]))
        self.run(f"{quoted(actor)} aborta {how} {data.draw(st.sampled_from(DEFENSES))}"
                 f" {'defensa' if how != 'gasta' else 'exitos'}={data.draw(st.integers(0, 3))}", aborter=actor)

    @rule(data=st.data())
    def drive(self, data):
        self.drive_once(data)

    @rule(data=st.data())
    def drive_on(self, data):
        self.drive_once(data)

    @rule(data=st.data())
    def drive_further(self, data):
        self.drive_once(data)

    # ------------------------------------------------------------ declaration

    @phase("declare")
    @rule(i=who, action=st.sampled_from(ACTIONS), pool=pool_typed)
    def declare_one(self, i, action, pool):
        self.run(f"declara {self.name(i)} {item(action, pool)}")

    @phase("declare")
    @rule(i=who, actions=st.lists(st.tuples(st.sampled_from([*ACTIONS, "recarga"]), pool_typed),
                                  min_size=2, max_size=4))
    def declare_multiple(self, i, actions):
        self.run(f"declara {self.name(i)} " + " ".join(item(a, p) for a, p in actions))

    @phase("declare")
    @rule(i=who, shots=st.integers(2, 4), pool=pool_typed,
          defense=st.none() | st.tuples(st.sampled_from(DEFENSES), pool_typed))
    def declare_shots(self, i, shots, pool, defense):
        line = f"declara {self.name(i)} {item('disparos-multiples', pool)} {shots}"
        if defense is not None:
            line += " " + item(*defense)
        self.run(line)

    @phase("declare")
    @rule(i=who, defenses=st.lists(st.tuples(st.sampled_from(DEFENSES), pool_typed), max_size=2))
    def declare_full_defense(self, i, defenses):
        self.run(f"declara {self.name(i)} defensa-total " + " ".join(item(a, p) for a, p in defenses))

    @phase("declare")
    @rule(i=who, what=st.sampled_from(["retrasa", "recarga", "apuntar"]))
    def declare_special(self, i, what):
        self.run(f"declara {self.name(i)} {what}")

    @phase("initiative", "declare")
    @rule()
    def next(self):
        self.run("siguiente")

    # ------------------------------------------------------------ action

    @phase("act")
    @rule(i=who, action=st.none() | st.sampled_from(ACTIONS), j=who, hits=st.none() | st.integers(0, 6),
          meters=st.sampled_from([0, 0, 0, 1, 2]))
    def act(self, i, action, j, hits, meters):
        line = f"{self.name(i)} actua"
        if action is not None:
            line += f" {action}"
        if j < 8:
            line += f" a {self.target(j)}"
        if hits is not None:
            line += f" exitos={hits}"
        if meters:
            line += f" metros={meters}"
        self.run(line, meters=meters)

    @phase("act")
    @rule(j=who, hits=st.none() | st.integers(1, 5))
    def actor_acts(self, j, hits):
        """The everyday move: the actor performs its next declared action at someone."""
        if self.fight.actor is not None:
            self.run(f"{quoted(self.fight.actor)} actua a {self.target(j)}"
                     + ("" if hits is None else f" exitos={hits}"))

    @phase("act")
    @rule(i=who, action=st.sampled_from(ATTACKS), pool=pool_typed, j=who, hits=st.none() | st.integers(0, 6))
    def delayer_acts(self, i, action, pool, j, hits):
        line = f"{self.delayer(i)} actua {item(action, pool)} a {self.target(j)}"
        if hits is not None:
            line += f" exitos={hits}"
        self.run(line)

    @under_attack
    @rule(i=who, maneuver=st.sampled_from(DEFENSES), hits=st.none() | st.integers(0, 6))
    def defend(self, i, maneuver, hits):
        self.run(f"{self.attacked(i)} defiende {maneuver}" + ("" if hits is None else f" exitos={hits}"))

    @under_attack
    @rule(i=who, maneuver=st.sampled_from(DEFENSES), action=st.none() | st.sampled_from(ACTIONS),
          will=st.none() | st.integers(0, 3), hits=st.none() | st.integers(0, 6))
    def abort_roll(self, i, maneuver, action, will, hits):
        name = self.attacked(i)
        line = f"{name} aborta " + ("" if action is None else f"{action} ") + "tira"
        if will is not None:
            line += f" exitos={will}"
        line += f" {maneuver}"
        if hits is not None:
            line += f" defensa={hits}"
        self.run(line, aborter=name.strip('"'))

    @under_attack
    @rule(i=who, maneuver=st.sampled_from(DEFENSES), action=st.none() | st.sampled_from(ACTIONS),
          hits=st.none() | st.integers(0, 6))
    def abort_spend(self, i, maneuver, action, hits):
        name = self.attacked(i)
        line = f"{name} aborta " + ("" if action is None else f"{action} ") + f"gasta {maneuver}"
        if hits is not None:
            line += f" exitos={hits}"
        self.run(line, aborter=name.strip('"'))

    @rule(i=who, levels=st.sampled_from([1, 1, 2, 2, 3, 4, 5, 7]), lethal=st.booleans())
    def damage(self, i, levels, lethal):
        self.run(f"dano {self.attacked(i)} {levels} {'letal' if lethal else 'contundente'}")

    @phase("act")
    @rule(i=who, what=st.sampled_from(["fin", "fin", "retrasa", "siguiente"]))
    def end_go(self, i, what):
        """The go ends early: `fin`, `retrasa` at its place, or the GM's `siguiente`."""
        self.run("siguiente" if what == "siguiente" else f"{self.name(i)} {what}")

    # ------------------------------------------------------------ at any time

    @rule(what=st.sampled_from(["fv", "estado", "estado", "estado", "turno", "alta"]), i=who,
          condition=st.sampled_from(CONDITIONS), on=st.booleans(), index=st.integers(0, len(POOL) - 1),
          fighter=combatant)
    def aside(self, what, i, condition, on, index, fighter):
        """What may happen at any time, drawn as one rule so that it doesn't crowd
        the turn out: a Willpower point, a condition, the GM ending the turn, a
        newcomer (at most five)."""
        if what == "fv":
            self.run(f"fv {self.target(i)} -1")
        elif what == "estado":
            self.run(f"estado {self.target(i)} {'+' if on else '-'}{condition}")
        elif what == "turno":
            self.run("turno")
        elif len(self.fight.combatants) < 5:
            stats, traits, weapons, ini, _ = fighter
            name = POOL[index]
            self.run(self.add_line(name, stats, traits))
            for weapon in weapons:
                self.run(f"arma {quoted(name)} {weapon}")
            if ini is not None:
                self.run(f"iniciativa {quoted(name)} {ini}")

    @rule(i=who)
    def spend_point(self, i):
        """`fv NAME -1`, mostly by one who already spent a point this turn (§12)."""
        spent = [c.name for c in self.fight.combatants if c.sheet.spent]
        self.run(f"fv {quoted(spent[i % len(spent)]) if spent and i < 6 else self.target(i)} -1")

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
        self.redo_tracks.append(self.tracks.pop())
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
        self.tracks.append(self.redo_tracks.pop())
        assert self.session.fight == self.states[-1]

    # ------------------------------------------------------------ invariants

    @invariant()
    def declarer_is_lowest_to_declare(self):
        """§4.2: in the declaration phase the declarer is the lowest still to declare;
        everyone below it has declared (or lost the turn), nobody above it has."""
        fight = self.fight
        narr = fight.narr
        if narr is None or narr.phase != "declare":
            return
        assert narr.declarer is not None, "declaration phase without a declarer"
        d = fight.find(narr.declarer).sheet
        assert d.status == "to_declare", (narr.declarer, d.status)
        for c in fight.combatants:
            s = c.sheet
            if s.initiative is None or c.name == narr.declarer:
                continue
            if key(s) < key(d):
                assert s.status != "to_declare", (c.name, "below the declarer", narr.declarer, "has not declared")
            else:
                assert s.status in ("to_declare", "out"), (c.name, "above the declarer", narr.declarer,
                                                           "is", s.status)

    @invariant()
    def actor_is_highest_waiting(self):
        """§4.3: in the action phase, nobody above the actor (or anybody, when there is
        no actor) still waits with declared actions to do — unless the actor is a
        delayer acting at will (§6.9)."""
        fight = self.fight
        narr = fight.narr
        if narr is None or narr.phase != "act":
            return
        actor = fight.actor
        if actor is not None and actor == self.tracks[-1].delayer:
            return
        top = key(fight.find(actor).sheet) if actor is not None else None
        for c in fight.combatants:
            s = c.sheet
            if c.name == actor or s.initiative is None or s.out:
                continue
            if top is None or key(s) > top:
                assert not (s.status == "declared" and pending(s)) and s.status != "to_declare", (
                    c.name, s.status, s.declared, "waits above the actor", actor)

    @invariant()
    def willpower_within_rating(self):
        for c in self.fight.combatants:
            assert 0 <= c.sheet.points <= c.sheet.willpower, (c.name, c.sheet.points, c.sheet.willpower)

    @invariant()
    def history_matches(self):
        assert len(self.session.lines) == len(self.states) - 1
        assert self.session.fight == self.states[-1]

    def teardown(self):
        if self.broken:
            return
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
        lines = self.session.lines
        for i in reversed(range(len(self.states) - 1)):
            loaded.execute("deshacer")
            assert loaded.fight == self.states[i], (
                f"undo-all on the loaded session: state after line {i} differs"
                f" ({differences(loaded.fight, self.states[i])})\nlines:\n" + "\n".join(lines))
        for i in range(1, len(self.states)):
            loaded.execute("rehacer")
            assert loaded.fight == self.states[i], (
                f"redo-all on the loaded session: state after line {i} differs"
                f" ({differences(loaded.fight, self.states[i])})\nlines:\n" + "\n".join(lines))


def differences(a: Fight, b: Fight) -> str:
    """Which fields of two fights differ, for the failure message."""
    out = [f"{field}: {getattr(a, field)!r:.300} != {getattr(b, field)!r:.300}"
           for field in ("turn", "rolls", "actor", "narr", "seed") if getattr(a, field) != getattr(b, field)]
    for x, y in zip(a.combatants, b.combatants):
        if x != y:
            out.append(f"{x.name}: {x!r:.600} != {y!r:.600}")
    if len(a.log) != len(b.log):
        out.append(f"log length {len(a.log)} != {len(b.log)}")
    return "; ".join(out)


def play(*lines: str) -> Session:
    session = Session.new("T", "narrador", seed=11)
    for line in lines:
        session.execute(line)
    return session


def test_knocked_out_declarer_is_passed():
    """Found by the machine (fixed since): the declarer taken to Incapacitado while
    declaring stayed the declarer and could still declare («Incapacitado (no
    actions; out)», §11; §4.1 «Everyone not out»).  The out combatant must not declare."""
    session = play("alta Ana des=4 ast=4 fv=1 res=2", "alta Bruno des=4 ast=3 fv=2 res=1",
                   "iniciativa Ana 3", "iniciativa Bruno 9", "siguiente", "dano Ana 7 contundente")
    assert session.fight.find("Ana").sheet.out
    try:
        session.execute("declara Ana golpe")
    except Refusal:
        pass
    fight = session.fight
    assert fight.find("Ana").sheet.status == "out", fight.find("Ana").sheet
    assert fight.narr.declarer == "Bruno", fight.narr.declarer


def test_no_abort_after_acting_when_a_delayer_steps_in():
    """Found by the machine (fixed since): Ana has performed the first of her two
    blows; a delayer attacks her during her go; her abort was accepted.  §7.4.1:
    «Si tu personaje ya ha actuado este turno, no podrá defenderse contra el ataque»
    (abort allowed only «while it has not acted yet this turn»).  The delayer's place
    (20) is before Ana's: it may act only once its place has passed (§6.9)."""
    session = play("alta Ana des=4 ast=4 fv=3 res=2 rasgos=pelea:4,esquivar:3",
                   "alta Bruno des=3 ast=3 fv=2 res=3 rasgos=pelea:3",
                   "alta Cora des=2 ast=2 fv=2 res=3 rasgos=pelea:3",
                   "iniciativa Ana 15", "iniciativa Bruno 9", "iniciativa Cora 20", "siguiente",
                   "declara Bruno golpe", "declara Ana golpe:9 golpe:9", "declara Cora retrasa",
                   "Ana actua a Bruno exitos=2", "dano Bruno 1 letal", "Cora actua golpe a Ana exitos=3")
    before = session.fight
    assert any(d.done and not d.defense for d in before.find("Ana").sheet.declared)
    for line in ("Ana aborta tira exitos=1 esquiva defensa=1", "Ana aborta gasta esquiva exitos=1"):
        try:
            session.execute(line)
        except Refusal:
            continue
        raise AssertionError(f"{line!r} accepted although Ana had acted this turn")


NarrFightMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestNarrFightMachine = NarrFightMachine.TestCase
