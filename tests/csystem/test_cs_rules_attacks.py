"""CSYSTEM.md §6 (attack roll, Defensa, Índice de Éxito, damage, cover's RD) and §7
(fire modes, bursts, ammunition, Cadencia, reloading)."""

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


def shooter(weapon: str, level: int = 5, target: str = "", rd: str = "2") -> Session:
    """A (NH `level`) with `weapon` acts first; B (NH 1, DES 3: Defensa 19, RD 2,
    CON 1 so it gets no Herido rolls) second."""
    return build(f"alta A nh={level} des=5 ale=3 per=8 con=5", f"arma A {weapon}",
                 "arma A puños dano=1d6",
                 f"alta B nh=1 des=3 ale=2 per=4 con=1 pv=40 rd={rd} {target}",
                 "iniciativa A 20", "iniciativa B 10")


PISTOL = "pistola modos=sa cargador=15 dano=2d6"
SMG = "subfusil modos=fa cargador=30 dano=2d6"


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


# ---- 6.1–6.4 ------------------------------------------------------------------------

def test_defensa_is_15_plus_des_plus_nh_plus_modifiers():
    s = shooter(PISTOL, target="bdef=2")
    assert defense(sh(s, "B")).ranged == 15 + 3 + 1 + 2
    assert defense(sh(s, "A")).melee == 15 + 5 + 5


def test_a_total_equal_to_defensa_hits_with_indice_0():
    s = shooter(PISTOL)
    s.execute("a ataca b tirada=19 dano=7")
    assert sh(s, "B").vitality == 40 - (0 + 7 - 2)


def test_a_total_below_defensa_misses():
    s = shooter(PISTOL)
    s.execute("a ataca b tirada=18 dano=7")
    assert sh(s, "B").vitality == 40


def test_indice_de_exito_is_half_the_margin_rounded_down():
    s = shooter(PISTOL)
    s.execute("a ataca b tirada=24 dano=7")  # 24 − 19 = 5 → Índice 2
    assert sh(s, "B").vitality == 40 - (2 + 7 - 2)


def test_damage_below_0_counts_as_0():
    s = shooter(PISTOL, rd="10")
    s.execute("a ataca b tirada=19 dano=3")
    assert sh(s, "B").vitality == 40


def test_the_rd_of_the_matching_type_is_subtracted():
    s = shooter(PISTOL, rd="1/4/7")
    s.execute("a ataca b tirada=19 dano=10 tipo=letal")
    assert sh(s, "B").vitality == 40 - 9
    s.execute("a ataca b tirada=19 dano=10 tipo=energia")
    assert sh(s, "B").vitality == 40 - 9 - 3


def test_a_firearm_deals_balistico_by_default():
    s = shooter(PISTOL, rd="0/4/0")
    s.execute("a ataca b tirada=19 dano=10")
    assert sh(s, "B").vitality == 40 - 6


def test_conmocion_goes_to_aplomo_and_no_rd_applies():
    s = shooter(PISTOL, target="aplomo=20")
    s.execute("a ataca b tirada=19 dano=6 tipo=conmocion")
    b = sh(s, "B")
    assert b.vitality == 40
    assert b.composure == 14


def test_an_attack_without_tirada_only_spends_the_action():
    s = shooter(PISTOL)
    s.execute("a ataca b")
    assert sh(s, "A").used == ("complex",)
    assert sh(s, "B").vitality == 40


# ---- 6.2 Defensa from effective DES --------------------------------------------------

def d(lines: str) -> int:
    s = build("alta X nh=1 des=6 ale=0 con=5", *[f"estado X +{c}" for c in lines.split()] if lines else (),
              start=False)
    return defense(sheet(s.fight.find("X"))).ranged


@pytest.mark.parametrize(("conditions", "expected"), [
    ("", 22),
    ("herido", 20),
    ("malherido", 18),
    ("herido malherido", 18),  # one chain: only the worst counts
    ("apresado", 17),
    ("fatigado", 20),
    ("exhausto", 17),
    ("fatigado exhausto", 17),
    ("herido fatigado", 18),  # different chains add up
    ("malherido apresado", 16),  # 6 − 9 → DES 0, never below 0
    ("desprevenido", 19),  # 6 → 3
    ("indefenso", 16),
    ("sujeto", 16),
    ("cegado", 19),
    ("aterrado", 17),  # DES halved (3) and −2
])
def test_defensa_uses_effective_des_with_the_conditions_penalties(conditions, expected):
    assert d(conditions) == expected


def test_desprevenido_halving_rounds_up():
    s = build("alta X nh=1 des=5 ale=0 con=5", "estado X +desprevenido", start=False)
    assert defense(sheet(s.fight.find("X"))).ranged == 15 + 3 + 1


