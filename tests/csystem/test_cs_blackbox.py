"""C-System as the hidden acceptance scenarios see it: the real CLI only, each test a
concrete sentence of SYSTEMS.md §2 / §4, CSYSTEM.md or COMMANDS.md, named after it.

The cast is CSYSTEM.md §12's (`_cs_shell.CAST`, «Ruina» for «Doctor Ruina»): order
Centella 22, Ruina 22, Sicario 1 18, Titán 14.  `DUO` is a smaller fight for the
arithmetic: A (NH 1, puños) acts first, then B (NH 1, DES 3, CON 5, RD 4, Defensa 19,
Vitalidad 20).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from shell import cdbtui

try:
    import _cs_shell
    from _cs_shell import CAST, INITS, refuse, state, who
except ImportError:  # tests/csystem made a package
    from . import _cs_shell
    from ._cs_shell import CAST, INITS, refuse, state, who

DUO = ("alta A nh=1 des=3 ale=2 con=5 per=8", "arma A puños dano=1d6",
       "arma A pistola modos=sa cargador=15 dano=2d6",
       "alta B nh=1 des=3 ale=1 con=5 rd=4", "iniciativa A 10", "iniciativa B 5")
TO_RUINA = ("centella fin",)
TO_SICARIO = (*TO_RUINA, "ruina fin")
TO_TITAN = (*TO_SICARIO, "sicario fin")


def new(tmp_path: Path) -> Path:
    return _cs_shell.new(tmp_path, seed=7)  # the same dice every run


def build(tmp_path: Path, *lines: str, **how) -> Path:
    return _cs_shell.build(tmp_path, *lines, seed=7, **how)


def duo(tmp_path: Path, *lines: str, extra: tuple[str, ...] = (), start: bool = True) -> Path:
    return build(tmp_path, *lines, cast=(*DUO, *extra), start=start)


def do(path: Path, *lines: str):
    result = cdbtui("do", str(path), *lines)
    assert result.returncode == 0, (lines, result.stderr)
    return result


def conds(path: Path, name: str) -> set[str]:
    return {c["id"] for c in who(path, name)["conditions"]}


def log(path: Path) -> list[str]:
    return state(path)["log"]


# ====================================================================== SYSTEMS.md §2.2 commands


def test_new_path_rules_csystem_is_a_c_system_fight(tmp_path):
    path = new(tmp_path)
    data = state(path)
    assert data["schema"] == 1 and data["rules"] == "csystem"
    assert data["turn"] == 0 and data["actor"] is None and data["order"] == [] and data["combatants"] == []
    assert data["turn_over"] is False


@pytest.mark.parametrize(("line", "pv"), [
    ("alta X nh=1 des=3 ale=2 con=7", 28),
    ("alta X nh=5 des=3 ale=2 con=5", 32),
    ("alta X nh=9 des=3 ale=2 con=6", 48),
    ("alta X nh=3 des=3 ale=2 con=5 pv=40", 40),
])
def test_alta_pv_defaults_to_con_x4_plus_3_x_nh_minus_1(tmp_path, line, pv):
    path = build(tmp_path, cast=(line,), start=False)
    x = who(path, "X")
    assert (x["vitality"], x["vitality_max"]) == (pv, pv)


def test_alta_nh_defaults_to_1(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5",), start=False)
    assert who(path, "X")["level"] == 1
    assert who(path, "X")["left"] == [[1, 1], [0, 2]]


def test_alta_bdef_and_escudo_are_added_to_defensa(tmp_path):
    """CSYSTEM §6.2: Defensa = 15 + DES + NH + BDEF + shield."""
    path = build(tmp_path, cast=("alta X nh=3 des=4 ale=2 con=5 bdef=2 escudo=1",), start=False)
    assert who(path, "X")["defense"] == {"ranged": 25, "melee": 25}


def test_alta_aplomo_and_energia_are_typed(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5 aplomo=12 energia=9",), start=False)
    x = who(path, "X")
    assert (x["composure"], x["energy"]) == (12, 9)


def test_alta_without_aplomo_or_energia_has_null(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5",), start=False)
    x = who(path, "X")
    assert (x["composure"], x["energy"]) == (None, None)


def test_alta_bando_and_oculto(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5 bando=pj", "alta Y des=3 ale=2 con=5 oculto"),
                 start=False)
    assert who(path, "X")["side"] == "pj" and who(path, "X")["hidden"] is False
    assert who(path, "Y")["side"] == "pnj" and who(path, "Y")["hidden"] is True


@pytest.mark.parametrize(("kind", "expected"), [("letal", 20 - 9), ("balistico", 20 - 8), ("energia", 20 - 7)])
def test_alta_rd_l_b_e_is_one_rd_per_damage_type(tmp_path, kind, expected):
    """SYSTEMS §2.2 `rd=L/B/E`; CSYSTEM §6.4: damage − RD of the matching type."""
    path = duo(tmp_path, f"a ataca c tirada=19 dano=10 tipo={kind}",
               extra=("alta C nh=1 des=3 ale=0 con=5 rd=1/2/3", "iniciativa C 1"))
    assert who(path, "C")["vitality"] == expected


def test_alta_ini_plus_n_is_added_to_the_rolled_initiative(tmp_path):
    """CSYSTEM §3.1: 1d20 + DES + Alerta + ini_mod."""
    path = build(tmp_path, "tirar X", cast=("alta X des=3 ale=2 con=5 ini=+4",), start=False)
    value = who(path, "X")["initiative"]
    assert 1 + 3 + 2 + 4 <= value <= 20 + 3 + 2 + 4


def test_alta_rasgos_acrobacias_standing_up_is_simple(tmp_path):
    path = build(tmp_path, "estado x +tumbado", "x levantarse",
                 cast=("alta X des=3 ale=2 con=5 rasgos=acrobacias", "alta Y des=1 ale=0 con=5",
                       "iniciativa X 10", "iniciativa Y 1"))
    assert who(path, "X")["used"] == ["simple"]
    assert "tumbado" not in conds(path, "X")


def test_alta_rasgos_robot_no_herido_no_pain_roll(tmp_path):
    """CSYSTEM §9.2 / §9.9: robots have no Herido and no pain roll."""
    path = duo(tmp_path, "dano c 18", extra=("alta C des=3 ale=0 con=5 rasgos=robot", "iniciativa C 1"))
    c = who(path, "C")
    assert c["pending"] is None and c["criticals"] == 0
    assert not conds(path, "C") & {"herido", "malherido"}


def test_alta_rasgos_artes_marciales_esquivar_adds_its_value(tmp_path):
    """CSYSTEM §5.2 Esquivar: Defensa de Artes Marciales adds its Combate sin armas value
    instead of the d10."""
    path = build(tmp_path, "x esquivar",
                 cast=("alta X des=3 ale=2 con=5 rasgos=artes-marciales:4", "alta Y des=1 ale=0 con=5",
                       "iniciativa X 10", "iniciativa Y 1"))
    assert who(path, "X")["defense"] == {"ranged": 19 + 4, "melee": 19 + 4}


def test_alta_mid_fight_joins_by_initiative(tmp_path):
    """SYSTEMS §2.2: mid-fight it joins by initiative; §2.4: no place until typed or rolled."""
    path = build(tmp_path, 'alta Nuevo des=3 ale=2 con=5')
    n = who(path, "Nuevo")
    assert n["place"] is None and "Nuevo" not in state(path)["order"]
    do(path, "iniciativa Nuevo 15")
    assert state(path)["order"] == ["Centella", "Ruina", "Sicario 1", "Nuevo", "Titán"]
    assert who(path, "Nuevo")["place"] == 4


def test_arma_modos_cargador_municion(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5", "arma X rifle modos=sa,fa cargador=30 municion=12 cad=10"),
                 start=False)
    assert who(path, "X")["weapons"] == [{"name": "rifle", "mode": "sa", "ammo": 12, "magazine": 30, "fired": 0}]


def test_arma_without_municion_is_full(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5", "arma X rifle modos=fa cargador=30"), start=False)
    assert who(path, "X")["weapons"][0]["ammo"] == 30


def test_iniciativa_is_the_typed_total(tmp_path):
    path = build(tmp_path, start=False)
    assert [who(path, n)["initiative"] for n in ("Centella", "Ruina", "Sicario 1", "Titán")] == [22, 22, 18, 14]


def test_tirar_without_names_rolls_for_all_without_initiative(tmp_path):
    path = build(tmp_path, "tirar", cast=("alta X des=3 ale=2 con=5", "alta Y des=3 ale=2 con=5",
                                          "iniciativa X 40"), start=False)
    assert who(path, "X")["initiative"] == 40
    assert who(path, "Y")["initiative"] is not None


def test_tirar_names_rolls_only_those(tmp_path):
    path = build(tmp_path, "tirar X", cast=("alta X des=3 ale=2 con=5", "alta Y des=3 ale=2 con=5"), start=False)
    assert who(path, "X")["initiative"] is not None and who(path, "Y")["initiative"] is None


def test_sorpresa_is_desprevenido_until_its_first_go(tmp_path):
    """SYSTEMS §2.2 `sorpresa`; CSYSTEM §3.7: desprevenido (DES to Defensa halved, rounded
    up) until its first turno propio begins; it keeps its place."""
    path = build(tmp_path, 'sorpresa Titán', start=False)
    assert "desprevenido" in conds(path, "Titán")
    assert who(path, "Titán")["defense"]["melee"] == 15 + 2 + 1  # DES 3 → 2
    do(path, "empezar", *TO_TITAN)
    assert state(path)["order"][-1] == "Titán"
    assert "desprevenido" not in conds(path, "Titán")
    assert who(path, "Titán")["defense"]["melee"] == 19


def test_cambiar_swaps_two_tied_combatants(tmp_path):
    path = build(tmp_path, "cambiar X Y", cast=("alta X des=3 ale=2 con=5", "alta Y des=3 ale=2 con=5",
                                                "iniciativa X 10", "iniciativa Y 10"), start=False)
    assert state(path)["order"] == ["Y", "X"]


def test_orden_antes_is_a_gm_re_placing(tmp_path):
    path = build(tmp_path, "orden Titán antes Centella")
    assert state(path)["order"][0] == "Titán"


def test_orden_tras_is_a_gm_re_placing(tmp_path):
    path = build(tmp_path, "orden Centella tras Titán")
    assert state(path)["order"] == ["Ruina", "Sicario 1", "Titán", "Centella"]
    assert state(path)["actor"] == "Ruina"


def test_empezar_turn_1_the_first_in_the_order_acts(tmp_path):
    path = build(tmp_path)
    data = state(path)
    assert (data["turn"], data["actor"]) == (1, "Centella")
    assert data["order"] == ["Centella", "Ruina", "Sicario 1", "Titán"]
    assert [who(path, n)["place"] for n in data["order"]] == [1, 2, 3, 4]


def test_maneuver_example_centella_apuntar(tmp_path):
    path = build(tmp_path, "centella apuntar")
    c = who(path, "Centella")
    assert (c["aim"], c["used"], c["maneuvers"]) == (2, ["complex"], ["apuntar"])
    assert c["left"] == [[1, 0], [0, 1]]


def test_maneuver_example_ruina_esquivar_5(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina esquivar 5")
    assert who(path, "Ruina")["defense"] == {"ranged": 34, "melee": 34}
    assert state(path)["actor"] == "Sicario 1"


def test_maneuver_example_sicario_rafaga_corta_a_titan(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario rafaga-corta a titan tirada=20 dano=6+4")
    assert who(path, "Titán")["vitality"] == 20
    assert who(path, "Sicario 1")["weapons"][0]["ammo"] == 22
    assert who(path, "Sicario 1")["weapons"][0]["fired"] == 8


def test_maneuver_example_sicario_cubrirse_simple(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario cubrirse simple")
    assert "tumbado" in conds(path, "Sicario 1")
    assert who(path, "Sicario 1")["defense"] == {"ranged": 22, "melee": 18}
    assert who(path, "Sicario 1")["used"] == ["simple"]


def test_maneuver_example_cubrirse_compleja_casi_completa(tmp_path):
    """CSYSTEM §5.2: casi completa «+5 a la Defensa y 5 de RD», only against ranged."""
    path = build(tmp_path, "centella cubrirse compleja casi-completa")
    c = who(path, "Centella")
    assert {"id": "a-cubierto", "value": "casi-completa", "ends": None} in c["conditions"]
    assert c["defense"] == {"ranged": 31, "melee": 26}
    assert c["used"] == ["complex"]


def test_maneuver_example_titan_cargar_a_sicario(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario cubrirse simple", "sicario fin",
                 "titan cargar a sicario tirada=21 dano=14")
    assert who(path, "Sicario 1")["vitality"] == 3
    assert who(path, "Titán")["defense"] == {"ranged": 17, "melee": 17}
    assert who(path, "Sicario 1")["pending"] == {"roll": "dolor", "nd": 23}


def test_maneuver_example_rafaga_larga_area(tmp_path):
    """SYSTEMS §2.2 `x rafaga-larga area`: 50 % of the magazine."""
    path = build(tmp_path, *TO_SICARIO, "sicario rafaga-larga area")
    assert who(path, "Sicario 1")["weapons"][0]["ammo"] == 15
    assert who(path, "Sicario 1")["maneuvers"] == ["rafaga-larga"]


def test_maneuver_id_accents_are_folded(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario ráfaga-corta a titán tirada=20 dano=6+4")
    assert who(path, "Titán")["vitality"] == 20


def test_maneuver_id_unique_prefix(tmp_path):
    """COMMANDS.md: a unique prefix is accepted for maneuver ids."""
    path = build(tmp_path, "centella apun")
    assert who(path, "Centella")["aim"] == 2


def test_ataca_with_tirada_compares_with_defensa_and_applies_damage_minus_rd(tmp_path):
    path = duo(tmp_path, "a ataca b tirada=24 dano=6")
    assert who(path, "B")["vitality"] == 20 - (2 + 6 - 4)


def test_ataca_without_tirada_only_spends_the_action(tmp_path):
    path = duo(tmp_path, "a ataca b")
    assert who(path, "B")["vitality"] == 20
    assert who(path, "A")["used"] == ["complex"]


def test_attack_is_the_english_spelling(tmp_path):
    path = duo(tmp_path, "a attack b tirada=24 dano=6")
    assert who(path, "B")["vitality"] == 16


def test_ataca_arma_picks_the_weapon_ranged_or_melee_defense(tmp_path):
    """SYSTEMS §2.2: the target's Defensa ranged or melee by the weapon."""
    path = duo(tmp_path, "estado b +tumbado", "a ataca b tirada=21 dano=4 arma=pistola")
    # B tumbado: ranged 21, melee 17; 21 vs 21 → Índice 0; 0 + 4 − 4 = 0
    assert who(path, "B")["vitality"] == 20
    assert who(path, "A")["weapons"][1]["ammo"] == 14
    other = tmp_path / "m"
    other.mkdir()
    path = duo(other, "estado b +tumbado", "a ataca b tirada=21 dano=4 arma=puños")
    assert who(path, "B")["vitality"] == 20 - (2 + 4 - 4)


