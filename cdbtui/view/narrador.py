"""What a storyteller ("narrador") fight shows (SYSTEMS.md §3.1, §3.4), as plain
data: the list in this turn's order (`narr_rows`), the text board of `cdbtui do` /
`show` (`narr_board_text`), the JSON state of `cdbtui show --json`
(`narr_state_json`) and what the target of the attack being resolved can do
(`defense_options`).

Pure functions of the fight: no Textual, no Rich.  With `for_players=True` they
show what players may see of the fight `players.narr_players_fight` gives them: a
private PNJ's numbers as "?" (text) or None (JSON), no defense options (they would
tell an undone declared defense).  Who is left out (hidden PNJ), which declared
actions stay (only those done) and which log entries stay is decided in
`cdbtui.players`, never here.  Every text the GM typed (names, weapons, notes, the
fight's name) goes through `literal`.

The dice of a declared action are live (SYSTEMS.md §4 "Live pools"): computed here
with the engine's `pools.dice`, never stored.
"""

from __future__ import annotations

from attrs import frozen

from ..engine.catalog import RULES_ES
from ..engine.model import Combatant, Fight
from ..engine.narrador.model import (
    LEVELS,
    Declared,
    NarrPart,
    NarrSheet,
    NWeapon,
    PendingAttack,
    dropped,
)
from ..engine.narrador.now import at_turn
from ..engine.narrador.pools import dice, pool_of, slot_penalty
from ..engine.narrador.tables import find_maneuver, weapons
from ..printable import literal
from .sheet import cells, turns_left

#: The label of the ruleset in headers and exports.
RULES_LABEL = RULES_ES.get("narrador", "Narrador")
#: What a private PNJ's number shows as, in the players' text.
SECRET = "?"
#: What an empty cell shows.
NONE = "—"
#: The list's headings (SYSTEMS.md §3.1).
HEADINGS = ("Ini", "Nombre", "Declarado", "FV", "Salud", "Estado")
#: The phases as the header writes them, with their direction.
PHASE_ES = {"initiative": "Iniciativa", "declare": "Declaración ↑", "act": "Acción ↓", "over": "turno terminado"}
#: A combatant's status as the Estado column writes it.
STATUS_ES = {"to_declare": "por declarar", "declared": "declarado", "delaying": "retrasa",
             "acted": "actuó", "stunned": "aturdido: pierde la acción", "out": "fuera de combate"}
#: Short names of long maneuvers on a chip.
SHORT = {"fuego-automatico": "F. automático", "disparos-multiples": "Disparo",
         "rafaga-de-tres-balas": "Ráfaga de 3", "apuntar-localizacion": "Localización"}
DEFENSES = ("esquiva", "bloqueo", "parada")


def is_secret(c: Combatant) -> bool:
    """A private PNJ: players see `?` for its numbers (a PJ's are its player's own)."""
    return c.private and not c.is_pc


def sheet_of(c: Combatant) -> NarrSheet:
    """Its storyteller sheet (an empty one if the engine has not given it one yet)."""
    return c.sheet if isinstance(c.sheet, NarrSheet) else NarrSheet()


def part_of(fight: Fight) -> NarrPart:
    return fight.narr if fight.narr is not None else NarrPart()


def order_of(fight: Fight) -> tuple[str, ...]:
    """This turn's order, highest initiative first (those with an initiative)."""
    return part_of(fight).order


@at_turn
def in_order(fight: Fight) -> tuple[Combatant, ...]:
    """The combatants in the order, then those with no initiative yet (roster order)."""
    found = [fight.find(name) for name in order_of(fight)]
    first = [c for c in found if c is not None]
    keys = {c.key for c in first}
    return (*first, *(c for c in fight.combatants if c.key not in keys))


@at_turn
def actor_of(fight: Fight) -> Combatant | None:
    return fight.find(fight.actor) if part_of(fight).phase == "act" and fight.actor else None


@at_turn
def declarer_of(fight: Fight) -> Combatant | None:
    p = part_of(fight)
    return fight.find(p.declarer) if p.phase == "declare" and p.declarer else None


def action_name(id: str) -> str:
    """"Disparo", "Fuego automático"; a typed id as it is."""
    m = find_maneuver(id) if id else None
    return m.name if m is not None and m.id == id else literal(id)


