"""STORYTELLER.md §6.2 (multiple actions: the penalty table), §6.4 (extra defenses
continue the chain), §6.6 (Recarga), §6.7 (Apuntar), §9 (ammunition and Cadencia),
through `Session.new("T", "narrador")` and `execute`."""

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
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")


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
    """Run `line`; the dice of the roll the log says `who` made ("N dados")."""
    since = len(s.fight.log)
    s.execute(line)
    found = [int(n) for e in s.fight.log[since:] if e.text.startswith(who)
             for n in re.findall(r"(\d+) dados", e.text)]
    assert found, [e.text for e in s.fight.log[since:]]
    return found[0]


def declaring(*more: str, cast: tuple[str, ...] = CAST, inits: tuple[str, ...] = T1) -> Session:
    return session(*cast, *inits, "siguiente", *more)


# ------------------------------------------------------------------ §6.2 the penalty table

TABLE = {2: [-2, -3], 3: [-3, -4, -5], 4: [-4, -5, -6, -7], 5: [-5, -6, -7, -8, -9]}


@pytest.mark.parametrize(("n", "k"), [(n, k) for n in TABLE for k in range(1, n + 1)],
                         ids=[f"N{n}-action{k}" for n in TABLE for k in range(1, n + 1)])
def test_multiple_actions_kth_of_n_loses_n_plus_k_minus_1_dice(n, k):
    """§6.2 table: action k of N declared rolls its pool − (N + k − 1)."""
    s = declaring("declara cadaver " + " ".join(["otra:20"] * n))
    penalties = [d.penalty for d in sh(s, "Cadáver").declared]
    assert penalties[k - 1] == TABLE[n][k - 1] == -(n + k - 1)


def test_multiple_actions_one_action_has_no_penalty():
    s = declaring("declara cadaver otra:20")
    assert sh(s, "Cadáver").declared[0].penalty == 0


def test_multiple_actions_kara_example_book_knife_dodge():
    """«reserva de seis dados, que se reduce a tres»; knife −4; dodge 7 − 5 = 2."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara otra:6 otra:6 esquiva")
    got = [(d.action, d.pool, d.penalty, d.defense) for d in sh(s, "Kara").declared]
    assert got == [("otra", 6, -3, False), ("otra", 6, -4, False), ("esquiva", 7, -5, True)]


def test_multiple_actions_the_wound_penalty_applies_on_top():
    """Matón −1: shot 1 of 2 rolls 5 − 2 − 1 = 2."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo disparo",
                  "declara kara otra:3", "dano matón 3 letal", "kara actua")
    assert dice_said(s, "maton actua a kara exitos=1", "Matón") == 2


