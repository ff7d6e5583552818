"""STORYTELLER.md §11 (the health track, bashing → lethal, the Aturdido check) and
§10 (Aturdido, Derribado, Desequilibrado and the other conditions' numbers), through
`Session.new("T", "narrador")` and `execute`."""

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
T2 = ("iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8", "iniciativa Cadáver 4")


def session(*lines: str) -> Session:
    s = Session.new("T", "narrador")
    for line in lines:
        s.execute(line)
    return s


def sh(s: Session, name: str):
    return current_sheet(s.fight, name)  # as it stands in this turn


def conds(s: Session, name: str) -> set[str]:
    return {c.id for c in sh(s, name).conditions}


def refused(s: Session, line: str, text: str | None = None) -> str:
    before = s.fight
    with pytest.raises(Refusal) as caught:
        s.execute(line)
    assert s.fight is before
    if text is not None:
        assert str(caught.value) == text
    return str(caught.value)


def said(s: Session, line: str) -> list[str]:
    since = len(s.fight.log)
    s.execute(line)
    return [e.text for e in s.fight.log[since:]]


def difficulty_of(s: Session, line: str) -> int:
    found = [int(n) for t in said(s, line) for n in re.findall(r"dificultad (\d+)", t)]
    assert found
    return found[0]


# ------------------------------------------------------------------ §11 the health track

PENALTY = {0: 0, 1: 0, 2: -1, 3: -1, 4: -2, 5: -2, 6: -5}


@pytest.mark.parametrize("levels", list(PENALTY))
def test_health_track_seven_levels_and_their_penalties(levels):
    """Magullado 0, Lastimado −1, Lesionado −1, Herido −2, Malherido −2, Tullido −5."""
    s = session(*CAST)
    for _ in range(levels):
        s.execute("dano kara 1 letal")
    k = sh(s, "Kara")
    assert (k.levels, k.lethal, k.health_penalty, k.out) == (7, levels, PENALTY[levels], False)


def test_health_incapacitado_is_out():
    s = session(*CAST, "dano matón 7 letal")
    assert sh(s, "Matón").out


def test_health_an_incapacitated_combatant_needs_no_initiative_and_does_not_act():
    s = session(*CAST, "dano matón 7 letal", "iniciativa Kara 13", "iniciativa Víctor 10",
                "iniciativa Cadáver 8", "siguiente")
    assert s.fight.narr.phase == "declare"
    for line in ("declara cadaver golpe", "declara victor fuego-automatico"):
        s.execute(line)
    assert s.fight.narr.declarer == "Kara"


def test_health_levels_are_editable_per_combatant():
    s = session("alta Bicho des=2 ast=2 salud=5", "dano bicho 4 letal")
    b = sh(s, "Bicho")
    assert (b.levels, b.out) == (5, False)
    s.execute("dano bicho 1 letal")
    assert sh(s, "Bicho").out


def test_health_bashing_and_lethal_both_mark_the_track():
    s = session(*CAST, "dano kara 1 letal", "dano kara 2 contundente")
    k = sh(s, "Kara")
    assert (k.lethal, k.bashing, k.health_penalty) == (1, 2, -1)


def test_health_bashing_beyond_a_full_track_turns_into_lethal():
    """§11: 7 bashing fill the track; 1 more turns into lethal (boxes stay 7)."""
    s = session(*CAST, "dano kara 7 contundente", "dano kara 1 contundente")
    k = sh(s, "Kara")
    assert k.lethal == 1
    assert k.lethal + k.bashing == 7
    assert "muerto" not in conds(s, "Kara")


def test_health_lethal_beyond_incapacitado_kills():
    s = session(*CAST, "dano kara 7 letal")
    assert "muerto" not in conds(s, "Kara")
    s.execute("dano kara 1 letal")
    assert "muerto" in conds(s, "Kara")


def test_health_damage_is_typed_after_soak_at_least_one_level():
    s = session(*CAST)
    refused(s, "dano kara 0 letal")


def test_health_penalty_applies_to_every_dice_pool():
    """Matón −2 (4 levels): Golpe Des 3 + Pelea 3 = 6 → 4 dice."""
    s = session(*CAST, "dano matón 2 letal", "dano matón 2 contundente", *T2, "siguiente",
                "declara cadaver golpe", "declara victor fuego-automatico", "declara kara otra:3",
                "declara maton golpe")
    text = said(s, "maton actua a kara exitos=1")
    assert any(t.startswith("Matón: Golpe a Kara: 4 dados") for t in text), text


# ------------------------------------------------------------------ the Aturdido check (§10, §11)


