"""C-System's command language (SYSTEMS.md §2.2): one line → one command.

The shared machinery is CdB's (`engine/parser.py`: tokenizing, quoted names,
unique prefixes, accent folding); the keywords and the action look-up are
C-System's.  Anything not understood raises `Refusal` with one Spanish line."""

from __future__ import annotations

from .. import commands as cmd
from ..errors import Refusal
from ..limits import check_name, check_text
from ..model import Fight
from ..parser import key_values, name_then_number, no_more, number, shared_command, take_name, take_names, tokenize
from ..text import fold, slug
from . import commands as cs
from .model import DAMAGE_TYPES, FIRE_MODES
from .tables import find_action

KEYWORDS = {
    "alta": "alta", "add": "alta", "baja": "baja", "remove": "baja",
    "arma": "arma", "weapon": "arma",
    "iniciativa": "iniciativa", "init": "iniciativa",
    "tirar": "tirar", "roll": "tirar", "sorpresa": "sorpresa", "surprise": "sorpresa",
    "cambiar": "cambiar", "swap": "cambiar", "orden": "orden", "order": "orden",
    "empezar": "empezar", "begin": "empezar", "siguiente": "siguiente", "next": "siguiente",
    "turno": "turno", "newturn": "turno", "deshacer": "deshacer", "undo": "deshacer",
    "rehacer": "rehacer", "redo": "rehacer",
    "dano": "dano", "damage": "dano", "dolor": "dolor", "pain": "dolor",
    "refleja": "refleja", "reflex": "refleja", "critica": "critica", "critical": "critica",
    "cura": "cura", "curar": "cura", "heal": "cura",
    "energia": "energia", "energy": "energia", "aplomo": "aplomo", "composure": "aplomo",
    "estado": "estado", "cond": "estado", "municion": "municion", "ammo": "municion",
    "nombre": "nombre", "title": "nombre", "nota": "nota", "note": "nota",
    "revelar": "revelar", "reveal": "revelar", "ocultar": "ocultar", "hide": "ocultar",
    "energia-salva": "energia-salva",
}
#: Words after a combatant's name that are not catalog actions.
ACTIONS = {
    "compleja": "compleja", "complex": "compleja", "simple": "simple",
    "gratis": "gratis", "free": "gratis",
    "retrasa": "retrasa", "lower": "retrasa", "fin": "fin", "done": "fin",
}
ADD_KEYS = {
    "nh": "nh", "nivel": "nh", "level": "nh", "des": "des", "dex": "des", "ale": "ale", "alerta": "ale",
    "per": "per", "con": "con", "vol": "vol", "wil": "vol", "fue": "fue", "str": "fue",
    "vel": "vel", "spd": "vel", "pv": "pv", "vitalidad": "pv", "aplomo": "aplomo", "energia": "energia",
    "bdef": "bdef", "escudo": "escudo", "shield": "escudo", "rd": "rd", "dr": "rd", "ini": "ini",
    "bando": "bando", "side": "bando", "rasgos": "rasgos", "traits": "rasgos",
}
TRAITS = ("acrobacias", "artes-marciales", "espadachin", "robot")
SIDES = {"pj": "pj", "pc": "pj", "pnj": "pnj", "npc": "pnj"}
TARGET_WORDS = frozenset({"a", "contra", "at", "vs", "to"})
FORMS = {"simple": "simple", "compleja": "complex", "complex": "complex"}
#: Actions whose target may follow them directly («ataca OBJETIVO», «primeros-auxilios OBJETIVO»).
_DIRECT_TARGET = frozenset({"atacar", "primeros-auxilios", "golpe-de-gracia", "sacudir"})
#: Option words of actions, kept folded (the rest, e.g. a weapon's name, as typed).
_OPTION_WORDS = frozenset({"parcial", "casi-completa", "carga", "area"})
TYPES = {fold(t): t for t in DAMAGE_TYPES} | {"lethal": "letal", "ballistic": "balistico", "energy": "energia",
                                                "stun": "conmocion"}

