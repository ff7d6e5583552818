"""Second black-box audit of CdB / Walküre against RULES.md and COMMANDS.md.

Every test drives the real CLI (`cdbtui new`, `cdbtui do`, `cdbtui show --json`) on a
fresh save and checks one decided sentence of RULES.md or COMMANDS.md that
test_blackbox_cdb.py does not cover (quoted in the docstring).  Expected values are
read off the documents, never off the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import spec_cli
from shell import cdbtui
from spec_cli import log, logged, mark, ok, state, who

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"
COVER = "ponerse-a-cubierto"
HEAVY = "disparar-armas-pesadas"
BOXES = "vida=1,1,1,1,1"


# ---------------------------------------------------------------- helpers


def new(tmp_path: Path, *lines: str, rules: str = "cdb") -> Path:
    return spec_cli.new(tmp_path, *lines, rules=rules, seed=7)


def refused(path: Path, line: str, *says: str) -> str:
    return spec_cli.refused(path, line, *says, fold=True)


def fresh(tmp_path: Path) -> None:
    (tmp_path / "f.toml").unlink()


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
    """One combatant A (start 9) and a far-away B (3 AC, start 1) that keeps the turn open."""
    return new(tmp_path, f"alta A ac={ac} {extra}".strip(), "alta B ac=3", "momento A 9",
               "momento B 1", "empezar", *more, rules=rules)


def line_with(path: Path, *parts: str) -> str | None:
    for line in log(path):
        if all(p.lower() in line.lower() for p in parts):
            return line
    return None


# ================================================================ §2 setting up


def test_tirar_named_rolls_only_those_named(tmp_path):
    """COMMANDS.md: `tirar [NAME ...]`: «roll 1d6+INI for those named»."""
    path = new(tmp_path, "alta A ac=5 ini=2", "alta B ac=5 ini=2", "tirar A")
    assert 3 <= who(path, "A")["start"] <= 8
    assert who(path, "B")["start"] is None


def test_every_roll_is_written_to_the_log(tmp_path):
    """RULES.md §2: «the app rolls for NPCs on request (seeded RNG, every roll written to
    the log)»; English `roll`."""
    path = new(tmp_path, "add Orco ac=5 ini=1", "roll Orco")
    start = who(path, "Orco")["start"]
    assert 2 <= start <= 7
    assert line_with(path, "Orco", str(start)) is not None


def test_start_is_kept_for_the_whole_fight(tmp_path):
    """RULES.md §1: «Momento inicial: 1d6 + INI, rolled once per fight; where a combatant
    starts every turn»; §3 Turn start: «marker = start»."""
    path = new(tmp_path, "alta A ac=5 ini=1", "alta B ac=5 ini=3", "tirar", "empezar")
    starts = {c["name"]: c["start"] for c in state(path)["combatants"]}
    for _ in range(3):
        ok(path, "A gasta 1" if state(path)["queue"][:1] == ["A"] else "B gasta 1", "turno")
        for c in state(path)["combatants"]:
            assert c["start"] == starts[c["name"]]
            assert c["marker"] == c["start"] and c["ac"] == c["ac_per_turn"]


def test_walkure_ac_is_always_entered_never_computed(tmp_path):
    """RULES.md §2: «Walküre derives AC from a table crossing Agilidad and Atención that
    the seed does not include: AC is always entered, never computed»."""
    path = new(tmp_path, rules="walkure")
    refused(path, "alta Hilda agi=4 ate=4")
    ok(path, "alta Hilda ac=6 agi=1 ate=9")
    assert who(path, "Hilda")["ac_per_turn"] == 6


def test_side_named_faction_and_pj(tmp_path):
    """RULES.md §2: «side (PJ/PNJ, or a named faction)»."""
    path = new(tmp_path, "alta A ac=5 bando=pnj", "alta B ac=5 bando=Templarios")
    assert who(path, "A")["side"] == "pnj"
    assert who(path, "B")["side"].lower() == "templarios"


# ================================================================ §3 the countdown


def test_spending_exactly_the_last_ac_is_done_and_not_carried(tmp_path):
    """RULES.md §3 Spending: «A maneuver of cost c by a combatant with ac ≥ c: ac −= c,
    marker = m − c … (or `done` when ac == 0)»."""
    path = solo(tmp_path, 3, f"A {SHOOT}")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"], a["carried"]) == (6, 0, "done", None)


def test_a_free_spend_is_carried_when_short(tmp_path):
    """RULES.md §3 Carry-over: «If c > ac: the combatant invests all it has (marker = m −
    ac, ac = 0, done) and the maneuver is carried with remaining = c − invested»; §4 «A
    free "Otra acción" with any cost»."""
    path = solo(tmp_path, 5, "A gasta 3", "A gasta 4 trepar el muro")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (4, 0, "done")
    assert a["carried"]["remaining"] == 2
    ok(path, "turno")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["carried"]) == (7, 3, None)


def test_a_carried_maneuver_waits_its_turn_in_the_queue(tmp_path):
    """RULES.md §3 Carry-over: «Next turn, when the countdown reaches its start moment and
    it is its turn in the queue, the remaining AC are spent automatically»: C (agi 1,
    carrying) comes after B (agi 5, ready) at moment 5."""
    path = new(tmp_path, "alta B ac=5 agi=5", "alta C ac=5 agi=1", "alta Z ac=5",
               "momento B 5", "momento C 5", "momento Z 1", "empezar",
               "B fin", f"C {SHOOT}", f"C {HEAVY}")
    assert who(path, "C")["carried"] == {"maneuver": HEAVY, "remaining": 2}
    ok(path, "turno")
    assert state(path)["queue"][0] == "B"
    c = who(path, "C")
    assert c["marker"] == 5 and c["carried"] is not None
    ok(path, "B gasta 1")
    c = who(path, "C")
    assert (c["marker"], c["ac"], c["carried"]) == (3, 3, None)


def test_completion_log_names_the_maneuver(tmp_path):
    """RULES.md §3 Carry-over: «(log: "completa X")»."""
    path = new(tmp_path, "alta A ac=5", "momento A 6", "empezar", f"A {SHOOT}", f"A {HEAVY}",
               "turno")
    line = line_with(path, "completa")
    assert line is not None
    assert "disparar armas pesadas" in line.lower() or HEAVY in line.lower(), line


def test_reaction_of_one_who_already_acted_lower_down(tmp_path):
    """RULES.md §3 Reactions: «marker = min(marker, m) − cost»: Mike at 4 dodges while the
    countdown is at 5: 4 − 1 = 3."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}")
    assert state(path)["moment"] == 5
    ok(path, "mike esquivar")
    assert mark(path, "Mike") == (3, 3)


def test_a_reaction_spending_the_last_ac_is_done(tmp_path):
    """RULES.md §3 Spending: «Its status becomes acted (or done when ac == 0)»; Reactions:
    «ac −= cost … A reaction counts as having acted»."""
    path = new(tmp_path, "alta A ac=5", "alta R ac=1", "momento A 9", "momento R 3",
               "empezar", "R esquivar")
    r = who(path, "R")
    assert (r["marker"], r["ac"], r["status"]) == (2, 0, "done")


def test_a_two_ac_reaction_with_one_ac_left_is_refused(tmp_path):
    """RULES.md §3: «Reactions … by anyone with ac ≥ cost … A combatant with too few AC
    cannot react: a clear refusal, nothing changes»: Parada costs 2."""
    path = new(tmp_path, "alta A ac=5", "alta R ac=1", "momento A 9", "momento R 3",
               "empezar")
    refused(path, "R parada", "AC")


def test_an_incapacitated_combatant_cannot_react(tmp_path):
    """RULES.md §5: «Incapacitado (wounds or fatigue): no maneuvers»: Esquivar is one."""
    path = new(tmp_path, "alta A ac=5", f"alta R ac=5 {BOXES}", "momento A 9",
               "momento R 3", "empezar", "dano R 4")
    refused(path, "R esquivar")


def test_an_incapacitated_by_fatigue_cannot_maneuver(tmp_path):
    """RULES.md §5: «Incapacitado (wounds or fatigue): no maneuvers»."""
    path = solo(tmp_path, 9, "dano A 4 fatiga", extra=BOXES)
    assert who(path, "A")["fatigue"] == 4
    refused(path, f"A {SHOOT}")


