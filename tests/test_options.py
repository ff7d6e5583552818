"""`engine.options`: what a combatant may do now, one test per rule it answers for.

The last tests check the query against the engine itself: for every combatant and
maneuver along the worked example, "yes" is exactly what `apply` accepts, and "no"
carries the very sentence `apply` refuses with.
"""

from __future__ import annotations

import pytest
from fights import demo_lines, play

from cdbtui.engine.catalog import catalog_for
from cdbtui.engine.commands import quote
from cdbtui.engine.errors import Refusal
from cdbtui.engine.options import (
    Can,
    advance,
    judge,
    maneuver_option,
    new_turn,
    options,
    spend,
)
from cdbtui.engine.parser import parse
from cdbtui.engine.rules import apply
from fights import EXAMPLE_TURN_1



def fight(*lines: str):
    return play(*demo_lines(), *lines).fight


def can(f, name: str, maneuver: str) -> Can:
    return maneuver_option(f, name, maneuver).can


# ---------------------------------------------------------------- who acts (RULES.md §3)


def test_at_its_moment_a_combatant_may_act_hold_wait_and_decline():
    o = options(fight(), "Mike")
    assert o.act and o.react and o.hold and o.wait and o.decline
    assert not o.only_react
    assert not o.act_now and "no está retrasando" in o.act_now.why
    assert not o.interrupt and "no está a la espera" in o.interrupt.why


def test_outside_its_moment_a_combatant_may_only_react():
    f = fight()
    o = options(f, "Sven")
    assert o.only_react
    assert "Sven actúa en el momento 5; ahora es el momento 7" in o.act.why
    assert not o.hold and not o.wait
    assert can(f, "Sven", "disparar-armas-largas") is Can.NOT_NOW
    assert can(f, "Sven", "esquivar") is Can.NOW
    assert not spend(f, "Sven", 1).ok


def test_anyone_still_in_the_turn_may_decline():
    assert options(fight(), "Sven").decline


def test_a_holder_may_act_now_and_at_any_moment():
    f = fight("mike retrasa")
    o = options(f, "Mike")
    assert f.moment == 6 and o.act_now and o.act
    assert not o.hold and "ya está retrasando" in o.hold.why
    after = options(fight("mike retrasa", "mike actua"), "Mike")
    assert not after.act_now and "ya va a actuar" in after.act_now.why


def test_a_waiter_may_interrupt_but_not_hold():
    o = options(fight("mike espera la puerta"), "Mike")
    assert o.interrupt and o.act
    assert not o.wait and "ya está a la espera" in o.wait.why
    assert not o.hold and "usa «fin» o «interrumpe»" in o.hold.why


def test_a_done_combatant_may_do_nothing_more():
    f = fight("mike gasta 7")
    o = options(f, "Mike")
    assert not o.act and "ya ha terminado este turno" in o.act.why
    assert not o.react and "no tiene AC para esquivar" in o.react.why
    assert not o.decline and not o.hold and not o.wait
    assert maneuver_option(f, "Mike", "esquivar").can is Can.SHORT


def test_an_incapacitated_combatant_has_no_maneuvers():
    f = play("alta Ana ac=6 momento=5", "empezar", "estado Ana +incapacitado").fight
    o = options(f, "Ana")
    assert not o.act and not o.react and "incapacitado" in o.react.why
    assert all(m.can is Can.NO for m in o.maneuvers)


def test_before_the_fight_starts_nothing_is_done():
    f = play("alta Ana ac=6 momento=5").fight
    o = options(f, "Ana")
    assert not o.act and "no ha empezado" in o.act.why
    assert not o.react and not advance(f) and not new_turn(f)


# ---------------------------------------------------------------- spending (§3, §4)


def test_a_maneuver_above_the_ac_left_is_carried_to_next_turn():
    f = play("alta Ana ac=4 momento=5", "empezar", "ana gasta 2").fight  # 2 left, at 3
    shot = maneuver_option(f, "Ana", "disparar-armas-largas")
    assert shot.can is Can.CARRIED and shot.missing == 1 and shot.ok
    assert spend(f, "Ana", 2).can is Can.NOW


def test_a_reaction_is_never_carried():
    f = play("alta Ana ac=2 momento=5", "alta Bea ac=6 momento=3", "empezar",
             "ana gasta 1").fight
    parry = maneuver_option(f, "Ana", "parada")  # 2 AC, 1 left
    assert parry.can is Can.SHORT and parry.missing == 1
    assert "no tiene AC para parada (le quedan 1): cuesta 2" in parry.why


def test_a_cost_above_the_ac_per_turn_is_refused():
    f = play("alta Ana ac=3 momento=5", "empezar").fight
    heavy = maneuver_option(f, "Ana", "disparar-armas-pesadas")  # 4 AC
    assert heavy.can is Can.NO and "ningún turno puede con ella" in heavy.why


def test_a_talent_only_maneuver_needs_the_talent():
    f = fight()
    block = catalog_for(f).get("bloqueo")
    assert judge(f, f.find("Mike"), block).can is Can.NO
    assert "requiere el talento Artista Marcial" in judge(f, f.find("Mike"), block).why
    assert "bloqueo" not in {m.maneuver.id for m in options(f, "Mike").maneuvers}


