"""CSYSTEM.md §12 (two turns on a rooftop) played through the shell, row by row.

The fight is made with `cdbtui new PATH --rules csystem`, then every line of
/tmp/cs/SYNTAX.md's script goes through its own `cdbtui do PATH LINE`, and after
each one `cdbtui show PATH --json` is read.  The module fixture plays the script
once and keeps, per row, the exit, stderr, the save's bytes before and after and the
JSON; each test checks one row against what the spec's table says (SYSTEMS.md §2.4
for the JSON's shape: `left` as `[complex, simple]` pairs in the order the sheet
writes them, "■■ o ■□ o □□□" = [[2, 0], [1, 1], [0, 3]]).

The end-of-turn tables show the values just before the next turn starts by itself
(CSYSTEM §4.1), so turn 1's table is checked after row 10 (before row 11's line) and
turn 2's after row 24 (turn 3 has begun, with Ruina's go: nothing of his changes at
its start).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pytest
from shell import cdbtui

#: The cast, the initiatives and `empezar` (SYNTAX.md's script, before row 2).
SETUP = (
    "alta Centella bando=pj nh=5 des=6 ale=4 per=8 con=5 rd=3",
    "arma Centella pistola modos=sa cargador=15 dano=2d6",
    "alta Titán bando=pj nh=1 des=3 ale=2 per=4 con=7 rd=2",
    "arma Titán puños dano=3d6",
    'alta "Sicario 1" nh=1 des=4 ale=3 per=4 con=4 rd=2',
    'arma "Sicario 1" subfusil modos=fa cargador=30 dano=2d6',
    'alta "Doctor Ruina" nh=9 des=5 ale=6 per=7 con=6 rd=3',
    'arma "Doctor Ruina" rayo distancia dano=3d6',
    "iniciativa Centella 22",
    'iniciativa "Doctor Ruina" 22',
    'iniciativa "Sicario 1" 18',
    "iniciativa Titán 14",
    "empezar",
)

MALHERIDO_17 = ("Sicario 1 está Malherido: solo puede hacer una acción simple por turno "
                "(levantarse es compleja)")
APUNTAR_23 = ("Centella ya ha usado Apuntar este turno: no se pueden usar dos maniobras "
              "iguales en el mismo turno")

#: (row, line, the refusal the spec gives or None).  Rows with a letter are the
#: extra lines of a row (the ensordecido of row 4, the answers to row 9's prompts…).
SCRIPT = (
    ("2", "centella apuntar", None),
    ("3", "centella ataca ruina tirada=31 dano=7", None),
    ("4", "ruina ataca centella tirada=30 dano=9 tipo=energia", None),
    ("4b", "estado centella +ensordecido", None),
    ("5", "ruina mover", None),
    ("6", "ruina esquivar 5", None),
    ("7", "sicario rafaga-corta a titan tirada=20 dano=6+4", None),
    ("8", "sicario cubrirse simple", None),
    ("9", "titan cargar a sicario tirada=21 dano=14", None),
    ("9b", "dolor sicario 20", None),
    ("9c", 'critica sicario "corte profundo" +sangrando:1', None),
    ("10", "titan cargar", "Titán (nivel 1) ya usó su acción compleja: le queda □"),
    ("11", 'titan simple "¡Centella, cúbreme!"', None),
    ("13", "ruina ataca titan tirada=31 dano=9 tipo=energia", None),
    ("13b", "dolor titan 25", None),
    ("14", "ruina ataca titan tirada=22 dano=4 tipo=energia", None),
    ("14b", "dolor titan 13", None),
    ("15", "ruina mover", None),
    ("17", "sicario levantarse", MALHERIDO_17),
    ("18", 'sicario simple "pide refuerzos por radio"', None),
    ("19", "centella retrasa tras titan", None),
    ("21", "titan cubrirse simple", None),
    ("22", "centella apuntar", None),
    ("23", "centella apuntar", APUNTAR_23),
    ("24", "centella ataca ruina tirada=29 dano=8", None),
)

NH5_MENU = [[2, 0], [1, 1], [0, 3]]    # ■■ o ■□ o □□□
NH9_MENU = [[2, 1], [1, 2], [0, 4]]    # ■■□ o ■□□ o □□□□
NH1_MENU = [[1, 1], [0, 2]]            # ■□ o □□
C, S = "complex", "simple"


class Row(NamedTuple):
    line: str
    returncode: int
    stderr: str
    before: bytes
    after: bytes
    state: dict


class Played(NamedTuple):
    rows: dict[str, Row]
    #: Why the script stopped early: (row, line, what happened), or None.
    broken: tuple[str, str, str] | None


def show(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    """The script, one `cdbtui do` per line, stopping at the first line whose outcome
    is not the spec's (later rows then fail as "not reached", naming that line)."""
    path = tmp_path_factory.mktemp("azotea") / "azotea.toml"
    made = cdbtui("new", str(path), "--rules", "csystem")
    if made.returncode != 0:
        return Played({}, ("new", f"new {path.name} --rules csystem",
                           f"exit {made.returncode}: {made.stderr.strip()}"))
    for line in SETUP:
        result = cdbtui("do", str(path), line)
        if result.returncode != 0:
            return Played({}, ("setup", line, f"exit {result.returncode}: {result.stderr.strip()}"))
    rows = {"1": Row("empezar", 0, "", b"", path.read_bytes(), show(path))}
    for key, line, refusal in SCRIPT:
        before = path.read_bytes()
        result = cdbtui("do", str(path), line)
        after = path.read_bytes()
        rows[key] = Row(line, result.returncode, result.stderr, before, after, show(path))
        expected = 0 if refusal is None else 1
        if result.returncode != expected:
            return Played(rows, (key, line, f"exit {result.returncode} (expected {expected}): "
                                            f"{result.stderr.strip()}"))
    return Played(rows, None)


