"""C-System's sheet as plain data (SYSTEMS.md §2.1): a pure function of the fight.

Not a grid of moments: an ordered list, one row per combatant in the order of
initiative, walked once per turn.  `build_list(fight, selected)` gives the lines
the widget paints (`tui.widgets.cslist`), each a row of spans with a `Role` (the
widget styles by role, never by text): the column titles, one row per combatant
(▶ acts now, ✓ and dimmed once its go is over, struck when out, ⟳ before a name
with a prompt waiting), then the prompts waiting for the table's roll and the
"Estados:" lines.  Given a width, the columns fit it: the gaps narrow, long
forms give way to short ones, then the least needed columns (the Vitalidad bar,
"Este turno", NH) go, then the names shorten; every cell keeps a space on each
side.  The bar stands under the «Vitalidad» title, beside the numbers.

Also here, for the same fight: the header line (`cs_header`), the side panel's
rows (`cs_panel_rows`), the order ←/→ walk (`cs_selection_order`), the marks'
legend, the help's commands and the Decisions of CSYSTEM.md §11.

`for_players=True` is the players' list: hidden PNJ absent, a private PNJ's
Vitalidad and Defensa as "?".  Every text shown went through `printable.literal`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from enum import StrEnum

from attrs import evolve, frozen

from ..engine.catalog import RULES_ES
from ..engine.commands import quote
from ..engine.csystem import budget
from ..engine.csystem.common import at_turn, current, is_out
from ..engine.csystem.defense import attack_modifiers, defense
from ..engine.csystem.model import CsCondition, CsSheet, Prompt
from ..engine.csystem.tables import CONDITIONS, actions, find_action, tier_of
from ..engine.model import Combatant, Fight
from ..engine.text import fold
from ..printable import literal
from .panel import PanelRow, RowRole
from .csystem import start_pending
from .rulesets import is_csystem  # noqa: F401 - re-exported
from .rows import (ActionChoice, Kind, Line, RowList, fit_spans, laid_out, measured, row_line, secret,
                   selected_in, text_cells)
from .rows import Span as BaseSpan
from .rows import ordered as ordered_by
from .sheet import HIDDEN_MARK, cells, short

RULES_NAME = "C-System"
#: What a private PNJ's numbers show as on the players' list.
SECRET = "?"
#: The Vitalidad bar's width in cells.
BAR = 10

#: The marks of the list and what they mean (SYSTEMS.md §2.1): legend and help.
LEGEND = (
    ("■ / □", "acción compleja / simple hecha este turno, en orden"),
    ("■□ o □□", "«Queda»: las combinaciones que aún puede hacer; — = su turno ha terminado"),
    ("▶", "actúa ahora"),
    ("✓", "ya actuó este turno (atenuado)"),
    ("↓5 / ↑5", "tras INI: Ensordecido (−5) o un poder le cambió la iniciativa"),
    ("(tras X)", "tras INI: se retrasó para actuar detrás de X (para todo el combate); en poco espacio, »"),
    ("a · b", "Defensa a distancia · cuerpo a cuerpo cuando difieren; el paréntesis dice un cambio temporal"),
    ("34*", "en poco espacio: la Defensa tiene un cambio temporal (ver «Estados»)"),
    ("20/28 ██▏█░", "Vitalidad actual / máxima; la barra marca con ▏ la CON (por debajo: Herido)"),
    ("⟳", "ante el nombre: un efecto espera al inicio de su turno (sangrando, tirada de moribundo, confuso, "
          "despertar) o una tirada de la mesa (dolor, heridas críticas…)"),
    ("◌", "oculto a los jugadores"),
    ("tachado", "fuera de combate: inconsciente, moribundo, muerto, inutilizado"),
)

#: The same marks in a few words, for the legend beside the list.
LEGEND_SHORT = (
    ("■ □", "compleja · simple"),
    ("▶", "actúa ahora"),
    ("✓", "ya actuó"),
    ("↓5", "Ensordecido (−5 INI)"),
    ("tras »", "se retrasó tras otro"),
    ("a · b", "Def dist · cc"),
    ("▏", "CON en la barra"),
    ("⟳", "tirada pendiente"),
    ("◌", "oculto a jugadores"),
)

#: The Decisions of CSYSTEM.md §11, shown in the help screen (binding, GMs will ask).
DECISIONS = (
    ("Vitalidad (2)", "si no se escribe (pv=), CON × 4 + 3 × (NH − 1)."),
    ("Iniciativa (3.1)", "incluye 1d20: 1d20 + DES + Alerta + INI del arma; se tira una vez por combate."),
    ("Cambios de DES (3.2)", "no reordenan: solo Ensordecido y los poderes cambian el orden."),
    ("Empates (3.3)", "primero más DES, luego más Alerta, luego el orden de la lista; «cambiar A B» los intercambia."),
    ("Retrasarse (3.4)", "solo antes de hacer nada en su turno, tras alguien que actúa después o al final; "
                         "copia el valor de a quien sigue y lo mantiene todo el combate."),
    ("Cambios de valor (3.5)", "una misma regla para todo cambio: se coloca tras el último con iniciativa ≥ la nueva; "
                               "actúa después el primero del orden que aún no ha actuado este turno."),
    ("Sorpresa (3.7)", "quien falla empieza desprevenido hasta el inicio de su primer turno; no hay asalto de sorpresa."),
    ("Sin acumular (4.1)", "las acciones que sobran se pierden: nada pasa al turno siguiente."),
    ("Acciones legales (4.2)", "las combinaciones de su nivel y sus partes; ■ no vale □□."),
    ("Recargar (4.4)", "simple con Fuego simple, compleja con los demás, todo el turno con Fuego pesado."),
    ("No repetir (5.1)", "solo para las 11 maniobras; las dos formas de Cubrirse son una; Disparo en combate es una."),
    ("Apuntar (5.2)", "máximo max(PER − 4, 0); se conserva hasta su próximo ataque a distancia."),
    ("Cargar + Derribar (5.2)", "una sola acción compleja."),
    ("Desarmar (5.2)", "requisito 6+ en Combate sin armas."),
    ("Esquivar/Bloquear (5.2)", "dura hasta el inicio de su próximo turno y termina el actual."),
    ("Inmovilizar (5.2)", "es el estado Sujeto."),
    ("DES (6.2)", "la DES efectiva nunca baja de 0; la mitad se redondea hacia arriba."),
    ("Daño (6.4)", "nunca menos de 0."),
    ("Cobertura (6.5)", "su RD se resta primero y sale de los PdE de la cobertura."),
    ("Ráfagas (7)", "% de la capacidad del cargador redondeado hacia arriba; pasar de la CAD solo avisa."),
    ("Aturdido (8)", "pierde su próximo turno propio."),
    ("Apresado (8)", "puede atacar con armas ligeras o a una mano (con aviso)."),
    ("Aterrado (8)", "no puede actuar."),
    ("Cubrirse y disparar (8)", "disparar desde la cobertura la baja un paso hasta el inicio de su próximo turno."),
    ("Tirada de dolor (9.2)", "en cada herida que deja la Vitalidad bajo la CON, contra el daño de esa herida; "
                              "no por sangrado."),
    ("Indefensos (9.3)", "un ataque contra un inconsciente con 0 o menos le mata."),
    ("Moribundo (9.4)", "pierde 1 punto por cada tirada fallada."),
    ("Aplomo (9.5)", "a la mitad, decide el DJ; a 0, inconsciente hasta recuperar 5."),
    ("Fatigado (9.6)", "cuando la Energía gastada supera la VOL."),
    ("Final del turno (4.1)", "acabado el último turno propio, el turno siguiente empieza solo."),
    ("Tiradas pendientes (SYSTEMS §2.1)", "la de dolor y la de CON ND 20 detienen el siguiente turno del "
                                          "combatiente hasta que se responden («dolor», «refleja»); la tabla "
                                          "de heridas críticas y el Aplomo a la mitad son recordatorios que "
                                          "no lo detienen (el ejemplo de §12 no los responde antes del "
                                          "turno 2 de Titán)."),
)

#: C-System's commands, for the help screen (SYSTEMS.md §2.2, /tmp/cs/SYNTAX.md).
COMMANDS_HELP = """\
`alta NOMBRE [nh=N] des=N ale=N [per=N] [con=N] [vol=N] [fue=N] [vel=N] [pv=N] [aplomo=N] \
[energia=N] [bdef=N] [escudo=N] [rd=N|L/B/E] [ini=+N] [bando=pj|pnj|X] [oculto] [privado] \
[rasgos=acrobacias,artes-marciales:N,espadachin,robot]` ·
`arma NOMBRE ARMA [modos=simple,sa,fa,pesado,continuo] [cargador=N] [municion=N] [cad=N] \
[dano=TEXTO] [distancia]` ·
`iniciativa NOMBRE N` · `tirar [NOMBRE…]` · `sorpresa NOMBRE…` · `cambiar A B` ·
`orden A tras B` · `orden A antes B` · `empezar` ·
`NOMBRE MANIOBRA [simple|compleja] [a OBJETIVO] [tirada=N] [dano=N[+N…]] [tipo=…] [arma=ARMA] [mod=±N]` ·
`NOMBRE ataca OBJETIVO tirada=N dano=N [tipo=letal|balistico|energia|conmocion]` ·
`NOMBRE compleja [TEXTO]` · `NOMBRE simple [TEXTO]` · `NOMBRE gratis TEXTO` ·
`NOMBRE esquivar [5]` · `NOMBRE cubrirse simple` · `NOMBRE cubrirse compleja [parcial|casi-completa]` ·
`NOMBRE recarga [ARMA]` · `NOMBRE modo ARMA MODO` · `NOMBRE levantarse` ·
`NOMBRE primeros-auxilios OBJETIVO [tirada=N]` ·
`NOMBRE retrasa tras OTRO` · `NOMBRE retrasa final` · `NOMBRE fin` · `siguiente` · `turno` ·
`dano NOMBRE N [tipo] [rd=N] [sangrado]` · `dolor NOMBRE TOTAL` · `refleja NOMBRE TOTAL` ·
`critica NOMBRE TEXTO [+COND…]` · `cura NOMBRE N` · `energia NOMBRE -N` · `aplomo NOMBRE ±N` ·
`estado NOMBRE +COND[:VALOR] [turnos=N]` · `estado NOMBRE -COND` · `municion NOMBRE ARMA N` ·
`nota NOMBRE TEXTO` · `revelar NOMBRE` · `ocultar NOMBRE` · `baja NOMBRE` · `deshacer` · `rehacer`

