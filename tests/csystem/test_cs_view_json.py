"""C-System's pure view: `cdbtui show --json` (SYSTEMS.md §2.4, to the letter) and the
text board (`cdbtui show`, SYSTEMS.md §2.1), from fights built from values."""

from __future__ import annotations

import json

from attrs import evolve

from cdbtui.engine.csystem.model import CsCondition, CsPart, Prompt
from cdbtui.engine.model import Fight, Note
from cdbtui.view import board_text, state_json
from cdbtui.view.csystem import cs_board_text, cs_rows, cs_state_json

try:
    from _cs_fights import combatant, each_step, played, step9, with_pending
except ImportError:  # tests/csystem made a package
    from ._cs_fights import combatant, each_step, played, step9, with_pending

#: The fields of SYSTEMS.md §2.4, in its order.
TOP = ["schema", "rules", "turn", "turn_over", "actor", "order", "combatants"]
COMBATANT = ["name", "side", "hidden", "initiative", "after", "place", "acted", "level", "used",
             "left", "maneuvers", "defense", "vitality", "vitality_max", "composure", "energy",
             "criticals", "aim", "conditions", "weapons", "pending"]


def by_name(state: dict, name: str) -> dict:
    return next(c for c in state["combatants"] if c["name"] == name)


def test_the_dispatch_sends_csystem_fights_to_their_own_view():
    fight = step9()
    assert state_json(fight) == cs_state_json(fight)
    assert board_text(fight) == cs_board_text(fight)
    assert board_text(fight, log_lines=0) == cs_board_text(fight, log_lines=0)


def test_the_json_has_every_field_of_the_contract_and_the_shared_ones():
    state = cs_state_json(step9())
    assert set(TOP) <= set(state)
    assert {"name", "log"} <= set(state)
    assert list(state)[:3] == ["schema", "name", "rules"]  # shared fields first
    for c in state["combatants"]:
        assert set(COMBATANT) <= set(c), c["name"]
        assert {"private", "notes"} <= set(c)
    json.dumps(state)  # plain data


def test_the_json_of_centella_is_the_example_of_the_contract():
    state = cs_state_json(step9())
    assert state["schema"] == 1 and state["rules"] == "csystem" and state["turn"] == 1
    assert state["turn_over"] is False
    assert state["actor"] == "Titán"
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    centella = {k: v for k, v in by_name(state, "Centella").items() if k in COMBATANT}
    assert centella == {
        "name": "Centella", "side": "pj", "hidden": False,
        "initiative": 17, "after": None, "place": 3, "acted": True,
        "level": 5, "used": ["complex", "complex"], "left": [],
        "maneuvers": ["apuntar"],
        "defense": {"ranged": 26, "melee": 26},
        "vitality": 24, "vitality_max": 32, "composure": None, "energy": None,
        "criticals": 0, "aim": 0,
        "conditions": [{"id": "ensordecido", "value": None, "ends": None}],
        "weapons": [{"name": "pistola", "mode": "sa", "ammo": 14, "magazine": 15, "fired": 1}],
        "pending": None,
    }


def test_left_defense_and_places_of_the_others():
    state = cs_state_json(step9())
    titan, sicario, ruina = (by_name(state, n) for n in ("Titán", "Sicario 1", "Doctor Ruina"))
    assert titan["left"] == [[1, 1], [0, 2]]  # ■□ o □□
    assert titan["place"] == 4 and titan["acted"] is False
    assert sicario["defense"] == {"ranged": 22, "melee": 18}  # tumbado
    assert sicario["left"] == []
    assert ruina["defense"] == {"ranged": 34, "melee": 34}  # esquivar +5
    assert ruina["used"] == ["complex", "simple", "complex"]


def test_pending_is_the_first_prompt_with_the_bonus_only_for_the_critical_table():
    fight = with_pending(step9())
    assert by_name(cs_state_json(fight), "Sicario 1")["pending"] == {"roll": "dolor", "nd": 23}
    sicario = fight.find("Sicario 1")
    fight = fight.replace(evolve(sicario, sheet=evolve(sicario.sheet, pending=(Prompt("critica", bonus=1),))))
    assert by_name(cs_state_json(fight), "Sicario 1")["pending"] == {"roll": "critica", "nd": None, "bonus": 1}


def test_conditions_with_values_and_durations():
    fight = step9()
    sicario = fight.find("Sicario 1")
    sheet = evolve(sicario.sheet, conditions=(CsCondition("sangrando", "1"), CsCondition("deslumbrado", None, 4)))
    fight = fight.replace(evolve(sicario, sheet=sheet))
    assert by_name(cs_state_json(fight), "Sicario 1")["conditions"] == [
        {"id": "sangrando", "value": "1", "ends": None},
        {"id": "deslumbrado", "value": None, "ends": 4},
    ]


