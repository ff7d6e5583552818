"""The shell interface: real files, the exit codes of COMMANDS.md.

Most tests call `cdbtui.cli.main(argv)` in this process (`shell.cdbtui`: output
captured, stdin as bytes, a working folder for the call); a handful run
`python -m cdbtui` for real (`shell.process`) for what only a process shows: the
exit status through `sys.exit`, no traceback on stderr, `-` on a real stdin.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shell import cdbtui, process

DEMO = Path(__file__).parents[1] / "cdbtui" / "demo" / "puerto.txt"


def state(path: Path) -> dict:
    result = cdbtui("show", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def by_name(data: dict) -> dict[str, dict]:
    return {c["name"]: c for c in data["combatants"]}


def test_new_creates_an_empty_fight_and_refuses_to_overwrite(tmp_path):
    path = tmp_path / "nueva.toml"
    first = cdbtui("new", str(path), "--rules", "walkure")
    assert first.returncode == 0
    data = state(path)
    assert (data["schema"], data["rules"], data["turn"], data["moment"]) == (1, "walkure", 0, None)
    assert data["combatants"] == [] and data["queue"] == []
    before = path.read_bytes()
    again = cdbtui("new", str(path))
    assert again.returncode == 2
    assert "ya existe" in again.stderr and again.stderr.count("\n") == 1
    assert path.read_bytes() == before


def test_do_prints_the_board_and_saves_each_command(save):
    result = cdbtui("do", str(save), "mike disparar-armas-largas", '"Soldado 1" ponerse-a-cubierto')
    assert result.returncode == 0, result.stderr
    assert "Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1" in result.stdout
    assert "  Mom │" in result.stdout
    fighters = by_name(state(save))
    assert (fighters["Mike"]["marker"], fighters["Mike"]["ac"]) == (4, 4)
    assert (fighters["Soldado 1"]["marker"], fighters["Soldado 1"]["ac"]) == (5, 5)


def test_json_has_the_contract_fields(save):
    cdbtui("do", str(save), "mike disparar-armas-largas")
    data = state(save)
    for key in ("schema", "rules", "turn", "moment", "turn_over", "queue", "combatants"):
        assert key in data
    mike = by_name(data)["Mike"]
    for key in ("name", "side", "hidden", "start", "marker", "ac", "ac_per_turn", "status",
                "attacks", "carried", "conditions", "modifier"):
        assert key in mike
    assert mike["status"] == "acted" and mike["attacks"] == 1 and mike["modifier"] == -1
    assert data["queue"] == ["Soldado 1"] and data["moment"] == 6


def test_stdin_commands_and_comments(save):
    """`-` on a real process's stdin (the in-process runs give it as bytes)."""
    script = "# a comment\n\nmike disparar-armas-largas\n  \nsoldado 1 cubierto\n"
    result = process("do", str(save), "-", stdin=script)
    assert result.returncode == 0, result.stderr
    assert state(save)["moment"] == 5


def test_undo_and_redo_work_across_invocations(save):
    cdbtui("do", str(save), "mike disparar-armas-largas")
    after_shot = save.read_text()
    assert cdbtui("do", str(save), "deshacer").returncode == 0
    assert by_name(state(save))["Mike"]["marker"] == 7
    assert cdbtui("do", str(save), "redo").returncode == 0
    assert by_name(state(save))["Mike"]["marker"] == 4
    assert save.read_text() == after_shot


def test_stops_at_the_first_refused_command_keeping_the_earlier_ones(save):
    result = cdbtui("do", str(save), "mike disparar-armas-largas", "sven esquivar-disparos", "mike fin")
    assert result.returncode == 1
    assert "sven esquivar-disparos" in result.stderr and "Gun Kata".lower() in result.stderr.lower()
    fighters = by_name(state(save))
    assert fighters["Mike"]["marker"] == 4 and fighters["Mike"]["status"] == "acted"


def test_show_text_changes_nothing(save):
    before = save.read_bytes()
    result = cdbtui("show", str(save))
    assert result.returncode == 0
    assert "Emboscada en el puerto" in result.stdout and "Mike" in result.stdout
    assert save.read_bytes() == before


BAD_LINES = [
    "",
    "   ",
    "nadie disparar-armas-largas",
    "mike",
    "mike volar",
    "mike disparar",  # ambiguous prefix
    "s disparar-armas-largas",  # ambiguous name prefix
    "sven disparar-armas-largas",  # not his moment
    "mike disparar-armas-largas 3",  # fixed cost takes no number
    "mike mover",  # variable cost needs the movement AC
    "mike mover -2",
    "mike gasta",
    "mike gasta 0",
    "mike gasta -1",
    "mike gasta tres",
    "mike gasta 8",  # more than his AC per turn
    "mike proyectar",  # needs Artista Marcial
    "mike actua",  # not holding
    "mike interrumpe disparar-armas-largas",  # not waiting
    "alta",
    "alta Mike ac=5",  # duplicate name
    "alta Pepe",  # missing ac
    "alta Pepe ac=0",
    "alta Pepe ac=x",
    "alta Pepe ac=5 fuerza=3",
    "alta Pepe ac=5 talentos=volar",
    "alta turno ac=5",  # reserved word as a name
    "baja",
    "baja Nadie",
    "momento Mike 9",  # initiative is rolled once per fight
    "momento Mike",
    "tirar Mike",  # once per fight
    "empezar",  # already started
    "rehacer",  # nothing to redo
    "estado Mike agarrado",  # missing sign
    "estado Mike -agarrado",  # not grappled
    "dano Mike",
    "dano Mike cinco",
    "dano Mike 3 rd=",
    "cambiar Mike Sven",  # not tied
    'mike "sin cerrar',
    "siguiente ya",
    "sorpresa",
]


