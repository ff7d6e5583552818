"""The shell interface of COMMANDS.md: `cdbtui [open|new|do|show|view|serve|export|…] …`.

Exit status: 0 success, 1 a command was refused, 2 usage error or unreadable
file.  Every error is one Spanish line on stderr; never a traceback for bad input.
`--saves DIR` (anywhere on the line) or `$CDBTUI_SAVES` choose the saves folder.
`cdbtui --help` prints the usage of all; `-h`/`--help` after a subcommand (or
`cdbtui help ORDEN`) prints that one's (`HELP`), on stdout, exit 0, doing nothing else.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .engine.catalog import SYSTEMS, catalog_for
from .engine.errors import Refusal
from .engine.session import REDO, UNDO, Session
from .library import entries, saves_folder
from .engine.limits import shown, text_problem
from .printable import literal
from .files import SaveError, folder_lock, reason, write_atomic
from .funnel import SaveFile, house_file_line
from .store import load
from .view import board_text, state_json

USAGE = """\
uso: cdbtui [--saves CARPETA]         pantalla inicial (partidas de ./saves o $CDBTUI_SAVES)
     cdbtui open RUTA | cdbtui RUTA    abrir una partida en la interfaz
     cdbtui new RUTA [--rules cdb|walkure|csystem|narrador] [--seed N] [--grupo]
     cdbtui do RUTA ORDEN [ORDEN ...]   ('-' lee órdenes de la entrada)
     cdbtui show RUTA [--json]
     cdbtui list                       las partidas de la carpeta, la más reciente primero
     cdbtui maniobras RUTA             las maniobras de esa partida (id, nombre, AC)
     cdbtui view RUTA [--grande]       vista de jugadores (solo lectura)
     cdbtui serve RUTA [--port N] [--host DIR] [--origin URL] [--max N] [--grande]   vista de jugadores en el navegador
     cdbtui export RUTA [--format md|html] [--output ARCHIVO] [--jugadores]
     cdbtui casa RUTA ARCHIVO.toml | no   reglas de la casa para esa partida (o quitarlas)
     cdbtui grupo                      el grupo de PJ que se añade a los combates nuevos
     cdbtui grupo alta NOMBRE ac=N …   añadir o cambiar un PJ del grupo
     cdbtui grupo baja NOMBRE          quitar un PJ del grupo
     cdbtui grupo desde RUTA NOMBRE …  copiar PJ de una partida al grupo
     cdbtui ORDEN --help | -h          la ayuda de una orden (p. ej. «cdbtui do --help»)"""

#: What `-h` / `--help` ask for, after a subcommand or before it.
HELP_OPTIONS = ("-h", "--help")

_EXIT = ("Estado de salida: 0 bien, 1 una orden rechazada (reglas o entrada errónea) o que no\n"
         "se pudo guardar (disco lleno), 2 error de uso o archivo ilegible.")
_SAVES = "  --saves CARPETA   la carpeta de las partidas (si no, $CDBTUI_SAVES o ./saves)"

#: Each subcommand's `--help`: its usage, what it does, its options, the exit status.
HELP = {
    "open": """\
uso: cdbtui open RUTA   (o «cdbtui RUTA»)
     cdbtui open        la pantalla inicial con las partidas de la carpeta

Abre la partida de RUTA en la interfaz del DJ (teclas y la línea de órdenes «:»).
Sin RUTA muestra las partidas de la carpeta, la más reciente primero.

Opciones:
{saves}""",
    "new": """\
uso: cdbtui new RUTA [--rules cdb|walkure|csystem|narrador] [--seed N] [--grupo]

Crea un combate vacío en RUTA (un archivo .toml); nunca sobrescribe uno que ya exista.

Opciones:
  --rules REGLAS    cdb (por defecto), walkure, csystem o narrador
  --seed N          la semilla de las tiradas (por defecto, al azar)
  --grupo           añade el grupo de PJ de la carpeta («cdbtui grupo»)
{saves}""",
    "do": """\
uso: cdbtui do RUTA ORDEN [ORDEN ...]
     cdbtui do RUTA -           lee las órdenes de la entrada, una por línea