@pytest.mark.parametrize(("levels", "stunned"), [(2, False), (3, True)])
def test_aturdido_when_the_levels_of_one_attack_exceed_resistencia(levels, stunned):
    s = session(*CAST, f"dano kara {levels} letal")
    assert ("aturdido" in conds(s, "Kara")) is stunned


@pytest.mark.parametrize(("levels", "stunned"), [(5, False), (6, True)])
def test_aturdido_supernatural_at_resistencia_plus_2(levels, stunned):
    s = session(*CAST, f"dano cadáver {levels} letal")
    assert ("aturdido" in conds(s, "Cadáver")) is stunned


def test_aturdido_only_counts_one_dano_at_a_time():
    s = session(*CAST, "dano kara 2 letal", "dano kara 2 letal")
    assert "aturdido" not in conds(s, "Kara")


def test_aturdido_before_acting_loses_this_turns_actions_and_defenses():
    """§10 Decision: not acted yet: all its declared actions and its defenses are lost;
    its place passes with a log line; then the condition ends."""
    s = session(*CAST, *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara kara otra:3 esquiva", "declara maton golpe", "maton actua a kara exitos=2")
    text = said(s, "dano kara 3 letal")
    assert any("aturdid" in t for t in text), text
    assert any(t.startswith("Kara") and "pierde" in t for t in text), text
    assert s.fight.actor == "Víctor"  # Kara's place passed: she lost her action
    assert not any(d.done and not d.defense for d in sh(s, "Kara").declared)
    assert "aturdido" not in conds(s, "Kara")
    s.execute("victor fin")
    s.execute("cadaver actua a kara exitos=1")
    refused(s, "kara defiende esquiva exitos=3")


def test_aturdido_at_its_own_place_before_acting_loses_this_turns_action_only():
    """§10 Aturdido, precisely: «If it has not acted this turn, it loses this turn's
    action(s) … The condition ends when its place has passed in the turn whose action
    it lost»: its place has come (Kara is done) but Matón has not acted yet."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton disparo", "declara kara disparo", "kara fin")
    assert s.fight.actor == "Matón"
    text = said(s, "dano maton 4 letal")
    assert any("pierde su acción de este turno" in t for t in text), text
    assert s.fight.actor == "Víctor" and "aturdido" not in conds(s, "Matón")
    for line in ("turno", *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara disparo"):
        s.execute(line)
    assert s.fight.narr.declarer == "Matón"  # he declares in turn 2: only turn 1's action was lost


def test_aturdido_cannot_act_nor_defend_nor_abort():
    s = session(*CAST, *T2, "siguiente", "declara cadaver golpe", "declara victor disparo",
                "declara kara otra:3 esquiva", "declara maton golpe golpe", "maton actua a kara exitos=2",
                "dano kara 3 letal", "maton actua a kara exitos=1")
    assert refused(s, "kara aborta gasta esquiva exitos=2") == (
        "Kara está aturdido: no puede actuar ni defenderse hasta perder su acción")


def test_aturdido_after_acting_loses_the_pending_defenses_and_next_turns_action():
    """§10 Decision: it has acted: pending declared defenses lost, and next turn's action;
    it still rolls initiative; the condition ends when its place passes in that turn."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton golpe golpe", "declara kara otra:3 esquiva", "kara actua",
                "maton actua a kara exitos=3", "dano kara 3 letal", "maton actua a kara exitos=1")
    assert "aturdido" in conds(s, "Kara")
    refused(s, "kara defiende esquiva exitos=3")
    s.execute("dano kara 1 letal")
    s.execute("turno")
    assert "aturdido" in conds(s, "Kara")
    for line in T2:
        s.execute(line)
    s.execute("siguiente")
    s.execute("declara cadaver golpe")
    s.execute("declara victor fuego-automatico")
    # Kara is skipped in the declaration: she loses this turn's action
    assert s.fight.narr.declarer == "Matón"
    assert sh(s, "Kara").status == "stunned"
    s.execute("declara maton otra:3")
    s.execute("maton actua")
    assert "aturdido" not in conds(s, "Kara")
    assert s.fight.actor == "Víctor"


# ------------------------------------------------------------------ Derribado, Desequilibrado (§10)