def test_generic_compleja_simple_gratis(tmp_path):
    path = build(tmp_path, "centella simple desenfunda", "centella gratis suelta la presa",
                 "centella compleja activa un poder")
    c = who(path, "Centella")
    assert c["used"] == ["simple", "complex"]
    assert c["maneuvers"] == []


def test_generic_english_complex_and_free(tmp_path):
    path = build(tmp_path, "centella complex poder", "centella free grita")
    assert who(path, "Centella")["used"] == ["complex"]


def test_recarga_is_complex_for_a_sa_weapon(tmp_path):
    path = build(tmp_path, "municion centella pistola 3", "centella recarga pistola")
    c = who(path, "Centella")
    assert c["used"] == ["complex"] and c["weapons"][0]["ammo"] == 15


def test_recarga_is_simple_for_a_fuego_simple_weapon(tmp_path):
    path = build(tmp_path, "centella reload revolver",
                 cast=(*CAST, "arma Centella revolver modos=simple cargador=6 municion=0", *INITS))
    c = who(path, "Centella")
    assert c["used"] == ["simple"] and c["weapons"][1]["ammo"] == 6


def test_recarga_of_a_pesado_weapon_takes_the_whole_turn(tmp_path):
    path = build(tmp_path, "centella recarga canon",
                 cast=(*CAST, "arma Centella canon modos=pesado,fa cargador=50 municion=0", *INITS))
    assert state(path)["actor"] == "Ruina"
    assert who(path, "Centella")["weapons"][1]["ammo"] == 50


