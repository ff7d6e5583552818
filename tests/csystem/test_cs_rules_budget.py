"""CSYSTEM.md §4.2–4.5: the action budget by nivel heroico, what is left after each
action (every row of the §4.3 table), and the conditions that override the budget.
Driven only through the session funnel."""

from __future__ import annotations

import pytest

from cdbtui.engine.csystem import budget
from cdbtui.engine.csystem.common import get, sheet
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session


def started(*lines: str) -> Session:
    s = Session.new("T", "csystem")
    for line in lines:
        s.execute(line)
    s.execute("empezar")
    return s


def duo(level: int = 1) -> Session:
    """A (NH `level`) acts first, B (NH 1) second."""
    return started(f"alta A nh={level} des=5 ale=3 per=8 con=5",
                   "alta B nh=1 des=3 ale=2 per=4 con=7",
                   "iniciativa A 20", "iniciativa B 10")


def sh(s: Session, name: str):
    return sheet(get(s.fight, name))  # as it stands in this turn


def left(s: Session, name: str) -> str:
    return budget.left_text(budget.left(sh(s, name)))


def refused(s: Session, line: str, text: str | None = None) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    if text is not None:
        assert str(caught.value) == text
    return str(caught.value)


KIND = {"■": "compleja", "□": "simple"}

# Every row of the CSYSTEM §4.3 table: (NH, used so far, left); "—" = turn over.
TABLE = [
    (1, "", "■□ o □□"),
    (1, "□", "■ o □"),
    (1, "■", "□"),
    (1, "□□", "—"),
    (1, "■□", "—"),
    (5, "", "■■ o ■□ o □□□"),
    (5, "□", "■ o □□"),
    (5, "■", "■ o □"),
    (5, "□□", "□"),
    (5, "□□□", "—"),
    (5, "■□", "—"),
    (5, "■■", "—"),
    (9, "", "■■□ o ■□□ o □□□□"),
    (9, "□", "■■ o ■□ o □□□"),
    (9, "■", "■□ o □□"),
    (9, "□□", "■ o □□"),
    (9, "■□", "■ o □"),
    (9, "■■", "□"),
    (9, "□□□", "□"),
    (9, "■□□", "—"),
    (9, "■■□", "—"),
    (9, "□□□□", "—"),
]


@pytest.mark.parametrize(("level", "used", "expected"), TABLE,
                         ids=[f"nh{lv}-{u or 'none'}" for lv, u, _ in TABLE])
def test_what_is_left_after_each_action_is_the_maximal_combinations_still_legal(level, used, expected):
    s = duo(level)
    for mark in used:
        s.execute(f"a {KIND[mark]}")
    if expected == "—":
        # «When "left" is "—", the turno propio ends automatically.»
        assert sh(s, "A").acted
        assert s.fight.actor == "B"
    else:
        assert s.fight.actor == "A"
        assert left(s, "A") == expected


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6, 7, 8, 9, 12])
def test_the_budget_at_the_start_of_a_go_depends_on_the_nivel_heroico(level):
    expected = ("■□ o □□" if level <= 4 else "■■ o ■□ o □□□" if level <= 8
                else "■■□ o ■□□ o □□□□")
    assert left(duo(level), "A") == expected


def test_a_complex_action_is_not_worth_two_simple_ones_at_nh5():
    s = duo(5)
    s.execute("a simple")
    s.execute("a simple")
    # ■□□ is not listed: after □□ only □ is left.
    refused(s, "a compleja", "A (nivel 5) ya hizo □□: solo le queda □")
    assert sh(s, "A").used == ("simple", "simple")


def test_at_nh5_three_simple_actions_are_allowed():
    s = duo(5)
    for _ in range(3):
        s.execute("a simple")
    assert sh(s, "A").acted and s.fight.actor == "B"


def test_at_nh5_two_complex_actions_are_allowed():
    s = duo(5)
    s.execute("a compleja")
    s.execute("a compleja")
    assert sh(s, "A").acted and s.fight.actor == "B"


def test_an_action_is_refused_with_what_is_left_at_nh1():
    s = duo(1)
    s.execute("a compleja")
    refused(s, "a compleja", "A (nivel 1) ya usó su acción compleja: le queda □")
    assert sh(s, "A").used == ("complex",)


def test_a_simple_action_may_come_before_a_complex_one():
    s = duo(1)
    s.execute("a simple")
    s.execute("a compleja")
    assert sh(s, "A").acted
    assert s.fight.actor == "B"


def test_at_nh9_a_complex_action_after_three_simple_ones_is_refused():
    s = duo(9)
    for _ in range(3):
        s.execute("a simple")
    refused(s, "a compleja")
    assert left(s, "A") == "□"


