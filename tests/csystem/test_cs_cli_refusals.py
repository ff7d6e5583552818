"""C-System refusals through the shell (SYSTEMS.md §2.3 and the rules of CSYSTEM.md).

Every refusal: `cdbtui do` exits 1, says one line on stderr (`cdbtui: «LINE»: …`),
and the save stays byte for byte as it was.  Where SYSTEMS.md §2.3 gives the words,
the line must be exactly them (with this fixture's names, which are §12's cast with
"Ruina" for "Doctor Ruina", the name the spec's messages use); where the spec gives
no wording, the line must name the combatant (or, for what is not about a
combatant, only be one line).

A few refusals come in a situation the spec leaves open between two of its own
lines: a combatant that becomes unable to act in the middle of its go may either
keep the go (then the override's line) or lose it (then "No es el turno de …").
Those tests accept exactly those two lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shell import cdbtui

try:
    from _cs_shell import CAST, INITS, refuse, state, who
except ImportError:  # tests/csystem made a package
    from ._cs_shell import CAST, INITS, refuse, state, who

#: Hand the turn on to Ruina, Sicario 1 or Titán (each ends its go with `fin`).
TO_RUINA = ("centella fin",)
TO_SICARIO = (*TO_RUINA, "ruina fin")
TO_TITAN = (*TO_SICARIO, "sicario fin")

SAME = "no se pueden usar dos maniobras iguales en el mismo turno"


def build(tmp_path: Path, *lines: str, before: tuple[str, ...] = (), ready: tuple[str, ...] = (),
          start: bool = True) -> Path:
    """A C-System save: the cast, `before` (more cast), the initiatives, `ready`, `empezar`,
    `lines`."""
    path = tmp_path / "pelea.toml"
    made = cdbtui("new", str(path), "--rules", "csystem")
    assert made.returncode == 0, made.stderr
    script = [*CAST, *before, *INITS, *ready, *(("empezar",) if start else ()), *lines]
    result = cdbtui("do", str(path), *script)
    assert result.returncode == 0, result.stderr
    return path


def names(message: str, name: str) -> bool:
    return name.casefold() in message.casefold()


# ------------------------------------------------------------------ §4.2–4.3 the budget per tier


def test_budget_nh1_one_complex_only_left_simple(tmp_path):
    path = build(tmp_path, *TO_TITAN, "titan compleja")
    assert refuse(path, "titan compleja") == "Titán (nivel 1) ya usó su acción compleja: le queda □"


def test_budget_nh5_two_simple_then_only_one_simple_left(tmp_path):
    """§4.2: a complex action is not worth two simple ones: at NH 5–8 ■□□ is not listed."""
    path = build(tmp_path, "centella simple", "centella simple")
    assert refuse(path, "centella compleja") == "Centella (nivel 5) ya hizo □□: solo le queda □"


def test_budget_nh9_two_complex_then_no_third(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina compleja", "ruina compleja")
    assert names(refuse(path, "ruina compleja"), "Ruina")


def test_budget_nh9_three_simple_then_no_complex(tmp_path):
    """§4.3: NH 9+, □□□ → left □ (■□□□ is not a listed combination)."""
    path = build(tmp_path, *TO_RUINA, "ruina simple", "ruina simple", "ruina simple")
    assert names(refuse(path, "ruina compleja"), "Ruina")


def test_budget_nh1_two_simple_end_the_go_and_the_last_go_ends_the_turn(tmp_path):
    """NH 1–4: □□ leaves "—": the go ends by itself (§4.3); Titán's was the last, so turn 2
    starts with Centella (§4.1) and a third action is out of turn."""
    path = build(tmp_path, *TO_TITAN, "titan simple", "titan simple")
    data = state(path)
    assert (data["turn"], data["actor"]) == (2, "Centella")
    assert refuse(path, "titan simple") == "No es el turno de Titán: actúa Centella"


# ------------------------------------------------------------------ §4.5 overrides


def test_malherido_one_simple_action_levantarse_is_complex(tmp_path):
    path = build(tmp_path, 'estado "Sicario 1" +malherido', 'estado "Sicario 1" +tumbado',
                 *TO_SICARIO)
    assert refuse(path, "sicario levantarse") == (
        "Sicario 1 está Malherido: solo puede hacer una acción simple por turno "
        "(levantarse es compleja)")


def test_malherido_overrides_even_the_nh9_budget(tmp_path):
    """§4.5: applied after the level table; the most restrictive wins."""
    path = build(tmp_path, *TO_RUINA, "estado ruina +malherido")
    assert who(path, "Ruina")["left"] == [[0, 1]]
    assert names(refuse(path, "ruina compleja"), "Ruina")


def test_malherido_go_ends_after_its_one_simple_action(tmp_path):
    path = build(tmp_path, *TO_RUINA, "estado ruina +malherido", "ruina simple")
    assert state(path)["actor"] == "Sicario 1"
    assert names(refuse(path, "ruina simple"), "Ruina")


def test_mareado_at_most_one_simple_action(tmp_path):
    path = build(tmp_path, "estado centella +mareado")
    assert names(refuse(path, "centella compleja"), "Centella")


def test_aturdido_gained_in_its_own_go_loses_the_rest_of_it(tmp_path):
    """§8 Decision: gained during its own go, its remaining actions are lost."""
    path = build(tmp_path, *TO_RUINA, "estado ruina +aturdido")
    assert refuse(path, "ruina mover") in {"Ruina está Aturdido: pierde este turno",
                                           "No es el turno de Ruina: actúa Sicario 1"}


def test_aturdido_loses_the_next_go_and_then_ends(tmp_path):
    """§8 Decision: the next time its place comes its go is lost; the condition then ends."""
    path = build(tmp_path, "estado ruina +aturdido", "centella fin")
    assert state(path)["actor"] == "Sicario 1"
    assert "aturdido" not in {c["id"] for c in who(path, "Ruina")["conditions"]}
    assert names(refuse(path, "ruina mover"), "Ruina")


def test_aterrado_cannot_act_in_its_go(tmp_path):
    path = build(tmp_path, "estado centella +aterrado")
    assert refuse(path, "centella simple") in {"Centella está Aterrado: no puede actuar",
                                               "No es el turno de Centella: actúa Ruina"}


def test_aterrado_before_its_go_the_tracker_ends_it_at_once(tmp_path):
    """§4.1: who cannot act still gets its go, and the tracker ends it at once."""
    path = build(tmp_path, "estado ruina +aterrado", "centella fin")
    assert state(path)["actor"] == "Sicario 1"
    assert refuse(path, "ruina simple") in {"Ruina está Aterrado: no puede actuar",
                                            "No es el turno de Ruina: actúa Sicario 1"}


def test_inconsciente_cannot_act(tmp_path):
    path = build(tmp_path, *TO_TITAN, "estado titan +inconsciente")
    assert refuse(path, "titan simple") in {"Titán está inconsciente: no puede actuar",
                                            "No es el turno de Titán: actúa Centella"}


def test_moribundo_cannot_act(tmp_path):
    path = build(tmp_path, *TO_TITAN, "estado titan +moribundo")
    assert names(refuse(path, "titan simple"), "Titán")


def test_fascinado_does_nothing(tmp_path):
    path = build(tmp_path, "estado centella +fascinado")
    assert names(refuse(path, "centella simple"), "Centella")


# ------------------------------------------------------------------ §5.1 no two identical maneuvers


def test_apuntar_twice_in_one_turn(tmp_path):
    path = build(tmp_path, "centella apuntar")
    assert refuse(path, "centella apuntar") == f"Centella ya ha usado Apuntar este turno: {SAME}"


def test_cubrirse_simple_then_compleja_is_the_same_maneuver(tmp_path):
    path = build(tmp_path, "centella cubrirse simple")
    assert refuse(path, "centella cubrirse compleja") == (
        f"Centella ya ha usado Cubrirse este turno: {SAME}")


def test_cubrirse_compleja_then_simple_is_the_same_maneuver(tmp_path):
    path = build(tmp_path, "centella cubrirse compleja")
    assert refuse(path, "centella cubrirse simple") == (
        f"Centella ya ha usado Cubrirse este turno: {SAME}")


def test_cargar_twice_even_with_the_nh9_budget(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina cargar a titan")
    assert refuse(path, "ruina cargar a titan") == f"Ruina ya ha usado Cargar este turno: {SAME}"


def test_disparo_en_combate_is_a_maneuver_one_per_turn(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina disparo-en-combate a titan")
    assert refuse(path, "ruina disparo-en-combate a titan") == (
        f"Ruina ya ha usado Disparo en combate este turno: {SAME}")


def test_rafaga_corta_twice(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina rafaga-corta a titan arma=metralleta",
                 before=("arma Ruina metralleta modos=fa cargador=30 dano=2d6",))
    assert refuse(path, "ruina rafaga-corta a titan arma=metralleta") == (
        f"Ruina ya ha usado Ráfaga corta este turno: {SAME}")


def test_derribar_and_arrollar_are_one_maneuver(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina derribar a titan")
    message = refuse(path, "ruina arrollar a titan")
    assert names(message, "Ruina") and SAME in message


# ------------------------------------------------------------------ §5.2 Apuntar


def test_apuntar_cap_per_minus_4_reached(tmp_path):
    """PER 8: +2 after one turn, +4 after two, then nothing more to gain."""
    path = build(tmp_path, "centella apuntar", "turno", "centella apuntar", "turno")
    assert who(path, "Centella")["aim"] == 4
    assert refuse(path, "centella apuntar") == "Apuntar: Centella ya tiene el máximo +4 (Percepción 8 − 4)"


def test_apuntar_odd_cap_last_step_adds_1_then_refused(tmp_path):
    """Decision §5.2: when PER − 4 is odd the last step adds 1 (PER 7: +2, +3)."""
    path = build(tmp_path, *TO_RUINA, "ruina apuntar", "turno", *TO_RUINA, "ruina apuntar",
                 "turno", *TO_RUINA)
    assert who(path, "Ruina")["aim"] == 3
    assert refuse(path, "ruina apuntar") == "Apuntar: Ruina ya tiene el máximo +3 (Percepción 7 − 4)"


def test_apuntar_per_4_gives_no_bonus(tmp_path):
    path = build(tmp_path, *TO_SICARIO)
    assert refuse(path, "sicario apuntar") == "Apuntar: Percepción 4 no da bono (máximo Percepción − 4 = 0)"


def test_apuntar_needs_a_ranged_weapon_melee_only(tmp_path):
    path = build(tmp_path, before=("alta Bruto nh=1 des=2 ale=1 per=6 con=6",
                                   "arma Bruto maza dano=1d6", "iniciativa Bruto 30"))
    assert state(path)["actor"] == "Bruto"
    assert refuse(path, "bruto apuntar") == "Apuntar necesita un arma a distancia"


def test_apuntar_needs_a_ranged_weapon_no_weapon_at_all(tmp_path):
    path = build(tmp_path, before=("alta Manos nh=1 des=2 ale=1 per=6 con=6", "iniciativa Manos 30"))
    assert refuse(path, "manos apuntar") == "Apuntar necesita un arma a distancia"


# ------------------------------------------------------------------ §5.2 Cargar


@pytest.mark.parametrize("condition", ["Fatigado", "Exhausto", "Enredado"])
def test_cargar_refused_while_fatigado_exhausto_enredado(tmp_path, condition):
    path = build(tmp_path, *TO_TITAN, f"estado titan +{condition.lower()}")
    assert refuse(path, "titan cargar a sicario") == f"Titán está {condition}: no puede cargar"


# ------------------------------------------------------------------ §7 fire modes and ammunition


def test_fuego_simple_weapon_one_shot_per_turn(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina ataca titan arma=revólver tirada=5",
                 before=("arma Ruina revólver modos=simple cargador=6 dano=2d6",))
    assert refuse(path, "ruina ataca titan arma=revólver tirada=5") == (
        "El revólver es de fuego simple: solo un disparo por turno")


def test_rafaga_larga_needs_an_automatic_weapon(tmp_path):
    path = build(tmp_path)
    assert refuse(path, "centella rafaga-larga a ruina") == "Ráfaga larga necesita un arma automática"


def test_rafaga_corta_needs_25_percent_of_the_magazine_rounded_up(tmp_path):
    path = build(tmp_path, 'municion "Sicario 1" subfusil 5', *TO_SICARIO)
    assert refuse(path, "sicario rafaga-corta a titan") == "Ráfaga corta necesita 8 balas (le quedan 5)"


def test_fuego_automatico_pesado_needs_75_percent(tmp_path):
    path = build(tmp_path, *TO_SICARIO,
                 before=('arma "Sicario 1" ametralladora modos=fa,pesado cargador=30 municion=10 dano=3d6',))
    assert refuse(path, "sicario fuego-automatico-pesado arma=ametralladora") == (
        "Fuego automático pesado necesita al menos el 75 % (23 de 30; quedan 10)")


def test_rafaga_larga_needs_50_percent_of_the_magazine(tmp_path):
    path = build(tmp_path, 'municion "Sicario 1" subfusil 10', *TO_SICARIO)
    assert refuse(path, "sicario rafaga-larga a titan") == "Ráfaga larga necesita 15 balas (le quedan 10)"


def test_burst_share_of_an_odd_magazine_is_rounded_up(tmp_path):
    """§7 Decision: % of the capacity rounded up: 25 % of 25 = 6.25 → 7."""
    path = build(tmp_path, *TO_SICARIO,
                 before=('arma "Sicario 1" uzi modos=fa cargador=25 municion=6 dano=2d6',))
    assert refuse(path, "sicario rafaga-corta a titan arma=uzi") == "Ráfaga corta necesita 7 balas (le quedan 6)"


def test_fuego_automatico_pesado_needs_a_heavy_weapon(tmp_path):
    """§5.2: «heavy automatic weapon»; the subfusil is FA, not pesado (full magazine)."""
    path = build(tmp_path, *TO_SICARIO)
    message = refuse(path, "sicario fuego-automatico-pesado")
    assert "Fuego automático pesado".casefold() in message.casefold()


def test_rafaga_corta_needs_an_automatic_or_semiautomatic_weapon(tmp_path):
    path = build(tmp_path, *TO_RUINA,
                 before=("arma Ruina revólver modos=simple cargador=6 dano=2d6",))
    assert "Ráfaga corta".casefold() in refuse(path, "ruina rafaga-corta a titan arma=revólver").casefold()


def test_rafaga_corta_with_fists(tmp_path):
    path = build(tmp_path, *TO_TITAN)
    refuse(path, "titan rafaga-corta a sicario")


def test_firing_empty(tmp_path):
    path = build(tmp_path, 'municion "Sicario 1" subfusil 0', *TO_SICARIO)
    assert refuse(path, "sicario ataca titan tirada=5") == "El subfusil de Sicario 1 no tiene munición: recarga"


def test_reload_fuego_pesado_takes_the_whole_turn_not_after_another_action(tmp_path):
    """§4.4 Decision: the whole turn, and it must be the only thing that turn."""
    path = build(tmp_path, *TO_RUINA, "ruina simple",
                 before=("arma Ruina lanzagranadas modos=pesado cargador=1 municion=0 dano=4d6",))
    assert names(refuse(path, "ruina recarga lanzagranadas"), "Ruina")


# ------------------------------------------------------------------ §3.4 lowering one's place


def test_retrasarse_not_after_acting(tmp_path):
    path = build(tmp_path, "centella simple")
    assert refuse(path, "centella retrasa final") == "Centella ya ha actuado este turno: no puede retrasarse"


def test_retrasarse_not_behind_someone_earlier(tmp_path):
    """§3.4: only behind a combatant who comes *later*.  The spec's line names the one
    chosen first: Centella (ensordecida before the fight begins, §3.5: 17, after Sicario 1)
    asking to go after Ruina: "Ruina no actúa después de Centella"."""
    path = build(tmp_path, "ruina fin", "sicario fin", ready=("estado centella +ensordecido",))
    assert state(path)["actor"] == "Centella"
    assert refuse(path, "centella retrasa tras ruina") == "Retrasarse: Ruina no actúa después de Centella"


def test_retrasarse_not_behind_someone_who_already_acted(tmp_path):
    path = build(tmp_path, *TO_RUINA)
    message = refuse(path, "ruina retrasa tras centella")
    assert names(message, "Ruina") and names(message, "Centella")


def test_retrasarse_not_behind_itself(tmp_path):
    path = build(tmp_path)
    assert names(refuse(path, "centella retrasa tras centella"), "Centella")


# ------------------------------------------------------------------ §5.2 Esquivar/Bloquear ends the go


def test_esquivar_ends_the_go_actions_before_it_stand(tmp_path):
    path = build(tmp_path, *TO_RUINA, "ruina mover", "ruina esquivar 5")
    assert state(path)["actor"] == "Sicario 1"
    assert who(path, "Ruina")["used"] == ["simple", "complex"]
    assert refuse(path, "ruina mover") == "Ruina usó Esquivar/Bloquear: su turno ha terminado"


# ------------------------------------------------------------------ §9.7 Primeros auxilios

#: Sicario 1 (16 PV, CON 4) hit below CON and failing the pain roll: Malherido (§9.2).
HURT_SICARIO = ('dano "Sicario 1" 15 rd=0', "dolor sicario 20")



def test_second_primeros_auxilios_same_healer(tmp_path):
    path = build(tmp_path, *HURT_SICARIO, *TO_RUINA, "ruina primeros-auxilios sicario tirada=22")
    assert refuse(path, "ruina primeros-auxilios sicario tirada=22") == (
        "Sicario 1 ya recibió primeros auxilios en las últimas 24 horas")


def test_second_primeros_auxilios_with_a_before_the_target(tmp_path):
    """The same rule with the generic `a OBJETIVO` form (SYNTAX.md's action line)."""
    path = build(tmp_path, *HURT_SICARIO, *TO_RUINA, "ruina primeros-auxilios a sicario tirada=22")
    assert refuse(path, "ruina primeros-auxilios a sicario tirada=22") == (
        "Sicario 1 ya recibió primeros auxilios en las últimas 24 horas")


def test_second_primeros_auxilios_other_healer(tmp_path):
    """Once per *patient* per 24 h, whoever gives it."""
    path = build(tmp_path, *HURT_SICARIO, "centella primeros-auxilios sicario tirada=22",
                 "centella fin")
    assert refuse(path, "ruina primeros-auxilios sicario tirada=22") == (
        "Sicario 1 ya recibió primeros auxilios en las últimas 24 horas")


# ------------------------------------------------------------------ acting out of turn


def test_out_of_turn_someone_later(tmp_path):
    path = build(tmp_path, *TO_SICARIO)
    assert refuse(path, "titan simple") == "No es el turno de Titán: actúa Sicario 1"


def test_out_of_turn_someone_who_already_acted(tmp_path):
    path = build(tmp_path, *TO_RUINA)
    assert refuse(path, "centella simple") == "No es el turno de Centella: actúa Ruina"


def test_out_of_turn_before_the_fight_begins(tmp_path):
    """No wording in the spec; the refusal is about the fight (not begun), not about her."""
    refuse(build(tmp_path, start=False), "centella simple")


def test_pending_pain_roll_holds_the_go(tmp_path):
    """SYSTEMS.md §2.1 / SYNTAX.md: the combatant's next go cannot start until `dolor`
    is answered.  Titán, 28 PV, CON 7, hit for 25 before his go: 3 < 7."""
    path = build(tmp_path, "dano titan 25 rd=0", *TO_TITAN)
    assert who(path, "Titán")["pending"]["roll"] == "dolor"
    assert names(refuse(path, "titan simple"), "Titán")


def test_refleja_with_no_roll_pending(tmp_path):
    assert names(refuse(build(tmp_path), "refleja titan 20"), "Titán")


def test_cambiar_only_swaps_combatants_tied_on_every_key(tmp_path):
    """§3.3: Centella and Ruina tie at 22, but DES 6 > 5 decides: not a full tie."""
    message = refuse(build(tmp_path), "cambiar centella ruina")
    assert names(message, "Centella") or names(message, "Ruina")


def test_modo_the_weapon_does_not_have(tmp_path):
    """§7: modes are switched among the weapon's own (the pistola is SA only)."""
    refuse(build(tmp_path), "centella modo pistola fa")


def test_attack_with_a_weapon_it_does_not_carry(tmp_path):
    assert names(refuse(build(tmp_path), "centella ataca ruina arma=subfusil tirada=20"), "Centella")


def test_empezar_twice(tmp_path):
    refuse(build(tmp_path), "empezar")


# ------------------------------------------------------------------ unknown names, malformed input


@pytest.mark.parametrize("line", [
    "nadie simple",
    "estado nadie +tumbado",
    "centella ataca nadie tirada=20",
    "centella retrasa tras nadie",
    "dano nadie 3",
])
def test_unknown_names(tmp_path, line):
    assert names(refuse(build(tmp_path), line), "nadie")


@pytest.mark.parametrize("line", [
    "centella volar",                          # no such maneuver or action
    "centella ataca ruina tirada=x",
    "centella ataca ruina tirada=20 dano=siete",
    "centella cubrirse",                       # SYNTAX.md: simple or compleja is required
    "centella ataca ruina mod=x",
    "iniciativa centella x",
    "dano titan x",
    "municion centella pistola -1",
    "arma centella escopeta cargador=x",
    "alta Nuevo nh=0 des=2 ale=2",             # §2: NH ≥ 1
    "alta Nuevo nh=1 des=x ale=2",
    "alta Nuevo nh=1 des=11 ale=2 con=3",      # §1: attributes 1–10
    "alta Nuevo nh=1 des=3 ale=16 con=3",      # §2: Alerta 0–15
    "alta Nuevo nh=1 des=3 ale=2 con=11",
], ids=lambda line: line)
def test_malformed_input(tmp_path, line):
    refuse(build(tmp_path), line)


def test_duplicate_name_case_insensitive(tmp_path):
    assert names(refuse(build(tmp_path), "alta centella nh=1 des=2 ale=2"), "centella")


def test_dolor_with_no_pain_roll_pending(tmp_path):
    assert names(refuse(build(tmp_path), "dolor titan 20"), "Titán")
