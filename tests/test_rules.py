"""One or more tests per rule of RULES.md §3–§6, named after the rule.

Expected numbers are worked out from RULES.md in the comments next to them.
"""

from __future__ import annotations

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import Status
from cdbtui.engine.rules import queue

S1, S2 = '"Soldado 1"', '"Soldado 2"'
SHOOT = "disparar-armas-largas"


def names(fight) -> list[str]:
    return [c.name for c in queue(fight)]


from fights import logged, refused  # noqa: E402


def pair(session, a: str = "", b: str = "", start_a: int = 5, start_b: int = 5):
    """Two combatants A and B with 6 AC, at the given starts, turn 1 begun."""
    return session(
        f"alta A ac=6 {a}", f"alta B ac=6 {b}",
        f"momento A {start_a}", f"momento B {start_b}", "empezar",
    )


# ---------------------------------------------------------------- §3 the countdown


def test_turn_start_sets_marker_ac_status_and_the_current_moment(demo):
    f = demo.fight
    assert f.turn == 1
    assert f.moment == 7  # the highest marker among those who can act
    for c in f.combatants:
        assert (c.marker, c.ac, c.status, c.attacks) == (c.start, c.ac_per_turn, Status.READY, 0)


def test_turn_start_resets_the_attack_count_and_ac_next_turn(demo):
    demo.execute(f"Mike {SHOOT}")
    assert demo.fight.find("Mike").attacks == 1
    demo.execute("turno")
    mike = demo.fight.find("Mike")
    assert (mike.marker, mike.ac, mike.status, mike.attacks) == (7, 7, Status.READY, 0)
    assert demo.fight.turn == 2


def test_queue_order_not_yet_acted_goes_first_and_the_log_says_so(demo):
    demo.execute(f"Mike {SHOOT}")
    demo.execute(f"{S1} ponerse-a-cubierto")  # Soldado 1 reaches 5 having acted
    assert demo.fight.moment == 5
    assert names(demo.fight) == ["Sven", "Soldado 1"]
    assert logged(demo, "Sven antes que Soldado 1 (aún no había actuado)")


def test_queue_order_tie_broken_by_agilidad(session):
    s = pair(session, "agi=2", "agi=4")
    assert names(s.fight) == ["B", "A"]
    assert logged(s, "B antes que A (Agilidad 4 contra 2)")


def test_queue_order_tie_broken_by_atencion(session):
    s = pair(session, "agi=3 ate=5", "agi=3 ate=1")
    assert names(s.fight) == ["A", "B"]
    assert logged(s, "A antes que B (Atención 5 contra 1)")


def test_queue_order_tie_broken_by_first_maneuver_skill(session):
    s = pair(session, "agi=3 ate=3 hab=2", "agi=3 ate=3 hab=6")
    assert names(s.fight) == ["B", "A"]
    assert logged(s, "B antes que A (Habilidad 6 contra 2)")


def test_queue_order_among_those_who_acted_by_arrival(session):
    # A (7) and B (6) both spend down to 4; B arrived there first only if it acted first,
    # so make A reach 4 first: A at 7 spends 3 (→4) before B at 6 spends 2 (→4).
    s = session("alta A ac=6", "alta B ac=6", "alta C ac=6", "momento A 7", "momento B 6",
                "momento C 1", "empezar", "A gasta 3", "B gasta 2")
    assert s.fight.moment == 4
    assert names(s.fight) == ["A", "B"]
    assert logged(s, "A antes que B (llegó antes a este momento)")


def test_queue_order_total_tie_keeps_roster_order_and_the_gm_can_swap(session):
    s = pair(session)
    assert names(s.fight) == ["A", "B"]
    assert logged(s, "empate total")
    s.execute("cambiar A B")
    assert names(s.fight) == ["B", "A"]


def test_queue_order_swap_refused_when_the_rules_decide(session):
    s = pair(session, "agi=2", "agi=4")
    refused(s, "cambiar A B", "no están empatados")


def test_queue_holders_who_act_now_go_last(demo):
    demo.execute(f"Mike {SHOOT}")
    demo.execute(f"{S1} ponerse-a-cubierto")  # moment 5: Sven, Soldado 1
    demo.execute("Sven retrasa")
    assert names(demo.fight) == ["Soldado 1"]
    demo.execute("Sven actua")
    assert names(demo.fight) == ["Soldado 1", "Sven"]
    assert logged(demo, "el último del momento 5")


