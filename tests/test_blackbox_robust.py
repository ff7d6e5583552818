"""Black-box audit of the robustness promises of the shell interface.

From the documents only: ../shared/COMMANDS.md (the shell interface, exit statuses,
"a refused command leaves the fight unchanged and says why in one line, in
Spanish", `do`'s stop at the first failure, the JSON state), SYSTEMS.md (the JSON of
the other two rulesets) and README.md ("Using it", exit statuses, saves: "a newer
one is refused, never touched", "nothing is opened or written", "Nothing lost",
the folder lock, names and limits).

Every call is a real process (`python -m cdbtui`) with its working folder and
`CDBTUI_SAVES` inside the test's own `tmp_path`; what is checked is what a user
sees: the exit status, stderr, stdout, and the save's bytes on disk.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

# ---------------------------------------------------------------------------
# running the real program


@dataclass
class Run:
    rc: int
    out_bytes: bytes
    err_bytes: bytes

    @property
    def out(self) -> str:
        return self.out_bytes.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.err_bytes.decode("utf-8", "replace")


def env_for(folder: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["CDBTUI_SAVES"] = str(folder / "saves")
    env.update(extra)
    return env


def run(folder: Path, *args: str | bytes, stdin: bytes | None = None,
        timeout: float = 60, **kwargs) -> Run:
    """`cdbtui ARGS` in a real process, in `folder`, with its saves folder inside it."""
    env = kwargs.pop("env", None) or env_for(folder)
    done = subprocess.run([sys.executable, "-m", "cdbtui", *args], cwd=folder, env=env,
                          input=stdin if stdin is not None else b"", capture_output=True,
                          timeout=timeout, check=False, **kwargs)
    result = Run(done.returncode, done.stdout, done.stderr)
    no_crash(result)
    return result


# ---------------------------------------------------------------------------
# what every answer to bad input must look like

#: English that a Spanish line must not carry: OS reasons, Python's exceptions,
#: the TOML library's wording, argparse.
ENGLISH = ("Traceback", "Errno", "No such file", "Permission denied", "Not a directory",
           "Is a directory", "Too many levels", "File name too long", "File too large",
           "codec can't", "invalid start byte", "Expected", "Invalid", "after a key",
           "usage:", "error:", "Exception")
SPANISH_WORD = re.compile(r"[áéíóúñ«»¿¡]|\b(no|de|la|el|es|en|un|una|y|o|al|hay|se|que|del|"
                          r"las|los|falta|para|como|sin|ya|existe|puede|lleva|usa|debe|"
                          r"entre|menos|valor|orden)\b")


def no_crash(result: Run) -> None:
    """Never a traceback for bad input."""
    assert "Traceback" not in result.err, result.err
    assert "error interno" not in result.err.lower(), result.err


def spanish_line(result: Run) -> str:
    """Exactly one line on stderr, in Spanish, with nothing of English in it."""
    err = result.err
    assert err.endswith("\n"), repr(err)
    assert result.err_bytes.count(b"\n") == 1, repr(err)
    assert len(err.splitlines()) == 1, repr(err)  # no \r, U+2028, U+0085 either
    line = err.strip()
    for word in ENGLISH:
        assert word not in line, f"English in the Spanish line: {line!r}"
    assert not re.search(r"\b[A-Z][a-zA-Z]*Error\b", line), line
    assert SPANISH_WORD.search(line.lower()), f"not Spanish: {line!r}"
    assert "\x1b" not in line and "\x07" not in line, repr(line)
    return line


def listing(folder: Path) -> dict[str, bytes | None]:
    """Every entry of `folder` (not recursive) with its bytes (None: not a file)."""
    found: dict[str, bytes | None] = {}
    for entry in sorted(os.listdir(folder)):
        path = folder / entry
        found[entry] = path.read_bytes() if path.is_file() and not path.is_symlink() \
            and os.access(path, os.R_OK) else None
    return found


# ---------------------------------------------------------------------------
# fights made through the shell, once per module, copied per test

CDB_LINES = ("alta Mike ac=7 bando=pj", "alta Sven ac=5", "momento Mike 7", "momento Sven 5",
             "empezar")
RULES_LINES = {
    "cdb": CDB_LINES,
    "walkure": CDB_LINES,
    "csystem": ("alta Titan nh=1 des=3 ale=2 con=5 bando=pj", "alta Sicario des=2 ale=1",
                "iniciativa Titan 14", "iniciativa Sicario 18", "empezar"),
    "narrador": ("alta Kara ini=6 fv=5 bando=pj", "alta Maton ini=5 fv=3",
                 "iniciativa Kara 13", "iniciativa Maton 12", "siguiente"),
}


def make(folder: Path, lines=CDB_LINES, rules: str = "cdb", name: str = "f.toml") -> Path:
    made = run(folder, "new", name, "--rules", rules, "--seed", "3")
    assert made.rc == 0, made.err
    if lines:
        played = run(folder, "do", name, *lines)
        assert played.rc == 0, played.err
    return folder / name


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("templates")
    return {rules: make(folder, RULES_LINES[rules], rules, f"{rules}.toml").read_bytes()
            for rules in RULES_LINES}


@pytest.fixture
def fight(tmp_path: Path, templates) -> Path:
    """A CdB fight in turn 1, moment 7: Mike (PJ, 7 AC, acts now), Sven (5 AC, at 5)."""
    path = tmp_path / "f.toml"
    path.write_bytes(templates["cdb"])
    return path


def state(path: Path) -> dict:
    shown = run(path.parent, "show", path.name, "--json")
    assert shown.rc == 0, shown.err
    return json.loads(shown.out)


def names(path: Path) -> list[str]:
    return [c["name"] for c in state(path)["combatants"]]


def who(path: Path, name: str) -> dict:
    return next(c for c in state(path)["combatants"] if c["name"] == name)


def refused(path: Path, *lines: str, status: int = 1) -> str:
    """`do PATH LINES` refused: `status`, one Spanish line, the save byte for byte."""
    before = listing(path.parent)
    result = run(path.parent, "do", path.name, *lines)
    assert result.rc == status, (result.rc, result.err)
    line = spanish_line(result)
    assert listing(path.parent) == before
    return line


# ---------------------------------------------------------------------------
# exit status 2: usage errors

USAGE = [
    ("do", "f.toml"),
    ("show", "f.toml", "--bogus"),
    ("new", "z.toml", "--rules", "bogus"),
]


@pytest.mark.parametrize("args", USAGE, ids=" ".join)
def test_usage_error_is_exit_2_one_spanish_line(fight: Path, args):
    before = listing(fight.parent)
    result = run(fight.parent, *args)
    assert result.rc == 2, (result.rc, result.err)
    spanish_line(result)
    assert listing(fight.parent) == before  # no z.toml, f.toml untouched


def test_unknown_subcommand_usage_is_readable(fight: Path):
    """An unknown shell command is a usage error (2); what it prints is plain text,
    not an escaped dump with literal "\\n" sequences in it."""
    result = run(fight.parent, "frobnicar", "f.toml")
    assert result.rc == 2, result.err
    assert "\\n" not in result.err, result.err[:300]
    assert result.err.count("\n") == 1 and "cdbtui --help" in result.err  # one line, and where to look


# ---------------------------------------------------------------------------
# exit status 1: a refused command, one Spanish line, nothing changed

BAD_LINES = [
    "nadie esquivar",  # unknown name
    "mike gasta 99",  # impossible spends
    "mike gasta -1",
    "sven gasta 1",  # out of its moment
    "mike volar-como-un-pajaro",  # unknown maneuver
    "estado mike +volando",  # unknown condition
    "alta",  # malformed
    "alta Pepe ac=abc",
    "alta Pepe ac=100",
    "alta Mike ac=5",  # a name already there
    '"comillas sin cerrar',
    "momento Mike 1000",
    "",
    "x" * 3000,  # longer than the 2,000 characters of a line
]


@pytest.mark.parametrize("line", BAD_LINES, ids=lambda s: repr(s[:24]))
def test_bad_command_is_refused_in_one_line_and_changes_nothing(fight: Path, line: str):
    said = refused(fight, line)
    if line.strip():
        assert line.strip()[:40] in said, said  # it names the command


@pytest.mark.parametrize("rules", list(RULES_LINES))
def test_unknown_name_is_refused_in_every_ruleset(tmp_path: Path, templates, rules: str):
    path = tmp_path / "f.toml"
    path.write_bytes(templates[rules])
    refused(path, "baja Nadie")
    refused(path, "nadie fin")


def test_invalid_utf8_on_stdin_changes_nothing(fight: Path):
    before = listing(fight.parent)
    result = run(fight.parent, "do", "f.toml", "-", stdin=b"alta Pepe ac=5\nalta \xff ac=5\n")
    assert result.rc in (1, 2), result.err
    spanish_line(result)
    assert listing(fight.parent) == before


def test_undecodable_argument_is_refused_in_one_line(fight: Path):
    """A command line that is not UTF-8 (a broken terminal) is bad input, not a crash."""
    before = listing(fight.parent)
    result = run(fight.parent, "do", "f.toml", b"alta Pe\xffpe ac=5")
    assert result.rc == 1, result.err
    spanish_line(result)
    assert listing(fight.parent) == before


# ---------------------------------------------------------------------------
# exit status 2: unreadable or corrupted saves, never touched


def _truncated(data: bytes) -> bytes:
    cut = data.index(b"[[fight.combatants]]") + 30
    return data[:cut]


def _another_program(data: bytes) -> bytes:
    return b'[tool.poetry]\nname = "otro"\nversion = "1.0"\n\n[tool.poetry.dependencies]\n' \
           b'python = "^3.11"\n'


def _newer(data: bytes) -> bytes:
    return re.sub(rb"(?m)^schema = \d+", b"schema = 99", data, count=1)


def _broken_line(data: bytes) -> bytes:
    return data.replace(b"ac = 5\n", b"ac = = 5\n", 1)


def _absurd(data: bytes) -> bytes:
    return data.replace(b"ac_per_turn = 5\n", b"ac_per_turn = 100000\n", 1)


def _control_in_name(data: bytes) -> bytes:
    return data.replace(b'name = "Sven"\n', b'name = "Sv\\u001b[2Jen\\u0007"\n', 1)


CORRUPTIONS = {
    "truncated": _truncated,
    "garbage bytes": lambda data: bytes(range(256)) * 4,
    "another program's TOML": _another_program,
    "newer schema": _newer,
    "empty": lambda data: b"",
    "broken TOML line": _broken_line,
    "absurd number": _absurd,
    "control character in a name": _control_in_name,
}

#: Every command that reads a save (`do` with a line that would succeed).
READERS = (("show", "f.toml"), ("show", "f.toml", "--json"), ("do", "f.toml", "mike gasta 1"),
           ("export", "f.toml"), ("maniobras", "f.toml"))


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_corrupted_save_is_exit_2_one_spanish_line_never_touched(fight: Path, kind: str):
    fight.write_bytes(CORRUPTIONS[kind](fight.read_bytes()))
    before = listing(fight.parent)
    for args in READERS:
        result = run(fight.parent, *args)
        assert result.rc == 2, (args, result.rc, result.err)
        line = spanish_line(result)
        assert "f.toml" in line, line  # names the file
        assert result.out == "", (args, result.out[:200])
        assert listing(fight.parent) == before, args


@pytest.mark.parametrize("kind", ["directory", "missing", "fifo"])
def test_path_that_is_not_a_save_file(tmp_path: Path, kind: str):
    target = tmp_path / "f.toml"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    before = listing(tmp_path)
    for args in READERS:
        result = run(tmp_path, *args, timeout=20)
        assert result.rc == 2, (args, result.rc, result.err)
        spanish_line(result)
        assert listing(tmp_path) == before, args
    assert not target.exists() if kind == "missing" else target.exists()


@pytest.mark.parametrize("kind", ["symlink loop", "parent is a file"])
def test_unreadable_path_says_why_in_spanish(fight: Path, kind: str):
    """The OS's reason for an unreadable save is told in Spanish too (the one line is
    Spanish, not "no se puede leer …: Not a directory")."""
    if kind == "symlink loop":
        (fight.parent / "g.toml").symlink_to("g.toml")
        path = "g.toml"
    else:
        path = "f.toml/g.toml"
    before = listing(fight.parent)
    for args in (("show", path), ("do", path, "mike gasta 1")):
        result = run(fight.parent, *args)
        assert result.rc == 2, (args, result.rc, result.err)
        spanish_line(result)
        assert listing(fight.parent) == before


def test_unreadable_permissions(fight: Path):
    """chmod 000: unreadable for a user (exit 2, one Spanish line, untouched); root
    reads it anyway, so there it is an ordinary save (shown, played, nothing lost)."""
    data = fight.read_bytes()
    fight.chmod(0)
    try:
        if os.geteuid() != 0:
            for args in READERS:
                result = run(fight.parent, *args)
                assert result.rc == 2, (args, result.rc, result.err)
                spanish_line(result)
            fight.chmod(0o600)
            assert fight.read_bytes() == data
        else:
            shown = run(fight.parent, "show", "f.toml")
            assert shown.rc == 0, shown.err
            assert "Mike" in shown.out
            assert fight.read_bytes() == data  # show changes nothing
            played = run(fight.parent, "do", "f.toml", "mike gasta 1")
            assert played.rc == 0, played.err
            assert who(fight, "Mike")["ac"] == 6
    finally:
        if fight.exists():
            fight.chmod(0o600)


def test_truncated_anywhere_is_shown_or_refused_never_changed(fight: Path):
    """A save cut at any byte either loads (a torn last entry is dropped) or is one
    Spanish line with exit 2; `show` never changes it."""
    run(fight.parent, "do", "f.toml", "nota Mike uno")  # a longer file with more sections
    data = fight.read_bytes()
    target = fight.parent / "t.toml"
    for cut in [*range(0, len(data), max(1, len(data) // 12)), len(data) - 2]:
        target.write_bytes(data[:cut])
        result = run(fight.parent, "show", "t.toml", "--json")
        assert result.rc in (0, 2), (cut, result.rc, result.err)
        if result.rc == 2:
            spanish_line(result)
        else:
            json.loads(result.out)
        assert target.read_bytes() == data[:cut], cut


def test_torn_last_journal_entry_is_dropped_on_load(fight: Path):
    """README: "A write cut short leaves a torn last entry, dropped on load"."""
    with fight.open("ab") as handle:
        handle.write(b'\n[[journal]]\ndo = "alta Zed ac=5"\n[[journal]]\ndo = "alta Ya')
    data = fight.read_bytes()
    assert names(fight) == ["Mike", "Sven", "Zed"]
    assert fight.read_bytes() == data
    played = run(fight.parent, "do", "f.toml", "mike gasta 1")
    assert played.rc == 0, played.err
    assert names(fight) == ["Mike", "Sven", "Zed"]
    assert who(fight, "Mike")["ac"] == 6


# ---------------------------------------------------------------------------
# `do`: stops at the first command that fails, the save as it was before it

FAILING_THIRD = ["baja Nadie", "mike gasta 99"]


@pytest.mark.parametrize("third", FAILING_THIRD)
def test_do_stops_at_the_third_line_the_first_two_kept(fight: Path, third: str):
    twin = fight.parent / "twin.toml"
    twin.write_bytes(fight.read_bytes())
    assert run(fight.parent, "do", "twin.toml", "alta Ana ac=5", "mike gasta 2").rc == 0

    result = run(fight.parent, "do", "f.toml", "alta Ana ac=5", "mike gasta 2", third,
                 "alta Bea ac=5")
    assert result.rc == 1, result.err
    line = spanish_line(result)
    assert f"«{third}»" in line, line  # names the command
    after = state(fight)  # the save loads
    assert [c["name"] for c in after["combatants"]] == ["Mike", "Sven", "Ana"]
    assert who(fight, "Mike")["ac"] == 5
    assert after == state(twin)
    assert fight.read_bytes() == twin.read_bytes()  # exactly as before that command


def test_do_failure_after_an_undo_keeps_the_redo(fight: Path):
    result = run(fight.parent, "do", "f.toml", "mike gasta 2", "deshacer", "zzz", "siguiente")
    assert result.rc == 1, result.err
    assert "«zzz»" in spanish_line(result)
    assert who(fight, "Mike")["ac"] == 7
    assert state(fight)["moment"] == 7
    again = run(fight.parent, "do", "f.toml", "rehacer")
    assert again.rc == 0, again.err
    assert who(fight, "Mike")["ac"] == 5


def test_do_stdin_failing_line_in_the_middle(fight: Path):
    script = b"alta Ana ac=5\nnota Ana primera\nbaja Nadie\nalta Bea ac=5\n"
    result = run(fight.parent, "do", "f.toml", "-", stdin=script)
    assert result.rc == 1, result.err
    assert "«baja Nadie»" in spanish_line(result)
    assert names(fight) == ["Mike", "Sven", "Ana"]
    assert who(fight, "Ana")["notes"][0]["text"] == "primera"


def test_do_stdin_blank_lines_and_crlf(fight: Path):
    """Lines read from stdin: blank or white lines and a final newline are not
    commands; CRLF line ends are line ends."""
    script = b"\n  \nalta Ana ac=5\r\n\r\n\talta Bea ac=5   \n\n"
    result = run(fight.parent, "do", "f.toml", "-", stdin=script)
    assert result.rc == 0, result.err
    assert names(fight) == ["Mike", "Sven", "Ana", "Bea"]


# ---------------------------------------------------------------------------
# `new` never overwrites


@pytest.mark.parametrize("kind", ["a save", "an empty file", "a directory"])
def test_new_refuses_to_overwrite(fight: Path, kind: str):
    target = fight.parent / "g.toml"
    if kind == "a save":
        target.write_bytes(fight.read_bytes())
    elif kind == "a text file":
        target.write_text("apuntes de la partida\n")
    elif kind == "an empty file":
        target.write_bytes(b"")
    else:
        target.mkdir()
    before = listing(fight.parent)
    for rules in ("cdb", "walkure", "csystem", "narrador"):
        result = run(fight.parent, "new", "g.toml", "--rules", rules)
        assert result.rc in (1, 2), (rules, result.rc, result.err)
        spanish_line(result)
        assert listing(fight.parent) == before


# ---------------------------------------------------------------------------
# names: markup, control characters, length, non-ASCII

ACCEPTED_NAMES = ["[bold]x[/bold]", "[red]Rojo", "Muñoz Ágata [/]", "🐉 Dragón 日本", "a" * 60]


@pytest.mark.parametrize("name", ACCEPTED_NAMES)
def test_name_round_trips(fight: Path, name: str):
    added = run(fight.parent, "do", "f.toml", f'alta "{name}" ac=5', f'nota "{name}" vista')
    assert added.rc == 0, added.err
    assert b"\x1b" not in added.out_bytes and b"\x07" not in added.out_bytes
    combatant = who(fight, name)  # show --json gives the same name
    assert combatant["notes"][0]["text"] == "vista"
    shown = run(fight.parent, "show", "f.toml")
    assert shown.rc == 0, shown.err  # the save loads again
    assert name in shown.out  # shown literally: no markup interpreted
    assert b"\x1b" not in shown.out_bytes and b"\x07" not in shown.out_bytes
    removed = run(fight.parent, "do", "f.toml", f'baja "{name}"')
    assert removed.rc == 0, removed.err
    assert names(fight) == ["Mike", "Sven"]


@pytest.mark.parametrize("rules", ["csystem", "narrador"])
def test_name_round_trips_in_the_other_rulesets(tmp_path: Path, templates, rules: str):
    path = tmp_path / "f.toml"
    path.write_bytes(templates[rules])
    name = "🐉 [bold]Dragón[/bold]"
    stats = "des=2 ale=1" if rules == "csystem" else "ini=3 fv=1"
    added = run(tmp_path, "do", "f.toml", f'alta "{name}" {stats}')
    assert added.rc == 0, added.err
    assert name in names(path)
    shown = run(tmp_path, "show", "f.toml")
    assert shown.rc == 0 and name in shown.out, shown.err


CONTROL_NAMES = ["\x1b[31mRojo", "Campana\x07", "Vuelta\rAtras", "Dos\nLineas", "CSI\x9b31m"]


@pytest.mark.parametrize("name", CONTROL_NAMES, ids=ascii)
def test_control_character_in_a_name_is_refused_in_one_line(fight: Path, name: str):
    said = refused(fight, f'alta "{name}" ac=5')
    assert not any(unicodedata.category(ch) == "Cc" for ch in said), ascii(said)
    assert "\u202e" not in said


def test_control_character_in_other_text_is_refused(fight: Path):
    for line in ('nota Mike "hola \x1b]0;titulo\x07"', 'nombre "Pelea\x1b[2J"'):
        said = refused(fight, line)
        assert not any(unicodedata.category(ch) == "Cc" for ch in said), ascii(said)


def test_name_too_long_is_refused_in_one_line(fight: Path):
    refused(fight, f'alta "{"a" * 61}" ac=5')


# ---------------------------------------------------------------------------
# a second program writing: nothing acknowledged is lost


def test_hand_edit_between_two_do_is_kept(fight: Path):
    fight.write_bytes(fight.read_bytes().replace(b'name = "Sven"\n', b'name = "Svenny"\n', 1))
    played = run(fight.parent, "do", "f.toml", "mike gasta 1")
    assert played.rc == 0, played.err
    assert [(c["name"], c["ac"]) for c in state(fight)["combatants"]] == \
        [("Mike", 6), ("Svenny", 5)]


def test_journal_entry_appended_by_another_program_is_kept(fight: Path):
    """README's format: commands since the last full write are `[[journal]]` entries."""
    with fight.open("ab") as handle:
        handle.write(b'\n[[journal]]\ndo = "nota Sven escrita por otro"\n')
    played = run(fight.parent, "do", "f.toml", "mike gasta 1")
    assert played.rc == 0, played.err
    assert who(fight, "Sven")["notes"][0]["text"] == "escrita por otro"
    assert who(fight, "Mike")["ac"] == 6