def test_tumbado_defensa_plus_2_vs_ranged_minus_2_vs_melee():
    s = build("alta X nh=1 des=6 ale=0 con=5", "estado X +tumbado", start=False)
    dd = defense(sheet(s.fight.find("X")))
    assert (dd.ranged, dd.melee) == (24, 20)


def test_a_ranged_attack_uses_the_defensa_against_ranged():
    s = shooter(PISTOL, target="")
    s.execute("estado B +tumbado")  # 21 vs ranged
    s.execute("a ataca b tirada=20 dano=7")
    assert sh(s, "B").vitality == 40
    s.execute("a ataca b tirada=21 dano=7")
    assert sh(s, "B").vitality == 35


def test_a_melee_attack_uses_the_defensa_against_melee():
    s = shooter(PISTOL)
    s.execute("estado B +tumbado")  # 17 vs melee
    s.execute("a ataca b arma=puños tirada=17 dano=7")
    assert sh(s, "B").vitality == 35


# ---- 6.5 cover ------------------------------------------------------------------

def test_cover_adds_defensa_and_rd_against_ranged_attacks():
    s = shooter(PISTOL)
    s.execute("estado B +a-cubierto:parcial")  # Def 22, RD +3
    s.execute("a ataca b tirada=21 dano=9")
    assert sh(s, "B").vitality == 40
    s.execute("a ataca b tirada=22 dano=9")
    assert sh(s, "B").vitality == 40 - (9 - 2 - 3)


def test_cover_does_not_count_against_melee_attacks():
    s = shooter(PISTOL)
    s.execute("estado B +a-cubierto:casi-completa")
    s.execute("a ataca b arma=puños tirada=19 dano=9")
    assert sh(s, "B").vitality == 40 - 7


# ---- §7 fire modes and ammunition -------------------------------------------------

def test_each_shot_uses_one_round():
    s = shooter(PISTOL)
    s.execute("a ataca b tirada=1")
    s.execute("a ataca b tirada=1")
    assert sh(s, "A").weapon("pistola").ammo == 13


def test_a_fuego_simple_weapon_fires_only_once_per_turn():
    s = shooter("revólver modos=simple cargador=6 dano=2d6")
    s.execute("a ataca b tirada=1")
    refused(s, "a ataca b tirada=1", "El revólver es de fuego simple: solo un disparo por turno")


def test_firing_empty_is_refused():
    s = shooter(SMG)
    s.execute("municion A subfusil 0")
    refused(s, "a ataca b tirada=1", "El subfusil de A no tiene munición: recarga")


def test_rafaga_corta_uses_25_percent_of_the_magazine_rounded_up():
    s = shooter(SMG)
    s.execute("a rafaga-corta a b tirada=1")
    assert sh(s, "A").weapon("subfusil").ammo == 30 - 8


def test_rafaga_corta_adds_the_extra_die_to_damage_on_a_hit():
    s = shooter(SMG)
    s.execute("a rafaga-corta a b tirada=19 dano=6+4")
    assert sh(s, "B").vitality == 40 - (10 - 2)


def test_a_burst_needs_that_many_rounds_left():
    s = shooter(SMG)
    s.execute("municion A subfusil 5")
    refused(s, "a rafaga-corta a b tirada=1", "Ráfaga corta necesita 8 balas (le quedan 5)")


def test_rafaga_corta_is_allowed_with_a_semiautomatic_weapon():
    s = shooter(PISTOL)
    s.execute("a rafaga-corta a b tirada=1")
    assert sh(s, "A").weapon("pistola").ammo == 15 - 4


def test_rafaga_corta_needs_an_automatic_or_semiautomatic_weapon():
    s = shooter("revólver modos=simple cargador=6 dano=2d6")
    refused(s, "a rafaga-corta a b tirada=1")


def test_rafaga_larga_uses_50_percent_of_the_magazine():
    s = shooter(SMG)
    s.execute("a rafaga-larga a b tirada=1")
    assert sh(s, "A").weapon("subfusil").ammo == 15


def test_rafaga_larga_needs_an_automatic_weapon():
    s = shooter(PISTOL)
    refused(s, "a rafaga-larga a b tirada=1", "Ráfaga larga necesita un arma automática")


def test_fuego_automatico_pesado_empties_the_magazine():
    s = shooter("ametralladora modos=fa,pesado cargador=30 dano=3d6")
    s.execute("a fuego-automatico-pesado a b tirada=1")
    assert sh(s, "A").weapon("ametralladora").ammo == 0


