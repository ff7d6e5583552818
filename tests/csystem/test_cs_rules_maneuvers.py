"""CSYSTEM.md §5: no two identical maneuvers in one turn, and the catalog
(Apuntar, Cargar, Cubrirse, Derribar, Desarmar, Esquivar/Bloquear, Presa,
Disparo en combate; the bursts are in test_rules_attacks)."""

from __future__ import annotations

import pytest

from cdbtui.engine.csystem import budget
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


def duo(level: int = 5, per: int = 8, extra: str = "") -> Session:
    """A (NH `level`, a pistol and fists) acts first; B second."""
    return build(f"alta A nh={level} des=5 ale=3 per={per} con=5 {extra}",
                 "arma A pistola modos=sa cargador=15 dano=2d6",
                 "arma A puños dano=1d6",
                 "alta B nh=1 des=3 ale=2 per=4 con=7",
                 "arma B puños dano=1d6",
                 "iniciativa A 20", "iniciativa B 10")


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


def next_go(s: Session) -> None:
    """End A's go and B's, back to A."""
    if s.fight.actor == "A":
        s.execute("a fin")
    s.execute("b fin")
    assert s.fight.actor == "A"


# ---- 5.1 no repeat ----------------------------------------------------------------

def test_no_two_identical_maneuvers_in_one_turn_apuntar():
    s = duo()
    s.execute("a apuntar")
    refused(s, "a apuntar", "A ya ha usado Apuntar este turno: no se pueden usar dos"
                            " maniobras iguales en el mismo turno")


def test_the_no_repeat_rule_does_not_apply_to_generic_actions_two_atacar_are_fine():
    s = duo()
    s.execute("a ataca b tirada=1")
    s.execute("a ataca b tirada=1")
    assert sh(s, "A").used == ("complex", "complex")


def test_two_uses_of_a_power_generic_complex_actions_are_fine():
    s = duo()
    s.execute('a compleja "rayo"')
    s.execute('a compleja "rayo"')
    assert sh(s, "A").used == ("complex", "complex")


def test_a_maneuver_with_two_forms_is_one_maneuver_cubrirse():
    s = duo()
    s.execute("a cubrirse simple")
    refused(s, "a cubrirse compleja")


def test_derribar_and_arrollar_are_one_maneuver():
    s = duo()
    s.execute("a derribar a b tirada=1")
    refused(s, "a arrollar a b tirada=1")


def test_disparo_en_combate_is_a_maneuver_one_per_turn():
    s = duo()
    s.execute("a disparo-en-combate a b tirada=1")
    refused(s, "a disparo-en-combate a b tirada=1")


def test_the_same_maneuver_is_allowed_again_next_turn():
    s = duo()
    s.execute("a apuntar")
    next_go(s)
    s.execute("a apuntar")
    assert sh(s, "A").maneuvers == ("apuntar",)


def test_cubrirse_without_simple_or_compleja_is_refused():
    s = duo()
    refused(s, "a cubrirse")


# ---- Apuntar ----------------------------------------------------------------------

def test_apuntar_adds_2_to_aim_and_is_complex():
    s = duo()
    s.execute("a apuntar")
    assert sh(s, "A").aim == 2
    assert sh(s, "A").used == ("complex",)


def test_apuntar_accumulates_over_turns_per_8_gives_4_after_two_turns():
    s = duo()
    s.execute("a apuntar")
    next_go(s)
    s.execute("a apuntar")
    assert sh(s, "A").aim == 4


def test_apuntar_that_would_add_nothing_is_refused_naming_the_cap():
    s = duo()
    s.execute("a apuntar")
    next_go(s)
    s.execute("a apuntar")
    next_go(s)
    refused(s, "a apuntar", "Apuntar: A ya tiene el máximo +4 (Percepción 8 − 4)")


def test_apuntar_cap_is_max_per_minus_4_and_0_per_4_gives_no_bonus():
    s = duo(per=4)
    refused(s, "a apuntar", "Apuntar: Percepción 4 no da bono (máximo Percepción − 4 = 0)")


def test_apuntar_with_per_below_4_gives_no_bonus():
    s = duo(per=2)
    refused(s, "a apuntar")
    assert sh(s, "A").aim == 0


def test_apuntar_when_per_minus_4_is_odd_the_last_step_adds_1():
    s = duo(per=7)
    s.execute("a apuntar")
    next_go(s)
    s.execute("a apuntar")
    assert sh(s, "A").aim == 3


