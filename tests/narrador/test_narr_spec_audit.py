"""Audit of the storyteller ruleset against its written spec, through the shell
(`cdbtui new/do/show --json`): SYSTEMS.md §3, STORYTELLER.md, COMMANDS.md.

Each test asserts one statement of the spec, cited in its docstring.  Only what the
other storyteller test files do not already check is here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shell import cdbtui

try:
    from _narr_fights import KARA, MATON, T1, T2
    from _narr_fights import SHELL_CAST as CAST
except ImportError:  # tests/narrador made a package
    from ._narr_fights import KARA, MATON, T1, T2
    from ._narr_fights import SHELL_CAST as CAST
#: Up to Kara's declaration of turn 1 (she declares last).
BEFORE_KARA = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo")
DECL1 = (*BEFORE_KARA[:-1], "declara maton disparo disparo", "declara kara disparo esquiva")


# ------------------------------------------------------------------ helpers


def fight(tmp_path: Path, *lines: str, cast: tuple[str, ...] = CAST, inits: tuple[str, ...] = T1) -> Path:
    path = tmp_path / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador")
    assert made.returncode == 0, made.stderr
    if cast or inits or lines:
        result = cdbtui("do", str(path), *cast, *inits, *lines)
        assert result.returncode == 0, result.stderr
    return path


def do(path: Path, *lines: str):
    return cdbtui("do", str(path), *lines)


def ok(path: Path, *lines: str):
    result = do(path, *lines)
    assert result.returncode == 0, result.stderr
    return result


def state(path: Path) -> dict:
    shown = cdbtui("show", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def who(path: Path, name: str) -> dict:
    return next(c for c in state(path)["combatants"] if c["name"] == name)


def board(path: Path) -> str:
    shown = cdbtui("show", str(path))
    assert shown.returncode == 0, shown.stderr
    return shown.stdout


def row(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if f" {name} " in line)


def refusal(path: Path, line: str) -> str:
    before = path.read_bytes()
    result = do(path, line)
    assert result.returncode == 1, (line, result.stdout[-300:], result.stderr)
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix) and result.stderr.count("\n") == 1, result.stderr
    assert path.read_bytes() == before
    return result.stderr[len(prefix):-1]


# ------------------------------------------------------------------ shell contract (COMMANDS.md)


def test_new_refuses_to_overwrite_an_existing_file_exit_2(tmp_path):
    """COMMANDS.md Shell interface: `cdbtui new` «refuses to overwrite an existing file»;
    exit status 2 for a usage error or unreadable file."""
    path = fight(tmp_path, cast=(), inits=())
    before = path.read_bytes()
    again = cdbtui("new", str(path), "--rules", "narrador")
    assert again.returncode == 2 and again.stderr.strip()
    assert path.read_bytes() == before


def test_do_and_show_on_a_missing_file_exit_2(tmp_path):
    """COMMANDS.md: «Exit status: … 2 usage error or unreadable file. Never a traceback»."""
    missing = str(tmp_path / "nada.toml")
    for args in (("do", missing, "siguiente"), ("show", missing, "--json")):
        result = cdbtui(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr


def test_do_stops_at_the_first_refused_command(tmp_path):
    """COMMANDS.md: `cdbtui do` «Stops at the first command that fails: exit status 1 …
    the save left exactly as it was before that command»; earlier ones are saved."""
    path = fight(tmp_path, cast=(), inits=())
    result = do(path, KARA, "declara kara disparo", MATON)
    assert result.returncode == 1 and "declara kara disparo" in result.stderr
    assert [c["name"] for c in state(path)["combatants"]] == ["Kara"]


# ------------------------------------------------------------------ command forms (SYSTEMS §3.2, §3.5)


def test_english_spellings_of_the_storyteller_commands(tmp_path):
    """SYSTEMS §3.2: `add`, `weapon`, `init`, `declare`, `next`, `act`, `damage`, `wp`,
    `cond`, `cover`, `opponents`, `ammo`, `undo`/`redo`, `newturn` (and the Spanish
    ones) are the same commands."""
    path = fight(tmp_path, cast=(), inits=())
    ok(path, "add Kara des=3 ast=3 fv=5 rasgos=armas-de-fuego:3", "weapon Kara revolver-ligero",
       "add Maton ini=5 fv=3", "init Kara 12", "init Maton 4", "next", "declare maton otra:3",
       "declare kara disparo", "kara act a maton exitos=1", "damage maton 1 bashing", "wp kara -1",
       "cond kara +cegado", "cover kara 2", "opponents kara 3", "ammo Kara revolver-ligero 3")
    kara = who(path, "Kara")
    assert kara["willpower"]["points"] == 4 and kara["willpower"]["spent_this_turn"] is True
    assert [c["id"] for c in kara["conditions"]] == ["cegado"]
    assert (kara["cover"], kara["opponents"], kara["weapons"][0]["ammo"]) == (2, 3, 3)
    assert who(path, "Maton")["health"]["bashing"] == 1
    ok(path, "undo")
    assert who(path, "Kara")["weapons"][0]["ammo"] == 5
    ok(path, "redo")
    assert who(path, "Kara")["weapons"][0]["ammo"] == 3


def test_english_grapple_hold_release_ambush(tmp_path):
    """SYSTEMS §3.2: `grapple A B` / `hold A B` / `release A` / `ambush A B …`."""
    path = fight(tmp_path, inits=())
    ok(path, "hold Matón Kara")
    assert "inmovilizado" in [c["id"] for c in who(path, "Kara")["conditions"]]
    ok(path, "release Matón")
    assert who(path, "Kara")["conditions"] == []
    ok(path, "ambush Matón Kara exitos=2")
    assert [c["id"] for c in who(path, "Kara")["conditions"]] == ["sorprendido"]


def test_declara_with_typed_pools(tmp_path):
    """SYSTEMS §3.2: `declara kara disparo:6 esquiva:7`; §3.4 `pool` is the base pool,
    `penalty` the slot's (−2, −3), `dice` the live dice."""
    path = fight(tmp_path, *BEFORE_KARA, "declara kara disparo:6 esquiva:7")
    declared = who(path, "Kara")["declared"]
    assert [(d["action"], d["pool"], d["penalty"], d["defense"], d["dice"]) for d in declared] == [
        ("disparo", 6, -2, False, 4), ("esquiva", 7, -3, True, 4)]