def test_any_combatant_in_the_queue_may_act_not_only_the_head(demo):
    demo.execute(f"Mike {SHOOT}")
    demo.execute(f"{S1} ponerse-a-cubierto")
    assert names(demo.fight)[0] == "Sven"
    demo.execute(f"{S1} {SHOOT}")  # second in the queue acts first
    s1 = demo.fight.find("Soldado 1")
    assert (s1.marker, s1.ac) == (2, 2)  # 5 − 3, 5 − 3


def test_non_reaction_out_of_ones_moment_is_refused(demo):
    refused(demo, f"Sven {SHOOT}", "solo las reacciones")


def test_spending_lowers_ac_and_marker_from_the_current_moment(demo):
    demo.execute(f"Mike {SHOOT}")
    mike = demo.fight.find("Mike")
    assert (mike.marker, mike.ac, mike.status) == (4, 4, Status.ACTED)  # 7 − 3, 7 − 3


def test_spending_everything_makes_the_combatant_done(session):
    s = session("alta A ac=3", "alta B ac=3", "momento A 5", "momento B 2", "empezar",
                "A gasta 3 abrir la puerta")
    a = s.fight.find("A")
    assert (a.marker, a.ac, a.status) == (2, 0, Status.DONE)
    assert logged(s, "abrir la puerta")


def test_carry_over_invests_everything_and_completes_at_the_start_next_turn(session):
    s = session("alta A ac=4", "momento A 6", "empezar", "A gasta 2", f"A {SHOOT}")
    a = s.fight.find("A")
    # At 4 with 2 AC a 3-AC shot: invests 2 (marker 2), 1 left over.
    assert (a.marker, a.ac, a.status, a.carried.remaining) == (2, 0, Status.DONE, 1)
    assert a.attacks == 0  # an attack counts when it completes
    assert s.fight.turn_over
    s.execute("turno")
    a = s.fight.find("A")
    assert (a.marker, a.ac, a.carried, a.attacks) == (5, 3, None, 1)  # 6 − 1, 4 − 1
    assert logged(s, "A: completa Disparar Armas Largas")


def test_carry_over_larger_than_a_whole_turn_keeps_going(session):
    s = session("alta A ac=3", "momento A 5", "empezar", "A gasta 2", f"A {SHOOT}")
    assert s.fight.find("A").carried.remaining == 2  # invested 1 of 3
    s.execute("turno")
    a = s.fight.find("A")
    assert (a.marker, a.ac, a.carried) == (3, 1, None)  # 5 − 2, 3 − 2


def test_losing_a_carried_maneuver_when_reacting_before_completing_it(session):
    s = session("alta A ac=5", "alta B ac=6", "momento A 5", "momento B 7", "empezar",
                "B gasta 6", "A gasta 3", f"A {SHOOT}")
    assert s.fight.find("A").carried.remaining == 1
    s.execute("turno")
    assert s.fight.moment == 7  # B's moment; A still owes 1 AC at its start 5
    s.execute("A esquivar")  # a dodge before completing: the carried shot is lost
    a = s.fight.find("A")
    assert a.carried is None
    assert (a.marker, a.ac) == (4, 4)  # min(5, 7) − 1, 5 − 1
    assert any(e.warning and "abandona Disparar Armas Largas" in e.text for e in s.fight.log)
    assert a.attacks == 0


def test_reactions_out_of_turn_even_before_ones_own_moment(demo):
    # Moment 7: Soldado 2 (start 4) takes cover: marker = min(4, 7) − 1 = 3.
    demo.execute(f"{S2} ponerse-a-cubierto")
    s2 = demo.fight.find("Soldado 2")
    assert (s2.marker, s2.ac, s2.status) == (3, 4, Status.ACTED)
    # Mike, at his own moment, dodges: 7 − 1 = 6; he still is in the queue at 7? No: at 6.
    demo.execute("Mike esquivar")
    assert demo.fight.find("Mike").marker == 6


def test_reaction_after_ones_moment_starts_from_the_marker(demo):
    demo.execute(f"Mike {SHOOT}")  # Mike at 4 with 4 AC; the countdown is at 6
    demo.execute("Mike esquivar")  # min(4, 6) − 1 = 3
    assert (demo.fight.find("Mike").marker, demo.fight.find("Mike").ac) == (3, 3)