def at(played: Played, key: str) -> dict:
    """The JSON after row `key` (fails naming the line that stopped the script)."""
    if key not in played.rows:
        row, line, what = played.broken or ("?", "?", "?")
        pytest.fail(f"row {key} not reached: row {row} «{line}» gave {what}")
    return played.rows[key].state


def who(state: dict, name: str) -> dict:
    found = [c for c in state["combatants"] if c["name"] == name]
    assert len(found) == 1, (name, [c["name"] for c in state["combatants"]])
    return found[0]


def ids(fighter: dict) -> set[str]:
    return {c["id"] for c in fighter["conditions"]}


def weapon(fighter: dict, name: str) -> dict:
    found = [w for w in fighter["weapons"] if w["name"] == name]
    assert len(found) == 1, (name, fighter["weapons"])
    return found[0]


def defense(fighter: dict) -> tuple[int, int]:
    return fighter["defense"]["ranged"], fighter["defense"]["melee"]


def pending(fighter: dict) -> tuple | None:
    p = fighter["pending"]
    return None if p is None else (p.get("roll"), p.get("nd"))


# ------------------------------------------------------------------ the script itself


def test_every_line_of_the_script_has_the_outcome_of_the_spec(played):
    assert played.broken is None, played.broken
    for key, line, refusal in SCRIPT:
        row = played.rows[key]
        assert row.returncode == (0 if refusal is None else 1), (key, line, row.stderr)
        if refusal is None:
            assert row.after != row.before, f"row {key} «{line}» saved nothing"


@pytest.mark.parametrize(("key", "line", "message"),
                         [(k, line, m) for k, line, m in SCRIPT if m is not None],
                         ids=[f"row{k}" for k, _, m in SCRIPT if m is not None])
def test_refused_rows_say_the_spec_line_and_leave_the_save_byte_for_byte(played, key, line,
                                                                         message):
    at(played, key)
    row = played.rows[key]
    assert row.returncode == 1
    assert row.stderr == f"cdbtui: «{line}»: {message}\n"
    assert row.after == row.before