def test_do_waits_for_the_folder_lock_and_reads_what_the_other_wrote(fight: Path):
    """Every writer holds a lock on the save's folder from its read until its write is
    durable: `do` waits while another holds it, then computes from what that one wrote."""
    folder = os.open(fight.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        before = fight.read_bytes()
        child = subprocess.Popen([sys.executable, "-m", "cdbtui", "do", "f.toml", "mike gasta 1"],
                                 cwd=fight.parent, env=env_for(fight.parent),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(1.5)
        assert child.poll() is None, "do did not wait for the folder lock"
        assert fight.read_bytes() == before
        edited = before.replace(b'name = "Sven"\n', b'name = "Svenny"\n', 1)
        scratch = fight.parent / "edit.tmp"
        scratch.write_bytes(edited)
        os.replace(scratch, fight)  # the other program's write, under its lock
    finally:
        fcntl.flock(folder, fcntl.LOCK_UN)
        os.close(folder)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err.decode()
    assert b"Traceback" not in err
    assert [(c["name"], c["ac"]) for c in state(fight)["combatants"]] == \
        [("Mike", 6), ("Svenny", 5)]


def test_concurrent_do_lose_nothing(tmp_path: Path):
    path = make(tmp_path, lines=())
    children = [subprocess.Popen([sys.executable, "-m", "cdbtui", "do", "f.toml",
                                  f"alta P{i} ac=5", f"nota P{i} hola{i}"],
                                 cwd=tmp_path, env=env_for(tmp_path),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for i in range(8)]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err.decode()  # acknowledged...
    after = state(path)  # ...so on disk
    assert sorted(c["name"] for c in after["combatants"]) == [f"P{i}" for i in range(8)]
    for c in after["combatants"]:
        assert c["notes"] == [{"text": f"hola{c['name'][1:]}", "turns_left": None}]


def _disk_full(limit: int):
    def child() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return child


NOTES = [f"nota Mike nota{i:02d}-{'x' * 40}" for i in range(20)]


def _play_on_a_full_disk(fight: Path) -> Run:
    env = env_for(fight.parent, PYTHONDONTWRITEBYTECODE="1")
    return run(fight.parent, "do", "f.toml", *NOTES, env=env,
               preexec_fn=_disk_full(len(fight.read_bytes()) + 300))


def test_full_disk_keeps_a_loadable_prefix(fight: Path):
    """README: "A write cut short by a full disk is cut back and the command is not
    applied": the save loads, holding exactly the commands before the one that failed."""
    result = _play_on_a_full_disk(fight)
    assert result.rc != 0, "the disk was full: some command cannot have been saved"
    kept = [n["text"] for n in who(fight, "Mike")["notes"]]
    assert kept == [line.split(" ", 2)[2] for line in NOTES[:len(kept)]]
    assert len(kept) < len(NOTES)


def test_full_disk_failure_names_the_command(fight: Path):
    """COMMANDS.md: `do` "Stops at the first command that fails: exit status 1, a
    one-line error on stderr naming the command"; in Spanish."""
    result = _play_on_a_full_disk(fight)
    kept = len(who(fight, "Mike")["notes"])
    problems = []
    if result.rc != 1:
        problems.append(f"exit {result.rc}, not 1")
    if NOTES[kept][:20] not in result.err:
        problems.append(f"does not name «{NOTES[kept][:20]}…»")
    try:
        spanish_line(result)
    except AssertionError as error:
        problems.append(str(error).splitlines()[0])
    assert not problems, (problems, result.err)


# ---------------------------------------------------------------------------
# a closed pipe is not an error


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A fight large enough that `show` and `export` overflow a pipe's buffer (64 KiB),
    and a saves folder of copies for `list`."""
    folder = tmp_path_factory.mktemp("big")
    lines = [f"alta {base} ac=5 ini=1 copias=50" for base in
             ("Orco", "Trasgo", "Lobo", "Bandido", "Esqueleto", "Cultista", "Guardia",
              "Marinero", "Arquero", "Sectario")]
    path = make(folder, [*lines, "tirar", "empezar", "turno", "turno"], name="grande.toml")
    saves = folder / "saves"
    saves.mkdir()
    for number in range(30):
        shutil.copy(path, saves / f"copia-{number:02}.toml")
    return path


PIPED = [("show", "grande.toml"), ("list",),
         ("export", "grande.toml"), ("export", "grande.toml", "--format", "html")]


@pytest.mark.parametrize("args", PIPED, ids=" ".join)
def test_closed_pipe_exits_quietly(big: Path, args):
    command = " ".join([sys.executable, "-m", "cdbtui", *args])
    shell = subprocess.run(["sh", "-c", f"{command} | head -1 >/dev/null; echo $? >&2"],
                           cwd=big.parent, env=env_for(big.parent), capture_output=True,
                           timeout=120, check=False)
    noise = shell.stderr.decode()
    assert noise.strip() == "0", noise  # only head's status: nothing from cdbtui

    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first byte
    try:
        done = subprocess.run([sys.executable, "-m", "cdbtui", *args], cwd=big.parent,
                              env=env_for(big.parent), stdout=writer, stderr=subprocess.PIPE,
                              timeout=120, check=False)
    finally:
        os.close(writer)
    err = done.stderr.decode()
    assert "error" not in err.lower() and "Traceback" not in err and "Exception" not in err, err
    assert done.returncode in (0, -signal.SIGPIPE), (done.returncode, err)


# ---------------------------------------------------------------------------
# --json: valid JSON with the documented fields, for each ruleset

STATUSES = {"ready", "acted", "holding", "waiting", "done", "out"}


def _check_countdown_json(data: dict, rules: str) -> None:
    """COMMANDS.md's fields of `show --json` (CdB and Walküre)."""
    assert isinstance(data["schema"], int)
    assert data["rules"] == rules
    assert isinstance(data["turn"], int)
    assert data["moment"] is None or isinstance(data["moment"], int)
    assert isinstance(data["turn_over"], bool)
    assert isinstance(data["queue"], list) and all(isinstance(n, str) for n in data["queue"])
    assert "window" in data and (data["window"] is None or isinstance(data["window"], int))
    for c in data["combatants"]:
        for key in ("name", "side"):
            assert isinstance(c[key], str), key
        assert isinstance(c["hidden"], bool)
        for key in ("start", "marker", "ac", "ac_per_turn", "attacks", "modifier"):
            assert c[key] is None or isinstance(c[key], int), key
        assert c["status"] in STATUSES
        carried = c["carried"]
        assert carried is None or (isinstance(carried["maneuver"], str)
                                   and isinstance(carried["remaining"], int))
        assert isinstance(c["conditions"], list)
        assert all(isinstance(x, str) for x in c["conditions"])
        assert isinstance(c["expires"], dict)
        for note in c["notes"]:
            assert isinstance(note["text"], str)
            assert note["turns_left"] is None or isinstance(note["turns_left"], int)


@pytest.mark.parametrize("rules", ["cdb", "walkure"])
def test_json_fields_countdown_rulesets(tmp_path: Path, templates, rules: str):
    empty = make(tmp_path, lines=(), rules=rules, name="vacio.toml")
    data = state(empty)
    _check_countdown_json(data, rules)
    assert data["turn"] == 0 and data["moment"] is None  # before `empezar`

    path = tmp_path / "f.toml"
    path.write_bytes(templates[rules])
    played = run(tmp_path, "do", "f.toml", "mike disparar-armas-largas",
                 "estado Sven +agarrado turnos=2", "nota Sven vigila turnos=2")
    assert played.rc == 0, played.err
    data = state(path)
    _check_countdown_json(data, rules)
    assert data["turn"] == 1 and isinstance(data["moment"], int)
    sven = next(c for c in data["combatants"] if c["name"] == "Sven")
    assert sven["conditions"] == ["agarrado"] and sven["expires"] == {"agarrado": 2}
    assert sven["notes"] == [{"text": "vigila", "turns_left": 2}]


def test_json_fields_csystem(tmp_path: Path, templates):
    """SYSTEMS.md §2.4, with COMMANDS.md's shared fields."""
    path = tmp_path / "f.toml"
    path.write_bytes(templates["csystem"])
    data = state(path)
    assert isinstance(data["schema"], int) and data["rules"] == "csystem"
    assert data["turn"] == 1 and isinstance(data["turn_over"], bool)
    assert data["actor"] == "Sicario" and data["order"] == ["Sicario", "Titan"]
    for c in data["combatants"]:
        assert isinstance(c["name"], str) and isinstance(c["side"], str)
        assert isinstance(c["hidden"], bool) and isinstance(c["notes"], list)
        for key in ("initiative", "place", "level", "vitality", "vitality_max", "criticals",
                    "aim"):
            assert isinstance(c[key], int), key
        assert "after" in c and isinstance(c["acted"], bool)
        assert isinstance(c["used"], list) and isinstance(c["left"], list)
        assert all(len(pair) == 2 for pair in c["left"])
        assert isinstance(c["maneuvers"], list)
        assert set(c["defense"]) >= {"ranged", "melee"}
        assert "composure" in c and "energy" in c and "pending" in c
        assert isinstance(c["conditions"], list) and isinstance(c["weapons"], list)


def test_json_fields_narrador(tmp_path: Path, templates):
    """SYSTEMS.md §3.4, with COMMANDS.md's shared fields."""
    path = tmp_path / "f.toml"
    path.write_bytes(templates["narrador"])
    data = state(path)
    assert data["rules"] == "narrador" and data["turn"] == 1
    assert data["phase"] in {"initiative", "declare", "act", "over"}
    assert data["phase"] == "declare" and data["declarer"] == "Maton"
    assert data["order"] == ["Kara", "Maton"] and "actor" in data
    statuses = {"to_declare", "declared", "delaying", "acted", "stunned", "out"}
    for c in data["combatants"]:
        assert isinstance(c["name"], str) and isinstance(c["notes"], list)
        assert isinstance(c["initiative"], int) and isinstance(c["rating"], int)
        assert c["status"] in statuses
        assert isinstance(c["declared"], list)
        assert "full_defense" in c and isinstance(c["defenses"], int)
        assert "next_defense_penalty" in c and isinstance(c["aborted"], bool)
        assert set(c["willpower"]) >= {"rating", "points", "spent_this_turn"}
        assert set(c["health"]) >= {"levels", "lethal", "bashing", "penalty"}
        for key in ("aim", "cover", "opponents"):
            assert isinstance(c[key], int), key
        assert isinstance(c["conditions"], list) and isinstance(c["weapons"], list)


# ---------------------------------------------------------------------------
# the party roster (saves/_grupo.toml), read by `grupo` and `new --grupo`

ROSTER_CORRUPTIONS = {
    "garbage bytes": b"[[pj]]\nname = \"Ana\xff\xfe\"\nac = 5\n",
    "broken TOML": b"[[pj]]\nname = \"Ana\"\nac",
    "a directory": None,
}


@pytest.mark.parametrize("kind", list(ROSTER_CORRUPTIONS))
def test_corrupted_roster_is_one_spanish_line_never_touched(tmp_path: Path, kind: str):
    saves = tmp_path / "saves"
    saves.mkdir()
    roster = saves / "_grupo.toml"
    if ROSTER_CORRUPTIONS[kind] is None:
        roster.mkdir()
    else:
        roster.write_bytes(ROSTER_CORRUPTIONS[kind])
    before = listing(saves), listing(tmp_path)
    for args in (("grupo",), ("grupo", "alta", "Bea", "ac=5"), ("new", "g.toml", "--grupo")):
        result = run(tmp_path, *args)
        assert result.rc == 2, (args, result.rc, result.err)
        spanish_line(result)
        assert (listing(saves), listing(tmp_path)) == before, args


def test_roster_command_refused_is_exit_1(tmp_path: Path):
    """A refused command (bad input: an unknown name, a malformed value) is exit 1."""
    made = run(tmp_path, "grupo", "alta", "Ana", "ac=5")
    assert made.rc == 0, made.err
    before = listing(tmp_path / "saves")
    for args in (("grupo", "baja", "Nadie"), ("grupo", "alta", "Bea", "ac=abc")):
        result = run(tmp_path, *args)
        spanish_line(result)
        assert listing(tmp_path / "saves") == before
        assert result.rc == 1, (args, result.rc, result.err)
