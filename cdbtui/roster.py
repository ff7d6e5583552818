"""The party roster: PJ defined once and added to every new fight.

A roster is `_grupo.toml` in the saves folder, one `[[pj]]` table per character
with the fields of an `alta` command (name, ac, ini, agi, ate, skill, mov,
talents, wounds); adding the party to a fight runs those `alta` lines through
the same funnel as any command, so it is undoable like the rest.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

from attrs import evolve

from .codec import DecodeError, from_data, to_data
from .engine.commands import Add
from .engine.errors import Refusal
from .engine.model import DEFAULT_BOXES, Combatant, Fight
from .engine.parser import parse, take_name
from .engine.rules import apply, new_fight
from .engine.session import Session
from .engine.tomlerrors import toml_error
from .files import SaveError, reason, write_atomic
from .funnel import SaveFile
from .library import free_path
from .store import table_text

FILE_NAME = "_grupo.toml"
HEADER = """\
# Grupo de PJ de cdbtui: se añaden a los combates nuevos («con el grupo»).
# Un [[pj]] por personaje, con los campos de la orden «alta»:
# name, ac, ini, agi, ate, skill (hab), mov, talents, wounds (casillas por categoría).
"""


def roster_path(folder: Path) -> Path:
    return Path(folder) / FILE_NAME


def load_roster(folder: Path) -> list[Add]:
    """The party in `folder` (empty if there is none yet)."""
    path = roster_path(folder)
    try:
        document = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return []
    except OSError as error:
        raise SaveError(f"{path}: no se puede leer ({reason(error)})") from None
    except UnicodeDecodeError as error:
        raise SaveError(f"{path}: no es texto UTF-8 (byte {error.start + 1}): archivo dañado") from None
    except tomllib.TOMLDecodeError as error:
        raise SaveError(f"{path}: {toml_error(error)}") from None
    members = document.get("pj", [])
    if not isinstance(members, list) or set(document) - {"pj"}:
        raise SaveError(f"{path}: se esperaba solo una lista [[pj]]")
    party: list[Add] = []
    for number, table in enumerate(members, 1):
        try:
            member = from_data(Add, table, f"[[pj]] nº {number}")
            member = checked(evolve(member, side="pj"))
        except DecodeError as error:
            raise SaveError(f"{path}: {error}") from None
        except Refusal as refusal:
            raise SaveError(f"{path}: [[pj]] nº {number}: {refusal}") from None
        party.append(member)
    names = [m.name.casefold() for m in party]
    for name in names:
        if names.count(name) > 1:
            raise SaveError(f"{path}: el nombre «{name}» está repetido")
    return party


def save_roster(folder: Path, party: list[Add]) -> None:
    path = roster_path(folder)
    Path(folder).mkdir(parents=True, exist_ok=True)
    tables = [to_data(evolve(m, side="pj", hidden=False, private=False, start=None))
              for m in party]
    try:
        write_atomic(path, HEADER + "\n".join(table_text("pj", t, array=True) for t in tables))
    except OSError as error:
        raise SaveError(f"no se puede guardar {path}: {reason(error)}") from None


def member_from_line(line: str) -> Add:
    """A party member from an `alta` line (checked by the command parser), or
    `Refusal`."""
    if line.split()[:1] not in (["alta"], ["add"]):
        raise Refusal("se esperaba una orden «alta NOMBRE ac=N …»")
    command = parse(line, new_fight())
    if not isinstance(command, Add):
        raise Refusal("se esperaba una orden «alta NOMBRE ac=N …»")
    return checked(evolve(command, side="pj", hidden=False, private=False, start=None))


def checked(member: Add) -> Add:
    """`member` as the engine would add it (name normalised), or `Refusal`: a roster
    never holds a PJ that a new fight would refuse (nor copias=: one PJ, one name)."""
    if member.copies:
        raise Refusal(f"el grupo guarda un PJ por nombre: «{member.name}» no lleva copias=")
    added = apply(new_fight(), member).combatants[-1]
    return evolve(member, name=added.name)


def member_from_combatant(c: Combatant) -> Add:
    """A fight's PJ as a party member (its sheet, not its state in the fight)."""
    return Add(
        name=c.name, ac=c.ac_per_turn, ini=c.ini, agi=c.agi, ate=c.ate, skill=c.skill,
        mov=c.mov, side="pj", talents=c.talents,
        wounds=None if c.wounds.boxes == DEFAULT_BOXES else c.wounds.boxes,
    )


def members_from_fight(fight: Fight, names: Iterable[str], where: str) -> list[Add]:
    """The combatants of `fight` named in `names`, as party members (`grupo desde`).

    Each name is found as a DJ types it (`parser.take_name`: exact wins, accents and
    case optional, a unique prefix of any word), and every one is found and checked
    before anything is written: if any fails, `Refusal` names each that failed and
    the caller writes nothing (a PJ a new fight would refuse is a failure too)."""
    found: dict[str, Combatant] = {}
    problems: list[str] = []
    for typed in names:
        tokens = typed.split()
        try:
            combatant, rest = take_name(fight, tokens)
        except Refusal as refusal:
            ambiguous = tokens and "ambiguo" in str(refusal)  # it lists the candidates
            problems.append(str(refusal) if ambiguous else f"«{typed}» no está en {where}")
            continue
        if rest:
            problems.append(f"«{typed}» no está en {where}")
            continue
        found.setdefault(combatant.key, combatant)
    members: list[Add] = []
    for combatant in found.values():
        try:
            members.append(checked(member_from_combatant(combatant)))
        except Refusal as refusal:
            problems.append(f"{combatant.name}: {refusal}")
    if problems:
        raise Refusal("; ".join(problems))
    return members


