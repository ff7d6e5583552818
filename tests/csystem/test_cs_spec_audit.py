"""C-System audited against the letter of the specs, through the shell only.

SYSTEMS.md §2 (commands, refusals, JSON), CSYSTEM.md (rules) and COMMANDS.md (the
shared CLI).  Only what test_cs_cli_refusals.py and the test_cs_rules_*.py files do
not already check; each assertion is the spec's expectation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shell import cdbtui

try:
    from _cs_shell import CAST, INITS, build, new, refuse, state, who
except ImportError:  # tests/csystem made a package
    from ._cs_shell import CAST, INITS, build, new, refuse, state, who

#: Two combatants: A acts first, then B.
DUO = ("alta A nh=1 des=3 ale=2 con=5", "arma A puños dano=1d6",
       "alta B nh=1 des=3 ale=1 con=5 rd=4", "iniciativa A 10", "iniciativa B 5")


def sub(tmp_path: Path, name: str) -> Path:
    """A second folder, for a second fight in one test."""
    folder = tmp_path / name
    folder.mkdir()
    return folder


def do(path: Path, *lines: str):
    return cdbtui("do", str(path), *lines)


def test_new_refuses_to_overwrite_an_existing_file_exit_2(tmp_path):
    """COMMANDS.md, Shell interface: `cdbtui new` «refuses to overwrite an existing
    file»; exit status «2 usage error or unreadable file»."""
    path = new(tmp_path)
    before = path.read_bytes()
    again = cdbtui("new", str(path), "--rules", "csystem")
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("args", [("do",), ("show",), ("show", "no-existe.toml", "--json"),
                                  ("do", "no-existe.toml", "empezar")],
                         ids=lambda a: " ".join(a))
def test_usage_errors_and_unreadable_files_exit_2(tmp_path, args):
    """COMMANDS.md: «Exit status: 0 success, 1 a command was refused (rules or bad input),
    2 usage error or unreadable file. Never a traceback for bad input.»"""
    result = cdbtui(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_do_stops_at_the_first_refused_command_and_keeps_the_earlier_ones(tmp_path):
    """COMMANDS.md, `cdbtui do`: «Stops at the first command that fails: exit status 1, a
    one-line error on stderr naming the command, and the save left exactly as it was
    before that command»."""
    path = build(tmp_path)
    result = do(path, "centella simple", "centella volar", "centella simple")
    assert result.returncode == 1
    assert result.stderr.startswith("cdbtui: «centella volar»: ") and result.stderr.count("\n") == 1
    assert who(path, "Centella")["used"] == ["simple"]


def test_show_json_changes_nothing(tmp_path):
    """COMMANDS.md: `cdbtui show PATH [--json]` «changes nothing»."""
    path = build(tmp_path, "centella apuntar")
    before = path.read_bytes()
    state(path)
    assert path.read_bytes() == before


# ------------------------------------------------------------------ SYSTEMS.md §2.2: the English spellings


@pytest.mark.parametrize("line", [
    "add Nuevo nh=2 des=3 ale=1",
    "weapon Titán garrote dano=1d6",
    "init Titán 13",
    "swap Centella Ruina",  # refused (not tied), but understood: checked apart
], ids=lambda line: line)
def test_english_setup_keywords_before_the_fight(tmp_path, line):
    """SYSTEMS.md §2.2: `add …`, `weapon …`, `init NAME N` are the English spellings."""
    path = build(tmp_path, start=False)
    result = do(path, line)
    if line.startswith("swap"):
        assert result.returncode == 1 and "Centella" in result.stderr  # a rules refusal
    else:
        assert result.returncode == 0, result.stderr


def test_english_roll_surprise_order_and_begin(tmp_path):
    """SYSTEMS.md §2.2: `roll …`, `surprise …`, `order NAME after|before OTHER`, `begin`."""
    path = build(tmp_path, start=False, cast=(*CAST, "iniciativa Centella 22", "iniciativa Ruina 22",
                                               'iniciativa "Sicario 1" 18'))
    assert do(path, "roll Titán").returncode == 0
    assert who(path, "Titán")["initiative"] is not None
    assert do(path, "surprise Titán").returncode == 0
    assert "desprevenido" in {c["id"] for c in who(path, "Titán")["conditions"]}
    assert do(path, "begin").returncode == 0
    assert state(path)["turn"] == 1
    assert do(path, "order Titán before Sicario").returncode == 0
    assert state(path)["order"].index("Titán") < state(path)["order"].index("Sicario 1")
    assert do(path, "order Titán after Sicario").returncode == 0
    assert state(path)["order"].index("Titán") > state(path)["order"].index("Sicario 1")


def test_english_actions_in_a_go(tmp_path):
    """SYSTEMS.md §2.2: `NAME attack …`, `NAME complex …`, `NAME free …`, `NAME done`."""
    path = build(tmp_path)
    assert do(path, "centella attack ruina tirada=31 dano=7").returncode == 0
    assert who(path, "Ruina")["vitality"] == 43  # §12 row 3: 1 + 7 − 3 = 5
    assert do(path, "centella free desenfunda").returncode == 0
    assert who(path, "Centella")["used"] == ["complex"]  # a free action costs nothing (§4.4)
    assert do(path, "centella complex algo").returncode == 0
    assert state(path)["actor"] == "Ruina"  # ■■ at NH 5: nothing left
    assert do(path, "ruina simple", "ruina done").returncode == 0
    assert state(path)["actor"] == "Sicario 1"


def test_english_next_and_newturn(tmp_path):
    """SYSTEMS.md §2.2: `siguiente` / `next` ends the current go; `turno` / `newturn`
    forces the end of the turn."""
    path = build(tmp_path)
    assert do(path, "next").returncode == 0
    assert state(path)["actor"] == "Ruina"
    assert do(path, "newturn").returncode == 0
    assert (state(path)["turn"], state(path)["actor"]) == (2, "Centella")


@pytest.mark.parametrize(("line", "after", "last"), [
    ("centella lower after Titán", "Titán", "Centella"),
    ("centella lower last", None, "Centella"),
])
def test_english_lower_after_and_last(tmp_path, line, after, last):
    """SYSTEMS.md §2.2: `NAME lower after OTHER|last`; §2.4: `after` is the followed one's
    name, «or null (also for `retrasa final`)»; CSYSTEM §3.4: the value is copied (14)."""
    path = build(tmp_path)
    assert do(path, line).returncode == 0
    data = state(path)
    assert data["order"][-1] == last
    c = who(path, "Centella")
    assert c["after"] == after and c["initiative"] == 14


def test_english_reload_mode_standup(tmp_path):
    """SYSTEMS.md §2.2: `NAME reload …`, `NAME mode ARMA MODO`, `NAME standup`
    (also `levanta`)."""
    path = build(tmp_path, "centella fin", "ruina fin", "estado sicario +tumbado",
                 'arma "Sicario 1" fusil modos=sa,fa cargador=20 municion=3 dano=2d6')
    assert do(path, "sicario mode fusil fa").returncode == 0  # □
    assert who(path, "Sicario 1")["used"] == ["simple"]
    path2 = build(sub(tmp_path, "b"), "centella fin", "ruina fin", 'municion "Sicario 1" subfusil 3')
    assert do(path2, "sicario reload subfusil").returncode == 0  # ■ (FA)
    assert who(path2, "Sicario 1")["used"] == ["complex"]
    assert who(path2, "Sicario 1")["weapons"][0]["ammo"] == 30


@pytest.mark.parametrize("word", ["standup", "levanta", "levantarse"])
def test_standup_spellings(tmp_path, word):
    """SYSTEMS.md §2.2: `NAME levantarse` / `NAME standup` (also `levanta`): ■ without
    Acrobacias (CSYSTEM §4.4), and Tumbado ends (§8)."""
    path = build(tmp_path, "estado centella +tumbado")
    assert do(path, f"centella {word}").returncode == 0
    c = who(path, "Centella")
    assert c["used"] == ["complex"]
    assert "tumbado" not in {x["id"] for x in c["conditions"]}


@pytest.mark.parametrize("line", [
    "damage titan 3", "heal titan 1", "cond titan +deslumbrado", "ammo Centella pistola 10",
    "undo",
])
def test_english_gm_keywords(tmp_path, line):
    """SYSTEMS.md §2.2: `damage …`, `heal NAME N`, `cond …`, `ammo …`, `undo`, `redo`."""
    path = build(tmp_path, "dano titan 1")
    assert do(path, line).returncode == 0


def test_english_undo_then_redo(tmp_path):
    """SYSTEMS.md §2.2 / COMMANDS.md: `deshacer` / `undo`, `rehacer` / `redo`."""
    path = build(tmp_path, "centella simple")
    assert do(path, "undo").returncode == 0
    assert who(path, "Centella")["used"] == []
    assert do(path, "redo").returncode == 0
    assert who(path, "Centella")["used"] == ["simple"]


def test_english_pain_reflex_critical(tmp_path):
    """SYSTEMS.md §2.2: `pain NAME TOTAL`, `reflex NAME TOTAL`, `critical …` answer the
    prompts (§2.4 `pending`)."""
    path = build(tmp_path, "dano titan 25 rd=0")
    assert who(path, "Titán")["pending"] == {"roll": "dolor", "nd": 35}
    assert do(path, "pain titan 35").returncode == 0
    assert "herido" in {c["id"] for c in who(path, "Titán")["conditions"]}
    assert who(path, "Titán")["pending"]["roll"] == "critica"
    assert do(path, "critical titan corte").returncode == 0
    assert who(path, "Titán")["pending"] is None
    path = build(sub(tmp_path, "m"), "dano titan 30 sangrado", "centella fin", "ruina fin", "sicario fin")
    assert who(path, "Titán")["pending"] == {"roll": "refleja", "nd": 20}
    assert do(path, "reflex titan 25").returncode == 0
    assert "estabilizado" in {c["id"] for c in who(path, "Titán")["conditions"]}


def test_english_energy_and_composure(tmp_path):
    """SYSTEMS.md §2.2: `energy …`, `composure …`."""
    path = build(tmp_path, "alta X nh=1 des=3 ale=1 con=4 vol=3 aplomo=10 energia=8")
    assert do(path, "energy X -2", "composure X -3").returncode == 0
    x = who(path, "X")
    assert (x["energy"], x["composure"]) == (6, 7)


# ------------------------------------------------------------------ CSYSTEM.md §2: the sheet


@pytest.mark.parametrize("attribute", ["des", "per", "con", "vol", "fue", "vel"])
def test_attributes_go_from_1_to_10_so_0_is_refused(tmp_path, attribute):
    """CSYSTEM.md §1 glossary: attributes 1–10 («Los Atributos … varían de 1 a 10»)."""
    path = build(tmp_path, start=False, cast=())
    values = {"des": 3, "ale": 2, "con": 5} | {attribute: 0}
    refuse(path, "alta X nh=1 " + " ".join(f"{k}={v}" for k, v in values.items()))


def test_defensa_typed_bonuses_bdef_and_shield(tmp_path):
    """CSYSTEM.md §2 item 6 and §6.2: Defensa = 15 + DES + NH + BDEF + shield; §2 item 4:
    Vitalidad CON × 4 + 3 × (NH − 1)."""
    path = build(tmp_path, "alta X nh=3 des=4 ale=2 con=5 bdef=2 escudo=1")
    x = who(path, "X")
    assert x["defense"] == {"ranged": 25, "melee": 25}
    assert x["vitality_max"] == 26


@pytest.mark.parametrize(("kind", "rd"), [("letal", 1), ("balistico", 2), ("energia", 3)])
def test_rd_per_damage_type_rd_l_b_e(tmp_path, kind, rd):
    """CSYSTEM.md §2 item 7: RD per type «Letal - Balístico - Energía», typed `rd=L/B/E`
    (SYSTEMS.md §2.2); §6.4 the RD «of the matching type» is subtracted.  X's Defensa 20:
    tirada 20 → Índice 0; 0 + 10 − RD."""
    path = build(tmp_path, cast=(*CAST, "alta X nh=1 des=4 ale=2 con=8 rd=1/2/3", *INITS,
                                 "iniciativa X 1"))
    assert do(path, f"centella ataca x tirada=20 dano=10 tipo={kind}").returncode == 0
    assert who(path, "X")["vitality"] == 32 - (10 - rd)


def test_ini_mod_is_added_to_the_rolled_initiative(tmp_path):
    """CSYSTEM.md §3.1: initiative = 1d20 + DES + Alerta + `ini_mod`; the log gives the sum."""
    path = build(tmp_path, "alta X nh=1 des=4 ale=2 con=5 ini=+3", "tirar X")
    line = next(x for x in state(path)["log"] if "iniciativa de X" in x)
    die = who(path, "X")["initiative"] - 4 - 2 - 3
    assert 1 <= die <= 20
    assert f"{die} + 4 + 2 + 3 = {die + 9}" in line


# ------------------------------------------------------------------ CSYSTEM.md §6.2: Defensa with conditions


@pytest.mark.parametrize(("conditions", "defense"), [
    (("herido", "fatigado"), (20, 20)),            # −2 −2 add up
    (("malherido", "exhausto"), (17, 17)),         # −4 −5 add up
    (("herido", "malherido"), (20, 20)),           # one chain: only the worst
    (("fatigado", "exhausto"), (19, 19)),          # one chain: only the worst
    (("apresado", "sujeto"), (17, 17)),            # Sujeto: DES not added
    (("aterrado",), (19, 19)),                     # DES 7 halved up = 4, −2
    (("aterrado", "herido"), (18, 18)),            # DES 5 → 3, −2
    (("desprevenido", "herido"), (20, 20)),        # DES 5 → 3
    (("cegado",), (21, 21)),                       # −3
    (("paralizado",), (17, 17)),                   # DES 0
    (("inconsciente",), (19, 15)),                 # tumbado e indefenso: DES 0, ±2
    (("tumbado", "a-cubierto:parcial"), (29, 22)),  # +2 +3 vs ranged, −2 vs melee
], ids=lambda v: "+".join(v) if isinstance(v, tuple) and isinstance(v[0], str) else str(v))
def test_defensa_from_effective_des_with_the_conditions(tmp_path, conditions, defense):
    """CSYSTEM.md §6.2: penalties add up except inside one chain (Herido → Malherido,
    Fatigado → Exhausto, Apresado → Sujeto); then halved rounded up (Desprevenido,
    Aterrado), 0 (Indefenso, Paralizado, Inconsciente), not added (Sujeto); then − 3
    Cegado, − 2 Aterrado, cover.  NH 2, DES 7: base 24."""
    path = build(tmp_path, "alta X nh=2 des=7 ale=2 con=5", *(f"estado X +{c}" for c in conditions))
    assert who(path, "X")["defense"] == {"ranged": defense[0], "melee": defense[1]}


def test_an_invisible_attacker_ignores_the_des_term_defense_15_plus_nh(tmp_path):
    """CSYSTEM.md §6.2: «su defensa será igual a 15 + nivel heroico»: Ruina (NH 9) is hit
    at 24 by an invisible Centella, with Índice 0."""
    path = build(tmp_path, "estado centella +invisible", "centella ataca ruina tirada=24 dano=5")
    assert who(path, "Ruina")["vitality"] == 48 - (0 + 5 - 3)


def test_cover_rd_is_subtracted_before_the_armour_rd(tmp_path):
    """CSYSTEM.md §5.2 Cubrirse: parcial «+3 a la Defensa y 3 de RD», casi completa +5 and 5;
    §6.5: the cover's RD is subtracted first.  Ruina 29 + 5 = 34: 40 → Índice 3;
    3 + 10 − 5 − 3 = 5."""
    path = build(tmp_path, "estado ruina +a-cubierto:casi-completa", "centella ataca ruina tirada=40 dano=10")
    assert who(path, "Ruina")["vitality"] == 43


# ------------------------------------------------------------------ CSYSTEM.md §4.4, §5.2, §6.4


def test_golpe_de_gracia_damage_minus_rd(tmp_path):
    """CSYSTEM.md §6.4: «DAÑO = Índice de éxito … + Daño del arma - Valor de RD»; SYSTEMS.md
    §2.4: «`dano=` takes the damage dice as rolled …; RD is then subtracted by the
    tracker».  §5.2 golpe-de-gracia: «acierta de forma automática» (no roll: Índice 0).
    B: 20 PV, RD 4; dano=6 → 2 damage."""
    path = build(tmp_path, "estado B +indefenso", "a golpe-de-gracia a b dano=6", cast=DUO)
    assert who(path, "B")["vitality"] == 20 - (6 - 4)


def test_golpe_de_gracia_is_a_critical_with_plus_10(tmp_path):
    """CSYSTEM.md §5.2: «consigue un golpe crítico añadiendo un +10 directo a la tirada de
    heridas críticas»; it needs an Indefenso (inconsciente is «tumbadas e indefensas»)."""
    path = build(tmp_path, "estado B +inconsciente", "a golpe-de-gracia a b", cast=DUO)
    b = who(path, "B")
    assert b["criticals"] == 1
    assert b["pending"] == {"roll": "critica", "nd": None, "bonus": 10}


def test_derribar_missed_by_more_than_5_reminds_the_defender(tmp_path):
    """CSYSTEM.md §5.2 derribar: «Miss by more than 5: the defender may knock the attacker
    down on its next action without a roll (a reminder on the defender)».  Ruina 5 vs
    Titán's 19 misses by 14: Titán gets a reminder (a note, or a log line besides the
    attack's)."""
    path = build(tmp_path, "centella fin", "ruina derribar a titan tirada=5")
    titan = who(path, "Titán")
    log = state(path)["log"]
    attack = next(i for i, line in enumerate(log) if "Derribar" in line)
    later = [line for line in log[attack + 1:] if "Titán" in line]
    assert titan["notes"] or later or "Titán" in log[attack].split("falla", 1)[1]


