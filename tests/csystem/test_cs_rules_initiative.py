"""CSYSTEM.md §3: initiative roll, the fixed order, ties, lowering one's place
(retrasarse), GM changes of value or place, joining mid-fight."""

from __future__ import annotations

import pytest

from cdbtui.engine.csystem.common import get, sheet
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session


def build(*lines: str, start: bool = True) -> Session:
    s = Session.new("T", "csystem")
    for line in lines:
        s.execute(line)
    if start:
        s.execute("empezar")
    return s


def trio() -> Session:
    return build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=7",
                 "alta C nh=1 des=2 ale=1 con=7",
                 "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")


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


# ---- 3.1 roll ---------------------------------------------------------------------

def test_initiative_is_1d20_plus_des_plus_alerta_plus_ini_mod():
    s = build("alta A nh=1 des=5 ale=3 con=5 ini=+2", start=False)
    s.execute("tirar A")
    value = sh(s, "A").initiative
    assert 1 + 5 + 3 + 2 <= value <= 20 + 5 + 3 + 2
    assert any("A" in e.text and str(value) in e.text for e in s.fight.log)


def test_the_app_rolls_with_a_seeded_rng_the_same_every_time():
    a = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=2 ale=2 con=5", start=False)
    b = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=2 ale=2 con=5", start=False)
    a.execute("tirar")
    b.execute("tirar")
    assert sh(a, "A").initiative == sh(b, "A").initiative
    assert sh(a, "B").initiative == sh(b, "B").initiative


def test_tirar_without_names_rolls_for_all_without_initiative():
    s = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=2 ale=2 con=5",
              "iniciativa A 7", start=False)
    s.execute("tirar")
    assert sh(s, "A").initiative == 7
    assert sh(s, "B").initiative is not None


def test_des_at_rolling_is_the_effective_des_herido_rolls_with_des_minus_2():
    s = build("alta A nh=1 des=5 ale=0 con=5", start=False)
    s.execute("estado A +herido")
    s.execute("tirar A")
    value = sh(s, "A").initiative
    assert 1 + 3 <= value <= 20 + 3


def test_the_typed_total_is_the_initiative():
    s = build("alta A nh=1 des=5 ale=3 con=5", "iniciativa A 17", start=False)
    assert sh(s, "A").initiative == 17


# ---- 3.2 order -------------------------------------------------------------------

def test_the_order_is_descending_initiative():
    s = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=7",
              "alta C nh=1 des=2 ale=1 con=7",
              "iniciativa A 10", "iniciativa B 25", "iniciativa C 15")
    assert s.fight.cs.order == ("B", "C", "A")
    assert s.fight.actor == "B"


def test_later_changes_to_des_do_not_move_anyone():
    s = trio()
    s.execute("estado A +malherido")
    s.execute("estado B +apresado")
    assert s.fight.cs.order == ("A", "B", "C")
    for _ in range(3):
        s.execute("siguiente")
    assert s.fight.cs.order == ("A", "B", "C")


def test_the_order_is_kept_for_the_whole_fight():
    s = trio()
    s.execute("turno")
    s.execute("turno")
    assert s.fight.turn == 3
    assert s.fight.cs.order == ("A", "B", "C")
    assert s.fight.actor == "A"


# ---- 3.3 ties --------------------------------------------------------------------

def test_ties_higher_des_first():
    s = build("alta A nh=1 des=3 ale=3 con=5", "alta B nh=1 des=6 ale=2 con=5",
              "iniciativa A 22", "iniciativa B 22")
    assert s.fight.cs.order == ("B", "A")


def test_ties_then_higher_alerta():
    s = build("alta A nh=1 des=4 ale=2 con=5", "alta B nh=1 des=4 ale=5 con=5",
              "iniciativa A 22", "iniciativa B 22")
    assert s.fight.cs.order == ("B", "A")