def test_fuego_automatico_pesado_needs_at_least_75_percent():
    s = shooter("ametralladora modos=fa,pesado cargador=30 dano=3d6")
    s.execute("municion A ametralladora 10")
    refused(s, "a fuego-automatico-pesado a b tirada=1",
            "Fuego automático pesado necesita al menos el 75 % (23 de 30; quedan 10)")


def test_rounds_beyond_cadencia_warn_and_are_not_refused():
    s = shooter("pistola modos=sa cargador=15 cad=1 dano=2d6")
    s.execute("a ataca b tirada=1")
    n = len(s.fight.log)
    s.execute("a ataca b tirada=1")
    assert sh(s, "A").weapon("pistola").ammo == 13
    assert any(e.warning for e in s.fight.log[n:])


def test_fired_counts_the_rounds_of_the_current_turn():
    s = shooter(SMG)
    s.execute("a rafaga-corta a b tirada=1")
    assert sh(s, "A").weapon("subfusil").fired == 8
    s.execute("a fin")
    s.execute("b fin")
    assert sh(s, "A").weapon("subfusil").fired == 0


def test_reload_is_simple_for_fuego_simple_weapons():
    s = shooter("revólver modos=simple cargador=6 dano=2d6", level=1)
    s.execute("municion A revólver 0")
    s.execute("a recarga revólver")
    a = sh(s, "A")
    assert a.used == ("simple",)
    assert a.weapon("revólver").ammo == 6


def test_reload_is_complex_for_the_others():
    s = shooter(SMG, level=1)
    s.execute("municion A subfusil 3")
    s.execute("a recarga subfusil")
    a = sh(s, "A")
    assert a.used == ("complex",)
    assert a.weapon("subfusil").ammo == 30


def test_reload_of_a_fuego_pesado_weapon_takes_the_whole_turn():
    s = shooter("cañón modos=pesado cargador=4 dano=4d6", level=5)
    s.execute("municion A cañón 0")
    s.execute("a recarga cañón")
    assert sh(s, "A").acted
    assert s.fight.actor == "B"


def test_reload_of_a_fuego_pesado_weapon_must_be_the_only_thing_that_turn():
    s = shooter("cañón modos=pesado cargador=4 dano=4d6", level=5)
    s.execute("municion A cañón 0")
    s.execute("a simple")
    refused(s, "a recarga cañón")


def test_changing_fire_mode_is_a_simple_action():
    s = shooter("rifle modos=sa,fa cargador=30 dano=2d6")
    s.execute("a modo rifle fa")
    a = sh(s, "A")
    assert a.weapon("rifle").mode == "fa"
    assert a.used == ("simple",)


def test_rafaga_larga_needs_half_the_magazine_left():
    s = shooter(SMG)
    s.execute("municion A subfusil 10")
    refused(s, "a rafaga-larga a b tirada=1", "Ráfaga larga necesita 15 balas (le quedan 10)")


def test_fuego_automatico_pesado_needs_a_heavy_automatic_weapon():
    s = shooter(SMG)
    refused(s, "a fuego-automatico-pesado a b tirada=1")
    assert sh(s, "A").weapon("subfusil").ammo == 30


def test_golpe_de_gracia_against_an_indefenso_hits_automatically_with_plus_10_to_the_critical_roll():
    s = shooter(PISTOL)
    s.execute("estado B +indefenso")
    s.execute("a golpe-de-gracia a b arma=puños dano=3")
    b = sh(s, "B")
    assert b.vitality < 40
    crit = next(p for p in b.pending if p.roll == "critica")
    assert crit.bonus >= 10


@pytest.mark.parametrize(("line", "kind"), [("a mover", "simple"), ("a correr", "complex"),
                                            ('a simple "desenfunda"', "simple"),
                                            ('a compleja "teclea un código"', "complex")])
def test_generic_actions_cost_what_the_seed_lists(line, kind):
    s = shooter(PISTOL)
    s.execute(line)
    assert sh(s, "A").used == (kind,)


def test_a_fuego_simple_weapon_may_fire_again_next_turn():
    s = shooter("revólver modos=simple cargador=6 dano=2d6")
    s.execute("a ataca b tirada=1")
    s.execute("a fin")
    s.execute("b fin")
    s.execute("a ataca b tirada=1")
    assert sh(s, "A").weapon("revólver").ammo == 4


def test_a_semiautomatic_weapon_fires_any_number_of_shots_each_an_attack():
    s = shooter(PISTOL, level=9)
    s.execute("a ataca b tirada=1")
    s.execute("a ataca b tirada=1")
    a = sh(s, "A")
    assert a.used == ("complex", "complex")
    assert a.weapon("pistola").ammo == 13