# ------------------------------------------------------------------ CSYSTEM.md §9.4: Estabilizado


def _stabilized(tmp_path: Path) -> Path:
    """B (20 PV, CON 5) at −2, Moribundo, then Estabilizado at the start of its go in turn 1."""
    path = build(tmp_path, "dano B 22 rd=0", "a fin", "refleja b 25", cast=DUO)
    b = who(path, "B")
    assert b["vitality"] == -2 and "estabilizado" in {c["id"] for c in b["conditions"]}
    return path


def test_estabilizado_no_more_loss_per_turn(tmp_path):
    """CSYSTEM.md §9.4: success → Estabilizado, «no more loss per turn»."""
    path = _stabilized(tmp_path)
    assert do(path, *(["a fin"] * 10)).returncode == 0
    assert who(path, "B")["vitality"] == -2


def test_estabilizado_loses_1_vitalidad_per_100_turns(tmp_path):
    """CSYSTEM.md §9.4: «perderá 1 punto de vida cada 10 minutos», «i.e. 1 per 100 turns,
    which the tracker also counts».  Stabilized in turn 1; 101 more turns later it has
    lost exactly 1."""
    path = _stabilized(tmp_path)
    assert do(path, *(["a fin"] * 101)).returncode == 0
    assert state(path)["turn"] == 103
    assert who(path, "B")["vitality"] == -3


