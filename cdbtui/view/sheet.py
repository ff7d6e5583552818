"""The sheet as plain data: a pure function of the fight (no Textual).

`build_sheet` turns a `Fight` into rows × columns of `Cell`s with a role each
(name, spent line, tick, marker…); the TUI's Line-API widget paints those cells
with styles, the CLI prints them as text (`board.board_text`), and the player
view (`cdbtui.players`) paints the players' fight with the same functions,
`for_players=True`.  Every text meant to be shown has been through
`printable.literal`; only `Column.name` keeps the name exactly as saved.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

from attrs import field, frozen

from ..engine.catalog import RULES_ES
from ..engine.model import Combatant, Fight, Note, Status, Track
from ..engine.rules import queue
from ..printable import literal

MIN_WIDTH = 8
MAX_WIDTH = 14

#: The marks of the sheet and what they mean (SHEET.md); shown in the legend and help.
LEGEND = (
    ("Nombre", "su momento inicial (donde empieza cada turno)"),
    ("│", "AC gastadas este turno"),
    ("├ n", "ahí acabó una maniobra; le quedaban n AC"),
    ("● n", "el marcador ahora; le quedan n AC"),
    ("▶", "actúa ahora (cabeza de la cola)"),
    ("┊", "maniobra del turno anterior por completar"),
    ("‖ n", "retrasa su acción: sigue la cuenta sin gastar"),
    ("… n", "a la espera: paga 1 AC por momento"),
    ("╎", "momentos que pasó sin gastar (retrasando o esperando)"),
    ("▸", "el momento actual de la cuenta atrás"),
    ("◌", "oculto a los jugadores"),
)

#: The mark before a hidden combatant's name in the DJ's column header (SHEET.md).
HIDDEN_MARK = "◌"


class CellRole(StrEnum):
    """What a cell of the sheet shows; the widgets style cells by role, never by text."""

    EMPTY = "empty"
    #: The name at the start moment (with the AC left when the marker is still there).
    NAME = "name"
    #: The marker now, below the start moment (● n, ‖ n, … n).
    MARKER = "marker"
    #: Where the head of the queue stands now (the name or the marker, with ▶).
    ACTING = "acting"
    #: Where a maneuver ended (├ n).
    TICK = "tick"
    #: AC spent this turn (│).
    SPENT = "spent"
    #: Moments passed without spending, holding or waiting (╎).
    GAP = "gap"
    #: Last turn's maneuver still to complete (┊).
    CARRIED = "carried"


@frozen
class Cell:
    """One cell of the grid: its text and what it means (the style follows the role)."""

    text: str = field(default="", converter=literal)
    role: CellRole = CellRole.EMPTY


@frozen
class Column:
    """One combatant's column, with the flags that decide its colours."""

    #: The combatant's name as saved (it identifies the column; not for display).
    name: str
    width: int
    pc: bool
    #: At the head of the queue (the combatant who acts now).
    heads_queue: bool
    in_queue: bool
    status: Status
    cells: tuple[Cell, ...]
    #: The header: the name, and the total modifier to its next roll when not 0.
    label: str = field(default="", converter=literal)
    #: Hidden from the players (`oculto`): only on the DJ's sheet, marked in the header.
    hidden: bool = False


@frozen
class Sheet:
    """The whole grid: the moments down the left and a column per combatant."""

    moments: tuple[int, ...]
    current: int | None
    columns: tuple[Column, ...]
    waiting_for_start: tuple[str, ...]


def on_sheet(fight: Fight, for_players: bool) -> tuple[Combatant, ...]:
    """Combatants on the sheet: hidden PNJ are left out of the player view."""
    return tuple(c for c in fight.combatants if not (for_players and c.hidden))


def column_order(fight: Fight, combatants: tuple[Combatant, ...]) -> list[Combatant]:
    """Columns in start order (highest first), ties by Agilidad, Atención, roster."""
    placed = [c for c in combatants if c.start is not None]
    roster = {c.key: i for i, c in enumerate(fight.combatants)}
    return sorted(placed, key=lambda c: (-c.start, -c.agi, -c.ate, -c.skill, roster[c.key]))