def weapon_id(w: NWeapon) -> str:
    """The seed's table id of a preset weapon ("revolver-ligero"), else its name."""
    for key, preset in weapons().items():
        if preset.name == w.name:
            return key
    return w.name


# ---------------------------------------------------------------- numbers


def live_dice(s: NarrSheet, d: Declared) -> int | None:
    """The dice a declared action rolls now (pool + slot + health), never below 0."""
    found = dice(s, d)
    return None if found is None else max(found, 0)


def next_defense_penalty(s: NarrSheet) -> int | None:
    """The penalty of its next defense from its place on (STORYTELLER §6.4, §7.6),
    as the engine picks the slot: total defense −(k − 1); a declared defense still
    free, its slot's; after them, one more slot each.  None: it declared no
    defense (only an abort could defend it), or its abort used its defense."""
    defenses = [d for d in s.declared if d.defense]
    k = s.defenses + 1
    if s.full_defense:
        return -(k - 1)
    free = [d for d in defenses if not d.done]
    if free:
        return free[0].penalty
    if not defenses or s.aborted:
        return None
    n = len(s.declared)
    extra = k - len(defenses)
    return slot_penalty(n, n + extra)  # the (N+1)-th −2N, as the engine rolls it (§6.4)


def defense_base(s: NarrSheet, action: str) -> int | None:
    """The base pool of a defense: its declared pool, else traits (Destreza + …)."""
    typed = next((d.pool for d in s.declared if d.defense and d.action == action), None)
    if typed is not None:
        return typed
    m = find_maneuver(action)
    return None if m is None else pool_of(s, m, None)


def full_defense_dice(s: NarrSheet, count: int = 3) -> list[int]:
    """The dice of its next total defenses (7·6·5…), the used ones left out."""
    actions = [d.action for d in s.declared if d.defense] or ["esquiva"]
    base = defense_base(s, actions[0])
    if base is None:
        return []
    found = []
    for k in range(s.defenses + 1, s.defenses + 1 + count):
        value = base - (k - 1) + s.health_penalty
        if value > 0:
            found.append(value)
    return found


@frozen
class DefenseOption:
    """One way the target can answer the attack being resolved: `how` ∈ `defend`
    (declared, extra or total defense: `defiende`), `abort` (`aborta … tira|gasta`);
    `dice` None when the tracker does not know the pool."""

    how: str
    action: str
    dice: int | None
    text: str


def _abort_blocker(fight: Fight, c: Combatant) -> str | None:
    s = sheet_of(c)
    if s.status == "acted" or (fight.actor == c.name and any(d.done for d in s.declared)):
        return "ya ha actuado"
    if s.willpower <= 0:
        return "sin Fuerza de Voluntad"
    if any(x.id in ("presa", "sujeta", "apresado", "sujetado") and x.value for x in s.conditions):
        return "en una presa"
    if not any(not d.done for d in s.declared) and s.status != "delaying":
        return "nada que abandonar"
    return None