def put_member(folder: Path, member: Add) -> bool:
    """Add `member` to the roster, or replace the one of the same name; True if new."""
    party = load_roster(folder)
    key = member.name.casefold()
    new = all(m.name.casefold() != key for m in party)
    party = [member if m.name.casefold() == key else m for m in party]
    if new:
        party.append(member)
    save_roster(folder, party)
    return new


def put_members(folder: Path, members: list[Add]) -> None:
    """`put_member` for several at once: one write, all or nothing."""
    party = load_roster(folder)
    for member in members:
        key = member.name.casefold()
        if any(m.name.casefold() == key for m in party):
            party = [member if m.name.casefold() == key else m for m in party]
        else:
            party.append(member)
    save_roster(folder, party)


def remove_member(folder: Path, name: str) -> None:
    party = load_roster(folder)
    kept = [m for m in party if m.name.casefold() != name.casefold()]
    if len(kept) == len(party):
        raise Refusal(f"«{name}» no está en el grupo")
    save_roster(folder, kept)


def party_lines(folder: Path, present: tuple[str, ...] = ()) -> list[str]:
    """The `alta` lines of the party members not already in the fight."""
    taken = {name.casefold() for name in present}
    return [m.line() for m in load_roster(folder) if m.name.casefold() not in taken]


# ---------------------------------------------------------------- C-System's demo fight

#: C-System's demo: the rooftop of CSYSTEM.md §12, its four combatants with their
#: weapons and initiatives, started (turn 1, Centella's go).
CS_DEMO_NAME = "azotea"
CS_DEMO_TITLE = "Azotea"
CS_DEMO_LINES = (
    "alta Centella bando=pj nh=5 des=6 ale=4 per=8 con=5 rd=3",
    "arma Centella pistola modos=sa cargador=15 dano=2d6",
    "alta Titán bando=pj nh=1 des=3 ale=2 per=4 con=7 rd=2",
    "arma Titán puños dano=3d6",
    'alta "Sicario 1" nh=1 des=4 ale=3 per=4 con=4 rd=2',
    'arma "Sicario 1" subfusil modos=fa cargador=30 dano=2d6',
    'alta "Doctor Ruina" nh=9 des=5 ale=6 per=7 con=6 rd=3',
    'arma "Doctor Ruina" rayo distancia dano=3d6',
    "iniciativa Centella 22",
    'iniciativa "Doctor Ruina" 22',
    'iniciativa "Sicario 1" 18',
    "iniciativa Titán 14",
    "empezar",
)


def create_cs_demo(folder: Path) -> Path:
    """Write C-System's demo fight to a new file in `folder` (never overwrites), its
    lines run through the same funnel as any command."""
    path = free_path(Path(folder), CS_DEMO_NAME)
    SaveFile.start(path, Session.new(CS_DEMO_TITLE, "csystem", 0), list(CS_DEMO_LINES))
    return path


# ---------------------------------------------------------------- the storyteller demo fight

#: The storyteller demo: the morgue of STORYTELLER.md §15, its four combatants with
#: their weapons, through turn 1's initiatives (the declaration phase begun:
#: the Cadáver declares first).
NARR_DEMO_NAME = "deposito"
NARR_DEMO_TITLE = "Depósito"
NARR_DEMO_LINES = (
    "alta Kara bando=pj des=3 ast=3 fue=2 res=2 fv=5 per=3 rasgos=armas-de-fuego:3,esquivar:4",
    "arma Kara revolver-ligero",
    "alta Víctor bando=pj des=4 ast=2 fue=3 res=2 fv=4 rasgos=armas-de-fuego:3,atletismo:2",
    "arma Víctor rifle-de-asalto",
    "alta Matón des=3 ast=2 fue=3 res=3 fv=3 rasgos=armas-de-fuego:2,pelea:3",
    "arma Matón pistola-ligera",
    "alta Cadáver des=2 ast=1 fue=4 res=3 sobrenatural rasgos=pelea:2",
    "iniciativa Kara 13",
    "iniciativa Matón 13",
    "iniciativa Víctor 10",
    "iniciativa Cadáver 8",
    "siguiente",
)


def create_narr_demo(folder: Path) -> Path:
    """Write the storyteller demo fight to a new file in `folder` (never overwrites),
    its lines run through the same funnel as any command."""
    path = free_path(Path(folder), NARR_DEMO_NAME)
    SaveFile.start(path, Session.new(NARR_DEMO_TITLE, "narrador", 0), list(NARR_DEMO_LINES))
    return path
