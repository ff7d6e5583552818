"""The storyteller pure list view (`view.narrlist`): the rows, chips and marks of
SYSTEMS.md §3.1 for the worked example (STORYTELLER.md §15), the header in each
phase, the side panel's and the dice-pool panel's rows, the players' list, the
help's Decisions, without Textual."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _narr_lines import DECLARED, STEP_4, TURN_1, narr_session

from cdbtui.engine.session import Session
from cdbtui.view import narrlist
from cdbtui.view.narrlist import (Kind, build_list, focus_name, narr_dice_rows, narr_header,
                                  narr_panel_rows)


def rows(lst) -> dict[str, str]:
    return {line.name: line.text for line in lst.lines if line.kind is Kind.ROW}


def test_the_initiative_phase_lists_the_roster_with_its_initiatives():
    session = Session.new("Depósito", "narrador", 1)
    session.execute("alta Kara bando=pj des=3 ast=3 fv=5")
    session.execute("alta Matón des=3 ast=2 fv=3")
    session.execute("iniciativa Kara 13")
    fight = session.fight
    assert narr_header(fight).startswith("Depósito · Narrador · Turno 1 · Iniciativa")
    text = rows(build_list(fight))
    assert text["Kara"].split()[:2] == ["13", "Kara"]
    assert "—" in text["Matón"] and "sin iniciativa" in text["Matón"]
    assert focus_name(fight) is None


def test_the_declaration_phase_goes_from_the_lowest_up():
    fight = narr_session().fight
    assert narr_header(fight) == "Depósito · Narrador · Turno 1 · Declaración ↑ · Declara: Cadáver (8)"
    assert focus_name(fight) == "Cadáver"
    lst = build_list(fight, "Cadáver")
    assert lst.names == ("Kara", "Matón", "Víctor", "Cadáver")
    text = rows(lst)
    assert text["Cadáver"].startswith("▶8") and "declara" in text["Cadáver"]
    assert "por declarar" in text["Kara"] and "por declarar" in text["Víctor"]
    fight = narr_session(*DECLARED[:2]).fight
    text = rows(build_list(fight, "Matón"))
    assert "Golpe 4" in text["Cadáver"] and "F. automático 17" in text["Víctor"]
    assert "por declarar" in text["Kara"] and text["Matón"].startswith("▶13")


def test_the_action_phase_chips_have_live_dice():
    """Step 4: Matón wounded (−1) rolls 5 − 1 − 2 = 2 and 1 dice; Kara's chips."""
    fight = narr_session(*STEP_4).fight
    assert narr_header(fight) == ("Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)"
                                  " · ⚔ Matón → Kara")
    assert focus_name(fight) == "Matón"  # the attacker while its attack waits (SYSTEMS §3.1 step 4)
    lst = build_list(fight, "Kara")
    text = rows(lst)
    assert "✓Disparo 6→4 · Esquiva 7→4 (def.)" in text["Kara"]
    assert "✓Disparo 5→2 · Disparo 5→1" in text["Matón"]
    assert "XXX···· −1" in text["Matón"] and "●●●" in text["Matón"]
    assert text["Matón"].startswith("▶13") and "actúa" in text["Matón"]
    assert "actuó" in text["Kara"]  # she acted: as SYSTEMS §3.1's step 4 (the header names the attack)
    attack = [line.text for line in lst.lines if line.kind is Kind.ATTACK]
    assert attack and "Matón → Kara" in attack[0] and "1 éxito" in attack[0]


def test_the_list_fits_80_columns():
    fight = narr_session(*STEP_4).fight
    for width in (44, 60, 78):
        lst = build_list(fight, "Kara", width=width)
        assert all(sum(len(s.text) for s in line.spans) <= width for line in lst.lines if line.kind is Kind.ROW)