@at_turn
def defense_options(fight: Fight, attack: PendingAttack | None = None) -> tuple[tuple[DefenseOption, ...], str]:
    """What the target of the attack being resolved can do, and with how many dice
    (SYSTEMS.md §3.1, the panel under `Tirada`), mirroring the engine's checks; and
    a reason when it can do nothing ("aturdido", "ya abandonó su acción"…)."""
    attack = attack or part_of(fight).attack
    if attack is None or attack.defended is not None:
        return (), ""
    c = fight.find(attack.target)
    if c is None:
        return (), ""
    s = sheet_of(c)
    if s.has("aturdido"):
        return (), f"{literal(c.name)} está aturdido: no puede defenderse"
    maneuvers = [m for m in DEFENSES
                 if not (attack.ranged and m in ("bloqueo", "parada"))
                 and not (m == "parada" and not any(not w.ranged for w in s.weapons))
                 and not (m in ("bloqueo", "parada") and s.has("sorprendido"))]
    options: list[DefenseOption] = []
    declared_defenses = [d for d in s.declared if d.defense]
    reached = s.status == "acted" or fight.actor == c.name
    free = [d for d in declared_defenses if not d.done]
    can_defend = declared_defenses and reached and not (s.aborted and not free)
    if can_defend:
        penalty = next_defense_penalty(s)
        k = s.defenses + 1
        if s.full_defense:
            what = f"defensa total, {k}.ª"
        elif free:
            slot = s.declared.index(free[0]) + 1
            what = f"declarada, {slot}.ª de {len(s.declared)}"
        else:
            what = f"una defensa más, {len(s.declared) + k - len(declared_defenses)}.ª"
        for m in maneuvers:
            base = defense_base(s, m)
            live = None if base is None or penalty is None else base + penalty + s.health_penalty
            if live is not None and live <= 0:
                continue
            shown = "?" if live is None else str(live)
            options.append(DefenseOption("defend", m, live, f"{action_name(m)} ({what}) → {shown} dados"))
    blocker = _abort_blocker(fight, c) if not can_defend or not reached else "ya ha actuado"
    if blocker is None:
        left = [d for d in s.declared if not d.done]
        penalty = left[-1].penalty if left else 0
        ways = [f"tirada de FV {s.willpower}"]
        if not s.spent and s.points > 0:
            ways.append("1 punto de FV")
        for m in maneuvers:
            mm = find_maneuver(m)
            base = None if mm is None else pool_of(s, mm, None)
            live = None if base is None else max(base + penalty + s.health_penalty, 0)
            shown = "?" if live is None else str(live)
            options.append(DefenseOption("abort", m, live,
                                         f"abortar ({' o '.join(ways)}): {action_name(m)} → {shown} dados"))
    if options:
        return tuple(options), ""
    if s.aborted:
        return (), f"{literal(c.name)} ya abandonó su acción para defenderse"
    if not declared_defenses:
        return (), f"{literal(c.name)} no declaró defensa ({blocker or 'no puede abortar'})"
    return (), f"{literal(c.name)} no puede defenderse ({blocker or 'antes de su momento, solo abortando'})"


# ---------------------------------------------------------------- cells


def signed(value: int) -> str:
    """"+1", "−2" (a true minus), "0"."""
    return "0" if value == 0 else (f"+{value}" if value > 0 else f"−{-value}")


def chip(s: NarrSheet, d: Declared, *, secret: bool = False) -> str:
    """"Disparo 6→4", "✓Disparo 6→4", "Esquiva 7→4 (def.)", "Golpe 4", "Recarga"."""
    name = SHORT.get(d.action) or action_name(d.action)
    text = ("✓" if d.done else "✗" if dropped(s, d) else "") + name
    if secret:
        text += f" {SECRET}"
    elif d.pool is not None:
        live = live_dice(s, d)
        text += f" {d.pool}" if live == d.pool else f" {d.pool}→{live}"
    if d.defense:
        text += " (def.)"
    return text


def declared_text(c: Combatant, fight: Fight, *, secret: bool = False, for_players: bool = False) -> str:
    """The Declarado column: the chips, "Defensa total: Esquiva 7·6·5…", "retrasa",
    "por declarar", "+def 3" when its declared defenses are used."""
    s = sheet_of(c)
    if s.status == "to_declare":
        return "por declarar" if part_of(fight).phase == "declare" else ""
    if s.status == "delaying":
        return "retrasa"
    if s.full_defense:
        names = "/".join(action_name(d.action) for d in s.declared if d.defense) or "Esquiva"
        if secret:
            return f"Defensa total: {names}"
        shown = "·".join(map(str, full_defense_dice(s)))
        used = f" ({s.defenses} usada{'s' if s.defenses != 1 else ''})" if s.defenses else ""
        return f"Defensa total{used}: {names} {shown}…" if shown else f"Defensa total{used}: {names} sin dados"
    if not s.declared:
        if for_players:  # what it declared is secret until performed
            return ""
        return NONE if s.status in ("declared", "acted") else ""
    text = " · ".join(chip(s, d, secret=secret) for d in s.declared)
    defenses = [d for d in s.declared if d.defense]
    if defenses and all(d.done for d in defenses) and not s.aborted and not for_players:
        # not for players: its penalty would tell how many actions it declared
        penalty = next_defense_penalty(s)
        base = defense_base(s, defenses[0].action)
        if penalty is not None and base is not None:
            text += f" · +def {max(base + penalty + s.health_penalty, 0)}"
    return text