USAGE = {
    "alta": ("alta NOMBRE [nh=N] des=N ale=N [per=N] [con=N] [vol=N] [fue=N] [vel=N] [pv=N] [aplomo=N]"
             " [energia=N] [bdef=N] [escudo=N] [rd=L/B/E] [ini=+N] [bando=…] [oculto] [privado] [rasgos=…]"),
    "arma": "arma NOMBRE ARMA [modos=simple,sa,fa,pesado] [cargador=N] [municion=N] [cad=N] [dano=TEXTO] [distancia]",
    "iniciativa": "iniciativa NOMBRE N",
    "orden": "orden NOMBRE tras|antes OTRO",
    "dano": "dano NOMBRE N [letal|balistico|energia|conmocion] [rd=N] [sangrado]",
    "dolor": "dolor NOMBRE TOTAL", "refleja": "refleja NOMBRE TOTAL",
    "critica": "critica NOMBRE TEXTO [+ESTADO …]", "cura": "cura NOMBRE N",
    "energia": "energia NOMBRE -N", "aplomo": "aplomo NOMBRE ±N",
    "estado": "estado NOMBRE +ESTADO[:VALOR] [turnos=N] | -ESTADO",
    "municion": "municion NOMBRE ARMA N", "cambiar": "cambiar A B",
    "retrasa": "NOMBRE retrasa tras OTRO | NOMBRE retrasa final",
}


def parse(line: str, fight: Fight) -> object:
    body = line.strip().removeprefix(":").strip()
    tokens = tokenize(body)
    if not tokens:
        raise Refusal("Orden vacía: escribe una orden (p. ej. «siguiente» o «NOMBRE apuntar»)")
    keyword = KEYWORDS.get(fold(tokens[0]))
    rest = tokens[1:]
    if keyword is None:
        return _combatant_line(fight, tokens)
    if keyword in ("empezar", "siguiente", "turno", "deshacer", "rehacer"):
        no_more(rest, keyword)
        return {"empezar": cmd.Begin, "siguiente": cmd.Next, "turno": cmd.NewTurn,
                "deshacer": cmd.Undo, "rehacer": cmd.Redo}[keyword]()
    if keyword == "alta":
        return _parse_add(rest)
    shared = shared_command(keyword, fight, rest)
    if shared is not None:
        return shared
    if keyword == "arma":
        return _parse_arm(fight, rest)
    if keyword == "iniciativa":
        name, value = _name_and_number(fight, rest, "iniciativa", "Iniciativa")
        return cs.Initiative(name, value)
    if keyword == "tirar":
        return cmd.Roll(take_names(fight, rest))
    if keyword == "sorpresa":
        if not rest:
            raise Refusal("«sorpresa» necesita los nombres de los sorprendidos")
        return cmd.Surprise(take_names(fight, rest))
    if keyword == "orden":
        a, rest = take_name(fight, rest)
        if not rest or fold(rest[0]) not in ("tras", "after", "antes", "before"):
            raise Refusal(f"Se usa «{USAGE['orden']}»")
        before = fold(rest[0]) in ("antes", "before")
        b, rest = take_name(fight, rest[1:])
        no_more(rest, USAGE["orden"])
        return cs.Place(a.name, b.name, before)
    if keyword == "dano":
        return _parse_damage(fight, rest)
    if keyword in ("dolor", "refleja"):
        energy = bool(rest) and fold(rest[-1]) in ("energia", "energy")
        if energy and keyword == "dolor":
            rest = rest[:-1]
        name, total = _name_and_number(fight, rest, keyword, "Total de la tirada")
        return cs.Answer(keyword, name, total, energy)
    if keyword == "critica":
        c, rest = take_name(fight, rest)
        if not rest:
            raise Refusal(f"Se usa «{USAGE['critica']}»")
        conditions = tuple(t[1:] for t in rest if t.startswith("+"))
        text = " ".join(t for t in rest if not t.startswith("+"))
        return cs.Critical(c.name, check_text(text or "sin efecto", "la herida crítica", empty=False),
                           tuple(slug(x.partition(":")[0]) + (":" + x.partition(":")[2] if ":" in x else "")
                                 for x in conditions))
    if keyword == "cura":
        name, amount = _name_and_number(fight, rest, "cura", "Vitalidad")
        return cs.Heal(name, amount)
    if keyword in ("energia", "aplomo"):
        name, delta = _name_and_number(fight, rest, keyword, "Puntos")
        if keyword == "energia" and not rest[-1].startswith(("-", "+")):
            raise Refusal(f"Se usa «{USAGE['energia']}» (con signo: -3 gasta, +3 recupera)")
        return cs.Pool(keyword, name, delta)
    if keyword == "energia-salva":
        if len(rest) != 1 or fold(rest[0]) not in ("si", "no"):
            raise Refusal("Se usa «energia-salva si|no»")
        return cs.EnergySaves(fold(rest[0]) == "si")
    if keyword == "estado":
        return _parse_condition(fight, rest)
    if keyword == "municion":
        c, rest = take_name(fight, rest)
        if len(rest) != 2:
            raise Refusal(f"Se usa «{USAGE['municion']}»")
        return cs.Ammo(c.name, rest[0], number(rest[1], "Munición"))
    raise AssertionError(keyword)  # pragma: no cover


