"""What the sheet shows, as plain data: a pure function of the fight (no Textual).

`build_sheet` turns a `Fight` into rows × columns of `Cell`s with a role each
(name, spent line, tick, marker…); the TUI paints those cells with styles and the
CLI prints them as text (`board_text`).  `state_json` is the JSON contract of
COMMANDS.md.  The players' view (`cdbtui view`, `cdbtui serve`) sees the fight
through `players_fight` (hidden PNJ gone, the countdown's no-gap rule, the log
filtered) and paints it with the same functions, `for_players=True`.

Every text meant to be shown (cells, labels, headers, panel values, log lines,
the players' lines) has been through `printable.literal`: one line, no control
or bidi characters.  Only the fields that identify a combatant (`Column.name`)
keep the name exactly as saved.  `state_json` is data, not display: it keeps the
raw texts.
"""

from __future__ import annotations

import re
from functools import lru_cache

from attrs import evolve, field, frozen

from .engine.catalog import RULES_ES, VARIABLE_ES, catalog_for
from .engine.commands import quote
from .engine.model import (
    FATIGUE_CATEGORIES,
    STATUS_ES,
    WOUND_CATEGORIES,
    Combatant,
    Fight,
    LogEntry,
    Status,
    Track,
)
from .engine.parser import ACTIONS, KEYWORDS
from .engine.rules import order_key, queue
from .engine.text import fold, slug
from .printable import literal

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
)


@frozen
class Cell:
    """One cell of the grid: its text and what it means (the style follows the role)."""

    text: str = field(default="", converter=literal)
    role: str = "empty"


@frozen
class Column:
    """One combatant's column, with the flags that decide its colours."""

    #: The combatant's name as saved (it identifies the column; not for display).
    name: str
    width: int
    pc: bool
    acting: bool
    in_queue: bool
    status: Status
    cells: tuple[Cell, ...]
    #: The header: the name, and the total modifier to its next roll when not 0.
    label: str = field(default="", converter=literal)


@frozen
class Sheet:
    """The whole grid: the moments down the left and a column per combatant."""

    moments: tuple[int, ...]
    current: int | None
    columns: tuple[Column, ...]
    waiting_for_start: tuple[str, ...]


def shown(fight: Fight, for_players: bool) -> tuple[Combatant, ...]:
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
            prefix = "▶" if head and marker == row else ""
            suffix = f" {ac}" if marker == row and c.status in (Status.READY, Status.HOLDING, Status.WAITING) else ""
            if marker == row and c.status in (Status.HOLDING, Status.WAITING):
                suffix = f" {glyph}{ac}"
            cells.append(Cell(prefix + c.name + suffix, "name"))
        elif row == marker and row < c.start:
            extra = ""
            if c.carried is not None and c.status is not Status.READY:
                extra = "┊" + ("?" if secret else str(c.carried.remaining))
            cells.append(Cell(("▶" if head else " ") + f"{glyph} {ac}{extra}", "marker"))
        elif row in carried_rows:
            cells.append(Cell(" ┊", "carried"))
        elif marker < row < c.start:
            if row in ticks:
                cells.append(Cell(" ├ " + ("?" if secret else str(ticks[row])), "tick"))
            elif row in spent:
                cells.append(Cell(" │", "spent"))
            else:
                cells.append(Cell(" ╎", "gap"))
        else:
            cells.append(Cell())
    return tuple(cells)


def build_sheet(fight: Fight, *, for_players: bool = False) -> Sheet:
    """The grid for `fight`: rows from the highest start down to the lowest marker."""
    combatants = shown(fight, for_players)
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
        width = max(MIN_WIDTH, min(MAX_WIDTH, len(literal(c.name)) + 4))
        columns.append(Column(
            name=c.name,
            width=width,
            pc=c.is_pc,
            acting=c.key == head,
            in_queue=c.key in in_queue,
            status=c.status,
            cells=_cells(c, moments, c.key == head, secret),
            label=column_label(c, secret),
        ))
    return Sheet(moments, fight.moment, tuple(columns), waiting)


def fit(text: str, width: int) -> str:
    """`text` cut with an ellipsis or padded to exactly `width` characters."""
    if len(text) > width:
        return text[: width - 1] + "…"
    return text.ljust(width)