def willpower_text(s: NarrSheet, *, secret: bool = False) -> str:
    """"●●●○○": points left of the rating; "◎" the point spent this turn; "—": none."""
    if secret:
        return SECRET
    if s.willpower <= 0:
        return NONE
    left = max(min(s.points, s.willpower), 0)
    gone = s.willpower - left
    if s.spent and gone:
        return "●" * left + "◎" + "○" * (gone - 1)
    return "●" * left + "○" * gone


def health_boxes(s: NarrSheet) -> str:
    """"XXX····": one box per level, X lethal, / bashing, · empty."""
    lethal = min(s.lethal, s.levels)
    bashing = min(s.bashing, s.levels - lethal)
    return "X" * lethal + "/" * bashing + "·" * (s.levels - lethal - bashing)


def health_text(s: NarrSheet, *, secret: bool = False) -> str:
    """"XXX···· −1": the boxes and the current penalty beside (none when 0)."""
    if secret:
        return SECRET
    text = health_boxes(s)
    return f"{text} {signed(s.health_penalty)}" if s.health_penalty else text


def level_name(s: NarrSheet) -> str:
    """"Lesionado", "ileso", "muerto"."""
    if s.has("muerto"):
        return "muerto"
    return LEVELS[min(s.marked, len(LEVELS)) - 1] if s.marked else "ileso"


def condition_text(id: str, value: str | None, *, secret: bool = False) -> str:
    """"derribado (−2 ini)", "desequilibrado (+1 dif)", "presa con Kara"."""
    extra = {"derribado": " (−2 ini)", "desequilibrado": " (+1 dif)", "cegado": " (+2 dif)"}.get(id, "")
    text = literal(id) + extra
    if value and not secret and id in ("presa", "sujeta", "apresado", "sujetado"):
        text += f" con {literal(value)}"
    return text


def state_text(c: Combatant, fight: Fight, *, secret: bool = False) -> str:
    """The Estado column: its place in the turn ("actúa", "declara", "actuó"…), then
    its conditions, cover, opponents, aim, an abort."""
    s = sheet_of(c)
    actor, declarer = actor_of(fight), declarer_of(fight)
    if actor is not None and actor.key == c.key:
        parts = ["actúa"]
    elif declarer is not None and declarer.key == c.key:
        parts = ["declara"]
    elif s.status == "to_declare" and part_of(fight).phase in ("initiative", "declare"):
        parts = []  # during the declaration, the Declarado column says "por declarar"
    elif s.status == "declared" and part_of(fight).phase == "declare":
        parts = ["declaró"]
    elif s.status == "declared":
        parts = []
    else:
        parts = [STATUS_ES.get(s.status, literal(s.status))]
    if s.out and "fuera de combate" not in parts:
        parts.append("fuera de combate")
    # STORYTELLER §10: listed as “aturdido: pierde la acción”; the condition not again
    parts += [condition_text(x.id, x.value, secret=secret) for x in s.conditions
              if not (x.id == "aturdido" and s.status == "stunned")]
    if not secret:
        if s.cover:
            parts.append(f"cobertura {s.cover}")
        if s.aim:
            parts.append(f"apunta +{s.aim}")
    if s.opponents > 1:
        parts.append(f"{s.opponents} oponentes (+{min(s.opponents - 1, 4)} dif)")
    if s.aborted:
        parts.append("abortó")
    return ", ".join(parts)


def initiative_text(s: NarrSheet, *, secret: bool = False, placed: bool = False) -> str:
    """"13"; "?" for a private PNJ in the order (players); "—" before it is typed."""
    if secret:
        return SECRET if placed or s.initiative is not None else NONE
    return NONE if s.initiative is None else str(s.initiative)


# ---------------------------------------------------------------- the list


@frozen
class Row:
    """One line of the list, every cell already text (SYSTEMS.md §3.1)."""

    name: str
    marked: bool
    initiative: str
    declared: str
    willpower: str
    health: str
    state: str
    out: bool

    @property
    def cells(self) -> tuple[str, ...]:
        return (("▶" if self.marked else " ") + self.initiative, self.name, self.declared,
                self.willpower, self.health, self.state)