# ------------------------------------------------------------------ turn 1


def test_row_01_ties_at_22_go_to_the_higher_des_and_centella_opens_with_the_nh5_menu(played):
    """§3.1/§3.3: Centella 22 and Ruina 22, DES 6 > 5; §4.3: NH 5 starts with ■■ o ■□ o □□□;
    §2: Vitalidad defaults to CON × 4 + 3 × (NH − 1); §6.2: Defensa = 15 + DES + NH."""
    state = at(played, "1")
    assert state["rules"] == "csystem"
    assert (state["turn"], state["turn_over"], state["actor"]) == (1, False, "Centella")
    assert state["order"] == ["Centella", "Doctor Ruina", "Sicario 1", "Titán"]
    table = {  # name: (initiative, place, vitality, vitality_max, defense, level)
        "Centella": (22, 1, 32, 32, 26, 5),
        "Doctor Ruina": (22, 2, 48, 48, 29, 9),
        "Sicario 1": (18, 3, 16, 16, 20, 1),
        "Titán": (14, 4, 28, 28, 19, 1),
    }
    for name, (ini, place, pv, pv_max, defensa, level) in table.items():
        f = who(state, name)
        assert (f["initiative"], f["place"], f["after"]) == (ini, place, None), name
        assert (f["vitality"], f["vitality_max"]) == (pv, pv_max), name
        assert defense(f) == (defensa, defensa), name
        assert f["level"] == level, name
        assert (f["acted"], f["used"], f["maneuvers"]) == (False, [], []), name
        assert (f["aim"], f["criticals"], f["pending"], f["conditions"]) == (0, 0, None, []), name
    assert who(state, "Centella")["left"] == NH5_MENU
    pistola = weapon(who(state, "Centella"), "pistola")
    assert (pistola["ammo"], pistola["magazine"], pistola["mode"], pistola["fired"]) == (15, 15, "sa", 0)
    subfusil = weapon(who(state, "Sicario 1"), "subfusil")
    assert (subfusil["ammo"], subfusil["magazine"], subfusil["mode"]) == (30, 30, "fa")


def test_row_02_apuntar_is_complex_and_adds_2_under_the_cap_per_minus_4(played):
    state = at(played, "2")
    centella = who(state, "Centella")
    assert centella["aim"] == 2
    assert (centella["used"], centella["left"], centella["maneuvers"]) == ([C], [[1, 0], [0, 1]],
                                                                           ["apuntar"])
    assert (state["actor"], centella["acted"]) == ("Centella", False)


def test_row_03_a_hit_at_31_vs_29_deals_indice_1_plus_7_minus_rd_3_and_uses_aim_and_a_round(played):
    """§6.3 Índice ⌊2/2⌋ = 1; §6.4 damage 1 + 7 − 3 = 5 (pistola: balístico); §5.2 the aim
    is used up; §7 one round.  Nothing is left: her go ends and Ruina's begins."""
    state = at(played, "3")
    centella, ruina = who(state, "Centella"), who(state, "Doctor Ruina")
    assert ruina["vitality"] == 43 and ruina["pending"] is None and ruina["criticals"] == 0
    assert centella["aim"] == 0
    pistola = weapon(centella, "pistola")
    assert (pistola["ammo"], pistola["fired"]) == (14, 1)
    assert (centella["used"], centella["left"], centella["acted"]) == ([C, C], [], True)
    assert state["actor"] == "Doctor Ruina"
    assert (ruina["left"], ruina["used"], ruina["acted"]) == (NH9_MENU, [], False)