# ------------------------------------------------------------------ SYSTEMS.md §2.3: override refusals


def test_inconsciente_refusal_names_the_state(tmp_path):
    """SYSTEMS.md §2.3: «Titán está inconsciente: no puede actuar» (the go ends at once,
    §4.1, and the refusal still names the state)."""
    path = build(tmp_path, "centella fin", "ruina fin", "sicario fin", "estado titan +inconsciente")
    assert refuse(path, "titan simple") == "Titán está inconsciente: no puede actuar"


def test_aterrado_refusal_is_the_spec_line(tmp_path):
    """SYSTEMS.md §2.3, a budget override: «X está Aterrado: no puede actuar»."""
    path = build(tmp_path, "estado centella +aterrado")
    assert refuse(path, "centella simple") == "Centella está Aterrado: no puede actuar"


# ------------------------------------------------------------------ CSYSTEM.md §3.6 / §3.2: the GM's placing


def test_orden_antes_mid_fight_copies_the_value_and_keeps_the_place(tmp_path):
    """CSYSTEM.md §3.6: `orden NAME antes OTRO`, the rule of 3.5 applies."""
    path = build(tmp_path, "alta Nuevo nh=2 des=3 ale=1 con=4", "iniciativa Nuevo 5",
                 "orden Nuevo antes Titán")
    assert state(path)["order"] == ["Centella", "Ruina", "Sicario 1", "Nuevo", "Titán"]
    assert do(path, "centella fin", "ruina fin", "sicario fin").returncode == 0
    assert state(path)["actor"] == "Nuevo"


