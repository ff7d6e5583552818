"""An audit of the CdB / Walküre rules against RULES.md and COMMANDS.md, through the CLI.

Every test plays command lines with `cdbtui do` on a fresh save and reads the result
off `cdbtui show --json` (COMMANDS.md's contract), so it checks what a user sees.
Expected values are read off the spec's text (section cited in each docstring), never
off the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shell import cdbtui
from spec_cli import logged, mark, new, ok, refused, state, who

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"
COVER = "ponerse-a-cubierto"


# ---------------------------------------------------------------- helpers


TWO = ["alta Mike ac=7 bando=pj", "alta Sven ac=5 bando=pj", "momento Mike 7", "momento Sven 5"]


def two(tmp_path: Path, *more: str, rules: str = "cdb") -> Path:
    return new(tmp_path, *TWO, "empezar", *more, rules=rules)


# ---------------------------------------------------------------- §2 setting up


def test_s2_names_are_unique_in_the_fight_case_insensitive(tmp_path):
    """RULES.md §2.1: «name (unique in the fight, case-insensitive)»."""
    path = new(tmp_path, "alta Mike ac=7")
    refused(path, "alta mike ac=5", "Mike")
    assert [c["name"] for c in state(path)["combatants"]] == ["Mike"]


def test_s2_momento_is_the_typed_total_and_json_turn_is_0_before_empezar(tmp_path):
    """RULES.md §2.2 (typing the total is the main path); COMMANDS.md JSON: `turn` is 0
    before `empezar`, `moment` null."""
    path = new(tmp_path, *TWO)
    data = state(path)
    assert (data["turn"], data["moment"]) == (0, None)
    assert who(path, "Mike")["start"] == 7 and who(path, "Sven")["start"] == 5


def test_s2_tirar_rolls_1d6_plus_ini_and_writes_the_roll_to_the_log(tmp_path):
    """RULES.md §2.2: start = 1d6 + INI; «every roll written to the log»."""
    path = new(tmp_path, "alta A ac=5 ini=3", "tirar A")
    start = who(path, "A")["start"]
    assert 4 <= start <= 9
    assert logged(path, f"+ INI 3 = momento {start}")


def test_s2_tirar_juntos_one_roll_shared_each_member_its_own_marker_and_ac(tmp_path):
    """RULES.md §2.2: «as a group (one roll shared by the members; each member still has
    its own marker and AC)»."""
    path = new(tmp_path, "alta A ac=5 ini=2", "alta B ac=4 ini=2", "tirar juntos A B", "empezar")
    a, b = who(path, "A"), who(path, "B")
    assert a["start"] == b["start"]
    first = state(path)["queue"][0]
    ok(path, f"{first} mover 1")
    other = "B" if first == "A" else "A"
    assert who(path, first)["ac"] == who(path, first)["ac_per_turn"] - 1
    assert who(path, other)["ac"] == who(path, other)["ac_per_turn"]


def test_s2_copias_tirar_juntos_rolls_one_for_all(tmp_path):
    """COMMANDS.md: «`alta NAME … copias=N` … (start moments rolled or typed one by one;
    `tirar juntos` rolls one for all)»."""
    path = new(tmp_path, "alta Orco ac=5 ini=1 copias=3")
    result = cdbtui("do", str(path), "tirar juntos")
    assert result.returncode == 0, result.stderr
    starts = {c["start"] for c in state(path)["combatants"]}
    assert len(starts) == 1 and None not in starts


def test_s2_initiative_is_rolled_once_per_fight(tmp_path):
    """RULES.md §2.2: «Initiative is rolled **once per fight**»."""
    path = two(tmp_path)
    refused(path, "momento Mike 3")
    refused(path, "tirar Mike")


# ---------------------------------------------------------------- §3 the countdown


def test_s3_turn_start_marker_is_start_ac_is_per_turn_status_ready(tmp_path):
    """RULES.md §3 Turn start: «marker = start, ac = ac_per_turn, status = ready …
    The current moment is the highest marker»."""
    path = two(tmp_path)
    data = state(path)
    assert (data["turn"], data["moment"], data["queue"]) == (1, 7, ["Mike"])
    for c in data["combatants"]:
        assert (c["marker"], c["ac"], c["status"], c["attacks"]) == (
            c["start"], c["ac_per_turn"], "ready", 0)


def test_s3_spending_lowers_the_marker_from_the_current_moment(tmp_path):
    """RULES.md §3 Spending: «ac −= c, marker = m − c … status becomes acted (or done
    when ac == 0)»."""
    path = two(tmp_path, f"Mike {SHOOT}")
    assert mark(path, "Mike") == (4, 4) and who(path, "Mike")["status"] == "acted"
    ok(path, "Sven gasta 5 abrir la puerta")
    assert mark(path, "Sven") == (0, 0) and who(path, "Sven")["status"] == "done"


def test_s3_advancing_skips_empty_moments_to_the_highest_marker(tmp_path):
    """RULES.md §3 Advancing: «the countdown moves to the highest marker among combatants
    that can still act (skipping empty moments…)»."""
    path = two(tmp_path, "Mike mover 1")
    data = state(path)
    assert data["moment"] == 6 and data["queue"] == ["Mike"]
    ok(path, "Mike mover 4")
    data = state(path)
    assert data["moment"] == 5 and data["queue"] == ["Sven"]


def test_s3_queue_not_yet_acted_first_then_by_agilidad_and_the_log_says_the_key(tmp_path):
    """RULES.md §3 Who acts: «first those who have not acted this turn (ready), by higher
    Agilidad …; the log says which key decided each tie»."""
    path = new(tmp_path, "alta A ac=5 agi=1", "alta B ac=5 agi=3", "alta C ac=6",
               "momento A 7", "momento B 7", "momento C 8", "empezar", "C mover 1")
    assert state(path)["queue"] == ["B", "A", "C"]
    assert logged(path, "Orden: B antes que A (Agilidad 3 contra 1)")


def test_s3_carry_over_invests_everything_and_completes_next_turn(tmp_path):
    """RULES.md §3 Carry-over: «invests all it has (marker = m − ac, ac = 0, done) …
    remaining = c − invested … log: "completa X": marker = start − remaining,
    ac = ac_per_turn − remaining»."""
    path = new(tmp_path, "alta A ac=4", "alta B ac=5", "momento A 7", "momento B 9",
               "empezar", "B fin", f"A {SHOOT}", f"A {SHOOT}")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (3, 0, "done")
    assert a["carried"] == {"maneuver": SHOOT, "remaining": 2}
    ok(path, "turno", "B fin")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["carried"]) == (5, 2, None)
    assert logged(path, "A: completa Disparar Armas Largas")


def test_s3_a_carried_maneuver_waits_for_its_turn_in_the_queue(tmp_path):
    """RULES.md §3 Carry-over: «when the countdown reaches its start moment and it is its
    turn in the queue, the remaining AC are spent automatically»."""
    path = new(tmp_path, "alta A ac=4 agi=1", "alta B ac=5 agi=3", "momento A 7",
               "momento B 7", "empezar", f"A {SHOOT}", "B fin", f"A {SHOOT}", "turno")
    data = state(path)
    assert data["queue"] == ["B", "A"]
    assert who(path, "A")["carried"] == {"maneuver": SHOOT, "remaining": 2}
    ok(path, "B mover 1")
    assert mark(path, "A") == (5, 2)


def test_s3_losing_a_carried_maneuver_to_a_dodge_before_it_completes(tmp_path):
    """RULES.md §3 Losing a carried maneuver: «If the combatant spends AC on anything else
    (a dodge, say) before the carried maneuver is completed, the carried maneuver is
    abandoned and the AC invested last turn are lost»."""
    path = new(tmp_path, "alta A ac=4", "alta B ac=5", "momento A 7", "momento B 9",
               "empezar", "B fin", f"A {SHOOT}", f"A {SHOOT}", "turno", "B mover 1",
               "A esquivar")
    a = who(path, "A")
    assert a["carried"] is None
    assert (a["marker"], a["ac"]) == (6, 3)  # min(7, 9) − 1, full turn AC − 1


def test_s3_reaction_before_ones_own_moment_uses_min_marker(tmp_path):
    """RULES.md §3 Reactions: «may be declared at any moment … even before their own
    moment: ac −= cost, marker = min(marker, m) − cost. A reaction counts as having
    acted»."""
    path = two(tmp_path, "Sven esquivar")
    sven = who(path, "Sven")
    assert (sven["marker"], sven["ac"], sven["status"]) == (4, 4, "acted")


@pytest.mark.parametrize("reaction,cost", [("esquivar", 1), (COVER, 1), ("parada", 2),
                                           ("parada-con-armas", 2)])
def test_s3_every_plain_reaction_can_be_declared_out_of_turn(tmp_path, reaction, cost):
    """RULES.md §3 Reactions: «Esquivar, Ponerse a Cubierto, Parada, Parada con armas …
    may be declared at any moment»."""
    path = two(tmp_path, f"Sven {reaction}")
    assert mark(path, "Sven") == (5 - cost, 5 - cost)


def test_s3_a_combatant_with_too_few_ac_cannot_react(tmp_path):
    """RULES.md §3 Reactions: «A combatant with too few AC cannot react: a clear refusal,
    nothing changes»."""
    path = two(tmp_path, "Mike mover 2", "Sven gasta 4")
    assert who(path, "Sven")["ac"] == 1
    refused(path, "Sven parada", "Sven")


def test_s3_refusal_wording_sven_no_tiene_ac_para_esquivar(tmp_path):
    """COMMANDS.md: «A refused command … says why in one line, in Spanish, naming the rule
    ("Sven no tiene AC para esquivar (le quedan 0)")»."""
    path = two(tmp_path, *["Sven esquivar"] * 5)
    assert who(path, "Sven")["ac"] == 0
    refused(path, "Sven esquivar", "Sven no tiene AC para esquivar (le quedan 0)")


def test_s3_done_cannot_react(tmp_path):
    """RULES.md §3 Done: «gives up its remaining AC this turn; it cannot react any
    more»."""
    path = new(tmp_path, *TWO, "empezar", "Mike mover 2", "Sven fin")
    assert who(path, "Sven")["ac"] == 0 and who(path, "Sven")["status"] == "done"
    refused(path, "Sven esquivar")


def test_s3_window_holder_dodging_at_its_moment_ends_one_below_it(tmp_path):
    """RULES.md §3 window example: «X holds at 7 and Y, also at 7, shoots X: X's dodge puts
    X at 6»; COMMANDS.md: `window` in the JSON."""
    path = new(tmp_path, "alta X ac=5", "alta Y ac=6", "momento X 7", "momento Y 7",
               "empezar", "X retrasa", f"Y {SHOOT}")
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_s3_window_waiter_interrupt_paid_nothing_for_waiting(tmp_path):
    """RULES.md §3 window example: «W waits at 7 for Y to move; Y moves at 7; W interrupts
    with a 3-AC shot: W ends at 4 with 3 AC left»."""
    path = new(tmp_path, "alta W ac=6", "alta Y ac=5", "momento W 7", "momento Y 7",
               "empezar", "W espera Y se mueve", "Y mover 1")
    assert state(path)["window"] == 7
    ok(path, "W interrumpe disparar-armas-cortas")
    assert mark(path, "W") == (4, 3)


def test_s3_window_waiter_pays_only_for_the_moments_passed_up_to_w(tmp_path):
    """RULES.md §3 window: «a waiter has paid only for the moments passed up to w» (and
    Wait: «Each moment the countdown passes costs 1 AC»): waiting 7→4 costs 3."""
    path = new(tmp_path, "alta W ac=6", "alta Y ac=5", "momento W 7", "momento Y 4",
               "empezar", "W espera algo", f"Y {SHOOT}")
    assert state(path)["window"] == 4
    ok(path, "W interrumpe disparar-armas-cortas")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["status"]) == (1, 0, "done")


def test_s3_window_is_null_when_closed_and_closes_on_siguiente(tmp_path):
    """COMMANDS.md: «`window`: … or null when no window is open»; RULES.md §3: «Anything
    else closes it: … `siguiente`»."""
    path = two(tmp_path)
    assert state(path)["window"] is None
    ok(path, f"Mike {SHOOT}")
    assert state(path)["window"] == 7
    ok(path, "siguiente")
    assert state(path)["window"] is None


def test_s3_interrupt_ahora_happens_at_the_current_moment(tmp_path):
    """RULES.md §3 window: «An interrupt whose trigger is not the last action … takes
    `ahora` …: it happens at the current moment, and closes the window»."""
    path = new(tmp_path, "alta Hal ac=9", "alta Y ac=5", "momento Hal 7", "momento Y 4",
               "empezar", "Hal espera algo", f"Y {SHOOT}")
    assert state(path)["window"] == 4 and state(path)["moment"] == 1
    ok(path, "Hal interrumpe disparar-armas-cortas ahora")
    assert state(path)["window"] is None  # «… and closes the window»
    # at moment 1 Hal has paid 7→1 = 6 AC (3 left, marker 1), then the 3-AC shot
    assert mark(path, "Hal") == (-2, 0)


def test_s3_hold_costs_nothing_follows_the_countdown_and_acts_last(tmp_path):
    """RULES.md §3 Hold: «Costs nothing. The holder's marker follows the countdown; when it
    chooses to act, it acts last in the current moment»; COMMANDS.md `queue`:
    «holders who chose to act included, last»."""
    path = two(tmp_path, "Mike retrasa")
    mike = who(path, "Mike")
    assert (mike["marker"], mike["ac"], mike["status"]) == (5, 7, "holding")
    ok(path, "Mike actua")
    assert state(path)["queue"] == ["Sven", "Mike"]


def test_s3_forced_advance_makes_those_left_holders(tmp_path):
    """RULES.md §3 Advancing: «Anyone at m who did not act when the GM forces the
    countdown on becomes a holder»."""
    path = two(tmp_path, "siguiente")
    assert who(path, "Mike")["status"] == "holding"
    assert state(path)["moment"] == 5


def test_s3_wait_costs_one_ac_per_moment_and_a_waiter_at_zero_is_done(tmp_path):
    """RULES.md §3 Wait: «Each moment the countdown passes costs 1 AC and lowers the marker
    by 1 … A waiter whose AC reach 0 is `done`»."""
    path = new(tmp_path, "alta A ac=4", "alta B ac=5", "momento A 7", "momento B 5",
               "empezar", "A espera algo")
    assert mark(path, "A") == (5, 2) and who(path, "A")["status"] == "waiting"
    ok(path, "B fin", "siguiente", "siguiente")
    assert who(path, "A")["ac"] == 0 and who(path, "A")["status"] == "done"


def test_s3_turn_over_when_all_done_and_the_gm_starts_the_next_turn(tmp_path):
    """RULES.md §3 Turn end: «The turn is over when every combatant is done or out … The GM
    starts the next turn explicitly»."""
    path = two(tmp_path, "Mike fin", "Sven fin")
    data = state(path)
    assert data["turn_over"] is True and data["turn"] == 1
    ok(path, "turno")
    data = state(path)
    assert (data["turn"], data["turn_over"], data["moment"]) == (2, False, 7)


def test_s3_the_gm_ending_the_turn_makes_holders_and_waiters_decline(tmp_path):
    """RULES.md §3 Turn end: «the GM may also end it: holders and waiters then
    decline»."""
    path = two(tmp_path, "Mike retrasa", "Sven espera algo", "turno")
    data = state(path)
    assert data["turn"] == 2
    assert logged(path, "Mike, Sven declinan")


def test_s3_negative_moments_are_normal(tmp_path):
    """RULES.md §3: «Negative moments are normal»."""
    path = new(tmp_path, "alta A ac=9", "momento A 2", "empezar", "A mover 3", "A mover 3")
    assert state(path)["moment"] == -4 and mark(path, "A") == (-4, 3)
    assert state(path)["queue"] == ["A"]


def test_s3_iniciativa_rapida_acts_in_descending_start_order_spending_at_once(tmp_path):
    """RULES.md §3 Iniciativa Rápida: «combatants act in descending start order and each
    spends all the AC it wants at once, keeping some for dodges if it likes»."""
    path = new(tmp_path, *TWO, "alta Ana ac=4", "momento Ana 9", "rapida si", "empezar",
               rules="walkure")
    assert state(path)["queue"] == ["Ana"]
    refused(path, f"Mike {SHOOT}")
    ok(path, "Ana usar-arma-cuerpo-a-cuerpo", "Ana esquivar")
    assert state(path)["queue"] == ["Mike"]
    ok(path, f"Mike {SHOOT}", "siguiente")
    assert state(path)["queue"] == ["Sven"]
    ok(path, "Mike esquivar")  # kept AC for a dodge
    assert who(path, "Mike")["ac"] == 3


# ---------------------------------------------------------------- §4 maneuvers


@pytest.mark.parametrize("line,cost", [
    ("rafaga-corta 3", 3), ("rafaga-media 3", 4), ("rafaga-larga 3", 5),
    ("fintar 3", 4), ("mover 3", 3), ("carga 2", 5), ("carga-con-montura 3", 5),
    ("liderazgo", 3), ("abandonar-duelo", 3), ("atacar-con-armas-de-1-mano-a-dos-manos", 4),
    ("retrasar-la-accion", 0),
])
def test_s4_costs_of_the_cdb_catalog(tmp_path, line, cost):
    """RULES.md §4: «Ráfaga Corta = the weapon's shot cost, Media = shot + 1, Larga = shot
    + 2; Fintar = attack + 1; Mover = N AC; a one-handed weapon held in two hands: +1 AC;
    Retrasar = 0; Liderazgo = 3; leaving a duel = 3; Carga con Montura = 2 + attack»; Carga
    = attack cost (3) + movement AC, as one maneuver."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=5", "momento A 9", "momento B 1",
               "empezar", f"A {line}")
    assert who(path, "A")["ac"] == 9 - cost
    if cost:
        assert who(path, "A")["marker"] == 9 - cost