@lru_cache(maxsize=4096)
def _cells(c: Combatant, moments: tuple[int, ...], head: bool, secret: bool) -> tuple[Cell, ...]:
    """A combatant's column, row by row.  Cached by value: a command changes few
    combatants, so most columns come back as the very same tuple (the sheet widget
    then skips them by identity)."""
    assert c.start is not None
    marker = c.marker if c.marker is not None else c.start
    ticks = {stop.moment: stop.ac for stop in c.stops}
    spent: set[int] = set()
    for stop in c.stops:
        spent.update(range(stop.moment, stop.begin))
    carried_rows: set[int] = set()
    if c.carried is not None and c.status is Status.READY:
        carried_rows = set(range(c.start - c.carried.remaining, c.start))
    glyph = {Status.HOLDING: "‖", Status.WAITING: "…"}.get(c.status, "●")
    ac = "?" if secret else str(c.ac)
    cells = []
    for row in moments:
        if row == c.start:
            acting = head and marker == row
            prefix = "▶" if acting else ""
            suffix = f" {ac}" if marker == row and c.status in (Status.READY, Status.HOLDING, Status.WAITING) else ""
            if marker == row and c.status in (Status.HOLDING, Status.WAITING):
                suffix = f" {glyph}{ac}"
            role = CellRole.ACTING if acting else CellRole.NAME
            cells.append(Cell(prefix + c.name + suffix, role))
        elif row == marker and row < c.start:
            extra = ""
            if c.carried is not None and c.status is not Status.READY:
                extra = "┊" + ("?" if secret else str(c.carried.remaining))
            cells.append(Cell(("▶" if head else " ") + f"{glyph} {ac}{extra}",
                              CellRole.ACTING if head else CellRole.MARKER))
        elif row in carried_rows:
            cells.append(Cell(" ┊", CellRole.CARRIED))
        elif marker < row < c.start:
            if row in ticks:
                cells.append(Cell(" ├ " + ("?" if secret else str(ticks[row])), CellRole.TICK))
            elif row in spent:
                cells.append(Cell(" │", CellRole.SPENT))
            else:
                cells.append(Cell(" ╎", CellRole.GAP))
        else:
            cells.append(Cell())
    return tuple(cells)


def build_sheet(fight: Fight, *, for_players: bool = False) -> Sheet:
    """The grid for `fight`: rows from the highest start down to the lowest marker."""
    combatants = on_sheet(fight, for_players)
    ordered = column_order(fight, combatants)
    waiting = tuple(literal(c.name) for c in combatants if c.start is None)
    if not ordered:
        return Sheet((), fight.moment, (), waiting)
    lows = [0]
    highs = []
    for c in ordered:
        highs.append(c.start)
        if c.marker is not None:
            lows.append(c.marker)
        if c.carried is not None:
            lows.append(c.start - c.carried.remaining)
    if fight.moment is not None:
        highs.append(fight.moment)
        lows.append(fight.moment)
    moments = tuple(range(max(highs), min(lows) - 1, -1))
    line = queue(fight)
    in_queue = {c.key for c in line}
    head = line[0].key if line else None
    columns = []
    for c in ordered:
        secret = for_players and c.private and not c.is_pc
        marked = c.hidden and not for_players
        width = max(MIN_WIDTH, min(MAX_WIDTH, len(literal(c.name)) + 4 + marked))
        columns.append(Column(
            name=c.name,
            width=width,
            pc=c.is_pc,
            heads_queue=c.key == head,
            in_queue=c.key in in_queue,
            status=c.status,
            cells=_cells(c, moments, c.key == head, secret),
            label=column_label(c, secret, hidden=marked),
            hidden=marked,
        ))
    return Sheet(moments, fight.moment, tuple(columns), waiting)


def fit(text: str, width: int) -> str:
    """`text` cut with an ellipsis or padded to exactly `width` characters."""
    if len(text) > width:
        return text[: width - 1] + "…"
    return text.ljust(width)