def test_row_04_a_power_attack_is_one_complex_action_and_energia_rd_applies(played):
    """30 vs 26: Índice 2; 2 + 9 − 3 = 8 energía; 24 ≥ CON 5: no Herido, no prompt."""
    state = at(played, "4")
    centella, ruina = who(state, "Centella"), who(state, "Doctor Ruina")
    assert centella["vitality"] == 24
    assert (centella["pending"], centella["criticals"], ids(centella)) == (None, 0, set())
    assert (ruina["used"], ruina["left"], state["actor"]) == ([C], NH1_MENU, "Doctor Ruina")
    assert ruina["maneuvers"] == []


def test_ensordecido_lowers_initiative_at_once_and_replaces(played):
    """§3.5: −5 at once, placed after the last with ≥ 17; she already acted this turn, so
    she gets no second go, and Ruina's go goes on untouched (row 4)."""
    state = at(played, "4b")
    centella = who(state, "Centella")
    assert ids(centella) == {"ensordecido"}
    assert (centella["initiative"], centella["place"], centella["acted"]) == (17, 3, True)
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    assert [who(state, n)["place"] for n in state["order"]] == [1, 2, 3, 4]
    ruina = who(state, "Doctor Ruina")
    assert (state["actor"], ruina["used"], ruina["left"]) == ("Doctor Ruina", [C], NH1_MENU)


def test_row_05_mover_half_is_a_simple_action(played):
    ruina = who(at(played, "5"), "Doctor Ruina")
    assert (ruina["used"], ruina["left"]) == ([C, S], [[1, 0], [0, 1]])


def test_row_06_esquivar_choosing_5_adds_5_to_defensa_and_ends_the_go(played):
    state = at(played, "6")
    ruina = who(state, "Doctor Ruina")
    assert defense(ruina) == (34, 34)
    assert (ruina["used"], ruina["left"], ruina["acted"]) == ([C, S, C], [], True)
    assert ruina["maneuvers"] == ["esquivar"]
    assert ruina["conditions"] == []  # a temporary Defensa change is not a condition (§2.4)
    assert state["actor"] == "Sicario 1"
    assert who(state, "Sicario 1")["left"] == NH1_MENU


def test_row_07_rafaga_corta_fires_25_percent_rounded_up_and_adds_the_1d10(played):
    """§7: 25 % of 30 = 7.5 → 8 rounds; 20 vs 19: Índice 0; 0 + 6 + 4 − 2 = 8."""
    state = at(played, "7")
    sicario, titan = who(state, "Sicario 1"), who(state, "Titán")
    subfusil = weapon(sicario, "subfusil")
    assert (subfusil["ammo"], subfusil["fired"]) == (22, 8)
    assert titan["vitality"] == 20 and titan["pending"] is None and titan["criticals"] == 0
    assert (sicario["used"], sicario["left"], sicario["maneuvers"]) == ([C], [[0, 1]],
                                                                       ["rafaga-corta"])


def test_row_08_cubrirse_simple_is_tumbado_plus_2_vs_ranged_minus_2_vs_melee(played):
    state = at(played, "8")
    sicario = who(state, "Sicario 1")
    assert ids(sicario) == {"tumbado"}
    assert defense(sicario) == (22, 18)
    assert (sicario["used"], sicario["left"], sicario["acted"]) == ([C, S], [], True)
    assert sicario["maneuvers"] == ["rafaga-corta", "cubrirse"]
    assert state["actor"] == "Titán"
    titan = who(state, "Titán")
    assert (titan["left"], defense(titan)) == (NH1_MENU, (19, 19))


def test_row_09_cargar_costs_2_defensa_and_a_hit_below_con_asks_for_a_pain_roll(played):
    """§5.2 Cargar: 21 vs 18 (tumbado −2 vs melee): Índice 1; 1 + 14 − 2 = 13; 16 → 3 < CON 4:
    a critical wound (count 1) and the pain roll vs ND 10 + 13 = 23 (§9.2)."""
    state = at(played, "9")
    titan, sicario = who(state, "Titán"), who(state, "Sicario 1")
    assert defense(titan) == (17, 17)
    assert (titan["used"], titan["left"], titan["maneuvers"]) == ([C], [[0, 1]], ["cargar"])
    assert titan["conditions"] == []
    assert sicario["vitality"] == 3 and sicario["criticals"] == 1
    assert pending(sicario) == ("dolor", 23)
    assert defense(sicario) == (22, 18)  # not Malherido until the roll is answered
    assert state["actor"] == "Titán"