@pytest.mark.parametrize("line,cost", [
    ("usar-arma-cuerpo-a-cuerpo", 3), ("carga 2", 2), ("golpe-en-el-aire-artista-marcial 2", 5),
    ("disparo-en-el-aire 2", 5), ("abandonar-duelo", 3), ("carga-con-montura 3", 5),
])
def test_s4_walkure_costs(tmp_path, line, cost):
    """RULES.md §4 Walküre differences: «"Usar arma cuerpo a cuerpo" (3 AC) … Golpe en el
    Aire and Disparo en el Aire cost 3 + movement; Carga costs the movement»; «Walküre has
    the same `abandonar-duelo` (3 AC) and `carga-con-montura` as CdB»."""
    path = new(tmp_path, "alta A ac=9 talentos=artista-marcial,gun-kata", "alta B ac=5",
               "momento A 9", "momento B 1", "empezar", f"A {line}", rules="walkure")
    assert mark(path, "A") == (9 - cost, 9 - cost)


@pytest.mark.parametrize("maneuver", ["disparar-armas-de-polvora", "disparar-ballestas",
                                      "atacar-con-armas-de-1-mano"])
def test_s4_walkure_has_no_polvora_ballestas_or_armas_a_1_2_manos(tmp_path, maneuver):
    """RULES.md §4 Walküre differences: «Armas a 1/2 Manos become "Usar arma cuerpo a
    cuerpo" …; no Armas de Pólvora or Ballestas»."""
    path = new(tmp_path, "alta A ac=9", "momento A 9", "empezar", rules="walkure")
    refused(path, f"A {maneuver}")