Maniobras: apuntar, cargar, cubrirse, derribar (arrollar), desarmar, esquivar (bloquear), presa,
disparo-en-combate, rafaga-corta, rafaga-larga, fuego-automatico-pesado.
Acciones con nombre: atacar (ataca), mover, correr, recargar, cambiar-modo, levantarse,
primeros-auxilios, golpe-de-gracia, sacudir.
Las tiradas de dolor (`dolor`) y de CON ND 20 (`refleja`) detienen el turno de quien las espera
hasta responderlas; la de Heridas críticas (`critica`) es un recordatorio."""


class Role(StrEnum):
    """What a span of the list says; the widget colours by it."""

    TEXT = "text"
    TITLE = "title"
    MUTED = "muted"
    #: ▶ and the place of the one who acts now.
    ACTOR = "actor"
    #: ✓: its go is over this turn.
    ACTED = "acted"
    PC = "pc"
    NPC = "npc"
    #: ↓5, (tras X): a change to its initiative.
    SHIFT = "shift"
    COMPLEX = "complex"
    SIMPLE = "simple"
    #: What is left of its go.
    LEFT = "left"
    #: A temporary change (Esquivar's +5, Cargar's −2): warning colours.
    TEMP = "temp"
    #: Below CON (Herido territory).
    LOW = "low"
    #: Below 0.
    BAD = "bad"
    BAR_FULL = "bar-full"
    BAR_EMPTY = "bar-empty"
    BAR_CON = "bar-con"
    #: The whole bar below 0 Vitalidad: red, even on a row out of the fight.
    BAR_BAD = "bar-bad"
    #: ⟳ and the prompts waiting for the table's roll.
    PENDING = "pending"
    #: "Estados:" and "Pendiente:".
    LABEL = "label"
    CONDITION = "condition"


@frozen
class Span(BaseSpan):
    """A span of the list: plain text unless told."""

    role: Role = Role.TEXT


# ---------------------------------------------------------------- the parts of a row


def sheet_of(c: Combatant) -> CsSheet:
    return c.sheet if isinstance(c.sheet, CsSheet) else CsSheet()


def order_of(fight: Fight) -> tuple[str, ...]:
    return fight.cs.order if fight.cs is not None else ()


@at_turn
def ordered(fight: Fight, *, for_players: bool = False) -> list[Combatant]:
    """The combatants in the order of initiative, then those without a place."""
    return ordered_by(fight, order_of(fight), for_players=for_players)


@at_turn
def cs_selection_order(fight: Fight) -> tuple[str, ...]:
    """The order ←/→ walk the rows: the list's, top to bottom."""
    return tuple(c.name for c in ordered(fight))


