"""The storyteller system's `apply(fight, command) -> fight` (STORYTELLER.md), behind
the shared funnel (`engine.rules.apply` dispatches here on `fight.rules == "narrador"`).

A turn has three phases (§4): initiative (typed or rolled; `siguiente` ends it once
everyone in play has one), declaration from the lowest initiative to the highest
(each `declara` passes to the next), and action from the highest down (a go ends
when its declared non-defensive actions are done, or with `fin`); once the last in
the order has acted the turn is `over` (SYSTEMS §3.4) until `turno`, `siguiente` or
the next turn's first initiative starts the next one (`_turn_over`).  An attack waits
as `NarrPart.attack` for the target's defense (`defiende`, `aborta`) and for the
damage the GM types after soak (`dano`).  Dice the table rolls are typed
(`exitos=`); without them the app rolls (seeded, logged)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import commands as cmd
from ..conditions import HANDLERS as _CDB_CONDITIONS
from ..conditions import expire_notes
from ..errors import Refusal
from ..extras import HANDLERS as _CDB_EXTRAS
from ..limits import check_state
from ..text import fold
from .now import current, initiative_now, status_now
from ..model import Combatant, Fight, LogKind, Role, evolve, mention_of
from . import commands as nc
from .model import LEVELS, Declared, NarrPart, NarrSheet, NCondition, NWeapon, PendingAttack, Trait
from .pools import dice, pool_of, slot_penalty
from .tables import BASE, TRAITS, Maneuver, called, empty_word, find_maneuver, weapons

STUNNED_HINT = "no puede actuar ni defenderse hasta perder su acción"


# ------------------------------------------------------------------ helpers


def get(fight: Fight, name: str) -> Combatant:
    """`name` as it stands in this turn (`current`): what every rule reads and edits."""
    c = fight.find(name)
    if c is None:
        raise Refusal(f"No hay nadie llamado «{name}» en este combate")
    return current(c, fight.turn)


def sheet(c: Combatant) -> NarrSheet:
    assert isinstance(c.sheet, NarrSheet), c.name
    return c.sheet


def part(fight: Fight) -> NarrPart:
    return fight.narr if fight.narr is not None else NarrPart()


def with_part(fight: Fight, **changes) -> Fight:
    return evolve(fight, narr=evolve(part(fight), **changes))


def edit(fight: Fight, name: str, **changes) -> Fight:
    c = get(fight, name)
    return fight.replace(evolve(c, sheet=evolve(sheet(c), **changes)))


def log(fight: Fight, text: str, about=(), *, warning: bool = False, kind: LogKind = LogKind.ACTION) -> Fight:
    """One entry naming `about`: names (the actor), or (name, Role) pairs (a target:
    the numbers in the text are not its own)."""
    mentions = []
    for item in about:
        name, role = (item, Role.ACTOR) if isinstance(item, str) else item
        c = fight.find(name)
        mentions.append(mention_of(c, role) if c is not None else (name, role))
    return fight.note(text, warning=warning, kind=kind, about=mentions)


def roll_pool(fight: Fight, dice: int, difficulty: int) -> tuple[Fight, int, str]:
    """d10s at `difficulty` (§3): successes, 1s cancel one each, a botch is no
    success rolled and a 1; returns the fight, the net successes (−1: botch), text."""
    if dice <= 0:
        return fight, 0, "0 dados: falla"
    rng = random.Random(f"{fight.seed}:{fight.rolls}")
    faces = [rng.randint(1, 10) for _ in range(dice)]
    fight = evolve(fight, rolls=fight.rolls + 1)
    hits = sum(1 for f in faces if f >= difficulty)
    ones = faces.count(1)
    if hits == 0 and ones:
        return fight, -1, f"{' '.join(map(str, faces))}: fracaso"
    net = max(hits - ones, 0)
    return fight, net, f"{' '.join(map(str, faces))}: {net} éxito(s)"


def difficulty_text(value: int) -> str:
    if value > 10:
        return f"dificultad 10 (+{value - 10}): el Narrador decide"
    return f"dificultad {max(value, 2)}"


def ordinal(n: int) -> str:
    return f"{n}.ª"


def order_key(fight: Fight, c: Combatant) -> tuple:
    s = sheet(c)
    return (-(s.initiative or 0), -s.rating, -(s.dex or 0), s.tie)


def agreed(name: str, word: str) -> str:
    """`word` (a masculine participle: «apresado») agreeing with `name` as SYSTEMS §3.3
    writes it («Kara está apresada»).  **Decision:** the tracker knows no gender; a
    name whose last word ends in «a» reads as feminine (Kara, Lucía, la Viuda Negra),
    any other as masculine (Matón, Víctor, Cadáver)."""
    last = fold(name).split()[-1] if name.split() else ""
    return word[:-1] + "a" if last.endswith("a") and word.endswith("o") else word


def in_play(fight: Fight) -> list[Combatant]:
    """Those not out of the fight (as stored: read their turn fields with
    `initiative_now`/`status_now`, or through `get`)."""
    return [c for c in fight.combatants if not sheet(c).out]


def grappled_with(s: NarrSheet) -> tuple[str, str] | None:
    for c in s.conditions:
        if c.id in ("presa", "sujeta", "apresado", "sujetado") and c.value:
            return c.id, c.value
    return None


# ------------------------------------------------------------------ set-up


def _add(fight: Fight, command: nc.Add) -> Fight:
    if fight.find(command.name) is not None:
        raise Refusal(f"Ya hay un combatiente llamado «{fight.find(command.name).name}»")
    if command.ini is None and (command.dex is None or command.wits is None):
        raise Refusal("El alta necesita ini=N o des=N y ast=N (la puntuación de iniciativa)")
    rating = command.ini if command.ini is not None else (command.dex or 0) + (command.wits or 0)
    traits = []
    for word in command.traits:
        id, _, value = word.partition(":")
        traits.append(Trait(id, int(value or 1)))
    s = NarrSheet(dex=command.dex, wits=command.wits, rating=rating, willpower=command.willpower,
                  points=command.willpower, stamina=command.stamina, strength=command.strength,
                  per=command.per, supernatural=command.supernatural, ambidextrous=command.ambidextrous,
                  traits=tuple(traits), levels=command.levels, tie=len(fight.combatants),
                  turn=fight.turn)
    c = Combatant(command.name, 0, side=command.side, hidden=command.hidden, private=command.private, sheet=s)
    fight = evolve(fight, combatants=(*fight.combatants, c))
    if part(fight).phase != "initiative":  # joining mid-turn: from the next turn on
        fight = edit(fight, c.name, status="acted")
    return log(fight, f"Alta de {c.name} (iniciativa {rating}, FV {command.willpower})", [c.name],
               kind=LogKind.SETUP)


def _arm(fight: Fight, command: nc.Arm) -> Fight:
    c = get(fight, command.name)
    s = sheet(c)
    preset = weapons().get(command.weapon)
    if preset is None and command.damage is None:
        raise Refusal(f"No conozco el arma «{command.weapon}»: usa un nombre de la tabla"
                      " (revolver-ligero, pistola-ligera, rifle-de-asalto…) o da su dano=N")
    base = preset or NWeapon(command.weapon)
    weapon = evolve(
        base,
        name=base.name if preset else command.weapon,
        damage=command.damage if command.damage is not None else base.damage,
        range=command.range if command.range is not None else base.range,
        rate=command.rate if command.rate is not None else base.rate,
        magazine=command.magazine if command.magazine is not None else base.magazine,
        chamber=command.chamber or base.chamber,
        auto=command.auto or base.auto,
        scope=command.scope or base.scope,
    )
    weapon = evolve(weapon, ammo=weapon.magazine + (1 if weapon.chamber else 0))
    weapons_now = tuple(w for w in s.weapons if w.name != weapon.name) + (weapon,)
    fight = edit(fight, c.name, weapons=weapons_now)
    loaded = f", {weapon.ammo} balas" if weapon.magazine else ""
    return log(fight, f"{c.name}: arma {weapon.name} (daño {'Fuerza +' if weapon.strength else ''}{weapon.damage}"
                      f"{loaded})", [c.name], kind=LogKind.SETUP)


def _initiative(fight: Fight, command: nc.Initiative) -> Fight:
    name = get(fight, command.name).name
    if part(fight).phase != "initiative":
        raise Refusal("La iniciativa se escribe en la fase de iniciativa (al empezar cada turno)")
    fight = edit(fight, name, initiative=command.value, ini_penalty=0)
    return _resort(log(fight, f"Iniciativa de {name}: {command.value}", [name], kind=LogKind.SETUP))


def _roll(fight: Fight, command: cmd.Roll) -> Fight:
    if part(fight).phase != "initiative":
        raise Refusal("La iniciativa se tira en la fase de iniciativa (al empezar cada turno)")
    names = command.names or tuple(c.name for c in in_play(fight) if initiative_now(sheet(c), fight.turn) is None)
    if not names:
        raise Refusal("Todos tienen ya iniciativa este turno")
    for name in names:
        s = sheet(get(fight, name))
        fight, die = _d10(fight)
        total = die + s.rating + s.health_penalty - s.ini_penalty
        parts = f"{die} + {s.rating}" + (f" − {-s.health_penalty}" if s.health_penalty else "") + (
            f" − {s.ini_penalty} (derribado)" if s.ini_penalty else "")
        fight = edit(fight, name, initiative=total, ini_penalty=0)
        fight = log(fight, f"Iniciativa de {name}: {parts} = {total}", [name], kind=LogKind.SETUP)
    return _resort(fight)


def _d10(fight: Fight) -> tuple[Fight, int]:
    die = random.Random(f"{fight.seed}:{fight.rolls}").randint(1, 10)
    return evolve(fight, rolls=fight.rolls + 1), die


def _resort(fight: Fight) -> Fight:
    named = [current(c, fight.turn) for c in fight.combatants if initiative_now(sheet(c), fight.turn) is not None]
    order = tuple(c.name for c in sorted(named, key=lambda c: order_key(fight, c)))
    return with_part(fight, order=order)


def _ties(fight: Fight) -> Fight:
    order = part(fight).order
    reasons = []
    for a, b in zip(order, order[1:]):
        sa, sb = sheet(get(fight, a)), sheet(get(fight, b))
        if sa.initiative != sb.initiative:
            continue
        if sa.rating != sb.rating:
            why = f"puntuación {sa.rating} > {sb.rating}"
        elif (sa.dex or 0) != (sb.dex or 0):
            why = f"Destreza {sa.dex} > {sb.dex}"
        else:
            why = "orden del Narrador"
        reasons.append(f"{a} antes que {b} ({why})")
    return log(fight, "Empate: " + "; ".join(reasons), list(order), kind=LogKind.ORDER) if reasons else fight


def _swap(fight: Fight, command: cmd.Swap) -> Fight:
    a, b = get(fight, command.first), get(fight, command.second)
    sa, sb = sheet(a), sheet(b)
    if (sa.initiative, sa.rating, sa.dex) != (sb.initiative, sb.rating, sb.dex):
        raise Refusal(f"Cambiar: {a.name} y {b.name} no están empatados")
    fight = edit(edit(fight, a.name, tie=sb.tie), b.name, tie=sa.tie)
    return log(_resort(fight), f"El Narrador cambia el orden del empate entre {a.name} y {b.name}",
               [a.name, b.name], kind=LogKind.ORDER)


# ------------------------------------------------------------------ phases


def _next(fight: Fight, command: object) -> Fight:
    """`siguiente` (and `empezar`): end the initiative phase; pass the declarer (who
    declares nothing); end the actor's go (what is left of it is dropped)."""
    phase = part(fight).phase
    if phase == "initiative":
        missing = [c.name for c in in_play(fight) if initiative_now(sheet(c), fight.turn) is None]
        if not fight.combatants:
            raise Refusal("No hay combatientes: añade alguno con «alta»")
        if missing:
            raise Refusal(f"Falta la iniciativa de {', '.join(missing)}: «iniciativa NOMBRE N» o «tirar»")
        fight = _ties(_resort(fight))
        fight = log(with_part(fight, phase="declare"), f"Turno {fight.turn} · Declaración (de menor a mayor)",
                    kind=LogKind.TURN)
        return _next_declarer(fight)
    if phase == "declare":
        name = part(fight).declarer
        assert name is not None
        fight = edit(fight, name, status="declared")
        fight = log(fight, f"{name} no declara nada", [name], kind=LogKind.DECLARE)
        return _next_declarer(fight)
    if phase == "act":
        fight = _close_attack(fight)
        name = fight.actor
        if name is None:  # only delayers left: the step ends the action phase
            return _turn_over(fight)
        fight = _finish(fight, name, f"{name} termina (deja lo que le quedaba)")
        return _next_actor(fight)
    return _end_turn(fight)  # the turn is over: the step is the next initiative phase


