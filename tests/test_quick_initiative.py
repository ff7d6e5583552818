"""Iniciativa Rápida (RULES.md §3, Walküre's optional rule): no moments; one go each
in descending start order, spending all the AC one wants at once, keeping some for
dodges if one likes."""

from __future__ import annotations

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Status
from cdbtui.engine.rules import queue
from cdbtui.store import dumps, loads
from cdbtui.view import state_json

SETUP = ("alta A ac=6 agi=2", "alta B ac=5 agi=3", "alta C ac=4",
         "momento A 7", "momento B 7", "momento C 9", "rapida si", "empezar")


def test_goes_follow_descending_start_then_agilidad(session):
    s = session(*SETUP)
    assert s.fight.actor == "C" and [c.name for c in queue(s.fight)] == ["C"]
    s.execute("c gasta 4")  # out of AC: the go passes on by itself
    assert s.fight.actor == "B"  # start 7 like A, higher Agilidad
    s.execute("siguiente")
    assert s.fight.actor == "A"


def test_the_actor_spends_several_maneuvers_at_once_and_keeps_ac_to_react(session):
    s = session(*SETUP)
    s.execute("c gasta 1")
    s.execute("c gasta 1")
    c = s.fight.find("C")
    assert (c.marker, c.ac, s.fight.actor) == (7, 2, "C")  # still its go
    s.execute("siguiente")
    assert s.fight.find("C").status is Status.ACTED and s.fight.find("C").ac == 2
    s.execute("c esquivar")  # out of its go, a reaction
    assert (s.fight.find("C").marker, s.fight.find("C").ac) == (6, 1)


def test_only_the_actor_may_act_but_anyone_may_react(session):
    s = session(*SETUP)
    with pytest.raises(Refusal, match="ahora actúa C"):
        s.execute("a gasta 1")
    s.execute("a esquivar")
    assert s.fight.find("A").ac == 5


@pytest.mark.parametrize("line", ["c retrasa", "c espera la puerta"])
def test_there_is_no_holding_or_waiting_without_moments(session, line):
    s = session(*SETUP)
    with pytest.raises(Refusal, match="no hay momentos"):
        s.execute(line)


def test_the_turn_ends_after_every_go_and_carried_maneuvers_complete_next_turn(session):
    s = session(*SETUP)
    s.execute("c gasta 3")
    s.execute("c disparar-armas-largas")  # 1 AC left: carried, 2 owed
    s.execute("siguiente")  # B passes
    s.execute("siguiente")  # A passes
    assert s.fight.turn_over and s.fight.actor is None
    s.execute("turno")
    c = s.fight.find("C")
    assert s.fight.actor == "C" and c.carried is None
    assert (c.marker, c.ac, c.attacks) == (7, 2, 1)


def test_switching_is_refused_mid_turn_and_allowed_between_turns(session):
    s = session(*SETUP)
    with pytest.raises(Refusal, match="turno terminado"):
        s.execute("rapida no")
    for line in ("c gasta 4", "siguiente", "siguiente", "rapida no"):
        s.execute(line)
    assert not s.fight.quick and all(c.status is Status.DONE for c in s.fight.combatants)
    s.execute("turno")
    assert s.fight.moment == 9 and [c.name for c in queue(s.fight)] == ["C"]


def test_quick_state_is_saved_and_shown(session):
    s = session(*SETUP)
    assert loads(dumps(s)).fight == s.fight
    assert state_json(s.fight)["quick"] is True


def test_a_dodge_before_ones_go_keeps_ones_go(session):
    """«each spends all the AC it wants at once, keeping some for dodges»: a reaction
    made during someone else's go is not one's own go."""
    s = session(*SETUP)
    s.execute("a esquivar")  # C's go; A has not had its own
    a = s.fight.find("A")
    assert (a.status, a.ac) == (Status.READY, 5)
    s.execute("siguiente")  # C passes: B (start 7, Agilidad 3), then A
    s.execute("siguiente")
    assert s.fight.actor == "A" and not s.fight.turn_over
    s.execute("a gasta 5")
    assert s.fight.find("A").status is Status.DONE and s.fight.turn_over


def test_a_dodge_after_ones_go_leaves_it_had(session):
    s = session(*SETUP)
    s.execute("c gasta 1")
    s.execute("siguiente")  # C's go is over
    s.execute("c esquivar")
    assert s.fight.find("C").status is Status.ACTED and s.fight.actor == "B"
