"""Storyteller refusals through the shell (SYSTEMS.md §3.3 and the rules of STORYTELLER.md).

Every refusal: `cdbtui do` exits 1, says one line on stderr (`cdbtui: «LINE»: …`),
and the save stays byte for byte as it was.  Where SYSTEMS.md §3.3 gives the words,
the line must be exactly them, with this fixture's names: STORYTELLER.md §15's cast
(Kara, Víctor, Matón, Cadáver); where §3.3 writes "El Cadáver", the fixture's
creature is literally named "El Cadáver".  Where the spec gives no wording, the line
must name the combatant (or only be one line).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shell import cdbtui

KARA = "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4"
VICTOR = "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2"
MATON = "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3"
CADAVER = "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2"
ARMS = ("arma Kara revolver-ligero", "arma Víctor rifle-de-asalto", "arma Matón pistola-ligera")
CAST = (KARA, VICTOR, MATON, CADAVER, *ARMS)
#: The creature §3.3's messages call "El Cadáver".
EL_CADAVER = (KARA, VICTOR, MATON, 'alta "El Cadáver" des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2',
              *ARMS)
EL = '"El Cadáver"'

#: §15 turn 1: order Kara 13, Matón 13 (rating 6 > 5), Víctor 10, Cadáver 8.
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")
T1_EL = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", f"iniciativa {EL} 8")
#: §15 turn 2: order Matón 13, Kara 11, Víctor 8, Cadáver 4.
T2 = ("iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8", "iniciativa Cadáver 4")
#: Turn 1's declarations of §15 (Matón's two shots as two `disparo`): Kara acts.
DECL1 = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
         "declara maton disparo disparo", "declara kara disparo esquiva")


def build(tmp_path: Path, *lines: str, cast: tuple[str, ...] = CAST, inits: tuple[str, ...] = T1) -> Path:
    path = tmp_path / "deposito.toml"
    made = cdbtui("new", str(path), "--rules", "narrador")
    assert made.returncode == 0, made.stderr
    result = cdbtui("do", str(path), *cast, *inits, *lines)
    assert result.returncode == 0, result.stderr
    return path


def refuse(path: Path, line: str) -> str:
    """`cdbtui do PATH LINE` must refuse: exit 1, one line, the save unchanged.  Returns
    the message (what follows `cdbtui: «LINE»: `)."""
    before = path.read_bytes()
    result = cdbtui("do", str(path), line)
    assert result.returncode == 1, (line, result.returncode, result.stdout[-300:], result.stderr)
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    prefix = f"cdbtui: «{line}»: "
    assert result.stderr.startswith(prefix), result.stderr
    assert path.read_bytes() == before, f"«{line}» changed the save"
    return result.stderr[len(prefix):-1]


def names(message: str, name: str) -> bool:
    return name.casefold() in message.casefold()


# ------------------------------------------------------------------ phases and order (§4, §3.5)


def test_siguiente_is_refused_until_everyone_has_an_initiative(tmp_path):
    path = build(tmp_path, inits=T1[:3])
    assert names(refuse(path, "siguiente"), "Cadáver")


def test_declaring_out_of_order_the_lowest_declares_first(tmp_path):
    path = build(tmp_path, "siguiente")
    assert refuse(path, "declara kara disparo") == ("Declara primero Cadáver (iniciativa 8): "
                                                    "se declara de menor a mayor")


def test_declaring_out_of_order_after_the_first_declarer(tmp_path):
    path = build(tmp_path, "siguiente", "declara cadaver golpe")
    assert refuse(path, "declara maton disparo") == ("Declara primero Víctor (iniciativa 10): "
                                                     "se declara de menor a mayor")


def test_declaring_twice_is_out_of_order(tmp_path):
    """Declarations are binding (§4): the Cadáver cannot declare again."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe")
    assert refuse(path, "declara cadaver patada") == ("Declara primero Víctor (iniciativa 10): "
                                                      "se declara de menor a mayor")


def test_declaring_in_the_initiative_phase_is_refused(tmp_path):
    path = build(tmp_path)
    refuse(path, "declara cadaver golpe")


def test_acting_in_the_declaration_phase_is_refused(tmp_path):
    path = build(tmp_path, "siguiente")
    refuse(path, "kara actua a maton exitos=1")


