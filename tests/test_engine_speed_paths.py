"""The engine's fast paths give what the plain ones give (benchmarks/engine.py).

- `model.evolve` copies `Combatant` and `Fight` with a generated copier (an object
  of the same slots filled in, then made a `Combatant`): the same value as
  `attrs.evolve`, frozen, hashed alike, the original untouched;
- facts about a roster are kept with it and derived from the roster it was made
  from (`model.roster_fact`: the queue, where the count goes next, whether the
  turn is over): for random fights, what a state says equals what a fresh roster
  (nothing cached) says, and replaying the whole history with every fast path off
  (no cache, no derivation, no vouching, `attrs.evolve`) builds the same fight;
- `limits.check_state` skips a new turn's renewed combatants only when the one
  they were copied from was in the state before (so it was checked).
"""

from __future__ import annotations

import contextlib

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant
from test_state_machine import FightMachine

from cdbtui.engine import countdown, limits, model, queries, turn
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import (
    Carried,
    Combatant,
    Expiry,
    Fight,
    Note,
    Status,
    Stop,
    Track,
    evolve,
)
from cdbtui.engine.session import Session

# ---------------------------------------------------------------- copies

small = st.integers(-3, 9)
CHANGES = st.fixed_dictionaries({}, optional={
    "name": st.sampled_from(["Ana", "Bruno", "Eva Luna"]),
    "ac": small,
    "marker": small | st.none(),
    "status": st.sampled_from(list(Status)),
    "stops": st.lists(st.builds(Stop, small, small, small), max_size=3).map(tuple),
    "maneuvers": st.lists(st.sampled_from(["Puñetazo", "Apuntar"]), max_size=3).map(tuple),
    "carried": st.none() | st.builds(Carried, st.just("punetazo"), st.just("Puñetazo"), small),
    "conditions": st.lists(st.sampled_from(["aturdido", "agarrado"]), max_size=2).map(tuple),
    "wounds": st.builds(Track, st.just((3, 3, 2, 2, 1)), st.integers(0, 11)),
    "notes": st.lists(st.builds(Note, st.just("sangra"), st.none() | small), max_size=2).map(tuple),
    "expires": st.lists(st.builds(Expiry, st.just("aturdido"), small), max_size=2).map(tuple),
    "acting": st.booleans(),
    "trigger": st.none() | st.just("una señal"),
})


@given(CHANGES)
def test_evolve_copies_a_combatant_as_attrs_evolve_does(changes):
    c = Combatant("Cora", 6, agi=2, talents=("artista-marcial",), start=5, marker=3, ac=4)
    before = attrs.astuple(c, recurse=False)
    fast, plain = evolve(c, **changes), attrs.evolve(c, **changes)
    assert type(fast) is Combatant
    assert fast == plain and hash(fast) == hash(plain)
    for f in attrs.fields(Combatant):
        assert getattr(fast, f.name) is getattr(plain, f.name) or getattr(fast, f.name) == getattr(plain, f.name)
    assert attrs.astuple(c, recurse=False) == before  # the original is left as it was
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.ac = 1


@given(turn=st.integers(0, 5), moment=small | st.none(), clock=st.integers(0, 9), quick=st.booleans())
def test_evolve_copies_a_fight_as_attrs_evolve_does(turn, moment, clock, quick):
    f = Fight(name="Banco", combatants=(Combatant("Ana", 5),)).note("hola")
    fast = evolve(f, turn=turn, moment=moment, clock=clock, quick=quick)
    assert type(fast) is Fight
    assert fast == attrs.evolve(f, turn=turn, moment=moment, clock=clock, quick=quick)
    assert fast.log is f.log and fast.combatants is f.combatants
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.turn = 1


def test_evolve_refuses_a_field_the_class_has_not():
    with pytest.raises(TypeError, match="no field 'speed'"):
        evolve(Combatant("Ana", 5), speed=3)


# ---------------------------------------------------------------- the plain engine


def _plain_renewed(old, marker, ac, status, conditions, expires):
    scope = {"old": old, "marker": marker, "ac": ac, "status": status,
             "conditions": conditions, "expires": expires}
    return attrs.evolve(old, **{name: eval(expr, scope) for name, expr in turn._TURN_RESET.items()})


@contextlib.contextmanager
def plain_engine():
    """Every fast path off: roster facts computed each time they are asked (nothing
    kept, nothing derived), no copy vouched for, `attrs.evolve` for every copy, a
    new copy for every combatant at a new turn."""
    def computed(combatants, name, compute, derive=None):
        return compute(combatants)

    patches = [
        (model, "roster_fact", computed), (queries, "roster_fact", computed),
        (countdown, "roster_fact", computed), (model, "_FAST", {}),
        (turn, "vouch", lambda copies, sources: None), (turn, "_renewed", _plain_renewed),
        (turn, "_unchanged", lambda *args: False),
    ]
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    try:
        for module, name, value in patches:
            setattr(module, name, value)
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def fresh_roster(fight: Fight) -> Fight:
    """`fight` with a roster tuple of its own: nothing is known about it yet."""
    return attrs.evolve(fight, combatants=tuple(list(fight.combatants)))  # noqa: C414 - a new tuple