def ordinal(n: int) -> str:
    return f"{n}.º"


def initiative_parts(fight: Fight | None, s: CsSheet) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """("17 ↓5" / "14 (tras Titán)") long and short."""
    if s.initiative is None:
        dash = (Span("—", Role.MUTED),)
        return dash, dash
    value = Span(str(s.initiative))
    shift = f"{'↑' if s.shift > 0 else '↓'}{abs(s.shift)}" if s.shift else ""
    long = [value, *((Span(" " + shift, Role.SHIFT),) if shift else ())]
    shorter = [value, *((Span(shift, Role.SHIFT),) if shift else ())]
    if s.after:
        long.append(Span(f" (tras {s.after})", Role.SHIFT))
        shorter.append(Span("»", Role.SHIFT))
    return tuple(long), tuple(shorter)


def used_spans(s: CsSheet) -> tuple[Span, ...]:
    spans: list[Span] = []
    if s.acted:
        spans.append(Span("✓", Role.ACTED))
    for kind in s.used:
        if spans:
            spans.append(Span(" "))
        spans.append(Span(budget.MARK[kind], Role.COMPLEX if kind == budget.COMPLEX else Role.SIMPLE))
    return tuple(spans)


def left_text(c: Combatant, fight: Fight | None = None) -> str:
    s = sheet_of(c)
    if s.acted or is_out(s):
        return "—"
    return budget.left_text(budget.left(s))


def capped(s: CsSheet) -> bool:
    """Whether a condition cuts its budget below what its level gives (Malherido…)."""
    return budget.combinations(s) != tier_of(s.level)


def temp_changes(s: CsSheet) -> list[str]:
    """Its temporary changes to Defensa, each with when it ends."""
    found = []
    if s.dodge:
        found.append(f"esq.+{s.dodge}")
    if s.charged:
        found.append("carga −2")
    return found


def defense_spans(s: CsSheet, hide: bool) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    if hide:
        spans = (Span(SECRET, Role.MUTED),)
        return spans, spans
    d = defense(s)
    value = str(d.ranged) if d.ranged == d.melee else f"{d.ranged} · {d.melee}"
    temp = temp_changes(s)
    role = Role.TEMP if temp else Role.TEXT
    long = (Span(value, role), *((Span(f" ({', '.join(temp)})", Role.TEMP),) if temp else ()))
    return long, (Span(value + ("*" if temp else ""), role),)


def vitality_role(s: CsSheet) -> Role:
    if s.vitality < 0:
        return Role.BAD
    if s.vitality < s.con and not s.robot:
        return Role.LOW
    return Role.TEXT


def vitality_text(s: CsSheet) -> str:
    text = f"{s.vitality}/{s.vitality_max}"
    return text + (f"+{s.temp_vitality}" if s.temp_vitality else "")


def bar_spans(s: CsSheet, width: int = BAR) -> tuple[Span, ...]:
    """The Vitalidad bar: full cells up to the current value, a ▏ at the CON
    threshold (below it: Herido territory); empty when at or below 0, and red
    below 0 (`Role.BAR_BAD`)."""
    top = max(s.vitality_max, 1)
    full = max(0, min(width, round(s.vitality * width / top)))
    con = None if s.robot or s.con <= 0 else min(width - 1, round(s.con * width / top))
    spans: list[Span] = []
    for index in range(width):
        if s.vitality < 0:
            spans.append(Span("▏" if index == con else "░", Role.BAR_BAD))
        elif index == con:
            spans.append(Span("▏", Role.BAR_CON))
        elif index < full:
            spans.append(Span("█", Role.LOW if s.vitality < s.con and not s.robot else Role.BAR_FULL))
        else:
            spans.append(Span("░", Role.BAR_EMPTY))
    return tuple(spans)


