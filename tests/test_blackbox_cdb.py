"""Black-box acceptance tests for CdB / Walküre, written from the spec text alone.

Each test drives the real CLI (`cdbtui new`, `cdbtui do`, `cdbtui show --json`) on a
fresh save and checks one concrete statement of COMMANDS.md, RULES.md or SHEET.md
(quoted in the docstring).  Expected values are read off the spec, never off the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import spec_cli
from shell import cdbtui, process
from spec_cli import logged, mark, ok, state, who

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"
COVER = "ponerse-a-cubierto"
HEAVY = "disparar-armas-pesadas"


# ---------------------------------------------------------------- helpers


def new(tmp_path: Path, *lines: str, rules: str = "cdb") -> Path:
    return spec_cli.new(tmp_path, *lines, rules=rules, seed=5)


def refused(path: Path, line: str, *says: str) -> str:
    return spec_cli.refused(path, line, *says, fold=True)


EXAMPLE = [
    "alta Mike ac=7 agi=4 bando=pj",
    "alta Sven ac=5 agi=3 bando=pj",
    f"alta {S1} ac=6 agi=3 bando=pnj",
    f"alta {S2} ac=5 agi=2 bando=pnj",
    "momento Mike 7", "momento Sven 5", f"momento {S1} 6", f"momento {S2} 4",
    "empezar",
]


def example(tmp_path: Path, *more: str, rules: str = "cdb") -> Path:
    return new(tmp_path, *EXAMPLE, *more, rules=rules)


def solo(tmp_path: Path, ac: int = 7, *more: str, extra: str = "", rules: str = "cdb") -> Path:
    """One combatant A (start 9) and a far-away B (start 1) that keeps the turn open."""
    return new(tmp_path, f"alta A ac={ac} {extra}".strip(), "alta B ac=3", "momento A 9",
               "momento B 1", "empezar", *more, rules=rules)


# ---------------------------------------------------------------- shell interface


def test_new_with_each_rules_option_records_the_ruleset(tmp_path):
    """COMMANDS.md: `cdbtui new PATH [--rules cdb|walkure|csystem|narrador]`."""
    for rules in ("cdb", "walkure", "csystem", "narrador"):
        path = tmp_path / f"{rules}.toml"
        assert cdbtui("new", str(path), "--rules", rules).returncode == 0
        assert state(path)["rules"] == rules


def test_new_refuses_to_overwrite_an_existing_file(tmp_path):
    """COMMANDS.md: «refuses to overwrite an existing file»; exit 2 is «usage error or
    unreadable file», a refusal of the shell is not a rules refusal."""
    path = tmp_path / "x.toml"
    path.write_text("no soy un combate")
    result = cdbtui("new", str(path))
    assert result.returncode != 0
    assert path.read_text() == "no soy un combate"


def test_new_with_an_unknown_ruleset_is_a_usage_error(tmp_path):
    """COMMANDS.md: «2 usage error»."""
    path = tmp_path / "x.toml"
    assert cdbtui("new", str(path), "--rules", "dnd").returncode == 2
    assert not path.exists()


def test_show_and_do_on_a_missing_file_exit_2(tmp_path):
    """COMMANDS.md: «2 usage error or unreadable file»."""
    missing = str(tmp_path / "nada.toml")
    assert cdbtui("show", missing).returncode == 2
    assert cdbtui("show", missing, "--json").returncode == 2
    assert cdbtui("do", missing, "empezar").returncode == 2


def test_do_without_any_command_is_a_usage_error(tmp_path):
    """COMMANDS.md: `cdbtui do PATH CMD [CMD ...]`: at least one command."""
    path = new(tmp_path)
    assert cdbtui("do", str(path)).returncode == 2


def test_unknown_subcommand_is_a_usage_error_without_traceback(tmp_path):
    """COMMANDS.md: «2 usage error … Never a traceback for bad input»."""
    result = process("frobnicate", str(tmp_path / "x.toml"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_do_stops_at_the_first_failure_and_keeps_what_came_before(tmp_path):
    """COMMANDS.md: «saving atomically after each … Stops at the first command that
    fails: exit status 1, a one-line error on stderr naming the command, and the save
    left exactly as it was before that command»."""
    path = new(tmp_path)
    result = cdbtui("do", str(path), "alta Ana ac=5", "baja Nadie", "alta Bea ac=5")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "baja Nadie" in result.stderr
    names = [c["name"] for c in state(path)["combatants"]]
    assert names == ["Ana"]


def test_bad_input_in_a_real_process_exits_1_without_traceback(tmp_path):
    """COMMANDS.md: «1 a command was refused (rules or bad input) … Never a traceback»."""
    path = new(tmp_path)
    for line in ("alta X ac=abc", "alta", "momento", "dano", "Nadie esquivar", '"sin cerrar'):
        result = process("do", str(path), line)
        assert result.returncode == 1, (line, result.stderr)
        assert "Traceback" not in result.stderr
        assert result.stderr.count("\n") == 1, result.stderr


def test_show_prints_the_board_as_text(tmp_path):
    """COMMANDS.md: `cdbtui show PATH`: «print the board as text»; SHEET.md's header."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}")
    result = cdbtui("show", str(path))
    assert result.returncode == 0
    assert "Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1" in result.stdout


def test_do_dash_reads_lines_from_stdin(tmp_path):
    """COMMANDS.md: «(`-` reads lines from stdin)»."""
    path = new(tmp_path)
    result = cdbtui("do", str(path), "-", stdin="alta Ana ac=5\nmomento Ana 3\nempezar\n")
    assert result.returncode == 0, result.stderr
    assert state(path)["turn"] == 1


# ---------------------------------------------------------------- the language


def test_english_spellings_run_a_whole_fight(tmp_path):
    """COMMANDS.md: «Keywords have an English and a Spanish spelling»."""
    path = new(tmp_path,
               "add Ana ac=6 agi=3 side=pj", "add Bo ac=5 agi=2", "add Cy ac=4",
               "start Ana 7", "start Bo 7", "roll Cy", "remove Cy",
               "surprise Bo", "begin")
    assert who(path, "Bo")["ac"] == 3
    ok(path, "Ana spend 2 abrir la puerta", "Bo hold", "Ana act" if False else "next")
    assert who(path, "Bo")["status"] == "holding"
    ok(path, "Bo act")
    assert state(path)["queue"] == ["Bo"]
    ok(path, "Bo done", "cond Ana +agarrado", "cond Ana -agarrado",
       "damage Ana 2", "note Ana hola", "hide Ana", "reveal Ana", "undo", "redo",
       "melee-fatigue off", "newturn")
    assert state(path)["turn"] == 2


def test_wait_and_trigger_in_english(tmp_path):
    """COMMANDS.md: `NAME espera [TEXT]` / `NAME wait [TEXT]`; `NAME interrumpe MANIOBRA
    [N]` / `NAME trigger …`."""
    path = new(tmp_path, "alta W ac=6", "alta Y ac=5", "momento W 7", "momento Y 7",
               "empezar", "W wait si Y se mueve", "Y mover 2", f"W trigger {SHOOT}")
    assert mark(path, "W") == (4, 3)


def test_keyword_fin_wins_over_the_fintar_prefix(tmp_path):
    """COMMANDS.md: «the command keywords below are matched before maneuver ids»:
    `fin` is a keyword, though `fin` is also a prefix of `fintar`."""
    path = solo(tmp_path, 7, "A fin")
    a = who(path, "A")
    assert a["status"] == "done" and a["attacks"] == 0


def test_maneuver_ids_of_the_examples(tmp_path):
    """COMMANDS.md: Puñetazo → `punetazo`, Disparar Armas Largas → `disparar-armas-largas`,
    Atacar con Armas de 1 Mano → `atacar-con-armas-de-1-mano`."""
    for line, cost in (("A punetazo", 2), (f"A {SHOOT}", 3), ("A atacar-con-armas-de-1-mano", 3)):
        path = solo(tmp_path, 7, line)
        assert mark(path, "A") == (9 - cost, 7 - cost), line
        (tmp_path / "f.toml").unlink()


def test_talent_ids_of_the_examples(tmp_path):
    """COMMANDS.md: «Artista Marcial → `artista-marcial`, Gun Kata → `gun-kata`, Maestro
    de Esgrima → `maestro-de-esgrima`, Puntería Zen → `punteria-zen`»."""
    path = new(tmp_path, "alta A ac=7 talentos=artista-marcial,gun-kata,maestro-de-esgrima,punteria-zen")
    assert set(who(path, "A")["talents"]) >= {"artista-marcial", "gun-kata",
                                              "maestro-de-esgrima", "punteria-zen"}


def test_an_exact_name_wins_over_a_longer_one(tmp_path):
    """COMMANDS.md: «an exact name or id wins, otherwise a unique prefix is accepted»."""
    path = new(tmp_path, "alta Al ac=5", "alta Alba ac=5", "baja al")
    assert [c["name"] for c in state(path)["combatants"]] == ["Alba"]


def test_an_ambiguous_prefix_of_two_soldiers_is_refused(tmp_path):
    """COMMANDS.md: «otherwise a unique prefix is accepted»: `Soldado` is not unique."""
    path = example(tmp_path)
    refused(path, f"soldado {COVER}")