def test_acting_out_of_order(tmp_path):
    path = build(tmp_path, *DECL1, "kara fin")
    assert refuse(path, "victor actua a cadaver exitos=1") == "No es el momento de Víctor: actúa Matón (13)"


# ------------------------------------------------------------------ declarations (§6)


def test_a_pool_the_penalties_empty(tmp_path):
    """§6.2: 4 actions, the 4th −7: Esquiva 7 − 7 = 0 dice."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton disparo")
    assert refuse(path, "declara kara otra:10 otra:10 otra:10 esquiva") == (
        "Kara no puede declarar 4 acciones: la 4.ª tendría 7 − 7 = 0 dados")


def test_too_many_shots_for_the_cadencia(tmp_path):
    """Revolver Ligero: Cadencia 3."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton disparo")
    assert refuse(path, "declara kara disparos-multiples:10 4") == (
        "Cadencia 3: Kara no puede disparar 4 veces este turno")


def test_an_action_not_declared(tmp_path):
    path = build(tmp_path, *DECL1, "kara fin")
    assert refuse(path, "maton actua patada a kara exitos=1") == (
        "Matón no declaró esa acción (declaró: Disparo, Disparo)")


def test_aborting_an_action_not_declared(tmp_path):
    """The same refusal for the action an abort names (§7.4.3: one of its declared actions)."""
    path = build(tmp_path, *DECL1, "kara actua a maton exitos=2")
    assert refuse(path, "maton aborta patada tira exitos=1 esquiva") == (
        "Matón no declaró esa acción (declaró: Disparo, Disparo)")


# ------------------------------------------------------------------ Abandono de Acciones (§7.4)


def test_aborting_after_acting(tmp_path):
    path = build(tmp_path, *DECL1, "kara actua a maton exitos=2", "dano maton 1 letal",
                 "maton actua a kara exitos=1")
    assert refuse(path, "kara aborta tira exitos=2 esquiva") == (
        "Kara ya ha actuado este turno: no puede abortar para defenderse")


STUNNABLE = 'alta "El Cadáver" des=2 ast=1 fue=4 res=3 fv=2 sobrenatural rasgos=pelea:2,esquivar:2'


def test_aborting_while_stunned(tmp_path):
    """§10: Aturdido, it cannot act nor defend, so it cannot abort."""
    path = build(tmp_path, "siguiente", f"declara {EL} golpe", "declara victor fuego-automatico",
                 "declara maton disparo", "declara kara disparo esquiva",
                 f"kara actua a {EL} exitos=3", f"dano {EL} 6 letal", f"maton actua a {EL} exitos=1",
                 cast=(*EL_CADAVER[:3], STUNNABLE, *ARMS), inits=T1_EL)
    assert refuse(path, f"{EL} aborta tira exitos=2 esquiva") == (
        "El Cadáver está aturdido: no puede actuar ni defenderse hasta perder su acción")


def test_aborting_while_grappled(tmp_path):
    path = build(tmp_path, "presa Cadáver Matón", "siguiente", "declara cadaver apretar",
                 "declara victor fuego-automatico", "declara maton escapar", "declara kara disparo esquiva",
                 "kara actua a maton exitos=2")
    assert refuse(path, "maton aborta tira exitos=2 esquiva") == "Matón está en una presa: no puede hacer otra cosa"


def test_aborting_with_no_willpower(tmp_path):
    path = build(tmp_path, "siguiente", f"declara {EL} golpe", "declara victor fuego-automatico",
                 "declara maton disparo", "declara kara disparo esquiva", f"kara actua a {EL} exitos=2",
                 cast=EL_CADAVER, inits=T1_EL)
    assert refuse(path, f"{EL} aborta tira exitos=2 esquiva") == (
        "El Cadáver no tiene Fuerza de Voluntad: no puede abortar")


def test_aborting_by_spending_with_no_willpower(tmp_path):
    path = build(tmp_path, "siguiente", f"declara {EL} golpe", "declara victor fuego-automatico",
                 "declara maton disparo", "declara kara disparo esquiva", f"kara actua a {EL} exitos=2",
                 cast=EL_CADAVER, inits=T1_EL)
    assert refuse(path, f"{EL} aborta gasta esquiva exitos=2") == (
        "El Cadáver no tiene Fuerza de Voluntad: no puede abortar")


