"""The storyteller ("narrador") sheet as plain data (SYSTEMS.md §3.1): a pure function of the fight.

An ordered list, one row per combatant in this turn's initiative order, walked
twice per turn (declaration from the lowest up, action from the highest down).
`build_list(fight, selected)` gives the lines the widget paints
(`tui.widgets.narrlist`), each a row of spans with a `Role` (the widget styles by
role, never by text): the column titles, one row per combatant (▶ declares or acts
now, dimmed once it has acted, struck when out), its declared actions as chips with
their live dice ("Disparo 6→4", ✓ once done, "(def.)" for a declared defense),
Willpower dots, the health boxes and what it is doing; then the attack being
resolved.  Given a width, the columns fit it (the chips give way first).

Also here, for the same fight: the header (`narr_header`), the side panel's rows
(`narr_panel_rows`), the dice-pool panel's rows (`narr_dice_rows`: the attacker's
dice and difficulty with each modifier, and what the target can do to defend and
with how many dice), the ←/→ order, whom the selection follows (`focus_name`), the
marks' legend, the help's commands and the Decisions of STORYTELLER.md §14.

`for_players=True` is the players' list: hidden PNJ absent, declared actions shown
only once performed, a private PNJ's Willpower and health as "?".  Every text shown
went through `printable.literal`.
"""

from __future__ import annotations

import textwrap
from enum import StrEnum

from attrs import frozen

from ..engine.model import Combatant, Fight
from ..engine.narrador.model import LEVELS, Declared, NarrSheet, PendingAttack, dropped
from ..engine.narrador.pools import dice, slot_penalty
from ..engine.narrador.now import at_turn, current, current_fight
from ..engine.narrador.tables import BASE, find_maneuver
from ..printable import literal
from .panel import PanelRow, RowRole
from .rulesets import is_narrador  # noqa: F401 - re-exported
from .rows import Kind, Line, RowList, fit_spans, laid_out, measured, row_line, secret, selected_in
from .rows import Span as BaseSpan
from .rows import ordered as ordered_by
from .sheet import HIDDEN_MARK, cells, short

RULES_NAME = "Narrador"
SECRET = "?"

#: The marks of the list and what they mean (SYSTEMS.md §3.1): legend and help.
LEGEND = (
    ("▶", "declara (fase de declaración) o actúa (fase de acción) ahora"),
    ("Disparo 6→4", "acción declarada: reserva base → dados que tirará (en vivo: las heridas los bajan)"),
    ("Disparo −4", "sin reserva conocida: solo la penalización"),
    ("✓", "en una acción: ya hecha"),
    ("✗Disparo", "dejada sin hacer (fin o siguiente en su turno de actuar)"),
    ("(def.)", "defensa declarada: espera ataques desde su momento"),
    ("+def 3", "la siguiente defensa extra tiraría 3 dados"),
    ("Defensa total 7·6·5…", "los dados de sus siguientes defensas; los ya usados, tachados"),
    ("FV ●●●○○", "puntos de Fuerza de Voluntad de su puntuación; ○ gastados"),
    ("XX/····", "salud: X letal, / contundente, · vacío; la penalización al lado"),
    ("aturdido: pierde Disparo", "pierde su siguiente acción (la nombra)"),
    ("+1 dif", "desequilibrado (el turno siguiente), oponentes, cegado: el modificador total a la dificultad"),
    ("por declarar", "aún no ha declarado (declara después: se declara de menor a mayor)"),
    ("⚔", "el ataque que se está resolviendo: su objetivo puede defenderse, abortar o recibir el daño"),
    ("◌", "oculto a los jugadores"),
    ("atenuado / tachado", "ya actuó este turno / fuera de combate"),
)
LEGEND_SHORT = (
    ("▶", "declara / actúa"),
    ("6→4", "reserva → dados"),
    ("✓", "acción hecha"),
    ("✗", "acción dejada"),
    ("(def.)", "defensa declarada"),
    ("+def", "dados de otra defensa"),
    ("●◎○", "FV: puntos / el gastado este turno / gastados"),
    ("X/·", "letal / contundente"),
    ("⚔", "ataque en curso"),
    ("◌", "oculto a jugadores"),
)

#: STORYTELLER.md §14, Decisions at a glance (binding: the help lists every one).
DECISIONS = (
    ("Dados (3)", "éxito con el dado ≥ dificultad; cada 1 anula un éxito; fracaso = ningún éxito y algún 1; "
                  "dificultad entre 2 y 10 (por encima, 10 y decide el Narrador)."),
    ("Turno (4)", "iniciativa → declaración de menor a mayor → acción de mayor a menor; lo declarado obliga: "
                  "se puede dejar, no añadir ni cambiar."),
    ("Iniciativa (5)", "1d10 + Destreza + Astucia − salud, cada turno; empates: puntuación, Destreza, "
                       "el Narrador (orden de la lista; «cambiar A B»)."),
    ("Acciones (6)", "una por turno salvo acción múltiple; la k.ª de N: −(N + k − 1) dados; "
                     "las defensas extra siguen la cadena."),
    ("Moverse (6.5)", "moverse mientras se actúa: −1 dado por metro («metros=N»)."),
    ("Recarga (6.6)", "ocupa el turno entero, o una de N acciones con el visto bueno del Narrador."),
    ("Apuntar (6.7)", "la mira da +2 una sola vez; máximo Percepción + 2; declarar u abandonar otra acción "
                      "que no sea un disparo lo pierde (con aviso)."),
    ("Retrasar (6.9)", "permitido: actúa cuando quiera más tarde; lo no hecho al final del turno se pierde."),
    ("Daño (7.2)", "reserva de daño = arma + (éxitos netos − 1)."),
    ("Abortar (7.4)", "tirada de FV con su puntuación, sin penalizaciones; gastar un punto aborta seguro pero "
                      "la defensa se tira; sustituye la acción elegida (por defecto la última) con la penalización "
                      "de su casilla; la defensa total abortada se pierde."),
    ("Defensa total (7.6)", "cada defensa puede ser cualquier maniobra; la cuenta es una sola (7, 6, 5…)."),
    ("Emboscada (7.7)", "antes del turno 1 («emboscada A B exitos=N»); a quien ya está en combate, con aviso."),
    ("Maniobras (8)", "la tabla resumen manda en los rasgos; Dispersión +2 a la dificultad."),
    ("Munición (9)", "se cuentan las balas; pasar de la Cadencia se rechaza; media carga sin el +1; "
                     "recargar conserva la bala de la recámara."),
    ("Estados (10)", "Aturdido pierde todas las acciones y defensas de ese turno; Derribado se levanta a "
                     "dificultad 6 y cuenta como cobertura ligera; Sujetar se tira en el momento de la víctima."),
    ("Salud (11)", "7 niveles; el Narrador escribe el daño tras la absorción («dano NOMBRE N letal|contundente»)."),
    ("Fuerza de Voluntad (12)", "un punto por turno como mucho."),
)