def _name_and_number(fight: Fight, tokens: list[str], keyword: str, what: str) -> tuple[str, int]:
    return name_then_number(fight, tokens, USAGE[keyword], what)


def _parse_add(tokens: list[str]) -> cs.Add:
    if not tokens:
        raise Refusal(f"Se usa «{USAGE['alta']}»")
    values, words = key_values(tokens, USAGE["alta"])
    flags = {"oculto", "hidden", "privado", "private"}
    name_words = [w for w in words if fold(w) not in flags]
    marks = {fold(w) for w in words if fold(w) in flags}
    if not name_words:
        raise Refusal("Falta el nombre del combatiente")
    name = check_name(" ".join(name_words))
    fields: dict = {}
    for key, value in values.items():
        canon = ADD_KEYS.get(key)
        if canon is None:
            raise Refusal(f"No conozco «{key}=» en el alta: se usa «{USAGE['alta']}»")
        if canon == "bando":
            side = SIDES.get(fold(value), value)
            fields["side"] = check_name(side) if side not in ("pj", "pnj") else side
        elif canon == "rasgos":
            traits = []
            for item in value.split(","):
                trait, _, n = item.partition(":")
                trait = slug(trait)
                if trait not in TRAITS:
                    raise Refusal(f"No conozco el rasgo «{trait}»: {', '.join(TRAITS)}")
                if trait == "artes-marciales":
                    n = str(number(n, "Artes marciales (Combate sin armas)")) if n else "3"
                    traits.append(f"{trait}:{n}")
                else:
                    traits.append(trait)
            fields["traits"] = tuple(traits)
        elif canon == "rd":
            parts = value.split("/")
            if len(parts) not in (1, 3):
                raise Refusal("rd=N (para los tres tipos) o rd=L/B/E (letal/balístico/energía)")
            numbers = [number(p, "RD") for p in parts]
            if any(n < 0 for n in numbers):
                raise Refusal("La RD no puede ser negativa")
            fields["dr"] = tuple(numbers * 3 if len(numbers) == 1 else numbers)
        else:
            n = number(value, canon.upper())
            key_of = {"nh": "level", "des": "dex", "ale": "alerta", "per": "per", "con": "con", "vol": "wil",
                      "fue": "strength", "vel": "spd", "pv": "vitality", "aplomo": "composure",
                      "energia": "energy", "bdef": "def_bonus", "escudo": "shield", "ini": "ini_mod"}[canon]
            if canon in ("des", "per", "con", "vol", "fue", "vel") and not 1 <= n <= 10:
                raise Refusal(f"{canon.upper()} {n}: los atributos van de 1 a 10")
            if canon == "ale" and not 0 <= n <= 15:
                raise Refusal(f"Alerta {n}: la habilidad va de 0 a 15")
            if canon in ("pv", "aplomo", "energia") and n < 1:
                raise Refusal(f"{canon}= debe ser al menos 1")
            fields[key_of] = n
    if "dex" not in fields or "alerta" not in fields:
        raise Refusal(f"El alta necesita des= y ale= (iniciativa y Defensa): se usa «{USAGE['alta']}»")
    return cs.Add(name, hidden=bool(marks & {"oculto", "hidden"}),
                  private=bool(marks & {"privado", "private"}), **fields)