def test_aborting_outside_the_action_phase(tmp_path):
    path = build(tmp_path, "siguiente")
    refuse(path, "kara aborta tira exitos=1 esquiva")


def test_aborting_with_nobody_attacking(tmp_path):
    path = build(tmp_path, *DECL1)
    assert names(refuse(path, "maton aborta tira exitos=1 esquiva"), "Matón")


def test_a_second_point_in_a_second_abort(tmp_path):
    """§12: one point per turn, also when aborting another declared action (§7.4.5)."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara otra:6 otra:6", "declara maton disparo disparo",
                 "maton actua a kara exitos=1", "kara aborta gasta esquiva exitos=3",
                 "maton actua a kara exitos=1", inits=T2)
    assert refuse(path, "kara aborta gasta esquiva exitos=3") == (
        "Kara ya gastó un punto de Fuerza de Voluntad este turno")


# ------------------------------------------------------------------ defending (§7)


def test_defending_before_its_place_without_aborting(tmp_path):
    """§7.6: the total defense starts at her place (11)."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara defensa-total esquiva", "declara maton patada", "maton actua a kara exitos=2",
                 inits=T2)
    assert refuse(path, "kara defiende esquiva exitos=3") == (
        "La defensa de Kara empieza en su momento (11); antes, solo abortando (tirada o punto de FV)")


def test_a_declared_defense_in_a_multiple_action_also_starts_at_its_place(tmp_path):
    """§6.3: defenses only from its place on; before it only Abandono de Acciones."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara disparo esquiva", "declara maton patada", "maton actua a kara exitos=2",
                 inits=T2)
    assert refuse(path, "kara defiende esquiva exitos=3") == (
        "La defensa de Kara empieza en su momento (11); antes, solo abortando (tirada o punto de FV)")


def test_defending_without_a_declared_defense(tmp_path):
    path = build(tmp_path, *DECL1, "kara fin", "maton fin", "victor actua a cadaver exitos=0",
                 "cadaver actua a victor exitos=2")
    assert refuse(path, "victor defiende esquiva exitos=3") == (
        "Víctor no declaró ninguna defensa: tras actuar no puede defenderse")


def test_defending_after_an_abort(tmp_path):
    """§7.4.5: after an abort, no defense against later attacks this turn."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara disparo", "declara maton disparo disparo",
                 "maton actua a kara exitos=1", "kara aborta gasta esquiva exitos=2",
                 "maton actua a kara exitos=1", inits=T2)
    assert refuse(path, "kara defiende esquiva exitos=2") == (
        "Kara ya abandonó su acción para defenderse: no puede defenderse de más ataques este turno")


def test_empty_defense_pool_at_the_8th_total_defense(tmp_path):
    """§7.6 Kara: 7, 6, 5, 4, 3, 2, 1 dice; «Cuando se produce el octavo ataque no quedan
    dados en su reserva»."""
    lines = ["siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
             "declara maton golpe:30 8", "declara kara defensa-total esquiva"]
    for _ in range(7):
        lines += ["maton actua a kara exitos=1", "kara defiende esquiva exitos=1"]
    path = build(tmp_path, *lines, "maton actua a kara exitos=1")
    assert refuse(path, "kara defiende esquiva exitos=1") == (
        "Kara no tiene dados para defenderse (defensa total, 8.ª defensa)")


def test_empty_defense_pool_in_the_chain(tmp_path):
    """§6.4 Kara, N = 3: dodge 7 − 5 = 2, a second 7 − 6 = 1, a third is impossible."""
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton golpe:30 3", "declara kara otra:6 otra:6 esquiva",
                 "kara actua otra", "kara actua otra",
                 "maton actua a kara exitos=1", "kara defiende esquiva exitos=1",
                 "maton actua a kara exitos=1", "kara defiende esquiva exitos=1",
                 "maton actua a kara exitos=1")
    assert refuse(path, "kara defiende esquiva exitos=1").startswith("Kara no tiene dados para defenderse")


