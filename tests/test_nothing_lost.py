"""Issue 9: nothing a DJ does is lost, nothing crashes.

Each test names the way a fight could be lost or the program brought down, and
fails on the code before the fix: a command that bricks the save, two writers,
a full disk, an export over a save, a save behind a symbolic link, files that
open but can't be played, internal errors instead of a message, long lines and
files that are not files.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdbtui import files, funnel, store
from cdbtui.cli import main
from cdbtui.engine.errors import Refusal
from cdbtui.engine.session import Session
from cdbtui.files import SaveError
from cdbtui.funnel import SaveFile
from cdbtui.store import load, read

# ---------------------------------------------------------------- helpers


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`cdbtui ARGS` in this process: (exit status, stdout, stderr)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def fight(tmp_path: Path, capsys) -> Path:
    path = tmp_path / "t.toml"
    assert run(capsys, "new", str(path), "--seed", "3")[0] == 0
    return path


def loads_and_undoes(capsys, path: Path) -> None:
    """The save opens for every command that reads it, and undo works."""
    status, _, err = run(capsys, "show", str(path), "--json")
    assert status == 0, err
    status, _, err = run(capsys, "do", str(path), "deshacer")
    assert status == 0, err


# ---------------------------------------------------------------- 1. one set of limits

NORMALISED = [
    ('alta "Soldado\u00a01" ac=5', "Soldado 1"),  # no-break space
    ('alta "Sol\u00addado" ac=5', "Soldado"),  # soft hyphen
    ('alta "Sol\u200bdado" ac=5', "Soldado"),  # zero-width space
    ('alta "\U0001f468\u200d\U0001f469" ac=5', "\U0001f468\U0001f469"),  # emoji joined by ZWJ
    ('alta "Sol\tdado" ac=5', "Sol dado"),  # a tab
    ('alta "Iñigo" ac=5'.replace("ñ", "n\u0303"), "Iñigo"),  # a combining tilde: NFC
    ('alta "Ana  María" ac=5', "Ana María"),  # two spaces
]


@pytest.mark.parametrize(("line", "name"), NORMALISED)
def test_a_name_typed_with_accidental_characters_is_normalised_and_the_save_loads(
        capsys, fight, line, name):
    status, _, err = run(capsys, "do", str(fight), line)
    assert status == 0, err
    assert [c.name for c in load(fight).fight.combatants] == [name]
    loads_and_undoes(capsys, fight)


REFUSED_NAMES = [
    ('alta "Sol\u202edado" ac=5', "U+202E"),
    ('alta "Sol\ndado" ac=5', "U+000A"),
    ('alta "Sol\x1bdado" ac=5', "U+001B"),
    ('alta "Sol\x07dado" ac=5', "U+0007"),
    ('alta "Sol\ue000dado" ac=5', "U+E000"),
    ('alta "Sol\u2028dado" ac=5', "U+2028"),
    ("alta " + "x" * 61 + " ac=5", "demasiado largo"),
]


@pytest.mark.parametrize(("line", "what"), REFUSED_NAMES)
def test_a_name_with_a_character_that_cannot_be_kept_is_refused_naming_it(
        capsys, fight, line, what):
    before = fight.read_bytes()
    status, _, err = run(capsys, "do", str(fight), line)
    assert status == 1
    assert what in err and err.count("\n") == 1
    assert "\x1b" not in err and "\u202e" not in err
    assert fight.read_bytes() == before


@pytest.mark.parametrize("line", [
    "alta X ac=5 ini=500", "alta X ac=5 agi=100", "alta X ac=5 ate=-100",
    "alta X ac=5 hab=999", "alta X ac=5 mov=120", "alta X ac=5 momento=-999",
])
def test_a_number_the_loader_would_call_absurd_is_refused_when_typed(capsys, fight, line):
    before = fight.read_bytes()
    status, _, err = run(capsys, "do", str(fight), line)
    assert status == 1, err
    assert fight.read_bytes() == before


def test_a_marker_below_a_low_start_moment_still_loads(capsys, fight):
    status, _, err = run(capsys, "do", str(fight), "alta X ac=9 momento=-99", "empezar",
                         "x gasta 5")
    assert status == 0, err
    assert load(fight).fight.find("X").marker == -104
    loads_and_undoes(capsys, fight)


def test_the_engine_refuses_a_state_the_loader_would_refuse():
    """`apply` checks every state it makes against the loader's bounds."""
    from attrs import evolve

    from cdbtui.engine.limits import check_state

    session = Session.new()
    session.execute("alta X ac=5")
    fight = session.fight
    broken = fight.replace(evolve(fight.combatants[0], ini=500))
    with pytest.raises(Refusal, match="INI 500"):
        check_state(broken, fight)
    check_state(fight, None)  # a good state passes