def test_accents_are_optional_in_dano(tmp_path):
    """COMMANDS.md: «accents are optional when typing (`dano` = `daño`)»."""
    path = new(tmp_path, "alta A ac=5", "daño A 1", "dano A 1")
    assert who(path, "A")["wounds"] == 2


def test_a_refusal_names_the_rule_in_spanish(tmp_path):
    """COMMANDS.md: «A refused command … says why in one line, in Spanish, naming the rule
    ("Sven no tiene AC para esquivar (le quedan 0)")»."""
    path = example(tmp_path, "sven fin")
    stderr = refused(path, "sven esquivar")
    assert "Sven" in stderr


# ---------------------------------------------------------------- alta & setting up


def test_alta_fields_reach_the_json(tmp_path):
    """COMMANDS.md: `alta NAME ac=N [ini=N] [agi=N] [ate=N] [hab=N] [mov=N]
    [bando=pj|pnj|NAME] [oculto] [talentos=a,b]`."""
    path = new(tmp_path, "alta Ana ac=6 ini=2 agi=3 ate=4 hab=5 mov=6 bando=Piratas oculto "
               "talentos=gun-kata,ambidiestro")
    a = who(path, "Ana")
    assert a["ac_per_turn"] == 6 and a["hidden"] is True
    assert a["side"].lower() == "piratas"
    assert a["start"] is None  # no start moment until «momento» or «tirar»


def test_alta_defaults_to_a_visible_combatant(tmp_path):
    """COMMANDS.md: `oculto` is optional; without it `hidden` is false."""
    path = new(tmp_path, "alta Ana ac=6 bando=pj")
    a = who(path, "Ana")
    assert a["hidden"] is False and a["side"] == "pj" and a["start"] is None


def test_names_are_unique_case_insensitive(tmp_path):
    """RULES.md §2: «name (unique in the fight, case-insensitive)»."""
    path = new(tmp_path, "alta Ana ac=5")
    refused(path, "alta ANA ac=4")


def test_tirar_rolls_1d6_plus_ini(tmp_path):
    """RULES.md §2: «start = 1d6 + INI»."""
    path = new(tmp_path, *(f"alta P{i} ac=5 ini=3" for i in range(8)), "tirar")
    for c in state(path)["combatants"]:
        assert 4 <= c["start"] <= 9


def test_tirar_without_names_skips_who_has_a_start(tmp_path):
    """COMMANDS.md: `tirar` «for everyone without a start moment»."""
    path = new(tmp_path, "alta A ac=5 ini=1", "alta B ac=5 ini=1", "momento A 20", "tirar")
    assert who(path, "A")["start"] == 20
    assert 2 <= who(path, "B")["start"] <= 7


def test_momento_accepts_a_negative_or_large_total(tmp_path):
    """COMMANDS.md: `momento NAME N`: «the typed total of 1d6+INI» (INI may be negative)."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "momento A 0", "momento B 12",
               "empezar")
    assert who(path, "A")["start"] == 0 and state(path)["moment"] == 12


def test_empezar_refused_when_someone_has_no_start(tmp_path):
    """COMMANDS.md: `empezar` «(everyone needs a start moment)»."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "momento A 3")
    refused(path, "empezar")
    assert state(path)["turn"] == 0


def test_json_before_empezar_turn_0_moment_null(tmp_path):
    """COMMANDS.md: «`turn` is 0 before `empezar`. `moment` … (null before the fight
    starts)»."""
    path = new(tmp_path, "alta A ac=5", "momento A 3")
    data = state(path)
    assert data["turn"] == 0 and data["moment"] is None and data["window"] is None


def test_alta_mid_fight_joins_at_its_start_moment(tmp_path):
    """COMMANDS.md: `alta` «(also mid-fight: it joins at its start moment)»."""
    path = example(tmp_path, "alta Zed ac=4 momento=2")
    z = who(path, "Zed")
    assert (z["start"], z["marker"], z["ac"], z["status"]) == (2, 2, 4, "ready")


def test_copias_each_its_own_column(tmp_path):
    """COMMANDS.md: «N combatants `NAME 1` … `NAME N` with the same stats»."""
    path = new(tmp_path, "alta Guardia ac=4 agi=2 copias=3")
    names = [c["name"] for c in state(path)["combatants"]]
    assert names == ["Guardia 1", "Guardia 2", "Guardia 3"]
    assert {c["ac_per_turn"] for c in state(path)["combatants"]} == {4}


def test_copies_in_english(tmp_path):
    """COMMANDS.md: `add NAME … copies=N`."""
    path = new(tmp_path, "add Orco ac=4 copies=2")
    assert [c["name"] for c in state(path)["combatants"]] == ["Orco 1", "Orco 2"]


def test_tirar_juntos_shares_one_roll_each_its_own_marker(tmp_path):
    """RULES.md §2: «as a group (one roll shared by the members; each member still has its
    own marker and AC)»."""
    path = new(tmp_path, "alta Orco ac=4 ini=2 copias=3", "tirar juntos", "empezar")
    starts = {c["start"] for c in state(path)["combatants"]}
    assert len(starts) == 1 and 3 <= starts.pop() <= 8
    first = state(path)["queue"][0]
    ok(path, f'"{first}" {SHOOT}')
    markers = sorted(c["marker"] for c in state(path)["combatants"])
    assert markers[0] == markers[1] - 3 or markers[0] < markers[1]


# ---------------------------------------------------------------- the countdown


def test_turn_start_marker_ac_status(tmp_path):
    """RULES.md §3: «Turn start. marker = start, ac = ac_per_turn, status = ready …
    The current moment is the highest marker»."""
    path = example(tmp_path)
    data = state(path)
    assert data["turn"] == 1 and data["moment"] == 7 and data["queue"] == ["Mike"]
    for c in data["combatants"]:
        assert c["marker"] == c["start"] and c["ac"] == c["ac_per_turn"]
        assert c["status"] == "ready" and c["attacks"] == 0 and c["carried"] is None


def test_spending_sets_acted_then_done_at_zero(tmp_path):
    """RULES.md §3: «Its status becomes `acted` (or `done` when `ac == 0`)»."""
    path = solo(tmp_path, 5, f"A {SHOOT}")
    assert who(path, "A")["status"] == "acted"
    ok(path, "A gasta 2 recargar")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (4, 0, "done")


def test_queue_ready_before_acted_even_with_lower_agilidad(tmp_path):
    """RULES.md §3: «first those who have not acted this turn (`ready`), by higher
    Agilidad …; then those who have already acted»."""
    path = new(tmp_path, "alta Rapido ac=5 agi=5", "alta Lento ac=5 agi=1", "alta X ac=5",
               "momento Rapido 6", "momento Lento 4", "momento X 2", "empezar",
               "Rapido gasta 2")
    assert state(path)["queue"] == ["Lento", "Rapido"]


def test_queue_by_agilidad_then_atencion_then_skill(tmp_path):
    """RULES.md §3: «by higher Agilidad, then higher Atención, then higher first-maneuver
    skill»."""
    path = new(tmp_path, "alta A ac=5 agi=2 ate=2 hab=1", "alta B ac=5 agi=2 ate=2 hab=3",
               "alta C ac=5 agi=2 ate=3 hab=0", "alta D ac=5 agi=3 ate=0 hab=0",
               *(f"momento {n} 5" for n in "ABCD"), "empezar")
    assert state(path)["queue"] == ["D", "C", "B", "A"]


def test_queue_tie_after_all_keys_keeps_roster_order(tmp_path):
    """RULES.md §3: «any tie left after all keys keeps roster order»."""
    path = new(tmp_path, "alta Zeta ac=5 agi=2", "alta Alfa ac=5 agi=2",
               "momento Zeta 5", "momento Alfa 5", "empezar")
    assert state(path)["queue"] == ["Zeta", "Alfa"]


def test_queue_acted_ones_by_agilidad_before_arrival(tmp_path):
    """RULES.md §3: «then those who have already acted, by the same keys, then by arrival»."""
    path = new(tmp_path, "alta Lento ac=5 agi=1", "alta Rapido ac=5 agi=5", "alta X ac=5",
               "momento Lento 7", "momento Rapido 6", "momento X 1", "empezar",
               "Lento gasta 2", "Rapido gasta 1")
    assert state(path)["moment"] == 5
    assert state(path)["queue"] == ["Rapido", "Lento"]


def test_queue_acted_ones_with_equal_keys_by_arrival(tmp_path):
    """RULES.md §3: «then by arrival (who reached `m` first)»."""
    path = new(tmp_path, "alta Segundo ac=5 agi=2", "alta Primero ac=5 agi=2", "alta X ac=5",
               "momento Segundo 6", "momento Primero 7", "momento X 1", "empezar",
               "Primero gasta 2", "Segundo gasta 1")
    assert state(path)["moment"] == 5
    assert state(path)["queue"] == ["Primero", "Segundo"]


def test_the_log_says_which_key_decided_a_tie(tmp_path):
    """RULES.md §3: «the log says which key decided each tie»."""
    path = new(tmp_path, "alta A ac=5 agi=2 ate=1", "alta B ac=5 agi=2 ate=4",
               "momento A 5", "momento B 5", "empezar")
    assert state(path)["queue"] == ["B", "A"]
    assert logged(path, "Atención")