@at_turn
def narr_rows(fight: Fight, *, for_players: bool = False) -> tuple[Row, ...]:
    """The list: one row per combatant in the order, then those with no initiative;
    the actor (action phase) or the declarer (declaration phase) marked."""
    marked = actor_of(fight) or declarer_of(fight)
    rows = []
    for c in in_order(fight):
        s = sheet_of(c)
        secret = for_players and is_secret(c)
        rows.append(Row(
            name=literal(c.name),
            marked=marked is not None and marked.key == c.key,
            initiative=initiative_text(s, secret=secret, placed=c.name in order_of(fight)),
            declared=declared_text(c, fight, secret=secret, for_players=for_players),
            willpower=willpower_text(s, secret=secret),
            health=health_text(s, secret=secret),
            state=state_text(c, fight, secret=secret),
            out=s.out,
        ))
    return tuple(rows)


def _pad(text: str, width: int) -> str:
    return text + " " * max(width - cells(text), 0)


def list_lines(rows: tuple[Row, ...]) -> list[str]:
    """The list as aligned text lines, headings first."""
    table = [(" " + HEADINGS[0], *HEADINGS[1:]), *(row.cells for row in rows)]
    widths = [max(cells(line[i]) for line in table) for i in range(len(HEADINGS))]
    return ["  ".join(_pad(text, widths[i]) for i, text in enumerate(line)).rstrip() for line in table]


@at_turn
def header(fight: Fight) -> str:
    """"Depósito · Narrador · Turno 1 · Acción ↓ · Actúa: Matón (13)"."""
    p = part_of(fight)
    parts = [literal(fight.name), RULES_LABEL, f"Turno {fight.turn}", PHASE_ES.get(p.phase, literal(p.phase))]
    return " · ".join(parts + _who_parts(fight))


def _who_parts(fight: Fight, *, for_players: bool = False) -> list[str]:
    p = part_of(fight)
    actor, declarer = actor_of(fight), declarer_of(fight)
    if actor is not None:
        return [f"Actúa: {literal(actor.name)}{_ini_suffix(actor, for_players)}"]
    if declarer is not None:
        return [f"Declara: {literal(declarer.name)}{_ini_suffix(declarer, for_players)}"]
    if p.phase == "act":
        waiting = any(sheet_of(c).status == "delaying" for c in fight.combatants)
        return ["esperan los que retrasan"] if waiting else []
    if p.phase == "initiative" and fight.combatants:
        missing = [literal(c.name) for c in fight.combatants
                   if sheet_of(c).initiative is None and not sheet_of(c).out]
        return [f"falta: {', '.join(missing)}"] if missing else ["«siguiente» empieza la declaración"]
    if p.phase == "over" and not for_players:
        return [f"«turno» empieza el turno {fight.turn + 1}"]
    return []


def _ini_suffix(c: Combatant, for_players: bool) -> str:
    s = sheet_of(c)
    if s.initiative is None or (for_players and is_secret(c)):
        return ""
    return f" ({s.initiative})"


@at_turn
def headline(fight: Fight) -> str:
    """The players' big line: "Turno 1 · Acción ↓ · Actúa: Matón"."""
    p = part_of(fight)
    parts = [f"Turno {fight.turn}", PHASE_ES.get(p.phase, literal(p.phase))]
    return " · ".join(parts + _who_parts(fight, for_players=True))


