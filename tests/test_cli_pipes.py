"""A closed pipe is not an error (issue 11): `cdbtui show RUTA | head -3`.

Real processes only: the reader goes away after a line or two (or before the
first), the writer must stop quietly with status 0, as Unix tools do, having
written correctly everything up to the close; never "error interno
(BrokenPipeError…)", never "Exception ignored" at exit.  The fight is large enough
(hundreds of combatants, a long log) that the output fills the pipe's buffer many
times over, so the writer really meets the closed pipe mid-output.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from shell import cdbtui

from cdbtui import store
from cdbtui.engine.session import Session

#: A Linux pipe's buffer (64 KiB): an output longer than this meets the close.
BIG = 65536

BASES = ("Orco", "Trasgo", "Lobo", "Bandido", "Esqueleto", "Cultista", "Guardia", "Marinero",
         "Contrabandista", "Arquero", "Mercenario", "Sectario")


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A fight in turn 4 with 600 combatants (made with copias=) and a long log."""
    folder = tmp_path_factory.mktemp("big") / "saves"
    folder.mkdir()
    session = Session.new("grande", "cdb", 5)
    for base in BASES:
        session.execute(f"alta {base} ac=5 ini=1 copias=50")
    session.execute("tirar")
    session.execute("empezar")
    for _ in range(3):
        session.execute("turno")
    path = folder / "grande.toml"
    store.create(path, session)
    for number in range(40):  # a saves folder with many fights, for `list`
        (folder / f"copia-{number:02}.toml").write_bytes(path.read_bytes())
    return path


def full_output(*args: str) -> bytes:
    """What `cdbtui ARGS` writes when nobody closes its stdout."""
    result = subprocess.run([sys.executable, "-m", "cdbtui", *args], capture_output=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def read_then_close(*args: str, lines: int = 3) -> tuple[int, bytes, str]:
    """`cdbtui ARGS | head -LINES`: read that many lines, close the pipe, wait."""
    child = subprocess.Popen([sys.executable, "-m", "cdbtui", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    read = b"".join(child.stdout.readline() for _ in range(lines))
    child.stdout.close()
    err = child.stderr.read().decode("utf-8", "replace")
    child.stderr.close()
    return child.wait(timeout=120), read, err


def closed_before_start(*args: str) -> tuple[int, str]:
    """`cdbtui ARGS` into a pipe whose reader is already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run([sys.executable, "-m", "cdbtui", *args], stdout=writer,
                                stderr=subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(writer)
    return result.returncode, result.stderr.decode("utf-8", "replace")


def quiet(err: str) -> bool:
    return err == ""


@pytest.mark.parametrize("args", [
    ("show", "{big}"),
    ("show", "{big}", "--json"),
    ("export", "{big}"),
    ("export", "{big}", "--format", "html"),
    ("export", "{big}", "--jugadores"),
], ids=["show", "show-json", "export-md", "export-html", "export-players"])
def test_a_reader_that_goes_away_mid_output_is_not_an_error(big, args):
    args = tuple(a.format(big=big) for a in args)
    whole = full_output(*args)
    assert len(whole) > BIG  # the pipe really fills: the writer meets the close mid-output
    status, read, err = read_then_close(*args)
    assert status == 0, err
    assert quiet(err), err
    assert read and whole.startswith(read)  # what was written up to the close is right


@pytest.mark.parametrize("args", [
    ("show", "{big}"),
    ("show", "{big}", "--json"),
    ("export", "{big}"),
    ("list",),
    ("grupo",),
], ids=["show", "show-json", "export", "list", "grupo"])
def test_a_pipe_closed_before_the_first_write_is_not_an_error(big, args):
    args = tuple(a.format(big=big) for a in args)
    status, err = closed_before_start("--saves", str(big.parent), *args)
    assert status == 0, err
    assert quiet(err), err


def test_help_to_a_closed_pipe_is_not_an_error():
    status, err = closed_before_start("--help")
    assert status == 0 and quiet(err), err


def test_list_to_a_closed_pipe_after_its_first_line(big):
    whole = full_output("--saves", str(big.parent), "list")
    assert whole.count(b"\n") == 41
    status, read, err = read_then_close("--saves", str(big.parent), "list", lines=1)
    assert status == 0 and quiet(err), err
    assert whole.startswith(read) and b"grande" in read


def test_do_into_a_closed_pipe_still_saves_every_command(big, tmp_path):
    path = tmp_path / "f.toml"
    path.write_bytes(big.read_bytes())
    status, _read, err = read_then_close("do", str(path), "alta Nuevo ac=5 copias=2",
                                        'momento "Nuevo 1" 3', lines=1)
    assert status == 0 and quiet(err), err
    names = [c.name for c in store.load(path).fight.combatants]
    assert names[-2:] == ["Nuevo 1", "Nuevo 2"]
    assert store.load(path).fight.find("Nuevo 1").start == 3


def test_a_refusal_into_a_closed_pipe_still_says_why(big, tmp_path):
    path = tmp_path / "f.toml"
    path.write_bytes(big.read_bytes())
    before = path.read_bytes()
    status, err = closed_before_start("do", str(path), "alta Orco ac=5 copias=3")
    assert status == 1
    assert err.count("\n") == 1 and "«Orco 1»" in err and "error interno" not in err
    assert path.read_bytes() == before


def test_an_unreadable_save_into_a_closed_pipe_is_still_a_usage_error(tmp_path):
    status, err = closed_before_start("show", str(tmp_path / "no-hay.toml"))
    assert status == 2 and err.count("\n") == 1 and "no existe" in err


def test_the_shell_pipe_of_the_issue(big):
    """`cdbtui show RUTA | head -3`, as typed in a shell."""
    command = (f"{sys.executable} -m cdbtui show {big} | head -3 >/dev/null;"
               " echo ${PIPESTATUS[0]}")
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120,
                            check=False)
    assert result.stdout.strip() == "0" and result.stderr == ""


def test_in_process_output_is_whole(big):
    """The same commands with nobody closing the pipe print everything (a control)."""
    result = cdbtui("show", str(big))
    assert result.returncode == 0 and result.stdout.count("\n") > 600