def condition_text(c: CsCondition, s: CsSheet, acting: bool = False) -> str:
    """"sangrando 1", "a cubierto (parcial)", "ensordecido (−5 ini)", "… (2 turnos)"."""
    info = CONDITIONS.get(c.id)
    name = info.name.lower() if info is not None else c.id
    text = name
    if c.value:
        text += f" {c.value}" if c.value.lstrip("+-").isdigit() else f" ({c.value})"
    if c.id == "ensordecido":
        text += " (−5 ini)"
    if c.ends is not None:
        left = c.ends - s.goes + (1 if acting else 0)
        if left > 0:
            text += f" ({left} turno{'s' if left != 1 else ''})"
    return text


def conditions_of(c: Combatant, fight: Fight) -> list[str]:
    s = sheet_of(c)
    acting = fight.actor is not None and fight.actor.casefold() == c.key
    parts = [condition_text(cond, s, acting) for cond in s.conditions]
    if s.dodge:
        parts.append(f"esquivar +{s.dodge} (hasta el inicio de su turno)")
    if s.charged:
        parts.append("cargó: Defensa −2 (hasta el inicio de su turno)")
    if s.aim:
        parts.append(f"apunta +{s.aim}")
    return parts


def prompt_text(p: Prompt) -> str:
    """What the table must roll, and the command that answers it."""
    if p.roll == "dolor":
        return f"tirada de dolor: CON vs ND {p.nd} («dolor»)"
    if p.roll == "refleja":
        why = f" ({p.reason})" if p.reason else ""
        return f"CON refleja vs ND {p.nd or 20}{why} («refleja»)"
    if p.roll == "critica":
        return f"heridas críticas 1d20 + {p.bonus} («critica»)"
    if p.roll == "aplomo":
        return "¿queda inconsciente? (decide el DJ)"
    return p.reason or p.roll


# ---------------------------------------------------------------- the header


@at_turn
def next_name(fight: Fight, *, for_players: bool = False) -> str | None:
    """Who acts after the current actor: the first in the order who has not had its
    go this turn (CSYSTEM §3.5), or None (the turn ends)."""
    actor = (fight.actor or "").casefold()
    for c in ordered(fight, for_players=for_players):
        if c.name in order_of(fight) and c.key != actor and not sheet_of(c).acted:
            return c.name
    return None


@at_turn
def seen_actor(fight: Fight, *, for_players: bool = False) -> Combatant | None:
    """Whose go it is; on the players' side a hidden actor's go is shown as the
    next visible one's (the no-gap rule of the countdown, for goes)."""
    actor = fight.find(fight.actor) if fight.actor else None
    if actor is None or not (for_players and actor.hidden):
        return actor
    found = next_name(fight, for_players=True)
    return fight.find(found) if found else None


@at_turn
def turn_parts(fight: Fight, *, for_players: bool = False) -> list[str]:
    """["Turno 1", "Actúa: Titán (4.º de 4)", "luego: fin del turno"]."""
    parts = [f"Turno {fight.turn}"]
    actor = seen_actor(fight, for_players=for_players)
    if actor is None:
        parts.append("nadie actúa")
        return parts
    names = [c.name for c in ordered(fight, for_players=for_players) if c.name in order_of(fight)]
    place = names.index(actor.name) + 1 if actor.name in names else 0
    parts.append(f"Actúa: {literal(actor.name)}" + (f" ({ordinal(place)} de {len(names)})" if place else ""))
    after = next_name(evolve_actor(fight, actor.name), for_players=for_players)
    parts.append(f"luego: {literal(after)}" if after else "luego: fin del turno")
    return parts


def evolve_actor(fight: Fight, name: str) -> Fight:
    """`fight` as if `name` were the actor (who comes after it)."""
    return fight if fight.actor == name else evolve(fight, actor=name)


@at_turn
def cs_header(fight: Fight, *, for_players: bool = False) -> str:
    """"Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno"."""
    parts = [literal(fight.name), RULES_ES.get(fight.rules, RULES_NAME)]
    if not fight.started:
        return " · ".join([*parts, "preparación: «iniciativa NOMBRE N» o «tirar», luego «empezar»"])
    return " · ".join([*parts, *turn_parts(fight, for_players=for_players)])


@at_turn
def cs_headline(fight: Fight) -> str:
    """The players' big line: "Turno 2 · Actúa: Centella" (hidden PNJ unseen)."""
    if not fight.started:
        return "Preparación"
    actor = seen_actor(fight, for_players=True)
    who = f"Actúa: {literal(actor.name)}" if actor is not None else "nadie actúa"
    return f"Turno {fight.turn} · {who}"


# ---------------------------------------------------------------- the list

