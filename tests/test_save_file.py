"""The autosave path (cdbtui/store.py `SaveFile`): journal appends, compaction,
resume with undo, torn writes, migration from schema 1, hand edits, following."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdbtui import files, follow, funnel, store
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session
from cdbtui.files import SaveError
from cdbtui.funnel import SaveFile
from fights import demo_lines, play

V1 = Path(__file__).parent / "data" / "v1-puerto.toml"
SHOOT = "disparar-armas-largas"
JOURNAL = "\n[[journal]]\n"


@pytest.fixture
def demo_file(tmp_path) -> Path:
    path = tmp_path / "puerto.toml"
    store.create(path, play(*demo_lines()))
    return path


def run(save_file: SaveFile, *lines: str) -> None:
    for line in lines:
        save_file.record(save_file.session.execute(line))


def test_a_command_appends_one_journal_entry_and_rewrites_nothing(demo_file):
    before = demo_file.read_text("utf-8")
    save_file = SaveFile.open(demo_file)
    run(save_file, f"Mike {SHOOT}")
    after = demo_file.read_text("utf-8")
    assert after.startswith(before)
    assert after[len(before):] == f'\n[[journal]]\ndo = "Mike {SHOOT}"\n'
    assert store.load(demo_file).fight == save_file.session.fight


def test_resume_restores_the_fight_and_the_undo_history(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, f"Mike {SHOOT}", '"Soldado 1" ponerse-a-cubierto', "deshacer",
        '"Soldado 1" retrasa', "deshacer", "rehacer")
    expected = save_file.session
    resumed = SaveFile.open(demo_file).session
    assert resumed.fight == expected.fight
    assert resumed.lines == expected.lines and resumed.redo_lines == expected.redo_lines
    # undo all the way back, after the resume, gives the same states
    while expected.can_undo:
        assert resumed.undo().fight == expected.undo().fight
    assert not resumed.can_undo


def test_the_rng_survives_a_resume(tmp_path):
    path = tmp_path / "dados.toml"
    store.create(path, play("alta A ac=5 ini=1", "alta B ac=5 ini=2", rules="cdb", seed=7))
    save_file = SaveFile.open(path)
    run(save_file, "tirar A")
    resumed = SaveFile.open(path)
    run(resumed, "tirar B")
    save_file.session.execute("tirar B")  # the same roll without the resume (not saved)
    assert resumed.session.fight.find("B").start == save_file.session.fight.find("B").start


def test_the_file_is_rewritten_whole_every_compact_every_commands(demo_file, monkeypatch):
    monkeypatch.setattr(funnel, "COMPACT_EVERY", 3)
    save_file = SaveFile.open(demo_file)
    played = ["Mike gasta 1", "Mike gasta 1", '"Soldado 1" gasta 1', "Mike gasta 1"]
    run(save_file, *played[:3])
    assert demo_file.read_text("utf-8").count(JOURNAL) == 3
    run(save_file, played[3])  # the fourth: a compaction
    text = demo_file.read_text("utf-8")
    assert JOURNAL not in text
    assert tomllib.loads(text)["history"]["lines"][-4:] == played
    assert files.backup_path(demo_file).read_text("utf-8").count(JOURNAL) == 3


def test_undo_past_the_snapshot_rewrites_the_file(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, "deshacer")  # undoes a line of the snapshot: no journal replay needed later
    text = demo_file.read_text("utf-8")
    assert JOURNAL not in text
    assert tomllib.loads(text)["history"]["redo"] == ["empezar"]
    assert store.load(demo_file).fight.turn == 0


def test_closing_tidies_the_journal_away(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, "Mike gasta 2")
    save_file.close()
    assert JOURNAL not in demo_file.read_text("utf-8")
    assert store.load(demo_file).fight == save_file.session.fight


def test_opening_and_a_refused_command_write_nothing(demo_file):
    before = demo_file.read_bytes()
    save_file = SaveFile.open(demo_file)
    with pytest.raises(Refusal):
        save_file.session.execute("Nadie gasta 3")
    save_file.close()
    assert demo_file.read_bytes() == before


def test_a_torn_last_journal_entry_is_dropped(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, "Mike gasta 1", "Mike gasta 1")
    whole = demo_file.read_text("utf-8")
    after_first = play(*demo_lines(), "Mike gasta 1").fight
    for cut in (1, 5, 14, len('\n[[journal]]\ndo = "Mike ga')):
        torn = whole[: whole.rindex("\n[[journal]]\n") + cut]
        demo_file.write_text(torn, "utf-8")
        loaded = store.read(demo_file)
        assert loaded.session.fight == after_first, cut
    # the next write rewrites the file whole, without the torn bytes
    save_file = SaveFile.open(demo_file)
    assert save_file.notes and "medio guardar" in save_file.notes[0]
    run(save_file, '"Soldado 1" gasta 1')
    assert JOURNAL not in demo_file.read_text("utf-8")
    assert store.load(demo_file).lines[-2:] == ["Mike gasta 1", '"Soldado 1" gasta 1']


def test_a_cut_snapshot_is_an_error_not_a_recovery(demo_file):
    text = demo_file.read_text("utf-8")
    demo_file.write_text(text[: text.index("end = true")], "utf-8")
    with pytest.raises(SaveError, match="cortado"):
        store.load(demo_file)


def test_a_schema_1_save_is_read_and_migrated_keeping_the_original(tmp_path):
    path = tmp_path / "viejo.toml"
    shutil.copy(V1, path)
    original = path.read_bytes()
    save_file = SaveFile.open(path)
    assert save_file.session.fight.find("Mike").ac == 4
    assert save_file.session.fight.find("Sven").wounds.marked == 3
    assert save_file.session.redo_lines == ["estado Sven +agarrado"]
    assert path.read_bytes() == original  # reading writes nothing
    run(save_file, "rehacer")
    assert (tmp_path / "viejo.toml.v1").read_bytes() == original
    document = tomllib.loads(path.read_text("utf-8"))
    assert document["schema"] == store.schema_for("cdb")
    resumed = store.load(path)
    assert resumed.fight.find("Sven").conditions == ("agarrado",)
    while resumed.can_undo:  # the whole history came along
        resumed.undo()
    assert resumed.fight.combatants == ()


def test_a_hand_edited_name_is_accepted_and_history_restarts_there(demo_file):
    text = demo_file.read_text("utf-8")
    start = text.index("\n[fight]\n")
    fixed = text[:start] + text[start:].replace('name = "Mike"', 'name = "Mike el Yanqui"', 1)
    demo_file.write_text(fixed, "utf-8")
    save_file = SaveFile.open(demo_file)
    assert save_file.session.fight.find("Mike el Yanqui") is not None
    assert not save_file.session.can_undo
    assert "a mano" in save_file.notes[0]
    run(save_file, '"Mike el Yanqui" gasta 1')
    resumed = store.load(demo_file)
    assert resumed.fight.find("Mike el Yanqui").ac == 6
    resumed.undo()
    assert resumed.fight.find("Mike el Yanqui").ac == 7 and not resumed.can_undo


def test_a_duplicate_name_by_hand_is_refused_with_the_name(demo_file):
    text = demo_file.read_text("utf-8")
    demo_file.write_text(text.replace('name = "Sven"', 'name = "Mike"', 1), "utf-8")
    with pytest.raises(SaveError, match="«Mike» está repetido"):
        SaveFile.open(demo_file)


def test_another_program_writing_the_save_is_noticed(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, "Mike gasta 1")
    assert not save_file.changed_on_disk
    other = SaveFile.open(demo_file)
    run(other, '"Soldado 1" gasta 1')
    assert save_file.changed_on_disk
    save_file.close()  # must not overwrite the other program's command
    assert store.load(demo_file).lines[-2:] == ["Mike gasta 1", '"Soldado 1" gasta 1']


def test_the_follower_reads_only_what_was_appended(demo_file, monkeypatch):
    follower = follow.Follower(demo_file)
    assert follower.poll() is True and follower.session.fight.turn == 1
    assert follower.poll() is False
    save_file = SaveFile.open(demo_file)
    run(save_file, "Mike gasta 1")
    whole_reads = []
    monkeypatch.setattr(store, "read_text", lambda text: whole_reads.append(1))
    assert follower.poll() is True
    assert whole_reads == []  # the tail alone was parsed
    assert follower.session.fight == save_file.session.fight
    monkeypatch.undo()
    save_file.compact()  # an atomic replace: a new file
    run(save_file, "Mike gasta 1", "deshacer", "rehacer")  # Mike is at 6 with Soldado 1
    assert follower.poll() is True
    assert follower.session.fight == save_file.session.fight


def test_the_follower_keeps_the_last_good_state_when_the_file_breaks(demo_file):
    follower = follow.Follower(demo_file)
    follower.poll()
    good = follower.session.fight
    saved = demo_file.read_bytes()
    demo_file.write_bytes(b"\x00\x81 basura")
    with pytest.raises(SaveError):
        follower.poll()
    assert follower.session.fight == good
    demo_file.unlink()
    with pytest.raises(SaveError, match="no existe"):
        follower.poll()
    demo_file.write_bytes(saved)
    assert follower.poll() is True and follower.session.fight == good


# ---------------------------------------------------------------- property

LINES = [
    "alta A ac=6 ini=2", "alta B ac=5 ini=1 oculto", "alta C ac=4 bando=pj privado",
    "tirar", "momento A 4", "empezar", "A gasta 1", "B gasta 2", "C gasta 3",
    f"A {SHOOT}", "B esquivar", "C retrasa", "C actua", "A espera una puerta",
    "A interrumpe punetazo", "siguiente", "turno", "dano A 3 rd=1", "dano B 2 fatiga",
    "estado C +agarrado", "estado C -agarrado", "B fin", "deshacer", "rehacer",
    "nombre \"Otra noche\"",
]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(LINES), max_size=40), st.integers(0, 2**32 - 1),
       st.sampled_from(["cdb", "walkure"]), st.integers(1, 6))
def test_save_then_load_gives_the_same_fight_for_random_fights(tmp_path, lines, seed, rules,
                                                              compact_every):
    """Through the journal, with compactions at random points, or as one snapshot."""
    path = tmp_path / f"f{seed}.toml"
    path.unlink(missing_ok=True)
    save_file = SaveFile.create(path, Session.new("Azar", rules, seed))
    save_file_compact = funnel.COMPACT_EVERY
    funnel.COMPACT_EVERY = compact_every
    try:
        for line in lines:
            try:
                outcome = save_file.session.execute(line)
            except Refusal:
                continue
            save_file.record(outcome)
    finally:
        funnel.COMPACT_EVERY = save_file_compact
    session = save_file.session
    loaded = store.load(path)
    assert loaded.fight == session.fight
    assert loaded.lines == session.lines and loaded.redo_lines == session.redo_lines
    assert store.loads(store.dumps(session)).fight == session.fight
    assert store.dumps(loaded) == store.dumps(session)


def test_a_replay_in_the_background_fills_the_states_a_load_left_out(demo_file):
    save_file = SaveFile.open(demo_file)
    run(save_file, "Mike gasta 1")
    save_file.close()
    session = store.load(demo_file)
    assert session.states[1:-1] == [None] * (len(session.lines) - 1)
    lines = list(session.lines)
    replayed = Session(session.base, lines).states  # what the app's thread computes
    session.execute("Mike gasta 1")  # the DJ plays on meanwhile: still a shared prefix
    assert session.adopt(lines, replayed) == len(lines) - 1
    assert None not in session.states
    expected = play(*demo_lines(), "Mike gasta 1")
    session.undo()
    assert session.undo().fight == expected.undo().fight
    # after an undo (which replays what it needs) and a new command the histories
    # differ at the end: nothing known is replaced, the new last state is kept
    other = store.load(demo_file)
    other.undo()
    other.execute("Mike gasta 2")
    own = list(other.states)
    other.adopt(lines, replayed)
    assert other.states == own and other.fight.find("Mike").ac == 5


def test_two_writers_never_interleave_commands_from_different_states(demo_file):
    first, second = SaveFile.open(demo_file), SaveFile.open(demo_file)
    run(first, "Mike gasta 1")
    outcome = second.session.execute("Mike gasta 2")  # computed from the old state
    before = demo_file.read_bytes()
    with pytest.raises(SaveError, match="cambió mientras tanto"):
        second.record(outcome)
    assert demo_file.read_bytes() == before
    with pytest.raises(SaveError, match="cambió mientras tanto"):
        second.compact()
    second.close()  # quietly leaves the other program's file alone
    assert demo_file.read_bytes() == before
    assert store.load(demo_file).lines[-1] == "Mike gasta 1"