def test_advancing_skips_empty_moments(tmp_path):
    """RULES.md §3: «the countdown moves to the highest marker among combatants that can
    still act (skipping empty moments …)»."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "momento A 10", "momento B 2",
               "empezar", "A gasta 1")
    assert state(path)["moment"] == 9 and state(path)["queue"] == ["A"]
    ok(path, "A fin")
    assert state(path)["moment"] == 2 and state(path)["queue"] == ["B"]


def test_invariant_every_active_marker_at_most_the_moment(tmp_path):
    """RULES.md §3: «Invariant: every active combatant has `marker ≤` current moment»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}")
    data = state(path)
    for c in data["combatants"]:
        if c["status"] not in ("done", "out"):
            assert c["marker"] <= data["moment"], c


def test_reaction_before_ones_moment(tmp_path):
    """RULES.md §3: «Reactions … even before their own moment: `ac −= cost`,
    `marker = min(marker, m) − cost`. A reaction counts as having acted»."""
    path = example(tmp_path, f"sven {COVER}")
    s = who(path, "Sven")
    assert (s["marker"], s["ac"], s["status"]) == (4, 4, "acted")


def test_a_reaction_counts_as_acted_in_the_queue_order(tmp_path):
    """RULES.md §3: «A reaction counts as having acted»: at moment 4 Soldado 2 (ready)
    goes before Sven, who dodged at 7, despite Sven's higher Agilidad."""
    path = example(tmp_path, "sven esquivar", f"mike {SHOOT}", f"{S1} {SHOOT}")
    # Mike 4, Sven 4 (dodged), Sold. 1 at 3, Sold. 2 at 4
    data = state(path)
    assert data["moment"] == 4
    assert data["queue"] == ["Soldado 2", "Mike", "Sven"]


def test_every_reaction_of_the_list(tmp_path):
    """RULES.md §3: «Reactions (Esquivar, Ponerse a Cubierto, Parada, Parada con armas,
    Bloqueo, Usar la Fuerza del Otro, Esquivar Disparos) may be declared at any moment»."""
    for line, cost in (("esquivar", 1), (COVER, 1), ("parada", 2), ("parada-con-armas", 2),
                       ("bloqueo", 3), ("usar-la-fuerza-del-otro", 5), ("esquivar-disparos", 1)):
        path = new(tmp_path, "alta A ac=9", "alta R ac=7 talentos=artista-marcial,gun-kata",
                   "momento A 9", "momento R 4", "empezar", f"R {line}")
        r = who(path, "R")
        assert (r["marker"], r["ac"]) == (4 - cost, 7 - cost), line
        (tmp_path / "f.toml").unlink()


def test_a_non_reaction_out_of_turn_is_refused(tmp_path):
    """RULES.md §3: only reactions «may be declared at any moment»; a shot is not."""
    path = example(tmp_path)
    refused(path, f"sven {SHOOT}")


def test_too_few_ac_to_react_is_refused(tmp_path):
    """RULES.md §3: «A combatant with too few AC cannot react: a clear refusal, nothing
    changes»."""
    path = solo(tmp_path, 3, f"A {SHOOT}")
    refused(path, "A esquivar", "AC")


def test_the_example_refusal_wording(tmp_path):
    """COMMANDS.md: «("Sven no tiene AC para esquivar (le quedan 0)")»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}", f"mike {COVER}", f"{S2} {SHOOT}",
                   "mike apuntar", f"{S1} apuntar", f"sven {SHOOT}")
    assert who(path, "Sven")["ac"] == 0
    stderr = refused(path, "sven esquivar")
    assert "Sven no tiene AC para esquivar (le quedan 0)" in stderr


def test_carry_over_invests_all_and_completes_next_turn(tmp_path):
    """RULES.md §3 Carry-over: «`marker = m − ac`, `ac = 0`, `done` … `remaining = c −
    invested`. Next turn … `marker = start − remaining`, `ac = ac_per_turn − remaining`»;
    COMMANDS.md `carried`."""
    path = new(tmp_path, "alta A ac=5", "momento A 6", "empezar", f"A {SHOOT}", f"A {HEAVY}")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (1, 0, "done")
    assert a["carried"] == {"maneuver": HEAVY, "remaining": 2}
    ok(path, "turno")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["carried"]) == (4, 3, None)
    assert logged(path, "completa")


def test_a_completed_carried_attack_counts_in_the_new_turn(tmp_path):
    """RULES.md §3/§4: the carried shot is completed in turn 2, so the next attack there is
    the second of the turn (cumulative −1)."""
    path = new(tmp_path, "alta A ac=5", "momento A 6", "empezar", f"A {SHOOT}", f"A {HEAVY}",
               "turno")
    a = who(path, "A")
    assert a["attacks"] == 1 and a["modifier"] == -1


def test_losing_a_carried_maneuver_to_a_dodge(tmp_path):
    """RULES.md §3: «If the combatant spends AC on anything else (a dodge, say) before the
    carried maneuver is completed, the carried maneuver is abandoned»."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "momento A 3", "momento B 8",
               "empezar", "B fin", f"A {SHOOT}", f"A {HEAVY}", "turno", "A esquivar")
    a = who(path, "A")
    assert a["carried"] is None
    assert (a["marker"], a["ac"]) == (2, 4)


def test_hold_costs_nothing_and_the_holder_acts_last(tmp_path):
    """RULES.md §3: «Hold … Costs nothing. The holder's marker follows the countdown; when
    it chooses to act, it acts last in the current moment»; COMMANDS.md `queue`
    «(holders who chose to act included, last)»."""
    path = new(tmp_path, "alta H ac=5 agi=9", "alta A ac=5", "alta B ac=5",
               "momento H 7", "momento A 4", "momento B 4", "empezar", "H retrasa")
    h = who(path, "H")
    assert h["status"] == "holding" and h["ac"] == 5
    assert state(path)["moment"] == 4 and h["marker"] == 4
    ok(path, "H actua")
    assert state(path)["queue"] == ["A", "B", "H"]


def test_a_holder_acting_spends_from_the_current_moment(tmp_path):
    """RULES.md §3: «it acts last in the current moment and spends from there»."""
    path = new(tmp_path, "alta H ac=5", "alta A ac=5", "momento H 7", "momento A 4",
               "empezar", "H retrasa", "A gasta 1", "H actua", f"H {SHOOT}")
    # H followed the countdown 7 → 4 → 3 (A moved on to 3), shoots there
    assert mark(path, "H") == (0, 2)


def test_actua_without_holding_is_refused(tmp_path):
    """COMMANDS.md: `NAME actua`: «a holder acts now»; someone not holding cannot."""
    path = example(tmp_path)
    refused(path, "sven actua")


def test_wait_pays_one_ac_per_moment_passed(tmp_path):
    """RULES.md §3 Wait: «Each moment the countdown passes costs 1 AC and lowers the
    marker by 1 (the marker follows the countdown)»."""
    path = new(tmp_path, "alta W ac=5", "alta B ac=5", "momento W 7", "momento B 4",
               "empezar", "W espera a que B se mueva")
    w = who(path, "W")
    assert w["status"] == "waiting" and state(path)["moment"] == 4
    assert (w["marker"], w["ac"]) == (4, 2)
    assert "B se mueva" in (w["trigger"] or "")


def test_a_waiter_whose_ac_reach_zero_is_done(tmp_path):
    """RULES.md §3: «A waiter whose AC reach 0 is `done`»."""
    path = new(tmp_path, "alta W ac=2", "alta B ac=5", "momento W 7", "momento B 1",
               "empezar", "W espera algo")
    assert who(path, "W")["status"] == "done" and who(path, "W")["ac"] == 0


def test_an_interrupt_carries_when_ac_run_short(tmp_path):
    """RULES.md §3: «the waiter interrupts: it performs the announced maneuver right then
    (carried if AC run short)»."""
    path = new(tmp_path, "alta W ac=5", "alta B ac=5", "momento W 7", "momento B 4",
               "empezar", "W espera", "B gasta 1")
    # W has paid 4 moments (7→3): 1 AC left; a 3-AC shot is carried with 2 left
    assert mark(path, "W") == (3, 1)
    ok(path, f"W interrumpe {SHOOT} ahora")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["status"]) == (2, 0, "done") and w["carried"] == {"maneuver": SHOOT, "remaining": 2}


def test_interrumpe_without_waiting_is_refused(tmp_path):
    """COMMANDS.md: `interrumpe`: «a waiter's trigger happened»; a non-waiter cannot."""
    path = example(tmp_path)
    refused(path, f"mike interrumpe {SHOOT}")


def test_done_gives_up_and_cannot_react(tmp_path):
    """RULES.md §3 Done: «gives up its remaining AC this turn; it cannot react any more»."""
    path = example(tmp_path, "sven fin")
    assert who(path, "Sven")["status"] == "done"
    refused(path, "sven esquivar")


