"""RULES.md §5 from "Known conditions only" (known conditions, notes, durations,
hidden combatants) and §6 from "Healing while a turn is in progress" (Primeros
Auxilios, melee fatigue): one or more tests per rule, named after its words, through
the command language; then refusals through the shell (`cdbtui do`)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from fights import logged, refused, undoable
from shell import cdbtui

from cdbtui.engine import commands as cmd
from cdbtui.engine.conditions import split_known
from cdbtui.engine.errors import Refusal
from cdbtui.engine.model import KNOWN_CONDITIONS, Expiry, Note, Status
from cdbtui.engine.rules import apply
from cdbtui.engine.turn import _renewed
from cdbtui.players import player_log


def run(s, *lines: str) -> None:
    for line in lines:
        s.execute(line)


def get(s, name: str):
    return s.fight.find(name)


def texts(s) -> list[str]:
    return [e.text for e in s.fight.log]




def seen_by_players(s) -> list[str]:
    return [e.text for e in player_log(s.fight)]


@pytest.fixture
def two(session):
    """Sven (5 AC, start 5) and Pug (6 AC, start 4), turn 1 at moment 5."""
    return session("alta Sven ac=5 bando=pj", "alta Pug ac=6", "momento Sven 5", "momento Pug 4",
                   "empezar")


# ---------------------------------------------------------------- §5 known conditions only


def test_s5_known_conditions_only_an_unknown_word_is_refused_with_the_closest_known_one(two):
    refused(two, "estado Sven +agarado", "^No conozco el estado «agarado»: ¿agarrado\\?$")


def test_s5_known_conditions_only_several_close_ones_are_offered(two):
    refused(two, "estado Sven +desarrmado",
            "^No conozco el estado «desarrmado»: ¿desarmado o derribado\\?$")


def test_s5_known_conditions_only_with_none_close_it_lists_some_and_points_to_nota(two):
    refused(two, "estado Sven +xyzzy", "No conozco el estado «xyzzy»: los estados son sorprendido.*nota Sven TEXTO")


def test_s5_known_conditions_only_the_visibility_words_point_to_revelar_and_ocultar(two):
    refused(two, "estado Pug -oculto", "revelar Pug.*ocultar Pug")


def test_s5_known_conditions_only_every_known_condition_and_alias_is_taken(session):
    for rules in ("cdb", "walkure"):
        for condition in KNOWN_CONDITIONS[rules]:
            s = session("alta A ac=8", "alta B ac=8", "momento A 3", "momento B 3", rules=rules)
            if condition == "sin-miembros":
                refused(s, f"estado A +{condition}", "no es un grupo")
            else:
                run(s, f"estado A +{condition}")
                assert get(s, "A").has(condition)
    s = session("alta A ac=8")
    run(s, "estado A +agarrada", "estado A +cover")  # the parser's aliases
    assert get(s, "A").conditions == ("agarrado", "a-cubierto")


def test_s5_known_conditions_only_a_word_an_old_save_left_can_still_be_removed(two):
    fight = two.fight.replace(attrs.evolve(get(two, "Pug"), conditions=("furioso",)))
    after = apply(fight, cmd.Condition("Pug", "furioso", False))
    assert after.find("Pug").conditions == ()
    assert after.log[-1].text == "Pug: −furioso"


def test_s5_known_conditions_only_split_known_keeps_the_order_of_each_part():
    assert split_known("cdb", ("furioso", "agarrado", "borracho", "aturdido")) == (
        ("agarrado", "aturdido"), ("furioso", "borracho"))
    assert split_known("cdb", ()) == ((), ())
    assert split_known("walkure", ["a-cubierto"]) == (("a-cubierto",), ())
    assert split_known("otra", ("agarrado", "x")) == (("agarrado",), ("x",))  # CdB's list


# ---------------------------------------------------------------- §5 notes


def test_s5_a_note_is_a_free_remark_with_no_rules_effect(two):
    before = get(two, "Sven")
    undoable(two, "nota Sven vigila la puerta del almacén")
    sven = get(two, "Sven")
    assert sven.notes == (Note("vigila la puerta del almacén"),)
    assert attrs.evolve(sven, notes=()) == before  # nothing else changed
    assert texts(two)[-1] == "Sven: nota «vigila la puerta del almacén»"
    assert two.fight.moment == 5 and get(two, "Sven").ac == 5
    run(two, "nota Sven sangra")
    assert [n.text for n in get(two, "Sven").notes] == ["vigila la puerta del almacén", "sangra"]


def test_s5_nota_name_dash_clears_them(two):
    refused(two, "nota Sven -", "Sven no tiene notas que borrar")
    run(two, "nota Sven uno", "nota Sven dos turnos=2")
    undoable(two, "nota Sven -")
    assert get(two, "Sven").notes == ()
    assert texts(two)[-1] == "Sven: se borran sus notas"
    refused(two, "nota Sven -", "no tiene notas")


def test_s5_notes_are_hidden_from_players_when_the_combatant_is_hidden_or_private(session):
    s = session("alta Ana ac=5 bando=pj", "alta Sombra ac=5 oculto", "alta Jefe ac=5 privado",
                "alta Guardia ac=5", "momento Ana 5", "momento Sombra 4", "momento Jefe 3",
                "momento Guardia 2", "empezar")
    run(s, "nota Sombra prepara una emboscada", "nota Jefe lleva la llave",
        "nota Guardia tiene sueño", "nota Ana vigila a Sombra")
    seen = seen_by_players(s)
    assert "Guardia: nota «tiene sueño»" in seen
    assert not any("emboscada" in t or "llave" in t for t in seen)
    assert not any("vigila a Sombra" in t for t in seen)  # names a hidden one
    run(s, "nota Jefe -")
    assert "Jefe: se borran sus notas" not in seen_by_players(s)


# ---------------------------------------------------------------- §5 durations


def test_s5_durations_turnos_1_ends_it_at_the_end_of_this_turn(two):
    undoable(two, "estado Sven +aturdido turnos=1")
    assert get(two, "Sven").expires == (Expiry("aturdido", 1),)
    assert texts(two)[-1] == "Sven: +aturdido (1 turno: hasta el final del turno 1)"
    run(two, "turno")
    assert not get(two, "Sven").has("aturdido") and get(two, "Sven").expires == ()
    log = texts(two)
    assert log.index("Sven: −aturdido (fin de su duración)") < log.index("— Turno 2 —")
    assert log[log.index("— Turno 2 —") - 1] == "Sven: −aturdido (fin de su duración)"


def test_s5_durations_count_the_current_turn_and_before_empezar_turn_1(session):
    s = session("alta Sven ac=5", "alta Pug ac=6", "momento Sven 5", "momento Pug 4")
    run(s, "estado Sven +aturdido turnos=2", "nota Pug cubre la salida turnos=1")
    assert get(s, "Sven").expiry("aturdido") == 2 and get(s, "Pug").notes == (Note("cubre la salida", 1),)
    run(s, "empezar")
    assert get(s, "Sven").has("aturdido") and get(s, "Pug").notes
    run(s, "turno")
    assert get(s, "Sven").has("aturdido") and get(s, "Pug").notes == ()
    assert logged(s, "Pug: −nota «cubre la salida» (fin de su duración)")
    run(s, "turno")
    assert not get(s, "Sven").has("aturdido")
    assert texts(s).count("Sven: −aturdido (fin de su duración)") == 1
    run(s, "estado Sven +cegado turnos=3")  # in turn 3: ends at the end of turn 5
    assert get(s, "Sven").expiry("cegado") == 5


def test_s5_durations_expire_only_at_turno_not_when_the_turn_is_over(two):
    run(two, "estado Pug +aturdido turnos=1", "Sven fin", "Pug fin")
    assert two.fight.turn_over and get(two, "Pug").has("aturdido")
    run(two, "turno")
    assert not get(two, "Pug").has("aturdido")


def test_s5_durations_removing_the_condition_by_hand_removes_its_expiry(two):
    run(two, "estado Sven +aturdido turnos=3", "estado Sven -aturdido")
    assert get(two, "Sven").expires == ()
    run(two, "estado Sven +aturdido")  # again, with no duration: it stays
    run(two, "turno", "turno", "turno", "turno")
    assert get(two, "Sven").has("aturdido")
    assert not logged(two, "fin de su duración")


def test_s5_durations_the_start_of_each_turn_lists_what_is_still_running(two):
    run(two, "turno")
    assert not any(t.startswith("En curso") for t in texts(two))  # nothing runs: no line
    run(two, "estado Sven +aturdido turnos=3", "nota Pug cubre la salida turnos=2", "nota Pug sin duración",
        "turno")
    log = texts(two)
    at = log.index("— Turno 3 —")
    assert log[at + 1] == "En curso: Sven: aturdido (2 turnos); Pug: nota «cubre la salida» (1 turno)"
    run(two, "turno")
    assert texts(two)[texts(two).index("— Turno 4 —") + 1] == "En curso: Sven: aturdido (1 turno)"
    run(two, "turno")
    assert not texts(two)[-1].startswith("En curso") and "— Turno 5 —" in texts(two)
    assert [t for t in texts(two) if t.startswith("En curso")][-1] == "En curso: Sven: aturdido (1 turno)"


def test_s5_durations_what_runs_on_a_hidden_or_private_pnj_is_not_in_the_players_line(session):
    s = session("alta Ana ac=5 bando=pj", "alta Sombra ac=5 oculto", "alta Jefe ac=5 privado",
                "momento Ana 5", "momento Sombra 4", "momento Jefe 3", "empezar")
    run(s, "estado Ana +aturdido turnos=2", "estado Sombra +aturdido turnos=2",
        "estado Jefe +cegado turnos=2", "turno")
    assert logged(s, "En curso: Ana: aturdido (1 turno)")
    assert logged(s, "En curso: Sombra: aturdido (1 turno); Jefe: cegado (1 turno)")
    seen = seen_by_players(s)
    assert "En curso: Ana: aturdido (1 turno)" in seen
    assert not any("Sombra" in t or "Jefe: cegado" in t for t in seen)


def test_s5_durations_a_grapple_that_ends_gives_full_ac_from_the_next_turn(two):
    run(two, "estado Pug +agarrado turnos=1")
    assert get(two, "Pug").ac == 3  # halved at once
    run(two, "turno")
    assert get(two, "Pug").ac == 6 and not get(two, "Pug").has("agarrado")


def test_s5_durations_an_unconscious_condition_that_ends_lets_it_act_next_turn(two):
    run(two, "estado Pug +inconsciente turnos=1", "estado Sven +moribundo turnos=1")
    assert get(two, "Sven").status is Status.OUT
    run(two, "turno")
    assert get(two, "Sven").status is Status.READY and get(two, "Sven").ac == 5


def test_s5_durations_surprise_wearing_off_takes_its_duration_with_it(session):
    s = session("alta A ac=6", "alta B ac=6", "momento A 5", "momento B 4",
                "estado A +sorprendido turnos=3", "empezar", "turno")
    assert get(s, "A").conditions == () and get(s, "A").expires == ()


# ---------------------------------------------------------------- §5 hidden combatants


def test_s5_revelar_shows_a_hidden_combatant_from_that_command_on(session):
    s = session("alta Ana ac=5 bando=pj", "alta Sombra ac=5 oculto", "momento Ana 5",
                "momento Sombra 4", "empezar")
    refused(s, "revelar Ana", "Ana no está oculto")
    run(s, "nota Sombra acecha", "estado Sombra +a-cubierto")
    undoable(s, "revelar Sombra")
    assert not get(s, "Sombra").hidden
    assert texts(s)[-1] == "Sombra se deja ver: los jugadores lo ven desde ahora"
    run(s, "estado Sombra -a-cubierto")
    seen = seen_by_players(s)
    assert "Sombra se deja ver: los jugadores lo ven desde ahora" in seen
    assert "Sombra: −a-cubierto" in seen
    # What happened while it was hidden stays hidden.
    assert not any("acecha" in t or "+a-cubierto" in t or "Alta de Sombra" in t for t in seen)


def test_s5_ocultar_hides_a_visible_one_and_what_players_saw_stays_seen(session):
    s = session("alta Ana ac=5 bando=pj", "alta Guardia ac=5", "momento Ana 5",
                "momento Guardia 4", "empezar")
    run(s, "estado Guardia +a-cubierto")
    undoable(s, "ocultar Guardia")
    assert get(s, "Guardia").hidden
    refused(s, "ocultar Guardia", "ya está oculto")
    run(s, "estado Guardia +cegado")
    seen = seen_by_players(s)
    assert "Guardia: +a-cubierto (Reglas de Cobertura" in " ".join(seen)  # seen before: stays
    assert not any("cegado" in t or "queda oculto" in t for t in seen)
    run(s, "revelar Guardia")
    assert "Guardia: +cegado" not in seen_by_players(s)


# ---------------------------------------------------------------- §6 Primeros Auxilios


def test_s6_healing_while_a_turn_is_in_progress_is_primeros_auxilios_rasgunos_and_heridas(two):
    run(two, "dano Pug 5")  # 3 Rasguño + 2 Herido
    undoable(two, "curar Pug 3")  # the worst of those first: 2 Herido, 1 Rasguño
    pug = get(two, "Pug")
    assert (pug.wounds.count, pug.wounds.penalty, pug.first_aid) == (2, 0, True)
    assert texts(two)[-1] == "Pug: Primeros Auxilios: cura 3 casilla(s) de Rasguño o Herido → Rasguño"


def test_s6_primeros_auxilios_leaves_gravemente_herido_and_worse_marked(two):
    run(two, "dano Pug 8")  # 3 Rasguño + 3 Herido + 2 Gravemente Herido: −3
    run(two, "curar Pug 99")
    pug = get(two, "Pug")
    assert (pug.wounds.count, pug.wounds.penalty) == (2, -3)  # the two GH boxes stay
    assert (pug.wounds.marked, pug.wounds.cleared) == (8, 6)
    assert logged(two, "Pug: Primeros Auxilios: cura 6 casilla(s) de Rasguño o Herido → Gravemente"
                       " Herido (las de Gravemente Herido y peores siguen marcadas)")
    run(two, "dano Pug 1")  # "from the first empty one": a Rasguño box emptied by first aid
    pug = get(two, "Pug")
    assert (pug.wounds.marked, pug.wounds.cleared, pug.wounds.penalty) == (8, 5, -3)
    run(two, "dano Pug 6")  # five more fill the front, the sixth goes after the last marked
    pug = get(two, "Pug")
    assert (pug.wounds.marked, pug.wounds.cleared, pug.wounds.penalty) == (9, 0, -6)


def test_s6_primeros_auxilios_with_only_worse_boxes_left_is_refused(two):
    """Only reachable from a track whose Rasguño/Herido boxes are all empty again while
    worse ones are marked (a save edited by hand, say): nothing first aid may treat."""
    pug = get(two, "Pug")
    fight = two.fight.replace(attrs.evolve(pug, wounds=attrs.evolve(pug.wounds, marked=8, cleared=6)))
    with pytest.raises(Refusal, match="solo le quedan casillas de Gravemente Herido o peores"):
        apply(fight, cmd.Heal("Pug", 1))


def test_s6_primeros_auxilios_once_per_patient_and_fight(two):
    run(two, "dano Pug 2", "curar Pug 1")
    refused(two, "curar Pug 1", "^Pug ya recibió Primeros Auxilios en este combate")
    run(two, "turno")
    refused(two, "curar Pug 1", "una vez por combate")
    run(two, "dano Sven 2", "curar Sven 1")  # another patient: its own first aid


def test_s6_primeros_auxilios_on_a_moribundo_only_stabilises(session):
    s = session("alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 6", "momento B 6", "empezar")
    run(s, "dano A 5")
    undoable(s, "curar A 3")
    a = get(s, "A")
    assert a.has("estabilizado") and a.wounds.marked == 5 and a.status is Status.OUT
    assert texts(s)[-1].startswith("A: Primeros Auxilios: +estabilizado (no cura ninguna casilla")
    refused(s, "curar A 3", "una vez por combate")
    run(s, "turno")
    assert get(s, "A").status is Status.OUT


def test_s6_primeros_auxilios_treats_wounds_not_fatigue(two):
    run(two, "dano Pug 2 fatiga")
    refused(two, "curar Pug 1 fatiga", "no la fatiga")
    refused(two, "curar Pug 1", "no tiene casillas de heridas marcadas")
    assert not get(two, "Pug").first_aid


def test_s6_between_turns_and_after_the_last_one_curar_is_treatment_with_time(two):
    run(two, "dano Pug 8", "curar Pug 1")  # first aid in the turn: a Herido box
    assert get(two, "Pug").wounds.count == 7
    run(two, "Sven fin", "Pug fin")  # the turn is over
    run(two, "curar Pug 2")  # the worst boxes first, any category
    pug = get(two, "Pug")
    assert (pug.wounds.count, pug.wounds.penalty) == (5, -1)
    run(two, "dano Pug 2 fatiga", "curar Pug 1 fatiga", "curar Pug 1")  # as often as wished
    assert get(two, "Pug").wounds.count == 4 and get(two, "Pug").fatigue.count == 1


def test_s6_primeros_auxilios_only_while_a_turn_is_in_progress(session):
    s = session("alta A ac=5")
    run(s, "dano A 8", "curar A 8")  # before the fight: treatment, any category
    assert get(s, "A").wounds.marked == 0 and not get(s, "A").first_aid


# ---------------------------------------------------------------- §6 melee costs fatigue


@pytest.fixture
def melee(session):
    """Pug and Ana, Pug's punch at moment 6."""
    return session("alta Pug ac=6", "alta Ana ac=5 bando=pj", "momento Pug 6", "momento Ana 3",
                   "empezar")