#: The storyteller commands, for the help screen (/tmp/cs/NARR_SYNTAX.md, SYSTEMS.md §3.2).
COMMANDS_HELP = """\
`alta NOMBRE (ini=N | des=N ast=N) [fv=N] [res=N] [fue=N] [per=N] [salud=7] [sobrenatural] \
[ambidiestro] [rasgos=pelea:3,esquivar:4,armas-de-fuego:2,atletismo:3,combate-cc:2,sigilo:1,alerta:2] \
[bando=pj|pnj|X] [oculto] [privado]` ·
`arma NOMBRE ARMA [dano=N] [alcance=N] [cad=N] [cargador=N | cargador=N+1] [auto] [mira]` ·
`iniciativa NOMBRE N` · `tirar [NOMBRE…]` · `cambiar A B` · `siguiente` (o `empezar`) ·
`declara NOMBRE ACCION[:RESERVA] [N] [ACCION[:RESERVA] …]` · `declara NOMBRE defensa-total esquiva` ·
`declara NOMBRE retrasa` · `declara NOMBRE recarga` · `declara NOMBRE apuntar` ·
`NOMBRE actua [ACCION[:N]] [a OBJETIVO] [exitos=N] [metros=N] [distancia=N] [quemarropa|larga|flanco|espalda|a-ciegas] \
[localizacion-medio|localizacion-pequeno|localizacion-diminuto]` ·
`OBJETIVO defiende bloqueo|esquiva|parada [exitos=N]` ·
`OBJETIVO aborta [ACCION] tira exitos=N MANIOBRA [defensa=M]` · `OBJETIVO aborta [ACCION] gasta MANIOBRA [exitos=N]` ·
`dano NOMBRE N letal|contundente [tras-absorcion]` · `NOMBRE retrasa` · `NOMBRE fin` · `turno` ·
`fv NOMBRE -1` · `estado NOMBRE +COND` · `estado NOMBRE -COND` · `cobertura NOMBRE N` · `oponentes NOMBRE N` ·
`presa A B` · `sujeta A B` · `suelta A` · `emboscada A B exitos=N` · `sorpresa NOMBRE…` · `municion NOMBRE ARMA N` ·
`baja NOMBRE` · `nota NOMBRE TEXTO` · `revelar NOMBRE` · `ocultar NOMBRE` · `nombre TEXTO` · `deshacer` · `rehacer`

Acciones: golpe, patada, placaje, presa, sujetar, barrido, desarmar, estocada, mordisco, aranazo, estaca,
disparo, disparos-multiples, dos-armas, apuntar-localizacion, rafaga-de-tres-balas, fuego-automatico,
dispersion, apuntar, recarga,
escapar, apretar, soltar, otra; defensas: bloqueo, esquiva, parada.
Estados: derribado, desequilibrado, cegado, inmovilizado, atado, sorprendido, aturdido."""

#: Short names for the chips.
CHIP_NAMES = {
    "fuego-automatico": "F. automático", "disparos-multiples": "Disparo", "rafaga-de-tres-balas": "Ráfaga",
    "estaca": "Estaca", "escapar": "Escapar", "apretar": "Apretar", "soltar": "Soltar", "otra": "Otra",
    "longitud-del-arma": "Long. arma", "apuntar-localizacion": "Localización",
}
TRAIT_NAMES = {
    "des": "Destreza", "fue": "Fuerza", "per": "Percepción", "ast": "Astucia", "res": "Resistencia",
    "pelea": "Pelea", "esquivar": "Esquivar", "armas-de-fuego": "Armas de Fuego", "atletismo": "Atletismo",
    "combate-cc": "Combate CC", "sigilo": "Sigilo", "alerta": "Alerta",
}
STATUS_TEXT = {"to_declare": "", "declared": "", "delaying": "retrasa", "acted": "actuó",
               "stunned": "aturdido: pierde la acción", "out": "fuera de combate"}


class Role(StrEnum):
    """What a span of the list says; the widget colours by it."""

    TEXT = "text"
    TITLE = "title"
    MUTED = "muted"
    ACTOR = "actor"
    PC = "pc"
    NPC = "npc"
    CHIP = "chip"
    DONE = "done"
    DEFENSE = "defense"
    #: A die of the total defense already used this turn (struck, §3.1).
    USED = "used"
    WP = "wp"
    WP_SPENT = "wp-spent"
    LETHAL = "lethal"
    BASHING = "bashing"
    EMPTY = "empty"
    BAD = "bad"
    STATUS = "status"
    CONDITION = "condition"
    ATTACK = "attack"
    LABEL = "label"


@frozen
class Span(BaseSpan):
    """A span of the list: plain text unless told."""

    role: Role = Role.TEXT


# ---------------------------------------------------------------- reading the fight


def sheet_of(c: Combatant) -> NarrSheet:
    return c.sheet if isinstance(c.sheet, NarrSheet) else NarrSheet()


def phase_of(fight: Fight) -> str:
    return fight.narr.phase if fight.narr is not None else "initiative"


def order_of(fight: Fight) -> tuple[str, ...]:
    return fight.narr.order if fight.narr is not None else ()


def attack_of(fight: Fight) -> PendingAttack | None:
    return fight.narr.attack if fight.narr is not None else None


def declarer_of(fight: Fight) -> str | None:
    return fight.narr.declarer if fight.narr is not None else None


@at_turn
def ordered(fight: Fight, *, for_players: bool = False) -> list[Combatant]:
    """The combatants in this turn's order, then those without an initiative yet."""
    return ordered_by(fight, order_of(fight), for_players=for_players)


@at_turn
def narr_selection_order(fight: Fight) -> tuple[str, ...]:
    return tuple(c.name for c in ordered(fight))


@at_turn
def focus_name(fight: Fight) -> str | None:
    """Whom the selection follows: the declarer in the declaration phase, the actor in
    the action phase, the attacker while its attack waits (SYSTEMS §3.1's step 4: the
    side panel is Matón's while Kara's defence is resolved; «g», «b» and «x» act on
    the attack's target whatever is selected)."""
    attack = attack_of(fight)
    if attack is not None and fight.find(attack.attacker) is not None:
        return fight.find(attack.attacker).name
    phase = phase_of(fight)
    if phase == "declare":
        return declarer_of(fight)
    if phase == "act":
        return fight.actor
    return None


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def ordinal(n: int) -> str:
    return f"{n}.ª"


def maneuver_name(id: str) -> str:
    try:
        m = find_maneuver(id)
    except Exception:  # noqa: BLE001 - an ambiguous id is shown as typed
        m = None
    return m.name if m is not None else id