def test_an_out_combatant_cannot_react(tmp_path):
    """RULES.md §5: «Moribundo / Exhausto (unconscious): `out`»; out cannot act."""
    path = new(tmp_path, "alta A ac=5", f"alta R ac=5 {BOXES}", "momento A 9",
               "momento R 3", "empezar", "dano R 5")
    assert who(path, "R")["status"] == "out"
    refused(path, "R esquivar")


def test_declaring_wait_costs_nothing_until_a_moment_passes(tmp_path):
    """RULES.md §3 Wait: «Each moment the countdown passes costs 1 AC»: W waits at 7 while
    Y is still to act at 7: nothing paid yet."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera a que Y asome")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["status"]) == (7, 6, "waiting")
    assert state(path)["queue"] == ["Y"]


def test_a_waiter_pays_one_ac_for_each_moment_it_follows(tmp_path):
    """RULES.md §3 Wait: «Each moment the countdown passes costs 1 AC and lowers the
    marker by 1»: moving on one moment at a time, 7 → 6 → 5."""
    path = new(tmp_path, "alta W ac=6", "alta A ac=9", "momento W 7", "momento A 7",
               "empezar", "W wait", "A gasta 1")
    assert state(path)["moment"] == 6 and mark(path, "W") == (6, 5)
    ok(path, "A gasta 1")
    assert state(path)["moment"] == 5 and mark(path, "W") == (5, 4)


def test_done_before_ones_moment_is_skipped_by_the_countdown(tmp_path):
    """RULES.md §3 Done: «gives up its remaining AC this turn»; Advancing: «the countdown
    moves to the highest marker among combatants that can still act»: Sven declines at 7
    and moment 5 is skipped."""
    path = example(tmp_path, "sven fin", f"mike {SHOOT}", f"{S1} fin")
    data = state(path)
    assert who(path, "Sven")["status"] == "done"
    assert data["moment"] == 4 and data["queue"] == ["Soldado 2", "Mike"]


def test_turno_mid_turn_starts_the_next_turn_for_everyone(tmp_path):
    """RULES.md §3 Turn end: «the GM may also end it»; COMMANDS.md `turno`: «end this turn
    and start the next»; Turn start: «marker = start, ac = ac_per_turn, status = ready»."""
    path = example(tmp_path, f"mike {SHOOT}", "newturn")
    data = state(path)
    assert data["turn"] == 2 and data["moment"] == 7 and data["queue"] == ["Mike"]
    for c in data["combatants"]:
        assert (c["marker"], c["ac"], c["status"]) == (c["start"], c["ac_per_turn"], "ready")


def test_turn_over_with_the_rest_out(tmp_path):
    """RULES.md §3 Turn end: «The turn is over when every combatant is `done` or `out`»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "alta B ac=5", "momento A 5",
               "momento B 4", "empezar", "dano A 5", "B done")
    assert state(path)["turn_over"] is True


def test_baja_of_the_head_of_the_queue_moves_on(tmp_path):
    """COMMANDS.md `baja NAME`: remove a combatant; RULES.md §3 Advancing: «When nobody
    is left in the queue at m, the countdown moves to the highest marker»."""
    path = example(tmp_path, "remove Mike")
    data = state(path)
    assert [c["name"] for c in data["combatants"]] == ["Sven", "Soldado 1", "Soldado 2"]
    assert data["moment"] == 6 and data["queue"] == ["Soldado 1"]


def test_alta_mid_fight_then_momento_joins_at_its_start(tmp_path):
    """COMMANDS.md: `alta` «(also mid-fight: it joins at its start moment)»; `momento NAME
    N`: set the start moment."""
    path = example(tmp_path, "alta Zed ac=4", "start Zed 2")
    z = who(path, "Zed")
    assert (z["start"], z["marker"], z["ac"], z["status"]) == (2, 2, 4, "ready")
    ok(path, *(f"{n} fin" for n in ("mike", "sven", S1, S2)))
    assert state(path)["moment"] == 2 and state(path)["queue"] == ["Zed"]


def test_the_log_names_agilidad_when_it_decides_a_tie(tmp_path):
    """RULES.md §3: «the log says which key decided each tie»."""
    path = new(tmp_path, "alta Lento ac=5 agi=1", "alta Rapido ac=5 agi=4",
               "momento Lento 6", "momento Rapido 6", "empezar")
    assert state(path)["queue"] == ["Rapido", "Lento"]
    assert logged(path, "Agilidad")


def test_holders_acting_go_after_the_acted_ones(tmp_path):
    """RULES.md §3 Who acts: «first those who have not acted … then those who have already
    acted … Holders who act now go last»."""
    path = new(tmp_path, "alta H ac=5 agi=9", "alta P ac=9 agi=1", "alta Q ac=5 agi=1",
               "alta Z ac=5", "momento H 7", "momento P 5", "momento Q 4", "momento Z 1",
               "empezar", "H retrasa")
    # moment 5: P alone; P spends 1 → 4: Q (ready), P (acted), then H (holder acting)
    ok(path, "P gasta 1", "H act")
    assert state(path)["moment"] == 4
    assert state(path)["queue"] == ["Q", "P", "H"]


def test_siguiente_with_a_waiter_makes_it_pay(tmp_path):
    """RULES.md §3 Advancing: «(skipping empty moments; waiters pay for every moment
    skipped; holders follow)»: `next` from 7 to 3 costs the waiter 4."""
    path = new(tmp_path, "alta W ac=6", "alta M ac=5", "alta Z ac=5", "momento W 7",
               "momento M 7", "momento Z 3", "empezar", "W espera", "next")
    assert state(path)["moment"] == 3
    assert mark(path, "W") == (3, 2)
    assert who(path, "M")["status"] == "holding" and mark(path, "M") == (3, 5)


# ================================================================ §3 the reaction window


def test_window_opens_after_a_free_spend(tmp_path):
    """RULES.md §3: «After every command that is an action by a combatant at its moment (a
    maneuver or free spend …) the fight remembers the moment w»: X holds at 7, Y spends 2
    at 7, X's dodge lands at 6."""
    path = new(tmp_path, "alta X ac=5 agi=5", "alta Y ac=5 agi=1", "alta Z ac=5",
               "momento X 7", "momento Y 7", "momento Z 2", "empezar", "X hold",
               "Y spend 2 saltar la valla")
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_window_opens_after_a_holder_acts(tmp_path):
    """RULES.md §3: «… (a maneuver or free spend, a holder acting …)»: H holds from 7 and
    shoots at 5 after Y; X, also holding, dodges that shot at 5 → 4 (not 3)."""
    path = new(tmp_path, "alta X ac=5 agi=5", "alta H ac=6 agi=4", "alta Y ac=5 agi=1",
               "alta Z ac=5", "momento X 7", "momento H 7", "momento Y 5", "momento Z 1",
               "empezar", "X retrasa", "H retrasa")
    assert state(path)["moment"] == 5
    ok(path, "H actua", "Y gasta 1", f"H {SHOOT}")
    assert mark(path, "H") == (2, 3)
    assert state(path)["moment"] == 4 and state(path)["window"] == 5
    ok(path, "X esquivar")
    assert mark(path, "X") == (4, 4)


def window_hold(tmp_path: Path, *more: str) -> Path:
    """RULES.md §3's example: X holds at 7 and Y, also at 7, shoots X (Y → 4, Z at 2)."""
    return new(tmp_path, "alta X ac=5 agi=5", "alta Y ac=5 agi=1", "alta Z ac=5",
               "momento X 7", "momento Y 7", "momento Z 2", "empezar",
               "X retrasa", f"Y {SHOOT}", *more)


def test_window_stays_open_through_healing(tmp_path):
    """RULES.md §3: «The window stays open through any number of reactions, interrupts,
    damage, healing …»."""
    path = window_hold(tmp_path, "damage X 2", "curar X 1")
    assert state(path)["window"] == 7
    ok(path, "X esquivar")
    assert mark(path, "X") == (6, 4)


def test_window_takes_reactions_of_several_combatants(tmp_path):
    """RULES.md §3: «any number of reactions … in a row»: X (holding) and Z (at 2) both
    answer Y's shot at 7: X → 6, Z → min(2, 7) − 1 = 1."""
    path = window_hold(tmp_path, "X esquivar", "Z esquivar")
    assert mark(path, "X") == (6, 4) and mark(path, "Z") == (1, 4)
    assert state(path)["window"] == 7


@pytest.mark.parametrize("line", ["Y retrasa", "Y espera", "baja Z"])
def test_window_closes_on_hold_wait_and_removal(tmp_path, line):
    """RULES.md §3: «Anything else closes it: … hold, wait, done, adding or removing a
    combatant»."""
    path = window_hold(tmp_path)
    assert state(path)["window"] == 7
    ok(path, line)
    assert state(path)["window"] is None