def test_row_09_a_pain_roll_failed_by_3_is_malherido_and_des_0_in_defensa(played):
    """20 vs 23: failed, not by more than 5 → Malherido: DES 4 − 4 = 0 → 16, ranged 18, melee 14.
    The critical table's prompt comes next (§2.4: the pain roll first)."""
    sicario = who(at(played, "9b"), "Sicario 1")
    assert ids(sicario) == {"tumbado", "malherido"}
    assert defense(sicario) == (18, 14)
    assert sicario["pending"] is not None and sicario["pending"]["roll"] == "critica"
    assert sicario["criticals"] == 1


def test_row_09_the_critical_result_brings_sangrando_and_clears_the_prompt(played):
    sicario = who(at(played, "9c"), "Sicario 1")
    assert ids(sicario) == {"tumbado", "malherido", "sangrando"}
    bleed = next(c for c in sicario["conditions"] if c["id"] == "sangrando")
    assert str(bleed["value"]) == "1"
    assert (sicario["pending"], sicario["criticals"], sicario["vitality"]) == (None, 1, 3)


def test_end_of_turn_1_table(played):
    """§12's table after turn 1 (row 10 refused: these are the values before row 11)."""
    state = at(played, "10")
    assert (state["turn"], state["actor"]) == (1, "Titán")
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    table = {  # name: (place, initiative, vitality, vitality_max, (ranged, melee), conditions)
        "Doctor Ruina": (1, 22, 43, 48, (34, 34), set()),
        "Sicario 1": (2, 18, 3, 16, (18, 14), {"malherido", "tumbado", "sangrando"}),
        "Centella": (3, 17, 24, 32, (26, 26), {"ensordecido"}),
        "Titán": (4, 14, 20, 28, (17, 17), set()),
    }
    for name, (place, ini, pv, pv_max, defensa, conds) in table.items():
        f = who(state, name)
        assert (f["place"], f["initiative"]) == (place, ini), name
        assert (f["vitality"], f["vitality_max"]) == (pv, pv_max), name
        assert defense(f) == defensa, name
        assert ids(f) == conds, name
        assert f["pending"] is None, name
    assert [who(state, n)["criticals"] for n in table] == [0, 1, 0, 0]
    subfusil = weapon(who(state, "Sicario 1"), "subfusil")
    pistola = weapon(who(state, "Centella"), "pistola")
    assert (subfusil["ammo"], subfusil["magazine"]) == (22, 30)
    assert (pistola["ammo"], pistola["magazine"]) == (14, 15)
    titan = who(state, "Titán")
    assert (titan["used"], titan["left"], titan["acted"]) == ([C], [[0, 1]], False)
    assert [who(state, n)["acted"] for n in ("Doctor Ruina", "Sicario 1", "Centella")] == [True] * 3


# ------------------------------------------------------------------ turn 2


def test_row_11_the_last_go_ends_the_turn_and_turn_2_starts_with_ruinas_go_esquivar_gone(played):
    """§4.1: the next turn starts by itself and its first go begins at once; §10 step 1:
    Esquivar's +5 ends at the start of Ruina's go (row 12): 34 → 29.  Nothing carries
    over (§4.1), `fired` counts this turn's rounds (§2.4); Cargar's −2 lasts until
    *Titán's* next start."""
    state = at(played, "11")
    assert (state["turn"], state["actor"], state["turn_over"]) == (2, "Doctor Ruina", False)
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    ruina = who(state, "Doctor Ruina")
    assert defense(ruina) == (29, 29)
    assert (ruina["left"], ruina["used"], ruina["maneuvers"]) == (NH9_MENU, [], [])
    for f in state["combatants"]:
        assert (f["acted"], f["used"], f["maneuvers"]) == (False, [], []), f["name"]
    assert defense(who(state, "Titán")) == (17, 17)
    assert who(state, "Sicario 1")["vitality"] == 3  # bleeds at *his* start
    assert weapon(who(state, "Sicario 1"), "subfusil")["fired"] == 0
    assert weapon(who(state, "Centella"), "pistola")["fired"] == 0


