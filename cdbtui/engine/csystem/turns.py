"""The walk through the order (CSYSTEM.md §3.5, §4.1, §10): whose go it is, the
start of a go (its per-turn effects), its end (durations tick), and the turn's end,
after which the next turn starts by itself at the top of the order.

The one rule for who acts next: the first combatant in the current order who has
not had its go this turn (§3.5).  A go whose combatant waits for a pending roll
(`health.BLOCKING`) does not begin until the roll is answered."""

from __future__ import annotations

from ..conditions import expire_notes
from ..errors import Refusal
from ..model import Fight, LogKind, evolve
from .budget import combinations
from .common import acted_now, cond_name, edit, get, is_out, log, part, sheet, stored
from .defense import defense
from .health import blocking, drop_condition, lose, prompt_text
from .model import Prompt
from .tables import CONDITIONS

WAKE_AFTER = 10  # «Después de 1 minuto (10 asaltos)»
STABILIZED_LOSS_EVERY = 100  # «cada 10 minutos» (§9.4)


def next_in_order(fight: Fight) -> str | None:
    waiting = {c.name for c in fight.combatants if not acted_now(fight, c)}
    return next((name for name in part(fight).order if name in waiting), None)


def advance(fight: Fight) -> Fight:
    """With no go under way, begin the next one; after the last go of the turn, the
    next turn starts by itself, once (if in it nobody can act, the fight waits at its
    end: `turno` moves on)."""
    rolled = False
    for _ in range(4 * len(part(fight).order) + 4):
        name = next_in_order(fight)
        if name is None:
            if rolled or not part(fight).order or all(is_out(sheet(stored(fight, n))) for n in part(fight).order):
                return evolve(fight, actor=None)
            fight = new_turn(fight)
            rolled = True
            continue
        fight = start_go(fight, name)
        if fight.actor is not None:
            return fight
    return evolve(fight, actor=None)  # pragma: no cover - bounded above


def new_turn(fight: Fight) -> Fight:
    """The turn after this one: everyone may have a go again (each sheet's turn
    fields read as reset from now on: `common.current`; no sheet is copied); notes
    given turns (`nota … turnos=N`) that end with this one go."""
    fight = expire_notes(fight, fight.turn)
    fight = evolve(fight, turn=fight.turn + 1, actor=None)
    return log(fight, f"— Turno {fight.turn} —", kind=LogKind.TURN)


def start_go(fight: Fight, name: str) -> Fight:
    """`name`'s go: its start-of-go effects (§10, once per go), then its budget; one
    who can do nothing has its go ended at once, logging why.  Returns the fight with
    `actor` set when the go is under way (or waits for a roll), None when it ended."""
    fight = evolve(fight, actor=name)
    s = sheet(get(fight, name))
    if s.has("muerto"):
        return _end(fight, name, None)
    waiting = blocking(s)
    if waiting is not None:
        return log(fight, f"Turno de {name}: espera su {prompt_text(waiting, name)}", [name], kind=LogKind.TURN)
    if s.begun:  # it lowered its place: the go goes on at its new place (§4.1)
        return log(fight, f"Le toca a {name} (en su nuevo lugar)", [name], kind=LogKind.TURN)
    fight = edit(fight, name, begun=True, goes=s.goes + 1)
    fight = log(fight, f"Le toca a {name}", [name], kind=LogKind.TURN)
    fight, lost = _start_effects(fight, name)
    s = sheet(get(fight, name))
    if s.has("muerto"):
        return _end(fight, name, f"{name} ha muerto")
    if lost is not None:
        return _end(fight, name, lost)
    if blocking(s) is not None:  # a roll asked at its start (agonía, waking): the go waits
        return fight
    if combinations(s) == ((0, 0),):
        return _end(fight, name, f"{name} {_why_not(s)}: pierde su turno")
    return fight


def _why_not(s) -> str:
    for id in ("muerto", "inutilizado", "moribundo", "inconsciente", "aturdido", "aterrado", "fascinado"):
        if s.has(id):
            return f"está {id}" if CONDITIONS[id].out else f"está {cond_name(id)}"
    return "no puede actuar"


