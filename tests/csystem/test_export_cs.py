"""`cdbtui export` of a C-System fight: the list with final states and the log, in
Markdown and HTML; `--jugadores` shows what players see (players.py)."""

from __future__ import annotations

from attrs import evolve

from cdbtui.engine.csystem.model import CsCondition
from cdbtui.engine.model import LogKind, Note
from cdbtui.export import (
    CS_ROSTER_HEADINGS,
    CsRosterRow,
    build_report,
    export_html,
    export_markdown,
)

try:
    from _cs_fights import played, step9, with_pending
except ImportError:  # tests/csystem made a package
    from ._cs_fights import played, step9, with_pending


def row(report, name: str) -> CsRosterRow:
    return next(r for r in report.roster if r.name == name)


def test_the_report_lists_the_order_with_final_states():
    report = build_report(with_pending(step9()))
    assert report.rules == "C-System"
    assert report.headings == CS_ROSTER_HEADINGS
    assert [r.name for r in report.roster] == ["Doctor Ruina", "Sicario 1", "Centella", "Titán"]
    sicario = row(report, "Sicario 1")
    assert (sicario.place, sicario.initiative, sicario.level, sicario.defense, sicario.vitality) == \
        ("2", "18", "1", "22 · 18", "3/16")
    assert "tumbado" in sicario.state and "subfusil FA 22/30" in sicario.state
    assert "pendiente: tirada de dolor: CON vs ND 23" in sicario.state
    assert row(report, "Centella").initiative == "17 ↓5"
    assert [g.title for g in report.turns] == ["Turno 1"]
    assert len(report.turns[0].entries) == 6


def test_markdown_and_html_of_a_csystem_fight():
    fight = step9()
    fight = fight.note("Titán: carga a Sicario 1: 21 vs 18, daño 13 → 3/16", kind=LogKind.DAMAGE,
                       about=["Titán", ("Sicario 1", "target")])
    md = export_markdown(fight)
    assert md.startswith("# Azotea · C-System")
    assert "| Nombre | Bando | Orden | INI | NH | Def dist·cc | Vitalidad | Estado |" in md
    assert "| Doctor Ruina | PNJ | 1 | 22 | 9 | 34 (esq.+5) | 43/48 |" in md
    assert "### Turno 1" in md
    assert "- **Titán: carga a Sicario 1: 21 vs 18, daño 13 → 3/16**" in md
    page = export_html(fight)
    assert "<th>Def dist·cc</th>" in page
    assert '<td class="num">1</td>' in page
    assert "<strong>Titán: carga a Sicario 1" in page


def test_the_gm_export_marks_hidden_and_private_and_shows_notes():
    fight = step9(private=True, hidden=("Doctor Ruina",))
    centella = fight.find("Centella")
    fight = fight.replace(evolve(centella, notes=(Note("cojea"),)))
    report = build_report(fight)
    assert "oculto" in row(report, "Doctor Ruina").state
    assert "privado" in row(report, "Sicario 1").state
    assert "nota: cojea" in row(report, "Centella").state


def test_the_players_export_hides_the_hidden_and_masks_the_private():
    fight = with_pending(step9(private=True, hidden=("Doctor Ruina",)))
    report = build_report(fight, for_players=True)
    assert [r.name for r in report.roster] == ["Sicario 1", "Centella", "Titán"]
    sicario = row(report, "Sicario 1")
    assert (sicario.initiative, sicario.level, sicario.defense, sicario.vitality) == ("?", "?", "?", "?/?")
    assert "22/30" not in sicario.state and "pendiente" not in sicario.state
    assert "privado" not in sicario.state
    assert "Versión para los jugadores" in report.details
    for text in (export_markdown(fight, for_players=True), export_html(fight, for_players=True)):
        assert "Ruina" not in text
        assert "3/16" not in text
        assert "Centella: Apuntar" in text


def test_typed_texts_are_escaped():
    fight = step9()
    centella = fight.find("Centella")
    sheet = evolve(centella.sheet, conditions=(CsCondition("a-cubierto", "parcial"),))
    fight = fight.replace(evolve(centella, sheet=sheet, notes=(Note("<b>*ojo*</b>\x1b[2J"),)))
    md = export_markdown(fight)
    assert "\x1b" not in md and "\\*ojo\\*" in md
    page = export_html(fight)
    assert "<b>" not in page and "&lt;b&gt;" in page and "\x1b" not in page
    assert "a cubierto (parcial)" in md


def test_the_cdb_export_keeps_its_roster():
    from fights import play

    report = build_report(play("alta Mike ac=7 bando=pj").fight)
    assert report.headings[0] == "Nombre" and "AC por turno" in report.headings


# ---------------------------------------------------------------- through the engine


def test_the_export_of_the_whole_example():
    fight = played().fight
    report = build_report(fight)
    assert [g.title for g in report.turns] == ["Preparación", "Turno 1", "Turno 2", "Turno 3"]
    assert [r.name for r in report.roster] == ["Doctor Ruina", "Sicario 1", "Titán", "Centella"]
    assert row(report, "Centella").initiative == "14 ↓5 (tras Titán)"
    assert row(report, "Titán").vitality == "1/28"
    assert "Reglas: C-System" in report.details and "Turnos: 3" in report.details
    md = export_markdown(fight)
    assert "- Titán: ¡Centella, cúbreme! (□)" in md
    assert "| Sicario 1 | PNJ | 2 | 18 | 1 | 18 · 14 | 2/16 |" in md
    export_html(fight)


def test_the_players_export_of_the_example_with_a_hidden_ruina():
    fight = played(hidden=("Doctor Ruina",), private=("Sicario 1",)).fight
    for text in (export_markdown(fight, for_players=True), export_html(fight, for_players=True)):
        assert "Ruina" not in text
        assert "2/16" not in text and "3/16" not in text
        assert "Titán: ¡Centella, cúbreme! (□)" in text
