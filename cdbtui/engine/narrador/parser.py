"""The storyteller system's command language (SYSTEMS.md §3.2): CdB's machinery
(tokenizing, names, prefixes, accents), its own keywords."""

from __future__ import annotations

from .. import commands as cmd
from ..errors import Refusal
from ..limits import check_name
from ..model import Fight
from ..parser import key_values, name_then_number, no_more, number, shared_command, take_name, take_names, tokenize
from ..text import fold, slug
from . import commands as nc
from .tables import TRAITS, condition_id, find_maneuver

KEYWORDS = {
    "alta": "alta", "add": "alta", "baja": "baja", "remove": "baja", "arma": "arma", "weapon": "arma",
    "tirar": "tirar", "roll": "tirar", "iniciativa": "iniciativa", "init": "iniciativa",
    "declara": "declara", "declare": "declara", "siguiente": "siguiente", "next": "siguiente",
    "empezar": "empezar", "begin": "empezar", "turno": "turno", "newturn": "turno",
    "deshacer": "deshacer", "undo": "deshacer", "rehacer": "rehacer", "redo": "rehacer",
    "dano": "dano", "damage": "dano", "fv": "fv", "wp": "fv", "estado": "estado", "cond": "estado",
    "cobertura": "cobertura", "cover": "cobertura", "oponentes": "oponentes", "opponents": "oponentes",
    "presa": "presa", "grapple": "presa", "sujeta": "sujeta", "hold": "sujeta", "suelta": "suelta",
    "release": "suelta", "emboscada": "emboscada", "ambush": "emboscada", "municion": "municion",
    "ammo": "municion", "cambiar": "cambiar", "swap": "cambiar", "nombre": "nombre", "title": "nombre",
    "nota": "nota", "note": "nota", "revelar": "revelar", "reveal": "revelar", "ocultar": "ocultar",
    "hide": "ocultar", "sorpresa": "sorpresa", "surprise": "sorpresa",
}
ACTIONS = {"actua": "actua", "act": "actua", "defiende": "defiende", "defend": "defiende",
           "aborta": "aborta", "abort": "aborta", "retrasa": "retrasa", "delay": "retrasa",
           "fin": "fin", "done": "fin"}
#: `dano … tras-absorcion` (SYSTEMS §3.2): a word that says what is always so.
AFTER_SOAK = ("tras-absorcion", "after-soak")
SIDES = {"pj": "pj", "pc": "pj", "pnj": "pnj", "npc": "pnj"}
TARGET_WORDS = frozenset({"a", "contra", "at", "vs", "to"})
SPECIAL_DECLARATIONS = ("retrasa", "defensa-total")
#: The English of the special declarations (SYSTEMS §3.2: `retrasa` / `delay`).
SPECIAL_ENGLISH = {"delay": "retrasa", "full-defense": "defensa-total"}
#: Words an attack may carry (STORYTELLER §8.2, §8.3): the range band, the side, a called shot.
ACT_WORDS = ("quemarropa", "larga", "flanco", "espalda", "a-ciegas", "localizacion-medio",
             "localizacion-pequeno", "localizacion-diminuto")
USAGE = {
    "alta": ("alta NOMBRE (ini=N | des=N ast=N) fv=N [res=N] [fue=N] [per=N] [salud=7] [sobrenatural]"
             " [ambidiestro] [rasgos=pelea:3,esquivar:4] [bando=…] [oculto] [privado]"),
    "arma": "arma NOMBRE ARMA [dano=N] [alcance=N] [cad=N] [cargador=N+1] [auto] [mira]",
    "declara": "declara NOMBRE ACCION[:RESERVA] [ACCION[:RESERVA] …]",
    "dano": "dano NOMBRE N letal|contundente [tras-absorcion]",
    "estado": "estado NOMBRE +ESTADO | -ESTADO",
}


