"""The one funnel (issue 10): `SaveFile.play(line, confirmed=...)` runs every change.

It reads house files, asks for confirmation of the DJ's own risky choices without
running anything, computes a previewed line only once, and is what `cdbtui
new`/`do`/`casa` and the fight list's writers use.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cdbtui.engine import session as session_module
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import DO, Session
from cdbtui.funnel import CONFIRM, SaveFile, house_file_line
from cdbtui.library import create_demo, create_fight, duplicate
from cdbtui.store import load

SHOOT = "disparar-armas-largas"
#: A carried shot that a dodge would abandon (RULES.md §3: the UI warns first).
CARRYING = ("alta A ac=5", "alta B ac=6", "momento A 5", "momento B 7", "empezar",
            "B gasta 6", "A gasta 3", f"A {SHOOT}", "turno")


@pytest.fixture
def applied(monkeypatch) -> list:
    """Every command the session applies from now on (the engine's `apply`, counted)."""
    calls: list = []
    real = session_module.apply

    def counting(fight, command):
        calls.append(command)
        return real(fight, command)

    monkeypatch.setattr(session_module, "apply", counting)
    return calls


@pytest.fixture
def carrying(tmp_path: Path) -> SaveFile:
    return SaveFile.start(tmp_path / "f.toml", Session.new("f", "cdb", 1), list(CARRYING))


def test_a_caution_is_asked_for_and_nothing_runs_until_confirmed(carrying):
    before, on_disk = carrying.session.fight, carrying.path.read_bytes()
    outcome = carrying.play("A esquivar", confirmed=False)
    assert outcome.kind == CONFIRM and "abandona Disparar Armas Largas" in outcome.message
    assert carrying.session.fight == before and carrying.path.read_bytes() == on_disk
    outcome = carrying.play("A esquivar", confirmed=True)
    assert outcome.kind == DO and carrying.session.fight.find("A").carried is None
    assert load(carrying.path).fight == carrying.session.fight


def test_a_line_without_cautions_runs_at_once_even_unconfirmed(carrying):
    outcome = carrying.play("B fin", confirmed=False)
    assert outcome.kind == DO


def test_previewing_cautions_then_running_applies_the_command_once(carrying, applied):
    session = carrying.session
    assert session.cautions("A esquivar")
    session.execute("A esquivar")
    assert len(applied) == 1


def test_a_house_file_named_on_the_line_is_read_by_the_funnel(tmp_path, carrying):
    house = tmp_path / "casa.toml"
    house.write_text('[[maneuver]]\nid = "cabezazo"\nname = "Cabezazo"\ncost = 2\nattack = true\n'
                     'summary = "Un golpe con la cabeza"\n', "utf-8")
    assert house_file_line(f"casa {house}").startswith("casa ")
    assert house_file_line("casa no") == "casa no"
    carrying.play(f":casa {house}")
    assert "cabezazo" in carrying.session.fight.house


def test_an_unreadable_house_file_is_a_refusal(tmp_path):
    house = tmp_path / "casa.toml"
    house.write_bytes(b"\xff\xfe")
    with pytest.raises(Refusal, match="UTF-8"):
        house_file_line(f"casa {house}")


def test_new_saves_of_the_fight_list_are_made_through_the_funnel(tmp_path):
    demo = create_demo(tmp_path)
    assert load(demo).fight.started
    party = create_fight(tmp_path, "Emboscada", "cdb", ("alta Ana ac=5 bando=pj",))
    assert [c.name for c in load(party).fight.combatants] == ["Ana"]
    copy = duplicate(party)
    assert load(copy).fight.name == "Emboscada (copia)"
    with pytest.raises(Refusal):
        create_fight(tmp_path, "Mal", "cdb", ("alta Bob ac=0",))
    assert not (tmp_path / "mal.toml").exists()


def test_a_loaded_long_history_undoes_without_replaying_it_all(tmp_path, applied, monkeypatch):
    """The save keeps a few states of the history: the first undo after a load replays
    a few dozen lines, not the whole evening (issue 9: cost that grows too fast)."""
    path = tmp_path / "larga.toml"
    lines = [f"nombre N{number}" for number in range(1_000)]
    SaveFile.start(path, Session.new("larga", "cdb", 1), lines)
    applied.clear()  # building the save applied every line: count the undo's only
    save_file = SaveFile.open(path)
    save_file.play("deshacer")
    assert save_file.session.fight.name == "N998"
    assert len(applied) <= 128
    monkeypatch.undo()
    assert load(path).fight.name == "N998"


def test_undo_and_redo_through_the_funnel_say_which_line(carrying):
    """What the TUI and `cdbtui do` show after an undo: the saved line taken back."""
    carrying.play("B fin")
    undone = carrying.play("deshacer")
    assert undone.message == "Deshecho: B fin" and undone.line == "B fin"
    redone = carrying.play(":rehacer")
    assert redone.message == "Rehecho: B fin"
    assert load(carrying.path).fight == carrying.session.fight