def test_a_combatant_without_initiative_has_no_place():
    fight = step9()
    fight = evolve(fight, combatants=(*fight.combatants, combatant("Refuerzo")))
    refuerzo = by_name(cs_state_json(fight), "Refuerzo")
    assert refuerzo["place"] is None and refuerzo["initiative"] is None
    assert "Sin iniciativa: Refuerzo" in cs_board_text(fight)


def test_after_and_notes_in_the_json():
    fight = step9()
    centella = fight.find("Centella")
    fight = fight.replace(evolve(centella, sheet=evolve(centella.sheet, after="Titán"),
                                 notes=(Note("cojea", until=3),)))
    c = by_name(cs_state_json(fight), "Centella")
    assert c["after"] == "Titán"
    assert c["notes"] == [{"text": "cojea", "turns_left": 3}]


def test_before_the_fight_starts():
    fight = Fight(name="Azotea", rules="csystem", combatants=(combatant("Titán", side="pj"),))
    state = cs_state_json(fight)
    assert state["turn"] == 0 and state["actor"] is None and state["turn_over"] is False
    assert state["order"] == []
    assert cs_board_text(fight).splitlines()[0] == "Azotea · C-System · preparación"


def test_the_log_is_every_entry_as_text():
    state = cs_state_json(step9())
    assert state["log"][0] == "T1 · Centella: Apuntar (■) → +2"
    assert len(state["log"]) == 6


# ---------------------------------------------------------------- the text board


def test_the_board_header_and_the_list_of_the_example():
    lines = cs_board_text(step9()).splitlines()
    assert lines[0] == "Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno"
    table = lines[2:7]
    assert table[0].split() == ["#", "INI", "Nombre", "NH", "Este", "turno", "Queda", "Def", "dist·cc",
                                "Vitalidad"]
    assert table[1].split() == ["1", "22", "Doctor", "Ruina", "9", "✓", "■", "□", "■", "—", "34",
                                "(esq.+5)", "43/48"]
    assert table[2].split() == ["2", "18", "Sicario", "1", "1", "✓", "■", "□", "—", "22", "·", "18", "16/16"]
    assert table[3].split() == ["3", "17", "↓5", "Centella", "5", "✓", "■", "■", "—", "26", "24/32"]
    assert table[4].startswith("▶4")
    assert table[4].split() == ["▶4", "14", "Titán", "1", "■□", "o", "□□", "19", "20/28"]
    # the columns line up: every row's Nombre starts where the heading does
    start = table[0].index("Nombre")
    assert all(row[start - 1] == " " and row[start] != " " for row in table)


def test_the_board_shows_states_prompts_and_the_last_log_lines():
    text = cs_board_text(with_pending(step9()), log_lines=2)
    assert "Estados: Doctor Ruina esquivar +5 (hasta el inicio de su turno)" in text
    assert "Sicario 1 tumbado" in text
    assert "Centella ensordecido (−5 ini)" in text
    assert 'Pendiente: Sicario 1 · tirada de dolor: CON vs ND 23 («dolor "Sicario 1" TOTAL»)' in text
    assert "Pendiente: Sicario 1 · tira 1d20 + 0 en Heridas críticas" in text
    lines = text.splitlines()
    assert lines[-1] == "T1 · Sicario 1: se tira al suelo"
    assert lines[-3] == ""
    assert "17 (cargar −2)" in text


def test_who_comes_next_and_the_after_mark():
    fight = step9()
    ruina = fight.find("Doctor Ruina")
    titan = fight.find("Titán")
    centella = fight.find("Centella")
    fight = evolve(fight, actor="Doctor Ruina").replace(
        evolve(ruina, sheet=evolve(ruina.sheet, acted=False)),
        evolve(centella, sheet=evolve(centella.sheet, acted=False, initiative=14, after="Titán", shift=0)))
    fight = evolve(fight, cs=CsPart(order=("Doctor Ruina", "Sicario 1", "Titán", "Centella")))
    assert titan is not None
    lines = cs_board_text(fight).splitlines()
    assert lines[0].endswith("Actúa: Doctor Ruina (1.º de 4) · luego: Titán")
    assert any("14 (tras Titán)" in line and "Centella" in line for line in lines)


def test_the_turn_over_and_out_marks():
    fight = evolve(step9(), actor=None)
    assert cs_state_json(fight)["turn_over"] is True
    assert "turno terminado" in cs_board_text(fight).splitlines()[0]
    assert not any(row.acts for row in cs_rows(fight))


def test_start_effects_are_marked():
    fight = step9()
    sicario = fight.find("Sicario 1")
    fight = fight.replace(evolve(sicario, sheet=evolve(sicario.sheet, acted=False,
                                                       conditions=(CsCondition("sangrando", "1"),))))
    assert any("⟳ Sicario 1" in line for line in cs_board_text(fight).splitlines())