def parse(line: str, fight: Fight) -> object:
    body = line.strip().removeprefix(":").strip()
    tokens = tokenize(body)
    if not tokens:
        raise Refusal("Orden vacía: escribe una orden (p. ej. «siguiente» o «declara NOMBRE ACCION»)")
    keyword = KEYWORDS.get(fold(tokens[0]))
    rest = tokens[1:]
    if keyword is None:
        return _combatant_line(fight, tokens)
    if keyword in ("siguiente", "empezar", "turno", "deshacer", "rehacer"):
        no_more(rest, keyword)
        return {"siguiente": cmd.Next, "empezar": cmd.Begin, "turno": cmd.NewTurn,
                "deshacer": cmd.Undo, "rehacer": cmd.Redo}[keyword]()
    if keyword == "alta":
        return _parse_add(rest)
    shared = shared_command(keyword, fight, rest)
    if shared is not None:
        return shared
    if keyword == "arma":
        return _parse_arm(fight, rest)
    if keyword == "tirar":
        return cmd.Roll(take_names(fight, rest))
    if keyword == "iniciativa":
        name, value = name_then_number(fight, rest, "iniciativa NOMBRE N", "Valor")
        return nc.Initiative(name, value)
    if keyword == "declara":
        return _parse_declare(fight, rest)
    if keyword == "sorpresa":
        names = take_names(fight, rest)
        if not names:
            raise Refusal("Se usa «sorpresa NOMBRE …»")
        return cmd.Surprise(names)
    if keyword == "dano":
        c, rest = take_name(fight, rest)
        if len(rest) == 3 and slug(rest[2]) in AFTER_SOAK:
            rest = rest[:2]  # the levels are always after soak (SYSTEMS §3.5): the word changes nothing
        if len(rest) != 2 or fold(rest[1]) not in ("letal", "contundente", "lethal", "bashing"):
            raise Refusal(f"Se usa «{USAGE['dano']}» (niveles tras la absorción)")
        return nc.Damage(c.name, number(rest[0], "Niveles de daño"), fold(rest[1]) in ("letal", "lethal"))
    if keyword == "fv":
        c, rest = take_name(fight, rest)
        if rest != ["-1"]:
            raise Refusal("Se usa «fv NOMBRE -1»")
        return nc.Willpower(c.name)
    if keyword == "estado":
        c, rest = take_name(fight, rest)
        if len(rest) != 1 or rest[0][:1] not in "+-" or len(rest[0]) < 2:
            raise Refusal(f"Se usa «{USAGE['estado']}»")
        word = rest[0][1:]
        id = condition_id(word)
        if id is None:
            raise Refusal(f"No conozco el estado «{word}»: derribado, desequilibrado, cegado, inmovilizado,"
                          " atado, sorprendido o aturdido")
        spelled = slug(word) if slug(word) != id else None
        return nc.SetCondition(c.name, id, rest[0][0] == "+", spelled)
    if keyword in ("cobertura", "oponentes"):
        name, value = name_then_number(fight, rest, f"{keyword} NOMBRE N", "Valor")
        return nc.Level(keyword, name, value)
    if keyword in ("presa", "sujeta"):
        a, rest = take_name(fight, rest)
        b, rest = take_name(fight, rest)
        no_more(rest, f"{keyword} A B")
        return nc.Grapple(a.name, b.name, keyword == "sujeta")
    if keyword == "suelta":
        a, rest = take_name(fight, rest)
        no_more(rest, "suelta A")
        return nc.Grapple(a.name)
    if keyword == "emboscada":
        values, words = key_values(rest, "emboscada A B exitos=N")
        a, words = take_name(fight, words)
        b, words = take_name(fight, words)
        no_more(words, "emboscada A B exitos=N")
        if "exitos" not in values:
            raise Refusal("Se usa «emboscada A B exitos=N»")
        return nc.Ambush(a.name, b.name, number(values["exitos"], "Éxitos"))
    if keyword == "municion":
        c, rest = take_name(fight, rest)
        if len(rest) != 2:
            raise Refusal("Se usa «municion NOMBRE ARMA N»")
        return nc.Ammo(c.name, rest[0], number(rest[1], "Munición"))
    raise AssertionError(keyword)  # pragma: no cover


