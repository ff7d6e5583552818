"""Combate montado (000, the book's optional rule): `cmd.Mount` and `cmd.Dismount`.

Owns keeping every mount at its rider's start and marker (`sync_mounts`, which
`rules.apply` runs after every command), whether a mount may still act with its
rider (`rider_present`) and the refusal for what a mount cannot do on its own
(`refuse_mount`).  A mount's spending lives with the rest of spending
(`spending._spend_mount`); the mounted-charge and shooting reminders with the
maneuvers (`maneuvers._maneuver_notes`).
"""

from __future__ import annotations


from . import commands as cmd
from .countdown import get_combatant, settle
from .errors import Refusal
from .model import ACTIVE, FOLLOWING, MOUNTED, Combatant, Fight, LogKind, Role, Status, evolve
from .queries import is_out

# Decisions where the book is silent:
# · Mounts: the mount has no moment of its own and never holds the countdown; it may
#   act at its rider's moment or right after its rider's maneuver, spends its own AC
#   without moving its marker (which shows the rider's), and carries nothing over.


def rider_present(fight: Fight, rider: Combatant, *, now: bool = False) -> bool:
    """Whether a rider's mount may still act this turn: the rider acts now or later, or
    its maneuver is the last thing that happened (the mount moves right after its
    rider's order, even once the countdown has moved on).  `now`: only at the rider's
    moment or right after its maneuver (for the mount's own maneuvers)."""
    acted_last = bool(rider.stops) and rider.arrival == fight.clock
    if fight.quick:  # no moments: the mount acts during its rider's go
        return rider.name == fight.actor or acted_last or (not now and rider.status in ACTIVE)
    if now:
        return acted_last or (rider.status in ACTIVE and (
            rider.status in FOLLOWING or rider.marker == fight.moment
        ))
    return rider.status in ACTIVE or acted_last


def refuse_mount(fight: Fight, c: Combatant, what: str) -> None:
    rider = fight.rider_of(c)
    if rider is not None:
        raise Refusal(f"{c.name} es la montura de {rider.name}: actúa con su jinete, no puede {what}")


def unmounted(rider: Combatant) -> Combatant:
    return evolve(rider, mount=None, conditions=tuple(x for x in rider.conditions if x != MOUNTED))


def _mount(fight: Fight, command: cmd.Mount) -> Fight:
    """Combate montado (000): the mount acts at its rider's moment ("por simplificar
    actúa en el mismo Momento de Iniciativa que su jinete"), spending its own AC."""
    rider, mount = get_combatant(fight, command.rider), get_combatant(fight, command.mount)
    if rider.key == mount.key:
        raise Refusal(f"{rider.name} no puede montarse a sí mismo")
    if rider.mount is not None:
        raise Refusal(f"{rider.name} ya monta a {rider.mount}: primero «desmonta {cmd.quote(rider.name)}»")
    carrier = fight.rider_of(mount)
    if carrier is not None:
        raise Refusal(f"{mount.name} ya lleva a {carrier.name}")
    if fight.rider_of(rider) is not None:
        raise Refusal(f"{rider.name} es una montura: no puede montar a otro")
    if mount.mount is not None:
        raise Refusal(f"{mount.name} va montado en {mount.mount}: no puede ser montura")
    if mount.duel is not None:
        raise Refusal(f"{mount.name} está en duelo: no puede ser montura")
    if mount.status is Status.OUT or is_out(mount):
        raise Refusal(f"{mount.name} está fuera de combate: no puede llevar jinete")
    if fight.started and rider.start is None:
        raise Refusal(
            f"{rider.name} no tiene momento inicial: primero «momento {cmd.quote(rider.name)} N»"
            " (la montura toma el de su jinete)"
        )
    if mount.carried is not None:
        fight = fight.note(
            f"{mount.name} abandona {mount.carried.label}", warning=True, kind=LogKind.ACTION,
            about=[mount.name, *([(mount.carried.target, Role.TARGET)] if mount.carried.target else [])],
            free=mount.carried.label,
        )
        mount = evolve(mount, carried=None)
        fight = fight.replace(mount)
    rider = evolve(rider, mount=mount.name,
                   conditions=rider.conditions if rider.has(MOUNTED) else (*rider.conditions, MOUNTED))
    fight = fight.replace(rider).note(
        f"{rider.name} monta a {mount.name}: la montura actúa en el momento de su jinete y"
        " gasta sus propias AC; cuerpo a cuerpo, + Modificador al Daño por la Escala de la"
        " montura; disparar desde la montura: −2",
        kind=LogKind.CONDITION, about=[rider.name, (mount.name, Role.TARGET)],
    )
    return settle(sync_mounts(fight))


def dismount_rider(fight: Fight, command: cmd.Dismount) -> Fight:
    rider = get_combatant(fight, command.rider)
    if rider.mount is None:
        raise Refusal(f"{rider.name} no va montado")
    mount = fight.find(rider.mount)
    fight = fight.replace(unmounted(rider)).note(
        f"{rider.name} desmonta de {rider.mount}"
        + (f": {mount.name} vuelve a actuar por su cuenta" if mount is not None else ""),
        kind=LogKind.CONDITION, about=[rider.name, (rider.mount, Role.TARGET)],
    )
    return fight  # rules.apply settles


def sync_mounts(fight: Fight) -> Fight:
    """Every mount sits at its rider's start and marker; once its rider has nothing left
    to do this turn, neither has the mount."""
    changed = []
    for rider in fight.combatants:
        if rider.mount is None:
            continue
        mount = fight.find(rider.mount)
        if mount is None:
            continue
        if fight.started and rider.start is None:
            continue  # refused by «monta»; nothing to follow yet
        new = evolve(mount, start=rider.start)
        if fight.started:
            if mount.start is None and mount.status is not Status.OUT:  # joins with its rider
                new = evolve(new, ac=mount.budget(fight.turn), status=Status.READY)
            marker = rider.marker
            if fight.moment is not None and marker is not None and not fight.quick:
                marker = min(marker, fight.moment)  # never ahead of the countdown
            new = evolve(new, marker=marker)
            if new.status in FOLLOWING:
                new = evolve(new, status=Status.ACTED if new.stops or new.maneuvers else Status.READY,
                             acting=False, trigger=None)
            if new.status in ACTIVE and not rider_present(fight, rider):
                new = evolve(new, status=Status.DONE, ac=0)  # its rider's turn is over
        if new != mount:
            changed.append(new)
    return fight.replace(*changed) if changed else fight


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Mount: _mount,
    cmd.Dismount: dismount_rider,
}
