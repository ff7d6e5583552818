"""The fight written out for the DJ's campaign notes: Markdown or standalone HTML.

A pure function of the `Fight` (no Textual, no rich, no files: the CLI writes what
these functions return).  `build_report` turns the fight into plain data (a roster
of final states and the log grouped by turn); `export_markdown` and `export_html`
only render that data.

With `for_players=True` the report is what players see, as decided in players.py
(the same as `cdbtui view` and `cdbtui serve`): its roster is `players.visible`
(no hidden PNJ), with a private PNJ's AC per turn as "?" and no notes (its start
moment shows: the players' sheet shows its column from that row); its log is
`players.player_log` (no entry about a hidden PNJ, none with a private PNJ's numbers
or notes, and no moments: the players' countdown may never have shown them).  Damage
entries are in bold by their kind (`LogKind.DAMAGE`), never by their wording.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from itertools import groupby

from attrs import frozen

from .engine.catalog import RULES_ES
from .engine.model import (
    FATIGUE_CATEGORIES,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
    LogEntry,
    LogKind,
    Status,
    Track,
)
from .players import (
    SECRET,
    cs_players_fight,
    narr_players_fight,
    player_log,
    players_notes,
    secret,
    visible,
)
from .printable import literal
from .engine.csystem.common import current_fight
from .engine.narrador.now import current_fight as narr_current_fight
from .view import csystem as cs_view
from .view import narrador as narr_view
from .view.sheet import WITH_LEFT_IN_BRACKETS, conditions_text, note_text

#: Heading of the log entries written before turn 1.
SETUP = "Preparación"
#: What an empty cell shows.
NONE = "—"
WARNING_MARK = "⚠"


@frozen
class RosterRow:
    """A combatant's line in the roster: everything already as text."""

    name: str
    side: str
    ac_per_turn: str
    start: str
    wounds: str
    fatigue: str
    #: Its conditions (with what is left of a duration), "fuera de combate", its
    #: notes (`nota`: none of a private PNJ's in the players' version).
    state: str


@frozen
class ReportLine:
    """One log entry as the export shows it."""

    moment: str | None
    text: str
    warning: bool
    damage: bool


@frozen
class TurnGroup:
    """The log entries of one turn ("Preparación" for those before turn 1)."""

    title: str
    entries: tuple[ReportLine, ...]


@frozen
class CsRosterRow:
    """A C-System combatant's line in the roster (SYSTEMS.md §2.1): as text."""

    name: str
    side: str
    place: str
    initiative: str
    level: str
    defense: str
    vitality: str
    #: Conditions, temporary changes, critical wounds, weapons and notes.
    state: str

    @property
    def cells(self) -> tuple[str, ...]:
        return (self.name, self.side, self.place, self.initiative, self.level,
                self.defense, self.vitality, self.state)


@frozen
class NarrRosterRow:
    """A storyteller combatant's line in the roster (SYSTEMS.md §3.1): as text."""

    name: str
    side: str
    initiative: str
    declared: str
    willpower: str
    health: str
    #: Its level of health, place in the turn, conditions, weapons and notes.
    state: str

    @property
    def cells(self) -> tuple[str, ...]:
        return (self.name, self.side, self.initiative, self.declared, self.willpower, self.health, self.state)


@frozen
class Report:
    """Everything an export shows, as plain text pieces."""

    title: str
    rules: str
    details: tuple[str, ...]
    roster: tuple[RosterRow | CsRosterRow | NarrRosterRow, ...]
    turns: tuple[TurnGroup, ...]
    #: The roster's headings and the columns aligned right (numbers): the system's.
    headings: tuple[str, ...] = ()
    numeric: frozenset[int] = frozenset()


# ---------------------------------------------------------------- the data


def side_label(side: str) -> str:
    """"PJ", "PNJ", or a faction's name as the DJ typed it."""
    return side.upper() if side in ("pj", "pnj") else side


def category_label(track: Track, names: tuple[str, ...]) -> str:
    """The worst marked category of a track in Spanish, or "—" when clean."""
    index = track.category
    if index is None or track.count == 0:  # boxes cleared by a rest are empty again
        return NONE
    return names[min(index, len(names) - 1)]


def is_damage(entry: LogEntry) -> bool:
    """Whether a log entry is a damage roll (boxes marked, stopped by RD, members of
    a Horda put out): by its kind, so a text typed to look like one is not."""
    return entry.kind is LogKind.DAMAGE


