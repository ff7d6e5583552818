"""The sheet as plain data: a pure function of the fight (no Textual).

`build_sheet` turns a `Fight` into rows × columns of `Cell`s with a role each
(name, spent line, tick, marker…); the TUI's Line-API widget paints those cells
with styles, the CLI prints them as text (`board.board_text`), and the player
view (`cdbtui.players`) paints the players' fight with the same functions,
`for_players=True`.  Every text meant to be shown has been through
`printable.literal`; only `Column.name` keeps the name exactly as saved.

Given the room for the columns (`build_sheet(width=…)`), the columns fit it
(`fit_widths`: as wide as their names ask when there is room, else capped alike,
never below what their numbers need), the headers abbreviated apart
(`abbreviate`: "Orco…23" / "Orco…28") with the AC and the modifier kept whole.
Those without a start moment are listed apart (`Sheet.waiting_for_start`, the
"sin momento" strip); `selection_order` is the order ←/→ walk them all.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache

from attrs import field, frozen

from ..engine.catalog import RULES_ES
from ..engine.model import (
    FATIGUE_CATEGORIES,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
    Note,
    Status,
    Track,
    roster_fact,
)
from ..engine.rules import queue
from ..printable import literal

#: Column widths when no width is given (the CLI board): from the name, within these.
MIN_WIDTH = 8
MAX_WIDTH = 14
#: The narrowest a column gets when the sheet is fitted to a width.
NARROW = 4

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
    ("Herido", "bajo el nombre: su peor categoría de heridas o fatiga"),
    ("sin momento", "quienes aún no tienen momento inicial («i» lo pone)"),
)

#: The same marks in a few words each, for the legend beside the sheet (a line of
#: the side column each; the help screen gives `LEGEND`'s whole sentences).
LEGEND_SHORT = (
    ("│", "AC ya gastadas"),
    ("├ n", "fin de maniobra, n AC"),
    ("● n", "marcador, le quedan n"),
    ("▶", "actúa ahora"),
    ("┊", "maniobra pendiente"),
    ("‖ n", "retrasa su acción"),
    ("… n", "a la espera"),
    ("╎", "momentos sin gastar"),
    ("▸", "el momento actual"),
    ("◌", "oculto a jugadores"),
    ("Her.", "peor herida o fatiga"),
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
    #: The worst wound or fatigue category marked ("Herido"), or "" (the header's
    #: second line; `category_text` fits it to the column).
    category: str = ""


@frozen
class Sheet:
    """The whole grid: the moments down the left and a column per combatant."""

    moments: tuple[int, ...]
    current: int | None
    columns: tuple[Column, ...]
    #: Those without a start moment, literal (the "sin momento" strip), roster order.
    waiting_for_start: tuple[str, ...]
    #: The same combatants' names as saved (they identify them; not for display).
    unplaced: tuple[str, ...] = ()
    #: How wide the columns would be together with room to spare (gaps left out):
    #: a widget with wide gaps narrows them first (the player view).
    natural: int = 0

    @property
    def has_categories(self) -> bool:
        """Whether any column shows a wound or fatigue category (a second header line)."""
        return any(column.category for column in self.columns)


def on_sheet(fight: Fight, for_players: bool) -> tuple[Combatant, ...]:
    """Combatants on the sheet: hidden PNJ are left out of the player view."""
    return tuple(c for c in fight.combatants if not (for_players and c.hidden))


def column_order(fight: Fight, combatants: tuple[Combatant, ...]) -> list[Combatant]:
    """Columns in start order (highest first), ties by Agilidad, Atención, roster."""
    return _in_start_order(combatants, fight.combatants)


def _in_start_order(combatants: tuple[Combatant, ...], roster: tuple[Combatant, ...]) -> list[Combatant]:
    place = {c.key: i for i, c in enumerate(roster)}
    return sorted((c for c in combatants if c.start is not None),
                  key=lambda c: (-c.start, -c.agi, -c.ate, -c.skill, place[c.key]))


def selection_order(fight: Fight) -> tuple[str, ...]:
    """The names of the combatants in the order the DJ walks them with ←/→: the
    sheet's columns left to right, then those without a start moment (the "sin
    momento" strip) in roster order."""
    # A pure function of the roster, asked on every ←/→: computed once per roster.
    return roster_fact(fight.combatants, "view.selection_order", _selection_order)


def _selection_order(combatants: tuple[Combatant, ...]) -> tuple[str, ...]:
    placed = _in_start_order(combatants, combatants)
    return (*(c.name for c in placed), *(c.name for c in combatants if c.start is None))