def test_another_spend_at_the_current_moment_replaces_the_window(tmp_path):
    """RULES.md §3: «Anything else closes it: another maneuver or spend at the current
    moment»; that spend is itself an action at its moment (4): X's dodge now lands at
    min(4, 4) − 1 = 3."""
    path = window_hold(tmp_path, "Y gasta 1")
    assert state(path)["window"] == 4
    ok(path, "X esquivar")
    assert mark(path, "X") == (3, 4)


def test_window_after_an_interrupt_the_countdown_moves_on(tmp_path):
    """RULES.md §3: a waiter's interrupt «is applied to that remembered state at moment w
    … and then the countdown moves on by itself again from there»: W ends at 4; Y (moved
    to 5) is the highest marker."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera a que Y se mueva", "Y mover 2",
               f"W interrumpe {SHOOT}")
    data = state(path)
    assert mark(path, "W") == (4, 3)
    assert data["moment"] == 5 and data["queue"] == ["Y"]


def test_interrupt_with_a_variable_cost(tmp_path):
    """COMMANDS.md: `NAME interrumpe MANIOBRA [N]`: W interrupts Y's move with a 2-AC move
    of its own, at w = 7: W at 5 with 4 AC."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera", "Y mover 2", "W trigger mover 2")
    assert mark(path, "W") == (5, 4)


def test_the_interrupt_counts_as_an_attack(tmp_path):
    """RULES.md §3 Wait: «it performs the announced maneuver right then»; §4 attack count."""
    path = new(tmp_path, "alta W ac=9 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera", "Y mover 2", f"W interrumpe {SHOOT}")
    w = who(path, "W")
    assert w["attacks"] == 1 and w["modifier"] == -1 and w["status"] == "acted"


def test_undo_of_a_window_reaction_restores_the_state(tmp_path):
    """COMMANDS.md: «undo / redo the last command (everything is undoable)»; RULES.md §3
    «Undo reopens it exactly as it was»."""
    path = window_hold(tmp_path)
    before = {k: v for k, v in state(path).items() if k != "log"}
    ok(path, "X esquivar", "undo")
    assert {k: v for k, v in state(path).items() if k != "log"} == before
    ok(path, "redo")
    assert mark(path, "X") == (6, 4)


def test_window_is_null_at_the_start_of_a_turn(tmp_path):
    """COMMANDS.md: «`window` … null when no window is open»: nothing was done yet."""
    path = example(tmp_path)
    assert state(path)["window"] is None


# ================================================================ §3 Iniciativa Rápida


def test_quick_initiative_goes_in_descending_start_order(tmp_path):
    """RULES.md §3 Iniciativa Rápida: «no moments; combatants act in descending start
    order and each spends all the AC it wants at once»."""
    path = new(tmp_path, "alta A ac=6", "alta B ac=5", "alta C ac=5", "momento A 4",
               "momento B 8", "momento C 6", "rapida si", "empezar", rules="walkure")
    assert state(path)["queue"] == ["B"]
    ok(path, f"B {SHOOT}", "B gasta 1")
    assert state(path)["queue"] == ["B"]
    ok(path, "B fin")
    assert state(path)["queue"] == ["C"]
    ok(path, "C fin")
    assert state(path)["queue"] == ["A"]


def test_quick_initiative_a_dodge_before_ones_go_keeps_ones_go(tmp_path):
    """RULES.md §3 Iniciativa Rápida: «combatants act in descending start order and each
    spends all the AC it wants at once, keeping some for dodges»; Turn end: «The turn is
    over when every combatant is `done` or `out`»: A dodged during B's go, A's own go
    still comes."""
    path = new(tmp_path, "alta A ac=7", "alta B ac=5", "momento A 4", "momento B 8",
               "rapida si", "empezar", f"B {SHOOT}", "A esquivar", "B fin", rules="walkure")
    data = state(path)
    assert who(path, "A")["ac"] == 6
    assert data["turn_over"] is False
    assert data["queue"] == ["A"]


# ================================================================ §4 maneuvers


def test_artista_marcial_escapar_costs_3(tmp_path):
    """RULES.md §4: «Artista Marcial: Agarrón, Asfixiar, Desarmar, Escapar and Presa cost 1
    less»: agarrado with 8 AC → 4 left; Escapar 3."""
    path = solo(tmp_path, 8, "estado A +agarrado", "A escapar", extra="talentos=artista-marcial")
    assert mark(path, "A") == (6, 1)


def test_escapar_while_pinned_is_allowed(tmp_path):
    """RULES.md §4: «Inmovilizado: only Escapar»: 16 AC → ⌈16/4⌉ = 4, Escapar 4."""
    path = solo(tmp_path, 16, "cond A +inmovilizado")
    assert who(path, "A")["ac"] == 4
    ok(path, "A escapar")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (5, 0, "done")


def test_grappled_may_spend_and_escape_but_not_move_or_aim(tmp_path):
    """RULES.md §4: «Agarrado: besides reactions and free spends (`gasta`), only Escapar,
    Patada and Puñetazo …; every other maneuver is refused naming the rule»."""
    path = solo(tmp_path, 16, "estado A +agarrado")
    refused(path, "A mover 1", "agarrado")
    refused(path, "A apuntar", "agarrado")
    refused(path, "A reconocimiento", "agarrado")
    ok(path, "A gasta 1 gritar")
    ok(path, "A escapar")
    assert mark(path, "A") == (4, 3)


def test_grappled_punetazo_is_a_caution_not_a_refusal(tmp_path):
    """RULES.md §4: «Puñetazo is a caution the DJ confirms ("solo si le agarran por las
    piernas")»."""
    path = solo(tmp_path, 9, "estado A +agarrado")
    result = cdbtui("do", str(path), "A punetazo")
    assert result.returncode == 0, result.stderr
    assert mark(path, "A") == (7, 3)
    shown = result.stderr + result.stdout + "\n".join(log(path))
    assert "solo si le agarran por las piernas" in shown


def test_pinned_refuses_a_parry_and_a_free_spend(tmp_path):
    """RULES.md §4: «Inmovilizado: only Escapar …: everything else is refused, reactions and
    free spends included»."""
    path = new(tmp_path, "alta A ac=9", "alta R ac=16", "momento A 9", "momento R 3",
               "empezar", "estado R +inmovilizado")
    refused(path, "R parada", "inmovilizado")
    refused(path, f"R {COVER}", "inmovilizado")


def test_walkure_disparo_en_el_aire_is_3_plus_movement(tmp_path):
    """RULES.md §4 Walküre differences: «Golpe en el Aire and Disparo en el Aire cost 3 +
    movement»."""
    path = solo(tmp_path, 9, "A disparo-en-el-aire 2", extra="talentos=gun-kata",
                rules="walkure")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["attacks"]) == (4, 4, 1)


@pytest.mark.parametrize("rules", ["cdb", "walkure"])
def test_book_ids_of_hold_and_wait_in_both_rulesets(tmp_path, rules):
    """RULES.md §4: «`retrasar-la-accion` and `quedarse-a-la-espera` are accepted as the
    book ids of hold and wait»."""
    path = new(tmp_path, "alta A ac=5", "alta B ac=5", "alta C ac=5", "momento A 7",
               "momento B 7", "momento C 7", "empezar", "A retrasar-la-accion",
               "B quedarse-a-la-espera a que C dispare", rules=rules)
    assert who(path, "A")["status"] == "holding"
    assert who(path, "B")["status"] == "waiting"


