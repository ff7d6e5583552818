"""STORYTELLER.md §7: the defenses' limits (§7.1), resolution (§7.2), Abandono de
Acciones (§7.4: when, cost, success, failure, after, aim), defense inside a multiple
action (§7.5), Defensa total (§7.6), surprise (§7.7), and the one Willpower point per
turn (§12), through `Session.new("T", "narrador")` and `execute`."""

from __future__ import annotations

import re

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session

from _narr_now import current_sheet

KARA = "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4"
VICTOR = "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2"
MATON = "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3"
CADAVER = "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2"
CAST = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Víctor rifle-de-asalto",
        "arma Matón pistola-ligera")
#: Kara first (13, rating 6 > 5).
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")
#: Matón first, Kara at 11.
T2 = ("iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8", "iniciativa Cadáver 4")


def session(*lines: str) -> Session:
    s = Session.new("T", "narrador")
    for line in lines:
        s.execute(line)
    return s


def sh(s: Session, name: str):
    return current_sheet(s.fight, name)  # as it stands in this turn


def refused(s: Session, line: str, text: str | None = None) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    if text is not None:
        assert str(caught.value) == text
    return str(caught.value)


def dice_said(s: Session, line: str, who: str) -> int:
    """Run `line`; the dice of the last roll the log says `who` made ("N dados")."""
    since = len(s.fight.log)
    s.execute(line)
    found = [int(n) for e in s.fight.log[since:] if e.text.startswith(who)
             for n in re.findall(r"(\d+) dados", e.text)]
    assert found, [e.text for e in s.fight.log[since:]]
    return found[-1]


def matón_first(kara: str, maton: str, *more: str, cast: tuple[str, ...] = CAST) -> Session:
    """Turn-2 order (Matón 13, Kara 11): Kara declares `kara`, Matón `maton`; Matón acts."""
    return session(*cast, *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                   f"declara kara {kara}", f"declara maton {maton}", *more)


def kara_first(kara: str, maton: str, *more: str, cast: tuple[str, ...] = CAST) -> Session:
    """Turn-1 order (Kara 13, then Matón 13)."""
    return session(*cast, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                   f"declara maton {maton}", f"declara kara {kara}", *more)


# ------------------------------------------------------------------ §7.1 the defenses' limits


def test_limits_bloqueo_not_against_ranged():
    s = kara_first("defensa-total esquiva", "disparo", "maton actua a kara exitos=1")
    assert refused(s, "kara defiende bloqueo exitos=1") == "Bloqueo no sirve contra ataques a distancia"


def test_limits_bloqueo_against_melee_bashing_is_fine():
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=1")
    s.execute("kara defiende bloqueo exitos=2")
    assert s.fight.narr.attack is None


def test_limits_bloqueo_against_lethal_is_a_warning():
    s = kara_first("defensa-total esquiva", "estocada", "maton actua a kara exitos=1",
                   cast=(*CAST, "arma Matón cuchillo"))
    since = len(s.fight.log)
    s.execute("kara defiende bloqueo exitos=2")
    assert any(e.warning and "armadura" in e.text for e in s.fight.log[since:])


def test_limits_parada_needs_a_melee_weapon():
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=1")
    assert refused(s, "kara defiende parada exitos=1") == "Parada necesita un arma cuerpo a cuerpo"


def test_limits_parada_not_against_ranged():
    s = kara_first("defensa-total esquiva", "disparo", "maton actua a kara exitos=1",
                   cast=(*CAST, "arma Kara cuchillo"))
    refused(s, "kara defiende parada exitos=1")


def test_limits_parada_with_a_melee_weapon_against_melee():
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=1",
                   cast=(*CAST, "arma Kara cuchillo"))
    s.execute("kara defiende parada exitos=2")
    assert s.fight.narr.attack is None


@pytest.mark.parametrize("attack", ["disparo", "golpe"])
def test_limits_esquiva_against_anything(attack):
    s = kara_first("defensa-total esquiva", attack, "maton actua a kara exitos=1")
    s.execute("kara defiende esquiva exitos=1")
    assert s.fight.narr.attack is None