#: The columns: key, long title, short title.
COLUMNS = (
    ("place", "#", "#"),
    ("ini", "INI", "INI"),
    ("name", "Nombre", "Nombre"),
    ("nh", "NH", "NH"),
    ("used", "Este turno", "Turno"),
    ("left", "Queda", "Queda"),
    ("def", "Def dist·cc", "Def"),
    ("vit", "Vitalidad", "PV"),
    ("bar", "", ""),
)
#: How the columns give way to a narrow width, in order: ("short", key) writes a
#: column's short forms, ("drop", key) leaves it out, ("gap", n) narrows the gaps
#: between columns, ("name", n) caps the names.  The gaps narrow before the bar
#: goes (and widen again when a later step left the room).
GIVE_WAY = (
    ("gap", 1), ("drop", "bar"), ("short", "ini"), ("short", "used"), ("drop", "used"),
    ("short", "def"), ("short", "vit"), ("name", 12), ("short", "left"), ("drop", "nh"),
    ("name", 8), ("name", 5),
)
#: The narrowest a name gets.
NAME_MIN = 5
#: The widest gap between columns.
GAP = 2
#: The gap between the Vitalidad numbers and their bar, which stands under the
#: same title (SYSTEMS.md §2.1's «Vitalidad» column is as wide as «43/48» and a bar).
BAR_GAP = 1


def _gap_before(key: str, gap: int) -> int:
    """The spaces before column `key`: the bar sits close to its numbers."""
    return BAR_GAP if key == "bar" else gap


def _under_one_title(columns, widths: dict[str, int]) -> bool:
    """Whether the Vitalidad title heads the bar too (both shown, the bar not empty)."""
    return "vit" in columns and "bar" in columns and widths["bar"] > 0


def _fit_spans(spans: tuple[Span, ...], width: int) -> tuple[Span, ...]:
    return fit_spans(spans, width, Span)


#: Rows already made, by (the combatant's id, acting?, place, players?, name width),
#: with the combatant they were made from: a command changes a few combatants, and
#: the other rows are the same (a row depends on nothing else).
_ROWS: dict[tuple, tuple[Combatant, dict]] = {}


def _row_cells(c: Combatant, actor: bool, place: int | None, for_players: bool,
               name_width: int | None, start: bool = False) -> dict[str, tuple[tuple[Span, ...], tuple[Span, ...]]]:
    """Each column's (long, short) spans for `c`'s row (remembered: `_ROWS`); `start`:
    a start-of-go effect waits for its next go (⟳)."""
    key = (id(c), actor, place, for_players, name_width, start)
    known = _ROWS.get(key)
    if known is not None and known[0] is c:
        return known[1]
    if len(_ROWS) > 8192:
        _ROWS.clear()
    cells_ = _make_row(c, actor, place, for_players, name_width, start)
    _ROWS[key] = (c, cells_)
    return cells_


#: Each remembered row's cell widths, (long form, short form) per column in the
#: order of `COLUMNS`, by the id of the row (kept alive with it).
_SIZES: dict[int, tuple[dict, tuple[tuple[int, int], ...]]] = {}


def _sizes(row: dict) -> tuple[tuple[int, int], ...]:
    known = _SIZES.get(id(row))
    if known is not None and known[0] is row:
        return known[1]
    if len(_SIZES) > 8192:
        _SIZES.clear()
    sizes = tuple((measured(row[key][0]), measured(row[key][1])) for key, _, _ in COLUMNS)
    _SIZES[id(row)] = (row, sizes)
    return sizes


def _make_row(c: Combatant, actor: bool, place: int | None, for_players: bool,
              name_width: int | None, start: bool = False) -> dict[str, tuple[tuple[Span, ...], tuple[Span, ...]]]:
    s = sheet_of(c)
    hide = secret(c, for_players)
    mark = Span("▶", Role.ACTOR) if actor else Span(" ")
    number = Span(str(place) if place else "·", Role.ACTOR if actor else Role.TEXT)
    cells_: dict[str, tuple[tuple[Span, ...], tuple[Span, ...]]] = {}
    cells_["place"] = ((mark, number),) * 2
    cells_["ini"] = ((Span(SECRET, Role.MUTED),),) * 2 if hide else initiative_parts(None, s)
    # ⟳: a prompt waits, or a start-of-go effect does (sangrando, confuso…: SYSTEMS.md §2.1)
    prefix = ("⟳" if s.pending or start else "") + (HIDDEN_MARK if c.hidden and not for_players else "")
    shown = literal(c.name)
    if name_width is not None:
        shown = short(shown, max(1, name_width - len(prefix))) or shown[:1]
    name_spans = ((Span(prefix, Role.PENDING),) if prefix else ()) + (
        Span(shown, Role.PC if c.is_pc else Role.NPC),)
    cells_["name"] = (name_spans, name_spans)
    cells_["nh"] = ((Span(SECRET if hide else str(s.level)),),) * 2
    used = used_spans(s)
    compact = tuple(span for span in used if span.text != " ")
    cells_["used"] = (used, compact)
    left = SECRET if hide and not s.acted else left_text(c, None)
    if not actor and not s.acted and not is_out(s) and not hide and not capped(s):
        left = ""  # its whole menu: what its NH gives (the panel says it)
    role = Role.LEFT if actor else Role.MUTED
    cells_["left"] = ((Span(left, role),), (Span(left.split(" o ")[0] + (" …" if " o " in left else ""), role),))
    cells_["def"] = defense_spans(s, hide)
    if hide:
        cells_["vit"] = ((Span(SECRET, Role.MUTED),),) * 2
        cells_["bar"] = ((),) * 2
    else:
        vit = (Span(vitality_text(s), vitality_role(s)),)
        cells_["vit"] = (vit, vit)
        cells_["bar"] = (bar_spans(s),) * 2
    return cells_


@at_turn
def build_list(fight: Fight, selected: str | None = None, *, for_players: bool = False,
               width: int | None = None) -> RowList:
    """The list of `fight`, `selected` highlighted, fitted to `width` cells (None:
    every column at its natural width)."""
    rows = laid_out(("csystem", for_players, width), fight, lambda: _lay_out(fight, for_players, width))
    return selected_in(rows, None if for_players else selected)