def test_multiple_actions_a_repeated_action_with_a_count():
    """SYSTEMS §3.2 `declara maton disparos-multiples:5 2` = two shots."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparos-multiples:5 2")
    assert [(d.pool, d.penalty) for d in sh(s, "Matón").declared] == [(5, -2), (5, -3)]


def test_multiple_actions_a_slot_emptied_by_the_penalty_is_refused():
    s = declaring()
    assert refused(s, "declara cadaver otra:4 otra:4 otra:4").startswith("Cadáver no puede declarar 3 acciones")


def test_multiple_actions_unknown_pool_shows_only_the_penalty():
    """§2.5 Decision: without the trait values, no made-up pool."""
    s = session("alta X ini=5", "alta Y ini=3", "iniciativa X 10", "iniciativa Y 5", "siguiente",
                "declara y golpe:4", "declara x otra otra")
    assert [(d.pool, d.penalty) for d in sh(s, "X").declared] == [(None, -2), (None, -3)]


# ------------------------------------------------------------------ §6.4 extra defenses

def _chain(n: int, attacks: int) -> Session:
    """Kara declares N actions, the last an Esquiva of 20 dice; she acts first, then
    Matón attacks her `attacks` times (golpe:40 repeated, pools never empty)."""
    others = " ".join(["otra:20"] * (n - 1))
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico",
                  "declara maton " + " ".join(["golpe:40"] * attacks),
                  f"declara kara {others} esquiva:20".replace("  ", " "))
    for _ in range(n - 1):
        s.execute("kara actua")
    assert s.fight.actor == "Matón"
    return s


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_extra_defenses_continue_the_chain(n):
    """§6.4/§6.2 table: the declared defense (slot N) −(2N − 1), then −2N, −(2N + 1)."""
    s = _chain(n, 3)
    rolled = []
    for _ in range(3):
        s.execute("maton actua a kara exitos=1")
        rolled.append(dice_said(s, "kara defiende esquiva exitos=1", "Kara"))
    assert rolled == [20 - (2 * n - 1), 20 - 2 * n, 20 - (2 * n + 1)]


def test_extra_defenses_after_a_single_declared_defense_take_minus_2n():
    """§6.4: «the (N+1)-th has − 2N dice, the (N+2)-th − (2N+1)»: N = 1 → −2, −3."""
    s = _chain(1, 3)
    rolled = []
    for _ in range(3):
        s.execute("maton actua a kara exitos=1")
        rolled.append(dice_said(s, "kara defiende esquiva exitos=1", "Kara"))
    assert rolled == [20, 18, 17]


def test_extra_defenses_kara_example_second_dodge_1_die_third_impossible():
    """§6.4: Kara N = 3, a second dodge −6: 7 − 6 = 1 die; a third is impossible."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton golpe:30 3",
                  "declara kara otra:6 otra:6 esquiva", "kara actua", "kara actua")
    s.execute("maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=1", "Kara") == 2
    s.execute("maton actua a kara exitos=1")
    assert dice_said(s, "kara defiende esquiva exitos=1", "Kara") == 1
    s.execute("maton actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=1").startswith("Kara no tiene dados para defenderse")


def test_extra_defenses_only_for_one_that_declared_a_defense():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton golpe",
                  "declara kara otra:6", "kara actua", "maton actua a kara exitos=1")
    assert refused(s, "kara defiende esquiva exitos=1") == (
        "Kara no declaró ninguna defensa: tras actuar no puede defenderse")


# ------------------------------------------------------------------ §6.7 Apuntar

SOLO = (KARA, MATON, "arma Kara revolver-ligero")


def _aim_turns(s: Session, turns: int) -> None:
    for _ in range(turns):
        for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
                     "declara kara apuntar", "kara actua", "maton fin"):
            s.execute(line)


def test_aim_adds_one_die_per_turn():
    s = session(*SOLO)
    _aim_turns(s, 1)
    assert sh(s, "Kara").aim == 1
    _aim_turns(s, 1)
    assert sh(s, "Kara").aim == 2


def test_aim_is_capped_at_percepcion():
    s = session(*SOLO)
    _aim_turns(s, 3)
    assert sh(s, "Kara").aim == 3
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3"):
        s.execute(line)
    assert refused(s, "declara kara apuntar") == "Kara ya suma el máximo de Apuntar (Percepción 3)"


def test_aim_with_a_scope_adds_2_once_and_may_pass_the_cap():
    """§6.7 Decision: the scope's +2 on the first turn, cap Percepción + 2."""
    s = session(KARA, MATON, "arma Kara revolver-ligero mira")
    _aim_turns(s, 1)
    assert sh(s, "Kara").aim == 3
    _aim_turns(s, 1)
    assert sh(s, "Kara").aim == 4
    _aim_turns(s, 1)
    assert sh(s, "Kara").aim == 5
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3"):
        s.execute(line)
    refused(s, "declara kara apuntar")


def test_aim_bonus_goes_to_the_next_shot_then_is_used_up():
    """Kara disparo 6 + aim 2 = 8 dice."""
    s = session(*SOLO)
    _aim_turns(s, 2)
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
                 "declara kara disparo"):
        s.execute(line)
    assert dice_said(s, "kara actua a maton exitos=1", "Kara") == 8
    assert sh(s, "Kara").aim == 0


