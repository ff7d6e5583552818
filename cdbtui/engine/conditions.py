"""Conditions, damage and healing (RULES.md §5, §6; CdB "Curación").

Owns `cmd.Condition` (a condition gained mid-turn changes the AC left at once; only
the conditions the rules know, `split_known`; `turnos=N`), `cmd.Note` (free notes),
`cmd.Reveal` (`revelar`/`ocultar`), `cmd.MeleeFatigue` (`fatiga-cc`), `cmd.Damage`
(Daño − RD as boxes of wounds or fatigue; a Horda loses members instead:
`optional._damage_group`), `cmd.Heal` (Primeros Auxilios while a turn is being
played, treatment with time otherwise) and `cmd.Rest`; and what happens when a turn
ends (`end_of_turn`: durations run out, melee fatigue) and the list of what is still
running when one starts (`note_running`), for `turn.py`.
"""

from __future__ import annotations

import difflib
import math


from . import commands as cmd
from .countdown import get_combatant
from .errors import Refusal
from .limits import MOST_TURNS, check_text
from .model import (
    evolve,
    ACTIVE,
    COVER,
    DUEL,
    FATIGUE_CATEGORIES,
    GRAPPLED,
    INCAPACITATED,
    KNOWN_CONDITIONS,
    MOUNTED,
    NO_MEMBERS,
    OUT_CONDITIONS,
    PINNED,
    STABILISED,
    SURPRISED,
    WOUND_CATEGORIES,
    Combatant,
    Expiry,
    Fight,
    LogKind,
    Mention,
    Note,
    Role,
    Status,
    mention_of,
)
from .mounts import dismount_rider
from .optional import damage_group
from .queries import is_incapacitated, is_out
from .spending import end_duel
from .text import slug

# Decisions where the book is silent:
# · Healing between turns and after the last one is treatment with time: `curar`
#   removes the worst boxes first, any category; `descanso` wipes the Rasguños only
#   between turns.
# · Healing while a turn is being played is Primeros Auxilios (RULES.md §6), read
#   literally: it treats the boxes of the Rasguño and Herido categories only, worst
#   of those first, and boxes of Gravemente Herido and worse stay marked (and keep
#   their penalty).  A track has no holes but at its front (`Track.cleared`, as after
#   `descanso`): when only Rasguño/Herido boxes are marked, the top ones are healed
#   (Herido first); when worse boxes are marked too, the Rasguño/Herido boxes healed
#   are taken off the front of the track (`cleared`): the same count of boxes and the
#   same penalty, only the sheet shows the Rasguños emptied before the Heridas.  New
#   damage marks those front boxes first ("from the first empty one", `Track.mark`).
#   With no Rasguño/Herido box left to treat, it is refused.  It treats wounds, not
#   fatigue: `curar NOMBRE N fatiga` waits for the end of the turn.  Once per patient
#   and fight (`Combatant.first_aid`); on a Moribundo (its wound track, or the
#   condition) it only stabilises (`estabilizado`): no box healed, still out.  A
#   later treatment that takes it out of Moribundo drops `estabilizado`.
# · Melee fatigue (RULES.md §6) is applied like any fatigue (`mark_boxes`: beyond the
#   track, wounds; out and incapacitated as for damage); a Horda has no fatigue track
#   (damage takes members, not boxes): it gets none.
# · Notes and the "En curso" line about a hidden PNJ, or a private PNJ (RULES.md §5:
#   "hidden from players when the combatant is hidden or private"), are entries
#   players never read, whatever their wording: a private PNJ is mentioned as hidden
#   in them.  The "En curso" line is one line; what runs on combatants players may not
#   read about goes on a second one, so that theirs is neither lost nor leaked.
# · `ocultar` logs after hiding (players don't read why a column went away);
#   `revelar` logs after revealing (they read that it shows up).

#: What the book says about cover (Reglas de Cobertura), for the log.
COVER_NOTE = (
    "Reglas de Cobertura: si el impacto da en la parte cubierta, al Daño se le resta"
    " primero la RD de la cobertura y con lo que quede se calcula el Daño Total"
)

#: Words that look like conditions but are the combatant's visibility (`revelar`/`ocultar`).
_VISIBILITY = frozenset({"oculto", "oculta", "hidden", "visible", "revelado", "revelada"})


def known_conditions(rules: str) -> tuple[str, ...]:
    """The conditions `estado` takes under `rules` (RULES.md §5 "Known conditions
    only"); a ruleset with no list of its own takes CdB's."""
    return KNOWN_CONDITIONS.get(rules) or KNOWN_CONDITIONS["cdb"]