def test_aiming_after_moving_needs_punteria_zen():
    f = play("alta Ana ac=8 momento=5", "alta Zen ac=8 momento=5 talentos=punteria-zen",
             "empezar", "ana mover 1", "zen mover 1").fight
    aim = maneuver_option(f, "Ana", "apuntar")
    assert aim.can is Can.NO and "no puede Apuntar sin Puntería Zen" in aim.why
    assert maneuver_option(f, "Zen", "apuntar").ok


def test_aiming_twice_in_a_turn_is_refused():
    f = play("alta Ana ac=8 momento=5", "empezar", "ana apuntar").fight
    aim = maneuver_option(f, "Ana", "apuntar")
    assert aim.can is Can.NO and "solo se puede Apuntar una vez por turno" in aim.why


def test_a_variable_cost_is_judged_at_its_smallest():
    move = maneuver_option(fight(), "Mike", "mover")
    assert move.ok and move.cost == 0


def test_a_surprised_combatant_starts_with_half_its_ac():
    f = play("alta Ana ac=6 momento=5", "sorpresa Ana", "empezar").fight
    assert f.find("Ana").ac == 3
    assert maneuver_option(f, "Ana", "disparar-armas-pesadas").can is Can.CARRIED


def test_a_mount_acts_with_its_rider_and_never_carries():
    f = play("alta Jinete ac=6 momento=5", "alta Caballo ac=4", "monta Jinete Caballo",
             "empezar", "caballo gasta 2").fight
    o = options(f, "Caballo")
    assert o.act and not o.hold and "es la montura de Jinete" in o.hold.why
    short = spend(f, "Caballo", 3)
    assert short.can is Can.SHORT and "una montura no deja maniobras" in short.why


def test_with_iniciativa_rapida_nobody_holds_or_waits():
    f = play("alta Ana ac=6 momento=5", "alta Bea ac=6 momento=3", "rapida si", "empezar").fight
    o = options(f, "Ana")
    assert o.act and not o.hold and not o.wait and "Iniciativa Rápida" in o.hold.why
    assert options(f, "Bea").only_react


# ---------------------------------------------------------------- the countdown


def test_the_count_moves_on_only_while_a_turn_is_under_way():
    f = fight(*EXAMPLE_TURN_1)
    assert f.turn_over
    assert not advance(f) and "usa «turno»" in advance(f).why
    assert new_turn(f) and advance(fight())


def test_nobody_by_that_name_is_refused():
    with pytest.raises(Refusal, match="No hay nadie llamado"):
        options(fight(), "Nadie")


# ---------------------------------------------------------------- the query is the engine


def verdict_of_apply(f, line: str) -> tuple[bool, str]:
    try:
        apply(f, parse(line, f))
    except Refusal as refusal:
        return False, str(refusal)
    return True, ""


DEMO = tuple(demo_lines())
STATES = [(*DEMO, *EXAMPLE_TURN_1[:n]) for n in range(0, len(EXAMPLE_TURN_1) + 1, 3)] + [
    (*DEMO, "mike retrasa"), (*DEMO, "mike espera la puerta"), (*DEMO, "mike gasta 7"),
    (*DEMO, "sven esquivar"), (*DEMO, *EXAMPLE_TURN_1, "turno"),
    ("alta Jinete ac=6 momento=5", "alta Caballo ac=4", "alta Bea ac=5 momento=4",
     "monta Jinete Caballo", "empezar", "caballo gasta 2"),
    ("alta Ana ac=6 momento=5", "alta Bea ac=6 momento=3", "rapida si", "empezar", "ana gasta 2"),
    ("alta Ana ac=6 momento=5", "alta Bea ac=6 momento=3", "sorpresa Ana", "empezar",
     "estado Bea +incapacitado"),
    ("alta Ana ac=6 momento=5",),
]


@pytest.mark.parametrize("lines", STATES, ids=lambda lines: lines[-1])
def test_every_maneuver_answer_is_what_apply_does(lines):
    f = play(*lines).fight
    for c in f.combatants:
        for option in options(f, c.name).maneuvers:
            if option.maneuver.variable is not None:
                continue
            ok, why = verdict_of_apply(f, f"{quote(c.name)} {option.maneuver.id}")
            assert (option.ok, option.why) == (ok, why), (c.name, option.maneuver.id)


@pytest.mark.parametrize("lines", STATES, ids=lambda lines: lines[-1])
def test_every_verb_answer_is_what_apply_does(lines):
    f = play(*lines).fight
    for c in f.combatants:
        o = options(f, c.name)
        name = quote(c.name)
        for verdict, line in ((o.hold, f"{name} retrasa"), (o.act_now, f"{name} actua"),
                              (o.wait, f"{name} espera algo"), (o.decline, f"{name} fin"),
                              (spend(f, c.name, 2).verdict, f"{name} gasta 2")):
            assert (verdict.ok, verdict.why) == verdict_of_apply(f, line), line
        if not o.interrupt:  # yes: then the maneuver it interrupts with is judged
            assert (False, o.interrupt.why) == verdict_of_apply(f, f"{name} interrumpe gasta 1")
    assert (advance(f).ok, advance(f).why) == verdict_of_apply(f, "siguiente")
    assert new_turn(f).ok == verdict_of_apply(f, "turno")[0]