def chip_name(id: str) -> str:
    return CHIP_NAMES.get(id, maneuver_name(id))


def level_name(s: NarrSheet) -> str:
    return LEVELS[min(s.marked, len(LEVELS)) - 1] if s.marked else "Ileso"


# ---------------------------------------------------------------- the parts of a row


def defense_base(s: NarrSheet, maneuver: str = "esquiva") -> int | None:
    """The base pool of a defense: the one typed at its declaration, or its traits."""
    typed = next((d.pool for d in s.declared if d.defense and d.action == maneuver and d.pool is not None), None)
    if typed is not None:
        return typed
    m = find_maneuver(maneuver)
    if m is None or not m.traits:
        return None
    attribute = s.trait(m.traits[0])
    if attribute is None:
        return None
    return attribute + (s.trait(m.traits[1]) or 0 if len(m.traits) > 1 else 0) + m.accuracy


def next_defense(s: NarrSheet, maneuver: str = "esquiva") -> tuple[int | None, str] | None:
    """The dice and the words of the next defense from its declared chain or its
    total defense (as the engine's `defiende` counts them); None: it has none."""
    declared = [i for i, d in enumerate(s.declared) if d.defense]
    if not declared and not s.full_defense:
        return None
    base = defense_base(s, maneuver)
    k = s.defenses + 1
    if s.full_defense:
        penalty, what = -(k - 1), f"defensa total, {ordinal(k)} defensa"
    else:
        free = [i for i in declared if not s.declared[i].done]
        n = len(s.declared)
        if free:
            slot = free[0]
            penalty = s.declared[slot].penalty
            what = f"{maneuver_name(s.declared[slot].action)} declarada, {ordinal(slot + 1)} de {n}"
        else:
            extra = k - len(declared)
            penalty = slot_penalty(n, n + extra)  # the (N+1)-th −2N (§6.4)
            what = f"una defensa más: {ordinal(n + extra)}"
    live = None if base is None else base + penalty + s.health_penalty
    return live, what


def total_defense_spans(s: NarrSheet, base: int) -> list[Span]:
    """«Defensa total 7·6·5…» (§3.1): the dice of its defenses this turn, the used
    ones struck (`Role.USED`, each its own span), then the next three."""
    used = [max(base - k + s.health_penalty, 0) for k in range(s.defenses)]
    left = [n for n in (base - k + s.health_penalty for k in range(s.defenses, s.defenses + 3)) if n > 0]
    spans = [Span("Defensa total ", Role.DEFENSE)]
    for index, n in enumerate(used):
        if index:
            spans.append(Span("·", Role.DEFENSE))
        spans.append(Span(str(n), Role.USED))
    if left:
        spans.append(Span(("·" if used else "") + "·".join(map(str, left)) + "…", Role.DEFENSE))
    elif used:
        spans.append(Span(" sin dados", Role.DEFENSE))
    else:
        return [Span("Defensa total: sin dados", Role.DEFENSE)]
    return spans


def chip_spans(s: NarrSheet, d: Declared, *, players: bool = False, compact: bool = False) -> list[Span]:
    """A declared action's chip; `compact`: a done one without its dice (spent)."""
    name = chip_name(d.action)
    live = dice(s, d)
    if players:
        return [Span("✓" + name, Role.DONE)]
    if dropped(s, d):
        return [Span("✗" + name, Role.USED)]
    if compact and d.done:
        return [Span("✓" + name + (" (def.)" if d.defense else ""), Role.DONE)]
    if d.pool is None:
        numbers = f" {signed(d.penalty)}" if d.penalty else ""
    elif live == d.pool:
        numbers = f" {d.pool}"
    else:
        numbers = f" {d.pool}→{live}"
    m = find_maneuver(d.action)
    if m is not None and m.ammo == "all" and d.pool is not None:  # automatic fire: «17 dados, dif 8» (§3.1)
        numbers += f" dados, dif {BASE + m.difficulty}"
    text = ("✓" if d.done else "") + name + numbers + (" (def.)" if d.defense else "")
    role = Role.DONE if d.done else Role.DEFENSE if d.defense else Role.CHIP
    return [Span(text, role)]


def declared_spans(fight: Fight, c: Combatant, for_players: bool, *, compact: bool = False) -> list[Span]:
    """The chips of its declaration (players: only those performed); `compact`: the
    done ones without their dice (when the column is short, `_declared_cell`)."""
    s = sheet_of(c)
    phase = phase_of(fight)
    spans: list[Span] = []
    if phase == "declare" and s.status == "to_declare" and not for_players:
        declarer = declarer_of(fight)
        if declarer != c.name and declarer is not None and _above(fight, c.name, declarer):
            return [Span("por declarar", Role.MUTED)]
        if declarer == c.name:
            return [Span("declara…", Role.ACTOR)]
    if s.status == "delaying" and not s.declared:
        return [Span("retrasa", Role.STATUS)]
    if s.full_defense and not for_players:
        base = defense_base(s, next((d.action for d in s.declared if d.defense), "esquiva"))
        if base is None:
            return [Span("Defensa total", Role.DEFENSE)]
        return total_defense_spans(s, base)
    for d in s.declared:
        if for_players and not d.done:
            continue
        if spans:
            spans.append(Span(" · "))
        spans += chip_spans(s, d, players=for_players, compact=compact)
    if not for_players and phase != "over" and any(d.defense for d in s.declared) \
            and all(d.done for d in s.declared if d.defense):
        chain = next_defense(s)
        if chain is not None and chain[0] is not None:
            spans += [Span(" · "), Span(f"+def {chain[0]}" if chain[0] > 0 else "+def —", Role.DEFENSE)]
    return spans


def _above(fight: Fight, name: str, other: str) -> bool:
    order = order_of(fight)
    return name in order and other in order and order.index(name) < order.index(other)


def wp_spans(s: NarrSheet, hide: bool) -> list[Span]:
    if hide:
        return [Span(SECRET, Role.MUTED)]
    if s.willpower <= 0:
        return [Span("—", Role.MUTED)]
    points = max(min(s.points, s.willpower), 0)
    empty = s.willpower - points
    if s.spent and empty:  # §3.1: «a ring around the last one spent this turn»
        return [Span("●" * points, Role.WP), Span("◎", Role.WP), Span("○" * (empty - 1), Role.WP_SPENT)]
    return [Span("●" * points, Role.WP), Span("○" * empty, Role.WP_SPENT)]


def health_spans(s: NarrSheet, hide: bool) -> list[Span]:
    if hide:
        return [Span(SECRET, Role.MUTED)]
    lethal = min(s.lethal, s.levels)
    bashing = min(s.bashing, s.levels - lethal)
    empty = s.levels - lethal - bashing
    spans = [Span("X" * lethal, Role.LETHAL), Span("/" * bashing, Role.BASHING), Span("·" * empty, Role.EMPTY)]
    if s.health_penalty:
        spans.append(Span(f" {signed(s.health_penalty)}", Role.BAD))
    return [span for span in spans if span.text]