def countdown_parts(fight: Fight, *, for_players: bool = False, whole_queue: bool = True,
              over: str = "turno terminado") -> list[str]:
    """["Turno 1", "Momento 5", "Actúa: Sven, luego Soldado 1"]: the parts every header shares."""
    parts = [f"Turno {fight.turn}"]
    if fight.quick:
        parts.append("Iniciativa rápida")
    elif fight.moment is not None:
        parts.append(f"Momento {fight.moment}")
    if fight.turn_over:
        parts.append(over)
        return parts
    names = [literal(c.name) for c in queue(fight) if not (for_players and c.hidden)]
    if not names:
        parts.append("nadie en este momento")
    else:
        tail = f", luego {', '.join(names[1:])}" if whole_queue and len(names) > 1 else ""
        parts.append(f"Actúa: {names[0]}{tail}")
    return parts


def header(fight: Fight, *, for_players: bool = False) -> str:
    """"Nombre · CdB · Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1"."""
    parts = [literal(fight.name), RULES_ES.get(fight.rules, fight.rules)]
    if not fight.started:
        return " · ".join([*parts, "preparación"])
    return " · ".join([*parts, *countdown_parts(fight, for_players=for_players)])


def sheet_lines(sheet: Sheet) -> list[str]:
    """The grid as text lines: `Mom │ …`, one line per moment."""
    lines = ["  Mom │ " + " ".join(fit(col.label or literal(col.name), col.width)
                                  for col in sheet.columns)]
    for index, moment in enumerate(sheet.moments):
        mark = "▸" if moment == sheet.current else " "
        cells = " ".join(fit(col.cells[index].text, col.width) for col in sheet.columns)
        lines.append(f"{mark}{moment:>4} │ {cells}".rstrip())
    return lines


def column_label(c: Combatant, secret: bool = False, *, hidden: bool = False) -> str:
    """The column header: the name, a group's members left (×5) and the total
    modifier to its next roll when it is not 0 (neither for a private PNJ); on the
    DJ's sheet a hidden combatant's name after `HIDDEN_MARK` ("◌Sombra")."""
    label = (HIDDEN_MARK if hidden else "") + literal(c.name)
    if c.is_group and not secret:
        label += f" ×{c.members}"
    if c.modifier and not secret:
        label += f" {signed(c.modifier)}"
    return label


def track_text(track: Track, categories: tuple[str, ...]) -> str:
    """"Herido (4/11)": the worst category marked and the boxes marked, or "—"."""
    category = track.category
    if category is None or track.count == 0:
        return "—"
    return f"{categories[category]} ({track.count}/{track.size})"


def turns_left(until: int | None, fight: Fight) -> int | None:
    """Turns left of a duration that ends at the end of turn `until`, the current
    turn counted (RULES.md §5 "Durations": 1 means "ends at the end of this turn"),
    or None for no duration.  Before `empezar` the turn to come is the current one
    (the engine counts `turnos=N` from turn 1 then)."""
    return None if until is None else until - max(fight.turn, 1) + 1


def turns_text(left: int) -> str:
    """"1 turno", "3 turnos"."""
    return f"{left} turno" if left == 1 else f"{left} turnos"


#: How a text and what is left of its duration are joined: the panel's, the board's.
WITH_LEFT = "{} · {}"
WITH_LEFT_IN_BRACKETS = "{} ({})"


def conditions_text(c: Combatant, fight: Fight, *, form: str = WITH_LEFT) -> str:
    """"agarrado, aturdido · 2 turnos": the conditions, with what is left of those that
    end by themselves (`form` joins the two); "" when none."""
    parts = []
    for condition in c.conditions:
        left = turns_left(c.expiry(condition), fight)
        parts.append(condition if left is None else form.format(condition, turns_text(left)))
    return literal(", ".join(parts))


def note_text(note: Note, fight: Fight, *, form: str = WITH_LEFT) -> str:
    """"cojea · 2 turnos": a note and what is left of it, if it ends by itself."""
    left = turns_left(note.until, fight)
    return literal(note.text if left is None else form.format(note.text, turns_text(left)))


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")