def test_modo_switches_the_fire_mode_as_a_simple_action(tmp_path):
    path = build(tmp_path, "centella modo rifle fa",
                 cast=(*CAST, "arma Centella rifle modos=sa,fa cargador=30", *INITS))
    c = who(path, "Centella")
    assert c["used"] == ["simple"] and c["weapons"][1]["mode"] == "fa"


def test_mode_is_the_english_spelling(tmp_path):
    path = build(tmp_path, "centella mode rifle fa",
                 cast=(*CAST, "arma Centella rifle modos=sa,fa cargador=30", *INITS))
    assert who(path, "Centella")["weapons"][1]["mode"] == "fa"


@pytest.mark.parametrize("word", ["levantarse", "standup", "levanta"])
def test_levantarse_is_complex_and_removes_tumbado(tmp_path, word):
    path = build(tmp_path, "estado centella +tumbado", f"centella {word}")
    assert who(path, "Centella")["used"] == ["complex"]
    assert "tumbado" not in conds(path, "Centella")


def test_retrasa_tras_sets_after_and_copies_the_value(tmp_path):
    path = build(tmp_path, "centella retrasa tras titan")
    c = who(path, "Centella")
    assert (c["after"], c["initiative"]) == ("Titán", 14)
    assert state(path)["order"] == ["Ruina", "Sicario 1", "Titán", "Centella"]
    assert state(path)["actor"] == "Ruina"


def test_retrasa_final_goes_to_the_end_and_after_is_null(tmp_path):
    path = build(tmp_path, "centella retrasa final")
    c = who(path, "Centella")
    assert c["after"] is None
    assert state(path)["order"] == ["Ruina", "Sicario 1", "Titán", "Centella"]
    assert c["initiative"] == 14


def test_lower_last_is_the_english_spelling(tmp_path):
    path = build(tmp_path, "centella lower last")
    assert state(path)["order"][-1] == "Centella"


def test_fin_ends_the_go_actions_left_are_lost(tmp_path):
    path = build(tmp_path, "centella apuntar", "centella fin")
    c = who(path, "Centella")
    assert c["acted"] is True and c["left"] == []
    assert state(path)["actor"] == "Ruina"


@pytest.mark.parametrize("word", ["siguiente", "next"])
def test_siguiente_ends_the_current_go(tmp_path, word):
    path = build(tmp_path, word)
    assert state(path)["actor"] == "Ruina"
    assert who(path, "Centella")["acted"] is True


@pytest.mark.parametrize("word", ["turno", "newturn"])
def test_turno_forces_the_end_of_the_turn(tmp_path, word):
    """Those still to act lose their go; the next turn starts with its first go."""
    path = build(tmp_path, "centella apuntar", word)
    data = state(path)
    assert (data["turn"], data["actor"]) == (2, "Centella")
    assert all(c["acted"] is False for c in data["combatants"])
    assert who(path, "Centella")["used"] == []


def test_dano_is_a_herida_pain_roll_and_critical(tmp_path):
    """SYSTEMS §2.2 `dano NAME N`: a herida, so it triggers the pain roll and criticals."""
    path = duo(tmp_path, "dano b 16")
    b = who(path, "B")
    assert b["vitality"] == 4 and b["criticals"] == 1
    assert b["pending"] == {"roll": "dolor", "nd": 26}


def test_dano_rd_is_subtracted(tmp_path):
    path = duo(tmp_path, "dano b 10 rd=3")
    assert who(path, "B")["vitality"] == 13


def test_dano_with_accent_is_the_same_keyword(tmp_path):
    path = duo(tmp_path, "daño b 5")
    assert who(path, "B")["vitality"] == 15


def test_dano_sangrado_no_roll_no_critical(tmp_path):
    path = duo(tmp_path, "dano b 16 sangrado")
    b = who(path, "B")
    assert b["vitality"] == 4 and b["criticals"] == 0 and b["pending"] is None


def test_damage_is_the_english_spelling(tmp_path):
    path = duo(tmp_path, "damage b 5")
    assert who(path, "B")["vitality"] == 15


@pytest.mark.parametrize(("total", "condition"), [(26, "herido"), (30, "herido"), (25, "malherido"),
                                                    (21, "malherido"), (20, "inconsciente")])