def stunned_text(fight: Fight, c: Combatant, *, for_players: bool = False) -> str | None:
    """«aturdido: pierde F. automático» (§3.1: «loses the next action (which one is
    named)»): the declared actions not done yet that it loses this turn, or the turn
    whose action it will lose; None: not stunned.  Players are not told an undone
    declared action (they see a declaration once performed)."""
    s = sheet_of(c)
    stun = next((x for x in s.conditions if x.id == "aturdido"), None)
    if s.status != "stunned" and stun is None:
        return None
    if s.status != "stunned" and stun.until is not None and stun.until > fight.turn:
        return f"aturdido: pierde el turno {stun.until}"
    lost = [] if for_players else [d for d in s.declared if not d.done]
    if lost:
        return "aturdido: pierde " + ", ".join(chip_name(d.action) + (" (def.)" if d.defense else "")
                                               for d in lost)
    if s.status == "to_declare" or not s.declared:
        return "aturdido: pierde este turno"
    return STATUS_TEXT["stunned"]


def status_text(fight: Fight, c: Combatant, *, for_players: bool = False) -> str:
    s = sheet_of(c)
    phase = phase_of(fight)
    attack = attack_of(fight)
    if s.out:
        return "fuera de combate"
    if attack is not None and attack.target == c.name and s.status != "acted":
        return "⚔ atacado"  # (one who acted says so, as SYSTEMS §3.1's step 4: the header names the attack)
    if phase == "initiative":
        return "sin iniciativa" if s.initiative is None else ""
    if phase == "declare":
        if declarer_of(fight) == c.name:
            return "declara"
        if s.status == "to_declare":
            return ""
    elif phase == "act" and fight.actor == c.name:
        return "actúa"
    if s.status == "stunned":
        return stunned_text(fight, c, for_players=for_players) or STATUS_TEXT["stunned"]
    return STATUS_TEXT.get(s.status, "")


def condition_words(s: NarrSheet, *, row: bool = False) -> list[str]:
    """Its conditions and levels in words; `row`: without those the row says
    otherwise (`row_condition_words`: the «+N dif» mark's desequilibrado and
    oponentes; aturdido)."""
    words = []
    for cond in s.conditions:
        if row and cond.id in ("desequilibrado", "aturdido"):
            continue
        if cond.id in ("presa", "sujeta", "apresado", "sujetado") and cond.value:
            words.append({"presa": "agarra a", "sujeta": "sujeta a", "apresado": "apresado por",
                          "sujetado": "sujeto por"}[cond.id] + f" {cond.value}")
        elif cond.id != "muerto":
            words.append(cond.value or cond.id)
        else:
            words.append("muerto")
    if s.ini_penalty:
        words.append(f"−{s.ini_penalty} ini")
    if s.cover:
        words.append(f"cobertura {s.cover}")
    if s.opponents > 1 and not row:
        words.append(f"{s.opponents} oponentes")
    if s.aim:
        words.append(f"apunta +{s.aim}")
    return words


def difficulty_mark(s: NarrSheet) -> str:
    """«+1 dif» (§3.1: «desequilibrado (next turn), oponentes, cegado: the total
    difficulty modifier»), as the engine adds them to each of its actions
    (desequilibrado +1, cegado +2, each opponent beyond the first +1, at most +4);
    "" when none."""
    total = (1 if s.has("desequilibrado") else 0) + (2 if s.has("cegado") else 0) \
        + min(max(s.opponents - 1, 0), 4)
    return f"+{total} dif" if total else ""


def row_condition_words(fight: Fight, c: Combatant, status: str, for_players: bool) -> list[str]:
    """The conditions as the row's Estado says them: desequilibrado and oponentes
    folded into the «+N dif» mark (cegado stays named: it also gives its attackers
    dice), aturdido naming the action it loses unless the status already does."""
    s = sheet_of(c)
    words = condition_words(s, row=True)
    stunned = None if status.startswith("aturdido") else stunned_text(fight, c, for_players=for_players)
    mark = difficulty_mark(s)
    return [*([stunned] if stunned else []), *words, *([mark] if mark else [])]


def state_spans(fight: Fight, c: Combatant, hide: bool, for_players: bool = False) -> list[Span]:
    status = status_text(fight, c, for_players=for_players)
    spans = []
    if status:
        role = Role.ATTACK if status.startswith("⚔") else Role.ACTOR if status in ("actúa", "declara") \
            else Role.BAD if status.startswith(("aturdido", "fuera")) else Role.STATUS
        spans.append(Span(status, role))
    words = [] if hide else row_condition_words(fight, c, status, for_players)
    if words:
        if spans:
            spans.append(Span(" · "))
        spans.append(Span(", ".join(words), Role.CONDITION))
    return spans


# ---------------------------------------------------------------- the header


@at_turn
def phase_words(fight: Fight, *, for_players: bool = False) -> list[str]:
    phase = phase_of(fight)
    if phase == "initiative":
        return ["Iniciativa"]
    if phase == "declare":
        parts = ["Declaración ↑"]
        who = fight.find(declarer_of(fight) or "")
        if who is not None and not (for_players and who.hidden):
            parts.append(f"Declara: {literal(who.name)} ({sheet_of(who).initiative})")
        return parts
    if phase == "act":
        parts = ["Acción ↓"]
        who = fight.find(fight.actor or "")
        if who is not None and not (for_players and who.hidden):
            parts.append(f"Actúa: {literal(who.name)} ({sheet_of(who).initiative})")
        elif who is None:
            parts.append("nadie actúa (quedan los que retrasan: «NOMBRE actua ACCION» o «turno»)")
        return parts
    return ["turno terminado"]  # `over`: the last in the order has acted (SYSTEMS §3.4)


@at_turn
def narr_header(fight: Fight, *, for_players: bool = False) -> str:
    """"Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)"."""
    parts = [literal(fight.name), RULES_NAME, f"Turno {fight.turn}", *phase_words(fight, for_players=for_players)]
    if phase_of(fight) == "initiative" and not for_players:
        parts.append("«iniciativa NOMBRE N» o «tirar», luego «siguiente»")
    if phase_of(fight) == "over" and not for_players:
        parts.append(f"«turno» empieza el turno {fight.turn + 1}")
    attack = attack_of(fight)
    if attack is not None and not for_players:
        parts.append(f"⚔ {literal(attack.attacker)} → {literal(attack.target)}")
    return " · ".join(parts)


@at_turn
def narr_headline(fight: Fight) -> str:
    """The players' big line: "Turno 1 · Acción ↓ · Actúa: Matón (13)"."""
    return " · ".join([f"Turno {fight.turn}", *phase_words(fight, for_players=True)])