@at_turn
def attack_lines(fight: Fight, *, for_players: bool = False) -> list[str]:
    """The attack being resolved (`Tirada`): who at whom with what, its successes,
    the damage dice, and what the target can do and with how many dice (not for
    players: it would tell an undone declared defense)."""
    attack = part_of(fight).attack
    if attack is None:
        return []
    attacker, target = fight.find(attack.attacker), fight.find(attack.target)
    hide_attacker = for_players and attacker is not None and is_secret(attacker)
    hide_target = for_players and target is not None and is_secret(target)
    head = f"Tirada: {literal(attack.attacker)} → {literal(attack.target)} · {action_name(attack.action)}"
    if attacker is not None:
        s = sheet_of(attacker)
        same = [d for d in s.declared if d.action == attack.action]
        done = [d for d in same if d.done]
        if len(same) > 1 and done:
            head += f" {len(done)} de {len(same)}"
    lines = [head]
    kind = "letal" if attack.lethal else "contundente"
    if hide_attacker:
        lines.append(f"Éxitos: {SECRET} · daño {SECRET} ({kind})")
    else:
        lines.append(f"Éxitos: {attack.successes} · daño {attack.damage} dados ({kind},"
                     f" {attack.damage} + éxitos − 1 sin defensa)")
    if attack.defended is not None:
        if hide_attacker or hide_target:
            lines.append(f"{literal(attack.target)} se defendió: el DJ escribe el daño")
        else:
            net = attack.successes - attack.defended
            lines.append(f"{literal(attack.target)} se defendió: {attack.defended} éxito(s); quedan {net}:"
                         f" daño {attack.damage} + ({net} − 1) = {attack.damage + net - 1} dados")
        if not for_players:
            lines.append(f"Daño tras la absorción: «dano {literal(attack.target)} N {kind}»")
        return lines
    if for_players:
        return lines
    options, reason = defense_options(fight, attack)
    if options:
        for option in options:
            lines.append(f"{literal(attack.target)} puede: {option.text}")
    else:
        lines.append(reason or f"{literal(attack.target)} no puede defenderse")
    lines.append(f"Sin defensa: «dano {literal(attack.target)} N {kind}» tras la absorción")
    return lines


@at_turn
def extra_lines(fight: Fight, combatants: tuple[Combatant, ...], *, for_players: bool = False) -> list[str]:
    """Weapons (ammunition, shots this turn), notes, those with no initiative yet."""
    lines = []
    armed = []
    for c in combatants:
        s = sheet_of(c)
        if s.weapons:
            secret = for_players and is_secret(c)
            armed.append(f"{literal(c.name)}: " + ", ".join(weapon_text(w, secret=secret) for w in s.weapons))
    if armed:
        lines.append("Armas: " + " · ".join(armed))
    for c in combatants:
        for note in c.notes:
            left = turns_left(note.until, fight)
            tail = "" if left is None else f" ({left} turno{'s' if left != 1 else ''})"
            lines.append(f"Nota: {literal(c.name)}: {literal(note.text)}{tail}")
    if part_of(fight).phase in ("declare", "act"):
        unplaced = [literal(c.name) for c in combatants
                    if sheet_of(c).initiative is None and not sheet_of(c).out]
        if unplaced:
            lines.append("Sin iniciativa: " + ", ".join(unplaced))
    return lines


def weapon_text(w: NWeapon, *, secret: bool = False) -> str:
    """"Pistola Ligera Glock 17 18/17+1 · 0/4 este turno", "Cuchillo"."""
    text = literal(w.name)
    if w.magazine:
        text += f" {SECRET}" if secret else f" {w.ammo}/{w.magazine}{'+1' if w.chamber else ''}"
    if w.rate and not secret:
        text += f" · {w.shots}/{w.rate} este turno"
    return text


@at_turn
def narr_lines(fight: Fight, *, for_players: bool = False, log_lines: int = 5) -> list[str]:
    """The whole board as lines: header, list, the attack being resolved, extras, log."""
    combatants = in_order(fight)
    lines = [headline(fight) if for_players else header(fight), ""]
    if combatants:
        lines += list_lines(narr_rows(fight, for_players=for_players))
        below = attack_lines(fight, for_players=for_players) + extra_lines(fight, combatants,
                                                                           for_players=for_players)
        if below:
            lines += ["", *below]
    else:
        lines.append("Sin combatientes.")
    if log_lines and fight.log:
        lines.append("")
        lines += [literal(str(entry)) for entry in fight.log[-log_lines:]]
    return lines


@at_turn
def narr_board_text(fight: Fight, log_lines: int = 5, *, for_players: bool = False) -> str:
    """The plain-text board that `cdbtui do` and `cdbtui show` print."""
    return "\n".join(narr_lines(fight, for_players=for_players, log_lines=log_lines))


# ---------------------------------------------------------------- JSON


def _hidden_if(secret: bool, value):
    return None if secret else value


