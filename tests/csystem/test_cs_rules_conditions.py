"""CSYSTEM.md §8 (estados alterados): durations in goes, Aturdido losing the next go,
Ensordecido's −5 re-placement (§3.5), Desprevenido and surprise (§3.7), Tumbado and
standing up, Sujeto/Apresado, cover after shooting."""

from __future__ import annotations

import pytest

from cdbtui.engine.csystem.common import get, sheet
from cdbtui.engine.csystem.defense import defense
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session


def build(*lines: str, start: bool = True) -> Session:
    s = Session.new("T", "csystem")
    for line in lines:
        s.execute(line)
    if start:
        s.execute("empezar")
    return s


CAST = ("alta A nh=1 des=5 ale=3 per=8 con=5", "arma A pistola modos=sa cargador=15 dano=2d6",
        "alta B nh=1 des=3 ale=2 per=4 con=7", "alta C nh=1 des=2 ale=1 per=4 con=7")


def trio() -> Session:
    return build(*CAST, "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")


def sh(s: Session, name: str):
    return sheet(get(s.fight, name))  # as it stands in this turn


def refused(s: Session, line: str, text: str | None = None) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    if text is not None:
        assert str(caught.value) == text
    return str(caught.value)


def rounds(s: Session, n: int) -> None:
    for _ in range(n):
        s.execute("turno")


# ---- durations --------------------------------------------------------------------

def test_a_duration_ends_at_the_end_of_the_combatants_2nd_go_that_begins_after_it_was_gained():
    s = trio()
    s.execute("estado B +deslumbrado turnos=2")
    s.execute("a fin")           # B's 1st go begins
    s.execute("b fin")
    assert sh(s, "B").has("deslumbrado")
    s.execute("c fin")
    s.execute("a fin")           # B's 2nd go begins
    assert sh(s, "B").has("deslumbrado")
    s.execute("b fin")           # ...and ends
    assert not sh(s, "B").has("deslumbrado")


def test_a_duration_gained_during_its_own_go_does_not_count_that_go():
    s = trio()
    s.execute("estado A +deslumbrado turnos=1")
    s.execute("a fin")
    assert sh(s, "A").has("deslumbrado")
    s.execute("b fin")
    s.execute("c fin")           # A's next go begins
    assert sh(s, "A").has("deslumbrado")
    s.execute("a fin")
    assert not sh(s, "A").has("deslumbrado")


def test_without_a_duration_a_condition_lasts_until_the_gm_removes_it():
    s = trio()
    s.execute("estado B +deslumbrado")
    rounds(s, 3)
    assert sh(s, "B").has("deslumbrado")
    s.execute("estado B -deslumbrado")
    assert not sh(s, "B").has("deslumbrado")


# ---- Aturdido ---------------------------------------------------------------------

def test_aturdido_loses_its_next_turno_propio_this_turn():
    s = trio()
    s.execute("estado B +aturdido")
    s.execute("a fin")
    assert s.fight.actor == "C"
    assert sh(s, "B").used == ()
    assert not sh(s, "B").has("aturdido")


def test_aturdido_gained_after_its_go_loses_the_go_of_the_next_turn():
    s = trio()
    s.execute("a fin")
    s.execute("b fin")
    s.execute("estado B +aturdido")
    s.execute("c fin")
    s.execute("a fin")
    assert s.fight.turn == 2
    assert s.fight.actor == "C"
    assert not sh(s, "B").has("aturdido")


def test_aturdido_gained_during_its_own_go_loses_the_remaining_actions_and_counts_as_the_lost_turn():
    s = trio()
    s.execute("a simple")
    s.execute("estado A +aturdido")
    assert s.fight.actor != "A" or sh(s, "A").acted
    refused(s, "a simple")
    # Next turn A acts normally: the lost turn was this one.
    for _ in range(5):
        if s.fight.turn == 2:
            break
        s.execute("siguiente")
    assert s.fight.turn == 2 and s.fight.actor == "A"
    assert not sh(s, "A").has("aturdido")