# ---------------------------------------------------------------- the list

COLUMNS = (
    ("ini", " Ini"),
    ("name", "Nombre"),
    ("declared", "Declarado"),
    ("wp", "FV"),
    ("health", "Salud"),
    ("state", "Estado"),
)
GAP = 2
NAME_MIN = 5


def _fit_spans(spans: tuple[Span, ...], width: int) -> tuple[Span, ...]:
    return fit_spans(spans, width, Span)


#: Rows already made, by the combatant's id and what of the fight the row shows
#: (`_row_role`), with the combatant they were made from.
_ROWS: dict[tuple, tuple[Combatant, dict]] = {}


def _row_role(fight: Fight, c: Combatant, place: dict[str, int]) -> tuple:
    """All a row of `c` reads of the fight besides `c` (`_make_row`, `declared_spans`,
    `status_text`): the turn, the phase, whether `c` acts, declares, is still to declare above
    the declarer (`place`: the order's positions), or is being attacked.  A key
    that moves on changes the rows of two combatants, not every row."""
    phase = phase_of(fight)
    declarer = declarer_of(fight) if phase == "declare" else None
    attack = attack_of(fight)
    above = (declarer is not None and declarer != c.name and c.name in place and declarer in place
             and place[c.name] < place[declarer])
    return (fight.turn, phase, phase == "act" and fight.actor == c.name, declarer == c.name, above,
            attack is not None and attack.target == c.name)


def _row_cells(fight: Fight, c: Combatant, role: tuple, for_players: bool,
               name_width: int | None) -> dict[str, tuple[Span, ...]]:
    """A row's cells (remembered: `_ROWS`); `role` is `_row_role(fight, c, …)`."""
    key = (id(c), role, for_players, name_width)
    known = _ROWS.get(key)
    if known is not None and known[0] is c:
        return known[1]
    if len(_ROWS) > 8192:
        _ROWS.clear()
    made = {column: tuple(spans) for column, spans in _make_row(fight, c, for_players, name_width).items()}
    _ROWS[key] = (c, made)
    return made


def _make_row(fight: Fight, c: Combatant, for_players: bool, name_width: int | None) -> dict[str, list[Span]]:
    s = sheet_of(c)
    hide = secret(c, for_players)
    phase = phase_of(fight)
    marked = (phase == "act" and fight.actor == c.name) or (phase == "declare" and declarer_of(fight) == c.name)
    if for_players and c.hidden:
        marked = False
    mark = Span("▶" if marked else " ", Role.ACTOR)
    ini = Span("—" if s.initiative is None else str(s.initiative), Role.ACTOR if marked else Role.TEXT)
    prefix = HIDDEN_MARK if c.hidden and not for_players else ""
    shown = literal(c.name)
    if name_width is not None:
        shown = short(shown, max(1, name_width - len(prefix))) or shown[:1]
    name = ([Span(prefix, Role.MUTED)] if prefix else []) + [Span(shown, Role.PC if c.is_pc else Role.NPC)]
    declared = declared_spans(fight, c, for_players)
    compact = declared_spans(fight, c, for_players, compact=True)
    return {
        "ini": [mark, ini],
        "name": name,
        "declared": declared,
        **({"declared-short": compact} if compact != declared else {}),
        "wp": wp_spans(s, hide),
        "health": health_spans(s, hide),
        "state": state_spans(fight, c, hide, for_players),
    }


def _row_line(c: Combatant, row: dict, layout: tuple) -> Line:
    """`c`'s row of cells fitted to the lay-out: (columns, widths, gap)."""
    columns, widths, gap = layout
    spans: list[Span] = []
    for index, (key, size) in enumerate(zip(columns, widths)):
        if index:
            spans.append(Span(" " * gap))
        spans += _declared_cell(row, size) if key == "declared" else _fit_spans(row[key], size)
    actor = row["ini"][0].text == "▶"
    s = sheet_of(c)
    return Line(tuple(spans), Kind.ROW, c.name, c.is_pc, actor, s.status == "acted" and not actor, s.out)


def _declared_cell(row: dict, size: int) -> tuple[Span, ...]:
    """The Declarado cell in `size` cells: whole if it fits; else the done chips lose
    their dice (spent already); still too long, the chips are cut before a trailing
    «+def N» mark, which stays whole (§3.1's marks give way last)."""
    full = row["declared"]
    if measured(full) <= size:
        return _fit_spans(full, size)
    short = row.get("declared-short", full)
    if measured(short) <= size:
        return _fit_spans(short, size)
    last = short[-1] if short else None
    if last is not None and last.role is Role.DEFENSE and last.text.startswith("+def") and len(short) > 2:
        mark = short[-2:]  # « · », «+def N»
        room = size - sum(cells(span.text) for span in mark)
        if room >= 6:
            return (*_fit_spans(short[:-2], room), *mark)
    return _fit_spans(short, size)


@at_turn
def build_list(fight: Fight, selected: str | None = None, *, for_players: bool = False,
               width: int | None = None, attack_line: bool = True) -> RowList:
    """The list of `fight`, `selected` highlighted, fitted to `width` cells; the
    attack being resolved under it (`attack_line`: the DJ's screen has the
    dice-pool panel for it)."""
    rows = laid_out(("narrador", for_players, width, attack_line), fight,
                    lambda: _lay_out(fight, for_players, width, attack_line))
    return selected_in(rows, None if for_players else selected)