def test_s6_melee_costs_fatigue_one_point_at_the_end_of_the_turn(melee):
    run(melee, "Pug punetazo a Ana")
    assert get(melee, "Pug").melee_this_turn and get(melee, "Pug").fatigue.marked == 0
    undoable(melee, "turno")
    pug = get(melee, "Pug")
    assert (pug.fatigue.marked, pug.melee_this_turn) == (1, False)
    log = texts(melee)
    assert log[log.index("— Turno 2 —") - 1] == "Pug: +1 fatiga (combate cuerpo a cuerpo)"
    assert get(melee, "Ana").fatigue.marked == 0
    run(melee, "turno")  # no melee in turn 2: nothing
    assert get(melee, "Pug").fatigue.marked == 1


def test_s6_melee_costs_fatigue_once_per_turn_however_many_maneuvers(melee):
    run(melee, "Pug punetazo a Ana", "Pug punetazo a Ana", "turno")
    assert get(melee, "Pug").fatigue.marked == 1


def test_s6_melee_fatigue_is_applied_like_any_fatigue(session):
    s = session("alta Pug ac=6 vida=1,1,1,1,1", "alta Ana ac=5", "momento Pug 6", "momento Ana 3",
                "empezar", "dano Pug 2 fatiga", "Pug punetazo a Ana", "turno")
    assert get(s, "Pug").fatigue.category == 2
    run(s, "Pug punetazo a Ana", "turno")  # the fourth box: incapacitated
    log = texts(s)
    assert log[log.index("— Turno 3 —") - 2:log.index("— Turno 3 —")] == [
        "Pug: +1 fatiga (combate cuerpo a cuerpo)", "Pug queda incapacitado: no puede hacer maniobras"]
    assert get(s, "Pug").status is Status.DONE
    fight = s.fight.replace(attrs.evolve(get(s, "Pug"), fatigue=attrs.evolve(get(s, "Pug").fatigue, marked=5),
                                         melee_this_turn=True))
    after = apply(fight, cmd.NewTurn())  # a full track: the point goes to wounds
    assert after.find("Pug").wounds.marked == 1
    assert any(e.text == "Pug: +1 fatiga (combate cuerpo a cuerpo): no cabe en la fatiga, 1 casilla de heridas"
               for e in after.log)