def _next_declarer(fight: Fight) -> Fight:
    """The lowest initiative that has not declared (§4.2); after the highest, the
    action phase (the highest acts first)."""
    for name in reversed(part(fight).order):
        c = get(fight, name)
        s = sheet(c)
        if s.status != "to_declare":
            continue
        if s.out:
            fight = edit(fight, name, status="out")
            continue
        lost = _stunned_this_turn(s, fight.turn)
        if lost:
            fight = edit(fight, name, status="stunned")
            fight = log(fight, f"{name} está aturdido: pierde la acción de este turno", [name], kind=LogKind.TURN)
            continue
        forced = grappled_with(s)
        hint = ""
        if forced is not None:
            hint = (" (en una presa: solo apretar o soltar)" if forced[0] in ("presa", "sujeta")
                    else " (apresado: solo escapar)")
        fight = with_part(fight, declarer=name)
        return log(fight, f"Declara {name} (iniciativa {s.initiative}){hint}", [name], kind=LogKind.TURN)
    fight = with_part(fight, declarer=None, phase="act")
    fight = log(fight, f"Turno {fight.turn} · Acción (de mayor a menor)", kind=LogKind.TURN)
    return _next_actor(fight)


def _stunned_this_turn(s: NarrSheet, turn: int) -> bool:
    c = next((x for x in s.conditions if x.id == "aturdido"), None)
    return c is not None and (c.until is None or c.until == turn)


def _next_actor(fight: Fight) -> Fight:
    """The highest in the order still to act (delayers wait until they choose to)."""
    fight = evolve(fight, actor=None)
    for name in part(fight).order:
        s = sheet(get(fight, name))
        if s.status == "declared" and _stunned_this_turn(s, fight.turn):
            s = evolve(s, status="stunned")  # stunned after declaring: the action is lost
        if s.status == "stunned":
            if _stunned_this_turn(s, fight.turn):
                fight = edit(fight, name, status="acted", declared=(),
                             conditions=tuple(c for c in s.conditions if c.id != "aturdido"))
                fight = log(fight, f"{name}: aturdido, pierde su acción (deja de estar aturdido)", [name],
                            kind=LogKind.TURN)
            continue
        if s.status != "declared":
            continue
        if s.out:
            fight = edit(fight, name, status="out")
            continue
        fight = evolve(fight, actor=name)
        if not _pending_actions(s):
            fight = log(fight, f"Le toca a {name} ({s.initiative}): no le queda nada que hacer", [name],
                        kind=LogKind.TURN)
            fight = edit(fight, name, status="acted")
            fight = evolve(fight, actor=None)
            continue
        return log(fight, f"Le toca a {name} ({s.initiative})", [name], kind=LogKind.TURN)
    return _turn_over(fight)


def _lose_delays(fight: Fight) -> Fight:
    """The last in the order has acted: the turn ends, and the delayed actions not
    taken by then are lost (§4, §6.9): their go is over."""
    waiting = [n for n in part(fight).order if sheet(get(fight, n)).status == "delaying"]
    if not waiting:
        return fight
    for name in waiting:
        fight = edit(fight, name, status="acted", declared=())
    return log(fight, "Fin del turno: " + ", ".join(waiting) + " pierde(n) la acción retrasada", waiting,
               kind=LogKind.TURN)


def _turn_over(fight: Fight) -> Fight:
    """The last in the order has acted (§4: «The turn ends when the last in the order
    has acted»): the phase is `over` (SYSTEMS §3.4), the delayed actions not taken are
    lost, nobody acts.  **Decision:** the next turn's initiative phase starts with
    `turno` or `siguiente`, or by itself with the first command of that phase
    (`iniciativa`, `tirar`) or one that belongs to the coming turn (`fv`, `emboscada`:
    `_NEXT_TURN_FIRST`); anything else (damage, conditions, notes, set-up) is applied
    to the turn that just ended, as it would be to the next one's initiative phase."""
    fight = _lose_delays(_close_attack(fight))
    fight = with_part(evolve(fight, actor=None), phase="over", declarer=None, attack=None)
    return log(fight, f"Fin del turno {fight.turn}: todos han actuado («turno» empieza el {fight.turn + 1})",
               kind=LogKind.TURN)