def test_extra_target_penalty_adds_to_the_attack_count(tmp_path):
    """RULES.md §4: «Each attack maneuver after the first … cumulative −1 … Each extra
    target attacked in a turn: −1 to all actions that turn»: two shots at B and C → −2 −1."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "alta C ac=3", "momento A 9",
               "momento B 1", "momento C 1", "empezar", f"A {SHOOT} a B", f"A {SHOOT} a C")
    assert who(path, "A")["modifier"] == -3
    ok(path, "turno")
    assert who(path, "A")["modifier"] == 0


def test_the_modifier_sums_wounds_fatigue_and_aim(tmp_path):
    """RULES.md §6: «The total modifier shown … = wound penalty + fatigue penalty +
    attack-count penalty + extra-target penalty + aim bonus»: Herido −1, Aturdido −1,
    Apuntar +1 → −1; after the shot (aim used, 1 attack) → −3."""
    path = solo(tmp_path, 9, "dano A 2", "dano A 2 fatiga", "A apuntar", extra=BOXES)
    assert who(path, "A")["modifier"] == -1
    ok(path, f"A {SHOOT}")
    assert who(path, "A")["modifier"] == -3


def test_one_apuntar_gives_plus_one(tmp_path):
    """RULES.md §4 Apuntar: «+1 per Apuntar»; COMMANDS.md `modifier`: «aim»."""
    path = solo(tmp_path, 9, "A apuntar")
    a = who(path, "A")
    assert (a["marker"], a["aim"], a["modifier"]) == (7, 1, 1)


def test_apuntar_refused_after_a_carga(tmp_path):
    """RULES.md §4: Apuntar «not in a turn with movement unless Puntería Zen»: Carga moves."""
    path = solo(tmp_path, 9, "A carga 1")
    refused(path, "A apuntar")


def test_apuntar_kept_by_non_attacks(tmp_path):
    """RULES.md §4: «the bonus is used up by the next attack»: a free spend, a Reconocimiento
    and a dodge are not attacks."""
    path = solo(tmp_path, 9, "A apuntar", "A gasta 1", "A reconocimiento", "A esquivar")
    assert who(path, "A")["aim"] == 1


def test_apuntar_used_up_by_a_melee_attack_too(tmp_path):
    """RULES.md §4: «the bonus is used up by the next attack»."""
    path = solo(tmp_path, 9, "A apuntar", "A punetazo")
    assert who(path, "A")["aim"] == 0


def test_aim_kept_through_usar_la_fuerza_del_otro(tmp_path):
    """RULES.md §4: «a Bloqueo or Usar la Fuerza del Otro made as a reaction keeps it»."""
    path = new(tmp_path, "alta A ac=9 talentos=artista-marcial", "alta B ac=9",
               "momento A 9", "momento B 9", "empezar", "A apuntar",
               "A usar-la-fuerza-del-otro")
    assert who(path, "A")["aim"] == 1


def test_aim_kept_through_the_maestro_de_esgrima_bloqueo(tmp_path):
    """RULES.md §4: «The Maestro de Esgrima's Bloqueo is done «como una Parada con armas»: a
    reaction, not an attack maneuver»; the Apuntar bonus «used up by the next attack»."""
    path = new(tmp_path, "alta A ac=9 talentos=maestro-de-esgrima", "alta B ac=9",
               "momento A 9", "momento B 9", "empezar", "A apuntar", "A bloqueo")
    a = who(path, "A")
    assert (a["aim"], a["attacks"], a["marker"]) == (1, 0, 4)


@pytest.mark.parametrize("maneuver,talent", [
    ("mover-y-disparar 1", "gun kata"), ("disparo-en-el-aire 1", "gun kata"),
    ("sentidos-de-combate", "gun kata"),
    ("bloqueo-esgrima", "maestro de esgrima"), ("golpe-en-el-aire-esgrima 1", "maestro de esgrima"),
    ("sentidos-de-combate-esgrima", "maestro de esgrima"),
])
def test_gun_kata_and_esgrima_maneuvers_need_their_talent(tmp_path, maneuver, talent):
    """RULES.md §4: «(… the Maestro de Esgrima and Gun Kata maneuvers without theirs) is
    refused, naming the talent»."""
    path = solo(tmp_path, 9)
    stderr = refused(path, f"A {maneuver}").lower()
    assert talent in stderr or talent.replace(" ", "-") in stderr


def test_disparo_simultaneo_needs_gun_kata(tmp_path):
    """RULES.md §4: a Gun Kata maneuver without Gun Kata «is refused, naming the talent»."""
    path = solo(tmp_path, 9, extra="talentos=ambidiestro")
    stderr = refused(path, "A disparo-simultaneo").lower()
    assert "gun kata" in stderr or "gun-kata" in stderr


def test_golpe_en_el_aire_with_both_talents_is_refused(tmp_path):
    """RULES.md §4: «Where two talent lists share a maneuver name (… Golpe en el Aire …)
    … with both talents the command is refused listing the two ids»."""
    path = solo(tmp_path, 9, extra="talentos=artista-marcial,maestro-de-esgrima")
    stderr = refused(path, "A golpe-en-el-aire 1").lower()
    assert "artista" in stderr and "esgrima" in stderr


def test_sentidos_de_combate_with_both_talents_is_refused(tmp_path):
    """RULES.md §4: «(Bloqueo, Golpe en el Aire, Sentidos de combate…) … with both talents
    the command is refused listing the two ids»."""
    path = solo(tmp_path, 9, extra="talentos=gun-kata,maestro-de-esgrima")
    stderr = refused(path, "A sentidos-de-combate").lower()
    assert "gun-kata" in stderr and "esgrima" in stderr


def test_golpe_en_el_aire_resolves_to_esgrima(tmp_path):
    """RULES.md §4: «the name resolves to the version of the talent the combatant has»."""
    path = solo(tmp_path, 9, "A golpe-en-el-aire 2", extra="talentos=maestro-de-esgrima")
    a = who(path, "A")
    assert (a["marker"], a["attacks"]) == (4, 1)


def test_sentidos_de_combate_resolves_to_esgrima(tmp_path):
    """RULES.md §4: «the name resolves to the version of the talent the combatant has»;
    Sentidos de combate (Maestro de Esgrima) is a Reconocimiento, 1 AC."""
    path = solo(tmp_path, 9, "A sentidos-de-combate", extra="talentos=maestro-de-esgrima")
    assert mark(path, "A") == (8, 8)


def test_a_catalog_cost_above_the_ac_per_turn_is_refused(tmp_path):
    """RULES.md §4: «A cost that no turn can hold (more than the combatant's AC per turn
    …) is refused»: Disparar Armas Pesadas (4) with 3 AC per turn."""
    path = solo(tmp_path, 3)
    refused(path, f"A {HEAVY}")


def test_a_catalog_cost_equal_to_the_ac_per_turn_may_be_carried(tmp_path):
    """RULES.md §3 Carry-over: 4 AC per turn, 1 spent, then a 4-AC shot: carried with 1."""
    path = solo(tmp_path, 4, "A gasta 1", f"A {HEAVY}")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["status"]) == (5, 0, "done")
    assert a["carried"] == {"maneuver": HEAVY, "remaining": 1}


def test_liderazgo_is_not_an_attack(tmp_path):
    """RULES.md §4: «Liderazgo = 3»; it is not in the list of attack maneuvers."""
    path = solo(tmp_path, 9, "A liderazgo")
    a = who(path, "A")
    assert (a["marker"], a["attacks"], a["modifier"]) == (6, 0, 0)


def test_fintar_is_one_attack(tmp_path):
    """RULES.md §4: «Fintar = attack + 1»: one attack maneuver."""
    path = solo(tmp_path, 9, "A fintar 2")
    a = who(path, "A")
    assert (a["marker"], a["attacks"]) == (6, 1)


def test_carga_is_one_maneuver_and_one_attack(tmp_path):
    """RULES.md §4: «Carga … = attack cost + movement AC, spent as **one** maneuver»."""
    path = solo(tmp_path, 9, "A carga 2")
    a = who(path, "A")
    assert (a["marker"], a["attacks"], a["modifier"]) == (4, 1, -1)


def test_rafaga_is_an_attack(tmp_path):
    """RULES.md §4: Ráfagas are attack maneuvers (Media = shot + 1)."""
    path = solo(tmp_path, 9, "A rafaga-media 3", "A rafaga-corta 3")
    a = who(path, "A")
    assert (a["marker"], a["attacks"], a["modifier"]) == (2, 2, -2)


def test_esquivar_is_not_an_attack(tmp_path):
    """RULES.md §1: «Reacción: dodge, take cover, parry, block»; attack count counts
    attack maneuvers only."""
    path = solo(tmp_path, 9, "A esquivar", f"A {COVER}", "A parada")
    a = who(path, "A")
    assert (a["attacks"], a["modifier"]) == (0, 0)


# ================================================================ §5 conditions


def test_more_known_conditions(tmp_path):
    """RULES.md §5: «`estado` takes the conditions the rules know (those above,
    `a-cubierto`, `en-duelo`, `montado`, `estabilizado` …)»."""
    for cond in ("en-duelo", "montado", "inmovilizado", "incapacitado"):
        path = solo(tmp_path, 8, f"estado A +{cond}")
        assert cond in who(path, "A")["conditions"], cond
        fresh(tmp_path)


def test_known_conditions_in_walkure(tmp_path):
    """RULES.md §5: known conditions in each ruleset (Walküre too)."""
    for cond in ("agarrado", "a-cubierto", "en-duelo", "montado", "estabilizado"):
        path = solo(tmp_path, 8, f"estado A +{cond}", rules="walkure")
        assert cond in who(path, "A")["conditions"], cond
        fresh(tmp_path)


def test_unknown_condition_suggests_the_closest(tmp_path):
    """RULES.md §5: «an unknown word is refused with the closest known ones ("No conozco el
    estado «agarado»: ¿agarrado?")»."""
    path = solo(tmp_path, 8)
    stderr = refused(path, "estado A +inmovilisado")
    assert "No conozco el estado «inmovilisado»: ¿inmovilizado?" in stderr


def test_unknown_condition_removal_is_refused(tmp_path):
    """RULES.md §5: «an unknown word is refused»."""
    path = solo(tmp_path, 8, "estado A +agarrado")
    refused(path, "cond A -agarado", "agarado")


def test_sorprendido_via_estado_halves(tmp_path):
    """RULES.md §5: «Sorprendido: in the first turn, AC = ⌈AC/2⌉»; COMMANDS.md `estado`
    takes `sorprendido`."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "momento A 9", "momento B 1",
               "surprise A", "begin")
    assert who(path, "A")["ac"] == 5
    assert "sorprendido" in who(path, "A")["conditions"]


def test_a_timed_agarrado_restores_full_ac_next_turn(tmp_path):
    """RULES.md §5: Agarrado «applied to the remaining AC at once … removing it restores
    full AC from the next turn»; Durations: «`turnos=1`: at the end of this turn»."""
    path = solo(tmp_path, 7, "estado A +agarrado turnos=1")
    assert who(path, "A")["ac"] == 4
    ok(path, "turno")
    a = who(path, "A")
    assert a["conditions"] == [] and a["ac"] == 7


def test_pinned_removed_restores_from_next_turn(tmp_path):
    """RULES.md §5: «removing it restores full AC from the next turn»."""
    path = solo(tmp_path, 8, "estado A +inmovilizado", "estado A -inmovilizado")
    assert who(path, "A")["ac"] == 2
    ok(path, "turno")
    assert who(path, "A")["ac"] == 8


def test_expires_counts_from_the_current_turn(tmp_path):
    """RULES.md §5: «`turnos=N` ends it by itself at the end of the N-th turn counting the
    current one»; COMMANDS.md `expires`: «(the turn at whose end it ends)»: given in turn 2
    with turnos=2 → 3."""
    path = solo(tmp_path, 7, "turno", "estado A +aturdido turnos=2")
    assert who(path, "A")["expires"] == {"aturdido": 3}
    ok(path, "turno")
    assert "aturdido" in who(path, "A")["conditions"]
    ok(path, "turno")
    assert "aturdido" not in who(path, "A")["conditions"]
    assert logged(path, "A: −aturdido (fin de su duración)")


def test_a_note_appears_in_the_log(tmp_path):
    """RULES.md §5: notes «appear in the panel and the log»."""
    path = solo(tmp_path, 7, "note A cojea de la pierna izquierda")
    assert logged(path, "cojea de la pierna izquierda")
    assert "cojea de la pierna izquierda" in cdbtui("show", str(path)).stdout


def test_a_note_with_a_duration_is_listed_at_the_next_turn_start(tmp_path):
    """RULES.md §5: «at the start of each turn the log lists what is still running»."""
    path = solo(tmp_path, 7, "nota A en llamas turnos=3", "turno")
    turn2 = [line for line in log(path) if line.startswith("T2")]
    assert any("en llamas" in line for line in turn2)


def test_note_clear_in_english(tmp_path):
    """COMMANDS.md: `nota NAME -` clears; English `note`."""
    path = solo(tmp_path, 7, "note A uno", "note A dos", "note A -")
    assert who(path, "A")["notes"] == []


def test_a_condition_with_a_duration_is_listed_at_the_next_turn_start(tmp_path):
    """RULES.md §5: «at the start of each turn the log lists what is still running»."""
    path = solo(tmp_path, 7, "estado A +a-cubierto turnos=2", "turno")
    turn2 = [line for line in log(path) if line.startswith("T2")]
    assert any("a-cubierto" in line or "a cubierto" in line for line in turn2)


def test_ocultar_a_visible_one_and_revelar(tmp_path):
    """RULES.md §5: «`ocultar NAME` hides it (or hides a visible one) from then on»."""
    path = new(tmp_path, "alta Ana ac=5 bando=pnj", "ocultar Ana")
    assert who(path, "Ana")["hidden"] is True
    ok(path, "reveal Ana")
    assert who(path, "Ana")["hidden"] is False


def test_the_panel_says_oculto_after_ocultar(tmp_path):
    """RULES.md §5: «The DJ's sheet marks hidden columns and the panel says "oculto"»."""
    path = new(tmp_path, "alta Espia ac=5", "alta B ac=3", "momento Espia 5",
               "momento B 3", "empezar", "hide Espia")
    out = cdbtui("show", str(path)).stdout
    line = next(line for line in out.splitlines() if line.startswith("Espia"))
    assert "oculto" in line


# ================================================================ §6 wounds and fatigue


@pytest.mark.parametrize("boxes,modifier", [(1, 0), (2, -1), (3, -3), (4, -6)])
def test_wound_categories_give_their_penalties(tmp_path, boxes, modifier):
    """RULES.md §6: «Rasguño (no penalty), Herido (−1), Gravemente Herido (−2, total −3),
    Incapacitado (−3, total −6)»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", f"dano A {boxes}")
    a = who(path, "A")
    assert a["wounds"] == boxes and a["modifier"] == modifier


def test_boxes_per_category_are_per_combatant(tmp_path):
    """RULES.md §6: «boxes per category are per-combatant data»: 2 Rasguños, then Herido."""
    path = new(tmp_path, "alta A ac=5 vida=2,2,1,1,1", "dano A 2")
    assert who(path, "A")["modifier"] == 0
    ok(path, "dano A 1")
    assert who(path, "A")["modifier"] == -1


def test_fatigue_beyond_the_track_is_applied_as_wounds(tmp_path):
    """RULES.md §6: «fatigue beyond the track is applied as wounds»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "dano A 7 fatiga")
    a = who(path, "A")
    assert a["fatigue"] == 5 and a["wounds"] == 2