def test_reaction_refused_when_ac_are_short_with_a_spanish_message(session):
    s = session("alta Sven ac=4", "alta B ac=6", "momento Sven 5", "momento B 7", "empezar",
                "B gasta 2", "Sven gasta 4")
    assert s.fight.find("Sven").ac == 0
    refused(s, "Sven esquivar", r"^Sven no tiene AC para esquivar \(le quedan 0")
    s2 = session("alta A ac=2", "momento A 5", "empezar", "A gasta 1")
    refused(s2, "A parada", r"A no tiene AC para parada \(le quedan 1\): cuesta 2")


def test_hold_costs_nothing_follows_the_countdown_and_acts_last(demo):
    demo.execute("Mike retrasa")
    mike = demo.fight.find("Mike")
    assert (mike.status, mike.ac) == (Status.HOLDING, 7)
    assert demo.fight.moment == 6
    assert mike.marker == 6  # the holder follows the countdown
    demo.execute("Mike actua")
    assert names(demo.fight) == ["Soldado 1", "Mike"]
    demo.execute(f"Mike {SHOOT}")
    mike = demo.fight.find("Mike")
    assert (mike.marker, mike.ac, mike.status) == (3, 4, Status.ACTED)  # from 6: 6 − 3


def test_hold_refused_outside_ones_moment(demo):
    refused(demo, "Sven retrasa", "momento")


def test_act_refused_when_not_holding(demo):
    refused(demo, "Mike actua", "no está retrasando")


def test_wait_pays_one_ac_per_moment_passed_including_skipped_ones(session):
    s = session("alta A ac=6", "alta B ac=3", "momento A 7", "momento B 3", "empezar",
                "A espera alguien cruza la puerta")
    a = s.fight.find("A")
    # The countdown jumps 7 → 3 (4 moments): A pays 4 AC and its marker follows.
    assert s.fight.moment == 3
    assert (a.status, a.ac, a.marker, a.trigger) == (Status.WAITING, 2, 3, "alguien cruza la puerta")


def test_wait_done_when_ac_reach_zero(session):
    s = session("alta A ac=6", "alta B ac=3", "momento A 7", "momento B 3", "empezar",
                "A espera", "B gasta 1", "B gasta 1")
    a = s.fight.find("A")
    assert (a.status, a.ac, a.marker) == (Status.DONE, 0, 1)  # paid at 2 and at 1
    assert logged(s, "A agota sus AC a la espera")


def test_wait_interrupt_performs_the_maneuver(session):
    s = session("alta A ac=6", "alta B ac=3", "momento A 7", "momento B 3", "empezar",
                "A espera", "A interrumpe punetazo")
    a = s.fight.find("A")
    assert (a.status, a.ac, a.marker, a.attacks) == (Status.DONE, 0, 1, 1)  # 2 − 2, 3 − 2
    assert logged(s, "A interrumpe")


def test_wait_interrupt_is_carried_when_ac_run_short(session):
    s = session("alta A ac=6", "alta B ac=3", "momento A 7", "momento B 3", "empezar",
                "A espera", f"A interrumpe {SHOOT}")
    a = s.fight.find("A")
    assert (a.ac, a.marker, a.carried.remaining) == (0, 1, 1)  # invests 2 of 3 at 3


def test_interrupt_refused_when_not_waiting(demo):
    refused(demo, f"Mike interrumpe {SHOOT}", "no está a la espera")


def test_done_gives_up_the_ac_and_then_cannot_react(demo):
    demo.execute("Mike fin")
    mike = demo.fight.find("Mike")
    assert (mike.status, mike.ac) == (Status.DONE, 0)
    refused(demo, "Mike esquivar", "Mike")
    refused(demo, "Mike fin", "ya ha terminado")


def test_advancing_skips_empty_moments(session):
    s = session("alta A ac=9", "alta B ac=6", "momento A 9", "momento B 2", "empezar", "A gasta 1")
    assert s.fight.moment == 8
    s.execute("A gasta 5")
    assert s.fight.moment == 3  # 7…4 are empty: straight to A's marker 8 − 5 = 3
    s.execute("A fin")
    assert s.fight.moment == 2