def test_derribado_counts_as_light_cover_against_ranged_attacks():
    s = session(*CAST, "estado cadáver +derribado", *T1, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara maton disparo", "declara kara disparo")
    assert difficulty_of(s, "kara actua a cadaver exitos=1") == 7


def test_derribado_reminds_that_standing_is_its_next_action():
    text = said(session(*CAST), "estado cadáver +derribado")
    assert any("levantarse" in t for t in text)


def test_derribado_feminine_form_accepted():
    s = session(*CAST, "estado kara +derribada")
    assert "derribado" in conds(s, "Kara")


def test_desequilibrado_adds_1_difficulty_the_next_turn_only():
    """«queda desequilibrado y sufre una penalización de +1 a todas sus acciones del
    siguiente turno»: set in turn 1 (before Matón acts), his turn-1 Golpe is still at 6,
    turn 2's at 7, turn 3's at 6 again."""
    s = session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara maton golpe", "declara kara otra:3", "estado matón +desequilibrado", "kara actua")
    assert difficulty_of(s, "maton actua a kara exitos=0") == 6
    s.execute("turno")
    for line in (*T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara otra:3", "declara maton golpe"):
        s.execute(line)
    assert difficulty_of(s, "maton actua a kara exitos=0") == 7
    s.execute("turno")
    assert "desequilibrado" not in conds(s, "Matón")
    for line in (*T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                 "declara kara otra:3", "declara maton golpe"):
        s.execute(line)
    assert difficulty_of(s, "maton actua a kara exitos=0") == 6


def test_desequilibrado_set_in_the_initiative_phase_applies_to_that_turn():
    s = session(*CAST, "estado matón +desequilibrado", *T2, "siguiente", "declara cadaver golpe",
                "declara victor fuego-automatico", "declara kara otra:3", "declara maton golpe")
    assert difficulty_of(s, "maton actua a kara exitos=0") == 7
    s.execute("turno")
    assert "desequilibrado" not in conds(s, "Matón")


# ------------------------------------------------------------------ other conditions' numbers (§10)


def _maton_hits_kara(*setup: str, attack: str = "golpe") -> Session:
    return session(*CAST, *setup, *T2, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                   "declara kara otra:3", f"declara maton {attack}")


def test_cegado_plus_2_difficulty_to_its_actions():
    s = _maton_hits_kara("estado matón +cegado")
    assert difficulty_of(s, "maton actua a kara exitos=0") == 8


def test_cegado_target_gives_attackers_plus_2_dice():
    s = _maton_hits_kara("estado kara +cegada")
    text = said(s, "maton actua a kara exitos=1")
    assert any(t.startswith("Matón: Golpe a Kara: 8 dados") for t in text), text


def test_inmovilizado_target_gives_attackers_plus_2_dice():
    s = _maton_hits_kara("estado kara +inmovilizada")
    text = said(s, "maton actua a kara exitos=1")
    assert any(t.startswith("Matón: Golpe a Kara: 8 dados") for t in text), text


@pytest.mark.parametrize(("n", "difficulty"), [(1, 6), (2, 7), (5, 10), (7, 10)])
def test_oponentes_plus_1_per_enemy_beyond_the_first_max_4(n, difficulty):
    s = _maton_hits_kara(f"oponentes matón {n}")
    assert difficulty_of(s, "maton actua a kara exitos=0") == difficulty


@pytest.mark.parametrize("n", [1, 2, 3])
def test_cobertura_adds_to_the_difficulty_of_hitting_it(n):
    s = _maton_hits_kara(f"cobertura kara {n}", attack="disparo")
    assert difficulty_of(s, "maton actua a kara exitos=0") == 6 + n


def test_sorprendido_lasts_turn_1():
    s = session(*CAST, "estado kara +sorprendida", *T1, "siguiente", "turno")
    assert "sorprendido" not in conds(s, "Kara")


# ------------------------------------------------------------------ Presa (§10, SYSTEMS §3.5)


def _grappled() -> Session:
    """Matón's Presa on Kara with 2 net successes, undefended: the two are linked."""
    return session(*CAST, *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                   "declara maton presa", "declara kara otra:3", "kara actua", "maton actua a kara exitos=2",
                   "dano kara 1 contundente")


def test_presa_with_a_net_success_links_the_two_and_the_victim_is_inmovilizado():
    s = _grappled()
    assert "inmovilizado" in conds(s, "Kara")
    assert conds(s, "Matón") & {"presa"}


def test_presa_next_turn_forced_declarations():
    s = _grappled()
    for line in ("turno", *T1, "siguiente", "declara cadaver golpe", "declara victor fuego-automatico"):
        s.execute(line)
    assert refused(s, "declara maton golpe") == (
        "Matón está en una presa con Kara: solo puede apretar (daño Fuerza) o soltar")
    s.execute("declara maton apretar")
    assert re.fullmatch(r"Kara está apresad[ao]: solo puede intentar escapar", refused(s, "declara kara disparo"))
    s.execute("declara kara escapar")
    assert [d.action for d in sh(s, "Kara").declared] == ["escapar"]


def test_presa_suelta_unlinks_and_frees():
    s = _grappled()
    s.execute("suelta Matón")
    assert "inmovilizado" not in conds(s, "Kara")
    assert not conds(s, "Matón") & {"presa"}