def test_negative_total_damage_marks_nothing_in_fatigue(tmp_path):
    """RULES.md §6: «Fatigue works the same»: Daño − RD below 0 marks nothing; 0 marks one."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "dano A 1 rd=2 fatiga")
    assert who(path, "A")["fatigue"] == 0
    ok(path, "dano A 2 rd=2 fatiga")
    assert who(path, "A")["fatigue"] == 1


def test_first_aid_keeps_the_grave_penalty(tmp_path):
    """RULES.md §6: Primeros Auxilios heals «Rasguño and Herido categories only …, so boxes
    of Gravemente Herido and worse stay marked and keep their penalty»."""
    path = solo(tmp_path, 9, "dano A 3", "curar A 5", extra=BOXES)
    a = who(path, "A")
    assert a["wounds"] == 1 and a["modifier"] == -3


def test_first_aid_heals_the_worst_of_rasguno_and_herido_first(tmp_path):
    """RULES.md §6: «heals up to N boxes of the Rasguño and Herido categories only (worst of
    those first)»: 2 Rasguños + 1 Herido, curar 1 → the Herido goes, penalty 0."""
    path = solo(tmp_path, 9, "dano A 3", "curar A 1", extra="vida=2,1,1,1,1")
    a = who(path, "A")
    assert a["wounds"] == 2 and a["modifier"] == 0


def test_damage_after_first_aid_marks_from_the_first_empty_box(tmp_path):
    """RULES.md §6: «above 0: mark that many boxes from the first empty one»: after first
    aid cleared the Rasguño and the Herido (Gravemente Herido still marked), 1 point marks
    the Rasguño box: still −3, not Incapacitado."""
    path = solo(tmp_path, 9, "dano A 3", "curar A 5", "dano A 1", extra=BOXES)
    a = who(path, "A")
    assert a["wounds"] == 2 and a["modifier"] == -3
    assert a["status"] != "done"
    ok(path, f"A {SHOOT}")


def test_first_aid_only_once_even_in_a_later_turn(tmp_path):
    """RULES.md §6: «a second `curar` on the same patient in the same fight is refused»."""
    path = solo(tmp_path, 9, "dano A 2", "curar A 1", "turno", "dano A 2", extra=BOXES)
    refused(path, "curar A 1")


def test_curar_between_turns_heals_the_worst_first(tmp_path):
    """RULES.md §6: «Between turns and after the last one, `curar` is treatment with time
    (the worst boxes first, any category)»: the turn is over; the Gravemente Herido box
    goes first → Herido, −1."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "momento A 5", "empezar", "dano A 3",
               "A fin")
    assert state(path)["turn_over"] is True
    ok(path, "curar A 1")
    a = who(path, "A")
    assert a["wounds"] == 2 and a["modifier"] == -1


