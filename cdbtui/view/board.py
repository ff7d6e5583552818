"""The board `cdbtui do` and `cdbtui show` print, and the JSON state contract of
`cdbtui show --json` (COMMANDS.md)."""

from __future__ import annotations

from ..engine.model import (
    FATIGUE_CATEGORIES,
    STATUS_ES,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
)
from ..engine.rules import queue
from ..printable import literal
from .sheet import (
    WITH_LEFT_IN_BRACKETS,
    build_sheet,
    conditions_text,
    header,
    note_text,
    sheet_lines,
    signed,
    track_text,
    turns_left,
)


def summary_line(c: Combatant, fight: Fight) -> str:
    """One line per combatant under the board: AC, marker, status, carried."""
    budget = c.budget(fight.turn) if fight.started else c.ac_per_turn
    parts = [
        f"{c.name} ({c.side.upper() if c.side in ('pj', 'pnj') else c.side})",
        f"AC {c.ac}/{budget}" if fight.started else f"AC {c.ac_per_turn}",
        f"inicio {c.start if c.start is not None else '—'}",
    ]
    if fight.started:
        parts.append(f"marcador {c.marker if c.marker is not None else '—'}")
        parts.append(STATUS_ES[c.status])
    if c.carried is not None:
        parts.append(f"pendiente {c.carried.label} ({c.carried.remaining} AC)")
    if c.is_group:
        parts.append(f"{c.members} miembros")
    if c.conditions:
        parts.append("estados " + conditions_text(c, fight, form=WITH_LEFT_IN_BRACKETS))
    if c.notes:
        parts.append("notas " + "; ".join(note_text(n, fight, form=WITH_LEFT_IN_BRACKETS)
                                          for n in c.notes))
    if c.wounds.count or c.fatigue.count:
        parts.append(f"heridas {track_text(c.wounds, WOUND_CATEGORIES)}"
                     f" · fatiga {track_text(c.fatigue, FATIGUE_CATEGORIES)}")
    if c.modifier:
        parts.append(f"modificador {signed(c.modifier)}")
    if c.hidden:
        parts.append("oculto")
    return literal(" · ".join(parts))


def board_text(fight: Fight, *, log_lines: int = 5) -> str:
    """The plain-text board that `cdbtui do` and `cdbtui show` print."""
    # The other rulesets' views are imported when a fight uses them (start-up time).
    if fight.rules == "csystem":
        from .csystem import cs_board_text
        return cs_board_text(fight, log_lines=log_lines)
    if fight.rules == "narrador":
        from .narrador import narr_board_text
        return narr_board_text(fight, log_lines=log_lines)
    sheet = build_sheet(fight)
    lines = [header(fight), ""]
    if sheet.columns:
        lines += sheet_lines(sheet)
        lines.append("")
    lines += [summary_line(c, fight) for c in fight.combatants]
    if sheet.waiting_for_start and fight.started:
        lines.append("Sin momento inicial: " + ", ".join(sheet.waiting_for_start))
    if log_lines and fight.log:
        lines.append("")
        lines += [literal(str(entry)) for entry in fight.log[-log_lines:]]
    return "\n".join(lines)


def window_moment(fight: Fight) -> int | None:
    """The moment of the open reaction window (RULES.md §3), or None when closed."""
    return None if fight.window is None else fight.window.moment


def state_json(fight: Fight) -> dict:
    """The state contract of `cdbtui show --json` (COMMANDS.md)."""
    if fight.rules == "csystem":
        from .csystem import cs_state_json
        return cs_state_json(fight)
    if fight.rules == "narrador":
        from .narrador import narr_state_json
        return narr_state_json(fight)
    return {
        "schema": 1,
        "name": fight.name,
        "rules": fight.rules,
        "turn": fight.turn,
        "moment": fight.moment if fight.started else None,
        "turn_over": fight.turn_over,
        "quick": fight.quick,
        "queue": [c.name for c in queue(fight)],
        "window": window_moment(fight),
        "combatants": [_combatant_json(c, fight) for c in fight.combatants],
        "log": [str(entry) for entry in fight.log],
    }


def _combatant_json(c: Combatant, fight: Fight) -> dict:
    return {
        "name": c.name,
        "side": c.side,
        "hidden": c.hidden,
        "private": c.private,
        "ini": c.ini,
        "agi": c.agi,
        "ate": c.ate,
        "hab": c.skill,
        "mov": c.mov,
        "talents": list(c.talents),
        "start": c.start,
        "marker": c.marker,
        "ac": c.ac,
        "ac_per_turn": c.ac_per_turn,
        "ac_budget": c.budget(max(fight.turn, 1)),
        "status": c.status.value,
        "attacks": c.attacks,
        "next_attack_penalty": c.attack_penalty,
        "aim": c.aim,
        "carried": None if c.carried is None else {
            "maneuver": c.carried.maneuver, "remaining": c.carried.remaining,
        },
        "conditions": list(c.conditions),
        "expires": {e.condition: e.turn for e in c.expires},
        "notes": [{"text": note.text, "turns_left": turns_left(note.until, fight)}
                  for note in c.notes],
        "trigger": c.trigger,
        "maneuvers": list(c.maneuvers),
        "wounds": c.wounds.count,
        "fatigue": c.fatigue.count,
        "modifier": c.modifier,
        "targets": list(c.targets),
        "target_penalty": c.target_penalty,
        "block_penalty": c.block_penalty,
        "leadership": c.leadership,
        "lead_bonus": c.lead_bonus,
        "duel": c.duel,
        "mount": c.mount,
        "members": c.members if c.is_group else None,
    }