def test_declara_disparos_multiples_with_a_pool_and_a_count(tmp_path):
    """SYSTEMS §3.2: `declara maton disparos-multiples:5 2` (2 shots): §15 Matón 5 − 2 = 3
    and 5 − 3 = 2."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton disparos-multiples:5 2")
    declared = who(path, "Matón")["declared"]
    assert [(d["pool"], d["penalty"], d["dice"]) for d in declared] == [(5, -2, 3), (5, -3, 2)]


def test_alta_with_ini_and_no_fv(tmp_path):
    """SYSTEMS §3.2 `alta NAME (ini=N | des=N ast=N)`; §3.5 «`fv=` is optional (0: no
    Willpower)»; `bando=` as in CdB."""
    path = fight(tmp_path, cast=(), inits=())
    ok(path, "alta Sombra ini=5", "alta Ana ini=4 bando=pj fv=2")
    sombra, ana = who(path, "Sombra"), who(path, "Ana")
    assert sombra["rating"] == 5 and sombra["willpower"] == {"rating": 0, "points": 0, "spent_this_turn": False}
    assert ana["side"] == "pj" and ana["willpower"]["points"] == 2


def test_a_typed_weapon_with_a_chambered_round(tmp_path):
    """SYSTEMS §3.5: «`cargador=N+1` means N in the magazine and one in the chamber
    (`"magazine": N, "chamber": true`)»; `arma NAME ARMA` loads it full."""
    path = fight(tmp_path, "arma Matón subfusil dano=4 alcance=25 cad=3 cargador=30+1 auto")
    weapon = next(w for w in who(path, "Matón")["weapons"] if w["name"] == "subfusil")
    assert (weapon["magazine"], weapon["chamber"], weapon["ammo"], weapon["rate"], weapon["shots"]) == (
        30, True, 31, 3, 0)


def test_the_seeds_table_name_ametrallador_ligera_is_a_preset(tmp_path):
    """SYSTEMS §3.5: «presets are the seed's table names folded»; STORYTELLER §9's table
    row is «Ametrallador Ligera* Ingram Mac-10 (sic)» → `ametrallador-ligera`."""
    path = fight(tmp_path)
    ok(path, "arma Matón ametrallador-ligera")


def test_turno_from_the_initiative_phase_ends_the_turn(tmp_path):
    """SYSTEMS §3.5: «`turno` from any phase ends the turn (delayed and undone actions are
    lost) and starts the next initiative phase»."""
    path = fight(tmp_path, *DECL1, "turno")
    assert (state(path)["turn"], state(path)["phase"]) == (2, "initiative")
    ok(path, "turno")
    assert (state(path)["turn"], state(path)["phase"]) == (3, "initiative")


def test_sorpresa_name_forbids_block_and_parry_in_turn_1(tmp_path):
    """STORYTELLER §7.7 Decision: «any other surprise the GM declares (`sorpresa NAME`)
    forbids Bloqueo and Parada for that combatant in turn 1»; COMMANDS.md `sorpresa NAME …`
    / `surprise …`."""
    path = fight(tmp_path, inits=())
    ok(path, "sorpresa Kara")
    assert [c["id"] for c in who(path, "Kara")["conditions"]] == ["sorprendido"]


# ------------------------------------------------------------------ warnings (SYSTEMS §3.3, §3.5)


def test_recarga_inside_a_multiple_action_is_a_warning_on_stderr(tmp_path):
    """SYSTEMS §3.3 Warnings «Recarga inside a multiple action (GM's discretion)»; §3.5
    «Warnings are applied by `cdbtui do` with the warning on stderr (exit 0)»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    result = ok(path, "declara victor recarga otra:6")
    assert result.stderr.strip()
    assert [d["action"] for d in who(path, "Víctor")["declared"]] == ["recarga", "otra"]


def test_a_ranged_attack_while_cegado_is_a_warning(tmp_path):
    """SYSTEMS §3.3 Warnings: «a ranged attack while cegado»; §3.5 warnings on stderr,
    exit 0; STORYTELLER §10 cegado: «most ranged attacks impossible»."""
    path = fight(tmp_path, "estado kara +cegado", *DECL1)
    result = ok(path, "kara actua a maton exitos=1")
    assert result.stderr.strip()


def test_a_difficulty_above_10_is_a_warning(tmp_path):
    """SYSTEMS §3.3 Warnings: «a difficulty above 10»; §3.5 warnings on stderr, exit 0;
    STORYTELLER §3 «dificultad 10 (+1): el Narrador decide»."""
    path = fight(tmp_path, "cobertura maton 3", "oponentes kara 5", *DECL1)
    result = ok(path, "kara actua a maton exitos=1")
    assert "dificultad 10 (+3)" in result.stderr


# ------------------------------------------------------------------ the turn (STORYTELLER §4, §6.9)


def test_the_turn_ends_when_the_last_in_the_order_has_acted(tmp_path):
    """STORYTELLER §4: «The turn ends when the last in the order has acted (delayed actions
    not taken by then are lost). Then the next turn's initiative phase starts.»"""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor retrasa",
                 "declara maton disparo", "declara kara disparo", "kara fin", "maton fin", "cadaver fin")
    # SYSTEMS §3.4: the turn is `over`; «turno» (SYSTEMS §3.5) starts the next initiative phase
    assert (state(path)["turn"], state(path)["phase"]) == (1, "over")
    ok(path, "turno")
    assert (state(path)["turn"], state(path)["phase"]) == (2, "initiative")


