"""The saves folder (cdbtui/library.py) and the party roster (cdbtui/roster.py)."""

from __future__ import annotations

import os
import time

import pytest

from cdbtui import files
from cdbtui import library, roster, store
from cdbtui.engine.errors import Refusal
from cdbtui.files import SaveError
from cdbtui.funnel import SaveFile
from fights import demo_lines, play


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "saves"
    path.mkdir()
    return path


def test_the_folder_comes_from_the_option_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(library.ENVIRONMENT, raising=False)
    assert library.saves_folder() == library.DEFAULT_FOLDER
    monkeypatch.setenv(library.ENVIRONMENT, str(tmp_path))
    assert library.saves_folder() == tmp_path
    assert library.saves_folder("otra") == library.Path("otra")


def test_entries_show_name_rules_turn_and_size_newest_first(folder):
    old = folder / "viejo.toml"
    store.create(old, play(*demo_lines()))
    past = time.time() - 3600
    os.utime(old, (past, past))
    new = library.create_fight(folder, "Noche en Tánger", "walkure")
    (folder / "roto.toml").write_text("[[", "utf-8")
    os.utime(folder / "roto.toml", (past - 10, past - 10))
    found = library.entries(folder)
    assert [e.path for e in found] == [new, old, folder / "roto.toml"]
    assert (found[0].name, found[0].rules_es, found[0].turn, found[0].combatants) == (
        "Noche en Tánger", "Walküre", 0, 0)
    assert (found[1].name, found[1].turn, found[1].combatants) == (
        "Emboscada en el puerto", 1, 4)
    assert found[2].problem and "TOML" in found[2].problem


def test_an_entry_with_a_pending_journal_is_read_exactly(folder):
    path = folder / "f.toml"
    store.create(path, play(*demo_lines()[:-1]))  # not started yet
    save_file = SaveFile.open(path)
    save_file.record(save_file.session.execute("empezar"))
    assert library.describe(path).turn == 1  # the summary says 0; the journal says 1


def test_backups_the_roster_and_the_trash_are_not_listed(folder):
    path = folder / "f.toml"
    store.create(path, play())
    store.save(path, play())  # makes f.toml.bak
    roster.put_member(folder, roster.member_from_line("alta Mike ac=7"))
    library.trash(library.create_fight(folder, "Basura", "cdb"))
    assert library.list_saves(folder) == [path]


def test_duplicate_makes_an_independent_copy_with_history(folder):
    path = folder / "puerto.toml"
    store.create(path, play(*demo_lines()))
    copy = library.duplicate(path)
    assert copy == folder / "puerto-copia.toml"
    original, duplicate = store.load(path), store.load(copy)
    assert duplicate.fight.name == "Emboscada en el puerto (copia)"
    assert duplicate.fight.combatants == original.fight.combatants
    duplicate.undo()  # the rename
    assert duplicate.fight == original.fight
    assert library.duplicate(path) == folder / "puerto-copia-2.toml"


def test_rename_changes_the_fight_and_the_file_with_its_backup(folder):
    path = folder / "puerto.toml"
    store.create(path, play(*demo_lines()))
    store.save(path, store.load(path))  # a .bak exists
    target = library.rename(path, "La Noche del Puerto")
    assert target == folder / "la-noche-del-puerto.toml"
    assert not path.exists() and not files.backup_path(path).exists()
    assert files.backup_path(target).exists()
    renamed = store.load(target)
    assert renamed.fight.name == "La Noche del Puerto"
    renamed.undo()
    assert renamed.fight.name == "Emboscada en el puerto"


def test_rename_refuses_to_clobber_another_fight(folder):
    one = library.create_fight(folder, "Uno", "cdb")
    library.create_fight(folder, "Dos", "cdb")
    before = one.read_bytes()
    with pytest.raises(SaveError, match="ya existe dos.toml"):
        library.rename(one, "Dos")
    assert one.read_bytes() == before