def test_forced_advance_makes_those_left_holders(demo):
    demo.execute("siguiente")
    mike = demo.fight.find("Mike")
    assert mike.status is Status.HOLDING
    assert demo.fight.moment == 6 and mike.marker == 6
    assert logged(demo, "Avanza la cuenta: Mike pasa a retrasar")


def test_forced_advance_with_only_holders_steps_down_one_moment(session):
    s = session("alta A ac=6", "momento A 3", "empezar", "A retrasa")
    assert s.fight.moment == 3  # nobody fixes a lower moment
    s.execute("siguiente")
    assert s.fight.moment == 2
    assert s.fight.find("A").marker == 2
    s.execute("siguiente")
    assert s.fight.moment == 1


def test_negative_moments_are_normal(session):
    s = session("alta A ac=6", "momento A 1", "empezar", "A gasta 3")
    assert s.fight.moment == -2
    s.execute("A gasta 2")
    a = s.fight.find("A")
    assert (a.marker, a.ac, s.fight.moment) == (-4, 1, -4)


def test_turn_end_when_everyone_is_done_or_out(session):
    s = session("alta A ac=3", "alta B ac=3", "momento A 5", "momento B 4", "empezar", "A fin")
    assert not s.fight.turn_over
    s.execute("estado B +moribundo")
    assert s.fight.turn_over
    assert logged(s, "Fin del turno 1")
    refused(s, "siguiente", "usa «turno»")


def test_next_turn_makes_holders_and_waiters_decline(session):
    s = session("alta A ac=6", "alta B ac=6", "alta C ac=6", "momento A 5", "momento B 5",
                "momento C 5", "empezar", "A retrasa", "B espera")
    assert s.fight.find("B").status is Status.WAITING
    s.execute("turno")
    assert logged(s, "El DJ cierra el turno: A, B, C declinan")
    for c in s.fight.combatants:
        assert (c.status, c.ac, c.marker, c.trigger) == (Status.READY, 6, 5, None)
    assert s.fight.turn == 2


def test_surprise_halves_ac_rounded_up_in_turn_one_only(session):
    s = session("alta A ac=7", "alta B ac=5", "momento A 5", "momento B 4", "sorpresa A B", "empezar")
    assert (s.fight.find("A").ac, s.fight.find("B").ac) == (4, 3)  # ⌈7/2⌉, ⌈5/2⌉
    s.execute("turno")
    assert (s.fight.find("A").ac, s.fight.find("B").ac) == (7, 5)


def test_surprise_warns_on_attacking_without_reconocimiento(session):
    s = session("alta A ac=7", "momento A 5", "sorpresa A", "empezar", f"A {SHOOT}")
    assert any(e.warning and "sin Reconocimiento" in e.text for e in s.fight.log)
    t = session("alta A ac=7", "momento A 5", "sorpresa A", "empezar", "A reconocimiento")
    t.execute("A punetazo")
    assert not any("sin Reconocimiento" in e.text for e in t.fight.log)


def test_surprise_refused_after_turn_one(demo):
    demo.execute("turno")
    refused(demo, "sorpresa Mike", "primer turno")


def test_grappled_halves_the_remaining_ac_at_once_and_lasts(demo):
    demo.execute(f"Mike {SHOOT}")  # 4 AC left
    demo.execute("estado Mike +agarrado")
    assert demo.fight.find("Mike").ac == 2  # ⌈4/2⌉
    demo.execute("turno")
    assert demo.fight.find("Mike").ac == 4  # ⌈7/2⌉ while it lasts
    demo.execute("estado Mike -agarrado")
    assert demo.fight.find("Mike").ac == 4  # restored only from the next turn
    demo.execute("turno")
    assert demo.fight.find("Mike").ac == 7


def test_pinned_quarters_ac_rounded_up(demo):
    demo.execute("estado Mike +inmovilizado")
    assert demo.fight.find("Mike").ac == 2  # ⌈7/4⌉
    demo.execute("estado Sven +agarrado")
    demo.execute("estado Sven +inmovilizado")
    assert demo.fight.find("Sven").ac == 2  # ⌈5/4⌉, not ⌈⌈5/2⌉/4⌉
    demo.execute("turno")
    assert (demo.fight.find("Mike").ac, demo.fight.find("Sven").ac) == (2, 2)
    demo.execute("estado Mike -inmovilizado")
    demo.execute("turno")
    assert demo.fight.find("Mike").ac == 7