def test_orden_antes_before_empezar_is_kept_by_empezar(tmp_path):
    """CSYSTEM.md §3.6: the GM sets «a new place (`orden NAME tras OTRO` / `antes OTRO`)»;
    §3.2 the order «does not change» except by the effects that say so; SYSTEMS.md §2.2
    `empezar`: «turn 1, the first in the order acts».  Nuevo placed before Titán (value
    14, tied; Titán's Alerta 2 > 1) must stay before him when the fight begins."""
    path = build(tmp_path, "alta Nuevo nh=2 des=3 ale=1 con=4", "iniciativa Nuevo 5",
                 "orden Nuevo antes Titán", start=False)
    assert state(path)["order"] == ["Centella", "Ruina", "Sicario 1", "Nuevo", "Titán"]
    assert do(path, "empezar").returncode == 0
    assert state(path)["order"] == ["Centella", "Ruina", "Sicario 1", "Nuevo", "Titán"]


# ------------------------------------------------------------------ COMMANDS.md: notes (shared)


def test_nota_and_its_clearing(tmp_path):
    """COMMANDS.md: `nota NAME TEXTO` / `note …`; `nota NAME -` clears; JSON per combatant
    `notes`: a list of `{"text": …, "turns_left": N or null}`."""
    path = build(tmp_path, "nota Titán cojea", "note Titán sangra la nariz")
    assert who(path, "Titán")["notes"] == [{"text": "cojea", "turns_left": None},
                                           {"text": "sangra la nariz", "turns_left": None}]
    assert do(path, "nota Titán -").returncode == 0
    assert who(path, "Titán")["notes"] == []


