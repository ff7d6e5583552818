"""What a C-System fight shows (SYSTEMS.md §2.1, §2.4), as plain data: the list in
initiative order (`cs_rows`), the text board of `cdbtui do`/`show`
(`cs_board_text`) and the JSON state of `cdbtui show --json` (`cs_state_json`).

Pure functions of the fight: no Textual, no Rich.  With `for_players=True` they
show what players may see of the fight `players.players_fight` gives them: a
private PNJ's numbers as "?" (text) or None (JSON).  Who is left out (hidden
PNJ) and which log entries stay is decided in `cdbtui.players`, never here.
Every text the GM typed (names, weapons, notes, the fight's name) goes through
`literal`.
"""

from __future__ import annotations

from attrs import frozen

from ..engine.catalog import RULES_ES
from ..engine.commands import quote
from ..engine.csystem import budget, health
from ..engine.csystem.common import at_turn, current, is_out
from ..engine.csystem.common import turn_over as _turn_over
from ..engine.csystem.defense import cover_level, defense
from ..engine.csystem.model import CsCondition, CsSheet, Prompt, Weapon, part_of
from ..engine.csystem.tables import CONDITIONS
from ..engine.model import Combatant, Fight
from ..printable import literal
from .sheet import cells, signed, turns_left

#: The label of the ruleset in headers and exports.
RULES_LABEL = RULES_ES.get("csystem", "C-System")
#: What a private PNJ's number shows as, in the players' text.
SECRET = "?"
#: What an empty cell shows.
NONE = "—"
#: The start-of-go effects that put `⟳` before a name (SYSTEMS.md §2.1).
START_EFFECTS = ("sangrando", "moribundo", "confuso", "aturdido")
#: Fire modes as the sheet writes them.
MODE_ES = {"simple": "simple", "sa": "SA", "fa": "FA", "pesado": "pesado", "continuo": "continuo"}
#: The list's headings (SYSTEMS.md §2.1).
HEADINGS = ("#", "INI", "Nombre", "NH", "Este turno", "Queda", "Def dist·cc", "Vitalidad")


def is_secret(c: Combatant) -> bool:
    """A private PNJ: players see `?` for its numbers (a PJ's are its player's own)."""
    return c.private and not c.is_pc


def sheet_of(c: Combatant) -> CsSheet:
    """Its C-System sheet (an empty one if the engine has not given it one yet)."""
    return c.sheet if isinstance(c.sheet, CsSheet) else CsSheet()


def order_of(fight: Fight) -> tuple[str, ...]:
    """The names in initiative order (first acts first)."""
    return part_of(fight).order


def place_of(fight: Fight, name: str) -> int | None:
    """Its 1-based place in the order, None when it has none yet."""
    key = name.casefold()
    for index, other in enumerate(order_of(fight), start=1):
        if other.casefold() == key:
            return index
    return None