def test_incapacitated_cannot_maneuver(demo):
    demo.execute("estado Mike +incapacitado")
    assert demo.fight.find("Mike").status is Status.DONE
    assert demo.fight.moment == 6  # the countdown moves on without him
    refused(demo, "Mike esquivar", "incapacitado")
    demo.execute("turno")
    assert demo.fight.find("Mike").status is Status.DONE
    assert demo.fight.moment == 6
    refused(demo, "Mike esquivar", "incapacitado")


def test_moribundo_is_out_and_skipped_by_the_countdown(demo):
    demo.execute(f"estado {S1} +moribundo")
    assert demo.fight.find("Soldado 1").status is Status.OUT
    demo.execute(f"Mike {SHOOT}")
    assert demo.fight.moment == 5  # 6 skipped: Soldado 1 is out
    assert "Soldado 1" not in names(demo.fight)
    refused(demo, f"{S1} esquivar", "fuera de combate")
    demo.execute("turno")
    assert demo.fight.find("Soldado 1").status is Status.OUT


# ---------------------------------------------------------------- §4 maneuvers


def test_attack_count_gives_the_next_attack_a_cumulative_penalty(session):
    s = session("alta A ac=9", "momento A 9", "empezar")
    assert s.fight.find("A").modifier == 0
    s.execute("A punetazo")
    assert (s.fight.find("A").attacks, s.fight.find("A").modifier) == (1, -1)
    s.execute("A punetazo")
    assert (s.fight.find("A").attacks, s.fight.find("A").modifier) == (2, -2)
    s.execute("A esquivar")  # not an attack
    assert s.fight.find("A").attacks == 2


def test_ataque_doble_and_disparo_simultaneo_count_once(session):
    s = session("alta A ac=9 talentos=maestro-de-esgrima,ambidiestro", "momento A 9", "empezar",
                "A ataque-doble")
    assert s.fight.find("A").attacks == 1
    t = session("alta A ac=9 talentos=gun-kata,ambidiestro", "momento A 9", "empezar",
                "A disparo-simultaneo")
    assert (t.fight.find("A").attacks, t.fight.find("A").ac) == (1, 4)  # 5 AC


def test_disparo_simultaneo_costs_four_with_gun_fu(session):
    s = session("alta A ac=9 talentos=gun-kata,ambidiestro,gun-fu", "momento A 9", "empezar",
                "A disparo-simultaneo")
    assert s.fight.find("A").ac == 5


def test_talents_refusal_names_the_talent(demo):
    refused(demo, "Mike proyectar", "requiere el talento Artista Marcial")
    refused(demo, "Mike ataque-doble", "Maestro de Esgrima, Ambidiestro")
    refused(demo, "Mike esquivar-disparos", "Gun Kata")
    refused(demo, "Mike bloqueo", "Artista Marcial")


@pytest.mark.parametrize(
    "maneuver, cost, discounted",
    [("agarron", 4, 3), ("asfixiar", 4, 3), ("desarmar", 3, 2), ("escapar", 4, 3), ("presa", 4, 3)],
)
def test_artista_marcial_discounts_one_ac(session, maneuver, cost, discounted):
    plain = session("alta A ac=9", "momento A 9", "empezar", f"A {maneuver}")
    assert plain.fight.find("A").ac == 9 - cost
    master = session("alta A ac=9 talentos=artista-marcial", "momento A 9", "empezar", f"A {maneuver}")
    assert master.fight.find("A").ac == 9 - discounted


def test_variable_costs_require_n(demo):
    refused(demo, "Mike mover", "indica cuántos")
    refused(demo, "Mike carga", "indica cuántos")
    refused(demo, f"Mike {SHOOT} 2", "coste fijo")
    demo.execute("Mike carga 2")
    assert demo.fight.find("Mike").ac == 2  # 7 − (3 + 2)


def test_mover_costs_n(demo):
    demo.execute("Mike mover 2")
    assert demo.fight.find("Mike").ac == 5


def test_cost_beyond_ac_per_turn_is_refused(demo):
    demo.execute("Mike fin")
    demo.execute(f"{S1} fin")
    refused(demo, "Sven gasta 6", "ningún turno")
    refused(demo, "Sven mover 6", "ningún turno")


