"""STORYTELLER.md §3 (dice), §4 (the turn's three phases), §5 (initiative and ties),
§6.1 (one action per turn), §6.9 (delaying), §13 (per-turn effects), through
`Session.new("T", "narrador")` and `execute`."""

from __future__ import annotations

import re

import pytest

from cdbtui.engine.errors import Refusal
from cdbtui.engine.narrador import rules
from cdbtui.engine.session import Session

from _narr_now import current_sheet

KARA = "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4"
VICTOR = "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2"
MATON = "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3"
CADAVER = "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2"
CAST = (KARA, VICTOR, MATON, CADAVER, "arma Kara revolver-ligero", "arma Víctor rifle-de-asalto",
        "arma Matón pistola-ligera")
T1 = ("iniciativa Kara 13", "iniciativa Matón 13", "iniciativa Víctor 10", "iniciativa Cadáver 8")


def session(*lines: str, seed: int = 0) -> Session:
    s = Session.new("T", "narrador", seed=seed)
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


def texts(s: Session, since: int = 0) -> list[str]:
    return [e.text for e in s.fight.log[since:]]


def declaring(*more: str) -> Session:
    return session(*CAST, *T1, "siguiente", *more)


# ------------------------------------------------------------------ §3 dice


def test_dice_success_at_or_above_difficulty_ones_cancel_botch_is_no_success_and_a_one():
    """§3 Decision, checked on 300 rolls of the app's own dice (faces from the log text)."""
    fight = session(*CAST).fight
    seen_botch = seen_cancel = False
    for i in range(300):
        dice, difficulty = 1 + i % 8, 2 + i % 9
        fight, net, text = rules.roll_pool(fight, dice, difficulty)
        faces = [int(f) for f in text.split(":")[0].split()]
        assert len(faces) == dice and all(1 <= f <= 10 for f in faces)
        hits, ones = sum(f >= difficulty for f in faces), faces.count(1)
        if hits == 0 and ones:
            assert net == -1 and "fracaso" in text
            seen_botch = True
        else:
            assert net == max(hits - ones, 0)
            seen_cancel = seen_cancel or (hits and ones)
    assert seen_botch and seen_cancel


def test_dice_a_reflexive_roll_with_0_dice_simply_fails_no_botch():
    fight = session(*CAST).fight
    _, net, _ = rules.roll_pool(fight, 0, 6)
    assert net == 0


@pytest.mark.parametrize(("value", "text"), [
    (6, "dificultad 6"), (10, "dificultad 10"), (1, "dificultad 2"), (-3, "dificultad 2"),
    (11, "dificultad 10 (+1): el Narrador decide"), (13, "dificultad 10 (+3): el Narrador decide")])
def test_difficulty_never_below_2_and_above_10_stays_10_saying_how_much_over(value, text):
    assert rules.difficulty_text(value) == text


