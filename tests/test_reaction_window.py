"""RULES.md §3 "The reaction window": a reaction or an interrupt answers the action
that provoked it at that action's moment, even after the countdown moved on by
itself; the window stays open through reactions, interrupts, damage, healing,
conditions, notes and reveals, and anything else closes it."""

from __future__ import annotations

import json

import pytest

from cdbtui.engine.catalog import catalog
from cdbtui.engine.errors import Refusal
from fights import EXAMPLE_TURN_1, logged, play, refused
from shell import cdbtui

HOLD_AND_SHOOT = (
    "alta X ac=6 momento=7 agi=5",
    "alta Y ac=6 momento=7",
    "alta Z ac=6 momento=4",
    "empezar",
    "x retrasa",
    "y disparar-armas-largas a x",
)


def cells(s, name):
    c = s.fight.find(name)
    return c.marker, c.ac, c.status.value


# ---------------------------------------------------------------- the two examples


def test_a_holder_dodging_a_shot_at_its_moment_ends_one_below_it():
    """X holds at 7 and Y, also at 7, shoots X: X's dodge puts X at 6 (not at the next
    occupied moment minus 1)."""
    s = play(*HOLD_AND_SHOOT)
    assert s.fight.moment == 4 and s.fight.window.moment == 7  # the count moved on by itself
    s.execute("x esquivar")
    assert cells(s, "X") == (6, 5, "acted")
    assert s.fight.moment == 6  # then the countdown moves on again, from 7: X is next, at 6
    dodge = next(e for e in s.fight.log if e.text.startswith("X: Esquivar, reacción"))
    assert dodge.moment == 7 and dodge.text.endswith("→ momento 6")


def test_a_waiter_interrupting_pays_only_for_the_moments_passed_up_to_the_trigger():
    """W waits at 7 for Y to move; Y moves at 7; W interrupts with a 3-AC shot: W ends
    at 4 with 3 AC left (it paid nothing for waiting)."""
    s = play("alta W ac=6 momento=7 agi=5", "alta Y ac=6 mov=4 momento=7", "alta Z ac=6 momento=2",
             "empezar", "w espera que Y se mueva", "y mover 2")
    assert s.fight.moment < 7  # the count moved on and W paid for the moments passed
    assert s.fight.find("W").ac < 6
    s.execute("w interrumpe disparar-armas-largas")
    assert cells(s, "W") == (4, 3, "acted")


# ---------------------------------------------------------------- what the window keeps


def test_when_nothing_was_skipped_the_window_changes_nothing():
    s = play("alta A ac=6 momento=7 agi=5", "alta B ac=6 momento=7", "alta C ac=6 momento=3",
             "empezar", "a disparar-armas-largas")
    assert s.fight.moment == 7 and s.fight.window.moment == 7  # B still acts at 7
    s.execute("c esquivar")
    assert cells(s, "C") == (2, 5, "acted")  # min(3, 7) − 1, as without a window


def test_a_carried_maneuver_that_would_complete_further_down_is_lost_to_the_reaction():
    s = play("alta Mike ac=7 momento=5", "alta Sold ac=6 momento=7", "empezar", "sold fin",
             "mike disparar-armas-largas", "mike apuntar", "mike disparar-armas-largas", "turno")
    assert s.fight.find("Mike").carried.remaining == 1
    s.execute("sold disparar-armas-largas a mike")
    # The count moved on to 5, where Mike completed his shot by itself...
    assert s.fight.find("Mike").carried is None and s.fight.window.moment == 7
    s.execute("mike esquivar")
    # ...but the dodge answers the shot at 7, when the carried shot was still pending.
    mike = s.fight.find("Mike")
    assert logged(s, "Mike abandona Disparar Armas Largas")
    assert (mike.marker, mike.ac, mike.carried) == (4, 6, None)  # min(5, 7) − 1, from 7 AC


def test_the_window_stays_open_through_damage_conditions_notes_and_reveals():
    s = play(*HOLD_AND_SHOOT, "dano x 1", "estado x +a-cubierto", "nota x le sangra la nariz")
    assert s.fight.window.moment == 7
    s.execute("x esquivar")
    assert cells(s, "X") == (6, 5, "acted")


@pytest.mark.parametrize("closing", ["siguiente", "x fin", "z retrasa", "alta Nuevo ac=3",
                                     "blancos y 1", "turno"])
def test_anything_else_closes_the_window(closing):
    s = play(*HOLD_AND_SHOOT, closing)
    assert s.fight.window is None


def test_another_action_at_the_current_moment_closes_the_window_and_opens_its_own():
    s = play(*HOLD_AND_SHOOT, "z disparar-armas-largas")
    assert s.fight.window is not None and s.fight.window.moment == 4
    s.execute("x esquivar")  # now at 4: the dodge answers Z's shot
    assert cells(s, "X")[0] == 3