def _lay_out(fight: Fight, for_players: bool, width: int | None, attack_line: bool) -> RowList:
    """`build_list` with nobody selected."""
    combatants = ordered(fight, for_players=for_players)
    if not combatants:
        hint = "Sin combatientes: «:alta NOMBRE des=N ast=N …» añade uno"
        return RowList((Line((Span(hint, Role.MUTED),), Kind.EMPTY),))
    name_cap: int | None = None
    gap = GAP
    keys = [key for key, _ in COLUMNS]
    shown = set(keys)

    place = {name: index for index, name in enumerate(order_of(fight))}
    roles = [_row_role(fight, c, place) for c in combatants]

    def table():
        return [_row_cells(fight, c, role, for_players, name_cap) for c, role in zip(combatants, roles)]

    rows = table()

    # The declared column keeps room for the ✓ of each action still to perform, so
    # that performing one does not move every column (and repaint every row).
    to_come = [0 if for_players else sum(1 for d in sheet_of(c).declared if not d.done) for c in combatants]

    def widths() -> dict[str, int]:
        found = {key: max([cells(title), *(measured(row[key]) for row in rows)]) for key, title in COLUMNS}
        found["declared"] = max([found["declared"], *(measured(row["declared"]) + more
                                                      for row, more in zip(rows, to_come) if more)])
        return found

    def total(w) -> int:
        used = [w[k] for k in keys if k in shown]
        return sum(used) + gap * (len(used) - 1)

    w = widths()
    gap = GAP
    if width is not None and total(w) > width:
        # The gaps narrow, the chips give way (down to 16 cells), then the state
        # column goes, then the FV dots (the side panel has them), then the names.
        gap = 1
        if total(w) > width:
            w["declared"] = max(16, w["declared"] - (total(w) - width))
        if total(w) > width:
            w["state"] = max(10, w["state"] - (total(w) - width))
        if total(w) > width:
            shown.discard("state")
        if total(w) > width:
            shown.discard("wp")
        if total(w) > width:
            name_cap = max(NAME_MIN, w["name"] - (total(w) - width))
            rows = table()
            w["name"] = max([cells("Nombre"), *(measured(row["name"]) for row in rows)])
        if total(w) > width:
            w["declared"] = max(9, w["declared"] - (total(w) - width))
    columns = tuple(k for k in keys if k in shown)
    lines: list[Line] = []
    titles: list[Span] = []
    for index, key in enumerate(columns):
        if index:
            titles.append(Span(" " * gap))
        title = dict(COLUMNS)[key]
        titles += _fit_spans([Span(title, Role.TITLE)], w[key])
    lines.append(Line(tuple(titles), Kind.TITLES))
    layout = (columns, tuple(w[key] for key in columns), gap)
    for c, row in zip(combatants, rows):
        # A row's cells are made from `c` and its role (`_ROWS`): the same cells, the same line.
        lines.append(row_line(row, layout, (), lambda c=c, row=row: _row_line(c, row, layout)))
    attack = attack_of(fight)
    if attack is not None and attack_line:
        visible = {c.name for c in combatants}
        if attack.attacker in visible and attack.target in visible:
            lines.append(Line((), Kind.BLANK))
            text = "".join(span.text for span in attack_spans(fight, attack, for_players))
            pieces = [text] if width is None or cells(text) <= width else textwrap.wrap(
                text, max(width, 10), break_on_hyphens=False, subsequent_indent="  ")
            lines += [Line((Span(piece, Role.ATTACK),), Kind.ATTACK) for piece in pieces]
    return RowList(tuple(lines), tuple(c.name for c in combatants), columns)


def attack_spans(fight: Fight, attack: PendingAttack, for_players: bool) -> list[Span]:
    text = (f"⚔ {attack.attacker} → {attack.target} · {maneuver_name(attack.action)}: "
            f"{attack.successes} éxito{'s' if attack.successes != 1 else ''}")
    if attack.defended is not None:
        text += f", defensa {attack.defended}"
    if not for_players:
        text += " · g defender · b abortar · x daño"
    return [Span(text, Role.ATTACK)]


# ---------------------------------------------------------------- the side panel


def narr_panel_title(c: Combatant) -> str:
    side = c.side.upper() if c.side in ("pj", "pnj") else c.side
    return literal(" · ".join([c.name, side, *(["sobrenatural"] if sheet_of(c).supernatural else []),
                               *(["oculto"] if c.hidden else [])]))


def initiative_text(fight: Fight, c: Combatant) -> str:
    s = sheet_of(c)
    if s.initiative is None:
        text = f"sin iniciativa (puntuación {s.rating}"
        if s.health_penalty:
            text += f", salud {signed(s.health_penalty)}"
        if s.ini_penalty:
            text += f", derribado −{s.ini_penalty}"
        return text + ")"
    text = f"{s.initiative} · punt. {s.rating}"
    order = order_of(fight)
    ties = [n for n in order if n != c.name and fight.find(n) is not None
            and sheet_of(fight.find(n)).initiative == s.initiative]
    for other in ties:
        o = sheet_of(fight.find(other))
        first = c.name if order.index(c.name) < order.index(other) else other
        if s.rating != o.rating:
            why = f"punt. {max(s.rating, o.rating)} > {min(s.rating, o.rating)}"
        elif (s.dex or 0) != (o.dex or 0):
            why = f"Destreza {max(s.dex or 0, o.dex or 0)} > {min(s.dex or 0, o.dex or 0)}"
        else:
            why = "el Narrador"
        text += f"; empate: {first} antes ({why})"
    return text


def chip_breakdown(s: NarrSheet, d: Declared, k: int, n: int) -> str:
    """"Disparo 5 −2 −1 = 2" (base, slot, health = live dice)."""
    name = maneuver_name(d.action)
    if dropped(s, d):
        return f"✗ {name} (dejada)"
    if d.pool is None:
        return f"{'✓ ' if d.done else ''}{name}" + (f" {signed(d.penalty)}" if d.penalty else "") \
            + (" (def.)" if d.defense else "")
    parts = [str(d.pool)]
    if d.penalty:
        parts.append(f"{signed(d.penalty)}")
    if s.health_penalty:
        parts.append(f"{signed(s.health_penalty)}")
    live = dice(s, d)
    text = "".join(parts) + (f" = {live}" if len(parts) > 1 else "")
    return f"{'✓' if d.done else ''}{chip_name(d.action)} {text}" + (" (def.)" if d.defense else "")


