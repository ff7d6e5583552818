"""Setting up a fight (RULES.md §2): `cmd.Add`, `cmd.Remove`, `cmd.SetStart`,
`cmd.Roll` (one by one or as a group), `cmd.Surprise` and `cmd.Begin`.

Placing a combatant at its start moment is `countdown._place`; the first turn starts
with `turn._start_turn`.  `alta … copias=N` adds N combatants at once, all or none.
Handlers return the state their command makes; `rules.apply` settles the countdown.
"""

from __future__ import annotations


from . import commands as cmd
from .conditions import set_condition
from .countdown import get_combatant, place, roll_die
from .errors import Refusal
from .limits import STAT, check_name, check_text
from .model import SURPRISED, Combatant, Fight, LogKind, Track, mention_of, evolve
from .mounts import refuse_mount, unmounted
from .spending import end_duel
from .text import fold
from .turn import start_turn

#: How many copies `alta NAME … copias=N` makes: «NAME 1» … «NAME N».  One copy is
#: refused (for one combatant, leave copias= out); more than 50 is a typing slip.
COPIES = (2, 50)


def _copy_names(fight: Fight, name: str, command: cmd.Add) -> list[str]:
    """The names `command` adds: `name`, or «NAME 1» … «NAME N» with copias=N; a
    clash with anyone already in the fight refuses the whole command."""
    if not command.copies:
        if fight.find(name) is not None:
            raise Refusal(f"Ya hay un combatiente llamado «{fight.find(name).name}»")
        return [name]
    low, high = COPIES
    if not low <= command.copies <= high:
        hint = ": para uno solo, quita copias=" if command.copies == 1 else ""
        raise Refusal(f"copias= entre {low} y {high} (pedido: {command.copies}){hint}")
    if command.start is not None:
        raise Refusal("copias= no lleva momento=: cada copia tira o escribe su momento"
                      " («tirar», «momento NOMBRE N») o todas a la vez con «tirar juntos»")
    names = [check_name(f"{name} {number}") for number in range(1, command.copies + 1)]
    taken = [fight.find(n).name for n in names if fight.find(n) is not None]
    if taken:
        raise Refusal(f"Ya hay {'un combatiente llamado' if len(taken) == 1 else 'combatientes llamados'}"
                      f" {', '.join(f'«{n}»' for n in taken)}: no se ha añadido ninguna copia"
                      f" (elige otro nombre)")
    return names


def _add(fight: Fight, command: cmd.Add) -> Fight:
    """`alta`: one combatant, or with copias=N N of them with the same stats, each its
    own column and its own log line (so each one's mention hides it while hidden)."""
    name = check_name(command.name)
    clash = next((w for w in fold(name).split() if w in cmd.RESERVED), None)
    if clash is not None:
        raise Refusal(f"«{name}» contiene «{clash}», una palabra de órdenes: elige otro nombre")
    names = _copy_names(fight, name, command)
    if not 1 <= command.ac <= 99:
        raise Refusal(f"Las AC por turno deben estar entre 1 y 99 (pedido: {command.ac})")
    for key, value in (("ini", command.ini), ("agi", command.agi), ("ate", command.ate),
                       ("hab", command.skill), ("mov", command.mov)):
        if not STAT[0] <= value <= STAT[1]:
            raise Refusal(f"{key}= debe estar entre {STAT[0]} y {STAT[1]} (pedido: {value})")
    if command.start is not None and not -99 <= command.start <= 99:
        raise Refusal(f"Momento inicial fuera de rango: {command.start} (entre -99 y 99)")
    side = check_text(command.side, "el bando", limit=40, empty=False)
    if command.wounds is not None and (
        len(command.wounds) != 5 or any(n < 1 or n > 99 for n in command.wounds)
    ):
        raise Refusal("vida= necesita 5 números (Rasguño…Moribundo), cada uno entre 1 y 99")
    if not 0 <= command.members <= 9999:
        raise Refusal(f"miembros= entre 1 y 9999 (pedido: {command.members})")
    if command.toughness != 1 and not command.members:
        raise Refusal("aguante= es el daño que inutiliza a un miembro de una Horda: va con miembros=N")
    if not 1 <= command.toughness <= 99:
        raise Refusal(f"aguante= entre 1 y 99 (pedido: {command.toughness})")
    group = ""
    if command.members:
        group = (f", grupo de {command.members}: una columna, una tirada; cada {command.toughness}"
                 " de daño inutiliza a un miembro")
    shown_side = command.side.upper() if command.side in ('pj', 'pnj') else command.side
    for number, each in enumerate(names, 1):
        combatant = Combatant(
            name=each,
            ac_per_turn=command.ac,
            side=side,
            ini=command.ini,
            agi=command.agi,
            ate=command.ate,
            skill=command.skill,
            mov=command.mov,
            talents=command.talents,
            hidden=command.hidden,
            private=command.private,
            wounds=Track(command.wounds) if command.wounds else Track(),
            fatigue=Track(command.wounds) if command.wounds else Track(),
            members=command.members,
            toughness=command.toughness,
        )
        fight = evolve(fight, combatants=(*fight.combatants, combatant))
        copy = f", copia {number} de {len(names)}" if command.copies else ""
        fight = fight.note(f"Alta de {each} ({shown_side}, {command.ac} AC{group}{copy})",
                           kind=LogKind.SETUP, about=[each])
        if command.start is not None:
            fight = place(fight, combatant, command.start)
    return fight


