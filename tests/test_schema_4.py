"""Saves of schema 3, made before the reaction window, the book's limits, known
conditions and melee fatigue (tests/data/v3-*.toml, written by the code of that
time): they open, keep the state they were saved with, and are migrated on the
first write keeping the original as `.v3`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cdbtui import store

from shell import cdbtui

DATA = Path(__file__).parent / "data"


def _copy(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    shutil.copy(DATA / name, path)
    return path


def test_a_schema_3_save_whose_history_still_replays_keeps_its_whole_undo(tmp_path):
    path = _copy(tmp_path, "v3-replays.toml")
    loaded = store.read(path)
    assert loaded.schema == 3 and not loaded.edited
    session = loaded.session
    assert not session.fight.melee_fatigue  # it was played without melee fatigue
    assert len(session.lines) == 8
    # Undo walks back through the whole history, to before the first line.
    for _ in range(8):
        session.undo()
    assert session.fight.combatants == ()


def test_a_schema_3_save_that_no_longer_replays_keeps_its_state_and_says_so(tmp_path):
    path = _copy(tmp_path, "v3-changed.toml")
    original = path.read_bytes()
    loaded = store.read(path)
    assert loaded.edited and loaded.notes and "deshacer empieza aquí" in loaded.notes[0]
    x = loaded.session.fight.find("X")
    # By the old rules X's dodge came after the count moved on: it stays where it was.
    assert (x.marker, x.ac) == (3, 5)
    z = loaded.session.fight.find("Z")
    assert z.conditions == () and [n.text for n in z.notes] == ["herido-en-el-brazo"]
    shown = cdbtui("show", str(path), "--json")
    assert shown.returncode == 0 and path.read_bytes() == original


def test_a_schema_3_save_is_migrated_on_first_write_keeping_the_original(tmp_path):
    path = _copy(tmp_path, "v3-changed.toml")
    original = path.read_bytes()
    done = cdbtui("do", str(path), "z fin")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "v3-changed.toml.v3").read_bytes() == original
    assert "schema = 4\n" in path.read_text("utf-8")
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    assert [c["status"] for c in state["combatants"]][2] == "done"
    again = store.read(path)
    assert not again.edited and again.schema == 4


def _edited_save(tmp_path: Path, old: str, new: str) -> Path:
    """A schema-4 save of a short fight whose [fight] the DJ edited by hand."""
    from cdbtui.engine.session import Session

    session = Session.new("X", "cdb", 1)
    for line in ("alta Ana ac=5", "alta Bea ac=5", "momento Ana 6", "momento Bea 4",
                 "empezar", "estado Ana +aturdido turnos=2", "ana gasta 1"):
        session.execute(line)
    text = store.dumps(session)
    assert old in text
    path = tmp_path / "x.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


def test_a_hand_edited_unknown_condition_becomes_a_note_and_the_dj_is_told(tmp_path):
    path = _edited_save(tmp_path, 'conditions = ["aturdido"]', 'conditions = ["aturdido", "con-sueño"]')
    loaded = store.read(path)
    assert loaded.edited
    ana = loaded.session.fight.find("Ana")
    assert ana.conditions == ("aturdido",)
    assert [n.text for n in ana.notes] == ["con-sueño"]
    assert any("«con-sueño» de Ana" in note for note in loaded.notes)
    # What loaded can be saved and loaded again, unchanged.
    again = store.loads(store.dumps(loaded.session))
    assert again.fight.find("Ana") == ana


def test_a_hand_edited_duration_of_a_condition_nobody_has_is_dropped(tmp_path):
    path = _edited_save(tmp_path, 'conditions = ["aturdido"]', 'conditions = []')
    loaded = store.read(path)
    ana = loaded.session.fight.find("Ana")
    assert ana.conditions == () and ana.expires == ()
    assert loaded.notes and "duraciones" in loaded.notes[0]


def test_a_hand_edited_window_above_every_start_is_refused(tmp_path):
    path = _edited_save(tmp_path, "[fight.window]\nmoment = 6", "[fight.window]\nmoment = 9")
    try:
        store.read(path)
    except store.SaveError as error:
        assert "nadie empieza tan arriba" in str(error)
    else:
        raise AssertionError("a window above every start loaded")