def test_dolor_outcome(tmp_path, total, condition):
    """CSYSTEM §9.2: ≥ ND Herido; < ND Malherido; < ND − 5 Inconsciente."""
    path = duo(tmp_path, "dano b 16", f"dolor b {total}")
    assert condition in conds(path, "B")
    assert who(path, "B")["pending"]["roll"] == "critica"  # the pain roll answered, the table waits


def test_pending_pain_first_then_critical(tmp_path):
    """SYSTEMS §2.4: the pain roll first, then the critical table; each answered by its command."""
    path = duo(tmp_path, "dano b 16")
    assert who(path, "B")["pending"]["roll"] == "dolor"
    do(path, "dolor b 30")
    assert who(path, "B")["pending"]["roll"] == "critica"
    do(path, 'critica b "brazo roto" +sangrando:2')
    b = who(path, "B")
    assert b["pending"] is None
    assert {"id": "sangrando", "value": "2", "ends": None} in [
        {**c, "value": str(c["value"])} for c in b["conditions"]]


def test_pain_and_critical_english(tmp_path):
    path = duo(tmp_path, "dano b 16", "pain b 30", 'critical b "nada"')
    assert who(path, "B")["pending"] is None


def test_refleja_answers_the_moribundo_roll(tmp_path):
    """CSYSTEM §9.4: at the start of the Moribundo's go the CON ND 20 roll: failure → −1."""
    path = duo(tmp_path, "dano b 22 sangrado", "a fin")
    b = who(path, "B")
    assert b["vitality"] == -2 and "moribundo" in conds(path, "B")
    assert b["pending"] == {"roll": "refleja", "nd": 20}
    do(path, "refleja b 12")
    assert who(path, "B")["vitality"] == -3


def test_refleja_success_is_estabilizado(tmp_path):
    path = duo(tmp_path, "dano b 22 sangrado", "a fin", "reflex b 20")
    assert who(path, "B")["vitality"] == -2
    assert "estabilizado" in conds(path, "B")


def test_cura_never_above_the_maximum(tmp_path):
    path = duo(tmp_path, "dano b 5", "cura b 10")
    assert who(path, "B")["vitality"] == 20


def test_heal_back_to_con_ends_herido(tmp_path):
    """CSYSTEM §9.2 Decision: Herido and Malherido end when Vitalidad is back ≥ CON."""
    path = duo(tmp_path, "dano b 16", "dolor b 30", 'critica b "nada"', "heal b 1")
    assert who(path, "B")["vitality"] == 5
    assert "herido" not in conds(path, "B")


def test_energia_spent_above_vol_is_fatigado_and_0_is_exhausto(tmp_path):
    """CSYSTEM §9.6."""
    path = duo(tmp_path, "energia c -3", extra=("alta C des=3 ale=0 con=5 vol=3 energia=10", "iniciativa C 1"))
    assert not conds(path, "C") & {"fatigado", "exhausto"}
    do(path, "energia c -1")
    assert "fatigado" in conds(path, "C")
    do(path, "energy c -6")
    assert who(path, "C")["energy"] == 0
    assert "exhausto" in conds(path, "C") and "fatigado" not in conds(path, "C")


def test_aplomo_half_asks_the_gm(tmp_path):
    """CSYSTEM §9.5: crossing half of Aplomo prompts “¿queda inconsciente? (decide el DJ)”."""
    path = duo(tmp_path, "a ataca c tirada=19 dano=5 tipo=conmocion",
               extra=("alta C des=3 ale=0 con=5 aplomo=10", "iniciativa C 1"))
    c = who(path, "C")
    assert (c["composure"], c["vitality"]) == (5, 20)
    assert c["pending"] is not None
    assert any("¿queda inconsciente?" in line for line in log(path))


def test_aplomo_0_excess_to_vitalidad_unconscious_until_5(tmp_path):
    """CSYSTEM §9.5: at 0 the excess goes to Vitalidad, Inconsciente until Aplomo ≥ 5."""
    path = duo(tmp_path, "dano c 12 conmocion", extra=("alta C des=3 ale=0 con=5 aplomo=10", "iniciativa C 1"))
    c = who(path, "C")
    assert (c["composure"], c["vitality"]) == (0, 18)
    assert "inconsciente" in conds(path, "C")
    do(path, "aplomo c +4")
    assert "inconsciente" in conds(path, "C")
    do(path, "composure c +1")
    assert "inconsciente" not in conds(path, "C")


def test_estado_value_and_positional_duration(tmp_path):
    """SYSTEMS §2.2 `estado NAME +COND[:VALOR] [N]`: the same as `turnos=N` (CSYSTEM §8)."""
    a = duo(tmp_path, "estado b +deslumbrado 2", "cond b +sangrando:2")
    other = tmp_path / "o"
    other.mkdir()
    b = duo(other, "estado b +deslumbrado turnos=2", "estado b +sangrando:2")
    assert who(a, "B")["conditions"] == who(b, "B")["conditions"]
    ids = [c["id"] for c in who(a, "B")["conditions"]]
    assert ids == ["deslumbrado", "sangrando"]
    assert who(a, "B")["conditions"][0]["ends"] is not None


def test_estado_minus_removes(tmp_path):
    path = duo(tmp_path, "estado b +tumbado", "estado b -tumbado")
    assert who(path, "B")["conditions"] == []


def test_a_duration_of_2_ends_at_the_end_of_its_2nd_go(tmp_path):
    """CSYSTEM §8: it ends at the end of the combatant's 2nd turno propio that begins after it
    was gained."""
    path = duo(tmp_path, "estado b +deslumbrado turnos=2", "a fin", "b fin")  # B's 1st go
    assert "deslumbrado" in conds(path, "B")
    do(path, "a fin")
    assert "deslumbrado" in conds(path, "B")
    do(path, "b fin")  # end of B's 2nd go
    assert "deslumbrado" not in conds(path, "B")


def test_municion_sets_rounds_and_ammo_is_english(tmp_path):
    path = build(tmp_path, "municion centella pistola 4")
    assert who(path, "Centella")["weapons"][0]["ammo"] == 4
    do(path, "ammo centella pistola 9")
    assert who(path, "Centella")["weapons"][0]["ammo"] == 9


def test_deshacer_and_rehacer(tmp_path):
    path = build(tmp_path, "centella apuntar", "deshacer")
    assert who(path, "Centella")["aim"] == 0
    do(path, "rehacer")
    assert who(path, "Centella")["aim"] == 2
    do(path, "undo", "redo")
    assert who(path, "Centella")["aim"] == 2


def test_primeros_auxilios_is_complex_and_heals_a_malherido(tmp_path):
    """CSYSTEM §9.7: ND 20, a malherido recovers 1d6."""
    path = duo(tmp_path, "dano b 16", "dolor b 22", 'critica b "nada"', "a primeros-auxilios b tirada=20")
    assert 5 <= who(path, "B")["vitality"] <= 10
    assert who(path, "A")["used"] == ["complex"]