def test_gasta_zero_or_less_is_refused(demo):
    refused(demo, "Mike gasta 0", "al menos 1 AC")
    refused(demo, "Mike gasta -1", "al menos 1 AC")


def test_disparar_arcos_counts_as_an_attack(demo):
    demo.execute("Mike disparar-arcos")
    assert demo.fight.find("Mike").attacks == 1


def test_apuntar_gives_plus_one_and_is_used_up_by_the_next_attack(session):
    s = session("alta A ac=9", "momento A 9", "empezar", "A apuntar")
    assert (s.fight.find("A").aim, s.fight.find("A").modifier) == (1, 1)
    s.execute(f"A {SHOOT}")
    assert (s.fight.find("A").aim, s.fight.find("A").modifier) == (0, -1)


def test_apuntar_once_per_turn(session):
    s = session("alta A ac=9", "momento A 9", "empezar", "A apuntar")
    refused(s, "A apuntar", "una vez por turno")


def test_apuntar_accumulates_in_successive_turns_up_to_three(session):
    s = session("alta A ac=9", "momento A 9", "empezar")
    for expected in (1, 2, 3, 3):
        s.execute("A apuntar")
        assert s.fight.find("A").aim == expected
        s.execute("turno")


def test_apuntar_resets_to_one_after_a_turn_without_aiming(session):
    s = session("alta A ac=9", "momento A 9", "empezar", "A apuntar", "turno", "A apuntar")
    assert s.fight.find("A").aim == 2
    s.execute("turno")
    s.execute("turno")  # a turn without aiming
    s.execute("A apuntar")
    assert s.fight.find("A").aim == 1


def test_apuntar_and_movement_exclude_each_other_without_punteria_zen(session):
    s = session("alta A ac=9", "momento A 9", "empezar", "A mover 1")
    refused(s, "A apuntar", "Puntería Zen")
    t = session("alta A ac=9", "momento A 9", "empezar", "A apuntar")
    refused(t, "A mover 1", "Puntería Zen")
    refused(t, "A carga 1", "Puntería Zen")
    zen = session("alta A ac=9 talentos=punteria-zen", "momento A 9", "empezar",
                  "A mover 1", "A apuntar", "A mover 1")
    assert zen.fight.find("A").ac == 5


def test_mid_fight_alta_joins_at_its_start_moment(demo):
    demo.execute(f"Mike {SHOOT}")  # moment 6
    demo.execute("alta Tarde ac=4 momento=9")  # its start already passed: joins now
    late = demo.fight.find("Tarde")
    assert (late.marker, late.ac, late.status) == (6, 4, Status.READY)
    demo.execute("alta Luego ac=4 momento=2")
    later = demo.fight.find("Luego")
    assert (later.marker, later.ac) == (2, 4)
    demo.execute("turno")
    assert demo.fight.find("Tarde").marker == 9
    assert demo.fight.moment == 9


def test_baja_mid_fight_moves_the_countdown_on(demo):
    demo.execute(f"Mike {SHOOT}")
    assert demo.fight.moment == 6
    demo.execute(f"baja {S1}")
    assert demo.fight.find("Soldado 1") is None
    assert demo.fight.moment == 5


def test_tirar_with_a_seeded_rng_is_deterministic(session):
    lines = ["alta A ac=5 ini=2", "alta B ac=5 ini=3", "tirar"]
    one, two = session(*lines, seed=11), session(*lines, seed=11)
    starts = [c.start for c in one.fight.combatants]
    assert starts == [c.start for c in two.fight.combatants]
    assert 3 <= starts[0] <= 8 and 4 <= starts[1] <= 9  # 1d6 + INI
    assert sum("1d6" in e.text for e in one.fight.log) >= 2  # every roll is logged


def test_tirar_juntos_shares_one_die(session):
    s = session("alta A ac=5 ini=2", "alta B ac=5 ini=5", "tirar juntos A B")
    a, b = s.fight.find("A"), s.fight.find("B")
    assert a.start - 2 == b.start - 5
    assert s.fight.rolls == 1
    assert logged(s, "Tirada de grupo")


def test_undo_redo_of_a_roll_gives_the_same_die(session):
    s = session("alta A ac=5 ini=1", "tirar A")
    start = s.fight.find("A").start
    s.execute("deshacer")
    assert s.fight.find("A").start is None
    s.execute("rehacer")
    assert s.fight.find("A").start == start
    s.execute("deshacer")
    s.execute("tirar A")  # the RNG position was undone too
    assert s.fight.find("A").start == start