def test_difficulty_above_10_on_an_attack_is_said_and_rolled_at_10():
    """Estaca 9 + a second opponent 1 + cegado 2 = 12: “dificultad 10 (+2): el Narrador decide”
    (desequilibrado would only count in the next turn: §10)."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico",
                  "declara maton estaca:6", "declara kara otra:3")
    s.execute("oponentes matón 2")
    s.execute("estado matón +cegado")
    s.execute("kara actua")
    since = len(s.fight.log)
    s.execute("maton actua a kara")
    assert any("dificultad 10 (+2): el Narrador decide" in t for t in texts(s, since))


# ------------------------------------------------------------------ §4 the turn


def test_turn_a_new_fight_starts_in_turn_1_initiative_phase():
    s = session()
    assert (s.fight.turn, s.fight.narr.phase) == (1, "initiative")


def test_turn_the_initiative_phase_never_ends_by_itself():
    s = session(*CAST, *T1)
    assert s.fight.narr.phase == "initiative"


def test_turn_siguiente_ends_the_initiative_phase_only_when_everyone_has_one():
    s = session(*CAST, *T1[:3])
    assert "Cadáver" in refused(s, "siguiente")
    s.execute(T1[3])
    s.execute("siguiente")
    assert s.fight.narr.phase == "declare"


def test_turn_empezar_is_siguiente_in_the_initiative_phase():
    s = session(*CAST, *T1, "empezar")
    assert (s.fight.narr.phase, s.fight.narr.declarer) == ("declare", "Cadáver")


def test_turn_declaration_in_reverse_order_then_action_in_order():
    """§4.2–4.3: lowest declares first, highest acts first."""
    s = declaring()
    seen = []
    for line in ("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                 "declara kara disparo"):
        seen.append(s.fight.narr.declarer)
        s.execute(line)
    assert seen == ["Cadáver", "Víctor", "Matón", "Kara"]
    assert (s.fight.narr.phase, s.fight.actor) == ("act", "Kara")
    acted = []
    for name in ("Kara", "Matón", "Víctor", "Cadáver"):
        acted.append(s.fight.actor)
        s.execute(f"{name} fin")
    assert acted == ["Kara", "Matón", "Víctor", "Cadáver"]


def test_turn_siguiente_in_the_declaration_passes_the_declarer():
    s = declaring()
    s.execute("siguiente")
    assert s.fight.narr.declarer == "Víctor"
    assert sh(s, "Cadáver").declared == ()


def test_turn_the_last_go_ends_the_turn_and_the_next_initiative_phase_starts():
    s = declaring("siguiente", "siguiente", "siguiente", "siguiente")
    # nobody declared anything: every place passes at once and the turn is over
    # (SYSTEMS §3.4 `over`); «turno» starts the next initiative phase
    assert (s.fight.turn, s.fight.narr.phase) == (1, "over")
    s.execute("turno")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")
    assert all(sh(s, n).initiative is None for n in ("Kara", "Matón", "Víctor", "Cadáver"))


def test_turn_a_combatant_acts_all_its_non_defensive_actions_at_its_place():
    """§4.3 «Todos los ataques de tu personaje tienen lugar en el momento que dispone la
    iniciativa»: after two declared actions Kara's go ends by itself, the defense waits."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara otra:6 otra:6 esquiva")
    s.execute("kara actua")
    assert s.fight.actor == "Kara"
    s.execute("kara actua")
    assert s.fight.actor == "Matón"
    k = sh(s, "Kara")
    assert [d.done for d in k.declared] == [True, True, False]


def test_turn_dropping_actions_keeps_the_penalties_of_the_declared_number():
    """§4 Decision: fewer actions than declared, the penalties of the declared number."""
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara otra:6 otra:6 esquiva")
    s.execute("kara actua")
    s.execute("kara fin")
    assert [d.penalty for d in sh(s, "Kara").declared] == [-3, -4, -5]
    s.execute("maton actua a kara exitos=1")
    since = len(s.fight.log)
    s.execute("kara defiende esquiva exitos=1")
    assert any("2 dados" in t for t in texts(s, since))  # 7 − 5


def test_turn_actions_may_not_be_added_or_swapped():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo")
    assert refused(s, "kara actua golpe a maton exitos=1").startswith("Kara no declaró esa acción")


def test_turn_declarations_only_in_the_declaration_phase():
    s = session(*CAST, *T1)
    refused(s, "declara cadaver golpe")


def test_turn_turno_ends_the_turn_from_any_phase():
    s = declaring("declara cadaver golpe", "declara victor retrasa")
    s.execute("turno")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")


# ------------------------------------------------------------------ §5 initiative


def test_initiative_roll_is_1d10_plus_rating_minus_health():
    """§5.1: tirar for Matón (rating 5) with 3 lethal (−1)."""
    s = session(*CAST, "dano matón 3 letal", "tirar Matón")
    line = [t for t in texts(s) if t.startswith("Iniciativa de Matón")][-1]
    die = int(re.search(r": (\d+) \+ 5", line).group(1))
    assert 1 <= die <= 10
    assert sh(s, "Matón").initiative == die + 5 - 1