def test_aim_any_other_action_cancels_it_with_a_warning():
    s = session(*SOLO)
    _aim_turns(s, 2)
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3"):
        s.execute(line)
    since = len(s.fight.log)
    s.execute("declara kara otra:3")
    assert any(e.warning for e in s.fight.log[since:])
    s.execute("kara actua")
    assert sh(s, "Kara").aim == 0


def test_aim_even_a_defensive_action_cancels_the_benefits():
    """§6.7: «Cualquier acción realizada mientras se apunta, incluso una acción
    defensiva, cancela los beneficios obtenidos»: Kara's total-defense dodge."""
    s = session(*SOLO)
    _aim_turns(s, 2)
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton golpe"):
        s.execute(line)
    assert sh(s, "Kara").aim == 2
    # «Any other action, declared or aborted, resets it to 0 (the tracker warns first)».
    s.execute("declara kara defensa-total esquiva")
    assert sh(s, "Kara").aim == 0
    texts = [e.text for e in s.fight.log]
    assert any("Aviso: Kara pierde lo apuntado (+2)" in t for t in texts)
    assert any("Kara pierde lo apuntado (+2): hace otra cosa" in t for t in texts)


def test_aim_a_reload_cancels_the_benefits():
    """§6.7: «Any other action, declared or aborted, resets it to 0»: Recarga too."""
    s = session(*SOLO)
    _aim_turns(s, 2)
    for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
                 "declara kara recarga", "kara actua"):
        s.execute(line)
    assert sh(s, "Kara").aim == 0


def test_aim_is_the_turns_only_action():
    s = session(*SOLO, "iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3")
    assert refused(s, "declara kara apuntar esquiva") == (
        "Apuntar ocupa todo el turno: no puede ir en una acción múltiple")


def test_aim_needs_a_dot_in_armas_de_fuego():
    s = session(*SOLO, "alta Bruto des=3 ast=1 rasgos=pelea:2", "arma Bruto revolver-ligero",
                "iniciativa Kara 10", "iniciativa Matón 5", "iniciativa Bruto 2", "siguiente")
    assert refused(s, "declara bruto apuntar") == "Apuntar necesita al menos 1 en Armas de Fuego"


# ------------------------------------------------------------------ §9 ammunition and Cadencia


def test_ammo_a_shot_spends_one_round():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo", "kara actua a maton exitos=0")
    assert sh(s, "Kara").weapons[0].ammo == 5


def test_ammo_a_three_round_burst_spends_3_and_counts_1_against_cadencia():
    s = declaring("declara cadaver golpe", "declara victor rafaga-de-tres-balas rafaga-de-tres-balas "
                  "rafaga-de-tres-balas")
    v = sh(s, "Víctor")
    assert len(v.declared) == 3  # 3 bursts ≤ Cadencia 3
    s.execute("declara maton disparo")
    s.execute("declara kara disparo")
    s.execute("kara fin")
    s.execute("maton fin")
    s.execute("victor actua a cadaver exitos=0")
    w = sh(s, "Víctor").weapons[0]
    assert (w.ammo, w.shots) == (40, 1)


def test_ammo_automatic_fire_empties_the_magazine_chamber_included():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo", "kara fin", "maton fin", "victor actua a cadaver exitos=0")
    assert sh(s, "Víctor").weapons[0].ammo == 0


@pytest.mark.parametrize(("rounds", "ok"), [(21, True), (20, False)])
def test_ammo_half_the_magazine_without_the_plus_1(rounds, ok):
    """§9: Steyr-Aug ⌈42 / 2⌉ = 21."""
    s = session(*CAST, f'municion Víctor "Rifle de Asalto Steyr-Aug" {rounds}', *T1, "siguiente",
                "declara cadaver golpe")
    if ok:
        s.execute("declara victor fuego-automatico")
    else:
        assert refused(s, "declara victor fuego-automatico") == (
            f"Fuego automático necesita al menos la mitad del cargador (21 de 42; quedan {rounds})")