def countdown(fight: Fight, *, for_players: bool = False, whole_queue: bool = True,
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
    return " · ".join([*parts, *countdown(fight, for_players=for_players)])


def sheet_lines(sheet: Sheet) -> list[str]:
    """The grid as text lines: `Mom │ …`, one line per moment."""
    lines = ["  Mom │ " + " ".join(fit(col.label or literal(col.name), col.width)
                                  for col in sheet.columns)]
    for index, moment in enumerate(sheet.moments):
        mark = "▸" if moment == sheet.current else " "
        cells = " ".join(fit(col.cells[index].text, col.width) for col in sheet.columns)
        lines.append(f"{mark}{moment:>4} │ {cells}".rstrip())
    return lines


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
        parts.append("estados " + ", ".join(c.conditions))
    if c.wounds.count or c.fatigue.count:
        parts.append(f"heridas {track_text(c.wounds, WOUND_CATEGORIES)}"
                     f" · fatiga {track_text(c.fatigue, FATIGUE_CATEGORIES)}")
    if c.modifier:
        parts.append(f"modificador {_signed(c.modifier)}")
    if c.hidden:
        parts.append("oculto")
    return literal(" · ".join(parts))


def board_text(fight: Fight, *, log_lines: int = 5) -> str:
    """The plain-text board that `cdbtui do` and `cdbtui show` print."""
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


def state_json(fight: Fight) -> dict:
    """The state contract of `cdbtui show --json` (COMMANDS.md)."""
    return {
        "schema": 1,
        "name": fight.name,
        "rules": fight.rules,
        "turn": fight.turn,
        "moment": fight.moment if fight.started else None,
        "turn_over": fight.turn_over,
        "quick": fight.quick,
        "queue": [c.name for c in queue(fight)],
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


# ---------------------------------------------------------------- for the TUI
# Pure helpers the Textual front end paints; they add data, never change the text
# that `board_text`, `header` and `sheet_lines` print.

#: The binding rule decisions of RULES.md, shown in the help screen (GMs will ask).
DECISIONS = (
    ("Empates", "si Agilidad, Atención y Habilidad empatan, manda el orden de la lista; "
                "el DJ puede intercambiarlos con «cambiar A B». El registro dice qué decidió cada empate."),
    ("Maniobra pendiente", "si el coste supera las AC que quedan, se invierte todo y el resto "
                           "se completa el turno siguiente al llegar a su momento inicial."),
    ("Perder la pendiente", "gastar AC en otra cosa (esquivar, p. ej.) antes de completarla "
                            "la abandona y se pierden las AC invertidas."),
    ("Reacciones", "Esquivar, Ponerse a Cubierto, Parada, Bloqueo… se declaran en cualquier "
                   "momento si quedan AC: marcador = mín(marcador, momento) − coste."),
    ("Avanzar", "quien está en el momento y no actuó cuando el DJ avanza la cuenta pasa a retrasar."),
    ("Fin de turno", "cerrar el turno hace declinar a quien retrasa o espera."),
    ("Disparar Arcos", "cuenta como ataque aunque el libro no la liste entre las de ataque."),
    ("Agarrado / Inmovilizado", "AC ×½ / ×¼ redondeando hacia arriba, como la sorpresa; "
                                "se aplica ya a las AC que quedan."),
    ("Iniciativa", "se tira una vez por combate (1d6 + INI); el DJ puede escribir el total."),
    ("Walküre", "las AC no se calculan: siempre se escriben."),
    ("La cuenta avanza sola", "cuando no queda nadie en la cola del momento, salta al marcador más "
                              "alto de quien aún puede actuar (quien retrasa lo sigue; quien espera "
                              "paga 1 AC por momento). Con solo retrasos y esperas, «siguiente» baja de uno en uno."),
    ("Orden de la cola", "se muestra y se registra, no se impone: cualquiera de la cola del momento "
                         "puede actuar (los jugadores no siempre hablan en orden)."),
    ("Pendiente y ataques", "la maniobra pendiente se completa sola al encabezar la cola en su "
                            "momento inicial; un ataque cuenta (y gasta el Apuntar) al completarse."),
    ("Apuntar", "+1 por turno sucesivo apuntando, hasta +3; un turno sin apuntar vuelve a +1. "
                "Mover tras apuntar en el mismo turno se rechaza, como apuntar tras mover (salvo Puntería Zen)."),
    ("Esperar y reaccionar", "reaccionar mientras se espera termina la espera; declinar abandona la pendiente."),
    ("Llegar tarde", "quien se une con su momento inicial ya pasado actúa en el momento actual."),
    ("Iniciativa Rápida", "«rapida si» (antes de empezar o con el turno terminado): sin momentos, cada uno "
                          "actúa una vez por orden de iniciativa y gasta las AC que quiera; «siguiente» "
                          "termina su actuación y guarda el resto para reaccionar. No se retrasa ni se espera."),
    ("Heridas", "casillas por categoría 3, 3, 2, 2, 1 si no se indican (vida=…); la tabla de Vigor no está en el libro base."),
    ("Blancos", "«NOMBRE MANIOBRA a BLANCO»: cada blanco distinto del turno tras el primero da −1 a todo; "
                "«blancos N» cuenta los mismos blancos (manda el mayor, no se suman). El blanco de una reacción no cuenta."),
    ("Bloqueo", "«NOMBRE bloqueo a ATACANTE» es un bloqueo logrado: −2 al próximo ataque del atacante, "
                "aunque sea otro turno. Sin blanco, el bloqueo falló."),
    ("Liderazgo", "«NOMBRE liderazgo gde=N» da 1+N bonos de +1 que se reparten con «bono LÍDER a COMPAÑERO», "
                  "uno por tirada y solo a su bando; los no repartidos se pierden al acabar el turno."),
    ("Duelo", "«duelo A B [A+N]»: sin tirada de iniciativa, cada duelista actúa en su INI (+N con Duelista). "
              "Dejar el duelo cuesta 3 AC (abandonar-duelo) y lo termina para los dos."),
    ("Montura", "«monta JINETE MONTURA»: la montura actúa en el momento de su jinete, no tiene momento propio "
                "ni detiene la cuenta; disparar montado anota −2 en el registro."),
    ("A cubierto", "es una nota: el registro recuerda la regla de la cobertura al ponerla y al recibir daño."),
    ("Curar y descansar", "«curar NOMBRE N» quita las N peores casillas (también en combate); «descanso», "
                          "fuera de un turno, borra los rasguños de todos."),
    ("Hordas", "«alta … miembros=M aguante=N»: cada N de daño total deja fuera a un miembro "
               "(«balas=B» lo limita); sin miembros, la horda está fuera."),
)


@frozen
class PanelRow:
    """One line of the side panel: a label, a value and a role for its colour."""

    label: str
    value: str = field(converter=literal)
    role: str = "normal"


def column_label(c: Combatant, secret: bool = False) -> str:
    """The column header: the name, a group's members left (×5) and the total
    modifier to its next roll when it is not 0 (neither for a private PNJ)."""
    label = literal(c.name)
    if c.is_group and not secret:
        label += f" ×{c.members}"
    if c.modifier and not secret:
        label += f" {_signed(c.modifier)}"
    return label


def track_text(track: Track, categories: tuple[str, ...]) -> str:
    """"Herido (4/11)": the worst category marked and the boxes marked, or "—"."""
    category = track.category
    if category is None or track.count == 0:
        return "—"
    return f"{categories[category]} ({track.count}/{track.size})"


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def panel_rows(c: Combatant, fight: Fight) -> tuple[PanelRow, ...]:
    """What the side panel says about `c` (SHEET.md): AC, marker, status, attacks…"""
    budget = c.budget(max(fight.turn, 1))
    ac_text = f"{c.ac} / {budget}" if fight.started else f"{c.ac_per_turn} por turno"
    penalty = c.attack_penalty
    rows = [
        PanelRow("AC", ac_text, "ac"),
        PanelRow("Marcador", "—" if c.marker is None else str(c.marker)),
        PanelRow("Inicio", "—" if c.start is None else str(c.start)),
        PanelRow("Estado", STATUS_ES[c.status] if fight.started else "preparación",
                 "dim" if c.status in (Status.DONE, Status.OUT) else "normal"),
        PanelRow("Ataques", str(c.attacks)),
        PanelRow("Siguiente", "sin penalizar" if penalty == 0 else f"{_signed(penalty)} al ataque",
                 "warning" if penalty < 0 else "normal"),
        PanelRow("Apuntar", f"+{c.aim}" if c.aim else "—", "good" if c.aim else "normal"),
        PanelRow("Modif.", _signed(c.modifier),
                 "warning" if c.modifier < 0 else ("good" if c.modifier > 0 else "normal")),
        PanelRow("Estados", ", ".join(c.conditions) or "—", "warning" if c.conditions else "normal"),
        PanelRow("Heridas", track_text(c.wounds, WOUND_CATEGORIES),
                 "warning" if c.wounds.count else "normal"),
        PanelRow("Fatiga", track_text(c.fatigue, FATIGUE_CATEGORIES),
                 "warning" if c.fatigue.count else "normal"),
        PanelRow("Pendiente", "—" if c.carried is None
                 else f"{c.carried.label} (faltan {c.carried.remaining})",
                 "carried" if c.carried else "normal"),
    ]
    if c.is_group:
        rows.insert(1, PanelRow("Miembros", f"{c.members} (aguante {c.toughness})",
                                "warning" if c.members == 0 else "normal"))
    extras = [
        ("Duelo", f"contra {c.duel}" if c.duel else "", "warning"),
        ("Montura", c.mount or "", "normal"),
        ("Liderazgo", f"{c.leadership} bono(s) de +1 por repartir" if c.leadership else "", "good"),
        ("Bono", f"+{c.lead_bonus} de su líder" if c.lead_bonus else "", "good"),
        ("Bloqueado", f"{_signed(c.block_penalty)} a su próximo ataque" if c.block_penalty else "",
         "warning"),
        ("Blancos", ", ".join(c.targets) if c.targets else "", "normal"),
    ]
    rows += [PanelRow(label, text, style) for label, text, style in extras if text]
    if c.trigger:
        rows.append(PanelRow("Espera", c.trigger, "warning"))
    rows.append(PanelRow("Este turno", ", ".join(c.maneuvers) or "—"))
    return tuple(rows)


@frozen
class Choice:
    """A maneuver offered to a combatant: its cost with talents applied and a hint."""

    id: str
    #: The name, hint and summary are shown (house rules name maneuvers): literal.
    name: str = field(converter=literal)
    cost: int
    attack: bool
    reaction: bool
    variable: str | None
    hint: str = field(converter=literal)
    summary: str = field(default="", converter=literal)


def maneuver_choices(fight: Fight, c: Combatant) -> tuple[Choice, ...]:
    """The catalog as `c` sees it: maneuvers whose talents it has, costs with its talents.

    The hint only compares the engine's numbers (cost vs AC left); the engine decides.
    """
    choices = []
    for m in catalog_for(fight).available(c):
        cost = m.base_cost(c)
        hint = ""
        if m.variable is not None:
            hint = f"+ {VARIABLE_ES[m.variable]}"
        elif fight.started and cost > c.ac:
            short = cost - c.ac
            hint = (f"faltan {short} AC: no puede" if m.reaction
                    else f"faltan {short} AC: se completa el turno siguiente")
        choices.append(Choice(m.id, m.name, cost, m.attack, m.reaction, m.variable, hint,
                              m.summary))
    return tuple(choices)


def filter_choices(choices: tuple[Choice, ...], query: str) -> tuple[Choice, ...]:
    """Choices with a word starting with each typed word (accents and case optional)."""
    words = fold(query).replace("-", " ").split()
    if not words:
        return choices

    def matches(choice: Choice) -> bool:
        names = slug(choice.name).split("-") + choice.id.split("-")
        return all(any(name.startswith(w) for name in names) for w in words)

    return tuple(ch for ch in choices if matches(ch))


def completions(fight: Fight, text: str) -> tuple[str, ...]:
    """Ways to finish the last word of a command line: keywords, names, maneuver ids."""
    head, _, last = text.rpartition(" ")
    if last.startswith('"'):
        last = last[1:]
    key = fold(last)
    names = [quote(c.name) for c in fight.combatants]
    if not head.strip():
        pool = sorted(set(KEYWORDS.values())) + names
    else:
        pool = names + sorted(set(ACTIONS.values())) + [m.id for m in catalog_for(fight).maneuvers]
    seen: dict[str, None] = {}
    for word in pool:
        if fold(word.strip('"')).startswith(key) and fold(word.strip('"')) != key:
            seen.setdefault(word, None)
    prefix = head + " " if head else ""
    return tuple(prefix + word for word in seen)


def status_line(fight: Fight) -> str:
    """The TUI's header: the countdown first (it must survive 80 columns), then the name.

    "Turno 1 · Momento 5 · Actúa: Sven, luego Soldado 1 · Emboscada en el puerto (CdB)".
    """
    name = f"{literal(fight.name)} ({RULES_ES.get(fight.rules, fight.rules)})"
    if not fight.started:
        return f"Preparación: «i» momentos iniciales, «a» añadir · {name}"
    return " · ".join([*countdown(fight, over="turno terminado: «t» turno nuevo"), name])


# ---------------------------------------------------------------- for the players
# What the player view (`cdbtui view`, `cdbtui serve`) shows, as plain data.  Every
# function takes the DJ's fight as it is saved and sees it through `players_fight`,
# so nothing a player reads can come from a hidden PNJ or a private PNJ's numbers.


def visible(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants players may know about: everyone but hidden PNJ (`oculto`)."""
    return shown(fight, True)


def _secret(c: Combatant) -> bool:
    """A private PNJ (`privado`): on the players' side its numbers show as `?`."""
    return c.private and not c.is_pc


def _quick_actor(fight: Fight) -> Combatant | None:
    """Iniciativa Rápida: whose go the players see.  The real actor if visible; else
    the next visible combatant in start order who has not had its go, as the
    engine would pick it (Agilidad, Atención, Habilidad, roster)."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is None:
        return None
    if not actor.hidden:
        return actor
    waiting = [
        ((-c.start, *order_key(c, position)[1:]), c)
        for position, c in enumerate(fight.combatants)
        if not c.hidden and c.status is Status.READY and c.start is not None
    ]
    return min(waiting, key=lambda pair: pair[0])[1] if waiting else None


def _over_for_players(fight: Fight) -> bool:
    """The turn is over for the players once every visible combatant is done or out
    (hidden PNJ may still act: the DJ plays them while players wait for «turno»)."""
    if fight.quick:
        return _quick_actor(fight) is None
    placed = [c for c in visible(fight) if c.start is not None]
    return all(c.status in (Status.DONE, Status.OUT) for c in placed)


def player_moment(fight: Fight) -> int | None:
    """The moment of the countdown the players see: the *no-gap rule*.

    The countdown never stops, on the players' screen, at a moment where only hidden
    PNJ act; that would betray them.  So:

    * while anyone visible is in the queue, the players see the real moment;
    * when the queue holds only hidden PNJ, they see the countdown as if it had
      already reached the next moment where a visible combatant acts (the highest
      marker of a visible combatant still to act): the hidden PNJ's maneuvers seem
      to happen just before that moment, and the countdown jumps from one visible
      moment to the next, as it would if the hidden PNJ were not there;
    * once every visible combatant is done (or out), the turn is over for the
      players: no moment at all (None), so the hidden PNJ still acting leave no
      trace; a real end of turn shows the same way;
    * if only visible holders and waiters are left (they follow the countdown), the
      real moment: they are at it, and it is the DJ stepping it with «siguiente».

    In Iniciativa Rápida the same idea applies to goes: a hidden PNJ's go is shown
    as the next visible combatant's (its start moment).  Before the fight starts,
    the real moment (None).
    """
    if not fight.started:
        return fight.moment
    if _over_for_players(fight):
        return None
    if fight.quick:
        actor = _quick_actor(fight)
        return None if actor is None else actor.start
    if fight.moment is None or any(not c.hidden for c in queue(fight)):
        return fight.moment
    ahead = [
        c.marker for c in visible(fight)
        if c.status in (Status.READY, Status.ACTED)
        and c.marker is not None and c.marker <= fight.moment
    ]
    return max(ahead) if ahead else fight.moment


def players_fight(fight: Fight) -> Fight:
    """The fight as the players see it; every other player function draws from it.

    Hidden PNJ are gone (so they take no column, no row, no queue place), the log is
    `player_log`'s, and the countdown stands at `player_moment`.  When that moment is
    below the real one, whoever follows the countdown is moved along with it the way
    the engine would: holders to that moment, waiters paying 1 AC per moment passed.
    Applying it twice changes nothing more.
    """
    seen = evolve(fight, combatants=visible(fight), log=player_log(fight))
    if not fight.started:
        return seen
    moment = player_moment(fight)
    if fight.quick:
        actor = _quick_actor(fight)
        return evolve(seen, moment=moment, actor=None if actor is None else actor.name)
    if moment is None or fight.moment is None or moment >= fight.moment:
        return evolve(seen, moment=moment)
    passed = fight.moment - moment
    moved = []
    for c in seen.combatants:
        if c.status is Status.HOLDING:
            moved.append(evolve(c, marker=moment, acting=False))
        elif c.status is Status.WAITING:
            paid = min(passed, c.ac)
            left = c.ac - paid
            moved.append(evolve(
                c, ac=left, marker=c.marker - paid,
                status=Status.WAITING if left > 0 else Status.DONE,
                trigger=c.trigger if left > 0 else None,
            ))
    return evolve(seen.replace(*moved), moment=moment)


#: How the engine logs a new combatant ("Alta de Ninja (PNJ, 6 AC)").
_ADDED = re.compile(r"^Alta de (?P<name>.+) \([^()]*\)$")


def _name_pattern(names: list[str]) -> re.Pattern[str] | None:
    """One regex finding any of `names` (folded) as whole words, longest first, so
    that "Soldado 1" is never read as "Soldado" followed by a 1."""
    if not names:
        return None
    words = sorted({fold(n) for n in names}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def player_log(fight: Fight, limit: int | None = None) -> tuple[LogEntry, ...]:
    """The log entries players may read (the last `limit`, or all), oldest first.

    Dropped: entries naming a hidden PNJ (accents and case folded), entries naming a
    private PNJ together with a number (its AC, a die, Agilidad in a tie…; entries
    with its name and no number stay: «Soldado 2 retrasa su acción»), and entries
    naming someone added and then removed (no longer on the roster, so whether it
    was hidden is unknown: it may have been).  Entries keep their turn but lose
    their moment ("T1 · …"): it may be one the players never saw on the countdown
    (a reaction while a hidden PNJ acts, see `player_moment`).
    """
    roster = {fold(c.name) for c in fight.combatants}
    hidden = {fold(c.name) for c in fight.combatants if c.hidden}
    secret = {fold(c.name) for c in fight.combatants if _secret(c)}
    hidden |= {
        fold(match["name"]) for entry in fight.log
        if (match := _ADDED.match(entry.text)) and fold(match["name"]) not in roster
    }
    pattern = _name_pattern([*roster, *hidden])
    kept: list[LogEntry] = []
    for entry in fight.log:
        text = fold(entry.text)
        named = set(pattern.findall(text)) if pattern is not None else set()
        if named & hidden:
            continue
        if named & secret and any(ch.isdigit() for ch in pattern.sub(" ", text)):
            continue
        kept.append(entry if entry.moment is None else evolve(entry, moment=None))
    if limit is not None:
        kept = kept[-limit:] if limit > 0 else []
    return tuple(kept)


def player_headline(fight: Fight) -> str:
    """The big line of the player view: "Turno 2 · Momento 5 · Actúa: Sven"."""
    if not fight.started:
        return f"{literal(fight.name)} · preparación"
    return " · ".join(countdown(players_fight(fight), whole_queue=False))


def player_queue(fight: Fight) -> str:
    """The queue at this moment for the players: "Cola: Sven → Soldado 1" (or "—")."""
    names = [literal(c.name) for c in queue(players_fight(fight))]
    return "Cola: " + (" → ".join(names) if names else "—")


@frozen
class Banner:
    """The top of the large layout: the turn, the moment in big digits, who acts.

    `moment` is "" when there is none to show (set-up, Iniciativa Rápida, turn over);
    `note` then says why.  `actor` is empty when nobody acts; `later` lists the rest
    of the queue ("luego Soldado 1").
    """

    turn: str = field(converter=literal)
    moment: str = field(converter=literal)
    note: str = field(converter=literal)
    actor: str = field(converter=literal)
    later: str = field(converter=literal)


def player_banner(fight: Fight) -> Banner:
    """What the large layout's top shows, from `players_fight`."""
    seen = players_fight(fight)
    if not seen.started:
        return Banner("Preparación", "", seen.name, "", "")
    turn = f"Turno {seen.turn}"
    if seen.turn_over:
        return Banner(turn, "", "turno terminado", "", "esperando al turno siguiente")
    names = [c.name for c in queue(seen)]
    later = f"luego {', '.join(names[1:])}" if len(names) > 1 else ""
    if seen.quick:
        return Banner(turn, "", "Iniciativa rápida", names[0] if names else "", later)
    moment = "" if seen.moment is None else str(seen.moment)
    if not names:
        return Banner(turn, moment, "Momento", "", "nadie en este momento")
    return Banner(turn, moment, "Momento", names[0], later)


@frozen
class PcRow:
    """One PJ in the players' strip: its AC left this turn and where it stands."""

    name: str = field(converter=literal)
    ac: int
    budget: int
    status: str = field(converter=literal)
    acting: bool = False
    in_queue: bool = False
    done: bool = False
    out: bool = False

    @property
    def ac_text(self) -> str:
        """"4 / 7": AC left / AC this turn."""
        return f"{self.ac} / {self.budget}"

    @property
    def pips(self) -> str:
        """AC as dots, one per AC (●●●●○○○), readable across a table; up to 12."""
        if self.budget > 12:
            return ""
        left = max(0, min(self.ac, self.budget))
        return "●" * left + "○" * (self.budget - left)


def pc_rows(fight: Fight) -> tuple[PcRow, ...]:
    """Every visible PJ in roster order, for the strip under the players' sheet.

    Only PJ (`bando=pj`): a private PNJ's numbers can never reach it.  Before the
    fight starts the AC shown are the AC per turn.
    """
    seen = players_fight(fight)
    line = queue(seen)
    head = line[0].key if line else None
    in_queue = {c.key for c in line}
    rows = []
    for c in seen.combatants:
        if not c.is_pc:
            continue
        if not seen.started:
            rows.append(PcRow(c.name, c.ac_per_turn, c.ac_per_turn, "preparación"))
            continue
        budget = c.budget(max(seen.turn, 1))
        status = STATUS_ES[c.status] if c.start is not None else "sin momento inicial"
        rows.append(PcRow(
            c.name, c.ac, budget, status,
            acting=c.key == head,
            in_queue=c.key in in_queue,
            done=c.status is Status.DONE,
            out=c.status is Status.OUT,
        ))
    return tuple(rows)


@frozen
class PlayerView:
    """Everything the player view paints, computed once per change of the save.

    Its texts are literal (`printable.literal`), the log's too; `fight` is the
    players' fight as data (raw names: the sheet widget builds its own cells).
    """

    fight: Fight
    headline: str
    queue: str
    banner: Banner
    pcs: tuple[PcRow, ...]
    log: tuple[LogEntry, ...]


def player_view(fight: Fight, *, log_lines: int = 20) -> PlayerView:
    """The players' whole screen as data (the widgets only paint it)."""
    seen = players_fight(fight)
    return PlayerView(
        fight=seen,
        headline=player_headline(seen),
        queue=player_queue(seen),
        banner=player_banner(seen),
        pcs=pc_rows(seen),
        log=tuple(_literal_entry(e) for e in seen.log[-log_lines:]) if log_lines > 0 else (),
    )


def _literal_entry(entry: LogEntry) -> LogEntry:
    """A log entry whose text is safe to paint (`literal`); the same entry if it was."""
    text = literal(entry.text)
    return entry if text == entry.text else evolve(entry, text=text)