def test_the_dice_panel_of_an_attack_and_the_defense_it_allows():
    """Matón → Kara, shot 1 of 2: traits, health, the slot, 2 dice, difficulty 6;
    Kara acted and declared Esquiva: its 2.ª of 2 → 4 dice, then a 3.ª → 3."""
    fight = narr_session(*STEP_4).fight
    title, dice = narr_dice_rows(fight)
    assert title == "Tirada"
    shown = [(r.label, r.value) for r in dice]
    assert ("", "Matón → Kara · Disparo 1 de 2") in shown
    assert ("Destreza 3 + Armas de Fuego 2", "5") in shown
    assert ("Salud (Lesionado)", "−1") in shown
    assert ("Acción múltiple, 1.ª de 2", "−2") in shown
    assert ("Reserva", "2 dados") in shown
    assert any(label == "Dificultad" and value.startswith("6") for label, value in shown)
    text = " | ".join(value for _, value in shown)
    assert "Kara se defiende: Esquiva declarada, 2.ª de 2 → 4 dados" in text
    assert "una defensa más: 3.ª → 3 dados" in text


def test_the_dice_panel_of_an_abort_before_its_place():
    fight = narr_session(*DECLARED, "kara actua a maton exitos=2").fight
    _, dice = narr_dice_rows(fight)
    text = " | ".join(r.value for r in dice)
    assert "Matón no ha actuado: puede abortar (tirada de FV 3 dados" in text
    assert "Sin defensa: daño 4 + (2 − 1) = 5 dados" in text


def test_a_stunned_cadaver_and_the_next_turn():
    session = narr_session(*TURN_1)
    fight = session.fight
    # the last in the order has acted: the turn is over (SYSTEMS §3.4 `over`)
    assert fight.turn == 1 and narr_header(fight).startswith("Depósito · Narrador · Turno 1 · turno terminado")
    assert narr_dice_rows(fight) == ("", ())
    text = rows(build_list(fight))
    assert "XXXXXX·" in text["Cadáver"] and "−5" in text["Cadáver"]
    session.execute("turno")
    fight = session.fight
    assert fight.turn == 2 and narr_header(fight).startswith("Depósito · Narrador · Turno 2 · Iniciativa")
    assert narr_dice_rows(fight) == ("", ())
    assert "XXXXXX·" in rows(build_list(fight))["Cadáver"]


def test_the_side_panel_of_matón():
    fight = narr_session(*STEP_4).fight
    panel = {r.label: r.value for r in narr_panel_rows(fight.find("Matón"), fight) if r.label}
    assert panel["Ini"].startswith("13 · punt. 5") and "Kara antes" in panel["Ini"]
    assert panel["Múltiple"] == "2 acciones (−2, −3)"
    assert panel["FV"].startswith("3/3")
    assert panel["Salud"].startswith("Lesionado −1")
    assert "Glock 17 17/17+1" in panel["Armas"] and "1/4 este turno" in panel["Armas"]


def test_players_see_declared_actions_only_once_performed_and_no_hidden_pnj():
    fight = narr_session(*STEP_4).fight
    text = rows(build_list(fight, None, for_players=True))
    assert "✓Disparo" in text["Kara"] and "Esquiva" not in text["Kara"]
    assert "F. automático" not in text["Víctor"] and "Golpe" not in text["Cadáver"]
    session = narr_session()
    session.execute("alta Sombra des=3 ast=3 oculto")
    names = build_list(session.fight, None, for_players=True).names
    assert "Sombra" not in names and "Sombra" in build_list(session.fight).names


def test_the_help_lists_every_decision_of_storyteller_14():
    from cdbtui.tui.screens.help import narr_help_markdown

    text = narr_help_markdown()
    for key, _ in narrlist.DECISIONS:
        assert key in text
    for section in ("(3)", "(4)", "(5)", "(6)", "(6.5)", "(6.6)", "(6.7)", "(6.9)", "(7.2)", "(7.4)", "(7.6)",
                    "(7.7)", "(8)", "(9)", "(10)", "(11)", "(12)"):
        assert section in text, section
    for key in ("d", "a / ⏎", "g", "b", "r", "f", "espacio", "t", "x / e"):
        assert f"`{key}`" in text