def _row(c: Combatant, fight: Fight, for_players: bool) -> RosterRow:
    hide = for_players and secret(c)
    state = [conditions_text(c, fight, form=WITH_LEFT_IN_BRACKETS)] if c.conditions else []
    if c.status is Status.OUT:
        state.append("fuera de combate")
    notes = players_notes(c, fight) if for_players else c.notes
    state += [f"nota: {note_text(n, fight, form=WITH_LEFT_IN_BRACKETS)}" for n in notes]
    return RosterRow(
        name=c.name,
        side=side_label(c.side),
        ac_per_turn=SECRET if hide else str(c.ac_per_turn),
        start=NONE if c.start is None else str(c.start),
        wounds=category_label(c.wounds, WOUND_CATEGORIES),
        fatigue=category_label(c.fatigue, FATIGUE_CATEGORIES),
        state=", ".join(state) if state else NONE,
    )


def _entry(entry: LogEntry) -> ReportLine:
    return ReportLine(
        moment=None if entry.moment is None else f"M{entry.moment}",
        text=entry.text,
        warning=entry.warning,
        damage=is_damage(entry),
    )


def build_report(fight: Fight, *, for_players: bool = False) -> Report:
    """The export's content: roster with final states, and the log turn by turn."""
    if fight.rules == "csystem":
        return _cs_report(fight, for_players)
    if fight.rules == "narrador":
        return _narr_report(fight, for_players)
    combatants = visible(fight) if for_players else fight.combatants
    roster = tuple(_row(c, fight, for_players) for c in combatants)
    log = player_log(fight) if for_players else fight.log

    details = [f"Reglas: {RULES_ES.get(fight.rules, fight.rules)}"]
    if fight.quick:
        details.append("Iniciativa Rápida")
    details.append(f"Turnos: {fight.turn}" if fight.started else "Sin empezar")
    if for_players:
        details.append("Versión para los jugadores")
    return Report(
        title=fight.name,
        rules=RULES_ES.get(fight.rules, fight.rules),
        details=tuple(details),
        roster=roster,
        turns=_turns(log),
        headings=ROSTER_HEADINGS,
        numeric=_NUMERIC,
    )


def _turns(log) -> tuple[TurnGroup, ...]:
    """The log entries grouped by turn ("Preparación" before turn 1)."""
    return tuple(TurnGroup(SETUP if turn < 1 else f"Turno {turn}", tuple(map(_entry, entries)))
                 for turn, entries in groupby(log, key=lambda e: e.turn))


def _cs_row(c: Combatant, fight: Fight, for_players: bool) -> CsRosterRow:
    """A C-System combatant's final state; `fight` is the players' one when
    `for_players` (a private PNJ's numbers then as "?")."""
    sheet = cs_view.sheet_of(c)
    hide = for_players and cs_view.is_secret(c)
    place = cs_view.place_of(fight, c.name)
    states = cs_view.states_text(c, secret=hide)
    state = [states] if states else []
    if sheet.weapons:
        state.append("armas: " + ", ".join(cs_view.weapon_text(w, secret=hide) for w in sheet.weapons))
    if not hide:
        state += [f"pendiente: {cs_view.prompt_text(p)}" for p in sheet.pending]
    state += [f"nota: {note.text}" for note in c.notes]
    if not for_players:
        state += [flag for flag, on in (("oculto", c.hidden), ("privado", c.private)) if on]
    return CsRosterRow(
        name=c.name,
        side=side_label(c.side),
        place=NONE if place is None else str(place),
        initiative=cs_view.initiative_text(sheet, hide),
        level=SECRET if hide else str(sheet.level),
        defense=cs_view.defense_text(sheet, hide),
        vitality=cs_view.vitality_text(sheet, hide),
        state=", ".join(state) if state else NONE,
    )


CS_ROSTER_HEADINGS = ("Nombre", "Bando", "Orden", "INI", "NH", "Def dist·cc", "Vitalidad", "Estado")
_CS_NUMERIC = frozenset({2, 4})


def _cs_report(fight: Fight, for_players: bool) -> Report:
    """The C-System export: the list in initiative order with final states, and the
    log turn by turn; for players, from `players.cs_players_fight` (no hidden PNJ,
    no private PNJ's numbers, only the log entries they may read)."""
    seen = cs_players_fight(fight) if for_players else current_fight(fight)  # as it stands this turn
    roster = tuple(_cs_row(c, seen, for_players) for c in cs_view.in_order(seen))
    details = [f"Reglas: {cs_view.RULES_LABEL}"]
    details.append(f"Turnos: {fight.turn}" if fight.started else "Sin empezar")
    if for_players:
        details.append("Versión para los jugadores")
    return Report(
        title=fight.name,
        rules=cs_view.RULES_LABEL,
        details=tuple(details),
        roster=roster,
        turns=_turns(seen.log),
        headings=CS_ROSTER_HEADINGS,
        numeric=_CS_NUMERIC,
    )