def test_ties_then_the_roster_order():
    s = build("alta A nh=1 des=4 ale=2 con=5", "alta B nh=1 des=4 ale=2 con=5",
              "iniciativa B 22", "iniciativa A 22")
    assert s.fight.cs.order == ("A", "B")


def test_pj_and_pnj_have_no_priority_in_ties():
    s = build("alta A nh=1 des=4 ale=2 con=5 bando=pnj", "alta B nh=1 des=4 ale=2 con=5 bando=pj",
              "iniciativa A 22", "iniciativa B 22")
    assert s.fight.cs.order == ("A", "B")


def test_the_gm_may_swap_the_roster_order_of_tied_combatants():
    s = build("alta A nh=1 des=4 ale=2 con=5", "alta B nh=1 des=4 ale=2 con=5",
              "iniciativa A 22", "iniciativa B 22", start=False)
    s.execute("cambiar A B")
    assert s.fight.cs.order == ("B", "A")


def test_the_log_says_which_key_decided_each_tie():
    s = build("alta A nh=1 des=3 ale=3 con=5", "alta B nh=1 des=6 ale=2 con=5",
              "iniciativa A 22", "iniciativa B 22")
    assert any("DES" in e.text or "Destreza" in e.text for e in s.fight.log)


# ---- 3.4 retrasarse ---------------------------------------------------------------

def test_lowering_moves_it_right_after_a_named_later_combatant():
    s = trio()
    s.execute("a retrasa tras b")
    assert s.fight.cs.order == ("B", "A", "C")
    assert s.fight.actor == "B"


def test_lowering_copies_the_value_of_the_one_it_now_follows():
    s = trio()
    s.execute("a retrasa tras b")
    assert sh(s, "A").initiative == 15
    assert sh(s, "A").after == "B"


def test_a_lowered_combatant_acts_this_turn_at_its_new_place():
    s = trio()
    s.execute("a retrasa tras b")
    s.execute("b fin")
    assert s.fight.actor == "A"
    assert s.fight.turn == 1
    s.execute("a fin")
    assert s.fight.actor == "C"


def test_the_new_place_is_kept_for_the_rest_of_the_fight():
    s = trio()
    s.execute("a retrasa tras b")
    s.execute("turno")
    assert s.fight.cs.order == ("B", "A", "C")
    assert s.fight.actor == "B"


def test_lowering_to_the_end_of_the_order():
    s = trio()
    s.execute("a retrasa final")
    assert s.fight.cs.order == ("B", "C", "A")
    assert sh(s, "A").after is None
    assert sh(s, "A").initiative == 10


def test_lowering_is_not_allowed_once_it_has_taken_an_action_this_turn():
    s = trio()
    s.execute("a simple")
    refused(s, "a retrasa tras b", "A ya ha actuado este turno: no puede retrasarse")


def test_lowering_is_not_allowed_to_a_place_before_its_own():
    s = trio()
    s.execute("a fin")
    refused(s, "b retrasa tras a", "Retrasarse: A no actúa después de B")


def test_pnj_may_lower_their_place_too():
    s = build("alta A nh=1 des=5 ale=3 con=5 bando=pnj", "alta B nh=1 des=3 ale=2 con=7 bando=pj",
              "iniciativa A 20", "iniciativa B 15")
    s.execute("a retrasa tras b")
    assert s.fight.cs.order == ("B", "A")


def test_among_equal_values_the_lowered_stays_after_the_one_it_chose():
    s = build("alta A nh=1 des=9 ale=9 con=5", "alta B nh=1 des=1 ale=1 con=7",
              "alta C nh=1 des=1 ale=1 con=7",
              "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")
    s.execute("a retrasa tras b")
    # A has higher DES than B but keeps its place after B.
    assert s.fight.cs.order == ("B", "A", "C")


# ---- 3.6 GM changes --------------------------------------------------------------