def test_apuntar_needs_a_ranged_weapon():
    s = build("alta A nh=5 des=5 ale=3 per=8 con=5", "arma A puños dano=1d6",
              "alta B nh=1 des=3 ale=2 con=7", "iniciativa A 20", "iniciativa B 10")
    refused(s, "a apuntar", "Apuntar necesita un arma a distancia")


def test_the_aim_bonus_stays_until_the_next_ranged_attack_whatever_it_does_meanwhile():
    s = duo()
    s.execute("a apuntar")
    s.execute("a simple")
    next_go(s)
    s.execute("a mover")
    assert sh(s, "A").aim == 2
    s.execute("a ataca b arma=pistola tirada=1")
    assert sh(s, "A").aim == 0


def test_a_melee_attack_does_not_use_up_the_aim_bonus():
    s = duo()
    s.execute("a apuntar")
    s.execute("a ataca b arma=puños tirada=1")
    assert sh(s, "A").aim == 2


# ---- Cargar -----------------------------------------------------------------------

def test_cargar_is_a_melee_attack_and_gives_the_charger_defensa_minus_2():
    s = duo(level=1)
    base = defense(sh(s, "A"))
    s.execute("a cargar a b arma=puños")
    d = defense(sh(s, "A"))
    assert (d.ranged, d.melee) == (base.ranged - 2, base.melee - 2)
    assert sh(s, "A").used == ("complex",)
    assert "cargar" in sh(s, "A").maneuvers


@pytest.mark.parametrize(("condition", "name"), [("fatigado", "Fatigado"),
                                                 ("exhausto", "Exhausto"),
                                                 ("enredado", "Enredado")])
def test_fatigado_exhausto_and_enredado_cannot_charge(condition, name):
    s = duo(level=1)
    s.execute(f"estado A +{condition}")
    refused(s, "a cargar a b", f"A está {name}: no puede cargar")


def test_cargar_plus_derribar_is_one_complex_action_that_counts_as_both_maneuvers():
    s = duo()
    s.execute("a derribar carga a b tirada=1")
    a = sh(s, "A")
    assert a.used == ("complex",)
    assert set(a.maneuvers) >= {"cargar", "derribar"}
    assert a.charged
    refused(s, "a cargar a b")


# ---- Cubrirse ---------------------------------------------------------------------

def test_cubrirse_simple_makes_the_combatant_tumbado():
    s = duo()
    base = defense(sh(s, "A"))
    s.execute("a cubrirse simple")
    a = sh(s, "A")
    assert a.has("tumbado")
    assert a.used == ("simple",)
    d = defense(a)
    # Tumbado's +2 vs ranged is the +2 of Cubrirse, not added twice.
    assert d.ranged == base.ranged + 2
    assert d.melee == base.melee - 2


@pytest.mark.parametrize(("level", "bonus"), [("parcial", 3), ("casi-completa", 5)])
def test_cubrirse_complex_gives_a_cubierto_only_against_ranged(level, bonus):
    s = duo()
    base = defense(sh(s, "A"))
    s.execute(f"a cubrirse compleja {level}")
    a = sh(s, "A")
    c = a.condition("a-cubierto")
    assert c is not None and c.value == level
    assert a.used == ("complex",)
    d = defense(a)
    assert d.ranged == base.ranged + bonus
    assert d.melee == base.melee


def test_cubrirse_complex_defaults_to_parcial():
    s = duo()
    s.execute("a cubrirse compleja")
    assert sh(s, "A").condition("a-cubierto").value == "parcial"


# ---- Derribar ---------------------------------------------------------------------

def test_derribar_on_a_hit_deals_no_damage():
    s = duo()
    s.execute("a derribar a b tirada=40")
    assert sh(s, "B").vitality == sh(s, "B").vitality_max


# ---- Desarmar ---------------------------------------------------------------------

def test_desarmar_is_a_complex_maneuver_and_its_requirement_is_a_note():
    s = duo()
    s.execute("a desarmar a b")
    assert sh(s, "A").used == ("complex",)
    assert "desarmar" in sh(s, "A").maneuvers


# ---- Esquivar / Bloquear ------------------------------------------------------------

def test_esquivar_may_choose_5_instead_of_rolling():
    s = duo()
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar 5")
    assert defense(sh(s, "A")).ranged == base + 5


def test_esquivar_rolls_1d10_when_no_number_is_chosen():
    s = duo()
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar")
    assert 1 <= defense(sh(s, "A")).ranged - base <= 10