@pytest.mark.parametrize("maneuver", ["bloqueo", "parada"])
def test_limits_surprised_cannot_block_or_parry(maneuver):
    s = session(*CAST, "arma Kara cuchillo", "estado kara +sorprendida", *T1, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara maton golpe", "declara kara defensa-total esquiva",
                "maton actua a kara exitos=1")
    assert refused(s, f"kara defiende {maneuver} exitos=1") == "Kara está sorprendida: no puede bloquear ni parar"


def test_surprise_lasts_turn_1_only():
    s = session(*CAST, "estado kara +sorprendido", *T1, "siguiente", "turno")
    assert not any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)


# ------------------------------------------------------------------ §7.2 resolution


def test_resolution_equal_successes_miss():
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=2", "kara defiende esquiva exitos=2")
    assert s.fight.narr.attack is None
    assert sh(s, "Kara").lethal + sh(s, "Kara").bashing == 0


def test_resolution_more_successes_hit_with_the_net_and_weapon_plus_net_minus_1():
    """§7.2 Decision: damage pool = weapon + (net − 1): Golpe Fuerza 3, 4 − 1 = 3 net → 5."""
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=4")
    since = len(s.fight.log)
    s.execute("kara defiende esquiva exitos=1")
    attack = s.fight.narr.attack
    assert attack is not None and attack.defended == 1
    assert any("5 dados" in e.text for e in s.fight.log[since:])


# ------------------------------------------------------------------ §7.4 Abandono de Acciones


def test_abort_when_before_its_place_while_it_has_not_acted():
    s = matón_first("otra:6", "golpe", "maton actua a kara exitos=2")
    s.execute("kara aborta tira exitos=1 esquiva defensa=3")
    assert s.fight.narr.attack is None
    assert sh(s, "Kara").aborted


def test_abort_not_after_acting():
    s = kara_first("otra:3 esquiva", "golpe", "kara actua", "maton actua a kara exitos=1")
    assert refused(s, "kara aborta tira exitos=2 esquiva") == (
        "Kara ya ha actuado este turno: no puede abortar para defenderse")


def test_abort_not_outside_the_action_phase():
    s = session(*CAST, *T1, "siguiente")
    refused(s, "kara aborta tira exitos=1 esquiva")


def test_abort_roll_uses_the_willpower_rating_without_health_penalties():
    """§7.4.2: the pool is the rating (Kara 5), reflexive: her −1 does not apply."""
    s = matón_first("otra:6", "golpe", "dano kara 2 letal", "maton actua a kara exitos=2")
    since = len(s.fight.log)
    s.execute("kara aborta tira esquiva defensa=3")
    assert any(re.search(r"FV 5 dados", e.text) for e in s.fight.log[since:])


def test_abort_by_spending_a_point_is_automatic_but_the_defense_is_still_rolled():
    """§7.4.2: «defenderte automáticamente» = the abort; the defense roll is still made:
    4 successes of Matón against her 1: hit."""
    s = matón_first("otra:6", "golpe", "maton actua a kara exitos=4")
    s.execute("kara aborta gasta esquiva exitos=1")
    k = sh(s, "Kara")
    assert (k.points, k.spent, k.aborted) == (4, True, True)
    assert s.fight.narr.attack is not None and s.fight.narr.attack.defended == 1


def test_abort_a_single_action_replaced_by_the_defense_with_no_penalty():
    """§15 row 9: one declared action: Esquiva with all 7 dice."""
    s = matón_first("otra:6", "golpe", "maton actua a kara exitos=2")
    assert dice_said(s, "kara aborta gasta esquiva exitos=3", "Kara") == 7


def test_abort_takes_the_penalty_of_the_slot_it_replaces_by_default_the_last():
    """§7.4.3: default the last declared (slot 2 of 2, −3): Esquiva 7 − 3 = 4; the other
    action stays with its penalty."""
    s = matón_first("disparo otra:5", "golpe", "maton actua a kara exitos=2")
    assert dice_said(s, "kara aborta gasta esquiva exitos=3", "Kara") == 4
    k = sh(s, "Kara")
    assert (k.declared[0].action, k.declared[0].penalty, k.declared[0].done) == ("disparo", -2, False)
    assert (k.declared[1].defense, k.declared[1].done) == (True, True)


