"""What players see (view.py, pure): hidden PNJ leave no trace, private PNJ numbers
are `?`, the countdown follows the no-gap rule, the PJ strip and the filtered log."""

from __future__ import annotations

from pathlib import Path

import pytest

from cdbtui.engine.model import Status
from cdbtui.engine.rules import queue
from cdbtui.players import (
    pc_rows,
    player_banner,
    player_headline,
    player_log,
    player_moment,
    player_queue,
    player_view,
    players_fight,
    visible,
)
from cdbtui.view import build_sheet, countdown_parts, sheet_lines
from cdbtui.engine.session import Session

# Local helpers: `conftest` names two modules (tests/ and tests/tui/), so importing
# from it here would depend on which one a run loaded first.
DEMO = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"


def demo_lines() -> list[str]:
    """The bundled demo fight's command lines (set up and started)."""
    lines = (line.strip() for line in DEMO.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def play(*lines: str) -> Session:
    """A new session after executing `lines`."""
    session = Session.new()
    for line in lines:
        session.execute(line)
    return session

#: Mike (7) and Sven (4) against a hidden Ninja who starts at 6, between them.
AMBUSH = (
    "alta Mike ac=7 agi=4 bando=pj",
    "alta Sven ac=5 agi=3 bando=pj",
    "alta Ninja ac=4 agi=5 oculto",
    "momento Mike 7",
    "momento Ninja 6",
    "momento Sven 4",
    "empezar",
)


def board(fight) -> tuple:
    """Everything a player reads, to compare two moments of a fight."""
    seen = players_fight(fight)
    return (
        sheet_lines(build_sheet(seen, for_players=True)),
        build_sheet(seen, for_players=True),
        player_headline(fight),
        player_queue(fight),
        player_banner(fight),
        pc_rows(fight),
        player_log(fight),
    )


def text_of(fight) -> str:
    """All the text of the players' board, to look for names that should not be there."""
    lines, _, headline, line, banner, pcs, log = board(fight)
    return "\n".join([*lines, headline, line, repr(banner), repr(pcs), *map(str, log)])


# ---------------------------------------------------------------- hidden PNJ


def test_visible_leaves_out_hidden_pnj_only():
    fight = play(*AMBUSH).fight
    assert [c.name for c in visible(fight)] == ["Mike", "Sven"]
    assert [c.name for c in players_fight(fight).combatants] == ["Mike", "Sven"]


def test_a_hidden_pnj_appears_nowhere_in_what_players_read():
    fight = play(*AMBUSH, 'mike espera "que se mueva el ninja"', '"ninja" esquivar').fight
    assert "ninja" not in text_of(fight).casefold()
    assert "Ninja" in "\n".join(str(e) for e in fight.log)  # the DJ's log does name it


def test_moment_rows_come_from_visible_combatants_only():
    """A hidden PNJ starting above everyone adds no rows on top of the players' sheet."""
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Ninja ac=6 oculto",
        "momento Mike 7", "momento Ninja 12", "empezar",
    ).fight
    assert fight.moment == 12 and [c.name for c in queue(fight)] == ["Ninja"]
    sheet = build_sheet(players_fight(fight), for_players=True)
    assert sheet.moments[0] == 7
    assert sheet.current == 7
    assert [c.name for c in sheet.columns] == ["Mike"]


# ---------------------------------------------------------------- the no-gap rule


def test_a_queue_of_only_hidden_pnj_shows_the_next_visible_moment():
    fight = play(*AMBUSH, "mike disparar-armas-largas").fight  # Mike → 4; Ninja at 6
    assert fight.moment == 6 and [c.name for c in queue(fight)] == ["Ninja"]
    assert player_moment(fight) == 4
    assert player_headline(fight) == "Turno 1 · Momento 4 · Actúa: Sven"
    assert player_queue(fight) == "Cola: Sven → Mike"
    sheet = build_sheet(players_fight(fight), for_players=True)
    assert sheet.current == 4
    assert [c.name for c in sheet.columns if c.heads_queue] == ["Sven"]


def test_with_a_visible_combatant_in_the_queue_the_real_moment_shows():
    fight = play(
        "alta Mike ac=7 agi=4 bando=pj", "alta Ninja ac=4 agi=5 oculto",
        "momento Mike 7", "momento Ninja 7", "empezar",
    ).fight
    assert [c.name for c in queue(fight)] == ["Ninja", "Mike"]
    assert player_moment(fight) == 7
    assert player_headline(fight) == "Turno 1 · Momento 7 · Actúa: Mike"
    assert player_queue(fight) == "Cola: Mike"