def test_a_delayer_acts_later_not_before_its_place(tmp_path):
    """STORYTELLER §1 Retrasar: «act later in the turn»; §6.9: «it may then act at any
    later point of the action phase»."""
    path = fight(tmp_path, "siguiente", "declara cadaver retrasa", "declara victor fuego-automatico",
                 "declara maton disparo", "declara kara disparo")
    assert state(path)["actor"] == "Kara"
    refusal(path, "cadaver actua golpe a kara exitos=1")


# ------------------------------------------------------------------ aim (STORYTELLER §6.7)

AIMED = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
         "declara kara apuntar", "kara actua", "turno", *T1, *BEFORE_KARA)


def test_a_defensive_action_cancels_the_aim(tmp_path):
    """STORYTELLER §6.7: «Cualquier acción realizada mientras se apunta, incluso una acción
    defensiva, cancela los beneficios obtenidos»; «Any other action, declared or aborted,
    resets it to 0 (the tracker warns first)»."""
    path = fight(tmp_path, *AIMED)
    assert who(path, "Kara")["aim"] == 1
    ok(path, "declara kara defensa-total esquiva", "maton actua a kara exitos=1", "kara defiende esquiva exitos=2")
    assert who(path, "Kara")["aim"] == 0


# ------------------------------------------------------------------ the catalog (STORYTELLER §8)