def test_row_13_cargars_minus_2_still_counts_and_a_pain_roll_made_is_herido(played):
    """31 vs 17: Índice 7; 7 + 9 − 2 = 14; 20 → 6 < CON 7: critical 1 and ND 10 + 14 = 24."""
    state = at(played, "13")
    titan, ruina = who(state, "Titán"), who(state, "Doctor Ruina")
    assert titan["vitality"] == 6 and titan["criticals"] == 1
    assert pending(titan) == ("dolor", 24)
    assert (ruina["used"], ruina["left"]) == ([C], NH1_MENU)


def test_row_13_pain_roll_25_vs_24_is_herido_des_minus_2(played):
    """Herido: DES 3 − 2 = 1 → 15 + 1 + 1 − 2 (Cargar) = 15; the critical table waits next."""
    titan = who(at(played, "13b"), "Titán")
    assert ids(titan) == {"herido"}
    assert defense(titan) == (15, 15)
    assert titan["pending"] is not None and titan["pending"]["roll"] == "critica"


def test_row_14_a_second_power_attack_is_allowed_and_each_hit_below_con_is_a_new_critical(played):
    """§5.1: a power's attack is not a maneuver; 22 vs 15: Índice 3; 3 + 4 − 2 = 5: 6 → 1;
    §9.2: every hit that leaves Vitalidad below CON repeats the critical and the pain roll."""
    state = at(played, "14")
    titan, ruina = who(state, "Titán"), who(state, "Doctor Ruina")
    assert titan["vitality"] == 1 and titan["criticals"] == 2
    assert titan["pending"] is not None
    assert (ruina["used"], ruina["left"], ruina["maneuvers"]) == ([C, C], [[0, 1]], [])


def test_row_14_a_herido_failing_by_2_becomes_malherido_which_replaces_herido(played):
    """13 vs 15: failed by 2 → Malherido (not Inconsciente): DES 3 − 4 → 0 → 15 + 0 + 1 − 2 = 14."""
    titan = who(at(played, "14b"), "Titán")
    assert ids(titan) == {"malherido"}
    assert defense(titan) == (14, 14)
    assert titan["pending"] is None or titan["pending"]["roll"] == "critica"


def test_row_15_16_sicarios_go_starts_with_sangrando_1_and_no_pain_roll_nor_critical(played):
    """§10 step 3: 3 → 2; bleeding is not a *herida* (§9.2); Malherido: budget □ (§4.5)."""
    state = at(played, "15")
    ruina = who(state, "Doctor Ruina")
    assert (ruina["used"], ruina["left"], ruina["acted"]) == ([C, C, S], [], True)
    assert state["actor"] == "Sicario 1"
    sicario = who(state, "Sicario 1")
    assert sicario["vitality"] == 2
    assert (sicario["criticals"], sicario["pending"]) == (1, None)
    assert ids(sicario) == {"malherido", "tumbado", "sangrando"}
    assert (sicario["left"], sicario["used"]) == ([[0, 1]], [])


def test_row_18_malherido_spends_its_one_simple_action_and_the_go_ends(played):
    state = at(played, "18")
    sicario = who(state, "Sicario 1")
    assert (sicario["used"], sicario["left"], sicario["acted"]) == ([S], [], True)
    assert state["actor"] == "Centella"
    assert who(state, "Centella")["left"] == NH5_MENU