Aplica cada argumento como una línea de órdenes, en orden, guardando tras cada una,
y escribe el tablero como texto.  Se para en la primera orden rechazada: estado 1,
una línea en la salida de errores que la nombra, y la partida tal como estaba antes
de esa orden.  Con «-», las líneas vacías y las que empiezan por «#» no cuentan.

Ejemplos:
  cdbtui do saves/puerto.toml "alta Mike ac=7 ini=3 bando=pj" "momento Mike 7" empezar
  cdbtui do saves/puerto.toml "mike disparar-armas-largas" deshacer
  cdbtui do saves/puerto.toml - < ordenes.txt

Opciones:
{saves}""",
    "show": """\
uso: cdbtui show RUTA [--json]

Escribe el tablero de la partida como texto, o su estado en JSON; no cambia nada.

Opciones:
  --json            el estado en JSON (los campos de COMMANDS.md)
{saves}""",
    "list": """\
uso: cdbtui list

Las partidas de la carpeta, la más reciente primero: archivo, nombre, reglas, turno,
combatientes y cuándo se jugó.

Opciones:
{saves}""",
    "maniobras": """\
uso: cdbtui maniobras RUTA

Las maniobras que admiten las órdenes de esa partida (sus reglas y las de la casa),
una por línea: id, nombre y coste en AC.

Opciones:
{saves}""",
    "view": """\
uso: cdbtui view RUTA [--grande]

La vista de jugadores, solo lectura: sigue la partida mientras el DJ juega y no
muestra a los combatientes ocultos.

Opciones:
  --grande          letra grande (para una pantalla a la vista de la mesa)
{saves}""",
    "serve": """\
uso: cdbtui serve RUTA [--port N] [--host DIRECCIÓN] [--origin URL] [--max N] [--grande]

Sirve la vista de jugadores en el navegador mientras el DJ juega.