def test_dos_armas_is_a_maneuver_id(tmp_path):
    """STORYTELLER §8.3: `dos-armas` | Dos Armas | Des + Armas de Fuego | … | a multiple
    action."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    ok(path, "declara victor dos-armas:6 2")


def test_apuntar_localizacion_is_a_maneuver_id(tmp_path):
    """STORYTELLER §8.2: `apuntar-localizacion` | Apuntar (a location) | Medio +1 dif. …"""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe")
    ok(path, "declara victor apuntar-localizacion")


@pytest.mark.parametrize(("word", "bonus"), [("localizacion-pequeno", 1), ("localizacion-diminuto", 2)])
def test_a_called_shot_adds_damage(tmp_path, word, bonus):
    """STORYTELLER §8.2 Apuntar (a location): «Pequeño (mano, pie, arma) +2, +1; Diminuto
    (ojo, corazón, candado) +3, +2» (difficulty, damage)."""
    path = fight(tmp_path, *DECL1)
    ok(path, f"kara actua a maton {word} exitos=2")
    assert state(path)["attack"]["damage"] == 4 + bonus


def test_a_called_shot_adds_difficulty(tmp_path):
    """STORYTELLER §8.2: Pequeño **+2** dif."""
    path = fight(tmp_path, *DECL1)
    ok(path, "kara actua a maton localizacion-pequeno exitos=2")
    assert "dificultad 8" in state(path)["log"][-1]


def test_no_called_shot_with_automatic_fire(tmp_path):
    """STORYTELLER §8.2: Apuntar a una localización «Not with Fuego automático («no puede
    apuntar a partes especificas del cuerpo cuando utiliza fuego automático»)»; §8.3
    Fuego automático «no called shots»."""
    path = fight(tmp_path, *DECL1, "kara fin", "maton fin")
    refusal(path, "victor actua a cadaver localizacion-pequeno exitos=3")


def test_dispersion_pool_difficulty_and_ammo(tmp_path):
    """STORYTELLER §8.3 Dispersión: Precisión **+10**, difficulty +2 (Decision), the whole
    magazine: Víctor 4 + 3 + 10 = 17 dice at 8; rifle 43 → 0."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor dispersion",
                 "declara maton disparo", "declara kara defensa-total esquiva", "maton actua a kara exitos=0")
    assert who(path, "Víctor")["declared"][0]["pool"] == 17
    ok(path, "victor actua a kara exitos=4")
    assert "17 dados, dificultad 8" in state(path)["log"][-1]
    assert who(path, "Víctor")["weapons"][0]["ammo"] == 0


def test_dispersion_at_one_person_only_half_the_successes(tmp_path):
    """STORYTELLER §8.3 Dispersión: one person alone: «sólo la mitad de los éxitos»;
    Decision: «"half the successes" for one person is rounded down»."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor dispersion",
                 "declara maton disparo", "declara kara defensa-total esquiva", "maton actua a kara exitos=0")
    ok(path, "victor actua a kara exitos=7")
    assert state(path)["attack"]["successes"] == 3


def test_parada_counter_damage_with_a_lethal_weapon(tmp_path):
    """STORYTELLER §7.2 Parada's counter-damage: «the defender's extra successes + its
    weapon's base damage = a damage pool against the attacker, if the parrying weapon is
    lethal»: Kara 3 vs 1 with a Cuchillo (Fuerza 2 + 1): 2 + 3 = 5 dice."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton golpe", "declara kara defensa-total parada", "maton actua a kara exitos=1",
                 cast=(*CAST, "arma Kara cuchillo"))
    ok(path, "kara defiende parada exitos=3")
    assert any("5 dados de daño contra Matón" in line for line in state(path)["log"][-3:])