# ====================================================================== SYSTEMS.md §2.3 refusals


def test_refusal_acting_out_of_turn(tmp_path):
    path = build(tmp_path, *TO_SICARIO)
    assert refuse(path, "titan simple") == "No es el turno de Titán: actúa Sicario 1"


def test_refusal_budget_nh1(tmp_path):
    path = build(tmp_path, *TO_TITAN, "titan compleja")
    assert refuse(path, "titan cargar") == "Titán (nivel 1) ya usó su acción compleja: le queda □"


def test_refusal_budget_nh5_two_simple(tmp_path):
    path = build(tmp_path, "centella simple", "centella simple")
    assert refuse(path, "centella apuntar") == "Centella (nivel 5) ya hizo □□: solo le queda □"


def test_refusal_malherido_levantarse(tmp_path):
    path = build(tmp_path, 'estado "Sicario 1" +malherido', 'estado "Sicario 1" +tumbado', *TO_SICARIO)
    assert refuse(path, "sicario levantarse") == (
        "Sicario 1 está Malherido: solo puede hacer una acción simple por turno (levantarse es compleja)")


def test_refusal_the_same_maneuver_twice(tmp_path):
    path = build(tmp_path, "centella apuntar")
    assert refuse(path, "centella apuntar") == (
        "Centella ya ha usado Apuntar este turno: no se pueden usar dos maniobras iguales en el mismo turno")


def test_refusal_cubrirse_in_its_other_form(tmp_path):
    path = build(tmp_path, "centella cubrirse simple")
    assert refuse(path, "centella cubrirse compleja") == (
        "Centella ya ha usado Cubrirse este turno: no se pueden usar dos maniobras iguales en el mismo turno")


def test_refusal_apuntar_max(tmp_path):
    path = build(tmp_path, "centella apuntar", "turno", "centella apuntar", "turno")
    assert refuse(path, "centella apuntar") == "Apuntar: Centella ya tiene el máximo +4 (Percepción 8 − 4)"


def test_refusal_apuntar_per_4(tmp_path):
    path = build(tmp_path, *TO_SICARIO)
    assert refuse(path, "sicario apuntar") == "Apuntar: Percepción 4 no da bono (máximo Percepción − 4 = 0)"


def test_refusal_apuntar_needs_a_ranged_weapon(tmp_path):
    path = build(tmp_path, cast=("alta X des=3 ale=2 con=5 per=8", "arma X espada", "iniciativa X 10"))
    assert refuse(path, "x apuntar") == "Apuntar necesita un arma a distancia"


@pytest.mark.parametrize("condition", ["Fatigado", "Exhausto", "Enredado"])
def test_refusal_cargar_not_allowed(tmp_path, condition):
    path = build(tmp_path, *TO_TITAN, f"estado titan +{condition.lower()}")
    assert refuse(path, "titan cargar a sicario") == f"Titán está {condition}: no puede cargar"


def test_refusal_a_second_shot_with_a_fuego_simple_weapon(tmp_path):
    path = build(tmp_path, "centella ataca ruina tirada=5 arma=revólver",
                 cast=(*CAST, "arma Centella revólver modos=simple cargador=6", *INITS))
    assert refuse(path, "centella ataca ruina tirada=5 arma=revólver") == (
        "El revólver es de fuego simple: solo un disparo por turno")


def test_refusal_rafaga_larga_needs_an_automatic_weapon(tmp_path):
    path = build(tmp_path)
    assert refuse(path, "centella rafaga-larga a ruina") == "Ráfaga larga necesita un arma automática"


def test_refusal_rafaga_corta_needs_8_rounds(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "municion sicario subfusil 5")
    assert refuse(path, "sicario rafaga-corta a titan") == "Ráfaga corta necesita 8 balas (le quedan 5)"


def test_refusal_fuego_automatico_pesado_75_percent(tmp_path):
    path = build(tmp_path, cast=(*CAST, "arma Centella minigun modos=fa,pesado cargador=30 municion=10", *INITS))
    assert refuse(path, "centella fuego-automatico-pesado arma=minigun") == (
        "Fuego automático pesado necesita al menos el 75 % (23 de 30; quedan 10)")


def test_refusal_firing_empty(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "municion sicario subfusil 0")
    assert refuse(path, "sicario ataca titan tirada=5") == "El subfusil de Sicario 1 no tiene munición: recarga"


def test_refusal_lowering_after_acting(tmp_path):
    path = build(tmp_path, "centella simple")
    assert refuse(path, "centella retrasa final") == "Centella ya ha actuado este turno: no puede retrasarse"