@lru_cache(maxsize=4096)
def _cells(c: Combatant, moments: tuple[int, ...], head: bool, secret: bool,
           with_ac: str | None = None, alone: str | None = None) -> tuple[Cell, ...]:
    """A combatant's column, row by row.  Cached by value: a command changes few
    combatants, so most columns come back as the very same tuple (the sheet widget
    then skips them by identity).  The start row writes the name as `with_ac` when
    the AC follow it ("" for no room: only the marker) and as `alone` when not
    (both: the literal name when None)."""
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
            if suffix:
                shown = literal(c.name) if with_ac is None else with_ac
                text = prefix + shown + suffix if shown else prefix + f"{glyph} {ac}"
            else:
                text = prefix + (literal(c.name) if alone is None else alone)
            cells.append(Cell(text, role))
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


def _ac_text(c: Combatant, secret: bool) -> str:
    return "?" if secret else str(c.ac)


def _start_suffix(c: Combatant, secret: bool) -> int:
    """How long the AC after the name at the start row are now (" 5", " ‖5"; 0: none)."""
    marker = c.marker if c.marker is not None else c.start
    if marker != c.start or c.status not in (Status.READY, Status.HOLDING, Status.WAITING):
        return 0
    return len(_ac_text(c, secret)) + (1 if c.status is Status.READY else 2)


def _floor(c: Combatant, secret: bool, head_room: int) -> int:
    """The narrowest `c`'s column may be without cutting a number: its marker
    ("▶‖ 12┊3"), its ticks ("├ 4"), the header's marks and numbers plus three
    characters of the name ("…28")."""
    ac = len(_ac_text(c, secret))
    carried = 0
    if c.carried is not None:
        carried = 1 + (1 if secret else len(str(c.carried.remaining)))
    ticks = max((3 + (1 if secret else len(str(stop.ac))) for stop in c.stops), default=0)
    return max(NARROW, 3 + ac + carried, ticks, head_room + 3 if head_room else 0)


@lru_cache(maxsize=4096)
def _spec(c: Combatant, secret: bool, marked: bool, fitted: bool) -> tuple:
    """What fitting `c`'s column needs, cached by value (a command changes few
    combatants): (literal name, header tail, hidden mark, floor, natural width,
    AC suffix at the start row, secret, category)."""
    name = literal(c.name)
    tail = _label_tail(c, secret)
    mark = HIDDEN_MARK if marked else ""
    floor = _floor(c, secret, len(mark) + len(tail.replace(" ", "")))
    if fitted:
        room_ac = 3 + len(_ac_text(c, secret))  # "▶" + " ‖5"
        natural = max(len(mark) + len(name) + len(tail), room_ac + len(name))
    else:
        natural = max(MIN_WIDTH, min(MAX_WIDTH, len(name) + 4 + marked))
    return (name, tail, mark, floor, natural, _start_suffix(c, secret), secret,
            "" if secret else worst_category(c))


def build_sheet(fight: Fight, *, for_players: bool = False, width: int | None = None,
                gap: int = 1) -> Sheet:
    """The grid for `fight`: rows from the highest start down to the lowest marker.

    `width` is the room for the columns (gaps of `gap` between them): the columns
    then shrink to fit it (`fit_widths`), their names abbreviated apart
    (`abbreviate`), never their numbers.  Without it each column is as wide as its
    name asks, within `MIN_WIDTH`..`MAX_WIDTH` (the CLI board)."""
    combatants = on_sheet(fight, for_players)
    ordered = column_order(fight, combatants)
    unplaced = tuple(c for c in combatants if c.start is None)
    # The DJ's strip marks who is hidden, as the column headers do (◌).
    waiting = tuple((HIDDEN_MARK if c.hidden and not for_players else "") + literal(c.name)
                    for c in unplaced)
    names = tuple(c.name for c in unplaced)
    if not ordered:
        return Sheet((), fight.moment, (), waiting, names)
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
    in_queue = {id(c) for c in line}
    head = line[0] if line else None
    specs = [_spec(c, for_players and c.private and not c.is_pc, c.hidden and not for_players,
                   width is not None) for c in ordered]
    shown = tuple(spec[0] for spec in specs)
    tails = [spec[1] for spec in specs]
    marks = [spec[2] for spec in specs]
    floors = tuple(spec[3] for spec in specs)
    naturals = tuple(spec[4] for spec in specs)
    widths = fit_widths(naturals, floors, width, gap)
    # The header's name: with the marks and numbers at full length when that leaves
    # three letters or the whole name, else with the numbers written tight ("−1×5").
    for index, w in enumerate(widths):
        tail = tails[index]
        if tail and w - len(marks[index]) - len(tail) < min(3, len(shown[index])):
            tails[index] = tail.replace(" ", "")
    heads = abbreviate(shown, tuple(w - len(m) - len(t) for w, m, t in zip(widths, marks, tails)))
    columns = []
    for index, c in enumerate(ordered):
        name, _, mark, _, _, suffix, secret, category = specs[index]
        w = widths[index]
        acting = c is head
        # The start row: the header tells the columns apart, so the most readable cut.
        cells = _cells(c, moments, acting, secret, short(name, w - acting - suffix), short(name, w))
        columns.append(Column(
            name=c.name,
            width=w,
            pc=c.is_pc,
            heads_queue=acting,
            in_queue=id(c) in in_queue,
            status=c.status,
            cells=cells,
            label=mark + heads[index] + tails[index],
            hidden=bool(mark),
            category=category,
        ))
    natural = sum(max(n, f) for n, f in zip(naturals, floors))
    return Sheet(moments, fight.moment, tuple(columns), waiting, names, natural)