def test_a_party_member_with_a_no_break_space_gives_loadable_fights(capsys, tmp_path):
    saves = tmp_path / "saves"
    status, _, err = run(capsys, "--saves", str(saves), "grupo", "alta", "Ana\u00a0María", "ac=5")
    assert status == 0, err
    path = saves / "f.toml"
    status, _, err = run(capsys, "--saves", str(saves), "new", str(path), "--grupo")
    assert status == 0, err
    assert [c.name for c in load(path).fight.combatants] == ["Ana María"]


def test_a_party_member_the_engine_refuses_never_reaches_the_roster(capsys, tmp_path):
    saves = tmp_path / "saves"
    assert run(capsys, "--saves", str(saves), "grupo", "alta", "Ana", "ac=5")[0] == 0
    roster = saves / "_grupo.toml"
    before = roster.read_bytes()
    status, _, err = run(capsys, "--saves", str(saves), "grupo", "alta", "Bob", "ac=5", "ini=500")
    assert status == 1 and "ini" in err  # refused, like the same «alta» in a fight
    assert roster.read_bytes() == before
    assert run(capsys, "--saves", str(saves), "grupo")[0] == 0


def test_a_roster_edited_by_hand_with_an_absurd_entry_is_refused_with_the_file(capsys, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "_grupo.toml").write_text('[[pj]]\nname = "Bob"\nac = 0\n', "utf-8")
    status, _, err = run(capsys, "--saves", str(saves), "new", str(saves / "f.toml"), "--grupo")
    assert status in (1, 2) and "error interno" not in err
    assert "_grupo.toml" in err or "Bob" in err
    assert not (saves / "f.toml").exists()


# ---------------------------------------------------------------- 3. two writers


def _writer(path: str, prefix: str, count: int, results) -> None:
    import io as _io

    sys.stdout = _io.StringIO()
    sys.stderr = _io.StringIO()
    for number in range(count):
        status = main(["do", path, f"nombre {prefix}-{number}"])
        results.put((f"{prefix}-{number}", status))


def test_two_programs_on_one_save_never_lose_an_acknowledged_command(capsys, fight):
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [context.Process(target=_writer, args=(str(fight), prefix, 40, results))
               for prefix in ("A", "B")]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in range(80)]
    for worker in workers:
        worker.join(timeout=60)
    done = [name for name, status in outcomes if status == 0]
    assert len(done) == 80  # the lock serialises them: none needs refusing
    log = [entry.text for entry in load(fight).fight.log]
    for name in done:
        assert log.count(f"El combate se llama «{name}»") == 1, name


def test_a_write_by_another_program_between_read_and_write_is_noticed(fight, capsys):
    run(capsys, "do", str(fight), "alta Ana ac=5")
    mine = SaveFile.open(fight)
    other = SaveFile.open(fight)
    other.play("alta Bea ac=5")
    with pytest.raises(funnel.Reloaded):
        mine.play("alta Cris ac=5")
    assert mine.session.fight.find("Bea") is not None  # it took the file's state
    mine.play("alta Cris ac=5")
    names = [c.name for c in load(fight).fight.combatants]
    assert names == ["Ana", "Bea", "Cris"]


# ---------------------------------------------------------------- 4. a full disk


def _short_then_full(real):
    calls = {"n": 0}

    def fake(handle, data):
        calls["n"] += 1
        if calls["n"] == 1:
            return real(handle, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    return fake


def test_a_short_write_on_a_full_disk_is_cut_back_and_the_command_not_acknowledged(
        fight, capsys, monkeypatch):
    run(capsys, "do", str(fight), "alta Ana ac=5", "alta Bea ac=5")
    save_file = SaveFile.open(fight)
    save_file.play("alta Cris ac=5")  # a plain append from now on
    before_bytes = fight.read_bytes()
    before_fight, before_lines = save_file.session.fight, list(save_file.session.lines)
    with monkeypatch.context() as patch:
        patch.setattr(files.os, "write", _short_then_full(os.write))
        with pytest.raises(SaveError, match="no se ha aplicado"):
            save_file.play("alta Dani ac=5")
    assert fight.read_bytes() == before_bytes
    assert save_file.session.fight == before_fight
    assert save_file.session.lines == before_lines
    save_file.play("alta Eva ac=5")  # the disk has room again
    names = [c.name for c in load(fight).fight.combatants]
    assert names == ["Ana", "Bea", "Cris", "Eva"]


def test_a_rewrite_that_fails_after_the_journal_append_is_not_an_error(
        fight, capsys, monkeypatch):
    """`do` used to exit 2 «no se puede guardar» although the command was appended."""
    run(capsys, "do", str(fight), "alta Ana ac=5")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "write_atomic", full)
    status, _, err = run(capsys, "do", str(fight), "alta Bea ac=5")
    assert status == 0, err
    assert "aviso" in err
    monkeypatch.undo()
    names = [c.name for c in load(fight).fight.combatants]
    assert names.count("Bea") == 1