def test_initiative_tirar_rolls_for_everyone_without_one():
    s = session(*CAST, "iniciativa Kara 13", "tirar")
    for name, rating in (("Víctor", 6), ("Matón", 5), ("Cadáver", 3)):
        assert rating + 1 <= sh(s, name).initiative <= rating + 10
    assert sh(s, "Kara").initiative == 13


def test_initiative_typed_is_final():
    """§3.5: a typed total already includes rating, health and Derribado's −2."""
    s = session(*CAST, "dano matón 3 letal", "estado matón +derribado", "iniciativa Matón 9")
    assert sh(s, "Matón").initiative == 9


def test_initiative_is_rolled_every_turn():
    s = declaring("siguiente", "siguiente", "siguiente", "siguiente", "siguiente")
    assert (s.fight.turn, s.fight.narr.phase) == (2, "initiative")
    refused(s, "siguiente")


def test_initiative_ties_higher_rating_first():
    """§5.3: Kara 13 (rating 6) before Matón 13 (rating 5), whatever the roster order."""
    s = session(MATON, KARA, "iniciativa Matón 13", "iniciativa Kara 13", "siguiente")
    assert s.fight.narr.order == ("Kara", "Matón")
    # the one who acts later declares first
    assert s.fight.narr.declarer == "Matón"


def test_initiative_ties_then_higher_destreza():
    s = session("alta Lenta des=2 ast=4", "alta Rápida des=4 ast=2", "iniciativa Lenta 9",
                "iniciativa Rápida 9", "siguiente")
    assert s.fight.narr.order == ("Rápida", "Lenta")


def test_initiative_ties_then_roster_order_swappable_by_the_gm():
    s = session("alta Uno des=3 ast=3", "alta Dos des=3 ast=3", "iniciativa Uno 9", "iniciativa Dos 9")
    assert s.fight.narr.order == ("Uno", "Dos")
    s.execute("cambiar Uno Dos")
    assert s.fight.narr.order == ("Dos", "Uno")
    s.execute("siguiente")
    assert s.fight.narr.declarer == "Uno"


def test_initiative_not_tied_cannot_be_swapped():
    s = session(*CAST, *T1)
    refused(s, "cambiar Kara Víctor")


def test_initiative_derribado_minus_2_on_the_next_roll_then_gone():
    """§5.2: −2 on the next turn's total, automatic, then gone."""
    s = session(*CAST, "estado cadáver +derribado", "tirar Cadáver")
    line = [t for t in texts(s) if t.startswith("Iniciativa de Cadáver")][-1]
    die = int(re.search(r": (\d+) \+ 3", line).group(1))
    assert sh(s, "Cadáver").initiative == die + 3 - 2
    s.execute("iniciativa Kara 13")
    s.execute("iniciativa Matón 13")
    s.execute("iniciativa Víctor 10")
    s.execute("siguiente")
    s.execute("turno")
    s.execute("tirar Cadáver")
    line = [t for t in texts(s) if t.startswith("Iniciativa de Cadáver")][-1]
    die = int(re.search(r": (\d+) \+ 3", line).group(1))
    assert sh(s, "Cadáver").initiative == die + 3


# ------------------------------------------------------------------ §6.1 one action, §6.9 delaying


def test_one_action_per_turn_unless_multiple_has_no_penalty():
    s = declaring("declara cadaver golpe")
    assert [(d.pool, d.penalty) for d in sh(s, "Cadáver").declared] == [(4, 0)]


def test_delaying_acts_later_declaring_when_it_acts():
    """§6.9: `declara victor retrasa`, then `victor actua ACCION …` at any later point."""
    s = declaring("declara cadaver golpe", "declara victor retrasa", "declara maton disparo",
                  "declara kara disparo")
    assert sh(s, "Víctor").status == "delaying"
    s.execute("kara fin")
    s.execute("maton fin")
    # the Cadáver's place: Víctor jumps in before it
    assert s.fight.actor == "Cadáver"
    s.execute("victor actua disparo a cadaver exitos=1")
    assert s.fight.narr.attack.attacker == "Víctor"