def test_initiative_is_rolled_once_per_fight(demo):
    refused(demo, "momento Mike 3", "una vez por combate")
    refused(demo, "tirar Mike", "una vez por combate")


def test_begin_needs_everyone_placed(session):
    s = session("alta A ac=5", "alta B ac=5", "momento A 3")
    refused(s, "empezar", "Falta el momento inicial de B")


# ---------------------------------------------------------------- §6 wounds and fatigue


def test_damage_minus_rd_marks_that_many_boxes(demo):
    demo.execute("dano Mike 5 rd=2")
    assert demo.fight.find("Mike").wounds.marked == 3


def test_damage_equal_to_rd_marks_one_box(demo):
    demo.execute("dano Mike 2 rd=2")
    assert demo.fight.find("Mike").wounds.marked == 1


def test_damage_below_rd_does_nothing(demo):
    demo.execute("dano Mike 1 rd=2")
    assert demo.fight.find("Mike").wounds.marked == 0


def test_negative_rd_adds_to_the_damage(demo):
    demo.execute("dano Mike 3 rd=-1")
    assert demo.fight.find("Mike").wounds.marked == 4


def test_fatigue_beyond_its_track_overflows_into_wounds(demo):
    size = demo.fight.find("Mike").fatigue.size
    demo.execute(f"dano Mike {size + 2} fatiga")
    mike = demo.fight.find("Mike")
    assert (mike.fatigue.marked, mike.wounds.marked) == (size, 2)


def test_wound_categories_give_their_penalties(session):
    # Boxes per category 1,1,1,1,1: mark k boxes → the k-th category.
    s = session("alta A ac=9 vida=1,1,1,1,1", "momento A 9", "empezar")
    expected = [0, -1, -3]  # Rasguño, Herido, Gravemente Herido (total)
    for penalty in expected:
        s.execute("dano A 0")
        assert s.fight.find("A").wounds.penalty == penalty
    s.execute("dano A 0")  # Incapacitado: −6 and no maneuvers
    assert s.fight.find("A").wounds.penalty == -6
    assert s.fight.find("A").status is Status.DONE
    s.execute("dano A 0")  # Moribundo: unconscious, out
    assert s.fight.find("A").status is Status.OUT


def test_modifier_sums_wounds_fatigue_attacks_and_aim(session):
    s = session("alta A ac=9 vida=1,1,1,1,1", "momento A 9", "empezar",
                "dano A 2",          # 2 wound boxes: Herido −1
                "dano A 0 fatiga",   # Fatigado 0
                "dano A 0 fatiga",   # Aturdido −1
                "A punetazo",        # one attack: the next takes −1
                "A apuntar")         # +1
    assert s.fight.find("A").modifier == -1 - 1 - 1 + 1


def test_extra_targets_give_minus_one_to_everything_this_turn(demo):
    demo.execute("blancos Mike 2")
    mike = demo.fight.find("Mike")
    assert mike.extra_targets == 2 and mike.modifier == -2
    demo.execute("mike disparar-armas-largas")
    assert demo.fight.find("Mike").modifier == -3  # −2 targets, −1 next attack
    demo.execute("turno")
    assert demo.fight.find("Mike").extra_targets == 0


def test_a_name_with_a_command_word_is_refused(session):
    s = session("alta Mike ac=7")
    with pytest.raises(Refusal, match="palabra de órdenes"):
        s.execute('alta "Mike fin" ac=3')
    assert [c.name for c in s.fight.combatants] == ["Mike"]


def test_a_dodge_before_completing_a_carried_maneuver_is_a_caution(session):
    s = session("alta A ac=3", "alta B ac=3", "momento A 9", "momento B 5", "empezar",
                "a gasta 3", "b gasta 1", "b disparar-armas-largas", "turno")
    b = s.fight.find("B")
    assert b.carried is not None and s.fight.moment == 9
    before = s.fight
    cautions = s.cautions("b esquivar")
    assert len(cautions) == 1 and "abandona" in cautions[0]
    assert s.fight is before and s.lines[-1] == "turno"  # nothing ran
    assert s.cautions("b zzz") == []  # a refused line: the refusal comes when it runs