def test_a_failed_whole_rewrite_leaves_the_session_as_it_was(fight, capsys, monkeypatch):
    run(capsys, "do", str(fight), "alta Ana ac=5")
    save_file = SaveFile.open(fight)
    save_file.pending = "migrate"  # a write that must be whole
    before = fight.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "write_atomic", full)
    with pytest.raises(SaveError):
        save_file.play("alta Bea ac=5")
    assert save_file.session.fight.find("Bea") is None
    assert fight.read_bytes() == before


# ---------------------------------------------------------------- 5. export


def test_export_never_overwrites_a_fight_or_its_backups(capsys, tmp_path, fight):
    other = tmp_path / "otra.toml"
    run(capsys, "new", str(other))
    run(capsys, "do", str(fight), "alta Ana ac=5")
    for target in (other, files.backup_path(fight), tmp_path / "t.toml.v1"):
        if not target.exists():
            target.write_bytes(other.read_bytes())
        before = target.read_bytes()
        status, _, err = run(capsys, "export", str(fight), "-o", str(target))
        assert status == 2, err
        assert target.read_bytes() == before


def test_export_rewrites_its_own_earlier_export_and_other_files_only_with_force(
        capsys, tmp_path, fight):
    notes = tmp_path / "notas.md"
    assert run(capsys, "export", str(fight), "-o", str(notes))[0] == 0
    assert run(capsys, "export", str(fight), "-o", str(notes))[0] == 0
    diary = tmp_path / "diario.txt"
    diary.write_text("mi diario\n", "utf-8")
    assert run(capsys, "export", str(fight), "-o", str(diary))[0] == 2
    assert diary.read_text("utf-8") == "mi diario\n"
    assert run(capsys, "export", str(fight), "-o", str(diary), "--force")[0] == 0


# ---------------------------------------------------------------- 6. symbolic links


def test_a_save_behind_a_symbolic_link_stays_a_link_after_a_full_rewrite(capsys, tmp_path):
    shared = tmp_path / "compartida"
    shared.mkdir()
    real = shared / "f.toml"
    run(capsys, "new", str(real))
    link = tmp_path / "f.toml"
    link.symlink_to(real)
    save_file = SaveFile.open(link)
    for number in range(funnel.COMPACT_EVERY + 2):
        save_file.play(f"nombre N{number}")
    save_file.close()
    assert link.is_symlink()
    assert load(real).fight.name == f"N{funnel.COMPACT_EVERY + 1}"
    assert files.backup_path(real).exists()
    assert not files.backup_path(link).exists()


# ---------------------------------------------------------------- 9, 11. files that can't be played


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_a_save_with_broken_house_rules_does_not_open(capsys, fight):
    run(capsys, "do", str(fight), "alta Ana ac=5")
    _edit(fight, 'rules = "cdb"\nseed', 'rules = "cdb"\nhouse = "[[maneuver]]\\nid = 3"\nseed')
    status, _, err = run(capsys, "show", str(fight))
    assert status == 2
    assert "house" in err and str(fight) in err


def test_a_history_that_does_not_lead_to_the_fight_never_undoes_into_another_fight(
        capsys, fight):
    run(capsys, "do", str(fight), "alta Orco ac=5", "alta Goblin ac=5")
    _edit(fight, '"alta Orco ac=5 bando=pnj"', '"alta Troll ac=5 bando=pnj"')
    loaded = read(fight)
    assert any("historial" in note for note in loaded.notes)
    status, _, err = run(capsys, "do", str(fight), "deshacer")
    assert status == 1 and "deshacer" in err
    names = [c.name for c in load(fight).fight.combatants]
    assert names == ["Orco", "Goblin"]


def test_a_history_reformatted_by_hand_but_still_right_keeps_undo(capsys, fight):
    run(capsys, "do", str(fight), "alta Orco ac=5", "alta Goblin ac=5")
    _edit(fight, '"alta Orco ac=5 bando=pnj"', '"alta  Orco  ac=5"')
    status, _, err = run(capsys, "do", str(fight), "deshacer")
    assert status == 0, err
    assert [c.name for c in load(fight).fight.combatants] == ["Orco"]


# ---------------------------------------------------------------- 10. messages, not internal errors


def test_a_colon_and_a_space_before_casa_is_understood(capsys, fight):
    status, _, err = run(capsys, "do", str(fight), ": casa no")
    assert "error interno" not in err
    assert status in (0, 1)