def _lay_out(fight: Fight, for_players: bool, width: int | None) -> RowList:
    """`build_list` with nobody selected."""
    combatants = ordered(fight, for_players=for_players)
    order = order_of(fight)
    if not combatants:
        hint = "Sin combatientes: «a» o «:alta NOMBRE des=N ale=N …» añade uno"
        return RowList((Line((Span(hint, Role.MUTED),), Kind.EMPTY),))
    places = {}
    number = 0
    for c in combatants:
        if c.name in order:
            number += 1
            places[c.key] = number
    keys = [key for key, _, _ in COLUMNS]
    shown = set(keys)
    short_forms: set[str] = set()
    name_cap: int | None = None

    if for_players:
        seen = seen_actor(fight, for_players=True)
        acting = None if seen is None else seen.key
    else:
        acting = None if fight.actor is None else fight.actor.casefold()

    def table() -> list[dict[str, tuple[tuple[Span, ...], tuple[Span, ...]]]]:
        return [_row_cells(c, c.key == acting, places.get(c.key), for_players, name_cap, start_pending(c, fight))
                for c in combatants]

    rows = table()

    def widths() -> dict[str, int]:
        by_column = list(zip(*map(_sizes, rows)))  # per column, each row's (long, short)
        found, titles = {}, {}
        for (key, long, shorter), sizes in zip(COLUMNS, by_column):
            form = 1 if key in short_forms else 0
            titles[key] = text_cells(shorter if form else long)
            found[key] = max(size[form] for size in sizes)
        for key, title in titles.items():
            if key == "vit" and _under_one_title(shown, found):  # the title spans the bar
                title -= BAR_GAP + found["bar"]
            found[key] = max(found[key], title)
        return found

    gap = GAP

    def total(w: dict[str, int]) -> int:
        used = [k for k in keys if k in shown and w[k] > 0]
        return sum(w[k] for k in used) + sum(_gap_before(k, gap) for k in used[1:])

    w = widths()
    if width is not None:
        for step, what in GIVE_WAY:
            if total(w) <= width:
                break
            if step == "short":
                short_forms.add(what)
            elif step == "drop":
                shown.discard(what)
            elif step == "gap":
                gap = int(what)
            else:
                name_cap = max(NAME_MIN, min(int(what), width - (total(w) - w["name"])))
                rows = table()
            w = widths()
        if name_cap is not None and total(w) < width:  # later steps left room: names grow
            name_cap += width - total(w)
            rows = table()
            w = widths()
        for key in [k for k, *_ in reversed(COLUMNS) if k in short_forms]:
            short_forms.discard(key)  # a short form later steps made needless: undone
            if total(widths()) > width:
                short_forms.add(key)
        w = widths()
        if gap < GAP and total(w) <= width:  # the room left by later steps: wide gaps again
            gap = GAP
            if total(w) > width:
                gap = 1
        if total(w) > width and "name" in shown:  # the last of the room: the names
            name_cap = max(NAME_MIN, w["name"] - (total(w) - width))
            rows = table()
            w = widths()
    columns = tuple(k for k in keys if k in shown and w[k] > 0)
    lines: list[Line] = []
    titles: list[Span] = []
    one_title = _under_one_title(columns, w)
    for index, (key, long, shorter) in enumerate(c for c in COLUMNS if c[0] in columns):
        if key == "bar" and one_title:
            continue  # under «Vitalidad»
        if index:
            titles.append(Span(" " * gap))
        room = w[key] + (BAR_GAP + w["bar"] if key == "vit" and one_title else 0)
        titles.extend(_fit_spans((Span(shorter if key in short_forms else long, Role.TITLE),), room))
    lines.append(Line(tuple(titles), Kind.TITLES))
    forms = tuple(1 if key in short_forms else 0 for key in columns)
    layout = (columns, tuple(w[key] for key in columns), forms, gap)
    for c, row in zip(combatants, rows):
        # A row's cells are made from `c` alone (`_ROWS`): the same cells, the same line.
        lines.append(row_line(row, layout, (), lambda c=c, row=row: _row_line(c, row, layout)))
    notes = _notes(fight, combatants, for_players, width)
    if notes:
        lines.append(Line((), Kind.BLANK))
        lines.extend(notes)
    return RowList(tuple(lines), tuple(c.name for c in combatants), columns)


def _row_line(c: Combatant, row: dict, layout: tuple) -> Line:
    """`c`'s row of cells fitted to the lay-out: (columns, widths, forms, gap)."""
    columns, widths, forms, gap = layout
    spans: list[Span] = []
    for index, (key, size, form) in enumerate(zip(columns, widths, forms)):
        if index:
            spans.append(Span(" " * _gap_before(key, gap)))
        spans.extend(_fit_spans(row[key][form], size))
    actor = row["place"][0][0].role is Role.ACTOR
    s = sheet_of(c)
    return Line(tuple(spans), Kind.ROW, c.name, c.is_pc, actor, s.acted and not actor, is_out(s))


def _pieces(text: str, room: int | None) -> list[str]:
    """`text` broken at spaces into pieces of at most `room` cells (None: whole)."""
    if room is None or cells(text) <= room or room < 8:
        return [text]
    return textwrap.wrap(text, room, break_on_hyphens=False) or [text]


