"""The shell interface of COMMANDS.md: `cdbtui [open|new|do|show|view|serve|export|…] …`.

Exit status: 0 success, 1 a command was refused, 2 usage error or unreadable
file.  Every error is one Spanish line on stderr; never a traceback for bad input.
`--saves DIR` (anywhere on the line) or `$CDBTUI_SAVES` choose the saves folder.
"""

from __future__ import annotations

import ipaddress
import json
import os
import sys
from pathlib import Path

from .engine.catalog import RULESETS
from .engine.errors import Refusal
from .engine.session import Session
from .library import entries, saves_folder
from .store import SaveError, SaveFile, load, write_atomic
from .view import board_text, state_json

USAGE = """\
uso: cdbtui [--saves CARPETA]         pantalla inicial (partidas de ./saves o $CDBTUI_SAVES)
     cdbtui open RUTA | cdbtui RUTA    abrir una partida en la interfaz
     cdbtui new RUTA [--rules cdb|walkure] [--seed N] [--grupo]
     cdbtui do RUTA ORDEN [ORDEN ...]   ('-' lee órdenes de la entrada)
     cdbtui show RUTA [--json]
     cdbtui list                       las partidas de la carpeta, la más reciente primero
     cdbtui view RUTA [--grande]       vista de jugadores (solo lectura)
     cdbtui serve RUTA [--port N] [--host DIR] [--grande]   vista de jugadores en el navegador
     cdbtui export RUTA [--format md|html] [--output ARCHIVO] [--jugadores]
     cdbtui casa RUTA ARCHIVO.toml | no   reglas de la casa para esa partida (o quitarlas)
     cdbtui grupo                      el grupo de PJ que se añade a los combates nuevos
     cdbtui grupo alta NOMBRE ac=N …   añadir o cambiar un PJ del grupo
     cdbtui grupo baja NOMBRE          quitar un PJ del grupo
     cdbtui grupo desde RUTA NOMBRE …  copiar PJ de una partida al grupo"""


class UsageError(Exception):
    """Wrong arguments: exit status 2 with one Spanish line."""


def _fail(message: str, status: int) -> int:
    print(f"cdbtui: {message}", file=sys.stderr)
    return status


class Options:
    """`--name VALUE` / `--name=VALUE` / `--flag` options out of an argument list."""

    def __init__(self, args: list[str], *, values: tuple[str, ...] = (),
                 flags: tuple[str, ...] = ()) -> None:
        self.values: dict[str, str] = {}
        self.flags: set[str] = set()
        self.rest: list[str] = []
        items = iter(args)
        for arg in items:
            name, equals, value = arg.partition("=")
            if name in values:
                if not equals:
                    value = next(items, None)
                    if value is None:
                        raise UsageError(f"{name} necesita un valor")
                self.values[name] = value
            elif arg in flags:
                self.flags.add(arg)
            elif arg.startswith("--") or (arg.startswith("-") and arg != "-"):
                raise UsageError(f"opción desconocida {arg}")
            else:
                self.rest.append(arg)

    def number(self, name: str, default: int | None) -> int | None:
        if name not in self.values:
            return default
        try:
            return int(self.values[name])
        except ValueError:
            raise UsageError(f"{name} necesita un número, no «{self.values[name]}»") from None


def _one_path(options: Options, usage: str) -> Path:
    if len(options.rest) != 1:
        raise UsageError(f"se usa «{usage}»")
    return Path(options.rest[0])


def _new(args: list[str], folder: Path) -> int:
    options = Options(args, values=("--rules", "--seed"), flags=("--grupo",))
    path = _one_path(options, "cdbtui new RUTA [--rules cdb|walkure] [--grupo]")
    rules = options.values.get("--rules", "cdb")
    if rules not in RULESETS:
        raise UsageError(f"reglas desconocidas «{rules}»: usa cdb o walkure")
    seed = options.number("--seed", None)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    session = Session.new(path.stem, rules, seed)
    if "--grupo" in options.flags:
        from .roster import party_lines

        for line in party_lines(folder):
            session.execute(line)
    SaveFile.create(path, session)
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