def _narr_row(c: Combatant, fight: Fight, for_players: bool) -> NarrRosterRow:
    """A storyteller combatant's final state; `fight` is the players' one when
    `for_players` (a private PNJ's numbers then as "?", undone declarations gone)."""
    sheet = narr_view.sheet_of(c)
    hide = for_players and narr_view.is_secret(c)
    state = [] if hide else [narr_view.level_name(sheet)]
    states = narr_view.state_text(c, fight, secret=hide)
    if states:
        state.append(states)
    if sheet.weapons:
        state.append("armas: " + ", ".join(narr_view.weapon_text(w, secret=hide) for w in sheet.weapons))
    state += [f"nota: {note.text}" for note in c.notes]
    if not for_players:
        state += [flag for flag, on in (("oculto", c.hidden), ("privado", c.private)) if on]
    return NarrRosterRow(
        name=c.name,
        side=side_label(c.side),
        initiative=narr_view.initiative_text(sheet, secret=hide, placed=c.name in narr_view.order_of(fight)),
        declared=narr_view.declared_text(c, fight, secret=hide, for_players=for_players) or NONE,
        willpower=narr_view.willpower_text(sheet, secret=hide),
        health=narr_view.health_text(sheet, secret=hide),
        state=", ".join(state) if state else NONE,
    )


NARR_ROSTER_HEADINGS = ("Nombre", "Bando", "Ini", "Declarado", "FV", "Salud", "Estado")
_NARR_NUMERIC = frozenset({2})


def _narr_report(fight: Fight, for_players: bool) -> Report:
    """The storyteller export: the list in this turn's order with final states, and
    the log turn by turn; for players, from `players.narr_players_fight` (no hidden
    PNJ, no private PNJ's numbers, no undone declaration, only the log entries they
    may read)."""
    seen = narr_players_fight(fight) if for_players else narr_current_fight(fight)  # as it stands this turn
    roster = tuple(_narr_row(c, seen, for_players) for c in narr_view.in_order(seen))
    phase = narr_view.PHASE_ES.get(narr_view.part_of(fight).phase, "")
    details = [f"Reglas: {narr_view.RULES_LABEL}", f"Turnos: {fight.turn}", f"Fase: {phase}"]
    if for_players:
        details.append("Versión para los jugadores")
    return Report(
        title=fight.name,
        rules=narr_view.RULES_LABEL,
        details=tuple(details),
        roster=roster,
        turns=_turns(seen.log),
        headings=NARR_ROSTER_HEADINGS,
        numeric=_NARR_NUMERIC,
    )


ROSTER_HEADINGS = (
    "Nombre", "Bando", "AC por turno", "Momento inicial", "Heridas", "Fatiga", "Estado",
)
#: Columns aligned right (numbers).
_NUMERIC = {2, 3}


def _cells(row: RosterRow | CsRosterRow | NarrRosterRow) -> tuple[str, ...]:
    if isinstance(row, (CsRosterRow, NarrRosterRow)):
        return row.cells
    return (row.name, row.side, row.ac_per_turn, row.start, row.wounds, row.fatigue, row.state)


# ---------------------------------------------------------------- Markdown

#: Characters that always mean something to Markdown inside a line.
_MD_ALWAYS = re.compile(r"([\\`*_\[\]|~])")
#: "<" opening a tag or an autolink, "&" opening an entity: the others stay literal.
_MD_HTML = re.compile(r"([<&])(?=[A-Za-z/!?#])")


def escape_md(text: str) -> str:
    """`text` as literal Markdown on one line: no emphasis, links, tags or cell breaks.

    Only what would change meaning is escaped, so that the engine's log lines
    ("daño 1 − RD 3 < 0, sin efecto") come out exactly as written.  Control and
    bidi characters (a newline too) first become visible escapes (`literal`), whose
    backslash is then escaped like any other: the page shows `\\x1b`, the terminal
    that prints the file gets no escape sequence.
    """
    return _MD_HTML.sub(r"\\\1", _MD_ALWAYS.sub(r"\\\1", literal(text)))


def _md_entry(entry: ReportLine) -> str:
    text = escape_md(entry.text)
    if entry.damage:
        text = f"**{text}**"
    if entry.warning:
        text = f"{WARNING_MARK} {text}"
    return f"- `{entry.moment}` {text}" if entry.moment else f"- {text}"


