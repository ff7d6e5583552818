"""The rules of the countdown (RULES.md §2–§6): `apply(fight, command) -> fight`.

Every change to a fight goes through `apply`.  It never mutates its input: it
returns a new `Fight` or raises `Refusal` with the Spanish sentence the user sees,
in which case nothing changed.  The RNG is a pure function of the fight's seed and
its count of rolls, so replaying a command replays the same die.

This module is the entry point: `apply`, `new_fight` and the table of handlers.
Where each rule lives (lower modules first; none imports one above it):

- `queries.py`: the queue and its tie-breaks; incapacitated / out (§3, §5).
- `spending.py`: spending AC, carry-over, what a finished maneuver does (§3, §4).
- `countdown.py`: look-ups, the die, placing, entering moments, `settle` (§2, §3).
- `mounts.py`: Combate montado (optional rule).
- `optional.py`: Duelos, the Liderazgo bonus, Hordas' damage (optional rules).
- `turn.py`: holding, waiting, declining, advancing, Iniciativa Rápida, new turns (§3).
- `maneuvers.py`: doing a maneuver, reactions, interruptions (§3, §4).
- `conditions.py`: conditions, damage, healing and rest (§5, §6).
- `setting_up.py`: adding, removing, start moments, rolls, surprise, beginning (§2).
- `extras.py`: the GM's tie swap, extra targets, renaming, house rules.
"""

from __future__ import annotations

from collections.abc import Callable


from . import commands as cmd
from . import conditions, extras, maneuvers, mounts, optional, setting_up, turn
from .catalog import RULES_ES, catalog
from .conditions import COVER_NOTE
from .countdown import open_window, settle, window_base
from .errors import Refusal
from .limits import check_state
from .maneuvers import MOUNTED_CHARGE, RANGED_GROUP
from .model import Fight, LogKind, evolve
from .mounts import sync_mounts
from .optional import DUELIST
from .queries import is_incapacitated, is_out, order_key, queue, tie_reason
from .spending import BLOCKS, LEADERSHIP, LEAVE_DUEL

__all__ = [
    "BLOCKS",
    "COVER_NOTE",
    "DUELIST",
    "LEADERSHIP",
    "LEAVE_DUEL",
    "MOUNTED_CHARGE",
    "RANGED_GROUP",
    "apply",
    "is_incapacitated",
    "is_out",
    "new_fight",
    "order_key",
    "queue",
    "tie_reason",
]

#: Every command's handler, from the modules that own them.
_HANDLERS: dict[type, Callable[[Fight, object], Fight]] = {
    **setting_up.HANDLERS,
    **maneuvers.HANDLERS,
    **turn.HANDLERS,
    **conditions.HANDLERS,
    **extras.HANDLERS,
    **optional.HANDLERS,
    **mounts.HANDLERS,
}


#: Commands applied in the reaction window while one is open (RULES.md §3): what
#: answers the last action, and what the DJ records about it.  Any other command
#: closes the window.
_IN_WINDOW = (cmd.Damage, cmd.Heal, cmd.Condition, cmd.Note, cmd.Reveal)


def _window_role(fight: Fight, command: cmd.Command) -> tuple[bool, bool]:
    """(applied in the window if one is open, opens a window): RULES.md §3.  An action
    at one's moment opens one; a reaction, an interrupt, damage, healing, conditions,
    notes and reveals are applied in it; an interrupt `ahora` happens at the current
    moment and closes the window (RULES.md §3: it opens none of its own)."""
    if fight.quick or not fight.started:
        return False, False
    if isinstance(command, _IN_WINDOW):
        return True, False
    if isinstance(command, cmd.Trigger):  # «ahora»: at the current moment, and no window
        return (False, False) if command.now else (True, True)
    if isinstance(command, cmd.Perform):
        return (True, False) if maneuvers.is_reaction(fight, command) else (False, True)
    return False, False


def apply(fight: Fight, command: cmd.Command) -> Fight:
    """The fight after `command`, or `Refusal` (and the fight is unchanged).

    Every handler returns the state its command makes; the countdown then moves on by
    itself here (`settle`), once.  The reaction window (RULES.md §3) is kept here too:
    a command that answers the last action is applied to the state just before that
    action's advance (`window_base`), and the advance is made again from there."""
    if fight.rules == "csystem":  # the other rulesets, imported when a fight uses them
        from .csystem.rules import apply as csystem_apply
        return csystem_apply(fight, command)
    if fight.rules == "narrador":
        from .narrador.rules import apply as narrador_apply
        return narrador_apply(fight, command)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Refusal(f"Orden desconocida: {command!r}")
    in_window, opens = _window_role(fight, command)
    kept = in_window and fight.window is not None
    start = window_base(fight) if kept else evolve(fight, window=None)
    raw = sync_mounts(handler(start, command))
    after = sync_mounts(settle(raw))
    # A window only while someone may still answer: not once the action ended the turn.
    if ((kept or opens) and after.started and not after.quick and raw.moment is not None
            and not raw.turn_over):
        after = open_window(raw, after)
    if after.turn_over and not start.turn_over:
        after = after.note(f"Fin del turno {after.turn}: todos han terminado (usa «turno»)",
                           kind=LogKind.TURN)
    check_state(after, fight)  # what the engine accepts, a save can load (limits.py)
    return after


def new_fight(name: str = "Combate", rules: str = "cdb", seed: int = 0) -> Fight:
    """An empty fight; `rules` must name a known ruleset."""
    if rules == "csystem":
        from .csystem.model import CsPart
        return Fight(name=name, rules=rules, seed=seed, cs=CsPart()).note(
            f"Combate «{name}» ({RULES_ES[rules]})", kind=LogKind.SETUP)
    if rules == "narrador":
        from .narrador.rules import new_fight as narrador_new_fight
        return narrador_new_fight(name, seed)
    catalog(rules)
    return Fight(name=name, rules=rules, seed=seed).note(
        f"Combate «{name}» ({RULES_ES[rules]})", kind=LogKind.SETUP
    )