def test_defending_with_nobody_attacking(tmp_path):
    path = build(tmp_path, *DECL1)
    assert names(refuse(path, "maton defiende esquiva exitos=1"), "Matón")


TOTAL_AT_13 = ("siguiente", "declara cadaver golpe", "declara victor fuego-automatico")


def test_bloqueo_against_a_ranged_attack(tmp_path):
    path = build(tmp_path, *TOTAL_AT_13, "declara maton disparo", "declara kara defensa-total esquiva",
                 "maton actua a kara exitos=1")
    assert refuse(path, "kara defiende bloqueo exitos=1") == "Bloqueo no sirve contra ataques a distancia"


def test_parada_against_a_ranged_attack(tmp_path):
    path = build(tmp_path, *TOTAL_AT_13, "declara maton disparo", "declara kara defensa-total esquiva",
                 "maton actua a kara exitos=1", cast=(*CAST, "arma Kara cuchillo"))
    refuse(path, "kara defiende parada exitos=1")


def test_parada_needs_a_melee_weapon(tmp_path):
    path = build(tmp_path, *TOTAL_AT_13, "declara maton golpe", "declara kara defensa-total esquiva",
                 "maton actua a kara exitos=1")
    assert refuse(path, "kara defiende parada exitos=1") == "Parada necesita un arma cuerpo a cuerpo"


@pytest.mark.parametrize("maneuver", ["bloqueo", "parada"])
def test_surprised_cannot_block_or_parry(tmp_path, maneuver):
    path = build(tmp_path, "estado kara +sorprendida", *TOTAL_AT_13, "declara maton golpe",
                 "declara kara defensa-total esquiva", "maton actua a kara exitos=1",
                 cast=(*CAST, "arma Kara cuchillo"))
    assert refuse(path, f"kara defiende {maneuver} exitos=1") == "Kara está sorprendida: no puede bloquear ni parar"


def test_surprised_may_still_dodge(tmp_path):
    """§7.7: «Esquiva is still allowed»."""
    path = build(tmp_path, "estado kara +sorprendida", *TOTAL_AT_13, "declara maton golpe",
                 "declara kara defensa-total esquiva", "maton actua a kara exitos=1")
    result = cdbtui("do", str(path), "kara defiende esquiva exitos=1")
    assert result.returncode == 0, result.stderr


def test_blocking_a_lethal_attack_is_a_warning_not_a_refusal(tmp_path):
    """§3.3: “Sin armadura no se bloquea un ataque letal” (warning): applied, said on
    stderr, exit 0 (§3.5)."""
    path = build(tmp_path, *TOTAL_AT_13, "declara maton estocada", "declara kara defensa-total esquiva",
                 "maton actua a kara exitos=1", cast=(*CAST, "arma Matón cuchillo"))
    before = path.read_bytes()
    result = cdbtui("do", str(path), "kara defiende bloqueo exitos=2")
    assert result.returncode == 0, result.stderr
    assert "sin armadura no se bloquea un ataque letal" in result.stderr.casefold()
    assert path.read_bytes() != before


# ------------------------------------------------------------------ Willpower (§12)


def test_a_second_willpower_point_in_one_turn(tmp_path):
    path = build(tmp_path, "fv kara -1")
    assert refuse(path, "fv kara -1") == "Kara ya gastó un punto de Fuerza de Voluntad este turno"


def test_no_willpower_points_left(tmp_path):
    cast = (KARA, VICTOR, "alta Matón des=3 ast=2 fue=3 res=3 fv=1 rasgos=armas-de-fuego:2,pelea:3",
            CADAVER, *ARMS)
    path = build(tmp_path, "fv maton -1", "siguiente", "turno", cast=cast)
    assert refuse(path, "fv maton -1") == "Matón no tiene puntos de Fuerza de Voluntad"


def test_no_willpower_points_left_to_abort_by_spending(tmp_path):
    cast = (KARA, VICTOR, "alta Matón des=3 ast=2 fue=3 res=3 fv=1 rasgos=armas-de-fuego:2,pelea:3",
            CADAVER, *ARMS)
    path = build(tmp_path, "fv maton -1", "siguiente", "turno", *T1, *DECL1, "kara actua a maton exitos=2",
                 cast=cast)
    assert refuse(path, "maton aborta gasta esquiva exitos=1") == "Matón no tiene puntos de Fuerza de Voluntad"


