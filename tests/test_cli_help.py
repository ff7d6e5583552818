"""`-h` / `--help` after every subcommand (COMMANDS.md "Shell interface").

A subcommand's help is its usage in Spanish on stdout, exit status 0 (success in
COMMANDS.md's exit codes), nothing on stderr, and nothing else done: no file made,
no save changed, no screen started.
"""

from __future__ import annotations

import re

import pytest
from shell import cdbtui, process

from cdbtui import cli

#: The subcommands COMMANDS.md's table lists, then the others `cdbtui --help` lists.
SPEC_COMMANDS = ["open", "new", "do", "show", "view"]
OTHER_COMMANDS = ["list", "maniobras", "serve", "export", "casa", "grupo"]
ALL_COMMANDS = SPEC_COMMANDS + OTHER_COMMANDS

#: The options each subcommand takes: its help names every one.
OPTIONS = {
    "open": [],
    "new": ["--rules", "--seed", "--grupo"],
    "do": [],
    "show": ["--json"],
    "list": [],
    "maniobras": [],
    "view": ["--grande"],
    "serve": ["--port", "--host", "--origin", "--max", "--grande"],
    "export": ["--format", "--output", "-o", "--jugadores", "--force"],
    "casa": [],
    "grupo": [],
}


def check_help(result, command: str) -> None:
    assert result.returncode == 0, (command, result.stderr)
    assert result.stderr == ""
    assert result.stdout.startswith(f"uso: cdbtui {command}"), result.stdout
    assert "Estado de salida: 0 bien, 1 una orden rechazada" in result.stdout
    assert "opción desconocida" not in result.stdout


def test_every_subcommand_has_a_help():
    assert set(cli.HELP) == set(cli.COMMANDS)
    assert set(ALL_COMMANDS) == set(cli.COMMANDS)


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("command", ALL_COMMANDS)
def test_a_subcommand_alone_with_help_prints_its_usage_and_exits_0(command, flag, tmp_path):
    result = cdbtui(command, flag, cwd=tmp_path)
    check_help(result, command)
    assert list(tmp_path.iterdir()) == []  # nothing made (no ./saves either)


@pytest.mark.parametrize("command", ALL_COMMANDS)
def test_the_help_names_every_option_of_the_subcommand(command):
    text = cli.help_text(command)
    for option in (*OPTIONS[command], "--saves"):
        assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), (command, option)
    assert text == cdbtui(command, "--help").stdout.rstrip("\n")


@pytest.mark.parametrize("command", ALL_COMMANDS)
def test_help_lines_fit_a_terminal(command):
    assert all(len(line) <= 100 for line in cli.help_text(command).splitlines())


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize(("command", "rest"), [
    ("open", ["{save}"]),
    ("do", ["{save}", "siguiente"]),
    ("do", ["{save}", "turno", "{flag}", "siguiente"]),
    ("do", ["{save}", "-"]),
    ("show", ["{save}", "--json"]),
    ("view", ["{save}", "--grande"]),
    ("serve", ["{save}", "--port", "0"]),
    ("export", ["{save}", "--output", "{tmp}/salida.md"]),
    ("maniobras", ["{save}"]),
    ("casa", ["{save}", "no"]),
    ("grupo", ["alta", "Ana", "ac=5"]),
    ("grupo", ["baja", "Ana"]),
    ("grupo", ["desde", "{save}", "Mike"]),
])
def test_help_after_other_arguments_does_nothing_else(save, tmp_path, command, rest, flag):
    """Among real arguments the help wins: the order is not run, the save not touched."""
    args = [a.format(save=save, tmp=tmp_path, flag=flag) for a in rest]
    if flag not in args:
        args.append(flag)
    before = save.read_bytes()
    folder = tmp_path / "carpeta"
    result = cdbtui("--saves", str(folder), command, *args, stdin="turno\n", cwd=tmp_path)
    check_help(result, command)
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.toml"]  # no export, no roster


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_new_with_help_creates_nothing(tmp_path, flag):
    path = tmp_path / "nueva.toml"
    result = cdbtui("new", str(path), "--rules", "walkure", flag)
    check_help(result, "new")
    assert "cdb|walkure|csystem|narrador" in result.stdout
    assert not path.exists()


def test_help_with_the_saves_option_before_or_after(tmp_path):
    check_help(cdbtui("--saves", str(tmp_path), "list", "--help"), "list")
    check_help(cdbtui("list", "-h", "--saves", str(tmp_path)), "list")
    check_help(cdbtui("list", f"--saves={tmp_path}", "-h"), "list")


@pytest.mark.parametrize("word", ["help", "ayuda", "--help", "-h"])
@pytest.mark.parametrize("command", ["do", "new", "show"])
def test_help_before_a_subcommand_gives_that_subcommands_help(word, command):
    check_help(cdbtui(word, command), command)


@pytest.mark.parametrize("word", ["help", "ayuda", "--help", "-h"])
def test_the_general_help_is_unchanged_and_points_at_the_subcommands_help(word):
    result = cdbtui(word)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == cli.USAGE + "\n"
    assert "cdbtui do RUTA" in result.stdout
    assert "cdbtui ORDEN --help" in result.stdout


def test_the_do_help_explains_the_stop_at_the_first_refusal():
    text = cdbtui("do", "--help").stdout
    assert "cdbtui do RUTA ORDEN [ORDEN ...]" in text
    assert "Se para en la primera orden rechazada: estado 1" in text
    assert "«-»" in text


def test_the_do_help_examples_work(tmp_path):
    """The example lines in `cdbtui do --help` are real commands."""
    path = tmp_path / "puerto.toml"
    assert cdbtui("new", str(path), "--seed", "1").returncode == 0
    examples = [line.strip() for line in cli.help_text("do").splitlines()
                if line.strip().startswith("cdbtui do saves/puerto.toml") and "<" not in line]
    assert len(examples) == 2
    import shlex

    for example in examples:
        args = shlex.split(example)[3:]
        result = cdbtui("do", str(path), *args)
        assert result.returncode == 0, (example, result.stderr)


def test_other_unknown_options_are_still_usage_errors(save):
    for args in (("new", "x.toml", "--frob"), ("show", str(save), "-x"), ("view", str(save), "--help=1")):
        result = cdbtui(*args)
        assert result.returncode == 2, args
        assert "opción desconocida" in result.stderr and result.stdout == ""


def test_an_unknown_subcommand_with_help_is_still_an_error():
    result = cdbtui("hacer", "--help")
    assert result.returncode == 2 and "orden desconocida «hacer»" in result.stderr


@pytest.mark.parametrize("command", ["do", "new"])
def test_a_real_process_exits_0_with_the_help(command):
    result = process(command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"uso: cdbtui {command}") and result.stderr == ""