def _start_effects(fight: Fight, name: str) -> tuple[Fight, str | None]:
    """§10 steps 1–7, in order, each logged; the reason the go is lost (Aturdido), if so."""
    s = sheet(get(fight, name))
    # 1. What lasted «hasta el inicio de tu próximo turno».
    if s.dodge or s.charged or s.cover_lost:
        before = defense(s).ranged
        ended = [label for label, on in (("Esquivar/Bloquear", s.dodge), ("Cargar", s.charged),
                                         ("la cobertura perdida al disparar", s.cover_lost)) if on]
        fight = edit(fight, name, dodge=0, dodged=False, charged=False, cover_lost=0)
        after = defense(sheet(get(fight, name))).ranged
        fight = log(fight, f"{name}: termina {' y '.join(ended)}: Defensa {before} → {after}", [name],
                    kind=LogKind.RULE)
    # 2. Surprise ends at its first go.
    s = sheet(get(fight, name))
    if s.surprised:
        fight = edit(fight, name, surprised=False, conditions=drop_condition(s, "desprevenido").conditions)
        fight = log(fight, f"{name} deja de estar desprevenido", [name], kind=LogKind.CONDITION)
    # 3. Bleeding: not a *herida* (no roll, no critical).
    s = sheet(get(fight, name))
    bleed = s.condition("sangrando")
    if bleed is not None:
        amount = int(bleed.value or "1")
        fight, tail = lose(fight, name, amount, wound=False, attack=False)
        fight = log(fight, f"{name}: sangra {amount} {tail}", [name], kind=LogKind.CONDITION)
    # 4. Agonía and waking.
    s = sheet(get(fight, name))
    if s.has("moribundo") and not s.has("estabilizado") and not s.has("muerto"):
        fight = edit(fight, name, pending=(*s.pending, Prompt("refleja", nd=20, reason="moribundo")))
        fight = log(fight, f"{name} está moribundo: tirada refleja de CON vs ND 20 («refleja {name} TOTAL»)",
                    [name], kind=LogKind.RULE)
    since = s.stabilized_since
    if (s.has("estabilizado") and s.has("moribundo") and not s.has("muerto") and since is not None
            and fight.turn > since and (fight.turn - since) % STABILIZED_LOSS_EVERY == 0):
        # §9.4: «perderá 1 punto de vida cada 10 minutos» (100 turns), counted here.
        fight, tail = lose(fight, name, 1, wound=False, attack=False)
        fight = log(fight, f"{name} (estabilizado): pierde 1 de Vitalidad cada 10 minutos {tail}", [name],
                    kind=LogKind.CONDITION)
        s = sheet(get(fight, name))
    unconscious = s.condition("inconsciente")
    if unconscious is not None and not s.has("moribundo"):
        if unconscious.value and unconscious.value.startswith("T") and fight.turn >= int(unconscious.value[1:]):
            fight = edit(fight, name, conditions=drop_condition(s, "inconsciente").conditions)
            fight = log(fight, f"{name} vuelve en sí (tumbado)", [name], kind=LogKind.CONDITION)
        elif (unconscious.value is None and s.unconscious_since is not None
              and fight.turn - s.unconscious_since >= WAKE_AFTER
              and not any(p.roll == "refleja" for p in s.pending)):
            fight = edit(fight, name, pending=(*s.pending, Prompt("refleja", nd=20, reason="despertar")))
            fight = log(fight, f"{name} lleva 1 minuto inconsciente: tirada refleja de CON vs ND 20"
                               f" para despertar («refleja {name} TOTAL»)", [name], kind=LogKind.RULE)
    # 5. Confuso: its table is not in the seed.
    s = sheet(get(fight, name))
    if s.has("confuso"):
        fight = log(fight, f"{name} está confuso: tira en su tabla", [name], kind=LogKind.RULE)
    # 6. Aturdido: this go is the lost one.
    if s.has("aturdido"):
        fight = edit(fight, name, conditions=drop_condition(s, "aturdido").conditions)
        return fight, f"{name} está Aturdido: pierde este turno (deja de estar aturdido)"
    # 7. A grapple: the grappler keeps it with ■ or lets go.
    cond = s.condition("apresado")
    if cond is not None and cond.value:
        fight = log(fight, f"{name} mantiene la presa a {cond.value}: gasta ■ en «presa» o la suelta (gratis)",
                    [name], kind=LogKind.RULE)
    return fight, None