def test_trash_moves_the_fight_and_its_companions_never_erases(folder):
    path = folder / "puerto.toml"
    store.create(path, play(*demo_lines()))
    store.save(path, store.load(path))
    content = path.read_bytes()
    where = library.trash(path)
    assert not path.exists() and not files.backup_path(path).exists()
    assert where.parent == folder / library.TRASH
    assert where.read_bytes() == content
    assert files.backup_path(where).exists()
    assert store.load(where).fight.name == "Emboscada en el puerto"


def test_the_demo_is_the_books_example_and_never_overwrites(folder):
    first = library.create_demo(folder)
    second = library.create_demo(folder)
    assert (first.name, second.name) == ("puerto.toml", "puerto-2.toml")
    fight = store.load(first).fight
    assert [c.name for c in fight.combatants] == ["Mike", "Sven", "Soldado 1", "Soldado 2"]


# ---------------------------------------------------------------- the party


def test_the_roster_round_trips_and_makes_alta_lines(folder):
    roster.put_member(folder, roster.member_from_line(
        "alta Mike ac=7 ini=4 agi=4 hab=5 talentos=punteria-zen"))
    roster.put_member(folder, roster.member_from_line('alta "Sven el Rojo" ac=5 vida=2,2,2,1,1'))
    assert roster.party_lines(folder) == [
        "alta Mike ac=7 ini=4 agi=4 hab=5 bando=pj talentos=punteria-zen",
        'alta "Sven el Rojo" ac=5 bando=pj vida=2,2,2,1,1',
    ]
    assert roster.party_lines(folder, present=("mike",)) == [
        'alta "Sven el Rojo" ac=5 bando=pj vida=2,2,2,1,1']


def test_putting_a_member_again_replaces_it(folder):
    assert roster.put_member(folder, roster.member_from_line("alta Mike ac=7")) is True
    assert roster.put_member(folder, roster.member_from_line("alta mike ac=8")) is False
    assert [m.ac for m in roster.load_roster(folder)] == [8]
    roster.remove_member(folder, "MIKE")
    assert roster.load_roster(folder) == []
    with pytest.raises(Refusal, match="no está en el grupo"):
        roster.remove_member(folder, "Mike")


def test_a_member_from_a_fight_keeps_its_sheet_not_its_state(folder):
    session = play(*demo_lines(), "dano Mike 3", "estado Mike +agarrado")
    member = roster.member_from_combatant(session.fight.find("Mike"))
    assert member.line() == "alta Mike ac=7 ini=4 agi=4 ate=3 hab=5 mov=4 bando=pj talentos=punteria-zen"


def test_a_new_fight_with_the_party_has_it_and_can_undo_it(folder):
    roster.put_member(folder, roster.member_from_line("alta Mike ac=7 ini=4"))
    path = library.create_fight(folder, "Con grupo", "cdb", tuple(roster.party_lines(folder)))
    session = store.load(path)
    assert session.fight.find("Mike").is_pc
    session.undo()
    assert session.fight.find("Mike") is None


@pytest.mark.parametrize("text, message", [
    ("[[pj]]\nname = 3\nac = 7\n", "se esperaba un texto"),
    ("[[pj]]\nname = \"A\"\n", "falta el campo «ac»"),
    ("[[pj]]\nname = \"A\"\nac = 7\nvuela = true\n", "campo desconocido «vuela»"),
    ("[[pj]]\nname = \"A\"\nac = 7\n[[pj]]\nname = \"a\"\nac = 5\n", "repetido"),
    ("[[pj]\n", "TOML no es válido"),
    ("otra = 1\n", "solo una lista"),
])
def test_a_broken_roster_says_what_is_wrong(folder, text, message):
    roster.roster_path(folder).write_text(text, "utf-8")
    with pytest.raises(SaveError, match=message):
        roster.load_roster(folder)


def test_a_roster_line_must_be_an_alta(folder):
    with pytest.raises(Refusal, match="alta"):
        roster.member_from_line("baja Mike")
    with pytest.raises(Refusal, match="ac"):
        roster.member_from_line("alta Mike")  # no ac=