def test_s4_artista_marcial_discount_and_talent_refusal(tmp_path):
    """RULES.md §4: «Artista Marcial: Agarrón … cost 1 less»; «A maneuver that needs a
    talent the combatant lacks (Proyectar …) is refused, naming the talent»."""
    path = new(tmp_path, "alta A ac=9 talentos=artista-marcial", "alta B ac=9",
               "momento A 9", "momento B 9", "empezar", "A agarron")
    assert who(path, "A")["ac"] == 6
    refused(path, "B proyectar", "Artista Marcial")


def test_s4_cost_no_turn_can_hold_is_refused(tmp_path):
    """RULES.md §4 Talents: «A cost that no turn can hold (more than the combatant's AC per
    turn, or zero or less for a free action) is refused too»."""
    path = two(tmp_path)
    refused(path, "Mike gasta 8")
    refused(path, "Mike gasta 0")
    refused(path, "Mike mover 8")


def test_s4_attack_count_cumulative_and_extra_target_penalty(tmp_path):
    """RULES.md §4 Attack count: «Each attack maneuver after the first in a turn gives a
    cumulative −1 … Each extra target attacked in a turn: −1 to all actions»; COMMANDS.md
    `modifier`."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=5", "alta C ac=5", "momento A 9",
               "momento B 1", "momento C 1", "empezar", f"A {SHOOT} a B")
    assert who(path, "A")["modifier"] == -1
    ok(path, f"A {SHOOT} a C")
    a = who(path, "A")
    assert a["attacks"] == 2 and a["modifier"] == -3


def test_s4_reactions_do_not_count_as_attacks(tmp_path):
    """RULES.md §4: attack count counts attack maneuvers; Esquivar is a reaction."""
    path = two(tmp_path, "Sven esquivar", "Sven esquivar")
    assert who(path, "Sven")["attacks"] == 0 and who(path, "Sven")["modifier"] == 0


def test_s4_apuntar_plus_one_used_up_by_the_next_attack_and_once_per_turn(tmp_path):
    """RULES.md §4 Apuntar: «+1 per Apuntar …; at most one per turn; … the bonus is used
    up by the next attack»."""
    path = new(tmp_path, "alta A ac=9", "momento A 9", "empezar", "A apuntar")
    assert who(path, "A")["modifier"] == 1
    refused(path, "A apuntar")
    ok(path, f"A {SHOOT}")
    assert who(path, "A")["aim"] == 0 and who(path, "A")["modifier"] == -1


def test_s4_apuntar_successive_turns_max_plus_three(tmp_path):
    """RULES.md §4 Apuntar: «+1 per Apuntar in successive turns, max +3»."""
    path = new(tmp_path, "alta A ac=4", "momento A 9", "empezar")
    for _ in range(4):
        ok(path, "A apuntar", "turno")
    assert who(path, "A")["aim"] == 3


@pytest.mark.parametrize("move", ["mover 1", "carga 1"])
def test_s4_apuntar_not_in_a_turn_with_movement(tmp_path, move):
    """RULES.md §4 Apuntar: «not in a turn with movement unless Puntería Zen»."""
    path = new(tmp_path, "alta A ac=9", "alta Z ac=9 talentos=punteria-zen", "momento A 9",
               "momento Z 9", "empezar", f"A {move}", f"Z {move}")
    refused(path, "A apuntar", "Puntería Zen")
    ok(path, "Z apuntar")


def test_s4_esquivar_disparos_once_per_turn_and_escapar_never_carried(tmp_path):
    """RULES.md §4 Limits: «Esquivar Disparos (Gun Kata): at most once per turn … Escapar:
    … never carried into the next turn (refused when the AC left are short)»."""
    path = new(tmp_path, "alta G ac=6 talentos=gun-kata", "alta E ac=5", "momento G 9",
               "momento E 9", "empezar", "G esquivar-disparos")
    refused(path, "G esquivar-disparos")
    ok(path, "E gasta 2")
    refused(path, "E escapar")
    assert who(path, "E")["carried"] is None


def test_s4_agarrado_only_escapar_patada_punetazo_reactions_and_spends(tmp_path):
    """RULES.md §4: «Agarrado: besides reactions and free spends (`gasta`), only Escapar,
    Patada and Puñetazo …; every other maneuver is refused naming the rule»."""
    path = new(tmp_path, "alta A ac=8", "momento A 9", "empezar", "estado A +agarrado")
    refused(path, f"A {SHOOT}", "agarrado")
    ok(path, "A patada", "A esquivar")


def test_s4_inmovilizado_only_escapar(tmp_path):
    """RULES.md §4: «Inmovilizado: only Escapar …: everything else is refused, reactions and
    free spends included»."""
    path = new(tmp_path, "alta A ac=16", "momento A 9", "empezar", "estado A +inmovilizado")
    assert who(path, "A")["ac"] == 4
    refused(path, "A esquivar", "inmovilizado")
    refused(path, "A gasta 1", "inmovilizado")
    ok(path, "A escapar")


def test_s4_book_ids_of_hold_and_wait(tmp_path):
    """RULES.md §4: «`retrasar-la-accion` and `quedarse-a-la-espera` are accepted as the
    book ids of hold and wait»."""
    path = two(tmp_path, "Mike retrasar-la-accion")
    assert who(path, "Mike")["status"] == "holding"
    (tmp_path / "b").mkdir()
    path2 = new(tmp_path / "b", *TWO, "empezar", "Mike quedarse-a-la-espera algo")
    assert who(path2, "Mike")["status"] == "waiting"


# ---------------------------------------------------------------- §5 conditions


def test_s5_sorprendido_half_ac_rounded_up_in_turn_one_only_and_warned(tmp_path):
    """RULES.md §5 Sorprendido: «in the first turn, AC = ⌈AC/2⌉; to attack that turn the
    combatant needs a Reconocimiento first (the UI warns)»."""
    path = new(tmp_path, *TWO, "sorpresa Mike", "empezar")
    assert who(path, "Mike")["ac"] == 4
    ok(path, f"Mike {SHOOT}")
    assert logged(path, "sin Reconocimiento")
    ok(path, "turno")
    assert who(path, "Mike")["ac"] == 7
    refused(path, "sorpresa Sven")


def test_s5_reconocimiento_before_attacking_gives_no_warning(tmp_path):
    """RULES.md §5 Sorprendido / §4 Reconocimiento: a Reconocimiento first satisfies it."""
    path = new(tmp_path, *TWO, "sorpresa Mike", "empezar", "Mike reconocimiento",
               "Mike disparar-armas-cortas")
    assert not logged(path, "sin Reconocimiento")


def test_s5_agarrado_halves_at_once_and_removing_restores_from_next_turn(tmp_path):
    """RULES.md §5: «Agarrado: AC ×½ … rounded up …; applied to the remaining AC at once and
    to the per-turn AC while it lasts; removing it restores full AC from the next turn»."""
    path = two(tmp_path, "estado Mike +agarrado")
    assert who(path, "Mike")["ac"] == 4
    ok(path, "turno")
    assert who(path, "Mike")["ac"] == 4
    ok(path, "estado Mike -agarrado")
    assert who(path, "Mike")["ac"] == 4
    ok(path, "turno")
    assert who(path, "Mike")["ac"] == 7


def test_s5_inmovilizado_quarters_ac_rounded_up(tmp_path):
    """RULES.md §5: «Inmovilizado (Presa): AC ×¼ … rounded up»."""
    path = two(tmp_path, "estado Mike +inmovilizado")
    assert who(path, "Mike")["ac"] == 2


def test_s5_incapacitado_no_maneuvers_not_even_reactions(tmp_path):
    """RULES.md §5: «Incapacitado (wounds or fatigue): no maneuvers»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 7", "empezar", "dano A 4")
    refused(path, "A esquivar", "incapacitado")