# ------------------------------------------------------------------ ammunition (§9)

RIFLE = '"Rifle de Asalto Steyr-Aug"'


def test_automatic_fire_needs_half_the_magazine(tmp_path):
    path = build(tmp_path, f"municion Víctor {RIFLE} 10", "siguiente", "declara cadaver golpe")
    assert refuse(path, "declara victor fuego-automatico") == (
        "Fuego automático necesita al menos la mitad del cargador (21 de 42; quedan 10)")


def test_a_three_round_burst_needs_an_automatic_weapon(tmp_path):
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico")
    message = refuse(path, "declara maton rafaga-de-tres-balas")
    assert message.startswith("Ráfaga de tres balas: ") and message.endswith(" no puede"), message
    assert "Glock 17" in message


def test_a_three_round_burst_needs_three_rounds(tmp_path):
    path = build(tmp_path, f"municion Víctor {RIFLE} 2", "siguiente", "declara cadaver golpe")
    assert refuse(path, "declara victor rafaga-de-tres-balas") == "Ráfaga de tres balas necesita 3 balas (quedan 2)"


def test_an_empty_weapon_cannot_shoot(tmp_path):
    path = build(tmp_path, 'municion Kara "Revolver Ligero SW M640" 0', "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico", "declara maton disparo")
    message = refuse(path, "declara kara disparo")
    assert message.endswith("está vacío: recarga"), message


# ------------------------------------------------------------------ aiming (§6.7)


def test_aiming_needs_armas_de_fuego(tmp_path):
    path = build(tmp_path, "siguiente")
    assert refuse(path, "declara cadaver apuntar") == "Apuntar necesita al menos 1 en Armas de Fuego"


def test_aiming_is_the_whole_turn(tmp_path):
    path = build(tmp_path, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara maton disparo")
    assert refuse(path, "declara kara apuntar disparo") == (
        "Apuntar ocupa todo el turno: no puede ir en una acción múltiple")


def test_aiming_is_capped_at_percepcion(tmp_path):
    """Kara Percepción 3: three turns of aim, the fourth is refused."""
    turn = ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
            "declara kara apuntar", "kara actua", "maton fin")
    path = build(tmp_path, *turn, *turn, *turn, "iniciativa Kara 10", "iniciativa Matón 5",
                 "siguiente", "declara maton otra:3", cast=(KARA, MATON, "arma Kara revolver-ligero"), inits=())
    assert refuse(path, "declara kara apuntar") == "Kara ya suma el máximo de Apuntar (Percepción 3)"


# ------------------------------------------------------------------ grapples (§10)


def test_the_grappler_may_only_squeeze_or_let_go(tmp_path):
    path = build(tmp_path, "presa Matón Kara", "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico")
    assert refuse(path, "declara maton golpe") == (
        "Matón está en una presa con Kara: solo puede apretar (daño Fuerza) o soltar")


def test_the_grappled_may_only_try_to_escape(tmp_path):
    path = build(tmp_path, "presa Matón Kara", "siguiente", "declara cadaver golpe",
                 "declara victor fuego-automatico", "declara maton apretar")
    message = refuse(path, "declara kara disparo")
    # §3.3 writes "apresada" for Kara; the tracker has no grammatical gender to know it
    assert re.fullmatch(r"Kara está apresad[ao]: solo puede intentar escapar", message), message


# ------------------------------------------------------------------ values


def test_damage_of_zero_levels_is_refused(tmp_path):
    path = build(tmp_path)
    assert refuse(path, "dano kara 0 letal")


def test_cover_above_3_is_refused(tmp_path):
    """§8.3 Cobertura: ligera 1, buena 2, superior 3."""
    path = build(tmp_path)
    assert refuse(path, "cobertura kara 4")


def test_a_zero_pool_single_action_is_refused(tmp_path):
    """§3: an action whose pool is 0 or less cannot be attempted."""
    path = build(tmp_path, "siguiente")
    assert names(refuse(path, "declara cadaver otra:0"), "Cadáver")