def test_ammo_automatic_fire_ignores_cadencia():
    """Its 17 dice are Precisión +10 on Des + Armas de Fuego, one action (§8.3)."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico")
    assert [(d.pool, d.penalty) for d in sh(s, "Víctor").declared] == [(17, 0)]


def test_cadencia_refuses_more_declared_shots_than_the_rate():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico")
    assert refused(s, "declara maton disparos-multiples:10 5") == (
        "Cadencia 4: Matón no puede disparar 5 veces este turno")


def test_cadencia_shots_up_to_the_rate_are_allowed():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparos-multiples:10 4")
    assert len(sh(s, "Matón").declared) == 4


def test_reload_with_rounds_left_keeps_the_chambered_round():
    """§9: a reload with 1+ rounds left → capacity + 1."""
    s = session(*CAST, 'municion Matón "Pistola Ligera Glock 17" 3', *T1, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara maton recarga", "declara kara otra:3",
                "kara actua", "maton actua")
    assert sh(s, "Matón").weapons[0].ammo == 18


def test_reload_from_empty_fills_the_magazine_only():
    s = session(*CAST, 'municion Matón "Pistola Ligera Glock 17" 0', *T1, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara maton recarga", "declara kara otra:3",
                "kara actua", "maton actua")
    assert sh(s, "Matón").weapons[0].ammo == 17


def test_reload_a_crossbow_takes_five_turns():
    s = session(KARA, MATON, "arma Kara ballesta", 'municion Kara ballesta 0')
    for turn in range(5):
        for line in ("iniciativa Kara 10", "iniciativa Matón 5", "siguiente", "declara maton otra:3",
                     "declara kara recarga", "kara actua"):
            s.execute(line)
        assert sh(s, "Kara").weapons[0].ammo == (1 if turn == 4 else 0), turn
        s.execute("maton fin")


def test_reload_inside_a_multiple_action_is_a_warning():
    """§6.6: one of the N actions, the GM confirms (a warning)."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo")
    since = len(s.fight.log)
    s.execute("declara kara recarga otra:6")
    assert any(e.warning for e in s.fight.log[since:])


# ------------------------------------------------------------------ §6.5 moving, §8 difficulties, §7.7 ambush


def test_moving_while_acting_subtracts_a_die_per_metre():
    """§6.5: `metros=N` subtracts N dice: Kara's shot 6 − 2 = 4."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo")
    assert dice_said(s, "kara actua a maton exitos=1 metros=2", "Kara") == 4


@pytest.mark.parametrize(("maneuver", "difficulty"), [
    ("golpe", 6), ("patada", 7), ("placaje", 7), ("desarmar", 7), ("barrido", 7), ("estaca", 9),
    ("mordisco", 6), ("presa", 6)])
def test_maneuver_difficulties_relative_to_6(maneuver, difficulty):
    """§8.1 catalog: base 6 plus the maneuver's modifier."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", f"declara maton {maneuver}:6",
                  "declara kara otra:3", "kara actua")
    since = len(s.fight.log)
    s.execute("maton actua a kara exitos=0")
    found = [int(n) for e in s.fight.log[since:] for n in re.findall(r"dificultad (\d+)", e.text)]
    assert found[:1] == [difficulty]


def test_automatic_fire_difficulty_plus_2():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo", "kara fin", "maton fin")
    since = len(s.fight.log)
    s.execute("victor actua a cadaver exitos=0")
    assert any("dificultad 8" in e.text for e in s.fight.log[since:])


def test_ambush_before_turn_1_marks_the_target_surprised():
    """§7.7 Decision: on a win the target cannot defend (sorprendido) in turn 1."""
    s = session(*CAST)
    s.execute("emboscada Matón Kara exitos=3")
    assert any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)


def test_ambush_once_fighting_is_a_warning_not_a_refusal():
    """SYSTEMS §3.3: no refusal for it; «an ambush on someone already fighting» is a
    warning (kept after confirmation)."""
    s = session(*CAST, *T1, "siguiente")
    since = len(s.fight.log)
    s.execute("emboscada Matón Kara exitos=3")
    assert any(e.warning and "ya está en combate" in e.text for e in s.fight.log[since:])
    assert any(c.id == "sorprendido" for c in sh(s, "Kara").conditions)
