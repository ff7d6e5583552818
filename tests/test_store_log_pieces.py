"""A long log is read a piece at a time (store.py `_logs_apart` / `_read_log`).

Reading a save whose log is most of it in one TOML document kept every entry's
table (and the reader's own tree) in memory beside the entries made from them:
benchmarks/storage.py's 100,000-command save peaked at over 600 MB.  Read a piece
at a time it must give exactly what the whole document gives, name a damaged entry
by its number in the whole log, and leave anything not laid out as this program
writes it (a hand edit with a multi-line string) to the whole-document reader.
"""

from __future__ import annotations

import pytest

from cdbtui import store
from cdbtui.store import SaveError
from fights import play


@pytest.fixture
def long_save():
    """A fight with a log of a few hundred entries, with a base of its own (`nombre`
    after the start does not make one: the base is an empty fight here) and an undo."""
    lines = ["alta Ana ac=5 agi=2", "alta Bea ac=6 oculto", 'alta "Capitán Garfio" ac=4',
             "momento Ana 8", "momento Bea 6", 'momento "Capitán Garfio" 7', "empezar"]
    session = play(*lines)
    for turn in range(30):
        for line in ("Ana gasta 2", "siguiente", '"Capitán Garfio" gasta 1 «dice: "¡al abordaje!"»',
                     "siguiente", "Bea gasta 1", "siguiente", "turno"):
            try:
                session.execute(line)
            except Exception:  # a line that doesn't apply at this point: the next one
                pass
    session.execute("dano Ana 2")
    session.undo()
    assert len(session.fight.log) > 150
    return session


def whole(text: str) -> store.Loaded:
    """The save read as one document (the reader before pieces)."""
    document, torn = store._parse(text)
    assert not torn
    return store._session_v2(document, text, document["schema"])


def test_a_log_read_in_pieces_is_the_log_read_whole(long_save, monkeypatch):
    text = store.dumps(long_save)
    monkeypatch.setattr(store, "_LOG_PIECE", 200)  # many pieces, a few entries each
    assert store._logs_apart(text) is not None  # the pieces path is the one taken
    pieces = store.read_text(text)
    expected = whole(text)
    assert pieces.session.fight == expected.session.fight == long_save.fight
    assert pieces.session.fight.log == long_save.fight.log
    assert pieces.session.lines == expected.session.lines
    assert store.dumps(pieces.session) == text
    assert not pieces.edited


def test_the_log_is_not_in_the_document_read_with_the_rest(long_save):
    text = store.dumps(long_save)
    rest, logs = store._logs_apart(text)
    assert set(logs) == {"fight"}
    assert "Capitán Garfio" in logs["fight"] and len(rest) < len(text) - len(logs["fight"]) + 1
    assert "[fight_log]\nentries = [\n]\n" in rest


def test_a_damaged_entry_is_named_by_its_number_in_the_whole_log(long_save, monkeypatch):
    text = store.dumps(long_save)
    lines = text.split("\n")
    start = lines.index("[fight_log]") + 2
    lines[start + 120] = lines[start + 120].replace("{turn = ", "{turn = -", 1)
    damaged = "\n".join(lines)
    monkeypatch.setattr(store, "_LOG_PIECE", 300)
    with pytest.raises(SaveError, match=r"\[fight_log\] › entries nº 121: entrada no válida"):
        store.read_text(damaged)
    document, _ = store._parse(damaged)
    with pytest.raises(SaveError, match=r"nº 121: entrada no válida"):  # the same as whole
        store._session_v2(document, damaged, document["schema"])


def test_a_piece_that_is_not_toml_leaves_the_whole_document_to_say_why(long_save, monkeypatch):
    text = store.dumps(long_save)
    broken = text.replace('text = "— Turno 3 —"', 'text = "— Turno 3 —', 1)
    assert broken != text
    monkeypatch.setattr(store, "_LOG_PIECE", 300)
    with pytest.raises(SaveError, match=r"línea \d+"):  # tomllib's line, in Spanish
        store.read_text(broken)


def test_a_hand_edit_with_a_multiline_string_is_read_whole(long_save):
    """A multi-line string may hold a line that looks like a log's: no pieces then."""
    text = store.dumps(long_save)
    first = long_save.fight.log[0].text
    edited = text.replace(f'text = "{first}"', f'text = """{first}"""', 1)
    assert edited != text and store._logs_apart(edited) is None
    loaded = store.read_text(edited)
    assert loaded.session.fight.log == long_save.fight.log


def test_a_foreign_or_newer_save_is_refused_as_before(long_save):
    text = store.dumps(long_save)
    newer = text.replace(f"schema = {store.schema_for('cdb')}\n", f"schema = {store.SCHEMA + 1}\n", 1)
    with pytest.raises(SaveError, match="versión más nueva"):
        store.read_text(newer)
    foreign = text.replace('app = "cdbtui"', 'app = "otro"', 1)
    with pytest.raises(SaveError, match="no es una partida de cdbtui"):
        store.read_text(foreign)


def test_an_empty_log_section_reads(long_save):
    session = play("alta Ana ac=5")
    text = store.dumps(session)
    assert store.read_text(text).session.fight == session.fight
