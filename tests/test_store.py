"""Saves (cdbtui/store.py): TOML round trip, atomic writes, clear Spanish errors."""

from __future__ import annotations

import os
import tomllib

import pytest

from cdbtui import files, store
from cdbtui.engine.model import Status
from cdbtui.store import SaveError

SHOOT = "disparar-armas-largas"


@pytest.fixture
def played(demo):
    """The demo fight a few moves in: a carried maneuver, a holder, a roll, damage, an undo."""
    for line in [f"Mike {SHOOT}", '"Soldado 1" ponerse-a-cubierto', "Sven retrasa",
                 'dano "Soldado 2" 4 rd=1', "estado Mike +agarrado", "nombre Puerto, noche",
                 "alta Extra ac=4 oculto talentos=gun-kata", "tirar Extra", "Sven actua",
                 "Sven gasta 4 corre", "deshacer"]:
        demo.execute(line)
    return demo


def test_round_trip_gives_an_equal_fight_and_history(played, tmp_path):
    path = tmp_path / "fight.toml"
    store.save(path, played)
    loaded = store.load(path)
    assert loaded.fight == played.fight
    assert loaded.base == played.base
    assert loaded.lines == played.lines
    assert loaded.redo_lines == played.redo_lines == ["Sven gasta 4 corre"]
    assert store.dumps(loaded) == store.dumps(played)


def test_the_save_is_readable_toml_with_the_current_state(played):
    document = tomllib.loads(store.dumps(played))
    assert document["app"] == "cdbtui" and document["schema"] == store.schema_for("cdb")
    assert document["summary"] == {"name": "Puerto, noche", "rules": "cdb", "turn": 1,
                                   "combatants": 5, "hidden": 1}
    assert document["history"]["end"] is True
    assert document["fight"]["name"] == "Puerto, noche"
    names = [c["name"] for c in document["fight"]["combatants"]]
    assert names == ["Mike", "Sven", "Soldado 1", "Soldado 2", "Extra"]


def test_redo_after_reload_replays_the_same_state(played, tmp_path):
    path = tmp_path / "fight.toml"
    played.execute("rehacer")
    expected = played.fight
    played.execute("deshacer")
    store.save(path, played)
    loaded = store.load(path)
    loaded.execute("rehacer")
    assert loaded.fight == expected
    assert loaded.fight.find("Sven").marker == 1  # held from 5 to… acts at 5: 5 − 4


def test_undo_works_after_reload_by_replaying_lazily(played, tmp_path):
    path = tmp_path / "fight.toml"
    store.save(path, played)
    loaded = store.load(path)
    assert loaded.states[1:-1] == [None] * (len(loaded.lines) - 1)  # nothing replayed yet
    expected = []
    while played.can_undo:
        expected.append(played.undo().fight)
    for fight in expected:
        assert loaded.undo().fight == fight
    assert not loaded.can_undo
    assert loaded.fight.combatants == ()


def test_atomic_write_leaves_no_temp_files(played, tmp_path):
    path = tmp_path / "fight.toml"
    store.save(path, played)
    store.save(path, played)  # overwrite in place: the old version becomes the .bak
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.toml", "fight.toml.bak"]


def test_atomic_write_failure_keeps_the_old_file_and_cleans_up(played, tmp_path, monkeypatch):
    path = tmp_path / "fight.toml"
    store.save(path, played)
    old = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(SaveError, match="no se puede guardar"):
        store.save(path, played)
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.toml"]


def test_the_previous_version_is_kept_as_bak(played, tmp_path):
    path = tmp_path / "fight.toml"
    store.save(path, played)
    first = path.read_bytes()
    played.execute("rehacer")
    store.save(path, played)
    assert files.backup_path(path).read_bytes() == first
    assert store.load(files.backup_path(path)).redo_lines == ["Sven gasta 4 corre"]
    assert store.load(path).redo_lines == []


def test_create_refuses_to_overwrite(played, tmp_path):
    path = tmp_path / "fight.toml"
    store.create(path, played)
    with pytest.raises(SaveError, match="ya existe"):
        store.create(path, played)


def test_corrupted_file_gives_a_spanish_save_error(tmp_path):
    path = tmp_path / "roto.toml"
    path.write_text('schema = 2\napp = "cdbtui"\n[fight\nname = ', "utf-8")
    with pytest.raises(SaveError, match=r"roto\.toml: línea 3, columna 7: el TOML no es válido"):
        store.load(path)


def test_binary_garbage_gives_a_save_error(tmp_path):
    path = tmp_path / "basura.toml"
    path.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(SaveError, match="basura.toml: línea 1: no es texto UTF-8"):
        store.load(path)


def test_foreign_toml_gives_a_spanish_save_error(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "otra cosa"\n', "utf-8")
    with pytest.raises(SaveError, match="no es una partida de cdbtui"):
        store.load(path)


def test_newer_version_gives_a_spanish_save_error(played, tmp_path):
    path = tmp_path / "nueva.toml"
    path.write_text(store.dumps(played).replace("schema = 4", "schema = 99", 1), "utf-8")
    with pytest.raises(SaveError, match="versión más nueva"):
        store.load(path)


def test_damaged_save_gives_a_spanish_save_error(played):
    text = store.dumps(played)
    with pytest.raises(SaveError, match="status: valor desconocido 'bailando'"):
        store.loads(text.replace('status = "acted"', 'status = "bailando"', 1))
    with pytest.raises(SaveError, match="falta la sección \\[history\\]"):
        store.loads(text.replace("[history]", "[historia]"))
    with pytest.raises(SaveError, match="reglas desconocidas"):
        store.loads(text.replace('[fight]\nname = "Puerto, noche"\nrules = "cdb"',
                                 '[fight]\nname = "Puerto, noche"\nrules = "d20"', 1))


def test_missing_file_gives_a_spanish_save_error(tmp_path):
    with pytest.raises(SaveError, match="no existe"):
        store.load(tmp_path / "nada.toml")


def test_round_trip_keeps_statuses_carried_and_conditions(demo, tmp_path):
    for line in ["Mike gasta 6", '"Soldado 1" fin', "Sven fin", '"Soldado 2" fin',
                 f"Mike {SHOOT}", "estado Sven +agarrado", "estado Mike +a-cubierto"]:
        demo.execute(line)
    loaded = store.loads(store.dumps(demo))
    mike = loaded.fight.find("Mike")
    assert (mike.status, mike.carried.remaining, mike.conditions) == (Status.DONE, 2, ("a-cubierto",))
    assert loaded.fight.find("Sven").conditions == ("agarrado",)
    assert loaded.fight == demo.fight


def test_awkward_names_survive_save_and_undo(session, tmp_path):
    s = session('alta "O\'Brien \\"el Rojo\\"" ac=5', "alta Bo ac=4", 'momento "O\'Brien" 3',
                "momento Bo 2", "empezar", '"O\'" gasta 1 "grita \\"¡ya!\\""')
    path = tmp_path / "raro.toml"
    store.save(path, s)
    loaded = store.load(path)
    assert loaded.fight == s.fight
    loaded.undo()
    loaded.undo()
    assert loaded.fight.turn == 0
    loaded.redo()
    loaded.redo()
    assert loaded.fight == s.fight


def test_saves_get_normal_permissions_and_keep_them(tmp_path):
    import os
    import stat

    from cdbtui.engine.session import Session
    from cdbtui.store import save

    path = tmp_path / "permisos.toml"
    save(path, Session.new())
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    path.chmod(0o640)
    save(path, Session.new())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