def test_the_budget_records_complex_used_and_simple_used_per_turn():
    s = duo(5)
    s.execute("a compleja")
    s.execute("a simple")
    # The turn is over for A; next turn the record starts again.
    s.execute("b fin")
    assert s.fight.turn == 2
    assert s.fight.actor == "A"
    assert sh(s, "A").used == ()
    assert left(s, "A") == "■■ o ■□ o □□□"


def test_free_actions_are_logged_never_refused_for_budget():
    s = duo(1)
    s.execute("a compleja")
    s.execute('a gratis "suelta la presa"')
    assert sh(s, "A").used == ("complex",)
    assert left(s, "A") == "□"
    assert any("suelta la presa" in e.text for e in s.fight.log)


# ---- §4.5 Conditions that override the budget -----------------------------------

def _b_with(condition: str, level: int = 5) -> Session:
    s = started("alta A nh=1 des=5 ale=3 per=8 con=5",
                f"alta B nh={level} des=3 ale=2 per=4 con=7",
                "alta C nh=1 des=2 ale=1 per=4 con=7",
                "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")
    s.execute(f"estado B +{condition}")
    s.execute("a fin")
    return s


def test_malherido_allows_at_most_one_simple_action_per_turn():
    s = _b_with("malherido")
    assert s.fight.actor == "B"
    assert left(s, "B") == "□"
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute("b levantarse")
    assert s.fight is before
    assert str(caught.value) == ("B está Malherido: solo puede hacer una acción simple por turno"
                                 " (levantarse es compleja)")


def test_malherido_cannot_take_a_whole_turn_reload_of_a_pesado_weapon():
    """§4.4 reload «the whole turn» for Fuego pesado, §9.2 Malherido «at most □»:
    a whole turn is more than one simple action (found by the state machine)."""
    s = _b_with("malherido")
    s.execute("arma B ametralladora modos=fa,pesado cargador=30 municion=0 dano=3d6")
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute("b recargar ametralladora")
    assert s.fight is before
    assert str(caught.value) == ("B está Malherido: solo puede hacer una acción simple por turno"
                                 " (recargar ocupa todo el turno)")


def test_malherido_one_simple_action_ends_the_go():
    s = _b_with("malherido")
    s.execute("b simple")
    assert sh(s, "B").acted
    assert s.fight.actor == "C"


def test_mareado_allows_at_most_one_simple_action():
    s = _b_with("mareado")
    assert s.fight.actor == "B"
    assert left(s, "B") == "□"
    refused(s, "b compleja")


@pytest.mark.parametrize("condition", ["aterrado", "fascinado"])
def test_conditions_that_allow_nothing_end_the_go_at_once(condition):
    s = _b_with(condition)
    assert sh(s, "B").acted
    assert s.fight.actor == "C"


def test_aturdido_allows_nothing_for_one_turno_propio():
    s = _b_with("aturdido")
    assert sh(s, "B").acted
    assert s.fight.actor == "C"
    assert not sh(s, "B").has("aturdido")


@pytest.mark.parametrize("condition", ["inconsciente", "moribundo"])
def test_inconsciente_moribundo_and_muerto_allow_nothing(condition):
    s = _b_with(condition)
    # A Moribundo's go may wait for its CON roll (§9.4); it still takes no action.
    b = sh(s, "B")
    if s.fight.actor == "B":
        refused(s, "b simple")
    else:
        assert b.acted and s.fight.actor == "C"


def test_the_most_restrictive_override_wins():
    s = _b_with("malherido")
    s.execute("estado B +aterrado")
    # Aterrado (nothing) is tighter than Malherido (□).
    assert budget.left(sh(s, "B")) == ()


def test_movement_only_and_mental_only_are_warnings_not_refusals():
    s = _b_with("paralizado")
    assert s.fight.actor == "B"
    n = len(s.fight.log)
    s.execute('b simple "grita"')
    assert sh(s, "B").used == ("simple",)
    assert any(e.warning for e in s.fight.log[n:])


def test_despavorido_generic_action_is_a_warning():
    s = _b_with("despavorido")
    assert s.fight.actor == "B"
    n = len(s.fight.log)
    s.execute('b simple "dispara"')
    assert any(e.warning for e in s.fight.log[n:])


def test_sujeto_generic_action_is_a_warning():
    s = _b_with("sujeto")
    assert s.fight.actor == "B"
    n = len(s.fight.log)
    s.execute('b compleja "patada"')
    assert any(e.warning for e in s.fight.log[n:])