def _place_passed(fight: Fight, name: str) -> bool:
    """Whether the place of `name` in this turn's order has passed (§6.9: a delayer
    acts «at any later point of the action phase»): someone after it in the order has
    had its place (everyone still waiting for theirs comes after it).  **Decision:**
    while the go of one before it is ending (its last attack still being resolved),
    its place has not passed yet."""
    order = part(fight).order
    if name not in order:
        return True  # not in this turn's order: no place to wait for
    mine = order.index(name)
    waiting = [i for i, n in enumerate(order) if sheet(get(fight, n)).status in ("declared", "stunned")]
    reached = waiting[0] if waiting else len(order)
    if fight.actor is not None and fight.actor in order and order.index(fight.actor) < mine:
        return False
    return mine < reached


def _pending_actions(s: NarrSheet) -> list[int]:
    return [i for i, d in enumerate(s.declared) if not d.defense and not d.done]


def _finish(fight: Fight, name: str, why: str | None = None) -> Fight:
    """`name`'s go is over: what it declared and did not do is dropped (it stays in
    the declaration, not done: the sheet strikes it, players never see it)."""
    fight = edit(fight, name, status="acted")
    if why:
        fight = log(fight, why, [name], kind=LogKind.TURN)
    return evolve(fight, actor=None) if fight.actor == name else fight


def _end_turn(fight: Fight) -> Fight:
    """The next turn's initiative phase (§4, §13): what lasted this turn ends,
    delayed actions are lost, the Willpower point is available again; notes given
    turns (`nota … turnos=N`) that end with this one go."""
    fight = expire_notes(_close_attack(fight), fight.turn)
    # Each sheet's turn fields read as `_renew` leaves them from now on (`TURNS`).
    fight = evolve(fight, turn=fight.turn + 1, actor=None)
    fight = with_part(fight, phase="initiative", order=(), declarer=None, attack=None)
    return log(fight, f"— Turno {fight.turn} — Iniciativa", kind=LogKind.TURN)


def _new_turn(fight: Fight, command: cmd.NewTurn) -> Fight:
    """`turno` from any phase, the initiative phase included (SYSTEMS §3.5): the turn
    ends (delayed and undone actions are lost) and the next initiative phase starts."""
    if part(fight).phase == "over":  # nobody has anything left to lose
        return _end_turn(fight)
    still = {c.name for c in in_play(fight) if status_now(sheet(c), fight.turn) in ("declared", "delaying", "to_declare")}
    waiting = [n for n in part(fight).order if n in still]
    if waiting:
        fight = log(fight, "El Narrador cierra el turno: " + ", ".join(waiting) + " pierden lo que les quedaba",
                    waiting, kind=LogKind.TURN)
    return _end_turn(fight)


# ------------------------------------------------------------------ declaring


def _declare(fight: Fight, command: nc.Declare) -> Fight:
    name = get(fight, command.name).name
    p = part(fight)
    if p.phase != "declare":
        raise Refusal("Ahora no es la fase de declaración" + (
            ": «siguiente» la empieza cuando todos tengan iniciativa" if p.phase == "initiative" else ""))
    if p.declarer != name:
        who = p.declarer
        s_who = sheet(get(fight, who)) if who else None
        raise Refusal(f"Declara primero {who} (iniciativa {s_who.initiative if s_who else '?'}):"
                      " se declara de menor a mayor")
    s = sheet(get(fight, name))
    if s.out:
        raise Refusal(f"{name} está fuera de combate: no declara")
    items = command.items
    forced = grappled_with(s)
    allowed = None
    if forced is not None:
        allowed = ("apretar", "soltar") if forced[0] in ("presa", "sujeta") else ("escapar",)
        for item in items:
            if item.action not in allowed:
                if forced[0] in ("presa", "sujeta"):
                    raise Refusal(f"{name} está en una presa con {forced[1]}: solo puede apretar (daño Fuerza)"
                                  " o soltar")
                raise Refusal(f"{name} está {agreed(name, 'apresado')}: solo puede intentar escapar")
    if items and items[0].action == "retrasa":
        if len(items) > 1:
            raise Refusal("Retrasar es la única declaración: el resto se declara al actuar")
        fight = edit(fight, name, status="delaying")
        fight = log(fight, f"{name} declara: retrasa su acción", [name], kind=LogKind.DECLARE)
        return _next_declarer(fight)
    full = bool(items) and items[0].action == "defensa-total"
    if full:
        items = items[1:] or (nc.Item("esquiva"),)
        for item in items:
            m = find_maneuver(item.action)
            if m is None or not m.defense:
                raise Refusal("La defensa total solo lleva maniobras defensivas (bloqueo, esquiva, parada)")
    slots: list[tuple[Maneuver, int | None]] = []
    for item in items:
        m = find_maneuver(item.action)
        if m is None:
            raise Refusal(f"No conozco la acción «{item.action}»")
        if item.count < 1 or item.count > 20:
            raise Refusal(f"{m.name}: entre 1 y 20 veces")
        slots += [(m, item.pool)] * item.count
    if not slots:
        raise Refusal("Se usa «declara NOMBRE ACCION[:RESERVA] [ACCION[:RESERVA] …]»")
    n = 1 if full else len(slots)
    declared = []
    for k, (m, typed) in enumerate(slots, 1):
        if m.alone and n > 1 and m.id == "apuntar":
            raise Refusal("Apuntar ocupa todo el turno: no puede ir en una acción múltiple")
        pool = pool_of(s, m, typed)
        penalty = 0 if full else slot_penalty(n, k)
        if pool is not None and pool + penalty <= 0:
            raise Refusal(f"{name} no puede declarar {n} acciones: la {ordinal(k)} tendría {pool} − {-penalty}"
                          f" = {str(pool + penalty).replace('-', '−')} dados")
        declared.append(Declared(m.id, pool, penalty, defense=m.defense))
    _check_declared_fire(name, s, [d for d in declared])
    if any(d.action == "apuntar" for d in declared):
        _check_aim(name, s)
    fight = edit(fight, name, status="declared", declared=tuple(declared), full_defense=full)
    shown = ", ".join(
        f"{find_maneuver(d.action).name}{'' if d.pool is None else f' {d.pool}'}"
        + ("" if not d.penalty else f"{d.penalty:+d}".replace("-", "−"))
        + (" (def.)" if d.defense else "")
        for d in declared)
    warn = s.aim and not all(d.action == "apuntar" for d in declared)
    fight = log(fight, f"{name} declara{' defensa total:' if full else ':'} {shown}", [name], kind=LogKind.DECLARE)
    if warn:
        fight = log(fight, f"Aviso: {name} pierde lo apuntado (+{s.aim}) si hace otra cosa", [name], warning=True,
                    kind=LogKind.RULE)
    if s.aim and not any(d.action == "apuntar" or d.action in _AIMED_SHOTS for d in declared):
        fight = _lose_aim(fight, name)  # §6.7: «any other action, declared or aborted, resets it»
    if any(d.action == "recarga" for d in declared) and n > 1:
        fight = log(fight, "Aviso: recargar dentro de una acción múltiple es decisión del Narrador", [name],
                    warning=True, kind=LogKind.RULE)
    return _next_declarer(fight)


#: The shots that count one each against Cadencia (§9; a burst counts 1).
_SINGLE_SHOTS = ("disparo", "disparos-multiples", "rafaga-de-tres-balas", "apuntar-localizacion")


def _check_declared_fire(name: str, s: NarrSheet, declared: list[Declared]) -> None:
    weapon = next((w for w in s.weapons if w.ranged), None)
    shots = sum(1 for d in declared if d.action in _SINGLE_SHOTS)
    if weapon is None:
        return
    two = sum(1 for d in declared if d.action == "dos-armas")
    main_shots = shots + (two + 1) // 2
    if main_shots > weapon.rate > 0:
        raise Refusal(f"Cadencia {weapon.rate}: {name} no puede disparar {main_shots} veces este turno")
    off = _off_hand_weapon(s)
    if off is not None and two // 2 > off.rate > 0:
        raise Refusal(f"Cadencia {off.rate}: {name} no puede disparar {two // 2} veces este turno con {off.name}")
    for d in declared:
        _check_fire_now(name, weapon, d.action, shots_before=0)