def test_s6_fatiga_cc_no_turns_it_off_for_the_fight(melee):
    refused(melee, "fatiga-cc si", "ya está activada")
    undoable(melee, "fatiga-cc no")
    assert not melee.fight.melee_fatigue
    assert texts(melee)[-1].startswith("Fatiga por combate cuerpo a cuerpo desactivada")
    refused(melee, "melee-fatigue off", "ya está desactivada")
    run(melee, "Pug punetazo a Ana", "turno")
    assert get(melee, "Pug").fatigue.marked == 0 and not get(melee, "Pug").melee_this_turn
    run(melee, "fatiga-cc si", "Pug punetazo a Ana", "turno")
    assert get(melee, "Pug").fatigue.marked == 1


def test_s6_a_horda_gets_no_melee_fatigue(session):
    s = session("alta Orcos ac=5 miembros=4", "alta Ana ac=5", "momento Orcos 6", "momento Ana 3",
                "empezar")
    fight = s.fight.replace(attrs.evolve(get(s, "Orcos"), melee_this_turn=True))
    after = apply(fight, cmd.NewTurn())
    assert after.find("Orcos").members == 4 and after.find("Orcos").fatigue.marked == 0


# ---------------------------------------------------------------- the new turn, fast


def test_a_new_turn_with_nothing_running_and_no_melee_logs_what_it_always_did(demo):
    run(demo, "Mike disparar-armas-largas", "nota Sven sin duración")
    size = len(demo.fight.log)
    run(demo, "turno")
    new = [e.text for e in demo.fight.log[size:]]
    assert new[0].startswith("El DJ cierra el turno") and new[1] == "— Turno 2 —"
    assert not any(t.startswith(("En curso", "Mike: +1 fatiga")) for t in new)