def test_aturdido_has_no_defense_penalty():
    s = trio()
    base = defense(sh(s, "B")).ranged
    s.execute("estado B +aturdido")
    assert defense(sh(s, "B")).ranged == base


def test_atontado_is_an_alias_of_aturdido():
    s = trio()
    s.execute("estado B +atontado")
    assert sh(s, "B").has("aturdido")


# ---- Ensordecido --------------------------------------------------------------------

def test_ensordecido_initiative_minus_5_at_once_and_placed_after_the_last_with_at_least_its_new_value():
    s = build(*CAST, "alta D nh=1 des=1 ale=1 con=5",
              "iniciativa A 22", "iniciativa B 18", "iniciativa C 17", "iniciativa D 14")
    s.execute("estado A +ensordecido")
    assert sh(s, "A").initiative == 17
    # Ties stay ahead of the one whose value changed: after C (17).
    assert s.fight.cs.order == ("B", "C", "A", "D")


def test_ensordecido_one_who_already_acted_does_not_act_again():
    s = build(*CAST, "iniciativa A 22", "iniciativa B 18", "iniciativa C 10")
    s.execute("a fin")
    s.execute("estado A +ensordecido")
    assert s.fight.cs.order == ("B", "A", "C")
    s.execute("b fin")
    assert s.fight.actor == "C"
    s.execute("c fin")
    assert s.fight.turn == 2 and s.fight.actor == "B"


def test_ensordecido_one_who_has_not_acted_acts_at_its_new_place():
    s = build(*CAST, "iniciativa A 22", "iniciativa B 18", "iniciativa C 10")
    s.execute("estado B +ensordecido")  # 18 → 13: still after A, before C
    s.execute("estado C +ensordecido")  # 10 → 5
    s.execute("estado B -ensordecido")
    assert sh(s, "B").initiative == 18
    s.execute("a fin")
    assert s.fight.actor == "B"


def test_losing_ensordecido_gives_plus_5_back_and_re_places():
    s = build(*CAST, "iniciativa A 22", "iniciativa B 18", "iniciativa C 16")
    s.execute("estado A +ensordecido")  # 17: A, moved below B in its own go, gives way
    assert s.fight.actor == "B"
    s.execute("b fin")
    assert s.fight.actor == "A"  # its go goes on at its new place
    s.execute("a fin")
    s.execute("c fin")
    assert s.fight.cs.order == ("B", "A", "C")
    s.execute("estado A -ensordecido")
    assert sh(s, "A").initiative == 22
    assert s.fight.cs.order == ("A", "B", "C")


def test_a_plus_5_lifting_one_who_has_not_acted_above_the_current_place_makes_it_act_next():
    s = build(*CAST, "iniciativa A 22", "iniciativa B 18", "iniciativa C 16")
    s.execute("estado C +ensordecido")  # 11
    s.execute("a fin")                  # B acts
    s.execute("estado C -ensordecido")  # 16 again: still after B
    s.execute("iniciativa C 30")        # lifted above everyone; has not acted
    s.execute("b fin")
    assert s.fight.actor == "C"


# ---- Desprevenido / surprise ----------------------------------------------------------

def test_a_combatant_who_fails_the_surprise_roll_starts_desprevenido_and_keeps_its_place():
    s = build(*CAST, "iniciativa A 20", "iniciativa B 15", "iniciativa C 10", "sorpresa A",
              start=False)
    s.execute("empezar")
    # A acts first: its desprevenido ends at the start of its first go.
    assert s.fight.cs.order == ("A", "B", "C")
    assert s.fight.actor == "A"
    assert not sh(s, "A").has("desprevenido")


