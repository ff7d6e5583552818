"""C-System's pure list view (`view.cslist`): the rows, marks and notes of
SYSTEMS.md §2.1 for the worked example (CSYSTEM.md §12), fitted to 160 and 80
columns, the side panel's rows, the header, the players' list and the picker's
choices, without Textual."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from attrs import evolve
from test_snapshots_cs import STEP_9, TURN_2

from cdbtui.engine.csystem.model import CsCondition, CsPart, CsSheet, Prompt
from cdbtui.engine.model import Combatant, Fight
from cdbtui.engine.session import Session
from cdbtui.roster import CS_DEMO_LINES
from cdbtui.view import cslist
from cdbtui.view.cslist import Kind, Role, build_list, cs_header, cs_panel_rows


def fight_after(*lines: str) -> Fight:
    session = Session.new("Azotea", "csystem", 1234)
    for line in (*CS_DEMO_LINES, *lines):
        session.execute(line)
    return session.fight


def rows(lst) -> dict[str, str]:
    return {line.name: line.text for line in lst.lines if line.kind is Kind.ROW}


def test_the_start_of_the_demo():
    fight = fight_after()
    assert cs_header(fight) == ("Azotea · C-System · Turno 1 · Actúa: Centella (1.º de 4)"
                                " · luego: Doctor Ruina")
    lst = build_list(fight, "Centella")
    assert lst.names == ("Centella", "Doctor Ruina", "Sicario 1", "Titán")
    titles = lst.lines[0]
    assert titles.kind is Kind.TITLES and "Def dist·cc" in titles.text
    first = lst.lines[1]
    assert first.actor and first.selected and first.text.startswith("▶1  22")
    assert "■■ o ■□ o □□□" in first.text and "32/32" in first.text


def test_mid_turn_1_marks_conditions_and_the_prompts():
    """Step 9: ✓ for who acted, ↓5 for Centella, Def a · b and a temporary change,
    ⟳ before Sicario 1 and the prompts line, the Estados lines."""
    fight = fight_after(*STEP_9)
    assert cs_header(fight).endswith("Actúa: Titán (4.º de 4) · luego: fin del turno")
    lst = build_list(fight, "Titán")
    text = rows(lst)
    assert text["Doctor Ruina"].split()[:3] == ["1", "22", "Doctor"]
    assert "✓ ■ □ ■" in text["Doctor Ruina"] and "34 (esq.+5)" in text["Doctor Ruina"]
    assert "⟳Sicario 1" in text["Sicario 1"] and "22 · 18" in text["Sicario 1"]
    assert "17 ↓5" in text["Centella"] and "✓ ■ ■" in text["Centella"]
    assert text["Titán"].startswith("▶4") and "17 (carga −2)" in text["Titán"]
    acted = {line.name: line.acted for line in lst.lines if line.kind is Kind.ROW}
    assert acted == {"Doctor Ruina": True, "Sicario 1": True, "Centella": True, "Titán": False}
    prompts = [line.text for line in lst.lines if line.kind is Kind.PROMPT]
    assert "tirada de dolor: CON vs ND 23" in prompts[0]
    states = " ".join(line.text for line in lst.lines if line.kind is Kind.CONDITIONS)
    assert "Sicario 1 tumbado" in states and "Centella ensordecido (−5 ini)" in states
    assert "esquivar +5 (hasta el inicio de su turno)" in states


def test_fitting_80_columns_keeps_the_numbers():
    """48 cells (an 80-column terminal's list): the bar and «Este turno» give way,
    names shorten, Defensa and Vitalidad stay whole."""
    fight = fight_after(*STEP_9)
    lst = build_list(fight, "Titán", width=48)
    assert "bar" not in lst.columns and "used" not in lst.columns
    for line in lst.lines:
        assert cslist.cells(line.text) <= 48, line.text
    text = rows(lst)
    assert "22 · 18" in text["Sicario 1"] and "3/16" in text["Sicario 1"]
    assert "20/28" in text["Titán"]


def test_turn_2_lowering_and_after():
    fight = fight_after(*TURN_2[:-4], "dolor titan 25", "ruina ataca titan tirada=22 dano=4 tipo=energia",
                        "dolor titan 13", "ruina mover", 'sicario simple "pide refuerzos por radio"',
                        "centella retrasa tras titan")
    text = rows(build_list(fight))
    assert "14 ↓5 (tras Titán)" in text["Centella"]
    assert list(rows(build_list(fight)))[-2:] == ["Titán", "Centella"]


def test_the_vitality_bar_marks_con():
    sheet = CsSheet(con=7, vitality_max=28, vitality=20)
    bar = cslist.bar_spans(sheet)
    assert len(bar) == cslist.BAR
    assert [s.role for s in bar].count(Role.BAR_CON) == 1
    assert "".join(s.text for s in bar) == "██▏████░░░"
    low = cslist.bar_spans(evolve(sheet, vitality=3))
    assert all(s.role is not Role.BAR_FULL for s in low)
    assert cslist.vitality_role(evolve(sheet, vitality=-2)) is Role.BAD


def test_the_side_panel():
    fight = fight_after(*STEP_9)
    panel = {row.label: row.value for row in cs_panel_rows(fight.find("Titán"), fight)}
    assert panel["Este turno"] == "■" and panel["Queda"] == "□"
    assert panel["Maniobras"] == "Cargar"
    assert panel["Defensa"] == "17 = 15 + 3 + 1 − 2"
    assert panel["Vitalidad"] == "20/28 · Herido < 7"
    assert panel["Armas"] == "puños (3d6)"
    sicario = {row.label: row.value for row in cs_panel_rows(fight.find("Sicario 1"), fight)}
    assert "ND 23" in sicario["Pendiente"]
    assert sicario["Críticas"].startswith("1")
    assert cslist.cs_panel_title(fight.find("Titán")) == "Titán · PJ · NH 1"


def test_the_players_list_hides_and_masks():
    """Hidden PNJ absent; a private PNJ's numbers as «?»; the big line."""
    cast = (
        Combatant("Ana", 0, side="pj", sheet=CsSheet(level=2, dex=3, con=5, vitality=20,
                                                     vitality_max=20, initiative=15)),
        Combatant("Sombra", 0, hidden=True, sheet=CsSheet(initiative=18, vitality=9, vitality_max=9)),
        Combatant("Matón", 0, private=True, sheet=CsSheet(initiative=12, con=4, vitality=11,
                                                          vitality_max=16,
                                                          pending=(Prompt("dolor", nd=15),),
                                                          conditions=(CsCondition("herido"),))),
    )
    fight = Fight(name="Callejón", rules="csystem", turn=2, combatants=cast, actor="Sombra",
                  cs=CsPart(order=("Sombra", "Ana", "Matón")))
    lst = build_list(fight, for_players=True)
    assert lst.names == ("Ana", "Matón")
    text = rows(lst)
    assert "11/16" not in text["Matón"] and "?" in text["Matón"]
    assert all("Matón" not in line.text for line in lst.lines if line.kind is not Kind.ROW)
    assert cslist.cs_headline(fight) == "Turno 2 · Actúa: Ana"  # Sombra's go is not seen
    assert text["Ana"].startswith("▶")
    dj = build_list(fight)
    assert "◌Sombra" in dj.lines[1].text and dj.lines[1].actor


def test_the_picker_offers_what_the_budget_allows():
    fight = fight_after(*STEP_9)  # Titán, NH 1, after Cargar: only □ left
    labels = [c.label for c in cslist.action_choices(fight, "Titán")]
    assert "Cubrirse simple (□)" in labels
    assert not any(label.startswith("Cargar") for label in labels)
    assert all("(■)" not in label for label in labels)
    fresh = fight_after("centella apuntar")
    lines = [c.line for c in cslist.action_choices(fresh, "Centella")]
    assert "Centella apuntar" not in lines  # no two identical maneuvers in a turn
    attack = next(c for c in cslist.action_choices(fresh, "Centella") if c.label.startswith("Atacar"))
    assert attack.line == "Centella ataca " and not attack.complete


def test_completion_of_the_command_line():
    fight = fight_after()
    assert cslist.complete(fight, "sic")[0] == '"Sicario 1" '
    assert cslist.complete(fight, "estado titan +ens")[0] == "estado titan +ensordecido "
    line, found = cslist.complete(fight, "centella ap")
    assert line is None and "apuntar" in found


def test_out_rows_are_struck_and_have_nothing_left():
    fight = fight_after(*STEP_9)
    sicario = fight.find("Sicario 1")
    down = evolve(sicario, sheet=evolve(sicario.sheet, vitality=0,
                                        conditions=(CsCondition("inconsciente"),)))
    fight = fight.replace(down)
    line = next(line for line in build_list(fight).lines if line.name == "Sicario 1")
    assert line.out
    assert "inconsciente" in " ".join(l.text for l in build_list(fight).lines
                                      if l.kind is Kind.CONDITIONS)