def test_curar_before_the_fight_is_treatment_any_category(tmp_path):
    """RULES.md §6: outside a turn in progress `curar` is treatment «(the worst boxes first,
    any category)»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "dano A 4", "curar A 2")
    a = who(path, "A")
    assert a["wounds"] == 2 and a["modifier"] == -1


def test_stabilised_moribundo_stays_out_next_turn(tmp_path):
    """RULES.md §6: on a Moribundo first aid «only stabilises …: condition `estabilizado`,
    no box healed, still out»; §5 out: «skipped by the countdown»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "alta B ac=5", "momento A 9",
               "momento B 3", "empezar", "dano A 5", "curar A 2", "turno")
    a = who(path, "A")
    assert a["status"] == "out" and a["wounds"] == 5 and "estabilizado" in a["conditions"]
    assert state(path)["queue"] == ["B"]


def test_melee_fatigue_from_a_carga(tmp_path):
    """RULES.md §6: «each combatant that made at least one melee attack maneuver in it gets
    1 fatigue point»: Carga is a melee attack."""
    path = solo(tmp_path, 9, "A carga 1", "turno")
    assert who(path, "A")["fatigue"] == 1
    assert logged(path, "A: +1 fatiga (combate cuerpo a cuerpo)")


def test_no_melee_fatigue_from_parries_and_dodges(tmp_path):
    """RULES.md §6: fatigue for «at least one melee attack maneuver»: a Parada or an
    Esquivar is a reaction, no attack."""
    path = solo(tmp_path, 9, "A parada", "A esquivar", "turno")
    assert who(path, "A")["fatigue"] == 0
    assert not logged(path, "fatiga (combate cuerpo a cuerpo)")


def test_melee_fatigue_each_turn_applied_like_any_fatigue(tmp_path):
    """RULES.md §6: «at the end of every turn … 1 fatigue point … applied like any
    fatigue»: two turns of melee → Aturdido, −1."""
    path = solo(tmp_path, 9, "A patada", "turno", "A patada", "turno", extra=BOXES)
    a = who(path, "A")
    assert a["fatigue"] == 2 and a["modifier"] == -1


def test_melee_fatigue_when_the_gm_ends_the_turn(tmp_path):
    """RULES.md §6: «at the end of every turn» (the GM may also end it, §3)."""
    path = solo(tmp_path, 9, "A punetazo", "newturn")
    assert who(path, "A")["fatigue"] == 1


def test_melee_fatigue_switch_accepts_si_with_accent(tmp_path):
    """COMMANDS.md: `fatiga-cc si|no`; «accents are optional when typing»: `sí` works."""
    path = solo(tmp_path, 9, "fatiga-cc no", "fatiga-cc sí", "A punetazo", "turno")
    assert who(path, "A")["fatigue"] == 1


def test_melee_fatigue_off_in_english(tmp_path):
    """COMMANDS.md: `melee-fatigue on|off`."""
    path = solo(tmp_path, 9, "melee-fatigue off", "A punetazo", "turno")
    assert who(path, "A")["fatigue"] == 0


def test_melee_fatigue_in_walkure(tmp_path):
    """RULES.md §6 melee fatigue: «Usar arma cuerpo a cuerpo» is a melee attack."""
    path = solo(tmp_path, 9, "A usar-arma-cuerpo-a-cuerpo", "turno", rules="walkure")
    assert who(path, "A")["fatigue"] == 1


# ================================================================ COMMANDS.md language


def test_a_unique_prefix_of_a_maneuver_id(tmp_path):
    """COMMANDS.md: «otherwise a unique prefix is accepted (for names and maneuver ids
    alike)»: `disparar-armas-la` = disparar-armas-largas."""
    path = solo(tmp_path, 9, "A disparar-armas-la")
    a = who(path, "A")
    assert (a["marker"], a["attacks"]) == (6, 1)


def test_an_ambiguous_prefix_of_a_maneuver_is_refused(tmp_path):
    """COMMANDS.md: «a unique prefix is accepted»: `disparar-armas` is not unique."""
    path = solo(tmp_path, 9)
    refused(path, "A disparar-armas")


def test_an_exact_maneuver_id_wins_over_longer_ones(tmp_path):
    """COMMANDS.md: «an exact name or id wins»: `mover` is not `mover-y-disparar`."""
    path = solo(tmp_path, 9, "A mover 2", extra="talentos=gun-kata")
    a = who(path, "A")
    assert (a["marker"], a["attacks"]) == (7, 0)


def test_a_maneuver_typed_with_its_accent_and_capitals(tmp_path):
    """COMMANDS.md: «accents are optional when typing»; «Names are matched
    case-insensitively»: `Puñetazo` = `punetazo`."""
    path = solo(tmp_path, 9, "a Puñetazo")
    assert mark(path, "A") == (7, 7)


def test_actua_with_its_accent(tmp_path):
    """COMMANDS.md: «accents are optional when typing»: `actúa` = `actua`."""
    path = new(tmp_path, "alta H ac=5", "alta A ac=5", "momento H 7", "momento A 4",
               "empezar", "H retrasa", "H actúa")
    assert state(path)["queue"][-1] == "H"


def test_interrumpe_with_accents_and_ahora(tmp_path):
    """RULES.md §3: «`hal interrumpe disparar-armas-cortas ahora`»: the book example."""
    path = new(tmp_path, "alta Hal ac=6 agi=5", "alta Y ac=6 agi=1", "alta Z ac=6",
               "momento Hal 7", "momento Y 7", "momento Z 5", "empezar",
               "Hal espera", "Y gasta 1")
    ok(path, "hal interrumpe disparar-armas-cortas ahora")
    assert mark(path, "Hal") == (3, 2)


def test_a_refusal_of_an_unknown_maneuver(tmp_path):
    """COMMANDS.md: «A refused command leaves the fight unchanged and says why in one line»."""
    path = solo(tmp_path, 9)
    refused(path, "A bailar-claque")


def test_a_refused_line_in_a_batch_keeps_the_earlier_ones(tmp_path):
    """COMMANDS.md: «saving atomically after each … Stops at the first command that fails …
    the save left exactly as it was before that command»."""
    path = solo(tmp_path, 9)
    result = cdbtui("do", str(path), "A gasta 1", "A gasta 99", "A gasta 1")
    assert result.returncode == 1 and "A gasta 99" in result.stderr
    assert mark(path, "A") == (8, 8)


def test_spanish_spellings_of_every_keyword(tmp_path):
    """COMMANDS.md: the Spanish spelling of each keyword."""
    path = new(tmp_path, "alta Ana ac=6 agi=3 bando=pj", "alta Bo ac=5 agi=2",
               "alta Guardia ac=4 copias=2", "baja \"Guardia 2\"",
               "momento Ana 7", "momento Bo 7", "tirar \"Guardia 1\"", "sorpresa Bo",
               "empezar", "Ana gasta 1 abrir", "Bo retrasa")
    assert who(path, "Bo")["status"] == "holding"
    ok(path, "Bo actua", "Bo fin", "estado Ana +agarrado", "estado Ana -agarrado",
       "dano Ana 1", "nota Ana hola", "ocultar Ana", "revelar Ana", "deshacer", "rehacer",
       "fatiga-cc no", "siguiente", "turno")
    assert state(path)["turn"] == 2
    assert who(path, "Ana")["hidden"] is False


def test_english_done_and_trigger_now(tmp_path):
    """COMMANDS.md: `NAME done`, `NAME trigger …`."""
    path = new(tmp_path, "add W ac=6 agi=5", "add Y ac=6 agi=1", "add Z ac=6",
               "start W 7", "start Y 7", "start Z 5", "begin", "W wait", "Y spend 1",
               f"W trigger {SHOOT} ahora", "Y done")
    assert mark(path, "W") == (3, 2)
    assert who(path, "Y")["status"] == "done"