def test_interrupt_ahora_happens_at_the_current_moment_and_closes_the_window():
    lines = ("alta Hal ac=6 momento=7 agi=5", "alta Y ac=6 momento=7", "alta Z ac=6 momento=4",
             "empezar", "hal espera la señal", "y disparar-armas-largas")
    in_window = play(*lines, "hal interrumpe disparar-armas-cortas")
    now = play(*lines, "hal interrumpe disparar-armas-cortas ahora")
    cost = catalog("cdb").get("disparar-armas-cortas").cost
    # In the window: at 7, having paid nothing.  Ahora: at 4, having paid 3 moments.
    assert cells(in_window, "Hal")[:2] == (7 - cost, 6 - cost)
    assert cells(now, "Hal")[:2] == (4 - cost, 6 - 3 - cost)
    assert now.fight.window is None  # «ahora» closes the window
    assert in_window.fight.window is not None


def test_undo_reopens_the_window_exactly_as_it_was():
    s = play(*HOLD_AND_SHOOT)
    opened = s.fight
    s.execute("x esquivar")
    s.execute("deshacer")
    assert s.fight == opened and s.fight.window == opened.window


def test_a_reaction_refused_in_the_window_changes_nothing():
    s = play(*HOLD_AND_SHOOT, *["x esquivar"] * 6)
    assert s.fight.find("X").ac == 0
    refused(s, "x esquivar", "no tiene AC")


# ---------------------------------------------------------------- the book's table


def test_the_books_table_with_every_reaction_typed_after_its_action():
    """RULES.md §7: Soldado 1 takes cover at moment 7, right after Mike's shot, though
    the count had already moved to 6 by itself; every cell of the table holds."""
    s = play("alta Mike ac=7 agi=4 bando=pj momento=7", "alta Sven ac=5 agi=3 bando=pj momento=5",
             'alta "Soldado 1" ac=6 agi=3 momento=6',
             'alta "Soldado 2" ac=5 agi=3 momento=4', "empezar")
    rows = iter([
        {"Mike": (4, 4), "Soldado 1": (6, 6)},
        {"Soldado 1": (5, 5)},  # its cover lands at 7, the action it answers
        {"Sven": (2, 2)},
        {"Soldado 2": (3, 4)},
        {"Soldado 1": (2, 2)},
        {"Mike": (3, 3)},
        {"Mike": (1, 1)},
        {"Soldado 2": (0, 1)},
        {"Sven": (0, 0)},
        {"Soldado 1": (0, 0)},
        {"Mike": (0, 0)},
        {"Soldado 2": (-1, 0)},
    ])
    for line in EXAMPLE_TURN_1:
        s.execute(line)
        for name, cell in next(rows).items():
            assert cells(s, name)[:2] == cell, (line, name)
    cover = next(e for e in s.fight.log if e.text.startswith("Soldado 1: Ponerse a Cubierto"))
    assert cover.moment == 7
    assert s.fight.find("Sven").carried.remaining == 1
    assert s.fight.find("Mike").carried.remaining == 2
    assert s.fight.find("Soldado 2").carried.remaining == 2


# ---------------------------------------------------------------- through the CLI


def test_the_json_gives_the_open_window(tmp_path):
    path = tmp_path / "w.toml"
    assert cdbtui("new", str(path)).returncode == 0
    assert cdbtui("do", str(path), *HOLD_AND_SHOOT).returncode == 0
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    assert state["window"] == 7 and state["moment"] == 4
    assert cdbtui("do", str(path), "siguiente").returncode == 0
    assert json.loads(cdbtui("show", str(path), "--json").stdout)["window"] is None


def test_a_reaction_in_the_window_survives_save_and_load(tmp_path):
    path = tmp_path / "w.toml"
    assert cdbtui("new", str(path)).returncode == 0
    assert cdbtui("do", str(path), *HOLD_AND_SHOOT).returncode == 0
    # A second process: the window was saved with the fight.
    assert cdbtui("do", str(path), "x esquivar").returncode == 0
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    x = next(c for c in state["combatants"] if c["name"] == "X")
    assert (x["marker"], x["ac"]) == (6, 5)


def test_every_reaction_of_the_catalog_is_applied_in_the_window():
    reactions = [m.id for m in catalog("cdb").maneuvers if m.reaction and not m.talents]
    assert "esquivar" in reactions and "ponerse-a-cubierto" in reactions
    for reaction in reactions:
        s = play(*HOLD_AND_SHOOT)
        try:
            s.execute(f"x {reaction}")
        except Refusal:  # a reaction that needs something X lacks
            continue
        x = s.fight.find("X")
        assert x.marker == 7 - (6 - x.ac), reaction


def test_an_action_that_ends_the_turn_opens_no_window_and_the_turn_end_stays_logged():
    s = play("alta X ac=6 momento=7", "alta Y ac=3 momento=7", "empezar", "x fin",
             "y disparar-armas-largas a x")
    assert s.fight.turn_over and s.fight.window is None
    s.execute("nota x herido en el brazo")
    assert logged(s, "Fin del turno 1: todos han terminado")