@pytest.mark.parametrize("damage", ["dano A 5", "dano A 5 fatiga"])
def test_s5_moribundo_or_exhausto_is_out_and_skipped(tmp_path, damage):
    """RULES.md §5: «Moribundo / Exhausto (unconscious): `out`, skipped by the
    countdown»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 7",
               "momento B 5", "empezar", damage)
    assert who(path, "A")["status"] == "out"
    assert state(path)["moment"] == 5 and state(path)["queue"] == ["B"]


def test_s5_unknown_condition_refused_with_the_closest_known_one(tmp_path):
    """RULES.md §5: «an unknown word is refused with the closest known ones ("No conozco el
    estado «agarado»: ¿agarrado?")»."""
    path = two(tmp_path)
    refused(path, "estado Mike +agarado", "No conozco el estado «agarado»: ¿agarrado?")


@pytest.mark.parametrize("cond", ["a-cubierto", "en-duelo", "montado", "estabilizado", "sorprendido",
                                  "agarrado", "inmovilizado"])
def test_s5_known_conditions_are_taken(tmp_path, cond):
    """RULES.md §5: «`estado` takes the conditions the rules know (those above,
    `a-cubierto`, `en-duelo`, `montado`, `estabilizado` …)»."""
    path = new(tmp_path, *TWO, f"estado Mike +{cond}")
    assert cond in who(path, "Mike")["conditions"]


def test_s5_en_duelo_and_montado_by_estado_mark_a_duel_or_a_mount_the_sheet_does_not_hold(tmp_path):
    """`estado +en-duelo` / `+montado` (RULES.md §5) with no rival or mount on the sheet:
    «abandonar-duelo» ends the duel, a Carga con Montura gets no «no está montado»
    warning, and `-montado` / `-en-duelo` take them off; a second `+` is refused."""
    path = two(tmp_path)
    ok(path, "estado Mike +montado", "estado Sven +en-duelo")
    refused(path, "estado Mike +montado", "Mike ya está montado")
    ok(path, "Mike carga-con-montura 3")
    assert not logged(path, "no está montado")
    assert logged(path, "La montura de Mike gasta ahora")
    ok(path, "estado Mike -montado")
    assert who(path, "Mike")["conditions"] == []
    (tmp_path / "duelo").mkdir()
    path = two(tmp_path / "duelo")
    ok(path, "estado Sven +en-duelo", "mike fin", "Sven abandonar-duelo")
    assert who(path, "Sven")["conditions"] == []
    assert logged(path, "Sven abandona el duelo: Sven deja de estar en duelo")


def test_s5_notes_add_clear_and_show_in_the_json_and_log(tmp_path):
    """RULES.md §5: «`nota NAME TEXTO` adds it, `nota NAME -` clears them; notes have no
    rules effect, appear in the panel and the log»; COMMANDS.md: `notes` is a list of
    {"text", "turns_left"}."""
    path = two(tmp_path, "nota Mike herido en el brazo", "nota Mike cojea turnos=2")
    mike = who(path, "Mike")
    assert mike["notes"] == [{"text": "herido en el brazo", "turns_left": None},
                             {"text": "cojea", "turns_left": 2}]
    assert (mike["ac"], mike["modifier"], mike["conditions"]) == (7, 0, [])
    assert logged(path, "herido en el brazo")
    ok(path, "nota Mike -")
    assert who(path, "Mike")["notes"] == []


def test_s5_durations_end_at_the_end_of_the_nth_turn_counting_the_current(tmp_path):
    """RULES.md §5 Durations: «`turnos=N` ends it by itself at the end of the N-th turn
    counting the current one …, with a log line ("Sven: −aturdido (fin de su duración)")
    … at the start of each turn the log lists what is still running»; COMMANDS.md
    `expires`: the turn at whose end it ends."""
    path = two(tmp_path, "estado Sven +aturdido turnos=1", "estado Mike +aturdido turnos=2")
    assert who(path, "Sven")["expires"] == {"aturdido": 1}
    assert who(path, "Mike")["expires"] == {"aturdido": 2}
    ok(path, "turno")
    assert "aturdido" not in who(path, "Sven")["conditions"]
    assert "aturdido" in who(path, "Mike")["conditions"]
    assert logged(path, "Sven: −aturdido (fin de su duración)")
    assert logged(path, "En curso: Mike: aturdido (1 turno)")
    ok(path, "turno")
    assert who(path, "Mike")["conditions"] == [] and who(path, "Mike")["expires"] == {}


def test_s5_revelar_and_ocultar_set_the_hidden_flag(tmp_path):
    """RULES.md §2.1 hidden flag, §5 Hidden combatants: «`revelar NAME` makes a hidden
    combatant visible …; `ocultar NAME` hides it»; the panel says "oculto"."""
    path = new(tmp_path, "alta A ac=5 oculto")
    assert who(path, "A")["hidden"] is True
    assert "oculto" in cdbtui("show", str(path)).stdout
    ok(path, "revelar A")
    assert who(path, "A")["hidden"] is False
    ok(path, "ocultar A")
    assert who(path, "A")["hidden"] is True


# ---------------------------------------------------------------- §6 wounds and fatigue


@pytest.mark.parametrize("line,boxes", [("dano A 5 rd=2", 3), ("dano A 2 rd=2", 1),
                                        ("dano A 1 rd=2", 0), ("dano A 2 rd=-1", 3)])
def test_s6_daño_total_is_daño_minus_rd(tmp_path, line, boxes):
    """RULES.md §6: «Daño Total = Daño − RD. Below 0: nothing; 0: one Rasguño; above 0: mark
    that many boxes … Negative RD adds to the damage»."""
    path = new(tmp_path, "alta A ac=5", line)
    assert who(path, "A")["wounds"] == boxes


@pytest.mark.parametrize("boxes,modifier", [(1, 0), (2, -1), (3, -3), (4, -6)])
def test_s6_wound_categories_give_their_penalties(tmp_path, boxes, modifier):
    """RULES.md §6: «Rasguño (no penalty), Herido (−1), Gravemente Herido (−2, total −3),
    Incapacitado (−3, total −6)»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", f"dano A {boxes}")
    assert who(path, "A")["modifier"] == modifier


def test_s6_fatigue_beyond_its_track_is_applied_as_wounds(tmp_path):
    """RULES.md §6: «fatigue beyond the track is applied as wounds»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "dano A 7 fatiga")
    a = who(path, "A")
    assert a["fatigue"] == 5 and a["wounds"] == 2