def test_desprevenido_halves_des_to_defensa_until_its_first_turno_propio():
    s = build(*CAST, "iniciativa A 20", "iniciativa B 15", "iniciativa C 10", "sorpresa C",
              start=False)
    s.execute("empezar")
    c = sh(s, "C")
    assert c.has("desprevenido")
    assert defense(c).ranged == 15 + 1 + 1
    s.execute("a fin")
    s.execute("b fin")
    assert not sh(s, "C").has("desprevenido")
    assert defense(sh(s, "C")).ranged == 15 + 2 + 1


def test_there_is_no_surprise_round():
    s = build(*CAST, "iniciativa A 20", "iniciativa B 15", "iniciativa C 10", "sorpresa A B",
              start=False)
    s.execute("empezar")
    assert s.fight.turn == 1
    assert s.fight.actor == "A"


# ---- Tumbado, levantarse ------------------------------------------------------------

def test_standing_up_is_complex_and_removes_tumbado():
    s = trio()
    s.execute("estado A +tumbado")
    s.execute("a levantarse")
    assert not sh(s, "A").has("tumbado")
    assert sh(s, "A").used == ("complex",)


def test_standing_up_is_simple_when_entrenado_in_acrobacias():
    s = build("alta A nh=1 des=5 ale=3 con=5 rasgos=acrobacias", "alta B nh=1 des=3 ale=2 con=7",
              "iniciativa A 20", "iniciativa B 10")
    s.execute("estado A +tumbado")
    s.execute("a levantarse")
    assert sh(s, "A").used == ("simple",)


# ---- other conditions ----------------------------------------------------------

def test_sujeto_replaces_apresado():
    s = trio()
    s.execute("estado B +apresado")
    s.execute("estado B +sujeto")
    assert sh(s, "B").has("sujeto") and not sh(s, "B").has("apresado")


def test_an_apresado_may_attack_with_a_warning():
    s = trio()
    s.execute("estado A +apresado")
    n = len(s.fight.log)
    s.execute("a ataca b tirada=1")
    assert sh(s, "A").used == ("complex",)
    assert any(e.warning for e in s.fight.log[n:])


def test_inconsciente_is_tumbado_and_indefenso_des_0_for_defensa():
    s = trio()
    s.execute("estado B +inconsciente")
    b = sh(s, "B")
    assert b.has("tumbado")
    d = defense(b)
    assert (d.ranged, d.melee) == (15 + 0 + 1 + 2, 15 + 0 + 1 - 2)


def test_a_ranged_attack_from_cover_lowers_it_one_step_until_the_start_of_its_next_go():
    s = trio()
    s.execute("estado A +a-cubierto:casi-completa")
    full = defense(sh(s, "A")).ranged
    n = len(s.fight.log)
    s.execute("a ataca b tirada=1")
    assert defense(sh(s, "A")).ranged == full - 2  # casi completa (+5) → parcial (+3)
    assert any(e.warning for e in s.fight.log[n:])
    s.execute("a fin")
    s.execute("b fin")
    s.execute("c fin")
    assert s.fight.actor == "A"
    assert defense(sh(s, "A")).ranged == full


def test_a_bleeding_of_a_larger_n_replaces_the_smaller():
    s = trio()
    s.execute("estado B +sangrando:1")
    s.execute("estado B +sangrando:4")
    assert sh(s, "B").condition("sangrando").value == "4"


def test_fascinado_does_nothing():
    s = trio()
    s.execute("estado B +fascinado")
    s.execute("a fin")
    assert s.fight.actor == "C"


def test_sacudir_an_ally_frees_a_fascinado():
    s = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=7",
              "iniciativa A 20", "iniciativa B 10")
    s.execute("estado B +fascinado")
    s.execute("a sacudir a b")
    assert not sh(s, "B").has("fascinado")
    assert sh(s, "A").used == ("complex",)


def test_mareado_taking_a_non_movement_action_is_a_warning():
    s = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=7",
              "iniciativa A 20", "iniciativa B 10")
    s.execute("estado A +mareado")
    n = len(s.fight.log)
    s.execute('a simple "dispara"')
    assert any(e.warning for e in s.fight.log[n:])