def export_markdown(fight: Fight, *, for_players: bool = False) -> str:
    """The fight as Markdown: title, roster table, then the log under a heading per turn."""
    report = build_report(fight, for_players=for_players)
    lines = [f"# {escape_md(report.title)} · {escape_md(report.rules)}", ""]
    lines += [" · ".join(escape_md(d) for d in report.details), ""]
    lines += ["## Combatientes", ""]
    if report.roster:
        lines.append("| " + " | ".join(report.headings) + " |")
        lines.append("|" + "|".join("---:" if i in report.numeric else "---" for i in range(len(report.headings))) + "|")
        for row in report.roster:
            lines.append("| " + " | ".join(escape_md(cell) for cell in _cells(row)) + " |")
    else:
        lines.append("Sin combatientes.")
    lines += ["", "## Registro", ""]
    for group in report.turns:
        lines += [f"### {group.title}", ""]
        lines += [_md_entry(entry) for entry in group.entries]
        lines.append("")
    if not report.turns:
        lines += ["Sin entradas.", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- HTML

_CSS = """\
body { font-family: Georgia, "Times New Roman", serif; color: #222; background: #fff;
       max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { margin-bottom: .2rem; }
.details { color: #555; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
th, td { border: 1px solid #999; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; }
ol.log { list-style: none; padding-left: 0; margin: .3rem 0 1rem; }
ol.log li { padding: .1rem 0; }
.moment { display: inline-block; min-width: 3.2em; font-family: monospace; color: #555; }
li.damage strong { color: #8b0000; }
li.warning { background: #fff3cd; }
.warn { font-weight: bold; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr, li { break-inside: avoid; page-break-inside: avoid; }
  th { background: none; }
  li.warning { background: none; }
  li.damage strong { color: #000; }
}"""


def _h(text: str) -> str:
    """`text` as HTML text: markup escaped, control and bidi characters as visible
    escapes (`literal`), so neither the page nor a terminal showing it acts on them."""
    return html.escape(literal(text), quote=True)


def _html_entry(entry: ReportLine) -> str:
    classes = [c for c, on in (("damage", entry.damage), ("warning", entry.warning)) if on]
    attr = f' class="{" ".join(classes)}"' if classes else ""
    moment = f'<span class="moment">{_h(entry.moment or "")}</span> '
    warn = f'<span class="warn" title="aviso">{WARNING_MARK}</span> ' if entry.warning else ""
    text = _h(entry.text)
    if entry.damage:
        text = f"<strong>{text}</strong>"
    return f"<li{attr}>{moment}{warn}{text}</li>"


def export_html(fight: Fight, *, for_players: bool = False) -> str:
    """The fight as a standalone HTML5 page (UTF-8, inline CSS, fit to print)."""
    report = build_report(fight, for_players=for_players)
    title = f"{report.title} · {report.rules}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="es">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_h(title)}</title>",
        f"<style>\n{_CSS}\n</style>",
        "</head>",
        "<body>",
        "<main>",
        "<header>",
        f"<h1>{_h(title)}</h1>",
        f'<p class="details">{_h(" · ".join(report.details))}</p>',
        "</header>",
        '<section class="roster">',
        "<h2>Combatientes</h2>",
    ]
    if report.roster:
        out.append("<table>")
        out.append("<thead><tr>" + "".join(f"<th>{_h(h)}</th>" for h in report.headings) + "</tr></thead>")
        out.append("<tbody>")
        for row in report.roster:
            cells = "".join(
                f'<td class="num">{_h(cell)}</td>' if i in report.numeric else f"<td>{_h(cell)}</td>"
                for i, cell in enumerate(_cells(row))
            )
            out.append(f"<tr>{cells}</tr>")
        out.append("</tbody>")
        out.append("</table>")
    else:
        out.append("<p>Sin combatientes.</p>")
    out.append("</section>")
    out.append('<section class="log">')
    out.append("<h2>Registro</h2>")
    for group in report.turns:
        out.append('<section class="turn">')
        out.append(f"<h3>{_h(group.title)}</h3>")
        out.append('<ol class="log">')
        out += [_html_entry(entry) for entry in group.entries]
        out.append("</ol>")
        out.append("</section>")
    if not report.turns:
        out.append("<p>Sin entradas.</p>")
    out += ["</section>", "</main>", "</body>", "</html>", ""]
    return "\n".join(out)


#: The export formats by file extension, for the CLI.
FORMATS: dict[str, Callable[..., str]] = {"md": export_markdown, "html": export_html}