def _declared_json(s: NarrSheet, d: Declared, secret: bool) -> dict:
    return {"action": d.action, "pool": _hidden_if(secret, d.pool), "penalty": _hidden_if(secret, d.penalty),
            "defense": d.defense, "done": d.done, "dice": _hidden_if(secret, live_dice(s, d)),
            "target": d.target}


def _combatant_json(c: Combatant, fight: Fight, for_players: bool) -> dict:
    s = sheet_of(c)
    secret = for_players and is_secret(c)
    full = ([d.action for d in s.declared if d.defense] or ["esquiva"]) if s.full_defense else None
    return {
        "name": c.name,
        "side": c.side,
        "hidden": c.hidden,
        "private": c.private,
        "notes": [{"text": note.text, "turns_left": turns_left(note.until, fight)} for note in c.notes],
        "initiative": _hidden_if(secret, s.initiative),
        "rating": _hidden_if(secret, s.rating),
        "status": s.status,
        "declared": [_declared_json(s, d, secret) for d in s.declared],
        "full_defense": full,
        "defenses": s.defenses,
        "next_defense_penalty": None if for_players else next_defense_penalty(s),
        "aborted": s.aborted,
        "willpower": {"rating": _hidden_if(secret, s.willpower), "points": _hidden_if(secret, s.points),
                      "spent_this_turn": _hidden_if(secret, s.spent)},
        "health": {"levels": _hidden_if(secret, s.levels), "lethal": _hidden_if(secret, s.lethal),
                   "bashing": _hidden_if(secret, s.bashing), "penalty": _hidden_if(secret, s.health_penalty)},
        # SYSTEMS.md §4's shared Condition(id, value, ends), as C-System writes it; `until`
        # is the same end under the name this JSON first had.
        "conditions": [{"id": x.id, "value": _hidden_if(secret, x.value), "ends": _hidden_if(secret, x.until),
                        "until": _hidden_if(secret, x.until)} for x in s.conditions],
        "aim": _hidden_if(secret, s.aim),
        "cover": s.cover,
        "opponents": s.opponents,
        "weapons": [{"name": weapon_id(w), "label": w.name, "ammo": _hidden_if(secret, w.ammo),
                     "magazine": _hidden_if(secret, w.magazine), "chamber": w.chamber,
                     "shots": _hidden_if(secret, w.shots), "rate": w.rate} for w in s.weapons],
    }


@at_turn
def attack_json(fight: Fight, *, for_players: bool = False) -> dict | None:
    """The attack being resolved, with the target's options (not for players)."""
    attack = part_of(fight).attack
    if attack is None:
        return None
    attacker, target = fight.find(attack.attacker), fight.find(attack.target)
    hide_attacker = for_players and attacker is not None and is_secret(attacker)
    hide_target = for_players and target is not None and is_secret(target)
    found = {
        "attacker": attack.attacker, "target": attack.target, "action": attack.action,
        "successes": _hidden_if(hide_attacker, attack.successes), "damage": _hidden_if(hide_attacker, attack.damage),
        "ranged": attack.ranged, "lethal": attack.lethal,
        "defended": _hidden_if(hide_attacker or hide_target, attack.defended),
    }
    if for_players:
        found["options"] = None
    else:
        options, reason = defense_options(fight, attack)
        found["options"] = [{"how": o.how, "action": o.action, "dice": o.dice} for o in options]
        found["no_defense"] = reason or None
    return found


@at_turn
def narr_state_json(fight: Fight, *, for_players: bool = False) -> dict:
    """The state contract of `cdbtui show --json` for the storyteller system
    (SYSTEMS.md §3.4): the shared fields first (schema, name, rules, turn), then the
    phase, the order, who acts or declares, the combatants, the attack, the log."""
    p = part_of(fight)
    actor, declarer = actor_of(fight), declarer_of(fight)
    return {
        "schema": 1,
        "name": fight.name,
        "rules": fight.rules,
        "turn": fight.turn,
        "phase": p.phase,
        "order": list(p.order),
        "actor": None if actor is None else actor.name,
        "declarer": None if declarer is None else declarer.name,
        "combatants": [_combatant_json(c, fight, for_players) for c in fight.combatants],
        "attack": attack_json(fight, for_players=for_players),
        "log": [str(entry) for entry in fight.log],
    }