class FastPathMachine(FightMachine):
    @invariant()
    def kept_facts_are_what_a_fresh_look_finds(self):
        fight = self.session.fight
        fresh = fresh_roster(fight)
        assert fresh.combatants is not fight.combatants or not fight.combatants
        assert [c.name for c in queries.queue(fight)] == [c.name for c in queries.queue(fresh)]
        assert all(a is b for a, b in zip(queries.queue(fight), queries.queue(fresh)))
        assert fight.turn_over == fresh.turn_over
        assert countdown.next_moment(fight) == countdown.next_moment(fresh)
        assert fight.mounts == fresh.mounts
        assert fight.in_play == fresh.in_play

    def teardown(self):
        super().teardown()
        with plain_engine():
            plain = Session(self.session.base, list(self.session.lines)).fight
        assert plain == self.session.fight


FastPathMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestFastPathMachine = FastPathMachine.TestCase


def play(*lines: str) -> Session:
    session = Session.new(seed=3)
    for line in lines:
        session.execute(line)
    return session


def test_a_long_fight_with_the_fast_paths_is_the_plain_engines_fight():
    lines = [f"alta C{i:02d} ac={5 + i % 4} agi={i % 5} ate={i % 3} momento={4 + i % 12}" for i in range(30)]
    lines += ["monta C00 C01", "empezar"]
    session = play(*lines)
    for step in range(300):
        fight = session.fight
        if fight.turn_over or step % 25 == 24:  # the DJ closes a turn now and then
            line = "turno"
        elif queries.queue(fight):
            head = queries.queue(fight)[step % len(queries.queue(fight))]
            line = f"{head.name} {('gasta 1', 'gasta 3', 'punetazo', 'retrasa', 'esquivar')[step % 5]}"
        else:
            line = "siguiente"
        try:
            session.execute(line)
        except Refusal:
            session.execute("siguiente" if not session.fight.turn_over else "turno")
    assert session.fight.turn > 3
    with plain_engine():
        plain = Session(session.base, list(session.lines)).fight
    assert plain == session.fight


# ---------------------------------------------------------------- check_state and vouching


def test_a_renewed_combatant_is_checked_unless_copied_from_one_checked_before():
    ok = Combatant("Ana", 6, start=5, marker=2, ac=1, status=Status.DONE)
    bad = attrs.evolve(ok, agi=500)  # out of bounds (Agilidad −99 to 99), never checked
    after = Fight(turn=2, moment=5, combatants=(turn._renewed(bad, 5, 6, Status.READY, (), ()),))
    with pytest.raises(Refusal, match="Agilidad 500"):
        limits.check_state(after, Fight(turn=1, moment=2, combatants=(ok,)))
    # Vouched for as a copy of the combatant the state before had: not looked at.
    limits.vouch((ok,), after.combatants)
    limits.check_state(after, Fight(turn=1, moment=2, combatants=(ok,)))
    # Vouched for as a copy of one the state before did not have: checked.
    limits.vouch((bad,), after.combatants)
    with pytest.raises(Refusal, match="Agilidad 500"):
        limits.check_state(after, Fight(turn=1, moment=2, combatants=(ok,)))
    # A combatant changed after the renewal (not the renewed one): checked.
    changed = attrs.evolve(after.combatants[0], ac=5)
    limits.vouch((ok,), after.combatants)
    with pytest.raises(Refusal, match="Agilidad 500"):
        limits.check_state(attrs.evolve(after, combatants=(changed,)), Fight(turn=1, moment=2, combatants=(ok,)))


def test_a_new_turn_keeps_a_combatant_who_did_nothing_and_renews_the_others():
    session = play("alta Ana ac=5 momento=6", "alta Bruno ac=4 momento=3", "empezar",
                   "Ana gasta 2")
    fight = session.fight
    ana, bruno = fight.find("Ana"), fight.find("Bruno")
    session.execute("turno")
    after = session.fight
    assert after.find("Bruno") is bruno  # nothing to renew: the same object, shared
    assert after.find("Ana") is not ana and after.find("Ana").ac == 5
    with plain_engine():
        plain = Session(session.base, list(session.lines)).fight
    assert plain == after


def test_what_was_vouched_for_goes_with_a_refused_check():
    """A vouch is for the next check only, refused or not: nothing is left over for
    an unrelated later check (review of the fast paths)."""
    import attrs as _attrs
    import pytest as _pytest

    from cdbtui.engine import limits
    from cdbtui.engine.errors import Refusal as _Refusal
    from cdbtui.engine.session import Session as _Session

    session = _Session.new("X", "cdb", 1)
    for line in ("alta Ana ac=5", "momento Ana 3", "empezar"):
        session.execute(line)
    before = session.fight
    copy = _attrs.evolve(before.combatants[0], ac=4)
    limits.vouch(before.combatants, (copy,))
    after = _attrs.evolve(before, turn=100000, combatants=(copy,))
    with _pytest.raises(_Refusal):
        limits.check_state(after, before)
    assert not limits._RENEWAL
