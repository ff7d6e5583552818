"""CSYSTEM.md §9: Vitalidad, Herido/Malherido and pain rolls, critical wounds,
Inconsciente at 0, Moribundo, death, Estabilizado, Aplomo, Energía, healing, robots."""

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


def duo(target: str = "") -> Session:
    """A (NH 5, fists) acts first; B (CON 7, 20 PV, Defensa 19, no RD) second; C third."""
    return build("alta A nh=5 des=5 ale=3 per=8 con=5", "arma A puños dano=1d6",
                 f"alta B nh=1 des=3 ale=2 per=4 con=7 pv=20 {target}",
                 "alta C nh=1 des=1 ale=1 con=5",
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


def hit(s: Session, damage: int, target: str = "b") -> None:
    s.execute(f"a ataca {target} tirada=19 dano={damage}")  # Índice 0 vs Defensa 19


def pending(s: Session, name: str) -> list[str]:
    return [p.roll for p in sh(s, name).pending]


def test_vitalidad_defaults_to_con_x4_plus_3_per_level_after_the_first():
    s = build("alta X nh=5 des=1 ale=1 con=5", start=False)
    assert sh(s, "X").vitality_max == 5 * 4 + 3 * 4


def test_a_hit_that_leaves_vitalidad_at_con_or_above_triggers_nothing():
    s = duo()
    hit(s, 13)  # 20 → 7 = CON: not below
    b = sh(s, "B")
    assert b.vitality == 7 and b.criticals == 0 and b.pending == ()


def test_a_hit_below_con_adds_a_critical_wound_and_asks_for_the_pain_roll_vs_10_plus_that_hits_damage():
    s = duo()
    hit(s, 14)  # 20 → 6 < 7
    b = sh(s, "B")
    assert b.criticals == 1
    pain = next(p for p in b.pending if p.roll == "dolor")
    assert pain.nd == 24
    crit = next(p for p in b.pending if p.roll == "critica")
    assert crit.bonus == 0


def test_the_pain_roll_comes_first_then_the_critical_table():
    s = duo()
    hit(s, 14)
    assert pending(s, "B") == ["dolor", "critica"]


def test_pain_roll_at_or_above_nd_herido():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 24")
    b = sh(s, "B")
    assert b.has("herido") and not b.has("malherido")


def test_pain_roll_below_nd_malherido():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 23")
    assert sh(s, "B").has("malherido")


def test_pain_roll_failed_by_exactly_5_is_still_malherido():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 19")
    b = sh(s, "B")
    assert b.has("malherido") and not b.has("inconsciente")


def test_pain_roll_failed_by_more_than_5_inconsciente():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 18")
    assert sh(s, "B").has("inconsciente")


def test_every_later_hit_below_con_repeats_the_critical_and_the_pain_roll_with_plus_n():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 30")
    s.execute('critica B "corte"')
    hit(s, 2)  # Herido: Defensa 17, 19 → Índice 1, damage 3: 6 → 3
    b = sh(s, "B")
    assert b.vitality == 3
    assert b.criticals == 2
    assert next(p for p in b.pending if p.roll == "dolor").nd == 13
    assert next(p for p in b.pending if p.roll == "critica").bonus == 1


def test_a_herido_who_fails_becomes_malherido_which_replaces_herido():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 30")
    hit(s, 2)
    s.execute("dolor B 5")
    b = sh(s, "B")
    assert b.has("malherido") and not b.has("herido")


def test_a_malherido_who_fails_stays_malherido():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 20")
    hit(s, 1)
    s.execute("dolor B 10")
    b = sh(s, "B")
    assert b.has("malherido") and not b.has("inconsciente")


def test_bleeding_is_not_a_herida_no_roll_no_critical():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 30")
    s.execute('critica B "corte" +sangrando:1')
    s.execute("a fin")  # B's go: bleeds 1 → 5
    b = sh(s, "B")
    assert b.vitality == 5
    assert b.criticals == 1
    assert "dolor" not in pending(s, "B")


def test_dano_typed_by_hand_is_a_herida_and_with_sangrado_it_is_not():
    s = duo()
    s.execute("dano B 14")
    assert sh(s, "B").criticals == 1 and "dolor" in pending(s, "B")
    s.execute("dolor B 30")
    s.execute("dano B 1 sangrado")
    assert sh(s, "B").criticals == 1 and "dolor" not in pending(s, "B")


def test_herido_ends_when_vitalidad_is_back_at_con():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 30")
    s.execute("cura B 1")
    assert not sh(s, "B").has("herido")


def test_critica_records_the_result_with_conditions():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 30")
    s.execute('critica B "corte profundo" +sangrando:2')
    b = sh(s, "B")
    assert b.condition("sangrando").value == "2"
    assert "critica" not in pending(s, "B")


# ---- 0 and below ------------------------------------------------------------------

def test_a_hit_from_above_0_to_exactly_0_inconsciente():
    s = duo()
    hit(s, 20)
    b = sh(s, "B")
    assert b.vitality == 0 and b.has("inconsciente")
    assert not b.has("moribundo") and not b.has("muerto")


@pytest.mark.parametrize("damage", [21, 30])
def test_minus_1_to_minus_10_is_moribundo(damage):
    s = duo()
    hit(s, damage)
    b = sh(s, "B")
    assert b.has("moribundo") and not b.has("muerto")


def test_below_minus_10_is_dead_minus_11_dies():
    s = duo()
    hit(s, 31)
    assert sh(s, "B").has("muerto")


def test_an_attack_that_deals_damage_kills_an_unconscious_at_0():
    s = duo()
    hit(s, 20)
    hit(s, 1)
    assert sh(s, "B").has("muerto")


def test_an_attack_that_deals_damage_kills_a_moribundo():
    s = build("alta A nh=9 des=5 ale=3 con=5", "arma A puños dano=1d6",
              "alta B nh=1 des=3 ale=2 con=7 pv=20", "iniciativa A 20", "iniciativa B 15")
    hit(s, 22)  # −2
    assert sh(s, "B").has("moribundo")
    hit(s, 1)
    assert sh(s, "B").has("muerto")


def test_an_unconscious_combatant_cannot_act():
    s = build("alta A nh=1 des=5 ale=3 con=5", "alta B nh=1 des=3 ale=2 con=7",
              "iniciativa A 20", "iniciativa B 15")
    s.execute("dano A 20")
    refused(s, "a simple", "A está inconsciente: no puede actuar")


def test_moribundo_failed_con_roll_loses_1_vitalidad():
    s = duo()
    hit(s, 22)  # −2
    s.execute("a fin")
    s.execute("refleja B 10")
    assert sh(s, "B").vitality == -3


def test_moribundo_successful_con_roll_estabilizado_no_more_loss():
    s = duo()
    hit(s, 22)
    s.execute("a fin")
    s.execute("refleja B 20")
    assert sh(s, "B").vitality == -2
    assert sh(s, "B").has("estabilizado")
    s.execute("turno")
    s.execute("a fin")
    assert sh(s, "B").vitality == -2
    assert "refleja" not in pending(s, "B")


def test_moribundo_failing_at_minus_10_dies():
    s = duo()
    hit(s, 30)  # −10
    s.execute("a fin")
    s.execute("refleja B 1")
    assert sh(s, "B").has("muerto")


def test_the_moribundos_loss_is_not_a_herida():
    s = duo()
    hit(s, 22)
    crits = sh(s, "B").criticals
    s.execute("a fin")
    s.execute("refleja B 1")
    assert sh(s, "B").criticals == crits
    assert "dolor" not in pending(s, "B")


def test_after_10_turns_unconscious_the_tracker_asks_for_the_waking_roll():
    s = duo()
    hit(s, 20)
    for _ in range(10):
        s.execute("turno")
    for _ in range(3):
        if "refleja" in pending(s, "B"):
            break
        s.execute("siguiente")
    assert "refleja" in pending(s, "B")


def _awake_roll(total: int) -> Session:
    s = duo()
    hit(s, 20)
    for _ in range(11):
        if "refleja" in pending(s, "B"):
            break
        s.execute("turno")
        if s.fight.actor == "A":
            s.execute("siguiente")
    assert "refleja" in pending(s, "B")
    s.execute(f"refleja B {total}")
    return s


def test_waking_roll_success_1_vitalidad_malherido_and_tumbado():
    b = sh(_awake_roll(20), "B")
    assert b.vitality == 1
    assert b.has("malherido") and b.has("tumbado") and not b.has("inconsciente")


def test_waking_roll_failure_by_5_or_more_is_muerto():
    assert sh(_awake_roll(15), "B").has("muerto")


def test_waking_roll_failure_by_less_than_5_stays_unconscious():
    b = sh(_awake_roll(18), "B")
    assert b.has("inconsciente") and not b.has("muerto")


def test_healing_an_unconscious_revives_at_once_tumbado_and_herido_if_below_con():
    s = duo()
    hit(s, 20)
    s.execute("cura B 3")
    b = sh(s, "B")
    assert b.vitality == 3
    assert not b.has("inconsciente")
    assert b.has("tumbado") and b.has("herido")


def test_vitalidad_never_goes_above_its_maximum():
    s = duo()
    hit(s, 5)
    s.execute("cura B 50")
    assert sh(s, "B").vitality == 20


# ---- first aid --------------------------------------------------------------------

def test_first_aid_is_a_complex_action_once_per_patient():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 20")  # malherido
    s.execute("a primeros-auxilios a B tirada=25")
    assert sh(s, "A").used == ("complex", "complex")
    assert 7 <= sh(s, "B").vitality <= 12
    s.execute("turno")
    assert s.fight.actor == "A"
    refused(s, "a primeros-auxilios a B tirada=25",
            "B ya recibió primeros auxilios en las últimas 24 horas")


def test_first_aid_on_a_moribundo_stabilizes_and_leaves_it_unconscious():
    s = duo()
    hit(s, 22)
    s.execute("a primeros-auxilios a B tirada=25")
    b = sh(s, "B")
    assert b.has("estabilizado")
    assert b.has("inconsciente") or b.has("moribundo")


def test_primeros_auxilios_takes_the_patient_as_written_in_the_syntax():
    # /tmp/cs/SYNTAX.md: `NAME primeros-auxilios OBJETIVO [tirada=N]`.
    s = duo()
    hit(s, 14)
    s.execute("dolor B 20")
    s.execute("a primeros-auxilios B tirada=25")
    assert sh(s, "A").used == ("complex", "complex")


# ---- Aplomo -----------------------------------------------------------------------

def test_crossing_half_aplomo_prompts_the_gm():
    s = duo(target="aplomo=10")
    s.execute("a ataca b tirada=19 dano=5 tipo=conmocion")
    assert sh(s, "B").composure == 5
    assert "aplomo" in pending(s, "B")


def test_at_0_aplomo_the_excess_goes_to_vitalidad_and_inconsciente():
    s = duo(target="aplomo=10")
    s.execute("a ataca b tirada=19 dano=13 tipo=conmocion")
    b = sh(s, "B")
    assert b.composure == 0
    assert b.vitality == 17
    assert b.has("inconsciente")


def test_unconscious_from_aplomo_until_it_recovers_at_least_5():
    s = duo(target="aplomo=10")
    s.execute("a ataca b tirada=19 dano=10 tipo=conmocion")
    assert sh(s, "B").has("inconsciente")
    s.execute("aplomo B +4")
    assert sh(s, "B").has("inconsciente")
    s.execute("aplomo B +1")
    assert not sh(s, "B").has("inconsciente")


# ---- Energía ----------------------------------------------------------------------

def test_spending_more_energia_than_voluntad_fatigado():
    s = build("alta A nh=1 des=5 ale=3 con=5 vol=4 energia=10", start=False)
    s.execute("energia A -4")
    assert not sh(s, "A").has("fatigado")
    s.execute("energia A -1")
    assert sh(s, "A").has("fatigado")


def test_spending_all_energia_exhausto_replaces_fatigado():
    s = build("alta A nh=1 des=5 ale=3 con=5 vol=4 energia=10", start=False)
    s.execute("energia A -10")
    a = sh(s, "A")
    assert a.energy == 0
    assert a.has("exhausto") and not a.has("fatigado")


# ---- robots -----------------------------------------------------------------------

def test_robots_have_no_herido_and_no_pain_roll():
    s = duo(target="rasgos=robot")
    hit(s, 15)
    b = sh(s, "B")
    assert not b.has("herido") and "dolor" not in pending(s, "B")


def test_a_robot_at_0_is_inutilizado_not_unconscious():
    s = duo(target="rasgos=robot")
    hit(s, 20)
    b = sh(s, "B")
    assert b.has("inutilizado") and not b.has("moribundo")


def test_a_robot_below_0_is_destroyed_never_moribundo():
    s = duo(target="rasgos=robot")
    hit(s, 21)
    b = sh(s, "B")
    assert b.has("muerto") and not b.has("moribundo")


def test_a_robot_is_averiado_while_the_damage_exceeds_a_quarter_of_its_structure():
    s = duo(target="rasgos=robot")
    hit(s, 5)  # 15 = ¾ of 20: not below
    assert not sh(s, "B").has("averiado")
    hit(s, 1)
    assert sh(s, "B").has("averiado")


def test_a_repaired_robot_reactivates_at_once_but_tumbado():
    s = duo(target="rasgos=robot")
    hit(s, 20)
    s.execute("cura B 5")
    b = sh(s, "B")
    assert not b.has("inutilizado") and b.has("tumbado")


def test_half_aplomo_prompts_when_current_is_at_most_half_for_the_first_time_only():
    # §9.5: «Crossing half of Aplomo (current ≤ ⌊max/2⌋ for the first time)».
    s = duo(target="aplomo=20")
    s.execute("a ataca b tirada=19 dano=10 tipo=conmocion")  # 20 → 10
    assert pending(s, "B").count("aplomo") == 1
    s.execute("aplomo B +5")                                 # 15
    s.execute("a ataca b tirada=19 dano=6 tipo=conmocion")   # 9: not the first time
    assert pending(s, "B").count("aplomo") == 1


# ---- 9.2 optional rule: 5 Energía to avoid falling unconscious ------------------------

def _failed_badly(switch: bool) -> Session:
    s = duo(target="energia=12 vol=10")
    if switch:
        s.execute("energia-salva si")
    hit(s, 14)  # pain ND 24
    return s


def test_with_the_optional_rule_spending_5_energia_turns_an_unconscious_result_into_malherido():
    s = _failed_badly(True)
    s.execute("dolor B 10 energia")
    b = sh(s, "B")
    assert b.energy == 7
    assert b.has("malherido") and not b.has("inconsciente")


def test_without_the_switch_the_energia_save_is_not_available():
    s = _failed_badly(False)
    refused(s, "dolor B 10 energia")


def test_the_energia_save_is_only_against_the_pain_roll_not_against_0_vitalidad():
    s = duo(target="energia=12 vol=10")
    s.execute("energia-salva si")
    hit(s, 20)  # 0 Vitalidad: Inconsciente, no pain roll to save
    b = sh(s, "B")
    assert b.has("inconsciente")
    assert b.energy == 12


def test_first_aid_below_nd_20_heals_nothing():
    s = duo()
    hit(s, 14)
    s.execute("dolor B 20")
    s.execute("a primeros-auxilios a B tirada=19")
    assert sh(s, "B").vitality == 6


@pytest.mark.parametrize("total", [30, 20])
def test_herido_and_malherido_end_when_vitalidad_is_back_at_or_above_con(total):
    s = duo()
    hit(s, 14)
    s.execute(f"dolor B {total}")
    assert sh(s, "B").has("herido") or sh(s, "B").has("malherido")
    s.execute("cura B 1")  # 6 → 7 = CON
    b = sh(s, "B")
    assert not b.has("herido") and not b.has("malherido")


def test_an_unconscious_combatant_still_bleeds_at_the_start_of_its_go():
    s = duo()
    hit(s, 15)  # 5
    s.execute("dolor B 0")  # failed by more than 5: inconsciente
    s.execute("estado B +sangrando:2")
    s.execute("a fin")
    assert sh(s, "B").vitality == 3


def test_bleeding_is_not_an_attack_it_takes_an_unconscious_at_0_to_moribundo_not_to_death():
    s = duo()
    hit(s, 20)  # 0: Inconsciente
    s.execute("estado B +sangrando:1")
    s.execute("a fin")
    b = sh(s, "B")
    assert b.vitality == -1
    assert b.has("moribundo") and not b.has("muerto")