def _wrap(label: str, items: list[tuple[str, Role]], width: int | None, kind: Kind) -> list[Line]:
    """"Estados: a · b · c" wrapped under itself at `width` (an item longer than a
    line is broken at its spaces)."""
    indent = " " * (len(label) + 1)
    room = None if width is None else width - len(indent)
    lines: list[list[Span]] = [[Span(label + " ", Role.LABEL)]]
    used = len(indent)
    for text, role in items:
        for number, piece in enumerate(_pieces(text, room)):
            glue = "" if used == len(indent) else (" · " if number == 0 else " ")
            if width is not None and used > len(indent) and used + len(glue) + cells(piece) > width:
                lines.append([Span(indent)])
                used, glue = len(indent), ""
            if glue:
                lines[-1].append(Span(glue))
            lines[-1].append(Span(piece, role))
            used += len(glue) + cells(piece)
    return [Line(tuple(spans), kind) for spans in lines]


def _notes(fight: Fight, combatants: list[Combatant], for_players: bool, width: int | None) -> list[Line]:
    """The prompts waiting for the table, then the conditions."""
    out: list[Line] = []
    prompts = [(f"{literal(c.name)}: {prompt_text(p)}", Role.PENDING)
               for c in combatants if not secret(c, for_players) for p in sheet_of(c).pending]
    if prompts:
        out += _wrap("⟳ Tiradas:", prompts, width, Kind.PROMPT)
    states = []
    for c in combatants:
        parts = conditions_of(c, fight)
        if parts and not secret(c, for_players):
            states.append((f"{literal(c.name)} {', '.join(parts)}", Role.CONDITION))
    if states:
        out += _wrap("Estados:", states, width, Kind.CONDITIONS)
    return out


# ---------------------------------------------------------------- the side panel


def cs_panel_title(c: Combatant) -> str:
    """"Titán · PJ · NH 1", "Sombra · PNJ · NH 3 · oculto"."""
    side = c.side.upper() if c.side in ("pj", "pnj") else c.side
    return literal(" · ".join([c.name, side, f"NH {sheet_of(c).level}",
                               *(["oculto"] if c.hidden else [])]))


def _weapon_text(weapon) -> str:
    parts = [weapon.name]
    if weapon.mode:
        parts.append(weapon.mode.upper())
    if weapon.magazine:
        parts.append(f"{weapon.ammo}/{weapon.magazine}")
    if weapon.damage:
        parts.append(f"({weapon.damage})")
    if weapon.fired:
        parts.append(f"· {weapon.fired}{f'/{weapon.rate}' if weapon.rate else ''} este turno")
    return " ".join(parts)


def _maneuver_name(id: str) -> str:
    try:
        action = find_action(id)
    except Exception:  # noqa: BLE001 - an ambiguous id is shown as typed
        action = None
    return action.name if action is not None else id


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def cs_panel_rows(c: Combatant, fight: Fight) -> tuple[PanelRow, ...]:
    """What the side panel says about a C-System combatant (SYSTEMS.md §2.1)."""
    c = current(c, fight.turn)
    s = sheet_of(c)
    out = is_out(s)
    used = budget.used_text(s.used)
    d = defense(s)
    temp = temp_changes(s)
    rows = [
        PanelRow("Este turno", (("✓ " if s.acted else "") + " ".join(used)) or "—",
                 RowRole.DIM if s.acted else RowRole.NORMAL),
        PanelRow("Queda", left_text(c, fight) if fight.started else budget.left_text(budget.left(s)),
                 RowRole.AC),
        PanelRow("Maniobras", ", ".join(_maneuver_name(m) for m in s.maneuvers) or "—"),
        PanelRow("Iniciativa", "".join(span.text for span in initiative_parts(fight, s)[0])
                 if s.initiative is not None else "sin iniciativa",
                 RowRole.WARNING if s.shift or s.initiative is None else RowRole.NORMAL),
        PanelRow("Defensa", d.breakdown, RowRole.WARNING if temp else RowRole.NORMAL),
    ]
    if d.ranged != d.melee:
        rows.append(PanelRow("", f"dist {d.ranged} · cc {d.melee}"))
    if temp:
        rows.append(PanelRow("", ", ".join(temp) + " hasta su turno", RowRole.WARNING))
    herido = "" if s.robot else f" · Herido < {s.con}"
    rows.append(PanelRow("Vitalidad", vitality_text(s) + herido,
                         RowRole.WARNING if vitality_role(s) is not Role.TEXT else RowRole.NORMAL))
    rows.append(PanelRow("Aplomo", "—" if s.composure is None
                         else f"{s.composure}/{s.composure_max} · mitad {(s.composure_max or 0) // 2}"))
    rows.append(PanelRow("Energía", "—" if s.energy is None
                         else f"{s.energy}/{s.energy_max} · VOL {s.wil}"))
    if s.criticals:
        rows.append(PanelRow("Críticas", f"{s.criticals} · próxima 1d20 + {s.criticals}",
                             RowRole.WARNING))
    cap = max(s.per - 4, 0)
    rows.append(PanelRow("Apuntar", (f"+{s.aim}" if s.aim else "—") + f" (máx. +{cap})",
                         RowRole.GOOD if s.aim else RowRole.NORMAL))
    mods = attack_modifiers(s)
    if mods:
        rows.append(PanelRow("Próx. ataque", ", ".join(f"{_signed(v)} {k}" for k, v in mods),
                             RowRole.GOOD if sum(v for _, v in mods) > 0 else RowRole.WARNING))
    weapons = [_weapon_text(w) for w in s.weapons] or ["—"]
    rows += [PanelRow("Armas" if i == 0 else "", text) for i, text in enumerate(weapons)]
    states = [condition_text(cond, s, fight.actor == c.name) for cond in s.conditions]
    rows.append(PanelRow("Estados", ", ".join(states) or "—",
                         RowRole.DIM if out else RowRole.WARNING if states else RowRole.NORMAL))
    for index, prompt in enumerate(s.pending):
        rows.append(PanelRow("Pendiente" if index == 0 else "", prompt_text(prompt), RowRole.CARRIED))
    rows += [PanelRow("Notas" if i == 0 else "", note.text) for i, note in enumerate(c.notes)]
    return tuple(rows)