def test_copies_roll_one_by_one(tmp_path):
    """COMMANDS.md: «copias=N … start moments rolled or typed one by one»."""
    path = new(tmp_path, "alta Orco ac=4 ini=1 copias=3", "momento \"Orco 1\" 9", "tirar")
    orcs = {c["name"]: c for c in state(path)["combatants"]}
    assert orcs["Orco 1"]["start"] == 9
    assert all(2 <= orcs[f"Orco {i}"]["start"] <= 7 for i in (2, 3))


# ================================================================ §7 the worked example


def test_worked_example_in_walkure_with_queue_and_windows(tmp_path):
    """RULES.md §7: «(CdB ch. 9, also Walküre "Ejemplo 2º")»: the table cell by cell, each
    reaction typed after its action (the window puts it at that action's moment)."""
    path = example(tmp_path, rules="walkure")

    def cells(**expected):
        for name, cell in expected.items():
            assert mark(path, name.replace("_", " ")) == cell, name

    ok(path, f"mike {SHOOT}")
    data = state(path)
    assert (data["moment"], data["queue"], data["window"]) == (6, ["Soldado 1"], 7)
    ok(path, f"{S1} {COVER}")
    cells(Mike=(4, 4), Sven=(5, 5), Soldado_1=(5, 5), Soldado_2=(4, 5))
    data = state(path)
    assert (data["moment"], data["queue"]) == (5, ["Sven", "Soldado 1"])
    ok(path, f"sven {SHOOT}", f"{S2} {COVER}", f"{S1} {SHOOT}")
    cells(Sven=(2, 2), Soldado_1=(2, 2), Soldado_2=(3, 4))
    data = state(path)
    assert (data["moment"], data["queue"]) == (4, ["Mike"])
    ok(path, f"mike {COVER}")
    cells(Mike=(3, 3))
    # both have acted: by Agilidad Mike (4) before Soldado 2 (2); the table's order is
    # typed anyway (both are in the queue at 3)
    assert state(path)["queue"] == ["Mike", "Soldado 2"]
    ok(path, f"{S2} {SHOOT}", "mike apuntar")
    cells(Mike=(1, 1), Soldado_2=(0, 1))
    assert state(path)["queue"] == ["Sven", "Soldado 1"]
    ok(path, f"{S1} apuntar", f"sven {SHOOT}")
    cells(Soldado_1=(0, 0), Sven=(0, 0))
    assert who(path, "Sven")["carried"] == {"maneuver": SHOOT, "remaining": 1}
    ok(path, f"mike {SHOOT}")
    assert mark(path, "Mike") == (0, 0)
    assert who(path, "Mike")["carried"] == {"maneuver": SHOOT, "remaining": 2}
    ok(path, f"{S2} {SHOOT}")
    assert mark(path, "Soldado 2") == (-1, 0)
    assert who(path, "Soldado 2")["carried"] == {"maneuver": SHOOT, "remaining": 2}
    data = state(path)
    assert data["turn_over"] is True
    assert {c["status"] for c in data["combatants"]} == {"done"}
    ok(path, "turno")
    assert mark(path, "Mike") == (5, 5) and who(path, "Mike")["carried"] is None
    assert state(path)["window"] is None


def test_worked_example_turn_2_completions_in_english(tmp_path):
    """RULES.md §7: «Turn 2 then starts with Mike completing his shot at moment 7 → marker
    5, Sven completing at 5 → 4, Soldado 2 completing at 4 → 2»; each shot counts as the
    first attack of turn 2."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}", f"mike {COVER}", f"{S2} {SHOOT}",
                   "mike apuntar", f"{S1} apuntar", f"sven {SHOOT}", f"mike {SHOOT}",
                   f"{S2} {SHOOT}", "newturn")
    assert mark(path, "Mike") == (5, 5)
    ok(path, f"{S1} done")
    assert mark(path, "Sven") == (4, 4)
    ok(path, "Mike done")
    assert mark(path, "Soldado 2") == (2, 3)
    for name in ("Mike", "Sven", "Soldado 2"):
        c = who(path, name)
        assert c["carried"] is None and c["attacks"] == 1, name
    assert len([line for line in log(path) if ": completa" in line]) == 3


def test_worked_example_mike_s_aim_is_used_by_the_completed_shot(tmp_path):
    """RULES.md §7 / §4: Mike aims at 3 (+1), then starts a shot at 1 with his last AC and
    completes it at 7 in turn 2: that shot is the next attack and «the bonus is used up by
    the next attack»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}", f"mike {COVER}", f"{S2} {SHOOT}",
                   "mike apuntar")
    assert who(path, "Mike")["aim"] == 1
    ok(path, f"{S1} apuntar", f"sven {SHOOT}", f"mike {SHOOT}", f"{S2} {SHOOT}", "turno")
    m = who(path, "Mike")
    assert m["carried"] is None and m["attacks"] == 1
    assert m["aim"] == 0


def test_worked_example_alternative_mike_keeps_his_ac(tmp_path):
    """RULES.md §7: «In the alternative the book gives, Mike keeps his last AC for a dodge,
    and at moment 0 starts Apuntar (2 AC) with it: next turn he completes it at start −
    1»."""
    path = example(tmp_path, f"mike {SHOOT}", f"{S1} {COVER}", f"sven {SHOOT}",
                   f"{S2} {COVER}", f"{S1} {SHOOT}", f"mike {COVER}", f"{S2} {SHOOT}",
                   "mike apuntar", f"{S1} apuntar", f"sven {SHOOT}")
    data = state(path)
    assert data["moment"] == 1 and data["queue"] == ["Mike"]
    ok(path, "mike retrasa")
    data = state(path)
    assert data["moment"] == 0 and who(path, "Mike")["status"] == "holding"
    assert mark(path, "Mike") == (0, 1)
    ok(path, "mike actua")
    assert state(path)["queue"] == ["Soldado 2", "Mike"]
    ok(path, f"{S2} {SHOOT}", "mike apuntar")
    m = who(path, "Mike")
    assert (m["marker"], m["ac"], m["status"]) == (-1, 0, "done")
    assert m["carried"] == {"maneuver": "apuntar", "remaining": 1}
    ok(path, "turno")
    m = who(path, "Mike")
    assert (m["marker"], m["ac"], m["carried"]) == (6, 6, None)


# ================================================================ more corners


def test_a_holder_dodging_outside_a_window(tmp_path):
    """RULES.md §3 Reactions: «marker = min(marker, m) − cost»; Hold: «The holder's marker
    follows the countdown»: H held from 7 to 4, dodges there → 3."""
    path = new(tmp_path, "alta H ac=5", "alta A ac=5", "momento H 7", "momento A 4",
               "empezar", "H retrasa")
    assert state(path)["window"] is None and mark(path, "H") == (4, 5)
    ok(path, "H esquivar")
    assert mark(path, "H") == (3, 4)


def test_a_waiter_done_before_w_cannot_interrupt(tmp_path):
    """RULES.md §3 Wait: «A waiter whose AC reach 0 is `done`»; Done: it «cannot react any
    more»: W ran dry at 5, B spends at 1: nothing to interrupt with."""
    path = new(tmp_path, "alta W ac=2", "alta B ac=5", "momento W 7", "momento B 1",
               "empezar", "W espera", "B gasta 1")
    assert who(path, "W")["status"] == "done"
    refused(path, f"W interrumpe {SHOOT}")


def test_damage_that_puts_the_acting_one_out_moves_the_countdown_on(tmp_path):
    """RULES.md §5: «Moribundo … `out`, skipped by the countdown»; §3 Advancing."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "alta B ac=5", "momento A 7",
               "momento B 4", "empezar", "dano A 5")
    data = state(path)
    assert who(path, "A")["status"] == "out"
    assert data["moment"] == 4 and data["queue"] == ["B"]


def test_an_incapacitated_one_is_not_who_can_act(tmp_path):
    """RULES.md §3 Turn start: «The current moment is the highest marker among combatants
    who can act»; §5: «Incapacitado …: no maneuvers»."""
    path = new(tmp_path, f"alta A ac=9 {BOXES}", "alta B ac=3", "momento A 9",
               "momento B 3", "empezar", "dano A 4", "turno")
    data = state(path)
    assert data["moment"] == 3 and data["queue"] == ["B"]


def test_surprised_attack_without_reconocimiento_warns(tmp_path):
    """RULES.md §5: «Sorprendido: … to attack that turn the combatant needs a
    Reconocimiento first (the UI warns)»: a warning, not a refusal."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "momento A 9", "momento B 1",
               "sorpresa A", "empezar")
    result = cdbtui("do", str(path), f"A {SHOOT}")
    assert result.returncode == 0
    assert "reconocimiento" in (result.stderr + "\n".join(log(path))).lower()
    assert mark(path, "A") == (6, 2)