@pytest.mark.parametrize("hidden_move", [
    "ninja fin", "ninja gasta 1", "ninja gasta 2", "ninja esquivar", "siguiente",
])
@pytest.mark.parametrize("visible_setup", [
    ("mike espera algo",), ("mike retrasa",), ("mike disparar-armas-largas",), ("mike fin",),
])
def test_a_hidden_pnj_acting_alone_changes_nothing_players_see(visible_setup, hidden_move):
    """The rule's point: the board before and after a hidden-only moment is the same.

    (The log may gain a line when the real countdown reaches the visible moment:
    the engine's "Orden: …" tie note is written then, not when players first see it.)
    """
    before = play(*AMBUSH, *visible_setup).fight
    assert [c.name for c in queue(before)] == ["Ninja"]
    after = play(*AMBUSH, *visible_setup, hidden_move).fight
    assert after != before
    assert board(after)[:6] == board(before)[:6]


def test_followers_move_with_the_countdown_players_see():
    """Holders and waiters are shown where the engine will put them at that moment."""
    waiting = players_fight(play(*AMBUSH, "mike espera algo").fight)
    mike = waiting.find("Mike")
    assert (mike.marker, mike.ac, mike.status) == (4, 4, Status.WAITING)
    holding = players_fight(play(*AMBUSH, "mike retrasa").fight)
    mike = holding.find("Mike")
    assert (mike.marker, mike.ac, mike.status) == (4, 7, Status.HOLDING)


def test_when_every_visible_combatant_is_done_the_turn_is_over_for_players():
    fight = play(*AMBUSH, "mike fin", "sven fin").fight
    assert not fight.turn_over and [c.name for c in queue(fight)] == ["Ninja"]
    assert player_moment(fight) is None
    assert player_headline(fight) == "Turno 1 · turno terminado"
    assert player_queue(fight) == "Cola: —"
    # ... and a real end of turn reads exactly the same.
    done = play(*AMBUSH, "mike fin", "sven fin", "ninja fin").fight
    assert done.turn_over
    assert board(done)[:6] == board(fight)[:6]


def test_quick_initiative_shows_the_next_visible_go_for_a_hidden_actor():
    fight = play(
        "rapida si", "alta Mike ac=7 bando=pj", "alta Ninja ac=4 oculto",
        "alta Sven ac=5 bando=pj", "momento Mike 3", "momento Ninja 9",
        "momento Sven 5", "empezar",
    ).fight
    assert fight.actor == "Ninja"
    seen = players_fight(fight)
    assert seen.actor == "Sven" and player_moment(fight) == 5
    assert player_headline(fight) == "Turno 1 · Iniciativa rápida · Actúa: Sven"


def test_players_fight_is_idempotent():
    for lines in (AMBUSH, (*AMBUSH, "mike espera algo"), (*AMBUSH, "mike fin", "sven fin"),
                  demo_lines()):
        once = players_fight(play(*lines).fight)
        assert players_fight(once) == once


def test_without_hidden_pnj_the_players_see_the_djs_countdown():
    fight = play(*demo_lines(), "mike disparar-armas-largas").fight
    assert player_moment(fight) == fight.moment
    assert player_headline(fight) == " · ".join(countdown_parts(fight, whole_queue=False))


# ---------------------------------------------------------------- private PNJ


def test_private_pnj_numbers_are_question_marks_on_the_sheet():
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Bruto ac=4 privado",
        "momento Mike 7", "momento Bruto 5", "empezar", "mike fin", "bruto gasta 2",
        "bruto disparar-armas-largas",  # 3 AC with 2 left: carries 1 to next turn
    ).fight
    dj = "\n".join(sheet_lines(build_sheet(fight)))
    players = "\n".join(sheet_lines(build_sheet(players_fight(fight), for_players=True)))
    assert "● 0┊1" in dj
    assert "● ?┊?" in players and "┊1" not in players


def test_private_pnj_log_entries_with_numbers_are_dropped():
    fight = play(*demo_lines(), "mike disparar-armas-largas", '"soldado 1" cubierto',
                 "sven disparar-armas-largas", '"soldado 1" disparar-armas-largas',
                 '"soldado 2" retrasa').fight
    texts = [e.text for e in player_log(fight)]
    assert "Soldado 2 retrasa su acción (sigue la cuenta sin gastar)" in texts
    assert not any("Soldado 2" in t and any(ch.isdigit() for ch in t.replace("Soldado 2", ""))
                   for t in texts)
    assert "Alta de Soldado 1 (PNJ, 6 AC)" in texts  # not private: kept
    assert any("Alta de Soldado 2" in str(e) for e in fight.log)