Opciones:
  --port N          el puerto (por defecto 8000)
  --host DIRECCIÓN  dónde escuchar (por defecto 127.0.0.1, solo este equipo;
                    0.0.0.0 para toda la red)
  --origin URL      un origen más admitido (http://mesa.local:8000); se puede repetir
  --max N           visitas a la vez como mucho (por defecto {max_visits})
  --grande          letra grande
{saves}""",
    "export": """\
uso: cdbtui export RUTA [--format md|html] [--output ARCHIVO] [--jugadores] [--force]

Exporta la partida (los combatientes y el historial por turnos) a Markdown o HTML,
en la salida o a un archivo.

Opciones:
  --format md|html  el formato (por defecto md)
  --output ARCHIVO, -o ARCHIVO
                    escribe en ARCHIVO en vez de en la salida (nunca sobre una partida)
  --jugadores       solo lo que ven los jugadores (sin ocultos)
  --force           sobrescribe un archivo que no parece una exportación
{saves}""",
    "casa": """\
uso: cdbtui casa RUTA ARCHIVO.toml
     cdbtui casa RUTA no        quita las reglas de la casa

Pone (o quita) las reglas de la casa de esa partida; es una orden más del combate,
y se puede deshacer.

Opciones:
{saves}""",
    "grupo": """\
uso: cdbtui grupo                        el grupo de PJ de la carpeta
     cdbtui grupo alta NOMBRE ac=N …     añadir o cambiar un PJ del grupo
     cdbtui grupo baja NOMBRE            quitar un PJ del grupo
     cdbtui grupo desde RUTA NOMBRE …    copiar PJ de una partida al grupo

El grupo de PJ se añade a los combates nuevos con «cdbtui new RUTA --grupo».

Opciones:
{saves}""",
}


class UsageError(Exception):
    """Wrong arguments: exit status 2 with one Spanish line."""


def _fail(message: str, status: int) -> int:
    _err(f"cdbtui: {_one_line(message)}")
    return status


def _err(text: str) -> None:
    """One line on stderr, whatever it holds (lone surrogates from undecodable
    arguments included) and even if stderr is closed."""
    try:
        sys.stderr.write(text.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


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
    path = _one_path(options, "cdbtui new RUTA [--rules cdb|walkure|csystem|narrador] [--grupo]")
    _check_new_path(path)
    rules = options.values.get("--rules", "cdb")
    if rules not in SYSTEMS:
        raise UsageError(f"reglas desconocidas «{rules}»: usa cdb, walkure, csystem o narrador")
    seed = options.number("--seed", None)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if not 0 <= seed < 2**63:
        raise UsageError(f"--seed fuera de rango: {seed}")
    session = Session.new(path.stem, rules, seed)
    party: list[str] = []
    if "--grupo" in options.flags:
        from .roster import party_lines

        party = party_lines(folder)
    try:
        SaveFile.start(path, session, party)
    except Refusal as refusal:
        return _fail(f"el grupo no se puede añadir: {refusal}; no se ha creado nada", 1)
    _print(f"Creado {_shown(str(path))} ({rules})")
    return 0


def _check_new_path(path: Path) -> None:
    """A new save's path: a file name the fight list will show."""
    name = path.name
    if not name or name in (".", ".."):
        raise UsageError("falta el nombre del archivo de la partida (p. ej. saves/puerto.toml)")
    if name.startswith((".", "_")):
        raise UsageError(f"«{_shown(name)}» empieza por «{name[0]}»: la lista de partidas no"
                         " lo mostraría; elige otro nombre")
    if len(os.fsencode(name)) > 200:
        raise UsageError("el nombre del archivo es demasiado largo (como mucho 200 bytes)")
    if path.suffix != ".toml":
        raise UsageError(f"«{_shown(name)}»: el archivo de una partida termina en .toml")
    trouble = text_problem(name)
    if trouble is not None:
        raise UsageError(f"el nombre del archivo «{_shown(name)}» {trouble}")


def _read_lines(args: list[str]) -> list[str]:
    lines: list[str] = []
    for arg in args:
        if arg == "-":
            data = sys.stdin.buffer.read()
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as error:
                line = data[: error.start].count(b"\n") + 1
                raise UsageError(f"la entrada no es texto UTF-8 (línea {line})") from None
            for raw in text.splitlines():
                stripped = raw.strip()
                if stripped and not stripped.startswith("#"):
                    lines.append(stripped)
        else:
            lines.append(arg)
    return lines


def refusal_text(refusal: Refusal | str) -> str:
    """A refusal as a shell says it: an unknown maneuver points at the command that
    lists them (the TUI's `:` line completes them with Tab instead)."""
    text = str(refusal)
    if text.startswith("No conozco la maniobra"):
        text += " (la lista: «cdbtui maniobras RUTA»)"
    return text


def _do(args: list[str], folder: Path) -> int:
    """Apply each line, durably, under the folder lock for the whole run: another
    program can't write the save between the read and the last write.  What an
    undo or redo took back or did again is said first ("Deshecho: …")."""
    if len(args) < 2:
        raise UsageError("se usa «cdbtui do RUTA ORDEN [ORDEN ...]»")
    path = Path(args[0])
    lines = _read_lines(args[1:])
    said: list[str] = []
    with folder_lock(path):
        save_file = SaveFile.open(path)
        try:
            for line in lines:
                fight = save_file.session.fight
                # Where the line's entries start: in CdB's reaction window, before the
                # advance that followed the last action (RULES.md §3).
                window = getattr(fight, "window", None)
                before = len(fight.log) if window is None else min(window.log, len(fight.log))
                try:
                    outcome = save_file.play(line)
                except Refusal as refusal:
                    return _fail(f"«{line}»: {refusal_text(refusal)}", 1)
                except SaveError as error:  # not durable, so not done: `do` stops here
                    return _fail(f"«{line}»: {error}", 1)
                if outcome.kind in (UNDO, REDO):
                    said.append(outcome.message)
                else:  # a caution or warning: the command is kept, the warning said on stderr
                    for entry in outcome.fight.log[before:]:
                        if entry.warning:
                            _err(f"cdbtui: {_one_line(entry.text)}")
        finally:
            problem = save_file.close()
    if problem:
        _err(f"cdbtui: aviso: {_one_line(problem)} (las órdenes ya están guardadas)")
    for message in said:
        _print(_one_line(message))
    _print(board_text(save_file.session.fight))
    return 0


def _maneuvers(args: list[str], folder: Path) -> int:
    """`cdbtui maniobras RUTA`: the maneuvers a line of that fight may name (its
    rules and house rules), one a line: id, name, cost."""
    if len(args) != 1:
        raise UsageError("se usa «cdbtui maniobras RUTA»")

    fight = load(Path(args[0])).fight
    for line in _catalog_lines(fight):
        _print(_shown(line))
    return 0


def _catalog_lines(fight) -> list[str]:
    """One line per maneuver of the fight's ruleset: id, name and what it takes."""
    if fight.rules == "csystem":
        from .engine.csystem.tables import MARK, actions

        rows = sorted({a.id: a for a in actions().values()}.values(), key=lambda a: a.id)
        return [f"{a.id}  ·  {a.name}  ·  {MARK.get(a.type, '■ o □')}"
                + (" · maniobra" if a.maneuver else "") + (" · ataque" if a.attack else "") for a in rows]
    if fight.rules == "narrador":
        from .engine.narrador.tables import maneuvers

        rows = sorted({m.id: m for m in maneuvers().values()}.values(), key=lambda m: m.id)
        return [f"{m.id}  ·  {m.name}" + (f"  ·  {'+'.join(m.traits)}" if m.traits else "")
                + (f"  ·  dif {m.difficulty}" if m.difficulty else "")
                + (" · ataque" if m.attack else " · defensa" if m.defense else "") for m in rows]
    lines = []
    for maneuver in catalog_for(fight).maneuvers:
        kind = " · reacción" if maneuver.reaction else (" · ataque" if maneuver.attack else "")
        lines.append(f"{maneuver.id}  ·  {maneuver.name}  ·  {maneuver.cost_text()} AC{kind}")
    return lines


def _show(args: list[str], folder: Path) -> int:
    options = Options(args, flags=("--json",))
    session = load(_one_path(options, "cdbtui show RUTA [--json]"))
    if "--json" in options.flags:
        _print(_json_text(state_json(session.fight)))
    else:
        _print(board_text(session.fight))
    return 0


def _list(args: list[str], folder: Path) -> int:
    if args:
        raise UsageError("se usa «cdbtui list» (la carpeta con --saves)")
    found = entries(folder)
    if not found:
        _print(f"No hay partidas en {_shown(str(folder))}/")
        return 0
    for entry in found:
        if entry.problem:
            _print(f"{_shown(entry.path.name)}  ·  NO SE PUEDE ABRIR: {_one_line(entry.problem)}")
            continue
        _print(f"{_shown(entry.path.name)}  ·  {_shown(entry.name)} ({entry.rules_es})"
               f"  ·  turno {entry.turn}  ·  {entry.count_text} combatientes"
               f"  ·  {entry.played:%Y-%m-%d %H:%M}")
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
    """Whether `host` reaches this machine only (`127.1` too; a name is not resolved)."""
    from .serve import is_loopback

    return is_loopback(host)


def _serve(args: list[str], folder: Path) -> int:
    from .serve import DEFAULT_MAX_VISITS, parse_origins, take_origins

    usage = ("cdbtui serve RUTA [--port N] [--host DIRECCIÓN] [--origin URL] [--max N]"
             " [--grande]")
    try:
        origin_values, args = take_origins(args)  # --origin may be given several times
        origins = parse_origins(origin_values)
    except ValueError as error:
        raise UsageError(str(error)) from None
    options = Options(args, values=("--port", "--host", "--max"), flags=("--grande",))
    path = _one_path(options, usage)
    port = options.number("--port", 8000)
    assert port is not None
    if not 0 < port < 65536:
        raise UsageError(f"--port fuera de rango: {port}")
    max_visits = options.number("--max", DEFAULT_MAX_VISITS)
    assert max_visits is not None
    if max_visits < 1:
        raise UsageError(f"--max necesita al menos 1 visita, no {max_visits}")
    host = options.values.get("--host", "127.0.0.1").strip()
    if not host:
        raise UsageError("--host necesita una dirección (127.0.0.1, 0.0.0.0 para toda la red…)")
    load(path)
    if not _is_loopback(host):
        _err(f"cdbtui: aviso: se sirve en {_shown(host)}, no solo en este equipo: cualquiera"
             " en la red podrá ver la partida")
    from .serve import serve

    return serve(path.resolve(), host=host, port=port, large="--grande" in options.flags,
                 origins=origins, max_visits=max_visits)


def _export(args: list[str], folder: Path) -> int:
    options = Options(args, values=("--format", "--output", "-o"),
                      flags=("--jugadores", "--force"))
    path = _one_path(options, "cdbtui export RUTA [--format md|html] [--output ARCHIVO]")
    from .export import FORMATS

    kind = options.values.get("--format", "md")
    if kind not in FORMATS:
        raise UsageError(f"formato desconocido «{kind}»: usa md o html")
    output = options.values.get("--output") or options.values.get("-o")
    if output is not None:
        _check_export_target(path, Path(output), force="--force" in options.flags)
    text = FORMATS[kind](load(path).fight, for_players="--jugadores" in options.flags)
    if output is None:
        _print(text, end="")
        return 0
    target = Path(output)
    try:
        write_atomic(target, text)
    except OSError as error:
        raise SaveError(f"no se puede escribir {target}: {reason(error)}") from None
    _print(f"Exportado {_shown(str(target))}")
    return 0


def _check_export_target(source: Path, target: Path, *, force: bool) -> None:
    """An export never overwrites a fight or its backups (`.bak`, `.vN`, the roster);
    another existing file only with --force... unless it is an earlier export."""
    if target.exists() and target.resolve() == source.resolve():
        raise UsageError("la exportación no puede sobrescribir la partida")
    if not target.exists():
        return
    if not target.is_file():
        raise UsageError(f"{_shown(str(target))} no es un archivo")
    name = target.name
    companion = name.endswith((".toml", ".bak", ".tmp")) or ".toml.v" in name
    try:
        with open(target, "rb") as file:
            head = file.read(4096)
    except OSError:
        head = b""
    is_save = b'app = "cdbtui"' in head or b"[[pj]]" in head
    if companion or is_save:
        raise UsageError(f"{_shown(str(target))} es una partida de cdbtui o su copia: la"
                         " exportación no la sobrescribe (elige otro archivo)")
    if not force and not head.lstrip().startswith((b"# ", b"<!DOCTYPE html", b"<!doctype html")):
        raise UsageError(f"{_shown(str(target))} ya existe y no parece una exportación:"
                         " usa --force para sobrescribirlo")


def _house(args: list[str], folder: Path) -> int:
    """`cdbtui casa RUTA ARCHIVO|no`: the house rules become a command of the fight."""
    if len(args) != 2:
        raise UsageError("se usa «cdbtui casa RUTA ARCHIVO.toml» o «cdbtui casa RUTA no»")
    from .engine.commands import HouseRules

    if args[1] in ("no", "-"):
        line = HouseRules("").line()
    elif not Path(args[1]).expanduser().is_file():
        raise UsageError(f"no existe el archivo {_shown(args[1])}")
    else:
        try:
            line = house_file_line(f"casa {args[1]}")
        except Refusal as refusal:
            raise UsageError(str(refusal)) from None
    path = Path(args[0])
    with folder_lock(path):
        save_file = SaveFile.open(path)
        try:
            save_file.play(line)
        except Refusal as refusal:
            return _fail(f"{args[1]}: {refusal}", 1)
        finally:
            save_file.close()
    _print(save_file.session.fight.log[-1].text)
    return 0


def _roster(args: list[str], folder: Path) -> int:
    """`cdbtui grupo …`: a member refused (a bad `alta`, a name not there) is exit 1,
    like a refused command line; nothing is written."""
    try:
        return _roster_verb(args, folder)
    except Refusal as refusal:
        return _fail(str(refusal), 1)


def _roster_verb(args: list[str], folder: Path) -> int:
    from . import roster

    if not args:
        party = roster.load_roster(folder)
        if not party:
            _print(f"El grupo está vacío ({_shown(str(roster.roster_path(folder)))}).")
        for member in party:
            _print(_shown(member.line()))
        return 0
    verb, rest = args[0], args[1:]
    if verb in ("alta", "add") and rest:
        line = " ".join(roster_quote(a) for a in ["alta", *rest])
        member = roster.member_from_line(line)
        new = roster.put_member(folder, member)
        _print(f"{_shown(member.name)} {'añadido al' if new else 'actualizado en el'} grupo")
        return 0
    if verb in ("baja", "remove") and len(rest) == 1:
        roster.remove_member(folder, rest[0])
        _print(f"{_shown(rest[0])} ya no está en el grupo")
        return 0
    if verb in ("desde", "from") and len(rest) >= 2:
        # All or nothing: every name is found and checked, then one write.
        fight = load(Path(rest[0])).fight
        try:
            members = roster.members_from_fight(fight, rest[1:], _shown(rest[0]))
        except Refusal as refusal:
            raise Refusal(f"{refusal}: no se ha copiado nadie") from None
        roster.put_members(folder, members)
        for member in members:
            _print(f"{_shown(member.name)} copiado al grupo")
        return 0
    raise UsageError("se usa «cdbtui grupo [alta NOMBRE ac=N … | baja NOMBRE | desde RUTA NOMBRE …]»")


def roster_quote(arg: str) -> str:
    """Shell arguments back into one command line (a name with spaces gets quotes)."""
    from .engine.commands import quote

    if "=" in arg or arg == "alta":
        return arg
    return quote(arg)


def help_text(command: str) -> str:
    """The `--help` of one subcommand (a key of `COMMANDS`), with the exit status."""
    max_visits = None
    if command == "serve":
        from .serve import DEFAULT_MAX_VISITS as max_visits
    text = HELP[command].format(saves=_SAVES, max_visits=max_visits)
    return f"{text}\n\n{_EXIT}"


COMMANDS = {
    "new": _new, "do": _do, "show": _show, "open": _open, "view": _view,
    "serve": _serve, "export": _export, "list": _list, "grupo": _roster, "casa": _house,
    "maniobras": _maneuvers,
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
        if args and args[0] in (*HELP_OPTIONS, "help", "ayuda"):
            # `cdbtui help do` / `cdbtui --help do`: that subcommand's help.
            if len(args) > 1 and args[1] in COMMANDS:
                _print(help_text(args[1]))
            else:
                _print(USAGE)
            return 0
        option, args = _saves_option(args)
        folder = saves_folder(option)
        if not args:
            return _open([], folder)
        handler = COMMANDS.get(args[0])
        if handler is not None:
            # `-h`/`--help` anywhere after a subcommand: its help, and nothing is done
            # (a lone `-h`/`--help` is no command line `do` could run; elsewhere it
            # would be an unknown option: the safe reading is "show me how").
            if any(arg in HELP_OPTIONS for arg in args[1:]):
                _print(help_text(args[0]))
                return 0
            return handler(args[1:], folder)
        if args[0].startswith("-") or len(args) > 1:
            raise UsageError(f"orden desconocida «{args[0]}» (las órdenes: «cdbtui --help»)")
        return _open(args, folder)
    except UsageError as error:
        return _fail(str(error), 2)
    except SaveError as error:
        return _fail(_one_line(str(error)), 2)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    except Exception as error:  # a bug must still end in one line, not a traceback
        return _fail(f"error interno ({type(error).__name__}: {_one_line(str(error))});"
                     " avisa a quien mantiene cdbtui", 2)


def _one_line(text: str) -> str:
    """`text` as one printable line: control characters escaped (limits.shown)."""
    return shown(text.replace("\r", "\\r").replace("\n", "\\n"))


def _shown(text: str) -> str:
    """A name or path from the user, safe to print on a terminal."""
    return literal(text)


def _print(text: str, end: str = "\n") -> None:
    """Print to stdout, whatever the text holds (undecodable bytes escaped)."""
    sys.stdout.write(text.encode("utf-8", "backslashreplace").decode("utf-8") + end)
    sys.stdout.flush()


def _json_text(data: object) -> str:
    """JSON with accents as they are, but any character a terminal could act on
    (C1 controls, direction controls…: json leaves them raw) as a `\\uXXXX` escape."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if text.isprintable() or all(ch.isprintable() or ch == "\n" for ch in text):
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else f"\\u{ord(ch):04x}" for ch in text)


def _closed_pipe() -> int:
    """The reader went away (`cdbtui show RUTA | head -3`): as Unix tools do, stop
    quietly; what mattered was written up to there."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 0
