"""`cdbtui export` of a storyteller fight: the list with final states and the log,
in Markdown and HTML; `--jugadores` shows what players see (players.py): no hidden
PNJ, no private PNJ's numbers, no declaration before it is performed."""

from __future__ import annotations

from attrs import evolve

from cdbtui.engine.model import Note
from cdbtui.export import (
    NARR_ROSTER_HEADINGS,
    NarrRosterRow,
    build_report,
    export_html,
    export_markdown,
)

try:
    from _narr_fights import played, step
except ImportError:  # tests/narrador made a package
    from ._narr_fights import played, step


def row(report, name: str) -> NarrRosterRow:
    return next(r for r in report.roster if r.name == name)


def test_the_report_lists_the_order_with_final_states():
    report = build_report(played(step("maton actua a kara exitos=1")).fight)
    assert report.rules == "Narrador" and report.headings == NARR_ROSTER_HEADINGS
    assert [r.name for r in report.roster] == ["Kara", "Matón", "Víctor", "Cadáver"]
    maton = row(report, "Matón")
    assert (maton.side, maton.initiative, maton.declared, maton.willpower, maton.health) == \
        ("PNJ", "13", "✓Disparo 5→2 · Disparo 5→1", "●●●", "XXX···· −1")
    assert maton.state.startswith("Lesionado, actúa")
    assert "Pistola Ligera Glock 17 17/17+1" in maton.state
    assert ("Reglas: Narrador", "Turnos: 1", "Fase: Acción ↓") == report.details
    assert [g.title for g in report.turns] == ["Turno 1"]


def test_markdown_and_html_of_the_whole_example():
    session = played()
    session.execute("turno")  # turn 2 is over (SYSTEMS §3.4 `over`): turn 3's initiative phase
    fight = session.fight
    report = build_report(fight)
    assert [g.title for g in report.turns] == ["Turno 1", "Turno 2", "Turno 3"]
    assert row(report, "Víctor").health == "//····· −1"
    assert "Tullido" in row(report, "Cadáver").state and "derribado (−2 ini)" in row(report, "Cadáver").state
    md = export_markdown(fight)
    assert md.startswith("# Depósito · Narrador")
    assert "| Nombre | Bando | Ini | Declarado | FV | Salud | Estado |" in md
    assert "|---|---|---:|---|---|---|---|" in md
    assert "| Cadáver | PNJ | — | — | — | XXXXXX· −5 | Tullido, derribado (−2 ini) |" in md
    assert "### Turno 2" in md
    assert "- Víctor: 2 contundente → Lastimado (−1)" in md
    page = export_html(fight)
    assert "<th>Declarado</th>" in page and "<h3>Turno 3</h3>" in page
    assert '<td class="num">—</td>' in page


def test_the_gm_export_marks_hidden_and_private_and_shows_notes():
    fight = played(step("maton actua a kara exitos=1"), hidden=("Cadáver",), private=("Matón",)).fight
    kara = fight.find("Kara")
    fight = fight.replace(evolve(kara, notes=(Note("cojea"),)))
    report = build_report(fight)
    assert "oculto" in row(report, "Cadáver").state
    assert "privado" in row(report, "Matón").state
    assert "nota: cojea" in row(report, "Kara").state


def test_the_players_export_hides_the_hidden_masks_the_private_and_the_undone():
    fight = played(step("maton actua a kara exitos=1"), hidden=("Cadáver",), private=("Matón",)).fight
    report = build_report(fight, for_players=True)
    assert [r.name for r in report.roster] == ["Kara", "Matón", "Víctor"]
    maton = row(report, "Matón")
    assert (maton.initiative, maton.declared, maton.willpower, maton.health) == ("?", "✓Disparo ?", "?", "?")
    assert "17/17" not in maton.state and "privado" not in maton.state and "Lesionado" not in maton.state
    assert row(report, "Kara").declared == "✓Disparo 6→4"  # its dodge is not done yet
    assert row(report, "Víctor").declared == "—"
    assert "Versión para los jugadores" in report.details
    for text in (export_markdown(fight, for_players=True), export_html(fight, for_players=True)):
        assert "Cadáver" not in text
        assert "XXX" not in text
        assert "Esquiva 7→4" not in text and "F. automático 17" not in text


def test_typed_texts_are_escaped():
    fight = played(step("declara kara disparo esquiva")).fight
    kara = fight.find("Kara")
    fight = fight.replace(evolve(kara, notes=(Note("<b>*ojo*</b>\x1b[2J"),)))
    md = export_markdown(fight)
    assert "\x1b" not in md and "\\*ojo\\*" in md
    page = export_html(fight)
    assert "<b>" not in page and "&lt;b&gt;" in page and "\x1b" not in page