def test_nota_with_turnos_has_turns_left(tmp_path):
    """COMMANDS.md: `nota NAME TEXTO [turnos=N]`; `notes`: `{"text": …, "turns_left": N or
    null}`."""
    path = build(tmp_path, "nota Titán cojea turnos=2")
    assert who(path, "Titán")["notes"] == [{"text": "cojea", "turns_left": 2}]


def test_nota_with_turnos_ends_with_its_last_turn(tmp_path):
    """COMMANDS.md `nota NAME TEXTO [turnos=N]`: a note given turns ends by itself at
    the end of its last turn (logged), like CdB's."""
    path = build(tmp_path, "nota Titán cojea turnos=1")
    assert do(path, "centella fin", "ruina fin", "sicario fin").returncode == 0
    assert who(path, "Titán")["notes"] == [{"text": "cojea", "turns_left": 1}]
    assert do(path, "titan fin").returncode == 0  # the last go: turn 2 begins
    assert state(path)["turn"] == 2
    assert who(path, "Titán")["notes"] == []
    assert any("−nota «cojea» (fin de su duración)" in line for line in state(path)["log"])


def test_derribar_reminder_lasts_until_the_end_of_the_next_turn(tmp_path):
    """CSYSTEM.md §5.2 (derribar, missed by more than 5): the reminder on the
    defender is for «its next action»: a note that ends with the next turn."""
    path = build(tmp_path, "centella fin", "ruina derribar a titan tirada=5")
    notes = who(path, "Titán")["notes"]
    assert [n["turns_left"] for n in notes] == [2]
    assert "Ruina" in notes[0]["text"]