def test_s6_modifier_sums_wounds_fatigue_attacks_and_aim(tmp_path):
    """RULES.md §6: «The total modifier = wound penalty + fatigue penalty + attack-count
    penalty + extra-target penalty + aim bonus»."""
    path = new(tmp_path, "alta A ac=9 vida=1,1,1,1,1", "momento A 9", "empezar",
               "dano A 2", "dano A 2 fatiga", f"A {SHOOT}", "A apuntar")
    # Herido −1, Aturdido −1, second attack −1, aim +1
    assert who(path, "A")["modifier"] == -2


def test_s6_primeros_auxilios_in_a_turn_heals_rasgunos_and_heridas_once(tmp_path):
    """RULES.md §6: «`curar NAME N` heals up to N boxes of the Rasguño and Herido categories
    only …; boxes of Gravemente Herido and worse stay marked …; a second `curar` on the
    same patient in the same fight is refused»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "momento A 7", "empezar",
               "dano A 3", "curar A 5")
    a = who(path, "A")
    assert a["modifier"] == -3  # the Gravemente Herido box stays marked
    assert logged(path, "Primeros Auxilios")
    refused(path, "curar A 1", "una vez por combate")


def test_s6_primeros_auxilios_keeps_gravemente_herido_marked(tmp_path):
    """RULES.md §6: «boxes of Gravemente Herido and worse stay marked and keep their
    penalty»."""
    path = new(tmp_path, "alta A ac=5 vida=2,2,2,2,1", "momento A 7", "empezar",
               "dano A 6", "curar A 9")
    a = who(path, "A")
    # the 2 Gravemente Herido boxes stay (4 healed): they are now the first marked ones
    assert a["wounds"] == 2
    assert a["modifier"] == -3


def test_s6_primeros_auxilios_on_a_moribundo_only_stabilises(tmp_path):
    """RULES.md §6: «on a Moribundo it only stabilises …: condition `estabilizado`, no box
    healed, still out»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 7", "empezar", "dano A 5", "curar A 1")
    a = who(path, "A")
    assert (a["wounds"], a["status"]) == (5, "out")
    assert "estabilizado" in a["conditions"]