def narr_panel_rows(c: Combatant, fight: Fight) -> tuple[PanelRow, ...]:
    """What the side panel says about a storyteller combatant (SYSTEMS.md §3.1)."""
    c, fight = current(c, fight.turn), current_fight(fight)
    s = sheet_of(c)
    rows = [PanelRow("Ini", initiative_text(fight, c),
                     RowRole.WARNING if s.initiative is None else RowRole.AC)]
    status = status_text(fight, c)
    rows.append(PanelRow("Ahora", status or "—", RowRole.DIM if s.status == "acted" else
                         RowRole.WARNING if status.startswith(("⚔", "aturdido")) else RowRole.NORMAL))
    n = len(s.declared)
    if s.full_defense:
        base = defense_base(s, next((d.action for d in s.declared if d.defense), "esquiva"))
        seq = "" if base is None else " · ".join(
            str(base - k + s.health_penalty) for k in range(s.defenses, s.defenses + 4)
            if base - k + s.health_penalty > 0)
        rows.append(PanelRow("Declarado", f"defensa total ({s.defenses} hechas): {seq or 'sin dados'}",
                             RowRole.GOOD))
    elif s.declared:
        for k, d in enumerate(s.declared, 1):
            rows.append(PanelRow("Declarado" if k == 1 else "", chip_breakdown(s, d, k, n),
                                 RowRole.DIM if d.done or dropped(s, d) else RowRole.NORMAL))
        if n > 1:
            rows.append(PanelRow("Múltiple", f"{n} acciones (" + ", ".join(signed(d.penalty) for d in s.declared)
                                 + ")"))
        chain = next_defense(s) if phase_of(fight) != "over" else None  # over: no more attacks
        if chain is not None:
            live, what = chain
            rows.append(PanelRow("Defensa", f"{what} → {'?' if live is None else live} dados",
                                 RowRole.GOOD if live and live > 0 else RowRole.WARNING))
    elif s.status == "delaying":
        rows.append(PanelRow("Declarado", "retrasa: actúa cuando quiera («NOMBRE actua ACCION»)"))
    else:
        rows.append(PanelRow("Declarado", "—"))
    if s.willpower <= 0:
        wp = "sin FV: no puede abortar"
    else:
        wp = f"{s.points}/{s.willpower}"
        if phase_of(fight) == "over":  # nothing left to abort this turn
            wp += " · punto gastado este turno" if s.spent else ""
        elif s.abort_failed and not s.aborted:  # §3.1: «FV 3/3 · abortar: tirada fallida» (§7.4.4)
            wp += " · abortar: tirada fallida" + (" · punto gastado este turno" if s.spent else "")
        else:
            wp += " · punto gastado este turno" if s.spent else f" · aborta con {s.willpower} dados o 1 punto"
    rows.append(PanelRow("FV", wp, RowRole.WARNING if s.willpower <= 0 or s.spent else RowRole.NORMAL))
    boxes = "".join(span.text for span in health_spans(s, False))
    rows.append(PanelRow("Salud", f"{level_name(s)} {signed(s.health_penalty) if s.health_penalty else ''}".strip()
                         + f" · {boxes}", RowRole.WARNING if s.marked else RowRole.NORMAL))
    threshold = s.stamina + (2 if s.supernatural else 0)
    rows.append(PanelRow("Aturdido", f"si recibe más de {threshold} niveles"))
    for index, weapon in enumerate(s.weapons):
        text = weapon.name
        if weapon.magazine:
            text += f" {weapon.ammo}/{weapon.magazine}" + ("+1" if weapon.chamber else "")
        text += f" · daño {'Fuerza +' if weapon.strength else ''}{weapon.damage}"
        if weapon.rate:
            text += f" · {weapon.shots}/{weapon.rate} este turno"
        rows.append(PanelRow("Armas" if index == 0 else "", text))
    if not s.weapons:
        rows.append(PanelRow("Armas", "—"))
    words = condition_words(s)
    rows.append(PanelRow("Estados", ", ".join(words) or "—", RowRole.WARNING if words else RowRole.NORMAL))
    rows += [PanelRow("Notas" if i == 0 else "", note.text) for i, note in enumerate(c.notes)]
    return tuple(rows)


# ---------------------------------------------------------------- the dice-pool panel


def _slot_of(s: NarrSheet, attack: PendingAttack) -> int | None:
    found = [i for i, d in enumerate(s.declared) if d.done and d.action == attack.action
             and d.target == attack.target]
    return found[-1] if found else None


def pool_rows(fight: Fight, c: Combatant, d: Declared, k: int, target: Combatant | None) -> list[PanelRow]:
    """The dice of one declared action, each term on its own row."""
    s = sheet_of(c)
    n = len(s.declared)
    m = find_maneuver(d.action)
    rows: list[PanelRow] = []
    if d.pool is None:
        rows.append(PanelRow("Reserva", "? (escribe los éxitos: «exitos=N»)", RowRole.WARNING))
    else:
        traits = m.traits if m is not None else ()
        computed = None
        if traits and s.trait(traits[0]) is not None:
            values = [(t, s.trait(t) or 0) for t in traits]
            computed = sum(v for _, v in values) + m.accuracy
        if computed == d.pool:
            label = " + ".join(f"{TRAIT_NAMES.get(t, t)} {v}" for t, v in values)
            rows.append(PanelRow(label, str(sum(v for _, v in values))))
            if m.accuracy:
                rows.append(PanelRow("Precisión", signed(m.accuracy), RowRole.GOOD))
        else:
            rows.append(PanelRow("Reserva declarada", str(d.pool)))
    if s.health_penalty:
        rows.append(PanelRow(f"Salud ({level_name(s)})", signed(s.health_penalty), RowRole.WARNING))
    if d.penalty:
        rows.append(PanelRow(f"Acción múltiple, {ordinal(k)} de {n}", signed(d.penalty), RowRole.WARNING))
    extra = 0
    if not d.done and s.aim and m is not None and m.kind == "ranged":
        rows.append(PanelRow("Apuntando", signed(s.aim), RowRole.GOOD))
        extra += s.aim
    if target is not None:
        t = sheet_of(target)
        if t.has("inmovilizado"):
            rows.append(PanelRow("Objetivo inmovilizado", "+2", RowRole.GOOD))
            extra += 2
        if t.has("cegado"):
            rows.append(PanelRow("Objetivo cegado", "+2", RowRole.GOOD))
            extra += 2
    live = dice(s, d, extra=extra)
    if live is not None:
        rows.append(PanelRow("Reserva", f"{live} dados", RowRole.AC if live > 0 else RowRole.WARNING))
    rows.append(PanelRow("Dificultad", difficulty_text(fight, c, d, target)))
    return rows


def difficulty_text(fight: Fight, c: Combatant, d: Declared, target: Combatant | None) -> str:
    s = sheet_of(c)
    m = find_maneuver(d.action)
    ranged = m is not None and m.kind == "ranged"
    total = BASE
    parts = []
    if m is not None and m.difficulty:
        total += m.difficulty
        parts.append(f"{signed(m.difficulty)} {m.name}")
    if target is not None and ranged:
        t = sheet_of(target)
        cover = max(t.cover, 1 if t.has("derribado") else 0)
        if cover:
            total += cover
            parts.append(f"+{cover} cobertura")
    if ranged and s.cover > 1:
        total += s.cover - 1
        parts.append(f"+{s.cover - 1} dispara a cubierto")
    if any(x.id == "desequilibrado" and (x.until is None or x.until == fight.turn) for x in s.conditions):
        total += 1  # (as the engine: in the turn after it was gained, §10)
        parts.append("+1 desequilibrado")
    if s.has("cegado"):
        total += 2
        parts.append("+2 cegado")
    if s.opponents > 1:
        more = min(s.opponents - 1, 4)
        total += more
        parts.append(f"+{more} oponentes")
    shown = f"{min(max(total, 2), 10)}" + (f" (+{total - 10}: el Narrador decide)" if total > 10 else "")
    detail = f" = 6 {' '.join(parts)}" if parts else ""
    range_word = " (alcance corto)" if ranged and not parts else ""
    return shown + detail + range_word