# ------------------------------------------------------------------ SYSTEMS.md §2.4: JSON


def test_json_maneuver_ids_are_the_catalog_ids_not_the_aliases(tmp_path):
    """SYSTEMS.md §2.4 `maneuvers`; CSYSTEM.md §5.2: `esquivar` (alias `bloquear`),
    `derribar` (alias `arrollar`)."""
    path = build(tmp_path, "centella fin", "ruina arrollar a titan", "ruina bloquear 5")
    assert who(path, "Ruina")["maneuvers"] == ["derribar", "esquivar"]


def test_json_a_condition_with_a_value(tmp_path):
    """SYSTEMS.md §2.2 `estado NAME +COND[:VALOR]`; §2.4 conditions `{"id", "value", "ends"}`:
    `a-cubierto:parcial` is id a-cubierto with value parcial."""
    path = build(tmp_path, "estado titan +a-cubierto:parcial")
    assert who(path, "Titán")["conditions"] == [{"id": "a-cubierto", "value": "parcial", "ends": None}]


def test_json_atontado_is_stored_as_aturdido(tmp_path):
    """CSYSTEM.md §8: `aturdido` (alias `atontado`)."""
    path = build(tmp_path, "estado titan +atontado")
    assert [c["id"] for c in who(path, "Titán")["conditions"]] == ["aturdido"]


def test_json_warnings_keep_the_command_exit_0(tmp_path):
    """SYSTEMS.md §2.3: «Warnings (shown, the GM confirms; the command is kept)»: a
    "mental only" state taking a generic action."""
    path = build(tmp_path, "estado centella +paralizado")
    result = do(path, "centella simple")
    assert result.returncode == 0
    assert who(path, "Centella")["used"] == ["simple"]