def _parse_add(tokens: list[str]) -> nc.Add:
    values, words = key_values(tokens, USAGE["alta"])
    flags = {"sobrenatural", "supernatural", "ambidiestro", "ambidextrous", "oculto", "hidden", "privado", "private"}
    marks = {fold(w) for w in words if fold(w) in flags}
    name_words = [w for w in words if fold(w) not in flags]
    if not name_words:
        raise Refusal(f"Falta el nombre: se usa «{USAGE['alta']}»")
    fields: dict = {}
    keys = {"ini": "ini", "des": "dex", "dex": "dex", "ast": "wits", "astucia": "wits", "wits": "wits",
            "fv": "willpower", "wp": "willpower", "res": "stamina", "resistencia": "stamina",
            "fue": "strength", "per": "per", "salud": "levels", "health": "levels"}
    for key, value in values.items():
        if key in keys:
            n = number(value, key.upper())
            if n < 0 or (key in ("salud", "health") and not 1 <= n <= 20):
                raise Refusal(f"{key}={n} fuera de rango")
            fields[keys[key]] = n
        elif key in ("bando", "side"):
            side = SIDES.get(fold(value), value)
            fields["side"] = side if side in ("pj", "pnj") else check_name(side)
        elif key in ("rasgos", "traits"):
            traits = []
            for item in value.split(","):
                trait, _, n = item.partition(":")
                trait = slug(trait)
                if trait not in TRAITS:
                    raise Refusal(f"No conozco el rasgo «{trait}»: {', '.join(TRAITS)}")
                traits.append(f"{trait}:{number(n or '1', trait)}")
            fields["traits"] = tuple(traits)
        else:
            raise Refusal(f"No conozco «{key}=» en el alta: se usa «{USAGE['alta']}»")
    return nc.Add(check_name(" ".join(name_words)), supernatural=bool(marks & {"sobrenatural", "supernatural"}),
                  ambidextrous=bool(marks & {"ambidiestro", "ambidextrous"}),
                  hidden=bool(marks & {"oculto", "hidden"}), private=bool(marks & {"privado", "private"}),
                  **fields)


def _parse_arm(fight: Fight, tokens: list[str]) -> nc.Arm:
    c, rest = take_name(fight, tokens)
    values, words = key_values(rest, USAGE["arma"])
    auto = any(fold(w) == "auto" for w in words)
    scope = any(fold(w) in ("mira", "scope") for w in words)
    words = [w for w in words if fold(w) not in ("auto", "mira", "scope")]
    if len(words) != 1:
        raise Refusal(f"Se usa «{USAGE['arma']}»")
    fields: dict = {}
    for key, value in values.items():
        if key in ("dano", "damage"):
            fields["damage"] = number(value, "Daño")
        elif key in ("alcance", "range"):
            fields["range"] = number(value, "Alcance")
        elif key in ("cad", "rate"):
            fields["rate"] = number(value, "Cadencia")
        elif key in ("cargador", "magazine"):
            base, plus, one = value.partition("+")
            if plus and one != "1":
                raise Refusal("cargador=N o cargador=N+1 (una bala en la recámara)")
            fields["magazine"] = number(base, "Cargador")
            fields["chamber"] = bool(plus)
        else:
            raise Refusal(f"No conozco «{key}=» en un arma: se usa «{USAGE['arma']}»")
    if any(v < 0 for k, v in fields.items() if isinstance(v, int) and not isinstance(v, bool)):
        raise Refusal("Los valores de un arma no pueden ser negativos")
    weapon = slug(words[0]) or words[0]
    return nc.Arm(c.name, weapon, auto=auto, scope=scope, **fields)


def _parse_declare(fight: Fight, tokens: list[str]) -> nc.Declare:
    c, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"Se usa «{USAGE['declara']}»")
    items: list[nc.Item] = []
    for word in rest:
        if word.isdigit() and items:
            items[-1] = nc.Item(items[-1].action, items[-1].pool, number(word, "Veces"))
            continue
        action, _, pool = word.partition(":")
        key = slug(action)
        key = SPECIAL_ENGLISH.get(key, key)
        if key in SPECIAL_DECLARATIONS:
            items.append(nc.Item(key))
            continue
        m = find_maneuver(action)
        if m is None:
            raise Refusal(f"No conozco la acción «{action}»")
        items.append(nc.Item(m.id, number(pool, "Reserva") if pool else None))
    return nc.Declare(c.name, tuple(items))