@at_turn
def defense_rows(fight: Fight, attack: PendingAttack) -> list[PanelRow]:
    """What the attack's target can do to defend, and with how many dice."""
    target = fight.find(attack.target)
    if target is None:
        return []
    s = sheet_of(target)
    name = target.name
    rows: list[PanelRow] = []
    maneuvers = ["esquiva"] if attack.ranged else ["bloqueo", "esquiva", "parada"]
    if s.has("sorprendido"):
        maneuvers = [m for m in maneuvers if m == "esquiva"]
    if "parada" in maneuvers and not any(not w.ranged for w in s.weapons):
        maneuvers.remove("parada")
    if s.has("aturdido"):
        return [PanelRow("", f"{name} está aturdido: no puede defenderse", RowRole.WARNING)]
    if attack.defended is not None:
        rows.append(PanelRow("", f"{name} ya se defendió: {attack.defended} éxito(s)", RowRole.DIM))
        return rows
    place_reached = s.status == "acted" or fight.actor == name
    declared = [d for d in s.declared if d.defense]
    if place_reached:
        pending = [d for d in declared if not d.done]
        if s.aborted and not pending:
            rows.append(PanelRow("", f"{name} ya abandonó su acción: no puede defenderse más este turno",
                                 RowRole.WARNING))
        elif not declared and not s.full_defense:
            rows.append(PanelRow("", f"{name} no declaró defensa: tras actuar no puede defenderse",
                                 RowRole.WARNING))
        else:
            for maneuver in maneuvers:
                chain = next_defense(s, maneuver)
                if chain is None:
                    continue
                live, what = chain
                dice_text = "?" if live is None else f"{live} dados" if live > 0 else "sin dados"
                how = what if what.startswith(maneuver_name(maneuver)) else f"{maneuver_name(maneuver)} ({what})"
                rows.append(PanelRow("", f"{name} se defiende: {how} → {dice_text}",
                                     RowRole.GOOD if live is None or live > 0 else RowRole.WARNING))
            after = evolve_defenses(s)
            chain = next_defense(after)
            if chain is not None and chain[0] is not None:
                rows.append(PanelRow("", f"({chain[1]} → {max(chain[0], 0)} dados)",
                                     RowRole.DIM))
    else:
        if any(c.id in ("presa", "sujeta", "apresado", "sujetado") for c in s.conditions):
            rows.append(PanelRow("", f"{name} está en una presa: no puede defenderse", RowRole.WARNING))
        elif s.willpower <= 0:
            rows.append(PanelRow("", f"{name} no ha actuado, pero sin FV no puede abortar", RowRole.WARNING))
        else:
            left = [i for i, d in enumerate(s.declared) if not d.done]
            if not left and s.status != "delaying":
                rows.append(PanelRow("", f"{name} no tiene acción que abandonar", RowRole.WARNING))
            else:
                penalty = s.declared[left[-1]].penalty if left else 0
                given_up = maneuver_name(s.declared[left[-1]].action) if left else "su acción retrasada"
                how = f"tirada de FV {s.willpower} dados, dif. 6" + (
                    "" if s.spent or s.points <= 0 else ", o gastar 1 punto")
                rows.append(PanelRow("", f"{name} no ha actuado: puede abortar ({how}) y dejar {given_up}",
                                     RowRole.NORMAL))
                for maneuver in maneuvers:
                    base = defense_base(s, maneuver)
                    live = None if base is None else base + penalty + s.health_penalty
                    dice_text = "?" if live is None else f"{live} dados" if live > 0 else "0 dados: no puede"
                    rows.append(PanelRow("", f"  abortando: {maneuver_name(maneuver)} → {dice_text}", RowRole.GOOD))
            if declared or s.full_defense:
                rows.append(PanelRow("", f"(su defensa declarada empieza en su momento, {s.initiative})",
                                     RowRole.DIM))
    return rows


def evolve_defenses(s: NarrSheet) -> NarrSheet:
    """`s` after one more defense (for "otra defensa después")."""
    from attrs import evolve

    declared = list(s.declared)
    free = [i for i, d in enumerate(declared) if d.defense and not d.done]
    if free and not s.full_defense:
        declared[free[0]] = evolve(declared[free[0]], done=True)
    return evolve(s, declared=tuple(declared), defenses=s.defenses + 1)


@at_turn
def narr_dice_rows(fight: Fight) -> tuple[str, tuple[PanelRow, ...]]:
    """The dice-pool panel («Tirada»): (its title, its rows).  While an attack waits,
    the attacker's dice and difficulty with each modifier and the target's defenses;
    in the action phase otherwise, the actor's next declared action; else nothing."""
    attack = attack_of(fight)
    if attack is not None:
        attacker = fight.find(attack.attacker)
        target = fight.find(attack.target)
        if attacker is None or target is None:
            return "", ()
        s = sheet_of(attacker)
        slot = _slot_of(s, attack)
        n = len(s.declared)
        head = f"{attacker.name} → {target.name} · {chip_name(attack.action)}"
        if slot is not None and n > 1:
            head += f" {slot + 1} de {n}"
        rows = [PanelRow("", head, RowRole.AC)]
        if slot is not None:
            rows += pool_rows(fight, attacker, s.declared[slot], slot + 1, target)
        rolled = f"{attack.successes} éxito{'s' if attack.successes != 1 else ''}"
        rows.append(PanelRow("Éxitos", rolled, RowRole.AC))
        rows += defense_rows(fight, attack)
        if attack.defended is not None:
            net = attack.successes - attack.defended
            rows.append(PanelRow("", f"Quedan {net}: daño {attack.damage} + ({net} − 1) = "
                                     f"{attack.damage + net - 1} dados", RowRole.WARNING))
        else:
            rows.append(PanelRow("", f"Sin defensa: daño {attack.damage} + ({attack.successes} − 1) = "
                                     f"{attack.damage + attack.successes - 1} dados"
                                     f" ({'letal' if attack.lethal else 'contundente'})", RowRole.WARNING))
        rows.append(PanelRow("", f"tras la absorción: «dano {target.name} N "
                                 f"{'letal' if attack.lethal else 'contundente'}»", RowRole.DIM))
        return "Tirada", tuple(rows)
    if phase_of(fight) == "act" and fight.actor:
        actor = fight.find(fight.actor)
        if actor is None:
            return "", ()
        s = sheet_of(actor)
        pending = [i for i, d in enumerate(s.declared) if not d.defense and not d.done]
        if not pending:
            return "", ()
        i = pending[0]
        d = s.declared[i]
        head = f"{actor.name} · {maneuver_name(d.action)}" + (f" {i + 1} de {len(s.declared)}"
                                                              if len(s.declared) > 1 else "")
        rows = [PanelRow("", head, RowRole.AC)]
        rows += pool_rows(fight, actor, d, i + 1, None)
        m = find_maneuver(d.action)
        if m is not None and m.attack:
            rows.append(PanelRow("", "«a» actuar: elige el objetivo y escribe los éxitos", RowRole.DIM))
        return "Próxima tirada", tuple(rows)
    return "", ()