def test_siguiente_makes_those_who_did_not_act_holders(tmp_path):
    """COMMANDS.md: `siguiente`: «anyone at this moment who did not act starts holding»."""
    path = example(tmp_path, "siguiente")
    mike = who(path, "Mike")
    assert mike["status"] == "holding" and mike["ac"] == 7
    assert state(path)["moment"] == 6 and state(path)["queue"] == ["Soldado 1"]


def test_turn_over_when_everyone_is_done(tmp_path):
    """RULES.md §3 Turn end: «The turn is over when every combatant is `done` or `out` …
    The GM starts the next turn explicitly»."""
    path = new(tmp_path, "alta A ac=3", "alta B ac=3", "momento A 5", "momento B 4",
               "empezar", "A fin", "B fin")
    assert state(path)["turn_over"] is True and state(path)["turn"] == 1
    ok(path, "turno")
    data = state(path)
    assert data["turn"] == 2 and data["turn_over"] is False and data["moment"] == 5


def test_turno_makes_holders_and_waiters_decline(tmp_path):
    """COMMANDS.md `turno`: «end this turn and start the next (holders and waiters
    decline)»: the next turn starts fresh."""
    path = new(tmp_path, "alta H ac=5", "alta W ac=5", "alta C ac=5", "momento H 7",
               "momento W 7", "momento C 2", "empezar", "H retrasa", "W espera", "turno")
    data = state(path)
    assert data["turn"] == 2 and data["moment"] == 7
    for name in ("H", "W"):
        c = who(path, name)
        assert (c["marker"], c["ac"], c["status"], c["trigger"]) == (7, 5, "ready", None)


def test_negative_moments_are_normal(tmp_path):
    """RULES.md §3: «Negative moments are normal and have no effect on play»."""
    path = new(tmp_path, "alta A ac=6", "momento A 1", "empezar", f"A {SHOOT}")
    assert state(path)["moment"] == -2 and who(path, "A")["marker"] == -2
    ok(path, f"A {SHOOT}")
    assert who(path, "A")["marker"] == -5 and who(path, "A")["status"] == "done"


# ---------------------------------------------------------------- the reaction window


def window_hold(tmp_path: Path, *more: str) -> Path:
    """RULES.md §3's example: X holds at 7 and Y, also at 7, shoots X."""
    return new(tmp_path, "alta X ac=5 agi=5", "alta Y ac=5 agi=1", "alta Z ac=5",
               "momento X 7", "momento Y 7", "momento Z 2", "empezar",
               "X retrasa", f"Y {SHOOT}", *more)


def test_window_holder_dodge_lands_at_w_minus_cost(tmp_path):
    """RULES.md §3: «X holds at 7 and Y, also at 7, shoots X: X's dodge puts X at 6»;
    COMMANDS.md `window`."""
    path = window_hold(tmp_path)
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_window_stays_open_through_damage_notes_conditions_reveals(tmp_path):
    """RULES.md §3: «The window stays open through any number of reactions, interrupts,
    damage, healing, conditions, notes and reveals in a row»."""
    path = window_hold(tmp_path, "dano X 1", "nota X herido en el brazo",
                       "estado X +a-cubierto", "ocultar Z", "revelar Z")
    assert state(path)["window"] == 7
    ok(path, "X esquivar", "X esquivar")
    assert mark(path, "X") == (5, 3)
    assert state(path)["window"] == 7


def test_window_closes_on_adding_a_combatant(tmp_path):
    """RULES.md §3: «Anything else closes it: … adding or removing a combatant»."""
    path = window_hold(tmp_path, "alta Q ac=3 momento=1")
    assert state(path)["window"] is None


def test_window_closes_on_siguiente(tmp_path):
    """RULES.md §3: «Anything else closes it: … `siguiente`»."""
    path = window_hold(tmp_path, "siguiente")
    assert state(path)["window"] is None


def test_window_closes_on_done(tmp_path):
    """RULES.md §3: «Anything else closes it: … hold, wait, done»."""
    path = window_hold(tmp_path, "Z fin")
    assert state(path)["window"] is None


def test_window_closes_on_setting_a_start_moment(tmp_path):
    """RULES.md §3: «Anything else closes it: … setting start moments» (of a combatant
    added mid-fight without one)."""
    path = new(tmp_path, "alta X ac=5 agi=5", "alta Y ac=5 agi=1", "alta Z ac=5",
               "momento X 7", "momento Y 7", "momento Z 2", "empezar", "alta Q ac=3",
               "X retrasa", f"Y {SHOOT}")
    assert state(path)["window"] == 7
    ok(path, "momento Q 1")
    assert state(path)["window"] is None


def test_undo_reopens_the_window_exactly(tmp_path):
    """RULES.md §3: «Undo reopens it exactly as it was»."""
    path = window_hold(tmp_path, "siguiente", "deshacer")
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_window_after_a_reaction_the_countdown_moves_on(tmp_path):
    """RULES.md §3: «… and then the countdown moves on by itself again from there»:
    X, acted at 6, is the highest marker left."""
    path = window_hold(tmp_path, "X esquivar")
    data = state(path)
    assert data["moment"] == 6 and data["queue"] == ["X"]


def test_window_waiter_example(tmp_path):
    """RULES.md §3: «W waits at 7 for Y to move; Y moves at 7; W interrupts with a 3-AC
    shot: W ends at 4 with 3 AC left (it paid nothing for waiting)»."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera a que Y se mueva", "Y mover 2",
               f"W interrumpe {SHOOT}")
    assert mark(path, "W") == (4, 3)


def test_an_interrupt_keeps_the_window_at_w(tmp_path):
    """RULES.md §3: «an interrupt is itself an action at `w`, so the window stays at `w`»."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "alta X ac=5",
               "momento W 7", "momento Y 7", "momento X 7", "empezar",
               "W espera", "X retrasa", "Y mover 2", f"W interrumpe {SHOOT}")
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_window_a_pending_carried_maneuver_is_lost_to_the_reaction(tmp_path):
    """RULES.md §3: «a carried maneuver that would have completed further down is still
    pending, and is lost to the reaction»."""
    path = new(tmp_path, "alta C ac=5", "alta Y ac=5", "momento C 5", "momento Y 7",
               "empezar", "Y fin", f"C {SHOOT}", f"C {HEAVY}")
    assert who(path, "C")["carried"] == {"maneuver": HEAVY, "remaining": 2}
    ok(path, "turno", f"Y {SHOOT}")
    # the advance completed C's heavy shot at 5 (→ 3); the window is at 7
    assert state(path)["window"] == 7
    ok(path, "C esquivar")
    c = who(path, "C")
    assert c["carried"] is None
    assert (c["marker"], c["ac"]) == (4, 4)


def test_window_changes_nothing_when_nothing_was_skipped(tmp_path):
    """RULES.md §3: «When nothing was skipped (the queue at `w` is not empty yet), the
    window changes nothing: the reaction is at the current moment as before»."""
    path = new(tmp_path, "alta A ac=5 agi=5", "alta B ac=5 agi=1", "alta C ac=5",
               "momento A 7", "momento B 7", "momento C 3", "empezar", f"A {SHOOT}",
               "C esquivar")
    assert mark(path, "C") == (2, 4)
    assert state(path)["moment"] == 7 and state(path)["queue"] == ["B"]