def test_esquivar_ends_the_current_go_remaining_actions_are_lost():
    s = duo(level=9)
    s.execute("a simple")
    s.execute("a esquivar 5")
    assert sh(s, "A").acted
    assert s.fight.actor == "B"
    assert sh(s, "A").used == ("simple", "complex")


def test_after_esquivar_an_action_is_refused_because_its_turn_has_ended():
    s = duo(level=9)
    s.execute("a esquivar 5")
    refused(s, "a simple", "A usó Esquivar/Bloquear: su turno ha terminado")


def test_bloquear_is_an_alias_of_esquivar():
    s = duo()
    base = defense(sh(s, "A")).ranged
    s.execute("a bloquear 5")
    assert defense(sh(s, "A")).ranged == base + 5


def test_a_shield_bonus_counts_twice_while_esquivar():
    s = duo(extra="escudo=2")
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar 5")
    assert defense(sh(s, "A")).ranged == base + 5 + 2


def test_defensa_de_artes_marciales_adds_its_combate_sin_armas_instead_of_the_d10():
    s = duo(extra="rasgos=artes-marciales:6")
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar")
    assert defense(sh(s, "A")).ranged == base + 6


def test_esquivar_bonus_lasts_until_the_start_of_its_next_turno_propio():
    s = duo()
    base = defense(sh(s, "A")).ranged
    s.execute("a esquivar 5")
    assert s.fight.actor == "B"
    assert defense(sh(s, "A")).ranged == base + 5
    s.execute("b fin")
    assert defense(sh(s, "A")).ranged == base


def test_temporary_defense_changes_are_not_conditions():
    s = duo()
    s.execute("a esquivar 5")
    assert sh(s, "A").conditions == ()


# ---- Presa ------------------------------------------------------------------------

def test_presa_on_a_hit_deals_no_damage_and_both_become_apresado():
    s = duo()
    s.execute("a presa a b tirada=40")
    assert sh(s, "A").has("apresado") and sh(s, "B").has("apresado")
    assert sh(s, "B").vitality == sh(s, "B").vitality_max


def test_presa_on_a_miss_nobody_is_apresado():
    s = duo()
    s.execute("a presa a b tirada=1")
    assert not sh(s, "A").has("apresado") and not sh(s, "B").has("apresado")


def test_the_grappler_releases_the_grapple_as_a_free_action():
    s = duo(level=1)
    s.execute("a presa a b tirada=40")
    s.execute('a gratis "suelta la presa"')
    assert sh(s, "A").used == ("complex",)
    assert budget.left_text(budget.left(sh(s, "A"))) == "□"


def test_inmovilizar_is_sujeto_which_replaces_apresado():
    s = duo()
    s.execute("a presa a b tirada=40")
    s.execute("estado B +sujeto")
    b = sh(s, "B")
    assert b.has("sujeto") and not b.has("apresado")


# ---- Disparo en combate ---------------------------------------------------------

def test_disparo_en_combate_is_a_complex_ranged_attack():
    s = duo()
    s.execute("a disparo-en-combate a b tirada=1")
    assert sh(s, "A").used == ("complex",)
    assert sh(s, "A").weapon("pistola").ammo == 14


def test_the_aim_bonus_goes_to_the_next_ranged_attack_a_burst_too():
    s = build("alta A nh=5 des=5 ale=3 per=8 con=5",
              "arma A subfusil modos=fa cargador=30 dano=2d6",
              "alta B nh=1 des=3 ale=2 con=7", "iniciativa A 20", "iniciativa B 10")
    s.execute("a apuntar")
    s.execute("a rafaga-corta a b tirada=1")
    assert sh(s, "A").aim == 0


def test_cargar_needs_a_melee_or_unarmed_attack():
    s = duo(level=1)
    refused(s, "a cargar a b arma=pistola")


def test_disparo_en_combate_needs_a_ranged_attack():
    s = duo()
    refused(s, "a disparo-en-combate a b arma=puños tirada=1")


@pytest.mark.parametrize("condition", ["fatigado", "exhausto", "enredado"])
def test_fatigado_exhausto_and_enredado_cannot_run(condition):
    s = duo(level=1)
    s.execute(f"estado A +{condition}")
    refused(s, "a correr")


def test_lowering_is_only_at_its_own_go():
    s = duo()
    refused(s, "b retrasa final", "No es el turno de B: actúa A")
