"""The shell interface of COMMANDS.md: `cdbtui [open|new|do|show|view] …`.

Exit status: 0 success, 1 a command was refused, 2 usage error or unreadable
file.  Every error is one Spanish line on stderr; never a traceback for bad input.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .engine.catalog import RULESETS
from .engine.errors import Refusal
from .engine.session import Session
from .store import SaveError, create, load, save
from .view import board_text, state_json

USAGE = """\
uso: cdbtui                         pantalla inicial (partidas de ./saves)
     cdbtui open RUTA | cdbtui RUTA  abrir una partida en la interfaz
     cdbtui new RUTA [--rules cdb|walkure] [--seed N]
     cdbtui do RUTA ORDEN [ORDEN ...]   ('-' lee órdenes de la entrada)
     cdbtui show RUTA [--json]
     cdbtui view RUTA                vista de jugadores (solo lectura)"""


class UsageError(Exception):
    """Wrong arguments: exit status 2 with one Spanish line."""


def _fail(message: str, status: int) -> int:
    print(f"cdbtui: {message}", file=sys.stderr)
    return status


def _new(args: list[str]) -> int:
    rules, seed, rest = "cdb", None, []
    items = iter(args)
    for arg in items:
        if arg == "--rules" or arg.startswith("--rules="):
            rules = arg.split("=", 1)[1] if "=" in arg else next(items, "")
        elif arg == "--seed" or arg.startswith("--seed="):
            value = arg.split("=", 1)[1] if "=" in arg else next(items, "")
            try:
                seed = int(value)
            except ValueError:
                raise UsageError(f"--seed necesita un número, no «{value}»") from None
        elif arg.startswith("-"):
            raise UsageError(f"opción desconocida {arg}")
        else:
            rest.append(arg)
    if len(rest) != 1:
        raise UsageError("se usa «cdbtui new RUTA [--rules cdb|walkure]»")
    if rules not in RULESETS:
        raise UsageError(f"reglas desconocidas «{rules}»: usa cdb o walkure")
    path = Path(rest[0])
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    create(path, Session.new(path.stem, rules, seed))
    print(f"Creado {path} ({rules})")
    return 0


def _read_lines(args: list[str]) -> list[str]:
    lines: list[str] = []
    for arg in args:
        if arg == "-":
            for raw in sys.stdin.read().splitlines():
                stripped = raw.strip()
                if stripped and not stripped.startswith("#"):
                    lines.append(stripped)
        else:
            lines.append(arg)
    return lines


def _do(args: list[str]) -> int:
    if len(args) < 2:
        raise UsageError("se usa «cdbtui do RUTA ORDEN [ORDEN ...]»")
    path = Path(args[0])
    session = load(path)
    for line in _read_lines(args[1:]):
        try:
            session.execute(line)
        except Refusal as refusal:
            return _fail(f"«{line}»: {refusal}", 1)
        save(path, session)
    print(board_text(session.fight))
    return 0


def _show(args: list[str]) -> int:
    as_json = "--json" in args
    rest = [a for a in args if a != "--json"]
    if len(rest) != 1 or any(a.startswith("-") for a in rest):
        raise UsageError("se usa «cdbtui show RUTA [--json]»")
    session = load(Path(rest[0]))
    if as_json:
        print(json.dumps(state_json(session.fight), ensure_ascii=False, indent=2))
    else:
        print(board_text(session.fight))
    return 0


def _open(args: list[str]) -> int:
    if len(args) > 1:
        raise UsageError("se usa «cdbtui open RUTA»")
    path = Path(args[0]) if args else None
    if path is not None:
        load(path)  # an unreadable save fails here, before the screen takes over
    from .tui.app import run_app  # Textual is only imported for the TUI

    return run_app(path)


def _view(args: list[str]) -> int:
    if len(args) != 1:
        raise UsageError("se usa «cdbtui view RUTA»")
    from .tui.app import run_player_view

    load(Path(args[0]))
    return run_player_view(Path(args[0]))


COMMANDS = {"new": _new, "do": _do, "show": _show, "open": _open, "view": _view}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in ("-h", "--help", "help", "ayuda"):
            print(USAGE)
            return 0
        if not args:
            return _open([])
        handler = COMMANDS.get(args[0])
        if handler is not None:
            return handler(args[1:])
        if args[0].startswith("-") or len(args) > 1:
            raise UsageError(f"orden desconocida «{args[0]}»\n{USAGE}")
        return _open(args)
    except UsageError as error:
        return _fail(str(error), 2)
    except SaveError as error:
        return _fail(str(error), 2)
    except KeyboardInterrupt:
        return 130