def _remove(fight: Fight, command: cmd.Remove) -> Fight:
    c = get_combatant(fight, command.name)
    if c.duel is not None:
        fight = end_duel(fight, c, f"Baja de {c.name}")
    rider = fight.rider_of(c)
    if rider is not None:
        fight = fight.replace(unmounted(rider)).note(f"{rider.name} se queda sin montura",
                                                      kind=LogKind.CONDITION, about=[rider.name])
    fight = evolve(fight, combatants=tuple(x for x in fight.combatants if x.key != c.key))
    return fight.note(f"Baja de {c.name}", kind=LogKind.SETUP, about=[mention_of(c)])


def _check_start_allowed(fight: Fight, c: Combatant) -> None:
    refuse_mount(fight, c, "tener momento inicial propio")
    if c.duel is not None:
        raise Refusal(
            f"{c.name} está en duelo con {c.duel}: en un duelo no se tira Iniciativa, se actúa"
            f" en la INI (con Duelista, «duelo {cmd.quote(c.name)} {cmd.quote(c.duel)}"
            f" {cmd.quote(c.name)}+N»)"
        )
    if fight.started and c.start is not None:
        raise Refusal(
            f"La iniciativa se tira una vez por combate: {c.name} ya empieza en el momento"
            f" {c.start} (usa «deshacer» si fue un error)"
        )


def _set_start(fight: Fight, command: cmd.SetStart) -> Fight:
    c = get_combatant(fight, command.name)
    _check_start_allowed(fight, c)
    if not -99 <= command.start <= 99:
        raise Refusal(f"Momento inicial fuera de rango: {command.start} (entre -99 y 99)")
    fight = place(fight, c, command.start)
    return fight.note(f"{c.name} empieza en el momento {command.start}",
                      kind=LogKind.SETUP, about=[c.name])


def _roll(fight: Fight, command: cmd.Roll) -> Fight:
    if command.names:
        who = [get_combatant(fight, n) for n in command.names]
        for c in who:
            _check_start_allowed(fight, c)
    else:
        mounts = fight.mounts  # a mount takes its rider's moment
        who = [c for c in fight.combatants if c.start is None and c.key not in mounts]
        if not fight.combatants:
            raise Refusal("No hay combatientes: añade alguno con «alta NOMBRE ac=N»")
        if not who:
            raise Refusal("Todos tienen ya momento inicial: nombra a quién tirar")
    if command.together:
        fight, die = roll_die(fight)
        dice = [die] * len(who)
        fight = fight.note(f"Tirada de grupo: 1d6 = {die} para {', '.join(c.name for c in who)}",
                           kind=LogKind.SETUP, about=[c.name for c in who])
    else:
        dice = []
        for _ in who:
            fight, die = roll_die(fight)
            dice.append(die)
    for c, die in zip(who, dice):
        c = fight.find(c.name)
        fight = place(fight, c, die + c.ini)
        fight = fight.note(f"{c.name}: 1d6 ({die}) + INI {c.ini} = momento {die + c.ini}",
                           kind=LogKind.SETUP, about=[c.name])
    return fight


def _surprise(fight: Fight, command: cmd.Surprise) -> Fight:
    for name in command.names:
        fight = set_condition(fight, cmd.Condition(name, SURPRISED, True))
    return fight


def _begin(fight: Fight, command: cmd.Begin) -> Fight:
    if fight.started:
        raise Refusal(f"El combate ya ha empezado (turno {fight.turn})")
    if not fight.combatants:
        raise Refusal("No hay combatientes: añade alguno con «alta NOMBRE ac=N»")
    mounts = fight.mounts
    missing = [c.name for c in fight.combatants if c.start is None and c.key not in mounts]
    if missing:
        raise Refusal(f"Falta el momento inicial de {', '.join(missing)}: usa «momento» o «tirar»")
    return start_turn(fight, 1)


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Add: _add,
    cmd.Remove: _remove,
    cmd.SetStart: _set_start,
    cmd.Roll: _roll,
    cmd.Surprise: _surprise,
    cmd.Begin: _begin,
}