def test_every_typed_text_is_shown_literally():
    fight = step9()
    evil = "Ninja\x1b[31m\u202e"
    ninja = combatant(evil, initiative=3, weapons=())
    centella = fight.find("Centella")
    fight = evolve(fight, name="Az\x07otea", combatants=(*fight.combatants, ninja),
                   cs=CsPart(order=(*fight.cs.order, evil)))
    fight = fight.replace(evolve(centella, notes=(Note("ojo\x1b]52;c;x\x07"),)))
    fight = fight.note(f"{evil} entra", about=[evil])
    text = cs_board_text(fight)
    for bad in ("\x1b", "\x07", "\u202e"):
        assert bad not in text
    assert "Ninja\\x1b[31m\\u202e" in text


# ---------------------------------------------------------------- through the engine


def test_step_9_of_the_example_played_through_the_session():
    """SYSTEMS.md §2.1's sheet (Titán about to charge) from SYNTAX.md's lines."""
    fight = played(8).fight
    state = cs_state_json(fight)
    assert state["actor"] == "Titán" and state["turn"] == 1 and state["turn_over"] is False
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    centella = by_name(state, "Centella")
    assert (centella["initiative"], centella["place"], centella["acted"], centella["used"],
            centella["left"], centella["defense"], centella["vitality"]) == \
        (17, 3, True, ["complex", "complex"], [], {"ranged": 26, "melee": 26}, 24)
    assert centella["conditions"] == [{"id": "ensordecido", "value": None, "ends": None}]
    assert centella["weapons"] == [{"name": "pistola", "mode": "sa", "ammo": 14, "magazine": 15, "fired": 1}]
    assert by_name(state, "Titán")["left"] == [[1, 1], [0, 2]]
    assert by_name(state, "Sicario 1")["defense"] == {"ranged": 22, "melee": 18}
    assert by_name(state, "Doctor Ruina")["defense"] == {"ranged": 34, "melee": 34}
    lines = cs_board_text(fight).splitlines()
    assert lines[0] == "Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno"
    assert lines[3].split()[:2] == ["1", "22"] and "34 (esq.+5)" in lines[3] and "43/48" in lines[3]
    assert "22 · 18" in lines[4] and "16/16" in lines[4]
    assert lines[5].split()[:3] == ["3", "17", "↓5"]
    assert lines[6].startswith("▶4") and "■□ o □□" in lines[6] and "20/28" in lines[6]
    assert any(line.startswith("Estados: ") and "Doctor Ruina esquivar +5" in line for line in lines)


def test_the_pain_prompt_shows_until_answered():
    fight = played(9).fight  # through the critical table's answer
    assert by_name(cs_state_json(fight), "Sicario 1")["pending"] is None
    session = played(8)
    session.execute("titan cargar a sicario tirada=21 dano=14")
    state = cs_state_json(session.fight)
    assert by_name(state, "Sicario 1")["pending"] == {"roll": "dolor", "nd": 23}
    assert "tirada de dolor: CON vs ND 23" in cs_board_text(session.fight)
    session.execute("dolor sicario 20")
    assert by_name(cs_state_json(session.fight), "Sicario 1")["pending"] == \
        {"roll": "critica", "nd": None, "bonus": 0}


def test_the_end_of_turn_2_through_the_session():
    """CSYSTEM §12's table at the end of turn 2 (turn 3 has begun with Ruina's go)."""
    state = cs_state_json(played().fight)
    assert state["turn"] == 3 and state["actor"] == "Doctor Ruina"
    assert state["order"] == ["Doctor Ruina", "Sicario 1", "Titán", "Centella"]
    centella = by_name(state, "Centella")
    assert (centella["initiative"], centella["after"], centella["place"]) == (14, "Titán", 4)
    titan = by_name(state, "Titán")
    assert (titan["vitality"], titan["defense"], titan["criticals"]) == (1, {"ranged": 18, "melee": 14}, 2)
    assert [c["id"] for c in titan["conditions"]] == ["malherido", "tumbado"]
    sicario = by_name(state, "Sicario 1")
    assert {"id": "sangrando", "value": "1", "ends": None} in sicario["conditions"]
    assert sicario["weapons"][0]["ammo"] == 22
    assert "14 ↓5 (tras Titán)" in cs_board_text(played().fight)


def test_every_step_gives_a_json_of_the_contract():
    for line, fight in each_step():
        state = cs_state_json(fight)
        json.dumps(state)
        assert set(TOP) <= set(state), line
        for c in state["combatants"]:
            assert set(COMBATANT) <= set(c), line
            assert all(len(pair) == 2 for pair in c["left"]), line
            if c["acted"]:
                assert c["left"] == [], line
        if state["actor"] is not None:
            assert state["actor"] in state["order"], line
        cs_board_text(fight)