def _combatant_line(fight: Fight, tokens: list[str]) -> object:
    c, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"¿Qué hace {c.name}? («actua», «defiende», «aborta», «retrasa», «fin»)")
    verb = ACTIONS.get(fold(rest[0]))
    if verb is None:
        raise Refusal(f"No conozco «{rest[0]}»: tras el nombre va actua, defiende, aborta, retrasa o fin")
    rest = rest[1:]
    if verb == "fin":
        no_more(rest, "NOMBRE fin")
        return nc.EndGo(c.name)
    if verb == "retrasa":
        no_more(rest, "NOMBRE retrasa")
        return nc.Delay(c.name)
    values, words = key_values(rest, "NOMBRE actua|defiende|aborta …")
    if verb == "actua":
        action = pool = target = None
        extra_words: list[str] = []
        i = 0
        while i < len(words):
            w = words[i]
            if fold(w) in TARGET_WORDS and i + 1 < len(words):
                person, tail = take_name(fight, words[i + 1:])
                target = person.name
                words = words[:i] + tail
                continue
            if slug(w) in ACT_WORDS:
                extra_words.append(slug(w))
                i += 1
                continue
            if action is None:
                name, _, typed = w.partition(":")
                m = find_maneuver(name)
                if m is None:
                    raise Refusal(f"No conozco la acción «{name}»")
                action, pool = m.id, (number(typed, "Reserva") if typed else None)
            else:
                raise Refusal(f"Sobra «{w}»: se usa «NOMBRE actua [ACCION] [a OBJETIVO] [exitos=N] [metros=N]»")
            i += 1
        extra = set(values) - {"exitos", "metros", "distancia"}
        if extra:
            raise Refusal(f"No conozco «{sorted(extra)[0]}=»")
        return nc.Act(c.name, action, target, _opt_number(values, "exitos"), _opt_number(values, "metros"), pool,
                      _opt_number(values, "distancia"), tuple(dict.fromkeys(extra_words)))
    if verb == "defiende":
        if len(words) != 1:
            raise Refusal("Se usa «NOMBRE defiende bloqueo|esquiva|parada [exitos=N]»")
        m = find_maneuver(words[0])
        if m is None or not m.defense:
            raise Refusal("Las defensas son bloqueo, esquiva y parada")
        return nc.Defend(c.name, m.id, _opt_number(values, "exitos"))
    # aborta [ACCION] (tira | gasta) MANIOBRA
    lowered = [fold(w) for w in words]
    way = next((w for w in lowered if w in ("tira", "roll", "gasta", "spend")), None)
    if way is None:
        raise Refusal("Se usa «NOMBRE aborta [ACCION] tira exitos=N MANIOBRA [defensa=M]» o"
                      " «NOMBRE aborta [ACCION] gasta MANIOBRA [exitos=N]»")
    at = lowered.index(way)
    before, after = words[:at], words[at + 1:]
    if len(after) != 1 or len(before) > 1:
        raise Refusal("Se usa «NOMBRE aborta [ACCION] tira|gasta MANIOBRA»")
    m = find_maneuver(after[0])
    if m is None or not m.defense:
        raise Refusal("Se aborta para bloquear, esquivar o parar")
    action = None
    if before:
        declared = find_maneuver(before[0])
        if declared is None:
            raise Refusal(f"No conozco la acción «{before[0]}»")
        action = declared.id
    spend = way in ("gasta", "spend")
    if spend:
        return nc.Abort(c.name, m.id, True, action, None, _opt_number(values, "exitos"))
    return nc.Abort(c.name, m.id, False, action, _opt_number(values, "exitos"), _opt_number(values, "defensa"))


def _opt_number(values: dict[str, str], key: str) -> int | None:
    return number(values[key], key) if key in values else None