def test_cover_of_both_sides_adds(tmp_path):
    """STORYTELLER §8.3 Cobertura: «returning fire from cover: its own cover − 1 … both in
    cover: they add»: Kara in cover 2 shoots Matón in cover 1: 6 + 1 + 1 = 8."""
    path = fight(tmp_path, "cobertura kara 2", "cobertura maton 1", *DECL1)
    ok(path, "kara actua a maton exitos=1")
    assert "dificultad 8" in state(path)["log"][-1]


# ------------------------------------------------------------------ Aturdido (STORYTELLER §10)


def test_aturdido_before_acting_loses_only_this_turns_action(tmp_path):
    """STORYTELLER §10 Aturdido, precisely: «If it has not acted this turn, it loses this
    turn's action(s) … The condition ends when its place has passed in the turn whose
    action it lost.»  Matón's place has come (Kara is done) but he has not acted when 4
    lethal (> Resistencia 3) stun him."""
    path = fight(tmp_path, *DECL1, "kara fin", "dano maton 4 letal")
    ok(path, "turno", *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
       "declara kara disparo")
    assert state(path)["declarer"] == "Matón"


def test_a_stunned_combatant_is_listed_as_aturdido_pierde_la_accion(tmp_path):
    """STORYTELLER §10 Aturdido, precisely: «it still rolls initiative and is listed as
    “aturdido: pierde la acción”»; SYSTEMS §3.1 `aturdido` mark."""
    path = fight(tmp_path, *DECL1, "kara actua a maton exitos=0", "maton actua a kara exitos=3",
                 "kara defiende esquiva exitos=0", "dano kara 3 letal", "turno", *T2, "siguiente",
                 "declara cadaver golpe", "declara victor fuego-automatico")
    assert who(path, "Kara")["status"] == "stunned"
    assert "aturdido: pierde la acción" in row(board(path), "Kara")


# ------------------------------------------------------------------ refusal wording (SYSTEMS §3.3)


def test_the_grappled_kara_refusal_words(tmp_path):
    """SYSTEMS §3.3 grapple: “Kara está apresada: solo puede intentar escapar”."""
    path = fight(tmp_path, "presa Matón Kara", "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico", "declara maton apretar")
    assert refusal(path, "declara kara disparo") == "Kara está apresada: solo puede intentar escapar"


# ------------------------------------------------------------------ JSON (SYSTEMS §3.4)


def test_json_during_the_declaration_names_the_declarer(tmp_path):
    """SYSTEMS §3.4: `phase` ∈ initiative, declare, act, over; `actor`, `declarer`; the
    Cadáver declares first (lowest), `status` `to_declare` / `declared`."""
    path = fight(tmp_path, "siguiente")
    s = state(path)
    assert (s["phase"], s["declarer"], s["actor"]) == ("declare", "Cadáver", None)
    assert s["order"] == ["Kara", "Matón", "Víctor", "Cadáver"]
    ok(path, "declara cadaver golpe")
    assert state(path)["declarer"] == "Víctor"
    assert who(path, "Cadáver")["status"] == "declared" and who(path, "Kara")["status"] == "to_declare"


def test_json_status_delaying_and_stunned(tmp_path):
    """SYSTEMS §3.4: `status` ∈ `to_declare`, `declared`, `delaying`, `acted`, `stunned`,
    `out`."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor retrasa")
    assert who(path, "Víctor")["status"] == "delaying"
    ok(path, "declara maton disparo", "declara kara disparo", "kara actua a cadaver exitos=3",
       "dano cadaver 6 letal")
    assert who(path, "Cadáver")["status"] == "stunned"
    assert who(path, "Kara")["status"] == "acted"
    ok(path, "dano matón 7 letal")
    assert who(path, "Matón")["status"] == "out"


def test_json_total_defense_counts_and_next_penalty(tmp_path):
    """SYSTEMS §3.4 `defenses`, `next_defense_penalty`; STORYTELLER §7.6 «defense k of the
    turn rolls its traits − (k − 1)»: after one total-defense dodge the next is −1."""
    path = fight(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton disparo", "declara kara defensa-total esquiva", "maton actua a kara exitos=1")
    ok(path, "kara defiende esquiva exitos=2")
    kara = who(path, "Kara")
    assert (kara["defenses"], kara["next_defense_penalty"]) == (1, -1)
    assert kara["full_defense"] is not None