def test_row_19_retrasa_tras_titan_copies_his_value_and_titans_go_starts_without_cargar(played):
    """§3.4: before acting, after a later combatant: her value becomes 14 (tras Titán);
    §10 step 1: Cargar's −2 ends at Titán's start: 14 → 16; Malherido: budget □."""
    state = at(played, "19")
    centella, titan = who(state, "Centella"), who(state, "Titán")
    assert (centella["initiative"], centella["after"], centella["place"]) == (14, "Titán", 4)
    assert (centella["acted"], centella["used"]) == (False, [])
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Titán", "Centella"]
    assert state["actor"] == "Titán"
    assert defense(titan) == (16, 16)
    assert (titan["left"], titan["place"], titan["initiative"]) == ([[0, 1]], 3, 14)


def test_row_21_titan_throws_himself_down(played):
    state = at(played, "21")
    titan = who(state, "Titán")
    assert ids(titan) == {"malherido", "tumbado"}
    assert defense(titan) == (18, 14)
    assert (titan["used"], titan["left"], titan["acted"]) == ([S], [], True)
    assert state["actor"] == "Centella"
    assert who(state, "Centella")["left"] == NH5_MENU


def test_row_22_apuntar_again_in_a_new_turn(played):
    centella = who(at(played, "22"), "Centella")
    assert centella["aim"] == 2
    assert (centella["used"], centella["left"], centella["maneuvers"]) == ([C], [[1, 0], [0, 1]],
                                                                           ["apuntar"])


def test_row_24_the_shot_at_29_vs_29_hits_with_indice_0_and_turn_3_starts_with_ruina(played):
    """15 + 6 + 6 + 2 = 29 vs 29: Índice 0; 0 + 8 − 3 = 5: 43 → 38; aim used, 14 → 13; her
    go was the last of the turn: turn 3 starts by itself with Ruina's go (§4.1)."""
    state = at(played, "24")
    centella, ruina = who(state, "Centella"), who(state, "Doctor Ruina")
    assert ruina["vitality"] == 38
    assert centella["aim"] == 0
    assert weapon(centella, "pistola")["ammo"] == 13
    assert (state["turn"], state["actor"]) == (3, "Doctor Ruina")
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Titán", "Centella"]
    assert (ruina["left"], ruina["used"], ruina["acted"]) == (NH9_MENU, [], False)


def test_end_of_turn_2_table(played):
    """§12's table after turn 2 (turn 3 will run Ruina, Sicario 1, Titán, Centella)."""
    state = at(played, "24")
    table = {  # name: (place, initiative, after, vitality, max, (ranged, melee), conditions)
        "Doctor Ruina": (1, 22, None, 38, 48, (29, 29), set()),
        "Sicario 1": (2, 18, None, 2, 16, (18, 14), {"malherido", "tumbado", "sangrando"}),
        "Titán": (3, 14, None, 1, 28, (18, 14), {"malherido", "tumbado"}),
        "Centella": (4, 14, "Titán", 24, 32, (26, 26), {"ensordecido"}),
    }
    for name, (place, ini, after, pv, pv_max, defensa, conds) in table.items():
        f = who(state, name)
        assert (f["place"], f["initiative"], f["after"]) == (place, ini, after), name
        assert (f["vitality"], f["vitality_max"]) == (pv, pv_max), name
        assert defense(f) == defensa, name
        assert ids(f) == conds, name
    assert [who(state, n)["criticals"] for n in table] == [0, 1, 2, 0]
    subfusil = weapon(who(state, "Sicario 1"), "subfusil")
    pistola = weapon(who(state, "Centella"), "pistola")
    assert (subfusil["ammo"], subfusil["magazine"]) == (22, 30)
    assert (pistola["ammo"], pistola["magazine"]) == (13, 15)
    for name in ("Doctor Ruina", "Sicario 1", "Centella"):
        assert who(state, name)["pending"] is None, name
    titan_pending = who(state, "Titán")["pending"]
    assert titan_pending is None or titan_pending["roll"] == "critica"
