"""A setting already in place (`fatiga-cc si` when it is on, `revelar` on someone
visible, `ocultar` on someone hidden, `rapida no` when it is off…) is refused.

Why a refusal and not "accepted, nothing changed":

- every accepted command is one line of the fight's history, saved and undoable
  (COMMANDS.md: «everything is undoable»; `Session.run` pushes the line): an
  accepted no-op would write a line that changes nothing and a `deshacer` that
  takes back nothing;
- the rules engine either returns a changed fight or refuses, «in which case
  nothing changed» (`rules.apply`), and «A refused command leaves the fight
  unchanged and says why in one line» (COMMANDS.md);
- RULES.md §5 defines `revelar` on «a hidden combatant» and `ocultar` on a visible
  one; COMMANDS.md's `cdbtui do` «Stops at the first command that fails: exit status
  1, a one-line error on stderr naming the command, and the save left exactly as it
  was before that command», the same command language as the TUI's `:` line.

So through the shell: exit 1, one Spanish line naming the command and the state it
is already in, the save unchanged byte for byte, and the rest of a script not run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shell import cdbtui

from cdbtui.engine.errors import Refusal
from cdbtui.store import load

SETUP = [
    "alta Sven ac=5 bando=pj", "alta Pug ac=6", "alta Sombra ac=5 oculto",
    "momento Sven 5", "momento Pug 4", "momento Sombra 3", "empezar",
    "estado Pug +aturdido",
]

#: (lines that set things up, the repeated line, what the refusal says).
REPEATED = [
    ([], "fatiga-cc si", "La fatiga por combate cuerpo a cuerpo ya está activada"),
    ([], "melee-fatigue on", "La fatiga por combate cuerpo a cuerpo ya está activada"),
    (["fatiga-cc no"], "fatiga-cc no", "La fatiga por combate cuerpo a cuerpo ya está desactivada"),
    (["fatiga-cc no"], "melee-fatigue off", "ya está desactivada"),
    ([], "revelar Sven", "Sven no está oculto: los jugadores ya lo ven"),
    ([], "reveal sven", "Sven no está oculto: los jugadores ya lo ven"),
    (["revelar Sombra"], "revelar Sombra", "Sombra no está oculto: los jugadores ya lo ven"),
    ([], "ocultar Sombra", "Sombra ya está oculto: los jugadores no lo ven"),
    ([], "hide Sombra", "Sombra ya está oculto: los jugadores no lo ven"),
    (["ocultar Sven"], "ocultar Sven", "Sven ya está oculto: los jugadores no lo ven"),
    ([], "rapida no", "La Iniciativa Rápida ya está desactivada"),
    ([], "quick off", "La Iniciativa Rápida ya está desactivada"),
    ([], "estado Pug +aturdido", "Pug ya está aturdido"),
    ([], "estado Sven -cegado", "Sven no está cegado"),
    ([], "nota Sven -", "Sven no tiene notas que borrar"),
]
IDS = [f"{'+'.join(before) or 'base'}:{line}" for before, line, _ in REPEATED]


@pytest.fixture(scope="module")
def base_save(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("repeated") / "f.toml"
    assert cdbtui("new", str(path), "--seed", "3").returncode == 0
    result = cdbtui("do", str(path), "-", stdin="\n".join(SETUP) + "\n")
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def save(base_save: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "f.toml"
    copy.write_bytes(base_save.read_bytes())
    return copy


@pytest.fixture
def unstarted(tmp_path: Path) -> Path:
    """Before `empezar`: where Iniciativa Rápida may be switched (RULES.md §3)."""
    path = tmp_path / "u.toml"
    assert cdbtui("new", str(path), "--seed", "3").returncode == 0
    assert cdbtui("do", str(path), *SETUP[:3]).returncode == 0
    return path


def pick(request, line: str) -> Path:
    return request.getfixturevalue("unstarted" if line.startswith("rapida") else "save")


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def history(path: Path) -> list[str]:
    return list(load(path).lines)


@pytest.mark.parametrize(("before", "line", "reason"), REPEATED, ids=IDS)
def test_a_repeated_setting_is_refused_and_the_save_is_unchanged(save, before, line, reason):
    if before:
        assert cdbtui("do", str(save), *before).returncode == 0
    bytes_before = save.read_bytes()
    result = cdbtui("do", str(save), line)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stderr == f"cdbtui: «{line}»: {reason}\n" or (
        result.stderr.startswith(f"cdbtui: «{line}»: ") and result.stderr.endswith(f"{reason}\n")
        and result.stderr.count("\n") == 1), result.stderr
    assert result.stdout == ""  # no board: the command failed
    assert save.read_bytes() == bytes_before


@pytest.mark.parametrize(("before", "line", "reason"), REPEATED, ids=IDS)
def test_the_engine_refuses_it_the_same_and_records_nothing(base_save, before, line, reason):
    """The TUI's `:` line and `cdbtui do` run the same `Session.execute`: the same
    refusal, and no history line (an accepted no-op would be one)."""
    session = load(base_save)
    for earlier in before:
        session.execute(earlier)
    lines, redo, fight = list(session.lines), list(session.redo_lines), session.fight
    with pytest.raises(Refusal) as refused:
        session.execute(line)
    assert reason in str(refused.value)
    assert session.lines == lines and session.redo_lines == redo and session.fight is fight


@pytest.mark.parametrize(("first", "repeated"), [
    ("fatiga-cc no", "fatiga-cc no"),
    ("revelar Sombra", "reveal Sombra"),
    ("ocultar Sven", "hide Sven"),
    ("rapida si", "quick on"),
])
def test_a_script_stops_at_the_repeated_setting_keeping_what_came_before(request, first, repeated):
    save = pick(request, first)
    before = history(save)
    result = cdbtui("do", str(save), "nota Sven antes", first, repeated, "nota Sven después")
    assert result.returncode == 1
    assert result.stderr.startswith(f"cdbtui: «{repeated}»: ") and " ya " in result.stderr
    assert result.stderr.count("\n") == 1
    lines = history(save)
    assert len(lines) == len(before) + 2 and lines[-2] == "nota Sven antes"  # and `first`
    assert "después" not in " ".join(lines)
    notes = [n["text"] for n in {c["name"]: c for c in state(save)["combatants"]}["Sven"]["notes"]]
    assert notes == ["antes"]


def test_a_script_on_stdin_stops_there_too(save):
    script = "# la fatiga ya está activada por defecto\nnota Sven uno\nfatiga-cc si\nnota Sven dos\n"
    before = history(save)
    result = cdbtui("do", str(save), "-", stdin=script)
    assert result.returncode == 1
    assert result.stderr == "cdbtui: «fatiga-cc si»: La fatiga por combate cuerpo a cuerpo ya está activada\n"
    assert history(save) == [*before, "nota Sven uno"]


@pytest.mark.parametrize(("line", "check"), [
    ("fatiga-cc no", lambda fight: not fight.melee_fatigue),
    ("revelar Sombra", lambda fight: not fight.find("Sombra").hidden),
    ("ocultar Sven", lambda fight: fight.find("Sven").hidden),
    ("rapida si", lambda fight: fight.quick),
])
def test_the_first_setting_changes_the_fight_is_one_history_line_and_undoable(request, line, check):
    save = pick(request, line)
    before = history(save)
    shown_before = state(save)
    result = cdbtui("do", str(save), line)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    after = load(save)
    assert check(after.fight)
    assert list(after.lines) == [*before, after.lines[-1]] and len(after.lines) == len(before) + 1
    undone = cdbtui("do", str(save), "deshacer")
    assert undone.returncode == 0 and undone.stdout.startswith("Deshecho: ")
    assert not check(load(save).fight)
    assert history(save) == before
    assert state(save) == shown_before


def test_every_accepted_command_is_a_history_line(base_save):
    """Why an accepted no-op is not an option: `execute` always records the line."""
    session = load(base_save)
    count = len(session.lines)
    session.execute("fatiga-cc no")
    session.execute("fatiga-cc si")
    assert len(session.lines) == count + 2
    assert session.fight.melee_fatigue
    with pytest.raises(Refusal):
        session.execute("fatiga-cc si")
    assert len(session.lines) == count + 2