def _do(args: list[str], folder: Path) -> int:
    if len(args) < 2:
        raise UsageError("se usa «cdbtui do RUTA ORDEN [ORDEN ...]»")
    save_file = SaveFile.open(Path(args[0]))
    try:
        for line in _read_lines(args[1:]):
            try:
                outcome = save_file.session.execute(line)
            except Refusal as refusal:
                return _fail(_one_line(f"«{line}»: {refusal}"), 1)
            save_file.record(outcome)
    finally:
        save_file.close()
    print(board_text(save_file.session.fight))
    return 0


def _show(args: list[str], folder: Path) -> int:
    options = Options(args, flags=("--json",))
    session = load(_one_path(options, "cdbtui show RUTA [--json]"))
    if "--json" in options.flags:
        print(json.dumps(state_json(session.fight), ensure_ascii=False, indent=2))
    else:
        print(board_text(session.fight))
    return 0


def _list(args: list[str], folder: Path) -> int:
    if args:
        raise UsageError("se usa «cdbtui list» (la carpeta con --saves)")
    found = entries(folder)
    if not found:
        print(f"No hay partidas en {folder}/")
        return 0
    for entry in found:
        if entry.problem:
            print(f"{entry.path.name}  ·  NO SE PUEDE ABRIR: {entry.problem}")
            continue
        print(f"{entry.path.name}  ·  {entry.name} ({entry.rules_es})  ·  turno {entry.turn}"
              f"  ·  {entry.combatants} combatientes  ·  {entry.played:%Y-%m-%d %H:%M}")
    return 0


def _open(args: list[str], folder: Path) -> int:
    if len(args) > 1:
        raise UsageError("se usa «cdbtui open RUTA»")
    path = Path(args[0]) if args else None
    if path is not None:
        load(path)  # an unreadable save fails here, before the screen takes over
    from .tui.app import run_app  # Textual is only imported for the TUI

    return run_app(path, saves_dir=folder)


def _view(args: list[str], folder: Path) -> int:
    options = Options(args, flags=("--grande",))
    path = _one_path(options, "cdbtui view RUTA [--grande]")
    load(path)
    from .tui.player import run_player_view

    return run_player_view(path, large="--grande" in options.flags)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _serve(args: list[str], folder: Path) -> int:
    options = Options(args, values=("--port", "--host"), flags=("--grande",))
    path = _one_path(options, "cdbtui serve RUTA [--port N] [--host DIRECCIÓN]")
    port = options.number("--port", 8000)
    assert port is not None
    if not 0 < port < 65536:
        raise UsageError(f"--port fuera de rango: {port}")
    host = options.values.get("--host", "127.0.0.1")
    load(path)
    if not _is_loopback(host):
        print(f"cdbtui: aviso: se sirve en {host}, no solo en este equipo: cualquiera en"
              " la red podrá ver la partida", file=sys.stderr)
    from .serve import serve

    return serve(path.resolve(), host=host, port=port, large="--grande" in options.flags)


def _export(args: list[str], folder: Path) -> int:
    options = Options(args, values=("--format", "--output", "-o"), flags=("--jugadores",))
    path = _one_path(options, "cdbtui export RUTA [--format md|html] [--output ARCHIVO]")
    from .export import FORMATS

    kind = options.values.get("--format", "md")
    if kind not in FORMATS:
        raise UsageError(f"formato desconocido «{kind}»: usa md o html")
    text = FORMATS[kind](load(path).fight, for_players="--jugadores" in options.flags)
    output = options.values.get("--output") or options.values.get("-o")
    if output is None:
        sys.stdout.write(text)
        return 0
    target = Path(output)
    if target.resolve() == path.resolve():
        raise UsageError("la exportación no puede sobrescribir la partida")
    try:
        write_atomic(target, text)
    except OSError as error:
        raise SaveError(f"no se puede escribir {target}: {error.strerror or error}") from None
    print(f"Exportado {target}")
    return 0