@pytest.mark.parametrize("line", BAD_LINES)
def test_bad_input_is_refused_with_one_spanish_line_and_changes_nothing(save, line):
    before = save.read_bytes()
    result = cdbtui("do", str(save), line)
    assert result.returncode == 1, (line, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("cdbtui: «")
    assert "Traceback" not in result.stderr
    assert save.read_bytes() == before


def test_there_are_at_least_thirty_bad_lines():
    assert len(set(BAD_LINES)) >= 30


def test_undo_with_empty_history_is_refused(tmp_path):
    path = tmp_path / "vacia.toml"
    cdbtui("new", str(path))
    result = cdbtui("do", str(path), "deshacer")
    assert result.returncode == 1 and "deshacer" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("do",),
        ("do", "x.toml"),
        ("show",),
        ("show", "a.toml", "b.toml"),
        ("new",),
        ("new", "a.toml", "--rules", "gurps"),
        ("new", "a.toml", "--seed", "x"),
        ("--frob",),
        ("list", "extra"),
        ("export",),
        ("export", "a.toml", "--format", "pdf"),
        ("serve", "a.toml", "--port", "x"),
        ("serve", "a.toml", "--port", "70000"),
        ("view",),
        ("grupo", "vuela"),
        ("--saves",),
    ],
)
def test_usage_errors_exit_2(tmp_path, args):
    result = cdbtui(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("cdbtui: ") and "Traceback" not in result.stderr


def test_unreadable_saves_exit_2_without_traceback(tmp_path):
    cases = {
        "missing.toml": None,
        "basura.toml": "esto no es toml = = =",
        "ajena.toml": 'title = "otra cosa"\n',
        "futura.toml": 'app = "cdbtui"\nschema = 99\n',
        "rota.toml": 'app = "cdbtui"\nschema = 2\n[fight]\nturn = "x"\n',
        "vieja-rota.toml": 'format = "cdbtui"\nversion = 1\n[fight]\nturn = "x"\n',
    }
    for name, text in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        for args in (("show", str(path)), ("do", str(path), "siguiente")):
            result = cdbtui(*args)
            assert result.returncode == 2, (name, result.stderr)
            assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        if text is not None:
            assert path.read_text() == text
    assert "más nueva" in cdbtui("show", str(tmp_path / "futura.toml")).stderr


def test_help_exits_0():
    result = process("--help")
    assert result.returncode == 0 and "cdbtui do RUTA" in result.stdout


@pytest.mark.parametrize(("args", "status"), [
    (("do", "{save}", "sven disparar-armas-largas"), 1),  # refused: not his moment
    (("new", "{save}"), 2),                               # usage: the file exists
    (("show", "{tmp}/basura.toml"), 2),                   # unreadable save
    (("--frob",), 2),                                     # usage: unknown option
], ids=["refused", "exists", "unreadable", "unknown-option"])
def test_a_real_process_exits_with_the_status_and_one_line_no_traceback(save, tmp_path,
                                                                        args, status):
    """The in-process tests check `main`'s return; here `python -m cdbtui` exits with it."""
    (tmp_path / "basura.toml").write_text("esto no es toml = = =")
    before = save.read_bytes()
    result = process(*(a.format(save=save, tmp=tmp_path) for a in args), cwd=tmp_path)
    assert result.returncode == status, result.stderr
    assert result.stderr.startswith("cdbtui: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    assert save.read_bytes() == before


# ---------------------------------------------------------------- issue 4 commands


def test_list_shows_the_fights_of_the_saves_folder(save, tmp_path):
    folder = tmp_path / "mis-partidas"
    folder.mkdir()
    (folder / "puerto.toml").write_bytes(save.read_bytes())
    result = cdbtui("--saves", str(folder), "list")
    assert result.returncode == 0, result.stderr
    assert "puerto.toml" in result.stdout and "Emboscada en el puerto (CdB)" in result.stdout
    assert "turno 1" in result.stdout and "4 combatientes" in result.stdout
    import os

    env = dict(os.environ, CDBTUI_SAVES=str(folder))
    by_env = cdbtui("list", env=env)
    assert by_env.stdout == result.stdout
    assert "No hay partidas" in cdbtui("list", cwd=tmp_path).stdout


def test_grupo_adds_lists_removes_and_new_fights_take_it(save, tmp_path):
    folder = ["--saves", str(tmp_path / "s")]
    assert cdbtui(*folder, "grupo", "alta", "Sven el Rojo", "ac=5", "ini=2").returncode == 0
    assert cdbtui(*folder, "grupo", "desde", str(save), "Mike").returncode == 0
    listed = cdbtui(*folder, "grupo").stdout.splitlines()
    assert listed == ['alta "Sven el Rojo" ac=5 ini=2 bando=pj',
                      "alta Mike ac=7 ini=4 agi=4 ate=3 hab=5 mov=4 bando=pj talentos=punteria-zen"]
    new = tmp_path / "nueva.toml"
    assert cdbtui(*folder, "new", str(new), "--grupo").returncode == 0
    state = json.loads(cdbtui("show", str(new), "--json").stdout)
    assert [c["name"] for c in state["combatants"]] == ["Sven el Rojo", "Mike"]
    assert cdbtui(*folder, "grupo", "baja", "mike").returncode == 0
    assert len(cdbtui(*folder, "grupo").stdout.splitlines()) == 1
    missing = cdbtui(*folder, "grupo", "baja", "Nadie")
    assert missing.returncode == 1 and "no está en el grupo" in missing.stderr  # refused


def test_export_writes_the_log_turn_by_turn(save, tmp_path):
    cdbtui("do", str(save), "Mike disparar-armas-largas", 'dano "Soldado 1" 4 rd=1')
    result = cdbtui("export", str(save))
    assert result.returncode == 0
    assert "Turno 1" in result.stdout and "Disparar Armas Largas" in result.stdout
    out = tmp_path / "notas.html"
    before = save.read_bytes()
    result = cdbtui("export", str(save), "--format", "html", "--output", str(out))
    assert result.returncode == 0 and out.read_text("utf-8").startswith("<!DOCTYPE html>")
    assert save.read_bytes() == before
    clobber = cdbtui("export", str(save), "-o", str(save))
    assert clobber.returncode == 2 and save.read_bytes() == before


def test_do_compacts_its_journal_and_keeps_a_backup(save):
    before = save.read_bytes()
    assert cdbtui("do", str(save), "Mike gasta 1", "Mike gasta 1").returncode == 0
    assert "\n[[journal]]\n" not in save.read_text("utf-8")
    assert save.with_name(save.name + ".bak").read_bytes().startswith(before)


def test_a_schema_1_save_still_works_and_keeps_its_original(tmp_path):
    v1 = Path(__file__).parent / "data" / "v1-puerto.toml"
    path = tmp_path / "viejo.toml"
    path.write_bytes(v1.read_bytes())
    shown = cdbtui("show", str(path), "--json")
    assert shown.returncode == 0 and path.read_bytes() == v1.read_bytes()
    assert cdbtui("do", str(path), "rehacer").returncode == 0
    assert (tmp_path / "viejo.toml.v1").read_bytes() == v1.read_bytes()
    state = json.loads(cdbtui("show", str(path), "--json").stdout)
    sven = next(c for c in state["combatants"] if c["name"] == "Sven")
    assert sven["conditions"] == ["agarrado"]


def test_refusals_point_at_what_the_shell_has_and_maniobras_lists_them(save):
    """The engine's «?» is a key of the TUI: the shell's refusals name a command."""
    result = cdbtui("do", str(save), "mike volar")
    assert result.returncode == 1
    assert "«?»" not in result.stderr and "cdbtui maniobras RUTA" in result.stderr
    empty = cdbtui("do", str(save), "  ")
    assert empty.returncode == 1 and "«?»" not in empty.stderr
    listed = cdbtui("maniobras", str(save))
    assert listed.returncode == 0
    ids = [line.split("  ·  ")[0] for line in listed.stdout.splitlines()]
    assert "disparar-armas-largas" in ids and "esquivar" in ids
    assert cdbtui("maniobras").returncode == 2


def test_undo_and_redo_say_what_they_took_back(save):
    cdbtui("do", str(save), "mike disparar-armas-largas")
    undone = cdbtui("do", str(save), "deshacer")
    assert undone.stdout.splitlines()[0] == "Deshecho: Mike disparar-armas-largas"
    redone = cdbtui("do", str(save), "rehacer")
    assert redone.stdout.splitlines()[0] == "Rehecho: Mike disparar-armas-largas"


def test_maniobras_lists_the_storyteller_catalog_of_a_storyteller_fight(tmp_path):
    """`cdbtui maniobras RUTA` lists the maneuvers of the fight's own ruleset (the
    storyteller's: traits, difficulty, attack or defence), exit 0."""
    from shell import cdbtui

    path = tmp_path / "narr.toml"
    assert cdbtui("new", str(path), "--rules", "narrador").returncode == 0
    result = cdbtui("maniobras", str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("disparo  ·  Disparo  ·  des+armas-de-fuego") and "ataque" in line for line in lines)
    assert any(line.startswith("bloqueo  ·  ") and "defensa" in line for line in lines)
    assert len(lines) == len(set(lines))  # each maneuver once, not once per alias