def test_interrupt_ahora_is_at_the_current_moment_and_closes_the_window(tmp_path):
    """RULES.md §3: «An interrupt whose trigger is not the last action … takes `ahora` …:
    it happens at the current moment, and closes the window»."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "alta Z ac=6",
               "momento W 7", "momento Y 7", "momento Z 5", "empezar",
               "W espera", "Y gasta 1")
    # countdown at 6: W paid 1 (6 / 5 AC)
    ok(path, f"W interrumpe {SHOOT} ahora")
    assert mark(path, "W") == (3, 2)
    assert state(path)["window"] is None  # «… and closes the window»


# ---------------------------------------------------------------- maneuvers and costs


@pytest.mark.parametrize("line,cost", [
    ("carga 2", 5), ("mover 3", 3), ("rafaga-corta 3", 3), ("rafaga-media 3", 4),
    ("rafaga-larga 3", 5), ("fintar 3", 4), ("liderazgo", 3), ("atacar-con-armas-de-1-mano-a-dos-manos", 4),
])
def test_cdb_variable_and_fixed_costs(tmp_path, line, cost):
    """RULES.md §4: «Carga … = attack cost + movement AC …; Mover = N AC …; Ráfaga Corta =
    the weapon's shot cost, Media = shot + 1, Larga = shot + 2; Fintar = attack + 1; a
    one-handed weapon held in two hands: +1 AC; … Liderazgo = 3»."""
    path = solo(tmp_path, 9, f"A {line}")
    assert mark(path, "A") == (9 - cost, 9 - cost)


def test_golpe_en_el_aire_is_attack_plus_movement_in_one(tmp_path):
    """RULES.md §4: «Golpe en el Aire … = attack cost + movement AC, spent as one
    maneuver»."""
    path = solo(tmp_path, 9, "A golpe-en-el-aire 2", extra="talentos=artista-marcial")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["attacks"]) == (4, 4, 1)


def test_mover_y_disparar_and_disparo_en_el_aire_gun_kata(tmp_path):
    """RULES.md §4: «Mover y Disparar, Disparo en el Aire = attack cost + movement AC»."""
    for line in ("mover-y-disparar 2", "disparo-en-el-aire 2"):
        path = solo(tmp_path, 9, f"A {line}", extra="talentos=gun-kata")
        assert mark(path, "A") == (4, 4), line
        (tmp_path / "f.toml").unlink()


def test_disparo_simultaneo_costs_5_and_4_with_gun_fu(tmp_path):
    """RULES.md §4: «Disparo Simultáneo 5 (4 with Gun Fu …)»; «Ataque Doble and Disparo
    Simultáneo count as one»."""
    path = solo(tmp_path, 9, "A disparo-simultaneo", extra="talentos=gun-kata,ambidiestro")
    a = who(path, "A")
    assert (a["marker"], a["attacks"], a["modifier"]) == (4, 1, -1)
    (tmp_path / "f.toml").unlink()
    path = solo(tmp_path, 9, "A disparo-simultaneo", extra="talentos=gun-kata,ambidiestro,gun-fu")
    assert who(path, "A")["marker"] == 5


def test_ataque_doble_counts_as_one_attack(tmp_path):
    """RULES.md §4: «Ataque Doble and Disparo Simultáneo count as one»."""
    path = solo(tmp_path, 9, "A ataque-doble", extra="talentos=maestro-de-esgrima,ambidiestro")
    a = who(path, "A")
    assert (a["marker"], a["attacks"], a["modifier"]) == (4, 1, -1)


def test_carga_con_montura_is_two_plus_attack(tmp_path):
    """RULES.md §4: «Carga con Montura = 2 + attack (the mount pays its movement)»."""
    path = solo(tmp_path, 9, "alta Caballo ac=4", "monta A Caballo", "A carga-con-montura 3")
    assert who(path, "A")["marker"] == 4


def test_abandonar_duelo_costs_3(tmp_path):
    """RULES.md §4: «leaving a duel = 3»; §4 Book ids: «`abandonar-duelo` (3 AC)»."""
    path = solo(tmp_path, 9, "duelo A B", "A abandonar-duelo")
    # (a duel moves the duellists' start moments; the cost shows in the AC)
    assert who(path, "A")["ac"] == 6


def test_quedarse_a_la_espera_and_retrasar_book_ids(tmp_path):
    """RULES.md §4: «`retrasar-la-accion` and `quedarse-a-la-espera` are accepted as the
    book ids of hold and wait»; «Retrasar = 0»."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "momento A 7", "momento B 7",
               "empezar", "A retrasar-la-accion", "B quedarse-a-la-espera")
    assert who(path, "A")["status"] == "holding" and who(path, "A")["ac"] == 5
    assert who(path, "B")["status"] == "waiting"


def test_otra_accion_with_any_cost(tmp_path):
    """RULES.md §4: «A free "Otra acción" with any cost covers everything else»."""
    path = solo(tmp_path, 7, "A gasta 4 abrir una puerta")
    assert mark(path, "A") == (5, 3)
    assert who(path, "A")["attacks"] == 0


def test_free_action_of_zero_or_less_is_refused(tmp_path):
    """RULES.md §4: «A cost that no turn can hold (… zero or less for a free action) is
    refused»."""
    path = solo(tmp_path, 7)
    refused(path, "A gasta 0")
    refused(path, "A gasta -1")


def test_a_cost_above_the_ac_per_turn_is_refused(tmp_path):
    """RULES.md §4: «A cost that no turn can hold (more than the combatant's AC per turn
    …) is refused»."""
    path = solo(tmp_path, 7)
    refused(path, "A gasta 8")
    refused(path, "A mover 8")
    ok(path, "A gasta 7")
    assert who(path, "A")["status"] == "done"


def test_walkure_usar_arma_cuerpo_a_cuerpo_costs_3(tmp_path):
    """RULES.md §4: «Armas a 1/2 Manos become "Usar arma cuerpo a cuerpo" (3 AC)»."""
    path = solo(tmp_path, 9, "A usar-arma-cuerpo-a-cuerpo", rules="walkure")
    assert who(path, "A")["marker"] == 6 and who(path, "A")["attacks"] == 1


def test_walkure_carga_costs_the_movement(tmp_path):
    """RULES.md §4: «Walküre … Carga costs the movement»."""
    path = solo(tmp_path, 9, "A carga 2", rules="walkure")
    assert who(path, "A")["marker"] == 7 and who(path, "A")["attacks"] == 1


def test_walkure_golpe_en_el_aire_is_3_plus_movement(tmp_path):
    """RULES.md §4: «Golpe en el Aire and Disparo en el Aire cost 3 + movement»."""
    path = solo(tmp_path, 9, "A golpe-en-el-aire 2", extra="talentos=artista-marcial",
                rules="walkure")
    assert who(path, "A")["marker"] == 4


@pytest.mark.parametrize("maneuver", ["disparar-armas-de-polvora", "disparar-ballestas",
                                      "atacar-con-armas-de-1-mano", "atacar-con-armas-de-2-manos"])
def test_walkure_has_no_polvora_ballestas_or_armas_de_manos(tmp_path, maneuver):
    """RULES.md §4: «no Armas de Pólvora or Ballestas»; Armas a 1/2 Manos become "Usar arma
    cuerpo a cuerpo"."""
    path = solo(tmp_path, 9, rules="walkure")
    refused(path, f"A {maneuver}")


@pytest.mark.parametrize("rules", ["cdb", "walkure"])
def test_walkure_and_cdb_have_abandonar_duelo_and_carga_con_montura(tmp_path, rules):
    """RULES.md §4: «Walküre has the same `abandonar-duelo` (3 AC) and `carga-con-montura`
    as CdB»."""
    path = solo(tmp_path, 9, "duelo A B", "A abandonar-duelo", rules=rules)
    assert who(path, "A")["ac"] == 6
    (tmp_path / "f.toml").unlink()
    path = solo(tmp_path, 9, "alta Caballo ac=4", "monta A Caballo", "A carga-con-montura 3",
                rules=rules)
    assert who(path, "A")["marker"] == 4


# ---------------------------------------------------------------- attacks, aim, talents


def test_attack_count_is_cumulative(tmp_path):
    """RULES.md §4: «Each attack maneuver after the first in a turn gives a cumulative −1»;
    «The UI shows the penalty the *next* attack would take»."""
    path = solo(tmp_path, 9)
    assert who(path, "A")["modifier"] == 0
    ok(path, "A punetazo")
    assert who(path, "A")["modifier"] == -1
    ok(path, "A punetazo")
    assert who(path, "A")["modifier"] == -2
    ok(path, "A punetazo")
    a = who(path, "A")
    assert a["attacks"] == 3 and a["modifier"] == -3


def test_attack_count_resets_each_turn(tmp_path):
    """RULES.md §3: «Turn start … attack count 0»."""
    path = solo(tmp_path, 9, f"A {SHOOT}", f"A {SHOOT}", "turno")
    a = who(path, "A")
    assert a["attacks"] == 0 and a["modifier"] == 0


def test_disparar_arcos_counts_as_an_attack(tmp_path):
    """RULES.md §4: «Disparar Arcos … Decision: it counts as an attack»."""
    path = solo(tmp_path, 9, "A disparar-arcos")
    assert who(path, "A")["attacks"] == 1 and who(path, "A")["modifier"] == -1


def test_apuntar_successive_turns_up_to_three(tmp_path):
    """RULES.md §4 Apuntar: «+1 per Apuntar in successive turns, max +3»."""
    path = solo(tmp_path, 9, "A apuntar")
    assert who(path, "A")["aim"] == 1
    for expected in (2, 3, 3):
        ok(path, "turno", "A apuntar")
        assert who(path, "A")["aim"] == expected
    assert who(path, "A")["modifier"] == 3


def test_apuntar_used_up_by_the_next_attack(tmp_path):
    """RULES.md §4: «the bonus is used up by the next attack»."""
    path = solo(tmp_path, 9, "A apuntar", "turno", "A apuntar", f"A {SHOOT}")
    a = who(path, "A")
    assert a["aim"] == 0 and a["modifier"] == -1


def test_apuntar_not_after_movement_without_punteria_zen(tmp_path):
    """RULES.md §4: «not in a turn with movement unless Puntería Zen»."""
    path = solo(tmp_path, 9, "A mover 1")
    refused(path, "A apuntar")
    (tmp_path / "f.toml").unlink()
    path = solo(tmp_path, 9, "A mover 1", "A apuntar", extra="talentos=punteria-zen")
    assert who(path, "A")["aim"] == 1


def test_apuntar_at_most_once_per_turn(tmp_path):
    """RULES.md §4: «at most one per turn»."""
    path = solo(tmp_path, 9, "A apuntar")
    refused(path, "A apuntar")


def test_aim_is_kept_through_a_bloqueo_reaction(tmp_path):
    """RULES.md §4: «The Apuntar bonus is used up by the next attack that is *not* a
    reaction; a Bloqueo or Usar la Fuerza del Otro made as a reaction keeps it»."""
    path = new(tmp_path, "alta A ac=9 talentos=artista-marcial", "alta B ac=9",
               "momento A 9", "momento B 9", "empezar")
    ok(path, "A apuntar")
    ok(path, "A bloqueo")
    assert who(path, "A")["aim"] == 1