def _house(args: list[str], folder: Path) -> int:
    """`cdbtui casa RUTA ARCHIVO|no`: the house rules become a command of the fight."""
    if len(args) != 2:
        raise UsageError("se usa «cdbtui casa RUTA ARCHIVO.toml» o «cdbtui casa RUTA no»")
    from .engine.commands import HouseRules

    if args[1] in ("no", "-"):
        line = HouseRules("").line()
    else:
        try:
            line = HouseRules(Path(args[1]).read_text("utf-8")).line()
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"no se puede leer {args[1]}: {error}") from None
    save_file = SaveFile.open(Path(args[0]))
    try:
        outcome = save_file.session.execute(line)
    except Refusal as refusal:
        return _fail(_one_line(f"{args[1]}: {refusal}"), 1)
    save_file.record(outcome)
    save_file.close()
    print(save_file.session.fight.log[-1].text)
    return 0


def _roster(args: list[str], folder: Path) -> int:
    from . import roster

    if not args:
        party = roster.load_roster(folder)
        if not party:
            print(f"El grupo está vacío ({roster.roster_path(folder)}).")
        for member in party:
            print(member.line())
        return 0
    verb, rest = args[0], args[1:]
    if verb in ("alta", "add") and rest:
        line = " ".join(roster_quote(a) for a in ["alta", *rest])
        member = roster.member_from_line(line)
        new = roster.put_member(folder, member)
        print(f"{member.name} {'añadido al' if new else 'actualizado en el'} grupo")
        return 0
    if verb in ("baja", "remove") and len(rest) == 1:
        roster.remove_member(folder, rest[0])
        print(f"{rest[0]} ya no está en el grupo")
        return 0
    if verb in ("desde", "from") and len(rest) >= 2:
        fight = load(Path(rest[0])).fight
        for name in rest[1:]:
            combatant = fight.find(name)
            if combatant is None:
                raise UsageError(f"«{name}» no está en {rest[0]}")
            roster.put_member(folder, roster.member_from_combatant(combatant))
            print(f"{combatant.name} copiado al grupo")
        return 0
    raise UsageError("se usa «cdbtui grupo [alta NOMBRE ac=N … | baja NOMBRE | desde RUTA NOMBRE …]»")


def roster_quote(arg: str) -> str:
    """Shell arguments back into one command line (a name with spaces gets quotes)."""
    from .engine.commands import quote

    if "=" in arg or arg == "alta":
        return arg
    return quote(arg)


COMMANDS = {
    "new": _new, "do": _do, "show": _show, "open": _open, "view": _view,
    "serve": _serve, "export": _export, "list": _list, "grupo": _roster, "casa": _house,
}


def _saves_option(args: list[str]) -> tuple[str | None, list[str]]:
    """Take `--saves DIR` out of the arguments, wherever it is."""
    rest: list[str] = []
    value = None
    items = iter(args)
    for arg in items:
        if arg == "--saves":
            value = next(items, None)
            if value is None:
                raise UsageError("--saves necesita una carpeta")
        elif arg.startswith("--saves="):
            value = arg.split("=", 1)[1]
        else:
            rest.append(arg)
    return value, rest


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in ("-h", "--help", "help", "ayuda"):
            print(USAGE)
            return 0
        option, args = _saves_option(args)
        folder = saves_folder(option)
        if not args:
            return _open([], folder)
        handler = COMMANDS.get(args[0])
        if handler is not None:
            return handler(args[1:], folder)
        if args[0].startswith("-") or len(args) > 1:
            raise UsageError(f"orden desconocida «{args[0]}»\n{USAGE}")
        return _open(args, folder)
    except UsageError as error:
        return _fail(str(error), 2)
    except SaveError as error:
        return _fail(_one_line(str(error)), 2)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug must still end in one line, not a traceback
        return _fail(f"error interno ({type(error).__name__}: {_one_line(str(error))});"
                     " avisa a quien mantiene cdbtui", 2)


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")