def _parse_arm(fight: Fight, tokens: list[str]) -> cs.Arm:
    c, rest = take_name(fight, tokens)
    values, words = key_values(rest, USAGE["arma"])
    ranged = any(fold(w) in ("distancia", "ranged") for w in words)
    words = [w for w in words if fold(w) not in ("distancia", "ranged")]
    if len(words) != 1:
        raise Refusal(f"Se usa «{USAGE['arma']}» (un nombre de arma con espacios va entre comillas)")
    weapon = check_text(words[0], "el nombre del arma", empty=False)
    fields: dict = {}
    for key, value in values.items():
        if key in ("modos", "modes"):
            modes = tuple(fold(m) for m in value.split(","))
            wrong = [m for m in modes if m not in FIRE_MODES]
            if wrong:
                raise Refusal(f"No conozco el modo de fuego «{wrong[0]}»: {', '.join(FIRE_MODES)}")
            fields["modes"] = modes
        elif key in ("cargador", "magazine"):
            fields["magazine"] = number(value, "Cargador")
        elif key in ("municion", "ammo"):
            fields["ammo"] = number(value, "Munición")
        elif key in ("cad", "rate"):
            fields["rate"] = number(value, "Cadencia")
        elif key in ("dano", "damage"):
            fields["damage"] = check_text(value, "el daño del arma", empty=False)
        else:
            raise Refusal(f"No conozco «{key}=» en un arma: se usa «{USAGE['arma']}»")
    for key in ("magazine", "ammo", "rate"):
        if fields.get(key, 0) < 0:
            raise Refusal("Cargador, munición y cadencia no pueden ser negativos")
    return cs.Arm(c.name, weapon, ranged=ranged, **fields)


def _parse_damage(fight: Fight, tokens: list[str]) -> cs.Damage:
    c, rest = take_name(fight, tokens)
    values, words = key_values(rest, USAGE["dano"])
    if not words:
        raise Refusal(f"Se usa «{USAGE['dano']}»")
    amount = number(words[0], "Daño")
    if amount < 0:
        raise Refusal("El daño no puede ser negativo (para curar: «cura NOMBRE N»)")
    kind, bleed = "letal", False
    for word in words[1:]:
        f = fold(word)
        if f in TYPES:
            kind = TYPES[f]
        elif f in ("sangrado", "bleed"):
            bleed = True
        else:
            raise Refusal(f"Sobra «{word}»: se usa «{USAGE['dano']}»")
    dr = None
    for key, value in values.items():
        if key not in ("rd", "dr"):
            raise Refusal(f"No conozco «{key}=»: se usa «{USAGE['dano']}»")
        dr = number(value, "RD")
    return cs.Damage(c.name, amount, kind, dr, bleed)


def _parse_condition(fight: Fight, tokens: list[str]) -> cs.SetCondition:
    c, rest = take_name(fight, tokens)
    values, words = key_values(rest, USAGE["estado"])
    turns = None
    for key, value in values.items():
        if key not in ("turnos", "turns"):
            raise Refusal(f"No conozco «{key}=»: se usa «{USAGE['estado']}»")
        turns = number(value, "Turnos")
    if len(words) == 2 and words[1].isdigit() and turns is None:
        turns = number(words[1], "Turnos")
        words = words[:1]
    if len(words) != 1 or words[0][:1] not in "+-" or len(words[0]) < 2:
        raise Refusal(f"Se usa «{USAGE['estado']}»")
    on = words[0][0] == "+"
    word, _, value = words[0][1:].partition(":")
    if not on and turns is not None:
        raise Refusal("Quitar un estado no lleva turnos=")
    return cs.SetCondition(c.name, slug(word), on, value or None, turns)