def split_known(rules: str, conditions: tuple[str, ...] | list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the known conditions, the other words), each in the given order: what a loader
    keeps as conditions and what it turns into notes."""
    known = known_conditions(rules)
    return (tuple(x for x in conditions if x in known),
            tuple(x for x in conditions if x not in known))


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " o " + words[-1]


def unknown_condition(rules: str, word: str, name: str) -> Refusal:
    """The refusal of a condition the rules don't know, with the closest known ones
    ("No conozco el estado «agarado»: ¿agarrado?")."""
    if word in _VISIBILITY:
        return Refusal(f"«{word}» no es un estado: para que los jugadores vean o dejen de ver"
                       f" a {name}, «revelar {cmd.quote(name)}» u «ocultar {cmd.quote(name)}»")
    known = known_conditions(rules)
    close = difflib.get_close_matches(word, known, n=3, cutoff=0.7)
    if close:
        return Refusal(f"No conozco el estado «{word}»: ¿{_either(close)}?")
    return Refusal(
        f"No conozco el estado «{word}»: los estados son {', '.join(known[:6])}…;"
        f" para otra cosa, una nota: «nota {cmd.quote(name)} TEXTO»"
    )


def _until(fight: Fight, turns: int | None) -> int | None:
    """The turn at whose end a duration of `turns` ends, the current turn counted
    (before `empezar`, turn 1 is the current one): RULES.md §5 "Durations"."""
    if turns is None:
        return None
    if not 1 <= turns <= MOST_TURNS:
        raise Refusal(f"turnos= entre 1 y {MOST_TURNS} (pedido: {turns})")
    return max(fight.turn, 1) + turns - 1


def _turns_text(left: int) -> str:
    return f"{left} turno" if left == 1 else f"{left} turnos"


def _about(c: Combatant) -> Mention:
    """`c` as an entry about its notes names it: a private PNJ as hidden (see the
    Decisions above), so players never read those entries."""
    m = mention_of(c)
    return m if not m.private or m.hidden else Mention(m.name, Role.ACTOR, True, True)


def set_condition(fight: Fight, command: cmd.Condition) -> Fight:
    c = get_combatant(fight, command.name)
    condition = slug(command.condition)
    if not condition:
        raise Refusal("Falta el estado: p. ej. «estado Mike +agarrado»")
    if condition not in known_conditions(fight.rules) and not (not command.on and c.has(condition)):
        raise unknown_condition(fight.rules, condition, c.name)
    if command.turns is not None and not command.on:
        raise Refusal("turnos= va con un estado que se añade («+ESTADO»)")
    # `en-duelo` and `montado` are conditions `estado` takes (RULES.md §5): alone they
    # mark a duel or a mount the sheet does not hold (no rival, no mount column);
    # «duelo A B» and «monta A B» set them with the other combatant, and taking them
    # off ends that duel or dismounts.
    if condition == DUEL and not command.on and c.duel is not None:
        return end_duel(fight, c, "El DJ termina el duelo")
    if condition == MOUNTED and not command.on and c.mount is not None:
        return dismount_rider(fight, cmd.Dismount(c.name))
    if condition == NO_MEMBERS and command.on and not c.is_group:
        raise Refusal(f"{c.name} no es un grupo (Horda): usa «moribundo» para dejarle fuera")
    if command.on:
        if c.has(condition):
            raise Refusal(f"{c.name} ya está {condition}")
        if condition == SURPRISED:
            if fight.turn > 1 or (fight.started and c.status is not Status.READY):
                raise Refusal("La sorpresa solo vale en el primer turno, antes de que actúe")
        until = _until(fight, command.turns)
        c = evolve(c, conditions=(*c.conditions, condition),
                   expires=c.expires if until is None else (*c.expires, Expiry(condition, until)))
        lasting = "" if until is None else f" ({_turns_text(command.turns)}: hasta el final del turno {until})"
        fight = fight.note(f"{c.name}: +{condition}" + (f" ({COVER_NOTE})" if condition == COVER else "")
                           + lasting, kind=LogKind.CONDITION, about=[c.name], free=condition)
        if condition in OUT_CONDITIONS and c.status is not Status.OUT:
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None)  # done or not
        elif fight.started and c.status in ACTIVE:
            c = _apply_condition_now(c, condition)
        fight = fight.replace(c)
    else:
        if not c.has(condition):
            raise Refusal(f"{c.name} no está {condition}")
        fight = remove_condition(
            fight, c, condition,
            " (recupera sus AC el turno siguiente)" if condition in (GRAPPLED, PINNED, SURPRISED) else "",
        )
    return fight


def remove_condition(fight: Fight, c: Combatant, condition: str, why: str = "") -> Fight:
    """`fight` with `condition` (which `c` has) taken off `c`, its duration with it, and
    the log line "NAME: −COND" + `why`; the effects of losing it as RULES.md §5 says (an
    unconscious one whose condition goes acts again next turn; AC come back next turn)."""
    c = evolve(c, conditions=tuple(x for x in c.conditions if x != condition),
               expires=tuple(e for e in c.expires if e.condition != condition))
    if condition in OUT_CONDITIONS and c.status is Status.OUT and not is_out(c):
        c = evolve(c, status=Status.DONE)
    return fight.replace(c).note(f"{c.name}: −{condition}{why}", kind=LogKind.CONDITION,
                                 about=[c.name], free=condition)


def _apply_condition_now(c: Combatant, condition: str) -> Combatant:
    """A condition gained mid-turn changes the AC left at once (RULES.md §5)."""
    if condition == SURPRISED:
        return evolve(c, ac=c.budget(1))
    if condition == GRAPPLED and not c.has(PINNED):
        return evolve(c, ac=math.ceil(c.ac / 2))
    if condition == PINNED:
        factor = 2 if c.has(GRAPPLED) else 4
        return evolve(c, ac=math.ceil(c.ac / factor))
    if condition == INCAPACITATED:
        return evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None)
    return c


def _damage(fight: Fight, command: cmd.Damage) -> Fight:
    c = get_combatant(fight, command.name)
    total = command.amount - command.rd
    track_name = "fatiga" if command.fatigue else "heridas"
    if command.amount < 0:
        raise Refusal(f"El daño es 0 o más (pedido: {command.amount}); la RD va aparte: «rd=N»")
    if command.shots is not None and not c.is_group:
        raise Refusal(f"balas= solo cuenta contra una Horda (alta … miembros=N): {c.name} no lo es")
    if command.shots is not None and not 0 <= command.shots <= 999:
        raise Refusal(f"balas= entre 0 y 999 (pedido: {command.shots})")
    if c.has(COVER):
        fight = fight.note(f"{c.name} está a cubierto: {COVER_NOTE}", kind=LogKind.RULE, about=[c.name])
    if c.is_group:
        return damage_group(fight, c, command)
    if total < 0:
        return fight.note(f"{c.name}: daño {command.amount} − RD {command.rd} < 0, sin efecto",
                          kind=LogKind.DAMAGE, about=[c.name])
    boxes = max(total, 1)
    return mark_boxes(fight, c, boxes, command.fatigue,
                      f"{c.name}: {boxes} casilla(s) de {track_name} (daño {command.amount} − RD {command.rd})")


def mark_boxes(fight: Fight, c: Combatant, boxes: int, fatigue: bool, text: str) -> Fight:
    """`boxes` boxes of wounds or fatigue marked on `c` (fatigue beyond its track goes
    to wounds), logged as `text`; out or incapacitated if that is what they make it
    (RULES.md §6).  The one way damage and fatigue are applied."""
    overflow = boxes
    if fatigue:
        track, overflow = c.fatigue.mark(boxes)
        c = evolve(c, fatigue=track)
    if overflow:
        c = evolve(c, wounds=c.wounds.mark(overflow)[0])  # beyond the wound track: nothing more
    fight = fight.note(text, kind=LogKind.DAMAGE, about=[c.name])
    if c.status is not Status.OUT:
        if is_out(c):
            c = evolve(c, status=Status.OUT, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} cae inconsciente: fuera de combate", warning=True,
                               kind=LogKind.CONDITION, about=[c.name])
        elif is_incapacitated(c) and c.status in ACTIVE:
            c = evolve(c, status=Status.DONE, ac=0, acting=False, trigger=None)
            fight = fight.note(f"{c.name} queda incapacitado: no puede hacer maniobras", warning=True,
                               kind=LogKind.CONDITION, about=[c.name])
    return fight.replace(c)


#: The wound categories Primeros Auxilios treats (Rasguño, Herido).
FIRST_AID_CATEGORIES = 2
#: The wound category of a Moribundo.
DYING = 4


def is_dying(c: Combatant) -> bool:
    """Moribundo: its wound track says so, or the DJ set the condition."""
    return c.wounds.category == DYING or c.has("moribundo")


def _heal(fight: Fight, command: cmd.Heal) -> Fight:
    """While a turn is being played, Primeros Auxilios (`_first_aid`, RULES.md §6).
    Otherwise treatment with time: remove marked boxes, the worst first (CdB
    "Curación": a roll heals 1 PV + 1 per degree of success, always from the highest
    category)."""
    c = get_combatant(fight, command.name)
    if c.is_group:
        raise Refusal(f"{c.name} es una Horda: el daño le quita miembros, no marca casillas")
    if not 1 <= command.amount <= 99:
        raise Refusal(f"Casillas a curar entre 1 y 99 (pedido: {command.amount})")
    if fight.started and not fight.turn_over:
        return _first_aid(fight, c, command)
    track = c.fatigue if command.fatigue else c.wounds
    what = "fatiga" if command.fatigue else "heridas"
    if track.count == 0:
        raise Refusal(f"{c.name} no tiene casillas de {what} marcadas")
    healed = min(command.amount, track.count)
    track = track.heal(healed)
    c = evolve(c, fatigue=track) if command.fatigue else evolve(c, wounds=track)
    names = FATIGUE_CATEGORIES if command.fatigue else WOUND_CATEGORIES
    now = "sin marcar" if track.category is None else names[track.category]
    text = f"{c.name}: cura {healed} casilla(s) de {what} → {now}"
    if c.has(STABILISED) and not is_dying(c):
        c = evolve(c, conditions=tuple(x for x in c.conditions if x != STABILISED),
                   expires=tuple(e for e in c.expires if e.condition != STABILISED))
        text += " (ya no está moribundo: −estabilizado)"
    if c.status is Status.OUT and not is_out(c):
        c = evolve(c, status=Status.DONE)
        text += " (vuelve a actuar el turno siguiente)"
    return fight.replace(c).note(text, kind=LogKind.HEAL, about=[c.name])


def _first_aid(fight: Fight, c: Combatant, command: cmd.Heal) -> Fight:
    """Primeros Auxilios, `curar` while a turn is being played (RULES.md §6): «solo se
    puede usar para tratar Rasguños y Heridas»; «sólo se le puede aplicar … una vez por
    combate»; on a Moribundo «no curará ningún PV, solo evitará que esa persona se
    muera».  See the Decisions at the top for how the track takes it."""
    if command.fatigue:
        raise Refusal(
            "Con el turno en juego, curar es Primeros Auxilios: trata Rasguños y Heridas, no la"
            " fatiga (cúrala cuando acabe el turno)"
        )
    if c.first_aid:
        raise Refusal(
            f"{c.name} ya recibió Primeros Auxilios en este combate: «a un personaje sólo se le"
            " puede aplicar la tirada de Primeros Auxilios una vez por combate»"
        )
    if is_dying(c):
        if c.has(STABILISED):
            raise Refusal(f"{c.name} ya está estabilizado")
        c = evolve(c, conditions=(*c.conditions, STABILISED), first_aid=True)
        return fight.replace(c).note(
            f"{c.name}: Primeros Auxilios: +{STABILISED} (no cura ninguna casilla, solo evita"
            " que muera; sigue fuera de combate)",
            kind=LogKind.HEAL, about=[c.name],
        )
    track = c.wounds
    light = sum(track.boxes[:FIRST_AID_CATEGORIES])
    if track.marked <= light:  # only Rasguño/Herido boxes marked: the top ones go
        treatable = track.count
    else:  # worse boxes stay marked: the light ones go off the front (see the Decisions)
        treatable = max(0, light - track.cleared)
    if treatable == 0:
        if track.count == 0:
            raise Refusal(f"{c.name} no tiene casillas de heridas marcadas")
        raise Refusal(
            f"Primeros Auxilios solo trata Rasguños y Heridas: a {c.name} solo le quedan"
            " casillas de Gravemente Herido o peores (se tratan cuando acabe el turno)"
        )
    healed = min(command.amount, treatable)
    worse = track.marked > light
    track = evolve(track, cleared=track.cleared + healed) if worse else track.heal(healed)
    c = evolve(c, wounds=track, first_aid=True)
    now = "sin marcar" if track.category is None else WOUND_CATEGORIES[track.category]
    text = f"{c.name}: Primeros Auxilios: cura {healed} casilla(s) de Rasguño o Herido → {now}"
    if worse:
        text += " (las de Gravemente Herido y peores siguen marcadas)"
    if c.status is Status.OUT and not is_out(c):
        c = evolve(c, status=Status.DONE)
        text += " (vuelve a actuar el turno siguiente)"
    return fight.replace(c).note(text, kind=LogKind.HEAL, about=[c.name])


def _rest(fight: Fight, command: cmd.Rest) -> Fight:
    """After the battle the Rasguños are wiped (CdB "Curación": "Los Rasguños suelen
    borrarse tras una batalla, siempre que dispongan de cinco o diez minutos")."""
    if fight.started and not fight.turn_over:
        raise Refusal(
            "Los Rasguños se borran tras la batalla, con cinco o diez minutos para atenderlos:"
            " termina antes el turno (todos «fin»)"
        )
    changed = [
        evolve(c, wounds=c.wounds.clear_first())
        for c in fight.combatants if c.wounds.clear_first() != c.wounds
    ]
    if not changed:
        raise Refusal("Nadie tiene Rasguños que borrar")
    return fight.replace(*changed).note(
        "Descanso tras la batalla: se borran los Rasguños de "
        + ", ".join(c.name for c in changed)
        + " (las heridas peores se curan con «curar NOMBRE N»)",
        kind=LogKind.HEAL, about=[c.name for c in changed],
    )


def _note(fight: Fight, command: cmd.Note) -> Fight:
    """`nota NAME TEXTO [turnos=N]` adds a note, `nota NAME -` clears them (RULES.md
    §5): no rules effect."""
    c = get_combatant(fight, command.name)
    if command.text is None:
        if command.turns is not None:
            raise Refusal("«nota NOMBRE -» borra sus notas: no lleva turnos=")
        if not c.notes:
            raise Refusal(f"{c.name} no tiene notas que borrar")
        return fight.replace(evolve(c, notes=())).note(
            f"{c.name}: se borran sus notas", kind=LogKind.NOTE, about=[_about(c)])
    text = check_text(command.text, "la nota", empty=False)
    until = _until(fight, command.turns)
    c = evolve(c, notes=(*c.notes, Note(text, until)))
    lasting = "" if until is None else f" ({_turns_text(command.turns)}: hasta el final del turno {until})"
    return fight.replace(c).note(f"{c.name}: nota «{text}»{lasting}", kind=LogKind.NOTE,
                                 about=[_about(c)], free=text)


def _reveal(fight: Fight, command: cmd.Reveal) -> Fight:
    """`revelar NAME` / `ocultar NAME` (RULES.md §5 "Hidden combatants"): from this
    command on.  Earlier entries keep the flags they were made with (`Mention`), so
    what happened while hidden stays hidden and what players saw stays seen."""
    c = get_combatant(fight, command.name)
    if command.on:
        if not c.hidden:
            raise Refusal(f"{c.name} no está oculto: los jugadores ya lo ven")
        c = evolve(c, hidden=False)
        return fight.replace(c).note(f"{c.name} se deja ver: los jugadores lo ven desde ahora",
                                     kind=LogKind.CONDITION, about=[c.name])
    if c.hidden:
        raise Refusal(f"{c.name} ya está oculto: los jugadores no lo ven")
    c = evolve(c, hidden=True)
    return fight.replace(c).note(f"{c.name} queda oculto: los jugadores dejan de verlo desde ahora",
                                 kind=LogKind.CONDITION, about=[c.name])


def _melee_fatigue(fight: Fight, command: cmd.MeleeFatigue) -> Fight:
    """`fatiga-cc si|no`: the book's 1 fatigue point per turn of melee (RULES.md §6)."""
    if command.on == fight.melee_fatigue:
        raise Refusal("La fatiga por combate cuerpo a cuerpo ya está "
                      + ("activada" if command.on else "desactivada"))
    fight = evolve(fight, melee_fatigue=command.on)
    return fight.note(
        "Fatiga por combate cuerpo a cuerpo "
        + ("activada: 1 punto de fatiga al final de cada turno en que se ataque cuerpo a cuerpo"
           if command.on else "desactivada: atacar cuerpo a cuerpo no fatiga"),
        kind=LogKind.RULE,
    )


MELEE_FATIGUE_TEXT = "+1 fatiga (combate cuerpo a cuerpo)"


def end_of_turn(fight: Fight) -> Fight:
    """What happens as turn `fight.turn` ends (at `turno`, before the next starts):
    conditions and notes whose duration ends with it go (RULES.md §5 "Durations"), and
    each combatant that made a melee attack maneuver in it gets 1 fatigue point
    (RULES.md §6, unless `fatiga-cc no`).  One look at each combatant; nothing is
    logged or copied for those it leaves alone."""
    ending = fight.turn
    melee = fight.melee_fatigue
    touched = [c for c in fight.combatants if c.expires or c.notes or (melee and c.melee_this_turn)]
    for c in touched:
        c = fight.find(c.name)
        for expiry in c.expires:
            if expiry.turn > ending:
                continue
            c = fight.find(c.name)
            if c.has(expiry.condition):
                fight = remove_condition(fight, c, expiry.condition, " (fin de su duración)")
            else:  # taken off by some other way: only the duration is left to drop
                fight = fight.replace(evolve(c, expires=tuple(e for e in c.expires if e is not expiry)))
        fight, c = _expire_notes_of(fight, fight.find(c.name), ending)
        if melee and c.melee_this_turn and not c.is_group:
            fight = _tire(fight, c)
    return fight


def expire_notes(fight: Fight, ending: int) -> Fight:
    """The notes whose duration ends with turn `ending` go, each logged (`nota …
    turnos=N`): what `end_of_turn` does for notes, for the rulesets with a turn's end
    of their own (C-System, the storyteller)."""
    for c in [c for c in fight.combatants if c.notes]:
        fight, _ = _expire_notes_of(fight, c, ending)
    return fight


def _expire_notes_of(fight: Fight, c: Combatant, ending: int) -> tuple[Fight, Combatant]:
    """`c`'s notes that end with turn `ending` gone, each logged; the fight and `c` now."""
    if not any(n.until is not None and n.until <= ending for n in c.notes):
        return fight, c
    for note in c.notes:
        if note.until is not None and note.until <= ending:
            fight = fight.note(f"{c.name}: −nota «{note.text}» (fin de su duración)",
                               kind=LogKind.NOTE, about=[_about(c)], free=note.text)
    c = evolve(c, notes=tuple(n for n in c.notes if n.until is None or n.until > ending))
    return fight.replace(c), c


def _tire(fight: Fight, c: Combatant) -> Fight:
    """The melee's fatigue point, applied like any fatigue (`mark_boxes`)."""
    text = f"{c.name}: {MELEE_FATIGUE_TEXT}"
    if c.fatigue.marked >= c.fatigue.size:
        text += ": no cabe en la fatiga, 1 casilla de heridas"
    return mark_boxes(fight, c, 1, True, text)


def note_running(fight: Fight, running: list[Combatant] | tuple[Combatant, ...] | None = None) -> Fight:
    """The log line of what is still running at the start of a turn ("En curso: Sven:
    aturdido (2 turnos); …"), none when nothing is.  `running`: the combatants that
    may have a duration (those with `expires` or `notes`), if the caller knows them.
    What runs on combatants players may not read about goes on a second line (see the
    Decisions at the top)."""
    if running is None:
        running = [c for c in fight.combatants if c.expires or c.notes]
    turn = fight.turn
    seen: list[str] = []
    secret: list[str] = []
    seen_about: list[Mention] = []
    secret_about: list[Mention] = []
    seen_free: list[str] = []  # the notes' texts: names in them are mentioned too
    secret_free: list[str] = []
    for c in running:
        parts = [f"{e.condition} ({_turns_text(e.turn - turn + 1)})"
                 for e in c.expires if e.turn >= turn and c.has(e.condition)]
        parts += [f"nota «{n.text}» ({_turns_text(n.until - turn + 1)})"
                  for n in c.notes if n.until is not None and n.until >= turn]
        if not parts:
            continue
        m = mention_of(c)
        public = not (m.hidden or m.private)
        (seen if public else secret).append(f"{c.name}: {', '.join(parts)}")
        (seen_about if public else secret_about).append(m if public else _about(c))
        (seen_free if public else secret_free).extend(
            n.text for n in c.notes if n.until is not None and n.until >= turn)
    for lines, about, free in ((seen, seen_about, seen_free), (secret, secret_about, secret_free)):
        if lines:
            fight = fight.note("En curso: " + "; ".join(lines), kind=LogKind.RULE, about=about,
                               free=" · ".join(free) or None)
    return fight


#: The commands this module applies (`rules.apply` dispatches on the command's class).
HANDLERS = {
    cmd.Note: _note,
    cmd.Reveal: _reveal,
    cmd.MeleeFatigue: _melee_fatigue,
    cmd.Condition: set_condition,
    cmd.Damage: _damage,
    cmd.Heal: _heal,
    cmd.Rest: _rest,
}