def _check_fire_now(name: str, weapon: NWeapon, action: str, shots_before: int) -> None:
    if action in ("fuego-automatico", "dispersion"):
        if not weapon.auto:
            raise Refusal(f"{find_maneuver(action).name}: {called(weapon)} no puede")
        half = -(-weapon.magazine // 2)
        if weapon.ammo < half:
            raise Refusal(f"{find_maneuver(action).name} necesita al menos la mitad del cargador ({half} de"
                          f" {weapon.magazine}; quedan {weapon.ammo})")
    elif action == "rafaga-de-tres-balas":
        if not weapon.auto:
            raise Refusal(f"Ráfaga de tres balas: {called(weapon)} no puede")
        if weapon.ammo < 3:
            raise Refusal(f"Ráfaga de tres balas necesita 3 balas (quedan {weapon.ammo})")
    elif action in (*_SINGLE_SHOTS, "dos-armas") and action != "rafaga-de-tres-balas" \
            and weapon.ammo == 0 and weapon.magazine:
        raise Refusal(f"{called(weapon, start=True)} está {empty_word(weapon)}: recarga")


def _check_aim(name: str, s: NarrSheet) -> None:
    if (s.trait("armas-de-fuego") or 0) < 1:
        raise Refusal("Apuntar necesita al menos 1 en Armas de Fuego")
    weapon = next((w for w in s.weapons if w.ranged), None)
    cap = s.per + (2 if weapon is not None and weapon.scope else 0)
    if s.aim >= cap:
        raise Refusal(f"{name} ya suma el máximo de Apuntar (Percepción {s.per})")


# ------------------------------------------------------------------ acting


def _check_turn(fight: Fight, name: str) -> NarrSheet:
    s = sheet(get(fight, name))
    p = part(fight)
    if s.out:
        raise Refusal(f"{name} está fuera de combate: no puede actuar")
    if p.phase != "act":
        raise Refusal("Ahora no es la fase de acción" + (" (es la declaración)" if p.phase == "declare" else ""))
    if s.has("aturdido"):
        raise Refusal(f"{name} está aturdido: {STUNNED_HINT}")
    if s.status == "delaying":
        return s
    if fight.actor != name:
        raise Refusal(f"No es el momento de {name}: actúa {_actor_text(fight)}")
    return s


def _actor_text(fight: Fight) -> str:
    actor = fight.actor
    return f"{actor} ({sheet(get(fight, actor)).initiative})" if actor else "nadie"


def _act(fight: Fight, command: nc.Act) -> Fight:
    name = get(fight, command.name).name
    s = _check_turn(fight, name)
    fight = _close_attack(fight)
    s = sheet(get(fight, name))
    if s.status == "delaying":
        if not _place_passed(fight, name):
            raise Refusal(f"{name} retrasó su acción: actúa después de su momento ({s.initiative}),"
                          f" no antes; ahora actúa {_actor_text(fight)}")
        if command.action is None:
            raise Refusal(f"{name} retrasó su acción: di cuál hace («{name} actua ACCION …»)")
        m = find_maneuver(command.action)
        if m is None:
            raise Refusal(f"No conozco la acción «{command.action}»")
        declared = (Declared(m.id, pool_of(s, m, command.pool), 0, defense=m.defense),)
        fight = edit(fight, name, status="declared", declared=declared)
        fight = evolve(fight, actor=name)
        s = sheet(get(fight, name))
    pending = _pending_actions(s)
    if command.action is not None:
        m = find_maneuver(command.action)
        if m is None:
            raise Refusal(f"No conozco la acción «{command.action}»")
        match = [i for i in pending if s.declared[i].action == m.id]
        if not match:
            names = ", ".join(find_maneuver(d.action).name for d in s.declared) or "nada"
            raise Refusal(f"{name} no declaró esa acción (declaró: {names})")
        index = match[0]
    else:
        if not pending:
            raise Refusal(f"A {name} no le queda ninguna acción declarada")
        index = pending[0]
    d = s.declared[index]
    m = find_maneuver(d.action)
    declared = tuple(evolve(x, done=True, target=command.target) if i == index else x
                     for i, x in enumerate(s.declared))
    fight = edit(fight, name, declared=declared)
    fight = _perform(fight, name, d, m, command)
    s = sheet(get(fight, name))
    if fight.actor == name and not _pending_actions(s) and part(fight).attack is None:
        fight = edit(fight, name, status="acted")
        return _next_actor(fight)
    if fight.actor == name and not _pending_actions(s):
        fight = edit(fight, name, status="acted")
    return fight


def _perform(fight: Fight, name: str, d: Declared, m: Maneuver, command: nc.Act) -> Fight:
    s = sheet(get(fight, name))
    if m.id == "apuntar":
        weapon = next((w for w in s.weapons if w.ranged), None)
        gain = 1 + (2 if weapon is not None and weapon.scope and not s.aim_scope else 0)
        cap = s.per + (2 if weapon is not None and weapon.scope else 0)
        aim = min(s.aim + gain, cap)
        fight = edit(fight, name, aim=aim, aim_scope=s.aim_scope or gain > 1)
        return log(fight, f"{name} apunta: +{aim} dados al siguiente disparo", [name])
    if s.aim and m.id not in _AIMED_SHOTS:
        fight = _lose_aim(fight, name)
    if m.id == "recarga":
        weapon = next((w for w in s.weapons if w.magazine), None)
        if weapon is None:
            raise Refusal(f"{name} no tiene arma que recargar")
        if weapon.reload_turns > 1 and s.reloading + 1 < weapon.reload_turns:
            fight = edit(fight, name, reloading=s.reloading + 1)
            return log(fight, f"{name} recarga {weapon.name}: turno {s.reloading + 1} de {weapon.reload_turns}",
                       [name])
        full = weapon.magazine + (1 if weapon.chamber and weapon.ammo > 0 else 0)
        fight = _set_weapon(fight, name, evolve(weapon, ammo=full))
        fight = edit(fight, name, reloading=0)
        return log(fight, f"{name} recarga {weapon.name}: {weapon.ammo} → {full}", [name])
    if m.id == "soltar":
        return _release(fight, name)
    if m.id == "escapar":
        return log(fight, f"{name} intenta escapar: tirada enfrentada de Fuerza + Pelea («suelta …» si lo logra)",
                   [name])
    if not m.attack and m.id != "apretar":
        return log(fight, f"{name}: {m.name}", [name])
    if command.target is None:
        raise Refusal(f"¿A quién? «{name} actua {m.id} a OBJETIVO [exitos=N]»")
    target = get(fight, command.target).name
    if target == name:
        raise Refusal(f"{name} no puede atacarse a sí mismo")
    return _attack(fight, name, target, d, m, command)


#: The shots that use the aim (§6.7: «el siguiente disparo»); any other action loses it.
_AIMED_SHOTS = (*_SINGLE_SHOTS, "dos-armas", "fuego-automatico", "dispersion")


def _lose_aim(fight: Fight, name: str) -> Fight:
    """§6.7: «Cualquier acción realizada mientras se apunta, incluso una acción
    defensiva, cancela los beneficios obtenidos»: the aim goes back to 0."""
    s = sheet(get(fight, name))
    if not s.aim:
        return fight
    fight = edit(fight, name, aim=0, aim_scope=False)
    return log(fight, f"{name} pierde lo apuntado (+{s.aim}): hace otra cosa", [name], kind=LogKind.RULE)


def _set_weapon(fight: Fight, name: str, weapon: NWeapon) -> Fight:
    s = sheet(get(fight, name))
    return edit(fight, name, weapons=tuple(weapon if w.name == weapon.name else w for w in s.weapons))


def _attack(fight: Fight, name: str, target: str, d: Declared, m: Maneuver, command: nc.Act) -> Fight:
    s = sheet(get(fight, name))
    t = sheet(get(fight, target))
    ranged = m.kind == "ranged"
    weapon = next((w for w in s.weapons if w.ranged == ranged), None)
    extra = 0
    notes = []
    off_hand = m.id == "dos-armas" and _off_hand_turn(s)
    if off_hand:
        weapon = _off_hand_weapon(s)
        if weapon is None:
            raise Refusal(f"Dos armas: {name} no lleva una segunda arma a distancia («arma {name} ARMA»)")
    if ranged:
        if weapon is None:
            raise Refusal(f"{name} no tiene arma a distancia")
        _check_fire_now(name, weapon, m.id, weapon.shots)
        if m.ammo in ("shot", "burst") and weapon.rate and weapon.shots >= weapon.rate:
            raise Refusal(f"Cadencia {weapon.rate}: {name} ya disparó {weapon.shots} veces este turno")
        rounds = {"shot": 1, "burst": 3}.get(m.ammo, weapon.ammo)
        shots = weapon.shots + (1 if m.ammo in ("shot", "burst") else 0)
        fight = _set_weapon(fight, name, evolve(weapon, ammo=weapon.ammo - rounds, shots=shots))
        notes.append(f"{weapon.ammo} → {weapon.ammo - rounds} balas")
        if s.aim:
            extra += s.aim
            notes.append(f"+{s.aim} apuntando")
            fight = edit(fight, name, aim=0, aim_scope=False)
    if command.meters:
        extra -= command.meters
        notes.append(f"−{command.meters} por moverse")
    if t.has("inmovilizado"):
        extra += 2
        notes.append("+2 inmovilizado")
    if t.has("cegado"):
        notes.append("+2 dados (objetivo cegado)")
        extra += 2
    base = BASE
    if ranged and weapon is not None:
        base, band = _range_band(name, weapon, command)
        if band:
            notes.append(band)
    elif "quemarropa" in command.words:
        base = 4
    cover = max(t.cover, 1 if t.has("derribado") else 0) if ranged else 0  # on the ground: light cover
    own_cover = max(s.cover - 1, 0) if ranged else 0  # shooting back from cover (§8.3 Cobertura)
    difficulty = base + m.difficulty + cover + own_cover + _own_penalties(s, fight.turn)
    more_difficulty, more_dice, damage_bonus, more_notes = _attack_words(s, m, command, off_hand)
    difficulty += more_difficulty
    extra += more_dice
    notes += more_notes
    if "a-ciegas" in command.words and ranged:
        fight = log(fight, "Aviso: a ciegas, la mayoría de los ataques a distancia no pueden ni hacerse",
                    [name], warning=True, kind=LogKind.RULE)
    if ranged and s.has("cegado"):
        fight = log(fight, f"Aviso: {name} está cegado: la mayoría de los ataques a distancia no pueden ni"
                           " hacerse", [name], warning=True, kind=LogKind.RULE)
    fight = _warn_difficulty(fight, name, difficulty)
    live = dice(s, d, extra=extra)
    if command.successes is not None:
        successes = command.successes
        rolled = ""
    else:
        if live is None:
            raise Refusal(f"No sé la reserva de {name}: escribe los éxitos («exitos=N»)")
        fight, successes, rolled = roll_pool(fight, live, min(difficulty, 10))
        rolled = f" (tira {live}: {rolled})"
    if m.id == "dispersion" and successes > 0:
        successes, rolled = _one_person_scatter(successes, rolled)
    if t.has("atado"):
        successes = max(successes, 1)
    damage = _damage_dice(s, m, weapon) + damage_bonus
    pool_text = "?" if live is None else str(live)
    fight = with_part(fight, attack=PendingAttack(name, target, m.id, max(successes, 0), damage, ranged,
                                                  m.lethal or (weapon is not None and weapon.lethal and m.damage == "arma")))
    detail = f" ({', '.join(notes)})" if notes else ""
    head = f"{name}: {m.name} a {target}: {pool_text} dados, {difficulty_text(difficulty)}{detail}{rolled}"
    if successes <= 0:
        fight = with_part(fight, attack=None)
        return log(fight, f"{head} → {'fracaso' if successes < 0 else 'falla'}", [name, (target, Role.TARGET)])
    text = f"{head} → {successes} éxito(s); sin defensa: daño {damage} + ({successes} − 1) = {damage + successes - 1} dados"
    if m.id in ("presa", "sujetar"):
        text = f"{head} → {successes} éxito(s): si no se defiende, {target} queda {'sujeto' if m.id == 'sujetar' else 'apresado'}"
    return log(fight, text, [name, (target, Role.TARGET)])


#: Attack words (§8.2): (word, difficulty, dice, damage dice, what the log says); the
#: called shots' table: Medio +1 dif., daño 0; Pequeño +2, +1; Diminuto +3, +2.
_WORD_MODS = (
    ("flanco", 0, 1, 0, "+1 dado por el flanco"),
    ("espalda", 0, 2, 0, "+2 dados por la espalda"),
    ("a-ciegas", 2, 0, 0, "+2 dif. a ciegas"),
    ("localizacion-medio", 1, 0, 0, "+1 dif. localización media"),
    ("localizacion-pequeno", 2, 0, 1, "+2 dif. localización pequeña (+1 daño)"),
    ("localizacion-diminuto", 3, 0, 2, "+3 dif. localización diminuta (+2 daño)"),
)


def _attack_words(s: NarrSheet, m: Maneuver, command: nc.Act, off_hand: bool) -> tuple[int, int, int, list[str]]:
    """The attack's words (§8.2) and Dos Armas' off hand (§8.3): the difficulty, dice
    and damage dice they add, and what the log says of them.  A called shot is not
    possible with Fuego automático («no puede apuntar a partes especificas del cuerpo
    cuando utiliza fuego automático»)."""
    words = command.words
    called = [w for w in words if w.startswith("localizacion-")]
    if called and m.id == "fuego-automatico":
        raise Refusal("Con fuego automático no se puede apuntar a una localización"
                      " («no puede apuntar a partes especificas del cuerpo»)")
    if m.id == "apuntar-localizacion" and not called:
        words = (*words, "localizacion-medio")  # **Decision:** no size named: a medium location
    difficulty = dice_added = damage = 0
    notes = []
    if off_hand and not s.ambidextrous:
        difficulty += 1
        notes.append("+1 dif. mano mala")
    for word, dif, dice_bonus, more_damage, label in _WORD_MODS:
        if word in words:
            difficulty += dif
            dice_added += dice_bonus
            damage += more_damage
            notes.append(label)
    return difficulty, dice_added, damage, notes


def _warn_difficulty(fight: Fight, name: str, difficulty: int) -> Fight:
    """SYSTEMS §3.3 Warnings: «a difficulty above 10»; it stays 10 and the tracker says
    how many points over (§3: “dificultad 10 (+1): el Narrador decide”)."""
    if difficulty <= 10:
        return fight
    return log(fight, f"Aviso: {name}: {difficulty_text(difficulty)}", [name], warning=True, kind=LogKind.RULE)


def _one_person_scatter(successes: int, rolled: str) -> tuple[int, str]:
    """§8.3 Dispersión at one person alone: «sólo la mitad de los éxitos»; **Decision**
    (§8.3): rounded down.  An attack names one target, so it is always one person."""
    half = successes // 2
    return half, f"{rolled} (dispersión a una sola persona: la mitad de {successes} = {half})"


def _off_hand_weapon(s: NarrSheet) -> NWeapon | None:
    """Dos Armas (§8.3): the second ranged weapon is the one in the off hand."""
    ranged = [w for w in s.weapons if w.ranged]
    return ranged[1] if len(ranged) > 1 else None


def _off_hand_turn(s: NarrSheet) -> bool:
    """**Decision** (§8.3 Dos Armas, the seed names no order): the shots of a Dos Armas
    alternate, the first with the main hand, the second with the off hand, and so on;
    `s` has the shot being made already marked done."""
    done = sum(1 for d in s.declared if d.action == "dos-armas" and d.done)
    return done % 2 == 0


def _own_penalties(s: NarrSheet, turn: int) -> int:
    """What makes every action of `s` harder: Desequilibrado +1 (in the turn after
    it was gained), Cegado +2, each opponent beyond the first +1 (at most +4)."""
    off = any(c.id == "desequilibrado" and (c.until is None or c.until == turn) for c in s.conditions)
    return (1 if off else 0) + (2 if s.has("cegado") else 0) + min(max(s.opponents - 1, 0), 4)


def _range_band(name: str, weapon: NWeapon, command: nc.Act) -> tuple[int, str]:
    """The base difficulty of a shot (§8.3 Alcance): 4 at two metres or less, 6 up to
    the weapon's range, 8 up to twice it."""
    if "quemarropa" in command.words:
        return 4, "quemarropa"
    if "larga" in command.words:
        return 8, "larga distancia"
    if command.distance is None:
        return BASE, ""
    if command.distance <= 2:
        return 4, f"a {command.distance} m: quemarropa"
    if command.distance <= weapon.range:
        return BASE, f"a {command.distance} m"
    if command.distance <= 2 * weapon.range:
        return 8, f"a {command.distance} m: larga distancia"
    raise Refusal(f"{weapon.name} alcanza {2 * weapon.range} m como mucho: {name} no llega a {command.distance} m")


def _damage_dice(s: NarrSheet, m: Maneuver, weapon: NWeapon | None) -> int:
    if m.damage == "fuerza":
        return s.strength
    if m.damage == "fuerza+1":
        return s.strength + 1
    if m.damage == "arma" and weapon is not None:
        return weapon.damage + (s.strength if weapon.strength else 0)
    return 0


def _close_attack(fight: Fight) -> Fight:
    """The attack being resolved is over (its damage typed, or the turn goes on): a
    Presa or Sujetar that kept a net success links the two (§10)."""
    attack = part(fight).attack
    if attack is None:
        return fight
    fight = with_part(fight, attack=None)
    net = attack.successes - (attack.defended or 0)
    if attack.action in ("presa", "sujetar") and net >= 1 and fight.find(attack.target) is not None \
            and grappled_with(sheet(get(fight, attack.attacker))) is None:
        fight = _link(fight, attack.attacker, attack.target, hold=attack.action == "sujetar")
    return fight


def _defense_traits(s: NarrSheet, maneuver: str) -> int | None:
    m = find_maneuver(maneuver)
    return pool_of(s, m, None)


def _check_defense(fight: Fight, name: str, maneuver: str) -> tuple[PendingAttack, Maneuver]:
    attack = part(fight).attack
    s = sheet(get(fight, name))
    if attack is None or attack.target != name:
        raise Refusal(f"Nadie está atacando a {name} ahora")
    m = find_maneuver(maneuver)
    if m is None or not m.defense:
        raise Refusal("Las defensas son bloqueo, esquiva y parada")
    if s.has("aturdido"):
        raise Refusal(f"{name} está aturdido: {STUNNED_HINT}")
    if m.id == "bloqueo" and attack.ranged:
        raise Refusal("Bloqueo no sirve contra ataques a distancia")
    if m.id == "parada":
        if attack.ranged:
            raise Refusal("Parada no sirve contra ataques a distancia")
        if not any(not w.ranged for w in s.weapons):
            raise Refusal("Parada necesita un arma cuerpo a cuerpo")
    if m.id in ("bloqueo", "parada") and s.has("sorprendido"):
        spelled = next((c.value for c in s.conditions if c.id == "sorprendido"), None) or agreed(name, "sorprendido")
        raise Refusal(f"{name} está {spelled}: no puede bloquear ni parar")
    return attack, m


def _defend(fight: Fight, command: nc.Defend) -> Fight:
    name = get(fight, command.name).name
    attack, m = _check_defense(fight, name, command.maneuver)
    s = sheet(get(fight, name))
    place_reached = s.status == "acted" or fight.actor == name
    declared_defenses = [i for i, d in enumerate(s.declared) if d.defense]
    if s.aborted and not any(not s.declared[i].done for i in declared_defenses):
        raise Refusal(f"{name} ya abandonó su acción para defenderse: no puede defenderse de más ataques este turno")
    if not declared_defenses:
        if place_reached:
            raise Refusal(f"{name} no declaró ninguna defensa: tras actuar no puede defenderse")
        raise Refusal(f"La defensa de {name} empieza en su momento ({s.initiative}); antes, solo abortando"
                      " (tirada o punto de FV)")
    if not place_reached:
        raise Refusal(f"La defensa de {name} empieza en su momento ({s.initiative}); antes, solo abortando"
                      " (tirada o punto de FV)")
    traits = _defense_traits(s, m.id)
    same = sorted((i for i in declared_defenses if s.declared[i].action == m.id),
                  key=lambda i: s.declared[i].done)  # a pending slot's pool first
    typed = next((s.declared[i].pool for i in same), None)
    base = typed if typed is not None else traits
    k = s.defenses + 1
    if s.full_defense:
        penalty = -(k - 1)
        what = f"defensa total, {ordinal(k)} defensa"
    else:
        free = [i for i in declared_defenses if not s.declared[i].done]
        if free:
            slot = free[0]
            penalty = s.declared[slot].penalty
            s = evolve(s, declared=tuple(evolve(d, done=True) if i == slot else d for i, d in enumerate(s.declared)))
        else:
            n = len(s.declared)
            penalty = slot_penalty(n, n + k - len(declared_defenses))  # the chain goes on (§6.4)
        what = f"{ordinal(k)} defensa"
    live = None if base is None else base + penalty + s.health_penalty
    if live is not None and live <= 0:
        raise Refusal(f"{name} no tiene dados para defenderse ({what})")
    fight = fight.replace(evolve(get(fight, name), sheet=evolve(s, defenses=k)))
    fight = _lose_aim(fight, name)  # §6.7: «incluso una acción defensiva»
    return _resolve_defense(fight, name, attack, m, live, command.successes, what)


def _resolve_defense(fight: Fight, name: str, attack: PendingAttack, m: Maneuver, live: int | None,
                     successes: int | None, what: str) -> Fight:
    defender = sheet(get(fight, name))
    difficulty = BASE + (1 if attack.action == "dispersion" and m.id == "esquiva" else 0) + _own_penalties(defender, fight.turn)
    fight = _warn_difficulty(fight, name, difficulty)
    rolled = ""
    if successes is None:
        if live is None:
            raise Refusal(f"No sé la reserva de defensa de {name}: escribe los éxitos («exitos=N»)")
        fight, successes, rolled = roll_pool(fight, live, min(difficulty, 10))
        rolled = f" (tira: {rolled})"
        successes = max(successes, 0)
    pool = "?" if live is None else str(live)
    head = f"{name}: {m.name} ({what}, {pool} dados){rolled}: {successes} contra {attack.successes}"
    if m.id == "bloqueo" and attack.lethal:
        fight = log(fight, "Aviso: sin armadura no se bloquea un ataque letal", [name], warning=True,
                    kind=LogKind.RULE)
    if attack.successes <= successes:
        fight = with_part(fight, attack=None)
        fight = log(fight, f"{head} → falla el ataque de {attack.attacker}", [name, (attack.attacker, Role.TARGET)])
        weapon = next((w for w in defender.weapons if not w.ranged), None)
        if m.id == "parada" and successes > attack.successes and weapon is not None and weapon.lethal:
            counter = successes - attack.successes + weapon.damage + (defender.strength if weapon.strength else 0)
            fight = log(fight, f"{name} para con {weapon.name}: {counter} dados de daño contra {attack.attacker}",
                        [name, attack.attacker], kind=LogKind.RULE)
        return _after_attack(fight, attack.attacker)
    net = attack.successes - successes
    fight = with_part(fight, attack=evolve(attack, defended=successes))
    return log(fight, f"{head} → quedan {net}: daño {attack.damage} + ({net} − 1) = {attack.damage + net - 1} dados",
               [name, (attack.attacker, Role.TARGET)])


def _after_attack(fight: Fight, attacker: str) -> Fight:
    s = sheet(get(fight, attacker))
    if fight.actor == attacker and not _pending_actions(s):
        fight = edit(fight, attacker, status="acted")
        return _next_actor(fight)
    return fight


def _abort(fight: Fight, command: nc.Abort) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    if part(fight).phase != "act":
        raise Refusal("Solo se abandona una acción en la fase de acción, ante un ataque")
    if s.status == "acted" or any(d.done and not d.defense for d in s.declared):
        raise Refusal(f"{name} ya ha actuado este turno: no puede abortar para defenderse")
    if s.has("aturdido"):
        raise Refusal(f"{name} está aturdido: {STUNNED_HINT}")
    if grappled_with(s) is not None:
        raise Refusal(f"{name} está en una presa: no puede hacer otra cosa")
    attack, m = _check_defense(fight, name, command.maneuver)
    if s.willpower <= 0:
        raise Refusal(f"{name} no tiene Fuerza de Voluntad: no puede abortar")
    left = [i for i, d in enumerate(s.declared) if not d.done]
    if not left and s.status != "delaying":
        raise Refusal(f"{name} no tiene ninguna acción declarada que abandonar")
    if command.action is not None:
        wanted = find_maneuver(command.action)
        left = [i for i in left if wanted is not None and s.declared[i].action == wanted.id]
        if not left:
            names = ", ".join(find_maneuver(d.action).name for d in s.declared) or "nada"
            raise Refusal(f"{name} no declaró esa acción (declaró: {names})")
    if command.spend:
        if s.spent:
            raise Refusal(f"{name} ya gastó un punto de Fuerza de Voluntad este turno")
        if s.points <= 0:
            raise Refusal(f"{name} no tiene puntos de Fuerza de Voluntad")
        fight = edit(fight, name, points=s.points - 1, spent=True)
        how = f"gasta un punto de FV ({s.points} → {s.points - 1})"
    else:
        if command.roll is None:
            fight, wp, text = roll_pool(fight, s.willpower, BASE)
            how = f"tira FV {s.willpower} dados: {text}"
        else:
            wp = command.roll
            how = f"tira FV {s.willpower} dados: {wp} éxito(s)"
        if wp <= 0:
            fight = edit(fight, name, abort_failed=True)
            return log(fight, f"{name} intenta abandonar su acción: {how}: falla, no puede defenderse y sigue con"
                              " lo declarado", [name])
    fight = edit(fight, name, abort_failed=False)
    s = sheet(get(fight, name))
    slot = left[-1] if left else None
    penalty = s.declared[slot].penalty if slot is not None else 0
    declared = s.declared if slot is None else tuple(
        evolve(d, done=True, action=m.id, defense=True, pool=_defense_traits(s, m.id)) if i == slot else d
        for i, d in enumerate(s.declared))
    full = s.full_defense
    fight = edit(fight, name, declared=declared, aborted=True, full_defense=False, aim=0, aim_scope=False,
                 status="declared" if s.status == "delaying" else s.status)
    if full:
        fight = edit(fight, name, declared=tuple(evolve(d, done=True) for d in declared))
    traits = _defense_traits(s, m.id)
    live = None if traits is None else traits + penalty + s.health_penalty
    if live is not None and live <= 0:
        shown = str(live).replace("-", "−")
        raise Refusal(f"{name} no tiene dados para defenderse (abandonando esa acción: {traits} − {-penalty}"
                      f"{f' − {-s.health_penalty}' if s.health_penalty else ''} = {shown} dados)")
    fight = log(fight, f"{name} abandona su acción para defenderse: {how}", [name])
    fight = edit(fight, name, defenses=s.defenses + 1)
    successes = command.defense
    return _resolve_defense(fight, name, attack, m, live, successes, "abandono")


def _delay(fight: Fight, command: nc.Delay) -> Fight:
    name = get(fight, command.name).name
    _check_turn(fight, name)
    s = sheet(get(fight, name))
    if any(d.done for d in s.declared):
        raise Refusal(f"{name} ya ha empezado a actuar: no puede retrasarse")
    fight = edit(fight, name, status="delaying", declared=())
    fight = log(fight, f"{name} retrasa su acción: actuará cuando quiera («{name} actua ACCION …»)", [name])
    return _next_actor(fight)


def _end_go(fight: Fight, command: nc.EndGo) -> Fight:
    name = get(fight, command.name).name
    s = _check_turn(fight, name)
    fight = _close_attack(fight)
    fight = _finish(fight, name, f"{name} termina (deja lo que le quedaba)")
    del s
    return _next_actor(fight)


# ------------------------------------------------------------------ what happens to someone


def _damage(fight: Fight, command: nc.Damage) -> Fight:
    name = get(fight, command.name).name
    if command.levels <= 0:
        raise Refusal("El daño es de 1 nivel o más (tras la absorción)")
    s = sheet(get(fight, name))
    lethal, bashing = s.lethal, s.bashing
    if command.lethal:
        lethal += command.levels
    else:
        bashing += command.levels
    if lethal + bashing > s.levels and bashing:  # beyond a full track, bashing turns lethal
        over = lethal + bashing - s.levels
        lethal = min(lethal + over, s.levels + 1) if lethal + over > s.levels else lethal + over
        bashing = max(s.levels - lethal, 0)
    conditions = s.conditions
    tail = ""
    if lethal > s.levels:
        conditions = (*conditions, NCondition("muerto"))
        tail = ": muere"
    s = evolve(s, lethal=min(lethal, s.levels + 1), bashing=bashing, conditions=conditions)
    level = LEVELS[min(s.marked, len(LEVELS)) - 1] if s.marked else "ileso"
    threshold = s.stamina + (2 if s.supernatural else 0)
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    kind = "letal" if command.lethal else "contundente"
    penalty = "0" if not s.health_penalty else f"−{-s.health_penalty}"
    text = f"{name}: {command.levels} {kind} → {level} ({penalty})" + tail
    attack = part(fight).attack
    if attack is not None and attack.target == name:
        fight = _close_attack(fight)
    if command.levels > threshold and not s.out:
        acted = _has_acted(s) or part(fight).phase == "over"  # over: the next turn's action
        until = fight.turn + 1 if acted else fight.turn
        s2 = sheet(get(fight, name))
        declared = tuple(d for d in s2.declared if not d.defense or d.done) if acted else s2.declared
        fight = edit(fight, name, conditions=(*s2.conditions, NCondition("aturdido", None, until)),
                     declared=declared, status=s2.status if acted or s2.status == "to_declare" else "stunned")
        text += (f"; {command.levels} > {threshold}: aturdido, pierde "
                 + ("la acción del turno siguiente" if acted else "su acción de este turno"))
    if s.out:
        fight = edit(fight, name, status="out")
        text += ": fuera de combate" if not tail else ""
    fight = log(fight, text, [name], kind=LogKind.CONDITION)
    if attack is not None and attack.target == name:
        fight = _after_attack(fight, attack.attacker)
    if fight.actor == name and sheet(get(fight, name)).status in ("stunned", "out"):
        fight = _next_actor(evolve(fight, actor=None))
    if part(fight).declarer == name and sheet(get(fight, name)).status in ("stunned", "out"):
        fight = _next_declarer(fight)  # the declarer knocked out while declaring: the next
    return fight


def _has_acted(s: NarrSheet) -> bool:
    """Whether `s` has acted this turn (§10 Aturdido, precisely): its go is over, or it
    has performed a declared non-defensive action.  Its place having come is not
    enough: stunned there before acting, it loses this turn's action, not the next."""
    return s.status == "acted" or any(d.done and not d.defense for d in s.declared)


def _willpower(fight: Fight, command: nc.Willpower) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    if s.spent:
        raise Refusal(f"{name} ya gastó un punto de Fuerza de Voluntad este turno")
    if s.points <= 0:
        raise Refusal(f"{name} no tiene puntos de Fuerza de Voluntad")
    fight = edit(fight, name, points=s.points - 1, spent=True)
    return log(fight, f"{name} gasta un punto de Fuerza de Voluntad ({s.points} → {s.points - 1})", [name],
               kind=LogKind.CONDITION)


def _condition(fight: Fight, command: nc.SetCondition) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    id = command.condition
    if command.on:
        if s.has(id):
            raise Refusal(f"{name} ya está {command.spelled or id}")
        until = None
        if id == "desequilibrado":
            until = fight.turn + 1 if part(fight).phase != "initiative" else fight.turn
        if id == "sorprendido":
            until = 1
        s = evolve(s, conditions=(*s.conditions, NCondition(id, command.spelled, until)))
        if id == "derribado":
            s = evolve(s, ini_penalty=2)
        if id == "aturdido":
            acted = _has_acted(s) or part(fight).phase == "over"  # over: the next turn's action
            s = evolve(s, conditions=tuple(NCondition("aturdido", None, fight.turn + 1 if acted else fight.turn)
                                           if c.id == "aturdido" else c for c in s.conditions))
        fight = fight.replace(evolve(get(fight, name), sheet=s))
        fight = log(fight, f"{name}: +{command.spelled or id}", [name], kind=LogKind.CONDITION)
        if id == "derribado":
            fight = log(fight, f"{name} está derribado: −2 a la iniciativa del turno siguiente; levantarse es su"
                               " siguiente acción (Destreza + Atletismo, dificultad 6)", [name], kind=LogKind.RULE)
        return fight
    if not s.has(id):
        raise Refusal(f"{name} no está {id}")
    s = evolve(s, conditions=tuple(c for c in s.conditions if c.id != id))
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    return log(fight, f"{name}: −{id}", [name], kind=LogKind.CONDITION)


def _level(fight: Fight, command: nc.Level) -> Fight:
    name = get(fight, command.name).name
    if command.what == "cobertura":
        if not 0 <= command.value <= 3:
            raise Refusal("Cobertura de 0 a 3 (ligera 1, buena 2, superior 3)")
        fight = edit(fight, name, cover=command.value)
        return log(fight, f"{name}: cobertura {command.value} (+{command.value} a la dificultad de acertarle)",
                   [name], kind=LogKind.CONDITION)
    if not 1 <= command.value <= 20:
        raise Refusal("Oponentes de 1 a 20")
    fight = edit(fight, name, opponents=command.value)
    return log(fight, f"{name}: {command.value} oponentes (+{min(command.value - 1, 4)} a la dificultad)", [name],
               kind=LogKind.CONDITION)


def _link(fight: Fight, a: str, b: str, hold: bool) -> Fight:
    sa, sb = sheet(get(fight, a)), sheet(get(fight, b))
    mine, theirs = ("sujeta", "sujetado") if hold else ("presa", "apresado")
    fight = edit(fight, a, conditions=(*sa.conditions, NCondition(mine, b)))
    fight = edit(fight, b, conditions=(*sb.conditions, NCondition(theirs, a), NCondition("inmovilizado")))
    return log(fight, f"{a} {'sujeta' if hold else 'agarra'} a {b}: {b} queda inmovilizado", [a, b],
               kind=LogKind.CONDITION)


def _release(fight: Fight, name: str) -> Fight:
    s = sheet(get(fight, name))
    link = grappled_with(s)
    if link is None:
        raise Refusal(f"{name} no está en ninguna presa")
    other = link[1]
    for who in (name, other):
        t = sheet(get(fight, who))
        fight = edit(fight, who, conditions=tuple(c for c in t.conditions if c.id not in (
            "presa", "sujeta", "apresado", "sujetado", "inmovilizado")))
    return log(fight, f"{name} y {other} dejan la presa", [name, other], kind=LogKind.CONDITION)


def _grapple(fight: Fight, command: nc.Grapple) -> Fight:
    a = get(fight, command.name).name
    if command.other is None:
        return _release(fight, a)
    b = get(fight, command.other).name
    if a == b:
        raise Refusal("Una presa necesita dos combatientes distintos")
    if grappled_with(sheet(get(fight, a))) or grappled_with(sheet(get(fight, b))):
        raise Refusal("Uno de los dos ya está en una presa («suelta NOMBRE» primero)")
    return _link(fight, a, b, command.hold)


def _fighting(fight: Fight) -> bool:
    """Whether the fight is under way: turn 1's initiative phase is behind (from then
    on everyone in it is «ya enzarzado en un combate», §7.7)."""
    return fight.turn > 1 or part(fight).phase != "initiative"


def _ambush(fight: Fight, command: nc.Ambush) -> Fight:
    """`emboscada A B exitos=N` (SYSTEMS §3.2: «resolve an ambush before turn 1»,
    STORYTELLER §7.7).  SYSTEMS §3.3 lists no refusal for it: an ambush on someone
    already fighting (the fight under way, `_fighting`) is one of §3.3's warnings,
    kept once the DJ confirms.  **Decision:** then its sorprendido lasts the turn it
    is made in (after the turn is over, `apply` starts the next one first)."""
    a, b = get(fight, command.name).name, get(fight, command.target).name
    if command.successes < 0:
        raise Refusal("exitos= no puede ser negativo")
    if _fighting(fight):
        fight = log(fight, f"Aviso: {b} ya está en combate (turno {fight.turn}): «Si un objetivo ya está enzarzado"
                           " en un combate, no puede ser emboscado»", [a, (b, Role.TARGET)], warning=True,
                    kind=LogKind.RULE)
    if command.successes == 0:
        return log(fight, f"Emboscada de {a} a {b}: {b} la detecta; todos tiran iniciativa", [a, b])
    s = sheet(get(fight, b))
    if not s.has("sorprendido"):
        fight = edit(fight, b, conditions=(*s.conditions, NCondition("sorprendido", None, fight.turn)))
    return log(fight, f"Emboscada de {a} a {b}: ataque gratuito con +{command.successes - 1} dados; {b} no puede"
                      " defenderse", [a, b])


def _surprise(fight: Fight, command: cmd.Surprise) -> Fight:
    """`sorpresa NAME …` (§7.7 Decision): a surprise the GM declares forbids Bloqueo
    and Parada for that combatant in turn 1 (it is `sorprendido`); Esquiva is still
    allowed.  **Decision:** only in turn 1 (after it, nobody is surprised)."""
    if fight.turn != 1:
        raise Refusal("La sorpresa vale para el turno 1: ya estamos en el turno " + str(fight.turn))
    if part(fight).phase == "over":
        raise Refusal("La sorpresa vale para el turno 1: ya ha terminado")
    names = [get(fight, n).name for n in command.names]
    for name in names:
        if sheet(get(fight, name)).has("sorprendido"):
            raise Refusal(f"{name} ya está sorprendido")
    for name in names:
        s = sheet(get(fight, name))
        fight = edit(fight, name, conditions=(*s.conditions, NCondition("sorprendido", None, 1)))
    return log(fight, f"Sorpresa: {', '.join(names)} no puede(n) bloquear ni parar en el turno 1", names,
               kind=LogKind.CONDITION)


def _ammo(fight: Fight, command: nc.Ammo) -> Fight:
    name = get(fight, command.name).name
    s = sheet(get(fight, name))
    preset = weapons().get(command.weapon)  # the table's id (`rifle-de-asalto`) names it too
    weapon = s.weapon(command.weapon) or (s.weapon(preset.name) if preset is not None else None)
    if weapon is None:
        raise Refusal(f"{name} no tiene el arma «{command.weapon}»")
    top = weapon.magazine + (1 if weapon.chamber else 0)
    if not 0 <= command.count <= top:
        raise Refusal(f"Munición {command.count}: {weapon.name} lleva como mucho {top}")
    fight = _set_weapon(fight, name, evolve(weapon, ammo=command.count))
    return log(fight, f"{name}: {weapon.name} {command.count} balas", [name], kind=LogKind.SETUP)


def _remove(fight: Fight, command: cmd.Remove) -> Fight:
    c = get(fight, command.name)
    fight = evolve(fight, combatants=tuple(x for x in fight.combatants if x.key != c.key),
                   actor=None if fight.actor == c.name else fight.actor)
    p = part(fight)
    fight = with_part(fight, order=tuple(n for n in p.order if n != c.name),
                      declarer=None if p.declarer == c.name else p.declarer,
                      attack=None if p.attack is not None and c.name in (p.attack.attacker, p.attack.target)
                      else p.attack)
    fight = fight.note(f"Baja de {c.name}", kind=LogKind.SETUP, about=[mention_of(c)])
    if p.declarer == c.name:
        return _next_declarer(fight)
    if p.phase == "act" and fight.actor is None:
        return _next_actor(fight)
    return fight


_HANDLERS: dict[type, Callable[[Fight, object], Fight]] = {
    nc.Add: _add, nc.Arm: _arm, nc.Initiative: _initiative, cmd.Roll: _roll, cmd.Swap: _swap,
    cmd.Next: _next, cmd.Begin: _next, cmd.NewTurn: _new_turn, nc.Declare: _declare, nc.Act: _act,
    nc.Defend: _defend, nc.Abort: _abort, nc.Delay: _delay, nc.EndGo: _end_go, nc.Damage: _damage,
    nc.Willpower: _willpower, nc.SetCondition: _condition, nc.Level: _level, nc.Grapple: _grapple,
    nc.Ambush: _ambush, cmd.Surprise: _surprise, nc.Ammo: _ammo, cmd.Remove: _remove,
    cmd.Rename: _CDB_EXTRAS[cmd.Rename], cmd.Note: _CDB_CONDITIONS[cmd.Note],
    cmd.Reveal: _CDB_CONDITIONS[cmd.Reveal],
}


#: The commands that, once the turn is over (`_turn_over`), belong to the next one:
#: its initiative phase starts first (the initiative typed or rolled, the ties'
#: order, a Willpower point — one per turn —, an ambush before the coming turn).
_NEXT_TURN_FIRST = (nc.Initiative, cmd.Roll, cmd.Swap, nc.Willpower, nc.Ambush)


def apply(fight: Fight, command: object) -> Fight:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Refusal("Esa orden no existe en el sistema narrativo")
    start = fight
    if isinstance(command, _NEXT_TURN_FIRST) and part(fight).phase == "over":
        start = _end_turn(fight)
    after = handler(start, command)
    check_state(after, fight)
    return after


def new_fight(name: str, seed: int) -> Fight:
    """A new fight is in turn 1's initiative phase (SYSTEMS.md §3.5)."""
    return Fight(name=name, rules="narrador", seed=seed, turn=1, narr=NarrPart()).note(
        f"Combate «{name}» (sistema narrativo) · Turno 1 · Iniciativa", kind=LogKind.SETUP)


def consistency(fight: Fight) -> str | None:
    for c in fight.combatants:
        if not isinstance(c.sheet, NarrSheet):
            return f"«{c.name}» no tiene hoja del sistema narrativo"
    p = part(fight)
    names = {c.name for c in fight.combatants}
    if not set(p.order) <= names or (p.declarer is not None and p.declarer not in names):
        return "el orden nombra a quien no está en el combate"
    if p.phase not in ("initiative", "declare", "act", "over"):
        return f"fase desconocida «{p.phase}»"
    if fight.moment is not None or fight.cs is not None:
        return "tiene datos de otro reglamento"
    return None


__all__ = ["apply", "consistency", "new_fight", "TRAITS"]