def test_delaying_until_the_turns_end_loses_the_action():
    """§4: «The turn ends when the last in the order has acted (delayed actions not
    taken by then are lost). Then the next turn's initiative phase starts.»"""
    s = declaring("declara cadaver golpe", "declara victor retrasa", "declara maton disparo",
                  "declara kara disparo", "kara fin", "maton fin")
    since = len(s.fight.log)
    s.execute("cadaver fin")
    # the last in the order has acted: the turn is over, Víctor's delayed action lost
    assert (s.fight.turn, s.fight.narr.phase, sh(s, "Víctor").status) == (1, "over", "acted")
    assert any("Víctor" in t and "pierde" in t for t in texts(s, since))


def test_a_delayer_acts_later_not_before_its_own_place():
    """§1 Retrasar «act later in the turn»; §6.9 «it may then act at any later point of
    the action phase»: before its own place (Cadáver 8 while Kara 13 acts) it is refused."""
    s = declaring("declara cadaver retrasa", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo")
    assert s.fight.actor == "Kara"
    text = refused(s, "cadaver actua golpe a kara exitos=1")
    assert text.startswith("Cadáver retrasó su acción: actúa después de su momento (8)")


def test_a_delayer_whose_place_has_passed_acts_between_two_others():
    """§6.9: once its place has passed, the delayer acts «between two others' actions»."""
    s = declaring("declara cadaver golpe", "declara victor retrasa", "declara maton disparo",
                  "declara kara disparo")
    refused(s, "victor actua disparo a maton exitos=1")  # Kara (13) acts: Víctor's 10 is later
    s.execute("kara fin")
    refused(s, "victor actua disparo a maton exitos=1")  # Matón (13)
    s.execute("maton fin")
    assert s.fight.actor == "Cadáver"
    s.execute("victor actua disparo a maton exitos=0")
    assert (sh(s, "Víctor").status, s.fight.actor) == ("acted", "Cadáver")


def test_delaying_one_can_still_abort_before_acting():
    s = session(*CAST, "iniciativa Matón 13", "iniciativa Kara 11", "iniciativa Víctor 8",
                "iniciativa Cadáver 4", "siguiente", "declara cadaver golpe", "declara victor fuego-automatico",
                "declara kara retrasa", "declara maton disparo", "maton actua a kara exitos=1")
    s.execute("kara aborta gasta esquiva exitos=2")
    assert sh(s, "Kara").points == 4
    assert s.fight.narr.attack is None


# ------------------------------------------------------------------ §13 end of turn


def test_end_of_turn_resets_the_willpower_limit_declarations_and_shots():
    s = declaring("declara cadaver golpe", "declara victor fuego-automatico", "declara maton disparo",
                  "declara kara disparo", "fv kara -1", "kara actua a maton exitos=0")
    assert sh(s, "Kara").weapons[0].shots == 1
    s.execute("turno")
    k = sh(s, "Kara")
    assert (k.spent, k.points, k.declared, k.weapons[0].shots, k.initiative) == (False, 4, (), 0, None)
    s.execute("fv kara -1")
    assert sh(s, "Kara").points == 3


def test_end_of_turn_points_do_not_come_back():
    s = session(*CAST, "fv kara -1", *T1, "siguiente", "turno")
    assert sh(s, "Kara").points == 4


def test_a_note_given_turns_ends_with_its_last_turn():
    """COMMANDS.md `nota NAME TEXTO [turnos=N]` (shared by every ruleset): the note
    ends by itself at the end of its last turn, logged; one without turns stays."""
    s = session(*CAST, *T1, "nota Kara cojea turnos=1", "nota Matón herido")
    assert [(n.text, n.until) for n in s.fight.find("Kara").notes] == [("cojea", 1)]
    s.execute("turno")
    assert s.fight.turn == 2
    assert s.fight.find("Kara").notes == ()
    assert [n.text for n in s.fight.find("Matón").notes] == ["herido"]
    assert any("−nota «cojea» (fin de su duración)" in e.text for e in s.fight.log)