def test_invalid_utf8_on_stdin_is_one_spanish_line(fight):
    result = subprocess.run([sys.executable, "-m", "cdbtui", "do", str(fight), "-"],
                            input=b"alta Ana ac=5\n\xff\xfe\n", capture_output=True, timeout=60)
    assert result.returncode == 2
    assert "UTF-8" in result.stderr.decode() and "Traceback" not in result.stderr.decode()


def test_a_byte_order_mark_on_stdin_is_not_part_of_the_first_command(fight):
    result = subprocess.run([sys.executable, "-m", "cdbtui", "do", str(fight), "-"],
                            input="\ufeffalta Ana ac=5\n".encode(), capture_output=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert [c.name for c in load(fight).fight.combatants] == ["Ana"]


def test_a_byte_order_mark_at_the_start_of_a_save_is_tolerated(capsys, fight):
    fight.write_bytes(b"\xef\xbb\xbf" + fight.read_bytes())
    assert run(capsys, "show", str(fight))[0] == 0


@pytest.mark.parametrize(("name", "says"), [
    ("x" * 300 + ".toml", "demasiado largo"),
    ("", "falta el nombre"),
    (".toml", "no lo mostraría"),
    ("_grupo.toml", "no lo mostraría"),
    ("sin-extension", ".toml"),
])
def test_new_with_a_file_name_the_list_cannot_use_is_a_usage_error(capsys, tmp_path, name, says):
    status, _, err = run(capsys, "new", str(tmp_path / name) if name else "")
    assert status == 2
    assert says in err and "error interno" not in err


def test_new_with_a_party_member_the_engine_refuses_is_a_refusal(capsys, tmp_path, monkeypatch):
    import cdbtui.roster as roster

    monkeypatch.setattr(roster, "party_lines", lambda folder, present=(): ["alta Bob ac=0"])
    status, _, err = run(capsys, "new", str(tmp_path / "f.toml"), "--grupo")
    assert status == 1 and "Bob" in err
    assert not (tmp_path / "f.toml").exists()


def test_show_into_a_closed_pipe_exits_quietly(save_for_pipe):
    command = (f"{sys.executable} -m cdbtui show {save_for_pipe} --json | head -c 10 >/dev/null;"
               " echo ${PIPESTATUS[0]}")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "0"
    assert result.stderr == ""


@pytest.fixture
def save_for_pipe(tmp_path: Path) -> Path:
    session = Session.new()
    for number in range(300):  # a board long enough to fill the pipe
        session.execute(f"alta Orco{number} ac=5")
    path = tmp_path / "big.toml"
    store.create(path, session)
    return path


def test_a_number_of_thousands_of_digits_in_a_save_names_the_file(capsys, fight):
    _edit(fight, "turn = 0", "turn = " + "9" * 5000)
    status, _, err = run(capsys, "show", str(fight))
    assert status == 2 and str(fight) in err and "error interno" not in err


def test_the_list_shows_newer_foreign_and_undecodable_saves_as_problems(capsys, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    run(capsys, "new", str(saves / "buena.toml"))
    newer = saves / "nueva.toml"
    newer.write_text((saves / "buena.toml").read_text("utf-8").replace("schema = 4", "schema = 9"),
                     "utf-8")
    (saves / "latin.toml").write_bytes("name = 'Peñas'\n".encode("latin-1"))
    status, out, _ = run(capsys, "--saves", str(saves), "list")
    assert status == 0
    lines = {line.split("  ·  ")[0]: line for line in out.splitlines()}
    assert "NO SE PUEDE ABRIR" not in lines["buena.toml"]
    assert "NO SE PUEDE ABRIR" in lines["nueva.toml"] and "más nueva" in lines["nueva.toml"]
    assert "NO SE PUEDE ABRIR" in lines["latin.toml"] and "UTF-8" in lines["latin.toml"]


# ---------------------------------------------------------------- 13, 14. size


def test_a_very_long_command_line_is_refused_at_once(capsys, fight):
    before = fight.read_bytes()
    status, _, err = run(capsys, "do", str(fight), "alta " + "a " * 500_000 + "ac=5")
    assert status == 1 and "demasiado larga" in err
    assert fight.read_bytes() == before


def test_a_name_of_many_words_is_found_without_trying_every_split():
    from cdbtui.engine.parser import NAME_WORDS, take_name

    session = Session.new()
    session.execute("alta Ana ac=5")
    tokens = ["x"] * 900  # well within the line limit: the look-up stops at NAME_WORDS
    with pytest.raises(Refusal):
        take_name(session.fight, tokens)
    assert NAME_WORDS < 40


def test_a_fifo_as_the_save_is_refused_without_hanging(capsys, tmp_path):
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "show", str(fifo))
    assert status == 2 and "no es un archivo normal" in err


def test_a_device_as_the_save_is_refused(capsys):
    status, _, err = run(capsys, "show", "/dev/zero")
    assert status == 2 and "no es un archivo normal" in err