def test_s6_between_turns_curar_heals_the_worst_boxes_of_any_category(tmp_path):
    """RULES.md §6: «Between turns and after the last one, `curar` is treatment with time
    (the worst boxes first, any category)»."""
    path = new(tmp_path, "alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 5",
               "momento B 7", "empezar", "dano A 3", "B fin", "A fin")
    assert state(path)["turn_over"] is True
    ok(path, "curar A 1", "curar A 1")
    assert who(path, "A")["wounds"] == 1


def test_s6_melee_costs_one_fatigue_point_per_turn(tmp_path):
    """RULES.md §6: «at the end of every turn, each combatant that made at least one melee
    attack maneuver in it gets 1 fatigue point (log line "Pug: +1 fatiga (combate cuerpo a
    cuerpo)")»."""
    path = new(tmp_path, "alta Pug ac=7", "alta Sven ac=5", "momento Pug 7",
               "momento Sven 5", "empezar", "Pug punetazo", "Pug patada", "Sven esquivar",
               "turno")
    assert who(path, "Pug")["fatigue"] == 1 and who(path, "Sven")["fatigue"] == 0
    assert logged(path, "Pug: +1 fatiga (combate cuerpo a cuerpo)")


def test_s6_fatiga_cc_no_turns_it_off(tmp_path):
    """RULES.md §6: «A per-fight switch `fatiga-cc no` turns it off»."""
    path = new(tmp_path, "alta Pug ac=7", "momento Pug 7", "fatiga-cc no", "empezar",
               "Pug punetazo", "turno")
    assert who(path, "Pug")["fatigue"] == 0