def test_refusal_lowering_behind_an_earlier_one(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina fin", "sicario fin", "titan fin")  # turn 2, Centella
    do(path, "centella fin")
    assert refuse(path, "ruina retrasa tras centella") == "Retrasarse: Centella no actúa después de Ruina"


def test_refusal_esquivar_ended_the_go(tmp_path):
    """The go ends after Esquivar: with budget left, the next action of the same combatant is
    refused by the Esquivar line (the go is over)."""
    path = build(tmp_path, *TO_RUINA, "ruina esquivar 5")
    assert refuse(path, "ruina mover") == "Ruina usó Esquivar/Bloquear: su turno ha terminado"


def test_refusal_a_second_primeros_auxilios(tmp_path):
    path = build(tmp_path, "centella primeros-auxilios sicario tirada=10", "centella fin")
    assert refuse(path, 'ruina primeros-auxilios "Sicario 1" tirada=25') == (
        "Sicario 1 ya recibió primeros auxilios en las últimas 24 horas")


def test_refusal_an_action_by_someone_out(tmp_path):
    path = build(tmp_path, *TO_TITAN, "dano titan 28 sangrado")
    assert "inconsciente" in conds(path, "Titán")
    assert refuse(path, "titan simple") in {"Titán está inconsciente: no puede actuar",
                                            "No es el turno de Titán: actúa Centella"}


def test_refusals_are_one_line_and_exit_1(tmp_path):
    path = build(tmp_path)
    for line in ("titan simple", "centella vuela", "estado", "dolor centella 10"):
        message = refuse(path, line)
        assert message and "\n" not in message


def test_warning_rounds_beyond_cad_keeps_the_command(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario rafaga-corta a titan tirada=5",
                 cast=(*CAST[:5], 'arma "Sicario 1" subfusil modos=fa cargador=30 cad=5', *CAST[6:], *INITS))
    assert who(path, "Sicario 1")["weapons"][0]["ammo"] == 22


def test_warning_an_apresado_attacking_keeps_the_command(tmp_path):
    path = duo(tmp_path, "estado a +apresado", "a ataca b tirada=24 dano=6")
    assert who(path, "B")["vitality"] == 16


# ====================================================================== SYSTEMS.md §2.4 JSON


def test_json_left_is_a_list_of_complex_simple_pairs(tmp_path):
    """«`[[1,0],[0,1]]` = "■ o □"»: NH 1 after □."""
    path = build(tmp_path, *TO_TITAN, "titan simple")
    assert who(path, "Titán")["left"] == [[1, 0], [0, 1]]


def test_json_used_in_order(tmp_path):
    path = build(tmp_path, "centella simple", "centella compleja")
    assert who(path, "Centella")["used"] == ["simple", "complex"]


def test_json_fired_counts_the_rounds_of_the_current_turn(tmp_path):
    path = build(tmp_path, "centella ataca ruina tirada=5", "centella ataca ruina tirada=5")
    assert who(path, "Centella")["weapons"][0]["fired"] == 2
    assert who(path, "Centella")["weapons"][0]["ammo"] == 13
    do(path, "turno")
    assert who(path, "Centella")["weapons"][0]["fired"] == 0


def test_json_temporary_defense_changes_are_not_conditions(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina esquivar 5", "sicario fin", "titan cargar a sicario")
    assert who(path, "Ruina")["conditions"] == [] and who(path, "Titán")["conditions"] == []
    assert who(path, "Titán")["defense"]["melee"] == 17


def test_json_acted_and_place(tmp_path):
    path = build(tmp_path, *TO_SICARIO)
    assert [who(path, n)["acted"] for n in ("Centella", "Ruina", "Sicario 1", "Titán")] == [True, True, False, False]
    assert state(path)["actor"] == "Sicario 1"


def test_json_ensordecido_shows_in_initiative_and_conditions(tmp_path):
    path = build(tmp_path, *TO_RUINA, "estado centella +ensordecido")
    c = who(path, "Centella")
    assert c["initiative"] == 17 and c["place"] == 3
    assert c["conditions"] == [{"id": "ensordecido", "value": None, "ends": None}]
    assert state(path)["order"] == ["Ruina", "Sicario 1", "Centella", "Titán"]


def test_json_shared_fields_are_first(tmp_path):
    """SYSTEMS §4: `state_json` per system with the shared fields first."""
    path = build(tmp_path)
    keys = list(state(path))
    assert keys[:1] == ["schema"]
    first = list(state(path)["combatants"][0])
    assert first[:3] == ["name", "side", "hidden"]


# ====================================================================== CSYSTEM.md §4.3 what is left


LEFT = [
    (1, "", [[1, 1], [0, 2]]), (1, "s", [[1, 0], [0, 1]]), (1, "c", [[0, 1]]), (1, "ss", []), (1, "cs", []),
    (5, "", [[2, 0], [1, 1], [0, 3]]), (5, "s", [[1, 0], [0, 2]]), (5, "c", [[1, 0], [0, 1]]),
    (5, "ss", [[0, 1]]), (5, "sss", []), (5, "cs", []), (5, "cc", []),
    (9, "", [[2, 1], [1, 2], [0, 4]]), (9, "s", [[2, 0], [1, 1], [0, 3]]), (9, "c", [[1, 1], [0, 2]]),
    (9, "ss", [[1, 0], [0, 2]]), (9, "cs", [[1, 0], [0, 1]]), (9, "cc", [[0, 1]]), (9, "sss", [[0, 1]]),
    (9, "css", []), (9, "ccs", []), (9, "ssss", []),
]


@pytest.mark.parametrize(("level", "used", "left"), LEFT, ids=[f"nh{a}-{b or 'none'}" for a, b, _ in LEFT])
def test_what_is_left_after_each_action(tmp_path, level, used, left):
    lines = [{"c": "x compleja", "s": "x simple"}[u] for u in used]
    path = build(tmp_path, *lines, cast=(f"alta X nh={level} des=3 ale=2 con=5", "alta Y des=1 ale=0 con=5",
                                         "iniciativa X 10", "iniciativa Y 1"))
    assert who(path, "X")["left"] == left
    assert state(path)["actor"] == ("Y" if not left else "X")


@pytest.mark.parametrize(("level", "used", "then"), [
    (1, "c", "c"), (5, "ss", "c"), (9, "sss", "c"), (9, "cc", "c")])
def test_an_action_is_accepted_only_when_used_plus_it_is_legal(tmp_path, level, used, then):
    """CSYSTEM §4.3: «An action is accepted when (used + it) is legal; otherwise it is refused»;
    `then` is accepted but its last action is refused."""
    word = {"c": "x compleja", "s": "x simple"}
    path = build(tmp_path, *(word[u] for u in used), *(word[u] for u in then[:-1]),
                 cast=(f"alta X nh={level} des=3 ale=2 con=5", "alta Y des=1 ale=0 con=5",
                       "iniciativa X 10", "iniciativa Y 1"))
    assert state(path)["actor"] == "X"
    message = refuse(path, word[then[-1]])
    assert message.startswith(f"X (nivel {level}) ")


# ====================================================================== CSYSTEM.md §3 initiative


def test_ties_higher_des_first_then_alerta_then_roster(tmp_path):
    path = build(tmp_path, cast=("alta P des=3 ale=2 con=5", "alta Q des=4 ale=1 con=5", "alta R des=4 ale=3 con=5",
                                 "iniciativa P 10", "iniciativa Q 10", "iniciativa R 10"), start=False)
    assert state(path)["order"] == ["R", "Q", "P"]


def test_a_gm_change_of_value_is_re_placed_after_the_last_with_at_least_it(tmp_path):
    """CSYSTEM §3.5/§3.6: placed after the last combatant whose initiative is ≥ its new value."""
    path = build(tmp_path, "iniciativa Titán 22")
    assert state(path)["order"] == ["Centella", "Ruina", "Titán", "Sicario 1"]


def test_losing_ensordecido_gives_5_back(tmp_path):
    path = build(tmp_path, *TO_RUINA, "estado centella +ensordecido", "estado centella -ensordecido")
    assert who(path, "Centella")["initiative"] == 22
    # re-placed by the same rule: after the last with ≥ 22 (Ruina); ties stay ahead of her
    assert state(path)["order"] == ["Ruina", "Centella", "Sicario 1", "Titán"]


def test_the_lowered_keeps_its_value_if_the_followed_one_moves_later(tmp_path):
    """SYSTEMS §2.4: «the lowered combatant keeps the value it took, so if the followed one
    moves later, the order stays by value»."""
    path = build(tmp_path, "centella retrasa tras sicario", "ruina fin", "sicario fin",
                 "estado sicario +ensordecido")
    assert who(path, "Centella")["initiative"] == 18
    assert who(path, "Sicario 1")["initiative"] == 13
    order = state(path)["order"]
    assert order.index("Centella") < order.index("Titán") < order.index("Sicario 1")


def test_a_newcomer_before_the_actor_has_its_first_go_next_turn(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "alta Nuevo des=3 ale=2 con=5", "iniciativa Nuevo 30",
                 "sicario fin", "titan fin")
    assert state(path)["turn"] == 2 and state(path)["actor"] == "Nuevo"


# ====================================================================== CSYSTEM.md §5–§6 numbers


def test_apuntar_caps_at_per_minus_4_odd_last_step_adds_1(tmp_path):
    path = build(tmp_path, "ruina apuntar", "turno", "ruina apuntar",
                 cast=(*CAST[:6], "alta Ruina nh=9 des=5 ale=6 per=7 con=6 rd=3",
                       "arma Ruina rifle modos=sa cargador=10", "iniciativa Ruina 30", *INITS[2:],
                       "iniciativa Centella 22"))
    assert who(path, "Ruina")["aim"] == 3


def test_the_aim_bonus_is_used_up_by_the_next_ranged_attack(tmp_path):
    path = build(tmp_path, "centella apuntar", "centella ataca ruina tirada=31 dano=7")
    assert who(path, "Centella")["aim"] == 0
    assert who(path, "Ruina")["vitality"] == 43


def test_esquivar_without_a_number_rolls_1d10(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina esquivar")
    assert 30 <= who(path, "Ruina")["defense"]["melee"] <= 39


def test_esquivar_shield_counts_twice(tmp_path):
    path = build(tmp_path, "x esquivar 5", cast=("alta X des=3 ale=2 con=5 escudo=2", "alta Y des=1 ale=0 con=5",
                                                "iniciativa X 10", "iniciativa Y 1"))
    assert who(path, "X")["defense"]["melee"] == 15 + 3 + 1 + 4 + 5


def test_esquivar_lasts_until_the_start_of_its_next_go(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina esquivar 5", "sicario fin", "titan fin")
    assert who(path, "Ruina")["defense"]["melee"] == 34  # turn 2, Centella acting
    do(path, "centella fin")
    assert who(path, "Ruina")["defense"]["melee"] == 29


def test_cargar_minus_2_lasts_until_the_start_of_its_next_go(tmp_path):
    path = build(tmp_path, *TO_TITAN, "titan cargar a sicario", "titan fin", "centella fin", "ruina fin")
    assert who(path, "Titán")["defense"]["melee"] == 17
    do(path, "sicario fin")
    assert who(path, "Titán")["defense"]["melee"] == 19


@pytest.mark.parametrize(("conditions", "melee", "ranged"), [
    ((), 21, 21),
    (("herido",), 19, 19),
    (("herido", "fatigado"), 17, 17),
    (("herido", "malherido"), 17, 17),
    (("malherido", "exhausto"), 16, 16),
    (("desprevenido",), 19, 19),
    (("indefenso",), 16, 16),
    (("sujeto",), 16, 16),
    (("apresado",), 16, 16),
    (("cegado",), 18, 18),
    (("aterrado",), 17, 17),
    (("tumbado",), 19, 23),
    (("a-cubierto:parcial",), 21, 24),
    (("a-cubierto:casi-completa",), 21, 26),
    (("inconsciente",), 14, 18),
    (("paralizado",), 16, 16),
])
def test_defensa_is_15_plus_effective_des_plus_nh_plus_modifiers(tmp_path, conditions, melee, ranged):
    """CSYSTEM §6.2, with DES 5 and NH 1 (21)."""
    path = build(tmp_path, *(f"estado x +{c}" for c in conditions),
                 cast=("alta X des=5 ale=2 con=5", "alta Y des=1 ale=0 con=5", "iniciativa X 10", "iniciativa Y 1"),
                 start=False)
    assert who(path, "X")["defense"] == {"ranged": ranged, "melee": melee}


def test_indice_and_damage(tmp_path):
    """§6.3/§6.4: ⌊(total − Defensa)/2⌋ + damage − RD, equal hits with 0, below 0 counts 0."""
    path = duo(tmp_path, "a ataca b tirada=19 dano=6")
    assert who(path, "B")["vitality"] == 18
    other = tmp_path / "miss"
    other.mkdir()
    path = duo(other, "a ataca b tirada=18 dano=30")
    assert who(path, "B")["vitality"] == 20
    other = tmp_path / "zero"
    other.mkdir()
    path = duo(other, "a ataca b tirada=19 dano=1")
    assert who(path, "B")["vitality"] == 20


def test_conmocion_goes_to_aplomo_no_rd(tmp_path):
    path = duo(tmp_path, "a ataca c tirada=19 dano=3 tipo=conmocion",
               extra=("alta C des=3 ale=0 con=5 aplomo=10 rd=4", "iniciativa C 1"))
    c = who(path, "C")
    assert (c["composure"], c["vitality"]) == (7, 20)


def test_cover_rd_against_ranged(tmp_path):
    """§5.2 a-cubierto:parcial +3 Defensa and 3 RD against ranged; §6.5 subtracted first."""
    path = duo(tmp_path, "estado b +a-cubierto:parcial", "a ataca b tirada=22 dano=10 arma=pistola")
    assert who(path, "B")["vitality"] == 20 - (0 + 10 - 3 - 4)


def test_rafaga_corta_on_an_odd_magazine_rounds_up(tmp_path):
    path = build(tmp_path, *TO_SICARIO, "sicario rafaga-corta a titan",
                 cast=(*CAST[:5], 'arma "Sicario 1" subfusil modos=fa cargador=25', *CAST[6:], *INITS))
    assert who(path, "Sicario 1")["weapons"][0]["ammo"] == 25 - 7


def test_fuego_automatico_pesado_empties_the_magazine(tmp_path):
    path = build(tmp_path, "centella fuego-automatico-pesado arma=minigun",
                 cast=(*CAST, "arma Centella minigun modos=fa,pesado cargador=30 municion=25", *INITS))
    weapon = who(path, "Centella")["weapons"][1]
    assert weapon["ammo"] == 0 and weapon["fired"] == 25


# ====================================================================== CSYSTEM.md §9 health


@pytest.mark.parametrize(("amount", "condition"), [(20, "inconsciente"), (21, "moribundo"), (30, "moribundo"),
                                                     (31, "muerto")])
def test_vitalidad_0_inconsciente_minus_1_to_10_moribundo_below_minus_10_muerto(tmp_path, amount, condition):
    path = duo(tmp_path, f"a ataca b tirada=19 dano={amount + 4}")
    assert who(path, "B")["vitality"] == 20 - amount
    assert condition in conds(path, "B")


def test_an_attack_on_an_unconscious_at_0_kills(tmp_path):
    path = duo(tmp_path, "dano b 20 sangrado", "a ataca b tirada=19 dano=5")
    assert "muerto" in conds(path, "B")


def test_sangrando_deals_n_at_the_start_of_its_go(tmp_path):
    path = duo(tmp_path, "estado b +sangrando:2", "a fin")
    assert who(path, "B")["vitality"] == 18
    assert who(path, "B")["pending"] is None


def test_sangrando_keeps_the_largest(tmp_path):
    """CSYSTEM §10 step 3: «Los efectos de sangrado no se apilan … aplica el más perjudicial»:
    the tracker keeps the largest N."""
    path = duo(tmp_path, "estado b +sangrando:1", "estado b +sangrando:3")
    cdbtui("do", str(path), "estado b +sangrando:2")  # refused or ignored: 3 stays
    do(path, "a fin")
    assert who(path, "B")["vitality"] == 17


def test_a_critical_result_with_a_smaller_bleeding_keeps_the_largest(tmp_path):
    """§10 step 3 through `critica NAME TEXTO +sangrando:N` (SYSTEMS §2.2)."""
    path = duo(tmp_path, "estado b +sangrando:3", "dano b 16", "dolor b 30", 'critica b "corte" +sangrando:1')
    bleed = [c for c in who(path, "B")["conditions"] if c["id"] == "sangrando"]
    assert [str(c["value"]) for c in bleed] == ["3"]
    do(path, "a fin")
    assert who(path, "B")["vitality"] == 4 - 3


def test_every_later_hit_below_con_repeats_the_critical(tmp_path):
    path = duo(tmp_path, "dano b 16", "dolor b 30", 'critica b "nada"', "dano b 1")
    b = who(path, "B")
    assert b["criticals"] == 2 and b["pending"] == {"roll": "dolor", "nd": 11}


def test_a_robot_at_0_is_inutilizado(tmp_path):
    path = duo(tmp_path, "dano c 20", extra=("alta C des=3 ale=0 con=5 rasgos=robot", "iniciativa C 1"))
    assert "inutilizado" in conds(path, "C")


# ====================================================================== CSYSTEM.md §4.1 / §10 turns


def test_the_last_go_ends_the_turn_and_the_next_starts_by_itself(tmp_path):
    path = build(tmp_path, *TO_TITAN, "titan fin")
    data = state(path)
    assert (data["turn"], data["actor"]) == (2, "Centella")


def test_who_cannot_act_still_gets_its_go_and_it_ends_at_once(tmp_path):
    path = build(tmp_path, "estado ruina +aterrado", "centella fin")
    assert state(path)["actor"] == "Sicario 1"
    assert who(path, "Ruina")["acted"] is True


def test_nothing_carries_over(tmp_path):
    path = build(tmp_path, "centella simple", "turno")
    assert who(path, "Centella")["left"] == [[2, 0], [1, 1], [0, 3]]


def test_the_same_maneuver_again_next_turn(tmp_path):
    path = build(tmp_path, "centella cubrirse simple", "turno", "centella levantarse", "centella cubrirse simple")
    assert "tumbado" in conds(path, "Centella")


# ====================================================================== SYSTEMS.md §2.1 the sheet


def test_the_board_header_names_the_actor_its_place_and_who_is_next(tmp_path):
    path = build(tmp_path)
    first = cdbtui("show", str(path)).stdout.splitlines()[0].strip()
    assert first == "pelea · C-System · Turno 1 · Actúa: Centella (1.º de 4) · luego: Ruina"


def test_the_board_marks_ensordecido_and_tras(tmp_path):
    path = build(tmp_path, *TO_RUINA, "estado centella +ensordecido")
    text = cdbtui("show", str(path)).stdout
    assert re.search(r"17 +↓5 +Centella", text), text
    other = tmp_path / "t"
    other.mkdir()
    path = build(other, "centella retrasa tras titan")
    text = cdbtui("show", str(path)).stdout
    assert "(tras Titán)" in text, text


def test_the_board_marks_the_actor_and_who_acted(tmp_path):
    path = build(tmp_path, "centella fin")
    rows = cdbtui("show", str(path)).stdout.splitlines()
    assert any(r.startswith("▶2") and "Ruina" in r for r in rows)
    assert any("Centella" in r and "✓" in r for r in rows)


# ====================================================================== COMMANDS.md shared CLI


def test_do_dash_reads_lines_from_stdin(tmp_path):
    path = build(tmp_path)
    result = cdbtui("do", str(path), "-", stdin="centella apuntar\ncentella fin\n")
    assert result.returncode == 0, result.stderr
    assert who(path, "Centella")["aim"] == 2 and state(path)["actor"] == "Ruina"


def test_do_stops_at_the_first_refusal_keeps_the_earlier(tmp_path):
    path = build(tmp_path)
    result = cdbtui("do", str(path), "centella apuntar", "titan simple", "centella fin")
    assert result.returncode == 1
    assert "«titan simple»" in result.stderr
    assert who(path, "Centella")["aim"] == 2 and state(path)["actor"] == "Centella"


def test_show_an_unreadable_file_is_exit_2(tmp_path):
    result = cdbtui("show", str(tmp_path / "nada.toml"), "--json")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_names_case_insensitive_and_unique_prefix(tmp_path):
    path = build(tmp_path, "CENTELLA fin", "rui fin", '"sicario 1" fin', "tit simple")
    assert who(path, "Titán")["used"] == ["simple"]


def test_baja_removes_and_revelar_shows(tmp_path):
    path = build(tmp_path, "alta Sombra des=3 ale=2 con=5 oculto", "revelar Sombra", start=True,
                 cast=(*CAST, *INITS))
    assert who(path, "Sombra")["hidden"] is False
    do(path, "baja Sombra")
    assert all(c["name"] != "Sombra" for c in state(path)["combatants"])


def test_show_json_is_valid_json_with_the_log(tmp_path):
    path = build(tmp_path, "centella apuntar")
    data = json.loads(cdbtui("show", str(path), "--json").stdout)
    assert any(line.startswith("T1 · Centella") for line in data["log"])


def _list_rows(path: Path) -> dict[str, str]:
    from cdbtui.store import load
    from cdbtui.view.cslist import Kind, build_list

    return {line.name: line.text for line in build_list(load(path).fight).lines if line.kind is Kind.ROW}


def test_the_list_marks_a_pending_start_of_turn_effect_with_the_loop_mark(tmp_path):
    """SYSTEMS §2.1 marks: «`⟳` before a name: a start-of-turn effect is pending (sangrando,
    moribundo's roll, confuso, waking roll)» — the TUI's list as well as `show`."""
    path = build(tmp_path, "estado titan +sangrando:1", "estado ruina +confuso")
    board = cdbtui("show", str(path)).stdout
    assert "⟳ Titán" in board and "⟳ Ruina" in board
    rows = _list_rows(path)
    assert "⟳Titán" in rows["Titán"] and "⟳Ruina" in rows["Ruina"]
    assert "⟳" not in rows["Centella"] and "⟳" not in rows["Sicario 1"]


def test_the_loop_mark_goes_once_the_effect_happened(tmp_path):
    path = build(tmp_path, "estado ruina +confuso", "centella fin", "ruina fin")
    assert "⟳" not in _list_rows(path)["Ruina"]


def test_maniobras_lists_the_c_system_catalog(tmp_path):
    """SYSTEMS §4: the catalog loader is shared, `csystem.toml` rows; `cdbtui maniobras RUTA` (the
    CLI's help: «las maniobras de esa partida») for a C-System fight."""
    path = build(tmp_path)
    result = cdbtui("maniobras", str(path))
    assert result.returncode == 0, result.stderr
    for id in ("apuntar", "cargar", "cubrirse", "derribar", "desarmar", "esquivar", "presa",
               "disparo-en-combate", "rafaga-corta", "rafaga-larga", "fuego-automatico-pesado"):
        assert id in result.stdout