def test_talent_maneuver_without_the_talent_is_refused_naming_it(tmp_path):
    """RULES.md §4: «A maneuver that needs a talent the combatant lacks (Proyectar,
    Bloqueo, Golpe en el Aire, Usar la Fuerza del Otro without Artista Marcial; …) is
    refused, naming the talent»."""
    path = solo(tmp_path, 9)
    for maneuver in ("proyectar", "bloqueo", "golpe-en-el-aire 1", "usar-la-fuerza-del-otro"):
        stderr = refused(path, f"A {maneuver}")
        assert "artista marcial" in stderr.lower() or "artista-marcial" in stderr.lower()
    stderr = refused(path, "A esquivar-disparos")
    assert "gun kata" in stderr.lower() or "gun-kata" in stderr.lower()
    stderr = refused(path, "A ataque-doble")
    assert "maestro de esgrima" in stderr.lower() or "maestro-de-esgrima" in stderr.lower()


def test_one_book_name_two_talents_is_refused_listing_both(tmp_path):
    """RULES.md §4: «with both talents the command is refused listing the two ids»."""
    path = solo(tmp_path, 9, extra="talentos=artista-marcial,maestro-de-esgrima")
    stderr = refused(path, "A bloqueo")
    assert "bloqueo-artista-marcial" in stderr and "bloqueo-esgrima" in stderr


def test_one_book_name_resolves_to_the_talent_one_has(tmp_path):
    """RULES.md §4: «the name resolves to the version of the talent the combatant has»;
    «The Maestro de Esgrima's Bloqueo is … a reaction, not an attack maneuver»."""
    path = solo(tmp_path, 9, "A bloqueo", extra="talentos=maestro-de-esgrima")
    a = who(path, "A")
    assert (a["marker"], a["attacks"]) == (6, 0)


def test_artista_marcial_discounts(tmp_path):
    """RULES.md §4: «Artista Marcial: Agarrón, Asfixiar, Desarmar, Escapar and Presa cost
    1 less»."""
    for maneuver, cost in (("agarron", 3), ("asfixiar", 3), ("desarmar", 2), ("presa", 3)):
        path = solo(tmp_path, 9, f"A {maneuver}", extra="talentos=artista-marcial")
        assert who(path, "A")["marker"] == 9 - cost, maneuver
        (tmp_path / "f.toml").unlink()


def test_esquivar_disparos_once_per_turn(tmp_path):
    """RULES.md §4: «Esquivar Disparos (Gun Kata): at most once per turn»."""
    path = solo(tmp_path, 9, "A esquivar-disparos", extra="talentos=gun-kata")
    refused(path, "A esquivar-disparos")
    ok(path, "turno", "A esquivar-disparos")


def test_escapar_is_never_carried(tmp_path):
    """RULES.md §4: «Escapar … is never carried into the next turn (refused when the AC
    left are short)»."""
    path = solo(tmp_path, 6, "estado A +agarrado")
    # AC halved at once: 3 left, Escapar costs 4
    assert who(path, "A")["ac"] == 3
    refused(path, "A escapar")


def test_agarrado_refuses_other_maneuvers_allows_the_listed(tmp_path):
    """RULES.md §4: «Agarrado: besides reactions and free spends (`gasta`), only Escapar,
    Patada and Puñetazo …; every other maneuver is refused naming the rule»."""
    path = solo(tmp_path, 9, "estado A +agarrado")
    refused(path, f"A {SHOOT}", "agarrado")
    ok(path, "A patada")
    ok(path, "A esquivar")


def test_inmovilizado_refuses_everything_but_escapar(tmp_path):
    """RULES.md §4: «Inmovilizado: only Escapar …: everything else is refused, reactions
    and free spends included»."""
    path = solo(tmp_path, 9, "estado A +inmovilizado")
    refused(path, "A esquivar", "inmovilizado")
    refused(path, "A gasta 1", "inmovilizado")
    refused(path, "A patada", "inmovilizado")


def test_sorprendido_needs_a_reconocimiento_sentidos_de_combate_counts(tmp_path):
    """RULES.md §4: «Sentidos de combate (Maestro de Esgrima, Gun Kata) is a Reconocimiento
    and satisfies a surprised combatant's need for one»."""
    path = new(tmp_path, "alta A ac=9 talentos=gun-kata", "alta B ac=3", "momento A 9",
               "momento B 1", "sorpresa A", "empezar", "A sentidos-de-combate")
    result = cdbtui("do", str(path), f"A {SHOOT}")
    assert result.returncode == 0
    assert "reconocimiento" not in result.stderr.lower()


# ---------------------------------------------------------------- conditions


def test_sorprendido_half_ac_rounded_up_first_turn_only(tmp_path):
    """RULES.md §5: «Sorprendido: in the first turn, AC = ⌈AC/2⌉»."""
    path = new(tmp_path, "alta A ac=7", "alta B ac=5", "momento A 9", "momento B 1",
               "sorpresa A B", "empezar")
    assert who(path, "A")["ac"] == 4 and who(path, "B")["ac"] == 3
    ok(path, "turno")
    assert who(path, "A")["ac"] == 7 and who(path, "B")["ac"] == 5


def test_agarrado_halves_the_remaining_ac_at_once(tmp_path):
    """RULES.md §5: «Agarrado … AC ×½ … rounded up … applied to the remaining AC at once
    and to the per-turn AC while it lasts; removing it restores full AC from the next
    turn»."""
    path = solo(tmp_path, 7, "estado A +agarrado")
    assert who(path, "A")["ac"] == 4
    ok(path, "turno")
    assert who(path, "A")["ac"] == 4
    ok(path, "estado A -agarrado")
    assert who(path, "A")["ac"] == 4
    ok(path, "turno")
    assert who(path, "A")["ac"] == 7


def test_inmovilizado_quarters_rounded_up(tmp_path):
    """RULES.md §5: «Inmovilizado (Presa): AC ×¼ … rounded up»."""
    path = solo(tmp_path, 9, "estado A +inmovilizado")
    assert who(path, "A")["ac"] == 3
    ok(path, "turno")
    assert who(path, "A")["ac"] == 3


def test_a_condition_in_the_json_conditions_list(tmp_path):
    """COMMANDS.md: «`conditions` stays a list of ids»."""
    path = solo(tmp_path, 7, "estado A +a-cubierto")
    assert who(path, "A")["conditions"] == ["a-cubierto"]
    ok(path, "estado A -a-cubierto")
    assert who(path, "A")["conditions"] == []


@pytest.mark.parametrize("cond", ["agarrado", "inmovilizado", "sorprendido", "a-cubierto",
                                  "estabilizado", "aturdido"])
def test_known_conditions_are_accepted(tmp_path, cond):
    """RULES.md §5: «`estado` takes the conditions the rules know (those above,
    `a-cubierto`, `en-duelo`, `montado`, `estabilizado` …)»; COMMANDS.md's `aturdido`."""
    path = solo(tmp_path, 7, f"estado A +{cond}")
    assert cond in who(path, "A")["conditions"]


def test_unknown_condition_example_wording(tmp_path):
    """RULES.md §5: «("No conozco el estado «agarado»: ¿agarrado?")»."""
    path = solo(tmp_path, 7)
    stderr = refused(path, "estado A +agarado")
    assert "No conozco el estado «agarado»: ¿agarrado?" in stderr


def test_duration_expires_at_the_end_of_the_nth_turn(tmp_path):
    """RULES.md §5: «`turnos=N` ends it by itself at the end of the N-th turn counting the
    current one …, with a log line ("Sven: −aturdido (fin de su duración)")»; COMMANDS.md
    `expires`: «`{"aturdido": 3}` (the turn at whose end it ends)»."""
    path = new(tmp_path, "alta Sven ac=5", "momento Sven 5", "empezar",
               "estado Sven +aturdido turnos=3")
    assert who(path, "Sven")["expires"] == {"aturdido": 3}
    ok(path, "turno", "turno")
    assert "aturdido" in who(path, "Sven")["conditions"]
    ok(path, "turno")
    s = who(path, "Sven")
    assert "aturdido" not in s["conditions"] and s["expires"] == {}
    assert logged(path, "Sven: −aturdido (fin de su duración)")


def test_turnos_1_ends_at_the_end_of_this_turn(tmp_path):
    """RULES.md §5: «(`turnos=1`: at the end of this turn)»."""
    path = new(tmp_path, "alta Sven ac=5", "momento Sven 5", "empezar",
               "estado Sven +a-cubierto turnos=1")
    assert who(path, "Sven")["expires"] == {"a-cubierto": 1}
    ok(path, "turno")
    assert who(path, "Sven")["conditions"] == []


def test_notes_in_the_json_with_turns_left(tmp_path):
    """COMMANDS.md: «per combatant, `notes`: a list of `{"text": …, "turns_left": N or
    null}`»; `nota NAME -` clears."""
    path = new(tmp_path, "alta Sven ac=5", "momento Sven 5", "empezar",
               "nota Sven sangra", "nota Sven 'ciego' turnos=2")
    notes = who(path, "Sven")["notes"]
    assert notes[0] == {"text": "sangra", "turns_left": None}
    assert notes[1]["turns_left"] == 2 and "ciego" in notes[1]["text"]
    ok(path, "turno")
    assert who(path, "Sven")["notes"][1]["turns_left"] == 1
    ok(path, "turno")
    assert [n["text"] for n in who(path, "Sven")["notes"]] == ["sangra"]
    ok(path, "nota Sven -")
    assert who(path, "Sven")["notes"] == []