def replaced(fight: Fight, *changed: str) -> Fight:
    """After the order changed (a new value, a GM's re-placing, a swap, a newcomer:
    `changed` are those moved): the next to act is the first in the order who has
    not had its go (§3.5).  An actor whose go is under way keeps it when another is
    lifted above it (that one acts next); an actor that was itself moved below one
    who has not acted, or one whose go has not begun, gives way, and goes on at its
    new place."""
    if not fight.started:
        return fight
    actor = fight.actor
    first = next_in_order(fight)
    if actor is None:
        return advance(fight) if first is not None else fight
    if first == actor:
        return fight
    if actor in changed or not sheet(get(fight, actor)).begun:
        return advance(evolve(fight, actor=None))
    return fight


def resume(fight: Fight, name: str) -> Fight:
    """`name`'s go after its pending roll is answered: it begins (when it had not),
    or goes on; one who can do nothing has it ended, and the next begins."""
    s = sheet(get(fight, name))
    if not s.begun:
        fight = start_go(fight, name)
        return fight if fight.actor is not None else advance(fight)
    if combinations(s) == ((0, 0),) or any(s.has(x) for x in ("muerto", "inconsciente", "moribundo")):
        return advance(end_go(fight, name, f"{name} {_why_not(s)}: pierde su turno"))
    return fight


def _end(fight: Fight, name: str, why: str | None) -> Fight:
    fight = end_go(fight, name, why)
    return evolve(fight, actor=None)


def end_go(fight: Fight, name: str, why: str | None = None) -> Fight:
    """`name`'s go is over: it had it this turn; durations counted in its goes tick
    (§8: a condition of N turns ends at the end of its N-th go after it was gained)."""
    s = sheet(get(fight, name))
    if why:
        fight = log(fight, why, [name], kind=LogKind.TURN)
    ending = [c for c in s.conditions if c.ends is not None and c.ends <= s.goes]
    s = evolve(s, acted=True, conditions=tuple(c for c in s.conditions if c not in ending))
    fight = fight.replace(evolve(get(fight, name), sheet=s))
    for c in ending:
        fight = log(fight, f"{name}: −{c.id} (fin de su duración)", [name], kind=LogKind.CONDITION)
        if c.id == "ensordecido":
            from .order import change_value
            fight = change_value(fight, name, (s.initiative or 0) + 5, "deja de estar ensordecido")
    return evolve(fight, actor=None) if fight.actor == name else fight


def finish(fight: Fight, name: str, why: str | None = None) -> Fight:
    """End `name`'s go and begin the next one."""
    return advance(end_go(fight, name, why))


def check_actor(fight: Fight, name: str) -> None:
    """Refuse unless `name` may act now (its go is under way)."""
    from .common import require_started
    c = get(fight, name)
    s = sheet(c)
    for id in ("muerto", "inutilizado", "inconsciente", "moribundo"):
        if s.has(id):
            raise Refusal(f"{name} está {id}: no puede actuar")
    # A condition that keeps it from acting says so first, its go or not (SYSTEMS §2.3).
    if s.has("aturdido"):
        raise Refusal(f"{name} está Aturdido: pierde este turno")
    for id in ("aterrado", "fascinado"):
        if s.has(id):
            raise Refusal(f"{name} está {cond_name(id)}: no puede actuar")
    require_started(fight)
    if fight.actor != name:
        if s.dodged and s.acted:
            raise Refusal(f"{name} usó Esquivar/Bloquear: su turno ha terminado")
        raise Refusal(f"No es el turno de {name}: actúa {fight.actor or 'nadie (usa «turno»)'}")
    waiting = blocking(s)
    if waiting is not None or not s.begun:
        raise Refusal(f"{name} tiene pendiente una {prompt_text(waiting, name) if waiting else 'tirada'}:"
                      " su turno empieza cuando se responda")