def test_a_gm_change_of_value_re_places_the_combatant():
    s = trio()
    s.execute("iniciativa C 18")
    assert s.fight.cs.order == ("A", "C", "B")
    assert sh(s, "C").initiative == 18


def test_a_gm_change_of_place_tras_and_antes():
    s = trio()
    s.execute("orden A tras C")
    assert s.fight.cs.order[-1] == "A"
    s.execute("orden A antes B")
    assert s.fight.cs.order == ("A", "B", "C")


def test_a_gm_change_is_logged():
    s = trio()
    n = len(s.fight.log)
    s.execute("iniciativa C 18")
    assert any("C" in e.text for e in s.fight.log[n:])


def test_the_next_to_act_is_the_first_in_the_current_order_who_has_not_acted():
    s = trio()
    s.execute("a fin")  # B acts now
    s.execute("iniciativa C 30")  # C jumps to the top; it has not acted
    assert s.fight.cs.order[0] == "C"
    s.execute("b fin")
    assert s.fight.actor == "C"
    s.execute("c fin")
    assert s.fight.turn == 2 and s.fight.actor == "C"


# ---- 3.8 joining ------------------------------------------------------------------

def test_a_newcomer_placed_before_the_one_acting_has_its_first_go_next_turn():
    s = trio()
    s.execute("a fin")
    s.execute("b fin")  # C acts
    s.execute("alta D nh=1 des=4 ale=4 con=5")
    s.execute("iniciativa D 18")
    assert s.fight.cs.order == ("A", "D", "B", "C")
    s.execute("c fin")
    assert s.fight.turn == 2
    assert s.fight.actor == "A"
    assert sh(s, "D").goes == 0
    s.execute("a fin")
    assert s.fight.actor == "D"


def test_a_newcomer_placed_after_the_one_acting_acts_this_turn():
    s = trio()
    s.execute("alta D nh=1 des=4 ale=4 con=5")
    s.execute("iniciativa D 12")
    assert s.fight.cs.order == ("A", "B", "D", "C")
    s.execute("a fin")
    s.execute("b fin")
    assert s.fight.actor == "D"
    assert s.fight.turn == 1


def test_a_newcomer_has_no_place_until_its_initiative_is_typed_or_rolled():
    s = trio()
    s.execute("alta D nh=1 des=4 ale=4 con=5")
    assert "D" not in s.fight.cs.order
    s.execute("tirar D")
    assert "D" in s.fight.cs.order


def test_cambiar_swaps_only_combatants_tied_on_every_key():
    s = build("alta A nh=1 des=4 ale=2 con=5", "alta B nh=1 des=5 ale=2 con=5",
              "iniciativa A 22", "iniciativa B 22", start=False)
    refused(s, "cambiar A B")
    assert s.fight.cs.order == ("B", "A")


def test_one_rule_for_every_change_of_value_ties_stay_ahead_of_the_one_whose_value_changed():
    s = build("alta A nh=1 des=9 ale=9 con=5", "alta B nh=1 des=1 ale=1 con=7",
              "alta C nh=1 des=1 ale=1 con=7",
              "iniciativa A 20", "iniciativa B 15", "iniciativa C 10")
    s.execute("iniciativa A 15")
    # A has the higher DES, but B keeps its place ahead of the one that changed.
    assert s.fight.cs.order == ("B", "A", "C")


def test_retrasa_after_the_lowered_one_the_followed_one_moving_later_keeps_the_order_by_value():
    s = trio()
    s.execute("a retrasa tras b")
    s.execute("iniciativa B 5")
    assert sh(s, "A").initiative == 15
    assert s.fight.cs.order == ("A", "C", "B")


def test_the_log_says_alerta_decided_a_tie_on_equal_des():
    s = build("alta A nh=1 des=4 ale=2 con=5", "alta B nh=1 des=4 ale=5 con=5",
              "iniciativa A 22", "iniciativa B 22")
    assert any("Alerta" in e.text or "ALE" in e.text for e in s.fight.log)