def test_notes_have_no_rules_effect(tmp_path):
    """RULES.md §5: «notes have no rules effect»."""
    path = solo(tmp_path, 7, "nota A agarrado por el cuello")
    a = who(path, "A")
    assert a["ac"] == 7 and a["conditions"] == [] and a["modifier"] == 0


def test_revelar_and_ocultar(tmp_path):
    """COMMANDS.md: `revelar NAME` / `ocultar NAME`; JSON `hidden`."""
    path = new(tmp_path, "alta Espia ac=5 bando=pnj oculto")
    assert who(path, "Espia")["hidden"] is True
    ok(path, "revelar Espia")
    assert who(path, "Espia")["hidden"] is False
    ok(path, "hide Espia")
    assert who(path, "Espia")["hidden"] is True


def test_incapacitado_by_wounds_no_maneuvers(tmp_path):
    """RULES.md §5: «Incapacitado (wounds or fatigue): no maneuvers»."""
    path = solo(tmp_path, 9, "dano A 0", extra="vida=1,1,1,1,1")
    ok(path, "dano A 3")
    assert who(path, "A")["wounds"] == 4
    refused(path, f"A {SHOOT}")


def test_moribundo_is_out_and_skipped(tmp_path):
    """RULES.md §5: «Moribundo / Exhausto (unconscious): `out`, skipped by the countdown»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 9",
               "momento B 3", "empezar", "dano A 5")
    assert who(path, "A")["status"] == "out"
    assert state(path)["moment"] == 3 and state(path)["queue"] == ["B"]
    ok(path, "turno")
    assert state(path)["moment"] == 3 and who(path, "A")["status"] == "out"


# ---------------------------------------------------------------- wounds and fatigue


@pytest.mark.parametrize("line,boxes", [
    ("dano A 3 rd=5", 0), ("dano A 5 rd=5", 1), ("dano A 6 rd=4", 2), ("dano A 1 rd=-1", 2),
    ("dano A 0", 1), ("damage A 2", 2),
])
def test_dano_total_is_dano_minus_rd(tmp_path, line, boxes):
    """RULES.md §6: «Daño Total = Daño − RD. Below 0: nothing; 0: one Rasguño; above 0: mark
    that many boxes … Negative RD adds to the damage»."""
    path = new(tmp_path, "alta A ac=5", line)
    assert who(path, "A")["wounds"] == boxes


def test_damage_accumulates_from_the_first_empty_box(tmp_path):
    """RULES.md §6: «mark that many boxes from the first empty one»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "dano A 1", "dano A 1")
    a = who(path, "A")
    assert a["wounds"] == 2 and a["modifier"] == -1


@pytest.mark.parametrize("boxes,modifier", [(1, 0), (2, -1), (3, -3), (4, -6)])
def test_fatigue_categories_give_their_penalties(tmp_path, boxes, modifier):
    """RULES.md §6: «Fatigue works the same (Fatigado 0, Aturdido −1, Gravemente Aturdido
    −3 total, Incapacitado −6 total, Exhausto = unconscious)»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", f"dano A {boxes} fatiga")
    a = who(path, "A")
    assert a["fatigue"] == boxes and a["modifier"] == modifier


def test_wounds_and_fatigue_penalties_add(tmp_path):
    """RULES.md §6: «The total modifier … = wound penalty + fatigue penalty + …»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "dano A 3", "dano A 2 fatiga")
    assert who(path, "A")["modifier"] == -4


def test_exhausto_is_out(tmp_path):
    """RULES.md §6: «Exhausto = unconscious»; §5: `out`."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 4", "empezar", "dano A 5 fatiga")
    assert who(path, "A")["status"] == "out"


def test_curar_in_a_turn_is_primeros_auxilios_once_per_fight(tmp_path):
    """RULES.md §6: «`curar NAME N` heals up to N boxes of the Rasguño and Herido categories
    only …; a second `curar` on the same patient in the same fight is refused»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 4", "empezar", "dano A 3", "curar A 5")
    a = who(path, "A")
    assert a["wounds"] == 3 - 2 or a["wounds"] == 1
    refused(path, "curar A 1")


def test_curar_on_a_moribundo_only_stabilises(tmp_path):
    """RULES.md §6: «on a Moribundo it only stabilises …: condition `estabilizado`, no box
    healed, still out»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 4", "empezar", "dano A 5", "curar A 3")
    a = who(path, "A")
    assert a["wounds"] == 5 and a["status"] == "out" and "estabilizado" in a["conditions"]


def test_melee_fatigue_at_turn_end_with_its_log_line(tmp_path):
    """RULES.md §6: «at the end of every turn, each combatant that made at least one melee
    attack maneuver in it gets 1 fatigue point (log line "Pug: +1 fatiga (combate cuerpo a
    cuerpo)")»."""
    path = new(tmp_path, "alta Pug ac=9", "alta Tiro ac=9", "momento Pug 9",
               "momento Tiro 1", "empezar", "Pug punetazo", "Pug patada", "Pug fin",
               f"Tiro {SHOOT}", "turno")
    assert who(path, "Pug")["fatigue"] == 1
    assert who(path, "Tiro")["fatigue"] == 0
    assert logged(path, "Pug: +1 fatiga (combate cuerpo a cuerpo)")


def test_melee_fatigue_switch(tmp_path):
    """COMMANDS.md: `fatiga-cc si|no` / `melee-fatigue on|off`: «on by default»."""
    path = new(tmp_path, "alta Pug ac=9", "momento Pug 9", "empezar", "fatiga-cc no",
               "Pug punetazo", "turno")
    assert who(path, "Pug")["fatigue"] == 0
    ok(path, "melee-fatigue on", "Pug punetazo", "turno")
    assert who(path, "Pug")["fatigue"] == 1


# ---------------------------------------------------------------- JSON contract