# ---------------------------------------------------------------- §7 the worked example


WALKURE_TABLE = [
    (7, [f"Mike {SHOOT}", f"{S1} {COVER}"],
     {"Mike": (4, 4), "Sven": (5, 5), "Soldado 1": (5, 5), "Soldado 2": (4, 5)}),
    (5, [f"Sven {SHOOT}", f"{S2} {COVER}", f"{S1} {SHOOT}"],
     {"Sven": (2, 2), "Soldado 1": (2, 2), "Soldado 2": (3, 4)}),
    (4, ["Mike ponerse-a-cubierto"], {"Mike": (3, 3)}),
    (3, [f"{S2} {SHOOT}", "Mike apuntar"], {"Soldado 2": (0, 1), "Mike": (1, 1)}),
    (2, [f"{S1} apuntar", f"Sven {SHOOT}"], {"Soldado 1": (0, 0), "Sven": (0, 0)}),
    (1, [f"Mike {SHOOT}"], {"Mike": (0, 0)}),
    (0, [f"{S2} {SHOOT}"], {"Soldado 2": (-1, 0)}),
]


def test_s7_the_worked_example_in_walkure_through_the_cli(tmp_path):
    """RULES.md §7 («CdB ch. 9, also Walküre "Ejemplo 2º"»): the table, turn 1, then turn 2
    «Mike completing his shot at moment 7 → marker 5, Sven completing at 5 → 4, Soldado 2
    completing at 4 → 2»."""
    path = new(tmp_path, "alta Mike ac=7 bando=pj", "alta Sven ac=5 bando=pj",
               f"alta {S1} ac=6", f"alta {S2} ac=5", "momento Mike 7", "momento Sven 5",
               f"momento {S1} 6", f"momento {S2} 4", "empezar", rules="walkure")
    expected = {"Mike": (7, 7), "Sven": (5, 5), "Soldado 1": (6, 6), "Soldado 2": (4, 5)}
    for moment, lines, changes in WALKURE_TABLE:
        if moment == 4:
            # Mike's cover answers nothing: the DJ closes Soldado 1's window first
            assert state(path)["moment"] == 4
        else:
            assert state(path)["moment"] == moment
        for line in lines:
            ok(path, line)
        expected.update(changes)
        got = {c["name"]: (c["marker"], c["ac"]) for c in state(path)["combatants"]}
        assert got == expected, f"after moment {moment}"
    data = state(path)
    assert data["turn_over"] is True
    carried = {c["name"]: (c["carried"] or {}).get("remaining") for c in data["combatants"]}
    assert carried == {"Mike": 2, "Sven": 1, "Soldado 1": None, "Soldado 2": 2}
    ok(path, "turno")
    assert mark(path, "Mike") == (5, 5)
    ok(path, f"{S1} fin")
    assert mark(path, "Sven") == (4, 4)
    ok(path, "Mike fin", "Sven fin")
    assert mark(path, "Soldado 2") == (2, 3)


def test_s7_alternative_mike_keeps_his_last_ac_and_starts_apuntar_at_zero(tmp_path):
    """RULES.md §7: «Mike keeps his last AC for a dodge, and at moment 0 starts Apuntar (2
    AC) with it: next turn he completes it at start − 1»."""
    path = new(tmp_path, "alta Mike ac=7", "alta X ac=9", "momento Mike 7", "momento X 9",
               "empezar", "X fin", "Mike gasta 6", "Mike retrasa")
    while state(path)["moment"] > 0:
        ok(path, "siguiente")
    ok(path, "Mike actua", "Mike apuntar")
    assert who(path, "Mike")["carried"] == {"maneuver": "apuntar", "remaining": 1}
    ok(path, "turno", "X fin")
    assert mark(path, "Mike") == (6, 6)
