"""What the rulesets' lists are made of: C-System's (`view.cslist`) and the storyteller's (`view.narrlist`).

Both sheets are an ordered list of painted lines, one row per combatant in the
order of initiative: the same `Line`, `Kind` and `RowList`, painted by the same
widget (`tui.widgets.rowlist`).  A `Span` is a run of literal text with a role
from its ruleset's own `Role` (each ruleset subclasses `Span` to make its
`Role.TEXT` the default).  Also here: the helpers both lists fit and order by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import cached_property, lru_cache

import attrs
from attrs import field, frozen

from ..engine.model import Combatant, Fight
from ..printable import literal
from .sheet import cells, fit


@frozen
class Span:
    """A run of text (made literal) and what it says: the widget colours by `role`."""

    text: str = field(converter=literal)
    role: StrEnum


class Kind(StrEnum):
    """What a line of a list is."""

    TITLES = "titles"
    ROW = "row"
    BLANK = "blank"
    #: C-System: a prompt waiting for the table's roll.
    PROMPT = "prompt"
    #: C-System: the "Estados:" lines.
    CONDITIONS = "conditions"
    #: The storyteller: the attack being resolved.
    ATTACK = "attack"
    EMPTY = "empty"


@frozen
class Line:
    """One painted line: its spans, what it is, and for a combatant's row its name
    (as saved: it identifies the row) and the flags of its whole-row style."""

    spans: tuple[Span, ...]
    kind: Kind = Kind.ROW
    name: str | None = None
    pc: bool = False
    actor: bool = False
    acted: bool = False
    out: bool = False
    selected: bool = False

    @property
    def text(self) -> str:
        return "".join(span.text for span in self.spans)

    @cached_property
    def length(self) -> int:
        """Its characters (the widget's virtual width), counted once."""
        return sum(len(span.text) for span in self.spans)


@frozen
class RowList:
    """The whole list: its lines, and the names of the rows in order."""

    lines: tuple[Line, ...]
    names: tuple[str, ...] = ()
    #: The columns shown (keys of the ruleset's `COLUMNS`), after fitting.
    columns: tuple[str, ...] = ()


#: The last `ordered` answer for each view (players or not): the list, its header
#: and its keys ask for the same state's order several times per key pressed.
_ORDERED: dict[bool, tuple[Fight, tuple[str, ...], list[Combatant]]] = {}


def ordered(fight: Fight, order: tuple[str, ...], *, for_players: bool = False) -> list[Combatant]:
    """The combatants in `order`, then those without a place (roster order); the
    players' list leaves hidden PNJ out."""
    known = _ORDERED.get(for_players)
    if known is not None and known[0] is fight and known[1] is order:
        return list(known[2])
    made = _ordered(fight, order, for_players)
    _ORDERED[for_players] = (fight, order, made)
    return list(made)


def _ordered(fight: Fight, order: tuple[str, ...], for_players: bool) -> list[Combatant]:
    found = [fight.find(name) for name in order]
    placed = [c for c in found if c is not None]
    keys = {c.key for c in placed}
    rest = [c for c in fight.combatants if c.key not in keys]
    return [c for c in placed + rest if not (for_players and c.hidden)]


def secret(c: Combatant, for_players: bool) -> bool:
    """Whether the players' list hides `c`'s numbers (a private PNJ)."""
    return for_players and c.private and not c.is_pc


@lru_cache(maxsize=8192)
def text_cells(text: str) -> int:
    """`cells`, remembered: the lists measure the same few texts over and over."""
    return cells(text)


def width_of(spans: Iterable[Span]) -> int:
    return sum(text_cells(span.text) for span in spans)


#: Widths of the cells of rows already made, by the id of their spans (kept alive
#: with them): a list measures each cell once, not once per lay-out.
_WIDTHS: dict[int, tuple[tuple[Span, ...], int]] = {}


def measured(spans: tuple[Span, ...]) -> int:
    """`width_of(spans)`, remembered for a cell of a remembered row (immutable)."""
    known = _WIDTHS.get(id(spans))
    if known is not None and known[0] is spans:
        return known[1]
    if len(_WIDTHS) > 32768:
        _WIDTHS.clear()
    size = width_of(spans)
    _WIDTHS[id(spans)] = (spans, size)
    return size


#: Lines already fitted, by the id of the row's cells, the lay-out (the columns,
#: their widths and forms, the gap) and the row's flags: a key that changes two
#: rows lays out two lines, and the widget repaints only those (the others are the
#: same `Line` objects as before).
_LINES: dict[tuple, tuple[object, Line]] = {}


def row_line(row: object, layout: tuple, flags: tuple, make: Callable[[], Line]) -> Line:
    """`make()`, or the line it made for the same `row` (the same object), lay-out
    and flags."""
    key = (id(row), layout, flags)
    known = _LINES.get(key)
    if known is not None and known[0] is row:
        return known[1]
    if len(_LINES) > 8192:
        _LINES.clear()
    line = make()
    _LINES[key] = (row, line)
    return line


def fit_spans(spans: Iterable[Span], width: int, plain: Callable[[str], Span]) -> tuple[Span, ...]:
    """`spans` cut (with …) or padded (with a `plain` span) to exactly `width` cells."""
    spans = tuple(spans)
    if width_of(spans) <= width:
        pad = width - width_of(spans)
        return spans + ((plain(" " * pad),) if pad else ())
    out: list[Span] = []
    room = width
    for span in spans:
        size = cells(span.text)
        if size < room:
            out.append(span)
            room -= size
            continue
        out.append(type(span)(fit(span.text, room), span.role))
        room = 0
        break
    return tuple(out)


@frozen
class ActionChoice:
    """One entry of a picker (C-System's actions, an attack's targets): what it
    shows and the line it leads to.  `complete`: the line runs as it is; else it
    opens on the `:` line to finish (a target, the roll's total)."""

    label: str = field(converter=literal)
    line: str
    complete: bool = True


#: The last list laid out for each key (the ruleset, players?, width…), with the
#: fight it was made from: a new selection on the same state only moves the
#: highlight (`selected_in`), the list is not laid out again.
_LAID_OUT: dict[tuple, tuple[Fight, RowList]] = {}


def laid_out(key: tuple, fight: Fight, make: Callable[[], RowList]) -> RowList:
    """`make()`, or the list it made last for `key` when `fight` is the same state."""
    known = _LAID_OUT.get(key)
    if known is not None and known[0] is fight:
        return known[1]
    made = make()
    if len(_LAID_OUT) > 32:
        _LAID_OUT.clear()
    _LAID_OUT[key] = (fight, made)
    return made


def selected_in(rows: RowList, selected: str | None) -> RowList:
    """`rows` with `selected`'s row highlighted (and no other)."""
    lines = tuple(attrs.evolve(line, selected=line.name == selected)
                  if line.kind is Kind.ROW and line.selected != (line.name == selected) else line
                  for line in rows.lines)
    return attrs.evolve(rows, lines=lines)