def test_json_the_contract_example_values(tmp_path):
    """COMMANDS.md's JSON example: Mike after shooting at 7: «"start": 7, "marker": 4,
    "ac": 4, "ac_per_turn": 7, "status": "acted", "attacks": 1 … "modifier": -1»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}")
    data = state(path)
    assert data["schema"] == 1 and data["rules"] == "cdb"
    assert (data["turn"], data["moment"], data["turn_over"]) == (1, 5, False)
    assert data["queue"] == ["Sven", "Soldado 1"]
    mike = who(path, "Mike")
    assert (mike["side"], mike["hidden"], mike["start"], mike["marker"], mike["ac"],
            mike["ac_per_turn"], mike["status"], mike["attacks"], mike["carried"],
            mike["conditions"], mike["modifier"]) == \
        ("pj", False, 7, 4, 4, 7, "acted", 1, None, [], -1)


def test_json_status_holding_waiting_done_out(tmp_path):
    """COMMANDS.md: «`status` is one of `ready`, `acted`, `holding`, `waiting`, `done`,
    `out`»."""
    path = new(tmp_path, "alta H ac=5", "alta W ac=5", "alta D ac=5",
               "alta O ac=5 vida=1,1,1,1,1", "alta R ac=5",
               *(f"momento {n} 7" for n in "HWDO"), "momento R 6", "empezar",
               "H retrasa", "W espera", "D fin", "dano O 5")
    statuses = {c["name"]: c["status"] for c in state(path)["combatants"]}
    assert statuses == {"H": "holding", "W": "waiting", "D": "done", "O": "out", "R": "ready"}


def test_json_show_changes_nothing(tmp_path):
    """COMMANDS.md: `show` «changes nothing»."""
    path = example(tmp_path)
    before = path.read_bytes()
    cdbtui("show", str(path), "--json")
    cdbtui("show", str(path))
    assert path.read_bytes() == before


# ---------------------------------------------------------------- undo


@pytest.mark.parametrize("line", [
    "alta Zed ac=3", "baja Sven", "estado Sven +a-cubierto turnos=2", f"mike {SHOOT}", "sven esquivar",
    "mike retrasa", "mike espera", "mike fin", "siguiente", "turno", "estado Sven +agarrado",
    "dano Sven 2", "nota Sven hola", "ocultar Sven", "fatiga-cc no", "mike gasta 2",
])
def test_everything_is_undoable(tmp_path, line):
    """COMMANDS.md: «undo / redo the last command (everything is undoable)»."""
    path = example(tmp_path)
    before = state(path)
    before.pop("log", None)
    ok(path, line, "deshacer")
    after = state(path)
    after.pop("log", None)
    assert after == before
    ok(path, "rehacer")
    again = state(path)
    again.pop("log", None)
    ok(path, "undo", "redo")
    assert {k: v for k, v in state(path).items() if k != "log"} == again


# ---------------------------------------------------------------- the worked example


def test_the_worked_example_turn_1_and_2(tmp_path):
    """RULES.md §7's table, cell by cell, and turn 2's completions."""
    path = example(tmp_path)

    def cells(**expected):
        for name, cell in expected.items():
            assert mark(path, name.replace("_", " ")) == cell, name

    ok(path, f"mike {SHOOT}", f"{S1} {COVER}")
    cells(Mike=(4, 4), Sven=(5, 5), Soldado_1=(5, 5), Soldado_2=(4, 5))
    assert state(path)["moment"] == 5
    ok(path, f"sven {SHOOT}", f"{S2} {COVER}", f"{S1} {SHOOT}")
    cells(Sven=(2, 2), Soldado_1=(2, 2), Soldado_2=(3, 4))
    ok(path, f"mike {COVER}")
    cells(Mike=(3, 3))
    ok(path, f"{S2} {SHOOT}", "mike apuntar")
    cells(Mike=(1, 1), Soldado_2=(0, 1))
    ok(path, f"{S1} apuntar", f"sven {SHOOT}")
    cells(Soldado_1=(0, 0), Sven=(0, 0))
    assert who(path, "Sven")["carried"]["remaining"] == 1
    ok(path, f"mike {SHOOT}")
    assert mark(path, "Mike") == (0, 0) and who(path, "Mike")["carried"]["remaining"] == 2
    ok(path, f"{S2} {SHOOT}")
    assert mark(path, "Soldado 2") == (-1, 0)
    assert who(path, "Soldado 2")["carried"]["remaining"] == 2
    assert state(path)["turn_over"] is True
    ok(path, "turno")
    assert mark(path, "Mike") == (5, 5) and logged(path, "completa")
    assert state(path)["moment"] == 6 and state(path)["queue"] == ["Soldado 1"]
    ok(path, f"{S1} fin")
    # at 5 Sven (not yet acted) comes first and completes his shot: 5 → 4
    assert mark(path, "Sven") == (4, 4)
    ok(path, "mike fin")
    # at 4 Soldado 2 completes: 4 → 2
    assert mark(path, "Soldado 2") == (2, 3)


def test_the_worked_example_alternative_apuntar_at_zero(tmp_path):
    """RULES.md §7: «Mike keeps his last AC for a dodge, and at moment 0 starts Apuntar
    (2 AC) with it: next turn he completes it at start − 1»."""
    path = new(tmp_path, "alta Mike ac=7", "alta X ac=9", "momento Mike 7", "momento X 9",
               "empezar", "X gasta 9", f"mike {SHOOT}", "mike gasta 2", "mike retrasa")
    # Mike holds at 2 with 2 AC... spend one more so that 1 is left at 0
    ok(path, "mike actua", "mike gasta 1")
    assert mark(path, "Mike") == (1, 1)
    ok(path, "mike retrasa", "siguiente")
    assert state(path)["moment"] == 0 or who(path, "Mike")["status"] == "holding"
    while state(path)["moment"] > 0:
        ok(path, "siguiente")
    ok(path, "mike actua", "mike apuntar")
    assert who(path, "Mike")["carried"] == {"maneuver": "apuntar", "remaining": 1}
    ok(path, "turno", "X fin")
    assert mark(path, "Mike") == (6, 6)


# ---------------------------------------------------------------- the sheet


def test_board_marks_the_current_moment_and_the_head_of_the_queue(tmp_path):
    """SHEET.md: «`▸` on the moment label: the current moment»; «`▶`: acts now»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}")
    out = cdbtui("show", str(path)).stdout
    row = next(line for line in out.splitlines() if "▸" in line)
    assert " 5 " in row and "▶Sven" in row


def test_board_marks_holding_and_waiting(tmp_path):
    """SHEET.md: «`‖` holding (Retrasar)»; «`…` waiting for a trigger»."""
    path = new(tmp_path, "alta H ac=5", "alta W ac=5", "alta C ac=5", "momento H 7",
               "momento W 7", "momento C 3", "empezar", "H retrasa", "W espera")
    out = cdbtui("show", str(path)).stdout
    assert "‖" in out and "…" in out


def test_board_header_names_turn_moment_and_queue(tmp_path):
    """SHEET.md's header: «Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1» and the
    ruleset «CdB»."""
    path = example(tmp_path)
    out = cdbtui("show", str(path)).stdout
    assert "CdB" in out and "Turno 1 · Momento 7 · Actúa: Mike" in out


# ---------------------------------------------------------------- more corners


def test_agarrado_mid_turn_halves_what_is_left(tmp_path):
    """RULES.md §5: «applied to the remaining AC at once»: 4 left → ⌈4/2⌉ = 2."""
    path = solo(tmp_path, 7, f"A {SHOOT}", "estado A +agarrado")
    assert who(path, "A")["ac"] == 2


def test_a_waiter_that_ran_dry_in_the_advance_still_interrupts_in_the_window(tmp_path):
    """RULES.md §3: in the window «a waiter has paid only for the moments passed up to
    `w`»: W (3 AC) waits at 7; Y moves at 7; the advance to 2 would drain W, but the
    interrupt lands at 7 with all 3 AC."""
    path = new(tmp_path, "alta W ac=3 agi=5", "alta Y ac=6 agi=1", "alta Z ac=5",
               "momento W 7", "momento Y 7", "momento Z 2", "empezar", "W espera",
               "Y mover 6")
    assert who(path, "W")["status"] == "done"
    ok(path, f"W interrumpe {SHOOT}")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["attacks"]) == (4, 0, 1)


def test_a_waiter_stops_paying_where_its_ac_run_out(tmp_path):
    """RULES.md §3: «Each moment the countdown passes costs 1 AC and lowers the marker by
    1 … A waiter whose AC reach 0 is `done`»: 3 AC from 7 run out at 4."""
    path = new(tmp_path, "alta W ac=3", "alta B ac=5", "momento W 7", "momento B 2",
               "empezar", "W espera")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["status"]) == (4, 0, "done")


def test_a_note_of_several_words_with_a_duration(tmp_path):
    """COMMANDS.md: `nota NAME TEXTO [turnos=N]`."""
    path = new(tmp_path, "alta A ac=3", "momento A 3", "empezar",
               "nota A ciego de un ojo turnos=2")
    assert who(path, "A")["notes"] == [{"text": "ciego de un ojo", "turns_left": 2}]


def test_at_the_start_of_each_turn_the_log_lists_what_is_running(tmp_path):
    """RULES.md §5: «at the start of each turn the log lists what is still running»."""
    path = new(tmp_path, "alta Sven ac=5", "momento Sven 5", "empezar",
               "estado Sven +aturdido turnos=3", "turno")
    turn2 = [line for line in state(path)["log"] if line.startswith("T2")]
    assert any("aturdido" in line for line in turn2)


def test_turno_closes_the_window(tmp_path):
    """RULES.md §3: «Anything else closes it: … `turno`»; Mike's automatic completion at
    the start of turn 2 opens none («they open no window of their own»)."""
    path = example(tmp_path, f"mike {SHOOT}")
    assert state(path)["window"] == 7
    ok(path, "turno")
    assert state(path)["window"] is None


def test_the_same_target_twice_is_no_extra_target(tmp_path):
    """RULES.md §4: «Each extra target attacked in a turn: −1»: the same one again is not."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=5", "momento A 9", "momento B 1",
               "empezar", f"A {SHOOT} a B", f"A {SHOOT} a B")
    assert who(path, "A")["modifier"] == -2


def test_talents_typed_with_accents_and_capitals_fold(tmp_path):
    """COMMANDS.md: «Talent ids fold the same way … Names are matched case-insensitively»."""
    path = new(tmp_path, "alta A ac=5 talentos=Puntería-Zen,GUN-KATA")
    assert who(path, "A")["talents"] == ["punteria-zen", "gun-kata"]


def test_the_panel_says_oculto(tmp_path):
    """RULES.md §5: «The DJ's sheet marks hidden columns and the panel says "oculto"»."""
    path = new(tmp_path, "alta Espia ac=5 oculto", "alta B ac=3 bando=pj",
               "momento Espia 5", "momento B 3", "empezar")
    out = cdbtui("show", str(path)).stdout
    line = next(line for line in out.splitlines() if line.startswith("Espia"))
    assert "oculto" in line


def test_log_lines_of_the_sketch(tmp_path):
    """SHEET.md's log: «Mike: Disparar Armas Largas (3 AC) → momento 4»; «Soldado 1:
    Ponerse a Cubierto, reacción (1 AC) → momento 5»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}")
    assert logged(path, "Mike: Disparar Armas Largas (3 AC) → momento 4")
    assert logged(path, "Soldado 1: Ponerse a Cubierto, reacción (1 AC) → momento 5")


def test_board_ticks_of_the_second_sketch(tmp_path):
    """SHEET.md: Mike «has stopped at 4 and at 3 and waits at 1 with 1 AC»: `├ 4`, `├ 3`,
    `● 1`."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}", f"mike {COVER}", f"{S2} {SHOOT}",
                   "mike apuntar")
    rows = {line.split("│")[0].strip(" ▸"): line for line in
            cdbtui("show", str(path)).stdout.splitlines() if "│" in line}
    assert "├ 4" in rows["4"] and "├ 3" in rows["3"] and "● 1" in rows["1"]