@at_turn
def placed(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants with a place, in the order."""
    found = (fight.find(name) for name in order_of(fight))
    return tuple(c for c in found if c is not None)


@at_turn
def in_order(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants in the order's places, then those with no place (roster order)."""
    first = placed(fight)
    keys = {c.key for c in first}
    return (*first, *(c for c in fight.combatants if c.key not in keys))


def actor_of(fight: Fight) -> Combatant | None:
    return fight.find(fight.actor) if fight.started and fight.actor else None


def turn_over(fight: Fight) -> bool:
    """Nobody's go is under way in a started fight (the engine starts the next turn
    by itself, so this is seldom seen: everyone out, or nobody able to act)."""
    return _turn_over(fight)


@at_turn
def next_after(fight: Fight) -> Combatant | None:
    """Who acts when the actor's go ends: the first in the order who has not had its
    go this turn (CSYSTEM §3.5), the actor aside; None: the turn ends."""
    actor = actor_of(fight)
    for c in placed(fight):
        if (actor is None or c.key != actor.key) and not sheet_of(c).acted:
            return c
    return None


@at_turn
def header(fight: Fight) -> str:
    """"Azotea · C-System · Turno 1 · Actúa: Titán (4.º de 4) · luego: fin del turno"."""
    parts = [literal(fight.name), RULES_LABEL]
    if not fight.started:
        return " · ".join([*parts, "preparación"])
    return " · ".join([*parts, *turn_parts(fight)])


@at_turn
def turn_parts(fight: Fight) -> list[str]:
    """["Turno 1", "Actúa: Titán (4.º de 4)", "luego: fin del turno"]."""
    parts = [f"Turno {fight.turn}"]
    actor = actor_of(fight)
    if actor is None:
        return [*parts, "turno terminado"]
    place = place_of(fight, actor.name)
    where = f" ({place}.º de {len(order_of(fight))})" if place is not None else ""
    parts.append(f"Actúa: {literal(actor.name)}{where}")
    then = next_after(fight)
    parts.append(f"luego: {literal(then.name) if then is not None else 'fin del turno'}")
    return parts


@at_turn
def headline(fight: Fight) -> str:
    """The players' big line: "Turno 2 · Actúa: Centella"."""
    if not fight.started:
        return f"{literal(fight.name)} · preparación"
    actor = actor_of(fight)
    if actor is None:
        return f"Turno {fight.turn} · turno terminado"
    return f"Turno {fight.turn} · Actúa: {literal(actor.name)}"


# ---------------------------------------------------------------- cells


def initiative_text(s: CsSheet, secret: bool) -> str:
    """"22", "17 ↓5", "14 (tras Titán)"; "—" before it is typed."""
    if secret:
        text = SECRET
    else:
        text = NONE if s.initiative is None else str(s.initiative)
    if s.shift:
        text += f" {'↓' if s.shift < 0 else '↑'}{abs(s.shift)}"
    if s.after:
        text += f" (tras {literal(s.after)})"
    return text


def turn_text(s: CsSheet) -> str:
    """"✓ ■ □ ■": had its go (✓) and the actions it took this turn, in order."""
    marks = [budget.MARK[kind] for kind in s.used if kind in budget.MARK]
    return " ".join((["✓"] if s.acted else []) + marks)


def left_pairs(s: CsSheet) -> tuple[tuple[int, int], ...]:
    """What is left of its go: nothing once it has had it."""
    return () if s.acted else budget.left(s)


def defense_text(s: CsSheet, secret: bool) -> str:
    """"26", "22 · 18" (ranged · melee when they differ), "34 (esq.+5)"."""
    if secret:
        return SECRET
    d = defense(s)
    text = str(d.ranged) if d.ranged == d.melee else f"{d.ranged} · {d.melee}"
    changes = []
    if s.dodge:
        changes.append(f"esq.{signed(s.dodge)}")
    if s.charged:
        changes.append("cargar −2")
    return f"{text} ({', '.join(changes)})" if changes else text


def vitality_text(s: CsSheet, secret: bool) -> str:
    """"43/48", with temporary Vitalidad "43/48 +5"."""
    if secret:
        return f"{SECRET}/{SECRET}"
    text = f"{s.vitality}/{s.vitality_max}"
    return f"{text} +{s.temp_vitality}" if s.temp_vitality else text


def condition_text(condition: CsCondition, s: CsSheet, *, secret: bool = False) -> str:
    """"tumbado", "sangrando 1", "a cubierto (parcial)", "ensordecido (−5 ini)",
    with what is left of a duration ("deslumbrado · 2 turnos suyos")."""
    info = CONDITIONS.get(condition.id)
    text = info.name.lower() if info is not None else literal(condition.id)
    if condition.id == "ensordecido":
        text += " (−5 ini)"
    elif condition.value is not None:
        if secret:
            text += f" {SECRET}"
        elif condition.id == "a-cubierto":
            level = cover_level(s)
            shown = (level or "perdida").replace("-", " ")
            text += f" ({literal(shown)})"
        else:
            text += f" {literal(condition.value)}"
    if condition.ends is not None and not secret:
        left = condition.ends - s.goes
        text += " · acaba con su turno" if left <= 0 else \
            f" · {left} turno{'s' if left != 1 else ''} suyo{'s' if left != 1 else ''}"
    return text


def states_text(c: Combatant, *, secret: bool = False) -> str:
    """All that is on it beyond its numbers: conditions, temporary changes to
    Defensa, aim, critical wounds ("" when nothing)."""
    s = sheet_of(c)
    parts = [condition_text(cond, s, secret=secret) for cond in s.conditions]
    if not secret:
        if s.dodge:
            parts.append(f"esquivar {signed(s.dodge)} (hasta el inicio de su turno)")
        if s.charged:
            parts.append("cargar −2 a la Defensa (hasta el inicio de su turno)")
        if s.aim:
            parts.append(f"apunta {signed(s.aim)}")
        if s.criticals:
            word = "herida crítica" if s.criticals == 1 else "heridas críticas"
            parts.append(f"{s.criticals} {word} (próxima tirada +{s.criticals})")
    if s.surprised and not s.has("desprevenido"):
        parts.append("sorprendido")
    return ", ".join(parts)


def prompt_text(prompt: Prompt, *, secret: bool = False) -> str:
    """The one-line prompt of a roll the table makes ("tirada de dolor: CON vs ND 23")."""
    nd = SECRET if secret or prompt.nd is None else str(prompt.nd)
    if prompt.roll == "dolor":
        return f"tirada de dolor: CON vs ND {nd}"
    if prompt.roll == "refleja":
        why = "para no perder Vitalidad" if prompt.reason == "moribundo" else "para despertar"
        return f"tirada refleja de CON vs ND {SECRET if secret else prompt.nd or 20} {why}"
    if prompt.roll == "critica":
        bonus = SECRET if secret else str(prompt.bonus)
        return f"heridas críticas: tira 1d20 + {bonus}"
    if prompt.roll == "aplomo":
        return "¿queda inconsciente? (decide el DJ)"
    return literal(prompt.roll)


def weapon_text(w: Weapon, *, secret: bool = False) -> str:
    """"pistola SA 14/15 (2d6)", "puños (3d6)"."""
    text = literal(w.name)
    if w.mode:
        text += f" {MODE_ES.get(w.mode, literal(w.mode))}"
    if w.magazine:
        text += f" {SECRET}/{SECRET}" if secret else f" {w.ammo}/{w.magazine}"
    if w.damage and not secret:
        text += f" ({literal(w.damage)})"
    return text


def start_pending(c: Combatant, fight: Fight) -> bool:
    """`⟳`: an effect waits for the start of its next go (sangrando, moribundo's
    roll, confuso, aturdido, the waking roll)."""
    s = sheet_of(current(c, fight.turn))
    if s.acted or s.begun:
        return False
    if any(s.has(id) for id in START_EFFECTS) and not s.has("estabilizado"):
        return True
    return s.unconscious_since is not None and fight.turn - s.unconscious_since >= 10


# ---------------------------------------------------------------- the list


@frozen
class Row:
    """One line of the list, every cell already text (SYSTEMS.md §2.1)."""

    name: str
    place: str
    acts: bool
    acted: bool
    out: bool
    start_effect: bool
    initiative: str
    level: str
    turn: str
    left: str
    defense: str
    vitality: str

    @property
    def cells(self) -> tuple[str, ...]:
        mark = "▶" if self.acts else " "
        name = ("⟳ " if self.start_effect else "") + self.name
        return (mark + self.place, self.initiative, name, self.level, self.turn,
                self.left, self.defense, self.vitality)


@at_turn
def cs_rows(fight: Fight, *, for_players: bool = False) -> tuple[Row, ...]:
    """The list: one row per combatant in the order, then those with no place."""
    actor = actor_of(fight)
    rows = []
    for c in in_order(fight):
        s = sheet_of(c)
        secret = for_players and is_secret(c)
        place = place_of(fight, c.name)
        acts = actor is not None and c.key == actor.key
        rows.append(Row(
            name=literal(c.name),
            place=NONE if place is None else str(place),
            acts=acts,
            acted=s.acted,
            out=is_out(s),
            start_effect=start_pending(c, fight),
            initiative=initiative_text(s, secret),
            level=SECRET if secret else str(s.level),
            turn=turn_text(s),
            left=SECRET if secret else budget.left_text(left_pairs(s)),
            defense=defense_text(s, secret),
            vitality=vitality_text(s, secret),
        ))
    return tuple(rows)


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(width - cells(text), 0)
    return gap + text if right else text + gap


def list_lines(rows: tuple[Row, ...]) -> list[str]:
    """The list as aligned text lines, headings first."""
    table = [(" " + HEADINGS[0], *HEADINGS[1:]), *(row.cells for row in rows)]
    widths = [max(cells(line[i]) for line in table) for i in range(len(HEADINGS))]
    lines = []
    for line in table:
        padded = [_pad(text, widths[i], right=(i == 3)) for i, text in enumerate(line)]
        lines.append("  ".join(padded).rstrip())
    return lines


def states_lines(combatants: tuple[Combatant, ...], *, for_players: bool = False) -> list[str]:
    """"Estados: Sicario 1 tumbado", then one line per other combatant with any
    ("         Centella ensordecido (−5 ini)"), aligned under the first."""
    found = []
    for c in combatants:
        text = states_text(c, secret=for_players and is_secret(c))
        if text:
            found.append(f"{literal(c.name)} {text}")
    head = "Estados: "
    return [(head if i == 0 else " " * len(head)) + text for i, text in enumerate(found)]


def pending_lines(combatants: tuple[Combatant, ...], *, for_players: bool = False) -> list[str]:
    """"Pendiente: Sicario 1 · tirada de dolor: CON vs ND 23 («dolor "Sicario 1" TOTAL»)":
    the GM's with the answering command (the engine's wording), the players' without."""
    lines = []
    for c in combatants:
        secret = for_players and is_secret(c)
        if secret:  # a pain roll waiting would tell its Vitalidad fell below its CON
            continue
        for prompt in sheet_of(c).pending:
            said = prompt_text(prompt) if for_players else health.prompt_text(prompt, quote(c.name))
            lines.append(f"Pendiente: {literal(c.name)} · {literal(said)}")
    return lines


@at_turn
def extra_lines(fight: Fight, combatants: tuple[Combatant, ...], *, for_players: bool = False) -> list[str]:
    """Weapons, notes and those with no place yet."""
    lines = []
    armed = [f"{literal(c.name)}: " + ", ".join(weapon_text(w, secret=for_players and is_secret(c))
                                             for w in sheet_of(c).weapons)
             for c in combatants if sheet_of(c).weapons]
    if armed:
        lines.append("Armas: " + " · ".join(armed))
    for c in combatants:
        for note in c.notes:
            left = turns_left(note.until, fight)
            tail = "" if left is None else f" ({left} turno{'s' if left != 1 else ''})"
            lines.append(f"Nota: {literal(c.name)}: {literal(note.text)}{tail}")
    unplaced = [literal(c.name) for c in combatants if place_of(fight, c.name) is None]
    if unplaced:
        lines.append("Sin iniciativa: " + ", ".join(unplaced))
    return lines


@at_turn
def cs_lines(fight: Fight, *, for_players: bool = False, log_lines: int = 5) -> list[str]:
    """The whole board as lines: header, list, states, prompts, extras, the log."""
    combatants = in_order(fight)
    lines = [header(fight) if not for_players else headline(fight), ""]
    if combatants:
        lines += list_lines(cs_rows(fight, for_players=for_players))
        below = (states_lines(combatants, for_players=for_players)
                 + pending_lines(combatants, for_players=for_players)
                 + extra_lines(fight, combatants, for_players=for_players))
        if below:
            lines += ["", *below]
    else:
        lines.append("Sin combatientes.")
    if log_lines and fight.log:
        lines.append("")
        lines += [literal(str(entry)) for entry in fight.log[-log_lines:]]
    return lines


@at_turn
def cs_board_text(fight: Fight, *, log_lines: int = 5, for_players: bool = False) -> str:
    """The plain-text board that `cdbtui do` and `cdbtui show` print."""
    return "\n".join(cs_lines(fight, for_players=for_players, log_lines=log_lines))


# ---------------------------------------------------------------- JSON


def _hidden_if(secret: bool, value):
    return None if secret else value


def _prompt_json(prompt: Prompt, secret: bool) -> dict:
    found: dict = {"roll": prompt.roll, "nd": _hidden_if(secret, prompt.nd)}
    if prompt.roll == "critica":
        found["bonus"] = _hidden_if(secret, prompt.bonus)
    return found


def _combatant_json(c: Combatant, fight: Fight, for_players: bool) -> dict:
    s = sheet_of(c)
    secret = for_players and is_secret(c)
    d = defense(s)
    return {
        "name": c.name,
        "side": c.side,
        "hidden": c.hidden,
        "private": c.private,
        "notes": [{"text": note.text, "turns_left": turns_left(note.until, fight)}
                  for note in c.notes],
        "initiative": _hidden_if(secret, s.initiative),
        "after": s.after,
        "place": place_of(fight, c.name),
        "acted": s.acted,
        "level": _hidden_if(secret, s.level),
        "used": list(s.used),
        "left": None if secret else [list(p) for p in left_pairs(s)],
        "maneuvers": list(s.maneuvers),
        "defense": None if secret else {"ranged": d.ranged, "melee": d.melee},
        "vitality": _hidden_if(secret, s.vitality),
        "vitality_max": _hidden_if(secret, s.vitality_max),
        "composure": _hidden_if(secret, s.composure),
        "energy": _hidden_if(secret, s.energy),
        "criticals": _hidden_if(secret, s.criticals),
        "aim": _hidden_if(secret, s.aim),
        "conditions": [{"id": cond.id, "value": _hidden_if(secret, cond.value),
                        "ends": _hidden_if(secret, cond.ends)} for cond in s.conditions],
        "weapons": [{"name": w.name, "mode": w.mode, "ammo": _hidden_if(secret, w.ammo),
                     "magazine": _hidden_if(secret, w.magazine),
                     "fired": _hidden_if(secret, w.fired)} for w in s.weapons],
        "pending": _prompt_json(s.pending[0], secret) if s.pending and not secret else None,
    }


@at_turn
def cs_state_json(fight: Fight, *, for_players: bool = False) -> dict:
    """The state contract of `cdbtui show --json` for C-System (SYSTEMS.md §2.4):
    the shared fields first (schema, name, rules, turn, turn_over), then the order."""
    actor = actor_of(fight)
    return {
        "schema": 1,
        "name": fight.name,
        "rules": fight.rules,
        "turn": fight.turn,
        "turn_over": turn_over(fight),
        "actor": None if actor is None else actor.name,
        "order": list(order_of(fight)),
        "combatants": [_combatant_json(c, fight, for_players) for c in fight.combatants],
        "log": [str(entry) for entry in fight.log],
    }