def test_abort_the_named_action():
    """§7.4.3: chosen by the player: abort the shot (slot 1, −2): 7 − 2 = 5 dice."""
    s = matón_first("disparo otra:5", "golpe", "maton actua a kara exitos=2")
    assert dice_said(s, "kara aborta disparo gasta esquiva exitos=3", "Kara") == 5
    k = sh(s, "Kara")
    assert (k.declared[1].action, k.declared[1].penalty, k.declared[1].done) == ("otra", -3, False)


def test_abort_the_health_penalty_applies_to_the_defense_roll():
    """§11: the wound penalty applies to every pool but the Willpower roll: 7 − 1 = 6."""
    s = matón_first("otra:6", "golpe", "dano kara 2 letal", "maton actua a kara exitos=2")
    assert dice_said(s, "kara aborta gasta esquiva exitos=3", "Kara") == 6


def test_abort_failure_keeps_the_declaration_and_resolves_undefended():
    """§7.4.4: «no podrá defenderse y debe seguir con la acción declarada»."""
    s = matón_first("otra:6", "disparo disparo", "maton actua a kara exitos=2")
    s.execute("kara aborta tira exitos=0 esquiva")
    k = sh(s, "Kara")
    assert (k.aborted, k.points, [d.action for d in k.declared], k.declared[0].done) == (
        False, 5, ["otra"], False)
    assert s.fight.narr.attack is not None and s.fight.narr.attack.defended is None
    refused(s, "kara defiende esquiva exitos=3")


def test_abort_failure_may_try_again_against_a_later_attack():
    s = matón_first("otra:6", "disparo disparo", "maton actua a kara exitos=2",
                    "kara aborta tira exitos=0 esquiva", "dano kara 1 letal", "maton actua a kara exitos=1")
    s.execute("kara aborta tira exitos=1 esquiva defensa=2")
    assert sh(s, "Kara").aborted
    assert s.fight.narr.attack is None


def test_abort_after_it_no_defense_against_later_attacks():
    s = matón_first("otra:6", "disparo disparo", "maton actua a kara exitos=1",
                    "kara aborta gasta esquiva exitos=2", "maton actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=2") == (
        "Kara ya abandonó su acción para defenderse: no puede defenderse de más ataques este turno")


def test_abort_after_it_another_pending_action_may_be_aborted_with_a_new_roll():
    """§7.4.5: except by aborting another declared action still pending."""
    s = matón_first("otra:6 otra:6", "disparo disparo", "maton actua a kara exitos=1",
                    "kara aborta gasta esquiva exitos=2", "maton actua a kara exitos=1")
    s.execute("kara aborta tira exitos=1 esquiva defensa=2")
    k = sh(s, "Kara")
    assert all(d.defense and d.done for d in k.declared)
    assert s.fight.narr.attack is None


def test_abort_after_it_a_declared_defense_still_pending_works_from_its_place():
    """§7.4.5: a declared defensive action still pending works from its place on."""
    s = matón_first("otra:6 esquiva", "disparo", "maton actua a kara exitos=1",
                    "kara aborta otra tira exitos=1 esquiva defensa=2")
    # Kara's place: nothing non-defensive left; Víctor (8) shoots her afterwards
    assert s.fight.actor == "Víctor"
    s.execute("victor fin")
    s.execute("cadaver actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=2", "Kara") == 4  # slot 2 of 2: 7 − 3


def test_abort_of_a_total_defense_gives_it_up():
    """§7.4.5: that one defense, then none (its total defense does not start early)."""
    s = matón_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=2",
                    "kara aborta gasta esquiva exitos=3")
    k = sh(s, "Kara")
    assert not k.full_defense
    assert s.fight.actor == "Víctor"  # Kara's place passed: nothing left to do
    s.execute("victor fin")
    s.execute("cadaver actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=3") == (
        "Kara ya abandonó su acción para defenderse: no puede defenderse de más ataques este turno")


def test_abort_loses_the_aim():
    """§7.4.6 / §6.7: an abort resets the aim."""
    s = session(*CAST, *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara kara apuntar", "declara maton otra:3", "maton actua", "kara actua", "turno", *T2,
                "siguiente", "declara cadaver golpe", "declara victor fuego-automatico", "declara kara apuntar",
                "declara maton golpe")
    assert sh(s, "Kara").aim == 1
    s.execute("maton actua a kara exitos=1")
    s.execute("kara aborta gasta esquiva exitos=2")
    assert sh(s, "Kara").aim == 0