def test_the_new_turn_renews_a_combatant_as_evolve_would(demo):
    c = demo.fight.find("Mike")
    c = attrs.evolve(c, attacks=2, targets=("Sven",), stops=(), aimed_this_turn=True, acting=True,
                     melee_this_turn=True, trigger="x", arrival=9, notes=(Note("n", 3),),
                     expires=(Expiry("aturdido", 3),), conditions=("aturdido",))
    expected = attrs.evolve(
        c, marker=7, ac=7, status=Status.READY, attacks=0, extra_targets=0, targets=(), leadership=0,
        stops=(), maneuvers=(), aimed_last_turn=True, aimed_this_turn=False, moved_this_turn=False,
        recon_this_turn=False, melee_this_turn=False, acting=False, trigger=None, arrival=0)
    assert _renewed(c, 7, 7, Status.READY, c.conditions, c.expires) == expected


# ---------------------------------------------------------------- refusals through the shell


SETUP = [
    "alta Sven ac=5 bando=pj", "alta Pug ac=6", "alta Sombra ac=5 oculto",
    "momento Sven 5", "momento Pug 4", "momento Sombra 3", "empezar",
    "dano Sven 2", "curar Sven 1", "dano Pug 8", "curar Pug 6", "dano Sombra 2 fatiga",
    "estado Pug +aturdido turnos=2",
]