# ---------------------------------------------------------------- fitting the columns


def _candidates(name: str, width: int):
    """Ways to write `name` in `width` characters, the most readable first: the
    name; a name ending in a number or a short word keeps it ("Orco…23"); the
    plain cut ("Brunil…"); then more and more of the end, windows of the middle,
    and last a counter ("Or…7") for names that differ nowhere else."""
    if len(name) <= width:
        yield name
        return
    if width <= 0:
        return
    if width == 1:
        yield name[0]
        yield "…"
        return
    words = name.split()
    last = words[-1] if len(words) > 1 else ""
    if last and (any(ch.isdigit() for ch in last) or len(last) <= 2) and len(last) < width:
        head = name[: width - 1 - len(last)]
        if " " in head.strip() and len(head.rsplit(" ", 1)[1]) <= 2:
            head = head.rsplit(" ", 1)[0]  # "Orco…23", not "Orco n…23"
        yield head.rstrip() + "…" + last
    yield name[: width - 1].rstrip() + "…"
    for tail in range(1, width - 1):
        yield name[: width - 1 - tail].rstrip() + "…" + name[-tail:].lstrip()
    for start in range(len(name) - width + 1, 0, -1):
        yield "…" + name[start:start + width - 1]
    for count in range(1, 10 ** max(0, width - 1)):
        tag = str(count)
        if len(tag) >= width:
            return
        yield name[: width - 1 - len(tag)] + "…" + tag


@lru_cache(maxsize=512)
def _abbreviations(names: tuple[str, ...], widths: tuple[int, ...]) -> tuple[str, ...]:
    shown: list[str | None] = [None] * len(names)
    used: set[str] = set()
    for index, (name, width) in enumerate(zip(names, widths)):
        if len(name) <= width:
            shown[index] = name
            used.add(name)
    first: dict[str, int] = {}
    for index, (name, width) in enumerate(zip(names, widths)):
        if shown[index] is None:
            preferred = next(_candidates(name, width), "")
            first[preferred] = first.get(preferred, 0) + 1
    for index, (name, width) in enumerate(zip(names, widths)):
        if shown[index] is not None:
            continue
        choice = None
        for candidate in _candidates(name, width):
            # A preferred form two names share says nothing: look further for both.
            if candidate not in used and first.get(candidate, 0) < 2:
                choice = candidate
                break
        if choice is None:
            choice = fit(name, width) if width > 0 else ""
        shown[index] = choice
        used.add(choice)
    return tuple(s or "" for s in shown)


@lru_cache(maxsize=8192)
def short(name: str, width: int) -> str:
    """`name` in at most `width` characters, the most readable way ("Orco…23",
    "Brunil…"; "" for no room), without looking at other names."""
    return next(_candidates(name, width), "")


def abbreviate(names: Sequence[str], widths: Sequence[int] | int) -> tuple[str, ...]:
    """Each name written in at most its width (one for all, or one each), keeping
    the part that tells it from the others: "Orco número 23" and "Orco número 28"
    in 7 are "Orco…23" and "Orco…28".  Distinct names give distinct abbreviations
    whenever every width is at least 3 (and there are fewer than 100 names)."""
    if isinstance(widths, int):
        widths = (widths,) * len(names)
    return _abbreviations(tuple(names), tuple(widths))