def test_abort_not_with_willpower_0():
    s = kara_first("disparo", "disparo", "kara actua a cadaver exitos=2")
    assert refused(s, "cadaver aborta tira exitos=1 esquiva") == (
        "Cadáver no tiene Fuerza de Voluntad: no puede abortar")


def test_abort_one_willpower_point_per_turn():
    s = matón_first("otra:6 otra:6", "disparo disparo", "maton actua a kara exitos=1",
                    "kara aborta gasta esquiva exitos=2", "maton actua a kara exitos=1")
    assert refused(s, "kara aborta gasta esquiva exitos=2") == (
        "Kara ya gastó un punto de Fuerza de Voluntad este turno")


def test_willpower_spent_outside_an_abort_counts_for_the_turn():
    s = matón_first("otra:6", "golpe", "fv kara -1", "maton actua a kara exitos=1")
    assert refused(s, "kara aborta gasta esquiva exitos=2") == (
        "Kara ya gastó un punto de Fuerza de Voluntad este turno")
    # rolling is still possible
    s.execute("kara aborta tira exitos=1 esquiva defensa=2")
    assert sh(s, "Kara").points == 4


# ------------------------------------------------------------------ §7.5 defense in a multiple action


def test_defense_in_a_multiple_action_from_its_place_with_the_slot_penalty():
    """Kara's example: Des 3 + Esquivar 4, third of three: 7 − 5 = 2 dice."""
    s = kara_first("otra:6 otra:6 esquiva", "golpe", "kara actua", "kara actua", "maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=1", "Kara") == 2


def test_defense_in_a_multiple_action_not_before_its_place():
    s = matón_first("otra:6 esquiva", "golpe", "maton actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=1") == (
        "La defensa de Kara empieza en su momento (11); antes, solo abortando (tirada o punto de FV)")


# ------------------------------------------------------------------ §7.6 Defensa total


def test_total_defense_full_pool_then_one_less_each():
    """Kara: 7, 6, 5, 4, 3, 2, 1 dice; the eighth has none."""
    s = kara_first("defensa-total esquiva", "golpe:30 8")
    rolled = []
    for _ in range(7):
        s.execute("maton actua a kara exitos=1")
        rolled.append(dice_said(s, "kara defiende esquiva exitos=1", "Kara"))
    assert rolled == [7, 6, 5, 4, 3, 2, 1]
    s.execute("maton actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=1") == (
        "Kara no tiene dados para defenderse (defensa total, 8.ª defensa)")


def test_total_defense_does_not_use_the_multiple_action_system():
    s = kara_first("defensa-total esquiva", "golpe")
    k = sh(s, "Kara")
    assert k.full_defense and all(d.penalty == 0 for d in k.declared)


def test_total_defense_each_defense_any_maneuver_shared_count():
    """§7.6 Decision: Esquiva (7) then Parada (Des 3 + Combate CC 0 = 3) as the 2nd: 2 dice."""
    s = kara_first("defensa-total esquiva", "golpe golpe", cast=(*CAST, "arma Kara cuchillo"))
    s.execute("maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=1", "Kara") == 7
    s.execute("maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende parada exitos=1", "Kara") == 2


def test_total_defense_is_the_only_action():
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton golpe")
    refused(s, "declara kara defensa-total disparo")


def test_total_defense_covers_attacks_from_its_own_place_on():
    """"Simultaneously" = from the moment its place is reached: Kara's place passes at once
    (nothing to do) and Matón's attack after it is covered."""
    s = kara_first("defensa-total esquiva", "golpe", "maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=1", "Kara") == 7


def test_abort_not_with_a_declaration_that_has_nothing_left_to_abandon():
    """§7.4.1: one who declared nothing (passed with `siguiente`) cannot abort."""
    s = session(*CAST, *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "siguiente", "declara maton golpe", "maton actua a kara exitos=1")
    assert refused(s, "kara aborta gasta esquiva exitos=2") == (
        "Kara no tiene ninguna acción declarada que abandonar")
    assert sh(s, "Kara").points == 5