SHELL_REFUSALS = [
    ("estado Sven +agarado", "No conozco el estado «agarado»: ¿agarrado?"),
    ("estado Sven +desarrmado", "¿desarmado o derribado?"),
    ("estado Sven +xyzzy", "nota Sven TEXTO"),
    ("estado Sven +oculto", "revelar Sven"),
    ("estado Pug +aturdido turnos=3", "ya está aturdido"),
    ("estado Sven +cegado turnos=0", "turnos= entre 1"),
    ("estado Sven -cegado turnos=2", "turnos="),
    ("nota Sven -", "no tiene notas que borrar"),
    ("nota Sven - turnos=2", "no lleva turnos="),
    ("revelar Sven", "no está oculto"),
    ("ocultar Sombra", "ya está oculto"),
    ("fatiga-cc si", "ya está activada"),
    ("fatiga-cc quizas", "fatiga-cc si|no"),
    ("curar Sven 1", "una vez por combate"),
    ("curar Sombra 1 fatiga", "no la fatiga"),
    ("curar Pug 1", "una vez por combate"),
]


@pytest.fixture(scope="module")
def base_save(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cond") / "f.toml"
    assert cdbtui("new", str(path), "--seed", "3").returncode == 0
    result = cdbtui("do", str(path), "-", stdin="\n".join(SETUP) + "\n")
    assert result.returncode == 0, result.stderr
    return path


@pytest.mark.parametrize(("line", "reason"), SHELL_REFUSALS)
def test_refused_through_the_shell_with_one_spanish_line_and_the_save_unchanged(base_save, tmp_path,
                                                                               line, reason):
    save = tmp_path / "f.toml"
    save.write_bytes(base_save.read_bytes())
    before = save.read_bytes()
    result = cdbtui("do", str(save), line)
    assert result.returncode == 1, (line, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("cdbtui: «"), result.stderr
    assert reason in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert save.read_bytes() == before


def test_s6_new_damage_marks_from_the_first_empty_one_after_descanso(session):
    """«above 0: mark that many boxes from the first empty one»: the Rasguños a rest
    wiped are the first empty boxes again."""
    s = session("alta A ac=5 vida=2,2,2,2,1", "alta B ac=5", "momento A 6", "momento B 5")
    run(s, "dano A 3", "descanso")  # 2 Rasguño + 1 Herido; the Rasguños wiped
    assert (get(s, "A").wounds.marked, get(s, "A").wounds.cleared) == (3, 2)
    run(s, "dano A 1")  # into a Rasguño box: still Herido
    a = get(s, "A")
    assert (a.wounds.marked, a.wounds.cleared, a.wounds.penalty) == (3, 1, -1)
    run(s, "dano A 2")  # the last Rasguño box, then a second Herido
    a = get(s, "A")
    assert (a.wounds.marked, a.wounds.cleared, a.wounds.penalty) == (4, 0, -1)


def test_s6_fatigue_beyond_the_track_marks_wounds_from_the_first_empty_one(session):
    s = session("alta A ac=5 vida=1,1,1,1,1", "alta B ac=5", "momento A 6", "momento B 5")
    run(s, "dano A 2", "descanso")  # Rasguño wiped, Herido stays
    run(s, "dano A 6 fatiga")  # 5 fill the fatigue track (its boxes are vida's); the 6th is a wound
    a = get(s, "A")
    assert (a.fatigue.count, a.wounds.marked, a.wounds.cleared, a.wounds.penalty) == (5, 2, 0, -1)


def test_s5_moribundo_on_an_incapacitated_combatant_puts_it_out(two):
    """«Moribundo / Exhausto (unconscious): out, skipped by the countdown», whatever it
    was before: an incapacitated (done) one too."""
    run(two, "estado Pug +incapacitado")
    assert get(two, "Pug").status is Status.DONE
    run(two, "estado Pug +moribundo")
    assert get(two, "Pug").status is Status.OUT
    run(two, "deshacer")
    assert get(two, "Pug").status is Status.DONE


def test_s6_negative_damage_is_refused_and_changes_nothing(two):
    """Daño Total = Daño − RD: a negative Daño is a typo, not a rule (a negative total
    comes from the RD: «Below 0: nothing»)."""
    before = two.fight
    refused(two, "dano Pug -5", r"^El daño es 0 o más \(pedido: -5\)")
    assert two.fight is before
    run(two, "dano Pug 1 rd=3")  # below 0 by the RD: accepted, nothing marked
    assert get(two, "Pug").wounds.count == 0