def test_reconocimiento_then_no_warning(tmp_path):
    """RULES.md §5: «needs a Reconocimiento first»: after one, no warning."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "momento A 9", "momento B 1",
               "sorpresa A", "empezar", "A reconocimiento")
    result = cdbtui("do", str(path), f"A {SHOOT}")
    assert result.returncode == 0 and "reconocimiento" not in result.stderr.lower()


def test_the_aim_bonus_waits_for_the_next_attack_across_turns(tmp_path):
    """RULES.md §4: «the bonus is used up by the next attack»: not by the end of a turn."""
    path = solo(tmp_path, 9, "A apuntar", "turno")
    a = who(path, "A")
    assert a["aim"] == 1 and a["modifier"] == 1


def test_abandonar_duelo_leaves_the_duel(tmp_path):
    """RULES.md §4: «leaving a duel = 3»; §5 condition `en-duelo`."""
    path = solo(tmp_path, 9, "estado A +en-duelo", "A abandonar-duelo")
    a = who(path, "A")
    assert (a["marker"], a["ac"]) == (6, 6) and "en-duelo" not in a["conditions"]


def test_a_note_with_a_duration_ends_with_a_log_line(tmp_path):
    """RULES.md §5: «A condition or note may be given a duration: `turnos=N` ends it by
    itself … with a log line»."""
    path = solo(tmp_path, 7, "nota A sangra turnos=1", "turno")
    assert who(path, "A")["notes"] == []
    assert line_with(path, "sangra", "fin de su duración") is not None


def test_removing_a_timed_condition_clears_its_expiry(tmp_path):
    """COMMANDS.md: «a condition with a duration also appears in `expires`»; once removed it
    is no longer there."""
    path = solo(tmp_path, 7, "estado A +aturdido turnos=3", "estado A -aturdido")
    a = who(path, "A")
    assert a["conditions"] == [] and a["expires"] == {}


def test_inmovilizado_mid_turn_quarters_what_is_left(tmp_path):
    """RULES.md §5: «Inmovilizado (Presa): AC ×¼ … rounded up … applied to the remaining AC
    at once»: 5 left → 2."""
    path = solo(tmp_path, 9, "A disparar-armas-pesadas", "estado A +inmovilizado")
    assert who(path, "A")["ac"] == 2


def test_first_aid_heals_a_herido_and_a_rasguno(tmp_path):
    """RULES.md §6: Primeros Auxilios «heals up to N boxes of the Rasguño and Herido
    categories only (worst of those first)»."""
    path = solo(tmp_path, 9, "dano A 2", "curar A 1", extra=BOXES)
    a = who(path, "A")
    assert a["wounds"] == 1 and a["modifier"] == 0


def test_a_quoted_name_matched_case_insensitively(tmp_path):
    """COMMANDS.md: «Names are matched case-insensitively; a name with spaces is quoted»."""
    path = example(tmp_path, '"soldado 2" esquivar')
    assert mark(path, "Soldado 2") == (3, 4)


def test_a_unique_prefix_of_a_name(tmp_path):
    """COMMANDS.md: «otherwise a unique prefix is accepted (for names …)»."""
    path = example(tmp_path, f"sv {COVER}")
    assert mark(path, "Sven") == (4, 4)


def test_undo_reopens_the_window_after_any_closer(tmp_path):
    """RULES.md §3: «Undo reopens it exactly as it was»."""
    for line in ("turno", "baja Z", "Y retrasa"):
        path = window_hold(tmp_path, line, "deshacer")
        assert state(path)["window"] == 7, line
        ok(path, "X esquivar")
        assert mark(path, "X") == (6, 4), line
        fresh(tmp_path)


def test_undo_of_empezar(tmp_path):
    """COMMANDS.md: «everything is undoable»; «`turn` is 0 before `empezar`. `moment` …
    null before the fight starts»."""
    path = example(tmp_path, "undo")
    data = state(path)
    assert data["turn"] == 0 and data["moment"] is None


def test_carga_con_montura_when_mounted(tmp_path):
    """RULES.md §4: «Carga con Montura = 2 + attack (the mount pays its movement)»; §5
    `montado`."""
    path = solo(tmp_path, 9, "estado A +montado", "A carga-con-montura 3")
    a = who(path, "A")
    assert (a["marker"], a["ac"], a["attacks"]) == (4, 4, 1)


def test_talents_duelista_and_gun_fu_are_known(tmp_path):
    """RULES.md §2: «talents (e.g. Artista Marcial, Gun Kata, Maestro de Esgrima,
    Ambidiestro, Puntería Zen, Gun Fu, Duelista)»."""
    path = new(tmp_path, "alta A ac=5 talentos=duelista,gun-fu,ambidiestro")
    assert set(who(path, "A")["talents"]) == {"duelista", "gun-fu", "ambidiestro"}


def test_moribundo_after_incapacitado_is_out(tmp_path):
    """RULES.md §5: «Incapacitado …: no maneuvers. Moribundo / Exhausto (unconscious):
    `out`»: the conditions set one after the other."""
    path = solo(tmp_path, 9, "estado A +incapacitado", "estado A +moribundo")
    assert who(path, "A")["status"] == "out"
    ok(path, "turno")
    assert who(path, "A")["status"] == "out"


def test_exhausto_condition_is_out(tmp_path):
    """RULES.md §5: «Moribundo / Exhausto (unconscious): `out`, skipped by the countdown»."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "momento A 9", "momento B 2",
               "empezar", "estado A +exhausto")
    assert who(path, "A")["status"] == "out"
    assert state(path)["moment"] == 2 and state(path)["queue"] == ["B"]


def test_incapacitado_condition_refuses_maneuvers(tmp_path):
    """RULES.md §5: «Incapacitado (wounds or fatigue): no maneuvers»; `estado` takes it."""
    path = solo(tmp_path, 9, "estado A +incapacitado")
    refused(path, "A punetazo", "incapacitado")


def test_two_extra_targets(tmp_path):
    """RULES.md §4: «Each extra target attacked in a turn: −1 to all actions that turn»:
    three shots at B, C, D: −3 (count) −2 (targets)."""
    path = new(tmp_path, "alta A ac=9", "alta B ac=3", "alta C ac=3", "alta D ac=3",
               "momento A 9", *(f"momento {n} 1" for n in "BCD"), "empezar",
               f"A {SHOOT} a B", f"A {SHOOT} a C", f"A {SHOOT} a D")
    assert who(path, "A")["modifier"] == -5


def test_stabilised_one_gets_no_second_first_aid(tmp_path):
    """RULES.md §6: «a second `curar` on the same patient in the same fight is refused»."""
    path = new(tmp_path, f"alta A ac=5 {BOXES}", "alta B ac=5", "momento A 9",
               "momento B 3", "empezar", "dano A 5", "curar A 2", "turno")
    refused(path, "curar A 2")


def test_an_interrupt_with_a_kick_gives_melee_fatigue(tmp_path):
    """RULES.md §6: «each combatant that made at least one melee attack maneuver in it gets 1
    fatigue point»: the waiter's interrupt was a Patada."""
    path = new(tmp_path, "alta W ac=6 agi=5", "alta Y ac=6 agi=1", "momento W 7",
               "momento Y 7", "empezar", "W espera", "Y mover 2", "W interrumpe patada",
               "turno")
    assert who(path, "W")["fatigue"] == 1 and who(path, "Y")["fatigue"] == 0
    assert logged(path, "W: +1 fatiga (combate cuerpo a cuerpo)")


def test_an_interrupt_after_the_turn_ran_out_in_the_advance(tmp_path):
    """RULES.md §3: in the window «a waiter has paid only for the moments passed up to w»:
    W (3 AC) waits at 7, Y spends its last AC moving at 7; W interrupts with a 3-AC shot at
    7 → 4 with 0 AC, done."""
    path = new(tmp_path, "alta W ac=3 agi=5", "alta Y ac=3 agi=1", "alta Z ac=4",
               "momento W 7", "momento Y 7", "momento Z 1", "empezar", "W espera",
               "Y mover 3", f"W interrumpe {SHOOT}")
    w = who(path, "W")
    assert (w["marker"], w["ac"], w["status"], w["attacks"]) == (4, 0, "done", 1)
    assert state(path)["moment"] == 1 and state(path)["queue"] == ["Z"]