@lru_cache(maxsize=256)
def fit_widths(naturals: tuple[int, ...], floors: tuple[int, ...], width: int | None,
               gap: int = 1) -> tuple[int, ...]:
    """Column widths for an area `width` wide (None: each its natural width).

    Every column gets its natural width if they all fit; else they are capped to
    the widest common cap that fits (short names keep their width, long ones give
    way), never below its floor (the room its numbers need): then the sheet
    scrolls sideways."""
    floors = tuple(max(f, 1) for f in floors)
    naturals = tuple(max(n, f) for n, f in zip(naturals, floors))
    if width is None or not naturals:
        return naturals
    room = width - gap * (len(naturals) - 1)

    def total(cap: int) -> int:
        return sum(max(f, min(n, cap)) for n, f in zip(naturals, floors))

    if total(max(naturals)) <= room:
        return naturals
    low, high = 0, max(naturals)  # total(low) may not fit; total(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        if total(middle) <= room:
            low = middle
        else:
            high = middle
    widths = [max(f, min(n, low)) for n, f in zip(naturals, floors)]
    spare = room - sum(widths)
    for index, natural in enumerate(naturals):  # what is left: a letter more each
        if spare <= 0:
            break
        if widths[index] < natural:
            widths[index] += 1
            spare -= 1
    return tuple(widths)


#: Shorter ways to write each category, for narrow columns (the longest that fits is used).
CATEGORY_FORMS = {
    "Rasguño": ("Rasguño", "Rasg."),
    "Herido": ("Herido", "Her."),
    "Gravemente Herido": ("Gravemente Herido", "Grav. herido", "G.herido", "G.Her."),
    "Incapacitado": ("Incapacitado", "Incapac.", "Incap."),
    "Moribundo": ("Moribundo", "Morib.", "Mor."),
    "Fatigado": ("Fatigado", "Fatig.", "Fat."),
    "Aturdido": ("Aturdido", "Aturd.", "Atu."),
    "Gravemente Aturdido": ("Gravemente Aturdido", "Grav. aturdido", "G.aturd.", "G.At."),
    "Exhausto": ("Exhausto", "Exhau.", "Exh."),
}


def category_text(category: str, width: int) -> str:
    """A category in `width` characters: its longest form that fits, else cut."""
    for form in CATEGORY_FORMS.get(category, (category,)):
        if len(form) <= width:
            return form
    return fit(category, width)


def worst_category(c: Combatant) -> str:
    """The worse of the wound and the fatigue category marked ("Herido"), or ""
    (a tie: the wound)."""
    wound, fatigue = c.wounds.category, c.fatigue.category
    if wound is None and fatigue is None:
        return ""
    if fatigue is None or (wound is not None and wound >= fatigue):
        return WOUND_CATEGORIES[wound]
    return FATIGUE_CATEGORIES[fatigue]


def fit(text: str, width: int) -> str:
    """`text` cut with an ellipsis or padded to exactly `width` cells of a terminal
    (an emoji or a CJK character takes two: counting characters would push every
    column after it out of line)."""
    if text.isascii():
        if len(text) > width:
            return text[: width - 1] + "…"
        return text.ljust(width)
    if cells(text) > width:
        return _cut(text, width - 1) + "…"
    return _cut(text, width)


def _cell_width(char: str) -> int:
    """Terminal cells of one character: 2 for wide ones (East Asian wide or full
    width, most emoji), 0 for combining marks, 1 for the rest."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def cells(text: str) -> int:
    """How many terminal cells `text` takes."""
    return len(text) if text.isascii() else sum(map(_cell_width, text))


def _cut(text: str, width: int) -> str:
    """`text` cut or padded with spaces to exactly `width` cells (a wide character
    that would straddle the end becomes a space)."""
    out, used = [], 0
    for char in text:
        size = _cell_width(char)
        if used + size > width:
            break
        out.append(char)
        used += size
    return "".join(out) + " " * (width - used)


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
    if sheet.has_categories:
        lines.append(("      │ " + " ".join(fit(category_text(col.category, col.width), col.width)
                                          for col in sheet.columns)).rstrip())
    for index, moment in enumerate(sheet.moments):
        mark = "▸" if moment == sheet.current else " "
        cells = " ".join(fit(col.cells[index].text, col.width) for col in sheet.columns)
        lines.append(f"{mark}{moment:>4} │ {cells}".rstrip())
    return lines


def _label_tail(c: Combatant, secret: bool) -> str:
    """" ×5 −1": what follows the name in the header (nothing for a private PNJ)."""
    tail = ""
    if c.is_group and not secret:
        tail += f" ×{c.members}"
    if c.modifier and not secret:
        tail += f" {signed(c.modifier)}"
    return tail


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