# ---------------------------------------------------------------- the action picker


#: Actions whose line needs more than the name (a target, a weapon): what the
#: picker writes on the `:` line for the DJ to finish.
_TYPED = {"atacar": "ataca ", "primeros-auxilios": "primeros-auxilios ", "sacudir": "sacudir ",
          "desarmar": "desarmar a ", "cambiar-modo": "modo "}


def _kinds(type_: str) -> tuple[str, ...]:
    return {"complex": (budget.COMPLEX,), "simple": (budget.SIMPLE,),
            "either": (budget.SIMPLE, budget.COMPLEX)}.get(type_, ())


@at_turn
def action_choices(fight: Fight, name: str) -> tuple[ActionChoice, ...]:
    """The maneuvers and named actions `name` may still take in its go: those its
    budget allows (`budget.allows`) and, for the 11 maneuvers, not used yet this
    turn (CSYSTEM §5.1).  A maneuver with two forms (Cubrirse) gives one entry per
    form allowed; an attack asks for its target (`a `) on the `:` line."""
    return tuple(_choices(fight, name))


@at_turn
def has_action_choice(fight: Fight, name: str) -> bool:
    """Whether `action_choices(fight, name)` has any (found at the first)."""
    return next(_choices(fight, name), None) is not None


def _choices(fight: Fight, name: str) -> Iterator[ActionChoice]:
    """`action_choices`, one by one."""
    c = fight.find(name)
    if c is None:
        return
    s = sheet_of(c)
    who = quote(c.name)
    seen: set[str] = set()
    for action in actions().values():
        if action.id in seen:
            continue
        seen.add(action.id)
        if action.maneuver and action.id in s.maneuvers:
            continue
        mark = {"complex": "■", "simple": "□", "either": "□/■", "free": "gratis",
                "turn": "todo el turno"}.get(action.type, action.type)
        if action.type == "free":
            yield ActionChoice(f"{action.name} (gratis)", f"{who} {action.id} ", False)
            continue
        if action.type == "turn":
            if not s.used:
                yield ActionChoice(f"{action.name} ({mark})", f"{who} {action.id}")
            continue
        kinds = [k for k in _kinds(action.type) if budget.allows(s, k)]
        if not kinds:
            continue
        if action.type == "either":
            for kind in kinds:
                word = "simple" if kind == budget.SIMPLE else "compleja"
                yield ActionChoice(f"{action.name} {word} ({budget.MARK[kind]})", f"{who} {action.id} {word}")
            continue
        label = f"{action.name} ({mark})" + ("" if action.maneuver else " · acción")
        if action.id in _TYPED:
            yield ActionChoice(label, f"{who} {_TYPED[action.id]}", False)
        elif action.attack:
            yield ActionChoice(label, f"{who} {action.id} a ", False)
        else:
            yield ActionChoice(label, f"{who} {action.id}")


# ---------------------------------------------------------------- completing a typed line

#: The words of C-System's command language (SYSTEMS.md §2.2) a line may start with
#: or hold, for Tab on the `:` line.
KEYWORDS = (
    "alta", "arma", "iniciativa", "tirar", "sorpresa", "cambiar", "orden", "empezar",
    "siguiente", "turno", "dano", "dolor", "refleja", "critica", "cura", "energia", "aplomo",
    "estado", "municion", "deshacer", "rehacer", "baja", "nota", "revelar", "ocultar",
    "compleja", "simple", "gratis", "ataca", "recarga", "modo", "retrasa", "tras", "final", "fin",
    "tirada=", "dano=", "tipo=", "arma=", "mod=", "turnos=", "letal", "balistico", "energia",
    "conmocion", "parcial", "casi-completa",
)


def completions(fight: Fight, before: str) -> tuple[str, ...]:
    """What the last word of `before` may become: the fight's names (quoted when of
    several words), the actions' ids, the conditions after «+», the keywords.  A
    stand-in for the command language's own completion, which knows CdB only."""
    word = before.rpartition(" ")[2]
    if word.startswith('"'):
        return ()
    key = word.casefold()
    if key.startswith("+"):
        pool = ["+" + id for id in CONDITIONS]
    else:
        pool = [quote(c.name) for c in fight.combatants]
        pool += sorted({a.id for a in actions().values()}) + list(KEYWORDS)
    found = [w for w in dict.fromkeys(pool) if fold(w.strip('"')).startswith(fold(key.strip('"')))]
    return tuple(found) if key else ()


def complete(fight: Fight, before: str) -> tuple[str | None, tuple[str, ...]]:
    """Tab on `before`: (the completed line, or None; the candidates when several).
    The line grows by what all the candidates share."""
    found = completions(fight, before)
    head, space, word = before.rpartition(" ")
    if not found:
        return None, ()
    if len(found) == 1:
        return f"{head}{space}{found[0]} ", ()
    shared = found[0]
    for other in found[1:]:
        while not other.casefold().startswith(shared.casefold()):
            shared = shared[:-1]
    grown = f"{head}{space}{shared}" if len(shared) > len(word) else None
    return grown, found