def test_the_pj_strip_never_holds_a_pnj():
    fight = play(*demo_lines()).fight
    assert [row.name for row in pc_rows(fight)] == ["Mike", "Sven"]


# ---------------------------------------------------------------- the PJ strip


def test_pc_rows_show_ac_left_per_turn_and_status():
    fight = play(*demo_lines(), "mike disparar-armas-largas").fight
    mike, sven = pc_rows(fight)
    assert (mike.ac_text, mike.pips, mike.status) == ("4 / 7", "●●●●○○○", "ha actuado")
    assert (sven.ac_text, sven.status, sven.heads_queue) == ("5 / 5", "por actuar", False)
    assert not mike.heads_queue and not mike.in_queue


def test_pc_rows_mark_who_acts_and_who_is_done():
    fight = play(*demo_lines(), "mike fin").fight
    mike, _ = pc_rows(fight)
    assert mike.done and mike.status == "terminado" and mike.ac_text == "0 / 7"
    start = play(*demo_lines()).fight
    assert pc_rows(start)[0].heads_queue


def test_pc_rows_before_the_fight_show_ac_per_turn():
    fight = play("alta Mike ac=7 bando=pj").fight
    (mike,) = pc_rows(fight)
    assert (mike.ac_text, mike.status) == ("7 / 7", "preparación")


def test_pips_are_left_out_for_huge_budgets():
    (row,) = pc_rows(play("alta Titan ac=20 bando=pj").fight)
    assert row.pips == ""


# ---------------------------------------------------------------- the log


def test_log_drops_entries_naming_a_hidden_pnj_with_accents_and_case_folded():
    fight = play(
        "alta Mike ac=7 bando=pj", "alta Élfica ac=5 oculto", "momento Mike 7",
        "momento Élfica 3", "empezar", 'mike espera "si la ELFICA se mueve"',
    ).fight
    texts = [e.text for e in player_log(fight)]
    assert texts and not any("lfica" in t.casefold() for t in texts)


def test_log_forgets_a_removed_combatant_who_may_have_been_hidden():
    fight = play(*AMBUSH, "baja Ninja").fight
    assert not any("Ninja" in e.text for e in player_log(fight))
    assert any("Baja de Ninja" == e.text for e in fight.log)


def test_log_matches_whole_names_longest_first():
    hidden_short = play('alta "Soldado 1" ac=5', "alta Soldado ac=5 oculto").fight
    assert [e.text for e in player_log(hidden_short)][-1] == "Alta de Soldado 1 (PNJ, 5 AC)"
    hidden_long = play("alta Soldado ac=5", 'alta "Soldado 1" ac=5 oculto').fight
    assert [e.text for e in player_log(hidden_long)][-1] == "Alta de Soldado (PNJ, 5 AC)"


def test_log_entries_lose_their_moment_and_limit_keeps_the_newest():
    fight = play(*demo_lines(), "mike disparar-armas-largas").fight
    log = player_log(fight, limit=2)
    assert len(log) == 2 and log[-1].text.startswith("Mike: Disparar Armas Largas")
    assert all(e.moment is None for e in log)
    assert str(log[-1]).startswith("T1 · Mike")
    assert player_log(fight, limit=0) == ()


# ---------------------------------------------------------------- the whole view


def test_player_view_gathers_the_pieces_and_the_banner():
    fight = play(*demo_lines(), "mike disparar-armas-largas", '"soldado 1" cubierto').fight
    view = player_view(fight, log_lines=3)
    assert view.headline == "Turno 1 · Momento 5 · Actúa: Sven"
    assert view.queue == "Cola: Sven → Soldado 1"
    assert (view.banner.turn, view.banner.moment, view.banner.actor, view.banner.later) == (
        "Turno 1", "5", "Sven", "luego Soldado 1")
    assert len(view.log) == 3
    assert [r.name for r in view.pcs] == ["Mike", "Sven"]


def test_banner_before_the_start_and_at_the_end_of_a_turn():
    setup = player_banner(play("nombre Asalto", "alta Mike ac=7 bando=pj").fight)
    assert (setup.turn, setup.moment, setup.note) == ("Preparación", "", "Asalto")
    over = player_banner(play(*AMBUSH, "mike fin", "sven fin").fight)
    assert (over.moment, over.note, over.actor) == ("", "turno terminado", "")