def _combatant_line(fight: Fight, tokens: list[str]) -> object:
    c, rest = take_name(fight, tokens)
    if not rest:
        raise Refusal(f"¿Qué hace {c.name}? Escribe una acción: «{cmd.quote(c.name)} apuntar», «… ataca OBJETIVO»…")
    word = fold(rest[0])
    special = ACTIONS.get(word)
    rest = rest[1:]
    if special == "fin":
        no_more(rest, "NOMBRE fin")
        return cs.EndGo(c.name)
    if special == "retrasa":
        if rest and fold(rest[0]) in ("final", "last"):
            no_more(rest[1:], USAGE["retrasa"])
            return cs.Lower(c.name, None)
        if not rest or fold(rest[0]) not in ("tras", "after"):
            raise Refusal(f"Se usa «{USAGE['retrasa']}»")
        other, tail = take_name(fight, rest[1:])
        no_more(tail, USAGE["retrasa"])
        return cs.Lower(c.name, other.name)
    if special in ("compleja", "simple", "gratis"):
        text = " ".join(rest)
        if special == "gratis" and not text:
            raise Refusal(f"Se usa «{cmd.quote(c.name)} gratis TEXTO»")
        return cs.Act(c.name, special, text=check_text(text, "la acción") if text else "")
    action = find_action(word)
    if action is None:
        import difflib
        from .tables import catalog_ids
        close = difflib.get_close_matches(slug(word), catalog_ids(), n=1, cutoff=0.6)
        hint = f": ¿{close[0]}?" if close else ""
        raise Refusal(f"No conozco la acción «{word}» en C-System{hint}")
    return _parse_act(fight, c.name, action.id, rest)


def _parse_act(fight: Fight, name: str, action: str, tokens: list[str]) -> cs.Act:
    values, words = key_values(tokens, f"{name} {action} [a OBJETIVO] [tirada=N] [dano=N]")
    target = None
    kept: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if fold(word) in TARGET_WORDS and target is None and index + 1 < len(words):
            person, tail = take_name(fight, words[index + 1:])
            target = person.name
            words = words[:index] + tail
            continue
        kept.append(word)
        index += 1
    if action in _DIRECT_TARGET and target is None and kept:
        person, tail = take_name(fight, kept)
        target, kept = person.name, tail
    form = None
    amount = None
    rest_words: list[str] = []
    for word in ([] if action == "cambiar-modo" else kept):
        f = fold(word)
        if f in FORMS and form is None:
            form = FORMS[f]
        elif f.lstrip("-").isdigit() and amount is None:
            amount = number(word, "Valor")
        else:
            rest_words.append(fold(word) if fold(word) in _OPTION_WORDS else word)
    fields: dict = {}
    for key, value in values.items():
        if key in ("tirada", "roll"):
            fields["roll"] = number(value, "Tirada")
        elif key in ("dano", "damage"):
            fields["damage"] = tuple(number(p, "Daño") for p in value.split("+"))
            if any(d < 0 for d in fields["damage"]):
                raise Refusal("El daño no puede ser negativo")
        elif key in ("tipo", "type"):
            kind = TYPES.get(fold(value))
            if kind is None:
                raise Refusal(f"No conozco el tipo de daño «{value}»: letal, balistico, energia o conmocion")
            fields["kind"] = kind
        elif key in ("arma", "weapon"):
            fields["weapon"] = value
        elif key == "mod":
            fields["mod"] = number(value, "Modificador")
        else:
            raise Refusal(f"No conozco «{key}=» en una acción")
    if action == "cambiar-modo":
        rest_words = [w for w in kept]
    return cs.Act(name, action, form=form, target=target, amount=amount, words=tuple(rest_words), **fields)
